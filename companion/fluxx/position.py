"""A Fluxx position as text, for ``companion new fluxx G --setup FILE`` and ``show --position``.

Format (one ``key: value`` per line, ``#`` starts a comment, card lists separated by ``;``)::

    game: fluxx
    players: Anna, Bert, Cora          # seat order (the roster)
    waiting: Cora                      # players who have not joined yet (optional)
    active: Anna                       # whose turn it is
    stage: play                        # 'play' (the start of turn is done) or 'start'
    turn: 4                            # turns begun so far (this one included at 'play')
    turns-done: 3                      # turns finished so far ('turn' less 1 at 'play')
    drawn: 1                           # cards drawn this turn by the draw rule
    played: 0                          # cards played this turn
    extra-play: 1                      # extra plays won this turn (optional, else 0)
    used: Excalibur                    # free actions used this turn (optional)
    rules: Draw 2; Play 3              # New Rules in play, oldest first
    goals: A Bird in the Bush          # Goals in play, oldest first
    hand: Anna: Jackpot!; Coconuts     # one line per player (hand order = order received)
    hand: Bert: ...                    # (an empty hand: 'hand: Cora:' with nothing after it)
    table: Anna: Sir Robin; Grim Reaper
    keep: Anna: Coconuts; Sir Robin    # standing orders (optional)
    quote: Anna: "Ni!"
    deck: Trade Hands; Draw 3          # the draw pile, top card first
    discard: Rules Reset; Play 2       # the discard pile, bottom first (the last is on top)
    rest: deck                         # optional: where unlisted cards go: 'deck' (below the
                                       # listed ones, in the order of the data files) or 'discard'

Every line is required except ``waiting``, ``extra-play``, ``used``, ``keep``, ``quote`` and
``rest``; every player has a ``hand`` and a ``table`` line. Without ``rest`` every one of the
100 cards must be listed exactly once (the Basic Rules card is never listed). At ``stage:
start`` the turn has not begun: ``turns-done`` equals ``turn``, and ``drawn``, ``played``,
``extra-play`` are 0 and nothing is ``used``.

Card names match like names in orders (case, accents and punctuation ignored, unique
beginnings accepted). A player's version shows only that player's hand and standing orders;
other hands and the draw pile appear as counts ("hand: Bert: 4 cards") and cannot be read back.
"""
from __future__ import annotations

import re
from typing import Any

from companion.engine.names import exact_names, fold, match_name
from companion.engine.positions import Entry, LineReader, strip_comment
from companion.engine.words import counted
from companion.fluxx.cards import Deck, norm
from companion.fluxx.rules import MAX_PLAYS, Run, new_game_state

KEYS = ("game", "players", "waiting", "active", "stage", "turn", "turns-done", "drawn", "played",
        "extra-play", "used", "rules", "goals", "hand", "table", "deck", "discard", "rest", "keep",
        "quote")
REPEATABLE = ("hand", "table", "keep", "quote")
NUMBERS = {"turn": "turn", "turns-done": "turns_done", "drawn": "drawn", "played": "played",
           "extra-play": "extra_play"}
NUMBER_HINTS = {
    "turn": "add a line like 'turn: 1' (the turns begun so far, the current one included)",
    "turns-done": "add a line like 'turns-done: 0' (the turns finished so far: 'turn' less 1 "
                  "at stage play, equal to 'turn' at stage start)",
    "drawn": "add a line like 'drawn: 1' (the cards drawn this turn by the draw rule; 0 at "
             "stage start)",
    "played": "add a line like 'played: 0' (the cards played this turn; 0 at stage start)",
}
MIN_PLAYERS, MAX_PLAYERS = 2, 6
MAX_TURN = 99999
HIDDEN = re.compile(r"\s*\d+\s+cards?\s*")


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
    # the standing orders come before the piles: a file cut short then lacks cards, and is
    # refused, instead of silently losing a standing order
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
    return "\n".join(lines) + "\n"


# -- players ----------------------------------------------------------------------------------------
def items(text: str, start_col: int, sep: str) -> list[tuple[str, int]]:
    """The ``sep``-separated items of a value (stripped; empty ones kept) with their columns."""
    out = []
    pos = 0
    for piece in text.split(sep):
        lead = len(piece) - len(piece.lstrip())
        out.append((piece.strip(), start_col + pos + lead))
        pos += len(piece) + len(sep)
    return out


def players_of(value: str, col: int) -> tuple[list[str], list[tuple[int, str, str | None]]]:
    """The names of a ``players:`` value and its first problem (column, message, hint): the
    checks 'companion new' makes on player names, located in the line."""
    from companion.engine.identity import names_problem

    pieces = items(value, col, ",")
    names = [name for name, _ in pieces]
    for name, here in pieces:
        if not name:
            return names, [(here, "a player's name is missing here",
                            "separate the names by single commas")]
    found = names_problem(names, MIN_PLAYERS, MAX_PLAYERS, "Monty Python Fluxx")
    if found is None:
        return names, []
    index, error = found
    return names, [(col if index is None else pieces[index][1], error.message, error.hint)]


def setup_players(text: str) -> list[str]:
    """The players of a position text for ``companion new fluxx --setup``. When the players line
    is missing or would be refused, none: the command then reads the position, which reports the
    mistake with the file, line and column."""
    for raw in text.splitlines():
        m = re.match(r"\s*players\s*:\s*(.*)$", strip_comment(raw, quotes=True).rstrip(),
                     re.IGNORECASE)
        if m:
            names, problems = players_of(m.group(1).strip(), 1)
            return [] if problems else names
    return []


# -- reading ----------------------------------------------------------------------------------------
def _counted(deck: Deck, n: int) -> int:
    """The most a printed number can count for ('One, Two, Five!' makes a 3 count as 5)."""
    if n != 3:
        return n
    return max([3] + [c.set["three_counts_as"] for c in deck.of("rule")
                      if c.set and "three_counts_as" in c.set])


def max_drawn(deck: Deck) -> int:
    """The largest number of cards the draw rule can ask for."""
    values = [deck.basic.set["draw"]] + [c.set["draw"] for c in deck.of("rule")
                                         if c.set and "draw" in c.set]
    return max(_counted(deck, v) for v in values)


def max_extra_play(deck: Deck) -> int:
    """The most extra plays the bonuses of one turn can give."""
    return sum(_counted(deck, c.bonus["play"]) for c in deck.of("rule")
               if c.bonus and "play" in c.bonus)


def use_limit(card) -> int:
    """How often a card's free action can be used in one turn."""
    return card.free.get("per_turn") or (1 if card.free.get("cost") else MAX_PLAYS)


class _Reader(LineReader):
    def __init__(self, deck: Deck, filename: str, text: str):
        super().__init__(filename, text)
        self.deck = deck
        self.keys = [norm(c.name) for c in deck.cards]
        self.by_key = {norm(c.name): c for c in deck.cards}
        self.exact = exact_names(self.keys)     # a card written as the tool writes it

    def missing(self, what: str, hint: str) -> None:
        """A required line that is not there: reported just after the last line."""
        self.error(self.end_line, 1, f"the position has no {what} line", hint)

    def count(self, entry: Entry, key: str, low: int, high: int) -> int | None:
        """The number of a ``key:`` entry, within ``low``..``high``."""
        return self.number(entry[0], entry[1], entry[2], f"'{key}'", low=low, high=high)

    def player(self, number: int, col: int, typed: str, players: list[str]) -> str | None:
        col += len(typed) - len(typed.lstrip())
        typed = typed.strip()
        if not typed:
            self.error(number, col, "a player's name is missing here",
                       f"players: {', '.join(players)}")
            return None
        found = match_name(typed, players)
        if found.ok:
            return found.name
        if found.ambiguous:
            self.error(number, col, f"'{typed}' could be any of: {', '.join(found.candidates)}",
                       "type more of the name")
        else:
            self.error(number, col, f"no player called '{typed}'",
                       f"players: {', '.join(players)}")
        return None

    def cards(self, number: int, col: int, text: str) -> list[tuple[str, int]]:
        """The cards of a ';'-separated list, each with the column it starts at."""
        out = []
        for typed, here in items(text, col, ";"):
            if not typed:
                continue
            if norm(typed) in self.exact:
                out.append((self.by_key[norm(typed)].id, here))
                continue
            found = match_name(norm(typed), self.keys)
            if found.ok:
                out.append((self.by_key[found.name].id, here))
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
    """Parse and validate a position; raise DataError(s) with file, line and column.

    Every invariant the rules keep is checked: each card exactly once (unless ``rest`` places the
    unlisted ones), every card of the right type where it lies, the counters of the turn within
    their bounds and consistent with the stage, the players and their names, and nobody having
    already won. With ``options`` (those of the game being created) the position must fit them
    too (a turn limit not yet reached); the default options never add an error."""
    r = _Reader(deck, filename, text)
    entries = r.scan(text, KEYS, REPEATABLE, quotes=True)
    r.raise_if_errors()

    def single(key: str, hint: str | None = None) -> Entry | None:
        if key in entries:
            return entries[key][0]
        if hint is not None:
            r.missing(f"'{key}:'", hint)
        return None

    game = single("game", "add the line 'game: fluxx' (the first line of a Fluxx position)")
    if game and game[2].lower() != "fluxx":
        r.error(game[0], game[1], f"this is a position of '{game[2]}', not of fluxx")
    pe = single("players", "add a line like 'players: Anna, Bert, Cora' (the seat order)")
    players: list[str] = []
    problems: list[tuple[int, str, str | None]] = []
    if pe:
        players, problems = players_of(pe[2], pe[1])
        for col, message, hint in problems:
            r.error(pe[0], col, message, hint)
    if not pe or problems:
        r.raise_if_errors()         # nothing else can be read without the players

    waiting: list[str] = []
    we = single("waiting")
    if we and not (we[2].lower() == "none" and "none" not in map(fold, players)):
        for typed, col in items(we[2], we[1], ","):
            p = r.player(we[0], col, typed, players)
            if p and p in waiting:
                r.error(we[0], col, f"{p} is listed twice")
            elif p:
                waiting.append(p)
        if len(players) - len(waiting) < 2:
            r.error(we[0], we[1], "at least two players must be seated (not waiting)")
    g = new_game_state(deck, players, waiting)
    g["deck"] = []

    ae = single("active", "add a line like 'active: Anna' (whose turn it is)")
    if ae:
        p = r.player(ae[0], ae[1], ae[2], players)
        if p and p in waiting:
            r.error(ae[0], ae[1], f"{p} has not joined yet and cannot be the active player")
        elif p:
            g["active"] = p
    stage = None
    se = single("stage", "add 'stage: start' (the active player's turn is about to begin) or "
                         "'stage: play' (its start is done)")
    if se:
        if se[2].lower() in ("start", "play"):
            stage = g["stage"] = se[2].lower()
        else:
            r.error(se[0], se[1], f"stage '{se[2]}' is not 'start' or 'play'",
                    "a finished game cannot be a starting position" if se[2].lower() == "over"
                    else None)

    bounds = {"turn": MAX_TURN, "turns-done": MAX_TURN, "drawn": max_drawn(deck),
              "played": MAX_PLAYS, "extra-play": max_extra_play(deck)}
    numbers: dict[str, tuple[Entry, int]] = {}
    for key, field in NUMBERS.items():
        entry = single(key, NUMBER_HINTS.get(key))
        if entry:
            value = r.count(entry, key, 0, bounds[key])
            if value is not None:
                g[field] = value
                numbers[key] = (entry, value)
    turn = numbers.get("turn")
    done = numbers.get("turns-done")
    if stage == "start":
        for key in ("drawn", "played", "extra-play"):
            if key in numbers and numbers[key][1]:
                entry = numbers[key][0]
                r.error(entry[0], entry[1], f"at stage start the turn has not begun: '{key}' "
                        "must be 0", "use 'stage: play' for a turn under way")
        if turn and done and done[1] != turn[1]:
            r.error(done[0][0], done[0][1], f"at stage start 'turns-done' must equal 'turn' "
                    f"({turn[1]}): the next turn to begin is turn {turn[1] + 1}")
    elif stage == "play":
        if turn and turn[1] < 1:
            r.error(turn[0][0], turn[0][1], "at stage play a turn is under way: 'turn' is at "
                    "least 1")
        elif turn and done and done[1] != turn[1] - 1:
            r.error(done[0][0], done[0][1], f"at stage play 'turns-done' must be 'turn' less 1 "
                    f"({turn[1] - 1}): the current turn is not finished")
    limit = options.get("turn-limit") if isinstance(options, dict) else None
    if isinstance(limit, int) and limit > 0 and done and done[1] >= limit:
        r.error(done[0][0], done[0][1], f"the game's turn limit ({limit}) is already reached",
                "give a higher --option turn-limit, or 0 for none")

    ue = single("used")
    if ue:
        counts: dict[str, int] = {}
        for cid, col in r.cards(ue[0], ue[1], ue[2]):
            card = deck[cid]
            if not card.free:
                r.error(ue[0], col, f"{card.name} has no free action to have been used")
                continue
            counts[cid] = counts.get(cid, 0) + 1
            if counts[cid] > use_limit(card):
                r.error(ue[0], col, f"{card.name} is listed {counts[cid]} times, but its free "
                        f"action can be used only {counted(use_limit(card), 'time')} a turn")
                continue
            g["used"].append(cid)
        if stage == "start" and g["used"]:
            r.error(ue[0], ue[1], "at stage start the turn has not begun: nothing is used yet")

    seen: dict[str, int] = {}

    def place(number: int, cards: list[tuple[str, int]]) -> list[tuple[str, int]]:
        out = []
        for cid, col in cards:
            if cid in seen:
                first = "earlier on this line" if seen[cid] == number else \
                    f"first on line {seen[cid]}"
                r.error(number, col, f"{deck.name(cid)} is listed twice ({first})",
                        "every card is in exactly one place")
                continue
            seen[cid] = number
            out.append((cid, col))
        return out

    re_ = single("rules", "add a line 'rules: ' listing the New Rules in play (it may be empty)")
    if re_:
        keys: dict[str, str] = {}
        for cid, col in place(re_[0], r.cards(re_[0], re_[1], re_[2])):
            card = deck[cid]
            if card.type != "rule":
                r.error(re_[0], col, f"{card.name} is not a New Rule")
                continue
            g["rules"].append(cid)
            for key in card.set or {}:
                if key in keys:
                    r.error(re_[0], col, f"{card.name} and {keys[key]} contradict each other; "
                            "only one can be in play")
                keys[key] = card.name
    ge = single("goals", "add a line 'goals: ' listing the Goals in play (it may be empty)")
    if ge:
        slots = max([(deck[c].set or {}).get("goals", 1) for c in g["rules"]] + [1])
        for cid, col in place(ge[0], r.cards(ge[0], ge[1], ge[2])):
            if deck[cid].type != "goal":
                r.error(ge[0], col, f"{deck.name(cid)} is not a Goal")
                continue
            g["goals"].append(cid)
            if len(g["goals"]) > slots:
                r.error(ge[0], col, "more Goals are in play than the rules allow (two need "
                        "Double Agenda)")
    for key in ("hand", "table"):
        given: dict[str, int] = {}
        for entry in entries.get(key, []):
            who, sep, rest_text = entry[2].partition(":")
            if not sep:
                r.error(entry[0], entry[1], f"expected '{key}: <player>: <card>; <card> ...'")
                continue
            p = r.player(entry[0], entry[1], who, players)
            if not p:
                continue
            if p in given:
                r.error(entry[0], entry[1], f"{key} of {p} is given twice (first on line "
                        f"{given[p]})")
                continue
            given[p] = entry[0]
            col = entry[1] + len(who) + 1
            if HIDDEN.fullmatch(rest_text):
                r.error(entry[0], col, "this position hides cards (a player's version); only the "
                        "moderator's position can be read back", "companion show GAME --position")
                continue
            ids = []
            for cid, here in place(entry[0], r.cards(entry[0], col, rest_text)):
                ctype = deck[cid].type
                if key == "hand" and ctype == "creeper":
                    r.error(entry[0], here, f"{deck.name(cid)} is a Creeper: Creepers are never "
                            "held; put it on the table")
                elif key == "table" and ctype not in ("keeper", "creeper"):
                    r.error(entry[0], here, f"{deck.name(cid)} is not a Keeper or a Creeper")
                else:
                    ids.append(cid)
            if p in waiting and ids:
                r.error(entry[0], entry[1], f"{p} has not joined yet and has no cards")
            g["hands" if key == "hand" else "table"][p] = ids
        for p in players:
            if p not in given:
                r.missing(f"'{key}: {p}: ...'", f"every player has a '{key}:' line; write "
                          f"'{key}: {p}:' with nothing after it if there are no cards")

    standing: dict[str, dict[str, Any]] = {p: {"keep": None, "quote": None} for p in players}
    for key in ("keep", "quote"):
        given = {}
        for entry in entries.get(key, []):
            who, sep, rest_text = entry[2].partition(":")
            if not sep:
                r.error(entry[0], entry[1], "expected 'keep: <player>: <card>; <card> ...' (or "
                        "'none')" if key == "keep" else
                        'expected \'quote: <player>: "<line>" [judged ok|no]\'')
                continue
            p = r.player(entry[0], entry[1], who, players)
            if not p:
                continue
            if p in given:
                r.error(entry[0], entry[1], f"the {key} line of {p} is given twice (first on line "
                        f"{given[p]})")
                continue
            given[p] = entry[0]
            col = entry[1] + len(who) + 1
            if key == "keep":
                standing[p]["keep"] = _keep(r, entry[0], col, rest_text)
            else:
                standing[p]["quote"] = _quote(r, entry[0], col, rest_text)

    de = single("deck", "add a line 'deck: ' listing the draw pile, top card first (it may be "
                        "empty)")
    if de:
        if HIDDEN.fullmatch(de[2]):
            r.error(de[0], de[1], "this position hides the draw pile; only the moderator's "
                    "position can be read back", "companion show GAME --position")
        else:
            g["deck"] = [cid for cid, _ in place(de[0], r.cards(de[0], de[1], de[2]))]
    di = single("discard", "add a line 'discard: ' listing the discard pile, bottom card first "
                           "(it may be empty)")
    if di:
        g["discard"] = [cid for cid, _ in place(di[0], r.cards(di[0], di[1], di[2]))]
    rest = None
    rs = single("rest")
    if rs:
        if rs[2].lower() in ("deck", "discard"):
            rest = rs[2].lower()
        else:
            r.error(rs[0], rs[1], f"rest must be 'deck' or 'discard', not '{rs[2]}'")
    unlisted = [c for c in deck.ids if c not in seen]
    if rest == "deck":
        g["deck"] += unlisted
    elif rest == "discard":
        g["discard"] = unlisted + g["discard"]
    elif unlisted and not rs:
        shown = ", ".join(deck.name(c) for c in unlisted[:6]) + (
            f" and {len(unlisted) - 6} more" if len(unlisted) > 6 else "")
        line, col = (de[0], de[1]) if de else (r.end_line, 1)
        r.error(line, col, f"{len(unlisted)} card{'s are' if len(unlisted) != 1 else ' is'} "
                f"missing from the position: {shown}",
                "list every card once (draw pile, discard pile, a hand, a table, the rules or "
                "the goals), or add 'rest: deck' (or 'rest: discard') to put the unlisted ones "
                "there")

    if not r.errors:
        probe = Run(deck, g, players, standing, options, None)
        winners = [p for p in g["seated"] if probe.goals_met(p)]
        if len(winners) == 1:
            r.error(ge[0], ge[1], f"{winners[0]} already meets the Goal, so the game would be "
                    "over")
        g["tied"] = winners if len(winners) > 1 else []
    r.raise_if_errors()
    g["start_rules"] = list(g["rules"]) if g["stage"] == "play" else []
    return {"game": g, "standing": standing}


def _keep(r: _Reader, number: int, col: int, text: str) -> list[str] | None:
    if text.strip().lower() in ("none", "nothing"):
        return []
    if not text.strip():
        r.error(number, col, "the keep list is empty", "write 'none' to keep nothing")
        return None
    ids: list[str] = []
    for cid, here in r.cards(number, col, text):
        if r.deck[cid].type == "creeper":
            r.error(number, here, f"{r.deck.name(cid)} is a Creeper: Creepers are never held, "
                    "so never kept")
        elif cid in ids:
            r.error(number, here, f"{r.deck.name(cid)} is listed twice in the keep list")
        else:
            ids.append(cid)
    return ids


def _quote(r: _Reader, number: int, col: int, text: str) -> dict[str, Any] | None:
    m = re.fullmatch(r'(\s*)"([^"]*)"\s*(?:judged\s+(\S+))?\s*', text, re.IGNORECASE)
    if not m:
        r.error(number, col, 'expected \'quote: <player>: "<line>" [judged ok|no]\'')
        return None
    words = " ".join(m.group(2).split())
    if not words:
        r.error(number, col + len(m.group(1)), "the quoted line is empty")
        return None
    verdict = m.group(3)
    if verdict is not None and verdict.lower() not in ("ok", "no"):
        r.error(number, col + m.start(3), f"expected 'ok' or 'no' after 'judged', not "
                f"'{verdict}'")
        return None
    return {"words": words, "judged": verdict.lower() if verdict else None}
