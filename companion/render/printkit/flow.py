"""Typesetting reference sheets: headings, paragraphs, bullet lists and tables flowed into one or
two columns per page, tables split between rows with their header repeated.

Everything is measured first (with the fitting module's wrapping), so the number of pages is
known before anything is drawn; each page is a list of drawing operations.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from math import ceil
from typing import Callable, Sequence

from companion.render import fonts
from companion.render.printkit.colours import INK, RGB, mix
from companion.render.printkit.fit import (ASCENT, DESCENT, Faces, Line, TextFitError,
                                           _measured, check_glyphs, faces, parsed, wrap)
from companion.render.printkit.model import Bullets, Heading, Paragraph, Table
from companion.render.printkit.units import Rect, mm

Op = Callable[[object], None]

HEADER_BG: RGB = (0.18, 0.24, 0.36)
ZEBRA: RGB = (0.93, 0.94, 0.96)
RULE: RGB = (0.55, 0.58, 0.64)
GUTTER = mm(6)
CELL_PAD_X = 3.0
CELL_PAD_Y = 1.8
KEEP_WHOLE_ROWS = 8
"""Tables with at most this many rows are not split between columns (if they fit one)."""


@dataclass
class Item:
    """An unbreakable piece of a flow: ``height`` points, drawn by ``draw(c, x, top, width)``."""

    height: float
    draw: Callable[[object, float, float, float], None]
    space_before: float = 0.0
    keep_with_next: bool = False
    header: "Item | None" = None
    """For table rows: the header row to repeat when the table continues in a new column."""
    is_header: bool = False


@dataclass
class FlowPage:
    ops: list[Op] = field(default_factory=list)
    continued: bool = False
    first: int = 0
    """The index of the first item placed on the page."""


def _lines_height(n: int, size: float, leading: float) -> float:
    return (n - 1) * size * leading + size * (ASCENT + DESCENT) if n else 0.0


def _text_lines(text: str, width: float, size: float, f: Faces,
                style: str = "r") -> tuple[Line, ...]:
    key = (text, width, size, f.regular, style)  # the regular face names the family
    lines = _WRAPPED.get(key)
    if lines is None:
        lines = tuple(wrap(parsed(text, style), width, size, f))
        if len(_WRAPPED) < 50_000:
            _WRAPPED[key] = lines
    return lines


_WRAPPED: dict[tuple, tuple[Line, ...]] = {}
"""Texts already wrapped (table columns repeat short cells; lines are immutable).  Emptied
when a kit is planned, so that each build costs what a single ``companion print`` does."""


_EXTENTS: dict[tuple[int, float], tuple[Table, tuple[list[float], list[float]]]] = {}
"""Column extents of each table at each size (asked for when choosing the columns and again
when sizing them); the table is kept with them, so that its id is not reused."""


def reset_caches() -> None:
    _WRAPPED.clear()
    _EXTENTS.clear()
    _INK.clear()


def _draw_line(c, line: Line, x: float, baseline: float, size: float, align: str = "left",
               width: float = 0.0) -> None:
    dx = 0.0
    if align in ("centre", "center"):
        dx = (width - line.width) / 2
    elif align == "right":
        dx = width - line.width
    for piece in line.pieces:
        c.setFont(piece.font, size)
        c.drawString(x + dx + piece.x, baseline, piece.text)


# ----------------------------------------------------------------------------------------------
# Tables


def column_extents(table: Table, size: float) -> tuple[list[float], list[float]]:
    """(minimum, natural) width of each column at ``size``, padding included."""
    known = _EXTENTS.get((id(table), size))
    if known is not None and known[0] is table:
        return list(known[1][0]), list(known[1][1])
    mins, nats = _column_extents(table, size)
    _EXTENTS[(id(table), size)] = (table, (tuple(mins), tuple(nats)))
    return mins, nats


def _column_extents(table: Table, size: float) -> tuple[list[float], list[float]]:
    f = faces(False)
    n = len(table.columns)
    mins = [0.0] * n
    nats = [0.0] * n
    rows = [[str(x) for x in table.columns]] + [[str(x) for x in r] for r in table.rows]
    for ri, row in enumerate(rows):
        for ci in range(n):
            cell = row[ci] if ci < len(row) else ""
            bold = ri == 0 or (table.bold_first_column and ci == 0)
            # the words as the wrapping measures them (widths at 1 pt, scaled: the same
            # products text_width gives), so that no word is measured twice
            for para in parsed(cell, "b" if bold else "r"):
                total = 0.0
                for _, _, w1, s1 in _measured(para, f) if para else ():
                    ww = w1 * size
                    mins[ci] = max(mins[ci], ww)
                    total += ww + (s1 * size if s1 is not None else 0.0)
                nats[ci] = max(nats[ci], total)
    pad = 2 * CELL_PAD_X
    return [m + pad for m in mins], [max(nv, 0.0) + pad for nv in nats]


def column_widths(table: Table, width: float, size: float) -> list[float]:
    if table.widths:
        total = float(sum(table.widths))
        return [width * w / total for w in table.widths]
    mins, nats = column_extents(table, size)
    if sum(nats) <= width:
        extra = width - sum(nats)
        return [nv + extra * nv / sum(nats) for nv in nats]
    if sum(mins) >= width:
        return [width * m / sum(mins) for m in mins]
    spare = width - sum(mins)
    slack = [nv - m for m, nv in zip(mins, nats)]
    total_slack = sum(slack) or 1.0
    return [m + spare * s / total_slack for m, s in zip(mins, slack)]


def table_fits(table: Table, width: float, size: float) -> bool:
    if table.widths:
        return True
    return sum(column_extents(table, size)[0]) <= width + 1e-6


def _table_items(table: Table, width: float, size: float, what: str) -> list[Item]:
    n = len(table.columns)
    for ri, row in enumerate(table.rows):
        if len(row) > n:
            from companion.errors import UsageError

            raise UsageError(f"{what}: row {ri + 1} has {len(row)} cells, the table has {n} columns")
    widths = column_widths(table, width, size)
    aligns = list(table.align or []) + ["left"] * n
    f = faces(False)
    leading = 1.16
    items: list[Item] = []

    text_widths = [w - 2 * CELL_PAD_X for w in widths]
    body_styles = ["b" if (table.bold_first_column and ci == 0) else "r" for ci in range(n)]

    def row_item(cells: Sequence[str], header: bool, zebra: bool) -> Item:
        wrapped = []
        most = 0
        styles = ["b"] * n if header else body_styles
        for ci in range(n):
            cell = str(cells[ci]) if ci < len(cells) else ""
            check_glyphs(cell, what)
            lines = _text_lines(cell, text_widths[ci], size, f, styles[ci])
            wrapped.append(lines)
            if len(lines) > most:
                most = len(lines)
        h = _lines_height(most, size, leading) + 2 * CELL_PAD_Y

        def draw(c, x, top, w, wrapped=wrapped, h=h):
            if header:
                c.setFillColorRGB(*HEADER_BG)
                c.rect(x, top - h, w, h, stroke=0, fill=1)
            elif zebra:
                c.setFillColorRGB(*ZEBRA)
                c.rect(x, top - h, w, h, stroke=0, fill=1)
            c.setFillColorRGB(*((1, 1, 1) if header else INK))
            cx = x
            for ci, lines in enumerate(wrapped):
                base = top - CELL_PAD_Y - size * ASCENT
                for li, line in enumerate(lines):
                    _draw_line(c, line, cx + CELL_PAD_X, base - li * size * leading, size,
                               aligns[ci], widths[ci] - 2 * CELL_PAD_X)
                cx += widths[ci]
            c.setStrokeColorRGB(*RULE)
            c.setLineWidth(0.6 if header else 0.25)
            c.line(x, top - h, x + w, top - h)

        return Item(h, draw, is_header=header)

    if table.caption:
        cap = _text_lines(table.caption, width, size * 0.95, f, "i")
        ch = _lines_height(len(cap), size * 0.95, 1.15) + 2

        def draw_cap(c, x, top, w, cap=cap):
            c.setFillColorRGB(*mix(INK, (1, 1, 1), 0.25))
            for li, line in enumerate(cap):
                _draw_line(c, line, x, top - size * 0.95 * ASCENT - li * size * 0.95 * 1.15,
                           size * 0.95)

        items.append(Item(ch, draw_cap, space_before=size * 0.6, keep_with_next=True))
    header = row_item(table.columns, True, False)
    header.keep_with_next = True
    header.space_before = 0.0 if table.caption else size * 0.6
    items.append(header)
    rows = []
    for ri, row in enumerate(table.rows):
        it = row_item(row, False, ri % 2 == 1)
        it.header = header
        rows.append(it)
    # short tables stay whole; longer ones keep two rows together at either end
    n = len(rows)
    for k, it in enumerate(rows[:-1]):
        it.keep_with_next = n <= KEEP_WHOLE_ROWS or k == 0 or k == n - 2
    return items + rows


# ----------------------------------------------------------------------------------------------
# Text blocks


def _heading_items(block: Heading, width: float, size: float, what: str) -> list[Item]:
    check_glyphs(block.text, what)
    hs = size * (1.45 if block.level <= 1 else 1.15)
    f = faces(False)
    lines = _text_lines(block.text, width, hs, f, "b")
    h = _lines_height(len(lines), hs, 1.1) + (mm(1.2) if block.level <= 1 else 1.0)

    def draw(c, x, top, w):
        c.setFillColorRGB(*HEADER_BG)
        for li, line in enumerate(lines):
            _draw_line(c, line, x, top - hs * ASCENT - li * hs * 1.1, hs)
        if block.level <= 1:
            c.setStrokeColorRGB(*HEADER_BG)
            c.setLineWidth(0.8)
            c.line(x, top - h + mm(0.5), x + w, top - h + mm(0.5))

    return [Item(h, draw, space_before=size * (1.1 if block.level <= 1 else 0.8),
                 keep_with_next=True)]


def _paragraph_items(text: str, width: float, size: float, what: str, indent: float = 0.0,
                     bullet: bool = False, first_space: float | None = None) -> list[Item]:
    check_glyphs(text, what)
    f = faces(False)
    leading = 1.22
    lines = _text_lines(text, width - indent, size, f)
    items: list[Item] = []
    for li, line in enumerate(lines):
        h = size * leading if li < len(lines) - 1 else size * (ASCENT + DESCENT)
        if li == 0 and len(lines) > 1:
            h = size * leading

        def draw(c, x, top, w, line=line, li=li):
            c.setFillColorRGB(*INK)
            base = top - size * ASCENT
            if bullet and li == 0:
                c.setFont(fonts.SANS_BOLD, size)
                c.drawString(x + indent * 0.25, base, "•")
            _draw_line(c, line, x + indent, base, size)

        space = 0.0
        if li == 0:
            space = size * 0.45 if first_space is None else first_space
        # no single line of a paragraph alone at the top or bottom of a column
        keep = li < len(lines) - 1 and (li == 0 or li == len(lines) - 2)
        items.append(Item(h, draw, space_before=space, keep_with_next=keep))
    return items


def block_items(block, width: float, size: float, what: str) -> list[Item]:
    if isinstance(block, Heading):
        return _heading_items(block, width, size, what)
    if isinstance(block, Paragraph):
        return _paragraph_items(block.text, width, size, what)
    if isinstance(block, Bullets):
        items: list[Item] = []
        for i, entry in enumerate(block.items):
            items += _paragraph_items(entry, width, size, what, indent=size * 1.1, bullet=True,
                                      first_space=size * (0.45 if i == 0 else 0.2))
        return items
    if isinstance(block, Table):
        return _table_items(block, width, size, what)
    raise TypeError(f"{what}: unknown block {type(block).__name__}")


# ----------------------------------------------------------------------------------------------
# Flowing


def frames(area: Rect, columns: int, top_reserved: float) -> list[Rect]:
    top = area.y1 - top_reserved
    h = top - area.y
    if columns == 1:
        return [Rect(area.x, area.y, area.w, h)]
    w = (area.w - GUTTER * (columns - 1)) / columns
    return [Rect(area.x + i * (w + GUTTER), area.y, w, h) for i in range(columns)]


def choose_columns(blocks, area: Rect, size: float, columns) -> int:
    if columns in (1, 2, "1", "2"):
        return int(columns)
    half = (area.w - GUTTER) / 2
    tables = [b for b in blocks if isinstance(b, Table)]
    return 2 if all(table_fits(t, half, size) for t in tables) else 1


MIN_SHRUNK_PT = 7.0


def flow(blocks, area: Rect, *, size: float, columns, first_top: float, later_top: float,
         what: str, balance: bool = True, shrink: bool = True) -> tuple[list[FlowPage], int]:
    """Lay ``blocks`` out; returns the pages (lists of ops) and the number of columns used.
    With ``balance``, a flow that fits on one page is spread evenly over its columns. With
    ``shrink``, a flow whose last page would hold only a little is set up to 1 pt smaller (never
    below 7 pt) when that saves the page: no nearly empty page at the end of a sheet."""
    pages, ncols = _flow(blocks, area, size=size, columns=columns, first_top=first_top,
                         later_top=later_top, what=what, balance=balance)
    if shrink and len(pages) > 1:
        for smaller in (size - 0.5, size - 1.0):
            if smaller < MIN_SHRUNK_PT:
                break
            if _too_much_for(blocks, area, smaller, columns, first_top, later_top,
                             len(pages) - 1):
                continue  # it cannot save the page: no need to lay it out
            trial = _flow(blocks, area, size=smaller, columns=columns, first_top=first_top,
                          later_top=later_top, what=what, balance=balance)
            if len(trial[0]) < len(pages):
                return trial
    return pages, ncols


def _too_much_for(blocks, area: Rect, size: float, columns, first_top: float,
                  later_top: float, pages: int) -> bool:
    """True if the blocks at ``size`` surely need more than ``pages`` pages: a lower bound of
    their height (every text on as few lines as its words' widths allow, no spaces, no space
    between blocks, no repeated table headers) is more than those pages' columns hold.  No
    item is split between columns, so the flow itself would need more pages too."""
    ncols = choose_columns(blocks, area, size, columns)
    first = frames(area, ncols, first_top)
    later = frames(area, ncols, later_top)
    room = sum(fr.h for fr in first) + (pages - 1) * sum(fr.h for fr in later)
    width = first[0].w
    f = faces(False)
    need = 0.0
    for block in blocks:
        if isinstance(block, Heading):
            hs = size * (1.45 if block.level <= 1 else 1.15)
            need += (_lines_height(_fewest_lines(block.text, width, hs, f, "b"), hs, 1.1)
                     + (mm(1.2) if block.level <= 1 else 1.0))
        elif isinstance(block, Paragraph):
            need += _lines_height(_fewest_lines(block.text, width, size, f, "r"), size, 1.22)
        elif isinstance(block, Bullets):
            for entry in block.items:
                need += _lines_height(_fewest_lines(entry, width - size * 1.1, size, f, "r"),
                                      size, 1.22)
        elif isinstance(block, Table):
            widths = [w - 2 * CELL_PAD_X for w in column_widths(block, width, size)]
            for row in _table_ink(block, f):
                most = 0
                for cell, cw in zip(row, widths):
                    most = max(most, _lines_at(cell, cw, size))
                need += _lines_height(most, size, 1.16) + 2 * CELL_PAD_Y
        else:
            return False
        if need > room + 1e-6:
            return True
    return False


def _fewest_lines(text: str, width: float, size: float, f: Faces, style: str) -> int:
    """At least this many lines for ``text`` wrapped at ``width``: an empty paragraph takes a
    line; a line holds at most ``width`` of words (a word wider than that, which is broken or
    stands alone, counts as ``width``)."""
    return _lines_at(_ink(text, style, f), width, size)


def _lines_at(ink1: tuple, width: float, size: float) -> int:
    """:func:`_fewest_lines` of a text measured by :func:`_ink`."""
    if width <= 0:
        return 1
    total = 0
    for para in ink1:
        if para is None:
            total += 1
            continue
        widest, w1s = para
        if widest * size <= width:  # no word wider than the line: min() would change nothing
            ink = sum([w1 * size for w1 in w1s])
        else:
            ink = sum([min(w1 * size, width) for w1 in w1s])
        total += max(1, ceil(ink / width - 1e-9))
    return total


def _ink(text: str, style: str, f: Faces) -> tuple[tuple[float, tuple[float, ...]] | None, ...]:
    """Each paragraph of ``text`` as (widest word, every word's width) at 1 pt, None for an
    empty one: what :func:`_fewest_lines` needs, kept (a sheet's lower bound is taken at two
    sizes, its table columns repeat cells)."""
    key = (text, style, f.regular)
    known = _INK.get(key)
    if known is None:
        known = []
        for para in parsed(text, style):
            w1s = tuple([w1 for _, _, w1, _ in _measured(para, f)]) if para else ()
            known.append((max(w1s), w1s) if w1s else None)
        known = tuple(known)
        if len(_INK) < 50_000:
            _INK[key] = known
    return known


def _table_ink(table: Table, f: Faces) -> list[list[tuple]]:
    """:func:`_ink` of every cell of ``table``, header first, row by row (kept with the table,
    so that its id is not reused)."""
    key = (id(table), f.regular)
    known = _INK.get(key)
    if known is not None and known[0] is table:
        return known[1]
    n = len(table.columns)
    rows = []
    for ri, row in enumerate([table.columns] + list(table.rows)):
        rows.append([_ink(str(row[ci]) if ci < len(row) else "",
                          "b" if ri == 0 or (table.bold_first_column and ci == 0) else "r", f)
                     for ci in range(n)])
    _INK[key] = (table, rows)
    return rows


_INK: dict[tuple, tuple] = {}
"""Texts already measured for :func:`_fewest_lines` (and tables, by their id)."""


def _flow(blocks, area: Rect, *, size: float, columns, first_top: float, later_top: float,
          what: str, balance: bool = True) -> tuple[list[FlowPage], int]:
    ncols = choose_columns(blocks, area, size, columns)
    first_frames = frames(area, ncols, first_top)
    later_frames = frames(area, ncols, later_top)
    width = first_frames[0].w
    items: list[Item] = []
    for block in blocks:
        items += block_items(block, width, size, what)
    pages = _place(items, first_frames, later_frames, what)
    if balance and ncols > 1 and items:
        # the last page's columns evenly filled (the only page's, or the last of several:
        # not one full column beside an empty one)
        first = pages[-1].first
        frames_of = first_frames if len(pages) == 1 else later_frames
        best = _balanced(items[first:], frames_of)
        last = _place(items[first:], best, later_frames, what)
        if len(last) == 1:
            pages[-1] = FlowPage(last[0].ops, pages[-1].continued, first)
    return pages, ncols


def _balanced(items: list[Item], page_frames: list[Rect]) -> list[Rect]:
    """``page_frames`` with their bottoms raised by as much as still holds ``items`` on the
    one page."""
    lo, hi = 0.0, page_frames[0].h
    needs = _Needs(items)
    for _ in range(24):
        mid = (lo + hi) / 2
        trial = [Rect(f.x, f.y + mid, f.w, f.h - mid) for f in page_frames]
        if needs.fit_one_page(trial):
            lo = mid
        else:
            hi = mid
    return [Rect(f.x, f.y + lo, f.w, f.h - lo) for f in page_frames]


def _place(items: list[Item], first_frames: list[Rect], later_frames: list[Rect], what: str,
           strict: bool = False) -> list[FlowPage]:
    pages: list[FlowPage] = [FlowPage()]
    page_frames = first_frames
    fi = 0
    y = page_frames[0].y1
    at_top = True
    last_placed: Item | None = None

    def advance():
        nonlocal fi, y, at_top, page_frames
        fi += 1
        if fi >= len(page_frames):
            pages.append(FlowPage(continued=True, first=i))
            page_frames = later_frames
            fi = 0
        y = page_frames[fi].y1
        at_top = True

    i = 0
    while i < len(items):
        item = items[i]
        frame = page_frames[fi]
        if strict and len(pages) > 1:
            return pages
        # the height this item needs together with what must stay with it
        need = item.height + (0.0 if at_top else item.space_before)
        j = i
        while items[j].keep_with_next and j + 1 < len(items):
            j += 1
            need += items[j].space_before + items[j].height
        header_again = (item.header is not None and at_top and last_placed is not item.header)
        if header_again:
            need += item.header.height
        if y - need < frame.y - 1e-6 and not at_top:
            advance()
            continue
        own = item.height + (item.header.height if header_again else 0)
        if own > frame.h + 1e-6:
            if strict:
                return pages + [FlowPage()]
            raise TextFitError(f"{what}: a table row is taller than a whole column",
                               hint="split the row's text into several rows")
        if strict and y - own < frame.y - 1e-6:
            return pages + [FlowPage()]
        if header_again:
            h = item.header
            if not strict:  # a strict trial only counts pages
                pages[-1].ops.append(lambda c, h=h, x=frame.x, top=y, w=frame.w:
                                     h.draw(c, x, top, w))
            y -= h.height
            at_top = False
        if not at_top:
            y -= item.space_before
        if not strict:
            pages[-1].ops.append(lambda c, it=item, x=frame.x, top=y, w=frame.w:
                                 it.draw(c, x, top, w))
        y -= item.height
        at_top = False
        last_placed = item
        i += 1
    return pages


class _Needs:
    """What :func:`_place` asks of each item, worked out once for the many trial placements of
    balancing (the same sums in the same order, so the same answers): below another item, the
    height it needs with what must stay with it; at the top of a column, its own height, with
    its header's if that is repeated (a table row continuing a table)."""

    def __init__(self, items: list[Item]):
        n = len(items)
        index = {id(it): k for k, it in enumerate(items)}
        self.heights = [it.height for it in items]
        self.spaces = [it.space_before for it in items]
        self.below: list[float] = []
        self.header: list[int] = []
        """The index of the item's header, -1 if it has none (-2: one not among the items)."""
        self.header_h: list[float] = []
        self.own_again: list[float] = []
        for i, item in enumerate(items):
            need = item.height + item.space_before
            j = i
            while items[j].keep_with_next and j + 1 < n:
                j += 1
                need += items[j].space_before + items[j].height
            self.below.append(need)
            hdr = item.header
            self.header.append(-1 if hdr is None else index.get(id(hdr), -2))
            self.header_h.append(0.0 if hdr is None else hdr.height)
            self.own_again.append(item.height + hdr.height if hdr is not None else item.height)

    def fit_one_page(self, first_frames: list[Rect]) -> bool:
        """Whether ``_place(items, first_frames, ..., strict=True)`` gives one page."""
        heights, spaces, below, header = self.heights, self.spaces, self.below, self.header
        n = len(heights)
        fi = 0
        frame = first_frames[0]
        fy, fh, y = frame.y, frame.h, frame.y1
        at_top = True
        last = -1
        i = 0
        while i < n:
            again = False
            if at_top:
                again = header[i] != -1 and last != header[i]
            elif y - below[i] < fy - 1e-6:
                fi += 1  # the next column
                if fi >= len(first_frames):
                    return False
                frame = first_frames[fi]
                fy, fh, y = frame.y, frame.h, frame.y1
                at_top = True
                continue
            own = self.own_again[i] if again else heights[i]
            if own > fh + 1e-6 or y - own < fy - 1e-6:
                return False
            if again:
                y -= self.header_h[i]
                at_top = False
            if not at_top:
                y -= spaces[i]
            y -= heights[i]
            at_top = False
            last = i
            i += 1
        return True
