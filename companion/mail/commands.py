"""``companion mail ...`` and ``companion deadline``: the command line of play by email
(docs/mail.md). Mounted lazily by companion/cli.py: nothing here is imported until a mail
command runs."""
from __future__ import annotations

import time
from pathlib import Path
from typing import Optional

import typer

from companion.cli import SETTINGS, as_json, echo, handles_errors, open_store
from companion.engine.words import counted
from companion.errors import CompanionError

app = typer.Typer(help="Play by email: read orders from a mailbox, answer them, run turns when "
                       "due, mail the reports (docs/mail.md).", no_args_is_help=True,
                  rich_markup_mode=None, context_settings={"help_option_names": ["-h", "--help"]})

CONFIG_HELP = "the mail configuration (default: $COMPANION_CONFIG, else companion.toml next to " \
              "the store)"


def load_config(path: Optional[Path], *, warn: bool = False):
    """The mail configuration; ``warn``: say (on standard error) what 'mail check' warns of
    in the secret files it reads (one open to others), before the command goes on."""
    from companion.mail import config

    settings = config.load(config.find_config(path, SETTINGS.store))
    if warn:
        for warning in config.too_open(settings):
            typer.echo(warning.render(), err=True)
    return settings


def progress(line: str) -> None:
    from companion.mail.deadlines import format_time, now

    typer.echo(f"{format_time(now())[:-4]} {line}")


@app.command()
@handles_errors
def fetch(config: Optional[Path] = typer.Option(None, "--config", metavar="FILE",
                                                help=CONFIG_HELP)) -> None:
    """Store the mailbox's new messages (raw, keyed by Message-ID); answer nothing yet."""
    from companion.mail.run import fetch as fetch_mail

    settings = load_config(config, warn=True)
    count = fetch_mail(open_store(), settings, progress)
    echo(f"{counted(count, 'new message')} stored; 'companion mail run' answers them")


@app.command()
@handles_errors
def run(config: Optional[Path] = typer.Option(None, "--config", metavar="FILE",
                                              help=CONFIG_HELP),
        watch: Optional[int] = typer.Option(None, "--watch", metavar="SECONDS",
                                            help="repeat every SECONDS until stopped (0: the "
                                                 "'watch' of companion.toml, default 300)")
        ) -> None:
    """One pass: fetch new mail, answer every message, run the turns that are due, send
    replies and reports. With --watch, repeat until stopped (Ctrl-C or SIGTERM)."""
    import signal
    import sqlite3

    from companion.mail.run import one_pass

    settings = load_config(config, warn=True)
    store = open_store()
    if watch is None:
        summary(one_pass(store, settings, SETTINGS.output, progress))
        return
    interval = watch or settings.watch
    if interval < 1:
        raise CompanionError("--watch needs at least 1 second between passes")

    def stop(signum, frame):
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, stop)
    progress(f"watching every {interval} s; Ctrl-C or SIGTERM stops")
    try:
        while True:
            try:
                summary(one_pass(store, settings, SETTINGS.output, progress))
            except CompanionError as exc:
                # a server down or a full disk: said, and tried again next time
                progress(f"this pass stopped: {exc.message}" +
                         (f" ({exc.hint})" if exc.hint else ""))
            except (OSError, sqlite3.Error) as exc:
                progress(f"this pass stopped: {type(exc).__name__}: {exc} (tried again next "
                         "time)")
            time.sleep(interval)
    except KeyboardInterrupt:
        progress("stopped")


def summary(result) -> None:
    progress(f"pass done: {counted(result.fetched, 'message')} received, {result.processed} "
             f"answered, {counted(len(result.turns), 'turn')} run, "
             f"{counted(result.sent, 'mail')} sent"
             + (f", {result.failed} failed (tried again next run)" if result.failed else ""))


@app.command()
@handles_errors
def inbox(all_messages: bool = typer.Option(False, "--all", help="every message, not only "
                                            "those for review"),
          show: Optional[str] = typer.Option(None, "--show", metavar="MESSAGE_ID",
                                             help="print one stored message, raw"),
          json_out: bool = typer.Option(False, "--json", help="as JSON")) -> None:
    """The moderator's review list: messages refused, ignored (bounces, auto-replies) or not
    understood, with why. Codes are masked."""
    from companion.mail.identity import masked

    SETTINGS.json = json_out
    store = open_store()
    if show:
        row = store.db.execute("SELECT raw FROM mail_in WHERE message_id=?",
                               (show,)).fetchone()
        if row is None:
            raise CompanionError(f"no stored message {show}",
                                 hint="'companion mail inbox --all' lists them")
        typer.echo(printable(bytes(row[0]).decode("utf-8", "replace")))
        return
    where = "" if all_messages else "WHERE state IN ('refused', 'review', 'ignored', 'new')"
    rows = store.db.execute("SELECT message_id, received_at, sender, subject, state, game_id, "
                            f"player, outcome FROM mail_in {where} ORDER BY rowid").fetchall()
    from companion.mail.run import readable_secret

    try:
        secret = readable_secret(deadline_config())     # masked too: it may sit in a subject
    except CompanionError:
        secret = None
    items = [{"message_id": r[0], "received": r[1], "from": r[2],
              "subject": masked(r[3], secret),
              "state": r[4], "game": r[5], "player": r[6], "outcome": r[7]} for r in rows]
    if json_out:
        as_json(items)
        return
    if not items:
        echo("nothing to review" if not all_messages else "no messages stored")
        return
    for item in items:
        echo(f"{item['received']}  {item['state']:8} {item['from'] or '(no sender)'}  "
             f"{item['subject']!r}")
        echo(f"    {item['message_id']}: {item['outcome'] or 'not processed yet'}")


def printable(text: str) -> str:
    """A stored message as ``inbox --show`` prints it: line ends as lines, tabs kept, and
    every other control or invisible character written out (``\\x1b``), so that what a sender
    put in their message (an escape sequence) is read on the moderator's terminal, never
    obeyed by it."""
    text = text.replace("\r\n", "\n")
    return "".join(c if c.isprintable() or c in "\n\t" else
                   c.encode("unicode_escape").decode("ascii") for c in text)


@app.command()
@handles_errors
def resend(game_id: str = typer.Argument(..., metavar="GAME_ID"),
           player: str = typer.Argument(..., metavar="PLAYER"),
           config: Optional[Path] = typer.Option(None, "--config", metavar="FILE",
                                                 help=CONFIG_HELP)) -> None:
    """Queue PLAYER's latest report once more, to their registered address (sent by the next
    'companion mail run'): after 'companion game address' or 'companion token'."""
    from companion.mail import deadlines
    from companion.mail.outbox import now_text
    from companion.mail.run import seat_command

    settings = load_config(config)
    store = open_store()
    game = store.game(game_id)
    latest = store.turn(game.id).number
    with store.transaction() as db:
        schedule = deadlines.ensure(db, game.id, latest, settings)
        said = seat_command(store, db, settings, SETTINGS.output, game, latest, schedule,
                            "resend", [game.id, player], f"command line {now_text()}")
    echo(said + "; the next 'companion mail run' sends it")


@app.command("outbox")
@handles_errors
def outbox_list(all_messages: bool = typer.Option(False, "--all",
                                                  help="sent messages too"),
                json_out: bool = typer.Option(False, "--json", help="as JSON")) -> None:
    """Outgoing mail: queued, being sent, failed (with the server's answer); --all: sent too."""
    SETTINGS.json = json_out
    store = open_store()
    where = "" if all_messages else "WHERE state != 'sent'"
    rows = store.db.execute("SELECT id, state, attempts, recipient, subject, answer, "
                            f"created_at, sent_at FROM mail_out {where} ORDER BY id").fetchall()
    items = [{"id": r[0], "state": r[1], "attempts": r[2], "to": r[3], "subject": r[4],
              "answer": r[5], "created": r[6], "sent": r[7]} for r in rows]
    if json_out:
        as_json(items)
        return
    if not items:
        echo("nothing waiting to be sent")
    for item in items:
        echo(f"#{item['id']:<5} {item['state']:7} {item['to']}  {item['subject']}"
             + (f"  [{item['answer']}]" if item["answer"] else ""))


@app.command()
@handles_errors
def check(config: Optional[Path] = typer.Option(None, "--config", metavar="FILE",
                                                help=CONFIG_HELP)) -> None:
    """Check companion.toml, what it points to (environment variables, secret files, folders)
    and the connection to both servers: every problem at once, each with its line and a
    suggestion. Changes nothing."""
    from companion.errors import DataError
    from companion.mail import config as mail_config
    from companion.mail import outbox
    from companion.mail.mailbox import source

    path = mail_config.find_config(config, SETTINGS.store)
    try:
        found = mail_config.inspect(path)
    except DataError as exc:
        if exc.message.startswith("TOML syntax"):
            exc.hint = (f"{exc.hint}; " if exc.hint else "") + (
                "the file cannot be read past this point, so nothing else was checked: fix it "
                "and run 'companion mail check' again")
        raise
    for problem in sorted(found.errors + found.warnings,
                          key=lambda e: (e.line or 0, e.column or 0)):
        typer.echo(problem.render(), err=True)
    settings = found.config
    if not found.errors:
        echo(f"{settings.path}: the configuration is valid")
    failures = 0

    def failed(part: str, exc: CompanionError) -> None:
        nonlocal failures
        failures += 1
        typer.echo(f"{part}: FAILED: {exc.message}" + (f"\n  hint: {exc.hint}" if exc.hint
                                                        else ""), err=True)

    def not_tried(part: str, section: str) -> None:
        typer.echo(f"{part}: not tried: fix what is wrong in [{section}] above first", err=True)

    if found.broken("mailbox"):
        not_tried("mailbox", "mailbox")
    else:
        box = source(settings)
        try:
            echo(f"mailbox: {box.describe()}: {box.check()}")
        except CompanionError as exc:
            failed("mailbox", exc)
    if "smtp" in found.sections:
        if found.broken("smtp"):
            not_tried("smtp", "smtp")
        elif settings.smtp:
            try:
                echo(f"smtp: {outbox.check_smtp(settings)}")
            except CompanionError as exc:
                failed("smtp", exc)
    elif not found.broken("outbox"):
        echo(f"outbox: no [smtp] configured: messages are written as .eml files to "
             f"{settings.outbox}")
    if settings.moderator and not found.broken("mail"):
        echo(f"moderator: {settings.moderator} (commands by mail need the secret)")
    for note in unopenable_links():
        typer.echo(f"note: {note}", err=True)
    counts = [counted(len(found.errors), "error")] if found.errors else []
    counts += [f"{counted(failures, 'server')} failed"] if failures else []
    counts += [counted(len(found.warnings), "warning")] if found.warnings else []
    if found.errors or failures:
        typer.echo(f"{', '.join(counts)}; nothing was changed", err=True)
        raise typer.Exit(1)
    if found.warnings:
        typer.echo(f"{', '.join(counts)}: the mail works, but see above", err=True)


def unopenable_links() -> list[str]:
    """A note for each running game of the store whose players get mail but whose reports'
    links and QR codes keep the default base URL (``companion://...``), which no phone opens:
    the moderator who runs ``companion serve`` should point them at it (docs/web.md)."""
    from companion.registry import get_kind
    from companion.service import DEFAULT_BASE_URL

    if not SETTINGS.store.exists():
        return []
    store = open_store()
    out = []
    for game_id in store.game_ids():
        try:
            game = store.game(game_id)
            if game.base_url != DEFAULT_BASE_URL or not any(p.email for p in game.players) \
                    or get_kind(game.kind).is_over(store.turn(game_id).state):
                continue
        except CompanionError:
            continue            # a damaged game: the commands that use it say so
        out.append(f"game {game_id}: the links and QR codes of its reports read "
                   f"'{DEFAULT_BASE_URL}/{game_id}/...', which no phone or browser opens; if "
                   f"'companion serve' answers them, point them there: 'companion game set "
                   f"{game_id} base-url https://YOUR-SERVER' (docs/web.md)")
    return out


@app.command()
@handles_errors
def demo(kind: str = typer.Argument("gral", help="game kind id (see 'companion games')"),
         turns: int = typer.Option(200, "--turns", metavar="N", help="at most N turns"),
         folder: Optional[Path] = typer.Option(None, "--folder", metavar="DIR",
                                               help="default OUTPUT/mail-demo")) -> None:
    """A whole game played by mail with no server: the players' messages go into a Maildir,
    'mail run' passes answer them, and every reply and report is an .eml file in an outbox."""
    from companion.mail.demo import run_demo

    target = folder or SETTINGS.output / "mail-demo"
    played, files = run_demo(kind, target, turns, progress)
    echo(f"{counted(played, 'turn')} played by mail; {counted(files, 'message')} in "
         f"{target / 'outbox'} (open them with any mail program); the store is "
         f"{target / 'demo.sqlite3'}")


def deadline(game_id: str, when: Optional[str], period: Optional[str], remind: Optional[str],
             hold: bool, release: bool, early: Optional[str] = None) -> None:
    """``companion deadline`` (declared in companion/cli.py, so that its help needs no import
    of this package): set, extend or show a game's deadline, period, reminders, hold, and
    whether a turn may run before its deadline (``--early``)."""
    from companion.mail import deadlines
    from companion.mail.config import parse_duration

    if hold and release:
        raise CompanionError("give --hold or --release, not both")
    if early is not None:
        answer = {"yes": True, "no": False}.get(early.strip().lower())
        if answer is None:
            raise CompanionError(f"--early {early}: give yes or no; nothing was changed",
                                 hint="--early no: a turn with a deadline runs only at it, so "
                                      "players may revise their orders until then; --early "
                                      "yes (the default): it runs as soon as every awaited "
                                      "player has sent orders")
    store = open_store()
    game = store.game(game_id)
    latest = store.turn(game.id).number

    def seconds(text: str, what: str) -> int:
        if text.strip().lower() in ("none", "off", "0"):
            return 0            # off, even where companion.toml gives a default (NULL: use it)
        try:
            return parse_duration(text)
        except ValueError as exc:
            raise CompanionError(f"{what}: {exc}") from None

    settings = deadline_config()
    with store.transaction() as db:
        deadlines.ensure(db, game.id, latest, settings)
        if when is not None:
            deadlines.set_deadline(db, game.id, latest, deadlines.parse_when(when))
        if period is not None:
            db.execute("UPDATE mail_games SET period=? WHERE game_id=?",
                       (seconds(period, "--period"), game.id))
        if remind is not None:
            db.execute("UPDATE mail_games SET remind_before=? WHERE game_id=?",
                       (seconds(remind, "--remind"), game.id))
        changed = False
        if hold or release:
            changed = deadlines.set_hold(db, game.id, hold)
        if early is not None:
            deadlines.set_early(db, game.id, answer)
        schedule = deadlines.ensure(db, game.id, latest, settings)
    if (hold or release) and not changed:
        echo(f"game {game.id} was " + ("already held" if hold else "not held") +
             ": nothing to " + ("hold" if hold else "release"))
    echo(f"game {game.id}, turn {latest}: {deadlines.describe(schedule, latest)}; "
         f"--early {'yes' if schedule.early else 'no'}")


def deadline_config():
    """The mail configuration 'mail run' would use ($COMPANION_CONFIG, else companion.toml next
    to the store), for its [deadlines] defaults; None when there is none, or when the file
    holds no [mail] table (a companion.toml of the web view alone). A file with a [mail]
    table must be valid: its errors are said, as 'mail run' would say them."""
    import tomllib

    from companion.mail import config

    path = config.find_config(None, SETTINGS.store)
    try:
        top = tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return None
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
        return config.load(path)            # says exactly what is wrong, with file and line
    return config.load(path) if "mail" in top else None
