"""The Holy Grail CCG card set: editable TOML data, validated with located errors, the effect
vocabulary the engine interprets, and deck lists checked against the deck-construction rules.

``load_cards()`` reads ``companion/grailccg/data`` (or an edited copy) and returns a
:class:`CardSet`; ``load_user_cards(path)`` adds a file of Write Yer Own cards (12.1) to it.
``load_deck(name_or_path)`` reads a deck list (``3 Vicious Chicken of Bristol`` per line) and
:meth:`Deck.check` applies the house rules of deck construction. Every problem is reported with
file, line and column and all problems of a file are raised together (``DataErrors``).

The formats are documented for users in ``docs/grailccg-cards.md``. Nothing here is loaded at
import time: the shipped set and decks are read on first use and cached.
"""
from __future__ import annotations

import difflib
import re
from dataclasses import field
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, Iterable, Iterator

from companion.engine.names import fold, match_name, slugify
from companion.engine.record import record
from companion.errors import DataError, DataErrors

if TYPE_CHECKING:       # imported where a file is parsed: the shipped set comes from the cache
    from companion.engine.datafiles import DataFile

DATA_DIR = Path(__file__).resolve().parent / "data"
DECKS_DIR = DATA_DIR / "decks"
FILES = ("characters.toml", "foes.toml", "places.toml", "items.toml", "events.toml",
         "words.toml")
"""The shipped data files, read in this order (any file may hold cards of any type)."""

TYPES: dict[str, str] = {
    "knight": "Knight",
    "page": "Page",
    "persona": "Persona",
    "adversary": "Adversary",
    "land": "Land",
    "castle": "Castle",
    "village": "Village",
    "item": "Item",
    "peril": "Peril",
    "song": "Song",
    "event": "Event",
    "taunt": "Taunt",
    "questions-three": "Questions Three",
}
"""The 13 card types, id -> display name, in the order of the rules' list."""


def a_type(ctype: str) -> str:
    """'a knight', 'an item': a card type in lower case with its article, for messages."""
    kind = TYPES[ctype].lower()
    return f"{'an' if kind[0] in 'aeiou' else 'a'} {kind}"

CHARACTERS = ("knight", "page", "persona", "adversary", "peril")
FIGHTERS = ("knight", "persona", "adversary", "peril")          # may have combat and wits
ICON_TYPES = ("knight", "page", "persona", "adversary")
PLACES = ("land", "castle", "village")
ONE_SHOT = ("event", "song", "taunt", "questions-three")
OCCUPANT_TYPES = ("knight", "persona", "adversary")
ICONS = {"sword": "may fight, i.e. be the lead knight of a dispute (7.1-7.3)",
         "castle": "may occupy a castle (8.1)"}
GRAIL_MIN, GRAIL_MAX = 1, 7
STAT_MAX = 12
DEFAULT_LIMIT = 4

# -- the effect vocabulary ---------------------------------------------------------------------

WHEN: dict[str, str] = {
    "turn": "on your own turn, in your action phase",
    "dispute": "while a dispute involving your Round Table or your adversary is open, before "
               "any grail number is drawn for it (13.1)",
    "grail": "before a grail number is drawn (13.1)",
    "invite": "before anyone makes a Round Table draw, by either player (13.4)",
    "response": "straight after another card is played, by either player (13.2, 13.4)",
    "any": "at any time",
    "found": "only as a secondary property: when the card is turned up while exploring",
}


@record(frozen=True)
class EffectSpec:
    """One word of the effect language: what it takes and what it means.

    ``amount``: None (no number), ``"count"`` (a whole number 1-7 written without a sign) or
    ``"signed"`` (``+N`` or ``-N``, N from 1 to 7). ``targets``: the target words it takes
    (exactly one must be written), or () for none. ``when``: a key of :data:`WHEN`, for every
    target not in ``target_when``; ``target_when``: (target, key of :data:`WHEN`) for a target
    played at another time (``slay knight``: in your own turn, as the engine allows, not only
    in a dispute as ``slay adversary``). :meth:`when_for` reads both.
    """

    name: str
    amount: str | None
    targets: tuple[str, ...]
    when: str
    meaning: str
    target_when: tuple[tuple[str, str], ...] = ()

    def when_for(self, target: str | None = None) -> str:
        """When the effect may be used, for ``target`` (a key of :data:`WHEN`)."""
        return dict(self.target_when).get(target, self.when)

    @property
    def params(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        if self.amount:
            out["amount"] = "int 1-7" if self.amount == "count" else "signed int +N/-N, N 1-7"
        if self.targets:
            out["target"] = self.targets
        return out

    @property
    def form(self) -> str:
        if self.amount == "count":
            return f"{self.name} N"
        if self.amount == "signed":
            return f"{self.name} +N|-N"
        if self.targets:
            return f"{self.name} {'|'.join(self.targets)}"
        return self.name


def _spec(name, amount, targets, when, meaning, **target_when) -> tuple[str, EffectSpec]:
    return name, EffectSpec(name, amount, tuple(targets), when, meaning,
                            tuple(target_when.items()))


EFFECTS: dict[str, EffectSpec] = dict([
    _spec("draw", "count", (), "turn", "you draw N cards"),
    _spec("opponent-discards", "count", (), "turn",
          "your opponent discards N cards picked at random from their hand"),
    _spec("combat", "signed", (), "dispute",
          "+N: your side gains N combat in the current dispute; -N: the other side loses N"),
    _spec("wits", "signed", (), "dispute",
          "+N: your side gains N wits in the current dispute; -N: the other side loses N"),
    _spec("grail", "signed", (), "grail",
          "+N: add N to the next grail number you draw, whenever it comes (a dispute, a castle "
          "table, a search); -N: take N from your opponent's next one"),
    _spec("auto-join", None, (), "invite",
          "the next Round Table draw you make this turn succeeds without drawing"),
    _spec("no-join", None, (), "invite",
          "no knight or persona turned up joins any Round Table (no Round Table draw succeeds) "
          "until the end of the next turn; one played from hand still joins"),
    _spec("slay", None, ("adversary", "knight"), "dispute",
          "adversary: the adversary or peril of the current dispute is slain; knight: a knight "
          "of your opponent's Round Table other than Arthur is slain, at any time in your own "
          "turn: the one you name when you play the card, else the strongest", knight="turn"),
    _spec("return-to-hand", None, (), "dispute",
          "the adversary or peril of the current dispute goes back to its owner's hand; its "
          "area is left empty"),
    _spec("skip-draw", None, (), "turn", "your opponent misses their next draw phase"),
    _spec("extra-move", None, (), "turn", "your Round Table may move one more area this turn"),
    _spec("move-back", "count", (), "turn",
          "your opponent's Round Table is pushed N areas down (towards its Round Table area)"),
    _spec("peek", "count", (), "any",
          "look at the top N cards of your own deck and put them back in the same order"),
    _spec("reveal", None, ("area",), "turn",
          "turn up one face-down area of either England without entering it"),
    _spec("cancel", None, (), "response",
          "the card played just before this one has no effect (13.4); both go to the dead cart"),
    _spec("shuffle-dead-cart", None, (), "turn", "shuffle your dead cart into your deck"),
    _spec("lose-game", None, (), "turn", "your opponent loses the game at once (15.2)"),
    _spec("run-away", None, (), "dispute",
          "your Round Table runs away from the current dispute (7.6) without the shout"),
    _spec("revive", None, (), "turn",
          "put one knight or page from your dead cart back into your Round Table (added by the "
          "card set)"),
    _spec("join", None, (), "found",
          "the card joins the Round Table of the player who turned it up, with no Round Table "
          "draw (added by the card set; pages and personas only)"),
    _spec("none", None, (), "any", "nothing happens"),
])
"""Effect name -> spec. In a card file an effect is written as a string: ``"draw 2"``,
``"combat +2"``, ``"wits -1"``, ``"slay adversary"``, ``"none"``."""

EFFECT_VOICE = {
    "primary": "the player who plays the card from hand",
    "secondary": "the player who turned the card up while exploring",
    "outwits": "the owner of the adversary (the opponent of the Round Table it outwitted)",
}
"""Who "you" is when the effects of each property are read."""


@record(frozen=True)
class Effect:
    """One effect of a card as read from its text (``"combat +2"``: name, amount, target, and
    the text in canonical form)."""

    name: str
    amount: int | None = None
    target: str | None = None
    text: str = ""

    @property
    def spec(self) -> EffectSpec:
        return EFFECTS[self.name]

    def __str__(self) -> str:
        return self.text


class EffectError(DataError):
    """An effect string that is not in the vocabulary; ``offset`` is the 0-based position of
    the bad word inside the string."""

    def __init__(self, message: str, *, offset: int = 0, hint: str | None = None, **where):
        super().__init__(message, hint=hint, **where)
        self.offset = offset


def _suggest(word: str, choices: Iterable[str], cutoff: float = 0.5) -> str | None:
    close = difflib.get_close_matches(str(word), [str(c) for c in choices], n=1, cutoff=cutoff)
    return f"did you mean '{close[0]}'?" if close else None


def _parse_words(text: str, table: dict[str, EffectSpec], what: str) -> Effect:
    if not isinstance(text, str):
        raise EffectError(f"{what} must be text like \"draw 2\", not {text!r}")
    words = text.split()
    if not words:
        raise EffectError(f"empty {what}", hint=f"write one of: {', '.join(table)}")
    name = words[0].lower()
    offset = text.find(words[0])
    if name not in table:
        hint = _suggest(name, table) or _suggest(text.strip().lower(),
                                                  [s.form for s in table.values()])
        raise EffectError(f"unknown {what} '{words[0]}'", offset=offset,
                          hint=hint or f"known: {', '.join(table)}")
    spec = table[name]
    rest = words[1:]
    amount = target = None
    if spec.amount or spec.targets:
        if not rest:
            raise EffectError(f"{what} '{name}' needs {_needs(spec)}", offset=len(text.rstrip()),
                              hint=f"write it as '{spec.form}'")
        arg = rest[0]
        arg_at = text.find(arg, offset + len(words[0]))
        if spec.amount:
            m = re.fullmatch(r"([+-]?)(\d+)", arg)
            if not m:
                raise EffectError(f"{what} '{name}' needs {_needs(spec)}, not '{arg}'",
                                  offset=arg_at, hint=f"write it as '{spec.form}'")
            sign, digits = m.groups()
            n = int(digits)
            if spec.amount == "signed" and not sign:
                raise EffectError(f"{what} '{name}' needs a sign: '+{n}' for your side or "
                                  f"'-{n}' against the other", offset=arg_at,
                                  hint=f"write '{name} +{n}'")
            if spec.amount == "count" and sign:
                raise EffectError(f"{what} '{name}' takes a plain number, not '{arg}'",
                                  offset=arg_at, hint=f"write '{name} {n}'")
            if not 1 <= n <= 7:
                raise EffectError(f"{what} '{name}': the number must be from 1 to 7, not {n}",
                                  offset=arg_at)
            amount = -n if sign == "-" else n
        else:
            t = arg.lower()
            if t not in spec.targets:
                raise EffectError(f"{what} '{name}' cannot take '{arg}'", offset=arg_at,
                                  hint=_suggest(t, spec.targets)
                                  or f"write one of: {', '.join(spec.targets)}")
            target = t
        extra = rest[1:]
    else:
        extra = rest
    if extra:
        at = text.find(extra[0], offset + len(words[0]))
        more = "; several effects are written as a list" if what == "effect" else ""
        raise EffectError(f"{what} '{name}': unexpected '{' '.join(extra)}'", offset=at,
                          hint=f"write it as '{spec.form}'{more}")
    canon = name
    if amount is not None:
        canon += f" {amount:+d}" if spec.amount == "signed" else f" {amount}"
    if target:
        canon += f" {target}"
    return Effect(name, amount, target, canon)


def _needs(spec: EffectSpec) -> str:
    if spec.amount == "count":
        return "a number from 1 to 7"
    if spec.amount == "signed":
        return "a signed number such as +1 or -2"
    return "a target: " + " or ".join(spec.targets)


def parse_effect(text: str) -> Effect:
    """Parse one effect string (``"combat +2"``); raise :class:`EffectError` (a DataError with
    the offset of the bad word and a suggestion) for anything outside :data:`EFFECTS`."""
    return _parse_words(text, EFFECTS, "effect")


# -- castle and village tables -----------------------------------------------------------------

CASTLE_RESULTS: dict[str, str] = {
    "pass": "passage granted: the Round Table may move on past the castle",
    "pass-draw-1": "passage granted, and the player draws 1 card",
    "wait": "no passage this turn: consult again next turn, assault (8.3) or run away (7.6)",
    "lose-a-page": "no passage, and one page of the Round Table (owner's pick) is sent to the "
                   "dead cart",
    "run-away": "the Round Table must run away at once, as in 7.6",
    "trapped": "the knight who consulted is held in the castle: out of the Round Table until "
               "the castle is breached (8.3), then he rejoins",
    "lead-knight-slain": "the knight who consulted is slain and goes to the dead cart",
}
"""Results a castle table may give (8.1). The consulting total is the consulting member's wits
minus the occupant's wits plus two grail numbers."""

VILLAGE_RESULTS: dict[str, EffectSpec] = dict([
    _spec("rest", None, (), "found", "nothing happens; the Round Table stays in the village"),
    _spec("draw", "count", (), "found", "the player draws N cards"),
    _spec("discard", "count", (), "found",
          "the player discards N cards at random from their hand"),
    _spec("grail", "signed", (), "found",
          "the player's next grail number (this turn or the next) is changed by N"),
    _spec("peek", "count", (), "found", "the player looks at the top N cards of their deck"),
    _spec("skip-draw", None, (), "found", "the player misses their next draw phase"),
    _spec("lose-a-page", None, (), "found",
          "one page of the Round Table (the player's pick) goes to the dead cart"),
    _spec("lose-a-knight", None, (), "found",
          "one knight of the Round Table other than Arthur (the player's pick) goes to the dead "
          "cart"),
    _spec("driven-out", None, (), "found",
          "the villagers chase the Round Table out: it retreats as in running away (7.6)"),
])
"""Results a village table may give (9.1), always read for the player who entered."""


def parse_village_result(text: str) -> Effect:
    """Parse a village-table result (``"draw 1"``, ``"lose-a-page"``)."""
    return _parse_words(text, VILLAGE_RESULTS, "village result")


_RANGE = r"^\s*(?:(<=|>=)\s*(-?\d+)|(-?\d+)\s*(?:\.\.\s*(-?\d+))?)\s*:\s*(.*?)\s*$"
"""A row of a castle or village table (a pattern: compiled on first use, by ``re``)."""


# -- cards ---------------------------------------------------------------------------------------

@record(frozen=True)
class Card:
    """One card of the set: the keys of its card table (docs/grailccg-cards.md), validated."""

    id: str
    name: str
    type: str
    grail: int
    combat: int | None = None
    wits: int | None = None
    icons: tuple[str, ...] = ()
    permanent: bool = False
    primary: tuple[Effect, ...] = ()
    primary_text: str = ""
    secondary: tuple[Effect, ...] = ()
    secondary_text: str = ""
    defence: int | None = None
    castle_table: tuple[tuple[int | None, int | None, str], ...] = ()
    village_table: tuple[tuple[int, str], ...] = ()
    capacity: int | None = None
    draws: int = 0
    occupant: str | None = None
    flavour: str = ""
    # additions to the brief's API
    outwits: tuple[Effect, ...] = ()
    """What befalls a Round Table this adversary beats in a battle of wits (7.4); empty: the
    knights may not enter its area this turn."""
    outwits_text: str = ""
    limit: int | None = DEFAULT_LIMIT
    """Most copies a deck may hold (None: any number)."""
    custom: bool = False
    """A Write Yer Own card (12.1) from a user's file."""

    @property
    def type_name(self) -> str:
        return TYPES[self.type]

    def castle_result(self, total: int) -> str:
        """The castle table's result for a consulting total (8.1)."""
        for low, high, result in self.castle_table:
            if (low is None or total >= low) and (high is None or total <= high):
                return result
        raise ValueError(f"{self.name} has no castle table row for {total}")

    def village_result(self, grail: int) -> str:
        """The village table's result for a grail number 1-7 (9.1)."""
        return dict(self.village_table)[grail]

    def has_icon(self, icon: str) -> bool:
        return icon in self.icons


KEYS_COMMON = ("name", "grail", "primary", "primary_text", "secondary", "secondary_text",
               "flavour", "limit", "permanent")
KEYS_BY_TYPE: dict[str, tuple[str, ...]] = {
    "knight": ("combat", "wits", "icons", "outwits", "outwits_text"),
    "page": ("icons", "capacity"),
    "persona": ("combat", "wits", "icons", "outwits", "outwits_text"),
    "adversary": ("combat", "wits", "icons", "outwits", "outwits_text"),
    "peril": ("combat", "wits", "outwits", "outwits_text"),
    "land": ("draws",),
    "castle": ("defence", "table", "draws", "occupant"),
    "village": ("table",),
    "item": (), "song": (), "event": (), "taunt": (), "questions-three": (),
}
WHERE_KEY = {"combat": "knights, personas, adversaries and perils",
             "wits": "knights, personas, adversaries and perils",
             "icons": "knights, pages, personas and adversaries",
             "outwits": "knights, personas, adversaries and perils",
             "outwits_text": "knights, personas, adversaries and perils",
             "capacity": "pages", "defence": "castles", "table": "castles and villages",
             "draws": "lands and castles", "occupant": "castles"}

TYPE_PLAY: dict[str, str] = {
    "knight": "Joins your Round Table.",
    "page": "Joins your Round Table, serving one of your knights.",
    "persona": "Joins your Round Table.",
    "adversary": "Lay it on an area of your opponent's England or in Avalon.",
    "peril": "Lay it on an area of your opponent's England or in Avalon.",
    "land": "Lay it on an area of your opponent's England or in Avalon; it stays there.",
    "castle": "Lay it on an area of your opponent's England or in Avalon; it stays there.",
    "village": "Lay it on an area of your opponent's England or in Avalon; it stays there.",
    "item": "Give it to one of your pages; it can be used from your next turn.",
    "song": "Sing it in a dispute, then into the dead cart.",
    "event": "Play it, then into the dead cart.",
    "taunt": "Shout it in a dispute, then into the dead cart.",
    "questions-three": "Ask it in a battle of wits against an adversary with wits, then into "
                       "the dead cart.",
}
"""What each type does when played from hand (the house rules of section 4), for print."""


def _cards(n: int) -> str:
    return f"{n} card" if n == 1 else f"{n} cards"


def _areas(n: int) -> str:
    return f"{n} area" if n == 1 else f"{n} areas"


def effect_phrase(e: Effect) -> str:
    """One sentence in our words for an effect (for printed cards)."""
    n = e.amount
    if e.name == "draw":
        return f"Draw {_cards(n)}."
    if e.name == "opponent-discards":
        return f"Your opponent discards {_cards(n)} at random from hand."
    if e.name in ("combat", "wits"):
        if n > 0:
            return f"Your side gets +{n} {e.name} in this dispute."
        return f"The other side gets {n} {e.name} in this dispute."
    if e.name == "grail":
        if n > 0:
            return f"Add {n} to the next grail number you draw."
        return f"Take {-n} from the next grail number your opponent draws."
    if e.name == "auto-join":
        return "The next character you invite this turn joins without a Round Table draw."
    if e.name == "no-join":
        return ("No knight or persona turned up joins any Round Table until the end of next "
                "turn.")
    if e.name == "slay":
        if e.target == "adversary":
            return "The adversary or peril you face is slain."
        return ("Slay the strongest knight of your opponent's Round Table other than Arthur "
                "(or, played from hand, the one you name).")
    if e.name == "return-to-hand":
        return "The adversary or peril in this dispute goes back to its owner's hand."
    if e.name == "skip-draw":
        return "Your opponent misses their next draw phase."
    if e.name == "extra-move":
        return "Your Round Table may move one extra area this turn."
    if e.name == "move-back":
        return f"Push your opponent's Round Table {_areas(n)} back down."
    if e.name == "peek":
        return f"Look at the top {_cards(n)} of your deck, then put them back in order."
    if e.name == "reveal":
        return "Turn up a face-down area of either England without going there."
    if e.name == "cancel":
        return "Cancels the card played just before this one."
    if e.name == "shuffle-dead-cart":
        return "Shuffle your dead cart into your deck."
    if e.name == "lose-game":
        return "Your opponent's game ends: they lose."
    if e.name == "run-away":
        return "Your Round Table runs away from this dispute; no shouting needed."
    if e.name == "revive":
        return "Bring a knight or page back from your dead cart into your Round Table."
    if e.name == "join":
        return "Joins the Round Table of whoever turned it up."
    if e.name == "none":
        return ""
    raise ValueError(e.name)


def effects_text(effects: Iterable[Effect]) -> str:
    return " ".join(p for p in (effect_phrase(e) for e in effects) if p)


def item_text(card) -> tuple[str, str]:
    """An item's primary property as a label and a sentence (11.1): an item is never "played"
    for its effect. One that only changes combat or wits is *carried*: it counts in every
    dispute led by the knight its page serves (any lead, if the page serves nobody); any
    other is *used* once with 'use', from the turn after it was given, then goes to the dead
    cart. A Write Yer Own text (``primary_text`` set by hand) is kept as written."""
    effects = list(card.primary or ())
    text = card.primary_text
    if not effects or any(e.name not in ("combat", "wits") for e in effects):
        return "Used", (text + " " if text else "") + "Once, then into the dead cart."
    if text != effects_text(effects):
        return "Carried", text
    parts = []
    for e in effects:
        n = e.amount or 0
        parts.append(f"+{n} {e.name}" if n > 0 else f"{n} {e.name} for the adversary")
    return "Carried", (" and ".join(parts) + " in each dispute led by the knight its page "
                       "serves (any lead, if the page serves nobody).")


# -- the card set --------------------------------------------------------------------------------

class UnknownCard(DataError, KeyError):
    """A card id or name that is not in the set (with a suggestion)."""

    def __str__(self) -> str:
        return self.message


@record
class CardSet:
    """The cards a game is played with (the shipped set, with a game's Write Yer Own cards),
    found by id or by a typed name."""

    cards: list[Card]
    folder: Path | None = None
    _by_id: dict[str, Card] = field(default_factory=dict, repr=False)

    def __post_init__(self) -> None:
        self._by_id = {c.id: c for c in self.cards}
        self._exact: dict[str, Card] = {}           # the first card of each name
        for c in self.cards:
            self._exact.setdefault(c.name, c)
        self._names = [c.name for c in self.cards]
        self._aliases: dict[str, str] | None = None

    @property
    def ids(self) -> list[str]:
        return [c.id for c in self.cards]

    def __iter__(self) -> Iterator[Card]:
        return iter(self.cards)

    def __len__(self) -> int:
        return len(self.cards)

    def __contains__(self, card_id: object) -> bool:
        return card_id in self._by_id

    def __getitem__(self, card_id: str) -> Card:
        return self.get(card_id)

    def get(self, card_id: str) -> Card:
        """The card with this id; raise :class:`UnknownCard` with a suggestion."""
        try:
            return self._by_id[card_id]
        except (KeyError, TypeError):
            raise UnknownCard(f"no card with the id '{card_id}'",
                              hint=_suggest(str(card_id), self._by_id)) from None

    def of(self, *types: str) -> list[Card]:
        return [c for c in self.cards if c.type in types]

    def aliases(self) -> dict[str, str]:
        """Other spellings of names: ids, 'Sir X' for knights, 'King Arthur' (made once per
        card set: callers only read it)."""
        if self._aliases is not None:
            return self._aliases
        out: dict[str, str] = {}
        for c in self.cards:
            out.setdefault(c.id, c.name)
            if c.type == "knight" and "sir" not in fold(c.name).split():
                out.setdefault(f"Sir {c.name}", c.name)
        if "arthur" in self._by_id:
            out.setdefault("King Arthur", self._by_id["arthur"].name)
        self._aliases = out
        return out

    def lookup(self, name: str):
        """A :class:`companion.engine.names.Match` of a typed name (case, accents,
        hyphens and apostrophes ignored; ids and 'Sir ...' accepted; unique prefixes allowed)."""
        return match_name(name, self._names, self.aliases())

    def by_name(self, name: str) -> Card:
        """The card a typed name means; raise :class:`UnknownCard` naming the candidates or
        the closest names."""
        m = self.lookup(name)
        if m.ok:
            return self._by_name_exact(m.name)
        if m.candidates:
            raise UnknownCard(f"'{name}' could be several cards",
                              hint="one of: " + ", ".join(m.candidates))
        hint = None
        if m.suggestions:
            hint = "did you mean " + " or ".join(f"'{s}'" for s in m.suggestions) + "?"
        raise UnknownCard(f"no card called '{name}'", hint=hint)

    def _by_name_exact(self, name: str) -> Card:
        try:
            return self._exact[name]
        except KeyError:
            raise UnknownCard(f"no card called '{name}'") from None

    def name(self, card_id: str) -> str:
        return self.get(card_id).name

    def with_cards(self, extra: Iterable[Card]) -> "CardSet":
        return CardSet(self.cards + list(extra), self.folder)


# -- loading ------------------------------------------------------------------------------------

_HEADER = r"^\s*\[\[\s*(\"[^\"]*\"|'[^']*'|[A-Za-z0-9_-]+)\s*\]\]"
"""The header of a card table (a pattern: compiled on first use, by ``re``)."""


class _Source:
    """A DataFile with the line span of each ``[[type]]`` entry, for precise locations."""

    def __init__(self, df: DataFile):
        self.df = df
        self.lines = df.text.splitlines()
        self.spans: dict[tuple[str, int], tuple[int, int]] = {}
        heads = []
        for i, line in enumerate(self.lines):
            m = re.match(_HEADER, line)
            if m:
                heads.append((m.group(1).strip("\"'"), i))
        count: dict[str, int] = {}
        for n, (t, i) in enumerate(heads):
            end = heads[n + 1][1] if n + 1 < len(heads) else len(self.lines)
            k = count.get(t, 0)
            count[t] = k + 1
            self.spans[(t, k)] = (i, end)

    def locate(self, span: tuple[int, int] | None,
               needles: Iterable[str]) -> tuple[int | None, int | None]:
        needles = [n for n in needles if n]
        if span is not None:
            start, end = span
            for needle in needles:
                for form in (f'"{needle}"', f"{needle} =", f"{needle}=", needle):
                    for i in range(start, end):
                        line = self.lines[i]
                        col = line.find(form)
                        if col >= 0 and not line.lstrip().startswith("#"):
                            return i + 1, col + 1
            return start + 1, 1 + (len(self.lines[start]) - len(self.lines[start].lstrip()))
        if not self.lines:
            return None, None
        return self.df.locate(*needles)


class _Checker:
    def __init__(self, stored: bool = False) -> None:
        self.errors: list[DataError] = []
        self.stored = stored
        """Reading the cards a game keeps (``parse_user_cards(stored=True)``): checks added
        after a game began may not refuse it; each such check says so."""

    def error(self, src: _Source, span, message: str, *needles: str, hint: str | None = None,
              offset: int | None = None) -> None:
        """Record an error at the first needle found in the card's lines. With ``offset``, the
        first needle is a string value and the column points ``offset`` characters into it."""
        line, col = src.locate(span, needles)
        if offset is not None and needles and line is not None:
            text = src.lines[line - 1]
            at = text.find(f'"{needles[0]}"')
            if at >= 0:
                col = at + 2 + offset
        self.errors.append(DataError(message, path=src.df.path, line=line, column=col, hint=hint))

    def raise_if_errors(self) -> None:
        if self.errors:
            unique = list(dict.fromkeys(self.errors))
            raise unique[0] if len(unique) == 1 else DataErrors(unique)


def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _one_line(ck, src, span, where, entry, key) -> str:
    value = entry.get(key, "")
    if not isinstance(value, str):
        ck.error(src, span, f"{where}: '{key}' must be text, not {type(value).__name__}", key)
        return ""
    value = value.strip()
    if "\n" in value or len(value) > 300:
        ck.error(src, span, f"{where}: '{key}' must be one line of at most 300 characters", key)
        return ""
    return value


def _effects(ck, src, span, where, entry, key, ctype) -> tuple[Effect, ...] | None:
    if key not in entry:
        return ()
    raw = entry[key]
    items = raw if isinstance(raw, list) else [raw]
    if not items or not all(isinstance(x, str) for x in items):
        ck.error(src, span, f"{where}: '{key}' must be an effect string or a list of them, e.g. "
                 f"{key} = \"draw 1\" or {key} = [\"combat +1\", \"wits +1\"]", key)
        return None
    out: list[Effect] = []
    ok = True
    for text in items:
        try:
            e = parse_effect(text)
        except EffectError as err:
            ck.error(src, span, f"{where}, {key}: {err.message}", text, key, hint=err.hint,
                     offset=err.offset)
            ok = False
            continue
        if e.name == "join" and (key != "secondary" or ctype not in ("page", "persona")):
            ck.error(src, span, f"{where}: 'join' may only be the secondary property of a page "
                     "or persona", text, key)
            ok = False
            continue
        if key == "secondary" and ctype in ("knight", "persona") and e.name != "join" and \
                not ck.stored:
            # a knight or persona turned up is invited to join (section 5 rebuilt, FAQ 1): no
            # other secondary property of theirs would ever be carried out. Only for a new
            # game's file: a game begun with such a card before this check goes on (the
            # property does nothing, as it always did)
            ck.error(src, span, f"{where}: a {ctype}'s secondary property can only be 'join' "
                     f"(one turned up is invited to join, not played for '{e.name}')", text,
                     key, hint="move the effect to 'primary', or leave 'secondary' out")
            ok = False
            continue
        out.append(e)
    if not ok:
        return None
    if any(e.name == "none" for e in out):
        if len(out) > 1:
            ck.error(src, span, f"{where}: '{key}' lists 'none' with other effects", "none", key,
                     hint="drop 'none'")
            return None
        return ()
    return tuple(out)


def _text_override(ck, src, span, where, entry, key, effects) -> str:
    generated = effects_text(effects or ())
    if key not in entry:
        return generated
    text = _one_line(ck, src, span, where, entry, key)
    if effects:
        numbers = set(re.findall(r"\d+", text))
        for e in effects:
            if e.amount is not None and str(abs(e.amount)) not in numbers:
                ck.error(src, span, f"{where}: '{key}' does not mention the number "
                         f"{abs(e.amount)} of '{e.text}'", key,
                         hint=f"the generated text would be: {generated}")
                break
    return text or generated


def _table_rows(ck, src, span, where, raw,
                what) -> list[tuple[int | None, int | None, str, str]] | None:
    if not isinstance(raw, list) or not raw or not all(isinstance(r, str) for r in raw):
        ck.error(src, span, f"{where}: 'table' must be a list of rows like \"5..7: wait\"",
                 "table")
        return None
    rows = []
    for text in raw:
        m = re.match(_RANGE, text)
        if not m:
            ck.error(src, span, f"{where}: cannot read the {what} row '{text}'", text,
                     hint="write 'N: result', 'N..M: result', '<=N: result' or '>=N: result'")
            return None
        op, bound, low, high, result = m.groups()
        if op == "<=":
            rows.append((None, int(bound), result, text))
        elif op == ">=":
            rows.append((int(bound), None, result, text))
        else:
            lo = int(low)
            hi = int(high) if high is not None else lo
            if hi < lo:
                ck.error(src, span, f"{where}: the row '{text}' runs backwards", text)
                return None
            rows.append((lo, hi, result, text))
    return rows


def _castle_table(ck, src, span, where, raw) -> tuple | None:
    rows = _table_rows(ck, src, span, where, raw, "castle table")
    if rows is None:
        return None
    out = []
    ok = True
    for lo, hi, result, text in rows:
        if result not in CASTLE_RESULTS:
            ck.error(src, span, f"{where}: unknown castle result '{result}'", text,
                     offset=text.rfind(result), hint=_suggest(result, CASTLE_RESULTS) or
                     f"known: {', '.join(CASTLE_RESULTS)}")
            ok = False
        out.append((lo, hi, result))
    if not ok:
        return None
    first, last = rows[0], rows[-1]
    if first[0] is not None:
        ck.error(src, span, f"{where}: the castle table must start with a '<=N' row (totals can "
                 "be low or negative)", first[3], hint=f"write '<={first[1]}: ...'")
        return None
    if last[1] is not None:
        ck.error(src, span, f"{where}: the castle table must end with a '>=N' row", last[3],
                 hint=f"write '>={last[0]}: ...'")
        return None
    for (a, b) in zip(rows, rows[1:]):
        if b[0] is None or a[1] is None or b[0] != a[1] + 1:
            ck.error(src, span, f"{where}: the castle table rows '{a[3]}' and '{b[3]}' leave a "
                     "gap or overlap", b[3], hint="each row must start one above where the "
                     "previous row ends")
            return None
    return tuple(out)


def _village_table(ck, src, span, where, raw) -> tuple | None:
    rows = _table_rows(ck, src, span, where, raw, "village table")
    if rows is None:
        return None
    table: dict[int, str] = {}
    ok = True
    for lo, hi, result, text in rows:
        if lo is None or hi is None:
            lo = GRAIL_MIN if lo is None else lo
            hi = GRAIL_MAX if hi is None else hi
        try:
            canon = parse_village_result(result).text
        except EffectError as err:
            ck.error(src, span, f"{where}, table: {err.message}", text, hint=err.hint,
                     offset=text.rfind(result) + err.offset)
            ok = False
            continue
        for g in range(lo, hi + 1):
            if not GRAIL_MIN <= g <= GRAIL_MAX:
                ck.error(src, span, f"{where}: the village table row '{text}' names grail "
                         f"number {g}; grail numbers run from 1 to 7", text)
                ok = False
                break
            if g in table:
                ck.error(src, span, f"{where}: grail number {g} appears twice in the village "
                         "table", text)
                ok = False
                break
            table[g] = canon
    if not ok:
        return None
    missing = [g for g in range(GRAIL_MIN, GRAIL_MAX + 1) if g not in table]
    if missing:
        ck.error(src, span, f"{where}: the village table does not cover grail number"
                 f"{'s' if len(missing) > 1 else ''} {', '.join(map(str, missing))} (9.1: every "
                 "grail number 1-7 needs a result)", "table")
        return None
    return tuple(sorted(table.items()))


def _int_field(ck, src, span, where, entry, key, lo, hi, *, cite: str = "") -> int | None:
    value = entry[key]
    if not _is_int(value):
        ck.error(src, span, f"{where}: '{key}' must be a whole number, not "
                 f"{type(value).__name__} {value!r}", key)
        return None
    if not lo <= value <= hi:
        ck.error(src, span, f"{where}: '{key}' must be from {lo} to {hi}, not {value}" + cite,
                 key)
        return None
    return value


def _parse_entry(ck: _Checker, src: _Source, span, ctype: str, entry: Any, *,
                 custom: bool = False) -> dict[str, Any] | None:
    """Check one card table; return the Card's fields (occupant still a typed name)."""
    if not isinstance(entry, dict):
        ck.error(src, span, f"a {ctype} entry must be a table [[{ctype}]]", ctype)
        return None
    name = entry.get("name")
    if not isinstance(name, str) or not name.strip():
        ck.error(src, span, f"a [[{ctype}]] entry has no name", "name", hint='add name = "..."')
        return None
    name = " ".join(name.split())
    where = f"{TYPES[ctype]} '{name}'"
    bad = len(ck.errors)
    if any(ch in name for ch in "#\n") or not slugify(name):
        ck.error(src, span, f"{where}: a card name needs letters or digits and no '#'", "name")
        return None
    allowed = KEYS_COMMON + KEYS_BY_TYPE[ctype]
    for key in entry:
        if key in allowed:
            continue
        if key in WHERE_KEY:
            ck.error(src, span, f"{where}: {a_type(ctype)} has no '{key}' (only "
                     f"{WHERE_KEY[key]} do)", key)
        else:
            ck.error(src, span, f"{where}: unknown key '{key}'", key,
                     hint=_suggest(key, allowed) or f"known keys: {', '.join(allowed)}")
    f: dict[str, Any] = {"id": slugify(name), "name": name, "type": ctype, "custom": custom}
    # grail number (12.1)
    if "grail" not in entry:
        ck.error(src, span, f"{where}: missing 'grail' (every card has a grail number 1-7)",
                 "name", hint="add grail = N")
    else:
        g = entry["grail"]
        if not _is_int(g):
            ck.error(src, span, f"{where}: 'grail' must be a whole number, not "
                     f"{type(g).__name__} {g!r}", "grail")
        elif g > GRAIL_MAX:
            ck.error(src, span, f"{where}: grail number {g} is not allowed (12.1: no grail number "
                     "may exceed seven, Write Yer Own cards included)", "grail",
                     hint="use a grail number from 1 to 7")
        elif g < GRAIL_MIN:
            ck.error(src, span, f"{where}: grail number {g} is not allowed; grail numbers run "
                     "from 1 to 7", "grail")
        else:
            f["grail"] = g
    # combat and wits
    for key in ("combat", "wits"):
        if key in entry and ctype in FIGHTERS:
            f[key] = _int_field(ck, src, span, where, entry, key, 0, STAT_MAX)
    if ctype == "knight" and "combat" not in entry:
        ck.error(src, span, f"{where}: a knight needs 'combat' (7.2: knights fight)", "name",
                 hint="add combat = N")
    if ctype in ("persona", "adversary", "peril") and "combat" not in entry and "wits" not in entry:
        ck.error(src, span, f"{where}: {a_type(ctype)} needs 'combat', 'wits' or both "
                 "(7.1-7.5)", "name", hint="add combat = N and/or wits = N")
    # icons
    if "icons" in entry and ctype in ICON_TYPES:
        icons = entry["icons"]
        if not isinstance(icons, list) or not all(isinstance(i, str) for i in icons):
            ck.error(src, span, f"{where}: 'icons' must be a list such as [\"sword\", \"castle\"]",
                     "icons")
        else:
            for i in icons:
                if i not in ICONS:
                    ck.error(src, span, f"{where}: unknown icon '{i}'", i, "icons",
                             hint=_suggest(i, ICONS) or f"known: {', '.join(ICONS)}")
            if len(set(icons)) != len(icons):
                ck.error(src, span, f"{where}: an icon is listed twice", "icons")
            f["icons"] = tuple(i for i in ICONS if i in icons)
    # permanence, limit
    f["permanent"] = ctype in PLACES
    if "permanent" in entry:
        if not isinstance(entry["permanent"], bool):
            ck.error(src, span, f"{where}: 'permanent' must be true or false", "permanent")
        else:
            f["permanent"] = entry["permanent"]
    if "limit" in entry:
        v = entry["limit"]
        if v == "any":
            f["limit"] = None
        elif _is_int(v) and 1 <= v <= 60:
            f["limit"] = v
        else:
            ck.error(src, span, f"{where}: 'limit' must be a number of copies from 1 to 60 or "
                     f"\"any\", not {v!r}", "limit")
    # properties
    for key in ("primary", "secondary", "outwits"):
        if key == "outwits" and ctype not in FIGHTERS:
            continue
        effects = _effects(ck, src, span, where, entry, key, ctype)
        if effects is not None:
            f[key] = effects
            f[f"{key}_text"] = _text_override(ck, src, span, where, entry, f"{key}_text", effects)
    if ctype in ONE_SHOT + ("item",) and ("primary" not in entry or f.get("primary") == ()):
        ck.error(src, span, f"{where}: {a_type(ctype)} needs a 'primary' property "
                 "(what it does when played) other than 'none'",
                 "primary" if "primary" in entry else "name", hint='add primary = "..."')
    if "outwits" in entry and ctype in FIGHTERS and "wits" not in entry:
        ck.error(src, span, f"{where}: 'outwits' needs the card to have 'wits' (7.4)", "outwits")
    # type-specific stats
    if ctype == "page":
        f["capacity"] = 1
        if "capacity" in entry:
            v = _int_field(ck, src, span, where, entry, "capacity", 0, 4)
            if v is not None:
                f["capacity"] = v
    if ctype in ("land", "castle") and "draws" in entry:
        v = _int_field(ck, src, span, where, entry, "draws", 0, 3)
        if v is not None:
            f["draws"] = v
    if ctype == "castle":
        if "defence" not in entry:
            ck.error(src, span, f"{where}: a castle needs 'defence' (8.3)", "name",
                     hint="add defence = N")
        else:
            f["defence"] = _int_field(ck, src, span, where, entry, "defence", 0, STAT_MAX)
        if "table" not in entry:
            ck.error(src, span, f"{where}: a castle needs a castle 'table' (8.1)", "name",
                     hint='add table = ["<=4: run-away", "5..8: wait", ">=9: pass"]')
        else:
            t = _castle_table(ck, src, span, where, entry["table"])
            if t is not None:
                f["castle_table"] = t
        if "occupant" in entry:
            occ = entry["occupant"]
            if not isinstance(occ, str) or not occ.strip():
                ck.error(src, span, f"{where}: 'occupant' must be a card type "
                         f"({', '.join(OCCUPANT_TYPES)}) or a card name", "occupant")
            else:
                f["occupant"] = occ.strip()
    if ctype == "village":
        if "table" not in entry:
            ck.error(src, span, f"{where}: a village needs a village 'table' (9.1)", "name",
                     hint='add table = ["1..2: lose-a-page", "3..5: rest", "6..7: draw 1"]')
        else:
            t = _village_table(ck, src, span, where, entry["table"])
            if t is not None:
                f["village_table"] = t
    f["flavour"] = _one_line(ck, src, span, where, entry, "flavour") if "flavour" in entry else ""
    if len(ck.errors) > bad:
        return None
    return f


def _resolve(ck: _Checker, items: list[tuple[_Source, Any, dict[str, Any]]],
             known: list[Card]) -> list[Card]:
    """Duplicates, occupants; build the cards."""
    seen_names: dict[str, str] = {fold(c.name): c.name for c in known}
    seen_ids: dict[str, str] = {c.id: c.name for c in known}
    accepted: list[tuple[_Source, Any, dict[str, Any]]] = []
    for src, span, f in items:
        key = fold(f["name"])
        if key in seen_names:
            ck.error(src, span, f"two cards are called '{f['name']}' (the other is "
                     f"'{seen_names[key]}'; names must differ in more than case and accents)",
                     f["name"], "name")
            continue
        if f["id"] in seen_ids or f["id"] in OCCUPANT_TYPES:
            other = seen_ids.get(f["id"], "an occupant type")
            ck.error(src, span, f"'{f['name']}' and '{other}' would share the id '{f['id']}'",
                     f["name"], "name", hint="change one of the names")
            continue
        seen_names[key] = f["name"]
        seen_ids[f["id"]] = f["name"]
        accepted.append((src, span, f))
    everything = {**{c.id: c for c in known}, **{f["id"]: f for _, _, f in accepted}}
    names = {fold(v.name if isinstance(v, Card) else v["name"]): k for k, v in everything.items()}
    cards = []
    for src, span, f in accepted:
        occ = f.get("occupant")
        if occ is not None:
            where = f"Castle '{f['name']}'"
            if occ in OCCUPANT_TYPES:
                pass
            else:
                cid = names.get(fold(occ)) or (occ if occ in everything else None)
                if cid is None:
                    choices = list(OCCUPANT_TYPES) + [
                        (v.name if isinstance(v, Card) else v["name"]) for v in everything.values()
                        if (v.type if isinstance(v, Card) else v["type"]) in OCCUPANT_TYPES]
                    ck.error(src, span, f"{where}: the occupant '{occ}' is neither a card type "
                             f"({', '.join(OCCUPANT_TYPES)}) nor a card of the set", occ,
                             "occupant", hint=_suggest(occ, choices))
                    continue
                target = everything[cid]
                ttype = target.type if isinstance(target, Card) else target["type"]
                ticons = target.icons if isinstance(target, Card) else target.get("icons", ())
                if ttype not in OCCUPANT_TYPES:
                    ck.error(src, span, f"{where}: the occupant '{occ}' is a "
                             f"{TYPES[ttype].lower()}; castles hold knights, personas or "
                             "adversaries (8.1)", occ)
                    continue
                if "castle" not in ticons:
                    ck.error(src, span, f"{where}: the occupant '{occ}' has no castle icon and "
                             "cannot occupy a castle (8.1)", occ,
                             hint=f"add \"castle\" to the icons of '{occ}'")
                    continue
                f["occupant"] = cid
        cards.append(Card(**f))
    return cards


def _read_file(ck: _Checker, df: DataFile, *, custom: bool) -> list[tuple[_Source, Any, dict]]:
    src = _Source(df)
    out = []
    for key, value in df.data.items():
        if key not in TYPES:
            ck.error(src, None, f"unknown card type '{key}'", f"[[{key}]]", key,
                     hint=_suggest(key, TYPES) or f"known types: {', '.join(TYPES)}")
            continue
        if not isinstance(value, list):
            ck.error(src, None, f"'{key}' must be written as [[{key}]] tables, one per card", key)
            continue
    order = []
    for ctype in TYPES:
        value = df.data.get(ctype)
        if not isinstance(value, list):
            continue
        for k, entry in enumerate(value):
            span = src.spans.get((ctype, k))
            order.append(((span[0] if span else 10**9) , ctype, k, entry, span))
    order.sort(key=lambda t: (t[0], list(TYPES).index(t[1]), t[2]))
    for _, ctype, k, entry, span in order:
        f = _parse_entry(ck, src, span, ctype, entry, custom=custom)
        if f is not None:
            out.append((src, span, f))
    return out


def load_cards(folder: str | Path | None = None) -> CardSet:
    """Read and validate a card folder (the shipped data by default); every error is raised
    together, each with file, line and column."""
    if folder is None:
        return _default_cards()
    return _load_folder(Path(folder))


@lru_cache(maxsize=1)
def _default_cards() -> CardSet:
    """The shipped set: loaded once, then from the cache (companion/engine/cache.py)."""
    from companion.engine import cache

    return cache.cached(cache.name_for("grailccg-cards", DATA_DIR),
                        files=[DATA_DIR / name for name in FILES], code=CODE,
                        build=lambda: _load_folder(DATA_DIR),
                        codec=cache.Codec((Card, Effect), rebuilt={CardSet: ("cards", "folder")}))


_HERE = Path(__file__).resolve().parent
CODE = (_HERE / "cards.py", _HERE.parent / "engine" / "datafiles.py",
        _HERE.parent / "engine" / "names.py", _HERE.parent / "engine" / "cache.py",
        _HERE.parent / "engine" / "record.py",
        _HERE.parent / "errors.py")
"""The sources a cached card set depends on besides its data files
(tests/grailccg/test_grailccg_startup.py checks that every module of the package that loading
imports is here)."""


def _load_folder(folder: Path) -> CardSet:
    from companion.engine.datafiles import DataFile

    ck = _Checker()
    items = []
    for filename in FILES:
        try:
            df = DataFile.load(folder / filename)
        except DataError as err:
            ck.errors.append(err)
            continue
        items.extend(_read_file(ck, df, custom=False))
    cards = _resolve(ck, items, [])
    if not ck.errors:       # only when every card reads (a broken one is said already)
        _check_named(ck, folder, items, cards)
    ck.raise_if_errors()
    return CardSet(cards, folder)


NAMED_BY_RULES: dict[str, str] = {
    "Arthur": "knight", "Patsy": "page", "Lancelot": "knight", "Gawain": "knight",
    "Bedevere": "knight", "Ector": "knight", "Galahad": "knight", "Brave Sir Robin": "knight",
    "Bors": "knight", "Humphrey the Page": "page", "Page": "page", "Excalibur": "item",
    "Tintagel": "castle", "Vicious Chicken of Bristol": "peril",
    "Legendary Black Beast of Arrrghhh": "peril", "Intermission": "event",
    "Eccentric Performance": "event", "A Newt?": "event", "Get On With It": "event",
    "Slaying of the Historian": "event",
}
"""The cards the rules, their examples and errata name (docs/grailccg-cards.md), with their
types: the shipped set, and an edited copy of it, keep every one. Arthur and Patsy start
every Round Table (2.1)."""
TYPE_HOME = {"knight": "characters.toml", "page": "characters.toml", "item": "items.toml",
             "castle": "places.toml", "peril": "foes.toml", "event": "events.toml"}
"""Where the shipped data keeps the types of NAMED_BY_RULES."""


def _check_named(ck: _Checker, folder: Path, items, cards: list[Card]) -> None:
    by_name = {c.name: c for c in cards}
    for name, ctype in NAMED_BY_RULES.items():
        card = by_name.get(name)
        why = " (2.1: every Round Table starts with Arthur and Patsy)" if name in (
            "Arthur", "Patsy") else ""
        if card is None:
            ck.errors.append(DataError(
                f"the {TYPES[ctype]} '{name}' is missing: the rules name it{why}",
                path=str(folder / TYPE_HOME[ctype]),
                hint=f"add a [[{ctype}]] table with name = \"{name}\""))
        elif card.type != ctype:
            src, span = next((src, span) for src, span, entry in items
                             if isinstance(entry, dict) and entry.get("name") == name)
            ck.error(src, span, f"{TYPES[card.type]} '{name}': the rules make it "
                     f"{a_type(ctype)}", f"[[{card.type}]]", "name",
                     hint=f"write it as [[{ctype}]]")


def load_user_cards(path: str | Path, base: CardSet | None = None) -> CardSet:
    """Add a file of Write Yer Own cards (12.1) to ``base`` (the shipped set by default),
    validated exactly as the shipped files are; names may not repeat the base set's."""
    from companion.engine.datafiles import DataFile

    base = base if base is not None else load_cards()
    df = DataFile.load(path)
    return _extend(base, df)


def parse_user_cards(text: str, filename: str, base: CardSet | None = None, *,
                     stored: bool = False) -> CardSet:
    """A file of Write Yer Own cards given as its text; ``stored``: the text a game keeps,
    read again (checks added since the game began do not refuse it)."""
    from companion.engine.datafiles import DataFile

    base = base if base is not None else load_cards()
    return _extend(base, DataFile.parse(text, filename), stored=stored)


def _extend(base: CardSet, df: DataFile, *, stored: bool = False) -> CardSet:
    ck = _Checker(stored)
    items = _read_file(ck, df, custom=True)
    if not items and not ck.errors:
        ck.error(_Source(df), None, "the file holds no cards",
                 hint="each card is a table such as [[knight]] with name, grail, ...")
    cards = _resolve(ck, items, base.cards)
    ck.raise_if_errors()
    return base.with_cards(cards)


def card_from_dict(d: dict[str, Any], where: str = "<card>", *,
                   known: CardSet | None = None, custom: bool = True) -> Card:
    """One card from a dict with a ``type`` key and the keys of a card table; errors name
    ``where``. An occupant given by name is resolved against ``known`` (default: the shipped
    set)."""
    from companion.engine.datafiles import DataFile

    d = dict(d)
    ctype = d.pop("type", None)
    src = _Source(DataFile(where, "", {}))
    ck = _Checker()
    if ctype not in TYPES:
        ck.error(src, None, f"unknown card type {ctype!r}",
                 hint=_suggest(str(ctype), TYPES) or f"known types: {', '.join(TYPES)}")
        ck.raise_if_errors()
    f = _parse_entry(ck, src, None, ctype, d, custom=custom)
    ck.raise_if_errors()
    base = known if known is not None else load_cards()
    others = [c for c in base.cards if fold(c.name) != fold(f["name"])]
    cards = _resolve(ck, [(src, None, f)], others)
    ck.raise_if_errors()
    return cards[0]


def card_to_dict(card: Card) -> dict[str, Any]:
    """A card as plain JSON-ready data (effects as their canonical strings; castle table rows
    as [low, high, result] with null for an open end)."""
    out: dict[str, Any] = {"id": card.id, "name": card.name, "type": card.type,
                           "grail": card.grail}
    for key in ("combat", "wits", "defence", "capacity", "occupant"):
        if getattr(card, key) is not None:
            out[key] = getattr(card, key)
    if card.icons:
        out["icons"] = list(card.icons)
    out["permanent"] = card.permanent
    for key in ("primary", "secondary", "outwits"):
        effects = getattr(card, key)
        if effects:
            out[key] = [e.text for e in effects]
            out[f"{key}_text"] = getattr(card, f"{key}_text")
    if card.castle_table:
        out["castle_table"] = [list(row) for row in card.castle_table]
    if card.village_table:
        out["village_table"] = [list(row) for row in card.village_table]
    if card.draws:
        out["draws"] = card.draws
    out["limit"] = card.limit
    if card.flavour:
        out["flavour"] = card.flavour
    if card.custom:
        out["custom"] = True
    return out


def export(card_set: CardSet | None = None) -> dict[str, Any]:
    """The card set, the effect vocabulary and the starter decks as JSON-ready data."""
    card_set = card_set if card_set is not None else load_cards()
    return {
        "types": dict(TYPES),
        "effects": {name: {"form": s.form, "when": s.when, "meaning": s.meaning} | (
            {"when_by_target": {t: s.when_for(t) for t in s.targets}} if s.target_when else {})
                    for name, s in EFFECTS.items()},
        "castle_results": dict(CASTLE_RESULTS),
        "village_results": {name: {"form": s.form, "meaning": s.meaning}
                            for name, s in VILLAGE_RESULTS.items()},
        "cards": [card_to_dict(c) for c in card_set.cards],
        "decks": {name: deck.cards for name, deck in starter_decks().items()},
    }


# -- deck lists -----------------------------------------------------------------------------------

@record(frozen=True)
class DeckRules:
    """The house rules of deck construction (docs/grailccg-cards.md)."""

    min_cards: int = 60
    max_cards: int | None = None
    default_limit: int = DEFAULT_LIMIT
    """Copies of one card allowed unless the card's own 'limit' says otherwise."""
    required: tuple[tuple[str, int, int | None], ...] = (("arthur", 1, 1), ("patsy", 1, None))
    """(card id, at least, at most) per card the set-up needs (2.1)."""


DECK_RULES = DeckRules()


@record
class Deck:
    """A deck list: the card ids in order, the file it was read from, and the line where each
    card is first listed."""

    name: str
    cards: list[str]
    path: str = ""
    lines: dict[str, int] = field(default_factory=dict)
    """Card id -> the line of the deck file where it is first listed."""

    def counts(self) -> dict[str, int]:
        out: dict[str, int] = {}
        for cid in self.cards:
            out[cid] = out.get(cid, 0) + 1
        return out

    def check(self, card_set: CardSet | None = None,
              rules: DeckRules | None = None) -> list[DataError]:
        """The deck-construction errors (empty when the deck is legal), each naming the deck
        file and, for a card, the line it is listed on."""
        card_set = card_set if card_set is not None else load_cards()
        rules = rules or DECK_RULES
        errors: list[DataError] = []

        def err(message: str, cid: str | None = None, hint: str | None = None) -> None:
            line = self.lines.get(cid) if cid else None
            errors.append(DataError(message, path=self.path or self.name, line=line,
                                    column=1 if line else None, hint=hint))

        n = len(self.cards)
        if n < rules.min_cards:
            err(f"the deck has {n} cards; a deck needs at least {rules.min_cards}",
                hint=f"add {rules.min_cards - n} more")
        if rules.max_cards is not None and n > rules.max_cards:
            err(f"the deck has {n} cards; at most {rules.max_cards} are allowed")
        counts = self.counts()
        required = {cid: (lo, hi) for cid, lo, hi in rules.required}
        for cid, k in counts.items():
            if cid not in card_set:
                err(f"'{cid}' is not a card of this card set", cid)
                continue
            card = card_set.get(cid)
            if card.grail > GRAIL_MAX or card.grail < GRAIL_MIN:
                err(f"'{card.name}' has grail number {card.grail} (12.1)", cid)
            limit = rules.default_limit if card.limit == DEFAULT_LIMIT else card.limit
            if cid in required and required[cid][1] is not None:
                continue                          # the required range gives the maximum
            if limit is not None and k > limit:
                err(f"{k} copies of '{card.name}'; a deck may hold at most {limit}", cid,
                    hint=f"remove {k - limit}")
        for cid, (lo, hi) in required.items():
            k = counts.get(cid, 0)
            name = card_set.get(cid).name if cid in card_set else cid
            if k < lo:
                err(f"the deck has no {name}; it needs "
                    f"{'exactly' if hi == lo else 'at least'} {lo} (2.1: {name} starts in the "
                    "Round Table)", hint=f"add '{lo} {name}'")
            elif hi is not None and k > hi:
                err(f"the deck has {k} copies of '{name}'; it may hold only {hi} (2.1: one "
                    f"{name} is set aside to start the Round Table)", cid)
        return errors


def _deck_path(name_or_path: str | Path) -> Path:
    p = Path(name_or_path)
    if p.suffix == "" and not p.exists() and (DECKS_DIR / f"{p.name}.txt").exists() \
            and len(p.parts) == 1:
        return DECKS_DIR / f"{p.name}.txt"
    return p


def load_deck(name_or_path: str | Path, card_set: CardSet | None = None) -> Deck:
    """Read a deck list: a shipped deck by name (``starter-arthur``) or a file. Raise every
    error of the file together (DataError/DataErrors with file, line and column)."""
    path = _deck_path(name_or_path)
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        shipped = sorted(p.stem for p in DECKS_DIR.glob("*.txt"))
        raise DataError("deck list not found", path=str(name_or_path),
                        hint=_suggest(str(name_or_path), shipped) or
                        f"shipped decks: {', '.join(shipped)}") from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise DataError("deck list is not valid UTF-8 text", path=str(path),
                        line=raw[: exc.start].count(b"\n") + 1) from None
    return parse_deck(text, str(path), card_set=card_set, name=path.stem)


def parse_deck(text: str, filename: str, *, card_set: CardSet | None = None,
               name: str | None = None) -> Deck:
    card_set = card_set if card_set is not None else load_cards()
    names = [c.name for c in card_set.cards]
    aliases = card_set.aliases()
    errors: list[DataError] = []
    deck = Deck(name or Path(filename).stem, [], filename)
    for number, line in enumerate(text.splitlines(), start=1):
        body = line.split("#", 1)[0].rstrip()
        if not body.strip():
            continue
        first = body.split()[0]
        col = body.find(first) + 1
        if re.fullmatch(r"\d+[xX]?", first):
            count = int(first.rstrip("xX"))
            rest = body[col - 1 + len(first):]
            card_text = rest.strip()
            name_col = col + len(first) + (len(rest) - len(rest.lstrip())) if card_text else col
        elif first[0].isdigit():
            errors.append(DataError(f"cannot read the count '{first}'", path=filename,
                                    line=number, column=col, hint="write the number of copies "
                                    "first: '3 Vicious Chicken of Bristol'"))
            continue
        else:
            count, card_text, name_col = 1, body.strip(), col
        if not 1 <= count <= 60:
            errors.append(DataError(f"the count must be from 1 to 60, not {count}", path=filename,
                                    line=number, column=col))
            continue
        if not card_text:
            errors.append(DataError("a card name is missing after the count", path=filename,
                                    line=number, column=col + len(first)))
            continue
        match = match_name(card_text, names, aliases)
        if not match.ok:
            if match.candidates:
                hint = "one of: " + ", ".join(match.candidates)
                msg = f"'{card_text}' could be several cards"
            else:
                hint = ("did you mean " + " or ".join(f"'{s}'" for s in match.suggestions) + "?"
                        if match.suggestions else None)
                msg = f"no card called '{card_text}'"
            errors.append(DataError(msg, path=filename, line=number, column=name_col, hint=hint))
            continue
        card = card_set._by_name_exact(match.name)
        deck.lines.setdefault(card.id, number)
        deck.cards.extend([card.id] * count)
    if errors:
        raise errors[0] if len(errors) == 1 else DataErrors(errors)
    return deck


STARTER_DECKS = ("starter-arthur", "starter-french")


@lru_cache(maxsize=1)
def _starters() -> tuple[Deck, ...]:
    return tuple(load_deck(name) for name in STARTER_DECKS)


def starter_decks() -> dict[str, Deck]:
    """The two shipped starter decks by name (seat 1: starter-arthur, seat 2: starter-french)."""
    return {d.name: Deck(d.name, list(d.cards), d.path, dict(d.lines)) for d in _starters()}


def check_data_dir(folder: str | Path) -> list[DataError]:
    """Every error of an edited copy of the data folder (empty when valid), decks included."""
    try:
        cards = load_cards(folder)
    except DataErrors as errors:
        return list(errors.errors)
    except DataError as error:
        return [error]
    out: list[DataError] = []
    for name in STARTER_DECKS:
        if not (Path(folder) / "decks" / f"{name}.txt").is_file():
            out.append(DataError("file not found: a game without deck lists deals the starter "
                                 "decks", path=str(Path(folder) / "decks" / f"{name}.txt"),
                                 hint=f"keep companion/grailccg/data/decks/{name}.txt"))
    for path in sorted((Path(folder) / "decks").glob("*.txt")):
        try:
            out.extend(load_deck(path, cards).check(cards))
        except DataErrors as errors:
            out.extend(errors.errors)
        except DataError as error:
            out.append(error)
    return out
