"""Medieval Mayhem positions as text, for `companion new mayhem G --setup FILE` and
`companion show G --position`.

A position is written between actions: it is some player's turn, their start-of-turn draw is
done, and ``actions`` of their two non-free actions are taken. One ``key: value`` per line, ``#``
starts a comment::

    game: mayhem
    players: Anna, Bert, Cora            # seat order, clockwise
    first: Anna                          # the starting player (the game ends before their turn)
    turn: Bert                           # whose turn it is
    actions: 0                           # non-free actions taken this turn (0 or 1)
    character-used: no                   # the character action was used this turn
    recycled: no                         # Recycle was used this turn (optional rule E)
    round: 0                             # full rounds completed
    end: none                            # or: deck (Anna) / sets (Anna): who triggered the end
    character: Anna = The Thief II       # one line per player
    hand: Anna = Hoard Wyrm, Ember Drake
    play: Anna = Red Squire
    set: Anna = Gold Coin, Gilded Goblet, Crown Jewels     # one line per set
    barracks: Pearl Maiden, Tidal Wave, Frost Drake, Rose Guard, Cutpurse
    discard: Ruby Chalice, Ember Lancer  # oldest first, the newest last
    deck: Sunlit Queen, Plunder          # the top of the deck, in order
    rest: deck                           # where the cards named nowhere go: deck or discard
    standing: Anna: defend by Bert       # standing orders, as in an order file

``game``, ``players``, ``first``, ``turn``, a ``character`` line for each player,
``barracks`` and ``deck`` (which may be empty) are required, so that a file cut short is
refused; the counters default to 0, ``end`` to none. With ``rest: deck`` (the default) the cards named nowhere go to the deck below the listed ones,
shuffled when the game is created (a chance outcome recorded like any other); with
``rest: discard`` they are put on the discard pile (in card order, under the listed ones). A player's own position shows their hand and character
only; other hands are written as a count and cannot be read back.
"""
from __future__ import annotations

import re
from typing import Any

from companion.engine.positions import LineReader
from companion.engine.words import counted
from companion.errors import CompanionError
from companion.mayhem.effects import shared_aspects
from companion.mayhem.orders import Parser, defend_text, hand_text
from companion.mayhem.rules import BARRACKS, listed, team_set_goal

KEYS = ("game", "players", "first", "turn", "actions", "character-used", "recycled", "round",
        "turns", "end", "rules", "character", "hand", "play", "set", "barracks", "discard",
        "deck", "rest", "standing")
REPEATABLE = ("character", "hand", "play", "set", "standing")


def rules_text(rules: dict[str, Any]) -> str:
    parts = []
    if rules.get("draft"):
        parts.append("draft")
    if rules.get("rounds"):
        parts.append(f"rounds={rules['rounds']}")
    for key, word in (("charm", "charm"), ("right_hand", "right-hand"),
                      ("best_defense", "best-defense")):
        if rules.get(key):
            parts.append(word)
    if rules.get("teams"):
        parts.append("teams=" + "/".join("+".join(t) for t in rules["teams"]))
    if rules.get("free_sets"):
        parts.append("free-sets")
    if rules.get("chaos"):
        parts.append("chaos")
    return ", ".join(parts) or "none"


def write_position(kind, state: dict, viewer: str = "moderator") -> str:
    cat = kind.catalogue
    name = lambda c: cat.card[c].name  # noqa: E731
    players = state["players"]
    lines = ["# Medieval Mayhem position", "game: mayhem", f"players: {', '.join(players)}",
             f"first: {state['first']}"]
    if state["phase"] == "over":
        lines.append("# the game is over")
    elif state["phase"] == "draft":
        lines.append("# the character draft is under way (a position cannot hold it)")
    else:
        lines.append(f"turn: {state['current']}")
        lines.append(f"actions: {state['turn']['actions']}")
        lines.append(f"character-used: {'yes' if state['turn']['character'] else 'no'}")
        if state["rules"].get("best_defense"):
            lines.append(f"recycled: {'yes' if state['turn']['recycle'] else 'no'}")
        pending = state.get("pending")
        if pending and pending["kind"] != "turn" or len(state.get("stack", [])) > 1:
            lines.append("# note: a card or set is being resolved; this text holds the zones "
                         "and the turn, not the part still to resolve")
    lines.append(f"round: {state['round']}")
    lines.append("turns: " + "; ".join(f"{p} = {state['turns'].get(p, 0)}" for p in players))
    end = state["end"]
    lines.append("end: none" if not end else
                 f"end: {'deck' if end['reason'] == 'deck' else 'sets'} ({end['player']})")
    lines.append(f"rules: {rules_text(state['rules'])}")
    full = viewer == "moderator" or state["phase"] == "over"
    for p in players:
        cid = state["characters"].get(p)
        if cid and (full or viewer == p):
            lines.append(f"character: {p} = {cat.character[cid].name}")
        elif cid:
            lines.append(f"# character: {p} = {cat.character[cid].face} (concealed side hidden)")
    for p in players:
        if full or viewer == p:
            lines.append(f"hand: {p} = {', '.join(name(c) for c in state['hands'][p])}")
        else:
            lines.append(f"# hand: {p} holds {counted(len(state['hands'][p]), 'card')}")
        if state["play"][p]:
            lines.append(f"play: {p} = {', '.join(name(c) for c in state['play'][p])}")
        for st in state["sets"][p]:
            lines.append(f"set: {p} = {', '.join(name(c) for c in st)}")
    lines.append(f"barracks: {', '.join(name(c) for c in state['barracks'])}")
    lines.append(f"discard: {', '.join(name(c) for c in state['discard'])}")
    if viewer == "moderator":
        lines.append(f"deck: {', '.join(name(c) for c in state['deck'])}")
    else:
        lines.append(f"# deck: {counted(len(state['deck']), 'card')}")
    for p in players:
        if viewer in ("moderator", p):
            st = state["standing"][p]
            for r in st["defend"]:
                lines.append(f"standing: {p}: {defend_text(cat, r)}")
            for text in hand_text(cat, st["hand"]):
                lines.append(f"standing: {p}: {text}")
    return "\n".join(line.rstrip() for line in lines) + "\n"




class _Reader(LineReader):
    def __init__(self, filename: str, text: str):
        super().__init__(filename, text)

    def name(self, number: int, col: int, typed: str, known: list[str], what: str,
             **kw) -> str | None:
        if not typed.strip():
            self.error(number, col, f"expected a{'n' if what[0] in 'aeiou' else ''} {what}'s "
                       "name", f"{what}s: {', '.join(known)}" if len(known) <= 11 else None)
            return None
        return super().name(number, col, typed, known, what, list_known=11)


def player_problem(names: list[str]) -> tuple[int | None, str, str | None] | None:
    """Why these players cannot play (index of the name at fault or None, message, hint), or
    None: the checks 'companion new' makes on player names, so that a setup file's mistakes are
    reported with their line and column."""
    from companion.engine.identity import names_problem

    found = names_problem([n for n in names], 2, 6, "Medieval Mayhem")
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


def _items(text: str, start_col: int, keep_empty: bool = False) -> list[tuple[str, int]]:
    """Comma-separated items with the column each starts at."""
    out = []
    pos = 0
    for piece in text.split(","):
        stripped = piece.strip()
        if stripped or keep_empty:
            out.append((stripped, start_col + pos + (len(piece) - len(piece.lstrip()))))
        pos += len(piece) + 1
    return out


def read_position(kind, text: str, filename: str, options: dict[str, Any]) -> dict:
    from companion.mayhem.kind import blank_state

    cat = kind.catalogue
    r = _Reader(filename, text)
    entries = r.scan(text, KEYS, REPEATABLE)
    r.raise_if_errors()
    examples = {"game": "mayhem", "players": "Anna, Bert, Cora", "first": "Anna",
                "turn": "Anna", "barracks": "<five cards>", "deck": "<the top cards, or "
                "nothing: the cards named nowhere are shuffled below>"}

    def single(key: str, required: bool = True):
        if key in entries:
            return entries[key][0]
        if required:
            r.missing(key, examples[key])
        return None

    game = single("game")
    if game and game[2].lower() != "mayhem":
        r.error(game[0], game[1], f"this is a position of '{game[2]}', not of mayhem",
                "a Medieval Mayhem position starts with 'game: mayhem'")
    pe = single("players")
    players: list[str] = []
    if pe:
        items = _items(pe[2], pe[1], keep_empty=True)
        players = [p for p, _ in items]
        problem = player_problem(players)
        if problem:
            index, message, hint = problem
            r.error(pe[0], items[index][1] if index is not None else pe[1], message, hint)
    r.raise_if_errors()
    try:
        kind.check_players(players, options)
    except CompanionError as exc:
        r.error(pe[0], pe[1], exc.message, exc.hint)
        r.raise_if_errors()
    rules = kind.rules_from(options)
    if rules["teams"]:
        members = [p for team in rules["teams"] for p in team]
        if sorted(members) != sorted(players):
            r.error(pe[0], pe[1], "the teams of the options (" + "/".join(
                "+".join(t) for t in rules["teams"]) + ") are not the players of this position",
                "give --option teams=... with the players of the position")
            r.raise_if_errors()
    if rules["chaos"]:
        r.error(pe[0], 1, "Chaos Theory draws its rules when a game is created; a position "
                "needs the rules given as options", "list the optional rules with --option "
                "instead of chaos=on")
    if rules["draft"]:
        r.error(pe[0], 1, "the character draft happens when a game is created; a position "
                "gives the characters directly", "leave out --option draft=on")
    rl = single("rules", required=False)
    if rl and rl[2].strip().lower() != rules_text(rules).lower():
        r.error(rl[0], rl[1], f"the position says the rules are '{rl[2]}' but the options give "
                f"'{rules_text(rules)}'", "pass the same optional rules with --option, or "
                "remove the 'rules:' line")

    def player_ref(entry, typed: str, col: int | None = None) -> str | None:
        return r.name(entry[0], col or entry[1], typed.strip(), players, "player")

    first_e = single("first")
    first = player_ref(first_e, first_e[2]) if first_e else None
    turn_e = single("turn")
    current = player_ref(turn_e, turn_e[2]) if turn_e else None
    state = blank_state(players, rules, first or players[0])
    if current:
        state["current"] = current
    e = single("actions", required=False)
    if e:
        value = r.number(e[0], e[1], e[2], "'actions'")
        if value is not None and value > 1:
            r.error(e[0], e[1], "a turn has two non-free actions; a position is written "
                    "before the second one at the latest (0 or 1)")
        elif value is not None:
            state["turn"]["actions"] = value
    e = single("round", required=False)
    if e:
        value = r.number(e[0], e[1], e[2], "'round'")
        if value is not None:
            state["round"] = value
    for key, field in (("character-used", "character"), ("recycled", "recycle")):
        e = single(key, required=False)
        if e:
            if e[2].lower() not in ("yes", "no"):
                r.error(e[0], e[1], f"'{key}' must be yes or no")
            else:
                state["turn"][field] = e[2].lower() == "yes"
    e = single("recycled", required=False)
    if e and state["turn"]["recycle"] and not rules["best_defense"]:
        r.error(e[0], e[1], "Recycle belongs to the optional rule The Best Defense (E), which "
                "the options do not switch on", "write 'recycled: no', or add --option "
                "best-defense=on")
    te = single("turns", required=False)
    if te:
        seen: set[str] = set()
        for item, col in _items(te[2].replace(";", ","), te[1]):
            who, eq, count = item.partition("=")
            if not eq:
                r.error(te[0], col, "expected 'turns: <player> = <count>; ...'")
                continue
            p = player_ref(te, who, col)
            value = r.number(te[0], col + len(who) + 1, count, "a number of turns")
            if p and p in seen:
                r.error(te[0], col, f"{p}'s turns are given twice")
            elif p and value is not None:
                seen.add(p)
                state["turns"][p] = value
        left = [p for p in players if p not in seen]
        if left and not r.errors:
            r.error(te[0], te[1] + len(te[2]), f"'turns' gives no count for "
                    f"{', '.join(left)}", "give every player's count, e.g. "
                    + "; ".join(f"{p} = 0" for p in players))
        if not r.errors and first and current:
            seats = players[players.index(first):] + players[:players.index(first)]
            done = seats[:seats.index(current)]
            wrong = [p for p in players
                     if state["turns"][p] != state["round"] + (1 if p in done else 0)]
            if wrong:
                p = wrong[0]
                should = state["round"] + (1 if p in done else 0)
                r.error(te[0], te[1], f"{p} has had {counted(state['turns'][p], 'turn')}, "
                        f"but in round {state['round']} with {first} starting and {current} "
                        f"to play {p} has had {should}", f"write '{p} = {should}', or check 'round'")
    ee = single("end", required=False)
    if ee and ee[2].lower() != "none":
        m = re.fullmatch(r"(deck|sets)\s*\((.+)\)", ee[2].strip(), re.I)
        if not m:
            r.error(ee[0], ee[1], "expected 'end: none', 'end: deck (<player>)' or "
                    "'end: sets (<player>)'")
        else:
            p = player_ref(ee, m.group(2), ee[1] + m.start(2))
            if p:
                reason = m.group(1).lower()
                if reason == "sets" and rules["teams"]:
                    reason = "team-sets"        # written as 'sets', as the reports say
                state["end"] = {"reason": reason, "player": p}
            if rules["rounds"]:
                r.error(ee[0], ee[1], "with the Round Time Limit (optional rule B) the game "
                        "ends only after its rounds, so no end is triggered", "write 'end: none'")
    if rules["rounds"] and state["round"] >= rules["rounds"]:
        e = entries.get("round", [(r.end_line, 1, "")])[0]
        r.error(e[0], e[1], f"round {state['round']} is past the round limit of "
                f"{rules['rounds']}, so the game would be over")

    placed: dict[str, int] = {}

    def card_list(entry, text: str, col: int) -> list[str]:
        out = []
        for item, c in _items(text, col):
            found = r.name(entry[0], c, item, cat.card_names, "card")
            if not found:
                continue
            cid = cat.card_by_name[found]
            if cid in placed:
                r.error(entry[0], c, f"{found} is placed twice (also on line {placed[cid]})")
                continue
            placed[cid] = entry[0]
            out.append(cid)
        return out

    def owner_line(entry, key: str) -> tuple[str | None, str, int]:
        who, eq, rest = entry[2].partition("=")
        if not eq:
            r.error(entry[0], entry[1], f"expected '{key}: <player> = ...'")
            return None, "", entry[1]
        col = entry[1] + len(who) + 1
        return player_ref(entry, who), rest, col

    chars_seen: dict[str, str] = {}
    for e in entries.get("character", []):
        p, rest, col = owner_line(e, "character")
        if not p:
            continue
        found = r.name(e[0], col, rest.strip(), cat.character_names, "character card")
        if not found:
            continue
        cid = cat.character_by_name[found]
        if cid in chars_seen:
            r.error(e[0], col, f"{found} is given to {chars_seen[cid]} already")
            continue
        if state["characters"][p]:
            r.error(e[0], e[1], f"{p} has two character cards")
            continue
        chars_seen[cid] = p
        state["characters"][p] = cid
    for p in players:
        if not state["characters"][p]:
            r.error(r.end_line, 1, f"{p} has no character card",
                    f"add 'character: {p} = <character card>'")
    for key, zone in (("hand", "hands"), ("play", "play")):
        for e in entries.get(key, []):
            p, rest, col = owner_line(e, key)
            if p:
                state[zone][p].extend(card_list(e, rest, col))
    for e in entries.get("set", []):
        p, rest, col = owner_line(e, "set")
        if not p:
            continue
        cards = card_list(e, rest, col)
        if len(cards) != 3:
            r.error(e[0], col, f"a set holds 3 cards, not {len(cards)}")
            continue
        if not shared_aspects([cat.card[c] for c in cards]):
            r.error(e[0], col, "these 3 cards share no number, colour or type")
            continue
        state["sets"][p].append(cards)
    for key in ("barracks", "discard", "deck"):
        e = single(key, required=key != "discard")
        if e:
            state[key] = card_list(e, e[2], e[1])
    rest = [c.id for c in cat.cards if c.id not in placed]
    re_ = single("rest", required=False)
    if re_:
        if re_[2].lower() not in ("deck", "discard"):
            r.error(re_[0], re_[1], "'rest' must be deck or discard")
        elif re_[2].lower() == "discard":
            state["discard"] = rest + state["discard"]
            rest = []
    if len(state["barracks"]) > BARRACKS:
        e = entries["barracks"][0]
        r.error(e[0], e[1], f"the Barracks hold at most {BARRACKS} cards, not "
                f"{len(state['barracks'])}")
    elif len(state["barracks"]) < BARRACKS and (rest or state["deck"]):
        e = entries.get("barracks", [(1, 1, "")])[0]
        r.error(e[0], e[1], f"the Barracks hold {len(state['barracks'])} cards while the deck "
                "still has cards; they are refilled to 5 at once")
    deck_e = entries.get("deck", [(r.end_line, 1, "")])[0]
    if not state["deck"] and not rest and not state["end"] and not rules["rounds"]:
        r.error(deck_e[0], deck_e[1], "the deck is empty, so the end of the game has been "
                "triggered", "add 'end: deck (<player>)'")
    if state["end"] and state["end"]["reason"] == "deck" and (state["deck"] or rest):
        r.error(ee[0], ee[1], "the end is triggered by the empty deck, but the deck holds "
                f"{counted(len(state['deck']) + len(rest), 'card')}",
                "list every card elsewhere ('rest: discard'), or write 'end: none'")
    goal = team_set_goal(state) if rules["teams"] else 3
    for team in (rules["teams"] or [[p] for p in players]):
        count = sum(len(state["sets"][p]) for p in team)
        if count < goal:
            continue
        e = next((e for e in entries.get("set", []) if e[2].partition("=")[0].strip()
                  .casefold() in {p.casefold() for p in team}), (r.end_line, 1, ""))
        who = listed(team)
        if rules["charm"]:
            r.error(e[0], 1, f"{who} {'has' if len(team) == 1 else 'have'} {count} sets, so "
                    "with Three's a Charm (optional rule C) the game would be won already")
        elif not state["end"] and not rules["rounds"]:
            r.error(e[0], 1, f"{who} {'has' if len(team) == 1 else 'have'} {count} sets, so "
                    "the end of the game has been triggered",
                    f"add 'end: sets (<the player who formed the last set>)'")
    parser = Parser(cat, players)
    for e in entries.get("standing", []):
        who, sep, text_rest = e[2].partition(":")
        if not sep:
            r.error(e[0], e[1], "expected 'standing: <player>: <standing order>'")
            continue
        p = player_ref(e, who)
        if not p:
            continue
        offset = e[1] + len(who) + 1
        orders, errs = parser.parse(" " * (offset - 1) + text_rest)
        for err in errs:
            r.error(e[0], err.col or offset, err.message, err.suggestion)
        if errs:
            continue
        if orders.actions or orders.answers or orders.picks or not orders.has_standing:
            r.error(e[0], e[1], "a standing order is a defend, no defense, give or keep line")
            continue
        st = state["standing"][p]
        if orders.defend is not None:
            st["defend"].extend(o.data for o in orders.defend)
        if orders.hand_set:
            if orders.hand is None:
                st["hand"] = None
            else:
                base = st["hand"] or {"give": [], "keep": []}
                st["hand"] = {"give": base["give"] + orders.hand["give"],
                              "keep": base["keep"] + orders.hand["keep"]}
    r.raise_if_errors()
    state["box"] = [c.id for c in cat.characters if c.id not in chars_seen]
    state["setup_rest"] = rest
    state["phase"] = "play"
    state["stack"] = [{"t": "act", "p": state["current"]}]
    state["pending"] = {"player": state["current"], "kind": "turn",
                        "done": state["turn"]["actions"]}
    return state



