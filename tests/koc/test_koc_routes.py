"""Route finding: by land, by ship, and the most direct route; names as users type them."""
from __future__ import annotations

import dataclasses
import itertools

import pytest

from companion.errors import CompanionError
from companion.koc.routes import direct_route, find_route, land_route, ship_route


def test_land_route_to_carbonek(world):
    route = land_route(world, "Camelot Castle", "Carbonek")
    assert route.areas == ["Camelot Castle", "Hampshire", "Bradon Forest", "Warwick", "Mercia",
                           "Bowland Forest", "Listenoise", "Carbonek"]
    assert route.moves == 7
    assert "7 moves by land" in route.text()


def test_direct_route_counts_turns(world):
    route = direct_route(world, "Camelot Castle", "Carbonek")
    assert route.turns == 3 and route.ship_moves == 0
    walking = direct_route(world, "Camelot Castle", "Carbonek", allowance=1)
    assert walking.turns == walking.moves == 7
    charger = direct_route(world, "Camelot Castle", "Carbonek", allowance=4)
    assert charger.turns == 2
    assert direct_route(world, "Camelot Castle", "Camelot Castle").turns == 0


def test_pilgrimage_to_canterbury_walks(world):
    route = find_route(world, "Tintagel", "Canterbury", allowance=1, ships=False)
    assert route.ship_moves == 0 and route.turns == route.moves == 8
    assert route.areas[-2:] == ["Kent", "Canterbury"]
    # a walking party that may sail gets there a turn sooner along the south coast
    by_sea = find_route(world, "Tintagel", "Canterbury", allowance=1)
    assert by_sea.ship_moves and by_sea.turns == 7
    with pytest.raises(CompanionError):
        find_route(world, "Camelot Castle", "Dublin", ships=False)


def test_rome_needs_a_ship(world):
    with pytest.raises(CompanionError) as exc:
        land_route(world, "Camelot Castle", "Rome")
    assert "ship" in (exc.value.hint or "")
    route = direct_route(world, "Camelot", "Rome")
    assert route.ship_moves == 2
    assert route.areas[-2:] == ["Road to Rome", "Rome"]
    hows = [s.how for s in route.steps]
    assert "board" in hows and "sail" in hows
    assert route.turns == 5


def test_ship_routes(world):
    route = ship_route(world, "London", "Barflete")
    assert route.areas == ["London", "Thames", "Mouth of the Thames", "North Sea", "Narrow Sea", "Barflete"]
    assert route.moves == 5
    route = ship_route(world, "Camelot Town", "Ganis")
    assert route.areas == ["Camelot Town", "Test", "Narrow Sea", "Orne", "Ganis"]
    route = ship_route(world, "Dublin", "Isle of Servage")
    assert route.areas == ["Dublin", "Irish Sea", "Isle of Servage"] and route.steps[-1].how == "coast"
    with pytest.raises(CompanionError) as exc:
        ship_route(world, "Hampshire", "Barflete")
    assert "port" in exc.value.message
    with pytest.raises(CompanionError) as exc:
        ship_route(world, "London", "Buckingham")             # Vagon has no coast
    assert "cannot reach" in exc.value.message


def test_ship_route_reaches_a_coast(world):
    route = ship_route(world, "Dublin", "Mercia")
    assert route.areas == ["Dublin", "Irish Sea", "Mercia"]


def test_islands_and_overseas(world):
    for island in ("Ireland", "Isle of Wight", "Isle of Servage", "Gaul"):
        with pytest.raises(CompanionError):
            land_route(world, "Camelot Castle", island)
        route = direct_route(world, "Camelot Castle", island)
        assert route.ship_moves >= 1 and route.areas[-1] == world.area(island).name
    assert land_route(world, "Camelot Castle", "Isle of Avalon").areas[-2:] == ["Menai", "Isle of Avalon"]


def test_debarking_on_a_coast_takes_a_turn(world):
    # from a sea the knight can land on Ireland's coast; a port is faster when there is one
    route = direct_route(world, "Western Ocean", "Ireland")
    assert [s.how for s in route.steps] == ["start", "coast", "debark", "land_from_coast"]
    assert route.turns == 3


def test_faerie_has_no_route(world):
    for fn in (land_route, direct_route):
        with pytest.raises(CompanionError) as exc:
            fn(world, "Camelot Castle", "Faerie")
        assert "magic" in exc.value.message


def test_names_as_typed(world):
    assert land_route(world, "camelot", "carbonek").areas[0] == "Camelot Castle"
    assert world.area("i. of wight").name == "Isle of Wight"
    assert world.area("ysthywyth").name == "Ysthwyth"
    assert world.area("st andrew").name == "St. Andrew"
    assert world.area("Mouth").name == "Mouth of the Thames"
    with pytest.raises(CompanionError) as exc:
        world.area("Hamshire")
    assert "Hampshire" in exc.value.hint
    with pytest.raises(CompanionError) as exc:
        world.area("Cam")
    assert "ambiguous" in exc.value.message and "Camelot Town" in exc.value.message
    with pytest.raises(CompanionError):
        find_route(world, "London", "York", by="teleport")


def test_routes_are_symmetric_in_length(world):
    names = ["Camelot Castle", "York", "Tintagel", "St. Andrew", "Llanthony", "Canterbury", "Sorhaute"]
    for a, b in itertools.combinations(names, 2):
        assert land_route(world, a, b).moves == land_route(world, b, a).moves


def test_tie_breaking_does_not_depend_on_file_order(world):
    shuffled = dataclasses.replace(world, areas=dict(reversed(list(world.areas.items()))))
    names = ["Camelot Castle", "York", "Tintagel", "Dublin", "Rome", "Deganwy", "Barflete", "Edinburgh"]
    for a, b in itertools.permutations(names, 2):
        for by in ("direct", "land"):
            try:
                first = find_route(world, a, b, by=by)
            except CompanionError:
                continue
            assert find_route(shuffled, a, b, by=by).steps == first.steps, (a, b, by)


def test_route_json(world):
    data = direct_route(world, "London", "York").to_json()
    assert data["areas"][0] == "London" and data["areas"][-1] == "York"
    assert data["by"] == "direct" and data["turns"] >= 1


def test_direct_route_from_aboard_or_ashore(world):
    """Where the knight stands in the starting area (the route 'go to' follows from rules
    edition 4): aboard in a port he may go ashore (a whole turn); aboard off a coast the ship
    lands him or sails back out; landed on a coast, going inland is his first move."""
    route = direct_route(world, "Dublin", "Tara", mode="ship")
    assert [(s.area, s.how) for s in route.steps] == [
        ("Dublin", "start"), ("Dublin", "debark"), ("Ireland", "land"), ("Tara", "land")]
    route = direct_route(world, "Mercia", "Tara", mode="coast")
    assert [s.how for s in route.steps][:3] == ["start", "sail", "sail"]
    assert route.areas[:3] == ["Mercia", "Irish Sea", "Dublin"]
    assert [s.how for s in direct_route(world, "Mercia", "Hampshire", mode="coast").steps][
        :3] == ["start", "debark", "land_from_coast"]
    route = direct_route(world, "Ireland", "Tara", mode="ashore")
    assert [s.how for s in route.steps] == ["start", "land_from_coast", "land"]
    with pytest.raises(CompanionError):
        direct_route(world, "Ireland", "Tara", mode="flying")


def test_direct_route_without_castle_ports(world):
    """A castle's port opens to a friendly castle reaction alone: without castle ports (or
    with only the named ones) the route boards and puts in at towns."""
    route = direct_route(world, "Tintagel", "Ireland")
    assert route.areas == ["Tintagel", "Celtic Sea", "Ireland"]
    by_town = direct_route(world, "Tintagel", "Ireland", castle_ports=False)
    assert "Camelot Town" in by_town.areas and by_town.turns > route.turns
    assert direct_route(world, "Tintagel", "Ireland", castle_ports=("Tintagel",)).steps == \
        route.steps
    assert "Magouns" not in direct_route(world, "Camelot Castle", "Gaul",
                                         castle_ports=False).areas
