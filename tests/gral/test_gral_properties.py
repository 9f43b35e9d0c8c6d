"""Property-based tests of the Gral input readers (Hypothesis).

* Any text given as orders either parses and checks, or is refused with OrdersRejected whose
  every error has a line and a column; nothing else ever escapes.
* Any text given as a position (and every mutation of a real one: lines deleted, duplicated,
  numbers changed, names swapped, the file cut short) either reads or is refused with
  DataError/DataErrors whose every error has the path, a line and a column.
* Positions reached by real (random) play are written and read back to the same state, and
  written again to the same text.
"""
from __future__ import annotations

import os
import re
import sys
import tempfile
from functools import lru_cache
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion import service
from companion.engine.game import resolve_options
from companion.engine.orders import OrdersRejected, order_lines
from companion.errors import DataError, DataErrors
from companion.gral.kind import KIND
from companion.gral.position import KEYS, read_position, write_position
from companion.store import Store

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from test_random_play import RandomPlayer, submit_random  # noqa: E402

W = KIND.world
NAMES = ["Anna", "Bert", "Cora", "Dora", "Emil"]
EXAMPLES = int(os.environ.get("COMPANION_PROPERTY_EXAMPLES", "120"))
SETTINGS = settings(max_examples=EXAMPLES, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                           HealthCheck.filter_too_much])


# ------------------------------------------------------------------------ states of real play
@lru_cache(maxsize=1)
def played_states() -> tuple[dict, ...]:
    """States reached by random play: a few games of 2 to 5 players, every turn's state."""
    states = []
    with tempfile.TemporaryDirectory() as tmp:
        for seed, players, options in ((3, 3, []), (4, 4, ["variant=original"]),
                                       (5, 2, ["missing=wait"]), (6, 5, [])):
            store = Store(Path(tmp) / f"g{seed}.sqlite3", create=True)
            service.new_game(store, "gral", "g", NAMES[:players], seed=str(seed),
                             option_args=["round-limit=30"] + options)
            rng = RandomPlayer(seed)

            def submit(player: str, text: str) -> bool:
                try:
                    service.submit_orders(store, "g", player, text, "random.txt")
                    return True
                except OrdersRejected:
                    return False

            for _ in range(25):
                state = store.turn("g").state
                states.append(state)
                if state["phase"] == "over":
                    break
                for p in NAMES[:players]:
                    submit_random(rng, submit, state, p, KIND.options_for(state, p))
                service.run_turn(store, "g")
            store.close()
    return tuple(states)


def options_of(state: dict) -> dict:
    return resolve_options(KIND.option_specs, {"variant": state["variant"]}, state["players"])


# ------------------------------------------------------------------------------------ texts
WORDS = (["move", "blow", "assign", "pass", "object", "to", "by", "with", "without", "grail",
          "leaving", "dropping", "and", "taking", "insist", "all", "any", "none", "nothing",
          "from", "blowing", "except", "ending", "up", "then", "+", ",", ";", ":", "=", "@",
          "#", '"', ">", "--", "-- ", "uncovered"]
         + W.initiate_names + [n.split()[0] for n in W.initiate_names] + W.field_names
         + [o.name for o in W.orders] + NAMES + list(KEYS) + [f"{k}:" for k in KEYS]
         + ["0", "1", "5", "10", "15", "99", "100", "007", "1" * 30, "-3", "²", "٣", "½"])
word = st.one_of(st.sampled_from(WORDS), st.integers(-5, 200).map(str),
                 st.text(max_size=6))
line = st.lists(word, max_size=12).map(" ".join)
vocab_text = st.lists(line, max_size=8).map("\n".join)
any_text = st.one_of(st.text(max_size=300), vocab_text)


def order_text_from_options(state: dict, player: str) -> st.SearchStrategy[str]:
    options = KIND.options_for(state, player) or ["pass"]
    picked = st.lists(st.sampled_from(options), min_size=1, max_size=4)
    return st.tuples(picked, st.lists(word, max_size=3)).map(
        lambda t: "\n".join(t[0]) + ("\n" + " ".join(t[1]) if t[1] else ""))


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
    states = played_states()
    state = states[data.draw(st.integers(0, len(states) - 1), label="state")]
    player = data.draw(st.sampled_from(state["players"]), label="player")
    check_orders_text(state, player, text)


@SETTINGS
@given(data=st.data())
def test_legal_lines_with_noise_parse_or_are_refused_with_locations(data):
    states = played_states()
    state = states[data.draw(st.integers(0, len(states) - 1), label="state")]
    player = data.draw(st.sampled_from(state["players"]), label="player")
    text = data.draw(order_text_from_options(state, player), label="text")
    check_orders_text(state, player, text)


# -------------------------------------------------------------------------------- positions
def assert_located_data(error: DataError | DataErrors, path: str = "pos.txt") -> None:
    errors = error.errors if isinstance(error, DataErrors) else [error]
    assert errors
    for e in errors:
        assert e.path == path and e.line is not None and e.column is not None, e.render()
        assert e.line >= 1 and e.column >= 1, e.render()
    error.render()


def read_or_refuse(text: str, options: dict | None = None) -> dict | None:
    try:
        return read_position(W, text, "pos.txt", options)
    except (DataError, DataErrors) as error:
        assert_located_data(error)
        return None


@SETTINGS
@given(text=any_text)
def test_any_position_text_reads_or_is_refused_with_locations(text):
    read_or_refuse(text)
    read_or_refuse("game: gral\nplayers: Anna, Bert, Cora\n" + text)


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
            ["", "x", "1" * 40, "²", "10+", "+5"])), label="number")
        lines[i] = re.sub(r"\d+", new, lines[i], count=data.draw(st.integers(0, 3)))
    elif how == "swap":
        names = W.initiate_names + W.field_names + NAMES + ["Zora", "uncovered"]
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


@SETTINGS
@given(data=st.data())
def test_mutated_positions_read_or_are_refused_with_locations(data):
    states = played_states()
    state = states[data.draw(st.integers(0, len(states) - 1), label="state")]
    text = write_position(W, state)
    for _ in range(data.draw(st.integers(1, 3), label="mutations")):
        text = mutate(data, text)
    read_or_refuse(text, options_of(state))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_a_position_cut_short_is_refused(data):
    """A written position cut before its last fixed line (the grail) never reads."""
    states = [s for s in played_states() if s["phase"] != "over"]
    state = states[data.draw(st.integers(0, len(states) - 1), label="state")]
    text = write_position(W, state)
    end = text.index("\ngrail:")
    cut = data.draw(st.integers(0, end), label="cut")
    with pytest.raises((DataError, DataErrors)) as info:
        read_position(W, text[:cut], "pos.txt", options_of(state))
    assert_located_data(info.value)


# ------------------------------------------------------------------------------- round trip
def comparable(state: dict) -> dict:
    """What a position holds: the state without the turn's records (events, commitments and
    salts belong to the stored turn, not to the position). A sheet is written by unit values,
    so which of two units of the same value holds an initiate is not kept: sheets compare as
    the values on each initiate (which is all the rules use). The rules edition belongs to
    the game, not to a position (a game set up from one gets the current edition)."""
    out = {k: v for k, v in state.items() if k not in ("events", "commitments", "salts",
                                                          "commit_turn", "pending", "result",
                                                          "sheets", "edition")}
    out["sheets"] = {p: ({i: sorted(W.unit[u].value for u, t in sheet["units"].items() if t == i)
                          for i in sorted(set(sheet["units"].values()))},
                         {i: n for i, n in sheet["paid"].items() if n})
                     for p, sheet in state["sheets"].items()}
    return out


def test_positions_of_real_play_read_back_to_the_same_state():
    checked = 0
    for state in played_states():
        if state["phase"] == "over" or state.get("pending"):
            continue        # a finished game or a half-done action is not a position
        text = write_position(W, state)
        again = read_position(W, text, "pos.txt", options_of(state))
        assert comparable(again) == comparable(state), text
        assert write_position(W, again) == text
        checked += 1
    assert checked >= 20


# ------------------------------------------------------------------ regressions found above
def test_a_sheet_written_read_and_written_again_keeps_its_text():
    """Units of one initiate were written in unit order (A8 before B4: '8+4'); read back they
    became A4 and A8 and were written '4+8'. Values are now written in ascending order."""
    state = read_position(W, "game: gral\nplayers: Anna, Bert\nfirst: Anna\nphase: round\n"
                             "next: Anna\ngrail: Golgota\n", "pos.txt")
    alberto = W.initiate_by_name["Alberto Castellano"]
    state["sheets"]["Anna"]["units"] = {"A8": alberto, "B4": alberto}
    text = write_position(W, state)
    assert "Alberto Castellano = 4+8" in text
    assert write_position(W, read_position(W, text, "pos.txt")) == text


@pytest.mark.parametrize("bad", ["²", "٣", "1" * 5000, "-1"])
def test_numbers_in_other_scripts_and_huge_numbers_are_refused_with_locations(bad):
    base = ("game: gral\nplayers: Anna, Bert\nfirst: Anna\nphase: round\nnext: Anna\n"
            "grail: Golgota\nsheet: Anna: Alberto Castellano = 10\n")
    for text in (base + f"rounds: {bad}\n", base + f"known: Anna: Alberto Castellano = {bad}\n",
                 base.replace("= 10", f"= {bad}")):
        with pytest.raises((DataError, DataErrors)) as info:
            read_position(W, text, "pos.txt")
        assert_located_data(info.value)
    state = read_position(W, base, "pos.txt")
    check_orders_text(state, "Anna", "move Alberto to Chartres insist " + "9" * 5000)


def test_orders_to_a_finished_game_are_refused_with_a_location():
    """Standing orders alone sent to a finished game were refused with an error that had no
    line."""
    state = read_position(W, "game: gral\nplayers: Anna, Bert\nfirst: Anna\nphase: round\n"
                             "next: Anna\ngrail: Golgota\n", "pos.txt")
    state["phase"] = "over"
    for text in ("object none\n", "object any up to 3\n"):
        with pytest.raises(OrdersRejected) as info:
            orders = KIND.parse_orders(state, "Anna", text, "o.txt")
            KIND.check_orders(state, "Anna", orders, "o.txt")
        assert_located_orders(info.value)


def test_a_cut_off_position_is_refused_and_the_missing_line_named():
    text = ("game: gral\nplayers: Anna, Bert\nfirst: Anna\nphase: round\nnext: Anna\n"
            "piece: Alberto Castellano @ Tortosa\n")
    with pytest.raises((DataError, DataErrors)) as info:
        read_position(W, text, "pos.txt")
    rendered = info.value.render()
    assert "pos.txt:7:1: error: initiates not placed" in rendered
    assert "pos.txt:7:1: error: the position has no 'grail:' line" in rendered


def test_duplicates_and_inconsistent_counters_are_refused():
    base = ("game: gral\nplayers: Anna, Bert, Cora\nfirst: Anna\nphase: round\nnext: Bert\n"
            "grail: Golgota\n")
    for extra, message in (("opened: Anna, Anna, Bert\n", "pos.txt:7:15: error: Anna is listed"),
                           ("rounds: 2\nactions: 5\n", "make 7"),
                           ("sheet: Anna: Mansur Al-Jallah = 10\npaid: Anna: Mansur Al-Jallah = 5\n",
                            "multiples of 10"),
                           ("known: Bert: Mansur Al-Jallah = 0\nknown: Bert: Mansur Al-Jallah = 0\n",
                            "given twice")):
        with pytest.raises((DataError, DataErrors)) as info:
            read_position(W, base + extra, "pos.txt")
        assert message in info.value.render(), info.value.render()
    with pytest.raises((DataError, DataErrors)) as info:
        read_position(W, base, "pos.txt", {"variant": "original"})
    assert "pos.txt:7:1:" in info.value.render()


def test_setup_players_names_none_for_a_broken_players_line():
    from companion.gral.position import setup_players

    assert setup_players("players: Anna, Bert\n") == ["Anna", "Bert"]
    assert setup_players("players: Anna\n") == []
    assert setup_players("players: Anna, anna\n") == []
    assert setup_players("first: Anna\n") == []


def every_legal_action_line(state: dict, player: str) -> list[str]:
    """The move and blow lines of ``player``'s options worked out the slow way: every initiate,
    adjacent field, grail clause, target and 'taking' tried through check_move; for the
    grail's bearer without 'with grail', the same move as saying nothing (he keeps it)."""
    from companion.gral.orders import Move, move_text
    from companion.gral.rules import check_move, four_plus

    lines = []
    board = [i for i in W.initiates if state["pieces"][i.id] is not None]
    tries = []
    for i in board:
        bearer = state["grail"]["holder"] == i.id
        for dest in W.adjacent[state["pieces"][i.id]]:
            for clause in (None, "with", "leave", "drop"):
                if bearer and clause == "with":
                    continue
                tries.append(Move(None, i.id, dest, grail=clause))
                if not four_plus(state):
                    tries += [Move(None, i.id, dest, grail=clause, blow=t.id, take=take)
                              for t in W.initiates for take in (False, True)]
        tries += [Move(None, i.id, None, blow=t.id, take=take)
                  for t in W.initiates for take in (False, True)]
    for mv in tries:
        plain = Move(None, mv.initiate, mv.dest, grail=mv.grail)
        if mv.dest is not None and check_move(state, player, plain, W)[0] is None:
            continue  # a blow after a move is offered only with a legal move
        if check_move(state, player, mv, W)[0] is not None:
            lines.append(move_text(W, mv))
    return lines


def test_option_lists_offer_exactly_the_legal_moves_and_blows():
    """The option lists try only the blows that can be legal (the target on the field, 10
    points on the active initiate); they offer the same lines as trying every one."""
    seen_blows = 0
    for state in played_states():
        if state["phase"] != "round":
            continue
        for player in state["players"]:
            if KIND.expects(state, player) in ("nothing", "opening"):
                continue
            offered = [l for l in KIND.options_for(state, player)
                       if l.startswith(("move ", "blow "))]
            assert sorted(offered) == sorted(every_legal_action_line(state, player))
            seen_blows += sum(1 for l in offered if "blow" in l)
    assert seen_blows > 0
