"""Fluxx positions as text: written and read back unchanged, players' versions hide the other
hands, and every mistake in a setup file is located."""
from __future__ import annotations

import pytest

from companion import service
from companion.errors import CompanionError, DataError, DataErrors
from companion.fluxx.position import read_position, write_position
from companion.registry import get_kind
from companion.store import Store

from fluxx_play import check_invariants, engine_game

KIND = get_kind("fluxx")
DECK = KIND.deck
OPTIONS = {"missing": "default", "others": "default", "social": "trust", "turn-limit": 0}
BASE = """game: fluxx
players: Anna, Bert, Cora
active: Bert
stage: play
drawn: 1
rules: Play 2; Hand Limit 3
goals: Flying Creatures
hand: Anna: Coconuts; Jackpot!
hand: Bert: Sir Robin; Rules Reset
table: Cora: The Foot; Grim Reaper
deck: Trade Hands; Draw 2
discard: Play 3
keep: Bert: Rules Reset
quote: Cora: "It is only a model" judged ok
"""


def read(text: str, options=OPTIONS):
    return read_position(DECK, text, "setup.txt", options)


def errors(text: str) -> str:
    with pytest.raises((DataError, DataErrors)) as info:
        read(text)
    return info.value.render()


def test_a_position_is_read_completely():
    pos = read(BASE)
    g = pos["game"]
    assert g["seated"] == ["Anna", "Bert", "Cora"] and g["active"] == "Bert"
    assert g["rules"] == ["play-2", "hand-limit-3"] and g["goals"] == ["flying-creatures"]
    assert g["hands"]["Bert"] == ["sir-robin", "rules-reset"]
    assert g["deck"][:2] == ["trade-hands", "draw-2"] and g["discard"] == ["play-3"]
    assert len(g["deck"]) + len(g["discard"]) + 4 + 3 + 2 == 100
    assert pos["standing"]["Bert"]["keep"] == ["rules-reset"]
    assert pos["standing"]["Cora"]["quote"] == {"words": "It is only a model", "judged": "ok"}
    state = {"players": ["Anna", "Bert", "Cora"], "game": g, "standing": pos["standing"],
             "pending": None, "events": []}
    check_invariants(state)


@pytest.mark.parametrize("seed", range(8))
def test_positions_of_random_games_round_trip(seed):
    state, _ = engine_game(seed, 2 + seed % 5, {"turn-limit": 3 + seed})
    g = state["game"]
    if g["stage"] == "over":
        g["stage"] = "play"
        g["result"] = None
    text = write_position(DECK, state)
    pos = read(text)
    again = dict(state, game=pos["game"], standing=pos["standing"])
    assert write_position(DECK, again) == text
    for key in ("deck", "discard", "hands", "table", "rules", "goals", "active", "drawn",
                "played", "turn"):
        assert pos["game"][key] == g[key], key


def test_a_players_version_hides_other_hands_and_cannot_be_read_back():
    state = {"players": ["Anna", "Bert", "Cora"], **read(BASE), "pending": None, "events": []}
    mine = write_position(DECK, state, "Anna")
    assert "hand: Anna: Coconuts; Jackpot!" in mine
    assert "hand: Bert: 2 cards" in mine and "Sir Robin" not in mine
    assert "deck: " in mine and "Trade Hands" not in mine
    assert "keep: Bert" not in mine and "quote: Cora" not in mine
    public = write_position(DECK, state, "public")
    assert "Coconuts" not in public and "hand: Anna: 2 cards" in public
    text = errors("\n".join(line for line in mine.splitlines() if not line.startswith("deck")))
    assert "this position hides cards" in text


@pytest.mark.parametrize("change, message, where", [
    (("stage: play", "stag: play"), "unknown key 'stag'", "setup.txt:4:1"),
    (("stage: play", "stage: over"), "stage 'over' is not 'start' or 'play'", "setup.txt:4:"),
    (("Coconuts; Jackpot!", "Cocoanuts; Jackpot!"), "no card called 'Cocoanuts'", "setup.txt:8:"),
    (("Coconuts; Jackpot!", "Coconuts; Jackpot!; Sir"), "'Sir' could be any of", "setup.txt:8:"),
    (("discard: Play 3", "discard: Play 3; Coconuts"), "Coconuts is listed twice (first on line 8)",
     "setup.txt:12:"),
    (("hand: Anna: Coconuts", "hand: Anna: Killer Rabbit; Coconuts"),
     "Killer Rabbit is a Creeper: Creepers are never held", "setup.txt:8:"),
    (("table: Cora: The Foot", "table: Cora: Swap Plays for Draws; The Foot"),
     "Swap Plays for Draws is not a Keeper or a Creeper", "setup.txt:10:"),
    (("rules: Play 2; Hand Limit 3", "rules: Play 2; Play 3"),
     "Play 3 and Play 2 contradict each other", "setup.txt:6:"),
    (("goals: Flying Creatures", "goals: Flying Creatures; Holy Relics"),
     "more Goals are in play than the rules allow", "setup.txt:7:"),
    (("active: Bert", "active: Bertram"), "no player called 'Bertram'", "setup.txt:3:"),
    (("players: Anna, Bert, Cora", "players: Anna"), "Fluxx needs 2 to 6 players", "setup.txt:2:"),
    (("game: fluxx", "game: gral"), "this is a position of 'gral', not of fluxx", "setup.txt:1:"),
    (("hand: Bert: Sir Robin", "hand: Bert: Sir Robin\nhand: Bert: The Foot"),
     "hand of Bert is given twice", "setup.txt:10:"),
    (("goals: Flying Creatures", "goals: Flying Creatures\ntable: Anna: Airborne Cow; Unladen Swallow"),
     "Anna already meets the Goal, so the game would be over", "setup.txt:7:"),
    (("drawn: 1", "drawn: one"), "'drawn' must be a whole number", "setup.txt:5:"),
    (("quote: Cora: \"It is only a model\" judged ok", "quote: Cora: It is only a model"),
     "expected 'quote: <player>: \"<line>\" [judged ok|no]'", "setup.txt:14:"),
])
def test_mistakes_in_a_setup_are_located(change, message, where):
    assert change[0] in BASE
    text = errors(BASE.replace(change[0], change[1], 1))
    assert message in text, text
    assert where in text, text


def test_several_mistakes_are_reported_together():
    text = errors(BASE.replace("Coconuts; Jackpot!", "Cocoanuts; Jackpot!").replace(
        "discard: Play 3", "discard: Play 33"))
    assert "Cocoanuts" in text and "Play 33" in text


def test_a_game_starts_from_a_setup_file_through_the_command_line(cli):
    path = cli.write("setup.txt", BASE)
    cli.ok("new", "fluxx", "g", "--setup", path, "--seed", "3")
    shown = cli.ok("show", "g", "--position").out
    assert "hand: Bert: Sir Robin; Rules Reset" in shown and "active: Bert" in shown
    assert cli.ok("options", "g", "Bert").out.splitlines()[:2] == ["play Sir Robin",
                                                                   "play Rules Reset"]
    cli.ok("orders", "submit", "g", "Bert", "-", input="play Sir Robin\nplay Rules Reset\n")
    out = cli.ok("turn", "g").out
    assert "Bert plays Rules Reset." in out and "Cora's turn begins" in out
    bad = cli.write("bad.txt", BASE.replace("Coconuts; Jackpot!", "Cocoanuts; Jackpot!"))
    result = cli("new", "fluxx", "h", "--setup", bad)
    assert result.code == 1 and "bad.txt:8:" in result.err and "did you mean 'Coconuts'" in result.err


def test_a_setup_with_stage_start_begins_the_turn_when_first_processed(tmp_path, fixed_date):
    store = Store(tmp_path / "s.sqlite3", create=True)
    setup = tmp_path / "s.txt"
    setup.write_text(BASE.replace("stage: play", "stage: start").replace("drawn: 1\n", ""))
    service.new_game(store, "fluxx", "g", [], seed="1", setup=str(setup))
    service.submit_orders(store, "g", "Bert", "play Sir Robin\nplay Trade Hands", "b.txt")
    service.run_turn(store, "g")
    public = [e["text"] for e in store.turn("g").events if e["to"] == "public"]
    assert public[:3] == ["Turn 1: Bert's turn begins.", "Bert draws 1 card.",
                          "Bert plays Sir Robin."]
    assert "Bert plays Trade Hands." in public


def test_options_that_do_not_fit_the_setup_are_refused(tmp_path):
    store = Store(tmp_path / "s.sqlite3", create=True)
    setup = tmp_path / "s.txt"
    setup.write_text(BASE)
    with pytest.raises(CompanionError):
        service.new_game(store, "fluxx", "g", [], seed="1", setup=str(setup),
                         option_args=["first=Dora"])
