"""England's layout (a house rule: the layout figure of the original set-up is not public).

Twelve areas in four rows, bottom to top 3, 4, 3 and 2 areas wide, named ``1a``..``4b``. Below
row 1 lies the player's Round Table area ``home``; above row 4 the shared Avalon (``av1``..``av4``
in a two-player game). See docs/grailccg.md, "England".
"""
from __future__ import annotations

from companion.engine.numbers import is_digits

ROWS: tuple[tuple[str, ...], ...] = (
    ("1a", "1b", "1c"),
    ("2a", "2b", "2c", "2d"),
    ("3a", "3b", "3c"),
    ("4a", "4b"),
)
AREAS: tuple[str, ...] = tuple(a for row in ROWS for a in row)
HOME = "home"
TOP = ROWS[-1]


def avalon_areas(count: int = 4) -> tuple[str, ...]:
    return tuple(f"av{i}" for i in range(1, count + 1))


def row_of(area: str) -> int:
    """1-4 for England, 0 for home, 5 for Avalon."""
    if area == HOME:
        return 0
    if area.startswith("av"):
        return 5
    return int(area[0])


def _build() -> dict[str, tuple[str, ...]]:
    adj: dict[str, set[str]] = {a: set() for a in AREAS}
    adj[HOME] = set(ROWS[0])
    for a in ROWS[0]:
        adj[a].add(HOME)
    for row in ROWS:
        for left, right in zip(row, row[1:]):
            adj[left].add(right)
            adj[right].add(left)
    # a narrower row's area touches the two areas of the wider row beside it
    for lower, upper in zip(ROWS, ROWS[1:]):
        narrow, wide = (lower, upper) if len(lower) < len(upper) else (upper, lower)
        for i, a in enumerate(narrow):
            for b in (wide[i], wide[i + 1]):
                adj[a].add(b)
                adj[b].add(a)
    return {a: tuple(sorted(n, key=order_key)) for a, n in adj.items()}


def order_key(area: str) -> tuple[int, str]:
    return (row_of(area), area)


ADJACENT: dict[str, tuple[str, ...]] = {}


def adjacent(area: str) -> tuple[str, ...]:
    if not ADJACENT:
        ADJACENT.update(_build())
    return ADJACENT.get(area, ())


def below(area: str) -> tuple[str, ...]:
    """The areas one step down (towards the Round Table area)."""
    r = row_of(area)
    return tuple(a for a in adjacent(area) if row_of(a) == r - 1)


def canonical(text: str) -> str | None:
    """An area name as typed (``2b``, ``r2b``, ``R2B``, ``home``, ``AV1``) -> canonical or None."""
    t = text.strip().lower()
    if t in ("home", "round table", "roundtable"):
        return HOME
    if t.startswith("r") and len(t) == 3:
        t = t[1:]
    if t in AREAS:
        return t
    if t.startswith("av") and is_digits(t[2:]) and 1 <= int(t[2:]) <= 9:
        return f"av{int(t[2:])}"
    return None
