"""Benchmark: how fast the quick commands start, against ``python -c "import typer"`` measured in
the same run (goal: at most 1.5 times).

    python benchmarks/cli_startup.py [--runs N] [--kinds gral,koc,...]

Times whole processes from outside, start-up included: ``companion --help``, ``companion
games``, and ``companion options GAME PLAYER`` and ``companion show GAME`` on a new game of each
kind (made in a temporary store first). Each command and the yardstick run in turn (A B A B
...) after one warm-up run each; the ratio is taken pair by pair, so a machine whose speed drifts
still gives a fair ratio. Prints the median wall and CPU seconds (min and max beside them) and
the median ratio of each command. Commands run as ``python -m companion`` with byte-code caching
on (as an installed package has it), whatever PYTHONDONTWRITEBYTECODE says, and with the cache
of loaded game data in the temporary folder (filled by the warm-up runs) unless
COMPANION_CACHE_DIR is set (``off`` measures without it). Asserts nothing.
"""
from __future__ import annotations

import argparse
import os
import platform
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PLAYERS = ["Anna", "Bert", "Cora"]
GOAL = 1.5


def environment(folder: Path) -> dict[str, str]:
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))
    env["COMPANION_STORE"] = str(folder / "bench.sqlite3")
    env["COMPANION_OUTPUT"] = str(folder / "output")
    # the world cache (companion/engine/cache.py) in the temporary folder, filled by the warm-up
    # run; COMPANION_CACHE_DIR=off measures without it
    env.setdefault("COMPANION_CACHE_DIR", str(folder / "cache"))
    return env


def run_once(command: list[str], env: dict[str, str]) -> tuple[float, float]:
    """(wall, cpu) seconds of one whole run of ``command``."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(command, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL, check=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


def paired(command: list[str], yardstick: list[str], env: dict[str, str], runs: int) -> dict:
    run_once(command, env)
    run_once(yardstick, env)
    a_wall, a_cpu, b_wall, b_cpu = [], [], [], []
    for _ in range(runs):
        wall, cpu = run_once(command, env)
        a_wall.append(wall)
        a_cpu.append(cpu)
        wall, cpu = run_once(yardstick, env)
        b_wall.append(wall)
        b_cpu.append(cpu)
    return {"wall": a_wall, "cpu": a_cpu, "base_wall": b_wall,
            "ratio_wall": [a / b for a, b in zip(a_wall, b_wall)],
            "ratio_cpu": [a / b for a, b in zip(a_cpu, b_cpu) if b > 0]}


def spread(values: list[float]) -> str:
    return f"{statistics.median(values):.3f} ({min(values):.3f}-{max(values):.3f})"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=9, help="timed runs of each command")
    parser.add_argument("--kinds", default="", help="only these kinds, comma-separated")
    args = parser.parse_args()
    sys.path.insert(0, str(ROOT))
    sys.path.insert(0, str(ROOT / "benchmarks"))
    from figures import figure

    from companion.registry import KINDS

    kinds = [k.id for k in KINDS]
    if args.kinds:
        kinds = [k for k in kinds if k in args.kinds.split(",")]
    companion = [sys.executable, "-m", "companion"]
    yardstick = [sys.executable, "-c", "import typer"]
    with tempfile.TemporaryDirectory(prefix="companion-bench-") as tmp:
        env = environment(Path(tmp))
        commands = [["--help"], ["games"]]
        for kind in kinds:
            game = f"bench-{kind}"
            new = [*companion, "new", kind, game, "--seed", "1"]
            entry = next(k for k in KINDS if k.id == kind)
            for name in PLAYERS[:entry.max_players]:
                new += ["--player", name]
            subprocess.run(new, env=env, stdout=subprocess.DEVNULL, check=True)
            commands += [["options", game, PLAYERS[0]], ["show", game]]
        print(f"companion start-up against python -c 'import typer' (goal: at most {GOAL}x); "
              f"{platform.python_implementation()} {platform.python_version()}, "
              f"{platform.machine()}, {os.cpu_count()} cores, {args.runs} runs each")
        print(f"{'command':28} {'wall s median (min-max)':>26} {'cpu s median':>13} "
              f"{'typer wall s':>13} {'ratio wall':>11} {'ratio cpu':>10}")
        worst = 0.0
        for argv in commands:
            figures = paired([*companion, *argv], yardstick, env, args.runs)
            ratio = statistics.median(figures["ratio_wall"])
            worst = max(worst, ratio)
            ratio_cpu = statistics.median(figures["ratio_cpu"]) if figures["ratio_cpu"] else 0.0
            label = " ".join(a.removeprefix("bench-") for a in argv if a != PLAYERS[0])
            figure(f"companion {label}, CPU", statistics.median(figures["cpu"]) * 1000, "ms",
                   ratio=ratio_cpu, goal=f"<= {GOAL}x python -c 'import typer'",
                   met=ratio_cpu <= GOAL)
            print(f"{' '.join(argv):28} {spread(figures['wall']):>26} "
                  f"{statistics.median(figures['cpu']):13.3f} "
                  f"{statistics.median(figures['base_wall']):13.3f} {ratio:10.2f}x "
                  f"{ratio_cpu:9.2f}x")
        print(f"slowest ratio (wall): {worst:.2f}x; goal {GOAL}x: "
              f"{'met' if worst <= GOAL else 'not met'}")


if __name__ == "__main__":
    main()
