"""Encounters: a casebook (rules: ENCOUNTERS, with the parts of SEQUENCE OF PLAY, MOVEMENT and
COMBAT that touch them). Dice are explicit; 2d6 chart results are given as two dice adding up
to the entry (``D[n]``). Chits and cards come from the position's [draws] and [decks]."""
from __future__ import annotations

from kocpos import card, pos

from companion.koc.engine import encounters as E
from companion.koc.engine import knight as kn

D = {2: [1, 1], 3: [1, 2], 4: [2, 2], 5: [2, 3], 6: [3, 3], 7: [3, 4], 8: [4, 4], 9: [4, 5],
     10: [5, 5], 11: [5, 6], 12: [6, 6]}
KILL3 = [6, 6, 6, 1, 1, 1]      # a lance pass of 18 against a three-dice 3
KILL2 = [6, 6, 6, 1, 1]         # a lance pass of 18 against a two-dice 2


def setup(table, at="Powys", dice=(), *, anna="", extra="", orders="", luck=4, where=None,
          lord="King Arthur", cp=100, vp=20, turn=1, others=None):
    """A table with Anna at ``at``; her Luck-of-the-Day is already rolled."""
    t = table(pos(cp=cp, vp=vp, at=at, anna=anna, extra=extra, where=where, lord=lord,
                  turn=turn, others=others), dice=list(dice),
              orders={"Anna": orders} if orders else None)
    s = t.session()
    s.pk["luck"] = luck
    return t, s


def draws(**kinds) -> str:
    return "\n[draws]\n" + "\n".join(f"{k} = {v!r}".replace("'", '"') for k, v in kinds.items())


def decks(**kinds) -> str:
    return "\n[decks]\n" + "\n".join(f"{k} = {v!r}".replace("'", '"') for k, v in kinds.items())


def met(t, kind=None):
    return [m for m in t.knight().get("met", []) if kind is None or m["kind"] == kind]


# ============================================================================== countryside
def test_e01_countryside_modifiers(table):
    """Countryside Encounters: Surluise, Scotland and Lothian -1; Logres +1; wastelands -1
    (both add up: a Logres marsh rolls unmodified). An 8 is Peasants everywhere here."""
    for area, dice in (("Powys", D[8]), ("Lothian", D[9]), ("Hampshire", D[7]),
                       ("Terrington Marsh", D[9]), ("Lincoln Marsh", D[8])):
        t, s = setup(table, area, dice)
        E.terrain_encounter(s, area)
        assert t.saw("-> Peasants [peasants]"), area
        assert not t.unused_dice
    t, s = setup(table, "Lothian", [1, 1, 3, 4, 5])
    E.terrain_encounter(s, "Lothian")        # 2 - 1 counts as 2: a monster
    assert t.saw("(counts as 2) -> Monster")


def test_e02_peasants_stop_and_are_friendly(table):
    """Peasant Encounters: a nuisance, no reaction, always friendly; movement ends (an
    encounter ends the movement phase)."""
    t = table(pos(at="Powys"), dice=[4, 1, 4, 4], orders={"Anna": "move Dyfed, Powys"})
    assert t.play()
    assert t.knight()["at"]["area"] == "Dyfed"
    assert t.saw("Peasants crowd round Anna")
    assert not t.unused_dice


def test_e03_encounter_sets_encountered_flag(table):
    """An encounter happened (tasks.py reads 'encountered': staying with an encounter is no
    delay)."""
    t, s = setup(table, "Powys", D[8])
    E.terrain_encounter(s, "Powys")
    assert s.pk["encountered"] is True


# ============================================================================== monsters
def test_e04_monster_avoided_by_luck(table):
    """Avoid, Attack, Await: avoiding takes a Luck Test; the encounter is over."""
    t, s = setup(table, "Powys", D[2] + [5], extra=draws(monster=["Lion 5"]),
                 orders="on encounter monster: avoid")
    E.terrain_encounter(s, "Powys")
    assert t.saw("Anna avoids a monster")
    assert not t.saw("Lion")          # never revealed
    assert not t.unused_dice


def test_e05_arthurian_loses_6_vp_for_trying_to_avoid(table):
    """Trying to avoid costs an Arthurian knight 6 VP, whether or not he gets away; failing,
    he must await the reaction (the monster attacks)."""
    t, s = setup(table, "Powys", D[2] + [2] + KILL3, anna="arthurian = true",
                 extra=draws(monster=["Lion 5"]), orders="on encounter: avoid")
    E.terrain_encounter(s, "Powys")
    assert t.saw("loses 6 VP (an Arthurian knight trying to avoid an encounter)")
    assert t.saw("cannot get away")
    assert t.saw("Lion is slain")
    assert s.pk["vp"] == 20 - 6 + 5 and s.pk["cp"] == 105
    assert not t.unused_dice


def test_e06_monster_slays_the_defeated(table):
    """Monster Encounters: three dice; it slays a PK it defeats."""
    t, s = setup(table, "Powys", D[2] + [1, 1, 1, 6, 6, 6], cp=20, vp=5,
                 extra=draws(monster=["Dragon 25"]))
    E.terrain_encounter(s, "Powys")
    assert t.saw("Dragon slays Anna")
    assert t.saw("Anna is slain") and t.state["knights"]["Anna"]["name"] == "Anna (2)"


def test_e07_never_avoid_oath(table):
    """Oath 12: a PK sworn never to avoid encounters is not offered the choice."""
    t, s = setup(table, "Powys", D[2] + KILL3, anna='oaths = ["never_avoid_encounters"]',
                 extra=draws(monster=["Lion 5"]), orders="on encounter: avoid")
    E.terrain_encounter(s, "Powys")
    assert t.saw("Lion is slain") and not t.saw("Luck test")


def test_e08_magic_ring_avoids_at_a_price(table):
    """Merlin Gift 3: the Magic Ring avoids any encounter, but every comrade and companion
    except the Mascot is lost, and 6 VP."""
    t, s = setup(table, "Powys", D[2], anna='items = [{key = "magic_ring"}]\ndwarf = true\n'
                 'mascot = "Badger"\ncomrades = ["Sir Kay"]', extra=draws(monster=["Lion 5"]),
                 orders="answer encounter: ring")
    E.terrain_encounter(s, "Powys")
    pk = s.pk
    assert pk["dwarf"] is None and pk["comrades"] == [] and pk["mascot"]["name"] == "Badger"
    assert pk["vp"] == 14
    assert not t.unused_dice


# ============================================================================== brigands
def test_e09_brigands_attack_and_pay_their_wl(table):
    """Brigand Encounters (1-6 on the countryside chart): they always attack, two dice each;
    each beaten brigand is worth his WL in CP."""
    t, s = setup(table, "Powys", D[6] + [2] + KILL2 + KILL2,
                 extra=draws(brigand=["Brigand 3", "Brigand 5"]))
    E.terrain_encounter(s, "Powys")
    assert t.saw("2 brigands fall upon Anna")
    assert s.pk["cp"] == 108
    assert not t.unused_dice


def test_e09_brigands_before_edition_2_in_the_old_words(table):
    """A game begun before rules edition 2 keeps the words its history recorded: the noted
    event, the question asked and the Luck Test's purpose (companion/koc/engine/words.py)."""
    t, s = setup(table, "Powys", D[6] + [2] + KILL2 + KILL2,
                 extra=draws(brigand=["Brigand 3", "Brigand 5"]))
    t.state["edition"] = 1
    E.terrain_encounter(s, "Powys")
    assert t.saw("2 brigand(s) fall upon Anna") and not t.saw("2 brigands")
    assert s.pk["cp"] == 108
    for edition, words in ((1, "a band of 2 brigand(s)"), (2, "a band of 2 brigands")):
        t, s = setup(table, "Powys", D[6] + [2] + [6], orders="on encounter: avoid\n")
        t.state["edition"] = edition
        asked, ask = [], s.ask
        s.ask = lambda q: asked.append(q.prompt) or ask(q)
        E.terrain_encounter(s, "Powys")
        assert asked[0].startswith(f"Anna meets {words} (")
        assert t.saw(f"Luck test (avoid {words}): rolled 6") and t.saw(f"Anna avoids {words};")
        assert t.chance.outcomes[-1].purpose == f"luck test: avoid {words}"


def test_e10_brigands_rob(table):
    """Brigands who win rob the PK and his party of all equipment."""
    t, s = setup(table, "Powys", D[6] + [1, 1, 1, 1, 6, 6], cp=10, vp=2,
                 extra=draws(brigand=["Brigand 6"]))
    E.terrain_encounter(s, "Powys")
    assert t.saw("rob") and s.pk["gear"] == {g: False for g in kn.GEAR}


# ============================================================================== mad knights
def test_e11_mad_knight_half_wl_and_bound(table):
    """Mad Knight Encounters: no shield (the PK adds 2), two dice; beaten, he gives half his
    WL in CP, and may be carried bound to be cured."""
    t, s = setup(table, "Powys", D[3] + KILL2, extra=decks(knights=["Sir Belleus"]))
    E.terrain_encounter(s, "Powys")
    assert t.saw("The mad knight is Sir Belleus (WL 4)")
    assert t.saw("Anna 20, Sir Belleus 2")          # 18 + 2 for his missing shield
    assert s.pk["cp"] == 102
    assert any(e["kind"] == "bound_mad_knight" for e in s.pk["party_extra"])


# ============================================================================== animals
WOLF = draws(animal=["Wolf 5"])


def animal(table, reaction, more=(), **kw):
    """Anna meets a wolf in Powys and awaits its reaction (``reaction``: a 2d6 total)."""
    t, s = setup(table, "Powys", D[4] + D[reaction] + list(more),
                 extra=kw.pop("extra", "") + WOLF, **kw)
    E.terrain_encounter(s, "Powys")
    return t, s


def test_e12_animal_pack_attacks(table):
    """Animal reaction 2: it attacks with 1-6 others of its kind; animals slay."""
    t, s = animal(table, 2, [1] + KILL2 + KILL2)
    assert t.saw("The Wolf and 1 more of its kind attack Anna")
    assert s.pk["cp"] == 110 and s.pk["vp"] == 20       # CP for animals, no VP
    assert not t.unused_dice


def test_e13_animal_attacks_steed(table):
    """Animal reaction 3: it goes for the horse; three wounds kill the horse, then it attacks
    the PK (the horse does not fight)."""
    t, s = animal(table, 3, [1, 1, 1, 6, 6] + [6, 6, 1, 1])
    assert t.saw("goes for Anna's horse")
    assert t.saw("kills Anna's horse")
    assert not s.pk["gear"]["horse"] and s.pk["wounds"] == 0
    assert t.saw("Wolf is slain")
    assert not t.unused_dice


def test_e14_animal_prophecy(table):
    """Animal reaction 4: it speaks a Prophecy (an adventure that must be done some day)."""
    t, s = animal(table, 4)
    assert t.saw("utters a prophecy")
    assert any(task.get("prophecy") for task in s.pk["tasks"])


def test_e15_animal_message(table):
    """Animal reaction 5: a Message from the neutral animal."""
    t, s = animal(table, 5, D[9])
    assert t.saw("carries a message") and t.saw("Messages: 4+5 = 9")


def test_e16_animal_flees_before_a_knight(table):
    """Animal reaction 6: the animal flees, a knight on its trail arrives; his reaction -1."""
    t, s = animal(table, 6, D[8], extra=decks(knights=["Sir Dinadan"]))
    assert t.saw("close behind comes a knight")
    assert t.saw("Knight reactions: 4+4 = 8 -1 = 7 -> Offer a challenge")
    assert met(t, "knight")[0]["attitude"] == "neutral"
    assert not t.unused_dice


def test_e17_animal_runs_away_pursued(table):
    """Animal reaction 7: it runs away; pursued on a Luck Test, its reaction is rolled anew
    (here 10: it stays as a Mascot)."""
    t, s = animal(table, 7, [5] + D[10], orders="on pursue: yes")
    assert t.saw("catches up with the Wolf")
    assert s.pk["mascot"] == {"name": "Wolf", "wl": 5}
    assert ["Wolf", 5] in t.state["chits_out"]["animal"]
    t, s = animal(table, 7)
    assert t.saw("runs off") and s.pk["mascot"] is None


def test_e18_animal_leads_to_local_adventure(table):
    """Animal reaction 8: followed, it leads to a local adventure."""
    t, s = animal(table, 8)
    assert t.saw("will follow the Wolf")
    assert any(task["kind"] == "adventure" for task in s.pk["tasks"])
    t, s = animal(table, 8, orders="on follow: no")
    assert t.saw("does not follow") and not s.pk["tasks"]


def test_e19_animal_informs_of_adventure(table):
    """Animal reaction 9: it tells of an adventure (offered; accepted by default)."""
    t, s = animal(table, 9)
    assert t.saw("speaks, and tells of an adventure")
    assert s.pk["tasks"]


def test_e20_animal_becomes_mascot_or_fights_the_old_one(table):
    """Animal reaction 10: it stays as a Mascot; if the PK has one, they fight, and a winning
    newcomer attacks the PK."""
    t, s = animal(table, 10)
    assert s.pk["mascot"]["name"] == "Wolf"
    t, s = animal(table, 10, [1, 1, 6, 6] + KILL2, anna='mascot = "Badger"')
    assert t.saw("kills Badger and turns on Anna")
    assert s.pk["mascot"] is None and t.saw("Wolf is slain")
    t, s = animal(table, 10, [6, 6, 1, 1], anna='mascot = "Boar"')
    assert t.saw("Boar kills the Wolf") and s.pk["cp"] == 103     # half the WL, rounded up
    assert not t.unused_dice


def test_e21_enchanted_lady(table):
    """Animal reaction 11: an enchanted Lady asks a prayer (aid): a successful VL test frees
    her (never an Enchantress) and she is friendly (6 VP); refusing costs 6 VP."""
    t, s = animal(table, 11, [5], extra=decks(ladies=["Queen Sebile"]))
    assert t.saw("The spell breaks")
    lady = met(t, "lady")[0]
    assert lady["attitude"] == "friendly" and not lady["card"]["enchantress"]
    assert s.pk["vp"] == 26
    t, s = animal(table, 11, [2])
    assert t.saw("The prayer fails") and s.pk["vp"] == 20
    t, s = animal(table, 11, orders="on pray_for_lady: no")
    assert s.pk["vp"] == 14


def test_e22_animal_leads_to_a_ladys_castle_next_turn(table):
    """Animal reaction 12: followed, next turn it brings the PK to a Lady's castle, friendly,
    standing in the local area."""
    t = table(pos(at="Powys", extra=WOLF + decks(ladies=["Lady Enid"])),
              dice=[4, 1] + D[4] + D[12], orders={"Anna": "stay"})
    assert t.play()
    assert t.knight()["next_turn"][0]["what"] == "led_to_castle"
    from companion.koc.engine.turn import end_of_game_turn

    end_of_game_turn(t.game)
    t.chance._dice = [4]
    t.chance._dice_used = 0
    t.game.orders = {}
    assert t.play()
    pk = t.knight()
    assert pk["at"] == {"area": "Powys", "where": "inside", "castle": "Castle Cardigan"}
    assert "Castle Cardigan" in pk["friendly"]
    assert t.state["castles"]["Castle Cardigan"]["owner"] == "Lady Enid"


def test_e23_animal_form_cannot_avoid_animals(table):
    """Enchantment 4: in animal form the PK avoids encounters at will, except another animal,
    which attacks him."""
    t, s = setup(table, "Powys", D[4] + [6, 6, 1, 1], anna='animal = "Hart"',
                 extra=WOLF, orders="on encounter: avoid")
    E.terrain_encounter(s, "Powys")
    assert t.saw("The Wolf attacks the beast he has become")
    assert t.saw("Wolf is slain")
    t, s = setup(table, "Powys", D[2], anna='animal = "Hart"',
                 extra=draws(monster=["Lion 5"]), orders="on encounter: avoid")
    E.terrain_encounter(s, "Powys")
    assert t.saw("slips away") and not t.saw("Luck test")


def next_turn(t, dice=(), orders=None):
    """End the game turn and give the next one its dice and orders."""
    from companion.koc.engine.turn import end_of_game_turn
    from companion.koc.orders import parse_orders

    end_of_game_turn(t.game)
    t.chance._dice = list(dice)
    t.chance._dice_used = 0
    t.game.orders.clear()
    for p, text in (orders or {}).items():
        o = parse_orders(t.world, t.state["koc"]["order"], text, "o.txt")
        t.game.orders[p] = o
        if o.standing is not None:
            t.state["knights"][p]["standing"] = list(o.standing)


# ============================================================================== knights
KNIGHTS = decks(knights=["Sir Belleus", "Sir Gauter", "Sir Hemison", "Sir Miles of the Launds",
                         "Sir Arnold le Breuse", "Sir Galagars"])


def knights(table, reaction, more=(), n=1, **kw):
    """Anna meets ``n`` weak knights in Powys (1-6 on the chart) and awaits their reaction."""
    t, s = setup(table, "Powys", D[7] + [n] + D[reaction] + list(more),
                 extra=kw.pop("extra", KNIGHTS), **kw)
    E.terrain_encounter(s, "Powys")
    return t, s


def test_e24_knights_revealed_after_the_choice_with_arthurian_count(table):
    """Revealing Encounters: the PK chooses before the cards are shown, but knows how many of
    the knights are Arthurian (tags and numbers for standing orders)."""
    t, s = setup(table, "Powys", D[7] + [3] + [5],
                 extra=decks(knights=["Sir Kay", "Sir Belleus", "Sir Gauter"]),
                 orders="on encounter knights arthurian_count<1: attack\n"
                        "on encounter knights arthurian: avoid")
    E.terrain_encounter(s, "Powys")
    assert t.saw("Anna sees 3 knights, 1 of them in Camelot's colours.")
    assert t.saw("Anna avoids 3 knights")
    assert not t.saw("Sir Kay")
    assert [(d["kind"], d["answer"], d["source"]) for d in t.ctx.decisions] == [
        ("encounter", "avoid", "standing")]
    t, s = setup(table, "Powys", D[7] + [2] + KILL3 + KILL3 + [1, 1] * 2,
                 extra=decks(knights=["Sir Belleus", "Sir Gauter"]),
                 orders="on encounter knights arthurian_count<1: attack\n"
                        "on encounter knights arthurian: avoid")
    E.terrain_encounter(s, "Powys")
    assert t.saw("Anna attacks them") and not t.unused_dice


def test_e25_attacking_knights_must_be_chivalrous(table):
    """Attack before the reaction: against knights the PK must fight chivalrously (here on
    foot against a mounted knight, who agrees to fight fairly on a VL check of his VL 7 (6+6):
    sword to sword); beaten knights take a Knight's Fate."""
    t, s = setup(table, "Powys", D[7] + [1] + [6, 6] + [6, 6, 1, 1] + [6, 6],
                 extra=KNIGHTS, orders="answer encounter: attack", anna="on_foot = true")
    E.terrain_encounter(s, "Powys")
    assert t.saw("Anna attacks them")
    assert t.saw("Sir Belleus agrees to fight with the same weapons.")
    assert t.saw("Pass: Anna 12, Sir Belleus 2")
    assert t.saw("Sir Belleus") and s.pk["cp"] == 104 and s.pk["vp"] == 26


def test_e26_knights_call_others_and_attack(table):
    """Knight reaction 2: they call 1-6 more knights and attack."""
    t, s = knights(table, 2, [1] + KILL3 + KILL3 + [1, 1] + [6, 6])
    assert t.saw("They call Sir Gauter and attack")
    assert t.saw("Sir Belleus rides away") and t.saw("Anna lets Sir Gauter go freely")
    assert s.pk["cp"] == 109 and s.pk["vp"] == 32
    assert not t.unused_dice


def test_e27_knights_fight_for_lady(table):
    """Knight reaction 3: they attack; if the PK's side loses he loses his Lady too."""
    t, s = knights(table, 3, [1, 1, 1, 6, 6, 6] + [1, 1, 1, 6, 6, 6] + [1], cp=20, vp=5,
                   anna='lady = "Lady Enid"')
    assert t.saw("for the sake of a lady")
    assert s.pk["lady"] is None and t.saw("loses his Lady, Lady Enid")


def test_e28_scornful_knights(table):
    """Knight reaction 4: they refuse to fight or ride together: 3 VP lost; forcing a fight on
    them gives VP but no CP."""
    t, s = knights(table, 4)
    assert s.pk["vp"] == 17 and met(t, "knight")[0]["attitude"] == "unfriendly"
    t, s = knights(table, 4, KILL3[:3] + [1, 1, 1] + [6, 6], orders="on force_fight: yes")
    assert s.pk["vp"] == 17 + 6 and s.pk["cp"] == 100


def test_e29_knights_trick(table):
    """Knight reaction 5: a trick, escaped on a Luck Test."""
    t, s = knights(table, 5, [6])
    assert t.saw("sees through Sir Belleus's trick")


def test_e30_knights_attack_and_flight(table):
    """Knight reaction 6: they attack; the PK may first try to flee (Luck Test), losing his
    Dwarf, Men-at-Arms and comrades; 6 VP more for a knight of the Round Table)."""
    t, s = knights(table, 6, [5], orders="on flee_attack: yes", anna="dwarf = true\n"
                   'comrades = ["Sir Kay"]\narthurian = true')
    assert t.saw("Anna flees") and s.pk["dwarf"] is None and s.pk["comrades"] == []
    assert s.pk["vp"] == 14
    t, s = knights(table, 6, KILL3[:3] + [1, 1, 1] + [6, 6])
    assert t.saw("The knights attack Anna") and s.pk["cp"] == 104


def test_e31_knights_offer_a_challenge(table):
    """Knight reaction 7: the leader offers a challenge (declining is free); won, the knights
    are friendly; a leader fought before leaves them neutral."""
    t, s = knights(table, 7)
    assert met(t, "knight")[0]["attitude"] == "neutral"
    t, s = knights(table, 7, [6, 6, 6, 1, 1, 1] * 3, orders="on accept_challenge: yes")
    assert t.saw("Challenge: Anna inflicted")
    assert met(t, "knight")[0]["attitude"] == "friendly"
    assert "Sir Belleus" in s.pk["challenged"]
    t, s = knights(table, 7, anna='challenged = ["Sir Belleus"]')
    assert t.saw("have met in a challenge before")


def test_e32_knights_ask_to_join(table):
    """Knight reaction 8: they offer to ride along as comrades; not with an oath to ride
    alone."""
    t, s = knights(table, 8, n=2)
    assert [c["name"] for c in s.pk["comrades"]] == ["Sir Belleus", "Sir Gauter"]
    assert s.pk["comrades"][0]["joined"] == 1
    assert "Sir Belleus" not in t.state["decks"]["knights"]["discard"]
    t, s = knights(table, 8, anna='oaths = ["always_travel_alone"]')
    assert s.pk["comrades"] == [] and t.saw("sworn to ride alone")


def test_e33_knights_message_aid_adventure(table):
    """Knight reactions 9 (message), 10 (a request for aid: friendly if granted), 11 (an
    adventure to share: accepted, they ride along as comrades)."""
    t, s = knights(table, 9, D[9])
    assert t.saw("Messages:")
    t, s = knights(table, 10, D[12])
    assert t.saw("asks Anna for aid: give directions")
    assert met(t, "knight")[0]["attitude"] == "friendly"
    t, s = knights(table, 11)
    assert t.saw("offer Anna to share it")
    assert s.pk["comrades"] and s.pk["tasks"]


def test_e34_knights_flee_and_pursuit(table):
    """Knight reaction 12: they flee; pursued successfully (Luck Test) they react anew (a lone
    knight is named: e141)."""
    t, s = knights(table, 12)
    assert t.saw("rides away") and not met(t, "knight")
    t, s = knights(table, 12, [6] + D[9] + D[9], orders="on pursue: yes")
    lone = met(t, "knight")[0]
    assert t.saw(f"catches up with {lone['card']['name']}") and lone["attitude"] == "friendly"


def test_e35_friendly_knights_may_be_challenged(table):
    """Friendly knights (7-11): at the end the PK may challenge their leader, who accepts on a
    VL check; a knight challenged before is not offered again."""
    t, s = knights(table, 8, [6, 6] + [6, 6, 6, 1, 1, 1] * 3,
                   orders="on challenge: yes\non join: no")
    assert t.saw("accepts the challenge")
    assert "Sir Belleus" in s.pk["challenged"]
    t, s = knights(table, 8, orders="on challenge: yes\non join: no",
                   anna='challenged = ["Sir Belleus"]')
    assert not t.saw("accepts the challenge") and not t.unused_dice


def test_e36_lord_is_friendly(table):
    """Lord Service: one's Lord is always friendly (no reaction roll)."""
    t, s = setup(table, "Powys", D[7] + [1], lord="Sir Belleus", extra=KNIGHTS)
    t.knight()["lord"] = {"kind": "knight", "name": "Sir Belleus", "castle": "Jagent"}
    E.terrain_encounter(s, "Powys")
    assert t.saw("Lord rides with them") and not t.saw("Knight reactions")
    assert met(t, "knight")[0]["attitude"] == "friendly"


def test_e37_declared_enemies_fight_to_the_death(table):
    """Knight's Fate 13: declared enemies attack at once and fight until one is slain."""
    t, s = setup(table, "Powys", D[7] + [1] + KILL3[:3] + [1, 1, 1] + [6, 6],
                 anna='enemies = ["Sir Belleus"]', extra=KNIGHTS)
    E.terrain_encounter(s, "Powys")
    assert t.saw("declared enemies")
    assert "Sir Belleus" in t.state["decks"]["knights"]["removed"]
    t, s = setup(table, "Powys", D[7] + [1] + [1, 1, 1, 6, 6, 6], cp=10, vp=2,
                 anna='enemies = ["Sir Belleus"]', extra=KNIGHTS, orders="on yield: yes")
    E.terrain_encounter(s, "Powys")
    assert t.saw("Sir Belleus slays Anna")


# ============================================================================== kings
LOT = decks(kings=["King Lot"], knights=["Sir Belleus", "Sir Gauter", "Sir Hemison",
                                         "Sir Miles of the Launds"])


def king(table, reaction, more=(), **kw):
    """Anna meets King Lot (VL 6) and his escort in Powys and awaits his reaction."""
    t, s = setup(table, "Powys", D[12] + D[reaction] + list(more),
                 extra=kw.pop("extra", LOT), **kw)
    E.terrain_encounter(s, "Powys")
    return t, s


def test_e38_king_escort_matches_the_party(table):
    """King Encounters: as many knights as the PK's party counts (himself, comrades and
    Men-at-Arms); revealed together with the King."""
    t, s = king(table, 7, anna='comrades = ["Sir Kay"]\nmen_at_arms = ["Sir Tor"]')
    assert t.saw("It is King Lot (VL 6), riding with Sir Belleus, Sir Gauter, Sir Hemison.")
    assert met(t, "king")[0]["attitude"] == "neutral"


def test_e39_king_arthurs_escort_is_arthurian(table):
    """If the King is Arthur, his escort is Arthurian; Arthur friendly makes Camelot Castle
    friendly for good (he is this PK's Lord here: always friendly)."""
    t, s = setup(table, "Powys", D[12], extra=decks(kings=["King Arthur"],
                                                    knights=["Sir Belleus", "Sir Kay"]))
    E.terrain_encounter(s, "Powys")
    assert t.saw("It is King Arthur (VL 1), riding with Sir Kay.")
    assert t.saw("Lord, and greets him as a friend") and "Camelot Castle" in s.pk["friendly"]


def test_e40_king_attacks_with_more_knights(table):
    """King reaction 2: he calls 1-6 more knights; his whole party attacks (the King last)."""
    t, s = king(table, 2, [1], cp=300, vp=60)
    assert t.saw("King Lot calls Sir Gauter to attack with his escort")
    assert t.saw("Combat: Anna (WL 30) against Sir Belleus (WL 4), Sir Gauter (WL 5), King Lot")


def test_e41_king_exacts_oath_and_tricks(table):
    """King reactions 3 (an oath) and 4 (a trick)."""
    t, s = king(table, 3, D[7])
    assert s.pk["oaths"] == ["spare_knights"]
    t, s = king(table, 4, [6])
    assert t.saw("sees through King Lot's trick")


def test_e42_king_challenges(table):
    """King reaction 5: the King challenges; the PK gets lance and shield if he lacks them; won,
    the King is friendly; declined, comrades, Men-at-Arms and Dwarf leave."""
    t, s = king(table, 5, [6, 6, 6, 1, 1, 1] * 2, anna='gear = ["horse", "sword"]')
    assert t.saw("lends Anna a lance and a shield")
    assert t.saw("Anna wins") and met(t, "king")[0]["attitude"] == "friendly"
    assert "King Lot" in s.pk["challenged"]
    t, s = king(table, 5, orders="on king_challenge: no", anna='dwarf = true\nmascot = "Badger"')
    assert s.pk["dwarf"] is None and s.pk["mascot"] and met(t, "king")[0]["attitude"] == "neutral"
    t, s = king(table, 5, anna='challenged = ["King Lot"]')
    assert t.saw("already met in a challenge")


def test_e43_king_offers_a_challenge(table):
    """King reaction 6: an offered challenge; declined, the King's party rides on."""
    t, s = king(table, 6)
    assert t.saw("ride on") and not met(t, "king")


def test_e44_king_informs_and_message(table):
    """King reactions 7 (an adventure, the King neutral) and 11 (a message, friendly)."""
    t, s = king(table, 7)
    assert s.pk["tasks"] and met(t, "king")[0]["attitude"] == "neutral"
    t, s = king(table, 11, D[9])
    assert t.saw("Messages:") and met(t, "king")[0]["attitude"] == "friendly"


def test_e45_king_requests_escort(table):
    """King reaction 8: escorting him to his royal castle is aid (6 VP on arrival, 1 VP a
    turn) and makes the castle friendly; refusing costs 6 VP and his friendship."""
    t, s = king(table, 8)
    task = s.pk["tasks"][0]
    assert task["kind"] == "escort" and task["dest"] == "Edinburgh"
    assert task["awards"] == {"vp": 6, "per_turn": True}
    assert "Edinburgh" in s.pk["friendly"]
    assert s.pk["party_extra"][0]["name"] == "King Lot"
    t, s = king(table, 8, orders="on escort: no")
    assert s.pk["vp"] == 14 and met(t, "king")[0]["attitude"] == "neutral"
    t, s = king(table, 8, anna='gear = ["shield", "sword"]')
    assert t.saw("Without a horse") and s.pk["vp"] == 20


def test_e46_king_requests_aid(table):
    """King reaction 9: a request for aid; granted, he is friendly."""
    t, s = king(table, 9, D[12])
    assert met(t, "king")[0]["attitude"] == "friendly"


def test_e47_king_invites_to_castle(table):
    """King reaction 10: his castle is friendly whether or not the PK escorts him."""
    t, s = king(table, 10, orders="on escort invitation: no")
    assert "Edinburgh" in s.pk["friendly"] and not s.pk["tasks"]
    assert met(t, "king")[0]["attitude"] == "friendly"


def test_e48_king_grants_any_request(table):
    """King reaction 12: any one request, granted without a Luck Test (healing still takes
    his prayer: a VL test)."""
    t, s = king(table, 12, [6], anna="poison = 2", orders="on king_request: heal")
    assert not t.saw("Luck test") and s.pk["poison"] == 1
    t, s = king(table, 12, [3])
    assert t.saw("Anna asks King Lot for: Men-at-Arms") and s.pk["men_at_arms"]


def test_e49_defeated_king_goes_free(table):
    """Outcomes: a King cannot be slain; beaten, he is friendly on a VL check (and stays
    so), else neutral."""
    t, s = setup(table, "Powys", D[12] + KILL3 + [6, 6, 6, 1, 1, 1] * 2 + [6, 6],
                 cp=300, vp=60, extra=decks(kings=["King Pellam"], knights=["Sir Belleus"]),
                 orders="answer encounter: attack\non fate: free release", anna="on_foot = true")
    E.terrain_encounter(s, "Powys")
    assert t.saw("cannot be slain and goes free")


# ============================================================================== ladies
def lady(table, status, reaction=None, more=(), lady_name="Lady Enid", **kw):
    """Anna meets a lady in Powys: ``status`` is the company die (1-3 admirers, 4-5 alone, 6
    held by a knight); then her reaction (a 2d6 total) if given."""
    dice = D[9] + [status] + (D[reaction] if reaction else []) + list(more)
    t, s = setup(table, "Powys", dice, extra=kw.pop("extra", "") + decks(
        ladies=[lady_name], knights=["Sir Belleus", "Sir Gauter", "Sir Hemison"]), **kw)
    E.terrain_encounter(s, "Powys")
    return t, s


def test_e50_lady_company_roll(table):
    """Lady Encounters: outside her castle a die gives 1-3 admiring knights, alone (4-5), or
    held by a knight (6); she is revealed only after the PK's choice."""
    t, s = lady(table, 2, 7)
    assert t.saw("Lady met outside her castle: 2 -> Knights attend her")
    assert t.saw("The lady is Lady Enid") and met(t, "lady")[0]["alone"] is False
    t, s = lady(table, 4, 7)
    assert t.saw("-> Alone") and met(t, "lady")[0]["alone"] is True


def test_e51_distressed_lady_rescued(table):
    """Status 6: a knight of VL 6 or more holds her; she asks to be rescued (aid): beating him
    makes her friendly and earns 6 VP; refusing costs 6 VP."""
    t, s = lady(table, 6, None, KILL3 + [1, 1], extra="")
    assert t.saw("Lady Enid is held against her will by Sir Belleus")
    assert t.saw("Lady Enid is free") and met(t, "lady")[0]["attitude"] == "friendly"
    assert s.pk["vp"] == 20 + 6 + 6
    t, s = lady(table, 6, None, orders="on rescue_lady: no")
    assert s.pk["vp"] == 14 and met(t, "lady")[0]["attitude"] == "neutral"


def test_e52_enchantress_enchants_at_once(table):
    """Enchantresses: no reaction roll; she casts a spell (resisted on a VL check of the PK's
    VL plus her seduction adjustment); resisted, she is not friendly and leaves."""
    t, s = lady(table, 4, None, [6, 6], lady_name="Queen of North Wales")
    assert t.saw("is an Enchantress") and t.saw("resists")
    assert met(t, "lady")[0]["attitude"] == "unfriendly" and not t.saw("Lady reactions")
    t, s = lady(table, 4, None, [1, 1] + D[7], lady_name="Queen of North Wales")
    assert s.pk["lady"]["name"] == "Queen of North Wales"
    assert met(t, "lady")[0]["attitude"] == "friendly"


def test_e53_enchantress_sets_her_knights_on(table):
    """Enchantments: resisted, an escorted Enchantress orders her knights to attack; each one
    who resists her command (VL check of his VL + her adjustment) stands aside."""
    t, s = lady(table, 2, None, [6, 6] + [6, 6] + [1, 1] + KILL3 + [1, 1],
                lady_name="Queen of North Wales")
    assert t.saw("Furious, Queen of North Wales orders her knights to attack")
    assert t.saw("Combat: Anna (WL 10) against Sir Gauter")


def test_e54_own_lady_is_friendly(table):
    """The Lady the PK serves is friendly."""
    t, s = lady(table, 4, anna='lady = "Lady Enid"')
    assert t.saw("own Lady") and met(t, "lady")[0]["attitude"] == "friendly"


def test_e55_lady_suicide(table):
    """Lady reaction 2: in despair; a Luck Test saves her (friendly, 6 VP), else she dies and
    her card leaves the game."""
    t, s = lady(table, 4, 2, [5])
    assert s.pk["vp"] == 26 and met(t, "lady")[0]["attitude"] == "friendly"
    t, s = lady(table, 4, 2, [1])
    assert "Lady Enid" in t.state["decks"]["ladies"]["removed"] and not met(t, "lady")


def test_e56_lady_oath_and_trick(table):
    """Lady reactions 3 (an oath) and 4 (a trick)."""
    t, s = lady(table, 4, 3, D[2])
    assert s.pk["oaths"] == ["never_yield"]
    t, s = lady(table, 4, 4, [4])
    assert t.saw("sees through Lady Enid's trick")


def test_e57_lady_knights_defend(table):
    """Lady reaction 5: her knights attack; alone, she calls a champion. A victorious
    knight's fate uses her VL."""
    t, s = lady(table, 1, 5, KILL3 + [1, 1])
    assert t.saw("Lady Enid's knights ride at Anna")
    t, s = lady(table, 4, 5, [1, 1, 1, 6, 6, 6, 1], cp=20, vp=5)
    assert t.saw("calls her champion, Sir Belleus")
    assert t.saw("Knight's Fate: 1 +3 = 4") and t.saw("Knight's Fate for Anna from Lady Enid")
    assert not t.unused_dice


def test_e58_lady_seduces(table):
    """Lady reaction 6: seduction, resisted on a VL check of the PK's VL plus her adjustment;
    seduced, he enters her service (her award in CP, her VL lost in VP). A PK already seduced
    is ignored."""
    t, s = lady(table, 4, 6, [1, 1], lady_name="Lady Ettard")
    assert s.pk["lady"]["name"] == "Lady Ettard" and s.pk["lady"]["seduced"]
    assert s.pk["cp"] == 115 and s.pk["vp"] == 13
    t, s = lady(table, 4, 6, [6, 6], lady_name="Lady Ettard")
    assert t.saw("Anna resists her") and s.pk["lady"] is None
    t, s = lady(table, 4, 6, lady_name="Lady Ettard",
                anna='lady = {name = "Nimue", seduced = true, castle = "Castle of the Lake"}')
    assert t.saw("ignores him")


def test_e59_lady_escort_request(table):
    """Lady reaction 8: escort her to a town, port or shrine of a random kingdom (Logres and
    Strangore: London); aid: 6 VP on arrival; refused, 6 VP and she is not friendly."""
    t, s = lady(table, 4, 8, D[7] + [2])
    task = s.pk["tasks"][0]
    assert task["kind"] == "escort" and task["dest"] == "London"
    assert s.pk["party_extra"][0]["name"] == "Lady Enid"
    t, s = lady(table, 4, 8, D[7] + [2], orders="on escort: no")
    assert s.pk["vp"] == 14 and met(t, "lady")[0]["attitude"] == "neutral"


def test_e60_lady_aid_invitation_message(table):
    """Lady reactions 9 (aid), 10 (invites him to escort her home: her castle is placed and
    friendly either way), 11 (a message)."""
    t, s = lady(table, 4, 9, D[12])
    assert met(t, "lady")[0]["attitude"] == "friendly"
    t, s = lady(table, 4, 10, orders="on escort: no")
    assert "Castle Cardigan" in t.state["castles"] and "Castle Cardigan" in s.pk["friendly"]
    t, s = lady(table, 4, 11, D[9])
    assert t.saw("Messages:")


def test_e61_lady_offers_her_hand(table):
    """Lady reaction 12: she offers her service; a PK who serves a Lady must decline."""
    t, s = lady(table, 4, 12)
    assert s.pk["lady"]["name"] == "Lady Enid" and s.pk["cp"] == 110
    t, s = lady(table, 4, 12, anna='lady = "Nimue"')
    assert t.saw("must decline") and s.pk["lady"]["name"] == "Nimue"


def test_e62_attacking_a_lady(table):
    """Attacking a lone lady: slaying her costs 20 CP and 12 VP; an escorted lady's knights
    are fought first, and she is revealed after."""
    t, s = lady(table, 4, None, [6, 6, 6, 1], orders="answer encounter: attack")
    assert t.saw("Lady Enid is slain") and s.pk["vp"] == 8 and s.pk["cp"] == 80
    t, s = lady(table, 1, 7, KILL3 + [1, 1], orders="answer encounter: attack")
    assert t.saw("Her knights beaten, the lady stands revealed: Lady Enid")
    assert met(t, "lady")[0]["attitude"] == "neutral"


# ============================================================================== dwarves
def dwarf(table, reaction, more=(), **kw):
    """Anna meets a dwarf in Powys and awaits his reaction."""
    t, s = setup(table, "Powys", D[11] + D[reaction] + list(more),
                 extra=kw.pop("extra", "") + LOT, **kw)
    E.terrain_encounter(s, "Powys")
    return t, s


def test_e63_dwarf_tricks_into_faerie(table):
    """Dwarf reaction 2: the PK is tricked into Faerie, without the usual 12 points; his
    companions stay behind (an Arthurian Dwarf waits for him)."""
    t, s = dwarf(table, 2, anna='dwarf = "arthurian"\nmascot = "Badger"\ncomrades = ["Sir Kay"]')
    pk = s.pk
    assert pk["at"]["area"] == "Faerie" and pk["vp"] == 20 and pk["cp"] == 100
    assert pk["comrades"] == [] and pk["mascot"] and pk["reunite"]["dwarf"]["arthurian"]


def test_e64_dwarf_calls_a_king(table):
    """Dwarf reaction 3: a King arrives with as many knights as the PK's party; his reaction
    -1."""
    t, s = dwarf(table, 3, D[8])
    assert t.saw("King reactions: 4+4 = 8 -1 = 7")
    assert met(t, "king")[0]["attitude"] == "neutral"


def test_e65_dwarf_calls_brigands(table):
    """Dwarf reaction 4: six brigands attack."""
    t, s = dwarf(table, 4, KILL2 * 6, extra=draws(brigand=["Brigand 1"] * 6))
    assert t.saw("6 brigands fall upon Anna") and s.pk["cp"] == 106


def test_e66_dwarf_trick_message_aid_adventure(table):
    """Dwarf reactions 5 (trick), 6 (message), 8 (aid: friendly if granted), 9 (adventure)."""
    t, s = dwarf(table, 5, [6])
    assert t.saw("sees through the dwarf's trick")
    t, s = dwarf(table, 6, D[9])
    assert t.saw("Messages:") and met(t, "dwarf")[0]["attitude"] == "unfriendly"
    t, s = dwarf(table, 8, D[12])
    assert met(t, "dwarf")[0]["attitude"] == "friendly"
    t, s = dwarf(table, 9)
    assert s.pk["tasks"] and met(t, "dwarf")[0]["attitude"] == "friendly"


def test_e67_dwarf_offers_equipment(table):
    """Dwarf reaction 7: a mounted dwarf with a full set resupplies the PK (neutral, he does
    not join); attacked, he fights at +1."""
    t, s = dwarf(table, 7, anna='gear = ["horse", "sword"]')
    assert s.pk["gear"] == {g: True for g in kn.GEAR} and s.pk["dwarf"] is None
    assert met(t, "dwarf")[0]["attitude"] == "neutral"
    t, s = dwarf(table, 7, [6, 6, 6, 5, 6], orders="on dwarf_gear: attack")
    assert t.saw("Pass: Anna 18, the mounted dwarf 12")


def test_e68_dwarf_asks_to_serve(table):
    """Dwarf reaction 10: he joins as the PK's Dwarf, without spare equipment; if the PK has
    a Dwarf, the two fight (the loser dies) and a victorious stranger attacks the PK."""
    t, s = dwarf(table, 10)
    assert s.pk["dwarf"] == {"arthurian": False, "spares": []}
    t, s = dwarf(table, 10, [1, 1, 6, 6] + KILL2, anna="dwarf = true")
    assert t.saw("Anna's Dwarf is slain") and t.saw("the stranger dwarf is slain")
    t, s = dwarf(table, 10, [6, 6, 1, 1], anna="dwarf = true")
    assert t.saw("The stranger dwarf is slain") and s.pk["dwarf"]


def test_e69_dwarf_is_a_knight_in_disguise(table):
    """Dwarf reaction 11: a knight in disguise; his reaction +1."""
    t, s = dwarf(table, 11, D[7] + [6, 6])
    assert t.saw("he is Sir Belleus") and t.saw("Knight reactions: 3+4 = 7 +1 = 8")


def test_e70_dwarf_leads_to_castle(table):
    """Dwarf reaction 12: friendly; next turn he leads the PK to a local Lady's castle."""
    t, s = dwarf(table, 12)
    assert s.pk["next_turn"][0] == {"what": "led_to_castle", "due": 2, "area": "Powys",
                                    "by": "the dwarf"}


def test_e71_arthurian_dwarf_waiting_is_met_again(table):
    """An Arthurian Dwarf left behind is the first dwarf met afterwards."""
    t, s = setup(table, "Powys", D[11])
    s.pk["reunite"] = {"dwarf": {"arthurian": True, "spares": []}}
    E.terrain_encounter(s, "Powys")
    assert s.pk["dwarf"]["arthurian"] and t.saw("faithful Arthurian Dwarf")


# ============================================================================== hermits
def hermit(table, reaction, more=(), at="Powys", **kw):
    t, s = setup(table, at, D[10] + D[reaction] + list(more), **kw)
    E.terrain_encounter(s, at)
    return t, s


def test_e72_hermit_penance_rome(table):
    """Hermit reaction 2: a penance, to Rome by the shortest route (18 VP there); refusing
    costs 12 VP."""
    t, s = hermit(table, 2)
    task = s.pk["tasks"][0]
    assert task["dest"] == "Rome" and task["awards"] == {"vp": 18} and task["penalty_vp"] == 12
    t, s = hermit(table, 2, orders="on penance: refuse")
    assert s.pk["vp"] == 8 and met(t, "hermit")[0]["attitude"] == "neutral"


def test_e73_hermit_oath_trick_prophecy(table):
    """Hermit reactions 3 (oath), 5 (trick: escaping a hermit's trick earns 6 VP), 6
    (prophecy)."""
    t, s = hermit(table, 3, D[4])
    assert s.pk["oaths"] == ["always_help_ladies"]
    t, s = hermit(table, 5, [6])
    assert s.pk["vp"] == 26
    t, s = hermit(table, 6)
    assert any(task.get("prophecy") for task in s.pk["tasks"])


def test_e74_druid(table):
    """Hermit reaction 4: a Druid enchants (+3); resisted, the PK may attack him (no award, no
    penalty; the Druid slays him if he wins)."""
    t, s = hermit(table, 4, [6, 6, 6, 6, 6, 1], orders="on attack_druid: yes")
    assert t.saw("The Druid the druid is slain") and s.pk["vp"] == 20 and s.pk["cp"] == 100
    t, s = hermit(table, 4, [1, 1] + D[9])
    assert s.pk["poison"] == 1


def test_e75_hermit_services(table):
    """Hermit reaction 7: serving him a turn: no movement and no encounter next turn, 1 VP,
    and he is friendly then."""
    t = table(pos(at="Powys"), dice=[4, 1] + D[10] + D[7], orders={"Anna": "stay"})
    assert t.play()
    next_turn(t, [4], {"Anna": "move Dyfed"})
    assert t.play()
    pk = t.knight()
    assert pk["at"]["area"] == "Powys" and pk["vp"] == 21
    assert t.saw("spends the turn in prayer with the hermit")


def test_e76_hermit_scourging(table):
    """Hermit reaction 9: scourging at the start of next turn: a die gives the most poisoned
    wounds; 3 VP each."""
    t = table(pos(at="Powys"), dice=[4, 1] + D[10] + D[9], orders={"Anna": "stay"})
    assert t.play()
    next_turn(t, [4, 5, 6], {"Anna": "on scourge: 2\nstay"})
    assert t.play()
    pk = t.knight()
    assert pk["poison"] == 2 and pk["vp"] == 26


def test_e77_hermit_fasting(table):
    """Hermit reaction 10: fasting from next turn (3 VP a turn, combat rolls halved), up to
    six turns, ended at the end of any turn."""
    t = table(pos(at="Powys"), dice=[4, 1] + D[10] + D[10], orders={"Anna": "stay"})
    assert t.play()
    next_turn(t, [4, 6], {"Anna": "stay"})
    assert t.play()
    assert t.knight()["fasting"]["turns"] == 1 and t.knight()["vp"] == 23
    next_turn(t, [4, 6], {"Anna": "answer fast_on: yes\nstay"})
    assert t.play()
    assert t.knight()["fasting"]["turns"] == 2 and t.knight()["vp"] == 26
    next_turn(t, [4, 6], {"Anna": "stay"})
    assert t.play()
    assert t.knight()["fasting"] is None and t.saw("ends his fast")


def test_e78_hermit_pilgrimage(table):
    """Hermit reaction 11: a pilgrimage to a random shrine (12 VP there)."""
    t, s = hermit(table, 11, [3])
    task = s.pk["tasks"][0]
    assert task["kind"] == "pilgrimage" and task["dest"] == "Llanthony"
    assert task["awards"] == {"vp": 12}


def test_e79_hermit_heals_or_releases(table):
    """Hermit reaction 12: he cures all poisoned wounds, or lifts one enchantment, or frees
    the PK from an Enchantress (Morgan too), or from one oath: the PK chooses."""
    t, s = hermit(table, 12, anna="poison = 3")
    assert s.pk["poison"] == 0
    t, s = hermit(table, 12, anna='oaths = ["never_yield", "do_not_eat"]',
                  orders="on hermit_boon: release from oath\non release_oath: do_not_eat")
    assert s.pk["oaths"] == ["never_yield"]
    t, s = hermit(table, 12, anna='lady = "Queen Sebile"')
    assert s.pk["lady"] is None


def test_e80_shrine_hermit_unavoidable_no_combat(table):
    """Shrine Encounters: the hermit cannot be avoided, and no combat happens at a shrine."""
    t, s = setup(table, "Canterbury", D[8] + D[7], orders="on encounter: avoid")
    E.terrain_encounter(s, "Canterbury")
    assert not t.saw("Luck test") and t.saw("Hermit reactions")
    assert [d["kind"] for d in t.ctx.decisions] == ["hermit_services"]
    t, s = setup(table, "Canterbury", D[8] + D[4] + [6, 6])
    E.terrain_encounter(s, "Canterbury")
    assert t.saw("No blood may be shed at the shrine")


def test_e80b_outside_carbonek_its_holy_place_meets_as_a_shrine(table):
    """Mad Player Knights: a madman's Arthurian Dwarf carries him to the nearest shrine; taken
    to Carbonek (a castle and a shrine), he stands in its area, outside the castle. An
    encounter there is the shrine's (the Goodly Hermit, unavoidable), as his encounter roll
    already was (a 1 only); before, the turn failed on "no terrain encounter in Carbonek
    (castle)" (random play, seed 80468), so no stored game has it and no edition is needed."""
    t, s = setup(table, "Carbonek", D[8] + D[7], orders="on encounter: avoid")
    assert s.pk["at"] == {"area": "Carbonek", "where": "area"}
    E.terrain_encounter(s, "Carbonek")
    assert not t.saw("Luck test") and t.saw("Hermit reactions")


def test_e81_slaying_a_hermit(table):
    """Outcomes: slaying a Goodly Hermit Man costs 12 VP."""
    t, s = setup(table, "Powys", D[10] + [6, 6, 6, 1], orders="answer encounter: attack")
    E.terrain_encounter(s, "Powys")
    assert t.saw("The hermit is slain") and s.pk["vp"] == 8


# ============================================================================== forests
def test_e82_lost_in_the_forest(table):
    """Forest 8-9: lost; next turn an encounter comes on 1-3, and without one he finds his way
    out (and may leave)."""
    t = table(pos(at="Bedgebury Forest"), dice=[4, 1] + D[8], orders={"Anna": "stay"})
    assert t.play()
    assert t.knight()["lost"] and t.saw("loses his way")
    next_turn(t, [4, 5, 6, 6], {"Anna": "move Kent"})
    assert t.play()
    assert not t.knight()["lost"] and t.saw("finds the way out")
    assert t.knight()["at"]["area"] == "Kent"
    t = table(pos(at="Bedgebury Forest", anna="lost = true"), dice=[4, 2] + D[8],
              orders={"Anna": "move Kent"})
    assert t.play()
    assert t.knight()["at"]["area"] == "Bedgebury Forest" and t.knight()["lost"]


def test_e83_wood_nymph(table):
    """Forest 12: the Wood Nymph may be avoided (Luck Test); otherwise he lingers 1-6 turns and
    is cured of poisoned wounds, freed of oaths, enchantments and an Enchantress's service,
    and no longer lost."""
    t, s = setup(table, "Bedgebury Forest", D[12] + [3],
                 anna='poison = 2\noaths = ["never_yield"]\nlady = "Queen Sebile"\nlost = true')
    s.pk["enchantments"] = [{"key": "sleep", "by": "someone", "turns": 1}]
    E.terrain_encounter(s, "Bedgebury Forest")
    pk = s.pk
    assert pk["immobile"] == [{"why": "beguiled by a wood nymph", "turns": 3}]
    assert pk["poison"] == 0 and pk["oaths"] == [] and pk["lady"] is None
    assert pk["enchantments"] == [] and not pk["lost"]
    t, s = setup(table, "Bedgebury Forest", D[12] + [6], orders="on encounter: avoid")
    E.terrain_encounter(s, "Bedgebury Forest")
    assert t.saw("avoids a wood nymph") and not s.pk["immobile"]


def test_e84_forest_monster_animal_brigands_mad(table):
    """Forest 2-5 Monster, 6-7 Animal, 10 Brigands (1-6), 11 Mad Knight."""
    for dice, seen in ((D[4] + KILL3, "Lion is slain"), (D[6] + D[9], "tells of an adventure"),
                       (D[10] + [1] + KILL2, "1 brigand falls upon Anna"),
                       (D[11] + KILL2, "The mad knight is Sir Belleus")):
        t, s = setup(table, "Bedgebury Forest", dice, extra=draws(
            monster=["Lion 5"], animal=["Wolf 5"], brigand=["Brigand 1"]) + KNIGHTS)
        E.terrain_encounter(s, "Bedgebury Forest")
        assert t.saw(seen), seen


# ============================================================================== rivers
def test_e85_river_knight_waits(table):
    """River 2-7: a knight waiting for an opponent attacks; avoided, he is still there if the
    PK tries to cross next turn (turning back is free)."""
    t = table(pos(at="Hampshire", extra=KNIGHTS), dice=[4, 1] + D[5] + [5],
              orders={"Anna": "move Thames, Surrey\nanswer encounter: avoid"})
    assert t.play()
    assert t.knight()["at"]["area"] == "Thames"
    assert t.knight()["river_block"]["kind"] == "knight"
    next_turn(t, [4] + KILL3 + [1, 1], {"Anna": "move Surrey"})
    assert t.play()
    assert t.saw("The knight who guards the crossing of Thames is still there")
    assert t.knight()["at"]["area"] == "Thames" and t.knight()["cp"] == 104
    t = table(pos(at="Hampshire", extra=KNIGHTS), dice=[4, 1] + D[5] + [5],
              orders={"Anna": "move Thames, Surrey\nanswer encounter: avoid"})
    t.play()
    next_turn(t, [4, 6], {"Anna": "move Hampshire"})
    assert t.play() and t.knight()["at"]["area"] == "Hampshire"
    assert "Sir Belleus" in t.state["decks"]["knights"]["discard"] + \
        t.state["decks"]["knights"]["draw"]


def test_e86_river_knight_fought(table):
    """River 2-7 awaited: the knight attacks; a beaten PK suffers a Knight's Fate."""
    t, s = setup(table, "Thames", D[2] + [1, 1, 1, 6, 6, 6, 1], cp=20, vp=5, extra=KNIGHTS)
    E.terrain_encounter(s, "Thames")
    assert t.saw("Knight's Fate for Anna from Sir Belleus")


def test_e87_avoided_river_encounter_rolls_again(table):
    """Movement, Rivers: an avoided encounter means the river is not crossed; crossing next
    turn needs another encounter roll there."""
    t = table(pos(at="Hampshire", extra=WOLF), dice=[4, 1] + D[8] + [5],
              orders={"Anna": "move Thames, Surrey\nanswer encounter: avoid"})
    assert t.play()
    assert t.knight()["river_block"]["kind"] == "avoided"
    next_turn(t, [4, 3, 6], {"Anna": "move Surrey"})
    assert t.play()
    assert t.saw("Crossing Thames again: 3") and t.knight()["at"]["area"] == "Surrey"


def test_e88_flooded_river(table):
    """River 10: the river is in flood: next turn he must turn back or wait."""
    t = table(pos(at="Hampshire"), dice=[4, 1] + D[10],
              orders={"Anna": "move Thames, Surrey"})
    assert t.play()
    next_turn(t, [4], {"Anna": "move Surrey"})
    assert t.play()
    assert t.saw("still in flood") and t.knight()["at"]["area"] == "Thames"
    next_turn(t, [4, 6], {"Anna": "move Surrey"})
    assert t.play() and t.knight()["at"]["area"] == "Surrey"


def test_e89_highwayman(table):
    """River 9: a mounted robber (WL from a Knight card; 2 dice + 1) who robs a beaten PK; he
    is no knight (no appeal to chivalry) but does suffer the loss of his shield."""
    t, s = setup(table, "Thames", D[9] + [1, 1, 1, 6, 6], cp=10, vp=2, extra=KNIGHTS)
    E.terrain_encounter(s, "Thames")
    assert t.saw("A mounted highwayman (WL 4)") and t.saw("Pass: Anna 3, the highwayman 13")
    assert s.pk["gear"] == {g: False for g in kn.GEAR}
    t, s = setup(table, "Thames", D[9] + KILL2, extra=KNIGHTS)
    E.terrain_encounter(s, "Thames")
    assert t.saw("the highwayman is slain") and s.pk["cp"] == 104


def test_e90_troll(table):
    """River 11: a Troll (WL 8) first tries a trick; escaped, it attacks (three dice)."""
    t, s = setup(table, "Thames", D[11] + [5] + [6, 6, 6, 1, 1, 1] * 2)
    E.terrain_encounter(s, "Thames")
    assert t.saw("Its trick foiled, the troll attacks")
    assert s.pk["cp"] == 108 and s.pk["vp"] == 28
    t, s = setup(table, "Thames", D[11] + [1] + D[7])
    E.terrain_encounter(s, "Thames")
    assert t.saw("tricked into telling a lie") and not t.saw("the troll attacks")


def test_e91_lady_bathing(table):
    """River 12: a Lady surprised at her bath: shown at once, no avoiding, reaction -1 (1
    counts as 2)."""
    t, s = setup(table, "Thames", D[12] + D[2] + [5], extra=decks(ladies=["Lady Enid"]),
                 orders="on encounter: avoid")
    E.terrain_encounter(s, "Thames")
    assert t.saw("comes upon Lady Enid bathing")
    assert t.saw("Lady reactions: 1+1 = 2 -1 = 1 (counts as 2)")
    assert not t.saw("avoids")


# ============================================================================== towns
KNIGHT_NAMES = ["Sir Belleus", "Sir Gauter", "Sir Hemison", "Sir Miles of the Launds",
                "Sir Arnold le Breuse", "Sir Galagars"]


def town(table, result, more=(), ladies=("Lady Ettard", "Lady Enid"), **kw):
    """Anna meets the town of London's encounter ``result`` (2d6)."""
    t, s = setup(table, "London", D[result] + list(more), extra=kw.pop("extra", "") + decks(
        knights=KNIGHT_NAMES, ladies=list(ladies), kings=["King Lot"]), **kw)
    E.terrain_encounter(s, "London")
    return t, s


def test_e92_town_cannot_be_avoided(table):
    """Town Encounters may not be avoided; town combat is on foot with swords."""
    t, s = town(table, 5, [1] + D[7], orders="on encounter: avoid")
    assert not t.saw("Luck test (avoid")
    assert [(d["kind"], d["answer"]) for d in t.ctx.decisions][0] == ("encounter", "await")
    t, s = town(table, 4, [1] + [6, 6, 1, 1], extra=draws(brigand=["Brigand 1"]))
    assert t.saw("Pass: Anna 12, brigand 1 2")


def test_e93_plague(table):
    """Town 2: the plague takes 10-60 CP."""
    t, s = town(table, 2, [3])
    assert s.pk["cp"] == 70


def test_e94_town_watch(table):
    """Town 3: six watchmen; a VL test clears the PK; else he submits (prison) or resists (3 VP
    and a fight with swords on foot against six brigand chits; beaten, prison)."""
    t, s = town(table, 3, [6])
    assert t.saw("satisfied") and not s.pk["prison"]
    t, s = town(table, 3, [1])
    assert s.pk["prison"]["castle"] == "London" and s.pk["at"]["where"] == "prison"
    t, s = town(table, 3, [1] + [6, 6, 1, 1] * 6, orders="on watchmen: resist",
                extra=draws(brigand=["Brigand 1"] * 6))
    assert s.pk["vp"] == 17 and s.pk["cp"] == 106 and s.pk["town_watch"]["town"] == "London"


def test_e95_watch_returns_if_he_stays(table):
    """Killing a Lady, a Priest or a Dwarf inside a town, or beating the watch, brings the watch
    back next turn if he stays."""
    t = table(pos(at="London", extra=KNIGHTS), dice=[4, 1] + D[11] + [6, 6, 1],
              orders={"Anna": "stay\nanswer encounter: attack"})
    assert t.play()
    assert t.knight()["town_watch"] == {"town": "London", "turn": 1}
    next_turn(t, [4, 6], {"Anna": "stay"})
    assert t.play()
    assert t.saw("The watch of London comes looking for Anna")
    assert t.saw("satisfied")


def test_e96_wanton_lady(table):
    """Town 6: a lady of VL 6 or more tries to seduce the PK at once (VL check of his VL + her
    adjustment to resist)."""
    t, s = town(table, 6, [6, 6])
    assert t.saw("It is Lady Ettard (VL 7)") and t.saw("Anna resists her")
    t, s = town(table, 6, [1, 1])
    assert s.pk["lady"]["name"] == "Lady Ettard" and s.pk["lady"]["seduced"]


def test_e97_beggars_priest_children(table):
    """Town 7 beggars (a nuisance), 9 a Priest (the hermit's chart), 10 children (the next
    turn is lost; 3 VP)."""
    t, s = town(table, 7)
    assert t.saw("Beggars cling") and met(t, "beggars")
    t, s = town(table, 9, D[8])
    assert t.saw("Hermit reactions") and met(t, "hermit")[0]["card"]["priest"]
    t, s = town(table, 10)
    assert s.pk["immobile"] == [{"why": "telling stories to the town's children", "turns": 1,
                                 "vp_per_turn": 3}]


def test_e98_lady_with_three_knights(table):
    """Town 8: on a 1 the three knights (VL 6+) mistreat the lady, who asks for help (beaten,
    she is friendly); otherwise they escort her and she reacts normally."""
    t, s = town(table, 8, [2] + D[7], ladies=["Lady Enid"])
    assert t.saw("The lady is Lady Enid") and met(t, "lady")[0]["alone"] is False
    t, s = town(table, 8, [1] + [6, 6, 1, 1] * 3 + [1, 1] * 3, cp=200, vp=40,
                ladies=["Lady Enid"])
    assert t.saw("Lady Enid is free") and met(t, "lady")[0]["attitude"] == "friendly"


def test_e99_town_dwarf_and_king(table):
    """Town 11 Dwarf, 12 King and his knights."""
    t, s = town(table, 11, D[9])
    assert t.saw("Dwarf reactions")
    t, s = town(table, 12, D[7])
    assert t.saw("It is King Lot")


# ============================================================================== the sea
def sea(table, result, more=(), sea_area="Narrow Sea", previous="Hampshire", **kw):
    """Anna aboard a Cog (crew 10) meets the sea."""
    t, s = setup(table, sea_area, D[result] + list(more), where="ship", **kw)
    s.pk["ship"] = {"kind": "ship", "name": "Cog", "wl": 10, "dice": 2}
    key = E.sea_encounter(s, sea_area, previous)
    return t, s, key


def test_e100_sea_monster(table):
    """Sea 2 and 12: an unavoidable monster (a monster chit); aboard, swords only and no combat
    events. A defeated PK escapes on a Luck Test, as a castaway; else it devours him."""
    t, s, key = sea(table, 12, [6, 6, 1, 1, 1], extra=draws(monster=["Lion 5"]),
                    orders="on encounter: avoid")
    assert t.saw("Pass: Anna 12, Sea Lion 3") and not t.unused_dice
    assert t.saw("A Sea Lion (WL 5) rises") and t.saw("Sea Lion is slain")
    assert s.pk["cp"] == 105 and s.pk["vp"] == 25
    t, s, key = sea(table, 2, [1, 1, 6, 6, 6] * 2 + [5], cp=10, vp=2,
                    extra=draws(monster=["Dragon 25"]))
    assert t.saw("the crew of the Cog falls")
    assert t.saw("escapes the Sea Dragon") and s.pk["at"]["where"] == "coast"
    t, s, key = sea(table, 2, [1, 1, 6, 6, 6] * 2 + [1], cp=10, vp=2,
                    extra=draws(monster=["Dragon 25"]))
    assert t.saw("The Sea Dragon devours Anna") and not t.unused_dice


def test_e101_ships_crew_fights_on(table):
    """Combat Aboard Ships: once the PK (and his party) is down, the crew fights as one with
    two dice."""
    t, s, key = sea(table, 2, [1, 1, 6, 6, 6] + [6, 6, 1, 1, 1], cp=10, vp=2,
                    extra=draws(monster=["Lion 5"]))
    assert t.saw("the crew of the Cog fights Sea Lion") and t.saw("his side won")
    assert not s.pk["slain"] and s.pk["at"]["where"] == "ship"


def test_e102_shipwreck(table):
    """Sea 3: equipment, companions, comrades and ship are lost; washed up on the nearest
    coast outside Britain (on the North Sea: a wasteland); a lost Mascot is found again at
    the next animal encounter."""
    t, s, key = sea(table, 3, anna='mascot = "Badger"\ndwarf = true\ncomrades = ["Sir Kay"]')
    pk = s.pk
    assert pk["gear"] == {g: False for g in kn.GEAR} and pk["dwarf"] is None
    assert pk["comrades"] == [] and pk["mascot"] is None
    assert pk["reunite"]["mascot"]["name"] == "Badger" and "ship" not in pk
    where = pk["at"]["area"]
    assert pk["at"]["where"] == "coast"
    assert t.world.areas[where].kingdoms[0] in ("Benwick", "Gaul", "Brittany")
    t, s, key = sea(table, 3, sea_area="North Sea", previous="Kent")
    assert t.world.areas[s.pk["at"]["area"]].kind == "wasteland"
    t, s, key = sea(table, 3, sea_area="Western Ocean", previous="Argyll")
    assert t.world.kingdoms[t.world.areas[s.pk["at"]["area"]].kingdoms[0]].overseas
    t, s = setup(table, "Powys", D[4], anna='mascot = "Boar"')
    s.pk["mascot"] = None
    s.pk["reunite"] = {"mascot": {"name": "Badger", "wl": 1}}
    E.terrain_encounter(s, "Powys")
    assert s.pk["mascot"]["name"] == "Badger" and t.saw("lost Badger")


def test_e103_storm_becalmed_calm_winds(table):
    """Sea 4 storm (back where the ship started the turn), 5 becalmed (next turn lost), 6-8
    nothing, 9 good winds (one more move, without a sea encounter)."""
    t, s, key = sea(table, 4)
    assert key == "storm" and s.pk["at"] == {"area": "Hampshire", "where": "ship"}
    t, s, key = sea(table, 5)
    assert s.pk["immobile"] == [{"why": "becalmed at sea", "turns": 1}]
    t, s, key = sea(table, 7)
    assert key == "calm_passage" and s.pk["at"]["area"] == "Narrow Sea"
    t = table(pos(at="Hampshire", where="ship"),
              dice=[4] + D[9], orders={"Anna": "sail Narrow Sea then Brittany"})
    t.knight()["ship"] = {"kind": "ship", "name": "Cog", "wl": 10, "dice": 2}
    assert t.play()
    assert t.knight()["at"] == {"area": "Brittany", "where": "ship"}


def test_e104_lady_stowaway(table):
    """Sea 10: a lady hidden aboard; her reaction rolled normally; her champion is disguised
    as a sailor."""
    t, s, key = sea(table, 10, D[5] + KILL3[:3] + [1, 1] + [1, 1],
                    extra=decks(ladies=["Lady Enid"], knights=["Sir Belleus"]))
    assert t.saw("A lady has hidden herself aboard") and t.saw("disguised as a sailor")


def test_e105_pirates(table):
    """Sea 11: ten brigand chits attack; victorious, they rob the PK and set him ashore on the
    nearest coast outside Britain."""
    t, s, key = sea(table, 11, [1, 1, 6, 6] * 11, cp=10, vp=2,
                    extra=draws(brigand=["Brigand 1"] * 10))
    assert t.saw("Pirates board Anna's ship: 10 of them")
    assert s.pk["gear"] == {g: False for g in kn.GEAR} and s.pk["at"]["where"] == "coast"
    t, s, key = sea(table, 11, [6, 6, 1, 1] * 10, cp=280, vp=50,
                    extra=draws(brigand=["Brigand 1"] * 10))
    assert s.pk["cp"] == 290 and s.pk["at"]["where"] == "ship" and not t.unused_dice


# ============================================================================== castles
def castle(table, result=None, more=(), at="Tintagel", persisting=False, **kw):
    """Anna rides up to a castle that is not friendly to her (her Lord is King Lot)."""
    t, s = setup(table, at, (D[result] if result else []) + list(more), where="gate",
                 lord=kw.pop("lord", "King Lot"), extra=kw.pop("extra", "") + decks(
                     knights=KNIGHT_NAMES, ladies=["Lady Enid"]), **kw)
    s.pk["at"] = {"area": at, "where": "area"}
    admitted = E.castle_encounter(s, at, persisting=persisting)
    return t, s, admitted


def test_e106_friendly_castle_admits_and_reequips(table):
    """Friendly Castles: no reaction roll; all missing equipment replaced, the Dwarf's spare
    set too; no encounters inside."""
    t, s, admitted = castle(table, at="Edinburgh",
                            anna='gear = ["sword"]\ndwarf = true')
    assert admitted and s.pk["at"] == {"area": "Edinburgh", "where": "inside"}
    assert s.pk["gear"] == {g: True for g in kn.GEAR}
    assert s.pk["dwarf"]["spares"] == list(kn.GEAR)
    assert not t.unused_dice


def test_e107_lordless_knight_gets_a_sword(table):
    """A PK without a Lord is given only a sword at a friendly castle (his Dwarf nothing)."""
    t, s, admitted = castle(table, at="Tintagel", lord=None, anna='gear = ["horse"]\n'
                            'dwarf = true\nfriendly = ["Tintagel"]')
    assert admitted and s.pk["gear"] == {"horse": True, "shield": False, "lance": False,
                                         "sword": True}
    assert s.pk["dwarf"]["spares"] == []


def test_e108_castle_monster(table):
    """Castle 2: a monster lurks; it may be avoided; beaten, the castle is friendly."""
    t, s, admitted = castle(table, 2, KILL3, extra=draws(monster=["Lion 5"]))
    assert admitted and "Tintagel" in s.pk["friendly"]
    t, s, admitted = castle(table, 2, [6], extra=draws(monster=["Lion 5"]),
                            orders="on encounter: avoid")
    assert not admitted and s.pk["at"]["where"] == "gate"


def test_e109_castle_knights_attack(table):
    """Castle 3: 1-6 knights ride out (at Camelot all Arthurian); all beaten, the castle is
    friendly; beaten, a Knight's Fate."""
    t, s, admitted = castle(table, 3, [1] + KILL3 + [1, 1])
    assert admitted and t.saw("Knights ride out of Tintagel against Anna: Sir Belleus.")
    t, s, admitted = castle(table, 3, [1, 1, 1, 1, 6, 6, 6, 1], at="Camelot Castle",
                            cp=20, vp=5)
    assert not admitted       # the common knights on top of the deck are passed over
    assert t.saw("Knights ride out of Camelot Castle against Anna: Sir Galahad")
    assert t.saw("Knight's Fate for Anna from Sir Galahad")


def test_e110_castle_trick_message(table):
    """Castle 4 (a trick) and 5 (a message): the castle stays unfriendly."""
    t, s, admitted = castle(table, 4, [6])
    assert not admitted and t.saw("sees through King Mark's trick")
    t, s, admitted = castle(table, 5, D[9])
    assert not admitted and t.saw("Messages:")


def test_e111_castle_tests_virtue(table):
    """Castle 6: a VL test; passed, friendly; failed (or refused): 3 VP, sent back into the
    countryside to roll for an encounter before trying again."""
    t, s, admitted = castle(table, 6, [6])
    assert admitted
    t, s, admitted = castle(table, 6, [1, 6])
    assert not admitted and s.pk["vp"] == 17
    assert s.pk["at"] == {"area": "Cornwall", "where": "area"}
    assert t.saw("Encounter roll in Cornwall: 6")


def test_e112_lord_not_home_and_persistence(table):
    """Castle 7: the lord is away (neutral). Trying again from the gate adds 1 a turn of
    persistence."""
    t, s, admitted = castle(table, 7)
    assert not admitted and s.pk["persistence"]["castle:Tintagel"] == 1
    s.pk["at"] = {"area": "Tintagel", "where": "gate"}
    t.chance._dice = [4, 5]
    t.chance._dice_used = 0
    assert E.castle_encounter(s, "Tintagel", persisting=True)
    assert t.saw("Castle reactions: 4+5 = 9 +1 = 10")
    assert "castle:Tintagel" not in s.pk["persistence"]


def test_e113_castle_champion(table):
    """Castle 8: the castle's champion (a knight who has not met the PK in a challenge)
    offers a challenge; won, the castle is friendly."""
    t, s, admitted = castle(table, 8, [6, 6, 6, 1, 1, 1], anna='challenged = ["Sir Belleus"]',
                            orders="on accept_challenge: yes")
    assert t.saw("sends out its champion, Sir Gauter") and admitted
    t, s, admitted = castle(table, 8)
    assert not admitted and t.saw("declines; the gate stays shut")


def test_e114_castle_friendly_results(table):
    """Castle 9 (tells of an adventure), 10 (friendship), 11 (its knights ride with the PK on
    an adventure), 12 (a gateway to Faerie, used next turn)."""
    t, s, admitted = castle(table, 9)
    assert admitted and s.pk["tasks"] and "Tintagel" in s.pk["friendly"]
    t, s, admitted = castle(table, 10)
    assert admitted and t.saw("Tintagel welcomes Anna")
    t, s, admitted = castle(table, 11, D[3] + [1] + [1])
    assert admitted and [c["name"] for c in s.pk["comrades"]] == ["Sir Belleus"]
    assert t.saw("Sir Belleus rides with Anna as a comrade")
    t, s, admitted = castle(table, 12, orders="on gateway: yes")
    assert admitted and s.pk["next_turn"][0]["what"] == "gateway"


def test_e115_gateway_next_turn(table):
    """Castle 12 accepted: next turn the PK passes into Faerie (12 VP or CP)."""
    t = table(pos(at="Cornwall", lord="King Lot"), dice=[4] + D[12],
              orders={"Anna": "move Tintagel\non gateway: yes"})
    assert t.play()
    next_turn(t, [4], {"Anna": "stay"})
    assert t.play()
    assert t.knight()["at"]["area"] == "Faerie" and t.knight()["vp"] == 32


def test_e116_camelot_is_friendly_only_for_the_visit(table):
    """Camelot Castle: a friendly reaction lasts only while the PK stays inside."""
    t, s, admitted = castle(table, 10, at="Camelot Castle")
    assert admitted and "Camelot Castle" not in s.pk["friendly"]
    assert t.saw("Camelot Castle receives Anna for as long as he stays")


def test_e117_outlawed_castle_is_not_friendly(table):
    """Messages 4: a castle that outlawed the PK is neutral again (not his Lord's)."""
    t, s, admitted = castle(table, 7, anna='friendly = ["Tintagel"]\noutlawed = ["Tintagel"]')
    assert not admitted and t.saw("Castle reactions")


def test_e118_castle_port_from_a_ship(table):
    """Ship Movement: a castle's port is entered only after a friendly reaction."""
    t = table(pos(at="Test", where="ship", lord="King Lot"), dice=[4] + D[7],
              orders={"Anna": "sail Camelot Castle"})
    t.knight()["ship"] = {"kind": "ship", "name": "Cog", "wl": 10, "dice": 2}
    assert t.play()
    assert t.knight()["at"] == {"area": "Test", "where": "ship"}
    t = table(pos(at="Test", where="ship"), dice=[4], orders={"Anna": "sail Camelot Castle"})
    t.knight()["ship"] = {"kind": "ship", "name": "Cog", "wl": 10, "dice": 2}
    assert t.play()
    assert t.knight()["at"] == {"area": "Camelot Castle", "where": "ship"}


def test_e119_placed_castle_entered_from_its_area(table):
    """A castle counter (a Lady's castle) is entered from the area it stands in ('enter', a
    move), and left into that area."""
    extra = '\n[castles]\n"Castle Perilous" = {area = "Powys", owner = "Lady Lyonesse", ' \
            'kind = "lady"}\n'
    t = table(pos(at="Powys", anna='lady = "Lady Lyonesse"', extra=extra), dice=[4],
              orders={"Anna": "enter"})
    assert t.play()
    assert t.knight()["at"] == {"area": "Powys", "where": "inside", "castle": "Castle Perilous"}
    next_turn(t, [4, 6, 6], {"Anna": "move Powys, Dyfed"})
    assert t.play()
    assert t.knight()["at"] == {"area": "Dyfed", "where": "area"}
    t = table(pos(at="Powys", extra=extra), dice=[4] + D[7], orders={"Anna": "enter"})
    assert t.play()
    assert t.knight()["at"] == {"area": "Powys", "where": "gate", "castle": "Castle Perilous"}
    next_turn(t, [4] + D[9], {"Anna": "stay"})
    assert t.play()
    assert t.saw("Castle reactions: 4+5 = 9 +1 = 10")
    assert t.knight()["at"]["where"] == "inside"


def test_e120_pk_castle_lord_not_home(table):
    """Player Knight Castles: another PK's castle gives 'Lord not home' while its owner is
    away."""
    extra = '\n[castles]\n"Bert\'s castle" = {area = "Powys", owner = "Bert", kind = "pk"}\n'
    t, s = setup(table, "Powys", [], extra=extra, others={"Bert": 'at = "Kent"'})
    assert not E.castle_encounter(s, "Bert's castle")
    assert t.saw("The lord of Bert's castle is away") and not t.saw("Castle reactions")


# ============================================================================== Merlin
def merlin(table, at="Hampshire", dice=(), merlin_area="Hampshire", who=None, **kw):
    t, s = setup(table, at, dice, **kw)
    t.state["merlin"] = {"area": merlin_area, "who": who}
    return t, s


def test_e121_merlin_or_morgan_fixed_for_the_turn(table):
    """Merlin/Morgan: the first PK to meet the counter in a game turn rolls who it is (1-3
    Morgan, 4-6 Merlin); it stays so for the game turn."""
    t, s = merlin(table, dice=[5] + D[7] + [1, 3], others={"Bert": 'at = "Hampshire"'})
    E.merlin_encounter(s)
    assert t.state["merlin"]["who"] == "merlin" and t.saw("It is Merlin.")
    assert s.pk["met_merlin"]
    bert = t.session("Bert")
    bert.pk["luck"] = 4
    t.chance._dice = [1, 1] + [6, 6]
    t.chance._dice_used = 0
    E.merlin_encounter(bert)
    assert t.saw("Merlin reactions: 1+1 = 2") and len([e for e in t.events
                                                        if "Merlin or Morgan?" in e]) == 1


def test_e121b_meeting_merlin_where_the_turn_begins_says_the_moves_are_not_made(table):
    """Merlin/Morgan: a PK in their area at the start of his turn meets them and does not get
    to move; his report says the moves he ordered are not made (before, they silently were
    not). Without any movement ordered it says 'No movement ordered', not 'No orders'."""
    from companion.koc.engine.movement import movement_phase

    t, s = merlin(table, dice=[5] + D[7], who=None, orders="move Somerset")
    movement_phase(s, dict(s.pk["at"]))
    assert t.saw("Having met the enchanter where his turn began, Anna makes none of the moves")
    assert s.pk["at"]["area"] == "Hampshire"
    t, s = setup(table, "Hampshire", [6], orders="request dwarf of king")
    movement_phase(s, dict(s.pk["at"]))
    assert t.saw("No movement ordered: Anna stays where he is.") and not t.saw("No orders")


def test_e122_avoiding_merlin_depends_on_the_place(table):
    """In a castle, town, aboard or in prison he cannot be avoided; in a shrine, on a coast or
    a river he is avoided at will; elsewhere by a Luck Test (Arthurians lose 6 VP for it)."""
    t, s = merlin(table, dice=[2, 5] + D[3], orders="on encounter merlin: avoid",
                  anna="arthurian = true")
    E.merlin_encounter(s)
    assert t.saw("cannot escape the meeting") and s.pk["vp"] == 14
    t, s = merlin(table, at="Camelot Town", dice=[2, 1, 1] + D[9],
                  orders="on encounter merlin: avoid")
    E.merlin_encounter(s)
    assert not t.saw("Luck test") and t.saw("Morgan Le Fay")
    t, s = merlin(table, at="Test", dice=[], orders="on encounter merlin: avoid")
    E.merlin_encounter(s)
    assert t.saw("keeps out of the enchanter's way") and not t.saw("Luck test")
    t, s = merlin(table, at="Hampshire", where="coast", orders="on encounter merlin: avoid")
    E.merlin_encounter(s)
    assert t.saw("keeps out of the enchanter's way")


def test_e123_merlin_reactions(table):
    """Merlin reactions: 2 animal shape, 3 new equipment and a Dwarf, 4 Faerie, 5-9 a
    Prophecy, 10-12 a gift (rolled again if he has it)."""
    t, s = merlin(table, who="merlin", dice=D[2], extra=WOLF)
    E.merlin_encounter(s)
    assert s.pk["animal"] == "Wolf"
    t, s = merlin(table, who="merlin", dice=D[3], anna='gear = ["sword"]')
    E.merlin_encounter(s)
    assert s.pk["gear"] == {g: True for g in kn.GEAR} and s.pk["dwarf"]["spares"]
    t, s = merlin(table, who="merlin", dice=D[4], orders="on faerie_award: cp")
    E.merlin_encounter(s)
    assert s.pk["at"]["area"] == "Faerie" and s.pk["cp"] == 112
    t, s = merlin(table, who="merlin", dice=D[7])
    E.merlin_encounter(s)
    assert any(task.get("prophecy") for task in s.pk["tasks"])
    t, s = merlin(table, who="merlin", dice=D[10] + D[11] + D[12],
                  anna='items = [{key = "unbreakable_lance"}]')
    E.merlin_encounter(s)
    assert t.saw("already has that gift") and kn.has_item(s.pk, "magic_sword")
    assert next(i for i in s.pk["items"] if i["key"] == "magic_sword")["bonus"] == 4


def test_e124_merlin_gifts(table):
    """Merlin's gift table: the charger's WL is 3 + d3; the faithful Dwarf is Arthurian; the
    shield soaks 2 wounds."""
    t, s = merlin(table, who="merlin", dice=D[10] + D[9] + [2])
    E.merlin_encounter(s)
    charger = next(i for i in s.pk["items"] if i["key"] == "valiant_charger")
    assert charger["wl"] == 5
    t, s = merlin(table, who="merlin", dice=D[10] + D[5])
    E.merlin_encounter(s)
    assert s.pk["dwarf"]["arthurian"]
    t, s = merlin(table, who="merlin", dice=D[10] + D[2])
    E.merlin_encounter(s)
    assert {"key": "magic_shield", "absorbs": 2} in s.pk["items"]


def test_e124b_merlin_heeds_the_oath_to_ride_alone(table):
    """Merlin 3 and gift 5 with Oaths 10 (no Dwarf for a knight sworn to travel alone): the
    renewal is his equipment alone, and the faithful Dwarf is a gift he cannot take, so Merlin
    chooses again (5, then 12: the Magic Sword) (rules edition 7: encounters.MERLIN_HEEDS_ALONE).
    A game of edition 6 keeps its reading: the Dwarf came with the renewal and as the gift."""
    for ed in (7, 6):
        t, s = merlin(table, who="merlin", dice=D[3], anna='gear = ["sword"]\n'
                      'oaths = ["always_travel_alone"]')
        t.state["edition"] = ed
        E.merlin_encounter(s)
        assert s.pk["gear"] == {g: True for g in kn.GEAR}
        assert (s.pk["dwarf"] is None) == (ed >= 7)
        assert t.saw("has sworn to ride alone: the Dwarf Merlin would give him cannot come "
                     "with him.") == (ed >= 7)
        t, s = merlin(table, who="merlin", dice=D[10] + D[5] + D[12],
                      anna='oaths = ["always_travel_alone"]')
        t.state["edition"] = ed
        E.merlin_encounter(s)
        if ed >= 7:
            assert s.pk["dwarf"] is None and kn.has_item(s.pk, "magic_sword")
            assert t.saw("can take no Dwarf: Merlin chooses again.") and not t.unused_dice
        else:
            assert s.pk["dwarf"]["arthurian"] and not kn.has_item(s.pk, "magic_sword")


def test_e125_merlin_cures_madness_and_animal_shape(table):
    """Merlin cures madness and gives back human shape before his reaction."""
    t, s = merlin(table, who="merlin", dice=D[7], anna='animal = "Hart"')
    s.pk["enchantments"] = [{"key": "change_into_animal", "by": "Queen Sebile",
                             "animal": "Hart", "keep": {}}]
    s.pk["mad"] = {"since": 0, "tests": 0}
    E.merlin_encounter(s)
    assert s.pk["animal"] is None and s.pk["mad"] is None and s.pk["enchantments"] == []


def test_e126_morgan_enchants(table):
    """Morgan Le Fay enchants with +5 (VL check of the PK's VL + 5 to resist)."""
    t, s = merlin(table, who="morgan", dice=[5, 6])
    E.merlin_encounter(s)
    assert t.saw("against 10: success")
    t, s = merlin(table, who="morgan", dice=[1, 1] + D[7])
    E.merlin_encounter(s)
    assert s.pk["lady"]["name"] == "Morgan Le Fay" and s.pk["cp"] == 130 and s.pk["vp"] == 8


def test_e127_merlin_ends_the_turn(table):
    """Entering Merlin's area ends movement; he meets the counter and neither keeps comrades
    by Luck Tests nor makes requests this turn."""
    t = table(pos(at="Dyfed", anna='comrades = ["Sir Kay"]'), dice=[4, 1, 1] + D[9],
              orders={"Anna": "move Powys, Gwynedd\nrequest heal"})
    t.state["merlin"] = {"area": "Powys", "who": "morgan"}
    assert t.play()
    assert t.knight()["at"]["area"] == "Powys"
    assert not t.saw("Sir Kay stays") and not t.saw("asks")


def test_e128_prisoner_meets_merlin(table):
    """A PK imprisoned where Merlin/Morgan stands meets him (he cannot avoid it); nothing else
    happens that turn."""
    t = table(pos(at="London", where="prison"), dice=[4, 6, 6], orders={"Anna": ""})
    t.knight()["prison"] = {"by": "watchmen", "jailor": "the town watch", "castle": "London",
                            "direct": False, "since": 0, "gear": {}, "last": None,
                            "jailor_player": None}
    t.state["merlin"] = {"area": "Surrey", "who": "morgan"}
    assert t.play()
    assert t.saw("casts a spell on Anna") and not t.saw("passer-by")


# ============================================================================== Faerie
def test_e129_entering_faerie(table):
    """Faerie: 12 VP or CP on arrival (by adventure or gateway); equipment and horse go along,
    companions and comrades stay behind except the Mascot (an Arthurian Dwarf waits)."""
    from companion.koc.engine.faerie import enter_faerie

    t, s = setup(table, "Powys", anna='dwarf = "arthurian"\nmascot = "Badger"\n'
                 'comrades = ["Sir Kay"]\nmen_at_arms = ["Sir Tor"]')
    enter_faerie(s, why="a test")
    pk = s.pk
    assert pk["at"] == {"area": "Faerie", "where": "area"} and pk["vp"] == 32
    assert pk["comrades"] == [] and pk["men_at_arms"] == [] and pk["dwarf"] is None
    assert pk["mascot"]["name"] == "Badger" and pk["reunite"]["dwarf"]["arthurian"]
    assert pk["gear"] == {g: True for g in kn.GEAR}


def test_e130_faerie_turn(table):
    """Faerie's sequence: no movement; an encounter only on a Luck Test (no Mad Knight,
    Monster or Hermit there; none avoided); the magic exchange of exactly the die's points,
    or none; leaving on an Appeal to Jailor, back to a random countryside with no encounter
    roll, without what joined him in Faerie (the Mascot stays)."""
    t = table(pos(at="Faerie", anna='mascot = "Badger"\ncomrades = ["Sir Kay"]', cp=85,
                  vp=20), dice=[4, 5] + D[3] + [5] + D[12] + D[7] + [6],
              orders={"Anna": "on faerie_magic: cp to vp"})
    assert t.play()
    pk = t.knight()
    assert t.saw("No such being dwells in Faerie")
    assert pk["cp"] == 80 and pk["vp"] == 25
    assert t.saw("6+6 = 12 -> Freed with full gear")
    assert pk["at"]["area"] != "Faerie" and pk["at"]["where"] == "area"
    assert pk["comrades"] == [] and pk["mascot"]["name"] == "Badger"
    assert not t.saw("Encounter roll")


def test_e131_faerie_appeal_ignored_then_persisting(table):
    """Leaving Faerie: an ignored appeal keeps him there; next turn, persisting, an ignored
    appeal is rolled once more."""
    t = table(pos(at="Faerie"), dice=[4, 1, 3] + D[7], orders={"Anna": "stay"})
    assert t.play()
    assert t.knight()["at"]["area"] == "Faerie" and t.saw("Faerie keeps Anna")
    next_turn(t, [4, 1, 3] + D[7] + D[12] + D[7] + [6])
    assert t.play()
    assert t.saw("Persisting, the appeal is made once more")
    assert t.knight()["at"]["area"] != "Faerie"


def test_e132_faerie_encounter_cannot_be_avoided(table):
    """Faerie encounters use the countryside chart (unmodified) and cannot be avoided."""
    t = table(pos(at="Faerie", extra=KNIGHTS), dice=[4, 5] + D[7] + [1] + D[7] + [3, 3] + D[7],
              orders={"Anna": "on encounter: avoid\non leave_faerie: no"})
    assert t.play()
    assert t.saw("Countryside encounters: 3+4 = 7") and not t.saw("Luck test (avoid")
    assert t.saw("lingers in Faerie")


# ============================================================================== the record
def test_e133_met_persons_feed_the_requests_phase(table):
    """Prayers & Requests: the persons met and friendly may be asked in the same turn (here a
    knight who rides along after a message); their cards go back once requests are over."""
    t = table(pos(at="Dyfed", extra=KNIGHTS), dice=[4, 1] + D[7] + [1] + D[8] + [5],
              orders={"Anna": "move Powys\non join: no\nrequest join of knight"})
    assert t.play()
    assert [c["name"] for c in t.knight()["comrades"]] == ["Sir Belleus"]
    assert "met" not in t.knight() or not t.knight()["met"]


def test_e134_cards_and_chits_go_back(table):
    """Drawn cards are discarded and chits returned when the meeting is over; cards of those
    who join stay out."""
    t, s = setup(table, "Powys", D[7] + [2] + [5], extra=KNIGHTS,
                 orders="on encounter: avoid")
    E.terrain_encounter(s, "Powys")
    pile = t.state["decks"]["knights"]
    assert pile["discard"] == ["Sir Belleus", "Sir Gauter"]
    t, s = knights(table, 8, n=2)
    assert t.state["decks"]["knights"]["discard"] == []
    t, s = setup(table, "Powys", D[6] + [2] + KILL2 + KILL2,
                 extra=draws(brigand=["Brigand 3", "Brigand 5"]))
    E.terrain_encounter(s, "Powys")
    assert t.state["chits_out"]["brigand"] == []


def test_e135_lady_leads_her_knights(table):
    """Knights with a leader: the Lady's reaction takes precedence; the knights' reaction is
    not rolled."""
    t, s = lady(table, 3, 7)
    assert t.saw("Lady reactions") and not t.saw("Knight reactions")
    t, s = setup(table, "Powys", D[12])
    out = E.meet_knights(s, [card("Sir Hemison")], leader=card("Lady Enid", "lady"),
                         ask=False)
    assert out.kind == "lady" and s.pk["lady"]["name"] == "Lady Enid"


def test_e136_arthur_friendly_opens_camelot(table):
    """Camelot Castle: a friendly reaction from King Arthur makes Camelot Castle friendly for
    good."""
    t, s = setup(table, "Powys", D[12] + D[10], lord="King Lot", orders="on escort: no",
                 extra=decks(kings=["King Arthur"], knights=["Sir Kay"]))
    E.terrain_encounter(s, "Powys")
    assert "Camelot Castle" in s.pk["friendly"]
    assert t.saw("opens Camelot Castle to Anna for good")


def test_e137_mad_pk_encounters(table):
    """Mad Player Knights: brigands keep away; a hermit cures him (then reacts as usual);
    animals attack."""
    mad = "mad = {since = 0, tests = 0}"
    t, s = setup(table, "Powys", D[6] + [2], anna=mad)
    E.terrain_encounter(s, "Powys")
    assert t.saw("keep well away from the madman") and not t.saw("upon Anna")
    t, s = setup(table, "Powys", D[10] + D[7], anna=mad)
    E.terrain_encounter(s, "Powys")
    assert s.pk["mad"] is None and t.saw("Hermit reactions")
    t, s = setup(table, "Powys", D[4] + KILL2, anna=mad, extra=WOLF)
    E.terrain_encounter(s, "Powys")
    assert t.saw("The Wolf attacks the madman")


def test_e138_meetings_from_other_modules(table):
    """The meet_* functions serve other modules: a person arriving (ask=False) is met without
    the avoid question."""
    t, s = setup(table, "Powys", D[8], extra=KNIGHTS, orders="on encounter: avoid")
    out = E.meet_knights(s, [card("Sir Hemison")], ask=False)
    assert out.attitude == "friendly" and not t.saw("Luck test")
    t, s = setup(table, "Powys", D[7], orders="on encounter: avoid")
    out = E.meet_king(s, card("King Lot", "king"), escort=[], ask=False)
    assert out.attitude == "neutral" and met(t, "king")
    t, s = setup(table, "Powys", [5], orders="on encounter monster: avoid")
    out = E.meet_monster(s, {"kind": "monster", "name": "Lion", "wl": 5, "dice": 3})
    assert out.avoided and not out.fought
    t, s = setup(table, "Powys", KILL3)
    out = E.meet_monster(s, {"kind": "monster", "name": "Lion", "wl": 5, "dice": 3},
                         ask=False)
    assert out.fought and out.won and not t.unused_dice


def test_e139_encounter_question_pauses_and_resumes(table):
    """Play by email: with missing=wait the encounter question pauses the turn; answered, the
    turn replays with the same dice and goes on."""
    from companion.koc.orders import parse_orders

    t = table(pos(at="Dyfed", extra=draws(monster=["Lion 5"])), dice=[4, 1] + D[2] + [5],
              orders={"Anna": "move Powys"}, options={"missing": "wait"})
    assert not t.play()
    pending = t.state["pending"]["Anna"]
    assert pending["question"]["key"] == "encounter"
    assert pending["question"]["options"] == ["avoid", "await"]
    assert "monster" in pending["question"]["tags"]
    t.game.orders["Anna"] = parse_orders(t.world, ["Anna"], "move Powys\nanswer encounter: avoid",
                                         "a.txt")
    assert t.play()
    assert t.saw("Anna avoids a monster") and t.knight()["at"]["area"] == "Powys"


def test_e140_move_step_naming_a_castle_counter(table):
    """A movement step naming a castle counter in the current area rides up to it (the order
    grammar's 'enter' does the same for the castle standing here)."""
    from companion.koc.engine.movement import Mover

    extra = '\n[castles]\n"Castle Perilous" = {area = "Powys", owner = "Lady Lyonesse", ' \
            'kind = "lady"}\n'
    t, s = setup(table, "Powys", [], anna='lady = "Lady Lyonesse"', extra=extra)
    Mover(s).run([{"do": "move", "area": "Castle Perilous"}])
    assert s.pk["at"] == {"area": "Powys", "where": "inside", "castle": "Castle Perilous"}
    Mover(s).run([{"do": "move", "area": "Dyfed"}])
    assert t.saw("must first ride out of Castle Perilous into Powys")


def test_e141_a_lone_knight_who_rides_off_is_named(table):
    """Knight reaction 12 (rules: Knight Encounters): he rides off and may be pursued. Rules
    edition 3 names a lone knight ("Sir Dinadan turns and rides away"; the pursuit question
    asks whether to follow him); a game begun under edition 2 keeps its words, "the knights",
    whatever their number, as its stored turns replay them."""
    for edition, gone, chased in ((3, "Sir Dinadan turns and rides away.",
                                   "catches up with Sir Dinadan"),
                                  (2, "The knights turn and ride away.",
                                   "catches up with the knights")):
        t, s = setup(table, "Powys", D[12] + [5] + D[8], orders="on pursue: yes")
        t.state["edition"] = edition
        E.meet_knights(s, [card("Sir Dinadan")], ask=False)
        assert t.saw(gone) and t.saw(chased), edition
        assert t.saw("Knight reactions: 4+4 = 8 -> Offer to ride along")
        assert t.saw("The knights") == (edition == 2)
    # several knights are "the knights" in every edition
    t, s = setup(table, "Powys", D[12] + [5] + D[8], orders="on pursue: yes")
    E.meet_knights(s, [card("Sir Dinadan"), card("Sir Hemison")], ask=False)
    assert t.saw("The knights turn and ride away.") and t.saw("catches up with the knights")


def test_e142_pirates_named_once_and_robbing_while_standing(table):
    """Sea 11, pirates (found reading random games): the fight's texts give every foe's WL, so
    a pirate is named "pirate 1", as a brigand is; and when Anna is beaten by pirate 1 and her
    ship's crew then cuts down pirates 1 and 2 before it falls, a pirate still standing robs
    her (pirate 3), not the fallen pirate 1. Rules edition 3; a game begun under edition 2
    keeps "pirate 1 (WL 1)" (doubled in the fight: "pirate 1 (WL 1) (WL 1)") and the fallen
    robber."""
    dice = D[11] + [1, 1, 6, 6] + [6, 6, 1, 1] * 2 + [1, 1, 6, 6] * 12 + [1] * 20
    for edition in (3, 2):
        t, s = setup(table, "Narrow Sea", dice, where="ship", cp=10, vp=2,
                     extra=draws(brigand=["Brigand 1"] * 10))
        t.state["edition"] = edition
        s.pk["ship"] = {"kind": "ship", "name": "Cog", "wl": 10, "dice": 2}
        E.sea_encounter(s, "Narrow Sea", "Hampshire")
        if edition == 3:
            assert t.saw("Pass: Anna 2, pirate 1 12; Anna WL 0, pirate 1 WL 1.")
            assert t.saw("Anna is defeated by pirate 1.")
            assert t.saw("the crew of the Cog fights pirate 2: pirate 2 falls.")
            assert t.saw("pirate 3 robs Anna and his party of all their equipment.")
        else:
            assert t.saw("against pirate 1 (WL 1) (WL 1), pirate 2 (WL 1) (WL 1)")
            assert t.saw("pirate 1 (WL 1) robs Anna and his party")
        assert s.pk["at"]["where"] == "coast" and not any(s.pk["gear"].values())


def test_e143_one_knight_met_is_a_knight(table):
    """Knight encounters (found reading random games): one knight met on the way is "a knight
    in Camelot's colours" (or "a knight"), and "He is Sir Kay", where a game begun under
    rules edition 2 keeps "1 knight, 1 of them in Camelot's colours" and "They are". More
    than one are counted as before (e24). Also from edition 3 a task lost by straying says
    "he left the most direct route" (the knight did; c25), where edition 2 said "it left"."""
    from companion.koc.engine import tasks

    for edition in (3, 2):
        for name, seen in (("Sir Kay", "a knight in Camelot's colours"),
                           ("Sir Belleus", "a knight")):
            t, s = setup(table, "Powys", D[7] + [1] + D[7] + [1] * 10,
                         extra=decks(knights=[name]))
            t.state["edition"] = edition
            E.terrain_encounter(s, "Powys")
            if edition == 3:
                assert t.saw(f"Anna sees {seen}.") and t.saw(f"He is {name} (VL ")
            else:
                arth = 1 if name == "Sir Kay" else 0
                assert t.saw(f"Anna sees 1 knight, {arth} of them in Camelot's colours.")
                assert t.saw(f"They are {name} (VL ")
        t, s = setup(table, "Hampshire", [4])
        t.state["edition"] = edition
        task = tasks.add(s, "pilgrimage", "Kent", route="direct", penalty_vp=12)
        tasks.after_movement(s, "Hampshire", ["Dorset"], False)
        assert task["status"] == "failed"
        assert t.saw(("he" if edition == 3 else "it") + " left the most direct route")


def test_e144_staying_on_a_coast_says_so(table):
    """Movement (found reading random games): a knight landed on a coast who stays there is
    "stays on the coast of Cornwall" (he is still on it, his report's journal says), where a
    game begun under rules edition 2 keeps "stays in Cornwall"; the encounter roll is as
    before."""
    from companion.koc.engine.movement import Mover

    for edition, text in ((3, "Anna stays on the coast of Cornwall."),
                          (2, "Anna stays in Cornwall.")):
        t, s = setup(table, "Cornwall", [6] * 4, where="coast")
        t.state["edition"] = edition
        Mover(s).run([{"do": "stay"}])
        assert t.saw(text) and t.saw("Encounter roll in Cornwall")
        assert s.pk["at"] == {"area": "Cornwall", "where": "coast"}


def test_e145_staying_on_a_coast_rolls_no_encounter(table):
    """Movement, Encounter Rolls; Terrain Effects, Coast (decision, rules edition 4): the
    encounter roll for staying is for a knight who stays in an encounter area, and a knight
    landed on a coast is not yet in one: he must first go into the area. So Anna, landed on
    the coast of Cornwall, who stays there rolls no die and meets nothing; going inland later
    is his first move and rolls as entering does. A game begun under rules edition 3 keeps its
    reading: he rolls as if he stood in Cornwall (e144). Aboard a ship lying off the coast,
    staying rolls nothing under either edition (a ship off a coast is not at sea)."""
    from companion.koc.engine.movement import Mover

    for edition in (4, 3):
        t, s = setup(table, "Cornwall", [1] + D[7], where="coast")
        t.state["edition"] = edition
        Mover(s).run([{"do": "stay"}])
        assert s.pk["at"] == {"area": "Cornwall", "where": "coast"}
        if edition == 4:
            assert t.saw("Anna stays on the coast of Cornwall; there is no encounter roll on "
                         "the coast, only once he goes inland.")
            assert not t.saw("Encounter roll") and t.unused_dice == [1] + D[7]
        else:
            assert t.saw("Anna stays on the coast of Cornwall.")
            assert t.saw("Encounter roll in Cornwall: 1") and t.saw("Countryside encounters")
        t, s = setup(table, "Cornwall", [1], where="ship")
        t.state["edition"] = edition
        Mover(s).run([{"do": "stay"}])
        assert t.saw("Anna stays aboard in Cornwall.") and t.unused_dice == [1]
    t, s = setup(table, "Cornwall", [6], where="coast")
    Mover(s).run([{"do": "go_inland"}])
    assert t.saw("Anna goes inland into Cornwall.") and t.saw("Encounter roll in Cornwall: 6")


def test_e146_go_to_an_overseas_place_takes_ship(table):
    """Movement, Ship Movement (rules edition 4): 'go to' a place no land route reaches sails
    there, one step a turn, each as the knight could order it himself: Anna in Camelot Town,
    sent 'go to Barflete' (in Gaul), boards in the port (a turn begun in a port town boards
    without a town encounter; boarding ends the movement), sails into the Test (a ship on a
    river rolls nothing), into the Narrow Sea (the sea is met: 7, a quiet passage), into the
    port of Barflete, where he goes ashore in the same move (ASHORE_IN_PORT, e151) and the town
    is met at once (7, beggars). With Good Winds (9) in the Narrow Sea the ship sails on into
    Barflete the same turn, and he goes ashore there. Under rules edition 3 'go to' kept to
    land routes: he stays where he is."""
    from companion.koc.engine.movement import Mover

    ship = draws(ship=["Cog"])
    t, s = setup(table, "Camelot Town", D[7] + D[7], extra=ship)
    seen = []
    for _ in range(5):
        n = len(t.events)
        Mover(s).run([{"do": "to", "area": "Barflete"}])
        seen.append((dict(s.pk["at"]), t.events[n:]))
    assert [at for at, _ in seen] == [
        {"area": "Camelot Town", "where": "ship"}, {"area": "Test", "where": "ship"},
        {"area": "Narrow Sea", "where": "ship"}, {"area": "Barflete", "where": "area"},
        {"area": "Barflete", "where": "area"}]
    assert seen[0][1] == ["Anna boards a ship (Cog, crew 10) at Camelot Town; movement ends "
                          "for this turn."]
    assert seen[1][1] == ["Anna's ship sails into Test."]
    assert "Sea encounters: 3+4 = 7 -> Quiet passage [calm_passage]" in seen[2][1]
    assert seen[3][1][:2] == ["Anna's ship sails into Barflete.",
                              "Anna goes ashore at Barflete."]
    assert "Town encounters: 3+4 = 7 -> Beggars [beggars]" in seen[3][1]
    assert seen[4][1] == [] and not t.unused_dice and "ship" not in s.pk
    t, s = setup(table, "Test", D[9] + D[7], where="ship")
    Mover(s).run([{"do": "to", "area": "Barflete"}])
    assert t.saw("Fair wind") and t.saw("Anna goes ashore at Barflete.")
    assert s.pk["at"] == {"area": "Barflete", "where": "area"} and not t.unused_dice
    t, s = setup(table, "Camelot Town", [], extra=ship)
    t.state["edition"] = 3
    Mover(s).run([{"do": "to", "area": "Barflete"}])
    assert t.saw("There is no way by land from Camelot Town to Barflete.")
    assert s.pk["at"] == {"area": "Camelot Town", "where": "area"}


def test_e147_go_to_overseas_is_accepted_and_offered(table):
    """Orders (rules edition 4): 'go to Barflete' from Camelot Town is accepted and its
    acknowledgement says the route may take ship; a task's overseas destination is offered as
    'go to ...' on land and aboard a ship. A game of rules edition 3, whose 'go to' keeps to
    land, refuses it when sent, naming the place and the ship orders that reach it (the port,
    'board', one 'sail' a turn, 'debark'), and does not offer it."""
    from companion.engine.orders import OrdersRejected
    from companion.koc.engine import tasks
    from companion.koc.kind import KIND

    for edition in (4, 3):
        t, s = setup(table, "Camelot Town")
        t.state["edition"] = edition
        tasks.add(s, "message", "Barflete", why="a message")
        orders = KIND.parse_orders(t.state, "Anna", "go to Barflete\n", "a.txt")
        offered = KIND.options_for(t.state, "Anna")
        if edition == 4:
            KIND.check_orders(t.state, "Anna", orders, "a.txt")
            assert "step 1: go by the most direct route to Barflete (by ship where no land " \
                   "route leads)" in KIND.acknowledge(t.state, "Anna", orders)
            assert "go to Barflete" in offered
            s.pk["at"] = {"area": "Narrow Sea", "where": "ship"}
            s.pk["ship"] = {"kind": "ship", "name": "Cog", "wl": 10, "dice": 2}
            assert "go to Barflete" in KIND.options_for(t.state, "Anna")
            continue
        assert "go to Barflete" not in offered
        try:
            KIND.check_orders(t.state, "Anna", orders, "a.txt")
            raise AssertionError("'go to Barflete' was accepted under edition 3")
        except OrdersRejected as refused:
            err = refused.errors[0]
        assert "no way by land from Camelot Town to Barflete" in err.message
        assert err.suggestion == ("Barflete lies over the sea: 'board', then one a turn "
                                  "'sail Test', 'sail Narrow Sea', 'sail Barflete', 'debark' "
                                  "and 'go to Barflete'")


def test_e148_a_knight_bound_overseas_without_orders_makes_for_a_port(table):
    """Movement (rules edition 4): without orders a knight heads for his first obligation
    (engine: the default plan), and where it lies overseas, as King Arthur's message to Tara
    may, he rides to the port the most direct route sails from and boards there: Anna in
    Hampshire rides into Camelot Town (6: nothing) and takes ship. The task is not judged by
    land on the way (no land route leads to Tara). Under rules edition 3 he stood still: "There
    is no way by land" every turn, and a Campaign knight waited on a task he could not reach."""
    from companion.koc.engine import tasks

    for edition in (4, 3):
        t, s = setup(table, "Hampshire", [4, 6], extra=draws(ship=["Cog"]))
        t.state["edition"] = edition
        task = tasks.add(s, "arthur_task", "Tara", needs="friendly_castle",
                         why="King Arthur's task: carry his message to Tara",
                         on_done="arthur_message")
        assert t.play()
        assert t.saw("No orders: Anna keeps on towards Tara.") and task["status"] == "active"
        if edition == 4:
            assert t.saw("The way to Tara lies over the sea: Anna makes for the port of "
                         "Camelot Town.")
            assert t.saw("Anna boards a ship (Cog, crew 10) at Camelot Town")
            assert s.pk["at"] == {"area": "Camelot Town", "where": "ship"}
            assert not t.unused_dice
        else:
            assert t.saw("There is no way by land from Hampshire to Tara.")
            assert s.pk["at"] == {"area": "Hampshire", "where": "area"}


def test_e149_landing_and_going_inland_keep_a_task_on_its_route(table):
    """Ship Movement; Terrain Effects, Coast (rules edition 4): debarking on a coast takes the
    whole turn, and going inland is the next turn's first move, into the area landed on. On
    the most direct route neither is a delay nor a step away: Anna, bound to carry a message
    to Dublin by the most direct route (12 VP for straying), lands on the coast of Ireland and
    keeps the task; next turn she goes inland into Ireland (6: nothing) and keeps it. A game
    of rules edition 3 failed the task both times ("it was delayed", "he left the most direct
    route"). Riding out of a castle counter into the area it stands in is likewise no step off
    the route (the same area)."""
    from companion.koc.engine import tasks
    from companion.koc.engine.movement import Mover

    for edition in (4, 3):
        for where, plan, dice, failed in (
                ("ship", [{"do": "debark"}], [], "it was delayed"),
                ("coast", [{"do": "go_inland"}], [6], "he left the most direct route")):
            t, s = setup(table, "Ireland", dice, where=where, turn=2)
            t.state["edition"] = edition
            task = tasks.add(s, "message", "Dublin", why="a message", penalty_vp=12)
            task["since"] = 1           # taken on in an earlier turn
            Mover(s).run(plan)
            assert not t.unused_dice
            if edition == 4:
                assert task["status"] == "active" and s.pk["vp"] == 20
            else:
                assert task["status"] == "failed" and s.pk["vp"] == 8
                assert t.saw(f"Anna's task (message) fails: {failed}.")
        extra = '\n[castles]\n"Castle Perilous" = {area = "Powys", owner = "Lady Lyonesse", ' \
                'kind = "lady"}\n'
        t, s = setup(table, "Powys", [6], extra=extra, turn=2)
        t.state["edition"] = edition
        s.pk["at"] = {"area": "Powys", "where": "inside", "castle": "Castle Perilous"}
        task = tasks.add(s, "message", "Dyfed", why="a message", penalty_vp=12)
        task["since"] = 1
        Mover(s).run([{"do": "move", "area": "Powys"}])
        assert s.pk["at"] == {"area": "Powys", "where": "area"} and not t.unused_dice
        assert task["status"] == ("active" if edition == 4 else "failed")


def test_e150_go_to_from_a_castle_counter_rides_out_first(table):
    """Castle counters (engine: left into the area they stand in, a move of its own) and 'go
    to' (rules edition 4): Anna inside Castle Perilous, which stands in Powys, sent 'go to
    Dyfed', rides out into Powys (6: nothing) and on into Dyfed (6: nothing). Under rules
    edition 3 'go to' stopped there: "must first ride out of Castle Perilous into Powys"."""
    from companion.koc.engine.movement import Mover

    extra = '\n[castles]\n"Castle Perilous" = {area = "Powys", owner = "Lady Lyonesse", ' \
            'kind = "lady"}\n'
    for edition in (4, 3):
        t, s = setup(table, "Powys", [6, 6], extra=extra)
        t.state["edition"] = edition
        s.pk["at"] = {"area": "Powys", "where": "inside", "castle": "Castle Perilous"}
        Mover(s).run([{"do": "to", "area": "Dyfed"}])
        if edition == 4:
            assert t.saw("Anna moves into Powys.") and t.saw("Anna moves into Dyfed.")
            assert s.pk["at"] == {"area": "Dyfed", "where": "area"} and not t.unused_dice
        else:
            assert t.saw("must first ride out of Castle Perilous into Powys")
            assert s.pk["at"]["castle"] == "Castle Perilous"


def test_e151_going_ashore_in_a_port_is_part_of_the_sea_move(table):
    """Movement by Sea, Ship Movement; Terrain Effects, Port (rules edition 4,
    movement.ASHORE_IN_PORT): going ashore in a port belongs to the ship's move that brought
    her there, and she meets the town straight away. Anna aboard in the Narrow Sea sends 'sail Barflete' and 'debark': the orders are
    accepted, the ship puts in (a port is not the sea: no sea encounter) and she goes ashore
    the same turn, meeting the town (7, beggars). Landing on a coast or a river bank still
    takes a turn of its own: 'sail Cornwall' and 'debark' is refused. A game begun under rules
    edition 3 keeps its reading: 'debark' after 'sail' is refused ("movement has already
    ended"), and the ship lies in the port until the next turn's 'debark'."""
    from companion.engine.orders import OrdersRejected
    from companion.koc.engine.movement import Mover
    from companion.koc.kind import KIND

    def check(t, text):
        orders = KIND.parse_orders(t.state, "Anna", text, "a.txt")
        try:
            KIND.check_orders(t.state, "Anna", orders, "a.txt")
        except OrdersRejected as refused:
            return [e.message for e in refused.errors]
        return []

    for edition in (4, 3):
        t, s = setup(table, "Narrow Sea", D[7], where="ship")
        t.state["edition"] = edition
        refused = check(t, "sail Barflete\ndebark\n")
        coast = check(t, "sail Cornwall\ndebark\n")
        assert coast and "movement has already ended" in coast[0]
        Mover(s).run([{"do": "sail", "area": "Barflete"}, {"do": "debark"}])
        assert t.saw("Anna's ship sails into Barflete.") and not t.saw("Sea encounters")
        if edition == 4:
            assert refused == []
            assert t.saw("Anna goes ashore at Barflete.")
            assert t.saw("Town encounters: 3+4 = 7 -> Beggars [beggars]")
            assert s.pk["at"] == {"area": "Barflete", "where": "area"} and "ship" not in s.pk
            assert not t.unused_dice
        else:
            assert refused and "movement has already ended" in refused[0]
            assert not t.saw("goes ashore") and t.unused_dice == D[7]
            assert s.pk["at"] == {"area": "Barflete", "where": "ship"}


def test_e152_a_ship_staying_at_sea_meets_the_sea(table):
    """Movement & Encounters, Encounter Rolls; Terrain Effects, Sea (decision, rules edition 4,
    movement.SEA_STAY_MET): a knight who stays in an encounter area rolls for an encounter as
    one who enters it, and at sea that encounter is the sea itself, met without a roll (the
    Knaves' pirates who stay in a sea go on meeting ships there). Anna aboard in the Narrow
    Sea who stays meets the sea (7, a quiet passage); on 4 the storm keeps the ship where it
    lies ("tosses the ship about"). Aboard in a port she meets nothing. A game begun under
    rules edition 3 keeps its reading: staying aboard at sea met nothing."""
    from companion.koc.engine.movement import Mover

    for edition in (4, 3):
        t, s = setup(table, "Narrow Sea", D[7], where="ship")
        t.state["edition"] = edition
        Mover(s).run([{"do": "stay"}])
        assert t.saw("Anna stays aboard in Narrow Sea.")
        assert s.pk["at"] == {"area": "Narrow Sea", "where": "ship"}
        if edition == 4:
            assert t.saw("Sea encounters: 3+4 = 7 -> Quiet passage [calm_passage]")
            assert t.saw("The crossing is quiet.") and not t.unused_dice
        else:
            assert not t.saw("Sea encounters") and t.unused_dice == D[7]
    t, s = setup(table, "Narrow Sea", D[4], where="ship")
    Mover(s).run([{"do": "stay"}])
    assert t.saw("A storm tosses the ship about in Narrow Sea.")
    assert s.pk["at"] == {"area": "Narrow Sea", "where": "ship"} and not t.unused_dice
    t, s = setup(table, "Barflete", D[7], where="ship")
    Mover(s).run([{"do": "stay"}])
    assert t.saw("Anna stays aboard in Barflete.") and t.unused_dice == D[7]


def test_e37b_a_knight_sworn_to_spare_knights_spares_his_enemy(table):
    """Knight's Fate 13 (declared enemies fight until one is slain) against Oaths 7 (he slays no
    knight he defeats): Anna, sworn to spare knights and without the VP to break the oath,
    beats Sir Belleus, her declared enemy, and keeps her oath: he rides off beaten, his card
    back in the deck, and stays her enemy; the victory's awards are hers (rules edition 7:
    combat.ENEMY_SPARED_BY_OATH). A game of edition 6 keeps its reading: he died by her hand,
    the oath unasked."""
    for ed in (7, 6):
        t, s = setup(table, "Powys", D[7] + [1] + KILL3[:3] + [1, 1, 1] + [6, 6], vp=10,
                     anna='enemies = ["Sir Belleus"]\noaths = ["spare_knights"]',
                     extra=KNIGHTS)
        t.state["edition"] = ed
        E.terrain_encounter(s, "Powys")
        deck = t.state["decks"]["knights"]
        assert "Sir Belleus" in s.pk["enemies"] and s.pk["vp"] == 16
        assert s.pk["oaths"] == ["spare_knights"]
        if ed >= 7:
            assert "Sir Belleus" in deck["discard"] and "Sir Belleus" not in deck["removed"]
            assert t.saw("Anna spares the life of Sir Belleus, as he swore")
        else:
            assert "Sir Belleus" in deck["removed"] and t.saw("dies by Anna's hand")


def test_e153_a_full_turn_at_a_shrine_earns_a_vp(table):
    """Shrine Encounters: each full turn spent at a shrine is worth 1 VP: Anna begins her turn
    at Canterbury and stays (rules edition 7: encounters.SHRINE_TURN_VP). Arriving there is no
    full turn, nor is a turn that leaves and comes back, nor one in Rome's town. A game of
    edition 6 gave nothing."""
    for ed in (7, 6):
        t = table(pos(at="Canterbury"), dice=[4, 6], orders={"Anna": "stay"})
        t.state["edition"] = ed
        assert t.play()
        assert t.knight()["vp"] == (21 if ed >= 7 else 20)
        assert t.saw("Anna gains 1 VP (a full turn at the shrine of Canterbury)") == (ed >= 7)
    t = table(pos(at="Kent"), dice=[4, 6], orders={"Anna": "move Canterbury"})
    assert t.play()
    assert t.knight()["at"]["area"] == "Canterbury" and t.knight()["vp"] == 20
    t = table(pos(at="Canterbury"), dice=[4, 6, 6], orders={"Anna": "move Kent, Canterbury"})
    assert t.play()
    assert t.knight()["at"]["area"] == "Canterbury" and t.knight()["vp"] == 20
    t = table(pos(at="Rome"), dice=[4, 6],
              orders={"Anna": "stay\nanswer rome: town"})
    assert t.play()
    assert t.knight()["vp"] == 20 and not t.saw("full turn at the shrine")


def test_e154_the_town_watch_named_once(table):
    """Town 3 (found auditing the town chart): the fight's texts give every foe's WL, so a
    watchman is named "watchman 1", as pirates are (e142) (rules edition 7:
    encounters.WATCHMEN_NAMED). A game of edition 6 keeps "watchman 1 (WL 1)", doubled in the
    fight."""
    for ed in (7, 6):
        t, s = setup(table, "London", D[3] + [1] + [6, 6, 1, 1] * 6, orders="on watchmen: resist",
                     extra=draws(brigand=["Brigand 1"] * 6))
        t.state["edition"] = ed
        E.terrain_encounter(s, "London")
        assert s.pk["cp"] == 106
        if ed >= 7:
            assert t.saw("against watchman 1 (WL 1), watchman 2 (WL 1),")
            assert t.saw("Pass: Anna 12, watchman 1 2;") and t.saw("watchman 6 is beaten")
        else:
            assert t.saw("against watchman 1 (WL 1) (WL 1), watchman 2 (WL 1) (WL 1),")


def test_e155_storming_a_knights_castle_to_free_his_prisoners(table):
    """Player Knight Castles (found auditing the castle rules): Bert is away from his castle,
    where Cora is his prisoner; Anna at its gate meets "lord not home" but may storm it: she
    beats its guard (Sir Belleus), Cora walks free and Anna gains 6 VP for the aid (rules
    edition 7: encounters.PK_CASTLE_STORMED; question rescue, tag pk_castle, default leave).
    A game of edition 6 offered no storm: Cora stays in prison."""
    extra = '\n[castles]\n"Bert\'s castle" = {area = "Powys", owner = "Bert", kind = "pk"}\n'
    for ed in (7, 6):
        t, s = setup(table, "Powys", KILL3 + [1, 1], extra=extra,
                     orders="on rescue pk_castle: storm",
                     others={"Bert": 'at = "Kent"\nown_castle = "Bert\'s castle"',
                             "Cora": 'at = "Powys"'})
        t.state["edition"] = ed
        t.state["castles"]["Bert's castle"]["guards"] = [card("Sir Belleus")]
        cora = t.state["knights"]["Cora"]
        cora["prison"] = {"by": "pk", "jailor": "Bert", "castle": "Bert's castle",
                          "direct": False, "since": 1, "gear": {g: True for g in kn.GEAR},
                          "last": None, "jailor_player": "Bert"}
        cora["at"] = {"area": "Powys", "where": "prison", "castle": "Bert's castle"}
        cora["gear"] = {g: False for g in kn.GEAR}
        t.state["knights"]["Bert"]["prisoners"] = [{"kind": "pk", "name": "Cora",
                                                    "player": "Cora"}]
        assert not E.castle_encounter(s, "Bert's castle")
        assert t.saw("The lord of Bert's castle is away") and not t.saw("Castle reactions")
        if ed >= 7:
            assert t.saw("Anna storms Bert's castle to free its prisoners: 1 knight defends it.")
            assert cora["prison"] is None and cora["gear"] == {g: True for g in kn.GEAR}
            assert t.saw("Anna gains 6 VP (freeing Cora (aid))")
            assert t.state["knights"]["Bert"]["prisoners"] == []
            assert s.pk["vp"] == 32 and not t.unused_dice      # 6 for Sir Belleus, 6 the aid
        else:
            assert not t.saw("storms") and cora["prison"]["castle"] == "Bert's castle"
            assert [d["kind"] for d in t.ctx.decisions] == []


def test_e160_a_player_knight_on_guard_stays_out_of_a_storm(table):
    """Storming a player knight's castle (a rescue task's storm, resolutions.storm_castle, as
    the one at its gate): its knight guards defend it, a player knight standing guard there
    stays out of the fight (no fight between player knights is set up by a storm). Before,
    his guard record was taken for a knight's card and the turn failed (KeyError); no stored
    game can have passed there, so no edition."""
    from companion.koc.engine import resolutions as R

    extra = '\n[castles]\n"Bert\'s castle" = {area = "Powys", owner = "Bert", kind = "pk"}\n'
    t, s = setup(table, "Powys", KILL3, extra=extra,
                 others={"Bert": 'at = "Kent"\nown_castle = "Bert\'s castle"',
                         "Dora": 'at = "Powys"'})
    t.state["castles"]["Bert's castle"]["guards"] = [
        card("Sir Belleus"), {"kind": "pk", "name": "Dora", "player": "Dora"}]
    assert R.storm_castle(s, "Bert's castle", why="to free Cora")
    assert t.saw("Anna storms Bert's castle to free Cora: 1 knight defends it.")
    assert not t.unused_dice


def test_e156_camelot_re_equips_no_fellow_it_is_not_friendly_to(table):
    """Friendly Castles (found auditing the castle rules): a castle friendly to one knight of a
    party re-equips the whole party, but not Camelot: Anna (King Arthur's) leads Bert (King
    Lot's) into Camelot, friendly to her; she gets her lance, he rides in as a guest without
    his shield and lance (rules edition 7: encounters.CAMELOT_NOT_SHARED). A friendly reaction
    there is towards the whole party and re-equips him. A game of edition 6 re-equipped him
    all the same."""
    party = '[parties]\nAnna = ["Bert"]\n'
    bert = 'cp = 60\nvp = 6\nat = "Hampshire"\nlord = "King Lot"\ngear = ["horse", "sword"]'
    for ed in (7, 6):
        t = table(pos(at="Hampshire", anna='gear = ["horse", "shield", "sword"]', extra=party,
                      others={"Bert": bert}))
        t.state["edition"] = ed
        assert E.castle_encounter(t.session(), "Camelot Castle")
        anna, b = t.knight("Anna"), t.knight("Bert")
        assert all(anna["gear"].values()) and b["at"] == anna["at"]
        assert b["guest_of"] == "Camelot Castle"
        if ed >= 7:
            assert t.saw("Camelot Castle is not friendly to Bert: he rides in with Anna's "
                         "party, but is not re-equipped there.")
            assert not b["gear"]["shield"] and not b["gear"]["lance"]
        else:
            assert all(b["gear"].values())
    t = table(pos(at="Hampshire", lord="King Lot", anna='gear = ["horse", "shield", "sword"]',
                  extra=party, others={"Bert": bert}), dice=D[10])
    assert E.castle_encounter(t.session(), "Camelot Castle")
    assert t.saw("Camelot Castle welcomes Anna") and all(t.knight("Bert")["gear"].values())


def test_e157_guard_duty_in_a_wasteland_rolls_less_one(table):
    """Player Knight Castles and Wasteland Encounters (found auditing guard duty): Bert guards
    Anna's castle in Terrington Marsh, a wasteland; his encounter there is rolled on the
    countryside chart less 1, as any wasteland's (a 9 is 8, Peasants) (rules edition 7:
    service.GUARD_WASTELAND_MODIFIED). A game of edition 6 rolled it unmodified (9, a Lady)."""
    from companion.koc.engine import service

    castle = "Anna's castle"
    for ed in (7, 6):
        t = table(pos(at="Hampshire", others={"Bert": 'cp = 60\nvp = 6\nat = "Hampshire"\n'
                                                      'lord = "King Arthur"'}),
                  dice=[1] + D[9])
        t.state["edition"] = ed
        t.state["castles"] = {castle: {"area": "Terrington Marsh", "owner": "Anna",
                                       "kind": "pk", "granted_by": "King Arthur",
                                       "guards": [card("Sir Belleus"),
                                                  {"kind": "pk", "name": "Bert",
                                                   "player": "Bert"}]}}
        t.knight("Anna")["own_castle"] = castle
        t.knight("Bert")["at"] = {"area": "Terrington Marsh", "where": "inside",
                                  "castle": castle}
        t.knight("Bert")["guard"] = {"castle": castle, "owner": "Anna", "since": 1}
        service.guard_duty(t.session("Bert"))
        assert t.saw("Countryside encounters: 4+5 = 9 -1 = 8 -> Peasants" if ed >= 7 else
                     "Countryside encounters: 4+5 = 9 -> Lady")
        assert t.saw("passes by") and not t.unused_dice


def test_e158_good_winds_extra_move_meets_no_sea(table):
    """Sea 9 (found auditing the sea chart): the fair wind's extra move is made without another
    sea encounter roll, though it enters another sea: Anna sails into the Narrow Sea (9) and on
    into the North Sea, meeting nothing there (rules edition 7: movement.GOOD_WINDS_QUIET). A
    game of edition 6 rolled the North Sea's encounter (7, a quiet passage)."""
    for ed in (7, 6):
        t = table(pos(at="Hampshire", where="ship"), dice=[4] + D[9] + D[7],
                  orders={"Anna": "sail Narrow Sea then North Sea"})
        t.state["edition"] = ed
        assert t.play()
        assert t.knight()["at"] == {"area": "North Sea", "where": "ship"}
        assert t.saw("Anna's ship sails into North Sea.")
        if ed >= 7:
            assert t.saw("The fair wind carries the ship on: no sea encounter there.")
            assert t.unused_dice == D[7]
        else:
            assert t.saw("Sea encounters: 3+4 = 7") and not t.unused_dice


def test_e159_camelots_champion_and_riders_are_arthurian(table):
    """Castle 8 and 11 at Camelot (covered by no case): its champion and the knights who ride
    out on its adventure wear Camelot's colours (the common knights on top of the deck are
    passed over), and the castle is friendly for the visit only."""
    t, s, admitted = castle(table, 8, KILL3 + [1, 1, 1], at="Camelot Castle",
                            orders="on accept_challenge: yes")
    assert t.saw("Camelot Castle sends out its champion, Sir Galahad (VL 0, CP 250)")
    assert admitted and "Camelot Castle" not in s.pk["friendly"]
    t, s, admitted = castle(table, 11, [5, 6] + D[3] + [2], at="Camelot Castle")
    assert admitted and [c["name"] for c in s.pk["comrades"]] == ["Sir Percival", "Sir Bors"]
    assert all(c["arthurian"] for c in s.pk["comrades"])
    assert "Camelot Castle" not in s.pk["friendly"]
