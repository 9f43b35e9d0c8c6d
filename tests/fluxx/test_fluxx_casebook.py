"""The Fluxx casebook: numbered situations (position, orders, expected result), each citing the
section of the rules text or the FAQ question it checks, run through the same service layer the
command line uses. Every card of the deck is exercised by at least one case.

Case format (tests/fluxx/casebook.toml)::

    [[case]]
    id = 12
    source = "New Rule"             # a section of the rules text, "FAQ 4", or "PBEM"
    title = "..."
    position = '''...'''            # a position text without the 'game:' line; or a new game:
    players = ["Anna", "Bert"]
    seed = "casebook"
    options = ["missing=wait"]
    edition = 3                     # optional: the rules edition the game begins under (a
                                    # game of an earlier release); default the current one
    [case.start]                    # expectations about turn 0 (optional)
    [[case.turn]]
    orders = { Anna = "play Draw 2", Bert = "keep Coconuts" }
    [case.turn.expect]
    public = ["substring of a public event", ...]
    public_order = ["first", "second"]      # in this order
    not_public = [...]
    private = { Anna = ["substring of an event only Anna sees"] }
    hand = { Anna = ["Jackpot!"] }          # cards in the hand (by name)
    not_hand = { Anna = [...] }
    hand_count = { Anna = 3 }
    table = { Anna = ["Sir Robin"] }        # cards in front of the player
    not_table = { ... }
    rules = ["Draw 2"]  not_rules = [...]   goals = [...]   discard = [...]   not_discard = [...]
    deck_count = 12
    active = "Bert"
    awaiting = ["Bert"]
    asks = { Anna = "substring of the question or its options" }
    rejects = { Anna = "substring of the error" }   # that player's orders are refused
    report = { Anna = ["substring of Anna's text report, lines joined"] }   not_report = {...}
    winner = "Anna"     over = true     no_turn = true (the turn is refused)
    skip_turn = true    (only check the orders; process no turn)
"""
from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from companion import service
from companion.engine.orders import OrdersRejected
from companion.errors import CompanionError
from companion.registry import get_kind
from companion.render.report_text import render_text
from companion.store import Store

CASEBOOK = Path(__file__).with_name("casebook.toml")
CASES = tomllib.loads(CASEBOOK.read_text(encoding="utf-8"))["case"]
KIND = get_kind("fluxx")
DECK = KIND.deck
EXERCISED: dict[int, set[str]] = {}


def names(ids) -> list[str]:
    return [DECK.name(c) for c in ids]


def check(expect: dict, turn, state: dict, where: str, outcome=None) -> None:
    g = state["game"]
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
    for key, zone in (("hand", "hands"), ("table", "table")):
        for player, cards in expect.get(key, {}).items():
            held = names(g[zone][player])
            for card in cards:
                assert card in held, f"{where}: {card!r} not in {key} of {player}: {held}"
        for player, cards in expect.get("not_" + key, {}).items():
            held = names(g[zone][player])
            for card in cards:
                assert card not in held, f"{where}: {card!r} in {key} of {player}: {held}"
    for player, count in expect.get("hand_count", {}).items():
        assert len(g["hands"][player]) == count, \
            f"{where}: {player} holds {names(g['hands'][player])}, not {count} cards"
    for key in ("rules", "goals", "discard"):
        have = names(g[key])
        for card in expect.get(key, []):
            assert card in have, f"{where}: {card!r} not in {key}: {have}"
        for card in expect.get("not_" + key, []):
            assert card not in have, f"{where}: {card!r} in {key}: {have}"
    if "deck_count" in expect:
        assert len(g["deck"]) == expect["deck_count"], f"{where}: deck has {len(g['deck'])}"
    if "active" in expect:
        assert g["active"] == expect["active"], f"{where}: active is {g['active']}"
    if "awaiting" in expect:
        assert KIND.awaited(state) == expect["awaiting"], f"{where}: {KIND.awaited(state)}"
    for player, needle in expect.get("asks", {}).items():
        q = (state.get("pending") or {}).get("question")
        assert q and q["player"] == player, f"{where}: no question for {player}: {q}"
        text = q["prompt"] + "\n" + "\n".join(q["options"])
        assert needle in text, f"{where}: {needle!r} not in the question:\n{text}"
    if "winner" in expect:
        result = g["result"]
        assert result and result["winner"] == expect["winner"], f"{where}: result {result}"
    if "over" in expect:
        assert KIND.is_over(state) == expect["over"], where
    for key in ("report", "not_report"):
        for player, needles in expect.get(key, {}).items():
            text = report_text(state, player)
            for needle in needles:
                assert (needle in text) == (key == "report"), \
                    f"{where}: {needle!r} {'not ' if key == 'report' else ''}in {player}'s report:\n{text}"


def report_text(state: dict, player: str) -> str:
    """The player's text report of this position, its lines joined (as wrapped text would
    break a phrase across lines)."""
    view = KIND.view(state, player)
    view["envelope"] = {"game_id": "case", "turn": 1, "date": "2027-01-01 00:00 UTC",
                        "link": "", "link_label": "your private link", "commitment": ""}
    return " ".join(render_text(KIND.report(view)).split())


def exercised(events) -> set[str]:
    out = set()
    for e in events:
        data = e.get("data") or {}
        if e["kind"] in ("play", "creeper", "use") and data.get("card"):
            out.add(("use:" if e["kind"] == "use" else "") + data["card"])
    return out


def run_case(case: dict, tmp_path: Path) -> set[str]:
    store = Store(tmp_path / f"cases{case['id']}.sqlite3", create=True)
    game_id = f"case{case['id']}"
    options = list(case.get("options", []))
    seed = case.get("seed", "casebook")
    current = KIND.edition
    KIND.edition = case.get("edition", current)     # as a game begun by that release
    try:
        if "position" in case:
            setup = tmp_path / f"case{case['id']}.txt"
            setup.write_text("game: fluxx\n" + case["position"], encoding="utf-8")
            service.new_game(store, "fluxx", game_id, [], seed=seed, option_args=options,
                             setup=str(setup))
        else:
            service.new_game(store, "fluxx", game_id, case["players"], seed=seed,
                             option_args=options)
    finally:
        KIND.edition = current
    if "edition" in case:
        assert store.turn(game_id).state.get("edition", 0) == case["edition"], game_id
    seen = exercised(store.turn(game_id).events)
    if "start" in case:
        turn = store.turn(game_id)
        check(case["start"], turn, turn.state, f"case {case['id']} turn 0")
    for number, step in enumerate(case.get("turn", []), start=1):
        expect = step.get("expect", {})
        rejects = expect.get("rejects", {})
        where = f"case {case['id']} turn {number}"
        for player, text in step.get("orders", {}).items():
            if player in rejects:
                with pytest.raises(OrdersRejected) as info:
                    service.submit_orders(store, game_id, player, text, f"{player}.txt")
                rendered = info.value.render()
                assert rejects[player] in rendered, f"{where}: {rendered}"
                continue
            service.submit_orders(store, game_id, player, text, f"{player}.txt")
        if expect.get("skip_turn"):
            continue
        if expect.get("no_turn"):
            with pytest.raises(CompanionError):
                service.run_turn(store, game_id)
            continue
        outcome = service.run_turn(store, game_id)
        turn = store.turn(game_id)
        seen |= exercised(turn.events)
        check(expect, turn, turn.state, where, outcome)
    result = service.replay(store, game_id)
    assert result.ok, result.message
    store.close()
    return seen


def test_casebook_is_numbered_and_cites_its_sources():
    ids = [c["id"] for c in CASES]
    assert ids == sorted(ids) and len(ids) == len(set(ids)), "case ids must be unique and ordered"
    for c in CASES:
        assert c["title"] and c["source"], c["id"]
    sources = {c["source"] for c in CASES}
    for section in ("Setup", "Going first", "On your turn", "Basic Rules", "New Rule", "Goal",
                    "Keeper", "Action", "Creeper", "Winning", "Notes"):
        assert any(s.startswith(section) for s in sources), section
    faq = {int(s.split()[1]) for s in sources if s.startswith("FAQ ")}
    assert set(range(1, 23)) <= faq, sorted(set(range(1, 23)) - faq)


@pytest.mark.parametrize("case", CASES, ids=[f"case-{c['id']:03d}" for c in CASES])
def test_case(case, tmp_path, fixed_date):
    EXERCISED[case["id"]] = run_case(case, tmp_path)


def test_every_card_is_exercised_by_the_casebook(tmp_path, fixed_date):
    seen: set[str] = set()
    for case in CASES:
        if case["id"] not in EXERCISED:
            EXERCISED[case["id"]] = run_case(case, tmp_path)
        seen |= EXERCISED[case["id"]]
    missing = [c.name for c in DECK.cards if c.id not in seen]
    assert not missing, f"cards no case plays or draws: {missing}"
    free = [c.name for c in DECK.cards if c.free and "use:" + c.id not in seen]
    assert not free, f"free actions no case uses: {free}"
