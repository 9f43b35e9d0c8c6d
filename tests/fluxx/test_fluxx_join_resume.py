"""A player who joins in a turn that then pauses (his own hand over the limit, with
others=wait) is seated again when the turn resumes (rules edition 5).

Found by a helper's random play (6 players; missing=wait, others=wait, social=judge, three
waiting to join; seed 650024): the paused turn had seated Fritz, but its resumption ran again
from the turn's snapshot without him as a joiner, made fewer events than before and stopped
with "resuming a paused turn produced fewer events than before", so no later turn could run.
The orders of that game are replayed here as they were sent (join_resume.json)."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from companion import service
from companion.errors import CompanionError
from companion.registry import get_kind
from companion.store import Store

GAME = json.loads((Path(__file__).with_name("join_resume.json")).read_text(encoding="utf-8"))


def replayed(tmp_path) -> Store:
    store = Store(tmp_path / "s.sqlite3", create=True)
    service.new_game(store, "fluxx", "g", GAME["players"], seed=GAME["seed"],
                     option_args=GAME["options"])
    for submissions in GAME["turns"]:
        for player, text in submissions:
            service.submit_orders(store, "g", player, text, "orders.txt")
        try:
            service.run_turn(store, "g")
        except CompanionError as error:         # missing=wait: nothing to run yet
            assert "waits for orders from" in str(error)
    return store


def test_a_joiner_asked_in_a_paused_turn_is_seated_when_it_resumes(tmp_path, fixed_date):
    store = replayed(tmp_path)
    turns = store.turns("g")
    paused = [t for t in turns if t.state.get("pending")
              and t.state["pending"]["question"]["player"] == "Fritz"]
    assert paused, "the game no longer reaches the paused turn"
    resumed = turns[-1]
    assert resumed.number == paused[-1].number + 1 and not resumed.state.get("pending")
    g = resumed.state["game"]
    assert "Fritz" in g["seated"] and "Fritz" not in g["waiting"]
    assert service.replay(store, "g").ok


def test_a_game_of_edition_4_stops_there_as_before_and_stores_nothing(tmp_path, fixed_date,
                                                                     monkeypatch):
    """Games begun under rules edition 4 keep their readings: the resumed turn stops as it
    did, and nothing of it is stored (the moderator may rewind the paused turn)."""
    monkeypatch.setattr(get_kind("fluxx"), "edition", 4)
    with pytest.raises(RuntimeError, match="fewer events than before"):
        replayed(tmp_path)
    store = Store(tmp_path / "s.sqlite3")
    last = store.turn("g")
    assert last.state["edition"] == 4 and last.state["pending"]["question"]["player"] == "Fritz"
    assert service.replay(store, "g").ok
