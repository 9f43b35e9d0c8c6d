"""Issue 18's second round of short cuts keeps the print the same: a design placed once is drawn
in place (clipped as a form is), one placed several times is one form; pages that are all the
same are one form; one-line texts skip the line breaking and give the lines it gives; kit
streams are binary and deflated at the kit level, and reportlab's settings are put back.
No timing here: see benchmarks/print_kit.py."""
from __future__ import annotations

import io
import re

import pytest

from companion.registry import KINDS, get_kind
from companion.render.printkit import (CardFace, Deck, FreePages, Kit, PrintOptions, build_kit,
                                       plan_kit)
from companion.render.printkit import fit
from companion.render.printkit.sample import sample_kit

GAME_KITS = [k.id for k in KINDS if hasattr(get_kind(k.id), "print_kit")]


def _reader(data: bytes):
    from pypdf import PdfReader

    return PdfReader(io.BytesIO(data))


def _forms_on(reader, index: int) -> list[str]:
    resources = reader.pages[index].get("/Resources").get_object()
    xobjects = resources.get("/XObject") or {}
    return sorted(str(name) for name in xobjects)


def _kit_texts() -> list[str]:
    """Every table cell, paragraph and card text of the sample kit and the games' kits."""
    from companion.render.printkit.model import Bullets, Heading, Paragraph, ReferenceSheet, Table

    texts: list[str] = []
    kits = [sample_kit()] + [get_kind(k).print_kit() for k in GAME_KITS]
    for kit in kits:
        for part in kit.parts:
            if isinstance(part, Deck):
                for card in part.cards:
                    texts += [card.name, card.text or "", card.flavour or ""]
            if isinstance(part, ReferenceSheet):
                for block in part.blocks:
                    if isinstance(block, Table):
                        texts += [str(c) for row in [block.columns] + list(block.rows)
                                  for c in row]
                    elif isinstance(block, (Heading, Paragraph)):
                        texts.append(block.text)
                    elif isinstance(block, Bullets):
                        texts += list(block.items)
    return texts


EDGE_TEXTS = ["", " ", "one", "  two  spaces  ", "tab\tand\nbreak", "a\u00a0b nbsp",
              "**bold** and plain", "plain **bold**", "**all bold**", "un**even", "x" * 80,
              "long-hyphenated-word/with/slashes-that-must-break", "caf\u00e9 \u00fcber na\u00efve",
              "\r\nleading break", "trailing break\n", "a\n\nb"]


def _reference_parse(text: str, base: str):
    """The markup parser's general path (regular expressions), for every paragraph."""
    paragraphs = []
    for para in str(text).replace("\r\n", "\n").split("\n"):
        words = []
        pos = 0
        chunks = []
        for m in fit._BOLD.finditer(para):
            chunks.append((para[pos:m.start()], base))
            chunks.append((m.group(1), "b"))
            pos = m.end()
        chunks.append((para[pos:], base))
        pending = False
        for chunk, style in chunks:
            for token in re.split(r"(\s+)", chunk):
                if token == "":
                    continue
                if token.isspace():
                    pending = bool(words)
                    continue
                words.append(fit.Word(token, style, pending))
                pending = False
        paragraphs.append(words)
    return paragraphs


def test_the_markup_short_cut_splits_words_as_the_general_path_does():
    for text in sorted(set(_kit_texts())) + EDGE_TEXTS:
        for base in ("r", "b", "i"):
            assert fit._parse_markup(text, base) == _reference_parse(text, base), text


def test_one_line_texts_give_the_lines_the_line_breaking_gives(monkeypatch):
    from companion.render import fonts

    fonts.register_fonts()
    texts = sorted(set(_kit_texts())) + EDGE_TEXTS      # each distinct text once
    cases = []
    for text in texts:
        for base in ("r", "b"):
            for width in (20.0, 60.0, 140.0, 400.0):
                for size, condensed in ((6.0, True), (8.5, False)):   # small type condensed
                    cases.append((fit.parsed(text, base), width, size, fit.faces(condensed)))
    fast = [fit.wrap(*case) for case in cases]
    monkeypatch.setattr(fit, "_one_line", lambda *args: None)
    slow = [fit.wrap(*case) for case in cases]
    assert fast == slow
    assert sum(len(lines) == 1 for lines in fast) > len(cases) // 4   # the short cut is used


def _deck_kit(counts: list[int]) -> Kit:
    cards = [CardFace(name=f"Card {i}", kind="Test", text=f"Text of card {i}.", count=n)
             for i, n in enumerate(counts)]
    return Kit(game="test", title="Reuse test", parts=[Deck(title="Deck", cards=cards)])


def test_a_design_placed_once_is_drawn_in_place_and_a_repeated_one_is_a_form():
    options = PrintOptions.from_strings(backs="none")
    data = build_kit(_deck_kit([1, 3, 1]), options)
    reader = _reader(data)
    plan = plan_kit(_deck_kit([1, 3, 1]), options)
    sheet_pages = [i for i, p in enumerate(plan.pages) if p.layout is not None]
    forms = sorted({name for i in sheet_pages for name in _forms_on(reader, i)})
    assert len(forms) == 1                                 # card 1's three copies
    assert plan.forms.uses == {"P0F0": 1, "P0F1": 3, "P0F2": 1}
    text = "".join(reader.pages[i].extract_text() for i in sheet_pages)
    assert "Card 0" in text and "Card 2" in text           # drawn on the page itself
    assert data == build_kit(_deck_kit([1, 3, 1]), options)


def test_pages_that_are_all_the_same_are_one_form_placed_on_each():
    kit = get_kind("gral").print_kit()
    sheets = next(p for p in kit.parts if isinstance(p, FreePages))
    assert sheets.same_pages and sheets.count > 1
    options = PrintOptions.from_strings(only="sheets")
    plan = plan_kit(kit, options)
    pages = [i for i, p in enumerate(plan.pages) if p.part is sheets]
    assert len(pages) == sheets.count
    reader = _reader(build_kit(kit, options))
    placed = [_forms_on(reader, i) for i in pages]
    assert all(len(f) == 1 for f in placed) and len({f[0] for f in placed}) == 1
    for i in pages:                                       # each page still says which it is
        assert f"page {pages.index(i) + 1} of {sheets.count}" in reader.pages[i].extract_text()


def test_pages_that_differ_are_drawn_each_on_its_own():
    seen = []

    def draw(pen, w, h, index):
        seen.append(index)
        pen.text(10, h - 10, f"Sheet number {index + 1}", size_pt=12)

    kit = Kit(game="test", title="Pages", parts=[FreePages(title="Pad", draw=draw, count=3)])
    reader = _reader(build_kit(kit, PrintOptions()))
    assert seen == [0, 1, 2]
    texts = [page.extract_text() for page in reader.pages]
    for k in (1, 2, 3):
        assert any(f"Sheet number {k}" in t for t in texts)


def test_kit_streams_are_binary_and_reportlab_settings_are_put_back():
    from reportlab import rl_config
    from reportlab.pdfbase import pdfdoc

    encode = pdfdoc.PDFStreamFilterZCompress.encode
    a85 = rl_config.useA85
    data = build_kit(sample_kit(cards=6, parts="deck"), PrintOptions())
    assert pdfdoc.PDFStreamFilterZCompress.encode is encode and rl_config.useA85 == a85
    assert b"/ASCII85Decode" not in data and b"/FlateDecode" in data
    reader = _reader(data)
    assert all(page.extract_text() for page in reader.pages)
    with pytest.raises(Exception):
        build_kit(sample_kit(cards=6, parts="deck"), PrintOptions.from_strings(only="nothing"))
    assert pdfdoc.PDFStreamFilterZCompress.encode is encode and rl_config.useA85 == a85


def test_a_stamp_is_drawn_once_and_placed_again_as_the_same_operators():
    from companion.render.printkit.pdfcanvas import new_canvas
    from companion.render.printkit.pen import Pen
    from companion.render.printkit.units import A4

    calls = []

    def emblem(unit):
        calls.append(unit.unit_pt)
        unit.polygon([(0.1, 0.1), (0.9, 0.1), (0.5, 0.9)], fill="#a3202b", line_pt=0.7)
        unit.text(0.5, 0.3, "x", size_pt=6, align="centre")

    c = new_canvas(io.BytesIO(), A4, title="t", subject="s")
    c.scale(72 / 25.4, 72 / 25.4)
    pen = Pen(c, 100, 100)
    start = len(c._code)
    pen.stamp("e", 10, 10, 8, emblem)
    first = c._code[start:]
    start = len(c._code)
    pen.stamp("e", 40, 20, 8, emblem)
    second = c._code[start:]
    pen.stamp("e", 40, 20, 16, emblem)                     # another size: drawn again
    assert len(calls) == 2
    assert first[2:] == second[2:] and first[:2] != second[:2]   # only the placement differs
