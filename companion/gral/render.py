"""Drawing the Gral board (reports, and the printable board): vector shapes only."""
from __future__ import annotations

from typing import Any

from companion.render.fonts import CONDENSED, CONDENSED_BOLD, SANS, SANS_BOLD, register_fonts

PARCHMENT = (0.97, 0.95, 0.89)
LINE = (0.35, 0.3, 0.25)
GOLD = (0.85, 0.65, 0.13)


def hex_rgb(colour: str) -> tuple[float, float, float]:
    colour = colour.lstrip("#")
    return tuple(int(colour[i:i + 2], 16) / 255 for i in (0, 2, 4))


def tint(rgb: tuple[float, float, float], amount: float) -> tuple[float, float, float]:
    """Mix a colour with white: amount 0 is the colour, 1 is white."""
    return tuple(c + (1 - c) * amount for c in rgb)


def draw_symbol(c, symbol: str, x: float, y: float, size: float, rgb) -> None:
    """An order's symbol centred at (x, y), ``size`` points high."""
    c.saveState()
    c.setFillColorRGB(*rgb)
    c.setStrokeColorRGB(*rgb)
    h = size / 2
    if symbol == "cross":
        t = size * 0.22
        c.rect(x - t / 2, y - h, t, size, stroke=0, fill=1)
        c.rect(x - h, y - t / 2, size, t, stroke=0, fill=1)
    elif symbol == "rose-cross":
        t = size * 0.16
        c.rect(x - t / 2, y - h, t, size, stroke=0, fill=1)
        c.rect(x - h * 0.8, y + h * 0.15 - t / 2, size * 0.8, t, stroke=0, fill=1)
        c.setLineWidth(size * 0.08)
        c.circle(x, y + h * 0.15, size * 0.22, stroke=1, fill=0)
    elif symbol == "triangle":
        c.setLineWidth(size * 0.1)
        p = c.beginPath()
        p.moveTo(x - h, y - h * 0.8)
        p.lineTo(x + h, y - h * 0.8)
        p.lineTo(x, y + h * 0.9)
        p.close()
        c.drawPath(p, stroke=1, fill=0)
        c.circle(x, y - h * 0.15, size * 0.1, stroke=0, fill=1)
    else:  # knife: a dagger pointing down
        p = c.beginPath()
        p.moveTo(x, y - h)
        p.lineTo(x + size * 0.12, y - h * 0.1)
        p.lineTo(x - size * 0.12, y - h * 0.1)
        p.close()
        c.drawPath(p, stroke=0, fill=1)
        c.rect(x - size * 0.28, y - h * 0.1, size * 0.56, size * 0.09, stroke=0, fill=1)
        c.rect(x - size * 0.06, y - h * 0.02, size * 0.12, size * 0.42, stroke=0, fill=1)
        c.circle(x, y + h * 0.9, size * 0.08, stroke=0, fill=1)
    c.restoreState()


def draw_grail(c, x: float, y: float, size: float) -> None:
    """A chalice centred at (x, y), ``size`` points high."""
    c.saveState()
    c.setFillColorRGB(*GOLD)
    c.setStrokeColorRGB(0.45, 0.33, 0.05)
    c.setLineWidth(max(0.3, size * 0.04))
    h = size / 2
    p = c.beginPath()
    p.moveTo(x - h * 0.75, y + h)
    p.lineTo(x + h * 0.75, y + h)
    p.curveTo(x + h * 0.75, y + h * 0.1, x + h * 0.3, y - h * 0.1, x + h * 0.1, y - h * 0.15)
    p.lineTo(x + h * 0.1, y - h * 0.7)
    p.lineTo(x + h * 0.5, y - h)
    p.lineTo(x - h * 0.5, y - h)
    p.lineTo(x - h * 0.1, y - h * 0.7)
    p.lineTo(x - h * 0.1, y - h * 0.15)
    p.curveTo(x - h * 0.3, y - h * 0.1, x - h * 0.75, y + h * 0.1, x - h * 0.75, y + h)
    p.close()
    c.drawPath(p, stroke=1, fill=1)
    c.restoreState()


def fit_font(c, text: str, font: str, size: float, width: float, minimum: float = 4.0) -> float:
    from reportlab.pdfbase.pdfmetrics import stringWidth

    while size > minimum and stringWidth(text, font, size) > width:
        size -= 0.25
    return size


def name_lines(name: str, font: str, size: float, width: float) -> list[str]:
    """A field name on one line if it fits at ``size``, else split in two at a space or hyphen."""
    from reportlab.pdfbase.pdfmetrics import stringWidth

    if stringWidth(name, font, size) <= width:
        return [name]
    best = [name]
    best_width = stringWidth(name, font, size)
    for i, ch in enumerate(name):
        if ch in " -":
            first = name[: i + 1].rstrip() if ch == "-" else name[:i]
            second = name[i + 1:]
            widest = max(stringWidth(first, font, size), stringWidth(second, font, size))
            if widest < best_width:
                best, best_width = [first, second], widest
    return best


FONTS = (CONDENSED_BOLD, SANS, SANS_BOLD)        # what the board and its legend draw with


def draw_board(c, data: dict[str, Any], x0: float, y0: float, side: float, *,
               show_pieces: bool = True) -> None:
    """Draw the board with its lower-left corner at (x0, y0), ``side`` points square."""
    register_fonts(*FONTS)
    from reportlab.pdfbase.pdfmetrics import stringWidth

    rows, cols = data["rows"], data["columns"]
    cell = side / max(rows, cols)
    orders = {o["name"]: o for o in data["orders"]}
    c.saveState()
    c.setLineWidth(0.8)
    for f in data["fields"]:
        x = x0 + (f["column"] - 1) * cell
        y = y0 + (rows - f["row"]) * cell
        fill = PARCHMENT
        if f["hq"]:
            fill = tint(hex_rgb(orders[f["hq"]]["colour"]), 0.78)
        c.setFillColorRGB(*fill)
        c.setStrokeColorRGB(*LINE)
        c.rect(x, y, cell, cell, stroke=1, fill=1)
        lines = name_lines(f["name"], CONDENSED_BOLD, min(9.0, cell * 0.14), cell - 6)
        size = min(fit_font(c, line, CONDENSED_BOLD, min(9.0, cell * 0.14), cell - 6)
                   for line in lines)
        c.setFillColorRGB(*LINE)
        c.setFont(CONDENSED_BOLD, size)
        for k, line in enumerate(lines):
            c.drawCentredString(x + cell / 2, y + cell - (k + 1) * (size + 1) - 2, line)
        if f["hq"]:
            o = orders[f["hq"]]
            draw_symbol(c, o["symbol"], x + cell - cell * 0.14, y + cell * 0.14, cell * 0.16,
                        hex_rgb(o["colour"]))
    if show_pieces:
        grail = data["grail"]
        by_field: dict[str, list[dict]] = {}
        for p in data["pieces"]:
            if p["field"]:
                by_field.setdefault(p["field"], []).append(p)
        positions = {f["name"]: f for f in data["fields"]}
        for field_name, pieces in by_field.items():
            f = positions[field_name]
            x = x0 + (f["column"] - 1) * cell
            y = y0 + (rows - f["row"]) * cell
            per_row = 4 if len(pieces) > 4 else max(2, len(pieces))
            step = (cell - 8) / per_row
            radius_tall = min(step * 0.46, cell * 0.11)
            for k, p in enumerate(pieces):
                cx = x + 4 + step * (k % per_row) + step / 2
                cy = y + cell * 0.52 - (k // per_row) * (radius_tall * 2.3)
                r = radius_tall if p["size"] == "tall" else radius_tall * 0.78
                rgb = hex_rgb(orders[p["order"]]["colour"])
                if grail["holder"] == p["initiate"]:
                    c.setFillColorRGB(*GOLD)
                    c.circle(cx, cy, r + 2.2, stroke=0, fill=1)
                c.setFillColorRGB(*rgb)
                c.setStrokeColorRGB(1, 1, 1)
                c.setLineWidth(0.6)
                c.circle(cx, cy, r, stroke=1, fill=1)
                c.setFillColorRGB(1, 1, 1)
                font_size = fit_font(c, p["code"], SANS_BOLD, r * 0.95, r * 1.7)
                c.setFont(SANS_BOLD, font_size)
                c.drawCentredString(cx, cy - font_size * 0.35, p["code"])
        if grail["holder"] is None:
            f = positions[grail["field"]]
            x = x0 + (f["column"] - 1) * cell
            y = y0 + (rows - f["row"]) * cell
            draw_grail(c, x + cell * 0.14, y + cell * 0.15, cell * 0.2)
    else:       # a printed board: the grail's starting field bears its sign, as the key says
        f = next(f for f in data["fields"] if f["name"] == data["grail"]["field"])
        draw_grail(c, x0 + (f["column"] - 1) * cell + cell * 0.14,
                   y0 + (rows - f["row"]) * cell + cell * 0.15, cell * 0.2)
    c.restoreState()


def board_flowable(data: dict[str, Any], width: float):
    """A platypus flowable: the board with a legend of the initiates beside it."""
    from reportlab.platypus import Flowable

    class Board(Flowable):
        def __init__(self):
            super().__init__()
            self.side = min(width * 0.62, 118 * 2.8346)
            self.height = self.side

        def wrap(self, avail_width, avail_height):
            return width, self.side

        def draw(self):
            c = self.canv
            draw_board(c, data, 0, 0, self.side)
            orders = {o["name"]: o for o in data["orders"]}
            lx = self.side + 12
            y = self.side - 10
            c.setFont(SANS_BOLD, 8.5)
            c.setFillColorRGB(*LINE)
            c.drawString(lx, y, "Initiates")
            y -= 14
            for p in data["pieces"]:
                rgb = hex_rgb(orders[p["order"]]["colour"])
                c.setFillColorRGB(*rgb)
                c.circle(lx + 6, y + 3, 6 if p["size"] == "tall" else 4.7, stroke=0, fill=1)
                c.setFillColorRGB(1, 1, 1)
                c.setFont(SANS_BOLD, 4.6)
                c.drawCentredString(lx + 6, y + 1.4, p["code"])
                c.setFillColorRGB(*LINE)
                c.setFont(SANS, 7.5)
                label = p["initiate"] + ("" if p["field"] else " (uncovered)")
                size = fit_font(c, label, SANS, 7.5, width - lx - 18)
                c.setFont(SANS, size)
                c.drawString(lx + 16, y + 4, label)
                c.setFont(SANS, 6.3)
                c.setFillColorRGB(0.4, 0.4, 0.4)
                c.drawString(lx + 16, y - 3.5, f"{p['order']}, {p['size']}")
                y -= 19
            y -= 4
            c.setFillColorRGB(*LINE)
            c.setFont(SANS_BOLD, 8.5)
            c.drawString(lx, y, "Headquarters")
            y -= 13
            for o in data["orders"]:
                draw_symbol(c, o["symbol"], lx + 6, y + 3, 9, hex_rgb(o["colour"]))
                c.setFillColorRGB(*LINE)
                c.setFont(SANS, 7.5)
                c.drawString(lx + 16, y, f"{o['name']}: {o['headquarters']}")
                y -= 12
            draw_grail(c, lx + 6, y - 1, 10)
            c.setFillColorRGB(*LINE)
            c.setFont(SANS, 7.5)
            grail = data["grail"]
            c.drawString(lx + 16, y - 3, "the grail" + (f" (carried: gold ring)" if grail["holder"]
                                                         else ""))

    return Board()


SVG_LABEL = 13
"""The size of every text of the board's SVG (500 units wide for 5 columns), field names and
pawns' codes alike: 9 CSS pixels or more on a phone."""
SVG_PAWN = {True: 15.0, False: 12.5}
"""A pawn's radius in the SVG: tall (True) or small; both hold a code of SVG_LABEL."""


def board_svg(data: dict[str, Any]) -> str:
    """The board as SVG for the web view (the twin of :func:`board_flowable`, found by
    companion/render/report_html.py): fields, headquarters, initiates and the grail. Every text
    is escaped here; colours come from the game's data and are checked as #rrggbb.

    Every text, the field names and the initiates' codes on their pawns alike, is SVG_LABEL
    units high, so that on a phone's column (about 360 CSS pixels for the board's 500 units)
    it stays above 9 pixels; a name or code wider than its room is squeezed into it
    (``textLength``), never made smaller. The codes are written after all the pawns, so a
    crowded field's pawns may overlap but never hide a code."""
    import re
    from html import escape

    from reportlab.pdfbase.pdfmetrics import stringWidth

    register_fonts(SANS_BOLD)

    def squeezed(value: str, room: float) -> str:
        """A textLength for a bold text wider than ``room`` (measured in DejaVu Sans Bold,
        the font the page asks for), or nothing."""
        if stringWidth(value, SANS_BOLD, SVG_LABEL) <= room:
            return ""
        return f' textLength="{room:.1f}" lengthAdjust="spacingAndGlyphs"'

    def colour(rgb) -> str:
        return "#" + "".join(f"{round(max(0.0, min(1.0, v)) * 255):02x}" for v in rgb)

    def checked(value: str) -> str:
        return value if re.fullmatch(r"#[0-9a-fA-F]{6}", value or "") else "#777777"

    rows, cols = int(data["rows"]), int(data["columns"])
    cell = 100
    orders = {o["name"]: o for o in data["orders"]}
    ink = colour(LINE)
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {cols * cell} {rows * cell}" '
           f'role="img" aria-label="the board" class="gral-board" font-family="DejaVu Sans, '
           f'sans-serif">']
    for f in data["fields"]:
        x, y = (int(f["column"]) - 1) * cell, (int(f["row"]) - 1) * cell
        fill = colour(PARCHMENT)
        if f["hq"]:
            fill = colour(tint(hex_rgb(checked(orders[f["hq"]]["colour"])), 0.78))
        out.append(f'<rect x="{x}" y="{y}" width="{cell}" height="{cell}" fill="{fill}" '
                   f'stroke="{ink}" stroke-width="1.5"/>')
        name = str(f.get("short") or f["name"])
        for k, line in enumerate(name_lines(name, SANS_BOLD, SVG_LABEL, cell - 8)[:2]):
            out.append(f'<text x="{x + cell / 2}" y="{y + 16 + k * 14}" font-size="{SVG_LABEL}" '
                       f'font-weight="bold" text-anchor="middle" fill="{ink}"'
                       f'{squeezed(line, cell - 8)}>{escape(line)}</text>')
        if f["hq"]:
            out.append(f'<title>{escape(f["name"])}: headquarters of '
                       f'{escape(f["hq"])}</title>')
    positions = {f["name"]: f for f in data["fields"]}
    by_field: dict[str, list[dict]] = {}
    for p in data["pieces"]:
        if p["field"]:
            by_field.setdefault(p["field"], []).append(p)
    grail = data["grail"]
    codes: list[str] = []
    for field_name, pieces in by_field.items():
        f = positions[field_name]
        x, y = (int(f["column"]) - 1) * cell, (int(f["row"]) - 1) * cell
        # under the field's name, two or three pawns to a row, four (overlapping) past six
        per_row = 2 if len(pieces) <= 2 else 3 if len(pieces) <= 6 else 4
        rows_used = (len(pieces) + per_row - 1) // per_row
        step = (cell - 8) / per_row
        spacing = min(31.0, 34 / max(1, rows_used - 1))
        for k, p in enumerate(pieces):
            cx = x + 4 + step * (k % per_row) + step / 2
            cy = y + (57 if rows_used == 1 else 48 + (k // per_row) * spacing)
            r = SVG_PAWN[p["size"] == "tall"]
            if grail["holder"] == p["initiate"]:
                out.append(f'<circle cx="{cx:.1f}" cy="{cy:.1f}" r="{r + 3:.1f}" '
                           f'fill="{colour(GOLD)}"/>')
            out.append(f'<circle cx="{cx:.1f}" cy="{cy:.1f}" r="{r:.1f}" '
                       f'fill="{checked(orders[p["order"]]["colour"])}" stroke="#ffffff">'
                       f'<title>{escape(p["initiate"])} ({escape(p["order"])}, '
                       f'{escape(p["size"])})</title></circle>')
            code = str(p["code"])
            codes.append(f'<text x="{cx:.1f}" y="{cy + SVG_LABEL * 0.36:.1f}" '
                         f'font-size="{SVG_LABEL}" font-weight="bold" text-anchor="middle" '
                         f'fill="#ffffff"{squeezed(code, min(2 * r - 4, step - 2))}>'
                         f'{escape(code)}</text>')
    out += codes
    if grail["holder"] is None and grail.get("field") in positions:
        f = positions[grail["field"]]
        x, y = (int(f["column"]) - 1) * cell, (int(f["row"]) - 1) * cell
        gx, gy = x + cell * 0.16, y + cell * 0.84
        out.append(f'<path d="M{gx - 8},{gy - 12} h16 q0,10 -8,12 v5 h5 v3 h-14 v-3 h5 v-5 '
                   f'q-8,-2 -8,-12 z" fill="{colour(GOLD)}"><title>the grail</title></path>')
    out.append("</svg>")
    return "".join(out)
