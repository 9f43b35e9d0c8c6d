"""The Knights of Camelot world: map, cards, chits, charts, war steps and requests.

``load_world()`` reads the editable TOML files in ``companion/koc/data`` (or a user's edited
copy), validates everything (loader.py) and returns a ``World``. Every problem is reported
with the file, line and column it comes from; all problems of all files are collected and
raised together (``DataErrors``). ``check_data_dir()`` returns the list instead of raising.

Derived values (never stored in the files, so they cannot disagree):
- provinces of a forest, river or wasteland: the countrysides it touches (by land or river);
  its kingdoms and castellanies follow from those provinces;
- kingdom, castellany and provinces of a town, castle or shrine: those of its enclosing area;
- a card's Wound Level (CP/10 rounded down) and the Virtue Points that give its VL;
- the deployment numbers of an area: the rolls of the two deployment charts landing on it.
"""
from __future__ import annotations

import math
from dataclasses import field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from companion.engine.cache import Deferred
from companion.engine.names import Match, fold, match_name
from companion.engine.record import record
from companion.errors import CompanionError, DataError, DataErrors

if TYPE_CHECKING:
    from .charts import Chart, Entry, Span

DATA_DIR = Path(__file__).resolve().parent / "data"

FILES = ("kingdoms.toml", "areas.toml", "knights.toml", "kings.toml", "ladies.toml",
         "chits.toml", "charts.toml", "deployment.toml", "adventures.toml", "war.toml",
         "requests.toml")
CHART_FILES = ("charts.toml", "deployment.toml", "adventures.toml", "war.toml")

KINDS = ("countryside", "forest", "river", "wasteland", "sea", "town", "castle", "shrine")
TERRAIN = ("countryside", "forest", "river", "wasteland")   # may enclose a site
SITES = ("town", "castle", "shrine")
OPEN_LAND = ("countryside", "forest", "wasteland")

LOGRES = "Logres"
KINGDOM_COUNT = 15
CASTELLANY_COUNT = 6
CARD_COUNTS = {"knight": 75, "king": 15, "lady": 30}
CP_RANGE = (10, 300)
ALWAYS_PRAY = ("Sir Galahad", "Sir Percival", "Sir Bors", "King Arthur", "King Pellam", "Lady Elaine")
PERFECT_KNIGHT = "Sir Galahad"
ENCHANTRESS_QUEEN = ("Queen of North Wales", 9)
REQUIRED_SPECIALS = ("Merlin/Morgan Le Fay", "Questing Beast", "Holy Grail")
REQUIRED_CHARTS = (
    "countryside", "forest", "river", "sea", "town", "shrine", "castle",
    "animal", "dwarf", "hermit", "king", "knight", "lady", "lady_company", "town_lady",
    "merlin_or_morgan", "merlin", "merlin_gifts",
    "aids", "enchantments", "messages", "oaths", "tricks", "passerby", "jailor",
    "king_arthur", "combat_events", "knights_fate", "special_tournament_prizes",
    "signal_honour", "merchant_ship", "curse", "shrine_defenders", "pirate_landing",
    "king_escort", "lady_escort", "devil_check", "random_kingdom", "deploy_countryside",
    "deploy_castle", "random_shrine", "adventures", "raiders_site", "treason_site",
    "war_muster", "war_prizes",
)
WAR_ENDS = ("home", "coast", "king_castle", "lady_castle", "slain")
WAR_WHEN = ("now", "next_turn")
REQUEST_ONLY = ("castellan", "lord", "own_lady", "not_at_castle", "not_at_shrine")
REQUIRED_REQUESTS = (
    "adventure", "appeal_to_jailor", "arthurs_favour", "castle", "dwarf", "escort", "heal",
    "join", "lift_enchantment", "men_at_arms", "pardon", "pilgrimage",
    "release_enchantress_service", "release_oath", "service", "token", "welcome",
)
"""The requests the orders let a knight make (the Grail's quest aside: engine/grail.py)."""
REQUIRED_PERSONS = ("arthurian_knight", "castle_owner", "dwarf", "hermit", "king", "knight",
                    "lady")
"""The persons the Prayers & Requests phase asks (engine/requests.py)."""
MAP_WIDTH, MAP_HEIGHT = 56.0, 74.0
"""The frame of the schematic map in map units (x east, y north, origin at the south-west
corner); the printed poster shows one map unit as 1 cm."""
MIN_SPACING = 1.0
"""Two areas' positions must be at least this far apart (map units)."""


# =========================================================================== model

@record(frozen=True)
class Kingdom:
    """A kingdom of the map (``kingdoms.toml``), or an independent land."""

    name: str
    royal_castle: str | None = None
    escort_destination: str | None = None
    countryside_modifier: int = 0
    overseas: bool = False
    independent: bool = False
    note: str | None = None


@record(frozen=True)
class Castellany:
    """One of Logres' castellanies: its number and its castle."""

    name: str
    number: int
    castle: str
    note: str | None = None


@record
class Area:
    """An area of the map (``areas.toml``): what it is, where it lies, its links, and the
    values derived from the other areas and the charts."""

    name: str
    kind: str
    aliases: tuple[str, ...] = ()
    kingdom: str | None = None          # countrysides only (as written in the file)
    castellany: str | None = None
    within: str | None = None
    also: tuple[str, ...] = ()
    port: bool = False
    navigable: bool = False
    otherworld: bool = False
    at: tuple[float, float] | None = None   # its spot on the schematic map (map units)
    path: tuple[tuple[float, float], ...] = ()  # a sea's course on the map (else just its spot)
    land: tuple[str, ...] = ()
    river: tuple[str, ...] = ()
    ship: tuple[str, ...] = ()
    note: str | None = None
    # derived
    provinces: tuple[str, ...] = ()
    kingdoms: tuple[str, ...] = ()
    castellanies: tuple[str, ...] = ()
    sites: tuple[str, ...] = ()
    deploy_countryside: tuple[str, ...] = ()
    deploy_castle: tuple[str, ...] = ()

    @property
    def features(self) -> tuple[str, ...]:
        out = [self.kind, *self.also]
        if self.port:
            out.append("port")
        return tuple(out)

    @property
    def is_site(self) -> bool:
        return self.kind in SITES

    @property
    def is_shrine(self) -> bool:
        return self.kind == "shrine" or "shrine" in self.also

    @property
    def is_town(self) -> bool:
        return self.kind == "town" or "town" in self.also

    @property
    def coast(self) -> tuple[str, ...]:
        """Seas on which this land area has a coast (empty for seas, rivers and sites)."""
        return self.ship if self.kind in OPEN_LAND else ()

    def links(self) -> dict[str, tuple[str, ...]]:
        land = list(self.land)
        if self.within:
            land.append(self.within)
        land.extend(self.sites)
        return {"land": tuple(dict.fromkeys(land)), "river": self.river, "ship": self.ship}

    def adjacent(self) -> tuple[str, ...]:
        seen = []
        for names in self.links().values():
            seen.extend(names)
        return tuple(sorted(dict.fromkeys(seen), key=fold))


def virtue_points_range(cp: int, vl: int) -> tuple[int, int | None] | None:
    """The Virtue Points that give ``vl`` for ``cp`` (VL = CP/VP rounded up), or None.

    Returns (lowest, highest); highest is None for VL 1 (any VP from CP upwards).
    """
    if vl < 1 or cp < 1:
        return None
    if vl == 1:
        return cp, None
    lo = math.ceil(cp / vl)
    hi = math.ceil(cp / (vl - 1)) - 1
    if lo > hi or math.ceil(cp / lo) != vl:
        return None
    return lo, hi


@record(frozen=True)
class Knight:
    """A knight card (``knights.toml``)."""

    name: str
    virtue_level: int
    chivalry_points: int
    arthurian: bool
    note: str | None = None

    @property
    def wound_level(self) -> int:
        return self.chivalry_points // 10

    def to_json(self) -> dict[str, Any]:
        vp = virtue_points_range(self.chivalry_points, self.virtue_level)
        return {"name": self.name, "virtue_level": self.virtue_level,
                "chivalry_points": self.chivalry_points, "wound_level": self.wound_level,
                "arthurian": self.arthurian, "virtue_points": list(vp) if vp else None,
                **({"note": self.note} if self.note else {})}


@record(frozen=True)
class King:
    """A king card (``kings.toml``)."""

    name: str
    kingdom: str
    virtue_level: int
    chivalry_points: int
    note: str | None = None

    @property
    def wound_level(self) -> int:
        return self.chivalry_points // 10

    def to_json(self) -> dict[str, Any]:
        vp = virtue_points_range(self.chivalry_points, self.virtue_level)
        return {"name": self.name, "kingdom": self.kingdom, "virtue_level": self.virtue_level,
                "chivalry_points": self.chivalry_points, "wound_level": self.wound_level,
                "virtue_points": list(vp) if vp else None,
                **({"note": self.note} if self.note else {})}


@record(frozen=True)
class Lady:
    """A lady card (``ladies.toml``)."""

    name: str
    virtue_level: int
    service_award: int
    seduction_adjustment: int
    enchantress: bool
    home_castle: str
    note: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "virtue_level": self.virtue_level,
                "service_award": self.service_award,
                "seduction_adjustment": self.seduction_adjustment,
                "enchantress": self.enchantress, "home_castle": self.home_castle,
                "wound_level": 1, **({"note": self.note} if self.note else {})}


@record(frozen=True)
class ChitKind:
    """A kind of chit (monster, animal, ship...) and how its chits fight."""

    name: str
    label: str
    attack_dice: int
    drawn: bool


@record(frozen=True)
class Chit:
    """A chit of the counter sheets (``chits.toml``)."""

    kind: str
    name: str
    count: int
    wound_level: int | None = None
    crew: int | None = None
    optional: bool = False
    note: str | None = None
    colour: str | None = None

    def to_json(self, kinds: dict[str, ChitKind]) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind, "name": self.name, "count": self.count}
        if self.wound_level is not None:
            out["wound_level"] = self.wound_level
        if self.crew is not None:
            out["crew"] = self.crew
        kind = kinds.get(self.kind)
        if kind and kind.attack_dice:
            out["attack_dice"] = kind.attack_dice
        if kind:
            out["drawn"] = kind.drawn
        if self.colour:
            out["colour"] = self.colour
        if self.optional:
            out["optional"] = True
        if self.note:
            out["note"] = self.note
        return out


@record(frozen=True)
class PlayerColour:
    """A player's colour: its letter and how many markers it has."""

    colour: str
    letter: str
    markers: int


@record(frozen=True)
class WarExit:
    """Where a foreign war step leads: on an outcome and/or a roll, to a step or an end."""

    on: str | None
    roll: Span | None
    next: str | None
    end: str | None
    when: str | None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        if self.on:
            out["on"] = self.on
        if self.roll:
            out["roll"] = str(self.roll)
        if self.next:
            out["next"] = self.next
        if self.end:
            out["end"] = self.end
        if self.when:
            out["when"] = self.when
        return out


@record(frozen=True)
class WarStep:
    """A step of the foreign war (``war.toml``): its effects and its exits."""

    letter: str
    key: str
    label: str
    roll: str | None
    exits: tuple[WarExit, ...]
    effects: tuple[Entry, ...] = ()
    values: dict[str, Any] = field(default_factory=dict)
    note: str | None = None

    def exit_for(self, die: int | None = None, on: str | None = None) -> WarExit:
        """The exit taken for a die roll and/or an outcome (``on``: win, lose, a choice)."""
        for ex in self.exits:
            if ex.on not in (None, "always") and ex.on != on:
                continue
            if ex.roll is not None and (die is None or die not in ex.roll):
                continue
            return ex
        outcomes = sorted({e.on for e in self.exits if e.on and e.on != "always"})
        raise CompanionError(f"war step {self.letter}: no exit for die {die} and outcome {on!r}",
                             hint=("outcomes: " + ", ".join(outcomes)) if outcomes else "roll a d6")

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"letter": self.letter, "key": self.key, "label": self.label}
        if self.roll:
            out["roll"] = self.roll
        out.update(self.values)
        if self.effects:
            out["effects"] = [e.to_json() for e in self.effects]
        out["exits"] = [e.to_json() for e in self.exits]
        if self.note:
            out["note"] = self.note
        return out


@record(frozen=True)
class RequestKind:
    """A kind of request a knight may be asked to grant (``requests.toml``)."""

    key: str
    label: str
    note: str | None = None


@record(frozen=True)
class Person:
    """Who makes requests, and which (each with the condition it is made only on)."""

    key: str
    label: str
    requests: tuple[tuple[str, str | None], ...]


@record
class World(Deferred):
    """The whole validated world: map, cards, chits, charts, war steps and requests. Read from
    the cache (``load_world(cache=True)``), its charts and war steps are decoded when first
    used: most quick commands never look at them."""

    kingdoms: dict[str, Kingdom]
    independent: dict[str, Kingdom]
    castellanies: dict[str, Castellany]
    areas: dict[str, Area]
    knights: tuple[Knight, ...]
    kings: tuple[King, ...]
    ladies: tuple[Lady, ...]
    chit_kinds: dict[str, ChitKind]
    chits: tuple[Chit, ...]
    player_colours: tuple[PlayerColour, ...]
    charts: dict[str, Chart]
    war_steps: dict[str, WarStep]
    requests: dict[str, RequestKind]
    persons: dict[str, Person]
    source: str = ""

    # ---- names -----------------------------------------------------------------------
    @property
    def area_aliases(self) -> dict[str, str]:
        return {alias: a.name for a in self.areas.values() for alias in a.aliases}

    def match_area(self, typed: str) -> Match:
        return match_name(typed, list(self.areas), self.area_aliases)

    def area(self, typed: str) -> Area:
        """The area a user typed (case, accents and unique prefixes are forgiven)."""
        known = self.areas.get(typed)    # the engine names areas exactly: no folding needed
        if known is not None:
            return known
        return self.areas[_settle(self.match_area(typed), typed, "area")]

    def chart(self, typed: str) -> Chart:
        titles = {c.title: c.name for c in self.charts.values()}
        return self.charts[_settle(match_name(typed, list(self.charts), titles), typed, "chart",
                                   list(self.charts))]

    def knight(self, typed: str) -> Knight:
        by = {k.name: k for k in self.knights}
        return by[_settle(match_name(typed, list(by)), typed, "knight")]

    def king(self, typed: str) -> King:
        by = {k.name: k for k in self.kings}
        aliases = {k.kingdom: k.name for k in self.kings}
        return by[_settle(match_name(typed, list(by), aliases), typed, "king")]

    def lady(self, typed: str) -> Lady:
        by = {k.name: k for k in self.ladies}
        return by[_settle(match_name(typed, list(by)), typed, "lady")]

    def kingdom(self, typed: str) -> Kingdom:
        every = {**self.kingdoms, **self.independent}
        return every[_settle(match_name(typed, list(every)), typed, "kingdom")]

    # ---- geography helpers -------------------------------------------------------------
    def royal_castle(self, kingdom: str, castellany: str | None = None) -> Area:
        if castellany:
            return self.areas[self.castellanies[castellany].castle]
        name = self.kingdoms[kingdom].royal_castle
        assert name is not None
        return self.areas[name]

    def provinces(self, kingdom: str, castellany: str | None = None) -> list[str]:
        return [a.name for a in self.areas.values() if a.kind == "countryside"
                and a.kingdom == kingdom and (castellany is None or a.castellany == castellany)]

    def local_countryside(self, name: str) -> Area:
        """The countryside around a town, castle or shrine (or the area itself)."""
        area = self.areas[name]
        while area.within:
            area = self.areas[area.within]
        return area

    def merlin_zone(self, countryside: str) -> list[str]:
        """Where the Merlin/Morgan counter counts as present when placed in ``countryside``:
        the countryside, the towns, castles and shrines in it, and the forests, rivers and
        wastelands next to it."""
        area = self.areas[countryside]
        out = [area.name, *area.sites]
        for other in (*area.land, *area.river):
            if self.areas[other].kind in ("forest", "river", "wasteland"):
                out.append(other)
        return list(dict.fromkeys(out))

    def countryside_modifier(self, name: str) -> int:
        """Modifier to a countryside encounter roll in this area (kingdom and wasteland)."""
        area = self.areas[name]
        mod = -1 if area.kind == "wasteland" else 0
        kingdom_mods = [self.kingdoms[k].countryside_modifier for k in area.kingdoms if k in self.kingdoms]
        if kingdom_mods:
            mod += kingdom_mods[0] if len(set(kingdom_mods)) == 1 else 0
        return mod

    def ports(self) -> list[str]:
        return [a.name for a in self.areas.values() if a.port]

    # ---- export ------------------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        roll_of = _kingdom_rolls(self)
        return {
            "game": "koc",
            "kingdoms": [
                {"name": k.name, "king": next((c.name for c in self.kings if c.kingdom == k.name), None),
                 "royal_castle": k.royal_castle, "escort_destination": k.escort_destination,
                 "countryside_modifier": k.countryside_modifier, "overseas": k.overseas,
                 "deploy_roll": roll_of.get(k.name),
                 "provinces": self.provinces(k.name),
                 "castellanies": [c.name for c in self.castellanies.values()] if k.name == LOGRES else [],
                 **({"note": k.note} if k.note else {})}
                for k in self.kingdoms.values()
            ] + [
                {"name": k.name, "independent": True, "provinces": self.provinces(k.name),
                 **({"note": k.note} if k.note else {})}
                for k in self.independent.values()
            ],
            "castellanies": [
                {"name": c.name, "number": c.number, "castle": c.castle, "kingdom": LOGRES,
                 "deploy_roll": roll_of.get(f"{LOGRES}/{c.name}"),
                 "provinces": self.provinces(LOGRES, c.name)}
                for c in self.castellanies.values()
            ],
            "areas": [_area_json(a) for a in self.areas.values()],
            "knights": [k.to_json() for k in self.knights],
            "kings": [k.to_json() for k in self.kings],
            "ladies": [k.to_json() for k in self.ladies],
            "chits": [c.to_json(self.chit_kinds) for c in self.chits],
            "chit_kinds": [{"name": k.name, "label": k.label, "attack_dice": k.attack_dice,
                            "drawn": k.drawn} for k in self.chit_kinds.values()],
            "charts": [c.to_json() for c in self.charts.values()],
            "foreign_war": [s.to_json() for s in self.war_steps.values()],
            "requests": [{"key": r.key, "label": r.label, **({"note": r.note} if r.note else {})}
                         for r in self.requests.values()],
            "request_sources": [
                {"key": p.key, "label": p.label,
                 "requests": [{"key": k, **({"only": o} if o else {})} for k, o in p.requests]}
                for p in self.persons.values()
            ],
        }


def _settle(m: Match, typed: str, what: str, known: list[str] | None = None) -> str:
    if m.ok:
        assert m.name is not None
        return m.name
    if m.ambiguous:
        raise CompanionError(f"{what} '{typed}' is ambiguous: it could be {', '.join(m.candidates)}",
                             hint="type more of the name")
    hint = f"did you mean {' or '.join(repr(s) for s in m.suggestions)}?" if m.suggestions else None
    if hint is None and known:
        hint = f"the {what}s: {', '.join(known)}"
    raise CompanionError(f"unknown {what} '{typed}'", hint=hint)


def _area_json(a: Area) -> dict[str, Any]:
    links = a.links()
    out: dict[str, Any] = {
        "name": a.name,
        "kind": a.kind,
        "features": list(a.features),
        "aliases": list(a.aliases),
        "kingdom": a.kingdoms[0] if len(a.kingdoms) == 1 else None,
        "kingdoms": list(a.kingdoms),
        "castellany": a.castellanies[0] if len(a.castellanies) == 1 else None,
        "castellanies": list(a.castellanies),
        "provinces": list(a.provinces),
        "within": a.within,
        "sites": list(a.sites),
        "port": a.port,
        "navigable": a.navigable,
        "coast": list(a.coast),
        "adjacent": list(a.adjacent()),
        "links": {k: sorted(v, key=fold) for k, v in links.items()},
        "deploy": {"countryside": list(a.deploy_countryside), "castle": list(a.deploy_castle)},
    }
    if a.otherworld:
        out["otherworld"] = True
    if a.at is not None:
        out["at"] = list(a.at)
        if len(a.path) > 1:
            out["course"] = [list(p) for p in a.path]
    if a.note:
        out["note"] = a.note
    return out


def _kingdom_rolls(world: World) -> dict[str, str]:
    chart = world.charts.get("random_kingdom")
    out: dict[str, str] = {}
    if not chart:
        return out
    for e in chart.entries:
        k, c = e.get("kingdom"), e.get("castellany")
        if c:
            out[f"{k}/{c}"] = e.roll_text
            out.setdefault(k, e.roll[0].__str__())
        elif k:
            out[k] = e.roll_text
    return out


# =========================================================================== loading

def load_world(data_dir: Path | str | None = None, *, cache: bool = False) -> World:
    """Read and validate the data files; raise ``DataErrors`` (or one ``DataError``).

    With ``cache``, a world loaded before from the same files by the same code is taken from
    the user's cache folder instead (companion/engine/cache.py); the result is the same."""
    folder = Path(data_dir) if data_dir is not None else DATA_DIR
    if not cache:
        return _build(folder)
    from companion.engine import cache as _cache

    return _cache.cached(_cache.name_for("koc-world", folder),
                         files=[folder / name for name in FILES], code=CODE,
                         build=lambda: _build(folder), codec=_codec())


def _build(folder: Path) -> World:
    """The world read from the files of ``folder`` (loader.py, imported only now)."""
    from .loader import Loader

    return Loader(folder).run()


def _codec():
    from companion.engine.cache import Codec

    from .charts import Chart, Die, Entry, Modifier, Span

    return Codec((Kingdom, Castellany, Area, Knight, King, Lady, ChitKind, Chit, PlayerColour,
                  WarExit, WarStep, RequestKind, Person, World, Die, Span, Entry, Modifier,
                  Chart), deferred={World: ("charts", "war_steps")})


def __getattr__(name: str) -> Any:
    """``_Loader``: the reader of the data files, now ``loader.Loader`` (imported when named)."""
    if name == "_Loader":
        from .loader import Loader

        return Loader
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


_PACKAGE = Path(__file__).resolve().parent
CODE = tuple(_PACKAGE / name for name in ("world.py", "loader.py", "charts.py",
                                          "_source.py")) + tuple(
    _PACKAGE.parent / name for name in ("engine/datafiles.py", "engine/names.py",
                                        "engine/cache.py", "engine/record.py",
                                        "errors.py"))
"""The sources a cached world depends on besides its data files (a test checks that every
module of the package that loading imports is here)."""


def check_data_dir(path: Path | str) -> list[DataError]:
    """Every problem in an edited copy of the data folder (empty when it is valid)."""
    path = Path(path)
    if not path.is_dir():
        return [DataError("not a folder of data files", path=str(path),
                          hint=f"it should hold {', '.join(FILES)}")]
    try:
        load_world(path)
    except DataErrors as exc:
        return list(exc.errors)
    except DataError as exc:
        return [exc]
    return []


_default_world: World | None = None


def default_world() -> World:
    """The bundled world, loaded once."""
    global _default_world
    if _default_world is None:
        _default_world = load_world(cache=True)
    return _default_world
