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
