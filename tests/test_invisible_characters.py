"""Invisible characters in orders, as phones, mail clients and web pages slip them in: a
no-break space or a zero-width space between words, a soft hyphen, a word joiner, a zero-width
joiner or a direction mark inside a word.  For every kind, each legal order line with such
characters is understood exactly as the clean line (Hypothesis); an error on such a line still
puts its caret under the right word; and no player name may hold them (two players could
otherwise look alike)."""
from __future__ import annotations

import os
from functools import lru_cache

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.engine.identity import IdentityError, check_player_name
from companion.engine.names import fold
from companion.engine.orders import OrdersRejected
from companion.registry import get_kind
from companion.store import Store

from tests.every_kind import PLAYABLE, play

EXAMPLES = int(os.environ.get("COMPANION_PROPERTY_EXAMPLES", "100")) // 2
SETTINGS = settings(max_examples=max(EXAMPLES, 10), deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
BETWEEN = ["\u00a0", "\u200b", "\u2009", "\u3000", " \u200b", "\u202f"]
INSIDE = ["\u00ad", "\u2060", "\u200d", "\u200c", "\ufeff", "\u200e", "\u200f"]
NAMES = ["Anna", "Bert", "Cora"]


@lru_cache(maxsize=None)
def position(kind_id: str, tmp: str) -> tuple[dict, tuple[tuple[str, tuple[str, ...]], ...]]:
    """A state after two turns of play and each player's legal lines in it."""
    store = Store(f"{tmp}/{kind_id}.sqlite3", create=True)
    play(store, kind_id, "g", NAMES, seed="invisible", turns=2)
    state = store.turn("g").state
    kind = get_kind(kind_id)
    lines = tuple((p, tuple(kind.options_for(state, p))) for p in NAMES)
    store.close()
    return state, tuple((p, ls) for p, ls in lines if ls)


def understood(kind, state: dict, player: str, text: str) -> list[str]:
    orders = kind.parse_orders(state, player, text, "o.txt")
    kind.check_orders(state, player, orders, "o.txt")
    return kind.acknowledge(state, player, orders)


def sprinkle(data, line: str) -> str:
    """``line`` with one to three invisible characters: between words or inside one."""
    for _ in range(data.draw(st.integers(1, 3), label="count")):
        if data.draw(st.booleans(), label="between") and " " in line:
            spaces = [i for i, ch in enumerate(line) if ch == " "]
            at = data.draw(st.sampled_from(spaces), label="space")
            line = line[:at] + data.draw(st.sampled_from(BETWEEN)) + line[at + 1:]
        else:
            letters = [i for i, ch in enumerate(line) if ch.isalpha() and i > 0
                       and line[i - 1].isalpha()]
            if not letters:
                continue
            at = data.draw(st.sampled_from(letters), label="letter")
            line = line[:at] + data.draw(st.sampled_from(INSIDE)) + line[at:]
    return line


@pytest.mark.parametrize("kind_id", PLAYABLE)
def test_legal_lines_with_invisible_characters_are_understood_as_the_clean_ones(
        kind_id, tmp_path_factory):
    state, players = position(kind_id, str(tmp_path_factory.mktemp(kind_id)))
    kind = get_kind(kind_id)
    assert players, "nobody has anything to order"

    @SETTINGS
    @given(data=st.data())
    def check(data):
        player, lines = data.draw(st.sampled_from(players), label="player")
        line = data.draw(st.sampled_from(lines), label="line")
        sprinkled = sprinkle(data, line)
        assert understood(kind, state, player, sprinkled + "\n") == \
            understood(kind, state, player, line + "\n"), repr(sprinkled)

    check()


def test_an_error_after_an_invisible_character_points_at_the_right_word():
    kind = get_kind("gral")
    from tests.every_kind import play as _play  # noqa: F401 (the state below is a new game)
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        state, players = position("gral", tmp)
    player = players[0][0]
    with pytest.raises(OrdersRejected) as info:
        understood(kind, state, player, "as\u00adsign\u200b3 tо Adam\n".replace("о", "o")
                   .replace("to", "ot"))
    shown = info.value.render().splitlines()
    text, caret = shown[1], shown[2]
    assert "\u00ad" not in text and "\u200b" not in text
    assert caret.index("^") == text.index("ot"), shown


@pytest.mark.parametrize("name", ["An\u00adna", "An\u200dna", "An\u200cna", "An\u2060na",
                                  "Anna\u200e", "An\ufeffna", "An\u200bna"])
def test_no_player_name_holds_an_invisible_character(name):
    with pytest.raises(IdentityError, match="invisible"):
        check_player_name(name)
    assert fold(name) == ("an na" if "\u200b" in name else "anna")
