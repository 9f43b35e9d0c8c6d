"""Die Jagd nach dem Gral as a game kind of the shared engine."""
from __future__ import annotations

from functools import cached_property
from typing import Any, Sequence

from companion.engine.canon import canonical_json, keyed_hex, sha256_hex
from companion.engine.chance import Chance
from companion.engine.game import COMMON_OPTIONS, GameKind, OptionSpec, TurnContext, edition
from companion.engine.names import match_name
from companion.engine.numbers import is_digits
from companion.engine.orders import IllegalOrderError, OrderError, OrdersRejected
from companion.engine.words import counted
from companion.errors import CompanionError
from companion.gral import orders as grammar
from companion.gral.orders import (
    GralOrders, Move, ending_clash, illegal, move_text, objection_text,
)
from companion.gral.rules import (
    Rules, actions_before, all_rejected_moves, check_move, could_become_legal, four_plus,
    free_units, influence, new_state, pick_units, seats_after,
)
from companion.gral.world import load_world


def _first(value: str, players: Sequence[str]) -> str:
    if value.lower() == "random":
        return "random"
    found = match_name(value, players)
    if not found.ok:
        raise ValueError(f"'{value}' is not a player of this game (players: {', '.join(players)})")
    return found.name


def _round_limit(value: str, players: Sequence[str]) -> int:
    if not is_digits(value):
        raise ValueError(f"'{value}' is not a whole number (0 means no limit)")
    return int(value)


def _hq(value: str, players: Sequence[str]) -> Any:
    if value.lower() == "random":
        return "random"
    world = load_world()
    names = [n.strip() for n in value.split(",")]
    if len(names) != len(players):
        raise ValueError(f"give one order per player in seat order ({len(players)} players), "
                         "e.g. hq=Templars,Assassins,Rosicrucians,Illuminati")
    result = []
    for typed in names:
        found = match_name(typed, [o.name for o in world.orders])
        if not found.ok:
            raise ValueError(f"'{typed}' is not an order (orders: "
                             f"{', '.join(o.name for o in world.orders)})")
        result.append(world.order_by_name[found.name])
    if len(set(result)) != len(result):
        raise ValueError("each player needs a different headquarters")
    return result


class GralKind(GameKind):
    edition = 4     # 1: a player who passed is not told twice that he assigned nothing; a
    # mover's answer to an objection is what he 'showed'. 2: an 'object' line whose conditions
    # contradict each other ('with grail without grail') is refused, where earlier editions
    # read it with the later condition winning (orders.Parser, strict); a player's report says
    # plainly which listed moves were skipped (not possible when his action came) and which
    # were rejected (stopped by an objection) (rules.Rules); orders holding only standing
    # orders are used in the turn that puts them in force, not held pending (process), and
    # the player is told he passed for want of an action, not of orders. 3: a blow without a
    # move takes only the grail the uncovered initiate carried, not one lying free (section
    # 5.3; rules.check_move); a rejected move that blows a cover or handles the grail
    # otherwise than the plain move is no rejection of the plain move, which stays to be
    # proposed (5.2; Rules.plain_equivalent), and a rejected blow without a move obliges the
    # player to have further moves proposed before assigning (Rules.obliged); a move that
    # brings the grail home ends the game before a blow could follow it (5.4; check_move);
    # words: 'N objection lines' (not 'line(s)'), a proposal '... on Akkon and takes the
    # grail' (not '...; and takes'), a move to the field the initiate stands on 'already
    # stands on' it (not 'X is not adjacent'); the end says what ended the game ('X takes the
    # grail on Masyaf, his order's headquarters', not 'X reaches Masyaf' after a blow;
    # 'reaches Masyaf, his order's headquarters'; in The Original 'X drops the grail on
    # Paris'), 'Winners: A and B' (not 'Winner: A and B'), names listed 'A, B and C' and the
    # winning amount after a comma, not in parentheses nested in the event's own, and a tie
    # at 0 as 'nobody has influence on the bearer' (rules.Rules.finish); the round limit
    # '(1 round)', not '(1 rounds)'; a player whose listed moves all failed, with no
    # assignment, is told 'None of the moves you listed went ahead', not 'None of your orders
    # could be carried out' (Rules.action); assignments to one initiate on several lines are
    # told as one entry, '9+1 (A9, A1) to Alberto', not '9 (A9) to Alberto; 1 (A1) to Alberto'
    # (Rules.assign); the action that ends the game says where the grail is in its end line
    # alone, without 'The grail is carried by X on F.' before it (Rules.perform)
    # 4: 'dropping grail' on a move into the initiate's own order's headquarters is refused
    # (and skipped), as carrying the grail there ends the game at once, before the drop (5.4;
    # rules.dropped_at_home, used by check_move and could_become_legal); earlier editions
    # dropped it there and the game went on; in The Original a game ended by the grail dropped
    # on a headquarters has no bearer and no 'influence on the bearer' (Rules.finish: result
    # totals empty, the report shows no table), where earlier editions gave everybody 0; a
    # player whose ordered assignment lapsed because a remaining move went ahead after his
    # listed moves failed is told so (Rules.fallback), where earlier editions said nothing;
    # the remaining moves proposed for a player after a rejection put those that would end
    # the game last (Rules.fallback), where earlier editions kept plain roster order
    option_specs = COMMON_OPTIONS + (
        OptionSpec("variant", "'standard' (sections 3-6 of the rules) or 'original' (section 7: "
                   "four players, each assigned a headquarters; the grail brought to yours wins)",
                   "standard", ("standard", "original")),
        OptionSpec("first", "who acts first: a player's name, or 'random' (a draw recorded in "
                   "the game's history)", "random", parse=_first),
        OptionSpec("hq", "variant 'original': the orders whose headquarters the players get, in "
                   "seat order (e.g. Templars,Assassins,Rosicrucians,Illuminati), or 'random'",
                   "random", parse=_hq),
        OptionSpec("round-limit", "end the game without a winner after this many rounds "
                   "(0: no limit; a house rule for games that stall)", "0", parse=_round_limit),
    )

    @cached_property
    def world(self):
        return load_world()

    @cached_property
    def rules(self) -> Rules:
        return Rules(self.world)

    # -- creation ---------------------------------------------------------------------------------
    def check_players(self, players: list[str], options: dict[str, Any]) -> None:
        if options["variant"] == "original" and len(players) != 4:
            raise CompanionError(f"the variant 'The Original' is for four players; this game "
                                 f"has {len(players)}")

    def create(self, players: list[str], options: dict[str, Any], chance: Chance) -> dict:
        self.check_players(players, options)
        first = options["first"]
        if first == "random":
            first = players[chance.choice(len(players), "first player")]
        hq: dict[str, str] = {}
        if options["variant"] == "original":
            orders = options["hq"]
            if orders == "random":
                orders = chance.shuffle([o.id for o in self.world.orders],
                                        "headquarters for The Original")
            hq = dict(zip(players, orders))
        return new_state(self.world, players, first, options["variant"], hq)

    def read_position(self, text: str, filename: str, options: dict[str, Any]) -> dict:
        from companion.gral.position import read_position

        return read_position(self.world, text, filename, options)

    def setup_players(self, text: str) -> list[str]:
        from companion.gral.position import setup_players

        return setup_players(text)

    def write_position(self, state: dict, viewer: str = "moderator") -> str:
        from companion.gral.position import write_position

        return write_position(self.world, state, viewer)

    # -- orders -----------------------------------------------------------------------------------
    def parse_orders(self, state: dict, player: str, text: str, filename: str) -> GralOrders:
        # a game of an earlier edition reads its stored orders as it did (they replay alike)
        return grammar.parse_orders(self.world, state["players"], text, filename,
                                    strict=edition(state) >= 2)

    def expects(self, state: dict, player: str) -> str:
        """What the player's next orders are for: 'opening', 'action' or 'nothing'."""
        if state["phase"] == "over":
            return "nothing"
        if state["phase"] == "opening" and player not in state["opened"]:
            return "opening"
        return "action"

    def obliged(self, state: dict, pending: dict | None) -> bool:
        """Whether the player a turn waits for after his listed moves came to nothing
        (``pending``) must send further moves before he may assign influence (5.2): a move of
        his was rejected this turn (from rules edition 3 any proposal of his) and some possible
        move has not been. Not so when every listed move was skipped as not possible."""
        if not pending:
            return False
        return bool(pending["rejected"] or (edition(state) >= 3 and pending["proposed"])) and \
            not all_rejected_moves(state, pending["rejected"], self.world)

    def check_orders(self, state: dict, player: str, orders: GralOrders, filename: str) -> None:
        errors: list[OrderError] = []
        expects = self.expects(state, player)
        lines = [m.line for m in orders.moves] + [a.line for a in orders.assigns] + \
            ([orders.passed] if orders.passed else [])
        if expects == "nothing":
            first = (orders.lines or lines or [None])[0]
            col = first.tokens[0].col if first is not None and first.tokens else 1
            errors.append(IllegalOrderError("the game is over; no more orders are taken",
                                            first, col if first is not None else None))
            raise OrdersRejected(errors, filename)
        if expects == "opening":
            for mv in orders.moves:
                errors.append(illegal(mv.line, "the opening allocation comes first: moves can "
                                      "be ordered from the next turn on",
                                      "for now, assign influence ('assign 5 to ...') or pass"))
        else:
            before = actions_before(state, player)
            for mv in orders.moves:
                out, reason = check_move(state, player, mv, self.world)
                if out is not None:
                    continue
                if before:
                    reason = could_become_legal(state, player, mv, self.world, before)
                if reason:
                    errors.append(illegal(mv.line, reason))
        taken: set[str] = set()
        targets = []
        for a in orders.assigns:
            if state["pieces"][a.initiate] is None:
                errors.append(illegal(a.line, f"{self.world.initiate[a.initiate].name} has been "
                                      "uncovered; influence on him is worthless"))
                continue
            bad = [v for v in a.values if not 1 <= v <= 10]
            if bad:
                errors.append(illegal(a.line, f"{bad[0]} is not a unit: units are worth 1 to 10 "
                                      "points", "write larger amounts as units, e.g. 10+5"))
                continue
            units, missing = pick_units(state, player, a.values, self.world, taken)
            if missing is not None:
                free = sorted(self.world.unit[u].value for u in free_units(state, player, self.world)
                              if u not in taken)
                asked, left = a.values.count(missing), free.count(missing)
                earlier = any(self.world.unit[u].value == missing for u in taken)
                problem = (f"you asked for {asked} units of {missing}; only {left} "
                           f"{'is' if left == 1 else 'are'} free" if left else
                           f"you have no free unit of {missing} left")
                if earlier:
                    problem += " (an earlier line of these orders takes some)"
                errors.append(illegal(a.line, problem,
                                      f"free units: {', '.join(map(str, free)) or 'none'}"))
                continue
            taken.update(units)
            targets.append(a.initiate)
        if expects == "action" and four_plus(state) and len(set(targets)) > 1:
            second = next(a for a in orders.assigns if a.initiate != targets[0])
            errors.append(illegal(second.line, "with four or more players you assign influence "
                                  "to only one initiate per turn",
                                  "keep the other assignment for a later turn"))
        if orders.passed and orders.assigns:
            errors.append(illegal(orders.passed, "'pass' means assigning nothing, but the orders "
                                  "also assign influence", "remove either"))
        errors += self.check_standing(state, orders)
        pending = state.get("pending")
        if (expects == "action" and pending and pending["player"] == player and
                not orders.moves and orders.assigns and self.obliged(state, pending)):
            errors.append(illegal(orders.assigns[0].line, "some of your moves were rejected and "
                                  "other moves are still possible, so you may not assign "
                                  "influence yet", "send further moves"))
        if errors:
            raise OrdersRejected(sorted(errors, key=lambda e: e.line.number if e.line else 0),
                                 filename)

    def check_standing(self, state: dict, orders: GralOrders) -> list[OrderError]:
        """Objection lines whose conditions can never hold together, refused when the orders are
        sent (a check of submissions only: stored orders are read again by ``parse_orders``
        alone, so they replay as they were played):

        * in a game of rules edition 0 or 1, whose orders are read leniently (the later of two
          contradictory conditions winning), the contradictions edition 2 refuses on reading;
        * in every game, 'ending' with a condition under which no action can end this game:
          'without grail' outside The Original (only the active initiate can bring the grail
          home), or 'to' a field where no action that goes there ends the game (no
          headquarters; outside The Original, not the headquarters of the initiate named)."""
        errors: list[OrderError] = []
        w = self.world
        strict = grammar.Parser(w, state["players"], strict=True) if edition(state) < 2 else None
        for ob in orders.standing or ():
            if ob.line is None:
                continue
            if strict is not None:
                try:
                    strict.line(ob.line, GralOrders())
                except OrderError as err:
                    errors.append(err)
                    continue
            clash = ending_clash(w, ob, state["variant"] == "original")
            if clash is not None:
                col, width, message, suggestion = clash
                errors.append(IllegalOrderError(message, ob.line, col, width,
                                                suggestion=suggestion))
        return errors

    def acknowledge(self, state: dict, player: str, orders: GralOrders) -> list[str]:
        """The orders as understood, a line each. Moves are told apart plainly: a listed move
        is 'skipped' when it is not possible as the player's action comes (it is not proposed,
        and counts as no rejection), 'rejected' when it is proposed and an objection stops it."""
        out = []
        w = self.world
        acting = self.expects(state, player) == "action"
        before = actions_before(state, player) if acting else 0
        for n, mv in enumerate(orders.moves, start=1):
            text = move_text(w, mv, with_insist=False)
            have = influence(state, player, mv.initiate, w)
            if mv.insist == "all":
                insist = f"insisting with all your influence on him (now {have})"
            elif mv.insist:
                insist = f"insisting up to {mv.insist} (you have {have} on him now)"
            else:
                insist = "giving in at the first objection"
            line = f"choice {n}: {text}, {insist}"
            if acting and check_move(state, player, mv, w)[0] is None:
                line += (f"; not possible in the position now: {counted(before, 'action')} "
                         f"{'comes' if before == 1 else 'come'} before yours, and if it has not "
                         "become possible by then it is skipped")
            out.append(line)
        if orders.moves:
            out.append("skipped means not possible when your action comes, so not proposed; "
                       "rejected means proposed and stopped by an objection; either way the next "
                       "choice is tried")
            if (state.get("pending") or {}).get("player") != player:
                out.append("if one is rejected and none goes ahead: the remaining moves are "
                           "proposed in turn, giving in at the first objection (with "
                           "missing=wait you are asked for more moves instead); assigning is "
                           "allowed only once every move is rejected")
                if orders.assigns:
                    rest = "the assignment below is made instead"
                elif orders.passed:
                    rest = "you pass (assign nothing), as ordered"
                else:
                    rest = ("you pass (assign nothing); with missing=wait you are asked for new "
                            "orders")
                out.append(f"if every choice is skipped: {rest}")
            else:       # moves of this action were rejected before: the game waits for more
                out.append("if none goes ahead while other moves remain: you are asked for more "
                           "moves (assigning is allowed only once every move is rejected)")
        taken: set[str] = set()
        for a in orders.assigns:
            units, _ = pick_units(state, player, a.values, w, taken)
            taken.update(units)
            parts = " + ".join(f"{w.unit[u].value} (unit {u})" for u in units)
            prefix = "opening: " if self.expects(state, player) == "opening" else (
                "otherwise: " if orders.moves else "")
            out.append(f"{prefix}assign {parts} to {w.initiate[a.initiate].name}")
        if orders.passed:
            out.append(("otherwise: " if orders.moves else "") + "pass (assign nothing)")
        if orders.standing is None:
            count = len(state["standing"].get(player, []))
            out.append(f"standing orders unchanged ({count} in force)")
        elif not orders.standing:
            out.append("standing orders: none (you never object)")
        else:
            for n, ob in enumerate(orders.standing, start=1):
                out.append(f"standing order {n}: {objection_text(w, ob.to_json())}")
        return out

    def options_for(self, state: dict, player: str) -> list[str]:
        return [line for _, lines in self.option_groups(state, player) for line in lines]

    def option_groups(self, state: dict, player: str) -> list[tuple[str, list[str]]]:
        """The order lines open to the player now, in titled groups, every line a valid order:
        every legal move and blow, but only a few examples of assigning (any free units may go
        to any initiate on the board: listing every unit for every initiate made 81 lines) and
        of standing orders; 'pass' last."""
        w = self.world
        expects = self.expects(state, player)
        if expects == "nothing":
            return []
        assigns = self.assign_examples(state, player)
        standing = self.standing_examples(state, player)
        if expects == "opening":
            groups = [("Opening allocation (any number of lines; any free units to any "
                       "initiates)", assigns)]
            if standing:
                groups.append(("Standing orders (objections), in force from the first round",
                               standing))
            return groups + [("Or", ["pass"])]
        board = [i for i in w.initiates if state["pieces"][i.id] is not None]
        moves, blows = [], []
        # a cover can only be blown on the field where the target stands and with 10 points on
        # the active initiate (check_move refuses every other blow): only those are tried
        targets_on: dict[str, list] = {}
        for target in board:
            targets_on.setdefault(state["pieces"][target.id], []).append(target)
        for i in board:
            origin = state["pieces"][i.id]
            can_blow = influence(state, player, i.id, w) >= 10
            # a bearer keeps the grail when nothing is said: 'with grail' would be the same move
            clauses = ((None, "leave", "drop") if state["grail"]["holder"] == i.id else
                       (None, "with", "leave", "drop"))
            for dest in w.adjacent[origin]:
                for clause in clauses:
                    mv = Move(None, i.id, dest, grail=clause)
                    out, _ = check_move(state, player, mv, w)
                    if out is None:
                        continue
                    moves.append(move_text(w, mv))
                    if four_plus(state) or not can_blow:
                        continue
                    for target in targets_on.get(dest, ()):
                        for take in (False, True):
                            blow = Move(None, i.id, dest, grail=clause, blow=target.id, take=take)
                            if check_move(state, player, blow, w)[0] is not None:
                                blows.append(move_text(w, blow))
            for target in targets_on.get(origin, ()) if can_blow else ():
                for take in (False, True):
                    blow = Move(None, i.id, None, blow=target.id, take=take)
                    if check_move(state, player, blow, w)[0] is not None:
                        blows.append(move_text(w, blow))
        groups = [("Moves (list several, best first; add 'insist N' to push one through)", moves)]
        if blows:
            groups.append(("Blowing a cover (costs 10 of your points on the active initiate)", blows))
        if four_plus(state):
            title = "Instead of moving: assign influence (any free units, to one initiate)"
        else:
            title = "Instead of moving: assign influence (any free units to any initiates)"
        pending = state.get("pending")
        if assigns and not (pending and pending["player"] == player and
                            self.obliged(state, pending)):
            # (a player whose move was rejected may not assign yet: check_orders refuses it)
            groups.append((title, assigns))
        if standing:
            groups.append(("Standing orders (objections; new ones replace all the old)",
                           standing))
        groups.append(("Or", ["pass"]))
        return groups

    def assign_examples(self, state: dict, player: str) -> list[str]:
        """A few assign lines a player might send as they stand: the largest free unit on each
        initiate on the board and the smallest on the first. Two units joined by '+' are left to
        the pattern in the report ("What is asked of you"): the two largest heaped on whichever
        initiate comes first read as a choice nobody made."""
        w = self.world
        values = sorted((w.unit[u].value for u in free_units(state, player, w)), reverse=True)
        board = [i for i in w.initiates if state["pieces"][i.id] is not None]
        if not values or not board:
            return []
        lines = [f"assign {values[0]} to {i.name}" for i in board]
        if values[-1] != values[0]:
            lines.append(f"assign {values[-1]} to {board[0].name}")
        return lines

    def standing_examples(self, state: dict, player: str) -> list[str]:
        """A few standing orders: object with everything to moves of each initiate the player
        has influence on, and to any action that would end the game (in the opening, whose
        assignment comes before any objection, or once the player has influence on an initiate
        on the board: an objection reveals influence on the active initiate, so without any it
        never objects); clearing them when some are in force."""
        w = self.world
        lines = [f"object {i.name} up to all" for i in w.initiates
                 if state["pieces"][i.id] is not None and influence(state, player, i.id, w) > 0]
        if lines or state["phase"] == "opening":
            lines.append("object any ending up to all")
        if state["standing"].get(player):
            lines.append("object none")
        return lines

    # -- turns ------------------------------------------------------------------------------------
    def process(self, state: dict, ctx: TurnContext) -> None:
        state["events"] = []
        for player in state["players"]:
            orders: GralOrders | None = ctx.orders.get(player)
            if orders is None or orders.standing is None:
                continue
            new = [ob.to_json() for ob in orders.standing]
            if new != state["standing"][player]:
                state["standing"][player] = new
                ctx.event(f"Your standing orders now hold {counted(len(new), 'objection line')}."
                          if edition(state) >= 3 else
                          f"Your standing orders now hold {len(new)} objection line(s).",
                          to=[player], kind="standing")
            if edition(state) >= 2 and not orders.has_action:
                # orders of standing orders only have done all they hold: used, not kept
                # pending for the turns after (where earlier editions held them)
                ctx.use_orders(player)
        if state["phase"] == "opening":
            self.rules.opening(state, ctx)
        elif state["phase"] == "round":
            self.rules.round(state, ctx, ctx.options.get("round-limit", 0))

    def finish_turn(self, state: dict, ctx: TurnContext) -> None:
        state["events"] = ctx.events
        state["commitments"] = {p: commitment(salt(ctx.secret, ctx.turn, p), state["sheets"][p])
                                for p in state["players"]}
        state["commit_turn"] = ctx.turn
        if state["phase"] == "over":
            state["salts"] = {str(t): {p: salt(ctx.secret, t, p) for p in state["players"]}
                              for t in range(ctx.turn + 1)}

    def is_over(self, state: dict) -> bool:
        return state["phase"] == "over"

    def awaited(self, state: dict) -> list[str]:
        if state["phase"] == "opening":
            return [p for p in state["players"] if p not in state["opened"]]
        if state["phase"] == "round":
            return [state["next"]] + [p for p in seats_after(state, state["next"])]
        return []

    # -- views ------------------------------------------------------------------------------------
    def view(self, state: dict, viewer: str) -> dict:
        from companion.gral.views import view

        return view(self, state, viewer)

    def report(self, view: dict) -> dict:
        from companion.gral.views import report

        return report(self, view)

    def data_export(self) -> dict:
        w = self.world
        return {
            "board": {"rows": w.rows, "columns": w.columns, "diagonal": w.diagonal,
                      "grail_start": w.field[w.grail_start].name},
            "fields": [{"name": f.name, "short": f.short, "row": f.row, "column": f.column,
                        "adjacent": [w.field[g].name for g in w.adjacent[f.id]],
                        "headquarters": w.order[w.hq_of[f.id]].name if f.id in w.hq_of else None}
                       for f in w.fields],
            "orders": [{"name": o.name, "headquarters": w.field[o.headquarters].name,
                        "symbol": o.symbol, "colour": o.colour} for o in w.orders],
            "initiates": [{"name": i.name, "order": w.order[i.order].name, "size": i.size}
                          for i in w.initiates],
            "units": [{"id": u.id, "bar": u.bar, "value": u.value} for u in w.units],
        }

    def demo_script(self):
        from companion.gral.demo import script

        return script()

    def data_check(self, folder) -> list:
        from companion.errors import DataError, DataErrors

        try:
            load_world(folder)
        except DataErrors as errors:
            return list(errors.errors)
        except DataError as error:
            return [error]
        return []

    def print_kit(self):
        from companion.gral.printables import kit

        return kit()

    disclosure_format = "companion-gral-disclosure"
    """The ``format`` of this kind's own disclosure file (the sealed sheets)."""

    def disclosure(self, game, turns) -> dict:
        from companion.gral.seal import disclosure

        return disclosure(self.world, game, turns)

    def moderator_disclosure(self, game, turns) -> dict:
        """The sheets' disclosure with every salt filled in from the game's secret, so that the
        moderator can check a game that is not over yet."""
        data = self.disclosure(game, turns)
        for entry in data["turns"]:
            if not entry["salts"]:
                entry["salts"] = {p: salt(game.secret_key, entry["turn"], p)
                                  for p in data["players"]}
        return data

    def verify_disclosure(self, data: dict) -> list[str]:
        from companion.gral.seal import verify

        return verify(data)

    def summary(self, state: dict) -> list[str]:
        from companion.gral.views import public_summary

        return public_summary(self, state)


def salt(key: bytes, turn: int, player: str) -> str:
    return keyed_hex(key, f"gral/salt/{turn}/{player}")


def commitment(salt_hex: str, sheet: dict[str, Any]) -> str:
    """SHA-256 over the salt followed by the sheet's canonical JSON (see docs/gral.md)."""
    return sha256_hex(salt_hex + canonical_json(sheet))


KIND = GralKind()
