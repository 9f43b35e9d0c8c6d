"""A Holy Grail CCG position as text, for ``companion new grailccg G --setup FILE`` and
``companion show G --position``.

One ``key: value`` per line; ``#`` starts a comment; card lists are separated by ``;``. The
format, with every line explained, is in docs/grailccg-views.md ("The position text"). In
short::

    game: grailccg
    players: Anna, Bert                 # seat order
    decks: starter-arthur, starter-french   # optional: the deck lists' names
    turn: 5
    active: Anna
    stage: action
    cards: Anna: Arthur; 3 Patsy; ...   # optional: the deck list; it numbers the cards
    deck: Anna: Gawain; Coconuts        # top card first
    hand: Anna: Burn Her!; Page
    dead: Anna: Camelot                 # the dead cart, oldest first
    ante: Anna: Tim the Enchanter
    round-table: Anna: 1b from home     # where it stands (and where it came from)
    members: Anna: Arthur; Lancelot     # knights and personas
    page: Anna: Patsy; serves Arthur; carries Coconuts; new Holy Hand Grenade of Antioch
    area: Anna 1b: up Camelot; foe Black Knight
    area: Anna 2a: down Swamp           # face down (nobody has seen it)
    area: av1: down Bridgekeeper
    search-bonus: 0
    rest: deck                          # optional: unlisted cards go under their owner's deck

A card of a deck that has several copies may carry its number in brackets (``Patsy [1-04]``:
seat 1, the 4th card of the ``cards:`` list); the moderator's version writes the number only
where reading without it would pick another copy, so that reading it back gives exactly the
same position. A player's version hides what that player may not see (other hands and every
deck as counts, face-down cards as ``?``); it cannot be read back.
"""
from __future__ import annotations

import json
import re
from typing import Any

from companion.engine.positions import LineReader, strip_comment
from companion.errors import DataError
from companion.grailccg import england as E

KEYS = ("game", "players", "decks", "turn", "active", "stage", "cards", "deck", "hand", "dead",
        "ante", "ante-share", "doubled", "ante-last", "round-table", "members", "page", "area",
        "search-bonus", "moves", "extra-moves", "grail-bonus", "skip-draw", "auto-join",
        "no-join", "seq", "used-items", "stack", "bonus-from", "outwitted-once", "fled", "joined",
        "dispute", "last", "arrival", "standing", "counter", "game-extra", "defeated", "rest")
REPEATABLE = ("cards", "deck", "hand", "dead", "ante", "round-table", "members", "page", "area",
              "grail-bonus", "stack", "standing", "counter", "game-extra")
KNOWN_GAME = ("players", "active", "turn", "stage", "cards", "decks", "hands", "dead", "table",
              "england", "avalon", "ante", "dispute", "last_dispute", "arrival", "counters",
              "result", "defeated")
PER_PLAYER = ("deck", "hand", "dead", "ante", "members")
KNOWN_COUNTERS = ("search_bonus", "moves", "extra_moves", "grail_bonus", "skip_draw",
                  "auto_join", "no_join", "seq", "used_items", "stack", "bonus_from",
                  "outwitted_once", "fled", "joined")
TRIGGER_CARDS = ("dispute", "play", "invite", "defend")
TRIGGER_WORDS = {"double": ("accept", "concede"), "reveal": ("apply", "ignore")}
HIDDEN = r"\s*\d+\s+cards?\s*"
TAG = r"^(.*?)\s*\[(\d+)-(\d+)\]\s*$"
"""Patterns of a hidden card list and of a numbered card, used only when a position is read
(compiled then, by ``re``: ``show`` writes a position without them)."""
MIN_PLAYERS, MAX_PLAYERS = 2, 6          # 16.3: three or more players
MAX_TURN = 99999
TITLE = "Monty Python and the Holy Grail CCG"


def items(text: str, start_col: int, sep: str) -> list[tuple[str, int]]:
    """The ``sep``-separated items of a value (stripped; empty ones kept) with their columns."""
    out = []
    pos = 0
    for piece in text.split(sep):
        lead = len(piece) - len(piece.lstrip())
        out.append((piece.strip(), start_col + pos + lead))
        pos += len(piece) + len(sep)
    return out


def _other(players: list[str], p: str) -> str:
    return players[(players.index(p) + 1) % len(players)]


def _num(inst: str) -> str:
    """A card's number as written in a position: seat, then place in the deck list."""
    seat, n = inst.split("-", 1)
    return f"{int(seat)}-{int(n)}"


def _seat(inst: str) -> int:
    return int(inst.split("-", 1)[0])


# ============================================================================== writing
def _card_list(cards) -> list[tuple[int, str]]:
    """A deck list in number order as (count, card id) runs of equal cards."""
    runs: list[list] = []
    for cid in cards:
        if runs and runs[-1][1] == cid:
            runs[-1][0] += 1
        else:
            runs.append([1, cid])
    return [(n, cid) for n, cid in runs]


def _placements(state: dict) -> list[tuple[str, str, str]]:
    """Every card the position places, in the order the text lists them, with the player whose
    cards are expected there (an untagged name is looked for among that player's cards):
    (line key, natural owner, instance)."""
    g = state["game"]
    players = g["players"]
    out: list[tuple[str, str, str]] = []
    for key in ("deck", "hand", "dead"):
        for p in players:
            out += [(key, p, i) for i in (g["decks"] if key == "deck" else
                                          g["hands"] if key == "hand" else g["dead"])[p]]
    for p in players:
        out += [("ante", p, i) for i in g["ante"]["cards"][p]]
    for p in players:
        out += [("members", p, i) for i in g["table"][p]["members"]]
    for p in players:
        t = g["table"][p]
        for page, info in t["pages"].items():
            out.append(("page", p, page))
            out += [("page", p, i) for i in info["items"] + info["new"]]
    for p in players:
        builder = _other(players, p)
        for name in E.AREAS:
            a = g["england"][p].get(name)
            if a is not None:
                out += _area_places(a, builder, p)
    for name in sorted(g["avalon"], key=E.order_key):
        out += _area_places(g["avalon"][name], _avalon_owner(players, name), None)
    return out


def _avalon_owner(players: list[str], name: str) -> str:
    """Avalon is dealt 2 cards per player in seat order: av1-av2 from seat 1, av3-av4 from
    seat 2 (the natural owner of an untagged name there)."""
    k = int(name[2:]) - 1
    return players[min(len(players) - 1, k // 2)]


def _area_places(a: dict, builder: str, explorer: str | None) -> list[tuple[str, str, str]]:
    out = []
    if a["card"] is not None:
        out.append(("area", builder, a["card"]))
    out += [("area", builder, i) for i in a["foes"]]
    out += [("area", builder, i) for i in a["occupants"]]
    if a.get("castle"):
        out += [("area", explorer or builder, i) for i in a["castle"].get("trapped", [])]
    return out


def _choose_tags(state: dict) -> set[str]:
    """The placed cards that need their number so that reading assigns every copy exactly."""
    g = state["game"]
    players = g["players"]
    places = _placements(state)
    by_group: dict[tuple[int, str], list[str]] = {}
    for inst in sorted(g["cards"], key=lambda i: (_seat(i), int(i.split("-")[1]))):
        by_group.setdefault((_seat(inst), g["cards"][inst]), []).append(inst)
    tagged = {inst for _, owner, inst in places if players.index(owner) + 1 != _seat(inst)}
    while True:
        assigned = _assign(g, players, places, tagged, by_group)
        wrong = {inst for (_, _, inst), got in zip(places, assigned)
                 if got != inst and inst not in tagged}
        if not wrong:
            return tagged
        tagged |= wrong


def _assign(g, players, places, tagged, by_group) -> list[str | None]:
    taken = set(tagged)
    out: list[str | None] = []
    for _, owner, inst in places:
        if inst in tagged:
            out.append(inst)
            continue
        group = by_group.get((players.index(owner) + 1, g["cards"][inst]), [])
        got = next((i for i in group if i not in taken), None)
        if got is not None:
            taken.add(got)
        out.append(got)
    return out


def _ref_tag(g, inst: str, candidates: list[str]) -> bool:
    """Whether a reference to an already placed card needs its number: an untagged name means
    the first card of that name among ``candidates``."""
    cid = g["cards"][inst]
    first = next((c for c in candidates if g["cards"][c] == cid), None)
    return first != inst


def _all_insts(g) -> list[str]:
    return sorted(g["cards"], key=lambda i: (_seat(i), int(i.split("-")[1])))


def write_position(kind, state: dict[str, Any], viewer: str = "moderator") -> str:
    pending = state.get("pending")
    g = pending["snapshot"] if pending else state["game"]
    st = dict(state, game=g)
    players = list(g["players"])
    full = viewer == "moderator"
    names = kind.cards
    tagged = _choose_tags(st) if full else set()
    everything = _all_insts(g)

    def nm(inst: str) -> str:
        return names.get(g["cards"][inst]).name

    def place(inst: str) -> str:
        if inst in tagged:
            return f"{nm(inst)} [{_seat(inst)}-{int(inst.split('-')[1])}]"
        return nm(inst)

    def ref(inst: str | None, candidates: list[str] | None = None) -> str:
        if inst is None:
            return "none"
        if full and _ref_tag(g, inst, (candidates or []) + everything):
            return f"{nm(inst)} [{_seat(inst)}-{int(inst.split('-')[1])}]"
        return nm(inst)

    def lst(insts) -> str:
        return "; ".join(place(i) for i in insts)

    lines = [f"# {TITLE} position", "game: grailccg", f"players: {', '.join(players)}"]
    if pending:
        lines.insert(1, "# a turn is in progress (paused); this is the position at its start")
    if state.get("decks"):
        lines.append(f"decks: {', '.join(state['decks'])}")
    lines += [f"turn: {g['turn']}", f"active: {g['active']}", f"stage: {g['stage']}"]
    if g.get("defeated"):
        lines.append(f"defeated: {'; '.join(g['defeated'])}")
    if full:
        for p in players:
            seat = players.index(p) + 1
            mine = [g["cards"][i] for i in everything if _seat(i) == seat]
            runs = _card_list(mine)
            lines.append(f"cards: {p}: " + "; ".join(
                (f"{n} " if n > 1 else "") + names.get(cid).name for n, cid in runs))
    for p in players:
        deck = g["decks"][p]
        lines.append(f"deck: {p}: {lst(deck)}" if full else
                     f"deck: {p}: {len(deck)} card{'s' if len(deck) != 1 else ''}")
    for p in players:
        hand = g["hands"][p]
        lines.append(f"hand: {p}: {lst(hand)}" if full or p == viewer else
                     f"hand: {p}: {len(hand)} card{'s' if len(hand) != 1 else ''}")
    for p in players:
        lines.append(f"dead: {p}: {lst(g['dead'][p])}")
    for p in players:
        lines.append(f"ante: {p}: {lst(g['ante']['cards'][p])}")
    ante = g["ante"]
    if ante["share"] != 1:
        lines.append(f"ante-share: {ante['share']}")
    if ante["doubled"]:
        lines.append(f"doubled: {'; '.join(ante['doubled'])}")
    if ante["last"] is not None:
        lines.append(f"ante-last: {ante['last']}")
    for p in players:
        t = g["table"][p]
        lines.append(f"round-table: {p}: {t['at']}" + (f" from {t['from']}" if t["from"] else ""))
        lines.append(f"members: {p}: {lst(t['members'])}")
        for page, info in t["pages"].items():
            parts = [place(page), "serves " + (ref(info["knight"], t["members"])
                                               if info["knight"] else "nobody")]
            parts += [f"carries {place(i)}" for i in info["items"]]
            parts += [f"new {place(i)}" for i in info["new"]]
            lines.append(f"page: {p}: " + "; ".join(parts))
    for p in players:
        for name in E.AREAS:
            if name in g["england"][p]:
                lines.append(f"area: {p} {name}: " + _area_text(g["england"][p][name], place,
                                                                 ref, full))
    for name in sorted(g["avalon"], key=E.order_key):
        lines.append(f"area: {name}: " + _area_text(g["avalon"][name], place, ref, full))
    c = g["counters"]
    lines.append(f"search-bonus: {c.get('search_bonus', 0)}")
    for key in ("moves", "extra_moves", "seq"):
        if c.get(key):
            lines.append(f"{key.replace('_', '-')}: {c[key]}")
    for p in players:
        if c.get("grail_bonus", {}).get(p):
            lines.append(f"grail-bonus: {p}: {c['grail_bonus'][p]}")
    if c.get("skip_draw"):
        lines.append(f"skip-draw: {'; '.join(c['skip_draw'])}")
    if c.get("auto_join"):
        aj = c["auto_join"]
        lines.append(f"auto-join: {aj['player']}; seq {aj['seq']}; from {ref(aj.get('inst'))}")
    if c.get("no_join"):
        nj = c["no_join"]
        lines.append(f"no-join: until {nj['until']}; seq {nj['seq']}; from {ref(nj.get('inst'))}")
    for key in ("used_items", "bonus_from", "outwitted_once", "fled"):
        if c.get(key):
            lines.append(f"{key.replace('_', '-')}: " + "; ".join(ref(i) for i in c[key]))
    for s in c.get("stack") or []:
        lines.append(f"stack: {s['by']}: {ref(s['inst'])}" + ("; cancelled" if s["cancelled"]
                                                               else ""))
    if c.get("joined"):
        lines.append(f"joined: {ref(c['joined'])}")
    for key in sorted(k for k in c if k not in KNOWN_COUNTERS and full):
        lines.append(f"counter: {key} {json.dumps(c[key], sort_keys=True)}")
    dsp = g.get("dispute")
    if dsp:
        lines.append("dispute: " + _dispute_text(g, dsp, ref))
    if g.get("last_dispute"):
        lines.append("last: " + _last_text(g["last_dispute"], ref))
    arr = g.get("arrival")
    if arr:
        flags = [w for w in ("village", "castle") if arr.get(w)]
        lines.append(f"arrival: {arr['player']}: {arr['area']}" + "".join(f"; {w}"
                                                                           for w in flags))
    for key in sorted(k for k in g if k not in KNOWN_GAME):
        if full:
            lines.append(f"game-extra: {key} {json.dumps(g[key], sort_keys=True)}")
    for p in players:
        if not (full or p == viewer):
            continue
        mine = state.get("standing", {}).get(p, {})
        for trig in TRIGGER_CARDS:
            if mine.get(trig):
                lines.append(f"standing: {p}: {trig}: "
                             + "; ".join(names.get(cid).name for cid in mine[trig]))
        if mine.get("retreat"):
            lines.append(f"standing: {p}: retreat: {'; '.join(mine['retreat'])}")
        for trig in TRIGGER_WORDS:
            if mine.get(trig):
                lines.append(f"standing: {p}: {trig}: {mine[trig]}")
    if g["stage"] == "over" and g.get("result"):
        lines.append(f"# the game is over: {g['result']['reason']}")
    return "\n".join(lines) + "\n"


def _area_text(a: dict, place, ref, full: bool) -> str:
    inst = a["card"]
    if inst is None:
        parts = ["open" if a["up"] else "empty"]
    elif a["up"]:
        parts = [f"up {place(inst)}"]
    else:
        parts = [f"down {place(inst)}" if full else "down ?"]
    parts += [f"foe {place(i)}" for i in a["foes"]]
    parts += [f"occupant {place(i)}" for i in a["occupants"]]
    for p, fs in a["outwitted"].items():
        cands = a["foes"] + a["occupants"]
        parts += [f"outwitted {p}: {ref(f, cands)}" for f in fs] or [f"outwitted {p}:"]
    if a.get("searched"):
        parts.append("searched")
    cs = a.get("castle")
    if cs is not None:
        parts.append("castle")
        parts += [f"outside {p}" for p in cs.get("outside", [])]
        parts += [f"passage {p}" for p in cs.get("passage", [])]
        parts += [f"breached {p}: {n}" for p, n in cs.get("breached", {}).items()]
        parts += [f"consulted {p}: {n}" for p, n in cs.get("consulted", {}).items()]
        if cs.get("assaulted"):
            parts.append("assaulted")
        parts += [f"trapped {place(i)}" for i in cs.get("trapped", [])]
    return "; ".join(parts)


def _dispute_text(g, dsp: dict, ref) -> str:
    p = dsp["player"]
    area = dsp["area"]
    a = g["avalon"][area] if area.startswith("av") else g["england"][p][area]
    parts = [f"{p}: {ref(dsp['foe'], a['foes'] + a['occupants'])}", f"in {area}", dsp["kind"],
             "methods " + ", ".join(dsp["methods"])]
    if dsp.get("lead"):
        parts.append(f"lead {ref(dsp['lead'], g['table'][p]['members'])}")
    if dsp.get("method"):
        parts.append(f"method {dsp['method']}")
    if dsp.get("tied"):
        parts.append(f"tied {dsp['tied']}")
    parts.append(f"from {dsp['from'] or 'none'}")
    if dsp.get("rounds"):
        parts.append(f"rounds {dsp['rounds']}")
    for m in dsp.get("mods", []):
        parts.append(f"mod {m['side']} {m['what']} {m['value']:+d} by {m['by']} from "
                     f"{ref(m.get('entry'))}" + (" cancelled" if m.get("cancelled") else ""))
    return "; ".join(parts)


def _last_text(last: dict, ref) -> str:
    parts = []
    for key, value in last.items():
        if key in ("lead", "foe"):
            text = ref(value)
        elif value is None:
            text = "none"
        elif isinstance(value, bool):
            text = "yes" if value else "no"
        elif isinstance(value, list):
            text = "[" + ", ".join(str(v) for v in value) + "]"
        else:
            text = str(value)
        parts.append(f"{key} {text}")
    return "; ".join(parts)


# ============================================================================== reading
def players_of(value: str, col: int) -> tuple[list[str], list[tuple[int, str, str | None]]]:
    """The names of a ``players:`` value and its first problem (column, message, hint)."""
    from companion.engine.identity import names_problem

    pieces = items(value, col, ",")
    names = [name for name, _ in pieces]
    for name, here in pieces:
        if not name:
            return names, [(here, "a player's name is missing here",
                            "separate the names by single commas")]
    found = names_problem(names, MIN_PLAYERS, MAX_PLAYERS, TITLE)
    if found is None:
        return names, []
    index, error = found
    return names, [(col if index is None else pieces[index][1], error.message, error.hint)]


def setup_players(text: str) -> list[str]:
    """The players a position names (its ``players:`` line), or none if it has none or they
    would be refused (reading the position then reports where)."""
    for raw in text.splitlines():
        m = re.match(r"\s*players\s*:\s*(.*)$", strip_comment(raw).rstrip(), re.IGNORECASE)
        if m:
            names, problems = players_of(m.group(1).strip(), 1)
            return [] if problems else names
    return []


class _Reader(LineReader):
    def __init__(self, kind, filename: str, text: str):
        super().__init__(filename, text)
        self.kind = kind
        self.cards = kind.cards
        self.exact = _exact_names(kind.cards)

    def card_id(self, line: int, col: int, typed: str) -> str | None:
        from companion.engine.names import fold

        quick = self.exact.get(fold(typed))
        if quick is not None:
            return quick
        found = self.cards.lookup(typed)
        if found.ok:
            return self.cards._by_name_exact(found.name).id if hasattr(
                self.cards, "_by_name_exact") else self.cards.by_name(found.name).id
        if found.ambiguous:
            self.error(line, col, f"'{typed}' could be any of: {', '.join(found.candidates)}",
                       "type more of the name")
        else:
            close = list(found.suggestions)
            self.error(line, col, f"no card called '{typed}'",
                       ("did you mean " + " or ".join(f"'{c}'" for c in close) + "?")
                       if close else "card names are separated by ';'")
        return None

    def player(self, line: int, col: int, typed: str, players: list[str]) -> str | None:
        return self.name(line, col, typed.strip(), players, "player")


def _exact_names(cards) -> dict[str, str]:
    """Folded full names (and aliases) -> card id: the common case without fuzzy matching."""
    from companion.engine.names import fold

    out: dict[str, str] = {}
    ids = {c.name: c.id for c in cards}
    for c in cards:
        out.setdefault(fold(c.name), c.id)
    try:
        aliases = cards.aliases()
    except AttributeError:
        aliases = {}
    for alias, name in aliases.items():
        if name in ids:
            out.setdefault(fold(alias), ids[name])
    return out


def _is_name(r: "_Reader", text: str) -> bool:
    from companion.engine.names import fold

    return fold(text) in r.exact


class _Cards:
    """The card instances of the position (from the ``cards:`` lists) and where each is."""

    def __init__(self, r: _Reader, players: list[str]):
        self.r = r
        self.players = players
        self.cards: dict[str, str] = {}
        self.groups: dict[tuple[int, str], list[str]] = {}
        self.placed: dict[str, int] = {}
        self.pinned: set[str] = set()

    def build(self, p: str, ids: list[str]) -> None:
        seat = self.players.index(p) + 1
        for k, cid in enumerate(ids, start=1):
            inst = f"{seat}-{k:02d}"
            self.cards[inst] = cid
            self.groups.setdefault((seat, cid), []).append(inst)

    def parse(self, line: int, col: int, text: str):
        """(card id, instance or None, column) of one card reference, or None if unreadable."""
        m = re.match(TAG, text)
        if m:
            cid = self.r.card_id(line, col, m.group(1))
            if cid is None:
                return None
            inst = f"{int(m.group(2))}-{int(m.group(3)):02d}"
            if self.cards.get(inst) != cid:
                have = self.cards.get(inst)
                self.r.error(line, col, f"there is no {self.r.cards.get(cid).name} numbered "
                             f"[{m.group(2)}-{m.group(3)}]" + (
                                 f" (that number is {self.r.cards.get(have).name})"
                                 if have else ""),
                             "the number is the seat, then the place in that player's "
                             "'cards:' list; or leave the number out")
                return None
            return cid, inst, col
        cid = self.r.card_id(line, col, text)
        if cid is None:
            return None
        return cid, None, col

    def assign(self, line: int, ref, owner: str) -> str | None:
        """The instance a placed reference takes: its own number, or the next free copy among
        ``owner``'s cards."""
        cid, inst, col = ref
        if inst is None:
            seat = self.players.index(owner) + 1
            group = self.groups.get((seat, cid), [])
            inst = next((i for i in group if i not in self.placed and i not in self.pinned),
                        None)
            if inst is None:
                total = len(group)
                name = self.r.cards.get(cid).name
                where = sorted({self.placed[i] for i in group if i in self.placed})
                self.r.error(line, col, f"{owner} has no other {name} ({total} in the "
                             "'cards:' list, placed on line "
                             + ", ".join(map(str, where)) + ")"
                             if total else f"{name} is not among {owner}'s cards",
                             f"a card of the other player, or one copy in particular, takes "
                             f"its number: '{name} [2-7]' is the 7th card of seat 2's "
                             "'cards:' list")
                return None
        if inst in self.placed:
            self.r.error(line, col, f"{self.r.cards.get(cid).name} [{_num(inst)}] is placed twice "
                         f"(first on line {self.placed[inst]})", "every card is in one place")
            return None
        self.placed[inst] = line
        return inst

    def lookup(self, line: int, col: int, text: str, candidates: list[str]) -> str | None:
        """A reference to a card placed elsewhere: its number, or the first copy among
        ``candidates`` then among all cards."""
        if text.strip().lower() == "none":
            return None
        ref = self.parse(line, col, text.strip())
        if ref is None:
            return None
        cid, inst, _ = ref
        if inst is not None:
            return inst
        everything = sorted(self.cards, key=lambda i: (_seat(i), int(i.split("-")[1])))
        found = next((c for c in candidates + everything if self.cards[c] == cid), None)
        if found is None:
            self.r.error(line, col, f"no {self.r.cards.get(cid).name} is in this game")
        return found


def _split(text: str, col: int, sep: str = ";") -> list[tuple[str, int]]:
    return [(t, c) for t, c in items(text, col, sep) if t]


def read_position(kind, text: str, filename: str, options: dict[str, Any]) -> dict[str, Any]:
    """Parse and check a position; raise DataError(s) with file, line and column."""
    from companion.grailccg.kind import empty_standing, rule_options
    from companion.grailccg.rules import new_area, new_game_state

    r = _Reader(kind, filename, text)
    entries = r.scan(text, KEYS, REPEATABLE)
    r.raise_if_errors()

    def single(key: str, example: str | None = None):
        if key in entries:
            return entries[key][0]
        if example is not None:
            r.missing(key, example)
        return None

    ge = single("game", "grailccg")
    if ge and ge[2].lower() != "grailccg":
        r.error(ge[0], ge[1], f"this is a position of '{ge[2]}', not of grailccg")
    pe = single("players", "Anna, Bert")
    players: list[str] = []
    if pe:
        players, problems = players_of(pe[2], pe[1])
        for col, message, hint in problems:
            r.error(pe[0], col, message, hint)
    r.raise_if_errors()

    g = new_game_state(players)
    standing = {p: empty_standing() for p in players}

    def per_player(key: str) -> dict[str, tuple[int, int, str]]:
        out: dict[str, tuple[int, int, str]] = {}
        for line, col, value in entries.get(key, []):
            who, sep, rest = value.partition(":")
            if not sep:
                r.error(line, col, f"expected '{key}: <player>: ...'")
                continue
            p = r.player(line, col, who, players)
            if p is None:
                continue
            if p in out and key not in ("page", "standing", "grail-bonus", "stack"):
                r.error(line, col, f"'{key}' of {p} is given twice (first on line {out[p][0]})")
                continue
            vcol = col + len(who) + 1 + (len(rest) - len(rest.lstrip()))
            out.setdefault(p, (line, vcol, rest.strip()))
        return out

    # -- the game's cards -------------------------------------------------------------------
    de = single("decks")
    deck_names: list[str] = []
    if de:
        deck_names = [n for n, _ in _split(de[2], de[1], ",")]
    else:
        raw = options.get("decks") if isinstance(options, dict) else None
        if isinstance(raw, str):
            raw = [x.strip() for x in raw.split(",") if x.strip()]
        deck_names = list(raw or ["starter-arthur", "starter-french"])
    cards = _Cards(r, players)
    given = per_player("cards")
    for i, p in enumerate(players):
        if p in given:
            line, col, value = given[p]
            if re.fullmatch(HIDDEN, value) or not value:
                r.error(line, col, "the card list is missing", "list the deck list, e.g. "
                        "'cards: Anna: Arthur; 3 Patsy; ...'")
                continue
            ids = []
            for piece, pc in _split(value, col):
                m = re.match(r"(\d+)\s+(.*)$", piece)
                count, name, ncol = 1, piece, pc
                if m and not _is_name(r, piece):
                    count, name, ncol = int(m.group(1)), m.group(2), pc + m.start(2)
                    if not 1 <= count <= 99:
                        r.error(line, pc, f"the count must be from 1 to 99, not {count}")
                        continue
                cid = r.card_id(line, ncol, name)
                if cid:
                    ids += [cid] * count
            cards.build(p, ids)
        else:
            name = deck_names[i] if i < len(deck_names) else None
            try:
                ids = kind.deck_list(name) if name else []
            except DataError as exc:
                line, col = (de[0], de[1]) if de else (r.end_line, 1)
                r.error(line, col, f"the deck list '{name}' of {p} cannot be read: "
                        f"{exc.message}", "add a 'cards: <player>: ...' line, or name a deck "
                        "list in 'decks:'")
                ids = []
            cards.build(p, ids)
    r.raise_if_errors()
    g["cards"] = dict(cards.cards)

    # -- the turn ---------------------------------------------------------------------------
    te = single("turn", "1")
    if te:
        value = r.number(te[0], te[1], te[2], "'turn'", low=1, high=MAX_TURN)
        if value is not None:
            g["turn"] = value
    ae = single("active", players[0] if players else "Anna")
    if ae:
        p = r.player(ae[0], ae[1], ae[2], players)
        if p:
            g["active"] = p
    se = single("stage", "action")
    if se:
        if se[2].lower() == "action":
            g["stage"] = "action"
        else:
            r.error(se[0], se[1], f"stage '{se[2]}' is not 'action'",
                    "a finished game cannot be a starting position"
                    if se[2].lower() == "over" else "write 'stage: action'")

    e = single("defeated")
    if e:
        g["defeated"] = [p for p in (r.player(e[0], pc, piece, players)
                                     for piece, pc in _split(e[2], e[1])) if p]
        if len(g["defeated"]) >= len(players):
            r.error(e[0], e[1], "every player is out: the game would be over")

    # -- places -----------------------------------------------------------------------------
    # pinned copies first: a numbered card is never taken by an unnumbered name
    for key in ("deck", "hand", "dead", "ante", "members", "page", "area"):
        for line, col, value in entries.get(key, []):
            for m in re.finditer(r"\[(\d+)-(\d+)\]", value):
                cards.pinned.add(f"{int(m.group(1))}-{int(m.group(2)):02d}")

    def place_list(key: str, p: str, line: int, col: int, value: str, owner: str) -> list[str]:
        if re.fullmatch(HIDDEN, value):
            r.error(line, col, "this position hides cards (a player's version); only the "
                    "moderator's position can be read back", "companion show GAME --position")
            return []
        out = []
        for piece, pc in _split(value, col):
            ref = cards.parse(line, pc, piece)
            if ref is None:
                continue
            inst = cards.assign(line, ref, owner)
            if inst is not None:
                out.append(inst)
        return out

    targets = {"deck": g["decks"], "hand": g["hands"], "dead": g["dead"],
               "ante": g["ante"]["cards"]}
    for key in ("deck", "hand", "dead", "ante"):
        got = per_player(key)
        for p in players:
            if p not in got:
                r.missing(f"{key}: {p}", "..." if key != "ante" else "<card>")
                continue
            line, col, value = got[p]
            targets[key][p] = place_list(key, p, line, col, value, p)
    line_share = single("ante-share")
    if line_share:
        v = r.number(line_share[0], line_share[1], line_share[2], "'ante-share'", low=1,
                     high=9999)
        if v:
            g["ante"]["share"] = v
    dbl = single("doubled")
    if dbl:
        for piece, pc in _split(dbl[2], dbl[1]):
            p = r.player(dbl[0], pc, piece, players)
            if p:
                g["ante"]["doubled"].append(p)
    last_ = single("ante-last")
    if last_:
        g["ante"]["last"] = r.player(last_[0], last_[1], last_[2], players)

    # Round Tables
    rts = per_player("round-table")
    for p in players:
        if p not in rts:
            r.missing(f"round-table: {p}", "home")
            continue
        line, col, value = rts[p]
        at, _, came = value.partition(" from ")
        a = _area_name(r, line, col, at, g, allow_home=True)
        if a:
            g["table"][p]["at"] = a
        if came.strip():
            b = _area_name(r, line, col + len(at) + 6, came, g, allow_home=True)
            g["table"][p]["from"] = b
    mem = per_player("members")
    for p in players:
        if p not in mem:
            r.missing(f"members: {p}", "Arthur")
            continue
        line, col, value = mem[p]
        for inst in place_list("members", p, line, col, value, p):
            t = _ctype(r, g, inst)
            if t not in ("knight", "persona"):
                r.error(line, col, f"{_cname(r, g, inst)} is {_a(t)}, not a knight or persona",
                        "pages have their own 'page:' lines")
            g["table"][p]["members"].append(inst)
    for line, col, value in entries.get("page", []):
        who, sep, rest = value.partition(":")
        if not sep:
            r.error(line, col, "expected 'page: <player>: <page>; serves <knight>; carries "
                    "<item> ...'")
            continue
        p = r.player(line, col, who, players)
        if p is None:
            continue
        pieces = _split(rest, col + len(who) + 1)
        if not pieces:
            r.error(line, col, "the page is missing")
            continue
        got = place_list("page", p, line, pieces[0][1], pieces[0][0], p)
        if not got:
            continue
        page = got[0]
        if _ctype(r, g, page) != "page":
            r.error(line, pieces[0][1], f"{_cname(r, g, page)} is not a page")
        info = {"knight": None, "items": [], "new": []}
        for piece, pc in pieces[1:]:
            word, _, arg = piece.partition(" ")
            word = word.lower()
            if word == "serves":
                if arg.strip().lower() != "nobody":
                    info["knight"] = cards.lookup(line, pc + 7, arg, g["table"][p]["members"])
                    if info["knight"] is not None and \
                            info["knight"] not in g["table"][p]["members"]:
                        r.error(line, pc, f"{arg.strip()} is not a member of {p}'s Round "
                                "Table (list the 'members:' line first)")
            elif word in ("carries", "new"):
                for inst in place_list("page", p, line, pc + len(word) + 1, arg, p):
                    if _ctype(r, g, inst) != "item":
                        r.error(line, pc, f"{_cname(r, g, inst)} is not an item")
                    info["items" if word == "carries" else "new"].append(inst)
            else:
                r.error(line, pc, f"unknown page detail '{word}'",
                        "write 'serves <knight>', 'carries <item>' or 'new <item>' (given this "
                        "turn)")
        g["table"][p]["pages"][page] = info

    # areas
    seen_areas: dict[str, int] = {}
    for line, col, value in entries.get("area", []):
        where, sep, rest = value.partition(":")
        if not sep:
            r.error(line, col, "expected 'area: <player> <area>: ...' or 'area: av1: ...'")
            continue
        where = where.strip()
        explorer = None
        bits = where.rsplit(" ", 1)
        if len(bits) == 2:
            explorer = r.player(line, col, bits[0], players)
            if explorer is None:
                continue
            name = E.canonical(bits[1])
            if name not in E.AREAS:
                r.error(line, col + len(bits[0]) + 1, f"'{bits[1]}' is not an area of England",
                        "areas: " + ", ".join(E.AREAS))
                continue
            key = f"{explorer} {name}"
        else:
            name = E.canonical(where)
            if name is None or not name.startswith("av"):
                r.error(line, col, f"'{where}' is not an area of Avalon",
                        "write 'av1'..'av4', or '<player> <area>' for an England")
                continue
            key = name
        if key in seen_areas:
            r.error(line, col, f"area {key} is given twice (first on line {seen_areas[key]})")
            continue
        seen_areas[key] = line
        owner = _other(players, explorer) if explorer else _avalon_owner(players, name)
        a = _read_area(r, cards, g, line, col + len(where) + 1 + (len(rest) - len(rest.lstrip())),
                       rest.strip(), owner, explorer, players, new_area)
        if explorer:
            g["england"][explorer][name] = a
        else:
            g["avalon"][name] = a
    for p in players:
        missing = [n for n in E.AREAS if n not in g["england"][p]]
        if missing:
            r.missing(f"area: {p} {missing[0]}", "down <card>  (every area of each England has "
                      "a line)")
    avs = sorted(g["avalon"], key=E.order_key)
    if avs != [f"av{i}" for i in range(1, len(avs) + 1)] or not avs:
        r.missing("area: av1" if not avs else f"area: av{len(avs)}",
                  "down <card>  (Avalon's areas are av1, av2, ... without a gap)")
    g["avalon"] = {n: g["avalon"][n] for n in avs}
    for p in players:
        at = g["table"][p]["at"]
        if at.startswith("av") and at not in g["avalon"]:
            r.error(rts[p][0], rts[p][1], f"Avalon has no area {at}")
    ats = [g["table"][p]["at"] for p in players]
    if len(players) == 2 and ats[0].startswith("av") and ats[0] == ats[1]:
        r.error(rts[players[1]][0], rts[players[1]][1], f"both Round Tables are in {ats[0]}; "
                "an Avalon area holds one (FAQ 9)")
    for k, p in enumerate(players[2:] and players[1:], start=1):    # 16.3: three or more
        if ats[k].startswith("av") and ats[k] in ats[:k]:
            first = players[ats[:k].index(ats[k])]
            r.error(rts[p][0], rts[p][1], f"the Round Tables of {first} and {p} are both in "
                    f"{ats[k]}; an Avalon area holds one (FAQ 9)")

    # rest and conservation
    rs = single("rest")
    unplaced = [i for i in sorted(cards.cards, key=lambda i: (_seat(i), int(i.split('-')[1])))
                if i not in cards.placed]
    if rs and rs[2].lower() != "deck":
        r.error(rs[0], rs[1], f"rest must be 'deck', not '{rs[2]}'")
    elif rs:
        for inst in unplaced:
            g["decks"][players[_seat(inst) - 1]].append(inst)
            cards.placed[inst] = rs[0]
    elif unplaced:
        shown = ", ".join(f"{_cname(r, g, i)} [{_num(i)}]" for i in unplaced[:6]) + (
            f" and {len(unplaced) - 6} more" if len(unplaced) > 6 else "")
        r.error(r.end_line, 1, f"{len(unplaced)} card{'s are' if len(unplaced) != 1 else ' is'} "
                f"not placed: {shown}", "place every card of the 'cards:' lists once, or add "
                "'rest: deck' to put the others under their owner's deck")
    r.raise_if_errors()

    # -- counters, the dispute, standing orders --------------------------------------------
    c = g["counters"]
    sb = single("search-bonus", "0")
    if sb:
        v = r.number(sb[0], sb[1], sb[2], "'search-bonus'", high=99)
        if v is not None:
            c["search_bonus"] = v
    for key in ("moves", "extra-moves", "seq"):
        e = single(key)
        if e:
            v = r.number(e[0], e[1], e[2], f"'{key}'", high=9999)
            if v is not None:
                c[key.replace("-", "_")] = v
    for line, col, value in entries.get("grail-bonus", []):
        who, _, n = value.partition(":")
        p = r.player(line, col, who, players)
        v = _signed(r, line, col + len(who) + 1, n)
        if p and v is not None:
            c["grail_bonus"][p] = v
    e = single("skip-draw")
    if e:
        for piece, pc in _split(e[2], e[1]):
            p = r.player(e[0], pc, piece, players)
            if p:
                c["skip_draw"].append(p)
    everything: list[str] = []
    e = single("auto-join")
    if e:
        fields = _split(e[2], e[1])
        p = r.player(e[0], e[1], fields[0][0], players) if fields else None
        aj = {"player": p, "seq": 0, "inst": None}
        for piece, pc in fields[1:]:
            word, _, arg = piece.partition(" ")
            if word == "seq":
                aj["seq"] = r.number(e[0], pc + 4, arg, "'seq'") or 0
            elif word == "from":
                aj["inst"] = cards.lookup(e[0], pc + 5, arg, everything)
            else:
                r.error(e[0], pc, f"unknown detail '{word}'", "write 'seq N' or 'from <card>'")
        c["auto_join"] = aj
    e = single("no-join")
    if e:
        nj = {"until": 0, "seq": 0, "inst": None}
        for piece, pc in _split(e[2], e[1]):
            word, _, arg = piece.partition(" ")
            if word in ("until", "seq"):
                nj[word] = r.number(e[0], pc + len(word) + 1, arg, f"'{word}'") or 0
            elif word == "from":
                nj["inst"] = cards.lookup(e[0], pc + 5, arg, everything)
            else:
                r.error(e[0], pc, f"unknown detail '{word}'",
                        "write 'until N', 'seq N' or 'from <card>'")
        c["no_join"] = nj
    for key in ("used-items", "bonus-from", "outwitted-once", "fled"):
        e = single(key)
        if e:
            c[key.replace("-", "_")] = [x for x in (cards.lookup(e[0], pc, piece, everything)
                                                    for piece, pc in _split(e[2], e[1]))
                                        if x is not None]
    for line, col, value in entries.get("stack", []):
        who, _, rest = value.partition(":")
        p = r.player(line, col, who, players)
        fields = _split(rest, col + len(who) + 1)
        if p is None or not fields:
            if p is not None:
                r.error(line, col, "expected 'stack: <player>: <card>[; cancelled]'")
            continue
        inst = cards.lookup(line, fields[0][1], fields[0][0], everything)
        cancelled = any(f.lower() == "cancelled" for f, _ in fields[1:])
        c["stack"].append({"by": p, "inst": inst, "cancelled": cancelled})
    e = single("joined")
    if e:
        c["joined"] = cards.lookup(e[0], e[1], e[2], everything)
    for line, col, value in entries.get("counter", []):
        key, _, raw = value.partition(" ")
        try:
            c[key] = json.loads(raw)
        except ValueError:
            r.error(line, col + len(key) + 1, f"the value of counter '{key}' is not JSON")
    for line, col, value in entries.get("game-extra", []):
        key, _, raw = value.partition(" ")
        try:
            g[key] = json.loads(raw)
        except ValueError:
            r.error(line, col + len(key) + 1, f"the value of '{key}' is not JSON")
    e = single("dispute")
    if e:
        g["dispute"] = _read_dispute(r, cards, g, e, players)
    e = single("last")
    if e:
        g["last_dispute"] = _read_last(r, cards, e, everything)
    e = single("arrival")
    if e:
        who, _, rest = e[2].partition(":")
        p = r.player(e[0], e[1], who, players)
        fields = _split(rest, e[1] + len(who) + 1)
        if p and fields:
            area = _area_name(r, e[0], fields[0][1], fields[0][0], g, allow_home=True)
            flags = [f.lower() for f, _ in fields[1:]]
            for f, fc in fields[1:]:
                if f.lower() not in ("village", "castle"):
                    r.error(e[0], fc, f"unknown arrival detail '{f}'",
                            "write 'village' or 'castle' (already handled on arrival)")
            g["arrival"] = {"player": p, "area": area, "village": "village" in flags,
                            "castle": "castle" in flags}
    for line, col, value in entries.get("standing", []):
        who, _, rest = value.partition(":")
        p = r.player(line, col, who, players)
        trig, sep, arg = rest.partition(":")
        tcol = col + len(who) + 1 + (len(trig) - len(trig.lstrip()))
        trig = trig.strip().lower()
        if p is None:
            continue
        if not sep or trig not in TRIGGER_CARDS + ("retreat",) + tuple(TRIGGER_WORDS):
            r.error(line, tcol, f"unknown standing order '{trig}'",
                    "one of: " + ", ".join(TRIGGER_CARDS + ("retreat",) + tuple(TRIGGER_WORDS)))
            continue
        acol = tcol + len(trig) + 1 + (len(arg) - len(arg.lstrip()))
        if trig in TRIGGER_CARDS:
            standing[p][trig] = [cid for cid in (r.card_id(line, pc, piece)
                                                 for piece, pc in _split(arg, acol)) if cid]
        elif trig == "retreat":
            # home too: a Round Table in row 1 runs away back home (7.6), and 'on
            # retreat: home' is a standing order the game takes and offers
            standing[p][trig] = [a for a in (_area_name(r, line, pc, piece, g, allow_home=True)
                                             for piece, pc in _split(arg, acol)) if a]
        else:
            word = arg.strip().lower()
            if word not in TRIGGER_WORDS[trig]:
                r.error(line, acol, f"'{arg.strip()}' is not " +
                        " or ".join(f"'{w}'" for w in TRIGGER_WORDS[trig]))
            else:
                standing[p][trig] = word
    r.raise_if_errors()
    names = deck_names[:len(players)] if deck_names else []
    return {"kind": "grailccg", "players": list(players), "game": g, "standing": standing,
            "pending": None, "events": [], "decks": list(names),
            "rules": rule_options(options if isinstance(options, dict) else {})}


def _a(word: str) -> str:
    return ("an " if word[:1] in "aeiou" else "a ") + word.replace("-", " ")


def _ctype(r: _Reader, g: dict, inst: str) -> str:
    return str(r.cards.get(g["cards"][inst]).type)


def _cname(r: _Reader, g: dict, inst: str) -> str:
    return r.cards.get(g["cards"][inst]).name


def _signed(r: _Reader, line: int, col: int, text: str) -> int | None:
    t = text.strip()
    if not re.fullmatch(r"[+-]?[0-9]{1,4}", t):
        r.error(line, col, f"expected a whole number like 2 or -1, not '{t}'")
        return None
    return int(t)


def _area_name(r: _Reader, line: int, col: int, text: str, g: dict,
               allow_home: bool = False) -> str | None:
    name = E.canonical(text)
    if name is None or (name == E.HOME and not allow_home):
        r.error(line, col, f"'{text.strip()}' is not an area",
                "areas: home, " + ", ".join(E.AREAS) + ", av1..av4")
        return None
    return name


def _read_area(r, cards: _Cards, g, line: int, col: int, text: str, owner: str,
               explorer: str | None, players: list[str], new_area) -> dict:
    a = new_area(None)
    fields = _split(text, col)
    if not fields:
        r.error(line, col, "the area is empty", "start with 'down <card>', 'up <card>', 'open' "
                "or 'empty'")
        return a
    first, fc = fields[0]
    word, _, arg = first.partition(" ")
    word = word.lower()
    if word in ("down", "up"):
        if arg.strip() == "?":
            r.error(line, fc, "this position hides the face-down cards (a player's version); "
                    "only the moderator's position can be read back",
                    "companion show GAME --position")
        else:
            ref = cards.parse(line, fc + len(word) + 1, arg.strip())
            if ref is not None:
                a["card"] = cards.assign(line, ref, owner)
                a["up"] = word == "up"
    elif word == "open":
        a["up"] = True
    elif word != "empty":
        r.error(line, fc, f"an area starts with 'down <card>', 'up <card>', 'open' or "
                f"'empty', not '{word}'")
    for piece, pc in fields[1:]:
        word, _, arg = piece.partition(" ")
        word = word.lower()
        acol = pc + len(word) + 1
        if word in ("foe", "occupant", "trapped"):
            ref = cards.parse(line, acol, arg.strip())
            who = owner if word != "trapped" else (explorer or owner)
            inst = cards.assign(line, ref, who) if ref else None
            if inst is None:
                continue
            if word == "trapped":
                if a["castle"] is None:
                    r.error(line, pc, "'trapped' comes after 'castle'")
                    continue
                a["castle"]["trapped"].append(inst)
            else:
                a["foes" if word == "foe" else "occupants"].append(inst)
        elif word == "outwitted":
            who, _, rest = arg.partition(":")
            p = r.player(line, acol, who, players)
            if p is None:
                continue
            mine = a["outwitted"].setdefault(p, [])
            if rest.strip():
                x = cards.lookup(line, acol + len(who) + 1, rest, a["foes"] + a["occupants"])
                if x is not None:
                    mine.append(x)
        elif word == "searched":
            a["searched"] = True
        elif word == "castle":
            a["castle"] = {"outside": [], "passage": [], "breached": {}, "consulted": {},
                           "assaulted": False, "trapped": []}
        elif word in ("outside", "passage", "breached", "consulted", "assaulted"):
            cs = a["castle"]
            if cs is None:
                r.error(line, pc, f"'{word}' comes after 'castle'")
                continue
            if word == "assaulted":
                cs["assaulted"] = True
            elif word in ("outside", "passage"):
                p = r.player(line, acol, arg, players)
                if p:
                    cs[word].append(p)
            else:
                who, _, n = arg.partition(":")
                p = r.player(line, acol, who, players)
                v = r.number(line, acol + len(who) + 1, n, f"'{word}'")
                if p and v is not None:
                    cs[word][p] = v
        else:
            r.error(line, pc, f"unknown area detail '{word}'",
                    "details: foe, occupant, outwitted, searched, castle (then outside, "
                    "passage, breached, consulted, assaulted, trapped)")
    return a


def _read_dispute(r, cards: _Cards, g, e, players) -> dict | None:
    line, col, value = e
    who, _, rest = value.partition(":")
    p = r.player(line, col, who, players)
    fields = _split(rest, col + len(who) + 1)
    if p is None or len(fields) < 2:
        if p is not None:
            r.error(line, col, "expected 'dispute: <player>: <adversary>; in <area>; ...'")
        return None
    d = {"player": p, "foe": None, "area": None, "kind": "encounter", "methods": [],
         "lead": None, "method": None, "mods": [], "tied": 0, "from": None, "rounds": 0}
    foe_text, foe_col = fields[0]
    for piece, pc in fields[1:]:
        word, _, arg = piece.partition(" ")
        word = word.lower()
        acol = pc + len(word) + 1
        if word == "in":
            d["area"] = _area_name(r, line, acol, arg, g)
        elif word in ("encounter", "assault"):
            d["kind"] = word
        elif word == "methods":
            for m, mc in _split(arg, acol, ","):
                if m not in ("combat", "wits"):
                    r.error(line, mc, f"a method is 'combat' or 'wits', not '{m}'")
                else:
                    d["methods"].append(m)
        elif word == "lead":
            d["lead"] = cards.lookup(line, acol, arg, g["table"][p]["members"])
        elif word == "method":
            if arg.strip() not in ("combat", "wits"):
                r.error(line, acol, f"a method is 'combat' or 'wits', not '{arg.strip()}'")
            else:
                d["method"] = arg.strip()
        elif word in ("tied", "rounds"):
            d[word] = r.number(line, acol, arg, f"'{word}'") or 0
        elif word == "from":
            d["from"] = None if arg.strip().lower() == "none" else \
                _area_name(r, line, acol, arg, g, allow_home=True)
        elif word == "mod":
            m = re.fullmatch(r"(player|foe)\s+(combat|wits)\s+([+-]\d+)\s+by\s+(.+?)\s+from\s+"
                             r"(.+?)(\s+cancelled)?", arg.strip())
            if not m:
                r.error(line, acol, "expected 'mod player|foe combat|wits +N by <player> from "
                        "<card> [cancelled]'")
                continue
            by = r.player(line, acol, m.group(4), players)
            mod = {"side": m.group(1), "what": m.group(2), "value": int(m.group(3)), "by": by,
                   "entry": cards.lookup(line, acol, m.group(5), [])}
            if m.group(6):
                mod["cancelled"] = True
            d["mods"].append(mod)
        else:
            r.error(line, pc, f"unknown dispute detail '{word}'",
                    "details: in, encounter|assault, methods, lead, method, tied, from, rounds, "
                    "mod")
    if d["area"] is None:
        r.error(line, col, "the dispute's area is missing", "add 'in <area>'")
        return None
    a = g["avalon"].get(d["area"]) if d["area"].startswith("av") else \
        g["england"][p].get(d["area"])
    cands = (a["foes"] + a["occupants"]) if a else []
    d["foe"] = cards.lookup(line, foe_col, foe_text, cands)
    if d["foe"] is not None and d["foe"] not in cands:
        r.error(line, foe_col, f"{foe_text} is not waiting in {d['area']} of {p}'s "
                f"{'Avalon' if d['area'].startswith('av') else 'England'}",
                "list it with 'foe' or 'occupant' on that area's line")
    if not d["methods"]:
        r.error(line, col, "the dispute's methods are missing", "add 'methods combat, wits'")
    return d


def _read_last(r, cards: _Cards, e, everything) -> dict:
    line, col, value = e
    out: dict[str, Any] = {}
    for piece, pc in _split(value, col):
        key, _, arg = piece.partition(" ")
        arg = arg.strip()
        acol = pc + len(key) + 1
        if key in ("lead", "foe"):
            out[key] = cards.lookup(line, acol, arg, everything)
        elif arg == "none":
            out[key] = None
        elif arg in ("yes", "no"):
            out[key] = arg == "yes"
        elif arg.startswith("[") and arg.endswith("]"):
            try:
                out[key] = [int(x) for x in arg[1:-1].split(",") if x.strip()]
            except ValueError:
                r.error(line, acol, f"expected a list of whole numbers, not '{arg}'")
        elif re.fullmatch(r"-?\d{1,6}", arg):
            out[key] = int(arg)
        else:
            out[key] = arg
    return out
