"""Monty Python Fluxx as a game kind of the shared engine.

Play by email: one processed turn is one player's turn (see :mod:`companion.fluxx.rules`).
The state holds:

* ``game``: the position (draw and discard piles, hands, cards in front of players, rules,
  goals, whose turn, counters of the turn);
* ``standing``: each player's standing orders (``keep`` list, ``quote``);
* ``pending``: when a turn is paused, the position at its start, the answers and chance outcomes
  so far, each player's unused order lines, and the question asked;
* ``events``: what happened in the last processed turn, each with who may see it.
"""
from __future__ import annotations

import copy
from functools import cached_property
from typing import Any, Sequence

from companion.engine.canon import deep_copy
from companion.engine.chance import Chance
from companion.engine.game import COMMON_OPTIONS, GameKind, OptionSpec, TurnContext, edition
from companion.engine.names import match_name
from companion.engine.numbers import is_digits
from companion.engine.orders import OrderError, OrdersRejected
from companion.errors import CompanionError
from companion.fluxx import orders as grammar
from companion.fluxx.cards import Deck, default_deck
from companion.fluxx.orders import FluxxOrders, illegal, line_text
from companion.fluxx.rules import Pause, Run, _and, card_list, end_stop, new_game_state


def restyle(deck: Deck, text: str, cards: list[str] | None) -> str:
    """A setup event written before the game's rules edition was known, as rules edition 4
    words it: its list of cards set off by semicolons where a name holds a comma, and no full
    stop after a name ending in ! or ?."""
    if cards:
        items = [deck.name(c) for c in cards]
        text = text.replace(_and(items), card_list(items), 1)
    return end_stop(text)


def _first(value: str, players: Sequence[str]) -> str:
    if value.lower() == "random":
        return "random"
    found = match_name(value, players)
    if not found.ok:
        raise ValueError(f"'{value}' is not a player of this game (players: {', '.join(players)})")
    return found.name


def _waiting(value: str, players: Sequence[str]) -> list[str]:
    if value.strip().lower() in ("", "none"):
        return []
    out = []
    for typed in value.split(","):
        found = match_name(typed.strip(), players)
        if not found.ok:
            raise ValueError(f"'{typed.strip()}' is not a player of this game "
                             f"(players: {', '.join(players)})")
        if found.name not in out:
            out.append(found.name)
    if len(players) - len(out) < 2:
        raise ValueError("at least two players must be seated at the start")
    return out


def _limit(value: str, players: Sequence[str]) -> int:
    if not is_digits(value):
        raise ValueError(f"'{value}' is not a whole number (0 means no limit)")
    return int(value)


class FluxxKind(GameKind):
    edition = 5     # 1: "the Keeper"/"the Goals ... are" agree with how many; 2: a short
    # name means the one card before the player it fits ('grail': The Holy Grail in hand);
    # 3: "The New Rule ... is discarded" and "the discard pile (1 card)" for a single card;
    # Exchange Keepers with nothing to exchange names the player in its public line, not "you"
    # 4: a list of card names holding a comma sets them off by semicolons (rules.card_list); no
    # full stop after a name ending in ! or ? (rules.end_stop, the keep-list line); a card played
    # from Draw 2 and Use 'em / Draw 3, Play 2 is named first (Run.play_card `via`); the
    # report's hand line agrees with its count and the discard pile's top uses semicolons
    # (views.report)
    # 5: a card's whole name means that card, though it ends the name of a card before the
    # player ('choosing A Shrubbery' with You Must Bring Us a Shrubbery on the table;
    # orders.Parser whole_name); "The turn limit (1 turn) is reached", was "(1 turns)"; a
    # player who joined in a turn that then paused joins again when it resumes (process)
    option_specs = COMMON_OPTIONS + (
        OptionSpec("others", "decisions of players whose turn it is not (discarding to a limit, "
                   "losing a Keeper) that their standing 'keep' orders do not settle: 'default' "
                   "takes the documented default at once; 'wait' pauses the game and asks them",
                   "default", ("default", "wait")),
        OptionSpec("first", "who takes the first turn: a player's name, or 'random' (a draw "
                   "recorded in the game's history)", "random", parse=_first),
        OptionSpec("social", "the singing, accent and quote cards: 'trust' (any line written in "
                   "the orders counts), 'judge' (the moderator marks each line 'judged ok' or "
                   "'judged no' before submitting the orders) or 'off' (they never pay)",
                   "trust", ("trust", "judge", "off")),
        OptionSpec("waiting", "players who join later, comma-separated (they join by sending "
                   "'join'), or 'none'", "none", parse=_waiting),
        OptionSpec("turn-limit", "end the game without a winner after this many turns (0: no "
                   "limit; a house rule for games that stall)", "0", parse=_limit),
    )

    @cached_property
    def deck(self) -> Deck:
        return default_deck()

    # -- creation and positions -------------------------------------------------------------------
    def create(self, players: list[str], options: dict[str, Any], chance: Chance) -> dict:
        waiting = list(options.get("waiting") or [])
        seated = [p for p in players if p not in waiting]
        if len(seated) < 2:
            raise CompanionError("at least two players must be seated at the start")
        first = options.get("first", "random")
        if first == "random":
            first = seated[chance.choice(len(seated), "first player")]
        elif first in waiting:
            raise CompanionError(f"{first} is waiting to join and cannot go first")
        g = new_game_state(self.deck, players, waiting)
        standing = {p: {"keep": None, "quote": None} for p in players}
        run = Run(self.deck, g, players, standing, options, chance)
        run.setup(first)
        return {"kind": "fluxx", "players": list(players), "game": g, "standing": standing,
                "pending": None, "events": [], "setup_events": run.events}

    def read_position(self, text: str, filename: str, options: dict[str, Any]) -> dict:
        from companion.fluxx.position import read_position

        read = read_position(self.deck, text, filename, options)
        players = list(read["game"]["hands"])
        return {"kind": "fluxx", "players": players, "game": read["game"],
                "standing": read["standing"], "pending": None, "events": []}

    def setup_players(self, text: str) -> list[str]:
        from companion.fluxx.position import setup_players

        return setup_players(text)

    def write_position(self, state: dict, viewer: str = "moderator") -> str:
        from companion.fluxx.position import write_position

        return write_position(self.deck, state, viewer)

    # -- orders -----------------------------------------------------------------------------------
    def parse_orders(self, state: dict, player: str, text: str, filename: str) -> FluxxOrders:
        g = state["game"]
        seen = list(g["hands"].get(player, [])) + list(g["rules"]) + list(g["goals"])
        for cards in g["table"].values():
            seen += cards
        names = frozenset(self.deck[c].name for c in seen)
        return grammar.parse_orders(self.deck, state["players"], text, filename, names,
                                    before_you=edition(state) >= 2,
                                    whole_name=edition(state) >= 5)

    def check_orders(self, state: dict, player: str, orders: FluxxOrders, filename: str) -> None:
        errors: list[OrderError] = []
        g = state["game"]
        if g["stage"] == "over":
            if orders.src:      # (lines that did not parse are refused already)
                raise OrdersRejected([illegal(orders.src[0], "the game is over; no more orders "
                                              "are taken")], filename)
            return
        waiting = player in g["waiting"]
        played: set[str] = set()
        used: dict[str, int] = {}
        for entry, line in zip(orders.lines, orders.src):
            kind = entry["kind"]
            if waiting and kind not in ("join", "keep", "quote"):
                errors.append(illegal(line, "you have not joined the game yet: send 'join' first "
                                      "(with 'keep' or 'quote' lines if you like)"))
                continue
            if kind == "join" and not waiting:
                errors.append(illegal(line, "you are already playing"))
                continue
            if kind in ("play", "use"):
                card = self.deck[entry["card"]]
                for key in entry["clauses"]:
                    if key not in card.clauses:
                        allowed = ", ".join(f"'{c}'" for c in card.clauses)
                        errors.append(illegal(line, f"{card.name} takes no '{key}' choice",
                                              f"its choices: {allowed}" if allowed else
                                              f"{card.name} needs no choices"))
                        break
                else:
                    problem = _clause_pairs(entry["clauses"]) or \
                        _impossible_choice(self.deck, card, kind, entry["clauses"], player)
                    if problem:
                        errors.append(illegal(line, *problem) if isinstance(problem, tuple)
                                      else illegal(line, problem))
                        continue
                    if kind == "play":
                        if card.id in played:
                            errors.append(illegal(line, f"{card.name} is played twice in these "
                                                  "orders"))
                        played.add(card.id)
                    else:
                        used[card.id] = used.get(card.id, 0) + 1
                        limit = card.free.get("per_turn") or (1 if card.free.get("cost") else 0)
                        if limit and used[card.id] > limit:
                            errors.append(illegal(line, f"{card.name} can be used only "
                                                  f"{'once' if limit == 1 else f'{limit} times'} "
                                                  "in a turn"))
                    if "quoting" in entry["clauses"]:
                        errors.extend(self._verdict(state, line, entry))
            elif kind == "answer":
                problem = _clause_pairs(entry["clauses"])
                if problem:
                    errors.append(illegal(line, problem))
                elif "quoting" in entry["clauses"]:
                    errors.extend(self._verdict(state, line, entry))
            elif kind in ("claim", "quote"):
                errors.extend(self._verdict(state, line, entry))
        if errors:
            raise OrdersRejected(errors, filename)

    def _verdict(self, state: dict, line, entry: dict) -> list[OrderError]:
        social = state.get("social", "trust")
        if social == "off":
            return [illegal(line, "this game plays without the social cards' bonuses "
                            "(option social=off)")]
        words = entry.get("words") if entry["kind"] in ("claim", "quote") else \
            (entry.get("clauses") or {}).get("quoting")
        if words is not None and grammar.is_placeholder(words):
            what = "quoting" if entry["kind"] in ("play", "answer") else entry["what"]
            return [illegal(line, f'"{grammar.PLACEHOLDER}" after \'{what}\' only marks where '
                            "your own line goes; it is not a line and would count for nothing",
                            "write a line of your own between the double quotes in its place")]
        if social == "judge" and entry.get("judged") not in ("ok", "no"):
            return [illegal(line, "in this game the moderator judges every performance",
                            "the moderator adds 'judged ok' or 'judged no' at the end of the "
                            "line before submitting")]
        return []

    def acknowledge(self, state: dict, player: str, orders: FluxxOrders) -> list[str]:
        g = state["game"]
        out = []
        hand = set(g["hands"].get(player, []))
        table = set(g["table"].get(player, []))
        for entry in orders.lines:
            text = line_text(self.deck, entry)
            kind = entry["kind"]
            if kind == "play" and entry["card"] not in hand:
                text += " (not in your hand now: played if you get it in time)"
            elif kind == "use" and entry["card"] not in table and entry["card"] not in g["rules"]:
                text += " (not in play now: used only if it is by then)"
            elif kind == "answer":
                text = f"if a card asks: {text}"
            elif kind == "keep":
                text += " (standing: replaces your earlier keep list)"
            elif kind == "quote":
                text += " (standing: your answer when What Is Your Quote? is played)"
            elif kind == "claim" and not any(
                    (self.deck[r].bonus or {}).get("when") == entry["what"] for r in g["rules"]):
                text += (f" (no rule in play now gives a bonus for it: it counts only if one "
                         "does by the time it is reached)")
            elif kind == "ask":
                text = "ask: pause and ask me when my orders do not settle a choice"
            elif kind == "join":
                text = "join the game at the end of the current turn"
            out.append(text)
        if not orders.lines:
            out.append("no orders")
        return out

    def options_for(self, state: dict, player: str) -> list[str]:
        return [line for _, lines in self.option_groups(state, player) for line in lines]

    def option_groups(self, state: dict, player: str) -> list[tuple[str, list[str]]]:
        from companion.fluxx.views import option_groups

        return option_groups(self, state, player)

    # -- turns ------------------------------------------------------------------------------------
    def process(self, state: dict, ctx: TurnContext) -> None:
        state["events"] = []
        g = state["game"]
        if g["stage"] == "over":
            return
        orders: dict[str, FluxxOrders] = ctx.orders
        # standing orders first: they settle decisions in this very turn
        for p in state["players"]:
            o = orders.get(p)
            if o is None:
                continue
            mine = state["standing"][p]
            if o.keep is not None and o.keep != mine.get("keep"):
                mine["keep"] = o.keep
                listed = "; ".join(self.deck.name(c) for c in o.keep) or "none"
                ctx.event(f"Your keep list is now: {listed}" +
                          ("" if edition(state) >= 4 and listed.endswith(("!", "?")) else "."),
                          to=[p], kind="standing")
            if o.quote is not None and o.quote != mine.get("quote"):
                mine["quote"] = o.quote
                ctx.event(f'Your quote is ready: "{o.quote["words"]}".', to=[p], kind="standing")
        pending = state.get("pending")
        asked = pending["question"]["player"] if pending else None
        active = g["active"]
        cursors = copy.deepcopy(pending["cursors"]) if pending else {}
        joiners = []
        for p in state["players"]:
            o = orders.get(p)
            if o is None:
                continue
            if p in g["waiting"]:
                if o.joins:
                    joiners.append(p)
                else:
                    ctx.use_orders(p)
                continue
            if p == active or p == asked:
                gen = cursors.get(p, {}).get("gen", 0) + 1
                lines = copy.deepcopy(o.lines)
                cursors[p] = {"gen": gen, "lines": lines, "used": [False] * len(lines), "ptr": 0,
                              "ask": any(e["kind"] == "ask" for e in lines)}
                ctx.use_orders(p)
            elif o.standing_only:
                ctx.use_orders(p)
        if pending and edition(state) >= 5:
            # rules edition 5: players who joined in the paused run (seated in the stored game,
            # waiting in the snapshot the turn is run again from) join again
            joiners += [p for p in state["players"] if p in pending["snapshot"]["waiting"]
                        and p not in g["waiting"] and p not in joiners]
        snapshot = deep_copy(pending["snapshot"] if pending else g)
        base = deep_copy(snapshot)
        run = Run(self.deck, base, state["players"], state["standing"], dict(ctx.options),
                  ctx.chance, log=pending["log"] if pending else None,
                  chance_log=pending["chance"] if pending else None, cursors=cursors,
                  joiners=joiners, edition=edition(state))
        done = pending["events_done"] if pending else 0
        try:
            run.play_turn()
            state["pending"] = None
            for p in run.joined:
                ctx.use_orders(p)
        except Pause as pause:
            state["pending"] = {"snapshot": snapshot, "log": run.log, "chance": run.chance_log,
                                "events_done": len(run.events), "cursors": run.cursors,
                                "question": pause.question}
            ctx.await_orders(pause.question["player"])
        state["game"] = run.g
        for e in run.events[done:]:
            ctx.event(e["text"], to=e["to"], kind=e["kind"], **e["data"])
        if pending and len(run.events) < done:
            raise RuntimeError("resuming a paused turn produced fewer events than before")
        for player, kind, answer, source in run.fresh:
            ctx.decided(player, kind, answer, source)

    def finish_turn(self, state: dict, ctx: TurnContext) -> None:
        for e in state.pop("setup_events", []):
            text = e["text"]
            if edition(state) >= 4:     # create() runs before the edition is known: restyle
                text = restyle(self.deck, text, e["data"].get("cards"))
            ctx.event(text, to=e["to"], kind=e["kind"], **e["data"])
        state["social"] = ctx.options.get("social", "trust")
        state["events"] = ctx.events

    def is_over(self, state: dict) -> bool:
        return state["game"]["stage"] == "over"

    def progress(self, state: dict) -> str | None:
        """Whose turn of the game's own count: 'Bert's turn 2' (paused while an answer is
        awaited)."""
        g = state["game"]
        if g["stage"] == "over":
            return None
        return f"{g['active']}'s turn {g['turn']}" + (", paused" if state.get("pending") else "")

    def awaited(self, state: dict) -> list[str]:
        g = state["game"]
        if g["stage"] == "over":
            return []
        if state.get("pending"):
            return [state["pending"]["question"]["player"]]
        return [g["active"]]

    # -- views ------------------------------------------------------------------------------------
    def view(self, state: dict, viewer: str) -> dict:
        from companion.fluxx.views import view

        return view(self, state, viewer)

    def report(self, view: dict) -> dict:
        from companion.fluxx.views import report

        return report(self, view)

    def summary(self, state: dict) -> list[str]:
        return [e["text"] for e in state["events"] if e["to"] == "public"]

    # -- data and printables ----------------------------------------------------------------------
    def data_export(self) -> dict:
        return export(self.deck)

    def data_check(self, folder) -> list:
        from companion.fluxx.cards import check_data_dir

        return check_data_dir(folder)

    def print_kit(self):
        from companion.fluxx.printables import kit

        return kit(self.deck)


def _impossible_choice(deck: Deck, card, kind: str, clauses: dict[str, Any],
                       player: str) -> tuple[str, str] | None:
    """A choice that can never work for ``card``, whatever happens before it is used: a card of
    the wrong type to discard ('use The Finger of God on Sir Robin') or to take back from the
    discard pile, trading hands with yourself, Excalibur moving your own Creeper to you.
    (message, hint) or None."""
    ops = [card.free] if kind == "use" and card.free else list(card.do or ()) \
        if kind == "play" else []
    for op in ops:
        name = op.get("op")
        target = clauses.get("on")
        if name == "trash" and target and op.get("what", "any") != "any":
            hit = deck[target]
            if hit.type != op["what"]:
                word = grammar.TYPE_WORD
                return (f"{hit.name} is a {word[hit.type]}, and {card.name} discards only a "
                        f"{word[op['what']]}", f"name a {word[op['what']]} in play after 'on'")
        chosen = clauses.get("choosing")
        if name == "rescue" and chosen and deck[chosen].type != "keeper":
            hit = deck[chosen]
            return (f"{hit.name} is a {grammar.TYPE_WORD[hit.type]}, and {card.name} takes "
                    "back only a Keeper", "name a Keeper in the discard pile after 'choosing'")
        types = tuple(op.get("types") or ())
        if name == "replay" and chosen and types and deck[chosen].type not in types:
            hit = deck[chosen]
            wanted = " or ".join(("an " if grammar.TYPE_WORD[t][0] in "AEIOU" else "a ")
                                 + grammar.TYPE_WORD[t] for t in types)
            return (f"{hit.name} is a {grammar.TYPE_WORD[hit.type]}, and {card.name} plays "
                    f"again only {wanted}", "name such a card in the discard pile after "
                    "'choosing'")
        if name == "trade_hands" and clauses.get("with") == player:
            return (f"{card.name} trades your hand with another player's, not with your own",
                    "name another player after 'with'")
        if name == "move_creeper" and op.get("from") == "self" and clauses.get("to") == player:
            return (f"{card.name} moves your Creeper to another player, not to you",
                    "name another player after 'to'")
    return None


def _clause_pairs(clauses: dict[str, Any]) -> str | None:
    if "to" in clauses and "moving" not in clauses:
        return "'to <player>' belongs to 'moving <creeper>'"
    if "for" in clauses and "giving" not in clauses:
        return "'for <keeper>' belongs to 'giving <keeper>'"
    return None


def export(deck: Deck) -> dict[str, Any]:
    cards = [{"id": deck.basic.id, "name": deck.basic.name, "type": "basic",
              "text": deck.basic.text, "draw": deck.basic.set["draw"],
              "play": deck.basic.set["play"]}]
    for c in deck.cards:
        entry: dict[str, Any] = {"id": c.id, "name": c.name, "type": c.type, "text": c.text}
        if c.flavour:
            entry["flavour"] = c.flavour
        if c.tags:
            entry["tags"] = list(c.tags)
        if c.free:
            entry["free"] = dict(c.free)
        if c.set:
            entry["set"] = dict(c.set)
        if c.bonus:
            entry["bonus"] = dict(c.bonus)
        if c.do:
            entry["do"] = [dict(op) for op in c.do]
        if c.goal:
            goal = {}
            if "have" in c.goal:
                goal["have"] = [[deck.name(a) for a in item] if isinstance(item, list)
                                else deck.name(item) for item in c.goal["have"]]
            if "count" in c.goal:
                goal["count"] = dict(c.goal["count"])
            if "another_has" in c.goal:
                goal["another_has"] = [deck.name(a) for a in c.goal["another_has"]]
            if c.goal.get("nothing"):
                goal["nothing"] = True
            entry["goal"] = goal
        if c.clauses:
            entry["choices"] = list(c.clauses)
        cards.append(entry)
    counts: dict[str, int] = {}
    for c in deck.cards:
        counts[c.type] = counts.get(c.type, 0) + 1
    return {"game": "fluxx", "deck_size": len(deck.cards), "counts": counts,
            "tags": {t.id: {"name": t.name, "plural": t.plural} for t in deck.tags.values()},
            "cards": cards}


KIND = FluxxKind()
