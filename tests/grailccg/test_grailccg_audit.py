"""Findings of a rules-fidelity audit (casebook cases 116-119), each pinned by a test that an old
game keeps its old behaviour (rules edition 1) and a new game gets the new one (edition 2):

* a card turned up whose primary property is an extra move or a joining at once gave them to the
  opponent, whose turn it is not: the report said "Bert's Round Table may move 1 more area this
  turn" and nothing happened (or, for a joining, the opponent's useless joining outranked a
  no-join card in force); from edition 2 such a part has no effect and nobody is asked about
  it, and an opponent is no longer offered a joining card to answer with in someone else's turn;
* a grail-number bonus was always shown as "+N from a card played", which read "+-2" for a
  minus and named a card played where the bonus came from a card turned up or a village; from
  edition 2 it is shown with its sign, "from an earlier bonus";
* a village's "grail -N" (Write Yer Own villages) lowered the opponent's next grail number,
  where the card documentation reads village results for the visitor; from edition 2 the
  visitor's;
* a Round Table of pages alone (its only knight held in a castle, found by random play) walked
  on and explored; pages may not move except to run away (10.1), so from edition 2 it stays;
* an Avalon area the game does not have (av5..av9 with two players) is refused when the orders
  are checked, instead of being taken and reported at the turn as "already holds a face-up
  card" or "not free for an adversary (FAQ 6 ...)"."""
from __future__ import annotations

import pytest

from companion.engine.chance import seed_key
from companion.engine.orders import OrdersRejected
from companion.grailccg.cards import parse_user_cards
from companion.grailccg.kind import KIND, GrailKind

from ccg_play import build, run_turn

KEY = seed_key("audit")


def public(state: dict) -> list[str]:
    return [e["text"] for e in state["events"] if e["to"] == "public"]


def turn(kind, state: dict, number: int, texts: dict[str, str]) -> list[str]:
    run_turn(kind, state, number, KEY, state["options"], texts)
    return public(state)


def test_the_kind_is_at_rules_edition_6():
    assert KIND.edition == 6


@pytest.mark.parametrize("edition", [1, 2])
def test_an_extra_move_turned_up_for_the_opponent(edition):
    state = build(KIND, {"setup": {"Anna": {"england": {"1a": "Coconuts"}}},
                         "options": {"missing": "wait"}})
    state["edition"] = edition
    said = turn(KIND, state, 1, {"Anna": "move 1a"})
    if edition == 1:        # the old game: Bert is asked, and "may move" a move he cannot make
        assert state["pending"]["question"]["player"] == "Bert"
        turn(KIND, state, 1, {"Bert": "reveal apply"})
        said = public(state)
        assert "Coconuts: Bert's Round Table may move 1 more area this turn." in said
    else:
        assert not state.get("pending")
        assert ("Coconuts's primary property works only in Bert's own turn: it has no effect, "
                "and nobody is asked about it (FAQ 1).") in said
        assert not any("may move 1 more area" in line for line in said)
    assert state["game"]["counters"]["extra_moves"] == 0


@pytest.mark.parametrize("edition", [1, 2])
def test_a_joining_card_is_offered_to_answer_only_to_the_player_whose_turn_it_is(edition):
    state = build(KIND, {"setup": {"Anna": {"hand": ["Eccentric Performance"]},
                                   "Bert": {"hand": ["Strange Women Lying in Ponds"]}},
                         "options": {"missing": "wait"}})
    state["edition"] = edition
    turn(KIND, state, 1, {"Anna": "play Eccentric Performance"})
    question = (state.get("pending") or {}).get("question")
    if edition == 1:
        assert question["player"] == "Bert"
        assert "respond Strange Women Lying in Ponds" in question["options"]
    else:
        assert question is None
        assert state["game"]["active"] == "Bert"


def test_a_joining_card_turned_up_for_the_opponent_does_nothing():
    state = build(KIND, {"setup": {"Bert": {"england": {"1a": "Strange Women Lying in Ponds"}}},
                         "active": "Bert"})
    said = turn(KIND, state, 1, {"Bert": "move 1a"})
    assert ("Strange Women Lying in Ponds's primary property works only in Anna's own turn: "
            "it has no effect, and nobody is asked about it (FAQ 1).") in said
    assert state["game"]["counters"]["auto_join"] is None


BOG = """
[[village]]
name = "Bog Village"
grail = 4
table = ["1..7: grail -2"]
limit = "any"
"""


@pytest.mark.parametrize("edition, bonus, shown", [
    (1, {"Anna": 0, "Bert": -2}, "Bert draws a grail number for Vicious Chicken of Bristol: "),
    (2, {"Anna": -2, "Bert": 0}, "Anna draws a grail number for Arthur: "),
])
def test_a_village_minus_lowers_the_visitors_grail_number_from_edition_2(edition, bonus, shown):
    kind = GrailKind(cards=parse_user_cards(BOG, "bog.toml"))
    state = build(kind, {"setup": {
        "Anna": {"england": {"1a": "Bog Village", "2a": "Vicious Chicken of Bristol"},
                 "deck": [3, 4, 5]},
        "Bert": {"deck": [4, 4]}}})
    state["edition"] = edition
    turn(kind, state, 1, {"Anna": "move 1a"})
    assert state["game"]["counters"]["grail_bonus"] == bonus
    turn(kind, state, 2, {"Bert": "end"})
    said = turn(kind, state, 3, {"Anna": "move 2a\nfight with Arthur"})
    line = next(x for x in said if x.startswith(shown))
    if edition == 1:
        assert ", +-2 from a card played = 2 " in line, line
    else:
        assert ", -2 from an earlier bonus = 3 " in line, line


@pytest.mark.parametrize("edition, text", [
    (1, "a 4, +2 from a card played = 6"),
    (2, "a 4, +2 from an earlier bonus = 6"),
])
def test_a_grail_bonus_is_shown_as_an_earlier_bonus_from_edition_2(edition, text):
    state = build(KIND, {"setup": {
        "Anna": {"pages": [["Patsy", "Arthur", ["Book of Armaments"]]], "deck": [4, 3],
                 "england": {"1a": {"foes": ["French Guard"]}}},
        "Bert": {"deck": [4, 1]}}})
    state["edition"] = edition
    turn(KIND, state, 1, {"Anna": "use Book of Armaments\nmove 1a\nfight with Arthur"})
    assert any(text in line for line in public(state)), public(state)


def check(state: dict, player: str, text: str) -> None:
    orders = KIND.parse_orders(state, player, text, "o.txt")
    KIND.check_orders(state, player, orders, "o.txt")


@pytest.mark.parametrize("player, text, area", [
    ("Anna", "play Tintagel on av9", "av9"),
    ("Anna", "move av5", "av5"),
    ("Anna", "run away to av7", "av7"),
    ("Anna", "play Black Knight on their av6", "av6"),
    ("Bert", "on retreat: 1a, av6", "av6"),
])
def test_an_avalon_area_the_game_does_not_have_is_refused_when_checked(player, text, area):
    state = build(KIND, {"setup": {"Anna": {"hand": ["Tintagel", "Black Knight"], "at": "1a",
                                            "from": "home"}}})
    with pytest.raises(OrdersRejected) as info:
        check(state, player, text)
    out = info.value.render()
    assert f"o.txt:1:1: illegal order: there is no {area} in this game: Avalon has 4 areas" \
        in out, out
    assert "Avalon's areas: av1, av2, av3, av4" in out, out


def test_every_avalon_area_of_the_game_is_taken():
    state = build(KIND, {"setup": {"Anna": {"hand": ["Tintagel", "Black Knight"]}}})
    check(state, "Anna", "play Black Knight on av4")
    check(state, "Bert", "on retreat: av2")
    players = ["Anna", "Bert", "Cleo"]
    state = build(KIND, {"players": players, "setup": {"Anna": {"hand": ["Black Knight"]}}})
    state["game"]["avalon"]["av5"] = dict(state["game"]["avalon"]["av4"])    # 16.3: 3 + 1
    check(state, "Anna", "play Black Knight on av5")


HASTY = """
[[song]]
name = "Hasty Song"
grail = 4
primary = ["combat +1", "extra-move"]
limit = "any"
"""


@pytest.mark.parametrize("edition", [1, 2])
def test_an_extra_move_played_in_answer_out_of_turn(edition):
    kind = GrailKind(cards=parse_user_cards(HASTY, "hasty.toml"))
    state = build(kind, {"setup": {"Anna": {"england": {"1a": {"foes": ["French Guard"]}},
                                            "deck": [4]},
                                   "Bert": {"hand": ["Hasty Song"], "deck": [4]}}})
    state["edition"] = edition
    state["standing"]["Bert"]["dispute"] = [kind.cards.by_name("Hasty Song").id]
    said = turn(kind, state, 1, {"Anna": "move 1a\nfight with Arthur"})
    assert "Bert plays Hasty Song in answer." in said, said
    assert "Hasty Song: +1 combat for French Guard." in said, said
    if edition == 1:
        assert "Hasty Song: Bert's Round Table may move 1 more area this turn." in said
    else:
        assert ("Hasty Song: it is not Bert's turn, so Bert's Round Table gets no extra move: "
                "no effect.") in said


@pytest.mark.parametrize("edition", [1, 2])
def test_a_round_table_of_pages_alone_does_not_move_from_edition_2(edition):
    """10.1: pages may not move except to run away. A Round Table whose knights are all dead or
    held in a castle is its pages alone; it walked on in games of edition 1."""
    state = build(KIND, {"setup": {"Anna": {"table": [], "pages": [["Patsy", ""]], "at": "1a",
                                            "from": "home", "england": {"2a": "Swamp"}}}})
    state["edition"] = edition
    offered = [line for line in KIND.options_for(state, "Anna") if line.startswith("move ")]
    turn(KIND, state, 1, {"Anna": "move 2a"})
    if edition == 1:
        assert offered and state["game"]["table"]["Anna"]["at"] == "2a"
    else:
        assert offered == [] and state["game"]["table"]["Anna"]["at"] == "1a"
