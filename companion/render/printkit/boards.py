"""Boards larger than a page: an assembly overview and one page per tile.

Each tile is printed at 1:1 inside a thin frame (the cut line).  A tile that has a neighbour to
its right (below) keeps a shaded glue strip, as wide as the overlap, along its right (bottom)
edge, labelled "glue under B1"; a dashed guide line with arrow marks shows where the
neighbour's cut edge goes.  The art continues under the strip, so a neighbour laid slightly
short shows no gap.
"""
from __future__ import annotations

from typing import Callable

from companion.render.printkit.layout import BoardPlan, Tile, compose
from companion.render.printkit.model import Board
from companion.render.printkit.units import MM, Rect, mm


def _draw_board(c, part: Board, transform, forms=None, form_name: str = "") -> None:
    """Call the game's drawing with board millimetres mapped through ``transform``.  With
    ``forms`` (the kit's ``_Forms``) the board is drawn once into a PDF form and every tile and
    the overview place that form: the same picture, drawn and stored once."""
    from companion.render.printkit.pen import Pen

    def art(c):
        c.saveState()
        c.scale(MM, MM)
        part.draw(Pen(c, part.width_mm, part.height_mm, 0.0, f"board '{part.title}'"))
        c.restoreState()

    if forms is not None:
        forms.place(c, form_name, transform,
                    Rect(0.0, 0.0, part.width_mm * MM, part.height_mm * MM), art)
        return
    c.saveState()
    c.transform(*transform)
    c.scale(MM, MM)
    part.draw(Pen(c, part.width_mm, part.height_mm, 0.0, f"board '{part.title}'"))
    c.restoreState()


def _clip(c, r: Rect) -> None:
    p = c.beginPath()
    p.rect(r.x, r.y, r.w, r.h)
    c.clipPath(p, stroke=0, fill=0)


def _arrow(c, x: float, y: float, direction: str, size: float = mm(2.2)) -> None:
    """A filled triangle with its tip at (x, y) pointing ``direction`` (right/left/up/down)."""
    dx, dy = {"right": (1, 0), "left": (-1, 0), "up": (0, 1), "down": (0, -1)}[direction]
    px, py = -dy, dx
    p = c.beginPath()
    p.moveTo(x, y)
    p.lineTo(x - dx * size + px * size * 0.6, y - dy * size + py * size * 0.6)
    p.lineTo(x - dx * size - px * size * 0.6, y - dy * size - py * size * 0.6)
    p.close()
    c.drawPath(p, stroke=0, fill=1)


def _tile_page(part: Board, bp: BoardPlan, tiles: list[Tile], forms=None,
               form_name: str = "") -> Callable[[object], None]:
    """A page holding one tile, or several small ones, each in its own frame."""
    from companion.render.printkit.draw import draw_notice

    def draw(c):
        from companion.render import fonts

        for tile in tiles:
            _draw_tile(c, part, bp, tile, forms, form_name)
            # tiles sharing a page: each one's name just above its frame, where there is room
            if len(tiles) > 1 and tile.place.y1 + mm(1.5) + 6.5 <= bp.area.y1:
                c.setFillColorRGB(0.3, 0.3, 0.3)
                c.setFont(fonts.SANS_BOLD, 6.5)
                c.drawString(tile.place.x, tile.place.y1 + mm(1.5), f"{part.title}: {tile.name}")
        hows = []
        for tile in tiles:
            hows += [f"lay the {edge} edge of {tile.name} on the dashed line of {other}"
                     if len(tiles) > 1 else f"lay the {edge} edge on the dashed line of {other}"
                     for edge, other in _laid_on(tile)]
        how = ("cut along the frame" if len(tiles) == 1 else "cut along each frame") + (
            "; " + "; ".join(hows) if hows else "")
        names = _and([t.name for t in tiles])
        label = (f"{part.title}: tile{'s' if len(tiles) > 1 else ''} {names} of {bp.cols} x "
                 f"{bp.rows} ({how})")
        draw_notice(c, bp.notice, label)
    return draw


def _and(items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def _laid_on(tile: Tile) -> list[tuple[str, str]]:
    """(edge, neighbour) for each edge of ``tile`` laid on a neighbour's glue strip."""
    out = []
    if "left" in tile.cut_edges:
        out.append(("left", _name(tile.col - 1, tile.row)))
    if "top" in tile.cut_edges:
        out.append(("top", _name(tile.col, tile.row - 1)))
    return out


def _draw_tile(c, part: Board, bp: BoardPlan, tile: Tile, forms=None,
               form_name: str = "") -> None:
    from companion.render import fonts

    c.saveState()
    _clip(c, tile.place)
    _draw_board(c, part, compose(tile.transform, bp.board_transform), forms, form_name)
    c.restoreState()
    # glue strips
    for neighbour, strip in tile.glue:
        c.saveState()
        c.setFillColorRGB(0.3, 0.3, 0.3)
        c.setFillAlpha(0.22)
        c.rect(strip.x, strip.y, strip.w, strip.h, stroke=0, fill=1)
        c.restoreState()
        c.saveState()
        c.setStrokeColorRGB(0.1, 0.1, 0.1)
        c.setFillColorRGB(0.1, 0.1, 0.1)
        c.setLineWidth(0.6)
        c.setDash([4, 2], 0)
        vertical = strip.x > tile.place.x + 1e-6  # a right strip, else a bottom one
        if vertical:  # right strip: the neighbour's left edge goes on the strip's left side
            c.line(strip.x, strip.y, strip.x, strip.y1)
            c.setDash([], 0)
            for y in (strip.y + mm(3), strip.y1 - mm(3)):
                _arrow(c, strip.x, y, "right")
        else:  # bottom strip: the neighbour's top edge goes on the strip's top side
            c.line(strip.x, strip.y1, strip.x1, strip.y1)
            c.setDash([], 0)
            for x in (strip.x + mm(3), strip.x1 - mm(3)):
                _arrow(c, x, strip.y1, "down")
        text = f"{tile.name} \u2192 glue under {neighbour}"
        size = min(8.0, (strip.w if vertical else strip.h) * 0.45)
        c.setFont(fonts.SANS_BOLD, size)
        step = mm(60)
        n = max(1, int((strip.h if vertical else strip.w) // step))
        for k in range(n):
            c.saveState()
            if vertical:
                c.translate(strip.cx, strip.y + strip.h * (k + 0.5) / n)
                c.rotate(90)
            else:
                c.translate(strip.cx - strip.w / 2 + strip.w * (k + 0.5) / n, strip.cy)
            _glue_label(c, text, size)
            c.restoreState()
        c.restoreState()
    # the cut frame
    c.setStrokeColorRGB(0.45, 0.45, 0.45)
    c.setLineWidth(0.3)
    c.rect(tile.place.x, tile.place.y, tile.place.w, tile.place.h, stroke=1, fill=0)


GLUE_LABEL_BACK = (0.85, 0.85, 0.85)
"""The glue strip's shade over white paper, opaque: the ground of its labels, so that the art
under the strip (a town's name, a sea) does not run through them."""


def _glue_label(c, text: str, size: float) -> None:
    """``text`` centred on the origin (its baseline ``size * 0.35`` below) on a ground of its
    own; the font is set."""
    from companion.render import fonts
    from companion.render.printkit.fit import text_width

    half = text_width(text, fonts.SANS_BOLD, size) / 2 + size * 0.4
    c.setFillColorRGB(*GLUE_LABEL_BACK)
    c.roundRect(-half, -size * 0.68, 2 * half, size * 1.3, size * 0.25, stroke=0, fill=1)
    c.setFillColorRGB(0.1, 0.1, 0.1)
    c.drawCentredString(0, -size * 0.35, text)


def _name(col: int, row: int) -> str:
    from companion.render.printkit.layout import column_name

    return f"{column_name(col)}{row + 1}"


def _overview_page(part: Board, bp: BoardPlan, forms=None,
                   form_name: str = "") -> Callable[[object], None]:
    from companion.render import fonts
    from companion.render.printkit.draw import draw_notice
    from companion.render.printkit.fit import draw_fitted, fit_text

    area = bp.area
    head = mm(28)
    box = Rect(area.x, area.y, area.w, area.h - head)
    scale = min(box.w / bp.width, box.h / bp.height)
    ox = box.x + (box.w - bp.width * scale) / 2
    oy = box.y + (box.h - bp.height * scale) / 2
    to_page = (scale, 0.0, 0.0, scale, ox, oy)

    def draw(c):
        c.setFillColorRGB(0.18, 0.24, 0.36)
        c.setFont(fonts.SANS_BOLD, 15)
        c.drawString(area.x, area.y1 - 15, f"{part.title}: assembly")
        turned = " The board is turned a quarter to need fewer pages." if bp.rotated else ""
        text = (f"The board ({part.width_mm:g} x {part.height_mm:g} mm) is printed at full "
                f"size on {len(bp.tiles)} pages ({bp.cols} across, {bp.rows} down), shown "
                f"here reduced.{turned} Cut each page along its thin frame. Shaded strips "
                f"({bp.overlap / MM:g} mm) go under the neighbouring page: glue them, and lay "
                "the neighbour's edge on the dashed line. Work row by row from A1 (top left).")
        fitted = fit_text(text, area.w, mm(14), max_size=8.5, min_size=6, what="board assembly")
        draw_fitted(c, fitted, area.x, area.y1 - mm(8), colour=(0.1, 0.1, 0.1))
        c.saveState()
        _clip(c, Rect(ox, oy, bp.width * scale, bp.height * scale))
        _draw_board(c, part, compose(to_page, bp.board_transform), forms, form_name)
        c.restoreState()
        c.setStrokeColorRGB(0.85, 0.1, 0.1)
        c.setLineWidth(0.8)
        for tile in bp.tiles:
            r = tile.window
            x, y = ox + r.x * scale, oy + r.y * scale
            c.rect(x, y, r.w * scale, r.h * scale, stroke=1, fill=0)
        for tile in bp.tiles:
            r = tile.window
            cx, cy = ox + r.cx * scale, oy + r.cy * scale
            size = max(8.0, min(28.0, r.h * scale * 0.18))
            c.setFillColorRGB(1, 1, 1)
            c.setFillAlpha(0.75)
            c.roundRect(cx - size * 0.9, cy - size * 0.55, size * 1.8, size * 1.1, size * 0.2,
                        stroke=0, fill=1)
            c.setFillAlpha(1)
            c.setFillColorRGB(0.85, 0.1, 0.1)
            c.setFont(fonts.SANS_BOLD, size)
            c.drawCentredString(cx, cy - size * 0.36, tile.name)
        c.setStrokeColorRGB(0.2, 0.2, 0.2)
        c.setLineWidth(0.5)
        c.rect(ox, oy, bp.width * scale, bp.height * scale, stroke=1, fill=0)
        draw_notice(c, bp.notice, f"{part.title}: assembly overview (reduced)")
    return draw


def board_pages(part: Board, bp: BoardPlan, forms=None,
                form_name: str = "") -> list[tuple[str, Callable, list]]:
    """(label, draw, bookmarks) for each page of a board.  With ``forms`` (the kit's ``_Forms``)
    the board's art is one PDF form named ``form_name``, placed on every page."""
    pages = []
    single = len(bp.tiles) == 1
    if part.overview and not single:
        pages.append((f"{part.title}: assembly", _overview_page(part, bp, forms, form_name),
                      [("Assembly", 1)]))
    sheets: dict[int, list[Tile]] = {}
    for tile in bp.tiles:
        sheets.setdefault(tile.sheet, []).append(tile)
    for tiles in sheets.values():
        marks = [] if single else [(f"Tile {t.name}", 1) for t in tiles]
        names = _and([t.name for t in tiles])
        pages.append((f"{part.title}: tile{'s' if len(tiles) > 1 else ''} {names}",
                      _tile_page(part, bp, tiles, forms, form_name), marks))
    return pages
