"""Store size and per-turn cost: prints figures, asserts nothing.

    python benchmarks/store_size.py [--turns N]

Plays a 30-turn 8-player Gral game and a 30-turn 6-knight Knights of Camelot game through the
service (orders submitted as text by random players like the other benchmarks', every turn run
as ``companion turn`` runs it, reports aside) into a fresh store, then prints:

1. the bytes stored per turn: the store file's growth (after VACUUM) and each column's share;
2. the time of ``run_turn`` for the first turns against the last turns of the same game, with
   the rules engine's own work (``process`` and ``finish_turn``, which depends on the position:
   a Gral round of a crowded board proposes more moves) taken out: what remains is what the
   store and service pay per turn. A Gral turn's decisions and events grow with the board (the
   random players' standing objections pile up: a turn's record grows from about 17 KB of JSON
   to about 160 KB), so this ratio still mixes in the position; the same ratio per KB of the
   turns' records is printed beside it;
3. the controlled measure: the same last turn (same state, same orders, same dice) run on a copy
   of the store holding the game's whole history and on a copy from which every turn but the
   last two was deleted; the ratio of their medians is what the length of the game alone costs.
"""
from __future__ import annotations

import argparse
import random
import shutil
import sqlite3
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from figures import figure  # noqa: E402

from companion import service  # noqa: E402
from companion.errors import CompanionError  # noqa: E402
from companion.registry import get_kind  # noqa: E402
from companion.store import Store  # noqa: E402

NAMES = ["Anna", "Bert", "Cora", "Dora", "Emil", "Fritz", "Greta", "Hugo"]
GAMES = {
    "gral": (8, ["missing=default", "round-limit=200"]),
    "koc": (6, ["missing=default"]),
}


def random_text(kind_id: str, rng: random.Random, state: dict, player: str) -> str:
    if kind_id == "gral":
        sys.path.insert(0, str(Path(__file__).resolve().parent))
        from gral import random_orders

        return random_orders(rng, state, player)
    from koc import random_text as koc_text

    return koc_text(rng, get_kind("koc").options_for(state, player))


class EngineClock:
    """Adds up the time spent in a kind's rules engine (its process and finish_turn)."""

    def __init__(self, kind):
        self.spent = 0.0
        for name in ("process", "finish_turn"):
            setattr(kind, name, self.timed(getattr(kind, name)))

    def timed(self, method):
        def run(*args, **kwargs):
            start = time.perf_counter()
            try:
                return method(*args, **kwargs)
            finally:
                self.spent += time.perf_counter() - start
        return run


def submit_random(store: Store, kind, game_id: str, rng: random.Random) -> bool:
    """Random orders for every awaited player; False when the game is over."""
    last = store.turn(game_id)
    if kind.is_over(last.state):
        return False
    for player in kind.awaited(last.state):
        text = random_text(kind.id, rng, last.state, player)
        try:
            service.submit_orders(store, game_id, player, text, "random")
        except CompanionError:     # rejected orders: the player's default applies
            pass
    return True


def play(store: Store, kind_id: str, turns: int,
         seed: int = 7) -> tuple[int, list[float], list[int]]:
    """Plays one game; returns the number of turns run, the seconds each took outside the
    rules engine and the size of each turn's record (the canonical JSON of its columns)."""
    players, options = GAMES[kind_id]
    game_id = f"{kind_id}-size"
    rng = random.Random(seed)
    service.new_game(store, kind_id, game_id, NAMES[:players], seed=str(seed),
                     option_args=options)
    kind = get_kind(kind_id)
    clock = EngineClock(kind)
    times, sizes = [], []
    for _ in range(turns):
        if not submit_random(store, kind, game_id, rng):
            break
        start, engine = time.perf_counter(), clock.spent
        service.run_turn(store, game_id)
        times.append(time.perf_counter() - start - (clock.spent - engine))
        sizes.append(sum(len(text) for text in store.turn(game_id).texts().values()))
    return len(times), times, sizes


def column_bytes(path: Path) -> dict[str, int]:
    db = sqlite3.connect(str(path))
    columns = [row[1] for row in db.execute("PRAGMA table_info(turns)")]
    sizes = {}
    for column in columns:
        if column in ("game_id", "number"):
            continue
        sizes[column] = db.execute(f"SELECT SUM(LENGTH({column})) FROM turns").fetchone()[0]
    db.close()
    return sizes


def file_size(path: Path) -> int:
    db = sqlite3.connect(str(path))
    db.execute("VACUUM")
    db.close()
    return path.stat().st_size


def history_cost(path: Path, kind_id: str, runs: int) -> tuple[float, float]:
    """The next turn of the game in ``path`` run on copies with and without its history:
    medians of ``runs`` alternating runs (seconds)."""
    game_id = f"{kind_id}-size"
    store = Store(path)
    submit_random(store, get_kind(kind_id), game_id, random.Random(99))
    last = store.turn(game_id).number
    store.close()
    full, short = [], []
    for _ in range(runs):
        for keep_all, times in ((True, full), (False, short)):
            copy = path.with_name("copy.sqlite3")
            shutil.copy(path, copy)
            if not keep_all:
                db = sqlite3.connect(str(copy))
                db.execute("DELETE FROM turns WHERE number < ?", (last - 1,))
                db.commit()
                db.close()
            store = Store(copy)
            start = time.perf_counter()
            service.run_turn(store, game_id)
            times.append(time.perf_counter() - start)
            store.close()
            copy.unlink()
    return statistics.median(full), statistics.median(short)


def measure(kind_id: str, turns: int) -> dict:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "size.sqlite3"
        Store(path, create=True).close()
        empty = file_size(path)
        store = Store(path)
        played, times, sizes = play(store, kind_id, turns)
        store.close()
        total = file_size(path) - empty
        columns = column_bytes(path)
        with_history, without = history_cost(path, kind_id, 7)
    head = times[:5]
    tail = times[-5:]
    # the same turns per KB of their records: what remains when the turns' sizes are taken out
    per_kb = [t / (n / 1024) for t, n in zip(times, sizes)]
    return {"kind": kind_id, "turns": played, "per_turn": total / played, "columns": columns,
            "first": statistics.median(head), "last": statistics.median(tail),
            "ratio": statistics.median(tail) / statistics.median(head),
            "first_kb": statistics.median(sizes[:5]) / 1024,
            "last_kb": statistics.median(sizes[-5:]) / 1024,
            "kb_ratio": statistics.median(per_kb[-5:]) / statistics.median(per_kb[:5]),
            "with_history": with_history, "without": without}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--turns", type=int, default=30)
    args = parser.parse_args()
    for kind_id in GAMES:
        r = measure(kind_id, args.turns)
        share = ", ".join(f"{c} {v / r['turns'] / 1024:.1f}" for c, v in r["columns"].items()
                          if v and v / r["turns"] >= 100)
        title = {"gral": "Gral 8 players", "koc": "KoC 6 knights"}[r["kind"]]
        figure(f"store, {title}: bytes per turn over {r['turns']} turns",
               r["per_turn"] / 1024, "KB", goal="<= 10 KB", met=r["per_turn"] <= 10 * 1024)
        history = r["with_history"] / r["without"]
        figure(f"{title}: turn {r['turns'] + 1} with its history vs without", 
               r["with_history"] * 1000, "ms", ratio=history, goal="<= 1.3x",
               met=history <= 1.3)
        print(f"{r['kind']}: {r['turns']} turns, {r['per_turn'] / 1024:.1f} KB stored per turn "
              f"(KB per turn by column: {share})")
        print(f"{r['kind']}: a turn's time outside the rules engine, first 5 turns {r['first'] * 1000:.1f} ms, last 5 turns "
              f"{r['last'] * 1000:.1f} ms (median): ratio {r['ratio']:.2f}x; their records "
              f"{r['first_kb']:.0f} KB and {r['last_kb']:.0f} KB of JSON, so per KB of record "
              f"the last turns cost {r['kb_ratio']:.2f}x the first")
        print(f"{r['kind']}: turn {r['turns'] + 1} with the game's history in the store "
              f"{r['with_history'] * 1000:.1f} ms, without it {r['without'] * 1000:.1f} ms "
              f"(median of 7): ratio {r['with_history'] / r['without']:.2f}x")


if __name__ == "__main__":
    main()
