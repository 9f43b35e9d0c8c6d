"""Units, paper and card sizes, and the plain geometry the layout engine works with.

Everything here is pure Python (no reportlab), so the command line can parse options and tests
can check layouts without loading the PDF machinery.  Lengths in the layout are PDF points
(1/72 inch), origin at the bottom-left corner of the page, y upwards, as in PDF itself; sizes the
user types are millimetres.
"""
from __future__ import annotations

from dataclasses import dataclass

MM = 72.0 / 25.4
"""Points per millimetre."""

EPS = 1e-6
"""Tolerance (points) for geometric comparisons."""


def mm(value: float) -> float:
    """Millimetres to points."""
    return value * MM


def to_mm(points: float) -> float:
    """Points to millimetres."""
    return points / MM


@dataclass(frozen=True)
class Rect:
    """An axis-aligned rectangle in points: lower-left corner (x, y), width w, height h."""

    x: float
    y: float
    w: float
    h: float

    @property
    def x1(self) -> float:
        return self.x + self.w

    @property
    def y1(self) -> float:
        return self.y + self.h

    @property
    def cx(self) -> float:
        return self.x + self.w / 2

    @property
    def cy(self) -> float:
        return self.y + self.h / 2

    def inset(self, d: float) -> "Rect":
        """The rectangle shrunk by ``d`` on every side (grown if ``d`` is negative)."""
        return Rect(self.x + d, self.y + d, self.w - 2 * d, self.h - 2 * d)

    def grow(self, d: float) -> "Rect":
        return self.inset(-d)

    def moved(self, dx: float, dy: float) -> "Rect":
        return Rect(self.x + dx, self.y + dy, self.w, self.h)

    def contains(self, other: "Rect", tol: float = EPS) -> bool:
        return (other.x >= self.x - tol and other.y >= self.y - tol
                and other.x1 <= self.x1 + tol and other.y1 <= self.y1 + tol)

    def overlaps(self, other: "Rect", tol: float = EPS) -> bool:
        """True if the interiors intersect (touching edges do not count)."""
        return (self.x < other.x1 - tol and other.x < self.x1 - tol
                and self.y < other.y1 - tol and other.y < self.y1 - tol)

    def contains_point(self, x: float, y: float, tol: float = EPS) -> bool:
        return self.x - tol <= x <= self.x1 + tol and self.y - tol <= y <= self.y1 + tol

    def distance_to_segment(self, seg: "Segment") -> float:
        """Shortest distance from this rectangle to an axis-parallel segment (0 if they meet)."""
        if seg.x0 == seg.x1:  # vertical
            lo, hi = sorted((seg.y0, seg.y1))
            dx = max(self.x - seg.x0, 0.0, seg.x0 - self.x1)
            dy = max(self.y - hi, 0.0, lo - self.y1)
        else:  # horizontal
            lo, hi = sorted((seg.x0, seg.x1))
            dx = max(self.x - hi, 0.0, lo - self.x1)
            dy = max(self.y - seg.y0, 0.0, seg.y0 - self.y1)
        return (dx * dx + dy * dy) ** 0.5

    def as_mm(self) -> tuple[float, float, float, float]:
        return (to_mm(self.x), to_mm(self.y), to_mm(self.w), to_mm(self.h))


@dataclass(frozen=True)
class Segment:
    """A straight, axis-parallel line from (x0, y0) to (x1, y1), in points."""

    x0: float
    y0: float
    x1: float
    y1: float

    @property
    def length(self) -> float:
        return abs(self.x1 - self.x0) + abs(self.y1 - self.y0)

    def inside(self, rect: Rect, tol: float = EPS) -> bool:
        return rect.contains_point(self.x0, self.y0, tol) and rect.contains_point(self.x1, self.y1, tol)


@dataclass(frozen=True)
class Paper:
    """A paper size in points, portrait."""

    name: str
    label: str
    width: float
    height: float

    @property
    def rect(self) -> Rect:
        return Rect(0.0, 0.0, self.width, self.height)


A4 = Paper("a4", "A4 (210 x 297 mm)", mm(210), mm(297))
LETTER = Paper("letter", "US Letter (8.5 x 11 in)", 612.0, 792.0)
PAPERS: dict[str, Paper] = {"a4": A4, "letter": LETTER}


@dataclass(frozen=True)
class CardSize:
    """A card (or chit, tile) size in millimetres, as cut: width x height, portrait as designed."""

    width_mm: float
    height_mm: float
    name: str = ""

    @property
    def width(self) -> float:
        return mm(self.width_mm)

    @property
    def height(self) -> float:
        return mm(self.height_mm)

    @property
    def label(self) -> str:
        dims = f"{_num(self.width_mm)} x {_num(self.height_mm)} mm"
        return f"{self.name} {dims}" if self.name else dims


def _num(value: float) -> str:
    return f"{value:g}"


CARD_SIZES: dict[str, CardSize] = {
    "poker": CardSize(63, 88, "poker"),
    "bridge": CardSize(57, 89, "bridge"),
    "tarot": CardSize(70, 120, "tarot"),
    "mini-euro": CardSize(44, 67, "mini-euro"),
    "mini-usa": CardSize(41, 63, "mini-usa"),
}
"""The named card sizes the ``--card`` option accepts (custom sizes are typed as ``WxH``)."""
