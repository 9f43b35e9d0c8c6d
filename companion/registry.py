"""The game kinds. Each is registered once here, with its metadata (id, title, player range,
summary, whether it is playable, the names of its own commands); its module is imported only
when the kind is used, so ``companion games`` and the command line's start import no game's
module or data."""
from __future__ import annotations

import difflib
import importlib
import importlib.machinery
import importlib.util
from functools import lru_cache
from typing import NamedTuple

from companion.errors import CompanionError


class KindInfo(NamedTuple):
    """A kind's metadata (a named tuple: made at start-up for every command, it costs a
    tenth of what a frozen dataclass does)."""

    id: str
    title: str
    min_players: int
    max_players: int
    module: str
    summary: str
    playable: bool = True
    """False for a kind whose data, charts and printables exist but whose rules engine does not
    yet (``companion games`` says so without importing the kind)."""
    commands: str | None = None
    """``module:attribute`` of the kind's own sub-commands (a typer app), which the command line
    mounts as ``companion <id> VERB ...``; the module is imported only when one of them runs."""
    verbs: tuple[tuple[str, str], ...] = ()
    """Those sub-commands' names and one-line help, in the order ``--help`` lists them (read
    without importing the module; a test checks them against it)."""
    aliases: tuple[str, ...] = ()
    """Verbs also answered under an older spelling ``companion VERB ...`` (hidden from
    ``--help``; kept for compatibility)."""
    kind_aliases: tuple[str, ...] = ()
    """Verbs also answered under an older spelling ``companion VERB KIND ...`` (hidden; kept
    for compatibility)."""

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
             "hidden influence on eight initiates racing the grail home",
             commands="companion.gral.commands:app",
             verbs=(("sheet", "Write a player's filled-in influence sheet as a PDF."),
                    ("verify", "Check the sealed influence sheets of a game or disclosure."),
                    ("demo", "Run a whole demo game from bundled sample orders.")),
             aliases=("sheet",)),
    KindInfo("koc", "Knights of Camelot", 1, 8, "companion.koc.kind",
             "Arthurian knights errant: map, encounters, combat, adventures",
             commands="companion.koc.commands:app",
             verbs=(("roll", "Roll on one of the charts (or resolve given dice)."),
                    ("route", "The shortest route between two areas of the map."),
                    ("journal", "Write a knight's Adventure Journal as a PDF (or text).")),
             aliases=("journal",), kind_aliases=("roll", "route")),
    KindInfo("mayhem", "Medieval Mayhem", 2, 6, "companion.mayhem.kind",
             "set collection with take-that effects and hidden characters"),
    KindInfo("fluxx", "Monty Python Fluxx", 2, 6, "companion.fluxx.kind",
             "the card game whose rules change as it is played"),
    KindInfo("grailccg", "Monty Python and the Holy Grail CCG", 2, 6,
             "companion.grailccg.kind",
             "a deck and an England each, one Avalon: the grail found on a search"),
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


def commands_module(kind_id: str):
    """The module of a kind's own sub-commands (imported now), or None if it has none."""
    entry = info(kind_id)
    if not entry.commands:
        return None
    return importlib.import_module(entry.commands.partition(":")[0])


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
