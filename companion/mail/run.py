"""One pass of the mail moderator: fetch, answer, adjudicate what is due, send.

1. **fetch**: every new message of the mailbox is stored raw in ``mail_in`` (keyed by its
   Message-ID: a message read twice is stored once) and committed before the mailbox marks it
   taken.
2. **answer**: every stored message not yet processed is handled in one transaction: its orders
   (or command) applied, its reply queued, its state set. A crash rolls all of it back and the
   next pass does it again, once.
3. **games**: turns stored without reports get them; every turn's reports are queued to its
   players (once: ``mailed_turn``); a turn whose orders are all in, or whose deadline has
   passed, is run; reminders are queued before a deadline.
4. **send**: every queued or failed message is sent (:mod:`companion.mail.outbox`).

Every step prints one progress line per message and per turn. Mail codes and the moderator's
secret never appear in the progress lines or in the review list.
"""
from __future__ import annotations

import os
import re
import sqlite3
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from pathlib import Path

from companion.engine.orders import MAX_ORDER_CHARS
from companion.engine.words import counted, numbered, word_for
from companion.errors import CompanionError, StoreError
from companion.mail import deadlines, outbox, seats
from companion.mail.identity import Sender, identify, mail_code, masked
from companion.mail.parse import Parsed, clean_orders, parse_message, without_courtesies


@dataclass
class PassResult:
    fetched: int = 0
    processed: int = 0
    turns: list[str] = field(default_factory=list)
    sent: int = 0
    failed: int = 0


class Crash:
    """The test hook COMPANION_TEST_MAIL_CRASH=STEP[:N]: the process dies (exit 137, nothing
    cleaned up) the Nth time it reaches STEP. Never set it for a real game."""

    def __init__(self):
        spec = os.environ.get("COMPANION_TEST_MAIL_CRASH", "")
        step, _, count = spec.partition(":")
        self.step = step
        self.left = int(count or 1) if step else 0

    def __call__(self, step: str) -> None:
        if self.step and step == self.step:
            self.left -= 1
            if self.left <= 0:
                os._exit(137)


def one_pass(store, config, output: Path, log, hook=None) -> PassResult:
    hook = hook or Crash()
    result = PassResult()
    with pass_lock(store.path):
        result.fetched = fetch(store, config, log, hook)
        result.processed = answer_all(store, config, output, log, hook)
        result.turns = run_games(store, config, output, log, hook)
        result.sent, result.failed = outbox.send_all(store, config, log, hook)
    return result


@contextmanager
def pass_lock(store_path: Path):
    """One pass at a time per store (cron and a --watch, say): two at once could send one
    message twice. The lock is the operating system's (flock), gone with the process."""
    import fcntl

    lock_path = Path(str(store_path) + ".mail-lock")
    try:
        handle = open(lock_path, "a+")
    except OSError as exc:
        raise CompanionError(f"cannot open the lock file {lock_path}: {exc.strerror}") from None
    try:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise CompanionError("another 'companion mail run' is working on this store; this "
                                 "pass is skipped", hint="it does the work; wait for it") from None
        yield
    finally:
        handle.close()


# ------------------------------------------------------------------------------------ fetch
def fetch(store, config, log, hook=lambda step: None) -> int:
    from companion.mail.mailbox import source

    box = source(config)
    box.open()
    count = 0
    try:
        for key, raw in box.messages():
            parsed = parse_message(raw)
            with store.transaction() as db:
                cur = db.execute("INSERT OR IGNORE INTO mail_in (message_id, received_at, "
                                 "source, raw, sender, subject, state) VALUES "
                                 "(?,?,?,?,?,?,'new')",
                                 (parsed.message_id, outbox.now_text(), box.describe(), raw,
                                  parsed.sender, parsed.subject[:500]))
            hook("stored")
            box.taken(key)
            hook("taken")
            if cur.rowcount:
                count += 1
                log(f"received {parsed.message_id} from {parsed.sender or '(no sender)'}")
            else:
                log(f"received {parsed.message_id} again: already stored, not read twice")
    finally:
        box.close()
    return count


# ----------------------------------------------------------------------------------- answer
def answer_all(store, config, output: Path, log, hook=lambda step: None) -> int:
    rows = store.db.execute("SELECT message_id FROM mail_in WHERE state='new' ORDER BY rowid"
                            ).fetchall()
    for (message_id,) in rows:
        answer_one(store, config, output, message_id, log, hook)
    return len(rows)


def answer_one(store, config, output: Path, message_id: str, log,
               hook=lambda step: None) -> None:
    secret = config.moderator_secret() if config.moderator else None
    try:
        with store.transaction() as db:
            row = db.execute("SELECT state, raw FROM mail_in WHERE message_id=?",
                             (message_id,)).fetchone()
            if row is None or row[0] != "new":
                return                              # another process did it meanwhile
            parsed = parse_message(row[1])
            state, game_id, player, outcome = handle(store, db, config, output, parsed, row[1])
            db.execute("UPDATE mail_in SET state=?, game_id=?, player=?, outcome=?, "
                       "processed_at=? WHERE message_id=?",
                       (state, game_id, player, masked(outcome, secret)[:2000],
                        outbox.now_text(), message_id))
            hook("in-transaction")
    except sqlite3.Error:
        raise                                       # the store itself failed: stop the pass
    except StoreError:
        raise                                       # locked, full, read-only: stop the pass
    except CompanionError as exc:
        mark_review(store, message_id, f"could not be handled: {exc.message}", secret)
        log(f"message {message_id}: could not be handled ({masked(exc.message, secret)}); "
            "left for review ('companion mail inbox')")
        return
    except Exception as exc:  # noqa: BLE001 - one bad message never stops the others
        if os.environ.get("COMPANION_DEBUG"):
            raise
        mark_review(store, message_id, f"companion failed on it ({type(exc).__name__}); "
                                       "this is a bug", secret)
        log(f"message {message_id}: companion failed on it ({type(exc).__name__}); left for "
            "review ('companion mail inbox')")
        return
    hook("processed")
    log(f"message {message_id} from {parsed.sender or '(no sender)'}: {state}: "
        f"{masked(outcome, secret)}")


def mark_review(store, message_id: str, outcome: str, secret: str | None) -> None:
    with store.transaction() as db:
        db.execute("UPDATE mail_in SET state='review', outcome=?, processed_at=? WHERE "
                   "message_id=? AND state='new'",
                   (masked(outcome, secret)[:2000], outbox.now_text(), message_id))


def handle(store, db, config, output: Path, parsed: Parsed, raw: bytes
           ) -> tuple[str, str | None, str | None, str]:
    """Decide what a message is and do it (inside the caller's transaction): (state, game,
    player, outcome)."""
    if parsed.auto:
        return "ignored", None, None, f"an automatic message ({parsed.auto}); no reply sent"
    if not parsed.sender:
        return "review", None, None, "no sender address; no reply possible" + (
            f" ({'; '.join(parsed.problems)})" if parsed.problems else "")
    if parsed.too_large:        # stored whole (nothing lost); the sender is told
        told = (f"{parsed.too_large}. Orders are a few lines of text: send them in the body "
                "of a new message, without attachments or quoted mail")
        return "refused", None, None, parsed.too_large + refuse(db, config, parsed, told,
                                                                 told=told)
    if parsed.problems and not parsed.body.strip() and not parsed.subject:
        return "review", None, None, "unreadable: " + "; ".join(parsed.problems)
    if config.dkim:
        problem = dkim_problem(raw, parsed.sender)
        if problem:
            return "refused", None, None, problem + refuse(db, config, parsed, problem)
    who = identify(store, parsed, config)
    if who.role == "refused":
        return "refused", who.game_id, who.player, who.reason + refuse(
            db, config, parsed, who.reason, told=who.answer)
    if who.role == "moderator":
        return "done", None, None, moderator_commands(store, db, config, output, parsed)
    return player_message(store, db, config, output, parsed, who)


def dkim_problem(raw: bytes, sender: str) -> str | None:
    import dkim

    try:
        checker = dkim.DKIM(raw)
        ok = checker.verify(dnsfunc=DNSFUNC) if DNSFUNC else checker.verify()
    except Exception as exc:  # noqa: BLE001 - dkimpy raises many kinds
        return f"its DKIM signature cannot be checked ({type(exc).__name__})"
    if not ok:
        return "it has no valid DKIM signature (required here)"
    domain = (checker.domain or b"").decode("ascii", "replace").lower()
    sender_domain = sender.rpartition("@")[2]
    if not (sender_domain == domain or sender_domain.endswith("." + domain)):
        return f"its DKIM signature is for {domain}, not for the sender's domain {sender_domain}"
    return None


DNSFUNC = None
"""A DNS lookup for dkimpy (tests give one; None: the real DNS)."""


REFUSALS_A_DAY = 5
"""The most refusals sent to one address (and notices of its messages to the moderator) in
24 hours: a From address can be forged, and companion must not become a way to flood somebody
(or the moderator) with mail; what comes after is kept on the review list, unanswered."""


def lately(db, condition: str, *args) -> int:
    """How many mails of the outbox meeting ``condition`` (SQL, with ``args``) were queued in
    the last 24 hours."""
    import datetime as dt

    since = deadlines.format_time(deadlines.now() - dt.timedelta(hours=24))
    return db.execute(f"SELECT COUNT(*) FROM mail_out WHERE created_at>=? AND {condition}",
                      (since, *args)).fetchone()[0]


def refuse(db, config, parsed: Parsed, reason: str, *, told: str | None = None) -> str:
    """A refusal goes to the address the message came from, and says why (``told``: what the
    sender may know of it, which never tells whether a code is somebody's; the moderator's
    notice has the whole ``reason``); it holds no code, nor the moderator's secret (which a
    stranger may have guessed, or the moderator sent from another address). Past
    :data:`REFUSALS_A_DAY` to one address, none is sent: returns what the outcome adds then."""
    before = lately(db, "recipient=? AND key LIKE 'reply:%' AND subject LIKE 'Not accepted:%'",
                    parsed.sender)
    if before >= REFUSALS_A_DAY:
        return (f"; no reply sent: {REFUSALS_A_DAY} refusals went to {parsed.sender} in the "
                "last 24 hours")
    secret = readable_secret(config)
    body = (f"Your message{_subject_note(parsed, secret)} was not read: {told or reason}.\n\n"
            "Nothing was stored as orders. If you are a player, send your orders from the "
            "address the moderator registered for you, with the code from your latest report "
            "in the subject (it looks like XXXXX-XXXXX-XXXXX).\n")
    if before == REFUSALS_A_DAY - 1:
        body += (f"\nThis is the {REFUSALS_A_DAY}th refusal sent to this address in 24 hours: "
                 "messages from it that cannot be read are not answered again until a day has "
                 "passed (the moderator can see them).\n")
    outbox.queue(db, config, f"reply:{parsed.message_id}", parsed.sender,
                 "Not accepted: " + (masked(parsed.subject, secret) or "your message")[:120],
                 body,
                 in_reply_to=parsed.message_id if parsed.message_id.startswith("<") and
                 not parsed.message_id.startswith("<sha256:") else None)
    notify_moderator(db, config, parsed, reason)
    return ""


def notify_moderator(db, config, parsed: Parsed, reason: str) -> None:
    """A short notice of a refused message to the moderator's address (when one is
    configured): who sent it, its subject and why it was refused, every code masked. Queued
    under its own key in the same transaction as the refusal, so it goes once. None when the
    moderator sent the message: the refusal itself went to them."""
    if not config.moderator or parsed.sender == config.moderator.lower():
        return
    secret = config.moderator_secret()
    subject = masked(parsed.subject, secret)
    body = (f"companion refused a message; it is on the review list.\n\n"
            f"From:       {parsed.sender}\n"
            f"Subject:    {subject[:200] or '(none)'}\n"
            f"Message-ID: {masked(parsed.message_id, secret)}\n"
            f"Why:        {masked(reason, secret)}\n\n"
            "The sender was told why and nothing was changed. 'companion mail inbox' lists the "
            "review list; 'companion mail inbox --show MESSAGE-ID' shows the message as it came "
            "(with any code in it: keep it to yourself).\n")
    title = f"companion: refused a message from {parsed.sender}"[:200]
    if lately(db, "key LIKE 'notice:%' AND subject=?", title) >= REFUSALS_A_DAY:
        return                  # the review list has it; the moderator was told enough today
    outbox.queue(db, config, f"notice:{parsed.message_id}", config.moderator, title, body)


def _subject_note(parsed: Parsed, secret: str | None = None) -> str:
    return f" ({masked(parsed.subject, secret)[:80]!r})" if parsed.subject else ""


def readable_secret(config) -> str | None:
    """The moderator's secret when one is configured and readable (to mask it), else None."""
    if config is None or not config.moderator:
        return None
    try:
        return config.moderator_secret()
    except CompanionError:
        return None


def reads_as_order(kind, state: dict, player: str):
    """Whether the game reads a line (alone, at its number) as the start of an order: its
    parser does not refuse the line's first word as an unknown order. Such a line is never set
    aside as a greeting or a sign-off, whatever it looks like."""
    from companion.engine.orders import OrdersRejected, order_lines

    def check(number: int, line: str) -> bool:
        text = "\n" * (number - 1) + line + "\n"
        found = order_lines(text)
        if not found:
            return False
        first = found[0].tokens[0].col
        try:
            kind.parse_orders(state, player, text, "message")
        except OrdersRejected as rejected:
            return not any(e.line is not None and e.line.number == number and e.col == first
                           and e.message.startswith("unknown order") for e in rejected.errors)
        except Exception:  # noqa: BLE001 - whatever else the parser says: keep the line
            return True
        return True
    return check


def unquoted_length(text: str) -> int:
    """The characters of an order text that are not quoted mail (lines starting with '>',
    which the order readers skip): what the limit of MAX_ORDER_CHARS counts, so that orders
    written below a long report quoted whole are not refused for the quote."""
    return sum(len(line) for line in text.splitlines(True) if not line.lstrip().startswith(">"))


MAIL_ERRORS = 100
"""The most order errors a reply lists (then how many more): a reply stays readable."""


def rendered(exc: CompanionError) -> str:
    """An error as a reply by mail gives it: order errors listed up to :data:`MAIL_ERRORS`."""
    from companion.engine.orders import OrdersRejected

    return exc.render(MAIL_ERRORS) if isinstance(exc, OrdersRejected) else exc.render()


def orders_text(parsed: Parsed) -> str:
    """The order text with the line holding the code blanked (line numbers unchanged)."""
    from companion.mail.parse import without_code_line

    return without_code_line(parsed.body)


def player_message(store, db, config, output, parsed: Parsed, who: Sender):
    from companion import service
    from companion.engine.identity import IdentityError, check_email
    from companion.registry import get_kind

    game = store.game(who.game_id)
    player = game.player(who.player)
    latest = store.turn(game.id)
    schedule = deadlines.ensure(db, game.id, latest.number, config)
    reply_to = player.email or parsed.sender
    key = f"reply:{parsed.message_id}"
    head = (f"Game {game.id}, turn {latest.number} (the game is over)."
            if get_kind(game.kind).is_over(latest.state) else
            f"Game {game.id}, for turn {latest.number + 1} (after turn {latest.number}).")
    named = [t for t in re.findall(r"\[([A-Za-z0-9][A-Za-z0-9_-]*)\]", parsed.subject)
             if t != game.id and t.lower() != "code"]
    if named:       # a player in two games may have answered the wrong one's mail
        head += (f"\nNote: the subject names game {named[0]}, but the code in this message is "
                 f"for game {game.id}: it was read for {game.id}.")
    command = who.command
    in_reply = parsed.message_id if not parsed.message_id.startswith("<sha256:") else None

    def reply(subject: str, body: str, *, to: str = reply_to, old: bool = False) -> None:
        if not old:         # their own code, so that answering this mail works (never to an
            body = body.rstrip("\n") + "\n\n" + code_footer(game, player)   # old address)
        # the notice to an old address has a key of its own kind: no Message-ID a sender
        # chooses can make it the key of a mail queued before ('reply:' + 'X:old' once was
        # 'reply:X' + ':old', so a message with the ID 'X:old' silenced the notice of 'X')
        outbox.queue(db, config, f"old-address:{parsed.message_id}" if old else key, to,
                     f"[{game.id}] {subject}", body, game_id=game.id, player=player.name,
                     in_reply_to=in_reply)

    deadline_line = deadline_said(schedule, latest.number) + "\n"
    if command.startswith("address"):
        parts = command.split()
        new = parts[1] if len(parts) > 1 else parsed.sender
        try:
            check_email(new, "the new address", new=True)
        except IdentityError as exc:
            reply("address not changed", f"{head}\n{exc.message}; your address stays "
                                         f"{player.email}.\n", to=parsed.sender)
            return "done", game.id, player.name, f"address not changed: {exc.message}"
        old = store.change_email(db, game.id, player, new, outbox.now_text(),
                                 parsed.message_id)
        reply("address changed", f"{head}\nThe address of {player.name} in game {game.id} is "
                                 f"now {new}. Reports and replies go there from now on.\n",
              to=new)
        if old and old.lower() != new.lower():
            reply("your address was changed",
                  f"{head}\nA message carrying your code changed the address of "
                  f"{player.name} in game {game.id} from {old} to {new}. If that was not "
                  "you, tell the moderator at once.\n", to=old, old=True)
        if config.moderator and (old or "").lower() != new.lower():
            # the moderator hears of every seat that moves by mail: above all a seat they had
            # left without an address ('none': its player gone) taken up again with its code
            outbox.queue(db, config, f"moderator-address:{parsed.message_id}", config.moderator,
                         f"companion: {player.name} in game {game.id} changed their address",
                         f"A message carrying the code of {player.name} in game {game.id} "
                         f"changed the seat's address from {old or 'none (no mail)'} to {new}"
                         f" (from {parsed.sender}).\n\n"
                         + ("The seat had no address: if its player left, give it a new "
                            f"token ('companion token {game.id} \"{player.name}\"'), and the "
                            "old code stops working.\n" if not old else
                            "The old address was told too. If it was not the player, "
                            f"'companion token {game.id} \"{player.name}\"' gives them a new "
                            "code and 'companion game address' puts the address back.\n"),
                         game_id=game.id)
        return "done", game.id, player.name, f"address of {player.name} changed"
    if command == "help":
        reply("help", f"{head}\n{HELP_TEXT}{deadline_line}")
        return "done", game.id, player.name, "help sent"
    if command == "options":
        lines = service.legal_options(store, game.id, player.name)
        reply("your options", f"{head}\nThe order lines open to {player.name} now:\n\n"
                              + ("".join(f"  {line}\n" for line in lines) or "  (none)\n")
                              + "\n" + deadline_line)
        return "done", game.id, player.name, f"options sent ({len(lines)} lines)"
    if command == "pending":
        [mine] = service.pending_orders(store, game.id, player.name)
        if mine["text"] is None:
            body = (f"No orders of {player.name} for turn {mine['turn']} have been accepted "
                    "yet.\n")
        else:
            by_mail = db.execute(
                "SELECT 1 FROM mail_in WHERE game_id=? AND player=? AND state='done' AND "
                "outcome LIKE ?", (game.id, player.name,
                                   f"orders of % (submission {mine['submission']})%")
            ).fetchone()
            body = (f"The orders of {player.name} for turn {mine['turn']}, accepted "
                    f"{mine['submitted_at']} (submission {mine['submission']}"
                    + ("" if by_mail else "; not sent by mail: given on the web page, or "
                                          "entered by the moderator")
                    + "):\n\n"
                    + "".join(f"  | {line}\n" for line in mine["text"].rstrip("\n").split("\n"))
                    + "\nunderstood as:\n\n"
                    + "".join(f"  {line}\n" for line in mine["understood"]))
        kind = get_kind(game.kind)
        if kind.is_over(latest.state):
            body += "The game is over; no orders are taken.\n"
        elif player.name in kind.awaited(latest.state):
            body += f"Turn {latest.number + 1} waits for your orders.\n"
            if player.name in schedule.waits:
                body += ("You asked it to wait for its deadline ('nowait' after your code "
                         "cancels that).\n")
        else:
            body += (f"Turn {latest.number + 1} does not wait for your orders: nothing is asked "
                     "of you for it (your report says what you may send ahead).\n")
        reply("your pending orders", f"{head}\n{body}\n{deadline_line}")
        return "done", game.id, player.name, "pending orders sent"
    if command in ("wait", "nowait"):
        return wait_command(store, db, game, player, latest, schedule, command, head, reply,
                            parsed.message_id)
    if command == "resend":
        queue_report_again(db, config, output, game, player, latest.number, schedule, key,
                           reply_to, in_reply,
                           over=get_kind(game.kind).is_over(latest.state))
        return "done", game.id, player.name, f"report of turn {latest.number} sent again"
    kind = get_kind(game.kind)
    if kind.is_over(latest.state):
        reply("the game is over", f"{head}\nGame {game.id} is over; no orders are taken.\n")
        return "done", game.id, player.name, "no orders taken: the game is over"
    check = reads_as_order(kind, latest.state, player.name)
    parsed, passed_over = orders_in_body(parsed, check)
    name = "attachment" if parsed.from_attachment is not None else "message"
    head += used_note(store, game, player.name, latest.number)
    # a greeting and a sign-off from the fixed lists become comments, named in the reply;
    # the text stored (and replayed) is this one, which every game reads as it always has
    text, ignored = without_courtesies(orders_text(parsed), check)
    aside = "".join(f"  {c.said(f' of your {name}')}\n" for c in ignored)
    aside = f"\nNot read as orders (a greeting or a sign-off):\n{aside}" if aside else ""
    if passed_over:
        aside += (f"\nNot read: the attached file {passed_over!r}, which holds no order; "
                  "your orders were read from the text of your message.\n")
    noted = f"; ignored {counted(len(ignored), 'greeting/sign-off line')}" if ignored else ""
    size = unquoted_length(text)
    if size > MAX_ORDER_CHARS:      # as on the web page: not parsed, not stored
        reply("orders NOT accepted",
              f"{head}\nYour orders were NOT accepted; nothing was changed. The text read as "
              f"orders in your {name} is {size:,} characters long (quoted lines aside); the "
              f"most taken is {MAX_ORDER_CHARS:,}, far more than any turn's orders. Was a "
              "document or a forwarded message included? Send only your orders in a new "
              "message (with your code).\n\n" + deadline_line)
        return "done", game.id, player.name, f"orders of {player.name} rejected: " \
                                              f"{size:,} characters, over the limit"
    try:
        result = service.check_orders(store, game.id, player.name, text, name)
        replaced = player.name in store.pending(game.id)
        withdraw = service.is_withdrawal(text)
        if withdraw and not replaced:
            raise CompanionError(f"{player.name} has no pending orders to withdraw; nothing "
                                 "was changed")
    except CompanionError as exc:
        reply("orders NOT accepted",
              f"{head}\nYour orders were NOT accepted; nothing was changed. Every problem, "
              f"with line and column of your {name}:\n\n{rendered(exc)}\n{aside}\n"
              + unread_note(parsed) +
              "Send the corrected orders in a new message (with your code). 'options' in "
              "the subject (with your code) lists the order lines open to you now.\n\n"
              + deadline_line)
        return "done", game.id, player.name, f"orders of {player.name} rejected: " \
                                              f"{exc.message}{noted}"
    number = store.submit_in(db, game.id, player.name, latest.number + 1, text,
                             service.now_text(), withdraw=withdraw)
    if withdraw:
        reply("orders withdrawn", f"{head}\nYour pending orders are withdrawn; nothing is "
                                  f"submitted for you now (submission {number}).\n{aside}\n"
                                  + deadline_line)
        return "done", game.id, player.name, f"orders of {player.name} withdrawn{noted}"
    verb = "replaced your earlier orders" if replaced else "accepted"
    reply("orders accepted",
          f"{head}\nOrders of {player.name} {verb} (submission {number}); understood as:\n\n"
          + "".join(f"  {line}\n" for line in result.understood) + aside
          + "\nA new message with orders replaces these; the single line 'withdraw' "
            "withdraws them.\n\n" + deadline_line)
    return "done", game.id, player.name, f"orders of {player.name} {verb} (submission " \
                                          f"{number}){noted}"


def holds_order(text: str, check) -> bool:
    """Whether some line of an order text reads as an order (``check`` is
    :func:`reads_as_order`'s; each line is tried alone, as a first line, so that a long text
    costs in proportion to its length)."""
    return any(line.strip() and check(1, line) for line in text.split("\n"))


def orders_in_body(parsed: Parsed, check) -> tuple[Parsed, str]:
    """The message as its orders are read, and the name of a text attachment passed over
    ('' if none). A text attachment holds the orders, but one with no line that reads as an
    order (notes, a list, a file attached by mistake) gives way to a body that has such a
    line: the player wrote the orders into the mail and attached something else."""
    if parsed.from_attachment is None or holds_order(orders_text(parsed), check):
        return parsed, ""
    body = replace(parsed, body=clean_orders(parsed.text), from_attachment=None,
                   attachment_name="")
    if not holds_order(orders_text(body), check):
        return parsed, ""
    return body, parsed.attachment_name or "(without a name)"


def unread_note(parsed: Parsed) -> str:
    """For a reply refusing orders: the attachments that were not read ('orders.docx', a
    photo), and how to send orders instead; '' when there were none."""
    if not parsed.unread:
        return ""
    names = ", ".join(repr(n) for n in parsed.unread[:5]) + (
        f" and {len(parsed.unread) - 5} more" if len(parsed.unread) > 5 else "")
    return (f"Not read: the attachment{'s' if len(parsed.unread) > 1 else ''} {names}. "
            "Orders are read from the text of the mail, or from an attached plain-text file "
            "(.txt), never from a document, a PDF or a picture: write them into the mail.\n\n")


def wait_command(store, db, game, player, latest, schedule, command: str, head: str, reply,
                 message_id: str):
    """A player's ``wait`` (turn ``latest + 1`` runs only at its deadline, not as soon as
    every order is in: orders may be revised until then) or ``nowait`` (that request ended).
    Only an awaited player's request counts; orders sent later leave it standing. What others
    are told never names who asked."""
    import dataclasses

    from companion.registry import get_kind

    kind = get_kind(game.kind)
    turn = latest.number + 1
    if kind.is_over(latest.state):
        reply("the game is over", f"{head}\nGame {game.id} is over; there is no turn to wait "
                                  "for.\n")
        return "done", game.id, player.name, f"{command} of {player.name}: the game is over"
    if command == "wait" and player.name not in kind.awaited(latest.state):
        reply("not waiting", f"{head}\nTurn {turn} does not wait for your orders, so it does "
                             "not wait for your request either: nothing was changed.\n\n"
              + deadline_said(schedule, latest.number) + "\n")
        return "done", game.id, player.name, f"wait of {player.name} not taken: not awaited"
    changed = deadlines.set_wait(db, game.id, latest.number, player.name, command == "wait",
                                 outbox.now_text(), message_id)
    waits = set(schedule.waits) - {player.name} | ({player.name} if command == "wait" else set())
    schedule = dataclasses.replace(schedule, waits=tuple(sorted(waits)))
    has_deadline = deadlines.deadline_for(schedule, latest.number) is not None
    if command == "wait":
        said = ("You asked before; it stands." if not changed else
                f"Noted: turn {turn} waits for its deadline.")
        said += (" Until then you may send new orders (each replaces the one before); they "
                 "leave this request standing. 'nowait' after your code cancels it."
                 if has_deadline else
                 f" But turn {turn} has no deadline, so it still runs as soon as every awaited "
                 "player has sent orders (a request to wait counts only with a deadline).")
    else:
        said = (f"Your request that turn {turn} wait for its deadline is cancelled."
                if changed else f"You had not asked turn {turn} to wait: nothing to cancel.")
    said += ("\nThis message was read as that request alone; orders go in a message of their "
             "own.")
    reply("waiting for the deadline" if command == "wait" else "not waiting",
          f"{head}\n{said}\n\n{deadline_said(schedule, latest.number)}\n")
    return "done", game.id, player.name, (
        f"{command} of {player.name}" + ("" if changed else " (nothing changed)"))


def deadline_said(schedule, number: int, *, over: bool = False) -> str:
    """The line a player's mail ends its head with: the deadline of the turn awaited and the
    game's schedule, or that the game is over."""
    if over:
        return "The game is over: no more orders are taken."
    text = deadlines.describe(schedule, number)
    deadline = deadlines.deadline_for(schedule, number)
    if text.startswith("deadline "):
        text = text[len("deadline "):]
        if deadline is not None and deadlines.now() >= deadline:
            stamp = deadlines.format_time(deadline)
            text = text.replace(stamp, stamp + " (passed)", 1)
    elif text.startswith("no deadline"):
        text = "none" + text[len("no deadline"):]
    return "Deadline: " + text


def code_footer(game, player) -> str:
    """The last lines of every mail to a player's own address: their code, so that answering
    the mail (which quotes it) reaches companion as that player."""
    return (f"Your code for orders by mail: {mail_code(game, player)} (keep it to yourself; "
            "answering this mail with it quoted works too)\n")


def used_note(store, game, player: str, latest: int) -> str:
    """A line for the head of the answer to orders that come after the turn their player's
    earlier orders were carried out in (a correction sent too late): it ran already, and these
    orders are for the next turn. '' otherwise."""
    if player in store.pending(game.id):
        return ""
    mine = [s for s in store.submissions(game.id) if s.player == player]
    used = [s for s in mine if s.status == "used"]
    if not used or used[-1].used_in != latest or mine[-1].id != used[-1].id:
        return ""
    return (f"\nNote: your earlier orders (submission {used[-1].id}) were carried out when turn "
            f"{latest} ran; its report was mailed to you. This message counts for turn "
            f"{latest + 1}.")


HELP_TEXT = """
Send your orders as plain text in the body of a message (or in a .txt attachment), from the
address the moderator registered for you, with your code (XXXXX-XXXXX-XXXXX, in your latest
report) in the subject or on the first line. Every message gets a reply with the orders as
understood, or every error with its line and column.

Put one of these words after your code in the subject instead:
  options          the order lines open to you now
  pending          your orders for the next turn as they stand (as understood)
  resend           your latest report again
  address NEW      send everything to the address NEW from now on
  wait             run the next turn only at its deadline, not as soon as every order is
                   in: you may revise your orders until then (only with a deadline)
  nowait           cancel your 'wait'
  help             this text

"""


def moderator_commands(store, db, config, output: Path, parsed: Parsed) -> str:
    """hold GAME, release GAME, extend GAME DURATION, deadline GAME WHEN, run GAME,
    status [GAME], address GAME PLAYER ADDRESS, resend GAME PLAYER: one per line; the reply
    says what each did."""
    from companion.mail.config import parse_duration
    from companion.mail.parse import courtesies

    secret = config.moderator_secret() or ""
    answers = []
    lines = [" ".join(w for w in line.split() if w != secret)
             for line in parsed.body.split("\n")]
    # a greeting and a sign-off (the players' fixed lists) are no commands, and the reading
    # stops at a '-- ' signature, as the order readers do: a moderator's signature is never
    # read as commands ("Run by ...", "Hold ...")
    aside = {c.line: c for c in courtesies(
        "\n".join(lines), lambda number, line: line.split()[0].lower() in MODERATOR_VERBS)}
    for number, (raw, line) in enumerate(zip(parsed.body.split("\n"), lines), start=1):
        if raw.rstrip("\r") in ("-- ", "--"):
            break
        words = line.split()
        if not words or line.lstrip().startswith((">", "#")):
            continue
        if number in aside and aside[number].text == line.strip():
            answers.append(aside[number].said())
            continue
        verb, args = words[0].lower(), words[1:]
        try:
            answers.append(moderator_command(store, db, config, output, verb, args,
                                             parse_duration, parsed.message_id))
        except CompanionError as exc:
            answers.append(f"{' '.join(words)}: {exc.message}")
    if not answers:
        answers.append("no command found; commands: " + MODERATOR_HELP)
    outbox.queue(db, config, f"reply:{parsed.message_id}", config.moderator,
                 "companion: moderator commands", "\n".join(answers) + "\n",
                 in_reply_to=parsed.message_id if not parsed.message_id.startswith("<sha256:")
                 else None)
    return "; ".join(answers)


MODERATOR_VERBS = ("hold", "release", "extend", "deadline", "run", "status", "address",
                   "resend", "rewind")
MODERATOR_HELP = ("hold GAME, release GAME, extend GAME DURATION, deadline GAME WHEN, run GAME, "
                  "status [GAME], address GAME PLAYER ADDRESS [quiet], resend GAME PLAYER, "
                  "rewind GAME TURN yes")


def moderator_command(store, db, config, output: Path, verb: str, args: list[str],
                      parse_duration, message_id: str = "") -> str:
    import datetime as dt

    if verb == "status" and not args:
        return "; ".join(moderator_command(store, db, config, output, "status", [g],
                                           parse_duration)
                         for g in store.game_ids()) or "no games"
    if verb not in MODERATOR_VERBS or not args:
        raise CompanionError(f"unknown command '{verb}'" if verb not in MODERATOR_VERBS
                             else "which game?")
    game = store.game(args[0])
    latest = store.turn(game.id).number
    schedule = deadlines.ensure(db, game.id, latest, config)
    if verb in ("address", "resend"):
        return seat_command(store, db, config, output, game, latest, schedule, verb, args,
                            message_id)
    if verb == "rewind":
        return rewind_command(store, db, output, game, latest, args, message_id)
    if verb == "hold":
        if not deadlines.set_hold(db, game.id, True):
            return f"{game.id}: already held: nothing to hold"
        return f"{game.id}: held (no turn runs until 'release {game.id}')"
    if verb == "release":
        if not deadlines.set_hold(db, game.id, False):
            return f"{game.id}: not held: nothing to release"
        return f"{game.id}: released"
    if verb == "extend":
        if len(args) < 2:
            raise CompanionError("extend GAME DURATION (e.g. extend g1 24h)")
        try:
            seconds = parse_duration(args[1].lstrip("+"))
        except ValueError as exc:
            raise CompanionError(str(exc)) from None
        base = deadlines.deadline_for(schedule, latest) or deadlines.now()
        when = base + dt.timedelta(seconds=seconds)
        deadlines.set_deadline(db, game.id, latest, when)
        return f"{game.id}: deadline extended to {deadlines.format_time(when)}"
    if verb == "deadline":
        when = deadlines.parse_when(" ".join(args[1:]) or "none")
        deadlines.set_deadline(db, game.id, latest, when)
        return f"{game.id}: deadline " + (deadlines.format_time(when) if when else "none")
    if verb == "run":
        deadlines.set_deadline(db, game.id, latest, deadlines.now())
        return f"{game.id}: turn {latest + 1} runs in this pass" + (
            " (but the game is held: release it first)" if schedule.held else "")
    return f"{game.id}: turn {latest}; {deadlines.describe(schedule, latest)}"


def seat_command(store, db, config, output: Path, game, latest: int, schedule, verb: str,
                 args: list[str], message_id: str) -> str:
    """The moderator's ``address GAME PLAYER ADDRESS [quiet]`` (a player's new address, or
    somebody taking over the seat, told to the other players in this pass unless ``quiet``:
    :mod:`companion.mail.seats`; 'none': no mail) and ``resend GAME PLAYER`` (the latest report
    to the player's address). A player's name may hold spaces."""
    from companion import service
    from companion.engine.identity import IdentityError, check_email

    quiet = verb == "address" and len(args) > 3 and args[-1].lower() == "quiet"
    if quiet:
        args = args[:-1]
    words = args[1:-1] if verb == "address" else args[1:]
    if not words:
        raise CompanionError(f"{verb} {game.id}: which player?" + (
            " (address GAME PLAYER ADDRESS [quiet])" if verb == "address" else ""))
    player = game.player(service.resolve_player(game, " ".join(words)))
    if verb == "address":
        new = args[-1] if args[-1].lower() not in ("none", "-") else None
        if new is not None:
            try:
                check_email(new, "the new address", new=True)
            except IdentityError as exc:
                raise CompanionError(exc.message) from None
        done = seats.change(store, db, game, player, new, outbox.now_text(),
                            f"moderator: {message_id}", quiet=quiet)
        said = done.said("in this pass")
        return (f"{game.id}: the address of {player.name} is now {new or 'none (no mail)'}"
                f" (was {done.old or 'none'})" + (f"; {said}" if said else ""))
    if not player.email:
        raise CompanionError(f"{game.id}: {player.name} has no email address (give one by "
                             f"mail with 'address {game.id} {player.name} ADDRESS', or with "
                             f"'companion game address {game.id} \"{player.name}\" ADDRESS')")
    if not (report_folder(output, game, latest) / f"{player.slug}.txt").is_file():
        raise CompanionError(f"{game.id}: the report of {player.name} for turn {latest} is "
                             f"missing (companion report {game.id})")
    from companion.registry import get_kind

    queue_report_again(db, config, output, game, player, latest, schedule,
                       f"resend:{game.id}:{latest}:{player.slug}:{message_id}", player.email,
                       over=get_kind(game.kind).is_over(store.turn(game.id).state))
    return f"{game.id}: the report of turn {latest} goes to {player.name} at {player.email}"


def rewind_command(store, db, output: Path, game, latest: int, args: list[str],
                   message_id: str) -> str:
    """The moderator's ``rewind GAME TURN yes`` (without 'yes': what it would do)."""
    from companion import service
    from companion.engine.numbers import is_digits

    if len(args) < 2 or not is_digits(args[1]):
        raise CompanionError(f"rewind {game.id} TURN yes: give the last turn to keep (0 to "
                             f"{latest - 1})")
    to = int(args[1])
    if len(args) < 3 or args[2].lower() != "yes":
        gone = numbered("turn", service.rewind_span(store, game.id, to))
        return (f"{game.id}: 'rewind {game.id} {to} yes' takes back {gone} (nothing "
                "is deleted); nothing done yet")
    done = service.rewind(store, game.id, to, output, f"by mail ({message_id})", db=db)
    return (f"{game.id}: {numbered('turn', done.numbers)} taken back; orders "
            f"pending for turn {to + 1}: {', '.join(done.pending) or 'none'}; the game is held "
            f"('release {game.id}' when the orders are right)")


# ------------------------------------------------------------------------------------ games
def run_games(store, config, output: Path, log, hook=lambda step: None) -> list[str]:
    done = []
    for game_id in store.game_ids():
        try:
            done.extend(run_game(store, config, output, game_id, log, hook))
        except CompanionError as exc:       # one damaged game does not stop the others
            log(f"game {game_id}: skipped: {exc.message}")
    return done


def run_game(store, config, output: Path, game_id: str, log, hook) -> list[str]:
    from companion import service
    from companion.registry import get_kind

    done = []
    game = store.game(game_id)
    kind = get_kind(game.kind)
    for number in service.publish_missing(store, game, output):
        log(f"game {game_id}: reports of turn {number} written (stored without them: an "
            "interrupted run, or an imported game)")
    latest = store.turn(game_id)
    with store.transaction() as db:
        schedule = deadlines.ensure(db, game_id, latest.number, config)
        # a held game gets its next deadline when released (docs/mail.md: a turn taken
        # back), so the time on hold does not eat into the players' period
        if schedule.period and schedule.deadline_turn != latest.number and not schedule.held:
            deadlines.after_turn(db, game_id, latest.number, schedule)
            schedule = deadlines.ensure(db, game_id, latest.number, config)
    queue_reports(store, config, game, output, log)
    announce_rewinds(store, config, game, log, schedule)
    seats.announce(store, config, game, log)
    hook("reports-queued")
    if kind.is_over(latest.state):
        return done
    awaited = kind.awaited(latest.state)
    pending = set(store.pending(game_id))
    reason = deadlines.due(schedule, latest.number, awaited, pending, deadlines.now())
    if reason is None:
        remind(store, config, game, latest, schedule, awaited, pending, log)
        return done
    # A turn that cannot run (missing=wait and orders missing after the deadline) is tried
    # again by every pass, quietly: its lines are said once per turn, deadline and reason
    # (recorded in companion_meta, so a pass from cron is as quiet as one of --watch).
    deadline = deadlines.deadline_for(schedule, latest.number)
    said_key = f"mail-no-turn:{game_id}"
    prefix = (f"turn {latest.number}; "
              f"{deadlines.format_time(deadline) if deadline else 'no deadline'}; ")
    said = store.db.execute("SELECT value FROM companion_meta WHERE key=?",
                            (said_key,)).fetchone()
    quiet = said is not None and said[0].startswith(prefix)
    if not quiet:
        log(f"game {game_id}: running turn {latest.number + 1} ({reason})")
    try:
        outcome = service.run_turn(store, game_id, output=output,
                                   crash_hook=lambda: hook("turn-commit"))
    except CompanionError as exc:
        if not quiet or said[0] != prefix + exc.message:
            log(f"game {game_id}: no turn run: {exc.message} (the next passes try again, "
                "saying nothing more until the deadline or the reason changes)")
            with store.transaction() as db:
                db.execute("INSERT OR REPLACE INTO companion_meta (key, value) VALUES (?,?)",
                           (said_key, prefix + exc.message))
                if deadline is not None and deadlines.now() >= deadline:
                    overdue(db, config, game, latest, deadline, awaited, pending, exc.message,
                            log)
        return done
    if quiet:
        log(f"game {game_id}: running turn {latest.number + 1} ({reason})")
    hook("turn")
    with store.transaction() as db:
        deadlines.after_turn(db, game_id, outcome.turn, schedule)
        db.execute("DELETE FROM companion_meta WHERE key=?", (said_key,))
    game = store.game(game_id)
    queue_reports(store, config, game, output, log)
    done.append(f"{game_id}:{outcome.turn}")
    log(f"game {game_id}: turn {outcome.turn} processed" +
        ("; the game is over" if outcome.over else ""))
    return done


def overdue(db, config, game, latest, deadline, awaited, pending, why: str, log) -> None:
    """The deadline has passed and the turn cannot run without the orders still missing (the
    game's missing=wait): each player it waits for is told so, once per turn and deadline, with
    their code; the moderator gets one notice naming them (another player never learns whose
    orders are missing)."""
    when = deadlines.format_time(deadline)
    late = [p for p in game.players if p.name in awaited and p.name not in pending]
    for player in late:
        if not player.email:
            continue
        if outbox.queue(db, config, f"overdue:{game.id}:{latest.number}:{when}:{player.slug}",
                        player.email, f"[{game.id}] deadline passed: the game waits for your "
                        "orders",
                        f"Game {game.id}, turn {latest.number}: the deadline {when} has passed "
                        f"and no orders of yours for turn {latest.number + 1} are in. The game "
                        "waits for them: nothing runs until they arrive or the moderator "
                        "decides otherwise. Send them now with your code in the subject (or "
                        "answer this mail); 'options' after the code lists the order lines "
                        "open to you.\n\n" + code_footer(game, player),
                        game_id=game.id, player=player.name):
            log(f"game {game.id}: {player.name} told the deadline has passed")
    if config.moderator:
        told = [p.name for p in late if p.email]
        outbox.queue(db, config, f"overdue-notice:{game.id}:{latest.number}:{when}",
                     config.moderator,
                     f"companion: game {game.id} waits for orders past its deadline",
                     f"Game {game.id}, turn {latest.number}: the deadline {when} has passed "
                     f"and the turn cannot run ({why}).\n"
                     + (f"Told by mail that the game waits for them: {', '.join(told)}.\n"
                        if told else "")
                     + "\nWhat you can do (by mail with your secret, or on the command line): "
                       f"wait; 'extend {game.id} 24h' (a new deadline); send orders for them "
                       f"('companion orders submit {game.id} PLAYER FILE'); or give the seat "
                       "to somebody else ('companion token', 'companion game address', "
                       "'companion mail resend'; docs/mail.md, A player moves or leaves).\n")


def report_parts(game, player, number: int, folder: Path, config, schedule, *,
                 over: bool = False, latest: int | None = None
                 ) -> tuple[str, list[tuple[str, bytes]]]:
    """A player's report mail: the text report as the body (with their code and the deadline
    above it), their PDF and their own extra files attached, and the files every player may
    have (a finished game's disclosures). Nothing of another player's. ``latest``: the
    game's latest turn, when it is later than ``number`` (turns run one after the other
    before a pass mailed them): the head says so instead of a deadline."""
    from companion.engine.identity import player_slugs

    from companion.fairness import FILE_NAME

    slugs = set(player_slugs([p.name for p in game.players]).values())
    own = f"{player.slug}."
    # the finished game's disclosures by name: a player whose name makes the slug
    # 'chance-disclosure' must not make the fairness file look like theirs alone
    shared = {FILE_NAME, "disclosure.json"}
    attachments = []
    text = ""
    if folder.is_dir():
        for path in sorted(folder.iterdir()):
            name = path.name
            if name == f"{player.slug}.txt":
                text = path.read_text(encoding="utf-8")
            elif name.startswith(own):
                attachments.append((name, path.read_bytes()))
            elif (name in shared or name.partition(".")[0] not in slugs) and \
                    not name.startswith("public.") and path.is_file() and name.endswith(".json"):
                attachments.append((name, path.read_bytes()))
    code = mail_code(game, player)
    head = (f"Game {game.id}, turn {number}: the report of {player.name}.\n"
            f"Your code for orders by mail: {code}\n"
            f"(put it in the subject of your orders; never share it)\n"
            + (f"Turn {number + 1} has already run: this report is not the latest (turn "
               f"{latest} is; its report comes in a mail of its own)\n"
               if latest is not None and latest > number else
               f"{deadline_said(schedule, number, over=over)}\n")
            + "-" * 72 + "\n\n")
    return head + (text or "(the text report is missing; see the attached PDF)\n"), attachments


def report_folder(output: Path, game, number: int) -> Path:
    from companion import service

    return service.inside(service.game_folder(output, game), f"turn-{number:03d}")


def queue_report_again(db, config, output: Path, game, player, number: int, schedule,
                       key: str, to: str, in_reply_to: str | None = None, *,
                       over: bool = False) -> None:
    """Queue a player's report of turn ``number`` once more (``resend``, by the player or the
    moderator), to ``to``."""
    from companion import service

    folder = report_folder(output, game, number)
    body, attachments = report_parts(game, player, number, folder, config, schedule, over=over)
    outbox.queue(db, config, key, to, f"[{game.id}] turn {number} report for {player.name} "
                 "(again)", body, game_id=game.id, player=player.name, attachments=attachments,
                 in_reply_to=in_reply_to)


def queue_reports(store, config, game, output: Path, log) -> None:
    from companion import service
    from companion.registry import get_kind

    last = store.turn(game.id)
    latest, game_over = last.number, get_kind(game.kind).is_over(last.state)
    with store.transaction() as db:
        schedule = deadlines.ensure(db, game.id, latest, config)
        unpublished = set(store.unpublished(game.id))
        for number in range(schedule.mailed_turn + 1, latest + 1):
            if number in unpublished:
                break
            folder = service.inside(service.game_folder(output, game), f"turn-{number:03d}")
            if not folder.is_dir():
                log(f"game {game.id}: the reports of turn {number} are missing from {folder}; "
                    f"run 'companion report {game.id} --turn {number}' (its mail waits)")
                break
            (digest,) = db.execute("SELECT hash FROM turns WHERE game_id=? AND number=?",
                                   (game.id, number)).fetchone()
            (runs,) = db.execute("SELECT COUNT(*) FROM rewound_turns WHERE game_id=? AND "
                                 "number=?", (game.id, number)).fetchone()
            over = game_over and number == latest
            for player in game.players:
                if not player.email:
                    continue
                body, attachments = report_parts(game, player, number, folder, config,
                                                 schedule, over=over, latest=latest)
                if runs:    # its players were told it was taken back: say it is back
                    body = (f"Turn {number} was taken back and has run again: this report "
                            "replaces the one you were sent before"
                            + (" (a new code below)" if _new_code(db, game, player, number)
                               else "") + ".\n" + body)
                if outbox.queue(db, config, report_key(game.id, number, digest, player.slug,
                                                       runs),
                                player.email, f"[{game.id}] turn {number} report for "
                                f"{player.name}" + (" (run again)" if runs else ""), body,
                                game_id=game.id, player=player.name, attachments=attachments):
                    log(f"game {game.id}: turn {number} report for {player.name} queued")
            db.execute("UPDATE mail_games SET mailed_turn=? WHERE game_id=?", (number, game.id))


def report_key(game_id: str, number: int, digest: str, slug: str, runs: int) -> str:
    """The outbox key of a player's report of a turn: the turn's hash, and how many times the
    turn was taken back before this run of it (from the first rewind on), so that a turn run
    again is mailed again even when it came out the same (its players were told it no longer
    stood; one of them may have a new code)."""
    return f"report:{game_id}:{number}:{digest[:16]}:{slug}" + (f":run{runs}" if runs else "")


def runs_before(db, game_id: str, number: int, row_id: int) -> int:
    """How many times turn ``number`` had been taken back before the rewind stored as
    ``rewound_turns`` row ``row_id``: the ``runs`` of the run that rewind took back."""
    (runs,) = db.execute("SELECT COUNT(*) FROM rewound_turns WHERE game_id=? AND number=? AND "
                         "id<?", (game_id, number, row_id)).fetchone()
    return runs


def _new_code(db, game, player, number: int) -> bool:
    """True if ``player`` was mailed a report of turn ``number`` before, with a code other than
    the one they have now (a new token since: somebody took over the seat)."""
    code = mail_code(game, player).encode()
    raws = db.execute("SELECT raw FROM mail_out WHERE game_id=? AND player=? AND key LIKE ?",
                      (game.id, player.name, f"report:{game.id}:{number}:%")).fetchall()
    return any(code not in _plain(raw) for (raw,) in raws)


def _plain(raw: bytes) -> bytes:
    """A stored message's text body as bytes (quoted-printable or base64 undone)."""
    from email import message_from_bytes, policy

    msg = message_from_bytes(raw, policy=policy.default)
    part = msg.get_body(preferencelist=("plain",))
    return part.get_content().encode() if part is not None else raw


def announce_rewinds(store, config, game, log, schedule) -> None:
    """Tell each player who was mailed the report of a turn since taken back (and not yet run
    again) that it no longer stands, once per rewind: which turns, where the game stands,
    whether their orders for the next turn are in, and when that turn runs (``schedule``, as it
    stands at this pass). Nothing of the moderator's reason (it may speak of another player)."""
    from companion import service

    latest = store.latest_number(game.id)
    rows = store.db.execute("SELECT id, number, hash, rewound_at FROM rewound_turns WHERE "
                            "game_id=? AND number>? ORDER BY id", (game.id, latest)).fetchall()
    if not rows:
        return
    events: dict[str, list[tuple[int, int, str]]] = {}
    for row_id, number, digest, when in rows:       # one rewind takes back one run of turns
        events.setdefault(when, []).append((row_id, number, digest))
    from companion.registry import get_kind

    pending = {e["player"]: e for e in service.pending_orders(store, game.id)}
    awaited = set(get_kind(game.kind).awaited(store.turn(game.id).state))
    runs = when_it_runs(schedule, deadlines.deadline_for(schedule, latest))
    with store.transaction() as db:
        for when, taken in events.items():
            for player in game.players:
                seen = [number for row_id, number, digest in taken if player.email and
                        db.execute("SELECT 1 FROM mail_out WHERE key=?", (report_key(
                            game.id, number, digest, player.slug, runs_before(db, game.id,
                                                                              number, row_id)),)
                        ).fetchone()]
                if not seen:
                    continue
                mine = pending[player.name]
                orders = (f"your orders for turn {latest + 1} (submission {mine['submission']}, "
                          f"sent {mine['submitted_at']}) stand; send new ones to replace them"
                          if mine["text"] is not None else
                          f"no orders of yours for turn {latest + 1} are in; send them"
                          if player.name in awaited else
                          f"turn {latest + 1} does not wait for orders of yours")
                turns = numbered("turn", sorted({n for _, n, _ in taken}))
                them = "it" if len(seen) == 1 else "them"
                if outbox.queue(db, config, f"rewound:{game.id}:{taken[0][0]}:{player.slug}",
                                player.email, f"[{game.id}] {turns} taken back",
                                f"Game {game.id}: the moderator took back {turns} "
                                f"({when}); the {word_for(len(seen), 'report')} you were sent "
                                f"for {them} no longer "
                                f"{'stands' if len(seen) == 1 else 'stand'}. The game stands at turn {latest} again: "
                                f"{orders} (with your code in the subject; 'pending' after "
                                "the code shows what is in). "
                                f"{runs}\n",
                                game_id=game.id, player=player.name):
                    log(f"game {game.id}: {player.name} told of {turns} taken back")


def when_it_runs(schedule, deadline) -> str:
    """When the next turn of a mail game runs, in a sentence for its players."""
    if schedule.held:
        return "The game is on hold: the turn runs again when the moderator releases it."
    if deadline and not (schedule.early and not schedule.waits):
        return (f"The turn runs again at the deadline, {deadlines.format_time(deadline)}, not "
                "before" + (" (a player asked to wait)." if schedule.early else "."))
    return ("The turn runs again once all the orders it waits for are in" +
            (f", or at the deadline, {deadlines.format_time(deadline)}." if deadline else
             " (there is no deadline)."))


def remind(store, config, game, latest, schedule, awaited, pending, log) -> None:
    import datetime as dt

    deadline = deadlines.deadline_for(schedule, latest.number)
    if deadline is None or not schedule.remind_before or \
            schedule.reminded_turn >= latest.number or \
            deadlines.now() < deadline - dt.timedelta(seconds=schedule.remind_before):
        return
    then = ("If none arrive by then, the game waits for them (nothing runs without them)."
            if game.options.get("missing") == "wait" else
            "If none arrive by then, the turn runs with your defaults (your report says what "
            "they are).")
    with store.transaction() as db:
        for player in game.players:
            if player.name in awaited and player.name not in pending and player.email:
                outbox.queue(db, config, f"remind:{game.id}:{latest.number}:{player.slug}:"
                             f"{deadline:%Y%m%d%H%M}",      # an extended deadline: reminded anew
                             player.email, f"[{game.id}] reminder: orders due "
                             f"{deadlines.format_time(deadline)}",
                             f"Game {game.id}, turn {latest.number}: your orders are due by "
                             f"{deadlines.format_time(deadline)} and none have arrived yet.\n"
                             f"{then}\n"
                             "Send them with your code in the subject (or answer this mail).\n"
                             "\n" + code_footer(game, player),
                             game_id=game.id, player=player.name)
                log(f"game {game.id}: reminder for {player.name} queued")
        db.execute("UPDATE mail_games SET reminded_turn=? WHERE game_id=?",
                   (latest.number, game.id))
