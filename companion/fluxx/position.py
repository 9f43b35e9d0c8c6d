"""A Fluxx position as text, for ``companion new fluxx G --setup FILE`` and ``show --position``.

Format (one ``key: value`` per line, ``#`` starts a comment, card lists separated by ``;``)::

    game: fluxx
    players: Anna, Bert, Cora          # seat order (the roster)
    waiting: Cora                      # players who have not joined yet (optional)
    active: Anna                       # whose turn it is
    stage: play                        # 'play' (the start of turn is done) or 'start'
    turn: 4                            # turns begun so far (optional)
    drawn: 1                           # cards drawn this turn by the draw rule (optional)
    played: 0                          # cards played this turn (optional)
    rules: Draw 2; Play 3              # New Rules in play, oldest first
    goals: A Bird in the Bush          # Goals in play, oldest first
    hand: Anna: Jackpot!; Coconuts     # one line per player (hand order = order received)
    table: Anna: Sir Robin; Grim Reaper
    deck: Trade Hands; Draw 2          # the top of the draw pile, top card first
    discard: Rules Reset; Play 2       # the discard pile, bottom first (the last is on top)
    rest: deck                         # where unlisted cards go: 'deck' (below the listed ones,
                                       # in the order of the data files) or 'discard'
    keep: Anna: Coconuts; Sir Robin    # standing orders (optional)
    quote: Anna: "Ni!"

Card names match like names in orders (case, accents and punctuation ignored, unique
beginnings accepted). A player's version shows only that player's hand and standing orders;
other hands and the draw pile appear as counts ("hand: Bert: 4 cards") and cannot be read back.
"""
from __future__ import annotations

import re
from typing import Any

from companion.engine.names import match_name
from companion.engine.positions import LineReader
from companion.fluxx.cards import Deck, norm
from companion.fluxx.rules import Run, new_game_state

KEYS = ("game", "players", "waiting", "active", "stage", "turn", "turns-done", "drawn", "played",
        "extra-play", "used", "rules", "goals", "hand", "table", "deck", "discard", "rest", "keep",
        "quote")
REPEATABLE = ("hand", "table", "keep", "quote")
NUMBERS = {"turn": "turn", "turns-done": "turns_done", "drawn": "drawn", "played": "played",
           "extra-play": "extra_play"}


def _list(deck: Deck, ids) -> str:
    return "; ".join(deck.name(c) for c in ids)


def write_position(deck: Deck, state: dict[str, Any], viewer: str = "moderator") -> str:
    pending = state.get("pending")
    g = pending["snapshot"] if pending else state["game"]
    players = state["players"]
    full = viewer == "moderator"
    lines = ["# Monty Python Fluxx position", "game: fluxx", f"players: {', '.join(players)}"]
    if pending:
        lines.insert(1, "# a turn is in progress (paused); this is the position at its start")
    if g["waiting"]:
        lines.append(f"waiting: {', '.join(g['waiting'])}")
    lines += [f"active: {g['active']}", f"stage: {g['stage']}", f"turn: {g['turn']}",
              f"turns-done: {g['turns_done']}", f"drawn: {g['drawn']}", f"played: {g['played']}"]
    if g["extra_play"]:
        lines.append(f"extra-play: {g['extra_play']}")
    if g["used"]:
        lines.append(f"used: {_list(deck, g['used'])}")
    lines.append(f"rules: {_list(deck, g['rules'])}")
    lines.append(f"goals: {_list(deck, g['goals'])}")
    for p in players:
        hand = g["hands"][p]
        if full or p == viewer:
            lines.append(f"hand: {p}: {_list(deck, hand)}")
        else:
            lines.append(f"hand: {p}: {len(hand)} card{'s' if len(hand) != 1 else ''}")
    for p in players:
        lines.append(f"table: {p}: {_list(deck, g['table'][p])}")
    if full:
        lines.append(f"deck: {_list(deck, g['deck'])}")
    else:
        lines.append(f"deck: {len(g['deck'])} cards")
    lines.append(f"discard: {_list(deck, g['discard'])}")
    if g["using"] or g["limbo"]:
        aside = [c for frame in g["using"] for c in frame] + list(g["limbo"])
        lines.append(f"# set aside in the middle of a play: {_list(deck, aside)}")
    if g["stage"] == "over" and g["result"]:
        lines.append(f"# the game is over: {g['result']['reason']}")
    for p in players:
        if not (full or p == viewer):
            continue
        keep = state["standing"][p].get("keep")
        if keep is not None:
            lines.append(f"keep: {p}: {_list(deck, keep) or 'none'}")
        quote = state["standing"][p].get("quote")
        if quote:
            verdict = f" judged {quote['judged']}" if quote.get("judged") else ""
            lines.append(f'quote: {p}: "{quote["words"]}"{verdict}')
    return "\n".join(lines) + "\n"


class _Reader(LineReader):
    def __init__(self, deck: Deck, filename: str):
        super().__init__(filename)
        self.deck = deck
        self.keys = [norm(c.name) for c in deck.cards]
        self.by_key = {norm(c.name): c for c in deck.cards}

    def player(self, number: int, col: int, typed: str, players: list[str]) -> str | None:
        found = match_name(typed.strip(), players)
        if found.ok:
            return found.name
        if found.ambiguous:
            self.error(number, col, f"'{typed.strip()}' could be any of: "
                       f"{', '.join(found.candidates)}")
        else:
            self.error(number, col, f"no player called '{typed.strip()}'",
                       f"players: {', '.join(players)}")
        return None

    def cards(self, number: int, col: int, text: str) -> list[str]:
        out = []
        offset = 0
        for piece in text.split(";"):
            here = col + offset + (len(piece) - len(piece.lstrip()))
            offset += len(piece) + 1
            typed = piece.strip()
            if not typed:
                continue
            found = match_name(norm(typed), self.keys)
            if found.ok:
                out.append(self.by_key[found.name].id)
            elif found.ambiguous:
                self.error(number, here, f"'{typed}' could be any of: "
                           + ", ".join(self.by_key[k].name for k in found.candidates),
                           "type more of the name")
            elif norm(typed) == norm(self.deck.basic.name):
                self.error(number, here, f"the {self.deck.basic.name} card is always on the "
                           "table; do not list it")
            else:
                close = [self.by_key[k].name for k in found.suggestions]
                self.error(number, here, f"no card called '{typed}'",
                           "did you mean " + " or ".join(f"'{c}'" for c in close) + "?"
                           if close else "cards are separated by ';'")
        return out


def read_position(deck: Deck, text: str, filename: str, options: dict[str, Any]) -> dict[str, Any]:
    """Parse and validate a position; raise DataError(s) with file, line and column."""
    r = _Reader(deck, filename)
    entries = r.scan(text, KEYS, REPEATABLE, quotes=True)
    r.raise_if_errors()

    def single(key: str, required: bool = False):
        if key in entries:
            return entries[key][0]
        if required:
            r.error(1, 1, f"the position needs a '{key}:' line")
        return None

    game = single("game", True)
    if game and game[2].lower() != "fluxx":
        r.error(game[0], game[1], f"this is a position of '{game[2]}', not of fluxx")
    pe = single("players", True)
    players = [p.strip() for p in pe[2].split(",")] if pe else []
    if pe and (not 2 <= len(players) <= 6 or not all(players)):
        r.error(pe[0], pe[1], "Fluxx needs 2 to 6 players, separated by commas")
    if pe and len({p.casefold() for p in players}) != len(players):
        r.error(pe[0], pe[1], "a player is listed twice")
    r.raise_if_errors()

    waiting: list[str] = []
    we = single("waiting")
    if we:
        for typed in we[2].split(","):
            if typed.strip():
                p = r.player(we[0], we[1], typed, players)
                if p and p not in waiting:
                    waiting.append(p)
        if len(players) - len(waiting) < 2:
            r.error(we[0], we[1], "at least two players must be seated")
    r.raise_if_errors()
    g = new_game_state(deck, players, waiting)
    g["deck"] = []
    ae = single("active")
    if ae:
        p = r.player(ae[0], ae[1], ae[2], players)
        if p and p in waiting:
            r.error(ae[0], ae[1], f"{p} has not joined yet and cannot be the active player")
        elif p:
            g["active"] = p
    se = single("stage")
    if se:
        if se[2] not in ("start", "play"):
            r.error(se[0], se[1], f"stage '{se[2]}' is not 'start' or 'play'",
                    "a finished game cannot be a starting position")
        else:
            g["stage"] = se[2]
    for key, field in NUMBERS.items():
        entry = single(key)
        if entry:
            if not entry[2].isdigit():
                r.error(entry[0], entry[1], f"'{key}' must be a whole number")
            else:
                g[field] = int(entry[2])
    if g["stage"] == "play" and not single("turn"):
        g["turn"] = 1

    seen: dict[str, int] = {}

    def place(entry, ids: list[str]) -> list[str]:
        out = []
        for cid in ids:
            if cid in seen:
                r.error(entry[0], entry[1], f"{deck.name(cid)} is listed twice (first on line "
                        f"{seen[cid]})")
                continue
            seen[cid] = entry[0]
            out.append(cid)
        return out

    ue = single("used")
    if ue:
        g["used"] = r.cards(ue[0], ue[1], ue[2])
        for cid in g["used"]:
            if not deck[cid].free:
                r.error(ue[0], ue[1], f"{deck.name(cid)} has no free action to have been used")
    re_ = single("rules")
    if re_:
        g["rules"] = place(re_, r.cards(re_[0], re_[1], re_[2]))
        keys: dict[str, str] = {}
        for cid in g["rules"]:
            card = deck[cid]
            if card.type != "rule":
                r.error(re_[0], re_[1], f"{card.name} is not a New Rule")
                continue
            for key in card.set or {}:
                if key in keys:
                    r.error(re_[0], re_[1], f"{card.name} and {keys[key]} contradict each other; "
                            "only one can be in play")
                keys[key] = card.name
    ge = single("goals")
    if ge:
        g["goals"] = place(ge, r.cards(ge[0], ge[1], ge[2]))
        for cid in g["goals"]:
            if deck[cid].type != "goal":
                r.error(ge[0], ge[1], f"{deck.name(cid)} is not a Goal")
    for key in ("hand", "table"):
        done: set[str] = set()
        for entry in entries.get(key, []):
            who, sep, rest = entry[2].partition(":")
            if not sep:
                r.error(entry[0], entry[1], f"expected '{key}: <player>: <card>; <card> ...'")
                continue
            p = r.player(entry[0], entry[1], who, players)
            if not p:
                continue
            if p in done:
                r.error(entry[0], entry[1], f"{key} of {p} is given twice")
                continue
            done.add(p)
            col = entry[1] + len(who) + 1
            if re.fullmatch(r"\s*\d+\s+cards?\s*", rest):
                r.error(entry[0], col, "this position hides cards (a player's version); only the "
                        "moderator's position can be read back", "companion show GAME --position")
                continue
            ids = place(entry, r.cards(entry[0], col, rest))
            for cid in ids:
                ctype = deck[cid].type
                if key == "hand" and ctype == "creeper":
                    r.error(entry[0], col, f"{deck.name(cid)} is a Creeper: Creepers are never "
                            "held; put it on the table")
                if key == "table" and ctype not in ("keeper", "creeper"):
                    r.error(entry[0], col, f"{deck.name(cid)} is not a Keeper or a Creeper")
            if p in waiting and ids:
                r.error(entry[0], entry[1], f"{p} has not joined yet and holds no cards")
            g["hands" if key == "hand" else "table"][p] = ids
    de = single("deck")
    if de:
        if re.fullmatch(r"\s*\d+\s+cards?\s*", de[2]):
            r.error(de[0], de[1], "this position hides the draw pile; only the moderator's "
                    "position can be read back")
        else:
            g["deck"] = place(de, r.cards(de[0], de[1], de[2]))
    di = single("discard")
    if di:
        g["discard"] = place(di, r.cards(di[0], di[1], di[2]))
    rest = "deck"
    rs = single("rest")
    if rs:
        if rs[2] not in ("deck", "discard"):
            r.error(rs[0], rs[1], "rest must be 'deck' or 'discard'")
        else:
            rest = rs[2]
    unlisted = [c for c in deck.ids if c not in seen]
    if rest == "deck":
        g["deck"] += unlisted
    else:
        g["discard"] = unlisted + g["discard"]

    standing = {p: {"keep": None, "quote": None} for p in players}
    for entry in entries.get("keep", []):
        who, sep, rest_text = entry[2].partition(":")
        p = r.player(entry[0], entry[1], who, players) if sep else None
        if not sep:
            r.error(entry[0], entry[1], "expected 'keep: <player>: <card>; <card> ...'")
        if p:
            col = entry[1] + len(who) + 1
            standing[p]["keep"] = ([] if rest_text.strip().lower() == "none"
                                   else r.cards(entry[0], col, rest_text))
    for entry in entries.get("quote", []):
        who, sep, rest_text = entry[2].partition(":")
        p = r.player(entry[0], entry[1], who, players) if sep else None
        m = re.fullmatch(r'\s*"([^"]+)"\s*(?:judged\s+(ok|no))?\s*', rest_text)
        if not sep or not m:
            r.error(entry[0], entry[1], 'expected \'quote: <player>: "<line>" [judged ok|no]\'')
            continue
        if p:
            standing[p]["quote"] = {"words": m.group(1).strip(), "judged": m.group(2)}
    if g["goals"] and len(g["goals"]) > (2 if any(
            (deck[c].set or {}).get("goals", 1) >= 2 for c in g["rules"]) else 1):
        r.error(ge[0], ge[1], "more Goals are in play than the rules allow (two need Double "
                "Agenda)")
    if not r.errors:
        probe = Run(deck, g, players, standing, options, None)
        winners = [p for p in g["seated"] if probe.goals_met(p)]
        if len(winners) == 1:
            line = ge[0] if ge else 1
            r.error(line, 1, f"{winners[0]} already meets the Goal, so the game would be over")
        g["tied"] = winners if len(winners) > 1 else []
    r.raise_if_errors()
    g["start_rules"] = list(g["rules"]) if g["stage"] == "play" else []
    return {"game": g, "standing": standing}



