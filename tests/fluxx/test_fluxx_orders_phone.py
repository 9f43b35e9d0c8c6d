"""Fluxx orders as players type them on a phone (docs/fluxx.md): a full stop after a player's
name or a bare keyword, a sung line in curly quotes, 'please', 'cast' for play. A line is read a
second time only when refused as typed, so every line accepted before means the same."""
from __future__ import annotations

import pytest

from companion.engine.orders import OrdersRejected
from companion.fluxx.orders import line_text, parse_orders
from companion.registry import get_kind

DECK = get_kind("fluxx").deck
PLAYERS = ["Anna", "Bert", "Cora"]


def understood(text: str) -> list[str]:
    return [line_text(DECK, e) for e in parse_orders(DECK, PLAYERS, text, "o.txt").lines]


def refused(text: str) -> str:
    with pytest.raises(OrdersRejected) as info:
        parse_orders(DECK, PLAYERS, text, "o.txt")
    return info.value.render()


@pytest.mark.parametrize("text, meant", [
    # accepted before (card names ignore punctuation): the same meaning now
    ("Play The Holy Grail.", "play The Holy Grail"),
    ("Play the Holy Grail!", "play The Holy Grail"),
    ("play bring out your dead!", "play Bring Out Your Dead!"),
    ("play Bring Out Your Dead!.", "play Bring Out Your Dead!"),
    ("play \u201cThe Holy Grail\u201d", "play The Holy Grail"),
    ("play draw 2 and use \u2019em", "play Draw 2 and Use 'em"),
    ("play steal a keeper, taking sir lancelot", "play Steal a Keeper taking Sir Lancelot"),
    ("keep the holy grail.", "keep The Holy Grail"),
    ('sing "Always look on the bright side of life"',
     'sing "Always look on the bright side of life"'),
    # read a second time: refused before
    ("play trade hands with Cora.", "play Trade Hands with Cora"),
    ("play trade hands with cora please", "play Trade Hands with Cora"),
    ("play holy grail please", "play The Holy Grail"),
    ("Ask.", "ask"),
    ("sing \u201cAlways look on the bright side of life\u201d",
     'sing "Always look on the bright side of life"'),
    ("sing \u201cAlways look on the bright side of life\u201d.",
     'sing "Always look on the bright side of life"'),
    ("cast the holy grail", "play The Holy Grail"),
])
def test_phone_typing_is_understood(text, meant):
    assert understood(text) == [meant]


def test_a_quoted_line_with_straight_quotes_keeps_its_curly_ones():
    assert understood('sing "He said \u201chi\u201d"') == ['sing "He said \u201chi\u201d"']


@pytest.mark.parametrize("text, where, needle", [
    ("play trojan rabbit, play holy grail", "o.txt:1:6",
     "one order per line: put 'play ...' on a line of its own"),
    ("play steal a keeper and take sir lancelot", "o.txt:1:6", "did you mean 'taking'?"),
    ("play trade hands with Cora please thanks", "o.txt:1:23", "players: Anna, Bert, Cora"),
])
def test_what_stays_refused_says_what_was_meant(text, where, needle):
    out = refused(text)
    assert where in out, out
    assert needle in out, out


def test_a_short_name_means_the_card_before_the_player_from_edition_2():
    """'play grail' begins Grail-Shaped Beacon's name, but with The Holy Grail in hand (and no
    Beacon before him) a player means the Grail: from rules edition 2 it is read so. Games of
    edition 1 read their stored orders as before; with both cards before him the name's
    beginning still wins, as before."""
    hand = frozenset({"The Holy Grail"})

    def meant(prefer, before_you):
        orders = parse_orders(DECK, PLAYERS, "play grail", "o.txt", prefer, before_you)
        return [line_text(DECK, e) for e in orders.lines]

    assert meant(hand, True) == ["play The Holy Grail"]
    assert meant(hand, False) == ["play Grail-Shaped Beacon"]
    assert meant(hand | {"Grail-Shaped Beacon"}, True) == ["play Grail-Shaped Beacon"]
    assert meant(frozenset(), True) == ["play Grail-Shaped Beacon"]
    kind = get_kind("fluxx")
    from companion.engine.chance import Chance, seed_key

    state = kind.create(PLAYERS, {"missing": "default", "others": "default", "first": "Anna"},
                        Chance(seed_key("g"), 0))
    grail = next(c.id for c in DECK.cards if c.name == "The Holy Grail")
    beacon = next(c.id for c in DECK.cards if c.name == "Grail-Shaped Beacon")
    hand_ids = state["game"]["hands"]["Anna"]
    for where in [state["game"]["hands"][p] for p in PLAYERS] + [state["game"]["deck"]]:
        for card in (grail, beacon):
            if card in where:
                where.remove(card)
    hand_ids.append(grail)
    for edition, name in ((2, "The Holy Grail"), (1, "Grail-Shaped Beacon")):
        state["edition"] = edition
        orders = kind.parse_orders(state, "Anna", "play grail", "o.txt")
        assert [line_text(DECK, e) for e in orders.lines] == [f"play {name}"]
