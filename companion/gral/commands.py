"""Die Jagd nach dem Gral's own commands, mounted by the command line as ``companion gral VERB``
(registry entry ``commands``): the filled-in influence sheet, the check of the sealed sheets,
the demo. ``companion sheet`` is kept as an older spelling, ``companion demo`` runs this demo,
and ``companion verify`` calls :func:`verify_sealed` for a Gral game before checking its
chance."""
from __future__ import annotations

from pathlib import Path
from typing import Callable, Optional

import typer

from companion.cli import (HELP, JSON_HELP, SETTINGS, as_json, echo, handles_errors, open_store,
                           read_disclosure)
from companion.errors import CompanionError

app = typer.Typer(help="Die Jagd nach dem Gral's own commands.", no_args_is_help=True,
                  rich_markup_mode=None, context_settings=HELP)


@app.command()
@handles_errors
def sheet(game_id: str = typer.Argument(..., metavar="GAME_ID"),
          player: str = typer.Argument(..., metavar="PLAYER"),
          out: Optional[Path] = typer.Option(None, "--out", metavar="FILE",
                                             help="default OUTPUT/GAME_ID/<player>-sheet.pdf")) -> None:
    """Write PLAYER's filled-in influence sheet as a PDF (Gral)."""
    from companion import service
    from companion.gral.printables import filled_sheet_pdf

    store = open_store()
    game = store.game(game_id)
    if game.kind != "gral":
        raise CompanionError(f"game {game_id} is a {game.kind} game; sheets belong to gral",
                             hint="'companion --help' lists the commands of every kind of game")
    name = service.resolve_player(game, player)
    turn_rec = store.turn(game_id)
    target = out or service.inside(service.game_folder(SETTINGS.output, game),
                                   f"{game.player(name).slug}-sheet.pdf")
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_bytes(filled_sheet_pdf(game, turn_rec, name))
    echo(str(target))


@app.command()
@handles_errors
def verify(game_id: Optional[str] = typer.Argument(None, metavar="[GAME_ID]"),
           disclosure: Optional[Path] = typer.Option(
               None, "--disclosure", metavar="FILE",
               help="check a published sheets disclosure (disclosure.json) instead of a "
                    "stored game"),
           json_out: bool = typer.Option(False, "--json", help=JSON_HELP)) -> None:
    """Check the sealed influence sheets of a stored game or of a published disclosure.json:
    every sheet matches its commitments and changed only as the orders said. ('companion
    verify' checks the game's chance as well.)"""
    from companion.registry import get_kind

    SETTINGS.json = json_out
    if (game_id is None) == (disclosure is None):
        raise CompanionError("give either GAME_ID or --disclosure FILE")
    kind = get_kind("gral")
    if disclosure is not None:
        data = read_disclosure(disclosure)
        if not isinstance(data, dict) or data.get("format") != kind.disclosure_format or \
                not isinstance(data.get("turns", []), list):
            raise CompanionError(f"{disclosure} is not a Gral sheets disclosure",
                                 hint="give the disclosure.json of a finished Gral game; "
                                      "'companion verify' checks a chance-disclosure.json")
        verify_sealed(kind, data, None, disclosure, json_out)
        return
    store = open_store()
    game = store.game(game_id)
    if game.kind != "gral":
        raise CompanionError(f"game {game_id} is a {game.kind} game; sheets belong to gral",
                             hint=f"'companion verify {game_id}' checks its chance")
    verify_sealed(kind, kind.moderator_disclosure(game, store.turns(game_id)), game_id, None,
                  json_out)


def verify_sealed(kind, data: dict, game_id: str | None, path: Path | None, json_out: bool,
                  then: Callable[[], None] | None = None) -> None:
    """Check the sealed sheets (a disclosure's commitments); then, if all is well, run ``then``
    (``companion verify`` passes its check of the game's chance)."""
    problems = kind.verify_disclosure(data)
    if json_out and (then is None or problems):
        as_json({"ok": not problems, "game": game_id, "disclosure": str(path) if path else None,
                 "problems": problems,
                 "turns": [{"turn": e.get("turn"), "commitments": e.get("commitments")}
                           for e in data.get("turns", []) if isinstance(e, dict)]})
        raise typer.Exit(1 if problems else 0)
    if not json_out:
        for entry in data.get("turns", []):
            echo(f"turn {entry['turn']}: " + ", ".join(
                f"{p} {c[:16]}" for p, c in entry["commitments"].items()))
    if problems:
        for p in problems:
            typer.echo(f"problem: {p}", err=True)
        raise typer.Exit(1)
    if not json_out:
        echo("every sheet matches its commitments and changed only as the orders said")
    if then is not None:
        then()


@app.command()
@handles_errors
def demo() -> None:
    """Run a demo: a whole Gral game in the store, every turn adjudicated from bundled sample
    orders, reports written to the output folder."""
    from companion.gral.demo import run_demo

    run_demo(open_store(create=True), SETTINGS.output, echo)
