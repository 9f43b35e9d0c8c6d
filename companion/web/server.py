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


def announce(host: str, port: int, root_path: str = "", stream=None) -> str:
    """The base URL the server answers at (for ``companion new --base-url``)."""
    shown = f"[{host}]" if ":" in host else host
    if host in ("0.0.0.0", "::"):
        shown = "THIS-HOST"
    url = f"http://{shown}:{port}{root_path.rstrip('/')}"
    print(f"companion serve: answering at {url}", file=stream or sys.stderr)
    logging.getLogger("companion.web").info("serving %s", url)
    return url
