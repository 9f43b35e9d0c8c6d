"""`companion rewind`: a moderator takes back turns (orders that came late, a mistake). Nothing
is lost: the turns stay in the store, the orders of the first are pending again, its reports
move aside, the game replays, and the turn runs again; bad requests change nothing. The
upgrade of a store written at schema 4 keeps everything."""
from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path

from companion.store import Store

DATA = Path(__file__).parent / "data"
ASSIGN = "assign 10 to Alberto\n"


def rows(cli, sql: str) -> list[tuple]:
    db = sqlite3.connect(cli.store)
    try:
        return db.execute(sql).fetchall()
    finally:
        db.close()


def two_turns(cli) -> str:
    """A Gral game 'g' after two turns and Anna's orders pending for the third; the hash of
    turn 2."""
    cli.ok("new", "gral", "g", "--seed", "5", "--player", "Anna", "--player", "Bert")
    for name in ("Anna", "Bert"):
        cli.ok("orders", "submit", "g", name, "-", input=ASSIGN)
    cli.ok("turn", "g")
    for name in ("Anna", "Bert"):
        line = cli.ok("options", "g", name).out.splitlines()[0]
        cli.ok("orders", "submit", "g", name, "-", input=line + "\n")
    cli.ok("turn", "g")
    cli.ok("orders", "submit", "g", "Anna", "-",
           input=cli.ok("options", "g", "Anna").out.splitlines()[0] + "\n")
    return rows(cli, "SELECT hash FROM turns WHERE number=2")[0][0]


def test_a_turn_taken_back_is_kept_its_orders_pending_and_it_runs_again(cli):
    before = two_turns(cli)
    out = cli.ok("rewind", "g", "1", "--yes", "--reason", "Bert's orders were in spam").out
    assert "turn 2 taken back; turn 1 is the latest again" in out
    assert "orders pending for turn 2: Anna, Bert" in out
    assert rows(cli, "SELECT MAX(number) FROM turns") == [(1,)]
    assert rows(cli, "SELECT number, hash, reason FROM rewound_turns") == [
        (2, before, "Bert's orders were in spam")]
    assert rows(cli, "SELECT player, for_turn, status, used_in FROM submissions ORDER BY id") == [
        ("Anna", 1, "used", 1), ("Bert", 1, "used", 1), ("Anna", 2, "pending", None),
        ("Bert", 2, "pending", None), ("Anna", 3, "rewound", None)]
    game = cli.output / "g"
    assert not (game / "turn-002").exists()
    [moved] = (game / "rewound").iterdir()
    assert moved.name == f"turn-002-{before[:12]}" and (moved / "anna.pdf").is_file()
    assert "every hash matches" in cli.ok("replay", "g").out
    # the same orders and the same dice: the very same turn again, reports and all
    cli.ok("turn", "g")
    assert rows(cli, "SELECT hash FROM turns WHERE number=2") == [(before,)]
    assert (game / "turn-002" / "anna.pdf").read_bytes() == (moved / "anna.pdf").read_bytes()
    # taken back once more, Bert changes his orders: another turn 2
    cli.ok("rewind", "g", "1", "--yes")
    assert sorted(p.name for p in (game / "rewound").iterdir()) == [
        moved.name, f"{moved.name}-2"]
    options = cli.ok("options", "g", "Bert").out.splitlines()
    cli.ok("orders", "submit", "g", "Bert", "-", input=options[-1] + "\n")
    cli.ok("turn", "g")
    assert rows(cli, "SELECT hash FROM turns WHERE number=2") != [(before,)]
    assert len(rows(cli, "SELECT id FROM rewound_turns")) == 2
    assert "every hash matches" in cli.ok("replay", "g").out


def test_bad_rewinds_are_refused_and_change_nothing(cli):
    two_turns(cli)
    store = cli.store.read_bytes()
    asked = cli("rewind", "g", "0")
    assert asked.code == 1 and "would take back turns 1, 2" in asked.err
    assert "add --yes" in asked.err
    for to, words in (("2", "turn 2 is its latest"), ("7", "not one of them")):
        bad = cli("rewind", "g", to, "--yes")
        assert bad.code == 1 and words in bad.err and "give a turn from 0 to 1" in bad.err, \
            bad.err
    assert "no game" in cli("rewind", "nope", "0", "--yes").err.lower()
    for argv in (("rewind", "g", "-1", "--yes"), ("report", "g", "-1")):
        negative = cli(*argv)           # Click would call it "No such option: -1"
        assert negative.code == 2 and "-1: a negative number is not valid here" in negative.err
        assert "turns count from 0" in negative.err and "No such option" not in negative.err
    misspelt = cli("rewind", "g", "0", "--ye")     # other unknown options as Click puts them
    assert misspelt.code == 2 and "No such option: --ye" in misspelt.err and "--yes" in misspelt.err
    assert cli.store.read_bytes() == store


def test_a_store_of_schema_4_is_upgraded_to_5_and_keeps_everything(tmp_path):
    """tests/data/store-v4.sqlite3 was written by companion at schema 4 (a Gral game after two
    turns, with orders pending): it opens, upgrades in place once, replays, and can rewind."""
    from companion import service

    path = tmp_path / "s.sqlite3"
    shutil.copy(DATA / "store-v4.sqlite3", path)
    store = Store(path)
    assert any("upgraded from schema 4 to 5" in n for n in store.notes)
    assert [(s.player, s.status) for s in store.submissions("g")] == [
        ("Anna", "used"), ("Bert", "used"), ("Anna", "used"), ("Bert", "used"),
        ("Anna", "pending")]
    assert service.replay(store, "g").ok
    done = service.rewind(store, "g", 0, None)
    assert done.numbers == [1, 2] and done.pending == ["Anna", "Bert"]
    store.close()
    again = Store(path)
    assert again.notes == [] and again.turn("g").number == 0
    again.close()


def test_export_and_import_keep_the_turns_taken_back_and_the_address_history(cli, tmp_path):
    """Moving a game to another store loses nothing of its history: the turns taken back
    (whole, with when and why) and every change of a player's address travel with it; a
    changed turn taken back is refused and nothing is imported."""
    import json

    before = two_turns(cli)
    cli.ok("game", "address", "g", "Anna", "anna@example.org")
    cli.ok("rewind", "g", "1", "--yes", "--reason", "late orders")
    cli.ok("export", "g", str(tmp_path / "g.json"))
    data = json.loads((tmp_path / "g.json").read_text(encoding="utf-8"))
    assert [(t["number"], t["hash"], t["reason"]) for t in data["rewound_turns"]] == [
        (2, before, "late orders")]
    assert [(c["player"], c["old_email"], c["new_email"]) for c in data["address_changes"]] \
        == [("Anna", None, "anna@example.org")]

    other = Store(tmp_path / "other.sqlite3", create=True)
    from companion import service

    assert service.import_game(other, data, "g.json", new_id="h") == "h"
    again = other.export_game("h")
    for key in ("rewound_turns", "address_changes", "turns", "submissions"):
        assert again[key] == data[key], key
    # a copy under another id: the same players, each with a private link of its own
    assert [dict(p, token=None) for p in again["players"]] == \
        [dict(p, token=None) for p in data["players"]]
    assert all(a["token"] != b["token"] for a, b in zip(again["players"], data["players"]))
    assert other.rewound("h") == [(2, data["rewound_turns"][0]["rewound_at"], "late orders")]

    changed = json.loads(json.dumps(data))
    changed["rewound_turns"][0]["state"]["gral"] = {}
    bad = Store(tmp_path / "bad.sqlite3", create=True)
    try:
        service.import_game(bad, changed, "g.json")
        raise AssertionError("a changed turn taken back was imported")
    except Exception as exc:        # noqa: BLE001 - the refusal names the record
        assert "rewound_turns[0] (turn 2 taken back) does not match its hash" in str(exc)
    assert bad.game_ids() == []
    stranger = json.loads(json.dumps(data))
    stranger["address_changes"][0]["player"] = "Zed"
    try:
        service.import_game(bad, stranger, "g.json")
        raise AssertionError("an address change of a stranger was imported")
    except Exception as exc:        # noqa: BLE001
        assert "address_changes[0] is for 'Zed'" in str(exc)
    unknown_old = json.loads(json.dumps(data))       # found by the import property test:
    del unknown_old["address_changes"][0]["old_email"]   # a missing optional value is none
    assert service.import_game(bad, unknown_old, "g.json", new_id="u") == "u"
    assert bad.export_game("u")["address_changes"] == data["address_changes"]
    older = {k: v for k, v in data.items() if k not in ("rewound_turns", "address_changes")}
    assert service.import_game(bad, older, "g.json") == "g"     # a file made before: still read
    assert bad.rewound("g") == []


def test_reports_of_a_turn_taken_back_are_set_aside_even_after_a_crash(cli):
    """A crash between the rewind's commit and the move of its report folders (or a rewind by
    mail, whose folders move after its transaction): the next run sets them aside before any
    turn's reports are put in place, so a turn run again never replaces them."""
    before = two_turns(cli)
    store = Store(cli.store)
    store.rewind("g", 1, "2027-01-01 00:00 UTC", "late")      # committed; folders not moved
    game = cli.output / "g"
    assert (game / "turn-002").is_dir() and not (game / "rewound").exists()
    old_pdf = (game / "turn-002" / "anna.pdf").read_bytes()
    cli.ok("orders", "submit", "g", "Anna", "-",
           input=cli.ok("options", "g", "Anna").out.splitlines()[-1] + "\n")
    cli.ok("turn", "g")                          # other orders: another turn 2
    assert rows(cli, "SELECT hash FROM turns WHERE number=2") != [(before,)]
    [kept] = (game / "rewound").iterdir()
    assert kept.name == f"turn-002-{before[:12]}"
    assert (kept / "anna.pdf").read_bytes() == old_pdf
    assert (game / "turn-002" / "anna.pdf").read_bytes() != old_pdf
    store.close()


def test_a_rewind_for_a_turn_since_moved_on_takes_nothing_back(cli):
    """The moderator's page shows turn 1; another process (the mail pass) runs turn 2; the
    rewind sent from the page is refused inside its transaction and changes nothing."""
    import pytest

    from companion import service
    from companion.errors import TurnMovedOn

    two_turns(cli)
    store = Store(cli.store)
    before = rows(cli, "SELECT number, hash FROM turns ORDER BY number")
    with pytest.raises(TurnMovedOn, match="is at turn 2 now, not 1; nothing was taken back"):
        service.rewind(store, "g", 0, cli.output, "late", expect_latest=1)
    assert rows(cli, "SELECT number, hash FROM turns ORDER BY number") == before
    assert rows(cli, "SELECT COUNT(*) FROM rewound_turns") == [(0,)]
    assert service.rewind(store, "g", 0, cli.output, "late", expect_latest=2).numbers == [1, 2]
    store.close()


def test_a_game_of_one_turn_names_the_turn_to_give(cli):
    """With only turn 1 to take back the hint said 'give a turn from 0 to 0'."""
    cli.ok("new", "gral", "g", "--player", "Anna", "--player", "Bert", "--seed", "1")
    cli.ok("turn", "g")
    bad = cli("rewind", "g", "1", "--yes")
    assert bad.code == 1 and "give turn 0 (to take back turn 1)" in bad.err, bad.err
    assert "from 0 to 0" not in bad.err


def test_the_orders_pending_when_the_first_turn_taken_back_ran_are_pending_again(tmp_path):
    """A turn need not use every order it reads (standing orders held for later, an answer to
    a question not yet asked): what was pending when the first turn taken back ran is pending
    again, whatever became of it since (used later, replaced, still pending); what was
    withdrawn, used earlier, or taken back by an earlier rewind before that turn ran is not.
    Store level, every status a player's latest orders can have (turn 3 is taken back)."""
    store = Store(tmp_path / "s.sqlite3", create=True)
    db = store.db
    db.execute("INSERT INTO games (id, kind, seed, options, base_url, created_at, setup, "
               "secret) VALUES ('g', 'gral', '1', '{}', '', 't', '{}', 's')")
    rows_in = [   # player, for_turn, status, used_in
        ("held", 3, "pending", None),        # read by turn 3, held, still pending
        ("used-later", 2, "used", 4),        # held by turns 2 and 3, used by turn 4
        ("used-then", 3, "used", 3),         # used by turn 3 (as before this change)
        ("replaced", 3, "replaced", None),   # pending at turn 3, replaced after it...
        ("replaced", 4, "pending", None),    # ...by these, for turn 4: taken back
        ("withdrew", 2, "replaced", None),
        ("withdrew", 3, "withdrawn", None),  # nothing pending at turn 3
        ("early", 2, "used", 2),             # used before turn 3
        ("late", 4, "used", 4),              # came after turn 3 ran
        ("gone", 3, "rewound", None),        # taken back by an earlier rewind
    ]
    for player, for_turn, status, used_in in rows_in:
        db.execute("INSERT INTO submissions (game_id, player, for_turn, text, submitted_at, "
                   "status, used_in) VALUES ('g', ?, ?, 'x', 't', ?, ?)",
                   (player, for_turn, status, used_in))
    for number in range(5):
        db.execute("INSERT INTO turns (game_id, number, processed_at, state, hash, prev_hash, "
                   "inputs, decisions, chance, events, digests, published) "
                   "VALUES ('g', ?, 't', x'', ?, '', x'', x'', x'', x'', '{}', 1)",
                   (number, f"h{number}"))
    db.commit()
    with store.transaction() as tx:
        assert Store.rewind_in(tx, "g", 2, "t", "test") == [3, 4]
    status = {(p, f): (s, u) for p, f, s, u in db.execute(
        "SELECT player, for_turn, status, used_in FROM submissions")}
    assert status == {
        ("held", 3): ("pending", None), ("used-later", 2): ("pending", None),
        ("used-then", 3): ("pending", None), ("replaced", 3): ("pending", None),
        ("replaced", 4): ("rewound", None), ("withdrew", 2): ("replaced", None),
        ("withdrew", 3): ("withdrawn", None), ("early", 2): ("used", 2),
        ("late", 4): ("rewound", 4), ("gone", 3): ("rewound", None)}
    store.close()
