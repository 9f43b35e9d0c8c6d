"""Aids, enchantments, imprisonment and appeals, messages, oaths and tricks: a casebook (rules:
ENCOUNTERS: MISCELLANEOUS, Mad Player Knights, Poisoned Wounds, ADVENTURES). Dice are
explicit; 2d6 chart results are given as two dice adding up to the entry."""
from __future__ import annotations

import copy

from kocpos import card, pos

from companion.koc.engine import knight as kn
from companion.koc.engine import resolutions as rs
from companion.koc.engine import tasks
from companion.koc.engine.movement import immobilised

# two dice for each 2d6 total
D = {2: [1, 1], 3: [1, 2], 4: [2, 2], 5: [2, 3], 6: [3, 3], 7: [3, 4], 8: [4, 4], 9: [4, 5],
     10: [5, 5], 11: [5, 6], 12: [6, 6]}
WEAK = ["Sir Belleus", "Sir Gauter", "Sir Hemison", "Sir Miles of the Launds"]   # 40-50 CP
DECK_WEAK = '[decks]\nknights = ["Sir Belleus", "Sir Gauter", "Sir Hemison"]\n'
BEAT = [6, 6, 6, 1, 1, 1]        # a lance pass of 18 against 3: one weak knight falls


def lady_pos(**kw):
    return pos(anna='lady = "Lady Lyonesse"', extra=kw.pop("extra", "")
               + '\n[castles]\n"Castle Perilous" = {area = "Somerset", owner = "Lady Lyonesse",'
               ' kind = "lady"}\n', **kw)


# ============================================================================== aids
def test_r01_aid_rescue_from_pursuit(table):
    """Aids 2: the pursued person stays as a comrade; the PK meets the monster next turn and, if
    victorious, the person is friendly. Undertaking the aid earns 6 VP."""
    t = table(pos(extra='[draws]\nmonster = ["Lion 5"]\n'), dice=D[2] + BEAT)
    s = t.session()
    kay = card("Sir Belleus")
    assert rs.request_aid(s, kay)
    rec = t.knight()
    assert rec["vp"] == 26 and rec["comrades"][0]["name"] == "Sir Belleus"
    assert rec["immobile"][0]["then"] == "pursuit"
    immobilised(s)                       # next turn: the lion catches up and is slain
    assert t.saw("catches up") and "Sir Belleus" in rec["friendly_persons"]
    assert rec["cp"] == 105 and rec["vp"] == 31


def test_r02_aid_rescue_from_prison(table):
    """Aids 3: an NPK is held in a local castle (here Camelot Castle, in Hampshire); the PK sets
    out to free him by appeal or storm; the attempt itself is the aid (6 VP)."""
    t = table(pos(extra=DECK_WEAK), dice=D[3])
    s = t.session()
    assert rs.request_aid(s, card("King Mark", "king"))
    task = t.knight()["tasks"][0]
    assert task["kind"] == "rescue" and task["castle"] == "Camelot Castle"
    assert task["prisoner"]["name"] == "Sir Belleus" and task["penalty_vp"] == 6


def test_r03_aid_rescue_from_captors(table):
    """Aids 4: three knights detain the person; beating all three makes him friendly."""
    t = table(pos(cp=300, vp=60, extra=DECK_WEAK), dice=D[4] + BEAT * 3 + [6, 6] * 3,
              orders={"Anna": "on method: lance"})
    s = t.session()
    assert rs.request_aid(s, card("Lady Lyonesse", "lady"))
    rec = t.knight()
    assert "Lady Lyonesse" in rec["friendly_persons"]
    assert t.saw("Sir Hemison yields") or t.saw("Sir Hemison")


def test_r04_aid_court_a_lady(table):
    """Aids 5: approach a local friendly castle and seek the service of its Lady owner."""
    t = table(pos(extra='[decks]\nladies = ["Lady Enid"]\n'), dice=D[5])
    s = t.session()
    assert rs.request_aid(s, card("Sir Belleus"))
    rec = t.knight()
    assert rec["vp"] == 26 and "Castle Cardigan" in rec["friendly"]
    assert t.state["castles"]["Castle Cardigan"]["area"] == "Hampshire"
    assert rec["tasks"][0]["kind"] == "court"


def test_r05_aid_court_a_lady_refused_when_serving(table):
    """Aids 5: a PK already serving a Lady must refuse (the usual 6 VP)."""
    t = table(lady_pos(), dice=D[5])
    assert not rs.request_aid(t.session(), card("Sir Belleus"))
    assert t.knight()["vp"] == 14


def test_r06_aid_give_shield(table):
    """Aids 6: give away a shield: 6 VP."""
    t = table(pos(), dice=D[6])
    assert rs.request_aid(t.session(), card("Sir Belleus"))
    assert not t.knight()["gear"]["shield"] and t.knight()["vp"] == 26


def test_r07_aid_give_dwarf(table):
    """Aids 7: the Dwarf goes, with what he carries."""
    t = table(pos(anna="dwarf = true"), dice=D[7])
    assert rs.request_aid(t.session(), card("Sir Belleus"))
    assert t.knight()["dwarf"] is None and t.knight()["vp"] == 26


def test_r08_aid_give_sword_spare_first(table):
    """Aids 8: a sword may be the Dwarf's spare one (given by default)."""
    t = table(pos(anna='dwarf = {arthurian = false, spares = ["sword"]}'), dice=D[8])
    assert rs.request_aid(t.session(), card("Sir Belleus"))
    assert t.knight()["gear"]["sword"] and t.knight()["dwarf"]["spares"] == []


def test_r09_aid_give_horse(table):
    """Aids 9: giving his own horse leaves him on foot."""
    t = table(pos(), dice=D[9])
    assert rs.request_aid(t.session(), card("Sir Belleus"))
    assert not t.knight()["gear"]["horse"] and t.knight()["on_foot"]


def test_r10_aid_escort_home(table):
    """Aids 10: a King's home is his royal castle; the escort is a task (6 VP on arrival, 1 VP a
    turn), and the King rides along."""
    t = table(pos(), dice=D[10])
    assert rs.request_aid(t.session(), card("King Mark", "king"))
    task = t.knight()["tasks"][0]
    assert task["kind"] == "escort" and task["dest"] == "Tintagel"
    assert task["awards"] == {"vp": 6, "per_turn": True} and task["penalty_vp"] == 6
    assert t.knight()["party_extra"][0]["name"] == "King Mark"


def test_r11_aid_deliver_message(table):
    """Aids 11: a message to a random royal castle (9: Cornwall), delivered on a friendly
    castle reaction."""
    t = table(pos(), dice=D[11] + D[9])
    assert rs.request_aid(t.session(), card("Sir Belleus"))
    task = t.knight()["tasks"][0]
    assert task["dest"] == "Tintagel" and task["needs"] == "friendly_castle"
    assert task["awards"]["vp"] == 6


def test_r12_aid_give_directions(table):
    """Aids 12: automatically fulfilled: 6 VP."""
    t = table(pos(), dice=D[12])
    assert rs.request_aid(t.session(), card("Sir Belleus"))
    assert t.knight()["vp"] == 26


def test_r13_aid_impossible_no_penalty(table):
    """Aids: a request that cannot be fulfilled (a sword of a knight who has none) costs
    nothing."""
    t = table(pos(anna='gear = ["horse", "shield", "lance"]'), dice=D[8])
    assert not rs.request_aid(t.session(), card("Sir Belleus"))
    assert t.knight()["vp"] == 20 and t.saw("no penalty")


def test_r14_aid_refused(table):
    """Aids: refusing costs 6 VP."""
    t = table(pos(), dice=D[6], orders={"Anna": "on aid: refuse"})
    assert not rs.request_aid(t.session(), card("Sir Belleus"))
    assert t.knight()["vp"] == 14 and t.knight()["gear"]["shield"]


def test_r15_oath_always_grant_requests(table):
    """Oaths 5: sworn to grant every request, the PK cannot refuse aid (he lacks the VP to
    break the oath)."""
    t = table(pos(vp=10, anna='oaths = ["always_grant_requests"]'), dice=D[6],
              orders={"Anna": "on aid: refuse"})
    assert rs.request_aid(t.session(), card("Sir Belleus"))
    assert not t.knight()["gear"]["shield"]


def test_r16_escort_home_of_a_king_or_lady_needs_a_horse(table):
    """Aids 10 with SERVICE (a King or Lady is escorted only by a knight with a horse): asked by
    a King to escort him home, a knight without a horse cannot give the aid, so refusing costs
    nothing (rules edition 7: resolutions.ESCORT_NEEDS_HORSE, as for the escorts Kings and
    Ladies ask in their reactions). A knight may walk a Knight home: that aid stands. A game of
    edition 6 keeps its reading: he was asked, and refusing cost 6 VP."""
    for ed in (7, 6):
        t = table(pos(anna='gear = ["sword", "shield", "lance"]'), dice=D[10],
                  orders={"Anna": "on aid: refuse"})
        t.state["edition"] = ed
        assert not rs.request_aid(t.session(), card("King Mark", "king"))
        rec = t.knight()
        assert rec["tasks"] == [] and rec["party_extra"] == []
        if ed >= 7:
            assert rec["vp"] == 20 and t.saw("cannot give this aid (a king is escorted only "
                                             "on horseback, and he has no horse)")
        else:
            assert rec["vp"] == 14 and t.saw("Anna refuses.")
    t = table(pos(anna='gear = ["sword", "shield", "lance"]'), dice=D[10] + D[9])
    assert rs.request_aid(t.session(), card("Sir Belleus"))
    assert t.knight()["tasks"][0]["kind"] == "escort"


def test_r17_oath_to_ride_alone_against_a_rescued_comrade(table):
    """Aids 2 with Oaths 10: the person saved from a pursuing monster would stay at the
    knight's side as a comrade, which his oath to travel alone forbids; without the VP to break
    it he keeps it and refuses (6 VP), as for an escort (rules edition 7:
    resolutions.ALONE_NO_RESCUED_COMPANY). A game of edition 6 keeps its reading: Sir Belleus
    joined him and the monster was drawn, the oath unasked."""
    for ed in (7, 6):
        t = table(pos(vp=10, anna='oaths = ["always_travel_alone"]',
                      extra='[draws]\nmonster = ["Lion 5"]\n'), dice=D[2])
        t.state["edition"] = ed
        done = rs.request_aid(t.session(), card("Sir Belleus"))
        rec = t.knight()
        assert rec["oaths"] == ["always_travel_alone"]
        if ed >= 7:
            assert not done and rec["vp"] == 4 and rec["comrades"] == []
            assert t.saw("holds: Sir Belleus at his side is not possible")
            assert not rec["immobile"]
        else:
            assert done and rec["vp"] == 16 and rec["comrades"][0]["name"] == "Sir Belleus"
            assert rec["immobile"][0]["then"] == "pursuit"


# ============================================================================== enchantments
def test_e01_enchantment_resisted(table):
    """Enchantments: a VL check of VL + the seduction adjustment resists (VL 5 + 4: 9 or
    more)."""
    t = table(pos(), dice=[4, 5])
    assert rs.enchant(t.session(), card("Queen of North Wales", "lady"), 4)
    assert t.saw("resists")


def test_e02_enchantment_talisman(table):
    """Merlin's gifts: the Magic Talisman adds 2 to the dice resisting an enchantment."""
    t = table(pos(anna='items = [{key = "magic_talisman"}]'), dice=[3, 4])
    assert rs.enchant(t.session(), card("Queen of North Wales", "lady"), 4)


def test_e03_abandon_lady(table):
    """Enchantments 2: forsake the Lady: 6 VP (12 under her summons) and the service award."""
    t = table(lady_pos(cp=125, anna_extra=None) if False else lady_pos(cp=125),
              dice=[1, 1] + D[2])
    t.knight()["lady_summons"] = 1
    rs.enchant(t.session(), card("Queen of North Wales", "lady"), 4)
    rec = t.knight()
    assert rec["lady"] is None and rec["vp"] == 8 and rec["cp"] == 100
    assert "Castle Perilous" not in t.state.get("castles", {})


def test_e04_abandon_lady_without_lady_seduces(table):
    """Enchantments 2: with no Lady the result is Seduce: her service award is gained and VP
    equal to her VL lost."""
    t = table(pos(), dice=[1, 1] + D[2] + [1, 1, 1])
    rs.enchant(t.session(), card("Queen of North Wales", "lady"), 4)
    rec = t.knight()
    assert rec["lady"]["name"] == "Queen of North Wales" and rec["enchantress"]
    assert rec["cp"] == 120 and rec["vp"] == 11


def test_e05_abandon_lord(table):
    """Enchantments 3: the Lord is forsaken (6 VP), his castle no longer friendly; only a sword
    at friendly castles until a new Lord."""
    t = table(pos(lord="King Mark", anna='friendly = ["Tintagel"]'), dice=[1, 1] + D[3])
    rs.enchant(t.session(), card("Queen of North Wales", "lady"), 4)
    rec = t.knight()
    assert rec["lord"] is None and rec["vp"] == 14 and "Tintagel" not in rec["friendly"]
    assert "King Mark" in rec["former_lords"]


def test_e06_change_into_animal(table):
    """Enchantments 4: an animal; equipment, companions and comrades lost (a bound Mad Knight
    breaks loose); lifted, the lost Mascot returns at the next animal encounter."""
    t = table(pos(anna='mascot = "Brachet"\ndwarf = true\ncomrades = ["Sir Kay"]',
                  extra='[draws]\nanimal = ["Hart 4"]\n'), dice=[1, 1] + D[4])
    s = t.session()
    rec = t.knight()
    rec["party_extra"].append({"kind": "bound_mad_knight", "name": "Sir Gauter"})
    rs.enchant(s, card("Queen of North Wales", "lady"), 4)
    assert rec["animal"] == "Hart" and not any(rec["gear"].values())
    assert rec["comrades"] == [] and rec["dwarf"] is None and rec["mascot"] is None
    assert rec["party_extra"] == [] and kn.movement_allowance(rec) == 2
    rs.lift_enchantment(s, rec["enchantments"][0])
    assert rec["animal"] is None and rec["reunite"]["mascot"]["name"] == "Brachet"


def test_e06b_a_knight_in_animal_form_fights_as_an_animal(table):
    """Enchantments 4: in animal form the knight does not suffer from being shield-less (his
    foe has no +2), and defeated in any fight he is slain, even by a Knight: no Knight's Fate,
    no offer to yield (rules edition 7: combat.ANIMAL_FORM_FIGHTS). Here the Wolf (2 dice: 2)
    meets Sir Belleus's lance (18): 16 wounds, and he is down. A game of edition 6 keeps its
    reading: Sir Belleus rolled 20, and the beaten Wolf had a Knight's Fate (1 + VL 7: 8,
    Sir Belleus rides with him)."""
    from companion.koc.engine.combat import Combat, fight, npk

    for ed in (7, 6):
        t = table(pos(cp=20, anna='animal = "Wolf"\ngear = []\nenchantments = [{key = '
                      '"change_into_animal", by = "Queen of North Wales", animal = "Wolf"}]'),
                  dice=[1, 1] + [1, 1] + [6, 6, 6] + [1], orders={"Anna": "on yield: yes"})
        t.state["edition"] = ed
        s = t.session()
        c = Combat(s, [npk(card("Sir Belleus"))], attacker="foe")
        assert c.wants_to_yield(c.foes[0]) == (ed < 7)
        t.chance._dice_used = 0
        fight(s, [npk(card("Sir Belleus"))], attacker="foe")
        assert not t.unused_dice
        if ed >= 7:
            assert t.saw("Pass: Anna 2, Sir Belleus 18;") and t.saw("Sir Belleus slays Anna.")
            assert t.saw("In the shape of a Wolf, Anna dies as a beast dies.")
            assert not t.saw("Knight's Fate")
        else:
            assert t.saw("Pass: Anna 2, Sir Belleus 20;") and not t.saw("slays")
            assert t.saw("Knight's Fate for Anna from Sir Belleus: He rides with you.")


def test_e07_imprison(table):
    """Enchantments 5: prison in a local castle, and no direct appeal to the jailor."""
    t = table(pos(), dice=[1, 1] + D[5])
    rs.enchant(t.session(), card("Queen of North Wales", "lady"), 4)
    rec = t.knight()
    assert rec["prison"]["castle"] == "Camelot Castle" and not rec["prison"]["direct"]
    assert rec["at"]["where"] == "prison"


def test_e08_seduce_replaces_lady(table):
    """Enchantments 6-8: seduced while serving a Lady: 6 VP (12 under summons) and her award
    lost, the Enchantress's award gained, VP equal to her VL lost; prayer cannot lift it."""
    t = table(lady_pos(cp=125), dice=[1, 1] + D[7])
    rs.enchant(t.session(), card("Queen of North Wales", "lady"), 4)
    rec = t.knight()
    assert rec["lady"]["name"] == "Queen of North Wales" and rec["enchantress"]
    assert rec["cp"] == 125 - 25 + 20 and rec["vp"] == 20 - 6 - 9


def test_e09_seduce_already_served(table):
    """Enchantments 6-8: already in her service: she ignores him."""
    t = table(pos(anna='lady = "Queen of North Wales"'), dice=[1, 1] + D[8])
    rs.enchant(t.session(), card("Queen of North Wales", "lady"), 4)
    assert t.saw("ignores him") and t.knight()["vp"] == 20


def test_e10_poisoned_wound(table):
    """Enchantments 9 and Poisoned Wounds: one poisoned wound; WL held."""
    t = table(pos(), dice=[1, 1] + D[9])
    rs.enchant(t.session(), card("Queen of North Wales", "lady"), 4)
    assert t.knight()["poison"] == 1 and kn.wl(t.knight()) == 9


def test_e11_rob_and_reappear(table):
    """Enchantments 10: equipment and Dwarf vanish; they reappear when the spell is lifted."""
    t = table(pos(anna="dwarf = true"), dice=[1, 1] + D[10])
    s = t.session()
    rs.enchant(s, card("Queen of North Wales", "lady"), 4)
    rec = t.knight()
    assert not any(rec["gear"].values()) and rec["dwarf"] is None
    rs.lift_enchantment(s, rec["enchantments"][0])
    assert all(rec["gear"].values()) and rec["dwarf"] is not None



def test_e11b_the_words_for_gear_vanishing_alone(table):
    """Enchantments 10 without a Dwarf: rules edition 3 says "Anna's equipment vanishes by
    magic"; a game begun under edition 2 keeps its words ("vanish"), as its turns replay
    them. With the Dwarf it is "equipment and Dwarf vanish" in both."""
    for edition, said in ((3, "Anna's equipment vanishes by magic."),
                          (2, "Anna's equipment vanish by magic.")):
        t = table(pos(), dice=[1, 1] + D[10])
        t.state["edition"] = edition
        rs.enchant(t.session(), card("Queen of North Wales", "lady"), 4)
        assert t.saw(said), edition
    t = table(pos(anna="dwarf = true"), dice=[1, 1] + D[10])
    rs.enchant(t.session(), card("Queen of North Wales", "lady"), 4)
    assert t.saw("Anna's equipment and Dwarf vanish by magic.")

def test_e12_madness(table):
    """Enchantments 11: he goes mad and abandons equipment, companions and comrades."""
    t = table(pos(anna='comrades = ["Sir Kay"]'), dice=[1, 1] + D[11])
    rs.enchant(t.session(), card("Queen of North Wales", "lady"), 4)
    rec = t.knight()
    assert rec["mad"] and not any(rec["gear"].values()) and rec["comrades"] == []


def test_e13_sleep(table):
    """Enchantments 12: asleep 1-6 turns (die 3); companions and comrades depart, equipment
    stays, no encounters while asleep."""
    t = table(pos(anna='comrades = ["Sir Kay"]\ndwarf = true'), dice=[1, 1] + D[12] + [3])
    s = t.session()
    rs.enchant(s, card("Queen of North Wales", "lady"), 4)
    rec = t.knight()
    assert rec["asleep"] and rec["immobile"][0]["turns"] == 3
    assert rec["comrades"] == [] and rec["dwarf"] is None and all(rec["gear"].values())
    for _ in range(3):
        immobilised(s)
    assert not rec.get("asleep") and not rec["enchantments"]


def escorting_king_mark(table, ed: int, position: str, dice: list[int]):
    """A table at rules edition ``ed`` where Anna has just begun to escort King Mark (his card
    out of the Kings' deck): (table, her session, her record, the Kings' deck)."""
    from companion.koc.engine import requests as rq

    t = table(position, dice=dice)
    t.state["edition"] = ed
    s = t.session()
    decks = t.state["decks"]["kings"]
    decks["draw"].remove("King Mark")
    assert rq.start_escort(s, rq.person(card("King Mark", "king"), "king"))
    return t, s, t.knight(), decks


def test_e06c_a_beast_parts_from_the_persons_in_his_company(table):
    """Enchantments 4 with Requests, Escort: Anna escorts King Mark home when she is changed
    into a Hart; the King leaves her, his card goes back and the escort ends without penalty,
    as from a sleeper (rules edition 7: resolutions.ANIMAL_SHEDS_COMPANY, the same
    encounters.drop_companions). A game of edition 6 keeps its reading: the escort failed
    ("his companions are gone") and the King's card stayed out of the deck."""
    for ed in (7, 6):
        t, s, rec, decks = escorting_king_mark(
            table, ed, pos(extra='[draws]\nanimal = ["Hart 4"]\n'), [1] + [1, 1] + D[4])
        rs.enchant(s, card("Queen of North Wales", "lady"), 4)
        assert rec["animal"] == "Hart" and rec["party_extra"] == [] and rec["vp"] == 20
        assert rec["tasks"][0]["status"] == "failed"
        if ed >= 7:
            assert "King Mark" in decks["draw"]
            assert t.saw("King Mark no longer travels with Anna (none will travel with a beast)")
        else:
            assert "King Mark" not in decks["draw"]
            assert t.saw("King Mark will not travel with a beast.")
            assert t.saw("Anna's task (escort) fails: his companions are gone.")


def test_e13b_the_sleeper_is_left_alone(table):
    """Enchantments 12 (every companion and comrade departs) with Requests, Escort: Anna
    escorts King Mark home when she falls asleep; the King leaves her (his card goes back), the
    escort ends without penalty and earns no VP while she sleeps. Her Arthurian Dwarf stays
    (his hardier stock does not flee: decision, docs/koc-engine.md) and so does the parcel she
    carries (rules edition 7: resolutions.SLEEPER_LEFT_ALONE; "King Mark no longer travels",
    encounters.ONE_NO_LONGER_TRAVELS). A game of edition 6 keeps its reading: the King stayed
    and the escort went on earning 1 VP a turn (and one person "no longer travel")."""
    for ed in (7, 6):
        t, s, rec, decks = escorting_king_mark(table, ed, pos(anna='dwarf = "arthurian"'),
                                               [1] + [1, 1] + D[12] + [3])
        rec["party_extra"].append({"kind": "item", "name": "the parcel for London"})
        rs.enchant(s, card("Queen of North Wales", "lady"), 4)
        assert rec["asleep"] and rec["dwarf"]["arthurian"] and rec["vp"] == 20
        tasks.escort_turn_award(s)      # the escort's VP, given in the requests phase
        if ed >= 7:
            assert [e["name"] for e in rec["party_extra"]] == ["the parcel for London"]
            assert rec["tasks"][0]["status"] == "failed" and rec["vp"] == 20
            assert "King Mark" in decks["draw"]        # (Kings are shuffled back at once)
            assert t.saw("King Mark no longer travels with Anna (his enchanted sleep)")
        else:
            assert rec["party_extra"][0]["name"] == "King Mark"
            assert rec["tasks"][0]["status"] == "active" and rec["vp"] == 21
            from companion.koc.engine.encounters import drop_companions

            drop_companions(s, why="Faerie", keep=("item",))    # edition 6 words, too
            assert t.saw("King Mark no longer travel with Anna (Faerie).")


def test_e14_druid_seduction(table):
    """Enchantments 6-8 by a Druid: he seduces the PK with a randomly drawn Lady."""
    t = table(pos(extra='[decks]\nladies = ["Lady Enid"]\n[castles]\n"Castle Cardigan" = '
                  '{area = "Somerset", owner = "Lady Enid", kind = "lady"}\n'),
              dice=[1, 1] + D[6])
    rs.enchant(t.session(), {"kind": "hermit", "name": "the Druid"}, 3, druid=True)
    assert t.knight()["lady"]["name"] == "Lady Enid" and t.knight()["vp"] == 17


def test_e15_unresistable(table):
    """Mad Player Knights: an Enchantress cures a madman and enchants him; he cannot resist."""
    t = table(pos(), dice=D[9])
    assert not rs.enchant(t.session(), card("Queen of North Wales", "lady"), 4,
                          resistible=False)
    assert t.knight()["poison"] == 1


# ============================================================================== imprisonment
def test_i01_imprisoned_by_king(table):
    """Imprisonment: equipment, companions and comrades lost; a King's prisoner may appeal to
    his jailor."""
    t = table(pos(anna='comrades = ["Sir Kay"]\ndwarf = true\nmen_at_arms = ["Sir Gauter"]',
                  at="Tintagel", where="inside"))
    rs.imprison(t.session(), by="king", jailor="King Mark")
    rec = t.knight()
    assert rec["prison"]["castle"] == "Tintagel" and rec["prison"]["direct"]
    assert rec["comrades"] == [] and rec["men_at_arms"] == [] and rec["dwarf"] is None
    assert not any(rec["gear"].values()) and rec["prison"]["gear"]["lance"]


def prisoner(table, dice, orders=None, by="king", **kw):
    t = table(pos(at="Tintagel", where="inside", **kw), dice=dice, orders=orders or {})
    s = t.session()
    rs.imprison(s, by=by, jailor="King Mark")
    return t, s


def test_i02_jailor_tortured(table):
    """Appeals to Jailor 2: no release; the PK is tortured (one poisoned wound)."""
    t, s = prisoner(table, D[2])
    rs.prison_phase(s)
    assert t.knight()["prison"] and t.knight()["poison"] == 1


def test_i03_jailor_exile(table):
    """Appeals to Jailor 3: freed if he accepts exile from the land of the castle."""
    t, s = prisoner(table, D[3])
    rs.prison_phase(s)
    rec = t.knight()
    assert rec["prison"] is None and "Cornwall" in rec["exiles"]
    assert rec["tasks"][0]["kind"] == "leave" and rec["gear"]["lance"]


def test_i04_jailor_oath(table):
    """Appeals to Jailor 4: freed on swearing a random oath (11: do not eat)."""
    t, s = prisoner(table, D[4] + D[11])
    rs.prison_phase(s)
    assert t.knight()["prison"] is None and t.knight()["oaths"] == ["do_not_eat"]


def test_i05_jailor_fight_three(table):
    """Appeals to Jailor 5: a full set of equipment and three knights to beat; no Knight's Fate
    either way; victorious, he keeps the unbroken equipment."""
    t, s = prisoner(table, D[5] + BEAT * 3 + [6, 6] * 3, cp=300, vp=60, extra=DECK_WEAK)
    rs.prison_phase(s)
    rec = t.knight()
    assert rec["prison"] is None and all(rec["gear"].values())


def test_i06_jailor_ignored_then_persisting(table):
    """Appeals to Jailor 6-8, persistence: the first ignored appeal is not rerolled; the same
    appeal next turn is rolled again once when ignored (12: released)."""
    t, s = prisoner(table, D[7] + D[6] + D[12])
    rs.prison_phase(s)
    assert t.knight()["prison"] is not None
    rs.prison_phase(s)
    assert t.knight()["prison"] is None and t.saw("Persisting")


def test_i07_jailor_challenge(table):
    """Appeals to Jailor 9: freed by winning a challenge against the jailor's champion."""
    t, s = prisoner(table, D[9] + [6, 6, 6, 1, 1, 1], cp=300, vp=60, extra=DECK_WEAK)
    rs.prison_phase(s)
    assert t.knight()["prison"] is None and "Sir Belleus" in t.knight()["challenged"]


def test_i08_jailor_no_equipment(table):
    """Appeals to Jailor 10: released stripped of all equipment."""
    t, s = prisoner(table, D[10])
    rs.prison_phase(s)
    rec = t.knight()
    assert rec["prison"] is None and not any(rec["gear"].values())
    assert rec["at"] == {"area": "Tintagel", "where": "gate"}


def test_i09_jailor_no_horse_lance(table):
    """Appeals to Jailor 11: released without horse or lance."""
    t, s = prisoner(table, D[11])
    rs.prison_phase(s)
    gear = t.knight()["gear"]
    assert gear == {"horse": False, "shield": True, "lance": False, "sword": True}


def test_i10_jailor_full_equipment(table):
    """Appeals to Jailor 12: released with all normal equipment (not a Dwarf)."""
    t, s = prisoner(table, D[12], anna='gear = ["sword"]\ndwarf = true')
    rs.prison_phase(s)
    rec = t.knight()
    assert all(rec["gear"].values()) and rec["dwarf"] is None


def passer(table, dice, orders=None, **kw):
    return prisoner(table, dice, orders=orders, by="knight", **kw)


def test_p01_passerby_abandon_lady(table):
    """Appeals to Passer-by 2: he must forsake his Lady first (6 VP and her award), then the
    passer-by appeals (12: freed)."""
    t, s = passer(table, D[2] + D[12], orders={"Anna": "on passerby_terms: accept"},
                  anna='lady = "Lady Lyonesse"', cp=125)
    assert not t.knight()["prison"]["direct"]
    rs.prison_phase(s)
    rec = t.knight()
    assert rec["lady"] is None and rec["cp"] == 100 and rec["vp"] == 14
    assert rec["prison"] is None


def test_p02_passerby_oath(table):
    """Appeals to Passer-by 3: freed, he must swear an oath (2: never yield)."""
    t, s = passer(table, D[3] + D[12] + D[2])
    rs.prison_phase(s)
    assert t.knight()["oaths"] == ["never_yield"]


def test_p03_passerby_fight(table):
    """Appeals to Passer-by 4: freed (10: stripped), his own equipment comes back for a fight
    with a random knight at once."""
    t, s = passer(table, D[4] + D[10] + BEAT + [6, 6], cp=300, vp=60, extra=DECK_WEAK)
    rs.prison_phase(s)
    assert t.knight()["prison"] is None and t.saw("Combat: Anna")


def test_p04_passerby_prison_rescue(table):
    """Appeals to Passer-by 5: freed, he must try to free a prisoner from a random castle."""
    t, s = passer(table, D[5] + D[12] + [1, 1, 1], extra=DECK_WEAK)
    rs.prison_phase(s)
    task = t.knight()["tasks"][-1]
    assert task["kind"] == "rescue" and task["dest"] == "Surluise"
    assert task["prisoner"]["name"] == "Sir Belleus" and task["penalty_vp"] == 12


def test_p05_passerby_ignored_persisting(table):
    """Appeals to Passer-by 6-8: ignored; persisting next turn, one reroll (again ignored)."""
    t, s = passer(table, D[6] + D[8] + D[7])
    rs.prison_phase(s)
    rs.prison_phase(s)
    assert t.knight()["prison"] is not None and t.saw("once more")


def test_p06_passerby_message(table):
    """Appeals to Passer-by 9: freed, he must carry a message to a random royal castle."""
    t, s = passer(table, D[9] + D[12] + D[9])
    rs.prison_phase(s)
    task = t.knight()["tasks"][-1]
    assert task["kind"] == "message" and task["dest"] == "Tintagel"


def test_p07_passerby_pilgrims(table):
    """Appeals to Passer-by 10: freed, he escorts pilgrims to a random shrine without reward;
    they walk."""
    t, s = passer(table, D[10] + D[12] + [1])
    rs.prison_phase(s)
    task = t.knight()["tasks"][-1]
    assert task["dest"] == "Canterbury" and task["awards"] == {} and task["walk"]
    assert kn.movement_allowance(t.knight()) == 1


def test_p08_passerby_adventure(table):
    """Appeals to Passer-by 11: freed, he owes an adventure, as a Prophecy, without awards (a
    local result is rolled again: 2:3 then 4:3)."""
    t, s = passer(table, D[11] + D[12] + [2, 3, 4, 3])
    rs.prison_phase(s)
    task = t.knight()["tasks"][-1]
    assert task["prophecy"] and task["adventure"]["key"] == "pilgrimage_canterbury"
    assert task["adventure"]["awards"] is False


def test_p09_passerby_free_appeal(table):
    """Appeals to Passer-by 12: the passer-by appeals for nothing (jailor 12: freed)."""
    t, s = passer(table, D[12] + D[12])
    rs.prison_phase(s)
    assert t.knight()["prison"] is None


def test_i11_pk_jailor(table):
    """Player Knight Jailors: the jailor decides on direct appeals and loses 3 VP a turn for
    each imprisoned PK."""
    t = table(pos(at="Tintagel", where="inside",
                  others={"Bert": 'cp = 100\nvp = 20\nat = "Hampshire"\nlord = "King Arthur"'
                          '\nstanding = [{tags = ["allow_direct_appeal"], key = '
                          '"allow_direct_appeal", answer = "yes"}]'}), dice=D[7])
    t.state["knights"]["Bert"]["name"] = "Bert"
    s = t.session()
    rs.imprison(s, by="knight", jailor="Bert")
    rec = t.knight()
    assert rec["prison"]["by"] == "pk" and rec["prison"]["direct"]
    rs.prison_phase(s)
    assert t.state["knights"]["Bert"]["vp"] == 17


def test_i12_storm_castle(table):
    """Rescuing a Prisoner: storming means beating 1-6 knights (die 1); defeated, the stormer
    is imprisoned; victorious, the prisoners (a PK here) go free."""
    t = table(pos(cp=300, vp=60, extra=DECK_WEAK,
                  others={"Bert": 'cp = 100\nvp = 20\nat = "Tintagel"\nlord = "King Arthur"'}),
              dice=[1] + BEAT + [6, 6])
    bert = t.session("Bert")
    rs.imprison(bert, by="king", jailor="King Mark", castle="Tintagel")
    s = t.session()
    assert rs.storm_castle(s, "Tintagel")
    assert t.state["knights"]["Bert"]["prison"] is None


def test_i13_rescue_attempt_storm(table):
    """Aids 3 / Rescuing a Prisoner: at the castle the PK storms; the attempt is the aid (6 VP)
    and the freed knight and the one aided become friendly."""
    t = table(pos(cp=300, vp=60, at="Camelot Castle", where="inside", extra=DECK_WEAK),
              dice=D[3] + [1] + BEAT + [6, 6], orders={"Anna": "on rescue: storm"})
    s = t.session()
    rs.request_aid(s, card("King Mark", "king"))
    task = t.knight()["tasks"][0]
    tasks.arrive(s, task)
    rec = t.knight()
    assert task["status"] == "done" and "King Mark" in rec["friendly_persons"]


# ============================================================================== messages
def test_m01_lady_imprisoned(table):
    """Messages 2: a Lady Summons; at her castle the PK must storm it (1-6 knights) to free her
    before the summons is answered."""
    t = table(lady_pos(cp=300, vp=60, extra=DECK_WEAK), dice=D[2] + [1] + BEAT + [6, 6])
    s = t.session()
    rs.message(s)
    rec = t.knight()
    assert rec["lady_summons"] == 1 and rec["captive_summoner"] == "lady"
    task = rec["tasks"][0]
    assert task["dest"] == "Somerset"
    rec["at"] = {"area": "Somerset", "where": "area"}
    tasks.arrive(s, task)
    assert rec["lady_summons"] == 0 and "captive_summoner" not in rec


def test_m02_relative_near_death(table):
    """Messages 3: to the original home castle at once; there he prays each turn (a success
    earns 6 VP and ends the vigil)."""
    t = table(pos(anna='original_home = {castle = "Tintagel"}'), dice=D[3] + [6])
    s = t.session()
    rs.message(s)
    rec = t.knight()
    task = rec["tasks"][0]
    assert task["dest"] == "Tintagel" and "Tintagel" in rec["temp_friendly"]
    rec["at"] = {"area": "Tintagel", "where": "inside"}
    tasks.arrive(s, task)
    assert rec["vigil"] and rec["immobile"]
    from companion.koc.engine.requests import requests_phase

    requests_phase(s)
    assert rec["vigil"] is None and rec["vp"] == 26 and not rec["immobile"]


def test_m03_relative_dies_after_three_turns(table):
    """Messages 3: three unanswered prayers and the kinsman dies, ending the vigil."""
    t = table(pos(vp=10), dice=[1, 1, 1])
    s = t.session()
    rec = t.knight()
    rec["vigil"] = {"castle": "Tintagel", "prayers": 0}
    from companion.koc.engine.requests import vigil_prayer

    for _ in range(3):
        rec["prayed"] = None
        vigil_prayer(s)
    assert rec["vigil"] is None and t.saw("kinsman dies")


def test_m04_outlawed(table):
    """Messages 4: the PK picks a friendly castle that outlaws him (never his Lord's)."""
    t = table(pos(lord="King Mark", anna='friendly = ["Tintagel", "Jagent", "Caerleon"]'),
              dice=D[4], orders={"Anna": "on outlaw: first"})
    rs.message(t.session())
    rec = t.knight()
    assert rec["friendly"] == ["Tintagel", "Caerleon"] and rec["outlawed"] == ["Jagent"]


def test_m04b_an_outlawing_castle_is_neutral(table):
    """Messages 4: the castle that outlaws him is neutral, not barred for good: a later friendly
    reaction there (Castle 10) puts it back on his list and lifts the outlawry, so next time he
    is admitted at once (rules edition 7: encounters.OUTLAWRY_LAPSES). A game of edition 6 keeps
    its reading: "Jagent is now friendly", yet the castle stayed unfriendly to him."""
    from companion.koc.engine import encounters as E

    for ed in (7, 6):
        t = table(pos(lord="King Mark", at="Jagent", anna='friendly = ["Jagent"]'),
                  dice=D[4] + D[10])
        t.state["edition"] = ed
        s = t.session()
        rs.message(s)
        rec = t.knight()
        assert rec["friendly"] == [] and rec["outlawed"] == ["Jagent"]
        assert not E.friendly_castle(s, "Jagent")
        rec["at"] = {"area": "Jagent", "where": "area"}
        assert E.castle_encounter(s, "Jagent")
        assert t.saw("Jagent is now friendly to Anna.") and rec["friendly"] == ["Jagent"]
        if ed >= 7:
            assert rec["outlawed"] == [] and E.friendly_castle(s, "Jagent")
            assert t.saw("Anna is no longer outlawed at Jagent.")
        else:
            assert rec["outlawed"] == ["Jagent"] and not E.friendly_castle(s, "Jagent")


def test_m04c_a_dying_kinsman_castle_admits_an_outlaw(table):
    """Messages 3 and 4: the original home castle of a dying kinsman is friendly at least for
    the visit, even if it once outlawed the knight (rules edition 7: a temporary friendship is
    no outlawry's exception; encounters.OUTLAWRY_LAPSES); it is not put back on his list. A game
    of edition 6 keeps its reading: the castle rolled its reaction."""
    from companion.koc.engine import encounters as E

    for ed in (7, 6):
        t = table(pos(lord="King Mark", anna='original_home = {castle = "Jagent"}\n'
                                              'outlawed = ["Jagent"]'), dice=D[3])
        t.state["edition"] = ed
        s = t.session()
        rs.message(s)
        rec = t.knight()
        assert rec["tasks"][0]["dest"] == "Jagent" and rec["temp_friendly"] == ["Jagent"]
        assert E.friendly_castle(s, "Jagent") == (ed >= 7)
        assert rec["outlawed"] == ["Jagent"] and rec["friendly"] == []


def test_m05_outlawed_none_eligible(table):
    """Messages 4: with no eligible castle, another message is rolled (12: the Beast)."""
    t = table(pos(lord="King Mark", anna='friendly = ["Tintagel"]'), dice=D[4] + D[12] + D[9],
              orders={"Anna": "on questing_beast: give up"})
    rs.message(t.session())
    assert t.saw("another message") and t.saw("Questing Beast has been seen in Cornwall")


def test_m06_wedding_attend(table):
    """Messages 5: a wedding of state in a random castle; shortest path; temporarily friendly;
    a turn there; 3 VP; then a request of the castle's lord."""
    t = table(pos(extra=DECK_WEAK), dice=D[5] + [1, 1, 1])
    s = t.session()
    rs.message(s)
    rec = t.knight()
    task = rec["tasks"][0]
    assert task["dest"] == "Surluise" and task["penalty_vp"] == 6
    assert "Sir Belleus's castle" in rec["temp_friendly"]
    rec["at"] = {"area": "Surluise", "where": "area"}
    tasks.arrive(s, task)
    assert rec["vp"] == 23 and rec["immobile"][0]["then"] == "wedding"
    immobilised(s)
    assert rec["host"]["person"]["name"] == "Sir Belleus"


def test_m07_wedding_refused(table):
    """Messages 5: refusing to attend costs 6 VP."""
    t = table(pos(), dice=D[5], orders={"Anna": "on wedding: refuse"})
    rs.message(t.session())
    assert t.knight()["vp"] == 14 and not t.knight()["tasks"]


def test_m08_insult_challenged_and_won(table):
    """Messages 6: the insulting knight (VL 6 or worse) is challenged; victory earns 6 VP."""
    t = table(lady_pos(cp=300, vp=60, extra=DECK_WEAK), dice=D[6] + [6, 6, 6, 1, 1, 1])
    rs.message(t.session())
    rec = t.knight()
    assert rec["lady"] and "Sir Belleus" in rec["challenged"]
    assert t.saw("defending Lady Lyonesse's honour")


def test_m09_insult_ignored(table):
    """Messages 6: ignoring the insult loses the Lady (her award; 6 VP more under summons)."""
    t = table(lady_pos(cp=125, extra=DECK_WEAK), dice=D[6], orders={"Anna": "on insult: ignore"})
    t.knight()["lady_summons"] = 1
    rs.message(t.session())
    rec = t.knight()
    assert rec["lady"] is None and rec["cp"] == 100 and rec["vp"] == 14


def test_m10_lord_summons_twice(table):
    """Messages 7: a Lord Summons; another before it is answered costs 6 VP."""
    t = table(pos(lord="King Mark"), dice=D[7] + D[7])
    s = t.session()
    rs.message(s)
    assert t.knight()["lord_summons"] == 1 and t.knight()["tasks"][0]["dest"] == "Tintagel"
    rs.message(s)
    assert t.knight()["lord_summons"] == 2 and t.knight()["vp"] == 14
    assert len(t.knight()["tasks"]) == 1


def test_m11_lady_summons_twice_kills_her(table):
    """Messages 8: a second Lady Summons before the first is answered: she dies of
    loneliness; 12 VP and her award lost; madness on a 1."""
    t = table(lady_pos(cp=125), dice=D[8] + D[8] + [1])
    s = t.session()
    rs.message(s)
    rs.message(s)
    rec = t.knight()
    assert rec["lady"] is None and rec["cp"] == 100 and rec["vp"] == 8 and rec["mad"]
    assert "Lady Lyonesse" in t.state["decks"]["ladies"]["removed"]


def test_m12_lady_summons_without_lady(table):
    """Messages 8: with no Lady the summons is ignored."""
    t = table(pos(), dice=D[8])
    rs.message(t.session())
    assert t.knight()["lady_summons"] == 0 and not t.knight()["tasks"]


def test_m13_informed_of_adventure(table):
    """Messages 9: an adventure, gone unless pursued at once (one turn's grace)."""
    t = table(pos(), dice=D[9] + [4, 3])
    rs.message(t.session())
    task = t.knight()["tasks"][0]
    assert task["adventure"]["key"] == "pilgrimage_canterbury" and task["dest"] == "Canterbury"
    assert task["route"] == "direct" and task["grace"] == 1 and task["walk"]


def test_m14_raiders(table):
    """Messages 10: raiders on a random coast (Logres: Lincoln); ridden to at once, their
    leader (a knight who fights unchivalrously with a sword from horseback) is beaten for 6 VP
    and CP equal to his WL."""
    t = table(pos(cp=300, vp=60, extra=DECK_WEAK), dice=D[10] + [3, 4, 1] + [6, 6, 1, 1])
    s = t.session()
    rs.message(s)
    task = t.knight()["tasks"][0]
    assert task["dest"] == "Lincoln" and task["grace"] == 0
    t.knight()["at"] = {"area": "Lincoln", "where": "area"}
    tasks.arrive(s, task)
    assert t.knight()["vp"] == 66 and t.knight()["cp"] == 300


def test_m15_special_tournament(table):
    """Messages 11: every PK hears of the great tournament at Camelot three turns on; the state
    keeps it for the tournament code."""
    t = table(pos(others={"Bert": 'cp = 50\nvp = 5\nat = "Kent"\nlord = "King Arthur"'}),
              dice=D[11])
    rs.message(t.session())
    st = t.state["special_tournament"]
    assert st["turn"] == 4 and st["npks"] == 5
    assert t.state["knights"]["Bert"]["tasks"][0]["dest"] == "Camelot Castle"
    assert any("great tournament" in e["text"] and e["to"] == "public" for e in t.ctx.events) \
        or t.saw("great tournament")


def test_m16_special_tournament_once(table):
    """Messages 11, optional rule: only once a game (another message is rolled)."""
    t = table(pos(), dice=D[11] + D[8], options={"rules": ("special_tournament_once",)})
    t.state["special_tournament"] = {"announced": 0, "turn": 3}
    rs.message(t.session())
    assert t.saw("already been proclaimed")


def test_m17_questing_beast(table):
    """Messages 12: sighted in a random kingdom (Cornwall); by the shortest route, found on a
    Luck Test for 12 VP; then it moves on (another kingdom) and may be pursued for 6 VP."""
    t = table(pos(), dice=D[12] + D[9] + [1] + [5] + D[3] + [1])
    s = t.session()
    rs.message(s)
    rec = t.knight()
    task = rec["tasks"][0]
    assert task["dest"] == "Cornwall" and task["grace"] == 0
    rec["luck"] = 4
    rec["at"] = {"area": "Cornwall", "where": "area"}
    tasks.arrive(s, task)
    assert rec["vp"] == 32
    new = rec["tasks"][-1]
    assert new["kind"] == "questing_beast" and new["land"] == "Scotland"
    assert new["status"] == "active" and new["sightings"] == 1


# ============================================================================== oaths
def test_o01_every_oath_of_the_chart(table):
    """Oaths chart 2-12: each total gives its oath."""
    for total, key in zip(range(2, 13), rs.OATH_KEYS):
        t = table(pos(), dice=D[total])
        assert rs.swear_oath(t.session(), "test") == key


def test_o02_duplicate_rerolled(table):
    """Oaths: a duplicate oath is rolled again."""
    t = table(pos(anna='oaths = ["never_yield"]'), dice=D[2] + D[3])
    assert rs.swear_oath(t.session(), "test") == "use_no_weapons"


def test_o03_break_costs_12(table):
    """Oaths: breaking an oath costs 12 VP and strikes it off."""
    t = table(pos(anna='oaths = ["do_not_eat"]'))
    rs.break_oath(t.session(), "do_not_eat")
    assert t.knight()["vp"] == 8 and t.knight()["oaths"] == []


def test_o04_cannot_break_without_vp(table):
    """Oaths: no willing break without VP to pay; Never Break Oaths forbids it altogether."""
    t = table(pos(vp=12, anna='oaths = ["always_travel_alone"]'),
              orders={"Anna": "on break_oath: break"})
    assert rs.oath_binds(t.session(), "always_travel_alone", "a comrade")
    t = table(pos(vp=40, anna='oaths = ["always_travel_alone", "never_break_oaths"]'),
              orders={"Anna": "on break_oath: break"})
    assert rs.oath_binds(t.session(), "always_travel_alone", "a comrade")
    t = table(pos(vp=40, anna='oaths = ["always_travel_alone"]'),
              orders={"Anna": "on break_oath: break"})
    assert not rs.oath_binds(t.session(), "always_travel_alone", "a comrade")
    assert t.knight()["vp"] == 28


def test_o05_release_needs_never_break_first(table):
    """Oaths 9: to be released from any oath, Never Break Oaths must go first."""
    t = table(pos(anna='oaths = ["do_not_eat", "never_break_oaths"]'))
    assert rs.release_oath(t.session()) == "never_break_oaths"
    assert t.knight()["oaths"] == ["do_not_eat"] and t.knight()["vp"] == 20


def test_o06_travel_alone_sends_company_away(table):
    """Oaths 10: sworn to travel alone, he parts from Dwarf, Mascot, Men-at-Arms and
    comrades."""
    t = table(pos(anna='comrades = ["Sir Kay"]\ndwarf = true\nmascot = "Brachet"'), dice=D[10])
    rs.swear_oath(t.session(), "test")
    rec = t.knight()
    assert rec["comrades"] == [] and rec["dwarf"] is None and rec["mascot"] is None


def test_o07_use_no_weapons_and_fasting_read_by_combat(table):
    """Oaths 3 and 11: no weapons means one die (unarmed); not eating halves combat rolls."""
    from companion.koc.engine.combat import Combat, Place, methods_for, npk

    t = table(pos(anna='oaths = ["use_no_weapons", "do_not_eat"]'), dice=[6, 5, 1, 1, 1])
    s = t.session()
    c = Combat(s, [npk(card("Sir Belleus"))], attacker="foe")
    assert methods_for(c.me, Place()) == ["unarmed"]
    total, _ = c.roll(c.me, c.foes[0])
    assert total == 3


def test_o08_spare_knights_and_no_advantage(table):
    """Oaths 6 and 7: fighting without advantage forces a fair method; sparing knights removes
    'slay' from the fates he may give."""
    from companion.koc.engine.combat import Combat, npk

    t = table(pos(anna='oaths = ["fight_without_advantage", "spare_knights"]'),
              orders={"Anna": "on method: lance"})
    s = t.session()
    foe = npk(card("Sir Belleus"))
    foe["mounted"] = False
    c = Combat(s, [foe], attacker="foe")
    c.choose_method(foe)
    assert c.me["method"] == "sword" and not c.unchivalrous


def test_o09_serve_only_present_lord(table):
    """Oaths 8: he may never change Lords."""
    from companion.koc.engine import service

    t = table(pos(vp=10, lord="King Mark", anna='oaths = ["serve_only_present_lord"]'))
    assert not service.change_lord(t.session(), card("King Ban", "king"))
    assert t.knight()["lord"]["name"] == "King Mark"


def test_o10_always_help_ladies_summons(table):
    """Oaths 4: a Lady Summons sends him at once by the shortest route (straying breaks the
    oath: 12 VP)."""
    t = table(lady_pos(anna=None) if False else lady_pos(), dice=D[8])
    t.knight()["oaths"] = ["always_help_ladies"]
    rs.message(t.session())
    task = t.knight()["tasks"][0]
    assert task["route"] == "direct" and task["penalty_vp"] == 12


def test_o11_never_yield_read_by_combat(table):
    """Oaths 2: sworn never to yield, he is never offered to yield during a fight."""
    from companion.koc.engine.combat import Combat, npk

    t = table(pos(anna='oaths = ["never_yield"]'), orders={"Anna": "on yield: yes"})
    c = Combat(t.session(), [npk(card("Sir Belleus"))], attacker="foe")
    assert not c.wants_to_yield(c.foes[0])


# ============================================================================== tricks
def test_t01_trick_escaped_hermit(table):
    """Tricks: escaped on a Luck Test; escaping a Hermit's trick earns 6 VP (the only case)."""
    t = table(pos(), dice=[5])
    t.knight()["luck"] = 4
    assert rs.trick(t.session(), {"kind": "hermit", "name": "the hermit"}, hermit=True)
    assert t.knight()["vp"] == 26


def trick(table, dice, orders=None, **kw):
    t = table(pos(**kw), dice=[1] + dice, orders=orders or {})
    t.knight()["luck"] = 4
    assert not rs.trick(t.session(), card("King Mark", "king"))
    return t


def test_t02_trick_abandon_lady(table):
    """Tricks 2: tricked into forsaking his Lady: 6 VP for the trick, 6 more and her award."""
    t = table(lady_pos(cp=125), dice=[1] + D[2])
    t.knight()["luck"] = 4
    rs.trick(t.session(), card("King Mark", "king"))
    assert t.knight()["lady"] is None and t.knight()["vp"] == 8 and t.knight()["cp"] == 100


def test_t03_trick_abandon_lord_without_lady(table):
    """Tricks 2: with no Lady, his Lord is forsaken."""
    t = trick(table, D[2], lord="King Mark")
    assert t.knight()["lord"] is None and t.knight()["vp"] == 8


def test_t04_trick_imprisonment(table):
    """Tricks 3: a castle is placed where he stands and he is imprisoned in it; no appeal
    until next turn."""
    t = trick(table, D[3], at="Somerset")
    rec = t.knight()
    assert rec["prison"]["castle"] == "King Mark's castle"
    assert t.state["castles"]["King Mark's castle"]["area"] == "Somerset"


def test_t04b_trick_imprisonment_at_a_map_castle(table):
    """Tricks 3: tricked at a map castle (riding up to Bamburgh), he is already at a castle:
    he is held in Bamburgh itself, no counter is placed inside it, and once free he plays on
    there (found by random play: a counter on a castle area made the next 'stay' fail)."""
    t = trick(table, D[3], at="Bamburgh")
    rec = t.knight()
    assert rec["prison"]["castle"] == "Bamburgh" and not t.state.get("castles")
    assert rec["at"] == {"area": "Bamburgh", "where": "prison"}


def test_t05_trick_fight_unarmed(table):
    """Tricks 4: a random knight fought bare-handed, without awards."""
    t = trick(table, D[4] + [6, 1, 1] + [6, 6], cp=300, vp=60, extra=DECK_WEAK)
    assert t.saw("unarmed") or t.saw("Combat")
    assert "use_no_weapons" not in t.knight()["oaths"] and t.knight()["cp"] == 300


def test_t06_trick_break_oath(table):
    """Tricks 5: one sworn oath is broken (12 VP); with none, one is sworn."""
    t = trick(table, D[5], anna='oaths = ["do_not_eat"]', vp=30)
    assert t.knight()["oaths"] == [] and t.knight()["vp"] == 12
    t = trick(table, D[5] + D[11])
    assert t.knight()["oaths"] == ["do_not_eat"]


def test_t07_trick_lose_horses(table):
    """Tricks 6: his horse and the Dwarf's spare horse are given away."""
    t = trick(table, D[6], anna='dwarf = {arthurian = false, spares = ["horse", "lance"]}')
    assert not t.knight()["gear"]["horse"] and t.knight()["dwarf"]["spares"] == ["lance"]


def test_t08_trick_lie(table):
    """Tricks 7: a lie: only 1 VP lost."""
    t = trick(table, D[7])
    assert t.knight()["vp"] == 19


def test_t09_trick_fight_enemy_alone(table):
    """Tricks 8: a random knight fought alone (companions and comrades do not help)."""
    t = trick(table, D[8] + BEAT + [6, 6], cp=300, vp=60, extra=DECK_WEAK,
              anna='comrades = ["Sir Kay"]')
    assert t.saw("Combat: Anna")


def test_t10_trick_lose_lance(table):
    """Tricks 9: his lance and the spare one are given away."""
    t = trick(table, D[9], anna='dwarf = {arthurian = false, spares = ["lance"]}')
    assert not t.knight()["gear"]["lance"] and t.knight()["dwarf"]["spares"] == []


def test_t11_trick_escort_pilgrims(table):
    """Tricks 10: pilgrims to a random shrine, no award; refusing or a detour costs 12 VP."""
    t = trick(table, D[10] + [3])
    task = t.knight()["tasks"][0]
    assert task["dest"] == "Llanthony" and task["penalty_vp"] == 12 and task["awards"] == {}
    t = trick(table, D[10], orders={"Anna": "on trick_task: refuse"})
    assert t.knight()["vp"] == 2


def test_t12_trick_message(table):
    """Tricks 11: a message to a random royal castle, no award, 12 VP for refusing or a
    detour."""
    t = trick(table, D[11] + D[9])
    task = t.knight()["tasks"][0]
    assert task["dest"] == "Tintagel" and task["penalty_vp"] == 12


def test_t13_trick_prophecy(table):
    """Tricks 12: an adventure as a Prophecy, with its awards (6:4 trolls at a lady's
    castle)."""
    t = trick(table, D[12] + [6, 4, 1, 1, 1], extra='[decks]\nladies = ["Lady Enid"]\n')
    task = t.knight()["tasks"][0]
    assert task["prophecy"] and task["adventure"]["awards"] is True
    assert task["adventure"]["castle"] == "Castle Cardigan" and task["dest"] == "Surluise"



def test_t14_a_penalty_at_the_limit_says_nothing_was_lost(table):
    """GLOSSARY: a knight has at least 1 VP and 10 CP, at most 300 CP. Tricked into a lie at
    1 VP (Tricks 7) he loses nothing: rules edition 3 says so ("loses no VP ...: 1 VP is the
    least a knight may have"); a game begun under edition 2 keeps the words its turns
    recorded, "gains 0 VP". CP at 300 likewise: "gains no CP"."""
    for edition, said in ((3, "Anna loses no VP (falling for a trick): 1 VP is the least a "
                              "knight may have; VP 1"),
                          (2, "Anna gains 0 VP (falling for a trick); VP 1")):
        t = table(pos(vp=1), dice=[1] + D[7])
        t.state["edition"] = edition
        t.knight()["luck"] = 4
        assert not rs.trick(t.session(), card("King Mark", "king"))
        assert t.knight()["vp"] == 1 and t.saw(said), edition
    t = table(pos(cp=300))
    s = t.session()
    s.gain_cp(6, "the lesson of defeat")
    s.gain_cp(-20, "a scar")
    assert t.saw("Anna gains no CP (the lesson of defeat): 300 CP is the most a knight may "
                 "have") and t.saw("Anna loses 20 CP (a scar)")
    s.gain_vp(-1, "a lie")
    assert t.knight()["vp"] == 19 and t.saw("Anna loses 1 VP (a lie)")

# ============================================================================== adventures
def test_a01_sir_robert_hightower(table):
    """Pursuing Adventures, the rules' example: Sir Robert is inside Tintagel after a friendly
    reaction, has a Luck-of-the-Day of 3 and tests 4: King Mark tells him of an adventure. He
    may stay one turn (to ask for Men-at-Arms) but must set off the turn after, or it
    vanishes."""
    t = table(pos(cp=60, vp=8, at="Tintagel", where="inside", anna='name = "Sir Robert"'),
              dice=[3, 4, 4, 3], orders={"Anna": "stay\nrequest adventure of king"})
    rec = t.knight()
    rec["met"] = [{"kind": "king", "card": card("King Mark", "king"), "attitude": "friendly"}]
    assert t.play()
    assert t.saw("rolled 4, needing 3 or more: success")
    task = rec["tasks"][0]
    assert task["adventure"]["id"] == "4:3" and task["status"] == "active"
    s = t.session()
    tasks.after_movement(s, "Tintagel", [], True)         # next turn: he stays, asking
    assert task["status"] == "active"
    tasks.after_movement(s, "Tintagel", [], True)         # and again: the adventure vanishes
    assert task["status"] == "failed"


def test_a02_decline_requested_adventure(table):
    """Explanation of Requests, Adventure: turning it down makes the host unfriendly (not the
    Lord); from his Lady, he is dismissed."""
    t = table(pos(at="Tintagel", where="inside", anna='friendly = ["Tintagel"]'),
              dice=[1, 1], orders={"Anna": "on adventure: decline"})
    s = t.session()
    rs.adventure_news(s, card("King Mark", "king"), requested=True)
    assert "Tintagel" not in t.knight()["friendly"]


def test_a03_prophecy_matching_adventure(table):
    """Prophecies: a Prophecy matching an adventure he pursues turns it into a Prophecy."""
    t = table(pos(), dice=[4, 3, 4, 3])
    s = t.session()
    rs.adventure_news(s, {"kind": "hermit", "name": "a hermit"})
    rs.adventure_news(s, {"kind": "merlin", "name": "Merlin"}, prophecy=True)
    rec = t.knight()
    assert len(rec["tasks"]) == 1 and rec["tasks"][0]["prophecy"]


def test_a04_arthur_adds_one_and_sends_a_man(table):
    """Adventure from King Arthur: each die +1 (7 counts 6), no grace, and one Arthurian
    Man-at-Arms if he has none."""
    t = table(pos(extra='[decks]\nknights = ["Sir Belleus", "Sir Gareth"]\n'), dice=[3, 2])
    rs.adventure_news(t.session(), card("King Arthur", "king"))
    rec = t.knight()
    task = rec["tasks"][0]
    assert task["adventure"]["id"] == "4:3" and task["grace"] == 0
    assert rec["men_at_arms"][0]["name"] == "Sir Gareth"


def test_a05_lord_rerolls(table):
    """Explanation of Requests: from the Lord a 2:2 is rolled again, and 6:5 is Save your Lady
    (rolled again without a Lady)."""
    t = table(pos(lord="King Mark"), dice=[2, 2, 6, 5, 4, 3])
    rs.adventure_news(t.session(), card("King Mark", "king"), requested=True)
    assert t.knight()["tasks"][0]["adventure"]["key"] == "pilgrimage_canterbury"


def test_a06_own_lady_dismisses_on_decline(table):
    """Explanation of Requests, Adventure: turning down his own Lady's adventure, the PK is
    dismissed from her service and loses her award."""
    t = table(lady_pos(cp=125), dice=[4, 3], orders={"Anna": "on adventure: decline"})
    rs.adventure_news(t.session(), card("Lady Lyonesse", "lady"), requested=True)
    assert t.knight()["lady"] is None and t.knight()["cp"] == 100


def test_a07_enchantress_adventure_cannot_be_declined(table):
    """Explanation of Requests, Adventure: from the Enchantress he serves, an adventure cannot
    be turned down."""
    t = table(pos(anna='lady = "Queen of North Wales"\nenchantress = "Queen of North Wales"'),
              dice=[4, 3], orders={"Anna": "on adventure: decline"})
    task = rs.adventure_news(t.session(), card("Queen of North Wales", "lady"), requested=True)
    assert task is not None and t.knight()["lady"] is not None


def test_i14_storm_lost_means_prison(table):
    """Rescuing a Prisoner: a knight beaten storming the castle is imprisoned there."""
    t = table(pos(cp=20, vp=5, at="Tintagel", where="gate",
                  extra='[decks]\nknights = ["Sir Lancelot"]\n'),
              dice=[1, 1, 1, 1, 6, 6, 6], orders={"Anna": "on yield: no"})
    assert not rs.storm_castle(t.session(), "Tintagel")
    assert t.knight()["prison"]["castle"] == "Tintagel"


def test_o12_conflicting_oaths_first_sworn_holds(table):
    """Oaths / Competing Obligations: sworn first to travel alone, then to grant every request,
    an escort asked as aid breaks the later oath (12 VP) and is refused (6 VP)."""
    t = table(pos(vp=40, anna='oaths = ["always_travel_alone", "always_grant_requests"]'),
              dice=D[10])
    assert not rs.request_aid(t.session(), card("King Mark", "king"))
    assert t.knight()["oaths"] == ["always_travel_alone"] and t.knight()["vp"] == 22



def test_o12b_only_the_oaths_at_issue_pull_apart(table):
    """Oaths / Competing Obligations: King Mark asks Anna to escort him home (Aid 10). Her oath
    to help ladies does not bear on a King; only her oath to grant every request pulls against
    her oath to travel alone. Sworn to help ladies first, then to travel alone, then to grant
    requests: the oath to travel alone is the elder of the two at issue, so the oath to grant
    requests is broken (12 VP), the aid refused (6 VP) and the oath to help ladies kept. Sworn
    to travel alone first, only the oath to grant requests is broken as well (rules edition 7:
    resolutions.ONLY_OATHS_AT_ISSUE). A game of edition 6 keeps its reading: the oath to help
    ladies counted whoever asked, so in the first case the oath to travel alone was broken and
    the escort given, and in the second both other oaths were broken."""
    first = '["always_help_ladies", "always_travel_alone", "always_grant_requests"]'
    second = '["always_travel_alone", "always_grant_requests", "always_help_ladies"]'
    for ed in (7, 6):
        t = table(pos(vp=40, anna=f"oaths = {first}"), dice=D[10])
        t.state["edition"] = ed
        done = rs.request_aid(t.session(), card("King Mark", "king"))
        rec = t.knight()
        if ed >= 7:
            assert not done and rec["vp"] == 22 and t.saw("refusing aid")
            assert rec["oaths"] == ["always_help_ladies", "always_travel_alone"]
        else:
            assert done and rec["vp"] == 28 and rec["tasks"][0]["kind"] == "escort"
            assert rec["oaths"] == ["always_help_ladies", "always_grant_requests"]
        t = table(pos(vp=40, anna=f"oaths = {second}"), dice=D[10])
        t.state["edition"] = ed
        assert not rs.request_aid(t.session(), card("King Mark", "king"))
        rec = t.knight()
        if ed >= 7:
            assert rec["oaths"] == ["always_travel_alone", "always_help_ladies"]
            assert rec["vp"] == 22
        else:
            assert rec["oaths"] == ["always_travel_alone"] and rec["vp"] == 10


# ============================================================================== at sea
SHIP = {"kind": "ship", "name": "Curragh", "wl": 16, "dice": 2}


def aboard(table, sea="Celtic Sea", dice=(), **kw):
    """Anna aboard a ship on ``sea``."""
    t = table(pos(at=sea, where="ship", **kw), dice=list(dice))
    t.knight()["ship"] = dict(SHIP)
    return t, t.session()


def no_castle_at_sea(t) -> bool:
    return all(t.world.areas[c["area"]].kind != "sea"
               for c in t.state.get("castles", {}).values())


def test_s01_enchantress_casts_into_a_dungeon_at_sea(table):
    """Sea 10 and Enchantments 5 (found by random play, seed 27): an Enchantress hidden aboard
    casts the knight into a dungeon 'in a local castle' on the Celtic Sea. No castle stands on
    a sea (only ships enter sea areas), so the ship puts in at a castle whose port opens on
    that sea, Howel or Tintagel (a die: 1-3 Howel, 4-6 Tintagel), and he is its prisoner
    there: on land, without his ship, no direct appeal. Before the fix he was held in 'the
    castle in Celtic Sea', released into the sea without a ship, and his next 'stay' raised
    an error."""
    t = table(pos(at="Tintagel", where="ship",
                  extra='[decks]\nladies = ["Annowre the Sorceress"]\n'),
              dice=[4] + D[10] + [1, 1] + D[5] + [5],
              orders={"Anna": "sail Celtic Sea"})
    t.knight()["ship"] = dict(SHIP)
    assert t.play()
    rec = t.knight()
    assert t.saw("Cast into a dungeon")
    assert t.saw("No castle stands on Celtic Sea: the nearest a ship puts in at is Tintagel")
    assert t.saw("Anna is thrown into the prison of Tintagel by Annowre the Sorceress")
    assert rec["prison"]["castle"] == "Tintagel" and not rec["prison"]["direct"]
    assert rec["at"] == {"area": "Tintagel", "where": "prison"} and "ship" not in rec
    assert no_castle_at_sea(t) and not t.unused_dice
    rs.release_pk(t.session())                 # set free: at Tintagel's gate, on land
    assert rec["at"] == {"area": "Tintagel", "where": "gate"}


def test_s02_every_imprisonment_at_sea_is_on_land(table):
    """Knight's Fate 14 (a King's or a knight's prisoner), Enchantments 5, Trick 3 (no castle
    counter can be deployed on the knight at sea) and any other prison: at sea the local
    castle is one whose port opens on that sea; the Bay of Biscay has none, so the nearest
    are those of the Celtic Sea next to it (the die, 2, picks Howel)."""
    for by in ("king", "knight", "enchantment", "trick", "castle"):
        t, s = aboard(table, "Bay of Biscay", dice=[2])
        rs.imprison(s, by=by, jailor="Sir Gauter")
        rec = t.knight()
        assert rec["prison"]["castle"] == "Howel", by
        assert rec["at"] == {"area": "Howel", "where": "prison"} and "ship" not in rec
        assert rec["prison"]["direct"] == (by == "king")
        assert no_castle_at_sea(t) and not t.unused_dice


def test_s03_trick_imprisonment_at_sea(table):
    """Tricks 3 at sea: the trick of a lady hidden aboard; failing the Luck Test, he is
    imprisoned at a port castle of the Narrow Sea (Magouns, its only one), not in a castle
    counter put on the sea."""
    t, s = aboard(table, "Narrow Sea", dice=[1] + D[3])
    assert not rs.trick(s, card("Lady Enid", "lady"))
    rec = t.knight()
    assert rec["prison"]["castle"] == "Magouns" and rec["at"]["area"] == "Magouns"
    assert no_castle_at_sea(t) and not t.unused_dice


def test_s04_aids_asked_at_sea_need_a_castle_on_land(table):
    """Aids 3 and 5 asked by a lady met at sea: the prisoner is held, and the lady to be
    courted lives, in a castle on land near the sea (a port castle of the Celtic Sea, or a
    castle counter in the countryside around one)."""
    t, s = aboard(table, dice=D[3] + [1], extra=DECK_WEAK)
    assert rs.request_aid(s, card("Lady Enid", "lady"))
    task = t.knight()["tasks"][0]
    assert task["kind"] == "rescue" and task["castle"] == "Howel"
    t, s = aboard(table, dice=D[5] + [6], extra='[decks]\nladies = ["Lady Lyonesse"]\n')
    assert rs.request_aid(s, card("Sir Belleus"))
    assert t.state["castles"]["Castle Perilous"]["area"] == "Cornwall"
    assert no_castle_at_sea(t) and t.knight()["at"] == {"area": "Celtic Sea", "where": "ship"}


def test_s05_local_adventure_sites_at_sea_are_on_land(table):
    """Adventures 1:1 (court a lady in a local castle) and 2:3 (a local site) told of at sea:
    the local castle stands, and the local site lies, on land by the sea."""
    t, s = aboard(table, dice=[1], extra='[decks]\nladies = ["Lady Lyonesse"]\n')
    task = rs.adventure_news(s, card("Sir Belleus"), rolled="court_lady")
    assert task["adventure"]["castle"] == "Castle Perilous" and task["dest"] == "Brittany"
    assert t.state["castles"]["Castle Perilous"]["area"] == "Brittany" and not t.unused_dice
    t, s = aboard(table, dice=[6], extra=DECK_WEAK)
    task = rs.adventure_news(s, card("Sir Belleus"), rolled="vanquish_knight")
    assert task["dest"] == "Cornwall" and no_castle_at_sea(t) and not t.unused_dice


def test_s06_a_local_royal_castle_heard_of_in_faerie(table):
    """Found by random play: an animal met in Faerie told of a local adventure at a royal
    castle (3:6, Champion of a king). Faerie is no kingdom of the map and has no royal castle:
    the site is a random royal castle, as for 'the local royal castle' (it used to stop with
    KeyError 'Faerie')."""
    t = table(pos(at="Faerie", extra=DECK_WEAK), dice=[3, 3, 3, 3, 3, 3])
    s = t.session()
    task = rs.adventure_news(s, {"kind": "animal", "name": "the white hart"},
                             rolled="kings_champion", local=True)
    castle = task["adventure"].get("castle") or task["dest"]
    assert castle in {k.royal_castle for k in t.world.kingdoms.values()} | {
        c.castle for c in t.world.castellanies.values()}


def test_s07_cards_nobody_holds_go_back_at_the_end_of_the_game_turn(table):
    """Found by random play (seed 32617, 4 knights, turn 116): the knights drawn to hold a
    castle against an assault, or to fight for a jailor, and a jailor whose prisoner went free,
    were never given back; over a long game 40 of the 75 Knight cards went missing until no
    card fitted an adventure's draw and the turn stopped with RuntimeError. At the end of each
    game turn a card in no pile that the state no longer names goes back to its deck; one the
    state still names (a prisoner's jailor, a comrade) stays out; one a knight only remembers
    (whom he challenged) goes back: a memory holds no card (docs/koc-engine.md)."""
    from companion.koc.engine.game import process

    t = table(pos(at="Tintagel", where="inside"))
    s = t.session()
    rs.imprison(s, by="knight", jailor="Sir Elias")
    knights = t.state["decks"]["knights"]
    for name in ("Sir Elias", "Sir Gauter", "Sir Hemison", "Sir Safer"):
        knights["draw"].remove(name)                     # drawn this turn, then...
    t.knight()["challenged"].append("Sir Hemison")       # ...only remembered
    t.knight()["comrades"].append(card("Sir Safer"))      # ...riding with him
    t.game.return_strays()
    assert sorted(knights["discard"]) == ["Sir Gauter", "Sir Hemison"]   # in the cards' order
    assert "Sir Elias" not in knights["draw"] + knights["discard"]     # the jailor holds him
    rs.release_pk(s)
    t.game.return_strays()
    assert knights["discard"][-1] == "Sir Elias"
    assert "Sir Safer" not in knights["draw"] + knights["discard"]
    # a whole game turn ends with the sweep
    knights["draw"].remove("Sir Belleus")
    t.state["koc"]["current"] = len(t.state["koc"]["order"])
    process(t.world, t.state, t.ctx)
    assert "Sir Belleus" in knights["draw"] + knights["discard"]


def test_s08_a_turn_paused_in_the_requests_phase_keeps_no_dice_its_tidying_drew(table,
                                                                                monkeypatch):
    """Found by random play (seed 32973, game turn 59): a turn paused on a question of the
    requests phase (who prays for the afflicted lady); as the pause unwound, the phase's
    tidying put the knights met this turn back in their deck, which was reshuffled, and the
    shuffle was kept with the paused turn's dice. Answered, the turn played again asked for
    the prayer's die where the record held the shuffle (ChanceError). A paused turn keeps only
    the dice drawn before its question (docs/koc-engine.md)."""
    from companion.koc.engine import adventures
    from companion.koc.engine.session import Question
    from companion.koc.orders import parse_orders

    monkeypatch.setattr(adventures, "requests_hook", lambda s: s.ask(Question(
        "adventure_prayer", "Who prays for the lady?", ["best", "none"], "best")))
    t = table(pos(at="Tintagel", where="inside"), orders={"Anna": "stay"},
              options={"missing": "wait"})
    knights = t.state["decks"]["knights"]
    first, met = knights["draw"][:2]
    knights["draw"], knights["discard"] = [first], []
    t.knight()["met"] = [{"kind": "knight", "card": {"kind": "knight", "name": met},
                          "turn": t.state["koc"]["turn"]}]
    assert not t.play()
    pending = t.state["pending"]["Anna"]
    assert pending["question"]["key"] == "adventure_prayer"
    assert [d["kind"] for d in pending["dice"] if d["kind"] == "shuffle"] == []
    t.game.orders["Anna"] = parse_orders(t.world, ["Anna"],
                                         "stay\nanswer adventure_prayer: best", "a.txt")
    assert t.play()                                  # no ChanceError: the same turn, answered
    knights = t.state["decks"]["knights"]
    assert sorted(knights["draw"] + knights["discard"]) == sorted([first, met])


def test_i15_a_prisoner_is_offered_the_line_his_waiting_turn_needs(table):
    """Imprisonment, with missing=wait. Found by random play (a prisoner awaited first in
    seed-chaos games 2026, 2031, 2051, 2061): a knight in prison had no legal order line at all
    (`companion options` printed nothing, his report offered nothing), yet his player turn
    waits for his orders under missing=wait, so a player going by his report could never
    release it. Now 'stay' is offered, it is accepted, and it lets the prison phase run.
    (Options are not replayed: no rules edition.)"""
    from companion.engine.chance import Chance, seed_key
    from companion.engine.game import TurnContext
    from companion.koc.kind import KIND

    t, s = prisoner(table, D[2])
    state = t.state
    assert state["knights"]["Anna"]["at"]["where"] == "prison"
    assert KIND.options_for(state, "Anna") == ["stay"]
    orders = KIND.parse_orders(state, "Anna", "stay\n", "anna.txt")
    KIND.check_orders(state, "Anna", orders, "anna.txt")
    options = {"missing": "wait", "scenario": state["koc"]["scenario"],
               "first-player": "fixed", "rules": ()}
    key = seed_key("i15")
    waiting = copy.deepcopy(state)
    ctx = TurnContext(turn=2, key=key, chance=Chance(key, 2), orders={}, options=options)
    KIND.process(waiting, ctx)
    assert "Anna's turn waits for orders." in [e["text"] for e in ctx.events]
    ctx = TurnContext(turn=2, key=key, chance=Chance(key, 2, dice=D[7]),
                      orders={"Anna": orders}, options=options)
    KIND.process(state, ctx)
    texts = [e["text"] for e in ctx.events]
    assert "Anna's turn waits for orders." not in texts
    # his turn runs: the prison phase goes on to what he must decide there, which his report
    # then asks with its own lines
    assert texts == ["Anna's turn waits for an answer."] and "Anna" in state["pending"]
    assert KIND.options_for(state, "Anna") and all(
        line.startswith("answer ") for line in KIND.options_for(state, "Anna"))
