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
    from reportlab.pdfgen import canvas as rl_canvas, pathobject

    class KitCanvas(rl_canvas.Canvas):
        """reportlab's canvas with a short path for one-line strings in TrueType fonts."""

        def __init__(self, *args, **kwargs):
            super().__init__(*args, **kwargs)
            self._split_cache: dict = {}
            self._font_ops: dict = {}
            self._fill_ops: dict = {}
            self._ascii_fonts: dict = {}
            self._stroke_ops: dict = {}
            self._path_ops: dict = {}
            self._text_tails: dict = {}
            self._first_subset: dict = {}
            self._widths: dict = {}
            self.icon_memo: dict = {}
            """The operators of each icon look drawn so far (see ``icons.draw_icon``)."""

        def _fast_text(self, x, y, text) -> bool:
            if type(text) is not str or not self.bottomup:
                return False
            # the operators after the position, kept per font, size, leading and text (a kit
            # writes the same labels, values and footers again and again)
            tail_key = (self._fontname, self._fontsize, self._leading, text)
            tail = self._text_tails.get(tail_key)
            if tail is None:
                tail = self._text_tail(text)
                if tail is None:
                    return False
                self._text_tails[tail_key] = tail
            self._code.append(f"BT 1 0 0 1 {fp_str(x, y)} Tm {tail}")
            return True

        def _text_tail(self, text) -> str | None:
            font = getFont(self._fontname)
            if not font._dynamicFont:
                return None
            key = (self._fontname, text)
            parts = self._split_cache.get(key)
            if parts is None:
                doc = self._doc
                if text and text.isascii() and text.isprintable() and self._ascii_ready(font):
                    # printable ASCII has its own codes in a font's first subset from the start
                    # (reportlab's "ASCII readable" subsets): what splitString would return
                    first = self._first_subset.get(self._fontname)
                    if first is None:
                        first = self._first_subset[self._fontname] = \
                            font.getSubsetInternalName(0, doc)
                    parts = ((first, escapePDF(text.encode("ascii"))),)
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
            return f"{' '.join(out)} T* ET"

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

        def roundRect(self, x, y, width, height, radius, stroke=1, fill=0):
            # a kit draws the same panels and badges card after card: the path's operators
            # (reportlab's own, from its own path object) are kept by their measures
            key = (x, y, width, height, radius)
            if isinstance(radius, (list, tuple)):
                return super().roundRect(x, y, width, height, radius, stroke, fill)
            ops = self._path_ops.get(("r",) + key)
            if ops is None:
                path = pathobject.PDFPathObject()
                path.roundRect(x, y, width, height, radius)
                ops = self._path_ops[("r",) + key] = tuple(path._code)
            self._code.extend(ops)
            self._strokeAndFill(stroke, fill)

        def ellipse(self, x1, y1, x2, y2, stroke=1, fill=0):
            key = ("e", x1, y1, x2, y2)
            ops = self._path_ops.get(key)
            if ops is None:
                path = pathobject.PDFPathObject()
                path.ellipse(x1, y1, x2 - x1, y2 - y1)
                ops = self._path_ops[key] = tuple(path._code)
            self._code.extend(ops)
            self._strokeAndFill(stroke, fill)

        def _width(self, text: str) -> float:
            """reportlab's ``stringWidth`` of the text in the current font, kept."""
            key = (self._fontname, self._fontsize, text)
            width = self._widths.get(key)
            if width is None:
                width = self._widths[key] = stringWidth(text, self._fontname, self._fontsize)
            return width

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
                width = self._width(text)
                if self._fast_text(x - 0.5 * width, y, text):
                    return
            super().drawCentredString(x, y, text, mode, charSpace, direction, wordSpace,
                                      shaping)

        def drawRightString(self, x, y, text, mode=None, charSpace=0, direction=None,
                            wordSpace=None, shaping=False):
            if (mode is None and not charSpace and direction is None and not wordSpace
                    and not shaping and type(text) is str):
                width = self._width(text)
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


STREAM_LEVEL = 3
"""zlib level of a kit's streams: 3 deflates a kit's pages about twice as fast as zlib's
default 6, for files some 8% larger (benchmarks/print_kit.py)."""


@contextmanager
def kit_streams():
    """While a kit is drawn and saved, its streams (pages, forms, fonts) are deflated at
    :data:`STREAM_LEVEL` and written as binary, without reportlab's ASCII85 layer
    (``rl_config.useA85``): a quarter smaller, and no encoding pass.  Every PDF reader takes
    binary streams.  Both settings are put back afterwards."""
    import zlib

    from reportlab import rl_config
    from reportlab.pdfbase import pdfdoc

    filt = pdfdoc.PDFStreamFilterZCompress
    original_a85, original_encode = rl_config.useA85, filt.encode
    if getattr(original_encode, "_printkit", False):  # already in place (nested builds)
        yield
        return

    def encode(self, text):
        if isinstance(text, str):
            text = text.encode("utf8")
        return zlib.compress(text, STREAM_LEVEL)

    encode._printkit = True  # type: ignore[attr-defined]
    rl_config.useA85 = 0
    filt.encode = encode
    try:
        yield
    finally:
        rl_config.useA85 = original_a85
        filt.encode = original_encode


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
