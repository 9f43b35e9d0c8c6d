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
    (b"referrer-policy", b"no-referrer"),
    (b"x-content-type-options", b"nosniff"),
    (b"cross-origin-opener-policy", b"same-origin"),
    (b"cross-origin-resource-policy", b"same-origin"),
    (b"permissions-policy", b"camera=(), microphone=(), geolocation=()"),
]
NO_STORE = (b"cache-control", b"no-store")

ACCESS = logging.getLogger("companion.web.access")

# a player's view in a path: 'slug.token' -> 'slug.***' wherever it stands (a proxy's prefix
# may come first); the query, which holds the hash, is never logged
_VIEW = re.compile(r"(/\d+/)([^/.]*)\.[^/]*")


def redact(path: str) -> str:
    """A request path as the access log writes it: the token of a view replaced by ``***``."""
    return _VIEW.sub(lambda m: f"{m.group(1)}{m.group(2)}.***", path)


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
    """A browser's own word that a form post comes from a page of this site: ``Sec-Fetch-Site``
    when the browser sends it, else ``Origin`` when it names one (with ``Referrer-Policy:
    no-referrer`` browsers send ``Origin: null`` for the site's own forms, so ``null`` decides
    nothing). The form token is checked in every case; this is a second lock."""
    site = headers.get("sec-fetch-site")
    if site is not None:
        return site in ("same-origin", "none")
    origin = headers.get("origin")
    if origin is not None and origin != "null":
        host = headers.get("host", "")
        return origin in (f"{scheme}://{host}", f"http://{host}", f"https://{host}")
    return True
