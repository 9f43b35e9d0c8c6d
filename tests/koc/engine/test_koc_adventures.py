"""Adventures performed at their sites, shared and rewarded: a casebook (rules: ADVENTURES,
LIST OF ADVENTURES, OPTIONAL ADVENTURES, PLAYER INTERACTION, the King Arthur Request Reaction
Chart, KNIGHT'S FATE 7 and 9). Dice are explicit; the Luck-of-the-Day is set to 4 unless a
case plays a whole turn.

Fight dice: a mounted knight's lance is three dice; ``BEAT2`` (18 against 2) fells any foe of
two dice at one pass, ``BEAT3`` any knight or monster of three dice."""
from __future__ import annotations

import pytest
from kocpos import card, pos

from companion.engine.orders import OrdersRejected
from companion.koc.engine import adventures as av
from companion.koc.engine import knight as kn
from companion.koc.engine import requests as rq
from companion.koc.engine import resolutions as rs
from companion.koc.engine import tasks
from companion.koc.kind import KIND
from companion.koc.orders import parse_orders

BEAT2 = [6, 6, 6, 1, 1]            # lance 18 against two dice 2
BEAT3 = [6, 6, 6, 1, 1, 1]         # lance 18 against three dice 3
LOSE3 = [1, 1, 1, 6, 6, 6]         # lance 3 against three dice 18
YIELDS = [6, 6]                    # a beaten knight's VL check to yield: he yields
D = {2: [1, 1], 3: [1, 2], 4: [2, 2], 5: [2, 3], 6: [3, 3], 7: [3, 4], 8: [4, 4], 9: [4, 5],
     10: [5, 5], 11: [5, 6], 12: [6, 6]}


def give(t, key: str, dest: str | None, *, player: str = "Anna", knights=(), lady=None,
         creature=None, castle=None, prophecy=False, awards=True, no_failure=False,
         status="active", **extra) -> dict:
    """An adventure as resolutions.record_adventure leaves it: its cards out of the decks,
    ``adventures.heard`` done."""
    s = t.session(player)
    entry = t.world.charts["adventures"].entry(key)
    values = dict(entry.values)
    adv = {"key": key, "id": entry.roll_text.replace("/", ":"), "label": entry.label,
           "values": values, "source": {"kind": "king", "name": "King Mark", "role": "king"},
           "marker": rs.adventure_marker(s), "awards": awards, "no_failure_award": no_failure,
           "from_arthur": False, "shareable": values.get("shareable", True),
           "heard": t.state["koc"]["turn"], "arthur_task": False, "grants_castle": False,
           "site": dest}
    decks = t.state["decks"]

    def take(deck: str, name: str) -> None:
        for pile in ("draw", "discard"):
            if name in decks[deck][pile]:
                decks[deck][pile].remove(name)

    if knights:
        adv["knights"] = [card(n) for n in knights]
        adv["knight"] = adv["knights"][0]
        for n in knights:
            take("knights", n)
    if lady:
        adv["lady"] = card(lady, "lady")
        take("ladies", lady)
    if creature:
        adv["creature"] = dict(creature)
    if castle:
        adv["castle"] = castle
    adv.update(extra.pop("adv", {}))
    person = None
    if key == "escort_lady":
        t.knight(player)["party_extra"].append({"kind": "lady", "name": lady, "horse": True,
                                                "person": adv["lady"]})
        person = adv["lady"]
    if key == "escort_pilgrims":
        t.knight(player)["party_extra"].append({"kind": "pilgrims", "name": "the pilgrims",
                                                "walks": True, "rides": False})
        person = {"kind": "pilgrims", "name": "the pilgrims"}
    task = tasks.add(s, "adventure", dest, awards={}, route="direct" if not prophecy else None,
                     grace=1, walk=values.get("moves") == 1, on_done="adventure",
                     why=f"adventure {adv['id']}", adventure=adv, prophecy=prophecy,
                     person=person, **extra)
    av.heard(s, task)
    if status == "at_site":
        task["status"] = "at_site"
    return task


def arrive(t, task, player: str = "Anna", luck: int = 4):
    """The knight stands at the site: tasks.arrive as the movement phase calls it."""
    s = t.session(player)
    s.pk["luck"] = luck
    tasks.arrive(s, task)
    return s


def requests_phase(t, player: str = "Anna", luck: int = 4):
    s = t.session(player)
    s.pk["luck"] = luck
    rq.requests_phase(s)
    return s


def in_decks(t, deck: str, name: str) -> bool:
    pile = t.state["decks"][deck]
    return name in pile["draw"] + pile["discard"] + pile["removed"]


# ============================================================================== 1:x
def test_a01_court_lady_courted(table):
    """LIST OF ADVENTURES 1:1: received at her castle, the lady's reaction is friendly and she
    grants his suit (a Luck Test): her service, 6 VP and her Service Award, nothing more."""
    t = table(pos(cp=100, vp=20, at="Devon", where="inside", extra=(
        '[castles]\n"Castle Cardigan" = {area = "Devon", owner = "Lady Enid", kind = "lady"}\n')),
        dice=D[10] + [5])
    rec = t.knight()
    rec["at"] = {"area": "Devon", "where": "inside", "castle": "Castle Cardigan"}
    task = give(t, "court_lady", "Devon", lady="Lady Enid", castle="Castle Cardigan")
    arrive(t, task)
    assert task["adventure"]["stage"] == "court"
    requests_phase(t)
    assert rec["lady"]["name"] == "Lady Enid" and task["status"] == "done"
    assert (rec["cp"], rec["vp"]) == (110, 26)
    assert not t.saw("adventure 1:1 Court a lady, half")


def test_a02_court_lady_enchantress_and_refusal(table):
    """LIST OF ADVENTURES 1:1: an Enchantress yields no adventure award (she tries her spell); a
    lady who does not grant the suit is a failed attempt: half the 6 VP."""
    t = table(pos(cp=100, vp=20, at="Devon", extra=(
        '[castles]\n"Castle Chariot" = {area = "Devon", owner = "Queen of North Wales", '
        'kind = "lady"}\n')), dice=D[12])
    rec = t.knight()
    rec["at"] = {"area": "Devon", "where": "inside", "castle": "Castle Chariot"}
    task = give(t, "court_lady", "Devon", lady="Queen of North Wales", castle="Castle Chariot")
    arrive(t, task)
    requests_phase(t)
    assert task["adventure"]["result"] == "nothing" and rec["vp"] == 20
    t = table(pos(cp=100, vp=20, at="Devon", extra=(
        '[castles]\n"Castle Cardigan" = {area = "Devon", owner = "Lady Enid", kind = "lady"}\n')),
        dice=D[10] + [2])
    rec = t.knight()
    rec["at"] = {"area": "Devon", "where": "inside", "castle": "Castle Cardigan"}
    task = give(t, "court_lady", "Devon", lady="Lady Enid", castle="Castle Cardigan")
    arrive(t, task)
    requests_phase(t)
    assert task["status"] == "failed" and rec["vp"] == 23 and rec["lady"] is None


def test_a03_court_lady_offers_her_hand(table):
    """LIST OF ADVENTURES 1:1: a lady whose reaction offers him her service (12) wins the adventure
    as well: her Service Award, and the 6 VP the adventure promises."""
    t = table(pos(cp=100, vp=20, at="Devon", extra=(
        '[castles]\n"Castle Cardigan" = {area = "Devon", owner = "Lady Enid", kind = "lady"}\n')),
        dice=D[12])
    rec = t.knight()
    rec["at"] = {"area": "Devon", "where": "inside", "castle": "Castle Cardigan"}
    task = give(t, "court_lady", "Devon", lady="Lady Enid", castle="Castle Cardigan")
    arrive(t, task)
    requests_phase(t)
    assert rec["lady"]["name"] == "Lady Enid" and task["status"] == "done"
    assert (rec["cp"], rec["vp"]) == (110, 26)


def test_a04_escort_lady_to_a_shrine(table):
    """LIST OF ADVENTURES 1:2: the lady rides with him; at the shrine 6 VP, she leaves and her card
    goes back."""
    t = table(pos(cp=100, vp=20, at="Canterbury"))
    task = give(t, "escort_lady", "Canterbury", lady="Lady Enid")
    assert t.knight()["party_extra"][0]["name"] == "Lady Enid"
    arrive(t, task)
    rec = t.knight()
    assert task["status"] == "done" and rec["vp"] == 26 and rec["party_extra"] == []
    assert in_decks(t, "ladies", "Lady Enid")


def test_a04b_escort_adventures_earn_the_escorts_turn(table):
    """LIST OF ADVENTURES 1:2 and 1:3 with REQUESTS, Escort (1 VP each turn it lasts, stopovers
    excepted) and ADVENTURES, Awards (the adventure's awards replace those of its encounters and
    fights, not the escort's). A requests phase on the road in Kent: rules edition 7
    (adventures.ESCORT_TURN_VP) pays 1 VP, but none for an escort adventure without awards (a
    Knight's Fate 7 victor's). A game of edition 6 keeps its reading: nothing until the 6 VP of
    arriving."""
    for ed in (7, 6):
        for key, extra in (("escort_lady", {"lady": "Lady Enid"}), ("escort_pilgrims", {})):
            t = table(pos(cp=100, vp=20, at="Kent"))
            t.state["edition"] = ed
            task = give(t, key, "Canterbury", **extra)
            requests_phase(t)
            assert task["status"] == "active"
            assert t.knight()["vp"] == (21 if ed == 7 else 20)
            assert t.saw(f"a turn of escort (adventure {task['adventure']['id']}") == \
                (ed == 7)
    t = table(pos(cp=100, vp=20, at="Kent"))
    give(t, "escort_pilgrims", "Canterbury", awards=False)
    requests_phase(t)
    assert t.knight()["vp"] == 20


def test_a05_escort_pilgrims_walk(table):
    """LIST OF ADVENTURES 1:3: the pilgrims walk, so the knight moves one area a turn; at the
    shrine 6 VP."""
    t = table(pos(cp=100, vp=20, at="Kent"))
    task = give(t, "escort_pilgrims", "Canterbury")
    assert kn.movement_allowance(t.knight()) == 1
    arrive(t, task)
    assert task["status"] == "done" and t.knight()["vp"] == 26
    assert t.knight()["party_extra"] == [] and kn.movement_allowance(t.knight()) == 3


def test_a06_find_animal_search_then_found(table):
    """LIST OF ADVENTURES 1:4: on arrival he searches (a Luck Test, failed); staying next turn he
    searches again (+1 for persisting) and finds it: 6 VP; then it reacts as any animal (7: it runs
    off)."""
    t = table(pos(cp=100, vp=20, at="Devon"), dice=[2, 2] + D[7],
              orders={"Anna": "stay"})
    task = give(t, "find_animal", "Devon", creature={"kind": "animal", "name": "Hart",
                                                      "wl": 4, "dice": 2})
    arrive(t, task)
    assert task["status"] == "at_site" and task["adventure"]["stage"] == "find"
    t.state["koc"]["turn"] = 2
    s = t.session()
    s.pk["luck"] = 3
    from companion.koc.engine.movement import movement_phase

    movement_phase(s, dict(s.pk["at"]))
    assert task["status"] == "done" and t.knight()["vp"] == 26
    assert t.saw("rolled 2+1 = 3, needing 3 or more: success") and t.saw("runs off")


def test_a07_kings_hunt(table):
    """LIST OF ADVENTURES 1:5: the royal castle receives him without a reaction roll; next turn he
    rides out with the King and the animal attacks; beaten by his own hand: 6 VP and CP equal to
    its WL."""
    t = table(pos(cp=100, vp=20, at="Cornwall", lord="King Arthur"),
              dice=[5] + BEAT2, orders={"Anna": "move Tintagel"})
    task = give(t, "kings_hunt", "Tintagel", castle="Tintagel",
                creature={"kind": "animal", "name": "Boar", "wl": 6, "dice": 2})
    assert "Tintagel" in t.knight()["temp_friendly"]
    t.play()
    rec = t.knight()
    assert rec["at"] == {"area": "Tintagel", "where": "inside"} and not t.saw("Castle reactions")
    assert task["adventure"]["stage"] == "hunt" and task["adventure"]["hunt"] == 2
    t.state["koc"]["turn"] = 2
    t.game.orders = {}
    from companion.koc.engine.movement import movement_phase

    s = t.session()
    s.pk["luck"] = 4
    movement_phase(s, dict(s.pk["at"]))
    assert task["status"] == "done" and (rec["cp"], rec["vp"]) == (106, 26)
    assert rec["at"]["area"] == "Cornwall"


def test_a08_visit_king_arthur(table):
    """LIST OF ADVENTURES 1:6: admitted to Camelot, he meets King Arthur: 6 CP."""
    t = table(pos(cp=100, vp=20, at="Camelot Castle", where="inside"))
    task = give(t, "visit_king_arthur", "Camelot Castle")
    arrive(t, task)
    assert task["status"] == "done" and t.knight()["cp"] == 106 and t.knight()["vp"] == 20


def test_a09_visit_lady_and_enchantress(table):
    """LIST OF ADVENTURES 2:1: received at her castle, a friendly lady: 6 CP; an Enchantress: no
    award."""
    t = table(pos(cp=100, vp=20, at="Devon", extra=(
        '[castles]\n"Castle Cardigan" = {area = "Devon", owner = "Lady Enid", kind = "lady"}\n'
        '"Castle Chariot" = {area = "Devon", owner = "Queen of North Wales", kind = "lady"}\n')))
    rec = t.knight()
    rec["at"] = {"area": "Devon", "where": "inside", "castle": "Castle Cardigan"}
    task = give(t, "visit_lady", "Devon", lady="Lady Enid", castle="Castle Cardigan")
    arrive(t, task)
    assert task["status"] == "done" and rec["cp"] == 106
    rec["at"] = {"area": "Devon", "where": "inside", "castle": "Castle Chariot"}
    task = give(t, "visit_lady", "Devon", lady="Queen of North Wales", castle="Castle Chariot")
    arrive(t, task)
    assert task["adventure"]["result"] == "nothing" and rec["cp"] == 106


def test_a09b_visit_lady_message_six_from_her_castle(table):
    """LIST OF ADVENTURES 2:1 with MESSAGES 6: the castle he calls on sends word of a lady
    insulted, and he serves no Lady: the lady insulted is his hostess, the castle's owner (no
    lady is drawn); winning the challenge wins her friendship."""
    t = table(pos(cp=200, vp=40, at="Devon", extra=(
        '[castles]\n"Castle Cardigan" = {area = "Devon", owner = "Lady Enid", kind = "lady"}\n'
        '[decks]\nknights = ["Sir Kay"]\n')), dice=BEAT3 * 3)
    give(t, "visit_lady", "Devon", lady="Lady Enid", castle="Castle Cardigan")
    s = t.session()
    rs.handle_message(s, "lady_insulted", card("Lady Enid", "lady"))
    assert t.saw("The lady insulted was Lady Enid, his hostess.")
    assert "Lady Enid" in t.knight().get("friendly_persons", [])
    assert not t.saw("the lady who was insulted")


def test_a10_visit_local_king_at_the_gate_then_persisting(table):
    """LIST OF ADVENTURES 2:2: the castle keeps him at its gate (7: the lord is not at home);
    staying, he tries again with +1 and is welcomed (10): 6 VP."""
    t = table(pos(cp=100, vp=20, at="Cornwall", lord="King Arthur"),
              dice=[4, 4, 3, 4, 4, 5], orders={"Anna": "move Tintagel"})
    task = give(t, "visit_local_king", "Tintagel", castle="Tintagel")
    t.play()
    assert task["status"] == "at_site" and task["adventure"]["stage"] == "visit"
    assert t.knight()["at"]["where"] == "gate"
    t.state["koc"]["turn"] = 2
    t.game.orders = {"Anna": parse_orders(t.world, ["Anna"], "stay", "a.txt")}
    t.play()
    assert task["status"] == "done" and t.knight()["vp"] == 26
    assert t.saw("4+5 = 9 +1 = 10")


def test_a11_vanquish_knight_personally(table):
    """LIST OF ADVENTURES 2:3: the hostile knight attacks on arrival; beaten by the knight himself:
    6 VP and CP equal to his WL (Sir Balan, 150 CP: 15); no combat award besides."""
    t = table(pos(cp=100, vp=20, at="Devon"), dice=BEAT3 + YIELDS)
    task = give(t, "vanquish_knight", "Devon", knights=["Sir Balan"])
    arrive(t, task)
    rec = t.knight()
    assert task["status"] == "done" and (rec["cp"], rec["vp"]) == (115, 26)
    assert in_decks(t, "knights", "Sir Balan") and task["adventure"]["cards"] == []


def test_a12_vanquish_knight_not_personal(table):
    """LIST OF ADVENTURES 2:3 needs the knight's own hand: a foe beaten by his followers (party
    combat after he fell) wins the day, but not the adventure: half the VP (3), no CP. From
    rules edition 4 the knight, felled by Sir Balan, gains the 6 CP lesson of defeat though his
    side won (combat.LESSON_SIDE_WON, p39); edition 3 gave none."""
    for edition in (4, 3):
        t = table(pos(cp=30, vp=20, at="Devon", anna='men_at_arms = ["Sir Galahad"]'),
                  dice=LOSE3 + [6, 6, 1, 1])
        t.state["edition"] = edition
        task = give(t, "vanquish_knight", "Devon", knights=["Sir Balan"])
        arrive(t, task)
        rec = t.knight()
        assert task["status"] == "failed" and rec["vp"] == 23
        assert rec["cp"] == (36 if edition == 4 else 30)
        assert t.saw("did not fall to the knight's own hand")


def test_a13_vanquish_brigands_arthurs_task(table):
    """LIST OF ADVENTURES 2:4 as King Arthur's task 9: five brigands beaten (5 VP, 17 CP); King
    Arthur's task is done (+1), and he owes the request asked."""
    t = table(pos(cp=100, vp=20, at="Devon",
                  extra='[draws]\nbrigand = ["Brigand 1", "Brigand 2", "Brigand 3", '
                        '"Brigand 4", "Brigand 5"]\n'),
              dice=BEAT2 * 5)
    task = give(t, "vanquish_brigands", "Devon", arthur_task="task_brigands")
    rec = t.knight()
    rec["arthur"]["task"] = {"kind": "task_brigands", "request": "dwarf", "task_id": task["id"]}
    arrive(t, task)
    assert task["status"] == "done" and (rec["cp"], rec["vp"]) == (117, 25)
    assert rec["arthur"]["bonus"] == 1 and rec["arthur"]["owed"] == "dwarf"


def test_a14_avenge_knight_ogre(table):
    """LIST OF ADVENTURES 2:5: the ogre (WL 10) slain by the party: 12 VP, 10 CP."""
    t = table(pos(cp=100, vp=20, at="Devon"), dice=BEAT3)
    task = give(t, "avenge_knight", "Devon")
    arrive(t, task)
    assert task["status"] == "done" and (t.knight()["cp"], t.knight()["vp"]) == (110, 32)


def test_a15_lift_enchantment_man_at_arms_prays(table):
    """LIST OF ADVENTURES 2:6: the enchanted knight beaten (he is kept, no fate), then a prayer:
    one Man-at-Arms prays instead of the knight (Sir Bors's prayers never fail): 12 VP and CP equal
    to the enchanted knight's WL."""
    t = table(pos(cp=100, vp=10, at="Devon", anna='men_at_arms = ["Sir Bors"]'),
              dice=BEAT3)
    task = give(t, "lift_enchantment", "Devon", knights=["Sir Balan"])
    arrive(t, task)
    assert task["adventure"]["stage"] == "pray" and not t.saw("yields")
    requests_phase(t)
    rec = t.knight()
    assert task["status"] == "done" and (rec["cp"], rec["vp"]) == (115, 22)
    assert rec.get("prayed") is None and in_decks(t, "knights", "Sir Balan")


def test_a16_cure_wounded_knight_own_prayer(table):
    """LIST OF ADVENTURES 3:1: the wounded knight is there on arrival; in the prayers phase the
    knight prays (a VL test of his VL; his one prayer of the turn, no separate 6 VP): 12 VP."""
    t = table(pos(cp=100, vp=20, at="Devon"), dice=[6])
    task = give(t, "cure_wounded_knight", "Devon", knights=["Sir Balan"])
    arrive(t, task)
    assert task["adventure"]["stage"] == "pray"
    requests_phase(t)
    rec = t.knight()
    assert task["status"] == "done" and rec["vp"] == 32 and rec["prayed"] == 1
    assert t.saw("VL test of Anna (prayer for Sir Balan (adventure 3:1)): rolled 6 against VL 5")


def test_a17_impossible_prayer_waits_three_turns(table):
    """LIST OF ADVENTURES 3:1 impossible: VL 7 or more and no Man-at-Arms whose prayer can work: no
    prayer is tried; after three turns in place (the arrival turn counts) half the VP, 6."""
    t = table(pos(cp=100, vp=10, at="Devon"))
    task = give(t, "cure_wounded_knight", "Devon", knights=["Sir Balan"])
    arrive(t, task)
    for turn in (1, 2):
        t.state["koc"]["turn"] = turn
        requests_phase(t)
        assert task["status"] == "at_site" and task["adventure"]["waited"] == turn
    assert not av.prophecy_pending(t.knight())
    t.state["koc"]["turn"] = 3
    requests_phase(t)
    assert task["status"] == "failed" and task["adventure"]["result"] == "impossible"
    assert t.knight()["vp"] == 16 and t.saw("(3 of 3)")


def test_a18_impossible_leaving_early_pays_nothing(table):
    """ADVENTURES, Awards: An impossible adventure pays its half award only after three turns in
    place: leaving after one earns nothing."""
    t = table(pos(cp=100, vp=10, at="Devon"))
    task = give(t, "cure_wounded_knight", "Devon", knights=["Sir Balan"])
    arrive(t, task)
    requests_phase(t)
    t.knight()["at"] = {"area": "Cornwall", "where": "area"}
    t.state["koc"]["turn"] = 2
    requests_phase(t)
    assert task["adventure"]["result"] == "left" and t.knight()["vp"] == 10


def test_a19_distressed_lady(table):
    """LIST OF ADVENTURES 3:2: the unchivalrous knight beaten by his own hand: the lady's
    friendship, 12 VP and CP equal to his WL; were she an Enchantress, 6 VP less."""
    t = table(pos(cp=100, vp=20, at="Devon"), dice=BEAT3 + YIELDS)
    task = give(t, "distressed_lady", "Devon", lady="Lady Enid", knights=["Sir Balan"])
    arrive(t, task)
    rec = t.knight()
    assert task["status"] == "done" and (rec["cp"], rec["vp"]) == (115, 32)
    assert "Lady Enid" in rec["friendly_persons"] and in_decks(t, "ladies", "Lady Enid")
    t = table(pos(cp=100, vp=20, at="Devon"), dice=BEAT3 + YIELDS)
    task = give(t, "distressed_lady", "Devon", lady="Queen Sebile", knights=["Sir Balan"])
    arrive(t, task)
    assert (t.knight()["cp"], t.knight()["vp"]) == (115, 26)


def test_a20_visit_faerie(table):
    """LIST OF ADVENTURES 3:3: the dwarf leads him into Faerie; his Men-at-Arms stay behind; 12 VP
    or CP (his choice: CP). Back from Faerie, the dwarf waits for him and joins him."""
    t = table(pos(cp=100, vp=20, at="Devon", anna='men_at_arms = ["Sir Kay"]'),
              orders={"Anna": "answer faerie_award: cp"})
    task = give(t, "visit_faerie", "Devon")
    arrive(t, task)
    rec = t.knight()
    assert rec["at"]["area"] == "Faerie" and rec["men_at_arms"] == [] and rec["cp"] == 112
    assert task["status"] == "done" and rec["dwarf"] is None
    rec["at"] = {"area": "Devon", "where": "area"}
    av.start_of_turn(t.session())
    assert rec["dwarf"] == {"arthurian": False, "spares": []}
    assert t.saw("finds the dwarf waiting for him")


def test_a21_white_hart(table):
    """LIST OF ADVENTURES 3:4: a knight without a Mascot gains the White Hart (WL 8), which goes
    into Faerie with him: 12 VP."""
    t = table(pos(cp=100, vp=20, at="Devon"))
    task = give(t, "white_hart", "Devon")
    arrive(t, task)
    rec = t.knight()
    assert rec["mascot"] == {"name": "White Hart", "wl": 8} and rec["vp"] == 32
    assert rec["at"]["area"] == "Faerie"


def test_a22_irish_brigands_first_encounter(table):
    """LIST OF ADVENTURES 3:5: in Ireland the first encounter indicated is seven brigands (entering
    Ireland, the encounter roll shows one): beaten, 7 VP and 24 CP."""
    brigands = ", ".join(f'"Brigand {n}"' for n in (1, 2, 3, 4, 5, 6, 1))
    t = table(pos(cp=100, vp=20, at="Tara", extra=f'[draws]\nbrigand = [{brigands}]\n'),
              dice=[4, 1] + BEAT2 * 7, orders={"Anna": "move Ireland"})
    task = give(t, "irish_brigands", "Ireland")
    t.play()
    rec = t.knight()
    assert task["status"] == "done" and (rec["cp"], rec["vp"]) == (124, 27)
    assert t.saw("The encounter is the brigands of adventure 3:5")
    assert not t.saw("Countryside encounters")


def test_a23_kings_champion_lord_grants_a_request(table):
    """LIST OF ADVENTURES 3:6: the King's champion beaten by the knight himself; his own Lord is
    that King, so instead of friendship one request of him is granted without a Luck Test
    (Men-at-Arms: 3 from one's Lord)."""
    t = table(pos(cp=100, vp=20, at="Tintagel", where="inside", lord="King Mark",
                  extra='[decks]\nknights = ["Sir Kay", "Sir Gawain", "Sir Bedivere"]\n'),
              dice=BEAT3 + YIELDS, orders={"Anna": "request men at arms of lord"})
    task = give(t, "kings_champion", "Tintagel", knights=["Sir Balan"], castle="Tintagel")
    arrive(t, task)
    rec = t.knight()
    assert task["status"] == "done" and (rec["cp"], rec["vp"]) == (115, 32)
    assert rec["lord"]["owed"] == 1
    requests_phase(t, luck=6)
    assert len(rec["men_at_arms"]) == 3 and "owed" not in rec["lord"]
    assert t.saw("grants Anna's request at once") and not t.saw("Luck test (meet")


def test_a24_kings_champion_friendship(table):
    """LIST OF ADVENTURES 3:6 for a knight of another Lord: the King's friendship (his castle
    friendly too)."""
    t = table(pos(cp=100, vp=20, at="Tintagel", where="inside", lord="King Arthur"),
              dice=BEAT3 + YIELDS)
    task = give(t, "kings_champion", "Tintagel", knights=["Sir Balan"], castle="Tintagel")
    arrive(t, task)
    rec = t.knight()
    assert "King Mark" in rec["friendly_persons"] and "Tintagel" in rec["friendly"]


def test_a25_questing_beast(table):
    """LIST OF ADVENTURES 4:1: one attempt to find the Beast on arrival (found: 12 VP); it moves on
    and he may pursue it for 6 VP a sighting."""
    t = table(pos(cp=100, vp=20, at="Devon"), dice=[5] + D[9] + [1])
    task = give(t, "seek_questing_beast", "Devon")
    arrive(t, task)
    rec = t.knight()
    assert task["status"] == "done" and rec["vp"] == 32
    chase = next(x for x in rec["tasks"] if x["kind"] == "questing_beast")
    assert chase["sightings"] == 1 and chase["status"] == "active"


def test_a26_voyage_to_servage(table):
    """LIST OF ADVENTURES 4:2: the first encounter on the Isle of Servage is five brigands: 5 VP,
    17 CP; the adventure waits on the island until then."""
    brigands = ", ".join(f'"Brigand {n}"' for n in (1, 2, 3, 4, 5))
    t = table(pos(cp=100, vp=20, at="Isle of Servage",
                  extra=f'[draws]\nbrigand = [{brigands}]\n'),
              dice=[4, 1] + BEAT2 * 5)
    task = give(t, "voyage_to_servage", "Isle of Servage")
    arrive(t, task)
    assert task["adventure"]["stage"] == "first_encounter"
    requests_phase(t)
    assert task["status"] == "at_site"
    t.game.orders = {"Anna": parse_orders(t.world, ["Anna"], "stay", "a.txt")}
    t.state["koc"]["turn"] = 2
    t.play()
    assert t.saw("Encounter roll in Isle of Servage: 1") and task["status"] == "done"
    assert (t.knight()["cp"], t.knight()["vp"]) == (117, 25)


def test_a27_pilgrimage_to_canterbury_walking(table):
    """LIST OF ADVENTURES 4:3: walked (one area a turn, his equipment kept): 12 VP on arrival."""
    t = table(pos(cp=100, vp=20, at="Surrey"), dice=[4, 6, 4, 6],
              orders={"Anna": "go to Canterbury"})
    task = give(t, "pilgrimage_canterbury", "Canterbury")
    assert kn.movement_allowance(t.knight()) == 1
    t.play()
    assert t.knight()["at"]["area"] == "Kent" and task["status"] == "active"
    assert t.knight()["gear"]["horse"]
    t.state["koc"]["turn"] = 2
    t.chance = t.game.chance
    t.play()
    assert t.knight()["at"]["area"] == "Canterbury" and task["status"] == "done"
    assert t.knight()["vp"] == 32


def test_a28_avenge_baron(table):
    """LIST OF ADVENTURES 4:4: the wronged baron (a drawn friendly knight) rides with him against
    the two: 18 VP and CP equal to their WLs; the baron's friendship."""
    t = table(pos(cp=100, vp=20, at="Devon", extra=(
        '[castles]\n"castle of adventure A-1" = {area = "Devon", owner = "its lord", '
        'kind = "castle"}\n[decks]\nknights = ["Sir Kay"]\n')),
        dice=BEAT3 + BEAT3 + YIELDS + YIELDS)
    task = give(t, "avenge_baron", "Devon", knights=["Sir Balan", "Sir Elias"],
                castle="castle of adventure A-1")
    arrive(t, task)
    rec = t.knight()
    assert task["status"] == "done" and (rec["cp"], rec["vp"]) == (127, 38)
    assert "Sir Kay" in rec["friendly_persons"] and rec["comrades"] == []
    assert in_decks(t, "knights", "Sir Kay")


def test_a29_avenge_lady_enchantress(table):
    """LIST OF ADVENTURES 4:5: three knaves beaten: the lady's friendship and 24 VP with CP for
    their WLs; an Enchantress: 12 VP less."""
    t = table(pos(cp=100, vp=20, at="Devon", extra=(
        '[castles]\n"Castle of Sebile" = {area = "Devon", owner = "Queen Sebile", '
        'kind = "lady"}\n')), dice=BEAT3 * 3 + YIELDS * 3)
    task = give(t, "avenge_lady", "Devon", lady="Queen Sebile",
                knights=["Sir Balan", "Sir Elias", "Sir Helior"], castle="Castle of Sebile")
    arrive(t, task)
    rec = t.knight()
    assert task["status"] == "done" and (rec["cp"], rec["vp"]) == (136, 32)
    assert "Queen Sebile" in rec["friendly_persons"]


def test_a30_cure_lady_by_prayer(table):
    """LIST OF ADVENTURES 4:6: received at her castle, the sleeping lady is woken by prayer: her
    friendship and 18 VP; a sleeping Enchantress: no award."""
    t = table(pos(cp=100, vp=20, at="Devon", extra=(
        '[castles]\n"Castle Cardigan" = {area = "Devon", owner = "Lady Enid", kind = "lady"}\n')),
        dice=[5])
    rec = t.knight()
    rec["at"] = {"area": "Devon", "where": "inside", "castle": "Castle Cardigan"}
    task = give(t, "cure_lady", "Devon", lady="Lady Enid", castle="Castle Cardigan")
    arrive(t, task)
    requests_phase(t)
    assert task["status"] == "done" and rec["vp"] == 38 and "Lady Enid" in rec["friendly_persons"]
    t = table(pos(cp=100, vp=20, at="Devon", extra=(
        '[castles]\n"Castle of Sebile" = {area = "Devon", owner = "Queen Sebile", '
        'kind = "lady"}\n')))
    t.knight()["at"] = {"area": "Devon", "where": "inside", "castle": "Castle of Sebile"}
    task = give(t, "cure_lady", "Devon", lady="Queen Sebile", castle="Castle of Sebile")
    arrive(t, task)
    assert task["adventure"]["result"] == "nothing" and t.knight()["vp"] == 20


def test_a31_cure_lady_rides_up_to_the_castle(table):
    """LIST OF ADVENTURES 4:6: arriving in the area of her castle counter with nothing else this
    turn, he rides up to it at once (a castle reaction: friendship, 10)."""
    t = table(pos(cp=100, vp=20, at="Devon", extra=(
        '[castles]\n"Castle Cardigan" = {area = "Devon", owner = "Lady Enid", kind = "lady"}\n')),
        dice=D[10] + [5])
    task = give(t, "cure_lady", "Devon", lady="Lady Enid", castle="Castle Cardigan")
    arrive(t, task)
    assert av.inside(t.session(), "Castle Cardigan") and task["adventure"]["stage"] == "pray"
    requests_phase(t)
    assert task["status"] == "done"


# ============================================================================== 5:x, 6:x
CASTLE_A1 = ('[castles]\n"castle of adventure A-1" = {area = "Devon", owner = "its lord", '
             'kind = "castle"}\n')


def test_a32_free_knight_by_appeal(table):
    """LIST OF ADVENTURES 5:1: admitted (castle reaction 10), he appeals to the jailor (12: freed
    with full gear): the knight serves him as a Man-at-Arms; 18 VP, no CP (no fight)."""
    t = table(pos(cp=100, vp=20, at="Devon", extra=CASTLE_A1), dice=D[10] + D[12])
    task = give(t, "free_knight", "Devon", knights=["Sir Balan"],
                castle="castle of adventure A-1")
    arrive(t, task)
    rec = t.knight()
    assert task["status"] == "done" and (rec["cp"], rec["vp"]) == (100, 38)
    assert [m["name"] for m in rec["men_at_arms"]] == ["Sir Balan"]
    assert not in_decks(t, "knights", "Sir Balan")


def test_a33_free_knight_by_storm(table):
    """LIST OF ADVENTURES 5:1 by storm: two defenders beaten; 18 VP plus CP equal to the WLs of the
    defeated knights (Sir Kay 14, Sir Dodinas 14)."""
    t = table(pos(cp=100, vp=20, at="Devon", extra=CASTLE_A1 + (
        '[decks]\nknights = ["Sir Kay", "Sir Dodinas"]\n')),
        dice=[2] + BEAT3 * 2 + YIELDS * 2, orders={"Anna": "answer free_prisoner: storm"})
    task = give(t, "free_knight", "Devon", knights=["Sir Balan"],
                castle="castle of adventure A-1")
    arrive(t, task)
    rec = t.knight()
    assert task["status"] == "done" and (rec["cp"], rec["vp"]) == (128, 38)
    assert t.saw("falls to Anna's assault")


def test_a34_free_lady_three_failed_appeals(table):
    """LIST OF ADVENTURES 5:2: three appeals fail (ignored): a failed attempt, half of 18 less 9
    for an Enchantress... here Lady Enid: half of 18 = 9 VP."""
    t = table(pos(cp=100, vp=20, at="Devon", extra=CASTLE_A1),
              dice=D[10] + D[7] * 5)
    task = give(t, "free_lady", "Devon", lady="Lady Enid", castle="castle of adventure A-1")
    arrive(t, task)
    assert task["adventure"]["appeals"] == 1 and task["status"] == "at_site"
    from companion.koc.engine.movement import movement_phase

    for turn in (2, 3):
        t.state["koc"]["turn"] = turn
        s = t.session()
        s.pk["luck"] = 4
        movement_phase(s, dict(s.pk["at"]))
    assert task["status"] == "failed" and t.knight()["vp"] == 29
    assert in_decks(t, "ladies", "Lady Enid")


def test_a35_free_lady_enchantress(table):
    """LIST OF ADVENTURES 5:2: freed at the first appeal; she turns out an Enchantress: 18 - 9 = 9
    VP and her friendship."""
    t = table(pos(cp=100, vp=20, at="Devon", extra=CASTLE_A1), dice=D[10] + D[12])
    task = give(t, "free_lady", "Devon", lady="Queen Sebile", castle="castle of adventure A-1")
    arrive(t, task)
    assert task["status"] == "done" and t.knight()["vp"] == 29
    assert "Queen Sebile" in t.knight()["friendly_persons"]


def test_a36_mad_knight_arthurs_task(table):
    """LIST OF ADVENTURES 5:3 as King Arthur's task 5: found (Luck Test), subdued, bound and taken
    home to a random royal castle (friendly for the visit): 18 VP and the King's friendship; King
    Arthur's task done (+1)."""
    t = table(pos(cp=100, vp=20, at="Devon"), dice=[5] + BEAT2 + D[9])
    task = give(t, "mad_knight", "Devon", knights=["Sir Balan"])
    rec = t.knight()
    rec["arthur"]["task"] = {"kind": "task_mad_knight", "request": "dwarf",
                             "task_id": task["id"]}
    task["arthur_task"] = "task_mad_knight"
    arrive(t, task)
    assert task["status"] == "active" and task["dest"] == "Tintagel"
    assert rec["party_extra"][0]["kind"] == "bound_mad_knight"
    assert "Tintagel" in rec["temp_friendly"]
    rec["at"] = {"area": "Tintagel", "where": "inside"}
    arrive(t, task)
    assert task["status"] == "done" and rec["vp"] == 38 and rec["party_extra"] == []
    assert "King Mark" in rec["friendly_persons"] and rec["arthur"]["bonus"] == 1
    assert in_decks(t, "knights", "Sir Balan")


def test_a37_mad_knight_arthurian_cured_on_the_way(table):
    """LIST OF ADVENTURES 5:3: an Arthurian madman goes to Camelot; cured by prayer on the way he
    rides along as Man-at-Arms, and bringing him there still wins the award: 18 VP and Arthur's
    Favour."""
    t = table(pos(cp=100, vp=20, at="Devon"), dice=[5] + BEAT2 + [6],
              orders={"Anna": "pray for Sir Kay"})
    task = give(t, "mad_knight", "Devon", knights=["Sir Kay"])
    arrive(t, task)
    assert task["dest"] == "Camelot Castle"
    requests_phase(t)
    rec = t.knight()
    assert [m["name"] for m in rec["men_at_arms"]] == ["Sir Kay"]
    rec["at"] = {"area": "Camelot Castle", "where": "inside"}
    arrive(t, task)
    assert task["status"] == "done" and rec["arthur"]["favour"] and rec["men_at_arms"] == []


def test_a38_pilgrimage_to_rome_and_the_town(table):
    """LIST OF ADVENTURES 5:4: reaching Rome he is at its shrine: 18 VP. At the start of a full
    turn in Rome he chooses shrine or town (question 'rome'); in town the town's chart applies."""
    t = table(pos(cp=100, vp=20, at="Rome"), orders={"Anna": "answer rome: town"})
    task = give(t, "pilgrimage_rome", "Rome")
    arrive(t, task)
    assert task["status"] == "done" and t.knight()["vp"] == 38
    s = t.session()
    av.start_of_turn(s)
    from companion.koc.engine.encounters import place_kind

    assert t.knight()["rome"] == "town" and place_kind(s, "Rome") == "town"


def test_a39_rome_town_is_not_the_shrine(table):
    """ADVENTURES, Unusual Adventures, Carbonek and Rome: Rome: an adventure ending at its shrine
    (1:3 pilgrims) is not done while he is in the town; back at the shrine, it is."""
    t = table(pos(cp=100, vp=20, at="Rome"), orders={"Anna": "answer rome: shrine"})
    task = give(t, "escort_pilgrims", "Rome")
    t.knight()["rome"] = "town"
    arrive(t, task)
    assert task["status"] == "at_site" and t.saw("in the town, not at the shrine")
    av.start_of_turn(t.session())
    requests_phase(t)
    assert task["status"] == "done"


def test_a40_carbonek_needs_the_castle(table):
    """ADVENTURES, Unusual Adventures, Carbonek and Rome: Carbonek's shrine is reached through a
    friendly castle reaction: at its gate the escort is not done; admitted, it is."""
    t = table(pos(cp=100, vp=20, at="Carbonek", where="gate"))
    task = give(t, "escort_pilgrims", "Carbonek")
    arrive(t, task)
    assert task["status"] == "at_site"
    t.knight()["at"] = {"area": "Carbonek", "where": "inside"}
    requests_phase(t)
    assert task["status"] == "done" and t.knight()["vp"] == 26


def test_a41_rescue_lady_serpent(table):
    """LIST OF ADVENTURES 6:1: the Serpent (WL 16): 22 VP, 16 CP and the lady's friendship (the
    same for an Enchantress)."""
    t = table(pos(cp=100, vp=20, at="Devon"), dice=BEAT3 * 2)
    task = give(t, "rescue_lady", "Devon", lady="Queen Sebile")
    arrive(t, task)
    rec = t.knight()
    assert task["status"] == "done" and (rec["cp"], rec["vp"]) == (116, 42)
    assert "Queen Sebile" in rec["friendly_persons"]


def test_a42_slay_monster(table):
    """LIST OF ADVENTURES 6:2: the drawn monster (a Giant, WL 18) slain: VP and CP equal to its WL.
    """
    t = table(pos(cp=100, vp=20, at="Devon"), dice=BEAT3 * 2)
    task = give(t, "slay_monster", "Devon", creature={"kind": "monster", "name": "Giant",
                                                       "wl": 18, "dice": 3})
    arrive(t, task)
    assert (t.knight()["cp"], t.knight()["vp"]) == (118, 38)


def test_a42b_slay_monster_fled_pays_half_its_wl(table):
    """LIST OF ADVENTURES 6:2 with ADVENTURES, Awards: the VP award of 6:2 is the monster's WL,
    and an attempt that fails pays half the VP award, rounded up. Anna ties the Giant (WL 18;
    9 against 9), event 2 (1+1) and she flees (luck die 6 against 4): a failed attempt. Rules
    edition 7 (adventures.FAILED_WL_HALF): half of 18, 9 VP, and no CP. A game of edition 6
    keeps its reading: only a monster beaten counted, so the failure paid nothing."""
    for ed in (7, 6):
        t = table(pos(cp=50, vp=20, at="Devon"), dice=[3, 3, 3, 3, 3, 3, 1, 1, 6],
                  orders={"Anna": "answer flee: yes"})
        t.state["edition"] = ed
        task = give(t, "slay_monster", "Devon", creature={"kind": "monster", "name": "Giant",
                                                           "wl": 18, "dice": 3})
        arrive(t, task)
        assert t.saw("Anna flees.") and not t.unused_dice
        assert task["status"] == "failed"
        assert (t.knight()["cp"], t.knight()["vp"]) == (50, 29 if ed == 7 else 20)


def test_a43_trolls(table):
    """LIST OF ADVENTURES 6:4: two trolls (WL 7 and 8) driven off: 22 VP, 15 CP, the lady's
    friendship."""
    t = table(pos(cp=100, vp=20, at="Devon", extra=(
        '[castles]\n"Castle Cardigan" = {area = "Devon", owner = "Lady Enid", '
        'kind = "lady"}\n')), dice=BEAT3 * 2)
    task = give(t, "rescue_lady_from_trolls", "Devon", lady="Lady Enid",
                castle="Castle Cardigan")
    arrive(t, task)
    rec = t.knight()
    assert (rec["cp"], rec["vp"]) == (115, 42) and "Castle Cardigan" in rec["friendly"]


def test_a44_save_your_lady_is_a_summons(table):
    """LIST OF ADVENTURES 6:5: heard of, it is also her summons; the dragon (WL 25) slain: 30 VP,
    25 CP and one request of her granted without a Luck Test."""
    t = table(pos(cp=100, vp=20, at="Somerset", anna='lady = "Lady Lyonesse"',
                  extra='[castles]\n"Castle Perilous" = {area = "Somerset", '
                        'owner = "Lady Lyonesse", kind = "lady"}\n'),
              dice=BEAT3 * 2)
    rec = t.knight()
    rec["at"] = {"area": "Somerset", "where": "inside", "castle": "Castle Perilous"}
    task = give(t, "save_your_lady", "Somerset", castle="Castle Perilous")
    assert t.saw("summons Anna")
    arrive(t, task)
    assert task["status"] == "done" and (rec["cp"], rec["vp"]) == (125, 50)
    assert rec["lady"]["owed"] == 1


def test_a45_vanquish_rebels(table):
    """LIST OF ADVENTURES 6:6: five knights, then the King himself: 40 VP, CP equal to all their
    WLs, and King Arthur's friendship (Camelot friendly for good)."""
    knights = ["Sir Balan", "Sir Elias", "Sir Helior", "Sir Andred", "Sir Ontzlake"]
    t = table(pos(cp=200, vp=40, at="Tintagel", where="inside", lord="King Mark"),
              dice=BEAT3 * 5 + YIELDS * 5 + BEAT3 + D[12])
    task = give(t, "vanquish_rebels", "Tintagel", knights=knights, castle="Tintagel")
    arrive(t, task)
    rec = t.knight()
    assert task["status"] == "done"
    assert (rec["cp"], rec["vp"]) == (200 + 15 + 12 + 9 + 9 + 9 + 12, 80)
    assert "Camelot Castle" in rec["friendly"] and "King Arthur" in rec["friendly_persons"]


# ============================================================================== 7:x, 8:x
def test_a46_pict_revolt(table):
    """OPTIONAL ADVENTURES 7:1-2: the Picts found in Surluise (Luck Test), six of them and their
    renegade leader beaten; the renegade brought to King Galahaut's castle, received there (its
    reaction rolled as usual): his friendship, 18 VP and CP for all their WLs."""
    brigands = ", ".join(f'"Brigand {n}"' for n in (1, 2, 3, 4, 5, 6))
    t = table(pos(cp=100, vp=20, at="Surluise", extra=f'[draws]\nbrigand = [{brigands}]\n'
                  '[decks]\nknights = ["Sir Balan"]\n'),
              dice=[5] + BEAT2 * 6 + BEAT3 + D[10])
    task = give(t, "pict_revolt", "Surluise")
    assert task["adventure"]["knight"]["name"] == "Sir Balan"
    arrive(t, task)
    rec = t.knight()
    assert task["status"] == "active" and task["dest"] == "Orgulous"
    assert rec["party_extra"][0]["kind"] == "captive" and not t.saw("yields")
    rec["at"] = {"area": "Orgulous", "where": "area"}
    s = t.session()
    from companion.koc.engine.encounters import castle_encounter

    castle_encounter(s, "Orgulous")
    arrive(t, task)
    assert task["status"] == "done" and (rec["cp"], rec["vp"]) == (100 + 21 + 15, 38)
    assert "King Galahaut" in rec["friendly_persons"] and rec["party_extra"] == []
    assert in_decks(t, "knights", "Sir Balan")


def test_a47_journey_to_london(table):
    """OPTIONAL ADVENTURES 7:3-4: the item delivered, the recipient found in London (Luck Test): 18
    VP, 10 CP."""
    t = table(pos(cp=100, vp=20, at="London"), dice=[4])
    task = give(t, "journey_to_london", "London")
    assert t.knight()["party_extra"][0]["kind"] == "item"
    arrive(t, task)
    assert task["status"] == "done" and (t.knight()["cp"], t.knight()["vp"]) == (110, 38)
    assert t.knight()["party_extra"] == []


def test_a48_journey_to_york_robbed(table):
    """OPTIONAL ADVENTURES 7:5-6: robbed on the way, the item is lost with his equipment: no award
    at all."""
    t = table(pos(cp=100, vp=20, at="Yorkshire"))
    task = give(t, "journey_to_york", "York")
    from companion.koc.engine.combat import robbed

    robbed(t.session(), by="Brigands")
    requests_phase(t)
    assert task["adventure"]["result"] == "nothing" and t.knight()["vp"] == 20


def test_a49_druid_stone_ring(table):
    """OPTIONAL ADVENTURES 8:1: the ring found; the druid's spell resisted; his six beasts and he
    beaten: 10 VP and CP for the animals' WLs (Hart 4, then five Badgers 1)."""
    t = table(pos(cp=100, vp=20, at="Devon",
                  extra='[draws]\nanimal = ["Badger", "Badger", "Badger", "Badger", "Badger"]\n'),
              dice=[5] + D[12] + BEAT2 * 6 + [6, 6, 6, 1])
    task = give(t, "druid_stone_ring", "Devon", creature={"kind": "animal", "name": "Hart",
                                                           "wl": 4, "dice": 2})
    arrive(t, task)
    assert task["status"] == "done" and (t.knight()["cp"], t.knight()["vp"]) == (109, 30)


def test_a50_barbarian_raiders(table):
    """OPTIONAL ADVENTURES 8:2: seven brigands on arrival: 7 VP, 24 CP."""
    brigands = ", ".join(f'"Brigand {n}"' for n in (1, 2, 3, 4, 5, 6, 1))
    t = table(pos(cp=100, vp=20, at="Isle of Wight", extra=f'[draws]\nbrigand = [{brigands}]\n'),
              dice=BEAT2 * 7)
    task = give(t, "barbarian_raiders", "Isle of Wight")
    arrive(t, task)
    assert task["status"] == "done" and (t.knight()["cp"], t.knight()["vp"]) == (124, 27)


def test_a51_wander_in_wilderness(table):
    """OPTIONAL ADVENTURES 8:3: alone and on foot (his Man-at-Arms leaves, horse and lance stay
    behind) through the three marshes; out of the wastes he finds the Man-at-Arms with his gear
    (Luck Test), then reaches a castle: 20 VP, 25 CP."""
    t = table(pos(cp=100, vp=20, at="Terrington Marsh", anna='men_at_arms = ["Sir Kay"]',
                  extra='[decks]\nknights = ["Sir Gawain"]\n'), dice=[5])
    task = give(t, "wander_in_wilderness", "Terrington Marsh")
    arrive(t, task)
    rec = t.knight()
    assert rec["men_at_arms"] == [] and not rec["gear"]["horse"] and not rec["gear"]["lance"]
    assert rec["gear"]["sword"] and task["adventure"]["marshes"] == ["Terrington Marsh"]
    for area in ("Holbeach Marsh", "Lincoln Marsh"):
        rec["at"] = {"area": area, "where": "area"}
        requests_phase(t)
    assert task["adventure"]["marshes"] == list(reversed(av.MARSHES))
    rec["at"] = {"area": "Lincoln", "where": "area"}
    requests_phase(t)
    assert rec["gear"]["horse"] and rec["men_at_arms"][0]["name"] == "Sir Gawain"
    assert task["adventure"]["stage"] == "town"
    rec["at"] = {"area": "Lincoln Castle", "where": "inside"} \
        if "Lincoln Castle" in t.world.areas else {"area": "York", "where": "area"}
    requests_phase(t)
    assert task["status"] == "done" and (rec["cp"], rec["vp"]) == (125, 40)


def test_a52_wilderness_left_too_soon(table):
    """OPTIONAL ADVENTURES 8:3: out of the wastes before the three marshes: a failed attempt (10
    VP), his horse and lance given back."""
    t = table(pos(cp=100, vp=20, at="Terrington Marsh"))
    task = give(t, "wander_in_wilderness", "Terrington Marsh")
    arrive(t, task)
    t.knight()["at"] = {"area": "Gore", "where": "area"}
    requests_phase(t)
    assert task["status"] == "failed" and t.knight()["vp"] == 30 and t.knight()["gear"]["horse"]


def test_a53_scour_the_wastelands_encountered(table):
    """OPTIONAL ADVENTURES 8:4: a brigand encounter (countryside result 6) in that wasteland is the
    band: seven brigands, the leader WL 10; beaten: 10 VP, 40 CP."""
    brigands = ", ".join(f'"Brigand {n}"' for n in (1, 2, 3, 4, 5, 6))
    t = table(pos(cp=100, vp=20, at="Lincoln", extra=f'[draws]\nbrigand = [{brigands}]\n'),
              dice=[4, 1, 3, 3] + [6, 6, 1, 1] * 7,
              orders={"Anna": "move Lincoln Marsh"})
    task = give(t, "scour_the_wastelands", "Lincoln Marsh")
    t.play()
    assert t.saw("the band that plunders the land") and task["status"] == "done"
    assert (t.knight()["cp"], t.knight()["vp"]) == (140, 30)


def test_a54_scour_the_wastelands_searched(table):
    """OPTIONAL ADVENTURES 8:4: arriving without an encounter he searches at once (Luck Test)
    and finds them; on foot in the wastes he fights with his sword: 10 VP, 40 CP."""
    brigands = ", ".join(f'"Brigand {n}"' for n in (1, 2, 3, 4, 5, 6))
    t = table(pos(cp=100, vp=20, at="Lincoln Marsh", extra=f'[draws]\nbrigand = [{brigands}]\n'),
              dice=[6] + [6, 6, 1, 1] * 7)
    task = give(t, "scour_the_wastelands", "Lincoln Marsh")
    arrive(t, task)
    assert task["status"] == "done" and task["adventure"]["searches"] == 1
    assert (t.knight()["cp"], t.knight()["vp"]) == (140, 30) and t.unused_dice == []


def test_a55_treason_afoot(table):
    """OPTIONAL ADVENTURES 8:5-6: three chieftains slain and the three renegades taken (no fate for
    them), handed to King Arthur at Camelot (received for the visit): 24 VP, 40 CP and his
    friendship."""
    brigands = ", ".join(f'"Brigand {n}"' for n in (1, 2, 3))
    t = table(pos(cp=100, vp=20, at="Gaul", lord="King Mark",
                  extra=f'[draws]\nbrigand = [{brigands}]\n'), dice=BEAT2 * 3 + BEAT3 * 3)
    task = give(t, "treason_afoot", "Gaul", knights=["Sir Balan", "Sir Elias", "Sir Helior"])
    arrive(t, task)
    rec = t.knight()
    assert task["status"] == "active" and task["dest"] == "Camelot Castle"
    assert len(rec["party_extra"]) == 3 and "Camelot Castle" in rec["temp_friendly"]
    rec["at"] = {"area": "Camelot Castle", "where": "inside"}
    arrive(t, task)
    assert task["status"] == "done" and (rec["cp"], rec["vp"]) == (140, 44)
    assert "Camelot Castle" in rec["friendly"] and rec["party_extra"] == []
    for name in ("Sir Balan", "Sir Elias", "Sir Helior"):
        assert in_decks(t, "knights", name)


# ============================================================================== award rules
def test_a56_failure_pays_half_the_vp_rounded_up(table):
    """ADVENTURES, Awards: beaten by the brigands of 2:4 (and robbed), he has attempted it: half of
    5 VP rounded up, 3, and no CP; the drawn cards go back."""
    t = table(pos(cp=30, vp=10, at="Devon",
                  extra='[draws]\nbrigand = ["Brigand 6", "Brigand 5", "Brigand 4", '
                        '"Brigand 3", "Brigand 2"]\n'), dice=[1, 1, 1, 6, 6])
    task = give(t, "vanquish_brigands", "Devon")
    arrive(t, task)
    rec = t.knight()
    assert task["status"] == "failed" and (rec["cp"], rec["vp"]) == (30, 13)
    assert not any(rec["gear"].values())


def test_a57_no_awards_and_no_failure_award(table):
    """ADVENTURES, Awards: an adventure without awards (awards False: ridden as a victor's
    Man-at-Arms) pays nothing, not even its friendship; Knight's Fate 9 pays nothing for a failure
    but the full award for success."""
    t = table(pos(cp=100, vp=20, at="Devon"), dice=BEAT3 + YIELDS)
    task = give(t, "distressed_lady", "Devon", lady="Lady Enid", knights=["Sir Balan"],
                awards=False)
    arrive(t, task)
    rec = t.knight()
    assert task["status"] == "done" and (rec["cp"], rec["vp"]) == (100, 20)
    assert "Lady Enid" not in rec.get("friendly_persons", [])
    t = table(pos(cp=30, vp=10, at="Devon",
                  extra='[draws]\nbrigand = ["Brigand 6", "Brigand 5", "Brigand 4", '
                        '"Brigand 3", "Brigand 2"]\n'), dice=[1, 1, 1, 6, 6])
    task = give(t, "vanquish_brigands", "Devon", no_failure=True)
    arrive(t, task)
    assert task["status"] == "failed" and t.knight()["vp"] == 10
    t = table(pos(cp=100, vp=20, at="Devon"), dice=BEAT3)
    task = give(t, "avenge_knight", "Devon", no_failure=True)
    arrive(t, task)
    assert t.knight()["vp"] == 32


# ============================================================================== prophecies
def test_a58_prophecy_blocks_the_round_table_until_attempted(table):
    """ADVENTURES, Prophecies: while he holds a Prophecy not yet attempted, King Arthur will not
    hear his petition for the Round Table (nothing rolled). Attempted, even in defeat, it is
    fulfilled and the petition is heard."""
    t = table(pos(cp=150, vp=40, at="Camelot Castle", where="inside", lord="King Mark",
                  extra='[draws]\nbrigand = ["Brigand 6", "Brigand 5", "Brigand 4", '
                        '"Brigand 3", "Brigand 2"]\n'),
              orders={"Anna": "request service of arthur"},
              dice=[1, 1, 1, 6, 6] * 2 + D[12] + [6])
    task = give(t, "vanquish_brigands", "Devon", prophecy=True)
    assert av.prophecy_pending(t.knight()) is task
    requests_phase(t)
    assert t.saw("will not hear Anna's petition") and not t.saw("King Arthur's answer")
    rec = t.knight()
    at = rec["at"]
    rec["at"] = {"area": "Devon", "where": "area"}
    arrive(t, task)
    assert task["status"] == "failed" and task["fulfilled"]
    assert av.prophecy_pending(rec) is None and t.saw("prophecy of adventure 2:4 is fulfilled")
    rec["at"] = at
    t.state["koc"]["turn"] = 2
    requests_phase(t)
    assert t.saw("King Arthur's answer")


def test_a59_prophecy_left_unattempted_waits(table):
    """ADVENTURES, Prophecies: A Prophecy has no route rule: leaving its site before attempting it,
    it waits for him (active again), and it cannot be abandoned (the order is refused)."""
    t = table(pos(cp=100, vp=10, at="Devon"), orders={"Anna": "abandon adventure 2:5"})
    task = give(t, "avenge_knight", "Devon", prophecy=True, status="at_site")
    task["adventure"]["arrived"] = 1
    t.knight()["at"] = {"area": "Cornwall", "where": "area"}
    requests_phase(t)
    assert task["status"] == "active" and task["route"] is None
    with pytest.raises(OrdersRejected) as err:
        KIND.check_orders(t.state, "Anna", t.game.orders["Anna"], "a.txt")
    assert "a Prophecy" in err.value.render()
    av.start_of_turn(t.session())
    assert task["status"] == "active" and t.saw("must be attempted, not abandoned")


# ============================================================================== sharing
HAROLD = """
game = "koc"
turn = 3
order = ["Harold", "John", "Alyn"]
[merlin]
area = "Argyll"
[castles]
"Castle Perilous" = {area = "Somerset", owner = "Lady Lyonesse", kind = "lady"}
[parties]
Harold = ["John", "Alyn"]
[knight.Harold]
name = "Sir Harold the Doleful"
cp = 100
vp = 20
at = "Somerset"
lord = "King Arthur"
lady = "Lady Lyonesse"
dwarf = true
men_at_arms = ["Sir Kay", "Sir Lucan"]
[knight.John]
name = "Sir John the Boarkiller"
cp = 150
vp = 30
at = "Somerset"
lord = "King Arthur"
dwarf = true
men_at_arms = ["Sir Griflet"]
[knight.Alyn]
name = "Sir Alyn"
cp = 60
vp = 10
at = "Somerset"
lord = "King Arthur"
mascot = "Brachet"
"""


def test_a60_sir_harold_shares_the_dragon(table):
    """ADVENTURES, Sharing an Adventure, Dividing Awards: the rules' example. Sir Harold invites
    Sir Alyn and Sir John to 6:5; Harold reduces the dragon to WL 17 and falls, John brings it to 4
    and falls, Alyn's brachet slays it. 30 VP and 25 CP three ways: 10 VP each, 8 CP each and the
    leftover CP to Harold, who first heard of it."""
    t = table(HAROLD, orders={"Harold": "share adventure A-1 with John, Alyn",
                              "John": "answer share: yes", "Alyn": "on mascot: yes"},
              dice=[6, 6, 6, 4, 3, 3] + [1, 1, 1, 6, 6, 6]          # Harold: 25 -> 17
              + [6, 6, 6, 2, 2, 1] + [1, 1, 1, 6, 6, 6]             # John: 17 -> 4
              + [6, 6, 1, 1, 1])                                     # the brachet
    task = give(t, "save_your_lady", "Somerset", player="Harold", castle="Castle Perilous")
    assert task["adventure"]["marker"] == "A-1"
    s = t.session("Harold")
    av.start_of_turn(s)
    assert task["adventure"]["sharers"] == ["John", "Alyn"]
    assert task["adventure"]["joined"] == ["John", "Alyn"]
    assert [x["kind"] for x in t.knight("John")["tasks"]] == ["share"]
    arrive(t, task, player="Harold")
    assert t.saw("Brachet defeats the Dragon")
    harold, john, alyn = (t.knight(p) for p in ("Harold", "John", "Alyn"))
    assert task["status"] == "done"
    assert (harold["vp"], john["vp"], alyn["vp"]) == (30, 40, 20)
    assert (harold["cp"], john["cp"], alyn["cp"]) == (109, 158, 68)
    assert t.knight("John")["tasks"][0]["status"] == "done"
    assert t.unused_dice == []


def test_a61_sharers_must_be_present(table):
    """ADVENTURES, Sharing an Adventure and Dividing Awards: Only knights invited, who agreed and
    are with the leader at the site, share: Bert declines ('on share: no'), Cara agrees but is
    elsewhere when he arrives: Anna takes it all."""
    t = table(pos(cp=100, vp=20, at="Devon", others={
        "Bert": 'cp = 100\nvp = 20\nat = "Devon"\nlord = "King Arthur"',
        "Cara": 'cp = 100\nvp = 20\nat = "Cornwall"\nlord = "King Arthur"'}),
        orders={"Anna": "share adventure 2:5 with Bert, Cara", "Bert": "on share: no"},
        dice=BEAT3)
    task = give(t, "avenge_knight", "Devon")
    av.start_of_turn(t.session())
    assert task["adventure"]["sharers"] == ["Cara"] and t.saw("declines to share")
    arrive(t, task)
    assert t.knight()["vp"] == 32 and t.knight("Cara")["vp"] == 20
    assert t.knight("Cara")["tasks"][0]["status"] == "cancelled"


def test_a62_invitee_joins_by_riding_to_the_leader(table):
    """ADVENTURES, Sharing an Adventure: An invited knight need not start with the leader: riding
    into his area before the site is reached, he has joined him (no Luck Test to find him); present
    at the site, he shares (12 VP, 10 CP: 6 and 5 each)."""
    t = table(pos(cp=100, vp=20, at="Devon", others={
        "Bert": 'cp = 100\nvp = 20\nat = "Cornwall"\nlord = "King Arthur"'}),
        orders={"Anna": "share adventure 2:5 with Bert"}, dice=BEAT3)
    task = give(t, "avenge_knight", "Somerset")
    av.start_of_turn(t.session())
    assert task["adventure"].get("joined", []) == []
    t.knight("Bert")["at"] = {"area": "Devon", "where": "area"}
    requests_phase(t, player="Bert")
    assert task["adventure"]["joined"] == ["Bert"] and t.saw("has joined")
    for p in ("Anna", "Bert"):
        t.knight(p)["at"] = {"area": "Somerset", "where": "area"}
    arrive(t, task)
    assert (t.knight()["vp"], t.knight()["cp"]) == (26, 105)
    assert (t.knight("Bert")["vp"], t.knight("Bert")["cp"]) == (26, 105)


def test_a63_faerie_share(table):
    """PLAYER INTERACTION: a Faerie adventure (3:3) may be shared, but only the leader enters
    Faerie; each sharer takes his part of the 12 points as VP or CP (Anna VP, Bert CP)."""
    t = table(pos(cp=100, vp=20, at="Devon", others={
        "Bert": 'cp = 100\nvp = 20\nat = "Devon"\nlord = "King Arthur"'}),
        orders={"Anna": "share adventure 3:3 with Bert", "Bert": "answer faerie_share: cp"})
    task = give(t, "visit_faerie", "Devon")
    av.start_of_turn(t.session())
    arrive(t, task)
    anna, bert = t.knight(), t.knight("Bert")
    assert anna["at"]["area"] == "Faerie" and bert["at"]["area"] == "Devon"
    assert (anna["vp"], anna["cp"], bert["vp"], bert["cp"]) == (26, 100, 20, 106)


def test_a64_share_and_abandon_orders(table):
    """ADVENTURES, Sharing an Adventure; Pursuing Adventures; orders: The orders: 'share adventure
    <marker or number> with <players>' and 'abandon adventure <marker>', each error located: an
    unknown adventure, an unshareable one (1:1, 3:6, 4:1), an adventure whose site is reached,
    inviting oneself."""
    t = table(pos(cp=100, vp=20, at="Devon", others={
        "Bert": 'cp = 100\nvp = 20\nat = "Devon"\nlord = "King Arthur"'}))
    give(t, "kings_champion", "Tintagel", knights=["Sir Balan"], castle="Tintagel")
    give(t, "avenge_knight", "Somerset", status="at_site")
    players = ["Anna", "Bert"]
    orders = parse_orders(t.world, players, "share adventure A-1 with Bert\n"
                          "share adventure 2:5 with Bert\nshare adventure A-9 with Bert\n"
                          "abandon adventure 4:1\n", "anna.txt")
    assert [o["which"] for o in orders.adventure_orders] == ["A-1", "2:5", "A-9", "4:1"]
    with pytest.raises(OrdersRejected) as err:
        KIND.check_orders(t.state, "Anna", orders, "anna.txt")
    text = err.value.render()
    assert "anna.txt:1" in text and "3:6 may not be shared" in text
    assert "anna.txt:2" in text and "too late" in text
    assert "anna.txt:3" in text and "holds no adventure 'A-9'" in text
    assert "anna.txt:4" in text
    with pytest.raises(OrdersRejected) as err:
        parse_orders(t.world, players, "share adventure A-1 with Zoe\n", "anna.txt")
    assert "anna.txt:1:26" in err.value.render()
    give(t, "court_lady", "Devon", lady="Lady Enid")
    orders = parse_orders(t.world, players, "share adventure A-3 with Anna", "a.txt")
    with pytest.raises(OrdersRejected) as err:
        KIND.check_orders(t.state, "Anna", orders, "a.txt")
    assert "courting a Lady" in err.value.render() and "invite himself" in err.value.render()
    lines = KIND.options_for(t.state, "Anna")
    assert "share adventure A-1 with Bert" not in lines


def test_a64b_no_stop_once_on_the_way(table):
    """ADVENTURES, Pursuing Adventures (and Sir Robert's example): the one turn of grace is for
    gathering aid where the knight heard of the adventure, before he sets out; a stop along the
    route makes it disappear. Anna hears of 2:5 (the ogre in Kent) in Hampshire; staying there
    one turn keeps it. Riding on into Bedgebury Forest and then staying a turn (no encounter):
    rules edition 7 (adventures.GRACE_AT_THE_START) loses it ("it was delayed", no penalty). A
    game of edition 6 keeps its reading: the turn of grace served there too. Escorting a Lady
    (1:2) keeps that turn on the way, an escort's stopover (docs/koc-engine.md)."""
    for ed in (7, 6):
        t = table(pos(cp=100, vp=20, at="Hampshire"))
        t.state["edition"] = ed
        task = give(t, "avenge_knight", "Kent")
        s = t.session()
        tasks.after_movement(s, "Hampshire", [], False)         # a turn of grace at the start
        assert task["status"] == "active"
        t = table(pos(cp=100, vp=20, at="Hampshire"))
        t.state["edition"] = ed
        task = give(t, "avenge_knight", "Kent")
        s = t.session()
        s.pk["at"] = {"area": "Bedgebury Forest", "where": "area"}
        tasks.after_movement(s, "Hampshire", ["Bedgebury Forest"], False)
        assert task["status"] == "active"
        tasks.after_movement(s, "Bedgebury Forest", [], False)  # a stop on the way
        assert task["status"] == ("failed" if ed == 7 else "active")
        assert t.saw("fails: it was delayed") == (ed == 7)
        assert t.knight()["vp"] == 20
    # escorting a Lady (1:2), a stop on the way (a stopover) is still his one turn of grace
    t = table(pos(cp=100, vp=20, at="Hampshire"))
    task = give(t, "escort_lady", "Kent", lady="Lady Enid")
    s = t.session()
    s.pk["at"] = {"area": "Bedgebury Forest", "where": "area"}
    tasks.after_movement(s, "Hampshire", ["Bedgebury Forest"], False)
    tasks.after_movement(s, "Bedgebury Forest", [], False)
    assert task["status"] == "active"


def test_a65_abandoning(table):
    """ADVENTURES, Pursuing Adventures (abandoning): Abandoning: no penalty, the adventure is
    simply gone (the escorted lady leaves, her card goes back); a task of King Arthur's abandoned
    has failed."""
    t = table(pos(cp=100, vp=20, at="Devon"),
              orders={"Anna": "abandon adventure A-1\nabandon adventure 2:4"})
    task = give(t, "escort_lady", "Canterbury", lady="Lady Enid")
    arthurs = give(t, "vanquish_brigands", "Cornwall")
    arthurs["arthur_task"] = "task_brigands"
    t.knight()["arthur"]["task"] = {"kind": "task_brigands", "request": "dwarf",
                                    "task_id": arthurs["id"]}
    av.start_of_turn(t.session())
    rec = t.knight()
    assert task["status"] == "abandoned" and rec["vp"] == 20 and rec["party_extra"] == []
    assert in_decks(t, "ladies", "Lady Enid")
    assert arthurs["status"] == "abandoned" and rec["arthur"]["task"] is None
    assert t.saw("King Arthur's task has failed")


# ============================================================================== King Arthur
def test_a66_arthurs_task_adventure_bonus(table):
    """King Arthur Request Reaction Chart: King Arthur's reaction 4: an adventure as his task (each
    adventure die +1: 1, 4 read 2:5; a Man-at-Arms from him, having none); done, +1 on his answers.
    Asked for an adventure, the same answer is that adventure, with no bonus."""
    t = table(pos(cp=100, vp=20, at="Camelot Castle", where="inside",
                  extra='[decks]\nknights = ["Sir Kay", "Sir Gawain"]\n'),
              orders={"Anna": "request dwarf of arthur"}, dice=D[4] + [1, 4] + [4, 6, 6] + BEAT3)
    requests_phase(t)
    rec = t.knight()
    task = next(x for x in rec["tasks"] if x["kind"] == "adventure")
    assert task["adventure"]["key"] == "avenge_knight" and rec["men_at_arms"]
    assert rec["arthur"]["task"]["task_id"] == task["id"]
    rec["at"] = {"area": task["dest"], "where": "area"}
    arrive(t, task)
    assert task["status"] == "done" and rec["vp"] == 32
    assert rec["arthur"]["bonus"] == 1 and rec["arthur"]["task"] is None
    t = table(pos(cp=100, vp=20, at="Camelot Castle", where="inside",
                  extra='[decks]\nknights = ["Sir Kay", "Sir Gawain"]\n'),
              orders={"Anna": "request adventure of arthur"},
              dice=D[4] + [1, 4] + [4, 6, 6] + BEAT3)
    requests_phase(t)
    rec = t.knight()
    task = next(x for x in rec["tasks"] if x["kind"] == "adventure")
    assert rec["arthur"]["task"] is None and not task.get("arthur_task")
    rec["at"] = {"area": task["dest"], "where": "area"}
    arrive(t, task)
    assert task["status"] == "done" and rec["arthur"]["bonus"] == 0


# ============================================================================== Knight's Fate
def test_a67_fate_seven_victor_leads(table):
    """KNIGHT'S FATE 7: riding as the victor's Man-at-Arms, the victor fights first; he beats the
    ogre: the adventure is done, the knight gains nothing."""
    t = table(pos(cp=100, vp=20, at="Devon"), dice=BEAT3)
    task = give(t, "avenge_knight", "Devon", awards=False, no_failure=True,
                leader=card("Sir Lancelot"))
    arrive(t, task)
    assert task["status"] == "done" and t.saw("Sir Lancelot leads and fights first")
    assert (t.knight()["cp"], t.knight()["vp"]) == (100, 20)


def test_a68_fate_seven_victor_falls(table):
    """KNIGHT'S FATE 7: the victor falls; the knight fights on and wins the day; he stays and the
    adventure is his own, with its award (12 VP, 10 CP). Choosing to leave instead, he rides off
    without award or penalty."""
    t = table(pos(cp=100, vp=20, at="Devon"), dice=[1, 1, 1, 6, 6, 6] + BEAT3)
    task = give(t, "avenge_knight", "Devon", awards=False, no_failure=True,
                leader=card("Sir Helior"), penalty_vp=12)
    arrive(t, task)
    assert t.saw("Sir Helior has fallen") and task["status"] == "done"
    assert (t.knight()["cp"], t.knight()["vp"]) == (110, 32) and task["penalty_vp"] == 0
    t = table(pos(cp=100, vp=20, at="Devon"), dice=[1, 1, 1, 6, 6, 6] + BEAT3,
              orders={"Anna": "answer company: leave"})
    task = give(t, "avenge_knight", "Devon", awards=False, no_failure=True,
                leader=card("Sir Helior"), penalty_vp=12)
    arrive(t, task)
    assert (t.knight()["cp"], t.knight()["vp"]) == (100, 20) and task["status"] == "done"


def test_a68b_fate_seven_victor_leads_on_the_road(table):
    """KNIGHT'S FATE 7: the victor leads and fights first in every encounter, not only at the
    site. A monster met on the way: Sir Lancelot slays it, the knight does not fight and gains
    nothing; Sir Helior falls to a second, the knight slays it and stays (the adventure is his
    own); a third time the victor falls and the knight loses: nothing binds him any more, the
    adventure is given up without penalty (our decision)."""
    from companion.koc.engine.combat import fight, foe

    t = table(pos(cp=100, vp=20, at="Devon"), dice=BEAT3)
    task = give(t, "avenge_knight", "Kent", awards=False, no_failure=True,
                leader=card("Sir Lancelot"), penalty_vp=12)
    out = fight(t.session(), [foe("monster", "Troll", 7, 3)], tags=("monster",))
    assert out.won and t.saw("Sir Lancelot leads and fights first")
    assert (t.knight()["cp"], t.knight()["vp"]) == (100, 20) and task["status"] == "active"
    t = table(pos(cp=100, vp=20, at="Devon"), dice=[1, 1, 1, 6, 6, 6] + BEAT3)
    task = give(t, "avenge_knight", "Kent", awards=False, no_failure=True,
                leader=card("Sir Helior"), penalty_vp=12)
    out = fight(t.session(), [foe("monster", "Troll", 7, 3)], tags=("monster",))
    assert out.won and t.saw("Sir Helior has fallen") and t.saw("stays: the adventure is his")
    assert task["status"] == "active" and task["adventure"]["awards"]
    assert task["leader"] is None and task["penalty_vp"] == 0
    t = table(pos(cp=30, vp=10, at="Devon"), dice=[1, 1, 1, 6, 6, 6] + LOSE3 * 3,
              orders={"Anna": "on flee: no"})
    task = give(t, "avenge_knight", "Kent", awards=False, no_failure=True,
                leader=card("Sir Helior"), penalty_vp=12)
    fight(t.session(), [foe("monster", "Troll", 9, 3)], tags=("monster",), on_defeat="none")
    assert task["status"] == "abandoned" and t.knight()["vp"] == 10


def test_a69_fate_nine_charges_with_adventure(table):
    """KNIGHT'S FATE 9: the adventure is undertaken at once, with awards for success and none for
    failure (flags set by fate.py and kept by the adventure)."""
    from companion.koc.engine.fate import apply_fate

    t = table(pos(cp=100, vp=20, at="Devon"), dice=[2, 5, 3, 4])
    apply_fate(t.session(), "charges_with_adventure", {"kind": "knight", "name": "Sir Kay",
                                                      "vl": 6}, None)
    task = next(x for x in t.knight()["tasks"] if x["kind"] == "adventure")
    assert task["adventure"]["no_failure_award"] and task["adventure"]["awards"]
    av.finish(t.session(), task, "failure")
    assert t.knight()["vp"] == 20 and t.saw("brings no award")


# ============================================================================== reports, play
def test_a70_progress_in_the_knights_own_report(table):
    """ADVENTURES (the Adventure Journal), reports: Reports: his own journal shows the adventure's
    progress (site reached, sharers, prayers, turns waited); another player's view does not."""
    t = table(pos(cp=100, vp=10, at="Devon", others={
        "Bert": 'cp = 100\nvp = 20\nat = "Devon"\nlord = "King Arthur"'}),
        orders={"Anna": "share adventure 3:1 with Bert"})
    task = give(t, "cure_wounded_knight", "Devon", knights=["Sir Balan"])
    av.start_of_turn(t.session())
    arrive(t, task)
    requests_phase(t)
    t.state["events"] = []
    mine = KIND.view(t.state, "Anna")
    row = next(x for x in mine["journal"]["tasks"] if x["kind"] == "adventure")
    assert "at the site since turn 1" in row["progress"] and "shared with Bert" in row["progress"]
    assert "turns waited in place: 1 of 3" in row["progress"]
    theirs = KIND.view(t.state, "Bert")
    assert not any("at the site" in x["progress"] for x in theirs["journal"]["tasks"])
    assert "invited to share A-1 by Anna" in theirs["journal"]["tasks"][0]["progress"]


def test_a71_heard_and_performed_in_play(table):
    """ADVENTURES, Determining and Pursuing Adventures: The whole way in play: inside Tintagel Anna
    asks King Mark for an adventure (granted, 2:3, a hostile knight nearby); next turn she rides
    out into Cornwall, and he is met there and beaten by her own hand."""
    t = table(pos(cp=100, vp=20, at="Tintagel", where="inside", lord="King Arthur",
                  extra='[decks]\nknights = ["Sir Balan"]\n'),
              dice=[4, 5, 5, 2, 3] + [4, 6] + BEAT3 + YIELDS,
              orders={"Anna": "stay\nrequest adventure of king"})
    t.play()
    task = next(x for x in t.knight()["tasks"] if x["kind"] == "adventure")
    assert task["adventure"]["key"] == "vanquish_knight" and task["dest"] == "Cornwall"
    assert task["adventure"]["cards"] == [["knights", "Sir Balan"]]
    t.state["koc"]["turn"] = 2
    t.game.orders = {"Anna": parse_orders(t.world, ["Anna"], "move Cornwall", "a.txt")}
    t.play()
    assert task["status"] == "done" and (t.knight()["cp"], t.knight()["vp"]) == (115, 26)
    assert t.unused_dice == [] and in_decks(t, "knights", "Sir Balan")


def test_a72_tournaments_are_left_to_their_module(table, monkeypatch):
    """LIST OF ADVENTURES 5:5, 5:6, 6:3: at the site of a tournament adventure the dispatch hands
    the task to tournaments.adventure_tournament (which pays and closes it); such an adventure is
    not shared."""
    tournaments = pytest.importorskip("companion.koc.engine.tournaments")
    if not hasattr(tournaments, "adventure_tournament"):
        pytest.skip("tournaments.adventure_tournament is not there yet")
    calls = []
    monkeypatch.setattr(tournaments, "adventure_tournament",
                        lambda s, task: calls.append(task["adventure"]["key"]))
    t = table(pos(cp=100, vp=20, at="Tintagel", where="inside"))
    task = give(t, "tournament", "Tintagel", castle="Tintagel")
    assert av.unshareable(task) and "jousts for himself" in av.unshareable(task)
    arrive(t, task)
    assert calls == ["tournament"] and task["status"] == "at_site"


def test_a73_cards_go_back_when_an_adventure_ends_elsewhere(table):
    """ADVENTURES, Pursuing Adventures; card conservation: Card conservation: an adventure lost on
    the road (straying from the most direct route) gives back what it held at the start of the next
    turn (the escorted lady leaves, her card goes back); a lost assault gives back the defenders he
    did not beat."""
    t = table(pos(cp=100, vp=20, at="Devon"))
    task = give(t, "escort_lady", "Canterbury", lady="Lady Enid")
    tasks.fail(t.session(), task, "it left the most direct route")
    av.start_of_turn(t.session())
    assert t.knight()["party_extra"] == [] and in_decks(t, "ladies", "Lady Enid")
    assert task["adventure"]["closed"]
    t = table(pos(cp=30, vp=10, at="Devon", extra=CASTLE_A1 + (
        '[decks]\nknights = ["Sir Kay", "Sir Dodinas"]\n')),
        dice=[2] + LOSE3 + [6, 6], orders={"Anna": "answer free_prisoner: storm"})
    task = give(t, "free_knight", "Devon", knights=["Sir Balan"],
                castle="castle of adventure A-1")
    arrive(t, task)
    rec = t.knight()
    assert task["status"] == "failed" and rec["prison"] is not None
    for name in ("Sir Kay", "Sir Dodinas", "Sir Balan"):
        assert in_decks(t, "knights", name)


def test_a74_order_lines_and_acknowledgement(table):
    """ADVENTURES, Sharing an Adventure; orders: Orders: the legal lines offer sharing an adventure
    still on its way; the acknowledgement says what will be done; a turn waiting for an answer
    refuses them."""
    t = table(pos(cp=100, vp=20, at="Devon", others={
        "Bert": 'cp = 100\nvp = 20\nat = "Devon"\nlord = "King Arthur"'}))
    give(t, "avenge_knight", "Somerset")
    assert "share adventure A-1 with Bert" in KIND.options_for(t.state, "Anna")
    orders = KIND.parse_orders(t.state, "Anna", "share adventure A-1 with Bert\n"
                               "abandon adventure 2:5\n", "a.txt")
    KIND.check_orders(t.state, "Anna", orders, "a.txt")
    said = KIND.acknowledge(t.state, "Anna", orders)
    assert any("invite Bert to share adventure A-1" in x for x in said)
    assert any("abandon adventure 2:5 (no penalty)" in x for x in said)
    t.state["pending"]["Anna"] = {"question": {"key": "yield"}, "answers": [], "dice": [],
                                  "events": []}
    with pytest.raises(OrdersRejected) as err:
        KIND.check_orders(t.state, "Anna", orders, "a.txt")
    assert "share adventure cannot be changed now" in err.value.render()


def test_a75_castle_ridden_up_to_next_turn(table):
    """ADVENTURES, Pursuing Adventures: arriving in the area of the site's castle counter after
    an encounter there, he rides up to it only next turn, staying (his movement of the turn;
    no encounter roll): admitted (10), the visit is done (2:1, 6 CP)."""
    t = table(pos(cp=100, vp=20, at="Devon", extra=(
        '[castles]\n"Castle Cardigan" = {area = "Devon", owner = "Lady Enid", kind = "lady"}\n')),
        dice=[4] + D[10], orders={"Anna": "stay"})
    task = give(t, "visit_lady", "Devon", lady="Lady Enid", castle="Castle Cardigan")
    s = t.session()
    s.pk["encountered"] = True
    arrive(t, task)
    assert task["adventure"]["stage"] == "approach" and t.saw("next turn, if he stays")
    s.pk.pop("encountered")
    t.state["koc"]["turn"] = 2
    t.play()
    assert task["status"] == "done" and t.knight()["cp"] == 106
    assert not t.saw("Encounter roll in Devon")


def test_a76_king_arthur_as_lord_owes_a_request(table):
    """LIST OF ADVENTURES 6:6 for a knight of King Arthur: his friendship is a request granted
    at once (no answer rolled on his chart): a Dwarf of Camelot."""
    knights = ["Sir Balan", "Sir Elias", "Sir Helior", "Sir Andred", "Sir Ontzlake"]
    t = table(pos(cp=200, vp=40, at="Tintagel", where="inside", lord="King Arthur"),
              dice=BEAT3 * 5 + YIELDS * 5 + BEAT3 + D[12],
              orders={"Anna": "request dwarf of arthur"})
    task = give(t, "vanquish_rebels", "Tintagel", knights=knights, castle="Tintagel")
    arrive(t, task)
    rec = t.knight()
    assert rec["lord"]["owed"] == 1 and "King Arthur" not in rec.get("friendly_persons", [])
    rec["at"] = {"area": "Camelot Castle", "where": "inside"}
    requests_phase(t)
    assert rec["dwarf"] == {"arthurian": True, "spares": ["horse", "shield", "lance", "sword"]}
    assert not t.saw("King Arthur's answer") and "owed" not in rec["lord"]


def test_a77_a_fallen_knight_gives_back_his_cards(table):
    """A knight slain away from his adventure's fight (here outright) starts anew:
    the persons his adventures held and his Men-at-Arms and comrades go back to their decks
    (card conservation; found by random play)."""
    from companion.koc.engine.combat import knight_slain

    t = table(pos(cp=100, vp=20, at="Devon", anna='men_at_arms = ["Sir Lucan"]\n'
                  'comrades = ["Sir Griflet"]'))
    task = give(t, "vanquish_knight", "Devon", knights=["Sir Balan"])
    knight_slain(t.session())
    assert task["status"] == "cancelled" and task["adventure"]["closed"]
    for name in ("Sir Balan", "Sir Lucan", "Sir Griflet"):
        assert in_decks(t, "knights", name), name
    assert t.knight()["name"] != "Anna" or t.knight()["men_at_arms"] == []


def test_a78_sharing_an_adventure_whose_site_is_not_fixed(table):
    """ADVENTURES, Sharing an Adventure: an adventure may have no site yet (6:5 for a knight
    with no castle of his Lady or Lord to save; random play, seed 630101). From rules edition 5
    the invitation says its site is not fixed and the sharer's task names none, where earlier
    editions wrote "(its site: None)" and "sharing Anna's adventure 6:5 ... at None" (a game
    of edition 4 keeps that, for its replay)."""
    for edition in (5, 4):
        t = table(pos(cp=100, vp=20, at="Devon", others={
            "Bert": 'cp = 100\nvp = 20\nat = "Devon"\nlord = "King Arthur"'}),
            orders={"Anna": "share adventure 6:5 with Bert", "Bert": "on share: yes"})
        t.state["edition"] = edition
        task = give(t, "save_your_lady", None)
        av.start_of_turn(t.session())
        assert task["adventure"]["sharers"] == ["Bert"]
        why = t.knight("Bert")["tasks"][0]["why"]
        if edition >= 5:
            assert why == "sharing Anna's adventure 6:5 Save your lady (or lord) from a dragon"
            assert not any("None" in e for e in t.events)
        else:
            assert why.endswith(" at None")


def test_a79_adventure_markers_by_seat_for_up_to_eight_knights(table):
    """ADVENTURES (each player's Adventure markers, of his colour): from rules edition 6 a
    knight's markers bear his seat's letter, counted from the game's first player, so it
    stays his when the first player rotates, and the seventh and eighth knights have letters
    of their own (G, H); a marker another knight's running adventure bears is never given
    again. Earlier editions took the letter of his place in this game turn's order modulo
    the six colour sets: Hugo, eighth of eight, got Bert's "B-1", and with the order rotated
    by one Bert and Hugo both got "A-1", Anna's (random play with 7 and 8 knights and with
    first-player=rotate); a game of edition 5 keeps that, for its replay."""
    names = ["Bert", "Cora", "Dora", "Emil", "Fritz", "Greta", "Hugo"]
    others = {n: 'cp = 100\nvp = 20\nat = "Devon"' for n in names}
    for ed in (6, 5):
        t = table(pos(cp=100, vp=20, at="Devon", others=others))
        t.state["edition"] = ed
        give(t, "visit_lady", "Devon", player="Bert", lady="Dame Brisen")
        hugo = give(t, "visit_lady", "Devon", player="Hugo", lady="Lady Lyonesse")
        assert hugo["adventure"]["marker"] == ("H-1" if ed >= 6 else "B-1")
        # the marker passes left: Bert plays first this game turn (Anna remains first seat)
        order = t.state["koc"]["order"]
        t.state["koc"]["order"] = order[1:] + order[:1]
        assert t.state["koc"]["first"] == "Anna"
        again = give(t, "visit_lady", "Devon", player="Bert", lady="Lady Elaine")
        assert again["adventure"]["marker"] == ("B-2" if ed >= 6 else "A-1")
        gave = give(t, "visit_lady", "Devon", player="Hugo", lady="Queen Sebile")
        assert gave["adventure"]["marker"] == ("H-2" if ed >= 6 else "A-1")
