"""A reportlab canvas set up the way every print-suite PDF needs it: ``invariant=1`` (same input,
same bytes), compressed pages, the bundled fonts registered, and the bundled sans face as the
initial font (so no page refers to a non-embedded standard font).

The canvas draws single strings (``drawString``, ``drawCentredString``, ``drawRightString``) in
the bundled TrueType fonts along a short path that writes exactly the operators reportlab's own
methods write (the same bytes; tested), without building a text object per string: a kit draws
thousands of them.  Anything else (a standard font, text modes, spacing, bytes) goes to
reportlab's own methods.
"""
from __future__ import annotations

import re
from contextlib import contextmanager
from functools import lru_cache

from companion.render.printkit.units import Paper


@lru_cache(maxsize=1)
def _canvas_class():
    from reportlab.lib.rl_accel import escapePDF, fp_str
    from reportlab.pdfbase.pdfmetrics import getFont, stringWidth
    from reportlab.pdfgen import canvas as rl_canvas

    class KitCanvas(rl_canvas.Canvas):
        """reportlab's canvas with a short path for one-line strings in TrueType fonts."""

        def __init__(self, *args, **kwargs):
            super().__init__(*args, **kwargs)
            self._split_cache: dict = {}
            self._font_ops: dict = {}
            self._fill_ops: dict = {}
            self._ascii_fonts: dict = {}
            self._stroke_ops: dict = {}

        def _fast_text(self, x, y, text) -> bool:
            if type(text) is not str or not self.bottomup:
                return False
            font = getFont(self._fontname)
            if not font._dynamicFont:
                return False
            key = (self._fontname, text)
            parts = self._split_cache.get(key)
            if parts is None:
                doc = self._doc
                if text and text.isascii() and text.isprintable() and self._ascii_ready(font):
                    # printable ASCII has its own codes in a font's first subset from the start
                    # (reportlab's "ASCII readable" subsets): what splitString would return
                    split = [(0, text.encode("ascii"))]
                else:
                    # the first call assigns the characters' codes in the document's subsets
                    # (the same order as reportlab's own); later calls give the same result
                    split = font.splitString(text, doc)
                parts = tuple((font.getSubsetInternalName(subset, doc), escapePDF(t))
                              for subset, t in split)
                self._split_cache[key] = parts
            size_key = (self._fontsize, self._leading)
            tmpl = self._font_ops.get(size_key)
            if tmpl is None:
                tmpl = self._font_ops[size_key] = (f"{fp_str(self._fontsize)} Tf "
                                                   f"{fp_str(self._leading)} TL")
            out = []
            current = None
            for name, t in parts:
                if name != current:
                    out.append(f"{name} {tmpl}")
                    current = name
                out.append(f"({t}) Tj")
            self._code.append(f"BT 1 0 0 1 {fp_str(x, y)} Tm {' '.join(out)} T* ET")
            return True

        def _ascii_ready(self, font) -> bool:
            """True once ``font``'s subsets in this document give printable ASCII its own
            codes in subset 0 (checked once per font, after reportlab has set them up)."""
            ready = self._ascii_fonts.get(font.fontName)
            if ready is None:
                try:
                    state = font.state[self._doc]
                except KeyError:
                    return False  # reportlab sets the subsets up on the font's first string
                ready = all(state.assignments.get(n) == n for n in range(32, 127))
                self._ascii_fonts[font.fontName] = ready
            return ready

        def setFillColorRGB(self, r, g, b, alpha=None):
            if alpha is not None or self._enforceColorSpace:
                return super().setFillColorRGB(r, g, b, alpha)
            key = (r, g, b)
            op = self._fill_ops.get(key)
            if op is None:
                op = self._fill_ops[key] = f"{fp_str(key)} rg"
            self._fillColorObj = key
            self._code.append(op)

        def setStrokeColorRGB(self, r, g, b, alpha=None):
            if alpha is not None or self._enforceColorSpace:
                return super().setStrokeColorRGB(r, g, b, alpha)
            key = (r, g, b)
            op = self._stroke_ops.get(key)
            if op is None:
                op = self._stroke_ops[key] = f"{fp_str(key)} RG"
            self._strokeColorObj = key
            self._code.append(op)

        def drawString(self, x, y, text, mode=None, charSpace=0, direction=None,
                       wordSpace=None, shaping=False):
            if (mode is None and not charSpace and direction is None and not wordSpace
                    and not shaping and self._fast_text(x, y, text)):
                return
            super().drawString(x, y, text, mode, charSpace, direction, wordSpace, shaping)

        def drawCentredString(self, x, y, text, mode=None, charSpace=0, direction=None,
                              wordSpace=None, shaping=False):
            if (mode is None and not charSpace and direction is None and not wordSpace
                    and not shaping and type(text) is str):
                width = stringWidth(text, self._fontname, self._fontsize)
                if self._fast_text(x - 0.5 * width, y, text):
                    return
            super().drawCentredString(x, y, text, mode, charSpace, direction, wordSpace,
                                      shaping)

        def drawRightString(self, x, y, text, mode=None, charSpace=0, direction=None,
                            wordSpace=None, shaping=False):
            if (mode is None and not charSpace and direction is None and not wordSpace
                    and not shaping and type(text) is str):
                width = stringWidth(text, self._fontname, self._fontsize)
                if self._fast_text(x - width, y, text):
                    return
            super().drawRightString(x, y, text, mode, charSpace, direction, wordSpace, shaping)

    return KitCanvas


_NOT_IN_PDFDOC = re.compile("[\x18-\x1f]")
"""The ASCII control characters PDFDocEncoding lacks (reportlab's codec refuses them)."""


@contextmanager
def fast_pdfdoc_encoding():
    """While a kit is drawn and saved, reportlab's ``pdfdocEnc`` (every content stream and every
    PDF token goes through its Python charmap codec) takes a short cut for ASCII text: the
    codec maps each ASCII character but 0x18-0x1F to the same byte (tests/print checks every
    one), so ``str.encode('ascii')`` gives the same bytes; anything else still goes through
    the codec.  The original function is put back afterwards."""
    from reportlab.pdfbase import pdfdoc

    original = pdfdoc.pdfdocEnc
    if getattr(original, "_printkit_fast", False):  # already in place (nested builds)
        yield
        return

    def pdfdocEnc(x):
        if isinstance(x, str) and x.isascii() and not _NOT_IN_PDFDOC.search(x):
            return x.encode("ascii")
        return original(x)

    pdfdocEnc._printkit_fast = True  # type: ignore[attr-defined]
    pdfdoc.pdfdocEnc = pdfdocEnc
    try:
        yield
    finally:
        if pdfdoc.pdfdocEnc is pdfdocEnc:
            pdfdoc.pdfdocEnc = original


def new_canvas(out, paper: Paper, *, title: str, subject: str, keywords: list[str] | None = None):
    from companion import __version__
    from companion.render import fonts

    fonts.register_fonts()
    c = _canvas_class()(out, pagesize=(paper.width, paper.height), invariant=1,
                        pageCompression=1, initialFontName=fonts.SANS, initialFontSize=8,
                        initialLeading=10)
    c.setTitle(title)
    c.setSubject(subject)
    c.setCreator(f"companion {__version__}")
    c.setAuthor("companion")
    if keywords:
        c.setKeywords(keywords)
    return c
