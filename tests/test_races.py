"""Orders and turns written by different processes at once: a submission lands in the turn
being processed or waits for the next one, checked against the turn it waits for; never lost,
never half-applied (the store refuses the stale write and the work is done again)."""
from __future__ import annotations

import multiprocessing
import os

import pytest

from companion import service
from companion.engine.orders import OrdersRejected
from companion.errors import TurnMovedOn
from companion.registry import get_kind
from companion.store import Store

ORDERS = "assign 10 to Alberto\n"


@pytest.fixture
def game(tmp_path, monkeypatch):
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1767225600")
    store = Store(tmp_path / "s.sqlite3", create=True)
    service.new_game(store, "gral", "g", ["Anna", "Bert", "Cora"], seed="5")
    yield store
    store.close()


def elsewhere(store: Store) -> Store:
    """Another process's connection to the same store file."""
    return Store(store.path)


def test_orders_stored_while_the_turn_is_computed_land_in_that_turn(game, monkeypatch):
    for name in ("Bert", "Cora"):
        service.submit_orders(game, "g", name, ORDERS, "o")
    real = service.compute_turn
    calls = []

    def racing(*args, **kwargs):
        calls.append(1)
        if len(calls) == 1:           # the other process stores Anna's orders meanwhile
            other = elsewhere(game)
            try:
                service.submit_orders(other, "g", "Anna", ORDERS, "o")
            finally:
                other.close()
        return real(*args, **kwargs)

    monkeypatch.setattr(service, "compute_turn", racing)
    service.run_turn(game, "g")
    assert len(calls) == 2            # worked out again with Anna's orders
    turn = game.turn("g")
    used = {s["player"] for s in turn.inputs["submissions"] if s["used"]}
    assert used == {"Anna", "Bert", "Cora"}
    assert not game.pending("g")
    assert {s.status for s in game.submissions("g")} == {"used"}


def test_orders_replaced_while_the_turn_is_computed_the_new_ones_are_used(game, monkeypatch):
    for name in ("Anna", "Bert", "Cora"):
        service.submit_orders(game, "g", name, ORDERS, "o")
    newer = "# changed my mind\n" + ORDERS
    real = service.compute_turn
    calls = []

    def racing(*args, **kwargs):
        calls.append(1)
        if len(calls) == 1:
            other = elsewhere(game)
            try:
                service.submit_orders(other, "g", "Bert", newer, "o")
            finally:
                other.close()
        return real(*args, **kwargs)

    monkeypatch.setattr(service, "compute_turn", racing)
    service.run_turn(game, "g")
    bert = [s for s in game.submissions("g") if s.player == "Bert"]
    assert [(s.text, s.status) for s in bert] == [(ORDERS, "replaced"), (newer, "used")]
    assert any(s["text"] == newer for s in game.turn("g").inputs["submissions"])


def test_a_turn_that_keeps_being_overtaken_gives_up_and_writes_nothing(game, monkeypatch):
    for name in ("Bert", "Cora"):
        service.submit_orders(game, "g", name, ORDERS, "o")
    real = service.compute_turn

    def always(*args, **kwargs):
        other = elsewhere(game)
        try:
            service.submit_orders(other, "g", "Anna", f"# {os.urandom(4).hex()}\n" + ORDERS,
                                  "o")
        finally:
            other.close()
        return real(*args, **kwargs)

    monkeypatch.setattr(service, "compute_turn", always)
    with pytest.raises(TurnMovedOn, match="arrived while turn 1"):
        service.run_turn(game, "g")
    assert game.turn("g").number == 0
    assert "Anna" in game.pending("g")


def test_a_turn_processed_between_check_and_store_the_orders_are_checked_again(game,
                                                                                monkeypatch):
    for name in ("Bert", "Cora"):
        service.submit_orders(game, "g", name, ORDERS, "o")
    real = service.check_orders
    calls = []

    def racing(store, game_id, player, text, filename):
        result = real(store, game_id, player, text, filename)
        calls.append(result.checked_turn)
        if len(calls) == 1:           # the other process runs the turn after the check
            other = elsewhere(game)
            try:
                service.run_turn(other, "g")
            finally:
                other.close()
        return result

    monkeypatch.setattr(service, "check_orders", racing)
    result = service.submit_orders(game, "g", "Anna", ORDERS, "o")
    assert calls == [0, 1]            # checked against turn 0, then again against turn 1
    mine = game.pending("g")["Anna"]
    assert mine.id == result.submission_id and mine.for_turn == 2


def test_orders_that_no_longer_fit_the_new_turn_are_refused_and_nothing_is_stored(game,
                                                                                   monkeypatch):
    for name in ("Bert", "Cora"):
        service.submit_orders(game, "g", name, ORDERS, "o")
    real = service.check_orders
    calls = []

    def racing(store, game_id, player, text, filename):
        calls.append(1)
        if len(calls) == 1:
            result = real(store, game_id, player, text, filename)
            other = elsewhere(game)
            try:
                service.run_turn(other, "g")
            finally:
                other.close()
            return result
        raise OrdersRejected([], filename)        # the new position does not allow them

    monkeypatch.setattr(service, "check_orders", racing)
    before = len(game.submissions("g"))
    with pytest.raises(OrdersRejected):
        service.submit_orders(game, "g", "Anna", ORDERS, "o")
    assert len(game.submissions("g")) == before
    assert "Anna" not in game.pending("g")


def test_the_store_refuses_orders_checked_against_an_older_turn(game):
    with pytest.raises(TurnMovedOn, match="nothing was stored"):
        game.submit("g", "Anna", 1, ORDERS, "2026-01-01T00:00:00Z", expect_latest=3)
    assert game.submissions("g") == []


def _submitter(path: str, rounds: int, queue) -> None:
    """Another process: sends every player's legal orders again and again."""
    store = Store(path)
    kind = get_kind("gral")
    sent = []
    try:
        for k in range(rounds):
            name = ("Anna", "Bert", "Cora")[k % 3]
            state = store.turn("g").state
            lines = kind.options_for(state, name)
            text = (f"# round {k}\n" + "\n".join(lines[:1]) + "\n") if lines else "# none\n"
            try:
                service.submit_orders(store, "g", name, text, "o")
                sent.append((name, text))
            except service.CompanionError:
                pass                  # refused against the newest turn: nothing stored
    finally:
        store.close()
    queue.put(sent)


def test_two_processes_submitting_and_running_turns_lose_nothing(game):
    """A real second process submits orders while this one runs turns: every stored submission
    is used by a turn, replaced by the same player's later one, or still pending; the game
    replays from its record."""
    context = multiprocessing.get_context("fork")
    queue = context.Queue()
    worker = context.Process(target=_submitter, args=(str(game.path), 60, queue))
    worker.start()
    turns = 0
    while worker.is_alive() and turns < 8:
        try:
            service.run_turn(game, "g")
            turns += 1
        except service.CompanionError:
            pass                      # nothing to adjudicate yet, or overtaken five times
    sent = queue.get(timeout=120)
    worker.join(60)
    rows = game.submissions("g")
    assert sorted((s.player, s.text) for s in rows) == sorted(sent)
    for name in ("Anna", "Bert", "Cora"):
        assert sum(1 for s in rows if s.player == name and s.status == "pending") <= 1
    assert all(s.status in ("used", "pending", "replaced") for s in rows)
    for turn in game.turns("g")[1:]:
        for sub in turn.inputs["submissions"]:
            if sub["used"]:                   # orders were used in the turn they waited for
                assert sub["for_turn"] == turn.number
    assert turns >= 1, "no turn ran while the other process submitted"
    print(f"{turns} turns, {len(sent)} submissions from the other process")
    result = service.replay(game, "g")
    assert result.ok, result.message
