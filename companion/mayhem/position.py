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

With ``rest: deck`` (the default) the cards named nowhere go to the deck below the listed ones,
shuffled when the game is created (a chance outcome recorded like any other); with
``rest: discard`` they are put on the discard pile (in card order, under the listed ones). A player's own position shows their hand and character
only; other hands are written as a count and cannot be read back.
"""
from __future__ import annotations

import re
from typing import Any

from companion.engine.positions import LineReader
from companion.errors import CompanionError
from companion.mayhem.effects import shared_aspects
from companion.mayhem.orders import Parser, defend_text, hand_text
from companion.mayhem.rules import BARRACKS

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
            lines.append(f"# hand: {p} holds {len(state['hands'][p])} card(s)")
        if state["play"][p]:
            lines.append(f"play: {p} = {', '.join(name(c) for c in state['play'][p])}")
        for st in state["sets"][p]:
            lines.append(f"set: {p} = {', '.join(name(c) for c in st)}")
    lines.append(f"barracks: {', '.join(name(c) for c in state['barracks'])}")
    lines.append(f"discard: {', '.join(name(c) for c in state['discard'])}")
    if viewer == "moderator":
        lines.append(f"deck: {', '.join(name(c) for c in state['deck'])}")
    else:
        lines.append(f"# deck: {len(state['deck'])} card(s)")
    for p in players:
        if viewer in ("moderator", p):
            st = state["standing"][p]
            for r in st["defend"]:
                lines.append(f"standing: {p}: {defend_text(cat, r)}")
            for text in hand_text(cat, st["hand"]):
                lines.append(f"standing: {p}: {text}")
    return "\n".join(line.rstrip() for line in lines) + "\n"


class _Reader(LineReader):
    def name(self, number: int, col: int, typed: str, known: list[str], what: str,
             **kw) -> str | None:
        return super().name(number, col, typed, known, what, list_known=11)


def _items(text: str, start_col: int) -> list[tuple[str, int]]:
    """Comma-separated items with the column each starts at."""
    out = []
    pos = 0
    for piece in text.split(","):
        stripped = piece.strip()
        if stripped:
            out.append((stripped, start_col + pos + (len(piece) - len(piece.lstrip()))))
        pos += len(piece) + 1
    return out


def read_position(kind, text: str, filename: str, options: dict[str, Any]) -> dict:
    from companion.mayhem.kind import blank_state

    cat = kind.catalogue
    r = _Reader(filename)
    entries = r.scan(text, KEYS, REPEATABLE)
    r.raise_if_errors()

    def single(key: str, required: bool = True):
        if key in entries:
            return entries[key][0]
        if required:
            r.error(1, 1, f"the position needs a '{key}:' line")
        return None

    game = single("game")
    if game and game[2].lower() != "mayhem":
        r.error(game[0], game[1], f"this is a position of '{game[2]}', not of mayhem")
    pe = single("players")
    players = [p for p, _ in _items(pe[2], pe[1])] if pe else []
    if pe and not 2 <= len(players) <= 6:
        r.error(pe[0], pe[1], "Medieval Mayhem needs 2 to 5 players (6 with Team Tactics), "
                "separated by commas")
    if pe and len({p.casefold() for p in players}) != len(players):
        r.error(pe[0], pe[1], "a player is listed twice")
    r.raise_if_errors()
    try:
        kind.check_players(players, options)
    except CompanionError as exc:
        r.error(pe[0], pe[1], exc.message, exc.hint)
        r.raise_if_errors()
    rules = kind.rules_from(options)
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
    for key, field in (("actions", "actions"), ("round", "round")):
        e = single(key, required=False)
        if e:
            if not e[2].isdigit():
                r.error(e[0], e[1], f"'{key}' must be a whole number")
            elif key == "actions":
                if int(e[2]) > 1:
                    r.error(e[0], e[1], "a turn has two non-free actions; a position is written "
                            "before the second one at the latest (0 or 1)")
                state["turn"]["actions"] = int(e[2])
            else:
                state["round"] = int(e[2])
    for key, field in (("character-used", "character"), ("recycled", "recycle")):
        e = single(key, required=False)
        if e:
            if e[2].lower() not in ("yes", "no"):
                r.error(e[0], e[1], f"'{key}' must be yes or no")
            else:
                state["turn"][field] = e[2].lower() == "yes"
    te = single("turns", required=False)
    if te:
        for item, col in _items(te[2].replace(";", ","), te[1]):
            who, eq, count = item.partition("=")
            p = player_ref(te, who, col)
            if not eq or not count.strip().isdigit():
                r.error(te[0], col, "expected 'turns: <player> = <count>; ...'")
            elif p:
                state["turns"][p] = int(count.strip())
    ee = single("end", required=False)
    if ee and ee[2].lower() != "none":
        m = re.fullmatch(r"(deck|sets)\s*\((.+)\)", ee[2].strip(), re.I)
        if not m:
            r.error(ee[0], ee[1], "expected 'end: none', 'end: deck (<player>)' or "
                    "'end: sets (<player>)'")
        else:
            p = player_ref(ee, m.group(2))
            if p:
                state["end"] = {"reason": m.group(1).lower(), "player": p}
    if rules["rounds"] and state["round"] >= rules["rounds"]:
        r.error(1, 1, f"round {state['round']} is past the round limit of {rules['rounds']}")

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
            r.error(1, 1, f"{p} has no character card",
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
        e = single(key, required=False)
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
    if not state["deck"] and not rest and not state["end"] and not rules["rounds"]:
        r.error(1, 1, "the deck is empty, so the end of the game has been triggered",
                "add 'end: deck (<player>)'")
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
            r.error(e[0], err.col or 1, err.message, err.suggestion)
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



