"""The Gral casebook: numbered situations (position, orders, expected result), each citing the
rule section it checks, run through the same service layer the command line uses.

Case format (tests/gral/casebook.toml)::

    [[case]]
    id = 18
    rule = "5.2"
    title = "..."
    position = '''...'''          # a position text without the 'game:' line; default: a new game
    players = ["Anna", "Bert"]     # for a new game
    options = ["missing=wait"]
    edition = 1                    # play as a game begun under that rules edition (default: now)
    [[case.turn]]
    orders = { Anna = "move ...", Bert = "..." }
    dice = []
    [case.turn.expect]
    public = ["substring of a public event", ...]
    public_order = ["first", "second"]   # substrings that must appear in this order
    not_public = [...]
    private = { Anna = ["substring of an event only Anna sees"] }
    position = ["a line of the moderator's position text after the turn", ...]
    not_position = [...]
    rejects = { Anna = "substring of the error" }   # that player's orders must be refused
    awaiting = ["Bert"]
    winners = ["Anna"]
    totals = { Anna = 12 }   # the result's influence on the bearer ({} when there is none)
    over = true
    no_turn = true        # the turn must be refused (nothing to adjudicate)
"""
from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from companion import service
from companion.engine.orders import OrdersRejected
from companion.errors import CompanionError
from companion.registry import get_kind
from companion.store import Store

CASEBOOK = Path(__file__).with_name("casebook.toml")
CASES = tomllib.loads(CASEBOOK.read_text(encoding="utf-8"))["case"]


def test_casebook_is_numbered_and_cites_rules():
    ids = [c["id"] for c in CASES]
    assert ids == sorted(ids) and len(ids) == len(set(ids)), "case ids must be unique and ordered"
    sections = {c["rule"].split(".")[0] for c in CASES}
    assert {"3", "4", "5", "6", "7", "8"} <= sections
    for c in CASES:
        assert c["title"] and c["rule"], c["id"]


def run_case(case: dict, tmp_path: Path) -> None:
    store = Store(tmp_path / "cases.sqlite3", create=True)
    game_id = f"case{case['id']}"
    options = list(case.get("options", []))
    kind = get_kind("gral")
    if "edition" in case:
        # a game begun by an earlier release: turn 0 records that edition, every later turn and
        # the replay below follow it (docs/adding-a-game.md, rules editions)
        assert case["edition"] < type(kind).edition, "a case's edition is one older than new games get"
        kind.edition = case["edition"]
    try:
        if "position" in case:
            setup = tmp_path / f"case{case['id']}.txt"
            setup.write_text("game: gral\n" + case["position"], encoding="utf-8")
            service.new_game(store, "gral", game_id, [], seed="casebook", option_args=options,
                             setup=str(setup))
        else:
            service.new_game(store, "gral", game_id, case["players"], seed="casebook",
                             option_args=options)
    finally:
        vars(kind).pop("edition", None)       # new games get the current edition again
    assert store.turn(game_id, 0).inputs.get("edition", 0) == case.get("edition", kind.edition)
    for number, step in enumerate(case.get("turn", []), start=1):
        expect = step.get("expect", {})
        rejects = expect.get("rejects", {})
        for player, text in step.get("orders", {}).items():
            if player in rejects:
                with pytest.raises(OrdersRejected) as info:
                    service.submit_orders(store, game_id, player, text, f"{player}.txt")
                rendered = info.value.render()
                assert rejects[player] in rendered, rendered
                continue
            service.submit_orders(store, game_id, player, text, f"{player}.txt")
        if expect.get("no_turn"):
            with pytest.raises(CompanionError):
                service.run_turn(store, game_id, dice=step.get("dice", []))
            continue
        outcome = service.run_turn(store, game_id, dice=step.get("dice", []))
        turn = store.turn(game_id)
        public = [e["text"] for e in turn.events if e["to"] == "public"]
        where = f"case {case['id']} turn {number}"
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
        for player, needles in expect.get("not_private", {}).items():
            mine = [e["text"] for e in turn.events if e["to"] != "public" and player in e["to"]]
            for needle in needles:
                assert not any(needle in line for line in mine), f"{where}: {needle!r} in {mine}"
        position = kind.write_position(turn.state).splitlines()
        for line in expect.get("position", []):
            assert line in position, f"{where}: {line!r} not in position:\n" + "\n".join(position)
        for line in expect.get("not_position", []):
            assert line not in position, f"{where}: {line!r} in position"
        if "awaiting" in expect:
            assert outcome.awaiting == expect["awaiting"], where
        if "winners" in expect:
            assert turn.state["result"]["winners"] == expect["winners"], where
        if "totals" in expect:
            assert turn.state["result"]["totals"] == expect["totals"], where
        if "over" in expect:
            assert outcome.over == expect["over"], where
    result = service.replay(store, game_id)
    assert result.ok, result.message


@pytest.mark.parametrize("case", CASES, ids=[f"case-{c['id']:02d}-rule-{c['rule']}" for c in CASES])
def test_case(case, tmp_path, fixed_date):
    run_case(case, tmp_path)
