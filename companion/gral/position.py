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

``game``, ``players``, ``first``, ``phase``, ``next`` (in phase round) and ``grail`` are
required, so that a file cut short is refused; ``rounds`` and ``actions`` default to 0.
``piece`` lines are optional as a whole (all initiates then stand on their headquarters); if
any is given, every initiate must be. Units on a sheet are given by value; the first free unit
of each value is used (bar A before bar B). A position names no secrets of its own: the sheets,
standing orders and everything else are exactly what the moderator's view of the game holds.
"""
from __future__ import annotations

import re
from typing import Any

from companion.engine.names import match_name
from companion.engine.positions import Entry, LineReader
from companion.engine.words import counted, word_for
from companion.gral.orders import Parser, ending_clash, objection_text
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
            # by value (not by unit), so that the text read back and written again is the same
            values = [str(v) for v in sorted(world.unit[u].value for u in sheet["units"]
                                             if sheet["units"][u] == i.id)]
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
    def __init__(self, world, filename: str, text: str):
        super().__init__(filename, text)
        self.world = world


def _items(text: str, start_col: int, sep: str = ",") -> list[tuple[str, int]]:
    """The ``sep``-separated items of a value (stripped, empty ones kept) with the column each
    starts at."""
    out = []
    pos = 0
    for piece in text.split(sep):
        lead = len(piece) - len(piece.lstrip())
        out.append((piece.strip(), start_col + pos + lead))
        pos += len(piece) + 1
    return out


def player_problem(names: list[str]) -> tuple[int | None, str, str | None] | None:
    """Why these players cannot play (index of the name at fault or None, message, hint), or
    None: the checks 'companion new' makes on player names, so that a setup file's mistakes are
    reported with their line and column."""
    from companion.engine.identity import names_problem

    found = names_problem([n for n in names], 2, 8, "Die Jagd nach dem Gral")
    if found is None:
        return None
    index, error = found
    return index, error.message, error.hint


def setup_players(text: str) -> list[str]:
    """The players of a position text for ``companion new --setup``. When the players line is
    missing or would be refused, none: the command then reads the position, whose errors name
    the file, line and column."""
    for raw in text.splitlines():
        m = re.match(r"\s*players\s*:\s*(.*)$", raw.split("#", 1)[0], re.IGNORECASE)
        if m:
            names = [n.strip() for n in m.group(1).split(",")]
            return [] if player_problem(names) else names
    return []


def read_position(world, text: str, filename: str,
                  options: dict[str, Any] | None = None) -> dict[str, Any]:
    """Parse and validate a position; raise DataError(s) with file, line and column.

    With ``options`` (those of the game being created) the position must also fit them: the
    variant, and a round limit not yet reached."""
    r = _Reader(world, filename, text)
    entries = r.scan(text, KEYS, REPEATABLE)
    r.raise_if_errors()

    def single(key: str, example: str | None = None) -> Entry | None:
        if key in entries:
            return entries[key][0]
        if example is not None:
            r.missing(key, example)
        return None

    game = single("game", "gral")
    if game and game[2].lower() != "gral":
        r.error(game[0], game[1], f"this is a position of '{game[2]}', not of gral",
                "a Gral position starts with 'game: gral'")
    players_entry = single("players", "Anna, Bert, Cora")
    players: list[str] = []
    if players_entry:
        items = _items(players_entry[2], players_entry[1])
        players = [name for name, _ in items]
        problem = player_problem(players)
        if problem:
            index, message, hint = problem
            col = items[index][1] if index is not None else players_entry[1]
            r.error(players_entry[0], col, message, hint)
    r.raise_if_errors()
    n = len(players)

    def player_ref(entry: Entry, typed: str, col: int | None = None) -> str | None:
        col = col or entry[1]
        if not typed.strip():
            r.error(entry[0], col, "expected a player's name", f"players: {', '.join(players)}")
            return None
        return r.name(entry[0], col, typed.strip(), players, "player")

    first_entry = single("first", players[0])
    first = player_ref(first_entry, first_entry[2]) if first_entry else None
    hq: dict[str, str] = {}
    hq_entries = entries.get("hq", [])
    order_names = [o.name for o in world.orders]
    for entry in hq_entries:
        player_text, eq, order_text = entry[2].partition("=")
        if not eq:
            r.error(entry[0], entry[1], "expected 'hq: <player> = <order>'",
                    f"orders: {', '.join(order_names)}")
            continue
        p = player_ref(entry, player_text)
        col = entry[1] + len(player_text) + 1 + (len(order_text) - len(order_text.lstrip()))
        o = r.name(entry[0], col, order_text.strip(), order_names, "order") \
            if order_text.strip() else r.error(entry[0], col, "expected an order's name",
                                               f"orders: {', '.join(order_names)}")
        if p and o:
            if p in hq:
                r.error(entry[0], entry[1], f"{p} has two headquarters")
            elif world.order_by_name[o] in hq.values():
                r.error(entry[0], col, f"{o} is the headquarters of another player already")
            else:
                hq[p] = world.order_by_name[o]
    variant = "original" if hq_entries else "standard"
    if hq_entries and not r.errors and (n != 4 or len(hq) != 4):
        r.error(hq_entries[-1][0], 1, "'The Original' needs 4 players, each with a different "
                "headquarters: one 'hq:' line for each player")
    if options is not None and options.get("variant", variant) != variant:
        if hq_entries:
            r.error(hq_entries[0][0], 1, "'hq:' lines make this a position of the variant 'The "
                    "Original', but the game is created with variant="
                    f"{options['variant']}", "add --option variant=original")
        else:
            r.missing("hq", "Anna = Templars")
            r.errors[-1].message = ("the variant 'The Original' needs an 'hq:' line for each "
                                    "of the 4 players")
    state = new_state(world, players, first or players[0], variant, hq)

    phase_entry = single("phase", "round")
    if phase_entry:
        if phase_entry[2] not in ("opening", "round", "over"):
            r.error(phase_entry[0], phase_entry[1], f"phase '{phase_entry[2]}' is not one of "
                    "opening, round, over")
        elif phase_entry[2] == "over":
            r.error(phase_entry[0], phase_entry[1], "a game cannot start from a finished "
                    "position", "write 'phase: round' (or 'opening')")
        else:
            state["phase"] = phase_entry[2]
    phase = state["phase"]
    phase_ok = phase_entry is not None and phase_entry[2] in ("opening", "round")
    if "opened" in entries:
        entry = entries["opened"][0]
        state["opened"] = []
        for typed, col in _items(entry[2], entry[1]):
            p = player_ref(entry, typed, col)
            if p and p in state["opened"]:
                r.error(entry[0], col, f"{p} is listed twice")
            elif p:
                state["opened"].append(p)
    elif phase != "opening":
        state["opened"] = list(players)
    if phase == "round":
        next_entry = single("next", players[0])
        if next_entry:
            state["next"] = player_ref(next_entry, next_entry[2]) or state["next"]
        if len(state["opened"]) != n and phase_entry and not r.errors:
            r.error(phase_entry[0], phase_entry[1], "phase 'round' needs every player's opening "
                    "allocation ('opened' lists all players)")
    elif "next" in entries and phase_entry and phase_entry[2] == phase:
        entry = entries["next"][0]
        r.error(entry[0], 1, "'next' belongs to phase 'round'; in the opening everybody "
                "allocates at once", "remove the line, or write 'phase: round'")
    if phase == "opening" and phase_ok and len(state["opened"]) == n and "opened" in entries:
        entry = entries["opened"][0]
        r.error(entry[0], entry[1], "every player has made the opening allocation, so the "
                "phase is 'round'", f"write 'phase: round' and 'next: {state['first']}'")
    numbers = {}
    for key in ("rounds", "actions"):
        entry = single(key)
        if entry:
            value = r.number(entry[0], entry[1], entry[2], f"'{key}'")
            if value is not None:
                state[key] = numbers[key] = value
    if phase == "opening" and phase_ok:
        for key, value in numbers.items():
            if value:
                entry = entries[key][0]
                r.error(entry[0], entry[1], f"'{key}' is {value}, but no round is played "
                        "before the opening allocation is complete", f"write '{key}: 0'")
    elif "actions" in numbers and phase_ok and not r.errors:
        seat = (players.index(state["next"]) - players.index(state["first"])) % n
        expected = state["rounds"] * n + seat
        if state["actions"] != expected:
            entry = entries["actions"][0]
            r.error(entry[0], entry[1], f"'actions' is {state['actions']}, but {state['rounds']} "
                    f"{word_for(state['rounds'], 'round')} of {n} players and "
                    f"{counted(seat, 'action')} since {state['first']} "
                    f"started this round make {expected}", f"write 'actions: {expected}'")
    limit = (options or {}).get("round-limit") or 0
    if limit and state["rounds"] >= limit and "rounds" in entries:
        entry = entries["rounds"][0]
        r.error(entry[0], entry[1], f"round {state['rounds']} has reached the round limit of "
                f"{limit}, so the game would be over")

    pieces = entries.get("piece", [])
    placed: dict[str, int] = {}
    for entry in pieces:
        initiate_text, sep, where = entry[2].partition("@")
        if not sep:
            r.error(entry[0], entry[1], "expected 'piece: <initiate> @ <field or uncovered>'")
            continue
        if not initiate_text.strip():
            r.error(entry[0], entry[1], "expected an initiate's name before '@'")
            continue
        name = r.name(entry[0], entry[1], initiate_text.strip(), world.initiate_names, "initiate")
        if not name:
            continue
        initiate = world.initiate_by_name[name]
        if initiate in placed:
            r.error(entry[0], entry[1], f"{name} is placed twice (also on line "
                    f"{placed[initiate]})")
            continue
        placed[initiate] = entry[0]
        col = entry[1] + len(initiate_text) + 1 + (len(where) - len(where.lstrip()))
        if where.strip().lower() == "uncovered":
            state["pieces"][initiate] = None
        elif not where.strip():
            r.error(entry[0], col, "expected a field (or 'uncovered') after '@'")
        else:
            f = r.name(entry[0], col, where.strip(), world.field_names, "field")
            if f:
                state["pieces"][initiate] = world.field_by_name[f]
    if pieces and len(placed) != len(world.initiates) and not r.errors:
        missing = [i.name for i in world.initiates if i.id not in placed]
        r.error(pieces[-1][0] + 1, 1, f"initiates not placed: {', '.join(missing)}",
                "place every initiate, or leave out all 'piece:' lines for the start position")
    if not r.errors and all(f is None for f in state["pieces"].values()):
        r.error(pieces[-1][0], 1, "every initiate is uncovered, so nobody could carry the grail "
                "home")

    grail_entry = single("grail", world.field[world.grail_start].name)
    if grail_entry:
        typed = grail_entry[2]
        as_init = match_name(typed, world.initiate_names)
        as_field = match_name(typed, world.field_names)
        if not typed:
            r.error(grail_entry[0], grail_entry[1], "expected a field, or the initiate carrying "
                    "the grail")
        elif as_init.ok and not as_field.ok:
            holder = world.initiate_by_name[as_init.name]
            if state["pieces"][holder] is None:
                r.error(grail_entry[0], grail_entry[1], f"{as_init.name} is uncovered and "
                        "cannot carry the grail")
            else:
                state["grail"] = {"field": state["pieces"][holder], "holder": holder}
        elif as_init.ambiguous and not as_field.ok:
            r.name(grail_entry[0], grail_entry[1], typed, world.initiate_names, "initiate")
        else:
            f = r.name(grail_entry[0], grail_entry[1], typed, world.field_names, "field")
            if f:
                state["grail"] = {"field": world.field_by_name[f], "holder": None}

    given: dict[tuple[str, str, str], int] = {}
    for key in ("sheet", "paid", "known", "lost"):
        for entry in entries.get(key, []):
            player_text, sep, rest = entry[2].partition(":")
            if not sep:
                r.error(entry[0], entry[1], f"expected '{key}: <player>: <initiate> = <amount>; ...'")
                continue
            p = player_ref(entry, player_text)
            if not p:
                continue
            items = [(item, col) for item, col in
                     _items(rest, entry[1] + len(player_text) + 1, ";") if item]
            if not items:
                r.error(entry[0], entry[1] + len(entry[2].rstrip()), f"expected '<initiate> = "
                        f"<amount>' after '{p}:'")
            for item, col in items:
                name_text, eq, amount = item.partition("=")
                if not eq:
                    r.error(entry[0], col, f"expected '<initiate> = <amount>', not '{item}'")
                    continue
                if not name_text.strip():
                    r.error(entry[0], col, "expected an initiate's name before '='")
                    continue
                name = r.name(entry[0], col, name_text.strip(), world.initiate_names, "initiate")
                if not name:
                    continue
                initiate = world.initiate_by_name[name]
                amount_col = col + len(name_text) + 1 + (len(amount) - len(amount.lstrip()))
                amount = amount.strip()
                if key != "sheet":
                    if (key, p, initiate) in given:
                        r.error(entry[0], col, f"{key}: {p} on {name} is given twice (also on "
                                f"line {given[(key, p, initiate)]})")
                        continue
                    given[(key, p, initiate)] = entry[0]
                if key == "sheet":
                    if not re.fullmatch(r"[0-9]{1,2}(\+[0-9]{1,2})*", amount):
                        r.error(entry[0], amount_col, f"units must be values joined by '+', "
                                f"not '{amount}'", "e.g. 'Alberto Castellano = 10+5'")
                        continue
                    units, missing = pick_units(state, p, [int(v) for v in amount.split("+")], world)
                    if missing is not None:
                        r.error(entry[0], amount_col, f"{p}'s sheet has no free unit of "
                                f"{missing} left",
                                f"units: {', '.join(str(u.value) for u in world.units)}")
                        continue
                    for unit in units:
                        state["sheets"][p]["units"][unit] = initiate
                else:
                    value = r.number(entry[0], amount_col, amount, f"the amount of '{key}'",
                                     high=world.total_points)
                    if value is None:
                        continue
                    if key == "paid":
                        if value % 10:
                            r.error(entry[0], amount_col, f"{p} paid {value} on {name}, but "
                                    "blowing a cover costs 10 points each time, so payments "
                                    "are multiples of 10")
                            continue
                        state["sheets"][p]["paid"][initiate] = value
                    else:
                        state[key].setdefault(p, {})[initiate] = value

    parser = Parser(world, players)
    for entry in entries.get("standing", []):
        player_text, sep, rest = entry[2].partition(":")
        if not sep:
            r.error(entry[0], entry[1], "expected 'standing: <player>: object ...'")
            continue
        p = player_ref(entry, player_text)
        if not p:
            continue
        offset = entry[1] + len(player_text) + 1
        pad = " " * (offset - 1) + rest
        orders, errs = parser.parse(pad)
        for err in errs:
            r.error(entry[0], err.col or offset, err.message, err.suggestion)
        if orders.moves or orders.assigns or orders.passed or orders.standing is None:
            if not errs:
                r.error(entry[0], offset, "a standing order must be an 'object' line")
            continue
        for ob in orders.standing:
            # the check of orders sent by players: 'ending' with a condition that rules it out
            clash = ending_clash(world, ob, state["variant"] == "original")
            if clash is not None:
                col, _, message, suggestion = clash
                r.error(entry[0], col, message, suggestion)
        state["standing"][p].extend(ob.to_json() for ob in orders.standing)

    if not r.errors:
        _consistency(world, state, r, entries)
    r.raise_if_errors()
    return state


def _consistency(world, state: dict, r: _Reader, entries: dict) -> None:
    """Checks across lines: payments, revealed amounts and losses must fit the sheets."""
    def where(key: str, player: str, initiate: str | None = None) -> tuple[int, int]:
        """The line (and the column of the item) that gives ``key`` for player and initiate."""
        name = world.initiate[initiate].name if initiate else None
        for number, col, value in entries.get(key, []):
            who, _, rest = value.partition(":")
            if who.strip().casefold() == player.casefold() or \
                    match_name(who.strip(), state["players"]).name == player:
                if name is None:
                    return number, col
                for item, item_col in _items(rest, col + len(who) + 1, ";"):
                    if match_name(item.partition("=")[0].strip(), world.initiate_names).name == name:
                        return number, item_col
        return (entries[key][0][0], entries[key][0][1]) if key in entries else (r.end_line, 1)

    for p in state["players"]:
        sheet = state["sheets"][p]
        for initiate, paid in sheet["paid"].items():
            if influence(state, p, initiate, world) < 0:
                r.error(*where("paid", p, initiate), f"{p} paid {paid} on "
                        f"{world.initiate[initiate].name}, more than the units assigned to him")
        for initiate, amount in state["known"].get(p, {}).items():
            if state["pieces"][initiate] is not None and amount > influence(state, p, initiate, world):
                r.error(*where("known", p, initiate), f"{p} is known to have at least {amount} "
                        f"on {world.initiate[initiate].name} but the sheet gives only "
                        f"{influence(state, p, initiate, world)}")
        for initiate, amount in state["lost"].get(p, {}).items():
            if state["pieces"][initiate] is not None:
                r.error(*where("lost", p, initiate), f"{world.initiate[initiate].name} is on "
                        "the board; only uncovered initiates have lost influence")
            elif amount != influence(state, p, initiate, world):
                r.error(*where("lost", p, initiate), f"{p} lost {amount} on "
                        f"{world.initiate[initiate].name} but the sheet gives "
                        f"{influence(state, p, initiate, world)}")
    holder = state["grail"]["holder"]
    grail_at = where("grail", "")
    if state["variant"] == "standard" and holder is not None:
        bearer = world.initiate[holder]
        if state["pieces"][holder] == world.order[bearer.order].headquarters:
            r.error(*grail_at, f"{bearer.name} carries the grail on his own headquarters, "
                    "so the game would already be over")
    if state["variant"] == "original":
        homes = {world.order[o].headquarters for o in state["hq"].values()}
        if state["grail"]["field"] in homes:
            r.error(*grail_at, f"the grail is on {world.field[state['grail']['field']].name}, "
                    "a player's headquarters, so the game would already be over")
