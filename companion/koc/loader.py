"""Reading Knights of Camelot's data files (``companion/koc/data`` or an edited copy) into a
``World`` (world.py), with every check and every derived value described there.

Only loading from the files needs this module (and the chart parsing of charts.py, _source.py
and engine/datafiles.py): a command served from the cache of loaded data never imports it.
"""
from __future__ import annotations

import math
from collections import deque
from pathlib import Path
from typing import Any, Sequence

from companion.engine.datafiles import DataFile
from companion.engine.names import fold
from companion.errors import DataError, DataErrors

from ._source import LIST_OF_STR, Field, Source, check_entry, suggest
from .charts import (
    AMOUNT_KEYS, AMOUNT_RE, DRAW_VALUES, ENTRY_KEYS, ENTRY_VALUES, KEY_RE, MAX_LABEL,
    PER_VALUES, SITE_VALUES, Chart, Die, Entry, Modifier, Span, check_coverage, parse_roll,
    roll_text,
)
from .world import (
    ALWAYS_PRAY, CARD_COUNTS, CASTELLANY_COUNT, CHART_FILES, CP_RANGE, ENCHANTRESS_QUEEN, FILES,
    KINDS, KINGDOM_COUNT, LOGRES, MAP_HEIGHT, MAP_WIDTH, MIN_SPACING, OPEN_LAND, PERFECT_KNIGHT,
    REQUEST_ONLY, REQUIRED_CHARTS, REQUIRED_PERSONS, REQUIRED_REQUESTS, REQUIRED_SPECIALS, SITES, TERRAIN, WAR_ENDS, WAR_WHEN, Area,
    Castellany, Chit, ChitKind, King, Kingdom, Knight, Lady, Person, PlayerColour, RequestKind,
    WarExit, WarStep, World, virtue_points_range,
)


class Loader:
    def __init__(self, folder: Path):
        self.folder = folder
        self.sources: dict[str, Source] = {}
        self.failed: list[DataError] = []

    # ---- driver --------------------------------------------------------------------------
    def run(self) -> World:
        for name in FILES:
            path = self.folder / name
            try:
                self.sources[name] = Source(DataFile.load(path, display=str(path)))
            except DataError as exc:
                self.failed.append(exc)
        self.kingdoms: dict[str, Kingdom] = {}
        self.independent: dict[str, Kingdom] = {}
        self.castellanies: dict[str, Castellany] = {}
        self.areas: dict[str, Area] = {}
        self.area_index: dict[str, int] = {}
        self.knights: list[Knight] = []
        self.kings: list[King] = []
        self.ladies: list[Lady] = []
        self.chit_kinds: dict[str, ChitKind] = {}
        self.chits: list[Chit] = []
        self.colours: list[PlayerColour] = []
        self.charts: dict[str, Chart] = {}
        self.chart_origin: dict[str, tuple[Source, int]] = {}
        self.steps: dict[str, WarStep] = {}
        self.step_index: dict[str, int] = {}
        self.requests: dict[str, RequestKind] = {}
        self.persons: dict[str, Person] = {}

        if "kingdoms.toml" in self.sources:
            self.parse_kingdoms(self.sources["kingdoms.toml"])
        if "areas.toml" in self.sources:
            self.parse_areas(self.sources["areas.toml"])
            if "kingdoms.toml" in self.sources:
                self.check_map()
        for name, table in (("knights.toml", "knight"), ("kings.toml", "king"), ("ladies.toml", "lady")):
            if name in self.sources:
                self.parse_cards(self.sources[name], table)
        self.check_cards()
        if "chits.toml" in self.sources:
            self.parse_chits(self.sources["chits.toml"])
        for name in CHART_FILES:
            if name in self.sources:
                self.parse_charts(self.sources[name], name)
        if "war.toml" in self.sources:
            self.parse_war(self.sources["war.toml"])
        if "requests.toml" in self.sources:
            self.parse_requests(self.sources["requests.toml"])
        self.check_charts()

        errors = list(self.failed)
        for name in FILES:
            if name in self.sources:
                errors.extend(self.sources[name].errors)
        if errors:
            if len(errors) == 1:
                raise errors[0]
            raise DataErrors(errors)
        world = World(
            kingdoms=self.kingdoms, independent=self.independent, castellanies=self.castellanies,
            areas=self.areas, knights=tuple(self.knights), kings=tuple(self.kings),
            ladies=tuple(self.ladies), chit_kinds=self.chit_kinds, chits=tuple(self.chits),
            player_colours=tuple(self.colours), charts=self.charts, war_steps=self.steps,
            requests=self.requests, persons=self.persons, source=str(self.folder),
        )
        self.derive_deployment(world)
        return world

    # ---- helpers -------------------------------------------------------------------------
    def tables(self, src: Source, allowed: Sequence[str]) -> dict[str, list[Any]]:
        out: dict[str, list[Any]] = {}
        for key, value in src.data.items():
            if key not in allowed:
                hint = suggest(key, allowed) or f"this file holds {', '.join('[[' + a + ']]' for a in allowed)}"
                src.error(None, None, f"unknown table '{key}'", f"[[{key}]]", f"[{key}]", key, hint=hint)
                continue
            if not isinstance(value, list) or not all(isinstance(v, dict) for v in value):
                src.error(None, None, f"'{key}' must be written as [[{key}]] tables", key)
                continue
            out[key] = value
        return out

    def unique(self, src: Source, table: str, index: int, name: str, seen: dict[str, str], what: str) -> bool:
        key = fold(name)
        if key in seen:
            src.error(table, index, f"duplicate {what} name '{name}' (already used by '{seen[key]}')",
                      name, "name =")
            return False
        seen[key] = name
        return True

    # ---- kingdoms ------------------------------------------------------------------------
    def parse_kingdoms(self, src: Source) -> None:
        tables = self.tables(src, ("kingdom", "castellany", "independent"))
        seen: dict[str, str] = {}
        kschema = {"name": Field(str), "royal_castle": Field(str), "escort_destination": Field(str),
                   "countryside_modifier": Field(int), "overseas": Field(bool), "note": Field(str, False)}
        for i, raw in enumerate(tables.get("kingdom", [])):
            e = check_entry(src, "kingdom", i, raw, kschema, _what(raw, "kingdom", i))
            if not e or "name" not in e or not self.unique(src, "kingdom", i, e["name"], seen, "kingdom"):
                continue
            if not -2 <= e.get("countryside_modifier", 0) <= 2:
                src.error("kingdom", i, f"kingdom '{e['name']}': countryside_modifier must be -2 to 2",
                          "countryside_modifier")
            self.kingdoms[e["name"]] = Kingdom(
                e["name"], e.get("royal_castle"), e.get("escort_destination"),
                e.get("countryside_modifier", 0), e.get("overseas", False), False, e.get("note"))
        for i, raw in enumerate(tables.get("independent", [])):
            e = check_entry(src, "independent", i, raw, {"name": Field(str), "note": Field(str, False)},
                            _what(raw, "independent land", i))
            if e and "name" in e and self.unique(src, "independent", i, e["name"], seen, "land"):
                self.independent[e["name"]] = Kingdom(e["name"], independent=True, note=e.get("note"))
        cseen: dict[str, str] = {}
        numbers: dict[int, str] = {}
        cschema = {"name": Field(str), "number": Field(int), "castle": Field(str), "note": Field(str, False)}
        for i, raw in enumerate(tables.get("castellany", [])):
            e = check_entry(src, "castellany", i, raw, cschema, _what(raw, "castellany", i))
            if not e or "name" not in e or not self.unique(src, "castellany", i, e["name"], cseen, "castellany"):
                continue
            n = e.get("number", 0)
            if not 1 <= n <= CASTELLANY_COUNT:
                src.error("castellany", i, f"castellany '{e['name']}': number must be 1 to {CASTELLANY_COUNT}", "number")
            elif n in numbers:
                src.error("castellany", i, f"castellany '{e['name']}': number {n} is already used by {numbers[n]}", "number")
            else:
                numbers[n] = e["name"]
            self.castellanies[e["name"]] = Castellany(e["name"], n, e.get("castle", ""), e.get("note"))
        if len(self.kingdoms) != KINGDOM_COUNT:
            src.error(None, None, f"the map has {KINGDOM_COUNT} kingdoms; this file lists {len(self.kingdoms)}",
                      "[[kingdom]]")
        if len(self.castellanies) != CASTELLANY_COUNT:
            src.error(None, None, f"Logres has {CASTELLANY_COUNT} castellanies; this file lists {len(self.castellanies)}",
                      "[[castellany]]")
        if LOGRES not in self.kingdoms:
            src.error(None, None, f"the kingdom '{LOGRES}' (whose castellanies are listed here) is missing",
                      "[[kingdom]]")

    # ---- areas ---------------------------------------------------------------------------
    def parse_areas(self, src: Source) -> None:
        tables = self.tables(src, ("area",))
        schema = {"name": Field(str), "kind": Field(str), "aliases": Field(LIST_OF_STR, False),
                  "kingdom": Field(str, False), "castellany": Field(str, False),
                  "within": Field(str, False), "also": Field(LIST_OF_STR, False),
                  "port": Field(bool, False), "navigable": Field(bool, False),
                  "otherworld": Field(bool, False), "land": Field(LIST_OF_STR, False),
                  "river": Field(LIST_OF_STR, False), "ship": Field(LIST_OF_STR, False),
                  "at": Field(list, False), "note": Field(str, False)}
        seen: dict[str, str] = {}
        for i, raw in enumerate(tables.get("area", [])):
            e = check_entry(src, "area", i, raw, schema, _what(raw, "area", i))
            if not e or "name" not in e or "kind" not in e:
                continue
            name = e["name"]
            if not name.strip() or name != name.strip():
                src.error("area", i, f"area name {name!r} has stray spaces", "name =")
                continue
            if not self.unique(src, "area", i, name, seen, "area"):
                continue
            kind = e["kind"]
            if kind not in KINDS:
                src.error("area", i, f"area '{name}': unknown kind '{kind}'", "kind =",
                          hint=suggest(kind, KINDS) or f"kinds: {', '.join(KINDS)}")
            for alias in e.get("aliases", []):
                if fold(alias) in seen:
                    src.error("area", i, f"area '{name}': alias '{alias}' is already the name or alias of "
                              f"'{seen[fold(alias)]}'", alias)
                else:
                    seen[fold(alias)] = name
            self.area_index[name] = i
            self.areas[name] = Area(
                name=name, kind=kind, aliases=tuple(e.get("aliases", [])), kingdom=e.get("kingdom"),
                castellany=e.get("castellany"), within=e.get("within"), also=tuple(e.get("also", [])),
                port=e.get("port", False), navigable=e.get("navigable", False),
                otherworld=e.get("otherworld", False), land=tuple(e.get("land", [])), river=tuple(e.get("river", [])),
                ship=tuple(e.get("ship", [])), note=e.get("note"))
            path = self.position(src, i, name, kind, e.get("at"))
            if path:
                self.areas[name].path = path
                self.areas[name].at = _spot(path)
        self.area_alias = {fold(a): ar.name for ar in self.areas.values() for a in ar.aliases}
        self.check_positions(src, tables.get("area", []))

    def position(self, src: Source, index: int, name: str, kind: str,
                 raw: Any) -> tuple[tuple[float, float], ...]:
        """The map position of an area: ``at = [x, y]``, or for a sea the course of its band,
        ``at = [[x, y], [x, y], ...]``. Empty if absent or wrong (the error is recorded)."""
        if raw is None:
            return ()
        where = f"area '{name}', at"
        frame = f"map units: x 0-{MAP_WIDTH:g} (west to east), y 0-{MAP_HEIGHT:g} (south to north)"

        def number(v: Any) -> bool:
            return isinstance(v, (int, float)) and not isinstance(v, bool)

        if raw and all(isinstance(p, list) for p in raw):
            if kind != "sea":
                src.error("area", index, f"{where}: only a sea is drawn along a course of points; "
                          f"give a {kind} one point, at = [x, y]", "at =")
                return ()
            points = raw
            if len(points) < 2:
                src.error("area", index, f"{where}: a sea's course needs at least two points", "at =",
                          hint="at = [[x1, y1], [x2, y2]], or one point at = [x, y]")
                return ()
        else:
            points = [raw]
        out: list[tuple[float, float]] = []
        for p in points:
            if not (isinstance(p, list) and len(p) == 2 and all(number(v) for v in p)):
                src.error("area", index, f"{where}: write two numbers, x (east) and y (north): at = [x, y]",
                          "at =", hint=frame)
                return ()
            x, y = float(p[0]), float(p[1])
            if not (0.0 <= x <= MAP_WIDTH and 0.0 <= y <= MAP_HEIGHT):
                src.error("area", index, f"{where}: [{x:g}, {y:g}] lies outside the map", "at =", hint=frame)
                return ()
            out.append((x, y))
        if len(out) > 1 and any(math.dist(a, b) == 0 for a, b in zip(out, out[1:])):
            src.error("area", index, f"{where}: the course repeats a point", "at =")
            return ()
        return tuple(out)

    def check_positions(self, src: Source, raw_areas: list[Any]) -> None:
        """Positions are all or nothing: once one area has ``at``, every area needs one; no two
        areas may share a spot."""
        if not any(isinstance(r, dict) and "at" in r for r in raw_areas):
            return
        placed: list[tuple[str, tuple[float, float]]] = []
        for name, area in self.areas.items():
            i = self.area_index[name]
            raw = raw_areas[i] if i < len(raw_areas) and isinstance(raw_areas[i], dict) else {}
            if area.at is None:
                if "at" not in raw:
                    src.error("area", i, f"area '{name}' has no position on the map", "name =",
                              hint="add at = [x, y] (map units: x east, y north); every area needs one "
                                   "once any has one")
                continue
            for other, spot in placed:
                if math.dist(area.at, spot) < MIN_SPACING:
                    src.error("area", i, f"area '{name}' is on the same spot as '{other}' "
                              f"([{spot[0]:g}, {spot[1]:g}])", "at =",
                              hint=f"keep areas at least {MIN_SPACING:g} map unit apart")
                    break
            placed.append((name, area.at))

    def area_ref(self, src: Source, table: str | None, index: int | None, name: str, what: str,
                 *needles: str) -> Area | None:
        """Resolve a reference to an area by exact name, recording a helpful error if wrong."""
        if name in self.areas:
            return self.areas[name]
        folded = fold(name)
        exact = next((a for a in self.areas if fold(a) == folded), None)
        if exact:
            hint = f"write it exactly as '{exact}'"
        elif folded in self.area_alias:
            hint = f"'{name}' is an alias: write the area's name '{self.area_alias[folded]}'"
        else:
            hint = suggest(name, self.areas) or "see areas.toml for the names"
        src.error(table, index, f"{what}: unknown area '{name}'", *(needles or (name,)), hint=hint)
        return None

    def check_map(self) -> None:
        src = self.sources["areas.toml"]
        areas = self.areas
        every_kingdom = {**self.kingdoms, **self.independent}

        def err(a: Area, message: str, *needles: str, hint: str | None = None) -> None:
            src.error("area", self.area_index[a.name], message, *needles, hint=hint)

        # per-area attributes (an area of unknown kind was reported already: skip it)
        for a in areas.values():
            if a.kind not in KINDS:
                continue
            if a.kind == "countryside":
                if a.kingdom is None:
                    err(a, f"countryside '{a.name}' needs a kingdom", "kind =")
                elif a.kingdom not in every_kingdom:
                    err(a, f"area '{a.name}': unknown kingdom '{a.kingdom}'", "kingdom =",
                        hint=suggest(a.kingdom, every_kingdom))
                if a.kingdom == LOGRES:
                    if a.castellany is None:
                        err(a, f"countryside '{a.name}' lies in Logres and needs a castellany", "kingdom =",
                            hint="one of " + ", ".join(self.castellanies))
                    elif a.castellany not in self.castellanies:
                        err(a, f"area '{a.name}': unknown castellany '{a.castellany}'", "castellany =",
                            hint=suggest(a.castellany, self.castellanies))
                elif a.castellany is not None:
                    err(a, f"area '{a.name}': only countrysides of Logres have a castellany", "castellany =")
            else:
                for key in ("kingdom", "castellany"):
                    if getattr(a, key) is not None:
                        err(a, f"area '{a.name}': a {a.kind} takes its {key} from the provinces it touches; "
                            f"remove '{key}'", f"{key} =")
            if a.kind in SITES:
                if a.within is None:
                    err(a, f"{a.kind} '{a.name}' needs 'within': the encounter area around it", "kind =")
                elif self.area_ref(src, "area", self.area_index[a.name], a.within,
                                   f"area '{a.name}', within", a.within, "within ="):
                    enclosing = areas[a.within]
                    if enclosing.kind in KINDS and enclosing.kind not in TERRAIN:
                        err(a, f"area '{a.name}': it must lie within a countryside, forest, river or "
                            f"wasteland, not the {enclosing.kind} '{a.within}'", "within =")
            elif a.within is not None:
                err(a, f"area '{a.name}': only towns, castles and shrines lie within another area", "within =")
            for extra in a.also:
                if extra not in SITES or extra == a.kind or a.kind not in SITES:
                    err(a, f"area '{a.name}': 'also' may add town, castle or shrine to a site of another kind",
                        "also =")
            if a.port and a.kind not in ("town", "castle"):
                err(a, f"area '{a.name}': only a town or a castle can have a port", "port =")
            if a.navigable and a.kind != "river":
                err(a, f"area '{a.name}': only rivers can be navigable", "navigable =")
            if a.otherworld and (a.kind != "countryside" or a.land or a.river or a.ship):
                err(a, f"area '{a.name}': an otherworld is a countryside with no borders", "otherworld =")

        # sites inside each area
        sites: dict[str, list[str]] = {n: [] for n in areas}
        for a in areas.values():
            if a.within in areas:
                sites[a.within].append(a.name)
        for name, names in sites.items():
            areas[name].sites = tuple(names)

        # links
        for a in areas.values():
            for key in ("land", "river", "ship"):
                names = getattr(a, key)
                seen_here: set[str] = set()
                for other in names:
                    if other in seen_here:
                        err(a, f"area '{a.name}': '{other}' is listed twice under {key}", other)
                        continue
                    seen_here.add(other)
                    if other == a.name:
                        err(a, f"area '{a.name}' lists itself under {key}", other)
                        continue
                    b = self.area_ref(src, "area", self.area_index[a.name], other,
                                      f"area '{a.name}', {key}", other, f"{key} =")
                    if b is None:
                        continue
                    if a.kind not in KINDS or b.kind not in KINDS:
                        continue
                    problem = link_problem(key, a, b)
                    if problem:
                        err(a, f"area '{a.name}': {problem}", other, f"{key} =")
                        continue
                    if a.name not in getattr(b, key):
                        err(a, f"area '{a.name}' lists '{b.name}' under {key}, but '{b.name}' does not list "
                            f"'{a.name}'", other,
                            hint=f"add \"{a.name}\" to the {key} list of '{b.name}' (or remove this link)")

        # navigable rivers lead to a port
        for a in areas.values():
            if a.navigable:
                reach, todo = {a.name}, [a.name]
                found = False
                while todo:
                    cur = areas[todo.pop()]
                    for other in cur.ship:
                        b = areas.get(other)
                        if b is None:
                            continue
                        if b.port:
                            found = True
                        if b.navigable and b.name not in reach:
                            reach.add(b.name)
                            todo.append(b.name)
                if not found:
                    err(a, f"navigable river '{a.name}' leads to no port", "navigable =",
                        hint="a ship must be able to sail it to a town or castle with a port")
        for a in areas.values():
            if a.port and not any(areas.get(o) and areas[o].kind in ("sea", "river") for o in a.ship):
                err(a, f"port '{a.name}' has no ship link to a sea or navigable river", "port =")

        # derived provinces, kingdoms, castellanies
        korder = {k: i for i, k in enumerate(every_kingdom)}
        corder = {c: i for i, c in enumerate(self.castellanies)}
        for a in areas.values():
            if a.kind == "countryside":
                a.provinces = (a.name,)
            elif a.kind in ("forest", "river", "wasteland"):
                a.provinces = tuple(n for n in areas if n in (*a.land, *a.river)
                                    and areas[n].kind == "countryside")
                if not a.provinces:
                    err(a, f"{a.kind} '{a.name}' touches no countryside, so it belongs to no province",
                        "kind =", hint="link it by land or river to the provinces around it")
        for a in areas.values():
            if a.kind in SITES and a.within in areas:
                a.provinces = areas[a.within].provinces
        for a in areas.values():
            ks = {areas[p].kingdom for p in a.provinces if areas[p].kingdom}
            cs = {areas[p].castellany for p in a.provinces if areas[p].castellany}
            a.kingdoms = tuple(sorted(ks, key=lambda k: korder.get(k, 99)))
            a.castellanies = tuple(sorted(cs, key=lambda c: corder.get(c, 99)))

        # reachability over every link, from Logres' royal castle
        start = None
        logres = self.kingdoms.get(LOGRES)
        if logres and logres.royal_castle in areas:
            start = logres.royal_castle
        elif areas:
            start = next(iter(areas))
        if start:
            seen, queue = {start}, deque([start])
            while queue:
                cur = areas[queue.popleft()]
                for other in cur.adjacent():
                    if other in areas and other not in seen:
                        seen.add(other)
                        queue.append(other)
            for a in areas.values():
                if a.name not in seen and not a.otherworld:
                    err(a, f"area '{a.name}' cannot be reached from {start} by land or by ship", "name =",
                        hint="give it a land, river or ship link (an island needs a port or a coast)")

        # kingdoms and castellanies against the map
        ksrc = self.sources["kingdoms.toml"]
        for i, k in enumerate(self.kingdoms.values()):
            provinces = [a for a in areas.values() if a.kind == "countryside" and a.kingdom == k.name]
            if not provinces:
                ksrc.error("kingdom", i, f"kingdom '{k.name}' has no countryside in areas.toml", k.name)
            if not any(a.coast for a in provinces):
                ksrc.error("kingdom", i, f"kingdom '{k.name}' has no coast (raiders and pirates land on "
                           f"every kingdom's coast)", k.name)
            if k.royal_castle is not None:
                castle = self.area_ref(ksrc, "kingdom", i, k.royal_castle, f"kingdom '{k.name}', royal_castle",
                                       k.royal_castle)
                if castle:
                    if castle.kind != "castle":
                        ksrc.error("kingdom", i, f"royal castle '{castle.name}' is a {castle.kind}, not a castle",
                                   k.royal_castle)
                    elif castle.kingdoms != (k.name,):
                        ksrc.error("kingdom", i, f"royal castle '{castle.name}' lies in "
                                   f"{', '.join(castle.kingdoms) or 'no kingdom'}, not in {k.name}", k.royal_castle)
            if k.escort_destination is not None:
                dest = self.area_ref(ksrc, "kingdom", i, k.escort_destination,
                                     f"kingdom '{k.name}', escort_destination", k.escort_destination)
                if dest and not (dest.is_town or dest.is_shrine or dest.port):
                    ksrc.error("kingdom", i, f"escort destination '{dest.name}' is not a town, port or shrine",
                               k.escort_destination)
        for i, c in enumerate(self.castellanies.values()):
            if not any(a.kind == "countryside" and a.castellany == c.name for a in areas.values()):
                ksrc.error("castellany", i, f"castellany '{c.name}' has no countryside in areas.toml", c.name)
            castle = self.area_ref(ksrc, "castellany", i, c.castle, f"castellany '{c.name}', castle", c.castle)
            if castle and (castle.kind != "castle" or castle.castellanies != (c.name,)):
                ksrc.error("castellany", i, f"castle '{castle.name}' must be a castle inside {c.name}", c.castle)

    # ---- cards ---------------------------------------------------------------------------
    def parse_cards(self, src: Source, table: str) -> None:
        tables = self.tables(src, (table,))
        entries = tables.get(table, [])
        if table == "knight":
            schema = {"name": Field(str), "virtue_level": Field(int), "chivalry_points": Field(int),
                      "arthurian": Field(bool), "note": Field(str, False)}
        elif table == "king":
            schema = {"name": Field(str), "kingdom": Field(str), "virtue_level": Field(int),
                      "chivalry_points": Field(int), "note": Field(str, False)}
        else:
            schema = {"name": Field(str), "virtue_level": Field(int), "service_award": Field(int),
                      "seduction_adjustment": Field(int), "enchantress": Field(bool),
                      "home_castle": Field(str), "note": Field(str, False)}
        seen: dict[str, str] = getattr(self, "card_names", {})
        self.card_names = seen
        self.card_index = getattr(self, "card_index", {})
        homes: dict[str, str] = {}
        kings_of: dict[str, str] = {}
        for i, raw in enumerate(entries):
            e = check_entry(src, table, i, raw, schema, _what(raw, table, i))
            if not e or "name" not in e or len(e) < len(schema) - 1:
                continue
            name = e["name"]
            if not self.unique(src, table, i, name, seen, "card"):
                continue
            self.card_index[name] = (src, table, i)
            vl = e["virtue_level"]
            if table in ("knight", "king"):
                cp = e["chivalry_points"]
                if not CP_RANGE[0] <= cp <= CP_RANGE[1]:
                    src.error(table, i, f"{name}: chivalry_points must be {CP_RANGE[0]} to {CP_RANGE[1]}, not {cp}",
                              "chivalry_points")
                if vl == 0:
                    if name != PERFECT_KNIGHT:
                        src.error(table, i, f"{name}: VL 0 cannot come from CP/VP; the rules give it only "
                                  f"to {PERFECT_KNIGHT}", "virtue_level")
                elif not 1 <= vl <= 13:
                    src.error(table, i, f"{name}: virtue_level must be 0 to 13, not {vl}", "virtue_level")
                elif CP_RANGE[0] <= cp and virtue_points_range(cp, vl) is None:
                    near = [v for v in range(1, 14) if virtue_points_range(cp, v)]
                    close = min(near, key=lambda v: abs(v - vl)) if near else None
                    src.error(table, i, f"{name}: VL {vl} cannot come from {cp} CP (VL is CP/VP rounded up "
                              f"and no whole number of VP gives {vl})", "virtue_level",
                              hint=f"with {cp} CP the nearest possible VL is {close}" if close else None)
            if table == "knight":
                self.knights.append(Knight(name, vl, e["chivalry_points"], e["arthurian"], e.get("note")))
            elif table == "king":
                kingdom = e["kingdom"]
                if kingdom not in self.kingdoms:
                    src.error(table, i, f"{name}: unknown kingdom '{kingdom}'", kingdom,
                              hint=suggest(kingdom, self.kingdoms))
                elif kingdom in kings_of:
                    src.error(table, i, f"{name}: {kingdom} already has a king ({kings_of[kingdom]})", kingdom)
                else:
                    kings_of[kingdom] = name
                self.kings.append(King(name, kingdom, vl, e["chivalry_points"], e.get("note")))
            else:
                if not 0 <= vl <= 12:
                    src.error(table, i, f"{name}: a lady's virtue_level must be 0 to 12 (slaying an "
                              f"Enchantress costs 12 minus her VL)", "virtue_level")
                if not 1 <= e["service_award"] <= 30:
                    src.error(table, i, f"{name}: service_award must be 1 to 30 CP (Morgan's 30 is the "
                              f"greatest)", "service_award")
                if not 0 <= e["seduction_adjustment"] <= 5:
                    src.error(table, i, f"{name}: seduction_adjustment must be 0 to +5 (Morgan's +5 is "
                              f"the greatest)", "seduction_adjustment")
                home = e["home_castle"]
                if fold(home) in homes:
                    src.error(table, i, f"{name}: home castle '{home}' is already {homes[fold(home)]}'s",
                              "home_castle")
                homes[fold(home)] = name
                if fold(home) in {fold(a) for a in self.areas} or fold(home) in getattr(self, "area_alias", {}):
                    src.error(table, i, f"{name}: home castle '{home}' has the name of a map area; "
                              f"a lady's castle is a counter placed when needed", "home_castle")
                self.ladies.append(Lady(name, vl, e["service_award"], e["seduction_adjustment"],
                                        e["enchantress"], home, e.get("note")))
        count = CARD_COUNTS[table]
        got = {"knight": self.knights, "king": self.kings, "lady": self.ladies}[table]
        if len(entries) != count:
            src.error(None, None, f"the game has {count} {table} cards; this file has {len(entries)}",
                      f"[[{table}]]")
        if table == "king" and self.kingdoms and len(entries) == count:
            missing = [k for k in self.kingdoms if k not in kings_of]
            if missing and got:
                src.error(None, None, f"no king for {', '.join(missing)}", f"[[{table}]]")

    def check_cards(self) -> None:
        if not hasattr(self, "card_index"):
            return
        by_name: dict[str, Any] = {c.name: c for c in (*self.knights, *self.kings, *self.ladies)}

        def where(name: str):
            return self.card_index.get(name)

        for name in ALWAYS_PRAY:
            card = by_name.get(name)
            if card is None:
                if any(self.card_index):
                    src = self.sources.get(_file_for(name))
                    if src:
                        src.error(None, None, f"{name} is missing: the rules name this card", "name =")
                continue
            if card.virtue_level > 1 and name != PERFECT_KNIGHT:
                s, t, i = where(name)
                s.error(t, i, f"{name} always succeeds at prayer, so the card's VL must be 0 or 1, "
                        f"not {card.virtue_level}", "virtue_level")
        galahad = by_name.get(PERFECT_KNIGHT)
        if galahad is not None and galahad.virtue_level != 0:
            s, t, i = where(PERFECT_KNIGHT)
            s.error(t, i, f"{PERFECT_KNIGHT} has VL 0 in the rules", "virtue_level")
        for card in by_name.values():
            if card.name not in ALWAYS_PRAY and card.virtue_level <= 1:
                s, t, i = where(card.name)
                s.error(t, i, f"{card.name}: VL {card.virtue_level} would make every prayer succeed, which "
                        f"the rules allow only to {', '.join(ALWAYS_PRAY)}", "virtue_level",
                        hint="give this card VL 2 or more")
        qname, qvl = ENCHANTRESS_QUEEN
        queen = by_name.get(qname)
        if isinstance(queen, Lady):
            if not queen.enchantress or queen.virtue_level != qvl:
                s, t, i = where(qname)
                s.error(t, i, f"{qname} is an Enchantress of VL {qvl} in the rules", "virtue_level")
        elif self.ladies:
            self.sources["ladies.toml"].error(None, None, f"{qname} is missing: the rules name her", "[[lady]]")
        arth = [k for k in self.knights if k.arthurian]
        common = [k for k in self.knights if not k.arthurian]
        if arth and common:
            mean = lambda xs: sum(xs) / len(xs)  # noqa: E731
            if not (mean([k.chivalry_points for k in arth]) > mean([k.chivalry_points for k in common])
                    and mean([k.virtue_level for k in arth]) < mean([k.virtue_level for k in common])):
                self.sources["knights.toml"].error(
                    None, None, "Arthurian Knights must be more chivalrous (more CP) and more virtuous "
                    "(lower VL) than common Knights on average", "[[knight]]")
        if self.ladies and not any(l.enchantress for l in self.ladies):
            self.sources["ladies.toml"].error(None, None, "no Lady is an Enchantress", "[[lady]]")
        if self.ladies and len([l for l in self.ladies if l.virtue_level >= 6 and not l.enchantress]) < 1:
            self.sources["ladies.toml"].error(None, None, "the town's wanton lady needs ladies of VL 6 or more",
                                              "[[lady]]")

    # ---- chits ---------------------------------------------------------------------------
    def parse_chits(self, src: Source) -> None:
        tables = self.tables(src, ("kind", "chit", "player_colour"))
        kseen: dict[str, str] = {}
        for i, raw in enumerate(tables.get("kind", [])):
            e = check_entry(src, "kind", i, raw, {"name": Field(str), "label": Field(str),
                                                  "attack_dice": Field(int), "drawn": Field(bool)},
                            _what(raw, "chit kind", i))
            if e and len(e) == 4 and self.unique(src, "kind", i, e["name"], kseen, "chit kind"):
                if not 0 <= e["attack_dice"] <= 3:
                    src.error("kind", i, f"chit kind '{e['name']}': attack_dice must be 0 to 3", "attack_dice")
                self.chit_kinds[e["name"]] = ChitKind(e["name"], e["label"], e["attack_dice"], e["drawn"])
        schema = {"kind": Field(str), "name": Field(str), "count": Field(int),
                  "wound_level": Field(int, False), "crew": Field(int, False),
                  "optional": Field(bool, False), "note": Field(str, False)}
        seen: set[tuple] = set()
        for i, raw in enumerate(tables.get("chit", [])):
            e = check_entry(src, "chit", i, raw, schema, _what(raw, "chit", i))
            if not e or not all(k in e for k in ("kind", "name", "count")):
                continue
            kind, name = e["kind"], e["name"]
            if kind not in self.chit_kinds:
                src.error("chit", i, f"chit '{name}': unknown kind '{kind}'", "kind =",
                          hint=suggest(kind, self.chit_kinds))
                continue
            if e["count"] < 1:
                src.error("chit", i, f"chit '{name}': count must be at least 1", "count")
            wl, crew = e.get("wound_level"), e.get("crew")
            if kind in ("animal", "monster", "brigand", "dwarf") and wl is None:
                src.error("chit", i, f"{kind} chit '{name}' needs its wound_level", "name =")
            if kind == "ship" and crew is None:
                src.error("chit", i, f"ship chit '{name}' needs its crew value", "name =")
            if kind != "ship" and crew is not None:
                src.error("chit", i, f"chit '{name}': only ships have a crew value", "crew")
            if wl is not None and not 1 <= wl <= 30:
                src.error("chit", i, f"chit '{name}': wound_level must be 1 to 30", "wound_level")
            ident = (kind, fold(name), wl, crew)
            if ident in seen:
                src.error("chit", i, f"chit '{name}' ({kind}) appears twice with the same values", "name =",
                          hint="raise its count instead")
            seen.add(ident)
            self.chits.append(Chit(kind, name, e["count"], wl, crew, e.get("optional", False), e.get("note")))
        colours: set[str] = set()
        letters: set[str] = set()
        for i, raw in enumerate(tables.get("player_colour", [])):
            e = check_entry(src, "player_colour", i, raw, {"colour": Field(str), "letter": Field(str),
                                                           "markers": Field(int)},
                            f"player colour #{i + 1}")
            if not e or len(e) < 3:
                continue
            if e["colour"] in colours:
                src.error("player_colour", i, f"colour '{e['colour']}' is used twice", "colour")
            if len(e["letter"]) != 1 or not e["letter"].isupper() or e["letter"] in letters:
                src.error("player_colour", i, f"letter '{e['letter']}' must be one capital not used before", "letter")
            if not 1 <= e["markers"] <= 9:
                src.error("player_colour", i, "markers must be 1 to 9", "markers")
            colours.add(e["colour"])
            letters.add(e["letter"])
            pc = PlayerColour(e["colour"], e["letter"], e["markers"])
            self.colours.append(pc)
            if {"player_knight", "arthurian_player_knight", "adventure_marker"} <= set(self.chit_kinds):
                self.chits.append(Chit("player_knight", f"Knight ({pc.colour})", 1, colour=pc.colour))
                self.chits.append(Chit("arthurian_player_knight", f"Arthurian Knight ({pc.colour})", 1,
                                       colour=pc.colour))
                for n in range(1, pc.markers + 1):
                    self.chits.append(Chit("adventure_marker", f"{pc.letter}-{n}", 1, colour=pc.colour))
        if not self.colours:
            src.error(None, None, "no [[player_colour]]: each player needs knights and adventure markers",
                      "[[player_colour]]")
        for needed in ("animal", "monster", "brigand", "ship", "special", "player_knight",
                       "arthurian_player_knight", "adventure_marker"):
            if needed not in self.chit_kinds:
                src.error(None, None, f"chit kind '{needed}' is missing", "[[kind]]")
        for kind in self.chit_kinds.values():
            if kind.drawn and not any(c.kind == kind.name for c in self.chits):
                src.error(None, None, f"no chits of kind '{kind.name}' to draw", f'"{kind.name}"')
        for special in REQUIRED_SPECIALS:
            if not any(c.name == special for c in self.chits):
                src.error(None, None, f"the special counter '{special}' is missing", "[[chit]]")
        if sum(c.count for c in self.chits if c.kind == "brigand") < 10:
            src.error(None, None, "pirates need 10 brigand chits", '"brigand"')

    # ---- charts --------------------------------------------------------------------------
    def parse_charts(self, src: Source, filename: str) -> None:
        allowed = ("chart", "step") if filename == "war.toml" else ("chart",)
        tables = self.tables(src, allowed)
        schema = {"name": Field(str), "title": Field(str), "group": Field(str), "dice": Field(LIST_OF_STR),
                  "optional_dice": Field(LIST_OF_STR, False), "totals": Field(list, False),
                  "open_top": Field(bool, False), "optional": Field(bool, False),
                  "modifiers": Field(list, False), "note": Field(str, False), "entries": Field(list)}
        for i, raw in enumerate(tables.get("chart", [])):
            e = check_entry(src, "chart", i, raw, schema, _what(raw, "chart", i))
            if not e or "name" not in e:
                continue
            name = e["name"]
            what = f"chart '{name}'"
            if not KEY_RE.match(name):
                src.error("chart", i, f"{what}: the name must be snake_case (lower case and _)", "name =")
            if name in self.charts:
                other, _ = self.chart_origin[name]
                src.error("chart", i, f"{what} is defined twice (also in {other.path})", "name =")
                continue
            dice = self.parse_dice(src, i, e.get("dice", []), what, "dice")
            opt = self.parse_dice(src, i, e["optional_dice"], what, "optional_dice") if "optional_dice" in e else None
            if dice is None:
                continue
            if opt is not None and len(opt) != len(dice):
                src.error("chart", i, f"{what}: optional_dice must have as many stages as dice", "optional_dice")
                opt = None
            totals = None
            if "totals" in e:
                t = e["totals"]
                if (len(t) != 2 or not all(isinstance(x, int) and not isinstance(x, bool) for x in t)
                        or t[0] >= t[1]):
                    src.error("chart", i, f"{what}: totals must be [low, high] with low < high", "totals")
                else:
                    totals = (t[0], t[1])
            if e.get("open_top") and not totals:
                src.error("chart", i, f"{what}: open_top needs totals", "open_top")
            modifiers = []
            for m in e.get("modifiers", []):
                mm = check_entry(src, "chart", i, m, {"key": Field(str), "value": Field(int),
                                                      "label": Field(str)}, f"{what}, modifier",
                                 inline_needle=f'key = "{m.get("key")}"' if isinstance(m, dict) else None)
                if mm and len(mm) == 3:
                    modifiers.append(Modifier(mm["key"], mm["value"], mm["label"]))
            entries = self.parse_entries(src, "chart", i, e.get("entries", []), what)
            chart = Chart(name=name, title=e.get("title", name), group=e.get("group", ""),
                          dice=dice, entries=tuple(entries), optional_dice=opt, totals=totals,
                          open_top=e.get("open_top", False), optional=e.get("optional", False),
                          modifiers=tuple(modifiers), note=e.get("note"))
            if any(x.optional for x in entries) and not opt:
                bad = next(x for x in entries if x.optional)
                src.error("chart", i, f"{what}: entries marked optional need optional_dice", f'roll = "{bad.roll_text}"')
            if len(entries) == len(e.get("entries", [])):
                for label, stages, subset in (("", dice, chart.usable_entries(False)),
                                              (" (with optional dice)", opt, chart.entries)):
                    if stages is None:
                        continue
                    for message, entry in check_coverage(name, stages, subset, totals):
                        needle = f'roll = "{entry.roll_text}"' if entry else "entries ="
                        src.error("chart", i, f"{what}{label}: {message}", needle,
                                  hint="every roll of the dice must give exactly one result")
            self.charts[name] = chart
            self.chart_origin[name] = (src, i)

    def parse_dice(self, src: Source, index: int, texts: list[str], what: str, key: str) -> tuple[Die, ...] | None:
        if not texts:
            src.error("chart", index, f"{what}: '{key}' must list at least one die", f"{key} =")
            return None
        out = []
        for t in texts:
            try:
                out.append(Die.parse(t))
            except ValueError as exc:
                src.error("chart", index, f"{what}: {exc}", t, f"{key} =")
                return None
        return tuple(out)

    def parse_entries(self, src: Source, table: str, index: int, raw_entries: list[Any], what: str,
                      *, needle_key: str = "roll") -> list[Entry]:
        schema = {k: Field(ENTRY_VALUES.get(k, str), False) for k in ENTRY_KEYS}
        schema["roll"] = Field(str)
        schema["key"] = Field(str)
        schema["label"] = Field(str)
        schema["optional"] = Field(bool, False)
        schema["note"] = Field(str, False)
        out: list[Entry] = []
        for j, raw in enumerate(raw_entries):
            needle = f'roll = "{raw.get("roll")}"' if isinstance(raw, dict) and "roll" in raw else None
            e = check_entry(src, table, index, raw, schema, f"{what}, entry #{j + 1}", inline_needle=needle)
            if not e or not all(k in e for k in ("roll", "key", "label")):
                continue
            try:
                roll = parse_roll(e["roll"])
            except ValueError as exc:
                src.error(table, index, f"{what}, entry #{j + 1}: {exc}", needle or "")
                continue
            where = f"{what}, roll '{roll_text(roll)}'"
            if not KEY_RE.match(e["key"]):
                src.error(table, index, f"{where}: key '{e['key']}' must be snake_case", needle or "",
                          hint="lower-case words joined by _, e.g. mad_knight")
            label = e["label"]
            if not label.strip() or len(label) > MAX_LABEL:
                src.error(table, index, f"{where}: the label must be 1 to {MAX_LABEL} characters "
                          f"(a few words)", needle or "")
            values = {k: v for k, v in e.items() if k in ENTRY_VALUES}
            for k in AMOUNT_KEYS:
                v = values.get(k)
                if isinstance(v, str) and not AMOUNT_RE.match(v):
                    src.error(table, index, f"{where}: '{k}' = '{v}' is not a number, a range (1-6) or "
                              f"dice (d6-3)", needle or "")
            if "per" in values and values["per"] not in PER_VALUES:
                src.error(table, index, f"{where}: per must be one of {', '.join(PER_VALUES)}", needle or "")
            if "draw" in values and values["draw"] not in DRAW_VALUES:
                src.error(table, index, f"{where}: draw '{values['draw']}' is not one of {', '.join(DRAW_VALUES)}",
                          needle or "", hint=suggest(values["draw"], DRAW_VALUES))
            if "site" in values and values["site"] not in SITE_VALUES:
                src.error(table, index, f"{where}: site '{values['site']}' is not one of {', '.join(SITE_VALUES)}",
                          needle or "", hint=suggest(values["site"], SITE_VALUES))
            out.append(Entry(roll, e["key"], label, values, e.get("note"), e.get("optional", False)))
        return out

    # ---- foreign war ---------------------------------------------------------------------
    def parse_war(self, src: Source) -> None:
        raw_steps = src.data.get("step", [])
        if not isinstance(raw_steps, list):
            return
        schema = {"letter": Field(str), "key": Field(str), "label": Field(str), "roll": Field(str, False),
                  "effects": Field(list, False), "exits": Field(list), "note": Field(str, False),
                  "chart": Field(str, False), "vp": Field(int, False), "vp_loss": Field(int, False),
                  "cp": Field(int, False), "cp_loss": Field((int, str), False), "count": Field((int, str), False)}
        exit_schema = {"on": Field(str, False), "roll": Field(str, False), "next": Field(str, False),
                       "end": Field(str, False), "when": Field(str, False)}
        pending: list[tuple[int, WarStep]] = []
        for i, raw in enumerate(raw_steps):
            e = check_entry(src, "step", i, raw, schema, _what(raw, "war step", i, "letter"))
            if not e or not all(k in e for k in ("letter", "key", "label", "exits")):
                continue
            letter = e["letter"]
            what = f"war step {letter}"
            if len(letter) != 1 or not letter.isupper():
                src.error("step", i, f"{what}: the letter must be one capital A-Z", "letter =")
            if letter in self.steps:
                src.error("step", i, f"{what} appears twice", "letter =")
                continue
            if not KEY_RE.match(e["key"]):
                src.error("step", i, f"{what}: key must be snake_case", "key =")
            if len(e["label"]) > MAX_LABEL:
                src.error("step", i, f"{what}: the label must be at most {MAX_LABEL} characters", "label =")
            if "roll" in e and e["roll"] != "d6":
                src.error("step", i, f"{what}: roll must be \"d6\"", "roll =")
            for k in ("cp_loss", "count"):
                if isinstance(e.get(k), str) and not AMOUNT_RE.match(e[k]):
                    src.error("step", i, f"{what}: '{k}' is not a number, range or dice", f"{k} =")
            exits = []
            for raw_exit in e["exits"]:
                needle = None
                if isinstance(raw_exit, dict):
                    needle = " ".join(f'{k} = "{raw_exit[k]}"' for k in ("on",) if k in raw_exit) or None
                x = check_entry(src, "step", i, raw_exit, exit_schema, f"{what}, exit", inline_needle=needle)
                if x is None:
                    continue
                span = None
                if "roll" in x:
                    try:
                        span = Span.parse(x["roll"])
                    except ValueError as exc:
                        src.error("step", i, f"{what}: {exc}", x["roll"])
                    if "roll" not in e:
                        src.error("step", i, f"{what}: an exit has a roll but the step rolls no die", "exits =")
                if ("next" in x) == ("end" in x):
                    src.error("step", i, f"{what}: each exit needs either next or end", "exits =")
                if "end" in x and x["end"] not in WAR_ENDS:
                    src.error("step", i, f"{what}: end must be one of {', '.join(WAR_ENDS)}", x["end"],
                              hint=suggest(x["end"], WAR_ENDS))
                if "next" in x and x.get("when") not in WAR_WHEN:
                    src.error("step", i, f"{what}: an exit to a step needs when = \"now\" or \"next_turn\"",
                              "exits =")
                exits.append(WarExit(x.get("on"), span, x.get("next"), x.get("end"), x.get("when")))
            effects = tuple(self.parse_entries(src, "step", i, e.get("effects", []), f"{what}, effects"))
            if "roll" in e:
                groups = sorted({x.on for x in exits if x.roll is not None and x.on is not None}) or [None]
                for on in groups:
                    spans = [x.roll for x in exits if x.roll is not None and x.on in (None, on)]
                    problems = check_coverage(f"step {letter}", (Die(1, 6),),
                                              [Entry((s,), "x", "x") for s in spans], None)
                    for message, _ in problems:
                        src.error("step", i, f"{what}{' (' + on + ')' if on else ''}: exits {message}", "exits =")
                if effects:
                    for message, entry in check_coverage(f"step {letter}", (Die(1, 6),), effects, None):
                        src.error("step", i, f"{what}, effects: {message}", "effects =")
            values = {k: e[k] for k in ("chart", "vp", "vp_loss", "cp", "cp_loss", "count") if k in e}
            step = WarStep(letter, e["key"], e["label"], e.get("roll"), tuple(exits), effects, values, e.get("note"))
            self.steps[letter] = step
            self.step_index[letter] = i
            pending.append((i, step))
        for i, step in pending:
            for x in step.exits:
                if x.next and x.next not in self.steps:
                    src.error("step", i, f"war step {step.letter}: exit to unknown step '{x.next}'", x.next)
        if raw_steps and "A" not in self.steps:
            src.error(None, None, "the war starts at step A, which is missing", "[[step]]")

    # ---- requests ------------------------------------------------------------------------
    def parse_requests(self, src: Source) -> None:
        tables = self.tables(src, ("request", "person"))
        for i, raw in enumerate(tables.get("request", [])):
            e = check_entry(src, "request", i, raw, {"key": Field(str), "label": Field(str),
                                                     "note": Field(str, False)}, _what(raw, "request", i, "key"))
            if not e or "key" not in e or "label" not in e:
                continue
            if not KEY_RE.match(e["key"]):
                src.error("request", i, f"request '{e['key']}': key must be snake_case", "key =")
            if e["key"] in self.requests:
                src.error("request", i, f"request '{e['key']}' appears twice", "key =")
            self.requests[e["key"]] = RequestKind(e["key"], e["label"], e.get("note"))
        for i, raw in enumerate(tables.get("person", [])):
            e = check_entry(src, "person", i, raw, {"key": Field(str), "label": Field(str),
                                                    "requests": Field(list)}, _what(raw, "person", i, "key"))
            if not e or len(e) < 3:
                continue
            if e["key"] in self.persons:
                src.error("person", i, f"person '{e['key']}' appears twice", "key =")
            reqs: list[tuple[str, str | None]] = []
            for item in e["requests"]:
                if isinstance(item, str):
                    key, only = item, None
                elif isinstance(item, dict) and set(item) <= {"key", "only"} and isinstance(item.get("key"), str):
                    key, only = item["key"], item.get("only")
                    if only not in REQUEST_ONLY:
                        src.error("person", i, f"person '{e['key']}': condition '{only}' is not one of "
                                  f"{', '.join(REQUEST_ONLY)}", str(only), hint=suggest(str(only), REQUEST_ONLY))
                else:
                    src.error("person", i, f"person '{e['key']}': a request is a key or "
                              f"{{ key = ..., only = ... }}", "requests =")
                    continue
                if key not in self.requests:
                    src.error("person", i, f"person '{e['key']}': unknown request '{key}'", key,
                              hint=suggest(key, self.requests))
                reqs.append((key, only))
            self.persons[e["key"]] = Person(e["key"], e["label"], tuple(reqs))
        for key in REQUIRED_REQUESTS:
            if key not in self.requests:
                src.error(None, None, f"request '{key}' is missing (the orders let a knight make "
                          "it)", "[[request]]", hint=f'add a [[request]] with key = "{key}"')
        for key in REQUIRED_PERSONS:
            if key not in self.persons:
                src.error(None, None, f"person '{key}' is missing (the requests phase asks one)",
                          "[[person]]", hint=f'add a [[person]] with key = "{key}"')

    # ---- cross-checks of charts ----------------------------------------------------------
    def check_charts(self) -> None:
        if not any(n in self.sources for n in CHART_FILES):
            return
        every_kingdom = {**self.kingdoms, **self.independent}
        have_map = bool(self.areas)
        for name in REQUIRED_CHARTS:
            if name not in self.charts:
                src = self.sources.get("charts.toml") or next(self.sources[n] for n in CHART_FILES if n in self.sources)
                src.error(None, None, f"chart '{name}' is missing (the rules roll on it)", "[[chart]]")
        for name, chart in self.charts.items():
            src, i = self.chart_origin[name]
            for e in chart.entries:
                needle = f'roll = "{e.roll_text}"'
                where = f"chart '{name}', roll '{e.roll_text}'"
                ref = e.get("chart")
                if ref is not None and ref not in self.charts:
                    src.error("chart", i, f"{where}: unknown chart '{ref}'", needle, hint=suggest(ref, self.charts))
                if have_map and e.get("area") is not None:
                    self.area_ref(src, "chart", i, e.get("area"), where, needle)
                if e.get("site") == "named" and e.get("area") is None:
                    src.error("chart", i, f"{where}: site 'named' needs the area", needle)
                if e.get("site") == "rolled" and e.get("chart") is None:
                    src.error("chart", i, f"{where}: site 'rolled' needs the chart to roll on", needle)
                k = e.get("kingdom")
                if k is not None and k not in every_kingdom:
                    src.error("chart", i, f"{where}: unknown kingdom '{k}'", needle, hint=suggest(k, every_kingdom))
                c = e.get("castellany")
                if c is not None and (c not in self.castellanies or k != LOGRES):
                    src.error("chart", i, f"{where}: castellany '{c}' must be one of Logres'", needle,
                              hint=suggest(c, self.castellanies))
                if e.get("draw") in ("monster", "animal", "brigand", "ship") and self.chit_kinds and \
                        not any(ch.kind == e.get("draw") for ch in self.chits):
                    src.error("chart", i, f"{where}: there are no {e.get('draw')} chits to draw", needle)
        if "war.toml" in self.sources:
            wsrc = self.sources["war.toml"]
            for step in self.steps.values():
                ref = step.values.get("chart")
                if ref is not None and ref not in self.charts:
                    wsrc.error("step", self.step_index[step.letter], f"war step {step.letter}: unknown chart '{ref}'", "chart =",
                               hint=suggest(ref, self.charts))
        if have_map and self.kingdoms:
            self.check_deployment()

    def check_deployment(self) -> None:
        areas = self.areas
        kchart = self.charts.get("random_kingdom")
        if kchart is None:
            return
        ksrc, ki = self.chart_origin["random_kingdom"]
        counts: dict[str, int] = {}
        for e in kchart.entries:
            label = e.get("kingdom") if not e.get("castellany") else f"{e.get('kingdom')}/{e.get('castellany')}"
            if e.get("kingdom") is None:
                ksrc.error("chart", ki, f"random_kingdom, roll '{e.roll_text}': needs a kingdom",
                           f'roll = "{e.roll_text}"')
            counts[label] = counts.get(label, 0) + 1
        for k in self.kingdoms:
            wanted = [f"{k}/{c}" for c in self.castellanies] if k == LOGRES else [k]
            for w in wanted:
                if counts.get(w, 0) != 1:
                    ksrc.error("chart", ki, f"random_kingdom must name {w.replace('/', ', castellany ')} exactly "
                               f"once (found {counts.get(w, 0)})", "entries =")

        def kingdom_for(roll: tuple[Span, ...]) -> Entry | None:
            for k in kchart.entries:
                if len(k.roll) <= len(roll) and all(roll[d].lo >= k.roll[d].lo and roll[d].hi <= k.roll[d].hi
                                                    for d in range(len(k.roll))):
                    return k
            return None

        for chart_name, kinds in (("deploy_countryside", ("countryside",)),
                                  ("deploy_castle", ("countryside", "forest", "river", "wasteland"))):
            chart = self.charts.get(chart_name)
            if chart is None:
                continue
            src, i = self.chart_origin[chart_name]
            named: dict[str, int] = {}
            for e in chart.entries:
                needle = f'roll = "{e.roll_text}"'
                where = f"{chart_name}, roll '{e.roll_text}'"
                area = areas.get(e.get("area") or "")
                if area is None:
                    if e.get("area") is None:
                        src.error("chart", i, f"{where}: needs an area", needle)
                    continue
                named[area.name] = named.get(area.name, 0) + 1
                if area.kind not in KINDS:
                    continue
                if area.kind not in kinds:
                    src.error("chart", i, f"{where}: '{area.name}' is a {area.kind}; this chart places in "
                              f"{', '.join(kinds)}", needle)
                    continue
                if area.otherworld:
                    src.error("chart", i, f"{where}: '{area.name}' is never rolled for", needle)
                k = kingdom_for(e.roll)
                if k is None:
                    src.error("chart", i, f"{where}: its first dice match no kingdom of random_kingdom", needle)
                    continue
                kname, cname = k.get("kingdom"), k.get("castellany")
                if area.kingdoms and all(x in self.independent for x in area.kingdoms):
                    continue  # an independent isle may be rolled under a kingdom's number
                if kname not in area.kingdoms or (cname and cname not in area.castellanies):
                    place = f"{kname} ({cname})" if cname else kname
                    src.error("chart", i, f"{where}: '{area.name}' does not touch {place}, which these dice "
                              f"select", needle,
                              hint=f"'{area.name}' belongs to {', '.join(area.provinces) or 'no province'}")
            for a in areas.values():
                if a.kind == "countryside" and a.kingdom in self.kingdoms:
                    n = named.get(a.name, 0)
                    if chart_name == "deploy_countryside" and n != 1:
                        src.error("chart", i, f"{chart_name} must land on the province '{a.name}' exactly "
                                  f"once (found {n})", "entries =")
                    if chart_name == "deploy_castle" and n < 1:
                        src.error("chart", i, f"{chart_name} never lands on the province '{a.name}'", "entries =")
        shrine = self.charts.get("random_shrine")
        if shrine:
            src, i = self.chart_origin["random_shrine"]
            for e in shrine.entries:
                a = areas.get(e.get("area") or "")
                if a is not None and not a.is_shrine:
                    src.error("chart", i, f"random_shrine, roll '{e.roll_text}': '{a.name}' is not a shrine",
                              f'roll = "{e.roll_text}"')

    def derive_deployment(self, world: World) -> None:
        for chart_name, attr in (("deploy_countryside", "deploy_countryside"), ("deploy_castle", "deploy_castle")):
            chart = world.charts.get(chart_name)
            if chart is None:
                continue
            found: dict[str, list[str]] = {}
            for e in chart.entries:
                if e.get("area") in world.areas:
                    found.setdefault(e.get("area"), []).append(e.roll_text)
            for name, rolls in found.items():
                setattr(world.areas[name], attr, tuple(rolls))


def link_problem(key: str, a: Area, b: Area) -> str | None:
    """Why a link of type ``key`` between ``a`` and ``b`` is not allowed (None if it is)."""
    ka, kb = a.kind, b.kind
    if key == "land":
        if "sea" in (ka, kb) or "river" in (ka, kb):
            return f"'{b.name}' is a {kb}: seas go under ship and rivers under river, not land"
        if a.is_site or b.is_site:
            if a.within == b.name or b.within == a.name:
                return f"'{b.name}' is already linked through 'within'; remove it from land"
            if a.is_site and b.is_site and a.within == b.within:
                return None
            site = a if a.is_site else b
            return (f"the {site.kind} '{site.name}' touches only the area it lies within "
                    f"(and sites that share it)")
        return None
    if key == "river":
        if ka == "river" and kb == "river":
            return None
        if "river" not in (ka, kb):
            return f"a river link needs a river at one end ('{a.name}' and '{b.name}' are not rivers)"
        other = b if ka == "river" else a
        if other.kind not in OPEN_LAND:
            return f"a river borders countrysides, forests and wastelands, not the {other.kind} '{other.name}'"
        return None
    # ship
    def shipway(x: Area) -> bool:
        return x.kind == "sea" or x.navigable
    if not (shipway(a) or shipway(b)):
        return f"a ship link needs a sea or navigable river at one end ('{a.name}' - '{b.name}')"
    for x, y in ((a, b), (b, a)):
        if shipway(x):
            if y.kind == "sea" or y.navigable:
                return None
            if y.kind in SITES:
                return None if y.port else f"'{y.name}' has no port (add port = true)"
            if y.kind in OPEN_LAND:
                return None if x.kind == "sea" else f"a ship on the river '{x.name}' lands only at a port"
            if y.kind == "river":
                return f"ships cannot sail the river '{y.name}' (it is not navigable)"
    return f"no ship can move between '{a.name}' and '{b.name}'"


def _spot(path: Sequence[tuple[float, float]]) -> tuple[float, float]:
    """The point halfway along a course (the point itself for a course of one point)."""
    if len(path) == 1:
        return path[0]
    lengths = [math.dist(a, b) for a, b in zip(path, path[1:])]
    half = sum(lengths) / 2
    for (a, b), d in zip(zip(path, path[1:]), lengths):
        if half <= d:
            t = half / d
            return (round(a[0] + (b[0] - a[0]) * t, 6), round(a[1] + (b[1] - a[1]) * t, 6))
        half -= d
    return path[-1]


def _what(raw: Any, kind: str, index: int, key: str = "name") -> str:
    if isinstance(raw, dict) and isinstance(raw.get(key), str):
        return f"{kind} '{raw[key]}'"
    return f"{kind} #{index + 1}"


def _file_for(card_name: str) -> str:
    if card_name.startswith("King "):
        return "kings.toml"
    if card_name.startswith("Sir "):
        return "knights.toml"
    return "ladies.toml"
