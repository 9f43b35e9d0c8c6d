"""Core of the Knights of Camelot engine: knight values, movement, encounter rolls, combat."""
from __future__ import annotations

from companion.koc.engine import knight as kn
from companion.koc.engine.combat import Combat, foe, npk

BASIC = """
game = "koc"
order = ["Anna"]
[merlin]
area = "Argyll"
[knight.Anna]
cp = 50
vp = 5
at = "Hampshire"
lord = "King Arthur"
"""


def test_derived_values():
    rec = kn.new_knight("A", "A", 165, 20)
    assert kn.vl(rec) == 9 and kn.wl(rec) == 16
    kn.poison(rec, 2)
    kn.add_cp(rec, 40)
    assert kn.wl(rec) == 14            # WL held at 16 while poisoned, less 2
    kn.cure_poison(rec)
    assert kn.wl(rec) == 20
    kn.add_cp(rec, 500)
    kn.add_vp(rec, -500)
    assert rec["cp"] == 300 and rec["vp"] == 1


def test_encounter_value_sir_bernard():
    """Rules example: the knight, his Dwarf and three Men-at-Arms: encounter value 3."""
    rec = kn.new_knight("B", "Sir Bernard", 60, 6)
    rec["dwarf"] = {"arthurian": False, "spares": []}
    rec["men_at_arms"] = [{"kind": "knight", "name": f"M{i}", "vl": 5} for i in range(3)]
    assert kn.encounter_value(rec) == 3


def test_movement_allowance_sir_alfred():
    """Rules example (MOVEMENT): Alfred, Boldric his Dwarf and Sir Phelot his Man-at-Arms. Alfred's
    horse and the Dwarf's are slain; Alfred takes his beaten foe's horse. Two horses for three
    travellers: two share a horse, so the party moves 2. With one horse left, somebody walks: 1."""
    rec = kn.new_knight("A", "Sir Alfred", 60, 6)
    rec["dwarf"] = {"arthurian": False, "spares": []}
    rec["men_at_arms"] = [{"kind": "knight", "name": "Sir Phelot", "vl": 5}]
    assert kn.movement_allowance(rec) == 3          # before the fight: a horse each
    rec["dwarf"]["no_horse"] = True                 # the Dwarf's steed was slain under Alfred
    rec["gear"]["horse"] = True                     # the horse he demanded of Sir Trian
    assert kn.movement_allowance(rec) == 2
    rec["gear"]["horse"] = False                    # only Phelot's horse is left
    assert kn.movement_allowance(rec) == 1


def test_moving_without_encounter(table):
    t = table(BASIC, dice=[4, 6, 6, 6], orders={"Anna": "move Somerset"})
    t.play()
    assert t.knight()["at"]["area"] == "Somerset"
    assert t.saw("Encounter roll in Somerset: 6")


def test_luck_of_the_day_edgewick(table):
    """Sir Edgewick's luck: Luck-of-the-Day 5; a 3 fails the test, a 5 passes."""
    t = table(BASIC, dice=[5, 3, 5])
    s = t.session()
    from companion.koc.engine.turn import luck_phase

    luck_phase(s)
    assert t.knight()["luck"] == 5
    assert not s.luck_test("avoid the ogre")
    assert s.luck_test("the dwarf brings a lance")


def test_fight_passes_geoffrey(table):
    """Sir Geoffrey's pass: 9 against 13 inflicts 4 wounds; WL 5 leaves 1."""
    t = table(BASIC, dice=[3, 3, 3, 4, 4, 5])
    s = t.session()
    rec = t.knight()
    bryan = npk({"kind": "knight", "name": "Sir Bryan", "vl": 5, "cp": 80})
    c = Combat(s, [bryan], attacker="foe", challenge=True)
    c.me["method"] = "lance"
    bryan["method"] = "lance"
    c.exchange(c.me, bryan)
    assert rec["wounds"] == 4 and kn.current_wl(rec) == 1


def _adventures(rec: dict) -> list[dict]:
    return [t for t in rec["tasks"] if isinstance(t.get("adventure"), dict)]


def test_fate_charges_with_adventure_cannot_be_declined(table):
    """Knight's Fate 9: the loser must undertake a random adventure (5:6 rerolled), with the
    usual awards for success and none for failure; an order to decline does not apply."""
    from companion.koc.engine.fate import apply_fate

    t = table(BASIC, orders={"Anna": "on adventure: decline"})
    apply_fate(t.session(), "charges_with_adventure",
               {"kind": "knight", "name": "Sir Kay", "vl": 4, "arthurian": True}, None)
    found = _adventures(t.knight())
    assert len(found) == 1 and t.saw("Sir Kay charges Anna with an adventure")
    adv = found[0]["adventure"]
    assert adv["no_failure_award"] and adv["awards"] and adv["key"] != "tournament_at_camelot"


def test_fate_demands_company_rides_without_awards(table):
    """Knight's Fate 7 from an NPK: the loser rides as his Man-at-Arms on a random adventure,
    the victor leading, with no awards for the loser."""
    from companion.koc.engine.fate import apply_fate

    t = table(BASIC)
    victor = {"kind": "knight", "name": "Sir Kay", "vl": 4, "arthurian": True,
              "card": {"kind": "knight", "name": "Sir Kay", "vl": 4}}
    apply_fate(t.session(), "demands_company", victor, None)
    task = _adventures(t.knight())[0]
    assert task["leader"]["name"] == "Sir Kay" and task["adventure"]["awards"] is False
    assert task["penalty_vp"] == 12


def test_go_to_is_offered_only_where_land_leads():
    """The order options offer 'go to' a task's destination only when a land route exists."""
    from companion.koc.checks import legal_lines
    from companion.koc.kind import KIND
    from companion.koc.position import read_position

    state = read_position(KIND.world, BASIC, "case.toml")
    rec = state["knights"]["Anna"]
    rec["tasks"] = [{"kind": "message", "dest": "York", "why": "a message", "status": "active"},
                    {"kind": "message", "dest": "Tara", "why": "a message", "status": "active"}]
    lines = legal_lines(KIND.world, state, "Anna")
    assert "go to York" in lines and "go to Tara" not in lines


def test_a_knight_whose_horse_dies_mounts_his_dwarfs_steed(table):
    """The Sir Alfred example in combat: with no spare horse, the Dwarf's steed carries him on,
    and the Dwarf's pony counts as lost for movement afterwards."""
    t = table(BASIC)
    s = t.session()
    rec = t.knight()
    rec["dwarf"] = {"arthurian": False, "spares": []}
    c = Combat(s, [npk({"kind": "knight", "name": "Sir Trian", "vl": 5, "cp": 60})],
               attacker="foe")
    rec["gear"]["horse"] = False
    assert c.dwarfs_steed() and rec["gear"]["horse"] and rec["dwarf"]["no_horse"]
    assert not c.dwarfs_steed()                       # only once
    assert t.saw("mounts his Dwarf's steed")


def test_a_ship_that_sailed_to_a_coast_lands_there(table):
    """Movement by Sea: a ship moves into an adjoining sea, coast, river or port, and a knight
    may debark on any coast (a whole turn, no encounter roll). A ship sailed from the Irish Sea
    to the coast of Mercia lands him there ('debark', or 'debark Mercia'); before, it could
    only sail back out."""
    from companion.engine.orders import OrdersRejected
    from companion.koc.checks import legal_lines
    from companion.koc.engine.movement import Mover
    from companion.koc.kind import KIND
    from kocpos import pos

    t = table(pos(at="Irish Sea", where="ship"))
    s = t.session()
    Mover(s).do_sail({"do": "sail", "area": "Mercia"})
    assert t.knight()["at"] == {"area": "Mercia", "where": "ship"}
    assert "debark" in legal_lines(KIND.world, t.state, "Anna")
    bad = KIND.parse_orders(t.state, "Anna", "debark Gwynedd\n", "anna.txt")
    try:
        KIND.check_orders(t.state, "Anna", bad, "anna.txt")
        raise AssertionError("debark Gwynedd off the coast of Mercia was accepted")
    except OrdersRejected as refused:
        err = refused.errors[0]
        assert "lies off the coast of Mercia" in err.message and "'debark'" in err.suggestion
    for text in ("debark\n", "debark Mercia\n"):
        KIND.check_orders(t.state, "Anna", KIND.parse_orders(t.state, "Anna", text, "a.txt"),
                          "a.txt")
    Mover(s).do_debark({"do": "debark", "area": "Mercia"})
    assert t.knight()["at"] == {"area": "Mercia", "where": "coast"} and "ship" not in t.knight()
    assert t.saw("lands on the coast of Mercia") and t.chance.outcomes == []
    assert legal_lines(KIND.world, t.state, "Anna")[-2:] == ["inland", "stay"]


def test_new_standing_answers_say_which_earlier_ones_they_replace(table):
    """'on ...' lines replace the whole list of standing answers (docs/koc-engine.md, Play by
    email): the acknowledgement lists those no longer in force, and an answer for this turn
    is echoed as the 'answer' line it was."""
    from companion.koc.kind import KIND
    from kocpos import pos

    t = table(pos())
    t.knight()["standing"] = [
        {"key": "encounter", "tags": ["encounter", "knights"], "answer": "avoid",
         "text": "on encounter knights: avoid"},
        {"key": "party", "tags": ["party"], "answer": "yes", "text": "on party: yes"}]
    orders = KIND.parse_orders(t.state, "Anna", "on party: yes\nanswer adventure: decline\n",
                               "a.txt")
    said = KIND.acknowledge(t.state, "Anna", orders)
    assert "this turn: answer adventure: decline" in said
    assert "standing answer 1: on party: yes" in said
    assert said[-1].startswith("no longer in force") and said[-1].endswith(
        "send them again to keep them): on encounter knights: avoid")
    kept = KIND.acknowledge(t.state, "Anna", KIND.parse_orders(t.state, "Anna", "stay\n", "b"))
    assert kept[-1] == "standing answers unchanged (2 in force)"


def test_a_request_after_moves_is_acknowledged_where_it_will_be_made(table):
    """The turn's phases: movement, then prayers and requests. A request sent with moves is
    made where the moves end, of whom the knight meets there; the acknowledgement says so
    (a player listing 'move ...' and 'request adventure of lord' from the options learns his
    Lord must be there)."""
    from companion.koc.kind import KIND
    from kocpos import pos

    t = table(pos())
    orders = KIND.parse_orders(t.state, "Anna", "move Somerset\nrequest dwarf of lord\n", "a")
    said = KIND.acknowledge(t.state, "Anna", orders)
    assert "request: dwarf of lord, made where his moves end (Somerset), of whom he meets " \
           "there" in said
    alone = KIND.acknowledge(t.state, "Anna", KIND.parse_orders(t.state, "Anna",
                                                                "request dwarf of lord\n", "b"))
    assert "request: dwarf of lord" in alone
