"""The ``companion`` command line.

Exit status: 0 success, 1 rejected input (orders, data, names, options, store), 2 usage error.
Heavy modules (reportlab, jinja2, the games) are imported inside the commands.
"""
from __future__ import annotations

import functools
import json
import os
import sys
from pathlib import Path
from typing import List, Optional

import typer

from companion.cli_coercion import install as install_plain_coercion
from companion.errors import CompanionError

HELP = {"help_option_names": ["-h", "--help"]}


def _usage_name(argument) -> str:
    """Arguments in usage lines as the help texts write them: GAME_ID, [GAME_ID], FILE..."""
    name = argument.metavar or (argument.name or "").upper()
    if not argument.required:
        name = f"[{name}]" if not name.startswith("[") else name
    return name + ("..." if argument.nargs != 1 else "")


if hasattr(getattr(typer, "core", None), "TyperArgument") and \
        hasattr(typer.core.TyperArgument, "_usage_display_name"):
    typer.core.TyperArgument._usage_display_name = _usage_name
install_plain_coercion()   # plain values without importing pydantic (companion/cli_coercion.py)
app = typer.Typer(
    name="companion",
    help="Play-by-email moderator and print-and-play companion for tabletop games.\n\n"
         "Quick start: 'companion demo' runs a whole demo game and writes its reports to "
         "./output/.",
    no_args_is_help=True,
    add_completion=True,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
    context_settings=HELP,
)
orders_app = typer.Typer(help="Check or submit a player's orders.", no_args_is_help=True,
                         rich_markup_mode=None, context_settings=HELP)
app.add_typer(orders_app, name="orders")
data_app = typer.Typer(help="Export or check a game's data (cards, boards, maps, charts).",
                       no_args_is_help=True, rich_markup_mode=None, context_settings=HELP)
app.add_typer(data_app, name="data")


class Settings:
    store: Path
    output: Path
    json: bool = False


SETTINGS = Settings()


def echo(text: str = "") -> None:
    typer.echo(text)


JSON_HELP = "print the result as JSON (shapes in docs/cli-json.md)"


def as_json(value) -> None:
    """One JSON document on standard output (the --json answer of a command)."""
    typer.echo(json.dumps(value, ensure_ascii=False, sort_keys=True, indent=1))


def error_json(exc: CompanionError) -> dict:
    """The JSON shape of a refusal: every located error with file, line, column."""
    from companion.engine.orders import OrdersRejected
    from companion.errors import DataError, DataErrors

    if isinstance(exc, OrdersRejected):
        errors = [{"file": e.filename, "line": e.line.number if e.line else None,
                   "column": e.col, "kind": e.kind, "message": e.message,
                   "suggestion": e.suggestion} for e in exc.errors]
    elif isinstance(exc, (DataError, DataErrors)):
        items = exc.errors if isinstance(exc, DataErrors) else [exc]
        errors = [{"file": e.path, "line": e.line, "column": e.column, "kind": "error",
                   "message": e.message, "suggestion": e.hint} for e in items]
    else:
        errors = [{"file": None, "line": None, "column": None, "kind": "error",
                   "message": exc.message, "suggestion": exc.hint}]
    return {"ok": False, "errors": errors}


def fail(exc: CompanionError) -> None:
    if SETTINGS.json:
        as_json(error_json(exc))
    else:
        typer.echo(exc.render(), err=True)
    raise typer.Exit(exc.exit_code)


def handles_errors(func):
    """Every failure ends in one clear message and exit status 1, never a traceback: errors a
    user can fix, what the store or the operating system refused, and (as a last resort) a bug,
    reported as such. COMPANION_DEBUG=1 shows the traceback of the last kind."""
    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        try:
            return func(*args, **kwargs)
        except CompanionError as exc:
            fail(exc)
        except BrokenPipeError:
            sys.stderr.close()
            raise typer.Exit(0)
        except (typer.Exit, typer.Abort, KeyboardInterrupt, SystemExit):
            raise
        except OSError as exc:
            fail(os_failure(exc))
        except Exception as exc:  # noqa: BLE001 - the last net: no traceback for a user
            sqlite3 = sys.modules.get("sqlite3")   # a command that never opened the store
            if sqlite3 is not None and isinstance(exc, sqlite3.Error):   # need not import it
                from companion.store import store_failure

                fail(store_failure(SETTINGS.store, exc))
            if os.environ.get("COMPANION_DEBUG"):
                raise
            fail(CompanionError(
                f"companion failed unexpectedly in '{func.__name__}' ({type(exc).__name__}: "
                f"{exc}); whatever it was writing to the store was not committed",
                hint="this is a bug in companion; run again with COMPANION_DEBUG=1 to see the "
                     "traceback and report it"))
    return wrapper


def os_failure(exc: OSError) -> CompanionError:
    """One line for an operating-system failure (full disk, read-only, permission, missing
    folder)."""
    import errno

    reason = {errno.ENOSPC: "the disk is full", errno.EROFS: "the file system is read-only",
              errno.EACCES: "permission denied", errno.EPERM: "permission denied",
              errno.ENOENT: "no such file or folder", errno.ENOTDIR: "a part of the path is "
              "not a folder", errno.EISDIR: "it is a folder",
              errno.EDQUOT: "the disk quota is used up"}.get(exc.errno, exc.strerror or str(exc))
    where = f" {exc.filename}" if exc.filename else ""
    return CompanionError(f"cannot write or read{where}: {reason}",
                          hint="fix that and run the command again; the store is unchanged "
                               "unless the command said it committed")


def open_store(create: bool = False):
    from companion.store import Store

    store = Store(SETTINGS.store, create=create)
    for note in store.notes:
        typer.echo(f"note: {note}", err=True)
    return store


def show_version(value: bool) -> None:
    if value:
        from companion import __version__

        typer.echo(f"companion {__version__}")
        raise typer.Exit(0)


@app.callback()
def main_options(
    version: bool = typer.Option(False, "--version", "-V", is_eager=True,
                                 callback=show_version, help="print the version and exit"),
    store: Optional[Path] = typer.Option(
        None, "--store", metavar="PATH",
        help="the game store (SQLite file); default $COMPANION_STORE or ./companion.sqlite3"),
    output: Optional[Path] = typer.Option(
        None, "--output", metavar="DIR",
        help="where reports are written; default $COMPANION_OUTPUT or ./output"),
) -> None:
    SETTINGS.store = store or Path(os.environ.get("COMPANION_STORE") or "companion.sqlite3")
    SETTINGS.output = output or Path(os.environ.get("COMPANION_OUTPUT") or "output")


# ------------------------------------------------------------------------------------ games
@app.command()
@handles_errors
def games(json_out: bool = typer.Option(False, "--json", help=JSON_HELP)) -> None:
    """List the game kinds and their ids."""
    from companion.registry import KINDS  # the registry's metadata: no game module is imported

    SETTINGS.json = json_out
    if json_out:
        as_json([{"id": k.id, "title": k.title, "min_players": k.min_players,
                  "max_players": k.max_players, "summary": k.summary,
                  "playable": k.playable} for k in KINDS])
        return
    for k in KINDS:
        note = "" if k.playable else " [data, charts and printables only]"
        echo(f"{k.id:8} {k.title} ({k.min_players}-{k.max_players} players): {k.summary}{note}")


@app.command()
@handles_errors
def new(
    kind: str = typer.Argument(..., help="game kind id (see 'companion games')"),
    game_id: str = typer.Argument(..., metavar="GAME_ID", help="a name for the new game"),
    player: List[str] = typer.Option(
        [], "--player", metavar="NAME", help="a player, in seat order; 'Name <email>' adds an "
        "email address. Repeat for each player."),
    seed: Optional[str] = typer.Option(
        None, "--seed", help="seed of the game's chance stream; omit for a secret random seed "
        "(a guessable seed lets players predict outcomes)"),
    option: List[str] = typer.Option([], "--option", metavar="KEY=VALUE",
                                     help="a game option (see the game's documentation)"),
    setup: Optional[str] = typer.Option(None, "--setup", metavar="FILE",
                                        help="start from the position in FILE"),
    base_url: Optional[str] = typer.Option(None, "--base-url", metavar="URL",
                                           help="start of the links in the QR codes "
                                                "(default companion:/)"),
) -> None:
    """Create a game and write turn 0's reports."""
    from companion import service

    with_store = open_store(create=True)
    outcome = service.new_game(with_store, kind, game_id, player, seed=seed, option_args=option,
                               setup=setup, base_url=base_url, output=SETTINGS.output)
    echo(f"created game {game_id} ({kind}) in {SETTINGS.store}")
    echo(f"reports for turn 0 in {SETTINGS.output / game_id / 'turn-000'}")
    if outcome.asked:
        echo(f"orders are now needed from: {', '.join(outcome.asked)}")


@orders_app.command("check")
@handles_errors
def orders_check(
    game_id: str = typer.Argument(..., metavar="GAME_ID"),
    player: str = typer.Argument(..., metavar="PLAYER"),
    file: str = typer.Argument(..., metavar="FILE", help="the orders ('-' reads standard input)"),
    json_out: bool = typer.Option(False, "--json", help=JSON_HELP),
) -> None:
    """Validate a player's orders; print every error; change nothing."""
    from companion import service

    SETTINGS.json = json_out
    text, name = service.read_text_file(file)
    result = service.check_orders(open_store(), game_id, player, text, name)
    if json_out:
        as_json({"ok": True, "game": game_id, "player": result.player,
                 "understood": result.understood})
        return
    echo(f"orders of {result.player} are valid; understood as:")
    for line in result.understood:
        echo(f"  {line}")


@orders_app.command("submit")
@handles_errors
def orders_submit(
    game_id: str = typer.Argument(..., metavar="GAME_ID"),
    player: str = typer.Argument(..., metavar="PLAYER"),
    file: str = typer.Argument(..., metavar="FILE", help="the orders ('-' reads standard input)"),
    json_out: bool = typer.Option(False, "--json", help=JSON_HELP),
) -> None:
    """Validate and store a player's orders (replacing their earlier ones for this turn)."""
    from companion import service

    SETTINGS.json = json_out
    text, name = service.read_text_file(file)
    result = service.submit_orders(open_store(), game_id, player, text, name)
    if json_out:
        as_json({"ok": True, "game": game_id, "player": result.player,
                 "submission": result.submission_id, "replaced": result.replaced,
                 "withdrawn": result.withdrawn, "understood": result.understood})
        return
    if result.withdrawn:
        echo(f"withdrew the pending orders of {result.player} for game {game_id} (submission "
             f"{result.submission_id}); nothing is submitted for them now")
        return
    verb = "replaced earlier orders of" if result.replaced else "accepted orders of"
    echo(f"{verb} {result.player} for game {game_id} (submission {result.submission_id}); "
         "understood as:")
    for line in result.understood:
        echo(f"  {line}")


@app.command()
@handles_errors
def options(game_id: str = typer.Argument(..., metavar="GAME_ID"),
            player: str = typer.Argument(..., metavar="PLAYER"),
            json_out: bool = typer.Option(False, "--json", help=JSON_HELP)) -> None:
    """Print the order lines legal for PLAYER now, one per line."""
    from companion import service

    SETTINGS.json = json_out
    lines = service.legal_options(open_store(), game_id, player)
    if json_out:
        as_json({"game": game_id, "player": player, "options": lines})
        return
    for line in lines:
        echo(line)


@app.command()
@handles_errors
def turn(game_id: str = typer.Argument(..., metavar="GAME_ID"),
         dice: Optional[str] = typer.Option(None, "--dice", metavar="3,5,1,...",
                                            help="die results to use, in order, before the "
                                                 "seeded stream"),
         json_out: bool = typer.Option(False, "--json", help=JSON_HELP)) -> None:
    """Adjudicate as far as the orders (and defaults) allow; write the reports."""
    from companion import service
    from companion.engine.chance import parse_dice

    SETTINGS.json = json_out
    hook = None
    crash_at = os.environ.get("COMPANION_TEST_CRASH")
    if crash_at == "commit":
        hook = lambda: os._exit(137)  # noqa: E731 - a test hook: die inside the transaction
    outcome = service.run_turn(open_store(), game_id, dice=parse_dice(dice),
                               output=SETTINGS.output, crash_hook=hook)
    if json_out:
        as_json({"ok": True, "game": game_id, "turn": outcome.turn,
                 "recovered": outcome.recovered, "public": outcome.public,
                 "awaiting": outcome.awaiting, "asked": outcome.asked, "over": outcome.over,
                 "notes": outcome.notes, "files": [str(f) for f in outcome.files]})
        return
    if outcome.recovered:
        for number in outcome.recovered:
            echo(f"game {game_id}: turn {number} had been stored by an interrupted run without "
                 "its reports; they are written now")
        echo("no new turn was processed: run 'companion turn' again for the next one")
        echo(f"reports in {SETTINGS.output / game_id / f'turn-{outcome.turn:03d}'}")
        return
    echo(f"game {game_id}: turn {outcome.turn} processed")
    for line in outcome.public:
        echo(f"  {line}")
    for note in outcome.notes:
        echo(f"note: {note}")
    if outcome.over:
        echo("the game is over")
    elif outcome.awaiting:
        echo(f"waiting for orders from: {', '.join(outcome.awaiting)}")
    else:
        echo(f"orders are now needed from: {', '.join(outcome.asked)}")
    echo(f"reports in {SETTINGS.output / game_id / f'turn-{outcome.turn:03d}'}")


@app.command()
@handles_errors
def show(game_id: str = typer.Argument(..., metavar="GAME_ID"),
         player: str = typer.Option("moderator", "--player", metavar="NAME|public|moderator",
                                    help="whose view to show"),
         turn_number: Optional[int] = typer.Option(None, "--turn", metavar="N"),
         as_json: bool = typer.Option(False, "--json", help="the view as JSON"),
         position: bool = typer.Option(False, "--position",
                                       help="the position as text (for --setup)")) -> None:
    """Show a view of a game's state."""
    from companion import service

    view, (game, turn_rec, viewer, kind) = service.show(open_store(), game_id, player,
                                                        turn_number)
    if as_json:
        echo(json.dumps(view, indent=2, ensure_ascii=False, sort_keys=True))
    elif position or viewer == "moderator":
        echo(kind.write_position(turn_rec.state, viewer).rstrip("\n"))
        if viewer == "moderator" and not position:
            echo(f"# turn {turn_rec.number}, processed {turn_rec.processed_at}, "
                 f"hash {turn_rec.hash[:16]}")
            for line in kind.result_lines(turn_rec.state):
                echo(f"# {line}")
    else:
        from companion.render.report_text import render_text

        docs = service.report_documents(game, turn_rec)
        echo(render_text(docs[viewer]).rstrip("\n"))


@app.command()
@handles_errors
def report(game_id: str = typer.Argument(..., metavar="GAME_ID"),
           turn_number: Optional[int] = typer.Option(None, "--turn", metavar="N",
                                                     help="default: the latest turn")) -> None:
    """Render a turn's reports again (byte-identical to the first time)."""
    from companion import service

    files = service.render_reports(open_store(), game_id, turn_number, SETTINGS.output)
    for f in files:
        echo(str(f))


@app.command()
@handles_errors
def token(game_id: str = typer.Argument(..., metavar="GAME_ID"),
          player: str = typer.Argument(..., metavar="PLAYER")) -> None:
    """Give PLAYER a new secret token: their old link stops working; the latest turn's reports
    are written again with the new link."""
    from companion import service

    name, new_link, files = service.reissue_token(open_store(), game_id, player,
                                                  SETTINGS.output)
    echo(f"{name} has a new secret token; the old link no longer opens their view")
    echo(f"new link: {new_link}")
    if files:
        echo(f"reports written again in {files[0].parent}: send {name} their new report")


@app.command()
@handles_errors
def replay(game_id: str = typer.Argument(..., metavar="GAME_ID"),
           json_out: bool = typer.Option(False, "--json", help=JSON_HELP)) -> None:
    """Re-run the whole history from its recorded inputs and verify every turn's hash."""
    from companion import service

    SETTINGS.json = json_out
    result = service.replay(open_store(), game_id, SETTINGS.output)
    if json_out:
        as_json({"ok": result.ok, "game": game_id, "turns": result.turns,
                 "first_bad_turn": result.first_bad, "column": result.column,
                 "message": result.message, "notes": result.notes})
        raise typer.Exit(0 if result.ok else 1)
    for note in result.notes:
        echo(f"note: {note}")
    if result.ok:
        echo(f"game {game_id}: turns 0 to {result.turns} replayed; every hash matches")
    else:
        typer.echo(f"game {game_id}: {result.message}", err=True)
        raise typer.Exit(1)


@app.command("open")
@handles_errors
def open_link(payload: str = typer.Argument(..., help="the text of a scanned QR code"),
              json_out: bool = typer.Option(False, "--json", help=JSON_HELP)) -> None:
    """Resolve a scanned QR payload: game, turn, view, and whether the state still matches."""
    from companion import service

    SETTINGS.json = json_out
    opened = service.open_payload(open_store(), payload)
    if json_out:
        as_json({"ok": opened.matches, "game": opened.game_id, "turn": opened.turn,
                 "view": "public" if opened.viewer == "public" else opened.viewer,
                 "matches": opened.matches, "message": opened.message})
        raise typer.Exit(0 if opened.matches else 1)
    echo(f"game:  {opened.game_id}")
    echo(f"turn:  {opened.turn}")
    echo(f"view:  {'public' if opened.viewer == 'public' else opened.viewer}")
    echo(f"state: {opened.message}")
    if not opened.matches:
        raise typer.Exit(1)


@app.command()
@handles_errors
def export(game_id: str = typer.Argument(..., metavar="GAME_ID"),
           file: Path = typer.Argument(..., metavar="FILE")) -> None:
    """Write a whole game (players, turns, submissions) to one JSON file."""
    data = open_store().export_game(game_id)
    try:
        file.write_text(json.dumps(data, ensure_ascii=False, sort_keys=True, indent=1) + "\n",
                        encoding="utf-8")
    except OSError as exc:
        raise CompanionError(f"cannot write {file}: {exc.strerror}") from None
    echo(f"exported game {game_id} ({len(data['turns'])} turns) to {file}")


@app.command("import")
@handles_errors
def import_(file: Path = typer.Argument(..., metavar="FILE"),
            new_id: Optional[str] = typer.Option(None, "--as", metavar="GAME_ID",
                                                 help="import under another id")) -> None:
    """Read a game exported with 'companion export' into this store."""
    from companion.service import read_text_file

    text, name = read_text_file(str(file))
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise CompanionError(f"{name}:{exc.lineno}:{exc.colno}: not valid JSON ({exc.msg})",
                             hint="give a file written by 'companion export'") from None
    except RecursionError:
        raise CompanionError(f"{name}: the JSON is nested too deeply to be an export") from None
    from companion import service

    game_id = service.import_game(open_store(create=True), data, name, new_id)
    echo(f"imported game {game_id} into {SETTINGS.store}")


@app.command()
@handles_errors
def verify(game_id: Optional[str] = typer.Argument(None, metavar="[GAME_ID]"),
           disclosure: Optional[Path] = typer.Option(
               None, "--disclosure", metavar="FILE",
               help="check a published disclosure file instead of a stored game"),
           report: List[Path] = typer.Option([], "--report", metavar="FILE",
                                             help="a report (.txt) whose printed turn hash is "
                                                  "checked too; repeat for several"),
           json_out: bool = typer.Option(False, "--json", help=JSON_HELP)) -> None:
    """Check a game's chance (re-run from its seed: every die and shuffle as committed) and a
    game's own sealed records (Gral's influence sheets); or a published disclosure file."""
    from companion import fairness
    from companion.registry import KINDS, get_kind

    SETTINGS.json = json_out
    if (game_id is None) == (disclosure is None):
        raise CompanionError("give either GAME_ID or --disclosure FILE")
    if disclosure is not None:
        try:
            data = json.loads(disclosure.read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            raise CompanionError(f"cannot read {disclosure}: {exc}") from None
        if isinstance(data, dict) and data.get("format") == fairness.FORMAT:
            verify_chance(data, disclosure, report, json_out)
            return
        owners = [get_kind(k.id) for k in KINDS
                  if isinstance(data, dict) and data.get("format") ==
                  getattr(get_kind(k.id), "disclosure_format", None)]
        if not owners or not isinstance(data.get("turns", []), list):
            raise CompanionError(f"{disclosure} is not a disclosure file",
                                 hint="give a chance-disclosure.json, or the disclosure.json "
                                      "of a finished Gral game")
        verify_sealed(owners[0], data, None, disclosure, json_out)
        return
    store = open_store()
    game = store.game(game_id)
    kind = get_kind(game.kind)
    turns = store.turns(game_id)
    if hasattr(kind, "moderator_disclosure"):
        verify_sealed(kind, kind.moderator_disclosure(game, turns), game_id, None, json_out,
                      then_chance=fairness.disclosure(game, turns))
    else:
        verify_chance(fairness.disclosure(game, turns), None, report, json_out)


def verify_sealed(kind, data: dict, game_id: str | None, path: Path | None, json_out: bool,
                  then_chance: dict | None = None) -> None:
    """Check a game's own sealed records (the Gral sheets); then, for a stored game, its
    chance."""
    problems = kind.verify_disclosure(data)
    if json_out and (then_chance is None or problems):
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
    if then_chance is not None:
        verify_chance(then_chance, None, [], json_out)


@app.command()
@handles_errors
def disclose(game_id: str = typer.Argument(..., metavar="GAME_ID"),
             out: Optional[Path] = typer.Option(None, "--out", metavar="FILE",
                                                help="default OUTPUT/GAME_ID/chance-disclosure"
                                                     ".json"),
             before_end: bool = typer.Option(False, "--before-end",
                                             help="disclose a game that is not over (reveals "
                                                  "every future die)")) -> None:
    """Write the chance disclosure: the seed and the record, for any player to check with
    'companion verify --disclosure FILE' (docs/fairness.md)."""
    from companion import fairness, service
    from companion.registry import get_kind

    store = open_store()
    game = store.game(game_id)
    turns = store.turns(game_id)
    if not get_kind(game.kind).is_over(turns[-1].state) and not before_end:
        raise CompanionError(f"game {game_id} is not over: its disclosure reveals the seed, and "
                             "so every die and shuffle still to come (and the sealed sheets' "
                             "salts)", hint="add --before-end to disclose it anyway")
    target = out or service.inside(service.game_folder(SETTINGS.output, game),
                                   fairness.FILE_NAME)
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(fairness.to_text(fairness.disclosure(game, turns)), encoding="utf-8")
    if not get_kind(game.kind).is_over(turns[-1].state):
        typer.echo(f"warning: game {game_id} is not over; whoever reads this file can predict "
                   "its every die from now on", err=True)
    echo(str(target))


def verify_chance(data: dict, path: Path | None, reports: List[Path], json_out: bool) -> None:
    """Re-run a game from its chance disclosure alone and say what matches."""
    from companion import fairness
    from companion.service import read_text_file

    texts = [read_text_file(str(r))[0] for r in reports]
    verdict = fairness.verify(data, fairness.hashes_in_reports(texts))
    if json_out:
        as_json({"ok": verdict.ok, "game": data.get("game"),
                 "disclosure": str(path) if path else None,
                 "commitment_matches": verdict.commitment_ok, "problems": verdict.problems,
                 "turns": [{"turn": n, "hash16": h, "matches": ok}
                           for n, h, ok in verdict.turns],
                 "outcomes": {"stream": verdict.stream, "moderator": verdict.moderator,
                              "moderator_turns": verdict.moderator_turns}})
        raise typer.Exit(0 if verdict.ok else 1)
    echo(f"game {data.get('game')} ({data.get('kind')}): "
         + ("the commitment matches the seed" if verdict.commitment_ok else
            "the commitment does NOT match the seed"))
    for number, digest, ok in verdict.turns:
        echo(f"turn {number}: {digest} {'ok' if ok else 'DIFFERS'}")
    turns = ", ".join(str(t) for t in verdict.moderator_turns)
    echo(f"outcomes: {verdict.stream} from the committed stream, {verdict.moderator} dice "
         f"supplied by the moderator" + (f" (turn{'s' if len(verdict.moderator_turns) > 1 else ''} "
                                          f"{turns})" if turns else ""))
    if reports:
        echo(f"checked against the hashes printed in {len(reports)} report(s)")
    if not verdict.ok:
        for problem in verdict.problems:
            typer.echo(f"problem: {problem}", err=True)
        raise typer.Exit(1)
    echo("every turn matches: the dice and shuffles are those committed at the start")


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
        raise CompanionError(f"game {game_id} is a {game.kind} game; sheets belong to gral")
    name = service.resolve_player(game, player)
    turn_rec = store.turn(game_id)
    target = out or service.inside(service.game_folder(SETTINGS.output, game),
                                   f"{game.player(name).slug}-sheet.pdf")
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_bytes(filled_sheet_pdf(game, turn_rec, name))
    echo(str(target))


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
                             "belong to koc", hint="for a gral game see 'companion sheet'")
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


@app.command("print")
@handles_errors
def print_kit(
    kind: str = typer.Argument(..., metavar="KIND|calibrate",
                               help="a game kind id, or 'calibrate' for the printer "
                                    "calibration sheet"),
    paper: str = typer.Option("a4", "--paper", help="a4 or letter"),
    card: Optional[str] = typer.Option(None, "--card", metavar="SIZE",
                                       help="poker, bridge, tarot, mini-euro, mini-usa or WxH in "
                                            "mm (default: each deck's own size)"),
    bleed: str = typer.Option("0", "--bleed", metavar="MM",
                              help="bleed around each card in mm (typically 3)"),
    crop_marks: bool = typer.Option(True, "--crop-marks/--no-crop-marks",
                                    help="crop marks outside the cards"),
    cut_lines: bool = typer.Option(False, "--cut-lines", help="thin cut lines between cards"),
    backs: str = typer.Option("none", "--backs",
                              help="none, duplex-long, duplex-short or fold"),
    back_offset: Optional[str] = typer.Option(None, "--back-offset", metavar="X,Y",
                                              help="shift of the backs in mm, as read off the "
                                                   "calibration sheet"),
    only: Optional[str] = typer.Option(None, "--only", metavar="PART",
                                       help="only these parts, comma-separated (cards, chits, "
                                            "board, charts, standees, sheets, ...)"),
    out: Optional[Path] = typer.Option(None, "--out", metavar="FILE",
                                       help="default OUTPUT/<kind>-kit.pdf"),
) -> None:
    """Write a game's print-and-play kit as one PDF (or the printer calibration sheet)."""
    from companion.render.printkit import PrintOptions, calibration_pdf, write_kit

    options = PrintOptions.from_strings(paper=paper, card=card, bleed=bleed,
                                        crop_marks=crop_marks, cut_lines=cut_lines, backs=backs,
                                        back_offset=back_offset, only=only, out=out)
    if kind.strip().lower() == "calibrate":
        target = out or SETTINGS.output / f"calibration-{options.paper.name}.pdf"
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(calibration_pdf(options.paper, backs if backs != "none"
                                           else "duplex-long", options.back_offset_mm))
        echo(str(target))
        return
    from companion.registry import get_kind, info

    entry = info(kind)
    game_kind = get_kind(entry.id)
    if not hasattr(game_kind, "print_kit"):
        raise CompanionError(f"{entry.title} has no printable kit yet")
    target = out or SETTINGS.output / f"{entry.id}-kit.pdf"
    show = sys.stderr.isatty()

    def progress(done: int, total: int, label: str) -> None:
        """A progress bar on a terminal (scripts and pipes get no noise)."""
        if show:
            filled = round(20 * done / max(total, 1))
            bar = "#" * filled + "." * (20 - filled)
            line = f"\r{entry.id} kit [{bar}] {done}/{total} {label}"[:79]
            typer.echo(line.ljust(79), err=True, nl=done == total)

    path = write_kit(game_kind.print_kit(), options, target, progress=progress)
    echo(str(path))


@data_app.command("export")
@handles_errors
def data_export(kind: str = typer.Argument(..., help="game kind id")) -> None:
    """Print a game's data as JSON."""
    from companion.registry import get_kind, info

    data = get_kind(info(kind).id).data_export()
    echo(json.dumps(data, ensure_ascii=False, indent=1))


@data_app.command("check")
@handles_errors
def data_check(kind: str = typer.Argument(..., help="game kind id"),
               folder: Path = typer.Argument(..., metavar="DIR",
                                             help="an edited copy of the game's data folder")) -> None:
    """Validate an edited copy of a game's data files; print every error with file and line."""
    from companion.registry import get_kind, info

    if not folder.is_dir():
        raise CompanionError(f"{folder} is not a folder")
    errors = get_kind(info(kind).id).data_check(folder)
    if errors:
        for error in errors:
            typer.echo(error.render(), err=True)
        typer.echo(f"{len(errors)} error(s) in {folder}", err=True)
        raise typer.Exit(1)
    echo(f"{folder}: the data is valid")


@app.command()
@handles_errors
def roll(kind: str = typer.Argument(..., help="game kind id"),
         chart: str = typer.Argument(..., help="the chart's name (any unambiguous beginning)"),
         dice: Optional[str] = typer.Option(None, "--dice", metavar="3,4,...",
                                            help="resolve these dice instead of rolling")) -> None:
    """Roll on one of a game's charts (or resolve given dice) and print the dice and result."""
    import secrets

    from companion.engine.chance import Chance, parse_dice, seed_key
    from companion.registry import get_kind, info

    game_kind = get_kind(info(kind).id)
    chance = Chance(seed_key(str(secrets.randbits(128))), 0)
    echo(game_kind.roll(chart, parse_dice(dice) or None, chance))


@app.command()
@handles_errors
def route(kind: str = typer.Argument(..., help="game kind id"),
          start: str = typer.Argument(..., metavar="FROM"),
          goal: str = typer.Argument(..., metavar="TO"),
          by: str = typer.Option("direct", "--by",
                                 help="land, ship, or direct (the rules' most direct route, in "
                                      "turns)")) -> None:
    """The shortest route between two areas of a game's map."""
    from companion.registry import get_kind, info

    if by not in ("land", "ship", "direct"):
        raise CompanionError(f"--by {by!r}: use land, ship or direct")
    echo(get_kind(info(kind).id).route(start, goal, by))


@app.command()
@handles_errors
def demo() -> None:
    """Run a demo: a whole Gral game in the store, every turn adjudicated from bundled sample
    orders, reports written to the output folder."""
    from companion.gral.demo import run_demo

    run_demo(open_store(create=True), SETTINGS.output, echo)


def main() -> None:
    app()


if __name__ == "__main__":
    main()
