"""Reading positions written as ``key: value`` lines (Gral, Medieval Mayhem, Fluxx), with every
error located by file, line and column.

A game's reader subclasses ``LineReader`` (adding its own helpers for cards or pieces), calls
``scan`` once to collect the entries by key, reports with ``error`` and ``name``, and ends
each stage with ``raise_if_errors``.
"""
from __future__ import annotations

import difflib
import re
from typing import Sequence

from companion.engine.names import match_name
from companion.engine.orders import _strip_comment
from companion.errors import DataError, DataErrors

Entry = tuple[int, int, str]        # line number, column of the value, the value


def strip_comment(raw: str, *, quotes: bool = False) -> str:
    """The line without its ``#`` comment; with ``quotes``, a ``#`` inside "..." stays."""
    return _strip_comment(raw) if quotes else raw.split("#", 1)[0]


MAX_DIGITS = 6
"""No count or amount of a position has more digits (nor may int() see thousands)."""


class LineReader:
    def __init__(self, filename: str, text: str = ""):
        self.filename = filename
        self.errors: list[DataError] = []
        self.end_line = len(text.splitlines()) + 1      # where a missing line is reported

    def missing(self, key: str, example: str) -> None:
        """A required ``key:`` line that is not there: reported after the last line."""
        self.error(self.end_line, 1, f"the position has no '{key}:' line",
                   f"add a line like '{key}: {example}'")

    def number(self, line: int, col: int, text: str, what: str, *, low: int = 0,
               high: int = 10 ** MAX_DIGITS - 1) -> int | None:
        """A whole number written with the digits 0-9, within ``low``..``high``; else an
        error at ``line``:``col`` and None."""
        text = text.strip()
        if not re.fullmatch(r"[0-9]+", text):
            self.error(line, col, f"{what} must be a whole number, not '{text}'")
            return None
        if len(text) > MAX_DIGITS or not low <= int(text) <= high:
            self.error(line, col, f"{what} is {text}; it must be from {low} to {high}")
            return None
        return int(text)

    def error(self, number: int, col: int, message: str, hint: str | None = None) -> None:
        self.errors.append(DataError(message, path=self.filename, line=number, column=col,
                                     hint=hint))

    def raise_if_errors(self) -> None:
        if self.errors:
            raise self.errors[0] if len(self.errors) == 1 else DataErrors(self.errors)

    def name(self, number: int, col: int, typed: str, known: Sequence[str], what: str, *,
             list_known: int | None = None) -> str | None:
        """The known name ``typed`` means (any unambiguous beginning), else an error with
        suggestions (the whole list when it has at most ``list_known`` names; always when
        ``list_known`` is None)."""
        found = match_name(typed, list(known))
        if found.ok:
            return found.name
        if found.ambiguous:
            self.error(number, col, f"'{typed}' could be any of: {', '.join(found.candidates)}",
                       "type more of the name")
        else:
            if found.suggestions:
                hint = "did you mean " + " or ".join(f"'{s}'" for s in found.suggestions) + "?"
            elif list_known is None or len(known) <= list_known:
                hint = f"known {what}s: {', '.join(known)}"
            else:
                hint = None
            self.error(number, col, f"no {what} called '{typed}'", hint)
        return None

    def scan(self, text: str, keys: Sequence[str], repeatable: Sequence[str], *,
             quotes: bool = False) -> dict[str, list[Entry]]:
        """Every ``key: value`` line by key; unknown keys, lines of another form and keys
        given twice (unless repeatable) are errors."""
        entries: dict[str, list[Entry]] = {}
        for number, raw in enumerate(text.splitlines(), start=1):
            content = strip_comment(raw, quotes=quotes).rstrip()
            if not content.strip():
                continue
            m = re.match(r"\s*([A-Za-z_-]+)\s*:\s*(.*)$", content)
            if not m:
                self.error(number, 1, "expected 'key: value'")
                continue
            key = m.group(1).lower()
            if key not in keys:
                close = difflib.get_close_matches(key, list(keys), n=1)
                self.error(number, m.start(1) + 1, f"unknown key '{key}'",
                           f"did you mean '{close[0]}'?" if close else
                           f"keys: {', '.join(keys)}")
                continue
            if key in entries and key not in repeatable:
                self.error(number, 1, f"'{key}' is given twice (first on line "
                                      f"{entries[key][0][0]})")
                continue
            entries.setdefault(key, []).append((number, m.start(2) + 1, m.group(2).strip()))
        return entries
