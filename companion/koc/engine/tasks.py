"""Tasks: every obligation a knight carries (pilgrimages, penances, escorts, reporting to a
Lord, messages, leaving a land of exile, King Arthur's tasks, adventures and prophecies).

A task has a destination (or none), a route rule (the most direct route, no detours, perhaps on
foot), what completes it there (arriving, a friendly castle reaction), awards for success and
penalties for straying or refusing. Movement checks the route after every movement phase:
each area entered must bring the knight one step nearer by land; staying put while able to move
is a delay (adventures allow one turn of grace).
"""
from __future__ import annotations

from companion.engine.game import edition
from companion.engine.names import fold
from companion.koc.engine.session import Session

CASTLE_PLACED = 3
"""The rules edition from which a castle named for its area is "placed on the map" ("The castle
in Usk is placed on the map."); before, "the castle in Usk (its lord's castle) stands in Usk."."""

ORDERS_BEFORE_TASK = 3
"""The rules edition from which a task taken on this game turn before his movement phase (in
another player's turn: a Knight's Fate from a player knight who played first) is not judged
by the moves of that phase, ordered before he knew of it; before, staying put as ordered
failed it at once ("it was delayed", 12 VP)."""

HE_STRAYED = 3
"""The rules edition from which a task lost by straying says "he left the most direct route"
(the knight did); before, "it left ..."."""


def add(s: Session, kind: str, dest: str | None, *, awards: dict | None = None,
        penalty_vp: int = 0, why: str = "", refusal_vp: int = 0, route: str = "direct",
        walk: bool = False, needs: str | None = None, grace: int = 0, **extra) -> dict:
    pk = s.pk
    pk.setdefault("next_task", 1)
    task = {"id": pk["next_task"], "kind": kind, "dest": dest, "why": why,
            "since": s.game.state["koc"]["turn"], "route": route if dest else None,
            "walk": walk, "needs": needs, "awards": awards or {}, "penalty_vp": penalty_vp,
            "grace": grace, "delay": 0, "status": "active", **extra}
    pk["next_task"] += 1
    pk["tasks"].append(task)
    where = f" to {dest}" if dest else ""
    s.note(f"{pk['name']} takes on a task: {kind.replace('_', ' ')}{where} ({why}).")
    return task


def active(s: Session) -> list[dict]:
    return [t for t in s.pk["tasks"] if t["status"] == "active"]


def current_destination(s: Session) -> str | None:
    """The destination of the first active task that has one (tasks go in the order they came,
    as the rules require for competing obligations)."""
    for t in active(s):
        if t["dest"]:
            return t["dest"]
    return None


def land_distance(s: Session, a: str, b: str) -> int | None:
    from companion.koc.routes import land_route

    try:
        return len(land_route(s.world, a, b).steps) - 1
    except Exception:
        return None


def after_movement(s: Session, start: str, visited: list[str], stopped: bool, *,
                   taken: dict[int, int] | None = None, unforeseen=frozenset(),
                   landed: bool = False) -> None:
    """Check every task's route after the movement phase, and what arriving completes.

    ``taken`` maps the tasks taken on during this movement phase to the number of areas he
    had entered when he took them on. Such a task's route starts where he took it on: only
    the areas entered after that count, and coming no further that phase is no delay (the
    encounter or fight that gave it ended his movement, and his orders were written before
    he knew of it). A knight bound by terms he accepted (a Knight's Fate) thus loses the
    12 VP only once he actually leaves the direct path or stops for something other than
    an encounter (COMBAT, Knight's Fate: Sir Eric's pilgrimage). ``unforeseen``: tasks he
    took on this game turn before his movement phase (a Knight's Fate given in another
    player's turn): his orders were written before he knew of them, so this phase neither
    strays from nor delays them (rules edition 3, ORDERS_BEFORE_TASK); reaching one's end
    still completes it. ``landed``: he went ashore this phase, which takes a whole turn: from
    rules edition 4 (movement.LANDING_ON_ROUTE) that is no delay, and going inland from the
    coast into the area he landed in is no step off the route."""
    from companion.koc.engine.movement import LANDING_ON_ROUTE

    pk = s.pk
    taken = taken or {}
    ashore = edition(s.game.state) >= LANDING_ON_ROUTE
    for task in active(s):
        if task["kind"] == "leave":
            check_leaving(s, task)
            continue
        dest = task["dest"]
        if not dest:
            continue
        here = pk["at"]["area"]
        if here == dest:
            arrive(s, task)
            continue
        if task["route"] != "direct" or pk["at"]["where"] == "ship" or \
                task["id"] in unforeseen:
            continue
        position, route = start, visited
        if task["id"] in taken:
            cut = taken[task["id"]]
            position = visited[cut - 1] if cut else start
            route = visited[cut:]
            if not route:
                continue
        before = land_distance(s, position, dest)
        if before is None:
            continue
        strayed = False
        for area in route:
            if ashore and area == position:
                continue            # inland from the coast: still where he was
            now = land_distance(s, area, dest)
            if now is None or now >= land_distance(s, position, dest):
                strayed = True
                break
            position = area
        if not route and not pk["immobile"] and not pk.get("encountered") and \
                not (ashore and landed):
            task["delay"] += 1
            if task["delay"] > task["grace"] or _stopped_on_the_way(s, task):
                strayed = True
        if strayed and not pursuit_survives(s, task):
            strayed_from = "he left the most direct route" \
                if edition(s.game.state) >= HE_STRAYED else "it left the most direct route"
            fail(s, task, strayed_from if route else "it was delayed")
    pk.pop("encountered", None)


def _stopped_on_the_way(s: Session, task: dict) -> bool:
    if task["kind"] != "adventure":
        return False
    from companion.koc.engine import adventures

    return adventures.stopped_on_the_way(s, task)


def pursuit_survives(s: Session, task: dict) -> bool:
    """Delaying the Pursuit of Adventures (optional rule): an adventure (not a Prophecy, which
    has no route to keep; King Arthur's tournament, adventure 5:6, for every knight bound for
    it) that he strays from or delays vanishes only on a failed Luck Test.
    Every straying or delay is a new test; one that passes keeps the pursuit as it was (the
    grace of the turn is not renewed)."""
    if task["kind"] not in ("adventure", "camelot_tournament") or task.get("prophecy") or \
            not s.options_rule("delaying_pursuit"):
        return False
    if s.luck_test(f"the adventure {task.get('adventure', {}).get('id', '5:6')} waits for him"):
        s.note(f"{s.pk['name']} has strayed from the pursuit, but the adventure is still "
               "there.")
        return True
    return False


def check_leaving(s: Session, task: dict) -> None:
    pk = s.pk
    area = s.world.areas[pk["at"]["area"]]
    inside = {*area.kingdoms, *area.castellanies} & set(task["leave"])
    if not inside:
        task["status"] = "done"
        s.note(f"{pk['name']} has left the land of his exile.")


def arrive(s: Session, task: dict) -> None:
    pk = s.pk
    if task["needs"] == "friendly_castle" and not (
            pk["at"]["where"] == "inside" or pk["at"]["area"] in pk["friendly"]):
        return
    task["status"] = "done"
    s.note(f"{pk['name']} completes his task: {task['kind'].replace('_', ' ')} to "
           f"{task['dest']}.")
    vp = task["awards"].get("vp", 0)
    cp = task["awards"].get("cp", 0)
    if vp:
        s.gain_vp(vp, f"completing the {task['kind'].replace('_', ' ')}")
    if cp:
        s.gain_cp(cp, f"completing the {task['kind'].replace('_', ' ')}")
    if task["kind"] == "escort" and task.get("person"):
        person = task["person"]
        pk["party_extra"] = [e for e in pk["party_extra"] if e.get("name") != person["name"]]
    if task.get("on_done"):
        from companion.koc.engine import resolutions

        resolutions.task_done(s, task)


def fail(s: Session, task: dict, why: str) -> None:
    pk = s.pk
    task["status"] = "failed"
    s.note(f"{pk['name']}'s task ({task['kind'].replace('_', ' ')}) fails: {why}.")
    if task["penalty_vp"]:
        s.gain_vp(-task["penalty_vp"], f"straying from the {task['kind'].replace('_', ' ')}")
    if task["kind"] == "escort" and task.get("person"):
        name = task["person"]["name"]
        pk["party_extra"] = [e for e in pk["party_extra"] if e.get("name") != name]


def escort_turn_award(s: Session) -> None:
    """An escort earns 1 VP for every turn it lasts (the escort adventures too, from edition 7:
    ``adventures.escort_turn``)."""
    for task in active(s):
        if task["kind"] == "escort" and task["awards"].get("per_turn"):
            s.gain_vp(1, "a turn of escort")
        elif task["kind"] == "adventure":
            from companion.koc.engine import adventures

            adventures.escort_turn(s, task)


# ------------------------------------------------------------------------------ places
def random_shrine(s: Session) -> str:
    result = s.chart("random_shrine")
    return s.world.area(result.entry.label).name


FAR_ROAD = "Road to Rome"
OPEN_LAND = ("countryside", "forest", "river", "wasteland")


def victor_may_name(area) -> bool:
    """Whether a victorious PK may send a defeated PK to this place: never to Faerie (an
    otherworld), nor to the Road to Rome or Rome upon it."""
    return not area.otherworld and FAR_ROAD not in area.kingdoms and area.kind != "sea"


def shrines_to_choose(world) -> list[str]:
    """The shrines a victorious PK may choose for a defeated PK's pilgrimage (all but Rome)."""
    return sorted((a.name for a in world.areas.values() if a.is_shrine and victor_may_name(a)),
                  key=fold)


def site_tag(values: dict) -> str | None:
    """The kind of place an adventure's random site is (a tag of question `fate_site`), or
    None when its site is not random (local, named, the knight's own castle)."""
    site = values.get("site")
    if site == "with_knight":
        return "shrine" if values.get("chart") == "random_shrine" else None
    return {"random_area": "area", "random_castle": "castle",
            "random_royal_castle": "royal_castle", "random_shrine": "shrine",
            "random_wasteland": "wasteland", "rolled": "other"}.get(site)


def sites_to_choose(world, values: dict) -> list[str]:
    """Where a victorious PK may set the adventure he charged a defeated PK with (its chart
    values), when its site would be random: the places of the kind a random pick gives, never
    in Faerie nor on the Road to Rome. Empty when the site is not random."""
    tag = site_tag(values)
    if tag in ("area", "castle"):
        names = [a.name for a in world.areas.values() if a.kind in OPEN_LAND]
    elif tag == "royal_castle":
        names = [world.royal_castle(e.get("kingdom"), e.get("castellany")).name
                 for e in world.charts["random_kingdom"].entries]
    elif tag == "shrine":
        names = shrines_to_choose(world)
    elif tag == "wasteland":
        names = [a.name for a in world.areas.values() if a.kind == "wasteland"]
    elif tag == "other":
        names = []
        for e in world.charts[values["chart"]].entries:
            names += [e.get("area")] if e.get("area") else world.provinces(e.get("kingdom"))
    else:
        return []
    names = [world.area(n).name for n in names]
    return sorted(dict.fromkeys(n for n in names if victor_may_name(world.areas[n])), key=fold)


def every_site_to_choose(world) -> list[str]:
    """Every place a victor may choose for some adventure (what an order may answer)."""
    names: dict[str, None] = {}
    for entry in world.charts["adventures"].entries:
        names.update(dict.fromkeys(sites_to_choose(world, dict(entry.values))))
    return sorted(names, key=fold)


def random_royal_castle(s: Session, *, exclude: tuple[str, ...] = ()) -> str:
    for _ in range(50):
        result = s.chart("random_kingdom", purpose="a random royal castle")
        kingdom = result.entry.get("kingdom")
        castellany = result.entry.get("castellany")
        castle = s.world.royal_castle(kingdom, castellany).name
        if castle not in exclude:
            return castle
    return castle


def deploy_castle_area(s: Session, purpose: str) -> str:
    result = s.chart("deploy_castle", purpose=purpose)
    return s.world.area(result.entry.get("area") or result.entry.label).name


def place_castle(s: Session, name: str, owner: str, kind: str, *, area: str | None = None) -> str:
    """Put a castle counter on the map (a Lady's castle, a knight's, a PK's); returns its name."""
    castles = s.game.state.setdefault("castles", {})
    if name not in castles:
        castles[name] = {"area": area or deploy_castle_area(s, f"where {name} stands"),
                         "owner": owner, "kind": kind}
        whose = "" if owner in name else f" ({owner}'s castle)"
        where = castles[name]["area"]
        if edition(s.game.state) >= CASTLE_PLACED and name.endswith(f" in {where}"):
            # "the castle in Usk": its name says where; a lord unnamed is no news
            whose = "" if owner == "its lord" else whose
            s.note(f"{name[0].upper()}{name[1:]}{whose} is placed on the map.")
        else:
            s.note(f"{name}{whose} stands in {where}.")
    return name


def knight_castle(s: Session, knight: str) -> str:
    return place_castle(s, f"{knight}'s castle", knight, "knight")


def castle_area(s: Session, castle: str) -> str:
    """The encounter area a castle counter stands in (map castles are areas themselves)."""
    placed = s.game.state.get("castles", {}).get(castle)
    return placed["area"] if placed else castle


# ------------------------------------------------------------------------------ finding
def seek(s: Session, target: str) -> bool:
    """Finding a person or creature in this area: automatic in castles and shrines, otherwise a
    Luck Test (+1 for each earlier turn of seeking the same thing here)."""
    pk = s.pk
    here = pk["at"]["area"]
    found_in = None
    for task in active(s):
        if task.get("find") and task["find"]["what"].lower().startswith(target.lower()):
            found_in = task
            break
    if found_in is None or found_in["find"]["area"] != here:
        s.tell(f"There is no {target} known to be in {here}.")
        return False
    what = found_in["find"]["what"]
    if find_here(s, target, f"find {target}", found=f"{pk['name']} finds {what}.",
                 missed=f"{pk['name']} does not find {what} this turn."):
        from companion.koc.engine import resolutions

        resolutions.found(s, found_in)
        return True
    return False


def find_here(s: Session, key: str, purpose: str, *, found: str, missed: str,
              inside: bool = False) -> bool:
    """Finding someone in this area: automatic in a castle or at a shrine (or, with
    ``inside``, inside any castle), otherwise a Luck Test, +1 for each earlier turn of seeking
    ``key`` here. ``found``/``missed`` are the notes of the outcome."""
    pk = s.pk
    area = s.world.areas[pk["at"]["area"]]
    memo = f"seek:{key}:{area.name}"
    bonus = seek_bonus(s, memo)
    if area.kind == "castle" or area.is_shrine or (inside and pk["at"]["where"] == "inside") \
            or s.luck_test(purpose, bonus=bonus):
        pk["persistence"].pop(memo, None)
        s.note(found)
        return True
    pk["persistence"][memo] = bonus + 1
    s.note(missed)
    return False


SEEKING_IN_A_ROW = 7
"""The rules edition from which the +1 a turn for seeking the same target in the same place
(Luck, Persistence; Movement & Encounters, Finding) counts only turns of seeking in a row: a
player turn in which the knight does not try again forgets his earlier tries there
(``forget_unsought``, at the end of his turn). Before, a failed search kept its bonus for good,
however many turns later he came back to seek again."""


def seek_bonus(s: Session, memo: str) -> int:
    """The persistence bonus of a search (``memo``: "seek:<target>:<area>") made now, noted as
    made in this player turn (``forget_unsought``)."""
    s.root.sought.add((s.player, memo))
    return s.pk["persistence"].get(memo, 0)


def forget_unsought(s: Session) -> None:
    """At the end of a knight's player turn (rules edition 7, SEEKING_IN_A_ROW): the searches
    he did not make again this turn lose their persistence."""
    if edition(s.game.state) < SEEKING_IN_A_ROW:
        return
    memos = s.pk["persistence"]
    for memo in [m for m in memos if m.startswith("seek:")]:
        if (s.player, memo) not in s.root.sought:
            del memos[memo]
