"""Whole numbers as people type them: only the digits 0-9 count.

``str.isdigit`` is true for superscripts, circled and other scripts' digits (``'²'``, ``'③'``),
which ``int`` then refuses with a ValueError nobody expects; every reader of a typed or stored
number asks :func:`is_digits` instead.
"""
from __future__ import annotations

_DIGITS = frozenset("0123456789")


def is_digits(text: str) -> bool:
    """True if ``text`` is one or more of the digits 0-9 and nothing else."""
    return bool(text) and all(ch in _DIGITS for ch in text)
