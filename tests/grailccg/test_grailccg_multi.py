"""Holy Grail CCG games of three or more players (16.3): random games of 3, 4 and 6 players played
to their end through the rules engine (bounded), the same seed and orders giving the same
states, every turn replaying from its recorded chance outcomes, the legal lines of a
multi-player game all being valid orders, each player's report independent of the others'
secrets, and a whole three-player game through the service.

The numbered situations of 16.3 are in the casebook (cases 101 and up)."""
from __future__ import annotations

import copy
import random

import pytest

from companion.engine.chance import seed_key
from companion.grailccg.kind import KIND
from companion.render.report_text import render_text

from ccg_play import (RandomPlayer, check_invariants, engine_game, new_state,
                      play_stored_game, run_turn)

SEATS = ["Anna", "Bert", "Cleo", "Dirk", "Edda", "Fritz"]


def options_for(seed: int) -> dict:
    opts: dict = {}
    if seed % 2 == 1:
        opts["missing"] = "wait"
    if seed % 3 == 2:
        opts["after-defeat"] = "search"
    if seed % 5 == 4:
        opts["grail-draw"] = "bottom"
    return opts


GAMES = [(3, 0), (3, 1), (3, 2), (4, 3), (4, 4), (6, 5)]


@pytest.mark.parametrize("count, seed", GAMES, ids=[f"{n}p-seed{s}" for n, s in GAMES])
def test_random_multiplayer_games_reach_their_end(count, seed):
    players = SEATS[:count]
    state, turns = engine_game(seed, options_for(seed), max_turns=1500, players=players)
    g = state["game"]
    assert g["stage"] == "over", f"no end after {turns} turns"
    r = g["result"]
    assert r["draw"] or r["winner"] in players
    assert r["draw"] or r["winner"] not in g.get("out", [])
    assert g["dispute"] is None and not state.get("pending")
    assert len(g["avalon"]) == count + 1
    for p in g.get("out", []):
        assert p in players


def test_the_same_seed_and_orders_give_the_same_three_player_states():
    runs = []
    for _ in range(2):
        record: list = []
        engine_game(7, options_for(7), record=record, players=SEATS[:3])
        runs.append([(texts, outcomes, s["game"]) for texts, outcomes, s in record])
    assert runs[0] == runs[1] and len(runs[0]) > 3


@pytest.mark.parametrize("count, seed", [(3, 11), (4, 12)])
def test_every_multiplayer_turn_replays_from_its_recorded_outcomes(count, seed):
    players = SEATS[:count]
    record: list = []
    engine_game(seed, options_for(seed), record=record, players=players)
    previous, opts, key, _ = new_state(KIND, seed, options_for(seed), players)
    assert key == seed_key(str(seed))
    for number, (texts, outcomes, after) in enumerate(record, start=1):
        again = copy.deepcopy(previous)
        run_turn(KIND, again, number, key, opts, texts, replay=outcomes)
        assert again["game"] == after["game"], f"turn {number} differs on replay"
        assert again["pending"] == after["pending"]
        previous = after


def test_multiplayer_legal_lines_are_valid_orders_and_only_the_asked_may_answer():
    record: list = []
    engine_game(21, {"missing": "wait"}, record=record, players=SEATS[:4], max_turns=50)
    seen_named = False
    for _, _, s in record[:60]:
        if KIND.is_over(s):
            continue
        awaited = KIND.awaited(s)
        assert len(awaited) == 1
        for p in SEATS[:4]:
            lines = KIND.options_for(s, p)
            if p in s["game"].get("out", []):   # a player out of the game has no lines
                assert lines == [], lines
                continue
            if p not in awaited:        # only standing orders are taken from them
                assert lines and all(line.startswith("on ") for line in lines), lines
            for line in lines:
                seen_named |= " of " in line and line.startswith("play ")
                parsed = KIND.parse_orders(s, p, line, "o")
                KIND.check_orders(s, p, parsed, "o")
        if s.get("pending"):
            assert awaited == [s["pending"]["question"]["player"]]
    assert seen_named, "no line naming another player's England was offered"


def document(state: dict, viewer: str) -> str:
    v = KIND.view(state, viewer)
    v["envelope"] = {"game_id": "g", "turn": 7, "date": "2026-11-25 05:00 UTC",
                     "link": f"companion://g/7/{viewer}", "link_label": "your private link"}
    return render_text(KIND.report(v))


def scramble(state: dict, owner: str, rng: random.Random) -> dict:
    """The same position with ``owner``'s secrets changed: hand cards swapped with deck cards,
    the deck reshuffled, their standing orders and private events altered."""
    other = copy.deepcopy(state)
    g = other["game"]
    hand, deck = g["hands"][owner], g["decks"][owner]
    for i in range(min(len(hand), len(deck))):
        hand[i], deck[-1 - i] = deck[-1 - i], hand[i]
    rng.shuffle(deck)
    other["standing"][owner]["double"] = "concede"
    other["events"] = [dict(e, text=e["text"] + " (secret)") if e["to"] == [owner] else e
                       for e in other["events"]]
    return other


@pytest.mark.parametrize("count, seed", [(3, 0), (4, 3)])
def test_no_player_report_depends_on_another_players_secrets(count, seed):
    players = SEATS[:count]
    record: list = []
    engine_game(seed, options_for(seed), record=record, players=players)
    states = [s for _, _, s in record if not KIND.is_over(s)]
    state = states[len(states) // 2]
    base = {v: document(state, v) for v in players + ["public"]}
    for owner in players:
        changed = scramble(state, owner, random.Random(seed))
        for viewer in players + ["public"]:
            after = document(changed, viewer)
            if viewer == owner:
                assert after != base[viewer]
            else:
                assert after == base[viewer], f"{viewer}'s report depends on {owner}'s secrets"
    # every player sees every Round Table and every England, not only their neighbours'
    for viewer in players:
        text = base[viewer]
        for p in players:
            assert f"{p}'s Round Table" in text and f"England explored by {p}" in text
    figure = KIND.view(state, players[0])
    assert [s["player"] for s in figure["sides"]] == players


def test_a_three_player_game_through_the_service(tmp_path, fixed_date):
    from companion import service
    from companion.store import Store

    players = SEATS[:3]
    store = Store(tmp_path / "g.sqlite3", create=True)
    service.new_game(store, "grailccg", "g", players, seed="31",
                     option_args=["first=Cleo", "missing=wait"])
    assert store.turn("g").state["game"]["active"] == "Cleo"
    play_stored_game(store, "g", RandomPlayer(31), 600)


def test_a_three_player_game_through_the_command_line_leaks_no_hand(cli):
    """companion new with three players, a few turns with orders taken from 'companion options'
    (one naming another player's England), and every player's report checked: it holds no
    card name of another player's hand that the player could not know otherwise."""
    import json

    out = cli.ok("new", "grailccg", "g3", "--player", "Anna", "--player", "Bert", "--player",
                 "Cleo", "--seed", "5", "--option", "first=Anna").out
    assert "created game g3 (grailccg)" in out
    decks = {"Anna": "starter-arthur", "Bert": "starter-french", "Cleo": "starter-arthur"}
    own = {p: {KIND.cards.get(cid).name for cid in KIND.deck_list(d)} for p, d in decks.items()}
    rng = random.Random(5)
    named = False
    checked = 0
    for number in range(1, 10):
        for p in ("Anna", "Bert", "Cleo"):
            lines = cli.ok("options", "g3", p).out.splitlines()
            aimed = [x for x in lines if x.startswith("play ") and " of " in x.split(" on ")[-1]]
            moves = [x for x in lines if x.startswith(("move", "fight", "outwit", "search"))]
            chosen = ([rng.choice(aimed)] if aimed and not named else []) + moves[:1]
            named |= bool(chosen and chosen[0] in aimed)
            if chosen:
                cli.ok("orders", "submit", "g3", p, "-", input="\n".join(chosen) + "\n")
        out = cli.ok("turn", "g3").out
        assert f"turn {number} processed" in out
        folder = cli.output / "g3" / f"turn-{number:03d}"
        secret = json.loads(cli.ok("show", "g3", "--player", "moderator", "--json").out)
        public = (folder / "public.txt").read_text()
        for viewer in ("Anna", "Bert", "Cleo"):
            text = (folder / f"{viewer.lower()}.txt").read_text()
            mine = json.loads(cli.ok("show", "g3", "--player", viewer, "--json").out)
            assert "hands" not in mine and "deck_tops" not in mine
            assert [c["name"] for c in mine["hand"]] == secret["hands"][viewer]
            for other in ("Anna", "Bert", "Cleo"):
                if other == viewer:
                    continue
                hidden = {n for n in secret["hands"][other]} - own[viewer]
                hidden = {n for n in hidden if n not in public}
                checked += len(hidden)
                leaked = sorted(n for n in hidden if n in text)
                assert not leaked, f"{viewer}'s report names {other}'s cards {leaked}"
        if "the game is over" in out:
            break
    assert named, "no order named another player's England"
    assert checked, "no secret card name to look for"
    shown = cli.ok("show", "g3").out
    assert "players: Anna, Bert, Cleo" in shown
    assert "every hash matches" in cli.ok("replay", "g3").out
