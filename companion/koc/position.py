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

from companion.engine.names import exact_names
from companion.engine.numbers import is_digits
from companion.errors import DataError, DataErrors
from companion.koc.engine import knight as kn

TOP = ("game", "scenario", "turn", "order", "current", "merlin", "decks", "draws", "knight",
       "castles", "first", "over", "winner", "engine", "parties", "knave_winner", "terms",
       "grail")
WHERE = ("area", "inside", "gate", "ship", "coast", "prison", "war")


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
    for key in ("winner", "knave_winner"):
        if koc.get(key):
            lines.append(f"{key} = {_str(koc[key])}")
    if koc.get("terms"):
        lines += ["", "[terms]"] + [f"{_key(k)} = {toml_value(v)}"
                                    for k, v in koc["terms"].items()]
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
    lines += _grail_lines(state)          # the Grail's whereabouts: public
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
    # in the state's own order, so that a position read back writes the same text again
    return json.dumps(rest, ensure_ascii=False, separators=(",", ":"))


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
def suggest(word: str, choices) -> str | None:
    """A 'did you mean' hint (engine/datafiles.py, imported only when a position is read:
    writing one does not need it)."""
    from companion.engine.datafiles import suggest as closest

    return closest(word, choices)


class Source:
    """The text of a position, parsed, with every error located by file, line and column.

    Errors name a table (``knight.Anna``), a key in it and optionally a value; the line and
    column are those of the value, else of the key, else of the table's header, else of
    ``fallback`` (the ``[engine]`` state line for what only the engine's copy holds), else
    line 1, column 1. Every error has a line and a column."""

    HEADER = re.compile(r"^\s*\[\[?\s*(.*?)\s*\]\]?\s*(?:#.*)?$")

    def __init__(self, text: str, filename: str, data: dict | None = None):
        self.path = filename
        self.text = text
        self.lines = text.splitlines() or [""]
        self.errors: list[DataError] = []
        self.fallback: tuple[int, int] | None = None
        self.tables: dict[str, tuple[int, int]] = {"": (0, len(self.lines))}
        current, begin = "", 0
        for i, line in enumerate(self.lines):
            m = self.HEADER.match(line)
            if m and not line.lstrip().startswith("#"):
                self._close(current, begin, i)
                current, begin = self._dotted(m.group(1)), i
        self._close(current, begin, len(self.lines))
        self.data = self._parse() if data is None else data

    def _close(self, name: str, begin: int, end: int) -> None:
        if name == "":
            self.tables[""] = (0, end)
        elif name not in self.tables:
            self.tables[name] = (begin, end)

    @staticmethod
    def _dotted(inner: str) -> str:
        parts = re.findall(r'"((?:[^"\\]|\\.)*)"|\'([^\']*)\'|([^."\'\s]+)', inner)
        return ".".join(a or b or c for a, b, c in parts)

    def _parse(self) -> dict:
        from companion.engine.datafiles import load_toml

        return load_toml(self.text, self.path)

    # -- locating ------------------------------------------------------------------------------
    def _key_line(self, table: str, key: str) -> tuple[int, int] | None:
        begin, end = self.tables.get(table, (None, None))
        if begin is None:
            return None
        form = re.compile(r"^(\s*)(?:\"" + re.escape(key.replace("\\", "\\\\").replace('"', '\\"'))
                          + r"\"|'" + re.escape(key) + r"'|" + re.escape(key) + r")\s*[=.]")
        for i in range(begin, end):
            m = form.match(self.lines[i])
            if m:
                return i, len(m.group(1)) + 1
        return None

    def locate(self, table: str | None = None, key: str | None = None,
               value: Any = None) -> tuple[int, int]:
        table = table or ""
        found = self._key_line(table, key) if key is not None else None
        if found is not None:
            i, col = found
            if value is not None and not isinstance(value, (dict, list)):
                needles = [_str(value) if isinstance(value, str) else toml_value(value)]
                if isinstance(value, str):
                    needles.append(value)
                end = self.tables.get(table, (0, len(self.lines)))[1]
                for j in range(i, end):
                    if j > i and (self.HEADER.match(self.lines[j]) or
                                  re.match(r"^\s*[\w\"'-]+\s*=", self.lines[j])):
                        break
                    for needle in needles:
                        at = self.lines[j].find(needle, col if j == i else 0)
                        if at >= 0:
                            return j + 1, at + 1
            return i + 1, col
        if key is not None and self.fallback is not None:
            return self.fallback
        if table in self.tables and table != "":
            return self.tables[table][0] + 1, 1
        if self.fallback is not None:
            return self.fallback
        return 1, 1

    def error(self, message: str, table: str | None = None, key: str | None = None,
              value: Any = None, hint: str | None = None) -> None:
        line, col = self.locate(table, key, value)
        self.errors.append(DataError(message, path=self.path, line=line, column=col,
                                     hint=hint))

    def raise_if_errors(self) -> None:
        if self.errors:
            errors, self.errors = self.errors, []
            raise errors[0] if len(errors) == 1 else DataErrors(errors)


def _hint(found) -> str | None:
    if found.suggestions:
        return "did you mean " + " or ".join(f"'{x}'" for x in found.suggestions) + "?"
    return None


def read_position(world, text: str, filename: str, players: list[str] | None = None) -> dict:
    """A position as a game state; with an ``[engine]`` table (as ``write_position`` writes
    for the moderator) the whole state comes back, with the edits made to the fields.

    Anything that is not a state the engine can play from is refused with DataError (or
    DataErrors), each error with the file, a line and a column."""
    src = Source(text, filename)
    try:
        return _read(world, src)
    except (DataError, DataErrors):
        raise
    except Exception as exc:           # a check this reader lacks: still a located refusal
        raise DataError(f"the position cannot be read ({type(exc).__name__}: {exc})",
                        path=filename, line=1, column=1,
                        hint="compare it with the position 'companion show GAME --position' "
                             "writes") from None


def _read(world, src: Source) -> dict:
    import json

    data = src.data
    _check_raw(world, src)
    src.raise_if_errors()
    engine = data.get("engine")
    if engine is None:
        state = _read_fields(world, src)
        StateCheck(world, src).check(state)
        src.raise_if_errors()
        return state
    line, col = src.locate("engine", "state")
    src.fallback = (line, col)
    try:
        base = json.loads(engine["state"])
    except ValueError as error:
        src.error(f"[engine] state is not JSON the engine wrote ({error})", "engine", "state",
                  hint="delete the [engine] table to start from the fields alone")
        src.raise_if_errors()
    if not isinstance(base, dict):
        src.error("[engine] state is not a Knights of Camelot state", "engine", "state",
                  hint="delete the [engine] table to start from the fields alone")
        src.raise_if_errors()
    # the engine's copy: every error in it points at the [engine] state line
    copy_src = Source("", src.path, data={})
    copy_src.fallback = (line, col)
    StateCheck(world, copy_src, prefix="[engine] state: ").check(base)
    copy_src.raise_if_errors()
    edited = _read_fields(world, src)
    written = write_position(world, base, "moderator").rpartition("\n[engine]\n")[0] + "\n"
    unedited_src = Source(written, src.path)
    unedited_src.fallback = (line, col)
    try:
        unedited = _read_fields(world, unedited_src)
    except (DataError, DataErrors) as error:
        first = error.errors[0] if isinstance(error, DataErrors) else error
        src.error(f"[engine] state does not read back: {first.message}", "engine", "state",
                  hint="delete the [engine] table to start from the fields alone")
        src.raise_if_errors()
    state = _with_edits(base, unedited, edited)
    state["events"] = []
    StateCheck(world, src).check(state)
    src.raise_if_errors()
    return state


# -- the text as written: tables, keys and the types of the shorthands -----------------------
DECK_KEYS = tuple(f"{d}{s}" for d in ("knights", "kings", "ladies")
                  for s in ("", "_discard", "_removed"))
MAX_PLAYERS = 8


def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _type_name(v: Any) -> str:
    return {bool: "a boolean", int: "a number", float: "a number", str: "a string",
            list: "a list", dict: "a table"}.get(type(v), type(v).__name__)


def _odd_values(value: Any, path: tuple = ()):
    """Values TOML allows but a game state cannot hold: dates and times, infinite numbers."""
    import datetime
    import math

    if isinstance(value, dict):
        for k, v in value.items():
            yield from _odd_values(v, path + (k,))
    elif isinstance(value, list):
        for v in value:
            yield from _odd_values(v, path)
    elif isinstance(value, (datetime.date, datetime.time)):
        yield path, value, "a date or time"
    elif isinstance(value, float) and not math.isfinite(value):
        yield path, value, "an infinite number"


def _where_of(path: tuple) -> tuple[str, str | None]:
    """(table, key) for a path of keys into the TOML data."""
    if not path:
        return "", None
    if path[0] == "knight" and len(path) >= 3:
        return f"knight.{path[1]}", str(path[2])
    if len(path) >= 2 and path[0] in ("merlin", "decks", "draws", "castles", "parties", "engine",
                                      "knight", "grail"):
        return str(path[0]), str(path[1])
    return "", str(path[0])


def _check_raw(world, src: Source) -> None:
    from companion.koc.engine.game import SCENARIOS

    data = src.data
    for path, value, what in _odd_values(data):
        table, key = _where_of(path)
        src.error(f"{'.'.join(map(str, path))}: {what} has no place in a position", table, key)
    for key in data:
        if key not in TOP:
            src.error(f"position: unknown key '{key}'", "", key, hint=suggest(key, TOP) or
                      f"known keys: {', '.join(TOP)}")

    def need(key: str, kinds: tuple, what: str) -> bool:
        value = data.get(key)
        if value is None:
            return False
        ok = isinstance(value, kinds) and not (isinstance(value, bool) and bool not in kinds)
        if not ok:
            src.error(f"'{key}' must be {what}, not {_type_name(value)}", key if isinstance(
                value, dict) else "", None if isinstance(value, dict) else key)
        return ok

    if need("game", (str,), "a string") and data["game"] != "koc":
        src.error(f"this is a position of '{data['game']}', not of koc", "", "game",
                  data["game"])
    if need("scenario", (str,), "a string") and data["scenario"] not in SCENARIOS:
        src.error(f"scenario '{data['scenario']}' is not one of {', '.join(SCENARIOS)}", "",
                  "scenario", data["scenario"], hint=suggest(data["scenario"], SCENARIOS))
    if need("turn", (int,), "a whole number") and data["turn"] < 1:
        src.error(f"turn {data['turn']}: the game turn is 1 or more", "", "turn")
    need("over", (bool,), "true or false")
    need("winner", (str,), "a player's name")
    need("knave_winner", (str,), "a player's name")
    need("terms", (dict,), "a table ([terms])")
    for table in ("merlin", "decks", "draws", "castles", "parties", "knight", "engine",
                  "grail"):
        need(table, (dict,), f"a table ([{table}])")
    knights = data.get("knight") if isinstance(data.get("knight"), dict) else {}
    order = data.get("order")
    if order is None:
        order = list(knights)
    elif not isinstance(order, list) or not all(isinstance(p, str) for p in order):
        src.error("'order' must be a list of the players' names in seat order", "", "order")
        order = [p for p in order if isinstance(p, str)] if isinstance(order, list) else []
    _check_players(src, order, "order" if "order" in data else None)
    if not order:
        src.error("the position needs at least one [knight.NAME] table", "", "order",
                  hint="add [knight.Anna] with at least at = \"<area>\"")
    for p in order:
        if p not in knights:
            src.error(f"'{p}' is in the order but has no [knight.{p}] table", "", "order", p)
    for p in knights:
        if p not in order:
            src.error(f"[knight.{p}] is not in the order", f"knight.{p}",
                      hint=suggest(p, order))
    for key in ("current", "first"):
        if need(key, (str,), "a player's name") and order and data[key] not in order:
            src.error(f"{key} '{data[key]}' is not in the order", "", key, data[key],
                      hint=suggest(data[key], order))
    merlin = data.get("merlin")
    if isinstance(merlin, dict):
        src_unknown(src, merlin, ("area", "who"), "merlin")
        for key in ("area", "who"):
            if key in merlin and not isinstance(merlin[key], str):
                src.error(f"merlin.{key} must be a string, not {_type_name(merlin[key])}",
                          "merlin", key)
    decks = data.get("decks")
    if isinstance(decks, dict):
        src_unknown(src, decks, DECK_KEYS, "decks")
        for key, cards in decks.items():
            if key in DECK_KEYS and (not isinstance(cards, list) or
                                     not all(isinstance(c, str) for c in cards)):
                src.error(f"decks.{key} must be a list of card names", "decks", key)
    draws = data.get("draws")
    if isinstance(draws, dict):
        for kind, chits in draws.items():
            if kind not in world.chit_kinds:
                src.error(f"draws: no kind of counter '{kind}'", "draws", kind,
                          hint=suggest(kind, list(world.chit_kinds)))
            elif not isinstance(chits, list) or not all(isinstance(c, str) for c in chits):
                src.error(f"draws.{kind} must be a list of counters (\"Lion 5\")", "draws", kind)
    castles = data.get("castles")
    if isinstance(castles, dict):
        for name, placed in castles.items():
            if not isinstance(placed, dict):
                src.error(f"castles.{name} must be a table, not {_type_name(placed)}",
                          "castles", name)
    parties = data.get("parties")
    if isinstance(parties, dict):
        for leader, members in parties.items():
            if not isinstance(members, list) or not all(isinstance(m, str) for m in members):
                src.error(f"parties.{leader} must list the knights who ride with him",
                          "parties", leader)
    engine = data.get("engine")
    if isinstance(engine, dict):
        src_unknown(src, engine, ("state",), "engine")
        if not isinstance(engine.get("state"), str):
            src.error("[engine] needs state = \"...\" (the JSON the engine wrote)", "engine",
                      "state", hint="delete the [engine] table to start from the fields alone")
    for player, table in knights.items():
        if not isinstance(table, dict):
            src.error(f"knight.{player} must be a table, not {_type_name(table)}", "knight",
                      player)
            continue
        _check_knight_raw(world, src, player, table)


def src_unknown(src: Source, table: dict, allowed, where: str) -> None:
    allowed = list(allowed)
    for key in table:
        if key not in allowed:
            src.error(f"{where}: unknown key '{key}'", where, key,
                      hint=suggest(str(key), allowed) or f"known keys: {', '.join(allowed)}")


def _check_players(src: Source, order: list, key: str | None) -> None:
    """The players' names as the game needs them (1-8, usable names, distinct file names)."""
    from companion.engine.identity import names_problem

    table = "" if key else None
    found = names_problem(order, 1, MAX_PLAYERS, "Knights of Camelot")
    if found is not None:
        index, error = found
        if index is None:
            src.error(error.message, table, key, hint=error.hint)
        else:
            src.error(error.message, table, key, order[index], hint=error.hint)


SHORTHAND_TYPES = {
    "cp": (int,), "vp": (int,), "name": (str,), "arthurian": (bool,), "at": (str, dict),
    "where": (str,), "gear": (list, dict), "lord": (str, dict, type(None)),
    "lady": (str, dict, type(None)), "dwarf": (bool, str, dict), "mascot": (str, dict),
    "men_at_arms": (list,), "comrades": (list,), "standing": (list,),
}


def _check_knight_raw(world, src: Source, player: str, table: dict) -> None:
    where = f"knight.{player}"
    for key, kinds in SHORTHAND_TYPES.items():
        if key not in table:
            continue
        value = table[key]
        if not isinstance(value, kinds) or (isinstance(value, bool) and bool not in kinds):
            src.error(f"{where}: '{key}' must be {' or '.join(_type_name(k()) if k is not type(None) else 'absent' for k in kinds)}, "
                      f"not {_type_name(value)}", where, key,
                      None if isinstance(value, (dict, list)) else value)
    at = table.get("at")
    if isinstance(at, dict):
        src_unknown(src, at, ("area", "where", "castle"), f"{where}.at")
        for key in ("area", "where", "castle"):
            if key in at and not isinstance(at[key], str):
                src.error(f"{where}: at.{key} must be a string", where, "at")
        if "area" not in at:
            src.error(f"{where}: at needs area = \"<area>\"", where, "at")
    gear = table.get("gear")
    if isinstance(gear, list):
        for g in gear:
            if not isinstance(g, str) or g not in kn.GEAR:
                src.error(f"{where}: unknown equipment {g!r}", where, "gear", g,
                          hint=f"equipment: {', '.join(kn.GEAR)}")
    elif isinstance(gear, dict):
        for g, v in gear.items():
            if g not in kn.GEAR:
                src.error(f"{where}: unknown equipment {g!r}", where, "gear",
                          hint=f"equipment: {', '.join(kn.GEAR)}")
            elif not isinstance(v, bool):
                src.error(f"{where}: gear.{g} must be true or false", where, "gear")
    if isinstance(table.get("dwarf"), str) and table["dwarf"] != "arthurian":
        src.error(f"{where}: dwarf is true, false or \"arthurian\"", where, "dwarf")
    for key in ("men_at_arms", "comrades"):
        value = table.get(key)
        if isinstance(value, list) and value:
            if not (all(isinstance(v, str) for v in value) or
                    all(isinstance(v, dict) for v in value)):
                src.error(f"{where}: {key} lists Knight cards by name", where, key)


def _read_fields(world, src: Source) -> dict:
    """The state the fields describe (the raw text is checked already)."""
    data = src.data
    knights = data.get("knight", {})
    scenario = data.get("scenario", "basic")
    order = data.get("order") or list(knights)
    current = data.get("current", order[0])
    state: dict[str, Any] = {
        "kind": "koc",
        "koc": {"scenario": scenario, "turn": data.get("turn", 1), "order": list(order),
                "current": order.index(current), "first": data.get("first", order[0]),
                "over": data.get("over", False), "winner": data.get("winner")},
        "decks": {}, "knights": {}, "pending": {}, "events": [],
        "merlin": {"area": None, "who": None},
    }
    if data.get("knave_winner"):
        state["koc"]["knave_winner"] = data["knave_winner"]
    terms = _terms(src, scenario, data.get("terms"))
    if terms is not None:
        state["koc"]["terms"] = terms
    merlin = data.get("merlin", {})
    if merlin.get("area"):
        state["merlin"]["area"] = _area(src, world, merlin["area"], "merlin", "area")
    state["merlin"]["who"] = merlin.get("who")
    for player in order:
        state["knights"][player] = _knight(src, world, player, knights.get(player, {}),
                                           scenario, terms)
    if data.get("castles"):
        state["castles"] = {k: dict(v) for k, v in data["castles"].items()}
    held = _held_cards(state)
    decks = data.get("decks", {})
    for deck, cards in (("knights", world.knights), ("kings", world.kings),
                        ("ladies", world.ladies)):
        names = [c.name for c in cards]
        exact = exact_names(names)
        piles = {}
        for pile in ("", "_discard", "_removed"):
            key = f"{deck}{pile}"
            piles[pile] = [n if n in exact else _card(src, names, n, deck, key)
                           for n in decks.get(key, [])]
        given = piles[""] + piles["_discard"] + piles["_removed"]
        rest = [n for n in names if n not in given and (deck, n) not in held]
        state["decks"][deck] = {"draw": piles[""] + rest, "discard": piles["_discard"],
                                "removed": piles["_removed"]}
    if data.get("draws"):
        state["draws"] = {k: list(v) for k, v in data["draws"].items()}
    if isinstance(data.get("grail"), dict):
        _grail_read(src, world, data["grail"], state)
    for leader, members in data.get("parties", {}).items():
        state.setdefault("parties", {})[leader] = {
            "members": sorted(members, key=lambda p: order.index(p) if p in order else 0),
            "since": state["koc"]["turn"]}
    src.raise_if_errors()
    return state


def _held_cards(state: dict) -> dict[tuple[str, str], str]:
    """Cards out of the decks because somebody holds them: (deck, card) -> who holds it."""
    held: dict[tuple[str, str], str] = {}
    for player, rec in state["knights"].items():
        if not isinstance(rec, dict):
            continue
        for group in ("comrades", "men_at_arms"):
            for npk in rec.get(group) or []:
                if isinstance(npk, dict) and isinstance(npk.get("name"), str):
                    deck = "kings" if npk.get("kind") == "king" else "knights"
                    held.setdefault((deck, npk["name"]), f"knight.{player}.{group}")
        knave = rec.get("knave")
        for p in (knave.get("prisoners") or []) if isinstance(knave, dict) else []:
            # KNAVES, Imprisoning a Person: a Knave's prisoner (led or held) is out of his deck
            if isinstance(p, dict) and isinstance(p.get("name"), str):
                deck = {"king": "kings", "lady": "ladies"}.get(p.get("kind"), "knights")
                held.setdefault((deck, p["name"]), f"knight.{player}.knave.prisoners")
    return held


def _area(src: Source, world, typed: str, table: str, key: str) -> str:
    found = world.match_area(typed)
    if not found.ok:
        src.error(f"no area called '{typed}'", table, key, typed, hint=_hint(found))
        return typed
    return found.name


def _card(src: Source, names: list[str], typed: str, deck: str, key: str) -> str:
    from companion.engine.names import match_name

    found = match_name(typed, names)
    if not found.ok:
        src.error(f"no card '{typed}' in the {deck} deck", "decks", key, typed,
                  hint=_hint(found) or (f"'{typed}' could be any of: "
                                        f"{', '.join(found.candidates)}"
                                        if found.ambiguous else None))
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
    "defeated", "guest_of", "parted", "guard", "office",
    "rome", "war",
    "quest",
    "knave",
)


def _terms(src: Source, scenario: str, table: dict | None) -> dict | None:
    """A designed scenario's terms (``[terms]``, as the game stores them): the keys and kinds
    of a rulebook scenario's terms, over the scenario named by ``scenario``."""
    from companion.koc import scenarios

    if not isinstance(table, dict):
        return None
    base = scenarios.builtin(scenario if scenario in scenarios.BUILTIN else "basic")
    for key, value in table.items():
        if key not in base:
            src.error(f"terms: unknown key '{key}'", "terms", key, hint=suggest(key, base))
        elif type(value) is not type(base[key]):
            src.error(f"terms.{key} must be {type(base[key]).__name__}, not "
                      f"{_type_name(value)}", "terms", key)
    return {**base, **table, "key": base["key"]}


def _knight(src: Source, world, player: str, table: dict, scenario: str,
            terms: dict | None = None) -> dict:
    from companion.koc import scenarios

    terms = terms or (scenarios.builtin(scenario) if scenario in scenarios.BUILTIN
                      else scenarios.builtin("basic"))
    cp, vp, arthurian = terms["cp"], terms["vp"], terms["arthurian"]
    rec = kn.new_knight(player, table.get("name", player), table.get("cp", cp),
                        table.get("vp", vp), arthurian=table.get("arthurian", arthurian))
    allowed = sorted(set(rec) | {"where", "gear", "standing"} | set(ENGINE_RECORDS))
    where = f"knight.{player}"
    src_unknown(src, table, allowed, where)
    for key, value in table.items():
        if key in ("cp", "vp", "name", "arthurian") or key not in allowed:
            continue
        if key == "at":
            if isinstance(value, dict):
                rec["at"] = {"area": _area(src, world, value.get("area", ""), where, "at"),
                             "where": value.get("where", "area")}
                if value.get("castle"):
                    rec["at"]["castle"] = value["castle"]
            else:
                rec["at"]["area"] = _area(src, world, value, where, "at")
            continue
        if key == "where":
            rec["at"]["where"] = value
            continue
        if key == "gear":
            if isinstance(value, dict):
                rec["gear"] = {g: bool(value.get(g, False)) for g in kn.GEAR}
            else:
                rec["gear"] = {g: g in value for g in kn.GEAR}
            continue
        if key == "lord" and isinstance(value, str):
            rec["lord"] = _lord(src, world, value, where)
            continue
        if key == "lady" and isinstance(value, str):
            lady = next((l for l in world.ladies if l.name == value), None)
            if lady is None:
                src.error(f"{where}: no Lady card '{value}'", where, "lady", value,
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
                src.error(f"{where}: no animal counter '{value}'", where, "mascot", value,
                          hint=suggest(value, sorted({c.name for c in world.chits
                                                      if c.kind == "animal"})))
                continue
            rec["mascot"] = {"name": chit.name, "wl": chit.wound_level}
            continue
        if key in ("men_at_arms", "comrades") and value and isinstance(value[0], str):
            rec[key] = [_npk(src, world, n, where, key) for n in value]
            continue
        if key == "knave":
            from companion.koc.engine.knaves import read_record

            rec["knave"] = read_record(src, where, value)
            continue
        if isinstance(rec.get(key), dict) and isinstance(value, dict):
            rec[key] = {**rec[key], **value}      # fields left out keep their defaults
            continue
        rec[key] = value
    if rec["at"]["area"] is None:
        src.error(f"{where}: 'at' (the area he is in) is missing", where,
                  hint="add at = \"<area>\" to the table")
    return rec


def _lord(src: Source, world, typed: str, where: str) -> dict:
    for k in world.kings:
        if k.name == typed:
            return {"kind": "king", "name": k.name, "vl": k.virtue_level,
                    "castle": world.kingdoms[k.kingdom].royal_castle}
    for k in world.knights:
        if k.name == typed:
            return {"kind": "knight", "name": k.name, "vl": k.virtue_level, "castle": None}
    src.error(f"no King or Knight card '{typed}' to be a Lord", where, "lord", typed,
              hint=suggest(typed, [k.name for k in world.kings] + [k.name for k in world.knights]))
    return {"kind": "king", "name": typed, "vl": 0, "castle": None}


def _npk(src: Source, world, typed: str, where: str, key: str) -> dict:
    for k in world.knights:
        if k.name == typed:
            return {"kind": "knight", "name": k.name, "vl": k.virtue_level,
                    "cp": k.chivalry_points, "arthurian": k.arthurian, "joined": 0}
    src.error(f"no Knight card '{typed}'", where, key, typed,
              hint=suggest(typed, [k.name for k in world.knights]))
    return {"kind": "knight", "name": typed, "vl": 7, "cp": 70, "arthurian": False, "joined": 0}


# -- the state: what the engine relies on -----------------------------------------------------
NONE = type(None)
RECORD_TYPES: dict[str, tuple[type, ...]] = {
    "name": (str,), "cp": (int,), "vp": (int,), "arthurian": (bool,), "poison": (int,),
    "held_wl": (int, NONE), "wounds": (int,), "luck": (int, NONE), "at": (dict,),
    "gear": (dict,), "on_foot": (bool,), "items": (list,), "dwarf": (dict, NONE),
    "mascot": (dict, NONE), "men_at_arms": (list,), "comrades": (list,),
    "party_extra": (list,), "lord": (dict, NONE), "lady": (dict, NONE),
    "lord_summons": (int,), "lady_summons": (int,), "token": (bool,), "home": (dict, NONE),
    "original_home": (dict, NONE), "friendly": (list,), "outlawed": (list,),
    "exiles": (list,), "enemies": (list,), "oaths": (list,), "enchantments": (list,),
    "enchantress": (str, NONE), "mad": (dict, NONE), "animal": (str, NONE),
    "immobile": (list,), "lost": (bool,), "prison": (dict, NONE), "tasks": (list,),
    "arthur": (dict,), "challenged": (list,), "persistence": (dict,),
    "fasting": (dict, NONE), "slain": (bool,), "turns_played": (int,),
    "standing": (list,), "player": (str,),
}
AT_LEAST = {"cp": kn.CP_MIN, "vp": kn.VP_MIN, "poison": 0, "held_wl": 0, "wounds": 0,
            "luck": 1, "lord_summons": 0, "lady_summons": 0, "turns_played": 0}
AT_MOST = {"cp": kn.CP_MAX, "luck": 6}
STRING_LISTS = ("friendly", "outlawed", "exiles", "enemies", "oaths", "challenged")


def _kinds_text(kinds: tuple) -> str:
    words = {int: "a whole number", bool: "true or false", str: "a string", dict: "a table",
             list: "a list", NONE: "left out"}
    return " or ".join(words[k] for k in kinds)


def _typed(value: Any, kinds: tuple) -> bool:
    if isinstance(value, bool) and bool not in kinds:
        return False
    return isinstance(value, kinds)


class StateCheck:
    """The invariants of a game state the engine plays from, each refusal located."""

    def __init__(self, world, src: Source, prefix: str = ""):
        self.world = world
        self.src = src
        self.prefix = prefix

    def err(self, message: str, table: str | None, key: str | None, value: Any = None,
            hint: str | None = None) -> None:
        self.src.error(self.prefix + message, table, key, value, hint)

    def check(self, state: dict) -> None:
        for key, kinds in (("koc", (dict,)), ("knights", (dict,)), ("decks", (dict,)),
                           ("merlin", (dict,)), ("pending", (dict,))):
            if not _typed(state.get(key), kinds):
                self.err(f"the state needs '{key}' ({_kinds_text(kinds)})", "", None)
        if self.src.errors:
            return
        order = self.koc(state["koc"])
        if order is None:
            return
        knights = state["knights"]
        if list(knights) != order and sorted(knights) != sorted(order):
            self.err(f"the knights ({', '.join(map(str, knights))}) are not the players of the "
                     f"order ({', '.join(order)})", "", "order")
            return
        for player in order:
            self.knight(player, knights[player], state)
        self.merlin(state["merlin"])
        self.decks(state)
        self.parties(state, order)
        _grail_check(self, state, order)
        for player, pending in state["pending"].items():
            if player not in order or not isinstance(pending, dict):
                self.err(f"a paused turn of '{player}', who is not a player", "engine", "state")
        for key in ("castles", "castellans", "draws", "chits_out", "party_turn"):
            if key in state and not isinstance(state[key], dict):
                self.err(f"'{key}' must be a table", key if key != "castellans" else "engine",
                         None if key != "castellans" else "state")
        for name, placed in state.get("castles", {}).items():
            if not isinstance(placed, dict):
                self.err(f"castles.{name} must be a table", "castles", name)
            elif "guards" in placed and not (isinstance(placed["guards"], list) and all(
                    isinstance(g, dict) and isinstance(g.get("name"), str)
                    for g in placed["guards"])):
                self.err(f"castles.{name}: guards must be a list of Knight records",
                         "castles", name)
        for name, card in state.get("castellans", {}).items():
            if not isinstance(card, dict) or not isinstance(card.get("name"), str):
                self.err(f"castellans.{name} must be a Knight card's record", "engine", "state")
        for kind, chits in state.get("draws", {}).items():
            if kind not in self.world.chit_kinds or not isinstance(chits, list) or \
                    not all(isinstance(c, str) for c in chits):
                self.err(f"draws.{kind} must be a list of counters of a known kind", "draws",
                         kind)
                continue
            names = {c.name for c in self.world.chits if c.kind == kind}
            for chit in chits:
                name, _, wl = chit.rpartition(" ")
                if chit not in names and not (is_digits(wl) and name in names):
                    self.err(f"draws.{kind}: no {kind} counter '{chit}'", "draws", kind, chit,
                             hint=suggest(chit, sorted(names)))

    # -- the game's own record ------------------------------------------------------------
    def koc(self, koc: dict) -> list[str] | None:
        from companion.koc.engine.game import SCENARIOS

        where = {"scenario": "scenario", "turn": "turn", "order": "order", "current": "current",
                 "first": "first", "over": "over", "winner": "winner"}
        kinds = {"scenario": (str,), "turn": (int,), "order": (list,), "current": (int,),
                 "first": (str, NONE), "over": (bool,), "winner": (str, NONE)}
        ok = True
        for key, want in kinds.items():
            if key not in koc:
                self.err(f"the game record lacks '{key}'", "", where[key])
                ok = False
            elif not _typed(koc[key], want):
                self.err(f"'{key}' must be {_kinds_text(want)}", "", where[key])
                ok = False
        if not ok:
            return None
        order = koc["order"]
        if not order or not all(isinstance(p, str) for p in order) or \
                len(set(order)) != len(order):
            self.err("the order must name each player once", "", "order")
            return None
        if koc["scenario"] not in SCENARIOS:
            self.err(f"scenario '{koc['scenario']}' is not one of {', '.join(SCENARIOS)}", "",
                     "scenario", koc["scenario"])
        if koc["turn"] < 1:
            self.err(f"turn {koc['turn']}: the game turn is 1 or more", "", "turn")
        if not 0 <= koc["current"] <= len(order):
            self.err("whose player turn is next is not a seat of the order", "", "current")
        if koc["first"] is not None and koc["first"] not in order:
            self.err(f"first '{koc['first']}' is not in the order", "", "first", koc["first"])
        return order

    # -- a player knight -------------------------------------------------------------------
    def knight(self, player: str, rec: Any, state: dict) -> None:
        table = f"knight.{player}"
        if not isinstance(rec, dict):
            self.err(f"{table} must be a table", table, None)
            return
        bad = set()
        for key, kinds in RECORD_TYPES.items():
            if key not in rec:
                if key not in ("standing", "player"):
                    self.err(f"{table}: the record lacks '{key}'", table, key)
                    bad.add(key)
                continue
            value = rec[key]
            if not _typed(value, kinds):
                self.err(f"{table}: '{key}' must be {_kinds_text(kinds)}, not "
                         f"{_type_name(value)}", table, key, value)
                bad.add(key)
                continue
            if isinstance(value, int) and not isinstance(value, bool):
                low, high = AT_LEAST.get(key), AT_MOST.get(key)
                if (low is not None and value < low) or (high is not None and value > high):
                    span = (f"{low} to {high}" if high is not None else f"at least {low}")
                    self.err(f"{table}: {key} {value} is out of bounds ({span})", table, key,
                             value)
        if "player" in rec and rec["player"] != player and "player" not in bad:
            self.err(f"{table}: the record is of '{rec['player']}'", table, "player")
        if "name" not in bad and not rec["name"].strip():
            self.err(f"{table}: the knight's name is empty", table, "name")
        if "at" not in bad:
            self.position(table, rec["at"])
            area = rec["at"].get("area")
            if area in self.world.areas and self.world.areas[area].kind == "sea" \
                    and not rec.get("ship"):
                self.err(f"{table}: at sea in {area} without a ship: give 'ship' (or put "
                         "him ashore)", table, "at")
        if "gear" not in bad:
            gear = rec["gear"]
            if sorted(gear) != sorted(kn.GEAR) or not all(isinstance(v, bool)
                                                            for v in gear.values()):
                self.err(f"{table}: gear must say true or false for each of "
                         f"{', '.join(kn.GEAR)}", table, "gear")
        for key in STRING_LISTS:
            if key not in bad and not all(isinstance(x, str) for x in rec[key]):
                self.err(f"{table}: {key} must be a list of names", table, key)
        for key, need in (("items", "key"), ("enchantments", "key"), ("party_extra", None),
                          ("immobile", None), ("tasks", "status"), ("comrades", "name"),
                          ("men_at_arms", "name")):
            if key in bad:
                continue
            for entry in rec[key]:
                if not isinstance(entry, dict) or (need and not isinstance(entry.get(need),
                                                                            str)):
                    what = f" with {need} = \"...\"" if need else ""
                    self.err(f"{table}: each of {key} must be a table{what}", table, key)
                    break
        for key in ("comrades", "men_at_arms"):
            if key in bad:
                continue
            for npk in rec[key]:
                if not isinstance(npk, dict) or not isinstance(npk.get("name"), str):
                    continue
                deck = self.world.kings if npk.get("kind") == "king" else self.world.knights
                if npk.get("kind") in ("knight", "king", None) and \
                        npk["name"] not in {c.name for c in deck}:
                    self.err(f"{table}: no card '{npk['name']}' to be among his {key}", table,
                             key, npk["name"])
        if "lord" not in bad and rec["lord"] is not None:
            lord = rec["lord"]
            cards = {"king": self.world.kings, "knight": self.world.knights}.get(
                lord.get("kind"))
            if cards is None or lord.get("name") not in {c.name for c in cards}:
                self.err(f"{table}: the Lord must be a King or Knight card", table, "lord",
                         lord.get("name") if isinstance(lord.get("name"), str) else None)
        if "lady" not in bad and rec["lady"] is not None:
            lady = rec["lady"]
            if not isinstance(lady.get("name"), str) or (
                    lady["name"] not in {c.name for c in self.world.ladies}
                    and not lady.get("morgan")):
                self.err(f"{table}: the Lady must be a Lady card", table, "lady",
                         lady.get("name") if isinstance(lady.get("name"), str) else None)
        if "dwarf" not in bad and rec["dwarf"] is not None:
            spares = rec["dwarf"].get("spares")
            if not isinstance(spares, list) or not all(s in kn.GEAR for s in spares):
                self.err(f"{table}: dwarf.spares must list equipment "
                         f"({', '.join(kn.GEAR)})", table, "dwarf")
        if "mascot" not in bad and rec["mascot"] is not None:
            m = rec["mascot"]
            if not isinstance(m.get("name"), str) or not _typed(m.get("wl"), (int,)):
                self.err(f"{table}: the Mascot needs name and wl", table, "mascot")
        if "arthur" not in bad:
            arthur = rec["arthur"]
            if not _typed(arthur.get("favour"), (bool,)) or \
                    not _typed(arthur.get("bonus"), (int,)):
                self.err(f"{table}: arthur needs favour (true or false) and bonus (a number)",
                         table, "arthur")
        if "standing" in rec and "standing" not in bad:
            for line in rec["standing"]:
                if not isinstance(line, dict) or not isinstance(line.get("key"), str) or \
                        not isinstance(line.get("answer"), str) or \
                        not isinstance(line.get("tags"), list):
                    self.err(f"{table}: each standing answer needs key, tags and answer",
                             table, "standing")
                    break

    def position(self, table: str, at: dict) -> None:
        area, where = at.get("area"), at.get("where")
        if not isinstance(area, str):
            self.err(f"{table}: 'at' needs the area he is in", table, "at")
        elif area not in self.world.areas:
            found = self.world.match_area(area)
            self.err(f"{table}: no area called '{area}'", table, "at", area,
                     hint=_hint(found))
        elif where in ("area", "inside", "gate") and self.world.areas[area].kind == "sea":
            self.err(f"{table}: in {area} a knight is aboard a ship (where = \"ship\")",
                     table, "where" if self.src._key_line(table, "where") else "at")
        if where not in WHERE:
            key = "where" if self.src._key_line(table, "where") else "at"
            self.err(f"{table}: where must be one of {', '.join(WHERE)}", table, key,
                     where if isinstance(where, str) else None)
        if "castle" in at and not isinstance(at["castle"], (str, NONE)):
            self.err(f"{table}: at.castle must be a castle's name", table, "at")

    def merlin(self, merlin: dict) -> None:
        area = merlin.get("area")
        if area is not None and (not isinstance(area, str) or area not in self.world.areas):
            self.err(f"merlin: no area called '{area}'", "merlin", "area",
                     area if isinstance(area, str) else None)
        if merlin.get("who") not in (None, "merlin", "morgan"):
            self.err("merlin.who must be 'merlin' or 'morgan'", "merlin", "who")

    # -- the cards: each once, in a pile or held ------------------------------------------------
    def decks(self, state: dict) -> None:
        decks = state["decks"]
        cards = {"knights": self.world.knights, "kings": self.world.kings,
                 "ladies": self.world.ladies}
        if sorted(decks) != sorted(cards):
            self.err(f"the decks must be {', '.join(cards)}", "decks", None)
            return
        held = _held_cards(state)
        twice = self._held_twice(state)
        for deck, known in cards.items():
            pile = decks[deck]
            if not isinstance(pile, dict) or any(
                    not isinstance(pile.get(p), list) or
                    not all(isinstance(c, str) for c in pile[p])
                    for p in ("draw", "discard", "removed")):
                self.err(f"decks.{deck} needs draw, discard and removed lists of cards",
                         "decks", deck)
                continue
            names = {c.name for c in known}
            seen: dict[str, str] = {}
            for part, key in (("draw", deck), ("discard", f"{deck}_discard"),
                              ("removed", f"{deck}_removed")):
                for card in pile[part]:
                    if card not in names:
                        self.err(f"no card '{card}' in the {deck} deck", "decks", key, card,
                                 hint=suggest(card, sorted(names)))
                    elif card in seen:
                        self.err(f"'{card}' is in the {deck} deck twice ({seen[card]} and "
                                 f"{part})", "decks", key, card)
                    elif (deck, card) in held:
                        self.err(f"'{card}' is in the {deck} deck ({part}) and held by "
                                 f"{held[(deck, card)]}", "decks", key, card)
                    seen.setdefault(card, part)
        for (deck, card), (first, second) in twice.items():
            table, _, key = second.rpartition(".")
            self.err(f"'{card}' is held twice: by {first} and by {second}", table, key, card)

    def _held_twice(self, state: dict) -> dict:
        holders: dict[tuple[str, str], str] = {}
        twice = {}
        places = []
        for player, rec in state["knights"].items():
            for group in ("comrades", "men_at_arms"):
                for npk in rec.get(group) or []:
                    if isinstance(npk, dict) and isinstance(npk.get("name"), str):
                        deck = "kings" if npk.get("kind") == "king" else "knights"
                        places.append(((deck, npk["name"]), f"knight.{player}.{group}"))
        for name, placed in state.get("castles", {}).items():
            for guard in placed.get("guards", []) if isinstance(placed, dict) else []:
                if isinstance(guard, dict) and isinstance(guard.get("name"), str):
                    places.append((("knights", guard["name"]), f"castles.{name}"))
        for where, place in places:
            if where in holders:
                twice.setdefault(where, (holders[where], place))
            holders.setdefault(where, place)
        return twice

    # -- parties -------------------------------------------------------------------------------
    def parties(self, state: dict, order: list[str]) -> None:
        parties = state.get("parties", {})
        if not isinstance(parties, dict):
            self.err("parties must be a table", "parties", None)
            return
        seen: set[str] = set()
        for leader, party in parties.items():
            members = party.get("members") if isinstance(party, dict) else None
            if not isinstance(members, list) or not members or \
                    not all(isinstance(m, str) for m in members):
                self.err(f"parties.{leader} must list the knights who ride with him", "parties",
                         leader)
                continue
            if not _typed(party.get("since"), (int,)):
                self.err(f"parties.{leader}: since must be a game turn", "engine", "state")
            if leader in members:
                self.err(f"parties.{leader}: a leader does not ride in his own party",
                         "parties", leader, leader)
                continue
            for p in [leader, *members]:
                if p not in order:
                    self.err(f"'{p}' in parties.{leader} is not a player of this game",
                             "parties", leader, p if p != leader else None,
                             hint=suggest(str(p), order))
                elif p in seen:
                    self.err(f"'{p}' rides in two parties", "parties", leader, p)
                seen.add(p)


# ------------------------------------------------------------------------------ the Grail
GRAIL_KEYS = ("castle", "bearer", "permission", "seen_turn")


def _grail_lines(state: dict) -> list[str]:
    """``[grail]`` (engine/grail.py): where the Holy Grail rests or who bears it, King
    Arthur's leave to seek it (Campaign), the last game turn it was seen where it rests."""
    rec = state.get("grail")
    if not isinstance(rec, dict):
        return []
    lines = ["", "[grail]"]
    if rec.get("castle"):
        lines.append(f"castle = {_str(rec['castle'])}")
    if rec.get("bearer"):
        lines.append(f"bearer = {_str(rec['bearer'])}")
    if rec.get("permission"):
        lines.append("permission = true")
    if rec.get("seen_turn"):
        lines.append(f"seen_turn = {rec['seen_turn']}")
    return lines


def _grail_read(src: Source, world, table: dict, state: dict) -> None:
    src_unknown(src, table, GRAIL_KEYS, "grail")
    kinds = {"castle": (str,), "bearer": (str,), "permission": (bool,), "seen_turn": (int,)}
    for key, want in kinds.items():
        if key in table and not _typed(table[key], want):
            src.error(f"grail.{key} must be {_kinds_text(want)}, not "
                      f"{_type_name(table[key])}", "grail", key)
            return
    rec = {"castle": None, "bearer": None, "permission": bool(table.get("permission", False)),
           "seen_turn": table.get("seen_turn", 0)}
    if table.get("castle"):
        rec["castle"] = _area(src, world, table["castle"], "grail", "castle")
    bearer = table.get("bearer")
    if bearer:
        if bearer not in state["knights"]:
            src.error(f"grail.bearer '{bearer}' is not a player", "grail", "bearer", bearer,
                      hint=suggest(bearer, list(state["knights"])))
            return
        rec["bearer"] = bearer
        state["knights"][bearer]["grail"] = True
        if table.get("castle"):
            src.error("the Grail rests in a castle or is borne, not both", "grail", "castle")
    elif not table.get("castle"):
        rec["castle"] = "Carbonek"
    state["grail"] = rec


def _grail_check(check: "StateCheck", state: dict, order: list[str]) -> None:
    """The engine's copy of the Grail's record: a known castle, or a player bearing it."""
    rec = state.get("grail")
    if rec is None:
        return
    if not isinstance(rec, dict):
        check.err("'grail' must be a table", "grail", None)
        return
    castle, bearer = rec.get("castle"), rec.get("bearer")
    if castle is not None and castle not in check.world.areas:
        check.err(f"grail: no castle called '{castle}'", "grail", "castle")
    if bearer is not None and bearer not in order:
        check.err(f"grail: the bearer '{bearer}' is not a player", "grail", "bearer")
