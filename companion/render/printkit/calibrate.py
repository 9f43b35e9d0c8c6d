"""The calibration sheet (``companion print calibrate``).

Front: three targets (top, centre, bottom), each a millimetre grid whose scales are numbered with
the *value to type* for ``--back-offset``, and two 100 mm rulers to check that the printer did
not scale the page.  Back: a cross behind the centre of each target.  The targets sit on the
page's vertical centre line, symmetric about its horizontal centre line, so with a perfect
printer every cross lands on the centre of a target whichever edge the printer flips on.

Printed double-sided and held against the light, the centre of each cross shows through next to
the numbers X (scale above the grid) and Y (scale beside it): ``--back-offset X,Y``.
"""
from __future__ import annotations

import io

from companion.render.printkit.layout import content_area
from companion.render.printkit.units import Paper, mm

TARGET_SPACING_MM = 65.0
GRID_MM = 8


def target_centres(paper: Paper) -> list[tuple[float, float]]:
    """Centres (points) of the targets on the front page, top to bottom."""
    cx, cy = paper.width / 2, paper.height / 2
    d = mm(TARGET_SPACING_MM)
    return [(cx, cy + d), (cx, cy), (cx, cy - d)]


def cross_centres(paper: Paper, backs: str = "duplex-long",
                  back_offset_mm: tuple[float, float] = (0.0, 0.0)) -> list[tuple[float, float]]:
    """Centres of the crosses on the back page (back-page coordinates), with the back offset
    applied as the kit would apply it."""
    from companion.render.printkit.layout import _offset_on_back

    ox, oy = _offset_on_back(backs, back_offset_mm)
    out = []
    for x, y in target_centres(paper):
        if backs == "duplex-short":
            bx, by = x, paper.height - y
        else:
            bx, by = paper.width - x, y
        out.append((bx + ox, by + oy))
    return out


def _label(v: int) -> str:
    return "0" if v == 0 else f"{v:+d}"


def label_values() -> list[int]:
    """The millimetres labelled along a target's edges: those of its bold lines (every 5 mm,
    and the zero line), so that a reading is never between a label and a bold line."""
    return [v for v in range(-GRID_MM, GRID_MM + 1) if v % 5 == 0]


def bold_values() -> list[float]:
    """The millimetres of a target's bold lines (every 5 mm; the zero line is darker)."""
    return [i / 2 for i in range(-2 * GRID_MM, 2 * GRID_MM + 1) if i % 10 == 0]


def _draw_target(c, cx: float, cy: float, name: str) -> None:
    from companion.render import fonts

    n = GRID_MM
    c.saveState()
    # light half-millimetre lines first, then millimetres, then every 5 mm, then the zero lines
    styles = [
        (lambda i: i % 2 != 0, (0.8, 0.8, 0.8), 0.15),
        (lambda i: i % 2 == 0 and i % 10 != 0, (0.55, 0.55, 0.55), 0.25),
        (lambda i: i % 10 == 0 and i != 0, (0.3, 0.3, 0.3), 0.45),
        (lambda i: i == 0, (0.0, 0.0, 0.0), 0.7),
    ]
    for test, colour, width in styles:
        c.setStrokeColorRGB(*colour)
        c.setLineWidth(width)
        p = c.beginPath()
        for i in range(-2 * n, 2 * n + 1):
            if not test(i):
                continue
            v = mm(i / 2)
            p.moveTo(cx + v, cy - mm(n))
            p.lineTo(cx + v, cy + mm(n))
            p.moveTo(cx - mm(n), cy + v)
            p.lineTo(cx + mm(n), cy + v)
        c.drawPath(p, stroke=1, fill=0)
    c.setFillColorRGB(0.1, 0.1, 0.1)
    c.setFont(fonts.SANS, 5.5)
    for v in label_values():
        # the value to type is minus the shift at which the cross shows; one label on each
        # bold (5 mm) line, in one row
        c.drawCentredString(cx + mm(v), cy + mm(n) + mm(1.6), _label(-v))
        c.drawRightString(cx - mm(n) - mm(1.2), cy + mm(v) - 1.9, _label(-v))
    c.setFont(fonts.SANS_BOLD, 6)
    c.drawCentredString(cx, cy + mm(n) + mm(6.0), "X")
    c.drawRightString(cx - mm(n) - mm(6.5), cy - 2, "Y")
    c.setFont(fonts.SANS, 6)
    c.drawString(cx + mm(n) + mm(2), cy - 2, name)
    c.restoreState()


def _ruler(c, x: float, y: float, vertical: bool) -> None:
    from companion.render import fonts

    c.saveState()
    c.translate(x, y)
    if vertical:
        c.rotate(90)
    c.setStrokeColorRGB(0, 0, 0)
    c.setLineWidth(0.5)
    c.line(0, 0, mm(100), 0)
    c.setFont(fonts.SANS, 5.5)
    c.setFillColorRGB(0, 0, 0)
    for i in range(0, 101):
        length = mm(4) if i % 10 == 0 else mm(2.5) if i % 5 == 0 else mm(1.5)
        c.setLineWidth(0.35 if i % 10 == 0 else 0.2)
        c.line(mm(i), 0, mm(i), length)
        if i % 10 == 0:
            c.drawCentredString(mm(i), mm(5), str(i))
    c.setFont(fonts.SANS_BOLD, 6)
    c.drawString(mm(0), -mm(3.2), "100 mm: check with a ruler; if it is not exactly 100 mm, "
                 "the printer scaled the page")
    c.restoreState()


def draw_calibration(c, paper: Paper, backs: str = "duplex-long",
                     back_offset_mm: tuple[float, float] = (0.0, 0.0)) -> None:
    """Draw the two calibration pages on canvas ``c`` (front, then back)."""
    from companion.render import fonts
    from companion.render.printkit.draw import draw_notice
    from companion.render.printkit.fit import draw_fitted, fit_text

    safe, notice, area = content_area(paper, 8.0)
    # --- front
    c.setFillColorRGB(0.1, 0.1, 0.1)
    c.setFont(fonts.SANS_BOLD, 14)
    c.drawString(area.x, area.y1 - 14, "Printer calibration: back offset and scale")
    howto = (
        "1. Print this sheet **double-sided** at **100% / actual size**, with the same printer, "
        "paper and flip setting (long or short edge) you will use for the kit.\n"
        "2. Hold the sheet against a window or a lamp, this side towards you. The crosses "
        "printed on the back show through.\n"
        "3. Where the centre of the middle cross shows through, read **X** on the scale above "
        "the grid and **Y** on the scale at its side (each line is 0.5 mm). Print the kit with "
        "**--back-offset X,Y** (for example --back-offset 1,-0.5).\n"
        "4. If the crosses land on the centres of the grids, your printer needs no offset "
        "(0,0). If the top and bottom readings differ by more than 1 mm, the printer feeds "
        "the paper askew: use the middle reading.\n"
        "5. Measure the rulers: each must be exactly 100 mm. If not, turn off 'fit to page' "
        "or 'scale' in the print dialogue.")
    if back_offset_mm != (0.0, 0.0):
        howto += (f"\nThis sheet already applies --back-offset {back_offset_mm[0]:g},"
                  f"{back_offset_mm[1]:g} for {backs}: the crosses should now land on the centres.")
    box_w = area.w
    top = area.y1 - 22
    fitted = fit_text(howto, box_w, mm(42), max_size=8.5, min_size=6.0, what="calibration text")
    draw_fitted(c, fitted, area.x, top, colour=(0.1, 0.1, 0.1))
    names = ["top", "centre", "bottom"]
    for (cx, cy), name in zip(target_centres(paper), names):
        _draw_target(c, cx, cy, name)
    _ruler(c, paper.width / 2 - mm(50), area.y + mm(9), vertical=False)
    _ruler(c, area.x + mm(14), paper.height / 2 - mm(50), vertical=True)
    draw_notice(c, notice, "calibration sheet, front", "page 1/2")
    c.showPage()
    # --- back
    c.setFillColorRGB(0.1, 0.1, 0.1)
    c.setFont(fonts.SANS_BOLD, 10)
    c.drawString(area.x, area.y1 - 10, "Calibration sheet, back: the crosses")
    c.setFont(fonts.SANS, 7)
    c.drawString(area.x, area.y1 - 20, "Look at the other side against the light.")
    c.setStrokeColorRGB(0, 0, 0)
    for x, y in cross_centres(paper, backs, back_offset_mm):
        c.setLineWidth(0.6)
        c.line(x - mm(12), y, x + mm(12), y)
        c.line(x, y - mm(12), x, y + mm(12))
        c.setLineWidth(0.4)
        c.circle(x, y, mm(1.0), stroke=1, fill=0)
    draw_notice(c, notice, "calibration sheet, back", "page 2/2")
    c.showPage()


def calibration_pdf(paper: Paper, backs: str = "duplex-long",
                    back_offset_mm: tuple[float, float] = (0.0, 0.0)) -> bytes:
    """The calibration sheet as PDF bytes (two pages: front and back)."""
    from companion.render.printkit.pdfcanvas import new_canvas

    buf = io.BytesIO()
    c = new_canvas(buf, paper, title="Printer calibration sheet",
                   subject=f"Duplex back offset and scale check, {paper.label}")
    draw_calibration(c, paper, backs, back_offset_mm)
    c.save()
    return buf.getvalue()
