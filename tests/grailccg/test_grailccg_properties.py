"""Property-based tests of the Holy Grail CCG input readers (Hypothesis), as the other games have.

* Any text given as orders, against states of real (random) play, either parses and checks, or
  is refused with OrdersRejected whose every error has a line and a column; nothing else ever
  escapes (no KeyError, IndexError or ValueError from a strange line).
* Any text given as a position, and every mutation of a real one (lines deleted, duplicated,
  numbers changed, names swapped, the file cut short), either reads or is refused with
  DataError/DataErrors whose every error has the file, a line and a column.  A mutated position
  that does read is a whole one: every card in exactly one place, the invariants of play.
"""
from __future__ import annotations

import os
import re
from functools import lru_cache
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.engine.orders import OrdersRejected, order_lines
from companion.errors import DataError, DataErrors
from companion.grailccg import cards as cards_module, england as E
from companion.grailccg.kind import KIND
from companion.grailccg.orders import HEADS, STOPS, TRIGGERS
from companion.grailccg.position import KEYS

from ccg_play import NAMES, check_invariants, engine_game
from test_grailccg_user_cards import CARDS as CARD_FILE

EXAMPLES = int(os.environ.get("COMPANION_PROPERTY_EXAMPLES", "100"))
SETTINGS = settings(max_examples=EXAMPLES, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                           HealthCheck.filter_too_much])
GAMES = ((301, {}), (302, {"missing": "wait"}), (303, {"grail-draw": "bottom", "hand-limit": 5}),
         (304, {"doubling": "off", "after-defeat": "search"}))
OPTIONS = {"missing": "default", "first": "random", "decks": None, "grail-draw": "discard",
           "hand-limit": 7, "doubling": "on"}


# ------------------------------------------------------------------------ states of real play
@lru_cache(maxsize=1)
def played() -> tuple[tuple[dict, dict], ...]:
    """(state, options) after every turn of a few random games (every 3rd turn kept)."""
    out = []
    for seed, options in GAMES:
        record: list = []
        engine_game(seed, options, max_turns=300, record=record)
        opts = dict(OPTIONS, **options)
        out += [(state, opts) for k, (_, _, state) in enumerate(record) if k % 3 == 0]
    return tuple(out)


def pick(data) -> tuple[dict, dict]:
    states = played()
    return states[data.draw(st.integers(0, len(states) - 1), label="state")]


# ------------------------------------------------------------------------------------ texts
CARD_NAMES = sorted({c.name for c in KIND.cards.cards})
WORDS = (list(HEADS) + list(STOPS) + list(TRIGGERS) + list(E.AREAS) + [E.HOME, "av1", "av5"]
         + ["away", "outside", "prisoners", "apply", "ignore", "all", "none", "and", "then",
            ",", ";", ":", "=", "#", '"', "(", ")", "[1-04]", "[9-99]", "--", "yes", "no"]
         + CARD_NAMES + [n.split()[0] for n in CARD_NAMES] + NAMES + ["Zora"]
         + list(KEYS) + [f"{k}:" for k in KEYS]
         + ["0", "1", "2", "3", "7", "99", "007", "1" * 30, "-1", "²", "٣"])
word = st.one_of(st.sampled_from(WORDS), st.integers(-3, 120).map(str), st.text(max_size=6))
line = st.lists(word, max_size=12).map(" ".join)
vocab_text = st.lists(line, max_size=8).map("\n".join)
any_text = st.one_of(st.text(max_size=300), vocab_text)


def assert_located_orders(rejected: OrdersRejected) -> None:
    assert rejected.errors, "rejected without any error"
    for error in rejected.errors:
        assert error.line is not None and error.col is not None, error.format()
        assert error.col >= 1 and error.line.number >= 1, error.format()
    rejected.render()


def check_orders_text(state: dict, player: str, text: str) -> None:
    if not order_lines(text):
        return          # the shared code refuses a text without order lines before parsing
    try:
        orders = KIND.parse_orders(state, player, text, "fuzz.txt")
        KIND.check_orders(state, player, orders, "fuzz.txt")
        KIND.acknowledge(state, player, orders)
    except OrdersRejected as rejected:
        assert_located_orders(rejected)


@SETTINGS
@given(data=st.data(), text=any_text)
def test_any_order_text_parses_or_is_refused_with_locations(data, text):
    state, _ = pick(data)
    player = data.draw(st.sampled_from(state["players"]), label="player")
    check_orders_text(state, player, text)


@SETTINGS
@given(data=st.data())
def test_legal_lines_with_noise_parse_or_are_refused_with_locations(data):
    state, _ = pick(data)
    player = data.draw(st.sampled_from(state["players"]), label="player")
    lines = KIND.options_for(state, player) or ["end"]
    picked = data.draw(st.lists(st.sampled_from(lines), min_size=1, max_size=4), label="lines")
    noise = data.draw(st.lists(word, max_size=3), label="noise")
    where = data.draw(st.sampled_from(["after", "inside"]), label="where")
    if where == "inside" and noise:
        first = picked[0].split()
        cut = data.draw(st.integers(0, len(first)), label="cut")
        picked[0] = " ".join(first[:cut] + noise + first[cut:])
        text = "\n".join(picked)
    else:
        text = "\n".join(picked) + ("\n" + " ".join(noise) if noise else "")
    check_orders_text(state, player, text)


# -------------------------------------------------------------------------------- positions
WHOLE_FILE = ("the file holds no cards", "the deck has ")
"""Mistakes of a whole file, not of a line: named with the file only."""


def assert_located_data(error, path: str = "pos.txt") -> None:
    errors = error.errors if isinstance(error, DataErrors) else [error]
    assert errors
    for e in errors:
        if e.message.startswith(WHOLE_FILE):
            assert e.path == path, e.render()
            continue
        assert e.path == path and e.line is not None and e.column is not None, e.render()
        assert e.line >= 1 and e.column >= 1, e.render()
    error.render()


def read_or_refuse(text: str, options: dict) -> dict | None:
    try:
        return KIND.read_position(text, "pos.txt", options)
    except (DataError, DataErrors) as error:
        assert_located_data(error)
        return None


@SETTINGS
@given(text=any_text)
def test_any_position_text_reads_or_is_refused_with_locations(text):
    read_or_refuse(text, OPTIONS)
    read_or_refuse("game: grailccg\nplayers: Anna, Bert\n" + text, OPTIONS)


def mutate(data, text: str) -> str:
    lines = text.splitlines()
    how = data.draw(st.sampled_from(["delete", "duplicate", "number", "swap", "truncate",
                                     "replace", "insert", "move"]), label="mutation")
    if not lines:
        return text
    i = data.draw(st.integers(0, len(lines) - 1), label="line")
    if how == "delete":
        del lines[i]
    elif how == "duplicate":
        lines.insert(i, lines[i])
    elif how == "number":
        new = data.draw(st.one_of(st.integers(-3, 120).map(str), st.sampled_from(
            ["", "x", "1" * 40, "²"])), label="number")
        lines[i] = re.sub(r"\d+", new, lines[i], count=data.draw(st.integers(0, 3)))
    elif how == "swap":
        names = CARD_NAMES + NAMES + list(E.AREAS) + ["Zora", "home", "av1", "av3"]
        old = data.draw(st.sampled_from(names), label="old")
        lines[i] = lines[i].replace(old, data.draw(st.sampled_from(names), label="new"))
    elif how == "truncate":
        whole = "\n".join(lines)
        return whole[:data.draw(st.integers(0, len(whole)), label="cut")]
    elif how == "replace":
        lines[i] = data.draw(line, label="new line")
    elif how == "move":
        j = data.draw(st.integers(0, len(lines) - 1), label="to")
        lines.insert(j, lines.pop(i))
    else:
        lines.insert(i, data.draw(line, label="new line"))
    return "\n".join(lines) + "\n"


@SETTINGS
@given(data=st.data())
def test_mutated_positions_read_or_are_refused_with_locations(data):
    states = [pair for pair in played() if pair[0]["game"]["stage"] != "over"]
    state, options = states[data.draw(st.integers(0, len(states) - 1), label="state")]
    text = KIND.write_position(state)
    for _ in range(data.draw(st.integers(1, 3), label="mutations")):
        text = mutate(data, text)
    back = read_or_refuse(text, options)
    if back is not None:
        check_invariants(back)


# ------------------------------------------------------------------- card files and deck lists
DATA = Path(cards_module.__file__).parent / "data"
SHIPPED = sorted(DATA.glob("*.toml"))


def card_file_text(data) -> str:
    """The sample card file, or one table of a shipped card file under a new name."""
    if data.draw(st.booleans(), label="sample"):
        return CARD_FILE
    text = data.draw(st.sampled_from(SHIPPED), label="file").read_text(encoding="utf-8")
    blocks = re.split(r"(?m)^(?=\[\[)", text)[1:]
    block = data.draw(st.sampled_from(blocks), label="table")
    return re.sub(r'(?m)^name = "([^"]*)"', r'name = "\1 the Second"', block, count=1)


def read_cards_or_refuse(text: str):
    from companion.grailccg.cards import parse_user_cards

    try:
        return parse_user_cards(text, "cards.toml")
    except (DataError, DataErrors) as error:
        assert_located_data(error, "cards.toml")
        return None


@SETTINGS
@given(data=st.data())
def test_mutated_card_files_read_or_are_refused_with_locations(data):
    text = card_file_text(data)
    assert read_cards_or_refuse(text) is not None, text
    for _ in range(data.draw(st.integers(1, 3), label="mutations")):
        text = mutate(data, text)
    read_cards_or_refuse(text)


@SETTINGS
@given(text=any_text)
def test_any_text_as_a_card_file_reads_or_is_refused_with_locations(text):
    read_cards_or_refuse(text)


DECKS = sorted((DATA / "decks").glob("*.txt"))


@SETTINGS
@given(data=st.data())
def test_mutated_deck_lists_read_or_are_refused_with_locations(data):
    from companion.grailccg.cards import parse_deck

    text = data.draw(st.sampled_from(DECKS), label="deck").read_text(encoding="utf-8")
    for _ in range(data.draw(st.integers(1, 3), label="mutations")):
        text = mutate(data, text)
    try:
        deck = parse_deck(text, "deck.txt", card_set=KIND.cards, name="mine")
        errors = deck.check(KIND.cards)
    except (DataError, DataErrors) as error:
        assert_located_data(error, "deck.txt")
        return
    if errors:
        assert_located_data(DataErrors(errors), "deck.txt")
