"""Every benchmark, one table: prints figures and ratios, asserts nothing.

    python benchmarks/run_all.py [--quick] [--only NAME ...] [--markdown] [--suite]

Runs each script of this folder in its own process (so none inherits another's warm caches),
collects the figures each records (``figures.figure``) and prints one table: figure, value,
ratio to its baseline measured in the same run, the goal, and whether it is met; headed by the
machine it ran on, the date and the commit, so runs can be compared from release to release.
Each script's own output is kept in the log folder printed at the end. ``--quick`` runs smaller
samples (a minute or two in all); without it expect several minutes. ``--suite`` also runs
the README's test command (``suite.py``, as long as the test suite: about ten minutes).
"""
from __future__ import annotations

import argparse
import datetime
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent))

from figures import machine  # noqa: E402

# script, arguments for a full run, arguments for a quick one
SCRIPTS: list[tuple[str, list[str], list[str]]] = [
    ("gral_turn.py", [], ["--runs", "3"]),
    ("store_size.py", [], []),
    ("web_load.py", [], ["--seconds", "3"]),
    ("cli_startup.py", [], ["--runs", "3"]),
    ("print_kit.py", [], ["--runs", "2"]),
    ("gral.py", [], ["--games", "20"]),
    ("koc.py", [], ["--games", "4", "--turns", "20"]),
    ("mayhem.py", [], ["--games", "10"]),
    ("fluxx.py", [], ["--games", "10"]),
    ("grailccg.py", [], ["--games", "5"]),
]


def commit() -> str:
    try:
        out = subprocess.run(["git", "describe", "--always", "--dirty"], cwd=HERE.parent,
                             capture_output=True, text=True, timeout=10)
        return out.stdout.strip() or "?"
    except (OSError, subprocess.SubprocessError):
        return "?"


def value_text(value: float, unit: str) -> str:
    if unit == "yes/no":
        return "yes" if value else "no"
    if value >= 100:
        return f"{value:,.0f} {unit}"
    return f"{value:.2f} {unit}" if value < 10 else f"{value:.1f} {unit}"


def table(rows: list[dict], markdown: bool) -> list[str]:
    cells = [("figure", "value", "ratio", "goal", "met")]
    for r in rows:
        met = "" if r.get("met") is None else ("yes" if r["met"] else "NO")
        ratio = "" if r.get("ratio") is None else f"{r['ratio']:.2f}x"
        cells.append((r["name"], value_text(r["value"], r["unit"]), ratio, r.get("goal") or "",
                      met))
    if markdown:
        lines = ["| " + " | ".join(cells[0]) + " |", "|" + " --- |" * len(cells[0])]
        lines += ["| " + " | ".join(c) + " |" for c in cells[1:]]
        return lines
    widths = [max(len(c[i]) for c in cells) for i in range(len(cells[0]))]
    lines = ["  ".join(c[i].ljust(widths[i]) for i in range(len(c))).rstrip() for c in cells]
    lines.insert(1, "  ".join("-" * w for w in widths))
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="smaller samples")
    parser.add_argument("--only", nargs="*", default=None, metavar="NAME",
                        help="run only these scripts (e.g. gral_turn store_size)")
    parser.add_argument("--markdown", action="store_true", help="print the table as Markdown")
    parser.add_argument("--suite", action="store_true",
                        help="also time the README's test command (suite.py; ten minutes)")
    args = parser.parse_args()
    logs = Path(tempfile.mkdtemp(prefix="companion-bench-logs-"))
    figures_file = logs / "figures.jsonl"
    env = dict(os.environ, COMPANION_BENCH_FIGURES=str(figures_file))
    print(f"companion benchmarks, {datetime.datetime.now():%Y-%m-%d %H:%M}, commit {commit()}")
    print(f"machine: {machine()}")
    failed = []
    for script, full, quick in SCRIPTS + ([("suite.py", [], [])] if args.suite else []):
        name = script.removesuffix(".py")
        if args.only and name not in args.only:
            continue
        started = time.perf_counter()
        log = logs / f"{name}.log"
        with log.open("w", encoding="utf-8") as out:
            code = subprocess.run([sys.executable, str(HERE / script),
                                   *(quick if args.quick else full)],
                                  stdout=out, stderr=subprocess.STDOUT, env=env).returncode
        took = time.perf_counter() - started
        print(f"  {script:<16} {took:6.1f} s" + ("" if code == 0 else f"  FAILED ({code})"),
              flush=True)
        if code:
            failed.append(script)
    rows = []
    if figures_file.exists():
        rows = [json.loads(line) for line in figures_file.read_text().splitlines() if line]
    print()
    print("\n".join(table(rows, args.markdown)))
    print()
    print(f"each script's own output: {logs}")
    if failed:
        print(f"failed: {', '.join(failed)} (see their logs)")
        sys.exit(1)


if __name__ == "__main__":
    main()
