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
    min_size: CardSize | str | tuple[float, float] | None = None
    """The smallest card the design works on, for faces the game draws itself (``draw=``);
    a smaller ``--card`` is refused before anything is drawn.  Standard faces need none: the
    suite finds their smallest size when the texts do not fit."""

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
    width_mm: float | None = None
    figure_mm: float | None = None
    """This figure's own strip width and panel height; None: the part's."""


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

    def figure_size(self, fig: Standee) -> tuple[float, float]:
        """(strip width, panel height) of ``fig`` in mm: its own, else the part's."""
        return (self.width_mm if fig.width_mm is None else fig.width_mm,
                self.figure_mm if fig.figure_mm is None else fig.figure_mm)

    def strip_of(self, fig: Standee) -> CardSize:
        w, f = self.figure_size(fig)
        return CardSize(w, 2 * f + 2 * self.base_mm)

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
    sheets: str = "follow"
    """Where its pages go in the duplex modes: 'follow', after the pages before them, front or
    back as they come; 'own', on sheets of their own, back to back (a journal's record with its
    log on the back; a pad to cut in halves): the part starts a sheet and the next part starts
    another; 'each', every page on a sheet of its own with nothing on its back (a sheet one
    player keeps hidden, as Gral's influence sheets)."""


@dataclass
class Kit:
    """A game's print-and-play kit."""

    game: str
    title: str
    parts: Sequence[Part] = ()
    subject: str = ""
    notes: Sequence[str] = ()
    """Extra lines for the cover page (in the game's own words): a plain string is about the
    whole kit; a :class:`Note` about some parts only, shown when the PDF holds one of them."""


class Note(str):
    """A cover note about some parts of a kit (``Note("Map poster: ...", ["board"])``): the
    cover of a PDF without them (``--only cards``) leaves it out, so that it never explains
    pages the user does not have.  It is the note's text (a ``str``) with ``parts``: part kinds
    or part names, as ``--only`` takes them ('cards', 'knight-cards')."""

    parts: tuple[str, ...]

    def __new__(cls, text: str, parts: Sequence[str] = ()) -> "Note":
        note = super().__new__(cls, text)
        note.parts = tuple(parts)
        return note

    @property
    def text(self) -> str:
        return str(self)


def part_kind(part: Part) -> str:
    return part.part_kind if isinstance(part, FreePages) else part.kind


_PART_ALIASES = {"card": "cards", "deck": "cards", "decks": "cards", "chit": "chits",
                 "counters": "chits", "counter": "chits", "boards": "board", "map": "board",
                 "chart": "charts", "reference": "charts", "rules": "charts",
                 "standee": "standees", "page": "pages", "sheets": "pages"}


def part_answers(part: Part, want: str) -> bool:
    """Whether ``want`` (a part kind, an alias of one, or the part's name) names ``part``."""
    return part_kind(part) in (_PART_ALIASES.get(want, want), want) or part.slug == want


def notes_for(kit: Kit, parts: Sequence[Part]) -> list[str]:
    """The kit's cover notes about the whole kit or about one of ``parts``."""
    out = []
    for note in kit.notes:
        if not isinstance(note, Note) or any(part_answers(p, w) for p in parts
                                             for w in note.parts):
            out.append(str(note))
    return out


def select_parts(kit: Kit, only: Sequence[str]) -> list[Part]:
    """The parts named by ``only`` (kinds such as 'cards' or part names), all if empty.

    Raises a UsageError naming what this kit offers if a name matches nothing."""
    parts = list(kit.parts)
    if not only:
        return parts
    kinds = list(dict.fromkeys(part_kind(p) for p in parts))
    slugs = [p.slug for p in parts]
    chosen: list[Part] = []
    for want in only:
        hits = [p for p in parts if part_answers(p, want)]
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


def _left_out_by_only(kit: Kit, typed: str) -> None:
    """Raise a UsageError if ``typed`` names one piece of a part that ``--only`` left out (the
    piece is there: saying the kit has no such card would send the user looking elsewhere)."""
    try:
        held, _ = reprint_parts(kit, kit.parts, [typed])
    except UsageError as err:
        if " has no card " in err.message:
            return
        # the name means several pieces of the whole kit: say that, and that --only hid them
        raise UsageError(f"{err.message} (in parts that --only leaves out)",
                         hint=(f"{err.hint}; and " if err.hint else "")
                         + "leave --only out or add their parts to it"
                         ) from None
    if held:
        part = held[0]
        raise UsageError(f"--reprint '{typed}': it is in '{part.title}', which --only leaves out",
                         hint=f"add {part.slug} to --only, or leave --only out (--reprint "
                              "prints only the pieces it names)")


def reprint_parts(kit: Kit, parts: Sequence[Part], names: Sequence[str]
                  ) -> tuple[list[Part], dict[int, Part]]:
    """The parts reduced to the cards and chits named (``--reprint``; one copy per mention),
    other parts left out; and, by the id of each reduced deck, the full deck it came from (a
    reprinted card keeps its number, '17/120').

    A card answers to its name and, if it has a back of its own with another name, to that
    name too (a two-sided card: 'The Thief, version II'); a chit to its front's label. A name
    may be preceded by its deck or chit sheet and a colon ('starter-arthur: Patsy',
    'arthur: Patsy'): the part's name or a unique start of a word of its title.

    Raises a UsageError with suggestions when a name matches nothing, and one listing the
    pieces and how to name each when it matches several (the same name in two decks, several
    versions of a card): a reprint never prints a piece that was not meant."""
    from dataclasses import replace

    from companion.engine.names import match_name

    # every piece: (part index, item index, the names it answers to, where it is)
    pieces: list[tuple[int, int, tuple[str, ...], str]] = []
    for pi, part in enumerate(parts):
        if isinstance(part, Deck):
            numbering = [i for i, c in enumerate(part.cards) if c.count]
            for k, i in enumerate(numbering):
                card = part.cards[i]
                names_of = (card.name,)
                if isinstance(card.back, CardFace) and card.back.name != card.name:
                    names_of += (card.back.name,)
                number = f"{k + 1}/{len(numbering)}, " if part.numbering else ""
                pieces.append((pi, i, names_of, f"{number}{part.title}"))
        elif isinstance(part, ChitSheet):
            for i, chit in enumerate(part.chits):
                if chit.count and chit.front.label:
                    pieces.append((pi, i, (chit.front.label,), part.title))
    holding = sorted({pi for pi, *_ in pieces})
    part_keys: dict[str, int] = {}
    for pi in holding:
        part_keys.setdefault(parts[pi].slug, pi)
        part_keys.setdefault(parts[pi].title, pi)

    def all_names(among) -> list[str]:
        return list(dict.fromkeys(n for *_, names_of, _w in among for n in names_of))

    def qualified(typed: str):
        """(part index, the name after the colon) if ``typed`` starts with a part's name."""
        several = None
        for at in [i for i, ch in enumerate(typed) if ch == ":"]:
            head, tail = typed[:at].strip(), typed[at + 1:].strip()
            if not head or not tail:
                continue
            found = match_name(head, list(part_keys), suggest=False)
            meant = {part_keys[n] for n in ((found.name,) if found.ok else found.candidates)}
            if len(meant) == 1:            # a part's name and title may both answer
                return meant.pop(), tail
            if meant and several is None:
                several = (head, meant)
        if several and not match_name(typed, all_names(pieces), suggest=False).ok:
            head, meant = several
            raise UsageError(f"--reprint '{typed}': '{head}' could be several parts of the "
                             f"{kit.title} kit", hint="name one of them before the colon: "
                             + ", ".join(f"'{parts[i].slug}'" for i in sorted(meant)))
        return None

    def precise(piece) -> str:
        """A name that means this piece only."""
        pi, _i, names_of, _w = piece
        for name in names_of[1:]:
            if sum(name in p[2] for p in pieces) == 1:
                return name
        return f"{parts[pi].slug}: {names_of[0]}"

    wanted: dict[tuple[int, int], int] = {}
    for typed in names:
        among, name_typed, inside = pieces, typed, None
        q = qualified(typed)
        if q is not None:
            inside, name_typed = q
            among = [p for p in pieces if p[0] == inside]
        known = all_names(among)
        found = match_name(name_typed, known)
        where = (f"'{parts[inside].title}'" if inside is not None
                 else f"the {kit.title} kit")
        if not found.ok:
            if inside is None and len(parts) < len(kit.parts):
                _left_out_by_only(kit, typed)
            if found.ambiguous:
                raise UsageError(f"--reprint '{typed}' could name several pieces of {where}",
                                 hint="give more of the name: " + ", ".join(
                                     f"'{n}'" for n in found.candidates[:6]))
            hint = ("did you mean " + " or ".join(f"'{n}'" for n in found.suggestions) + "?"
                    if found.suggestions else
                    "the checklist after the card sheets names every card")
            raise UsageError(f"--reprint '{typed}': {where} has no card or labelled chit of "
                             "that name", hint=hint)
        hits = [p for p in among if found.name in p[2]]
        if len(hits) > 1:
            listed = "; ".join(f"'{found.name}' ({p[3]})" for p in hits)
            ways = [precise(p) for p in hits]
            if len(set(ways)) == len(ways):
                hint = ("name one of them: " + " or ".join(f"--reprint '{w}'" for w in ways))
            else:
                hint = "the kit gives these pieces the same name: their labels must differ"
            raise UsageError(f"--reprint '{typed}' could be {len(hits)} different pieces: "
                             f"{listed}", hint=hint)
        key = (hits[0][0], hits[0][1])
        wanted[key] = wanted.get(key, 0) + 1
    out: list[Part] = []
    numbered: dict[int, Part] = {}
    for pi, part in enumerate(parts):
        if isinstance(part, Deck):
            cards = [replace(c, count=wanted.get((pi, i), 0) if c.count else 0)
                     for i, c in enumerate(part.cards)]
            if any(c.count for c in cards):
                reduced = replace(part, cards=cards)
                numbered[id(reduced)] = part
                out.append(reduced)
        elif isinstance(part, ChitSheet):
            chits = [replace(c, count=wanted.get((pi, i), 0))
                     for i, c in enumerate(part.chits) if c.count]
            chits = [c for c in chits if c.count]
            if chits:
                out.append(replace(part, chits=chits))
    return out, numbered
