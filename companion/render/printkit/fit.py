"""Text that always fits its box: measuring, wrapping, and finding the largest font size.

``fit_text`` looks for the largest size between ``max_size`` and ``min_size`` (in steps of
0.25 pt) at which the wrapped text fits the box in the regular sans face; failing that, in the
condensed face; failing that it raises :class:`TextFitError`, which says how much to cut.
Words wider than the box are broken between characters, so nothing ever runs out of the box
sideways; lines are counted with the fonts' ascent and descent, so nothing is cut off at the
top or bottom.

Markup: ``**bold**`` marks bold words; a line break starts a new paragraph.
reportlab is imported inside functions only.
"""
from __future__ import annotations

import math
import re
from dataclasses import dataclass
from functools import lru_cache
from typing import NamedTuple

from companion.errors import CompanionError
from companion.render.printkit.units import to_mm

ASCENT = 0.93
"""Ascent of the DejaVu faces, in ems (928/1000)."""
DESCENT = 0.24
"""Descent of the DejaVu faces, in ems (236/1000)."""
STEP = 0.25


class TextFitError(CompanionError):
    """A text does not fit its box even at the smallest allowed size in the condensed face."""


class GlyphError(CompanionError):
    """A text holds characters the bundled fonts cannot print."""


@dataclass(frozen=True)
class Faces:
    regular: str
    bold: str
    italic: str
    condensed: bool


@lru_cache(maxsize=2)
def faces(condensed: bool) -> Faces:
    from companion.render import fonts

    if condensed:
        return Faces(fonts.CONDENSED, fonts.CONDENSED_BOLD, fonts.CONDENSED, True)
    return Faces(fonts.SANS, fonts.SANS_BOLD, fonts.SANS_ITALIC, False)


@lru_cache(maxsize=200_000)
def _width1(word: str, font: str) -> float:
    """Width of ``word`` in ``font`` at 1 pt (widths scale linearly with size)."""
    from reportlab.pdfbase.pdfmetrics import stringWidth

    return stringWidth(word, font, 1.0)


def text_width(text: str, font: str, size: float) -> float:
    return _width1(text, font) * size


@dataclass(frozen=True)
class Word:
    text: str
    style: str  # 'r' regular, 'b' bold, 'i' italic
    space_before: bool


class Piece(NamedTuple):
    """A run of text on a line: its x offset from the line start, font and text.  (Named
    tuples: a kit wraps tens of thousands of them, and they are made much faster than frozen
    dataclasses.)"""

    x: float
    text: str
    font: str


class Line(NamedTuple):
    pieces: tuple[Piece, ...]
    width: float
    paragraph_start: bool


@dataclass(frozen=True)
class Fitted:
    """Wrapped text at the size chosen; draw it with :func:`draw_fitted`."""

    lines: tuple[Line, ...]
    size: float
    leading: float
    condensed: bool
    height: float
    width: float
    paragraph_gap: float

    def baselines(self, top: float) -> list[float]:
        """The baseline y of each line for a box whose top edge is ``top``."""
        ys = []
        y = top - self.size * ASCENT
        for i, line in enumerate(self.lines):
            if i:
                y -= self.leading
                if line.paragraph_start:
                    y -= self.paragraph_gap
            ys.append(y)
        return ys


_BOLD = re.compile(r"\*\*(.+?)\*\*", re.S)


def parse_markup(text: str, base: str = "r") -> list[list[Word]]:
    """Paragraphs of words; ``**...**`` is bold."""
    return [list(words) for words in parsed(text, base)]


def parsed(text: str, base: str = "r") -> tuple[tuple[Word, ...], ...]:
    """:func:`parse_markup`'s paragraphs as the shared tuples it keeps (not to be changed; no
    copies for the wrapping, which only reads them)."""
    key = (text, base) if isinstance(text, str) else None
    known = _PARSED.get(key) if key is not None else None
    if known is None:
        known = tuple(tuple(words) for words in _parse_markup(text, base))
        if key is not None and len(_PARSED) < 50_000:
            _PARSED[key] = known
    return known


_PARSED: dict[tuple[str, str], tuple[tuple[Word, ...], ...]] = {}
"""Texts already split into words (a kit wraps the same text at several sizes)."""


def _parse_markup(text: str, base: str) -> list[list[Word]]:
    paragraphs = []
    for para in str(text).replace("\r\n", "\n").split("\n"):
        if "**" not in para:
            # no markup: the words split at whitespace, as the general case below splits them
            paragraphs.append([Word(token, base, k > 0)
                               for k, token in enumerate(para.split())])
            continue
        words: list[Word] = []
        pos = 0
        chunks: list[tuple[str, str]] = []
        for m in _BOLD.finditer(para):
            chunks.append((para[pos:m.start()], base))
            chunks.append((m.group(1), "b"))
            pos = m.end()
        chunks.append((para[pos:], base))
        pending_space = False
        for chunk, style in chunks:
            for token in re.split(r"(\s+)", chunk):
                if token == "":
                    continue
                if token.isspace():
                    pending_space = bool(words)
                    continue
                words.append(Word(token, style, pending_space))
                pending_space = False
        paragraphs.append(words)
    return paragraphs


def plain(text: str) -> str:
    """The text without markup."""
    return _BOLD.sub(lambda m: m.group(1), str(text))


def _font(f: Faces, style: str) -> str:
    return f.bold if style == "b" else f.italic if style == "i" else f.regular


def _split_long(word: str, font: str, size: float, width: float) -> list[str]:
    """Break a word wider than ``width``: after hyphens or slashes if that is enough, else
    between characters."""
    parts = [p for p in re.split(r"(?<=[-/])", word) if p]
    out: list[str] = []
    for part in parts:
        if text_width(part, font, size) <= width:
            out.append(part)
            continue
        cur = ""
        for ch in part:
            if cur and text_width(cur + ch, font, size) > width:
                out.append(cur)
                cur = ch
            else:
                cur += ch
        if cur:
            out.append(cur)
    # merge neighbours again where they fit together
    merged: list[str] = []
    for p in out:
        if merged and text_width(merged[-1] + p, font, size) <= width:
            merged[-1] += p
        else:
            merged.append(p)
    return merged


def wrap(paragraphs: list[list[Word]], width: float, size: float, f: Faces) -> list[Line]:
    """Greedy line breaking at ``size``; every line is at most ``width`` wide."""
    lines: list[Line] = []
    limit = width + 1e-9
    for para in paragraphs:
        if not para:
            lines.append(Line((), 0.0, True))
            continue
        words = _measured(para, f)
        line = _one_line(words, width, size)
        if line is not None:
            lines.append(line)
            continue
        raw: list[tuple[float, str, str, float]] = []  # x, text, font, width of each chunk
        x = 0.0
        start = True
        for text, font, w1, s1 in words:
            space = s1 * size if s1 is not None else 0.0
            ww = w1 * size
            if ww <= width:
                gap = space if raw else 0.0
                if raw and x + gap + ww > limit:
                    lines.append(Line(_merge_raw(raw), x, start))
                    start = False
                    raw, x, gap = [], 0.0, 0.0
                raw.append((x + gap, text, font, ww))
                x += gap + ww
                continue
            chunks = _split_long(text, font, size, width)
            for k, chunk in enumerate(chunks):
                cw = ww if len(chunks) == 1 else text_width(chunk, font, size)
                gap = space if (k == 0 and raw) else 0.0
                if raw and x + gap + cw > limit:
                    lines.append(Line(_merge_raw(raw), x, start))
                    start = False
                    raw, x, gap = [], 0.0, 0.0
                raw.append((x + gap, chunk, font, cw))
                x += gap + cw
        lines.append(Line(_merge_raw(raw), x, start))
    return lines


def _measured(para, f: Faces) -> tuple[tuple[str, str, float, float | None], ...]:
    """Each word of a paragraph as (text, font, width at 1 pt, width at 1 pt of the space
    before it or None).  Kept for the paragraph tuples :func:`parsed` shares: a text is wrapped
    at several sizes while it is fitted, and a sheet's flow is tried at several sizes."""
    key = (id(para), f.regular)
    known = _MEASURED.get(key)
    if known is not None and known[0] is para:
        return known[1]
    out = []
    for word in para:
        style = word.style
        font = f.bold if style == "b" else f.italic if style == "i" else f.regular
        out.append((word.text, font, _width1(word.text, font),
                    _width1(" ", font) if word.space_before else None))
    words = tuple(out)
    if type(para) is tuple and len(_MEASURED) < 50_000:
        _MEASURED[key] = (para, words)
    return words


_MEASURED: dict[tuple[int, str], tuple[tuple, tuple]] = {}
"""Measured paragraphs by the id of the paragraph tuple (kept with them, so that the id is not
reused) and the face family."""


def _one_line(words, width: float, size: float) -> Line | None:
    """The paragraph as one line in one font if it is that (most table cells and names are),
    measured as :func:`wrap` measures it (the same products and sums in the same order, the
    same single spaces between words); else None, and :func:`wrap` breaks it.  (Words of
    several styles in one font, as italic and regular are in the condensed face, make one piece
    there too: :func:`_merge_raw` joins runs of one font.)"""
    limit = width + 1e-9
    font = words[0][1]
    x = 0.0
    texts = []
    for k, (text, wf, w1, s1) in enumerate(words):
        if wf != font:
            return None
        ww = w1 * size
        if ww > width:
            return None
        gap = s1 * size if (k and s1 is not None) else 0.0
        if k and x + gap + ww > limit:
            return None
        if gap:
            texts.append(" ")
        texts.append(text)
        x += gap + ww
    return Line((Piece(0.0, texts[0] if len(texts) == 1 else "".join(texts), font),), x, True)


def _merge_raw(raw: list[tuple[float, str, str, float]]) -> tuple[Piece, ...]:
    """Pieces of a line, consecutive chunks of the same font joined into one string (fewer PDF
    text operators); a space goes between chunks that are apart."""
    if len(raw) == 1:
        x, text, font, _ = raw[0]
        return (Piece(x, text, font),)
    out: list[list] = []
    end = 0.0
    for x, text, font, w in raw:
        if out and out[-1][2] == font:
            # the previous chunk ends where its last word ends (a space is wider than 1e-6)
            if x > end + 1e-6:
                out[-1][1].append(" ")
            out[-1][1].append(text)
        else:
            out.append([x, [text], font])
        end = x + w
    return tuple(Piece(x, texts[0] if len(texts) == 1 else "".join(texts), font)
                 for x, texts, font in out)


def _layout(paragraphs, width, size, f, leading, para_gap) -> Fitted:
    lines = wrap(paragraphs, width, size, f)
    lead = size * leading
    gap = size * para_gap
    n = len(lines)
    starts = sum(1 for i, line in enumerate(lines) if i and line.paragraph_start)
    height = (n - 1) * lead + starts * gap + size * (ASCENT + DESCENT) if n else 0.0
    w = max((line.width for line in lines), default=0.0)
    return Fitted(tuple(lines), size, lead, f.condensed, height, w, gap)


def _height(paragraphs, width, size, f, leading, para_gap) -> float:
    """The height of :func:`_layout`'s text, from the number of lines alone: the lines are
    counted as :func:`wrap` breaks them (the same sums in the same order), without making
    them, which is all a trial size of :func:`fit_text` needs.  A paragraph with a word wider
    than the box (broken between characters) is wrapped."""
    limit = width + 1e-9
    n = 0
    for para in paragraphs:
        if not para:
            n += 1
            continue
        lines = 1
        x = None
        for _, _, w1, s1 in _measured(para, f):
            ww = w1 * size
            if ww > width:
                lines = len(wrap([para], width, size, f))
                break
            if x is None:
                x = ww
                continue
            space = s1 * size if s1 is not None else 0.0
            if x + space + ww > limit:
                lines += 1
                x = ww
            else:
                x += space + ww
        n += lines
    lead = size * leading
    gap = size * para_gap
    # every paragraph starts a line, and all but the first a paragraph gap
    starts = len(paragraphs) - 1 if n else 0
    return (n - 1) * lead + starts * gap + size * (ASCENT + DESCENT) if n else 0.0


def check_glyphs(text: str, what: str) -> None:
    """Raise :class:`GlyphError` if the bundled fonts lack characters of ``text``."""
    from companion.render.fonts import missing_glyphs

    if isinstance(text, str):
        if text in _GLYPHS_OK:
            return
        if text.isascii() and text.translate(_LINE_BREAKS).isprintable():
            # the fonts have every printable ASCII character (tests/print checks it)
            if len(_GLYPHS_OK) < 50_000:
                _GLYPHS_OK.add(text)
            return
    missing = missing_glyphs(plain(text))
    if not missing:
        if isinstance(text, str) and len(_GLYPHS_OK) < 50_000:
            _GLYPHS_OK.add(text)
        return
    shown = ", ".join(f"'{c}' (U+{ord(c):04X})" for c in missing)
    raise GlyphError(f"{what}: the bundled fonts have no glyph for {shown}",
                     hint="replace these characters; the fonts cover Latin, Greek and Cyrillic")


_LINE_BREAKS = {ord("\n"): None, ord("\t"): None, ord("\r"): None}
_GLYPHS_OK: set[str] = set()
"""Texts already found printable with the bundled fonts."""


def reset_caches() -> None:
    """Forget the texts parsed and checked so far (``plan_kit`` starts each kit afresh, so that
    a benchmark's repeated builds cost what a single ``companion print`` does)."""
    _PARSED.clear()
    _GLYPHS_OK.clear()
    _MEASURED.clear()


def fit_text(text: str | list[tuple[str, str]], width: float, height: float, *, max_size: float = 9.0,
             min_size: float = 5.5, leading: float = 1.17, para_gap: float = 0.35,
             style: str = "r", what: str = "text", condense: bool = True) -> Fitted:
    """The largest size in [min_size, max_size] at which ``text`` fits ``width`` x ``height``
    points, trying the regular face first and then the condensed face.  ``text`` may also be
    a list of (text, style) segments, style 'r' (regular) or 'i' (italic), set one after another.

    Raises :class:`TextFitError` (with how many characters to cut) if even ``min_size`` in the
    condensed face does not fit."""
    from companion.render.fonts import register_fonts

    register_fonts()
    segments = [(text, style)] if isinstance(text, str) else list(text)
    for seg, _ in segments:
        check_glyphs(seg, what)
    if max_size < min_size:
        raise ValueError("max_size < min_size")
    paragraphs = [p for seg, st in segments for p in parsed(seg, st)]
    text = "\n".join(seg for seg, _ in segments)
    if not any(paragraphs):
        return Fitted((), max_size, max_size * leading, False, 0.0, 0.0, 0.0)
    steps = int(math.floor((max_size - min_size) / STEP + 1e-9))
    sizes = [round(min_size + i * STEP, 4) for i in range(steps + 1)]
    if sizes[-1] < max_size - 1e-9:
        sizes.append(max_size)
    tried = None  # the last face tried
    for condensed in ((False, True) if condense else (False,)):
        f = faces(condensed)
        best = _layout(paragraphs, width, sizes[-1], f, leading, para_gap)
        if best.height <= height + 1e-6:
            return best

        def fits(size: float) -> bool:
            # a trial size needs only the height: the lines are made once, at the size chosen
            return _height(paragraphs, width, size, f, leading, para_gap) <= height + 1e-6

        lo, hi = 0, len(sizes) - 1  # sizes[hi] does not fit
        if not fits(sizes[0]):
            tried = f
            continue
        while hi - lo > 1:
            mid = (lo + hi) // 2
            if fits(sizes[mid]):
                lo = mid
            else:
                hi = mid
        return _layout(paragraphs, width, sizes[lo], f, leading, para_gap)
    assert tried is not None
    need = _height(paragraphs, width, sizes[0], tried, leading, para_gap)
    over = need / height if height > 0 else math.inf
    chars = len(plain(text))
    cut = chars if not math.isfinite(over) else max(1, math.ceil(chars * (1 - 1 / over)))
    raise TextFitError(
        f"{what}: {chars} characters do not fit a {to_mm(width):.1f} x {to_mm(height):.1f} mm box "
        f"even at {min_size:g} pt in the condensed face (they need "
        f"{to_mm(need):.1f} mm of height)",
        hint=f"shorten it by about {cut} characters, or print on a bigger card size")


def fit_line(text: str, width: float, *, max_size: float, min_size: float, bold: bool = True,
             what: str = "name", condense: bool = True) -> tuple[str, float]:
    """(font, size) of the largest size at which ``text`` fits on one line of ``width``."""
    from companion.render.fonts import register_fonts

    register_fonts()
    check_glyphs(text, what)
    for condensed in ((False, True) if condense else (False,)):
        f = faces(condensed)
        font = f.bold if bold else f.regular
        w1 = _width1(text, font)
        if w1 <= 0:
            return font, max_size
        size = min(max_size, width / w1)
        size = math.floor(size / STEP + 1e-9) * STEP
        if size >= min_size - 1e-9:
            return font, size
    raise TextFitError(
        f"{what}: '{text}' does not fit on one line of {to_mm(width):.1f} mm even at "
        f"{min_size:g} pt condensed",
        hint=f"shorten it to about {max(1, int(len(text) * width / (w1 * min_size)))} characters")


def draw_fitted(canvas, fitted: Fitted, x: float, top: float, *, align: str = "left",
                width: float | None = None, colour=None) -> None:
    """Draw wrapped text with its first line's ascent at ``top``; ``align`` left/centre/right
    within ``width`` (defaults to the text's own width)."""
    box = fitted.width if width is None else width
    if colour is not None:
        canvas.setFillColorRGB(*colour)
    for line, y in zip(fitted.lines, fitted.baselines(top)):
        dx = 0.0
        if align == "centre":
            dx = (box - line.width) / 2
        elif align == "right":
            dx = box - line.width
        for piece in line.pieces:
            canvas.setFont(piece.font, fitted.size)
            canvas.drawString(x + dx + piece.x, y, piece.text)
