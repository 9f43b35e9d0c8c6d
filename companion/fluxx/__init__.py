"""Monty Python Fluxx: the deck and its card language (cards.py), the rules (rules.py), the game
kind with its play-by-email structure (kind.py), orders, positions, views and the printable kit.
See docs/fluxx.md."""
