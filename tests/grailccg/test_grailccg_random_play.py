"""Random play of whole two-player Holy Grail CCG games choosing orders from the legal lines:
no crash, every card instance in exactly one place after every turn, never both Round Tables
in one area, a finished game has a result, the same seed and orders give the same states, and
every turn replays from its recorded chance outcomes to the same position.

Most games run through the rules engine alone; a few through the service layer. Set COMPANION_SOAK=1 for the long run.
"""
from __future__ import annotations

import copy
import os

import pytest

from companion.engine.chance import seed_key
from companion.grailccg.kind import KIND

from ccg_play import (NAMES, RandomPlayer, check_invariants, engine_game,
                      play_stored_game, run_turn)

SOAK = os.environ.get("COMPANION_SOAK") == "1"


def options_for_seed(seed: int) -> dict:
    opts: dict = {}
    if seed % 3 == 1:
        opts["missing"] = "wait"
    if seed % 5 == 2:
        opts["grail-draw"] = "bottom"
    if seed % 7 == 3:
        opts["doubling"] = "off"
    if seed % 4 == 1:
        opts["hand-limit"] = 5
    if seed % 6 == 5:
        opts["after-defeat"] = "search"
    return opts


ENGINE_GAMES = list(range(600 if SOAK else 40))


@pytest.mark.parametrize("seed", ENGINE_GAMES, ids=[f"seed{s}" for s in ENGINE_GAMES])
def test_random_whole_games_through_the_engine(seed):
    state, turns = engine_game(seed, options_for_seed(seed), max_turns=800)
    g = state["game"]
    assert g["stage"] == "over", f"no end after {turns} turns"
    r = g["result"]
    assert r["draw"] or r["winner"] in NAMES
    assert g["dispute"] is None and not state.get("pending")


@pytest.mark.soak
@pytest.mark.skipif(not SOAK, reason="set COMPANION_SOAK=1 for the long run")
@pytest.mark.parametrize("seed", range(1000, 1100))
def test_random_games_soak(seed):
    state, turns = engine_game(seed, options_for_seed(seed), max_turns=1500)
    assert state["game"]["stage"] == "over"


@pytest.mark.parametrize("seed", [5, 6, 7])
def test_same_seed_and_orders_give_the_same_states(seed):
    runs = []
    for _ in range(2):
        record: list = []
        state, turns = engine_game(seed, options_for_seed(seed), record=record)
        runs.append([(texts, outcomes, s["game"]) for texts, outcomes, s in record])
    assert runs[0] == runs[1] and len(runs[0]) > 3


@pytest.mark.parametrize("seed", [11, 12, 13, 14])
def test_every_turn_replays_from_its_recorded_outcomes(seed):
    """Re-running a turn from the position before it, with the same orders and only the
    recorded chance outcomes (no random numbers drawn), gives the same position."""
    opts = {"missing": "default", "first": NAMES[0], "decks": None, "grail-draw": "discard",
            "hand-limit": 7, "doubling": "on"}
    opts.update(options_for_seed(seed))
    record: list = []
    engine_game(seed, options_for_seed(seed), record=record)
    key = seed_key(str(seed))
    previous = None
    from ccg_play import new_state

    previous, _, _, _ = new_state(KIND, seed, options_for_seed(seed))
    for number, (texts, outcomes, after) in enumerate(record, start=1):
        again = copy.deepcopy(previous)
        run_turn(KIND, again, number, key, opts, texts, replay=outcomes)
        assert again["game"] == after["game"], f"turn {number} of seed {seed} differs on replay"
        assert again["pending"] == after["pending"]
        previous = after


def test_paused_games_ask_the_right_player_and_resume(seed=4):
    """With missing=wait the awaited player is the one asked; their answer moves the game."""
    record: list = []
    engine_game(seed, {"missing": "wait"}, record=record)
    asked = [s for _, _, s in record if s.get("pending")]
    assert asked, "no turn paused in this game"
    for s in asked:
        q = s["pending"]["question"]
        assert KIND.awaited(s) == [q["player"]]
        assert KIND.options_for(s, q["player"]) == q["options"]
        other = [p for p in NAMES if p != q["player"]][0]
        assert all(line.startswith("on ") for line in KIND.options_for(s, other))


def test_options_for_are_valid_orders():
    """Every line options_for offers parses and passes the legality check (the standing orders
    offered to the players not awaited included)."""
    record: list = []
    engine_game(21, {"missing": "wait"}, record=record)
    for _, _, s in record[:40]:
        if KIND.is_over(s):
            continue
        for p in NAMES:
            for line in KIND.options_for(s, p):
                parsed = KIND.parse_orders(s, p, line, "o")
                KIND.check_orders(s, p, parsed, "o")


@pytest.mark.parametrize("seed, options", [(77, ["first=Anna"]),
                                           (78, ["first=Bert", "missing=wait"])])
def test_random_whole_game_through_the_service(tmp_path, fixed_date, seed, options):
    from companion import service
    from companion.store import Store

    store = Store(tmp_path / "g.sqlite3", create=True)
    service.new_game(store, "grailccg", "g", list(NAMES), seed=str(seed), option_args=options)
    play_stored_game(store, "g", RandomPlayer(seed), 400)
