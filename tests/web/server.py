"""A real uvicorn server of the web view on a free loopback port, in a thread (for the browser
tests and the load benchmark)."""
from __future__ import annotations

import socket
import threading
import time
from contextlib import contextmanager
from pathlib import Path

from companion.web.config import WebConfig


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextmanager
def running(store: Path, output: Path | None, config: WebConfig, port: int | None = None):
    """Yield the base URL of a server answering on 127.0.0.1 until the block ends."""
    from companion.web.server import server

    port = port or free_port()
    srv = server(Path(store), output, config, None, host="127.0.0.1", port=port)
    thread = threading.Thread(target=srv.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not srv.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("the web server did not start")
        time.sleep(0.02)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        srv.should_exit = True
        thread.join(10)
