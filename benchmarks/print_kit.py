"""Benchmark: print a 100-card kit (A4, 3 mm bleed, crop marks, duplex backs) with the print
suite, and a bare reportlab script drawing the same rectangles and text, in the same run.

    python benchmarks/print_kit.py [--runs N] [--cards N]

Prints the median time of each and their ratio (target: at most 2x).  No assertions: this is a
figure for humans and CI logs.
"""
from __future__ import annotations

import argparse
import io
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from companion.render.printkit import PrintOptions, build_kit, layout_items  # noqa: E402
from companion.render.printkit.sample import sample_kit  # noqa: E402


def bare_reportlab(kit, options) -> bytes:
    """The same sheets drawn straight with reportlab: for each card its bleed, panel, name band,
    name, type line, statistics, wrapped text and footer; for each back its background, frame,
    medallion and title; crop marks and the small print.  No fitting, no forms, no checks."""
    from reportlab.lib.utils import simpleSplit
    from reportlab.pdfgen import canvas

    from companion.render import fonts

    fonts.register_fonts()
    deck = kit.parts[0]
    size = options.card or deck.card_size
    plan = layout_items(deck.total, size, options.paper, bleed_mm=options.bleed_mm,
                        backs=options.backs, back_offset_mm=options.back_offset_mm)
    faces = [f for _, f in deck.expanded()]
    w, h = size.width, size.height
    b = plan.bleed
    buf = io.BytesIO()
    c = canvas.Canvas(buf, pagesize=(options.paper.width, options.paper.height), invariant=1,
                      pageCompression=1, initialFontName=fonts.SANS)
    for sheet in plan.sheets:
        for page in sheet.pages:
            for slot in page.slots:
                face = faces[slot.index]
                c.saveState()
                c.transform(*slot.transform)
                if page.role == "front":
                    c.setFillColorRGB(0.12, 0.37, 0.66)
                    c.rect(-b, -b, w + 2 * b, h + 2 * b, stroke=0, fill=1)
                    c.setFillColorRGB(1, 0.99, 0.96)
                    c.roundRect(8, 8, w - 16, h - 16, 4, stroke=1, fill=1)
                    c.setFillColorRGB(0.1, 0.28, 0.5)
                    c.rect(8, h - 36, w - 16, 28, stroke=0, fill=1)
                    c.setFillColorRGB(1, 1, 1)
                    c.setFont(fonts.SANS_BOLD, 11)
                    c.drawCentredString(w / 2, h - 26, face.name)
                    c.setFillColorRGB(0, 0, 0)
                    c.setFont(fonts.SANS_ITALIC, 6.5)
                    c.drawCentredString(w / 2, h - 46, face.kind)
                    c.rect(13, h - 110, w - 26, 60, stroke=1, fill=0)
                    for k, stat in enumerate(face.stats):
                        c.rect(15 + k * 50, h - 128, 14, 14, stroke=1, fill=0)
                        c.setFont(fonts.SANS_BOLD, 10)
                        c.drawString(32 + k * 50, h - 125, str(stat.value))
                    c.setFont(fonts.SANS, 8)
                    y = h - 145
                    for line in simpleSplit(face.text, fonts.SANS, 8, w - 26):
                        c.drawString(13, y, line)
                        y -= 9.4
                    c.setFont(fonts.SANS, 5)
                    c.drawString(13, 11, deck.title)
                    c.drawRightString(w - 13, 11, "1/1")
                else:
                    c.setFillColorRGB(0.12, 0.18, 0.36)
                    c.rect(-b, -b, w + 2 * b, h + 2 * b, stroke=0, fill=1)
                    c.setStrokeColorRGB(0.79, 0.64, 0.15)
                    c.roundRect(9, 9, w - 18, h - 18, 5, stroke=1, fill=0)
                    c.circle(w / 2, h / 2, min(w, h) * 0.27, stroke=1, fill=1)
                    c.setFont(fonts.SANS_BOLD, 14)
                    c.drawCentredString(w / 2, h * 0.2, deck.back.title)
                c.restoreState()
            c.setLineWidth(0.35)
            for m in page.crop_marks:
                c.line(m.x0, m.y0, m.x1, m.y1)
            c.setFont(fonts.SANS, 5.5)
            c.drawString(page.notice.x, page.notice.y + 3, "Print at 100% (actual size)")
            c.showPage()
    c.save()
    return buf.getvalue()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--cards", type=int, default=100)
    args = parser.parse_args()
    kit = sample_kit(cards=args.cards, parts="deck")
    options = PrintOptions.from_strings(paper="a4", bleed="3", backs="duplex-long",
                                        crop_marks=True)
    t0 = time.perf_counter()
    first = build_kit(kit, options)
    cold = time.perf_counter() - t0
    bare_reportlab(kit, options)  # warm reportlab's own caches too
    ours, bare = [], []
    for _ in range(args.runs):
        t0 = time.perf_counter()
        data = build_kit(kit, options)
        ours.append(time.perf_counter() - t0)
        t0 = time.perf_counter()
        plain = bare_reportlab(kit, options)
        bare.append(time.perf_counter() - t0)
    assert data == first, "output is not byte-identical between runs"
    m_ours, m_bare = statistics.median(ours), statistics.median(bare)
    print(f"print kit: {args.cards} cards, A4, bleed 3 mm, crop marks, duplex-long backs")
    print(f"  companion print suite : {m_ours * 1000:8.1f} ms  (median of {args.runs}; "
          f"first run {cold * 1000:.1f} ms; {len(data) / 1024:.0f} KiB)")
    print(f"  bare reportlab script : {m_bare * 1000:8.1f} ms  ({len(plain) / 1024:.0f} KiB)")
    print(f"  ratio                 : {m_ours / m_bare:8.2f}x  (target <= 2x)")


if __name__ == "__main__":
    main()
