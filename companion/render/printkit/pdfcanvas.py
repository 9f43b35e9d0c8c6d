"""A reportlab canvas set up the way every print-suite PDF needs it: ``invariant=1`` (same input,
same bytes), compressed pages, the bundled fonts registered, and the bundled sans face as the
initial font (so no page refers to a non-embedded standard font)."""
from __future__ import annotations

from companion.render.printkit.units import Paper


def new_canvas(out, paper: Paper, *, title: str, subject: str, keywords: list[str] | None = None):
    from reportlab.pdfgen import canvas as rl_canvas

    from companion import __version__
    from companion.render import fonts

    fonts.register_fonts()
    c = rl_canvas.Canvas(out, pagesize=(paper.width, paper.height), invariant=1,
                         pageCompression=1, initialFontName=fonts.SANS, initialFontSize=8,
                         initialLeading=10)
    c.setTitle(title)
    c.setSubject(subject)
    c.setCreator(f"companion {__version__}")
    c.setAuthor("companion")
    if keywords:
        c.setKeywords(keywords)
    return c
