"""Holy Grail CCG orders as players type them on a phone (docs/grailccg.md): a full stop after
the last word ('Play Bors.', 'move to 1a.'), a card name in quotes, 'please', 'cast' and 'go',
'end turn', 'double the ante'. A line is read a second time only when refused as typed, so a line
accepted before means the same ('play Ni!' is the card Ni!)."""
from __future__ import annotations

import pytest

from companion.engine.orders import OrdersRejected
from companion.grailccg.kind import KIND
from companion.grailccg.orders import line_text, parse_orders

PLAYERS = ["Anna", "Bert"]


def understood(text: str) -> list[str]:
    parsed = parse_orders(KIND.cards, PLAYERS, text, "o.txt")
    return [line_text(KIND.cards, e) for e in parsed.lines]


def refused(text: str) -> str:
    with pytest.raises(OrdersRejected) as info:
        parse_orders(KIND.cards, PLAYERS, text, "o.txt")
    return info.value.render()


@pytest.mark.parametrize("text, meant", [
    # accepted before, the same now: a '!' that belongs to a card's name stays
    ("play ni!", "play Ni!"),
    ("play Burn Her!", "play Burn Her!"),
    ("play Run Away!", "play Run Away!"),
    ("move 1a", "move 1a"),
    # read a second time: refused before
    ("Play Bors.", "play Bors"),
    ("Move to 1a.", "move 1a"),
    ("move to 1A please", "move 1a"),
    ("give Excalibur to Patsy.", "give Excalibur to Patsy"),
    ("play vicious chicken of bristol to 1A.", "play Vicious Chicken of Bristol on 1a"),
    ("play \u201cBors\u201d", "play Bors"),
    ('play "Bors"', "play Bors"),
    ("End.", "end"),
    # natural forms (refused before)
    ("cast bors", "play Bors"),
    ("go to 1a", "move 1a"),
    ("end turn", "end"),
    ("double the ante", "double"),
])
def test_phone_typing_is_understood(text, meant):
    assert understood(text) == [meant]


@pytest.mark.parametrize("text, where, needle", [
    ("move 1a, play bors", "o.txt:1:8", "one order per line: put 'play ...' on a line of its own"),
    ("move 1a and play bors", "o.txt:1:9", "one order per line"),
    ("play bors then end", "o.txt:1:6", "one order per line: put 'end ...'"),
    ("play excaliber.", "o.txt:1:6", "did you mean 'Excalibur'?"),
])
def test_what_stays_refused_says_what_was_meant(text, where, needle):
    out = refused(text)
    assert where in out, out
    assert needle in out, out
