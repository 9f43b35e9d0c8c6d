"""Foreign War (optional rule `foreign_war`; rules: OPTIONAL RULES, Foreign War, lines A-Z and
the Prize table): the war as a state machine on the knight's record (`war`), every line, its
choices as questions, its prizes in combat. Dice are explicit."""
from __future__ import annotations

from kocpos import card, pos

from companion.koc.engine import foreign_war as fw
from companion.koc.engine import knight as kn
from companion.koc.engine import service
from companion.koc.engine.combat import Combat, npk
from companion.koc.position import read_position, write_position

RULE = {"rules": ("foreign_war",)}
BEAT3 = [6, 6, 6, 1, 1, 1]         # lance 18 against three dice 3
LOSE3 = [1, 1, 1, 6, 6, 6]         # lance 3 against three dice 18


def at_war(line, *, cp=100, vp=20, lord="King Arthur", knights=(), kings=(), ladies=(),
           more=""):
    decks = []
    for key, names in (("knights", knights), ("kings", kings), ("ladies", ladies)):
        if names:
            decks.append(f"{key} = [" + ", ".join(f'"{n}"' for n in names) + "]")
    extra = ("[decks]\n" + "\n".join(decks) + "\n") if decks else ""
    war = (f'war = {{stage = "line", line = "{line}", lord = "{lord}", since = 1{more}}}')
    return pos(cp=cp, vp=vp, at="Camelot Castle", where="war", lord=lord, anna=war,
               extra=extra)


def run(table, position, dice, orders=None):
    t = table(position, dice=dice, options=RULE, orders={"Anna": orders} if orders else None)
    s = t.session()
    fw.war_turn(s)
    return t, s


# ============================================================================== the start
def test_fw01_the_lords_summons_may_mean_war(table):
    """Answering his Lord's summons, a die of 1-3 means war: he rides alone (comrades and
    Men-at-Arms part from him, his Dwarf waits at his Lord's castle), off the map, and spends
    next turn travelling. 4-6: no war; without the rule no die is rolled."""
    here = pos(at="Camelot Castle", where="inside",
               anna='lord_summons = 1\ncomrades = ["Sir Lucan"]\ndwarf = true')
    t = table(here, dice=[3], options=RULE)
    s = t.session()
    service.answer_summons(s)
    war = s.pk["war"]
    assert war["stage"] == "travel" and war["lord"] == "King Arthur"
    assert s.pk["at"]["where"] == "war" and not s.pk["comrades"] and s.pk["dwarf"] is None
    assert war["left_behind"]["dwarf"] is not None
    assert t.saw("Sir Lucan part from him") and t.saw("leaves his Dwarf at his Lord's castle")
    t = table(here, dice=[4], options=RULE)
    s = t.session()
    service.answer_summons(s)
    assert "war" not in s.pk and s.pk["comrades"]
    t = table(here, dice=[])
    s = t.session()
    service.answer_summons(s)
    assert "war" not in s.pk and not t.saw("Is the lord at war")


def test_fw02_a_turn_of_travel_reequips_and_heals(table):
    """The travel turn: his turn is the Luck-of-the-Day, the war and healing; at its end he
    has a full set of equipment and no poisoned wounds, and the next turn starts at line A."""
    t = table(pos(at="Camelot Castle", where="war",
                  anna='war = {stage = "travel", line = "A", lord = "King Arthur", since = 1}\n'
                       'gear = ["sword"]\npoison = 2\nheld_wl = 10'),
              dice=[4], options=RULE)
    assert t.play()
    pk = t.knight()
    assert pk["gear"] == {g: True for g in kn.GEAR} and pk["poison"] == 0
    assert pk["war"]["stage"] == "line" and pk["war"]["line"] == "A"
    assert t.saw("away at a foreign war") and t.unused_dice == []


def test_fw03_line_a_glory_or_safety(table):
    """A: seeking glory (the default) leads to B next turn; avoiding danger to C."""
    t, s = run(table, at_war("A"), [])
    assert s.pk["war"]["line"] == "B" and t.saw("next turn Anna is at line B")
    t, s = run(table, at_war("A"), [], orders="answer war_path: avoid danger")
    assert s.pk["war"]["line"] == "C"


def test_fw04_battle_victory_spoils_all_in_one_turn(table):
    """B 1 -> D at once: one enemy knight (d3 = 1), beaten: his CP and 6 VP -> J at once;
    J 3 -> P at once: a prize (5, the Magic Sword) -> A at once -> B next turn."""
    t, s = run(table, at_war("B", knights=["Sir Belleus"]), [1, 1, *BEAT3, 3, 5])
    pk = s.pk
    assert pk["war"]["line"] == "B" and pk["vp"] == 26 and pk["cp"] == 104
    assert kn.has_item(pk, "magic_sword") and t.saw("wins a prize of war: Magic sword")
    assert "Sir Belleus" in t.state["decks"]["knights"]["discard"] + \
        t.state["decks"]["knights"]["draw"]


def test_fw05_beaten_in_battle_is_taken_prisoner(table):
    """D, defeated: no Knight's Fate; his captors keep his equipment and next turn he is at
    K. K 6 -> W next turn."""
    t, s = run(table, at_war("D", knights=["Sir Gawain"]), [1, *LOSE3])
    pk = s.pk
    assert pk["war"]["line"] == "K" and pk["war"]["held_gear"]["lance"]
    assert pk["gear"] == {g: False for g in kn.GEAR} and not t.saw("Knight's Fate")
    t, s = run(table, at_war("K"), [6])
    assert s.pk["war"]["line"] == "W"


def test_fw06_beleaguered_king_arthur(table):
    """E with King Arthur: his foes are never Arthurian (Sir Kay is set aside for Sir
    Belleus). Fleeing leads to F; fighting beside him and winning to L, where he becomes a
    friend; L 4 -> U; U with Arthur: his Favour for ever, a prize, and home."""
    t, s = run(table, at_war("E", kings=["King Arthur"], knights=["Sir Kay", "Sir Belleus"]),
               [1], orders="answer war_flee: flee")
    assert s.pk["war"]["line"] == "F" and t.saw("beset by Sir Belleus")
    t, s = run(table, at_war("E", kings=["King Arthur"], knights=["Sir Belleus"]),
               [1, *BEAT3])
    assert s.pk["war"]["line"] == "L" and s.pk["war"]["king"]["name"] == "King Arthur"
    t, s = run(table, at_war("L", more=', king = {name = "King Arthur", kind = "king"}'), [4])
    assert "King Arthur" in s.pk["friendly_persons"] and s.pk["war"]["line"] == "U"
    t, s = run(table, at_war("U", more=', king = {name = "King Arthur", kind = "king"}'), [2])
    pk = s.pk
    assert pk["arthur"]["favour"] and pk["arthur"]["permanent"]
    assert kn.has_item(pk, "magic_girdle") and pk["war"]["stage"] == "returning"


def test_fw07_called_a_coward(table):
    """F: letting it pass costs 12 VP; beating the accuser costs nothing; either way A next
    turn."""
    t, s = run(table, at_war("F", knights=["Sir Belleus"]), [],
               orders="answer war_coward: let it pass")
    assert s.pk["vp"] == 8 and s.pk["war"]["line"] == "A"
    t, s = run(table, at_war("F", knights=["Sir Belleus"]), BEAT3)
    assert s.pk["vp"] == 26 and s.pk["war"]["line"] == "A"
    t, s = run(table, at_war("F", knights=["Sir Gawain"]), LOSE3)
    assert s.pk["vp"] == 8


def test_fw08_the_princess(table):
    """I: a Lady (Enchantresses redrawn) visits; meeting her, 1-3 -> M (spurned, B next turn),
    4-6 -> N: serving her (he has no Lady: the default) then 4 -> A next turn."""
    t, s = run(table, at_war("I", ladies=["Queen of North Wales", "Lady Elaine"]), [2])
    assert s.pk["war"]["line"] == "B" and t.saw("scorns Anna")
    t, s = run(table, at_war("I", ladies=["Lady Elaine"]), [5, 4])
    assert s.pk["lady"]["name"] == "Lady Elaine" and s.pk["war"]["line"] == "A"
    t, s = run(table, at_war("I", ladies=["Lady Elaine"]), [5, 2],
               orders="answer war_lady: decline")
    assert s.pk["lady"] is None and s.pk["war"]["line"] == "M"
    t, s = run(table, at_war("I", ladies=["Lady Elaine"]), [],
               orders="answer war_princess: ignore")
    assert s.pk["war"]["line"] == "A"


def test_fw09_prison_can_kill(table):
    """R: 2-12 CP lost (here 7) and K next turn; a loss that would take him under 10 CP
    kills him."""
    t, s = run(table, at_war("R"), [3, 4])
    assert s.pk["cp"] == 93 and s.pk["war"]["line"] == "K"
    t, s = run(table, at_war("R", cp=15), [3, 4])
    assert t.saw("dies in prison") and t.saw("Anna is slain")


def test_fw10_treason_offer_and_escape(table):
    """S: refusing (default) -> R; agreeing -> V; pretending -> Z. Z: he recovers his
    equipment; 5 -> free, A next turn; 2 pursuers who beat him -> slain."""
    for answer, line in (("refuse", "R"), ("agree", "V"), ("pretend", "Z")):
        t, s = run(table, at_war("S"), [], orders=f"answer war_treason: {answer}")
        assert s.pk["war"]["line"] == line
    held = ', held_gear = {horse = true, shield = true, lance = true, sword = true}'
    t, s = run(table, at_war("Z", more=held), [5])
    assert s.pk["war"]["line"] == "A" and s.pk["gear"]["lance"]
    t, s = run(table, at_war("Z", more=held, knights=["Sir Gawain", "Sir Kay"]),
               [2, *LOSE3])
    assert t.saw("cut Anna down") and t.saw("Anna is slain")


def test_fw11_ransomed_and_home(table):
    """T: his Lord pays; 4-6: the war is over; the next turn is spent travelling and he is
    back inside his Lord's castle with the Dwarf he left there."""
    t, s = run(table, at_war("T", more=', left_behind = {dwarf = {arthurian = false, '
                                         'spares = []}}'), [5])
    assert s.pk["war"]["stage"] == "returning"
    fw.war_turn(s)
    assert "war" not in s.pk and s.pk["at"] == {"area": "Camelot Castle", "where": "inside"}
    assert s.pk["dwarf"] is not None and t.saw("back from the war, inside Camelot Castle")


def test_fw12_a_grateful_king_takes_him_into_service(table):
    """U with another King: serving him makes him the knight's Lord; the war ends with a turn
    of travel to the King's royal castle."""
    t, s = run(table, at_war("U", lord="King Mark",
                             more=', king = {name = "King Lot", kind = "king", '
                                  'kingdom = "Lothian", vl = 4}'),
               [], orders="answer war_gratitude: serve")
    pk = s.pk
    assert pk["lord"]["name"] == "King Lot" and pk["war"]["stage"] == "returning"
    fw.war_turn(s)
    assert pk["at"]["where"] == "inside" and pk["at"]["area"] == pk["lord"]["castle"]


def test_fw13_treason_exile(table):
    """V: cast out of his Lord's service, exiled from his kingdom, declared his enemy; after a
    turn of travel he lands, fully equipped, on the coast he names."""
    t, s = run(table, at_war("V", lord="King Mark"), [], orders="answer war_coast: Kent")
    pk = s.pk
    assert pk["lord"] is None and "King Mark" in pk["enemies"] and "Cornwall" in pk["exiles"]
    fw.war_turn(s)
    assert pk["at"] == {"area": "Kent", "where": "coast"}
    assert pk["gear"] == {g: True for g in kn.GEAR}


def test_fw14_the_captors_daughter(table):
    """W: serving her, with her shield and sword he beats the guard and is at her castle on
    the Road to Rome next turn; declining -> K."""
    t, s = run(table, at_war("W", ladies=["Lady Elaine"], knights=["Sir Belleus"]),
               [6, 6, 1, 1])
    pk = s.pk
    assert "war" not in pk and pk["lady"]["name"] == "Lady Elaine"
    assert pk["at"]["area"] == "Road to Rome" and pk["at"]["where"] == "inside"
    assert pk["gear"] == {"horse": False, "shield": True, "lance": False, "sword": True}
    t, s = run(table, at_war("W", ladies=["Lady Elaine"]), [],
               orders="answer war_daughter: decline")
    assert s.pk["war"]["line"] == "K"


def test_fw15_deeds_of_arms(table):
    """X: 1-3 a poisoned arrow (-20 CP, death under 10 CP), 4-6 brave deeds (+20 CP, +10 VP);
    then 1-4 -> A next turn, 5-6 the war is over."""
    t, s = run(table, at_war("X"), [5, 2])
    assert (s.pk["cp"], s.pk["vp"]) == (120, 30) and s.pk["war"]["line"] == "A"
    t, s = run(table, at_war("X"), [1, 6])
    assert s.pk["cp"] == 80 and s.pk["war"]["stage"] == "returning"
    t, s = run(table, at_war("X", cp=25), [2])
    assert t.saw("dies of the poisoned arrow") and t.saw("Anna is slain")


def test_fw16_raid_on_the_enemy_camp(table):
    """Y: he leads 1-6 knights (1: Sir Lucan) against an enemy King and 1-6 knights (1: Sir
    Belleus); he beats both (12 + 4 CP, 6 + 6 VP) -> Q next turn; Q: a prize (3, the
    Unbreakable Lance) and the war is over."""
    t, s = run(table, at_war("Y", knights=["Sir Lucan", "Sir Belleus"],
                             kings=["King Brandegoris"]),
               [1, 1, *BEAT3, 6, 6, 6, 1, 1, 2])
    assert s.pk["war"]["line"] == "Q" and (s.pk["cp"], s.pk["vp"]) == (116, 32)
    assert t.saw("leading Sir Lucan; they meet King Brandegoris and Sir Belleus")
    t, s = run(table, at_war("Q"), [3])
    assert kn.has_item(s.pk, "unbreakable_lance") and s.pk["war"]["stage"] == "returning"


def test_fw17_prizes_in_combat(table):
    """The Prize table in combat: the Magic Sword adds 4 to sword attacks and loses a pip when
    a combat event breaks it; the Magic Shield absorbs 2 wounds a pass, 1 after one break and
    is an ordinary shield after two; the Magic Girdle adds 5 to the WL."""
    t = table(pos(anna='items = [{key = "magic_sword", bonus = 4}, '
                       '{key = "magic_shield", absorbs = 2}, {key = "magic_girdle"}]'),
              dice=[1, 1, 5, 5, 5, 5])
    s = t.session()
    assert kn.wl(s.pk) == 15
    c = Combat(s, [npk(card("Sir Kay"))], attacker="pk")
    c.me["method"] = "sword"
    assert c.roll(c.me, c.foes[0])[0] == 2 + 4
    from companion.koc.engine.combat import magic_breaks

    assert magic_breaks(s, s.pk, "magic_sword", "bonus")
    assert s.pk["items"][0]["bonus"] == 3
    assert magic_breaks(s, s.pk, "magic_shield", "absorbs")
    assert magic_breaks(s, s.pk, "magic_shield", "absorbs")
    assert not kn.has_item(s.pk, "magic_shield") and s.pk["gear"]["shield"]


def test_fw18_the_war_round_trips_in_a_position(table):
    """The war record is written with the position and read back; the journal shows it."""
    t = table(at_war("K", more=', held_gear = {horse = true, shield = true, lance = true, '
                                'sword = false}'))
    text = write_position(t.world, t.state)
    again = read_position(t.world, text, "again.toml")
    assert again["knights"]["Anna"]["war"] == t.state["knights"]["Anna"]["war"]
    assert again["knights"]["Anna"]["at"]["where"] == "war"
    from companion.koc.views import journal

    j = journal(again["knights"]["Anna"])
    assert j["war"] == "at King Arthur's foreign war, line K"
    assert j["place"].startswith("away at a foreign war")


def test_fw19_the_dice_lines(table):
    """The lines that only roll their exit: B 4 -> X, 5 -> Y (next turn); C 1-2 -> F, 3-4 ->
    G, 5 -> H, 6 -> I (next turn); J 1-2 -> O, 5-6 -> Q (next turn); K 1-2 -> R, 3-4 -> S,
    5 -> T; L 1-3 -> A; T 1-3 -> A; O and M go on next turn (A, B); H ends the war."""
    for line, die, nxt in (("B", 4, "X"), ("B", 5, "Y"), ("C", 2, "F"), ("C", 3, "G"),
                           ("C", 5, "H"), ("C", 6, "I"), ("J", 1, "O"), ("J", 6, "Q"),
                           ("K", 2, "R"), ("K", 4, "S"), ("K", 5, "T"), ("L", 3, "A"),
                           ("T", 1, "A")):
        t, s = run(table, at_war(line), [die])
        assert s.pk["war"]["line"] == nxt, (line, die)
    for line, nxt in (("O", "A"), ("M", "B")):
        t, s = run(table, at_war(line), [])
        assert s.pk["war"]["line"] == nxt
    t, s = run(table, at_war("H"), [])
    assert s.pk["war"]["stage"] == "returning" and s.pk["war"]["dest"] == "home"


def test_fw20_ambush_and_the_king_beaten(table):
    """G: beating the ambush (Sir Belleus, d3 = 1) -> A next turn. E: beaten at the King's
    side, with the King beaten too in the party combat -> K next turn (a prisoner)."""
    t, s = run(table, at_war("G", knights=["Sir Belleus"]), [1, *BEAT3])
    assert s.pk["war"]["line"] == "A" and s.pk["vp"] == 26
    t, s = run(table, at_war("E", kings=["King Brandegoris"], knights=["Sir Gawain"]),
               [1, *LOSE3, 1, 1, 6, 6])
    assert s.pk["war"]["line"] == "K" and t.saw("Party combat")
    assert s.pk["comrades"] == []


def test_fw21_a_war_choice_waits_for_orders(table):
    """With missing=wait, line A's choice pauses the turn when nobody answered (the war's
    questions are asked like any other); his orders answer it."""
    t = table(at_war("A"), dice=[4], options={**RULE, "missing": "wait"})
    assert not t.play()
    assert t.knight()["war"]["line"] == "A"
    t = table(at_war("A"), dice=[4], options={**RULE, "missing": "wait"},
              orders={"Anna": "answer war_path: avoid danger"})
    assert t.play() and t.knight()["war"]["line"] == "C"
