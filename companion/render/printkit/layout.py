"""The layout engine.  Its output is data: for every sheet, where each item (card, chit, standee)
is cut (trim rectangle), how far its background runs (bleed rectangle), how it is turned, where
the crop marks, cut lines and fold lines go, and where its back lands on the reverse.

Pure Python, no reportlab: tests check this data, and the drawing code only follows it.

Conventions
-----------
* Points, origin at the page's lower-left corner, y up (PDF's own space).
* Every item has local coordinates (u, v): (0, 0) is the lower-left corner of the item as
  designed (upright), (w, h) the upper-right; ``Slot.transform`` maps them to the page.
* The *safe area* is the page inset by the safe margin (at least 8 mm); everything printed
  lies inside it.  Its lowest strip (``NOTICE_STRIP``) holds the small print ("print at 100%").
* Duplex: turning a sheet over on its long edge maps a front point (x, y) to the back-page
  point (W - x, y); on its short edge to (x, H - y).  Each back is placed so that it lies exactly
  behind its front and reads upright when the cut item is turned over sideways (about its own
  vertical axis), then shifted by the printer's back offset.
* Back offset (X, Y) mm: moves the backs X right and Y up *as seen from the front* of the sheet;
  the calibration sheet tells the user the numbers.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field

from companion.errors import UsageError
from companion.render.printkit.units import EPS, CardSize, Paper, Rect, Segment, mm, to_mm

NOTICE_STRIP = mm(3.5)
"""Height of the strip at the bottom of the safe area that holds the print-at-100% notice."""
MARK_GAP = mm(0.5)
"""Crop marks start this far beyond the bleed (so they never touch a card's printed area)."""
MARK_MIN = mm(1.5)
MARK_MAX = mm(5.0)

Affine = tuple[float, float, float, float, float, float]
"""(a, b, c, d, e, f): page = (a*u + c*v + e, b*u + d*v + f), as in PDF's ``cm`` operator."""


def apply(t: Affine, u: float, v: float) -> tuple[float, float]:
    a, b, c, d, e, f = t
    return (a * u + c * v + e, b * u + d * v + f)


def compose(outer: Affine, inner: Affine) -> Affine:
    """The transform doing ``inner`` first, then ``outer``."""
    a1, b1, c1, d1, e1, f1 = outer
    a2, b2, c2, d2, e2, f2 = inner
    return (a1 * a2 + c1 * b2, b1 * a2 + d1 * b2,
            a1 * c2 + c1 * d2, b1 * c2 + d1 * d2,
            a1 * e2 + c1 * f2 + e1, b1 * e2 + d1 * f2 + f1)


def rotation_of(t: Affine) -> int:
    """The rotation (degrees counter-clockwise: 0, 90, 180, 270) of a rigid transform."""
    a, b = t[0], t[1]
    return int(round(math.degrees(math.atan2(b, a)))) % 360


def _clean(value: float) -> float:
    r = round(value, 9)
    return 0.0 if r == 0 else r


def _clean_t(t: Affine) -> Affine:
    return tuple(_clean(v) for v in t)  # type: ignore[return-value]


def bounds_of(t: Affine, w: float, h: float, grow: float = 0.0) -> Rect:
    """The page rectangle covered by the local rectangle (-grow, -grow)..(w+grow, h+grow)."""
    pts = [apply(t, u, v) for u in (-grow, w + grow) for v in (-grow, h + grow)]
    xs = [p[0] for p in pts]
    ys = [p[1] for p in pts]
    return Rect(_clean(min(xs)), _clean(min(ys)), _clean(max(xs) - min(xs)), _clean(max(ys) - min(ys)))


@dataclass(frozen=True)
class Slot:
    """One item on one page."""

    index: int
    """Position of the item in the sequence being laid out (0-based)."""
    side: str
    """'front' or 'back'."""
    row: int
    col: int
    trim: Rect
    """Where the item is cut: exactly the item's size (width and height swap if turned)."""
    bleed: Rect
    """The trim grown by the bleed: the item's background runs to here."""
    transform: Affine
    """Item-local (upright, lower-left origin) coordinates to page coordinates."""

    @property
    def rotation(self) -> int:
        return rotation_of(self.transform)


@dataclass
class PageLayout:
    """What goes on one page of a sheet set."""

    role: str
    """'front', 'back' (the reverse of a duplex sheet) or 'fold' (fronts and backs together)."""
    paper: Paper
    safe: Rect
    notice: Rect
    slots: list[Slot] = field(default_factory=list)
    crop_marks: list[Segment] = field(default_factory=list)
    cut_lines: list[Segment] = field(default_factory=list)
    fold_lines: list[Segment] = field(default_factory=list)


@dataclass
class Sheet:
    """One physical sheet: its front page, and in duplex modes the page printed on its back."""

    number: int
    front: PageLayout
    back: PageLayout | None = None

    @property
    def pages(self) -> list[PageLayout]:
        return [self.front] + ([self.back] if self.back is not None else [])


@dataclass
class SheetPlan:
    """The layout of a run of same-sized items over as many sheets as needed."""

    paper: Paper
    size: CardSize
    count: int
    backs: str
    bleed: float
    gap: float
    cols: int
    rows: int
    rotated: bool
    fold_axis: str | None
    """'vertical' (fronts left, backs right) or 'horizontal' (fronts top, backs bottom) in fold mode."""
    per_sheet: int
    sheets: list[Sheet]
    back_offset_mm: tuple[float, float] = (0.0, 0.0)

    @property
    def pages(self) -> list[PageLayout]:
        return [p for s in self.sheets for p in s.pages]


@dataclass(frozen=True)
class _Grid:
    cols: int
    rows: int
    rotated: bool
    cell_w: float
    cell_h: float
    x0: float
    y_top: float
    pitch_x: float
    pitch_y: float


def content_area(paper: Paper, margin_mm: float) -> tuple[Rect, Rect, Rect]:
    """(safe area, notice strip, area left for content) of a page."""
    safe = paper.rect.inset(mm(margin_mm))
    notice = Rect(safe.x, safe.y, safe.w, NOTICE_STRIP)
    area = Rect(safe.x, safe.y + NOTICE_STRIP, safe.w, safe.h - NOTICE_STRIP)
    return safe, notice, area


def _count(avail: float, cell: float, pitch_gap: float, room: float) -> int:
    """How many cells of size ``cell`` separated by ``pitch_gap`` fit in ``avail`` with ``room``
    kept free on both sides."""
    usable = avail - 2 * room
    if usable + EPS < cell:
        return 0
    return int(math.floor((usable - cell + EPS) / (cell + pitch_gap))) + 1


def _grid(area: Rect, w: float, h: float, gap: float, room: float, rotated: bool,
          cols: int | None = None, rows: int | None = None) -> _Grid:
    cw, ch = (h, w) if rotated else (w, h)
    cols = _count(area.w, cw, gap, room) if cols is None else cols
    rows = _count(area.h, ch, gap, room) if rows is None else rows
    gw = cols * cw + max(cols - 1, 0) * gap
    gh = rows * ch + max(rows - 1, 0) * gap
    x0 = area.x + (area.w - gw) / 2
    y_top = area.y + (area.h + gh) / 2
    return _Grid(cols, rows, rotated, cw, ch, x0, y_top, cw + gap, ch + gap)


def _front_transform(g: _Grid, row: int, col: int, w: float, h: float) -> Affine:
    x = g.x0 + col * g.pitch_x
    y = g.y_top - row * g.pitch_y - g.cell_h
    if g.rotated:
        # turned a quarter counter-clockwise: the item's top points to the page's left
        return _clean_t((0.0, 1.0, -1.0, 0.0, x + h, y))
    return _clean_t((1.0, 0.0, 0.0, 1.0, x, y))


def _flip_for_duplex(backs: str, paper: Paper) -> Affine:
    """Front-page point -> the back-page point behind it."""
    if backs == "duplex-long":
        return (-1.0, 0.0, 0.0, 1.0, paper.width, 0.0)
    return (1.0, 0.0, 0.0, -1.0, 0.0, paper.height)


def _flip_rect(flip: Affine, r: Rect) -> Rect:
    return bounds_of(compose(flip, (1.0, 0.0, 0.0, 1.0, r.x, r.y)), r.w, r.h)


def _offset_on_back(backs: str, offset_mm: tuple[float, float]) -> tuple[float, float]:
    """The back offset (as seen from the front) in back-page coordinates."""
    ox, oy = mm(offset_mm[0]), mm(offset_mm[1])
    if backs == "duplex-long":
        return (-ox, oy)
    if backs == "duplex-short":
        return (ox, -oy)
    return (0.0, 0.0)


def back_transform(front: Affine, flip: Affine, w: float) -> Affine:
    """Where the back of an item goes, given its front transform and the sheet's flip.

    Turning the cut item over about its own vertical axis, the back-local point (w - u, v) lies
    behind the front-local point (u, v); so back(u', v') = flip(front(w - u', v'))."""
    mirror_item = (-1.0, 0.0, 0.0, 1.0, w, 0.0)
    return _clean_t(compose(flip, compose(front, mirror_item)))


def _marks(slots: list[Slot], bleed: float, area: Rect, crop: bool, cut: bool,
           paper: Paper) -> tuple[list[Segment], list[Segment]]:
    if not slots:
        return [], []
    xs = sorted({_clean(v) for s in slots for v in (s.trim.x, s.trim.x1)})
    ys = sorted({_clean(v) for s in slots for v in (s.trim.y, s.trim.y1)})
    xs = _dedupe(xs)
    ys = _dedupe(ys)
    left, right = min(s.trim.x for s in slots), max(s.trim.x1 for s in slots)
    bottom, top = min(s.trim.y for s in slots), max(s.trim.y1 for s in slots)
    crop_marks: list[Segment] = []
    if crop:
        start = bleed + MARK_GAP
        for edge, room, direction in ((top, area.y1 - top, 1), (bottom, bottom - area.y, -1)):
            length = min(MARK_MAX, room - start)
            if length < MARK_MIN - EPS:
                continue
            a, b = edge + direction * start, edge + direction * (start + length)
            crop_marks += [Segment(x, min(a, b), x, max(a, b)) for x in xs]
        for edge, room, direction in ((left, left - area.x, -1), (right, area.x1 - right, 1)):
            length = min(MARK_MAX, room - start)
            if length < MARK_MIN - EPS:
                continue
            a, b = edge + direction * start, edge + direction * (start + length)
            crop_marks += [Segment(min(a, b), y, max(a, b), y) for y in ys]
    cut_lines: list[Segment] = []
    if cut:
        cut_lines += [Segment(x, bottom, x, top) for x in xs]
        cut_lines += [Segment(left, y, right, y) for y in ys]
    return crop_marks, cut_lines


def _on_line(seg: Segment, line: Segment) -> bool:
    """True if ``seg`` lies on the infinite extension of ``line`` (both axis-parallel)."""
    if line.x0 == line.x1:
        return seg.x0 == seg.x1 and abs(seg.x0 - line.x0) < 1e-4
    return seg.y0 == seg.y1 and abs(seg.y0 - line.y0) < 1e-4


def _dedupe(values: list[float]) -> list[float]:
    out: list[float] = []
    for v in values:
        if not out or abs(v - out[-1]) > 1e-4:
            out.append(v)
    return out


def layout_items(count: int, size: CardSize, paper: Paper, *, margin_mm: float = 8.0,
                 bleed_mm: float = 0.0, gap_mm: float = 0.0, backs: str = "none",
                 back_offset_mm: tuple[float, float] = (0.0, 0.0), crop_marks: bool = True,
                 cut_lines: bool = False, rotate: bool = True, what: str = "cards") -> SheetPlan:
    """Lay ``count`` items of ``size`` out on sheets of ``paper``.

    The effective gap between neighbours is at least twice the bleed, so one item's bleed never
    covers its neighbour's.  With ``rotate`` the items are turned sideways when more fit per
    sheet that way.  Raises ``UsageError`` if not even one item fits.
    """
    if count < 0:
        raise ValueError("count must be >= 0")
    w, h = size.width, size.height
    bleed = mm(bleed_mm)
    gap = max(mm(gap_mm), 2 * bleed)
    safe, notice, area = content_area(paper, margin_mm)
    room = (bleed + MARK_GAP + MARK_MIN) if crop_marks else bleed

    candidates: list[tuple[int, int, _Grid, str | None]] = []
    for order, rotated in enumerate((False, True) if rotate else (False,)):
        g = _grid(area, w, h, gap, room, rotated)
        if backs == "fold":
            for axis_order, axis in enumerate(("vertical", "horizontal")):
                cols = g.cols - g.cols % 2 if axis == "vertical" else g.cols
                rows = g.rows - g.rows % 2 if axis == "horizontal" else g.rows
                per = cols * rows // 2
                if per > 0:
                    candidates.append((per, -(order * 2 + axis_order),
                                       _grid(area, w, h, gap, room, rotated, cols, rows), axis))
        elif g.cols * g.rows > 0:
            candidates.append((g.cols * g.rows, -order, g, None))
    if not candidates:
        need = f"{to_mm(w + 2 * room):.0f} x {to_mm(h + 2 * room):.0f} mm"
        if backs == "fold":
            need += " twice (front and back side by side)"
        raise UsageError(
            f"{what} of {size.label} do not fit on {paper.label}: with the "
            f"{margin_mm:g} mm safe margin, bleed and crop marks each needs {need}, the page "
            f"offers {to_mm(area.w):.0f} x {to_mm(area.h):.0f} mm",
            hint="choose a smaller card size, less bleed, --no-crop-marks, or other backs")
    per, _, g, axis = max(candidates, key=lambda c: (c[0], c[1]))

    sheets: list[Sheet] = []
    n_sheets = max(1, math.ceil(count / per)) if count else 0
    flip = _flip_for_duplex(backs, paper) if backs in ("duplex-long", "duplex-short") else None
    off_x, off_y = _offset_on_back(backs, back_offset_mm)
    if axis == "vertical":
        fronts = [(r, c) for r in range(g.rows) for c in range(g.cols // 2)]
        fold_x = g.x0 + (g.cols // 2) * g.pitch_x - gap / 2
        fold_flip: Affine = (-1.0, 0.0, 0.0, 1.0, 2 * fold_x, 0.0)
    elif axis == "horizontal":
        fronts = [(r, c) for r in range(g.rows // 2) for c in range(g.cols)]
        fold_y = g.y_top - (g.rows // 2) * g.pitch_y + gap / 2
        fold_flip = (1.0, 0.0, 0.0, -1.0, 0.0, 2 * fold_y)
    else:
        fronts = [(r, c) for r in range(g.rows) for c in range(g.cols)]

    def place(k: int) -> tuple[tuple, tuple | None]:
        """Where the item in position ``k`` of a sheet goes, front and back (row, column,
        trim, bleed, transform): the same on every sheet."""
        r, c = fronts[k]
        t = _front_transform(g, r, c, w, h)
        front_at = (r, c, bounds_of(t, w, h), bounds_of(t, w, h, bleed), t)
        if axis:
            bt = back_transform(t, fold_flip, w)
            br, bc = ((r, g.cols - 1 - c) if axis == "vertical" else (g.rows - 1 - r, c))
        elif flip is not None:
            bt = back_transform(t, flip, w)
            bt = _clean_t((bt[0], bt[1], bt[2], bt[3], bt[4] + off_x, bt[5] + off_y))
            br, bc = ((r, g.cols - 1 - c) if backs == "duplex-long" else (g.rows - 1 - r, c))
        else:
            return front_at, None
        return front_at, (br, bc, bounds_of(bt, w, h), bounds_of(bt, w, h, bleed), bt)

    places = [place(k) for k in range(min(per, count))]
    marks: dict[int, tuple[list[Segment], list[Segment]]] = {}  # by the items on the sheet
    for s in range(n_sheets):
        first = s * per
        n = min(per, count - first)
        role = "fold" if axis else "front"
        front = PageLayout(role, paper, safe, notice)
        # the back's small print goes behind the front's (at the top after a short-edge flip)
        back = PageLayout("back", paper, safe, _flip_rect(flip, notice)) if flip else None
        for k in range(n):
            front_at, back_at = places[k]
            front.slots.append(Slot(first + k, "front", *front_at))
            if axis:
                front.slots.append(Slot(first + k, "back", *back_at))
            elif back is not None:
                back.slots.append(Slot(first + k, "back", *back_at))
        if n not in marks:
            marks[n] = _marks(front.slots, bleed, area, crop_marks, cut_lines, paper)
        front.crop_marks, front.cut_lines = list(marks[n][0]), list(marks[n][1])
        if axis and front.slots:
            xs = [v for sl in front.slots for v in (sl.trim.x, sl.trim.x1)]
            ys = [v for sl in front.slots for v in (sl.trim.y, sl.trim.y1)]
            # the fold line runs past the items into the margin band, where it shows on white
            reach = bleed + MARK_GAP + MARK_MAX
            if axis == "vertical":
                lo, hi = max(area.y, min(ys) - reach), min(area.y1, max(ys) + reach)
                front.fold_lines = [Segment(_clean(fold_x), _clean(lo), _clean(fold_x), _clean(hi))]
            else:
                lo, hi = max(area.x, min(xs) - reach), min(area.x1, max(xs) + reach)
                front.fold_lines = [Segment(_clean(lo), _clean(fold_y), _clean(hi), _clean(fold_y))]
            # without a gap the fold is the shared edge of front and back: it must not be cut
            fold = front.fold_lines[0]
            front.crop_marks = [m for m in front.crop_marks if not _on_line(m, fold)]
            front.cut_lines = [m for m in front.cut_lines if not _on_line(m, fold)]
        sheets.append(Sheet(s + 1, front, back))
    return SheetPlan(paper, size, count, backs, bleed, gap, g.cols, g.rows, g.rotated, axis,
                     per, sheets, tuple(back_offset_mm))


# ----------------------------------------------------------------------------------------------
# Boards tiled over several pages


@dataclass(frozen=True)
class Tile:
    """One page of a tiled board."""

    name: str
    """Column letter and row number, 'A1' at the top left of the assembled board."""
    col: int
    row: int
    window: Rect
    """The part of the board (board coordinates, points, after turning) this page shows."""
    place: Rect
    """Where that part is printed on the page."""
    glue: tuple[tuple[str, Rect], ...]
    """Strips covered by a neighbour after assembly: (neighbour name, page rectangle)."""
    cut_edges: tuple[str, ...]
    """Edges ('left', 'top') of this tile that are laid over a neighbour's glue strip."""
    sheet: int = 0
    """The page (0-based, among the board's tile pages) it is printed on: small tiles share a
    page, each in its own frame."""

    @property
    def transform(self) -> Affine:
        """Board coordinates (after turning) -> page coordinates."""
        return (1.0, 0.0, 0.0, 1.0, self.place.x - self.window.x, self.place.y - self.window.y)


@dataclass
class BoardPlan:
    width: float
    height: float
    """Size of the board as printed (points), after turning."""
    rotated: bool
    """True if the board is turned a quarter counter-clockwise to need fewer pages."""
    cols: int
    rows: int
    overlap: float
    tiles: list[Tile]
    safe: Rect
    notice: Rect
    area: Rect
    paper: Paper

    @property
    def board_transform(self) -> Affine:
        """Board coordinates as designed -> board coordinates as printed (turned or not)."""
        if self.rotated:
            return (0.0, 1.0, -1.0, 0.0, self.width, 0.0)
        return (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)


def column_name(i: int) -> str:
    name = ""
    i += 1
    while i:
        i, r = divmod(i - 1, 26)
        name = chr(65 + r) + name
    return name


TILE_SEP = mm(6)
"""Between tiles that share a page: room to cut each along its own frame."""


def _tiles_needed(total: float, avail: float, overlap: float) -> int:
    if total <= avail + EPS:
        return 1
    return math.ceil((total - overlap - EPS) / (avail - overlap))


def tile_board(width_mm: float, height_mm: float, paper: Paper, *, margin_mm: float = 8.0,
               overlap_mm: float = 10.0, rotate: bool = True) -> BoardPlan:
    """Split a board of ``width_mm`` x ``height_mm`` into page-sized tiles that overlap by
    ``overlap_mm``; all tiles of a board have the same size.  Each tile but the last in its row
    (column) keeps a glue strip of the overlap's width on its right (bottom) edge; the
    neighbour is cut along its edge and laid on that strip.  Tiles small enough to share a page
    do (``Tile.sheet``), in reading order, each in its own frame ``TILE_SEP`` apart: a strip of
    two tiles takes one page instead of two, and is cut and glued the same way.  The board is
    turned a quarter when that needs fewer pages."""
    safe, notice, area = content_area(paper, margin_mm)
    overlap = mm(overlap_mm)
    if overlap * 2 >= min(area.w, area.h):
        raise UsageError(f"board overlap of {overlap_mm:g} mm is too large for {paper.label}")
    options = []
    for rotated in ((False, True) if rotate else (False,)):
        bw, bh = (mm(height_mm), mm(width_mm)) if rotated else (mm(width_mm), mm(height_mm))
        cols = _tiles_needed(bw, area.w, overlap)
        rows = _tiles_needed(bh, area.h, overlap)
        tw = bw if cols == 1 else (bw + (cols - 1) * overlap) / cols
        th = bh if rows == 1 else (bh + (rows - 1) * overlap) / rows
        across = max(1, _count(area.w, tw, TILE_SEP, 0.0))
        down = max(1, _count(area.h, th, TILE_SEP, 0.0))
        per_page = min(across * down, cols * rows)
        pages = math.ceil(cols * rows / per_page)
        options.append(((pages, cols * rows, int(rotated)), rotated, bw, bh, cols, rows, tw, th,
                        across, per_page))
    _, rotated, bw, bh, cols, rows, tw, th, across, per_page = min(options, key=lambda o: o[0])
    tiles = []
    for row in range(rows):
        for col in range(cols):
            k = row * cols + col
            sheet, at = divmod(k, per_page)
            # the tiles of this page, centred as a block (one tile: centred on the page)
            on_page = min(per_page, cols * rows - sheet * per_page)
            used_across = min(across, on_page)
            used_down = math.ceil(on_page / across)
            block_w = used_across * tw + (used_across - 1) * TILE_SEP
            block_h = used_down * th + (used_down - 1) * TILE_SEP
            r, c = divmod(at, across)
            px = area.x + (area.w - block_w) / 2 + c * (tw + TILE_SEP)
            py = area.y + (area.h + block_h) / 2 - r * (th + TILE_SEP) - th
            wx = col * (tw - overlap)
            wy = bh - th - row * (th - overlap)
            window = Rect(_clean(wx), _clean(wy), _clean(tw), _clean(th))
            place = Rect(_clean(px), _clean(py), _clean(tw), _clean(th))
            glue = []
            if col < cols - 1:
                glue.append((column_name(col + 1) + str(row + 1),
                             Rect(_clean(place.x1 - overlap), place.y, _clean(overlap), place.h)))
            if row < rows - 1:
                glue.append((column_name(col) + str(row + 2),
                             Rect(place.x, place.y, place.w, _clean(overlap))))
            cut = tuple(e for e, on in (("left", col > 0), ("top", row > 0)) if on)
            tiles.append(Tile(column_name(col) + str(row + 1), col, row, window, place,
                              tuple(glue), cut, sheet))
    return BoardPlan(bw, bh, rotated, cols, rows, overlap, tiles, safe, notice, area, paper)


# ----------------------------------------------------------------------------------------------
# Items of several sizes sharing pages


def layout_groups(groups: list[tuple[CardSize, int]], paper: Paper, *, margin_mm: float = 8.0,
                  bleed_mm: float = 0.0, gap_mm: float = 0.0, crop_marks: bool = True,
                  cut_lines: bool = False, rotate: bool = True, what: str = "items") -> SheetPlan:
    """Lay out one-sided items of several sizes: ``groups`` of (size, count), in order.  Each
    size keeps the grid :func:`layout_items` gives it (columns, turned or not), in rows of its
    own; a page takes the rows of the next size below those of the last when they fit.  The
    rows of one size on a page form a *section* with crop marks (and cut lines) of its own,
    kept within its band of the page: the sheet is cut between the sections first, then each
    section as usual.  Sections stand far enough apart for the marks of both, 2 mm clear of
    each other; the whole stack is centred on the page.  Slot indexes run through the groups in
    order.  One size alone is laid out exactly as :func:`layout_items` does."""
    groups = [(size, n) for size, n in groups if n > 0]
    if len({(s.width_mm, s.height_mm) for s, _ in groups}) <= 1:
        size = groups[0][0] if groups else CardSize(1.0, 1.0)
        return layout_items(sum(n for _, n in groups), size, paper, margin_mm=margin_mm,
                            bleed_mm=bleed_mm, gap_mm=gap_mm, crop_marks=crop_marks,
                            cut_lines=cut_lines, rotate=rotate, what=what)
    bleed = mm(bleed_mm)
    gap = max(mm(gap_mm), 2 * bleed)
    safe, notice, area = content_area(paper, margin_mm)
    room = (bleed + MARK_GAP + MARK_MIN) if crop_marks else bleed
    # between sections: room for the bottom marks of one and the top marks of the next
    # (2.5 mm each) with 2 mm clear between them, so each set reads as its section's
    clear = mm(2)
    sep = max(gap, 2 * (bleed + MARK_GAP + mm(2.5)) + clear if crop_marks
              else 2 * bleed + clear)
    avail = area.h - 2 * room
    grids = []
    for size, n in groups:
        alone = layout_items(n, size, paper, margin_mm=margin_mm, bleed_mm=bleed_mm,
                             gap_mm=gap_mm, crop_marks=crop_marks, cut_lines=cut_lines,
                             rotate=rotate, what=what)
        grids.append((size, n, alone.cols, alone.rotated))
    # pages -> sections -> rows -> item indexes; ``used`` the height taken on the current page
    pages: list[list[tuple[int, list[list[int]]]]] = [[]]
    used = 0.0
    index = 0
    for gi, (size, n, cols, rotated) in enumerate(grids):
        ch = size.width if rotated else size.height
        items = list(range(index, index + n))
        index += n
        for start in range(0, n, cols):
            row = items[start:start + cols]
            page = pages[-1]
            same = bool(page) and page[-1][0] == gi
            need = ch + (gap if same else sep if page else 0.0)
            if page and used + need > avail + EPS:
                pages.append([])
                page, same, need, used = pages[-1], False, ch, 0.0
            if same:
                page[-1][1].append(row)
            else:
                page.append((gi, [row]))
            used += need
    sheets: list[Sheet] = []
    for number, page in enumerate(pages, 1):
        heights = []
        for gi, rows in page:
            size, _, _, rotated = grids[gi]
            ch = size.width if rotated else size.height
            heights.append(len(rows) * ch + (len(rows) - 1) * gap)
        total = sum(heights) + sep * (len(page) - 1)
        top = area.y + (area.h + total) / 2
        layout = PageLayout("front", paper, safe, notice)
        tops = []
        for (gi, rows), height in zip(page, heights):
            tops.append(top)
            top -= height + sep
        row_no = 0
        for k, ((gi, rows), height) in enumerate(zip(page, heights)):
            size, _, cols, rotated = grids[gi]
            w, h = size.width, size.height
            cw, ch = (h, w) if rotated else (w, h)
            gw = cols * cw + (cols - 1) * gap
            g = _Grid(cols, len(rows), rotated, cw, ch, area.x + (area.w - gw) / 2, tops[k],
                      cw + gap, ch + gap)
            slots = []
            for r, row in enumerate(rows):
                for c, i in enumerate(row):
                    t = _front_transform(g, r, c, w, h)
                    slots.append(Slot(i, "front", row_no + r, c, bounds_of(t, w, h),
                                      bounds_of(t, w, h, bleed), t))
            row_no += len(rows)
            # this section's band: up to half way to its neighbours
            band_top = area.y1 if k == 0 else tops[k] + (sep - clear) / 2
            band_bottom = (area.y if k == len(page) - 1
                           else tops[k] - height - (sep - clear) / 2)
            band = Rect(area.x, band_bottom, area.w, band_top - band_bottom)
            marks, cuts = _marks(slots, bleed, band, crop_marks, cut_lines, paper)
            layout.slots += slots
            layout.crop_marks += marks
            layout.cut_lines += cuts
        sheets.append(Sheet(number, layout))
    size, _, cols, rotated = grids[0]
    per = max(len(s.front.slots) for s in sheets)
    return SheetPlan(paper, size, index, "none", bleed, gap, cols,
                     max(len({sl.row for sl in s.front.slots}) for s in sheets), rotated, None,
                     per, sheets)
