"""Prayers and requests: a casebook (rules: PRAYERS & REQUESTS, King Arthur Request Reaction
Chart, SCENARIOS: Basic Scenario, COMRADE & COMPANION RETENTION). Dice are explicit; the
Luck-of-the-Day is set to 4."""
from __future__ import annotations

from kocpos import card, pos

from companion.koc.engine import knight as kn
from companion.koc.engine import requests as rq
from companion.koc.engine import tasks
from companion.koc.engine.movement import immobilised

D = {2: [1, 1], 3: [1, 2], 4: [2, 2], 5: [2, 3], 6: [3, 3], 7: [3, 4], 8: [4, 4], 9: [4, 5],
     10: [5, 5], 11: [5, 6], 12: [6, 6]}
LYONESSE = ('\n[castles]\n"Castle Perilous" = {area = "Somerset", owner = "Lady Lyonesse", '
            'kind = "lady"}\n')


def run(table, position, orders, dice=(), met=(), luck=4, player="Anna"):
    """The requests phase alone, with the given orders and persons met this turn."""
    t = table(position, dice=list(dice), orders={player: orders})
    rec = t.knight(player)
    rec["luck"] = luck
    if met:
        rec["met"] = [{"kind": c["kind"], "card": c, "attitude": "friendly"} for c in met]
    rq.requests_phase(t.session(player))
    return t


def at_tintagel(**kw):
    return pos(at="Tintagel", where="inside", **kw)


# ============================================================================== requests
def test_q01_castle_owner_meeting_and_luck(table):
    """Requests: in a friendly castle the owner is met on a Luck Test, then the request needs
    another (King Mark grants Men-at-Arms: d6 5 gives 3)."""
    t = run(table, at_tintagel(extra='[decks]\nknights = ["Sir Belleus", "Sir Gauter", '
                               '"Sir Hemison"]\n'), "request men at arms of king",
            dice=[4, 5, 5])
    assert len(t.knight()["men_at_arms"]) == 3


def test_q01b_a_lord_grants_three_men_at_arms(table):
    """Lord Service (a Lord other than King Arthur always grants the most Men-at-Arms, three):
    Anna serves King Mark; met in Tintagel (luck 4) he grants the request (5), and no die is
    rolled for how many."""
    t = run(table, at_tintagel(lord="King Mark",
                               extra='[decks]\nknights = ["Sir Belleus", "Sir Gauter", '
                               '"Sir Hemison"]\n'), "request men at arms of king", dice=[4, 5])
    assert not t.unused_dice
    assert [m["name"] for m in t.knight()["men_at_arms"]] == [
        "Sir Belleus", "Sir Gauter", "Sir Hemison"]


def test_q02_castle_owner_not_received(table):
    """Requests: failing the Luck Test to meet the castle's owner, no request is heard."""
    t = run(table, at_tintagel(), "request dwarf of king", dice=[2])
    assert t.knight()["dwarf"] is None and t.saw("does not receive")


def test_q03_request_refused_then_persisting(table):
    """Persistence: the same request of the same person next turn, staying put, is +1 (and the
    owner need not be met again)."""
    t = table(at_tintagel(), dice=[4, 3, 3], orders={"Anna": "request dwarf of king"})
    s = t.session()
    rec = t.knight()
    rec["luck"] = 4
    rq.requests_phase(s)
    assert rec["dwarf"] is None
    t.state["koc"]["turn"] = 2
    rq.requests_phase(s)
    assert rec["dwarf"] is not None and t.saw("rolled 3+1 = 4, needing 4 or more: success")


def test_q04_adventure_of_king(table):
    """Request Adventure of a King (a friendly reaction of his castle met him already)."""
    t = run(table, at_tintagel(), "request adventure", dice=[4, 4, 3],
            met=[card("King Mark", "king")])
    assert t.knight()["tasks"][0]["adventure"]["key"] == "pilgrimage_canterbury"


def test_q05_appeal_to_jailor_of_pk_owner(table):
    """Appeal to Jailor: a PK castle owner must grant it (no Luck Test) and abide by it; here a
    player knight held there walks free (12)."""
    t = table(pos(at="Devon", others={
        "Bert": 'cp = 100\nvp = 20\nat = "Devon"\nlord = "King Arthur"',
        "Cara": 'cp = 60\nvp = 6\nat = "Devon"\nlord = "King Arthur"'},
        extra='[castles]\n"Bert\'s castle" = {area = "Devon", owner = "Bert", kind = "pk"}\n'),
        dice=D[12], orders={"Anna": "request appeal to jailor of castle owner"})
    from companion.koc.engine import resolutions as rs

    rs.imprison(t.session("Cara"), by="knight", jailor="Bert", castle="Bert's castle")
    for p in ("Anna", "Bert"):
        t.knight(p)["at"] = {"area": "Devon", "where": "inside", "castle": "Bert's castle"}
    t.knight()["luck"] = 6
    rq.requests_phase(t.session())
    assert t.knight("Cara")["prison"] is None


def test_q05b_every_castle_owner_hears_an_appeal_without_luck(table):
    """PRAYERS & REQUESTS: castle owners grant a request for an Appeal to Jailor without a Luck
    Test, the appeal having its own chance of failing. Inside Tintagel (friendly), Anna is
    received by King Mark (Luck Test 4) and appeals for Cara, his prisoner: 12, freed (rules
    edition 7: requests.JAILOR_HEARS_APPEALS). A game of edition 6 keeps its reading: only a
    player knight owner granted it unasked, so King Mark's grant needed a Luck Test (1: no)."""
    from companion.koc.engine import resolutions as rs

    for ed, dice in ((7, [4, *D[12]]), (6, [4, 1])):
        t = table(pos(at="Tintagel", where="inside", anna='friendly = ["Tintagel"]', others={
            "Cara": 'cp = 60\nvp = 6\nat = "Tintagel"\nlord = "King Arthur"'}), dice=dice,
            orders={"Anna": "request appeal to jailor of castle owner"})
        t.state["edition"] = ed
        rs.imprison(t.session("Cara"), by="king", jailor="King Mark", castle="Tintagel")
        t.knight()["luck"] = 4
        rq.requests_phase(t.session())
        assert t.saw("meet King Mark, the castle's owner): rolled 4") and t.unused_dice == []
        if ed >= 7:
            assert t.knight("Cara")["prison"] is None and not t.saw("grants the request")
        else:
            assert t.knight("Cara")["prison"]["castle"] == "Tintagel"
            assert t.saw("King Mark does not grant the request.")


def test_q06_arthurs_favour(table):
    """Arthur's Favour, from an Arthurian knight: +1 on King Arthur's next answer, then
    spent."""
    t = run(table, pos(), "request arthurs favour", dice=[5], met=[card("Sir Gareth")])
    assert t.knight()["arthur"]["favour"]


def test_q07_castle_of_lord(table):
    """Castle: only of the Lord, who first sets an adventure (a 2:2 is rolled again)."""
    t = run(table, pos(lord="King Mark"), "request castle of lord", dice=[5, 2, 2, 4, 3],
            met=[card("King Mark", "king")])
    task = t.knight()["tasks"][0]
    assert task["adventure"]["grants_castle"] and task["adventure"]["key"] == \
        "pilgrimage_canterbury"


def test_q08_dwarf_without_lord(table):
    """Dwarf: a full set of spare equipment; a knight without a Lord gets one matching his own
    equipment."""
    t = run(table, pos(lord=None, anna='gear = ["horse", "sword"]'), "request dwarf",
            dice=[5], met=[card("King Mark", "king")])
    assert t.knight()["dwarf"]["spares"] == ["horse", "sword"]


def test_q09_escort_king(table):
    """Escort: a King met on the road is bound home (1-2) to his royal castle; 1 VP a turn."""
    t = run(table, pos(), "request escort of king", dice=[5, 1],
            met=[card("King Mark", "king")])
    task = t.knight()["tasks"][0]
    assert task["kind"] == "escort" and task["dest"] == "Tintagel"
    assert t.knight()["party_extra"][0]["name"] == "King Mark"


def test_q10_escort_hermit_walks(table):
    """Escort: a Hermit walks to a random shrine (movement 1)."""
    t = run(table, pos(), "request escort of hermit", dice=[5, 3],
            met=[{"kind": "hermit", "name": "the hermit"}])
    assert t.knight()["tasks"][0]["dest"] == "Llanthony"
    assert kn.movement_allowance(t.knight()) == 1


def test_q10b_a_king_or_lady_is_escorted_only_on_horseback(table):
    """SERVICE (a King or Lady may be escorted only by a knight with a horse) with Requests,
    Escort: Anna serves a Lord but has lost her horse; asking King Mark on the road to let her
    escort him is refused before any Luck Test (rules edition 7:
    requests.ESCORT_ON_HORSEBACK, the reading of the reactions' escorts and of Aid 10, r16).
    A Hermit walks, so she may still escort him on foot. A game of edition 6 keeps its
    reading: only a knight without a Lord needed the horse, so the escort began."""
    for ed in (7, 6):
        t = table(pos(anna='gear = ["sword", "shield", "lance"]'), dice=[5, 1],
                  orders={"Anna": "request escort of king"})
        t.state["edition"] = ed
        rec = t.knight()
        rec["luck"] = 4
        rec["met"] = [{"kind": "king", "card": card("King Mark", "king"),
                       "attitude": "friendly"}]
        rq.requests_phase(t.session())
        if ed >= 7:
            assert rec["tasks"] == [] and rec["party_extra"] == []
            assert t.saw("King Mark rides: a King or Lady is escorted only on horseback, and "
                         "Anna has no horse.") and not t.saw("Luck test")
            assert t.unused_dice == [5, 1]
        else:
            assert rec["tasks"][0]["kind"] == "escort" and rec["tasks"][0]["dest"] == "Tintagel"
    t = run(table, pos(anna='gear = ["sword", "shield", "lance"]'), "request escort of hermit",
            dice=[5, 3], met=[{"kind": "hermit", "name": "the hermit"}])
    assert t.knight()["tasks"][0]["dest"] == "Llanthony"


def test_q11_escort_not_at_castle(table):
    """Escort is not asked of a King at his castle."""
    t = run(table, at_tintagel(), "request escort of king", dice=[5, 5])
    assert not t.knight()["tasks"] and t.saw("cannot grant")


def test_q12_heal_by_own_lady_automatic(table):
    """Heal: the Lord or Lady grants it without a Luck Test; her prayer (VL 2: a 2) cures one
    poisoned wound."""
    t = run(table, pos(anna='lady = "Lady Lyonesse"\npoison = 2\nheld_wl = 10', extra=LYONESSE),
            "request heal of lady", dice=[2], met=[card("Lady Lyonesse", "lady")])
    assert t.knight()["poison"] == 1


def test_q13_heal_by_hermit_all(table):
    """Heal: a Hermit heals every poisoned wound."""
    t = run(table, pos(anna="poison = 3\nheld_wl = 10"), "request heal of hermit", dice=[5],
            met=[{"kind": "hermit", "name": "the hermit"}])
    assert t.knight()["poison"] == 0 and t.knight()["held_wl"] is None


def test_q14_join_knight_and_dwarf(table):
    """Join: a Knight joins as a comrade; a Dwarf as a companion with no spare equipment."""
    t = run(table, pos(), "request join of knight", dice=[5], met=[card("Sir Belleus")])
    assert t.knight()["comrades"][0]["name"] == "Sir Belleus"
    t = run(table, pos(), "request join of dwarf", dice=[5],
            met=[{"kind": "dwarf", "name": "the dwarf"}])
    assert t.knight()["dwarf"] == {"arthurian": False, "spares": []}


def test_q15_lift_enchantment_by_prayer(table):
    """Lift Enchantment: the knight's prayer (a VL test: Sir Kay) ends one enchantment."""
    t = table(pos(), dice=[5, 6], orders={"Anna": "request lift enchantment of knight"})
    rec = t.knight()
    rec["luck"] = 4
    rec["animal"] = "Hart"
    rec["enchantments"] = [{"key": "change_into_animal", "animal": "Hart", "keep": {}}]
    rec["met"] = [{"kind": "knight", "card": card("Sir Kay"), "attitude": "friendly"}]
    rq.requests_phase(t.session())
    assert rec["animal"] is None and rec["enchantments"] == []


def test_q16_men_at_arms_from_lord_and_others(table):
    """Men-at-Arms: 1-3 knights (d6 1: one); the Lord always gives three; none while he has
    some."""
    t = run(table, pos(lord="King Arthur"), "request men at arms", dice=[5, 1],
            met=[card("King Mark", "king")])
    assert len(t.knight()["men_at_arms"]) == 1
    t = run(table, pos(lord="King Mark"), "request men at arms", dice=[5],
            met=[card("King Mark", "king")])
    assert len(t.knight()["men_at_arms"]) == 3
    t = run(table, pos(anna='men_at_arms = ["Sir Kay"]'), "request men at arms", dice=[5],
            met=[card("King Mark", "king")])
    assert len(t.knight()["men_at_arms"]) == 1 and t.saw("already has Men-at-Arms")


def test_q17_pardon(table):
    """Pardon: only the King of the kingdom he is exiled from lifts the exile."""
    t = run(table, pos(anna='exiles = ["Cornwall"]'), "request pardon", dice=[5],
            met=[card("King Mark", "king")])
    assert t.knight()["exiles"] == []
    t = run(table, pos(anna='exiles = ["Cornwall"]'), "request pardon", dice=[5],
            met=[card("King Ban", "king")])
    assert t.knight()["exiles"] == ["Cornwall"]


def test_q18_pilgrimage(table):
    """Pilgrimage: a Hermit sends him to a random shrine (12 VP on arrival, 12 lost on a
    detour)."""
    t = run(table, pos(), "request pilgrimage", dice=[5, 6],
            met=[{"kind": "hermit", "name": "the hermit"}])
    task = t.knight()["tasks"][0]
    assert task["dest"] == "Carbonek" and task["awards"] == {"vp": 12}
    assert task["penalty_vp"] == 12


def test_q19_release_from_enchantress(table):
    """Release from an Enchantress's service: a Hermit frees him (her award goes)."""
    t = run(table, pos(cp=120, anna='lady = "Queen of North Wales"\nenchantress = '
                       '"Queen of North Wales"'),
            "request release from enchantress", dice=[5],
            met=[{"kind": "hermit", "name": "the hermit"}])
    assert t.knight()["lady"] is None and t.knight()["enchantress"] is None
    assert t.knight()["cp"] == 100


def test_q20_release_from_oath(table):
    """Release from Oath: a Hermit lifts one oath without penalty."""
    t = run(table, pos(anna='oaths = ["do_not_eat"]'), "request release from oath", dice=[5],
            met=[{"kind": "hermit", "name": "the hermit"}])
    assert t.knight()["oaths"] == [] and t.knight()["vp"] == 20


def test_q21_service_of_king_and_refusal(table):
    """Service (Kings): granted, the King is the new Lord; turned down, the same King hears
    that request again only once the PK's CP or VP have grown."""
    t = run(table, pos(lord="King Mark"), "request service of king", dice=[5],
            met=[card("King Ban", "king")])
    assert t.knight()["lord"]["name"] == "King Ban"
    t = table(pos(lord="King Mark"), dice=[2], orders={"Anna": "request service of king"})
    rec = t.knight()
    rec["luck"] = 4
    rec["met"] = [{"kind": "king", "card": card("King Ban", "king"), "attitude": "friendly"}]
    rq.requests_phase(t.session())
    rec["met"] = [{"kind": "king", "card": card("King Ban", "king"), "attitude": "friendly"}]
    rq.requests_phase(t.session())
    assert rec["lord"]["name"] == "King Mark" and t.saw("declined him before")


def test_q21b_asking_for_a_new_lord_under_summons_costs_the_try(table):
    """Service, Changing Lords (under his Lord's Summons, the attempt costs 6 VP): Anna (20 VP),
    summoned by King Mark, asks King Ban, met on the road, for service. Rules edition 7
    (requests.SUMMONS_COSTS_THE_TRY): turned down (a 2 against luck 4) she still loses 6 VP
    and stays King Mark's, summons and all; granted (a 5) she loses the 6 VP once. A game of
    edition 6 keeps its reading: a refusal cost nothing, a grant 6 VP."""
    for ed in (7, 6):
        for die, granted in ((2, False), (5, True)):
            t = table(pos(lord="King Mark", anna="lord_summons = 1"), dice=[die],
                      orders={"Anna": "request service of king"})
            t.state["edition"] = ed
            rec = t.knight()
            rec["luck"] = 4
            rec["met"] = [{"kind": "king", "card": card("King Ban", "king"),
                           "attitude": "friendly"}]
            rq.requests_phase(t.session())
            assert not t.unused_dice
            assert rec["lord"]["name"] == ("King Ban" if granted else "King Mark")
            assert rec["lord_summons"] == (0 if granted else 1)
            assert rec["vp"] == (14 if granted or ed == 7 else 20)


def test_q22_service_of_lady(table):
    """Service (Ladies): alone with a friendly Lady he courts her: 6 VP and her award; not with
    comrades, nor while serving another."""
    t = run(table, pos(extra=LYONESSE), "request service of lady", dice=[5],
            met=[card("Lady Lyonesse", "lady")])
    assert t.knight()["lady"]["name"] == "Lady Lyonesse" and t.knight()["vp"] == 26
    assert t.knight()["cp"] == 125
    t = run(table, pos(anna='comrades = ["Sir Kay"]', extra=LYONESSE), "request service of lady",
            dice=[5], met=[card("Lady Lyonesse", "lady")])
    assert t.knight()["lady"] is None and t.saw("alone with her")


def test_q23_token(table):
    """Token: only his own Lady gives it."""
    t = run(table, pos(anna='lady = "Lady Lyonesse"', extra=LYONESSE), "request token of lady",
            dice=[5], met=[card("Lady Lyonesse", "lady")])
    assert t.knight()["token"]
    t = run(table, pos(), "request token of lady", dice=[5], met=[card("Lady Lyonesse", "lady")])
    assert not t.knight()["token"]


def test_q24_welcome(table):
    """Welcome: the castle becomes friendly for good to a fellow player knight."""
    t = table(at_tintagel(others={"Bert": 'cp = 50\nvp = 5\nat = "Tintagel"\nwhere = "inside"'
                                  '\nlord = "King Arthur"'}),
              dice=[5, 5], orders={"Anna": "request welcome of castle owner"})
    t.knight()["luck"] = 4
    rq.requests_phase(t.session())
    assert "Tintagel" in t.knight("Bert")["friendly"]


def test_q25_without_orders_nothing(table):
    """Without orders nothing is asked and no die is rolled."""
    t = table(pos(), dice=[1])
    t.knight()["met"] = [{"kind": "king", "card": card("King Mark", "king"),
                          "attitude": "friendly"}]
    rq.requests_phase(t.session())
    assert t.unused_dice == [1]


def test_q26_unfriendly_not_asked(table):
    """Requests: never of unfriendly persons."""
    t = table(pos(), dice=[5], orders={"Anna": "request join of knight"})
    t.knight()["met"] = [{"kind": "knight", "card": card("Sir Belleus"),
                          "attitude": "neutral"}]
    rq.requests_phase(t.session())
    assert not t.knight()["comrades"] and t.saw("Nobody in Hampshire can grant")   # q32


def test_q27_travel_alone_refuses_company(table):
    """Oaths 10: sworn to travel alone, he may not take on comrades."""
    t = run(table, pos(vp=10, anna='oaths = ["always_travel_alone"]'), "request join of knight",
            dice=[5], met=[card("Sir Belleus")])
    assert not t.knight()["comrades"]


def test_q28_no_lord_bars(table):
    """Lord Service: a knight without a Lord may not ask for an adventure or Men-at-Arms."""
    t = run(table, pos(lord=None), "request adventure", dice=[5], met=[card("King Mark", "king")])
    assert not t.knight()["tasks"] and t.saw("Without a Lord")


# ============================================================================== retention
def test_n01_comrades_retained_by_luck(table):
    """COMRADE & COMPANION RETENTION: on the road each comrade stays on a Luck Test; failing
    it, he leaves unless the knight persuades him (a VL check of the comrade's VL + 4: Sir
    Griflet, VL 4, needs 8). A comrade who joined him this game turn is not tested."""
    from companion.koc.engine.turn import retention_phase

    t = table(pos(anna='comrades = ["Sir Griflet", "Sir Kay"]'), dice=[1, 1, 1])
    rec = t.knight()
    rec["luck"] = 4
    rec["comrades"][1]["joined"] = 1
    retention_phase(t.session())
    assert [c["name"] for c in rec["comrades"]] == ["Sir Kay"]
    assert t.saw("VL check of Sir Griflet (Sir Griflet stays): rolled 1+1 against 8: failure")
    assert not t.saw("Sir Kay stays")


def test_n02_no_retention_test_in_his_ladys_castle(table):
    """COMRADE & COMPANION RETENTION: comrades check nothing in a friendly castle. Anna serves
    Lady Lyonesse and is inside her castle, Castle Perilous, a counter in Somerset (on her list
    since she entered the Lady's service): Sir Griflet is not tested (rules edition 7:
    turn.RETAINED_IN_ANY_FRIENDLY_CASTLE, which asks encounters.friendly_castle about the castle
    she is in; the same for her Lord's and her own castle and one friendly for the time
    being). A game of edition 6 keeps its reading: the area's name (Somerset) was looked for on
    her list, so Sir Griflet was tested and left."""
    from companion.koc.engine.turn import retention_phase

    for ed in (7, 6):
        t = table(pos(at="Somerset", anna='lady = "Lady Lyonesse"\nfriendly = ["Castle '
                      'Perilous"]\ncomrades = ["Sir Griflet"]', extra=LYONESSE),
                  dice=[1, 1, 1])
        t.state["edition"] = ed
        rec = t.knight()
        rec["at"] = {"area": "Somerset", "where": "inside", "castle": "Castle Perilous"}
        rec["luck"] = 4
        retention_phase(t.session())
        if ed >= 7:
            assert rec["comrades"][0]["name"] == "Sir Griflet" and t.events == []
        else:
            assert rec["comrades"] == [] and t.saw("Sir Griflet leaves Anna.")


def test_n03_an_adventure_done_sends_the_company_away(table):
    """COMRADE & COMPANION RETENTION and Requests, Men-at-Arms: once the knight has attempted
    an adventure to its end, his Men-at-Arms leave and every comrade leaves unless persuaded to
    stay (VL + 4), wherever it ends (here at Camelot; the end of an adventure is no Luck Test);
    a Man-at-Arms who joined him this game turn stays (rules edition 7:
    turn.COMPANY_ENDS_WITH_ADVENTURE). Sir Griflet (VL 4) stays on 12, Sir Kay (VL 6) leaves on
    2. A game of edition 6 keeps its reading: all rode on with him."""
    from test_koc_adventures import arrive, give, in_decks

    for ed in (7, 6):
        t = table(pos(at="Camelot Castle", where="inside",
                      anna='men_at_arms = ["Sir Lucan", "Sir Tor"]\n'
                           'comrades = ["Sir Griflet", "Sir Kay"]'), dice=[6, 6, 1, 1])
        t.state["edition"] = ed
        rec = t.knight()
        rec["men_at_arms"][1]["joined"] = 1
        task = give(t, "visit_king_arthur", "Camelot Castle")
        arrive(t, task)
        assert task["status"] == "done" and rec["cp"] == 106
        if ed >= 7:
            assert [m["name"] for m in rec["men_at_arms"]] == ["Sir Tor"]
            assert [c["name"] for c in rec["comrades"]] == ["Sir Griflet"]
            assert t.saw("With adventure 1:6 over, Anna's Man-at-Arms leaves him: Sir Lucan.")
            assert t.saw("Sir Kay leaves Anna.")
            assert in_decks(t, "knights", "Sir Lucan") and in_decks(t, "knights", "Sir Kay")
        else:
            assert len(rec["men_at_arms"]) == 2 and len(rec["comrades"]) == 2
            assert t.unused_dice == [6, 6, 1, 1]


# ============================================================================== King Arthur
def arthur(table, dice, request="heal", cp=120, vp=40, **kw):
    return run(table, pos(cp=cp, vp=vp, at="Camelot Castle", where="inside", lord="King Mark",
                          **kw), f"request {request} of arthur", dice=dice)


def test_k01_exiles(table):
    """King Arthur 2: refused; thrown out of Camelot and exiled from Jagent."""
    t = arthur(table, D[2])
    rec = t.knight()
    assert rec["at"] == {"area": "Camelot Castle", "where": "gate"} and "Jagent" in rec["exiles"]


def test_k02_unworthy_petition(table):
    """King Arthur: a petition for the Round Table below 100 CP or at VL 6+ is answered
    'Exiles' at once."""
    t = arthur(table, [], request="service", cp=90, vp=30)
    assert "Jagent" in t.knight()["exiles"] and t.unused_dice == []


def test_k03_task_slay_monster(table):
    """King Arthur 3: slay a random monster; found and slain, +2 on later answers."""
    t = arthur(table, D[3] + [1, 1, 1], extra='[draws]\nmonster = ["Lion 5"]\n')
    rec = t.knight()
    task = rec["tasks"][0]
    assert task["dest"] == "Surluise" and rec["arthur"]["task"]["kind"] == "task_slay_monster"
    s = t.session()
    t.chance._dice += [5, 6, 6, 6, 1, 1, 1]
    rec["at"] = {"area": "Surluise", "where": "area"}
    tasks.arrive(s, task)
    assert rec["arthur"]["bonus"] == 2 and rec["arthur"]["task"] is None
    assert "Camelot Castle" in rec["temp_friendly"]


def test_k04_task_adventure(table):
    """King Arthur 4: an adventure (dice +1) with an Arthurian Man-at-Arms; while a task is
    pending Arthur hears no request."""
    t = arthur(table, D[4] + [3, 2], extra='[decks]\nknights = ["Sir Gareth"]\n')
    rec = t.knight()
    assert rec["tasks"][0]["adventure"]["arthur_task"] and rec["men_at_arms"]
    t2 = run(table, pos(at="Camelot Castle", where="inside"), "request heal of arthur")
    t2.knight()["arthur"]["task"] = {"kind": "task_adventure"}
    rq.requests_phase(t2.session())
    assert t2.saw("no request while his task is undone")


def test_k05_task_adventure_for_adventure(table):
    """King Arthur 4: asked for an adventure, he sends the PK on one (no task bonus)."""
    t = arthur(table, D[4] + [3, 2], request="adventure",
               extra='[decks]\nknights = ["Sir Gareth"]\n')
    rec = t.knight()
    assert rec["arthur"]["task"] is None and rec["tasks"][0]["adventure"]["id"] == "4:3"


def test_k06_task_mad_knight(table):
    """King Arthur 5: retrieve a Mad Knight (adventure 5:3)."""
    t = arthur(table, D[5] + [1, 1, 1], extra='[decks]\nknights = ["Sir Belleus"]\n')
    task = t.knight()["tasks"][0]
    assert task["adventure"]["key"] == "mad_knight" and task["arthur_task"] == "task_mad_knight"


def test_k07_doubts_honour(table):
    """King Arthur 6: 6 VP lost; he may stay and ask again next turn."""
    t = arthur(table, D[6])
    assert t.knight()["vp"] == 34 and t.knight()["at"]["where"] == "inside"


def test_k08_task_joust(table):
    """King Arthur 7: joust three Arthurian knights (recorded for the tournament code)."""
    t = arthur(table, D[7])
    rec = t.knight()
    assert rec["arthur"]["joust"]["knights"] == 3 and rec["tasks"][0]["kind"] == "arthur_joust"


def test_k09_task_message_and_return(table):
    """King Arthur 8: a message to a random kingdom's royal castle (castellanies rolled again);
    done, the request is granted on his return."""
    t = arthur(table, D[8] + [3, 4, 2] + D[9], request="dwarf")
    rec = t.knight()
    task = rec["tasks"][0]
    assert task["dest"] == "Tintagel" and task["needs"] == "friendly_castle"
    s = t.session()
    rec["at"] = {"area": "Tintagel", "where": "inside"}
    tasks.arrive(s, task)
    assert rec["arthur"]["owed"] == "dwarf"
    rec["at"] = {"area": "Camelot Castle", "where": "inside"}
    rq.requests_phase(s)
    assert rec["dwarf"]["arthurian"]


def test_k10_task_brigands(table):
    """King Arthur 9: vanquish brigands (adventure 2:4)."""
    t = arthur(table, D[9])
    assert t.knight()["tasks"][0]["adventure"]["key"] == "vanquish_brigands"


def test_k11_task_court_then_petition(table):
    """King Arthur 10 and the Basic Scenario: two turns at court, then the request is granted;
    a petition is then a VL+1 test (VL 3: a 4) and the first Knight of the Round Table wins."""
    t = arthur(table, D[10] + [4], request="service")
    rec = t.knight()
    assert rec["immobile"][0]["turns"] == 2
    s = t.session()
    immobilised(s)
    immobilised(s)
    assert rec["arthurian"] and rec["lord"]["name"] == "King Arthur"
    assert t.state["koc"]["winner"] == "Anna"


def test_k12_task_feast(table):
    """King Arthur 11: one turn of feasting, then the request (heal: every wound)."""
    t = arthur(table, D[11], anna="poison = 2\nheld_wl = 12")
    s = t.session()
    immobilised(s)
    assert t.knight()["poison"] == 0


def test_k13_grants_and_friendship(table):
    """King Arthur 12+: the request is granted, and Camelot becomes friendly for good (8+).
    Arthur's Favour adds 1 (11 + 1) and is spent."""
    t = table(pos(cp=120, vp=40, at="Camelot Castle", where="inside", lord="King Mark",
                  anna="poison = 2\nheld_wl = 12"), dice=D[11],
              orders={"Anna": "request heal of arthur"})
    rec = t.knight()
    rec["luck"] = 4
    rec["arthur"]["favour"] = True
    rq.requests_phase(t.session())
    assert rec["poison"] == 0 and not rec["arthur"]["favour"]
    assert "Camelot Castle" in rec["friendly"]


def test_k13b_no_escort_of_king_arthur_in_his_castle(table):
    """Table of Possible Requests (a King is escorted unless at a Castle) with King Arthur's
    chart: at Camelot Anna asks King Arthur to let her escort him; he is in his castle, so the
    request is refused before his chart is rolled (rules edition 7: requests.ARTHUR_AT_HOME).
    A game of edition 6 keeps its reading: his chart was rolled (12, granted) and Anna set out
    to escort him to Camelot Castle, where they stood."""
    for ed in (7, 6):
        t = table(pos(cp=120, vp=40, at="Camelot Castle", where="inside", lord="King Mark"),
                  dice=D[12] + [1], orders={"Anna": "request escort of arthur"})
        t.state["edition"] = ed
        t.knight()["luck"] = 4
        rq.requests_phase(t.session())
        rec = t.knight()
        if ed >= 7:
            assert rec["tasks"] == [] and t.unused_dice == [6, 6, 1]
            assert t.saw("King Arthur is in his castle and needs no escort (Escort).")
        else:
            assert rec["tasks"][0]["kind"] == "escort"
            assert rec["tasks"][0]["dest"] == "Camelot Castle"


def test_k14_petition_fails_adds_one(table):
    """Basic Scenario 4: a failed VL+1 test adds +1 to the cumulative bonus."""
    t = arthur(table, D[12] + [2], request="service")
    assert not t.knight()["arthurian"] and t.knight()["arthur"]["bonus"] == 1


# ============================================================================== prayers
def test_w01_pk_prays_for_another(table):
    """Prayers: a PK's prayer (VL test) for another PK present heals one poisoned wound and
    earns 6 VP."""
    t = table(pos(others={"Bert": 'cp = 100\nvp = 20\nat = "Hampshire"\nlord = "King Arthur"'
                          '\npoison = 2\nheld_wl = 10'}), dice=[5],
              orders={"Anna": "pray for Bert to heal"})
    t.knight()["luck"] = 4
    rq.requests_phase(t.session())
    assert t.knight("Bert")["poison"] == 1 and t.knight()["vp"] == 26


def test_w02_not_for_himself_and_once(table):
    """Prayers: a PK may not pray for himself; one prayer a turn."""
    t = table(pos(others={"Bert": 'cp = 100\nvp = 20\nat = "Hampshire"\nlord = "King Arthur"'
                          '\npoison = 2\nheld_wl = 10'}), dice=[1],
              orders={"Anna": "pray for Anna to heal\npray for Bert\npray for Bert"})
    rq.requests_phase(t.session())
    assert t.saw("may not pray for himself") and t.saw("Only one prayer a turn")


def test_w03_pray_to_lift_sleep_after_finding(table):
    """Enchantments 12: another PK lifts the sleep by prayer at the sleeper's side, having
    found him (Luck Test)."""
    t = table(pos(others={"Bert": 'cp = 100\nvp = 20\nat = "Hampshire"\nlord = "King Arthur"'}),
              dice=[5, 6], orders={"Anna": "pray for Bert"})
    bert = t.knight("Bert")
    bert["asleep"] = True
    bert["enchantments"] = [{"key": "sleep", "turns": 3}]
    bert["immobile"] = [{"why": "sleep", "turns": 3, "then": "wake"}]
    t.knight()["luck"] = 4
    rq.requests_phase(t.session())
    assert not bert.get("asleep") and bert["immobile"] == []


def test_w04_pray_for_bound_mad_knight(table):
    """Prayers: a prayer for a bound Mad Knight cures him (he serves as Man-at-Arms)."""
    t = table(pos(), dice=[6], orders={"Anna": "pray for Sir Gauter"})
    t.knight()["party_extra"] = [{"kind": "bound_mad_knight", "name": "Sir Gauter",
                                  "card": card("Sir Gauter")}]
    rq.requests_phase(t.session())
    assert t.knight()["men_at_arms"][0]["name"] == "Sir Gauter"
    assert t.knight()["party_extra"] == [] and t.knight()["vp"] == 26


def test_w05_pray_for_mad_pk(table):
    """Prayers: a PK's prayer cures a fellow PK's madness."""
    t = table(pos(others={"Bert": 'cp = 100\nvp = 20\nat = "Hampshire"\nlord = "King Arthur"'}),
              dice=[5], orders={"Anna": "pray for Bert"})
    t.knight("Bert")["mad"] = {"since": 0}
    rq.requests_phase(t.session())
    assert t.knight("Bert")["mad"] is None


def test_w06_always_succeed(table):
    """Prayers: a hermit's prayer, and those of the six saintly persons (here Bors, Pellam and
    Elaine), are answered without a die."""
    from companion.koc.engine import service

    t = table(pos())
    s = t.session()
    for who in (card("Sir Bors"), card("King Pellam", "king"), card("Lady Elaine", "lady"),
                {"kind": "hermit", "name": "a hermit"}):
        assert service.pray(s, who, "test")
    assert t.chance.outcomes == []


def test_w07_no_prayer_in_faerie(table):
    """Faerie: prayer does not work there."""
    t = table(pos(at="Faerie", others={"Bert": 'cp = 100\nvp = 20\nat = "Faerie"\n'
                                       'lord = "King Arthur"\npoison = 1\nheld_wl = 10'}),
              orders={"Anna": "pray for Bert"})
    rq.requests_phase(t.session())
    assert t.saw("does not work in Faerie") and t.knight("Bert")["poison"] == 1


def test_w08_request_prayer_of_another_pk(table):
    """Requests of a fellow PK: he prays (his VL test; 6 VP to him when answered)."""
    t = table(pos(anna="poison = 1\nheld_wl = 10",
                  others={"Bert": 'cp = 100\nvp = 20\nat = "Hampshire"\nlord = "King Arthur"'}),
              dice=[5], orders={"Anna": "request heal of Bert"})
    rq.requests_phase(t.session())
    assert t.knight()["poison"] == 0 and t.knight("Bert")["vp"] == 26


def test_w09_mad_pk_recovers_at_end_of_turn(table):
    """Mad Player Knights: the requests phase of a mad PK is his two recovery Luck Tests."""
    t = table(pos(turn=2), dice=[5, 6], orders={"Anna": "request heal of king"})
    t.knight()["mad"] = {"since": 1}
    t.knight()["luck"] = 4
    rq.requests_phase(t.session())
    assert t.knight()["mad"] is None


def test_q29_courting_the_lady_of_a_friendly_castle(table):
    """Service (Ladies): a Lady friendly only because her castle is: she is met (Luck Test),
    her reaction is rolled first, and only if she stays friendly is the Luck Test made."""
    t = table(pos(at="Somerset", anna='friendly = ["Castle Perilous"]', extra=LYONESSE),
              dice=[5, 5, 5, 5, 5, 5, 5], orders={"Anna": "request service of lady"})
    rec = t.knight()
    rec["luck"] = 4
    rec["at"] = {"area": "Somerset", "where": "inside", "castle": "Castle Perilous"}
    rq.requests_phase(t.session())
    assert t.saw("Lady reactions: 5+5 = 10") and rec["lady"]["name"] == "Lady Lyonesse"


def test_q30_courting_fails_if_she_is_not_friendly(table):
    """Service (Ladies): her reaction neutral (7), there is no courtship."""
    t = table(pos(at="Somerset", anna='friendly = ["Castle Perilous"]', extra=LYONESSE),
              dice=[5, 3, 4, 1, 3, 1], orders={"Anna": "request service of lady"})
    rec = t.knight()
    rec["luck"] = 4
    rec["at"] = {"area": "Somerset", "where": "inside", "castle": "Castle Perilous"}
    rq.requests_phase(t.session())
    assert rec["lady"] is None and t.saw("no courtship")


def test_q31_other_ladies_adventures_not_rerolled(table):
    """Explanation of Requests: only the PK's own Lady rerolls 1:1 and 5:5; another Lady's 5:5
    stands."""
    from companion.koc.engine import resolutions as rs

    t = table(pos(extra='[decks]\nladies = ["Lady Enid"]\n'), dice=[5, 5, 6])
    task = rs.adventure_news(t.session(), card("Lady Lyonesse", "lady"))
    assert task["adventure"]["key"] == "tournament_for_lady"


BERT_HERE = 'cp = 100\nvp = 20\nat = "Hampshire"\nlord = "King Arthur"'


def test_w10_no_prayer_for_a_knight_who_needs_none(table):
    """Prayers (decision, docs/koc-engine.md): a prayer is said to cure or lift something; for
    a knight with no poisoned wound, enchantment or madness none is said: no VL test, no 6 VP,
    and the turn's prayer is still free."""
    t = table(pos(others={"Bert": BERT_HERE}), orders={"Anna": "pray for Bert to heal"})
    rq.requests_phase(t.session())
    assert t.saw("Bert has no poisoned wound for a prayer to cure: no prayer is said")
    assert t.knight()["vp"] == 20 and t.knight().get("prayed") is None
    assert t.chance.outcomes == []
    t2 = table(pos(others={"Bert": BERT_HERE}), orders={"Anna": "pray for Bert"})
    rq.requests_phase(t2.session())
    assert t2.saw("no poisoned wound") and t2.knight()["vp"] == 20


def test_w11_a_knight_is_named_by_a_beginning_that_fits_him_alone(table):
    """Orders (README: any unambiguous beginning of a name): 'pray for be' is Bert; with two
    knights it could mean, nobody is prayed for."""
    t = table(pos(others={"Bert": BERT_HERE + "\npoison = 2\nheld_wl = 10"}), dice=[5],
              orders={"Anna": "pray for be to heal"})
    t.knight()["luck"] = 4
    rq.requests_phase(t.session())
    assert t.knight("Bert")["poison"] == 1 and t.knight()["vp"] == 26
    both = {"Bert": BERT_HERE + "\npoison = 2\nheld_wl = 10", "Berta": BERT_HERE}
    t2 = table(pos(others=both), orders={"Anna": "pray for ber to heal"})
    rq.requests_phase(t2.session())
    assert t2.saw("nobody called 'ber'") and t2.knight("Bert")["poison"] == 2


def test_w12_nothing_ails_a_comrade_that_prayer_cures(table):
    """Prayers: comrades and Men-at-Arms carry no poisoned wound, enchantment or madness, so a
    prayer for one is not said (before, it earned 6 VP every turn)."""
    t = table(pos(), orders={"Anna": "pray for Sir Gauter"})
    t.knight()["comrades"] = [card("Sir Gauter")]
    rq.requests_phase(t.session())
    assert t.saw("Nothing ails Sir Gauter") and t.knight()["vp"] == 20
    assert t.chance.outcomes == []


def test_w13_prayer_orders_checked_when_sent(table):
    """What a prayer line can never do is refused by 'orders check', line by line: a second
    prayer, an effect no prayer has, himself, an unknown knight (with a suggestion), a
    comrade; a knight named by a beginning is acknowledged by his full name."""
    import pytest

    from companion.engine.orders import OrdersRejected
    from companion.koc.kind import KIND

    t = table(pos(others={"Bert": BERT_HERE}))
    t.knight()["comrades"] = [card("Sir Gauter")]

    def errors(text):
        orders = KIND.parse_orders(t.state, "Anna", text, "anna.txt")
        with pytest.raises(OrdersRejected) as bad:
            KIND.check_orders(t.state, "Anna", orders, "anna.txt")
        return [(e.line.number, e.message, e.suggestion) for e in bad.value.errors]

    assert errors("pray for bert\npray for bert\n") == [
        (2, "one prayer a turn: this is the second one", "keep the prayer that matters most")]
    (_, msg, hint), = errors("pray for bert to fly\n")
    assert msg == "a prayer cannot ask to 'fly'" and "to heal" in hint
    assert errors("pray for myself to heal\n")[0][1] == "a knight may not pray for himself"
    assert errors("pray for Anna\n")[0][1] == "a knight may not pray for himself"
    assert errors("pray for Brt\n") == [(1, "no knight called 'Brt'", "did you mean 'Bert'?")]
    assert errors("pray for gauter\n")[0][1] == "nothing ails Sir Gauter that a prayer could cure"
    ok = KIND.parse_orders(t.state, "Anna", "pray for BE to heal\n", "anna.txt")
    KIND.check_orders(t.state, "Anna", ok, "anna.txt")
    assert "prayer: for Bert to heal" in KIND.acknowledge(t.state, "Anna", ok)


def test_w14_a_game_begun_under_edition_0_keeps_its_rules(table):
    """Rules editions (GameKind.edition): a game stored before edition 1 replays as it was
    played, so there the old reading holds: the prayer for a knight with nothing to cure is
    said (a VL test, 6 VP when answered) and 'be' names nobody."""
    t = table(pos(others={"Bert": BERT_HERE}), dice=[5], orders={"Anna": "pray for Bert"})
    del t.state["edition"]
    t.knight()["luck"] = 4
    rq.requests_phase(t.session())
    assert t.knight()["vp"] == 26 and t.saw("prayer for Bert (heal)")
    t2 = table(pos(others={"Bert": BERT_HERE + "\npoison = 1\nheld_wl = 10"}),
               orders={"Anna": "pray for be"})
    del t2.state["edition"]
    rq.requests_phase(t2.session())
    assert t2.saw("nobody called 'be'")


def test_w15_whom_a_request_is_made_of_is_checked_when_sent(table):
    """PRAYERS & REQUESTS: a request is made of someone present. The turn takes 'of <whom>' as
    a kind of person ('lord', 'castle owner') or as (part of) a person's name, so a text that
    is neither ('of lord the', a misspelt name) could only end in "nobody present can grant
    it": 'orders check' refuses it with its line and a hint. A name anybody of the game bears
    passes (whether he is present is seen when the turn runs). Order checks are not replayed:
    no edition guard."""
    import pytest

    from companion.engine.orders import OrdersRejected
    from companion.koc.kind import KIND

    t = table(pos(others={"Bert": BERT_HERE}))
    t.knight()["comrades"] = [card("Sir Gauter")]

    def errors(text):
        orders = KIND.parse_orders(t.state, "Anna", text, "anna.txt")
        try:
            KIND.check_orders(t.state, "Anna", orders, "anna.txt")
        except OrdersRejected as bad:
            return [(e.line.number, e.message, e.suggestion) for e in bad.errors]
        return []

    assert errors("stay\nrequest adventure of lord the\n") == [
        (2, "'of lord the' names nobody the request could be made of",
         "write 'of lord', or a name as the cards give it")]
    assert errors("request men at arms of king of nowhere\n")[0][2] == \
        "write 'of king', or a name as the cards give it"
    assert errors("request adventure of Sir Lancelott\n")[0][2] == \
        "did you mean 'of Sir Lancelot'?"
    (_, _, hint), = errors("request adventure of xyzzy\n")
    assert hint.startswith("write 'of' and a kind of person (king, arthur, lord")
    for fine in ("lord", "castle owner", "king mark", "Queen of the Out Isles", "lancelot",
                 "Bert", "gauter", "hermit", "Merlin"):
        assert errors(f"request adventure of {fine}\n") == [], fine


def test_w16_no_petition_offered_that_king_arthur_would_not_hear(table):
    """PRAYERS & REQUESTS, King Arthur (and Quest of the Holy Grail, the Campaign's leave to
    seek it): the legal-orders list ('companion options') offers 'request service of arthur'
    inside Camelot Castle only to a knight not yet in his service; one who serves him already
    was offered it and then told so. Nor does it offer a request of King Arthur while a task
    he set is undone: he hears none until it is done (the turn says so). The list is not
    replayed: no edition guard."""
    from companion.koc.kind import KIND

    t = table(pos(at="Camelot Castle", where="inside", lord="King Mark"))
    assert "request service of arthur" in KIND.options_for(t.state, "Anna")
    t.knight()["arthur"]["task"] = {"kind": "joust"}
    assert "request service of arthur" not in KIND.options_for(t.state, "Anna")
    t = table(pos(at="Camelot Castle", where="inside", anna="arthurian = true"))
    assert "request service of arthur" not in KIND.options_for(t.state, "Anna")
    t = run(table, pos(at="Camelot Castle", where="inside", anna="arthurian = true"),
            "request service of arthur")
    assert t.saw("He already serves King Arthur.")     # sent anyway: so answered


def test_q32_a_request_nobody_can_grant_says_where_he_is(table):
    """PRAYERS & REQUESTS (found reading random games): requests are made after the movement
    phase, where the knight then is. Anna, inside Tintagel, her Lord's castle, sends 'move
    Cornwall' and 'request adventure of lord' (the legal-orders list offered both): her Lord
    is not in Cornwall. Rules edition 3 says where she is ("Nobody in Cornwall can grant
    ..."); a game begun under edition 2 keeps "Nobody present can grant ..."."""
    for edition, text in ((3, "Nobody in Cornwall can grant the request 'adventure' (asked "
                              "of lord)."),
                          (2, "Nobody present can grant the request 'adventure' (asked of "
                              "lord).")):
        t = table(pos(at="Tintagel", where="inside", lord="King Mark"), dice=[4, 6],
                  orders={"Anna": "move Cornwall\nrequest adventure of lord"})
        t.state["edition"] = edition
        from companion.koc.engine.game import process

        process(t.world, t.state, t.ctx)
        assert t.knight()["at"]["area"] == "Cornwall"
        assert t.saw(text), t.events
