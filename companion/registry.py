"""The game kinds. Each is registered once here, with its metadata (id, title, player range,
summary, whether it is playable); its module is imported only when the kind is used, so
``companion games`` and the command line's start import no game's module or data."""
from __future__ import annotations

import difflib
import importlib
import importlib.machinery
import importlib.util
from dataclasses import dataclass
from functools import lru_cache

from companion.errors import CompanionError


@dataclass(frozen=True)
class KindInfo:
    id: str
    title: str
    min_players: int
    max_players: int
    module: str
    summary: str
    playable: bool = True
    """False for a kind whose data, charts and printables exist but whose rules engine does not
    yet (``companion games`` says so without importing the kind)."""

    @property
    def available(self) -> bool:
        """Whether the kind's module is part of this installation (found without running its
        package's ``__init__``, which may load the game's data)."""
        package, _, leaf = self.module.rpartition(".")
        try:
            spec = importlib.util.find_spec(package)
        except ModuleNotFoundError:
            return False
        if spec is None or not spec.submodule_search_locations:
            return False
        return importlib.machinery.PathFinder.find_spec(
            leaf, list(spec.submodule_search_locations)) is not None


_ALL: tuple[KindInfo, ...] = (
    KindInfo("gral", "Die Jagd nach dem Gral", 2, 8, "companion.gral.kind",
             "hidden influence on eight initiates racing the grail home"),
    KindInfo("koc", "Knights of Camelot", 1, 8, "companion.koc.kind",
             "Arthurian knights errant: map, encounters, combat, adventures"),
    KindInfo("mayhem", "Medieval Mayhem", 2, 6, "companion.mayhem.kind",
             "set collection with take-that effects and hidden characters"),
    KindInfo("fluxx", "Monty Python Fluxx", 2, 6, "companion.fluxx.kind",
             "the card game whose rules change as it is played"),
)
KINDS: tuple[KindInfo, ...] = tuple(k for k in _ALL if k.available)


def kind_ids() -> list[str]:
    return [k.id for k in KINDS]


def info(kind_id: str) -> KindInfo:
    for entry in KINDS:
        if entry.id == kind_id.strip().lower():
            return entry
    close = difflib.get_close_matches(kind_id.lower(), kind_ids(), n=1)
    hint = f"did you mean '{close[0]}'?" if close else f"known kinds: {', '.join(kind_ids())}"
    raise CompanionError(f"unknown game kind '{kind_id}'", hint=hint)


@lru_cache(maxsize=None)
def get_kind(kind_id: str):
    """The GameKind instance of a kind id (imports its module on first use)."""
    entry = info(kind_id)
    module = importlib.import_module(entry.module)
    kind = module.KIND
    kind.id, kind.title = entry.id, entry.title
    kind.min_players, kind.max_players = entry.min_players, entry.max_players
    kind.playable = entry.playable
    return kind
