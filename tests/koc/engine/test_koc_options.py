"""Optional rules: every name the `rules=` option accepts is switched on and does what its
rules section says (rules: OPTIONAL RULES; OPTIONAL ADVENTURES; ENCOUNTERS: Sea 3 for the
shipwreck saves; Knight's Fate 11 for robbing; COMBAT for steadfast companions). Dice are
explicit. The tournament options (`short_tournaments`, `signal_honour`,
`camelot_tournament_once`, `special_tournament_once`) are cases of the tournament casebook."""
from __future__ import annotations

import pytest
from kocpos import card, pos

from companion.koc.engine import knight as kn
from companion.koc.engine import tasks
from companion.koc.engine.combat import Combat, npk
from companion.koc.kind import KIND, RULES, _rules

D = {2: [1, 1], 6: [3, 3], 8: [4, 4]}


def rules(*names):
    return {"rules": tuple(names)}


# ============================================================================== the option
def test_o01_every_rule_name_is_accepted_and_read_back():
    """Every optional rule the kind lists is accepted by `--option rules=...`, in any case and
    with dashes or spaces; the names an earlier version took still mean their rule."""
    assert _rules(",".join(RULES), []) == RULES
    assert _rules("Short-Tournaments, SIGNAL HONOUR", []) == ("short_tournaments",
                                                              "signal_honour")
    assert _rules("stamina_unhorse,shipwreck_saving_throws", []) == (
        "superior_knights", "shipwreck_saves")
    for name in ("optional_adventures", "delaying_pursuit", "short_tournaments",
                 "signal_honour", "stamina", "superior_knights", "shipwreck_saves"):
        assert name in RULES


def test_o02_unknown_rule_is_refused_with_a_suggestion():
    """A misspelt rule is refused, naming it, the closest rule and the list."""
    with pytest.raises(ValueError) as err:
        _rules("stamina, short_tournament", [])
    text = str(err.value)
    assert "'short_tournament' is not an optional rule" in text
    assert "did you mean 'short_tournaments'" in text


def test_o03_every_rule_reaches_the_engine(table):
    """Each rule given to a new game is in force for the engine (old names included)."""
    for name in RULES:
        t = table(pos(), options=rules(name))
        assert t.session().options_rule(name), name
    t = table(pos(), options=rules("stamina_unhorse"))
    assert t.session().options_rule("superior_knights")
    assert KIND.option_specs  # the kind's options carry the parse


# ============================================================================== adventures
def test_o04_optional_adventures_use_a_d8(table):
    """OPTIONAL ADVENTURES: the first adventure die is a d8; 7 on it with a 3 is 7:3-4,
    Journey to London. Without the rule the same request cannot roll a 7."""
    from companion.koc.engine import resolutions as rs

    t = table(pos(at="Tintagel", where="inside"), dice=[7, 3], options=rules(
        "optional_adventures"))
    entry = rs.roll_adventure(t.session(), {"kind": "king", "name": "King Mark"})
    assert entry.key == "journey_to_london"
    t = table(pos(at="Tintagel", where="inside"), dice=[4, 3])
    entry = rs.roll_adventure(t.session(), {"kind": "king", "name": "King Mark"})
    assert entry.key == "pilgrimage_canterbury"


def test_o05_delaying_the_pursuit(table):
    """Delaying the Pursuit of Adventures: straying from the direct route to an adventure
    loses it only on a failed Luck Test; without the rule it is lost at once."""
    def strayed(options, dice):
        t = table(pos(at="Hampshire"), dice=dice, options=options)
        s = t.session()
        s.pk["luck"] = 4
        task = tasks.add(s, "adventure", "Kent", route="direct", grace=1,
                         adventure={"id": "4:3"})
        tasks.after_movement(s, "Hampshire", ["Dorset"], False)
        return t, task

    t, task = strayed(rules("delaying_pursuit"), [5])
    assert task["status"] == "active" and t.saw("the adventure is still there")
    t, task = strayed(rules("delaying_pursuit"), [2])
    assert task["status"] == "failed"
    t, task = strayed({}, [])
    assert task["status"] == "failed" and not t.saw("Luck test")


def test_o05b_delaying_the_pursuit_of_king_arthurs_tournament(table):
    """Delaying the Pursuit: King Arthur's tournament (5:6) is an adventure for every knight
    bound for it: straying, he keeps his place on a Luck Test."""
    t = table(pos(at="Hampshire"), dice=[6], options=rules("delaying_pursuit"))
    s = t.session()
    s.pk["luck"] = 4
    task = tasks.add(s, "camelot_tournament", "Kent", route="direct", grace=1)
    tasks.after_movement(s, "Hampshire", ["Dorset"], False)
    assert task["status"] == "active" and t.saw("the adventure 5:6 waits for him")


def test_o06_delaying_the_pursuit_not_for_other_tasks(table):
    """The rule is about adventures: a pilgrimage that strays is lost as before."""
    t = table(pos(at="Hampshire"), options=rules("delaying_pursuit"))
    s = t.session()
    task = tasks.add(s, "pilgrimage", "Kent", route="direct", penalty_vp=12)
    tasks.after_movement(s, "Hampshire", ["Dorset"], False)
    assert task["status"] == "failed"


# ============================================================================== combat
def test_o07_stamina_attack_bonus(table):
    """Stamina Attack Bonus: +1 on the attack dice for every full 60 CP (125 CP: +2); Sir Kay
    (his card's CP) gets his own; nothing without the rule."""
    kay = card("Sir Kay")
    t = table(pos(cp=125), dice=[1, 1, 1, 1, 1, 1], options=rules("stamina"))
    c = Combat(t.session(), [npk(kay)], attacker="pk")
    mine, _ = c.roll(c.me, c.foes[0])
    theirs, _ = c.roll(c.foes[0], c.me)
    assert mine == 3 + 2
    assert theirs == 3 + (kay.get("cp") or 10) // 60
    t = table(pos(cp=125), dice=[1, 1, 1])
    c = Combat(t.session(), [npk(kay)], attacker="pk")
    assert c.roll(c.me, c.foes[0])[0] == 3


def test_o08_stamina_not_for_a_madman(table):
    """Stamina: a mad knight (his two dice of rage) gets no bonus."""
    t = table(pos(cp=125), dice=[1, 1], options=rules("stamina"))
    s = t.session()
    s.pk["mad"] = {"since": 1}
    c = Combat(s, [npk(card("Sir Kay"))], attacker="pk")
    assert c.roll(c.me, c.foes[0])[0] == 2


def superior_case(table, event, cp, foe_cp, *, method="lance"):
    t = table(pos(cp=cp), dice=D[event], options=rules("superior_knights"))
    s = t.session()
    foe = npk(card("Sir Kay"))
    foe["cp"] = foe_cp
    c = Combat(s, [foe], attacker="pk")
    c.me["method"] = method
    foe["method"] = "lance"
    c.event(foe)
    return t, s, c, foe


def test_o09_superior_knight_player_not_unhorsed(table):
    """Superior Knights: the player knight with 50 CP more than his foe is not unhorsed
    (event 6); the foe's lance breaks instead."""
    t, s, c, foe = superior_case(table, 6, 150, 60)
    assert not s.pk["on_foot"] and foe["gear"]["lance"] is False
    assert t.saw("too strong to be unhorsed")


def test_o10_superior_knight_foe_not_unhorsed(table):
    """Superior Knights works for the other side too: a foe 50 CP stronger is not unhorsed
    (event 8); the player knight's lance breaks instead, or, fighting without a lance, the
    foe takes a wound."""
    t, s, c, foe = superior_case(table, 8, 60, 150)
    assert foe.get("mounted", True) and not s.pk["gear"]["lance"]
    t, s, c, foe = superior_case(table, 8, 60, 150, method="sword")
    assert foe["wounds"] == 1 and t.saw("keeps his saddle at the cost of a wound")
    t, s, c, foe = superior_case(table, 8, 100, 120)
    assert t.saw("is unhorsed and fights on foot")


# ============================================================================== shipwreck
def test_o11_shipwreck_saves(table):
    """Shipwreck saves: with the rule, a Luck Test keeps each piece of equipment (then each
    comrade, Man-at-Arms and the Dwarf); without it all is lost."""
    from companion.koc.engine import encounters as E

    t = table(pos(at="Narrow Sea", where="ship", anna='dwarf = true'),
              dice=[1, 2] + [6, 1, 6, 6] + [6],
              options=rules("shipwreck_saves"))
    s = t.session()
    s.pk["luck"] = 4
    s.pk["ship"] = {"kind": "ship", "name": "Cog", "wl": 10, "dice": 2}
    E.sea_encounter(s, "Narrow Sea", "Hampshire")
    gear = s.pk["gear"]
    assert gear["horse"] and not gear["shield"] and gear["lance"] and gear["sword"]
    assert s.pk["dwarf"] is not None and t.saw("Luck test (keep his horse)")


def test_o12_robbing_costs_vp(table):
    """Robbing a knight he attacked costs the player knight 6 VP under the rule (nothing
    without it)."""
    from companion.koc.engine import fate

    for options, vp in ((rules("robbing_costs_vp"), 14), ({}, 20)):
        t = table(pos(vp=20), dice=[6, 6], options=options,
                  orders={"Anna": "answer fate: robs"})
        s = t.session()
        loser = npk(card("Sir Kay"))
        loser["attacked_by_pk"] = True
        fate.give_fate(s, loser)
        assert s.pk["vp"] == vp and t.saw("takes Sir Kay's equipment")


def test_o13_steadfast_companions(table):
    """Steadfast companions: when his side won the day after all, each Man-at-Arms and a
    Dwarf stay on a Luck Test; without the rule they leave."""
    from companion.koc.engine.combat import after_defeat

    for options, dice, kept in ((rules("steadfast_companions"), [5, 5], True), ({}, [], False)):
        t = table(pos(anna='dwarf = true\nmen_at_arms = ["Sir Lucan"]'), dice=dice,
                  options=options)
        s = t.session()
        s.pk["luck"] = 4
        s.pk["side_won"] = True
        after_defeat(s)
        assert bool(s.pk["men_at_arms"]) is kept and (s.pk["dwarf"] is not None) is kept


def test_o14_stamina_for_ship_crews_not_mad_knights_nor_animals(table):
    """Stamina Attack Bonus: a ship's crew adds 1 for every full 6 WL (crew 35: +5); a Mad
    Knight foe and a player knight in animal form add nothing."""
    from companion.koc.engine.combat import foe, stamina_bonus

    t = table(pos(cp=125), options=rules("stamina"))
    s = t.session()
    assert stamina_bonus(s, foe("crew", "the crew", 35, 2)) == 5
    assert stamina_bonus(s, foe("mad_knight", "Sir Tristram, mad", 20, 2)) == 0
    s.pk["animal"] = "Boar"
    c = Combat(s, [npk(card("Sir Kay"))], attacker="pk")
    assert stamina_bonus(s, c.me) == 0
    s.pk["animal"] = None
    assert stamina_bonus(s, c.me) == 2


# ============================================================================== part 3
def test_o15_limited_luck(table):
    """Limited Luck: with 100 CP or less a Luck Test in a fight only every three fight rounds
    (a fight round is one pass), 101-200 CP every other round, 201+ every round; a test he may
    not attempt fails without a die. Without the rule every test is allowed."""
    from companion.koc.engine.optional import luck_interval

    assert (luck_interval(100), luck_interval(101), luck_interval(200),
            luck_interval(201)) == (3, 2, 2, 1)
    t = table(pos(cp=100), dice=[6, 6], options=rules("limited_luck"))
    s = t.session()
    s.pk["luck"] = 4
    c = Combat(s, [npk(card("Sir Kay"))], attacker="foe")
    assert c.luck("flee")                       # the first test of the fight
    c.rounds = 2
    assert not c.luck("flee") and t.saw("may not test his luck again so soon")
    c.rounds = 3
    assert c.luck("flee") and t.unused_dice == []
    t = table(pos(cp=250), dice=[6, 6], options=rules("limited_luck"))
    s = t.session()
    s.pk["luck"] = 4
    c = Combat(s, [npk(card("Sir Kay"))], attacker="foe")
    assert c.luck("flee")
    c.rounds = 1
    assert c.luck("flee")
    t = table(pos(cp=100), dice=[6, 6])
    s = t.session()
    s.pk["luck"] = 4
    c = Combat(s, [npk(card("Sir Kay"))], attacker="foe")
    assert c.luck("flee") and c.luck("flee")


def test_o16_seeking_encounters(table):
    """Seeking Encounters: after a roll that found nothing, a Luck Test (asked: default no)
    finds an encounter; never a second time in the same area in a turn."""
    from companion.koc.engine.movement import Mover
    from companion.koc.engine.optional import seek_encounter

    t = table(pos(), dice=[6, 2], options=rules("seeking_encounters"),
              orders={"Anna": "answer seek_encounter: yes"})
    s = t.session()
    s.pk["luck"] = 4
    assert not Mover(s).encounter_roll("Hampshire")
    assert t.saw("Luck test (find an encounter in Hampshire)") and t.saw("in vain")
    assert not seek_encounter(s, "Hampshire")       # not twice in the same area
    t = table(pos(), dice=[5], options=rules("seeking_encounters"),
              orders={"Anna": "on seek_encounter: yes"})
    s = t.session()
    s.pk["luck"] = 4
    assert seek_encounter(s, "Hampshire") and t.saw("and finds it")
    t = table(pos(), dice=[6], options=rules("seeking_encounters"))
    s = t.session()
    assert not Mover(s).encounter_roll("Hampshire") and not t.saw("Luck test")


def test_o17_a_devil_vanquished(table):
    """Devils: a Monster met at random is a Devil on a 1. WL d6+4 (2: 6); fought on foot with
    the sword (two dice), less his VL (5): 12-5 = 7 against 3, then 7 against 4: vanquished,
    its WL (6) in CP and VP."""
    from companion.koc.engine import encounters as E

    t = table(pos(extra='[draws]\nmonster = ["Lion 5"]\n'),
              dice=[1, 2, 6, 6, 1, 1, 1, 6, 6, 1, 1, 2], options=rules("devils"))
    s = t.session()
    out = E.meet_monster(s)
    assert out.won and t.saw("It is a Devil (WL 6)")
    assert (s.pk["cp"], s.pk["vp"]) == (106, 26) and s.pk["on_foot"]
    assert t.unused_dice == []
    t = table(pos(extra='[draws]\nmonster = ["Lion 5"]\n'), dice=[2, 6, 6, 6, 1, 1, 1],
              options=rules("devils"))
    s = t.session()
    E.meet_monster(s)
    assert t.saw("It is a Lion") and not t.saw("Devil")


def test_o18_a_devil_poisons_and_vanishes(table):
    """Devils: winning a pass it gives one Poisoned Wound unless the knight passes a VL Test
    (1 against VL 5: fails); after the pass a die of 1 (no more than the one Poisoned Wound)
    and it vanishes: no wounds given, no award. A Hermit in his company adds his die."""
    from companion.koc.engine.optional import fight_devil

    t = table(pos(), dice=[6, 1, 1, 6, 6, 6, 1, 1], options=rules("devils"))
    s = t.session()
    done = fight_devil(s)
    assert done == {"outcome": "vanished", "wounds": 0, "poisoned": 1}
    assert s.pk["poison"] == 1 and s.pk["cp"] == 100 and t.saw("Its work done")
    t = table(pos(anna='party_extra = [{kind = "hermit", name = "the hermit", walks = true}]'),
              dice=[1, 6, 6, 6, 1, 1, 1], options=rules("devils"))
    s = t.session()
    done = fight_devil(s)        # WL 5: 12 - 5 + 6 = 13 against 3
    assert done["outcome"] == "vanquished" and t.saw("Pass: Anna 13, the Devil 3")


def test_o18b_a_devil_vanishes_before_a_poisoned_wound_would_slay(table):
    """Devils: the Devil also vanishes once one more Poisoned Wound would slay the knight, and
    a Devil that vanishes pays the wounds he gave it in CP and VP. Anna (WL 10, 8 wounds) gives
    it 4 (12-5 against 3), then loses a pass and fails her VL Test (1): poisoned, one WL is
    left, so it vanishes with no die rolled: 4 CP and 4 VP."""
    from companion.koc.engine.optional import fight_devil

    t = table(pos(anna="wounds = 8"), dice=[1, 6, 6, 1, 1, 1, 1, 1, 6, 6, 6, 1],
              options=rules("devils"))
    s = t.session()
    done = fight_devil(s)
    assert done == {"outcome": "vanished", "wounds": 4, "poisoned": 1}
    assert (s.pk["cp"], s.pk["vp"], s.pk["poison"]) == (104, 24, 1)
    assert t.saw("Its work done") and t.unused_dice == []


TWO = {"Bert": 'cp = 100\nvp = 20\nat = "Camelot Castle"\nwhere = "inside"\nlord = "King Arthur"'}


def test_o19_tricking_player_knights(table):
    """Tricking Player Knights: at the start of his turn, the challenger may trick the knight
    he challenged instead (12 VP; he chose 'lose horses'); the victim fails his Luck Test and
    falls for it (6 VP): no challenge. Escaping it (Luck Test passed), the trickster must
    fight."""
    from companion.koc.engine import rivals

    orders = {"Anna": "answer pk_trick: lose horses", "Bert": "answer pk_challenge: yes"}
    t = table(pos(at="Camelot Castle", where="inside", others=TWO), dice=[1], orders=orders,
              options=rules("tricking_pks"))
    s = t.session()
    s.at_turn_start = True
    assert rivals.confront(s, "challenge", "Bert")
    bert = t.knight("Bert")
    assert s.pk["vp"] == 8 and bert["vp"] == 14 and not bert["gear"]["horse"]
    assert not t.saw("Challenge:")
    t = table(pos(at="Camelot Castle", where="inside", others=TWO),
              dice=[6, *[6, 6, 6, 1, 1, 1] * 3], orders=orders, options=rules("tricking_pks"))
    s = t.session()
    s.at_turn_start = True
    rivals.confront(s, "challenge", "Bert")
    assert t.saw("The trick fails: Anna must fight Bert") and t.saw("Challenge:")


def test_o20_no_trick_later_in_the_turn_nor_under_13_vp(table):
    """Tricking Player Knights: not after he has moved this turn, and not with fewer than 13
    VP: the challenge is fought as usual."""
    from companion.koc.engine import rivals

    orders = {"Anna": "answer pk_trick: lose horses", "Bert": "answer pk_challenge: yes"}
    for vp, start in ((20, False), (12, True)):
        t = table(pos(vp=vp, at="Camelot Castle", where="inside", others=TWO),
                  dice=[6, 6, 6, 1, 1, 1] * 3, orders=orders, options=rules("tricking_pks"))
        s = t.session()
        s.at_turn_start = start
        rivals.confront(s, "challenge", "Bert")
        assert not t.saw("tries to trick") and t.saw("Challenge:")


ADMIRAL = ('office = {key = "lord_admiral", label = "Lord Admiral", since = 1, '
           'flagship = "Camelot Town"}')


def test_o21_the_lord_admirals_flagship(table):
    """Signal Honour, Lord Admiral: in the port where it lies he boards the flagship (crew 35);
    it has Good Winds on 6-9 of the sea chart; going ashore in a port, it waits there."""
    from companion.koc.engine import encounters as E
    from companion.koc.engine.movement import Mover

    t = table(pos(at="Camelot Town", anna=ADMIRAL), dice=[3, 4])
    s = t.session()
    Mover(s).do_board({})
    assert s.pk["ship"]["flagship"] and s.pk["ship"]["wl"] == 35
    assert E.sea_encounter(s, "Test", "Camelot Town") == "good_winds"
    s.pk["at"] = {"area": "London", "where": "ship"}
    Mover(s).do_debark({})
    assert s.pk["office"]["flagship"] == "London" and "ship" not in s.pk


def test_o22_finding_the_flagship_elsewhere(table):
    """Lord Admiral: in another port he must find his flagship (a Luck Test); failing, he waits
    in port this turn; he may take a ship of the port instead."""
    from companion.koc.engine.movement import Mover

    t = table(pos(at="London", anna=ADMIRAL), dice=[2])
    s = t.session()
    s.pk["luck"] = 4
    Mover(s).do_board({})
    assert "ship" not in s.pk and t.saw("not to be found in London")
    t = table(pos(at="London", anna=ADMIRAL), dice=[5])
    s = t.session()
    s.pk["luck"] = 4
    Mover(s).do_board({})
    assert s.pk["ship"]["flagship"] and s.pk["office"]["flagship"] == "London"
    t = table(pos(at="London", anna=ADMIRAL), orders={"Anna": "answer flagship: any ship"})
    s = t.session()
    Mover(s).do_board({})
    assert not s.pk["ship"].get("flagship")


def test_o23_a_shipwreck_forfeits_the_lord_admiral(table):
    """Lord Admiral: being shipwrecked forfeits the office."""
    from companion.koc.engine import encounters as E

    t = table(pos(at="Test", where="ship", anna=ADMIRAL), dice=[1, 2])
    s = t.session()
    s.pk["ship"] = {"kind": "ship", "name": "the Arthurian flagship", "wl": 35,
                    "flagship": True}
    E.sea_encounter(s, "Test", "Camelot Town")
    assert "office" not in s.pk and t.saw("loses the office of Lord Admiral")


def test_o24_a_lone_knight_is_not_told_he_plays_first(table):
    """The first-player option with one knight (the game seats 1 to 8): he plays first every
    game turn whatever the rotation. From rules edition 6 the end of a game turn says nothing
    of it and draws no lot for it; edition 5 said "Anna plays first next game turn." after
    every game turn (random play of lone knights), and keeps it for its replay."""
    from companion.koc.engine.turn import end_of_game_turn

    for ed in (6, 5):
        for rotation in ("rotate", "random", "fixed"):
            t = table(pos(), options={"first-player": rotation})
            t.state["edition"] = ed
            end_of_game_turn(t.game)
            told = t.saw("Anna plays first next game turn.")
            assert told == (ed < 6 and rotation != "fixed"), (ed, rotation, t.events)
            assert t.state["koc"]["order"] == ["Anna"]
            drew = any("first player" in e["purpose"] for e in t.chance.to_json())
            assert drew == (ed < 6 and rotation == "random"), (ed, rotation)
