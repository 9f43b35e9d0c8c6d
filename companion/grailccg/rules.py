"""The rules of the Holy Grail CCG as the engine applies them (sections 7-16, the FAQ, and the
house rules of docs/grailccg.md for the missing sections 1-6).

One processed turn (``companion turn``) is one player's turn: their action phase from their
orders (plays, moves, disputes, castles, the search), the end phase (hand limit), the doubling of
the ante, and then the next player's draw phase, so that their report shows the hand they play
from. As in Fluxx, everything a player decides is a *decision* (:meth:`Run.decide`): each order
line taken is one, every answer to a question another. A paused turn (option ``missing=wait``) is
resumed by running it again from the position at its start with the answers and chance outcomes
already given, so the rules read straight through.

Grail numbers are not dice: a player "draws a grail number" by turning over the top card of their
own deck (house rule); the chance stream is used only for shuffles, a random first player and
cards discarded at random.
"""
from __future__ import annotations

from typing import Any, Callable

from companion.engine.numbers import is_digits
from companion.engine.replay import ReplayedChance
from companion.grailccg import england as E

MAX_LINES = 400
"""A safety limit on order lines and automatic steps in one turn."""
FLED_ONCE = 6
"""The rules edition from which an adversary the Round Table ran away from this turn does not
stop it again this turn when it runs back (``counters.fled``; docs/grailccg.md, Running away)."""
HOSTILE = ("adversary", "peril")
CHARACTERS = ("knight", "persona")
AREA_TYPES = ("land", "castle", "village")
ONE_SHOT = ("event", "song", "taunt", "questions")
EFFECT_WORDS = ("draw", "opponent-discards", "combat", "wits", "grail", "auto-join", "no-join",
                "slay", "return-to-hand", "skip-draw", "extra-move", "move-back", "peek",
                "reveal", "cancel", "shuffle-dead-cart", "lose-game", "run-away", "revive", "join",
                "none")
"""The effect words of the card files the engine carries out (cards.EFFECTS)."""
VILLAGE_WORDS = ("rest", "draw", "discard", "grail", "peek", "skip-draw", "lose-a-page",
                 "lose-a-knight", "driven-out")
"""The village table results the engine carries out (cards.VILLAGE_RESULTS)."""


class Pause(Exception):
    """The game must wait for a player's answer."""

    def __init__(self, question: dict[str, Any]):
        super().__init__(question["prompt"])
        self.question = question


class Over(Exception):
    """The game has ended."""


class Defeat(Exception):
    """A player is out, and the other goes on searching alone (15.3, option after-defeat)."""


class Skip(Exception):
    """An order line that is not possible at the moment it comes up (it is left out)."""


class Out(Exception):
    """In a game of three or more (16.3), a player other than the one whose turn it is has just
    left the game (an empty deck, a card, a concession); the others play on."""

    def __init__(self, player: str):
        super().__init__(player)
        self.player = player


# ---------------------------------------------------------------------------------- cards
def type_of(card) -> str:
    t = str(card.type).lower().replace("-", " ").replace("_", " ")
    if t.startswith("question"):
        return "questions"
    return t


def type_label(card) -> str:
    return getattr(card, "type_name", None) or type_of(card)


def ekey(effect) -> str:
    """An effect's name as one key: 'slay adversary', 'slay-adversary' -> 'slay_adversary'."""
    name = str(effect.name).lower().replace("-", "_").replace(" ", "_")
    if name == "slay" and effect.target:
        name = f"slay_{str(effect.target).lower()}"
    if name in ("reveal", "reveal_area"):
        return "reveal_area"
    return name


def amount(effect, default: int = 1) -> int:
    value = getattr(effect, "amount", None)
    if value is None or value == "":
        return default
    try:
        return int(value)
    except (TypeError, ValueError):
        return default


def against(effect) -> bool:
    """Whether a combat/wits change goes to the other side (a taunt), not one's own (a song)."""
    target = str(getattr(effect, "target", "") or "").lower()
    return target in ("other", "opponent", "adversary", "foe", "them", "enemy", "their")


def icons(card) -> tuple[str, ...]:
    return tuple(str(i).lower() for i in (card.icons or ()))


def num(value) -> int | None:
    if value is None or value == "":
        return None
    return int(value)


def table_rows(table) -> list[tuple[int, int, Any]]:
    """A castle or village table as (low, high, result) rows, whatever shape the card data uses:
    a mapping 'lo-hi' -> result, or a list of (lo, hi, result) / {'min','max','result'}."""
    rows: list[tuple[int, int, Any]] = []
    if not table:
        return rows
    items = table.items() if isinstance(table, dict) else table
    for item in items:
        if isinstance(item, dict):
            lo = item.get("min", item.get("from", item.get("low", -99)))
            hi = item.get("max", item.get("to", item.get("high", 99)))
            result = item.get("result", item.get("effect", item.get("text")))
        elif hasattr(item, "low") or hasattr(item, "lo"):
            lo = getattr(item, "low", getattr(item, "lo", -99))
            hi = getattr(item, "high", getattr(item, "hi", 99))
            result = getattr(item, "result", getattr(item, "effect", None))
        else:
            key, result = (item[0], item[-1]) if len(item) == 2 else ((item[0], item[1]), item[2])
            if isinstance(key, tuple):
                lo, hi = key
            else:
                text = str(key).replace("+", "-99").strip()
                if text.startswith("-") and text.count("-") == 1 and is_digits(text[1:]):
                    lo, hi = -99, int(text[1:])
                elif "-" in text.lstrip("-"):
                    a, b = text.lstrip("-").split("-", 1) if not text.startswith("-") else \
                        ("-" + text[1:].split("-", 1)[0], text[1:].split("-", 1)[1])
                    lo, hi = int(a), int(b)
                else:
                    lo = hi = int(text)
        rows.append((-99 if lo is None else int(lo), 99 if hi is None else int(hi), result))
    return rows


def table_lookup(table, total: int):
    for lo, hi, result in table_rows(table):
        if lo <= total <= hi:
            return result
    return None


def _result_text(result) -> str:
    if result is None:
        return ""
    if isinstance(result, str):
        return result
    if isinstance(result, dict):
        return str(result.get("text") or result.get("result") or "")
    return str(getattr(result, "text", "") or result)


CASTLE_WORDS = {
    "pass": "the Round Table may pass",
    "pass-draw-1": "the Round Table may pass, and its player draws a card",
    "wait": "no passage this turn",
    "lose-a-page": "no passage, and a page of the Round Table is lost",
    "run-away": "the Round Table must run away",
    "trapped": "the consulting knight is held in the castle until it is breached",
    "lead-knight-slain": "the consulting knight is slain",
}


def castle_result(card, total: int) -> str:
    """The castle table's result word for a total (8.1)."""
    try:
        return card.castle_result(total)
    except (ValueError, AttributeError):
        return _result_text(table_lookup(card.castle_table, total)) or "wait"


def village_result(card, value: int) -> str:
    """The village table's result for a grail number (9.1; read within 1-7)."""
    v = max(1, min(7, value))
    try:
        return card.village_result(v)
    except (KeyError, ValueError, AttributeError):
        return _result_text(table_lookup(card.village_table, v)) or "rest"


# ---------------------------------------------------------------------------------- state
def new_area(card: str | None, up: bool = False) -> dict[str, Any]:
    return {"card": card, "up": up, "foes": [], "occupants": [], "outwitted": {},
            "castle": None, "searched": False}


def new_game_state(players: list[str]) -> dict[str, Any]:
    return {
        "players": list(players), "active": players[0], "turn": 0, "stage": "setup",
        "cards": {}, "decks": {p: [] for p in players}, "hands": {p: [] for p in players},
        "dead": {p: [] for p in players},
        "table": {p: {"members": [], "pages": {}, "at": E.HOME, "from": None}
                  for p in players},
        "england": {p: {} for p in players}, "avalon": {},
        "ante": {"cards": {p: [] for p in players}, "share": 1, "doubled": [],
                 "last": None},
        "dispute": None, "last_dispute": None, "arrival": None,
        "counters": {"search_bonus": 0, "moves": 0, "extra_moves": 0,
                     "grail_bonus": {p: 0 for p in players}, "skip_draw": [],
                     "auto_join": None, "no_join": None, "seq": 0, "used_items": [], "stack": [],
                     "bonus_from": [],
                     "outwitted_once": []},
        "result": None, "defeated": [],
    } | ({"out": []} if len(players) > 2 else {})


# ---------------------------------------------------------------------------------- the run
class Run(ReplayedChance):
    """One run of the rules over a game position ``g`` (mutated in place)."""

    def __init__(self, cards, g: dict[str, Any], standing: dict[str, Any],
                 options: dict[str, Any], chance, *, log: list | None = None,
                 chance_log: list | None = None, cursors: dict[str, Any] | None = None,
                 parse_effect=None, parse_village=None, edition: int = 0):
        self.cards = cards
        self.edition = edition      # the game's rules edition (GameKind.edition)
        self.g = g
        self.standing = standing
        self.options = options
        self.chance = chance
        self.log = list(log or [])
        self.li = 0
        self.chance_log = list(chance_log or [])
        self.ci = 0
        self.cursors = cursors if cursors is not None else {}
        self.events: list[dict[str, Any]] = []
        self.fresh: list[tuple[str, str, str, str]] = []
        self.parse_effect = parse_effect
        self.parse_village = parse_village
        self.steps = 0

    # ------------------------------------------------------------------------------ recording
    def say(self, text: str, to: list[str] | None = None, kind: str = "info", **data: Any) -> None:
        self.events.append({"text": text, "to": sorted(to) if to is not None else None,
                            "kind": kind, "data": data})

    def decide(self, player: str, kind: str, resolve: Callable[[], tuple[Any, str]]) -> Any:
        if self.li < len(self.log):
            entry = self.log[self.li]
            self.li += 1
            if entry["k"] != kind or entry["p"] != player:
                raise RuntimeError(f"resuming a paused turn: decision {self.li} was "
                                   f"{entry['k']}/{entry['p']}, now {kind}/{player}")
            return entry["a"]
        answer, source = resolve()
        self.log.append({"k": kind, "p": player, "a": answer})
        self.li += 1
        self.fresh.append((player, kind, answer_text(answer), source))
        return answer

    # ------------------------------------------------------------------------------ cards
    def card(self, inst: str):
        return self.cards.get(self.g["cards"][inst])

    def n(self, inst: str) -> str:
        return self.card(inst).name

    def names(self, insts) -> str:
        return _and([self.n(i) for i in insts])

    def owner(self, inst: str) -> str:
        return self.g["players"][int(inst.split("-", 1)[0]) - 1]

    def other(self, p: str) -> str:
        players = self.g["players"]
        return players[(players.index(p) + 1) % len(players)]

    # ------------------------------------------------------------------------------ seats (16.3)
    @property
    def multi(self) -> bool:
        """A game of three or more players (16.3): seats are the player order at creation, and
        the player on a player's left is the next one in that order."""
        return len(self.g["players"]) > 2

    def gone(self, q: str) -> bool:
        return q in self.defeated() or q in self.g.get("out", ())

    def live(self) -> list[str]:
        return [q for q in self.g["players"] if not self.gone(q)]

    def left(self, p: str) -> str:
        """The player on ``p``'s left: the next one in seat order still in the game (``p`` when
        nobody else is)."""
        players = self.g["players"]
        i = players.index(p)
        for k in range(1, len(players)):
            q = players[(i + k) % len(players)]
            if not self.gone(q):
                return q
        return p

    def seats_from(self, p: str) -> list[str]:
        """The other players still in the game, in seat order starting on ``p``'s left."""
        out: list[str] = []
        q = self.left(p)
        while q != p and q not in out:
            out.append(q)
            q = self.left(q)
        return out

    def rival(self, p: str) -> str:
        """Who takes the opponent's part in ``p``'s exploration (the retreat choice, castle
        occupants, FAQ 1): the opponent; with three or more players the player on ``p``'s left,
        whose cards built ``p``'s England and who draws its adversaries' grail numbers."""
        if not self.multi:
            return self.other(p)
        q = self.left(p)
        if q == p and self.defeated():
            return self.defeated()[0]
        return q

    def victim(self, p: str, target: dict | None = None) -> str:
        """Whom a card of ``p`` aimed at 'the opponent' hits. Two players: the opponent. Three or
        more: the player named in the order; else, for a player answering in someone's turn, the
        player whose turn (or dispute) it is; else the player on ``p``'s left."""
        if not self.multi:
            return self.other(p)
        named = (target or {}).get("player")
        if named and named != p and not self.gone(named):
            return named
        d = self.g["dispute"]
        if d and d["player"] != p and not self.gone(d["player"]):
            return d["player"]
        active = self.g["active"]
        if active != p and not self.gone(active):
            return active
        return self.left(p)

    def aim(self, p: str, target: dict) -> None:
        """Checks a player named as the target of a card (16.3)."""
        named = (target or {}).get("player")
        if not named:
            return
        if named == p:
            raise Skip("a card cannot be aimed at yourself")
        if named not in self.g["players"]:
            raise Skip(f"{named} is not a player of this game")
        if self.gone(named):
            raise Skip(f"{named} is out of the game")

    def forfeit_note(self) -> str:
        """The antes conceded in a game of three or more, for the last message of the game."""
        forfeits = self.g.get("forfeits") or {}
        return "".join(f" {q}'s ante is forfeit to {w} (16.2)." for q, w in forfeits.items())

    def knock_out(self, p: str, reason: str) -> None:
        """16.3: ``p`` leaves a game of three or more; the others play on. Their cards stay
        where they are; their Round Table leaves England and Avalon."""
        g = self.g
        g.setdefault("out", []).append(p)
        t = g["table"][p]
        t["at"], t["from"] = E.HOME, None
        d = g["dispute"]
        if d and d["player"] == p:
            g["dispute"] = None
        if g.get("arrival") and g["arrival"]["player"] == p:
            g["arrival"] = None
        c = g["counters"]
        if p in c["skip_draw"]:
            c["skip_draw"].remove(p)
        self.say(f"{p} is out of the game: {reason}. {p}'s Round Table leaves the board and the "
                 f"others play on ({_and(self.live())}) (16.3).", kind="lose", player=p)

    def ctype(self, inst: str) -> str:
        return type_of(self.card(inst))

    def stat(self, inst: str, what: str) -> int | None:
        return num(getattr(self.card(inst), what, None))

    def kill(self, inst: str, why: str = "") -> None:
        """A card to its owner's dead cart (from wherever it is: take it out first)."""
        self.g["dead"][self.owner(inst)].append(inst)

    # ------------------------------------------------------------------------------ places
    def area(self, p: str, name: str) -> dict[str, Any]:
        if name.startswith("av"):
            return self.g["avalon"][name]
        return self.g["england"][p][name]

    def at(self, p: str) -> str:
        return self.g["table"][p]["at"]

    def holder(self, name: str) -> str | None:
        """The player whose Round Table is in an Avalon area."""
        for q in self.g["players"]:
            if self.at(q) == name:
                return q
        return None

    def knights(self, p: str) -> list[str]:
        return [m for m in self.g["table"][p]["members"] if self.ctype(m) == "knight"]

    def members(self, p: str) -> list[str]:
        t = self.g["table"][p]
        return list(t["members"]) + list(t["pages"])

    def explored(self, p: str, name: str) -> bool:
        if name == E.HOME:
            return True
        a = self.area(p, name)
        return a["card"] is None or a["up"]

    # ------------------------------------------------------------------------------ orders
    def waits(self) -> bool:
        return self.options.get("missing") == "wait"

    def next_unused(self, p: str, kinds: tuple[str, ...] | None = None,
                    first_only: bool = True) -> tuple[int, dict] | None:
        cur = self.cursors.get(p)
        if not cur:
            return None
        for i, entry in enumerate(cur["lines"]):
            if cur["used"][i]:
                continue
            if kinds is None or entry["kind"] in kinds:
                return i, entry
            if first_only:
                return None
        return None

    def take(self, p: str, i: int) -> dict:
        cur = self.cursors[p]
        cur["used"][i] = True
        return dict(cur["lines"][i])

    def pause(self, p: str, kind: str, prompt: str, options: list[str]) -> Pause:
        return Pause({"player": p, "kind": kind, "prompt": prompt, "options": options})

    # ------------------------------------------------------------------------------ drawing
    def defeated(self) -> list[str]:
        return self.g.setdefault("defeated", [])

    def lose(self, p: str, reason: str) -> None:
        g = self.g
        out = self.defeated()
        if out and p not in out:
            first = out[0]
            g["result"] = {"winner": p, "loser": first, "draw": False,
                           "reason": f"{first} was out first; {p}'s lone search ends: {reason}",
                           "ante": None}
            g["stage"] = "over"
            g["dispute"] = None
            self.say(f"{p}'s lone search for the Grail ends: {reason}. {p} keeps the win over "
                     f"{first}, but nobody wins the ante (15.3).", kind="lose", player=p)
            raise Over()
        if self.multi and not self.gone(p) and len(self.live()) > 2:
            self.knock_out(p, reason)
            if p == g["active"]:
                raise Defeat()
            raise Out(p)
        winner = self.other(p) if not self.multi else next(q for q in self.live() if q != p)
        if self.multi and self.options.get("after-defeat") != "search":
            g["out"].append(p)
        if self.options.get("after-defeat") == "search":
            out.append(p)
            self.say(f"{p} is out of the game: {reason}. {winner} wins the game and may go on "
                     "searching alone for the Grail to win the ante (15.3).", kind="lose",
                     player=p)
            raise Defeat()
        g["result"] = {"winner": winner, "loser": p, "draw": False, "reason": reason,
                       "ante": None}
        g["stage"] = "over"
        g["dispute"] = None
        if self.multi:
            self.say(f"{p} is out of the game: {reason}. {winner} is the last player left and "
                     "wins the game (the ante is won only by finding the Grail, so each player "
                     "takes their own ante back) (16.3)." + self.forfeit_note(), kind="lose",
                     player=p)
            raise Over()
        self.say(f"{p} loses the game: {reason}. {winner} wins the game (the ante is won only "
                 "by finding the Grail, so each side takes its own ante back).", kind="lose",
                 player=p)
        raise Over()

    def waits_for(self, q: str) -> bool:
        return self.waits() and not self.gone(q)

    def foe_drawer(self, p: str) -> str:
        """Who draws grail numbers for the adversaries ``p`` meets: the opponent, or ``p``
        when the opponent is out (15.3)."""
        if self.multi:         # 16.3: the active player's left neighbour draws
            return self.left(p)
        o = self.other(p)
        return p if o in self.defeated() else o

    def from_deck(self, p: str, why: str) -> str:
        deck = self.g["decks"][p]
        if not deck:
            self.lose(p, f"{p}'s deck is empty and a card is needed ({why}) (15.2)")
        return deck.pop(0)

    def draw(self, p: str, count: int, why: str = "") -> None:
        got = []
        for _ in range(count):
            inst = self.from_deck(p, "a card to draw")
            self.g["hands"][p].append(inst)
            got.append(inst)
        if got:
            self.say(f"{p} draws {_count(len(got))}{why}.", kind="draw", player=p,
                     count=len(got))
            self.say(f"You drew {self.names(got)}{why}.", to=[p], kind="drawn", cards=got)

    def grail(self, p: str, purpose: str) -> int:
        """Draw a grail number: the top card of ``p``'s deck, read and put away."""
        inst = self.from_deck(p, f"a grail number {purpose}")
        value = self.stat(inst, "grail") or 0
        bonus = self.g["counters"]["grail_bonus"].get(p, 0)
        if self.options.get("grail-draw") == "bottom":
            self.g["decks"][p].append(inst)
            where = "under the deck"
        else:
            self.g["dead"][p].append(inst)
            where = "to the dead cart"
        text = f"{p} draws a grail number {purpose}: {self.n(inst)}, a {value}"
        if bonus:
            self.g["counters"]["grail_bonus"][p] = 0
            if self.edition >= 2:   # the sign as it is; the bonus may come from a card
                # turned up or a village, not only a card played (case 117)
                text += f", {bonus:+d} from an earlier bonus = {value + bonus}"
            else:
                text += f", +{bonus} from a card played = {value + bonus}"
        self.say(text + f" (the card goes {where}).", kind="grail", player=p, card=inst,
                 value=value + bonus)
        return value + bonus

    # ------------------------------------------------------------------------------ set-up
    def setup(self, decks: dict[str, list[str]], first: str | None) -> None:
        g = self.g
        players = g["players"]
        multi = len(players) > 2
        for seat, p in enumerate(players, start=1):
            insts = []
            for k, cid in enumerate(decks[p], start=1):
                inst = f"{seat}-{k:02d}"
                g["cards"][inst] = cid
                insts.append(inst)
            start = []
            for wanted in ("arthur", "patsy"):
                found = next((i for i in insts if self._is(i, wanted)), None)
                if found is None:
                    raise ValueError(f"{p}'s deck has no {wanted.title()} for the starting Round "
                                     "Table (2.1)")
                insts.remove(found)
                start.append(found)
            arthur, patsy = start
            g["table"][p]["members"] = [arthur]
            g["table"][p]["pages"] = {patsy: {"knight": arthur, "items": [], "new": []}}
            g["decks"][p] = self.shuffle(insts, f"{p}'s deck (the cut and shuffle, 2.2-2.3)")
        self.say("Each player sets aside Arthur and Patsy as the starting Round Table (Patsy "
                 "serving Arthur) and shuffles the deck.", kind="setup")
        avalon: list[str] = []
        first = first or players[0]
        for p in players:
            g["ante"]["cards"][p].append(self.from_deck(p, "the ante"))
        self.say("Ante: " + "; ".join(f"{p} {self.names(g['ante']['cards'][p])}"
                                      for p in players) + " (2.3).", kind="ante")
        for i, p in enumerate(players):
            if multi:       # 16.3: one card each into Avalon, one more from the first player
                to_avalon = 1 + (1 if p == first else 0)
                laid = [self.from_deck(p, "laying out England and Avalon")
                        for _ in range(12 + to_avalon)]
                explorer = players[(i - 1) % len(players)]      # p sits on the explorer's left
                england = laid[:12]
                avalon += laid[12:]
            else:
                laid = [self.from_deck(p, "laying out England and Avalon") for _ in range(14)]
                explorer = self.other(p)
                england = laid[:12]
                avalon += laid[12:]
            g["england"][explorer] = {name: new_area(inst) for name, inst in zip(E.AREAS, england)}
        for i, inst in enumerate(avalon, start=1):
            g["avalon"][f"av{i}"] = new_area(inst)
        if multi:
            self.say(f"England and Avalon are laid out face down: each England is built from "
                     f"the cards of the player on its explorer's left; every player lays one "
                     f"card in Avalon and {first} one more, so Avalon has {len(avalon)} areas "
                     "(2.4, 16.3).", kind="setup")
        else:
            self.say(f"England and Avalon are laid out face down: each England is built from the "
                     f"opponent's cards; Avalon has {len(avalon)} areas (2.4).", kind="setup")
        for p in players:
            self.draw(p, 7, " (the opening hand, 2.5)")
        g["active"] = first
        g["stage"] = "action"
        g["turn"] = 1
        self.say(f"{first} goes first (2.6). Turn 1: {first}'s turn begins.", kind="turn",
                 player=first)
        try:
            self.draw_phase(first)
        except (Over, Defeat):
            pass

    def _is(self, inst: str, wanted: str) -> bool:
        card = self.card(inst)
        return (card.id == wanted or card.name.lower() == wanted or
                card.name.lower().startswith(wanted + " ") or card.name.lower().endswith(" " + wanted)
                or card.id.startswith(wanted + "-") or card.id.endswith("-" + wanted))

    # ------------------------------------------------------------------------------ the turn
    def play_turn(self) -> None:
        g = self.g
        if g["stage"] == "over":
            return
        p = g["active"]
        if self.multi:
            self.play_turn_multi(p)
            return
        try:
            try:
                self.action_phase(p)
                self.end_phase(p)
                self.doubling(p)
            except Defeat:              # the turn is cut short; the survivor goes on (15.3)
                g["dispute"] = None
                g["arrival"] = None
                g["counters"]["stack"] = []
            self.next_turn(p)
        except Defeat:
            g["dispute"] = None
            g["arrival"] = None
            try:
                self.next_turn(self.g["active"])
            except (Over, Defeat):
                g["dispute"] = None
        except Over:
            g["dispute"] = None
            g["arrival"] = None

    def play_turn_multi(self, p: str) -> None:
        """The turn in a game of three or more: a player who goes out in their own turn has it
        cut short, and the turn passes on to the next player still in (16.3)."""
        g = self.g
        try:
            try:
                self.action_phase(p)
                self.end_phase(p)
                self.doubling(p)
            except Defeat:
                g["dispute"] = None
                g["arrival"] = None
                g["counters"]["stack"] = []
            current = p
            for _ in range(len(g["players"]) + 1):
                try:
                    self.next_turn(current)
                    return
                except Defeat:          # the next player went out in their draw phase
                    g["dispute"] = None
                    g["arrival"] = None
                    current = g["active"]
        except Over:
            g["dispute"] = None
            g["arrival"] = None

    def draw_phase(self, p: str) -> None:
        g = self.g
        c = g["counters"]
        if self.at(p).startswith("av") and not self.knights(p):
            self.lose(p, f"{p}'s Round Table is in Avalon with no knights at the draw phase "
                      "(14.1)")
        if p in c["skip_draw"]:
            c["skip_draw"].remove(p)
            self.say(f"{p} skips this draw phase (a card played by the opponent).", kind="skip")
            return
        extra = self.area_draws(p)
        self.draw(p, 1 + extra, " in the draw phase" + (f" ({extra} more from where the Round "
                                                          "Table stands, 3.1)" if extra else ""))

    def area_draws(self, p: str) -> int:
        at = self.at(p)
        if at == E.HOME:
            return 0
        a = self.area(p, at)
        if a["card"] is None or not a["up"]:
            return 0
        t = self.ctype(a["card"])
        draws = num(getattr(self.card(a["card"]), "draws", None)) or 0
        if t == "castle" and not self.inside(p, at):
            return 0
        return draws if t in AREA_TYPES else 0

    def inside(self, p: str, name: str) -> bool:
        a = self.area(p, name)
        cs = a["castle"]
        if cs is None or p in cs["outside"]:
            return False
        return p in cs["breached"] or not a["occupants"]

    def next_turn(self, p: str) -> None:
        g = self.g
        c = g["counters"]
        q = self.other(p) if not self.multi else self.left(p)
        if q in self.defeated():
            q = p
        g["active"] = q
        g["turn"] += 1
        c["moves"] = 0
        c["extra_moves"] = 0
        c["auto_join"] = None
        c.pop("decline", None)
        c.pop("consulted", None)        # the castle tables consulted this turn (edition 3)
        c.pop("fled", None)             # the adversaries run away from this turn (edition 6)
        c["used_items"] = []
        c["stack"] = []
        c["bonus_from"] = []
        # a grail-number bonus waits for that player's next grail number, whenever it comes
        # (house rule: docs/grailccg.md, Grail numbers; case 113): it is not cleared here
        if not self.edition:        # a game of edition 0: cleared at every turn
            c["grail_bonus"] = {x: 0 for x in g["players"]}
        if c["no_join"] and c["no_join"]["until"] < g["turn"]:
            c["no_join"] = None
        for pages in g["table"][p]["pages"].values():
            pages["items"] += pages["new"]
            pages["new"] = []
        if self.multi and p in g.get("out", ()):       # p went out at their draw phase
            self.say(f"Turn {g['turn']}: {q}'s turn begins.", kind="turn", player=q)
        else:
            self.say(f"{p}'s turn ends. Turn {g['turn']}: {q}'s turn begins.", kind="turn",
                     player=q)
        self.draw_phase(q)

    def action_phase(self, p: str) -> None:
        g = self.g
        d = g["dispute"]
        if d and d["player"] == p and d.get("tied") and d["tied"] < g["turn"]:
            d["tied"] = 0
            self.say(f"The dispute with {self.n(d['foe'])} goes on from last turn (7.2).",
                     kind="dispute")
        self.castle_followup(p)
        self.settle(p)
        while g["stage"] != "over":
            self.steps += 1
            if self.steps > MAX_LINES:
                break
            line = self.decide(p, "order", lambda: self.resolve_next(p))
            if line is None or line["kind"] == "end":
                break
            try:
                self.execute(p, line)
            except Skip as why:
                self.say(f"Your order '{line.get('text', line['kind'])}' was not carried out: "
                         f"{why}.", to=[p], kind="skipped")
            except Out:                 # another player left the game (16.3); play on
                pass
            self.settle(p)

    def resolve_next(self, p: str):
        found = self.next_unused(p, first_only=False, kinds=TURN_KINDS)
        if found is None:
            if self.cursors.get(p):
                return None, "orders"
            if self.waits_for(p):       # missing=wait: no orders at all yet, so the turn waits
                raise self.pause(p, "turn", "Your turn: send your orders (or 'end').",
                                 ["end"])
            return None, "default"
        return self.take(p, found[0]), "orders"

    # ------------------------------------------------------------------------------ executing
    def execute(self, p: str, line: dict) -> None:
        kind = line["kind"]
        d = self.g["dispute"]
        if kind == "play":
            self.play_from_hand(p, line)
        elif kind == "give":
            self.play_from_hand(p, {"kind": "play", "card": line["card"],
                                    "target": {"member": line["page"]}})
        elif kind == "pass":
            self.pass_item(p, line)
        elif kind == "use":
            self.use_item(p, line)
        elif kind == "move":
            self.move(p, line["area"])
        elif kind == "run" and (not d or d["player"] != p) and self.edition >= 3 and \
                self.castle_bars(p):
            # case 139: before a castle whose defenders bar the way the Round Table faces
            # adversaries, so it may run away (7.6, Example 8.1), not only in a dispute
            self.run_away(p, line.get("area"), shout=True)
        elif kind in ("lead", "fight", "outwit", "run"):
            if not d or d["player"] != p:
                raise Skip("there is no dispute to settle")
            if d.get("tied"):
                raise Skip("the tied dispute goes on only next turn (7.2)")
            self.dispute_line(p, line)
        elif kind == "consult":
            self.consult(p, line.get("card"))
        elif kind == "assault":
            self.assault(p, line.get("card"))
        elif kind == "outside":
            self.stay_outside(p)
        elif kind == "search":
            self.search(p)
        elif kind == "decline":
            self.decline(p, line)
        elif kind == "assign":
            self.assign_page(p, line)
        elif kind == "giveup":
            self.give_up(p)
        elif kind in ("discard", "double"):
            pass            # end phase and after the turn
        else:
            raise Skip(f"'{kind}' is not an order of the action phase")

    def instance(self, p: str, cid: str, where: list[str]) -> str | None:
        for inst in where:
            if self.g["cards"][inst] == cid:
                return inst
        return None

    def member(self, p: str, cid: str) -> str | None:
        return self.instance(p, cid, self.members(p))

    def to(self, area: str, back: bool = False) -> str:
        """'to 2a', and 'home' (or 'back home') for home from rules edition 2 ('moves home',
        'runs away back home', not 'to home')."""
        if self.edition >= 2 and area == E.HOME:
            return "back home" if back else "home"
        return f"to {area}"

    # ------------------------------------------------------------------------------ movement
    def moves_left(self, p: str) -> int:
        c = self.g["counters"]
        return 1 + c["extra_moves"] - c["moves"]

    def move_targets(self, p: str) -> list[str]:
        """Areas the Round Table may move to now (one step), ignoring the move budget; none
        for a Round Table of pages alone (10.1, from rules edition 2)."""
        if self.edition >= 2 and not self.g["table"][p]["members"]:
            return []
        at = self.at(p)
        if at.startswith("av"):
            return [a for a in self.g["avalon"] if a != at and self.holder(a) is None]
        out = list(E.adjacent(at))
        if at in E.TOP:
            out += [a for a in self.g["avalon"] if self.holder(a) is None]
        if not self.can_pass(p, at):
            came = self.g["table"][p]["from"]
            out = [a for a in out if a in E.below(at) or a == came]
        return out

    def can_pass(self, p: str, name: str) -> bool:
        """Whether the Round Table may go on from ``name`` (not down or back): no adversary there
        left unbeaten, no castle barring the way (8.1-8.3)."""
        if name == E.HOME:
            return True
        a = self.area(p, name)
        if any(not self.passable(p, name, f) for f in a["foes"]):
            return False
        if a["card"] is not None and not a["up"]:
            return False
        cs = a["castle"]
        if cs is not None and a["occupants"]:
            if p in cs["passage"]:
                return True
            return all(f in a["outwitted"].get(p, []) for f in a["occupants"])
        return True

    def castle_bars(self, p: str) -> bool:
        """Whether ``p``'s Round Table stands before a castle whose defenders bar its way (8.1;
        it faces them, so it may run away from them, 7.6)."""
        at = self.at(p)
        if at == E.HOME:
            return False
        a = self.area(p, at)
        return bool(a["card"] is not None and a["up"] and self.ctype(a["card"]) == "castle"
                    and a["occupants"] and a["castle"] is not None
                    and not self.can_pass(p, at))

    def passable(self, p: str, name: str, foe: str) -> bool:
        return foe in self.area(p, name)["outwitted"].get(p, [])

    def move(self, p: str, target: str) -> None:
        g = self.g
        if g["dispute"] and g["dispute"]["player"] == p:
            raise Skip("a dispute must be settled first (or run away)")
        if self.moves_left(p) <= 0:
            raise Skip("the Round Table has already moved this turn")
        if self.edition >= 2 and not g["table"][p]["members"]:     # case 119
            raise Skip("only pages are left in the Round Table, and pages may not move except "
                       "to run away (10.1); a knight or persona who joins can lead it on")
        if target not in self.move_targets(p):
            at = self.at(p)
            if target.startswith("av") and target in g["avalon"] and self.holder(target):
                raise Skip(f"{self.holder(target)}'s Round Table holds {target} (FAQ 9)")
            if not self.can_pass(p, at) and target in E.adjacent(at):
                raise Skip(f"the Round Table cannot pass {at} yet (an adversary or a castle bars "
                           "the way)")
            if self.edition >= 2 and target == at:     # not "home is not next to home"
                raise Skip("the Round Table is " + ("at home" if at == E.HOME else f"in {at}")
                           + " already")
            raise Skip(f"{target} is not next to {at}")
        g["counters"]["moves"] += 1
        self.enter(p, target, "moves")

    def enter(self, p: str, target: str, how: str) -> None:
        g = self.g
        t = g["table"][p]
        left = t["at"]
        if left != E.HOME:
            a = self.area(p, left)
            mine = a["outwitted"].get(p)
            if mine:        # 7.5: a multi-talented adversary is outwitted only once
                a["outwitted"][p] = [f for f in mine if self.stat(f, "combat") is None
                                     or self.stat(f, "wits") is None]
        t["from"] = t["at"]
        t["at"] = target
        g["arrival"] = {"player": p, "area": target, "village": False, "castle": False}
        if how != "runs":
            self.say(f"{p}'s Round Table {how} {self.to(target)}.", kind="move", player=p,
                     area=target)
        self.arrive(p)

    def arrive(self, p: str) -> None:
        """What the area the Round Table just entered does, one step at a time (a dispute
        interrupts and this is called again when it is over)."""
        g = self.g
        arr = g["arrival"]
        if not arr or arr["player"] != p or g["dispute"]:
            return
        name = arr["area"]
        if name == E.HOME or self.at(p) != name:
            g["arrival"] = None
            return
        for _ in range(40):
            a = self.area(p, name)
            foes = [f for f in a["foes"] if not self.passable(p, name, f)]
            fled = [f for f in foes if f in self.g["counters"].get("fled", ())]
            if fled and self.edition >= FLED_ONCE:
                # house rule (docs/grailccg.md, Running away; case 158): running away ends
                foes = [f for f in foes if f not in fled]
                self.say(f"{p}'s Round Table has already run away from "
                         f"{_and([self.n(f) for f in fled])} this turn: no new dispute "
                         f"with {'it' if len(fled) == 1 else 'them'} in {name} until "
                         "its next turn (house rule).", kind="retreat", player=p, area=name)
            if foes:
                self.open_dispute(p, foes[0], name)
                return
            if a["card"] is not None and not a["up"]:
                self.reveal(p, name)
                if g["dispute"]:
                    return
                continue
            break
        a = self.area(p, name)
        if a["card"] is not None and a["up"]:
            t = self.ctype(a["card"])
            if t == "village" and not arr["village"]:
                arr["village"] = True
                self.village(p, name)
            elif t == "castle" and not arr["castle"]:
                arr["castle"] = True
                self.castle_arrival(p, name)
                if g["dispute"]:
                    return
        if not g["dispute"]:
            g["arrival"] = None

    def reveal(self, p: str, name: str) -> None:
        a = self.area(p, name)
        inst = a["card"]
        a["up"] = True
        card = self.card(inst)
        t = type_of(card)
        self.say(f"{p}'s Round Table turns up {card.name} ({type_label(card)}) in {name}.",
                 kind="reveal",
                 player=p, area=name, card=inst)
        if self.duplicate(p, name, inst):
            return
        if t in CHARACTERS:
            c = self.g["counters"]
            block, auto = c["no_join"], c["auto_join"]
            if self.edition >= 3 and any(ekey(e) == "join" for e in card.secondary or ()) \
                    and not (block and (not auto or block["seq"] > auto["seq"])):
                # case 133: its secondary property (joining whoever turned it up) works, as a
                # page's does (FAQ 1): no Round Table draw; a no-join card in force still
                # stops it (13.4), and then it is invited and refuses as any other would
                self.secondary(p, inst)
                if a["card"] != inst:
                    return
            joins = self.invite(p, inst)
            a["card"] = None
            if joins:
                self.join(p, inst)
            else:
                a["foes"].append(inst)
            return
        if t in HOSTILE:
            a["card"] = None
            a["foes"].append(inst)
            return
        if t in AREA_TYPES:
            self.secondary(p, inst)
            return
        # items, pages, events, songs, taunts, questions three: the secondary property for the
        # explorer; the opponent decides about the primary (FAQ 1); then the dead cart
        self.secondary(p, inst)
        if a["card"] != inst:           # it joined the Round Table (a page's secondary)
            return
        if t != "page":
            self.primary_choice(p, inst)
        if not card.permanent:
            a["card"] = None
            self.kill(inst)
            self.say(f"{card.name} goes to {self.owner(inst)}'s dead cart; {name} is open land "
                     "(FAQ 3).", kind="dead", card=inst)

    def duplicate(self, p: str, name: str, inst: str, remote: bool = False) -> bool:
        """FAQ 8: a card turned up that is already face up in the same England goes to the dead
        cart and is replaced by the top card of its owner's deck (face down, turned up next),
        unless (from rules edition 4) another card of the area with ``permanent = true`` stands
        there: then the area gets no new card (case 142). ``remote``: the card was turned up by
        a `reveal area` effect, with nobody entering (rules edition 4, case 144): the report
        names the England and says that the replacement stays face down. When the owner's deck
        is empty nothing replaces it; from rules edition 5 the report says so for a card a
        Round Table turns up too, and that the area is open land (FAQ 3; case 156)."""
        if name.startswith("av"):
            return False
        cid = self.g["cards"][inst]
        for other, a in self.g["england"][p].items():
            seen = [x for x in ([a["card"]] if a["card"] and a["up"] else []) + a["foes"] +
                    a["occupants"] if x != inst]
            if any(self.g["cards"][x] == cid for x in seen):
                here = self.area(p, name)
                here["card"] = None
                self.kill(inst)
                owner = self.owner(inst)
                england = f"{p}'s England" if remote else "this England"
                keeper = self.permanent_in(here, inst) if self.edition >= 4 else None
                if keeper is not None:      # case 142: the area is held, nothing replaces it
                    self.say(f"{self.n(inst)} is already face up in {england}: it goes to "
                             f"the dead cart, and no card is drawn in its place, since "
                             f"{self.n(keeper)}, a permanent card, stands in {name} (FAQ 8).",
                             kind="duplicate", card=inst, keeper=keeper)
                    return True
                if remote:      # case 144: nobody is there to turn the replacement up
                    self.say(f"{self.n(inst)} is already face up in {england}: it goes to "
                             f"{owner}'s dead cart, and "
                             + (f"the top card of {owner}'s deck is laid face down in {name} "
                                "in its place (FAQ 8)." if self.g["decks"][owner] else
                                f"{owner}'s deck has no card to replace it, so {name} is open "
                                "land (FAQ 8, FAQ 3)."), kind="duplicate", card=inst)
                elif self.edition >= 5 and not self.g["decks"][owner]:     # case 156
                    self.say(f"{self.n(inst)} is already face up in this England: it goes to "
                             f"the dead cart, and {owner}'s deck has no card to replace it, "
                             f"so {name} is open land (FAQ 8, FAQ 3).", kind="duplicate",
                             card=inst)
                else:           # editions 0-4 say this with an empty deck too (case 157)
                    self.say(f"{self.n(inst)} is already face up in this England: it goes to "
                             "the dead cart (FAQ 8).", kind="duplicate", card=inst)
                if self.g["decks"][owner]:
                    here["card"] = self.from_deck(owner, "a replacement area card (FAQ 8)")
                    here["up"] = False
                return True
        return False

    def permanent_in(self, a: dict, inst: str) -> str | None:
        """The first card other than ``inst`` standing in area ``a`` whose card data says
        ``permanent = true`` (a foe or a castle's occupant; the area's own card is ``inst``
        itself when this is asked), or None: FAQ 8's other permanent card (docs/grailccg.md)."""
        for x in a["foes"] + a["occupants"]:
            if x != inst and self.card(x).permanent:
                return x
        return None

    def secondary(self, p: str, inst: str) -> None:
        card = self.card(inst)
        effects = [e for e in (card.secondary or ()) if ekey(e) != "none"]
        if not effects:
            return
        self.say(f"{card.name}'s secondary property works for {p} (FAQ 1).", kind="secondary",
                 card=inst)
        for e in effects:
            self.effect(p, e, inst, {})

    def primary_choice(self, p: str, inst: str) -> None:
        card = self.card(inst)
        effects = [e for e in (card.primary or ()) if ekey(e) != "none"]
        if not effects:
            return
        o = self.rival(p)
        idle = [i for i, e in enumerate(effects) if self.edition and self.idle_effect(o, e)]
        # edition 2: a move or a joining that only the player whose turn it is can use does
        # nothing for the opponent, who is never that player here (case 116)
        own = [i for i, e in enumerate(effects) if self.edition >= 2 and i not in idle
               and self.idle_off_turn(o, e)]
        if self.edition >= 3 and all(ekey(e) == "cancel" for e in effects):
            # case 137: a cancel turned up has no card played just before it to cancel (and
            # the engine carries out nothing for it here), so nobody is asked
            self.say(f"{card.name}'s primary property cancels a card just played, and none "
                     "has been: it has no effect, and nobody is asked about it (FAQ 1, 13.4).",
                     kind="primary", card=inst)
            return
        if len(idle) + len(own) == len(effects):
            if own:
                self.say(f"{card.name}'s primary property "
                         + ("works only in a dispute or " if idle else "works only ")
                         + f"in {o}'s own turn: it has no effect, and nobody is asked about it "
                         "(FAQ 1).", kind="primary", card=inst)
                return
            self.say(f"{card.name}'s primary property works only in a dispute, and none "
                     "is in progress: it has no effect, and nobody is asked about it "
                     "(FAQ 1).", kind="primary", card=inst)
            return
        answer = self.decide(o, "reveal", lambda: self.answer(
            o, "reveal", ("apply", "ignore"),
            f"{card.name} turned up in {p}'s England: does its primary property affect them "
            "(FAQ 1)?", "apply"))
        if answer == "apply":
            self.say(f"{o} has {card.name}'s primary property take effect (FAQ 1)"
                     + (" (the part that works only in a dispute does nothing: none is in "
                        "progress)" if idle else "")
                     + (f" (the part that works only in {o}'s own turn does nothing)"
                        if own else "") + ".", kind="primary", card=inst)
            for i, e in enumerate(effects):
                if i not in idle and i not in own:
                    self.effect(o, e, inst, {})
        elif self.edition:
            self.say(f"{o} lets {card.name}'s primary property pass: it has no effect "
                     "(FAQ 1).", kind="primary", card=inst)

    def idle_off_turn(self, q: str, e) -> bool:
        """Whether an effect would do nothing for ``q`` because it is not ``q``'s turn: an
        extra move (used only in one's own turn) or a joining at once (it lasts to the end of
        this turn, and only the player whose turn it is invites anyone)."""
        return ekey(e) in ("extra_move", "auto_join") and self.g["active"] != q

    def idle_effect(self, q: str, e) -> bool:
        """Whether an effect of a card turned up would do nothing for ``q`` now: a change to
        combat or wits, slaying or sending back an adversary, or running away, with no dispute
        of ``q``'s in progress (a card turned up is met outside any dispute)."""
        d = self.g["dispute"]
        k = ekey(e)
        if k in ("combat", "wits", "return_to_hand"):
            return not d
        if k in ("slay_adversary", "run_away"):
            return not d or d["player"] != q
        return False

    # ------------------------------------------------------------------------------ joining
    def invite(self, p: str, inst: str) -> bool:
        """The Round Table draw (section 5 as rebuilt): a grail number plus the best wits of the
        Round Table; 7 or more and the character joins."""
        g = self.g
        c = g["counters"]
        name = self.n(inst)
        cid = g["cards"][inst]
        declined = next((x for x in c.get("decline") or [] if x in (None, cid)), False)
        if declined is not False:       # the player chose not to make the draw
            c["decline"].remove(declined)
            self.say(f"{p} makes no Round Table draw for {name}: it stays in the area as an "
                     "adversary (5, 7.1).", kind="refuse", card=inst, declined=True)
            return False
        self.window(p, "invite")
        if g["stage"] == "over":
            raise Over()
        block, auto = c["no_join"], c["auto_join"]
        if block and (not auto or block["seq"] > auto["seq"]):
            self.say(f"{name} may not join any Round Table now (a card played): it becomes an "
                     "adversary (13.4).", kind="refuse", card=inst)
            return False
        if auto and auto["player"] == p:
            c["auto_join"] = None
            self.say(f"{name} joins {p}'s Round Table at once (a card played).",
                     kind="join", card=inst)
            return True
        wits = [(self.stat(m, "wits") or 0, m) for m in self.members(p)
                if self.ctype(m) in CHARACTERS]
        best, who = max(wits, key=lambda x: x[0]) if wits else (0, None)
        value = self.grail(p, f"for the Round Table draw ({name})")
        total = value + best
        ok = total >= 7
        self.say(f"Round Table draw for {name}: {value} + {best} (wits of "
                 f"{self.n(who) if who else 'nobody'}) = {total}: "
                 f"{'7 or more, it joins' if ok else 'under 7, it refuses and becomes an adversary'}"
                 " (5, 7.1).", kind="join" if ok else "refuse", card=inst, total=total)
        return ok

    def decline(self, p: str, line: dict) -> None:
        """``decline [<character>]``: no Round Table draw for the next knight or persona turned
        up this turn (or only for the one named); it stays as an adversary (docs/grailccg.md)."""
        cid = line.get("card")
        if cid is not None and type_of(self.cards.get(cid)) not in CHARACTERS:
            raise Skip(f"{self.cards.get(cid).name} is not a knight or persona; only they are "
                       "invited to join")
        self.g["counters"].setdefault("decline", []).append(cid)
        who = self.cards.get(cid).name if cid else "the next knight or persona turned up"
        self.say(f"You will make no Round Table draw for {who} this turn.", to=[p],
                 kind="decline")

    def assign_page(self, p: str, line: dict) -> None:
        """``assign <page> to <knight>``: a page whose knight died (or that joined serving
        nobody) takes up service with another knight of the same Round Table (FAQ 4, 10.1)."""
        g = self.g
        t = g["table"][p]
        name = self.cards.get(line["card"]).name
        if g["dispute"] and g["dispute"]["player"] == p:
            raise Skip("a page changes masters only between disputes: settle this one first")
        pages = [x for x in t["pages"] if g["cards"][x] == line["card"]]
        if not pages:
            raise Skip(f"{name} is not a page of your Round Table")
        page = next((x for x in pages if t["pages"][x]["knight"] is None), pages[0])
        info = t["pages"][page]
        if info["knight"] is not None:
            raise Skip(f"{name} still serves {self.n(info['knight'])}: a page serves its knight "
                       "until one of them dies (10.1)")
        knight = self.instance(p, line["knight"], self.knights(p))
        if knight is None:
            raise Skip(f"no knight called {self.cards.get(line['knight']).name} is in your "
                       "Round Table")
        info["knight"] = knight
        self.say(f"{p} assigns {name}, who served nobody, to {self.n(knight)} (FAQ 4, 10.1).",
                 kind="assign", card=page, player=p)

    def join(self, p: str, inst: str) -> None:
        t = self.ctype(inst)
        if t == "page":
            knights = self.knights(p)
            self.g["table"][p]["pages"][inst] = {"knight": knights[0] if knights else None,
                                                 "items": [], "new": []}
        else:
            self.g["table"][p]["members"].append(inst)
        serves = ""
        if t == "page" and self.edition >= 3:       # whom the page serves, said (case 131)
            knight = self.g["table"][p]["pages"][inst]["knight"]
            serves = (f", serving {self.n(knight)} (10.1)" if knight else
                      ", serving nobody: the Round Table has no knight (FAQ 4)")
        self.say(f"{self.n(inst)} joins {p}'s Round Table{serves}.", kind="joined", card=inst,
                 player=p)

    # ------------------------------------------------------------------------------ disputes
    def open_dispute(self, p: str, foe: str, name: str, kind: str = "encounter") -> None:
        g = self.g
        card = self.card(foe)
        methods = []
        once = foe in g["counters"]["outwitted_once"]
        if num(card.combat) is not None:
            methods.append("combat")
        if num(card.wits) is not None and not (once and "combat" in methods):
            methods.append("wits")
        if kind == "assault":
            methods = ["combat"]
        if not methods:
            methods = ["combat"]
        g["dispute"] = {"player": p, "foe": foe, "area": name, "kind": kind,
                        "methods": methods, "lead": None, "method": None, "mods": [],
                        "tied": 0, "from": g["table"][p]["from"], "rounds": 0}
        what = "An assault on the castle held by" if kind == "assault" else "A dispute with"
        stats = ", ".join(f"{k} {v}" for k, v in (("combat", num(card.combat)),
                                                  ("wits", num(card.wits))) if v is not None)
        self.say(f"{what} {card.name} ({type_label(card)}{', ' + stats if stats else ''}) in "
                 f"{name} begins (7.1).", kind="dispute", card=foe, area=name)

    def leads(self, p: str, method: str) -> list[str]:
        """Members who may lead (7.1-7.2; pages never, personas only with the sword icon)."""
        out = []
        for m in self.g["table"][p]["members"]:
            t = self.ctype(m)
            if t == "knight" or (t == "persona" and "sword" in icons(self.card(m))):
                if self.stat(m, method) is not None:
                    out.append(m)
        return out

    def base(self, p: str, method: str, lead: str) -> int:
        d = self.g["dispute"]
        value = self.stat(lead, method) or 0
        if method == "combat" and (d["kind"] == "assault" or self.ctype(d["foe"]) == "peril"):
            value += len([k for k in self.knights(p) if k != lead])
        return value

    def foe_base(self, method: str) -> int:
        d = self.g["dispute"]
        value = self.stat(d["foe"], method) or 0
        if d["kind"] == "assault":
            castle = self.area(d["player"], d["area"])["card"]
            value += self.stat(castle, "defence") or 0
        return value

    def best_choice(self, p: str) -> dict:
        d = self.g["dispute"]
        best = None
        for method in d["methods"]:
            for lead in self.leads(p, method):
                margin = self.base(p, method, lead) - self.foe_base(method)
                key = (margin, method == "combat")
                if best is None or key > best[0]:
                    best = (key, method, lead)
        if best is None or (best[0][0] < 0 and self.retreats(p)):
            return {"kind": "run", "area": None}
        return {"kind": "fight" if best[1] == "combat" else "outwit", "lead": best[2]}

    def settle(self, p: str) -> None:
        """While a dispute of ``p`` is open (and not tied), take its decisions."""
        g = self.g
        guard = 0
        while g["stage"] != "over":
            d = g["dispute"]
            if not d or d["player"] != p or d.get("tied"):
                if not d:
                    self.arrive(p)
                    if g["dispute"]:
                        continue
                return
            guard += 1
            if guard > MAX_LINES:
                return
            line = self.decide(p, "dispute", lambda: self.resolve_dispute_line(p))
            try:
                self.dispute_line(p, line)
            except Skip as why:
                self.say(f"Your order '{line.get('text', line['kind'])}' was not carried out: "
                         f"{why}.", to=[p], kind="skipped")
            except Out:                 # another player left the game (16.3); play on
                pass

    def resolve_dispute_line(self, p: str):
        found = self.next_unused(p)
        if found and found[1]["kind"] in ("lead", "fight", "outwit", "run", "play", "use",
                                          "outside"):
            return self.take(p, found[0]), "orders"
        if self.waits():
            options = self.dispute_options(p)
            asked = "lead, fight, outwit, play a card or run away"
            if self.edition >= 2:       # only what the options offer ('fight or run away')
                words = [w for w, start in (("fight", "fight "), ("outwit", "outwit "),
                                            ("play a card", "play "), ("run away", "run away"))
                         if any(o.startswith(start) for o in options)]
                asked = _or(words) if words else asked
            raise self.pause(p, "dispute", f"The dispute with {self.n(self.g['dispute']['foe'])}"
                             f": {asked}?", options)
        choice = self.best_choice(p)
        return choice, "default"

    def dispute_options(self, p: str) -> list[str]:
        d = self.g["dispute"]
        out = []
        for method in d["methods"]:
            word = "fight" if method == "combat" else "outwit"
            for lead in self.leads(p, method):
                out.append(f"{word} with {self.n(lead)}")
        for inst in self.g["hands"][p]:
            if self.playable_in_dispute(p, inst):
                out.append(f"play {self.n(inst)}")
        if self.retreats(p):
            out.append("run away")
        return _unique(out)

    def dispute_line(self, p: str, line: dict) -> None:
        g = self.g
        d = g["dispute"]
        kind = line["kind"]
        if kind == "lead":
            inst = self.member(p, line["card"])
            if inst is None or inst not in g["table"][p]["members"]:
                raise Skip("that character is not in your Round Table")
            d["lead"] = inst
            self.say(f"{p} names {self.n(inst)} the lead.", kind="lead", card=inst)
        elif kind == "play":
            self.play_from_hand(p, line)
        elif kind == "use":
            self.use_item(p, line)
        elif kind == "run":
            self.run_away(p, line.get("area"), shout=True)
        elif kind == "outside":
            self.stay_outside(p)
        elif kind in ("fight", "outwit"):
            method = "combat" if kind == "fight" else "wits"
            if method not in d["methods"]:
                why = " (it was outwitted once already, 7.5)" if method == "wits" else ""
                if self.edition >= 2:       # the reason that holds, not always 7.5
                    why = (" (an assault is settled by combat, 8.3)" if d["kind"] == "assault"
                           else f" (it has no {method})" if self.stat(d["foe"], method) is None
                           else why)
                raise Skip(f"{self.n(d['foe'])} cannot be met with "
                           f"{'combat' if method == 'combat' else 'wits'}{why}")
            lead = line.get("lead")
            if line.get("card"):
                lead = self.member(p, line["card"])
                if lead is None and self.edition >= 2:     # not someone else in their place
                    raise Skip(f"{self.cards.get(line['card']).name} is not in your Round Table")
            lead = lead or d["lead"]
            if lead is not None and lead not in self.leads(p, method):
                raise Skip(f"{self.n(lead)} cannot lead in a {method} dispute")
            if lead is None:
                options = self.leads(p, method)
                if not options:
                    raise Skip("nobody in the Round Table can lead that dispute")
                lead = max(options, key=lambda m: (self.base(p, method, m), -options.index(m)))
            d["lead"] = lead
            d["method"] = method
            self.resolve(p, method, lead)

    def window(self, p: str, trigger: str) -> None:
        """13.1-13.2: before grail numbers are drawn (or after a card is played) the opponent may
        play as many cards as they like, then the player may answer (tag-backs), and so on,
        until one side plays nothing."""
        if self.multi:
            self.window_multi(p, trigger)
            return
        side = self.other(p)
        for _ in range(12):
            played = self.answers(side, trigger)
            if not played:         # nothing played, or the window closed
                return
            side = self.other(side)

    def window_multi(self, p: str, trigger: str) -> None:
        """13.1-13.2 with three or more players (16.3): the chance to play goes round the table
        in seat order from the player on ``p``'s left; each may play as many cards as they like;
        it ends when everybody after the last card played has passed."""
        last, side = p, self.left(p)
        for _ in range(12 * len(self.g["players"])):
            if side == last:
                return
            played = self.answers(side, trigger)
            if played is None:
                return
            if played:
                last = side
            if self.gone(last):
                last = p
            side = self.left(side)

    def answers(self, q: str, trigger: str) -> int | None:
        """``q``'s turn in an answering window: as many cards as they choose to play (at most
        12). Returns how many, or None when the window has closed (the game is over, or the
        dispute it was opened for has ended)."""
        played = 0
        for _ in range(12):
            playable = [x for x in self.g["hands"][q] if self.responds(q, x, trigger)]
            if not playable:
                break
            answer = self.decide(q, "respond", lambda: self.resolve_response(
                q, trigger, playable))
            inst = self.instance(q, answer, playable) if answer else None
            if inst is None:
                break
            played += 1
            try:
                self.play_card(q, inst, {}, responding=True)
            except Out:         # another player left the game (16.3 only); play on
                pass
            if self.g["stage"] == "over" or (trigger == "dispute" and
                                             self.g["dispute"] is None):
                return None
        return played

    def responds(self, q: str, inst: str, trigger: str) -> bool:
        if self.gone(q):
            return False
        card = self.card(inst)
        if type_of(card) not in ONE_SHOT:
            return False
        keys = [ekey(e) for e in card.primary or ()]
        stack = self.g["counters"].get("stack") or []
        live = [s for s in stack if not s["cancelled"]]
        if "cancel" in keys and live and live[-1]["by"] != q:
            return True
        if trigger == "dispute":
            return self.playable_in_dispute(q, inst, responding=True)
        if trigger == "play":
            if self.edition >= 2 and q != self.g["active"]:   # case 116: joining at once
                keys = [k for k in keys if k != "auto_join"]   # helps only the active player
            return any(k in ("no_join", "auto_join") for k in keys) and bool(live)
        if trigger == "invite":
            return "no_join" in keys or ("auto_join" in keys and q == self.g["active"])
        return False

    def resolve_response(self, q: str, trigger: str, playable: list[str]):
        found = self.next_unused(q, ("respond",), first_only=False)
        if found:
            line = self.take(q, found[0])
            return line.get("card"), "orders"
        for cid in self.standing.get(q, {}).get(trigger, []) or []:
            if any(self.g["cards"][x] == cid for x in playable):
                return cid, "standing"
        if self.waits_for(q) and q != self.g["active"]:
            raise self.pause(q, "respond", f"{self.g['active']} is about to draw grail numbers"
                             if trigger == "dispute" else f"{self.g['active']} played a card",
                             [f"respond {self.n(x)}" for x in playable] + ["respond pass"])
        return None, "default"

    def playable_in_dispute(self, q: str, inst: str, responding: bool = False) -> bool:
        d = self.g["dispute"]
        if not d:
            return False
        card = self.card(inst)
        if type_of(card) not in ONE_SHOT:
            return False
        p = d["player"]
        for e in card.primary or ():
            k = ekey(e)
            if k in ("combat", "wits"):
                if responding and self.edition >= 3 and d.get("method") and k != d["method"]:
                    continue    # case 135: wits in a fight (or combat in wits) does nothing
                return True
            if k == "grail":
                return True
            if k in ("slay_adversary", "run_away") and q == p:
                return True
            if k == "cancel":
                stack = self.g["counters"].get("stack") or []
                live = [s for s in stack if not s["cancelled"]]
                if live and live[-1]["by"] != q:
                    return True
        return False

    def resolve(self, p: str, method: str, lead: str) -> None:
        g = self.g
        d = g["dispute"]
        o = self.other(p) if not self.multi else self.foe_drawer(p)
        foe = d["foe"]
        self.window(p, "dispute")
        d = g["dispute"]
        if d is None or g["stage"] == "over":
            return
        if lead not in g["table"][p]["members"]:
            lead = None
            options = self.leads(p, method)
            if not options:
                raise Skip("nobody in the Round Table can lead that dispute any more")
            lead = options[0]
            d["lead"] = lead
        mine = self.base(p, method, lead)
        theirs = self.foe_base(method)
        mods_p = sum(m["value"] for m in d["mods"] if not m.get("cancelled") and
                     m["side"] == "player" and m["what"] == method)
        mods_o = sum(m["value"] for m in d["mods"] if not m.get("cancelled") and
                     m["side"] == "foe" and m["what"] == method)
        items, items_o = self.item_bonus(p, lead, method)
        mods_o += items_o
        if self.foe_drawer(p) == p:      # alone: first for the adversary, then herself (15.3)
            go = self.grail(p, f"for {self.n(foe)}")
            gp = self.grail(p, f"for {self.n(lead)}")
        elif self.multi:
            gp = self.grail(p, f"for {self.n(lead)}")
            while True:             # 16.3: the player on the left draws for the adversary
                o = self.foe_drawer(p)
                try:
                    go = self.grail(o, f"for {self.n(foe)} (on {p}'s left, 16.3)"
                                    if o != p else f"for {self.n(foe)}")
                    break
                except Out:         # that player's deck ran out: the next one draws
                    continue
        else:
            gp = self.grail(p, f"for {self.n(lead)}")
            go = self.grail(o, f"for {self.n(foe)}")
        total_p = mine + mods_p + items + gp
        total_o = theirs + mods_o + go
        d["rounds"] += 1
        numbers = {"method": method, "lead": lead, "foe": foe, "kind": d["kind"],
                   "player": p, "lead_value": self.stat(lead, method) or 0,
                   "assist": mine - (self.stat(lead, method) or 0), "cards": mods_p,
                   "items": items, "grail": gp, "total": total_p,
                   "foe_value": self.stat(foe, method) or 0,
                   "defence": theirs - (self.stat(foe, method) or 0), "foe_cards": mods_o,
                   "foe_grail": go, "foe_total": total_o}
        if self.multi:
            numbers["drawer"] = o if self.foe_drawer(p) != p else p
        g["last_dispute"] = numbers
        parts = [f"{self.n(lead)} {method} {numbers['lead_value']}"]
        if numbers["assist"]:
            parts.append(f"+{numbers['assist']} "
                         f"{'for the other knights (8.3)' if d['kind'] == 'assault' else 'knight-assist (7.3)'}")
        if mods_p:
            parts.append(f"{mods_p:+d} from cards")
        if items:
            parts.append(f"{items:+d} from items")
        parts.append(f"grail {gp}")
        fparts = [f"{self.n(foe)} {method} {numbers['foe_value']}"]
        if numbers["defence"]:
            fparts.append(f"+{numbers['defence']} castle defence")
        if mods_o:
            fparts.append(f"{mods_o:+d} from cards")
        fparts.append(f"grail {go}")
        self.say(f"{' '.join(parts)} = {total_p} against {' '.join(fparts)} = {total_o}.",
                 kind="numbers", numbers=dict(numbers))
        d["mods"] = []
        g["counters"]["stack"] = []
        if total_p == total_o:
            d["tied"] = g["turn"]
            self.say("A tie: the dispute goes on next turn (7.2).", kind="tie")
            return
        if d["kind"] == "assault":
            self.after_assault(p, total_p > total_o, lead)
            return
        if method == "combat":
            if total_p > total_o:
                self.slay_foe(p, "slain in combat (7.2)")
            else:
                self.slay_member(p, lead, "slain in combat (7.2-7.3)")
        else:
            if total_p > total_o:
                self.outwitted(p)
            else:
                self.wits_lost(p)

    def item_bonus(self, p: str, lead: str, method: str) -> tuple[int, int]:
        """What the items of the pages serving the lead (or serving nobody) add: to the lead's
        side, and (a minus) to the other side."""
        mine = theirs = 0
        for page, info in self.g["table"][p]["pages"].items():
            if info["knight"] not in (lead, None):
                continue
            for item in info["items"]:
                for e in self.card(item).primary or ():
                    if ekey(e) == method:
                        n = amount(e)
                        if n < 0 or against(e):
                            theirs -= abs(n)
                        else:
                            mine += n
        return mine, theirs

    def remove_foe(self, inst: str) -> None:
        d = self.g["dispute"]
        a = self.area(d["player"], d["area"])
        for key in ("foes", "occupants"):
            if inst in a[key]:
                a[key].remove(inst)
        for lst in a["outwitted"].values():
            if inst in lst:
                lst.remove(inst)

    def slay_foe(self, p: str, why: str) -> None:
        g = self.g
        d = g["dispute"]
        foe = d["foe"]
        self.remove_foe(foe)
        self.kill(foe)
        g["dispute"] = None
        self.say(f"{self.n(foe)} is {why} and goes to {self.owner(foe)}'s dead cart.",
                 kind="slain", card=foe)
        a = self.area(p, d["area"])
        if a["castle"] is not None and not a["occupants"]:
            self.say(f"The castle in {d['area']} has no defenders left: the way is open.",
                     kind="castle")

    def slay_member(self, p: str, inst: str, why: str) -> None:
        g = self.g
        t = g["table"][p]
        if inst in t["members"]:
            t["members"].remove(inst)
        if inst in t["pages"]:
            info = t["pages"].pop(inst)
            for item in info["items"] + info["new"]:
                self.kill(item)
        served = []
        for page, info in t["pages"].items():
            if info["knight"] == inst:
                info["knight"] = None
                served.append(page)
        self.kill(inst)
        if self.edition >= 2:       # the pages that stay, named; none, nothing said
            stay = ""
            if served:
                shown = [self.n(x) for x in served]     # two Patsy cards: counted, not twice
                named = [n if shown.count(n) == 1 else f"{shown.count(n)} {n} cards"
                         for i, n in enumerate(shown) if n not in shown[:i]]
                stay = (f" ({_and(named)} {'stays' if len(served) == 1 else 'stay'} "
                        "with the Round Table, serving nobody now, FAQ 4)")
            self.say(f"{self.n(inst)} of {p}'s Round Table is {why} and goes to "
                     f"{self.owner(inst)}'s dead cart{stay}.", kind="slain", card=inst)
        else:
            self.say(f"{self.n(inst)} of {p}'s Round Table is {why} and goes to "
                     f"{self.owner(inst)}'s dead cart (his page stays, FAQ 4).", kind="slain",
                     card=inst)
        d = g["dispute"]
        if d and d["player"] == p and d["lead"] == inst:
            d["lead"] = None

    def outwitted(self, p: str) -> None:
        g = self.g
        d = g["dispute"]
        foe = d["foe"]
        a = self.area(p, d["area"])
        a["outwitted"].setdefault(p, []).append(foe)
        if "combat" in d["methods"] and foe not in g["counters"]["outwitted_once"]:
            g["counters"]["outwitted_once"].append(foe)
        g["dispute"] = None
        self.say(f"{self.n(foe)} is outwitted: {p}'s knights may pass, but it stays (7.4"
                 f"{', and next time it must be fought, 7.5' if 'combat' in d['methods'] else ''}"
                 ").", kind="outwitted", card=foe)

    def wits_lost(self, p: str) -> None:
        """7.4: the adversary's special effects (its 'outwits' property, for its owner's side)
        befall the Round Table; with none, it may not enter the area this turn."""
        g = self.g
        d = g["dispute"]
        foe = d["foe"]
        g["dispute"] = None
        effects = [e for e in (getattr(self.card(foe), "outwits", ()) or ()) if ekey(e) != "none"]
        self.say(f"{self.n(foe)} wins the battle of wits (7.4).", kind="outwitted-by", card=foe)
        if effects:
            for e in effects:
                if self.multi:
                    self.effect(self.rival(p), e, foe, {}, victim=p)
                else:
                    self.effect(self.other(p), e, foe, {})
            return
        came = d["from"]
        if came is not None and self.at(p) == d["area"] and g["stage"] != "over" and \
                self.holder(came) not in (None, p):
            # the area it came from is held by another Round Table now (a dispute that went
            # on over turns, in Avalon): it may not share it (FAQ 9), so it falls back as when
            # running away from Avalon (7.6): to one of the top two areas of England
            self.say(f"{p}'s Round Table may not enter {d['area']} this turn, nor go back to "
                     f"{came}, which {self.holder(came)}'s Round Table holds (FAQ 9); it falls "
                     "back as when running away (7.6).", kind="move", player=p)
            self.run_away(p, None, False, forced=True)
        elif came is not None and self.at(p) == d["area"] and g["stage"] != "over":
            t = g["table"][p]
            t["at"], t["from"] = came, None
            g["arrival"] = None
            self.say(f"{p}'s Round Table may not enter {d['area']} this turn and goes back "
                     f"{self.to(came)} (7.4).", kind="move", player=p, area=came)

    # ------------------------------------------------------------------------------ running away
    def retreats(self, p: str) -> list[str]:
        """Where the Round Table may run away to (7.6), before the opponent's choice."""
        g = self.g
        at = self.at(p)
        came = g["table"][p]["from"]
        if at == E.HOME:
            return []
        if at.startswith("av"):
            out = [a for a in ([came] if came else []) + list(E.TOP)
                   if a and (a in E.TOP or self.holder(a) in (None, p))]
            return _unique(out)
        cands = _unique(list(E.below(at)) + ([came] if came and not came.startswith("av")
                                             else []))
        cands = [c for c in cands if c != at]
        known = [c for c in cands if self.explored(p, c)]
        return known or cands

    def run_away(self, p: str, wish: str | None, shout: bool, forced: bool = False) -> None:
        g = self.g
        d = g["dispute"]
        options = self.retreats(p)
        if not options:
            if forced:
                self.say(f"{p}'s Round Table has nowhere to retreat to and stays.")
                return
            raise Skip("there is nowhere to run away to")
        if len(options) == 1:
            target = options[0]
        else:
            o = self.rival(p)
            target = self.decide(o, "retreat", lambda: self.resolve_retreat(o, p, options, wish))
        if shout:
            self.say(f'{p} stands and shouts: "Run away! Run away!" (7.6)', kind="run")
        name = self.n(d["foe"]) if d else None
        if d and d.get("foe") and self.edition >= FLED_ONCE:
            fled = g["counters"].setdefault("fled", [])
            if d["foe"] not in fled:
                fled.append(d["foe"])
        g["dispute"] = None
        self.say(f"{p}'s Round Table runs away" + (f" from {name}" if name else "") +
                 f" {self.to(target, back=True)}.", kind="retreat", player=p, area=target)
        self.enter(p, target, "runs")

    def resolve_retreat(self, o: str, p: str, options: list[str], wish: str | None):
        found = self.next_unused(o, ("retreat",), first_only=False)
        if found:
            line = self.take(o, found[0])
            if line.get("area") in options:
                return line["area"], "orders"
        for area in self.standing.get(o, {}).get("retreat", []) or []:
            if area in options:
                return area, "standing"
        if self.waits_for(o):
            raise self.pause(o, "retreat", f"{p}'s Round Table runs away: where to (7.6)?",
                             [f"retreat {a}" for a in options])
        if wish in options:
            return wish, "default"
        return sorted(options, key=E.order_key)[0], "default"

    # ------------------------------------------------------------------------------ castles
    def fill_castle(self, p: str, name: str) -> None:
        """8.1: the opponent looks through their deck for the occupants the castle card asks for
        (characters with the castle icon)."""
        a = self.area(p, name)
        castle = self.card(a["card"])
        spec = getattr(castle, "occupant", None)
        a["castle"] = {"outside": [], "passage": [], "breached": {}, "consulted": {},
                       "assaulted": False, "trapped": []}
        if not spec:
            return
        o = self.rival(p)
        count = spec if isinstance(spec, int) and not isinstance(spec, bool) else 1
        for _ in range(max(0, min(count, 3))):
            options = [x for x in self.g["decks"][o] if self.may_occupy(x, spec)]
            if not options:
                self.say(f"{o} has no card in the deck that may occupy {castle.name}: it stands "
                         "empty.", kind="castle")
                return
            cid = self.decide(o, "defend", lambda: self.resolve_defend(o, castle, options))
            inst = self.instance(o, cid, options) if cid else None
            if inst is None:
                return
            self.g["decks"][o].remove(inst)
            a["occupants"].append(inst)
            self.say(f"{o} puts {self.n(inst)} from the deck into {castle.name} (8.1).",
                     kind="occupant", card=inst)

    def may_occupy(self, inst: str, spec) -> bool:
        card = self.card(inst)
        t = type_of(card)
        if t not in ("knight", "adversary", "persona") or "castle" not in icons(card):
            return False
        if isinstance(spec, str):
            s = spec.lower().strip()
            if s in ("knight", "adversary", "persona"):
                return t == s
            if s in ("any", "character", "yes", "true"):
                return True
            if s.endswith("s") and s[:-1] in ("knight", "adversary", "persona"):
                return t == s[:-1]
            return card.name.lower() == s or card.id == s
        return True

    def resolve_defend(self, o: str, castle, options: list[str]):
        found = self.next_unused(o, ("defend",), first_only=False)
        if found:
            line = self.take(o, found[0])
            if any(self.g["cards"][x] == line.get("card") for x in options):
                return line["card"], "orders"
        for cid in self.standing.get(o, {}).get("defend", []) or []:
            if any(self.g["cards"][x] == cid for x in options):
                return cid, "standing"
        if self.waits_for(o):
            raise self.pause(o, "defend", f"Who occupies {castle.name} (8.1)?",
                             _unique([f"defend {self.n(x)}" for x in options]))
        best = max(options, key=lambda x: ((self.stat(x, "combat") or 0) +
                                           (self.stat(x, "wits") or 0), -options.index(x)))
        return self.g["cards"][best], "default"

    def castle_arrival(self, p: str, name: str) -> None:
        a = self.area(p, name)
        if a["castle"] is None:
            self.fill_castle(p, name)
        cs = a["castle"]
        if p in cs["outside"]:
            return
        if not a["occupants"]:
            self.say(f"{p}'s Round Table enters {self.n(a['card'])}.", kind="castle")
            return
        meek = [x for x in a["occupants"] if self.stat(x, "combat") is None
                and x not in a["outwitted"].get(p, [])]
        if meek:
            self.say(f"{self.n(meek[0])} entices the knights into the castle (8.2).",
                     kind="castle")
            self.open_dispute(p, meek[0], name)
            return
        if self.edition >= 2:       # what the Round Table may do here now, not always all
            self.say(self.castle_choices(p, name), kind="castle")
            return
        self.say(f"{self.n(a['card'])} is held by {self.names(a['occupants'])}: the Round Table "
                 "may consult the castle table, assault after a consultation, stay outside or "
                 "run away (8.1-8.4).", kind="castle")

    def castle_choices(self, p: str, name: str) -> str:
        """The castle ``p``'s Round Table arrives at and what it may do there (rules edition
        2): passage already granted says so; a castle assaulted offers no castle table (8.1);
        one consulted before may be assaulted at once (8.3)."""
        a = self.area(p, name)
        cs = a["castle"]
        held = f"{self.n(a['card'])} is held by {self.names(a['occupants'])}"
        if self.can_pass(p, name):
            why = "the castle table granted passage (8.1)" if p in cs["passage"] else \
                "its occupants were outwitted (7.4)"
            return f"{held}, but {p}'s Round Table may go on: {why}."
        choices = [] if cs["assaulted"] else ["consult the castle table"]
        choices.append("assault it" if cs["consulted"].get(p) else
                       "assault after a consultation")
        choices += ["stay outside", "run away"]
        return (f"{held}: the Round Table may {', '.join(choices[:-1])} or {choices[-1]} "
                "(8.1-8.4).")

    def castle_here(self, p: str) -> tuple[str, dict]:
        at = self.at(p)
        if at == E.HOME:
            raise Skip("the Round Table is not at a castle")
        a = self.area(p, at)
        if a["card"] is None or not a["up"] or self.ctype(a["card"]) != "castle":
            raise Skip("the Round Table is not at a castle")
        if a["castle"] is None:
            self.fill_castle(p, at)
        return at, a

    def consult(self, p: str, cid: str | None) -> None:
        g = self.g
        if g["dispute"] and g["dispute"]["player"] == p:
            raise Skip("a dispute must be settled first")
        at, a = self.castle_here(p)
        cs = a["castle"]
        if not a["occupants"]:
            raise Skip("the castle is empty: there is nobody to consult")
        if cs["assaulted"]:
            raise Skip("the castle has been assaulted: its table may not be consulted again "
                       "until a new adversary is inside (8.1)")
        if all(self.stat(x, "combat") is None for x in a["occupants"]):
            raise Skip("its occupants have no combat ability: no castle table (8.2)")
        if self.can_pass(p, at):
            raise Skip("the castle already lets the Round Table pass")
        if self.edition >= 3 and at in g["counters"].get("consulted", []):     # case 125
            raise Skip("the castle table was consulted this turn already: it may be consulted "
                       "again next turn; now the Round Table may assault the castle, stay "
                       "outside or run away (8.1, Example 8.1)")
        members = [m for m in g["table"][p]["members"] if self.stat(m, "wits") is not None]
        if cid:
            who = self.member(p, cid)
            if who is None or who not in members:
                raise Skip("that character is not in your Round Table or has no wits")
        elif members:
            who = max(members, key=lambda m: (self.stat(m, "wits"), -members.index(m)))
        else:
            raise Skip("nobody in the Round Table has wits")
        inhabitant = max(a["occupants"], key=lambda x: self.stat(x, "wits") or 0)
        castle = self.card(a["card"])
        mine = self.stat(who, "wits") or 0
        theirs = self.stat(inhabitant, "wits") or 0
        g1 = self.grail(p, "for the castle table (first)")
        g2 = self.grail(p, "for the castle table (second)")
        total = g1 + g2 + mine - theirs
        cs["consulted"][p] = cs["consulted"].get(p, 0) + 1
        if self.edition >= 3:       # once a turn (Example 8.1: try again next turn)
            g["counters"].setdefault("consulted", []).append(at)
        result = castle_result(castle, total)
        passes = result in ("pass", "pass-draw-1")
        g["last_dispute"] = {"kind": "castle table", "player": p, "lead": who,
                             "lead_value": mine, "foe": inhabitant, "foe_value": theirs,
                             "grail": [g1, g2], "total": total, "result": result,
                             "passes": passes}
        self.say(f"Castle table of {castle.name}: {g1} + {g2} + {mine} (wits of {self.n(who)}) "
                 f"- {theirs} (wits of {self.n(inhabitant)}) = {total}: {result} "
                 f"({CASTLE_WORDS.get(result, result)}) (8.1).", kind="castle-table",
                 total=total, passes=passes, result=result)
        if passes:
            cs["passage"].append(p)
        if result == "pass-draw-1":
            self.draw(p, 1, f" ({castle.name})")
        elif result == "lose-a-page":
            self.lose_page(p, castle.name)
        elif result == "run-away":
            self.run_away(p, None, shout=False, forced=True)
        elif result == "trapped":
            t = g["table"][p]
            if who in t["members"]:
                t["members"].remove(who)
                cs["trapped"].append(who)
                cs.setdefault("trapped_by", {})[who] = p
                self.say(f"{self.n(who)} is held in {castle.name} until it is breached.",
                         kind="trapped", card=who)
                if not self.knights(p) and self.at(p).startswith("av"):
                    pass
        elif result == "lead-knight-slain":
            self.slay_member(p, who, f"slain at {castle.name}")

    def assault(self, p: str, cid: str | None) -> None:
        g = self.g
        if g["dispute"] and g["dispute"]["player"] == p:
            raise Skip("a dispute must be settled first")
        at, a = self.castle_here(p)
        cs = a["castle"]
        if not a["occupants"]:
            raise Skip("the castle is empty")
        if not cs["consulted"].get(p):
            raise Skip("a castle may be assaulted only after its table was consulted (8.3)")
        if p in cs["breached"]:
            raise Skip("the castle is breached already; its defenders must be met in a "
                       "dispute (8.3)")
        defender = max(a["occupants"], key=lambda x: (self.stat(x, "combat") or 0))
        lead = self.member(p, cid) if cid else None
        if cid and self.edition >= 2 and lead not in self.leads(p, "combat"):
            name = self.cards.get(cid).name     # not someone else in their place
            raise Skip(f"{name} is not in your Round Table" if lead is None else
                       f"{name} cannot lead an assault (7.1, 8.3)")
        self.open_dispute(p, defender, at, kind="assault")
        options = self.leads(p, "combat")
        if not options:
            g["dispute"] = None
            raise Skip("nobody in the Round Table can lead an assault")
        if lead not in options:
            lead = max(options, key=lambda m: (self.stat(m, "combat") or 0, -options.index(m)))
        g["dispute"]["lead"] = lead
        g["dispute"]["method"] = "combat"
        self.say(f"{p} assaults {self.n(a['card'])} led by {self.n(lead)} (8.3).",
                 kind="assault")
        self.resolve(p, "combat", lead)

    def after_assault(self, p: str, won: bool, lead: str) -> None:
        g = self.g
        d = g["dispute"]
        a = self.area(p, d["area"])
        cs = a["castle"]
        cs["assaulted"] = True
        g["dispute"] = None
        if won:
            cs["breached"][p] = g["turn"]
            for x in list(cs["trapped"]):
                if cs.get("trapped_by", {}).get(x, p) == p:
                    cs["trapped"].remove(x)
                    g["table"][p]["members"].append(x)
                    self.say(f"{self.n(x)} is freed and rejoins the Round Table.", kind="joined",
                             card=x)
            self.say(f"The castle is breached: {p}'s Round Table is inside; the defenders must "
                     "still be met next turn (8.3).", kind="breach")
        else:
            self.slay_member(p, lead, "slain in the assault (8.3)")

    def castle_followup(self, p: str) -> None:
        """At the start of a turn, adversaries still standing where the Round Table is are met
        again: the defenders of a castle breached on an earlier turn (8.3), or a foe that won
        a battle of wits with effects (7.4)."""
        g = self.g
        if g["dispute"]:
            return
        at = self.at(p)
        if at == E.HOME:
            return
        a = self.area(p, at)
        foes = [f for f in a["foes"] if not self.passable(p, at, f)]
        if foes:
            self.open_dispute(p, foes[0], at)
            return
        cs = a["castle"]
        if not cs or p not in cs["breached"] or cs["breached"][p] >= g["turn"]:
            return
        left = [x for x in a["occupants"] if x not in a["outwitted"].get(p, [])]
        if left:
            self.open_dispute(p, left[0], at)

    def stay_outside(self, p: str) -> None:
        at, a = self.castle_here(p)
        cs = a["castle"]
        if p not in cs["outside"]:
            cs["outside"].append(p)
        d = self.g["dispute"]
        if d and d["player"] == p and d["foe"] in a["occupants"] and d["kind"] != "assault" \
                and not d["rounds"]:
            self.g["dispute"] = None
        self.say(f"{p}'s knights stay outside the castle: its effects do not touch them, and "
                 "they may not pass it (8.4).", kind="castle")

    # ------------------------------------------------------------------------------ villages
    def village(self, p: str, name: str) -> None:
        a = self.area(p, name)
        village = self.card(a["card"])
        value = self.grail(p, f"for the village table of {village.name}")
        result = village_result(village, value)
        self.say(f"Village table of {village.name}: {value}: {result} (9.1).", kind="village",
                 total=value, result=result)
        self.g["last_dispute"] = {"kind": "village table", "player": p, "grail": value,
                                  "total": value, "result": result}
        if self.parse_village is None or not result:
            return
        try:
            e = self.parse_village(result)
        except Exception:
            return
        k = ekey(e)
        n = amount(e)
        if k == "rest":
            return
        if k == "discard":
            self.random_discard(p, n, village.name)
        elif k == "skip_draw":
            if p not in self.g["counters"]["skip_draw"]:
                self.g["counters"]["skip_draw"].append(p)
            self.say(f"{p} misses the next draw phase ({village.name}).", kind="modifier")
        elif k == "lose_a_page":
            self.lose_page(p, village.name)
        elif k == "lose_a_knight":
            options = [m for m in self.knights(p) if not self._is(m, "arthur")]
            if options:
                victim = min(options, key=lambda m: (self.stat(m, "combat") or 0,
                                                     options.index(m)))
                self.slay_member(p, victim, f"lost in {village.name}")
        elif k == "driven_out":
            self.run_away(p, None, shout=False, forced=True)
        elif k == "grail" and n < 0 and self.edition >= 2:
            # a village's result is read for the visitor (docs/grailccg-cards.md): a minus
            # lowers the visitor's own next grail number, not the opponent's (case 118)
            c = self.g["counters"]
            c["grail_bonus"][p] = c["grail_bonus"].get(p, 0) + n
            self.say(f"{village.name}: {n:+d} to {p}'s next grail number.", kind="modifier")
        else:
            self.effect(p, e, a["card"], {})

    def lose_page(self, p: str, why: str) -> None:
        pages = list(self.g["table"][p]["pages"])
        if not pages:
            self.say(f"{p}'s Round Table has no page to lose ({why}).")
            return
        page = min(pages, key=lambda x: (len(self.g["table"][p]["pages"][x]["items"]),
                                         pages.index(x)))
        self.slay_member(p, page, f"lost ({why})")

    def random_discard(self, q: str, n: int, why: str) -> None:
        for _ in range(n):
            hand = self.g["hands"][q]
            if not hand:
                break
            i = self.pick(len(hand), f"the card {q} discards at random ({why})")
            lost = hand.pop(i)
            self.kill(lost)
            self.say(f"{q} discards {self.n(lost)}, picked at random ({why}).",
                     kind="discard", card=lost)

    # ------------------------------------------------------------------------------ the search
    def search(self, p: str) -> None:
        g = self.g
        at = self.at(p)
        if not at.startswith("av"):
            raise Skip("the Grail can be searched for only in Avalon (15.1)")
        if g["dispute"] and g["dispute"]["player"] == p:
            raise Skip("a dispute must be settled first")
        a = self.area(p, at)
        if a["searched"]:
            raise Skip(f"{at} has been searched already (15.1)")
        if self.edition >= 3 and not self.knights(p):       # case 127
            raise Skip("only knights search for the Grail, and the Round Table has none "
                       "(15.1)")
        if any(not self.passable(p, at, f) for f in a["foes"]) or \
                any(x not in a["outwitted"].get(p, []) for x in a["occupants"]):
            raise Skip("the adversaries of this area are not all defeated (15.1)")
        bonus = g["counters"]["search_bonus"]
        value = self.grail(p, f"for the search of {at}")
        total = value + bonus
        g["last_dispute"] = {"kind": "search", "player": p, "grail": value, "bonus": bonus,
                             "total": total, "area": at}
        if total >= 6:
            g["result"] = {"winner": p, "loser": self.other(p) if not self.multi else None,
                           "draw": False,
                           "reason": f"{p} finds the Holy Grail in {at}", "ante": p}
            g["stage"] = "over"
            forfeits = g.get("forfeits") or {}
            ante = [x for q in g["players"] for x in g["ante"]["cards"][q] if q not in forfeits]
            self.say(f"{p} searches {at}: {value} + {bonus} = {total}: {p} finds the Holy Grail "
                     f"and wins the game and the ante ({_count(len(ante))}) (15.1, 15.3)!"
                     + self.forfeit_note(), kind="win", player=p, total=total)
            raise Over()
        a["searched"] = True
        g["counters"]["search_bonus"] += 1
        self.say(f"{p} searches {at}: {value} + {bonus} = {total}: no Grail there; the next "
                 f"search gets +{bonus + 1} (15.1).", kind="search", total=total)
        if all(x["searched"] for x in g["avalon"].values()) and self.defeated():
            self.lose(p, "every area of Avalon has been searched (15.3)")
        if all(x["searched"] for x in g["avalon"].values()):
            g["result"] = {"winner": None, "loser": None, "draw": True,
                           "reason": "every area of Avalon has been searched and the Grail not "
                                     "found", "ante": None}
            g["stage"] = "over"
            self.say("Every area of Avalon has been searched without finding the Grail: the "
                     "game is a draw (15.1); the ante stays for the next game.", kind="draw")
            raise Over()

    def give_up(self, p: str) -> None:
        g = self.g
        out = self.defeated()
        if not out:
            raise Skip("a player may give up only the lone search after the opponent is out "
                       "(15.3)")
        g["result"] = {"winner": p, "loser": out[0], "draw": False,
                       "reason": f"{out[0]} was out first; {p} gives up the lone search",
                       "ante": None}
        g["stage"] = "over"
        self.say(f"{p} gives up the lone search for the Grail: {p} keeps the win over {out[0]}, "
                 "but nobody wins the ante (15.3).", kind="giveup", player=p)
        raise Over()

    # ------------------------------------------------------------------------------ playing
    def play_from_hand(self, p: str, line: dict) -> None:
        g = self.g
        inst = self.instance(p, line["card"], g["hands"][p])
        if inst is None:
            raise Skip(f"{self.cards.get(line['card']).name} is not in your hand")
        self.play_card(p, inst, line.get("target") or {})

    def play_card(self, p: str, inst: str, target: dict, responding: bool = False) -> None:
        g = self.g
        card = self.card(inst)
        t = type_of(card)
        if self.multi:
            self.aim(p, target)
        o = self.victim(p, target)
        if responding and t not in ONE_SHOT:
            raise Skip("only events, songs, taunts and Questions Three answer other cards")
        if t in CHARACTERS:
            g["hands"][p].remove(inst)
            g["table"][p]["members"].append(inst)
            self.say(f"{p} plays {card.name}, who joins the Round Table (4).", kind="play",
                     card=inst, player=p)
            return
        if t == "page":
            knight = self.target_member(p, target, self.knights(p), "knight")
            if knight is None:
                raise Skip("a page needs a knight of your Round Table to serve (10.1)")
            g["hands"][p].remove(inst)
            g["table"][p]["pages"][inst] = {"knight": knight, "items": [], "new": []}
            self.say(f"{p} plays {card.name}, " + ("" if self.edition and "page" in
                                                   card.name.lower().split() else "a page ")
                     + f"serving {self.n(knight)} (10.1).",
                     kind="play", card=inst, player=p)
            return
        if t == "item":
            pages = [x for x, info in g["table"][p]["pages"].items()
                     if len(info["items"]) + len(info["new"]) < self.capacity(x)]
            page = self.target_member(p, target, pages, "page")
            if page is None:
                raise Skip("an item needs a page of your Round Table with room to carry it "
                           "(10.1, 11.1)")
            g["hands"][p].remove(inst)
            g["table"][p]["pages"][page]["new"].append(inst)
            self.say(f"{p} gives {card.name} to {self.n(page)}; it can be used from the next "
                     "turn (11.1).", kind="play", card=inst, player=p)
            return
        if t in HOSTILE or t in AREA_TYPES:
            area = self.target_area(p, target, t, o)
            g["hands"][p].remove(inst)
            a = self.area(o, area)
            if t in HOSTILE:
                a["foes"].append(inst)
                self.say(f"{p} plays {card.name} face up onto {area} of {o}'s "
                         f"{'Avalon' if area.startswith('av') else 'England'} (FAQ 6).",
                         kind="play", card=inst, player=p, area=area)
            else:
                old = a["card"]
                if old is not None:
                    self.kill(old)
                a["card"], a["up"], a["castle"] = inst, True, None
                self.say(f"{p} plays {card.name} onto {area} of "
                         f"{'Avalon' if area.startswith('av') else o + chr(39) + 's England'}"
                         + (", replacing the face-down card there (to the dead cart)"
                            if old else "") + ".", kind="play", card=inst, player=p, area=area)
            return
        # events, songs, taunts, questions three
        keys = [ekey(e) for e in card.primary or ()]
        d = g["dispute"]
        needs_dispute = keys and all(k in ("combat", "wits", "slay_adversary", "run_away")
                                     for k in keys)
        if needs_dispute and not d:
            raise Skip(f"{card.name} can be played only in a dispute")
        if keys and all(k == "cancel" for k in keys):
            live = [s for s in g["counters"].get("stack") or [] if not s["cancelled"]]
            if not live:
                raise Skip("there is no card to cancel")
        g["hands"][p].remove(inst)
        stack = g["counters"].setdefault("stack", [])
        said = f"{p} plays {card.name}" + (" in answer" if responding else "")
        # edition 3: "plays Ni!", not "plays Ni!." (a name that ends a sentence itself)
        self.say(said + ("" if self.edition >= 3 and said[-1] in "!?" else "."),
                 kind="play", card=inst, player=p)
        entry = {"by": p, "inst": inst, "cancelled": False}
        self.kill(inst)
        if "cancel" in keys:
            live = [s for s in stack if not s["cancelled"]]
            if live:
                live[-1]["cancelled"] = True
                self.undo(live[-1])
                self.say(f"{card.name} cancels {self.n(live[-1]['inst'])} (13.4: the last card "
                         "played wins).", kind="cancel", card=live[-1]["inst"])
        stack.append(entry)
        if not responding and not d:
            self.window(p, "play")
            g["counters"]["stack"] = []
            if entry["cancelled"]:
                return
        for e in card.primary or ():
            if ekey(e) != "cancel":
                self.effect(p, e, inst, target, entry=entry)

    def undo(self, entry: dict) -> None:
        """A cancelled card's lasting effects are taken back (those not yet spent)."""
        g = self.g
        d = g["dispute"]
        if d:
            for m in d["mods"]:
                if m.get("entry") == entry["inst"]:
                    m["cancelled"] = True
        c = g["counters"]
        for key in ("auto_join", "no_join"):
            if c[key] and c[key].get("inst") == entry["inst"]:
                c[key] = None
        if entry["inst"] in c.get("bonus_from", []) and not self.edition:
            c["grail_bonus"][entry["by"]] = 0
        elif entry["inst"] in c.get("bonus_from", []):     # only what this card added
            c["bonus_from"].remove(entry["inst"])
            for e in self.card(entry["inst"]).primary or ():
                if ekey(e) == "grail":
                    n = amount(e)
                    who = entry["by"] if n > 0 else self.victim(entry["by"])
                    c["grail_bonus"][who] = c["grail_bonus"].get(who, 0) - n
        entry["cancelled"] = True

    def capacity(self, page: str) -> int:
        return num(getattr(self.card(page), "capacity", None)) or 1

    def target_member(self, p: str, target: dict, options: list[str], what: str) -> str | None:
        if target.get("member"):
            found = self.instance(p, target["member"], options)
            if found is None:
                raise Skip(f"no {what} called {self.cards.get(target['member']).name} can take it")
            return found
        if not options:
            return None
        if what == "knight":
            served = {info["knight"] for info in self.g["table"][p]["pages"].values()}
            free = [k for k in options if k not in served]
            return (free or options)[0]
        return options[0]

    def area_targets(self, p: str, t: str, o: str | None = None) -> list[str]:
        g = self.g
        o = o or self.victim(p)
        out = []
        for name in list(E.AREAS) + list(g["avalon"]):
            a = self.area(o, name)
            held = self.at(o) == name or (name.startswith("av") and self.holder(name))
            if t in HOSTILE:
                if not held:
                    out.append(name)
            elif a["card"] is None or not a["up"]:
                out.append(name)
        return out

    def target_area(self, p: str, target: dict, t: str, o: str | None = None) -> str:
        o = o or self.victim(p, target)
        options = self.area_targets(p, t, o)
        wanted = target.get("area")
        if wanted:
            if wanted not in options:
                if t in HOSTILE:
                    raise Skip(f"{wanted} is not free for an adversary (FAQ 6: not where the "
                               "opponent's Round Table stands)")
                raise Skip(f"{wanted} already holds a face-up card")
            return wanted
        if not options:
            raise Skip("there is no area to play it on")
        at = self.at(o)
        near = [a for a in E.adjacent(at) if a in options and E.row_of(a) > E.row_of(at)]
        if at in E.TOP or at.startswith("av"):
            near = [a for a in options if a.startswith("av")] + near
        return (near or options)[0]

    def use_item(self, p: str, line: dict) -> None:
        g = self.g
        for page, info in g["table"][p]["pages"].items():
            inst = self.instance(p, line["card"], info["items"])
            if inst:
                break
        else:
            new = any(self.instance(p, line["card"], info["new"])
                      for info in g["table"][p]["pages"].values())
            raise Skip("an item given this turn can be used only from the next turn (11.1)"
                       if new else "no page of your Round Table carries it")
        card = self.card(inst)
        effects = [e for e in card.primary or () if ekey(e) not in ("combat", "wits", "none")]
        if not effects:
            raise Skip(f"{card.name} works by itself in disputes; it has nothing to use")
        if self.multi:
            self.aim(p, line.get("target") or {})
        info["items"].remove(inst)
        self.kill(inst)
        self.say(f"{p} uses {card.name} (carried by {self.n(page)}); it goes to the dead cart.",
                 kind="use", card=inst, player=p)
        for e in effects:
            self.effect(p, e, inst, line.get("target") or {})

    def pass_item(self, p: str, line: dict) -> None:
        pages = self.g["table"][p]["pages"]
        src = self.instance(p, line["from"], list(pages))
        dst = self.instance(p, line["to"], list(pages))
        if src is None or dst is None or src == dst:
            raise Skip("both pages must be in your Round Table")
        info = pages[src]
        item = self.instance(p, line["card"], info["items"] + info["new"])
        if item is None:
            raise Skip(f"{self.n(src)} does not carry it")
        if len(pages[dst]["items"]) + len(pages[dst]["new"]) >= self.capacity(dst):
            raise Skip(f"{self.n(dst)} cannot carry more (FAQ 5)")
        key = "items" if item in info["items"] else "new"
        info[key].remove(item)
        pages[dst][key].append(item)
        self.say(f"{p} passes {self.n(item)} from {self.n(src)} to {self.n(dst)} (FAQ 5).",
                 kind="pass")

    # ------------------------------------------------------------------------------ effects
    def effect(self, p: str, e, source: str, target: dict, entry: dict | None = None,
               victim: str | None = None) -> None:
        g = self.g
        k = ekey(e)
        o = victim or self.victim(p, target)
        n = amount(e)
        d = g["dispute"]
        c = g["counters"]
        src = self.n(source)
        if k == "draw":
            self.draw(p, n, f" ({src})")
        elif k == "opponent_discards":
            for _ in range(n):
                hand = g["hands"][o]
                if not hand:
                    break
                i = self.pick(len(hand), f"the card {o} discards at random ({src})")
                lost = hand.pop(i)
                self.kill(lost)
                self.say(f"{o} discards {self.n(lost)}, picked at random ({src}).",
                         kind="discard", card=lost)
        elif k in ("combat", "wits"):
            if not d:
                return
            mine = "player" if d["player"] == p else "foe"
            side = mine if not against(e) else ("foe" if mine == "player" else "player")
            value = abs(n) if not against(e) else -abs(n)
            if n < 0 and not against(e):
                side = "foe" if mine == "player" else "player"
                value = n
            d["mods"].append({"side": side, "what": k, "value": value, "by": p,
                              "entry": source})
            self.say(f"{src}: {value:+d} {k} for "
                     f"{'the Round Table' if side == 'player' else self.n(d['foe'])}.",
                     kind="modifier")
        elif k == "grail":
            who = p if n > 0 else o
            c["grail_bonus"][who] = c["grail_bonus"].get(who, 0) + n
            c.setdefault("bonus_from", []).append(source)
            self.say(f"{src}: {n:+d} to {who}'s next grail number.", kind="modifier")
        elif k == "auto_join" and self.edition >= 2 and g["active"] != p:
            self.say(f"{src}: it is not {p}'s turn, so nobody joins {p}'s Round Table at once: "
                     "no effect.", kind="modifier")
        elif k == "auto_join":
            c["seq"] += 1
            c["auto_join"] = {"player": p, "seq": c["seq"], "inst": source}
            self.say(f"{src}: the next character {p} invites this turn joins at once.",
                     kind="modifier")
        elif k == "no_join":
            c["seq"] += 1
            c["no_join"] = {"until": g["turn"] + 1, "seq": c["seq"], "inst": source}
            self.say(f"{src}: no " + ("knight or persona turned up" if self.edition >= 3
                                      else "character")     # as the engine does (case 131)
                     + " joins any Round Table until the end of the next turn.",
                     kind="modifier")
        elif k == "slay_adversary":
            if d and d["player"] == p:
                self.slay_foe(p, f"slain by {src}")
        elif k == "slay_knight":
            if self.multi and target.get("member") and not target.get("player"):
                for q in self.seats_from(p):        # the first player with that knight
                    if self.instance(q, target["member"], [
                            m for m in self.knights(q) if not self._is(m, "arthur")]):
                        o = q
                        break
            options = [m for m in self.knights(o) if not self._is(m, "arthur")]
            if not options:
                self.say(f"{src}: {o} has no knight but Arthur; nothing happens.")
                return
            victim = None
            if target.get("member"):
                victim = self.instance(o, target["member"], options)
            if victim is None:
                victim = max(options, key=lambda m: ((self.stat(m, "combat") or 0),
                                                     -options.index(m)))
            self.slay_member(o, victim, f"slain by {src}")
        elif k == "return_to_hand":
            if d:
                foe = d["foe"]
                self.remove_foe(foe)
                g["dispute"] = None
                g["hands"][self.owner(foe)].append(foe)
                self.say(f"{src}: {self.n(foe)} goes back to {self.owner(foe)}'s hand; the area "
                         "is left empty.", kind="return", card=foe)
        elif k == "revive":
            dead = [x for x in g["dead"][p] if self.ctype(x) in ("knight", "page")]
            if not dead:
                self.say(f"{src}: {p} has no knight or page in the dead cart.")
                return
            back = max(dead, key=lambda x: (self.ctype(x) == "knight",
                                            self.stat(x, "combat") or 0, -dead.index(x)))
            g["dead"][p].remove(back)
            self.join(p, back)
        elif k == "join":
            a = None
            at = self.at(p)
            if at != E.HOME:
                a = self.area(p, at)
            if a is not None and a["card"] == source:
                a["card"] = None
                self.join(p, source)
                self.g["counters"]["joined"] = source
        elif k == "skip_draw":
            if o not in c["skip_draw"]:
                c["skip_draw"].append(o)
            self.say(f"{src}: {o} skips their next draw phase.", kind="modifier")
        elif k == "extra_move" and self.edition >= 2 and g["active"] != p:
            self.say(f"{src}: it is not {p}'s turn, so {p}'s Round Table gets no extra move: "
                     "no effect.", kind="modifier")
        elif k == "extra_move":
            c["extra_moves"] += n if g["active"] == p else 0
            self.say(f"{src}: {p}'s Round Table may move {n} more area this turn.",
                     kind="modifier")
        elif k == "move_back":
            self.move_back(o, n, src)
        elif k == "peek":
            top = g["decks"][p][:n]
            self.say(f"{p} looks at the top {_count(len(top))} of their deck ({src}).",
                     kind="peek")
            self.say(f"The top of your deck: {self.names(top) or 'nothing'}.", to=[p],
                     kind="peek", cards=top)
        elif k == "reveal_area":
            self.reveal_remote(p, target, src)
        elif k == "shuffle_dead_cart":
            pile = g["dead"][p] + g["decks"][p]
            g["dead"][p] = []
            g["decks"][p] = self.shuffle(pile, f"{p}'s dead cart shuffled into the deck ({src})")
            self.say(f"{p} shuffles the dead cart into the deck ({src}).", kind="shuffle")
        elif k == "lose_game":
            tgt = str(getattr(e, "target", "") or "").lower()
            loser = p if tgt in ("self", "you", "player") else o
            try:
                self.lose(loser, f"{src} (15.2)")
            except Out:
                pass
        elif k == "run_away":
            if d and d["player"] == p:
                self.run_away(p, None, shout=False)
            elif g["active"] == p and g["table"][p]["from"]:
                came = g["table"][p]["from"]
                self.enter(p, came, "runs")
        elif k in ("cancel", "none"):
            return

    def move_back(self, q: str, steps: int, src: str) -> None:
        g = self.g
        t = g["table"][q]
        moved = []
        for _ in range(max(0, steps)):
            at = t["at"]
            if at == E.HOME:
                break
            if at.startswith("av"):
                options = [a for a in E.TOP]
            else:
                options = list(E.below(at))
            known = [a for a in options if self.explored(q, a)]
            if not known:
                break
            t["at"], t["from"] = known[0], None
            moved.append(known[0])
        if moved:
            d = g["dispute"]
            if d and d["player"] == q:
                g["dispute"] = None
            g["arrival"] = None
            self.say(f"{src}: {q}'s Round Table is driven back {self.to(moved[-1])}.",
                     kind="move", player=q, area=moved[-1])
        elif self.edition >= 3 and t["at"] == E.HOME:      # not "no explored area below"
            self.say(f"{src}: {q}'s Round Table is at home and cannot be driven back further.")
        else:
            self.say(f"{src}: {q}'s Round Table cannot be driven back (no explored area below).")

    def reveal_remote(self, p: str, target: dict, src: str) -> None:
        g = self.g
        wanted = target.get("area")
        side = target.get("side")
        them = self.victim(p, target) if self.multi else self.other(p)
        owners = [p, them] if side != "their" else [them]
        if side == "my":
            owners = [p]
        for q in owners:
            names = [wanted] if wanted else list(E.AREAS)
            for name in names:
                if name is None or name == E.HOME:
                    continue
                a = self.area(q, name)
                if a["card"] is not None and not a["up"]:
                    if g["table"][q]["at"] == name:
                        continue
                    if self.edition >= 4:       # case 144: as a card turned up, no explorer
                        self.turn_up_remote(q, name, src)
                        return
                    a["up"] = True
                    inst = a["card"]
                    t = self.ctype(inst)
                    if t in HOSTILE or t in CHARACTERS:
                        a["card"] = None
                        a["foes"].append(inst)
                    self.say(f"{src}: {self.n(inst)} is turned up in {name} of "
                             f"{'Avalon' if name.startswith('av') else q + chr(39) + 's England'}"
                             " without anyone entering.", kind="reveal", card=inst, area=name)
                    return
        self.say(f"{src}: there is no face-down area to turn up there.")

    def turn_up_remote(self, q: str, name: str, src: str) -> None:
        """Rules edition 4: the card of area ``name`` (of ``q``'s England, or of Avalon) turned
        up by ``src`` with nobody entering (cases 144-155). It is handled as a card a Round
        Table turns up (``reveal``), less what needs someone there: nobody explores it, so no
        secondary property works and nobody is asked about a primary property (FAQ 1), and
        nobody invites a knight or persona. A duplicate goes to the dead cart and is replaced
        face down (FAQ 8); an adversary, peril, knight or persona stands there as a foe (7.1); a
        land, castle or village stays face up, met by whoever enters later; any other card that
        is not permanent goes to its owner's dead cart, leaving open land (FAQ 3)."""
        a = self.area(q, name)
        inst = a["card"]
        a["up"] = True
        card = self.card(inst)
        t = type_of(card)
        where = "Avalon" if name.startswith("av") else f"{q}'s England"
        self.say(f"{src}: {card.name} is turned up in {name} of {where} without anyone "
                 "entering.", kind="reveal", card=inst, area=name)
        if self.duplicate(q, name, inst, remote=True):
            return
        if t in CHARACTERS or t in HOSTILE:
            a["card"] = None
            a["foes"].append(inst)
            self.say(f"{card.name} stands in {name} as "
                     + ("an adversary: no Round Table is there to invite it, and the one that "
                        "enters must face it (7.1)." if t in CHARACTERS else
                        "a foe: the Round Table that enters must face it (7.1)."),
                     kind="reveal", card=inst, area=name)
            return
        if t in AREA_TYPES or card.permanent:
            why = ""
            if t not in AREA_TYPES:         # a Write Yer Own item or the like, permanent
                why = "; no Round Table turned it up, so it does nothing (FAQ 1)"
            elif any(ekey(e) != "none" for e in card.secondary or ()):
                why = ("; its secondary property works only for a Round Table that turns it "
                       "up, so that does nothing (FAQ 1)")
            self.say(f"{card.name} stays face up in {name}{why}.", kind="reveal", card=inst,
                     area=name)
            return
        a["card"] = None
        self.kill(inst)
        self.say(f"{card.name} does nothing, since no Round Table turned it up (FAQ 1): it goes "
                 f"to {self.owner(inst)}'s dead cart, and {name} is open land (FAQ 3).",
                 kind="dead", card=inst)

    # ------------------------------------------------------------------------------ end phase
    def end_phase(self, p: str) -> None:
        g = self.g
        limit = int(self.options.get("hand-limit", 7) or 7)
        hand = g["hands"][p]
        if len(hand) <= limit:
            return
        excess = len(hand) - limit
        chosen = self.decide(p, "discard", lambda: self.resolve_discard(p, excess))
        gone = []
        for cid in chosen:
            inst = self.instance(p, cid, hand)
            if inst is not None and len(gone) < excess:
                hand.remove(inst)
                gone.append(inst)
        while len(gone) < excess:
            gone.append(hand.pop())
        for inst in gone:
            self.kill(inst)
        self.say(f"{p} discards {_count(len(gone))} down to the hand limit of {limit}.",
                 kind="discard", player=p)
        self.say(f"You discarded {self.names(gone)}.", to=[p], kind="discarded", cards=gone)

    def resolve_discard(self, p: str, excess: int):
        g = self.g
        cur = self.cursors.get(p)
        wanted: list[str] = []
        if cur:
            for i, entry in enumerate(cur["lines"]):
                if entry["kind"] == "discard" and not cur["used"][i]:
                    cur["used"][i] = True
                    wanted += entry["cards"]
        hand = list(g["hands"][p])
        out = []
        for cid in wanted:
            inst = self.instance(p, cid, [h for h in hand if h not in out])
            if inst is not None and len(out) < excess:
                out.append(inst)
        if len(out) == excess:
            return [g["cards"][x] for x in out], "orders"
        if self.waits() and not wanted:
            lines = [f"discard {self.n(x)}" for x in hand]
            raise self.pause(p, "discard", f"Your hand is over the limit: discard "
                             f"{_count(excess)}.", _unique(lines) if self.edition >= 2 else lines)
        rest = [h for h in reversed(hand) if h not in out][:excess - len(out)]
        return [g["cards"][x] for x in out + rest], "default" if not wanted else "orders"

    # ------------------------------------------------------------------------------ the ante
    def doubling(self, p: str) -> None:
        g = self.g
        if self.options.get("doubling", "on") != "on" or self.defeated():
            return
        cur = self.cursors.get(p)
        asked = cur and any(e["kind"] == "double" and not u
                            for e, u in zip(cur["lines"], cur["used"]))
        wants = self.decide(p, "double", lambda: (bool(asked), "orders" if asked else "default"))
        if not wants:
            return
        ante = g["ante"]
        if self.multi:
            self.doubling_multi(p)
            return
        if ante["last"] == p:
            self.say(f"{p} may not double the ante again before {self.other(p)} has doubled it "
                     "(16.2).", to=[p], kind="skipped")
            return
        o = self.other(p)
        self.say(f"{p} doubles the ante (16.2).", kind="double", player=p)
        answer = self.decide(o, "accept", lambda: self.answer(
            o, "double", ("accept", "concede"), f"{p} doubles the ante: accept or concede "
            "(16.2)?", "accept"))
        if answer == "concede":
            g["result"] = {"winner": p, "loser": o, "draw": False,
                           "reason": f"{o} concedes when {p} doubles the ante", "ante": p}
            g["stage"] = "over"
            self.say(f"{o} concedes the game: {p} wins and takes the ante (16.2, house rule).",
                     kind="concede", player=o)
            raise Over()
        ante["last"] = p
        ante["doubled"].append(p)
        share = ante["share"]
        ante["share"] = share * 2
        for q in [p, o]:
            for _ in range(share):
                ante["cards"][q].append(self.from_deck(q, "doubling the ante"))
        self.say(f"{o} accepts: each player adds {_count(share)} from the top of the deck; "
                 f"each now has {ante['share']} in the ante (16.2).", kind="double")

    def doubling_multi(self, p: str) -> None:
        """16.2 with three or more players: every other player still in, in seat order from
        ``p``'s left, accepts or concedes. A player who concedes leaves the game and their ante
        is forfeit to ``p`` (``g["forfeits"]``); if all concede, ``p`` wins and takes the whole
        ante. Those who accept (and
        ``p``) each double their share. ``p`` may double again only after every other player
        still in has doubled since."""
        g = self.g
        ante = g["ante"]
        if not may_double(g, p):
            waiting = [q for q in self.seats_from(p) if q not in _since(ante["doubled"], p)]
            self.say(f"{p} may not double the ante again before {_and(waiting)} "
                     f"{'has' if len(waiting) == 1 else 'have'} doubled it (16.2).", to=[p],
                     kind="skipped")
            return
        self.say(f"{p} doubles the ante (16.2).", kind="double", player=p)
        staying = [p]
        for q in self.seats_from(p):
            answer = self.decide(q, "accept", lambda: self.answer(
                q, "double", ("accept", "concede"), f"{p} doubles the ante: accept or concede "
                "(16.2)?", "accept"))
            if answer == "concede":
                g.setdefault("forfeits", {})[q] = p
                self.say(f"{q} concedes rather than double: {q}'s ante "
                         f"({_count(len(ante['cards'][q]))}) is forfeit to {p}, who takes it "
                         "when the game ends (16.2, house rule).", kind="concede", player=q)
                if len(self.live()) > 2:
                    self.knock_out(q, "conceded the doubled ante")
                    continue
                g["out"].append(q)
                g["result"] = {"winner": p, "loser": q, "draw": False,
                               "reason": f"every other player has left; {q} concedes last when "
                                         f"{p} doubles the ante", "ante": p}
                g["stage"] = "over"
                self.say(f"{q} concedes the game: {p} is the last player left, wins and takes "
                         "the whole ante (16.2, 16.3, house rule).", kind="concede", player=q)
                raise Over()
            staying.append(q)
        ante["last"] = p
        ante["doubled"].append(p)
        share = ante["share"]
        ante["share"] = share * 2
        for q in [x for x in self.g["players"] if x in staying]:
            try:
                for _ in range(share):
                    ante["cards"][q].append(self.from_deck(q, "doubling the ante"))
            except Out:
                continue
        self.say(f"{_and([q for q in staying if q != p])} accept: each player still in adds "
                 f"{_count(share)} from the top of the deck; each now has {ante['share']} in "
                 "the ante (16.2).", kind="double")

    def answer(self, q: str, kind: str, choices: tuple[str, ...], prompt: str, default: str):
        """An answer of ``q``: their answer lines, their standing order, a pause or the
        default."""
        found = self.next_unused(q, choices, first_only=False)
        if found:
            self.take(q, found[0])
            return found[1]["kind"], "orders"
        found = self.next_unused(q, ("reveal",), first_only=False) if kind == "reveal" else None
        if found:
            line = self.take(q, found[0])
            return line["value"], "orders"
        value = self.standing.get(q, {}).get(kind)
        if value in choices:
            return value, "standing"
        if self.waits_for(q):
            raise self.pause(q, kind, prompt, [("reveal " + c) if kind == "reveal" else c
                                               for c in choices])
        return default, "default"


def _since(history: list[str], p: str) -> list[str]:
    """Who has doubled since ``p`` last did (everyone in ``history`` if ``p`` never did)."""
    if p not in history:
        return list(history)
    i = len(history) - 1 - history[::-1].index(p)
    return history[i + 1:]


def may_double(g: dict[str, Any], p: str) -> bool:
    """16.2: a player may not double again until all other players have doubled since. With two
    players: not twice in a row."""
    ante = g["ante"]
    if len(g["players"]) <= 2:
        return ante["last"] != p
    if p not in ante["doubled"]:
        return True
    gone = set(g.get("out") or ()) | set(g.get("defeated") or ())
    since = _since(ante["doubled"], p)
    return all(q in since for q in g["players"] if q != p and q not in gone)


TURN_KINDS = ("play", "give", "pass", "use", "move", "lead", "fight", "outwit", "run", "consult",
              "assault", "outside", "search", "giveup", "decline", "assign", "end")


# ---------------------------------------------------------------------------------- helpers
def _count(n: int) -> str:
    return f"{n} card" if n == 1 else f"{n} cards"


def _or(items: list[str]) -> str:
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " or " + items[-1]


def _and(items: list[str]) -> str:
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


def _unique(items: list) -> list:
    out = []
    for x in items:
        if x not in out:
            out.append(x)
    return out


def answer_text(answer: Any) -> str:
    if answer is None:
        return "nothing"
    if isinstance(answer, dict):
        return answer.get("text") or " ".join(str(v) for k, v in answer.items() if k != "line")
    if isinstance(answer, list):
        return ", ".join(str(a) for a in answer) or "nothing"
    return str(answer)
