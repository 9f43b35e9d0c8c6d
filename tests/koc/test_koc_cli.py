"""The Knights of Camelot verbs of the installed command line: data, and its own commands
'companion koc roll|route' (and their older spellings 'companion roll|route koc')."""
from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import companion.koc

DATA = Path(companion.koc.__file__).parent / "data"


def test_data_export(cli):
    data = json.loads(cli.ok("data", "export", "koc").out)
    assert {"areas", "knights", "kings", "ladies", "chits", "charts"} <= set(data)
    assert (len(data["knights"]), len(data["kings"]), len(data["ladies"])) == (75, 15, 30)
    names = {a["name"] for a in data["areas"]}
    for area in data["areas"]:
        assert area["name"] and area["kind"] and isinstance(area["adjacent"], list)
        assert set(area["adjacent"]) <= names


def test_data_check(cli, tmp_path):
    copy = tmp_path / "koc-data"
    shutil.copytree(DATA, copy)
    assert "the data is valid" in cli.ok("data", "check", "koc", str(copy)).out
    areas = copy / "areas.toml"
    areas.write_text(areas.read_text().replace('kind = "sea"', 'kind = "ocean"', 1))
    result = cli("data", "check", "koc", str(copy))
    assert result.code == 1
    assert re.search(r"areas\.toml:\d+:\d+: error: area 'North Sea': unknown kind 'ocean'",
                     result.err)
    assert "did you mean 'sea'" in result.err
    assert cli("data", "check", "koc", str(tmp_path / "missing")).code == 1


def test_roll(cli):
    assert cli.ok("koc", "roll", "countryside", "--dice", "3,4").out.strip() == \
        "Countryside encounters: 3+4 = 7 -> Knights riding (1-6) [knights]"
    assert cli.ok("roll", "koc", "countryside", "--dice", "3,4").out.strip() == \
        "Countryside encounters: 3+4 = 7 -> Knights riding (1-6) [knights]"
    bad, old = cli("koc", "roll", "nosuchchart"), cli("roll", "koc", "nosuchchart")
    assert (bad.code, bad.err) == (old.code, old.err)
    result = cli("roll", "gral", "board")
    assert result.code == 1 and "has no 'roll' command" in result.err
    result = cli("roll", "chess", "board")
    assert result.code == 1 and "unknown game kind 'chess'" in result.err
    out = cli.ok("roll", "koc", "knight").out
    assert re.match(r"Knight reactions: \d\+\d = \d+ -> ", out)
    result = cli("roll", "koc", "countrysid", "--dice", "3,x")
    assert result.code == 1 and "item 2" in result.err
    result = cli("roll", "koc", "nosuchchart")
    assert result.code == 1 and "unknown chart" in result.err and "countryside" in result.err


def test_route(cli):
    out = cli.ok("koc", "route", "camelot", "york").out
    assert cli.ok("route", "koc", "camelot", "york").out == out
    assert out.startswith("Camelot Castle -> ") and out.rstrip().endswith("turns at 3 areas a turn)")
    assert "ship moves" in cli.ok("route", "koc", "Camelot", "St. Andrew", "--by", "ship").out
    assert " -> " in cli.ok("route", "koc", "Tintagel", "Carbonek", "--by", "land").out
    result = cli("route", "koc", "Camelott", "Yrok")
    assert result.code == 1 and "did you mean" in result.err
    assert cli("route", "koc", "Camelot", "York", "--by", "air").code == 1


def _state(cli, gid):
    from companion.store import Store

    store = Store(cli.store)
    try:
        return store.turn(gid).state
    finally:
        store.close()


def test_a_game_by_email_through_the_command_line(cli, tmp_path):
    """A moderator's whole round: new game, options, orders checked and refused with their
    line and column, accepted with what was understood, turns adjudicated, reports for each
    player, views, positions, replay, export and import."""
    cli.ok("new", "koc", "k1", "--player", "Anna", "--player", "Bert <bert@example.org>",
           "--player", "Cora", "--seed", "5")
    assert "[data, charts and printables only]" not in cli.ok("games").out
    lines = cli.ok("options", "k1", "Anna").out.splitlines()
    assert "stay" in lines and any(line.startswith("move ") for line in lines)
    bad = tmp_path / "anna.txt"
    bad.write_text("stay\nmove Atlantis\non yeld: yes\n")
    result = cli("orders", "check", "k1", "Anna", str(bad))
    assert result.code == 1 and "anna.txt:2:" in result.err and "anna.txt:3:" in result.err
    assert "no orders were accepted" in result.err and "did you mean 'yield'" in result.err
    result = cli("orders", "submit", "k1", "Anna", str(bad))
    assert result.code == 1
    game = {}
    for turn in range(1, 5):
        for player in ("Anna", "Bert", "Cora"):
            options = cli.ok("options", "k1", player).out.splitlines()
            move = next((o for o in options if o.startswith("move ")), "stay")
            text = f"{move}\non encounter monster: avoid\non yield wl_left<=1: yes\n"
            out = cli.ok("orders", "submit", "k1", player, "-", input=text).out
            assert "step 1:" in out and "standing answer 2: on yield wl_left<=1: yes" in out
        cli.ok("turn", "k1")
        folder = cli.output / "k1" / f"turn-{turn:03d}"
        for name in ("anna", "bert", "cora", "public"):
            assert (folder / f"{name}.pdf").read_bytes().startswith(b"%PDF")
            game[name] = (folder / f"{name}.txt").read_text()
        assert "Your Adventure Journal" in game["anna"] and "Chivalry Points" in game["anna"]
        assert "Your Adventure Journal" not in game["public"]
    state = _state(cli, "k1")
    assert state["koc"]["turn"] == 5
    view = cli.ok("show", "k1", "--player", "Bert").out
    assert "Your Adventure Journal" in view and "Report for:   Bert" in view
    position = tmp_path / "k1.toml"
    position.write_text(cli.ok("show", "k1", "--position").out)
    cli.ok("new", "koc", "k2", "--setup", str(position))      # the players come from it
    assert _state(cli, "k2")["knights"] == state["knights"]
    # a moderator's repair: one field edited, everything else as it was
    text = position.read_text()
    head, _, rest = text.partition("[knight.Anna]")
    rest = re.sub(r"(?m)^cp = \d+$", "cp = 123", rest, count=1)
    position.write_text(head + "[knight.Anna]" + rest)
    cli.ok("new", "koc", "k4", "--setup", str(position))
    repaired = _state(cli, "k4")
    assert repaired["knights"]["Anna"]["cp"] == 123
    assert repaired["knights"]["Bert"] == state["knights"]["Bert"]
    assert {k: v for k, v in repaired["knights"]["Anna"].items() if k != "cp"} == \
        {k: v for k, v in state["knights"]["Anna"].items() if k != "cp"}
    assert "every hash matches" in cli.ok("replay", "k1").out
    cli.ok("export", "k1", str(tmp_path / "k1.json"))
    cli.ok("import", str(tmp_path / "k1.json"), "--as", "k3")
    assert "every hash matches" in cli.ok("replay", "k3").out


def test_a_paused_turn_asks_and_resumes(cli, tmp_path):
    """With missing=wait a question nobody answered pauses the turn; the report asks it, the
    options list its answers, a new move is refused while the turn waits, and the answer
    resumes the turn with the same dice."""
    cli.ok("new", "koc", "w1", "--player", "Anna", "--player", "Bert", "--seed", "11",
           "--option", "missing=wait")
    asked = None
    for _ in range(40):
        state = _state(cli, "w1")
        if state["pending"]:
            asked = next(iter(state["pending"]))
            break
        for player in ("Anna", "Bert"):
            options = cli.ok("options", "w1", player).out.splitlines()
            move = next((o for o in options if o.startswith("move ")), "stay")
            cli.ok("orders", "submit", "w1", player, "-", input=move + "\n")
        cli.ok("turn", "w1")
    assert asked, "no question was ever asked in 40 turns"
    question = state["pending"][asked]["question"]
    from companion.store import Store

    store = Store(cli.store)
    number = store.turn("w1").number
    slug = next(p.slug for p in store.game("w1").players if p.name == asked)
    store.close()
    report = (cli.output / "w1" / f"turn-{number:03d}" / f"{slug}.txt").read_text()
    assert " ".join(question["prompt"].split()) in " ".join(report.split())
    options = cli.ok("options", "w1", asked).out.splitlines()
    assert options == [f"answer {question['key']}: {o}" for o in question["options"]]
    result = cli("orders", "submit", "w1", asked, "-", input="stay\n")
    assert result.code == 1 and "waiting for an answer" in result.err
    cli.ok("orders", "submit", "w1", asked, "-", input=options[-1] + "\n")
    cli.ok("turn", "w1")
    after = _state(cli, "w1")
    again = after["pending"].get(asked)
    assert again is None or again["question"] != question, "the answer was not taken"
    assert "every hash matches" in cli.ok("replay", "w1").out



def test_knights_ride_together_by_email_and_reports_are_byte_identical(make_cli, tmp_path,
                                                                        fixed_date):
    """Two knights who start together form a party by email ('join' and the leader's 'on
    party: yes'), ride on as one, see it in their reports and on the map, and part again.
    Every report renders again byte for byte, and the same game played in a second store from
    the same seed and orders gives the same PDFs."""
    def game(folder) -> tuple:
        cli = make_cli(folder)
        cli.ok("new", "koc", "p1", "--player", "Anna", "--player", "Bert", "--seed", "8",
               "--option", "scenario=grail")           # both start at Camelot Castle
        assert "join Bert" in cli.ok("options", "p1", "Anna").out.splitlines()
        cli.ok("orders", "submit", "p1", "Anna", "-", input="join Bert\n")
        cli.ok("orders", "submit", "p1", "Bert", "-", input="on party: yes\nstay\n")
        cli.ok("turn", "p1")
        assert "leave party" in cli.ok("options", "p1", "Anna").out.splitlines()
        cli.ok("orders", "submit", "p1", "Anna", "-", input="leave party\nstay\n")
        cli.ok("turn", "p1")
        pdfs = {(t, n): (cli.output / "p1" / f"turn-{t:03d}" / f"{n}.pdf").read_bytes()
                for t in (1, 2) for n in ("anna", "bert", "public")}
        return cli, pdfs

    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    cli, first = game(tmp_path / "a")
    turn1 = cli.output / "p1" / "turn-001"
    anna = (turn1 / "anna.txt").read_text()
    assert "Anna joins Bert's party" in anna and "joint turn of the party of Bert, Anna" in anna
    assert "leads a party with Anna" in (turn1 / "public.txt").read_text()
    assert "breaks up" in (cli.output / "p1" / "turn-002" / "anna.txt").read_text()
    cli.ok("report", "p1", "--turn", "1")
    assert all((turn1 / f"{n}.pdf").read_bytes() == first[(1, n)]
               for n in ("anna", "bert", "public"))
    _, second = game(tmp_path / "b")
    assert second == first
    assert "every hash matches" in cli.ok("replay", "p1").out


def test_first_turn_without_orders_runs_on_defaults(cli):
    """missing=default (README, Options common to all games; docs/koc-engine.md, Turns): a new
    game whose players sent nothing plays its first turn on the defaults (each knight stays or
    heads for his first obligation; every question takes its default) instead of waiting for
    nobody. With missing=wait the turn waits, and names the player whose turn comes first."""
    out = cli.ok("new", "koc", "d1", "--player", "Anna", "--player", "Bert", "--seed", "3",
                 "--option", "missing=default").out
    assert "orders are now needed from: Bert, Anna" in out
    out = cli.ok("turn", "d1").out
    assert "turn 1 processed (now, in the game's own count: game turn 2 next)" in out
    state = _state(cli, "d1")
    assert state["koc"]["turn"] == 2 and not state["pending"]
    report = (cli.output / "d1" / "turn-001" / "anna.txt").read_text()
    assert "No orders: Anna stays where he is." in report
    assert "- Anna's turn (game turn 1)" in report and "- —" not in report   # one bullet
    public = (cli.output / "d1" / "turn-000" / "public.txt").read_text()
    assert "Nothing happened that everybody saw." in public
    assert "Nothing your knight witnessed" not in public
    assert "turn 2 processed" in cli.ok("turn", "d1").out       # and so on, turn after turn
    cli.ok("new", "koc", "w2", "--player", "Anna", "--player", "Bert", "--seed", "3",
           "--option", "missing=wait")
    result = cli("turn", "w2")
    assert result.code == 1 and "waits for orders from Bert" in result.err
    assert _state(cli, "w2")["koc"]["turn"] == 1


SHARED_ADVENTURE = """\
game = "koc"
order = ["Anna", "Bert"]

[merlin]
area = "Argyll"

[knight.Anna]
cp = 100
vp = 20
at = "Tintagel"
where = "inside"
lord = "King Mark"

[knight.Bert]
cp = 100
vp = 20
at = "Tintagel"
where = "inside"
lord = "King Mark"
"""


def test_an_adventure_heard_shared_and_paid_by_email(cli, tmp_path):
    """Issue 14 end to end through the command line: Anna asks her Lord for an adventure
    (dice: Luck 4, King Mark met on 6, granted on 6, adventure 2:4 Rout five brigands, local),
    invites Bert to share it; Bert joins her party and agrees; the party rides to the site,
    routs the brigands, and the 5 VP and 17 CP are shared, the odd points to Anna, who heard of
    it first. The reports say so, and the game replays."""
    setup = tmp_path / "pos.toml"
    setup.write_text(SHARED_ADVENTURE)
    cli.ok("new", "koc", "k1", "--setup", str(setup), "--seed", "3")
    cli.ok("orders", "submit", "k1", "Anna", "-", input="stay\nrequest adventure of lord\n")
    cli.ok("orders", "submit", "k1", "Bert", "-", input="stay\n")
    cli.ok("turn", "k1", "--dice", "4,6,6,2,4")
    anna = (cli.output / "k1" / "turn-001" / "anna.txt").read_text()
    assert "Adventures: 2, 4 -> Rout five brigands" in anna
    assert "share adventure A-1 with Bert" in cli.ok("options", "k1", "Anna").out
    out = cli.ok("orders", "submit", "k1", "Anna", "-",
                 input="move Cornwall\nshare adventure A-1 with Bert\non party: yes\n").out
    assert "invite Bert to share adventure A-1" in out
    cli.ok("orders", "submit", "k1", "Bert", "-", input="join Anna\nanswer share: yes\n")
    cli.ok("turn", "k1")
    folder = cli.output / "k1" / "turn-002"
    anna, bert = (folder / "anna.txt").read_text(), (folder / "bert.txt").read_text()
    for text in (anna, bert):
        assert "Adventure 2:4 Rout five brigands is accomplished." in text
    state = _state(cli, "k1")
    assert (state["knights"]["Anna"]["vp"], state["knights"]["Anna"]["cp"]) == (23, 109)
    assert (state["knights"]["Bert"]["vp"], state["knights"]["Bert"]["cp"]) == (22, 108)
    bad = cli("orders", "check", "k1", "Anna", "-", input="abandon adventure Z-9\n")
    assert bad.code == 1 and "<stdin>:1:1:" in bad.err and "holds no adventure 'Z-9'" in bad.err
    assert "every hash matches" in cli.ok("replay", "k1").out


PK_TOURNAMENT = """\
game = "koc"
order = ["Anna", "Bert"]

[merlin]
area = "Argyll"

[castles]
"Anna's castle" = {area = "Hampshire", owner = "Anna", kind = "pk"}

[knight.Anna]
cp = 100
vp = 20
own_castle = "Anna's castle"
at = {area = "Hampshire", where = "inside", castle = "Anna's castle"}
lord = "King Arthur"

[knight.Bert]
cp = 100
vp = 20
at = "Hampshire"
lord = "King Arthur"
"""


def test_a_tournament_declared_and_held_by_email(cli, tmp_path):
    """Issue 14 end to end: Anna declares a tournament in her castle; Bert is told, and his
    next orders list 'attend tournament'; he attends, is admitted, and the tournament is held
    with three NPKs: the lists and every joust are in every report, the public one too."""
    setup = tmp_path / "pk.toml"
    setup.write_text(PK_TOURNAMENT)
    cli.ok("new", "koc", "k2", "--setup", str(setup), "--seed", "4")
    assert "declare tournament" in cli.ok("options", "k2", "Anna").out.splitlines()
    out = cli.ok("orders", "submit", "k2", "Anna", "-", input="declare tournament\n").out
    assert "declare a tournament at his castle" in out
    cli.ok("orders", "submit", "k2", "Bert", "-", input="stay\non encounter: avoid\n")
    cli.ok("turn", "k2")
    assert "attend tournament" in cli.ok("options", "k2", "Bert").out.splitlines()
    cli.ok("orders", "submit", "k2", "Anna", "-", input="stay\n")
    out = cli.ok("orders", "submit", "k2", "Bert", "-", input="attend tournament\nstay\n").out
    assert "answer tournament: yes" in out
    cli.ok("turn", "k2")
    folder = cli.output / "k2" / "turn-002"
    for name in ("anna", "bert", "public"):
        text = (folder / f"{name}.txt").read_text()
        assert "Anna's tournament at Anna's castle begins: Anna, Bert ride in it." in text
        assert "the lists, from the top: 1." in text and "joust 1: Bert" in text
        assert "is the champion of the" in text
    assert "every hash matches" in cli.ok("replay", "k2").out


def test_a_knaves_option_that_names_nobody_says_what_it_takes(cli):
    """'--option knaves=yes' (a yes/no guess) is told the option names the players whose
    knights start as Knaves, with an example; nothing is created."""
    result = cli("new", "koc", "k1", "--player", "Anna", "--player", "Bert",
                 "--option", "knaves=yes")
    assert result.code == 1 and "'yes' is not a player of this game" in result.err
    assert "the players whose knights start as Knaves, e.g. knaves=Anna" in result.err
    assert "k1" not in cli.ok("list").out
