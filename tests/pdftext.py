"""The text of a PDF as pdfium reads it, page after page (one helper for every test that looks
for words, or for secrets, in a PDF; pdfium is many times faster than pypdf's extract_text)."""
from __future__ import annotations

from pathlib import Path

import pypdfium2 as pdfium


def pdf_text(source: bytes | str | Path) -> str:
    """Every page's text, pages separated by a line break; ``source`` is the PDF's bytes or
    its file."""
    data = source if isinstance(source, bytes) else Path(source).read_bytes()
    doc = pdfium.PdfDocument(data)
    try:
        return "\n".join(doc[i].get_textpage().get_text_range() for i in range(len(doc)))
    finally:
        doc.close()
