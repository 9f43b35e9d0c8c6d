"""Gral positions as text (the game's "FEN"), written and read back.

A position is a few ``key: value`` lines; ``#`` starts a comment. Example::

    game: gral
    players: Anna, Bert, Cora
    first: Anna
    phase: round                 # opening, round or over
    next: Bert                   # whose action comes next
    opened: Anna, Bert, Cora     # who has made the opening allocation
    rounds: 2
    piece: Alberto Castellano @ Tortosa
    piece: Yusuf ibn Tariq @ uncovered
    grail: Golgota               # a field where it lies, or the initiate carrying it
    sheet: Anna: Alberto Castellano = 10+5; Mansur Al-Jallah = 3
    paid: Anna: Mansur Al-Jallah = 10
    known: Bert: Alberto Castellano = 12
    lost: Cora: Yusuf ibn Tariq = 7
    standing: Cora: object any to Masyaf up to 5
    hq: Anna = Templars          # variant "The Original" only

``piece`` lines are optional as a whole (all initiates then stand on their headquarters); if
any is given, every initiate must be. Units on a sheet are given by value; the first free unit
of each value is used (bar A before bar B). A position names no secrets of its own: the sheets,
standing orders and everything else are exactly what the moderator's view of the game holds.
"""
from __future__ import annotations

import re
from typing import Any

from companion.engine.names import match_name
from companion.engine.positions import LineReader
from companion.gral.orders import Parser, objection_text
from companion.gral.rules import influence, new_state, pick_units

KEYS = ("game", "players", "first", "phase", "next", "opened", "rounds", "actions", "piece",
        "grail", "sheet", "paid", "known", "lost", "standing", "hq")
REPEATABLE = ("piece", "sheet", "paid", "known", "lost", "standing", "hq")


def write_position(world, state: dict, viewer: str = "moderator") -> str:
    """The position as text; a player's version holds only their own sheet and standing orders,
    the public version none."""
    lines = ["# Die Jagd nach dem Gral position", "game: gral",
             f"players: {', '.join(state['players'])}", f"first: {state['first']}",
             f"phase: {state['phase']}"]
    if state["phase"] == "round":
        lines.append(f"next: {state['next']}")
    if state["opened"]:
        lines.append(f"opened: {', '.join(state['opened'])}")
    lines.append(f"rounds: {state['rounds']}")
    lines.append(f"actions: {state['actions']}")
    for player, order in state["hq"].items():
        lines.append(f"hq: {player} = {world.order[order].name}")
    for i in world.initiates:
        where = state["pieces"][i.id]
        lines.append(f"piece: {i.name} @ {world.field[where].name if where else 'uncovered'}")
    holder = state["grail"]["holder"]
    lines.append(f"grail: {world.initiate[holder].name if holder else world.field[state['grail']['field']].name}")
    shown = state["players"] if viewer == "moderator" else (
        [viewer] if viewer in state["players"] else [])
    for player in shown:
        sheet = state["sheets"][player]
        groups = []
        for i in world.initiates:
            values = [str(world.unit[u].value) for u in sorted(sheet["units"], key=_unit_order)
                      if sheet["units"][u] == i.id]
            if values:
                groups.append(f"{i.name} = {'+'.join(values)}")
        if groups:
            lines.append(f"sheet: {player}: {'; '.join(groups)}")
        paid = [f"{world.initiate[i].name} = {n}" for i, n in sorted(sheet["paid"].items()) if n]
        if paid:
            lines.append(f"paid: {player}: {'; '.join(paid)}")
    for key in ("known", "lost"):
        for player in state["players"]:
            items = [f"{world.initiate[i].name} = {n}" for i, n in
                     sorted(state[key].get(player, {}).items(), key=lambda kv: _roster(world, kv[0]))]
            if items:
                lines.append(f"{key}: {player}: {'; '.join(items)}")
    for player in shown:
        for ob in state["standing"].get(player, []):
            lines.append(f"standing: {player}: {objection_text(world, ob)}")
    return "\n".join(lines) + "\n"


def _unit_order(unit_id: str) -> tuple[str, int]:
    return (unit_id[0], int(unit_id[1:]))


def _roster(world, initiate: str) -> int:
    return [i.id for i in world.initiates].index(initiate)


class _Reader(LineReader):
    def __init__(self, world, filename: str):
        super().__init__(filename)
        self.world = world


def read_position(world, text: str, filename: str) -> dict[str, Any]:
    """Parse and validate a position; raise DataError(s) with file, line and column."""
    r = _Reader(world, filename)
    entries = r.scan(text, KEYS, REPEATABLE)
    r.raise_if_errors()

    def single(key: str, required: bool = True) -> tuple[int, int, str] | None:
        if key in entries:
            return entries[key][0]
        if required:
            r.error(1, 1, f"the position needs a '{key}:' line")
        return None

    game = single("game")
    if game and game[2].lower() != "gral":
        r.error(game[0], game[1], f"this is a position of '{game[2]}', not of gral")
    players_entry = single("players")
    players = [p.strip() for p in players_entry[2].split(",")] if players_entry else []
    if players_entry and (len(players) < 2 or len(players) > 8 or not all(players)):
        r.error(players_entry[0], players_entry[1], "gral needs 2 to 8 players, separated by commas")
    if len({p.casefold() for p in players}) != len(players):
        r.error(players_entry[0], players_entry[1], "a player is listed twice")
    r.raise_if_errors()

    def player_ref(entry: tuple[int, int, str], typed: str) -> str | None:
        return r.name(entry[0], entry[1], typed.strip(), players, "player")

    first_entry = single("first")
    first = player_ref(first_entry, first_entry[2]) if first_entry else None
    hq: dict[str, str] = {}
    for entry in entries.get("hq", []):
        player_text, _, order_text = entry[2].partition("=")
        p = player_ref(entry, player_text)
        o = r.name(entry[0], entry[1], order_text.strip(), [o.name for o in world.orders], "order")
        if p and o:
            hq[p] = world.order_by_name[o]
    variant = "original" if hq else "standard"
    if hq and (len(players) != 4 or len(hq) != 4 or len(set(hq.values())) != 4):
        r.error(entries["hq"][0][0], 1, "'The Original' needs 4 players, each with a different "
                "headquarters")
    state = new_state(world, players, first or players[0], variant, hq)

    phase_entry = single("phase")
    if phase_entry:
        if phase_entry[2] not in ("opening", "round", "over"):
            r.error(phase_entry[0], phase_entry[1], f"phase '{phase_entry[2]}' is not one of "
                    "opening, round, over")
        else:
            state["phase"] = phase_entry[2]
    if "opened" in entries:
        entry = entries["opened"][0]
        state["opened"] = [p for p in (player_ref(entry, t) for t in entry[2].split(",") if t.strip()) if p]
    elif state["phase"] != "opening":
        state["opened"] = list(players)
    next_entry = single("next", required=state["phase"] == "round")
    if next_entry:
        state["next"] = player_ref(next_entry, next_entry[2]) or state["next"]
    for key in ("rounds", "actions"):
        entry = single(key, required=False)
        if entry:
            if not entry[2].isdigit():
                r.error(entry[0], entry[1], f"'{key}' must be a whole number")
            else:
                state[key] = int(entry[2])
    if state["phase"] == "round" and len(state["opened"]) != len(players):
        r.error(phase_entry[0], phase_entry[1], "phase 'round' needs every player's opening "
                "allocation ('opened' lists all players)")

    pieces = entries.get("piece", [])
    placed: set[str] = set()
    for entry in pieces:
        initiate_text, sep, where = entry[2].partition("@")
        if not sep:
            r.error(entry[0], entry[1], "expected 'piece: <initiate> @ <field or uncovered>'")
            continue
        name = r.name(entry[0], entry[1], initiate_text.strip(), world.initiate_names, "initiate")
        if not name:
            continue
        initiate = world.initiate_by_name[name]
        if initiate in placed:
            r.error(entry[0], entry[1], f"{name} is placed twice")
        placed.add(initiate)
        if where.strip().lower() == "uncovered":
            state["pieces"][initiate] = None
        else:
            col = entry[1] + entry[2].index("@") + 1
            f = r.name(entry[0], col, where.strip(), world.field_names, "field")
            if f:
                state["pieces"][initiate] = world.field_by_name[f]
    if pieces and len(placed) != len(world.initiates) and not r.errors:
        missing = [i.name for i in world.initiates if i.id not in placed]
        r.error(pieces[-1][0], 1, f"initiates not placed: {', '.join(missing)}",
                "place every initiate, or leave out all 'piece:' lines for the start position")

    grail_entry = single("grail", required=False)
    if grail_entry:
        typed = grail_entry[2]
        as_init = match_name(typed, world.initiate_names)
        as_field = match_name(typed, world.field_names)
        if as_init.ok and not as_field.ok:
            holder = world.initiate_by_name[as_init.name]
            if state["pieces"][holder] is None:
                r.error(grail_entry[0], grail_entry[1], f"{as_init.name} is uncovered and "
                        "cannot carry the grail")
            else:
                state["grail"] = {"field": state["pieces"][holder], "holder": holder}
        else:
            f = r.name(grail_entry[0], grail_entry[1], typed, world.field_names, "field")
            if f:
                state["grail"] = {"field": world.field_by_name[f], "holder": None}

    for key in ("sheet", "paid", "known", "lost"):
        for entry in entries.get(key, []):
            player_text, sep, rest = entry[2].partition(":")
            if not sep:
                r.error(entry[0], entry[1], f"expected '{key}: <player>: <initiate> = <amount>; ...'")
                continue
            p = player_ref(entry, player_text)
            if not p:
                continue
            for item in filter(None, (s.strip() for s in rest.split(";"))):
                name_text, eq, amount = item.partition("=")
                col = entry[1] + entry[2].find(item)
                name = r.name(entry[0], col, name_text.strip(), world.initiate_names, "initiate")
                if not name or not eq:
                    if name:
                        r.error(entry[0], col, f"expected '{name} = <amount>'")
                    continue
                initiate = world.initiate_by_name[name]
                amount = amount.strip()
                if key == "sheet":
                    if not re.fullmatch(r"\d+(\+\d+)*", amount):
                        r.error(entry[0], col, f"units must be values joined by '+', not '{amount}'")
                        continue
                    units, missing = pick_units(state, p, [int(v) for v in amount.split("+")], world)
                    if missing is not None:
                        r.error(entry[0], col, f"{p}'s sheet has no free unit of {missing} left",
                                f"units: {', '.join(str(u.value) for u in world.units)}")
                        continue
                    for unit in units:
                        state["sheets"][p]["units"][unit] = initiate
                else:
                    if not amount.isdigit():
                        r.error(entry[0], col, f"'{amount}' is not a whole number")
                        continue
                    if key == "paid":
                        state["sheets"][p]["paid"][initiate] = int(amount)
                    else:
                        state[key].setdefault(p, {})[initiate] = int(amount)

    parser = Parser(world, players)
    for entry in entries.get("standing", []):
        player_text, sep, rest = entry[2].partition(":")
        p = player_ref(entry, player_text) if sep else None
        if not sep:
            r.error(entry[0], entry[1], "expected 'standing: <player>: object ...'")
            continue
        if not p:
            continue
        offset = entry[1] + len(player_text) + 1
        pad = " " * (offset - 1) + rest
        orders, errs = parser.parse(pad)
        for err in errs:
            r.error(entry[0], err.col or 1, err.message, err.suggestion)
        if orders.moves or orders.assigns or orders.passed or orders.standing is None:
            if not errs:
                r.error(entry[0], entry[1], "a standing order must be an 'object' line")
            continue
        state["standing"][p].extend(ob.to_json() for ob in orders.standing)

    if not r.errors:
        _consistency(world, state, r, entries)
    r.raise_if_errors()
    return state


def _consistency(world, state: dict, r: _Reader, entries: dict) -> None:
    """Checks across lines: payments, revealed amounts and losses must fit the sheets."""
    line = lambda key: entries[key][0][0] if key in entries else 1  # noqa: E731
    for p in state["players"]:
        sheet = state["sheets"][p]
        for initiate, paid in sheet["paid"].items():
            if influence(state, p, initiate, world) < 0:
                r.error(line("paid"), 1, f"{p} paid {paid} on {world.initiate[initiate].name}, "
                        "more than the units assigned to him")
        for initiate, amount in state["known"].get(p, {}).items():
            if state["pieces"][initiate] is not None and amount > influence(state, p, initiate, world):
                r.error(line("known"), 1, f"{p} is known to have at least {amount} on "
                        f"{world.initiate[initiate].name} but the sheet gives only "
                        f"{influence(state, p, initiate, world)}")
        for initiate, amount in state["lost"].get(p, {}).items():
            if state["pieces"][initiate] is not None:
                r.error(line("lost"), 1, f"{world.initiate[initiate].name} is on the board; "
                        "only uncovered initiates have lost influence")
            elif amount != influence(state, p, initiate, world):
                r.error(line("lost"), 1, f"{p} lost {amount} on {world.initiate[initiate].name} "
                        f"but the sheet gives {influence(state, p, initiate, world)}")
    holder = state["grail"]["holder"]
    if state["phase"] != "over" and holder is not None and state["variant"] == "standard":
        bearer = world.initiate[holder]
        if state["pieces"][holder] == world.order[bearer.order].headquarters:
            r.error(line("grail"), 1, f"{bearer.name} carries the grail on his own headquarters, "
                    "so the game would already be over")
    if state["phase"] == "over":
        r.error(line("phase"), 1, "a game cannot start from a finished position")



