"""``companion serve`` itself: the console script starts uvicorn, prints the base URL to give
to the games, answers a player's link, and logs no token."""
from __future__ import annotations

import subprocess
import time
import urllib.error
import urllib.request

from tests.web.server import free_port


def test_serve_answers_links_and_logs_no_token(cli):
    cli.ok("new", "gral", "g1", "--player", "Anna", "--player", "Bert", "--seed", "1")
    port = free_port()
    cli.ok("game", "set", "g1", "base-url", f"http://127.0.0.1:{port}")
    link = cli.ok("token", "g1", "Anna").out.split("new link: ")[1].split()[0]
    token = link.split("anna.")[1].split("?")[0]
    proc = subprocess.Popen([cli.script, "serve", "--port", str(port)], cwd=cli.root,
                            env=cli.env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True)
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                with urllib.request.urlopen(link, timeout=5) as answer:
                    page = answer.read().decode()
                    headers = {k.lower(): v for k, v in answer.headers.items()}
                break
            except (urllib.error.URLError, ConnectionError):
                assert proc.poll() is None and time.monotonic() < deadline, proc.stderr.read()
                time.sleep(0.1)
        assert "Anna" in page and headers["x-frame-options"] == "DENY"
        try:
            urllib.request.urlopen(link.replace(token, token[::-1]), timeout=5)
            raise AssertionError("a wrong token was answered")
        except urllib.error.HTTPError as exc:
            assert exc.code == 404
    finally:
        proc.terminate()
        out, err = proc.communicate(timeout=30)
    assert f"http://127.0.0.1:{port}" in err and "--base-url" in err
    assert "GET /g1/0/anna.***" in err
    assert token not in out + err and token[::-1] not in out + err


def test_serve_refuses_a_broken_configuration(cli):
    cli.ok("new", "gral", "g1", "--player", "Anna", "--player", "Bert", "--seed", "1")
    (cli.root / "companion.toml").write_text('[web]\nmoderator_password_hash = "plain"\n',
                                             encoding="utf-8")
    result = cli("serve", "--port", "1")
    assert result.code == 1 and "companion web hash-password" in result.err
    assert "Traceback" not in result.err


def test_serve_says_when_it_cannot_listen(cli):
    """A port already taken (a second 'companion serve'), no port at all, a host that is not
    this machine's: one line saying so, with the option to change, before any 'answering at'
    (uvicorn announced the address and then stopped with its own log line, exit status 3)."""
    import socket

    cli.ok("new", "gral", "g1", "--player", "Anna", "--player", "Bert", "--seed", "1")
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = cli("serve", "--port", str(port))
    assert result.code == 1, result.text
    assert f"port {port} on 127.0.0.1 is already in use" in result.err
    assert "companion serve --port" in result.err
    assert "answering at" not in result.err and "uvicorn" not in result.err
    result = cli("serve", "--port", "70000")
    assert result.code == 1 and "--port 70000 is not a port" in result.err
    result = cli("serve", "--host", "no-such-host.invalid", "--port", str(free_port()))
    assert result.code == 1 and "is not an address of this machine" in result.err
    assert "--host 127.0.0.1" in result.err
