"""A harness for Knights of Camelot rules tests: a position, scripted dice and orders, and the
events of a player turn (or of a processed game turn)."""
from __future__ import annotations

import textwrap

import pytest

from companion.engine.chance import Chance, seed_key
from companion.engine.game import TurnContext
from companion.koc.engine.game import Game, run_player_turn
from companion.koc.engine.session import Session
from companion.koc.kind import KIND
from companion.koc.orders import parse_orders
from companion.koc.position import read_position


class Table:
    """One situation at the table.

    ``position`` is a KoC position (TOML); ``dice`` are die results used in order (then the
    seeded stream); ``orders`` maps players to order texts for this turn; ``options`` are game
    options (e.g. {'missing': 'wait'}).
    """

    def __init__(self, position: str, *, dice=(), orders=None, options=None, seed="harness"):
        self.world = KIND.world
        self.state = read_position(self.world, textwrap.dedent(position), "case.toml")
        self.state["edition"] = KIND.edition        # the rules new games are played under
        opts = {"missing": "default", "scenario": self.state["koc"]["scenario"],
                "first-player": "fixed", "rules": ()}
        opts.update(options or {})
        players = self.state["koc"]["order"]
        parsed = {p: parse_orders(self.world, players, textwrap.dedent(t), f"{p}.txt")
                  for p, t in (orders or {}).items()}
        for p, o in parsed.items():
            if o.standing is not None:
                self.state["knights"][p]["standing"] = list(o.standing)
        key = seed_key(seed)
        self.chance = Chance(key, 1, dice=list(dice))
        self.ctx = TurnContext(turn=1, key=key, chance=self.chance, orders=parsed, options=opts)
        self.game = Game(self.world, self.state, self.ctx, parsed)

    def session(self, player: str | None = None) -> Session:
        return Session(self.game, player or self.state["koc"]["order"][0])

    def knight(self, player: str | None = None) -> dict:
        return self.state["knights"][player or self.state["koc"]["order"][0]]

    def play(self, player: str | None = None) -> bool:
        """Run one whole player turn; False if it paused for an answer."""
        return run_player_turn(self.game, player or self.state["koc"]["order"][0])

    @property
    def events(self) -> list[str]:
        return [e["text"] for e in self.ctx.events]

    def saw(self, needle: str) -> bool:
        return any(needle in e for e in self.events)

    @property
    def unused_dice(self) -> list[int]:
        return self.chance.unused_dice


@pytest.fixture
def table():
    return Table
