"""The print suite: card sheets, chits, standees, tiled boards, charts and a calibration sheet
that print right on a home printer.  See ``docs/print-suite.md``.

Importing this package does not load reportlab: the options, the model and the layout are pure
Python; :func:`build_kit`, :func:`write_kit`, :func:`plan_kit`, :func:`calibration_pdf` and
:func:`fit_text` load the PDF machinery when called.

A game builds a :class:`Kit` of parts and the command line calls::

    options = PrintOptions.from_strings(paper="letter", backs="duplex-long", bleed="3")
    write_kit(kit, options, progress=lambda done, total, label: ...)
"""
from __future__ import annotations

from companion.render.printkit.fit import GlyphError, TextFitError
from companion.render.printkit.layout import (BoardPlan, PageLayout, Sheet, SheetPlan, Slot, Tile,
                                              layout_items, tile_board)
from companion.render.printkit.model import (Board, Bullets, CardBack, CardFace, Chit, ChitFace,
                                             ChitSheet, Deck, FreePages, Heading, Kit, Note,
                                             Paragraph, Part, ReferenceSheet, Stat, Standee,
                                             Standees, Table, select_parts)
from companion.render.printkit.options import (BACKS, PrintOptions, parse_back_offset,
                                               parse_backs, parse_bleed, parse_card_size,
                                               parse_only, parse_paper)
from companion.render.printkit.pen import Pen
from companion.render.printkit.units import A4, CARD_SIZES, LETTER, MM, PAPERS, CardSize, Paper, Rect, mm

__all__ = [
    "A4", "BACKS", "Board", "BoardPlan", "Bullets", "CARD_SIZES", "CardBack", "CardFace",
    "CardSize", "Chit", "ChitFace", "ChitSheet", "Deck", "FreePages", "Heading", "Kit", "LETTER",
    "GlyphError", "MM", "Note", "PAPERS", "Pen", "TextFitError", "PageLayout", "Paper", "Paragraph", "Part", "PrintOptions", "Rect",
    "ReferenceSheet", "Sheet", "SheetPlan", "Slot", "Standee", "Standees", "Stat", "Table", "Tile",
    "build_kit", "calibration_pdf", "fit_text", "layout_items", "mm", "parse_back_offset",
    "parse_backs", "parse_bleed", "parse_card_size", "parse_only", "parse_paper", "plan_kit",
    "select_parts", "tile_board", "write_kit", "ICON_NAMES",
]

ICON_NAMES = ("shield", "sword", "heart", "star", "crown", "coin", "die", "cup", "tower", "flag",
              "scroll", "skull", "hourglass", "arrow", "axe", "bolt", "eye", "gem", "key", "boot",
              "moon", "sun", "tree", "mountain", "pawn", "house", "card", "plus", "check",
              "hexagon", "circle", "square", "diamond", "triangle", "rabbit", "horseshoe", "banner")
"""The vector icons :class:`Stat`, :class:`CardFace` and :class:`ChitFace` may name."""


def build_kit(kit, options, progress=None) -> bytes:
    """The kit as PDF bytes; ``progress(done, total, label)`` is called after each page."""
    from companion.render.printkit.build import build_kit as _build

    return _build(kit, options, progress)


def write_kit(kit, options, path=None, progress=None):
    """Build the kit and write it to ``path`` / ``options.out`` / ``<game>-kit.pdf``."""
    from companion.render.printkit.build import write_kit as _write

    return _write(kit, options, path, progress)


def plan_kit(kit, options):
    """Lay out and check the kit without drawing: a ``KitPlan`` whose pages carry their layouts."""
    from companion.render.printkit.build import plan_kit as _plan

    return _plan(kit, options)


def calibration_pdf(paper=A4, backs: str = "duplex-long",
                    back_offset_mm: tuple[float, float] = (0.0, 0.0)) -> bytes:
    """The duplex calibration sheet (front: numbered grids and 100 mm rulers; back: crosses)."""
    from companion.render.printkit.calibrate import calibration_pdf as _cal

    if isinstance(paper, str):
        paper = parse_paper(paper)
    return _cal(paper, backs, back_offset_mm)


def fit_text(text, width, height, **kwargs):
    """Fit ``text`` into ``width`` x ``height`` points (see ``printkit.fit.fit_text``)."""
    from companion.render.printkit.fit import fit_text as _fit

    return _fit(text, width, height, **kwargs)
