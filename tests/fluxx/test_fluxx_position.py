"""Fluxx positions as text: written and read back unchanged, players' versions hide the other
hands, and every mistake in a setup file is located."""
from __future__ import annotations

import pytest

from companion import service
from companion.errors import CompanionError, DataError, DataErrors
from companion.fluxx.position import read_position, write_position
from companion.registry import get_kind
from companion.store import Store

from fluxx_play import check_invariants, played_states

KIND = get_kind("fluxx")
DECK = KIND.deck
OPTIONS = {"missing": "default", "others": "default", "social": "trust", "turn-limit": 0}
PAUSED = "# a turn is in progress (paused); this is the position at its start\n"
BASE = """game: fluxx
players: Anna, Bert, Cora
active: Bert
stage: play
turn: 1
turns-done: 0
drawn: 1
played: 0
rules: Play 2; Hand Limit 3
goals: Flying Creatures
hand: Anna: Coconuts; Jackpot!
hand: Bert: Sir Robin; Rules Reset
hand: Cora:
table: Anna:
table: Bert:
table: Cora: The Foot; Grim Reaper
keep: Bert: Rules Reset
quote: Cora: "It is only a model" judged ok
deck: Trade Hands; Draw 2
discard: Play 3
rest: deck
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
    options = {"turn-limit": 30, "missing": "wait" if seed % 3 == 0 else "default"}
    states = [s for s in played_states(seed, 2 + seed % 5, options) if s["game"]["stage"] != "over"]
    assert states
    for state in states[::3]:
        text = write_position(DECK, state)
        pos = read(text)
        assert pos["game"] == (state["pending"]["snapshot"] if state["pending"] else state["game"])
        assert pos["standing"] == state["standing"]
        again = dict(state, game=pos["game"], standing=pos["standing"], pending=None)
        assert write_position(DECK, again) == text.replace(PAUSED, "")


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
    (("Coconuts; Jackpot!", "Cocoanuts; Jackpot!"), "no card called 'Cocoanuts'", "setup.txt:11:"),
    (("Coconuts; Jackpot!", "Coconuts; Jackpot!; Sir"), "'Sir' could be any of", "setup.txt:11:"),
    (("discard: Play 3", "discard: Play 3; Coconuts"), "Coconuts is listed twice (first on line 11)",
     "setup.txt:20:"),
    (("hand: Anna: Coconuts", "hand: Anna: Killer Rabbit; Coconuts"),
     "Killer Rabbit is a Creeper: Creepers are never held", "setup.txt:11:"),
    (("table: Cora: The Foot", "table: Cora: Swap Plays for Draws; The Foot"),
     "Swap Plays for Draws is not a Keeper or a Creeper", "setup.txt:16:"),
    (("rules: Play 2; Hand Limit 3", "rules: Play 2; Play 3"),
     "Play 3 and Play 2 contradict each other", "setup.txt:9:"),
    (("goals: Flying Creatures", "goals: Flying Creatures; Holy Relics"),
     "more Goals are in play than the rules allow", "setup.txt:10:"),
    (("active: Bert", "active: Bertram"), "no player called 'Bertram'", "setup.txt:3:"),
    (("players: Anna, Bert, Cora", "players: Anna"), "Monty Python Fluxx is for 2 to 6 players", "setup.txt:2:"),
    (("game: fluxx", "game: gral"), "this is a position of 'gral', not of fluxx", "setup.txt:1:"),
    (("hand: Bert: Sir Robin", "hand: Bert: Sir Robin\nhand: Bert: The Foot"),
     "hand of Bert is given twice", "setup.txt:13:"),
    (("table: Anna:", "table: Anna: Airborne Cow; Unladen Swallow"),
     "Anna already meets the Goal, so the game would be over", "setup.txt:10:"),
    (("drawn: 1", "drawn: one"), "'drawn' must be a whole number", "setup.txt:7:"),
    (("quote: Cora: \"It is only a model\" judged ok", "quote: Cora: It is only a model"),
     "expected 'quote: <player>: \"<line>\" [judged ok|no]'", "setup.txt:18:"),
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
    assert result.code == 1 and "bad.txt:11:" in result.err and "did you mean 'Coconuts'" in result.err


def test_a_setup_with_stage_start_begins_the_turn_when_first_processed(tmp_path, fixed_date):
    store = Store(tmp_path / "s.sqlite3", create=True)
    setup = tmp_path / "s.txt"
    setup.write_text(BASE.replace("stage: play", "stage: start").replace("drawn: 1", "drawn: 0")
                     .replace("turn: 1", "turn: 0"))
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


# -- a setup position is checked completely (hardening) ------------------------------------------
def full_position() -> str:
    state = played_states(4, 3, {"turn-limit": 6})[2]
    assert state["game"]["stage"] == "play"
    return write_position(DECK, state)


def test_a_position_cut_in_half_is_refused():
    text = full_position()
    half = text[:len(text) // 2]
    rendered = errors(half)
    assert "the position has no" in rendered
    end = len(half.splitlines()) + 1
    assert f"setup.txt:{end}:1: error: the position has no 'discard:' line" in rendered


def test_a_position_cut_inside_the_draw_pile_is_refused():
    text = full_position()
    deck = text.index("deck: ")
    rendered = errors(text[:deck + 40])
    assert "the position has no 'discard:' line" in rendered
    assert "cards are missing from the position" in rendered


@pytest.mark.parametrize("key", ["game", "players", "active", "stage", "turn", "turns-done",
                                 "drawn", "played", "rules", "goals", "deck", "discard"])
def test_every_required_line_is_required(key):
    text = "".join(line + "\n" for line in BASE.splitlines() if not line.startswith(key + ":"))
    assert text != BASE
    rendered = errors(text)
    end = len(text.splitlines()) + 1
    assert f"setup.txt:{end}:1: error: the position has no '{key}:' line" in rendered
    assert "hint: " in rendered


@pytest.mark.parametrize("line", ["hand: Cora:", "table: Anna:"])
def test_every_player_has_a_hand_and_a_table_line(line):
    rendered = errors(BASE.replace(line + "\n", ""))
    assert f"the position has no '{line} ...' line" in rendered
    assert f"write '{line}' with nothing after it" in rendered


def test_every_card_is_listed_once_unless_rest_places_the_others():
    text = full_position()
    card = "Coconuts" if "Coconuts;" in text else "Excalibur"
    rendered = errors(text.replace(f"{card}; ", "", 1))
    assert f"1 card is missing from the position: {card}" in rendered
    assert "rest: deck" in rendered
    assert read(text.replace(f"{card}; ", "", 1) + "rest: discard\n")["game"]["discard"][0] \
        == DECK.by_name[card].id


@pytest.mark.parametrize("change, message, where", [
    (("drawn: 1", "drawn: ²"), "'drawn' must be a whole number, not '²'", "setup.txt:7:8"),
    (("drawn: 1", "drawn: ٣"), "'drawn' must be a whole number", "setup.txt:7:8"),
    (("turn: 1", "turn: " + "9" * 5000), "'turn' is 999", "setup.txt:5:7"),
    (("played: 0", "played: -1"), "'played' must be a whole number, not '-1'", "setup.txt:8:9"),
    (("drawn: 1", "drawn: 6"), "'drawn' is 6; it must be from 0 to 5", "setup.txt:7:8"),
    (("played: 0", "played: 251"), "'played' is 251; it must be from 0 to 250", "setup.txt:8:9"),
    (("played: 0", "played: 0\nextra-play: 3"), "'extra-play' is 3; it must be from 0 to 1",
     "setup.txt:9:13"),
    (("turns-done: 0", "turns-done: 4"), "at stage play 'turns-done' must be 'turn' less 1 (0)",
     "setup.txt:6:13"),
    (("turn: 1\nturns-done: 0", "turn: 0\nturns-done: 0"), "'turn' is at least 1", "setup.txt:5:7"),
    (("played: 0", "played: 0\nused: Rules Reset"), "Rules Reset has no free action",
     "setup.txt:9:7"),
    (("played: 0", "played: 0\nused: Play 2; Swap Plays for Draws; Swap Plays for Draws"),
     "its free action can be used only 1 time a turn", "setup.txt:9:"),
    (("players: Anna, Bert, Cora", "players: Anna, Bert, Cora, anna"), "would share the file name",
     "setup.txt:2:28"),
    (("players: Anna, Bert, Cora", "players: Anna, Bert,, Cora"), "a player's name is missing",
     "setup.txt:2:21"),
    (("players: Anna, Bert, Cora", "players: Anna, Bert; Cora"), "contains ';'", "setup.txt:2:16"),
    (("active: Bert", "waiting: Cora, Cora\nactive: Bert"), "Cora is listed twice", "setup.txt:3:"),
    (("keep: Bert: Rules Reset", "keep: Bert: Rules Reset; Grim Reaper"),
     "Grim Reaper is a Creeper: Creepers are never held, so never kept", "setup.txt:17:26"),
    (("keep: Bert: Rules Reset", "keep: Bert: Rules Reset; Rules"),
     "Rules Reset is listed twice in the keep list", "setup.txt:17:26"),
    (("keep: Bert: Rules Reset", "keep: Bert: Rules Reset\nkeep: Bert: none"),
     "the keep line of Bert is given twice (first on line 17)", "setup.txt:18:"),
    (("keep: Bert: Rules Reset", "keep: Bert:"), "the keep list is empty", "setup.txt:17:"),
    (('"It is only a model" judged ok', '"  " judged ok'), "the quoted line is empty",
     "setup.txt:18:14"),
    (('judged ok', 'judged maybe'), "expected 'ok' or 'no' after 'judged', not 'maybe'",
     "setup.txt:18:"),
    (("rest: deck", "rest: box"), "rest must be 'deck' or 'discard', not 'box'", "setup.txt:21:7"),
])
def test_every_value_is_checked(change, message, where):
    assert change[0] in BASE
    text = errors(BASE.replace(change[0], change[1], 1))
    assert message in text, text
    assert where in text, text


def test_a_position_at_stage_start_has_a_turn_not_yet_begun():
    start = BASE.replace("stage: play", "stage: start").replace("turn: 1", "turn: 0")
    text = errors(start)
    assert "setup.txt:7:8: error: at stage start the turn has not begun: 'drawn' must be 0" in text
    start = start.replace("drawn: 1", "drawn: 0")
    assert read(start)["game"]["stage"] == "start"
    text = errors(start.replace("turns-done: 0", "turns-done: 1"))
    assert "at stage start 'turns-done' must equal 'turn' (0)" in text


def test_a_turn_limit_already_reached_is_refused():
    text = BASE.replace("turn: 1\nturns-done: 0", "turn: 6\nturns-done: 5")
    assert read(text)["game"]["turns_done"] == 5
    assert "the game's turn limit (5) is already reached" in \
        errors_with(text, dict(OPTIONS, **{"turn-limit": 5}))


def errors_with(text: str, options) -> str:
    with pytest.raises((DataError, DataErrors)) as info:
        read(text, options)
    return info.value.render()


def test_the_players_line_is_checked_before_the_game_is_created(cli):
    bad = cli.write("bad.txt", BASE.replace("players: Anna, Bert, Cora", "players: Anna"))
    result = cli("new", "fluxx", "h", "--setup", bad)
    assert result.code == 1 and "Traceback" not in result.err
    assert f"{bad}:2:10: error: Monty Python Fluxx is for 2 to 6 players" in result.err, result.err
    none = cli.write("none.txt", BASE.replace("players: Anna, Bert, Cora\n", ""))
    result = cli("new", "fluxx", "h", "--setup", none)
    assert result.code == 1 and f"{none}:21:1: error: the position has no 'players:' line" \
        in result.err, result.err


def test_the_documented_example_reads():
    import companion.fluxx.position as module

    example = module.__doc__.split("::")[1].split("Every line")[0]
    lines = [line[4:].split("  #")[0].rstrip() for line in example.splitlines()
             if line.startswith("    ") and not line.strip().startswith("#")]
    text = "\n".join(line for line in lines if "..." not in line)
    text += "\nhand: Bert:\nhand: Cora:\ntable: Bert:\ntable: Cora:\n"
    g = read(text)["game"]
    assert g["waiting"] == ["Cora"] and g["used"] == ["excalibur"] and g["extra_play"] == 1
