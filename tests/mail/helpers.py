"""Helpers of the mail tests: games with addresses, legal orders picked from options_for."""
from __future__ import annotations

import random

from companion import service
from companion.errors import CompanionError
from companion.registry import get_kind


def new_game(world, kind: str, game_id: str, players: list[str], *, seed: str = "1",
             options: tuple[str, ...] = ()) -> dict[str, str]:
    """A game whose players have addresses; returns name -> address."""
    addresses = {p: f"{p.lower()}@{game_id}.example.org" for p in players}
    store = world.store()
    try:
        service.new_game(store, kind, game_id, [f"{p} <{a}>" for p, a in addresses.items()],
                         seed=seed, option_args=list(options), output=world.output)
    finally:
        store.close()
    return addresses


def turn_one_taken_back(world) -> dict[str, str]:
    """A two-player Gral game 'g1' whose turn 1 ran on both players' mailed orders and was
    then taken back ('companion rewind g1 0 --yes': held, orders pending again)."""
    from tests.mail.corpus import ORDERS

    who = new_game(world, "gral", "g1", ["Anna", "Bert"])
    world.run()
    for name in ("Anna", "Bert"):
        world.send(who[name], f"orders {world.code(who[name])}", ORDERS + "\n")
    world.run()
    world.cli.ok("rewind", "g1", "0", "--yes")
    return who


def legal_orders(world, game_id: str, player: str, rng: random.Random) -> str | None:
    """One to three legal order lines for ``player`` now that check_orders accepts together
    (None when the player has nothing to decide)."""
    store = world.store()
    try:
        kind = get_kind(store.game(game_id).kind)
        lines = kind.options_for(store.turn(game_id).state, player)
        if not lines:
            return None
        for _ in range(8):
            chosen = rng.sample(lines, k=min(len(lines), rng.randint(1, 3)))
            while chosen:
                text = "\n".join(chosen) + "\n"
                try:
                    service.check_orders(store, game_id, player, text, "t")
                    return text
                except CompanionError:
                    chosen = chosen[:-1]
        return None
    finally:
        store.close()


def state_of(world, game_id: str):
    store = world.store()
    try:
        game = store.game(game_id)
        kind = get_kind(game.kind)
        turn = store.turn(game_id)
        return kind, turn, set(store.pending(game_id)), kind.awaited(turn.state)
    finally:
        store.close()


def submissions(world, game_id: str) -> list:
    store = world.store()
    try:
        return store.submissions(game_id)
    finally:
        store.close()


def rows(world, sql: str, *args) -> list[tuple]:
    store = world.store()
    try:
        return store.db.execute(sql, args).fetchall()
    finally:
        store.close()
