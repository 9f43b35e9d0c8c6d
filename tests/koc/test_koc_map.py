"""The map: links, reachability, royal castles, deployment, coasts and geography."""
from __future__ import annotations

from collections import deque

import pytest

from companion.koc.world import LOGRES


def test_links_are_symmetric(world):
    for area in world.areas.values():
        for key in ("land", "river", "ship"):
            for other in getattr(area, key):
                assert area.name in getattr(world.areas[other], key), (area.name, key, other)
        if area.within:
            assert area.name in world.areas[area.within].sites
        for name in area.adjacent():
            assert area.name in world.areas[name].adjacent(), (area.name, name)


def test_every_area_is_reachable(world):
    start = "Camelot Castle"
    seen, queue = {start}, deque([start])
    while queue:
        for other in world.areas[queue.popleft()].adjacent():
            if other not in seen:
                seen.add(other)
                queue.append(other)
    unreachable = sorted(set(world.areas) - seen)
    assert unreachable == ["Faerie"], "only Faerie (reached by magic) has no borders"


def test_counts(world):
    kinds = {}
    for a in world.areas.values():
        kinds[a.kind] = kinds.get(a.kind, 0) + 1
    assert kinds["sea"] == 6
    assert len(world.kingdoms) == 15
    assert len(world.castellanies) == 6
    assert set(world.independent) == {"Isle of Servage", "Road to Rome", "Faerie"}
    assert len(world.provinces(LOGRES)) == 11
    for name in world.kingdoms:
        if name == LOGRES:
            continue
        n = len(world.provinces(name))
        assert 1 <= n <= 3, name
    singles = sorted(k for k in world.kingdoms if k != LOGRES and len(world.provinces(k)) == 1)
    assert singles == ["Brittany", "Ireland", "Listenoise", "Strangore"]
    for c in world.castellanies:
        assert 1 <= len(world.provinces(LOGRES, c)) <= 3


def test_castellanies_rule_the_provinces_the_rules_list(world):
    expected = {
        "Jagent": ["Somerset", "Hampshire", "Isle of Wight"],
        "Beale-Valet": ["Warwick", "Hereford"],
        "Abblasore": ["Mercia"],
        "Bedegraine": ["Lincoln"],
        "Vagon": ["Buckingham"],
        "Magouns": ["Surrey", "Kent", "Sussex"],
    }
    for name, provinces in expected.items():
        assert world.provinces(LOGRES, name) == provinces
    assert [c.number for c in world.castellanies.values()] == [1, 2, 3, 4, 5, 6]


def test_every_kingdom_and_castellany_has_its_royal_castle(world):
    for kingdom in world.kingdoms.values():
        castle = world.royal_castle(kingdom.name)
        assert castle.kind == "castle"
        assert castle.kingdoms == (kingdom.name,)
    for c in world.castellanies.values():
        castle = world.royal_castle(LOGRES, c.name)
        assert castle.kind == "castle" and castle.castellanies == (c.name,)
    assert world.royal_castle(LOGRES).name == "Camelot Castle"
    assert world.royal_castle("Listenoise").name == "Carbonek"
    assert world.royal_castle("Cornwall").name == "Tintagel"
    assert world.royal_castle("Brittany").name == "Howel"
    assert world.royal_castle(LOGRES, "Jagent").name == "Jagent"
    royal = [a for a in world.areas.values() if a.kind == "castle"]
    assert len(royal) == 15 + 6, "every castle on the printed map is a royal or castellany seat"


@pytest.mark.parametrize("chart", ["deploy_countryside", "deploy_castle"])
def test_every_deployment_roll_lands_on_an_area(world, chart):
    c = world.charts[chart]
    seen = set()
    n = 0
    for dice, entry in c.outcomes():
        n += 1
        area = world.areas[entry.get("area")]
        assert area.kind in ("countryside", "forest", "river", "wasteland")
        assert not area.otherworld
        res = c.resolve(list(dice))
        assert res.entry is entry
        seen.add(area.name)
    assert n > 100
    if chart == "deploy_countryside":
        provinces = {a.name for a in world.areas.values()
                     if a.kind == "countryside" and a.kingdom in world.kingdoms}
        assert seen == provinces


def test_deployment_chart_areas_touch_the_rolled_kingdom(world):
    kingdom_chart = world.charts["random_kingdom"]
    for chart in ("deploy_countryside", "deploy_castle"):
        for entry in world.charts[chart].entries:
            k = next(e for e in kingdom_chart.entries
                     if all(entry.roll[d].lo >= e.roll[d].lo and entry.roll[d].hi <= e.roll[d].hi
                            for d in range(len(e.roll))))
            area = world.areas[entry.get("area")]
            if area.name == "Isle of Servage":
                continue  # rolled under Ireland's number (see docs/koc-world.md)
            assert k.get("kingdom") in area.kingdoms, (chart, entry.roll_text, area.name)
            if k.get("castellany"):
                assert k.get("castellany") in area.castellanies, (chart, entry.roll_text, area.name)


def test_gore_is_high_on_both_charts(world):
    assert world.charts["random_kingdom"].resolve([3, 3, 5]).entry.get("kingdom") == "Gore"
    assert world.charts["random_kingdom"].resolve([3, 3, 2]).entry.get("kingdom") == "Strangore"
    assert world.area(world.charts["deploy_countryside"].resolve([1, 5, 5, 1]).entry.get("area")).kingdom == "Gore"
    assert "Gore" in world.area(world.charts["deploy_castle"].resolve([1, 5, 5, 1, 1]).entry.get("area")).kingdoms
    assert world.charts["deploy_castle"].resolve([1, 5, 2, 1]).entry.get("area") == "Strangore"


def test_ports_and_navigable_rivers(world):
    navigable = sorted(a.name for a in world.areas.values() if a.navigable)
    assert navigable == ["Mouth of the Thames", "Orne", "Test", "Thames"]
    assert "Camelot Castle" in world.areas["Test"].ship and "Camelot Town" in world.areas["Test"].ship
    assert "London" in world.areas["Thames"].ship
    assert world.areas["Mouth of the Thames"].ship == ("North Sea", "Thames")
    for name in world.ports():
        a = world.areas[name]
        assert a.kind in ("town", "castle")
        assert any(world.areas[s].kind in ("sea", "river") for s in a.ship)
    for a in world.areas.values():
        if a.kind in ("town", "castle", "shrine") and not a.port:
            assert not a.ship


def test_every_kingdom_has_a_coast_and_only_vagon_lacks_one(world):
    for kingdom in world.kingdoms:
        assert any(world.areas[p].coast for p in world.provinces(kingdom)), kingdom
    coastless = [c for c in world.castellanies
                 if not any(world.areas[p].coast for p in world.provinces(LOGRES, c))]
    assert coastless == ["Vagon"]


def test_north_sea_has_no_foreign_shore_and_washes_the_wastelands(world):
    foreign = {k for k, v in world.kingdoms.items() if v.overseas} | set(world.independent)
    north = world.areas["North Sea"]
    shores = [world.areas[n] for n in north.ship if world.areas[n].kind != "sea"]
    assert not [a.name for a in shores if set(a.kingdoms) & foreign]
    assert {"Lincoln Marsh", "Holbeach Marsh", "Terrington Marsh"} <= set(north.ship)
    for sea in world.areas.values():
        if sea.kind == "sea" and sea.name != "North Sea":
            assert any(set(world.areas[n].kingdoms) & foreign for n in sea.ship if world.areas[n].kind != "sea"), \
                f"{sea.name} needs a non-Britain coast for castaways"


def test_real_geography(world):
    severn = world.areas["Severn"]
    assert "Powys" in severn.river and "Mercia" in severn.river
    thames = world.areas["Thames"]
    assert "Buckingham" in thames.river and "Surrey" in thames.river
    assert "Mercia" in world.areas["Dee"].river and "Gwynedd" in world.areas["Dee"].river
    assert set(world.areas["Tamar"].river) == {"Cornwall", "Devon"}
    assert set(world.areas["Humber"].river) == {"Yorkshire", "Lincoln"}
    assert set(world.areas["Menai"].river) == {"Gwynedd", "Isle of Avalon"}
    assert set(world.areas["Terrington Marsh"].provinces) == {"Gore", "Norfolk"}
    for island in ("Isle of Wight", "Ireland", "Isle of Servage"):
        a = world.areas[island]
        outside = [n for n in (*a.land, *a.river)]
        assert not outside, f"{island} is an island"


def test_islands_need_ships_but_avalon_has_the_strait(world):
    from companion.koc.routes import land_route
    from companion.errors import CompanionError
    with pytest.raises(CompanionError):
        land_route(world, "Camelot Castle", "Ireland")
    assert "Menai" in land_route(world, "Camelot Castle", "Isle of Avalon").areas


def test_lady_escort_destinations(world):
    assert world.kingdoms["Strangore"].escort_destination == "London"
    assert world.kingdoms[LOGRES].escort_destination == "London"
    assert world.kingdoms["Lothian"].escort_destination == "St. Andrew"
    assert world.kingdoms["Benwick"].escort_destination == "Barflete"
    for k in world.kingdoms.values():
        dest = world.areas[k.escort_destination]
        assert dest.is_town or dest.is_shrine or dest.port
        if k.name not in ("Strangore",):
            assert k.name in dest.kingdoms


def test_countryside_modifiers(world):
    assert world.countryside_modifier("Scotland") == -1
    assert world.countryside_modifier("Argyll") == -1
    assert world.countryside_modifier("Bernicia") == -1
    assert world.countryside_modifier("Kent") == 1
    assert world.countryside_modifier("Listenoise") == 0
    assert world.countryside_modifier("Lincoln Marsh") == 0      # Logres +1, wasteland -1
    assert world.countryside_modifier("Massingham Heath") == -1


def test_merlin_zone(world):
    zone = world.merlin_zone("Gore")
    assert "Terrington Marsh" in zone and "Sorhaute" in zone and "Breckland Forest" in zone
    assert "Terrington Marsh" in world.merlin_zone("Norfolk")
    assert "Hampshire" in world.merlin_zone("Hampshire") and "Camelot Castle" in world.merlin_zone("Hampshire")


def test_adjacency_beyond_the_castle_chart_is_the_documented_set(world):
    """Where real geography makes a river or forest touch a kingdom the castle chart does not
    list it under, docs/koc-world.md says so; nothing else may differ."""
    listed: dict[str, set] = {}
    kchart = world.charts["random_kingdom"]
    for entry in world.charts["deploy_castle"].entries:
        k = next(e for e in kchart.entries
                 if all(entry.roll[d].lo >= e.roll[d].lo and entry.roll[d].hi <= e.roll[d].hi
                        for d in range(len(e.roll))))
        listed.setdefault(entry.get("area"), set()).add(k.get("castellany") or k.get("kingdom"))
    extra = set()
    for a in world.areas.values():
        if a.kind in ("forest", "river", "wasteland"):
            touched = {world.areas[p].castellany or world.areas[p].kingdom for p in a.provinces}
            for place in touched - listed.get(a.name, set()):
                extra.add((a.name, place))
    assert extra == {("Severn", "Wales"), ("Wye", "Beale-Valet"), ("Tweed", "Northumberland")}


def test_derived_deployment_numbers(world):
    assert world.areas["Isle of Servage"].deploy_castle == ("11/6",)
    assert world.areas["Kent"].deploy_countryside == ("7/6/3-4",)
    assert set(world.areas["Breckland Forest"].deploy_castle) == {
        "6/1-3/4-6/1-2", "6/4-6/4-6/2", "7/4/4/4-6", "7/5/4-6/1"}
    assert world.areas["Faerie"].deploy_castle == () and world.areas["Rome"].deploy_castle == ()
