"""The Knights of Camelot map in every report: the areas and links of the map poster with the
counters the viewer may see (docs/koc-engine.md, "Reports").

``map_data(world, view)`` builds the figure's plain data from a view only: the geometry of the
map (every area, sea and link as ``poster_layout`` places them on the poster; public and the same
for every game) and, from the view, the knights' counters (public: they stand on the table), the
Merlin/Morgan counter, the castles placed on the map, and for a player the areas his knight can
reach next. ``map_flowable`` draws it in the PDF (reportlab, imported when called) and
``map_svg`` for the web view (found by companion/render/report_html.py); ``map_text`` is the
text form.

The geometry needs reportlab to measure the names, so it is built once per process and kept in
the cache of built data (companion/engine/cache.py) beside the world: ``companion show`` of a
KoC game then reads it without loading reportlab or the fonts.
"""
from __future__ import annotations

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
            package / "resources.py",
            *sorted((package / "render" / "printkit").glob("*.py"))]


def _cached_geometry(world) -> dict[str, Any]:
    from companion.engine import cache
    from companion.koc import world as world_module

    return cache.cached(
        cache.name_for("koc-map", world_module.DATA_DIR),
        files=[world_module.DATA_DIR / name for name in world_module.FILES], code=code(),
        build=lambda: _build_geometry(world), codec=cache.Codec(()))


def _build_geometry(world) -> dict[str, Any]:
    from companion.koc import poster

    layout = poster.poster_layout(world)

    def r(value: float) -> float:
        return round(float(value), 1)

    areas = []
    for name, node in layout.nodes.items():
        names = [lb for lb in node.labels if lb.size > poster.CAPTION_PT] or list(node.labels[:1])
        areas.append({"name": name, "kind": node.kind, "x": r(node.x), "y": r(node.y),
                      "w": r(node.w), "h": r(node.h), "shape": node.shape, "fill": node.fill,
                      "stroke": node.stroke, "ink": names[0].colour,
                      "lines": [lb.text for lb in names], "pt": names[0].size,
                      "line": node.line_pt})
    seas = [{"name": band.name, "path": [[r(x), r(y)] for x, y in band.path],
             "width": r(band.width)} for band in layout.bands.values()]
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
    if v.get("neighbours"):
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
    Merlin/Morgan counter, in a row along the top edge of their area (two rows past four)."""
    where = {a["name"]: (a["x"], a["y"] + a["h"] / 2 + RADIUS * 0.45) for a in data["areas"]}
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
    reach = set(data["reach"])
    _replay(c, data, "ground", lambda pen: _draw_ground(pen, data, colour))
    for a in data["areas"]:                 # the next steps: an orange ring under the area
        if a["name"] in reach:
            x0, y0 = a["x"] - a["w"] / 2, a["y"] - a["h"] / 2
            c.setFillColorRGB(*colour(REACH))
            if a["shape"] == "pill":
                c.roundRect(x0 - 1.6, y0 - 1.6, a["w"] + 3.2, a["h"] + 3.2, a["h"] / 2 + 1.6,
                            stroke=0, fill=1)
            else:
                c.rect(x0 - 1.6, y0 - 1.6, a["w"] + 3.2, a["h"] + 3.2, stroke=0, fill=1)
    _replay(c, data, "areas", lambda pen: _draw_areas(pen, data, colour))
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
    _legend_pdf(c, data, colour, sans, bold)


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
        x, y = sea["path"][len(sea["path"]) // 2]
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
        x, y = sea["path"][len(sea["path"]) // 2]
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

    def X(x: float) -> str:
        return f(x)

    def Y(y: float) -> str:
        return f(map_h - y)

    mine = [c for c in data["counters"] if c["mine"]]
    label = "Map of the Knights of Camelot with the knights' counters" + (
        f"; your knight {mine[0]['knight']} is ringed in gold" if mine else "")
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {f(map_w)} {f(map_h)}" '
           f'role="img" aria-label="{escape(label)}" class="koc-map" '
           f'font-family="DejaVu Sans, sans-serif">',
           f'<title>{escape(label)}</title>', _svg_part(data, "ground", _svg_ground)]
    reach = set(data["reach"])
    for a in data["areas"]:                 # the next steps: an orange ring under the area
        if a["name"] in reach:
            x0, y1 = a["x"] - a["w"] / 2, a["y"] + a["h"] / 2
            out.append(f'<rect x="{X(x0 - 1.6)}" y="{Y(y1 + 1.6)}" width="{f(a["w"] + 3.2)}" '
                       f'height="{f(a["h"] + 3.2)}" rx="{f(_radius(a) + 1.6)}" '
                       f'fill="{REACH}"/>')
    out.append(_svg_part(data, "areas", _svg_areas))
    for sea in data["seas"]:
        if sea["name"] in reach:
            points = " ".join(f"{X(x)},{Y(y)}" for x, y in sea["path"])
            out.append(f'<polyline points="{points}" fill="none" stroke="{REACH}" '
                       f'stroke-width="1.6" stroke-dasharray="4 3"/>')
    for x, y, names in _castle_marks(data):
        out.append(_castle_svg(X(x), Y(y), "; ".join(names), escape))
    for token in _tokens(data):
        out.append(_counter_svg(token, X(token["cx"]), Y(token["cy"]), escape))
    out.append(_legend_svg(data, f, map_h, escape))
    out.append("</svg>")
    return "".join(out)


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
