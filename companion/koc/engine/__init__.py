"""The Knights of Camelot rules engine (see docs/koc-engine.md)."""
