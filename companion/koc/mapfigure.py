"""The Knights of Camelot map in every report: the areas and links of the map poster with the
counters the viewer may see (docs/koc-engine.md, "Reports").

``map_data(world, view)`` builds the figure's plain data from a view only: the geometry of the
map (every area, sea and link as ``poster_layout`` places them on the poster; public and the same
for every game) and, from the view, the knights' counters (public: they stand on the table), the
Merlin/Morgan counter, the castles placed on the map, and for a player the areas his knight can
reach next. ``map_flowable`` draws it in the PDF (reportlab, imported when called) and
``map_svg`` for the web view (found by companion/render/report_html.py); ``map_text`` is the
text form.

``closeup_data(data)`` cuts from that data the close-up of a player's report: the poster at its
own size around his knight, legible on a phone, with labels at its edges for the areas he can
reach beyond it (``closeup_flowable``, ``closeup_svg``, ``closeup_text``).

The geometry needs reportlab to measure the names, so it is built once per process and kept in
the cache of built data (companion/engine/cache.py) beside the world: ``companion show`` of a
KoC game then reads it without loading reportlab or the fonts.
"""
from __future__ import annotations

import math
import re
from typing import Any

INK = "#1d1d1f"           # the counters' outline and the legend's text
PAPER = "#fffdf6"         # the legend's ground (the map's own colours come from poster.py)
GOLD = "#e0a400"          # the viewer's own counter: a gold ring
REACH = "#d9480f"         # the areas his knight can reach next: an orange outline
KNIGHT_FILL = "#ffffff"
ARTHURIAN_FILL = "#1f4e9c"
KNAVE_FILL = "#2b2b2b"
MERLIN_FILL = "#6b2fa3"
CASTLE_FILL = "#5f5a52"
RADIUS = 5.5              # a counter's radius on the poster (mm)
PT_MM = 25.4 / 72
LEGEND_PT = 11.0          # the legend's text (points at poster size)
NAME_CHARS = 24           # longer knight names are cut in the legend (the text form has them whole)
PLACE_CHARS = 30          # and so are longer places
MAX_HEIGHT_MM = 236.0     # the figure fits a report page below its section's heading
WHERE_WORDS = {"inside": "inside", "gate": "at the gate", "ship": "aboard a ship",
               "coast": "on the coast", "prison": "in prison", "area": "", "war": ""}

_geometry: dict[int, tuple[Any, dict]] = {}


# ------------------------------------------------------------------------------- the data

def geometry(world) -> dict[str, Any]:
    """Every area, sea and link of the map as the poster places them (millimetres on the
    poster, origin at its lower-left corner), as plain data; built once per world."""
    held = _geometry.get(id(world))
    if held is not None and held[0] is world:
        return held[1]
    from companion.koc import world as world_module

    if world is world_module._default_world:      # the bundled world: kept in the cache
        value = _cached_geometry(world)
    else:
        value = _build_geometry(world)
    _geometry[id(world)] = (world, value)
    return value


def code() -> list:
    """The sources the cached geometry depends on besides the data files: the world's loader,
    the poster's layout, this module, and what measures the names (the fonts module, the print
    kit). The bundled fonts themselves change only with the package version, which every
    cache key holds."""
    from pathlib import Path

    from companion.koc import world as world_module

    package = Path(__file__).resolve().parent.parent
    return [*world_module.CODE, package / "koc" / "poster.py", Path(__file__).resolve(),
            package / "render" / "__init__.py", package / "render" / "fonts.py",
            package / "resources.py", package / "engine" / "words.py",
            *sorted((package / "render" / "printkit").glob("*.py"))]


def _cached_geometry(world) -> dict[str, Any]:
    from companion.engine import cache
    from companion.koc import world as world_module

    return cache.cached(
        cache.name_for("koc-map", world_module.DATA_DIR),
        files=[world_module.DATA_DIR / name for name in world_module.FILES], code=code(),
        build=lambda: _build_geometry(world), codec=cache.Codec(()))


def _build_geometry(world) -> dict[str, Any]:
    from reportlab.pdfbase.pdfmetrics import stringWidth

    from companion.koc import poster
    from companion.render.fonts import SANS_BOLD

    layout = poster.poster_layout(world)

    def em(name: str) -> float:            # a name's width in ems of the bold font
        return round(stringWidth(name, SANS_BOLD, 100.0) / 100.0, 2)

    def r(value: float) -> float:
        return round(float(value), 1)

    areas = []
    for name, node in layout.nodes.items():
        names = [lb for lb in node.labels if lb.size > poster.CAPTION_PT] or list(node.labels[:1])
        areas.append({"name": name, "kind": node.kind, "x": r(node.x), "y": r(node.y),
                      "w": r(node.w), "h": r(node.h), "shape": node.shape, "fill": node.fill,
                      "stroke": node.stroke, "ink": names[0].colour,
                      "lines": [lb.text for lb in names], "pt": names[0].size,
                      "line": node.line_pt, "em": em(name)})
    seas = [{"name": band.name, "path": [[r(x), r(y)] for x, y in band.path],
             "width": r(band.width), "em": em(band.name)} for band in layout.bands.values()]
    links: dict[str, list[list[float]]] = {"land": [], "river": [], "ship": []}
    for link in layout.links:
        links[link.kind].append([r(link.start[0]), r(link.start[1]),
                                 r(link.end[0]), r(link.end[1])])
    boxes = {name: [r(b.x0), r(b.y0), r(b.x1), r(b.y1)] for name, b in layout.furniture.items()}
    style = {"paper": poster.PAPER, "sea": poster.SEA_FILL, "sea_text": poster.SEA_TEXT,
             "land": poster.LAND_LINE, "river": poster.RIVER_LINE, "ship": poster.SHIP_LINE}
    return {"size": [r(poster.POSTER_W), r(poster.POSTER_H)], "areas": areas, "seas": seas,
            "links": links, "boxes": boxes, "style": style}


def locate(place: str, areas) -> tuple[str | None, str]:
    """The area and the kind of place (``where``) of a counter, from its place as the view gives
    it ("outside the gate of Edinburgh", "inside the castle in Breckland Forest (Breckland
    Forest)"); (None, 'war') for a knight away at a foreign war (off the map)."""
    from companion.koc.views import PLACES

    for where, words in sorted(PLACES.items(), key=lambda item: (-len(item[1]), item[0])):
        if not place.startswith(words + " "):
            continue
        rest = place[len(words) + 1:]
        if where == "war":
            return None, "war"
        if rest in areas:
            return rest, where
        found = [a for a in areas if rest.endswith(f" ({a})")]
        if found:
            return max(found, key=len), where
    return None, "unknown"


def map_data(world, v: dict[str, Any]) -> dict[str, Any]:
    """The figure's data from the view ``v`` (and the public geometry of the map)."""
    geo = geometry(world)
    names = {a["name"] for a in geo["areas"]} | {s["name"] for s in geo["seas"]}
    viewer = v["viewer"]
    counters = []
    for number, c in enumerate(v["counters"], 1):
        area, where = locate(c["place"], names)
        counters.append({"code": str(number), "knight": c["knight"], "player": c["player"],
                         "area": area, "where": where, "place": c["place"],
                         "mine": c["player"] == viewer, "arthurian": bool(c["arthurian"]),
                         "knave": bool(c.get("knave"))})
    reach: list[str] = []
    if v.get("neighbours") and not v.get("prison"):    # a prisoner goes nowhere next
        reach = sorted({a for way in ("land", "river", "ship")
                        for a in v["neighbours"].get(way, []) if a in names})
    return {**geo, "turn": v["turn"], "viewer": viewer, "mine": "journal" in v,
            "counters": counters,
            "merlin": v["merlin"] if v.get("merlin") in names else None,
            "castles": [[name, area] for name, area in v.get("castles", {}).items()
                        if area in names],
            "reach": reach}


def map_text(data: dict[str, Any]) -> str:
    """The text form: which counters stand in which area."""
    by_area: dict[str, list[str]] = {}
    off = []
    for c in data["counters"]:
        label = f"{c['code']} {c['knight']}" + (" (you)" if c["mine"] else "")
        if c["where"] not in ("area", "war", "unknown") and WHERE_WORDS.get(c["where"]):
            label += f" ({WHERE_WORDS[c['where']]})"
        if c["area"] is None:
            off.append(label + (" (at a foreign war)" if c["where"] == "war" else ""))
        else:
            by_area.setdefault(c["area"], []).append(label)
    if data["merlin"]:
        by_area.setdefault(data["merlin"], []).append("the Merlin/Morgan counter")
    lines = ["Counters on the map, area by area (numbered as in the figure):"]
    lines += [f"  {area}: " + ", ".join(labels) for area, labels in by_area.items()]
    if off:
        lines.append("  off the map: " + ", ".join(off))
    if data["reach"]:
        lines.append("Outlined: where your knight can go next (" + ", ".join(data["reach"])
                     + ").")
    return "\n".join(lines)


# ------------------------------------------------------------------------------ the layout

def _tokens(data: dict[str, Any]) -> list[dict[str, Any]]:
    """Every counter to draw with its centre (poster mm): the knights' counters and the
    Merlin/Morgan counter, in a row along the top edge of their area (two rows past four); in
    the close-up (``lift``) in a row just above it, clear of the area's name."""
    up = RADIUS + 2.0 if data.get("lift") else RADIUS * 0.45
    where = {a["name"]: (a["x"], a["y"] + a["h"] / 2 + up) for a in data["areas"]}
    for sea in data["seas"]:
        path = sea["path"]
        where[sea["name"]] = tuple(path[len(path) // 2])
    by_area: dict[str, list[dict[str, Any]]] = {}
    for c in data["counters"]:
        if c["area"] in where:
            by_area.setdefault(c["area"], []).append(dict(c, merlin=False))
    if data["merlin"] in where:
        by_area.setdefault(data["merlin"], []).append(
            {"code": "M", "knight": "Merlin/Morgan", "merlin": True, "mine": False,
             "arthurian": False, "knave": False, "area": data["merlin"], "where": "area"})
    out = []
    step = RADIUS * 2 + 1.0
    for area, items in by_area.items():
        x, y = where[area]
        per_row = 4 if len(items) > 4 else len(items)
        for k, item in enumerate(items):
            row, col = divmod(k, per_row)
            in_row = min(per_row, len(items) - row * per_row)
            item["cx"] = round(x + (col - (in_row - 1) / 2) * step, 1)
            item["cy"] = round(y + row * step, 1)        # a second row above the first
            out.append(item)
    return out


def _colours(token: dict[str, Any]) -> tuple[str, str]:
    """Fill and text colour of a counter."""
    if token["merlin"]:
        return MERLIN_FILL, "#ffffff"
    if token["knave"]:
        return KNAVE_FILL, "#ffffff"
    if token["arthurian"]:
        return ARTHURIAN_FILL, "#ffffff"
    return KNIGHT_FILL, INK


def _short(text: str, most: int = NAME_CHARS) -> str:
    return text if len(text) <= most else text[: most - 1].rstrip() + "\u2026"


def _legend(data: dict[str, Any]) -> list[dict[str, Any]]:
    """The legend's lines: a sample (counter, outline, castle) and its words."""
    lines = []
    for c in data["counters"]:
        where = c["place"] if c["area"] else "off the map" if c["where"] == "war" else "?"
        lines.append({"sample": "counter", "token": dict(c, merlin=False),
                      "text": _short(c["knight"]) + (" (you)" if c["mine"] else "")
                      + ": " + _short(where, PLACE_CHARS)})
    lines.append({"sample": "counter", "text": "Merlin/Morgan" + (
        f": {data['merlin']}" if data["merlin"] else ": not on the map"),
        "token": {"code": "M", "merlin": True, "mine": False, "knave": False,
                  "arthurian": False}})
    lines.append({"sample": "key", "text": "white: a knight; blue: Arthurian; black: a Knave"})
    if any(c["mine"] for c in data["counters"]):
        lines.append({"sample": "key", "text": "gold ring: your knight"})
    if data["reach"]:
        lines.append({"sample": "reach", "text": "where you can go next"})
    if data["castles"]:
        lines.append({"sample": "castle", "text": "a castle placed on the map"})
    return lines


def _legend_rows(data: dict[str, Any]) -> tuple[float, float, list[tuple[float, dict]]]:
    """The legend's text size, height and lines, each with how far below the legend's top edge
    its baseline lies (a line with a sample is as high as a counter with its ring)."""
    size = LEGEND_PT * PT_MM
    down = size * 1.6                     # the heading's baseline
    rows = []
    for line in _legend(data):
        down += size * 1.6 if line["sample"] == "key" else RADIUS * 2 + 2.6
        rows.append((down, line))
    return size, down + size * 1.2, rows


def _castle_marks(data: dict[str, Any]) -> list[tuple[float, float, list[str]]]:
    """A small tower at the top-left corner of each area with castles placed in it."""
    areas = {a["name"]: a for a in data["areas"]}
    seas = {s["name"]: s for s in data["seas"]}
    by_area: dict[str, list[str]] = {}
    for name, area in data["castles"]:
        by_area.setdefault(area, []).append(name)
    out = []
    for area, names in by_area.items():
        if area in areas:
            a = areas[area]
            out.append((a["x"] - a["w"] / 2, a["y"] + a["h"] / 2, names))
        elif area in seas:
            x, y = seas[area]["path"][0]
            out.append((x, y, names))
    return out


def _sea_label(sea: dict[str, Any]):
    """Where a sea's name stands: the middle of its course on the whole map; in the close-up
    the point of its course nearest the window's centre ("at"; None: not in the window)."""
    if "at" in sea:
        return sea["at"]
    return sea["path"][len(sea["path"]) // 2]


def _checked(colour: str) -> str:
    return colour if re.fullmatch(r"#[0-9a-fA-F]{6}", str(colour or "")) else "#777777"


# --------------------------------------------------------------------------------- the PDF

FONTS = ("CompanionSans", "CompanionSans-Bold")
"""The fonts the figure draws with (registered before a report's processes fork); the
report's own (no third font: an embedded font costs a PDF some 20 kB)."""


def map_flowable(data: dict[str, Any], width: float):
    """A platypus flowable: the whole map, as wide as the text (or as high as a page allows),
    with the counters and a legend in the poster's legend corner. Plain vector shapes: one
    path per kind of link, a rectangle and a name per area."""
    from reportlab.lib.units import mm
    from reportlab.platypus import Flowable

    from companion.render.fonts import SANS, SANS_BOLD, register_fonts
    from companion.render.printkit.colours import rgb

    register_fonts(SANS, SANS_BOLD)
    map_w, map_h = data["size"]
    scale = min(width / map_w, MAX_HEIGHT_MM * mm / map_h)

    def colour(value: str):
        return rgb(_checked(value))

    class MapFigure(Flowable):
        def wrap(self, avail_width, avail_height):
            return width, map_h * scale

        def draw(self):
            c = self.canv
            c.saveState()
            c.translate((width - map_w * scale) / 2, 0)
            c.scale(scale, scale)
            _draw(c, data, colour, SANS, SANS_BOLD)
            c.restoreState()

    return MapFigure()


_recorded: dict[tuple[int, str], tuple[Any, list[str]]] = {}
GEOMETRY_KEYS = ("size", "areas", "seas", "links", "boxes", "style")


def _geometry_of(data) -> tuple:
    """The geometry's own objects (kept, so that their ids stay theirs)."""
    return tuple(data[k] for k in GEOMETRY_KEYS)


def _same_geometry(kept: tuple, data) -> bool:
    """Whether ``data`` holds the very geometry objects a drawing was made from (the geometry
    of a process is one object, shared by every report: see :func:`geometry`)."""
    return all(a is data[k] for a, k in zip(kept, GEOMETRY_KEYS))


def _replay(c, data, part: str, draw) -> None:
    """Draw a part of the map that is the same in every report (the seas and links, the areas'
    shapes) from the page operators recorded the first time: the shapes and colours only, no
    text and no resources, so they fit any document. Between ``q`` and ``Q``: the canvas's
    own state is left as it was."""
    key = (id(data["areas"]), part)
    held = _recorded.get(key)
    if held is None or not _same_geometry(held[0], data):
        from reportlab.pdfgen.canvas import Canvas

        scratch = Canvas(None, invariant=1)
        mark = len(scratch._code)
        draw(scratch)
        held = (_geometry_of(data), list(scratch._code[mark:]))
        if len(_recorded) >= 16:           # copies of the geometry (a document read back)
            _recorded.clear()
        _recorded[key] = held
    c.saveState()
    c._code.extend(held[1])
    c.restoreState()


def _draw(c, data, colour, sans, bold) -> None:
    _draw_map(c, data, colour, bold, replay=True)
    _legend_pdf(c, data, colour, sans, bold)


def _layer(c, data, part: str, draw, replay: bool) -> None:
    """One layer of the map (``part``: 'ground' or 'areas'): replayed from the operators
    recorded once per geometry, or drawn afresh in a state of its own."""
    if replay:
        _replay(c, data, part, draw)
    else:
        c.saveState()
        draw(c)
        c.restoreState()


def _draw_map(c, data, colour, bold, replay: bool) -> None:
    """The map without its legend; ``replay``: the ground and the areas from the operators
    recorded once per geometry (the whole map; the close-up's parts differ by report)."""
    reach = set(data["reach"])
    _layer(c, data, "ground", lambda pen: _draw_ground(pen, data, colour), replay)
    for a in data["areas"]:                 # the next steps: an orange ring under the area
        if a["name"] in reach:
            x0, y0 = a["x"] - a["w"] / 2, a["y"] - a["h"] / 2
            c.setFillColorRGB(*colour(REACH))
            if a["shape"] == "pill":
                c.roundRect(x0 - 1.6, y0 - 1.6, a["w"] + 3.2, a["h"] + 3.2, a["h"] / 2 + 1.6,
                            stroke=0, fill=1)
            else:
                c.rect(x0 - 1.6, y0 - 1.6, a["w"] + 3.2, a["h"] + 3.2, stroke=0, fill=1)
    _layer(c, data, "areas", lambda pen: _draw_areas(pen, data, colour), replay)
    _draw_names(c, data, colour, bold)
    for sea in data["seas"]:
        if sea["name"] in reach:
            p = c.beginPath()
            p.moveTo(*sea["path"][0])
            for point in sea["path"][1:]:
                p.lineTo(*point)
            c.setStrokeColorRGB(*colour(REACH))
            c.setLineWidth(1.6)
            c.setDash([4, 3], 0)
            c.drawPath(p, stroke=1, fill=0)
            c.setDash([], 0)
    for x, y, _names in _castle_marks(data):
        _castle_pdf(c, x, y, colour)
    for token in _tokens(data):
        _counter_pdf(c, token, token["cx"], token["cy"], colour, bold)


def _draw_ground(c, data, colour) -> None:
    """The paper, the seas, the links and the Faerie box."""
    map_w, map_h = data["size"]
    st = data["style"]
    c.setFillColorRGB(*colour(st["paper"]))
    c.setStrokeColorRGB(*colour("#6e6e6e"))
    c.setLineWidth(0.8)
    c.rect(0, 0, map_w, map_h, stroke=1, fill=1)
    c.setLineCap(1)
    c.setLineJoin(1)
    c.setStrokeColorRGB(*colour(st["sea"]))
    for sea in data["seas"]:
        p = c.beginPath()
        p.moveTo(*sea["path"][0])
        for point in sea["path"][1:]:
            p.lineTo(*point)
        c.setLineWidth(sea["width"])
        c.drawPath(p, stroke=1, fill=0)
    styles = {"land": (st["land"], 0.55, None), "river": (st["river"], 0.65, None),
              "ship": (st["ship"], 0.5, (2.4, 1.6))}
    for kind, (ink, line, dash) in styles.items():
        if not data["links"][kind]:
            continue
        p = c.beginPath()
        for x0, y0, x1, y1 in data["links"][kind]:
            p.moveTo(x0, y0)
            p.lineTo(x1, y1)
        c.setStrokeColorRGB(*colour(ink))
        c.setLineWidth(line)
        c.setDash(list(dash) if dash else [], 0)
        c.drawPath(p, stroke=1, fill=0)
    c.setDash([], 0)
    faerie = data["boxes"].get("faerie box")
    if faerie:
        c.setStrokeColorRGB(*colour("#7b4aa5"))
        c.setLineWidth(0.5)
        c.setDash([2, 1.5], 0)
        c.roundRect(faerie[0], faerie[1], faerie[2] - faerie[0], faerie[3] - faerie[1], 3,
                    stroke=1, fill=0)
        c.setDash([], 0)


def _draw_areas(c, data, colour) -> None:
    """Every area's shape. Square corners but for the rivers' pills: a rounded corner is four
    curves, and 125 rounded shapes made a report 12 kB larger."""
    for a in data["areas"]:
        x0, y0 = a["x"] - a["w"] / 2, a["y"] - a["h"] / 2
        c.setFillColorRGB(*colour(a["fill"]))
        c.setStrokeColorRGB(*colour(a["stroke"]))
        c.setLineWidth(a["line"] * PT_MM * 1.4)
        if a["shape"] == "pill":
            c.roundRect(x0, y0, a["w"], a["h"], a["h"] / 2, stroke=1, fill=1)
        else:
            c.rect(x0, y0, a["w"], a["h"], stroke=1, fill=1)


def _draw_names(c, data, colour, bold) -> None:
    """The names of the seas and areas, in one text object."""
    from reportlab.pdfbase.pdfmetrics import stringWidth

    t = c.beginText()
    size = 10 * PT_MM
    t.setFont(bold, size)
    t.setFillColor(colour(data["style"]["sea_text"]))
    for sea in data["seas"]:
        if _sea_label(sea) is None:
            continue
        x, y = _sea_label(sea)
        name = sea["name"].upper()
        t.setTextOrigin(x - stringWidth(name, bold, size) / 2, y - 1.3)
        t.textOut(name)
    for a in data["areas"]:
        if a["pt"] * PT_MM != size:
            size = a["pt"] * PT_MM
            t.setFont(bold, size)
        t.setFillColor(colour(a["ink"]))
        lines = a["lines"]
        top = a["y"] + (len(lines) * size * 0.74 + (len(lines) - 1) * 0.8) / 2
        for k, line in enumerate(lines):
            t.setTextOrigin(a["x"] - stringWidth(line, bold, size) / 2,
                            top - size * 0.74 - k * (size * 0.74 + 0.8))
            t.textOut(line)
    c.drawText(t)


def _castle_pdf(c, x: float, y: float, colour) -> None:
    c.setFillColorRGB(*colour(CASTLE_FILL))
    c.setStrokeColorRGB(1, 1, 1)
    c.setLineWidth(0.4)
    p = c.beginPath()
    p.moveTo(x - 2.4, y - 2.4)
    for px, py in ((2.4, -2.4), (2.4, 2.6), (1.2, 2.6), (1.2, 1.6), (-1.2, 1.6), (-1.2, 2.6),
                   (-2.4, 2.6)):
        p.lineTo(x + px, y + py)
    p.close()
    c.drawPath(p, stroke=1, fill=1)


def _counter_pdf(c, token, x: float, y: float, colour, bold) -> None:
    fill, ink = _colours(token)
    if token["mine"]:
        c.setFillColorRGB(*colour(GOLD))
        c.circle(x, y, RADIUS + 1.8, stroke=0, fill=1)
    c.setFillColorRGB(*colour(fill))
    c.setStrokeColorRGB(*colour(INK))
    c.setLineWidth(0.45)
    if token["merlin"]:
        p = c.beginPath()
        p.moveTo(x, y + RADIUS * 1.15)
        p.lineTo(x + RADIUS * 1.15, y)
        p.lineTo(x, y - RADIUS * 1.15)
        p.lineTo(x - RADIUS * 1.15, y)
        p.close()
        c.drawPath(p, stroke=1, fill=1)
    else:
        c.circle(x, y, RADIUS, stroke=1, fill=1)
    c.setFillColorRGB(*colour(ink))
    size = RADIUS * (1.15 if len(token["code"]) < 2 else 0.9)
    c.setFont(bold, size)
    c.drawCentredString(x, y - size * 0.36, token["code"])


def _legend_pdf(c, data, colour, sans, bold) -> None:
    from reportlab.pdfbase.pdfmetrics import stringWidth

    x0, y0, x1, y1 = data["boxes"].get("legend", [8.0, 8.0, 136.0, 194.0])
    size, height, rows = _legend_rows(data)
    top = y0 + height
    c.setFillColorRGB(*colour(PAPER))
    c.setStrokeColorRGB(*colour("#6e6e6e"))
    c.setLineWidth(0.5)
    c.rect(x0, y0, x1 - x0, height, stroke=1, fill=1)
    c.setFillColorRGB(*colour(INK))
    c.setFont(bold, size)
    c.drawString(x0 + 3, top - size * 1.6, f"Counters, game turn {data['turn']}")
    for down, line in rows:
        y = top - down
        cy = y + size * 0.35
        if line["sample"] == "counter":
            _counter_pdf(c, line["token"], x0 + 3 + RADIUS, cy, colour, bold)
        elif line["sample"] == "reach":
            c.setFillColorRGB(*colour(REACH))
            c.roundRect(x0 + 2, cy - 3.2, RADIUS * 2 + 2, 6.4, 1.6, stroke=0, fill=1)
            c.setFillColorRGB(*colour(PAPER))
            c.rect(x0 + 3.4, cy - 1.8, RADIUS * 2 - 0.8, 3.6, stroke=0, fill=1)
        elif line["sample"] == "castle":
            _castle_pdf(c, x0 + 3 + RADIUS, cy, colour)
        c.setFillColorRGB(*colour(INK))
        room = x1 - x0 - 8 - RADIUS * 2
        wide = stringWidth(line["text"], sans, size)
        c.setFont(sans, size if wide <= room else size * room / wide)
        c.drawString(x0 + 6 + RADIUS * 2, y, line["text"])


# --------------------------------------------------------------------------------- the SVG

def _f(value: float) -> str:
    """A number for SVG: one decimal, none when it is whole."""
    text = f"{value:.1f}"
    return text[:-2] if text.endswith(".0") else text


_svg_parts: dict[tuple[int, str], tuple[Any, str]] = {}


def _svg_part(data, part: str, build) -> str:
    """A part of the SVG that is the same in every report (the ground, the areas), built once
    per geometry."""
    key = (id(data["areas"]), part)
    held = _svg_parts.get(key)
    if held is None or not _same_geometry(held[0], data):
        held = (_geometry_of(data), build(data))
        if len(_svg_parts) >= 16:
            _svg_parts.clear()
        _svg_parts[key] = held
    return held[1]


def _svg_ground(data) -> str:
    """The paper, the seas with their names, the links and the Faerie box."""
    from html import escape

    f = _f
    map_w, map_h = data["size"]

    def Y(y: float) -> str:
        return f(map_h - y)

    st = {key: _checked(value) for key, value in data["style"].items()}
    out = [f'<rect x="0" y="0" width="{f(map_w)}" height="{f(map_h)}" fill="{st["paper"]}" '
           f'stroke="#6e6e6e" stroke-width="0.8"/>',
           f'<g fill="none" stroke="{st["sea"]}" stroke-linecap="round" '
           f'stroke-linejoin="round">']
    for sea in data["seas"]:
        points = " ".join(f"{f(x)},{Y(y)}" for x, y in sea["path"])
        out.append(f'<polyline points="{points}" stroke-width="{f(sea["width"])}"/>')
    out.append("</g>")
    out.append(f'<g fill="{st["sea_text"]}" font-size="{f(10 * PT_MM)}" font-weight="bold" '
               f'text-anchor="middle">')
    for sea in data["seas"]:
        if _sea_label(sea) is None:
            continue
        x, y = _sea_label(sea)
        out.append(f'<text x="{f(x)}" y="{Y(y - 1.3)}">{escape(sea["name"].upper())}</text>')
    out.append("</g>")
    styles = {"land": (st["land"], "0.55", ""), "river": (st["river"], "0.65", ""),
              "ship": (st["ship"], "0.5", ' stroke-dasharray="2.4 1.6"')}
    for kind, (ink, line, dash) in styles.items():
        if data["links"][kind]:
            d = "".join(f"M{f(x0)} {Y(y0)}L{f(x1)} {Y(y1)}"
                        for x0, y0, x1, y1 in data["links"][kind])
            out.append(f'<path d="{d}" fill="none" stroke="{ink}" stroke-width="{line}"'
                       f' stroke-linecap="round"{dash}><title>{kind} links</title></path>')
    faerie = data["boxes"].get("faerie box")
    if faerie:
        out.append(f'<rect x="{f(faerie[0])}" y="{Y(faerie[3])}" '
                   f'width="{f(faerie[2] - faerie[0])}" height="{f(faerie[3] - faerie[1])}" '
                   f'rx="3" fill="none" stroke="#7b4aa5" stroke-width="0.5" '
                   f'stroke-dasharray="2 1.5"/>')
    return "".join(out)


def _radius(a: dict[str, Any]) -> float:
    return a["h"] / 2 if a["shape"] == "pill" else 1.6 if a["shape"] == "badge" else 2.4


def _svg_areas(data) -> str:
    """Every area's shape and name."""
    from html import escape

    f = _f
    map_h = data["size"][1]
    out = []
    for a in data["areas"]:
        x0, y1 = a["x"] - a["w"] / 2, a["y"] + a["h"] / 2
        out.append(f'<rect x="{f(x0)}" y="{f(map_h - y1)}" width="{f(a["w"])}" '
                   f'height="{f(a["h"])}" rx="{f(_radius(a))}" fill="{_checked(a["fill"])}" '
                   f'stroke="{_checked(a["stroke"])}" stroke-width="{f(a["line"] * PT_MM * 1.4)}"'
                   f'><title>{escape(a["name"])}</title></rect>')
        size = a["pt"] * PT_MM
        lines = a["lines"]
        top = a["y"] + (len(lines) * size * 0.74 + (len(lines) - 1) * 0.8) / 2
        for k, line in enumerate(lines):
            y = top - size * 0.74 - k * (size * 0.74 + 0.8)
            out.append(f'<text x="{f(a["x"])}" y="{f(map_h - y)}" font-size="{f(size)}" '
                       f'font-weight="bold" text-anchor="middle" '
                       f'fill="{_checked(a["ink"])}">{escape(line)}</text>')
    return "".join(out)


def map_svg(data: dict[str, Any]) -> str:
    """The map as SVG for the web view (the twin of :func:`map_flowable`): a viewBox in poster
    millimetres so it scales to any screen, presentation attributes only (no style attribute,
    no script), every text escaped here, colours checked as #rrggbb. The ground and the areas
    are the same in every report and built once."""
    from html import escape

    f = _f
    map_w, map_h = data["size"]
    mine = [c for c in data["counters"] if c["mine"]]
    label = "Map of the Knights of Camelot with the knights' counters" + (
        f"; your knight {mine[0]['knight']} is ringed in gold" if mine else "")
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {f(map_w)} {f(map_h)}" '
           f'role="img" aria-label="{escape(label)}" class="koc-map" '
           f'font-family="DejaVu Sans, sans-serif">',
           f'<title>{escape(label)}</title>', *_svg_map(data, cached=True),
           _legend_svg(data, f, map_h, escape), "</svg>"]
    return "".join(out)


def _svg_map(data: dict[str, Any], cached: bool) -> list[str]:
    """The map's shapes, names, outlines and counters (no legend), in poster millimetres with
    y downward; ``cached``: the ground and the areas built once per geometry (the whole map)."""
    from html import escape

    f = _f
    map_h = data["size"][1]

    def X(x: float) -> str:
        return f(x)

    def Y(y: float) -> str:
        return f(map_h - y)

    out = [_svg_part(data, "ground", _svg_ground) if cached else _svg_ground(data)]
    reach = set(data["reach"])
    for a in data["areas"]:                 # the next steps: an orange ring under the area
        if a["name"] in reach:
            x0, y1 = a["x"] - a["w"] / 2, a["y"] + a["h"] / 2
            out.append(f'<rect x="{X(x0 - 1.6)}" y="{Y(y1 + 1.6)}" width="{f(a["w"] + 3.2)}" '
                       f'height="{f(a["h"] + 3.2)}" rx="{f(_radius(a) + 1.6)}" '
                       f'fill="{REACH}"/>')
    out.append(_svg_part(data, "areas", _svg_areas) if cached else _svg_areas(data))
    for sea in data["seas"]:
        if sea["name"] in reach:
            points = " ".join(f"{X(x)},{Y(y)}" for x, y in sea["path"])
            out.append(f'<polyline points="{points}" fill="none" stroke="{REACH}" '
                       f'stroke-width="1.6" stroke-dasharray="4 3"/>')
    for x, y, names in _castle_marks(data):
        out.append(_castle_svg(X(x), Y(y), "; ".join(names), escape))
    for token in _tokens(data):
        out.append(_counter_svg(token, X(token["cx"]), Y(token["cy"]), escape))
    return out


def _castle_svg(x: str, y: str, names: str, escape) -> str:
    return (f'<g transform="translate({x} {y})"><path d="M-2.4 2.4H2.4V-2.6H1.2V-1.6H-1.2'
            f'V-2.6H-2.4Z" fill="{CASTLE_FILL}" stroke="#ffffff" stroke-width="0.4"/>'
            f'<title>{escape(names)}</title></g>')


def _counter_svg(token, x: str, y: str, escape) -> str:
    fill, ink = _colours(token)
    if token["merlin"]:
        title = "the Merlin/Morgan counter"
    else:
        title = f"{token['code']}: {token['knight']} ({token['player']})" + (
            ", your knight" if token["mine"] else "") + f", {token['place']}"
    parts = [f'<g transform="translate({x} {y})">']
    if token["mine"]:
        parts.append(f'<circle r="{RADIUS + 1.8:.1f}" fill="{GOLD}"/>')
    if token["merlin"]:
        r = RADIUS * 1.15
        parts.append(f'<path d="M0 {-r:.2f}L{r:.2f} 0L0 {r:.2f}L{-r:.2f} 0Z" fill="{fill}" '
                     f'stroke="{INK}" stroke-width="0.45"/>')
    else:
        parts.append(f'<circle r="{RADIUS:.1f}" fill="{fill}" stroke="{INK}" '
                     f'stroke-width="0.45"/>')
    size = RADIUS * (1.15 if len(token["code"]) < 2 else 0.9)
    parts.append(f'<text y="{size * 0.36:.2f}" font-size="{size:.2f}" font-weight="bold" '
                 f'text-anchor="middle" fill="{ink}">{escape(token["code"])}</text>'
                 f'<title>{escape(title)}</title></g>')
    return "".join(parts)


def _legend_svg(data, f, map_h, escape) -> str:
    x0, y0, x1, y1 = data["boxes"].get("legend", [8.0, 8.0, 136.0, 194.0])
    size, height, rows = _legend_rows(data)
    top = map_h - (y0 + height)          # SVG y of the legend's top edge
    out = [f'<g class="legend"><rect x="{f(x0)}" y="{f(top)}" width="{f(x1 - x0)}" '
           f'height="{f(height)}" fill="{PAPER}" stroke="#6e6e6e" stroke-width="0.5"/>',
           f'<text x="{f(x0 + 3)}" y="{f(top + size * 1.6)}" font-size="{f(size)}" '
           f'font-weight="bold" fill="{INK}">'
           f'{escape("Counters, game turn " + str(data["turn"]))}</text>']
    for down, line in rows:
        y = top + down
        cy = y - size * 0.35
        if line["sample"] == "counter":
            token = dict(line["token"], player=line["token"].get("player", ""),
                         knight=line["token"].get("knight", "Merlin/Morgan"),
                         place=line["token"].get("place", ""))
            out.append(_counter_svg(token, f(x0 + 3 + RADIUS), f(cy), escape))
        elif line["sample"] == "reach":
            out.append(f'<rect x="{f(x0 + 2)}" y="{f(cy - 3.2)}" width="{f(RADIUS * 2 + 2)}" '
                       f'height="6.4" rx="1.6" fill="{REACH}"/><rect x="{f(x0 + 3.4)}" '
                       f'y="{f(cy - 1.8)}" width="{f(RADIUS * 2 - 0.8)}" height="3.6" '
                       f'fill="{PAPER}"/>')
        elif line["sample"] == "castle":
            out.append(_castle_svg(f(x0 + 3 + RADIUS), f(cy), "a castle placed on the map",
                                   escape))
        room = x1 - x0 - 8 - RADIUS * 2
        fit = (f' textLength="{f(room)}" lengthAdjust="spacingAndGlyphs"'
               if len(line["text"]) * size * 0.58 > room else "")    # DejaVu Sans: ~0.55 em
        out.append(f'<text x="{f(x0 + 6 + RADIUS * 2)}" y="{f(y)}" font-size="{f(size)}" '
                   f'fill="{INK}"{fit}>{escape(line["text"])}</text>')
    out.append("</g>")
    return "".join(out)


# ---------------------------------------------------------------------------- the close-up

CLOSE_W = 96.0            # the close-up's window on the poster (mm). On a phone the figure is
CLOSE_H = 96.0            # 330-370 CSS px wide: the smallest names (7.5 pt) come out at 9-10 px
MARK_MM = 9 * PT_MM       # the text of a label at the window's edge (a neighbour beyond it)
MARK_H = MARK_MM * 1.6    # such a label's height
KEY_MM = 3.2              # the text of the close-up's key below the window
KEY_X = 13.0              # where the key's text starts (its samples stand left of it)
EDGE = 1.5                # the labels keep this far inside the frame, and this far apart
HOME_MARGIN = MARK_H + 2 * EDGE    # the knight's area keeps clear of the labels at the edges
STEP = 2.0                # the window is tried at positions this far apart
ARROW = ((-1.6, -0.32), (0.15, -0.32), (0.15, -1.05), (1.65, 0.0), (0.15, 1.05),
         (0.15, 0.32), (-1.6, 0.32))
"""An arrow pointing east (mm, y upward), turned toward the neighbour beyond the edge."""
COMPASS = ("east", "north-east", "north", "north-west", "west", "south-west", "south",
           "south-east")


def _closest_on_path(p, path) -> tuple[float, float]:
    """The point of a sea's course nearest to ``p``."""
    best, best_d = (path[0][0], path[0][1]), None
    for a, b in zip(path, path[1:]):
        dx, dy = b[0] - a[0], b[1] - a[1]
        d2 = dx * dx + dy * dy
        t = 0.0 if d2 == 0 else max(0.0, min(1.0, ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy)
                                             / d2))
        q = (a[0] + t * dx, a[1] + t * dy)
        d = (q[0] - p[0]) ** 2 + (q[1] - p[1]) ** 2
        if best_d is None or d < best_d - 1e-9:
            best, best_d = q, d
    return best


def _within(box, window, inset: float) -> bool:
    return (box[0] >= window[0] + inset and box[1] >= window[1] + inset
            and box[2] <= window[2] - inset and box[3] <= window[3] - inset)


def _overlaps(box, window) -> bool:
    return box[0] < window[2] and box[2] > window[0] and box[1] < window[3] and box[3] > window[1]


def _union(a, b):
    return b if a is None else [min(a[0], b[0]), min(a[1], b[1]), max(a[2], b[2]),
                                max(a[3], b[3])]


def _starts(need_lo: float, need_hi: float, size: float, limit: float) -> list[float]:
    """Where a window ``size`` long may start so that it holds [need_lo, need_hi] with the
    margin and stays on the poster [0, limit]; the nearest such start when none does."""
    lo = max(0.0, need_hi + HOME_MARGIN - size)
    hi = min(limit - size, need_lo - HOME_MARGIN)
    if lo > hi:
        middle = (need_lo + need_hi - size) / 2
        return [round(min(max(middle, 0.0), limit - size), 1)]
    count = int((hi - lo) / STEP)
    return sorted({round(lo + k * STEP, 1) for k in range(count + 1)} | {round(hi, 1)})


def _compass(dx: float, dy: float) -> str:
    return COMPASS[round(math.degrees(math.atan2(dy, dx)) / 45.0) % 8]


def _pack(items: list[tuple[float, float, str]], lo: float, hi: float
          ) -> tuple[dict[str, float], list[str]]:
    """Labels along one edge: ``items`` (ideal centre, length, name) placed in order between
    ``lo`` and ``hi``, EDGE apart, each as near its ideal place as the others allow; the
    widest left out while they do not fit (returned apart, by name)."""
    items = sorted(items, key=lambda item: (item[0], item[2]))
    left_out: list[str] = []
    while items and sum(i[1] for i in items) + EDGE * (len(items) - 1) > hi - lo:
        widest = max(items, key=lambda item: (item[1], item[2]))
        items.remove(widest)
        left_out.append(widest[2])
    if not items:
        return {}, sorted(left_out)
    pos = [min(max(centre - size / 2, lo), hi - size) for centre, size, _ in items]
    for k in range(1, len(items)):
        pos[k] = max(pos[k], pos[k - 1] + items[k - 1][1] + EDGE)
    if pos[-1] + items[-1][1] > hi:
        pos[-1] = hi - items[-1][1]
    for k in range(len(items) - 2, -1, -1):
        pos[k] = min(pos[k], pos[k + 1] - EDGE - items[k][1])
    return {name: round(p, 1) for p, (_, _, name) in zip(pos, items)}, sorted(left_out)


def _pack_around(items: list[tuple[float, float, str]], lo: float, hi: float,
                 gap_lo: float, gap_hi: float) -> tuple[dict[str, float], list[str]]:
    """:func:`_pack` on both sides of a gap (``gap_lo`` to ``gap_hi``: the knight's own
    area): each label on the side of its ideal place, those without room there on the
    other."""
    middle = (gap_lo + gap_hi) / 2
    below = [item for item in items if item[0] < middle]
    above = [item for item in items if item[0] >= middle]
    got_below, lost_below = _pack(below, lo, gap_lo) if gap_lo > lo else ({}, [i[2] for i in below])
    got_above, lost_above = _pack(above, gap_hi, hi) if hi > gap_hi else ({}, [i[2] for i in above])
    if lost_below and hi > gap_hi:
        got_above, lost = _pack(above + [i for i in below if i[2] in lost_below], gap_hi, hi)
        lost_below, lost_above = [], lost
    elif lost_above and gap_lo > lo:
        got_below, lost = _pack(below + [i for i in above if i[2] in lost_above], lo, gap_lo)
        lost_above, lost_below = [], lost
    return {**got_below, **got_above}, sorted(lost_below + lost_above)


def closeup_data(data: dict[str, Any]) -> dict[str, Any] | None:
    """The close-up of the map around the viewer's own knight, from the whole map's data
    (``map_data``: the viewer's view and the public geometry, nothing else): a window of
    CLOSE_W x CLOSE_H poster millimetres holding his area, placed (in steps of STEP) to hold as
    many of the areas he can reach next as it can, nearest his area among equals. What lies in
    the window is drawn as on the whole map; each area he can reach beyond it gets a label at
    the window's edge where the way to it leaves the window. None for a report without an own
    knight on the map (the public's, the moderator's, a knight away at a foreign war)."""
    own = next((c for c in data["counters"] if c["mine"]), None)
    if not data.get("mine") or own is None or own["area"] is None:
        return None
    map_w, map_h = data["size"]
    areas = {a["name"]: a for a in data["areas"]}
    seas = {s["name"]: s for s in data["seas"]}
    home = own["area"]
    tokens = _tokens({**data, "lift": True})
    extent: dict[str, list[float]] = {
        name: [a["x"] - a["w"] / 2, a["y"] - a["h"] / 2, a["x"] + a["w"] / 2, a["y"] + a["h"] / 2]
        for name, a in areas.items()}
    for t in tokens:                       # an area's counters stand above its top edge
        r = RADIUS * 1.15 + (1.8 if t["mine"] else 0.0)
        extent[t["area"]] = _union(extent.get(t["area"]),
                                   [t["cx"] - r, t["cy"] - r, t["cx"] + r, t["cy"] + r])
    mine = next(t for t in tokens if t["mine"])
    origin = (areas[home]["x"], areas[home]["y"]) if home in areas else (mine["cx"], mine["cy"])
    near = [n for n in data["reach"] if n != home]

    def holds(name: str, window) -> bool:
        if name in areas:
            return _within(extent[name], window, 0.5)
        cx, cy = (window[0] + window[2]) / 2, (window[1] + window[3]) / 2
        x, y = _closest_on_path((cx, cy), seas[name]["path"])
        return _within([x, y, x, y], window, 8.0)

    hx0, hy0, hx1, hy1 = extent[home]
    xs = _starts(hx0, hx1, CLOSE_W, map_w)
    ys = _starts(hy0, hy1, CLOSE_H, map_h)
    # which of the areas next to his each start holds, as bits (the window's x and y apart)
    land = [n for n in near if n in areas]
    x_bits = {x0: sum(1 << k for k, n in enumerate(land) if extent[n][0] >= x0 + 0.5
                      and extent[n][2] <= round(x0 + CLOSE_W, 1) - 0.5) for x0 in xs}
    y_bits = {y0: sum(1 << k for k, n in enumerate(land) if extent[n][1] >= y0 + 0.5
                      and extent[n][3] <= round(y0 + CLOSE_H, 1) - 0.5) for y0 in ys}
    by_sea = [n for n in near if n not in areas]
    best = None
    for x0 in xs:
        for y0 in ys:
            held = bin(x_bits[x0] & y_bits[y0]).count("1")
            if by_sea:
                window = [x0, y0, round(x0 + CLOSE_W, 1), round(y0 + CLOSE_H, 1)]
                held += sum(holds(n, window) for n in by_sea)
            off = ((x0 + CLOSE_W / 2 - origin[0]) ** 2 + (y0 + CLOSE_H / 2 - origin[1]) ** 2)
            key = (-held, round(off, 3), x0, y0)
            if best is None or key < best:
                best = key
    assert best is not None
    x0, y0 = best[2], best[3]
    window = [x0, y0, round(x0 + CLOSE_W, 1), round(y0 + CLOSE_H, 1)]
    x1, y1 = window[2], window[3]
    centre = ((x0 + x1) / 2, (y0 + y1) / 2)

    inside = [n for n in near if holds(n, window)]
    beyond = [n for n in near if n not in inside]
    codes: dict[str, list[str]] = {}
    for c in data["counters"]:
        if c["area"]:
            codes.setdefault(c["area"], []).append(c["code"])
    if data["merlin"]:
        codes.setdefault(data["merlin"], []).append("M")

    # the labels of the areas beyond the window, at the edge the way to each leaves it by
    sides: dict[str, list[tuple[float, float, str]]] = {}
    marks: dict[str, dict[str, Any]] = {}
    for name in beyond:
        if name in areas:
            target = (areas[name]["x"], areas[name]["y"])
        else:
            target = _closest_on_path(origin, seas[name]["path"])
        dx, dy = target[0] - origin[0], target[1] - origin[1]
        sx = ((x1 if dx > 0 else x0) - origin[0]) / dx if dx else float("inf")
        sy = ((y1 if dy > 0 else y0) - origin[1]) / dy if dy else float("inf")
        side = ("right" if dx > 0 else "left") if sx < sy else ("top" if dy > 0 else "bottom")
        s = min(sx, sy)
        ex, ey = origin[0] + dx * s, origin[1] + dy * s
        text = name + (f" ({', '.join(codes[name])})" if codes.get(name) else "")
        width = round(MARK_H + (areas.get(name) or seas[name])["em"] * MARK_MM
                      + (len(text) - len(name)) * 0.7 * MARK_MM + 2.0, 1)
        marks[name] = {"name": name, "text": text, "side": side, "width": width,
                       "toward": _compass(dx, dy),
                       "angle": round(math.degrees(math.atan2(dy, dx)), 1)}
        along = ex if side in ("top", "bottom") else ey
        sides.setdefault(side, []).append((along, width if side in ("top", "bottom")
                                           else MARK_H, name))
    left_out: list[str] = []
    placed: dict[str, float] = {}
    for side in ("top", "bottom"):
        got, lost = _pack(sides.get(side, []), x0 + EDGE, x1 - EDGE)
        placed.update(got)
        for name in lost:                  # no room on that edge: to the nearer side's end
            along = next(a for a, _, n in sides[side] if n == name)
            other = "left" if along < (x0 + x1) / 2 else "right"
            marks[name]["side"] = other
            sides.setdefault(other, []).append((y1 if side == "top" else y0, MARK_H, name))
    lo = y0 + EDGE + (MARK_H + EDGE if any(m["side"] == "bottom" and m["name"] in placed
                                           for m in marks.values()) else 0.0)
    hi = y1 - EDGE - (MARK_H + EDGE if any(m["side"] == "top" and m["name"] in placed
                                           for m in marks.values()) else 0.0)
    for side in ("left", "right"):        # labels that would cover his area go round it
        items = sides.get(side, [])
        reach_in = max((marks[n]["width"] for _, _, n in items), default=0.0) + EDGE * 2
        if (hx0 < x0 + reach_in) if side == "left" else (hx1 > x1 - reach_in):
            got, lost = _pack_around(items, lo, hi, hy0 - EDGE, hy1 + EDGE)
        else:
            got, lost = _pack(items, lo, hi)
        placed.update(got)
        left_out += lost
    edge_marks = []
    for name in beyond:
        if name not in placed:
            continue
        m = marks[name]
        at, w = placed[name], m["width"]
        box = {"top": [at, y1 - EDGE - MARK_H, at + w, y1 - EDGE],
               "bottom": [at, y0 + EDGE, at + w, y0 + EDGE + MARK_H],
               "left": [x0 + EDGE, at, x0 + EDGE + w, at + MARK_H],
               "right": [x1 - EDGE - w, at, x1 - EDGE, at + MARK_H]}[m["side"]]
        edge_marks.append(dict(m, box=[round(v, 1) for v in box]))

    shown = {a for a in areas if _overlaps(extent[a], window)}
    shown_seas = []
    for sea in data["seas"]:
        half = sea["width"] / 2
        px, py = [p[0] for p in sea["path"]], [p[1] for p in sea["path"]]
        if not _overlaps([min(px) - half, min(py) - half, max(px) + half, max(py) + half],
                         window):
            continue
        x, y = _closest_on_path(centre, sea["path"])
        half_name = sea["em"] * 1.2 * 10 * PT_MM / 2 + 1.0      # in capitals: wider
        if _within([x, y, x, y], window, 6.0) and half_name * 2 < x1 - x0:
            x = min(max(x, x0 + half_name), x1 - half_name)
            at = [round(x, 1), round(y, 1)]
        else:
            at = None
        if at is None and not any(_overlaps([min(a[0], b[0]) - half, min(a[1], b[1]) - half,
                                             max(a[0], b[0]) + half, max(a[1], b[1]) + half],
                                            window) for a, b in zip(sea["path"],
                                                                    sea["path"][1:])):
            continue
        shown_seas.append({**sea, "at": at})
    there = shown | {s["name"] for s in shown_seas} | set(placed)
    links = {kind: [seg for seg in segs if _overlaps(
        [min(seg[0], seg[2]), min(seg[1], seg[3]), max(seg[0], seg[2]), max(seg[1], seg[3])],
        window)] for kind, segs in data["links"].items()}
    boxes = {k: b for k, b in data["boxes"].items() if k == "faerie box" and _overlaps(b, window)}
    return {"size": data["size"], "style": data["style"], "turn": data["turn"],
            "viewer": data["viewer"], "mine": True, "lift": True, "home": home, "window": window,
            "areas": [a for a in data["areas"] if a["name"] in shown],
            "seas": shown_seas, "links": links, "boxes": boxes,
            "counters": [c for c in data["counters"] if c["area"] in there],
            "merlin": data["merlin"] if data["merlin"] in there else None,
            "castles": [pair for pair in data["castles"] if pair[1] in shown],
            "reach": list(data["reach"]), "inside": inside, "marks": edge_marks,
            "left_out": [n for n in beyond if n in set(left_out)]}


def closeup_text(data: dict[str, Any]) -> str:
    """The close-up's text form: which areas it shows (the counters are listed with the whole
    map, the ways out in "Around you")."""
    lines = [f"Close-up of the map around {data['home']}, where your knight is."]
    if data["inside"]:
        lines.append("  Next to it, in the close-up: " + ", ".join(data["inside"]) + ".")
    if data["marks"] or data["left_out"]:
        lines.append("  Next to it, beyond its edges: " + ", ".join(
            [f"{m['name']} ({m['toward']})" for m in data["marks"]] + data["left_out"]) + ".")
    return "\n".join(lines)


def _key_rows(data: dict[str, Any]) -> tuple[float, list[tuple[float, dict[str, Any]]]]:
    """The close-up's key below the window: its height and lines, each with how far below the
    key's top edge its (first) baseline lies."""
    size = KEY_MM
    down = size * 1.7
    rows: list[tuple[float, dict[str, Any]]] = [
        (down, {"sample": "heading", "text": f"Around {data['home']}, game turn {data['turn']}"})]
    down += size * 0.6
    for c in data["counters"]:
        down += size * 2.75
        rows.append((down - size * 1.1, {
            "sample": "counter", "token": dict(c, merlin=False),
            "text": _short(c["knight"]) + (" (you)" if c["mine"] else ""),
            "more": _short(c["place"], 40)}))
    if data["merlin"]:
        down += size * 2.75
        rows.append((down - size * 1.1, {
            "sample": "counter", "text": "Merlin/Morgan", "more": f"in {data['merlin']}",
            "token": {"code": "M", "merlin": True, "mine": False, "knave": False,
                      "arthurian": False, "knight": "Merlin/Morgan", "player": "",
                      "place": data["merlin"]}}))
    down += size * 2.2
    rows.append((down, {"sample": "reach", "text": "where you can go next"}))
    if data["marks"]:
        down += size * 2.2
        rows.append((down, {"sample": "mark", "text": "the way to it leaves the close-up"}))
    if data["left_out"]:
        words = ("also next to you: " + ", ".join(data["left_out"])).split(" ")
        line = ""
        for word in words:                  # DejaVu Sans: about 0.6 em a letter
            if line and len(line) + 1 + len(word) > int((CLOSE_W - 6) / (size * 0.62)):
                down += size * 1.5
                rows.append((down, {"sample": "text", "text": line}))
                line = word
            else:
                line = f"{line} {word}" if line else word
        down += size * 1.5
        rows.append((down, {"sample": "text", "text": line}))
    return down + size * 1.2, rows


def closeup_flowable(data: dict[str, Any], width: float):
    """A platypus flowable: the close-up at the poster's own size (narrower if the page is),
    the window above its key."""
    from reportlab.lib.units import mm
    from reportlab.platypus import Flowable

    from companion.render.fonts import SANS, SANS_BOLD, register_fonts
    from companion.render.printkit.colours import rgb

    register_fonts(SANS, SANS_BOLD)
    x0, y0, x1, y1 = data["window"]
    w, h = x1 - x0, y1 - y0
    key_h, rows = _key_rows(data)
    scale = min(mm, width / w)

    def colour(value: str):
        return rgb(_checked(value))

    class CloseUp(Flowable):
        def wrap(self, avail_width, avail_height):
            return width, (h + key_h) * scale

        def draw(self):
            c = self.canv
            c.saveState()
            c.translate((width - w * scale) / 2, 0)
            c.scale(scale, scale)
            c.saveState()
            clip = c.beginPath()
            clip.rect(0, key_h, w, h)
            c.clipPath(clip, stroke=0, fill=0)
            c.translate(-x0, key_h - y0)
            _draw_map(c, data, colour, SANS_BOLD, replay=False)
            c.restoreState()
            c.setStrokeColorRGB(*colour("#6e6e6e"))
            c.setLineWidth(0.5)
            c.rect(0, key_h, w, h, stroke=1, fill=0)
            c.saveState()
            c.translate(-x0, key_h - y0)
            for mark in data["marks"]:
                _mark_pdf(c, mark, colour, SANS_BOLD)
            c.restoreState()
            _key_pdf(c, rows, key_h, w, colour, SANS, SANS_BOLD)
            c.restoreState()

    return CloseUp()


def _mark_pdf(c, mark, colour, bold) -> None:
    bx0, by0, bx1, by1 = mark["box"]
    c.setFillColorRGB(*colour(PAPER))
    c.setStrokeColorRGB(*colour(REACH))
    c.setLineWidth(0.5)
    c.roundRect(bx0, by0, bx1 - bx0, by1 - by0, 1.0, stroke=1, fill=1)
    right = mark["side"] == "right"
    ax = bx1 - MARK_H / 2 if right else bx0 + MARK_H / 2
    ay = (by0 + by1) / 2
    c.saveState()
    c.translate(ax, ay)
    c.rotate(mark["angle"])
    c.setFillColorRGB(*colour(REACH))
    p = c.beginPath()
    p.moveTo(*ARROW[0])
    for point in ARROW[1:]:
        p.lineTo(*point)
    p.close()
    c.drawPath(p, stroke=0, fill=1)
    c.restoreState()
    c.setFillColorRGB(*colour(INK))
    c.setFont(bold, MARK_MM)
    x = bx0 + 1.0 if right else bx0 + MARK_H
    c.drawString(x, ay - MARK_MM * 0.36, mark["text"])


def _key_pdf(c, rows, key_h, w, colour, sans, bold) -> None:
    size = KEY_MM
    c.setFillColorRGB(*colour(PAPER))
    c.setStrokeColorRGB(*colour("#6e6e6e"))
    c.setLineWidth(0.5)
    c.rect(0, 0, w, key_h, stroke=1, fill=1)
    for down, line in rows:
        y = key_h - down
        x = KEY_X
        if line["sample"] == "heading":
            c.setFillColorRGB(*colour(INK))
            c.setFont(bold, size)
            c.drawString(3.0, y, line["text"])
            continue
        if line["sample"] == "counter":
            c.saveState()
            c.translate(6.5, y - size * 0.35)
            c.scale(0.62, 0.62)
            _counter_pdf(c, line["token"], 0, 0, colour, bold)
            c.restoreState()
            c.setFillColorRGB(*colour(INK))
            c.setFont(bold, size)
            c.drawString(x, y + size * 0.2, line["text"])
            c.setFont(sans, size)
            c.drawString(x, y - size * 1.05, line["more"])
            continue
        if line["sample"] == "reach":
            c.setFillColorRGB(*colour(REACH))
            c.roundRect(2.0, y - 1.9, 9.0, 4.6, 1.2, stroke=0, fill=1)
            c.setFillColorRGB(*colour(PAPER))
            c.rect(3.4, y - 0.5, 6.2, 1.8, stroke=0, fill=1)
        elif line["sample"] == "mark":
            c.setFillColorRGB(*colour(PAPER))
            c.setStrokeColorRGB(*colour(REACH))
            c.roundRect(2.0, y - 1.9, 9.0, 4.6, 1.0, stroke=1, fill=1)
            c.setFillColorRGB(*colour(REACH))
            p = c.beginPath()
            p.moveTo(6.5 + ARROW[0][0], y + 0.4 + ARROW[0][1])
            for ax, ay in ARROW[1:]:
                p.lineTo(6.5 + ax, y + 0.4 + ay)
            p.close()
            c.drawPath(p, stroke=0, fill=1)
        else:
            x = 3.0
        c.setFillColorRGB(*colour(INK))
        c.setFont(sans, size)
        c.drawString(x, y, line["text"])


def closeup_svg(data: dict[str, Any]) -> str:
    """The close-up as SVG (the twin of :func:`closeup_flowable`): its viewBox is the window
    in poster millimetres (y downward, as the whole map's), the key below it; what lies
    beyond the window is cut off by the viewBox above and beside it and covered by the key
    below it. Presentation attributes only, every text escaped here."""
    from html import escape

    f = _f
    map_h = data["size"][1]
    x0, y0, x1, y1 = data["window"]
    w, h = x1 - x0, y1 - y0
    key_h, rows = _key_rows(data)
    top = map_h - y1                       # the window's top edge, y downward
    label = (f"Close-up of the map around {data['home']}, where your knight is (ringed in "
             "gold), with the areas he can reach next outlined in orange")
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="{f(x0)} {f(top)} {f(w)} '
           f'{f(h + key_h)}" role="img" aria-label="{escape(label)}" class="koc-closeup" '
           f'font-family="DejaVu Sans, sans-serif">', f'<title>{escape(label)}</title>',
           *_svg_map(data, cached=False),
           f'<rect x="{f(x0)}" y="{f(top)}" width="{f(w)}" height="{f(h)}" fill="none" '
           f'stroke="#6e6e6e" stroke-width="0.5"/>']
    for mark in data["marks"]:
        out.append(_mark_svg(mark, map_h, escape))
    out.append(f'<g class="key" transform="translate({f(x0)} {f(top + h)})">')
    out.append(_key_svg(rows, key_h, w, escape))
    out.append("</g></svg>")
    return "".join(out)


def _mark_svg(mark, map_h: float, escape) -> str:
    f = _f
    bx0, by0, bx1, by1 = mark["box"]
    right = mark["side"] == "right"
    ax = bx1 - MARK_H / 2 if right else bx0 + MARK_H / 2
    ay = map_h - (by0 + by1) / 2
    x = bx0 + 1.0 if right else bx0 + MARK_H
    title = f"{mark['name']}: you can go there; it lies to the {mark['toward']}"
    return (f'<g class="edge"><rect x="{f(bx0)}" y="{f(map_h - by1)}" width="{f(bx1 - bx0)}" '
            f'height="{f(by1 - by0)}" rx="1" fill="{PAPER}" stroke="{REACH}" '
            f'stroke-width="0.5"/><path d="{_arrow_d()}" fill="{REACH}" '
            f'transform="translate({f(ax)} {f(ay)}) rotate({f(-mark["angle"])})"/>'
            f'<text x="{f(x)}" y="{f(ay + MARK_MM * 0.36)}" font-size="{MARK_MM:.2f}" '
            f'font-weight="bold" fill="{INK}">{escape(mark["text"])}</text>'
            f'<title>{escape(title)}</title></g>')


def _arrow_d() -> str:
    """ARROW as an SVG path (y downward)."""
    return "M" + "L".join(f"{_f(x)} {_f(-y)}" for x, y in ARROW) + "Z"


def _key_svg(rows, key_h: float, w: float, escape) -> str:
    f = _f
    size = KEY_MM
    out = [f'<rect x="0" y="0" width="{f(w)}" height="{f(key_h)}" fill="{PAPER}" '
           f'stroke="#6e6e6e" stroke-width="0.5"/>']
    for down, line in rows:
        y = down
        x = KEY_X
        if line["sample"] == "heading":
            out.append(f'<text x="3" y="{f(y)}" font-size="{f(size)}" font-weight="bold" '
                       f'fill="{INK}">{escape(line["text"])}</text>')
            continue
        if line["sample"] == "counter":
            token = line["token"]
            out.append(f'<g transform="translate(6.5 {f(y + size * 0.35)}) '
                       f'scale(0.62)">' + _counter_svg(token, "0", "0", escape) + "</g>")
            out.append(f'<text x="{f(x)}" y="{f(y - size * 0.2)}" font-size="{f(size)}" '
                       f'font-weight="bold" fill="{INK}">{escape(line["text"])}</text>'
                       f'<text x="{f(x)}" y="{f(y + size * 1.05)}" font-size="{f(size)}" '
                       f'fill="{INK}">{escape(line["more"])}</text>')
            continue
        if line["sample"] == "reach":
            out.append(f'<rect x="2" y="{f(y - 2.7)}" width="9" height="4.6" rx="1.2" '
                       f'fill="{REACH}"/><rect x="3.4" y="{f(y - 1.3)}" width="6.2" '
                       f'height="1.8" fill="{PAPER}"/>')
        elif line["sample"] == "mark":
            out.append(f'<rect x="2" y="{f(y - 2.7)}" width="9" height="4.6" rx="1" '
                       f'fill="{PAPER}" stroke="{REACH}" stroke-width="0.5"/><path '
                       f'd="{_arrow_d()}" fill="{REACH}" '
                       f'transform="translate(6.5 {f(y - 0.4)})"/>')
        else:
            x = 3.0
        out.append(f'<text x="{f(x)}" y="{f(y)}" font-size="{f(size)}" fill="{INK}">'
                   f'{escape(line["text"])}</text>')
    return "".join(out)
