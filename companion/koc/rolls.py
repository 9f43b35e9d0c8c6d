"""The moderator's chart roller: resolve given dice on a named chart, or roll with a callable.

The command line (``companion koc roll CHART [--dice 3,4,...]``) calls ``roll_chart`` with
the typed chart name and either the dice (parsed by ``companion.engine.chance.parse_dice``) or
the engine's ``roll(sides)`` function.
"""
from __future__ import annotations

from typing import Callable, Sequence

from companion.errors import CompanionError

from .charts import Resolution
from .world import World


def roll_chart(world: World, name: str, *, dice: Sequence[int] | None = None,
               roll: Callable[[int], int] | None = None, modifier: int = 0,
               optional: bool = False) -> Resolution:
    """Resolve ``dice`` on the chart the user named, or roll it with ``roll(sides)``.

    ``modifier`` is added to the first stage (reaction bonuses, the victor's VL on the
    Knight's Fate chart); ``optional`` uses the optional-rule dice (the d8 of the optional
    adventures).
    """
    chart = world.chart(name)
    if dice is not None:
        return chart.resolve(list(dice), modifier=modifier, optional=optional)
    if roll is None:
        raise CompanionError(f"rolling '{chart.name}' needs dice or a source of chance",
                             hint=f"give the dice: {chart.describe_dice(optional)}")
    return chart.roll(roll, modifier=modifier, optional=optional)


def chart_summary(world: World) -> list[tuple[str, str, str]]:
    """(name, title, dice) of every chart, for a listing."""
    return [(c.name, c.title, c.describe_dice()) for c in world.charts.values()]
