"""Knights of Camelot: the world as validated, editable data (map, cards, chits, charts).

Public entry points:
- ``load_world(data_dir=None)`` / ``default_world()`` / ``check_data_dir(path)`` (world.py)
- ``World.to_json()``, ``World.area(name)``, ``World.chart(name)`` and friends
- ``Chart.resolve(dice)``, ``Chart.roll(roll)``, ``format_resolution`` (charts.py)
- ``find_route(world, from, to, by=...)``, ``land_route``, ``ship_route``, ``direct_route``
  (routes.py)
- ``roll_chart(world, name, dice=None, roll=None)`` (rolls.py): the moderator's chart roller

The names below are imported from their modules when first used, so that importing one module
of the package (the game kind, for a quick command) does not load the others.
"""
from typing import Any

__all__ = ["Chart", "Entry", "Resolution", "World", "check_data_dir", "default_world",
           "format_resolution", "load_world"]


def __getattr__(name: str) -> Any:
    if name in ("Chart", "Entry", "Resolution", "format_resolution"):
        from . import charts as module
    elif name in ("World", "check_data_dir", "default_world", "load_world"):
        from . import world as module
    else:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(module, name)
