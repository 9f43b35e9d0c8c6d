"""A PDF's texts as printed (pypdfium2): their sizes (the print suite's minimum, 5.5 pt, is
checked on every kit and on the Knights of Camelot journals) and a cover page's text."""
from __future__ import annotations

MIN_PT = 5.5


def small_texts(pdf: bytes, pages=None) -> list[tuple[int, float, str]]:
    """(page, size, text) of every run of text set below MIN_PT as printed (font size times
    the scale of its text matrix: a form placed reduced makes its text smaller)."""
    import pypdfium2 as pdfium
    import pypdfium2.raw as raw

    doc = pdfium.PdfDocument(pdf)
    out = []
    try:
        for i in (range(len(doc)) if pages is None else pages):
            textpage = doc[i].get_textpage()
            run, run_size = "", None
            for k in range(textpage.count_chars()):
                m = raw.FS_MATRIX()
                raw.FPDFText_GetMatrix(textpage.raw, k, m)
                size = raw.FPDFText_GetFontSize(textpage.raw, k) * abs(m.a * m.d - m.b * m.c) ** 0.5
                char = chr(raw.FPDFText_GetUnicode(textpage.raw, k))
                if char.strip() and size < MIN_PT - 0.05:
                    if run_size is not None and abs(size - run_size) < 0.01:
                        run += char
                        continue
                    if run:
                        out.append((i + 1, round(run_size, 2), run))
                    run, run_size = char, size
            if run:
                out.append((i + 1, round(run_size, 2), run))
    finally:
        doc.close()
    return out


def cover_text(pdf: bytes) -> str:
    """The first page's text on one line (a kit's cover)."""
    import pypdfium2 as pdfium

    doc = pdfium.PdfDocument(pdf)
    try:
        return doc[0].get_textpage().get_text_range().replace("\r", "").replace("\n", " ")
    finally:
        doc.close()
