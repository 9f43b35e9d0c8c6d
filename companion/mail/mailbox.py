"""Where incoming mail is read: a Maildir folder (no server needed; the default) or an IMAP
folder over TLS (imaplib). A source lists the messages not yet taken, gives each one's bytes,
and marks a message taken once the store holds it (Maildir: moved to ``cur/`` with the Seen
flag; IMAP: flagged \\Seen). A message taken twice (the process died in between) is stored
once: the store keys it by its Message-ID."""
from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Iterator

from companion.engine.words import counted
from companion.errors import CompanionError


class MaildirSource:
    def __init__(self, path: Path):
        self.path = Path(path)

    def open(self) -> None:
        import mailbox

        try:
            # Maildir(create=True) makes the last folder only: 'mail/inbox' (companion.toml's
            # default) needs 'mail' first
            self.path.parent.mkdir(parents=True, exist_ok=True)
            mailbox.Maildir(str(self.path), create=True)     # new/, cur/, tmp/
        except OSError as exc:
            raise CompanionError(f"cannot open the Maildir {self.path}: "
                                 f"{exc.strerror or exc}") from None

    def describe(self) -> str:
        return f"Maildir {self.path}"

    def check(self) -> str:
        """What ``companion mail check`` says of the Maildir; nothing is created or moved."""
        if not self.path.exists():
            return "does not exist yet (the first 'companion mail run' makes it)"
        return f"ok, {counted(len(self.waiting()), 'new message')}"

    def messages(self) -> Iterator[tuple[str, bytes]]:
        """Messages in new/ and cur/ without the Seen or Trashed flag, oldest first; the key is
        the file's path inside the Maildir."""
        for key in self.waiting():
            try:
                yield key, (self.path / key).read_bytes()
            except FileNotFoundError:
                continue

    def waiting(self) -> list[str]:
        """The keys of the messages not yet taken, oldest first: by mtime, then by the delivery
        time the file's name carries (``delivery_time``: two messages delivered within one tick
        of a file system with coarse timestamps have one mtime, and as text 'M10' comes before
        'M9'), then by the name itself."""
        found = []
        for sub in ("new", "cur"):
            try:
                names = os.listdir(self.path / sub)
            except FileNotFoundError:
                continue
            for name in names:
                if name.startswith("."):
                    continue
                flags = name.partition(":2,")[2]
                if "S" in flags or "T" in flags:
                    continue
                try:
                    mtime = os.stat(self.path / sub / name).st_mtime_ns
                except FileNotFoundError:
                    continue                     # taken away meanwhile
                found.append((mtime, delivery_time(name), name, f"{sub}/{name}"))
        return [key for *_, key in sorted(found)]

    def taken(self, key: str) -> None:
        """Move the message to cur/ with the Seen flag (the Maildir convention)."""
        name = key.partition("/")[2]
        base, _, flags = name.partition(":2,")
        target = self.path / "cur" / f"{base}:2,{''.join(sorted(set(flags + 'S')))}"
        try:
            os.replace(self.path / key, target)
        except FileNotFoundError:
            pass

    def close(self) -> None:
        pass


_SECONDS = re.compile(r"[0-9]+")
_MICROSECONDS = re.compile(r"M([0-9]+)")
_COUNTER = re.compile(r"Q([0-9]+)|^[0-9]+_([0-9]+)$")


def delivery_time(name: str) -> tuple[int, int, int]:
    """The delivery time a Maildir file name carries, as (seconds, microseconds, delivery
    counter), -1 for each part it lacks. Delivery agents name a message
    ``<seconds>.<unique>.<host>[,S=<size>][:2,<flags>]``; the unique part often holds
    ``M<microseconds>`` (Dovecot, Postfix, Courier, Python's mailbox) and ``Q<count>``, the
    count of deliveries of one process (``<pid>_<count>`` in the older qmail form). A name whose first part is not a number follows no
    convention: (-1, -1, -1), and its name alone places it."""
    seconds, _, rest = name.partition(":2,")[0].partition(".")
    if not _SECONDS.fullmatch(seconds):
        return (-1, -1, -1)
    unique = rest.partition(".")[0]
    micro = _MICROSECONDS.search(unique)
    counter = _COUNTER.search(unique)
    return (int(seconds), int(micro.group(1)) if micro else -1,
            int(counter.group(1) or counter.group(2)) if counter else -1)


class ImapSource:
    def __init__(self, config):
        self.server = config.imap
        self.folder = config.folder
        self.imap = None

    def describe(self) -> str:
        s = self.server
        return f"IMAP {s.user or ''}@{s.host}:{s.port}/{self.folder} ({s.tls})"

    def open(self, *, readonly: bool = False) -> None:
        """Connect, log in and select the folder (``readonly``: EXAMINE it, so that nothing
        in it can change, for ``companion mail check``)."""
        import imaplib
        import ssl

        s = self.server
        where = f"IMAP server {s.host}:{s.port} ({s.tls})"
        password = s.password() or ""          # before connecting: a missing one is said first
        try:
            if s.tls == "tls":
                imap = imaplib.IMAP4_SSL(s.host, s.port, ssl_context=s.ssl_context(),
                                         timeout=s.timeout)
            else:
                imap = imaplib.IMAP4(s.host, s.port, timeout=s.timeout)
                if s.tls == "starttls":
                    imap.starttls(ssl_context=s.ssl_context())
        except ssl.SSLError as exc:
            raise CompanionError(f"{where}: TLS failed ({exc.reason or exc})",
                                 hint="tls = \"tls\" is for port 993, \"starttls\" for 143; a "
                                      "self-signed server needs ca_file") from None
        except (OSError, imaplib.IMAP4.error) as exc:
            raise CompanionError(f"{where}: cannot connect ({exc})",
                                 hint="check host and port, and that the server is "
                                      "reachable") from None
        try:
            imap.login(s.user or "", password)
        except imaplib.IMAP4.error as exc:
            try:
                imap.logout()
            except Exception:  # noqa: BLE001
                pass
            raise CompanionError(f"{where}: login as {s.user} refused ({_text(exc)})",
                                 hint="check the user and password") from None
        status, answer = imap.select(_quote(self.folder), readonly=readonly)
        if status != "OK":
            imap.logout()
            raise CompanionError(f"{where}: no folder {self.folder!r} ({_text(answer)})",
                                 hint="check [mailbox] folder in companion.toml")
        self.imap = imap

    def check(self) -> str:
        """What ``companion mail check`` says of the IMAP folder: it is examined (opened
        read-only) and its unseen messages counted; nothing is fetched or flagged."""
        import imaplib

        self.open(readonly=True)
        try:
            status, data = self.imap.uid("SEARCH", None, "UNSEEN")
        except (OSError, imaplib.IMAP4.error) as exc:
            raise CompanionError(f"{self.describe()}: the search failed ({exc})") from None
        finally:
            imap, self.imap = self.imap, None
            try:
                imap.logout()
            except Exception:  # noqa: BLE001 - closing a connection that may be gone
                pass
        if status != "OK":
            raise CompanionError(f"{self.describe()}: the search failed ({_text(data)})")
        return f"ok, {counted(len((data[0] or b'').split()), 'new message')}"

    def messages(self) -> Iterator[tuple[str, bytes]]:
        import imaplib

        try:
            yield from self._messages()
        except (OSError, imaplib.IMAP4.error) as exc:
            raise CompanionError(f"{self.describe()}: the connection failed while reading "
                                 f"({type(exc).__name__}: {exc}); what was stored stays "
                                 "stored", hint="the next run reads the rest") from None

    def _messages(self) -> Iterator[tuple[str, bytes]]:
        status, data = self.imap.uid("SEARCH", None, "UNSEEN")
        if status != "OK":
            raise CompanionError(f"IMAP search failed: {_text(data)}")
        for uid in (data[0] or b"").split():
            status, parts = self.imap.uid("FETCH", uid, "(BODY.PEEK[])")
            if status != "OK":
                continue
            for part in parts:
                if isinstance(part, tuple) and len(part) == 2:
                    yield uid.decode(), part[1]
                    break

    def taken(self, key: str) -> None:
        import imaplib

        try:
            self.imap.uid("STORE", key, "+FLAGS", "(\\Seen)")
        except (OSError, imaplib.IMAP4.error) as exc:
            raise CompanionError(f"{self.describe()}: cannot mark a message read ({exc}); it "
                                 "is stored, and read again next time only to be recognised",
                                 hint="the next run goes on") from None

    def close(self) -> None:
        if self.imap is not None:
            try:
                self.imap.close()
                self.imap.logout()
            except Exception:  # noqa: BLE001 - closing a connection that may be gone
                pass
            self.imap = None


def _quote(folder: str) -> str:
    return '"' + folder.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _text(value) -> str:
    if isinstance(value, (list, tuple)):
        return " ".join(_text(v) for v in value)
    if isinstance(value, bytes):
        return value.decode("utf-8", "replace")
    return str(value)


def source(config):
    if config.mailbox_kind == "imap":
        return ImapSource(config)
    return MaildirSource(config.maildir)
