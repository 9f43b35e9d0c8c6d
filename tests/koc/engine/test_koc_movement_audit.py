"""Movement & Encounters, Luck and Healing against the engine: a casebook (rules: SEQUENCE OF
PLAY; LUCK, Persistence; MOVEMENT & ENCOUNTERS, Finding). Dice are explicit."""
from __future__ import annotations

from kocpos import pos

from companion.koc.engine.game import run_player_turn

MEMO = "seek:Bert:Cornwall"


def bert_in_cornwall(table, ed: int, dice: list[int], orders: str, tried: int):
    """Anna seeks Bert in Cornwall, open country; she tried there ``tried`` turns before."""
    t = table(pos(cp=80, vp=10, at="Cornwall", others={"Bert": 'at = "Cornwall"'}), dice=dice,
              orders={"Anna": orders})
    t.state["edition"] = ed
    t.knight("Anna")["persistence"][MEMO] = tried
    run_player_turn(t.game, "Anna")
    return t


def test_m01_seeking_persists_only_turn_after_turn(table):
    """Persistence, Finding: the +1 a turn counts turns of seeking the same knight in the
    same place in a row. Anna failed to find Bert in Cornwall last turn: seeking again she
    rolls at +1 (3 + 1 = 4 against Luck 5, failing again) and next turn would have +2. If she
    spends a turn without seeking (she stays; no encounter on a 6), her earlier try is
    forgotten at the end of that turn (rules edition 7: tasks.SEEKING_IN_A_ROW). A game of
    edition 6 keeps its reading: the +1 stayed with her until she sought there again."""
    for ed in (7, 6):
        t = bert_in_cornwall(table, ed, [5, 3], "challenge Bert", tried=1)
        assert t.saw("Luck test (find Bert): rolled 3+1 = 4, needing 5 or more: failure.")
        assert t.knight("Anna")["persistence"] == {MEMO: 2} and t.unused_dice == []
        t = bert_in_cornwall(table, ed, [5, 6], "stay", tried=1)
        assert t.saw("Encounter roll in Cornwall: 6") and t.unused_dice == []
        assert t.knight("Anna")["persistence"] == ({} if ed >= 7 else {MEMO: 1})


FIVE_MEN = 'men_at_arms = ["Sir Kay", "Sir Lucan", "Sir Griflet", "Sir Tor", "Sir Dinadan"]'


def test_m02_quiet_areas_meet_on_a_1_whatever_the_party(table):
    """Encounter Rolls: Anna with five Men-at-Arms has encounter value 1 + 3 (half of five,
    rounded up) = 4 in the countryside; in a forest only a 1 is an encounter, however large
    her party: a 2 there is nothing, a 5 in Somerset nothing either, and she rides her three
    areas (Hampshire, Bradon Forest, Somerset, Devon)."""
    t = table(pos(cp=50, vp=5, at="Hampshire", anna=FIVE_MEN), dice=[4, 2, 5, 5],
              orders={"Anna": "move Bradon Forest\nmove Somerset\nmove Devon"})
    t.play()
    assert t.saw("Encounter roll in Bradon Forest: 2 (an encounter on 1): nothing.")
    assert t.saw("Encounter roll in Somerset: 5 (an encounter on 4 or less): nothing.")
    assert t.saw("Encounter roll in Devon: 5 (an encounter on 4 or less): nothing.")
    assert t.knight()["at"]["area"] == "Devon" and t.unused_dice == []


def test_m03_encounter_value_is_at_most_5():
    """Encounter Rolls: the knights (the PK, comrade knights) and the Men-at-Arms at half,
    rounded up, at most 5: a lone Man-at-Arms counts 1; three comrades and five Men-at-Arms
    would make 7, and count 5."""
    from companion.koc.engine import knight as kn

    rec = kn.new_knight("A", "Sir Alfred", 60, 6)
    rec["men_at_arms"] = [{"kind": "knight", "name": "Sir Phelot", "vl": 5}]
    assert kn.encounter_value(rec) == 2
    rec["men_at_arms"] *= 5
    rec["comrades"] = [{"kind": "knight", "name": f"Sir C{i}", "vl": 5} for i in range(3)]
    assert kn.encounter_value(rec) == 5


def test_m04_wasteland_entered_on_foot(table):
    """Terrain Effects, Wasteland: a wasteland is entered on foot, one area in the turn, so
    not after riding that turn (decision: the party's allowance that turn is the foot rate);
    the next turn, moving out of it, the party still walks: one area."""
    t = table(pos(cp=50, vp=5, at="Gore"), dice=[4, 6],
              orders={"Anna": "move Norfolk\nmove Massingham Heath"})
    t.play()
    assert t.saw("Wastelands are crossed on foot: Anna cannot go on into Massingham Heath")
    assert t.knight()["at"]["area"] == "Norfolk" and t.unused_dice == []
    t = table(pos(cp=50, vp=5, at="Gore"), dice=[4, 6],
              orders={"Anna": "move Massingham Heath\nmove Norfolk"})
    t.play()
    assert t.knight()["at"]["area"] == "Massingham Heath" and t.unused_dice == []
    t = table(pos(cp=50, vp=5, at="Massingham Heath"), dice=[4, 6],
              orders={"Anna": "move Norfolk\nmove Gore"})
    t.play()
    assert t.saw("No movement left to go to Gore this turn.")
    assert t.knight()["at"]["area"] == "Norfolk" and t.unused_dice == []
