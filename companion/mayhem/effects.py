"""The Medieval Mayhem effect language: what a card or character does, written in a few words that
the engine interprets and that the printed card text is generated from.

An effect is one or more *steps*, separated by ``;`` and resolved in order. ``choose A | B``
offers alternatives (each a list of steps); the player picks one when the card is played::

    capture 1 Princess from target hand
    lure 3 Knight from target hand
    destroy upto 2 Knight from target play
    destroy 1 Dragon from each hand; draw 1
    capture 1 Defense from barracks or discard
    choose lure upto 2 Knight from barracks | draw 3
    others draw 1

Steps:

* ``draw N`` (you draw), ``target draws N``, ``others draw N``, ``each draws N``.
* ``capture|destroy|lure AMOUNT FILTER from PLACE [or PLACE ...]``:
  capture puts the card into your hand, lure into your play zone, destroy onto the discard pile.
  AMOUNT is ``N``, ``upto N`` or ``all``. FILTER is ``card`` (anything) or one or more
  descriptions joined by ``or``, each made of a colour (Crimson, Gilded, Sapphire), a type
  (Dragon, Princess, Knight, Treasure, Attack, Defense) or a Defense kind (Scales, Guardians,
  Shield), and ``number N``. PLACE is ``barracks``, ``discard`` or OWNER ZONE with OWNER one of
  ``target`` (the player the card targets), ``own`` (you), ``each`` (every player, you included)
  and ``others`` (every other player), and ZONE one of ``hand``, ``play``, ``set``.

Cards taken from a hand are chosen by that hand's owner (the hand is secret); cards taken from
an open place (the Barracks, the discard pile, play zones, sets) are chosen by the player
resolving the effect.

Bonus rules of the character cards use a sister language::

    2 per Dragon in play          1 per card in hand          1 per Sapphire in any
    3 per set                     4 per colour set            5 if at least 3 set
    6 if at least 5 card in play
"""
from __future__ import annotations

import re
from typing import Any, Iterable

from companion.engine.numbers import is_digits
from companion.engine.record import record

COLOURS = ("Crimson", "Gilded", "Sapphire")
TYPES = ("Dragon", "Princess", "Knight", "Treasure", "Attack", "Defense")
KINDS = ("Scales", "Guardians", "Shield")
ZONES = ("hand", "play", "set")
OWNERS = ("target", "own", "each", "others")
VERBS = ("capture", "destroy", "lure")
ASPECTS = ("number", "colour", "type")
PRIME_ZONE = {"Crimson": "play", "Gilded": "hand", "Sapphire": "set"}

_PLURAL = {"Dragon": "Dragons", "Princess": "Princesses", "Knight": "Knights",
           "Treasure": "Treasures", "Attack": "Attack cards", "Defense": "Defense cards"}
_SINGULAR = {"Dragon": "Dragon", "Princess": "Princess", "Knight": "Knight",
             "Treasure": "Treasure", "Attack": "Attack card", "Defense": "Defense card"}
_WORDS: dict[str, tuple[str, str]] = {}
for _c in COLOURS:
    _WORDS[_c.lower()] = ("colour", _c)
for _t in TYPES:
    _WORDS[_t.lower()] = ("type", _t)
    _WORDS[_PLURAL[_t].split()[0].lower()] = ("type", _t)
_WORDS["defence"] = ("type", "Defense")
for _k in KINDS:
    _WORDS[_k.lower()] = ("kind", _k)
_WORDS["color"] = ("bad", "colour")


class EffectError(ValueError):
    """A mistake in an effect or bonus text; ``offset`` is the 0-based character position."""

    def __init__(self, message: str, offset: int = 0, hint: str | None = None):
        super().__init__(message)
        self.message = message
        self.offset = offset
        self.hint = hint


# ------------------------------------------------------------------------------- the model
@record(frozen=True)
class Spec:
    """One description of cards: each given attribute must match."""

    colour: str | None = None
    type: str | None = None
    kind: str | None = None
    number: int | None = None

    def matches(self, card) -> bool:
        return ((self.colour is None or card.colour == self.colour)
                and (self.type is None or card.type == self.type)
                and (self.kind is None or card.kind == self.kind)
                and (self.number is None or card.number == self.number))

    def text(self, plural: bool) -> str:
        words = []
        if self.colour:
            words.append(self.colour)
        if self.kind:
            words.append(f"{self.kind} Defense card{'s' if plural else ''}")
        elif self.type:
            words.append((_PLURAL if plural else _SINGULAR)[self.type])
        else:
            words.append("cards" if plural else "card")
        if self.number is not None:
            words.append(f"numbered {self.number}")
        return " ".join(words)

    def to_json(self) -> dict[str, Any]:
        return {k: v for k, v in (("colour", self.colour), ("type", self.type),
                                  ("kind", self.kind), ("number", self.number)) if v is not None}


@record(frozen=True)
class Filter:
    specs: tuple[Spec, ...] = ()        # empty: any card

    def matches(self, card) -> bool:
        return not self.specs or any(s.matches(card) for s in self.specs)

    def text(self, plural: bool) -> str:
        if not self.specs:
            return "cards" if plural else "card"
        return " or ".join(s.text(plural) for s in self.specs)

    @property
    def any(self) -> bool:
        return not self.specs

    def to_json(self) -> list[dict[str, Any]]:
        return [s.to_json() for s in self.specs]


ANY = Filter()


@record(frozen=True)
class Place:
    zone: str                  # hand, play, set, barracks, discard
    owner: str | None = None   # target, own, each, others (None for barracks and discard)

    @property
    def hidden(self) -> bool:
        return self.zone == "hand"

    def text(self) -> str:
        if self.zone == "barracks":
            return "the Barracks"
        if self.zone == "discard":
            return "the discard pile"
        zone = {"hand": "hand", "play": "play zone", "set": "Castle"}[self.zone]
        if self.owner == "own" and self.zone == "play":
            # a card's text never takes the card itself (docs/mayhem.md, decision 22)
            return "your own play zone, other than this card"
        return {"target": f"the target player's {zone}", "own": f"your own {zone}",
                "each": f"each player's {zone}, yours included",
                "others": f"each other player's {zone}"}[self.owner]

    def to_json(self) -> str:
        return f"{self.owner} {self.zone}" if self.owner else self.zone


@record(frozen=True)
class Step:
    op: str                          # draw, capture, destroy, lure
    n: int = 1
    who: str = "you"                 # draw: you, target, others, each
    upto: bool = False
    all: bool = False
    filter: Filter = ANY
    places: tuple[Place, ...] = ()

    @property
    def targets(self) -> bool:
        return self.who == "target" or any(p.owner == "target" for p in self.places)

    @property
    def hidden(self) -> bool:
        return any(p.hidden for p in self.places)

    def amount_text(self) -> str:
        if self.all:
            return "every " + self.filter.text(False)
        plural = self.n != 1
        text = f"{self.n} {self.filter.text(plural)}"
        return ("up to " + text) if self.upto else text

    def text(self) -> str:
        if self.op == "draw":
            count = f"{self.n} card{'s' if self.n != 1 else ''}"
            return {"you": f"Draw {count}.", "target": f"The target player draws {count}.",
                    "others": f"Every other player draws {count}.",
                    "each": f"Every player, you included, draws {count}."}[self.who]
        places = " or ".join(p.text() for p in self.places)
        word = "in" if self.op == "destroy" else "from"
        return f"{self.op.capitalize()} {self.amount_text()} {word} {places}."

    def to_json(self) -> dict[str, Any]:
        if self.op == "draw":
            return {"op": "draw", "who": self.who, "n": self.n}
        return {"op": self.op, "n": None if self.all else self.n, "upto": self.upto,
                "all": self.all, "filter": self.filter.to_json(),
                "places": [p.to_json() for p in self.places]}


@record(frozen=True)
class Effect:
    source: str
    alternatives: tuple[tuple[Step, ...], ...]

    @property
    def choose(self) -> bool:
        return len(self.alternatives) > 1

    @property
    def targets(self) -> bool:
        return any(s.targets for alt in self.alternatives for s in alt)

    def steps(self, alternative: int = 0) -> tuple[Step, ...]:
        return self.alternatives[alternative]

    def upto_limit(self, alternative: int = 0) -> int | None:
        """The largest 'up to' count of the chosen alternative (None when it has none)."""
        found = [s.n for s in self.alternatives[alternative] if s.upto]
        return max(found) if found else None

    def text(self) -> str:
        if not self.choose:
            return sequence_text(self.alternatives[0])
        parts = [f"{'AB'[i] if i < 2 else chr(65 + i)}) {sequence_text(alt)}"
                 for i, alt in enumerate(self.alternatives)]
        return "Choose one:\n" + "\n".join(parts)

    def to_json(self) -> dict[str, Any]:
        return {"source": self.source,
                "alternatives": [[s.to_json() for s in alt] for alt in self.alternatives]}


def sequence_text(steps: Iterable[Step]) -> str:
    sentences = [s.text() for s in steps]
    out = sentences[0]
    for s in sentences[1:]:
        out += " Then " + s[0].lower() + s[1:]
    return out


# ------------------------------------------------------------------------------- tokens
_TOKEN = re.compile(r"[;|]|[^\s;|]+")


def _tokens(text: str) -> list[tuple[str, int]]:
    return [(m.group(0), m.start()) for m in _TOKEN.finditer(text)]


def _number(tok: tuple[str, int] | None, what: str, end: int, low: int = 1, high: int = 9) -> int:
    if tok is None:
        raise EffectError(f"expected {what} (a whole number) at the end", end)
    if not is_digits(tok[0]):
        raise EffectError(f"expected {what} (a whole number), found '{tok[0]}'", tok[1])
    value = int(tok[0])
    if not low <= value <= high:
        raise EffectError(f"{what} must be from {low} to {high}, not {value}", tok[1])
    return value


def parse_filter(tokens: list[tuple[str, int]], end: int) -> Filter:
    """Words describing cards (``Gilded Dragon``, ``Princess or Knight``, ``card``)."""
    if not tokens:
        raise EffectError("expected what kind of card (e.g. 'card', 'Dragon', 'Gilded Knight')",
                          end)
    groups: list[list[tuple[str, int]]] = [[]]
    for tok in tokens:
        if tok[0].lower() == "or":
            if not groups[-1]:
                raise EffectError("'or' needs a card description on both sides", tok[1])
            groups.append([])
        else:
            groups[-1].append(tok)
    if not groups[-1]:
        raise EffectError("'or' needs a card description on both sides", tokens[-1][1])
    specs = []
    for group in groups:
        attrs: dict[str, Any] = {}
        anycard = False
        i = 0
        while i < len(group):
            word, pos = group[i]
            key = word.lower()
            if key in ("card", "cards"):
                anycard = True
                i += 1
                continue
            if key == "number":
                attrs_key = "number"
                if attrs_key in attrs:
                    raise EffectError("the number is given twice", pos)
                attrs["number"] = _number(group[i + 1] if i + 1 < len(group) else None,
                                          "the card number", end, 1, 3)
                i += 2
                continue
            found = _WORDS.get(key)
            if found is None or found[0] == "bad":
                from companion.engine.datafiles import suggest

                known = list(COLOURS) + list(TYPES) + list(KINDS) + ["card", "number"]
                raise EffectError(f"'{word}' is not a colour, type, Defense kind, 'card' or "
                                  "'number'", pos, hint=suggest(word, known))
            slot, value = found
            if slot in attrs:
                raise EffectError(f"the {slot} is given twice ('{attrs[slot]}' and '{value}')",
                                  pos)
            attrs[slot] = value
            i += 1
        if "kind" in attrs and attrs.get("type") not in (None, "Defense"):
            raise EffectError(f"{attrs['kind']} is a kind of Defense card, not of "
                              f"{attrs['type']}", group[0][1])
        if attrs.get("kind"):
            attrs.pop("type", None)
        if anycard and not attrs and len(groups) > 1:
            raise EffectError("'card' (any card) cannot be combined with 'or'", group[0][1])
        if not attrs:
            if not anycard:
                raise EffectError("expected a card description", group[0][1])
            continue
        specs.append(Spec(**attrs))
    return Filter(tuple(specs))


def _parse_places(tokens: list[tuple[str, int]], end: int) -> tuple[Place, ...]:
    places = []
    i = 0
    while True:
        if i >= len(tokens):
            raise EffectError("expected a place after 'from' (target hand, own play, barracks, "
                              "discard, ...)", end)
        word, pos = tokens[i]
        key = word.lower()
        if key in ("barracks", "discard"):
            places.append(Place(key))
            i += 1
        elif key in OWNERS:
            if i + 1 >= len(tokens):
                raise EffectError(f"expected a zone after '{word}' (hand, play or set)", end)
            zone, zpos = tokens[i + 1]
            if zone.lower() not in ZONES:
                raise EffectError(f"'{zone}' is not a zone (hand, play or set)", zpos)
            places.append(Place(zone.lower(), key))
            i += 2
        else:
            raise EffectError(f"'{word}' is not a place (target, own, each or others followed "
                              "by hand, play or set; or barracks, discard)", pos)
        if i >= len(tokens):
            break
        if tokens[i][0].lower() != "or":
            raise EffectError(f"expected 'or' or the end of the step, found '{tokens[i][0]}'",
                              tokens[i][1])
        i += 1
    seen = set()
    for p in places:
        if p in seen:
            raise EffectError(f"the place '{p.to_json()}' is given twice", tokens[0][1])
        seen.add(p)
    if any(p.hidden for p in places) and len(places) > 1:
        raise EffectError("a hand cannot be combined with other places (its owner chooses from "
                          "it in secret)", tokens[0][1])
    return tuple(places)


def parse_step(tokens: list[tuple[str, int]], end: int) -> Step:
    if not tokens:
        raise EffectError("a step is empty", end)
    word, pos = tokens[0]
    key = word.lower()
    if key == "draw":
        if len(tokens) > 2:
            raise EffectError(f"unexpected '{tokens[2][0]}' after 'draw N'", tokens[2][1])
        return Step("draw", _number(tokens[1] if len(tokens) > 1 else None, "how many cards",
                                    end, 1, 5))
    if key in ("target", "others", "each"):
        verb = tokens[1][0].lower() if len(tokens) > 1 else ""
        if verb not in ("draw", "draws"):
            raise EffectError(f"after '{word}' only 'draws N' may follow", tokens[1][1]
                              if len(tokens) > 1 else end)
        if len(tokens) > 3:
            raise EffectError(f"unexpected '{tokens[3][0]}'", tokens[3][1])
        return Step("draw", _number(tokens[2] if len(tokens) > 2 else None, "how many cards",
                                    end, 1, 5), who=key)
    if key not in VERBS:
        from companion.engine.datafiles import suggest

        raise EffectError(f"'{word}' is not a step (draw, capture, destroy, lure, or "
                          "target/others/each draws)", pos,
                          hint=suggest(key, list(VERBS) + ["draw"]))
    i = 1
    upto = every = False
    n = 1
    if i < len(tokens) and tokens[i][0].lower() == "all":
        every = True
        i += 1
    else:
        if i < len(tokens) and tokens[i][0].lower() in ("upto", "up"):
            if tokens[i][0].lower() == "up":
                if i + 1 < len(tokens) and tokens[i + 1][0].lower() == "to":
                    i += 1
            upto = True
            i += 1
        n = _number(tokens[i] if i < len(tokens) else None, "how many cards", end, 1, 5)
        i += 1
    j = i
    while j < len(tokens) and tokens[j][0].lower() != "from":
        j += 1
    if j >= len(tokens):
        raise EffectError(f"expected 'from' and a place after '{key}'", end)
    filt = parse_filter(tokens[i:j], tokens[j][1])
    places = _parse_places(tokens[j + 1:], end)
    step = Step(key, n, upto=upto, all=every, filter=filt, places=places)
    for p in places:
        if p.owner == "own" and ((key == "capture" and p.zone == "hand") or
                                 (key == "lure" and p.zone == "play")):
            raise EffectError(f"to {key} from your own {p.zone} changes nothing", pos)
    return step


def parse_effect(text: str) -> Effect:
    """Parse an effect; raise EffectError with the offset of the mistake."""
    tokens = _tokens(text)
    if not tokens:
        raise EffectError("the effect is empty", 0)
    alternatives: list[tuple[Step, ...]] = []
    if tokens[0][0].lower() == "choose":
        body = tokens[1:]
        if not any(t[0] == "|" for t in body):
            raise EffectError("'choose' needs two or more alternatives separated by '|'",
                              tokens[0][1])
    else:
        body = tokens
        if any(t[0] == "|" for t in body):
            pos = next(t[1] for t in body if t[0] == "|")
            raise EffectError("alternatives ('|') need 'choose' at the start", pos)
    alt: list[Step] = []
    step: list[tuple[str, int]] = []
    for tok in body + [("|", len(text))]:
        if tok[0] in (";", "|"):
            alt.append(parse_step(step, tok[1]))
            step = []
            if tok[0] == "|":
                alternatives.append(tuple(alt))
                alt = []
        else:
            step.append(tok)
    return Effect(text, tuple(alternatives))


# ------------------------------------------------------------------------------- bonuses
@record(frozen=True)
class Bonus:
    """A character's bonus rule: points per matching card or set, or points if enough."""

    points: int
    mode: str                       # 'per' or 'if'
    what: str                       # 'cards' or 'sets'
    filter: Filter = ANY
    zone: str = "any"               # play, set, hand, any (cards)
    aspect: str | None = None       # number, colour, type (sets); None: any set
    at_least: int = 0

    def count(self, zones: dict[str, list], sets: list[list], card_of) -> int:
        """How many cards or sets match, given the player's zones (lists of card ids)."""
        if self.what == "sets":
            if self.aspect is None:
                return len(sets)
            return sum(1 for s in sets if self.aspect in shared_aspects([card_of(c) for c in s]))
        ids: list[str] = []
        for zone in (("play", "set", "hand") if self.zone == "any" else (self.zone,)):
            ids += zones[zone]
        return sum(1 for c in ids if self.filter.matches(card_of(c)))

    def score(self, zones: dict[str, list], sets: list[list], card_of) -> int:
        n = self.count(zones, sets, card_of)
        if self.mode == "per":
            return self.points * n
        return self.points if n >= self.at_least else 0

    def text(self) -> str:
        pts = f"{self.points} point{'s' if self.points != 1 else ''}"
        zone = {"play": "in your play zone", "set": "in your Castle", "hand": "in your hand",
                "any": "in any of your zones"}[self.zone]
        if self.what == "sets":
            kind = f"set of one {self.aspect}" if self.aspect else "set"
            if self.mode == "per":
                return f"{pts} for each {kind} in your Castle."
            kinds = f"sets of one {self.aspect}" if self.aspect else "sets"
            return f"{pts} if your Castle holds at least {self.at_least} {kinds}."
        if self.mode == "per":
            return f"{pts} for each {self.filter.text(False)} {zone}."
        return (f"{pts} if you hold at least {self.at_least} "
                f"{self.filter.text(self.at_least != 1)} {zone}.")

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"points": self.points, "mode": self.mode, "what": self.what}
        if self.what == "sets":
            out["aspect"] = self.aspect
        else:
            out["filter"] = self.filter.to_json()
            out["zone"] = self.zone
        if self.mode == "if":
            out["at_least"] = self.at_least
        return out


def parse_bonus(text: str) -> tuple[Bonus, ...]:
    tokens = _tokens(text)
    rules: list[Bonus] = []
    part: list[tuple[str, int]] = []
    for tok in tokens + [(";", len(text))]:
        if tok[0] == ";":
            rules.append(_bonus_rule(part, tok[1]))
            part = []
        elif tok[0] == "|":
            raise EffectError("'|' has no meaning in a bonus rule", tok[1])
        else:
            part.append(tok)
    return tuple(rules)


def _bonus_rule(tokens: list[tuple[str, int]], end: int) -> Bonus:
    if not tokens:
        raise EffectError("a bonus rule is empty", end)
    points = _number(tokens[0], "the points", end, 1, 20)
    if len(tokens) < 2 or tokens[1][0].lower() not in ("per", "if"):
        raise EffectError("expected 'per' or 'if' after the points",
                          tokens[1][1] if len(tokens) > 1 else end)
    mode = tokens[1][0].lower()
    i = 2
    at_least = 0
    if mode == "if":
        if (i + 1 >= len(tokens) or tokens[i][0].lower() != "at"
                or tokens[i + 1][0].lower() != "least"):
            raise EffectError("expected 'at least N' after 'if'",
                              tokens[i][1] if i < len(tokens) else end)
        at_least = _number(tokens[i + 2] if i + 2 < len(tokens) else None, "the count", end,
                           1, 15)
        i += 3
    rest = tokens[i:]
    if rest and rest[-1][0].lower() in ("set", "sets") and not any(
            t[0].lower() == "in" for t in rest):
        aspect = None
        if len(rest) == 2:
            word = rest[0][0].lower().replace("color", "colour")
            if word not in ASPECTS:
                raise EffectError(f"'{rest[0][0]}' is not an aspect of a set (number, colour, "
                                  "type)", rest[0][1])
            aspect = word
        elif len(rest) > 2:
            raise EffectError("expected '[number|colour|type] set'", rest[0][1])
        return Bonus(points, mode, "sets", aspect=aspect, at_least=at_least)
    j = next((k for k, t in enumerate(rest) if t[0].lower() == "in"), None)
    if j is None:
        raise EffectError("expected 'in play', 'in set', 'in hand' or 'in any' (or 'set')", end)
    filt = parse_filter(rest[:j], rest[j][1])
    if j + 1 >= len(rest):
        raise EffectError("expected a zone after 'in' (play, set, hand or any)", end)
    zone, zpos = rest[j + 1]
    if zone.lower() not in ("play", "set", "hand", "any"):
        raise EffectError(f"'{zone}' is not a zone (play, set, hand or any)", zpos)
    if j + 2 < len(rest):
        raise EffectError(f"unexpected '{rest[j + 2][0]}'", rest[j + 2][1])
    return Bonus(points, mode, "cards", filter=filt, zone=zone.lower(), at_least=at_least)


def bonus_text(rules: Iterable[Bonus]) -> str:
    return " ".join(r.text() for r in rules)


# ------------------------------------------------------------------------------- sets
def shared_aspects(cards: list) -> list[str]:
    """The aspects (number, colour, type) shared by all of ``cards``, in that order."""
    if not cards:
        return []
    out = []
    if len({c.number for c in cards}) == 1:
        out.append("number")
    if len({c.colour for c in cards}) == 1:
        out.append("colour")
    if len({c.type for c in cards}) == 1:
        out.append("type")
    return out
