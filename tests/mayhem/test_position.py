"""Medieval Mayhem positions: written and read back to the same game, errors located by line and
column with suggestions, a player's own version holding only their secrets, setups through the
command line."""
from __future__ import annotations

import pytest

from companion.errors import DataError, DataErrors

from .helpers import CAT, KIND, new_store, setup_game

BASE = """players: Anna, Bert, Cora
first: Anna
turn: Bert
actions: 1
character-used: yes
round: 2
turns: Anna = 3; Bert = 2; Cora = 2
end: none
character: Anna = The Thief I
character: Bert = The Seer II
character: Cora = The Scavenger III
hand: Anna = Hoard Wyrm, Tidal Queen
hand: Bert = Rose Maiden
play: Bert = Red Squire, Ember Lancer
set: Cora = Gold Coin, Gilded Goblet, Crown Jewels
barracks: Pearl Maiden, Tidal Wave, Frost Drake, Rose Guard, Cutpurse
discard: Ruby Chalice, Ember Drake
deck: Sunlit Queen, Plunder
standing: Bert: defend by Anna against Dragon
standing: Bert: keep Rose Maiden
"""


def read(text: str, options: dict | None = None):
    from companion.engine.game import resolve_options

    opts = resolve_options(KIND.option_specs, {}, ["Anna", "Bert", "Cora"])
    opts.update(options or {})
    return KIND.read_position("game: mayhem\n" + text, "pos.txt", opts)


def test_a_position_is_read_as_written():
    state = read(BASE)
    assert state["current"] == "Bert" and state["turn"] == {"actions": 1, "character": True,
                                                            "recycle": False, "sets": 0}
    assert state["round"] == 2 and state["turns"]["Anna"] == 3
    assert [CAT.card[c].name for c in state["deck"][:2]] == ["Sunlit Queen", "Plunder"]
    assert len(state["setup_rest"]) == 70 - 17
    assert state["standing"]["Bert"]["defend"][0]["by"] == "Anna"
    assert state["pending"] == {"player": "Bert", "kind": "turn", "done": 1}


def test_written_positions_read_back_to_the_same_game(tmp_path, fixed_date):
    store = new_store(tmp_path)
    setup_game(store, "g", BASE)
    state = store.turn("g").state
    text = KIND.write_position(state)
    again = read(text.replace("game: mayhem\n", ""))
    for key in ("players", "first", "current", "turn", "round", "turns", "end", "hands", "play",
                "sets", "barracks", "discard", "characters", "standing"):
        assert again[key] == state[key], key
    assert again["deck"] == state["deck"]


def test_a_players_version_holds_only_their_secrets(tmp_path, fixed_date):
    store = new_store(tmp_path)
    setup_game(store, "g", BASE)
    state = store.turn("g").state
    bert = KIND.write_position(state, "Bert")
    assert "hand: Bert = Rose Maiden" in bert and "The Seer II" in bert
    assert "Hoard Wyrm" not in bert and "The Thief I" not in bert and "Sunlit Queen" not in bert
    assert "# hand: Anna holds 2 cards" in bert
    assert "standing: Bert: defend by Anna against Dragon" in bert
    public = KIND.write_position(state, "public")
    assert "Rose Maiden" not in public and "standing:" not in public


@pytest.mark.parametrize("change, where, message", [
    (("turn: Bert", "trun: Bert"), (3, 1), "unknown key 'trun'"),
    (("hand: Bert = Rose Maiden", "hand: Bert = Rose Maidn"), (13, 14), "no card called 'Rose Maidn'"),
    (("hand: Bert = Rose Maiden", "hand: Bert = Hoard Wyrm"), (13, 14), "Hoard Wyrm is placed twice"),
    (("hand: Bert = Rose Maiden", "hand: Bert = gold"), (13, 14), "could be any of"),
    (("set: Cora = Gold Coin, Gilded Goblet, Crown Jewels",
      "set: Cora = Gold Coin, Pearl Necklace, Sunblade Lord"), (15, 12), "share no number, colour or type"),
    (("set: Cora = Gold Coin, Gilded Goblet, Crown Jewels", "set: Cora = Gold Coin, Gilded Goblet"),
     (15, 12), "a set holds 3 cards"),
    (("barracks: Pearl Maiden, Tidal Wave, Frost Drake, Rose Guard, Cutpurse",
      "barracks: Pearl Maiden, Tidal Wave"), (16, 11), "while the deck still has cards"),
    (("character: Cora = The Scavenger III\n", ""), (20, 1), "Cora has no character card"),
    (("character: Cora = The Scavenger III", "character: Cora = The Thief I"), (11, 18),
     "The Thief I is given to Anna already"),
    (("actions: 1", "actions: 2"), (4, 10), "0 or 1"),
    (("end: none", "end: soon"), (8, 6), "expected 'end: none'"),
    (("first: Anna", "first: Anja"), (2, 8), "no player called 'Anja'"),
    (("standing: Bert: keep Rose Maiden", "standing: Bert: keep Rose Madien"), (20, 22),
     "did you mean 'Rose Maiden'"),
    (("standing: Bert: keep Rose Maiden", "standing: Bert: draw"), (20, 11), "a standing order"),
])
def test_mistakes_are_located(change, where, message):
    text = BASE.replace(*change)
    with pytest.raises((DataError, DataErrors)) as info:
        read(text)
    errors = info.value.errors if isinstance(info.value, DataErrors) else [info.value]
    rendered = "\n".join(e.render() for e in errors)
    assert message in rendered, rendered
    line, col = where
    assert any(e.line == line + 1 and e.column == col for e in errors if message in e.render()), \
        rendered


def test_every_mistake_of_a_file_is_listed():
    text = BASE.replace("hand: Bert = Rose Maiden", "hand: Bert = Rose Maidn").replace(
        "first: Anna", "first: Anja")
    with pytest.raises(DataErrors) as info:
        read(text)
    assert len(info.value.errors) == 2


def test_the_empty_deck_needs_the_end_triggered():
    text = BASE.replace("deck: Sunlit Queen, Plunder\n", "deck:\nrest: discard\n")
    with pytest.raises((DataError, DataErrors)) as info:
        read(text)
    assert "end: deck" in info.value.render()
    state = read(text.replace("end: none", "end: deck (Anna)"))
    assert state["deck"] == [] and len(state["discard"]) == 70 - 13


def test_positions_refuse_rules_they_cannot_hold():
    with pytest.raises((DataError, DataErrors)) as info:
        read(BASE, {"chaos": "on"})
    assert "Chaos Theory" in info.value.render()
    with pytest.raises((DataError, DataErrors)) as info:
        read(BASE + "rules: charm\n")
    assert "the options give 'none'" in info.value.render()


def test_setup_through_the_command_line(cli):
    path = cli.write("setup.txt", "game: mayhem\n" + BASE)
    out = cli.ok("new", "mayhem", "g", "--setup", path, "--seed", "1").out
    assert "orders are now needed from: Bert" in out
    position = cli.ok("show", "g", "--position").out
    assert "hand: Anna = Hoard Wyrm, Tidal Queen" in position
    bad = cli.write("bad.txt", "game: mayhem\n" + BASE.replace("Rose Maiden\n", "Rose Madien\n"))
    result = cli("new", "mayhem", "h", "--setup", bad)
    assert result.code == 1
    assert "bad.txt:14:14: error: no card called 'Rose Madien'" in result.err
    assert "did you mean 'Rose Maiden'" in result.err
