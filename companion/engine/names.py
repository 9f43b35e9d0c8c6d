"""Names: normalising for matching (case and accents ignored), slugs for file names, and
matching a typed name against a list of known names (exact, prefix, word prefix)."""
from __future__ import annotations

import difflib
import functools
import re
import unicodedata
from collections import Counter
from typing import Iterable, Sequence

from companion.engine.record import record

_CYRILLIC = dict(zip(
    "абвгдеёжзийклмнопрстуфхцчшщъыьэюяєіїґў",
    ["a", "b", "v", "g", "d", "e", "e", "zh", "z", "i", "i", "k", "l", "m", "n", "o", "p", "r",
     "s", "t", "u", "f", "kh", "ts", "ch", "sh", "shch", "", "y", "", "e", "yu", "ya", "ye", "i",
     "yi", "g", "u"],
))
_GREEK = dict(zip(
    "αβγδεζηθικλμνξοπρσςτυφχψω",
    ["a", "v", "g", "d", "e", "z", "i", "th", "i", "k", "l", "m", "n", "x", "o", "p", "r", "s", "s",
     "t", "y", "f", "ch", "ps", "o"],
))
_EXTRA = {"ß": "ss", "æ": "ae", "œ": "oe", "ø": "o", "đ": "d", "ð": "d", "þ": "th", "ł": "l",
          "ı": "i"}


@functools.lru_cache(maxsize=1 << 15)
def fold(text: str) -> str:
    """Lower-case, accents and invisible format characters removed, hyphens/underscores/
    apostrophes as spaces, spaces collapsed.

    Used for comparing names: 'Rennes-le-Château' and 'rennes le chateau' fold alike.  Kept
    per text (a game folds the same few hundred names again and again: every typed name is
    matched against every known one, and routes break ties by folded area names).
    """
    text = unicodedata.normalize("NFKD", text.casefold())
    # accents go; so do invisible format characters (a soft hyphen or a zero-width joiner
    # pasted from a web page or a phone's keyboard): 'An\xadna' is 'Anna'; a zero-width
    # space separates words
    text = "".join(" " if ch == "\u200b" else ch for ch in text
                   if not unicodedata.combining(ch) and (unicodedata.category(ch) != "Cf"
                                                         or ch == "\u200b"))
    text = re.sub(r"[-_'’`]", " ", text)
    return " ".join(text.split())


def transliterate(text: str) -> str:
    out = []
    for ch in fold(text):
        for table in (_CYRILLIC, _GREEK, _EXTRA):
            if ch in table:
                out.append(table[ch])
                break
        else:
            out.append(ch)
    return "".join(out)


def slugify(text: str) -> str:
    """A file-name-safe slug: ASCII letters, digits and hyphens ('Jörg Ünal' -> 'jorg-unal')."""
    text = transliterate(text)
    text = re.sub(r"[^a-z0-9]+", "-", text).strip("-")
    return text


@record(frozen=True)
class Match:
    """The outcome of matching a typed name: the known name, or the candidates."""

    name: str | None
    candidates: tuple[str, ...] = ()
    suggestions: tuple[str, ...] = ()

    @property
    def ok(self) -> bool:
        return self.name is not None

    @property
    def ambiguous(self) -> bool:
        return self.name is None and len(self.candidates) > 1


def match_name(typed: str, known: Sequence[str], aliases: dict[str, str] | None = None, *,
               suggest: bool = True) -> Match:
    """Match ``typed`` against ``known`` names (and ``aliases``: alias -> known name).

    Priority: an exact match of a name or alias; else a unique prefix of a whole name; else a
    unique prefix of a word within a name ('castell' finds 'Alberto Castellano'). Several
    candidates at the first level that has any make the name ambiguous. Without ``suggest``
    an unknown name comes back without suggestions: for a parser that only asks whether some
    words name anything (the suggestions compare the text with every name, by far the dearest
    part of a miss).
    """
    query = fold(typed)
    if not query:
        return Match(None)
    table: dict[str, str] = {}
    for name in known:
        table.setdefault(fold(name), name)
    for alias, name in (aliases or {}).items():
        table.setdefault(fold(alias), name)
    if query in table:
        return Match(table[query])
    levels = [
        lambda key: key.startswith(query),
        lambda key: any(" ".join(key.split()[i:]).startswith(query) for i in range(1, len(key.split()))),
    ]
    for test in levels:
        found = sorted({name for key, name in table.items() if test(key)}, key=known_order(known))
        if len(found) == 1:
            return Match(found[0])
        if found:
            return Match(None, tuple(found))
    return Match(None, (), suggest_names(query, table) if suggest else ())


def exact_names(known: Sequence[str]) -> set[str]:
    """The names that ``match_name`` gives back unchanged when typed exactly (its first step:
    the first of the names that fold alike), so that a reader of text the tool wrote can take
    them without building the look-up table for each one."""
    first: dict[str, str] = {}
    for name in known:
        first.setdefault(fold(name), name)
    return set(first.values())


def suggest_names(query: str, table: dict[str, str], limit: int = 3) -> tuple[str, ...]:
    """Known names that look like a mistyped ``query`` (whole name, a word, or its start)."""
    scored = []
    matcher = difflib.SequenceMatcher(None, query, "")
    letters = _letters(query)
    for key, name in table.items():
        score = 0.0
        for piece in [key] + key.split() + [key[: len(query)]]:
            # the exact ratio only where two cheap upper bounds of it (difflib's real quick
            # and quick ratios: the lengths, the letters in common) could still reach the
            # threshold and the best piece so far: the same scores as ratio() for every piece
            floor = max(score, 0.6)
            total = len(query) + len(piece)
            if (2.0 * min(len(query), len(piece)) / total < floor
                    or 2.0 * (letters & _letters(piece)).total() / total < floor):
                continue
            matcher.set_seq2(piece)
            score = max(score, matcher.ratio())
        if score >= 0.6:
            scored.append((-score, name))
    scored.sort()
    return tuple(dict.fromkeys(name for _, name in scored))[:limit]


@functools.lru_cache(maxsize=8192)
def _letters(text: str) -> Counter:
    """How many of each character ``text`` holds (the bound behind difflib's quick_ratio)."""
    return Counter(text)


def known_order(known: Sequence[str]):
    index = {name: i for i, name in enumerate(known)}
    return lambda name: index.get(name, len(index))


def unique_slugs(names: Iterable[str]) -> dict[str, str]:
    """Map each name to its slug; raise ValueError naming the clash if two share one."""
    seen: dict[str, str] = {}
    result = {}
    for name in names:
        slug = slugify(name)
        if not slug:
            raise ValueError(f"the name {name!r} has no letters or digits to make a file name from")
        if slug in seen:
            raise ValueError(
                f"the names {seen[slug]!r} and {name!r} would share the file name '{slug}'"
            )
        seen[slug] = name
        result[name] = slug
    return result
