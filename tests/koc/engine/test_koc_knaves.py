"""The Knave variant, its core: a casebook (rules: KNAVES: How to win as a Knave, The Acts of
Villainy (Distressing a Lady, Imprisoning a Person, Slaying a good Knight, Slaying a Goodly
Hermit Man), Lord and Lady Service, Encounters with Arthurian Knights, Knave Combat, A Knave
Repentant, Interaction of Knights and Knaves). Dice are explicit; the Luck-of-the-Day is 4
unless a case says otherwise. Decisions where the rules are silent: docs/koc-engine.md,
"Knaves: records and decisions".

Fight dice: a mounted knight's lance is three dice; ``BEAT_SWORD`` (18 against a mounted sword's
two dice + 1 = 3) fells a knight of WL 15 or less at one pass."""
from __future__ import annotations

import pytest
from kocpos import card, pos

from companion.engine.orders import OrdersRejected
from companion.koc.checks import acknowledge, check_orders, legal_lines
from companion.koc.engine import combat as cb
from companion.koc.engine import fate
from companion.koc.engine import knaves
from companion.koc.engine import knight as kn
from companion.koc.engine import requests as rq
from companion.koc.engine import resolutions as rs
from companion.koc.engine import service, tasks
from companion.koc.kind import KIND
from companion.koc.orders import parse_orders
from companion.koc.position import read_position, write_position

BEAT_SWORD = [6, 6, 6, 1, 1]       # lance 18 against mounted sword 1+1+1 = 3
LOSE_SWORD = [1, 1, 1, 6, 6]       # lance 3 against mounted sword 6+6+1 = 13
YIELDS = [6, 6]                    # a beaten knight's VL check to yield: he yields
KNAVE = "knave = true\nluck = 4"


def knave_pos(**kw) -> str:
    """A position where Anna is a Knave (her ``knave`` table, if given, replaces 'true')."""
    anna = kw.pop("anna", "")
    head = "luck = 4" if "knave =" in anna else KNAVE
    return pos(anna=f"{head}\n{anna}", **kw)


def swordsman(name: str, **more) -> dict:
    """A knight card as a fighter without a lance (his best: mounted sword)."""
    f = cb.npk(card(name, **more))
    f["gear"]["lance"] = False
    return f


# ============================================================================== KVP
def test_kn01_kvp_doubling_and_the_rules_example():
    """How to win as a Knave: one act gives 1 KVP; two more repeats the 2nd, four more the 3rd,
    and so on, each point needing twice the repeats of the one before."""
    assert [knaves.kvp_for(n) for n in (0, 1, 2, 3, 6, 7, 14, 15)] == [0, 1, 1, 2, 2, 3, 3, 4]
    # the rules' example: 1 good knight slain, then 2 more, then 4 more
    assert knaves.kvp_for(1) == 1 and knaves.kvp_for(1 + 2) == 2 and knaves.kvp_for(1 + 2 + 4) == 3
    # ten KVP from one act alone: 1 + 2 + 4 + ... + 512 repeats
    assert sum(2 ** k for k in range(10)) == knaves.repeats_for(10) == 1023
    assert knaves.kvp_for(1022) == 9 and knaves.kvp_for(1023) == 10
    # the rules print 1,791: the same series with 256 left out and 1,024 put in its place
    # (1+2+4+8+16+32+64+128+512+1024); 1,791 repeats do earn 10 KVP, and no 11th
    assert 1 + 2 + 4 + 8 + 16 + 32 + 64 + 128 + 512 + 1024 == 1791
    assert knaves.kvp_for(1791) == 10 and knaves.repeats_for(11) == 2047


def test_kn02_game_option_knaves_start_as_knaves():
    """The game option 'knaves': those players' knights start as Knaves (no acts yet)."""
    from companion.engine.chance import Chance, seed_key
    from companion.koc.engine.game import new_state

    state = new_state(KIND.world, ["Anna", "Bert"], {"scenario": "basic", "knaves": ("Bert",)},
                      Chance(seed_key("kn02"), 1))
    assert knaves.is_knave(state["knights"]["Bert"])
    assert state["knights"]["Bert"]["knave"]["acts"] == {}
    assert not knaves.is_knave(state["knights"]["Anna"])


def test_kn03_order_turn_knave(table):
    """Becoming a Knave by order ('turn knave', carried out at the start of the turn); a
    Knave's orders are refused, located, when they make no sense."""
    world = KIND.world
    t = table(pos(anna="luck = 4"), dice=[4], orders={"Anna": "turn knave\nstay\n"})
    orders = t.game.orders["Anna"]
    check_orders(world, t.state, "Anna", orders, "Anna.txt")
    assert "this turn: turn knave (at the start of the turn he becomes a Knave)" in \
        acknowledge(world, t.state, "Anna", orders)
    assert "turn knave" not in legal_lines(world, t.state, "Anna")   # no Knave in this game
    t.play()
    assert knaves.is_knave(t.knight())
    assert t.saw("Anna becomes a Knave (by his own choice).")
    # now: 'turn knave' again, 'repent' away from a shrine, 'free prisoners' with none
    bad = parse_orders(world, ["Anna"], "turn knave\nrepent\nfree prisoners\n", "Anna.txt")
    with pytest.raises(OrdersRejected) as e:
        check_orders(world, t.state, "Anna", bad, "Anna.txt")
    text = str(e.value.errors[0]) + str(e.value.errors[1]) + str(e.value.errors[2])
    assert "is a Knave already" in text and "must be at a shrine" in text
    assert "holds no prisoners" in text
    assert [err.line.number for err in e.value.errors] == [1, 2, 3]
    assert "turn knave" not in legal_lines(world, t.state, "Anna")
    # another knight of this game may now be offered the order
    t2 = table(pos(anna=KNAVE, others={"Bert": 'at = "Hampshire"'}))
    assert "turn knave" in legal_lines(world, t2.state, "Bert")


def test_kn04_first_act_dismisses_from_arthurs_service(table):
    """Lord and Lady Service: a Knave's first act ends his service of King Arthur (no Knave
    may serve him); later acts do not repeat it."""
    t = table(knave_pos(lord="King Arthur", anna="arthurian = true"))
    pk = t.knight()
    s = t.session()
    knaves.commit_act(s, pk, "slay_good_knight", "slays Sir Kay")
    assert pk["lord"] is None and pk["arthurian"] is False
    assert pk["knave"]["acts"] == {"slay_good_knight": 1} and pk["knave"]["kvp"] == 1
    assert t.saw("leaves the service of King Arthur (no Knave may serve King Arthur)")
    assert t.saw("Anna commits an Act of Villainy: slaying a good Knight (slays Sir Kay).")
    assert pk["vp"] == 20          # no VP for forsaking him


def test_kn05_ten_kvp_win_and_bonus(table):
    """How to win as a Knave: the first Knave to 10 KVP wins (victory.declare, side 'knave');
    a bonus KVP counts (holding Camelot three turns)."""
    t = table(knave_pos(anna='knave = {acts = {slay_good_knight = 7, imprison = 7, '
                        'distress_lady = 3}}'))
    pk = t.knight()
    assert pk["knave"]["kvp"] == 8
    s = t.session()
    knaves.award_kvp(s, pk, 1, "holding Camelot three complete turns")
    assert pk["knave"]["kvp"] == 9 and pk["knave"]["bonus_kvp"] == 1
    assert not t.state["koc"].get("knave_winner")
    knaves.commit_act(s, pk, "slay_hermit", "slays the hermit")
    assert pk["knave"]["kvp"] == 10
    assert t.state["koc"]["knave_winner"] == "Anna"
    assert t.saw("Anna reaches 10 Knave Victory Points and wins the game as a Knave.")


def test_kn06_undo_act(table):
    """Imprisoning a Person: freeing his own prisoners erases the credit."""
    t = table(knave_pos(anna='knave = {acts = {imprison = 3}}'))
    pk = t.knight()
    assert pk["knave"]["kvp"] == 2
    knaves.undo_act(t.session(), pk, "imprison", "he freed Sir Kay")
    assert pk["knave"]["acts"] == {"imprison": 2} and pk["knave"]["kvp"] == 1


# ============================================================================== SP, WL
def test_kn07_wl_counts_sp_up_to_300(table):
    """Knave Combat: a Knave's WL is (CP + SP, at most 300) / 10, rounded down."""
    t = table(knave_pos(cp=95, anna='knave = {sp = 18}'))
    pk = t.knight()
    assert kn.wl(pk) == 11                 # (95 + 18) // 10
    pk["knave"]["sp"] = 250
    assert kn.wl(pk) == 30                 # 345, at most 300
    pk["knave"]["absolved"] = True
    assert kn.wl(pk) == 9                  # no longer a Knave: CP alone


def test_kn08_lost_cp_become_sp(table):
    """Knave Combat: CP a Knave loses become SP one for one, only the CP he has (10 at least
    remain)."""
    t = table(knave_pos(cp=30))
    s, pk = t.session(), t.knight()
    s.gain_cp(-15, "slaying a good knight")
    assert pk["cp"] == 15 and pk["knave"]["sp"] == 15 and kn.wl(pk) == 3
    s.gain_cp(-20, "a poisoned arrow")
    assert pk["cp"] == 10 and pk["knave"]["sp"] == 20      # only 5 CP to lose
    assert t.saw("The 5 CP become Scoundrel Points; SP 20.")


def test_kn09_unchivalrous_win_earns_half_the_foes_wl(table):
    """Knave Combat: a Knave is never forced to fight fairly (attacking, he keeps his lance
    against a swordsman); winning unchivalrously he earns SP of half the beaten knight's WL
    (rounded up) and no awards."""
    t = table(knave_pos(), dice=[*BEAT_SWORD, *YIELDS])
    s, pk = t.session(), t.knight()
    foe = swordsman("Sir Plenorius")           # CP 110: WL 11
    result = cb.fight(s, [foe], attacker="pk", tags=("knight",), alone=True)
    assert result.won and result.unchivalrous
    assert pk["knave"]["sp"] == 6              # 11 / 2 rounded up
    assert pk["cp"] == 100 and pk["vp"] == 20  # no awards
    assert t.unused_dice == []


def test_kn10_an_honest_knight_must_fight_fair(table):
    """(Contrast) a knight who is no Knave, attacking, must match the swordsman: mounted sword
    against mounted sword (6+6+1 against 1+1+1), a fair win with its awards."""
    t = table(pos(anna="luck = 4"), dice=[6, 6, 1, 1, *YIELDS])
    s = t.session()
    result = cb.fight(s, [swordsman("Sir Belleus")], attacker="pk", tags=("knight",),
                      alone=True)
    assert result.won and not result.unchivalrous
    assert t.knight()["cp"] == 104 and t.knight()["vp"] == 26     # WL 4 and 6 VP


def test_kn11_unchivalrous_defeat_earns_3_sp(table):
    """Knave Combat: beaten while fighting unchivalrously, the Knave earns 3 SP (and takes his
    Knight's Fate as usual: here 'let go freely')."""
    t = table(knave_pos(), dice=[*LOSE_SWORD, 1], orders={"Anna": "answer yield: yes\n"})
    s, pk = t.session(), t.knight()
    foe = swordsman("Sir Plenorius")
    foe["wl"] = 20
    result = cb.fight(s, [foe], attacker="pk", tags=("knight",), alone=True)
    assert result.pk_defeated
    assert pk["knave"]["sp"] == 3
    assert pk["cp"] == 106                     # the lesson of defeat


def test_kn12_king_beaten_unchivalrously_is_no_friend(table):
    """Knave Combat: a King a Knave beats unchivalrously does not become friendly (no VL
    check is made) and, with no castle to hold him, goes free."""
    t = table(knave_pos(), dice=BEAT_SWORD)
    s = t.session()
    king = swordsman("King Mark", kind="king")
    result = cb.fight(s, [king], attacker="pk", tags=("king",), alone=True)
    assert result.won
    assert king["card"]["reaction"] == "neutral"
    assert t.unused_dice == []


# ============================================================================== Arthurian knights
def test_kn13_arthurian_knights_react_worse_to_a_knave(table):
    """Encounters with Arthurian Knights: a group with an Arthurian Knight reacts to a Knave at
    -1 (here 7 - 1 = 6 on the knight chart)."""
    from companion.koc.engine import encounters as en

    t = table(knave_pos(), dice=[4, 5], orders={"Anna": "answer join: no\n"})
    s = t.session()
    m = en.Meeting(s)
    out = en.Outcome("knight")
    en.knight_reaction(m, [card("Sir Kay"), card("Sir Turquine")], 0, out)
    assert t.saw("Sir Kay knows Anna for a Knave: reaction -1.")
    assert t.saw("Knight reactions: 4+5 = 9 -1 = 8 -> Offer to ride along")
    t2 = table(knave_pos(), dice=[4, 5], orders={"Anna": "answer join: no\n"})
    en.knight_reaction(en.Meeting(t2.session()), [card("Sir Turquine")], 0, en.Outcome("knight"))
    assert t2.saw("Knight reactions: 4+5 = 9 -> Give a message")    # no Arthurian: no -1


def test_kn14_arthurian_companion_judges_an_act(table):
    """Encounters with Arthurian Knights: after an act, each friendly Arthurian companion tests
    his VL (one die): on a success he leaves; on a failure he stays."""
    t = table(knave_pos(anna='comrades = ["Sir Kay", "Sir Dinadan"]'), dice=[6, 2])
    s, pk = t.session(), t.knight()
    knaves.commit_act(s, pk, "distress_lady", "distresses Lady Ettard")
    assert [c["name"] for c in pk["comrades"]] == ["Sir Dinadan"]   # Kay VL 6 rolled 6: left
    assert t.saw("Sir Kay will not ride with a Knave and leaves Anna.")


# ============================================================================== slaying
def test_kn15_slaying_a_good_knight(table):
    """Slaying a good Knight: the slain knight's VL check succeeds (a good knight): the usual
    15 CP (become SP) and 6 VP, and an Act of Villainy."""
    t = table(knave_pos(), dice=[3, 4])
    s, pk = t.session(), t.knight()
    fate.slay_knight(s, cb.npk(card("Sir Plenorius")))      # VL 5: 3+4 = 7 succeeds
    assert pk["cp"] == 85 and pk["knave"]["sp"] == 15 and pk["vp"] == 14
    assert pk["knave"]["acts"] == {"slay_good_knight": 1}


def test_kn16_slaying_a_knight_who_was_not_good(table):
    """Slaying a good Knight: a failed VL check: no penalty and no act."""
    t = table(knave_pos(), dice=[1, 2])
    s, pk = t.session(), t.knight()
    fate.slay_knight(s, cb.npk(card("Sir Plenorius")))
    assert pk["knave"]["acts"] == {} and pk["cp"] == 100


def test_kn17_slaying_a_hermit_and_the_dying_curse(table):
    """Slaying a Goodly Hermit Man: an act (and the usual 12 VP); the Knave fails his Luck
    Test (3 against 4): the curse chart (4) marks him: -1 to his reaction rolls."""
    t = table(knave_pos(), dice=[6, 6, 6, 1, 3, 4])
    s, pk = t.session(), t.knight()
    hermit = cb.foe("hermit", "the hermit", 1, 1)
    result = cb.fight(s, [hermit], attacker="pk", tags=("hermit",), alone=True)
    assert result.won
    assert pk["knave"]["acts"] == {"slay_hermit": 1}
    assert pk["vp"] == 8
    assert pk["knave"]["curses"] == ["mark_of_the_knave"]


def test_kn18_a_druid_curses_but_is_no_act(table):
    """Slaying a Goodly Hermit Man: a druid in disguise is no act; his curse (here 5: the Life
    of Misfortune) still falls on a failed Luck Test, and then every Luck Test is at -1."""
    t = table(knave_pos(), dice=[6, 6, 6, 1, 1, 5, 4])
    s, pk = t.session(), t.knight()
    cb.fight(s, [cb.foe("hermit", "the druid", 1, 1, druid=True)], attacker="pk",
             tags=("hermit",), alone=True)
    assert pk["knave"]["acts"] == {} and pk["knave"]["curses"] == ["life_of_misfortune"]
    assert not s.luck_test("anything")          # 4 - 1 = 3 against luck 4
    assert t.saw("rolled 4-1 = 3, needing 4 or more: failure")


def test_kn19_brittle_lance_and_doleful_retribution(table):
    """The Brittle Lance: his lance breaks on 10-12 (not only 11). Doleful Retribution: a
    Knight's Fate he suffers is 2 more severe."""
    t = table(knave_pos(anna='knave = {curses = ["brittle_lance", "doleful_retribution"]}'),
              dice=[4, 3, 3])
    s, pk = t.session(), t.knight()
    c = cb.Combat(s, [swordsman("Sir Plenorius")], attacker="foe")
    me = c.me
    me["method"] = "lance"
    total, broke = c.roll(me, c.foes[0])
    assert total == 10 and broke
    assert knaves.fate_severity(pk) == 2
    t2 = table(knave_pos(anna='knave = {curses = ["doleful_retribution"]}'), dice=[1])
    s2 = t2.session()
    fate.suffer_fate(s2, {"kind": "knight", "name": "Sir Kay", "vl": 1})
    assert t2.saw("Knight's Fate: 1 +3 = 4 -> Let go freely")      # not 2: a pilgrimage


def test_kn20_mark_of_the_knave_on_reaction_rolls(table):
    """The Mark of the Knave: -1 on every encounter reaction roll (here a castle's)."""
    t = table(knave_pos(anna='knave = {curses = ["mark_of_the_knave"]}'), dice=[3, 4])
    s = t.session()
    result = s.chart("castle", purpose="reaction of the castle")
    assert result.totals[0] == 6


def test_kn21_lifting_a_curse(table):
    """To lift a curse: a granted Heal or Lift Enchantment (of a Hermit, King, Lady or Knight),
    then a pilgrimage to Rome."""
    t = table(knave_pos(anna='knave = {curses = ["life_of_misfortune"]}'))
    s, pk = t.session(), t.knight()
    hermit = {"role": "hermit", "name": "the hermit", "card": {"name": "the hermit"}}
    assert rq.perform(s, hermit, "heal")
    task = next(x for x in pk["tasks"] if x.get("on_done") == "knave_lift")
    assert task["dest"] == "Rome" and task["curse"] == "life_of_misfortune"
    tasks.arrive(s, task)
    assert pk["knave"]["curses"] == []
    assert t.saw("In Rome the curse (life of misfortune) is lifted from Anna.")


# ============================================================================== distressing a Lady
def test_kn22_distressing_a_lone_lady(table):
    """Distressing a Lady: alone, she screams; his Luck Test (4) succeeds, nobody comes; she
    resists with one die (2), he is bare-handed with one die (5): she is distressed: 6 VP and
    an act. With no castle of his he cannot take her prisoner."""
    from companion.koc.engine import encounters as en

    t = table(knave_pos(lord=""), dice=[4, 5, 2], orders={"Anna": "answer encounter: attack\n"})
    s, pk = t.session(), t.knight()
    en.meet_lady(s, card("Lady Ettard", "lady"), status=False)
    assert pk["vp"] == 14 and pk["knave"]["acts"] == {"distress_lady": 1}
    assert t.saw("Pass: Anna 5, Lady Ettard 2; Anna WL 10, Lady Ettard WL 0.")
    assert t.saw("Lady Ettard is left to go her way.")
    assert t.unused_dice == []


def test_kn23_a_knight_hears_her_scream(table):
    """Distressing a Lady: the Luck Test fails (2): a random Knight defends her; he beats the
    Knave (lance 3 against 13), so she is not distressed."""
    from companion.koc.engine import encounters as en

    t = table(knave_pos(lord=""), dice=[2, 1, 1, 1, 6, 6, 1, 2],
              orders={"Anna": "answer encounter: attack\nanswer yield: yes\n"})
    t.state["decks"]["knights"]["draw"].insert(0, "Sir Belleus")
    s, pk = t.session(), t.knight()
    en.meet_lady(s, card("Lady Ettard", "lady"), status=False)
    assert t.saw("Sir Belleus hears her scream and rides to defend Lady Ettard.")
    assert pk["knave"]["acts"] == {} and pk["vp"] == 20


def test_kn24_a_lady_who_fends_him_off(table):
    """Distressing a Lady: bare-handed against her, the Knave loses passes until his WL is
    gone (WL 4: 2 against 3, then 1 against 4): she escapes (no act, no VP lost)."""
    from companion.koc.engine import encounters as en

    t = table(knave_pos(lord="", cp=40), dice=[4, 2, 3, 1, 4])
    s, pk = t.session(), t.knight()
    m = en.Meeting(s)
    assert not knaves.distress(m, card("Lady Ettard", "lady"), [], en.Outcome("lady"))
    assert pk["wounds"] == 4 and pk["knave"]["acts"] == {} and pk["vp"] == 20
    assert t.saw("Lady Ettard fends Anna off and escapes.")


# ============================================================================== imprisoning
def held_castle(t, player="Anna", name="Anna's keep", area="Hampshire"):
    s = t.session(player)
    tasks.place_castle(s, name, t.knight(player)["name"], "pk", area=area)
    t.knight(player)["own_castle"] = name
    return name


def test_kn25_imprisoning_a_lady_and_message_two(table):
    """Imprisoning a Person: the distressed Lady goes with him; the act is done when she enters
    his castle. Bert, whose Lady she is, has the message that she is imprisoned (a task to free
    her), and she can grant no request meanwhile."""
    from companion.koc.engine import encounters as en

    t = table(knave_pos(lord="", others={"Bert": 'at = "Kent"\nlady = "Lady Ettard"'}),
              dice=[4, 5, 2], orders={"Anna": "answer encounter: attack\n"})
    keep = held_castle(t)
    s, pk = t.session(), t.knight()
    en.meet_lady(s, card("Lady Ettard", "lady"), status=False)
    assert pk["knave"]["acts"] == {"distress_lady": 1}
    assert [p["status"] for p in pk["knave"]["prisoners"]] == ["led"]
    assert t.saw("Anna takes Lady Ettard prisoner and leads her away.")
    pk["at"] = {"area": "Hampshire", "where": "inside", "castle": keep}
    knaves.end_of_turn(s)
    assert pk["knave"]["prisoners"][0]["status"] == "held"
    assert pk["knave"]["acts"] == {"distress_lady": 1, "imprison": 1}
    assert pk["knave"]["kvp"] == 2
    bert = t.knight("Bert")
    task = next(x for x in bert["tasks"] if x.get("knave") == "Anna")
    assert task["castle"] == keep and task["prisoner"]["name"] == "Lady Ettard"
    assert t.saw("Message: Bert's Lady, Lady Ettard, is imprisoned by the Knave Anna in "
                 "Anna's keep.")
    b = t.session("Bert")
    lady = rq.person(card("Lady Ettard", "lady"), "lady", own_lady=True)
    assert not rq.grant(b, lady, "heal", automatic=True)
    assert t.saw("Lady Ettard lies in the prison of Anna's keep and can grant nothing.")
    # rescued: 6 VP and her friendship for Bert; the Knave keeps the credit
    before = bert["vp"]
    rs.freed(b, task)
    assert bert["vp"] == before + 6 and "Lady Ettard" in bert["friendly_persons"]
    assert pk["knave"]["prisoners"] == [] and pk["knave"]["acts"]["imprison"] == 1


def test_kn26_imprisoning_a_beaten_knight_and_freeing_him(table):
    """Imprisoning a Person: a Knight he beat (Knight's Fate 'imprisons') is led captive; inside
    his castle the act is done. Freeing his own prisoners ('free prisoners') erases it."""
    t = table(knave_pos(lord=""), dice=[*BEAT_SWORD, *YIELDS],
              orders={"Anna": "answer fate: imprisons\nfree prisoners\n"})
    keep = held_castle(t)
    s, pk = t.session(), t.knight()
    pk["at"] = {"area": "Hampshire", "where": "inside", "castle": keep}
    cb.fight(s, [swordsman("Sir Plenorius")], attacker="pk", tags=("knight",), alone=True)
    assert pk["knave"]["acts"] == {"imprison": 1}
    assert pk["knave"]["prisoners"][0]["castle"] == keep
    knaves.start_of_turn(s)
    assert pk["knave"]["acts"] == {} and pk["knave"]["prisoners"] == []
    assert t.saw("Anna loses the credit for an Act of Villainy (imprisoning a person): he freed "
                 "Sir Plenorius.")


# ============================================================================== service
def test_kn27_lord_review_casts_him_out(table):
    """Lord and Lady Service: at his Lord's castle, a Lord with a lower VL (King Howell, 4,
    against 5) who passes his VL test (4) casts out the Knave; the castle stays friendly.
    With no act since the last review, nothing is judged."""
    t = table(knave_pos(lord="King Howell"), dice=[4])
    s, pk = t.session(), t.knight()
    castle = pk["lord"]["castle"]
    pk["friendly"].append(castle)
    assert not knaves.review(s, "lord")           # no act yet: no dice
    knaves.commit_act(s, pk, "slay_hermit", "slays a hermit")
    assert knaves.review(s, "lord")
    assert pk["lord"] is None and castle in pk["friendly"]
    assert t.saw("King Howell spurns Anna and casts him out of service.")


def test_kn28_lady_review_and_a_more_virtuous_knave(table):
    """Lord and Lady Service: a Lady who casts him out takes her castle's friendship too; a
    Lord with a VL not lower than the Knave's keeps him without a test."""
    t = table(knave_pos(lord="King Mark", anna='lady = "Lady Laudine"'), dice=[6])
    s, pk = t.session(), t.knight()
    knaves.commit_act(s, pk, "slay_hermit", "slays a hermit")
    assert not knaves.review(s, "lord")           # King Mark VL 11: no test
    assert knaves.review(s, "lady")               # Lady Laudine VL 4 < 5, rolls 6
    assert pk["lady"] is None
    assert t.unused_dice == []


def test_kn29_asking_for_service(table):
    """Lord and Lady Service: no Knave may serve King Arthur; a King with a lower VL who passes
    his VL test (4) will not hear him; failing it (3), the request goes on (Luck Test 5)."""
    t = table(knave_pos(lord=""), dice=[4, 3, 5])
    s, pk = t.session(), t.knight()
    knaves.commit_act(s, pk, "slay_hermit", "slays a hermit")
    arthur = rq.person(card("King Arthur", "king"), "arthur")
    assert not rq.grant(s, arthur, "service")
    assert t.saw("No Knave may serve King Arthur.")
    howell = rq.person(card("King Howell", "king"), "king")
    assert not rq.grant(s, howell, "service")
    assert t.saw("King Howell knows Anna for a Knave and will not take him into service.")
    assert rq.grant(s, howell, "service")
    assert pk["lord"]["name"] == "King Howell"


def test_kn29b_no_act_nothing_to_judge(table):
    """Lord and Lady Service: scorn begins with the first Act of Villainy, so from edition 7 a
    Knave who has committed none is not judged when he asks for service (King Howell, VL 4,
    rolls no test; the Luck Test, 5, grants it: knaves.JUDGED_FOR_ACTS). An edition 6 game
    judged him all the same (4: refused)."""
    for ed in (7, 6):
        t = table(knave_pos(lord=""), dice=[5] if ed == 7 else [4])
        t.state["edition"] = ed
        s, pk = t.session(), t.knight()
        howell = rq.person(card("King Howell", "king"), "king")
        granted = rq.grant(s, howell, "service")
        assert t.unused_dice == []
        if ed == 7:
            assert granted and pk["lord"]["name"] == "King Howell"
            assert not t.saw("knows Anna for a Knave")
        else:
            assert not granted and pk["lord"] is None
            assert t.saw("King Howell knows Anna for a Knave and will not take him into service.")


def test_kn30_second_summons_revokes_the_granted_castle(table):
    """Lord and Lady Service: a Knave who ignores his Lord's summons loses 6 VP at the second,
    and the castle his Lord granted him."""
    t = table(knave_pos(lord="King Mark"))
    keep = held_castle(t)
    s, pk = t.session(), t.knight()
    t.state["castles"][keep]["granted_by"] = "King Mark"
    pk["friendly"].append(keep)
    service.summons(s, "lord")
    service.summons(s, "lord")
    assert pk["vp"] == 14 and pk["own_castle"] is None and keep not in pk["friendly"]
    assert t.saw("King Mark revokes the castle he granted Anna.")


# ============================================================================== repentance
def test_kn31_repentance(table):
    """A Knave Repentant: at a shrine, a turn of meditation per KVP (2), then his SP are
    renounced and a random adventure (here 1:6) must succeed; then he is a Knave no longer.
    Turning Knave again later starts from nothing."""
    from companion.koc.engine import adventures as av

    t = table(knave_pos(at="Canterbury", anna='knave = {acts = {slay_good_knight = 3}, '
                        'sp = 20}'), dice=[1, 6], orders={"Anna": "repent\n"})
    s, pk = t.session(), t.knight()
    assert kn.wl(pk) == 12
    knaves.start_of_turn(s)
    assert pk["knave"]["repent"]["turns"] == 1 and pk["immobile"][0]["turns"] == 1
    pk["immobile"] = []
    knaves.repent_turn(s)
    assert pk["knave"]["repent"]["turns"] == 2
    pk["immobile"] = []
    knaves.repent_turn(s)
    assert pk["knave"]["sp"] == 0 and pk["knave"]["renounced_sp"] == 20 and kn.wl(pk) == 10
    task = next(x for x in pk["tasks"] if x.get("repentance"))
    assert task["adventure"]["id"] == "1:6"
    av.finish(s, task, "success")
    assert not knaves.is_knave(pk) and pk["knave"]["absolved"]
    assert t.saw("Anna has repented and is a Knave no longer.")
    knaves.become(s, pk, "backsliding after all")     # from scratch
    assert knaves.is_knave(pk) and pk["knave"]["acts"] == {} and pk["knave"]["sp"] == 0


def test_kn32_backsliding_and_a_failed_adventure(table):
    """A Knave Repentant: a failed adventure sends him to a shrine for a new one; backsliding
    takes back the SP renounced."""
    t = table(knave_pos(at="Canterbury", anna='knave = {sp = 9}'), dice=[1, 6],
              orders={"Anna": "repent\n"})
    s, pk = t.session(), t.knight()
    knaves.start_of_turn(s)                  # no KVP: no meditation, the adventure at once
    from companion.koc.engine import adventures as av

    task = next(x for x in pk["tasks"] if x.get("repentance"))
    av.finish(s, task, "failure")
    assert pk["knave"]["repent"]["stage"] == "again" and knaves.is_knave(pk)
    knaves.backslide(s)
    assert pk["knave"]["sp"] == 9 and pk["knave"]["repent"] is None


# ============================================================================== knights and knaves
def test_kn33_beating_a_knave_earns_6_vp_once_per_act(table):
    """Interaction of Knights and Knaves: a non-Knave PK who beats a Knave gains 6 VP; not
    again until the Knave commits a new act."""
    t = table(pos(anna="luck = 4", others={"Bert": 'at = "Hampshire"\nknave = true'}))
    s, bert = t.session(), t.knight("Bert")
    knaves.commit_act(t.session("Bert"), bert, "slay_hermit", "slays a hermit")
    knaves.knave_beaten(s, bert, True)
    assert t.knight()["vp"] == 26
    knaves.knave_beaten(s, bert, True)
    assert t.knight()["vp"] == 26
    knaves.commit_act(t.session("Bert"), bert, "distress_lady", "distresses a lady")
    knaves.knave_beaten(s, bert, False)          # an unchivalrous win: no award
    assert t.knight()["vp"] == 26
    knaves.knave_beaten(s, bert, True)
    assert t.knight()["vp"] == 32


# ============================================================================== records
def test_kn34_position_round_trip_and_errors():
    """The ``knave`` record in a position: read, written and read back the same; mistakes are
    located."""
    text = pos(anna='knave = {acts = {slay_good_knight = 3, imprison = 1}, sp = 12, '
                    'curses = ["mark_of_the_knave"]}')
    state = read_position(KIND.world, text, "case.toml")
    rec = state["knights"]["Anna"]["knave"]
    assert rec["kvp"] == 3 and rec["sp"] == 12
    written = write_position(KIND.world, state)
    again = read_position(KIND.world, written, "again.toml")
    assert again["knights"]["Anna"]["knave"] == rec
    assert write_position(KIND.world, again) == written
    bad = pos(anna='knave = {acts = {slay_god_knight = 3}, sp = -1, curses = ["ague"]}')
    with pytest.raises(Exception) as e:
        read_position(KIND.world, bad, "bad.toml")
    text = str(e.value) + "".join(str(x) for x in getattr(e.value, "errors", []))
    assert "knight.Anna: knave.acts: unknown Act of Villainy 'slay_god_knight'" in text
    assert "knave.sp must be a whole number" in text and "unknown curse 'ague'" in text


def test_kn35_views_public_and_private(table):
    """What is public: that a knight is a Knave (the map's counters); his KVP, SP, curses and
    prisoners are in his own journal only."""
    from companion.koc import views

    t = table(knave_pos(anna='knave = {acts = {imprison = 1}, sp = 4}',
                        others={"Bert": 'at = "Kent"'}))
    v_anna = views.view(KIND, t.state, "Anna")
    v_bert = views.view(KIND, t.state, "Bert")
    assert v_anna["journal"]["knave"][:3] == ["1 KVP", "4 SP",
                                               "acts: imprisoning a person x1"]
    assert v_bert["journal"]["knave"] == []
    assert [c["knave"] for c in v_bert["counters"]] == [True, False]


def rival(t, player: str) -> dict:
    from companion.koc.engine.session import Session

    return cb.pk_fighter(Session(t.game, player, parent=t.session()))


def test_kn36_a_knight_beats_a_knave_in_combat(table):
    """Interaction of Knights and Knaves: Anna attacks the Knave Bert and beats him (18
    against 3): the usual 6 VP and WL in CP, and the bonus 6 VP."""
    t = table(pos(anna="luck = 4", others={"Bert": 'at = "Hampshire"\nluck = 4\n'
                                           'knave = {acts = {slay_hermit = 1}, bounty = true}'}),
              dice=[6, 6, 6, 1, 1, 1], orders={"Bert": "answer method: lance\n"})
    result = cb.fight(t.session(), [rival(t, "Bert")], attacker="pk", tags=("pk",), alone=True)
    assert result.won
    assert t.knight()["vp"] == 32
    assert t.saw("Anna gains 6 VP (vanquishing the Knave Bert); VP 32, VL 4.")
    assert t.knight("Bert")["knave"]["bounty"] is False


def test_kn37_a_knave_beats_a_knight_unchivalrously(table):
    """Knave Combat between player knights: Anna (no lance) attacks the Knave Bert, who keeps
    his lance (unchivalrous), refuses her appeal and wins (18 against 3): SP for half her WL
    (10 / 2 = 5), no awards for him."""
    t = table(pos(anna="luck = 4\ngear = [\"horse\", \"shield\", \"sword\"]",
                  others={"Bert": 'at = "Hampshire"\nluck = 4\nknave = true'}),
              dice=[1, 1, 6, 6, 6],
              orders={"Bert": "answer method: lance\nanswer fight_fair: no\n"})
    result = cb.fight(t.session(), [rival(t, "Bert")], attacker="pk", tags=("pk",), alone=True)
    assert result.pk_defeated and t.unused_dice == []
    bert = t.knight("Bert")
    assert bert["knave"]["sp"] == 5 and bert["vp"] == 5


def test_kn38_the_fateful_encounter(table):
    """The Fateful Encounter: a prophecy (a task with a random site) that knights (here 2)
    will attack him; at the site they attack on sight (beaten, he would be slain). He beats
    both (18 against 3 each; each yields); the prophecy is met and its curse spent."""
    t = table(knave_pos(anna='knave = {curses = []}'),
              dice=[1, 1, 6, 6, 6, 1, 1, 1, *YIELDS, 6, 6, 6, 1, 1, 1, *YIELDS])
    s, pk = t.session(), t.knight()
    knaves.curse(s, "fateful_encounter", by="the hermit", count_die=2)
    task = next(x for x in pk["tasks"] if x.get("on_done") == "knave_prophecy")
    assert task["prophecy"] and task["count"] == 2 and task["route"] is None
    assert pk["knave"]["curses"] == ["fateful_encounter"]
    t.state["decks"]["knights"]["draw"][:0] = ["Sir Belleus", "Sir Hemison"]
    pk["at"] = {"area": task["dest"], "where": "area"}
    tasks.arrive(s, task)
    assert t.saw("The prophecy is fulfilled: 2 knights fall upon Anna.")
    assert not pk["slain"] and pk["knave"]["curses"] == []
    assert t.unused_dice == []


def test_kn39_prophecy_of_the_beast_is_a_task(table):
    """The Prophecy of the Beast: a prophecy task; at its site a monster attacks him."""
    t = table(knave_pos(), dice=[3, 3, 3])
    s, pk = t.session(), t.knight()
    knaves.curse(s, "prophecy_of_the_beast", by="the druid")
    task = next(x for x in pk["tasks"] if x.get("on_done") == "knave_prophecy")
    assert task["curse"] == "prophecy_of_the_beast" and "count" not in task
    assert t.saw("With his dying breath the druid curses Anna: Doom of the beast.")


def test_kn40_review_when_answering_a_summons(table):
    """Lord and Lady Service: answering his Lord's summons, the Knave's deeds since he entered
    service are judged (King Howell, VL 4 < 5, rolls 5: cast out)."""
    t = table(knave_pos(lord="King Howell", at="Howel", where="inside",
                        anna="lord_summons = 1"), dice=[5])
    s, pk = t.session(), t.knight()
    knaves.commit_act(s, pk, "distress_lady", "distresses a lady")
    service.answer_summons(s)
    assert t.saw("Anna answers the summons of his Lord.")
    assert pk["lord"] is None and "Howel" in pk["friendly"]


def test_kn41_a_turn_of_meditation(table):
    """A Knave Repentant, a whole turn: 'repent' at Canterbury with 1 KVP: he meditates there
    this turn (no movement); at the start of the next his SP go and his adventure comes."""
    t = table(knave_pos(at="Canterbury", anna='knave = {acts = {imprison = 1}, sp = 5}'),
              dice=[4], orders={"Anna": "repent\nmove Kent\n"})
    t.play()
    pk = t.knight()
    assert pk["at"]["area"] == "Canterbury"
    assert t.saw("Anna meditates at the shrine (turn 1 of 1).")
    assert t.saw("Anna does not move this turn: meditating at the shrine.")
    assert pk["knave"]["repent"]["stage"] == "meditate" and pk["knave"]["sp"] == 5


def test_kn42_a_captive_lady_stays_out_of_her_deck(table):
    """Imprisoning a Person: the Lady he distressed (dice: Luck 4, he 5, she 2) is his prisoner,
    led and then held: her card stays out of the Ladies deck, in play and in a position written
    and read back (a position listing her in the deck is refused). Freed by him, her card goes
    back to the Ladies deck."""
    from companion.koc.engine import encounters as en

    t = table(knave_pos(lord=""), dice=[4, 5, 2],
              orders={"Anna": "answer encounter: attack\nfree prisoners\n"})
    keep = held_castle(t)
    ladies = t.state["decks"]["ladies"]
    ladies["draw"].remove("Lady Ettard")        # drawn for this meeting
    s, pk = t.session(), t.knight()
    en.meet_lady(s, card("Lady Ettard", "lady"), status=False)
    rq.discard_met(s, [{"kind": "lady", "card": card("Lady Ettard", "lady")}])
    assert "Lady Ettard" not in ladies["draw"] + ladies["discard"]
    pk["at"] = {"area": "Hampshire", "where": "inside", "castle": keep}
    knaves.end_of_turn(s)
    assert pk["knave"]["prisoners"][0]["status"] == "held"
    written = write_position(KIND.world, t.state)
    again = read_position(KIND.world, written, "again.toml")
    assert "Lady Ettard" not in (again["decks"]["ladies"]["draw"]
                                 + again["decks"]["ladies"]["discard"])
    listed = written.replace('ladies = [', 'ladies = ["Lady Ettard", ', 1)
    assert listed != written
    with pytest.raises(Exception) as e:
        read_position(KIND.world, listed, "listed.toml")
    text = str(e.value) + "".join(str(x) for x in getattr(e.value, "errors", []))
    assert "'Lady Ettard' is in the ladies deck (draw) and held by " \
           "knight.Anna.knave.prisoners" in text
    knaves.start_of_turn(s)
    assert pk["knave"]["prisoners"] == []
    assert "Lady Ettard" in ladies["draw"] + ladies["discard"]


def test_kn43_a_knave_riding_in_another_knights_party(table):
    """Encounters with Arthurian Knights: the party Sir Kay's group meets is led by Bert, no
    Knave, but the Knave Anna rides in it: the reaction is still -1 (dice 4+5 = 9 - 1 = 8).
    Without a Knave in the party there is no -1 (4+5 = 9)."""
    from companion.koc.engine import encounters as en

    t = table(pos(others={"Bert": 'at = "Hampshire"\nluck = 4'}, anna=KNAVE,
                  extra='[parties]\nBert = ["Anna"]\n'),
              dice=[4, 5], orders={"Bert": "answer join: no\n"})
    s = t.session("Bert")
    en.knight_reaction(en.Meeting(s), [card("Sir Kay"), card("Sir Turquine")], 0,
                       en.Outcome("knight"))
    assert t.saw("Sir Kay knows Anna for a Knave: reaction -1.")
    assert t.saw("Knight reactions: 4+5 = 9 -1 = 8 -> Offer to ride along")
    t2 = table(pos(others={"Bert": 'at = "Hampshire"\nluck = 4'}, anna="luck = 4",
                   extra='[parties]\nBert = ["Anna"]\n'),
               dice=[4, 5], orders={"Bert": "answer join: no\n"})
    en.knight_reaction(en.Meeting(t2.session("Bert")), [card("Sir Kay")], 0,
                       en.Outcome("knight"))
    assert t2.saw("Knight reactions: 4+5 = 9 -> Give a message")


def test_kn44_turn_knave_sent_with_the_answer_to_a_paused_turn(table):
    """Play by email (found by random play, missing=wait): the turn paused on the encounter
    question (as e139); the answer comes with a new 'turn knave'. The resumed turn replays the
    part played before the pause as it was played: 'turn knave' would have been carried out at
    the start of the turn, before the pause, so it is not (the replay used to stop with 'resumed
    turn asked Anna become_knave where it first asked Anna encounter'); she can send it again
    for her next turn."""
    from test_koc_encounters import D, draws

    t = table(pos(at="Dyfed", extra=draws(monster=["Lion 5"])), dice=[4, 1] + D[2] + [5],
              orders={"Anna": "move Powys"}, options={"missing": "wait"})
    assert not t.play()
    assert t.state["pending"]["Anna"]["question"]["key"] == "encounter"
    t.game.orders["Anna"] = parse_orders(
        t.world, ["Anna"], "turn knave\nmove Powys\nanswer encounter: avoid", "a.txt")
    assert t.play()
    assert t.saw("Anna avoids a monster") and t.knight()["at"]["area"] == "Powys"
    assert not knaves.is_knave(t.knight())


def test_kn45_a_resumed_turn_asks_turn_knave_only_where_it_first_did(table):
    """The replay under kn44 when answers were given before the pause: a new 'turn knave'
    does not put a question in front of the recorded ones (the random game that found it
    stopped there); one the turn first asked is asked, and answered from the record."""
    from companion.koc.engine.session import Session

    t = table(pos(), orders={"Anna": "turn knave\nstay\n"})
    recorded = [{"player": "Anna", "key": "encounter", "answer": "avoid", "source": "orders"}]
    s = Session(t.game, "Anna", prior=recorded, resumed=True)
    assert knaves._ordered(s, "become_knave", "Turn Knave?") is False
    assert s.prior == recorded      # the recorded answer still waits for its question
    asked = [{"player": "Anna", "key": "become_knave", "answer": "yes", "source": "orders"}]
    s = Session(t.game, "Anna", prior=asked, resumed=True)
    assert knaves._ordered(s, "become_knave", "Turn Knave?") is True and s.prior == []
    s = Session(t.game, "Anna")     # a turn played afresh asks it, as the orders say
    assert knaves._ordered(s, "become_knave", "Turn Knave?") is True


def test_kn46_turn_knave_sent_to_a_waiting_turn_is_refused_with_its_line(table):
    """Orders sent while a turn waits for an answer: 'turn knave' (like a move) is refused with
    its line and a hint, since the turn it would start has begun (kn44)."""
    from test_koc_encounters import D, draws

    t = table(pos(at="Dyfed", extra=draws(monster=["Lion 5"])), dice=[4, 1] + D[2] + [5],
              orders={"Anna": "move Powys"}, options={"missing": "wait"})
    assert not t.play()
    late = parse_orders(t.world, ["Anna"], "answer encounter: avoid\nturn knave\n", "a.txt")
    with pytest.raises(OrdersRejected) as e:
        check_orders(t.world, t.state, "Anna", late, "a.txt")
    [error] = e.value.errors
    assert error.line.number == 2 and "'turn knave' is carried out at the start of a turn" \
        in str(error) and error.suggestion == "send it again with your orders for the next turn"
    check_orders(t.world, t.state, "Anna",
                 parse_orders(t.world, ["Anna"], "answer encounter: avoid\n", "a.txt"), "a.txt")


def test_kn47_a_knaves_stamina_counts_his_scoundrel_points(table):
    """Stamina Attack Bonus (optional rule) with Knave Combat: +1 for every full 6 WL, and a
    Knave's WL is counted from CP + SP (at most 300). Rules edition 3: at 95 CP and 30 SP
    (WL 12) he adds 2; a game begun under edition 2 keeps its reading, his 95 CP alone (+1).
    A knight who is no Knave (absolved) counts his CP as ever."""
    from kocpos import card as a_card

    from companion.koc.engine.combat import Combat, npk

    for edition, bonus in ((3, 2), (2, 1)):
        t = table(knave_pos(cp=95, anna='knave = {sp = 30}'), dice=[1, 1],
                  options={"rules": ("stamina",)})
        t.state["edition"] = edition
        c = Combat(t.session(), [npk(a_card("Sir Kay"))], attacker="pk")
        assert c.roll(c.me, c.foes[0])[0] == 3 + bonus      # 1 + 1, +1 as in o07
    t = table(knave_pos(cp=95, anna='knave = {sp = 30, absolved = true}'), dice=[1, 1],
              options={"rules": ("stamina",)})
    c = Combat(t.session(), [npk(a_card("Sir Kay"))], attacker="pk")
    assert c.roll(c.me, c.foes[0])[0] == 3 + 1


def test_kn48_a_knight_bearing_his_players_name_is_announced_once(table):
    """From rules edition 7 (words.NAME_ONCE) an announcement names a knight who bears his
    player's name once ("Anna becomes a Knave"), where "Anna (Anna)" read as a slip; a knight
    named otherwise keeps his player in brackets. A game of edition 6 keeps "Anna (Anna)", for
    its replay."""
    for ed, name, said in ((7, None, "Anna"), (7, "Sir Kay", "Sir Kay (Anna)"),
                           (6, None, "Anna (Anna)")):
        t = table(pos(anna=f'name = "{name}"' if name else ""))
        t.state["edition"] = ed
        s = t.session()
        knaves.become(s, t.knight(), "by his own choice")
        assert t.saw(f"{said} becomes a Knave (by his own choice).")
        knaves.award_kvp(s, t.knight(), 10, "his deeds")
        assert t.saw(f"{said} reaches 10 Knave Victory Points and wins the game as a Knave.")
