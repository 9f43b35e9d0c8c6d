"""The installed command line, end to end: every verb, exit statuses, bad input changing nothing.

The tests taking ``kind`` run over every playable kind in the registry (a new kind is covered
as soon as it is registered); the others are Gral-specific by nature (Gral's order texts,
messages, sheets or demo) and say so."""
from __future__ import annotations

import json
import re
import sqlite3

import pytest

from companion.registry import KINDS
from companion.store import pack, unpack
from tests.test_cli_startup import modules_after

PLAYABLE = [k.id for k in KINDS if k.playable]
WITH_COMMANDS = [k for k in KINDS if k.commands]
VERBS = [[], ["games"], ["list"], ["new"], ["orders"], ["orders", "check"], ["orders", "submit"],
         ["options"], ["turn"], ["show"], ["report"], ["replay"], ["open"], ["export"],
         ["import"], ["verify"], ["sheet"], ["print"], ["demo"], ["data"], ["data", "export"],
         ["data", "check"], ["roll"], ["route"], ["token"], ["disclose"]]
# each kind's own commands ('companion KIND VERB'; 'companion KIND --help' is checked below),
# and their older spellings
VERBS += [[k.id, v] for k in WITH_COMMANDS for v, _ in k.verbs]
VERBS += [[a] for k in WITH_COMMANDS for a in k.aliases if [a] not in VERBS]


@pytest.mark.parametrize("verb", VERBS, ids=lambda v: " ".join(v) or "companion")
def test_help_on_every_verb(cli, verb):
    result = cli(*verb, "--help")
    assert result.code == 0 and "Usage:" in result.out
    assert cli(*verb, "-h").out == result.out
    usage = result.out.split("\n\n")[0]
    assert "{" not in usage and "}" not in usage, usage


def test_version_and_completion(cli):
    from companion import __version__

    assert cli.ok("--version").out.strip() == f"companion {__version__}"
    assert cli.ok("-V").out.strip() == f"companion {__version__}"
    assert "--install-completion" in cli.ok("--help").out


def test_usage_errors_exit_2(cli):
    assert cli("new").code == 2
    assert cli("turn", "g1", "--frobnicate").code == 2
    assert cli("no-such-verb").code == 2


def test_each_kind_mounts_its_own_commands_without_loading_a_game(cli):
    """'companion KIND VERB': listed in '--help' and 'KIND --help' from the registry alone (no
    game module imported); the registry's names are the commands module's own."""
    import typer.main

    from companion.registry import commands_module

    top = cli.ok("--help").out
    games = tuple(f"companion.{k.id}" for k in KINDS)
    for args in (["--help"],) + tuple([k.id, "--help"] for k in WITH_COMMANDS):
        loaded = modules_after(cli, *args)
        assert not {m for m in loaded if m.startswith(games)}, args
    for entry in WITH_COMMANDS:
        assert re.search(rf"^  {entry.id} +{re.escape(entry.title[:20])}", top, re.M), entry.id
        own = cli.ok(entry.id, "--help").out
        for verb, short in entry.verbs:
            assert re.search(rf"^  {verb} +{re.escape(short[:20])}", own, re.M), (entry.id, verb)
        group = typer.main.get_group(getattr(commands_module(entry.id),
                                             entry.commands.partition(":")[2]))
        assert list(group.commands) == [v for v, _ in entry.verbs]
        assert set(entry.aliases) | set(entry.kind_aliases) <= set(group.commands)
        for alias in entry.aliases:          # older spellings: answered, not listed
            assert not re.search(rf"^  {alias} ", top, re.M)
    assert cli("gral", "no-such-verb").code == 2


def new_game(cli, *extra):
    """A Gral game (for the tests that are Gral-specific by nature)."""
    return cli.ok("new", "gral", "g1", "--player", "Anna", "--player", "Bert <bert@example.org>",
                  "--player", "Cora", "--seed", "11", "--option", "first=Anna", *extra)


def three_or_fewer(kind: str) -> list[str]:
    """Anna, Bert and Cora, or as many of them as the kind seats."""
    from companion.registry import info

    return ["Anna", "Bert", "Cora"][:info(kind).max_players]


def new_any(cli, kind: str, *extra: str):
    """A game of any kind: Anna, Bert with an email address, and Cora where the kind seats
    three."""
    players = [p if p != "Bert" else "Bert <bert@example.org>" for p in three_or_fewer(kind)]
    args = [a for p in players for a in ("--player", p)]
    return cli.ok("new", kind, "g1", *args, "--seed", "11", *extra)


def submit_listed(cli, game: str = "g1", kind: str = "gral") -> str:
    """Submit the first order line 'options' lists, for the first player who has one."""
    for player in three_or_fewer(kind):
        lines = cli.ok("options", game, player).out.splitlines()
        if lines:
            cli.ok("orders", "submit", game, player, "-", input=lines[0] + "\n")
            return player
    raise AssertionError("nobody has an order to give")


def test_a_game_through_the_command_line(cli):
    """Gral-specific by nature (its orders and messages); every kind: the tests below."""
    out = new_game(cli).out
    assert "created game g1" in out and "Anna, Bert, Cora" in out
    assert (cli.output / "g1" / "turn-000" / "anna.pdf").exists()
    assert cli.ok("games").out.startswith("gral")
    lines = cli.ok("options", "g1", "anna").out.splitlines()
    assert "assign 10 to Alberto Castellano" in lines and "pass" in lines
    path = cli.write("anna.txt", "assign 10+5 to Alberto\nobject Alberto up to all\n")
    out = cli.ok("orders", "check", "g1", "Anna", path).out
    assert "opening: assign 10 (unit A10) + 5 (unit A5) to Alberto Castellano" in out
    out = cli.ok("orders", "submit", "g1", "Anna", path).out
    assert "accepted orders of Anna" in out
    out = cli.ok("orders", "submit", "g1", "bert", "-", input="assign 7 to Mansur\n").out
    assert "assign 7 (unit A7) to Mansur Al-Jallah" in out
    out = cli.ok("turn", "g1").out
    assert "turn 1 processed" in out and "Cora made the opening allocation." in out
    folder = cli.output / "g1" / "turn-001"
    assert sorted(p.name for p in folder.iterdir()) == [
        "anna.pdf", "anna.txt", "bert.pdf", "bert.txt", "cora.pdf", "cora.txt", "public.pdf",
        "public.txt"]
    # options now list moves, and every listed line is accepted by orders check
    for line in cli.ok("options", "g1", "Cora").out.splitlines()[:40]:
        cli.ok("orders", "check", "g1", "Cora", "-", input=line + "\n")
    cli.ok("orders", "submit", "g1", "Anna", "-", input="move Alberto to Chartres insist 15\n")
    out = cli.ok("turn", "g1").out
    assert "Anna proposes: Alberto Castellano from Paris to Chartres." in out
    assert "replayed; every hash matches" in cli.ok("replay", "g1").out
    # views
    assert "sheet: Anna" in cli.ok("show", "g1").out
    shown = cli.ok("show", "g1", "--player", "anna").out
    assert "Your influence sheet" in shown and "sheet: Bert" not in shown
    view = json.loads(cli.ok("show", "g1", "--player", "public", "--json").out)
    assert "sheet" not in view and view["viewer"] == "public"
    position = cli.ok("show", "g1", "--player", "Bert", "--position").out
    assert "sheet: Bert" in position and "sheet: Anna" not in position
    old = cli.ok("show", "g1", "--turn", "0").out
    assert "phase: opening" in old


@pytest.mark.parametrize("kind", PLAYABLE)
def test_a_turn_of_every_kind_through_the_command_line(cli, kind):
    """Bad orders change nothing, links open, a crash while committing leaves the previous
    turn, reports render again byte-identical, views are the reports' text."""
    new_any(cli, kind)
    before = cli.store.read_bytes()
    path = cli.write("bad.txt", "mvoe x\n\u00a7\u00a7 not an order\n")
    for verb in ("check", "submit"):
        result = cli("orders", verb, "g1", "Anna", path)
        assert result.code == 1 and "bad.txt:1:" in result.err, result.err
        assert "Traceback" not in result.err
    assert cli.store.read_bytes() == before
    # the links in turn 0's reports
    lines = (cli.output / "g1" / "turn-000" / "bert.txt").read_text().splitlines()
    link = next(lines[i + 1].strip() for i, line in enumerate(lines)
                if line == "Your private link:")
    out = cli.ok("open", link).out
    assert "game:  g1" in out and "view:  Bert" in out and "matches the link" in out
    lines = (cli.output / "g1" / "turn-000" / "public.txt").read_text().splitlines()
    public_link = next(lines[i + 1].strip() for i, line in enumerate(lines)
                       if line == "Public link:")
    assert "view:  public" in cli.ok("open", public_link).out
    forged = link.replace(link.split("/")[-1].split("?")[0], "bert.0000000000000000")
    result = cli("open", forged)
    assert result.code == 1 and "token does not match" in result.err
    result = cli("open", link[:-4] + "0000")
    assert result.code == 1 and "does NOT match" in result.out
    # a crash while committing a turn leaves the previous one
    submit_listed(cli, kind=kind)
    shown = cli.ok("show", "g1").out
    result = cli("turn", "g1", env={"COMPANION_TEST_CRASH": "commit"})
    assert result.code == 137
    assert cli.ok("show", "g1").out == shown
    assert not (cli.output / "g1" / "turn-001").exists()
    assert "turn 1 processed" in cli.ok("turn", "g1").out
    # reports rendered again are the same bytes; a player's view is their report's text
    folder = cli.output / "g1" / "turn-001"
    rendered = {p.name: p.read_bytes() for p in folder.iterdir()}
    assert {"anna.pdf", "anna.txt", "bert.pdf", "public.pdf", "public.txt"} <= set(rendered)
    cli.ok("report", "g1")
    assert {p.name: p.read_bytes() for p in folder.iterdir()} == rendered
    assert cli.ok("show", "g1", "--player", "anna").out.strip() in \
        (folder / "anna.txt").read_text()
    public = json.loads(cli.ok("show", "g1", "--player", "public", "--json").out)
    assert public["viewer"] == "public"


@pytest.mark.parametrize("kind", PLAYABLE)
def test_every_kind_exports_imports_replays_and_verifies(cli, kind):
    """Export and import, replay (naming the first bad turn of a tampered store), verify."""
    new_any(cli, kind)
    for _ in range(2):
        cli.ok("turn", "g1")
    export = cli.root / "g1.json"
    cli.ok("export", "g1", str(export))
    other = dict(COMPANION_STORE=str(cli.root / "other.sqlite3"))
    assert "imported game g1" in cli.ok("import", str(export), env=other).out
    assert "every hash matches" in cli.ok("replay", "g1", env=other).out
    copied = cli.ok("import", str(export), "--as", "g2", env=other).out
    assert "imported game g2" in copied and "new private links" in copied
    # an import writes no reports: it says so and how, and the next turn or report does not
    # speak of an interrupted run alone
    assert "reports are not written yet: 'companion report g2'" in copied
    db = sqlite3.connect(cli.root / "other.sqlite3")
    tokens = dict(db.execute("SELECT game_id || seat, token FROM players").fetchall())
    db.close()
    seats = len([k for k in tokens if k.startswith("g1")])
    assert all(tokens[f"g1{i}"] != tokens[f"g2{i}"] for i in range(seats))   # a copy's own
    replayed = cli.ok("replay", "g2", env=other).out
    assert "every hash matches" in replayed and "a game imported or moved" in replayed
    assert cli("import", str(export), env=other).code == 1
    assert "every turn matches" in cli.ok("verify", "g1").out
    assert cli("verify").code == 1
    data = json.loads(export.read_text())
    data["turns"][1]["state"]["tampered"] = 99
    export.write_text(json.dumps(data))
    result = cli("import", str(export), "--as", "g3", env=other)
    assert result.code == 1 and "does not match its hash" in result.err
    db = sqlite3.connect(cli.store)
    state = unpack(db.execute("SELECT state FROM turns WHERE number=2").fetchone()[0])
    state["tampered"] = 7
    db.execute("UPDATE turns SET state=? WHERE number=2", (pack(state),))
    db.commit()
    db.close()
    result = cli("replay", "g1")
    assert result.code == 1 and "turn 2:" in result.err
    too_many = next(k for k in KINDS if k.id == kind).max_players + 1
    result = cli("new", kind, "g9", *[a for i in range(too_many) for a in ("--player", f"P{i}")])
    assert result.code == 1 and " players" in result.err


def test_a_pasted_greeting_and_sign_off_are_set_aside_and_named(cli):
    """A player's email pasted into 'orders submit -' with its greeting and sign-off: they are
    set aside as mail sets them aside (comments in the stored text, line numbers kept) and
    named after the lines understood; a line that is no whole greeting is still an error."""
    import json

    new_game(cli)
    text = "Hi judge,\nassign 10 to Alberto Castellano\nThanks,\nAnna\n"
    checked = json.loads(cli.ok("orders", "check", "g1", "Anna", "-", "--json", input=text).out)
    assert checked["ignored"] == ["ignored the greeting 'Hi judge,' (line 1 of <stdin>)",
                                  "ignored the sign-off 'Thanks,' (line 3 of <stdin>)",
                                  "ignored the name 'Anna' under the sign-off (line 4 of <stdin>)"]
    out = cli.ok("orders", "submit", "g1", "Anna", "-", input=text).out
    assert "accepted orders of Anna" in out and "Alberto Castellano" in out
    assert "(ignored the greeting 'Hi judge,' (line 1 of <stdin>))" in out
    shown = json.loads(cli.ok("orders", "show", "g1", "Anna", "--json").out)
    assert shown["pending"][0]["text"].startswith("# Hi judge,\nassign 10 to Alberto")
    before = cli.store.read_bytes()
    result = cli("orders", "submit", "g1", "Anna", "-",
                 input="Hi judge, here are my orders:\nassign 10 to Alberto Castellano\n")
    assert result.code == 1 and "<stdin>:1:1" in result.err
    assert cli.store.read_bytes() == before
    plain = json.loads(cli.ok("orders", "check", "g1", "Anna", "-", "--json",
                              input="assign 10 to Alberto Castellano\n").out)
    assert plain["ignored"] == []


def test_rejected_orders_change_nothing(cli):
    """Gral-specific by nature (its order grammar's messages); every kind:
    test_a_turn_of_every_kind_through_the_command_line."""
    new_game(cli)
    before = cli.store.read_bytes()
    path = cli.write("bad.txt", "assign 10 to Albrto\nmvoe x\nassign 11 to Mansur\n")
    result = cli("orders", "submit", "g1", "Anna", path)
    assert result.code == 1
    assert "bad.txt:1:14: unknown name: no initiate called 'Albrto'" in result.err
    assert "bad.txt:2:1: syntax error: unknown order 'mvoe'" in result.err
    assert "bad.txt:3:1: illegal order: 11 is not a unit" in result.err
    assert "3 errors in" in result.err and "no orders were accepted" in result.err
    assert cli.store.read_bytes() == before
    result = cli("orders", "submit", "g1", "Zed", path)
    assert result.code == 1 and "'Zed' is not a player of game g1" in result.err
    result = cli("orders", "submit", "g1", "Cor", cli.write("ok.txt", "pass\n"))
    assert result.code == 0 and "Cora" in result.out  # a unique prefix names the player
    result = cli("orders", "submit", "g2", "Anna", path)
    assert result.code == 1 and "no game 'g2'" in result.err and "did you mean 'g1'" in result.err
    result = cli("orders", "submit", "g1", "Anna", str(cli.root / "missing.txt"))
    assert result.code == 1 and "file not found" in result.err
    assert "'-' reads standard input" in result.err and str(cli.root) in result.err
    (cli.root / "latin1.txt").write_bytes("assign 3 to Kaspar von Eichst\xe4tt\n".encode("latin-1"))
    result = cli("orders", "submit", "g1", "Anna", str(cli.root / "latin1.txt"))
    assert result.code == 1 and "not UTF-8" in result.err


def test_orders_show_lists_what_each_player_has_pending(cli):
    """The moderator sees each player's pending orders as sent and as understood; a player
    with none is said as such; unknown players and games are refused."""
    new_game(cli)
    cli.ok("orders", "submit", "g1", "Anna", cli.write("a.txt", "# mine\nassign 10 to Alberto\n"))
    out = cli.ok("orders", "show", "g1").out
    assert "Anna: orders for turn 1, sent " in out and "(submission 1):" in out
    assert "  | # mine\n  | assign 10 to Alberto\n  understood as:\n" in out
    assert "Bert: no orders for turn 1" in out and "Cora: no orders for turn 1" in out
    only = cli.ok("orders", "show", "g1", "bert").out
    assert only == "Bert: no orders for turn 1\n"
    assert "'Zed' is not a player of game g1" in cli("orders", "show", "g1", "Zed").err
    assert "no game 'g2'" in cli("orders", "show", "g2").err


def test_bad_new_game_input(cli):
    """Gral-specific by nature (its player range, options and position)."""
    assert "no store at" in cli("show", "g1").err
    result = cli("new", "gral", "g1", "--player", "Anna")
    assert result.code == 1 and "2 to 8 players" in result.err
    result = cli("new", "gral", "g/1", "--player", "A", "--player", "B")
    assert result.code == 1 and "not usable" in result.err
    result = cli("new", "gral", "g1", "--player", "Anna", "--player", "ANNA")
    assert result.code == 1 and "share the file name" in result.err
    result = cli("new", "gral", "g1", "--player", "A", "--player", "B", "--option", "varient=x")
    assert result.code == 1 and "did you mean 'variant'" in result.err
    result = cli("new", "gral", "g1", "--player", "A", "--player", "B", "--option",
                 "variant=original")
    assert result.code == 1 and "for four players" in result.err
    result = cli("new", "chess", "g1", "--player", "A", "--player", "B")
    assert result.code == 1 and "unknown game kind 'chess'" in result.err
    result = cli("new", "gral", "g1", "--player", "A", "--player", "王")
    assert result.code == 1 and "cannot print" in result.err
    setup = cli.write("setup.txt", "game: gral\nplayers: A, B\nfirst: A\nphase: round\nnext: C\n")
    result = cli("new", "gral", "g1", "--setup", setup)
    assert result.code == 1 and "setup.txt:5:7: error: no player called 'C'" in result.err
    (cli.root / "binary.txt").write_bytes(b"\x00\xff\xfe garbage")
    result = cli("new", "gral", "g1", "--setup", str(cli.root / "binary.txt"))
    assert result.code == 1
    assert not cli.store.exists() or "g1" not in cli.ok("new", "gral", "g1", "--player", "A",
                                                         "--player", "B").err


def test_gral_data_export_and_check(cli, tmp_path):
    """Gral-specific by nature (its data files); the other kinds' tests check theirs."""
    import shutil

    from companion.gral.world import DATA_DIR

    data = json.loads(cli.ok("data", "export", "gral").out)
    assert len(data["fields"]) == 25 and len(data["initiates"]) == 8
    copy = tmp_path / "gral-data"
    shutil.copytree(DATA_DIR, copy)
    board = copy / "board.toml"
    board.write_text(board.read_text().replace('headquarters = "Masyaf"', 'headquarters = "Masyf"'))
    result = cli("data", "check", "gral", str(copy))
    assert result.code == 1 and "board.toml:" in result.err and "did you mean 'Masyaf'" in result.err


def test_corrupt_store(cli):
    cli.store.write_bytes(b"garbage" * 1000)
    result = cli("games")
    assert result.code == 0
    result = cli("show", "g1")
    assert result.code == 1 and "is not a companion store" in result.err
    result = cli("new", "gral", "g1", "--player", "A", "--player", "B")
    assert result.code == 1 and "is not a companion store" in result.err
    assert cli.store.read_bytes() == b"garbage" * 1000


def test_dice_option_is_validated(cli):
    """Gral-specific by nature (a Gral opening uses no dice)."""
    new_game(cli)
    result = cli("turn", "g1", "--dice", "3,x")
    assert result.code == 1 and "item 2" in result.err
    out = cli.ok("turn", "g1", "--dice", "3,4").out
    assert "2 supplied dice were not needed: 3, 4" in out
    out = cli.ok("turn", "g1", "--dice", "5").out
    assert "1 supplied die was not needed: 5" in out


def test_wait_mode_refuses_an_empty_turn(cli):
    """Gral-specific: both players are awaited at once (every kind: the last test)."""
    cli.ok("new", "gral", "w", "--player", "A", "--player", "B", "--option", "missing=wait")
    result = cli("turn", "w")
    assert result.code == 1 and "waits for orders from A, B" in result.err
    assert "'companion options w PLAYER'" in result.err     # the game's own id, to copy


def test_sheet_and_print(cli):
    """Gral-specific by nature: Gral's sheets and its own verify (the kit: every kind's own
    tests print it)."""
    new_game(cli)
    cli.ok("orders", "submit", "g1", "Anna", "-", input="assign 3 to Adam\n")
    cli.ok("turn", "g1")
    path = cli.ok("gral", "sheet", "g1", "anna").out.strip()
    assert path.endswith("anna-sheet.pdf") and (cli.root / path).read_bytes().startswith(b"%PDF")
    old = cli.ok("sheet", "g1", "anna", "--out", "old.pdf").out.strip()    # the older spelling
    assert (cli.root / old).read_bytes() == (cli.root / path).read_bytes()
    own = cli.ok("gral", "verify", "g1").out
    assert own.endswith("every sheet matches its commitments and changed only as the orders "
                        "said\n") and own in cli.ok("verify", "g1").out
    assert json.loads(cli.ok("gral", "verify", "g1", "--json").out)["ok"] is True
    result = cli("gral", "verify")
    assert result.code == 1 and "give either GAME_ID or --disclosure FILE" in result.err
    kit = cli.ok("print", "gral", "--paper", "letter", "--backs", "duplex-long").out.strip()
    assert (cli.root / kit).read_bytes().startswith(b"%PDF")
    result = cli("print", "gral", "--paper", "a3")
    assert result.code == 2 and "unknown paper size" in result.err
    result = cli("print", "gral", "--only", "cardz")
    assert result.code == 2 and "this kit offers" in result.err
    result = cli("print", "gral", "--card", "63x")
    assert result.code == 2 and "the height is missing" in result.err
    cal = cli.ok("print", "calibrate", "--paper", "letter").out.strip()
    assert (cli.root / cal).read_bytes().startswith(b"%PDF")
    only = cli.ok("print", "gral", "--only", "standees", "--out", "pawns.pdf").out.strip()
    assert only == "pawns.pdf" and (cli.root / "pawns.pdf").exists()


def test_demo_runs_twice_byte_identical(cli, tmp_path):
    """Gral-specific by nature: the demo is a Gral game ('companion demo' runs the first
    kind's demo; 'companion gral demo' is the same)."""
    out = cli.ok("demo").out
    assert "Winner: Gregor" in out
    first = {p.relative_to(cli.output / "demo"): p.read_bytes()
             for p in (cli.output / "demo").rglob("*") if p.is_file()}
    out = cli.ok("gral", "demo").out
    assert "created game demo-2" in out
    second = {p.relative_to(cli.output / "demo-2"): p.read_bytes()
              for p in (cli.output / "demo-2").rglob("*") if p.is_file()}
    assert first.keys() == second.keys() and len(first) > 50
    differing = [k for k in first if first[k] != second[k]]
    # only the game id differs between the two, which appears in every report
    assert all(k.suffix in (".pdf", ".txt", ".json") for k in differing)
    sheets = str(cli.output / "demo" / "turn-006" / "disclosure.json")
    assert "every sheet matches" in cli.ok("verify", "--disclosure", sheets).out
    assert cli.ok("gral", "verify", "--disclosure", sheets).out == \
        cli.ok("verify", "--disclosure", sheets).out


def test_reports_rendered_again_are_the_same_files_whatever_the_environment(cli):
    """The demo sets its processing date inside its own process; rendering a turn again later,
    in another environment, gives the same bytes: the PDF dates come from the stored turn."""
    cli.ok("demo")
    folder = cli.output / "demo" / "turn-003"
    before = {p.name: p.read_bytes() for p in folder.iterdir()}
    for env in ({"SOURCE_DATE_EPOCH": ""}, {"SOURCE_DATE_EPOCH": "86400"}):
        cli.ok("report", "demo", "--turn", "3", env=env)
        after = {p.name: p.read_bytes() for p in folder.iterdir()}
        assert after == before, [name for name in before if after.get(name) != before[name]]


@pytest.mark.parametrize("kind", PLAYABLE)
def test_a_waiting_game_names_whom_it_waits_for(cli, kind):
    cli.ok("new", kind, "w", "--player", "Anna", "--player", "Bert", "--seed", "3",
           "--option", "missing=wait")
    result = cli("turn", "w")
    assert result.code == 1 and re.search(r"waits for orders from (Anna|Bert)", result.err), \
        result.err
    assert "nobody" not in result.err


def test_list_shows_where_each_game_stands(cli):
    """'companion list': the store's games with their turn, state, whose orders are in, whom
    the next turn waits for and the deadline; the same as JSON."""
    empty = cli("list")
    assert empty.code == 1 and "no store at" in empty.err     # nothing is created
    cli.ok("new", "gral", "g1", "--player", "Anna", "--player", "Bert", "--seed", "4",
           "--option", "first=Anna", "--option", "missing=wait")
    cli.ok("new", "gral", "g2", "--player", "Anna", "--player", "Bert", "--seed", "5")
    cli.ok("orders", "submit", "g1", "Anna", "-", input="assign 3 to Adam\n")
    cli.ok("deadline", "g1", "2031-05-01 18:00")
    lines = cli.ok("list").out.splitlines()
    assert lines[0].split() == ["game", "kind", "turn", "state", "orders", "in", "waiting",
                                "for", "deadline"]
    assert lines[1].split() == ["g1", "gral", "0", "running", "Anna", "Bert", "2031-05-01",
                                "18:00", "UTC"], lines
    assert lines[2].split()[:5] == ["g2", "gral", "0", "running", "-"]
    listed = json.loads(cli.ok("list", "--json").out)
    assert listed[0] == {"id": "g1", "kind": "gral", "turn": 0, "state": "running",
                         "submitted": ["Anna"], "awaited": ["Bert"],
                         "deadline": "2031-05-01 18:00 UTC"}
    cli.ok("deadline", "g1", "--hold")
    assert json.loads(cli.ok("list", "--json").out)[0]["state"] == "on hold"


def test_a_turn_run_by_hand_before_its_deadline_with_orders_missing_needs_now(cli):
    """A game played by email waits for orders until its deadline: 'companion turn' typed by
    hand then (twice by accident, or after the mail pass ran the turn) would run the next turn
    at once with every missing player's defaults. It is refused, changing nothing, and says
    whose orders are missing and how to run it all the same (--now)."""
    cli.ok("new", "gral", "g1", "--player", "Anna", "--player", "Bert", "--seed", "4")
    cli.ok("deadline", "g1", "2031-05-01 18:00")
    cli.ok("orders", "submit", "g1", "Anna", "-", input="assign 3 to Adam\n")
    refused = cli("turn", "g1")
    assert refused.code == 1, refused
    assert "game g1: turn 1 is due at its deadline, 2031-05-01 18:00 UTC, and no orders " \
           "have come yet from Bert; nothing was done" in refused.err
    assert "'companion turn g1 --now' runs it now" in refused.err and "Anna" not in refused.err
    assert json.loads(cli.ok("list", "--json").out)[0]["turn"] == 0
    assert "turn 1 processed" in cli.ok("turn", "g1", "--now").out
    # the deadline was that of turn 1: turn 2 has none, and runs as before
    assert "turn 2 processed" in cli.ok("turn", "g1").out


def test_options_with_nothing_to_send_says_so_on_stderr(cli):
    """'companion options' for a player with no order line now (Mayhem: not his turn) prints
    nothing on standard output (it stays a list of lines) and says why on stderr."""
    cli.ok("new", "mayhem", "m1", "--player", "Anna", "--player", "Bert", "--seed", "3")
    result = cli.ok("options", "m1", "Bert")
    assert result.out == "" and "no order lines for Bert now in game m1" in result.err
    awaited = json.loads(cli.ok("list", "--json").out)[0]["awaited"]
    assert awaited and "Bert" not in awaited
    assert f"nothing is asked of Bert now; the game waits for {', '.join(awaited)}" in result.err
    assert "companion show m1 --player Bert" in result.err


def test_a_kind_without_commands_of_its_own_says_how_it_is_played(cli):
    """README: 'companion KIND --help' lists a kind's own commands; a kind with none (Mayhem,
    Fluxx, the CCG) says so and names the shared commands, instead of 'No such command'."""
    for kind, title in (("mayhem", "Medieval Mayhem"), ("fluxx", "Monty Python Fluxx")):
        result = cli(kind, "--help")
        assert result.code == 2 and f"{title} ('{kind}') has no commands of its own" in result.err
        assert f"companion new {kind} GAME_ID" in result.err and "No such command" not in result.err
    assert "roll" in cli.ok("koc", "--help").out


def test_files_that_are_not_there_say_where_to_look(cli):
    """A newcomer's wrong paths: a disclosure looked for beside the game's folder (it is in the
    last turn's folder), a data folder not copied yet; each says what to give instead."""
    result = cli("verify", "--disclosure", str(cli.root / "chance-disclosure.json"))
    assert result.code == 1 and "file not found" in result.err and "Errno" not in result.err
    assert "turn-NNN/chance-disclosure.json" in result.err and "companion disclose" in result.err
    result = cli("verify", "--disclosure", cli.write("broken.json", "{not json"))
    assert result.code == 1 and "broken.json:1:2: not valid JSON" in result.err
    result = cli("data", "check", "gral", str(cli.root / "my-data"))
    assert result.code == 1 and "no folder" in result.err
    assert "cp -r " in result.err and "companion data check gral my-gral-data" in result.err
    result = cli("data", "check", "gral", cli.write("a-file.txt", "x"))
    assert result.code == 1 and "is a file, not a folder" in result.err
    result = cli("verify")
    assert result.code == 1 and "'companion verify --disclosure FILE' checks" in result.err
    result = cli("verify", "g1", "--disclosure", "x.json")
    assert result.code == 1 and "not both" in result.err
    cli.ok("new", "gral", "g1", "--player", "Anna", "--player", "Bert", "--seed", "1")
    result = cli("export", "g1", str(cli.root / "no-such-folder" / "g1.json"))
    assert result.code == 1 and "no-such-folder does not exist: create it first" in result.err


def test_a_saved_message_names_its_body_in_errors(cli):
    """README: 'orders submit' reads a whole saved message. Its errors count lines from the
    first line of the body, so they name the body, not the file (whose line 3 is a header);
    nothing is stored."""
    new_game(cli)
    message = ("From: Cora <cora@example.org>\nTo: judge@example.org\nSubject: my orders\n"
               "Content-Type: text/plain; charset=utf-8\n\nHello judge,\n\npas\n")
    path = cli.write("cora.eml", message)
    before = cli.store.read_bytes()
    result = cli("orders", "submit", "g1", "Cora", path)
    assert result.code == 1 and f"the body of {path}:3:1: syntax error" in result.err
    assert "1 error in the body of" in result.err and cli.store.read_bytes() == before
    good = cli.ok("orders", "check", "g1", "Cora", cli.write("ok.eml", message.replace(
        "\npas\n", "\npass\n"))).out
    assert "(line 1 of the body of" in good and "ignored the greeting 'Hello judge,'" in good
    bare = cli("orders", "check", "g1", "Cora", "-", input="Hello judge,\n\npas\n")
    assert "<stdin>:3:1: syntax error" in bare.err          # a bare body: its own lines


def test_reading_orders_at_a_terminal_says_how_to_end_them(cli):
    """README: 'companion orders submit g1 Bert -' reads the orders from standard input. Typed
    at a terminal it waited without a word; now it says what it waits for and how to end."""
    import os
    import pty
    import subprocess

    new_game(cli)
    master, slave = pty.openpty()
    try:
        proc = subprocess.Popen([cli.script, "orders", "check", "g1", "Anna", "-"],
                                cwd=cli.root, env=cli.env, stdin=slave, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True)
        os.close(slave)
        os.write(master, b"pass\n\x04")
        out, err = proc.communicate(timeout=60)
    finally:
        os.close(master)
    assert proc.returncode == 0, err
    assert "reading from standard input" in err and "Ctrl-D" in err
    assert "orders of Anna are valid" in out
    piped = cli.ok("orders", "check", "g1", "Anna", "-", input="pass\n")
    assert "standard input" not in piped.err          # piped in: nothing to say
