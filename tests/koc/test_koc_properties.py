"""Property-based tests of the Knights of Camelot input readers (Hypothesis).

* Any text given as orders either parses and checks, or is refused with OrdersRejected whose
  every error has a line and a column; no other exception escapes.
* Any text given as a setup position either reads, or is refused with DataError/DataErrors
  whose every error names the file, a line and a column; mutations of valid positions too.
* Positions of states reached by random play read back as the same state, and write again as
  the same text.
"""
from __future__ import annotations

import json
import random
import string

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from companion.engine.chance import Chance, seed_key
from companion.engine.orders import OrdersRejected
from companion.errors import DataError, DataErrors
from companion.koc.engine.questions import CATALOGUE, load_all
from companion.koc.kind import KIND
from companion.koc.orders import KEYWORDS, PERSONS, REQUESTS
from tests.koc.kocplay import play_states

load_all()
WORLD = KIND.world
PLAYERS = ["Anna", "Bert", "Cora"]
SETTINGS = dict(deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _fresh_state() -> dict:
    state = KIND.create(PLAYERS, {"missing": "default", "scenario": "basic",
                                  "first-player": "fixed", "rules": ()},
                        Chance(seed_key("1"), 0))
    state["events"] = []
    return state


STATE = _fresh_state()
# a few states from play: a knight at sea, in a party, waiting for an answer, ...
PLAYED = [s for i, s in enumerate(play_states(11, 3, 12, {"missing": "wait"})) if i % 3 == 0]


# ------------------------------------------------------------------------------ orders
AREAS = sorted(WORLD.areas)
WORDS = (list(KEYWORDS) + list(REQUESTS) + list(PERSONS) + PLAYERS + ["to", "then", "for",
         "of", "party", "guard", "lady", "none", "yes", "no", "avoid", "attack", "Anna's",
         "to heal", "the relative"] + sorted(CATALOGUE) +
         sorted({t for spec in CATALOGUE.values() for t in spec.tags}) +
         sorted({a for spec in CATALOGUE.values() for a in spec.answers}) +
         sorted({v for spec in CATALOGUE.values() for v in spec.values}))
PIECES = st.one_of(
    st.sampled_from(WORDS), st.sampled_from(AREAS),
    st.sampled_from(AREAS).map(lambda a: a[: max(1, len(a) // 2)]),
    st.integers(-3, 400).map(str),
    st.sampled_from([",", ":", "<=", ">=", "=", "<", ">", '"', '""', "#", "-", "'", "(", ")",
                     "+", ";", "--", ">", " ", "\t", "é", "\u00a0", "\u200b"]),
    st.text(alphabet=string.ascii_letters + "_<>=:", min_size=1, max_size=6),
)
ORDER_LINE = st.lists(PIECES, min_size=1, max_size=8).map(" ".join)
ORDER_TEXT = st.one_of(
    st.text(max_size=200),
    st.lists(ORDER_LINE, min_size=1, max_size=6).map("\n".join),
    st.lists(st.one_of(ORDER_LINE, st.text(max_size=30)), min_size=1,
             max_size=6).map("\n".join),
)


def check_order_text(state: dict, player: str, text: str) -> None:
    try:
        orders = KIND.parse_orders(state, player, text, "o.txt")
        KIND.check_orders(state, player, orders, "o.txt")
        KIND.acknowledge(state, player, orders)
    except OrdersRejected as rejected:
        assert rejected.errors
        for error in rejected.errors:
            assert error.line is not None and error.col is not None, error.format()
            assert error.line.number >= 1 and error.col >= 1, error.format()
            assert f"o.txt:{error.line.number}:{error.col}:" in rejected.render()


@settings(max_examples=300, **SETTINGS)
@given(ORDER_TEXT, st.sampled_from(PLAYERS))
def test_any_order_text_parses_or_is_refused_with_line_and_column(text, player):
    check_order_text(STATE, player, text)


@settings(max_examples=150, **SETTINGS)
@given(ORDER_TEXT, st.integers(0, 1000))
def test_order_texts_against_played_states(text, pick):
    state = PLAYED[pick % len(PLAYED)]
    player = state["koc"]["order"][pick % len(state["koc"]["order"])]
    check_order_text(state, player, text)


@settings(max_examples=100, **SETTINGS)
@given(st.integers(0, 1000), st.randoms(use_true_random=False))
def test_legal_lines_mixed_with_noise(pick, rng):
    state = PLAYED[pick % len(PLAYED)]
    player = state["koc"]["order"][pick % len(state["koc"]["order"])]
    lines = KIND.options_for(state, player) or ["stay"]
    chosen = [rng.choice(lines) for _ in range(rng.randint(1, 5))]
    for i, line in enumerate(chosen):
        if rng.random() < 0.4:
            cut = rng.randint(0, len(line))
            chosen[i] = line[:cut] + rng.choice(["", " ", ",", ":", "x", '"', "#"]) + line[cut:]
    check_order_text(state, player, "\n".join(chosen))


@pytest.mark.parametrize("text", [
    'request heal of ""', 'request heal of " "', 'join ""', 'move ""', 'seek ""',
    'pray for ""', 'request ""', 'answer encounter: ""', 'debark Cornwall, Devon',
    'join Bert, Cora', 'request heal of lady, king',
])
def test_regression_empty_names_and_trailing_text_are_located_errors(text):
    """Found by the properties: 'of ""' crashed with IndexError; empty quoted names and text
    after a complete order were silently accepted."""
    with pytest.raises(OrdersRejected) as caught:
        orders = KIND.parse_orders(STATE, "Anna", text, "o.txt")
        KIND.check_orders(STATE, "Anna", orders, "o.txt")
    assert all(e.line is not None and e.col is not None for e in caught.value.errors)


def test_regression_orders_after_the_game_is_over_have_a_line():
    state = json.loads(json.dumps(STATE))
    state["koc"]["over"] = True
    orders = KIND.parse_orders(state, "Anna", "# mine\nstay\n", "o.txt")
    with pytest.raises(OrdersRejected) as caught:
        KIND.check_orders(state, "Anna", orders, "o.txt")
    assert "o.txt:2:1:" in caught.value.render()


# ------------------------------------------------------------------------------ positions
def data_errors(error) -> list[DataError]:
    return error.errors if isinstance(error, DataErrors) else [error]


def check_position_text(text: str) -> dict | None:
    """Read a position: it reads (and is a state the engine can use), or every error is
    located; nothing else escapes."""
    lines = max(1, len(text.splitlines()))
    try:
        state = KIND.read_position(text, "p.toml", {})
    except (DataError, DataErrors) as error:
        for e in data_errors(error):
            assert e.path == "p.toml", e.render()
            assert isinstance(e.line, int) and isinstance(e.column, int), e.render()
            assert 1 <= e.line <= lines + 1 and e.column >= 1, e.render()
            assert "cannot be read (" not in e.message, e.render()   # the reader's safety net
            assert f"p.toml:{e.line}:{e.column}: error" in error.render()
        return None
    check_state(state)
    return state


def check_state(state: dict) -> None:
    """A state read from a position is one the engine can work with."""
    from tests.koc.engine.test_koc_random_play import check_invariants

    check_invariants(state)
    for deck, cards in (("knights", WORLD.knights), ("kings", WORLD.kings),
                        ("ladies", WORLD.ladies)):
        pile = state["decks"][deck]
        assert set(pile["draw"] + pile["discard"] + pile["removed"]) <= {c.name for c in cards}
    text = KIND.write_position(state)
    for player in state["koc"]["order"]:
        KIND.options_for(state, player)
        KIND.view(state, player)
        check_order_text(state, player, "stay\non encounter: avoid\n")
    assert KIND.read_position(text, "again.toml", {}) is not None


HAND = """\
game = "koc"
scenario = "basic"
turn = 3
order = ["Anna", "Bert", "Cora"]
current = "Bert"

[merlin]
area = "Hampshire"
who = "merlin"

[decks]
knights = ["Sir Kay", "Sir Bors"]
ladies_discard = ["Lady Lyonesse"]

[draws]
monster = ["Lion 5"]

[parties]
Bert = ["Cora"]

[knight.Anna]
cp = 120
vp = 30
at = "Camelot Castle"
where = "inside"
lord = "King Arthur"
gear = ["horse", "sword"]
comrades = ["Sir Gawain"]
poison = 1
held_wl = 12

[knight.Bert]
cp = 60
vp = 6
at = "Cornwall"
dwarf = "arthurian"
mascot = "Hart"
men_at_arms = ["Sir Dinadan"]

[knight.Cora]
at = {area = "Cornwall"}
lady = "Lady Lyonesse"
luck = 4
wounds = 2
"""


def test_the_hand_written_position_reads():
    state = check_position_text(HAND)
    assert state is not None, KIND.read_position(HAND, "p.toml", {})
    assert "Sir Gawain" not in state["decks"]["knights"]["draw"]      # held: out of the deck


WRITTEN = KIND.write_position(PLAYED[-1])
FIELDS = WRITTEN.rpartition("\n[engine]\n")[0] + "\n"
BASES = [HAND, WRITTEN, FIELDS]
NUMBER = __import__("re").compile(r"-?\d+")
STRING = __import__("re").compile(r'"[^"\n]*"')


@st.composite
def mutated(draw) -> str:
    text = draw(st.sampled_from(BASES))
    for _ in range(draw(st.integers(1, 3))):
        lines = text.splitlines()
        how = draw(st.sampled_from(["delete", "duplicate", "number", "string", "truncate",
                                    "insert", "swap"]))
        i = draw(st.integers(0, max(0, len(lines) - 1)))
        if how == "delete" and lines:
            del lines[i]
        elif how == "duplicate" and lines:
            lines.insert(i, lines[i])
        elif how == "number":
            found = list(NUMBER.finditer(lines[i])) if lines else []
            if found:
                m = draw(st.sampled_from(found))
                new = draw(st.sampled_from(["0", "-1", "5", "9", "301", "400", "7", "1",
                                            "99999999999999999999", "1.5", '"ten"', "true",
                                            "[]", "{}", "nan"]))
                lines[i] = lines[i][:m.start()] + new + lines[i][m.end():]
        elif how == "string":
            found = list(STRING.finditer(lines[i])) if lines else []
            if found:
                m = draw(st.sampled_from(found))
                new = draw(st.one_of(
                    st.sampled_from(['"Anna"', '"Zed"', '"Hampshre"', '"Sir Kay"', '"ship"',
                                     '"King Arthur"', '"Lady Lyonesse"', '""', "12", "true",
                                     '"Camelot Castle"', '"Celtic Sea"', '"prison"', "[]",
                                     "{}", '"morgan"', '"arthurian"', "1979-05-27"]),
                    st.sampled_from(AREAS).map(lambda a: f'"{a}"'),
                    st.text(max_size=8).map(json.dumps)))
                lines[i] = lines[i][:m.start()] + new + lines[i][m.end():]
        elif how == "truncate":
            cut = draw(st.integers(0, len(text)))
            lines = text[:cut].splitlines()
        elif how == "insert":
            lines.insert(i, draw(st.sampled_from([
                "[knight.Zed]", 'at = "Cornwall"', "cp = 400", "vp = 0", "[decks]",
                'knights = ["Sir Kay", "Sir Kay"]', "[parties]", 'Anna = ["Anna"]',
                'Cora = ["Bert"]', "[merlin]", 'where = "ship"', "luck = 9", "turn = 0",
                'order = ["Anna"]', "[engine]", 'state = "{}"', "x = 1", "wounds = -2",
                'comrades = ["Sir Kay"]', 'current = "Zed"', "[[knight]]", "poison = 3",
                'gear = {horse = "yes"}', 'tasks = [1]', 'lord = {kind = "king"}',
                'items = [{key = 1}]', 'immobile = ["x"]', 'at = {area = 3}',
                '[castles]', '"X" = {guards = [{name = "Sir Kay"}]}', 'standing = [{}]',
            ])))
        elif how == "swap" and len(lines) > 1:
            j = draw(st.integers(0, len(lines) - 1))
            lines[i], lines[j] = lines[j], lines[i]
        text = "\n".join(lines) + ("\n" if lines else "")
    return text


@settings(max_examples=250, **SETTINGS)
@given(mutated())
def test_mutated_positions_read_or_are_refused_with_locations(text):
    check_position_text(text)


TOML_WORDS = st.sampled_from(['game = "koc"', "[knight.Anna]", "[knight.Bert]", "[merlin]",
                              "[decks]", "[parties]", "[engine]", 'order = ["Anna", "Bert"]',
                              'at = "Cornwall"', "cp = 50", "vp = 5", "=", "[", "]", '"',
                              "'''", '"""', "\\", "{", "}", ",", "\n", "#", "turn = 1",
                              'state = "', 'who = "morgan"', "knights = [", "1979-05-27"])


@settings(max_examples=200, **SETTINGS)
@given(st.one_of(st.text(max_size=300),
                 st.lists(st.one_of(TOML_WORDS, st.text(max_size=10)), max_size=30)
                 .map(" ".join),
                 st.lists(TOML_WORDS, max_size=30).map("\n".join)))
def test_any_text_as_a_position_reads_or_is_refused_with_locations(text):
    check_position_text(text)


# ------------------------------------------------------------------------------ round trips
GAMES = [(seed, 2 + seed % 4, opts) for seed, opts in
         [(101, {}), (102, {"missing": "wait"}), (103, {"scenario": "grail"}),
          (104, {"scenario": "campaign"}), (105, {"scenario": "advanced"}), (106, {})]]


def round_trip(state: dict) -> None:
    text = KIND.write_position(state)
    back = KIND.read_position(text, "p.toml", {})
    same = {k: v for k, v in state.items() if k != "events"}
    assert json.loads(json.dumps(back | {"events": []})) == \
        json.loads(json.dumps(same | {"events": []}))
    assert KIND.write_position(back) == text
    # the fields alone (a hand-edited position without [engine]) read too
    fields = KIND.read_position(text.rpartition("\n[engine]\n")[0] + "\n", "p.toml", {})
    check_invariants_light(fields)


def check_invariants_light(state: dict) -> None:
    from tests.koc.engine.test_koc_random_play import check_invariants

    check_invariants(state)


@settings(max_examples=12, derandomize=True, **SETTINGS)
@given(st.sampled_from(GAMES), st.integers(1, 14))
def test_positions_of_played_states_round_trip(game, turns):
    seed, players, opts = game
    for state in play_states(seed * 100 + turns, players, turns, opts):
        round_trip(state)


@settings(max_examples=40, **SETTINGS)
@given(st.integers(0, len(PLAYED) - 1), st.sampled_from(["Anna", "Bert", "Cora", "public"]))
def test_player_positions_read_back(pick, viewer):
    """A player's own position (no decks, no [engine]) still reads as a position."""
    text = KIND.write_position(PLAYED[pick], viewer)
    check_position_text(text)
