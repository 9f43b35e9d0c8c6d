"""Setting up a game and processing game turns (one game turn per processed PBEM turn)."""
from __future__ import annotations

import copy
from typing import Any

from companion.engine.canon import deep_copy
from companion.engine.game import TurnContext
from companion.engine.numbers import is_digits
from companion.koc.engine import knight as kn
from companion.koc.engine.session import Pause, Session

# the rulebook's scenarios (their terms: companion/koc/data/scenarios/, companion/koc/scenarios.py)
SCENARIOS = ("basic", "advanced", "grail", "campaign")
DECKS = ("knights", "kings", "ladies")


class Game:
    """Everything the rules may use while a turn is processed."""

    def __init__(self, world, state: dict, ctx: TurnContext, orders: dict[str, Any]):
        self.world = world
        self.state = state
        self.ctx = ctx
        self.chance = ctx.chance
        self.orders = dict(orders)       # a resumed turn swaps in the orders it started with
        self.options = ctx.options
        self.wait_for_orders = ctx.wait_for_orders
        self.frozen: set[str] | None = None  # a resumed turn: whose party orders it may use
        self.consulted: set[str] = set()     # whose join/leave orders this player turn read

    # -- decks and cups ---------------------------------------------------------------------
    def draw(self, deck: str, purpose: str, accept=None) -> dict:
        """Draw the top card of a deck (Knights, Kings, Ladies); ``accept(card)`` may reject
        cards (they go to the discards, as when the rules say 'redraw until ...')."""
        pile = self.state["decks"][deck]
        cards = self._cards(deck)
        for _ in range(len(cards) + 1):
            if not pile["draw"]:
                self._reshuffle(deck, purpose)
                if not pile["draw"]:
                    break
            name = pile["draw"].pop(0)
            card = cards[name]
            if accept is None or accept(card):
                return self.card_record(deck, card)
            pile["discard"].append(name)
            if deck != "knights":
                self._reshuffle(deck, purpose)
        raise RuntimeError(f"no card in the {deck} deck fits ({purpose})")

    def return_strays(self) -> None:
        """At the end of a game turn, the Knight, King and Lady cards that are in no pile and
        that nobody holds go back to their decks: the knights who held a castle against an
        assault or fought for a jailor, a jailor whose prisoner went free. A card counts as
        held while the state names it anywhere but in the events and in what a knight merely
        remembers (whom he challenged, his declared enemies), so a card somebody may hold is
        never returned."""
        named = referenced_names(self.state)
        for deck in ("knights", "kings", "ladies"):
            pile = self.state["decks"][deck]
            placed = set(pile["draw"]) | set(pile["discard"]) | set(pile["removed"]) | named
            for name in self._cards(deck):
                if name not in placed:
                    self.discard(deck, name)

    def card_record(self, deck: str, card) -> dict:
        kind = {"knights": "knight", "kings": "king", "ladies": "lady"}[deck]
        record = {"kind": kind, "name": card.name, "vl": card.virtue_level,
                  "cp": getattr(card, "chivalry_points", None)}
        if kind == "knight":
            record["arthurian"] = card.arthurian
        if kind == "king":
            record["kingdom"] = card.kingdom
        if kind == "lady":
            record.update({"service_award": card.service_award,
                           "seduction": card.seduction_adjustment,
                           "enchantress": card.enchantress, "castle": card.home_castle})
        return record

    def discard(self, deck: str, name: str) -> None:
        """A card leaves play (not slain): Kings and Ladies are shuffled back at once."""
        if name not in self._cards(deck):
            raise ValueError(f"{name!r} is not a card of the {deck} deck")
        pile = self.state["decks"][deck]
        if name in pile["removed"] or name in pile["draw"] or name in pile["discard"]:
            return
        pile["discard"].append(name)
        if deck != "knights" or len(pile["discard"]) >= len(pile["draw"]):
            self._reshuffle(deck, f"reshuffle {deck}")

    def discard_card(self, record: dict) -> None:
        """A person's card leaves play: to the deck of his kind (King, Lady, else Knight)."""
        deck = {"king": "kings", "lady": "ladies"}.get(record.get("kind"), "knights")
        self.discard(deck, record["name"])

    def remove(self, deck: str, name: str) -> None:
        """A slain King, Knight or Lady leaves the game."""
        pile = self.state["decks"][deck]
        for where in ("draw", "discard"):
            if name in pile[where]:
                pile[where].remove(name)
        if name not in pile["removed"]:
            pile["removed"].append(name)

    def _reshuffle(self, deck: str, purpose: str) -> None:
        pile = self.state["decks"][deck]
        if pile["discard"]:
            pile["draw"] = self.chance.shuffle(pile["draw"] + pile["discard"],
                                               f"reshuffle the {deck} deck")
            pile["discard"] = []

    def _cards(self, deck: str) -> dict:
        source = {"knights": self.world.knights, "kings": self.world.kings,
                  "ladies": self.world.ladies}[deck]
        return {c.name: c for c in source}

    def draw_chit(self, kind: str, purpose: str) -> dict:
        """A chit drawn at random from its cup (animals, monsters, brigands, ships); chits in
        play elsewhere (a Mascot) stay out of the cup."""
        stacked = self.state.get("draws", {}).get(kind)
        if stacked:
            name, _, wl = stacked.pop(0).rpartition(" ")
            if not is_digits(wl):
                name, wl = f"{name} {wl}".strip(), ""
            for chit in self.world.chits:
                if chit.kind == kind and chit.name == name and (
                        not wl or int(wl) in (chit.wound_level, chit.crew)):
                    return {"kind": kind, "name": chit.name,
                            "wl": chit.wound_level if chit.wound_level is not None else chit.crew,
                            "dice": self.world.chit_kinds[kind].attack_dice}
        cup = []
        for chit in self.world.chits:
            if chit.kind == kind and not chit.optional:
                cup.extend([chit] * chit.count)
        busy = self.state.get("chits_out", {}).get(kind, [])
        free = list(cup)
        for name_wl in busy:
            for i, c in enumerate(free):
                if [c.name, c.wound_level or c.crew] == name_wl:
                    del free[i]
                    break
        pool = free or cup
        chit = pool[self.chance.choice(len(pool), purpose)]
        return {"kind": kind, "name": chit.name,
                "wl": chit.wound_level if chit.wound_level is not None else chit.crew,
                "dice": self.world.chit_kinds[kind].attack_dice}


# ------------------------------------------------------------------------------ set-up
def new_state(world, players: list[str], options: dict, chance) -> dict:
    from companion.koc import scenarios

    terms = scenarios.terms_of(options)
    scenario = terms["key"]
    state: dict[str, Any] = {
        "kind": "koc",
        "koc": {"scenario": scenario, "turn": 1, "order": list(players), "current": 0,
                "first": None, "over": False, "winner": None},
        "decks": {},
        "knights": {},
        "merlin": {"area": None, "who": None},
        "pending": {},
        "events": [],
    }
    for deck, cards in (("knights", world.knights), ("kings", world.kings),
                        ("ladies", world.ladies)):
        names = [c.name for c in cards]
        state["decks"][deck] = {"draw": chance.shuffle(names, f"shuffle the {deck} deck"),
                                "discard": [], "removed": []}
    if isinstance(options.get("scenario"), dict):
        state["koc"]["terms"] = dict(terms)       # a designed scenario: its terms kept
    for player in players:
        state["knights"][player] = starting_knight(player, player, terms)
        if player in options.get("knaves", ()):         # KNAVES: the game option
            from companion.koc.engine.knaves import new_record

            state["knights"][player]["knave"] = new_record(1)
    state["koc"]["order"] = seat_order(players, chance)
    state["koc"]["first"] = state["koc"]["order"][0]
    return state


def starting_knight(player: str, name: str, terms: dict) -> dict:
    """A new knight with the scenario's starting values and equipment."""
    record = kn.new_knight(player, name, terms["cp"], terms["vp"], arthurian=terms["arthurian"])
    record["gear"] = {g: g in terms["equipment"] for g in kn.GEAR}
    return record


def seat_order(players: list[str], chance) -> list[str]:
    """Everybody rolls three dice; the highest begins (ties roll again); play goes round the
    table (the order the players were listed in) from there."""
    contenders = list(players)
    while len(contenders) > 1:
        totals = {p: sum(chance.roll(6, f"starting player: {p}") for _ in range(3))
                  for p in contenders}
        best = max(totals.values())
        contenders = [p for p in contenders if totals[p] == best]
    first = contenders[0]
    i = players.index(first)
    return players[i:] + players[:i]


MEMORIES = frozenset({"challenged", "enemies"})
"""A knight's lists of persons he remembers (not holds): their cards may be in the decks."""


def referenced_names(state: dict) -> set[str]:
    """Every text the state holds (keys and values), but for the events, the decks and the
    knights' memories (MEMORIES)."""
    found: set[str] = set()
    stack: list = [v for k, v in state.items() if k not in ("events", "decks")]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            for k, v in item.items():
                if k in MEMORIES:
                    continue
                found.add(k)
                stack.append(v)
        elif isinstance(item, list):
            stack.extend(item)
        elif isinstance(item, str):
            found.add(item)
    return found


# ------------------------------------------------------------------------------ processing
def process(world, state: dict, ctx: TurnContext) -> None:
    """Adjudicate the rest of the current game turn, as far as the orders allow."""
    from companion.koc.engine.turn import end_of_game_turn, player_turn

    state["events"] = []
    game = Game(world, state, ctx, ctx.orders)
    for player, orders in ctx.orders.items():
        if orders is not None and orders.standing is not None:
            state["knights"][player]["standing"] = [dict(line) for line in orders.standing]
    koc = state["koc"]
    order = koc["order"]
    while not koc["over"] and koc["current"] < len(order):
        player = order[koc["current"]]
        if needs_orders(game, player):
            # missing=wait: a player turn nobody sent orders for waits for them
            game.ctx.event(f"{player}'s turn waits for orders.", kind="koc")
            game.ctx.await_orders(player)
            return
        if not run_player_turn(game, player):
            return
        koc["current"] += 1
    if not koc["over"]:
        end_of_game_turn(game)
        game.return_strays()


def needs_orders(game: Game, player: str) -> bool:
    """Whether this player turn waits for the player's orders: only with missing=wait, when
    none came for it, it is not a paused turn (that one waits for its answer), and the knight
    plays a turn of his own (not slain, not riding in another knight's party)."""
    from companion.koc.engine.party import leader_of

    state = game.state
    if not game.wait_for_orders or game.orders.get(player) is not None \
            or player in state["pending"] or state["knights"][player]["slain"]:
        return False
    return leader_of(state, player) in (None, player)


def run_player_turn(game: Game, player: str) -> bool:
    """One player turn, resumable: False if it now waits for the player's answer."""
    from companion.koc.engine.turn import player_turn

    state = game.state
    snapshot = deep_copy(state)
    pending = state["pending"].pop(player, None)
    if game.orders.get(player) is not None:
        game.ctx.use_orders(player)
    if pending:
        # the part of the turn already played stays as it was: the same dice, the same
        # answers and the same orders (moves, requests, prayers); new orders add answers only
        game.chance.resume(pending["dice"])
        game.orders[player] = resumed_orders(pending.get("orders"), game.orders.get(player))
        for other, kept in pending.get("others", {}).items():
            # the orders of fellow travellers and joiners the turn had used
            game.orders[other] = resumed_orders(kept, game.orders.get(other))
        # a join or leave sent by anybody else while it waited is for a later player turn
        game.frozen = {player, *pending.get("others", {})}
    game.consulted = set()
    mark = game.chance.mark()
    events_mark = len(game.ctx.events)
    decisions_mark = len(game.ctx.decisions)
    session = Session(game, player, prior=pending["answers"] if pending else (),
                      resumed=bool(pending))
    try:
        player_turn(session)
    except Pause as pause:
        provisional = [e["text"] for e in game.ctx.events[events_mark:]
                       if e["to"] == "public" or player in e["to"]]
        del game.ctx.events[events_mark:]
        del game.ctx.decisions[decisions_mark:]
        # the dice drawn before the question; none drawn while the pause unwound (a tidying
        # 'finally' that discarded cards and reshuffled a deck, seed 32973): the turn played
        # again draws those where it really comes to them
        dice = game.chance.since(mark)[:None if pause.drawn is None else pause.drawn - mark]
        from companion.koc.engine.party import involved

        # the orders of others this turn used; a turn resumed before uses no others than then
        used = set(involved(game, player, snapshot)) | game.consulted
        if game.frozen is not None:
            used &= game.frozen
        others = {p: orders_record(game.orders.get(p)) for p in sorted(used)
                  if p != player and game.orders.get(p) is not None}
        state.clear()
        state.update(snapshot)
        q = pause.question
        state["pending"][player] = {
            "answers": session.answers, "dice": dice,
            "orders": orders_record(game.orders.get(player)),
            "others": others,
            "question": {"key": q.key, "prompt": q.prompt, "options": q.options,
                         "default": q.default, "tags": list(q.tags), "values": q.values},
            "events": provisional,
        }
        game.ctx.event(f"{player}'s turn waits for an answer.", kind="koc")
        game.ctx.await_orders(player)
        return False
    finally:
        game.chance.resume(())
        game.frozen = None
    if game.orders.get(player) is None and not state["knights"][player]["slain"]:
        # missing=default: a turn played without orders took the documented defaults (the
        # move towards his first obligation, or staying; every question's default): that is
        # a decision of this turn, so the turn counts as adjudicated
        game.ctx.decided(player, "orders", "none: the defaults", "default")
    return True


def orders_record(orders) -> dict | None:
    """What of a player's orders a paused turn keeps (JSON)."""
    if orders is None:
        return None
    def plain(items: list[dict]) -> list[dict]:      # without the parsed source lines
        return [{k: copy.deepcopy(v) for k, v in item.items() if k != "src"} for item in items]

    return {"plan": plain(orders.plan), "requests": plain(orders.requests),
            "prayers": plain(orders.prayers), "answers": plain(orders.answers),
            "join": orders.join, "leave": orders.leave, "leave_guard": orders.leave_guard,
            "adventures": plain(getattr(orders, "adventure_orders", []))}


def resumed_orders(kept: dict | None, new):
    """The orders a resumed turn runs on: the moves, requests and prayers it started with, and
    the answers of the new orders before the old ones."""
    from companion.koc.orders import KocOrders

    kept = kept or {"plan": [], "requests": [], "prayers": [], "answers": []}
    answers = (list(new.answers) if new is not None else []) + list(kept["answers"])
    return KocOrders(plan=copy.deepcopy(kept["plan"]), requests=copy.deepcopy(kept["requests"]),
                     prayers=copy.deepcopy(kept["prayers"]), answers=answers,
                     standing=new.standing if new is not None else None,
                     join=kept.get("join"), leave=kept.get("leave", False),
                     leave_guard=kept.get("leave_guard", False),
                     adventure_orders=copy.deepcopy(kept.get("adventures", [])))
