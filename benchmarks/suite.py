"""Benchmark: the README's test command (``python -m pytest -q -n auto``) in this checkout and
interpreter, wall time and the CPU time of pytest and every process it started.

    python benchmarks/suite.py [--fork-off] [PYTEST ARGS...]

Issue 18's goal: within 10 minutes wall on the project's 2-core machine. ``--fork-off`` runs
the suite without the tests' fork server (``COMPANION_TEST_FORK=0``: every run of the command
line a new interpreter), the way the suite ran before it. Extra arguments go to pytest (a
subset: ``tests/test_store.py``). Takes as long as the suite; ``run_all.py --suite`` includes
it. Prints the figures and pytest's last line; asserts nothing.
"""
from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from figures import figure, machine  # noqa: E402

GOAL_MINUTES = 10


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--fork-off", action="store_true",
                        help="every run of the command line in a new interpreter")
    args, pytest_args = parser.parse_known_args()
    env = dict(os.environ)
    env.pop("COMPANION_BENCH_FIGURES", None)       # the suite's own benchmark runs record none
    if args.fork_off:
        env["COMPANION_TEST_FORK"] = "0"
    command = [sys.executable, "-m", "pytest", "-q", "-n", "auto", *pytest_args]
    print(f"machine: {machine()}")
    print(f"running: {' '.join(command)}" + (" (COMPANION_TEST_FORK=0)" if args.fork_off
                                              else ""), flush=True)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    proc = subprocess.run(command, cwd=HERE.parent, env=env, capture_output=True, text=True)
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    last = (proc.stdout.strip().splitlines() or ["(no output)"])[-1]
    print(f"  pytest: {last} (exit {proc.returncode})")
    print(f"  wall {wall / 60:5.2f} min, CPU {cpu / 60:5.2f} min "
          f"({cpu / wall:.2f} cores busy on average)")
    whole = not pytest_args
    label = "test suite (README's command)" if whole else "test subset"
    if args.fork_off:
        label += " without the fork server"
    figure(f"{label}, wall", wall / 60, "min",
           goal=f"<= {GOAL_MINUTES} min on the 2-core machine" if whole else None,
           met=(wall / 60 <= GOAL_MINUTES and proc.returncode == 0) if whole else None)
    figure(f"{label}, CPU", cpu / 60, "min")
    if proc.returncode:
        print(proc.stdout[-3000:])
        sys.exit(proc.returncode)


if __name__ == "__main__":
    main()
