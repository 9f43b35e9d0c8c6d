"""A player turn's five phases, and what happens at the end of a game turn."""
from __future__ import annotations

from companion.engine.game import edition
from companion.koc.engine import knight as kn
from companion.koc.engine.session import Question, Session
from companion.koc.engine.words import plural


def player_turn(s: Session) -> None:
    """A player turn: alone, or (leading a party) the party's joint turn; a knight riding in
    another's party has his turn in the leader's (engine/party.py)."""
    from companion.koc.engine import party

    pk = s.pk
    if pk["slain"]:
        return
    party.settle(s)
    waited = party.waiting_for(s)
    role = party.turn_role(s)
    if role in ("wait", "done"):
        head = party.leader_of(s.game.state, s.player)
        if head is None:
            # the party he moved with broke up later in its joint turn
            s.note(f"{pk['name']} has moved with his party this game turn.")
            return
        leader = s.game.state["knights"][head]["name"]
        s.note(f"{pk['name']} rides in {leader}'s party: "
               + ("his turn is played with the party in his leader's turn."
                  if role == "wait" else "he has moved with the party this game turn."))
        return
    if role == "lead":
        joint_turn(s)
    else:
        single_turn(s)
    for p in waited:
        # the party broke up before its turn: those who waited for it play now
        if not party.moved_with_party(s.game.state, p):
            other = Session(s.game, p, parent=s)
            if s.game.orders.get(p) is not None:
                s.game.ctx.use_orders(p)
            single_turn(other)


def single_turn(s: Session) -> None:
    pk = s.pk
    pk["turns_played"] += 1
    start = dict(pk["at"])
    s.note(f"— {pk['name']}'s turn (game turn {s.game.state['koc']['turn']}), "
           f"{place_text(s)}.")
    luck_phase(s)
    from companion.koc.engine import grail

    grail.start_of_turn(s)              # the Grail bearer's VL test (engine/grail.py)
    from companion.koc.engine import villainy

    from companion.koc.engine import knaves

    knaves.start_of_turn(s)             # turning Knave, repenting, captives (engine/knaves.py)
    villainy.start_of_turn(s)           # a Knave's castles and brigands (engine/villainy.py)
    if pk.get("war"):
        from companion.koc.engine import foreign_war

        foreign_war.war_turn(s)         # Foreign War (optional rule): off the map, alone
        healing_phase(s)
        return
    from companion.koc.engine import tournaments

    tournaments.start_of_turn(s)        # invitations are answered in Faerie too
    area = s.world.areas[pk["at"]["area"]] if pk["at"]["area"] else None
    if area is not None and area.otherworld:
        from companion.koc.engine.faerie import faerie_turn

        faerie_turn(s)
    else:
        from companion.koc.engine.movement import movement_phase

        movement_phase(s, start)
        from companion.koc.engine.encounters import shrine_turn

        shrine_turn(s, start, getattr(s, "moved_through", None))   # a full turn at a shrine
        tournaments.after_movement(s, getattr(s, "moved_through", None))
        tournaments.check_pending(s)      # a tournament begins when its last knight is there
        retention_phase(s)
        from companion.koc.engine.requests import requests_phase

        requests_phase(s)
        grail.after_requests([s])         # seeing and grasping the Grail; winning with it
    healing_phase(s)


def joint_turn(s: Session) -> None:
    """The joint turn of a party, in its leader's player turn: each knight's own Luck-of-the-
    Day, then the leader moves the whole party, then each knight's retention, requests and
    prayers, and healing."""
    from companion.koc.engine import encounters, party
    from companion.koc.engine.movement import movement_phase
    from companion.koc.engine.requests import requests_phase

    members = party.member_sessions(s)
    everyone = [s, *members]
    names = ", ".join(x.pk["name"] for x in everyone)
    start = dict(s.pk["at"])
    s.note(f"— The joint turn of the party of {names} (game turn "
           f"{s.game.state['koc']['turn']}), led by {s.pk['name']}, {place_text(s)}.")
    for x in everyone:
        x.pk["turns_played"] += 1
        if x is not s and s.game.orders.get(x.player) is not None:
            s.game.ctx.use_orders(x.player)
            if s.game.orders[x.player].plan:
                x.tell(f"{x.pk['name']}'s movement orders are not used: the party moves as "
                       f"{s.pk['name']} leads it.")
    party.mark_moved(s.game.state, [x.player for x in everyone])
    for x in everyone:
        luck_phase(x)
    from companion.koc.engine import grail, tournaments

    for x in everyone:
        grail.start_of_turn(x)
    from companion.koc.engine import villainy

    from companion.koc.engine import knaves

    for x in everyone:
        knaves.start_of_turn(x)
    for x in everyone:
        villainy.start_of_turn(x)

    for x in everyone:
        tournaments.start_of_turn(x)
    for x in members:
        encounters.start_of_movement(x)
    party.check(s)
    movement_phase(s, start)
    party.check(s)
    for x in everyone:
        encounters.shrine_turn(x, start, getattr(s, "moved_through", None))
    for x in everyone:
        tournaments.after_movement(x, getattr(s, "moved_through", None))
    tournaments.check_pending(s)
    for x in everyone:
        retention_phase(x)
    for x in everyone:
        requests_phase(x)
    grail.after_requests(everyone)
    for x in everyone:
        healing_phase(x)


def place_text(s: Session) -> str:
    at = s.pk["at"]
    area = at["area"] if not at.get("castle") else f"{at['castle']} ({at['area']})"
    return {"inside": f"inside {area}", "gate": f"outside the gate of {area}",
            "ship": f"aboard a ship in {area}", "coast": f"on the coast of {area}",
            "prison": f"in prison at {area}",
            "war": "away at a foreign war"}.get(at["where"], f"in {area}" if area else "nowhere")


# ------------------------------------------------------------------------------ phase 1
def luck_phase(s: Session) -> None:
    """The Luck-of-the-Day: one die (two with the Lucky Charm, keeping the better, lower one)."""
    s.root.carried[s.player] = s.pk["wounds"]    # dealt outside his turn (tournaments.py)
    if kn.has_item(s.pk, "lucky_charm"):
        a, b = s.dice(2, "luck of the day (lucky charm)")
        s.pk["luck"] = min(a, b)
        s.note(f"{s.pk['name']}'s Luck-of-the-Day: {a} and {b} with the Lucky Charm; "
               f"{s.pk['luck']} kept.")
    else:
        s.pk["luck"] = s.d6("luck of the day")
        s.note(f"{s.pk['name']}'s Luck-of-the-Day: {s.pk['luck']}.")


# ------------------------------------------------------------------------------ phase 3
RETAINED_IN_ANY_FRIENDLY_CASTLE = 7
"""The rules edition from which comrades check no retention inside any castle friendly to the
knight (his Lord's, his Lady's, his own, a castle counter or one friendly for the time being:
encounters.friendly_castle), as COMRADE & COMPANION RETENTION says; before, only inside a map
castle on his list of friendly castles."""
COMPANY_ENDS_WITH_ADVENTURE = 7
"""The rules edition from which an adventure attempted to its end (accomplished, failed or
waited out; not a tournament) sends the knight's Men-at-Arms away and each comrade too unless
the knight persuades him to stay (a VL check of the comrade's VL + 4); those who joined him
this game turn stay (COMRADE & COMPANION RETENTION; Requests, Men-at-Arms). Before, both rode
on with him."""


def retention_phase(s: Session) -> None:
    """Comrades (knights and kings who joined) stay on a Luck Test each; not those who joined
    this turn, nor aboard a ship, at a shrine or in a friendly castle."""
    pk = s.pk
    from companion.koc.engine.tournaments import keeps_company

    if not pk["comrades"] or pk.get("met_merlin") or keeps_company(s):
        return      # (nor at a tournament: COMRADE & COMPANION RETENTION)
    where = pk["at"]
    area = s.world.areas[where["area"]]
    if where["where"] == "ship" or area.is_shrine:
        return
    if where["where"] == "inside":
        if edition(s.game.state) < RETAINED_IN_ANY_FRIENDLY_CASTLE:
            if where["area"] in pk["friendly"]:
                return
        else:
            from companion.koc.engine.encounters import friendly_castle
            from companion.koc.engine.resolutions import castle_here

            castle = castle_here(s)
            if castle and friendly_castle(s, castle):
                return
    turn = s.game.state["koc"]["turn"]
    for comrade in list(pk["comrades"]):
        if comrade.get("joined") == turn or comrade.get("kind") == "king" and comrade.get("escort"):
            continue
        if s.luck_test(f"{comrade['name']} stays"):
            continue
        leave_or_appeal(s, comrade, why="grows restless")


def after_adventure(s: Session, what: str) -> None:
    """An adventure ``what`` attempted to its end (COMPANY_ENDS_WITH_ADVENTURE): his
    Men-at-Arms leave, and each comrade unless he persuades him to stay (VL + 4); not those
    who joined this game turn, and no comrade when a defeat this turn already sends them away
    (combat.after_defeat)."""
    pk = s.pk
    if pk["slain"] or edition(s.game.state) < COMPANY_ENDS_WITH_ADVENTURE:
        return
    turn = s.game.state["koc"]["turn"]
    gone = [m for m in pk["men_at_arms"] if m.get("joined") != turn]
    if gone:
        for m in gone:
            pk["men_at_arms"].remove(m)
            s.game.discard("knights", m["name"])
        s.note(f"With {what} over, {pk['name']}'s "
               + plural(s, len(gone), "Man-at-Arms", "Men-at-Arms") + " "
               + plural(s, len(gone), "leaves", "leave") + " him: "
               + ", ".join(m["name"] for m in gone) + ".")
    if pk.get("defeated"):
        return
    for comrade in list(pk["comrades"]):
        if comrade.get("joined") != turn and not comrade.get("helper"):
            leave_or_appeal(s, comrade, why=f"has seen {what} through")


def leave_or_appeal(s: Session, comrade: dict, why: str, extra: int = 4) -> bool:
    """A comrade means to leave; the PK may appeal (VL check of the comrade's VL + extra).
    Returns True if the comrade stays."""
    pk = s.pk
    q = Question("appeal", f"{comrade['name']} {why} and means to leave. Appeal to him to stay "
                 f"(he stays on a VL check of his VL {comrade['vl']} + {extra})?",
                 ["yes", "no"], "yes", tags=("comrade",))
    if s.ask(q) == "yes" and s.vl_check(comrade["vl"] + extra, f"{comrade['name']} stays",
                                        who=comrade["name"]):
        s.note(f"{comrade['name']} agrees to ride on with {pk['name']}.")
        return True
    pk["comrades"].remove(comrade)
    s.note(f"{comrade['name']} leaves {pk['name']}.")
    s.game.discard_card(comrade)
    return False


# ------------------------------------------------------------------------------ phase 5
def healing_phase(s: Session) -> None:
    pk = s.pk
    from companion.koc.engine import knaves

    knaves.end_of_turn(s)               # captives arriving, a Knave's service reviewed
    if pk["wounds"]:
        s.note(f"{pk['name']}'s wounds heal; WL back to {kn.wl(pk)}"
               + (f" ({pk['poison']} {plural(s, pk['poison'], 'poisoned wound')} "
                  f"{plural(s, pk['poison'], 'remains', 'remain', old='remain')})."
                  if pk["poison"] else "."))
    pk["wounds"] = 0
    pk["on_foot"] = False
    for extra in pk["men_at_arms"] + pk["comrades"]:
        extra["wounds"] = 0
    if pk.pop("defeated", False):
        from companion.koc.engine.combat import after_defeat

        after_defeat(s)
    pk.pop("met_merlin", None)
    pk["luck"] = None
    from companion.koc.engine.tasks import forget_unsought

    forget_unsought(s)                  # persistence in seeking: turns in a row only


# ------------------------------------------------------------------------------ game turn
LONE_KNIGHT_FIRST = 6
"""The rules edition from which a lone knight's game with a rotating or random first player
says nothing of who plays first next game turn (always he) and draws no lot for it; earlier
editions said "Anna plays first next game turn." after every game turn."""


def end_of_game_turn(game) -> None:
    """After every player's turn: Merlin/Morgan moves, the first player may rotate."""
    koc = game.state["koc"]
    from companion.koc.engine.tournaments import end_of_game_turn as tournaments_due

    tournaments_due(game)       # the great tournament on its day; any other now due
    result = game.world.charts["deploy_countryside"].roll(
        lambda sides: game.chance.roll(sides, "Merlin/Morgan redeployed"))
    area = countryside_of(game.world, result.entry)
    game.state["merlin"] = {"area": area, "who": None}
    game.ctx.event(f"End of game turn {koc['turn']}: the Merlin/Morgan counter moves to {area}.",
                   kind="koc")
    rotation = game.options.get("first-player", "fixed")
    alone = len(koc["order"]) == 1 and edition(game.state) >= LONE_KNIGHT_FIRST
    if rotation != "fixed" and not alone:
        order = koc["order"]
        if rotation == "rotate":
            koc["order"] = order[1:] + order[:1]
        else:
            start = game.chance.choice(len(order), "first player of the next game turn")
            koc["order"] = order[start:] + order[:start]
        game.ctx.event(f"{koc['order'][0]} plays first next game turn.", kind="koc")
    from companion.koc.engine.victory import time_up

    time_up(game)               # a scenario's last game turn ends the game
    if koc["over"]:
        return
    koc["turn"] += 1
    koc["current"] = 0


def countryside_of(world, entry) -> str:
    """The area a deployment entry names (its label is the area's name)."""
    name = entry.get("area") or entry.label
    return world.area(name).name
