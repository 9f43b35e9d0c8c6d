"""What every benchmark script shares: the machine it ran on, and its figures for the summary
table of ``run_all.py``.

A script prints its figures for people as it likes and also calls :func:`figure` for each one
that matters; when ``COMPANION_BENCH_FIGURES`` names a file (``run_all.py`` sets it), the figure
is appended to that file as one JSON line. Nothing is asserted anywhere.
"""
from __future__ import annotations

import json
import os
import platform


def machine() -> str:
    """One line: processor, cores, load, Python, reportlab and whether its C accelerator runs."""
    try:
        from reportlab.lib import rl_accel
        accel = "C accelerator" if not rl_accel._py_funcs else "no C accelerator"
    except ImportError:
        accel = "?"
    import reportlab

    try:
        load = f", load {os.getloadavg()[0]:.1f}"
    except OSError:
        load = ""
    return (f"{platform.machine()}, {os.cpu_count()} cores{load}, Python "
            f"{platform.python_version()}, reportlab {reportlab.Version} ({accel})")


def figure(name: str, value: float, unit: str, *, ratio: float | None = None,
           goal: str | None = None, met: bool | None = None) -> None:
    """Record one figure: ``value`` in ``unit``; ``ratio`` against the baseline measured in the
    same run (``goal`` says what it is measured against, e.g. "<= 1.5x bare reportlab"), and
    whether the goal is met."""
    path = os.environ.get("COMPANION_BENCH_FIGURES")
    if not path:
        return
    record = {"name": name, "value": value, "unit": unit, "ratio": ratio, "goal": goal,
              "met": met}
    with open(path, "a", encoding="utf-8") as out:
        out.write(json.dumps(record) + "\n")
