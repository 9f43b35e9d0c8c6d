"""Deadlines, reminders and holds, per game (table ``mail_games``).

A game's deadline belongs to one turn (``deadline_turn``: the turn whose orders it awaits). The
turn is run when every awaited player has submitted, or once the deadline has passed (the
game's ``missing=`` option then decides what missing orders mean); a held game waits for the
moderator. A turn with a deadline runs only at it, all orders in or not, when the game says so
(``early`` 0: ``companion deadline GAME --early no``) or while an awaited player has asked it
to wait (``mail_waits``: ``wait`` by mail, ``nowait`` cancels); without a deadline neither
counts (the turn would never run). After a turn the next deadline is the game's period from
then (or none). Because the deadline names its turn, a pass that died after running a turn never
runs another one on the old deadline.

Times are UTC. "Now" is the clock, or SOURCE_DATE_EPOCH when set (reproducible tests).
"""
from __future__ import annotations

import datetime as dt
import os
import re
from dataclasses import dataclass

from companion.engine.numbers import is_digits
from companion.errors import CompanionError

FORMAT = "%Y-%m-%d %H:%M UTC"


def now() -> dt.datetime:
    epoch = os.environ.get("SOURCE_DATE_EPOCH", "").strip()
    offset = int(os.environ.get("COMPANION_TEST_CLOCK_OFFSET", "0") or 0)
    if is_digits(epoch):
        return dt.datetime.fromtimestamp(int(epoch) + offset, dt.timezone.utc)
    return dt.datetime.now(dt.timezone.utc).replace(microsecond=0) + dt.timedelta(seconds=offset)


def format_time(moment: dt.datetime) -> str:
    return moment.astimezone(dt.timezone.utc).strftime(FORMAT)


def parse_time(text: str) -> dt.datetime:
    return dt.datetime.strptime(text, FORMAT).replace(tzinfo=dt.timezone.utc)


def parse_when(text: str, base: dt.datetime | None = None) -> dt.datetime | None:
    """A deadline as typed: ``none``, ``+2d`` / ``36h`` (from now), ``2026-12-01 18:00``
    (UTC unless an offset is given: ``2026-12-01T18:00+01:00``)."""
    from companion.mail.config import MAX_DURATION_DAYS, parse_duration

    value = text.strip()
    if value.lower() in ("none", "off", "-"):
        return None
    base = base or now()
    relative = value[1:] if value.startswith("+") else value
    try:
        return _future(text, base + dt.timedelta(seconds=parse_duration(relative)), base)
    except ValueError as exc:
        if "longer than" in str(exc):
            raise CompanionError(str(exc), hint="check the number") from None
    cleaned = re.sub(r"\s*(UTC|Z)$", "", value, flags=re.I)
    try:
        moment = dt.datetime.fromisoformat(cleaned)
        if moment.tzinfo is None:
            moment = moment.replace(tzinfo=dt.timezone.utc)
        moment = moment.astimezone(dt.timezone.utc)
    except (ValueError, OverflowError):
        raise CompanionError(f"{text!r} is not a deadline",
                             hint="write a time (2026-12-01 18:00, taken as UTC; or with an "
                                  "offset: 2026-12-01T18:00+01:00), a time from now (+2d, 36h, "
                                  "90m), or none") from None
    if abs(moment - base) > dt.timedelta(days=MAX_DURATION_DAYS):
        raise CompanionError(f"{text!r} is more than {MAX_DURATION_DAYS} days (ten years) away",
                             hint="check the year")
    return _future(text, moment, base)


def _future(text: str, moment: dt.datetime, base: dt.datetime) -> dt.datetime:
    """A deadline must be later than now: one already past would run the turn at the next
    mail pass, which a moderator who mistyped the date does not mean."""
    if moment <= base:
        raise CompanionError(f"the deadline {text.strip()!r} ({format_time(moment)}) is not in "
                             f"the future (it is now {format_time(base)}); nothing was changed",
                             hint="give a later date and time (YYYY-MM-DD HH:MM, taken as "
                                  "UTC) or a time from now (+2d, 36h); 'none' removes the "
                                  "deadline")
    return moment


@dataclass
class Schedule:
    game_id: str
    deadline: dt.datetime | None
    deadline_turn: int | None
    period: int | None
    remind_before: int | None
    held: bool
    reminded_turn: int
    mailed_turn: int
    early: bool = True               # False: a turn with a deadline runs only at it
    waits: tuple[str, ...] = ()      # the players who asked the awaited turn to wait


def ensure(db, game_id: str, latest: int, config=None) -> Schedule:
    """The game's schedule row (made when a game is first seen: its latest turn's reports are
    mailed, and the default period from companion.toml starts now)."""
    row = db.execute("SELECT deadline, deadline_turn, period, remind_before, held, "
                     "reminded_turn, mailed_turn, early FROM mail_games WHERE game_id=?",
                     (game_id,)).fetchone()
    if row is None:
        period = config.period if config else None
        deadline = format_time(now() + dt.timedelta(seconds=period)) if period else None
        db.execute("INSERT INTO mail_games (game_id, deadline, deadline_turn, period, "
                   "remind_before, held, reminded_turn, mailed_turn) VALUES (?,?,?,?,?,0,-1,?)",
                   (game_id, deadline, latest if deadline else None, None, None, latest - 1))
        row = (deadline, latest if deadline else None, None, None, 0, -1, latest - 1, 1)
    deadline, deadline_turn, period, remind, held, reminded, mailed, early = row
    waits = tuple(r[0] for r in db.execute("SELECT player FROM mail_waits WHERE game_id=? AND "
                                           "for_turn=? ORDER BY player", (game_id, latest + 1)))
    if period is None and config is not None:
        period = config.period
    if remind is None and config is not None:
        remind = config.remind_before
    return Schedule(game_id, parse_time(deadline) if deadline else None, deadline_turn, period,
                    remind, bool(held), reminded, mailed, bool(early), waits)


def set_deadline(db, game_id: str, latest: int, when: dt.datetime | None) -> None:
    """The deadline of turn ``latest``; a new one (an extension) gets its own reminder."""
    ensure(db, game_id, latest)
    text = format_time(when) if when else None
    db.execute("UPDATE mail_games SET reminded_turn=MIN(reminded_turn, ?) WHERE game_id=? AND "
               "(deadline IS NOT ? OR deadline_turn IS NOT ?)", (latest - 1, game_id, text, latest))
    db.execute("UPDATE mail_games SET deadline=?, deadline_turn=? WHERE game_id=?",
               (text, latest, game_id))


def after_turn(db, game_id: str, latest: int, schedule: Schedule) -> None:
    """The next turn's deadline: the period from now, or none."""
    when = now() + dt.timedelta(seconds=schedule.period) if schedule.period else None
    set_deadline(db, game_id, latest, when)


def set_hold(db, game_id: str, held: bool) -> bool:
    """Hold a game (no turn runs) or release it, in the caller's transaction; False when it
    already was so (the command line, the mail command and the web page all say that)."""
    return db.execute("UPDATE mail_games SET held=? WHERE game_id=? AND held<>?",
                      (int(held), game_id, int(held))).rowcount > 0


def set_early(db, game_id: str, early: bool) -> bool:
    """Whether the game's turns may run before their deadline (in the caller's transaction);
    False when it already was so."""
    return db.execute("UPDATE mail_games SET early=? WHERE game_id=? AND early<>?",
                      (int(early), game_id, int(early))).rowcount > 0


def set_wait(db, game_id: str, latest: int, player: str, wait: bool, when: str,
             message_id: str) -> bool:
    """A player's request that turn ``latest + 1`` wait for its deadline (``wait``), or its end
    (``nowait``); False when nothing changed."""
    if wait:
        return db.execute("INSERT OR IGNORE INTO mail_waits (game_id, for_turn, player, "
                          "asked_at, message_id) VALUES (?,?,?,?,?)",
                          (game_id, latest + 1, player, when, message_id)).rowcount > 0
    return db.execute("DELETE FROM mail_waits WHERE game_id=? AND for_turn=? AND player=?",
                      (game_id, latest + 1, player)).rowcount > 0


def runs_early(schedule: Schedule, latest: int, awaited=None) -> bool:
    """Whether the awaited turn runs as soon as every awaited player has sent orders (True),
    or only at its deadline (a deadline set, and the game's setting or a player's wait says
    so). ``awaited``: count only these players' waits (all stored ones otherwise)."""
    if deadline_for(schedule, latest) is None:
        return True
    waits = [p for p in schedule.waits if awaited is None or p in awaited]
    return schedule.early and not waits


def describe(schedule: Schedule, latest: int) -> str:
    """The schedule in words, for players and the moderator alike: it never names who asked a
    turn to wait ("a player asked to wait")."""
    parts = []
    if schedule.deadline and schedule.deadline_turn == latest:
        parts.append(f"deadline {format_time(schedule.deadline)}")
        if not schedule.early:
            parts.append("the turn runs only at the deadline, not before (the game's setting; "
                         "orders may be revised until then)")
        elif schedule.waits:
            parts.append("the turn runs only at the deadline, not before (a player asked to "
                         "wait; orders may be revised until then)")
        else:
            parts.append("the turn runs early, as soon as every awaited player has sent orders")
    else:
        parts.append("no deadline (the turn runs when every awaited player has sent orders)")
        if not schedule.early:
            parts.append("a turn given a deadline runs only at it (the game's setting)")
        if schedule.waits:
            parts.append("a player asked to wait, which counts only with a deadline")
    if schedule.period:     # for the turns after this one: each gets a deadline this long on
        parts.append(f"later turns' deadlines {_duration(schedule.period)} after each turn")
    if schedule.remind_before:
        parts.append(f"reminders {_duration(schedule.remind_before)} before a deadline")
    if schedule.held:
        parts.append("HELD by the moderator")
    return "; ".join(parts)


def _duration(seconds: int) -> str:
    d, rest = divmod(seconds, 86400)
    h, rest = divmod(rest, 3600)
    m, s = divmod(rest, 60)
    text = "".join(f"{v}{u}" for v, u in ((d, "d"), (h, "h"), (m, "m"), (s, "s")) if v)
    return text or "0s"


def deadline_for(schedule: Schedule, latest: int) -> dt.datetime | None:
    """The deadline of the turn now awaited (a deadline of an earlier turn counts for
    nothing)."""
    if schedule.deadline and schedule.deadline_turn == latest:
        return schedule.deadline
    return None


def due(schedule: Schedule, latest: int, awaited: list[str], pending: set[str],
        moment: dt.datetime) -> str | None:
    """Why the turn should run now, or None."""
    if schedule.held:
        return None
    if awaited and set(awaited) <= pending and runs_early(schedule, latest, awaited):
        return "every awaited player has sent orders"
    deadline = deadline_for(schedule, latest)
    if deadline is not None and moment >= deadline:
        return f"the deadline {format_time(deadline)} has passed"
    return None
