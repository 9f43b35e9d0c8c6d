"""Chance: every random outcome comes from here and is recorded with its purpose.

Outcomes are drawn from a stream derived from the game's secret key (HMAC-SHA-256 over the turn
number and a counter), so the stream needs no state beyond the counter, and a game re-run from its
record gets the same outcomes. A moderator may supply physical die rolls (``--dice``); they are
consumed in order by die rolls before the stream is used. Replaying a recorded turn uses the
recorded outcomes only: no random numbers are drawn at all.
"""
from __future__ import annotations

import hashlib
import hmac
from dataclasses import field
from typing import Any, Sequence

from companion.engine.record import record
from companion.errors import CompanionError


class ChanceError(CompanionError):
    """Supplied dice that cannot be used, or a replay that asks for different outcomes."""


@record
class Outcome:
    seq: int
    kind: str            # 'die', 'choice' or 'shuffle'
    n: int               # sides of the die, number of choices, or length of the shuffled list
    purpose: str
    value: Any           # int for die/choice, list of indices for shuffle
    source: str          # 'stream', 'moderator' or 'replay'

    def to_json(self) -> dict[str, Any]:
        return {"seq": self.seq, "kind": self.kind, "n": self.n, "purpose": self.purpose,
                "value": self.value, "source": self.source}


def parse_dice(text: str | None) -> list[int]:
    """Parse ``--dice 3,5,1`` into a list of positive integers, with a clear error."""
    if text is None or not text.strip():
        return []
    values = []
    for position, piece in enumerate(text.replace(" ", "").split(","), start=1):
        if not piece.isascii() or not piece.isdigit() or len(piece) > 6 or int(piece) < 1:
            raise ChanceError(f"--dice: item {position} ({piece!r}) is not a positive whole number",
                              hint="give die results separated by commas, e.g. --dice 3,5,1")
        values.append(int(piece))
    return values


class Chance:
    """The chance source of one turn (or of game creation, turn 0)."""

    def __init__(self, key: bytes, turn: int, *, dice: Sequence[int] = (),
                 replay: Sequence[dict[str, Any]] | None = None):
        self._key = key
        self._turn = turn
        self._dice = list(dice)
        self._dice_used = 0
        self._replay = list(replay) if replay is not None else None
        self._prefix: list[dict[str, Any]] = []
        self._counter = 0
        self.outcomes: list[Outcome] = []

    def resume(self, earlier: Sequence[dict[str, Any]]) -> None:
        """Outcomes drawn earlier for a paused piece of play, to be given again (in order, for
        the same purposes) before anything new is drawn: a resumed turn keeps its dice."""
        if self._replay is None:
            self._prefix = list(earlier)

    def mark(self) -> int:
        """A position in the outcomes, to collect what a piece of play drew (``since``)."""
        return len(self.outcomes)

    def since(self, mark: int) -> list[dict[str, Any]]:
        return [o.to_json() for o in self.outcomes[mark:]]

    def _from_prefix(self, kind: str, n: int, purpose: str) -> tuple[bool, Any]:
        if not self._prefix:
            return False, None
        earlier = self._prefix[0]
        if earlier["kind"] != kind or earlier["n"] != n or earlier["purpose"] != purpose:
            raise ChanceError(f"a resumed turn asked for {kind}/{n} for {purpose!r} where it "
                              f"first drew {earlier['kind']}/{earlier['n']} for "
                              f"{earlier['purpose']!r}")
        self._prefix.pop(0)
        self.outcomes.append(Outcome(len(self.outcomes) + 1, kind, n, purpose, earlier["value"],
                                     earlier["source"]))
        return True, earlier["value"]

    # -- the stream ---------------------------------------------------------------------------
    def _below(self, n: int) -> int:
        """A uniform integer in [0, n) from the keyed stream (rejection sampling, no bias)."""
        if n < 1:
            raise ValueError("n must be positive")
        if n == 1:
            return 0
        bits = (n - 1).bit_length()
        while True:
            self._counter += 1
            digest = hmac.new(self._key, f"chance/{self._turn}/{self._counter}".encode(),
                              hashlib.sha256).digest()
            value = int.from_bytes(digest, "big") >> (256 - bits)
            if value < n:
                return value

    def _record(self, kind: str, n: int, purpose: str, value: Any, source: str) -> Any:
        self.outcomes.append(Outcome(len(self.outcomes) + 1, kind, n, purpose, value, source))
        return value

    def _from_replay(self, kind: str, n: int, purpose: str) -> Any:
        index = len(self.outcomes)
        if index >= len(self._replay):
            raise ChanceError(f"replay: the turn asks for outcome {index + 1} ({kind} for "
                              f"{purpose!r}) but only {len(self._replay)} were recorded")
        recorded = self._replay[index]
        if recorded["kind"] != kind or recorded["n"] != n or recorded["purpose"] != purpose:
            raise ChanceError(
                f"replay: outcome {index + 1} was recorded as {recorded['kind']}/{recorded['n']} "
                f"for {recorded['purpose']!r} but the rules now ask for {kind}/{n} for {purpose!r}")
        self.outcomes.append(Outcome(index + 1, kind, n, purpose, recorded["value"],
                                     recorded["source"]))
        return recorded["value"]

    # -- what the rules call ------------------------------------------------------------------
    def roll(self, sides: int, purpose: str) -> int:
        """One die of ``sides`` sides: a supplied die if any is left, else the stream."""
        if self._replay is not None:
            return self._from_replay("die", sides, purpose)
        found, value = self._from_prefix("die", sides, purpose)
        if found:
            return value
        if self._dice_used < len(self._dice):
            value = self._dice[self._dice_used]
            self._dice_used += 1
            if not 1 <= value <= sides:
                raise ChanceError(
                    f"--dice: die {self._dice_used} is {value}, but the roll for {purpose} "
                    f"uses a {sides}-sided die", hint=f"give a value from 1 to {sides}")
            return self._record("die", sides, purpose, value, "moderator")
        return self._record("die", sides, purpose, self._below(sides) + 1, "stream")

    def choice(self, n: int, purpose: str) -> int:
        """An index in [0, n), e.g. a random first player or a card drawn at random."""
        if self._replay is not None:
            return self._from_replay("choice", n, purpose)
        found, value = self._from_prefix("choice", n, purpose)
        if found:
            return value
        return self._record("choice", n, purpose, self._below(n), "stream")

    def shuffle(self, items: Sequence[Any], purpose: str) -> list[Any]:
        """A shuffled copy of ``items``; the permutation is recorded as one outcome."""
        n = len(items)
        found, order = (False, None) if self._replay is not None else \
            self._from_prefix("shuffle", n, purpose)
        if self._replay is not None:
            order = self._from_replay("shuffle", n, purpose)
        elif not found:
            order = list(range(n))
            for i in range(n - 1, 0, -1):
                j = self._below(i + 1)
                order[i], order[j] = order[j], order[i]
            self._record("shuffle", n, purpose, order, "stream")
        return [items[i] for i in order]

    @property
    def unused_dice(self) -> list[int]:
        return self._dice[self._dice_used:]

    def check_replay_complete(self) -> None:
        if self._replay is not None and len(self.outcomes) != len(self._replay):
            raise ChanceError(f"replay: {len(self._replay)} outcomes were recorded but the rules "
                              f"used {len(self.outcomes)}")

    def to_json(self) -> list[dict[str, Any]]:
        return [o.to_json() for o in self.outcomes]


def seed_key(seed: str) -> bytes:
    """The secret key of a game, derived from its seed (the seed is known only to the moderator)."""
    return hashlib.sha256(f"companion-seed:{seed}".encode()).digest()
