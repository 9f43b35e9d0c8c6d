"""Monty Python and the Holy Grail CCG benchmark: random whole games per second through the rules
engine only (no store, no reports). Prints figures, asserts nothing.

    python benchmarks/grailccg.py [--games N]

Each game is two random players with the starter decks choosing their orders from the legal
lines (``options_for``), every order text parsed and checked as the service checks it, every
turn processed with a fresh chance stream, to a winner or a draw (the loop of
``tests/grailccg/ccg_play.py``, which also checks the position's invariants after every turn:
card conservation, no area shared).
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests" / "grailccg"))
sys.path.insert(0, str(ROOT / "benchmarks"))

from ccg_play import engine_game  # noqa: E402
from figures import figure  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=40)
    args = parser.parse_args()
    print(f"Holy Grail CCG: random whole two-player games, engine only ({args.games} per line)")
    for label, options in (("missing=default", {}), ("missing=wait", {"missing": "wait"})):
        turns = []
        start = time.perf_counter()
        for seed in range(args.games):
            _state, number = engine_game(seed, dict(options))
            turns.append(number)
        elapsed = time.perf_counter() - start
        figure(f"Holy Grail CCG random whole games, {label}", args.games / elapsed, "games/s")
        print(f"  {label:<16} {args.games / elapsed:8.1f} games/s   "
              f"{sum(turns) / elapsed:8.0f} processed turns/s   median {statistics.median(turns):.0f} "
              f"processed turns per game (longest {max(turns)})")


if __name__ == "__main__":
    main()
