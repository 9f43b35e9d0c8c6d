"""The Medieval Mayhem cards: 70 draw cards and 18 two-sided character cards, loaded from the
editable data files in ``companion/mayhem/data/`` and validated with located errors."""
from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Any

from companion.engine.datafiles import DataFile, suggest
from companion.engine.names import fold, slugify
from companion.engine.record import record
from companion.errors import DataError, DataErrors
from companion.mayhem.effects import (COLOURS, KINDS, PRIME_ZONE, TYPES, Bonus, Effect,
                                      EffectError, bonus_text, parse_bonus, parse_effect)

DATA_DIR = Path(__file__).resolve().parent / "data"
FILES = ("cards.toml", "characters.toml")
DECK_SIZE = 70
CHARACTER_COUNT = 18
ZONE_KEYS = ("play", "set", "hand")
RESERVED = ("at", "from", "by", "then", "taking", "choose", "up", "with", "against", "none",
            "nothing", "and", "any", "all", "for")
"""Words of the order grammar that may not appear in a card's or character's name."""
FORBIDDEN = ',;:=#"|+()'


@record(frozen=True)
class Card:
    id: str                 # slug of the name
    no: int                 # position in the data file, 1..70 (printed as 'n/70')
    name: str
    colour: str
    type: str
    kind: str | None        # Defense cards: Scales, Guardians or Shield
    number: int
    points: tuple[int, int, int]    # play, set, hand
    effect: Effect

    def score(self, zone: str) -> int:
        return self.points[ZONE_KEYS.index(zone)]

    @property
    def label(self) -> str:
        """'Gilded Dragon 1', 'Crimson Defense (Scales) 2'."""
        kind = f" ({self.kind})" if self.kind else ""
        return f"{self.colour} {self.type}{kind} {self.number}"

    @property
    def effect_text(self) -> str:
        return self.effect.text()

    @property
    def text(self) -> str:
        """The printed text: the effect, and for a Defense card what it does from the hand."""
        if self.type == "Defense":
            return (f"**Defense ({self.kind}).** Discard it from your hand when a card's text "
                    "would affect you: that text then leaves you and your cards alone.\n"
                    "If played: " + self.effect.text())
        return self.effect.text()

    def to_json(self) -> dict[str, Any]:
        return {"no": self.no, "name": self.name, "colour": self.colour, "type": self.type,
                "kind": self.kind, "number": self.number,
                "points": dict(zip(ZONE_KEYS, self.points)), "effect": self.effect.source,
                "text": self.text}


@record(frozen=True)
class Character:
    id: str                 # slug of the full name
    no: int                 # 1..18
    name: str               # 'The Thief II'
    face: str               # 'The Thief' (the face-up side)
    version: str            # 'II' (the concealed side)
    action: Effect
    bonus: tuple[Bonus, ...]
    bonus_source: str

    @property
    def action_text(self) -> str:
        return self.action.text()

    @property
    def bonus_text(self) -> str:
        return bonus_text(self.bonus)

    def to_json(self) -> dict[str, Any]:
        return {"no": self.no, "name": self.name, "character": self.face,
                "version": self.version, "action": self.action.source,
                "action_text": self.action_text, "bonus": self.bonus_source,
                "bonus_text": self.bonus_text}


class Catalogue:
    """Every card and character, with lookups by id and by name."""

    def __init__(self, cards: list[Card], characters: list[Character], source: str):
        self.cards = tuple(cards)
        self.characters = tuple(characters)
        self.source = source
        self.card = {c.id: c for c in cards}
        self.character = {c.id: c for c in characters}
        self.card_names = [c.name for c in cards]
        self.card_by_name = {c.name: c.id for c in cards}
        self.character_names = [c.name for c in characters]
        self.character_by_name = {c.name: c.id for c in characters}
        self.faces = list(dict.fromkeys(c.face for c in characters))
        self.order = {c.id: c.no for c in cards}

    def to_json(self) -> dict[str, Any]:
        return {"cards": [c.to_json() for c in self.cards],
                "characters": [c.to_json() for c in self.characters]}


# ---------------------------------------------------------------------------------- loading
def load_catalogue(folder: Path | str | None = None) -> Catalogue:
    """Read and validate the data files; raise DataError(s) naming file, line and column."""
    path = Path(folder) if folder is not None else DATA_DIR
    return _load(str(path.resolve()))


@lru_cache(maxsize=4)
def _load(folder: str) -> Catalogue:
    if Path(folder) != DATA_DIR.resolve():
        return _Loader(Path(folder)).run()
    from companion.engine import cache     # the bundled data: loaded once, then from the cache
    from companion.mayhem.effects import Filter, Place, Spec, Step

    return cache.cached(cache.name_for("mayhem-cards", DATA_DIR),
                        files=[DATA_DIR / name for name in FILES], code=CODE,
                        build=lambda: _Loader(Path(folder)).run(),
                        codec=cache.Codec((Card, Character, Effect, Bonus, Spec, Filter, Place,
                                           Step),
                                          rebuilt={Catalogue: ("cards", "characters", "source")}))


_HERE = Path(__file__).resolve().parent
CODE = (_HERE / "cards.py", _HERE / "effects.py", _HERE.parent / "engine" / "datafiles.py",
        _HERE.parent / "engine" / "names.py", _HERE.parent / "engine" / "cache.py",
        _HERE.parent / "engine" / "record.py", _HERE.parent / "engine" / "numbers.py",
        _HERE.parent / "errors.py")
"""The sources a cached catalogue depends on besides its data files (tests/test_cache.py
checks that every module of the package that loading imports is here)."""


def check_data_dir(folder: Path | str) -> list[DataError]:
    folder = Path(folder)
    if not folder.is_dir():
        return [DataError("not a folder of data files", path=str(folder),
                          hint=f"it should hold {', '.join(FILES)}")]
    try:
        _Loader(folder).run()
    except DataErrors as exc:
        return list(exc.errors)
    except DataError as exc:
        return [exc]
    return []


def _display(path: Path) -> str:
    try:
        return str(path.relative_to(Path.cwd()))
    except ValueError:
        return str(path)


class _Loader:
    def __init__(self, folder: Path):
        self.folder = folder
        self.files: dict[str, DataFile] = {}
        self.failed: list[DataError] = []

    # -- locating ---------------------------------------------------------------------------
    def where(self, df: DataFile, table: str, index: int, key: str | None = None,
              offset: int | None = None) -> tuple[int | None, int | None]:
        """Line and column of ``key`` inside the ``index``-th ``[[table]]`` (0-based); with
        ``offset``, the column of that character inside the key's string value."""
        lines = df.text.splitlines()
        header = f"[[{table}]]"
        starts = [n for n, line in enumerate(lines) if line.strip() == header]
        if index >= len(starts):
            return None, None
        start = starts[index]
        end = starts[index + 1] if index + 1 < len(starts) else len(lines)
        if key is None:
            return start + 1, 1
        for n in range(start, end):
            stripped = lines[n].lstrip()
            if stripped.startswith("#"):
                continue
            if stripped.startswith(f"{key} =") or stripped.startswith(f"{key}="):
                col = lines[n].index(key) + 1
                if offset is not None and '"' in lines[n]:
                    col = lines[n].index('"') + 2 + offset
                return n + 1, col
        return start + 1, 1

    def error(self, df: DataFile, table: str, index: int, key: str | None, message: str,
              hint: str | None = None, offset: int | None = None) -> None:
        line, col = self.where(df, table, index, key, offset)
        df.errors.append(DataError(message, path=df.path, line=line, column=col, hint=hint))

    # -- driver -----------------------------------------------------------------------------
    def run(self) -> Catalogue:
        for name in FILES:
            path = self.folder / name
            try:
                self.files[name] = DataFile.load(path, display=_display(path))
            except DataError as exc:
                self.failed.append(exc)
        cards: list[Card] = []
        characters: list[Character] = []
        if "cards.toml" in self.files:
            cards = self.parse_cards(self.files["cards.toml"])
        if "characters.toml" in self.files:
            characters = self.parse_characters(self.files["characters.toml"], cards)
        errors = list(self.failed)
        for name in FILES:
            if name in self.files:
                errors.extend(self.files[name].errors)
        if errors:
            if len(errors) == 1:
                raise errors[0]
            raise DataErrors(errors)
        return Catalogue(cards, characters, str(self.folder))

    def table_list(self, df: DataFile, table: str) -> list[Any]:
        df.unknown_keys(df.data, [table], df.path)
        items = df.data.get(table)
        if items is None:
            df.error(f"the file has no [[{table}]] entries", hint=f"add [[{table}]] tables")
            return []
        if not isinstance(items, list) or not all(isinstance(i, dict) for i in items):
            df.error(f"'{table}' must be written as [[{table}]] tables", table)
            return []
        return items

    def check_name(self, df: DataFile, table: str, index: int, name: str, seen: dict[str, int],
                   what: str) -> bool:
        ok = True
        if not name.strip():
            self.error(df, table, index, "name", f"{what} {index + 1}: the name is empty")
            return False
        bad = [ch for ch in name if ch in FORBIDDEN]
        if bad:
            self.error(df, table, index, "name", f"{what} '{name}': the name may not contain "
                       f"{' '.join(dict.fromkeys(bad))}",
                       hint="these characters separate items in orders")
            ok = False
        words = fold(name).split()
        clash = [w for w in words if w in RESERVED]
        if clash:
            self.error(df, table, index, "name", f"{what} '{name}': the word '{clash[0]}' is a "
                       "keyword of the orders and may not be part of a name",
                       hint="reserved words: " + ", ".join(RESERVED))
            ok = False
        if words and words[0].isdigit():
            self.error(df, table, index, "name", f"{what} '{name}': a name may not start with "
                       "a number")
            ok = False
        key = fold(name)
        if key in seen:
            self.error(df, table, index, "name", f"{what} name '{name}' is used twice (first by "
                       f"entry {seen[key] + 1})", hint="every name must be unique")
            ok = False
        seen[key] = index
        return ok

    # -- cards ------------------------------------------------------------------------------
    def parse_cards(self, df: DataFile) -> list[Card]:
        items = self.table_list(df, "card")
        cards: list[Card] = []
        seen: dict[str, int] = {}
        allowed = ("name", "colour", "type", "kind", "number", "points", "effect")
        for i, item in enumerate(items):
            for key in item:
                if key not in allowed:
                    self.error(df, "card", i, key, f"card {i + 1}: unknown key '{key}'",
                               hint=suggest(key, allowed) or f"known keys: {', '.join(allowed)}")
            values = {}
            for key, kind in (("name", str), ("colour", str), ("type", str), ("number", int),
                              ("points", dict), ("effect", str)):
                value = item.get(key)
                if value is None:
                    self.error(df, "card", i, None, f"card {i + 1}: missing key '{key}'",
                               hint=f"every card needs {', '.join(allowed[:3])}, number, "
                                    "points and effect")
                elif not isinstance(value, kind) or isinstance(value, bool):
                    self.error(df, "card", i, key, f"card {i + 1}: '{key}' must be "
                               f"{'a whole number' if kind is int else kind.__name__}, not "
                               f"{value!r}")
                else:
                    values[key] = value
            name = values.get("name", f"card {i + 1}")
            label = f"card '{name}'"
            ok = len(values) == 6
            if "name" in values and not self.check_name(df, "card", i, name, seen, "card"):
                ok = False
            colour = values.get("colour")
            if colour is not None and colour not in COLOURS:
                self.error(df, "card", i, "colour", f"{label}: '{colour}' is not a colour",
                           hint=suggest(colour, COLOURS) or "colours: " + ", ".join(COLOURS))
                ok = False
            ctype = values.get("type")
            if ctype is not None and ctype not in TYPES:
                self.error(df, "card", i, "type", f"{label}: '{ctype}' is not a card type",
                           hint=suggest(ctype, TYPES) or "types: " + ", ".join(TYPES))
                ok = False
            kind = item.get("kind")
            if ctype == "Defense":
                if kind is None:
                    self.error(df, "card", i, "type", f"{label}: a Defense card needs a kind",
                               hint="add kind = \"Scales\", \"Guardians\" or \"Shield\"")
                    ok = False
                elif kind not in KINDS:
                    self.error(df, "card", i, "kind", f"{label}: '{kind}' is not a Defense kind",
                               hint=suggest(str(kind), KINDS) or "kinds: " + ", ".join(KINDS))
                    ok = False
            elif kind is not None and ctype in TYPES:
                self.error(df, "card", i, "kind", f"{label}: only Defense cards have a kind "
                           f"(this is a {ctype})", hint="remove the kind line")
                ok = False
            number = values.get("number")
            if number is not None and not 1 <= number <= 3:
                self.error(df, "card", i, "number", f"{label}: the number must be 1, 2 or 3, "
                           f"not {number}")
                ok = False
            points = values.get("points")
            pts: tuple[int, int, int] | None = None
            if points is not None:
                bad = False
                for key in points:
                    if key not in ZONE_KEYS:
                        self.error(df, "card", i, "points", f"{label}: unknown zone '{key}' in "
                                   "points", hint=suggest(key, ZONE_KEYS) or
                                   "zones: play, set, hand")
                        bad = True
                for key in ZONE_KEYS:
                    v = points.get(key)
                    if v is None:
                        self.error(df, "card", i, "points", f"{label}: points for '{key}' are "
                                   "missing", hint="points = { play = 1, set = 1, hand = 1 }")
                        bad = True
                    elif not isinstance(v, int) or isinstance(v, bool) or not 0 <= v <= 9:
                        self.error(df, "card", i, "points", f"{label}: points for '{key}' must "
                                   f"be a whole number from 0 to 9, not {v!r}")
                        bad = True
                if not bad:
                    pts = tuple(points[k] for k in ZONE_KEYS)
                    if colour in COLOURS:
                        prime = PRIME_ZONE[colour]
                        best = points[prime]
                        others = [points[k] for k in ZONE_KEYS if k != prime]
                        if best <= max(others):
                            self.error(df, "card", i, "points", f"{label}: a {colour} card must "
                                       f"score most in {_zone_name(prime)}, but it scores "
                                       f"{best} there and {max(others)} elsewhere",
                                       hint="the rules rank the zones by colour: Crimson in "
                                            "play, Gilded in hand, Sapphire in a set")
                            bad = True
                ok = ok and not bad
            effect = None
            if "effect" in values:
                try:
                    effect = parse_effect(values["effect"])
                except EffectError as exc:
                    self.error(df, "card", i, "effect", f"{label}: effect: {exc.message}",
                               hint=exc.hint, offset=exc.offset)
                    ok = False
            if ok and pts is not None and effect is not None:
                cards.append(Card(slugify(name), i + 1, name, colour, ctype,
                                  kind if ctype == "Defense" else None, number, pts, effect))
        if not df.errors:
            self.check_deck(df, cards)
        return cards

    def check_deck(self, df: DataFile, cards: list[Card]) -> None:
        if len(cards) != DECK_SIZE:
            df.errors.append(DataError(f"the deck holds {len(cards)} cards; the rules give "
                                       f"{DECK_SIZE}", path=df.path, line=1, column=1,
                                       hint="add or remove [[card]] entries"))
        for kind in KINDS:
            if not any(c.kind == kind for c in cards):
                df.errors.append(DataError(f"no Defense card of the kind {kind}: the set "
                                           "triggers name all three kinds", path=df.path,
                                           line=1, column=1))
        for colour in COLOURS:
            for ctype in TYPES:
                if not any(c.colour == colour for c in cards) or not any(
                        c.type == ctype for c in cards):
                    df.errors.append(DataError(f"the deck needs {colour} cards and {ctype} "
                                               "cards", path=df.path, line=1, column=1))
        for need in RULE_CARDS:
            if not any(need["test"](c) for c in cards):
                df.errors.append(DataError(
                    f"the rules' clarification {need['section']} needs {need['what']}",
                    path=df.path, line=1, column=1,
                    hint=f"give a card the effect '{need['effect']}'"))

    # -- characters -------------------------------------------------------------------------
    def parse_characters(self, df: DataFile, cards: list[Card]) -> list[Character]:
        items = self.table_list(df, "character")
        out: list[Character] = []
        seen: dict[str, int] = {}
        full_seen: dict[str, int] = {}
        bonus_seen: dict[str, str] = {}
        allowed = ("name", "action", "version")
        version_index = 0
        for i, item in enumerate(items):
            for key in item:
                if key not in allowed:
                    self.error(df, "character", i, key, f"character {i + 1}: unknown key "
                               f"'{key}'", hint=suggest(key, allowed) or
                               f"known keys: {', '.join(allowed)}")
            name = item.get("name")
            if not isinstance(name, str):
                self.error(df, "character", i, "name" if "name" in item else None,
                           f"character {i + 1}: 'name' must be text")
                name = None
            elif not self.check_name(df, "character", i, name, seen, "character"):
                name = None
            action = None
            src = item.get("action")
            if not isinstance(src, str):
                self.error(df, "character", i, "action" if "action" in item else None,
                           f"character {i + 1}: 'action' must be text (an effect)")
            else:
                try:
                    action = parse_effect(src)
                except EffectError as exc:
                    self.error(df, "character", i, "action", f"character '{name}': action: "
                               f"{exc.message}", hint=exc.hint, offset=exc.offset)
            versions = item.get("version")
            if not isinstance(versions, list) or not versions or not all(
                    isinstance(v, dict) for v in versions):
                self.error(df, "character", i, None, f"character '{name}': needs "
                           "[[character.version]] tables (the concealed sides)")
                continue
            names_here: set[str] = set()
            for v in versions:
                vi = version_index
                version_index += 1
                for key in v:
                    if key not in ("version", "bonus"):
                        self.error(df, "character.version", vi, key,
                                   f"character '{name}': unknown key '{key}' in a version",
                                   hint=suggest(key, ("version", "bonus")))
                ver = v.get("version")
                bsrc = v.get("bonus")
                if not isinstance(ver, str) or not ver.strip():
                    self.error(df, "character.version", vi, "version" if "version" in v else None,
                               f"character '{name}': a version needs 'version' (e.g. \"II\")")
                    continue
                if ver in names_here:
                    self.error(df, "character.version", vi, "version",
                               f"character '{name}': version {ver} is given twice")
                    continue
                names_here.add(ver)
                if not isinstance(bsrc, str):
                    self.error(df, "character.version", vi, "bonus" if "bonus" in v else None,
                               f"character '{name}' {ver}: 'bonus' must be text")
                    continue
                try:
                    bonus = parse_bonus(bsrc)
                except EffectError as exc:
                    self.error(df, "character.version", vi, "bonus",
                               f"character '{name}' {ver}: bonus: {exc.message}", hint=exc.hint,
                               offset=exc.offset)
                    continue
                key = fold(bsrc)
                if key in bonus_seen:
                    self.error(df, "character.version", vi, "bonus",
                               f"character '{name}' {ver}: the bonus '{bsrc}' is already on "
                               f"{bonus_seen[key]}", hint="give every concealed side its own "
                                                         "bonus rule")
                    continue
                bonus_seen[key] = f"{name} {ver}"
                if name is None or action is None:
                    continue
                full = f"{name} {ver}"
                if fold(full) in full_seen:
                    self.error(df, "character.version", vi, "version",
                               f"'{full}' is used twice")
                    continue
                full_seen[fold(full)] = vi
                out.append(Character(slugify(full), len(out) + 1, full, name, ver, action,
                                     bonus, bsrc))
        if not df.errors and len(out) != CHARACTER_COUNT:
            df.errors.append(DataError(f"there are {len(out)} character cards (versions); the "
                                       f"rules give {CHARACTER_COUNT}", path=df.path, line=1,
                                       column=1, hint="add or remove [[character.version]] "
                                                      "tables"))
        card_keys = {fold(c.name) for c in cards}
        for ch in out:
            for key in (fold(ch.name), fold(ch.face)):
                if key in card_keys:
                    df.errors.append(DataError(f"the character '{ch.name}' has the name of a "
                                               "card", path=df.path, line=1, column=1))
        return out


def _zone_name(zone: str) -> str:
    return {"play": "play (Territory)", "set": "a set (Castle)", "hand": "hand (Resources)"}[zone]


def _has_step(card: Card, op: str, place: str, ctype: str, n: int | None = None) -> bool:
    for alt in card.effect.alternatives:
        for s in alt:
            if s.op != op or [p.to_json() for p in s.places] != [place]:
                continue
            if [sp.to_json() for sp in s.filter.specs] != [{"type": ctype}]:
                continue
            if n is None or (s.n == n and not s.upto and not s.all):
                return True
    return False


RULE_CARDS = [
    {"section": "N.1", "what": "a Gilded Dragon that captures a Princess from the target "
     "player's hand", "effect": "capture 1 Princess from target hand",
     "test": lambda c: c.colour == "Gilded" and c.type == "Dragon"
     and _has_step(c, "capture", "target hand", "Princess")},
    {"section": "N.2", "what": "a Gilded Princess that lures 3 Knights from the target player's "
     "hand", "effect": "lure 3 Knight from target hand",
     "test": lambda c: c.colour == "Gilded" and c.type == "Princess"
     and _has_step(c, "lure", "target hand", "Knight", 3)},
    {"section": "N.3", "what": "a Crimson Knight that destroys a Dragon in the target player's "
     "play zone", "effect": "destroy 1 Dragon from target play",
     "test": lambda c: c.colour == "Crimson" and c.type == "Knight"
     and _has_step(c, "destroy", "target play", "Dragon", 1)},
    {"section": "N.4", "what": "a Gilded Knight that destroys 1 Dragon in the target player's "
     "hand", "effect": "destroy 1 Dragon from target hand",
     "test": lambda c: c.colour == "Gilded" and c.type == "Knight"
     and _has_step(c, "destroy", "target hand", "Dragon", 1)},
    {"section": "N.7", "what": "a card that makes every player destroy a Dragon in their hand",
     "effect": "destroy 1 Dragon from each hand",
     "test": lambda c: _has_step(c, "destroy", "each hand", "Dragon", 1)},
]
