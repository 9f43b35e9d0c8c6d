"""Simple vector icons drawn from paths (no images, no borrowed art).

``draw_icon(canvas, name, x, y, size, fill, ink)`` draws icon ``name`` into the square with
lower-left corner (x, y) and side ``size`` (points): shapes are filled with ``fill`` and outlined
and detailed with ``ink``.  ``ICONS`` lists the names.  Each icon is drawn in a unit square.
"""
from __future__ import annotations

import math
from typing import Callable

from companion.errors import UsageError
from companion.render.printkit.colours import INK, RGB, WHITE


class _Unit:
    """Drawing helpers in the unit square."""

    def __init__(self, canvas, fill: RGB, ink: RGB, line: float):
        self.c = canvas
        self.fill = fill
        self.ink = ink
        self.line = line

    def _style(self, fill: RGB | None, stroke: bool, width: float | None = None):
        c = self.c
        if fill is not None:
            c.setFillColorRGB(*fill)
        c.setStrokeColorRGB(*self.ink)
        c.setLineWidth(self.line if width is None else width)

    def poly(self, pts, fill: RGB | None = "default", stroke: bool = True, close: bool = True):
        fill = self.fill if fill == "default" else fill
        p = self.c.beginPath()
        p.moveTo(*pts[0])
        for pt in pts[1:]:
            p.lineTo(*pt)
        if close:
            p.close()
        self._style(fill, stroke)
        self.c.drawPath(p, fill=1 if fill is not None else 0, stroke=1 if stroke else 0)

    def path(self, build: Callable, fill: RGB | None = "default", stroke: bool = True,
             even_odd: bool = False):
        fill = self.fill if fill == "default" else fill
        p = self.c.beginPath()
        build(p)
        self._style(fill, stroke)
        self.c.drawPath(p, fill=1 if fill is not None else 0, stroke=1 if stroke else 0,
                        fillMode=0 if even_odd else 1)

    def circle(self, x, y, r, fill: RGB | None = "default", stroke: bool = True):
        fill = self.fill if fill == "default" else fill
        self._style(fill, stroke)
        self.c.circle(x, y, r, fill=1 if fill is not None else 0, stroke=1 if stroke else 0)

    def rect(self, x, y, w, h, fill: RGB | None = "default", stroke: bool = True, r: float = 0):
        fill = self.fill if fill == "default" else fill
        self._style(fill, stroke)
        if r:
            self.c.roundRect(x, y, w, h, r, fill=1 if fill is not None else 0,
                             stroke=1 if stroke else 0)
        else:
            self.c.rect(x, y, w, h, fill=1 if fill is not None else 0, stroke=1 if stroke else 0)

    def stroke_line(self, x0, y0, x1, y1, width: float | None = None):
        self._style(None, True, width)
        self.c.line(x0, y0, x1, y1)


def _shield(u: _Unit):
    def b(p):
        p.moveTo(0.5, 0.96)
        p.curveTo(0.36, 0.88, 0.24, 0.86, 0.12, 0.86)
        p.lineTo(0.12, 0.52)
        p.curveTo(0.12, 0.28, 0.3, 0.12, 0.5, 0.03)
        p.curveTo(0.7, 0.12, 0.88, 0.28, 0.88, 0.52)
        p.lineTo(0.88, 0.86)
        p.curveTo(0.76, 0.86, 0.64, 0.88, 0.5, 0.96)
        p.close()
    u.path(b)
    u.stroke_line(0.5, 0.9, 0.5, 0.1)
    u.stroke_line(0.16, 0.6, 0.84, 0.6)


def _sword(u: _Unit):
    c = u.c
    c.saveState()
    c.translate(0.5, 0.5)
    c.rotate(-45)
    c.translate(-0.5, -0.5)
    u.poly([(0.5, 1.02), (0.57, 0.86), (0.57, 0.34), (0.43, 0.34), (0.43, 0.86)])
    u.rect(0.26, 0.27, 0.48, 0.08, r=0.03)
    u.rect(0.455, 0.08, 0.09, 0.19)
    u.circle(0.5, 0.06, 0.06)
    u.stroke_line(0.5, 0.38, 0.5, 0.88)
    c.restoreState()


def _heart(u: _Unit):
    def b(p):
        p.moveTo(0.5, 0.08)
        p.curveTo(0.28, 0.28, 0.04, 0.46, 0.06, 0.68)
        p.curveTo(0.08, 0.9, 0.38, 0.98, 0.5, 0.74)
        p.curveTo(0.62, 0.98, 0.92, 0.9, 0.94, 0.68)
        p.curveTo(0.96, 0.46, 0.72, 0.28, 0.5, 0.08)
        p.close()
    u.path(b)


def _star_points(n: int, r_out: float, r_in: float, cx=0.5, cy=0.5, start=90.0):
    pts = []
    for i in range(2 * n):
        r = r_out if i % 2 == 0 else r_in
        a = math.radians(start + i * 180.0 / n)
        pts.append((cx + r * math.cos(a), cy + r * math.sin(a)))
    return pts


def _star(u: _Unit):
    u.poly(_star_points(5, 0.48, 0.2, cy=0.47))


def _crown(u: _Unit):
    u.poly([(0.1, 0.22), (0.9, 0.22), (0.94, 0.74), (0.72, 0.5), (0.5, 0.82), (0.28, 0.5),
            (0.06, 0.74)])
    u.rect(0.1, 0.12, 0.8, 0.1)
    for x, y in ((0.06, 0.77), (0.5, 0.86), (0.94, 0.77)):
        u.circle(x, y, 0.05)
    u.circle(0.5, 0.34, 0.05, fill=u.ink)


def _coin(u: _Unit):
    u.circle(0.5, 0.5, 0.45)
    u.circle(0.5, 0.5, 0.34, fill=None)
    u.poly(_star_points(4, 0.2, 0.07), fill=u.ink, stroke=False)


def _die(u: _Unit):
    u.rect(0.07, 0.07, 0.86, 0.86, r=0.14)
    for x, y in ((0.3, 0.7), (0.7, 0.3), (0.5, 0.5), (0.3, 0.3), (0.7, 0.7)):
        u.circle(x, y, 0.075, fill=u.ink, stroke=False)


def _cup(u: _Unit):
    def bowl(p):
        p.moveTo(0.14, 0.92)
        p.lineTo(0.86, 0.92)
        p.curveTo(0.86, 0.62, 0.7, 0.46, 0.5, 0.46)
        p.curveTo(0.3, 0.46, 0.14, 0.62, 0.14, 0.92)
        p.close()
    u.path(bowl)
    u.rect(0.45, 0.18, 0.1, 0.3)
    u.poly([(0.24, 0.06), (0.76, 0.06), (0.62, 0.18), (0.38, 0.18)])
    u.circle(0.5, 0.33, 0.06)


def _tower(u: _Unit):
    u.poly([(0.22, 0.05), (0.78, 0.05), (0.74, 0.7), (0.26, 0.7)])
    u.poly([(0.18, 0.7), (0.82, 0.7), (0.82, 0.95), (0.7, 0.95), (0.7, 0.86), (0.58, 0.86),
            (0.58, 0.95), (0.42, 0.95), (0.42, 0.86), (0.3, 0.86), (0.3, 0.95), (0.18, 0.95)])

    def door(p):
        p.moveTo(0.41, 0.05)
        p.lineTo(0.41, 0.26)
        p.curveTo(0.41, 0.34, 0.59, 0.34, 0.59, 0.26)
        p.lineTo(0.59, 0.05)
        p.close()
    u.path(door, fill=u.ink, stroke=False)
    u.rect(0.46, 0.46, 0.08, 0.12, fill=u.ink, stroke=False)


def _flag(u: _Unit):
    u.rect(0.14, 0.04, 0.07, 0.92)

    def cloth(p):
        p.moveTo(0.21, 0.92)
        p.curveTo(0.45, 1.0, 0.6, 0.82, 0.9, 0.9)
        p.lineTo(0.9, 0.5)
        p.curveTo(0.6, 0.42, 0.45, 0.6, 0.21, 0.52)
        p.close()
    u.path(cloth)


def _scroll(u: _Unit):
    u.rect(0.2, 0.16, 0.6, 0.68)
    u.rect(0.12, 0.78, 0.76, 0.12, r=0.06)
    u.rect(0.12, 0.1, 0.76, 0.12, r=0.06)
    for y in (0.62, 0.5, 0.38):
        u.stroke_line(0.3, y, 0.7, y)


def _skull(u: _Unit):
    u.circle(0.5, 0.58, 0.36)
    u.rect(0.3, 0.1, 0.4, 0.26, r=0.06)
    u.circle(0.37, 0.58, 0.09, fill=u.ink, stroke=False)
    u.circle(0.63, 0.58, 0.09, fill=u.ink, stroke=False)
    u.poly([(0.5, 0.46), (0.45, 0.36), (0.55, 0.36)], fill=u.ink, stroke=False)
    for x in (0.4, 0.5, 0.6):
        u.stroke_line(x, 0.1, x, 0.22)


def _hourglass(u: _Unit):
    u.rect(0.18, 0.88, 0.64, 0.08)
    u.rect(0.18, 0.04, 0.64, 0.08)
    u.poly([(0.26, 0.88), (0.74, 0.88), (0.54, 0.5), (0.74, 0.12), (0.26, 0.12), (0.46, 0.5)])
    u.poly([(0.34, 0.2), (0.66, 0.2), (0.5, 0.36)], fill=u.ink, stroke=False)


def _arrow(u: _Unit):
    c = u.c
    c.saveState()
    c.translate(0.5, 0.5)
    c.rotate(-45)
    c.translate(-0.5, -0.5)
    u.rect(0.46, 0.12, 0.08, 0.66, fill=u.ink, stroke=False)
    u.poly([(0.5, 1.0), (0.64, 0.76), (0.36, 0.76)])
    u.poly([(0.46, 0.3), (0.34, 0.18), (0.34, 0.02), (0.46, 0.14)])
    u.poly([(0.54, 0.3), (0.66, 0.18), (0.66, 0.02), (0.54, 0.14)])
    c.restoreState()


def _axe(u: _Unit):
    c = u.c
    c.saveState()
    c.translate(0.5, 0.5)
    c.rotate(-30)
    c.translate(-0.5, -0.5)
    u.rect(0.46, 0.02, 0.08, 0.92, r=0.03)

    def blade(p):
        p.moveTo(0.54, 0.84)
        p.curveTo(0.7, 0.86, 0.86, 0.96, 0.9, 1.0)
        p.curveTo(0.98, 0.82, 0.98, 0.6, 0.9, 0.46)
        p.curveTo(0.84, 0.52, 0.7, 0.62, 0.54, 0.64)
        p.close()
    u.path(blade)
    c.restoreState()


def _bolt(u: _Unit):
    u.poly([(0.58, 0.98), (0.2, 0.44), (0.46, 0.44), (0.36, 0.02), (0.8, 0.58), (0.54, 0.58),
            (0.7, 0.98)])


def _eye(u: _Unit):
    def almond(p):
        p.moveTo(0.04, 0.5)
        p.curveTo(0.3, 0.86, 0.7, 0.86, 0.96, 0.5)
        p.curveTo(0.7, 0.14, 0.3, 0.14, 0.04, 0.5)
        p.close()
    u.path(almond, fill=WHITE)
    u.circle(0.5, 0.5, 0.2)
    u.circle(0.5, 0.5, 0.08, fill=u.ink, stroke=False)


def _gem(u: _Unit):
    u.poly([(0.26, 0.84), (0.74, 0.84), (0.96, 0.6), (0.5, 0.06), (0.04, 0.6)])
    u.stroke_line(0.04, 0.6, 0.96, 0.6)
    u.poly([(0.26, 0.84), (0.38, 0.6), (0.5, 0.06), (0.62, 0.6), (0.74, 0.84)], fill=None)


def _key(u: _Unit):
    u.circle(0.27, 0.5, 0.19)
    u.circle(0.27, 0.5, 0.08, fill=WHITE)
    u.rect(0.44, 0.46, 0.52, 0.09)
    u.rect(0.76, 0.3, 0.07, 0.16)
    u.rect(0.88, 0.3, 0.07, 0.16)


def _boot(u: _Unit):
    u.poly([(0.3, 0.96), (0.62, 0.96), (0.62, 0.42), (0.9, 0.3), (0.92, 0.06), (0.22, 0.06),
            (0.24, 0.42)])
    u.rect(0.26, 0.8, 0.38, 0.1, fill=u.ink, stroke=False)


def _moon(u: _Unit):
    def b(p):
        p.moveTo(0.62, 0.94)
        p.curveTo(0.1, 0.98, -0.04, 0.3, 0.42, 0.08)
        p.curveTo(0.62, 0.0, 0.82, 0.06, 0.92, 0.2)
        p.curveTo(0.5, 0.18, 0.3, 0.56, 0.62, 0.94)
        p.close()
    u.path(b)


def _sun(u: _Unit):
    for i in range(8):
        a = math.radians(i * 45)
        u.stroke_line(0.5 + 0.3 * math.cos(a), 0.5 + 0.3 * math.sin(a),
                      0.5 + 0.47 * math.cos(a), 0.5 + 0.47 * math.sin(a), width=u.line * 2.2)
    u.circle(0.5, 0.5, 0.24)


def _tree(u: _Unit):
    u.rect(0.44, 0.04, 0.12, 0.24)
    u.poly([(0.14, 0.24), (0.86, 0.24), (0.5, 0.66)])
    u.poly([(0.2, 0.48), (0.8, 0.48), (0.5, 0.84)])
    u.poly([(0.28, 0.7), (0.72, 0.7), (0.5, 0.98)])


def _mountain(u: _Unit):
    u.poly([(0.02, 0.1), (0.38, 0.82), (0.74, 0.1)])
    u.poly([(0.4, 0.1), (0.68, 0.62), (0.98, 0.1)])
    u.poly([(0.28, 0.62), (0.38, 0.82), (0.48, 0.62), (0.42, 0.66), (0.38, 0.6), (0.33, 0.66)],
           fill=WHITE)


def _pawn(u: _Unit):
    u.circle(0.5, 0.76, 0.16)

    def body(p):
        p.moveTo(0.4, 0.62)
        p.lineTo(0.6, 0.62)
        p.curveTo(0.62, 0.42, 0.7, 0.3, 0.78, 0.2)
        p.lineTo(0.22, 0.2)
        p.curveTo(0.3, 0.3, 0.38, 0.42, 0.4, 0.62)
        p.close()
    u.path(body)
    u.rect(0.16, 0.06, 0.68, 0.14, r=0.04)


def _house(u: _Unit):
    u.rect(0.18, 0.06, 0.64, 0.5)
    u.poly([(0.06, 0.54), (0.5, 0.94), (0.94, 0.54)])
    u.rect(0.42, 0.06, 0.16, 0.26, fill=u.ink, stroke=False)


def _card(u: _Unit):
    u.rect(0.28, 0.18, 0.5, 0.72, fill=WHITE, r=0.06)
    u.rect(0.16, 0.08, 0.5, 0.72, r=0.06)
    u.poly(_star_points(4, 0.12, 0.05, cx=0.41, cy=0.44), fill=u.ink, stroke=False)


def _plus(u: _Unit):
    u.poly([(0.38, 0.08), (0.62, 0.08), (0.62, 0.38), (0.92, 0.38), (0.92, 0.62), (0.62, 0.62),
            (0.62, 0.92), (0.38, 0.92), (0.38, 0.62), (0.08, 0.62), (0.08, 0.38), (0.38, 0.38)])


def _check(u: _Unit):
    u.poly([(0.06, 0.52), (0.2, 0.64), (0.4, 0.42), (0.82, 0.92), (0.96, 0.8), (0.4, 0.14)])


def _hexagon(u: _Unit):
    u.poly([(0.5 + 0.46 * math.cos(math.radians(30 + 60 * i)),
             0.5 + 0.46 * math.sin(math.radians(30 + 60 * i))) for i in range(6)])


def _circle(u: _Unit):
    u.circle(0.5, 0.5, 0.44)


def _square(u: _Unit):
    u.rect(0.1, 0.1, 0.8, 0.8)


def _diamond(u: _Unit):
    u.poly([(0.5, 0.96), (0.9, 0.5), (0.5, 0.04), (0.1, 0.5)])


def _triangle(u: _Unit):
    u.poly([(0.5, 0.94), (0.95, 0.1), (0.05, 0.1)])


def _rabbit(u: _Unit):
    def ear(p, x):
        p.moveTo(x - 0.06, 0.56)
        p.curveTo(x - 0.1, 0.8, x - 0.06, 0.98, x, 0.98)
        p.curveTo(x + 0.06, 0.98, x + 0.1, 0.8, x + 0.06, 0.56)
        p.close()
    u.path(lambda p: ear(p, 0.38))
    u.path(lambda p: ear(p, 0.62))
    u.circle(0.5, 0.28, 0.26)
    u.circle(0.5, 0.5, 0.16)
    u.circle(0.44, 0.52, 0.03, fill=u.ink, stroke=False)
    u.circle(0.56, 0.52, 0.03, fill=u.ink, stroke=False)


def _horseshoe(u: _Unit):
    def b(p):
        p.moveTo(0.16, 0.1)
        p.curveTo(0.04, 0.6, 0.2, 0.94, 0.5, 0.94)
        p.curveTo(0.8, 0.94, 0.96, 0.6, 0.84, 0.1)
        p.lineTo(0.66, 0.1)
        p.curveTo(0.76, 0.5, 0.7, 0.74, 0.5, 0.74)
        p.curveTo(0.3, 0.74, 0.24, 0.5, 0.34, 0.1)
        p.close()
    u.path(b)


def _banner(u: _Unit):
    u.poly([(0.2, 0.96), (0.8, 0.96), (0.8, 0.1), (0.5, 0.3), (0.2, 0.1)])
    u.poly(_star_points(5, 0.16, 0.07, cy=0.62), fill=u.ink, stroke=False)


ICONS: dict[str, Callable[[_Unit], None]] = {
    "shield": _shield, "sword": _sword, "heart": _heart, "star": _star, "crown": _crown,
    "coin": _coin, "die": _die, "cup": _cup, "tower": _tower, "flag": _flag, "scroll": _scroll,
    "skull": _skull, "hourglass": _hourglass, "arrow": _arrow, "axe": _axe, "bolt": _bolt,
    "eye": _eye, "gem": _gem, "key": _key, "boot": _boot, "moon": _moon, "sun": _sun,
    "tree": _tree, "mountain": _mountain, "pawn": _pawn, "house": _house, "card": _card,
    "plus": _plus, "check": _check, "hexagon": _hexagon, "circle": _circle, "square": _square,
    "diamond": _diamond, "triangle": _triangle, "rabbit": _rabbit, "horseshoe": _horseshoe,
    "banner": _banner,
}

DEFAULT_FILLS: dict[str, str] = {
    "shield": "#8aa4c8", "sword": "#c9ced6", "heart": "#d0473f", "star": "#e8c547",
    "crown": "#e0b53a", "coin": "#e0b53a", "die": "#ffffff", "cup": "#e0b53a", "tower": "#b9b1a0",
    "flag": "#c0392b", "scroll": "#efe3c2", "skull": "#f2efe6", "hourglass": "#e6d2a0",
    "arrow": "#c9ced6", "axe": "#c9ced6", "bolt": "#f2c230", "eye": "#6aa0d8", "gem": "#5fb7c9",
    "key": "#e0b53a", "boot": "#8a5a35", "moon": "#f0e6a8", "sun": "#f2c230", "tree": "#4f8a3c",
    "mountain": "#9b9488", "pawn": "#c9a227", "house": "#d9a066", "card": "#8aa4c8",
    "plus": "#4f8a3c", "check": "#4f8a3c", "hexagon": "#8aa4c8", "circle": "#8aa4c8",
    "square": "#8aa4c8", "diamond": "#d0473f", "triangle": "#e8c547", "rabbit": "#f2efe6",
    "horseshoe": "#9aa0a8", "banner": "#c0392b",
}


def check_icon(name: str, what: str = "icon") -> str:
    """Return ``name`` if it is a known icon, else raise a UsageError with a suggestion."""
    if name in ICONS:
        return name
    import difflib

    close = difflib.get_close_matches(str(name), list(ICONS), n=1, cutoff=0.5)
    hint = (f"did you mean '{close[0]}'? " if close else "") + "known icons: " + ", ".join(ICONS)
    raise UsageError(f"{what}: unknown icon '{name}'", hint=hint)


def draw_icon(canvas, name: str, x: float, y: float, size: float, fill: RGB | None = None,
              ink: RGB = INK, line: float = 0.7) -> None:
    """Draw icon ``name`` in the square (x, y, size, size); ``line`` is the outline in points."""
    from companion.render.printkit.colours import rgb

    check_icon(name)
    fill = fill if fill is not None else rgb(DEFAULT_FILLS.get(name, "#8aa4c8"))
    canvas.saveState()
    canvas.translate(x, y)
    canvas.scale(size, size)
    canvas.setLineJoin(1)
    canvas.setLineCap(1)
    # the icon's own operators do not depend on where it goes: a kit canvas keeps them and
    # writes them again for the next icon of the same look (the same bytes, drawn once)
    memo = getattr(canvas, "icon_memo", None)
    if memo is None:
        ICONS[name](_Unit(canvas, fill, ink, line / size))
    else:
        key = (name, fill, ink, line / size)
        code = canvas._code
        body = memo.get(key)
        if body is None:
            start = len(code)
            ICONS[name](_Unit(canvas, fill, ink, line / size))
            memo[key] = tuple(code[start:])
        else:
            code.extend(body)
    canvas.restoreState()
