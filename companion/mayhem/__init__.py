"""Medieval Mayhem: set collection with take-that effects and hidden characters (see docs/mayhem.md)."""
