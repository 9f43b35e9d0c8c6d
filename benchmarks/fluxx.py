"""Monty Python Fluxx benchmarks: prints figures, asserts nothing.

    python benchmarks/fluxx.py [--games N] [--players 2-6]

1. random whole games per second through the rules engine only (no store, no reports), with
   the legal options of every turn computed and random orders parsed and checked, as a player
   would send them; and the same with missing=wait (paused turns resumed);
2. one processed turn and the rendering of every report of a 6-player game.
"""
from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests" / "fluxx"))
sys.path.insert(0, str(ROOT / "benchmarks"))

from figures import figure  # noqa: E402
from fluxx_play import engine_game  # noqa: E402


def games_per_second(count: int, players: list[int], options: dict) -> tuple[float, float, int]:
    turns = []
    start = time.perf_counter()
    for seed in range(count):
        state, number = engine_game(seed, players[seed % len(players)], dict(options))
        turns.append(number)
    elapsed = time.perf_counter() - start
    return count / elapsed, statistics.mean(turns), max(turns)


def report_rendering() -> tuple[float, float, int]:
    from companion import service
    from companion.render.report_pdf import render_pdf
    from companion.render.report_text import render_text
    from companion.store import Store

    with tempfile.TemporaryDirectory() as tmp:
        store = Store(Path(tmp) / "s.sqlite3", create=True)
        names = ["Anna", "Bert", "Cora", "Dora", "Emil", "Fritz"]
        service.new_game(store, "fluxx", "g", names, seed="1", option_args=["first=Anna"])
        start = time.perf_counter()
        service.run_turn(store, "g")
        turn_time = time.perf_counter() - start
        game, turn = store.game("g"), store.turn("g")
        start = time.perf_counter()
        docs = service.report_documents(game, turn)
        for doc in docs.values():
            render_pdf(doc)
            render_text(doc)
        render_time = time.perf_counter() - start
        store.close()
    return turn_time, render_time, len(docs)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--players", default="2-6")
    args = parser.parse_args()
    low, _, high = args.players.partition("-")
    players = list(range(int(low), int(high or low) + 1))
    rate, mean_turns, longest = games_per_second(args.games, players, {})
    figure("Fluxx random whole games, engine only", rate, "games/s")
    print(f"engine only, missing=default: {rate:.2f} games/s over {args.games} games of "
          f"{args.players} players (mean {mean_turns:.0f} turns, longest {longest})")
    rate, mean_turns, longest = games_per_second(max(1, args.games // 2), players,
                                                 {"missing": "wait", "others": "wait"})
    print(f"engine only, missing=wait, others=wait: {rate:.2f} games/s "
          f"(mean {mean_turns:.0f} processed turns, longest {longest})")
    turn_time, render_time, reports = report_rendering()
    figure("Fluxx 6-player turn through the service", turn_time * 1000, "ms")
    figure(f"Fluxx 6-player turn, rendering its {reports} reports", render_time * 1000, "ms")
    print(f"one 6-player turn through the service: {turn_time * 1000:.0f} ms; rendering its "
          f"{reports} reports (PDF and text): {render_time * 1000:.0f} ms")


if __name__ == "__main__":
    main()
