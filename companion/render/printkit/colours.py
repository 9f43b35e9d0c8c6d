"""Colours as (r, g, b) floats in 0..1, parsed from '#rrggbb', '#rgb' or a few names.

Pure Python (no reportlab)."""
from __future__ import annotations

import re

from companion.errors import UsageError

RGB = tuple[float, float, float]

NAMED: dict[str, str] = {
    "black": "#000000", "white": "#ffffff", "paper": "#fffdf6", "ink": "#1d1d1f",
    "red": "#b3261e", "crimson": "#8e1b2c", "orange": "#d26a1f", "gold": "#c9a227",
    "yellow": "#e8c547", "green": "#2e7d32", "olive": "#6b7a2a", "teal": "#17737a",
    "blue": "#1f5fa8", "navy": "#1e2f5c", "purple": "#6a3d9a", "violet": "#8e5bb5",
    "brown": "#7a4e2d", "grey": "#6e6e6e", "gray": "#6e6e6e", "silver": "#a9adb3",
    "stone": "#8a8170", "pink": "#c2577f",
}

PALETTE: tuple[str, ...] = ("#1f5fa8", "#b3261e", "#2e7d32", "#6a3d9a", "#c9a227", "#17737a",
                            "#d26a1f", "#7a4e2d", "#c2577f", "#1e2f5c", "#6b7a2a", "#6e6e6e")
"""Band colours handed out to card types that do not name their own, in order."""

INK: RGB = (0.11, 0.11, 0.12)
WHITE: RGB = (1.0, 1.0, 1.0)
PAPER: RGB = (1.0, 0.992, 0.965)
MARK: RGB = (0.0, 0.0, 0.0)


def rgb(value: str | RGB | None, default: RGB | None = None, *, what: str = "colour") -> RGB:
    """Parse a colour; tuples pass through."""
    if value is None:
        if default is None:
            raise UsageError(f"{what}: no colour given")
        return default
    if isinstance(value, tuple):
        return value
    known = _PARSED.get(value) if isinstance(value, str) else None
    if known is not None:
        return known
    text = NAMED.get(str(value).strip().lower(), str(value).strip())
    m = re.fullmatch(r"#?([0-9a-fA-F]{6}|[0-9a-fA-F]{3})", text)
    if not m:
        raise UsageError(f"{what}: '{value}' is not a colour",
                         hint="write #rrggbb (e.g. #1f5fa8) or a name: " + ", ".join(sorted(NAMED)))
    digits = m.group(1)
    if len(digits) == 3:
        digits = "".join(c * 2 for c in digits)
    parsed = tuple(int(digits[i:i + 2], 16) / 255.0 for i in (0, 2, 4))
    if isinstance(value, str) and len(_PARSED) < 4096:
        _PARSED[value] = parsed  # type: ignore[assignment]
    return parsed  # type: ignore[return-value]


_PARSED: dict[str, RGB] = {}
"""Colours already parsed (a kit names the same few colours thousands of times)."""


def mix(a: RGB, b: RGB, t: float) -> RGB:
    """``t`` of the way from ``a`` to ``b``."""
    return tuple(x + (y - x) * t for x, y in zip(a, b))  # type: ignore[return-value]


def lighter(c: RGB, t: float) -> RGB:
    return mix(c, WHITE, t)


def darker(c: RGB, t: float) -> RGB:
    return mix(c, (0.0, 0.0, 0.0), t)


def luminance(c: RGB) -> float:
    def lin(v: float) -> float:
        return v / 12.92 if v <= 0.04045 else ((v + 0.055) / 1.055) ** 2.4

    r, g, b = (lin(v) for v in c)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def text_on(c: RGB) -> RGB:
    """Black or white, whichever reads better on ``c``."""
    return INK if luminance(c) > 0.34 else WHITE
