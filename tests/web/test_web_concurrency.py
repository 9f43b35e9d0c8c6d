"""Pages keep working while turns run, and no submission is lost (a bounded load on the
loopback interface against a real uvicorn server; the figures are benchmarks/web_load.py's)."""
from __future__ import annotations

import random
import re
import sqlite3
import threading

import httpx
import pytest

from companion import service
from companion.errors import CompanionError
from companion.registry import get_kind
from companion.store import Store
from companion.web.config import WebConfig
from tests.web.conftest import EPOCH, PASSWORD, links
from tests.web.server import running


def test_the_store_is_put_in_wal_mode(gral_store, make_client):
    make_client(gral_store.path)
    mode = sqlite3.connect(gral_store.path).execute("PRAGMA journal_mode").fetchone()[0]
    assert mode == "wal"


def test_pages_and_submissions_while_turns_run(tmp_path, monkeypatch, password_hash):
    monkeypatch.setenv("SOURCE_DATE_EPOCH", EPOCH)
    store = Store(tmp_path / "s.sqlite3", create=True)
    players = ["Anna", "Bert", "Cora"]
    service.new_game(store, "gral", "g", players, seed="5")
    kind = get_kind("gral")
    failures: list[str] = []
    accepted: list[tuple[str, str]] = []
    stop = threading.Event()
    config = WebConfig(moderator_password_hash=password_hash, max_failures=10_000)

    with running(store.path, None, config) as base:
        def reader(seed: int) -> None:
            rng = random.Random(seed)
            with httpx.Client(base_url=base, timeout=30) as client:
                while not stop.is_set():
                    with _open(store.path) as mine:
                        paths = links(mine, "g")
                    viewer = rng.choice(list(paths))
                    answer = client.get(paths[viewer])
                    if answer.status_code != 200:
                        failures.append(f"GET {viewer}: {answer.status_code}")

        def player(name: str, seed: int) -> None:
            rng = random.Random(seed)
            with httpx.Client(base_url=base, timeout=30) as client:
                for _ in range(6):
                    with _open(store.path) as mine:
                        path = links(mine, "g")[name].replace("?h=", "/orders?h=")
                        lines = kind.options_for(mine.turn("g").state, name)
                    form = client.get(path)
                    if form.status_code != 200:
                        failures.append(f"form {name}: {form.status_code}")
                        continue
                    found = re.search(r'name="csrf" value="([^"]+)"', form.text)
                    if found is None:       # a turn ran since the link was read: the form is closed
                        continue
                    csrf = found.group(1)
                    text = "\n".join(rng.sample(lines, k=min(2, len(lines)))) + "\n" \
                        if lines else "# nothing\n"
                    answer = client.post(path, data={"csrf": csrf, "orders": text,
                                                      "action": "submit"})
                    if answer.status_code in (200, 303):    # 303: stored, to the page
                        accepted.append((name, text))
                    elif answer.status_code not in (409, 422):
                        failures.append(f"POST {name}: {answer.status_code}")

        def moderator() -> None:
            with httpx.Client(base_url=base, timeout=60, follow_redirects=True) as client:
                page = client.get("/moderator")
                csrf = re.search(r'name="csrf" value="([^"]+)"', page.text).group(1)
                client.post("/moderator/login", data={"csrf": csrf, "password": PASSWORD})
                for _ in range(3):
                    page = client.get("/moderator/game/g")
                    csrf = re.search(r'name="csrf" value="([^"]+)"', page.text).group(1)
                    expect = re.search(r'name="expect" value="(\d+)"', page.text).group(1)
                    answer = client.post("/moderator/game/g/turn",
                                         data={"csrf": csrf, "expect": expect,
                                               "confirm": "yes"})
                    if answer.status_code not in (200, 409):
                        failures.append(f"turn: {answer.status_code}")

        def caught(function):
            def run(*args):
                try:
                    function(*args)
                except Exception as exc:  # noqa: BLE001 - a thread's failure fails the test
                    failures.append(f"{function.__name__}: {exc!r}")
            return run

        threads = [threading.Thread(target=caught(reader), args=(k,)) for k in range(3)]
        threads += [threading.Thread(target=caught(player), args=(n, k))
                    for k, n in enumerate(players)]
        for t in threads:
            t.start()
        moderator()
        for t in threads[3:]:
            t.join(120)
        stop.set()
        for t in threads[:3]:
            t.join(60)
    assert not failures, failures[:10]
    assert store.turn("g").number >= 1
    rows = store.submissions("g")
    # every accepted submission is stored, as sent: used by a turn, still pending, or replaced
    # by the same player's later one
    assert sorted((s.player, s.text) for s in rows) == sorted(accepted)
    for name in players:
        mine = [s for s in rows if s.player == name]
        assert sum(1 for s in mine if s.status == "pending") <= 1
        assert all(s.status in ("used", "pending", "replaced") for s in mine)
    store.close()


class _open:
    """A short-lived store connection (each thread its own)."""

    def __init__(self, path):
        self.store = Store(path)

    def __enter__(self) -> Store:
        return self.store

    def __exit__(self, *exc) -> None:
        self.store.close()


@pytest.mark.parametrize("still_fits", [True, False])
def test_a_turn_run_elsewhere_between_check_and_store(gral_store, make_client, monkeypatch,
                                                      still_fits):
    """Another process (``companion turn``) commits a turn after the page checked the orders
    and before they are stored: they stay pending for the next turn if they still fit, and are
    withdrawn at once (and the player told) if they do not; nothing is half-applied."""
    import companion.web.app as web_app

    client = make_client(gral_store.path)
    for name in ("Bert", "Cora"):
        service.submit_orders(gral_store, "g", name, "assign 10 to Alberto\n", "o")
    real = service.submit_orders

    def racing(store, game_id, player, text, filename):
        elsewhere = Store(gral_store.path)            # the other process's connection
        try:
            if elsewhere.turn("g").number == 0:
                service.run_turn(elsewhere, "g")      # ... wins the race
        finally:
            elsewhere.close()
        return real(store, game_id, player, text, filename)

    monkeypatch.setattr(web_app.service, "submit_orders", racing)
    if not still_fits:
        real_check = service.check_orders

        def no_longer(store, game_id, player, text, filename):
            if text != service.WITHDRAW and "Anna" in store.pending("g"):   # after storing
                raise CompanionError("no longer fits")
            return real_check(store, game_id, player, text, filename)

        monkeypatch.setattr(web_app.service, "check_orders", no_longer)
    form = links(gral_store, "g")["Anna"].replace("?h=", "/orders?h=")
    csrf = re.search(r'name="csrf" value="([^"]+)"', client.get(form).text).group(1)
    answer = client.post(form, data={"csrf": csrf, "orders": "assign 10 to Alberto\n",
                                     "action": "submit"})
    assert answer.status_code == 200 and "Turn 1 was processed" in answer.text
    assert gral_store.turn("g").number == 1
    anna = [s for s in gral_store.submissions("g") if s.player == "Anna"]
    assert ("withdrawn" in answer.text) is not still_fits
    if not still_fits:
        assert anna[-1].status == "withdrawn" and "Anna" not in gral_store.pending("g")
    else:
        assert gral_store.pending("g")["Anna"].text == "assign 10 to Alberto\n"
        service.check_orders(gral_store, "g", "Anna", anna[-1].text, "o")   # still fits
