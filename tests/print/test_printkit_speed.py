"""The print suite's short cuts (issue 18) change nothing in the output: the kit canvas writes
the operators reportlab's own methods write, the ASCII short cut of reportlab's PDFDocEncoding
gives the same bytes, a board on several pages is one form placed on each, and text checks
still refuse what the fonts cannot print.  No timing here: see benchmarks/print_kit.py."""
from __future__ import annotations

import contextlib
import io

import pytest

from companion.registry import KINDS, get_kind
from companion.render.printkit import PrintOptions, build_kit, plan_kit
from companion.render.printkit.sample import sample_kit

GAME_KITS = [k.id for k in KINDS if hasattr(get_kind(k.id), "print_kit")]


def _plain_reportlab(monkeypatch) -> None:
    """Build kits with reportlab's own canvas and codec (no short cuts)."""
    from reportlab.pdfgen import canvas as rl_canvas

    from companion.render.printkit import pdfcanvas

    monkeypatch.setattr(pdfcanvas, "_canvas_class", lambda: rl_canvas.Canvas)
    monkeypatch.setattr(pdfcanvas, "fast_pdfdoc_encoding", contextlib.nullcontext)


@pytest.mark.parametrize("kind", ["sample"] + GAME_KITS)
def test_the_kit_canvas_writes_the_same_bytes_as_reportlab(kind, monkeypatch):
    kit = sample_kit() if kind == "sample" else get_kind(kind).print_kit()
    options = PrintOptions.from_strings(bleed="3", backs="duplex-long", cut_lines=True)
    fast = build_kit(kit, options)
    with monkeypatch.context() as m:
        _plain_reportlab(m)
        plain = build_kit(kit, options)
    assert fast == plain


def test_strings_of_every_kind_are_written_as_reportlab_writes_them():
    from reportlab.pdfgen import canvas as rl_canvas

    from companion.render import fonts
    from companion.render.printkit.pdfcanvas import _canvas_class
    from companion.render.printkit.units import A4

    fonts.register_fonts()
    # more than 256 distinct characters, so that the fonts need a second subset
    many = "".join(chr(c) for c in range(0x100, 0x180)) + "".join(
        chr(c) for c in range(0x391, 0x3CA)) + "".join(chr(c) for c in range(0x410, 0x450))
    texts = ["plain", "", " ", "(paren) \\ back", "caf\u00e9 \u00a0nbsp", many, "plain",
             "\u00e9t\u00e9 again", many[::-1], "~!@#$%^&*()_+{}|:\"<>?`-=[];',./"]

    def draw(c):
        for k, text in enumerate(texts):
            for font in (fonts.SANS, fonts.SANS_BOLD, fonts.CONDENSED, "Helvetica"):
                c.setFont(font, 7 + k * 0.25)
                c.setFillColorRGB(0.1 * (k % 10), 0.5, 1)
                c.setStrokeColorRGB(1, 0, 0.25 * (k % 4))
                c.drawString(10 + k, 20 + k, text)
                c.drawCentredString(100.5, 30, text)
                c.drawRightString(200, 40.25, text)
            c.drawString(5, 5, text, mode=2)       # other arguments: reportlab's own path
            c.setFillColorRGB(0, 0, 0, alpha=0.5)
        c.showPage()

    out = []
    for cls in (_canvas_class(), rl_canvas.Canvas):
        buf = io.BytesIO()
        c = cls(buf, pagesize=(A4.width, A4.height), invariant=1, pageCompression=0,
                initialFontName=fonts.SANS)
        draw(c)
        c.save()
        out.append(buf.getvalue())
    assert out[0] == out[1]


def test_the_ascii_short_cut_of_pdfdocencoding_gives_the_same_bytes():
    from reportlab.pdfbase import pdfdoc

    from companion.render.printkit.pdfcanvas import fast_pdfdoc_encoding

    original = pdfdoc.pdfdocEnc
    samples = [chr(i) for i in range(128)] + ["BT /F1+0 9 Tf (a\\(b\\)) Tj ET\n0 0 m", "",
                                              "caf\u00e9", "\u20ac", b"bytes"]

    def outcome(fn, x):
        try:
            return fn(x)
        except Exception as exc:  # the codec refuses 0x18-0x1F: so must the short cut
            return type(exc)

    expected = [outcome(original, x) for x in samples]
    with fast_pdfdoc_encoding():
        assert pdfdoc.pdfdocEnc is not original
        with fast_pdfdoc_encoding():              # nested builds keep one short cut
            pass
        assert pdfdoc.pdfdocEnc is not original
        got = [outcome(pdfdoc.pdfdocEnc, x) for x in samples]
    assert pdfdoc.pdfdocEnc is original
    assert got == expected


def _board_forms(pdf: bytes, pages: list[int]) -> list[set[str]]:
    from pypdf import PdfReader

    reader = PdfReader(io.BytesIO(pdf))
    out = []
    for index in pages:
        resources = reader.pages[index].get("/Resources").get_object()
        xobjects = resources.get("/XObject") or {}
        out.append({str(name) for name in xobjects if "M" in str(name).rsplit(".", 1)[-1]})
    return out


def test_a_board_on_several_pages_is_drawn_once_and_placed_on_each():
    options = PrintOptions.from_strings(only="board")
    plan = plan_kit(sample_kit(), options)
    board_pages = [i for i, p in enumerate(plan.pages) if p.part is not None]
    assert len(board_pages) >= 3                  # the overview and at least two tiles
    pdf = build_kit(sample_kit(), options)
    forms = _board_forms(pdf, board_pages)
    assert all(len(f) == 1 for f in forms) and len(set.union(*forms)) == 1
    assert pdf == build_kit(sample_kit(), options)


def test_a_board_on_one_page_is_drawn_on_the_page():
    kit = get_kind("gral").print_kit()
    options = PrintOptions.from_strings(only="board")
    plan = plan_kit(kit, options)
    board_pages = [i for i, p in enumerate(plan.pages) if p.part is not None]
    assert len(board_pages) == 1
    assert _board_forms(build_kit(kit, options), board_pages) == [set()]


def test_text_checks_still_refuse_what_the_fonts_cannot_print():
    from companion.render.fonts import missing_glyphs
    from companion.render.printkit.fit import GlyphError, check_glyphs, fit_text

    printable = "".join(chr(i) for i in range(32, 127))
    assert missing_glyphs(printable) == []       # what the ASCII short cut relies on
    check_glyphs(printable + "\n\t\r", "ascii")
    check_glyphs(printable, "ascii")             # a second time: remembered
    for bad in ("bell \x07", "\x1f unit separator", "\u4e00 han"):
        with pytest.raises(GlyphError):
            check_glyphs(bad, "bad")
        with pytest.raises(GlyphError):
            fit_text(bad, 100, 100)


def test_the_collector_is_paused_only_while_a_kit_is_built():
    import gc

    from companion.errors import UsageError

    assert gc.isenabled()
    build_kit(sample_kit(cards=4, parts="deck"), PrintOptions.from_strings())
    assert gc.isenabled()
    with pytest.raises(UsageError):
        build_kit(sample_kit(cards=4, parts="deck"), PrintOptions.from_strings(only="nothing"))
    assert gc.isenabled()
    gc.disable()
    try:                                           # a caller's own choice is kept
        build_kit(sample_kit(cards=4, parts="deck"), PrintOptions.from_strings())
        assert not gc.isenabled()
    finally:
        gc.enable()


def test_a_trial_size_counts_the_lines_wrapping_would_make():
    """``fit_text`` tries sizes by counting lines (``_height``) and wraps only the size it
    keeps: the count gives the height of the wrapped text exactly, boundaries included."""
    import random

    from companion.render import fonts
    from companion.render.printkit import fit

    fonts.register_fonts()
    rnd = random.Random(18)
    words = ["a", "the", "Knight", "**bold**", "**two words**", "é", "MMMM", "", "\n", "  ",
             "supercalifragilisticexpialidocious", "x-y/z-long-hyphenated-word"]
    for _ in range(100):
        text = " ".join(rnd.choice(words) for _ in range(rnd.randint(1, 25)))
        paragraphs = list(fit.parsed(text, "r")) + list(fit.parsed("a *flavour*", "i"))
        size = rnd.choice([5.5, 7.25, 9.0, 13.0])
        f = fit.faces(rnd.random() < 0.5)
        widths = [rnd.uniform(25, 200)]    # the long words broken at the narrower ones
        lines = [line for line in fit.wrap(paragraphs, widths[0], size, f) if line.width]
        widths += [line.width + d for line in lines[:3] for d in (0.0, -1e-9, 1e-9)]  # just fit
        for k, width in enumerate(widths):
            leading, gap = ((1.17, 0.35), (1.0, 0.0))[k % 2]
            laid = fit._layout(paragraphs, width, size, f, leading, gap)
            assert fit._height(paragraphs, width, size, f, leading, gap) == laid.height


def test_balancing_asks_what_a_strict_placement_would_answer():
    """Balancing a one-page flow tries 24 frame heights with ``_Needs.fit_one_page``, which
    must answer as ``_place(..., strict=True)`` does: keep-with-next runs, repeated table
    headers, columns that run out."""
    import random

    from companion.render.printkit import flow
    from companion.render.printkit.units import Rect

    rnd = random.Random(18)
    for _ in range(300):
        items, header = [], None
        for _ in range(rnd.randint(1, 30)):
            r = rnd.random()
            item = flow.Item(rnd.choice([rnd.uniform(2, 30), 10.0, 12.5]), None,
                             space_before=rnd.choice([0.0, 3.8, rnd.uniform(0, 8)]),
                             keep_with_next=rnd.random() < 0.4)
            if r < 0.15:
                item.is_header, header = True, item
            elif header is not None and r < 0.7:
                item.header = header
            elif r > 0.97:
                item.header = flow.Item(7.0, None)     # a header placed elsewhere
            items.append(item)
        columns = [Rect(10 + 100 * c, 30.0, 90.0, rnd.uniform(50, 300))
                   for c in range(rnd.choice([1, 2, 3]))]
        needs = flow._Needs(items)
        for _ in range(12):
            mid = rnd.uniform(0, columns[0].h)
            trial = [Rect(f.x, f.y + mid, f.w, f.h - mid) for f in columns]
            strict = flow._place(items, trial, columns, "test", strict=True)
            assert needs.fit_one_page(trial) == (len(strict) == 1)
