"""Hardening: every finding of the hostile and unlucky user (issue 13) as a regression test.

Reserved names and view addressing, identities checked on every route into the store, paths
kept inside the output folder, random tokens and per-game secrets, the hash chain over every
stored column, durable publishing of reports, operating-system failures, long names, empty
order files, text encodings.
"""
from __future__ import annotations

import json
import os
import re
import shutil
import sqlite3
import subprocess
import tempfile
from pathlib import Path

import pytest

from companion import service
from companion.engine.canon import canonical_json
from companion.engine.chance import seed_key
from companion.engine.identity import MAX_NAME, RESERVED_SLUGS, IdentityError, inside
from companion.errors import CompanionError, StoreError
from companion.store import SCHEMA_VERSION, Store, pack, unpack

PLAYERS = {"gral": ["Anna", "Bert"], "koc": ["Anna", "Bert"], "mayhem": ["Anna", "Bert"],
           "fluxx": ["Anna", "Bert"]}


def gral_game(cli, *extra):
    return cli.ok("new", "gral", "g1", "--player", "Anna", "--player", "Bert <bert@example.org>",
                  "--player", "Cora", "--seed", "11", "--option", "first=Anna", *extra)


def no_traceback(result):
    assert "Traceback" not in result.text, result.text
    return result


# ------------------------------------------------------------------------------ names and views
@pytest.mark.parametrize("kind", sorted(PLAYERS))
def test_reserved_names_are_refused_in_every_game(tmp_path, kind):
    store = Store(tmp_path / "s.sqlite3", create=True)
    names = ["Public", "MODERATOR", "Públic", "moderator!", " public", "Disclosure", "index",
             "ALL", "Mödérätör"] + [s.title() for s in sorted(RESERVED_SLUGS)]
    for name in names:
        with pytest.raises(CompanionError) as info:
            service.new_game(store, kind, "g1", [name, "Bert"], seed="1")
        assert "reserved" in info.value.message or "spaces" in info.value.message, name
    assert store.game_ids() == []


def test_a_player_can_never_mean_another_view(cli):
    result = no_traceback(cli("new", "gral", "g1", "--player", "Public", "--player", "Bert"))
    assert result.code == 1 and "reserved" in result.err
    cli.ok("new", "gral", "g1", "--player", "Publius", "--player", "Moderata", "--seed", "3")
    public = json.loads(cli.ok("show", "g1", "--player", "public", "--json").out)
    assert public["viewer"] == "public" and "sheet" not in public
    assert "# turn 0, processed" in cli.ok("show", "g1", "--player", "moderator").out
    own = json.loads(cli.ok("show", "g1", "--player", "Publ", "--json").out)
    assert own["viewer"] == "Publius" and own["sheet"]["player"] == "Publius"
    files = sorted(p.name for p in (cli.output / "g1" / "turn-000").iterdir())
    assert files == ["moderata.pdf", "moderata.txt", "public.pdf", "public.txt", "publius.pdf",
                     "publius.txt"]


@pytest.mark.parametrize("name, message", [
    ("A" * (MAX_NAME + 1), f"the limit is {MAX_NAME}"),
    ("Anna\nBert", "contains"),
    ("Anna\u202e", "contains"),
    ("Anna,Bert", "contains"),
    ("!!!", "no letters or digits"),
    ("שלום", "cannot print properly: .* Hebrew"),
    ("مرحبا", "Arabic"),
    ("Anna 😀", "an emoji or symbol"),
    ("王", "CJK"),
    ("", "empty"),
])
def test_bad_player_names(tmp_path, name, message):
    store = Store(tmp_path / "s.sqlite3", create=True)
    with pytest.raises(CompanionError, match=message):
        service.new_game(store, "gral", "g1", [name, "Bert"], seed="1")


@pytest.mark.parametrize("kind", sorted(PLAYERS))
def test_longest_names_are_laid_out_inside_the_page(tmp_path, kind):
    """Names at the limit, in wide letters, stay on the page in every report of every game."""
    import pypdfium2 as pdfium

    names = ["W" * MAX_NAME, "Ж" * (MAX_NAME - 1) + "M"]
    store = Store(tmp_path / "s.sqlite3", create=True)
    service.new_game(store, kind, "g1", names, seed="4", output=tmp_path / "out")
    folder = tmp_path / "out" / "g1" / "turn-000"
    for pdf_path in sorted(folder.glob("*.pdf")):
        pdf = pdfium.PdfDocument(str(pdf_path))
        seen = set()
        for page in pdf:
            width, height = page.get_size()
            text = page.get_textpage()
            content = text.get_text_range()
            for index in range(text.count_chars()):
                left, bottom, right, top = text.get_charbox(index)
                if right > left:        # a printed glyph
                    assert -1 <= left and right <= width + 1 and -1 <= bottom and \
                        top <= height + 1, (pdf_path.name, content[index:index + 20])
            for name in names:
                if name[:12] in content.replace("\r", "").replace("\n", ""):
                    seen.add(name)
        assert seen, f"{pdf_path.name} shows neither long name"
        pdf.close()


# ------------------------------------------------------------------------------ tokens, secrets
def test_tokens_are_random_and_never_from_the_seed(tmp_path, monkeypatch):
    monkeypatch.delenv("COMPANION_TEST_ENTROPY")
    store = Store(tmp_path / "s.sqlite3", create=True)
    for game_id in ("a", "b"):
        service.new_game(store, "gral", game_id, ["Anna", "Bert"], seed="same",
                         option_args=["first=Anna"])
    a, b = store.game("a"), store.game("b")
    tokens = [p.token for p in a.players + b.players]
    assert len(set(tokens)) == 4 and all(re.fullmatch(r"[0-9a-f]{32}", t) for t in tokens)
    assert a.secret != b.secret and seed_key("same").hex() not in (a.secret, b.secret)
    # the sealed sheets' commitments are salted from the game's secret, not from the seed
    state_a, state_b = store.turn("a").state, store.turn("b").state
    assert state_a["sheets"] == state_b["sheets"]
    assert state_a["commitments"] != state_b["commitments"]


def test_a_new_token_closes_the_old_link(cli):
    gral_game(cli)
    old_link = cli.ok("show", "g1", "--player", "Anna").out
    old = re.search(r"companion://g1/0/anna\.[0-9a-f]+\?h=[0-9a-f]{16}", old_link).group(0)
    assert cli.ok("open", old).out.count("view:  Anna")
    out = cli.ok("token", "g1", "anna", env={"COMPANION_TEST_ENTROPY": ""}).out
    new = re.search(r"new link: (\S+)", out).group(1)
    assert new != old and "send Anna their new report" in out
    result = no_traceback(cli("open", old))
    assert result.code == 1 and "does not match any player's" in result.err
    assert "view:  Anna" in cli.ok("open", new).out
    text = (cli.output / "g1" / "turn-000" / "anna.txt").read_text()
    assert new in text and old not in text
    for other in ("bert.txt", "cora.txt", "public.txt"):
        assert new not in (cli.output / "g1" / "turn-000" / other).read_text()


def test_a_base_url_that_would_run_code_is_refused(cli):
    """The links of every QR code and web page start with the game's base URL: a scheme a
    browser runs or opens as content (javascript:, data:, ...) is refused when set, when a
    game is made and when one is imported, and nothing changes."""
    gral_game(cli)
    before = cli.store.read_bytes()
    for url in ("javascript:alert(1)//", "JavaScript:alert(1)", "data:text/html,x",
                "vbscript:x", "file:///etc", "blob:x", "about:blank"):
        bad = no_traceback(cli("game", "set", "g1", "base-url", url))
        assert bad.code == 1 and "which a browser runs or opens as content" in bad.err, url
    made = cli("new", "gral", "g9", "--player", "A", "--player", "B",
               "--base-url", "javascript:x")
    assert made.code == 1 and "'javascript:' scheme" in made.err
    cli.ok("export", "g1", "g1.json")
    exported = json.loads((cli.root / "g1.json").read_text())
    exported["game"]["base_url"] = "data:x"
    path = cli.write("hostile.json", json.dumps(exported))
    imported = cli("import", path, "--as", "g8")
    assert imported.code == 1 and "'data:' scheme" in imported.err
    assert cli.store.read_bytes() == before
    cli.ok("game", "set", "g1", "base-url", "http://127.0.0.1:8080/")


def test_store_of_schema_1_is_migrated(cli):
    shutil.copy(Path(__file__).parent / "data" / "store-v1.sqlite3", cli.store)
    old_tokens = {"3a1889ed006dde5a", "5c2431b1464ec402"}
    result = cli.ok("show", "g1", "--player", "public")
    assert "upgraded from schema 1 to 2" in result.err and "new secret tokens" in result.err
    assert "upgraded" not in cli.ok("show", "g1", "--player", "public").err   # only once
    db = sqlite3.connect(cli.store)
    tokens = {row[0] for row in db.execute("SELECT token FROM players")}
    db.close()
    assert not tokens & old_tokens and len(tokens) == 4
    assert "every hash matches" in cli.ok("replay", "g1").out
    assert "every hash matches" in cli.ok("replay", "f1").out
    assert "changed only as the orders said" in cli.ok("verify", "g1").out
    assert "turn 2 processed" in cli.ok("turn", "g1").out      # Bert's pending orders
    assert "every hash matches" in cli.ok("replay", "g1").out


def test_store_of_schema_2_is_upgraded_in_place(cli):
    """tests/data/store-v2.sqlite3 was written by companion at schema 2 (before turns were
    stored compressed): a game of each kind, three turns each, a pending submission each."""
    shutil.copy(Path(__file__).parent / "data" / "store-v2.sqlite3", cli.store)
    before = sqlite3.connect(cli.store)
    hashes = before.execute("SELECT game_id, number, hash, digests FROM turns").fetchall()
    states = {(g, n): json.loads(s) for g, n, s in
              before.execute("SELECT game_id, number, state FROM turns")}
    before.close()
    result = cli.ok("show", "g1", "--player", "public")
    assert "upgraded from schema 2 to 3" in result.err
    assert "upgraded from schema 3 to 4" in result.err      # and on (companion/mail/)
    assert "upgraded" not in cli.ok("show", "g1", "--player", "public").err   # only once
    db = sqlite3.connect(cli.store)
    assert db.execute("SELECT value FROM companion_meta WHERE key='schema'"
                      ).fetchone()[0] == str(SCHEMA_VERSION)
    assert db.execute("SELECT game_id, number, hash, digests FROM turns").fetchall() == hashes
    for game_id, number, state in db.execute("SELECT game_id, number, state FROM turns"):
        assert isinstance(state, bytes) and unpack(state) == states[game_id, number]
    assert db.execute("PRAGMA freelist_count").fetchone()[0] == 0      # vacuumed
    db.close()
    for game_id in ("g1", "k1", "m1", "f1"):
        assert "every hash matches" in cli.ok("replay", game_id).out
        assert "turn 4 processed" in cli.ok("turn", game_id).out      # the pending orders
        assert "every hash matches" in cli.ok("replay", game_id).out


@pytest.mark.parametrize("kind", ["gral", "koc", "fluxx", "mayhem", "grailccg"])
def test_a_new_game_records_its_rules_edition_and_replays_under_it(cli, kind):
    """Rules editions (docs/adding-a-game.md): a new game records its kind's edition in turn
    0's inputs and its state; replay takes it from there (the schema-2 store above holds games
    of edition 0, which replay under the old rules)."""
    from companion.registry import get_kind

    cli.ok("new", kind, "e1", "--player", "Anna", "--player", "Bert", "--seed", "5")
    db = sqlite3.connect(cli.store)
    inputs, state = db.execute("SELECT inputs, state FROM turns WHERE game_id='e1' AND "
                               "number=0").fetchone()
    db.close()
    edition = get_kind(kind).edition
    assert edition >= 1
    assert unpack(inputs)["edition"] == edition
    assert unpack(state)["edition"] == edition
    assert "every hash matches" in cli.ok("replay", "e1").out


def test_a_failed_upgrade_changes_nothing(cli):
    shutil.copy(Path(__file__).parent / "data" / "store-v2.sqlite3", cli.store)
    db = sqlite3.connect(cli.store)
    db.execute("UPDATE turns SET events='{not json' WHERE game_id='m1' AND number=2")
    db.commit()
    db.close()
    original = Path(cli.store).read_bytes()
    result = no_traceback(cli("show", "g1"))
    assert result.code == 1 and "cannot be upgraded" in result.err and "m1 turn 2" in result.err
    assert Path(cli.store).read_bytes() == original


def test_turns_are_stored_compressed(cli):
    gral_game(cli)
    cli.ok("turn", "g1")
    db = sqlite3.connect(cli.store)
    for column in ("state", "inputs", "decisions", "chance", "events"):
        value = db.execute(f"SELECT {column} FROM turns WHERE number=1").fetchone()[0]
        assert isinstance(value, bytes) and unpack(value) is not None
    db.close()


# ------------------------------------------------------------------------------ import
def mutations(data: dict) -> dict[str, tuple[dict, str]]:
    """Hostile or damaged variants of an export, with a word the refusal must contain."""
    def variant(change, expect):
        copy = json.loads(json.dumps(data))
        change(copy)
        return copy, expect

    def set_player(key, value, index=0):
        return lambda d: d["players"][index].__setitem__(key, value)

    return {
        "dotdot-id": variant(lambda d: d["game"].__setitem__("id", "../../evil"), "not usable"),
        "slash-id": variant(lambda d: d["game"].__setitem__("id", "a/b"), "not usable"),
        "empty-token": variant(set_player("token", ""), "token"),
        "short-token": variant(set_player("token", "abc"), "token"),
        "duplicate-token": variant(lambda d: d["players"][1].__setitem__(
            "token", d["players"][0]["token"]), "share one token"),
        "newline-name": variant(set_player("name", "Anna\nEvil"), "contains"),
        "reserved-name": variant(lambda d: (set_player("name", "Public")(d),
                                            set_player("slug", "public")(d)), "reserved"),
        "slug-escape": variant(set_player("slug", "../anna"), "slug"),
        "long-name": variant(set_player("name", "A" * 300), "limit"),
        "bad-email": variant(set_player("email", "x\n@y"), "email"),
        "seat-gap": variant(set_player("seat", 5), "seats"),
        "unknown-kind": variant(lambda d: d["game"].__setitem__("kind", "chess"), "kind"),
        "no-secret": variant(lambda d: d["game"].pop("secret"), "secret"),
        "url-space": variant(lambda d: d["game"].__setitem__("base_url", "http://x y/"),
                             "base URL"),
        "players-not-list": variant(lambda d: d.__setitem__("players", {"a": 1}), "list"),
        "state-changed": variant(lambda d: d["turns"][-1]["state"].__setitem__("x", 1),
                                 "does not match its hash"),
        "events-changed": variant(lambda d: d["turns"][-1]["events"].append(
            {"kind": "info", "text": "x", "to": "public"}), "does not match its hash"),
        "time-changed": variant(lambda d: d["turns"][-1].__setitem__("processed_at", "never"),
                                "does not match its hash"),
        "chance-changed": variant(lambda d: d["turns"][-1]["chance"].append(
            {"seq": 1, "kind": "die", "n": 6, "purpose": "x", "value": 6, "source": "stream"}),
            "does not match its hash"),
        "turn-number": variant(lambda d: d["turns"][0].__setitem__("number", "0"), "numbered"),
        "no-turns": variant(lambda d: d.__setitem__("turns", []), "no turns"),
        "stranger-submission": variant(lambda d: d["submissions"].append(
            {"player": "Mallory", "for_turn": 1, "text": "x", "submitted_at": "t",
             "status": "pending", "used_in": None}), "not a player"),
        "bad-status": variant(lambda d: d["submissions"].append(
            {"player": "Anna", "for_turn": 1, "text": "x", "submitted_at": "t",
             "status": "sneaky", "used_in": None}), "status"),
        "not-a-table": variant(lambda d: d.__setitem__("game", []), "game"),
        "version": variant(lambda d: d.__setitem__("version", 99), "not supported"),
    }


def test_import_refuses_every_hostile_or_damaged_file(cli):
    gral_game(cli)
    cli.ok("orders", "submit", "g1", "Anna", "-", input="assign 3 to Adam\n")
    cli.ok("turn", "g1")
    export = cli.root / "g1.json"
    cli.ok("export", "g1", str(export))
    data = json.loads(export.read_text())
    other = cli.root / "other.sqlite3"
    env = {"COMPANION_STORE": str(other), "COMPANION_OUTPUT": str(cli.root / "out2")}
    cli.ok("new", "gral", "x", "--player", "A", "--player", "B", env=env)
    before = other.read_bytes()
    for name, (content, expect) in mutations(data).items():
        path = cli.write(f"{name}.json", json.dumps(content))
        renamed = () if name in ("dotdot-id", "slash-id") else ("--as", "fresh")
        result = no_traceback(cli("import", path, *renamed, env=env))
        assert result.code == 1 and expect in result.err, (name, result.err)
        assert other.read_bytes() == before, name
    for junk in ("", "{", "[1, 2]", "null", '{"format": "companion-game"}', "[" * 100000):
        result = no_traceback(cli("import", cli.write("junk.json", junk), env=env))
        assert result.code == 1, junk[:20]
    assert not (cli.root.parent / "evil").exists()
    # a crafted file whose hashes were recomputed over a changed state: it does not replay
    from companion.store import Turn

    crafted = json.loads(json.dumps(data))
    last = crafted["turns"][-1]
    last["state"]["sheets"]["Anna"]["units"] = {}
    last["hash"] = Turn.sealed("g1", last["number"], last["processed_at"], last["state"],
                               last["prev_hash"], last["inputs"], last["decisions"],
                               last["chance"], last["events"]).hash
    result = no_traceback(cli("import", cli.write("crafted.json", json.dumps(crafted)), env=env))
    assert result.code == 1 and "does not replay" in result.err, result.err
    assert cli("show", "g1", env=env).code == 1
    assert "imported game fresh" in cli.ok("import", str(export), "--as", "fresh", env=env).out


# ------------------------------------------------------------------------------ paths
def test_paths_never_leave_the_output_folder(cli, tmp_path):
    with pytest.raises(IdentityError):
        inside(tmp_path, "..", "x")
    with pytest.raises(IdentityError):
        inside(tmp_path, "a/b")
    gral_game(cli)
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    shutil.rmtree(cli.output / "g1")
    (cli.output / "g1").symlink_to(outside)
    result = no_traceback(cli("report", "g1"))
    assert result.code == 1 and "leave the folder" in result.err
    assert list(outside.iterdir()) == []


# ------------------------------------------------------------------------------ the hash chain
@pytest.mark.parametrize("column", ["state", "inputs", "decisions", "chance", "events",
                                    "processed_at"])
def test_the_hash_chain_covers_every_stored_column(cli, column):
    gral_game(cli)
    cli.ok("orders", "submit", "g1", "Anna", "-", input="assign 3 to Adam\n")
    cli.ok("turn", "g1")
    cli.ok("turn", "g1")
    db = sqlite3.connect(cli.store)
    value = db.execute(f"SELECT {column} FROM turns WHERE number=1").fetchone()[0]
    changed = ("2031-01-01 00:00 UTC" if column == "processed_at" else
               pack({"tampered": unpack(value)}) if column in ("state", "inputs")
               else pack(unpack(value) + [{"x": 1}]))
    db.execute(f"UPDATE turns SET {column}=? WHERE number=1", (changed,))
    db.commit()
    db.close()
    result = no_traceback(cli("replay", "g1"))
    assert result.code == 1 and "turn 1" in result.err and f"'{column}'" in result.err
    for args in (("show", "g1", "--turn", "1"), ("report", "g1", "--turn", "1")):
        result = no_traceback(cli(*args))
        assert result.code == 1 and "game 'g1', turn 1" in result.err and column in result.err


def test_a_corrupt_row_is_named_never_a_traceback(cli):
    gral_game(cli)
    db = sqlite3.connect(cli.store)
    db.execute("UPDATE turns SET events='{not json' WHERE number=0")
    db.commit()
    db.close()
    for args in (("show", "g1"), ("turn", "g1"), ("replay", "g1"), ("export", "g1", "x.json"),
                 ("options", "g1", "Anna")):
        result = no_traceback(cli(*args))
        assert result.code == 1 and "turn 0" in result.err and "events" in result.err, args
    db = sqlite3.connect(cli.store)
    db.execute("UPDATE players SET slug='../x' WHERE seat=0")
    db.commit()
    db.close()
    result = no_traceback(cli("show", "g1", "--player", "public"))
    assert result.code == 1 and "slug" in result.err


def test_replay_names_a_changed_shuffle(cli):
    """A changed outcome whose digest and hash were rewritten too: replay still finds it."""
    cli.ok("new", "fluxx", "f1", "--player", "Anna", "--player", "Bert", "--seed", "5")
    db = sqlite3.connect(cli.store)
    chance = unpack(db.execute("SELECT chance FROM turns WHERE number=0").fetchone()[0])
    shuffle = next(o for o in chance if o["kind"] == "shuffle")
    shuffle["value"][0], shuffle["value"][1] = shuffle["value"][1], shuffle["value"][0]
    record = Store(cli.store).turn("f1", 0)
    record.chance = chance
    record.hash = record.compute_hash()
    db.execute("UPDATE turns SET chance=?, digests=?, hash=? WHERE number=0",
               (pack(chance), canonical_json(record.digests()), record.hash))
    db.commit()
    db.close()
    result = no_traceback(cli("replay", "f1"))
    assert result.code == 1 and "turn 0" in result.err and "'state'" in result.err, result.err


def test_replay_of_a_setup_refused_by_stricter_checks_uses_the_stored_start(tmp_path,
                                                                             monkeypatch):
    from companion.errors import DataError
    from companion.registry import get_kind

    store = Store(tmp_path / "s.sqlite3", create=True)
    service.new_game(store, "gral", "g1", ["Anna", "Bert"], seed="2",
                     option_args=["first=Anna"])
    position = get_kind("gral").write_position(store.turn("g1").state)
    setup = tmp_path / "setup.txt"
    setup.write_text(position)
    service.new_game(store, "gral", "g2", [], seed="2", setup=str(setup))
    service.run_turn(store, "g2")
    assert service.replay(store, "g2").ok

    def stricter(*args, **kwargs):
        raise DataError("a check added since", path="setup", line=1, column=1)

    monkeypatch.setattr(get_kind("gral"), "read_position", stricter)
    result = service.replay(store, "g2")
    assert result.ok and "no longer passes the checks" in result.notes[0]
    monkeypatch.undo()
    store.db.execute("UPDATE games SET setup=? WHERE id='g2'", (position + "# changed\n",))
    result = service.replay(store, "g2")
    assert not result.ok and "setup position was changed" in result.message


# ------------------------------------------------------------------------------ crashes
KILLER = """
import os, sys, threading
limit = int(os.environ["KILL_AFTER_CALLS"])
target = os.environ.get("KILL_AT")
count = 0
def profile(frame, event, arg):
    # a trace function sees only calls of Python functions (no C calls, no returns), and
    # returning None asks for no line events: the cheapest hook that counts Python calls
    global count
    count += 1
    if count >= limit or frame.f_code.co_name == target:
        os._exit(137)
sys.settrace(profile)
threading.settrace(profile)
sys.argv = ["companion"] + sys.argv[1:]
from companion.cli import main
try:
    main()
finally:
    sys.settrace(None)
    with open(os.environ["KILL_COUNT_FILE"], "w") as f:
        f.write(str(count))
"""


def snapshot(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*"))
            if p.is_file()}


def test_killed_at_random_points_every_turn_gets_its_reports(make_cli, tmp_path):
    """Kill 'companion turn' at random points (counted in Python calls, so the points are
    reproducible): after one more 'companion turn', every turn has its reports, byte for byte
    as in an uninterrupted run, and no staging folder is left."""
    import random
    import sys

    turns = 4
    reference = make_cli(tmp_path / "reference")
    (tmp_path / "reference").mkdir()
    reference.ok("new", "gral", "g1", "--player", "Anna", "--player", "Bert", "--seed", "9",
                 "--option", "first=Anna")
    for _ in range(turns):
        reference.ok("turn", "g1")
    expected = snapshot(reference.output / "g1")

    killed = make_cli(tmp_path / "killed")
    (tmp_path / "killed").mkdir()
    killed.ok("new", "gral", "g1", "--player", "Anna", "--player", "Bert", "--seed", "9",
              "--option", "first=Anna")
    script = tmp_path / "killer.py"
    script.write_text(KILLER)
    count_file = tmp_path / "count"

    def run_killer(point: int | str) -> int:
        limit, target = (point, "") if isinstance(point, int) else (10 ** 12, point)
        env = dict(killed.env, KILL_AFTER_CALLS=str(limit), KILL_AT=target,
                   KILL_COUNT_FILE=str(count_file))
        proc = subprocess.run([sys.executable, str(script), "turn", "g1"], cwd=killed.root,
                              env=env, capture_output=True, text=True, timeout=600)
        assert "Traceback" not in proc.stderr, proc.stderr
        return proc.returncode

    # how many calls a whole turn makes (measured on a copy, so the game is not advanced)
    probe = make_cli(tmp_path / "probe")
    shutil.copytree(killed.root, probe.root)
    env = dict(probe.env, KILL_AFTER_CALLS=str(10 ** 12), KILL_COUNT_FILE=str(count_file))
    subprocess.run([sys.executable, str(script), "turn", "g1"], cwd=probe.root, env=env,
                   check=True, capture_output=True, timeout=600)
    total = int(count_file.read_text())
    rng = random.Random(20261124)
    kills = 4 if not os.environ.get("COMPANION_SOAK") else 24
    points = sorted({rng.randrange(1, total) for _ in range(kills // 2)} |
                    {total - rng.randrange(1, max(2, total // 50)) for _ in range(kills // 2)})
    # and the moments that matter most: before the commit, before and inside publishing, before
    # the turn is marked published
    plans = {1: points, 2: points + ["publish"], 3: ["commit_turn", "publish"],
             4: ["mark_published"]}
    def latest() -> tuple[int, int]:
        db = sqlite3.connect(killed.store)
        row = db.execute("SELECT number, published FROM turns ORDER BY number DESC").fetchone()
        db.close()
        return row

    died = recovered = 0
    for number in range(1, turns + 1):
        for point in plans[number]:
            died += run_killer(point) == 137
            if latest()[0] == number:
                break        # the turn was stored before the kill
        stored, published = latest()
        if stored < number:
            assert f"turn {number} processed" in killed.ok("turn", "g1").out
        elif not published:
            out = killed.ok("turn", "g1").out
            assert f"turn {number} had been stored without its reports" in out
            recovered += 1
        assert latest() == (number, 1)
    assert died >= 4 and recovered >= 2
    leftovers = [p.name for p in (killed.output / "g1").iterdir()
                 if not re.fullmatch(r"turn-\d{3}", p.name)]
    assert leftovers == []
    assert snapshot(killed.output / "g1") == expected
    assert "every hash matches" in killed.ok("replay", "g1").out


def test_a_turn_stored_without_its_reports_is_published_by_the_next_command(cli):
    gral_game(cli)
    cli.ok("turn", "g1")
    expected = snapshot(cli.output / "g1")
    db = sqlite3.connect(cli.store)
    db.execute("UPDATE turns SET published=0 WHERE number=1")
    db.commit()
    db.close()
    shutil.rmtree(cli.output / "g1" / "turn-001")
    (cli.output / "g1" / ".staging-turn-001-leftover").mkdir()
    (cli.output / "g1" / ".staging-turn-001-leftover" / "anna.pdf").write_bytes(b"secret")
    out = cli.ok("turn", "g1").out
    assert "interrupted run" in out and "no new turn was processed" in out
    assert snapshot(cli.output / "g1") == expected
    assert "# turn 1," in cli.ok("show", "g1").out
    for verb in ("report", "replay"):
        db = sqlite3.connect(cli.store)
        db.execute("UPDATE turns SET published=0 WHERE number=1")
        db.commit()
        db.close()
        shutil.rmtree(cli.output / "g1" / "turn-001")
        cli.ok(verb, "g1")
        assert snapshot(cli.output / "g1") == expected, verb


# ------------------------------------------------------------------------------ the OS refuses
@pytest.fixture
def read_only(tmp_path):
    """``make(folder)`` makes a folder read-only for this user: a read-only remount of a tmpfs
    for root (who ignores permissions), file modes for anybody else."""
    mounts = []

    def make(folder: Path) -> None:
        if os.geteuid() != 0:
            for path in [folder, *folder.rglob("*")]:
                path.chmod(0o555 if path.is_dir() else 0o444)
            return
        if shutil.which("mount") is None:
            pytest.skip("read-only folders for root are simulated with a tmpfs: needs 'mount'")
        keep = tmp_path / f"keep-{len(mounts)}"
        shutil.copytree(folder, keep)
        proc = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=8m", "tmpfs", str(folder)],
                              capture_output=True, text=True)
        if proc.returncode != 0:
            pytest.skip(f"cannot mount a tmpfs here ({proc.stderr.strip()})")
        mounts.append(folder)
        shutil.copytree(keep, folder, dirs_exist_ok=True)
        subprocess.run(["mount", "-o", "remount,ro", str(folder)], check=True)

    yield make
    for folder in reversed(mounts):
        subprocess.run(["umount", str(folder)], check=False)


def test_read_only_store_and_output(cli, tmp_path, read_only):
    gral_game(cli)
    folder = tmp_path / "ro-store"
    folder.mkdir()
    store = folder / "store.sqlite3"
    shutil.copy(cli.store, store)
    read_only(folder)
    before = store.read_bytes()
    env = {"COMPANION_STORE": str(store)}
    for args in (("orders", "submit", "g1", "Anna", "-"), ("turn", "g1")):
        result = no_traceback(cli(*args, input="assign 3 to Adam\n", env=env))
        assert result.code == 1 and "read-only" in result.err, result.err
        assert len(result.err.strip().splitlines()) <= 2, result.err
    assert store.read_bytes() == before
    assert [p.name for p in (cli.output / "g1").iterdir()] == ["turn-000"]
    assert "phase: opening" in cli.ok("show", "g1", env=env).out
    # a read-only output folder: the turn is not stored
    before = cli.store.read_bytes()
    read_only(cli.output)
    result = no_traceback(cli("turn", "g1"))
    assert result.code == 1 and ("read-only" in result.err or "permission denied" in
                                 result.err), result.err
    assert cli.store.read_bytes() == before


def test_store_locked_by_another_process(cli):
    gral_game(cli)
    db = sqlite3.connect(cli.store, isolation_level=None)
    db.execute("BEGIN EXCLUSIVE")
    try:
        result = no_traceback(cli("orders", "submit", "g1", "Anna", "-",
                                  input="assign 3 to Adam\n"))
        assert result.code == 1 and "in use by another companion process" in result.err
    finally:
        db.execute("ROLLBACK")
        db.close()
    cli.ok("orders", "submit", "g1", "Anna", "-", input="assign 3 to Adam\n")


@pytest.fixture
def tiny_disk(tmp_path):
    """A 320 KiB file system (tmpfs), or a skip when this machine does not allow mounting."""
    mount = tmp_path / "tiny"
    mount.mkdir()
    if os.geteuid() != 0 or shutil.which("mount") is None:
        pytest.skip("a full disk is simulated with a small tmpfs: needs root and 'mount'")
    proc = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=320k", "tmpfs", str(mount)],
                          capture_output=True, text=True)
    if proc.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here ({proc.stderr.strip()})")
    yield mount
    subprocess.run(["umount", str(mount)], check=False)


def fill(folder: Path, leave: int) -> None:
    stat = os.statvfs(folder)
    free = stat.f_bavail * stat.f_frsize
    with open(folder / "filler", "wb") as f:
        try:
            f.write(b"\0" * max(0, free - leave))
        except OSError:
            pass


def test_full_disk_for_output_and_store(cli, tiny_disk):
    gral_game(cli)
    before = cli.store.read_bytes()
    fill(tiny_disk, 8192)
    result = no_traceback(cli("turn", "g1", env={"COMPANION_OUTPUT": str(tiny_disk / "out")}))
    assert result.code == 1 and "disk is full" in result.err, result.err
    assert cli.store.read_bytes() == before
    assert not any(p.name.startswith(".staging") for p in (tiny_disk / "out").rglob("*"))
    (tiny_disk / "filler").unlink()
    store = tiny_disk / "store.sqlite3"
    shutil.copy(cli.store, store)
    copy = store.read_bytes()
    fill(tiny_disk, 0)
    result = no_traceback(cli("orders", "submit", "g1", "Anna", "-", input="assign 3 to Adam\n"
                              + "# " + "x" * 20000 + "\n",
                              env={"COMPANION_STORE": str(store)}))
    assert result.code == 1 and "full" in result.err, result.err
    (tiny_disk / "filler").unlink()
    assert store.read_bytes() == copy
    assert "phase: opening" in cli.ok("show", "g1", env={"COMPANION_STORE": str(store)}).out


def test_missing_store_folder(cli, tmp_path):
    result = no_traceback(cli("--store", str(tmp_path / "no" / "s.sqlite3"), "new", "gral",
                              "g1", "--player", "A", "--player", "B"))
    assert result.code == 1 and "does not exist" in result.err


# ------------------------------------------------------------------------------ orders files
def test_empty_order_files_are_refused_and_withdraw_is_explicit(cli):
    gral_game(cli)
    cli.ok("orders", "submit", "g1", "Anna", "-", input="assign 3 to Adam\n")
    for text in ("", "   \n\n\t\n", "# nothing\n> quoted\n", "-- \nassign 3 to Adam\n"):
        path = cli.write("empty.txt", text)
        result = no_traceback(cli("orders", "submit", "g1", "Anna", path))
        assert result.code == 1 and "empty.txt:1:1" in result.err, result.err
        assert "withdraw" in result.err
    db = sqlite3.connect(cli.store)
    assert db.execute("SELECT status FROM submissions").fetchall() == [("pending",)]
    db.close()
    out = cli.ok("orders", "submit", "g1", "Anna", "-", input="Withdraw  # changed my mind\n").out
    assert "withdrew the pending orders of Anna" in out
    db = sqlite3.connect(cli.store)
    assert [r[0] for r in db.execute("SELECT status FROM submissions ORDER BY id")] == \
        ["replaced", "withdrawn"]
    db.close()
    result = no_traceback(cli("orders", "submit", "g1", "Anna", "-", input="withdraw\n"))
    assert result.code == 1 and "no pending orders to withdraw" in result.err
    # as a phone leaves it: a full stop, 'please'; a word more is not a withdrawal
    from companion.service import is_withdrawal

    assert all(is_withdrawal(t) for t in ("Withdraw.", "withdraw please", "Please, withdraw!"))
    assert not any(is_withdrawal(t) for t in ("withdraw now", "withdraw\ndraw", "draw."))



def test_a_pdf_given_for_a_text_file_is_named_as_such(cli):
    """A player's PDF report given to 'verify --report', or as orders, is refused as a PDF
    (not 'not UTF-8 text (byte 0x93)'), pointing to the .txt beside it; nothing changes."""
    gral_game(cli)
    before = cli.store.read_bytes()
    pdf = cli.output / "g1" / "turn-000" / "anna.pdf"
    result = no_traceback(cli("orders", "submit", "g1", "Anna", str(pdf)))
    assert result.code == 1 and "anna.pdf is a PDF, not a text file" in result.err
    assert "a report's .txt beside its .pdf" in result.err
    assert cli.store.read_bytes() == before

@pytest.mark.parametrize("encoding", ["utf-16", "utf-16-le-bom", "utf-16-be-bom", "utf-8-sig"])
def test_orders_in_utf16_and_with_a_byte_order_mark(cli, encoding):
    import codecs

    gral_game(cli)
    text = "assign 3 to Kaspar von Eichstätt\n"
    raw = {"utf-16": text.encode("utf-16"),
           "utf-16-le-bom": codecs.BOM_UTF16_LE + text.encode("utf-16-le"),
           "utf-16-be-bom": codecs.BOM_UTF16_BE + text.encode("utf-16-be"),
           "utf-8-sig": text.encode("utf-8-sig")}[encoding]
    path = cli.root / "orders.txt"
    path.write_bytes(raw)
    assert "Kaspar von Eichstätt" in cli.ok("orders", "submit", "g1", "Anna", str(path)).out
    assert "Kaspar von Eichstätt" in cli.ok("orders", "check", "g1", "Bert", "-",
                                            input=text).out


def test_control_characters_in_orders_are_named_at_their_column(cli):
    gral_game(cli)
    path = cli.root / "orders.txt"
    path.write_bytes(b"assign 3 to \x01Adam\x02\n\x1b[31massign 2 to Kaspar\n")
    result = no_traceback(cli("orders", "submit", "g1", "Anna", str(path)))
    assert result.code == 1
    assert "orders.txt:1:13: syntax error: control character U+0001 in the orders (and 1 " \
           "more on this line)" in result.err
    assert "orders.txt:2:1: syntax error: control character U+001B" in result.err
    # the line is shown with a visible mark in place of each control character, the caret
    # under the first one
    assert "    assign 3 to \ufffdAdam\ufffd\n" + " " * 16 + "^\n" in result.err
    assert "\x01" not in result.err and "\x1b" not in result.err
    db = sqlite3.connect(cli.store)
    assert db.execute("SELECT COUNT(*) FROM submissions").fetchone()[0] == 0
    db.close()
