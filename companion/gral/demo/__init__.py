"""The demo: a whole three-player Gral game from bundled orders (``companion demo``).

The orders in ``turn-N/<player>.txt`` are ordinary order files, as players would email them.
The demo uses a fixed seed and a fixed processing date, so its reports are the same on every
machine.
"""
from __future__ import annotations

from pathlib import Path
from typing import Callable

from companion import service
from companion.engine.game import DemoScript
from companion.store import Store

HERE = Path(__file__).resolve().parent
PLAYERS = ["Gregor", "Manuel", "Inga"]
SEED = "20260101"
OPTIONS = ["first=Gregor"]
EPOCH = "1798761600"   # 2027-01-01 00:00 UTC: the demo's fixed processing date


def free_id(store: Store, base: str = "demo") -> str:
    if not store.has_game(base):
        return base
    n = 2
    while store.has_game(f"{base}-{n}"):
        n += 1
    return f"{base}-{n}"


def turns() -> list[Path]:
    return sorted((p for p in HERE.iterdir() if p.is_dir() and p.name.startswith("turn-")),
                  key=lambda p: int(p.name.split("-")[1]))


def script() -> DemoScript:
    """The demo game: its players, seed, options and each turn's order files' texts."""
    return DemoScript(players=list(PLAYERS), seed=SEED, options=list(OPTIONS),
                      turns=[{player: (folder / f"{player.lower()}.txt").read_text("utf-8")
                              for player in PLAYERS
                              if (folder / f"{player.lower()}.txt").exists()}
                             for folder in turns()])


def run_demo(store: Store, output: Path, echo: Callable[[str], None]) -> str:
    import os

    previous = os.environ.get("SOURCE_DATE_EPOCH")
    os.environ["SOURCE_DATE_EPOCH"] = EPOCH
    try:
        game_id = free_id(store)
        service.new_game(store, "gral", game_id, PLAYERS, seed=SEED,
                         option_args=list(OPTIONS), output=output)
        echo(f"created game {game_id} (Die Jagd nach dem Gral) with {', '.join(PLAYERS)} "
             f"in {store.path}")
        for folder in turns():
            for player in PLAYERS:
                path = folder / f"{player.lower()}.txt"
                if path.exists():
                    service.submit_orders(store, game_id, player, path.read_text("utf-8"),
                                          str(path.relative_to(HERE.parent.parent.parent)))
            outcome = service.run_turn(store, game_id, output=output)
            echo(f"turn {outcome.turn}:")
            for line in outcome.public:
                echo(f"  {line}")
            if outcome.over:
                break
        echo(f"reports: {Path(output) / game_id}/turn-NNN/ (public.pdf, and a PDF and a text "
             "email for each player)")
        echo(f"try: companion show {game_id} --player Inga")
        return game_id
    finally:
        if previous is None:
            del os.environ["SOURCE_DATE_EPOCH"]
        else:
            os.environ["SOURCE_DATE_EPOCH"] = previous
