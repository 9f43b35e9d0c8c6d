"""The ``companion`` command line.

Exit status: 0 success, 1 rejected input (orders, data, names, options, store), 2 usage error.
Heavy modules (reportlab, jinja2, the games) are imported inside the commands.
"""
from __future__ import annotations

import gc

_COLLECTING = gc.isenabled()
gc.disable()    # while the command line is imported: it makes no garbage (see main())

import functools  # noqa: E402
import json  # noqa: E402
import os  # noqa: E402
import sys
from pathlib import Path
from typing import List, Optional

import typer

from companion.cli_coercion import install as install_plain_coercion
from companion.engine.words import counted, numbered
from companion.errors import CompanionError

HELP = {"help_option_names": ["-h", "--help"]}


def _usage_name(argument) -> str:
    """Arguments in usage lines as the help texts write them: GAME_ID, [GAME_ID], FILE..."""
    name = argument.metavar or (argument.name or "").upper()
    if not argument.required:
        name = f"[{name}]" if not name.startswith("[") else name
    return name + ("..." if argument.nargs != 1 else "")


# ------------------------------------------------------------------- the kinds' own commands
# A kind may contribute sub-commands (registry: KindInfo.commands, .verbs, .aliases,
# .kind_aliases), mounted as 'companion KIND VERB ...'. Click's lazy-loading pattern: the names
# and one-line help come from the registry, and the kind's commands module is imported only
# when one of its commands runs or shows its own help, so '--help', 'KIND --help' and 'games'
# load no game.

def kind_group(kind_id: str):
    """The click group of a kind's own commands (imports the kind's commands module)."""
    import typer.main

    from companion.registry import commands_module, info

    entry = info(kind_id)
    if entry.id not in _KIND_GROUPS:
        attribute = entry.commands.partition(":")[2] or "app"
        _KIND_GROUPS[entry.id] = typer.main.get_group(
            getattr(commands_module(entry.id), attribute))
    return _KIND_GROUPS[entry.id]


_KIND_GROUPS: dict = {}


def _static_rows(formatter, rows: list[tuple[str, str]]) -> None:
    if rows:
        with formatter.section("Commands"):
            formatter.write_dl(rows)


class KindCommands(typer.core.TyperGroup):
    """``companion KIND ...``: the kind's own commands, listed from the registry."""

    def __init__(self, entry) -> None:
        self.entry = entry
        super().__init__(name=entry.id, help=f"{entry.title}: its own commands (the shared ones "
                                             "are in 'companion --help').",
                         short_help=f"{entry.title}: {', '.join(v for v, _ in entry.verbs)}",
                         no_args_is_help=True, rich_markup_mode=None)

    def list_commands(self, ctx) -> list[str]:
        return [verb for verb, _ in self.entry.verbs]

    def get_command(self, ctx, name: str):
        if name not in self.list_commands(ctx):
            return None
        return kind_group(self.entry.id).commands.get(name)

    def format_commands(self, ctx, formatter) -> None:
        _static_rows(formatter, list(self.entry.verbs))


class VerbByKind(typer.core.TyperGroup):
    """``companion VERB KIND ...``: an older spelling of ``companion KIND VERB ...`` (hidden)."""

    def __init__(self, verb: str) -> None:
        self.verb = verb
        super().__init__(name=verb, help=f"The older spelling of 'companion KIND {verb} ...', "
                                         "kept for compatibility.",
                         subcommand_metavar="KIND [ARGS]...", hidden=True,
                         no_args_is_help=True, rich_markup_mode=None)

    def _entries(self) -> list:
        from companion.registry import KINDS

        return [k for k in KINDS if self.verb in k.kind_aliases]

    def list_commands(self, ctx) -> list[str]:
        return [k.id for k in self._entries()]

    def get_command(self, ctx, name: str):
        from companion.registry import info

        try:
            entry = info(name)
            if self.verb not in [v for v, _ in entry.verbs]:
                raise CompanionError(f"{entry.title} has no '{self.verb}' command",
                                     hint=f"'companion {entry.id} --help' lists its own "
                                          "commands")
        except CompanionError as exc:
            fail(exc)
        return kind_group(entry.id).commands.get(self.verb)

    def format_commands(self, ctx, formatter) -> None:
        _static_rows(formatter, [(k.id, dict(k.verbs)[self.verb]) for k in self._entries()])


class CompanionGroup(typer.core.TyperGroup):
    """The top level: the shared commands, then one group per kind with commands of its own;
    the kinds' older spellings are answered but not listed."""

    def list_commands(self, ctx) -> list[str]:
        from companion.registry import KINDS

        return super().list_commands(ctx) + [k.id for k in KINDS if k.commands]

    def get_command(self, ctx, name: str):
        found = super().get_command(ctx, name)
        if found is not None:
            return found
        from companion.registry import KINDS

        for entry in KINDS:
            if entry.commands and name == entry.id:
                return KindCommands(entry)
        for entry in KINDS:
            if entry.commands and name in entry.aliases:
                return kind_group(entry.id).commands.get(name)
        if any(name in entry.kind_aliases for entry in KINDS if entry.commands):
            return VerbByKind(name)
        return None

    def resolve_command(self, ctx, args):
        """A kind without commands of its own ('companion mayhem --help') is told so: its
        games are played with the shared commands."""
        from companion.registry import KINDS

        name = args[0] if args else ""
        entry = next((k for k in KINDS if name == k.id and not k.commands), None)
        if entry is not None and super().get_command(ctx, name) is None:
            usage_error = next(c for c in typer.BadParameter.__mro__
                               if c.__name__ == "UsageError")
            raise usage_error(f"{entry.title} ('{entry.id}') has no commands of its own: its "
                              f"games are played with the shared commands ('companion new "
                              f"{entry.id} GAME_ID --player ...', 'companion print {entry.id}'; "
                              "'companion --help' lists them)", ctx=ctx)
        return super().resolve_command(ctx, args)

    def invoke(self, ctx):
        """Click reads ``-1`` as an option's name; no command takes a negative number, so
        ``companion rewind g -1`` is told that rather than "No such option: -1". (Typer may
        bring a Click of its own: its exceptions are found through ``typer.BadParameter``.)"""
        import re

        usage_error = next(c for c in typer.BadParameter.__mro__ if c.__name__ == "UsageError")
        no_such_option = sys.modules[usage_error.__module__].NoSuchOption
        try:
            return super().invoke(ctx)
        except no_such_option as exc:
            if not re.fullmatch(r"-\d+(\.\d*)?", exc.option_name or ""):
                raise
            raise usage_error(
                f"{exc.option_name}: a negative number is not valid here (turns count from 0, "
                "and no other number may be below 0 either)", ctx=exc.ctx) from None


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
    cls=CompanionGroup,
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


@app.command("list")
@handles_errors
def list_games(json_out: bool = typer.Option(False, "--json", help=JSON_HELP)) -> None:
    """List the store's games: kind, latest turn, state, whose orders are in, whom the next
    turn waits for, and the deadline (play by email)."""
    from companion import service

    SETTINGS.json = json_out
    summaries = service.game_summaries(open_store())
    if json_out:
        as_json(summaries)
        return
    if not summaries:
        echo(f"no games in {SETTINGS.store} (start one with 'companion new KIND GAME_ID "
             "--player NAME ...'; 'companion demo' plays a whole one)")
        return
    rows = [("game", "kind", "turn", "state", "orders in", "waiting for", "deadline")]
    rows += [(g["id"], g["kind"], str(g["turn"]), g["state"], ", ".join(g["submitted"]) or "-",
              ", ".join(g["awaited"]) or "-", g["deadline"] or "-") for g in summaries]
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    for r in rows:
        echo("  ".join(c.rjust(w) if i == 2 else c.ljust(w)
                       for i, (c, w) in enumerate(zip(r, widths))).rstrip())


@app.command()
@handles_errors
def new(
    kind: str = typer.Argument(..., metavar="KIND", help="game kind id (see 'companion games')"),
    game_id: str = typer.Argument(..., metavar="GAME_ID", help="a name for the new game"),
    player: List[str] = typer.Option(
        [], "--player", metavar="NAME", help="a player, in seat order; 'Name <email>' adds an "
        "email address. Repeat for each player."),
    seed: Optional[str] = typer.Option(
        None, "--seed", help="seed of the game's chance stream; omit for a secret random seed "
        "(a guessable seed lets players predict outcomes)"),
    option: List[str] = typer.Option([], "--option", metavar="KEY=VALUE",
                                     help="a game option, repeatable (a wrong key lists the "
                                          "game's options; each game's docs page explains "
                                          "them)"),
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


def orders_of_message(text: str, store, game_id: str, player: str, name: str
                      ) -> tuple[str, list[str], str]:
    """A whole saved email (headers, MIME, quoted-printable...) gives its order text; a bare
    body is returned as it is (companion/mail/parse.py). A greeting before the orders and a
    sign-off after them, from the mail layer's fixed lists, become comments as they do in
    mail (never a line the game reads as an order); returned are the text, what was set
    aside, to be said, and the name errors give it: 'the body of FILE' for a whole message,
    whose line numbers count from the first line of the body, not of the file."""
    from companion import service
    from companion.mail.parse import looks_like_message, orders_from_text, without_courtesies
    from companion.mail.run import reads_as_order
    from companion.registry import get_kind

    if looks_like_message(text):
        name = f"the body of {name}"
    text = orders_from_text(text)
    game = store.game(game_id)
    who = service.resolve_player(game, player)
    text, ignored = without_courtesies(
        text, reads_as_order(get_kind(game.kind), store.turn(game_id).state, who))
    return text, [c.said(f" of {name}") for c in ignored], name


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
    store = open_store()
    text, ignored, name = orders_of_message(text, store, game_id, player, name)
    result = service.check_orders(store, game_id, player, text, name)
    if json_out:
        as_json({"ok": True, "game": game_id, "player": result.player,
                 "understood": result.understood, "ignored": ignored})
        return
    echo(f"orders of {result.player} are valid; understood as:")
    for line in result.understood:
        echo(f"  {line}")
    for line in ignored:
        echo(f"  ({line})")


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
    store = open_store()
    text, ignored, name = orders_of_message(text, store, game_id, player, name)
    result = service.submit_orders(store, game_id, player, text, name)
    if json_out:
        as_json({"ok": True, "game": game_id, "player": result.player,
                 "submission": result.submission_id, "replaced": result.replaced,
                 "withdrawn": result.withdrawn, "understood": result.understood,
                 "ignored": ignored})
        return
    if result.withdrawn:
        echo(f"withdrew the pending orders of {result.player} for game {game_id} (submission "
             f"{result.submission_id}); nothing is submitted for them now")
    else:
        verb = "replaced earlier orders of" if result.replaced else "accepted orders of"
        echo(f"{verb} {result.player} for game {game_id} (submission {result.submission_id}); "
             "understood as:")
        for line in result.understood:
            echo(f"  {line}")
    for line in ignored:
        echo(f"  ({line})")


@orders_app.command("show")
@handles_errors
def orders_show(
    game_id: str = typer.Argument(..., metavar="GAME_ID"),
    player: Optional[str] = typer.Argument(None, metavar="[PLAYER]",
                                           help="one player (default: every player)"),
    json_out: bool = typer.Option(False, "--json", help=JSON_HELP),
) -> None:
    """Show the orders each player has pending for the next turn, as sent and as understood."""
    from companion import service

    SETTINGS.json = json_out
    entries = service.pending_orders(open_store(), game_id, player)
    if json_out:
        as_json({"game": game_id, "pending": entries})
        return
    for entry in entries:
        if entry["text"] is None:
            echo(f"{entry['player']}: no orders for turn {entry['turn']}")
            continue
        echo(f"{entry['player']}: orders for turn {entry['turn']}, sent {entry['submitted_at']} "
             f"(submission {entry['submission']}):")
        for line in entry["text"].rstrip("\n").split("\n"):
            echo(f"  | {line}")
        echo("  understood as:")
        for line in entry["understood"]:
            echo(f"    {line}")


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
    if not lines:       # said on stderr: standard output stays the (empty) list of lines
        why = service.why_no_options(open_store(), game_id, player)
        typer.echo(f"no order lines for {player} now in game {game_id}: {why} ('companion show "
                   f"{game_id} --player {player}' shows where the game stands)", err=True)


@app.command()
@handles_errors
def turn(game_id: str = typer.Argument(..., metavar="GAME_ID"),
         dice: Optional[str] = typer.Option(None, "--dice", metavar="3,5,1,...",
                                            help="die results to use, in order, before the "
                                                 "seeded stream"),
         now: bool = typer.Option(False, "--now", help="run it even before the game's "
                                  "deadline with orders missing (a game played by email)"),
         json_out: bool = typer.Option(False, "--json", help=JSON_HELP)) -> None:
    """Adjudicate as far as the orders (and defaults) allow; write the reports. A game
    waiting for orders before its deadline runs only with --now."""
    from companion import service
    from companion.engine.chance import parse_dice

    SETTINGS.json = json_out
    store = open_store()
    if not now:
        service.refuse_before_deadline(store, game_id)
    hook = None
    crash_at = os.environ.get("COMPANION_TEST_CRASH")
    if crash_at == "commit":
        hook = lambda: os._exit(137)  # noqa: E731 - a test hook: die inside the transaction
    outcome = service.run_turn(store, game_id, dice=parse_dice(dice),
                               output=SETTINGS.output, crash_hook=hook)
    if json_out:
        as_json({"ok": True, "game": game_id, "turn": outcome.turn, "progress": outcome.progress,
                 "recovered": outcome.recovered, "public": outcome.public,
                 "awaiting": outcome.awaiting, "asked": outcome.asked, "over": outcome.over,
                 "notes": outcome.notes, "files": [str(f) for f in outcome.files]})
        return
    if outcome.recovered:
        for number in outcome.recovered:
            echo(f"game {game_id}: turn {number} had been stored without its reports (by an "
                 "interrupted run, or imported); they are written now")
        echo("no new turn was processed: run 'companion turn' again for the next one")
        echo(f"reports in {SETTINGS.output / game_id / f'turn-{outcome.turn:03d}'}")
        return
    echo(f"game {game_id}: turn {outcome.turn} processed"
         + (f" (now, in the game's own count: {outcome.progress})" if outcome.progress else ""))
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
def rewind(game_id: str = typer.Argument(..., metavar="GAME_ID"),
           to: int = typer.Argument(..., metavar="TURN", help="the last turn to keep"),
           reason: str = typer.Option("", "--reason", metavar="TEXT",
                                      help="why, kept with the turns taken back"),
           yes: bool = typer.Option(False, "--yes", help="do it (without: say what it would do)"),
           ) -> None:
    """Take back every turn after TURN (orders that came late, a mistake): the turns are kept
    in the store, the orders of turn TURN+1 are pending again, and 'companion turn' runs it
    anew. The reports of the turns taken back move to OUTPUT/GAME_ID/rewound/."""
    from companion import service

    store = open_store()
    if not yes:
        gone = numbered("turn", service.rewind_span(store, game_id, to))
        typer.echo(f"game {game_id}: this would take back {gone} and make the orders that "
                   f"were pending when turn {to + 1} ran pending again; nothing is deleted (they "
                   "are kept in the store). Players who saw those reports know what happened in "
                   "them.", err=True)
        typer.echo(f"add --yes to do it: companion rewind {game_id} {to} --yes", err=True)
        raise typer.Exit(1)
    done = service.rewind(store, game_id, to, SETTINGS.output, reason)
    echo(f"game {game_id}: {numbered('turn', done.numbers)} taken back; turn {to} "
         "is the latest again")
    echo("orders pending for turn " + str(to + 1) + ": " + (", ".join(done.pending) or "none"))
    if done.moved:
        echo(f"their reports moved to {done.moved[0].parent}")
    if done.held:
        echo(f"the game is held for play by email: add or change orders, then "
             f"'companion deadline {game_id} --release' lets the next pass run turn {to + 1}")
    else:
        echo(f"add or change orders, then 'companion turn {game_id}' runs turn {to + 1} again")


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
        folder = file.parent
        raise CompanionError(f"cannot write {file}: {exc.strerror}",
                             hint=f"the folder {folder} does not exist: create it first, or "
                                  "give a file in a folder that exists"
                             if not folder.is_dir() else None) from None
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
    if new_id:
        echo("as a copy its players have new private links (the original's do not open it)")
    echo(f"its reports are not written yet: 'companion report {game_id}' writes them to "
         f"{SETTINGS.output / game_id}")


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
    """Check a game's chance (re-run from its seed: every die and shuffle as committed) and,
    for a kind that seals records of its own, those records; or a published disclosure file."""
    from companion import fairness
    from companion.registry import KINDS, get_kind

    SETTINGS.json = json_out
    if (game_id is None) == (disclosure is None):
        raise CompanionError("give either GAME_ID or --disclosure FILE" + (
            ", not both" if game_id is not None else ""),
            hint="'companion verify GAME_ID' checks a game of this store; 'companion verify "
                 "--disclosure FILE' checks a published disclosure file alone")
    if disclosure is not None:
        data = read_disclosure(disclosure)
        if isinstance(data, dict) and data.get("format") == fairness.FORMAT:
            verify_chance(data, disclosure, report, json_out)
            return
        sealing = [k for k in KINDS if getattr(get_kind(k.id), "disclosure_format", None)]
        owners = [k for k in sealing if isinstance(data, dict) and data.get("format") ==
                  get_kind(k.id).disclosure_format and sealed_check(k.id)]
        if not owners or not isinstance(data.get("turns", []), list):
            raise CompanionError(f"{disclosure} is not a disclosure file",
                                 hint="give a chance-disclosure.json, or the disclosure.json "
                                      "of a finished game of " + " or ".join(
                                          k.title for k in sealing))
        sealed_check(owners[0].id)(get_kind(owners[0].id), data, None, disclosure, json_out)
        return
    store = open_store()
    game = store.game(game_id)
    kind = get_kind(game.kind)
    turns = store.turns(game_id)
    check = sealed_check(game.kind) if hasattr(kind, "moderator_disclosure") else None
    if check is not None:
        chance = fairness.disclosure(game, turns)
        check(kind, kind.moderator_disclosure(game, turns), game_id, None, json_out,
              then=lambda: verify_chance(chance, None, report, json_out))
    else:
        verify_chance(fairness.disclosure(game, turns), None, report, json_out)


def read_disclosure(path: Path):
    """The JSON of a disclosure file, or an error saying what is wrong and where to look."""
    where = ("a finished game's disclosure is in its last turn's folder "
             "(OUTPUT/GAME_ID/turn-NNN/chance-disclosure.json); 'companion disclose GAME_ID' "
             "writes one to OUTPUT/GAME_ID/")
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise CompanionError(f"file not found: {path}", hint=where) from None
    except IsADirectoryError:
        raise CompanionError(f"{path} is a folder, not a file", hint=where) from None
    except (OSError, ValueError) as exc:
        raise CompanionError(f"cannot read {path}: {getattr(exc, 'strerror', None) or exc}",
                             hint=where) from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise CompanionError(f"{path}:{exc.lineno}:{exc.colno}: not valid JSON ({exc.msg})",
                             hint="give the chance-disclosure.json (or disclosure.json) a "
                                  "finished game wrote, unchanged") from None
    except RecursionError:
        raise CompanionError(f"{path}: the JSON is nested too deeply to be a disclosure") from None


def sealed_check(kind_id: str):
    """A kind's check of its own sealed records, ``verify_sealed(kind, data, game_id, path,
    json_out, then=None)`` in its commands module, or None."""
    from companion.registry import commands_module

    return getattr(commands_module(kind_id), "verify_sealed", None)


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
        echo(f"checked against the hashes printed in {counted(len(reports), 'report')}")
    if not verdict.ok:
        for problem in verdict.problems:
            typer.echo(f"problem: {problem}", err=True)
        raise typer.Exit(1)
    echo("every turn matches: the dice and shuffles are those committed at the start")


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
    reprint: Optional[list[str]] = typer.Option(
        None, "--reprint", metavar="NAME",
        help="only this card or chit, to replace a lost or worn one (repeat the option for "
             "more, or for two copies); it keeps its number and back"),
    out_typed: Optional[str] = typer.Option(None, "--out", metavar="FILE",
                                            help="default OUTPUT/<kind>-kit.pdf (with "
                                                 "--reprint: OUTPUT/<kind>-reprint.pdf); a "
                                                 "folder (or a name ending in /): that file "
                                                 "name in it"),
) -> None:
    """Write a game's print-and-play kit as one PDF (or the printer calibration sheet)."""
    from companion.render.printkit import PrintOptions, calibration_pdf, write_kit

    out = Path(out_typed) if out_typed else None
    if out is not None and out_typed.endswith(("/", os.sep)) and not out.exists():
        created = _missing_folder(out / "kit.pdf")     # 'kits/': a folder, made for the kit
        try:
            out.mkdir(parents=True)
        except OSError as exc:
            raise CompanionError(f"cannot make the folder {out}: {exc.strerror or exc}",
                                 hint="give --out a folder you can write to") from None
        _created_note(created)
    options = PrintOptions.from_strings(paper=paper, card=card, bleed=bleed,
                                        crop_marks=crop_marks, cut_lines=cut_lines, backs=backs,
                                        back_offset=back_offset, only=only, out=out,
                                        reprint=reprint or ())
    # like every --out of companion, a folder the file goes into is created if missing; one
    # the user named is then said on stderr, so that a typo in it does not go unnoticed
    created = _missing_folder(out) if out is not None else None
    if kind.strip().lower() == "calibrate":
        name = f"calibration-{options.paper.name}.pdf"
        target = out or SETTINGS.output / name
        if target.is_dir():
            target = target / name
        try:
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(calibration_pdf(options.paper, backs if backs != "none"
                                               else "duplex-long", options.back_offset_mm))
        except OSError as exc:
            raise CompanionError(f"cannot write the calibration sheet to {target}: "
                                 f"{exc.strerror or exc}",
                                 hint="give --out a file name in a folder you can write to"
                                 ) from None
        _created_note(created)
        echo(str(target))
        return
    from companion.registry import get_kind, info

    entry = info(kind)
    game_kind = get_kind(entry.id)
    if not hasattr(game_kind, "print_kit"):
        raise CompanionError(f"{entry.title} has no printable kit yet")
    # --out naming a folder: write_kit writes the kit's usual file name into it
    target = out or SETTINGS.output / (f"{entry.id}-reprint.pdf" if reprint else
                                       f"{entry.id}-kit.pdf")
    show = sys.stderr.isatty()

    def progress(done: int, total: int, label: str) -> None:
        """A progress bar on a terminal (scripts and pipes get no noise)."""
        if show:
            filled = round(20 * done / max(total, 1))
            bar = "#" * filled + "." * (20 - filled)
            line = f"\r{entry.id} kit [{bar}] {done}/{total} {label}"[:79]
            typer.echo(line.ljust(79), err=True, nl=done == total)

    path = write_kit(game_kind.print_kit(), options, target, progress=progress)
    _created_note(created)
    echo(str(path))


def _missing_folder(out: Path) -> Path | None:
    """The outermost folder on the way to ``out`` (a file, or a folder that exists) that does
    not exist yet: writing creates it.  None when every folder is there."""
    if out.is_dir():
        return None
    missing = None
    for parent in out.parents:
        if parent.exists():
            break
        missing = parent
    return missing


def _created_note(created: Path | None) -> None:
    if created is not None and created.is_dir():
        typer.echo(f"note: created the folder {created} for --out (it did not exist)",
                   err=True)


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

    kind_id = info(kind).id
    if not folder.is_dir():
        import companion

        bundled = Path(companion.__file__).resolve().parent / kind_id / "data"
        raise CompanionError(
            f"{folder} is a file, not a folder" if folder.exists() else f"no folder {folder}",
            hint=(f"copy the bundled data folder first (cp -r {bundled} my-{kind_id}-data), edit "
                  f"the copy, then: companion data check {kind_id} my-{kind_id}-data")
            if bundled.is_dir() else "give the folder holding the edited data files")
    errors = get_kind(kind_id).data_check(folder)
    if errors:
        for error in errors:
            typer.echo(error.render(), err=True)
        typer.echo(f"{counted(len(errors), 'error')} in {folder}", err=True)
        raise typer.Exit(1)
    echo(f"{folder}: the data is valid")


@app.command()
@handles_errors
def demo(ctx: typer.Context) -> None:
    """Run a demo: a whole game in the store, every turn adjudicated from bundled sample
    orders, reports written to the output folder (the demo of the first kind in 'companion
    games' that has one; 'companion KIND demo' runs another's)."""
    from companion.registry import KINDS

    entry = next((k for k in KINDS if "demo" in dict(k.verbs)), None)
    if entry is None:
        raise CompanionError("no game kind of this installation has a demo")
    command = kind_group(entry.id).commands["demo"]
    with command.make_context(ctx.info_name, [], parent=ctx.parent) as sub:
        command.invoke(sub)


# ------------------------------------------------------------------------------- the web view
# 'companion serve' and its helpers (docs/web.md); the web package is imported only when one of
# them runs.
game_app = typer.Typer(help="Change a stored game's settings.", no_args_is_help=True,
                       rich_markup_mode=None, context_settings=HELP)
app.add_typer(game_app, name="game")
web_app = typer.Typer(help="Helpers of the web view ('companion serve'; docs/web.md).",
                      no_args_is_help=True, rich_markup_mode=None, context_settings=HELP)
app.add_typer(web_app, name="web")


@game_app.command("set")
@handles_errors
def game_set(game_id: str = typer.Argument(..., metavar="GAME_ID"),
             setting: str = typer.Argument(..., metavar="SETTING", help="base-url"),
             value: str = typer.Argument(..., metavar="VALUE")) -> None:
    """Change a game's setting: 'base-url URL' (the start of the links in the QR codes of the
    reports written from now on; 'companion report GAME_ID' writes the latest again)."""
    from companion import service

    if setting.strip().lower().replace("_", "-") != "base-url":
        raise CompanionError(f"unknown setting '{setting}'", hint="settings: base-url")
    url = service.set_base_url(open_store(), game_id, value)
    echo(f"game {game_id}: base URL {url}")
    echo(f"reports written from now on link to it; 'companion report {game_id}' writes the "
         "latest turn's again")


@game_app.command("address")
@handles_errors
def game_address(game_id: str = typer.Argument(..., metavar="GAME_ID"),
                 player: str = typer.Argument(..., metavar="PLAYER"),
                 address: str = typer.Argument(..., metavar="ADDRESS",
                                               help="the new email address, or 'none'"),
                 quiet: bool = typer.Option(False, "--quiet",
                                            help="a correction, not a new player: the other "
                                                 "players are not told")) -> None:
    """Change PLAYER's email address ('none': no mail): a player who moved, or somebody taking
    over the seat (then 'companion token' too, so the old link and code stop working). Then
    'companion mail resend' mails them the latest report. In a game whose reports were mailed,
    the next 'companion mail run' tells the other players that the seat has a new player
    (nothing of its address or code); --quiet for a correction (a mistyped address, a player
    who moved)."""
    from companion import service

    done = service.change_seat_address(open_store(), game_id, player, address, quiet=quiet)
    name, old, new = done.player, done.old, done.new
    echo(f"game {game_id}: the address of {name} is now {new or 'none (no mail)'} "
         f"(was {old or 'none'})")
    said = done.said("by the next 'companion mail run'")
    if said:
        echo(said[0].upper() + said[1:] + (
            "; a correction rather than a new player: run this again with --quiet before then"
            if done.announce == "due" else ""))
    if new:
        import re

        shown = name if re.fullmatch(r"[\w.@+-]+", name) else f'"{name}"'
        echo(f"'companion mail resend {game_id} {shown}' mails them the latest report")


@app.command()
@handles_errors
def serve(host: str = typer.Option("127.0.0.1", "--host", metavar="ADDRESS",
                                help="address to listen on"),
          port: int = typer.Option(8000, "--port", metavar="PORT", help="port to listen on"),
          proxy_headers: bool = typer.Option(
              False, "--proxy-headers", help="trust X-Forwarded-For/-Proto from a reverse "
              "proxy on this machine (127.0.0.1)"),
          root_path: str = typer.Option("", "--root-path", metavar="PREFIX",
                                        help="the path prefix a proxy serves the app under"),
          config: Optional[Path] = typer.Option(
              None, "--config", metavar="FILE",
              help="configuration file (default: companion.toml next to the store)")) -> None:
    """Serve the web view of the store's games: the pages behind the QR codes, the order form
    and the moderator's page (docs/web.md)."""
    from companion.web.config import config_path, read_config
    from companion.web.server import announce, check_port, server

    store = open_store()
    store.close()
    config_file = config or config_path(SETTINGS.store)
    settings = read_config(config_file)
    check_port(host, port)
    url = announce(host, port, root_path)
    typer.echo(f"give games this base URL (as seen by the players, e.g. behind your TLS "
               f"proxy): companion new ... --base-url {url}  or  companion game set GAME_ID "
               f"base-url {url}", err=True)
    if not settings.moderator_password_hash:
        typer.echo(f"note: no moderator password in {config_file}: the moderator's page is "
                   "closed ('companion web hash-password')", err=True)
    server(SETTINGS.store, SETTINGS.output, settings, config_file, host=host, port=port,
           proxy_headers=proxy_headers, root_path=root_path).run()


@web_app.command("hash-password")
@handles_errors
def web_hash_password(stdin: bool = typer.Option(False, "--stdin",
                                                 help="read the password from standard input "
                                                      "(one line) instead of asking")) -> None:
    """Hash a moderator password for companion.toml ([web] moderator_password_hash)."""
    from companion.web.config import hash_password

    if stdin:
        password = sys.stdin.readline().rstrip("\r\n")
    else:
        import getpass

        password = getpass.getpass("moderator password: ")
        if getpass.getpass("again: ") != password:
            raise CompanionError("the two passwords differ; nothing was made")
    hashed = hash_password(password)     # first: a refused password prints nothing at all,
    echo("[web]")                        # so 'hash-password >> companion.toml' adds nothing
    echo(f'moderator_password_hash = "{hashed}"')


# ----------------------------------------------------------------------------- play by email
# 'companion mail ...' and 'companion deadline' (docs/mail.md): companion/mail/ is imported only
# when one of them runs.
class MailCommands(typer.core.TyperGroup):
    """``companion mail ...``: its commands come from companion.mail.commands, imported when
    one of them (or its help) is asked for."""

    def _real(self):
        import typer.main

        from companion.mail.commands import app as mail_commands

        return typer.main.get_group(mail_commands)

    def list_commands(self, ctx) -> list[str]:
        return list(self._real().commands)

    def get_command(self, ctx, name: str):
        return self._real().commands.get(name)


app.add_typer(typer.Typer(cls=MailCommands, no_args_is_help=True, rich_markup_mode=None,
                          context_settings=HELP,
                          help="Play by email: fetch orders from a mailbox, answer them, run "
                               "turns when due, mail the reports (docs/mail.md)."), name="mail")


@app.command("deadline")
@handles_errors
def deadline(game_id: str = typer.Argument(..., metavar="GAME_ID"),
             when: Optional[str] = typer.Argument(None, metavar="[WHEN]",
                                                  help="2026-12-01 18:00 (UTC), +2d, 36h, or "
                                                       "none; omit to show the deadline"),
             period: Optional[str] = typer.Option(None, "--period", metavar="DURATION",
                                                  help="later turns' deadline: this long after "
                                                       "each turn (none: off)"),
             remind: Optional[str] = typer.Option(None, "--remind", metavar="DURATION",
                                                  help="remind players with missing orders "
                                                       "this long before"),
             hold: bool = typer.Option(False, "--hold", help="run no turn until released"),
             release: bool = typer.Option(False, "--release", help="end a hold"),
             early: Optional[str] = typer.Option(None, "--early", metavar="yes|no",
                                                 help="no: a turn with a deadline runs only "
                                                      "at it, not once all orders are in "
                                                      "(default yes)")) -> None:
    """Set, extend or show a game's deadline for play by email (docs/mail.md)."""
    from companion.mail.commands import deadline as set_deadline

    set_deadline(game_id, when, period, remind, hold, release, early)


# ------------------------------------------------------------------------------- the start
# Typer turns every registered function into a click command before it parses anything, and
# that is most of what the command line costs after importing typer. main() looks at the
# command's name first and builds only what it names: a shared command or group, or (for a
# kind's own commands, answered by CompanionGroup from the registry) none of them. Help, shell
# completion, no command, and a name nobody knows (whose error suggests the closest command)
# build the whole tree, so every help text and message is the same either way.
_GROUP_OPTIONS = ("--store", "--output")
"""The top-level options that take a value (main_options): skipped to find the command."""


def command_name(args: list[str]) -> str | None:
    """The name of the command in the arguments, or None when they need the whole tree (help,
    version, completion, an option the top level does not have, no command)."""
    position = 0
    while position < len(args):
        arg = args[position]
        if arg in _GROUP_OPTIONS:
            position += 2
        elif arg.startswith(tuple(f"{option}=" for option in _GROUP_OPTIONS)):
            position += 1
        elif arg.startswith("-"):
            return None
        else:
            return arg
    return None


def _name_of(command) -> str:
    import typer.main

    return command.name or typer.main.get_command_name(command.callback.__name__)


def app_for(args: list[str]) -> typer.Typer:
    """The part of ``app`` that the command line ``args`` needs (see above): ``app`` itself, or
    a copy holding only the shared command or group it names."""
    import copy

    name = command_name(args)
    if name is None or any(key.startswith("_") and key.endswith("_COMPLETE")
                           for key in os.environ):     # shell completion needs every name
        return app
    commands = [c for c in app.registered_commands if _name_of(c) == name]
    groups = [g for g in app.registered_groups if g.name == name]
    if not commands and not groups:
        from companion.registry import KINDS

        if not any(entry.commands and (name == entry.id or name in entry.aliases
                                       or name in entry.kind_aliases) for entry in KINDS):
            return app          # unknown: its error names the closest command
    part = copy.copy(app)
    part.registered_commands, part.registered_groups = commands, groups
    return part


def main() -> None:
    """The console script. Python's cyclic garbage collector would go through every module,
    class and command made at start-up again and again, and once more at exit, though none of
    them is garbage: it is paused while they are made, they are then moved out of its reach
    (``gc.freeze()``, meant for that), and it runs as usual while the command works."""
    import typer.main

    collecting = gc.isenabled()
    gc.disable()
    command = typer.main.get_command(app_for(sys.argv[1:]))
    gc.freeze()
    if collecting:
        gc.enable()
    command()   # what app() does (its exception hook only matters for pretty tracebacks, off)


if _COLLECTING:
    gc.enable()     # an importer's collector as it was; main() pauses it again


if __name__ == "__main__":
    main()
