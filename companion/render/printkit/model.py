"""What a game hands the print suite: a :class:`Kit` of parts.

Parts:

* :class:`Deck` (kind ``cards``): :class:`CardFace` specs with counts, one :class:`CardBack`
  for the deck (a card may carry its own back: two-sided cards), and a checklist page.
* :class:`ChitSheet` (``chits``): small square counters, one or two sides.
* :class:`Standees` (``standees``): fold-over figures for pawns.
* :class:`Board` (``board``): a drawing callback of a given size in mm, tiled over pages.
* :class:`ReferenceSheet` (``charts``): headings, paragraphs, bullet lists and tables, typeset
  in two columns where they fit.
* :class:`FreePages` (``pages``): pages the game draws itself (score pads, blank sheets).

Pure Python, no reportlab.  Drawing callbacks receive a :class:`~companion.render.printkit.pen.Pen`
whose units are millimetres, origin at the lower-left corner.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, ClassVar, Sequence

from companion.engine.names import slugify
from companion.errors import UsageError
from companion.render.printkit.units import CardSize

DrawFn = Callable[..., None]


def _size(value: CardSize | str | tuple[float, float], what: str) -> CardSize:
    if isinstance(value, CardSize):
        return value
    if isinstance(value, tuple):
        return CardSize(float(value[0]), float(value[1]))
    from companion.render.printkit.options import parse_card_size

    try:
        return parse_card_size(str(value))
    except UsageError as exc:
        raise UsageError(f"{what}: {exc.message}", hint=exc.hint) from None


@dataclass
class Stat:
    """A statistic shown as an icon and a value (``Stat("sword", 3)``)."""

    icon: str
    value: str | int
    label: str = ""


@dataclass
class CardBack:
    """The back design shared by a deck: a colour, a pattern, an emblem and a title."""

    title: str = ""
    colour: str = "#1e2f5c"
    accent: str = "#c9a227"
    icon: str | None = "star"
    pattern: str = "diamonds"
    """'diamonds', 'stripes', 'dots', 'grid' or 'plain'."""
    subtitle: str = ""
    draw: DrawFn | None = None
    """Optional ``draw(pen, width_mm, height_mm)`` replacing the standard design; the pen's
    ``bleed_mm`` tells how far beyond the card the background must run."""


@dataclass
class CardFace:
    """One card design.  Drawn, not pasted: a band in the colour of its ``kind``, the name, an
    optional emblem icon, statistics with icons, and a text box whose text shrinks to fit."""

    name: str
    kind: str = ""
    text: str = ""
    """Rules text in the game's own words; ``**bold**`` allowed; a line break starts a paragraph."""
    flavour: str = ""
    """Set in italics under the rules text (fitted together with it)."""
    stats: Sequence[Stat] = ()
    corner: Stat | None = None
    """A statistic shown in the top-right of the name band (a cost, a value)."""
    icon: str | None = None
    """An emblem icon in the picture area."""
    subtitle: str = ""
    footer: str = ""
    count: int = 1
    colour: str | None = None
    """Band colour, overriding the colour of the card's kind."""
    back: "CardFace | CardBack | None" = None
    """A back for this card only (two-sided cards); otherwise the deck's back."""
    draw: DrawFn | None = None
    """Optional ``draw(pen, width_mm, height_mm)`` replacing the standard face."""


@dataclass
class Part:
    """Base of every part: a title (bookmark) and a name for ``--only``."""

    kind: ClassVar[str] = "pages"
    title: str = ""

    @property
    def slug(self) -> str:
        return getattr(self, "name", "") or slugify(self.title) or self.kind


@dataclass
class Deck(Part):
    kind: ClassVar[str] = "cards"
    title: str = "Cards"
    cards: Sequence[CardFace] = ()
    back: CardBack = field(default_factory=CardBack)
    size: CardSize | str | tuple[float, float] = "poker"
    colours: dict[str, str] = field(default_factory=dict)
    """Band colour of each card kind; kinds not listed get colours from a fixed palette."""
    checklist: bool = True
    numbering: bool = True
    """Print 'n/N' in each card's footer."""
    text_max_pt: float | None = None
    """Largest text size; by default from the card width (9 pt poker, 10 pt tarot)."""
    text_min_pt: float = 5.5
    name: str = ""

    @property
    def card_size(self) -> CardSize:
        return _size(self.size, f"deck '{self.title}' size")

    @property
    def total(self) -> int:
        return sum(int(c.count) for c in self.cards)

    def expanded(self) -> list[tuple[int, CardFace]]:
        """(design index, face) for every physical card, in order."""
        return [(i, c) for i, c in enumerate(self.cards) for _ in range(int(c.count))]

    @property
    def two_sided(self) -> bool:
        return any(c.back is not None for c in self.cards)


@dataclass
class ChitFace:
    """One side of a chit: a colour, an optional icon, a value (large) and a label (small)."""

    label: str = ""
    value: str | int = ""
    icon: str | None = None
    colour: str = "#efe3c2"
    text_colour: str | None = None
    round: bool = False
    """Draw a circle to cut along instead of the square."""
    draw: DrawFn | None = None


@dataclass
class Chit:
    front: ChitFace
    back: ChitFace | None = None
    count: int = 1


@dataclass
class ChitSheet(Part):
    kind: ClassVar[str] = "chits"
    title: str = "Chits"
    chits: Sequence[Chit] = ()
    size: CardSize | str | tuple[float, float] = (16.0, 16.0)
    gap_mm: float = 0.0
    bleed_mm: float | None = None
    """Bleed for these chits; by default the kit's bleed, at most 1 mm (small pieces waste
    much paper with a wide bleed, and a 1 mm bleed covers a careful cut)."""
    name: str = ""

    @property
    def chit_size(self) -> CardSize:
        return _size(self.size, f"chits '{self.title}' size")

    def expanded(self) -> list[tuple[int, Chit]]:
        return [(i, c) for i, c in enumerate(self.chits) for _ in range(int(c.count))]

    @property
    def two_sided(self) -> bool:
        return any(c.back is not None for c in self.chits)


@dataclass
class Standee:
    """A fold-over figure: front and back panels on a strip with a base tab at each end."""

    name: str
    icon: str | None = "pawn"
    colour: str = "#1f5fa8"
    text: str = ""
    count: int = 1
    draw: DrawFn | None = None
    """Optional ``draw(pen, width_mm, height_mm)`` for one panel (called for front and back)."""


@dataclass
class Standees(Part):
    kind: ClassVar[str] = "standees"
    title: str = "Standees"
    figures: Sequence[Standee] = ()
    width_mm: float = 25.0
    figure_mm: float = 40.0
    base_mm: float = 12.0
    name: str = ""

    @property
    def strip_size(self) -> CardSize:
        return CardSize(self.width_mm, 2 * self.figure_mm + 2 * self.base_mm)

    def expanded(self) -> list[tuple[int, Standee]]:
        return [(i, f) for i, f in enumerate(self.figures) for _ in range(int(f.count))]


@dataclass
class Board(Part):
    """A board drawn by ``draw(pen)`` at 1:1 in a ``width_mm`` x ``height_mm`` box (origin at the
    lower-left corner).  Larger than a page: tiled with overlapping glue strips and an assembly
    overview.  The callback is called once per tile (clipped) and once for the overview, so it
    must draw the same thing every time."""

    kind: ClassVar[str] = "board"
    title: str = "Board"
    width_mm: float = 200.0
    height_mm: float = 200.0
    draw: DrawFn | None = None
    overlap_mm: float = 10.0
    overview: bool = True
    name: str = ""


@dataclass
class Heading:
    text: str
    level: int = 1


@dataclass
class Paragraph:
    text: str


@dataclass
class Bullets:
    items: Sequence[str]


@dataclass
class Table:
    """A table fed by data: ``columns`` are the header cells, ``rows`` lists of cell texts.

    ``widths`` are relative column widths (default: from the contents); ``align`` per column
    'left', 'centre' or 'right'."""

    columns: Sequence[str]
    rows: Sequence[Sequence[Any]]
    widths: Sequence[float] | None = None
    align: Sequence[str] | None = None
    caption: str = ""
    bold_first_column: bool = False


Block = Heading | Paragraph | Bullets | Table


@dataclass
class ReferenceSheet(Part):
    """Charts and rules summaries: a flow of blocks typeset in two columns when every table fits
    a column (``columns="auto"``), else one; or force ``columns=1`` / ``2``."""

    kind: ClassVar[str] = "charts"
    title: str = "Reference"
    blocks: Sequence[Block] = ()
    columns: str | int = "auto"
    font_pt: float = 8.5
    name: str = ""


@dataclass
class FreePages(Part):
    """Pages the game draws: ``draw(pen, width_mm, height_mm, page_index)`` inside the safe area
    (above the notice strip), ``count`` pages."""

    kind: ClassVar[str] = "pages"
    title: str = "Sheets"
    draw: DrawFn | None = None
    count: int = 1
    name: str = ""
    part_kind: str = "pages"
    """The kind ``--only`` selects this part by (e.g. 'sheets', 'pad')."""
    same_pages: bool = False
    """Every page is the same drawing (``draw`` ignores ``page_index``): it is drawn once, as
    a PDF form placed on each page (the same print, a smaller and faster file)."""


@dataclass
class Kit:
    """A game's print-and-play kit."""

    game: str
    title: str
    parts: Sequence[Part] = ()
    subject: str = ""
    notes: Sequence[str] = ()
    """Extra lines for the cover page (in the game's own words)."""


def part_kind(part: Part) -> str:
    return part.part_kind if isinstance(part, FreePages) else part.kind


def select_parts(kit: Kit, only: Sequence[str]) -> list[Part]:
    """The parts named by ``only`` (kinds such as 'cards' or part names), all if empty.

    Raises a UsageError naming what this kit offers if a name matches nothing."""
    parts = list(kit.parts)
    if not only:
        return parts
    kinds = list(dict.fromkeys(part_kind(p) for p in parts))
    slugs = [p.slug for p in parts]
    aliases = {"card": "cards", "deck": "cards", "decks": "cards", "chit": "chits",
               "counters": "chits", "counter": "chits", "boards": "board", "map": "board",
               "chart": "charts", "reference": "charts", "rules": "charts", "standee": "standees",
               "page": "pages", "sheets": "pages"}
    chosen: list[Part] = []
    for want in only:
        key = aliases.get(want, want)
        hits = [p for p in parts if part_kind(p) in (key, want) or p.slug == want]
        if not hits:
            import difflib

            offered = kinds + [s for s in slugs if s not in kinds]
            close = difflib.get_close_matches(want, offered, n=1, cutoff=0.5)
            raise UsageError(
                f"--only '{want}': the {kit.title} kit has no such part",
                hint=(f"did you mean '{close[0]}'? " if close else "")
                + "this kit offers: " + ", ".join(offered))
        chosen += [p for p in hits if p not in chosen]
    return [p for p in parts if p in chosen]


def reprint_parts(kit: Kit, parts: Sequence[Part], names: Sequence[str]
                  ) -> tuple[list[Part], dict[int, Part]]:
    """The parts reduced to the cards and chits named (``--reprint``; one copy per mention,
    every design of that name), other parts left out; and, by the id of each reduced deck, the
    full deck it came from (a reprinted card keeps its number, '17/120').

    Raises a UsageError with suggestions when a name matches no card or chit of ``parts``."""
    from dataclasses import replace

    from companion.engine.names import match_name

    known: list[str] = []
    for part in parts:
        if isinstance(part, Deck):
            known += [c.name for c in part.cards if c.count]
        elif isinstance(part, ChitSheet):
            known += [c.front.label for c in part.chits if c.count and c.front.label]
    wanted: dict[str, int] = {}
    for typed in names:
        found = match_name(typed, known)
        if not found.ok:
            if found.ambiguous:
                raise UsageError(f"--reprint '{typed}' could name several pieces of the "
                                 f"{kit.title} kit", hint="give more of the name: " + ", ".join(
                                     f"'{n}'" for n in found.candidates[:6]))
            hint = ("did you mean " + " or ".join(f"'{n}'" for n in found.suggestions) + "?"
                    if found.suggestions else
                    "the checklist after the card sheets names every card")
            raise UsageError(f"--reprint '{typed}': the {kit.title} kit has no card or "
                             "labelled chit of that name", hint=hint)
        wanted[found.name] = wanted.get(found.name, 0) + 1
    out: list[Part] = []
    numbered: dict[int, Part] = {}
    for part in parts:
        if isinstance(part, Deck):
            cards = [replace(c, count=wanted.get(c.name, 0) if c.count else 0)
                     for c in part.cards]
            if any(c.count for c in cards):
                reduced = replace(part, cards=cards)
                numbered[id(reduced)] = part
                out.append(reduced)
        elif isinstance(part, ChitSheet):
            chits = [replace(c, count=wanted.get(c.front.label, 0) if c.count else 0)
                     for c in part.chits]
            chits = [c for c in chits if c.count]
            if chits:
                out.append(replace(part, chits=chits))
    return out, numbered

