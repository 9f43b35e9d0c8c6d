"""The drawing helper handed to games' callbacks (boards, free pages, custom card faces).

Coordinates are millimetres with the origin at the lower-left corner of the thing being drawn;
font sizes and line widths are points.  ``pen.canvas`` is the reportlab canvas, already scaled so
that one unit is a millimetre, for anything the helpers do not cover.
"""
from __future__ import annotations

from typing import Sequence

from companion.render.printkit.colours import INK, RGB, rgb
from companion.render.printkit.units import MM

Colour = str | RGB | None


class Pen:
    def __init__(self, canvas, width_mm: float, height_mm: float, bleed_mm: float = 0.0,
                 what: str = "drawing"):
        self.canvas = canvas
        self.width_mm = width_mm
        self.height_mm = height_mm
        self.bleed_mm = bleed_mm
        self.what = what
        self.unit_pt = MM
        """Points per unit of this pen (a millimetre; other units in :meth:`stamp`)."""

    # -- style ------------------------------------------------------------------------------
    def _fill(self, colour: Colour) -> bool:
        if colour is None:
            return False
        self.canvas.setFillColorRGB(*rgb(colour, what=self.what))
        return True

    def _stroke(self, colour: Colour, line_pt: float) -> bool:
        if colour is None:
            return False
        self.canvas.setStrokeColorRGB(*rgb(colour, what=self.what))
        self.canvas.setLineWidth(line_pt / self.unit_pt)
        return True

    # -- shapes -----------------------------------------------------------------------------
    def rect(self, x: float, y: float, w: float, h: float, *, fill: Colour = None,
             stroke: Colour = INK, line_pt: float = 0.5, radius: float = 0.0) -> None:
        f, s = self._fill(fill), self._stroke(stroke, line_pt)
        if radius:
            self.canvas.roundRect(x, y, w, h, radius, fill=int(f), stroke=int(s))
        else:
            self.canvas.rect(x, y, w, h, fill=int(f), stroke=int(s))

    def circle(self, x: float, y: float, r: float, *, fill: Colour = None, stroke: Colour = INK,
               line_pt: float = 0.5) -> None:
        f, s = self._fill(fill), self._stroke(stroke, line_pt)
        self.canvas.circle(x, y, r, fill=int(f), stroke=int(s))

    def line(self, x0: float, y0: float, x1: float, y1: float, *, colour: Colour = INK,
             line_pt: float = 0.5, dash_mm: Sequence[float] | None = None) -> None:
        self.canvas.saveState()
        self._stroke(colour, line_pt)
        if dash_mm:
            self.canvas.setDash(list(dash_mm), 0)
        self.canvas.line(x0, y0, x1, y1)
        self.canvas.restoreState()

    def polygon(self, points: Sequence[tuple[float, float]], *, fill: Colour = None,
                stroke: Colour = INK, line_pt: float = 0.5) -> None:
        p = self.canvas.beginPath()
        p.moveTo(*points[0])
        for pt in points[1:]:
            p.lineTo(*pt)
        p.close()
        f, s = self._fill(fill), self._stroke(stroke, line_pt)
        self.canvas.drawPath(p, fill=int(f), stroke=int(s))

    def hexagon(self, cx: float, cy: float, r: float, *, flat: bool = True, **style) -> None:
        """A regular hexagon of circumradius ``r`` (flat top by default)."""
        import math

        start = 0 if flat else 30
        self.polygon([(cx + r * math.cos(math.radians(start + 60 * i)),
                       cy + r * math.sin(math.radians(start + 60 * i))) for i in range(6)], **style)

    def icon(self, name: str, x: float, y: float, size: float, *, fill: Colour = None,
             ink: Colour = INK, line_pt: float = 0.6) -> None:
        """Icon ``name`` in the square (x, y, size) mm."""
        from companion.render.printkit.icons import draw_icon

        draw_icon(self.canvas, name, x, y, size, rgb(fill) if fill is not None else None,
                  rgb(ink), line_pt / self.unit_pt)

    # -- text -------------------------------------------------------------------------------
    def text(self, x: float, y: float, text: str, *, size_pt: float = 8.0, bold: bool = False,
             colour: Colour = INK, align: str = "left", font: str | None = None) -> None:
        """One line of text with its baseline at y; ``align`` left, centre or right of x."""
        from companion.render import fonts
        from companion.render.printkit.fit import check_glyphs, text_width

        check_glyphs(text, self.what)
        font = font or (fonts.SANS_BOLD if bold else fonts.SANS)
        size = size_pt / self.unit_pt
        w = text_width(text, font, size)
        dx = {"left": 0.0, "centre": -w / 2, "center": -w / 2, "right": -w}[align]
        self._fill(colour)
        self.canvas.setFont(font, size)
        self.canvas.drawString(x + dx, y, text)

    def text_box(self, x: float, y: float, w: float, h: float, text: str, *,
                 max_pt: float = 10.0, min_pt: float = 5.0, colour: Colour = INK,
                 align: str = "left", valign: str = "top") -> float:
        """Text shrunk to fit the box (x, y, w, h) mm; returns the size used (pt).
        Raises TextFitError if it cannot fit at ``min_pt`` condensed."""
        from companion.render.printkit.fit import draw_fitted, fit_text

        u = self.unit_pt
        fitted = fit_text(text, w * u, h * u, max_size=max_pt, min_size=min_pt, what=self.what)
        c = self.canvas
        c.saveState()
        c.scale(1 / u, 1 / u)
        top = (y + h) * u
        if valign == "middle":
            top -= (h * u - fitted.height) / 2
        elif valign == "bottom":
            top -= h * u - fitted.height
        draw_fitted(c, fitted, x * u, top, align=align, width=w * u, colour=rgb(colour))
        c.restoreState()
        return fitted.size

    # -- repeated drawings ------------------------------------------------------------------
    def stamp(self, key, x: float, y: float, size: float, draw) -> None:
        """``draw(pen)`` in the square (x, y, size) mm, where ``pen`` counts in that square
        (0..1 across; line widths and font sizes stay in points).  A drawing that recurs (a
        symbol on every card) is drawn once per kit under ``key``, which must name everything
        it depends on: a kit canvas keeps its operators and writes them again, as it does for
        the icons."""
        c = self.canvas
        c.saveState()
        c.translate(x, y)
        c.scale(size, size)
        unit = Pen(c, 1.0, 1.0, 0.0, self.what)
        unit.unit_pt = self.unit_pt * size
        memo = getattr(c, "icon_memo", None)
        if memo is None:
            draw(unit)
        else:
            code = c._code
            body = memo.get(("stamp", key, self.unit_pt * size))
            if body is None:
                start = len(code)
                draw(unit)
                memo[("stamp", key, self.unit_pt * size)] = tuple(code[start:])
            else:
                code.extend(body)
        c.restoreState()
