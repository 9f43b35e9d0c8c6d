"""Benchmark: print a 100-card kit (A4, 3 mm bleed, crop marks, duplex backs) with the print
suite, and a bare reportlab script drawing the same rectangles and text, in the same run; then
each game's real kit (default options: A4, no bleed, crop marks, backs none) against a bare
reportlab script drawing the same number of pages and cards on the same paper (a rectangle and
a line of text per card or chit, or per page that holds no cards).

    python benchmarks/print_kit.py [--runs N] [--cards N] [--kits gral,koc,...|none]

Prints the median CPU time of each (runs alternate between the two) and their ratio (issue 18's
target for the game kits: at most 5x).  No assertions: this is a figure for humans and CI logs.
"""
from __future__ import annotations

import argparse
import gc
import io
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from figures import figure  # noqa: E402

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


def kit_shape(plan):
    """What the bare script draws for a planned kit: the paper, and per page the trim rectangles
    of its cards (None for a page without cards) and its label."""
    return plan.options.paper, [
        ([slot.trim for slot in page.layout.slots] if page.layout is not None else None,
         page.label) for page in plan.pages]


def bare_kit(shape) -> bytes:
    """Issue 18's bare drawing script: a rectangle and a line of text per card (or per page
    without cards), same paper, same page count."""
    from reportlab.pdfgen import canvas

    from companion.render import fonts

    fonts.register_fonts()
    paper, pages = shape
    buf = io.BytesIO()
    c = canvas.Canvas(buf, pagesize=(paper.width, paper.height), invariant=1,
                      pageCompression=1, initialFontName=fonts.SANS)
    for trims, label in pages:
        c.setFont(fonts.SANS, 8)
        if trims is None:
            c.rect(40, 40, paper.width - 80, paper.height - 80, stroke=1, fill=0)
            c.drawString(50, paper.height / 2, label)
        for k, t in enumerate(trims or ()):
            c.rect(t.x, t.y, t.w, t.h, stroke=1, fill=0)
            c.drawString(t.x + 4, t.y + t.h / 2, f"card {k + 1}")
        c.showPage()
    c.save()
    return buf.getvalue()


def measure(kit, options, runs: int) -> dict:
    """One kit built with ``options`` against the bare script drawing the same pages and cards:
    first (cold) build, then medians of ``runs`` alternating runs, CPU time."""
    from companion.render.printkit import plan_kit

    t0 = time.process_time()
    first = build_kit(kit, options)
    cold = time.process_time() - t0
    shape = kit_shape(plan_kit(kit, options))
    bare_kit(shape)
    ours, bare, data, _ = alternate(lambda: build_kit(kit, options), lambda: bare_kit(shape), runs)
    assert data == first, f"{kit.game}: output is not byte-identical between runs"
    return {"pages": len(shape[1]), "cards": sum(len(t) for t, _ in shape[1] if t),
            "cold": cold, "ours": ours, "bare": bare, "bytes": len(data)}


def alternate(ours, bare, runs: int) -> tuple[float, float, bytes, bytes]:
    """Median CPU seconds of ``ours()`` and ``bare()`` over ``runs`` alternating runs, and the
    last output of each."""
    times: tuple[list[float], list[float]] = ([], [])
    out = [b"", b""]
    for _ in range(runs):
        for k, work in enumerate((ours, bare)):
            gc.collect()  # each run starts with no garbage of the other's
            t0 = time.process_time()
            out[k] = work()
            times[k].append(time.process_time() - t0)
    return statistics.median(times[0]), statistics.median(times[1]), out[0], out[1]


def _row(label: str, m: dict) -> str:
    return (f"  {label:16} {m['pages']:5d} {m['cards']:5d} {m['cold'] * 1000:6.0f}ms "
            f"{m['ours'] * 1000:6.0f}ms {m['bare'] * 1000:6.1f}ms {m['ours'] / m['bare']:5.1f}x "
            f"{m['bytes'] / 1024:6.0f}")


def game_kits(kinds: list[str], runs: int, parts: bool) -> None:
    """Each game's kit against the bare script, alternating runs, medians; with ``parts``, each
    kind of part of the kit (``--only cards``, ``charts``...) measured the same way too."""
    from companion.registry import KINDS, get_kind
    from companion.render.printkit.model import part_kind

    if not kinds:
        kinds = [k.id for k in KINDS if hasattr(get_kind(k.id), "print_kit")]
    options = PrintOptions.from_strings()
    print(f"game kits: A4, defaults ({options.describe()}); median of {runs} alternating runs, "
          "CPU time")
    print(f"  {'kit':16} {'pages':>5} {'cards':>5} {'first':>8} {'ours':>8} {'bare':>8} "
          f"{'ratio':>6} {'KiB':>6}")
    for kind in kinds:
        kit = get_kind(kind).print_kit()
        m = measure(kit, options, runs)
        figure(f"print kit {kind} ({m['pages']} pages), CPU", m["ours"] * 1000, "ms",
               ratio=m["ours"] / m["bare"], goal="<= 5x bare drawing script",
               met=m["ours"] / m["bare"] <= 5)
        print(_row(kind, m))
        if parts:       # where the time goes: each kind of part alone (with its cover page)
            for what in dict.fromkeys(part_kind(p) for p in kit.parts):
                print(_row(f"  --only {what}", measure(kit, PrintOptions.from_strings(only=what),
                                                       runs)))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--cards", type=int, default=100)
    parser.add_argument("--kits", default="",
                        help="game kinds to time, comma-separated (default all; 'none' skips)")
    parser.add_argument("--parts", action="store_true",
                        help="also time each kind of part of each kit on its own")
    args = parser.parse_args()
    kit = sample_kit(cards=args.cards, parts="deck")
    options = PrintOptions.from_strings(paper="a4", bleed="3", backs="duplex-long",
                                        crop_marks=True)
    t0 = time.process_time()
    first = build_kit(kit, options)
    cold = time.process_time() - t0
    bare_reportlab(kit, options)  # warm reportlab's own caches too
    m_ours, m_bare, data, plain = alternate(lambda: build_kit(kit, options),
                                            lambda: bare_reportlab(kit, options), args.runs)
    assert data == first, "output is not byte-identical between runs"
    print(f"print kit: {args.cards} cards, A4, bleed 3 mm, crop marks, duplex-long backs "
          "(CPU time)")
    print(f"  companion print suite : {m_ours * 1000:8.1f} ms  (median of {args.runs}; "
          f"first run {cold * 1000:.1f} ms; {len(data) / 1024:.0f} KiB)")
    print(f"  bare reportlab script : {m_bare * 1000:8.1f} ms  ({len(plain) / 1024:.0f} KiB)")
    print(f"  ratio                 : {m_ours / m_bare:8.2f}x  (target <= 2x)")
    figure(f"print suite, {args.cards}-card sample deck, CPU", m_ours * 1000, "ms",
           ratio=m_ours / m_bare, goal="<= 2x same designs drawn bare", met=m_ours / m_bare <= 2)
    if args.kits != "none":
        game_kits([k for k in args.kits.split(",") if k.strip()], args.runs, args.parts)


if __name__ == "__main__":
    main()
