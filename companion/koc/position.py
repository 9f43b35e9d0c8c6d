"""Knights of Camelot positions as text (TOML), written and read back with located errors.

A position names the scenario, the game turn, the seat order and whose player turn is next,
where the Merlin/Morgan counter stands, optionally the order of the decks and the next chits to
be drawn (so a moderator can play with physical cards and counters, and a test can set up a
situation), and every player knight's record. In a ``[knight.NAME]`` table any field of the
record may be given; the rest take their defaults. Shorthands: ``at`` names an area, ``gear`` is
a list of what he carries, ``lord`` and ``lady`` name cards, ``dwarf = true`` (or
``"arthurian"``), ``mascot`` names an animal counter, ``men_at_arms`` and ``comrades`` list
Knight cards. A ``[parties]`` table lists the knights travelling together, each leader with the
players who ride with him (``Bert = ["Anna"]``).

Example::

    game = "koc"
    scenario = "basic"
    turn = 3
    order = ["Anna", "Bert"]
    current = "Anna"

    [merlin]
    area = "Hampshire"

    [knight.Anna]
    cp = 120
    vp = 30
    at = "Camelot Castle"
    where = "inside"
    lord = "King Arthur"
"""
from __future__ import annotations

import re
from typing import Any

from companion.engine.datafiles import DataFile, suggest
from companion.errors import DataError
from companion.koc.engine import knight as kn

TOP = ("game", "scenario", "turn", "order", "current", "merlin", "decks", "draws", "knight",
       "castles", "first", "over", "winner", "engine", "parties")
WHERE = ("area", "inside", "gate", "ship", "coast", "prison")


# ------------------------------------------------------------------------------ writing
def _key(k: str) -> str:
    return k if re.fullmatch(r"[A-Za-z0-9_-]+", k) else _str(k)


def _str(v: str) -> str:
    return '"' + v.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


def toml_value(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        return repr(v)
    if isinstance(v, str):
        return _str(v)
    if isinstance(v, list):
        return "[" + ", ".join(toml_value(x) for x in v) + "]"
    if isinstance(v, dict):
        items = [(k, x) for k, x in v.items() if x is not None]
        return "{" + ", ".join(f"{_key(k)} = {toml_value(x)}" for k, x in items) + "}"
    raise TypeError(f"cannot write {type(v).__name__} as TOML")


def write_position(world, state: dict, viewer: str = "moderator") -> str:
    koc = state["koc"]
    lines = ["# Knights of Camelot position", 'game = "koc"',
             f"scenario = {_str(koc['scenario'])}", f"turn = {koc['turn']}",
             f"order = {toml_value(koc['order'])}",
             f"current = {_str(koc['order'][koc['current']] if koc['current'] < len(koc['order']) else koc['order'][0])}"]
    if koc.get("over"):
        lines.append("over = true")
    lines += ["", "[merlin]", f"area = {_str(state['merlin']['area'] or '')}"]
    if state["merlin"].get("who"):
        lines.append(f"who = {_str(state['merlin']['who'])}")
    if viewer == "moderator":
        lines += ["", "[decks]"]
        for deck, pile in state["decks"].items():
            lines.append(f"{deck} = {toml_value(pile['draw'])}")
            if pile["discard"]:
                lines.append(f"{deck}_discard = {toml_value(pile['discard'])}")
            if pile["removed"]:
                lines.append(f"{deck}_removed = {toml_value(pile['removed'])}")
        if state.get("draws"):
            lines += ["", "[draws]"] + [f"{k} = {toml_value(v)}" for k, v in state["draws"].items()]
        if state.get("castles"):
            lines += ["", "[castles]"] + [f"{_key(k)} = {toml_value(v)}"
                                          for k, v in state["castles"].items()]
    if state.get("parties"):
        # knights travelling together (counters stacked on the map: public)
        lines += ["", "[parties]"] + [f"{_key(leader)} = {toml_value(p['members'])}"
                                      for leader, p in state["parties"].items()]
    for player, rec in state["knights"].items():
        if viewer not in ("moderator", player):
            continue
        lines += ["", f"[knight.{_key(player)}]"]
        for field, value in rec.items():
            if value is None or field in ("player",):
                continue
            lines.append(f"{_key(field)} = {toml_value(value)}")
    if viewer == "moderator":
        lines += ["", "[engine]",
                  "# Everything else the engine keeps (a paused turn, empty values, cards held "
                  "out of the decks,",
                  "# castellans, ...), as JSON. Edit the fields above: where they differ from "
                  "this, they win.",
                  f"state = {_str(engine_json(state))}"]
    return "\n".join(lines) + "\n"


def engine_json(state: dict) -> str:
    import json

    rest = {k: v for k, v in state.items() if k != "events"}
    return json.dumps(rest, sort_keys=True, ensure_ascii=False, separators=(",", ":"))


def _with_edits(base: Any, unedited: Any, edited: Any) -> Any:
    """``base`` (the engine's record) changed where ``edited`` (the position as read) differs
    from ``unedited`` (what the same fields read as before anybody edited them)."""
    if edited == unedited:
        return base
    if isinstance(base, dict) and isinstance(unedited, dict) and isinstance(edited, dict):
        out = dict(base)
        for k in set(unedited) | set(edited):
            if k not in edited:
                out.pop(k, None)
            elif k not in unedited or k not in base:
                out[k] = edited[k]
            else:
                out[k] = _with_edits(base[k], unedited[k], edited[k])
        return out
    return edited


# ------------------------------------------------------------------------------ reading
def read_position(world, text: str, filename: str, players: list[str] | None = None) -> dict:
    """A position as a game state; with an ``[engine]`` table (as ``write_position`` writes
    for the moderator) the whole state comes back, with the edits made to the fields."""
    import json

    df = DataFile.parse(text, filename)
    engine = df.data.get("engine")
    if engine is None:
        return _read_fields(world, df)
    try:
        base = json.loads(engine.get("state", ""))
        if not isinstance(base, dict) or "koc" not in base or "knights" not in base:
            raise ValueError("not a Knights of Camelot state")
    except (ValueError, AttributeError) as error:
        df.error(f"[engine] state is not a state the engine wrote ({error})", "state",
                 hint="delete the [engine] table to start from the fields alone")
        df.raise_if_errors()
    edited = _read_fields(world, df)
    unedited = _read_fields(world, DataFile.parse(write_position(world, base, "moderator")
                                                  .split("[engine]")[0], filename))
    state = _with_edits(base, unedited, edited)
    state["events"] = []
    return state


def _read_fields(world, df: DataFile) -> dict:
    data = df.data
    df.unknown_keys(data, TOP, "position")
    if data.get("game", "koc") != "koc":
        df.error(f"this is a position of '{data.get('game')}', not of koc", "game")
    from companion.koc.engine.game import SCENARIOS

    scenario = data.get("scenario", "basic")
    if scenario not in SCENARIOS:
        df.error(f"scenario '{scenario}' is not one of {', '.join(SCENARIOS)}", "scenario",
                 hint=suggest(scenario, SCENARIOS))
    knights = data.get("knight", {})
    order = data.get("order") or list(knights)
    if not order:
        df.error("the position needs at least one [knight.NAME] table", "[knight")
    for p in order:
        if p not in knights:
            df.error(f"'{p}' is in the order but has no [knight.{p}] table", "order")
    for p in knights:
        if p not in order:
            df.error(f"[knight.{p}] is not in the order", p)
    current = data.get("current", order[0] if order else None)
    if order and current not in order:
        df.error(f"current '{current}' is not in the order", "current",
                 hint=suggest(str(current), order))
    df.raise_if_errors()
    state: dict[str, Any] = {
        "kind": "koc",
        "koc": {"scenario": scenario, "turn": int(data.get("turn", 1)), "order": list(order),
                "current": order.index(current), "first": data.get("first", order[0]),
                "over": bool(data.get("over", False)), "winner": data.get("winner")},
        "decks": {}, "knights": {}, "pending": {}, "events": [],
        "merlin": {"area": None, "who": None},
    }
    merlin = data.get("merlin", {})
    if merlin.get("area"):
        state["merlin"]["area"] = _area(df, world, merlin["area"])
    if merlin.get("who") not in (None, "merlin", "morgan"):
        df.error("merlin.who must be 'merlin' or 'morgan'", "who")
    state["merlin"]["who"] = merlin.get("who")
    decks = data.get("decks", {})
    for deck, cards in (("knights", world.knights), ("kings", world.kings),
                        ("ladies", world.ladies)):
        names = [c.name for c in cards]
        draw = [_card(df, names, n, deck) for n in decks.get(deck, [])]
        discard = [_card(df, names, n, deck) for n in decks.get(f"{deck}_discard", [])]
        removed = [_card(df, names, n, deck) for n in decks.get(f"{deck}_removed", [])]
        rest = [n for n in names if n not in draw + discard + removed]
        state["decks"][deck] = {"draw": draw + rest, "discard": discard, "removed": removed}
    if data.get("draws"):
        state["draws"] = {k: list(v) for k, v in data["draws"].items()}
    if data.get("castles"):
        state["castles"] = dict(data["castles"])
    for player in order:
        state["knights"][player] = _knight(df, world, player, knights.get(player, {}), scenario)
    parties = data.get("parties", {})
    seen: set[str] = set()
    for leader, members in parties.items():
        group = [leader, *members] if isinstance(members, list) else [leader]
        if not isinstance(members, list) or not members:
            df.error(f"parties.{leader} must list the knights who ride with him", leader)
            continue
        if leader in members:
            df.error(f"parties.{leader}: a leader does not ride in his own party", leader)
            continue
        for p in group:
            if p not in order:
                df.error(f"'{p}' in parties.{leader} is not a player of this game", p,
                         hint=suggest(str(p), order))
            elif p in seen:
                df.error(f"'{p}' rides in two parties", p)
            seen.add(p)
        state.setdefault("parties", {})[leader] = {
            "members": sorted(members, key=lambda p: order.index(p) if p in order else 0),
            "since": state["koc"]["turn"]}
    df.raise_if_errors()
    return state


def _area(df: DataFile, world, typed: str) -> str:
    found = world.match_area(typed)
    if not found.ok:
        df.error(f"no area called '{typed}'", typed,
                 hint=("did you mean " + " or ".join(f"'{x}'" for x in found.suggestions) + "?")
                 if found.suggestions else None)
        return typed
    return found.name


def _card(df: DataFile, names: list[str], typed: str, deck: str) -> str:
    from companion.engine.names import match_name

    found = match_name(typed, names)
    if not found.ok:
        df.error(f"no card '{typed}' in the {deck} deck", typed,
                 hint=("did you mean " + " or ".join(f"'{x}'" for x in found.suggestions) + "?")
                 if found.suggestions else None)
        return typed
    return found.name


ENGINE_RECORDS = (
    # what the engine modules keep on a knight's record beyond the Adventure Journal's fields
    # (docs/koc-engine.md): a written position carries them, so it must read them back
    "captive_summoner", "courting", "declined", "encountered", "faerie_appeal",
    "former_lords", "friendly_persons", "host", "just_replaced", "met", "met_merlin",
    "next_task", "next_turn", "own_castle", "prayed", "released_gear", "reunite",
    "river_block", "temp_friendly", "temp_visited", "town_watch", "unfriendly_persons",
    "vigil", "asleep", "grail", "prisoners", "side_won", "traveller", "castellan", "ship",
    "defeated", "guest_of", "parted", "guard",
)


def _knight(df: DataFile, world, player: str, table: dict, scenario: str) -> dict:
    from companion.koc.engine.game import SCENARIOS

    cp, vp, arthurian = SCENARIOS.get(scenario, (50, 5, False))
    rec = kn.new_knight(player, table.get("name", player), table.get("cp", cp),
                        table.get("vp", vp), arthurian=table.get("arthurian", arthurian))
    allowed = set(rec) | {"where", "gear", "standing"} | set(ENGINE_RECORDS)
    where = f"knight '{player}'"
    df.unknown_keys(table, sorted(allowed), where)
    for key, value in table.items():
        if key in ("cp", "vp", "name", "arthurian"):
            continue
        if key == "at":
            if isinstance(value, dict):
                rec["at"] = {"area": _area(df, world, value.get("area", "")),
                             "where": value.get("where", "area")}
                if value.get("castle"):
                    rec["at"]["castle"] = value["castle"]
            else:
                rec["at"]["area"] = _area(df, world, str(value))
            continue
        if key == "where":
            if value not in WHERE:
                df.error(f"{where}: where must be one of {', '.join(WHERE)}", str(value))
            rec["at"]["where"] = value
            continue
        if key == "gear":
            if isinstance(value, dict):
                rec["gear"] = {g: bool(value.get(g, False)) for g in kn.GEAR}
            else:
                bad = [g for g in value if g not in kn.GEAR]
                if bad:
                    df.error(f"{where}: unknown equipment {bad[0]!r}", str(bad[0]),
                             hint=f"equipment: {', '.join(kn.GEAR)}")
                rec["gear"] = {g: g in value for g in kn.GEAR}
            continue
        if key == "lord" and isinstance(value, str):
            rec["lord"] = _lord(df, world, value)
            continue
        if key == "lady" and isinstance(value, str):
            lady = next((l for l in world.ladies if l.name == value), None)
            if lady is None:
                df.error(f"{where}: no Lady card '{value}'", value,
                         hint=suggest(value, [l.name for l in world.ladies]))
                continue
            rec["lady"] = {"name": lady.name, "castle": lady.home_castle, "seduced": False,
                           "vl": lady.virtue_level, "service_award": lady.service_award,
                           "enchantress": lady.enchantress}
            continue
        if key == "dwarf" and not isinstance(value, dict):
            rec["dwarf"] = None if not value else {"arthurian": value == "arthurian",
                                                   "spares": []}
            continue
        if key == "mascot" and isinstance(value, str):
            chit = next((c for c in world.chits if c.kind == "animal" and c.name == value), None)
            if chit is None:
                df.error(f"{where}: no animal counter '{value}'", value)
                continue
            rec["mascot"] = {"name": chit.name, "wl": chit.wound_level}
            continue
        if key in ("men_at_arms", "comrades") and value and isinstance(value[0], str):
            rec[key] = [_npk(df, world, n) for n in value]
            continue
        if isinstance(rec.get(key), dict) and isinstance(value, dict):
            rec[key] = {**rec[key], **value}      # fields left out keep their defaults
            continue
        rec[key] = value
    if rec["at"]["area"] is None:
        df.error(f"{where}: 'at' (the area he is in) is missing", f"knight.{player}")
    return rec


def _lord(df: DataFile, world, typed: str) -> dict:
    for k in world.kings:
        if k.name == typed:
            return {"kind": "king", "name": k.name, "vl": k.virtue_level,
                    "castle": world.kingdoms[k.kingdom].royal_castle}
    for k in world.knights:
        if k.name == typed:
            return {"kind": "knight", "name": k.name, "vl": k.virtue_level, "castle": None}
    df.error(f"no King or Knight card '{typed}' to be a Lord", typed,
             hint=suggest(typed, [k.name for k in world.kings] + [k.name for k in world.knights]))
    return {"kind": "king", "name": typed, "vl": 0, "castle": None}


def _npk(df: DataFile, world, typed: str) -> dict:
    for k in world.knights:
        if k.name == typed:
            return {"kind": "knight", "name": k.name, "vl": k.virtue_level,
                    "cp": k.chivalry_points, "arthurian": k.arthurian, "joined": 0}
    df.error(f"no Knight card '{typed}'", typed,
             hint=suggest(typed, [k.name for k in world.knights]))
    return {"kind": "knight", "name": typed, "vl": 7, "cp": 70, "arthurian": False, "joined": 0}
