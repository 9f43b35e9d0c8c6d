"""companion.toml: where mail comes from, how it leaves, who the moderator is, and the default
deadlines. Validated completely; every error names the file, line and column (as the game data
files do: :class:`companion.engine.datafiles.DataFile`). Secrets (passwords, the moderator's
secret) are never in the file: it names an environment variable or a file holding them."""
from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from pathlib import Path

from companion.engine.numbers import is_digits
from companion.errors import CompanionError, DataError

CONFIG_NAME = "companion.toml"
LOOPBACK = ("127.0.0.1", "::1", "localhost")
TLS_MODES = ("tls", "starttls", "none")

SECTIONS = {
    "mail": ("address", "name", "moderator", "moderator_secret_env", "moderator_secret_file",
             "dkim", "watch"),
    "mailbox": ("kind", "path", "host", "port", "tls", "user", "password_env", "password_file",
                "folder", "timeout", "ca_file"),
    "smtp": ("host", "port", "tls", "user", "password_env", "password_file", "timeout",
             "ca_file", "max_attempts"),
    "outbox": ("path",),
    "deadlines": ("period", "remind_before"),
}


@dataclass
class Server:
    """An IMAP or SMTP server: host, port, TLS mode, login."""
    role: str
    host: str
    port: int
    tls: str
    user: str | None = None
    password_env: str | None = None
    password_file: Path | None = None
    timeout: float = 30.0
    ca_file: Path | None = None

    def password(self) -> str | None:
        """The password from its environment variable or file (never from the command line or
        companion.toml itself)."""
        if self.password_env:
            value = os.environ.get(self.password_env)
            if value is None:
                raise CompanionError(f"the {self.role} password is read from the environment "
                                     f"variable {self.password_env}, which is not set",
                                     hint=f"export {self.password_env}=... before running, or "
                                          "give password_file in companion.toml")
            return value
        if self.password_file:
            try:
                return self.password_file.read_text(encoding="utf-8").rstrip("\r\n")
            except OSError as exc:
                raise CompanionError(f"cannot read the {self.role} password file "
                                     f"{self.password_file}: {exc.strerror}") from None
        return None

    def ssl_context(self):
        import ssl

        context = ssl.create_default_context()
        if self.ca_file:
            context.load_verify_locations(cafile=str(self.ca_file))
        return context


@dataclass
class MailConfig:
    path: Path
    address: str
    name: str = "companion"
    moderator: str | None = None
    moderator_secret_env: str | None = None
    moderator_secret_file: Path | None = None
    dkim: bool = False
    watch: int = 300
    mailbox_kind: str = "maildir"
    maildir: Path | None = None
    imap: Server | None = None
    folder: str = "INBOX"
    smtp: Server | None = None
    max_attempts: int = 10
    outbox: Path = field(default_factory=lambda: Path("outbox"))
    period: int | None = None
    remind_before: int | None = None

    @property
    def domain(self) -> str:
        return self.address.rpartition("@")[2]

    def moderator_secret(self) -> str | None:
        if self.moderator_secret_env:
            value = os.environ.get(self.moderator_secret_env)
            return value.strip() if value and value.strip() else None
        if self.moderator_secret_file:
            try:
                value = self.moderator_secret_file.read_text(encoding="utf-8").strip()
            except OSError as exc:
                raise CompanionError(f"cannot read the moderator's secret file "
                                     f"{self.moderator_secret_file}: {exc.strerror}") from None
            return value or None
        return None


DURATION = re.compile(r"(?:(\d+)d)?\s*(?:(\d+)h)?\s*(?:(\d+)m)?\s*(?:(\d+)s)?")


MAX_DURATION_DAYS = 3650
"""The longest duration taken (ten years): deadlines, periods and reminders beyond it are
mistakes, and dates that far off leave what the calendar can count."""


def parse_duration(text: str | int) -> int:
    """Seconds from ``90``, ``"90s"``, ``"30m"``, ``"12h"``, ``"3d"``, ``"1d12h"``
    (ValueError otherwise, and beyond MAX_DURATION_DAYS)."""
    if isinstance(text, int) and not isinstance(text, bool):
        if text < 0:
            raise ValueError("a duration cannot be negative")
        seconds = text
    elif not isinstance(text, str):
        raise ValueError(f"{text!r} is not a duration")
    else:
        value = text.strip().lower()
        m = None if is_digits(value) else DURATION.fullmatch(value)
        if is_digits(value):
            seconds = int(value)
        elif not value or not m or not any(m.groups()):
            raise ValueError(f"{text!r} is not a duration (write e.g. 90s, 30m, 12h, 3d or "
                             "1d12h)")
        else:
            d, h, mi, s = (int(g or 0) for g in m.groups())
            seconds = ((d * 24 + h) * 60 + mi) * 60 + s
    if seconds > MAX_DURATION_DAYS * 86400:
        raise ValueError(f"{text!r} is longer than {MAX_DURATION_DAYS} days (ten years)")
    return seconds


def find_config(explicit: Path | None, store: Path) -> Path:
    """--config FILE, else $COMPANION_CONFIG, else companion.toml next to the store."""
    if explicit is not None:
        return explicit
    if os.environ.get("COMPANION_CONFIG"):
        return Path(os.environ["COMPANION_CONFIG"])
    return store.parent / CONFIG_NAME


def load(path: Path) -> MailConfig:
    """Read and check companion.toml; all its errors are raised together (DataErrors)."""
    import difflib

    from companion.engine.datafiles import DataFile
    from companion.engine.identity import EMAIL

    if not path.exists():
        raise CompanionError(f"no mail configuration at {path}",
                             hint="write one (docs/mail.md has a complete example), or give "
                                  "--config FILE")
    data = DataFile.load(path)

    def error(message: str, needle: str, *, hint: str | None = None) -> None:
        """An error at the line of ``needle`` in the table the message names ([smtp]: ...)."""
        m = re.match(r"\[(\w+)\]", message)
        line, col = locate_in(data.text, m.group(1) if m else None, needle)
        if line is None:
            data.error(message, needle, hint=hint)
        else:
            data.errors.append(DataError(message, path=data.path, line=line, column=col,
                                         hint=hint))
    base = path.parent
    top = data.data
    for key in top:       # other tables ([web], ...) belong to other parts of companion
        close = difflib.get_close_matches(key, list(SECTIONS), n=1, cutoff=0.75)
        if key not in SECTIONS and close:
            error(f"unknown table '{key}'", key,
                  hint=f"did you mean '{close[0]}'?")
    for section, keys in SECTIONS.items():
        table = top.get(section)
        if table is None:
            continue
        if not isinstance(table, dict):
            error(f"'{section}' must be a table ([{section}])", section)
            continue
        for key in table:
            if key not in keys:
                close = difflib.get_close_matches(key, keys, n=1)
                error(f"[{section}]: unknown key '{key}'", key,
                      hint=f"did you mean '{close[0]}'?" if close else
                      f"known keys: {', '.join(keys)}")

    def table(name: str) -> dict:
        value = top.get(name)
        return value if isinstance(value, dict) else {}

    def text(t: dict, key: str, where: str, *, required: bool = False) -> str | None:
        if key not in t:
            if required:
                error(f"[{where}]: missing key '{key}'", f"[{where}]")
            return None
        value = t[key]
        if not isinstance(value, str) or not value.strip():
            error(f"[{where}]: '{key}' must be a non-empty string", key)
            return None
        return value.strip()

    def number(t: dict, key: str, where: str, default, *, low=1, high=10**9):
        if key not in t:
            return default
        value = t[key]
        if isinstance(value, bool) or not isinstance(value, (int, float)) or \
                not low <= value <= high:
            error(f"[{where}]: '{key}' must be a number from {low} to {high}", key)
            return default
        return value

    def email(t: dict, key: str, where: str, *, required: bool = False) -> str | None:
        value = text(t, key, where, required=required)
        if value is not None and not EMAIL.fullmatch(value):
            error(f"[{where}]: '{key}' = {value!r} is not an email address", key,
                  hint="write it as name@example.org")
            return None
        return value

    def path_of(t: dict, key: str, where: str) -> Path | None:
        value = text(t, key, where)
        if value is None:
            return None
        p = Path(value).expanduser()
        return p if p.is_absolute() else base / p

    def duration(t: dict, key: str, where: str) -> int | None:
        if key not in t:
            return None
        try:
            return parse_duration(t[key])
        except ValueError as exc:
            error(f"[{where}]: '{key}': {exc}", key)
            return None

    def secret_source(t: dict, where: str, env_key: str, file_key: str, what: str):
        env, file = text(t, env_key, where), path_of(t, file_key, where)
        if env and file:
            error(f"[{where}]: give either '{env_key}' or '{file_key}' for {what}, not both",
                  file_key)
        if env is not None and not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", env):
            error(f"[{where}]: '{env_key}' must name an environment variable, e.g. "
                  "COMPANION_SMTP_PASSWORD (the password itself never goes in this file)",
                  env_key)
        return env, file

    def server(t: dict, where: str, default_ports: dict[str, int]) -> Server | None:
        host = text(t, "host", where, required=True)
        tls = text(t, "tls", where) or "tls"
        if tls not in TLS_MODES:
            error(f"[{where}]: 'tls' must be one of {', '.join(TLS_MODES)}, not {tls!r}",
                  "tls")
            tls = "tls"
        if tls == "none" and host is not None and host not in LOOPBACK:
            error(f"[{where}]: tls = \"none\" sends the password and the players' orders "
                  f"in the clear; it is allowed only for a server on this machine "
                  f"({', '.join(LOOPBACK)}), not {host!r}", "tls",
                  hint="use tls = \"tls\" (port 993/465) or \"starttls\" (port 143/587)")
        port = number(t, "port", where, default_ports[tls], high=65535)
        user = text(t, "user", where)
        env, file = secret_source(t, where, "password_env", "password_file", "the password")
        if user and not (env or file):
            error(f"[{where}]: 'user' is given but no password source: add "
                  "'password_env' (an environment variable's name) or 'password_file'",
                  "user")
        timeout = number(t, "timeout", where, 30, high=3600)
        ca = path_of(t, "ca_file", where)
        if host is None:
            return None
        return Server(where, host, int(port), tls, user, env, file, float(timeout), ca)

    mail = table("mail")
    if "mail" not in top:
        error("missing table [mail] (at least: address = \"moderator@example.org\")",
              "companion.toml")
    address = email(mail, "address", "mail", required="mail" in top)
    config = MailConfig(path, address or "companion@localhost")
    config.name = text(mail, "name", "mail") or "companion"
    config.moderator = email(mail, "moderator", "mail")
    config.moderator_secret_env, config.moderator_secret_file = secret_source(
        mail, "mail", "moderator_secret_env", "moderator_secret_file", "the moderator's secret")
    if config.moderator and not (config.moderator_secret_env or config.moderator_secret_file):
        error("[mail]: 'moderator' is given without 'moderator_secret_env' or "
              "'moderator_secret_file': commands by mail need the moderator's secret "
              "(an address alone is easily forged)", "moderator")
    if "dkim" in mail:
        if not isinstance(mail["dkim"], bool):
            error("[mail]: 'dkim' must be true or false", "dkim")
        else:
            config.dkim = mail["dkim"]
    config.watch = int(number(mail, "watch", "mail", 300, high=86400))

    box = table("mailbox")
    kind = text(box, "kind", "mailbox") or "maildir"
    if kind not in ("maildir", "imap"):
        error(f"[mailbox]: 'kind' must be \"maildir\" or \"imap\", not {kind!r}", "kind")
        kind = "maildir"
    config.mailbox_kind = kind
    if kind == "maildir":
        for key in ("host", "port", "tls", "user", "password_env", "password_file", "folder"):
            if key in box:
                error(f"[mailbox]: '{key}' is for kind = \"imap\"; a Maildir needs only "
                      "'path'", key)
        config.maildir = path_of(box, "path", "mailbox") or base / "mail" / "inbox"
    else:
        if "path" in box:
            error("[mailbox]: 'path' is for kind = \"maildir\"", "path")
        config.imap = server(box, "mailbox", {"tls": 993, "starttls": 143, "none": 143})
        config.folder = text(box, "folder", "mailbox") or "INBOX"
    if "smtp" in top:
        smtp = table("smtp")
        config.smtp = server(smtp, "smtp", {"tls": 465, "starttls": 587, "none": 25})
        config.max_attempts = int(number(smtp, "max_attempts", "smtp", 10, high=1000))
    config.outbox = path_of(table("outbox"), "path", "outbox") or base / "mail" / "outbox"
    deadlines = table("deadlines")
    config.period = duration(deadlines, "period", "deadlines")
    config.remind_before = duration(deadlines, "remind_before", "deadlines")
    if config.dkim:
        import importlib.util

        if importlib.util.find_spec("dkim") is None:
            error("[mail]: dkim = true needs the package dkimpy, which is not installed",
                  "dkim", hint="pip install 'companion[dkim]', or set dkim = false")
    data.raise_if_errors()
    return config


def locate_in(text: str, section: str | None, needle: str) -> tuple[int | None, int | None]:
    """Line and column of key ``needle`` inside table ``[section]`` (or of the table's header
    when the needle is ``[section]``); (None, None) when it is not there."""
    current = None
    for number, line in enumerate(text.splitlines(), start=1):
        stripped = line.strip()
        header = re.match(r"^\[\s*([^\]]+?)\s*\]", stripped)
        if header:
            current = header.group(1)
            if needle == f"[{current}]" and current == section:
                return number, line.index("[") + 1
            continue
        if section is not None and current == section and \
                re.match(rf"^{re.escape(needle)}\s*=", stripped):
            return number, line.index(needle) + 1
    return None, None
