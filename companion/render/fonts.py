"""The bundled DejaVu fonts, registered once with reportlab and embedded (subset) in every PDF.

DejaVu covers Latin, Latin Extended, Greek and Cyrillic. ``missing_glyphs`` tells which
characters of a text the fonts cannot show, so callers can refuse such text rather than print
missing-glyph boxes.
"""
from __future__ import annotations

from functools import lru_cache

from companion.resources import resource_dir

SANS = "CompanionSans"
SANS_BOLD = "CompanionSans-Bold"
SANS_ITALIC = "CompanionSans-Oblique"
SANS_BOLD_ITALIC = "CompanionSans-BoldOblique"
CONDENSED = "CompanionSansCondensed"
CONDENSED_BOLD = "CompanionSansCondensed-Bold"
MONO = "CompanionMono"
SERIF_BOLD = "CompanionSerif-Bold"

_FILES = {
    SANS: "DejaVuSans.ttf",
    SANS_BOLD: "DejaVuSans-Bold.ttf",
    SANS_ITALIC: "DejaVuSans-Oblique.ttf",
    SANS_BOLD_ITALIC: "DejaVuSans-BoldOblique.ttf",
    CONDENSED: "DejaVuSansCondensed.ttf",
    CONDENSED_BOLD: "DejaVuSansCondensed-Bold.ttf",
    MONO: "DejaVuSansMono.ttf",
    SERIF_BOLD: "DejaVuSerif-Bold.ttf",
}


def register_fonts(*names: str) -> None:
    """Register the bundled fonts ``names`` (all of them if none is named) with reportlab. Each
    font file is read once per process, on first use; later calls cost a dictionary look-up.
    (Reading one takes about 8 ms: the reports, which use four, do not read all eight.)"""
    new = [name for name in names or _FILES if name not in _REGISTERED]
    if not new:
        return
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.ttfonts import TTFont

    folder = resource_dir("fonts")
    for name in new:
        pdfmetrics.registerFont(TTFont(name, str(folder / _FILES[name])))
        _REGISTERED.add(name)
    _add_mappings()         # again: registering a font maps its whole family to itself


_REGISTERED: set[str] = set()


def _add_mappings() -> None:
    """The bold and italic faces of each family (for <b> and <i>; names only, so the faces need
    not be registered until they are used)."""
    from reportlab.lib.fonts import addMapping

    addMapping(SANS, 0, 0, SANS)
    addMapping(SANS, 1, 0, SANS_BOLD)
    addMapping(SANS, 0, 1, SANS_ITALIC)
    addMapping(SANS, 1, 1, SANS_BOLD_ITALIC)
    addMapping(CONDENSED, 0, 0, CONDENSED)
    addMapping(CONDENSED, 1, 0, CONDENSED_BOLD)
    addMapping(CONDENSED, 0, 1, CONDENSED)
    addMapping(CONDENSED, 1, 1, CONDENSED_BOLD)


@lru_cache(maxsize=1)
def _covered() -> frozenset[int]:
    """Code points the regular sans font has glyphs for (read from its cmap)."""
    from reportlab.pdfbase.ttfonts import TTFontFile

    face = TTFontFile(str(resource_dir("fonts") / _FILES[SANS]))
    return frozenset(face.charToGlyph)


def missing_glyphs(text: str) -> list[str]:
    """Characters of ``text`` the bundled fonts cannot print (control characters excluded)."""
    covered = _covered()
    missing = []
    for ch in text:
        if ch in "\n\t\r":
            continue
        if ord(ch) not in covered and ch not in missing:
            missing.append(ch)
    return missing
