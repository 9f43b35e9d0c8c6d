"""Orders that can never work are refused when checked (casebook cases 120-122), and texts of
rules edition 2 (cases 123-124 and below), each pinned by a test that an old game (rules
edition 1) keeps its old text and a new game gets the new one:

* 'fight with Patsy' (a page never leads, 10.1), 'lead Lancelot' with no Lancelot in the Round
  Table, a persona without the sword icon, a card that is no character; giving or using a card
  that is not an item, passing an item from a page to itself; answers that are not one-shot
  cards, standing orders whose card does nothing in their window, castle occupants that cannot
  occupy a castle. Refusals change nothing and need no edition: replaying parses again only;
* a castle whose table already granted passage said the Round Table "may consult the castle
  table"; from edition 2 it says the Round Table may go on;
* a slain knight's report said "his page stays" even when he had no page; from edition 2 it
  names the page(s) who stay, or says nothing of a page;
* found by random play, from edition 2: "moves home" and "runs away back home" (not "to
  home"); 'fight with X' / 'assault with X' for an X who has not joined is left out, not fought
  by another lead in X's place; the true reason a foe cannot be outwitted; a move to where the
  Round Table stands; the dispute question names only what its options allow; the discard
  question lists each card name once."""
from __future__ import annotations

import copy

import pytest

from companion.engine.chance import seed_key
from companion.engine.orders import OrdersRejected
from companion.grailccg.kind import KIND

from ccg_play import build, run_turn

KEY = seed_key("never-valid")


def public(state: dict) -> list[str]:
    return [e["text"] for e in state["events"] if e["to"] == "public"]


def refused(state: dict, player: str, text: str) -> str:
    before = copy.deepcopy(state)
    with pytest.raises(OrdersRejected) as info:
        parsed = KIND.parse_orders(state, player, text, f"{player}.txt")
        KIND.check_orders(state, player, parsed, f"{player}.txt")
    assert state == before, "a refused order must change nothing"
    return info.value.render()


@pytest.mark.parametrize("text, message, hint", [
    ("fight with Patsy", "Patsy is a page, and pages never lead a fight (10.1)",
     "write 'fight with Arthur', or 'fight' alone for the strongest"),
    ("lead Patsy", "Patsy is a page, and pages never lead a dispute (10.1)", "write 'lead Arthur'"),
    ("lead Lancelot", "there is no Lancelot in your Round Table to lead a dispute",
     "write 'lead Arthur'"),
    ("outwit with Coconuts", "Coconuts is an item, not a knight or persona of a Round Table",
     "'outwit with Arthur'"),
    ("fight with Dennis the Peasant", "Dennis the Peasant has no sword icon",
     "'fight with Arthur'"),
    ("consult with Patsy", "pages never consult a castle table (10.1)",
     "write 'consult with Arthur' or 'consult with Dennis the Peasant'"),
    ("assault with Patsy", "pages never lead an assault (10.1)", "'assault' alone"),
    ("give Lancelot to Patsy", "Lancelot is a knight, not an item", "write 'play Lancelot'"),
    ("use Coconuts\npass Coconuts from Patsy to Patsy", "would pass from Patsy to the same page",
     "name two different pages"),
    ("use Excalibur", "Excalibur has nothing to use", "keep it with a page"),
    ("on dispute: play Lancelot", "only events, songs, taunts and questions are played in answer",
     "your report lists"),
    ("on defend: Coconuts", "Coconuts cannot occupy a castle", "name such a card of your deck"),
])
def test_an_order_that_can_never_work_is_refused_with_a_hint(text, message, hint):
    state = build(KIND, {"setup": {"Anna": {"table": ["Arthur", "Dennis the Peasant"],
                                            "hand": ["Lancelot", "Coconuts"]}}})
    rendered = refused(state, "Anna", text)
    assert message in rendered and hint in rendered, rendered
    assert "no orders were accepted" in rendered


def test_a_line_above_that_may_bring_the_lead_lets_it_through():
    state = build(KIND, {"setup": {"Anna": {"hand": ["Lancelot"]}}})
    for text in ("play Lancelot\nlead Lancelot", "move 1a\nfight with Lancelot"):
        parsed = KIND.parse_orders(state, "Anna", text, "o")
        KIND.check_orders(state, "Anna", parsed, "o")


@pytest.mark.parametrize("edition", [1, 2])
def test_a_castle_with_passage_granted_says_so_from_edition_2(edition):
    state = build(KIND, {"setup": {"Anna": {"england": {"1a": {
        "card": "Tintagel", "up": True, "occupants": ["Bors"],
        "castle": {"consulted": {"Anna": 1}, "passage": ["Anna"]}}}}}})
    state["edition"] = edition
    run_turn(KIND, state, 1, KEY, state["options"], {"Anna": "move 1a"})
    said = public(state)
    old = ("Tintagel is held by Bors: the Round Table may consult the castle table, assault after "
           "a consultation, stay outside or run away (8.1-8.4).")
    new = ("Tintagel is held by Bors, but Anna's Round Table may go on: the castle table granted "
           "passage (8.1).")
    assert (old in said) == (edition == 1) and (new in said) == (edition == 2), said


@pytest.mark.parametrize("edition, pages, text", [
    (1, [], "Lancelot of Anna's Round Table is slain in combat (7.2-7.3) and goes to Anna's dead "
            "cart (his page stays, FAQ 4)."),
    (2, [], "Lancelot of Anna's Round Table is slain in combat (7.2-7.3) and goes to Anna's dead "
            "cart."),
    (2, [["Patsy", "Arthur"], ["Page", "Lancelot"], ["Humphrey the Page", "Lancelot"]],
     "Lancelot of Anna's Round Table is slain in combat (7.2-7.3) and goes to Anna's dead cart "
     "(Page and Humphrey the Page stay with the Round Table, serving nobody now, FAQ 4)."),
    (2, [["Patsy", "Lancelot"], ["Patsy", "Lancelot"]],     # found by random play
     "Lancelot of Anna's Round Table is slain in combat (7.2-7.3) and goes to Anna's dead cart "
     "(2 Patsy cards stay with the Round Table, serving nobody now, FAQ 4)."),
])
def test_a_slain_knights_report_names_the_page_who_stays_from_edition_2(edition, pages, text):
    state = build(KIND, {"setup": {"Anna": {"table": ["Arthur", "Lancelot"], "pages": pages,
                                            "deck": [1], "england": {"1a": "Black Knight"}},
                                   "Bert": {"deck": [7]}}})
    state["edition"] = edition
    run_turn(KIND, state, 1, KEY, state["options"],
             {"Anna": "move 1a\nfight with Lancelot\nrun away"})
    assert text in public(state), public(state)


@pytest.mark.parametrize("edition, ran, moved", [
    (1, "Anna's Round Table runs away from Black Knight to home.",
     "Anna's Round Table moves to home."),
    (2, "Anna's Round Table runs away from Black Knight back home.",
     "Anna's Round Table moves home."),
])
def test_home_is_said_as_a_place_to_go_from_edition_2(edition, ran, moved):
    """Found by random play: "moves to home", "runs away ... to home"."""
    state = build(KIND, {"setup": {"Anna": {"hand": ["Run Away!"],
                                            "england": {"1a": "Black Knight"}}}})
    state["edition"] = edition
    run_turn(KIND, state, 1, KEY, state["options"], {"Anna": "move 1a\nplay Run Away!"})
    assert ran in public(state), public(state)
    state = build(KIND, {"setup": {"Anna": {"at": "1a", "from": "home"}}})
    state["edition"] = edition
    run_turn(KIND, state, 1, KEY, state["options"], {"Anna": "move home"})
    assert moved in public(state), public(state)


@pytest.mark.parametrize("edition, text", [
    (1, "Rabbit of Caerbannog cannot be met with wits (it was outwitted once already, 7.5)"),
    (2, "Rabbit of Caerbannog cannot be met with wits (it has no wits)"),
])
def test_outwitting_a_foe_without_wits_gives_the_reason_from_edition_2(edition, text):
    """Found by random play: a Peril with no wits 'was outwitted once already'."""
    state = build(KIND, {"setup": {"Anna": {"england": {"1a": "Rabbit of Caerbannog"}}}})
    state["edition"] = edition
    run_turn(KIND, state, 1, KEY, state["options"], {"Anna": "move 1a\noutwit\nrun away"})
    mine = [e["text"] for e in state["events"] if e["to"] != "public"]
    assert any(text in line for line in mine), mine


@pytest.mark.parametrize("edition", [1, 2])
def test_a_lead_who_has_not_joined_is_not_replaced_by_another_from_edition_2(edition):
    """'move 1a' may bring Lancelot, so 'fight with Lancelot' is taken; if he does not come,
    edition 1 fought with Arthur in his place (who may die of it), edition 2 leaves it out."""
    state = build(KIND, {"setup": {"Anna": {"england": {"1a": "Black Knight"}}}})
    state["edition"] = edition
    run_turn(KIND, state, 1, KEY, state["options"],
             {"Anna": "move 1a\nfight with Lancelot\nrun away"})
    said = public(state)
    mine = [e["text"] for e in state["events"] if e["to"] != "public"]
    fought = any(line.startswith("Arthur combat") for line in said)
    assert fought == (edition == 1), said
    skipped = ("Your order 'fight with Lancelot' was not carried out: Lancelot is not in your "
               "Round Table.")
    assert (skipped in mine) == (edition == 2), mine


@pytest.mark.parametrize("edition, text", [
    (1, "Your order 'move home' was not carried out: home is not next to home."),
    (2, "Your order 'move home' was not carried out: the Round Table is at home already."),
])
def test_a_move_to_where_the_round_table_stands_says_so_from_edition_2(edition, text):
    state = build(KIND, {})
    state["edition"] = edition
    run_turn(KIND, state, 1, KEY, state["options"], {"Anna": "move home"})
    assert text in [e["text"] for e in state["events"] if e["to"] != "public"]


@pytest.mark.parametrize("edition", [1, 2])
def test_an_assault_led_by_someone_absent_is_left_out_from_edition_2(edition):
    state = build(KIND, {"setup": {"Anna": {"england": {"1a": {
        "card": "Tintagel", "up": True, "occupants": ["Bors"],
        "castle": {"consulted": {"Anna": 1}}}}}}})
    state["edition"] = edition
    run_turn(KIND, state, 1, KEY, state["options"], {"Anna": "move 1a\nassault with Lancelot"})
    said = public(state)
    mine = [e["text"] for e in state["events"] if e["to"] != "public"]
    assert any("assaults Tintagel led by Arthur" in line for line in said) == (edition == 1)
    assert ("Your order 'assault with Lancelot' was not carried out: Lancelot is not in your "
            "Round Table." in mine) == (edition == 2), mine
    assert state["game"]["dispute"] is None or edition == 1


@pytest.mark.parametrize("edition", [1, 2])
def test_the_discard_question_lists_each_card_name_once_from_edition_2(edition):
    """Found by random play: 'discard Page; ...; discard Page' for two Page cards in hand."""
    hand = ["Page", "Swamp", "Page", "Herring", "Open Moor", "Catapult", "Coconuts", "Dark Forest"]
    state = build(KIND, {"setup": {"Anna": {"hand": hand}}, "options": {"missing": "wait"}})
    state["edition"] = edition
    run_turn(KIND, state, 1, KEY, state["options"], {"Anna": "end"})
    question = state["pending"]["question"]
    assert question["prompt"] == "Your hand is over the limit: discard 1 card."
    assert question["options"].count("discard Page") == (2 if edition == 1 else 1)
    assert len(question["options"]) == (8 if edition == 1 else 7)


@pytest.mark.parametrize("edition, prompt", [
    (1, "The dispute with Vicious Chicken of Bristol: lead, fight, outwit, play a card or run "
        "away?"),
    (2, "The dispute with Vicious Chicken of Bristol: fight or run away?"),
])
def test_the_dispute_question_names_only_what_can_be_done_from_edition_2(edition, prompt):
    """Found by random play: 'outwit' offered against a Peril without wits."""
    state = build(KIND, {"setup": {"Anna": {"england": {"1a": "Vicious Chicken of Bristol"}}},
                         "options": {"missing": "wait"}})
    state["edition"] = edition
    run_turn(KIND, state, 1, KEY, state["options"], {"Anna": "move 1a"})
    question = state["pending"]["question"]
    assert question["prompt"] == prompt
    assert question["options"] == ["fight with Arthur", "run away"]
