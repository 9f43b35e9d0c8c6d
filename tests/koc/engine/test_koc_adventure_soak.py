"""Random play with adventures and tournaments happening (issue 14): engine-only games of several
knights over many game turns, orders drawn from the legal order lines (sharing adventures and
declaring tournaments among them). The games must actually complete, fail and share
adventures and hold tournaments, with every invariant of the random-play tests holding after
every turn, and the same seed giving the same game.

COMPANION_SOAK=1 plays more and longer games."""
from __future__ import annotations

import os
from collections import Counter

from tests.koc.engine.test_koc_random_play import check_invariants
from tests.koc.kocplay import play_states

SOAK = os.environ.get("COMPANION_SOAK") == "1"
# a tournament is rare in random play (about one game in twenty-four to seventy holds one):
# seed 71 holds one under the current rules edition (the helpers play it:
# tests/koc/kocplay.py). (It was seed 19 until a prisoner was offered 'stay', one legal line
# more for the random orders to draw from.)
GAMES = [(seed, 4 + seed % 3) for seed in ([*range(24), 71] if SOAK else (0, 1, 2, 3, 4, 71))]
TURNS = 60 if SOAK else 36
OPTIONS = {"rules": ("optional_adventures", "short_tournaments", "signal_honour")}


def tally(texts: list[str], counts: Counter) -> None:
    for text in texts:
        if text.startswith("Adventure ") and text.endswith(" is accomplished."):
            counts["completed"] += 1
        elif text.startswith("Adventure ") and (text.endswith(" has failed.") or
                                                "cannot be done" in text):
            counts["failed"] += 1
        elif text.startswith("Adventure ") and text.endswith(" is abandoned."):
            counts["abandoned"] += 1
        elif " to share adventure " in text or " will share adventure " in text:
            counts["shared"] += 1
        elif "ournament" in text and " begins: " in text:
            counts["tournaments"] += 1
        elif text.startswith("Joust: ") or " jousts " in text:
            counts["jousts"] += 1


def test_adventures_and_tournaments_happen_in_random_play():
    counts: Counter = Counter()
    for seed, players in GAMES:
        for n, state in enumerate(play_states(5000 + seed, players, TURNS,
                                              dict(OPTIONS) if seed % 2 else None)):
            check_invariants(state)
            tally([e["text"] for e in state.get("events", [])], counts)
    print(dict(counts))
    assert counts["completed"] >= 3, counts
    assert counts["failed"] >= 1, counts
    assert counts["shared"] >= 1, counts
    assert counts["tournaments"] >= 1, counts


def test_random_play_with_adventures_is_deterministic():
    a = [s for s in play_states(5001, 5, 20)][-1]
    b = [s for s in play_states(5001, 5, 20)][-1]
    assert a == b
