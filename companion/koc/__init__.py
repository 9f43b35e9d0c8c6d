"""Knights of Camelot: the world as validated, editable data (map, cards, chits, charts).

Public entry points:
- ``load_world(data_dir=None)`` / ``default_world()`` / ``check_data_dir(path)`` (world.py)
- ``World.to_json()``, ``World.area(name)``, ``World.chart(name)`` and friends
- ``Chart.resolve(dice)``, ``Chart.roll(roll)``, ``format_resolution`` (charts.py)
- ``find_route(world, from, to, by=...)``, ``land_route``, ``ship_route``, ``direct_route``
  (routes.py)
- ``roll_chart(world, name, dice=None, roll=None)`` (rolls.py): the moderator's chart roller
"""
from .charts import Chart, Entry, Resolution, format_resolution
from .world import World, check_data_dir, default_world, load_world

__all__ = ["Chart", "Entry", "Resolution", "World", "check_data_dir", "default_world",
           "format_resolution", "load_world"]
