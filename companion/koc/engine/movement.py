"""The movement and encounters phase.

The player's orders give a plan: a list of steps (``move`` to an adjacent area, ``to`` a
destination along the most direct land route, or from rules edition 4 by ship where none leads
there, ``stay``, ``board`` a ship in port, ``sail`` one sea move, ``debark``, ``enter`` a castle
again, ``seek`` somebody). The party moves up to its
allowance; every area entered needs an encounter roll, and an encounter ends the movement.
Without orders the knight follows his first obligation with a destination, or stays.
"""
from __future__ import annotations

from companion.koc.engine import knight as kn
from companion.koc.engine import party
from companion.engine.game import edition
from companion.koc.engine.session import Question, Session
from companion.koc.engine.words import plural
from companion.koc.world import SITES

QUIET = ("forest", "river", "shrine")     # an encounter only on a 1
LANDING_KINDS = ("countryside", "wasteland", "forest")    # coasts a knight may land on


def movement_phase(s: Session, start: dict) -> None:
    pk = s.pk
    from companion.koc.engine import encounters

    # encounters.py: forget earlier turns' meetings, do what earlier encounters set up for this
    # turn (penances, being led to a castle, a gateway), a lost knight's roll in his forest
    if encounters.start_of_movement(s):
        return
    if in_merlins_reach(s, pk["at"]["area"]) and not pk.get("asleep"):
        # Merlin/Morgan finds him wherever he is, in prison or held fast too; nothing else
        # happens (a held turn passes all the same)
        encounters.merlin_encounter(s, starting=True)
        orders = s.game.orders.get(s.player)
        if orders is not None and edition(s.game.state) >= 1 and any(
                step["do"] not in ("stay", "declare") for step in orders.plan):
            s.tell(f"Having met the enchanter where his turn began, {pk['name']} makes none "
                   "of the moves ordered this turn.")
        if pk["immobile"] and not pk["prison"]:
            immobilised(s)
        return
    if pk["prison"]:
        from companion.koc.engine.resolutions import prison_phase

        prison_phase(s)
        return
    if pk.get("guard"):
        orders = s.game.orders.get(s.player)
        from companion.koc.engine import service

        if orders is None or not orders.leave_guard:
            service.guard_duty(s)
            return
        service.leave_guard(s)
    if immobilised(s):
        return
    if pk["mad"]:
        from companion.koc.engine.service import mad_wandering

        mad_wandering(s)
        return
    plan = s.game.orders[s.player].plan if s.game.orders.get(s.player) else None
    if not plan:
        plan = default_plan(s)
    from companion.koc.engine import adventures

    if adventures.movement_hook(s, plan):
        return      # staying at an adventure's site, he spent his movement on it
    Mover(s).run(plan)


def immobilised(s: Session) -> bool:
    """Lost turns: asleep, attending court, amused children, becalmed, resting with a hermit,
    distracted by a wood nymph, waiting for a flood to fall."""
    pk = s.pk
    if not pk["immobile"]:
        return False
    hold = pk["immobile"][0]
    hold["turns"] -= 1
    s.note(f"{pk['name']} does not move this turn: {hold['why']}"
           + (f" ({hold['turns']} more {plural(s, hold['turns'], 'turn')})."
              if hold["turns"] > 0 else "."))
    if hold.get("vp_per_turn"):
        s.gain_vp(hold["vp_per_turn"], hold["why"])
    if hold["turns"] <= 0:
        pk["immobile"].pop(0)
        if hold.get("then"):
            from companion.koc.engine import resolutions

            resolutions.after_hold(s, hold)
    return True


def in_merlins_reach(s: Session, area: str | None) -> bool:
    merlin = s.game.state["merlin"]["area"]
    return bool(area and merlin and area in s.world.merlin_zone(merlin))


def default_plan(s: Session) -> list[dict]:
    """Without orders: head for the first obligation that has a destination, else stay."""
    from companion.koc.engine.tasks import current_destination

    dest = current_destination(s)
    if not dest:
        from companion.koc.engine import grail

        dest = grail.destination(s)     # on the Quest: the bearer, Carbonek, the Grail
        if dest == s.pk["at"]["area"]:
            dest = None
    said = "No movement ordered" if s.game.orders.get(s.player) is not None and \
        edition(s.game.state) >= 1 else "No orders"
    if dest:
        s.tell(f"{said}: {s.pk['name']} keeps on towards {dest}.")
        return [{"do": "to", "area": dest}]
    s.tell(f"{said}: {s.pk['name']} stays where he is.")
    return [{"do": "stay"}]


class Mover:
    """Carries out a movement plan step by step."""

    def __init__(self, s: Session):
        self.s = s
        self.pk = s.pk
        self.allowance = party.movement_allowance(s)
        self.moved = 0
        self.stopped = False
        self.start_area = self.pk["at"]["area"]
        self.had_town_encounter = False
        self.visited: list[str] = []
        self.landed = False         # went ashore this turn (tasks.after_movement: no delay)
        # the ship has just put in at a port by this turn's sea move: from rules edition 4
        # going ashore there is part of that move (ASHORE_IN_PORT)
        self.put_in = False

    @property
    def left(self) -> int:
        return self.allowance - self.moved

    def run(self, plan: list[dict]) -> None:
        s = self.s
        # tasks taken on during this phase (a Knight's Fate, an escort, an adventure heard of
        # in an encounter) and how many areas he had entered by then: their route is judged
        # only from where he took them on (tasks.after_movement)
        known = {t["id"] for t in self.pk["tasks"]}
        taken: dict[int, int] = {}
        from companion.koc.engine.tasks import ORDERS_BEFORE_TASK

        turn = s.game.state["koc"]["turn"]
        unforeseen = {t["id"] for t in self.pk["tasks"] if t.get("since") == turn
                      and t["status"] == "active"} \
            if edition(s.game.state) >= ORDERS_BEFORE_TASK else set()
        for step in plan:
            if self.stopped and not (self.put_in and step["do"] in ("debark", "declare")):
                break
            handler = getattr(self, f"do_{step['do']}")
            handler(step)
            for t in self.pk["tasks"]:
                if t["id"] not in known:
                    known.add(t["id"])
                    # an encounter ends the movement, so whatever gave the task came after
                    # every area entered so far
                    taken[t["id"]] = len(self.visited)
        from companion.koc.engine.tasks import after_movement

        after_movement(s, self.start_area, self.visited, self.stopped, taken=taken,
                       unforeseen=unforeseen, landed=self.landed)
        s.moved_through = list(self.visited)    # tournaments.after_movement: Camelot Town

    # -- land ------------------------------------------------------------------------------
    def do_move(self, step: dict) -> None:
        s, pk = self.s, self.pk
        here = pk["at"]
        target = step["area"]
        if here["where"] == "ship":
            s.tell(f"'move {target}' is not possible aboard a ship (sail or debark first).")
            self.stopped = True
            return
        if here["where"] == "coast" and target != here["area"]:
            s.tell(f"Having landed on the coast, {pk['name']} must first go inland into "
                   f"{here['area']}.")
            self.stopped = True
            return
        # castle counters (encounters.py): one is left into the area it stands in, and
        # entered from that area ('enter', or a step naming it)
        placed = s.game.state.get("castles", {})
        if here.get("castle") and here["where"] in ("inside", "gate"):
            if target != here["area"]:
                s.tell(f"{pk['name']} must first ride out of {here['castle']} into "
                       f"{here['area']}.")
                self.stopped = True
                return
            if self.left <= 0:
                s.tell(f"No movement left to ride out of {here['castle']} this turn.")
                self.stopped = True
                return
            self.enter(target)
            return
        if target in placed and placed[target]["area"] == here["area"]:
            self.enter_castle(target)
            return
        links = s.world.areas[here["area"]].links()
        if target not in links["land"] and target not in links["river"]:
            s.tell(f"{target} cannot be reached from {here['area']} on land; the move stops.")
            self.stopped = True
            return
        dest = s.world.areas[target]
        if self.left <= 0:
            s.tell(f"No movement left to go to {target} this turn.")
            self.stopped = True
            return
        if dest.kind == "sea":
            s.tell(f"{target} is a sea: board a ship in a port to sail.")
            self.stopped = True
            return
        from companion.koc.engine import encounters

        if s.world.areas[here["area"]].kind == "river" and \
                encounters.river_crossing(s, here["area"], target):
            # the turn after an avoided encounter or a flood there (encounters.py)
            self.stopped = True
            return
        wasteland = dest.kind == "wasteland" or s.world.areas[here["area"]].kind == "wasteland"
        if wasteland:
            if self.moved > 0:
                s.tell(f"Wastelands are crossed on foot: {pk['name']} cannot go on into "
                       f"{target} after riding this turn.")
                self.stopped = True
                return
            for rec in party.records(s):      # the whole party walks
                rec["on_foot"] = True
            self.allowance = 1
        self.enter(target)
        if dest.kind == "wasteland":
            self.stopped = True

    def do_to(self, step: dict) -> None:
        """Along the most direct land route to a destination, as far as the allowance goes;
        from rules edition 4 (GO_TO_BY_SHIP) by ship where no land route leads (do_voyage)."""
        from companion.koc.routes import land_route

        s, pk = self.s, self.pk
        goal = step["area"]
        if edition(s.game.state) >= GO_TO_BY_SHIP:
            self.do_voyage(goal)
            if pk["at"]["area"] == goal and not self.stopped and step.get("stop", True):
                self.stopped = True
            return
        while not self.stopped and self.left > 0 and pk["at"]["area"] != goal:
            if pk["at"]["where"] == "ship":
                s.tell(f"Aboard a ship: 'to {goal}' waits until he has landed.")
                return
            try:
                route = land_route(s.world, pk["at"]["area"], goal)
            except Exception:
                s.tell(f"There is no way by land from {pk['at']['area']} to {goal}.")
                self.stopped = True
                return
            self.do_move({"do": "move", "area": route.steps[1].area})
        if pk["at"]["area"] == goal and not self.stopped and step.get("stop", True):
            self.stopped = True

    def do_voyage(self, goal: str) -> None:
        """'go to' from rules edition 4: the most direct land route while one leads there (the
        route of rules editions before), else the most direct route with ships (routes.py,
        direct_route): riding to a town's port, boarding, one ship move a turn, going ashore in
        a port, on a river bank or a coast, then inland. Each step is one this knight could
        order himself (move, board, sail, debark, inland), made as that order makes it; the
        route is planned anew before each, from where he then is. At a castle counter he
        first rides out into the area it stands in."""
        s, pk = self.s, self.pk
        told = False
        for _ in range(4 * len(s.world.areas)):     # every step moves him or ends the turn
            at = pk["at"]
            if (self.stopped and not self.put_in) or \
                    (at["area"] == goal and at["where"] not in ("ship", "coast")):
                return
            if at.get("castle") and at["where"] in ("inside", "gate"):
                # a castle counter is left into the area it stands in, a move of its own
                if self.left <= 0:
                    return
                self.do_move({"do": "move", "area": at["area"]})
                continue
            route = voyage_route(s.world, at, goal, self.allowance)
            if route is None:
                s.tell(f"There is no way from {at['area']} to {goal}, by land or by ship.")
                self.stopped = True
                return
            if len(route.steps) < 2:
                return
            nxt = route.steps[1]
            if self.stopped and nxt.how != "debark":
                return          # put in at a port on the way: he sails on next turn
            if nxt.how in ("land", "river", "land_from_coast") and self.left <= 0:
                return
            if not told and route.ship_moves and at["where"] not in ("ship", "coast"):
                port = next((st.area for st in route.steps if st.how == "board"), None)
                if port and port != at["area"]:
                    s.note(f"The way to {goal} lies over the sea: {pk['name']} makes for the "
                           f"port of {port}.")
                told = True
            before = (dict(at), self.moved)
            if nxt.how in ("land", "river"):
                self.do_move({"do": "move", "area": nxt.area})
            elif nxt.how == "board":
                self.do_board({"do": "board"})
            elif nxt.how in ("sail", "coast"):
                sail = {"do": "sail", "area": nxt.area}
                if len(route.steps) > 2 and route.steps[2].how in ("sail", "coast") and \
                        s.world.areas[nxt.area].kind == "sea":
                    sail["then"] = route.steps[2].area      # with Good Winds, on at once
                self.do_sail(sail)
            elif nxt.how == "debark":
                self.do_debark({"do": "debark"})
            else:                                           # land_from_coast
                self.do_go_inland({"do": "go_inland"})
            if (pk["at"], self.moved) == before and not self.stopped:
                self.stopped = True                         # nothing came of it: no loop
                return

    def do_stay(self, step: dict) -> None:
        """Remaining in place: still an encounter roll (not inside a friendly castle, not
        aboard a ship but at sea from rules edition 4, where the sea is met, and from rules
        edition 4 not on the coast he landed on)."""
        s, pk = self.s, self.pk
        here = pk["at"]
        self.stopped = True
        if here["where"] == "inside":
            s.note(f"{pk['name']} stays inside {here['area']}.")
            return
        if here["where"] == "ship":
            s.note(f"{pk['name']} stays aboard in {here['area']}.")
            if s.world.areas[here["area"]].kind == "sea" and not pk.get("asleep") and \
                    edition(s.game.state) >= SEA_STAY_MET:
                # the roll for staying in an encounter area: at sea it is the sea itself
                from companion.koc.engine import encounters

                encounters.sea_encounter(s, here["area"], previous=here["area"])
            return
        if here["where"] == "coast" and edition(s.game.state) >= COAST_STAY_QUIET:
            # not yet in the encounter area: no roll (docs/koc-engine.md, Staying on a coast)
            s.note(f"{pk['name']} stays on the coast of {here['area']}; there is no encounter "
                   f"roll on the coast, only once he goes inland.")
            return
        if here["where"] in ("coast", "gate") and edition(s.game.state) >= STAY_WORDED:
            s.note(f"{pk['name']} stays " + ("on the coast of " if here["where"] == "coast"
                                             else "at the gate of ")
                   + (here.get("castle") or here["area"]) + ".")
        else:
            s.note(f"{pk['name']} stays in {here['area']}.")
        from companion.koc.engine import encounters

        if here["where"] == "gate":
            encounters.castle_encounter(s, here.get("castle") or here["area"], persisting=True)
            return
        if encounters.forced_encounter(s, here["area"]):
            # the town watch comes back for him (encounters.py)
            return
        self.encounter_roll(here["area"])

    def do_enter(self, step: dict) -> None:
        """Try the castle gate again (persistence counts), or ride to a castle counter
        standing in this area (encounters.castles_in: a friendly one first)."""
        s, pk = self.s, self.pk
        here = pk["at"]
        from companion.koc.engine import encounters

        if here["where"] == "gate":
            self.stopped = True
            encounters.castle_encounter(s, here.get("castle") or here["area"], persisting=True)
            return
        castles = encounters.castles_in(s, here["area"]) if here["where"] == "area" else []
        if not castles:
            s.tell("'enter' needs a castle that has not admitted him yet, or a castle standing "
                   "in this area.")
            return
        self.enter_castle(castles[0])

    def enter_castle(self, castle: str) -> None:
        """Ride up to a castle counter in the current area: a move, then its castle reaction."""
        from companion.koc.engine import encounters

        s, pk = self.s, self.pk
        if self.left <= 0:
            s.tell(f"No movement left to ride to {castle} this turn.")
            self.stopped = True
            return
        self.moved += 1
        self.stopped = True
        s.note(f"{pk['name']} rides up to {castle}.")
        encounters.castle_encounter(s, castle)

    def enter(self, target: str) -> None:
        """Step into an area: exile, Merlin, castles and the encounter roll."""
        from companion.koc.engine import encounters

        s, pk = self.s, self.pk
        s.came_from = pk["at"]["area"]      # where he came from (encounters: river crossings)
        self.moved += 1
        before = pk["at"]
        pk["at"] = {"area": target, "where": "area"}
        party.follow(s, before)
        self.visited.append(target)
        s.note(f"{pk['name']} moves into {target}.")
        check_exile(s, target)
        fellows_exile(s, target, s.came_from)
        area = s.world.areas[target]
        if in_merlins_reach(s, target):
            self.stopped = True
            encounters.merlin_encounter(s)
            return
        if area.kind == "castle":
            self.stopped = True
            encounters.castle_encounter(s, target)
            return
        if self.encounter_roll(target):
            self.stopped = True

    def encounter_roll(self, target: str) -> bool:
        """Roll for an encounter on entering (or staying in) an area; resolve it."""
        from companion.koc.engine import encounters

        s, pk = self.s, self.pk
        area = s.world.areas[target]
        if pk.get("asleep"):
            return False
        kind = "shrine" if area.is_shrine and area.kind != "castle" else area.kind
        if area.is_shrine and area.is_town and pk.get("rome") == "town":
            kind = "town"           # in Rome's town rather than at its shrine (adventures.py)
        if kind == "shrine":
            from companion.koc.engine import villainy

            if villainy.at_shrine(s, target):
                return True     # KNAVES: Looting a Shrine
        roll = s.d6(f"encounter roll in {target}")
        if kind in QUIET or pk["lost"]:
            value = 3 if pk["lost"] and kind == "forest" else 1
            happens = roll <= value
            how = f"an encounter on {value if value > 1 else 1}{' or less' if value > 1 else ''}"
        else:
            value = party.encounter_value(s)
            happens = roll <= value
            how = f"an encounter on {value} or less"
        s.note(f"Encounter roll in {target}: {roll} ({how}): "
               f"{'an encounter' if happens else 'nothing'}.")
        if not happens and not pk["lost"]:
            from companion.koc.engine.optional import seek_encounter

            happens = seek_encounter(s, target)     # Seeking Encounters (optional rule)
        if not happens:
            if pk["lost"] and kind == "forest":
                pk["lost"] = False
                s.note(f"{pk['name']} finds his way out of the forest.")
            return False
        if area.is_town:
            self.had_town_encounter = True
        encounters.terrain_encounter(s, target)
        return True

    # -- ships -----------------------------------------------------------------------------
    def do_board(self, step: dict) -> None:
        s, pk = self.s, self.pk
        here = pk["at"]
        area = s.world.areas[here["area"]]
        if here["where"] == "ship":
            s.tell("Already aboard a ship.")
            return
        if not area.port:
            s.tell(f"{here['area']} has no port; ships are boarded in ports only.")
            self.stopped = True
            return
        if area.kind == "castle" and here["where"] != "inside":
            s.tell(f"The port of {here['area']} is reached only from inside the castle.")
            self.stopped = True
            return
        if self.had_town_encounter:
            s.note(f"After the encounter in town there is no boarding a ship this turn.")
            self.stopped = True
            return
        from companion.koc.engine.optional import board_flagship

        flagship = board_flagship(s, here["area"])     # the Lord Admiral (Signal Honour)
        if flagship is False:
            self.stopped = True
            return
        ship = pk["ship"] if flagship else s.game.draw_chit("ship",
                                                            f"ship boarded at {here['area']}")
        pk["ship"] = ship
        pk["at"] = {"area": here["area"], "where": "ship"}
        party.follow(s, here)
        s.note(f"{pk['name']} boards a ship ({ship['name']}, crew {ship['wl']}) at "
               f"{here['area']}; movement ends for this turn.")
        self.stopped = True

    def do_sail(self, step: dict) -> None:
        """One move by ship, then the sea encounter (if at sea)."""
        from companion.koc.engine import encounters

        s, pk = self.s, self.pk
        here = pk["at"]
        if here["where"] != "ship":
            s.tell("Not aboard a ship: board one in a port first.")
            self.stopped = True
            return
        target = step["area"]
        links = s.world.areas[here["area"]].links()["ship"]
        if target not in links:
            s.tell(f"A ship cannot sail from {here['area']} to {target}.")
            self.stopped = True
            return
        dest = s.world.areas[target]
        self.stopped = True
        if dest.kind == "castle":
            # a castle's port is entered only after a friendly reaction
            if not encounters.castle_encounter(s, target, from_ship=True):
                return
            pk["at"] = {"area": target, "where": "ship"}
            party.follow(s, here)
            s.note(f"The ship puts in at the port of {target}.")
            self.put_in = edition(s.game.state) >= ASHORE_IN_PORT
            return
        pk["at"] = {"area": target, "where": "ship"}
        party.follow(s, here)
        self.visited.append(target)
        s.note(f"{pk['name']}'s ship sails into {target}.")
        if dest.kind == "sea" and step.get("no_encounter") and \
                edition(s.game.state) >= GOOD_WINDS_QUIET:
            s.note("The fair wind carries the ship on: no sea encounter there.")
        elif dest.kind == "sea":
            outcome = encounters.sea_encounter(s, target, previous=here["area"])
            if outcome == "good_winds" and step.get("then"):
                self.stopped = False
                self.do_sail({"do": "sail", "area": step["then"], "no_encounter": True})
        elif in_merlins_reach(s, target) and dest.kind != "river":
            encounters.merlin_encounter(s)
        elif dest.port and dest.kind in SITES:
            # in a port: going ashore is part of this sea move (rules edition 4)
            self.put_in = edition(s.game.state) >= ASHORE_IN_PORT

    def do_debark(self, step: dict) -> None:
        s, pk = self.s, self.pk
        here = pk["at"]
        if here["where"] != "ship":
            s.tell("Not aboard a ship.")
            return
        area = s.world.areas[here["area"]]
        self.stopped = True
        self.put_in = False
        from companion.koc.engine.optional import flagship_moored

        flagship_moored(s, here["area"] if area.port else None)   # it waits in that port
        if area.port:
            pk["at"] = {"area": here["area"], "where": "inside" if area.kind == "castle" else "area"}
            pk.pop("ship", None)
            party.follow(s, here)
            self.landed = True
            s.note(f"{pk['name']} goes ashore at {here['area']}.")
            exile_ashore(s, here["area"])
            if area.is_town and area.kind != "castle":
                from companion.koc.engine import encounters

                self.had_town_encounter = True
                encounters.terrain_encounter(s, here["area"])
            elif in_merlins_reach(s, here["area"]):
                from companion.koc.engine import encounters

                encounters.merlin_encounter(s)
            return
        if area.kind == "river" and area.navigable:
            pk["at"] = {"area": here["area"], "where": "area"}
            pk.pop("ship", None)
            party.follow(s, here)
            self.landed = True
            s.note(f"{pk['name']} lands on the bank of {here['area']} (a whole turn; no "
                   "encounter roll).")
            exile_ashore(s, here["area"])
            return
        coast = step.get("area")
        if area.kind in LANDING_KINDS and edition(s.game.state) >= 1:   # a ship sailed to
            # this coast (rules: a sea move may end at a coast): it lands there
            if coast not in (None, here["area"]):
                s.tell(f"The ship lies off the coast of {here['area']}: it can land there "
                       f"('debark'), not at {coast}.")
                return
            coast = here["area"]
        else:
            names = [a.name for a in s.world.areas.values()
                     if here["area"] in a.coast and a.kind in LANDING_KINDS]
            if coast not in names:
                s.tell(f"To land on a coast name the land: one of {', '.join(sorted(names))}.")
                return
        pk["at"] = {"area": coast, "where": "coast"}
        pk.pop("ship", None)
        party.follow(s, here)
        self.landed = True
        s.note(f"{pk['name']} lands on the coast of {coast} (a whole turn; no encounter roll). "
               "Next turn he must first go inland.")
        exile_ashore(s, coast)
        if in_merlins_reach(s, coast):
            from companion.koc.engine import encounters

            encounters.merlin_encounter(s)

    # -- finding ---------------------------------------------------------------------------
    def do_seek(self, step: dict) -> None:
        from companion.koc.engine.tasks import seek

        if not self.stopped:
            seek(self.s, step["target"])

    def do_confront(self, step: dict) -> None:
        """A challenge or an attack on another player knight here (engine/rivals.py); like
        seeking, not after an encounter this turn."""
        from companion.koc.engine.rivals import confront

        if self.s.pk.get("encountered"):
            self.s.tell(f"After an encounter this turn there is no {step['how']} of "
                        f"{step['target']}.")
            return
        self.s.at_turn_start = self.moved == 0      # Tricking Player Knights (optional.py)
        confront(self.s, step["how"], step["target"], stake=step.get("stake"))

    def do_declare(self, step: dict) -> None:
        """'declare tournament': carried out after the movement phase, where he then stands
        (engine/tournaments.py); it is no move."""

    def do_go_inland(self, step: dict) -> None:
        s, pk = self.s, self.pk
        if pk["at"]["where"] == "coast":
            before = pk["at"]
            pk["at"] = {"area": pk["at"]["area"], "where": "area"}
            party.follow(s, before)
            self.moved += 1
            self.visited.append(pk["at"]["area"])
            s.note(f"{pk['name']} goes inland into {pk['at']['area']}.")
            if self.encounter_roll(pk["at"]["area"]):
                self.stopped = True


GO_TO_BY_SHIP = 4
"""The rules edition from which 'go to' (and the plan of a knight without orders, heading for
his first obligation) takes ship where no land route leads (Movement by Sea; Mover.do_voyage),
and from a ship or a coast goes on towards his destination; before, it kept to land routes,
and a knight bound overseas stood still ("There is no way by land")."""

ASHORE_IN_PORT = 4
"""The rules edition from which going ashore in a port is part of the sea move that put in
there (Movement by Sea, Ship Movement; Terrain Effects, Port): 'sail' into a port (a town's, or
a castle's after its friendly reaction) and 'debark' in the same orders land him that turn, the
town met at once; 'go to' lands at its port the turn it puts in. Before, the landing took the
next turn (and orders with 'debark' after 'sail' were refused). Going ashore on a river bank or
a coast still takes a whole turn of its own."""

SEA_STAY_MET = 4
"""The rules edition from which a ship that stays in a sea area meets the sea (Movement &
Encounters, Encounter Rolls: staying in an encounter area rolls for an encounter; Terrain
Effects, Sea: the sea is met without a roll): 'stay' aboard at sea draws on the sea chart as a
sea move does (a storm keeps the ship where it lies). Before, staying aboard at sea met
nothing. Aboard in a port, on a river or off a coast staying still meets nothing."""

LANDING_ON_ROUTE = 4
"""The rules edition from which a turn spent going ashore (a port, a river bank, a coast: a
whole turn, Movement by Sea) is no delay on the way to a destination, and going inland from
the coast into the area he landed in is no step off the most direct route (tasks.py,
after_movement); before, either failed a task bound to that route."""

COAST_STAY_QUIET = 4
"""The rules edition from which a knight who stays on the coast he landed on makes no encounter
roll: that roll is for one who stays in an encounter area, and a knight on a coast must still
go into the area (Movement; Terrain Effects, Coast). Before, he rolled as in the area."""

GOOD_WINDS_QUIET = 7
"""The rules edition from which the extra move Good Winds give (Sea 9) meets no sea encounter
in the sea it enters, as the rules say; before, that sea was met again."""

STAY_WORDED = 3
"""The rules edition from which a knight who stays on a coast or at a castle's gate is said to
("stays on the coast of Gaul", "stays at the gate of Tintagel"); before, "stays in Gaul"."""

EXILE_KEPT = 3
"""The rules edition from which a knight on his way out of the land of his exile (or still in
it) does not 'return' to it, and one without 12 VP to lose stays exiled (Knight's Fate 12)."""

EXILE_BY_SEA = 3
"""The rules edition from which going ashore from a ship (in a port, on a river bank or on a
coast) in a land the knight is exiled from is a return to it, as riding in is; before, a
landing was never charged."""

PARTY_EXILED = 3
"""The rules edition from which a party member entering a land he is exiled from with his
leader (riding in or going ashore) breaks the exile as the leader would (glossary: Exile;
Knight's Fate 12); before, only the leader's exiles were checked."""


def voyage_route(world, at: dict, goal: str, allowance: int = 3):
    """The route 'go to' follows from where the knight is (rules edition 4): by land while a
    land route leads there, else the most direct route with ships, boarding and putting in at
    a town's port, or boarding at the port of the castle he is inside (a castle's port opens
    after a friendly reaction alone, and entering a castle ends the movement), unless no such
    way leads there; None where no route does (Faerie)."""
    from companion.errors import CompanionError
    from companion.koc.routes import direct_route, land_route
    from companion.koc.world import OPEN_LAND

    area = world.areas[at["area"]]
    if at["where"] == "ship":
        mode = "coast" if area.kind in OPEN_LAND else "ship"
    else:
        mode = "ashore" if at["where"] == "coast" else "land"
    if mode == "land":
        try:
            return land_route(world, at["area"], goal)
        except CompanionError:
            pass
    inside = (at["area"],) if at["where"] == "inside" and not at.get("castle") else ()
    for castle_ports in (inside, True):
        try:
            return direct_route(world, at["area"], goal, max(1, allowance), mode=mode,
                                castle_ports=castle_ports)
        except CompanionError:
            continue
    return None


def exile_ashore(s: Session, area: str) -> None:
    """The exile check of a landing (rules edition 3): he comes from the sea, so no land he
    was in counts as 'still in it'; his way out of the land (his leaving task) is no return."""
    if edition(s.game.state) < EXILE_BY_SEA:
        return
    if s.pk["exiles"]:
        was = getattr(s, "came_from", None)
        s.came_from = None
        check_exile(s, area)
        s.came_from = was
    fellows_exile(s, area, None)


def fellows_exile(s: Session, area: str, came_from: str | None) -> None:
    """From rules edition 3 (PARTY_EXILED) the members who came along with the leader into
    ``area`` (party.follow) are each judged by their own exiles, as he is."""
    if edition(s.game.state) < PARTY_EXILED:
        return
    for fellow in party.with_me(s):
        if fellow.pk["exiles"]:
            fellow.came_from = came_from
            check_exile(fellow, area)


def check_exile(s: Session, area_name: str) -> None:
    """Entering a land one is exiled from costs 12 VP and lifts the exile (a writ of Free
    Passage is used instead, if he has one). From rules edition 3 only a return counts: not a
    step within the land he is in (his way out of it after the fate, the exile not lifted) nor
    through a land his leaving task still takes him out of; and a knight who has not 12 VP to
    lose pays what he has (down to 1 VP) and stays exiled."""
    pk = s.pk
    area = s.world.areas[area_name]
    lands = {*area.kingdoms, *area.castellanies}
    later = edition(s.game.state) >= EXILE_KEPT
    came = s.world.areas.get(getattr(s, "came_from", None) or "")
    was_in = {*came.kingdoms, *came.castellanies} if came is not None else set()
    leaving = {land for t in pk["tasks"] if t["kind"] == "leave" and t["status"] == "active"
               for land in t.get("leave", ())}
    for exile in list(pk["exiles"]):
        if exile in lands:
            if later and (exile in was_in or exile in leaving):
                continue        # still in it, or on his way out: no return
            writ = next((i for i in pk["items"] if i["key"] == "free_passage"), None)
            if later and not writ and pk["vp"] - 12 < kn.VP_MIN:
                s.note(f"{pk['name']} breaks his exile from {exile}; without 12 VP to lose "
                       "he stays exiled.")
                s.gain_vp(-12, f"returning to {exile} while exiled")
                continue
            pk["exiles"].remove(exile)
            if writ:
                pk["items"].remove(writ)
                s.note(f"{pk['name']} enters {exile}, from which he is exiled, with his writ of "
                       "Free Passage; the exile is lifted.")
            else:
                s.note(f"{pk['name']} breaks his exile from {exile}.")
                s.gain_vp(-12, f"returning to {exile} while exiled")
