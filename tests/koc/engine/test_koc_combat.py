"""Combat and Knight's Fate: a casebook (rules: COMBAT, Knight's Fate). Dice are explicit."""
from __future__ import annotations

import pytest

from companion.engine.game import PUBLIC
from companion.engine.orders import OrdersRejected
from companion.koc.engine import knight as kn
from companion.koc.engine import tasks
from companion.koc.engine.combat import (
    Combat, challenge, fight, foe, npk, party_combat, pk_fighter, settle_foe,
)
from companion.koc.engine.fate import give_fate, suffer_fate
from companion.koc.engine.session import Session
from companion.koc.orders import parse_orders
from kocpos import card, pos

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
    costs Sir Rufus 3 VP; and, as for any Lady, 20 CP (project decision, docs/koc-engine.md)."""
    t = table(position(cp=100, vp=20))
    s = t.session()
    queen = foe("lady", "Queen of North Wales", 1, 1,
                card={"name": "Queen of North Wales", "vl": 9, "enchantress": True})
    c = Combat(s, [queen], attacker="pk")
    settle_foe(s, c, queen, True)
    assert t.knight()["vp"] == 17 and t.knight()["cp"] == 80


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


def test_c38_a_lance_broken_in_the_last_pass_asks_nothing_more(table):
    """Breaking lances; Knightly Methods of Combat (found reading random games): Anna's lance
    breaks on 11 in the very pass that takes her last wound (Sir Kay's lance: 13). Rules edition
    3 asks no new method and no appeal to fight fairly (no VL check is rolled): the fight is
    over. A game begun under edition 2 keeps its reading: Sir Kay's VL check to fight fairly
    came between the pass and her defeat."""
    for edition in (3, 2):
        t = table(position(cp=10, vp=20), dice=[5, 5, 1, 6, 6, 1, 1, 1])
        t.state["edition"] = edition
        s = t.session()
        knight = npk({"kind": "knight", "name": "Sir Kay", "vl": 5, "cp": 100})
        c = Combat(s, [knight], attacker="foe")
        c.me["method"] = "lance"
        knight["method"] = "lance"
        c.exchange(c.me, knight)
        assert not t.knight()["gear"]["lance"] and t.saw("lance breaks")
        assert t.saw("agrees to fight fairly") == (edition == 2)
        assert len(t.unused_dice) == (2 if edition == 3 else 0)


def test_c39_pirates_the_crew_cut_down_after_the_knight_fell(table):
    """Combat Aboard Ships and Outcomes: Victory (decision, rules edition 4,
    combat.FOLLOWERS_WIN_HALF). Anna (WL 1) aboard a Cog (crew 10) is beaten by pirate 1 (WL 3)
    in the first pass (her 2, his 12) before she wounds anyone; the ship's crew fights on and
    cuts down pirate 1 and pirate 2 (12 against 2 each time): her side wins, no robbing. The
    pirates fell to the crew, not to her: as the rules pay half for a Monster the knight did
    not slay himself, each pays her half his WL, 2 CP (3 halved, rounded up). A game begun
    under edition 3 keeps its reading: 3 CP each, as if her own hand had slain them."""
    for edition in (4, 3):
        t = table(pos(cp=10, vp=5, at="Narrow Sea", where="ship"),
                  dice=[1, 1, 6, 6] + [6, 6, 1, 1] * 2)
        t.state["edition"] = edition
        pirates = [foe("pirate", f"pirate {n}", 3, 2) for n in (1, 2)]
        result = fight(t.session(), pirates)
        assert t.saw("Pass: Anna 2, pirate 1 12; Anna WL 0, pirate 1 WL 3.")
        assert t.saw("the crew of the Cog fights pirate 2: pirate 2 falls.")
        assert result.won and result.pk_defeated and not t.saw("robs")
        for n in (1, 2):
            assert t.saw(f"Anna gains 2 CP (defeating pirate {n}, struck down by the "
                         "followers: half)" if edition == 4 else
                         f"Anna gains 3 CP (defeating pirate {n})")
        assert t.knight()["cp"] == (14 if edition == 4 else 16)
        assert t.unused_dice == []


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


# ------------------------------------------------------------------ a PK chooses a PK's fate
BERT = 'cp = 60\nvp = 20\nat = "Hampshire"'


def pk_duel(table, anna: str, bert: str = "", dice=()):
    """Anna has defeated Bert (both in Hampshire); she gives him his Knight's Fate."""
    t = table(pos(others={"Bert": BERT}), dice=dice,
              orders={"Anna": anna, **({"Bert": bert} if bert else {})})
    give_fate(t.session("Anna"), pk_fighter(Session(t.game, "Bert")))
    return t


def told(t, player: str, needle: str) -> bool:
    """Whether an event with ``needle`` reached ``player``."""
    return any(needle in e["text"] and (e["to"] == PUBLIC or player in e["to"])
               for e in t.ctx.events)


def asked(t, key: str) -> list[dict]:
    return [d for d in t.ctx.decisions if d["kind"] == key]


def test_c12_victor_chooses_the_shrine(table):
    """Knight's Fate 2: a PK who sends another PK to a shrine may choose it. Anna names
    Carbonek: Bert's pilgrimage goes there, no die is rolled, and Bert is told which shrine."""
    t = pk_duel(table, "answer fate_pk: sends to shrine\nanswer fate_shrine: Carbonek")
    task = t.knight("Bert")["tasks"][0]
    assert task["kind"] == "pilgrimage" and task["dest"] == "Carbonek"
    assert task["penalty_vp"] == 12
    assert not t.chance.to_json()
    assert told(t, "Bert", "a Knight's Fate: sends to shrine: Carbonek")
    assert asked(t, "fate_shrine") == [{"player": "Anna", "kind": "fate_shrine",
                                        "answer": "Carbonek", "source": "orders"}]


def test_c13_victor_may_not_choose_rome(table):
    """Knight's Fate 2: the victor's shrine may be any but Rome; an order naming Rome is
    rejected with an error, and Rome is never an option."""
    assert "Rome" not in tasks.shrines_to_choose(table(pos()).world)
    with pytest.raises(OrdersRejected) as err:
        pk_duel(table, "answer fate_pk: sends to shrine\nanswer fate_shrine: Rome")
    assert "'Rome' is not an answer to 'fate_shrine'" in err.value.render()


def test_c14_shrine_default_is_random(table):
    """Knight's Fate 2: without an answer the shrine is rolled as before (die 1: Canterbury)."""
    t = pk_duel(table, "answer fate_pk: sends to shrine", dice=[1])
    assert t.knight("Bert")["tasks"][0]["dest"] == "Canterbury"
    assert not t.unused_dice and asked(t, "fate_shrine")[0]["answer"] == "random"
    assert told(t, "Bert", "a Knight's Fate: sends to shrine.")


def test_c15_chosen_shrine_may_still_be_refused(table):
    """Knight's Fate 2 is refusable: the shrine is named with the fate, so Bert knows it when he
    refuses (12 VP) and takes no pilgrimage."""
    t = pk_duel(table, "answer fate_pk: sends to shrine\nanswer fate_shrine: Llanthony",
                bert="answer refuse_fate: refuse")
    assert told(t, "Bert", "sends to shrine: Llanthony")
    assert t.knight("Bert")["vp"] == 8 and not t.knight("Bert")["tasks"]
    assert not t.chance.to_json()


def test_c16_victor_chooses_the_oath(table):
    """Knight's Fate 5: a PK who exacts an oath from another PK may choose it; no die is rolled
    and Bert swears the chosen oath."""
    t = pk_duel(table, "answer fate_pk: exact oath\nanswer fate_oath: always help ladies")
    assert t.knight("Bert")["oaths"] == ["always_help_ladies"]
    assert not t.chance.to_json()
    assert told(t, "Bert", "exact oath: always help ladies")
    assert told(t, "Bert", "Bert swears an oath (exacted by Anna): always help ladies")


def test_c17_oath_default_is_random(table):
    """Knight's Fate 5: without an answer the oath is rolled (3: use no weapons)."""
    t = pk_duel(table, "answer fate_pk: exact oath", dice=[1, 2])
    assert t.knight("Bert")["oaths"] == ["use_no_weapons"] and not t.unused_dice


def test_c18_victor_chooses_the_adventure_site(table):
    """Knight's Fate 9: the adventure is rolled (2:5, an ogre, at a random place), but the
    victorious PK chooses where it takes place: Bedgebury Forest, with no placement dice."""
    t = pk_duel(table, "answer fate_pk: charges with adventure\n"
                "answer fate_site: Bedgebury Forest", dice=[2, 5])
    task = t.knight("Bert")["tasks"][0]
    assert task["adventure"]["key"] == "avenge_knight" and task["dest"] == "Bedgebury Forest"
    assert len(t.chance.to_json()) == 2 and not t.unused_dice
    assert told(t, "Bert", "Anna chooses where Bert's adventure takes place: Bedgebury Forest")
    assert asked(t, "fate_site")[0]["player"] == "Anna"


def test_c19_adventure_site_of_its_kind(table):
    """Knight's Fate 9: a royal tournament (6:3) goes to a royal castle the victor names (a
    standing answer for royal castles); a place of another kind is not an option, so the
    castle is rolled as usual (random kingdom 2: Surluise, Orgulous)."""
    t = pk_duel(table, "answer fate_pk: charges with adventure\n"
                "on fate_site royal_castle: Tintagel", dice=[6, 3])
    assert t.knight("Bert")["tasks"][0]["dest"] == "Tintagel" and not t.unused_dice
    assert len(t.chance.to_json()) == 2
    t = pk_duel(table, "answer fate_pk: charges with adventure\n"
                "answer fate_site: Hampshire", dice=[6, 3, 1, 1])
    assert asked(t, "fate_site")[0]["answer"] == "random"
    assert t.knight("Bert")["tasks"][0]["dest"] == "Orgulous" and not t.unused_dice


def test_c20_named_adventure_site_asks_nothing(table):
    """Knight's Fate 9: an adventure at a named place (1:6, Camelot) has no site to choose."""
    t = pk_duel(table, "answer fate_pk: charges with adventure\n"
                "answer fate_site: Hampshire", dice=[1, 6])
    assert t.knight("Bert")["tasks"][0]["dest"] == "Camelot Castle"
    assert not asked(t, "fate_site")


def test_c21_adventure_site_default_is_random(table):
    """Knight's Fate 9: without an answer the site is placed by the dice as before (castle
    deployment 7, 1, 1-3, 2-4: Hampshire)."""
    t = pk_duel(table, "answer fate_pk: charges with adventure", dice=[2, 5, 3, 4, 1, 2, 3])
    assert t.knight("Bert")["tasks"][0]["dest"] == "Hampshire" and not t.unused_dice
    assert asked(t, "fate_site")[0]["answer"] == "random"


def test_c22_fate_answers_in_orders(table):
    """Knight's Fate 2, 5 and 9: order lines for the victor's choices parse (a shrine, an oath,
    a place, with a tag); Faerie and the Road to Rome are no place to send him."""
    world = table(pos()).world
    orders = parse_orders(world, ["Anna", "Bert"], "on fate_shrine: canter\n"
                          "answer fate_oath: spare knights\n"
                          "on fate_site wasteland: Massingham Heath\n", "Anna.txt")
    assert [(x["key"], x["answer"]) for x in orders.standing] == [
        ("fate_shrine", "Canterbury"), ("fate_site", "Massingham Heath")]
    assert orders.answers[0]["answer"] == "spare knights"
    for bad in ("answer fate_site: Faerie", "answer fate_site: Road to Rome",
                "answer fate_site: Rome", "answer fate_oath: sing loudly"):
        with pytest.raises(OrdersRejected) as err:
            parse_orders(world, ["Anna", "Bert"], bad + "\n", "Anna.txt")
        assert "is not an answer to" in err.value.render()


# ------------------------------------------------- terms of a Knight's Fate kept on the road
GALAHAD_FIRST = '\n[decks]\nknights = ["Sir Galahad", "Sir Belleus"]\n'
# the day's luck; the encounter roll at the Thames ford (1) and the river chart (1+1: a knight
# who waits at the ford attacks); Anna (WL 2) 1+1+1 against Sir Galahad's 6+6+6
BEATEN_AT_THE_FORD = [4, 1, 1, 1, 1, 1, 1, 6, 6, 6]


def beaten_at_the_ford(table, fate: int):
    """Anna rides from Hampshire into the Thames, where Sir Galahad (VL 0) beats her; the fate
    die is ``fate`` (2: a pilgrimage, the shrine die 1 giving Canterbury; 6: she must report
    to his Lord, King Arthur at Camelot Castle). She accepts (the default)."""
    t = table(pos(cp=20, vp=20, at="Hampshire", extra=GALAHAD_FIRST),
              dice=BEATEN_AT_THE_FORD + [fate] + ([1] if fate == 2 else []),
              orders={"Anna": "move Thames"})
    assert t.play() and not t.unused_dice
    return t


def next_game_turn(t, dice, orders: str | None):
    """The next game turn for Anna, with its dice and her orders (None: no orders)."""
    from companion.koc.engine.turn import end_of_game_turn

    end_of_game_turn(t.game)
    t.chance._dice = list(dice)
    t.chance._dice_used = 0
    t.game.orders.clear()
    t.ctx.events.clear()
    if orders is not None:
        t.game.orders["Anna"] = parse_orders(t.world, ["Anna"], orders, "Anna.txt")
    assert t.play() and not t.unused_dice


@pytest.mark.parametrize("fate,kind,dest", [(2, "pilgrimage", "Canterbury"),
                                            (6, "report", "Camelot Castle")])
def test_c23_no_penalty_in_the_turn_the_fate_is_accepted(table, fate, kind, dest):
    """COMBAT, Knight's Fate (Sir Eric's example): the 12 VP for straying from agreed terms go
    only when the knight actually leaves the direct path or stops for something other than
    encounters. Anna accepts Fate 2 (a pilgrimage) or Fate 6 (reporting to the victor's Lord)
    at the Thames, which is no nearer the destination than Hampshire where her turn began; the
    fight ended her movement, so the terms are unbroken."""
    t = beaten_at_the_ford(table, fate)
    task = t.knight()["tasks"][0]
    assert (task["kind"], task["dest"], task["status"]) == (kind, dest, "active")
    assert t.knight()["vp"] == 20
    assert not t.saw("fails") and not t.saw("straying")


@pytest.mark.parametrize("fate,orders,dice,end", [
    # no orders: she keeps on along the direct way (Mouth of the Thames, Kent, Canterbury;
    # three encounter rolls without an encounter) and completes the pilgrimage
    (2, None, [4, 4, 6, 6], "Canterbury"),
    (2, "move Mouth of the Thames", [4, 4], "Mouth of the Thames"),
    # Thames, Hampshire, Camelot Castle: Camelot, her Lord's castle, admits her
    (6, None, [4, 4], "Camelot Castle"),
    (6, "move Hampshire", [4, 4], "Hampshire"),
])
def test_c24_no_penalty_on_the_direct_path(table, fate, orders, dice, end):
    """COMBAT, Knight's Fate: the next turn she follows the direct path (all of it, or one step
    of it): no penalty."""
    t = beaten_at_the_ford(table, fate)
    next_game_turn(t, dice, orders)
    assert t.knight()["at"]["area"] == end and t.knight()["vp"] == 20
    assert t.knight()["tasks"][0]["status"] == ("done" if end in ("Canterbury", "Camelot Castle")
                                                else "active")


@pytest.mark.parametrize("fate,orders,why", [
    (2, "move Buckingham", "he left the most direct route"),     # away from Canterbury
    (6, "move Surrey", "he left the most direct route"),         # away from Camelot
    (2, "stay", "it was delayed"),          # she stops, and no encounter stops her
    (6, "stay", "it was delayed"),
])
def test_c25_penalty_on_leaving_the_path_or_stopping(table, fate, orders, why):
    """COMBAT, Knight's Fate: the next turn she leaves the direct path, or stops for something
    other than an encounter (the encounter roll finds nothing): the terms are broken, 12 VP."""
    t = beaten_at_the_ford(table, fate)
    next_game_turn(t, [4, 4], orders)
    assert t.saw(f"fails: {why}")
    assert t.knight()["vp"] == 8 and t.knight()["tasks"][0]["status"] == "failed"


# ---------------------------------------------------------- methods: mounted against on foot
def kay_attacks(table, dice, *, anna="on_foot = true", orders="", mounted=True, attacker="foe"):
    """Sir Kay (VL 5, WL 2) and Anna (WL 5) fight in Hampshire; Anna's luck is 4."""
    t = table(pos(cp=50, vp=20, at="Hampshire", anna=anna), dice=dice,
              orders={"Anna": orders} if orders else None)
    s = t.session()
    s.pk["luck"] = 4
    kay = npk({"kind": "knight", "name": "Sir Kay", "vl": 5, "cp": 20, "mounted": mounted})
    fight(s, [kay], attacker=attacker)
    assert not t.unused_dice
    return t, kay


def test_c26_mounted_npk_keeps_his_lance_against_a_knight_on_foot(table):
    """COMBAT, Knightly Methods of Combat and Wasteland Combat: out of a wasteland this turn,
    Anna fails to remount (luck die 1 against 4). Sir Kay does not dismount for that: an NPK
    takes the best method he has unless he agrees to fight fairly; Anna appeals, his VL check
    fails (1+1 against 5), and he rides at her with the lance (three dice, 1+1+1) while she
    fights on foot with her sword (6+6). Winning at a disadvantage earns the usual awards."""
    t, kay = kay_attacks(table, [1, 1, 1, 6, 6, 1, 1, 1, 6, 6])
    assert t.saw("Luck test (remount before the fight): rolled 1, needing 4 or more: failure.")
    assert t.saw("Sir Kay refuses to give up his advantage.")
    assert kay["method"] == "lance" and t.saw("Pass: Anna 12, Sir Kay 3")
    assert t.knight()["cp"] == 52 and t.knight()["vp"] == 26


def test_c27_mounted_npk_agrees_to_fight_on_foot(table):
    """COMBAT, Chivalry: the same, but Sir Kay passes the VL check (6+6): he dismounts and
    fights sword against sword (two dice, 1+1)."""
    t, kay = kay_attacks(table, [1, 6, 6, 6, 6, 1, 1, 6, 6])
    assert t.saw("Sir Kay agrees to fight with the same weapons.")
    assert kay["method"] == "sword" and t.saw("Pass: Anna 12, Sir Kay 2")


def test_c28_mounted_pk_against_an_npk_on_foot(table):
    """COMBAT, Chivalry: Sir Kay is on foot. Attacked by him, Anna may keep her horse and lance
    (the default for a knight who is not of the Round Table) but then wins no awards; if she
    answers 'sword' she fights fairly and wins them. Attacking him, she must fight fairly: the
    engine makes her dismount whatever she answers."""
    t, kay = kay_attacks(table, [6, 6, 6, 1, 1, 6, 6], anna="", mounted=False)
    assert t.saw("Anna fights Sir Kay unchivalrously (lance against sword)")
    assert t.saw("Pass: Anna 18, Sir Kay 2")
    assert t.knight()["cp"] == 50 and t.knight()["vp"] == 20
    for orders, attacker in (("answer method: sword", "foe"), ("answer method: lance", "pk")):
        t, kay = kay_attacks(table, [6, 6, 1, 1, 6, 6], anna="", orders=orders, mounted=False,
                             attacker=attacker)
        assert t.saw("Pass: Anna 12, Sir Kay 2") and not t.saw("unchivalrously")
        assert t.knight()["cp"] == 52 and t.knight()["vp"] == 26


def anna_attacks_bert(table, dice, *, anna="", bert="", orders=None):
    """Anna (WL 5) attacks Bert (WL 2) in Hampshire."""
    t = table(pos(cp=50, vp=20, at="Hampshire", anna=anna,
                  others={"Bert": 'cp = 20\nvp = 20\nat = "Hampshire"\n' + bert}),
              dice=dice, orders=orders)
    s = t.session()
    s.pk["luck"] = 4
    b = pk_fighter(Session(t.game, "Bert"))
    fight(s, [b], attacker="pk", tags=("pk",))
    assert not t.unused_dice
    return t, b


def test_c29_mounted_pk_against_a_pk_on_foot(table):
    """COMBAT, Knightly Methods of Combat and Chivalry, between PKs: Anna on foot attacks Bert,
    who is mounted. Bert chooses his own method; by default the best that is no better than
    hers (sword on foot, 1+1 against her 6+6). Choosing the lance he keeps his advantage, and
    wins no awards, unless he agrees when she asks him to fight fairly ('fight_fair')."""
    t, b = anna_attacks_bert(table, [6, 6, 1, 1], anna="on_foot = true")
    assert b["method"] == "sword" and t.saw("Pass: Anna 12, Bert 2")
    assert [(d["kind"], d["player"], d["answer"]) for d in asked(t, "method")] == [
        ("method", "Bert", "sword"), ("method", "Anna", "sword")]
    t, b = anna_attacks_bert(table, [1, 1, 6, 6, 6], anna="on_foot = true",
                             orders={"Bert": "answer method: lance\nanswer fight_fair: no"})
    assert b["method"] == "lance" and t.saw("Bert keeps his advantage.")
    assert t.saw("Pass: Anna 2, Bert 18") and t.saw("Anna is defeated by Bert.")
    assert t.knight("Bert")["cp"] == 20 and t.knight("Bert")["vp"] == 20    # no awards
    t, b = anna_attacks_bert(table, [6, 6, 1, 1], anna="on_foot = true",
                             orders={"Bert": "answer method: lance\nanswer fight_fair: yes"})
    assert b["method"] == "sword" and t.saw("Bert agrees to fight with the same weapons.")


def test_c30_pk_attacking_a_pk_on_foot_dismounts(table):
    """COMBAT, Chivalry: the other way round, Anna mounted attacks Bert on foot; an attacker
    must fight fairly, so she fights on foot with her sword (6+6 against his 1+1) and keeps her
    awards."""
    t, b = anna_attacks_bert(table, [6, 6, 1, 1], bert="on_foot = true",
                             orders={"Anna": "answer method: lance"})
    assert t.saw("Pass: Anna 12, Bert 2") and not t.saw("unchivalrously")
    assert t.knight()["cp"] == 52 and t.knight()["vp"] == 26


def test_c31_slaying_an_enchantress_costs_the_ladys_cp(table):
    """COMBAT, Outcomes (slaying a Lady; the Enchantress's own VP loss). The rules give a Lady's
    slayer a loss of 20 CP and 12 VP, and for an Enchantress name only a different VP loss
    (12 less her VL). The project reads the CP loss as standing for her too, since an
    Enchantress is a Lady (docs/koc-engine.md). Annowre the Sorceress (VL 12) costs 20 CP and
    no VP at all; the CP cannot fall below 10."""
    annowre = card("Annowre the Sorceress", "lady")
    assert annowre["vl"] == 12 and annowre["enchantress"]
    for cp, left in ((100, 80), (25, 10)):
        t = table(position(cp=cp, vp=20))
        s = t.session()
        witch = foe("lady", annowre["name"], 1, 1, card=annowre)
        settle_foe(s, Combat(s, [witch], attacker="pk"), witch, True)
        assert t.knight()["cp"] == left and t.knight()["vp"] == 20
        assert t.saw("slaying Annowre the Sorceress")
        assert not t.saw("slaying the Enchantress")


def test_c32_the_way_out_of_an_exile_is_no_return(table):
    """Knight's Fate 12 (Exiles): the loser leaves the land by the most direct way and never
    returns; a return costs 12 VP and lifts the exile, unless he has not 12 VP to lose: then
    the exile remains. Rules edition 3: the steps of his way out (Cornwall, Sharpenose Wood
    and Devon are all Cornwall) are no return, and a knight at 10 VP who comes back pays
    what he has and stays exiled. A game begun under edition 2 replays as it was played:
    the first step out counted as a return (12 VP, the exile lifted)."""
    from companion.koc.engine.fate import apply_fate
    from companion.koc.engine.movement import Mover

    def exiled(edition, vp=30):
        t = table(pos(at="Cornwall", vp=vp), dice=[6] * 12)
        t.state["edition"] = edition
        s = t.session()
        apply_fate(s, "exiles", {"name": "King Mark", "kind": "king"}, None)
        Mover(s).run([{"do": "move", "area": "Sharpenose Wood"},
                      {"do": "move", "area": "Devon"}, {"do": "move", "area": "Somerset"}])
        return t, s

    t, s = exiled(3)
    assert t.knight()["vp"] == 30 and t.knight()["exiles"] == ["Cornwall"]
    assert not t.saw("breaks his exile")
    s.pk["tasks"][0]["status"] = "done"             # he is out of Cornwall
    Mover(s).run([{"do": "move", "area": "Devon"}, {"do": "move", "area": "Sharpenose Wood"}])
    assert t.knight()["vp"] == 18 and t.knight()["exiles"] == []
    assert t.saw("Anna breaks his exile from Cornwall.")

    t, s = exiled(3, vp=10)
    s.pk["tasks"][0]["status"] = "done"
    Mover(s).run([{"do": "move", "area": "Devon"}, {"do": "move", "area": "Sharpenose Wood"}])
    assert t.knight()["vp"] == 1 and t.knight()["exiles"] == ["Cornwall"]
    assert t.saw("without 12 VP to lose he stays exiled")
    assert sum("returning to Cornwall" in e for e in t.events) == 1    # once, on entering

    t, s = exiled(2)
    assert t.knight()["vp"] == 18 and t.knight()["exiles"] == []
    assert t.saw("Anna breaks his exile from Cornwall.")


def test_c34_coming_back_by_sea_is_a_return_from_exile(table):
    """Knight's Fate 12 (Exiles) and the glossary's Exile: re-entering the land costs 12 VP
    and lifts the exile, whatever the way in. Rules edition 3: landing on the coast of Devon
    from the Celtic Sea, going ashore in the port of Tintagel, are returns to Cornwall, as
    riding in is (c32); a game begun under edition 2 keeps its reading: a landing was never
    charged. A knight still on his way out of the land (his leaving task) does not return."""
    from companion.koc.engine.movement import Mover

    def lands(at, edition, step, leaving=False):
        t = table(pos(at=at, where="ship", vp=30, anna='exiles = ["Cornwall"]'))
        t.state["edition"] = edition
        s = t.session()
        if leaving:
            tasks.add(s, "leave", None, awards={}, penalty_vp=12, why="exiled")
            s.pk["tasks"][-1]["leave"] = ["Cornwall"]
        Mover(s).run([step])
        return t

    for at, step, where in (("Celtic Sea", {"do": "debark", "area": "Devon"}, "coast"),
                            ("Tintagel", {"do": "debark"}, "inside")):
        t = lands(at, 3, step)
        assert t.knight()["at"]["where"] == where
        assert t.knight()["vp"] == 18 and t.knight()["exiles"] == []
        assert t.saw("Anna breaks his exile from Cornwall.")
        t = lands(at, 2, step)
        assert t.knight()["at"]["where"] == where
        assert t.knight()["vp"] == 30 and t.knight()["exiles"] == ["Cornwall"]
        assert not t.saw("exile")
    t = lands("Celtic Sea", 3, {"do": "debark", "area": "Devon"}, leaving=True)
    assert t.knight()["vp"] == 30 and t.knight()["exiles"] == ["Cornwall"]


def test_c35_the_lands_of_an_exile_are_listed_in_words(table):
    """Knight's Fate 12 (Exiles) from a fight on the Thames, a river of three Logres
    castellanies: he is exiled from all three. Rules edition 3 lists them with 'and'; a game
    begun under edition 2 keeps its commas alone."""
    from companion.engine.words import joined
    from companion.koc.engine.fate import apply_fate

    assert [joined(x) for x in ([], ["Gore"], ["Gore", "Vagon"])] == [
        "", "Gore", "Gore and Vagon"]
    for edition, lands in ((3, "Jagent, Vagon and Magouns"), (2, "Jagent, Vagon, Magouns")):
        t = table(pos(at="Thames", vp=30))
        t.state["edition"] = edition
        apply_fate(t.session(), "exiles", {"name": "Sir Kay", "kind": "knight"}, None)
        assert t.saw(f"Anna is exiled from {lands} and must leave by the most direct way.")
        assert t.knight()["exiles"] == ["Jagent", "Vagon", "Magouns"]


def test_c36_a_poisoned_knight_losing_cp_keeps_his_held_wl(table):
    """Poisoned Wounds (decision): while poisoned a knight's WL is the WL he had before the
    poisoning less the poisoned wounds; CP he gains do not raise it until the last is cured.
    The rules are silent on CP lost meanwhile: the project keeps their words, the held value
    less the poison, whatever the CP (no lower, no higher); once cured, his WL is his CP's
    again. Anna at 100 CP (WL 10) with 2 poisoned wounds: WL 8 at 40 CP and at 200 CP; cured
    at 40 CP, WL 4."""
    t = table(pos(cp=100, vp=30))
    s, pk = t.session(), t.knight()
    kn.poison(pk, 2)
    assert kn.wl(pk) == 8
    s.gain_cp(-60, "a penalty")
    assert pk["cp"] == 40 and kn.wl(pk) == 8
    s.gain_cp(160, "an award")
    assert kn.wl(pk) == 8
    s.gain_cp(-160, "a penalty")
    kn.cure_poison(pk)
    assert kn.wl(pk) == 4


def test_c33_sent_to_his_lord_where_he_stands_swears_an_oath(table):
    """Knight's Fate 6 (sends to Lord): an Arthurian victor sends the loser to King Arthur at
    Camelot Castle; assigned at that very castle, the fate counts as 5, an oath (here 11: do
    not eat until a good deed is done). Rules edition 3; a game begun under edition 2 keeps
    the task to report at the castle he stands at. Away from it, the task as ever."""
    kay = {"kind": "knight", "name": "Sir Kay", "vl": 3, "cp": 150, "arthurian": True}
    for edition in (3, 2):
        t = table(position(cp=80, vp=20, at="Camelot Castle"), dice=[3, 5, 6])
        t.state["edition"] = edition
        suffer_fate(t.session(), npk(dict(kay)))
        assert t.saw("Knight's Fate for Anna from Sir Kay: ")
        if edition == 3:
            assert t.saw("Anna is at Camelot Castle already: Sir Kay makes him swear an oath")
            assert t.knight()["oaths"] == ["do_not_eat"] and not t.knight()["tasks"]
            assert not t.unused_dice
        else:
            task, = t.knight()["tasks"]
            assert task["kind"] == "report" and task["dest"] == "Camelot Castle"
            assert t.knight()["oaths"] == []
    t = table(position(cp=80, vp=20, at="Hampshire"), dice=[3])
    suffer_fate(t.session(), npk(dict(kay)))
    task, = t.knight()["tasks"]
    assert task["kind"] == "report" and task["dest"] == "Camelot Castle"


def test_c37_words_of_robbing_placing_and_losing_for_freedom(table):
    """Found reading random games; rules edition 3 against a game begun under edition 2:
    a knight whose name ends in s robs ("Sir Epinogrus robs Anna"; the brigands still rob),
    where edition 2 wrote "Sir Epinogrus rob Anna"; a castle named for its area is placed on
    the map ("The castle in Usk is placed on the map."), where edition 2 wrote "the castle in
    Usk (its lord's castle) stands in Usk."; a prisoner who loses the jailor's challenge (Appeal
    to Jailor 9) "has lost: he stays in prison", where edition 2 wrote "Anna fails: Anna stays
    in prison"."""
    from companion.koc.engine.combat import robbed
    from companion.koc.engine.fate import apply_fate
    from companion.koc.engine.resolutions import appeal_to_jailor

    for edition in (3, 2):
        t = table(pos(at="Powys", cp=10, vp=20, extra='[decks]\nknights = ["Sir Kay"]\n'),
                  dice=[4, 5] + [1, 1, 1, 6, 6, 6] * 3 + [1] * 10)
        t.state["edition"] = edition
        s = t.session()
        apply_fate(s, "robs", {"name": "Sir Epinogrus", "kind": "knight"}, None)
        robbed(s, by="the brigands")
        tasks.place_castle(s, "the castle in Usk", "its lord", "knight", area="Usk")
        assert not appeal_to_jailor(s)
        assert t.saw("the brigands rob Anna and his party")
        if edition == 3:
            assert t.saw("Sir Epinogrus robs Anna and his party of all their equipment.")
            assert t.saw("The castle in Usk is placed on the map.")
            assert t.saw("Anna has lost: he stays in prison.")
        else:
            assert t.saw("Sir Epinogrus rob Anna and his party of all their equipment.")
            assert t.saw("the castle in Usk (its lord's castle) stands in Usk.")
            assert t.saw("Anna fails: Anna stays in prison.")


def test_c38_no_company_from_a_fate_for_a_knight_sworn_to_ride_alone(table):
    """Knight's Fate 8 (the victor rides with him) with Oaths 10 (nobody joins him): Anna, sworn
    to travel alone and without the VP to break the oath, keeps it: Sir Belleus rides on
    without her, his castle friendly all the same. Giving a fate she is not offered one that
    brings company: her 'will join' answer is no choice, so he goes free (rules edition 7:
    fate.FATE_HEEDS_ALONE, as resolutions.ALONE_NO_RESCUED_COMPANY for Aid 2). A game of
    edition 6 keeps its reading: he joined her both times, the oath unasked."""
    from companion.koc.engine.fate import apply_fate

    for ed in (7, 6):
        t = table(pos(vp=10, anna='oaths = ["always_travel_alone"]'), dice=[1, 1, 1])
        t.state["edition"] = ed
        apply_fate(t.session(), "will_join", npk(card("Sir Belleus")), None)
        rec = t.knight()
        assert rec["friendly"] == ["Sir Belleus's castle"] and not t.unused_dice
        assert rec["oaths"] == ["always_travel_alone"] and rec["vp"] == 10
        if ed >= 7:
            assert rec["comrades"] == [] and t.saw("Sir Belleus rides on without Anna")
        else:
            assert rec["comrades"][0]["name"] == "Sir Belleus"
        t = table(pos(vp=10, anna='oaths = ["always_travel_alone"]'), dice=[6, 6],
                  orders={"Anna": "on fate: will join"})
        t.state["edition"] = ed
        give_fate(t.session(), npk(card("Sir Belleus")))
        if ed >= 7:
            assert t.knight()["comrades"] == [] and t.saw("Anna lets Sir Belleus go freely.")
        else:
            assert t.knight()["comrades"][0]["name"] == "Sir Belleus"


# ------------------------------------------------------- Combat Event 7: the fight stopped
def stopped_fight(table, edition, dice, *, second=True):
    """Sir Kay (VL 5, WL 5) and, with ``second``, Sir Dinadan (VL 4, WL 3) attack Anna (WL 5,
    lance against lance); a tied pass brings Combat Event 7 (3+4), Anna offers to stop the
    fight and Sir Kay agrees (6+6)."""
    t = table(pos(cp=50, vp=20), dice=dice, orders={"Anna": "answer break_off: yes"})
    t.state["edition"] = edition
    foes = [npk({"kind": "knight", "name": "Sir Kay", "vl": 5, "cp": 50})]
    if second:
        foes.append(npk({"kind": "knight", "name": "Sir Dinadan", "vl": 4, "cp": 30}))
    result = fight(t.session(), foes)
    assert not t.unused_dice
    return t, result


def test_c40_a_fight_stopped_pays_as_a_challenge(table):
    """COMBAT, Explanation of Combat Events 7 (rules edition 7,
    combat.FIGHT_STOPPED_AS_CHALLENGE): Anna wounds Sir Kay twice (12 against 10), then a tie
    brings event 7 and he agrees to stop. The fight pays as a challenge would: she inflicted
    more wounds, so 2 CP and 6 VP. The other knight still standing, Sir Dinadan, stops too
    only on a VL check of his VL (6+6 against 4: he does). A game of edition 6 keeps its
    reading: the fight ended for all at once and paid nothing (no check for Sir Dinadan)."""
    kay_stops = [4, 4, 4, 4, 3, 3, 3, 3, 3, 3, 3, 3, 3, 4, 6, 6]
    t, result = stopped_fight(table, 7, kay_stops + [6, 6])
    assert result.broke_off and not result.won and not result.pk_defeated
    assert t.saw("Sir Kay agrees: the fight stops.") and t.saw("Sir Dinadan stops fighting too.")
    assert t.saw("Anna gains 2 CP (wounds inflicted on Sir Kay before the fight stopped)")
    assert (t.knight()["cp"], t.knight()["vp"]) == (52, 26)
    t, result = stopped_fight(table, 6, kay_stops)
    assert result.broke_off and (t.knight()["cp"], t.knight()["vp"]) == (50, 20)
    assert not t.saw("stops fighting too") and not t.saw("before the fight stopped")


def test_c41_knights_who_fight_on_after_the_stop(table):
    """COMBAT, Explanation of Combat Events 7 (rules edition 7): Sir Dinadan fails his VL check
    (1+1 against 4) and fights on; Anna beats him (18 against 3). She has Sir Kay's stop (2 CP,
    6 VP) and Sir Dinadan's defeat (3 CP, 6 VP), but no Knight's Fate may be given in a fight
    that was stopped: he is not asked to yield (no VL check) and rides off. Edition 6: the
    fight ended at the stop."""
    t, result = stopped_fight(table, 7, [4, 4, 4, 4, 3, 3, 3, 3, 3, 3, 3, 3, 3, 4, 6, 6, 1, 1,
                                         6, 6, 6, 1, 1, 1])
    assert t.saw("Sir Dinadan fights on.") and result.won and not result.broke_off
    assert t.saw("Sir Dinadan rides off beaten: no Knight's Fate in a fight that was stopped.")
    assert not t.saw("yields")
    assert (t.knight()["cp"], t.knight()["vp"]) == (55, 32)


def test_c42_the_worse_of_a_stopped_fight_has_the_lesson(table):
    """COMBAT, Explanation of Combat Events 7 (rules edition 7): Sir Kay wounds Anna twice
    (12 against 10) before the fight stops; as the loser of a challenge she has the 6 CP
    lesson, no VP. Even, the stop pays nothing. Edition 6: nothing either way."""
    dice = [4, 3, 3, 4, 4, 4, 3, 3, 3, 3, 3, 3, 3, 4, 6, 6]
    for ed, cp in ((7, 56), (6, 50)):
        t, result = stopped_fight(table, ed, dice, second=False)
        assert result.broke_off and (t.knight()["cp"], t.knight()["vp"]) == (cp, 20)
        assert t.knight()["wounds"] == 2
    t, result = stopped_fight(table, 7, [3, 3, 3, 3, 3, 3, 3, 4, 6, 6], second=False)
    assert t.saw("The fight stopped even (0 wounds each): it pays nothing.")
    assert (t.knight()["cp"], t.knight()["vp"]) == (50, 20)


def test_c43_an_even_challenge_goes_on_with_its_weapons(table):
    """COMBAT, Challenges: after three passes Anna and Sir Kay have inflicted 2 wounds each
    (12 against 10, then 9 against 10 twice), no lance broken; the challenge goes on to break
    the tie, with swords only if a lance had broken. Rules edition 7 (combat.CHALLENGE_COUNTED)
    keeps the lances (three dice: 18 against 3); a game of edition 6 keeps its reading: swords
    on foot (two dice: 12 against 2)."""
    three = [4, 4, 4, 4, 3, 3, 3, 3, 3, 4, 3, 3, 3, 3, 3, 4, 3, 3]
    for ed, more, seen in ((7, [6, 6, 6, 1, 1, 1], "Pass: Anna 18, Sir Kay 3"),
                           (6, [6, 6, 1, 1], "Pass: Anna 12, Sir Kay 2")):
        t = table(pos(cp=50, vp=20), dice=three + more)
        t.state["edition"] = ed
        kay = npk({"kind": "knight", "name": "Sir Kay", "vl": 5, "cp": 50})
        result = challenge(t.session(), kay)
        assert t.saw(seen) and not t.unused_dice
        assert t.saw("The challenge is even: it goes on" + (" with swords." if ed == 6 else "."))
        assert result.challenge_winner == "pk"
        assert (t.knight()["cp"], t.knight()["vp"]) == (55, 26)


def test_c44_felled_but_ahead_on_the_count(table):
    """COMBAT, Challenges: a knight may win on the count of wounds and lose by being felled;
    he has both awards. Sir Kay (WL 3) wounds Anna 5 times (14 against 9), then she fells him
    (15 against 12) with 3 wounds: she wins by felling him (3 CP, 6 VP) and loses on the count
    (the 6 CP lesson), rules edition 7 (combat.CHALLENGE_COUNTED). A game of edition 6 keeps
    its reading: the winner's awards alone."""
    for ed, cp in ((7, 109), (6, 103)):
        t = table(pos(cp=100, vp=20), dice=[3, 3, 3, 5, 5, 4, 5, 5, 5, 4, 4, 4])
        t.state["edition"] = ed
        kay = npk({"kind": "knight", "name": "Sir Kay", "vl": 5, "cp": 30})
        result = challenge(t.session(), kay)
        assert result.challenge_winner == "pk" and not t.unused_dice
        assert (t.knight()["cp"], t.knight()["vp"]) == (cp, 26)
        assert t.saw("the lesson of a challenge lost on the count of wounds") == (ed == 7)


def test_c45_no_weapon_breaks_in_an_unarmed_hand(table):
    """COMBAT, Combat Events 4 (weapon broken): Anna, sworn to use no weapons, fights a Brigand
    unarmed (one die); a tie (3 against 1+2) brings event 4 (1+3). She wields no weapon, so
    none breaks: her sword, carried unused, stays whole (rules edition 7,
    combat.UNARMED_NOTHING_BREAKS). A game of edition 6 keeps its reading: the sword broke."""
    for ed in (7, 6):
        t = table(pos(cp=50, vp=20, anna='oaths = ["use_no_weapons"]'),
                  dice=[3, 1, 2, 1, 3, 6, 1, 1])
        t.state["edition"] = ed
        result = fight(t.session(), [foe("brigand", "Brigand", 2, 2)])
        assert result.won and not t.unused_dice and t.saw("Pass: Anna 6, Brigand 2")
        assert t.knight()["gear"]["sword"] == (ed == 7)
        assert t.saw("Anna fights unarmed: he has no weapon to break.") == (ed == 7)


def test_c46_back_in_the_saddle_before_the_next_foe(table):
    """COMBAT, Fights: a knight who won an engagement at a disadvantage may remount and take his
    spares from his Dwarf before his next foe. Sir Kay and Sir Dinadan (WL 2) attack Anna; a
    tie with Sir Kay (9 against 9) brings event 6, she fails to remount (luck die 1) and her
    appeal to fight fairly fails (1+1): on foot with her sword she beats him (12 against 4).
    Rules edition 7 (combat.REFIT_BETWEEN_FOES): she gets back on her horse and rides at Sir
    Dinadan with her lance (18 against 4). A game of edition 6 keeps its reading: she fought
    him on foot too (an appeal, 1+1, then 12 against 4). Both yield (6+6) and go free."""
    kay_down = [3, 3, 3, 3, 3, 3, 3, 3, 1, 1, 1, 6, 6, 1, 1, 2]
    for ed, more, seen in ((7, [6, 6, 6, 1, 1, 2], "Pass: Anna 18, Sir Dinadan 4"),
                           (6, [1, 1, 6, 6, 1, 1, 2], "Pass: Anna 12, Sir Dinadan 4")):
        t = table(pos(cp=50, vp=20), dice=kay_down + more + [6, 6, 6, 6])
        t.state["edition"] = ed
        s = t.session()
        s.pk["luck"] = 4
        foes = [npk({"kind": "knight", "name": "Sir Kay", "vl": 5, "cp": 20}),
                npk({"kind": "knight", "name": "Sir Dinadan", "vl": 4, "cp": 20})]
        result = fight(s, foes)
        assert result.won and not t.unused_dice
        assert t.saw("Pass: Anna 12, Sir Kay 4") and t.saw(seen)
        assert t.saw("Anna gets back on his horse.") == (ed == 7)
        assert t.knight()["on_foot"] == (ed == 6)


def test_c47_the_dwarfs_spare_before_the_next_foe(table):
    """COMBAT, Fights and Replacing Equipment: Anna's lance breaks on the 11 that fells a
    Brigand (11 against 2), and her Dwarf's spare does not come at once (luck die 1). Rules
    edition 7 (combat.REFIT_BETWEEN_FOES): before the second Brigand the Dwarf hands her the
    spare lance, no Luck Test (18 against 2). Edition 6: she went on with her sword (13)."""
    for ed in (7, 6):
        t = table(pos(cp=50, vp=20, anna='dwarf = {spares = ["lance"]}'),
                  dice=[5, 5, 1, 1, 1, 1, 6, 6, 6, 1, 1] if ed == 7 else
                  [5, 5, 1, 1, 1, 1, 6, 6, 1, 1])
        t.state["edition"] = ed
        s = t.session()
        s.pk["luck"] = 4
        result = fight(s, [foe("brigand", f"Brigand {n}", 2, 2) for n in (1, 2)])
        assert result.won and not t.unused_dice
        assert t.saw("Pass: Anna 18, Brigand 2" if ed == 7 else "Pass: Anna 13, Brigand 2")
        assert t.knight()["gear"]["lance"] == (ed == 7)
        assert t.knight()["dwarf"]["spares"] == ([] if ed == 7 else ["lance"])


def test_c49_a_foe_without_a_shield_is_an_advantage(table):
    """COMBAT, Combat Events 11: Sir Kay's shield breaks (a tie, 9 against 9, then 5+6), and the
    knight must choose whether to fight chivalrously. Rules edition 7 (combat.SHIELD_ASIDE):
    Anna, no knight of the Round Table, keeps her shield by default (question 'fight_fair':
    no, as the method a knight not of the Round Table takes by default is his best): an
    advantage (14 against 4), so no awards for beating him; laying it aside ('fight_fair: yes')
    Sir Kay adds 2 as well (14 against 6) and the awards stand (2 CP, 6 VP). A game of edition
    6 keeps its reading: her shield and the awards both. Sir Kay yields (6+6) and goes free."""
    for ed, orders, seen, won in ((7, None, "Pass: Anna 14, Sir Kay 4", False),
                                  (7, "answer fight_fair: yes", "Pass: Anna 14, Sir Kay 6",
                                   True),
                                  (6, None, "Pass: Anna 14, Sir Kay 4", True)):
        t = table(pos(cp=50, vp=20), dice=[3, 3, 3, 3, 3, 3, 5, 6, 4, 4, 4, 1, 1, 2, 6, 6],
                  orders={"Anna": orders} if orders else None)
        t.state["edition"] = ed
        result = fight(t.session(), [npk({"kind": "knight", "name": "Sir Kay", "vl": 5,
                                          "cp": 20})])
        assert result.won and not t.unused_dice and t.saw(seen)
        assert t.saw("fights unchivalrously") == (not won)
        assert t.saw("Anna lays his shield aside") == (ed == 7 and won)
        assert (t.knight()["cp"], t.knight()["vp"]) == ((52, 26) if won else (50, 20))
        assert t.knight()["gear"]["shield"]


def test_c50_the_arthurian_dwarf_follows_a_knight_who_flees(table):
    """COMBAT, Fleeing, with the glossary's Arthurian Dwarf (he tags along when his knight
    flees): a tie with an Ogre (9 against 9) brings event 2 (1+1), her party leaves her but
    the Arthurian Dwarf stays; she flees (luck die 6 against 4). Rules edition 7
    (combat.FLEEING_DWARF_FOLLOWS): he stays with her still. A game of edition 6 keeps its
    reading: fleeing cost her the Arthurian Dwarf too."""
    for ed in (7, 6):
        t = table(pos(cp=50, vp=20, anna='dwarf = {arthurian = true, spares = []}'),
                  dice=[3, 3, 3, 3, 3, 3, 1, 1, 6], orders={"Anna": "answer flee: yes"})
        t.state["edition"] = ed
        s = t.session()
        s.pk["luck"] = 4
        result = fight(s, [foe("monster", "Ogre", 10, 3)])
        assert result.fled and not t.unused_dice and t.saw("Anna flees.")
        assert (t.knight()["dwarf"] is not None) == (ed == 7)


def test_c51_a_friendly_castle_mends_what_a_challenge_broke(table):
    """COMBAT, Challenges: a challenge fought at a castle friendly to the knight ends with the
    castle giving back what broke in it. Inside Camelot Castle, her Lord's, Anna's lance breaks on 11 against
    Sir Kay (11 against 3), which ends the challenge: she wins (8 CP, 6 VP). Rules edition 7
    (combat.CHALLENGE_MENDED): the castle gives her a new lance. A game of edition 6 keeps its
    reading: she rode on without one. Outside a castle nothing is replaced."""
    for ed, where in ((7, "inside"), (6, "inside"), (7, None)):
        t = table(pos(cp=100, vp=20, at="Camelot Castle" if where else "Hampshire",
                      where=where), dice=[5, 5, 1, 1, 1, 1])
        t.state["edition"] = ed
        result = challenge(t.session(), npk({"kind": "knight", "name": "Sir Kay", "vl": 5,
                                             "cp": 100}))
        assert result.challenge_winner == "pk" and not t.unused_dice
        assert t.saw("Anna's lance breaks") and t.knight()["cp"] == 108
        assert t.knight()["gear"]["lance"] == (ed == 7 and where is not None)
        assert t.saw("Camelot Castle replaces what Anna lost in the challenge: lance.") == \
            (ed == 7 and where is not None)


def test_c52_npk_party_combat_tied_is_rolled_again(table):
    """NPK Party Combat (decision, the rules silent on a tie): each side's remaining WLs plus
    two dice, the higher total wins; equal totals (10+2 against 8+4) are rolled again (10+12
    against 8+2: the knight's side wins). No edition: the engine always did so."""
    t = table(position(), dice=[1, 1, 2, 2, 6, 6, 1, 1])
    assert party_combat(t.session(), 10, 8) is True
    assert t.saw("Party combat: the PK's side 12 against the foes' 12.")
    assert t.saw("Party combat: the PK's side 22 against the foes' 10.")
    assert not t.unused_dice


def test_c53_the_challenged_knight_is_not_bound_to_fight_fairly(table):
    """COMBAT, Chivalry and Challenges: the challenger fights chivalrously, the challenged is
    not bound to. Sir Kay, without a lance (mounted sword), challenges Anna, who answers
    'method: lance'. Rules edition 7 (combat.CHALLENGED_NOT_BOUND): she charges with her
    lance (2+2+1 against 1+1+1, three passes), an advantage: she wins the challenge but
    unchivalrously, no awards (she is no knight of the Round Table: no VP lost). A game of
    edition 6 keeps its reading: she was made to match his mounted sword (2+2+1 against
    1+1+1) and had the winner's awards (6 CP for her wounds, 6 VP). Her own challenge still
    binds her (attacker 'pk')."""
    for ed, challenger in ((7, "foe"), (6, "foe"), (7, "pk")):
        free = ed == 7 and challenger == "foe"
        t = table(pos(cp=100, vp=20), dice=[2, 2, 1, 1, 1] * 3 if free else [2, 2, 1, 1] * 3,
                  orders={"Anna": "answer method: lance"})
        t.state["edition"] = ed
        kay = npk({"kind": "knight", "name": "Sir Kay", "vl": 5, "cp": 100})
        kay["gear"]["lance"] = False
        result = challenge(t.session(), kay, challenger=challenger)
        assert result.challenge_winner == "pk" and not t.unused_dice
        assert t.saw("Pass: Anna 5, Sir Kay 3")
        assert t.saw("Anna fights Sir Kay unchivalrously (lance against mounted sword)") == free
        assert (t.knight()["cp"], t.knight()["vp"]) == ((100, 20) if free else (106, 26))


def test_c54_a_castle_is_friendly_no_longer_once_its_owner_is_slain(table):
    """ENCOUNTERS: TERRAIN, Friendly Castles (friendly until its owner is slain), with Knight's
    Fate: Anna beats Sir Belleus, who yields (6+6 against his VL 7), and has him slain (no
    good knight: 1+1). His castle was friendly to her, to Bert far off in Kent, and to Cora,
    whose Lord he is. Rules edition 7 (service.CASTLE_DIES_WITH_OWNER): it leaves Anna's and
    Bert's lists, and Bert is told too; it stays on Cora's, her Lord's castle. A game of
    edition 6 keeps its reading: it stayed friendly to all three."""
    castle = "Sir Belleus's castle"
    extra = f'[castles]\n"{castle}" = {{area = "Powys", owner = "Sir Belleus", kind = "knight"}}\n'
    mine = f'friendly = ["Camelot Castle", "{castle}"]'
    others = {"Bert": f'at = "Kent"\nfriendly = ["{castle}"]',
              "Cora": f'at = "Kent"\nlord = "Sir Belleus"\nfriendly = ["{castle}"]'}
    for ed in (7, 6):
        t = table(pos(at="Powys", anna=mine, others=others, extra=extra), dice=[6, 6, 1, 1],
                  orders={"Anna": "on fate: slay"})
        t.state["edition"] = ed
        give_fate(t.session(), npk(card("Sir Belleus")))
        assert t.saw("Anna slays Sir Belleus.") and not t.unused_dice
        knights = t.state["knights"]
        assert knights["Anna"]["friendly"] == (["Camelot Castle"] if ed == 7 else
                                               ["Camelot Castle", castle])
        assert knights["Bert"]["friendly"] == ([] if ed == 7 else [castle])
        assert knights["Cora"]["friendly"] == [castle]
        told = [e["to"] for e in t.ctx.events if e["text"] ==
                f"With Sir Belleus slain, {castle} is no longer friendly to Anna and Bert."]
        assert told == ([["Anna", "Bert"]] if ed == 7 else [])


def test_c55_a_slain_ladys_castle_leaves_every_friendly_list(table):
    """ENCOUNTERS: TERRAIN, Friendly Castles, with COMBAT, Outcomes: Anna slays Lady Lyonesse,
    whose castle is not yet on the map, but Bert won it by a challenge for her service (its
    name alone is on his list). Rules edition 7 (service.CASTLE_DIES_WITH_OWNER): it leaves
    his list, and he is told. A game of edition 6 left it there."""
    home = card("Lady Lyonesse", "lady")["castle"]
    for ed in (7, 6):
        t = table(pos(others={"Bert": f'at = "Kent"\nfriendly = ["{home}"]'}))
        t.state["edition"] = ed
        s = t.session()
        lady = foe("lady", "Lady Lyonesse", 1, 1, card={"name": "Lady Lyonesse", "vl": 3,
                                                         "enchantress": False})
        settle_foe(s, Combat(s, [lady], attacker="pk"), lady, True)
        assert t.saw("Lady Lyonesse is slain.") and "castles" not in t.state
        assert t.state["knights"]["Bert"]["friendly"] == ([] if ed == 7 else [home])
        told = [e["to"] for e in t.ctx.events if e["text"] ==
                f"With Lady Lyonesse slain, {home} is no longer friendly to Bert."]
        assert told == ([["Anna", "Bert"]] if ed == 7 else [])


def test_c56_a_round_table_knight_pays_for_each_foe_fought_unchivalrously(table):
    """SERVICE, King Arthur's Knights (6 VP for each opponent fought unchivalrously), with
    COMBAT, Chivalry: Anna, a knight of the Round Table (100 CP, 40 VP), is attacked by Sir Kay
    and Sir Belleus, both on foot; she keeps horse and lance against each (three dice, 6+6+6
    against 1+1, twice; both yield, 6+6). Rules edition 7 (combat.UNCHIVALROUS_EACH_FOE): two
    foes fought so cost her 12 VP. A game of edition 6 keeps its reading: 6 VP, once for the
    fight."""
    for ed in (7, 6):
        t = table(pos(cp=100, vp=40, anna="arthurian = true"),
                  dice=[6, 6, 6, 1, 1, 6, 6, 6, 1, 1, 6, 6, 6, 6],
                  orders={"Anna": "answer method: lance"})
        t.state["edition"] = ed
        s = t.session()
        s.pk["luck"] = 4
        foes = [npk({"kind": "knight", "name": name, "vl": 5, "cp": 20, "mounted": False})
                for name in ("Sir Kay", "Sir Belleus")]
        fight(s, foes, attacker="foe")
        assert not t.unused_dice
        assert t.saw("Anna fights Sir Kay unchivalrously (lance against sword)")
        assert t.saw("Pass: Anna 18, Sir Kay 2") and t.saw("Pass: Anna 18, Sir Belleus 2")
        if ed == 7:
            assert t.saw("Anna loses 12 VP (an Arthurian knight fighting unchivalrously "
                         "(2 foes)); VP 28")
        else:
            assert t.saw("Anna loses 6 VP (an Arthurian knight fighting unchivalrously); VP 34")
        assert t.knight()["cp"] == 100
