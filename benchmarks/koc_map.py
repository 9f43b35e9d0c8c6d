"""Knights of Camelot: what the map figure (companion/koc/mapfigure.py) costs the reports of a
game turn. Prints figures, asserts nothing.

    python benchmarks/koc_map.py [--runs N] [--players P] [--turns T]

Plays a random game (tests/koc/kocplay.py) for T game turns, then builds the report documents
of every viewer (the public and each player) and renders them to PDF, text and HTML, with the
map figure and with it taken out of the same documents, A and B in turn in one process (fair
under a varying load). Times are CPU seconds (``time.process_time``), medians of N runs, after
one warm-up run each (the map's geometry and its recorded drawing are built once per process).
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from figures import figure, machine  # noqa: E402

from companion.engine.game import PUBLIC  # noqa: E402
from companion.koc.kind import KIND  # noqa: E402
from companion.render.report_html import render_html  # noqa: E402
from companion.render.report_pdf import render_pdf  # noqa: E402
from companion.render.report_text import render_text  # noqa: E402
from tests.koc.kocplay import play_states  # noqa: E402


def documents(state: dict, viewers: list[str], with_map: bool) -> list[dict]:
    out = []
    for viewer in viewers:
        view = KIND.view(state, viewer)
        view["envelope"] = {"game_id": "bench", "turn": state["koc"]["turn"],
                            "date": "2027-01-01 00:00 UTC", "link": "companion://bench/1/x",
                            "link_label": "your private link"}
        doc = KIND.report(view)
        if not with_map:
            for sec in doc["sections"]:
                sec["blocks"] = [b for b in sec["blocks"] if b["type"] != "figure"]
        doc["timestamp"] = "2027-01-01 00:00 UTC"
        out.append(doc)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=9)
    parser.add_argument("--players", type=int, default=5)
    parser.add_argument("--turns", type=int, default=12)
    args = parser.parse_args()
    state = list(play_states(3, args.players, args.turns))[-1]
    viewers = [PUBLIC] + list(state["koc"]["order"])
    renderers = {"pdf": render_pdf, "text": render_text, "html": render_html}
    times = {(name, m): [] for name in renderers for m in (False, True)}
    sizes: dict[bool, list[int]] = {}
    for with_map in (False, True):                       # warm-up
        for doc in documents(state, viewers, with_map):
            for render in renderers.values():
                render(doc)
    for _ in range(args.runs):
        for with_map in (False, True):
            docs = documents(state, viewers, with_map)
            for name, render in renderers.items():
                start = time.process_time()
                out = [render(doc) for doc in docs]
                times[name, with_map].append(time.process_time() - start)
                if name == "pdf":
                    sizes[with_map] = [len(b) for b in out]
    print(machine())
    print(f"{len(viewers)} reports of one game turn ({args.players} players, turn "
          f"{state['koc']['turn']}), CPU, median of {args.runs}")
    for name in renderers:
        without = statistics.median(times[name, False]) * 1000
        with_ = statistics.median(times[name, True]) * 1000
        each = (with_ - without) / len(viewers)
        print(f"  {name:5s} without the map {without:7.1f} ms, with it {with_:7.1f} ms "
              f"({each:+.1f} ms a report)")
        figure(f"koc map: {name} ms added per report", round(each, 2), unit="ms")
    grow = statistics.mean(a - b for a, b in zip(sizes[True], sizes[False])) / 1000
    print(f"  PDF size: {statistics.mean(sizes[False]) / 1000:.1f} kB without the map, "
          f"{statistics.mean(sizes[True]) / 1000:.1f} kB with it (+{grow:.1f} kB a report)")
    figure("koc map: PDF kB added per report", round(grow, 1), unit="kB")


if __name__ == "__main__":
    main()
