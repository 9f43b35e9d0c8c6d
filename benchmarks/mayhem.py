"""Medieval Mayhem benchmark: random whole games per second, engine only (no store, no reports).
Prints figures, asserts nothing.

    python benchmarks/mayhem.py [--games N]

Each game is played by random players choosing from the legal options (`options_for`), their
order texts parsed and checked as the service does, every processed turn run through
`process` and `finish_turn` with a chance stream, as `companion turn` would.
"""
from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from figures import figure  # noqa: E402

from companion import service  # noqa: E402
from companion.engine.canon import deep_copy  # noqa: E402
from companion.engine.chance import Chance, seed_key  # noqa: E402
from companion.engine.game import TurnContext, resolve_options  # noqa: E402
from companion.engine.orders import OrdersRejected  # noqa: E402
from companion.registry import get_kind  # noqa: E402

KIND = get_kind("mayhem")
NAMES = ["Anna", "Bert", "Cora", "Dora", "Emil", "Fritz"]


def engine_game(seed: int, players: int, options: dict[str, str]) -> tuple[int, int]:
    """A whole random game; returns (processed turns, player turns)."""
    rng = random.Random(seed)
    key = seed_key(str(seed))
    names = NAMES[:players]
    opts = resolve_options(KIND.option_specs, options, names)
    chance = Chance(key, 0)
    state = KIND.create(names, opts, chance)
    ctx = TurnContext(turn=0, key=key, chance=chance, orders={}, options=opts)
    state["events"] = []
    KIND.finish_turn(state, ctx)
    held: dict[str, str] = {}
    number = 0
    while state["phase"] != "over":
        number += 1
        if number > 1000:
            raise RuntimeError(f"game {seed} does not end")
        for p in names:
            lines = KIND.options_for(state, p)
            if not lines:
                continue
            text = "\n".join(rng.sample(lines, k=min(len(lines), rng.randint(1, 3))))
            try:
                service.validate_orders(KIND, state, p, text, "random")
            except OrdersRejected:
                text = rng.choice(lines)
            held[p] = text
        orders = {p: KIND.parse_orders(state, p, t, "random") for p, t in held.items()}
        ctx = TurnContext(turn=number, key=key, chance=Chance(key, number), orders=orders,
                          options=opts)
        state = deep_copy(state)
        KIND.process(state, ctx)
        KIND.finish_turn(state, ctx)
        for p in ctx.used:
            held.pop(p, None)
    return number, sum(state["turns"].values())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=40, help="games per player count")
    args = parser.parse_args()
    print(f"Medieval Mayhem: random whole games, engine only ({args.games} per line)")
    configs = [(2, {}), (3, {}), (4, {}), (5, {}), (4, {"teams": "on"}),
               (6, {"teams": "on"}), (3, {"rounds": "short"})]
    for players, options in configs:
        start = time.perf_counter()
        processed, played = [], []
        for seed in range(args.games):
            p, t = engine_game(seed, players, options)
            processed.append(p)
            played.append(t)
        elapsed = time.perf_counter() - start
        label = f"{players} players" + (" " + ",".join(f"{k}={v}" for k, v in options.items())
                                        if options else "")
        figure(f"Mayhem random whole games, {label}", args.games / elapsed, "games/s")
        print(f"  {label:<28} {args.games / elapsed:8.1f} games/s   "
              f"{sum(played) / elapsed:9.0f} player turns/s   "
              f"median {statistics.median(played):.0f} player turns, "
              f"{statistics.median(processed):.0f} processed turns per game")


if __name__ == "__main__":
    main()
