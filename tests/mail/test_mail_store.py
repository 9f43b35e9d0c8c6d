"""Schema 4: the tables of play by email, in a new store and in an upgraded one; schema 6: a
game's setting whether turns run before their deadline, and the players' requests to wait;
schema 7: whether a seat's new address is announced (tests/mail/test_seat_takeover.py)."""
from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path

from companion.store import SCHEMA_VERSION, Store

DATA = Path(__file__).resolve().parents[1] / "data"
MAIL_TABLES = {"mail_in", "mail_out", "mail_games", "mail_address_changes", "mail_waits"}


def tables(path) -> set[str]:
    db = sqlite3.connect(path)
    names = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    db.close()
    return names


def columns(path, table) -> list[tuple]:
    db = sqlite3.connect(path)
    found = [tuple(r[1:]) for r in db.execute(f"PRAGMA table_info({table})")]
    db.close()
    return found


def test_a_new_store_has_the_mail_tables(tmp_path):
    Store(tmp_path / "s.sqlite3", create=True).close()
    assert SCHEMA_VERSION == 7
    assert MAIL_TABLES <= tables(tmp_path / "s.sqlite3")


def test_a_store_of_schema_2_is_upgraded_through_3_to_4(tmp_path):
    """tests/data/store-v2.sqlite3 (written at schema 2) goes 2 -> ... -> 7 in one transaction;
    its mail tables are those of a new store, column for column (test_hardening.py's upgrade
    test replays its games afterwards)."""
    path = tmp_path / "old.sqlite3"
    shutil.copy(DATA / "store-v2.sqlite3", path)
    store = Store(path)
    notes = " ".join(store.notes)
    assert "upgraded from schema 2 to 3" in notes and "upgraded from schema 3 to 4" in notes
    assert "upgraded from schema 4 to 5" in notes and "upgraded from schema 5 to 6" in notes
    assert "upgraded from schema 6 to 7" in notes
    assert [g for g in store.game_ids()] == ["f1", "g1", "k1", "m1"]
    store.close()
    again = Store(path)
    assert again.notes == []                                        # once
    again.close()
    fresh = tmp_path / "fresh.sqlite3"
    Store(fresh, create=True).close()
    assert tables(path) == tables(fresh)
    for table in sorted(MAIL_TABLES | {"games", "players", "turns", "submissions",
                                       "rewound_turns"}):
        assert columns(path, table) == columns(fresh, table), table


def test_a_store_of_schema_3_is_upgraded_to_4(tmp_path):
    path = tmp_path / "s.sqlite3"
    Store(path, create=True).close()
    db = sqlite3.connect(path)
    for table in sorted(MAIL_TABLES) + ["rewound_turns"]:
        db.execute(f"DROP TABLE {table}")
    db.execute("UPDATE companion_meta SET value='3' WHERE key='schema'")
    db.commit()
    db.close()
    store = Store(path)
    assert any("schema 3 to 4" in note for note in store.notes)
    store.close()
    assert MAIL_TABLES <= tables(path)


def test_a_store_of_schema_5_is_upgraded_to_6_with_its_settings_kept(tmp_path):
    """tests/data/store-v5.sqlite3 was written by companion at schema 5 (a Gral game 'g' after
    two turns, Anna's orders pending, a deadline for turn 3 and a period of 3 days): it opens,
    upgrades in place once, replays, keeps its schedule, runs early as before, and takes waits
    (its tables column for column those of a new store)."""
    from companion import service
    from companion.mail import deadlines

    path = tmp_path / "s.sqlite3"
    shutil.copy(DATA / "store-v5.sqlite3", path)
    store = Store(path)
    assert any("upgraded from schema 5 to 6" in n for n in store.notes)
    assert service.replay(store, "g").ok
    assert [(s.player, s.status) for s in store.submissions("g")][-1] == ("Anna", "pending")
    with store.transaction() as db:
        schedule = deadlines.ensure(db, "g", 2)
        assert (deadlines.format_time(schedule.deadline), schedule.deadline_turn,
                schedule.period, schedule.early, schedule.waits) == (
            "2030-01-01 00:00 UTC", 2, 3 * 86400, True, ())
        assert deadlines.runs_early(schedule, 2)
        assert deadlines.set_wait(db, "g", 2, "Bert", True, "now", "<m@x>")
        assert deadlines.ensure(db, "g", 2).waits == ("Bert",)
    store.close()
    again = Store(path)
    assert again.notes == []
    again.close()
    fresh = tmp_path / "fresh.sqlite3"
    Store(fresh, create=True).close()
    assert tables(path) == tables(fresh)
    for table in sorted(MAIL_TABLES):
        assert columns(path, table) == columns(fresh, table), table
