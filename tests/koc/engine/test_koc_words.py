"""Proper plurals in the texts a player reads (rules edition 2, companion/koc/engine/words.py):
"1 guard", "2 guards"; games begun before edition 2 keep writing "guard(s)", as their stored
history recorded it."""
from __future__ import annotations

import json
import re
from types import SimpleNamespace

from companion.koc.engine.words import plural
from companion.koc.kind import KIND, RULES
from tests.koc.kocplay import play_states

LAZY = re.compile(r"\w+\(s\)")


def test_plural_for_each_edition():
    new, old = {"edition": 2}, {"edition": 1}
    assert KIND.edition >= 2
    assert [plural(new, n, "guard") for n in (0, 1, 2)] == ["guards", "guard", "guards"]
    assert [plural(old, n, "guard") for n in (0, 1, 2)] == ["guard(s)"] * 3
    assert plural({}, 1, "guard") == "guard(s)"                 # edition 0: before editions
    # irregular words; verbs agreeing with their number; an old text of another form
    assert plural(new, 1, "man-at-arms", "men-at-arms") == "man-at-arms"
    assert plural(new, 3, "man-at-arms", "men-at-arms") == "men-at-arms"
    assert plural(old, 3, "man-at-arms", "men-at-arms") == "man-at-arms(s)"
    assert [plural(new, n, "falls", "fall", old="fall") for n in (1, 2)] == ["falls", "fall"]
    assert [plural(old, n, "falls", "fall", old="fall") for n in (1, 2)] == ["fall", "fall"]
    assert plural(old, 1, "flees", "flee", old="flee(s)") == "flee(s)"
    # a session (anything with .game.state) or a game (.state) decides; None: a text that is
    # never stored (a view's)
    session = SimpleNamespace(game=SimpleNamespace(state=new))
    assert plural(session, 1, "turn") == "turn" and plural(session.game, 2, "turn") == "turns"
    session.game.state = old
    assert plural(session, 1, "turn") == "turn(s)" and plural(None, 1, "turn") == "turn"


def test_new_games_write_no_lazy_plurals():
    """Two short random games under the current edition (brigands met and led, knights met in
    groups, turns at King Arthur's court and of a Knave's meditation, wounds of a challenge):
    no "(s)" anywhere in their states (the events); the same games begun before edition 2
    still write them."""
    runs = ((86, 4, 3, {"scenario": "grail", "knaves": ("Anna",)}),
            (83, 5, 10, {"scenario": "campaign", "knaves": ("Anna", "Bert"),
                         "rules": RULES}))
    seen_old = set()
    for seed, players, turns, options in runs:
        for edition in (KIND.edition, 1):
            lazy = set()
            for state in play_states(seed, players, turns, options, edition=edition):
                lazy.update(LAZY.findall(json.dumps(state)))
            if edition == KIND.edition:
                assert not lazy, (seed, sorted(lazy))
            else:
                seen_old |= lazy
    assert {"brigand(s)", "knight(s)", "turn(s)", "wound(s)"} <= seen_old
