"""Questions and answers, dice, and events: the session of one player's turn.

Rules code calls ``session.ask(Question(...))`` whenever a player must choose. The answer comes
from earlier answers of a resumed turn, then the player's orders for this turn, then their
standing orders, then (with ``missing=wait``) the turn pauses, else the documented default. See
``docs/koc-engine.md``.
"""
from __future__ import annotations

import re
from dataclasses import field
from typing import TYPE_CHECKING, Any, Callable, Sequence

from companion.engine.game import edition
from companion.engine.names import fold
from companion.engine.record import record
from companion.koc.engine import knight as kn

if TYPE_CHECKING:
    from companion.koc.engine.game import Game


# ------------------------------------------------------------------------------ questions
@record
class Question:
    """A choice a player must make now."""

    key: str                      # the kind of choice: 'encounter', 'yield', 'fate', ...
    prompt: str                   # what is asked, in words
    options: list[str]            # the legal answers
    default: str                  # taken when nobody answers (documented per key)
    tags: tuple[str, ...] = ()    # the situation: 'monster', 'arthurian', 'town', ...
    values: dict[str, int] = field(default_factory=dict)   # numbers conditions may test

    @property
    def all_tags(self) -> set[str]:
        return {self.key, *self.tags}


class Pause(Exception):
    """Raised when a question needs the player's answer and the game waits for it. ``drawn``:
    how many chance outcomes had been drawn when it was asked (what the turn draws while the
    pause unwinds, in a ``finally`` that tidies up, is not part of the paused turn: s08)."""

    def __init__(self, question: Question, drawn: int | None = None):
        super().__init__(question.prompt)
        self.question = question
        self.drawn = drawn


AT_THE_LIMIT = 3
"""The rules edition from which an award or penalty that changed nothing (the points at their
limit) says so instead of 'gains 0 VP'."""
LUCK_WORDED = 3
"""The rules edition from which a Luck Test reads plainly: "Luck test (recover from madness,
the first of two): rolled 3, needing 4 or more: failure." Before: "... (recover from madness
(first test)): rolled 3 against luck 4: failure." The die's purpose is recorded as before."""
_CONDITION = re.compile(r"^([a-z_]+)(<=|>=|=|<|>)(\d+)$")


def condition_holds(text: str, values: dict[str, int]) -> bool:
    m = _CONDITION.match(text)
    if not m or m.group(1) not in values:
        return False
    value, op, limit = values[m.group(1)], m.group(2), int(m.group(3))
    return {"<=": value <= limit, ">=": value >= limit, "=": value == limit,
            "<": value < limit, ">": value > limit}[op]


def line_matches(line: dict, q: Question) -> bool:
    tags = q.all_tags
    for t in line["tags"]:
        if _CONDITION.match(t):
            if not condition_holds(t, q.values):
                return False
        elif t not in tags:
            return False
    return True


def pick_option(answer: str, options: Sequence[str]) -> str | None:
    """The option an answer names: exact (ignoring case) or a unique beginning."""
    folded = fold(answer)
    exact = [o for o in options if fold(o) == folded]
    if exact:
        return exact[0]
    starts = [o for o in options if fold(o).startswith(folded)]
    return starts[0] if len(starts) == 1 else None


# the encounter reaction charts a Knave under the Mark of the Knave rolls at -1
MARKED_CHARTS = ("animal", "dwarf", "hermit", "king", "knight", "lady", "town_lady", "castle",
                 "merlin")


# ------------------------------------------------------------------------------ the session
class Session:
    """The context of one player's turn (or of a decision another player makes in it)."""

    def __init__(self, game: "Game", player: str, *, prior: Sequence[dict] = (),
                 parent: "Session | None" = None, resumed: bool = False):
        self.game = game
        self.player = player
        self.pk = game.state["knights"][player]
        self.world = game.world
        self.chance = game.chance
        # a session for another player's part in this turn answers through the turn's own
        # session (the root): one record of answers, in the order they were given
        self.root: Session = parent.root if parent is not None else self
        self.prior = list(prior)
        self.answers: list[dict] = []
        self.replaying = resumed
        """A resumed turn, until it meets the question it paused on: what happens up to there
        happens as it did (``prior`` answers it; see ``knaves._ordered``)."""
        self.carried: dict[str, int] = {}
        """The wounds each knight whose player turn this root session plays (the player, a
        joint turn's members, those who waited for a party) had when his turn began, all dealt
        outside it (``turn.luck_phase`` notes them; ``tournaments.OTHER_TURNS_TENDED``)."""
        self.sought: set[tuple[str, str]] = set()
        """The searches (player, persistence memo) made in this root session's player turn:
        only they keep their persistence past its end (``tasks.forget_unsought``)."""

    # -- answers -----------------------------------------------------------------------
    def ask(self, q: Question) -> str:
        if self.root is not self:
            return self.root._answer(self.player, q, active=False)
        return self._answer(self.player, q, active=True)

    def ask_other(self, player: str, q: Question) -> str:
        """A decision of another player during this turn: their orders for this game turn, then
        their standing orders, else the default (the game never waits for a player whose turn
        it is not)."""
        return self.root._answer(player, q, active=player == self.root.player)

    def recorded_next(self, player: str, key: str) -> bool:
        """Whether the next answer a resumed turn replays is ``player``'s to question ``key``
        (asked on the turn's own session, the root)."""
        root = self.root
        if not root.prior:
            return False
        item = root.prior[0]
        return item["key"] == key and item.get("player", root.player) == player

    def _answer(self, player: str, q: Question, active: bool) -> str:
        if q.default not in q.options:
            raise ValueError(f"question {q.key}: default {q.default!r} is not an option")
        if len(q.options) == 1:
            answer, source = q.options[0], "only choice"
        elif self.prior:
            # a resumed turn: every answer given before the pause, in order, whoever gave it
            item = self.prior[0]
            if not self.recorded_next(player, q.key):
                raise RuntimeError(f"resumed turn asked {player} {q.key!r} where it first "
                                   f"asked {item.get('player', self.player)} {item['key']!r}")
            self.prior.pop(0)
            answer, source = item["answer"], item["source"]
        else:
            self.replaying = False      # the question the turn paused on, or one after it
            answer, source = None, None
            orders = self.game.orders.get(player)
            if orders is not None:
                answer = orders.answer(q)
                source = "orders" if answer else None
            if answer is None:
                for line in self.game.state["knights"][player].get("standing", []):
                    if line_matches(line, q):
                        answer = pick_option(line["answer"], q.options)
                        if answer is not None:
                            source = "standing"
                            break
            if answer is None:
                if active and self.game.wait_for_orders:
                    raise Pause(q, self.game.chance.mark())
                answer, source = q.default, "default"
        if source != "only choice":      # a resumed turn meets those again by itself
            self.answers.append({"player": player, "key": q.key, "answer": answer,
                                 "source": source})
        self.game.ctx.decided(player, q.key, answer, source)
        return answer

    def options_rule(self, name: str) -> bool:
        """Whether an optional rule is in force (``--option rules=a,b``)."""
        from companion.koc.kind import RULE_ALIASES

        from companion.koc.scenarios import terms_of

        rules = tuple(self.game.options.get("rules", ())) + \
            tuple(terms_of(self.game.state).get("rules", ()))
        return name in rules or any(RULE_ALIASES.get(r) == name for r in rules)

    def yes(self, q: Question) -> bool:
        return self.ask(q) == "yes"

    # -- dice ------------------------------------------------------------------------------
    def d6(self, purpose: str) -> int:
        return self.chance.roll(6, purpose)

    def dice(self, count: int, purpose: str, sides: int = 6) -> list[int]:
        return [self.chance.roll(sides, purpose) for _ in range(count)]

    def luck_test(self, purpose: str, bonus: int = 0, *, said: str | None = None) -> bool:
        """One die against the Luck-of-the-Day: success on the luck or more. ``said``: the
        purpose as the report words it from rules edition 3 (LUCK_WORDED), if not ``purpose``
        (which the die's record keeps in every edition)."""
        luck = self.pk["luck"] if self.pk["luck"] is not None else 4
        if "life_of_misfortune" in (kn.knave_rec(self.pk) or {}).get("curses", ()):
            bonus -= 1          # KNAVES: the Life of Misfortune curse
        roll = self.d6(f"luck test: {purpose}")
        ok = roll + bonus >= luck
        extra = f"{bonus:+d}" if bonus else ""
        outcome = "success" if ok else "failure"
        if edition(self.game.state) < LUCK_WORDED:
            self.note(f"Luck test ({purpose}): rolled {roll}{extra} against luck {luck}: "
                      f"{outcome}.")
            return ok
        rolled = f"{roll}{extra} = {roll + bonus}" if bonus else f"{roll}"
        self.note(f"Luck test ({said or purpose}): rolled {rolled}, needing {luck} or more: "
                  f"{outcome}.")
        return ok

    def vl_test(self, vl: int, purpose: str, who: str | None = None) -> bool:
        """One die against a VL: success on the VL or more."""
        roll = self.d6(f"VL test: {purpose}")
        ok = roll >= vl
        self.note(f"VL test of {who or self.pk['name']} ({purpose}): rolled {roll} against VL "
                  f"{vl}: {'success' if ok else 'failure'}.")
        return ok

    def vl_check(self, vl: int, purpose: str, who: str | None = None, bonus: int = 0) -> bool:
        """Two dice against a VL: success on the VL or more."""
        a, b = self.dice(2, f"VL check: {purpose}")
        ok = a + b + bonus >= vl
        extra = f"+{bonus}" if bonus else ""
        self.note(f"VL check of {who or self.pk['name']} ({purpose}): rolled {a}+{b}{extra} "
                  f"against {vl}: {'success' if ok else 'failure'}.")
        return ok

    def chart(self, name: str, *, modifier: int = 0, purpose: str | None = None,
              optional: bool = False):
        """Roll on a world chart; the result is noted with its dice and entry."""
        chart = self.world.charts[name]
        what = purpose or chart.title
        if name in MARKED_CHARTS and "mark_of_the_knave" in \
                (kn.knave_rec(self.pk) or {}).get("curses", ()):
            modifier -= 1       # KNAVES: the Mark of the Knave curse
            what += " (-1, the Mark of the Knave)"
        result = chart.roll(lambda sides: self.chance.roll(sides, f"{what}"), modifier=modifier,
                            optional=optional)
        self.note(result.text())
        return result

    # -- events ------------------------------------------------------------------------
    def witnesses(self) -> list[str]:
        """The players who see what happens to this knight now: himself and every PK in the
        same place (encounter area and the same side of a castle gate or aboard)."""
        here = self.pk["at"]
        out = [self.player]
        for other, rec in self.game.state["knights"].items():
            if other != self.player and not rec["slain"] and rec["at"] == here:
                out.append(other)
        return out

    def note(self, text: str) -> None:
        """Something that happened, seen by the witnesses."""
        self.game.ctx.event(text, to=self.witnesses(), kind="koc")

    def tell(self, text: str) -> None:
        """Something only this player learns (a secret, a private reckoning)."""
        self.game.ctx.event(text, to=[self.player], kind="koc")

    def announce(self, text: str) -> None:
        """News for every player (a tournament, the Merlin counter on the map)."""
        self.game.ctx.event(text, kind="koc")

    # -- awards ----------------------------------------------------------------------------
    def award(self, what: str, totals: str) -> None:
        """An award witnessed: everyone present sees what he gained or lost and why; his new
        totals are his own Adventure Journal's (private), told to him alone. Games begun before
        edition 2 told the witnesses the totals too."""
        if edition(self.game.state) < 2:
            self.note(f"{what}; {totals}.")
            return
        others = [p for p in self.witnesses() if p != self.player]
        if others:
            self.game.ctx.event(f"{what}.", to=others, kind="koc")
        self.tell(f"{what}; {totals}.")

    def _change(self, amount: int, done: int, points: str, why: str) -> str:
        """What an award or penalty did: 'Anna gains 6 VP (why)'. From rules edition 3 one that
        changed nothing, the points being at their limit (at least 1 VP and 10 CP, at most 300
        CP: rules, GLOSSARY and Faerie), says so; before, it read 'gains 0 VP'."""
        name = self.pk["name"]
        if done == 0 and edition(self.game.state) >= AT_THE_LIMIT:
            if amount < 0:
                least = kn.VP_MIN if points == "VP" else kn.CP_MIN
                return f"{name} loses no {points} ({why}): {least} {points} is the least a " \
                    "knight may have"
            return f"{name} gains no {points} ({why}): {kn.CP_MAX} CP is the most a knight " \
                "may have"
        verb = "gains" if done >= 0 else "loses"
        return f"{name} {verb} {abs(done)} {points} ({why})"

    def gain_vp(self, amount: int, why: str) -> None:
        if amount == 0 or self.pk.get("mad"):
            return
        done = kn.add_vp(self.pk, amount)
        self.award(self._change(amount, done, "VP", why),
                   f"VP {self.pk['vp']}, VL {kn.vl(self.pk)}")

    def gain_cp(self, amount: int, why: str) -> None:
        if amount == 0 or self.pk.get("mad"):
            return
        done = kn.add_cp(self.pk, amount)
        self.award(self._change(amount, done, "CP", why),
                   f"CP {self.pk['cp']}, WL {kn.wl(self.pk)}, VL {kn.vl(self.pk)}")
        if done < 0 and kn.knave_rec(self.pk) is not None:     # KNAVES: Knave Combat
            self.tell(f"The {-done} CP become Scoundrel Points; SP "
                      f"{self.pk['knave']['sp']}.")
