"""The Knave variant's castles, shrines, brigands and pirates: a casebook (rules: KNAVES, Looting
a Shrine, Piracy and its Merchant Ship Chart, Seizing a Castle by Storm, Encounters with
Brigands, Turning Pirate; with Rescuing a Prisoner, the Sea Encounters and Knight's Fate they
lean on). Dice are explicit; the Luck-of-the-Day is 4.

Fight dice: Anna (CP 250, WL 25) on horseback attacks with her lance, three dice; ``BEAT3``
(18 against 3) fells any knight of the weak cards used here at one pass; ``SWORD`` (12 against
2) is the same on foot, two dice each."""
from __future__ import annotations

import pytest
from kocpos import pos

from companion.engine.orders import OrdersRejected
from companion.koc.engine import encounters as enc
from companion.koc.engine import knaves
from companion.koc.engine import resolutions as rs
from companion.koc.engine import villainy as vil
from companion.koc.engine.movement import Mover
from companion.koc.kind import KIND
from companion.koc.orders import parse_orders

BEAT3 = [6, 6, 6, 1, 1, 1]
SWORD = [6, 6, 1, 1]
YIELDS = [6, 6]
# a deck of weak knights: the first drawn is Vagon's castellan in the storming cases
WEAK = ["Sir Miles of the Launds", "Sir Belleus", "Sir Herlews", "Sir Galagars", "Sir Gauter",
        "Sir Hemison", "Sir Dalan", "Sir Damas"]
ARTHURIANS = ["Sir Lavaine", "Sir Baudwin", "Sir Urry", "Sir Griflet", "Sir Ulfius"]


def deck(*names: str) -> str:
    return "[decks]\nknights = [" + ", ".join(f'"{n}"' for n in names) + "]\n"


def knave(table, dice=(), orders=None, *, at="Hampshire", where=None, anna="", extra="",
          others=None, cp=250, knights=WEAK):
    """Anna, a Knave serving King Mark (Tintagel), CP 250, luck 4."""
    t = table(pos(cp=cp, at=at, where=where, lord="King Mark", anna="luck = 4\n" + anna,
                  extra=deck(*knights) + extra, others=others),
              dice=dice, orders={"Anna": orders} if orders else None)
    knaves.become(t.session(), t.knight(), "chooses villainy")
    vil.rec(t.knight())
    return t


def hold(t, castle: str, *, player="Anna", guards=(), since=1) -> dict:
    """Anna holds ``castle`` (as if she had stormed it in game turn ``since``)."""
    from kocpos import card

    r = vil.rec(t.state["knights"][player])
    for g in guards:
        for pile in ("draw", "discard"):
            if g in t.state["decks"]["knights"][pile]:
                t.state["decks"]["knights"][pile].remove(g)
    r["holds"][castle] = {"from": "its lord", "since": since,
                          "guards": [dict(card(g), wounds=0) for g in guards]}
    r["castles"].append(castle)
    return r


# ============================================================================== storming
def test_kv01_storming_a_castle_to_hold_it(table):
    """Seizing a Castle by Storm, Rescuing a Prisoner: 1-6 knights defend (die 1: one); its
    lord (Vagon's castellan, a Provincial Lord, treated as a King) fights in his throne room
    without horse or lance and may be imprisoned; the castle is the Knave's (an Act), its loot
    hires 1-3 guards, a knight with VL under 6 redrawn (Sir Herlews, VL 5)."""
    t = knave(table, [1, *BEAT3, *YIELDS, *SWORD, 3], "storm castle\n")
    s = t.session()
    assert enc.castle_encounter(s, "Vagon") is True
    pk = t.knight()
    r = pk["knave"]
    assert pk["at"] == {"area": "Vagon", "where": "inside"}
    assert r["castles"] == ["Vagon"] and r["acts"] == {"imprison": 1, "storm_castle": 1}
    assert r["kvp"] == 2
    assert [(p["name"], p["kind"], p["castle"], p["status"]) for p in r["prisoners"]] == [
        ("Sir Miles of the Launds", "knight", "Vagon", "held")]
    assert [g["name"] for g in r["holds"]["Vagon"]["guards"]] == ["Sir Galagars", "Sir Gauter"]
    assert t.saw("Sir Miles of the Launds meets Anna in his throne room, on foot.")
    assert t.saw("Pass: Anna 12, Sir Miles of the Launds 2")       # sword against sword
    assert "Sir Herlews" in t.state["decks"]["knights"]["discard"]
    assert t.unused_dice == []
    # a castle he holds is his own: friendly, its owner is the Knave
    assert enc.friendly_castle(s, "Vagon")
    assert rs.castle_owner(s, "Vagon")["player"] == "Anna"


def test_kv02_not_the_castle_of_his_own_lord(table):
    """Seizing a Castle by Storm: never his own Lord's (or Lady's) castle: Tintagel simply
    admits him; no question, no die."""
    t = knave(table, [], "storm castle\n")
    assert enc.castle_encounter(t.session(), "Tintagel") is True
    assert t.knight()["knave"]["holds"] == {}
    assert not t.saw("storms")


def test_kv03_beaten_storming_he_is_the_castles_prisoner(table):
    """Rescuing a Prisoner: beaten by the defenders, the stormer is imprisoned there."""
    t = knave(table, [1, 1, 1, 1, 6, 6, 6] * 9, "storm castle\n", cp=40)
    s = t.session()
    assert enc.castle_encounter(s, "Vagon") is False
    pk = t.knight()
    assert pk["prison"]["castle"] == "Vagon"
    assert pk["knave"]["holds"] == {} and not pk["knave"]["acts"]


def test_kv04_camelot_has_two_to_twelve_arthurian_defenders(table):
    """Camelot is defended by 2-12 Arthurian knights (dice 1+1: two), then King Arthur in his
    throne room; the Knave may let him go."""
    t = knave(table, [1, 1, *BEAT3, *BEAT3, *YIELDS, *YIELDS, *SWORD, *SWORD, 1],
              "storm camelot\nanswer storm_captive: let go\n", knights=ARTHURIANS + WEAK,
              cp=300)
    s = t.session()
    assert enc.castle_encounter(s, "Camelot Castle") is True
    r = t.knight()["knave"]
    assert t.saw("Anna storms Camelot Castle: 2 of Arthurian knights defend it "
                 "(Sir Lavaine, Sir Baudwin).")
    assert t.saw("King Arthur meets Anna in his throne room, on foot.")
    assert r["camelot"] == {"since": 1} and "Camelot Castle" in r["holds"]
    assert r["acts"] == {"storm_castle": 1} and r["prisoners"] == []


def test_kv05_camelot_held_three_complete_turns_earns_one_kvp_once(table):
    """Taking Camelot and holding it three complete turns: +1 KVP, once only; each turn a
    passed Luck Test keeps the Arthurians from storming back."""
    t = knave(table, [5, 5, 5])
    r = hold(t, "Camelot Castle", since=1, guards=["Sir Dalan"])
    r["camelot"] = {"since": 1}
    s = t.session()
    t.state["koc"]["turn"] = 4          # turns 2 and 3 complete only
    vil.start_of_turn(s)
    assert r.get("bonus_kvp", 0) == 0
    t.state["koc"]["turn"] = 5          # turns 2, 3 and 4 complete
    vil.start_of_turn(s)
    assert r["bonus_kvp"] == 1 and r["camelot_kvp"] is True
    t.state["koc"]["turn"] = 6
    vil.start_of_turn(s)
    assert r["bonus_kvp"] == 1
    assert t.unused_dice == []


def test_kv06_counter_storm_on_a_failed_luck_test(table):
    """A failed Luck Test brings 1-6 Arthurian knights (die 2) against Camelot: the guards
    meet them first (party combat), then the Knave if inside; away, Camelot is lost."""
    t = knave(table, [1, 2, 1, 6], at="Hampshire", knights=ARTHURIANS + WEAK)
    r = hold(t, "Camelot Castle", since=1, guards=["Sir Dalan"])
    r["camelot"] = {"since": 1}
    s = t.session()
    t.state["koc"]["turn"] = 2
    vil.start_of_turn(s)
    assert t.saw("2 Arthurian knights storm Camelot against Anna: Sir Lavaine, Sir Baudwin.")
    assert t.saw("Anna loses Camelot Castle (stormed back by Arthurian knights)")
    assert r["holds"] == {} and "camelot" not in r
    assert "Sir Dalan" in t.state["decks"]["knights"]["discard"]


def test_kv07_a_lady_defends_her_castle_with_one_die(table):
    """A Lady owner defends herself with one die; beaten she may be distressed (6 VP, an
    Act) and imprisoned (an Act)."""
    t = knave(table, [1, *BEAT3, *YIELDS, 6, 6, 6, 1, 2], "storm castle\n"
              "answer storm_distress: yes\n",
              extra='[castles]\n"Castle Chariot" = {area = "Gore", owner = "Queen of North '
                    'Wales", kind = "lady"}\n')
    s = t.session()
    vp = t.knight()["vp"]
    assert enc.castle_encounter(s, "Castle Chariot") is True
    r = t.knight()["knave"]
    assert t.saw("Queen of North Wales defends herself with one die.")
    assert r["acts"] == {"distress_lady": 1, "imprison": 1, "storm_castle": 1}
    assert r["prisoners"][0]["name"] == "Queen of North Wales"
    assert t.knight()["vp"] == vp + 6 - 6      # 6 for the knight beaten, 6 lost distressing


def test_kv08_beaten_knights_reinforce_his_castle(table):
    """Knights he personally beats may be sent to reinforce the hired garrison (the Knight's
    Fate 'sends as guard'); a guard beaten in combat is no longer a guard."""
    t = knave(table, [*BEAT3, *YIELDS], "answer fate: sends as guard\n")
    r = hold(t, "Vagon", guards=["Sir Dalan"])
    from companion.koc.engine.combat import fight, npk
    from kocpos import card

    t.state["decks"]["knights"]["draw"].remove("Sir Belleus")
    fight(t.session(), [npk(card("Sir Belleus"))], attacker="pk")
    assert [g["name"] for g in r["holds"]["Vagon"]["guards"]] == ["Sir Dalan", "Sir Belleus"]


def test_kv09_a_castle_stormed_back_is_lost_and_its_prisoners_freed(table):
    """A castle taken by storm is lost when stormed: its guards defend it; the stormer frees
    the prisoners (a PK freeing Bert gets 6 VP as usual for a prisoner rescued)."""
    t = knave(table, [*BEAT3], others={"Bert": 'cp = 250\nat = "Vagon"\nwhere = "gate"\n'
                                               "luck = 4\n",
                                       "Cora": 'at = "Vagon"\n'})
    hold(t, "Vagon", guards=["Sir Dalan"])
    cora = t.state["knights"]["Cora"]
    cora["at"] = {"area": "Vagon", "where": "prison"}
    cora["prison"] = {"by": "pk", "jailor": "Anna", "castle": "Vagon", "direct": False,
                      "since": 1, "gear": {}, "last": None, "jailor_player": "Anna"}
    bert = t.session("Bert")
    assert rs.storm_castle(bert, "Vagon") is True
    assert t.saw("Bert storms Vagon to free its prisoners: 1 knight defends it.")
    assert t.knight()["knave"]["holds"] == {}
    assert cora["prison"] is None
    assert t.saw("Anna loses Vagon (stormed by Bert)")


def test_kv10_beaten_by_a_pk_he_surrenders_his_castles_on_demand(table):
    """A PK who beats the Knave may demand his castles: back to their lords, prisoners
    released automatically, no VP to the PK for them."""
    t = knave(table, [], others={"Bert": 'at = "Hampshire"\n'})
    r = hold(t, "Vagon")
    r["prisoners"].append({"name": "Sir Gauter", "kind": "knight", "castle": "Vagon",
                           "status": "held", "act": True})
    t.state["decks"]["knights"]["draw"].remove("Sir Gauter")
    bert = t.session("Bert")
    vp = bert.pk["vp"]
    vil.beaten_by_pk(bert, t.knight())
    assert r["holds"] == {} and r["castles"] == [] and r["prisoners"] == []
    assert t.saw("Anna loses Vagon (surrendered on Bert's demand); it returns to its lord, "
                 "and Sir Gauter go free.")
    assert bert.pk["vp"] == vp
    assert "Sir Gauter" in t.state["decks"]["knights"]["discard"]


def test_kv11_an_arthurians_fate_above_4_takes_his_castles(table):
    """Beaten by an Arthurian knight whose Knight's Fate is greater than 4, the Knave loses the
    castles he won by storm; a Fate of 4 or less leaves them."""
    from companion.koc.engine.fate import suffer_fate
    from kocpos import card

    t = knave(table, [1])
    r = hold(t, "Vagon")
    suffer_fate(t.session(), card("Sir Lavaine"))          # 1 + VL 2 = 3: Praises your skill
    assert "Vagon" in r["holds"]
    t2 = knave(table, [3, 6, 6])
    r2 = hold(t2, "Vagon")
    suffer_fate(t2.session(), card("Sir Lavaine"))         # 3 + 2 = 5: swear an oath
    assert r2["holds"] == {}
    assert t2.saw("Anna loses Vagon (a Knight's Fate of 5 from Sir Lavaine)")


def test_kv12_a_knave_storming_a_knaves_castle_frees_his_prisoners(table):
    """A Knave who storms another Knave's castle takes it and releases that Knave's prisoners;
    keeping them is no act of his."""
    t = knave(table, [*BEAT3, *YIELDS, 1], "storm castle\n",
              others={"Bert": 'at = "Vagon"\nwhere = "inside"\n'})
    knaves.become(t.session("Bert"), t.state["knights"]["Bert"], "chooses villainy")
    rb = hold(t, "Vagon", player="Bert", guards=["Sir Dalan"])
    rb["prisoners"].append({"name": "Sir Gauter", "kind": "knight", "castle": "Vagon",
                            "status": "held", "act": True})
    t.state["decks"]["knights"]["draw"].remove("Sir Gauter")
    assert enc.castle_encounter(t.session(), "Vagon") is True
    ra = t.knight()["knave"]
    assert rb["holds"] == {} and rb["prisoners"] == []
    assert "Vagon" in ra["holds"] and ra["prisoners"] == []
    assert ra["acts"] == {"storm_castle": 1}
    assert t.saw("Storming a Knave's castle frees his prisoners")


# ============================================================================== shrines
def test_kv13_looting_an_undefended_shrine(table):
    """Looting a Shrine: d6-3 knights defend it (3: none); 12 VP; an Act of Villainy. The
    Knave must be at the shrine and say so ('loot shrine')."""
    t = knave(table, [3], "loot shrine\n", at="Canterbury")
    vp = t.knight()["vp"]
    assert Mover(t.session()).encounter_roll("Canterbury") is True
    assert t.knight()["vp"] == vp - 12
    assert t.knight()["knave"]["acts"] == {"loot_shrine": 1}
    assert t.saw("Anna sets about looting Canterbury: 3 - 3 -> nobody comes to defend it.")


def test_kv14_a_shrines_defenders_must_be_beaten(table):
    """d6-3 (5: two knights) defend the shrine; beaten by them, he loots nothing."""
    t = knave(table, [5, *BEAT3, *YIELDS, *BEAT3, *YIELDS], "loot shrine\n", at="Canterbury")
    vil.at_shrine(t.session(), "Canterbury")
    assert t.saw("2 knights come to defend it.")
    assert t.knight()["knave"]["acts"] == {"loot_shrine": 1}
    t2 = knave(table, [4] + [1, 1, 1, 6, 6, 6] * 9, "loot shrine\n", at="Canterbury", cp=40)
    vil.at_shrine(t2.session(), "Canterbury")
    assert t2.saw("Canterbury is saved from Anna.")
    assert not t2.knight()["knave"]["acts"]


def test_kv15_carbonek_is_looted_by_storming_carbonek(table):
    """Looting Carbonek Shrine requires storming Carbonek Castle: no looting at the shrine
    itself; storming the castle lays it open."""
    t = knave(table, [], "loot shrine\n", at="Carbonek")
    assert vil.at_shrine(t.session(), "Carbonek") is False
    t2 = knave(table, [1, *BEAT3, *YIELDS] + [6, 6, 1, 1] * 6 + [1], "storm carbonek\n"
               "loot shrine\nanswer storm_captive: let go\n", cp=300)
    assert enc.castle_encounter(t2.session(), "Carbonek") is True
    assert t2.knight()["knave"]["acts"] == {"storm_castle": 1, "loot_shrine": 1}


# ============================================================================== brigands
def test_kv16_brigands_take_the_knave_as_leader(table):
    """Encounters with Brigands: on a Luck Test (4) they follow him; they are not of his party
    for the encounter value, and on foot they hold him to the foot rate."""
    from companion.koc.engine import party

    t = knave(table, [4], extra='[draws]\nbrigand = ["Brigand 4", "Brigand 6"]\n')
    s = t.session()
    before = party.encounter_value(s)
    out = enc.meet_brigands(s, 2)
    r = t.knight()["knave"]
    assert out.attitude == "friendly" and not out.fought
    assert [(b["wl"], b["mounted"]) for b in r["brigands"]] == [(4, False), (6, False)]
    assert party.encounter_value(s) == before
    assert party.movement_allowance(s) == 1
    assert t.state["chits_out"]["brigand"] == [["Brigand", 4], ["Brigand", 6]]


def test_kv17_failing_the_luck_test_they_attack(table):
    """A failed Luck Test (3 against 4): the brigands attack as usual."""
    t = knave(table, [3, 6, 6, 6, 1, 1], extra='[draws]\nbrigand = ["Brigand 4"]\n')
    out = enc.meet_brigands(t.session(), 1)
    assert out.fought and out.won and t.knight()["knave"]["brigands"] == []


def test_kv18_brigands_fight_first_and_run_when_he_is_beaten(table):
    """The brigands fight before the Knave (a bout: no Combat Events); foes they beat earn him
    nothing. When the Knave is beaten, they run."""
    from companion.koc.engine.combat import fight, foe

    t = knave(table, [6, 6, 1, 1])
    r = t.knight()["knave"]
    r["brigands"] = [{"name": "brigand 1", "wl": 6, "wounds": 0, "mounted": False}]
    cp = t.knight()["cp"]
    result = fight(t.session(), [foe("animal", "Boar", 3, 2)])
    assert result.won and t.knight()["cp"] == cp
    assert t.saw("brigand 1 beats Boar.")
    t2 = knave(table, [1, 1, 6, 6] * 2 + [1, 1, 1, 6, 6, 6] * 20, cp=40)
    r2 = t2.knight()["knave"]
    r2["brigands"] = [{"name": "brigand 1", "wl": 2, "wounds": 0, "mounted": False}]
    fight(t2.session(), [foe("monster", "Troll", 40, 3)])
    assert r2["brigands"] == []


def test_kv19_brigands_ride_robbed_horses(table):
    """Brigands are mounted on horses robbed from beaten knights (or from a castle he holds):
    then two dice +1, and they no longer slow him."""
    from companion.koc.engine import party

    t = knave(table, [*BEAT3, *YIELDS], "answer fate: robs\nanswer brigands_fight: no\n")
    r = t.knight()["knave"]
    r["brigands"] = [{"name": "brigand 1", "wl": 6, "wounds": 0, "mounted": False}]
    from companion.koc.engine.combat import fight, npk
    from kocpos import card

    t.state["decks"]["knights"]["draw"].remove("Sir Belleus")
    fight(t.session(), [npk(card("Sir Belleus"))], attacker="pk")
    assert r["brigands"][0]["mounted"] is True and r["horses"] == 0
    assert vil.brigand_foe(r["brigands"][0])["bonus"] == 1
    assert party.movement_allowance(t.session()) == 3


def test_kv20_brigands_wait_outside_other_castles_and_take_no_ship(table):
    """Left outside a castle not his, the brigands stay three complete turns, then on a Luck
    Test each further turn; they never board a ship."""
    t = knave(table, [2], at="Tintagel", where="inside")
    r = t.knight()["knave"]
    r["brigands"] = [{"name": "brigand 1", "wl": 6, "wounds": 0, "mounted": False}]
    s = t.session()
    for turn in (2, 3, 4):
        t.state["koc"]["turn"] = turn
        vil.start_of_turn(s)
        assert r["brigands"]
    t.state["koc"]["turn"] = 5
    vil.start_of_turn(s)          # three complete turns waited: a Luck Test (2): they go
    assert r["brigands"] == [] and t.saw("tired of waiting outside the castle")
    t2 = knave(table, [], at="Irish Sea", where="ship",
               anna='ship = {kind = "ship", name = "Cog", wl = 10}\n')
    r2 = t2.knight()["knave"]
    r2["brigands"] = [{"name": "brigand 1", "wl": 6, "wounds": 0, "mounted": False}]
    vil.start_of_turn(t2.session())
    assert r2["brigands"] == []


# ============================================================================== pirates
SHIP = 'ship = {kind = "ship", name = "Cog", wl = 10}\n'
PIRATE = 'ship = {kind = "ship", name = "Knarr", wl = 14, pirate = true}\n'


def test_kv21_turning_pirate(table):
    """Turning Pirate: on a Luck Test the pirates (10 brigand chits) are his; their chits become
    a ship no stronger than their combined WL; the ship he sailed on is gone. Meeting pirates
    again, the fleet grows."""
    draws = "[draws]\nbrigand = [" + ", ".join(['"Brigand 1"'] * 10) + "]\n"
    t = knave(table, [4], at="Irish Sea", where="ship", anna=SHIP, extra=draws)
    m = enc.Meeting(t.session(), "Irish Sea", place="sea")
    enc.pirates(m, "Irish Sea", t.world.charts["sea"].entry("pirates"))
    pk = t.knight()
    assert pk["ship"] == {"kind": "ship", "name": "Cog", "wl": 10, "pirate": True}
    assert pk["knave"]["pirate"] is True
    assert t.saw("The 10 pirates (strength 10) hail Anna as their captain: he sails on in a "
                 "pirate Cog (crew 10); the Cog is gone.")
    # pirates met again (WL 2 each: 20): a Galley joins his fleet
    t2 = knave(table, [5], at="Irish Sea", where="ship", anna=PIRATE,
               extra="[draws]\nbrigand = [" + ", ".join(['"Brigand 2"'] * 10) + "]\n")
    m2 = enc.Meeting(t2.session(), "Irish Sea", place="sea")
    enc.pirates(m2, "Irish Sea", t2.world.charts["sea"].entry("pirates"))
    assert t2.knight()["ship"]["name"] == "Knarr"
    assert [f["name"] for f in t2.knight()["knave"]["fleet"]] == ["Knarr", "Galley"]
    assert t2.saw("join Anna's fleet with a Galley (crew 20)")


def test_kv22_a_merchant_ship_attacked_and_taken(table):
    """Piracy: 'nothing happens' is a merchant ship; its counter is drawn and seen before he
    decides; then the chart (7: no passengers). His crew fights first; taking it is an Act."""
    t = knave(table, [3, 4, 3, 4, 6, 6, 1, 1], "attack merchant ship\n", at="Irish Sea",
              where="ship", anna=PIRATE, extra='[draws]\nship = ["Cog"]\n')
    enc.sea_encounter(t.session(), "Irish Sea", "Irish Sea")
    r = t.knight()["knave"]
    assert t.saw("A merchant ship is sighted: a Cog (crew 10).")
    assert t.saw("the crew of the Knarr beats the crew of the Cog.")
    assert r["acts"] == {"piracy": 1} and r["captured_in"] == "Irish Sea"


@pytest.mark.parametrize("roll,key", [(2, "ghost_ship"), (10, "disguised_pirates"),
                                      (12, "magic_ship"), (6, "dwarf"), (4, "knights"),
                                      (11, "king"), (9, "priest"), (3, "druid"),
                                      (8, "lady_and_knights"), (5, "few_knights")])
def test_kv23_the_merchant_ship_chart(table, roll, key):
    """Merchant Ship Chart 2-12: every entry is played out (a ghost ship maroons him, a magic
    ship takes him to Faerie alone without award, disguised pirates are no Act)."""
    dice = {2: [1, 1], 3: [1, 2], 4: [2, 2], 5: [2, 3], 6: [3, 3], 8: [4, 4], 9: [4, 5],
            10: [5, 5], 11: [5, 6], 12: [6, 6]}[roll]
    t = knave(table, dice + [6, 6, 6, 1, 1, 1] * 30, "attack merchant ship\n",
              at="Irish Sea", where="ship", anna=PIRATE, extra='[draws]\nship = ["Cog"]\n',
              cp=300)
    s = t.session()
    m = enc.Meeting(s, "Irish Sea", place="sea")
    assert vil.merchant_sighted(m, "Irish Sea") is True
    pk = t.knight()
    assert t.saw(t.world.charts["merchant_ship"].entry(key).label)
    acts = pk["knave"]["acts"]
    if key == "ghost_ship":
        assert pk["at"]["where"] == "coast" and "ship" not in pk
    elif key == "magic_ship":
        assert t.world.areas[pk["at"]["area"]].otherworld
    elif key == "disguised_pirates":
        assert acts == {}
    elif not pk["slain"] and not pk["prison"] and pk["at"]["where"] == "ship":
        assert acts.get("piracy") == 1


def test_kv24_a_warship_waits_in_the_sea_of_his_last_capture(table):
    """Staying in the sea of his last capture, the next merchant ship on a 7 is a warship with
    1-6 knights (die 1: one); the fight is compulsory."""
    t = knave(table, [3, 4, 1] + [6, 6, 6, 1, 1, 1] * 10, at="Irish Sea", where="ship",
              anna=PIRATE, extra='[draws]\nship = ["Cog"]\n', cp=300)
    t.knight()["knave"]["captured_in"] = "Irish Sea"
    m = enc.Meeting(t.session(), "Irish Sea", place="sea")
    vil.merchant_sighted(m, "Irish Sea")
    assert t.saw("It is a warship sent against the pirates: it attacks.")
    assert t.knight()["knave"]["acts"] == {"piracy": 1}


def test_kv25_beaten_at_sea_he_is_carried_ashore(table):
    """Beaten aboard, the Knave goes on with the ship to a random land; with no knight or king
    to give him a Knight's Fate he is imprisoned in its King's or Provincial Lord's castle.
    Logres' Vagon has no coast: 1-2 Brittany, 3-4 Gaul, 5-6 Benwick (die 4: Gaul)."""
    t = knave(table, [3, 4, 5, 4])
    vil.carried_off(t.session(), "Irish Sea", None)
    pk = t.knight()
    assert t.saw("Vagon has no coast: the ship lands in Gaul instead.")
    assert pk["prison"]["castle"] == "Ganis" == t.world.kingdoms["Gaul"].royal_castle
    assert pk["at"]["area"] == "Ganis"


# ============================================================================== orders
def test_kv26_orders_for_a_knave(table):
    """The orders: storm castle|camelot|carbonek, loot shrine, lead brigands|pirates, attack
    merchant ship; each is an answer given ahead; mistakes are located."""
    o = parse_orders(KIND.world, ["Anna", "Bert"], "storm camelot\nloot shrine\n"
                     "lead brigands\nlead pirates\nattack merchant ship\nattack Bert\n", "a.txt")
    assert [(a["key"], a["tags"], a["answer"]) for a in o.answers] == [
        ("knave_storm", ["knave_storm", "camelot"], "storm"),
        ("loot_shrine", ["loot_shrine"], "yes"), ("lead_brigands", ["lead_brigands"], "yes"),
        ("lead_pirates", ["lead_pirates"], "yes"), ("merchant_ship", ["merchant_ship"], "attack")]
    assert o.plan[0]["do"] == "confront"
    with pytest.raises(OrdersRejected) as err:
        parse_orders(KIND.world, ["Anna"], "storm tower\nloot church\nlead dwarves\n", "b.txt")
    assert [e.line.number for e in err.value.errors] == [1, 2, 3]


def test_kv27_orders_checked_and_offered(table):
    """Villainy orders are refused (located) for a knight who is no Knave, and for a Knave
    without pirates; the legal lines offer them where they make sense."""
    from companion.koc.checks import check_orders, legal_lines

    t = table(pos(at="Hampshire", lord="King Mark"))
    o = parse_orders(KIND.world, ["Anna"], "stay\nstorm castle\n", "a.txt")
    with pytest.raises(OrdersRejected) as err:
        check_orders(t.world, t.state, "Anna", o, "a.txt")
    assert err.value.errors[0].line.number == 2
    t = knave(table, [])
    o = parse_orders(KIND.world, ["Anna"], "attack merchant ship\n", "a.txt")
    with pytest.raises(OrdersRejected):
        check_orders(t.world, t.state, "Anna", o, "a.txt")
    lines = legal_lines(t.world, t.state, "Anna")
    assert "storm castle" in lines and "storm camelot" in lines and "lead brigands" in lines
    t = knave(table, [], at="Irish Sea", where="ship", anna=PIRATE)
    assert "attack merchant ship" in legal_lines(t.world, t.state, "Anna")


def test_kv28_knave_records_round_trip_in_a_position(table):
    """What this module keeps lives in the Knave record: a written position reads back."""
    from companion.koc.position import read_position, write_position

    t = knave(table, [])
    r = hold(t, "Vagon", guards=["Sir Dalan"])
    r["brigands"] = [{"name": "brigand 1", "wl": 6, "wounds": 0, "mounted": True}]
    text = write_position(t.world, t.state)
    again = read_position(t.world, text, "again.toml")
    assert again["knights"]["Anna"]["knave"]["holds"] == r["holds"]
    assert again["knights"]["Anna"]["knave"]["brigands"] == r["brigands"]


def test_kv29_a_pirate_knave_lands_on_a_river_to_fight_without_his_crew(table):
    """Turning Pirate: on a river, a Knave aboard his pirate ship may land to fight a player
    knight there (or be fought); his crew does not help; he goes back aboard after."""
    from companion.koc.engine import rivals

    t = knave(table, [6, *BEAT3], at="Thames", where="ship", anna=PIRATE,
              others={"Bert": 'cp = 40\nat = "Thames"\nluck = 4\n'})
    assert rivals.confront(t.session(), "attack", "Bert") is True
    assert t.saw("Anna leaves his pirate ship on Thames to fight; his crew stays aboard.")
    assert not t.saw("the crew of the Knarr")
    assert t.knight()["at"] == {"area": "Thames", "where": "ship"}
    assert t.saw("Pass: Anna 18, Bert 3")
    assert t.unused_dice == []


def test_kv30_a_whole_turn_at_a_shrine(table):
    """Through a whole player turn: 'stay' at Canterbury with 'loot shrine' (Luck-of-the-Day,
    then the looting before any encounter roll: d6-3 = 0)."""
    t = knave(table, [4, 2], "stay\nloot shrine\n", at="Canterbury")
    t.play()
    assert t.knight()["knave"]["acts"] == {"loot_shrine": 1}
    assert t.saw("Anna sets about looting Canterbury: 2 - 3 -> nobody comes to defend it.")


def test_kv31_a_knight_beaten_by_his_brigands_takes_the_knaves_fate(table):
    """Encounters with Brigands: a player knight his brigands beat receives the Knight's Fate
    the Knave chooses (here: robs)."""
    from companion.koc.engine import rivals

    t = knave(table, [6, 6, 6, 1, 1, 1], "answer fate_pk: robs\n",
              others={"Bert": 'cp = 40\nat = "Hampshire"\nluck = 4\n'})
    t.knight()["knave"]["brigands"] = [{"name": "brigand 1", "wl": 10, "wounds": 0,
                                        "mounted": False}]
    assert rivals.confront(t.session(), "attack", "Bert") is True
    assert t.saw("brigand 1 beats Bert.")
    assert t.saw("Anna gives Bert a Knight's Fate: robs.")
    assert not any(t.state["knights"]["Bert"]["gear"].values())
    assert t.unused_dice == []


def test_kv32_the_knaves_journal_shows_castles_brigands_and_ships(table):
    """His own journal lists the castles he holds with their guards, his brigands, his fleet."""
    t = knave(table, [])
    r = hold(t, "Vagon", guards=["Sir Dalan"])
    r["brigands"] = [{"name": "brigand 1", "wl": 6, "wounds": 0, "mounted": True}]
    r["fleet"] = [{"kind": "ship", "name": "Cog", "wl": 10, "pirate": True}]
    assert vil.journal_lines(t.knight()) == [
        "holds Vagon (taken in game turn 1; guards: Sir Dalan)",
        "leads 1 brigand, 1 mounted", "pirate fleet: Cog (crew 10)"]


def test_kv33_a_king_imprisoned_in_the_storm_leaves_his_deck(table):
    """Seizing a Castle by Storm: King Arthur, beaten in his throne room (dice as kv04), is
    imprisoned (the default): his card is out of the Kings deck while he is the Knave's
    prisoner; freed by the Knave, it goes back to the deck."""
    t = knave(table, [1, 1, *BEAT3, *BEAT3, *YIELDS, *YIELDS, *SWORD, *SWORD, 1],
              "storm camelot\nfree prisoners\n", knights=ARTHURIANS + WEAK, cp=300)
    kings = t.state["decks"]["kings"]
    assert "King Arthur" in kings["draw"] + kings["discard"]
    s = t.session()
    assert enc.castle_encounter(s, "Camelot Castle") is True
    r = t.knight()["knave"]
    assert [(p["name"], p["kind"], p["status"]) for p in r["prisoners"]] == [
        ("King Arthur", "king", "held")]
    assert "King Arthur" not in kings["draw"] + kings["discard"]
    knaves.start_of_turn(s)
    assert r["prisoners"] == [] and "King Arthur" in kings["draw"] + kings["discard"]


def test_kv34_storming_a_castle_granted_to_another_player_knight(table):
    """Seizing a Castle by Storm: any castle but his own Lord's or Lady's, so also Bert's keep,
    which Bert's Lord granted him. Its one guard (Sir Dalan) defends it and is beaten (BEAT3,
    he yields); the keep is Anna's (an Act), its loot hires one guard (die 1); Bert loses it
    and is told. Lost again by Anna, it goes back to Bert."""
    from companion.koc.engine import tasks
    from kocpos import card

    t = knave(table, [*BEAT3, *YIELDS, 1], "storm castle\n",
              others={"Bert": 'at = "Kent"\nlord = "King Mark"'})
    b = t.session("Bert")
    tasks.place_castle(b, "Bert's keep", "Bert", "pk", area="Hampshire")
    t.knight("Bert")["own_castle"] = "Bert's keep"
    t.state["decks"]["knights"]["draw"].remove("Sir Dalan")
    t.state["castles"]["Bert's keep"]["guards"] = [dict(card("Sir Dalan"), wounds=0)]
    s = t.session()
    assert vil.storm_tags(s, "Bert's keep", rs.castle_owner(s, "Bert's keep")) == ("knight",)
    assert enc.castle_encounter(s, "Bert's keep") is True
    r = t.knight()["knave"]
    assert t.saw("Anna storms Bert's keep: 1 of the guards of Bert defend it (Sir Dalan).")
    assert r["castles"] == ["Bert's keep"] and r["acts"] == {"storm_castle": 1}
    assert r["holds"]["Bert's keep"]["from"] == "Bert"
    assert len(r["holds"]["Bert's keep"]["guards"]) == 1
    bert = t.knight("Bert")
    assert bert["own_castle"] is None and "guards" not in t.state["castles"]["Bert's keep"]
    assert t.saw("Message: Bert's keep, the castle granted to Bert, is taken by storm by the "
                 "Knave Anna; it is no longer Bert's.")
    assert rs.castle_owner(s, "Bert's keep")["player"] == "Anna"
    vil.castle_taken(b, "Bert's keep", demanded=True, why="demanded by Bert")
    assert bert["own_castle"] == "Bert's keep" and r["holds"] == {}
    assert "Bert's keep" in bert["friendly"]
    assert t.unused_dice == []


def test_kv35_a_visit_to_a_castle_he_storms_fails_and_the_lady_stays_out_of_her_deck(table):
    """LIST OF ADVENTURES 2:1 with Seizing a Castle by Storm (found by random play): a Knave
    sent to call on Lady Enid storms her castle instead (one defender beaten, she defends
    herself with one die and is imprisoned, the default). Decision (docs/koc-engine.md): a
    Knave holding the castle by force is nobody's guest there, so the visit fails; the
    adventure ends, but her card stays out of the Ladies deck while she is his prisoner."""
    from test_koc_adventures import arrive, give

    t = knave(table, [1, *BEAT3, *YIELDS, *BEAT3, 3] + [1] * 12, "storm castle\n", at="Devon",
              extra='[castles]\n"Castle Cardigan" = {area = "Devon", owner = "Lady Enid", '
                    'kind = "lady"}\n')
    task = give(t, "visit_lady", "Devon", lady="Lady Enid", castle="Castle Cardigan")
    arrive(t, task)
    r = t.knight()["knave"]
    assert "Castle Cardigan" in r["holds"]
    assert [(p["name"], p["kind"], p["status"]) for p in r["prisoners"]] == [
        ("Lady Enid", "lady", "held")]
    assert not t.saw("Lady Enid welcomes Anna")
    assert t.saw("Anna holds Castle Cardigan by force: nobody receives him there as a guest, "
                 "and adventure 2:1 Call on a lady fails.")
    assert task["adventure"]["result"] == "failure" and task["adventure"]["cards"] == []
    ladies = t.state["decks"]["ladies"]
    assert "Lady Enid" not in ladies["draw"] + ladies["discard"] + ladies["removed"]
