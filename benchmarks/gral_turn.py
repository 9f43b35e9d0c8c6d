"""Benchmark: one 8-player Gral turn, adjudication plus every report (9 PDFs and 9 texts),
against a bare reportlab script laying out the same pages, in the same run.

    python benchmarks/gral_turn.py [--runs N]

Prints (nothing is asserted; figures for humans and CI logs):

* the first turn of this process: what ``companion turn`` pays, with reportlab's import, the
  fonts and the templates loaded for the first time (rendering as configured: two processes
  by default, ``COMPANION_JOBS``);
* the median of N further turns in one process (``COMPANION_JOBS=1``; wall and CPU seconds),
  split into adjudication and reports;
* the median of N runs of the bare script, and the ratio of the two medians (taken turn by
  turn, run alternately with ours so a drifting machine moves both);
* the median of N turns with the reports shared among two processes (``COMPANION_JOBS=2``).

The bare script builds each report's pages with plain platypus and the same fonts and text:
a Paragraph per paragraph, list item and order line, a Table per table and the header, a
Preformatted per code block, the same board figure, and the QR code as a plain square (no
encoding); no outline, no KeepTogether, no columns, one process.
"""
from __future__ import annotations

import argparse
import io
import os
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))

from gral import KIND, turn_setup  # noqa: E402  (gral.py's game and random players)

from figures import figure, machine  # noqa: E402

from companion import service  # noqa: E402
from companion.engine.canon import state_hash  # noqa: E402
from companion.store import Turn  # noqa: E402


setup = turn_setup          # an 8-player game after its opening, turn 2's orders in


def our_turn(game, last, submissions, out: Path) -> tuple[float, float, float, dict[str, bytes]]:
    """Adjudicate and render every report as ``companion run`` does; returns (adjudication
    seconds, reports seconds, CPU seconds, the files)."""
    c0 = time.process_time() + _children_cpu()
    t0 = time.perf_counter()
    new_state, ctx = service.compute_turn(KIND, game, last, submissions)
    turn = Turn("b", last.number + 1, "2027-01-01 00:00 UTC", new_state,
                state_hash(new_state, last.hash), last.hash, {}, ctx.decisions,
                ctx.chance.to_json(), ctx.events)
    t1 = time.perf_counter()
    staged = service.stage_reports(game, turn, out)
    t2 = time.perf_counter()
    cpu = time.process_time() + _children_cpu() - c0
    files = {p.name: p.read_bytes() for p in sorted(staged.iterdir())}
    shutil.rmtree(staged)
    return t1 - t0, t2 - t1, cpu, files


def _children_cpu() -> float:
    t = os.times()
    return t.children_user + t.children_system


def bare_reportlab(docs: dict) -> list[bytes]:
    """The same pages laid out with plain platypus, one document after the other."""
    from reportlab.lib.pagesizes import A4
    from reportlab.lib.styles import ParagraphStyle
    from reportlab.lib.units import mm
    from reportlab.platypus import Paragraph, Preformatted, SimpleDocTemplate, Spacer, Table
    from xml.sax.saxutils import escape

    from companion.render import fonts
    from companion.render.report_pdf import figure_flowable

    fonts.register_fonts()
    body = ParagraphStyle("b", fontName=fonts.SANS, fontSize=9.5, leading=12.5, spaceAfter=3)
    head = ParagraphStyle("h", fontName=fonts.SANS_BOLD, fontSize=12, leading=15,
                          spaceBefore=9, spaceAfter=4)
    cell = ParagraphStyle("c", fontName=fonts.SANS, fontSize=8.5, leading=10.5)
    mono = ParagraphStyle("m", fontName=fonts.MONO, fontSize=7.2, leading=9)
    width = A4[0] - 32 * mm
    out = []
    for doc in docs.values():
        def page(c, _d, doc=doc):
            if doc.get("qr"):
                c.rect(A4[0] - 46 * mm, A4[1] - 46 * mm, 30 * mm, 30 * mm, stroke=0, fill=1)
            c.setFont(fonts.SANS, 7)
            c.drawString(16 * mm, 9 * mm, doc.get("footer", ""))
            c.drawRightString(A4[0] - 16 * mm, 9 * mm, f"page {c.getPageNumber()}")

        def p(s, style=body):
            return Paragraph(escape(str(s)).replace("\n", "<br/>"), style)

        story = [p(doc["title"], head),
                 Table([[p(a, cell), p(b, cell)] for a, b in doc.get("header", [])],
                       colWidths=[28 * mm, width - 64 * mm], hAlign="LEFT")]
        for sec in doc["sections"]:
            story.append(p(sec["title"], head))
            for b in sec["blocks"]:
                kind = b["type"]
                if kind == "para":
                    story.append(p(b["text"]))
                elif kind == "list":
                    story.extend(Paragraph(escape(i), body, bulletText="•") for i in b["items"])
                elif kind == "table":
                    rows = [[p(c, cell) for c in b["columns"]]]
                    rows += [[p(c, cell) for c in r] for r in b["rows"]]
                    story.append(Table(rows, colWidths=[width / len(b["columns"])]
                                       * len(b["columns"]), repeatRows=1))
                elif kind == "figure":
                    story.append(figure_flowable(b["figure"], b["data"], width))
                elif kind == "options":
                    for g in b["groups"]:
                        story.append(p(g["title"]))
                        story.extend(p(line, mono) for line in g["lines"])
                elif kind == "form":
                    story.append(p(b["text"]))
                    story.append(Table([[""]] * b["lines"], colWidths=[width],
                                       rowHeights=[7.5 * mm] * b["lines"]))
                elif kind == "code":
                    story.append(Preformatted("\n".join(b["lines"]), mono))
                story.append(Spacer(1, 4))
        buffer = io.BytesIO()
        SimpleDocTemplate(buffer, pagesize=A4, invariant=1, leftMargin=16 * mm,
                          rightMargin=16 * mm, topMargin=16 * mm, bottomMargin=14 * mm,
                          initialFontName=fonts.SANS).build(story, onFirstPage=page,
                                                            onLaterPages=page)
        out.append(buffer.getvalue())
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="companion-bench-"))
    store = None
    try:
        store, game, last, submissions = setup(folder)
        cold = our_turn(game, last, submissions, folder / "out")
        first = cold[3]
        new_state, ctx = service.compute_turn(KIND, game, last, submissions)
        turn = Turn("b", last.number + 1, "2027-01-01 00:00 UTC", new_state,
                    state_hash(new_state, last.hash), last.hash, {}, ctx.decisions,
                    ctx.chance.to_json(), ctx.events)
        docs = service.report_documents(game, turn)
        bare_reportlab(docs)                     # warm reportlab's own caches too
        ours, bare, ratios, identical = [], [], [], True
        previous = os.environ.get("COMPANION_JOBS")
        os.environ["COMPANION_JOBS"] = "1"       # one process: the baseline of the ratio
        for _ in range(args.runs):
            run = our_turn(game, last, submissions, folder / "out")
            identical &= run[3] == first
            ours.append(run)
            t0 = time.perf_counter()
            pages = bare_reportlab(docs)
            bare.append(time.perf_counter() - t0)
            ratios.append((run[0] + run[1]) / bare[-1])
        parallel = []
        os.environ["COMPANION_JOBS"] = "2"       # the reports shared among two processes
        try:
            for _ in range(args.runs):
                run = our_turn(game, last, submissions, folder / "out")
                identical &= run[3] == first
                parallel.append(run)
        finally:
            if previous is None:
                del os.environ["COMPANION_JOBS"]
            else:
                os.environ["COMPANION_JOBS"] = previous
    finally:
        if store is not None:
            store.close()
        shutil.rmtree(folder, ignore_errors=True)

    def ms(seconds: float) -> str:
        return f"{seconds * 1000:7.1f} ms"

    adj = statistics.median(r[0] for r in ours)
    rep = statistics.median(r[1] for r in ours)
    wall = statistics.median(r[0] + r[1] for r in ours)
    cpu = statistics.median(r[2] for r in ours)
    m_bare = statistics.median(bare)
    pdfs = [v for k, v in first.items() if k.endswith(".pdf")]
    print(f"one 8-player Gral turn: {len(pdfs)} PDF reports ({sum(map(len, pdfs)) // 1024} KiB) "
          f"and {len(first) - len(pdfs)} other files; {machine()}")
    print(f"  first turn of the process : {ms(cold[0] + cold[1])} wall "
          f"(adjudication {ms(cold[0]).strip()}, reports {ms(cold[1]).strip()}; imports, fonts "
          f"and templates loaded)")
    print(f"  turn, one process (med {args.runs:2d}): {ms(wall)} wall, {ms(cpu)} CPU "
          f"(adjudication {ms(adj).strip()}, reports {ms(rep).strip()})")
    print(f"  with COMPANION_JOBS=2     : "
          f"{ms(statistics.median(r[0] + r[1] for r in parallel))} wall, "
          f"{ms(statistics.median(r[2] for r in parallel))} CPU (median of {args.runs})")
    print(f"  bare reportlab script     : {ms(m_bare)} wall (same pages, "
          f"{sum(map(len, pages)) // 1024} KiB)")
    print(f"  ratio turn / bare         : {statistics.median(ratios):7.2f}x  (goal <= 1.5x; "
          f"goal for the turn < 500 ms wall)")
    print(f"  byte-identical runs       : {'yes' if identical else 'NO'}")
    first_turn = cold[0] + cold[1]
    figure("Gral 8-player turn, first of a process", first_turn * 1000, "ms",
           goal="< 500 ms", met=first_turn < 0.5)
    figure("Gral 8-player turn, adjudication + 9 reports", wall * 1000, "ms",
           ratio=statistics.median(ratios), goal="< 500 ms; <= 1.5x bare reportlab",
           met=wall < 0.5 and statistics.median(ratios) <= 1.5)
    two = statistics.median(r[0] + r[1] for r in parallel)
    figure("Gral 8-player turn, COMPANION_JOBS=2", two * 1000, "ms", ratio=two / wall,
           goal="vs serial")
    figure("Gral turn output byte-identical", 1.0 if identical else 0.0, "yes/no",
           met=identical)


if __name__ == "__main__":
    main()
