"""Counted words in what Medieval Mayhem says when orders are checked (not replayed, so not
tied to a rules edition): '1 set', '2 cards', never 'set(s)' or 'card(s)'."""
from __future__ import annotations

from .helpers import KIND


def question(pending: dict) -> str:
    return KIND.question({"pending": dict(pending, player="Anna")}, "Anna")


def test_questions_count_their_words():
    assert question({"kind": "limit", "over": {"hand": 1, "play": 0, "sets": 1}}) == (
        "what to discard at the end of your turn: 1 from hand, 0 from play, 1 set")
    assert question({"kind": "limit", "over": {"hand": 0, "play": 2, "sets": 2}}).endswith(
        "2 from play, 2 sets")
    assert question({"kind": "give", "count": 1, "what": "destroy 1 Dragon from your hand"}) \
        == "which card to give up: destroy 1 Dragon from your hand"
    assert question({"kind": "give", "count": 2, "what": "capture 2 cards from your hand"}) \
        == "which cards to give up: capture 2 cards from your hand"


def test_number_trigger_limit_counts_cards():
    one = {"name": "numbers", "cards": ["x", "y"]}
    assert KIND.check_trigger(one, 1, []) == "a set of 1s lets you discard up to 1 card"
    three = {"name": "numbers", "cards": ["w", "x", "y", "z"]}
    assert KIND.check_trigger(three, 3, []) == "a set of 3s lets you discard up to 3 cards"
