"""The Medieval Mayhem casebook: numbered situations (a position or a new game, the orders of one
or more processed turns, what must happen), each citing the section of the rules it checks, run
through the same service layer the command line uses.

Case format (tests/mayhem/casebook.toml)::

    [[case]]
    id = 12
    rule = "N.1"                       # section of ../shared/rules/medieval-mayhem.txt
    title = "..."
    position = '''...'''               # a position text without the 'game:' line
    players = ["Anna", "Bert"]          # or a new game (seed "case")
    options = ["missing=wait"]
    edition = 1                         # play as a game begun under that rules edition
    [[case.turn]]
    orders = { Anna = "play Hoard Wyrm at Bert" }
    [case.turn.expect]
    public = ["substring of a public event", ...]
    public_order = ["first", "then this"]
    not_public = [...]
    private = { Anna = ["substring of an event only some see"] }
    not_seen = { Cora = ["substring Cora's report text must not hold"] }
    seen = { Bert = ["substring Bert's report text must hold (line breaks read as spaces)"] }
    zones = { "Anna hand" = ["Hoard Wyrm"], "discard" = [...] }   # exact, any order
    has = { "Anna play" = ["Red Squire"] }        # these (at least)
    lacks = { "Anna hand" = ["Red Squire"] }
    count = { "deck" = 10, "Bert hand" = 3 }
    decided = ["Bert defense standing"]           # 'player kind source' of a recorded decision
    rejects = { Anna = "substring of the error" } # that player's orders are refused
    accepts = { Anna = "substring of the acknowledgement" }
    awaiting = ["Bert"]
    current = "Bert"
    over = true
    winners = ["Anna"]
    reason = "substring of the result's reason"
    totals = { Anna = 23 }
    no_turn = true                    # the turn is refused (nothing to adjudicate)
    skip_turn = true                  # no turn is processed after this step's submissions
                                      # (also when every submission of the step was refused)
    chance = ["purpose of a recorded chance outcome"]
"""
from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from companion import service
from companion.engine.orders import OrdersRejected
from companion.errors import CompanionError
from companion.render.report_text import render_text

from .helpers import KIND, check_conservation, new_store, setup_game, zone

CASEBOOK = Path(__file__).with_name("casebook.toml")
CASES = tomllib.loads(CASEBOOK.read_text(encoding="utf-8"))["case"]


def test_casebook_is_numbered_and_cites_every_section():
    ids = [c["id"] for c in CASES]
    assert ids == sorted(ids) and len(ids) == len(set(ids)), "case ids must be unique, in order"
    cited = {c["rule"] for c in CASES}
    letters = {r.split(".")[0] for r in cited}
    assert set("DEFGHIJKLMNO") <= letters, sorted(set("DEFGHIJKLMNO") - letters)
    for n in range(1, 10):
        assert f"I.{n}" in cited, f"set trigger I.{n} has no case"
    for n in range(1, 8):
        assert f"N.{n}" in cited, f"clarification N.{n} has no case"
    for letter in "ABCDEFGH":
        assert f"O.{letter}" in cited, f"optional rule {letter} has no case"
    for c in CASES:
        assert c["title"] and c["rule"], c["id"]


def run_case(case: dict, tmp_path: Path) -> None:
    store = new_store(tmp_path, "cases")
    game_id = f"case{case['id']}"
    options = list(case.get("options", []))
    if "edition" in case:
        # a game begun by an earlier release: turn 0 records that edition, every later turn and
        # the replay follow it (docs/adding-a-game.md, rules editions)
        assert case["edition"] < type(KIND).edition, "a case's edition is older than new games'"
        KIND.edition = case["edition"]
    try:
        if "position" in case:
            setup_game(store, game_id, case["position"], options)
        else:
            service.new_game(store, "mayhem", game_id, case["players"], seed="case",
                             option_args=options)
    finally:
        vars(KIND).pop("edition", None)       # new games get the current edition again
    assert store.turn(game_id, 0).inputs.get("edition", 0) == case.get("edition", KIND.edition)
    check_conservation(store.turn(game_id).state)
    expect0 = case.get("start", {})
    if expect0:
        check(expect0, store, game_id, f"case {case['id']} start", None)
    for number, step in enumerate(case.get("turn", []), start=1):
        expect = step.get("expect", {})
        rejects = expect.get("rejects", {})
        accepts = expect.get("accepts", {})
        where = f"case {case['id']} turn {number}"
        accepted = 0
        for player, text in step.get("orders", {}).items():
            if player in rejects:
                with pytest.raises(OrdersRejected) as info:
                    service.submit_orders(store, game_id, player, text, f"{player}.txt")
                rendered = info.value.render()
                assert rejects[player] in rendered, f"{where}: {rendered}"
                continue
            result = service.submit_orders(store, game_id, player, text, f"{player}.txt")
            accepted += 1
            if player in accepts:
                joined = "\n".join(result.understood)
                assert accepts[player] in joined, f"{where}: {joined}"
        if expect.get("no_turn"):
            with pytest.raises(CompanionError):
                service.run_turn(store, game_id)
            continue
        if expect.get("skip_turn") or (rejects and not accepted):
            continue   # every submission was refused: nothing is processed
        outcome = service.run_turn(store, game_id)
        check(expect, store, game_id, where, outcome)
    result = service.replay(store, game_id)
    assert result.ok, result.message


def check(expect: dict, store, game_id: str, where: str, outcome) -> None:
    turn = store.turn(game_id)
    state = turn.state
    check_conservation(state)
    public = [e["text"] for e in turn.events if e["to"] == "public"]
    for needle in expect.get("public", []):
        assert any(needle in line for line in public), f"{where}: {needle!r} not in {public}"
    start = 0
    for needle in expect.get("public_order", []):
        found = next((i for i in range(start, len(public)) if needle in public[i]), None)
        assert found is not None, f"{where}: {needle!r} not found in order in {public}"
        start = found + 1
    for needle in expect.get("not_public", []):
        assert not any(needle in line for line in public), f"{where}: {needle!r} in {public}"
    for player, needles in expect.get("private", {}).items():
        mine = [e["text"] for e in turn.events if e["to"] != "public" and player in e["to"]]
        for needle in needles:
            assert any(needle in line for line in mine), f"{where}: {needle!r} not in {mine}"
    if expect.get("not_seen"):
        game = store.game(game_id)
        docs = service.report_documents(game, turn)
        for viewer, needles in expect["not_seen"].items():
            text = render_text(docs[viewer])
            for needle in needles:
                assert needle not in text, f"{where}: {viewer}'s report shows {needle!r}"
    if expect.get("seen"):
        docs = service.report_documents(store.game(game_id), turn)
        for viewer, needles in expect["seen"].items():
            text = " ".join(render_text(docs[viewer]).split())
            for needle in needles:
                assert needle in text, f"{where}: {viewer}'s report lacks {needle!r}"
    for key, wanted in expect.get("zones", {}).items():
        assert sorted(zone(state, key)) == sorted(wanted), \
            f"{where}: {key} is {zone(state, key)}, expected {wanted}"
    for key, wanted in expect.get("has", {}).items():
        have = zone(state, key)
        for name in wanted:
            assert name in have, f"{where}: {name} not in {key} ({have})"
    for key, wanted in expect.get("lacks", {}).items():
        have = zone(state, key)
        for name in wanted:
            assert name not in have, f"{where}: {name} is in {key} ({have})"
    for key, n in expect.get("count", {}).items():
        if key == "Anna sets count":
            continue
        parts = key.split()
        if len(parts) == 2 and parts[1] == "setcount":
            got = len(state["sets"][parts[0]])
        else:
            got = len(zone(state, key))
        assert got == n, f"{where}: {key} holds {got}, expected {n}"
    decided = [f"{d['player']} {d['kind']} {d['source']}" for d in turn.decisions]
    for needle in expect.get("decided", []):
        assert any(needle in line for line in decided), f"{where}: {needle!r} not in {decided}"
    purposes = [c["purpose"] for c in turn.chance]
    for needle in expect.get("chance", []):
        assert any(needle in p for p in purposes), f"{where}: {needle!r} not in {purposes}"
    if "awaiting" in expect:
        assert KIND.awaited(state) == expect["awaiting"], \
            f"{where}: awaiting {KIND.awaited(state)}"
    if "current" in expect:
        assert state["current"] == expect["current"], f"{where}: current {state['current']}"
    if "over" in expect:
        assert KIND.is_over(state) == expect["over"], where
    if "winners" in expect:
        assert state["result"]["winners"] == expect["winners"], \
            f"{where}: winners {state['result']['winners']} ({state['result']['reason']})"
    if "reason" in expect:
        assert expect["reason"] in state["result"]["reason"], \
            f"{where}: {state['result']['reason']}"
    for player, total in expect.get("totals", {}).items():
        assert state["result"]["scores"][player]["total"] == total, \
            f"{where}: {player} scored {state['result']['scores'][player]}"
    for line in expect.get("position", []):
        text = KIND.write_position(state)
        assert line in text.splitlines(), f"{where}: {line!r} not in position:\n{text}"
    if "end" in expect:
        end = state["end"]
        got = f"{end['reason']} {end['player']}" if end else "none"
        assert got == expect["end"], f"{where}: end is {got}"


@pytest.mark.parametrize("case", CASES, ids=[f"case-{c['id']:02d}-{c['rule']}" for c in CASES])
def test_case(case, tmp_path, fixed_date):
    run_case(case, tmp_path)
