"""Chance outcomes of a turn that may pause and be re-run (the card games' rule runners).

A paused turn is resumed by running it again from its start: the chance outcomes drawn before
the pause must come back the same. A runner keeps them in ``chance_log`` (recorded in the
paused state) with a read position ``ci``, and draws new ones from ``chance`` (the turn's
:class:`companion.engine.chance.Chance`) only past the end of the log.
"""
from __future__ import annotations

from typing import Any


class ReplayedChance:
    """Mixin: ``shuffle`` and ``pick`` over ``self.chance``, ``self.chance_log``, ``self.ci``."""

    chance: Any
    chance_log: list[dict[str, Any]]
    ci: int

    def shuffle(self, items: list[str], purpose: str) -> list[str]:
        if self.ci < len(self.chance_log):
            rec = self.chance_log[self.ci]
            self.ci += 1
            return [items[i] for i in rec["v"]]
        order = self.chance.shuffle(list(range(len(items))), purpose)
        self.chance_log.append({"k": "shuffle", "v": order})
        self.ci += 1
        return [items[i] for i in order]

    def pick(self, n: int, purpose: str) -> int:
        if self.ci < len(self.chance_log):
            rec = self.chance_log[self.ci]
            self.ci += 1
            return rec["v"]
        value = self.chance.choice(n, purpose)
        self.chance_log.append({"k": "choice", "v": value})
        self.ci += 1
        return value
