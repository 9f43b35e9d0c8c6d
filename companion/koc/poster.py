"""The Knights of Camelot map poster: a schematic of every encounter area and its links.

Every area is drawn at its ``at`` position from ``areas.toml`` (map units; one unit is 1 cm on the
poster): countrysides as boxes in their kingdom's colour, forests, rivers and wastelands as
smaller shapes of their own, towns, castles and shrines as badges next to the area they lie
within, and each sea as a broad band along its course. Lines join the areas: solid grey for land
borders, solid blue from a river to its banks, dashed for the moves of a ship.

``poster_layout(world)`` measures everything (pure data, used by the tests: every area placed,
nothing overlapping, every link drawn); ``draw_poster(pen, layout)`` draws it with the print
suite's pen (millimetres, origin at the lower-left corner). reportlab is only loaded by the
functions that measure or draw text.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Sequence

from companion.koc.world import MAP_HEIGHT, MAP_WIDTH, SITES, World

UNIT_MM = 10.0
"""Millimetres per map unit on the printed poster."""
POSTER_W = MAP_WIDTH * UNIT_MM
POSTER_H = MAP_HEIGHT * UNIT_MM

Point = tuple[float, float]

# ---------------------------------------------------------------------------------------------
# Style

INK = "#1d1d1f"
LAND_LINE = "#4a4a4a"
RIVER_LINE = "#2a6db3"
SHIP_LINE = "#1e2f5c"
SEA_FILL = "#d6e6f5"
SEA_TEXT = "#3c6c9c"
PAPER = "#fffdf6"

KINGDOM_FILLS: dict[str, str] = {
    "Surluise": "#e4d5f0",
    "Scotland": "#f5dcc6",
    "Lothian": "#ece5b0",
    "Northumberland": "#d3e8c0",
    "Gore": "#f4cccc",
    "Strangore": "#f8e2b4",
    "Logres": "#f6eab8",
    "North Wales": "#c8e7dc",
    "Wales": "#ecd3e4",
    "Cornwall": "#dde4b6",
    "Listenoise": "#ddd5c6",
    "Ireland": "#cbe8c0",
    "Benwick": "#f3d2b4",
    "Gaul": "#e2dbf3",
    "Brittany": "#d4e9e6",
}
OTHER_FILLS = ("#e6e3de", "#efe4d4", "#eadcf5")
"""Fills of the lands outside the kingdoms, in the order of kingdoms.toml."""

KIND_STYLE: dict[str, dict[str, str]] = {
    "forest": {"fill": "#c6e0b4", "stroke": "#3f7a2e", "text": "#244a1a"},
    "wasteland": {"fill": "#eadfbd", "stroke": "#8c6d2f", "text": "#4d3b14"},
    "river": {"fill": "#d4e8fa", "stroke": RIVER_LINE, "text": "#174a80"},
    "town": {"fill": "#fff7ea", "stroke": "#9a5b22", "text": INK},
    "castle": {"fill": "#f4f2ee", "stroke": "#5f5a52", "text": INK},
    "shrine": {"fill": "#fbf3ff", "stroke": "#7b4aa5", "text": INK},
}

SITE_ICON = {"town": "house", "castle": "tower", "shrine": "plus"}
ANCHOR = "\u2693"

# font sizes (points) at print size
NAME_PT = 10.5
CAPTION_PT = 6.5
TERRAIN_PT = 8.0
SITE_PT = 7.5
ANCHOR_PT = 9.0
SEA_PT = 17.0
SEA_BAND_MM = 24.0
CLEARANCE_MM = 1.5
"""How far a line must stay from every shape it does not join."""
MIN_LINK_MM = 5.0
"""The shortest line the poster draws between two shapes."""

# sizes (mm)
PAD = 2.2
COUNTRY_MIN = (27.0, 14.0)
FOREST_H = 9.5
WASTE_H = 10.0
RIVER_H = 7.5
SITE_H = 7.2
ICON_MM = 4.6

# the furniture of the poster (map units: x, y, width, height)
TITLE_BOX = (0.8, 67.6, 17.0, 5.6)
LEGEND_BOX = (0.8, 0.8, 12.8, 18.6)
FAERIE_PAD = 1.2


# ---------------------------------------------------------------------------------------------
# Geometry


@dataclass(frozen=True)
class Box:
    x0: float
    y0: float
    x1: float
    y1: float

    @property
    def cx(self) -> float:
        return (self.x0 + self.x1) / 2

    @property
    def cy(self) -> float:
        return (self.y0 + self.y1) / 2

    @property
    def w(self) -> float:
        return self.x1 - self.x0

    @property
    def h(self) -> float:
        return self.y1 - self.y0

    def grow(self, d: float) -> "Box":
        return Box(self.x0 - d, self.y0 - d, self.x1 + d, self.y1 + d)

    def overlaps(self, other: "Box") -> bool:
        return self.x0 < other.x1 and other.x0 < self.x1 and self.y0 < other.y1 and other.y0 < self.y1

    def contains(self, p: Point, eps: float = 1e-6) -> bool:
        return self.x0 - eps <= p[0] <= self.x1 + eps and self.y0 - eps <= p[1] <= self.y1 + eps


def segment_hits_box(a: Point, b: Point, box: Box) -> bool:
    """Whether the segment a-b passes through the inside of ``box`` (Liang-Barsky)."""
    dx, dy = b[0] - a[0], b[1] - a[1]
    t0, t1 = 0.0, 1.0
    for p, q in ((-dx, a[0] - box.x0), (dx, box.x1 - a[0]), (-dy, a[1] - box.y0), (dy, box.y1 - a[1])):
        if abs(p) < 1e-12:
            if q < 0:
                return False
            continue
        r = q / p
        if p < 0:
            t0 = max(t0, r)
        else:
            t1 = min(t1, r)
        if t0 > t1:
            return False
    return t1 - t0 > 1e-9


def _closest_on_segment(p: Point, a: Point, b: Point) -> Point:
    dx, dy = b[0] - a[0], b[1] - a[1]
    d2 = dx * dx + dy * dy
    if d2 == 0:
        return a
    t = max(0.0, min(1.0, ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / d2))
    return (a[0] + t * dx, a[1] + t * dy)


def closest_on_path(p: Point, path: Sequence[Point]) -> Point:
    """The point of a course nearest to ``p``."""
    if len(path) == 1:
        return path[0]
    best, best_d = path[0], math.inf
    for a, b in zip(path, path[1:]):
        q = _closest_on_segment(p, a, b)
        d = math.dist(p, q)
        if d < best_d - 1e-9:
            best, best_d = q, d
    return best


def _segments_intersect(a: Point, b: Point, c: Point, d: Point) -> bool:
    def orient(p, q, r):
        return (q[0] - p[0]) * (r[1] - p[1]) - (q[1] - p[1]) * (r[0] - p[0])
    o1, o2, o3, o4 = orient(a, b, c), orient(a, b, d), orient(c, d, a), orient(c, d, b)
    return o1 * o2 < 0 and o3 * o4 < 0


def closest_between_paths(p: Sequence[Point], q: Sequence[Point]) -> tuple[Point, Point]:
    """The nearest pair of points of two courses."""
    best: tuple[float, Point, Point] | None = None
    for pts, other, swap in ((p, q, False), (q, p, True)):
        for v in pts:
            w = closest_on_path(v, other)
            d = math.dist(v, w)
            if best is None or d < best[0] - 1e-9:
                best = (d, w, v) if swap else (d, v, w)
    assert best is not None
    return best[1], best[2]


def distance_box_to_path(box: Box, path: Sequence[Point]) -> float:
    """Shortest distance between a box and a course (0 if they touch)."""
    corners = [(box.x0, box.y0), (box.x1, box.y0), (box.x1, box.y1), (box.x0, box.y1)]
    edges = list(zip(corners, corners[1:] + corners[:1]))
    best = math.inf
    segs = list(zip(path, path[1:])) if len(path) > 1 else [(path[0], path[0])]
    for a, b in segs:
        if box.contains(a) or box.contains(b):
            return 0.0
        for c, d in edges:
            if _segments_intersect(a, b, c, d):
                return 0.0
        for c in corners:
            best = min(best, math.dist(c, _closest_on_segment(c, a, b)))
        for c, d in edges:
            for v in (a, b):
                best = min(best, math.dist(v, _closest_on_segment(v, c, d)))
    return best


# ---------------------------------------------------------------------------------------------
# The layout


@dataclass(frozen=True)
class Label:
    text: str
    font: str
    size: float          # points
    colour: str = INK


@dataclass(frozen=True)
class Node:
    """A drawn area other than a sea: a shape centred at (x, y) mm."""

    name: str
    kind: str
    x: float
    y: float
    w: float
    h: float
    shape: str                     # 'box', 'pill', 'badge'
    fill: str
    stroke: str
    labels: tuple[Label, ...]
    icons: tuple[str, ...] = ()
    port: bool = False
    navigable: bool = False
    line_pt: float = 0.8

    @property
    def box(self) -> Box:
        return Box(self.x - self.w / 2, self.y - self.h / 2, self.x + self.w / 2, self.y + self.h / 2)

    def edge_toward(self, p: Point) -> Point:
        """Where the line from the centre toward ``p`` leaves the shape."""
        dx, dy = p[0] - self.x, p[1] - self.y
        if dx == 0 and dy == 0:
            return (self.x, self.y)
        if self.shape == "pill":
            r = self.h / 2
            # a stadium: the straight part, then the round ends
            straight = self.w / 2 - r
            t = (self.h / 2) / abs(dy) if dy else math.inf
            if abs(dx * t) <= straight:
                return (self.x + dx * t, self.y + dy * t)
            cx = self.x + math.copysign(straight, dx)
            # intersect the ray with the end circle around (cx, y)
            a = dx * dx + dy * dy
            b = 2 * (dx * (self.x - cx))
            c = (self.x - cx) ** 2 - r * r
            disc = max(0.0, b * b - 4 * a * c)
            s = (-b + math.sqrt(disc)) / (2 * a)
            return (self.x + dx * s, self.y + dy * s)
        sx = (self.w / 2) / abs(dx) if dx else math.inf
        sy = (self.h / 2) / abs(dy) if dy else math.inf
        s = min(sx, sy)
        return (self.x + dx * s, self.y + dy * s)


@dataclass(frozen=True)
class Band:
    """A sea: a broad band along its course (mm)."""

    name: str
    path: tuple[Point, ...]
    width: float

    def edge_toward(self, p: Point) -> Point:
        q = closest_on_path(p, self.path)
        d = math.dist(p, q)
        if d <= self.width / 2:
            return q
        t = (self.width / 2) / d
        return (q[0] + (p[0] - q[0]) * t, q[1] + (p[1] - q[1]) * t)


@dataclass(frozen=True)
class Link:
    a: str
    b: str
    kind: str                      # 'land', 'river' or 'ship'
    start: Point
    end: Point


@dataclass
class PosterLayout:
    nodes: dict[str, Node]
    bands: dict[str, Band]
    links: list[Link]
    furniture: dict[str, Box]
    kingdom_fills: dict[str, str]
    title: str = "Knights of Camelot"
    faerie: str | None = None

    # ---- checks (used by the tests and while placing areas by hand) ------------------------
    def overlaps(self, margin: float = 1.0) -> list[tuple[str, str]]:
        """Pairs of shapes that touch or come closer than ``margin`` mm (and shapes on the
        title, legend or Faerie box, or off the poster)."""
        out = []
        names = list(self.nodes)
        boxes = {n: self.nodes[n].box for n in names}
        for i, a in enumerate(names):
            for b in names[i + 1:]:
                if boxes[a].grow(margin / 2).overlaps(boxes[b].grow(margin / 2)):
                    out.append((a, b))
            for b, band in self.bands.items():
                if distance_box_to_path(boxes[a], band.path) < band.width / 2 + margin:
                    out.append((a, b))
            for f, fbox in self.furniture.items():
                if a == self.faerie and f == "faerie box":
                    continue
                if boxes[a].grow(margin / 2).overlaps(fbox):
                    out.append((a, f))
            if not Box(0, 0, POSTER_W, POSTER_H).grow(-margin).contains((boxes[a].x0, boxes[a].y0)) or \
                    not Box(0, 0, POSTER_W, POSTER_H).grow(-margin).contains((boxes[a].x1, boxes[a].y1)):
                out.append((a, "the edge of the poster"))
        for f, fbox in self.furniture.items():
            for b, band in self.bands.items():
                if distance_box_to_path(fbox, band.path) < band.width / 2:
                    out.append((f, b))
        return out

    def crossings(self, margin: float = CLEARANCE_MM) -> list[tuple[Link, str]]:
        """Links that pass through a shape other than their own two ends."""
        out = []
        for link in self.links:
            for name, node in self.nodes.items():
                if name in (link.a, link.b):
                    continue
                if segment_hits_box(link.start, link.end, node.box.grow(margin)):
                    out.append((link, name))
            for f, fbox in self.furniture.items():
                if segment_hits_box(link.start, link.end, fbox):
                    out.append((link, f))
            if link.kind == "ship":
                for name, band in self.bands.items():
                    if name in (link.a, link.b):
                        continue
                    if _path_hits_segment(band.path, band.width / 2, link.start, link.end):
                        out.append((link, name))
        return out

    def short_links(self, min_mm: float = MIN_LINK_MM) -> list[Link]:
        """Links too short to be seen (a dashed ship's way needs a few dashes)."""
        return [lk for lk in self.links if math.dist(lk.start, lk.end) < min_mm]

    def problems(self) -> list[str]:
        out = [f"'{a}' and '{b}' overlap" for a, b in self.overlaps()]
        out += [f"the {lk.kind} link {lk.a} - {lk.b} runs through '{n}'" for lk, n in self.crossings()]
        out += [f"the {lk.kind} link {lk.a} - {lk.b} is too short to see" for lk in self.short_links()]
        return out


def _path_hits_segment(path: Sequence[Point], radius: float, a: Point, b: Point) -> bool:
    # sample the segment: a band is wide and links are short, 1 mm steps are plenty
    n = max(2, int(math.dist(a, b)))
    for k in range(1, n):
        t = k / n
        p = (a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t)
        if math.dist(p, closest_on_path(p, path)) < radius:
            return True
    return False


def _width_mm(text: str, font: str, size_pt: float) -> float:
    from companion.render.printkit.fit import text_width

    return text_width(text, font, size_pt) * 25.4 / 72


def _anchor_width() -> float:
    """The room a port's anchor takes after the name (a space and the anchor)."""
    from companion.render import fonts

    return _width_mm(" ", fonts.SANS_BOLD, SITE_PT) + _width_mm(ANCHOR, fonts.SANS_BOLD, ANCHOR_PT)


def kingdom_fills(world: World) -> dict[str, str]:
    fills = {k: KINGDOM_FILLS.get(k, "#eeeeee") for k in world.kingdoms}
    for i, k in enumerate(world.independent):
        fills[k] = OTHER_FILLS[i % len(OTHER_FILLS)]
    return fills


def _darker(colour: str, t: float) -> str:
    from companion.render.printkit.colours import darker, rgb

    r, g, b = darker(rgb(colour), t)
    return "#%02x%02x%02x" % (round(r * 255), round(g * 255), round(b * 255))


def _caption(world: World, area) -> str:
    if area.kind == "countryside":
        if area.otherworld:
            return "the otherworld"
        if area.kingdom in world.independent:
            return "no kingdom"
        if area.castellany:
            number = world.castellanies[area.castellany].number
            return f"{area.kingdom} · {area.castellany} ({number})"
        return f"kingdom of {area.kingdom}"
    if area.kind == "wasteland":
        return "wasteland"
    if area.kind == "river" and area.navigable:
        return "navigable"
    return ""


WRAP_MM = 24.0
"""Names of forests and wastelands wider than this are set on two lines."""


def _wrap(name: str, font: str, size: float) -> list[str]:
    """A name on one line, or on two balanced lines if it is wide and has several words."""
    words = name.split()
    if len(words) < 2 or _width_mm(name, font, size) <= WRAP_MM:
        return [name]
    best = None
    for k in range(1, len(words)):
        a, b = " ".join(words[:k]), " ".join(words[k:])
        wide = max(_width_mm(a, font, size), _width_mm(b, font, size))
        if best is None or wide < best[0] - 1e-9:
            best = (wide, [a, b])
    assert best is not None
    return best[1]


def royal_seats(world: World) -> list[str]:
    """The royal castles of the kingdoms and the seats of Logres' castellanies."""
    out = [k.royal_castle for k in world.kingdoms.values() if k.royal_castle]
    out += [c.castle for c in world.castellanies.values()]
    return list(dict.fromkeys(out))


def _node(world: World, area, fills: dict[str, str], seats: Sequence[str] = ()) -> Node:
    from companion.render import fonts

    assert area.at is not None
    x, y = area.at[0] * UNIT_MM, area.at[1] * UNIT_MM
    kind = area.kind
    caption = _caption(world, area)
    if kind == "countryside":
        fill = fills.get(area.kingdom or "", "#eeeeee")
        stroke = _darker(fill, 0.45)
        labels = [Label(area.name, fonts.SANS_BOLD, NAME_PT)]
        if caption:
            labels.append(Label(caption.upper(), fonts.SANS, CAPTION_PT, _darker(fill, 0.62)))
        w = max(_width_mm(lb.text, lb.font, lb.size) for lb in labels) + 2 * PAD + 2
        return Node(area.name, kind, x, y, max(w, COUNTRY_MIN[0]), COUNTRY_MIN[1], "box", fill,
                    stroke, tuple(labels), line_pt=1.1)
    style = KIND_STYLE[kind]
    if kind in ("forest", "wasteland"):
        lines = _wrap(area.name, fonts.SANS_BOLD, TERRAIN_PT)
        labels = [Label(line, fonts.SANS_BOLD, TERRAIN_PT, style["text"]) for line in lines]
        if caption:
            labels.append(Label(caption.upper(), fonts.SANS, CAPTION_PT, style["stroke"]))
        icons = ("tree",) if kind == "forest" else ()
        text_w = max(_width_mm(lb.text, lb.font, lb.size) for lb in labels)
        w = text_w + 2 * PAD + (ICON_MM + 1.0 if icons else 0)
        h = (FOREST_H if kind == "forest" else WASTE_H) + (len(lines) - 1) * TERRAIN_PT * 0.36
        return Node(area.name, kind, x, y, w, h, "box", style["fill"], style["stroke"],
                    tuple(labels), icons)
    if kind == "river":
        labels = [Label(area.name, fonts.SANS_BOLD_ITALIC, TERRAIN_PT, style["text"])]
        h = RIVER_H
        if caption:
            labels.append(Label(caption.upper(), fonts.SANS_BOLD, CAPTION_PT - 0.6, style["stroke"]))
            h += 2.6
        text_w = max(_width_mm(lb.text, lb.font, lb.size) for lb in labels)
        w = max(text_w + h, h * 2)
        return Node(area.name, kind, x, y, w, h, "pill", style["fill"], style["stroke"],
                    tuple(labels), navigable=area.navigable, line_pt=1.6 if area.navigable else 0.9)
    # sites
    kinds = [kind] + [k for k in area.also if k in SITES]
    icons = tuple("crown" if k == "castle" and area.name in seats else SITE_ICON[k] for k in kinds)
    style = KIND_STYLE[kind]
    labels = (Label(area.name, fonts.SANS_BOLD, SITE_PT, style["text"]),)
    w = _width_mm(area.name, fonts.SANS_BOLD, SITE_PT) + 2 * PAD + len(icons) * (ICON_MM * 0.9) + 0.6
    if area.port:
        w += _anchor_width()
    return Node(area.name, kind, x, y, w, SITE_H, "badge", style["fill"], style["stroke"], labels,
                icons, port=area.port, line_pt=1.0)


def poster_layout(world: World) -> PosterLayout:
    """Measure every shape and line of the poster."""
    from companion.errors import CompanionError
    from companion.render.fonts import register_fonts

    register_fonts()
    missing = [a.name for a in world.areas.values() if a.at is None]
    if missing:
        raise CompanionError(f"the map poster needs a position for every area; {len(missing)} have "
                             f"none ({', '.join(missing[:5])}{', ...' if len(missing) > 5 else ''})",
                             hint="add at = [x, y] to each area in areas.toml")
    fills = kingdom_fills(world)
    seats = royal_seats(world)
    nodes: dict[str, Node] = {}
    bands: dict[str, Band] = {}
    faerie = None
    for area in world.areas.values():
        if area.kind == "sea":
            bands[area.name] = Band(area.name, tuple((x * UNIT_MM, y * UNIT_MM) for x, y in area.path),
                                    SEA_BAND_MM)
        else:
            nodes[area.name] = _node(world, area, fills, seats)
            if area.otherworld:
                faerie = area.name
    furniture = {
        "title": Box(TITLE_BOX[0] * UNIT_MM, TITLE_BOX[1] * UNIT_MM,
                     (TITLE_BOX[0] + TITLE_BOX[2]) * UNIT_MM, (TITLE_BOX[1] + TITLE_BOX[3]) * UNIT_MM),
        "legend": Box(LEGEND_BOX[0] * UNIT_MM, LEGEND_BOX[1] * UNIT_MM,
                      (LEGEND_BOX[0] + LEGEND_BOX[2]) * UNIT_MM, (LEGEND_BOX[1] + LEGEND_BOX[3]) * UNIT_MM),
    }
    if faerie:
        fb = nodes[faerie].box.grow(FAERIE_PAD * UNIT_MM)
        furniture["faerie box"] = Box(fb.x0, fb.y0 - 14.0, fb.x1, fb.y1 + 4.0)
    links: list[Link] = []
    clear = {name: node.box.grow(CLEARANCE_MM) for name, node in nodes.items()}
    clear.update({f"[{name}]": box for name, box in furniture.items()})
    done: set[tuple[str, str, str]] = set()
    for area in world.areas.values():
        for kind, others in area.links().items():
            for other in others:
                key = (min(area.name, other), max(area.name, other), kind)
                if key in done:
                    continue
                done.add(key)
                links.append(_link(key[0], key[1], kind, nodes, bands, clear))
    return PosterLayout(nodes, bands, _offset_twins(links, nodes), furniture, fills, faerie=faerie)


def _arc_length(path: Sequence[Point], p: Point) -> float:
    """How far along the course the point of it nearest to ``p`` lies."""
    best, best_d, run = 0.0, math.inf, 0.0
    for a, b in zip(path, path[1:]):
        q = _closest_on_segment(p, a, b)
        d = math.dist(p, q)
        if d < best_d - 1e-9:
            best, best_d = run + math.dist(a, q), d
        run += math.dist(a, b)
    return best


def _point_at(path: Sequence[Point], s: float) -> Point:
    for a, b in zip(path, path[1:]):
        d = math.dist(a, b)
        if s <= d:
            t = s / d if d else 0.0
            return (a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t)
        s -= d
    return path[-1]


def _sea_link(band: Band, node: Node, others: Sequence[Box]) -> tuple[Point, Point]:
    """A ship's way from a coast or port to a sea: straight to the nearest point of the sea's
    band, or, if that line would run through another shape, to the nearest point along the
    band (in steps of 15 mm either way) that it can reach in the clear."""
    centre = (node.x, node.y)
    path = band.path
    if len(path) == 1:
        return node.edge_toward(path[0]), band.edge_toward(centre)
    length = sum(math.dist(a, b) for a, b in zip(path, path[1:]))
    s0 = _arc_length(path, centre)
    first = None
    for k in range(0, 13):
        for s in ((s0,) if k == 0 else (s0 + 15.0 * k, s0 - 15.0 * k)):
            if not 0.0 <= s <= length:
                continue
            q = _point_at(path, s)
            d = math.dist(centre, q)
            if d <= band.width / 2:
                continue
            start = node.edge_toward(q)
            r = band.width / 2 / d
            end = (q[0] + (centre[0] - q[0]) * r, q[1] + (centre[1] - q[1]) * r)
            if first is None:
                first = (start, end)
            if not any(segment_hits_box(start, end, box) for box in others):
                return start, end
    assert first is not None
    return first


def _link(a: str, b: str, kind: str, nodes: dict[str, Node], bands: dict[str, Band],
          clear: dict[str, Box] | None = None) -> Link:
    """The line of a link; ``clear``: shapes (grown by the margin) a ship's way must avoid."""
    if a in bands and b in bands:
        p, q = closest_between_paths(bands[a].path, bands[b].path)
        return Link(a, b, kind, bands[a].edge_toward(q), bands[b].edge_toward(p))
    if a in bands or b in bands:
        sea, land = (a, b) if a in bands else (b, a)
        node = nodes[land]
        others = [box for name, box in (clear or {}).items() if name != land]
        start, end = _sea_link(bands[sea], node, others)
        return Link(a, b, kind, start, end) if land == a else Link(a, b, kind, end, start)
    na, nb = nodes[a], nodes[b]
    return Link(a, b, kind, na.edge_toward((nb.x, nb.y)), nb.edge_toward((na.x, na.y)))


def _box_exit(box: Box, origin: Point, toward: Point) -> Point:
    """Where the ray from ``origin`` (inside ``box``) toward ``toward`` leaves the box."""
    dx, dy = toward[0] - origin[0], toward[1] - origin[1]
    s = math.inf
    if dx:
        s = min(s, ((box.x1 if dx > 0 else box.x0) - origin[0]) / dx)
    if dy:
        s = min(s, ((box.y1 if dy > 0 else box.y0) - origin[1]) / dy)
    if s == math.inf:
        return origin
    return (origin[0] + dx * s, origin[1] + dy * s)


def _offset_twins(links: list[Link], nodes: dict[str, Node]) -> list[Link]:
    """Pairs joined in two ways (a river that is also a ship's way) get parallel lines."""
    by_pair: dict[tuple[str, str], list[int]] = {}
    for i, lk in enumerate(links):
        by_pair.setdefault((lk.a, lk.b), []).append(i)
    out = list(links)
    for (a, b), idx in by_pair.items():
        if len(idx) < 2 or a not in nodes or b not in nodes:
            continue
        na, nb = nodes[a], nodes[b]
        dx, dy = nb.x - na.x, nb.y - na.y
        d = math.hypot(dx, dy) or 1.0
        for k, i in enumerate(idx):
            shift = (k - (len(idx) - 1) / 2) * 2.4
            ox, oy = -dy / d * shift, dx / d * shift
            pa, pb = (na.x + ox, na.y + oy), (nb.x + ox, nb.y + oy)
            out[i] = Link(a, b, links[i].kind, _box_exit(na.box, pa, pb), _box_exit(nb.box, pb, pa))
    return out


# ---------------------------------------------------------------------------------------------
# Drawing


def draw_poster(pen, layout: PosterLayout, world: World) -> None:
    """Draw the whole poster with ``pen`` (millimetres; the board's lower-left corner at 0, 0)."""
    pen.rect(0, 0, POSTER_W, POSTER_H, fill=PAPER, stroke=None)
    for band in layout.bands.values():
        _draw_band(pen, band)
    for kind in ("ship", "river", "land"):
        for lk in layout.links:
            if lk.kind != kind:
                continue
            if kind == "ship":
                pen.line(*lk.start, *lk.end, colour="#ffffff", line_pt=2.6)
                pen.line(*lk.start, *lk.end, colour=SHIP_LINE, line_pt=1.3, dash_mm=(3.0, 1.8))
            elif kind == "river":
                pen.line(*lk.start, *lk.end, colour=RIVER_LINE, line_pt=1.8)
            else:
                pen.line(*lk.start, *lk.end, colour=LAND_LINE, line_pt=1.6)
    if layout.faerie:
        _draw_faerie_box(pen, layout)
    for node in layout.nodes.values():
        _draw_node(pen, node)
    _draw_title(pen, layout, world)
    _draw_legend(pen, layout, world)
    pen.rect(0.6, 0.6, POSTER_W - 1.2, POSTER_H - 1.2, stroke="#6e6e6e", line_pt=1.0)


def _draw_band(pen, band: Band) -> None:
    from companion.render import fonts
    from companion.render.printkit.colours import rgb

    c = pen.canvas
    c.saveState()
    c.setLineCap(1)
    c.setLineJoin(1)
    p = c.beginPath()
    p.moveTo(*band.path[0])
    for pt in band.path[1:]:
        p.lineTo(*pt)
    c.setStrokeColorRGB(*rgb(SEA_FILL))
    c.setLineWidth(band.width)
    c.drawPath(p, stroke=1, fill=0)
    # faint waves along the middle
    c.setStrokeColorRGB(*rgb("#b7d0e8"))
    c.setLineWidth(0.35)
    c.setDash([4, 3], 0)
    for off in (-band.width * 0.3, band.width * 0.3):
        q = c.beginPath()
        pts = _offset_path(band.path, off)
        q.moveTo(*pts[0])
        for pt in pts[1:]:
            q.lineTo(*pt)
        c.drawPath(q, stroke=1, fill=0)
    c.restoreState()
    # the name along the longest stretches, every 22 cm or so
    name = band.name.upper()
    size = SEA_PT * 25.4 / 72
    text_w = _width_mm(name, fonts.SANS_BOLD_ITALIC, SEA_PT)
    segments = list(zip(band.path, band.path[1:]))
    longest = max(range(len(segments)), key=lambda i: (math.dist(*segments[i]), -i))
    for i, (a, b) in enumerate(segments):
        length = math.dist(a, b)
        if length < text_w + 10 or (i != longest and length < 250):
            continue
        count = max(1, int(length // 250))
        angle = math.degrees(math.atan2(b[1] - a[1], b[0] - a[0]))
        if angle > 90 or angle <= -90:
            angle += 180 if angle <= -90 else -180
        for k in range(count):
            t = (k + 0.5) / count
            x, y = a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t
            c.saveState()
            c.translate(x, y)
            c.rotate(angle)
            c.setFillColorRGB(*rgb(SEA_TEXT))
            c.setFont(fonts.SANS_BOLD_ITALIC, size)
            c.drawCentredString(0, -size * 0.36, name)
            c.restoreState()


def _offset_path(path: Sequence[Point], off: float) -> list[Point]:
    out = []
    for i, p in enumerate(path):
        a = path[max(0, i - 1)]
        b = path[min(len(path) - 1, i + 1)]
        dx, dy = b[0] - a[0], b[1] - a[1]
        d = math.hypot(dx, dy) or 1.0
        out.append((p[0] - dy / d * off, p[1] + dx / d * off))
    return out


def _draw_node(pen, node: Node) -> None:
    from companion.render import fonts

    box = node.box
    if node.shape == "pill":
        pen.rect(box.x0, box.y0, node.w, node.h, fill=node.fill, stroke=node.stroke,
                 line_pt=node.line_pt, radius=node.h / 2)
        if node.navigable:
            pen.rect(box.x0 + 0.9, box.y0 + 0.9, node.w - 1.8, node.h - 1.8, fill=None,
                     stroke=node.stroke, line_pt=0.5, radius=node.h / 2 - 0.9)
    elif node.shape == "badge":
        pen.rect(box.x0, box.y0, node.w, node.h, fill=node.fill, stroke=node.stroke,
                 line_pt=node.line_pt, radius=1.6)
    else:
        pen.rect(box.x0, box.y0, node.w, node.h, fill=node.fill, stroke=node.stroke,
                 line_pt=node.line_pt, radius=2.4 if node.kind == "countryside" else 3.2)
        if node.kind == "wasteland":
            _tufts(pen, node)
    # icons on the left, labels centred in what is left
    x = box.x0 + PAD * 0.7
    icon_size = ICON_MM if node.shape != "badge" else ICON_MM * 0.95
    for icon in node.icons:
        pen.icon(icon, x, node.y - icon_size / 2, icon_size, line_pt=0.6)
        x += icon_size * (0.9 if node.shape == "badge" else 1.1)
    left = x if node.icons else box.x0
    centre = (left + box.x1) / 2 if node.icons else node.x
    sizes = [lb.size * 25.4 / 72 for lb in node.labels]
    gap = 1.0
    total = sum(s * 0.74 for s in sizes) + gap * (len(sizes) - 1)
    if node.kind == "countryside":
        top = box.y1 - 3.4
    else:
        top = node.y + total / 2
    y = top
    for lb, s in zip(node.labels, sizes):
        y -= s * 0.74
        if node.port and lb is node.labels[0]:
            w_name = _width_mm(lb.text, lb.font, lb.size)
            x0 = centre - (w_name + _anchor_width()) / 2
            pen.text(x0, y, lb.text, size_pt=lb.size, colour=lb.colour, font=lb.font)
            pen.text(x0 + w_name + _width_mm(" ", lb.font, lb.size), y - 0.2, ANCHOR,
                     size_pt=ANCHOR_PT, colour=SHIP_LINE, font=fonts.SANS_BOLD)
        else:
            pen.text(centre, y, lb.text, size_pt=lb.size, colour=lb.colour, font=lb.font,
                     align="centre")
        y -= gap


def _tufts(pen, node: Node) -> None:
    box = node.box
    step = 5.0
    for i in range(int(node.w // step)):
        x = box.x0 + step * (i + 0.5)
        y = box.y0 + 0.9
        for dx, top in ((-0.7, 1.0), (0.0, 1.4), (0.7, 1.0)):
            pen.line(x, y, x + dx, y + top, colour=node.stroke, line_pt=0.45)


def _draw_faerie_box(pen, layout: PosterLayout) -> None:
    from companion.render import fonts

    box = layout.furniture["faerie box"]
    pen.rect(box.x0, box.y0, box.w, box.h, fill="#f7f0fc", stroke="#7b4aa5", line_pt=1.2,
             radius=4)
    pen.rect(box.x0 + 1.5, box.y0 + 1.5, box.w - 3, box.h - 3, fill=None, stroke="#7b4aa5",
             line_pt=0.4, radius=3)
    lines = ["No border leads here: only magic", "takes a knight in, and out again."]
    y = box.y0 + 9.5
    for line in lines:
        pen.text(box.cx, y, line, size_pt=7.5, colour="#4b2a6a", align="centre",
                 font=fonts.SANS_ITALIC)
        y -= 3.6


def _draw_title(pen, layout: PosterLayout, world: World) -> None:
    from companion.render import fonts

    box = layout.furniture["title"]
    pen.text(box.x0 + 1.5, box.y1 - 12, layout.title, size_pt=34, colour="#1e2f5c",
             font=fonts.SERIF_BOLD)
    pen.text(box.x0 + 2, box.y1 - 20.5, "The map of encounter areas", size_pt=14, bold=True,
             colour="#1e2f5c")
    lines = [
        "Each shape is one encounter area. A knight moves from an area",
        "to any area joined to it by a line; see the key, bottom left.",
        "Towns, castles and shrines sit beside the area they lie in.",
    ]
    y = box.y1 - 28.5
    for line in lines:
        pen.text(box.x0 + 2, y, line, size_pt=9, colour=INK)
        y -= 4.3


def _legend_nodes(world: World) -> list[tuple[Node | str, str, str]]:
    """Sample shapes for the key, each with its label and a short note."""
    from companion.render import fonts

    logres = kingdom_fills(world).get("Logres", "#f6eab8")
    f, w, r = KIND_STYLE["forest"], KIND_STYLE["wasteland"], KIND_STYLE["river"]
    rows: list[tuple[Node | str, str, str]] = [
        (Node("Province", "countryside", 0, 0, 24, 10, "box", logres, _darker(logres, 0.45),
              (Label("Province", fonts.SANS_BOLD, NAME_PT - 1.5),
               Label("KINGDOM", fonts.SANS, CAPTION_PT, _darker(logres, 0.62))), line_pt=1.1),
         "Countryside", "in its kingdom's colour"),
        (Node("Forest", "forest", 0, 0, 22, FOREST_H, "box", f["fill"], f["stroke"],
              (Label("Forest", fonts.SANS_BOLD, TERRAIN_PT, f["text"]),), ("tree",)),
         "Forest", ""),
        (Node("Heath", "wasteland", 0, 0, 22, WASTE_H, "box", w["fill"], w["stroke"],
              (Label("Heath", fonts.SANS_BOLD, TERRAIN_PT, w["text"]),
               Label("WASTELAND", fonts.SANS, CAPTION_PT, w["stroke"]))),
         "Wasteland", "marsh or heath"),
        (Node("River", "river", 0, 0, 18, RIVER_H, "pill", r["fill"], r["stroke"],
              (Label("River", fonts.SANS_BOLD_ITALIC, TERRAIN_PT, r["text"]),), line_pt=0.9),
         "River", "entered from its banks"),
        (Node("River ", "river", 0, 0, 20, RIVER_H + 2.6, "pill", r["fill"], r["stroke"],
              (Label("River", fonts.SANS_BOLD_ITALIC, TERRAIN_PT, r["text"]),
               Label("NAVIGABLE", fonts.SANS_BOLD, CAPTION_PT - 0.6, r["stroke"])),
              navigable=True, line_pt=1.6),
         "Navigable river", "ships sail up it"),
        ("sea", "Sea", "only ships enter"),
    ]
    for kind, icon, label, note in (("town", "house", "Town", ""),
                                     ("castle", "tower", "Castle", ""),
                                     ("castle", "crown", "Royal castle", "or a castellany's seat"),
                                     ("shrine", "plus", "Shrine", "")):
        s = KIND_STYLE[kind]
        rows.append((Node(label, kind, 0, 0, 11, SITE_H, "badge", s["fill"], s["stroke"], (),
                          (icon,), line_pt=1.0), label, note))
    rows.append(("port", "Port " + ANCHOR, "ships are boarded here"))
    rows.append(("within", "Beside its area", "lies in the area it touches"))
    return rows


def _draw_legend(pen, layout: PosterLayout, world: World) -> None:
    import dataclasses

    from companion.koc.world import _kingdom_rolls
    from companion.render import fonts
    from companion.render.printkit.colours import rgb

    box = layout.furniture["legend"]
    pen.rect(box.x0, box.y0, box.w, box.h, fill="#ffffff", stroke="#6e6e6e", line_pt=0.8, radius=3)
    left = box.x0 + 4
    top = box.y1 - 9
    col_w = (box.w - 8) / 2
    pen.text(left, top, "Key", size_pt=14, bold=True, colour="#1e2f5c")

    def heading(x, y, text):
        pen.text(x, y, text, size_pt=10, bold=True, colour="#1e2f5c")

    def label(x, y, text, note):
        pen.text(x, y + (0.6 if note else -1.2), text, size_pt=8.5, bold=True, colour=INK)
        if note:
            pen.text(x, y - 2.9, note, size_pt=6.5, colour="#444444")

    # ---- areas, in two columns
    y0 = top - 8
    heading(left, y0, "Areas")
    rows = _legend_nodes(world)
    half = (len(rows) + 1) // 2
    row_h = 10.5
    for i, (sample, text, note) in enumerate(rows):
        col, k = divmod(i, half)
        x = left + col * col_w
        cy = y0 - 7.5 - k * row_h
        sx = x + 12
        if isinstance(sample, Node):
            _draw_node(pen, dataclasses.replace(sample, x=sx, y=cy))
        elif sample == "sea":
            c = pen.canvas
            c.saveState()
            c.setLineCap(1)
            c.setStrokeColorRGB(*rgb(SEA_FILL))
            c.setLineWidth(8)
            c.line(sx - 8, cy, sx + 8, cy)
            c.restoreState()
            pen.text(sx, cy - 1.1, "SEA", size_pt=8, colour=SEA_TEXT, align="centre",
                     font=fonts.SANS_BOLD_ITALIC)
        elif sample == "port":
            pen.text(sx, cy - 1.8, ANCHOR, size_pt=15, colour=SHIP_LINE, align="centre",
                     font=fonts.SANS_BOLD)
        elif sample == "within":
            s = KIND_STYLE["castle"]
            pen.line(sx - 8, cy, sx + 4, cy, colour=LAND_LINE, line_pt=1.6)
            pen.rect(sx - 11, cy - 2.5, 5, 5, fill="#f6eab8", stroke="#8a7a3a", line_pt=0.8,
                     radius=1)
            _draw_node(pen, Node("x", "castle", sx + 5, cy, 7, SITE_H, "badge", s["fill"],
                                 s["stroke"], (), ("tower",), line_pt=1.0))
        label(x + 25, cy, text, note)
    y = y0 - 7.5 - half * row_h - 1
    # ---- lines
    heading(left, y, "Lines")
    y -= 7
    for i, (kind, text, note) in enumerate((("land", "Border", "ride or walk across"),
                                            ("river", "River bank", "step into the river"),
                                            ("ship", "Ship's way", "sea, coast or port"))):
        x = left + (i % 2) * col_w
        yy = y - (i // 2) * 9
        x0, x1 = x + 3, x + 21
        if kind == "ship":
            pen.line(x0, yy, x1, yy, colour=SHIP_LINE, line_pt=1.3, dash_mm=(3.0, 1.8))
        else:
            pen.line(x0, yy, x1, yy, colour=LAND_LINE if kind == "land" else RIVER_LINE,
                     line_pt=1.6 if kind == "land" else 1.8)
        label(x + 25, yy, text, note)
    y -= 9 * 2 + 2
    # ---- kingdoms
    heading(left, y, "Kingdoms")
    pen.text(box.x1 - 4, y, "2d6 (then odd die) to pick one at random", size_pt=6.5,
             colour="#444444", align="right")
    rolls = _kingdom_rolls(world)
    entries = [(k, "7/1-6" if k == "Logres" else rolls.get(k, "")) for k in world.kingdoms]
    entries += [(k, "") for k in world.independent]
    per_col = (len(entries) + 1) // 2
    for i, (name, roll) in enumerate(entries):
        col, k = divmod(i, per_col)
        x = left + col * col_w
        yy = y - 6.5 - k * 5.4
        fill = layout.kingdom_fills.get(name, "#eeeeee")
        pen.rect(x, yy - 1.2, 7, 4.2, fill=fill, stroke=_darker(fill, 0.45), line_pt=0.8, radius=0.8)
        pen.text(x + 9, yy, name, size_pt=8, colour=INK)
        if roll:
            pen.text(x + col_w - 5, yy, roll, size_pt=7.5, colour="#444444", align="right")
    y -= 6.5 + per_col * 5.4 + 1
    for line in ("Each province of Logres names its castellany and, in brackets,",
                 "the odd die that picks it when 7 is rolled for the kingdom."):
        pen.text(left, y, line, size_pt=6.5, colour="#444444")
        y -= 3.1
