"""Property-based tests of the Medieval Mayhem input readers (Hypothesis).

* Any text given as orders either parses and checks, or is refused with OrdersRejected whose
  every error has a line and a column; nothing else ever escapes.
* Any text given as a position (and every mutation of a real one: lines deleted, duplicated,
  numbers changed, names swapped, the file cut short) either reads or is refused with
  DataError/DataErrors whose every error has the path, a line and a column.
* Positions reached by real (random) play are written and read back to the same game, and
  written again to the same text.
"""
from __future__ import annotations

import os
import re
import tempfile
from functools import lru_cache
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion import service
from companion.engine.game import parse_option_args, resolve_options
from companion.engine.orders import OrdersRejected, order_lines
from companion.errors import DataError, DataErrors
from companion.mayhem.orders import KEYWORDS, TRIGGER_WORDS
from companion.mayhem.position import KEYS
from companion.store import Store

from .helpers import CAT, KIND, NAMES
from .test_random_play import RandomPlayer, submit_random

EXAMPLES = int(os.environ.get("COMPANION_PROPERTY_EXAMPLES", "100"))
SETTINGS = settings(max_examples=EXAMPLES, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                           HealthCheck.filter_too_much])
GAMES = ((21, 3, []), (22, 2, ["best-defense=on", "free-sets=on"]), (23, 4, ["teams=on"]),
         (24, 3, ["right-hand=on", "charm=on"]), (25, 2, ["rounds=short"]),
         (26, 6, ["teams=trios"]))


# ------------------------------------------------------------------------ states of real play
@lru_cache(maxsize=1)
def played_states() -> tuple[tuple[dict, tuple[str, ...]], ...]:
    """(state, options) pairs reached by random play, every processed turn's state."""
    out = []
    with tempfile.TemporaryDirectory() as tmp:
        for seed, players, options in GAMES:
            store = Store(Path(tmp) / f"g{seed}.sqlite3", create=True)
            names = NAMES[:players]
            service.new_game(store, "mayhem", "g", names, seed=str(seed), option_args=options)
            rng = RandomPlayer(seed)

            def submit(player: str, text: str) -> bool:
                try:
                    service.submit_orders(store, "g", player, text, "random.txt")
                    return True
                except OrdersRejected:
                    return False

            for _ in range(40):
                state = store.turn("g").state
                out.append((state, tuple(options)))
                if state["phase"] == "over":
                    break
                for p in names:
                    lines = KIND.options_for(state, p)
                    if lines:
                        submit_random(rng, submit, state, p, lines)
                service.run_turn(store, "g")
            store.close()
    return tuple(out)


def options_for(state: dict, options) -> dict:
    return resolve_options(KIND.option_specs, parse_option_args(list(options)), state["players"])


# ------------------------------------------------------------------------------------ texts
WORDS = (list(KEYWORDS) + list(TRIGGER_WORDS)
         + ["at", "choose", "A", "B", "up", "to", "taking", "from", "hand", "play", "set", "by",
            "number", "colour", "type", "then", "none", "nothing", "draw", "destroy", "with",
            "against", "or", "defense", "any", "answer", "for", "princess", "scales", "knight",
            "shield", "guardians", "+", ",", ";", ":", "=", "#", '"', ">", "--", "(", ")", "yes",
            "no", "deck", "sets", "discard", "rest"]
         + CAT.card_names + [n.split()[0] for n in CAT.card_names] + CAT.character_names
         + NAMES + ["Zora"] + list(KEYS) + [f"{k}:" for k in KEYS]
         + ["0", "1", "2", "3", "6", "99", "007", "1" * 30, "-1", "²", "٣"])
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


def pick_state(data) -> tuple[dict, tuple[str, ...]]:
    states = played_states()
    return states[data.draw(st.integers(0, len(states) - 1), label="state")]


@SETTINGS
@given(data=st.data(), text=any_text)
def test_any_order_text_parses_or_is_refused_with_locations(data, text):
    state, _ = pick_state(data)
    player = data.draw(st.sampled_from(state["players"]), label="player")
    check_orders_text(state, player, text)


@SETTINGS
@given(data=st.data())
def test_legal_lines_with_noise_parse_or_are_refused_with_locations(data):
    state, _ = pick_state(data)
    player = data.draw(st.sampled_from(state["players"]), label="player")
    lines = KIND.options_for(state, player) or ["draw"]
    picked = data.draw(st.lists(st.sampled_from(lines), min_size=1, max_size=4), label="lines")
    noise = data.draw(st.lists(word, max_size=3), label="noise")
    text = "\n".join(picked) + ("\n" + " ".join(noise) if noise else "")
    check_orders_text(state, player, text)


# -------------------------------------------------------------------------------- positions
def assert_located_data(error, path: str = "pos.txt") -> None:
    errors = error.errors if isinstance(error, DataErrors) else [error]
    assert errors
    for e in errors:
        assert e.path == path and e.line is not None and e.column is not None, e.render()
        assert e.line >= 1 and e.column >= 1, e.render()
    error.render()


def read_or_refuse(text: str, options: dict) -> dict | None:
    try:
        return KIND.read_position(text, "pos.txt", options)
    except (DataError, DataErrors) as error:
        assert_located_data(error)
        return None


PLAIN = resolve_options(KIND.option_specs, {}, ["Anna", "Bert", "Cora"])


@SETTINGS
@given(text=any_text)
def test_any_position_text_reads_or_is_refused_with_locations(text):
    read_or_refuse(text, PLAIN)
    read_or_refuse("game: mayhem\nplayers: Anna, Bert, Cora\n" + text, PLAIN)


def mutate(data, text: str) -> str:
    lines = text.splitlines()
    how = data.draw(st.sampled_from(["delete", "duplicate", "number", "swap", "truncate",
                                     "replace", "insert"]), label="mutation")
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
        names = CAT.card_names + CAT.character_names + NAMES + ["Zora", "yes", "no"]
        old = data.draw(st.sampled_from(names), label="old")
        lines[i] = lines[i].replace(old, data.draw(st.sampled_from(names), label="new"))
    elif how == "truncate":
        whole = "\n".join(lines)
        return whole[:data.draw(st.integers(0, len(whole)), label="cut")]
    elif how == "replace":
        lines[i] = data.draw(line, label="new line")
    else:
        lines.insert(i, data.draw(line, label="new line"))
    return "\n".join(lines) + "\n"


def positional(pair) -> bool:
    """A state a position can hold: in play, between actions of a turn."""
    state, _ = pair
    pending = state.get("pending")
    return (state["phase"] == "play" and pending is not None and pending["kind"] == "turn"
            and len(state.get("stack", [])) <= 1)


@SETTINGS
@given(data=st.data())
def test_mutated_positions_read_or_are_refused_with_locations(data):
    states = [pair for pair in played_states() if positional(pair)]
    state, options = states[data.draw(st.integers(0, len(states) - 1), label="state")]
    text = KIND.write_position(state)
    for _ in range(data.draw(st.integers(1, 3), label="mutations")):
        text = mutate(data, text)
    read_or_refuse(text, options_for(state, options))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_a_position_cut_short_is_refused(data):
    """A written position cut before its deck line never reads."""
    states = [pair for pair in played_states() if positional(pair)]
    state, options = states[data.draw(st.integers(0, len(states) - 1), label="state")]
    text = KIND.write_position(state)
    cut = data.draw(st.integers(0, text.index("\ndeck:")), label="cut")
    with pytest.raises((DataError, DataErrors)) as info:
        KIND.read_position(text[:cut], "pos.txt", options_for(state, options))
    assert_located_data(info.value)


# ------------------------------------------------------------------------------- round trip
KEPT = ("players", "first", "current", "turn", "round", "turns", "end", "hands", "play", "sets",
        "barracks", "discard", "deck", "characters", "standing", "rules")


def test_positions_of_real_play_read_back_to_the_same_game():
    checked = 0
    for state, options in played_states():
        if not positional((state, options)):
            continue
        text = KIND.write_position(state)
        again = KIND.read_position(text, "pos.txt", options_for(state, options))
        for key in KEPT:
            assert again[key] == state[key], (key, text)
        assert sorted(again["box"]) == sorted(state["box"])
        assert again["setup_rest"] == []
        assert KIND.write_position(again) == text
        checked += 1
    assert checked >= 30


# ------------------------------------------------------------------ regressions found above
def test_teams_that_do_not_fit_the_players_are_refused_not_a_key_error():
    """A six-player team game cut inside its players line read with the game's team options
    raised KeyError."""
    options = resolve_options(KIND.option_specs, {"teams": "on"}, NAMES[:6])
    text = "game: mayhem\nplayers: Anna, Bert, Cora, Dora, Emil, Fr\n"
    with pytest.raises((DataError, DataErrors)) as info:
        KIND.read_position(text, "pos.txt", options)
    assert_located_data(info.value)
    assert "teams" in info.value.render()


def test_numbers_in_other_scripts_and_huge_numbers_are_refused_with_locations():
    base = KIND.write_position(next(s for s, o in played_states() if positional((s, o))
                                    and not o))
    for bad in ("²", "٣", "1" * 5000):
        text = re.sub(r"^round: \d+", f"round: {bad}", base, flags=re.M)
        with pytest.raises((DataError, DataErrors)) as info:
            KIND.read_position(text, "pos.txt", PLAIN)
        assert_located_data(info.value)
    state = played_states()[0][0]
    check_orders_text(state, "Anna", "play Hoard Wyrm up to " + "9" * 5000)


def test_an_end_by_sets_in_a_team_game_reads_back_as_a_team_end():
    text = ("game: mayhem\nplayers: Anna, Bert, Cora, Dora\nfirst: Anna\nturn: Anna\n"
            "end: sets (Bert)\n" + "".join(f"character: {p} = {c}\n" for p, c in zip(
                NAMES[:4], CAT.character_names)) + "barracks: Pearl Maiden, Tidal Wave, "
            "Frost Drake, Rose Guard, Cutpurse\ndeck:\n")
    options = resolve_options(KIND.option_specs, {"teams": "on"}, NAMES[:4])
    state = KIND.read_position(text, "pos.txt", options)
    assert state["end"] == {"reason": "team-sets", "player": "Bert"}


def test_orders_to_a_finished_game_that_only_clear_standing_orders_are_located():
    over = next((s for s, _ in played_states() if s["phase"] == "over"), None)
    if over is None:
        pytest.skip("no finished game among the played states")
    with pytest.raises(OrdersRejected) as info:
        orders = KIND.parse_orders(over, "Anna", "defend none\n", "o.txt")
        KIND.check_orders(over, "Anna", orders, "o.txt")
    assert_located_orders(info.value)
