"""Knights of Camelot's own commands, mounted by the command line as ``companion koc VERB``
(registry entry ``commands``): the chart roller, the route finder, a knight's Adventure
Journal. The older spellings ``companion roll koc ...``, ``companion route koc ...`` and
``companion journal ...`` are kept."""
from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer

from companion.cli import HELP, SETTINGS, echo, handles_errors, open_store, os_failure
from companion.errors import CompanionError

app = typer.Typer(help="Knights of Camelot's own commands.", no_args_is_help=True,
                  rich_markup_mode=None, context_settings=HELP)


@app.command()
@handles_errors
def roll(chart: str = typer.Argument(..., help="the chart's name (any unambiguous beginning)"),
         dice: Optional[str] = typer.Option(None, "--dice", metavar="3,4,...",
                                            help="resolve these dice instead of rolling")) -> None:
    """Roll on one of the charts (or resolve given dice) and print the dice and result."""
    import secrets

    from companion.engine.chance import Chance, parse_dice, seed_key
    from companion.registry import get_kind

    game_kind = get_kind("koc")
    chance = Chance(seed_key(str(secrets.randbits(128))), 0)
    echo(game_kind.roll(chart, parse_dice(dice) or None, chance))


@app.command()
@handles_errors
def route(start: str = typer.Argument(..., metavar="FROM"),
          goal: str = typer.Argument(..., metavar="TO"),
          by: str = typer.Option("direct", "--by",
                                 help="land, ship, or direct (the rules' most direct route, in "
                                      "turns)")) -> None:
    """The shortest route between two areas of the map."""
    from companion.registry import get_kind

    if by not in ("land", "ship", "direct"):
        raise CompanionError(f"--by {by!r}: use land, ship or direct")
    echo(get_kind("koc").route(start, goal, by))


@app.command()
@handles_errors
def journal(game_id: str = typer.Argument(..., metavar="GAME_ID"),
            player: str = typer.Argument(..., metavar="PLAYER"),
            turn_number: Optional[int] = typer.Option(None, "--turn", metavar="N",
                                                      help="default: the latest turn"),
            paper: str = typer.Option("a4", "--paper", help="a4 or letter"),
            text: bool = typer.Option(False, "--text",
                                      help="print the journal as text instead of writing a PDF"),
            out: Optional[Path] = typer.Option(None, "--out", metavar="FILE",
                                               help="default OUTPUT/GAME_ID/<player>-journal"
                                                    "-turn-NNN.pdf")) -> None:
    """Write PLAYER's Adventure Journal, filled from the saved game, as a PDF (Knights of
    Camelot; his own view only)."""
    from companion import service
    from companion.koc.journal import journal_data, journal_text
    from companion.koc.journal_pdf import journal_pdf
    from companion.render.printkit import parse_paper

    paper_name = parse_paper(paper).name
    store = open_store()
    game = store.game(game_id)
    if game.kind != "koc":
        raise CompanionError(f"game {game_id} is a {game.kind} game; Adventure Journals "
                             "belong to koc",
                             hint="'companion --help' lists the commands of every kind of game")
    name = service.resolve_player(game, player)
    turn_rec = store.turn(game_id, turn_number)
    view = service.player_view(game, turn_rec, name)
    data = journal_data(view, view.get("terms"))
    if text:
        echo(journal_text(data).rstrip("\n"))
        return
    target = out or service.inside(service.game_folder(SETTINGS.output, game),
                                   f"{game.player(name).slug}-journal-turn-"
                                   f"{turn_rec.number:03d}.pdf")
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(journal_pdf(data, view.get("terms"), paper_name))
    except OSError as exc:
        raise os_failure(exc) from None
    echo(str(target))
