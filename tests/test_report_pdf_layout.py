"""The layout of a report's PDF (companion/render/report_pdf.py): a group of order lines never
leaves its title (and its section's heading) alone at the foot of a page."""
from __future__ import annotations

import pypdfium2 as pdfium

from companion.render import document as d
from companion.render.report_pdf import render_pdf


def pages(data: bytes) -> list[str]:
    pdf = pdfium.PdfDocument(data)
    try:
        return [pdf[i].get_textpage().get_text_range() for i in range(len(pdf))]
    finally:
        pdf.close()


def test_a_group_of_order_lines_starts_on_the_page_of_its_title():
    """However much comes before it, the section heading, the group's title and the group's
    first line are on one page (the heading and title used to close page 3 of a Knights of
    Camelot report with the lines on page 4)."""
    for count, filler in [(12, n) for n in range(40, 75)] + [(3, 41), (80, 30), (80, 60)]:
        lines = [f"move Area{i:03d}" for i in range(count)]
        doc = {"title": "T", "header": [["Game", "g"]], "footer": "f", "sections": [
            d.section("What happened", d.bullet_list([f"Event number {i}." for i in
                                                      range(filler)])),
            d.section("What you can order now", d.options([("Legal lines now", lines)])),
        ]}
        text = pages(render_pdf(doc))
        where = {needle: next(i for i, page in enumerate(text) if needle in page)
                 for needle in ("What you can order now", "Legal lines now", "move Area000")}
        assert len(set(where.values())) == 1, (filler, where)


def test_a_list_of_order_lines_longer_than_a_page_follows_its_title():
    """A group too long for one page is not moved to a fresh page (nor its title parted from
    the section's heading): it starts under its title and runs on."""
    lines = [f"move Area{i:03d}" for i in range(400)]
    doc = {"title": "T", "header": [["Game", "g"]], "footer": "f", "sections": [
        d.section("What happened", d.bullet_list([f"Event number {i}." for i in range(41)])),
        d.section("What you can order now", d.options([("Legal lines now", lines)])),
    ]}
    text = pages(render_pdf(doc))
    heading = next(i for i, page in enumerate(text) if "What you can order now" in page)
    assert "Legal lines now" in text[heading] and "move Area399" in text[-1]
