"""Engine machinery shared by every game: records, chance, decisions, orders, views."""
