"""Render a report document (see :mod:`companion.render.document`) as a PDF.

Byte-identical output for the same document: reportlab's invariant mode, no clock, bundled
fonts only. All text is escaped before it reaches a Paragraph, so a player called ``<b>Bo & Jo``
prints exactly so.
"""
from __future__ import annotations

import importlib
import io
import os
from contextlib import contextmanager
from typing import Any

from companion import __version__
from companion.render.fonts import MONO, SANS, SANS_BOLD, register_fonts

FIGURES: dict[str, str] = {}
"""Short names of shared figures (``name: "module:function"``); none yet. A game's own figure
is named by its ``module:function`` in the figure block, so this module names no game."""

# the fonts of the report's own text (a figure registers those it draws with)
REPORT_FONTS = (SANS, SANS_BOLD, MONO)

KEEP_LINES = 80
"""A group of order lines up to this long (at most a page of two columns) starts on the page
of its title, after a page break if need be; a longer one follows its title wherever it is."""

INK = (0.12, 0.12, 0.14)
ACCENT = (0.45, 0.12, 0.12)


def _styles():
    from reportlab.lib.colors import Color
    from reportlab.lib.styles import ParagraphStyle

    ink = Color(*INK)
    base = ParagraphStyle("body", fontName=SANS, fontSize=9.5, leading=12.5, textColor=ink,
                          spaceAfter=3, bulletFontName=SANS)
    return {
        "body": base,
        "title": ParagraphStyle("title", parent=base, fontName=SANS_BOLD, fontSize=17,
                                leading=21, spaceAfter=2, textColor=Color(*ACCENT)),
        "h2": ParagraphStyle("h2", parent=base, fontName=SANS_BOLD, fontSize=12, leading=15,
                             spaceBefore=9, spaceAfter=4, textColor=Color(*ACCENT)),
        "h3": ParagraphStyle("h3", parent=base, fontName=SANS_BOLD, fontSize=9.5, leading=12,
                             spaceBefore=4, spaceAfter=2),
        "cell": ParagraphStyle("cell", parent=base, fontSize=8.5, leading=10.5, spaceAfter=0),
        "cellhead": ParagraphStyle("cellhead", parent=base, fontName=SANS_BOLD, fontSize=8.5,
                                   leading=10.5, spaceAfter=0),
        "option": ParagraphStyle("option", parent=base, fontName=MONO, fontSize=7.2, leading=9,
                                 spaceAfter=0, leftIndent=8, firstLineIndent=-8),
        "code": ParagraphStyle("code", parent=base, fontName=MONO, fontSize=7.8, leading=9.8,
                               spaceAfter=0),
        "small": ParagraphStyle("small", parent=base, fontSize=7.5, leading=9.5),
        "bullet": ParagraphStyle("bullet", parent=base, leftIndent=10, firstLineIndent=0,
                                 bulletIndent=0, spaceAfter=2),
    }


def text(value: str) -> str:
    """Escape user or data text for a Paragraph (line breaks kept). (xml.sax.saxutils.escape
    does the same, but importing it imports urllib.request, http.client and ssl: 20 ms.)"""
    return (str(value).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
            .replace("\n", "<br/>"))


def figure_flowable(name: str, data: dict[str, Any], width: float):
    """The flowable of a figure block: ``name`` is a key of FIGURES or ``module:function``;
    the function takes (data, width in points) and returns a platypus flowable."""
    module_name, func = (FIGURES.get(name) or name).split(":")
    return getattr(importlib.import_module(module_name), func)(data, width)


def render_pdfs(docs: list[dict[str, Any]]) -> list[bytes]:
    """``render_pdf`` of every document (the reports of a turn), on several processors where
    that pays (:mod:`companion.render.parallel`): the same bytes, sooner."""
    from companion.render.parallel import fork_map

    return fork_map(render_pdf, docs, prepare=lambda: _load(docs))


def _load(docs: list[dict[str, Any]]) -> None:
    """Load what rendering these documents needs (reportlab, the fonts, the figures' modules),
    so that processes forked afterwards have it."""
    register_fonts(*REPORT_FONTS)
    import reportlab.platypus  # noqa: F401
    import reportlab.platypus.flowables  # noqa: F401
    import qrcode  # noqa: F401

    for doc in docs:
        for sec in doc.get("sections", []):
            for block in sec["blocks"]:
                if block["type"] == "figure":
                    name = FIGURES.get(block["figure"]) or block["figure"]
                    module = importlib.import_module(name.split(":")[0])
                    if getattr(module, "FONTS", None):
                        register_fonts(*module.FONTS)


def render_pdf(doc: dict[str, Any]) -> bytes:
    register_fonts(*REPORT_FONTS)
    from reportlab.lib.colors import Color
    from reportlab.lib.pagesizes import A4
    from reportlab.lib.units import mm
    from reportlab.platypus import (
        BaseDocTemplate, Frame, KeepTogether, PageTemplate, Paragraph, Spacer,
        Table, TableStyle,
    )
    from reportlab.platypus.flowables import BalancedColumns

    from companion.render.qr import draw_qr

    st = _styles()
    buffer = io.BytesIO()
    page_w, page_h = A4
    margin = 16 * mm
    qr_size = 30 * mm
    header_h = 36 * mm

    def first_page(canvas, _doc):
        canvas.showOutline()            # the reader opens with the sections listed
        canvas.saveState()
        if doc.get("qr"):
            x, y = page_w - margin - qr_size, page_h - margin - qr_size
            draw_qr(canvas, doc["qr"], x, y, qr_size)
            canvas.setFont(SANS, 6.5)
            canvas.setFillColorRGB(*INK)
            canvas.drawCentredString(x + qr_size / 2, y - 8, doc.get("qr_label", ""))
        later_pages(canvas, _doc)
        canvas.restoreState()

    def later_pages(canvas, _doc):
        canvas.saveState()
        canvas.setFont(SANS, 7)
        canvas.setFillColorRGB(0.4, 0.4, 0.4)
        canvas.drawString(margin, 9 * mm, doc.get("footer", ""))
        canvas.drawRightString(page_w - margin, 9 * mm, f"page {canvas.getPageNumber()}")
        canvas.setStrokeColorRGB(0.75, 0.75, 0.75)
        canvas.setLineWidth(0.4)
        canvas.line(margin, 12 * mm, page_w - margin, 12 * mm)
        canvas.restoreState()

    width = page_w - 2 * margin
    frame_first = Frame(margin, 14 * mm, width, page_h - margin - 14 * mm, id="first",
                        leftPadding=0, rightPadding=0, topPadding=0, bottomPadding=0)
    frame_later = Frame(margin, 14 * mm, width, page_h - margin - 14 * mm, id="later",
                        leftPadding=0, rightPadding=0, topPadding=0, bottomPadding=0)
    class Report(BaseDocTemplate):
        def afterFlowable(self, flowable):
            """A section heading just placed: a bookmark in the PDF outline."""
            title = getattr(flowable, "outline_title", None)
            if title:
                key = f"section-{self.seq.nextf('outline')}"
                self.canv.bookmarkPage(key)
                self.canv.addOutlineEntry(title, key, level=0, closed=False)

    template = Report(
        buffer, pagesize=A4, invariant=1, lang=doc.get("lang", "en"),
        title=doc.get("pdf_title", doc["title"]),
        author="companion", subject=doc.get("subject", ""),
        creator=f"companion {__version__}", initialFontName=SANS, leftMargin=margin,
        rightMargin=margin,
        topMargin=margin, bottomMargin=14 * mm)
    template.addPageTemplates([
        PageTemplate("first", [frame_first], onPage=first_page, autoNextPageTemplate="later"),
        PageTemplate("later", [frame_later], onPage=later_pages),
    ])

    story: list[Any] = []
    head_width = width - (qr_size + 6 * mm if doc.get("qr") else 0)
    header_rows = [[Paragraph(text(label), st["cellhead"]), Paragraph(text(value), st["cell"])]
                   for label, value in doc.get("header", [])]
    head = [Paragraph(text(doc["title"]), st["title"])]
    if header_rows:
        t = Table(header_rows, colWidths=[28 * mm, head_width - 28 * mm], hAlign="LEFT")
        t.setStyle(TableStyle([("VALIGN", (0, 0), (-1, -1), "TOP"),
                               ("FONT", (0, 0), (-1, -1), SANS, 9),
                               ("LEFTPADDING", (0, 0), (-1, -1), 0),
                               ("TOPPADDING", (0, 0), (-1, -1), 0.5),
                               ("BOTTOMPADDING", (0, 0), (-1, -1), 0.5)]))
        head.append(t)
    head_table = Table([[head]], colWidths=[head_width], hAlign="LEFT",
                       minRowHeights=[header_h if doc.get("qr") else 0])
    head_table.setStyle(TableStyle([("LEFTPADDING", (0, 0), (-1, -1), 0),
                                    ("FONT", (0, 0), (-1, -1), SANS, 9),
                                    ("RIGHTPADDING", (0, 0), (-1, -1), 0),
                                    ("VALIGN", (0, 0), (-1, -1), "TOP")]))
    story.append(head_table)

    grid = Color(0.78, 0.78, 0.8)
    shade = Color(0.94, 0.93, 0.9)
    for sec in doc.get("sections", []):
        # no forced page break before a section: its heading is kept with its first block,
        # so a short section stays on the page where it fits
        heading = Paragraph(text(sec["title"]), st["h2"])
        heading.outline_title = sec["title"]
        first = True
        for block in sec["blocks"]:
            flow = _block(block, st, width, grid, shade, Paragraph, Table, TableStyle, Spacer,
                          BalancedColumns, mm)
            if first:
                story.append(KeepTogether([heading, flow[0]]) if flow else heading)
                story.extend(flow[1:])
                first = False
            else:
                story.extend(flow)
        if first:
            story.append(heading)
    with pdf_date(doc.get("timestamp")):
        template.build(story)
    return buffer.getvalue()


@contextmanager
def pdf_date(stamp: str | None):
    """The PDF's dates (and so its document ID) are the turn's processing time when the
    document has one ('2027-01-01 00:00 UTC'), whatever the environment says: a report rendered
    again later is the same file. reportlab reads the time from SOURCE_DATE_EPOCH."""
    if not stamp:
        yield
        return
    import calendar
    import time

    try:
        epoch = calendar.timegm(time.strptime(stamp, "%Y-%m-%d %H:%M UTC"))
    except ValueError:
        yield
        return
    previous = os.environ.get("SOURCE_DATE_EPOCH")
    os.environ["SOURCE_DATE_EPOCH"] = str(epoch)
    try:
        yield
    finally:
        if previous is None:
            del os.environ["SOURCE_DATE_EPOCH"]
        else:
            os.environ["SOURCE_DATE_EPOCH"] = previous


def _block(block, st, width, grid, shade, Paragraph, Table, TableStyle, Spacer, BalancedColumns,
           mm) -> list[Any]:
    kind = block["type"]
    if kind == "para":
        return [Paragraph(text(block["text"]), st["body"])]
    if kind == "list":
        return [Paragraph(text(item), st["bullet"], bulletText="•") for item in block["items"]]
    if kind == "code":
        from reportlab.platypus import Preformatted

        from reportlab.pdfbase.pdfmetrics import stringWidth

        # lines longer than the page (a long name, a long chart line) wrap at a space,
        # continued with an indent, instead of running off the paper
        style = st["code"]
        fits = max(20, int(width / stringWidth("M", style.fontName, style.fontSize)))
        return [Preformatted("\n".join(block["lines"]), style, maxLineLength=fits,
                             splitChars=" ", newLineChars="  ")]
    if kind == "table":
        columns = block["columns"]
        rows = [[Paragraph(text(c), st["cellhead"]) for c in columns]]
        rows += [[Paragraph(text(c), st["cell"]) for c in row] for row in block["rows"]]
        weights = block.get("widths") or [1] * len(columns)
        total = sum(weights)
        t = Table(rows, colWidths=[width * w / total for w in weights], repeatRows=1,
                  hAlign="LEFT")
        t.setStyle(TableStyle([
            ("GRID", (0, 0), (-1, -1), 0.4, grid),
            ("FONT", (0, 0), (-1, -1), SANS, 9),
            ("BACKGROUND", (0, 0), (-1, 0), shade),
            ("VALIGN", (0, 0), (-1, -1), "TOP"),
            ("TOPPADDING", (0, 0), (-1, -1), 2), ("BOTTOMPADDING", (0, 0), (-1, -1), 2),
        ]))
        return [t, Spacer(1, 4)]
    if kind == "figure":
        return [figure_flowable(block["figure"], block["data"], width), Spacer(1, 4)]
    if kind == "options":
        from reportlab.platypus import KeepTogether

        out = []
        for group in block["groups"]:
            title = Paragraph(text(group["title"]), st["h3"])
            items = [Paragraph(text(line), st["option"]) for line in group["lines"]]
            if not items:
                out.append(title)
                continue
            longest = max(len(line) for line in group["lines"])
            columns = 1 if longest > 62 or group["lines"][0].startswith("assign <") else 2
            if columns > 1 and len(items) > 3:
                items = [BalancedColumns(items, nCols=columns, spaceBefore=0, spaceAfter=4,
                                         innerPadding=6)]
            if len(group["lines"]) <= KEEP_LINES:
                # a group's title never ends a page without its lines (the columns, or the
                # first line) below it; a section's heading is kept with it (render_pdf)
                out.append(KeepTogether([title, items[0]]))
            else:       # a list of pages: the title goes first, the columns split as they may
                out += [title, items[0]]
            out.extend(items[1:])
        return out
    if kind == "form":
        out = [Paragraph(text(block["text"]), st["small"])]
        rows = [[""] for _ in range(block["lines"])]
        t = Table(rows, colWidths=[width], rowHeights=[7.5 * mm] * block["lines"])
        t.setStyle(TableStyle([("LINEBELOW", (0, 0), (-1, -1), 0.5, grid),
                               ("FONT", (0, 0), (-1, -1), SANS, 9)]))
        out.append(t)
        return out
    raise ValueError(f"unknown block type {kind!r}")
