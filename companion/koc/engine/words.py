"""Words that agree with a number in the texts a player reads: "1 guard", "2 guards".

Games begun before rules edition 2 wrote "guard(s)" whatever the number; their events (and the
question prompts and chance purposes a turn records) are replayed and compared, so they keep
that text. Every site asks ``plural`` for the word alone and writes the number itself::

    f"hires {len(hired)} {plural(s, len(hired), 'guard')}: ..."
    f"{n} {plural(s, n, 'knight')} {plural(s, n, 'defends', 'defend', old='defend')} it"
    f"{what} {plural(s, count, 'flees', 'flee', old='flee(s)')}"
"""
from __future__ import annotations

from typing import Any

from companion.engine.game import edition
from companion.engine.words import word_for

PROPER_PLURALS = 2
"""The rules edition from which a text says "1 guard", "2 guards" (before: "guard(s)")."""


def plural(where: Any, n: int, word: str, words: str | None = None, *,
           old: str | None = None) -> str:
    """``word`` for one, ``words`` (by default ``word + "s"``) for any other number (none
    too: "0 wounds"); irregular forms and verbs give both ("man-at-arms", "men-at-arms";
    "falls", "fall").

    ``where`` is the game whose edition decides: its state (a dict), a session or anything with
    ``.game.state`` or ``.state``; a game begun before edition 2 gets the text it always had:
    ``old``, by default ``word + "(s)"``. ``None`` for a text that is never stored (a view,
    a message): always the proper word."""
    if where is not None and _edition(where) < PROPER_PLURALS:
        return f"{word}(s)" if old is None else old
    return word_for(n, word, words)


def _edition(where: Any) -> int:
    if isinstance(where, dict):
        return edition(where)
    game = getattr(where, "game", None)
    return edition(game.state if game is not None else where.state)


NAME_ONCE = 7
"""The rules edition from which an announcement names a knight who bears his player's name
(as he does unless named otherwise) once: "Cora wins the game", not "Cora (Cora) wins the
game"; a knight named otherwise keeps his player in brackets ("Sir Kay (Anna)")."""


def knight_and_player(where: Any, knight: str, player: str) -> str:
    """A knight with his player in brackets, or his name once when it is his player's.
    ``where`` as for :func:`plural` (``None`` for a text never stored: a view)."""
    if knight.casefold() == player.casefold() and (where is None or
                                                   _edition(where) >= NAME_ONCE):
        return knight
    return f"{knight} ({player})"
