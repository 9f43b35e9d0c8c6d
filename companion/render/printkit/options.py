"""Print options: parsing what the user types (``--card 63x88``, ``--back-offset 0.5,-1``) and the
``PrintOptions`` value the command line hands to :func:`build_kit`.

Pure Python: importing this module does not load reportlab.  Every parser raises
:class:`companion.errors.UsageError` naming the option, what is wrong and the accepted forms.
"""
from __future__ import annotations

import math
import re
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Sequence

from companion.engine.words import counted
from companion.errors import UsageError
from companion.render.printkit.units import A4, CARD_SIZES, PAPERS, CardSize, Paper

BACKS = ("none", "duplex-long", "duplex-short", "fold")
"""How backs are printed: not at all; on the reverse of each sheet for printers that flip on
the long edge (columns mirrored) or on the short edge (rows mirrored); or beside the fronts on
the same sheet, to be folded over and glued."""

_BACK_ALIASES = {
    "no": "none", "off": "none", "long": "duplex-long", "duplex": "duplex-long",
    "long-edge": "duplex-long", "duplex-long-edge": "duplex-long", "short": "duplex-short",
    "short-edge": "duplex-short", "duplex-short-edge": "duplex-short", "fold-over": "fold",
    "foldover": "fold",
}
_CARD_ALIASES = {
    "mini-european": "mini-euro", "minieuro": "mini-euro", "mini-american": "mini-usa",
    "mini-us": "mini-usa", "miniusa": "mini-usa", "standard": "poker", "euro-mini": "mini-euro",
}
_PAPER_ALIASES = {"us-letter": "letter", "usletter": "letter", "us": "letter", "ltr": "letter"}

MIN_MARGIN_MM = 8.0
"""Home printers cannot print to the edge: nothing is placed closer than this to the paper edge."""
MAX_BLEED_MM = 10.0
MAX_BACK_OFFSET_MM = 20.0
MIN_CARD_MM = 10.0
MAX_CARD_MM = 400.0

_CARD_FORMS = (f"a size name ({', '.join(CARD_SIZES)}) or width x height in millimetres, "
               "e.g. 63x88 or 63.5x88")
_NUMBER = r"[+-]?(?:\d+(?:\.\d*)?|\.\d+)"


def _key(text: str) -> str:
    return re.sub(r"[\s_]+", "-", text.strip().lower())


def _did_you_mean(word: str, choices) -> str:
    import difflib

    close = difflib.get_close_matches(word, list(choices), n=1, cutoff=0.5)
    return f"did you mean '{close[0]}'? " if close else ""


def parse_paper(text: str) -> Paper:
    """``a4`` or ``letter`` (case ignored)."""
    key = _key(text or "")
    key = _PAPER_ALIASES.get(key, key)
    if key in PAPERS:
        return PAPERS[key]
    raise UsageError(f"--paper '{text}': unknown paper size",
                     hint=f"{_did_you_mean(key, PAPERS)}accepted: {', '.join(PAPERS)}")


def parse_card_size(text: str) -> CardSize:
    """A named card size (``poker``, ``bridge``, ``tarot``, ``mini-euro``, ``mini-usa``) or a
    custom size ``WxH`` in millimetres (``63x88``, ``63.5 x 88 mm``, ``63×88``)."""
    raw = text or ""
    key = _key(raw)
    key = _CARD_ALIASES.get(key, key)
    if key in CARD_SIZES:
        return CARD_SIZES[key]
    body = re.sub(r"\s+", "", raw.lower())
    body = body[:-2] if body.endswith("mm") else body
    if not re.search(r"\d", body):
        raise UsageError(f"--card '{raw}': unknown card size",
                         hint=f"{_did_you_mean(key, CARD_SIZES)}give {_CARD_FORMS}")
    parts = re.split(r"[x×*]", body)
    if len(parts) != 2:
        raise UsageError(f"--card '{raw}': expected two numbers separated by 'x'",
                         hint=f"give {_CARD_FORMS}")
    names = ("width", "height")
    values = []
    for name, part in zip(names, parts):
        if part == "":
            raise UsageError(f"--card '{raw}': the {name} is missing", hint=f"give {_CARD_FORMS}")
        if "," in part:
            raise UsageError(f"--card '{raw}': write decimals with a point, not a comma",
                             hint=f"give {_CARD_FORMS}")
        if not re.fullmatch(_NUMBER, part):
            raise UsageError(f"--card '{raw}': the {name} '{part}' is not a number",
                             hint=f"give {_CARD_FORMS}")
        value = float(part)
        if not (MIN_CARD_MM <= value <= MAX_CARD_MM):
            raise UsageError(
                f"--card '{raw}': a {name} of {value:g} mm is outside {MIN_CARD_MM:g}..{MAX_CARD_MM:g} mm",
                hint=f"give {_CARD_FORMS}")
        values.append(value)
    return CardSize(values[0], values[1])


def _parse_mm(option: str, text: str, low: float, high: float, example: str) -> float:
    raw = str(text).strip()
    body = raw.lower()
    body = body[:-2].strip() if body.endswith("mm") else body
    if "," in body and re.fullmatch(r"\d+,\d+", body):
        raise UsageError(f"{option} '{raw}': write decimals with a point, not a comma",
                         hint=f"for example {option} {example}")
    if not re.fullmatch(_NUMBER, body):
        raise UsageError(f"{option} '{raw}': not a number of millimetres",
                         hint=f"for example {option} {example}")
    value = float(body)
    if not (low <= value <= high):
        raise UsageError(f"{option} '{raw}': must be between {low:g} and {high:g} mm",
                         hint=f"for example {option} {example}")
    return value


def parse_bleed(text: str | float) -> float:
    """Bleed in millimetres, 0 to 10 (``3``, ``3mm``, ``2.5``)."""
    return _parse_mm("--bleed", text, 0.0, MAX_BLEED_MM, "3")


def parse_margin(text: str | float) -> float:
    """Safe margin in millimetres, at least 8."""
    return _parse_mm("--margin", text, MIN_MARGIN_MM, 40.0, "10")


def parse_gap(text: str | float) -> float:
    """Gap between cards in millimetres, 0 to 20."""
    return _parse_mm("--gap", text, 0.0, 20.0, "2")


def parse_back_offset(text: str) -> tuple[float, float]:
    """``X,Y`` in millimetres (``0.5,-1``; spaces and a trailing ``mm`` allowed).

    Positive X moves the backs to the right and positive Y moves them up, as seen when looking
    at the front of the sheet (holding it against the light).  The calibration sheet prints the
    value to type.
    """
    raw = str(text).strip()
    body = raw.lower().replace("mm", "")
    hint = ("give X,Y in millimetres, e.g. --back-offset 0.5,-1 (X moves the backs right, "
            "Y moves them up, as seen from the front; print 'companion print calibrate' to "
            "measure them)")
    parts = [p for p in re.split(r"\s*[,;]\s*|\s+", body.strip()) if p != ""] if body.strip() else []
    if len(parts) != 2:
        what = "is empty" if not parts else f"has {counted(len(parts), 'number')}, expected 2"
        raise UsageError(f"--back-offset '{raw}' {what}", hint=hint)
    values = []
    for name, part in zip("XY", parts):
        if not re.fullmatch(_NUMBER, part):
            raise UsageError(f"--back-offset '{raw}': {name} '{part}' is not a number", hint=hint)
        value = float(part)
        if abs(value) > MAX_BACK_OFFSET_MM:
            raise UsageError(
                f"--back-offset '{raw}': {name} = {value:g} mm is more than {MAX_BACK_OFFSET_MM:g} mm",
                hint=hint)
        values.append(value + 0.0)  # turn -0.0 into 0.0
    return (values[0], values[1])


def parse_backs(text: str) -> str:
    """``none``, ``duplex-long``, ``duplex-short`` or ``fold``."""
    key = _key(text or "")
    key = _BACK_ALIASES.get(key, key)
    if key in BACKS:
        return key
    raise UsageError(
        f"--backs '{text}': unknown way of printing backs",
        hint=(f"{_did_you_mean(key, BACKS)}accepted: none, duplex-long (printer flips on the long "
              "edge), duplex-short (flips on the short edge), fold (fronts and backs side by side, "
              "fold and glue)"))


def parse_reprint(names: Sequence[str]) -> tuple[str, ...]:
    """The names given with --reprint (each option one name: names may hold commas)."""
    out = tuple(" ".join(str(n).split()) for n in names)
    if any(not n for n in out):
        raise UsageError("--reprint needs the name of a card or chit",
                         hint="for example --reprint \"Holy Hand Grenade of Antioch\"")
    return out


def parse_only(text: str | None) -> tuple[str, ...]:
    """A comma-separated list of part kinds or part names (``cards,chits``); empty means all.

    The names are checked against the kit when it is built (:func:`select_parts`)."""
    if text is None:
        return ()
    items = [_key(p) for p in re.split(r"[,\s]+", str(text)) if p.strip()]
    if not items:
        raise UsageError(f"--only '{text}': name at least one part",
                         hint="for example --only cards or --only cards,chits")
    return tuple(dict.fromkeys(items))


@dataclass(frozen=True)
class PrintOptions:
    """Everything that decides how a kit is printed.  Build it from option strings with
    :meth:`from_strings` (the command line) or directly (tests, games)."""

    paper: Paper = A4
    card: CardSize | None = None
    """Card size for every deck; ``None`` keeps each deck's own size (poker unless it says)."""
    bleed_mm: float = 0.0
    crop_marks: bool = True
    cut_lines: bool = False
    backs: str = "none"
    back_offset_mm: tuple[float, float] = (0.0, 0.0)
    only: tuple[str, ...] = ()
    reprint: tuple[str, ...] = ()
    """Names of cards or chits to print alone, one copy per mention (a lost or worn piece)."""
    out: Path | None = None
    margin_mm: float = MIN_MARGIN_MM
    gap_mm: float = 0.0
    rotate: bool = True
    """Allow turning cards sideways on the sheet when more of them fit that way."""
    extra: dict = field(default_factory=dict, compare=False, hash=False)
    """Free-form settings a game may read (not used by the machinery)."""

    def __post_init__(self):
        if self.backs not in BACKS:
            raise UsageError(f"backs '{self.backs}' unknown", hint=f"accepted: {', '.join(BACKS)}")
        if not (0 <= self.bleed_mm <= MAX_BLEED_MM) or math.isnan(self.bleed_mm):
            raise UsageError(f"bleed {self.bleed_mm:g} mm outside 0..{MAX_BLEED_MM:g} mm")
        if self.margin_mm < MIN_MARGIN_MM or math.isnan(self.margin_mm):
            raise UsageError(f"safe margin {self.margin_mm:g} mm is less than {MIN_MARGIN_MM:g} mm",
                             hint="home printers cannot print near the paper edge")
        if not (0 <= self.gap_mm <= 20) or math.isnan(self.gap_mm):
            raise UsageError(f"gap {self.gap_mm:g} mm outside 0..20 mm")
        if len(self.back_offset_mm) != 2 or any(abs(v) > MAX_BACK_OFFSET_MM for v in self.back_offset_mm):
            raise UsageError(f"back offset {self.back_offset_mm} must be two numbers within "
                             f"±{MAX_BACK_OFFSET_MM:g} mm")
        if self.out is not None and not isinstance(self.out, Path):
            object.__setattr__(self, "out", Path(self.out))

    @classmethod
    def from_strings(cls, *, paper: str = "a4", card: str | None = None, bleed: str | float = "0",
                     crop_marks: bool = True, cut_lines: bool = False, backs: str = "none",
                     back_offset: str | None = None, only: str | None = None,
                     out: str | Path | None = None, margin: str | float | None = None,
                     gap: str | float | None = None, rotate: bool = True,
                     reprint: Sequence[str] = ()) -> "PrintOptions":
        """Options as typed on the command line; each bad value raises a ``UsageError``."""
        return cls(
            paper=parse_paper(paper),
            card=parse_card_size(card) if card not in (None, "") else None,
            bleed_mm=parse_bleed(bleed),
            crop_marks=bool(crop_marks),
            cut_lines=bool(cut_lines),
            backs=parse_backs(backs),
            back_offset_mm=parse_back_offset(back_offset) if back_offset not in (None, "") else (0.0, 0.0),
            only=parse_only(only),
            reprint=parse_reprint(reprint),
            out=Path(out) if out not in (None, "") else None,
            margin_mm=parse_margin(margin) if margin is not None else MIN_MARGIN_MM,
            gap_mm=parse_gap(gap) if gap is not None else 0.0,
            rotate=rotate,
        )

    def with_(self, **changes) -> "PrintOptions":
        return replace(self, **changes)

    def describe(self) -> str:
        """One line for the PDF subject and cover: paper, card size, backs, bleed, offset."""
        bits = [self.paper.label]
        if self.card is not None:
            bits.append(f"cards {self.card.label}")
        bits.append(f"backs {self.backs}")
        bits.append(f"bleed {self.bleed_mm:g} mm")
        if self.back_offset_mm != (0.0, 0.0):
            bits.append(f"back offset {self.back_offset_mm[0]:g},{self.back_offset_mm[1]:g} mm")
        if self.reprint:
            bits.append("reprint of " + ", ".join(self.reprint))
        return ", ".join(bits)
