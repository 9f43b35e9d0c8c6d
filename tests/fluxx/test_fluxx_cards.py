"""The card language as the engine interprets it: every Goal's condition (with Creepers blocking
unless named), the numbers of the rule set (contradictions, 'One, Two, Five!'), and the
printed texts generated from the behaviour."""
from __future__ import annotations

import pytest

from companion.fluxx.rules import Run, new_game_state
from companion.registry import get_kind

KIND = get_kind("fluxx")
DECK = KIND.deck
GOALS = [c for c in DECK.of("goal")]


def run_with(tables: dict[str, list[str]], goals: list[str], rules: list[str] = (),
             hands: dict[str, list[str]] | None = None) -> Run:
    players = list(tables)
    g = new_game_state(DECK, players, [])
    placed = set()
    for p, cards in tables.items():
        g["table"][p] = [DECK.by_name[c].id for c in cards]
        placed |= set(g["table"][p])
    for p, cards in (hands or {}).items():
        g["hands"][p] = [DECK.by_name[c].id for c in cards]
    g["goals"] = [DECK.by_name[c].id for c in goals]
    g["rules"] = [DECK.by_name[c].id for c in rules]
    return Run(DECK, g, players, {p: {"keep": None, "quote": None} for p in players}, {}, None)


def requirement(goal) -> list[str]:
    need = []
    for item in goal.goal.get("have", []):
        need.append(DECK.name(item[0] if isinstance(item, list) else item))
    knights = [c.name for c in DECK.of("keeper") if "knight" in c.tags]
    for tag, n in goal.goal.get("count", {}).items():
        need += [k for k in knights if k not in need][:n]
    return need


@pytest.mark.parametrize("goal", [g for g in GOALS if "have" in g.goal or "count" in g.goal
                                  if "another_has" not in g.goal], ids=lambda g: g.id)
def test_each_goal_is_met_by_its_cards_and_blocked_by_another_creeper(goal):
    need = requirement(goal)
    run = run_with({"Anna": need, "Bert": []}, [goal.name], hands={"Bert": ["Jackpot!"]})
    assert run.goals_met("Anna") == [goal.id]
    assert run.goals_met("Bert") == []
    for missing in need:
        short = run_with({"Anna": [n for n in need if n != missing], "Bert": []}, [goal.name])
        assert short.goals_met("Anna") == [], f"{goal.name} met without {missing}"
    other = next(c.name for c in DECK.of("creeper") if c.id not in goal.mentioned)
    blocked = run_with({"Anna": need + [other], "Bert": []}, [goal.name])
    assert blocked.goals_met("Anna") == [], f"{other} should stop {goal.name}"
    for cid in goal.mentioned:
        if DECK[cid].type == "creeper":
            assert DECK.name(cid) in need


def test_alternatives_either_one_will_do():
    for choice in ("Unladen Swallow", "Resting Parrot"):
        run = run_with({"Anna": ["A Shrubbery", choice]}, ["A Bird in the Bush"])
        assert run.goals_met("Anna")


def test_grail_shaped_beacon_needs_the_grail_with_someone_else():
    run = run_with({"Anna": ["Sir Galahad"], "Bert": ["The Holy Grail"]}, ["Grail-Shaped Beacon"])
    assert run.goals_met("Anna") and not run.goals_met("Bert")
    run = run_with({"Anna": ["Sir Galahad", "The Holy Grail"], "Bert": []}, ["Grail-Shaped Beacon"])
    assert not run.goals_met("Anna")


def test_the_cheese_shop_needs_nothing_and_being_the_only_one():
    run = run_with({"Anna": [], "Bert": ["Coconuts"]}, ["The Cheese Shop"])
    assert run.goals_met("Anna") and not run.goals_met("Bert")
    run = run_with({"Anna": [], "Bert": []}, ["The Cheese Shop"], hands={"Bert": []})
    assert not run.goals_met("Anna"), "two players with nothing: neither is the only one"
    run = run_with({"Anna": [], "Bert": ["Coconuts"]}, ["The Cheese Shop"],
                   hands={"Anna": ["Jackpot!"]})
    assert not run.goals_met("Anna")


def test_one_two_five_turns_every_printed_three_into_five():
    knights = ["King Arthur", "Sir Bedevere", "Sir Galahad"]
    run = run_with({"Anna": knights}, ["Knights of the Round Table"], rules=["Draw 3", "Hand Limit 3"])
    assert run.goals_met("Anna") and run.draw_count() == 3 and run.hand_limit() == 3
    run = run_with({"Anna": knights}, ["Knights of the Round Table"],
                   rules=["Draw 3", "Hand Limit 3", "One, Two, Five! (Three, Sir!)"])
    assert not run.goals_met("Anna")
    assert run.draw_count() == 5 and run.hand_limit() == 5 and run.num(2) == 2
    all_five = knights + ["Sir Robin", "Sir Lancelot"]
    run = run_with({"Anna": all_five}, ["Knights of the Round Table"],
                   rules=["One, Two, Five! (Three, Sir!)"])
    assert run.goals_met("Anna")


def test_the_rule_set_is_the_basic_rules_overridden_by_the_new_rules():
    run = run_with({"Anna": [], "Bert": []}, [])
    assert (run.draw_count(), run.play_count(), run.hand_limit(), run.keeper_limit(),
            run.goal_slots()) == (1, 1, None, None, 1)
    run = run_with({"Anna": [], "Bert": []}, [], rules=["Draw 4", "Play All", "Keeper Limit 3",
                                                        "Double Agenda", "Ministry of Silly Walks"])
    assert (run.draw_count(), run.play_count(), run.keeper_limit(), run.goal_slots()) == \
        (4, "all", 3, 2)
    assert run.reverse()


def test_contradicting_rules_share_a_parameter_and_others_share_none():
    keys: dict[str, list[str]] = {}
    for card in DECK.of("rule"):
        for key in card.set or {}:
            keys.setdefault(key, []).append(card.name)
    assert sorted(keys) == ["draw", "goals", "hand_limit", "keeper_limit", "order", "play",
                            "three_counts_as"]
    assert keys["draw"] == ["Draw 2", "Draw 3", "Draw 4", "Draw 5"]
    assert keys["play"] == ["Play 2", "Play 3", "Play 4", "Play All"]
    assert sum(1 for c in DECK.of("rule") if not c.set) == 6


def test_turn_order_with_silly_walks():
    run = run_with({"Anna": [], "Bert": [], "Cora": [], "Dora": []}, [])
    assert run.after("Bert") == ["Cora", "Dora", "Anna"]
    run = run_with({"Anna": [], "Bert": [], "Cora": [], "Dora": []}, [],
                   rules=["Ministry of Silly Walks"])
    assert run.after("Bert") == ["Anna", "Dora", "Cora"]


def test_every_card_may_carry_only_the_choices_its_ops_use():
    assert DECK.by_name["Steal a Keeper"].clauses == ("taking",)
    assert DECK.by_name["Exchange Keepers"].clauses == ("giving", "for")
    assert DECK.by_name["Jackpot!"].clauses == ()
    assert DECK.by_name["Double Agenda"].clauses == ("keeping",)
    assert "quoting" in DECK.by_name["Let's Do That Again!"].clauses
    for goal in GOALS:
        assert goal.clauses == ("replacing",)
