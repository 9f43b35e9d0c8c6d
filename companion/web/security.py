"""What keeps the web view safe (docs/web.md, "Security model"): security headers on every
response, the per-client limit on failed attempts, cross-site request tokens, and the access
log that never holds a token."""
from __future__ import annotations

import hashlib
import hmac
import logging
import re
import threading
import time
from collections import deque

CSP = ("default-src 'self'; script-src 'none'; style-src 'self'; img-src 'self' data:; "
       "object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'")
HEADERS = [
    (b"content-security-policy", CSP.encode()),
    (b"x-frame-options", b"DENY"),
    (b"referrer-policy", b"same-origin"),
    (b"x-content-type-options", b"nosniff"),
    (b"cross-origin-opener-policy", b"same-origin"),
    (b"cross-origin-resource-policy", b"same-origin"),
    (b"permissions-policy", b"camera=(), microphone=(), geolocation=()"),
]
NO_STORE = (b"cache-control", b"no-store")

ACCESS = logging.getLogger("companion.web.access")

LOGGED_PATH = 160
"""The longest path the access log writes (a longer one is cut, and its length said)."""
_SAFE_FILES = frozenset({"report.pdf", "app.css"})
# a run that may be a secret: 16 or more hex digits (a token is 16 to 64), or 20 or more
# characters of the URL-safe base64 alphabet holding a digit (a session or any other key)
_SECRETISH = re.compile(r"[0-9A-Fa-f]{16,}|(?=[A-Za-z_-]*[0-9])[A-Za-z0-9_-]{20,}")


def _segment(segment: str) -> str:
    if segment in _SAFE_FILES:
        return segment
    head, dot, _ = segment.partition(".")
    masked = _SECRETISH.sub("***", head)
    return masked + ".***" if dot else masked


def redact(path: str) -> str:
    """A request path as the access log writes it, whatever its shape (a proxy's prefix, a
    segment missing or misplaced): in every segment, whatever follows a '.' (a view's
    ``slug.token``) is replaced by ``***`` but for the site's own file names, and so is any run
    that may be a token (16 or more hex digits, or a long base64-like run); control and other
    unprintable characters are escaped; a path longer than LOGGED_PATH characters is cut. The
    query, which holds the turn's hash, is never logged."""
    masked = "/".join(_segment(part) for part in path.split("/"))
    masked = "".join(c if c.isprintable() and c not in '"\\' else f"\\x{{{ord(c):x}}}"
                     for c in masked)
    if len(masked) > LOGGED_PATH:
        masked = f"{masked[:LOGGED_PATH]}...({len(path)} characters)"
    return masked


HSTS = (b"strict-transport-security", b"max-age=31536000")
"""Sent on responses served over https only (a year; no subdomains: the host may share its
domain with other services)."""


class SecurityHeaders:
    """ASGI middleware: the security headers on every response (errors and static files
    included), ``Cache-Control: no-store`` unless the response says otherwise, and one access-log
    line per request with the token redacted (uvicorn's own access log is turned off)."""

    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        status = {"code": 0}

        async def wrapped(message):
            if message["type"] == "http.response.start":
                status["code"] = message["status"]
                names = {name.lower() for name, _ in message.get("headers", [])}
                headers = [h for h in message.get("headers", [])]
                headers += [h for h in HEADERS if h[0] not in names]
                if b"cache-control" not in names:
                    headers.append(NO_STORE)
                if scope.get("scheme") == "https" and b"strict-transport-security" not in names:
                    # served over TLS (directly, or behind a proxy with --proxy-headers): the
                    # browser keeps to https for this host, so a link typed or followed as
                    # http:// never sends a token in the clear
                    headers.append(HSTS)
                message = dict(message, headers=headers)
            await send(message)

        try:
            await self.app(scope, receive, wrapped)
        finally:
            client = scope.get("client") or ("-", 0)
            ACCESS.info('%s "%s %s" %s', client[0], scope.get("method", "-"),
                        redact(scope.get("path", "")), status["code"])


class FailureLimiter:
    """Failed attempts (a wrong link, a wrong password, a bad form token) per client address in
    memory: more than ``limit`` within ``window`` seconds and the client is refused (429) until
    the oldest failure leaves the window."""

    def __init__(self, limit: int = 20, window: float = 600.0, clock=time.monotonic):
        self.limit, self.window, self.clock = limit, window, clock
        self._failures: dict[str, deque] = {}
        self._lock = threading.Lock()

    def _recent(self, client: str) -> deque:
        now = self.clock()
        queue = self._failures.setdefault(client, deque())
        while queue and queue[0] <= now - self.window:
            queue.popleft()
        return queue

    def blocked(self, client: str) -> bool:
        with self._lock:
            blocked = len(self._recent(client)) >= self.limit
            if not self._failures.get(client):
                self._failures.pop(client, None)
            return blocked

    def retry_after(self, client: str) -> int:
        """Whole seconds until a blocked client is answered again (the oldest failure leaves
        the window); at least 1."""
        import math

        with self._lock:
            queue = self._recent(client)
            if len(queue) < self.limit:
                return 1
            return max(1, math.ceil(queue[len(queue) - self.limit] + self.window - self.clock()))

    def reserve(self, client: str) -> float | None:
        """Count an attempt as failed before it is decided (a password being checked): a
        burst of attempts sent at once then cannot all pass :meth:`blocked` before the first
        of them is counted. None (nothing counted) when the client is blocked already; else
        the mark to give :meth:`forgive` if the attempt succeeds."""
        with self._lock:
            queue = self._recent(client)
            if len(queue) >= self.limit:
                return None
            mark = self.clock()
            queue.append(mark)
            return mark

    def forgive(self, client: str, mark: float) -> None:
        """Take back an attempt counted by :meth:`reserve` that succeeded."""
        with self._lock:
            queue = self._failures.get(client)
            if queue is not None and mark in queue:
                queue.remove(mark)

    def fail(self, client: str) -> None:
        with self._lock:
            self._recent(client).append(self.clock())
            if len(self._failures) > 100_000:       # bounded memory under a flood
                for key in list(self._failures)[:50_000]:
                    del self._failures[key]


def form_token(key: bytes, *parts: str) -> str:
    """A cross-site request token bound to ``parts`` (a player's capability, a moderator's
    session): an HMAC under the server's key, which a foreign page cannot compute."""
    message = "\x1f".join(parts).encode("utf-8")
    return hmac.new(key, message, hashlib.sha256).hexdigest()[:40]


def same_origin(headers, scheme: str) -> bool:
    """A browser's own word that a form post comes from a page of this site: ``Origin`` when it
    is sent must name this site (``Origin: null``, sent by sandboxed frames, ``data:`` pages and
    pages with ``Referrer-Policy: no-referrer``, is refused: this site's pages say
    ``same-origin``, under which a browser names the site's origin on its own forms), and
    ``Sec-Fetch-Site`` when the browser sends it must say the post comes from this site. The
    form token is checked in every case; this is a second lock."""
    origin = headers.get("origin")
    if origin is not None:
        host = headers.get("host", "")
        if origin not in (f"{scheme}://{host}", f"http://{host}", f"https://{host}"):
            return False
    site = headers.get("sec-fetch-site")
    return site is None or site in ("same-origin", "none")
