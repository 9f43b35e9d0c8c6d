"""Player knights together and against each other: a casebook (rules: PLAYER INTERACTION, with
the parts of COMBAT, ENCOUNTERS and Mad PKs that speak of several player knights; the project's
decisions where the rules say nothing are in docs/koc-engine.md, "Player knights together and
against each other"). Dice are explicit; 2d6 chart results are given as two dice (``D[n]``).

Anna always sits first, Bert second, Carl third. A party in a position is written
``[parties]`` ``Leader = ["Member", ...]``."""
from __future__ import annotations

import pytest
from kocpos import pos

from companion.engine.orders import IllegalOrderError, OrdersRejected, UnknownNameError
from companion.errors import DataError
from companion.koc.checks import legal_lines
from companion.koc.engine import encounters as E
from companion.koc.engine import knight as kn
from companion.koc.engine import party, service
from companion.koc.engine.combat import fight, foe, npk
from companion.koc.engine.game import process
from companion.koc.kind import KIND
from companion.koc.orders import parse_orders
from companion.koc.position import read_position, write_position

D = {2: [1, 1], 3: [1, 2], 4: [2, 2], 5: [2, 3], 6: [3, 3], 7: [3, 4], 8: [4, 4], 9: [4, 5],
     10: [5, 5], 11: [5, 6], 12: [6, 6]}
AB = '[parties]\nAnna = ["Bert"]\n'          # Anna leads, Bert rides with her
BA = '[parties]\nBert = ["Anna"]\n'          # Bert leads, Anna rides with him
LOT = '\n[decks]\nkings = ["King Lot"]\nknights = ["Sir Belleus", "Sir Gauter", "Sir Hemison"]\n'


def knight(at="Hampshire", cp=60, vp=6, more=""):
    """The fields of another knight (Bert, Carl) for ``pos(others=...)``."""
    text = f'cp = {cp}\nvp = {vp}\nat = "{at}"\nlord = "King Arthur"'
    return text + ("\n" + more if more else "")


def two(at="Hampshire", extra="", anna="", bert="", cp=100, vp=20):
    return pos(cp=cp, vp=vp, at=at, anna=anna, extra=extra,
               others={"Bert": knight(at=at, more=bert)})


def three(at="Hampshire", extra="", anna="", bert="", carl="", cp=100, vp=20):
    return pos(cp=cp, vp=vp, at=at, anna=anna, extra=extra,
               others={"Bert": knight(at=at, more=bert), "Carl": knight(at=at, more=carl)})


def game_turn(t):
    process(t.world, t.state, t.ctx)


def where(t, player):
    return t.knight(player)["at"]["area"]


def before(t, first, second):
    """Whether an event containing ``first`` comes before one containing ``second``."""
    events = t.events
    a = next(i for i, e in enumerate(events) if first in e)
    b = next(i for i, e in enumerate(events) if second in e)
    return a < b


# ============================================================================== forming a party
def test_p01_join_accepted_member_waits_for_his_leader(table):
    """PLAYER INTERACTION, Travelling in Groups: knights in the same area may travel together;
    one leads and moves the stack in his own turn, in one joint turn. Anna (seated first) asks
    to join Bert, who agrees ('on party: yes'): Anna's turn waits for Bert's, then the joint
    turn rolls each knight's own Luck-of-the-Day (Bert 3, Anna 4) and Bert moves both. Anna's
    own moves are not used; the encounter value is the party's (two knights: 2)."""
    t = table(two(), dice=[3, 4, 6],
              orders={"Anna": "join Bert\nmove Surrey", "Bert": "move Somerset\non party: yes"})
    game_turn(t)
    assert t.saw("Anna joins Bert's party: they travel together, Bert leading.")
    assert t.saw("Anna rides in Bert's party: his turn is played with the party in his "
                 "leader's turn.")
    assert t.saw("The joint turn of the party of Bert, Anna (game turn 1), led by Bert")
    assert t.saw("Anna's movement orders are not used")
    assert t.saw("Bert's Luck-of-the-Day: 3.") and t.saw("Anna's Luck-of-the-Day: 4.")
    assert t.saw("Encounter roll in Somerset: 6 (an encounter on 2 or less)")
    assert where(t, "Anna") == where(t, "Bert") == "Somerset"
    assert t.state["parties"] == {"Bert": {"members": ["Anna"], "since": 1}}
    assert t.unused_dice == []


def test_p02_join_accepted_leader_seated_first(table):
    """PLAYER INTERACTION, Travelling in Groups: a knight who moved with a group may not move
    again on his own that game turn. Bert joins Anna (who leads and plays first); when Bert's
    seat comes he has already moved with her."""
    t = table(two(), dice=[3, 4, 6],
              orders={"Anna": "move Somerset\non party: yes", "Bert": "join Anna\nmove Surrey"})
    game_turn(t)
    assert t.saw("Bert joins Anna's party")
    assert t.saw("Anna's Luck-of-the-Day: 3.") and t.saw("Bert's Luck-of-the-Day: 4.")
    assert t.saw("Bert rides in Anna's party: he has moved with the party this game turn.")
    assert not t.saw("— Bert's turn")
    assert where(t, "Anna") == where(t, "Bert") == "Somerset"
    assert t.knight("Bert")["turns_played"] == 1
    assert t.unused_dice == []


def test_p03_join_refused_by_default(table):
    """PLAYER INTERACTION, Travelling in Groups (project decision): the leader must agree
    (question 'party', default no). Bert sends no answer: Anna plays her own turn alone and
    her own moves stand."""
    t = table(two(), dice=[3, 6, 4, 6],
              orders={"Anna": "join Bert\nmove Surrey", "Bert": "move Somerset"})
    game_turn(t)
    assert t.saw("Anna cannot join Bert's party: Bert does not take him along.")
    assert t.saw("— Anna's turn") and t.saw("— Bert's turn")
    assert where(t, "Anna") == "Surrey" and where(t, "Bert") == "Somerset"
    assert not t.state.get("parties")
    assert t.unused_dice == []


def test_p04_join_refused_in_different_places(table):
    """PLAYER INTERACTION, Travelling in Groups: knights form a group by meeting in the same
    encounter area. Bert is in Somerset, Anna in Hampshire: no party, even though Bert agrees."""
    t = table(pos(others={"Bert": knight(at="Somerset")}), dice=[3, 6, 4, 6],
              orders={"Anna": "join Bert\nmove Surrey", "Bert": "stay\non party: yes"})
    game_turn(t)
    assert t.saw("Anna cannot join Bert's party: they are not in the same place.")
    assert where(t, "Anna") == "Surrey" and where(t, "Bert") == "Somerset"
    assert not t.state.get("parties")
    assert t.unused_dice == []


# ============================================================================== leaving
def test_p05_member_leaves_and_plays_alone(table):
    """PLAYER INTERACTION, Travelling in Groups: a knight may leave his group whenever he
    wishes. Bert's 'leave party' is settled at the start of Anna's turn (the first that
    concerns them); a party of one is no party, so it breaks up; each moves alone, and the
    parting is recorded for both (they may not fight until a whole turn has passed)."""
    t = table(two(extra=AB), dice=[3, 6, 4, 6],
              orders={"Anna": "move Somerset", "Bert": "leave party\nmove Surrey"})
    game_turn(t)
    assert t.saw("The party of Anna, Bert breaks up (by his own choice).")
    assert t.saw("— Anna's turn") and t.saw("— Bert's turn")
    assert where(t, "Anna") == "Somerset" and where(t, "Bert") == "Surrey"
    assert t.state["parties"] == {}
    assert t.knight("Bert")["parted"] == {"Anna": 1} and t.knight("Anna")["parted"] == {"Bert": 1}
    assert t.unused_dice == []


def test_p06_leader_leaving_breaks_the_party_up(table):
    """PLAYER INTERACTION, Travelling in Groups (project decision): when the leader leaves, the
    whole party breaks up: Anna, Bert and Carl each play their own turn."""
    t = table(three(extra='[parties]\nAnna = ["Bert", "Carl"]\n'), dice=[3, 6, 4, 6, 5, 6],
              orders={"Anna": "leave party\nmove Somerset", "Bert": "move Surrey",
                      "Carl": "stay"})
    game_turn(t)
    assert t.saw("The party of Anna, Bert, Carl breaks up (by his own choice).")
    assert t.saw("— Bert's turn") and t.saw("— Carl's turn")
    assert (where(t, "Anna"), where(t, "Bert"), where(t, "Carl")) == \
        ("Somerset", "Surrey", "Hampshire")
    assert t.state["parties"] == {}
    assert t.unused_dice == []


def test_p07_member_of_three_leaves_the_others_ride_on(table):
    """PLAYER INTERACTION, Travelling in Groups: one member leaving a party of three leaves the
    other two together: Anna leads Bert into Somerset, Carl stays behind on his own."""
    t = table(three(extra='[parties]\nAnna = ["Bert", "Carl"]\n'), dice=[3, 4, 6, 5, 6],
              orders={"Anna": "move Somerset", "Bert": "move Surrey",
                      "Carl": "leave party\nstay"})
    game_turn(t)
    assert t.saw("Carl leaves Anna's party (by his own choice).")
    assert t.saw("The joint turn of the party of Anna, Bert (game turn 1)")
    assert (where(t, "Anna"), where(t, "Bert"), where(t, "Carl")) == \
        ("Somerset", "Somerset", "Hampshire")
    assert t.state["parties"] == {"Anna": {"members": ["Bert"], "since": 1}}
    assert t.unused_dice == []


def test_p08_leader_in_prison_breaks_up_and_the_waiting_member_plays(table):
    """PLAYER INTERACTION, Travelling in Groups (project decision): a leader who cannot lead
    when his turn comes (here in the prison of London) breaks the party up; Anna, who waited
    for his turn, plays her own turn at once after his, and moves on her own orders."""
    t = table(pos(at="London", others={"Bert": knight(at="London")}, extra=BA),
              dice=[4, 3, 6],
              orders={"Anna": "move Surrey", "Bert": "on prison_appeal: none"})
    bert = t.knight("Bert")
    bert["at"]["where"] = "prison"
    bert["prison"] = {"by": "watchmen", "jailor": "the town watch", "castle": "London",
                      "direct": False, "since": 0, "gear": {}, "last": None,
                      "jailor_player": None}
    game_turn(t)
    assert t.saw("Anna rides in Bert's party: his turn is played with the party in his "
                 "leader's turn.")
    assert t.saw("The party of Bert, Anna breaks up (Bert cannot lead it now).")
    assert t.saw("Bert makes no appeal this turn.")
    assert before(t, "Bert makes no appeal", "— Anna's turn")
    assert where(t, "Anna") == "Surrey" and t.knight("Bert")["at"]["where"] == "prison"
    assert t.state["parties"] == {}
    assert t.unused_dice == []


def test_p09_knight_carried_off_alone_leaves_the_party(table):
    """PLAYER INTERACTION, Travelling in Groups (project decision): whatever carries one knight
    off alone takes him out of the party. In Powys King Lot tricks Anna (reaction 1+3, Luck
    Test 1 against 3, trick 1+2: prison); Bert, who moved with her, is left free outside and
    does not move again that game turn."""
    t = table(two(at="Dyfed", extra=AB + LOT), dice=[3, 4, 1, 6, 6, 1, 3, 1, 1, 2],
              orders={"Anna": "move Powys", "Bert": "move Gwynedd"})
    game_turn(t)
    assert t.saw("Anna is thrown into the prison of King Lot's castle by King Lot")
    assert t.saw("The party of Anna, Bert breaks up (Anna can lead it no further).")
    assert t.saw("Bert has moved with his party this game turn.")
    assert not t.saw("Bert rides in")
    assert t.knight("Anna")["prison"] and not t.knight("Bert")["prison"]
    assert t.knight("Bert")["at"] == {"area": "Powys", "where": "area"}
    assert t.state["parties"] == {} and t.unused_dice == []


# ============================================================================== party values
def test_p10_encounter_value_and_allowance_of_the_party(table):
    """ENCOUNTERS and MOVEMENT with several PKs (project decision): the encounter value counts
    every knight of the party and its Men-at-Arms at half, rounded up, at most 5; the slowest
    knight sets the movement allowance. Anna and Bert with one Man-at-Arms each: 2 + 1 = 3
    (Anna alone: 2). With every rider mounted the party moves 3; once Bert has lost his horse,
    he and his Man-at-Arms share one and move 2, and so does the whole party: it stops in Devon,
    short of Sharpenose Wood."""
    t = table(two(anna='men_at_arms = ["Sir Gauter"]', bert='men_at_arms = ["Sir Griflet"]',
                  extra=AB),
              dice=[3, 4, 6, 6], orders={"Anna": "move Somerset, Devon, Sharpenose Wood"})
    s = t.session()
    assert kn.encounter_value(t.knight("Anna")) == 2
    assert party.encounter_value(s) == 3
    assert party.movement_allowance(s) == 3
    t.knight("Bert")["gear"]["horse"] = False
    assert party.movement_allowance(s) == 2
    assert t.play()
    assert t.saw("Encounter roll in Somerset: 6 (an encounter on 3 or less)")
    assert t.saw("No movement left to go to Sharpenose Wood")
    assert where(t, "Anna") == where(t, "Bert") == "Devon"
    assert t.unused_dice == []
    crowd = three(anna='men_at_arms = ["Sir Gauter", "Sir Griflet"]\ncomrades = ["Sir Kay"]',
                  bert='men_at_arms = ["Sir Tor"]', extra='[parties]\nAnna = ["Bert", "Carl"]\n')
    t = table(crowd)
    assert party.encounter_value(t.session()) == 5          # 4 knights + 2, at most 5


# ============================================================================== castles
def test_p11_castle_friendly_to_one_knight_admits_the_party(table):
    """Castles and parties (project decision): a castle friendly to one knight of the party
    admits them all and re-equips all; the others are its guests only and make no requests of
    its owner. Jagent is friendly to Bert only: Anna gets her lance, Bert his shield; Anna's
    request of the owner finds nobody to hear it, Bert's is heard (Luck Tests 5 and 5; a die
    of 2: one Man-at-Arms)."""
    t = table(two(at="Somerset", anna='gear = ["horse", "shield", "sword"]',
                  bert='friendly = ["Jagent"]\ngear = ["horse", "lance", "sword"]', extra=AB),
              dice=[3, 4, 5, 5, 2],
              orders={"Anna": "move Jagent\nrequest men at arms of castle owner",
                      "Bert": "request men at arms of castle owner"})
    game_turn(t)
    assert t.saw("Jagent is friendly to Bert: it admits his whole party.")
    assert t.saw("Jagent re-equips Anna (lance).") and t.saw("Jagent re-equips Bert (shield).")
    anna, bert = t.knight("Anna"), t.knight("Bert")
    assert anna["at"] == bert["at"] == {"area": "Jagent", "where": "inside"}
    assert all(anna["gear"].values()) and all(bert["gear"].values())
    assert anna["guest_of"] == "Jagent" and "guest_of" not in bert
    assert t.saw("Nobody inside Jagent can grant the request 'men at arms' (asked of castle "
                 "owner).")     # where he is, from rules edition 3 (q32)
    assert t.saw("Bert asks Sir Galahad for: Men-at-Arms.")
    assert len(bert["men_at_arms"]) == 1 and not anna["men_at_arms"]
    assert t.unused_dice == []


# ============================================================================== party combat
def test_p12_one_monster_fought_in_turn_awards_shared(table):
    """COMBAT, Party Combat and PLAYER INTERACTION, Dividing Awards: the leader engages first;
    one foe is fought by one knight after another. Anna (WL 3) wounds the Ogre (WL 7) for 3 and
    falls; Bert strikes him down. The 7 CP and 7 VP go to both (each wounded him), 3 each and
    the odd one to Bert who struck him down. Anna fell but her side won: no Knight's Fate (a
    monster would otherwise slay her)."""
    t = table(two(cp=30, vp=5, extra=AB),
              dice=[3, 3, 3, 2, 2, 2, 1, 1, 1, 6, 6, 6, 6, 6, 6, 1, 1, 2])
    result = fight(t.session(), [foe("monster", "Ogre", 7, 3)])
    assert before(t, "Anna is defeated by Ogre", "Pass: Bert 18, Ogre 4")
    assert result.won and result.pk_defeated
    assert t.saw("Bert gains 4 CP (slaying Ogre, shared)")
    assert t.saw("Anna gains 3 CP (slaying Ogre, shared)")
    anna, bert = t.knight("Anna"), t.knight("Bert")
    assert (anna["cp"], anna["vp"], bert["cp"], bert["vp"]) == (33, 8, 64, 10)
    assert t.saw("Anna fell, but his side won the day: no Knight's Fate.")
    assert not anna["slain"] and anna["defeated"]
    assert t.unused_dice == []


def test_p13_followers_finish_the_foe_awards_to_the_knights_who_wounded_him(table):
    """COMBAT, Party Combat and PLAYER INTERACTION, Dividing Awards: only knights who wounded a
    foe share in him. Anna and Bert each wound the Ogre (WL 9) and fall; Anna's Man-at-Arms
    finishes him. A foe beaten by the followers gives half (5 CP, 5 VP), shared by Anna and
    Bert, the first to wound him taking the odd point; from rules edition 4 the award says why
    it is half (combat.FOLLOWERS_WIN_HALF; p38)."""
    t = table(pos(cp=30, vp=5, anna='men_at_arms = ["Sir Griflet"]', extra=AB,
                  others={"Bert": knight(cp=30, vp=5)}),
              dice=[3, 3, 3, 2, 2, 2, 1, 1, 1, 6, 6, 6] * 2 + [6, 6, 6, 1, 1, 1])
    result = fight(t.session(), [foe("monster", "Ogre", 9, 3)])
    assert t.saw("Sir Griflet fights Ogre: Ogre falls.")
    assert result.won
    assert t.saw("Anna gains 3 CP (slaying Ogre, struck down by the followers: half, shared)")
    assert t.saw("Bert gains 2 CP (slaying Ogre, struck down by the followers: half, shared)")
    assert (t.knight("Anna")["vp"], t.knight("Bert")["vp"]) == (8, 7)
    assert t.unused_dice == []


def test_p14_two_knights_each_pk_engages_one(table):
    """COMBAT, Party Combat: against several foes the leader picks first, then the others in
    seat order, each engaging his own. Anna beats Sir Kay, Bert beats Sir Bors; each takes his
    own foe's awards in full and settles his fate (Kay yields on 3+3, Bors on 1+1 does not)."""
    t = table(two(cp=50, vp=5, extra=AB),
              dice=[6, 6, 6, 1, 1, 1, 6, 6, 5, 1, 1, 1, 3, 3, 1, 1])
    kay = npk({"kind": "knight", "name": "Sir Kay", "vl": 5, "cp": 50})
    bors = npk({"kind": "knight", "name": "Sir Bors", "vl": 5, "cp": 50})
    result = fight(t.session(), [kay, bors])
    assert result.won
    assert t.saw("Pass: Anna 18, Sir Kay 3") and t.saw("Pass: Bert 17, Sir Bors 3")
    assert t.saw("Anna gains 5 CP (defeating Sir Kay);")
    assert t.saw("Bert gains 5 CP (defeating Sir Bors);")
    assert t.saw("Bert gains 6 VP (defeating Sir Bors);")
    assert t.saw("Sir Bors rides away.")
    assert t.unused_dice == []


def test_p15_side_loses_each_defeated_knight_his_own_fate(table):
    """COMBAT, Party Combat and PLAYER INTERACTION, Travelling in Groups: Knight's Fate is
    settled for each knight separately. Both fall to their foes (VL 2); each rolls his own fate
    (1 + 2 = 3: praises his skill, 6 VP) from the knight who beat him."""
    t = table(two(cp=30, vp=5, extra=AB),
              dice=[1, 1, 1, 6, 6, 6, 1, 1, 1, 6, 6, 6, 1, 1])
    kay = npk({"kind": "knight", "name": "Sir Kay", "vl": 2, "cp": 90})
    bors = npk({"kind": "knight", "name": "Sir Bors", "vl": 2, "cp": 90})
    result = fight(t.session(), [kay, bors])
    assert not result.won
    assert t.saw("Knight's Fate for Anna from Sir Kay: Praises your skill.")
    assert t.saw("Knight's Fate for Bert from Sir Bors: Praises your skill.")
    assert t.saw("Anna gains 6 CP (the lesson of defeat)")
    assert t.saw("Bert gains 6 CP (the lesson of defeat)")
    assert (t.knight("Anna")["vp"], t.knight("Bert")["vp"]) == (11, 12)
    assert t.unused_dice == []


# ============================================================================== kings and ladies
def test_p16_king_challenge_turns_to_another_knight(table):
    """ENCOUNTERS, King reaction 5 with a party (project decision): a King who has already met
    a knight in a challenge challenges another knight of the party who has not. The escort
    matches the whole party (two knights). Anna met King Lot before: Bert answers him and wins
    (15 and 2 wounds), so the King is friendly towards the party."""
    t = table(two(at="Powys", anna='challenged = ["King Lot"]', extra=AB + LOT),
              dice=D[12] + D[5] + [6, 6, 6, 1, 1, 1] * 2)
    s = t.session()
    s.pk["luck"] = 4
    E.terrain_encounter(s, "Powys")
    assert t.saw("It is King Lot (VL 6), riding with Sir Belleus, Sir Gauter.")
    assert t.saw("King Lot has already met Anna in a challenge, and turns to Bert.")
    assert t.saw("Combat: Bert (WL 6) against King Lot")
    assert t.saw("Bert gains 17 CP (wounds inflicted in the challenge with King Lot)")
    assert t.knight("Bert")["challenged"] == ["King Lot"]
    assert t.knight("Anna")["met"][0]["attitude"] == "friendly"
    assert t.unused_dice == []


def test_p17_lady_seduces_two_knights_they_fight(table):
    """ENCOUNTERS, Lady reaction 6 with a party (project decision): the Lady tries every
    knight; both Anna and Bert fail (1+1 each) and fight over her at once. Anna beats Bert (a
    fight between PKs: his WL in CP and 6 VP, she chooses his fate, free release by default;
    he gains 6 CP), and enters Lady Ettard's service as a seduced knight (her castle is then
    placed at random: 1+3, 1, 1)."""
    ettard = '\n[decks]\nladies = ["Lady Ettard"]\nknights = ["Sir Belleus"]\n'
    t = table(two(at="Powys", extra=AB + ettard),
              dice=D[9] + [4] + D[6] + [1, 1, 1, 1] + [6, 6, 6, 1, 1, 1] + [1, 3, 1, 1])
    s = t.session()
    s.pk["luck"] = 4
    E.terrain_encounter(s, "Powys")
    assert t.saw("Anna falls under Lady Ettard's spell.")
    assert t.saw("Bert falls under Lady Ettard's spell.")
    assert t.saw("Anna, Bert all fall for Lady Ettard at once")
    assert t.saw("Combat: Anna (WL 10) against Bert (WL 6).")
    assert t.saw("Anna gains 6 CP (defeating Bert)") and t.saw("Anna gains 6 VP (defeating Bert)")
    assert t.saw("Bert gains 6 CP (the lesson of defeat)")
    assert t.saw("Anna gives Bert a Knight's Fate: free release.")
    assert t.saw("Anna wins Lady Ettard.")
    anna, bert = t.knight("Anna"), t.knight("Bert")
    assert anna["lady"]["name"] == "Lady Ettard" and anna["lady"]["seduced"]
    assert bert["lady"] is None
    assert t.unused_dice == []


# ============================================================================== madness
def test_p18_a_knight_gone_mad_attacks_his_fellows(table):
    """Mad PKs and PLAYER INTERACTION (project decision): a knight who goes mad leaves his
    party and falls upon his fellows, who fight him as a Mad Knight (two dice, unknightly: no
    chivalry asked, no combat events of his). Anna, riding in Bert's party with Carl, goes mad.
    She beats Bert (12 against 3: no fate, she runs off), then Carl beats her (12 against 2) and
    gains half her WL (3 CP); Bert fell but his side won. Bert and Carl ride on together."""
    t = table(three(cp=50, vp=5, extra='[parties]\nBert = ["Anna", "Carl"]\n'),
              dice=[1, 1, 1, 6, 6, 4, 4, 4, 1, 1])
    service.go_mad(t.session(), "grief")
    assert t.saw("Anna leaves Bert's party (madness).")
    assert t.saw("In his madness Anna falls upon Bert, Carl.")
    assert t.saw("Combat: the party of Bert (WL 6), Carl (WL 6) against Anna (WL 5).")
    assert t.saw("Pass: Bert 3, Anna 12") and t.saw("Pass: Carl 12, Anna 2")
    assert not t.saw("unchivalrous") and not t.saw("Combat event")
    assert t.saw("Carl gains 3 CP (defeating the madman Anna)")
    assert t.saw("Anna is overcome and left to his mad wanderings.")
    assert t.saw("Bert fell, but his side won the day: no Knight's Fate.")
    assert t.state["parties"] == {"Bert": {"members": ["Carl"], "since": 1}}
    assert t.knight("Anna")["mad"] and t.knight("Anna")["parted"] == {"Bert": 1, "Carl": 1}
    assert t.unused_dice == []


# ============================================================================== PK against PK
def test_p19_pk_challenge_accepted(table):
    """PLAYER INTERACTION, Challenging a PK, and COMBAT, Challenges: three passes; the winner
    gains CP for the wounds he dealt and 6 VP, the loser 6 CP and loses his followers; no
    Knight's Fate. In Powys Anna must find Bert (Luck Test 5 against 3). Passes 9-6, 6-8, 12-10:
    Anna dealt 5, took 2."""
    t = table(two(at="Powys", bert='men_at_arms = ["Sir Kay"]'),
              dice=[3, 5, 3, 3, 3, 2, 2, 2, 2, 2, 2, 3, 3, 2, 5, 5, 2, 4, 4, 2, 2, 6],
              orders={"Anna": "challenge Bert", "Bert": "on pk_challenge: yes\nstay"})
    game_turn(t)
    assert t.saw("Anna finds Bert.") and t.saw("Bert accepts Anna's challenge.")
    assert t.saw("Challenge: Anna inflicted 5 wounds and took 2: Anna wins.")
    assert t.saw("Anna gains 5 CP (wounds inflicted in the challenge with Bert)")
    assert t.saw("Anna gains 6 VP (winning the challenge with Bert)")
    assert t.saw("Bert gains 6 CP (the lesson of a lost challenge)")
    assert t.saw("Bert loses his followers (losing a challenge): Sir Kay.")
    assert not t.saw("Knight's Fate")
    anna, bert = t.knight("Anna"), t.knight("Bert")
    assert (anna["cp"], anna["vp"], bert["cp"], bert["vp"]) == (105, 26, 66, 6)
    assert anna["challenged"] == ["Bert"] and bert["challenged"] == ["Anna"]
    assert t.unused_dice == []


def test_p20_pk_challenge_declined_by_default_and_once_a_game(table):
    """PLAYER INTERACTION, Challenging a PK: a challenge may be declined (question
    'pk_challenge', default no), and is fought once per game between two knights, whoever
    issued the first."""
    t = table(two(at="Powys"), dice=[3, 5, 2, 6], orders={"Anna": "challenge Bert"})
    game_turn(t)
    assert t.saw("Bert declines Anna's challenge.") and not t.saw("Combat:")
    assert t.knight("Anna")["challenged"] == []
    assert t.unused_dice == []
    t = table(two(at="Powys", bert='challenged = ["Anna"]'), dice=[3, 2, 6],
              orders={"Anna": "challenge Bert", "Bert": "on pk_challenge: yes"})
    game_turn(t)
    assert t.saw("Anna and Bert have already met in a challenge (once a game).")
    assert not t.saw("Anna finds Bert") and not t.saw("Combat:")
    assert t.unused_dice == []


def test_p21_pk_attack_victor_chooses_the_fate(table):
    """PLAYER INTERACTION, Fighting a PK (project decision on awards): the victor gains CP equal
    to the loser's WL and 6 VP and chooses his fate (never death; free release by default);
    the loser gains 6 CP. Anna (WL 10) beats Bert (WL 6) in one pass; next, with 'on fate_pk:
    commends skill', she praises him (6 VP). Bert's wounds heal in his own turn."""
    t = table(two(at="Powys"), dice=[3, 5, 6, 6, 6, 1, 1, 1, 2, 6],
              orders={"Anna": "attack Bert", "Bert": "stay"})
    game_turn(t)
    assert t.saw("Anna attacks Bert.")
    assert t.saw("Anna gains 6 CP (defeating Bert)") and t.saw("Anna gains 6 VP (defeating Bert)")
    assert t.saw("Bert gains 6 CP (the lesson of defeat)")
    assert t.saw("Anna gives Bert a Knight's Fate: free release.")
    assert t.saw("Bert's wounds heal; WL back to 6.")
    anna, bert = t.knight("Anna"), t.knight("Bert")
    assert (anna["cp"], anna["vp"], bert["cp"], bert["vp"]) == (106, 26, 66, 6)
    assert not bert["slain"]
    assert t.unused_dice == []
    t = table(two(at="Powys"), dice=[3, 5, 6, 6, 6, 1, 1, 1, 2, 6],
              orders={"Anna": "attack Bert\non fate_pk: commends skill", "Bert": "stay"})
    game_turn(t)
    assert t.saw("Anna gives Bert a Knight's Fate: commends skill.")
    assert t.knight("Bert")["vp"] == 12 and t.unused_dice == []


def test_p21b_the_victor_gains_the_wl_the_loser_fought_with(table):
    """Fighting a PK: the victor's CP are the loser's WL in the fight (CP equal to the WL of
    the foe defeated), not the WL his lesson's 6 CP give him afterwards: Bert (CP 55, WL 5)
    loses and rises to CP 61 (WL 6); Anna gains 5 CP."""
    t = table(pos(at="Powys", others={"Bert": knight(at="Powys", cp=55)}),
              dice=[3, 5, 6, 6, 6, 1, 1, 1, 2, 6], orders={"Anna": "attack Bert", "Bert": "stay"})
    game_turn(t)
    assert t.saw("Bert gains 6 CP (the lesson of defeat)")
    assert t.saw("Anna gains 5 CP (defeating Bert)")
    assert (t.knight("Anna")["cp"], t.knight("Bert")["cp"]) == (105, 61)


def test_p22_attacked_knight_party_stands_with_him(table):
    """PLAYER INTERACTION, Fighting a PK, and COMBAT, Party Combat (project decision): the
    attacked knight's party stands with him. Anna attacks Bert, who rides with Carl: both face
    her, and alone she must take them one after the other; she loses to Bert (who gains her
    WL 10 in CP and 6 VP) before she reaches Carl."""
    t = table(three(at="Powys", extra='[parties]\nBert = ["Carl"]\n'),
              dice=[3, 5, 1, 1, 1, 6, 6, 6, 4, 3, 6],
              orders={"Anna": "attack Bert", "Bert": "stay"})
    game_turn(t)
    assert t.saw("Anna attacks Bert, Carl.")
    assert t.saw("Combat: Anna (WL 10) against Bert (WL 6), Carl (WL 6).")
    assert t.saw("Anna is defeated by Bert.")
    assert t.saw("Bert gains 10 CP (defeating Anna)") and t.saw("Bert gains 6 VP (defeating Anna)")
    assert t.saw("Bert gives Anna a Knight's Fate: free release.")
    assert not t.saw("against Carl") and t.knight("Carl")["cp"] == 60
    assert t.unused_dice == []


def test_p23_no_fight_within_a_party_nor_soon_after_parting(table):
    """PLAYER INTERACTION, Fighting a PK: knights travelling together may not fight each other;
    knights who travelled together must have been apart a whole turn first (parted in turn 1:
    not in turn 2, but in turn 3)."""
    t = table(two(at="Powys", extra=AB), dice=[3, 4],
              orders={"Anna": "attack Bert\nchallenge Bert"})
    game_turn(t)
    assert t.saw("Anna and Bert travel together: they cannot fight each other.")
    assert not t.saw("Combat:") and not t.saw("finds Bert")
    assert t.unused_dice == []
    parted = 'parted = {Bert = 1}'
    t = table(pos(at="Powys", anna=parted, turn=2, others={"Bert": knight(at="Powys")}),
              dice=[3, 4, 6], orders={"Anna": "attack Bert"})
    game_turn(t)
    assert t.saw("Anna and Bert rode together until lately")
    assert not t.saw("Combat:") and t.unused_dice == []
    t = table(pos(at="Powys", anna=parted, turn=3, others={"Bert": knight(at="Powys")}),
              dice=[3, 5, 6, 6, 6, 1, 1, 1, 2, 6], orders={"Anna": "attack Bert"})
    game_turn(t)
    assert t.saw("Anna attacks Bert.") and t.saw("Anna gains 6 VP (defeating Bert)")
    assert t.unused_dice == []


def test_p24_combat_event_between_two_pks(table):
    """COMBAT, Combat Events: between two PKs each rolls a die; the lower is 'the player knight'
    for that event only, ties roll again. A tied pass (9-9); the dice tie (4-4), then Anna 5,
    Bert 2: the event is Bert's as 'the player knight'; 11, his foe's shield splits, so Anna
    loses her shield and Bert adds 2 to his rolls."""
    inside = 'where = "inside"'
    t = table(two(at="Camelot Castle", anna=inside, bert=inside),
              dice=[3, 3, 3, 3, 3, 3, 3, 4, 4, 5, 2, 5, 6, 6, 6, 6, 1, 1, 1, 2],
              orders={"Anna": "attack Bert", "Bert": "stay"})
    game_turn(t)
    assert t.saw("Pass: Anna 9, Bert 9 (a tie)")
    assert t.saw("Combat event between two player knights: Anna 5, Bert 2: it befalls Bert's "
                 "side as 'the player knight'.")
    assert t.saw("Combat events: 5+6 = 11 -> Foe's shield splits")
    assert t.saw("Anna's shield breaks: Bert adds 2 to his rolls.")
    assert t.saw("Pass: Anna 18, Bert 5")            # Bert's 3 and 2 for her missing shield
    assert t.knight("Anna")["gear"]["shield"] is False
    assert t.knight("Bert")["gear"]["shield"] is True
    assert t.unused_dice == []


# ============================================================================== orders
PLAYERS = ["Anna", "Bert", "Carl"]


def rejected(t, text, player="Anna"):
    """The errors of an order text: parsing, then the check against the position."""
    with pytest.raises(OrdersRejected) as caught:
        orders = parse_orders(t.world, PLAYERS, text, "a.txt")
        KIND.check_orders(t.state, player, orders, "a.txt")
    return caught.value.errors


def test_p25_orders_join_leave_challenge_attack(table):
    """Orders (project grammar): 'join <player>', 'leave party', 'challenge <player>' and
    'attack <player>' (the last two are steps of the movement plan); names match without
    regard to case."""
    t = table(three())
    orders = parse_orders(t.world, PLAYERS, "join bert\nchallenge Carl\nattack carl\n", "a.txt")
    assert orders.join == "Bert" and orders.join_line.number == 1
    assert [(s["do"], s["how"], s["target"], s["line"]) for s in orders.plan] == \
        [("confront", "challenge", "Carl", 2), ("confront", "attack", "Carl", 3)]
    orders = parse_orders(t.world, PLAYERS, "leave party\nmove Somerset", "a.txt")
    assert orders.leave and orders.leave_line.number == 1 and orders.join is None
    KIND.check_orders(t.state, "Anna", orders, "a.txt")
    acknowledged = KIND.acknowledge(t.state, "Anna", parse_orders(
        t.world, PLAYERS, "join Bert\nattack Carl", "a.txt"))
    assert "join the party of Bert (if he agrees and you stand together)" in acknowledged
    assert "step 1: attack Carl (if found here)" in acknowledged


def test_p26_order_errors_are_located_with_a_suggestion(table):
    """Orders (project checks): joining oneself, 'join' together with 'leave party', an unknown
    player, and challenging oneself are errors with their line, column and a suggestion."""
    t = table(three())
    [err] = rejected(t, "join Anna")
    assert isinstance(err, IllegalOrderError) and (err.line.number, err.col) == (1, 1)
    assert err.message == "a knight cannot join his own party"
    assert err.suggestion == "name the player whose party to join"
    [err] = rejected(t, "move Somerset\njoin Bert\nleave party")
    assert (err.line.number, err.col) == (3, 1) and "same orders" in err.message
    assert err.suggestion == "to change parties, leave this turn and join the next"
    [err] = rejected(t, "stay\njoin Bret")
    assert isinstance(err, UnknownNameError) and (err.line.number, err.col) == (2, 6)
    assert err.message == "no player called 'Bret'" and "'Bert'" in err.suggestion
    [err] = rejected(t, "challenge Anna")
    assert (err.line.number, err.col) == (1, 1)
    assert err.message == "a knight cannot challenge himself" and err.suggestion
    assert "a.txt:1:1: illegal order: a knight cannot challenge himself" in err.format()


def test_p27_legal_lines_offer_party_and_rival_orders(table):
    """Orders (project help): the lines legal now offer 'join', 'challenge' and 'attack' for a
    knight standing here; in a party 'leave party' and no fight with a fellow; no second
    challenge; no attack soon after parting."""
    t = table(pos(others={"Bert": knight(), "Carl": knight(at="Powys")}))
    lines = legal_lines(t.world, t.state, "Anna")
    assert {"join Bert", "challenge Bert", "attack Bert"} <= set(lines)
    assert not any(line.endswith("Carl") for line in lines)
    assert "leave party" not in lines
    t = table(three(extra=AB))
    lines = legal_lines(t.world, t.state, "Anna")
    assert "leave party" in lines
    assert not {"join Bert", "challenge Bert", "attack Bert"} & set(lines)
    assert {"challenge Carl", "attack Carl"} <= set(lines) and "join Carl" not in lines
    carl = legal_lines(t.world, t.state, "Carl")
    assert "join Anna" in carl and "join Bert" not in carl        # Bert leads no party
    t = table(pos(turn=2, anna='challenged = ["Bert"]\nparted = {Bert = 1}',
                  others={"Bert": knight()}))
    lines = legal_lines(t.world, t.state, "Anna")
    assert "join Bert" in lines and "challenge Bert" not in lines and "attack Bert" not in lines


# ============================================================================== positions
def test_p28_parties_in_a_position_read_and_written(table):
    """Positions (project format): a [parties] table gives each leader and the knights who ride
    with him (in seat order); it is written back and read again, with or without the engine's
    own record."""
    t = table(three(extra='[parties]\nCarl = ["Bert", "Anna"]\n'))
    assert t.state["parties"] == {"Carl": {"members": ["Anna", "Bert"], "since": 1}}
    assert party.company(t.state, "Bert") == ["Carl", "Anna", "Bert"]
    assert party.together(t.state, "Anna", "Bert") and party.leader_of(t.state, "Anna") == "Carl"
    text = write_position(t.world, t.state)
    assert '[parties]\nCarl = ["Anna", "Bert"]\n' in text
    again = read_position(t.world, text, "w.toml")
    assert again["parties"] == t.state["parties"]
    fields = read_position(t.world, text.split("[engine]")[0], "w.toml")
    assert fields["parties"] == t.state["parties"]


@pytest.mark.parametrize("bad, message", [
    ('[parties]\nAnna = ["Zed"]\n', "'Zed' in parties.Anna is not a player of this game"),
    ('[parties]\nAnna = ["Bert"]\nCarl = ["Bert"]\n', "'Bert' rides in two parties"),
    ('[parties]\nAnna = []\n', "parties.Anna must list the knights who ride with him"),
])
def test_p29_bad_parties_are_rejected(table, bad, message):
    """Positions (project checks): a party naming somebody who is not a player, a knight in two
    parties, or a leader with nobody are errors that name the culprit."""
    with pytest.raises(DataError) as caught:
        table(three(extra=bad))
    assert message in str(caught.value)


# ============================================================================== play by email
def test_p30_joint_turn_pauses_for_the_leader_and_resumes(table):
    """Play by email (project decision): a joint turn waits only for its leader. With
    missing=wait, Anna's encounter question pauses the turn after the dice already rolled
    (Luck 4 and 3, encounter 1, a monster on 1+1); the pending turn keeps Bert's orders. Given
    the answer, the turn replays the same dice and goes on (5: the monster is avoided)."""
    t = table(two(at="Dyfed", extra=AB + '[draws]\nmonster = ["Lion 5"]\n'),
              dice=[4, 3, 1, 1, 1, 5],
              orders={"Anna": "move Powys", "Bert": "move Gwynedd"},
              options={"missing": "wait"})
    assert not t.play()
    pending = t.state["pending"]["Anna"]
    assert pending["question"]["key"] == "encounter"
    assert len(pending["dice"]) == 5                 # Luck 4 and 3, encounter 1, chart 1+1
    assert pending["others"]["Bert"]["plan"][0]["area"] == "Gwynedd"
    assert "Bert's Luck-of-the-Day: 3." in pending["events"]
    assert where(t, "Anna") == where(t, "Bert") == "Dyfed"           # nothing kept yet
    assert t.knight("Bert")["turns_played"] == 0
    t.game.orders["Anna"] = parse_orders(t.world, ["Anna", "Bert"],
                                         "answer encounter: avoid", "a.txt")
    t.game.orders["Bert"] = None
    assert t.play()
    assert t.saw("Bert's Luck-of-the-Day: 3.") and t.saw("Encounter roll in Powys: 1")
    assert t.saw("Anna avoids a monster")
    assert t.saw("Bert's movement orders are not used")          # his kept orders
    assert where(t, "Anna") == where(t, "Bert") == "Powys"
    assert t.state["pending"] == {} and t.unused_dice == []


def test_p31_only_the_leader_is_waited_for(table):
    """Play by email (project decision): with missing=wait, the 'party' question put to Anna
    in her own turn pauses it; the same question put to Bert in Anna's turn takes its default
    (no) at once."""
    t = table(two(), dice=[4, 3, 6], orders={"Anna": "move Somerset", "Bert": "join Anna"},
              options={"missing": "wait"})
    assert not t.play()
    assert t.state["pending"]["Anna"]["question"]["key"] == "party"
    t.game.orders["Anna"] = parse_orders(t.world, ["Anna", "Bert"], "answer party: yes",
                                         "a.txt")
    t.game.orders["Bert"] = None
    assert t.play()
    assert t.saw("Bert joins Anna's party") and where(t, "Bert") == "Somerset"
    t = table(two(), dice=[4, 6], orders={"Anna": "join Bert\nmove Somerset"},
              options={"missing": "wait"})
    assert t.play()
    assert t.saw("Bert does not take him along") and where(t, "Anna") == "Somerset"


def test_p32_a_join_sent_while_a_turn_waits_is_for_later(table):
    """Play by email (project decision): a paused turn goes on as it began. Bert's 'join Anna',
    sent while Anna's turn waits for her answer, is not settled in her resumed turn (it would
    change what the turn asks and rolls); the resumed turn replays its dice, and the join is
    refused at Bert's own seat, Anna having played."""
    t = table(two(at="Dyfed", extra='[draws]\nmonster = ["Lion 5"]\n'),
              dice=[4, 1, 1, 1, 5, 3, 6],
              orders={"Anna": "move Powys", "Bert": "stay"}, options={"missing": "wait"})
    assert not t.play()
    assert t.state["pending"]["Anna"]["question"]["key"] == "encounter"
    t.game.orders["Anna"] = parse_orders(t.world, ["Anna", "Bert"],
                                         "answer encounter: avoid", "a.txt")
    t.game.orders["Bert"] = parse_orders(t.world, ["Anna", "Bert"],
                                         "join Anna\non party: yes", "b.txt")
    assert t.play()
    assert t.saw("Anna avoids a monster") and not t.saw("Bert joins")
    t.state["koc"]["current"] = 1
    assert t.play("Bert")
    assert t.saw("one of them has already played this game turn")
    assert "parties" not in t.state or not t.state["parties"]


def test_p33_a_turn_that_waits_twice_keeps_to_its_first_orders(table):
    """Play by email (project decision): a turn that waits twice (the encounter question, then
    the Lady's offer of service) still ignores the 'join Anna' Bert sent during the first
    wait: the second wait keeps no orders of Bert's, so the last run asks and rolls as the
    first two did."""
    t = table(two(at="Dyfed", extra='[decks]\nladies = ["Lady Lyonesse"]\n'),
              dice=[4, 1, 4, 5, 4, 6, 6], orders={"Anna": "move Powys", "Bert": "stay"},
              options={"missing": "wait"})
    assert not t.play()
    t.game.orders["Anna"] = parse_orders(t.world, ["Anna", "Bert"],
                                         "answer encounter: await", "a.txt")
    t.game.orders["Bert"] = parse_orders(t.world, ["Anna", "Bert"],
                                         "join Anna\non party: yes", "b.txt")
    assert not t.play()
    pending = t.state["pending"]["Anna"]
    assert pending["question"]["key"] == "lady_service" and pending["others"] == {}
    t.game.orders["Anna"] = parse_orders(t.world, ["Anna", "Bert"],
                                         "answer lady_service: yes", "a.txt")
    assert t.play()
    assert t.saw("Anna enters the service of Lady Lyonesse") and not t.saw("Bert joins")


def test_p34_only_a_castle_owner_imprisons_the_knight_he_beat(table):
    """Knight's Fate 14 (imprisons): a player knight who would imprison must own a castle and
    take his prisoner there. Rules edition 3 does not offer 'imprisons' to a victor without
    one: Anna, castle-less, asks for it by standing order and Bert goes free (the default); a
    game begun under edition 2 keeps its reading: Bert goes to the prison of a castle at hand
    (Caerleon), and Anna pays for keeping him there."""
    for edition in (3, 2):
        t = table(two(at="Powys"), dice=[3, 5, 6, 6, 6, 1, 1, 1, 2, 6] + [6] * 6,
                  orders={"Anna": "attack Bert\non fate_pk: imprisons", "Bert": "stay"})
        t.state["edition"] = edition
        game_turn(t)
        assert t.saw("Anna gains 6 VP (defeating Bert)")
        assert t.saw("Anna loses 3 VP (keeping Bert in prison)") == (edition == 2)
        if edition == 3:
            assert t.saw("Anna gives Bert a Knight's Fate: free release.")
            assert t.knight("Bert")["prison"] is None
        else:
            assert t.saw("Anna gives Bert a Knight's Fate: imprisons.")
            assert t.saw("Bert is thrown into the prison of Caerleon by Anna")


def anna_sends_bert_to_her_lord(table, edition: int):
    """p35, p36: in Powys Anna (serving King Mark) beats Bert, who sent 'stay', and gives him
    Knight's Fate 6 (sends to lord); one game turn under rules ``edition``."""
    t = table(pos(at="Powys", lord="King Mark", others={"Bert": knight(at="Powys")}),
              dice=[3, 5, 6, 6, 6, 1, 1, 1, 2, 6] + [6] * 6,
              orders={"Anna": "attack Bert\non fate_pk: sends to lord", "Bert": "stay"})
    t.state["edition"] = edition
    game_turn(t)
    return t


def test_p35_sent_to_the_lord_of_the_knight_who_beat_him(table):
    """Knight's Fate 6 (sends to Lord): the loser reports to the victor's Lord. The chart finds
    a random Lord only for a victor whose Lord is unknown (a card knight not of Arthur's); a
    player knight's Lord is on his record. Rules edition 3: Anna, who serves King Mark, sends
    Bert to report at Tintagel, with no die rolled for it; a game begun under edition 2 keeps
    its reading, a random royal castle (the random kingdom chart rolled: Deganwy, in Gwynedd)."""
    left = {}
    for edition in (3, 2):
        t = anna_sends_bert_to_her_lord(table, edition)
        assert t.saw("Anna gives Bert a Knight's Fate: sends to lord.")
        task, = t.knight("Bert")["tasks"]
        assert task["kind"] == "report"
        assert task["dest"] == ("Tintagel" if edition == 3 else "Deganwy")
        left[edition] = len(t.unused_dice)
    assert left[3] > left[2]                # no die rolled for a Lord under edition 3


def test_p36_a_fate_from_an_earlier_seat_is_not_judged_by_orders_sent_before_it(table):
    """COMBAT, Knight's Fate (the loser strays only once he leaves the direct path; Sir Eric's
    pilgrimage) in play by email: Anna, seated first, beats Bert and sends him to report at
    her Lord's castle (p35); Bert's orders for this game turn ('stay') were sent before he
    knew of it. Rules edition 3 does not judge the task by that turn's moves, as for a task
    taken on during his own movement: it stays active, no VP lost. A game begun under
    edition 2 keeps its reading: "it was delayed", the task failed and the VP lost."""
    for edition in (3, 2):
        t = anna_sends_bert_to_her_lord(table, edition)
        task, = t.knight("Bert")["tasks"]
        assert task["kind"] == "report"
        if edition == 3:
            assert task["status"] == "active" and not t.saw("Bert's task (report) fails")
        else:
            assert task["status"] == "failed"
            assert t.saw("Bert's task (report) fails: it was delayed.")


def test_p37_a_member_riding_into_his_land_of_exile_breaks_it(table):
    """Glossary, Exile, and COMBAT, Knight's Fate 12 (Exiles): whoever re-enters a land he is
    exiled from loses 12 VP and the exile is struck off. Bert, exiled from Cornwall, rides in
    Anna's party from Somerset into Devon (Cornwall), and again lands with her on the coast of
    Devon from the Celtic Sea. Rules edition 3 judges each member by his own exiles, as the
    leader is (movement.PARTY_EXILED): Bert loses 12 VP and the exile is lifted. A game begun
    under edition 2 keeps its reading: only the leader's exiles were checked."""
    from companion.koc.engine.movement import Mover

    exiled = 'exiles = ["Cornwall"]'
    ship = 'where = "ship"\nship = {kind = "ship", name = "Cog", wl = 10, dice = 2}'
    for edition in (3, 2):
        for at, more, step in (("Somerset", "", {"do": "move", "area": "Devon"}),
                               ("Celtic Sea", ship, {"do": "debark", "area": "Devon"})):
            bert = exiled + ("\n" + more if more else "")
            t = table(pos(at=at, where="ship" if more else None, extra=AB,
                          others={"Bert": knight(at=at, vp=30, more=bert)}), dice=[6] * 12)
            t.state["edition"] = edition
            s = t.session()
            Mover(s).run([step])
            assert where(t, "Bert") == "Devon" and t.knight()["vp"] == 20
            if edition == 3:
                assert t.knight("Bert")["vp"] == 18 and t.knight("Bert")["exiles"] == []
                assert t.saw("Bert breaks his exile from Cornwall.")
            else:
                assert t.knight("Bert")["vp"] == 30
                assert t.knight("Bert")["exiles"] == ["Cornwall"]
                assert not t.saw("exile")


def kay_fells_anna_and_her_man_wins(table, edition: int):
    """p38, p39: Sir Kay (WL 5) beats Anna (WL 3, 30 CP, 5 VP) in the first pass; her
    Man-at-Arms Sir Griflet wins the NPK party combat; the game under rules ``edition``."""
    t = table(pos(cp=30, vp=5, anna='men_at_arms = ["Sir Griflet"]'),
              dice=[1, 1, 1, 6, 6, 6, 6, 6, 1, 1])
    t.state["edition"] = edition
    kay = npk({"kind": "knight", "name": "Sir Kay", "vl": 5, "cp": 50})
    return t, fight(t.session(), [kay])


def test_p38_a_knight_beaten_by_his_followers_pays_half(table):
    """COMBAT, Party Combat, NPK Party Combat and Outcomes: Victory (decision, rules edition 4,
    combat.FOLLOWERS_WIN_HALF). Sir Kay (WL 5) beats Anna (WL 3) in the first pass (her 3,
    his 18); her Man-at-Arms Sir Griflet then wins the NPK party combat (his WL + 12 against
    Kay's 5 + 2): Kay flees and Anna, fallen, has no Knight's Fate since her side won. The
    victory is her followers', not her own hand's: as the rules pay half for a Monster the
    knight did not slay himself, she gains half of Kay's award, 3 CP and 3 VP (and, fallen to
    a knight, the 6 CP lesson of defeat: p39). A game begun under edition 3 keeps its reading:
    the whole award, 5 CP and 6 VP, as if she had beaten him herself."""
    for edition in (4, 3):
        t, result = kay_fells_anna_and_her_man_wins(table, edition)
        assert t.saw("Anna is defeated by Sir Kay.") and t.saw("Party combat: the PK's side ")
        assert result.won and t.saw("Sir Kay flees.")
        assert t.saw("Anna fell, but his side won the day: no Knight's Fate.")
        rec = t.knight()
        if edition == 4:
            assert t.saw("Anna gains 3 CP (defeating Sir Kay, struck down by the followers: "
                         "half)")
            assert t.saw("Anna gains 3 VP (defeating Sir Kay, struck down by the followers: "
                         "half)")
            assert (rec["cp"], rec["vp"]) == (39, 8)
        else:
            assert t.saw("Anna gains 5 CP (defeating Sir Kay)")
            assert t.saw("Anna gains 6 VP (defeating Sir Kay)")
            assert (rec["cp"], rec["vp"]) == (35, 11)
        assert t.unused_dice == []


def test_p39_a_knight_who_fell_gets_the_lesson_though_his_side_won(table):
    """COMBAT (a knight defeated in combat gains 6 CP for the lesson) and Outcomes, Defeat
    (rules edition 4, combat.LESSON_SIDE_WON): Sir Kay beats Anna in the first pass; her
    Man-at-Arms wins the NPK party combat, so her side won and she has no Knight's Fate (p38),
    but she was defeated by a knight all the same and gains the 6 CP lesson, after the award
    for Kay. A knight felled by a creature has no lesson, his side won or lost (Defeat gives
    the 6 CP with a Knight's Fate; a lost fight with an Ogre slays him): Anna falls to the
    Ogre, Bert strikes him down (p12), and she gains only her share of the Ogre. A game begun
    under edition 3 keeps its reading: no lesson while the side won."""
    for edition in (4, 3):
        t, result = kay_fells_anna_and_her_man_wins(table, edition)
        assert result.won and result.pk_defeated
        assert t.saw("Anna fell, but his side won the day: no Knight's Fate.")
        if edition == 4:
            assert before(t, "Anna gains 3 VP (defeating Sir Kay",
                          "Anna gains 6 CP (the lesson of defeat)")
            assert t.knight()["cp"] == 39
        else:
            assert not t.saw("lesson") and t.knight()["cp"] == 35
        assert t.unused_dice == []
        t = table(two(cp=30, vp=5, extra=AB),
                  dice=[3, 3, 3, 2, 2, 2, 1, 1, 1, 6, 6, 6, 6, 6, 6, 1, 1, 2])
        t.state["edition"] = edition
        fight(t.session(), [foe("monster", "Ogre", 7, 3)])
        assert t.saw("Anna fell, but his side won the day")
        assert not t.saw("lesson") and t.knight("Anna")["cp"] == 33


def test_p40_a_foe_nobody_wounded_is_not_the_fled_leaders(table):
    """COMBAT, Party Combat, Fleeing (decision, rules edition 4, combat.FLED_NOT_CREDITED): a
    knight who flees loses his followers and leaves the fight, so the followers who fight on
    once every knight is out are those of the knights who fell. Anna, the leader, fled; Bert
    fell; Bert's Man-at-Arms struck the Ogre (WL 7) down, and no knight had wounded him. The
    half award (4 CP, 4 VP) is Bert's, not Anna's. A game begun under rules edition 3 keeps its
    reading: the leader took it, fled or not."""
    from companion.koc.engine.combat import Combat, settle_battle

    for edition in (4, 3):
        t = table(two(cp=30, vp=5, extra=AB, bert='men_at_arms = ["Sir Griflet"]'))
        t.state["edition"] = edition
        ogre = foe("monster", "Ogre", 7, 3)
        ogre["wounds"] = 7
        ogre["defeated_by"] = "party"
        anna = Combat(t.session("Anna"), [ogre], attacker="foe")
        bert = Combat(t.session("Bert"), [ogre], attacker="foe")
        anna.result.fled, bert.result.pk_defeated = True, True
        for c in (anna, bert):
            c.result.won, c.result.defeated = True, [ogre]
        settle_battle([anna, bert], on_defeat=None)
        assert t.saw("Ogre is slain.") and t.saw("Bert fell, but his side won the day")
        a, b = t.knight("Anna"), t.knight("Bert")
        if edition == 4:
            assert t.saw("Bert gains 4 CP (slaying Ogre, struck down by the followers: half)")
            assert (a["cp"], a["vp"], b["cp"], b["vp"]) == (30, 5, 64, 10)
        else:
            assert t.saw("Anna gains 4 CP (slaying Ogre)")
            assert (a["cp"], a["vp"], b["cp"], b["vp"]) == (34, 9, 60, 6)
