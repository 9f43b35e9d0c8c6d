"""Loading the project's editable data files (TOML) with errors that say file, line and column.

``tomllib`` reports syntax errors with a line and column; semantic errors found later (a field
with a wrong type, a name that does not exist) are located by searching the file's text for the
key or value concerned, so the user is sent to the right line.
"""
from __future__ import annotations

import difflib
import re
from dataclasses import field
from pathlib import Path
from typing import Any, Iterable

from companion.engine.record import record
from companion.errors import DataError, DataErrors


def load_toml(text: str, shown: str) -> dict:
    """``text`` read as TOML; a syntax error is a DataError at its line and column (an error
    "at end of document" just after the last character; values nested too deeply at 1:1)."""
    import tomllib      # here: a command whose data comes from the cache never parses TOML

    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        message = str(exc)
        m = re.search(r"\(at line (\d+), column (\d+)\)", message)
        if m:
            line, col = int(m.group(1)), int(m.group(2))
        else:                                   # "(at end of document)"
            lines = text.splitlines() or [""]
            line, col = len(lines), len(lines[-1]) + 1
        message = re.sub(r"\s*\(at (line \d+, column \d+|end of document)\)", "", message)
        raise DataError(f"TOML syntax: {message}", path=shown, line=line, column=col) from None
    except RecursionError:
        raise DataError("TOML syntax: values nested too deeply", path=shown, line=1,
                        column=1) from None


@record
class DataFile:
    """A parsed TOML file that remembers its text so errors can point at lines."""

    path: str
    text: str
    data: dict[str, Any]
    errors: list[DataError] = field(default_factory=list)

    @classmethod
    def load(cls, path: str | Path, *, display: str | None = None) -> "DataFile":
        path = Path(path)
        shown = display or str(path)
        try:
            raw = path.read_bytes()
        except FileNotFoundError:
            raise DataError("file not found", path=shown) from None
        except OSError as exc:
            raise DataError(f"cannot read file: {exc.strerror}", path=shown) from None
        return cls.parse(raw, shown)

    @classmethod
    def parse(cls, raw: bytes | str, shown: str) -> "DataFile":
        if isinstance(raw, bytes):
            try:
                text = raw.decode("utf-8")
            except UnicodeDecodeError as exc:
                line = raw[: exc.start].count(b"\n") + 1
                raise DataError("file is not valid UTF-8 text", path=shown, line=line) from None
        else:
            text = raw
        return cls(shown, text, load_toml(text, shown))

    # -- locating --------------------------------------------------------------------------
    def locate(self, *needles: str) -> tuple[int | None, int | None]:
        """Line and column of the first needle found (tried in order), searching the raw text.

        Needles may be keys (``name``) or values; a quoted form is tried first so that
        ``"Akkon"`` is found as a value rather than inside a longer word.
        """
        lines = self.text.splitlines()
        for needle in needles:
            if not needle:
                continue
            for form in (f'"{needle}"', f"{needle} =", f"{needle}=", needle):
                for number, line in enumerate(lines, start=1):
                    col = line.find(form)
                    if col >= 0 and not line.lstrip().startswith("#"):
                        return number, col + 1
        return None, None

    def error(self, message: str, *needles: str, hint: str | None = None) -> DataError:
        line, col = self.locate(*needles)
        err = DataError(message, path=self.path, line=line, column=col, hint=hint)
        self.errors.append(err)
        return err

    def raise_if_errors(self) -> None:
        if self.errors:
            if len(self.errors) == 1:
                raise self.errors[0]
            raise DataErrors(self.errors)

    # -- typed access -------------------------------------------------------------------------
    def require(self, table: dict[str, Any], key: str, kind: type | tuple[type, ...], where: str,
                *, locate: str | None = None) -> Any:
        """Fetch ``table[key]`` and check its type; record an error (and return None) if not."""
        if key not in table:
            self.error(f"{where}: missing key '{key}'", locate or where)
            return None
        value = table[key]
        if kind is int and isinstance(value, bool):
            ok = False
        else:
            ok = isinstance(value, kind)
        if not ok:
            names = kind.__name__ if isinstance(kind, type) else " or ".join(k.__name__ for k in kind)
            self.error(f"{where}: '{key}' must be {names}, not {type(value).__name__} {value!r}",
                       locate or (str(value) if not isinstance(value, (list, dict)) else key))
            return None
        return value

    def unknown_keys(self, table: dict[str, Any], allowed: Iterable[str], where: str) -> None:
        allowed = list(allowed)
        for key in table:
            if key not in allowed:
                close = difflib.get_close_matches(key, allowed, n=1)
                hint = f"did you mean '{close[0]}'?" if close else f"known keys: {', '.join(allowed)}"
                self.error(f"{where}: unknown key '{key}'", key, hint=hint)


def suggest(word: str, choices: Iterable[str]) -> str | None:
    close = difflib.get_close_matches(word, list(choices), n=1, cutoff=0.5)
    return f"did you mean '{close[0]}'?" if close else None
