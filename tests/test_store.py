"""The SQLite store: creation, errors for missing or foreign files, atomic turns, export/import."""
from __future__ import annotations

import json
import sqlite3

import pytest

from companion import service
from companion.errors import StoreError
from companion.store import Store, pack, unpack


def make_game(path, game_id="g1"):
    store = Store(path, create=True)
    service.new_game(store, "gral", game_id, ["Anna", "Bert"], seed="7",
                     option_args=["first=Anna"])
    return store


def test_missing_store_is_an_error_unless_creating(tmp_path):
    with pytest.raises(StoreError, match="no store at"):
        Store(tmp_path / "nothing.sqlite3")
    assert not (tmp_path / "nothing.sqlite3").exists()


def test_corrupt_and_foreign_files_are_refused(tmp_path):
    junk = tmp_path / "junk.sqlite3"
    junk.write_bytes(b"this is not a database at all" * 100)
    with pytest.raises(StoreError, match="is not a companion store"):
        Store(junk)
    foreign = tmp_path / "foreign.sqlite3"
    db = sqlite3.connect(foreign)
    db.execute("CREATE TABLE something (x)")
    db.commit()
    db.close()
    with pytest.raises(StoreError, match="not a companion store"):
        Store(foreign)


def test_game_lookup_suggests(tmp_path):
    store = make_game(tmp_path / "s.sqlite3")
    with pytest.raises(StoreError) as info:
        store.game("g2")
    assert "did you mean 'g1'" in info.value.hint
    with pytest.raises(StoreError, match="already exists"):
        service.new_game(store, "gral", "g1", ["A", "B"], seed="1")


def test_turn_commit_is_atomic(tmp_path):
    store = make_game(tmp_path / "s.sqlite3")
    before = store.turn("g1")

    def crash():
        raise RuntimeError("killed in the middle of the transaction")

    service.submit_orders(store, "g1", "Anna", "assign 5 to Alberto", "a.txt")
    with pytest.raises(RuntimeError):
        service.run_turn(store, "g1", crash_hook=crash)
    assert store.turn("g1").number == 0 and store.turn("g1").hash == before.hash
    assert "Anna" in store.pending("g1")
    outcome = service.run_turn(store, "g1")
    assert outcome.turn == 1 and store.pending("g1") == {}


def test_resubmission_replaces_but_keeps_history(tmp_path):
    store = make_game(tmp_path / "s.sqlite3")
    service.submit_orders(store, "g1", "Anna", "assign 5 to Alberto", "a.txt")
    result = service.submit_orders(store, "g1", "anna", "assign 6 to Alberto", "a.txt")
    assert result.replaced
    subs = store.submissions("g1")
    assert [s.status for s in subs] == ["replaced", "pending"]
    service.run_turn(store, "g1")
    assert [s.status for s in store.submissions("g1")] == ["replaced", "used"]
    assert store.turn("g1").inputs["submissions"][0]["text"] == "assign 6 to Alberto"


def test_hash_chain(tmp_path):
    store = make_game(tmp_path / "s.sqlite3")
    service.run_turn(store, "g1")
    t0, t1 = store.turns("g1")
    assert t1.prev_hash == t0.hash and t0.prev_hash == "0" * 64
    assert len(t1.hash) == 64 and t1.hash != t0.hash


def test_export_import_round_trip(tmp_path):
    store = make_game(tmp_path / "a.sqlite3")
    service.submit_orders(store, "g1", "Anna", "assign 5 to Alberto\nobject any up to 3", "a.txt")
    service.run_turn(store, "g1")
    service.submit_orders(store, "g1", "Bert", "pass", "b.txt")
    data = store.export_game("g1")
    other = Store(tmp_path / "b.sqlite3", create=True)
    assert other.import_game(json.loads(json.dumps(data))) == "g1"
    assert other.export_game("g1") == data
    assert service.replay(other, "g1").ok
    assert other.import_game(data, new_id="copy") == "copy"
    with pytest.raises(StoreError, match="already exists"):
        other.import_game(data)


def test_import_refuses_tampered_exports(tmp_path):
    store = make_game(tmp_path / "a.sqlite3")
    service.run_turn(store, "g1")
    data = store.export_game("g1")
    data["turns"][1]["state"]["sheets"]["Anna"]["units"]["A10"] = "alberto-castellano"
    other = Store(tmp_path / "b.sqlite3", create=True)
    with pytest.raises(StoreError, match="does not match its hash"):
        other.import_game(data)
    assert other.game_ids() == []
    with pytest.raises(StoreError, match="not a companion game export"):
        other.import_game({"hello": 1})


def test_replay_detects_a_changed_record(tmp_path):
    path = tmp_path / "a.sqlite3"
    store = make_game(path)
    service.submit_orders(store, "g1", "Anna", "assign 5 to Alberto", "a.txt")
    service.run_turn(store, "g1")
    assert service.replay(store, "g1").ok
    db = sqlite3.connect(path)
    row = db.execute("SELECT inputs FROM turns WHERE number=1").fetchone()
    inputs = unpack(row[0])
    inputs["submissions"][0]["text"] = "assign 6 to Alberto"
    db.execute("UPDATE turns SET inputs=? WHERE number=1", (pack(inputs),))
    db.commit()
    db.close()
    result = service.replay(Store(path), "g1")
    assert not result.ok and result.first_bad == 1


def test_an_address_with_an_invisible_character_is_refused_when_given_but_a_stored_one_opens(
        tmp_path):
    """A pasted address may carry a zero-width space or a control character, to which no mail
    can be sent: a new game or a changed address refuses it, saying which character; a game
    already stored with one (by an earlier release) still opens."""
    from companion.errors import CompanionError

    store = make_game(tmp_path / "s.sqlite3")
    with pytest.raises(CompanionError, match="U\\+200B"):
        service.new_game(store, "gral", "g2", ["Anna <an\u200bna@example.org>", "Bert"],
                         seed="7")
    with pytest.raises(CompanionError, match="U\\+0007"):
        service.change_address(store, "g1", "Bert", "be\art@example.org")
    assert store.game("g1").player("Bert").email is None
    with store.transaction() as db:          # as an earlier release could have stored it
        store.change_email(db, "g1", store.game("g1").player("Bert"), "be\u200brt@example.org",
                           "2026-01-01T00:00:00Z", "test")
    assert store.game("g1").player("Bert").email == "be\u200brt@example.org"
    assert "g2" not in store.game_ids()
