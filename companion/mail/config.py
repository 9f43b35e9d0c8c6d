"""companion.toml: where mail comes from, how it leaves, who the moderator is, and the default
deadlines. Validated completely; every error names the file, line and column (as the game data
files do: :class:`companion.engine.datafiles.DataFile`). Secrets (passwords, the moderator's
secret) are never in the file: it names an environment variable or a file holding them.
``inspect`` (``companion mail check``) also checks what the file points to, all at once."""
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


def first_line(path: Path) -> str:
    """The first line of a secret file, without its line end (OSError when it cannot be
    read; UnicodeDecodeError is one)."""
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError as exc:
        raise OSError(0, f"not UTF-8 text ({exc.reason})") from None
    return text.split("\n", 1)[0].rstrip("\r")


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
                return first_line(self.password_file)
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
    data: object = field(default=None, repr=False, compare=False)   # the file as read

    @property
    def domain(self) -> str:
        return self.address.rpartition("@")[2]

    def moderator_secret(self) -> str | None:
        if self.moderator_secret_env:
            value = os.environ.get(self.moderator_secret_env)
            return value.strip() if value and value.strip() else None
        if self.moderator_secret_file:
            try:
                value = first_line(self.moderator_secret_file).strip()
            except OSError as exc:
                raise CompanionError(f"cannot read the moderator's secret file "
                                     f"{self.moderator_secret_file}: {exc.strerror}") from None
            return value or None
        return None


EXAMPLES = {"address": "judge@example.org", "host": "mail.example.org",
            "user": "judge@example.org", "name": "The Judge", "folder": "INBOX",
            "moderator": "me@example.org", "path": "mail/inbox"}
"""What a suggestion shows for a key left out or written wrong."""


class ConfigWarning(DataError):
    """Something in or around companion.toml that works but should be fixed (a secret file
    others may read): said, never refused."""

    def render(self) -> str:
        return super().render().replace(": error: ", ": warning: ", 1)


def located(data, message: str, needle: str, *, hint: str | None = None,
            kind: type = DataError) -> DataError:
    """An error (or warning) at the line of ``needle`` in the table the message names
    ([smtp]: ...), else at the first line holding it."""
    m = re.match(r"\[(\w+)\]", message)
    line, col = locate_in(data.text, m.group(1) if m else None, needle)
    if line is None:
        line, col = data.locate(needle)
    return kind(message, path=data.path, line=line, column=col, hint=hint)


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
    config, data = read(path)
    data.raise_if_errors()
    return config


def read(path: Path):
    """(the configuration, the DataFile with every error of the file in ``errors``, none
    raised): what :func:`load` raises and :func:`inspect` reports. A file that is missing or
    no TOML at all raises (nothing else can be read from it)."""
    import difflib

    from companion.engine.datafiles import DataFile
    from companion.engine.identity import EMAIL

    if not path.exists():
        raise CompanionError(f"no mail configuration at {path}",
                             hint="write one (docs/mail.md has a complete example), or give "
                                  "--config FILE")
    try:
        data = DataFile.load(path)
    except DataError as exc:
        if "Cannot declare" in exc.message and not exc.hint:    # a table written twice
            exc.hint = ("a table appears once in a file: merge the two into one (for [web], "
                        "replace the old moderator_password_hash line instead of appending "
                        "'companion web hash-password' again)" if "'web'" in exc.message else
                        "a table appears once in a file: merge the two into one")
        raise

    def error(message: str, needle: str, *, hint: str | None = None) -> None:
        """An error at the line of ``needle`` in the table the message names ([smtp]: ...)."""
        data.errors.append(located(data, message, needle, hint=hint))
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
            error(f"'{section}' must be a table ([{section}])", section,
                  hint=f"write [{section}] on a line of its own and its keys below it")
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
                error(f"[{where}]: missing key '{key}'", f"[{where}]",
                      hint=f"add {key} = \"{EXAMPLES.get(key, '...')}\" under [{where}]")
            return None
        value = t[key]
        if not isinstance(value, str) or not value.strip():
            error(f"[{where}]: '{key}' must be a non-empty string", key,
                  hint=f"write it in double quotes: {key} = \"{EXAMPLES.get(key, '...')}\"")
            return None
        return value.strip()

    def number(t: dict, key: str, where: str, default, *, low=1, high=10**9):
        if key not in t:
            return default
        value = t[key]
        if isinstance(value, bool) or not isinstance(value, (int, float)) or \
                not low <= value <= high:
            error(f"[{where}]: '{key}' must be a number from {low} to {high}", key,
                  hint=f"write it without quotes, e.g. {key} = {default} (the default)")
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
            error(f"[{where}]: '{key}': {exc}", key,
                  hint=f"e.g. {key} = \"12h\" or \"3d\" (90s, 30m, 1d12h: from 1 second to "
                       f"{MAX_DURATION_DAYS} days)")
            return None

    def secret_source(t: dict, where: str, env_key: str, file_key: str, what: str):
        env, file = text(t, env_key, where), path_of(t, file_key, where)
        if env and file:
            error(f"[{where}]: give either '{env_key}' or '{file_key}' for {what}, not both",
                  file_key, hint="remove one of the two lines")
        if env is not None and not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", env):
            error(f"[{where}]: '{env_key}' must name an environment variable, e.g. "
                  "COMPANION_SMTP_PASSWORD (the password itself never goes in this file)",
                  env_key, hint=f"{env_key} = \"COMPANION_SECRET\" and 'export "
                                "COMPANION_SECRET=...' before running companion, or "
                                f"{file_key} = \"/path/to/a/file\" readable by you alone")
        return env, file

    def server(t: dict, where: str, default_ports: dict[str, int]) -> Server | None:
        host = text(t, "host", where, required=True)
        tls = text(t, "tls", where) or "tls"
        if tls not in TLS_MODES:
            error(f"[{where}]: 'tls' must be one of {', '.join(TLS_MODES)}, not {tls!r}",
                  "tls", hint="tls = \"tls\" (port 993/465) or \"starttls\" (port 143/587); "
                              "\"none\" only for a server on this machine")
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
                  "user", hint=f"password_file = \"/etc/companion/{where}-password\" (the "
                               "password on its first line, readable by you alone)")
        timeout = number(t, "timeout", where, 30, high=3600)
        ca = path_of(t, "ca_file", where)
        if host is None:
            return None
        return Server(where, host, int(port), tls, user, env, file, float(timeout), ca)

    mail = table("mail")
    if "mail" not in top:
        error("missing table [mail] (at least: address = \"moderator@example.org\")",
              "companion.toml", hint="add the lines [mail] and address = \"you@example.org\" "
                                     "(docs/mail.md has a complete example)")
    address = email(mail, "address", "mail", required="mail" in top)
    config = MailConfig(path, address or "companion@localhost", data=data)
    config.name = text(mail, "name", "mail") or "companion"
    config.moderator = email(mail, "moderator", "mail")
    config.moderator_secret_env, config.moderator_secret_file = secret_source(
        mail, "mail", "moderator_secret_env", "moderator_secret_file", "the moderator's secret")
    if config.moderator and not (config.moderator_secret_env or config.moderator_secret_file):
        error("[mail]: 'moderator' is given without 'moderator_secret_env' or "
              "'moderator_secret_file': commands by mail need the moderator's secret "
              "(an address alone is easily forged)", "moderator",
              hint="add moderator_secret_env = \"COMPANION_MODERATOR_SECRET\" (or "
                   "moderator_secret_file = \"...\"), or remove 'moderator'")
    if "dkim" in mail:
        if not isinstance(mail["dkim"], bool):
            error("[mail]: 'dkim' must be true or false", "dkim",
                  hint="dkim = true or dkim = false, without quotes")
        else:
            config.dkim = mail["dkim"]
    config.watch = int(number(mail, "watch", "mail", 300, high=86400))

    box = table("mailbox")
    kind = text(box, "kind", "mailbox") or "maildir"
    if kind not in ("maildir", "imap"):
        error(f"[mailbox]: 'kind' must be \"maildir\" or \"imap\", not {kind!r}", "kind",
              hint="kind = \"maildir\" (a folder on this machine) or kind = \"imap\" (a "
                   "server)")
        kind = "maildir"
    config.mailbox_kind = kind
    if kind == "maildir":
        for key in ("host", "port", "tls", "user", "password_env", "password_file", "folder"):
            if key in box:
                error(f"[mailbox]: '{key}' is for kind = \"imap\"; a Maildir needs only "
                      "'path'", key, hint="remove the line, or add kind = \"imap\"")
        config.maildir = path_of(box, "path", "mailbox") or base / "mail" / "inbox"
    else:
        if "path" in box:
            error("[mailbox]: 'path' is for kind = \"maildir\"", "path",
                  hint="remove the line (an IMAP server's folder is 'folder')")
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
    return config, data


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


# ------------------------------------------------------------------ 'companion mail check'
MODERATOR_SECRET_MIN = 12
"""A moderator's secret shorter than this is said to be easily guessed (a warning)."""

SECRET_HINT = "python3 -c 'import secrets; print(secrets.token_urlsafe(24))' makes a good one"


@dataclass
class Inspection:
    """Everything :func:`inspect` found: the configuration as far as it could be read, every
    error and every warning, in the order of the file's lines."""
    path: Path
    config: MailConfig
    errors: list[DataError]
    warnings: list[ConfigWarning]

    @property
    def sections(self) -> set[str]:
        """The tables the file has."""
        data = self.config.data
        return set(data.data) if data is not None else set()

    def broken(self, section: str) -> bool:
        """Whether an error concerns the table ``[section]`` (its server is not tried)."""
        return any(section_of(e) == section for e in self.errors)


def section_of(error: DataError) -> str | None:
    m = re.match(r"\[(\w+)\]", error.message)
    return m.group(1) if m else None


def inspect(path: Path) -> Inspection:
    """Every problem of companion.toml that can be found without a server, all at once: the
    file's own errors (as :func:`load` raises them) and then what it points to: environment
    variables that are not set, secret files that are missing, unreadable, empty or open to
    others, a ca_file that is not there, folders that cannot be written. Reads; changes
    nothing. A file that cannot be read as TOML at all raises (its one syntax error)."""
    config, data = read(path)
    found = list(data.errors) + surroundings(config, data)
    found.sort(key=lambda e: (e.line or 0, e.column or 0))
    return Inspection(path, config,
                      [e for e in found if not isinstance(e, ConfigWarning)],
                      [e for e in found if isinstance(e, ConfigWarning)])


def secret_sources(config: MailConfig) -> list[tuple[str, str, str, str, str | None,
                                                     Path | None]]:
    """(table, env key, file key, what, variable, file) of every secret the configuration
    reads: the moderator's secret, the IMAP and the SMTP password."""
    out = []
    if config.moderator:
        out.append(("mail", "moderator_secret_env", "moderator_secret_file",
                    "the moderator's secret", config.moderator_secret_env,
                    config.moderator_secret_file))
    for server, what in ((config.imap, "the IMAP password"), (config.smtp, "the SMTP password")):
        if server is not None and (server.password_env or server.password_file):
            out.append((server.role, "password_env", "password_file", what,
                        server.password_env, server.password_file))
    return out


def too_open(config: MailConfig) -> list[ConfigWarning]:
    """A warning for each secret file of the configuration that its group or other users may
    read or change (as ssh says of a private key), naming the file and the chmod that fixes it.
    A warning, not a refusal: docs/mail.md, 'Passwords'."""
    out = []
    for section, _, file_key, what, _, file in secret_sources(config):
        if file is None:
            continue
        try:
            mode = file.stat().st_mode
        except OSError:
            continue                    # said by 'mail check'; reading it says it too
        if mode & 0o077:
            out.append(open_warning(config.data, section, file_key, what, file, mode))
    return out


def open_warning(data, section: str, key: str, what: str, file: Path,
                 mode: int) -> ConfigWarning:
    import shlex
    import stat

    who = [name for name, bits in (("its group", 0o070), ("every user of this machine", 0o007))
           if mode & bits]
    can = "read" if mode & 0o044 else "change"
    message = (f"[{section}]: '{key}': permissions {stat.S_IMODE(mode):04o} for {what} file "
               f"{file} are too open: {' and '.join(who)} can {can} it (it is used all the "
               "same)")
    hint = f"chmod 600 {shlex.quote(str(file))} (readable and writable by you alone)"
    if data is None:
        return ConfigWarning(message, hint=hint)
    return located(data, message, key, hint=hint, kind=ConfigWarning)


def surroundings(config: MailConfig, data) -> list[DataError]:
    """What the configuration points to, checked without changing anything (see
    :func:`inspect`)."""
    import shlex

    found: list[DataError] = []

    def error(message: str, key: str, hint: str | None = None, *, warning: bool = False):
        section = section_of(DataError(message))
        table = data.data.get(section) if section else None
        needle = key if isinstance(table, dict) and key in table else f"[{section}]"
        found.append(located(data, message, needle, hint=hint,
                             kind=ConfigWarning if warning else DataError))

    for section, env_key, file_key, what, env, file in secret_sources(config):
        value = None
        if env:
            value = os.environ.get(env)
            if value is None or not value.strip():
                state = "is not set" if value is None else "is set but empty"
                error(f"[{section}]: '{env_key}' names the environment variable {env}, which "
                      f"{state}: {what} is read from it", env_key,
                      f"export {env}=... in the shell (or the service's EnvironmentFile=) "
                      f"that runs companion, or give {file_key} instead")
                value = None
        if file:
            value = secret_file(file, section, file_key, what, error)
        if value is not None and section == "mail":
            secret = value.strip()
            if any(ch.isspace() for ch in secret):
                error(f"[mail]: {what} holds a space: it is looked for as one word of the "
                      "subject or the first line, so it can never match", env_key if env
                      else file_key, f"use one word without spaces; {SECRET_HINT}")
            elif len(secret) < MODERATOR_SECRET_MIN:
                error(f"[mail]: {what} is only {len(secret)} characters long: whoever guesses "
                      "it can command the games from the moderator's address (a From: line is "
                      "easily forged)", env_key if env else file_key,
                      f"use at least {MODERATOR_SECRET_MIN} random characters; {SECRET_HINT}",
                      warning=True)
    for server in (config.imap, config.smtp):
        if server is not None and server.ca_file is not None:
            ca = server.ca_file
            if not ca.is_file() or not os.access(ca, os.R_OK):
                state = "does not exist" if not ca.exists() else \
                    "is not a file" if not ca.is_file() else "cannot be read"
                error(f"[{server.role}]: 'ca_file' {ca} {state}", "ca_file",
                      "give the certificate (PEM) of the authority that signed the server's "
                      "certificate, or leave ca_file out for a server with a public one")
    if config.mailbox_kind == "maildir" and config.maildir is not None:
        problem = folder_problem(config.maildir)
        if problem:
            error(f"[mailbox]: the Maildir {config.maildir} {problem}", "path",
                  "give 'path' a folder the user running companion may write, or create it "
                  f"(mkdir -p {shlex.quote(str(config.maildir))})")
    if config.smtp is None:
        problem = folder_problem(config.outbox)
        if problem:
            error(f"[outbox]: the outbox folder {config.outbox} {problem}", "path",
                  "give [outbox] 'path' a folder the user running companion may write")
    return found


def secret_file(file: Path, section: str, key: str, what: str, error) -> str | None:
    """The secret in ``file`` (None when it cannot be had: said through ``error``), and a
    warning when the file is open to others."""
    import shlex

    quoted = shlex.quote(str(file))
    try:
        mode = file.stat().st_mode
    except FileNotFoundError:
        error(f"[{section}]: '{key}': {what} file {file} does not exist", key,
              f"write {what} on its first line, then chmod 600 {quoted}")
        return None
    except OSError as exc:
        error(f"[{section}]: '{key}': {what} file {file} cannot be reached: {exc.strerror}",
              key, "the user running companion must be able to open the folders above it")
        return None
    import stat

    if not stat.S_ISREG(mode):
        error(f"[{section}]: '{key}': {what} file {file} is not a file", key,
              f"give the file holding {what} on its first line")
        return None
    if mode & 0o077:
        found_warning = open_warning(None, section, key, what, file, mode)
        error(found_warning.message, key, found_warning.hint, warning=True)
    try:
        value = first_line(file)
    except OSError as exc:
        error(f"[{section}]: '{key}': {what} file {file} cannot be read: {exc.strerror}", key,
              "run companion as the user who owns it (chmod 600 keeps it theirs alone)")
        return None
    if not value.strip():
        error(f"[{section}]: '{key}': the first line of {what} file {file} is empty", key,
              f"write {what} on its first line")
        return None
    return value


def folder_problem(folder: Path) -> str | None:
    """Why companion could not use ``folder`` (made by the first run when it is missing), or
    None; nothing is created."""
    if folder.exists():
        if not folder.is_dir():
            return "is not a folder"
        if not os.access(folder, os.R_OK | os.W_OK | os.X_OK):
            return "cannot be written by this user"
        return None
    parent = folder.parent
    while not parent.exists() and parent != parent.parent:
        parent = parent.parent
    if not parent.is_dir() or not os.access(parent, os.W_OK | os.X_OK):
        return f"does not exist and cannot be made here ({parent} cannot be written)"
    return None
