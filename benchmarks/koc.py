"""Knights of Camelot benchmark: player turns adjudicated per second (engine only: no store, no
reports). Prints figures, asserts nothing.

    python benchmarks/koc.py [--games N] [--turns T]

Each game has several knights played by random players: orders chosen from the legal options
(`options_for`) with random standing answers from the question catalogue, checked as the
service checks them, every game turn run through `process` with a fresh chance stream, as
`companion turn` would. A separate line times the same games with `missing=wait` (paused and
resumed player turns).
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
from companion.koc.engine.questions import load_all  # noqa: E402
from companion.registry import get_kind  # noqa: E402

KIND = get_kind("koc")
NAMES = ["Anna", "Bert", "Cora", "Dora", "Emil", "Fritz"]
CATALOGUE = load_all()


def random_text(rng: random.Random, lines: list[str]) -> str:
    moves = [x for x in lines if not x.startswith(("request", "pray", "answer"))]
    out = [x for x in lines if x.startswith("answer")][:1]
    if moves:
        out.append(rng.choice(moves))
    asks = [x for x in lines if x.startswith(("request", "pray"))]
    if asks and rng.random() < 0.5:
        out.append(rng.choice(asks))
    for _ in range(rng.randint(0, 2)):
        spec = rng.choice(list(CATALOGUE.values()))
        out.append(f"on {spec.key}: {rng.choice(spec.answers)}")
    return "\n".join(out) + "\n"


def engine_game(seed: int, players: int, turns: int, options: dict[str, str]) -> tuple[int, float]:
    """A random game of ``turns`` game turns; returns (player turns played, seconds spent in
    the engine)."""
    rng = random.Random(seed)
    key = seed_key(str(seed))
    names = NAMES[:players]
    opts = resolve_options(KIND.option_specs, options, names)
    state = KIND.create(names, opts, Chance(key, 0))
    engine = 0.0
    played = 0
    for number in range(1, turns + 1):
        orders = {}
        for p in names:
            text = random_text(rng, KIND.options_for(state, p))
            try:
                service.validate_orders(KIND, state, p, text, "random")
            except OrdersRejected:
                text = "stay\n" if not state["pending"].get(p) else ""
            orders[p] = KIND.parse_orders(state, p, text, "random")
        before = sum(k["turns_played"] for k in state["knights"].values())
        ctx = TurnContext(turn=number, key=key, chance=Chance(key, number), orders=orders,
                          options=opts)
        state = deep_copy(state)
        start = time.perf_counter()
        KIND.process(state, ctx)
        KIND.finish_turn(state, ctx)
        engine += time.perf_counter() - start
        played += sum(k["turns_played"] for k in state["knights"].values()) - before
        if KIND.is_over(state):
            break
    return played, engine


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20, help="games per line")
    parser.add_argument("--turns", type=int, default=40, help="game turns per game")
    args = parser.parse_args()
    print(f"Knights of Camelot: random games, engine only ({args.games} games of "
          f"{args.turns} game turns per line)")
    configs = [(2, {}), (4, {}), (6, {}), (4, {"scenario": "grail"}),
               (4, {"missing": "wait"})]
    for players, options in configs:
        played, spent = [], []
        for seed in range(args.games):
            p, t = engine_game(seed, players, args.turns, options)
            played.append(p)
            spent.append(t)
        label = f"{players} knights" + (" " + ",".join(f"{k}={v}" for k, v in options.items())
                                        if options else "")
        total = sum(spent)
        figure(f"KoC random games, {label}, engine only", sum(played) / total,
               "player turns/s")
        print(f"  {label:<26} {sum(played) / total:9.0f} player turns/s   "
              f"median {statistics.median(played):.0f} player turns per game, "
              f"{1000 * total / max(1, sum(played)):.2f} ms each")


if __name__ == "__main__":
    main()
