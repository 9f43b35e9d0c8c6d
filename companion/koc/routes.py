"""Routes across the map: shortest by land, shortest by ship, and the rules' most direct route.

Three questions, three functions:

``land_route(world, a, b)``
    Fewest encounter areas entered, riding or walking (land links and river crossings).
    Islands without a bridge of river (Ireland, Wight, Servage, Gaul...) cannot be reached.

``ship_route(world, a, b)``
    Fewest ship moves (one move per turn) along ship links: sea to sea, to a coast, to a
    port, along a navigable river. It starts where a ship can be: a port (where a knight
    boards), a sea or a navigable river; it may end at a port, a sea, a navigable river or
    the coast of a land area.

``direct_route(world, a, b, allowance=3)``
    The "shortest possible route" or "most direct route" that adventures, pilgrimages,
    escorts, summonses and errands require: the route that arrives in the fewest turns,
    counting ``allowance`` land moves per turn (3 mounted, 1 walking with pilgrims or a
    hermit, 4 on a Valiant Charger), boarding ending the turn, one sea or river move per turn,
    arrival at a port ending the turn, and a full turn to debark on a coast or in a river
    (after which entering the coast's area is the next turn's first move). With these costs a
    ship wins only where the land gives no way (islands, Gaul) or a very long one, which is
    why the rules say such routes "almost never" take ship.

Ties are broken the same way everywhere, so the answer never depends on dictionary order:
fewer turns, then fewer ship moves, then fewer moves in all, then the route whose area names
(compared case-insensitively, one by one from the start) come first alphabetically.
"""
from __future__ import annotations

import heapq
from typing import Any

from companion.engine.names import fold
from companion.engine.record import record
from companion.errors import CompanionError

from .world import OPEN_LAND, SITES, Area, World

LAND_KINDS = ("countryside", "forest", "river", "wasteland", "town", "castle", "shrine")


@record(frozen=True)
class Step:
    """One step of a route: the area reached and how (start, land, river, board, sail,
    coast, debark, land_from_coast)."""

    area: str
    how: str
    turn: int = 0


@record(frozen=True)
class Route:
    """A route found by ``find_route``: how it goes (``by``), its steps and, for a direct
    route, the turns it takes at ``allowance`` areas a turn."""

    by: str
    steps: tuple[Step, ...]
    turns: int | None = None
    allowance: int | None = None

    @property
    def areas(self) -> list[str]:
        """The areas in order, each named once (boarding and debarking stay in place)."""
        out: list[str] = []
        for s in self.steps:
            if not out or out[-1] != s.area:
                out.append(s.area)
        return out

    @property
    def moves(self) -> int:
        return sum(1 for s in self.steps if s.how in ("land", "river", "sail", "coast", "land_from_coast"))

    @property
    def ship_moves(self) -> int:
        return sum(1 for s in self.steps if s.how in ("sail", "coast"))

    def text(self) -> str:
        names = " -> ".join(self.areas)
        if self.by == "land":
            summary = f"{self.moves} move{'s' if self.moves != 1 else ''} by land"
        elif self.by == "ship":
            summary = f"{self.moves} ship move{'s' if self.moves != 1 else ''} (one a turn)"
        else:
            summary = (f"{self.turns} turn{'s' if self.turns != 1 else ''} at {self.allowance} "
                       f"area{'s' if self.allowance != 1 else ''} a turn"
                       + (f", {self.ship_moves} by ship" if self.ship_moves else ""))
        return f"{names}\n({summary})"

    def to_json(self) -> dict[str, Any]:
        return {"by": self.by, "areas": self.areas, "moves": self.moves, "ship_moves": self.ship_moves,
                "turns": self.turns, "allowance": self.allowance,
                "steps": [{"area": s.area, "how": s.how, "turn": s.turn} for s in self.steps]}


def _names_key(path: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(fold(n) for n in path)


def _land_neighbours(world: World, area: Area) -> list[tuple[str, str]]:
    links = area.links()
    out = [(n, "land") for n in links["land"]]
    out += [(n, "river") for n in links["river"]]
    return out


def _cheapest(world: World, start: str, goal: str, neighbours) -> list[tuple[str, str]] | None:
    """Fewest steps from start to goal; ties broken by the folded area names along the way."""
    heap: list[tuple[int, tuple[str, ...], str, tuple[tuple[str, str], ...]]] = [(0, (fold(start),), start, ())]
    best: dict[str, tuple[int, tuple[str, ...]]] = {}
    while heap:
        cost, key, name, steps = heapq.heappop(heap)
        if name in best:
            continue
        best[name] = (cost, key)
        if name == goal:
            return list(steps)
        for other, how in neighbours(world.areas[name]):
            if other not in best:
                heapq.heappush(heap, (cost + 1, key + (fold(other),), other, steps + ((other, how),)))
    return None


def land_route(world: World, start: str, goal: str) -> Route:
    """Shortest route by land (fewest encounter areas entered)."""
    a, b = world.area(start), world.area(goal)
    for x in (a, b):
        if x.kind == "sea":
            raise CompanionError(f"'{x.name}' is a sea: no land route goes there", hint="try a route by ship")
    if b.otherworld or a.otherworld:
        raise CompanionError("Faerie has no borders: only magic takes a knight there or back")
    steps = _cheapest(world, a.name, b.name, lambda ar: _land_neighbours(world, ar))
    if steps is None:
        raise CompanionError(f"no land route from {a.name} to {b.name}",
                             hint="it lies across the sea: try a route by ship")
    return Route("land", (Step(a.name, "start"),) + tuple(Step(n, h) for n, h in steps))


def _ship_position(area: Area) -> bool:
    return area.kind == "sea" or area.navigable or area.port


def ship_route(world: World, start: str, goal: str) -> Route:
    """Shortest route by ship (fewest ship moves), from a port, sea or navigable river."""
    a, b = world.area(start), world.area(goal)
    if not _ship_position(a):
        ports = [p for p in world.ports() if set(world.areas[p].kingdoms) & set(a.kingdoms)]
        raise CompanionError(f"a ship cannot start from {a.name}: knights board only at a port",
                             hint=f"ports nearby: {', '.join(ports)}" if ports else "route by land to a port first")
    if not (_ship_position(b) or (b.kind in OPEN_LAND and b.coast)):
        raise CompanionError(f"a ship cannot reach {b.name}",
                             hint="ships reach ports, seas, navigable rivers and coasts")

    def neighbours(ar: Area):
        if ar.kind in OPEN_LAND:       # a coast: the ship stops there
            return []
        if ar.port and ar.name != a.name:   # arriving at a port ends the voyage
            return []
        return [(n, "coast" if world.areas[n].kind in OPEN_LAND else "sail") for n in ar.ship]

    steps = _cheapest(world, a.name, b.name, neighbours)
    if steps is None:
        raise CompanionError(f"no route by ship from {a.name} to {b.name}")
    return Route("ship", (Step(a.name, "start"),) + tuple(Step(n, h) for n, h in steps))


def direct_route(world: World, start: str, goal: str, allowance: int = 3, ships: bool = True,
                 *, mode: str | None = None,
                 castle_ports: bool | tuple[str, ...] = True) -> Route:
    """The most direct route in turns, by land and/or ship (see the module notes).

    ``ships=False`` keeps to land (a walk such as adventure 4:3, the pilgrimage to Canterbury).
    ``mode`` is where the knight stands in ``start``: ``land`` (the default; ``ship`` on a sea),
    ``ship`` (aboard, in a port, a river or a sea: he may also go ashore where he lies in a port),
    ``coast`` (aboard a ship lying off the coast of ``start``: it lands him, or sails back out)
    or ``ashore`` (landed on that coast: going inland is his first move). ``castle_ports``:
    False neither boards nor puts in at a castle's port, whose gate may stay shut; a tuple of
    castle names uses the ports of those castles alone (a knight's ``go to``: the castle he
    is inside; movement.voyage_route).
    """
    if allowance < 1:
        raise CompanionError("the movement allowance must be at least 1")
    a, b = world.area(start), world.area(goal)
    if a.otherworld or b.otherworld:
        raise CompanionError("Faerie has no borders: only magic takes a knight there or back")
    full = allowance
    may_sail = ships

    def port_open(area: Area) -> bool:
        return area.kind != "castle" or castle_ports is True or (
            not isinstance(castle_ports, bool) and area.name in castle_ports)

    def after_land(t: int, u: int) -> tuple[int, int]:
        return (t, u + 1) if u < full else (t + 1, 1)

    def after_board(t: int, u: int) -> tuple[int, int]:
        return (t, full)          # boarding costs no movement but ends the turn's movement

    def after_full_turn(t: int, u: int) -> tuple[int, int]:
        return (t, full) if u == 0 else (t + 1, full)   # a whole turn: this one if still unused

    start_mode = mode or ("ship" if a.kind == "sea" else "land")
    if start_mode not in ("land", "ship", "coast", "ashore"):
        raise CompanionError(f"unknown starting position '{mode}'")
    goal_mode = "ship" if b.kind == "sea" else "land"
    # time is (turn, moves used in that turn); the knight starts turn 1 with nothing used.
    # heap item: (turn, used, ships, moves, names, area, mode, steps)
    heap: list[Any] = [(1, 0, 0, 0, (fold(a.name),), a.name, start_mode, ())]
    done: set[tuple[str, str]] = set()
    areas = world.areas
    while heap:
        t, u, ships, moves, key, name, mode, steps = heapq.heappop(heap)
        if (name, mode) in done:
            continue
        done.add((name, mode))
        if name == b.name and mode == goal_mode:
            turns = t if steps else 0
            return Route("direct", (Step(a.name, "start", 0),) + steps, turns, allowance)
        here = areas[name]
        nexts: list[tuple[int, int, int, int, str, str, str]] = []
        if mode == "land":
            for other, how in _land_neighbours(world, here):
                nt, nu = after_land(t, u)
                nexts.append((nt, nu, ships, moves + 1, other, "land", how))
            if here.port and may_sail and port_open(here):
                nt, nu = after_board(t, u)
                nexts.append((nt, nu, ships, moves, name, "ship", "board"))
        elif mode == "ship":
            for other in here.ship:
                o = areas[other]
                nt, nu = after_full_turn(t, u)
                if o.kind == "sea" or o.navigable:
                    nexts.append((nt, nu, ships + 1, moves + 1, other, "ship", "sail"))
                elif o.port and o.kind in SITES:
                    if port_open(o):
                        nexts.append((nt, nu, ships + 1, moves + 1, other, "land", "sail"))
                elif o.kind in OPEN_LAND and here.kind == "sea":
                    nexts.append((nt, nu, ships + 1, moves + 1, other, "coast", "coast"))
            if here.navigable or (name == a.name and here.port and here.kind in SITES):
                # in a river; or still in the port he starts from, aboard (going ashore there
                # ends the turn, as boarding does)
                nt, nu = after_full_turn(t, u)
                nexts.append((nt, nu, ships, moves, name, "land", "debark"))
        elif mode == "coast":
            nt, nu = after_full_turn(t, u)
            nexts.append((nt, nu, ships, moves, name, "ashore", "debark"))
            if name == a.name and steps == ():
                for other in here.ship:       # lying off the coast he starts at: out to sea
                    if areas[other].kind == "sea":
                        nt, nu = after_full_turn(t, u)
                        nexts.append((nt, nu, ships + 1, moves + 1, other, "ship", "sail"))
        elif mode == "ashore":
            nt, nu = after_land(t, u)
            nexts.append((nt, nu, ships, moves + 1, name, "land", "land_from_coast"))
        for nt, nu, nships, nmoves, other, nmode, how in nexts:
            if (other, nmode) in done:
                continue
            step = Step(other, how, nt)
            heapq.heappush(heap, (nt, nu, nships, nmoves, key + (fold(other),), other, nmode, steps + (step,)))
    raise CompanionError(f"no route from {a.name} to {b.name}",
                         hint=None if may_sail else "it lies across the sea: allow ships")


ROUTE_KINDS = ("direct", "land", "ship")


def find_route(world: World, start: str, goal: str, by: str = "direct", allowance: int = 3,
               ships: bool = True) -> Route:
    """Route between two typed area names: ``by`` is "direct" (default), "land" or "ship".

    ``allowance`` and ``ships`` apply to the direct route (areas per turn; whether it may sail).
    """
    if by == "land":
        return land_route(world, start, goal)
    if by == "ship":
        return ship_route(world, start, goal)
    if by == "direct":
        return direct_route(world, start, goal, allowance, ships)
    raise CompanionError(f"unknown kind of route '{by}'", hint=f"use one of {', '.join(ROUTE_KINDS)}")
