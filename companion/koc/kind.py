"""Knights of Camelot as a game kind: world data, chart rolls, routes and printables.

The rules engine (issues "Knights of Camelot rules engine") is not built yet, so the kind is not
playable: ``companion new koc`` says so.
"""
from __future__ import annotations

from functools import cached_property

from companion.engine.chance import Chance
from companion.engine.game import GameKind


class KocKind(GameKind):
    playable = False

    @cached_property
    def world(self):
        from companion.koc.world import default_world

        return default_world()

    def data_export(self) -> dict:
        return self.world.to_json()

    def data_check(self, folder) -> list:
        from companion.koc.world import check_data_dir

        return check_data_dir(folder)

    def roll(self, chart: str, dice: list[int] | None, chance: Chance) -> str:
        from companion.koc.rolls import roll_chart

        found = self.world.chart(chart)
        if dice:
            result = roll_chart(self.world, found.name, dice=dice)
        else:
            result = roll_chart(self.world, found.name,
                                roll=lambda sides: chance.roll(sides, found.name))
        return result.text()

    def route(self, start: str, goal: str, by: str) -> str:
        from companion.koc.routes import find_route

        return find_route(self.world, start, goal, by=by).text()

    def print_kit(self):
        """The print-and-play kit: the three decks, the chit sheets, the map poster and the
        reference charts (``companion print koc``)."""
        from companion.koc.printables import kit

        return kit(self.world)


KIND = KocKind()
