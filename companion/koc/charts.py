"""Dice tables as data: parsing, validation, lookup by explicit dice, and the chart roller.

A chart is rolled in *stages*. The first stage is usually the pair of dice ("2d6") or one die
("d6"); a result may ask for a further die (the odd die of the deployment charts, the second
die of the adventure list). Each entry gives the range of every stage it needs, written
``"7/1/2-4"``: a total of 7, then a 1, then 2 to 4.

Nothing here draws random numbers. A caller either passes the dice (``Chart.resolve``) or a
``roll(sides) -> int`` callable (``Chart.roll``) that the engine backs with its chance stream;
``Chart.roll`` asks for exactly the dice the result needs, stage by stage.

The first stage may carry a modifier (a reaction bonus, the victor's VL on the Knight's Fate
chart); charts that allow this declare ``totals = [low, high]`` and a modified total outside
that range counts as the nearest end ("12 or more").
"""
from __future__ import annotations

import re
from dataclasses import field
from typing import Any, Callable, Iterable, Mapping, Sequence

from companion.engine.record import record
from companion.errors import CompanionError

DIE_RE = re.compile(r"^(\d*)d(\d+)$")
SPAN_RE = re.compile(r"^\s*(\d+)\s*(?:[-\u2013]\s*(\d+))?\s*$")
KEY_RE = re.compile(r"^[a-z][a-z0-9]*(?:_[a-z0-9]+)*$")
AMOUNT_RE = re.compile(r"^(?:\d+(?:-\d+)?|\d*d\d+(?:[+-]\d+)?|\d+\+d\d+|die|wl|wls)$")

MAX_LABEL = 48

# Optional values an entry may carry: key -> accepted Python types.
ENTRY_VALUES: dict[str, tuple[type, ...]] = {
    "vp": (int, str), "cp": (int, str), "vp_loss": (int,), "cp_loss": (int, str),
    "count": (int, str), "wl": (int, str), "turns": (int, str), "modifier": (int,),
    "bonus": (int,), "moves": (int,), "seduction": (int,), "per": (str,), "max": (int,),
    "chart": (str,), "draw": (str,), "refusable": (bool,), "npk_choice": (bool,),
    "shareable": (bool,), "site": (str,), "area": (str,), "kingdom": (str,),
    "castellany": (str,),
}
ENTRY_KEYS = ("roll", "key", "label", "note", "optional", *ENTRY_VALUES)
AMOUNT_KEYS = ("vp", "cp", "cp_loss", "count", "wl", "turns")
PER_VALUES = ("wound", "turn")
DRAW_VALUES = ("monster", "animal", "brigand", "ship", "knight_card", "king_card", "lady_card")
SITE_VALUES = ("local", "local_castle", "local_royal_castle", "random_area", "random_castle",
               "random_royal_castle", "random_shrine", "named", "own_castle", "with_knight",
               "random_wasteland", "rolled")


@record(frozen=True)
class Die:
    """One stage of a chart: ``count`` dice of ``sides`` sides, added together."""

    count: int
    sides: int

    @classmethod
    def parse(cls, text: str) -> "Die":
        m = DIE_RE.match(text.strip())
        if not m:
            raise ValueError(f"'{text}' is not a die (write d6, 2d6 or d8)")
        count = int(m.group(1) or 1)
        sides = int(m.group(2))
        if not 1 <= count <= 3 or sides not in (3, 4, 6, 8, 10, 12, 20):
            raise ValueError(f"'{text}' is not a die this game uses")
        return cls(count, sides)

    @property
    def low(self) -> int:
        return self.count

    @property
    def high(self) -> int:
        return self.count * self.sides

    def __str__(self) -> str:
        return f"{self.count if self.count > 1 else ''}d{self.sides}"


@record(frozen=True, order=True)
class Span:
    """An inclusive range of totals, e.g. 6-8."""

    lo: int
    hi: int

    @classmethod
    def parse(cls, text: str) -> "Span":
        m = SPAN_RE.match(text)
        if not m:
            raise ValueError(f"'{text}' is not a roll range (write 7 or 6-8)")
        lo = int(m.group(1))
        hi = int(m.group(2)) if m.group(2) else lo
        if hi < lo:
            raise ValueError(f"'{text}' runs backwards")
        return cls(lo, hi)

    def __contains__(self, value: int) -> bool:
        return self.lo <= value <= self.hi

    def __str__(self) -> str:
        return str(self.lo) if self.lo == self.hi else f"{self.lo}-{self.hi}"


def parse_roll(text: str) -> tuple[Span, ...]:
    if not isinstance(text, str) or not text.strip():
        raise ValueError("a roll must be a text such as \"7\" or \"7/1/2-4\"")
    return tuple(Span.parse(part) for part in text.split("/"))


def roll_text(roll: Sequence[Span]) -> str:
    return "/".join(str(s) for s in roll)


@record(frozen=True)
class Entry:
    """One result of a chart."""

    roll: tuple[Span, ...]
    key: str
    label: str
    values: Mapping[str, Any] = field(default_factory=dict)
    note: str | None = None
    optional: bool = False

    @property
    def roll_text(self) -> str:
        return roll_text(self.roll)

    def get(self, name: str, default: Any = None) -> Any:
        return self.values.get(name, default)

    def to_json(self, chart: "Chart | None" = None) -> dict[str, Any]:
        out: dict[str, Any] = {
            "roll": self.roll_text,
            "ranges": [[s.lo, s.hi] for s in self.roll],
            "key": self.key,
            "label": self.label,
        }
        if chart is not None:
            out["shown"] = chart.shown_roll(self)
        for name in ENTRY_VALUES:
            if name in self.values:
                out[name] = self.values[name]
        if self.optional:
            out["optional"] = True
        if self.note:
            out["note"] = self.note
        return out


@record(frozen=True)
class Modifier:
    """A modifier a chart's roll may take (its key, value and label)."""

    key: str
    value: int
    label: str


@record(frozen=True)
class Chart:
    """A chart (``charts.toml`` and the other chart files): its dice and entries."""

    name: str
    title: str
    group: str
    dice: tuple[Die, ...]
    entries: tuple[Entry, ...]
    optional_dice: tuple[Die, ...] | None = None
    totals: tuple[int, int] | None = None
    open_top: bool = False
    optional: bool = False
    modifiers: tuple[Modifier, ...] = ()
    note: str | None = None

    # ---- description -----------------------------------------------------------------
    def stages(self, optional: bool = False) -> tuple[Die, ...]:
        """The die of each stage; ``optional`` selects the optional-rule dice (adventures)."""
        if optional and self.optional_dice:
            return self.optional_dice
        return self.dice

    def usable_entries(self, optional: bool = False) -> tuple[Entry, ...]:
        if optional and self.optional_dice:
            return self.entries
        return tuple(e for e in self.entries if not (e.optional and self.optional_dice))

    def dice_needed(self, optional: bool = False) -> dict[str, Any]:
        """How many dice a roll takes: {'stages': ['2d6', 'd6'], 'min': 2, 'max': 3}."""
        stages = self.stages(optional)
        entries = self.usable_entries(optional)
        depths = [len(e.roll) for e in entries] or [1]
        lo = sum(d.count for d in stages[: min(depths)])
        hi = sum(d.count for d in stages[: max(depths)])
        return {"stages": [str(d) for d in stages[: max(depths)]], "min": lo, "max": hi}

    def describe_dice(self, optional: bool = False) -> str:
        stages = self.stages(optional)
        need = self.dice_needed(optional)
        first = str(stages[0])
        if len(need["stages"]) == 1:
            text = first
        else:
            more = ", ".join(need["stages"][1:])
            text = f"{first}, then {more} where a result calls for it"
        if self.totals:
            text += f" (modified totals count as {self.totals[0]}-{self.totals[1]})"
        return text

    def shown_roll(self, entry: Entry) -> str:
        """The roll as printed on a reference chart ("12+" for an open top)."""
        parts = [str(s) for s in entry.roll]
        if self.open_top and self.totals and entry.roll[0].hi == self.totals[1]:
            parts[0] = f"{entry.roll[0].lo}+" if entry.roll[0].lo == entry.roll[0].hi else f"{parts[0]}+"
        return "/".join(parts)

    def rows(self, optional: bool = False) -> list[tuple[str, str]]:
        """(roll, label) pairs in chart order, for printed reference charts."""
        return [(self.shown_roll(e), e.label) for e in self.usable_entries(optional)]

    def entry(self, key: str) -> Entry:
        for e in self.entries:
            if e.key == key:
                return e
        raise KeyError(f"chart {self.name!r} has no entry {key!r}")

    # ---- lookup ----------------------------------------------------------------------
    def _first_total(self, raw: int, modifier: int) -> int:
        total = raw + modifier
        if self.totals:
            total = max(self.totals[0], min(self.totals[1], total))
        return total

    def resolve(self, dice: Sequence[int], modifier: int = 0, optional: bool = False) -> "Resolution":
        """Look up the result of the given dice (all stages in order, pair dice first)."""
        dice = list(dice)
        stages = self.stages(optional)
        candidates = list(self.usable_entries(optional))
        pos = 0
        groups: list[tuple[int, ...]] = []
        totals: list[int] = []
        for depth, die in enumerate(stages):
            if pos + die.count > len(dice):
                need = ", ".join(str(d) for d in stages[depth:])
                raise CompanionError(
                    f"chart '{self.name}' needs more dice: {len(dice)} given",
                    hint=f"this result needs {die} next (the rest of the chart uses {need})",
                )
            group = tuple(dice[pos: pos + die.count])
            pos += die.count
            for value in group:
                if not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= die.sides:
                    raise CompanionError(
                        f"chart '{self.name}': {value!r} is not a roll of a d{die.sides}",
                        hint=f"stage {depth + 1} uses {die}",
                    )
            raw = sum(group)
            total = self._first_total(raw, modifier) if depth == 0 else raw
            groups.append(group)
            totals.append(total)
            candidates = [e for e in candidates if len(e.roll) > depth and total in e.roll[depth]]
            done = [e for e in candidates if len(e.roll) == depth + 1]
            if done:
                if pos != len(dice):
                    raise CompanionError(
                        f"chart '{self.name}': too many dice ({len(dice)} given, {pos} used)",
                        hint=f"the result was decided after {pos} dice",
                    )
                return Resolution(self, done[0], tuple(groups), tuple(totals), modifier)
            if not candidates:
                break
        raise CompanionError(f"chart '{self.name}' has no result for dice {dice}")

    def roll(self, roll: Callable[[int], int], modifier: int = 0, optional: bool = False) -> "Resolution":
        """Roll with ``roll(sides)``, asking only for the dice the result needs."""
        stages = self.stages(optional)
        dice: list[int] = []
        candidates = list(self.usable_entries(optional))
        for depth, die in enumerate(stages):
            for _ in range(die.count):
                value = roll(die.sides)
                if not isinstance(value, int) or not 1 <= value <= die.sides:
                    raise ValueError(f"roll({die.sides}) returned {value!r}")
                dice.append(value)
            total = sum(dice[len(dice) - die.count:])
            if depth == 0:
                total = self._first_total(total, modifier)
            candidates = [e for e in candidates if len(e.roll) > depth and total in e.roll[depth]]
            if any(len(e.roll) == depth + 1 for e in candidates):
                return self.resolve(dice, modifier, optional)
        return self.resolve(dice, modifier, optional)

    def outcomes(self, optional: bool = False) -> Iterable[tuple[tuple[int, ...], Entry]]:
        """Every distinct way of rolling the chart (unmodified): (dice, entry)."""
        stages = self.stages(optional)

        def faces(die: Die):
            combos: list[tuple[int, ...]] = [()]
            for _ in range(die.count):
                combos = [c + (v,) for c in combos for v in range(1, die.sides + 1)]
            return combos

        def walk(prefix: tuple[int, ...], depth: int, candidates: list[Entry]):
            for group in faces(stages[depth]):
                total = sum(group)
                here = [e for e in candidates if len(e.roll) > depth and total in e.roll[depth]]
                done = [e for e in here if len(e.roll) == depth + 1]
                if done:
                    yield prefix + group, done[0]
                elif here and depth + 1 < len(stages):
                    yield from walk(prefix + group, depth + 1, here)
                else:
                    raise ValueError(f"chart {self.name}: dice {prefix + group} reach no result")

        yield from walk((), 0, list(self.usable_entries(optional)))

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "name": self.name,
            "title": self.title,
            "group": self.group,
            "dice": [str(d) for d in self.dice],
            "dice_text": self.describe_dice(),
        }
        if self.optional_dice:
            out["optional_dice"] = [str(d) for d in self.optional_dice]
        if self.totals:
            out["totals"] = list(self.totals)
        if self.open_top:
            out["open_top"] = True
        if self.optional:
            out["optional"] = True
        if self.modifiers:
            out["modifiers"] = [{"key": m.key, "value": m.value, "label": m.label} for m in self.modifiers]
        if self.note:
            out["note"] = self.note
        out["entries"] = [e.to_json(self) for e in self.entries]
        return out


@record(frozen=True)
class Resolution:
    """The outcome of a roll on a chart: which dice, which totals, which entry."""

    chart: Chart
    entry: Entry
    groups: tuple[tuple[int, ...], ...]
    totals: tuple[int, ...]
    modifier: int = 0

    @property
    def dice(self) -> tuple[int, ...]:
        return tuple(v for g in self.groups for v in g)

    def text(self) -> str:
        return format_resolution(self)

    def to_json(self) -> dict[str, Any]:
        return {
            "chart": self.chart.name,
            "dice": list(self.dice),
            "totals": list(self.totals),
            "modifier": self.modifier,
            "entry": self.entry.to_json(self.chart),
            "text": self.text(),
        }


def format_resolution(res: Resolution) -> str:
    """'Countryside encounters: 3+4 = 7 -> Knights riding (1-6) [knights]' style text."""
    parts = []
    for depth, group in enumerate(res.groups):
        raw = sum(group)
        piece = "+".join(str(v) for v in group)
        if len(group) > 1:
            piece += f" = {raw}"
        if depth == 0 and res.modifier:
            sign = "+" if res.modifier > 0 else "-"
            piece += f" {sign}{abs(res.modifier)} = {raw + res.modifier}"
            if res.totals[0] != raw + res.modifier:
                piece += f" (counts as {res.totals[0]})"
        parts.append(piece)
    label = res.entry.label
    count = res.entry.get("count")
    if isinstance(count, str) and count != "die" and count not in label:
        label += f" ({count})"
    return f"{res.chart.title}: {', '.join(parts)} -> {label} [{res.entry.key}]"


# ---------------------------------------------------------------------------------------
# parsing and validation (structure only; names of areas and charts are checked by world.py)
# ---------------------------------------------------------------------------------------

def check_coverage(chart_name: str, stages: Sequence[Die], entries: Sequence[Entry],
                   totals: tuple[int, int] | None) -> list[tuple[str, Entry | None]]:
    """Problems with how ``entries`` cover the dice: (message, entry to point at)."""
    problems: list[tuple[str, Entry | None]] = []

    def domain(depth: int) -> tuple[int, int]:
        die = stages[depth]
        if depth == 0 and totals:
            return totals
        return die.low, die.high

    def walk(prefix: tuple[Span, ...], depth: int, group: list[Entry]):
        where = f" after {roll_text(prefix)}" if prefix else ""
        if depth >= len(stages):
            for e in group:
                problems.append((f"roll '{e.roll_text}' has more stages than the chart's dice "
                                 f"({', '.join(str(d) for d in stages)})", e))
            return
        lo, hi = domain(depth)
        spans = sorted({e.roll[depth] for e in group})
        for s in spans:
            if s.lo < lo or s.hi > hi:
                e = next(x for x in group if x.roll[depth] == s)
                problems.append((f"range {s}{where} lies outside {lo}-{hi} ({stages[depth]})", e))
        covered: dict[int, Span] = {}
        for s in spans:
            for v in range(max(s.lo, lo), min(s.hi, hi) + 1):
                if v in covered:
                    e = next(x for x in group if x.roll[depth] == s)
                    problems.append((f"ranges {covered[v]} and {s}{where} overlap at {v}", e))
                    break
                covered[v] = s
        missing = [v for v in range(lo, hi + 1) if v not in covered]
        if missing:
            problems.append((f"no result for {_runs(missing)}{where} ({stages[depth]})",
                             group[0] if group else None))
        for s in spans:
            sub = [e for e in group if e.roll[depth] == s]
            leaves = [e for e in sub if len(e.roll) == depth + 1]
            deeper = [e for e in sub if len(e.roll) > depth + 1]
            if len(leaves) > 1:
                problems.append((f"roll '{leaves[1].roll_text}' appears twice", leaves[1]))
            if leaves and deeper:
                problems.append((f"roll '{roll_text(prefix + (s,))}' is both a result and the start "
                                 f"of '{deeper[0].roll_text}'", deeper[0]))
            elif deeper:
                walk(prefix + (s,), depth + 1, deeper)

    if not entries:
        problems.append((f"chart '{chart_name}' has no entries", None))
        return problems
    walk((), 0, list(entries))
    return problems


def _runs(values: list[int]) -> str:
    out = []
    start = prev = values[0]
    for v in values[1:] + [None]:  # type: ignore[list-item]
        if v is not None and v == prev + 1:
            prev = v
            continue
        out.append(str(start) if start == prev else f"{start}-{prev}")
        if v is not None:
            start = prev = v
    return ", ".join(out)
