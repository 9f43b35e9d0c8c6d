"""Shared pieces of the web view's tests: a played game in a store, a TestClient of the app,
the paths of every viewer's link."""
from __future__ import annotations

import os
from pathlib import Path

import pytest

from companion import service
from companion.store import Store
from companion.web.config import WebConfig, hash_password

EPOCH, ENTROPY = "1798761600", "tests"   # as tests/conftest.py
PASSWORD = "correct horse battery"
ROOT = Path(__file__).resolve().parents[2]


def artifacts() -> Path | None:
    """Where the browser tests keep their screenshots: FOLDER/web/ when COMPANION_TEST_ARTIFACTS
    names a folder (``test-artifacts/`` in the checkout is ignored by git), else None: a
    screenshot is for a human looking at the pages, not a check, and a full-page one of a long
    report costs a loaded machine seconds."""
    where = os.environ.get("COMPANION_TEST_ARTIFACTS")
    if not where:
        return None
    folder = Path(where) / "web"
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def shot(page, name: str, **options) -> None:
    """A screenshot of ``page`` as ``name`` in :func:`artifacts`, when it is asked for."""
    folder = artifacts()
    if folder is not None:      # a full page of a long report takes its time on a busy machine
        page.screenshot(path=str(folder / name), timeout=120_000, **options)


def path_of(link: str) -> str:
    """The path and query of a report link (``companion:/g/1/anna.TOKEN?h=...`` or
    ``http://host/g/...``): what a browser asks the server for."""
    if link.startswith("companion://"):
        return link[len("companion:/"):]
    from urllib.parse import urlsplit

    parts = urlsplit(link)
    return parts.path + "?" + parts.query


def links(store: Store, game_id: str, number: int | None = None) -> dict[str, str]:
    """viewer -> path of that viewer's link to the turn (default: the latest)."""
    game = store.game(game_id)
    turn = store.turn(game_id, number)
    return {v: path_of(service.link(game, turn.number, v, turn.hash))
            for v in service.viewers(game)}


@pytest.fixture(scope="session")
def password_hash() -> str:
    return hash_password(PASSWORD)


@pytest.fixture
def make_client(password_hash):
    """``make_client(store_path, output=None, **config)``: a TestClient of the application."""
    from starlette.testclient import TestClient

    from companion.web.app import create_app

    clients = []

    def make(store_path, output=None, **config):
        settings = WebConfig(moderator_password_hash=password_hash, **config)
        client = TestClient(create_app(Path(store_path), output, settings),
                            follow_redirects=False)
        clients.append(client)
        return client

    yield make
    for client in clients:
        client.close()


@pytest.fixture
def gral_store(tmp_path, monkeypatch):
    """A new Gral game 'g' (Anna, Bert, Cora; seed 5) with reports in tmp_path/out."""
    monkeypatch.setenv("SOURCE_DATE_EPOCH", EPOCH)
    store = Store(tmp_path / "s.sqlite3", create=True)
    service.new_game(store, "gral", "g", ["Anna", "Bert", "Cora"], seed="5",
                     output=tmp_path / "out")
    yield store
    store.close()


def login(client) -> None:
    """Sign the client in as the moderator."""
    import re

    page = client.get("/moderator")
    csrf = re.search(r'name="csrf" value="([^"]+)"', page.text).group(1)
    answer = client.post("/moderator/login", data={"csrf": csrf, "password": PASSWORD})
    assert answer.status_code == 303, answer.text


def csrf_of(html: str) -> str:
    import re

    return re.search(r'name="csrf" value="([^"]+)"', html).group(1)
