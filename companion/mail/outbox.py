"""Outgoing mail: built once, recorded in the store (``mail_out``) with its state, then sent.

A message is queued under a key naming what it is (``reply:<Message-ID>``,
``report:GAME:TURN:SLUG``, ...): queuing the same key twice keeps the first, so work redone
after a crash never queues a message twice. Sending marks the row ``sending`` (committed)
before the server is asked and ``sent`` or ``failed`` (with the server's answer) after; a
failed message is tried again by the next run (up to ``smtp.max_attempts``). Without an SMTP
server configured, each message is written as ``NNNNNN-KEY.eml`` into the outbox folder (the
same name every time, so writing it again replaces it).

One window is left, as in every mail program: when the process dies after the server accepted a
message and before ``sent`` is committed, the next run sends it again with the same Message-ID
(a mail client shows it once), and says so. The row says ``sending`` meanwhile. SMTP has no way
to ask a server whether it accepted a message, so a ``sending`` row cannot be told apart from one
the server never got; sending it again (at least once) is chosen over holding it (at most once,
a report possibly lost). docs/mail.md, "Nothing lost, nothing twice", has the reasoning.
"""
from __future__ import annotations

import hashlib
import os
import re
from dataclasses import dataclass
from pathlib import Path

from companion.errors import CompanionError


def now_text() -> str:
    from companion.mail.deadlines import format_time, now

    return format_time(now())


def message_id_for(key: str, domain: str) -> str:
    digest = hashlib.sha256(key.encode("utf-8")).hexdigest()[:32]
    return f"<companion.{digest}@{domain}>"


ATTACHMENT_TYPES = {"pdf": ("application", "pdf"), "txt": ("text", "plain"),
                    "json": ("application", "json"), "png": ("image", "png"),
                    "svg": ("image", "svg+xml"), "html": ("text", "html")}


def build(config, recipient: str, subject: str, body: str, key: str, *,
          attachments: list[tuple[str, bytes]] = (),
          in_reply_to: str | None = None) -> tuple[str, bytes]:
    """(Message-ID, the message's bytes): UTF-8 text body (quoted-printable where needed),
    attachments by file name (PDF, text, anything else as octets)."""
    from email.message import EmailMessage
    from email.utils import format_datetime, formataddr

    from companion.mail.deadlines import now

    msg = EmailMessage()
    msg["From"] = formataddr((config.name, config.address))
    msg["To"] = recipient
    msg["Subject"] = subject
    msg["Date"] = format_datetime(now())
    message_id = message_id_for(key, config.domain)
    msg["Message-ID"] = message_id
    msg["Auto-Submitted"] = "auto-replied" if in_reply_to else "auto-generated"
    msg["X-Companion-Key"] = hashlib.sha256(key.encode("utf-8")).hexdigest()[:16]
    if in_reply_to:
        msg["In-Reply-To"] = in_reply_to
        msg["References"] = in_reply_to
    msg.set_content(body, charset="utf-8")
    for name, data in attachments:     # base64: every file arrives byte for byte
        maintype, subtype = ATTACHMENT_TYPES.get(name.rpartition(".")[2].lower(),
                                                 ("application", "octet-stream"))
        msg.add_attachment(data, maintype=maintype, subtype=subtype, filename=name)
    return message_id, msg.as_bytes(policy=msg.policy.clone(linesep="\r\n"))   # as sent


def queue(db, config, key: str, recipient: str, subject: str, body: str, *,
          game_id: str | None = None, player: str | None = None,
          attachments: list[tuple[str, bytes]] = (), in_reply_to: str | None = None) -> bool:
    """Record a message to send, inside the caller's transaction; False when a message with
    this key is already recorded (nothing is queued twice)."""
    if db.execute("SELECT 1 FROM mail_out WHERE key=?", (key,)).fetchone():
        return False
    message_id, raw = build(config, recipient, subject, body, key, attachments=attachments,
                            in_reply_to=in_reply_to)
    db.execute("INSERT INTO mail_out (key, game_id, player, recipient, subject, message_id, raw, "
               "state, created_at) VALUES (?,?,?,?,?,?,?,'queued',?)",
               (key, game_id, player, recipient, subject, message_id, raw, now_text()))
    return True


@dataclass
class Outgoing:
    id: int
    key: str
    recipient: str
    subject: str
    raw: bytes
    state: str
    attempts: int


def waiting(store, max_attempts: int) -> list[Outgoing]:
    rows = store.db.execute("SELECT id, key, recipient, subject, raw, state, attempts FROM "
                            "mail_out WHERE state IN ('queued', 'sending', 'failed') AND "
                            "attempts < ? ORDER BY id", (max_attempts,)).fetchall()
    return [Outgoing(*row) for row in rows]


def mark(store, out_id: int, state: str, answer: str) -> None:
    with store.transaction() as db:
        db.execute("UPDATE mail_out SET state=?, answer=?, sent_at=? WHERE id=?",
                   (state, answer[:2000], now_text() if state == "sent" else None, out_id))


def send_all(store, config, log, hook=lambda step: None) -> tuple[int, int]:
    """Send every queued (or failed, or interrupted) message; (sent, failed)."""
    pending = waiting(store, config.max_attempts)
    if not pending:
        return 0, 0
    sender = SmtpSender(config) if config.smtp else FileSender(config)
    sent = failed = 0
    try:
        for item in pending:
            if item.state == "sending":
                log(f"#{item.id} to {item.recipient} was being sent when an earlier pass "
                    "stopped; sending it again (same Message-ID: a mail program shows it once)")
            with store.transaction() as db:
                db.execute("UPDATE mail_out SET state='sending', attempts=attempts+1 WHERE id=?",
                           (item.id,))
            hook("before-send")
            ok, answer = sender.send(item)
            hook("after-send")
            mark(store, item.id, "sent" if ok else "failed", answer)
            if ok:
                sent += 1
                log(f"sent #{item.id} to {item.recipient}: {item.subject}")
            else:
                failed += 1
                log(f"could not send #{item.id} to {item.recipient}: {answer} (tried again by "
                    "the next run)")
    finally:
        sender.close()
    return sent, failed


class FileSender:
    """No SMTP server: each message becomes an .eml file in the outbox folder."""

    def __init__(self, config):
        self.folder = Path(config.outbox)

    def send(self, item: Outgoing) -> tuple[bool, str]:
        safe = re.sub(r"[^A-Za-z0-9._-]+", "-", item.key)[:80]
        target = self.folder / f"{item.id:06d}-{safe}.eml"
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            temporary = target.with_name("." + target.name + ".tmp")
            temporary.write_bytes(item.raw)
            os.replace(temporary, target)
        except OSError as exc:
            return False, f"cannot write {target}: {exc.strerror or exc}"
        return True, f"written to {target}"

    def close(self) -> None:
        pass


class SmtpSender:
    """One SMTP connection for a run (opened at the first message, opened again after the
    server dropped it)."""

    def __init__(self, config):
        self.config = config
        self.server = config.smtp
        self.smtp = None

    def connect(self):
        import smtplib

        s = self.server
        password = s.password() or ""          # before connecting: a missing one is said first
        if s.tls == "tls":
            smtp = smtplib.SMTP_SSL(s.host, s.port, timeout=s.timeout,
                                    context=s.ssl_context())
        else:
            smtp = smtplib.SMTP(s.host, s.port, timeout=s.timeout)
            smtp.ehlo()
            if s.tls == "starttls":
                smtp.starttls(context=s.ssl_context())
                smtp.ehlo()
        if s.user:
            smtp.login(s.user, password)
        return smtp

    def send(self, item: Outgoing) -> tuple[bool, str]:
        import smtplib

        try:
            if self.smtp is None:
                self.smtp = self.connect()
            options = []
            if not item.recipient.isascii():
                # an address with letters beyond ASCII (a stranger's From:, or a player's)
                # goes only to a server that says it takes them (RFC 6531)
                self.smtp.ehlo_or_helo_if_needed()
                if not self.smtp.has_extn("smtputf8"):
                    return False, (f"the address {item.recipient} has letters beyond ASCII "
                                   "and the server does not offer SMTPUTF8 for them")
                options = ["SMTPUTF8"]
            refused = self.smtp.sendmail(self.config.address, [item.recipient], item.raw,
                                         mail_options=options)
            if refused:
                code, text = next(iter(refused.values()))
                return False, f"{code} {_text(text)}"
            return True, "250 accepted"
        except smtplib.SMTPRecipientsRefused as exc:
            code, text = next(iter(exc.recipients.values()))
            return False, f"recipient refused: {code} {_text(text)}"
        except smtplib.SMTPResponseException as exc:
            self.drop()
            return False, f"{exc.smtp_code} {_text(exc.smtp_error)}"
        except smtplib.SMTPServerDisconnected as exc:
            self.smtp = None
            return False, f"the server closed the connection ({exc or 'no answer'})"
        except (smtplib.SMTPException, OSError) as exc:
            self.drop()
            return False, f"{type(exc).__name__}: {exc}"
        except ValueError as exc:
            # smtplib cannot put the address into a command (a character it refuses): this
            # message fails, the others are still sent (the connection, mid-command, is new
            # for the next one)
            self.drop()
            return False, f"the address {item.recipient!r} cannot be sent to ({exc})"

    def drop(self) -> None:
        if self.smtp is not None:
            try:
                self.smtp.quit()
            except Exception:  # noqa: BLE001 - it is going anyway
                pass
            self.smtp = None

    def close(self) -> None:
        self.drop()


def _text(value) -> str:
    if isinstance(value, bytes):
        return value.decode("utf-8", "replace")
    return str(value)


def check_smtp(config) -> str:
    """Connect and log in to the SMTP server; a line saying what happened (CompanionError
    with exactly what failed)."""
    import smtplib
    import ssl

    s = config.smtp
    where = f"SMTP server {s.host}:{s.port} ({s.tls})"
    try:
        smtp = SmtpSender(config).connect()
        smtp.noop()
        smtp.quit()
    except smtplib.SMTPAuthenticationError as exc:
        raise CompanionError(f"{where}: login as {s.user} refused: {exc.smtp_code} "
                             f"{_text(exc.smtp_error)}",
                             hint="check the user and password") from None
    except ssl.SSLError as exc:
        raise CompanionError(f"{where}: TLS failed ({exc.reason or exc})",
                             hint="tls = \"tls\" is for port 465, \"starttls\" for 587; a "
                                  "self-signed server needs ca_file") from None
    except smtplib.SMTPNotSupportedError as exc:
        raise CompanionError(f"{where}: {exc}", hint="the server offers no STARTTLS; try "
                                                     "tls = \"tls\" on port 465") from None
    except (smtplib.SMTPException, OSError) as exc:
        raise CompanionError(f"{where}: {type(exc).__name__}: {exc}",
                             hint="check host, port and that the server is reachable") from None
    return f"{where}: connected" + (f" and logged in as {s.user}" if s.user else "")
