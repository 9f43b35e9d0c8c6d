"""Locate the bundled resources (templates, fonts) in a source checkout or an installed wheel."""
from __future__ import annotations

from functools import lru_cache
from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent


@lru_cache(maxsize=None)
def resource_dir(name: str) -> Path:
    """Return the folder of a bundled resource kind ('templates' or 'fonts')."""
    candidates = [_PACKAGE / "_resources" / name, _PACKAGE.parent / name]
    for candidate in candidates:
        if candidate.is_dir():
            return candidate
    raise FileNotFoundError(
        f"bundled folder '{name}' not found (looked in {', '.join(str(c) for c in candidates)}); "
        "reinstall companion"
    )
