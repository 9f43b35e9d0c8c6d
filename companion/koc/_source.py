"""Error positions inside arrays of tables, and schema checks for the KoC data files.

``DataFile.locate`` searches the whole file, so a name that appears in many entries would be
reported at its first occurrence. ``Source`` knows where each ``[[table]]`` entry starts and
ends and searches for the needle inside the entry concerned.
"""
from __future__ import annotations

import difflib
import re
from dataclasses import dataclass
from typing import Any, Iterable

from companion.engine.datafiles import DataFile
from companion.errors import DataError

HEADER_RE = re.compile(r"^\s*\[\[\s*([A-Za-z0-9_.\-]+)\s*\]\]")
TABLE_RE = re.compile(r"^\s*\[\s*([A-Za-z0-9_.\-]+)\s*\]")

# A field type: a Python type, a tuple of them, or the marker LIST_OF_STR.
LIST_OF_STR = "list of text"


class Source:
    """A loaded data file with the line spans of its array-of-tables entries."""

    def __init__(self, df: DataFile):
        self.df = df
        self.lines = df.text.splitlines()
        starts: list[tuple[int, str]] = []
        for number, line in enumerate(self.lines, start=1):
            m = HEADER_RE.match(line)
            if m:
                starts.append((number, m.group(1)))
                continue
            m = TABLE_RE.match(line)
            if m:
                starts.append((number, "[" + m.group(1) + "]"))
        self.spans: dict[str, list[tuple[int, int]]] = {}
        for i, (number, name) in enumerate(starts):
            end = starts[i + 1][0] - 1 if i + 1 < len(starts) else len(self.lines)
            self.spans.setdefault(name, []).append((number, end))

    @property
    def path(self) -> str:
        return self.df.path

    @property
    def data(self) -> dict[str, Any]:
        return self.df.data

    @property
    def errors(self) -> list[DataError]:
        return self.df.errors

    def span(self, table: str | None, index: int | None) -> tuple[int, int]:
        if table is None or index is None:
            return 1, len(self.lines)
        spans = self.spans.get(table, [])
        if 0 <= index < len(spans):
            return spans[index]
        return 1, len(self.lines)

    def locate(self, table: str | None, index: int | None, needles: Iterable[str]) -> tuple[int | None, int | None]:
        start, end = self.span(table, index)
        for needle in needles:
            if not needle:
                continue
            for form in (f'"{needle}"', needle, f"{needle} =", f"{needle}="):
                for number in range(start, end + 1):
                    line = self.lines[number - 1]
                    if line.lstrip().startswith("#"):
                        continue
                    col = line.find(form)
                    if col >= 0:
                        return number, col + 1
        if table is not None and index is not None and table in self.spans:
            return start, 1
        return self.df.locate(*needles)

    def error(self, table: str | None, index: int | None, message: str, *needles: str,
              hint: str | None = None) -> DataError:
        """Record an error located inside entry ``index`` of ``[[table]]``."""
        if table is None:
            return self.df.error(message, *needles, hint=hint)
        line, col = self.locate(table, index, needles)
        err = DataError(message, path=self.df.path, line=line, column=col, hint=hint)
        self.df.errors.append(err)
        return err


@dataclass
class Field:
    kind: Any
    required: bool = True


def type_name(kind: Any) -> str:
    if kind == LIST_OF_STR:
        return "a list of texts"
    if isinstance(kind, tuple):
        return " or ".join(type_name(k) for k in kind)
    return {int: "a whole number", str: "a text", bool: "true or false", list: "a list",
            dict: "a table", float: "a number"}.get(kind, kind.__name__)


def type_ok(value: Any, kind: Any) -> bool:
    if kind == LIST_OF_STR:
        return isinstance(value, list) and all(isinstance(v, str) for v in value)
    kinds = kind if isinstance(kind, tuple) else (kind,)
    for k in kinds:
        if k is int and isinstance(value, bool):
            continue
        if isinstance(value, k):
            return True
    return False


def check_entry(src: Source, table: str, index: int, entry: Any, schema: dict[str, Field],
                what: str, *, inline_needle: str | None = None) -> dict[str, Any] | None:
    """Check one entry against ``schema``; return the valid fields (others omitted)."""
    if not isinstance(entry, dict):
        src.error(table, index, f"{what} must be a table", inline_needle or "")
        return None
    out: dict[str, Any] = {}
    allowed = list(schema)
    for key in entry:
        if key not in schema:
            close = difflib.get_close_matches(key, allowed, n=1)
            hint = f"did you mean '{close[0]}'?" if close else f"known keys: {', '.join(allowed)}"
            src.error(table, index, f"{what}: unknown key '{key}'", *(n for n in (inline_needle, f"{key} =") if n), hint=hint)
    for key, spec in schema.items():
        if key not in entry:
            if spec.required:
                src.error(table, index, f"{what}: missing key '{key}'", inline_needle or "")
            continue
        value = entry[key]
        if not type_ok(value, spec.kind):
            shown = value if not isinstance(value, (list, dict)) else type(value).__name__
            src.error(table, index, f"{what}: '{key}' must be {type_name(spec.kind)}, not {shown!r}",
                      *(n for n in (inline_needle, f"{key} =", key) if n))
            continue
        out[key] = value
    return out


def suggest(word: str, choices: Iterable[str]) -> str | None:
    close = difflib.get_close_matches(word, list(choices), n=1, cutoff=0.5)
    return f"did you mean '{close[0]}'?" if close else None
