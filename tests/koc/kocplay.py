"""Engine-only random play of Knights of Camelot (no store, no reports): the states it reaches
feed the position and order property tests."""
from __future__ import annotations

import random

from companion.engine.canon import deep_copy
from companion.engine.chance import Chance, seed_key
from companion.engine.game import TurnContext
from companion.engine.orders import OrdersRejected
from companion.koc.kind import KIND

NAMES = ["Anna", "Bert", "Cora", "Dora", "Emil", "Fritz", "Greta", "Hugo"]   # 1 to 8 knights
OPTIONS = {"missing": "default", "scenario": "basic", "first-player": "fixed", "rules": ()}


def random_lines(rng: random.Random, state: dict, player: str) -> list[str]:
    from tests.koc.engine.test_koc_random_play import random_orders

    return random_orders(rng, KIND.options_for(state, player))


def accepted_orders(rng: random.Random, state: dict, player: str):
    """Random legal orders for ``player`` (lines dropped from the end until accepted)."""
    chosen = random_lines(rng, state, player)
    while chosen:
        text = "\n".join(chosen) + "\n"
        try:
            orders = KIND.parse_orders(state, player, text, "random.txt")
            KIND.check_orders(state, player, orders, "random.txt")
            return orders
        except OrdersRejected:
            chosen = chosen[:-1]
    return None


def new_state(names: list[str], opts: dict, key: bytes, edition: int | None) -> dict:
    """A new game's state under the rules ``edition``: by default the current one, as a new
    game gets it (service.opening); an older one plays as a game begun by an earlier release
    (0: before editions, no stamp)."""
    state = KIND.create(names, opts, Chance(key, 0))
    edition = KIND.edition if edition is None else edition
    if edition:                 # as service.opening stamps a game (absent for edition 0)
        state["edition"] = edition
    return state


def play_states(seed: int, players: int, turns: int, options: dict | None = None,
                edition: int | None = None):
    """Yield the state after creation and after each processed game turn; ``edition``: the
    rules edition the game is played under (by default the current one, as a new game gets;
    0 as a game begun before editions)."""
    opts = dict(OPTIONS, **(options or {}))
    rng = random.Random(seed)
    key = seed_key(str(seed))
    names = NAMES[:players]
    state = new_state(names, opts, key, edition)
    state["events"] = []
    yield state
    for number in range(1, turns + 1):
        if KIND.is_over(state):
            return
        state = deep_copy(state)
        orders = {}
        for p in names:
            parsed = accepted_orders(rng, state, p)
            if parsed is not None:
                orders[p] = parsed
        ctx = TurnContext(turn=number, key=key, chance=Chance(key, number), orders=orders,
                          options=opts)
        KIND.process(state, ctx)
        KIND.finish_turn(state, ctx)
        yield state


# ------------------------------------------------------------------ playing to win
def goal_lines(rng: random.Random, state: dict, player: str) -> list[str]:
    """The goal-seeking random policy of the whole-game tests (docs/koc-scenarios.md):

    * one time in five, random legal orders (as ``random_lines``);
    * otherwise: yield when beaten (never refuse and die), and if a legal line serves the
      goal (``request grail ...``, ``request service of arthur``, challenging the Grail's
      bearer) take one of them at random; but a knight with a task of King Arthur's undone
      rides to it first ('go to ...'), as the King hears no request before it is done; else
      a knight not yet in King Arthur's service in a Round Table or Campaign game, or in a
      Campaign not yet allowed to seek the Grail, rides for Camelot Castle, and any other
      knight sends no move, so the engine's own default plan
      takes him towards the Grail.
    Encounters are met, not avoided (avoiding costs an Arthurian knight VP). (The legal lines
    no longer offer 'request service of arthur' to a knight who serves him already (w16):
    that line had kept an Arthurian knight idle at Camelot Castle.)"""
    lines = KIND.options_for(state, player)
    if rng.random() < 0.2:
        from tests.koc.engine.test_koc_random_play import random_orders

        return random_orders(rng, lines)
    out = ["on yield: yes"]
    goal = [x for x in lines if x.startswith(("request grail", "request service of arthur",
                                              "challenge "))]
    from companion.koc.engine import grail

    pk = state["knights"][player]
    owed = {f"go to {t['dest']}" for t in pk["tasks"]
            if t["status"] == "active" and t["kind"] == "arthur_task" and t.get("dest")}
    owed = [x for x in lines if x in owed]
    if owed:
        out.append(owed[0])
    elif goal:
        out.append(rng.choice(goal))
    elif state["koc"]["scenario"] != "grail" and not grail.on_quest(state, pk):
        out.append("go to Camelot Castle")
    return out


def play_to_the_end(seed: int, players: int, turns: int, options: dict,
                    edition: int | None = None):
    """Play with :func:`goal_lines` until the game is over or ``turns`` game turns are played,
    under the rules ``edition`` (by default the current one); the last state."""
    opts = dict(OPTIONS, **options)
    rng = random.Random(seed)
    key = seed_key(str(seed))
    names = NAMES[:players]
    state = new_state(names, opts, key, edition)
    for number in range(1, turns + 1):
        if KIND.is_over(state):
            break
        orders = {}
        for p in names:
            chosen = goal_lines(rng, state, p)
            while chosen:
                try:
                    parsed = KIND.parse_orders(state, p, "\n".join(chosen) + "\n", "goal.txt")
                    KIND.check_orders(state, p, parsed, "goal.txt")
                    orders[p] = parsed
                    break
                except OrdersRejected:
                    chosen = chosen[:-1]
        ctx = TurnContext(turn=number, key=key, chance=Chance(key, number), orders=orders,
                          options=opts)
        KIND.process(state, ctx)
        KIND.finish_turn(state, ctx)
    return state
