"""The web server's configuration: the ``[web]`` table of ``companion.toml`` next to the store.

    [web]
    moderator_password_hash = "scrypt$16384$8$1$<salt>$<hash>"   # companion web hash-password
    max_failures = 20          # failed link or login attempts per client ...
    failure_window = 600       # ... in this many seconds, then 429 until the window passes
    secure_cookies = false     # true behind a TLS proxy that does not say so itself

Self-contained on purpose (the mail configuration may read the same file its own way).
The password is stored as a salted scrypt hash (standard library), never in clear.
"""
from __future__ import annotations

import base64
import hashlib
import hmac
import secrets
from dataclasses import dataclass
from pathlib import Path

from companion.errors import CompanionError, DataError

FILE_NAME = "companion.toml"
SCRYPT_N, SCRYPT_R, SCRYPT_P = 2 ** 14, 8, 1
MIN_PASSWORD = 10


@dataclass
class WebConfig:
    moderator_password_hash: str | None = None
    max_failures: int = 20
    failure_window: float = 600.0
    secure_cookies: bool = False
    source: Path | None = None


def config_path(store_path: Path) -> Path:
    """``companion.toml`` in the store's folder."""
    return Path(store_path).resolve().parent / FILE_NAME


def read_config(path: Path | None) -> WebConfig:
    """The ``[web]`` table of ``path`` (a missing file: the defaults, no moderator page)."""
    if path is None or not Path(path).exists():
        return WebConfig()
    from companion.engine.datafiles import load_toml

    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise CompanionError(f"cannot read {path}: {exc}") from None
    try:
        data = load_toml(text, str(path))   # a syntax error at its file, line and column
    except DataError as exc:
        if "Cannot declare" in exc.message and not exc.hint:
            exc.hint = ("a table appears once in a file: keep one [web] line (to change the "
                        "moderator's password, replace the old moderator_password_hash line "
                        "instead of adding the output of 'companion web hash-password' again)"
                        if "'web'" in exc.message else "a table appears once in a file: merge "
                        "the two")
        raise
    web = data.get("web", {})
    if not isinstance(web, dict):
        raise CompanionError(f"{path}: [web] must be a table")
    config = WebConfig(source=Path(path))
    known = {"moderator_password_hash": str, "max_failures": int, "failure_window": (int, float),
             "secure_cookies": bool}
    for key, value in web.items():
        if key not in known:
            raise CompanionError(f"{path}: unknown key '{key}' in [web]",
                                 hint="known keys: " + ", ".join(sorted(known)))
        if not isinstance(value, known[key]) or isinstance(value, bool) != (key ==
                                                                            "secure_cookies"):
            raise CompanionError(f"{path}: [web] {key} has the wrong type")
        setattr(config, key, value)
    if config.moderator_password_hash is not None:
        parse_hash(config.moderator_password_hash, str(path))
    if config.max_failures < 1 or config.failure_window <= 0:
        raise CompanionError(f"{path}: [web] max_failures and failure_window must be positive")
    return config


def hash_password(password: str) -> str:
    """``scrypt$N$r$p$salt$hash`` (base64) of a password, with a new random salt."""
    if len(password) < MIN_PASSWORD:
        raise CompanionError(f"the password is too short: use at least {MIN_PASSWORD} "
                             "characters")
    salt = secrets.token_bytes(16)
    digest = hashlib.scrypt(password.encode("utf-8"), salt=salt, n=SCRYPT_N, r=SCRYPT_R,
                            p=SCRYPT_P, dklen=32)
    b64 = lambda b: base64.b64encode(b).decode("ascii")  # noqa: E731
    return f"scrypt${SCRYPT_N}${SCRYPT_R}${SCRYPT_P}${b64(salt)}${b64(digest)}"


def parse_hash(stored: str, where: str = "the password hash") -> tuple[int, int, int, bytes,
                                                                       bytes]:
    parts = stored.split("$")
    try:
        if len(parts) != 6 or parts[0] != "scrypt":
            raise ValueError
        n, r, p = int(parts[1]), int(parts[2]), int(parts[3])
        salt, digest = base64.b64decode(parts[4], validate=True), base64.b64decode(
            parts[5], validate=True)
        if n < 2 ** 10 or n > 2 ** 20 or not 1 <= r <= 32 or not 1 <= p <= 16 or len(salt) < 8 \
                or len(digest) < 16:
            raise ValueError
    except ValueError:
        raise CompanionError(f"{where}: moderator_password_hash is not a hash made by "
                             "'companion web hash-password'") from None
    return n, r, p, salt, digest


def verify_password(password: str, stored: str | None) -> bool:
    """Whether ``password`` matches the stored hash (compared in constant time)."""
    if not stored:
        return False
    n, r, p, salt, digest = parse_hash(stored)
    try:
        candidate = hashlib.scrypt(password.encode("utf-8", "replace"), salt=salt, n=n, r=r,
                                   p=p, dklen=len(digest), maxmem=256 * 1024 * 1024)
    except ValueError:
        return False
    return hmac.compare_digest(candidate, digest)
