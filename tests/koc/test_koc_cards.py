"""Knight, King and Lady cards, and the chits."""
from __future__ import annotations

import math
import re
from collections import Counter

from companion.engine.names import fold
from companion.koc.world import virtue_points_range

PRAYING_SIX = {"Sir Galahad", "Sir Percival", "Sir Bors", "King Arthur", "King Pellam", "Lady Elaine"}


def test_card_counts_and_unique_names(world):
    assert len(world.knights) == 75
    assert len(world.kings) == 15
    assert len(world.ladies) == 30
    names = [fold(c.name) for c in (*world.knights, *world.kings, *world.ladies)]
    assert len(names) == len(set(names))
    homes = [fold(l.home_castle) for l in world.ladies]
    assert len(homes) == len(set(homes))
    map_names = {fold(a) for a in world.areas} | {fold(x) for a in world.areas.values() for x in a.aliases}
    assert not set(homes) & map_names


def test_fixed_values(world):
    cards = {c.name: c for c in (*world.knights, *world.kings, *world.ladies)}
    assert cards["Sir Galahad"].virtue_level == 0
    for name in PRAYING_SIX:
        assert cards[name].virtue_level <= 1, name      # a one-die VL Test always succeeds
    low = {c.name for c in cards.values() if c.virtue_level <= 1}
    assert low == PRAYING_SIX, "only these six always succeed at prayer"
    queen = cards["Queen of North Wales"]
    assert queen.enchantress and queen.virtue_level == 9
    assert 12 - queen.virtue_level == 3                  # the rules' slaying example


def test_vl_and_wl_are_derivable(world):
    for card in (*world.knights, *world.kings):
        assert 10 <= card.chivalry_points <= 300, card.name
        assert card.wound_level == card.chivalry_points // 10
        if card.virtue_level == 0:
            assert card.name == "Sir Galahad"
            continue
        vp = virtue_points_range(card.chivalry_points, card.virtue_level)
        assert vp is not None, card.name
        lo, hi = vp
        assert math.ceil(card.chivalry_points / lo) == card.virtue_level
        if hi is not None:
            assert math.ceil(card.chivalry_points / hi) == card.virtue_level
            assert math.ceil(card.chivalry_points / (hi + 1)) != card.virtue_level
        assert lo == 1 or math.ceil(card.chivalry_points / (lo - 1)) != card.virtue_level
    assert virtue_points_range(165, 1) == (165, None)
    assert virtue_points_range(50, 10) == (5, 5)             # the Basic Scenario's start
    assert virtue_points_range(100, 4) == (25, 33)           # the Grail scenario's start
    assert virtue_points_range(40, 12) is None


def test_arthurian_knights_are_more_virtuous_and_chivalrous(world):
    arth = [k for k in world.knights if k.arthurian]
    common = [k for k in world.knights if not k.arthurian]
    assert len(arth) == 40 and len(common) == 35
    mean = lambda xs: sum(xs) / len(xs)  # noqa: E731
    assert mean([k.chivalry_points for k in arth]) > mean([k.chivalry_points for k in common]) + 40
    assert mean([k.virtue_level for k in arth]) < mean([k.virtue_level for k in common]) - 3
    assert all(k.chivalry_points >= 100 for k in arth), "the Round Table wants 100 CP"
    assert sorted(k.virtue_level for k in arth)[len(arth) // 2] <= 5
    # enough villains for the rules' "redraw until VL 6 or worse"
    assert len([k for k in world.knights if k.virtue_level >= 6]) >= 20


def test_kings(world):
    assert sorted(k.kingdom for k in world.kings) == sorted(world.kingdoms)
    arthur = next(k for k in world.kings if k.name == "King Arthur")
    assert arthur.kingdom == "Logres"
    assert all(k.virtue_level >= 0 for k in world.kings)


def test_ladies(world):
    enchantresses = [l for l in world.ladies if l.enchantress]
    assert 5 <= len(enchantresses) <= 10
    assert all(0 <= l.seduction_adjustment < 5 for l in world.ladies), "Morgan's +5 stays the greatest"
    assert all(1 <= l.service_award < 30 for l in world.ladies), "Morgan's 30 stays the greatest"
    assert all(1 <= l.virtue_level <= 12 for l in world.ladies)
    assert len([l for l in world.ladies if l.virtue_level >= 6]) >= 8, "wanton ladies for the town chart"
    assert len([l for l in world.ladies if l.virtue_level >= 6 and not l.enchantress]) >= 4
    mean = lambda xs: sum(xs) / len(xs)  # noqa: E731
    assert mean([l.seduction_adjustment for l in enchantresses]) > mean(
        [l.seduction_adjustment for l in world.ladies if not l.enchantress]) + 1


def _animal_lists(rules):
    text = rules.text
    body = re.search(r"The Animals and their respective WLs are:\s*\n\s*\n(.+)\n", text).group(1)
    body = dict((name, int(wl)) for name, wl in re.findall(r"([A-Z][a-z]+)(?: \([A-Za-z]+\))? (\d+)", body))
    i = text.index("Animals and their WLs")
    summary = dict((name, int(wl)) for name, wl in re.findall(r"^([A-Z][a-z]+)\t(\d+)$", text[i:i + 200], re.M))
    return body, summary


def test_animals_follow_the_rules_encounter_section(world, rules):
    body, summary = _animal_lists(rules)
    ours = {c.name: c.wound_level for c in world.chits if c.kind == "animal"}
    assert ours == body
    assert sorted(summary.values()) == sorted(body.values()) and summary != body   # documented contradiction
    assert world.chit_kinds["animal"].attack_dice == 2


def test_monsters_follow_the_rules_tables(world, rules):
    text = rules.text
    i = text.index("The Monsters and their respective WLs are:")
    body = Counter(re.findall(r"([A-Z][a-z]+)\t(\d+)", text[i:i + 300]))
    j = text.index("Monsters and their WLs", i + 100)
    summary = Counter(re.findall(r"([A-Z][a-z]+)\t(\d+)", text[j:j + 300]))
    ours = Counter((c.name, str(c.wound_level)) for c in world.chits if c.kind == "monster" for _ in range(c.count))
    assert sum(ours.values()) == 12
    assert ours == summary
    assert body - summary == Counter({("Serpent", "26"): 1})      # documented contradiction
    assert ("Serpent", "16") in ours and ("Ogre", "10") in ours and ("Dragon", "25") in ours
    assert ("Troll", "7") in ours and ("Troll", "8") in ours
    assert world.chit_kinds["monster"].attack_dice == 3


def test_brigands_ships_and_specials(world):
    brigands = [c.wound_level for c in world.chits if c.kind == "brigand" for _ in range(c.count)]
    assert len(brigands) >= 10                      # pirates are ten brigand chits
    mean = sum(brigands) / len(brigands)
    adv = {e.key: e for e in world.charts["adventures"].entries}
    assert math.floor(5 * mean) == adv["vanquish_brigands"].get("cp") == 17
    assert math.floor(7 * mean) == adv["irish_brigands"].get("cp") == 24
    ships = [c for c in world.chits if c.kind == "ship"]
    assert len([s for s in ships if not s.optional]) >= 6 and all(s.crew for s in ships)
    assert next(s for s in ships if s.optional).crew == 35
    names = {c.name for c in world.chits}
    assert {"Merlin/Morgan Le Fay", "Questing Beast", "Holy Grail", "Dwarf", "Pilgrims", "Castle"} <= names
    assert {"A-1", "F-3"} <= names
    dwarf = next(c for c in world.chits if c.kind == "dwarf")
    assert dwarf.wound_level == 1
    dice = {k.name: k.attack_dice for k in world.chit_kinds.values()}
    assert (dice["brigand"], dice["dwarf"], dice["ship"], dice["lady"], dice["pilgrim"]) == (2, 2, 2, 1, 1)
    assert [pc.letter for pc in world.player_colours] == list("ABCDEFGH")    # the box has A-F
