"""FAQ 8: a card turned up that duplicates one already face up in the same England goes to the
dead cart and is replaced from its owner's deck, unless another permanent card holds its area
(casebook 49; 142 and 143 for the exception, docs/grailccg.md, "a card already face up").

In the engine an area holds one card of its own (the duplicate itself, when the question comes
up), the foes standing there and a castle's occupants. A land, castle or village played from hand
sends a face-down card to the dead cart (FAQ 6, case 47), and occupants stand only in a face-up
castle (ccg_play.check_invariants), so the other permanent card can only be a foe whose card says
``permanent = true``: a Write Yer Own adversary or peril (12.1), never a card of the shipped set.
"""
from __future__ import annotations

import pytest

from companion.engine.chance import seed_key
from companion.grailccg.kind import KIND

from ccg_play import build, check_invariants, run_turn

KEY = seed_key("duplicates")
PLACES = ("land", "castle", "village")


def public(state: dict) -> list[str]:
    return [e["text"] for e in state["events"] if e["to"] == "public"]


def test_the_shipped_set_has_no_permanent_card_that_can_stand_beside_another():
    """Only lands, castles and villages are permanent in the shipped set, and each of them is an
    area's own card: with the shipped cards the exception never arises."""
    permanent = [c for c in KIND.cards.cards if c.permanent]
    assert permanent and all(c.type in PLACES for c in permanent)
    assert not [c.name for c in KIND.cards.cards
                if c.type in ("adversary", "peril", "knight", "persona") and c.permanent]


@pytest.mark.parametrize("edition", [3, 4])
def test_an_outwitted_foe_that_is_not_permanent_does_not_stop_the_replacement(edition):
    """The Bridgekeeper (shipped, not permanent) outwitted and still standing over a duplicate:
    the duplicate is replaced under every rules edition, as before."""
    state = build(KIND, {"setup": {
        "Anna": {"deck": [6], "england": {"1a": {"card": "Swamp", "foes": ["Bridgekeeper"]},
                                          "1b": "up:Swamp"}},
        "Bert": {"deck": [1, "Open Moor"]}}})
    state["edition"] = edition
    run_turn(KIND, state, 1, KEY, state["options"], {"Anna": "move 1a\noutwit with Arthur"})
    check_invariants(state)
    events = public(state)
    assert "Swamp is already face up in this England: it goes to the dead cart (FAQ 8)." in events
    assert "Anna's Round Table turns up Open Moor (Land) in 1a." in events
    assert not any("a permanent card" in line for line in events)
    a = state["game"]["england"]["Anna"]["1a"]
    g = state["game"]
    assert g["cards"][a["card"]] == "open-moor" and a["up"]
    assert [g["cards"][f] for f in a["foes"]] == ["bridgekeeper"]
