"""Orders as players type them on a phone (docs/mayhem.md, Orders): a full stop or '!' after
the last word, curly quotes, 'please', 'cast'/'use' for play, 'draw a card'. Such a line is read
a second time only when refused as typed, so every line accepted before means the same; the
refusals that remain say what was probably meant."""
from __future__ import annotations

import pytest

from companion.engine.orders import OrdersRejected
from companion.mayhem.orders import action_text, parse_orders

from .helpers import CAT

PLAYERS = ["Anna", "Bert", "Cora"]


def understood(text: str) -> list[str]:
    orders = parse_orders(CAT, PLAYERS, text, "orders.txt")
    return [action_text(CAT, o.data) for o in orders.actions]


def refused(text: str) -> str:
    with pytest.raises(OrdersRejected) as info:
        parse_orders(CAT, PLAYERS, text, "orders.txt")
    return info.value.render()


@pytest.mark.parametrize("text, meant", [
    # as before: these forms were accepted already and keep their meaning
    ("play Hoard Wyrm at Bert", "play Hoard Wyrm at Bert"),
    ('play "Hoard Wyrm" at Bert', "play Hoard Wyrm at Bert"),
    ("play hoard-wyrm at bert", "play Hoard Wyrm at Bert"),
    ("discard nothing then draw", "discard none then draw"),
    ("DRAW", "draw"),
    # read a second time: refused before
    ("Draw.", "draw"),
    ("Play Hoard Wyrm at Bert.", "play Hoard Wyrm at Bert"),
    ("Recruit Tidal Wave!", "recruit Tidal Wave"),
    ("set Ember Drake, Cinder Whelp, Pyre Wyrm.", "set Ember Drake, Cinder Whelp, Pyre Wyrm"),
    ("play siege ram at cora up to 1.", "play Siege Ram at Cora up to 1"),
    ("play \u201cHoard Wyrm\u201d at Bert", "play Hoard Wyrm at Bert"),
    ("play siege ram at cora taking \u201cEmber Drake\u201d", "play Siege Ram at Cora taking Ember Drake"),
    ("play hoard at bert please", "play Hoard Wyrm at Bert"),
    ("please draw", "draw"),
    ("Please, recruit Cutpurse", "recruit Cutpurse"),
    ("draw, please.", "draw"),
    # synonyms and natural forms (refused before)
    ("cast Hoard Wyrm at Bert", "play Hoard Wyrm at Bert"),
    ("use hoard wyrm at bert", "play Hoard Wyrm at Bert"),
    ("use character at bert", "character at Bert"),
    ("play character at Bert", "character at Bert"),
    ("draw a card", "draw"),
    ("draw 1 card", "draw"),
])
def test_phone_typing_is_understood(text, meant):
    assert understood(text) == [meant]


def test_a_comment_is_left_as_it_was_and_a_line_keeps_its_number():
    text = "# my turn\nplay \u201cHoard Wyrm\u201d at Bert.  # the big one\ndraw please\n"
    orders = parse_orders(CAT, PLAYERS, text, "orders.txt")
    assert [o.line.number for o in orders.actions] == [2, 3]
    assert [action_text(CAT, o.data) for o in orders.actions] == [
        "play Hoard Wyrm at Bert", "draw"]


def test_standing_orders_take_a_full_stop_too():
    orders = parse_orders(CAT, PLAYERS, "defend against Attack.\nkeep Hoard Wyrm, Tidal Queen.",
                          "orders.txt")
    assert [o.data["against"] for o in orders.defend] == [["Attack"]]
    assert orders.hand == {"give": [], "keep": [CAT.card_by_name["Hoard Wyrm"],
                                                CAT.card_by_name["Tidal Queen"]]}


@pytest.mark.parametrize("text, where, needle", [
    ("play hoard wyrm on bert", "orders.txt:1:17", "did you mean 'at'?"),
    ("play hoard wyrm vs bert", "orders.txt:1:17", "did you mean 'at'?"),
    ("play siege ram at cora upto 1", "orders.txt:1:24", "did you mean 'up to'?"),
    ("play tidal queen option A", "orders.txt:1:18", "did you mean 'choose'?"),
    ("play hoard wyrm at bert, draw", "orders.txt:1:24",
     "one order per line: put 'draw ...' on a line of its own"),
    ("play hoard wyrm at bert and draw", "orders.txt:1:25", "one order per line"),
    ("discard siege ram and draw", "orders.txt:1:19", "Discard then Draw is one action"),
    ("discard siege ram, draw", "orders.txt:1:20", "Discard then Draw is one action"),
    ("set ember drake cinder whelp pyre wyrm", "orders.txt:1:17", "separate the three cards with commas"),
    ("set ember drake, cinder whelp and pyre wyrm", "orders.txt:1:31", "with commas"),
    ("draw 2", "orders.txt:1:6", "to draw twice, write 'draw' on two lines"),
    ("Play Hoard Wyrm at Bret.", "orders.txt:1:20", "did you mean 'Bert'?"),
])
def test_what_stays_refused_says_what_was_meant(text, where, needle):
    out = refused(text)
    assert where in out, out
    assert needle in out, out


def test_a_second_reading_that_fails_shows_the_line_as_typed():
    out = refused("play \u201cHoard Wyrn\u201d at Bert.")
    assert "play \u201cHoard Wyrn\u201d at Bert." in out, out
    assert "did you mean 'Hoard Wyrm'?" in out, out
