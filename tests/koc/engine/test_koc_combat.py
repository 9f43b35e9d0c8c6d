"""Combat and Knight's Fate: a casebook (rules: COMBAT, Knight's Fate). Dice are explicit."""
from __future__ import annotations

from companion.koc.engine import knight as kn
from companion.koc.engine.combat import Combat, challenge, fight, foe, npk, party_combat, settle_foe
from companion.koc.engine.fate import suffer_fate

POS = """
game = "koc"
order = ["Anna"]
[merlin]
area = "Argyll"
[knight.Anna]
cp = {cp}
vp = {vp}
at = "{at}"
lord = "King Arthur"
"""


def position(cp=50, vp=5, at="Hampshire", extra=""):
    return POS.format(cp=cp, vp=vp, at=at) + extra


def test_c01_sir_eric_fate_refused(table):
    """Knight's Fate, the rules' example: defeated by Sir Galahad (VL 0), a roll of 2 gives 'sends
    to shrine'; Sir Eric refuses the long journey and loses 12 VP at once."""
    t = table(position(cp=80, vp=20), dice=[2], orders={"Anna": "on refuse_fate: refuse"})
    s = t.session()
    galahad = npk({"kind": "knight", "name": "Sir Galahad", "vl": 0, "cp": 250,
                   "arthurian": True})
    suffer_fate(s, galahad)
    assert t.saw("Knight's Fate for Anna from Sir Galahad")
    assert t.knight()["vp"] == 8
    assert not t.knight()["tasks"]


def test_c02_sir_eric_fate_accepted(table):
    """Accepting 'sends to shrine' gives a pilgrimage task to a random shrine (die 1: Canterbury)."""
    t = table(position(cp=80, vp=20), dice=[2, 1])
    s = t.session()
    suffer_fate(s, npk({"kind": "knight", "name": "Sir Galahad", "vl": 0, "cp": 250}))
    task = t.knight()["tasks"][0]
    assert task["kind"] == "pilgrimage" and task["dest"] == "Canterbury"
    assert task["penalty_vp"] == 12


def test_c03_sir_rufus_slays_the_queen_of_north_wales(table):
    """Outcomes: slaying an Enchantress costs 12 minus her VL in VP: the Queen of North Wales (VL 9)
    costs Sir Rufus 3 VP (and no CP)."""
    t = table(position(cp=100, vp=20))
    s = t.session()
    queen = foe("lady", "Queen of North Wales", 1, 1,
                card={"name": "Queen of North Wales", "vl": 9, "enchantress": True})
    c = Combat(s, [queen], attacker="pk")
    settle_foe(s, c, queen, True)
    assert t.knight()["vp"] == 17 and t.knight()["cp"] == 100


def test_c04_slaying_a_lady(table):
    """Outcomes: slaying a Lady costs 20 CP and 12 VP."""
    t = table(position(cp=100, vp=20))
    s = t.session()
    lady = foe("lady", "Lady Lyonesse", 1, 1, card={"name": "Lady Lyonesse", "vl": 3,
                                                     "enchantress": False})
    settle_foe(s, Combat(s, [lady], attacker="pk"), lady, True)
    assert t.knight()["vp"] == 8 and t.knight()["cp"] == 80


def test_c05_pass_with_shieldless_foe(table):
    """Method of combat: against a knightly foe without a shield, +2 to the roll."""
    t = table(position(cp=100, vp=20), dice=[2, 2, 2, 1, 1])
    s = t.session()
    knight = npk({"kind": "knight", "name": "Sir Kay", "vl": 5, "cp": 100})
    knight["gear"]["shield"] = False
    c = Combat(s, [knight], attacker="foe")
    c.me["method"] = "lance"
    knight["method"] = "sword"
    c.exchange(c.me, knight)
    # Anna: 2+2+2 = 6, +2 for the shieldless foe = 8; Sir Kay on foot with sword: 1+1 = 2
    assert knight["wounds"] == 6


def test_c06_lance_breaks_on_eleven(table):
    """Breaking lances: 11 on the three attack dice breaks the lance."""
    t = table(position(cp=100, vp=20), dice=[5, 5, 1, 1, 1, 1])
    s = t.session()
    knight = npk({"kind": "knight", "name": "Sir Kay", "vl": 5, "cp": 100})
    c = Combat(s, [knight], attacker="foe")
    c.me["method"] = "lance"
    knight["method"] = "sword"
    c.exchange(c.me, knight)
    assert not t.knight()["gear"]["lance"] and t.saw("lance breaks")


def test_c07_monster_slays_defeated_knight(table):
    """Defeat: a knight defeated by a Monster is slain; his player starts a new knight."""
    t = table(position(cp=20, vp=5), dice=[1, 1, 6, 6, 6, 1, 2, 1, 1, 1, 1, 1, 1, 1, 1, 1])
    s = t.session()
    ogre = foe("monster", "Ogre", 10, 3)
    result = fight(s, [ogre])
    assert result.pk_defeated and t.state["knights"]["Anna"]["name"] == "Anna (2)"
    assert t.state["fallen"][0]["name"] == "Anna"


def test_c08_brigands_rob(table):
    """Defeat: brigands rob the knight and his party of all equipment."""
    t = table(position(cp=20, vp=5), dice=[1, 1, 1, 6, 6])
    s = t.session()
    brigand = foe("brigand", "Brigand", 6, 2)
    result = fight(s, [brigand])
    assert result.pk_defeated
    assert not any(t.knight()["gear"].values())


def test_c09_slaying_a_monster_awards(table):
    """Victory: personally slaying a Monster earns CP and VP equal to its WL."""
    t = table(position(cp=100, vp=20), dice=[6, 6, 6, 1, 1, 1])
    s = t.session()
    lion = foe("monster", "Lion", 5, 3)
    result = fight(s, [lion], attacker="pk")
    assert result.won
    assert t.knight()["cp"] == 105 and t.knight()["vp"] == 25


def test_c10_party_combat_totals(table):
    """NPK party combat: each side's remaining WLs plus two dice; the higher total wins."""
    t = table(position(), dice=[1, 1, 6, 6])
    s = t.session()
    assert party_combat(s, 10, 5) is False      # 10+2 = 12 against 5+12 = 17


def test_c11_challenge_three_passes(table):
    """Challenges: three passes, then the knight who inflicted more wounds wins (CP equal to the
    wounds he dealt, and 6 VP)."""
    t = table(position(cp=100, vp=20, at="Hampshire"),
              dice=[5, 5, 5, 1, 1, 1, 4, 4, 4, 2, 2, 2, 3, 3, 3, 3, 3, 2])
    s = t.session()
    kay = npk({"kind": "knight", "name": "Sir Kay", "vl": 5, "cp": 100})
    result = challenge(s, kay)
    assert result.challenge_winner == "pk"
    assert t.knight()["vp"] == 26
    assert "Sir Kay" in t.knight()["challenged"]
