"""The Holy Grail CCG casebook: numbered situations (a position, the orders of one or more turns,
what must happen), each citing the section of the rules text (7.1-16.3), a question of its FAQ,
a worked example, or the house rule of docs/grailccg.md it checks ("House 2.4", "PBEM").

The cases run through the game kind's ``process`` (the engine path the service uses), with the
grail numbers fixed by arranging the top of each deck in the position (a number in a deck list
stands for a card with that grail number). Every case is then replayed from the recorded chance
outcomes and must give the same position.

Case format (tests/grailccg/casebook.toml)::

    [[case]]
    id = 12
    source = "7.2"
    title = "..."
    new = true                      # a new game from the starter decks (else a built position)
    players = ["Anna", "Bert", "Cleo"]   # seats (16.3); default Anna and Bert
    seed = "casebook"
    edition = 2                     # the game's rules edition (default: the kind's latest)
    [case.options]                  # game options (missing = "wait", doubling = "off", ...)
    cards = '''...'''                # Write Yer Own cards (12.1) added to the card set
    [case.setup.Anna]               # see ccg_play.build: table, pages, hand, deck, dead, at,
    ...                             # from, england, fill
    [case.avalon]                   # av1 = "up:Swamp" ...
    [[case.turn]]
    orders = { Anna = "move 1a\\nfight with Lancelot", Bert = "on retreat: 1b" }
    [case.turn.expect]
    public = ["substring of a public event", ...]   public_order = [...]   not_public = [...]
    private = { Anna = ["substring"] }
    numbers = { total = 11, foe_total = 10 }        # the last dispute / table / search
    table = { Anna = ["Lancelot"] }   not_table = {...}   pages = {...}   hand = {...}
    hand_count = { Anna = 3 }   dead = { Bert = ["Gawain"] }   at = { Anna = "1a" }
    serves = { Anna = { Page = "Lancelot" } }       # the knight a page serves ("" nobody)
    dispute = true | false   tied = true   active = "Bert"   awaiting = ["Bert"]
    asks = { Bert = "substring of the question" }   rejects = { Anna = "error text" }
    area = { "Anna 1a" = { foes = [...], occupants = [...], card = "Tintagel", up = true } }
    grail_bonus = { Anna = 2 }                      # waiting for Anna's next grail number
    winner = "Anna"   draw = true   over = true   ante_share = 2
    out = ["Bert"]   avalon_count = 4   england_from = { Bert = "Cleo" }   ante_count = {...}
    forfeits = { Cleo = "Anna" }                    # 16.3 games
"""
from __future__ import annotations

import copy
import tomllib
from pathlib import Path

import pytest

from companion.engine.chance import Chance, seed_key
from companion.engine.game import TurnContext
from companion.engine.orders import OrdersRejected
from companion.grailccg.kind import KIND

from ccg_play import NAMES, build, check_invariants, run_turn

CASEBOOK = Path(__file__).with_name("casebook.toml")
CASES = tomllib.loads(CASEBOOK.read_text(encoding="utf-8"))["case"]


def names(ids, g) -> list[str]:
    return [KIND.cards.get(g["cards"][i]).name for i in ids]


def check(expect: dict, ctx: TurnContext, state: dict, where: str) -> None:
    g = state["game"]
    public = [e["text"] for e in ctx.events if e["to"] == "public"]
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
        mine = [e["text"] for e in ctx.events if e["to"] != "public" and player in e["to"]]
        for needle in needles:
            assert any(needle in line for line in mine), f"{where}: {needle!r} not in {mine}"
    for key, value in expect.get("numbers", {}).items():
        got = (g.get("last_dispute") or {}).get(key)
        assert got == value, f"{where}: number {key} is {got}, not {value}: {g.get('last_dispute')}"
    for player, cards in expect.get("table", {}).items():
        held = names(g["table"][player]["members"], g)
        assert sorted(held) == sorted(cards), f"{where}: {player}'s Round Table is {held}"
    for player, cards in expect.get("pages", {}).items():
        held = names(list(g["table"][player]["pages"]), g)
        assert sorted(held) == sorted(cards), f"{where}: {player}'s pages are {held}"
    for player, serving in expect.get("serves", {}).items():
        pages = g["table"][player]["pages"]
        for page, knight in serving.items():
            got = [names([info["knight"]], g)[0] if info["knight"] else ""
                   for inst, info in pages.items() if names([inst], g)[0] == page]
            assert knight in got, f"{where}: {player}'s {page} serves {got}, not {knight!r}"
    for player, cards in expect.get("items", {}).items():
        held = names([i for info in g["table"][player]["pages"].values()
                      for i in info["items"] + info["new"]], g)
        assert sorted(held) == sorted(cards), f"{where}: {player}'s items are {held}"
    for zone, key in (("hands", "hand"), ("dead", "dead")):
        for player, cards in expect.get(key, {}).items():
            held = names(g[zone][player], g)
            for card in cards:
                assert card in held, f"{where}: {card!r} not in {key} of {player}: {held}"
        for player, cards in expect.get("not_" + key, {}).items():
            held = names(g[zone][player], g)
            for card in cards:
                assert card not in held, f"{where}: {card!r} in {key} of {player}: {held}"
    for player, count in expect.get("hand_count", {}).items():
        assert len(g["hands"][player]) == count, \
            f"{where}: {player} holds {names(g['hands'][player], g)}, not {count} cards"
    for player, count in expect.get("deck_count", {}).items():
        assert len(g["decks"][player]) == count, f"{where}: {player}'s deck {len(g['decks'][player])}"
    for player, area in expect.get("at", {}).items():
        assert g["table"][player]["at"] == area, f"{where}: {player} at {g['table'][player]['at']}"
    if "dispute" in expect:
        assert bool(g["dispute"]) == expect["dispute"], f"{where}: dispute {g['dispute']}"
    if "tied" in expect:
        assert bool(g["dispute"] and g["dispute"]["tied"]) == expect["tied"], where
    if "active" in expect:
        assert g["active"] == expect["active"], f"{where}: active is {g['active']}"
    if "awaiting" in expect:
        assert KIND.awaited(state) == expect["awaiting"], f"{where}: {KIND.awaited(state)}"
    for player, needle in expect.get("asks", {}).items():
        q = (state.get("pending") or {}).get("question")
        assert q and q["player"] == player, f"{where}: no question for {player}: {q}"
        text = q["prompt"] + "\n" + "\n".join(q["options"])
        assert needle in text, f"{where}: {needle!r} not in the question:\n{text}"
    for label, want in expect.get("area", {}).items():
        player, name = label.split()
        a = g["avalon"][name] if name.startswith("av") else g["england"][player][name]
        if "card" in want:
            got = names([a["card"]], g)[0] if a["card"] else ""
            assert got == want["card"], f"{where}: {label} holds {got!r}"
        if "up" in want:
            assert a["up"] == want["up"], f"{where}: {label} up is {a['up']}"
        for key in ("foes", "occupants"):
            if key in want:
                assert sorted(names(a[key], g)) == sorted(want[key]), \
                    f"{where}: {label} {key} {names(a[key], g)}"
        if "searched" in want:
            assert a["searched"] == want["searched"], f"{where}: {label} searched"
    if "winner" in expect:
        r = g["result"]
        assert r and r["winner"] == expect["winner"], f"{where}: result {r}"
    if "draw" in expect:
        assert bool(g["result"] and g["result"]["draw"]) == expect["draw"], g["result"]
    if "over" in expect:
        assert KIND.is_over(state) == expect["over"], f"{where}: over? {g['result']}"
    if "ante_share" in expect:
        assert g["ante"]["share"] == expect["ante_share"], f"{where}: ante {g['ante']}"
    for player, bonus in expect.get("grail_bonus", {}).items():     # waiting for the next grail
        got = g["counters"]["grail_bonus"].get(player, 0)
        assert got == bonus, f"{where}: {player}'s grail bonus is {got}, not {bonus}"
    if "search_bonus" in expect:
        assert g["counters"]["search_bonus"] == expect["search_bonus"], where
    if "out" in expect:                                     # 16.3: players who left, in order
        assert g.get("out", []) == expect["out"], f"{where}: out {g.get('out')}"
    if "avalon_count" in expect:
        assert len(g["avalon"]) == expect["avalon_count"], f"{where}: Avalon {list(g['avalon'])}"
    for explorer, builder in expect.get("england_from", {}).items():
        seat = str(g["players"].index(builder) + 1)
        owners = {a["card"].split("-")[0] for a in g["england"][explorer].values() if a["card"]}
        assert owners == {seat}, f"{where}: {explorer}'s England from seats {owners}"
    for player, count in expect.get("ante_count", {}).items():
        assert len(g["ante"]["cards"][player]) == count, f"{where}: ante {g['ante']}"
    if "forfeits" in expect:
        assert g.get("forfeits", {}) == expect["forfeits"], f"{where}: {g.get('forfeits')}"


def new_game(case: dict):
    players = list(case.get("players", NAMES))
    opts = {"missing": "default", "first": players[0], "decks": None, "grail-draw": "discard",
            "hand-limit": 7, "doubling": "on"}
    opts.update(case.get("options", {}))
    key = seed_key(case.get("seed", "casebook"))
    chance = Chance(key, 0)
    state = KIND.create(players, opts, chance)
    ctx = TurnContext(turn=0, key=key, chance=chance, orders={}, options=opts)
    KIND.finish_turn(state, ctx)
    return state, opts, key, ctx


def run_case(case: dict) -> None:
    """Run one case; with ``cards`` (a Write Yer Own card file's text, 12.1) the case is
    played with the shipped set plus those cards."""
    global KIND
    if not case.get("cards"):
        return _run_case(case)
    import ccg_play
    from companion.grailccg.cards import parse_user_cards
    from companion.grailccg.kind import GrailKind

    shipped = KIND
    KIND = GrailKind(cards=parse_user_cards(case["cards"], f"case{case['id']}.toml"))
    ccg_play._CARDS["kind"] = KIND
    try:
        _run_case(case)
    finally:
        KIND = shipped
        ccg_play._CARDS.pop("kind", None)


def _run_case(case: dict) -> None:
    if case.get("new"):
        state, opts, key, ctx = new_game(case)
        if "start" in case:
            check(case["start"], ctx, state, f"case {case['id']} start")
    else:
        spec = dict(case)
        spec["options"] = case.get("options", {})
        state = build(KIND, spec)
        opts = state.pop("options")
        key = seed_key(case.get("seed", "casebook"))
    if "edition" in case:           # a game stored under an earlier rules edition
        state["edition"] = case["edition"]
    check_invariants(state)
    history = []
    for number, step in enumerate(case.get("turn", []), start=1):
        expect = step.get("expect", {})
        rejects = expect.get("rejects", {})
        where = f"case {case['id']} turn {number}"
        texts = {}
        for player, text in step.get("orders", {}).items():
            if player in rejects:
                with pytest.raises(OrdersRejected) as info:
                    parsed = KIND.parse_orders(state, player, text, f"{player}.txt")
                    KIND.check_orders(state, player, parsed, f"{player}.txt")
                rendered = info.value.render()
                assert rejects[player] in rendered, f"{where}: {rendered}"
                continue
            texts[player] = text
        if expect.get("skip_turn"):
            continue
        before = copy.deepcopy(state)
        ctx, outcomes = run_turn(KIND, state, number, key, opts, texts)
        history.append((before, texts, outcomes, copy.deepcopy(state), number))
        check_invariants(state)
        check(expect, ctx, state, where)
    # replay: each turn again from its start, with the recorded chance outcomes only
    for before, texts, outcomes, after, number in history:
        again = copy.deepcopy(before)
        run_turn(KIND, again, number, key, opts, texts, replay=outcomes)
        assert again["game"] == after["game"], f"case {case['id']}: replay of turn {number} differs"


def test_casebook_is_numbered_and_cites_its_sources():
    ids = [c["id"] for c in CASES]
    assert ids == sorted(ids) and len(ids) == len(set(ids)), "case ids must be unique and ordered"
    for c in CASES:
        assert c["title"] and c["source"], c["id"]
    sources = " ".join(c["source"] for c in CASES)
    for section in ("7.1", "7.2", "7.3", "7.4", "7.5", "7.6", "8.1", "8.2", "8.3", "8.4", "9.1",
                    "10.1", "11.1", "13.1", "13.2", "13.3", "13.4", "14.1", "15.1", "15.2",
                    "15.3", "16.1", "16.2", "16.3", "Example 7.1", "Example 7.2", "Example 8.1",
                    "Example 8.2", "Example 8.3"):
        assert section in sources, section
    for q in range(1, 11):
        assert f"FAQ {q}" in sources, f"FAQ {q}"


@pytest.mark.parametrize("case", CASES, ids=[f"case-{c['id']:03d}" for c in CASES])
def test_case(case):
    run_case(case)
