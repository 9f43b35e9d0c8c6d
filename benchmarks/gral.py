"""Gral benchmarks: prints figures, asserts nothing.

    python benchmarks/gral.py [--games N]

1. random whole games per second, engine only (no store, no reports);
2. one 8-player turn: adjudication, and rendering every report (9 PDFs and 9 texts);
3. start-up time of ``companion --help`` (median of several runs).
"""
from __future__ import annotations

import argparse
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from figures import figure  # noqa: E402

from companion import service  # noqa: E402
from companion.engine.canon import GENESIS_HASH, state_hash  # noqa: E402
from companion.engine.chance import Chance, seed_key  # noqa: E402
from companion.engine.game import TurnContext  # noqa: E402
from companion.engine.orders import OrdersRejected  # noqa: E402
from companion.registry import get_kind  # noqa: E402
from companion.store import Game, Player, Store, Turn  # noqa: E402

KIND = get_kind("gral")
NAMES = ["Anna", "Bert", "Cora", "Dora", "Emil", "Fritz", "Greta", "Hugo"]


def random_orders(rng: random.Random, state: dict, player: str) -> str:
    lines = KIND.options_for(state, player)
    moves = [l for l in lines if l.startswith("move ")]
    picks = rng.sample(moves, k=min(2, len(moves))) if moves and rng.random() < 0.8 else []
    if not picks:
        picks = [rng.choice(lines)]
    if rng.random() < 0.2:
        picks.append(f"object any up to {rng.randint(1, 10)}")
    return "\n".join(picks)


def engine_game(seed: int, players: int) -> int:
    """A whole random game through the rules engine only; returns the number of turns."""
    rng = random.Random(seed)
    key = seed_key(str(seed))
    names = NAMES[:players]
    options = {"missing": "default", "variant": "standard", "first": names[0], "hq": "random",
               "round-limit": 60}
    state = KIND.create(names, options, Chance(key, 0))
    number = 0
    while state["phase"] != "over":
        number += 1
        orders = {}
        for p in names:
            text = random_orders(rng, state, p)
            try:
                parsed = KIND.parse_orders(state, p, text, "bench")
                KIND.check_orders(state, p, parsed, "bench")
            except OrdersRejected:
                continue
            orders[p] = parsed
        ctx = TurnContext(turn=number, key=key, chance=Chance(key, number), orders=orders,
                          options=options)
        KIND.process(state, ctx)
        KIND.finish_turn(state, ctx)
    return number


def bench_engine(games: int) -> None:
    start = time.perf_counter()
    turns = 0
    for seed in range(games):
        turns += engine_game(seed, 2 + seed % 7)
    elapsed = time.perf_counter() - start
    figure("Gral random whole games, engine only", games / elapsed, "games/s")
    print(f"engine: {games} random whole games (2-8 players, {turns} turns) in {elapsed:.2f} s: "
          f"{games / elapsed:.1f} games/s, {turns / elapsed:.0f} turns/s")


def turn_setup(folder: Path):
    """An 8-player game after its first turn, with random orders in for the second: the store,
    the game, its last turn and the pending submissions (also used by gral_turn.py)."""
    store = Store(folder / "bench.sqlite3", create=True)
    service.new_game(store, "gral", "b", NAMES, seed="bench", option_args=["first=Anna"])
    for p in NAMES:
        service.submit_orders(store, "b", p, "assign 10+5 to Alberto\nassign 3 to Mansur", "x")
    service.run_turn(store, "b")
    rng = random.Random(1)
    state = store.turn("b").state
    for p in NAMES:
        try:
            service.submit_orders(store, "b", p, random_orders(rng, state, p), "x")
        except OrdersRejected:
            pass
    submissions = {p: {"id": s.id, "text": s.text} for p, s in store.pending("b").items()}
    return store, store.game("b"), store.turn("b"), submissions


def bench_turn() -> None:
    folder = Path(tempfile.mkdtemp(prefix="companion-bench-"))
    try:
        store, game, last, submissions = turn_setup(folder)
        t0 = time.perf_counter()
        new_state, ctx = service.compute_turn(KIND, game, last, submissions)
        t1 = time.perf_counter()
        turn = Turn("b", last.number + 1, "2027-01-01 00:00 UTC", new_state,
                    state_hash(new_state, last.hash), last.hash, {}, ctx.decisions,
                    ctx.chance.to_json(), ctx.events)
        staged = service.stage_reports(game, turn, folder / "out")
        t2 = time.perf_counter()
        shutil.rmtree(staged)
        print(f"one 8-player turn: adjudication {1000 * (t1 - t0):.1f} ms; rendering all 9 "
              f"reports (PDF and text) {1000 * (t2 - t1):.0f} ms")
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def bench_startup(runs: int = 7) -> None:
    script = Path(sys.executable).parent / "companion"
    command = [str(script)] if script.exists() else [sys.executable, "-m", "companion"]
    times = []
    for _ in range(runs):
        t0 = time.perf_counter()
        subprocess.run(command + ["--help"], capture_output=True, check=True)
        times.append(time.perf_counter() - t0)
    print(f"'companion --help' start-up: median {1000 * statistics.median(times):.0f} ms "
          f"over {runs} runs")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100)
    args = parser.parse_args()
    bench_engine(args.games)
    bench_turn()
    bench_startup()


if __name__ == "__main__":
    main()
