"""Findings of an exploratory tester, each pinned by a test (the rules cases are in the
casebook: 113 a grail-number bonus waits for the next grail number, 114 a primary property that
can do nothing outside a dispute, 115 pages and items refused when the orders are checked):

* what a player whose turn it is not may send, as the report and ``options_for`` say it, is
  exactly what ``check_orders`` takes (standing orders), and turn orders are refused;
* short card names are looked up first among the cards the order can refer to;
* the acknowledgement of a standing order says "replaces" only when there was one;
* a page named after its type is not listed as "Page Page";
* the report keeps a grail-number bonus as a lasting effect until it is spent."""
from __future__ import annotations

import pytest

from companion.engine.orders import AmbiguousNameError, OrdersRejected
from companion.grailccg.kind import KIND
from companion.grailccg.views import page_label

from ccg_play import NAMES, build, new_state, run_turn
from test_grailccg_views import rendered

ANNA, BERT = NAMES


def parse(state: dict, player: str, text: str):
    orders = KIND.parse_orders(state, player, text, "o.txt")
    KIND.check_orders(state, player, orders, "o.txt")
    return orders


def card_names(orders) -> list[str]:
    return [KIND.cards.get(e["card"] if "card" in e else e["cards"][0]).name
            for e in orders.lines]


# ------------------------------------------------------------------ out of turn: report and lines

def test_the_waiting_players_report_offers_only_what_is_taken_out_of_turn():
    state, *_ = new_state(KIND, 7)
    assert state["game"]["active"] == ANNA
    text = " ".join(rendered(state, BERT)[1].split())
    assert "may be sent early" not in text
    assert "only standing orders are taken from you" in text
    assert "orders for your turn are refused until then" in text
    assert "Standing orders you may send now" in text and "on double: accept" in text
    lines = KIND.options_for(state, BERT)
    assert lines and all(line.startswith("on ") for line in lines)
    for line in lines:                      # each offered line is taken as it stands
        parse(state, BERT, line)
    with pytest.raises(OrdersRejected) as info:     # and a turn order is not
        parse(state, BERT, "move 1a")
    assert "it is Anna's turn, not yours" in info.value.render()


def test_standing_lines_come_from_the_players_own_hand_and_the_open_position():
    state = build(KIND, {"setup": {ANNA: {"at": "2b", "from": "1a",
                                          "england": {"1a": "up:Swamp", "1b": "up:Swamp"}},
                                   BERT: {"hand": ["Fetchez la Vache", "Lancelot"]}}})
    state.pop("options")
    lines = KIND.options_for(state, BERT)
    assert "on dispute: play Fetchez la Vache" in lines
    assert not any("Lancelot" in line for line in lines)     # a knight answers nothing
    assert "on retreat: 1a" in lines and "on retreat: 1b" in lines   # Anna's ways back (7.6)
    state["standing"][BERT]["double"] = "accept"
    assert "on double: none" in KIND.options_for(state, BERT)


def test_nothing_is_offered_when_the_game_is_over_or_the_player_is_out():
    state, *_ = new_state(KIND, 7)
    state["game"]["defeated"] = [BERT]
    assert KIND.options_for(state, BERT) == []
    assert "searches on alone" in " ".join(rendered(state, BERT)[1].split())
    state["game"]["stage"] = "over"
    assert KIND.options_for(state, ANNA) == []


# ------------------------------------------------------------------------------ card names

def test_a_short_name_means_the_card_the_order_can_refer_to():
    state = build(KIND, {"setup": {ANNA: {"hand": ["Coconuts", "Humphrey the Page"]}}})
    state.pop("options")
    orders = parse(state, ANNA, "give coconut to patsy\nplay hum on arthur\n"
                                "discard coco\nuse coconut")
    assert card_names(orders) == ["Coconuts", "Humphrey the Page", "Coconuts", "Coconuts"]


def test_a_short_name_that_fits_nothing_held_is_looked_up_by_type_then_among_every_card():
    state = build(KIND, {"setup": {ANNA: {"hand": ["Lancelot"]}}})
    state.pop("options")
    # only an item can be given: the one item whose name fits, though it is not in hand
    assert card_names(parse(state, ANNA, "give coconut to patsy")) == ["Coconuts"]
    with pytest.raises(OrdersRejected) as info:     # any card may be played: both fit
        parse(state, ANNA, "play coconut")
    error = info.value.errors[0]
    assert isinstance(error, AmbiguousNameError)
    assert "Coconuts" in error.message and "Coconut-Laden Swallow" in error.message


def test_a_name_typed_in_full_is_that_card_whatever_is_held():
    state = build(KIND, {"setup": {ANNA: {"hand": ["Humphrey the Page"]}}})
    state.pop("options")
    assert card_names(parse(state, ANNA, "play Page on Arthur")) == ["Page"]
    acknowledged = KIND.acknowledge(state, ANNA, parse(state, ANNA, "play Page on Arthur"))
    assert acknowledged == ["play Page on Arthur (not in your hand now: played if you get it "
                            "in time)"]


def test_the_lead_is_looked_up_among_the_round_table():
    state = build(KIND, {"setup": {ANNA: {"table": ["Arthur", "Brave Sir Robin"]}}})
    state.pop("options")
    assert card_names(parse(state, ANNA, "fight with robin")) == ["Brave Sir Robin"]


# ------------------------------------------------------------------------------ wording

def test_a_standing_order_replaces_only_an_earlier_one():
    state = build(KIND, {})
    state.pop("options")
    said = KIND.acknowledge(state, BERT, parse(state, BERT, "on double: accept"))
    assert said == ["on double: accept (standing: kept until you replace it)"]
    said = KIND.acknowledge(state, BERT, parse(state, BERT, "on double: none"))
    assert said == ["on double: none (standing: nothing to clear)"]
    run_turn(KIND, state, 1, b"k" * 32, {}, {ANNA: "end", BERT: "on double: accept"})
    said = KIND.acknowledge(state, BERT, parse(state, BERT, "on double: concede\n"
                                                            "on reveal: ignore"))
    assert said == ["on double: concede (standing: replaces your earlier 'on double: accept')",
                    "on reveal: ignore (standing: kept until you replace it)"]


def test_a_page_named_after_its_type_is_not_called_page_twice():
    assert page_label("Patsy") == "Page Patsy"
    assert page_label("Page") == "Page"
    assert page_label("Humphrey the Page") == "Humphrey the Page"
    state = build(KIND, {"setup": {ANNA: {"table": ["Arthur", "Percival"],
                                          "pages": [["Page", "Percival"],
                                                    ["Humphrey the Page", "Arthur"]]}}})
    state.pop("options")
    text = " ".join(rendered(state, ANNA)[1].split())
    assert "Page, serving Percival" in text and "Page Page" not in text
    assert "Humphrey the Page, serving Arthur" in text and "Page Humphrey" not in text


def test_a_waiting_grail_bonus_is_shown_as_a_lasting_effect():
    state = build(KIND, {})
    state.pop("options")
    state["game"]["counters"]["grail_bonus"][ANNA] = 2
    for viewer in (ANNA, BERT, "public"):
        text = " ".join(rendered(state, viewer)[1].split())
        assert "Anna's next grail number gets +2" in text, viewer


def test_a_joining_at_once_is_not_offered_out_of_turn_from_edition_2():
    """From rules edition 2 a joining at once does nothing outside its player's turn (casebook
    case 116), so the standing lines of a player waiting for his turn leave out a card whose
    only answer it is (Strange Women Lying in Ponds) and keep one that stops a joining
    (Eccentric Performance); a game of edition 1 is offered both, as before."""
    state = build(KIND, {"setup": {BERT: {"hand": ["Strange Women Lying in Ponds",
                                                   "Eccentric Performance"]}}})
    state.pop("options")
    assert state["game"]["active"] == ANNA and state["edition"] >= 2
    lines = KIND.options_for(state, BERT)
    assert not any("Strange Women" in line for line in lines), lines
    assert "on play: play Eccentric Performance" in lines
    assert "on invite: play Eccentric Performance" in lines
    for line in lines:
        parse(state, BERT, line)
    state["edition"] = 1
    old = KIND.options_for(state, BERT)
    assert "on play: play Strange Women Lying in Ponds" in old
    assert "on invite: play Strange Women Lying in Ponds" in old
