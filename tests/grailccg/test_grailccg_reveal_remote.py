"""A card turned up by a `reveal area` effect, with nobody entering its area (docs/grailccg.md,
"A card turned up by reveal area"; casebook 144-155).

From rules edition 4 it is handled as a card a Round Table turns up, less what needs someone
there: a duplicate goes to the dead cart and is replaced face down (FAQ 8); an adversary, peril,
knight or persona stands as a foe (7.1); a land, castle or village stays face up; any other card
that is not permanent does nothing and goes to its owner's dead cart, leaving open land (FAQ 3).
Games of editions 0-3 keep the card face up as the area's own card (knights, personas,
adversaries and perils standing as foes), as they always did.
"""
from __future__ import annotations

import pytest

from companion.engine.chance import seed_key
from companion.grailccg.cards import parse_user_cards
from companion.grailccg.kind import KIND, GrailKind

import ccg_play
from ccg_play import build, check_invariants, run_turn

KEY = seed_key("reveal-remote")
FOES = ("Gawain", "Dennis the Peasant", "Black Knight", "Vicious Chicken of Bristol")
PLACES = ("Swamp", "Tintagel", "Plague Village", "Cave of Caerbannog")
OTHERS = ("Holy Relics", "Coconuts", "Page", "Intermission", "Knights of the Round Table",
          "Your Mother Was a Hamster", "What Is Your Name?")


def public(state: dict) -> list[str]:
    return [e["text"] for e in state["events"] if e["to"] == "public"]


def reveal(card: str, edition: int, kind: GrailKind = KIND, anna: dict | None = None,
           england: dict | None = None) -> dict:
    """Anna plays It's Only a Model at Bert's 2a, which holds ``card`` face down."""
    state = build(kind, {"setup": {
        "Anna": dict({"hand": ["It's Only a Model"]}, **(anna or {})),
        "Bert": {"england": dict({"2a": card}, **(england or {}))}}})
    state["edition"] = edition
    run_turn(kind, state, 1, KEY, state.pop("options"),
             {"Anna": "play It's Only a Model at their 2a"})
    check_invariants(state)
    return state


def named(state: dict, insts) -> list[str]:
    g = state["game"]
    return [KIND.cards.get(g["cards"][i]).name for i in insts]


@pytest.mark.parametrize("card", FOES + PLACES + OTHERS)
def test_each_card_type_turned_up_with_nobody_entering(card):
    g = reveal(card, 4)["game"]
    a = g["england"]["Bert"]["2a"]
    if card in FOES:
        assert a["card"] is None and named({"game": g}, a["foes"]) == [card]
    elif card in PLACES:
        assert named({"game": g}, [a["card"]]) == [card] and a["up"]
        assert not a["occupants"] and a["castle"] is None    # occupants come when one arrives
    else:
        assert a["card"] is None and not a["foes"]
        assert card in named({"game": g}, g["dead"]["Anna"])
    for q in ("Anna", "Bert"):         # a page turned up so joins nobody
        assert named({"game": g}, g["table"][q]["pages"]) == ["Patsy"]


@pytest.mark.parametrize("card", FOES + PLACES + OTHERS)
@pytest.mark.parametrize("edition", [0, 3])
def test_earlier_editions_keep_the_card_face_up(card, edition):
    state = reveal(card, edition)
    g = state["game"]
    a = g["england"]["Bert"]["2a"]
    if card in FOES:
        assert a["card"] is None and named(state, a["foes"]) == [card]
    else:
        assert named(state, [a["card"]]) == [card] and a["up"]
        assert card not in named(state, g["dead"]["Anna"])
    assert not any("stays face up" in line or "does nothing, since" in line or "stands in 2a"
                   in line for line in public(state))


def test_nobody_is_asked_about_a_primary_property_and_no_secondary_works():
    """Coconuts ('draw 1' as its secondary) and Intermission: nobody draws, nobody is asked."""
    for card in ("Coconuts", "Intermission"):
        state = reveal(card, 4)
        events = public(state)
        assert not any("secondary property works" in line or "primary property" in line
                       for line in events), events
        assert not state.get("pending")
        assert len(state["game"]["hands"]["Anna"]) == 0


def test_a_castle_turned_up_so_gets_its_occupant_when_a_round_table_arrives():
    state = reveal("Tintagel", 4, anna={"deck": ["Bors"]}, england={"1a": "up:Open Moor"})
    g = state["game"]
    assert "Tintagel stays face up in 2a." in public(state)
    g["table"]["Bert"]["at"], g["table"]["Bert"]["from"] = "1a", "home"
    run_turn(KIND, state, 2, KEY, {"missing": "default"}, {"Bert": "move 2a"})
    check_invariants(state)
    assert "Anna puts Bors from the deck into Tintagel (8.1)." in public(state)
    assert named(state, state["game"]["england"]["Bert"]["2a"]["occupants"]) == ["Bors"]


def test_a_duplicate_whose_owner_has_no_card_left_leaves_open_land():
    state = reveal("Swamp", 4, anna={"fill": 0}, england={"1b": "up:Swamp"})
    a = state["game"]["england"]["Bert"]["2a"]
    assert a["card"] is None
    assert ("Swamp is already face up in Bert's England: it goes to Anna's dead cart, and "
            "Anna's deck has no card to replace it, so 2a is open land (FAQ 8, FAQ 3)."
            in public(state))


def test_a_permanent_write_yer_own_item_stays_face_up():
    text = ('[[item]]\nname = "Standing Stone of Camelot"\ngrail = 3\nprimary = "draw 1"\n'
            'permanent = true\n')
    kind = GrailKind(cards=parse_user_cards(text, "stone.toml"))
    ccg_play._CARDS["kind"] = kind
    try:
        state = reveal("Standing Stone of Camelot", 4, kind=kind)
    finally:
        ccg_play._CARDS.pop("kind", None)
    a = state["game"]["england"]["Bert"]["2a"]
    assert a["up"] and state["game"]["cards"][a["card"]] == "standing-stone-of-camelot"
    assert ("Standing Stone of Camelot stays face up in 2a; no Round Table turned it up, so it "
            "does nothing (FAQ 1)." in public(state))
