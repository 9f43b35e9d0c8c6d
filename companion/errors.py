"""Error types with the exit codes the command line uses.

Exit status 1 means rejected input (orders, data files, names, options, a store that cannot be
read); exit status 2 means a usage error of the command line itself.
"""
from __future__ import annotations


class CompanionError(Exception):
    """An error a user caused and can fix; printed without a traceback."""

    exit_code = 1

    def __init__(self, message: str, *, hint: str | None = None):
        super().__init__(message)
        self.message = message
        self.hint = hint

    def render(self) -> str:
        text = f"error: {self.message}"
        if self.hint:
            text += f"\n  hint: {self.hint}"
        return text


class UsageError(CompanionError):
    exit_code = 2


class StoreError(CompanionError):
    """The store is missing, unreadable, or does not hold what was asked for."""


class TurnMovedOn(StoreError):
    """Another process stored a turn or orders while this one was working from what it had
    read: nothing was written; the work is done again from what the store holds now."""


class DataError(CompanionError):
    """A data file (board, cards, setup position) is malformed."""

    def __init__(self, message: str, *, path: str | None = None, line: int | None = None,
                 column: int | None = None, hint: str | None = None):
        super().__init__(message, hint=hint)
        self.path = path
        self.line = line
        self.column = column

    def render(self) -> str:
        where = self.path or "<data>"
        if self.line is not None:
            where += f":{self.line}"
            if self.column is not None:
                where += f":{self.column}"
        text = f"{where}: error: {self.message}"
        if self.hint:
            text += f"\n  hint: {self.hint}"
        return text


class DataErrors(CompanionError):
    """Several data errors found in one pass; all are reported together."""

    def __init__(self, errors: list[DataError]):
        super().__init__(f"{len(errors)} {'error' if len(errors) == 1 else 'errors'} in data")
        self.errors = errors

    def render(self) -> str:
        return "\n".join(e.render() for e in self.errors)
