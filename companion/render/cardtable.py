"""A card game's table as a figure: labelled areas (the middle of the table, one per seat, the
viewer's own hand), each holding groups of cards drawn as small labelled rectangles. One layout,
two drawings: a platypus flowable for the PDF report and SVG markup for the web view
(``companion/render/report_html.py`` finds a kind's ``table_svg`` beside its ``table_flowable``),
plus a text form for the plain-text report.

The figure's data is plain JSON, built by a game from a viewer's view alone (so it can hold
nothing the viewer may not see)::

    {"label": "the table",                        # the SVG's aria-label
     "areas": [
        {"title": "Anna (you), to play",          # bold, at the top of the area
         "notes": ["3 cards in hand"],            # small lines under the title
         "style": "you",                          # "plain" | "you" (highlighted) | "private"
         "groups": [
            {"label": "Keepers (2)",
             "empty": "none",                     # shown in a dashed outline when no card
             "cards": [{"name": "Coconuts",
                        "sub": "Keeper",          # optional small caption
                        "tone": "green",          # a key of TONES
                        "title": "..."}]}]}]}     # optional tooltip (SVG) / text form

This module names no game: the games map their card kinds to the tones below. Layout and
drawing are pure functions of the data (no clock, no randomness, fixed number formatting), so
the same data gives the same PDF and SVG bytes.
"""
from __future__ import annotations

import re
from functools import lru_cache
from typing import Any

from companion.engine.record import record
from companion.render.fonts import CONDENSED_BOLD, SANS, SANS_BOLD

FONTS = (SANS, CONDENSED_BOLD, SANS_BOLD)
"""The fonts the figure draws with (report_pdf registers a figure module's FONTS). The
report's text uses SANS and SANS_BOLD already: only CONDENSED_BOLD (the card names) adds a font
to embed, which costs some milliseconds a PDF."""

# tone: (fill, stroke, ink) as #rrggbb
TONES: dict[str, tuple[str, str, str]] = {
    "white": ("#ffffff", "#6b6458", "#2b2620"),
    "yellow": ("#fdf1b8", "#b8960b", "#3d3100"),
    "pink": ("#f9d9e6", "#b0476f", "#4a1026"),
    "green": ("#d8efd3", "#3f8a3a", "#173d14"),
    "red": ("#f3cccc", "#9b2222", "#4a0c0c"),
    "blue": ("#d5e4f7", "#3a68a8", "#112a4d"),
    "gold": ("#f6e3a8", "#a87d0f", "#3d2c00"),
    "crimson": ("#f2c7c7", "#a32020", "#470a0a"),
    "sapphire": ("#cddcf5", "#2f57a3", "#0f2550"),
    "purple": ("#e4d8f1", "#6b4a9b", "#2a1646"),
    "grey": ("#e6e3dc", "#7a7468", "#2b2620"),
    "back": ("#5b4a7a", "#3a2d52", "#ffffff"),
}
AREA_STYLES = {
    # style: (fill, stroke, stroke width, dashed)
    "plain": ("#f7f5ef", "#8c8577", 0.8, False),
    "you": ("#fbf0cc", "#b8860b", 2.2, False),
    "private": ("#eef3fb", "#4a6fa5", 1.0, True),
}
INK = "#2b2620"
MUTED = "#6b6458"


@record(frozen=True)
class Metrics:
    """Sizes of one drawing, in its own units (points for the PDF, user units for the SVG)."""
    card_w: float
    card_h: float
    name_size: float
    sub_size: float
    label_size: float
    title_size: float
    note_size: float
    gap: float          # between cards
    group_gap: float    # between groups side by side
    pad: float          # inside an area
    area_gap: float     # between areas


PDF_METRICS = Metrics(card_w=56, card_h=38, name_size=6.3, sub_size=4.9, label_size=6.8,
                      title_size=8.6, note_size=6.5, gap=4, group_gap=12, pad=6, area_gap=5)
SVG_METRICS = Metrics(card_w=64, card_h=44, name_size=7.6, sub_size=5.9, label_size=8,
                      title_size=10, note_size=7.5, gap=5, group_gap=12, pad=7, area_gap=6)
SVG_WIDTH = 300
"""The SVG's width in user units: about a phone's width in CSS pixels, so that its text is
readable there; it scales up on a larger screen."""

# average advance of a character, in ems (DejaVu; a little generous, so estimates fit)
_EM = {SANS: 0.6, CONDENSED_BOLD: 0.6, SANS_BOLD: 0.68}


def estimate(text: str, font: str, size: float) -> float:
    """An estimate of a text's width (the SVG cannot measure; the PDF measures exactly)."""
    return len(text) * size * _EM[font]


def clip(text: str, font: str, size: float, width: float) -> str:
    """``text`` cut with an ellipsis so that its estimated width fits ``width``."""
    if estimate(text, font, size) <= width:
        return text
    keep = max(1, int(width / (size * _EM[font])) - 1)
    return text[:keep].rstrip() + "\u2026"


def wrap(text: str, font: str, size: float, width: float, lines: int) -> list[str]:
    """``text`` in at most ``lines`` lines that each fit ``width`` (estimated); words longer
    than a line are cut; what does not fit ends with an ellipsis."""
    limit = max(1, int(width / (size * _EM[font])))
    out: list[str] = []
    for word in str(text).split():
        while len(word) > limit:
            if out and len(out[-1]) + 1 < limit:
                room = limit - len(out[-1]) - 1
                out[-1] += " " + word[:room]
                word = word[room:]
            else:
                out.append(word[:limit])
                word = word[limit:]
        if out and len(out[-1]) + 1 + len(word) <= limit:
            out[-1] += " " + word
        elif word:
            out.append(word)
    if len(out) > lines:
        out = out[:lines]
        last = out[-1]
        out[-1] = (last[: limit - 1].rstrip() if len(last) >= limit else last) + "\u2026"
    return out or [""]


# --------------------------------------------------------------------------------- the layout
# Drawing operations, in top-down coordinates of their band:
#   ("rect", x, y, w, h, fill, stroke, stroke_width, dashed, radius, title)
#   ("text", x, y_baseline, text, font, size, colour, anchor, max_width)
#   ("card_start", title) / ("card_end",)     group a card's shapes (SVG <g> with its tooltip)


@record
class Band:
    """One area of the table, laid out: its height and its drawing operations."""
    height: float
    ops: list[tuple]


def _group_size(group: dict[str, Any], m: Metrics, inner: float) -> tuple[float, float, int]:
    """(width, height, cards per row) of a group within an area ``inner`` units wide."""
    n = max(1, len(group.get("cards") or []))
    per_row = max(1, min(n, int((inner + m.gap) // (m.card_w + m.gap))))
    rows = -(-n // per_row)
    cards_w = per_row * (m.card_w + m.gap) - m.gap
    label_w = min(inner, estimate(str(group.get("label", "")), CONDENSED_BOLD, m.label_size))
    width = max(cards_w, label_w)
    height = m.label_size + 3 + rows * (m.card_h + m.gap) - m.gap
    return width, height, per_row


def _card_ops(card: dict[str, Any], x: float, y: float, m: Metrics) -> list[tuple]:
    fill, stroke, ink = TONES.get(str(card.get("tone", "grey")), TONES["grey"])
    name = str(card.get("name", ""))
    sub = str(card.get("sub") or "")
    title = str(card.get("title") or (f"{name} ({sub})" if sub else name))
    ops: list[tuple] = [("card_start", title),
                        ("rect", x, y, m.card_w, m.card_h, fill, stroke, 0.8, False, 3, None)]
    inner = m.card_w - 6
    if card.get("tone") == "back":
        ops.append(("rect", x + 3, y + 3, m.card_w - 6, m.card_h - 6, fill, "#8f7fb0", 0.6,
                    False, 2, None))
    room = m.card_h - 4 - (m.sub_size + 2 if sub else 0)
    max_lines = max(1, int(room // (m.name_size + 1.2)))
    lines = wrap(name, CONDENSED_BOLD, m.name_size, inner, min(3, max_lines))
    top = y + 3 + m.name_size
    if card.get("tone") == "back":      # the count in the middle of the card back
        top = y + (m.card_h - len(lines) * (m.name_size + 1.2)) / 2 + m.name_size
    for k, line in enumerate(lines):
        ops.append(("text", x + m.card_w / 2, top + k * (m.name_size + 1.2), line,
                    CONDENSED_BOLD, m.name_size, ink, "middle", inner))
    if sub:
        ops.append(("text", x + m.card_w / 2, y + m.card_h - 3, clip(sub, SANS, m.sub_size,
                                                                     inner),
                    SANS, m.sub_size, stroke, "middle", inner))
    ops.append(("card_end",))
    return ops


def _empty_ops(text: str, x: float, y: float, m: Metrics) -> list[tuple]:
    inner = m.card_w - 6
    ops: list[tuple] = [("rect", x, y, m.card_w, m.card_h, "none", "#a59e90", 0.7, True, 3, None)]
    lines = wrap(text, SANS, m.name_size - 0.6, inner, 2)
    top = y + (m.card_h - len(lines) * (m.name_size + 1.2)) / 2 + m.name_size
    for k, line in enumerate(lines):
        ops.append(("text", x + m.card_w / 2, top + k * (m.name_size + 1.2), line, SANS,
                    m.name_size - 0.6, MUTED, "middle", inner))
    return ops


def layout_area(area: dict[str, Any], width: float, m: Metrics) -> Band:
    """One area, ``width`` units wide: its title, notes and groups of cards."""
    style = str(area.get("style", "plain"))
    fill, stroke, stroke_w, dashed = AREA_STYLES.get(style, AREA_STYLES["plain"])
    inner = width - 2 * m.pad
    ops: list[tuple] = []
    y = m.pad + m.title_size
    ops.append(("text", m.pad, y, clip(str(area.get("title", "")), SANS_BOLD, m.title_size,
                                       inner), SANS_BOLD, m.title_size, INK, "start", inner))
    for note in area.get("notes") or []:
        for line in wrap(str(note), SANS, m.note_size, inner, 4):
            y += m.note_size + 2
            ops.append(("text", m.pad, y, line, SANS, m.note_size, MUTED, "start", inner))
    y += 5
    x, line_h = 0.0, 0.0
    for group in area.get("groups") or []:
        gw, gh, per_row = _group_size(group, m, inner)
        if x > 0 and x + gw > inner:
            y += line_h + m.gap + 2
            x, line_h = 0.0, 0.0
        gx, gy = m.pad + x, y
        ops.append(("text", gx, gy + m.label_size, clip(str(group.get("label", "")),
                                                        CONDENSED_BOLD, m.label_size, inner),
                    CONDENSED_BOLD, m.label_size, INK, "start", inner))
        cards = group.get("cards") or []
        top = gy + m.label_size + 3
        if not cards:
            ops += _empty_ops(str(group.get("empty") or "none"), gx, top, m)
        for k, card in enumerate(cards):
            cx = gx + (k % per_row) * (m.card_w + m.gap)
            cy = top + (k // per_row) * (m.card_h + m.gap)
            ops += _card_ops(card, cx, cy, m)
        x += gw + m.group_gap
        line_h = max(line_h, gh)
    height = y + line_h + m.pad
    inset = stroke_w / 2            # the whole frame inside the band (the SVG clips)
    frame = ("rect", inset, inset, width - stroke_w, height - stroke_w, fill, stroke, stroke_w,
             dashed, 5, None)
    return Band(height, [frame] + ops)


def layout(data: dict[str, Any], width: float, m: Metrics) -> list[Band]:
    """Every area of the figure as a band ``width`` units wide, top to bottom."""
    return [layout_area(area, width, m) for area in data.get("areas") or []]


# ------------------------------------------------------------------------------------ the text
def card_text(card: dict[str, Any]) -> str:
    sub = card.get("sub")
    return str(card.get("name", "")) + (f" ({sub})" if sub else "")


def table_text(data: dict[str, Any]) -> str:
    """The figure as text (the plain-text report and the web page's "as text")."""
    lines: list[str] = []
    for area in data.get("areas") or []:
        if lines:
            lines.append("")
        mark = {"you": "> ", "private": "# "}.get(str(area.get("style")), "")
        lines.append(mark + str(area.get("title", "")))
        for note in area.get("notes") or []:
            lines.append(f"  {note}")
        for group in area.get("groups") or []:
            cards = group.get("cards") or []
            body = "; ".join(card_text(c) for c in cards) if cards else str(group.get("empty")
                                                                            or "none")
            lines.append(f"  {group.get('label', '')}: {body}")
    return "\n".join(lines)


# ------------------------------------------------------------------------------------- the PDF
@lru_cache(maxsize=64)
def _rgb(colour: str) -> tuple[float, float, float]:
    colour = colour.lstrip("#")
    return tuple(int(colour[i:i + 2], 16) / 255 for i in (0, 2, 4))


def draw_band(c, band: Band, x0: float, top: float, scale: float = 1.0) -> None:
    """Draw ``band`` on canvas ``c`` with its top-left corner at (x0, top)."""
    from reportlab.pdfbase.pdfmetrics import stringWidth

    c.saveState()
    c.translate(x0, top)
    c.scale(scale, scale)
    for op in band.ops:
        if op[0] == "rect":
            _, x, y, w, h, fill, stroke, stroke_w, dashed, radius, _title = op
            if fill != "none":
                c.setFillColorRGB(*_rgb(fill))
            c.setStrokeColorRGB(*_rgb(stroke))
            c.setLineWidth(stroke_w)
            c.setDash(2, 2) if dashed else c.setDash()
            c.roundRect(x, -y - h, w, h, radius, stroke=1, fill=0 if fill == "none" else 1)
        elif op[0] == "text":
            _, x, y, text, font, size, colour, anchor, max_w = op
            while size > 3.5 and stringWidth(text, font, size) > max_w:
                size -= 0.25
            c.setFont(font, size)
            c.setFillColorRGB(*_rgb(colour))
            if anchor == "middle":
                c.drawCentredString(x, -y, text)
            else:
                c.drawString(x, -y, text)
    c.restoreState()


def flowable(data: dict[str, Any], width: float):
    """The figure as a platypus flowable ``width`` points wide; it splits between areas at a
    page end, and an area taller than a whole page is scaled down to fit it."""
    from companion.render.fonts import register_fonts

    register_fonts(*FONTS)
    from reportlab.platypus import Flowable

    m = PDF_METRICS

    class CardTable(Flowable):
        def __init__(self, bands: list[Band], scales: list[float] | None = None):
            super().__init__()
            self.bands = bands
            self.scales = scales or [1.0] * len(bands)

        def _heights(self) -> list[float]:
            return [b.height * s for b, s in zip(self.bands, self.scales)]

        def wrap(self, avail_width, avail_height):
            heights = self._heights()
            self.height = sum(heights) + m.area_gap * max(0, len(heights) - 1)
            return width, self.height

        def split(self, avail_width, avail_height):
            heights = self._heights()
            used, k = 0.0, 0
            while k < len(heights) and used + heights[k] <= avail_height:
                used += heights[k] + m.area_gap
                k += 1
            if k == 0:
                # an area taller than this frame: wait for a fresh page, then shrink it to fit
                if avail_height < 360 or not heights:
                    return []
                # (a little room left below it, for the spacer that follows a figure)
                first = CardTable(self.bands[:1], [(avail_height - 8) / self.bands[0].height])
                rest = self.bands[1:]
                return [first] + ([CardTable(rest, self.scales[1:])] if rest else [])
            if k == len(heights):
                return [self]
            return [CardTable(self.bands[:k], self.scales[:k]),
                    CardTable(self.bands[k:], self.scales[k:])]

        def draw(self):
            top = self.height
            for band, scale in zip(self.bands, self.scales):
                draw_band(self.canv, band, 0, top, scale)
                top -= band.height * scale + m.area_gap

    return CardTable(layout(data, width, m))


# ------------------------------------------------------------------------------------- the SVG
_XML_BAD = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")


def esc(text: Any) -> str:
    """Text for SVG content or an attribute: escaped, characters XML forbids dropped."""
    from html import escape

    return escape(_XML_BAD.sub("", str(text)), quote=True)


def _num(value: float) -> str:
    """A fixed, short number format (same data, same bytes)."""
    text = f"{value:.1f}"
    return text[:-2] if text.endswith(".0") else text


def svg(data: dict[str, Any], css_class: str = "card-table") -> str:
    """The figure as SVG markup for the web view: presentation attributes only (no style
    attribute, no script), every text escaped, a viewBox that scales to the screen."""
    m = SVG_METRICS
    bands = layout(data, SVG_WIDTH, m)
    height = sum(b.height for b in bands) + m.area_gap * max(0, len(bands) - 1)
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {SVG_WIDTH} {_num(height)}" '
           f'role="img" aria-label="{esc(data.get("label") or "the table")}" '
           f'class="{esc(css_class)}" font-family="DejaVu Sans Condensed, DejaVu Sans, '
           f'Arial Narrow, sans-serif">']
    top = 0.0
    weights = {SANS: "normal", CONDENSED_BOLD: "bold", SANS_BOLD: "bold"}
    for band in bands:
        out.append(f'<g transform="translate(0 {_num(top)})">')
        for op in band.ops:
            if op[0] == "card_start":
                out.append(f'<g><title>{esc(op[1])}</title>')
            elif op[0] == "card_end":
                out.append("</g>")
            elif op[0] == "rect":
                _, x, y, w, h, fill, stroke, stroke_w, dashed, radius, _title = op
                dash = ' stroke-dasharray="3 2"' if dashed else ""
                out.append(f'<rect x="{_num(x)}" y="{_num(y)}" width="{_num(w)}" '
                           f'height="{_num(h)}" rx="{_num(radius)}" fill="{fill}" '
                           f'stroke="{stroke}" stroke-width="{_num(stroke_w)}"{dash}/>')
            elif op[0] == "text":
                _, x, y, text, font, size, colour, anchor, max_w = op
                squeeze = ""
                if estimate(text, font, size) > max_w:
                    squeeze = (f' textLength="{_num(max_w)}" '
                               'lengthAdjust="spacingAndGlyphs"')
                family = "" if font == CONDENSED_BOLD else ' font-family="DejaVu Sans, sans-serif"'
                out.append(f'<text x="{_num(x)}" y="{_num(y)}" font-size="{_num(size)}" '
                           f'font-weight="{weights[font]}" text-anchor="{anchor}" '
                           f'fill="{colour}"{family}{squeeze}>{esc(text)}</text>')
        out.append("</g>")
        top += band.height + m.area_gap
    out.append("</svg>")
    return "".join(out)
