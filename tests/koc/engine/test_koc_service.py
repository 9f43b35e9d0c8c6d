"""Lord and Lady service, summonses, losing one's Lady or Lord, madness: a casebook (rules:
SERVICE, Mad Player Knights, Mad Knight Encounters). Dice are explicit."""
from __future__ import annotations

from kocpos import card, pos

from companion.koc.engine import knight as kn
from companion.koc.engine import service, tasks
from companion.koc.engine.combat import foe

LYONESSE = ('\n[castles]\n"Castle Perilous" = {area = "Somerset", owner = "Lady Lyonesse", '
            'kind = "lady"}\n')


def lady_pos(**kw):
    return pos(anna='lady = "Lady Lyonesse"\n' + kw.pop("anna", ""),
               extra=kw.pop("extra", "") + LYONESSE, **kw)


# ============================================================================== Lady service
def test_s01_courtship(table):
    """Lady Service: a courted Lady gives her service award in CP and 6 VP; her castle is
    deployed and friendly."""
    t = table(pos(cp=100, vp=20), dice=[1, 1, 1])
    service.enter_lady_service(t.session(), card("Lady Lyonesse", "lady"), courted=True)
    rec = t.knight()
    assert rec["cp"] == 125 and rec["vp"] == 26 and rec["lady"]["name"] == "Lady Lyonesse"
    assert t.state["castles"]["Castle Perilous"]["area"] == "Surluise"
    assert "Castle Perilous" in rec["friendly"]


def test_s02_seduction_replaces_lady(table):
    """Lady reactions 6 / Losing One's Lady: seduced, he loses VP equal to her VL and gains her
    award; the previous Lady's award is lost (and 6 VP if he was under her summons)."""
    t = table(lady_pos(cp=125, vp=20))
    t.state["castles"]["Castle of Ettard"] = {"area": "Kent", "owner": "Lady Ettard",
                                              "kind": "lady"}
    t.knight()["lady_summons"] = 1
    service.enter_lady_service(t.session(), card("Lady Ettard", "lady"), seduced=True)
    rec = t.knight()
    assert rec["lady"]["name"] == "Lady Ettard" and rec["lady"]["seduced"]
    assert rec["cp"] == 125 - 25 + 15 and rec["vp"] == 20 - 6 - 7
    assert "Castle Perilous" not in rec["friendly"]


def test_s03_lady_dies_of_loneliness(table):
    """Losing One's Lady: her death costs 12 VP and her award; on a 1 he goes mad."""
    t = table(lady_pos(cp=125, vp=20), dice=[2])
    service.lose_lady(t.session(), "she died", died=True)
    rec = t.knight()
    assert rec["lady"] is None and rec["cp"] == 100 and rec["vp"] == 8 and not rec["mad"]
    assert "Lady Lyonesse" in t.state["decks"]["ladies"]["removed"]


def test_s04_lady_lost_token_goes(table):
    """Token: the Token is lost with the Lady."""
    t = table(lady_pos(cp=125, anna="token = true"))
    service.lose_lady(t.session(), "challenged away")
    assert not t.knight()["token"] and t.knight()["vp"] == 20


# ============================================================================== Lord service
def test_s05_change_lord(table):
    """Changing Lords: the new King's castle is friendly; the old Lord's is not, and he takes
    back the castle he granted; under his summons the change costs 6 VP."""
    t = table(pos(lord="King Mark", anna='friendly = ["Tintagel"]\nlord_summons = 1',
                  extra='[castles]\n"Anna\'s castle" = {area = "Devon", owner = "Anna", '
                  'kind = "pk", granted_by = "King Mark"}\n'))
    t.knight()["own_castle"] = "Anna's castle"
    assert service.change_lord(t.session(), card("King Ban", "king"))
    rec = t.knight()
    assert rec["lord"]["name"] == "King Ban" and "Trebes" in rec["friendly"]
    assert "Tintagel" not in rec["friendly"] and rec["own_castle"] is None
    assert rec["vp"] == 14 and rec["lord_summons"] == 0


def test_s06_become_arthurian(table):
    """King Arthur's Knights: entering King Arthur's service makes the PK Arthurian."""
    t = table(pos(lord="King Mark"))
    service.change_lord(t.session(), card("King Arthur", "king"))
    assert t.knight()["arthurian"] and "Camelot Castle" in t.knight()["friendly"]


def test_s07_abandon_lord(table):
    """Lord Service: without a Lord (here forsaken under summons: 12 VP) the PK is re-equipped
    only with a sword."""
    t = table(pos(lord="King Mark", anna='friendly = ["Tintagel"]\nlord_summons = 1'))
    service.abandon_lord(t.session(), "a spell")
    rec = t.knight()
    assert rec["lord"] is None and rec["vp"] == 8 and rec["former_lords"] == ["King Mark"]


def test_s08_grant_castle(table):
    """Player Knight Castles: granted by the Lord in his lands, garrisoned by one random
    non-Arthurian knight (an Arthurian one for King Arthur's knights)."""
    t = table(pos(lord="King Mark", extra='[decks]\nknights = ["Sir Galahad", "Sir Belleus"]\n'),
              dice=[1])
    name = service.grant_castle(t.session())
    placed = t.state["castles"][name]
    assert t.knight()["own_castle"] == name and placed["area"] == "Cornwall"
    assert placed["guards"][0]["name"] == "Sir Belleus" and name in t.knight()["friendly"]


# ============================================================================== summonses
def test_s09_lord_summons_penalty_repeats(table):
    """Lord Service, Obligations: each further Lord Summons before the first is answered costs
    6 VP."""
    t = table(pos(lord="King Mark"))
    s = t.session()
    for _ in range(3):
        service.summons(s, "lord")
    assert t.knight()["lord_summons"] == 3 and t.knight()["vp"] == 8


def test_s10_answer_summons_on_arrival(table):
    """Summons: reaching the Lord's castle answers it."""
    t = table(pos(lord="King Mark"))
    s = t.session()
    service.summons(s, "lord")
    task = t.knight()["tasks"][0]
    t.knight()["at"] = {"area": "Tintagel", "where": "inside"}
    tasks.arrive(s, task)
    assert t.knight()["lord_summons"] == 0 and task["status"] == "done"


def test_s11_second_lady_summons_kills_her(table):
    """Lady Service, Obligations: a second Lady Summons before the first is answered: she dies
    of loneliness."""
    t = table(lady_pos(cp=125), dice=[3])
    s = t.session()
    service.summons(s, "lady")
    service.summons(s, "lady")
    assert t.knight()["lady"] is None and t.knight()["vp"] == 8


def test_s12_morgan_summons(table):
    """Morgan Le Fay: her servant summoned is carried to her (even out of prison), loses 6 VP,
    and faces another enchantment (seduction does nothing)."""
    t = table(pos(at="Tintagel", where="prison"), dice=[1, 1, 3, 4])
    rec = t.knight()
    rec["lady"] = service.lady_record(service.MORGAN)
    rec["prison"] = {"by": "king", "castle": "Tintagel", "jailor": "King Mark", "direct": True}
    service.summons(t.session(), "lady")
    assert rec["prison"] is None and rec["at"]["area"] == "Argyll"
    assert rec["vp"] == 14 and t.saw("already serves Morgan Le Fay")


# ============================================================================== madness
def test_s13_going_mad(table):
    """Mad Player Knights: equipment discarded, companions and comrades flee, except a Mascot;
    his adventures are lost."""
    t = table(pos(anna='comrades = ["Sir Kay"]\nmascot = "Brachet"\ndwarf = true\n'
                  'men_at_arms = ["Sir Gauter"]'))
    s = t.session()
    tasks.add(s, "pilgrimage", "Canterbury", awards={"vp": 12}, penalty_vp=12, why="test")
    service.go_mad(s, "test")
    rec = t.knight()
    assert rec["mad"] and not any(rec["gear"].values())
    assert rec["comrades"] == [] and rec["men_at_arms"] == [] and rec["dwarf"] is None
    assert rec["mascot"]["name"] == "Brachet"
    assert rec["tasks"][0]["status"] == "failed" and rec["vp"] == 20


def test_s14_mad_no_awards(table):
    """Mad Player Knights: while mad he neither gains nor loses CP or VP."""
    t = table(pos())
    s = t.session()
    service.go_mad(s, "test")
    s.gain_vp(-12, "x")
    s.gain_cp(30, "y")
    assert t.knight()["vp"] == 20 and t.knight()["cp"] == 100


def test_s15_mad_wandering(table):
    """Mad Player Knights: from the next turn, one area a turn on foot toward his Lady's castle
    (Castle Perilous in Somerset), wandering in its area without arriving."""
    t = table(lady_pos(at="Hampshire", turn=2), dice=[6, 6])
    s = t.session()
    t.knight()["mad"] = {"since": 1, "tests": 0}
    t.knight()["gear"] = {g: False for g in kn.GEAR}
    service.mad_wandering(s)
    assert t.knight()["at"]["area"] == "Somerset"
    service.mad_wandering(s)
    assert t.knight()["at"] == {"area": "Somerset", "where": "area"}


def test_s16_mad_recovery(table):
    """Mad Player Knights: two successful Luck Tests at the end of a turn after the madness
    struck cure him; one failure does not."""
    t = table(pos(turn=3), dice=[5, 2, 4, 6])
    s = t.session()
    t.knight()["mad"] = {"since": 1, "tests": 0}
    t.knight()["luck"] = 4
    service.mad_recovery(s)
    assert t.knight()["mad"]
    service.mad_recovery(s)
    assert t.knight()["mad"] is None


def test_s17_mad_reactions(table):
    """Mad Player Knights: animals and monsters attack; brigands, common knights, dwarves and
    peasants avoid him; hermits, wood nymphs and Merlin cure him."""
    t = table(pos())
    s = t.session()
    t.knight()["mad"] = {"since": 0}
    assert service.mad_reaction(s, {"kind": "monster"}) == "attacks"
    assert service.mad_reaction(s, {"kind": "brigands"}) == "avoids"
    assert service.mad_reaction(s, {"kind": "knight", "card": card("Sir Belleus")}) == "avoids"
    assert service.mad_reaction(s, {"kind": "hermit"}) == "cured"
    assert t.knight()["mad"] is None


def test_s18_enchantress_cures_and_enchants(table):
    """Mad Player Knights: an Enchantress cures him, then enchants him (no resisting)."""
    t = table(pos(), dice=[4, 5])
    s = t.session()
    t.knight()["mad"] = {"since": 0}
    assert service.mad_reaction(s, {"kind": "lady",
                                    "card": card("Queen of North Wales", "lady")}) == "done"
    assert t.knight()["mad"] is None and t.knight()["poison"] == 1


def test_s19_arthurian_subdues_and_prays(table):
    """Mad Player Knights: an Arthurian knight attacks the madman; victorious he prays (Sir
    Galahad always succeeds) and the cured PK suffers a Knight's Fate (VL 0 + die 4: free
    release)."""
    t = table(pos(cp=20, vp=5), dice=[1, 2, 1, 1, 6, 4])
    s = t.session()
    rec = t.knight()
    rec["mad"] = {"since": 0}
    rec["gear"] = {g: False for g in kn.GEAR}
    assert service.mad_reaction(s, {"kind": "knight", "card": card("Sir Galahad")}) == "done"
    assert rec["mad"] is None and t.saw("Knight's Fate: 4 -> Let go freely")


def test_s20_defeated_mad_knight_carried(table):
    """Mad Knight Encounters: carried bound to the nearest shrine he is cured there (3 VP) and
    serves as Man-at-Arms; a bound madman counts for the encounter value."""
    t = table(pos(at="Kent"))
    s = t.session()
    mad = foe("mad_knight", "Sir Gauter", 5, 2, card=card("Sir Gauter"))
    service.defeated_mad_knight(s, mad)
    rec = t.knight()
    task = rec["tasks"][0]
    assert task["dest"] == "Canterbury" and kn.encounter_value(rec) == 2
    rec["at"] = {"area": "Canterbury", "where": "area"}
    tasks.arrive(s, task)
    assert rec["vp"] == 23 and rec["men_at_arms"][0]["name"] == "Sir Gauter"
    assert rec["party_extra"] == []


def test_s21_defeated_mad_knight_arthurian_to_camelot(table):
    """Mad Knight Encounters: an Arthurian madman goes to Camelot Castle (friendly for the
    visit)."""
    t = table(pos(at="Kent"))
    mad = foe("mad_knight", "Sir Gareth", 23, 2, card=card("Sir Gareth"))
    service.defeated_mad_knight(t.session(), mad)
    assert t.knight()["tasks"][0]["dest"] == "Camelot Castle"
    assert "Camelot Castle" in t.knight()["temp_friendly"]


def test_s22_defeated_mad_knight_slain_or_released(table):
    """Mad Knight Encounters: slaying him costs nothing; releasing lets him wander."""
    t = table(pos(), orders={"Anna": "on mad_knight: slay"})
    service.defeated_mad_knight(t.session(), foe("mad_knight", "Sir Gauter", 5, 2,
                                                 card=card("Sir Gauter")))
    assert "Sir Gauter" in t.state["decks"]["knights"]["removed"] and t.knight()["vp"] == 20
    t = table(pos(), orders={"Anna": "on mad_knight: release"})
    service.defeated_mad_knight(t.session(), foe("mad_knight", "Sir Gauter", 5, 2,
                                                 card=card("Sir Gauter")))
    assert not t.knight()["tasks"] and not t.knight()["party_extra"]


def test_s23_defeated_mad_knight_prayer(table):
    """Mad Knight Encounters / Prayers: the PK's own prayer (VL 5: a 5) cures him: 6 VP, and
    he joins."""
    t = table(pos(), dice=[5], orders={"Anna": "on mad_knight: pray"})
    service.defeated_mad_knight(t.session(), foe("mad_knight", "Sir Gauter", 5, 2,
                                                 card=card("Sir Gauter")))
    rec = t.knight()
    assert rec["vp"] == 26 and rec["men_at_arms"][0]["name"] == "Sir Gauter"


def test_s24_arthurian_dwarf_subdues(table):
    """Arthurian Dwarves: they try to subdue their mad master and carry him to the nearest
    shrine (or Camelot) to be cured."""
    t = table(pos(cp=20, vp=5, at="Kent", anna='dwarf = "arthurian"'),
              dice=[6, 6, 1, 1, 6, 6, 1, 1])
    s = t.session()
    service.go_mad(s, "test")
    rec = t.knight()
    assert rec["mad"]["carried_to"] == "Canterbury"
    rec["mad"]["since"] = 0
    service.mad_wandering(s)
    assert rec["mad"] is None and rec["at"]["area"] == "Canterbury"


def test_s25_lady_lost_while_in_her_castle_prison(table):
    """Found by random play (seed 32749, game turn 77): imprisoned in his Lady's castle (held
    by her enemies), he lost her; her castle counter left the map and his release looked
    for a castle no longer there (KeyError). Decision (docs/koc-engine.md): her castle leaves
    the map when he loses her unless a knight is in it or in its prison; then it stays, as
    the castle of a lady met on an adventure does, and he walks out into its area."""
    from companion.koc.engine import resolutions as rs

    t = table(lady_pos(cp=125))
    s = t.session()
    rs.imprison(s, by="knight", jailor="the lord of Castle Perilous", castle="Castle Perilous")
    assert t.knight()["at"] == {"area": "Somerset", "where": "prison",
                                "castle": "Castle Perilous"}
    service.lose_lady(s, "entering the service of Morgan Le Fay")
    assert "Castle Perilous" in t.state["castles"]            # he is in its prison
    rs.release_pk(s, "none")
    assert t.knight()["at"] == {"area": "Somerset", "where": "area"}
    # no knight in it: the castle leaves the map with the Lady
    t = table(lady_pos(cp=125))
    service.lose_lady(t.session(), "challenged away")
    assert "Castle Perilous" not in t.state.get("castles", {})


def test_s26_luck_tests_read_plainly(table):
    """Mad Player Knights (two successful Luck Tests at the end of a turn cure him) and the
    glossary's Luck Test (a die equal to or above the Luck-of-the-Day): rules edition 3 words
    each test plainly, without brackets inside brackets nor "against luck"
    (session.LUCK_WORDED); the die is recorded for the same purpose as before. A game begun
    under edition 2 keeps its words."""
    for edition in (3, 2):
        t = table(pos(turn=3), dice=[3, 6])
        t.state["edition"] = edition
        s = t.session()
        t.knight()["mad"] = {"since": 1, "tests": 0}
        t.knight()["luck"] = 4
        service.mad_recovery(s)
        assert t.knight()["mad"]["tests"] == 1
        if edition == 3:
            assert t.saw("Luck test (recover from madness, the first of two): rolled 3, "
                         "needing 4 or more: failure.")
            assert t.saw("Luck test (recover from madness, the second of two): rolled 6, "
                         "needing 4 or more: success.")
            assert not t.saw("against luck") and not t.saw("(first test)")
        else:
            assert t.saw("Luck test (recover from madness (first test)): rolled 3 against "
                         "luck 4: failure.")
            assert t.saw("Luck test (recover from madness (second test)): rolled 6 against "
                         "luck 4: success.")
        assert [o.purpose for o in t.chance.outcomes if "madness" in o.purpose] == [
            "luck test: recover from madness (first test)",
            "luck test: recover from madness (second test)"]


def test_s27_a_slain_knight_lord_leaves_his_vassal_lordless(table):
    """Lord Service (a knight is left without a Lord when his Lord, a Knight, is slain): Anna
    beats Sir Belleus, who yields (6+6 against his VL 7), and has him slain (no good knight:
    1+1). He is Cora's Lord, and she is under his Summons. Rules edition 7
    (service.LORD_SLAIN_LEAVES_NO_LORD): Cora has no Lord now, without a VP lost; the summons
    lapses, his castle stays on her list, and she is told. A game of edition 6 keeps its
    reading: the slain Knight stayed her Lord."""
    from companion.koc.engine.combat import npk
    from companion.koc.engine.fate import give_fate

    castle = "Sir Belleus's castle"
    extra = f'[castles]\n"{castle}" = {{area = "Powys", owner = "Sir Belleus", kind = "knight"}}\n'
    others = {"Cora": f'at = "Kent"\nlord = "Sir Belleus"\nfriendly = ["{castle}"]\n'
                      'lord_summons = 1'}
    for ed in (7, 6):
        t = table(pos(at="Powys", others=others, extra=extra), dice=[6, 6, 1, 1],
                  orders={"Anna": "on fate: slay"})
        t.state["edition"] = ed
        vp = t.state["knights"]["Cora"]["vp"]
        give_fate(t.session(), npk(card("Sir Belleus")))
        assert t.saw("Anna slays Sir Belleus.") and not t.unused_dice
        cora = t.state["knights"]["Cora"]
        assert cora["friendly"] == [castle] and cora["vp"] == vp
        told = [e["to"] for e in t.ctx.events if e["text"] ==
                "With Sir Belleus slain, Cora has no Lord."]
        if ed == 7:
            assert cora["lord"] is None and cora["lord_summons"] == 0
            assert told == [["Anna", "Cora"]]
        else:
            assert cora["lord"]["name"] == "Sir Belleus" and cora["lord_summons"] == 1
            assert told == []


def test_s28_grief_drives_him_mad_on_a_1(table):
    """Losing One's Lady (her death: 12 VP, her award, and madness on a roll of 1) with Mad
    Player Knights: the die shows 1. The 12 VP and the award are lost before the madness
    strikes (a madman gains and loses nothing), and he throws his arms away."""
    t = table(lady_pos(cp=125, vp=20), dice=[1])
    service.lose_lady(t.session(), "she died", died=True)
    rec = t.knight()
    assert not t.unused_dice
    assert rec["lady"] is None and rec["cp"] == 100 and rec["vp"] == 8
    assert rec["mad"] and not any(rec["gear"].values())
    assert t.saw("goes mad (grief at the death of Lady Lyonesse)")
