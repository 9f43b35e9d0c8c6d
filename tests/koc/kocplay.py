"""Engine-only random play of Knights of Camelot (no store, no reports): the states it reaches
feed the position and order property tests."""
from __future__ import annotations

import copy
import random

from companion.engine.chance import Chance, seed_key
from companion.engine.game import TurnContext
from companion.engine.orders import OrdersRejected
from companion.koc.kind import KIND

NAMES = ["Anna", "Bert", "Cora", "Dora", "Emil", "Fritz"]
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


def play_states(seed: int, players: int, turns: int, options: dict | None = None):
    """Yield the state after creation and after each processed game turn."""
    opts = dict(OPTIONS, **(options or {}))
    rng = random.Random(seed)
    key = seed_key(str(seed))
    names = NAMES[:players]
    state = KIND.create(names, opts, Chance(key, 0))
    state["events"] = []
    yield state
    for number in range(1, turns + 1):
        if KIND.is_over(state):
            return
        state = copy.deepcopy(state)
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
