"""``companion serve``: the web application under uvicorn.

uvicorn's own access log is off (it would write each path, and a player's path holds their
token); :class:`companion.web.security.SecurityHeaders` writes one line per request instead,
with the token replaced by ``***`` and without the query (which holds the turn's hash).
"""
from __future__ import annotations

import logging
import sys
from pathlib import Path

from companion.web.config import WebConfig


def log_config() -> dict:
    """Logging for the server: uvicorn's errors and companion's redacted access lines on
    standard error."""
    return {
        "version": 1, "disable_existing_loggers": False,
        "formatters": {"plain": {"format": "%(asctime)s %(levelname)s %(name)s: %(message)s"}},
        "handlers": {"err": {"class": "logging.StreamHandler", "formatter": "plain",
                             "stream": "ext://sys.stderr"}},
        "loggers": {
            "uvicorn": {"handlers": ["err"], "level": "INFO", "propagate": False},
            "uvicorn.error": {"handlers": ["err"], "level": "INFO", "propagate": False},
            "uvicorn.access": {"handlers": [], "level": "CRITICAL", "propagate": False},
            "companion.web.access": {"handlers": ["err"], "level": "INFO",
                                     "propagate": False},
        },
    }


def server(store: Path, output: Path | None, config: WebConfig, config_file: Path | None, *,
           host: str = "127.0.0.1", port: int = 8000, proxy_headers: bool = False,
           root_path: str = ""):
    """A uvicorn server for the application (``.run()`` it, or start it in a thread)."""
    import uvicorn

    from companion.web.app import create_app

    app = create_app(store, output, config, config_file)
    settings = uvicorn.Config(
        app, host=host, port=port, access_log=False, log_config=log_config(),
        proxy_headers=proxy_headers, forwarded_allow_ips="127.0.0.1,::1" if proxy_headers
        else None, server_header=False, date_header=True, root_path=root_path,
        limit_concurrency=200, timeout_keep_alive=5, h11_max_incomplete_event_size=16 * 1024)
    return uvicorn.Server(settings)


def check_port(host: str, port: int) -> None:
    """Refuse, before anything is announced, an address the server could not listen on: a
    port in use (another 'companion serve'), one the user may not open, a host that is not this
    machine's (uvicorn would print 'answering at' first and then stop with its own log line)."""
    import errno
    import socket

    from companion.errors import CompanionError

    if not 1 <= port <= 65535:
        raise CompanionError(f"--port {port} is not a port", hint="give a number from 1024 to "
                             "65535, such as --port 8000")
    try:
        family, kind, proto, _, address = socket.getaddrinfo(
            host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)[0]
    except (socket.gaierror, UnicodeError) as exc:
        raise CompanionError(f"--host {host} is not an address of this machine "
                             f"({getattr(exc, 'strerror', None) or exc})",
                             hint="--host 127.0.0.1 (the default, behind your proxy) or "
                                  "--host 0.0.0.0 (every interface)") from None
    with socket.socket(family, kind, proto) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)     # as uvicorn binds
        try:
            probe.bind(address)
        except OSError as exc:
            if exc.errno == errno.EADDRINUSE:
                raise CompanionError(f"port {port} on {host} is already in use (another "
                                     "'companion serve', or another program)",
                                     hint=f"stop that one, or give another port: companion "
                                          f"serve --port {port + 1 if port < 65535 else 8000}"
                                     ) from None
            if exc.errno == errno.EACCES:
                raise CompanionError(f"not allowed to listen on port {port} (ports below 1024 "
                                     "are for the administrator)",
                                     hint="use a port from 1024 up behind your TLS proxy "
                                          "(docs/web.md): --port 8000") from None
            if exc.errno == errno.EADDRNOTAVAIL:
                raise CompanionError(f"--host {host} is not an address of this machine",
                                     hint="--host 127.0.0.1 (the default, behind your proxy) "
                                          "or --host 0.0.0.0 (every interface)") from None
            raise CompanionError(f"cannot listen on {host}:{port}: {exc.strerror or exc}"
                                 ) from None


def announce(host: str, port: int, root_path: str = "", stream=None) -> str:
    """The base URL the server answers at (for ``companion new --base-url``)."""
    shown = f"[{host}]" if ":" in host else host
    if host in ("0.0.0.0", "::"):
        shown = "THIS-HOST"
    url = f"http://{shown}:{port}{root_path.rstrip('/')}"
    print(f"companion serve: answering at {url}", file=stream or sys.stderr)
    logging.getLogger("companion.web").info("serving %s", url)
    return url
