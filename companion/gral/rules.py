"""The rules of Die Jagd nach dem Gral (sections 3 to 7 of the rules), as the engine applies them.

Structure of play by email:

* Turn 1 is the opening allocation: every player assigns as much or as little influence as they
  like, on as many initiates as they like, all at once and in secret.
* Every later turn is a round: starting with the player whose action is next, each player in
  seat order takes one action (move a pawn, possibly blowing a cover, or assign influence), as
  far as the submitted orders allow. With ``missing=default`` a player without orders passes
  (assigns nothing, which the others cannot tell from a real assignment); with ``missing=wait``
  the round stops at that player and the reports ask for their orders.
* Objections come from each player's standing orders. The contest follows the rules'
  escalation in steps of one point, the least the rules allow: an objector reveals one point
  more than the mover has shown, the mover must match, and so on, until one side reaches its
  limit. Influence of different players is never added; only the mover supports his own move.
  Several objectors bid in seat order starting after the mover. Every revealed amount becomes
  public knowledge.
"""
from __future__ import annotations

from typing import Any

from companion.engine.game import TurnContext, edition
from companion.engine.record import record
from companion.engine.words import counted, word_for
from companion.gral.orders import Assign, GralOrders, Move, move_text

# ------------------------------------------------------------------------------------ helpers


def listed(names: list[str]) -> str:
    """Names as a list in words: 'Anna', 'Anna and Bert', 'Anna, Bert and Cora'."""
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"


def seats_after(state: dict, player: str) -> list[str]:
    """The other players in seat order, starting with the one after ``player``."""
    players = state["players"]
    i = players.index(player)
    return players[i + 1:] + players[:i]


def next_player(state: dict, player: str) -> str:
    players = state["players"]
    return players[(players.index(player) + 1) % len(players)]


def four_plus(state: dict) -> bool:
    """The rules of section 6 (four and more players, and the variant 'The Original')."""
    return len(state["players"]) >= 4 or state["variant"] == "original"


def influence(state: dict, player: str, initiate: str, world) -> int:
    sheet = state["sheets"][player]
    total = sum(world.unit[u].value for u, target in sheet["units"].items() if target == initiate)
    return total - sheet["paid"].get(initiate, 0)


def free_units(state: dict, player: str, world) -> list[str]:
    used = state["sheets"][player]["units"]
    return [u.id for u in world.units if u.id not in used]


def on_board(state: dict) -> list[str]:
    return [i for i, f in state["pieces"].items() if f is not None]


def initiates_at(state: dict, field: str, world) -> list[str]:
    return [i.id for i in world.initiates if state["pieces"][i.id] == field]


def pick_units(state: dict, player: str, values: list[int], world,
               taken: set[str] | None = None) -> tuple[list[str], int | None]:
    """The free units for ``values`` (first free unit of each value, bar A before B).

    Returns the unit ids, and the first value that has no free unit left (or None)."""
    taken = set(taken or ())
    chosen = []
    for value in values:
        unit = next((u for u in free_units(state, player, world)
                     if world.unit[u].value == value and u not in taken), None)
        if unit is None:
            return chosen, value
        taken.add(unit)
        chosen.append(unit)
    return chosen, None


# ------------------------------------------------------------------------------------ proposals


@record
class Outcome:
    """What a proposed action would do, worked out before anybody objects."""

    initiate: str
    origin: str
    dest: str
    grail_field: str
    grail_holder: str | None
    blow: str | None
    ends: bool                    # the action would end the game
    carries: bool                 # the active initiate holds the grail afterwards


def check_move(state: dict, mover: str, mv: Move, world) -> tuple[Outcome | None, str | None]:
    """Work out a proposed action; return (outcome, None) or (None, the reason it is illegal)."""
    name = world.initiate[mv.initiate].name
    origin = state["pieces"][mv.initiate]
    if origin is None:
        return None, f"{name} has been uncovered and is no longer on the board"
    dest = origin if mv.dest is None else mv.dest
    if mv.dest is not None and dest not in world.adjacent[origin]:
        near = ", ".join(world.field[f].name for f in world.adjacent[origin])
        if dest == origin and edition(state) >= 3:
            # from rules edition 3 said plainly (earlier: 'stands on X; X is not adjacent')
            return None, (f"{name} already stands on {world.field[origin].name}; a move takes "
                          f"him to an adjacent field ({near})")
        return None, (f"{name} stands on {world.field[origin].name}; "
                      f"{world.field[dest].name} is not adjacent (adjacent: {near})")
    grail = state["grail"]
    g_field, g_holder = grail["field"], grail["holder"]
    if mv.dest is not None:
        g_field, g_holder, reason = grail_after_move(world, mv, origin, dest, g_field, g_holder)
        if reason:
            return None, reason
        reason = dropped_at_home(state, world, mv)
        if reason:
            return None, reason
    if mv.blow is not None:
        if mv.dest is not None and four_plus(state):
            return None, ("with four or more players an initiate either moves or blows a cover, "
                          "not both in one action")
        if mv.dest is not None and edition(state) >= 3 and \
                ends_game(state, world, mv.initiate, dest, g_field, g_holder):
            # section 5.4: the game ends the moment the grail comes home, before any blow (whose
            # payment would change the influence on the bearer that decides the winner)
            return None, (f"the move itself ends the game (the grail reaches "
                          f"{world.field[dest].name}), so no cover can be blown after it")
        target = world.initiate[mv.blow].name
        if mv.blow == mv.initiate:
            return None, f"{name} cannot blow his own cover"
        if state["pieces"][mv.blow] is None:
            return None, f"{target} has already been uncovered"
        if state["pieces"][mv.blow] != dest:
            return None, (f"{target} stands on {world.field[state['pieces'][mv.blow]].name}, "
                          f"not on {world.field[dest].name} where {name} would be")
        have = influence(state, mover, mv.initiate, world)
        if have < 10:
            return None, (f"blowing a cover costs 10 points of your influence on {name}; "
                          f"you have {have}")
        if g_holder == mv.blow:
            g_holder = None
    if mv.take:
        if mv.blow is None:
            return None, "'taking grail' belongs to blowing a cover"
        if g_holder is not None or g_field != dest:
            return None, f"the grail will not be lying free on {world.field[dest].name}"
        if mv.dest is None and grail["holder"] != mv.blow and edition(state) >= 3:
            # section 5.3: after a blow the active initiate may take the grail the uncovered
            # initiate dropped; a grail already lying free is taken only by moving (5.2)
            return None, (f"the grail lies free on {world.field[dest].name}, not carried by "
                          f"{world.initiate[mv.blow].name}: without a move {name} may take only "
                          "the grail of the initiate he uncovers")
        g_holder = mv.initiate
    ends = ends_game(state, world, mv.initiate, dest, g_field, g_holder)
    return Outcome(mv.initiate, origin, dest, g_field, g_holder, mv.blow, ends,
                   g_holder == mv.initiate), None


def ends_game(state: dict, world, active: str, dest: str, g_field: str,
              g_holder: str | None) -> bool:
    """Whether the grail's place after an action of ``active`` (now on ``dest``) ends the game:
    its bearer on his own order's headquarters (section 5.4), or in The Original the grail on an
    assigned headquarters (section 7)."""
    if state["variant"] == "original":
        return g_field in {world.order[o].headquarters for o in state["hq"].values()}
    if g_holder is None:
        return False
    bearer = world.initiate[g_holder]
    bearer_field = dest if g_holder == active else state["pieces"][g_holder]
    return bearer_field == world.order[bearer.order].headquarters


def dropped_at_home(state: dict, world, mv: Move) -> str | None:
    """Why 'dropping grail' cannot end a move into the initiate's own headquarters (rules
    edition 4 on; None if it can): with 'dropping grail' he holds the grail as he arrives (he
    carried it, or took it along from the field he left), and an initiate who carries the grail
    to his own order's headquarters ends the game at once (section 5.4), before he could drop
    it. In The Original the grail on an assigned headquarters ends the game whether held or
    dropped, so nothing is refused there."""
    if mv.grail != "drop" or mv.dest is None or edition(state) < 4 or \
            state["variant"] == "original":
        return None
    initiate = world.initiate[mv.initiate]
    home = world.order[initiate.order].headquarters
    if mv.dest != home:
        return None
    where = world.field[home].name
    return (f"{initiate.name} would carry the grail into {where}, his order's headquarters, "
            "and that ends the game at once, before he could drop it; to enter without ending "
            f"the game leave the grail behind ('move {initiate.name} to {where} leaving "
            f"grail'), to bring it home leave 'dropping grail' out")


def grail_after_move(world, mv: Move, origin: str, dest: str, g_field: str,
                     g_holder: str | None) -> tuple[str, str | None, str | None]:
    """Where the grail is after a plain move with the given grail clause."""
    name = world.initiate[mv.initiate].name
    clause = mv.grail
    if g_holder == mv.initiate:
        if clause in (None, "with"):
            return dest, mv.initiate, None
        if clause == "leave":
            return origin, None, None
        return dest, None, None
    if g_holder is None and g_field == origin:
        if clause is None:
            return g_field, None, None
        if clause == "with":
            return dest, mv.initiate, None
        if clause == "drop":
            return dest, None, None
        return "", None, f"{name} does not carry the grail, so he cannot leave it behind"
    if g_holder is None and g_field == dest:
        if clause is None:
            return g_field, None, None
        if clause == "with":
            return dest, mv.initiate, None
        return "", None, (f"the grail already lies on {world.field[dest].name}; "
                          "only 'with grail' (pick it up) applies")
    if clause is None:
        return g_field, g_holder, None
    if g_holder is not None:
        return "", None, (f"the grail is carried by {world.initiate[g_holder].name}; "
                          "it is never taken from another initiate")
    return "", None, (f"the grail lies on {world.field[g_field].name}, neither where "
                      f"{name} starts nor where he goes")


def distance(world, a: str, b: str) -> int:
    """Steps between two fields (breadth-first over the adjacency)."""
    if a == b:
        return 0
    seen = {a}
    frontier = [a]
    steps = 0
    while frontier:
        steps += 1
        nxt = []
        for f in frontier:
            for g in world.adjacent[f]:
                if g == b:
                    return steps
                if g not in seen:
                    seen.add(g)
                    nxt.append(g)
        frontier = nxt
    return 10 ** 6


def actions_before(state: dict, player: str) -> int:
    """How many actions of other players come before this player's next action."""
    pending = state.get("pending")
    if pending and pending["player"] == player:
        return 0
    start = state["next"] if state["phase"] == "round" else state["first"]
    order = [start] + seats_after(state, start)
    return order.index(player)


def _come(before: int) -> str:
    """'1 action comes', '2 actions come' (a message when orders are checked)."""
    return f"{counted(before, 'action')} {'comes' if before == 1 else 'come'}"


def could_become_legal(state: dict, player: str, mv: Move, world, before: int) -> str | None:
    """Why an action can never be legal by the time the player acts (or None if it may be).

    ``before`` other actions come first; each moves at most one initiate by one field."""
    name = world.initiate[mv.initiate].name
    origin = state["pieces"][mv.initiate]
    if origin is None:
        return f"{name} has been uncovered and is no longer on the board"
    dest = origin if mv.dest is None else mv.dest
    if mv.dest is not None and distance(world, origin, dest) > before + 1:
        return (f"{world.field[dest].name} is {distance(world, origin, dest)} steps from "
                f"{name} on {world.field[origin].name}; only {_come(before)} before yours, so "
                "he cannot be next to it by then")
    if mv.blow is not None:
        if mv.dest is not None and four_plus(state):
            return ("with four or more players an initiate either moves or blows a cover, "
                    "not both in one action")
        if mv.blow == mv.initiate:
            return f"{name} cannot blow his own cover"
        where = state["pieces"][mv.blow]
        if where is None:
            return f"{world.initiate[mv.blow].name} has already been uncovered"
        if mv.dest is None:
            needed = distance(world, where, origin)
        else:
            needed = distance(world, where, dest) + max(0, distance(world, origin, dest) - 1)
        if needed > before:
            return (f"{world.initiate[mv.blow].name} cannot be on the same field as {name} by "
                    "the time you act")
        have = influence(state, player, mv.initiate, world)
        if have < 10:
            return (f"blowing a cover costs 10 points of your influence on {name}; "
                    f"you have {have}")
    if mv.take and mv.blow is None:
        return "'taking grail' belongs to blowing a cover"
    # whoever holds the grail by then, 'dropping grail' into his own headquarters never works
    return dropped_at_home(state, world, mv) or grail_out_of_reach(state, mv, world, before)


def grail_out_of_reach(state: dict, mv: Move, world, before: int) -> str | None:
    """Why the grail cannot be where the action's grail clause needs it by the time the player
    acts (or None if it may be). Each action moves the grail at most one field (it goes only
    with an initiate who steps on, and stays where it is dropped, left or its bearer is
    uncovered), so a grail ``d`` fields away needs ``d`` actions:

    * 'with grail', 'leaving grail', 'dropping grail' and 'taking grail' after a move need it
      on the destination or on the field the initiate steps from, next to it: at most
      ``before + 1`` fields from the destination now;
    * 'taking grail' after a blow without a move needs it on the initiate's own field: the
      grail and the initiate come at most one field closer per action, so at most ``before``.

    'taking grail' after 'with grail' or 'leaving grail' can never work (the grail is then
    carried by the initiate, or left behind, not lying free where he blows the cover)."""
    if mv.take and mv.grail in ("with", "leave"):
        clause = "with grail" if mv.grail == "with" else "leaving grail"
        return (f"after '{clause}' the grail is not lying free on "
                f"{world.field[mv.dest].name}, so it cannot be taken there")
    if not (mv.grail or mv.take):
        return None
    name = world.initiate[mv.initiate].name
    grail = state["grail"]
    if grail["holder"] == mv.initiate:
        return None
    where = grail["field"]
    held = (f"carried by {world.initiate[grail['holder']].name} on"
            if grail["holder"] else "lying on")
    if mv.dest is None:
        origin = state["pieces"][mv.initiate]
        steps = distance(world, where, origin)
        if steps > before:
            return (f"the grail is {held} {world.field[where].name}, {counted(steps, 'step')} "
                    f"from {name} on {world.field[origin].name}; only {_come(before)} before "
                    "yours, so it cannot lie on his field by then")
        return None
    steps = distance(world, where, mv.dest)
    if steps > before + 1:
        return (f"the grail is {held} {world.field[where].name}, {steps} steps from "
                f"{world.field[mv.dest].name}; only {_come(before)} before yours, so it "
                f"cannot be at hand for {name}'s move by then")
    return None


def possible_moves(state: dict, world) -> list[tuple[str, str]]:
    """Every plain move (initiate, destination) on the board now, in roster and board order."""
    return [(i.id, dest) for i in world.initiates if state["pieces"][i.id] is not None
            for dest in world.adjacent[state["pieces"][i.id]]]


def all_rejected_moves(state: dict, rejected: list[list[str]], world) -> bool:
    """Whether every plain move possible now has been rejected this turn."""
    done = {tuple(r) for r in rejected}
    return all(m in done for m in possible_moves(state, world))


# --------------------------------------------------------------------------------- objections


def objection_limit(state: dict, objector: str, mover: str, out: Outcome, world) -> int:
    """The most ``objector`` will reveal against this action (standing orders; first match)."""
    for ob in state["standing"].get(objector, []):
        if ob["initiate"] not in (None, out.initiate):
            continue
        if ob["to"] not in (None, out.dest) or ob["from"] not in (None, out.origin):
            continue
        if ob["grail"] is not None and ob["grail"] != out.carries:
            continue
        if ob["blowing"] == "any" and out.blow is None:
            continue
        if ob["blowing"] not in (None, "any") and ob["blowing"] != out.blow:
            continue
        if ob["by"] not in (None, mover) or (ob["except_by"] is not None and
                                            ob["except_by"] == mover):
            continue
        if ob["ending"] and not out.ends:
            continue
        have = influence(state, objector, out.initiate, world)
        return have if ob["limit"] == "all" else min(int(ob["limit"]), have)
    return 0


def contest(order: list[str], limits: dict[str, int], insist: int) -> tuple[bool, dict[str, int], int]:
    """The escalation, one point at a time.

    ``order`` lists the objectors in seat order after the mover, ``limits`` the most each will
    reveal, ``insist`` the most the mover will reveal. Returns (move goes ahead, the highest
    amount each objector revealed, the amount the mover revealed).
    """
    revealed: dict[str, int] = {}
    shown = 0
    while True:
        need = shown + 1
        bidder = next((p for p in order if limits.get(p, 0) >= need), None)
        if bidder is None:
            return True, revealed, shown
        revealed[bidder] = need
        if insist >= need:
            shown = need
        else:
            return False, revealed, shown


def note_known(state: dict, player: str, initiate: str, amount: int) -> None:
    known = state["known"].setdefault(player, {})
    if amount > known.get(initiate, 0):
        known[initiate] = amount


# ------------------------------------------------------------------------------------ actions


class Rules:
    def __init__(self, world):
        self.world = world

    def name(self, initiate: str) -> str:
        return self.world.initiate[initiate].name

    def fname(self, field: str) -> str:
        return self.world.field[field].name

    # -- the opening ----------------------------------------------------------------------------
    def opening(self, state: dict, ctx: TurnContext) -> None:
        for player in state["players"]:
            if player in state["opened"]:
                continue
            orders: GralOrders | None = ctx.orders.get(player)
            if orders is None or not orders.has_action:
                if ctx.wait_for_orders:
                    ctx.await_orders(player)
                    continue
                ctx.decided(player, "opening", "pass", "default")
                ctx.event("You made no opening allocation (your orders held only standing "
                          "orders)." if orders is not None and edition(state) >= 2 else
                          "You made no opening allocation (no orders arrived).", to=[player])
            else:
                ctx.use_orders(player)
                self.assign(state, ctx, player, orders.assigns, opening=True)
                ctx.decided(player, "opening", self.assign_text(orders.assigns) or "pass",
                            "orders")
            state["opened"].append(player)
            ctx.event(f"{player} made the opening allocation.", kind="opening")
        if len(state["opened"]) == len(state["players"]):
            state["phase"] = "round"
            state["next"] = state["first"]
            ctx.event(f"The opening allocation is complete. {state['first']} acts first.",
                      kind="phase")

    def assign_text(self, assigns: list[Assign]) -> str:
        return "; ".join(f"assign {'+'.join(map(str, a.values))} to {self.name(a.initiate)}"
                         for a in assigns)

    def assign(self, state: dict, ctx: TurnContext, player: str, assigns: list[Assign], *,
               opening: bool = False, passed: bool = False) -> None:
        """``passed``: the player was just told he passed (assigning nothing): from rules
        edition 1 that is not said a second time."""
        sheet = state["sheets"][player]
        parts = []
        merged: dict[str, list[str]] = {}      # initiate -> units, in the order first assigned
        taken: set[str] = set()
        for a in assigns:
            units, missing = pick_units(state, player, a.values, self.world, taken)
            if missing is not None or state["pieces"][a.initiate] is None:
                # checked when the orders were submitted; the position may have changed since
                reason = (f"no free unit of {missing} is left" if missing is not None
                          else f"{self.name(a.initiate)} has been uncovered")
                ctx.event(f"Your order 'assign {'+'.join(map(str, a.values))} to "
                          f"{self.name(a.initiate)}' was not carried out: {reason}.",
                          to=[player], kind="skipped")
                continue
            for unit in units:
                sheet["units"][unit] = a.initiate
                taken.add(unit)
            merged.setdefault(a.initiate, []).extend(units)
            parts.append(f"{'+'.join(str(self.world.unit[u].value) for u in units)} "
                         f"({', '.join(units)}) to {self.name(a.initiate)}")
        if parts and edition(state) >= 3:
            # one entry per initiate, however many lines assigned to him: 'assign 9 to Alberto'
            # and 'assign 1 to Alberto' read as 'assign 9+1 to Alberto' would
            parts = [f"{'+'.join(str(self.world.unit[u].value) for u in units)} "
                     f"({', '.join(units)}) to {self.name(initiate)}"
                     for initiate, units in merged.items()]
        if parts:
            ctx.event("You assigned " + "; ".join(parts) + ".", to=[player], kind="assign")
        elif not (passed and edition(state) >= 1):
            ctx.event("You assigned nothing this time.", to=[player], kind="assign")
        if not opening:
            ctx.event(f"{player} assigns influence.", kind="assign")

    # -- a round --------------------------------------------------------------------------------
    def round(self, state: dict, ctx: TurnContext, round_limit: int) -> None:
        acted: list[str] = []
        while state["phase"] == "round":
            player = state["next"]
            if player in acted:
                break
            finished = self.action(state, ctx, player)
            if not finished:
                break
            acted.append(player)
            state["actions"] += 1
            if state["phase"] != "round":
                break
            state["next"] = next_player(state, player)
            if state["next"] == state["first"]:
                state["rounds"] += 1
                if round_limit and state["rounds"] >= round_limit:
                    self.end_by_limit(state, ctx, round_limit)

    def action(self, state: dict, ctx: TurnContext, player: str) -> bool:
        """One player's action. Returns False if the game now waits for this player."""
        orders: GralOrders | None = ctx.orders.get(player)
        pending = state["pending"] if (state["pending"] or {}).get("player") == player else None
        rejected: list[list[str]] = list(pending["rejected"]) if pending else []
        proposed: list[str] = list(pending["proposed"]) if pending else []
        if orders is None or not orders.has_action:
            if ctx.wait_for_orders:
                ctx.await_orders(player)
                return False
            if self.obliged(state, rejected, proposed):
                return self.fallback(state, ctx, player, rejected, proposed, None)
            ctx.decided(player, "action", "pass", "default")
            ctx.event("Your orders held only standing orders, no action; you passed (assigned "
                      "nothing)." if orders is not None and edition(state) >= 2 else
                      "No orders arrived from you; you passed (assigned nothing).", to=[player])
            self.assign(state, ctx, player, [], passed=True)
            state["pending"] = None
            return True
        ctx.use_orders(player)
        plain = edition(state) >= 2     # from edition 2 skipped and rejected moves are told apart
        counts = {"rejected": 0, "impossible": 0, "repeated": 0}
        for mv in orders.moves:
            text = move_text(self.world, mv, with_insist=False)
            if text in proposed:
                counts["repeated"] += 1
                ctx.event(f"Your order '{text}' was already rejected this turn; skipped.",
                          to=[player], kind="skipped")
                continue
            out, reason = check_move(state, player, mv, self.world)
            if out is None:
                counts["impossible"] += 1
                ctx.event(f"Your order '{text}' was skipped (not possible when your action "
                          f"came, so not proposed and not rejected): {reason}." if plain else
                          f"Your order '{text}' could not be carried out: {reason}.",
                          to=[player], kind="skipped")
                continue
            ctx.decided(player, "action", move_text(self.world, mv), "orders")
            insist = mv.insist
            if self.propose(state, ctx, player, mv, out, insist):
                state["pending"] = None
                return True
            counts["rejected"] += 1
            proposed.append(text)
            if mv.dest is not None and (edition(state) < 3 or
                                        self.plain_equivalent(state, player, mv, out)):
                rejected.append([mv.initiate, mv.dest])
        # every listed move was rejected or impossible
        outcome = self.outcome(counts)
        if self.obliged(state, rejected, proposed):
            if ctx.wait_for_orders:
                state["pending"] = {"player": player, "rejected": rejected, "proposed": proposed}
                ctx.event((f"None of the moves you listed went ahead ({outcome}). "
                           if plain else
                           "All the moves you listed were rejected or impossible. ")
                          + "Other moves are still possible, so you may not assign influence "
                          "yet: send further moves.", to=[player], kind="asked")
                ctx.await_orders(player)
                return False
            return self.fallback(state, ctx, player, rejected, proposed, orders,
                                 outcome if plain else None)
        # from rules edition 3 in the words of the other notes ('None of the moves you listed
        # went ahead'), where edition 2 said 'None of your orders could be carried out'
        none = ("None of the moves you listed went ahead" if edition(state) >= 3 else
                "None of your orders could be carried out")
        if orders.assigns or orders.passed:
            if plain and orders.moves:
                ctx.event(f"None of the moves you listed went ahead ({outcome}), so "
                          + ("your assignment applies." if orders.assigns else
                             "you pass as ordered."), to=[player])
            self.assign_or_pass(state, ctx, player, orders)
        elif ctx.wait_for_orders:
            state["pending"] = {"player": player, "rejected": rejected, "proposed": proposed}
            ctx.event(f"{none} ({outcome}): send new orders."
                      if plain else "None of your orders could be carried out: send new orders.",
                      to=[player], kind="asked")
            ctx.await_orders(player)
            return False
        else:
            ctx.decided(player, "action", "pass", "default")
            ctx.event(f"{none} ({outcome}), and you ordered no assignment, so you passed "
                      "(assigned nothing)." if plain else
                      "None of your orders could be carried out; you passed.", to=[player])
            self.assign(state, ctx, player, [], passed=True)
        state["pending"] = None
        return True

    def obliged(self, state: dict, rejected: list[list[str]], proposed: list[str]) -> bool:
        """Whether the player, having had a move rejected this turn, must have further moves
        proposed before he may assign (section 5.2: not while some plain move is left that was
        not rejected). Before rules edition 3 only a rejected move counted that was recorded as
        a rejection of a plain move (a rejected blow without a move did not oblige at all);
        from edition 3 every rejected proposal obliges."""
        if edition(state) >= 3:
            return bool(rejected or proposed) and not self.all_rejected(state, rejected)
        return bool(rejected) and not self.all_rejected(state, rejected)

    def plain_equivalent(self, state: dict, player: str, mv: Move, out: Outcome) -> bool:
        """Whether a rejected move was the plain move (initiate, destination) itself: it blows
        no cover and leaves the grail as the plain move would. From rules edition 3 only such a
        rejection counts towards 'every possible move rejected' (section 5.2) and keeps the
        plain move from being proposed again; a rejected 'move A to B and blow C' or 'move A to
        B with grail' (picking it up) is another move than 'move A to B'."""
        if mv.blow is not None:
            return False
        plain, _ = check_move(state, player, Move(None, mv.initiate, mv.dest), self.world)
        return plain == out

    @staticmethod
    def outcome(counts: dict[str, int]) -> str:
        """What became of a player's listed moves: '1 rejected after an objection, 2 skipped as
        not possible'."""
        parts = []
        if counts["rejected"]:
            parts.append(f"{counts['rejected']} rejected after an objection")
        if counts["impossible"]:
            parts.append(f"{counts['impossible']} skipped as not possible")
        if counts["repeated"]:
            parts.append(f"{counts['repeated']} skipped as already rejected this turn")
        return ", ".join(parts) or "none listed"

    def all_rejected(self, state: dict, rejected: list[list[str]]) -> bool:
        return all_rejected_moves(state, rejected, self.world)

    def fallback(self, state: dict, ctx: TurnContext, player: str, rejected: list[list[str]],
                 proposed: list[str], orders: GralOrders | None,
                 outcome: str | None = None) -> bool:
        """The documented default after rejections: propose every remaining plain move in roster
        and board order (revealing nothing), until one goes ahead; if all are rejected, the
        player's assign lines apply (or a pass). ``outcome`` (rules edition 2): what became of
        the moves listed in this turn's orders."""
        ctx.event((f"None of the moves you listed went ahead ({outcome})" if outcome else
                   "The moves you listed were rejected")
                  + "; as the rules require, the remaining moves are proposed in turn before "
                  "influence may be assigned.", to=[player])
        done = {tuple(r) for r in rejected}
        # a rejected proposal changes no piece and no grail, so every candidate can be worked
        # out before the first is proposed
        candidates = []
        for initiate, dest in possible_moves(state, self.world):
            if (initiate, dest) in done:
                continue
            mv = Move(None, initiate, dest)
            out, reason = check_move(state, player, mv, self.world)
            if out is not None:
                candidates.append((initiate, dest, mv, out))
        if edition(state) >= 4:
            # from rules edition 4 a move that would end the game is proposed for the player
            # only after every other (the order stays roster and board order otherwise): the
            # player chose none of these moves, and the one that brings the grail home decides
            # the game (earlier editions proposed it wherever it came in that order)
            candidates.sort(key=lambda c: c[3].ends)
        for initiate, dest, mv, out in candidates:
            ctx.decided(player, "action", move_text(self.world, mv), "default")
            if self.propose(state, ctx, player, mv, out, 0):
                if edition(state) >= 4 and orders is not None and orders.assigns:
                    # from rules edition 4 the player is told that his assignment lapsed
                    # (earlier editions left him to infer it from the move going ahead)
                    ctx.event(f"{self.name(initiate)}'s move went ahead, so your ordered "
                              f"assignment ({self.assign_text(orders.assigns)}) was not made: "
                              "it applies only once every possible move has been rejected.",
                              to=[player], kind="skipped")
                state["pending"] = None
                return True
            rejected.append([initiate, dest])
        ctx.event(f"Every possible move was rejected, so {player} may assign influence.",
                  kind="exhausted")
        self.assign_or_pass(state, ctx, player, orders)
        state["pending"] = None
        return True

    def assign_or_pass(self, state: dict, ctx: TurnContext, player: str,
                       orders: GralOrders | None) -> None:
        if orders is not None and (orders.assigns or orders.passed):
            ctx.decided(player, "action", self.assign_text(orders.assigns) or "pass", "orders")
            self.assign(state, ctx, player, orders.assigns)
        else:
            ctx.decided(player, "action", "pass", "default")
            self.assign(state, ctx, player, [])

    # -- a proposal and its contest ---------------------------------------------------------------
    def propose(self, state: dict, ctx: TurnContext, mover: str, mv: Move, out: Outcome,
                insist: int | str) -> bool:
        name = self.name(mv.initiate)
        ctx.event(f"{mover} proposes: {self.describe(mv, out, edition(state))}.",
                  kind="proposal", mover=mover, move=move_text(self.world, mv, with_insist=False))
        if mv.blow:
            # announcing a blow shows that the mover has at least 10 points on the active initiate
            note_known(state, mover, mv.initiate, 10)
        order = seats_after(state, mover)
        limits = {}
        for p in order:
            limit = objection_limit(state, p, mover, out, self.world)
            ctx.decided(p, "objection", f"up to {limit}" if limit else "no objection",
                        "standing" if state["standing"].get(p) else "default")
            if limit:
                limits[p] = limit
        have = influence(state, mover, mv.initiate, self.world)
        reach = have if insist == "all" else min(int(insist), have)
        accepted, revealed, shown = contest(order, limits, reach)
        for p, amount in revealed.items():
            note_known(state, p, mv.initiate, amount)
        if shown:
            note_known(state, mover, mv.initiate, shown)
        if revealed:
            parts = [f"{p} revealed {n}" for p, n in revealed.items()]
            if shown:
                # from edition 1 'showed': 'matched with 10' read oddly against an 11
                parts.append(f"{mover} " + ("showed" if edition(state) >= 1 else "matched with")
                             + f" {shown}")
            verdict = "the move goes ahead" if accepted else f"{mover} gives in: the move is rejected"
            ctx.event(f"Objection on {name}: " + ", ".join(parts) + f"; {verdict}.",
                      kind="contest", revealed=revealed, mover=mover, mover_shown=shown,
                      accepted=accepted, initiate=mv.initiate)
        else:
            ctx.event("Nobody objects.", kind="contest", accepted=True)
        if accepted:
            self.perform(state, ctx, mover, mv, out)
        return accepted

    def describe(self, mv: Move, out: Outcome, rules_edition: int = 0) -> str:
        """The proposed action in words; from rules edition 3 the taking of the grail ends the
        blow's clause ('... on Akkon and takes the grail', earlier '...; and takes ...')."""
        name = self.name(mv.initiate)
        parts = []
        if mv.dest is not None:
            text = f"{name} from {self.fname(out.origin)} to {self.fname(out.dest)}"
            if mv.grail == "with":
                text += " with the grail"
            elif mv.grail == "leave":
                text += ", leaving the grail behind"
            elif mv.grail == "drop":
                text += ", dropping the grail there"
            parts.append(text)
        if mv.blow:
            parts.append(f"{name} blows the cover of {self.name(mv.blow)} on "
                         f"{self.fname(out.dest)}")
        if mv.take:
            if rules_edition >= 3 and parts:
                parts[-1] += " and takes the grail"
            else:
                parts.append("and takes the grail")
        return "; ".join(parts)

    def perform(self, state: dict, ctx: TurnContext, mover: str, mv: Move, out: Outcome) -> None:
        if mv.dest is not None:
            state["pieces"][mv.initiate] = out.dest
        if mv.blow:
            self.uncover(state, ctx, mover, mv.initiate, mv.blow)
        before = dict(state["grail"])
        state["grail"] = {"field": out.grail_field, "holder": out.grail_holder}
        holder = out.grail_holder
        where = self.fname(out.grail_field)
        said_by_end = out.ends and edition(state) >= 3     # the end's line says where it is
        if (state["grail"] != before or (holder and holder == mv.initiate and mv.dest)) \
                and not said_by_end:
            if holder:
                ctx.event(f"The grail is carried by {self.name(holder)} on {where}.", kind="grail")
            else:
                ctx.event(f"The grail lies on {where}.", kind="grail")
        if out.ends:
            self.finish(state, ctx, mover, out)

    def uncover(self, state: dict, ctx: TurnContext, mover: str, active: str, target: str) -> None:
        field = state["pieces"][target]
        state["pieces"][target] = None
        lost = {}
        for p in state["players"]:
            amount = influence(state, p, target, self.world)
            lost[p] = amount
            state["lost"].setdefault(p, {})[target] = amount
            state["known"].setdefault(p, {})[target] = amount
        paid = state["sheets"][mover]["paid"]
        paid[active] = paid.get(active, 0) + 10
        known = state["known"].setdefault(mover, {})
        known[active] = max(known.get(active, 0), 10) - 10
        ctx.event(f"{self.name(target)} is uncovered on {self.fname(field)} and leaves the board. "
                  "Influence lost on him: " +
                  ", ".join(f"{p} {n}" for p, n in lost.items()) + ".", kind="uncover",
                  target=target, lost=lost)
        ctx.event(f"{mover} pays 10 points of influence on {self.name(active)} for it.",
                  kind="payment", player=mover, initiate=active)

    # -- the end --------------------------------------------------------------------------------
    def finish(self, state: dict, ctx: TurnContext, mover: str, out: Outcome) -> None:
        state["phase"] = "over"
        totals = {p: influence(state, p, out.grail_holder, self.world) if out.grail_holder
                  else 0 for p in state["players"]}
        if out.grail_holder is None and edition(state) >= 4:
            # The Original, the grail dropped on a headquarters: there is no bearer, so no
            # influence 'on the bearer' (earlier editions gave everybody 0, which the report's
            # table showed as if nobody held influence on the initiate who brought it)
            totals = {}
        if state["variant"] == "original":
            winners = [p for p, order in state["hq"].items()
                       if self.world.order[order].headquarters == out.grail_field]
            reason = (f"the grail reached {self.fname(out.grail_field)}, the headquarters "
                      f"assigned to {winners[0]}")
        else:
            best = max(totals.values())
            tied = [p for p in state["players"] if totals[p] == best]
            # from rules edition 3: names listed 'A, B and C', the amount not in parentheses
            # nested in the event's own
            words = edition(state) >= 3
            if len(tied) > 1 and mover in tied:
                winners = [mover]
                if words and best == 0:
                    reason = (f"nobody has influence on the bearer; the tie goes to {mover}, who "
                              "made the move")
                else:
                    reason = (f"{listed(tied) if words else ', '.join(tied)} tie with {best} on "
                              f"the bearer; the tie goes to {mover}, who made the move")
            else:
                winners = tied
                reason = (f"{listed(winners) if words else ' and '.join(winners)} "
                          f"{'has' if len(winners) == 1 else 'share'} the most influence on the "
                          + (f"bearer, {best}" if words else f"bearer ({best})"))
        state["result"] = {"winners": winners, "bearer": out.grail_holder,
                           "field": out.grail_field, "mover": mover, "totals": totals,
                           "reason": reason}
        bearer = self.name(out.grail_holder) if out.grail_holder else "the grail"
        where = self.fname(out.grail_field)
        if edition(state) < 3:
            ctx.event(f"{bearer} reaches {where}: the game ends. "
                      f"Winner: {' and '.join(winners)} ({reason}).", kind="end")
            return
        # rules edition 3: what ended the game, said as it happened (a bearer who takes the
        # grail after a blow has reached nothing), and 'Winners' for more than one
        if out.grail_holder is None:            # The Original: dropped on a headquarters
            how = f"{self.name(out.initiate)} drops the grail on {where}"
        elif out.blow is not None and out.grail_holder == out.initiate:
            # the grail taken after the blow (a move bringing it home allows no blow)
            how = f"{bearer} takes the grail on {where}"
        else:
            how = f"{bearer} reaches {where}"
        if state["variant"] != "original" and out.grail_holder:
            how += ", his order's headquarters"
        ctx.event(f"{how}: the game ends. {word_for(len(winners), 'Winner')}: "
                  f"{listed(winners)} ({reason}).", kind="end")

    def end_by_limit(self, state: dict, ctx: TurnContext, limit: int) -> None:
        state["phase"] = "over"
        state["result"] = {"winners": [], "bearer": None, "field": None, "mover": None,
                           "totals": {}, "reason": f"the round limit of {limit} was reached"}
        rounds = counted(limit, "round") if edition(state) >= 3 else f"{limit} rounds"
        ctx.event(f"The round limit ({rounds}) is reached: the game ends without a winner.",
                  kind="end")


def new_state(world, players: list[str], first: str, variant: str,
              hq: dict[str, str]) -> dict[str, Any]:
    return {
        "kind": "gral",
        "players": list(players),
        "variant": variant,
        "hq": hq,
        "first": first,
        "phase": "opening",
        "opened": [],
        "next": first,
        "rounds": 0,
        "actions": 0,
        "pieces": {i.id: world.start_field(i.id) for i in world.initiates},
        "grail": {"field": world.grail_start, "holder": None},
        "sheets": {p: {"units": {}, "paid": {}} for p in players},
        "standing": {p: [] for p in players},
        "known": {p: {} for p in players},
        "lost": {p: {} for p in players},
        "pending": None,
        "result": None,
        "commitments": {},
        "salts": None,
        "events": [],
    }
