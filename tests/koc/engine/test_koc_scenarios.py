"""Scenarios as files (SCENARIOS, Designing a Scenario) and the end of a game (VICTORY
CONDITIONS; KNAVES, Interaction of Knights and Knaves): the rulebook's scenarios shipped as
files with the book's values, a designed scenario's mistakes located, its terms kept in the
game, a scenario's last turn, winners on both sides, the final report and `companion show`.
Cases sc01... (docs/koc-scenarios.md)."""
from __future__ import annotations

import json
import textwrap

import pytest

from companion.errors import DataError, DataErrors
from companion.koc import scenarios
from companion.koc.engine import knight as kn
from companion.koc.engine import victory
from tests.koc.kocplay import play_states


def _errors(exc) -> list:
    return exc.errors if isinstance(exc, DataErrors) else [exc]


@pytest.mark.parametrize("key,cp,vp,vl,wl,arthurian,homeland,goal", [
    ("basic", 50, 5, 10, 5, False, "random", "round_table"),
    ("advanced", 40, 4, 10, 4, False, "random", "round_table"),
    ("grail", 100, 25, 4, 10, True, "camelot", "grail"),
    ("campaign", 30, 3, 10, 3, False, "random", "grail"),
])
def test_sc01_the_rulebooks_scenarios_ship_as_files(key, cp, vp, vl, wl, arthurian, homeland,
                                                    goal):
    """SCENARIOS: each scenario's starting CP and VP (and so its VL and WL), who starts in
    King Arthur's service, and its goal."""
    terms = scenarios.builtin(key)
    assert (terms["cp"], terms["vp"], terms["arthurian"], terms["homeland"], terms["goal"]) \
        == (cp, vp, arthurian, homeland, goal)
    record = kn.new_knight("A", "A", terms["cp"], terms["vp"])
    assert (kn.vl(record), kn.wl(record)) == (vl, wl)
    # Basic Scenario, Goal: 100 CP and VL 5 or better before the petition
    assert (terms["petition_cp"], terms["petition_max_vl"], terms["knave_kvp"]) == (100, 5, 10)


def test_sc02_a_designed_scenario_takes_the_rest_from_its_base(tmp_path):
    """Designing a Scenario: starting values, victory conditions and rules in force are the
    file's; what it leaves out is the scenario it is based on."""
    path = tmp_path / "long.toml"
    path.write_text(textwrap.dedent("""\
        name = "The Long Road"
        based_on = "campaign"
        [start]
        cp = 60
        equipment = ["horse", "sword"]
        [victory]
        turn_limit = 30
        [rules]
        optional = ["Stamina", "stamina-unhorse"]
        """))
    terms = scenarios.resolve(str(path))
    assert terms["name"] == "The Long Road" and terms["key"] == "campaign"
    assert (terms["cp"], terms["vp"], terms["goal"], terms["turn_limit"]) == (60, 3, "grail", 30)
    assert terms["equipment"] == ["horse", "sword"]
    assert terms["rules"] == ["stamina", "superior_knights"]     # the old name, read as meant


def test_sc03_every_mistake_in_a_scenario_file_is_located(tmp_path):
    """Bad input: each mistake with its file, line and column, and a suggestion."""
    path = tmp_path / "bad.toml"
    path.write_text(textwrap.dedent("""\
        name = "Bad"
        based_on = "basic"
        [start]
        cp = "fifty"
        homeland = "camelott"
        equipment = ["horse", "helmet"]
        [victory]
        goal = "grial"
        turnlimit = 3
        [rules]
        optional = ["devil"]
        [starts]
        vp = 3
        """))
    with pytest.raises((DataError, DataErrors)) as err:
        scenarios.resolve(str(path))
    found = {(e.line, e.message.split(":")[0]) for e in _errors(err.value)}
    text = "\n".join(e.render() for e in _errors(err.value))
    assert any(line == 4 for line, _ in found), text            # cp must be a whole number
    assert any(line == 9 for line, _ in found), text            # turnlimit
    assert any(line == 12 for line, _ in found), text           # [starts]
    assert "did you mean 'turn_limit'" in text and "did you mean '[start]'" not in text
    assert "bad.toml:4:" in text
    path.write_text('name = "Bad"\nbased_on = "basik"\n')
    with pytest.raises(DataError) as err:
        scenarios.resolve(str(path))
    assert err.value.line == 2 and "did you mean 'basic'" in err.value.render()
    path.write_text('name = "Bad\n')
    with pytest.raises(DataError) as err:
        scenarios.resolve(str(path))
    assert "TOML syntax" in err.value.message and err.value.line == 1


def test_sc04_values_checked_after_the_types(tmp_path):
    """The values themselves: a goal, a homeland, equipment, a rule that exist."""
    path = tmp_path / "bad.toml"
    path.write_text(textwrap.dedent("""\
        based_on = "basic"
        [start]
        homeland = "camelott"
        equipment = ["horse", "helmet"]
        [victory]
        goal = "grial"
        [rules]
        optional = ["devil"]
        """))
    with pytest.raises(DataErrors) as err:
        scenarios.resolve(str(path))
    text = "\n".join(e.render() for e in err.value.errors)
    for needle in ("did you mean 'camelot'", "'helmet' is not equipment", "did you mean 'grail'",
                   "did you mean 'devils'"):
        assert needle in text, text
    assert {e.line for e in err.value.errors} == {3, 4, 6, 8}


def test_sc05_no_such_scenario():
    from companion.errors import CompanionError

    with pytest.raises(CompanionError) as err:
        scenarios.resolve("grial")
    assert "did you mean 'grail'" in err.value.render()


def _terms(**changes) -> dict:
    terms = scenarios.builtin(changes.pop("based_on", "basic"))
    terms.update(changes)
    return terms


def test_sc06_a_scenarios_last_turn_ends_the_game():
    """A designed scenario's victory condition: after its last game turn the knight standing
    best (VL, then CP) wins, and the game is over."""
    states = list(play_states(11, 3, 10, {"scenario": _terms(turn_limit=3, knaves=False)}))
    last = states[-1]
    assert last["koc"]["over"] and last["koc"]["turn"] == 3 and len(states) == 4
    best = victory.standings(last)[0]
    assert last["koc"]["winner"] == best["player"]
    texts = [e["text"] for e in last["events"]]
    assert "Game turn 3 was the scenario's last." in texts and "The game is over." in texts


def test_sc07_a_mixed_game_has_a_knight_winner_and_a_knave_winner():
    """Interaction of Knights and Knaves: with Knaves at the table the game goes on after the
    knights' winner, until a Knave wins too (docs/koc-engine.md, "The end of a game")."""
    state = next(play_states(3, 3, 0))
    names = state["koc"]["order"]
    state["knights"][names[2]]["knave"] = {"acts": {}, "kvp": 0, "sp": 0}
    said = []
    assert victory.record(state, said.append, names[0], victory.KNIGHT, "wins somehow")
    assert not state["koc"]["over"]
    assert not victory.record(state, said.append, names[1], victory.KNIGHT, "too late")
    assert victory.record(state, said.append, names[2], victory.KNAVE, "has 10 KVP")
    assert state["koc"]["over"] and said[-1] == "The game is over."
    assert [w[:2] for w in victory.winners(state)] == [("knight", names[0]),
                                                       ("knave", names[2])]


def test_sc08_a_knave_alone_ends_the_game_when_he_wins():
    state = next(play_states(3, 2, 0))
    for pk in state["knights"].values():
        pk["knave"] = {"acts": {}, "kvp": 0, "sp": 0}
    victory.record(state, lambda t: None, state["koc"]["order"][1], victory.KNAVE, "has 10 KVP")
    assert state["koc"]["over"]


def test_sc09_the_round_table_does_not_end_a_grail_game(table):
    """Campaign Game: being made a Knight of the Round Table is a step, not the goal."""
    from companion.koc.engine import requests
    from tests.koc.engine.kocpos import pos

    t = table('scenario = "campaign"\n' + pos(cp=120, vp=30), dice=[6, 6])
    s = t.session()
    assert requests.round_table_test(s)
    assert s.pk["arthurian"] and not t.state["koc"]["over"] and not t.state["koc"]["winner"]
    t = table('scenario = "advanced"\n' + pos(cp=120, vp=30), dice=[6, 6])
    assert requests.round_table_test(t.session())
    assert t.state["koc"]["over"] and t.state["koc"]["winner"] == t.state["koc"]["order"][0]


def test_sc09b_animal_form_is_no_bar_to_the_round_table(table):
    """Basic Scenario: a knight enchanted into an animal may still petition King Arthur and be
    made a Knight of the Round Table (120 CP, 40 VP: VL 3; Arthur's answer 12 grants, the
    VL+1 test passes on a 4), and he wins the game."""
    from companion.koc.engine import requests
    from tests.koc.engine.kocpos import pos

    t = table(pos(cp=120, vp=40, at="Camelot Castle", where="inside", lord="King Mark",
                  anna='animal = "Hart"\nluck = 4'),
              dice=[6, 6, 4], orders={"Anna": "request service of arthur"})
    requests.requests_phase(t.session())
    rec = t.knight()
    assert rec["animal"] == "Hart" and rec["arthurian"]
    assert rec["lord"]["name"] == "King Arthur" and t.state["koc"]["winner"] == "Anna"
    assert t.unused_dice == []


# ------------------------------------------------------------------- through the command line
SCENARIO_FILE = """\
name = "Two Turns of {key}"
based_on = "{key}"
purpose = "A short game: the scenario's last game turn is the second."
[victory]
turn_limit = 2
"""


@pytest.mark.parametrize("key", scenarios.BUILTIN)
def test_sc10_every_scenario_played_to_its_end_by_email(cli, tmp_path, key):
    """Whole games through the command line, one per rulebook scenario (as a designed file
    with a two-turn limit): random legal orders, the game ends, the winner is in every
    report, orders are refused with a clear message, `show` gives the result, and replay
    matches. The file is deleted after `new`: the game keeps its terms."""
    import random

    path = tmp_path / f"{key}.toml"
    path.write_text(SCENARIO_FILE.format(key=key))
    cli.ok("new", "koc", "g", "--player", "Anna", "--player", "Bert", "--seed", "7",
           "--option", f"scenario={path}", "--option", "knaves=Bert")
    path.unlink()
    rng = random.Random(key)
    for turn in (1, 2):
        for player in ("Anna", "Bert"):
            lines = cli.ok("options", "g", player).out.splitlines()
            moves = [x for x in lines if x.startswith(("move ", "stay"))] or ["stay"]
            text = rng.choice(moves) + "\non yield: yes\n"
            cli.ok("orders", "submit", "g", player, "-", input=text)
        cli.ok("turn", "g")
    folder = cli.output / "g" / "turn-002"
    for name in ("anna", "bert", "public"):
        report = (folder / f"{name}.txt").read_text()
        assert "The game is over" in report and "KVP" in report
        assert "Result:" in report and " won" in report
    refused = cli("orders", "submit", "g", "Anna", "-", input="stay\n")
    assert refused.code == 1 and "the game is over" in refused.err
    shown = cli.ok("show", "g").out
    assert "# The game is over." in shown and "wins" in shown
    state = json.loads(cli.ok("show", "g", "--json", "--player", "moderator").out)
    assert state["over"] and state["result"]["standings"]
    assert "every hash matches" in cli.ok("replay", "g").out
    assert "turn" in cli("turn", "g").err


# ------------------------------------------------------------------- played to the goal
PURE = {"basic": (100, 50), "advanced": (100, 50), "grail": (100, 100), "campaign": (100, 100)}


@pytest.mark.parametrize("key", scenarios.BUILTIN)
def test_sc11_every_scenario_ends_at_its_goal_under_the_goal_policy(key):
    """Whole games under the documented goal-seeking random policy (tests/koc/kocplay.py,
    ``goal_lines``), each scenario as a designed file whose knights start worthy (the
    rulebook's own starts rarely reach the Grail in a test's budget: docs/koc-scenarios.md)
    and whose last turn is the 60th. Every game ends within 60 game turns; for every
    scenario some end by its real goal (the Round Table, or the Grail brought to Camelot);
    the same seed plays the same game. The Campaign's knights start in King Arthur's service
    (the Round Table part is the basic game's, played above): its own part is the Grail
    search, which needs the King's leave first; from the rulebook's start the Grail is
    reached in about one game in twenty within 60 turns, too rarely for four seeds."""
    from tests.koc.engine.test_koc_random_play import check_invariants
    from tests.koc.kocplay import play_to_the_end

    cp, vp = PURE[key]
    terms = dict(scenarios.builtin(key), cp=cp, vp=vp, turn_limit=60, knaves=False)
    if key == "campaign":
        terms["arthurian"] = True
    goal = {"round_table": "is made a Knight of the Round Table",
            "grail": "brings the Holy Grail to Camelot Castle"}[terms["goal"]]
    reached = 0
    for seed in range(4):
        state = play_to_the_end(seed, 2, 60, {"scenario": terms})
        check_invariants(state)
        assert state["koc"]["over"] and state["koc"]["turn"] <= 60
        assert state["koc"]["winner"]
        reached += state["koc"]["reasons"]["knight"] == goal
        if seed == 0:
            again = play_to_the_end(seed, 2, 60, {"scenario": terms})
            assert again == state
    assert reached >= 1


@pytest.mark.parametrize("cp", [0, 1, 9])
def test_sc12_a_scenario_cannot_start_knights_below_the_least_cp(tmp_path, cp):
    """Chivalry Points: no knight ever has fewer than 10 CP. Found by random play with designed
    scenarios: a file with `cp = 5` used to be accepted (the check allowed 0 to 300), and every
    knight started at 5 CP, WL 0, in a position the position reader refuses (a moderator's
    `show --position` could not be read back by `new --setup`). Now the file is refused at
    `new`, with the line of the value; 10 and 300 stay allowed. (A check of the file when the
    game is created, never run again: a stored game keeps the terms it was given.)"""
    path = tmp_path / "poor.toml"
    path.write_text(f'based_on = "basic"\n[start]\ncp = {cp}\nvp = 1\n')
    with pytest.raises((DataError, DataErrors)) as err:
        scenarios.resolve(str(path))
    (error,) = _errors(err.value)
    assert error.line == 3 and "must be 10 to 300" in error.message
    for fine in (kn.CP_MIN, kn.CP_MAX):
        path.write_text(f'based_on = "basic"\n[start]\ncp = {fine}\nvp = 1\n')
        assert scenarios.resolve(str(path))["cp"] == fine


def test_sc12_a_scenario_at_the_least_cp_reads_back_from_its_position(tmp_path, fixed_date):
    """A designed scenario at the least CP: the knights start at 10 CP, WL 1, and the
    moderator's position reads back as the same state."""
    from companion import service
    from companion.koc.kind import KIND
    from companion.store import Store
    from tests.koc.engine.test_koc_random_play import check_position_round_trip

    path = tmp_path / "poor.toml"
    path.write_text('based_on = "basic"\n[start]\ncp = 10\nvp = 1\n')
    store = Store(tmp_path / "s.sqlite3", create=True)
    service.new_game(store, "koc", "g", ["Anna", "Bert"], seed="1",
                     option_args=[f"scenario={path}"])
    state = store.turn("g").state
    assert {(r["cp"], kn.base_wl(r["cp"])) for r in state["knights"].values()} == {(10, 1)}
    check_position_round_trip(state)
    KIND.read_position(KIND.write_position(state), "position.toml", {})
