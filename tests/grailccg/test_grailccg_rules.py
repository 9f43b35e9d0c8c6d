"""Unit tests of the Holy Grail CCG rules engine: England's layout, the order grammar and its
typed errors, the kind's contract (create, check, acknowledge, options_for, awaited), and rule
helpers not reached by the casebook's worked examples."""
from __future__ import annotations

import copy

import pytest

from companion.engine.chance import Chance, seed_key
from companion.engine.orders import (
    AmbiguousNameError, IllegalOrderError, OrderSyntaxError, OrdersRejected, UnknownNameError,
)
from companion.errors import CompanionError
from companion.grailccg import england as E
from companion.grailccg.kind import KIND, GrailKind
from companion.grailccg.orders import line_text
from companion.grailccg.rules import ekey, table_lookup, village_result, castle_result

from ccg_play import NAMES, build, check_invariants, new_state, run_turn


# ------------------------------------------------------------------------------ England

def test_england_rows_and_names():
    assert [len(r) for r in E.ROWS] == [3, 4, 3, 2]
    assert len(E.AREAS) == 12 and E.TOP == ("4a", "4b")


def test_adjacency_as_the_house_rule_states():
    want = {"1a": {"home", "1b", "2a", "2b"}, "1b": {"home", "1a", "1c", "2b", "2c"},
            "1c": {"home", "1b", "2c", "2d"}, "3a": {"2a", "2b", "3b", "4a"},
            "3b": {"2b", "2c", "3a", "3c", "4a", "4b"}, "4a": {"3a", "3b", "4b"},
            "4b": {"3b", "3c", "4a"}, "home": {"1a", "1b", "1c"}}
    for area, near in want.items():
        assert set(E.adjacent(area)) == near, area
    for a in E.AREAS + (E.HOME,):
        for b in E.adjacent(a):
            assert a in E.adjacent(b), (a, b)
    assert set(E.below("2b")) == {"1a", "1b"} and E.below("1c") == ("home",)


def test_area_spellings():
    assert E.canonical("R2B") == "2b" and E.canonical("2b") == "2b"
    assert E.canonical("AV3") == "av3" and E.canonical("Home") == "home"
    assert E.canonical("5a") is None and E.canonical("x") is None


# ------------------------------------------------------------------------------ the grammar

def parse(text: str, player: str = "Anna", state=None):
    state = state or build(KIND, {})
    state.pop("options", None)
    orders = KIND.parse_orders(state, player, text, "o.txt")
    KIND.check_orders(state, player, orders, "o.txt")
    return orders


def rejected(text: str, player: str = "Anna", state=None) -> OrdersRejected:
    with pytest.raises(OrdersRejected) as info:
        parse(text, player, state)
    return info.value


@pytest.mark.parametrize("text, kind", [
    ("play Lancelot", "play"), ("play Page on Lancelot", "play"),
    ("play Black Knight at their 2b", "play"), ("play Swamp on av2", "play"),
    ("give Excalibur to Patsy", "give"), ("pass Herring from Patsy to Page", "pass"),
    ("use Coconuts", "use"), ("move 1a", "move"), ("move to r2b", "move"),
    ("lead Lancelot", "lead"), ("fight", "fight"), ("fight with Lancelot", "fight"),
    ("outwit with Arthur", "outwit"), ("run away", "run"), ("run away to 1a", "run"),
    ("consult", "consult"), ("consult with Bedevere", "consult"), ("assault", "assault"),
    ("stay outside", "outside"), ("search", "search"), ("discard Swamp, Herring", "discard"),
    ("double", "double"), ("end", "end"),
    ("on dispute: play Fetchez la Vache, A Newt?", "on"), ("on double: concede", "on"),
    ("on retreat: 1a, 1b", "on"), ("on defend: Bors", "on"), ("on reveal: ignore", "on"),
    ("on dispute: none", "on"), ("on invite: play Eccentric Performance", "on"),
    ("play Get On With It", "play"),
])
def test_every_order_form_parses_and_reads_back(text, kind):
    # the knights named are in Anna's Round Table (a page for a missing knight is refused),
    # the castle occupant among her cards (another's card can never occupy her castle)
    state = build(KIND, {"setup": {"Anna": {"table": ["Arthur", "Lancelot", "Bedevere"],
                                            "deck": ["Bors"]}}})
    orders = parse(text, state=state)
    entry = orders.lines[0]
    assert entry["kind"] == kind
    again = parse(line_text(KIND.cards, entry), state=state).lines[0]
    for key in ("kind", "card", "area", "cards", "value", "trigger", "target", "page"):
        assert again.get(key) == entry.get(key), (text, key)


def test_a_card_name_containing_a_keyword_is_read_whole():
    entry = parse("play Get On With It").lines[0]
    assert KIND.cards.get(entry["card"]).name == "Get On With It"
    entry = parse("play Vicious Chicken of Bristol on 2b").lines[0]
    assert entry["target"] == {"area": "2b"}


def test_errors_are_typed_located_and_suggest():
    err = rejected("move 1a\nfigth with Lancelot\n")
    e = err.errors[0]
    assert isinstance(e, OrderSyntaxError) and e.line.number == 2 and e.col == 1
    assert "did you mean 'fight'?" in e.format()
    err = rejected("play Lancelott")
    e = err.errors[0]
    assert isinstance(e, UnknownNameError) and e.col == 6 and "Lancelot" in (e.suggestion or "")
    err = rejected("play What Is")
    assert isinstance(err.errors[0], AmbiguousNameError)
    err = rejected("run fast")
    assert isinstance(err.errors[0], OrderSyntaxError) and "expected 'away'" in err.errors[0].message
    err = rejected("move 9z")
    assert "no area called '9z'" in err.errors[0].message and "1a" in err.errors[0].suggestion
    err = rejected("move their 2b")
    assert isinstance(err.errors[0], IllegalOrderError) and "FAQ 10" in err.errors[0].message
    err = rejected("on double: maybe")
    assert "expected 'accept' or 'concede'" in err.errors[0].message


def test_all_errors_of_a_file_together():
    err = rejected("figth\nplay Nobody\nmove 7q\n")
    assert [e.line.number for e in err.errors] == [1, 2, 3]
    assert "3 errors in o.txt" in err.render()


def test_turn_orders_out_of_turn_are_refused_but_standing_orders_taken():
    err = rejected("move 1a", player="Bert")
    assert "it is Anna's turn" in err.errors[0].message
    assert parse("on double: accept\non dispute: play A Newt?", player="Bert").standing
    err = rejected("accept", player="Bert")
    assert "nothing is asked of you" in err.errors[0].message


def test_targets_are_checked_for_the_card_type():
    assert "not on an area" in rejected("play Page on 2b").errors[0].message
    assert "on an area, not on a character" in rejected("play Black Knight on Arthur").errors[0].message
    assert "takes no target" in rejected("play Lancelot on 1a").errors[0].message


def test_acknowledge_echoes_what_was_understood():
    state = build(KIND, {"setup": {"Anna": {"hand": ["Lancelot"]}}})
    state.pop("options")
    orders = KIND.parse_orders(state, "Anna", "play lanc\nplay galahad\nmove R1A\n"
                               "on double: accept\n", "o")
    lines = KIND.acknowledge(state, "Anna", orders)
    assert lines[0] == "play Lancelot"
    assert lines[1].startswith("play Galahad (not in your hand now")
    assert lines[2] == "move 1a"
    assert lines[3].startswith("on double: accept (standing")


# ------------------------------------------------------------------------------ the kind

def test_create_refuses_other_player_counts_and_bad_decks():
    key = seed_key("x")
    with pytest.raises(CompanionError, match="2 to 6 players"):
        KIND.create(["A", "B", "C", "D", "E", "F", "G"], {"first": "A"}, Chance(key, 0))
    with pytest.raises(CompanionError, match="2 to 6 players"):
        KIND.create(["A"], {"first": "A"}, Chance(key, 0))
    with pytest.raises(CompanionError, match="names 2 deck"):     # a list shorter than the table
        KIND.create(["A", "B", "C"], {"first": "A", "decks": "starter-french,starter-arthur"},
                    Chance(key, 0))
    kind = GrailKind(decks={"no-arthur": ["lancelot"] * 30, "ok": ["arthur", "patsy"] +
                            ["swamp"] * 30})
    with pytest.raises(CompanionError, match="no Arthur"):
        kind.create(["A", "B"], {"first": "A", "decks": ["no-arthur", "ok"]}, Chance(key, 0))


def test_first_player_option_and_random_draw():
    state, *_ = new_state(KIND, 3, {"first": "Bert"})
    assert state["game"]["active"] == "Bert"
    key = seed_key("r")
    chance = Chance(key, 0)
    state = KIND.create(list(NAMES), {"first": "random"}, chance)
    assert chance.outcomes[0].purpose == "first player"
    assert state["game"]["active"] in NAMES


def test_every_instance_has_one_place_after_setup_and_england_is_the_opponents_cards():
    state, *_ = new_state(KIND, 8)
    check_invariants(state)
    g = state["game"]
    for p, seat in (("Anna", "2"), ("Bert", "1")):
        owners = {a["card"].split("-")[0] for a in g["england"][p].values()}
        assert owners == {seat}, f"{p}'s England should be built from the other player's cards"
    assert sorted(g["avalon"]) == ["av1", "av2", "av3", "av4"]
    assert sum(1 for a in g["avalon"].values() if a["card"].startswith("1-")) == 2


def test_options_for_only_the_awaited_player_and_nothing_when_over():
    state, *_ = new_state(KIND, 9)
    waiting = KIND.options_for(state, "Bert")      # standing orders only, out of turn
    assert "on double: accept" in waiting and all(line.startswith("on ") for line in waiting)
    lines = KIND.options_for(state, "Anna")
    assert "end" in lines and any(line.startswith("move ") for line in lines)
    over = copy.deepcopy(state)
    over["game"]["stage"] = "over"
    assert KIND.options_for(over, "Anna") == [] and KIND.awaited(over) == []


def test_standing_orders_are_kept_and_cleared():
    state = build(KIND, {"active": "Anna"})
    opts = state.pop("options")
    key = seed_key("s")
    run_turn(KIND, state, 1, key, opts, {"Anna": "end", "Bert": "on retreat: 1b, 1a\n"
                                         "on double: concede"})
    assert state["standing"]["Bert"]["retreat"] == ["1b", "1a"]
    assert state["standing"]["Bert"]["double"] == "concede"
    run_turn(KIND, state, 2, key, opts, {"Bert": "on retreat: none\nend"})
    assert state["standing"]["Bert"]["retreat"] == []


def test_a_line_not_possible_is_left_out_and_said_privately():
    state = build(KIND, {})
    opts = state.pop("options")
    ctx, _ = run_turn(KIND, state, 1, seed_key("p"), opts, {"Anna": "search\nmove 1a"})
    mine = [e["text"] for e in ctx.events if e["to"] == ["Anna"]]
    assert any("only in Avalon" in t for t in mine)
    assert state["game"]["table"]["Anna"]["at"] == "1a"


def test_every_decision_is_recorded_with_its_source():
    state = build(KIND, {"setup": {"Anna": {"england": {"1a": "French Guard"}}}})
    opts = state.pop("options")
    ctx, _ = run_turn(KIND, state, 1, seed_key("d"), opts, {"Anna": "move 1a"})
    kinds = [(d["player"], d["kind"], d["source"]) for d in ctx.decisions]
    assert ("Anna", "order", "orders") in kinds
    assert ("Anna", "dispute", "default") in kinds


# ------------------------------------------------------------------------------ helpers

def test_effect_keys_and_tables():
    cards = KIND.cards
    assert [ekey(e) for e in cards.by_name("The Animator Dies").primary] == ["slay_adversary"]
    assert [ekey(e) for e in cards.by_name("It's Only a Model").primary] == ["reveal_area"]
    tintagel = cards.by_name("Tintagel")
    assert castle_result(tintagel, 7) == "wait" and castle_result(tintagel, 9) == "pass"
    assert castle_result(tintagel, -3) == "trapped"
    village = cards.by_name("Witch Village")
    assert village_result(village, 9) == "draw 2" and village_result(village, 0) == "driven-out"
    assert table_lookup({"1-3": "a", "4-7": "b"}, 5) == "b"


def test_the_engine_carries_out_exactly_the_card_vocabulary():
    from companion.grailccg import cards
    from companion.grailccg.rules import CASTLE_WORDS, EFFECT_WORDS, VILLAGE_WORDS

    assert sorted(EFFECT_WORDS) == sorted(cards.EFFECTS)
    assert sorted(VILLAGE_WORDS) == sorted(cards.VILLAGE_RESULTS)
    assert sorted(CASTLE_WORDS) == sorted(cards.CASTLE_RESULTS)


@pytest.mark.parametrize("word", ["draw 1", "opponent-discards 1", "grail +1", "grail -1",
                                  "auto-join", "no-join", "slay knight", "skip-draw",
                                  "extra-move", "move-back 1", "peek 2", "reveal area",
                                  "shuffle-dead-cart", "revive", "none", "combat +1",
                                  "wits -1", "slay adversary", "return-to-hand", "run-away",
                                  "cancel", "join"])
def test_every_effect_word_runs_outside_a_dispute(word):
    """Each effect, applied in a quiet position, runs without error and keeps every card in one
    place (those that need a dispute simply do nothing)."""
    from companion.grailccg.cards import parse_effect
    from companion.grailccg.rules import Run

    state = build(KIND, {"setup": {"Anna": {"hand": ["Swamp"], "dead": ["Lancelot"]},
                                   "Bert": {"hand": ["Camelot"], "table": ["Arthur", "Galahad"],
                                            "at": "2a"}}})
    state.pop("options")
    g = state["game"]
    run = Run(KIND.cards, g, state["standing"], {}, Chance(seed_key("e"), 1))
    source = g["hands"]["Anna"][0]
    run.effect("Anna", parse_effect(word), source, {})
    check_invariants(state)
