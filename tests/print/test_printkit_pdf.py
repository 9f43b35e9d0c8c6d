"""The PDF itself: page sizes, embedded fonts, byte-identical output, a clean qpdf check,
metadata and bookmarks, part selection, progress, duplex page order, and what is drawn
matching the layout."""
from __future__ import annotations

import io
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from companion.errors import UsageError
from companion.render.printkit import (A4, LETTER, PrintOptions, build_kit, calibration_pdf,
                                       plan_kit, write_kit)
from companion.render.printkit.calibrate import cross_centres, target_centres
from companion.render.printkit.layout import content_area
from companion.render.printkit.sample import sample_kit
from companion.render.printkit.units import mm

ROOT = Path(__file__).resolve().parents[2]


def _reader(data: bytes):
    from pypdf import PdfReader

    return PdfReader(io.BytesIO(data))


def _fonts(resources) -> list:
    out = []
    if resources is None:
        return out
    resources = resources.get_object()
    for font in (resources.get("/Font") or {}).values():
        out.append(font.get_object())
    for xobj in (resources.get("/XObject") or {}).values():
        out += _fonts(xobj.get_object().get("/Resources"))
    return out


def qpdf_check(data: bytes, tmp_path: Path) -> None:
    """``qpdf --check``: through pikepdf (which bundles libqpdf), else the qpdf binary."""
    path = tmp_path / "check.pdf"
    path.write_bytes(data)
    try:
        import pikepdf
    except ImportError:
        pikepdf = None
    if pikepdf is not None:
        job = pikepdf.Job(["qpdf", "--check", str(path)])
        job.run()
        assert job.exit_code == 0 and not job.has_warnings, "qpdf --check found problems"
        return
    if shutil.which("qpdf"):
        out = subprocess.run(["qpdf", "--check", str(path)], capture_output=True, text=True)
        assert out.returncode == 0, out.stdout + out.stderr
        return
    pytest.skip("neither pikepdf nor the qpdf binary is installed (pip install pikepdf)")


@pytest.mark.parametrize("paper,size", [("a4", (595.28, 841.89)), ("letter", (612.0, 792.0))])
def test_every_page_has_the_exact_paper_size(paper, size):
    data = build_kit(sample_kit(), PrintOptions.from_strings(paper=paper, backs="duplex-short"))
    for page in _reader(data).pages:
        box = page.mediabox
        assert (round(float(box.width), 2), round(float(box.height), 2)) == size
        assert (float(box.left), float(box.bottom)) == (0.0, 0.0)


def test_fonts_are_embedded_subsets(sample_pdf):
    reader = _reader(sample_pdf)
    seen = set()
    for page in reader.pages:
        for font in _fonts(page.get("/Resources")):
            base = str(font["/BaseFont"])
            seen.add(base)
            assert font["/Subtype"] == "/TrueType", f"{base} is not a TrueType font"
            descriptor = font["/FontDescriptor"].get_object()
            assert "/FontFile2" in descriptor, f"{base} is not embedded"
            assert base[1:8].endswith("+") and base[1:7].isupper(), f"{base} is not a subset"
    assert any("DejaVuSans" in s for s in seen)
    assert not any("Helvetica" in s or "Times" in s for s in seen)


def test_condensed_face_is_embedded_when_used():
    from companion.render.printkit import CardFace, Deck, Kit
    from companion.render.printkit.sample import _LONGEST

    kit = Kit("t", "Condensed", [Deck(title="D", cards=[CardFace("Long", "Event", _LONGEST)],
                                      checklist=False)])
    # on a mini European card the longest sample text needs the condensed face
    data = build_kit(kit, PrintOptions.from_strings(card="mini-euro"))
    names = {str(f["/BaseFont"]) for p in _reader(data).pages for f in _fonts(p["/Resources"])}
    assert any("DejaVuSansCondensed" in n for n in names), names


def test_same_input_gives_byte_identical_pdfs(sample_pdf, duplex_options, tmp_path):
    assert build_kit(sample_kit(), duplex_options) == sample_pdf
    # and in a fresh interpreter (another hash seed, fonts registered anew)
    out = tmp_path / "again.pdf"
    code = ("from companion.render.printkit import PrintOptions, write_kit; "
            "from companion.render.printkit.sample import sample_kit; "
            "write_kit(sample_kit(), PrintOptions.from_strings(paper='a4', backs='duplex-long', "
            f"bleed='3', back_offset='0.5,-1'), {str(out)!r})")
    subprocess.run([sys.executable, "-c", code], check=True, cwd=ROOT,
                   env={"PYTHONHASHSEED": "12345", "PATH": "/usr/bin:/bin"})
    assert out.read_bytes() == sample_pdf


def test_pdfs_pass_qpdf_check(sample_pdf, tmp_path):
    qpdf_check(sample_pdf, tmp_path)
    qpdf_check(calibration_pdf("letter"), tmp_path)
    qpdf_check(build_kit(sample_kit(), PrintOptions.from_strings(paper="letter", backs="fold",
                                                                 cut_lines=True)), tmp_path)


def test_metadata_and_bookmarks(sample_pdf, sample_plan):
    reader = _reader(sample_pdf)
    meta = reader.metadata
    assert meta.title == "Sample print-and-play kit"
    assert "A4" in meta.subject and "duplex-long" in meta.subject
    assert meta.creator.startswith("companion ")
    titles = [o["/Title"] for o in reader.outline if not isinstance(o, list)]
    for part in sample_kit().parts:
        assert part.title in titles, f"no bookmark for {part.title}"
    # each bookmark points at the part's first page
    for outline in reader.outline:
        if isinstance(outline, list):
            continue
        page = reader.get_destination_page_number(outline)
        planned = sample_plan.pages[page]
        assert planned.part is None or planned.part.title == outline["/Title"]
    assert len(reader.pages) == len(sample_plan.pages)


def test_only_selects_parts_and_names_the_choices():
    kit = sample_kit()
    plan = plan_kit(kit, PrintOptions.from_strings(only="chits,board"))
    kinds = {p.part.kind for p in plan.parts}
    assert kinds == {"chits", "board"}
    plan = plan_kit(kit, PrintOptions.from_strings(only="characters"))
    assert [p.part.title for p in plan.parts] == ["Characters"]
    plan = plan_kit(kit, PrintOptions.from_strings(only="pad"))
    assert [p.part.title for p in plan.parts] == ["Score pad"]
    with pytest.raises(UsageError) as err:
        plan_kit(kit, PrintOptions.from_strings(only="chitz"))
    assert "did you mean 'chits'" in err.value.hint
    assert "cards" in err.value.hint and "board" in err.value.hint


def test_reprint_prints_only_the_named_pieces_with_their_numbers(cli):
    """A lost or worn card, printed again on its own: the same number ('85/101') and back as in
    the whole kit, one copy per mention; a name that is not in the kit, or that could be
    several, is refused with suggestions; the kit's own file stays as it was."""
    import pypdfium2 as pdfium

    kit = cli.ok("print", "fluxx").out.strip()
    before = Path(kit).read_bytes()
    out = cli.ok("print", "fluxx", "--reprint", "Draw 3, Play 2 of Them", "--reprint",
                 "jackpot", "--reprint", "Jackpot!").out.strip()
    assert out.endswith("fluxx-reprint.pdf") and Path(kit).read_bytes() == before
    doc = pdfium.PdfDocument(Path(out).read_bytes())
    texts = [doc[i].get_textpage().get_text_range() for i in range(len(doc))]
    sheet = next(t for t in texts if "/101" in t)
    assert sheet.count("Monty Python Fluxx 85/101") == 2 and "84/101" in sheet
    assert "Keeper" not in sheet and "Goal" not in sheet
    whole = pdfium.PdfDocument(before)
    assert any("Jackpot!" in whole[i].get_textpage().get_text_range() and
               "85/101" in whole[i].get_textpage().get_text_range() for i in range(len(whole)))
    bad = cli("print", "fluxx", "--reprint", "jackpott")
    assert bad.code == 2 and "no card or labelled chit" in bad.err and "'Jackpot!'" in bad.err
    many = cli("print", "fluxx", "--reprint", "draw")
    assert many.code == 2 and "could name several" in many.err and "'Draw 2'" in many.err
    assert "needs the name" in cli("print", "fluxx", "--reprint", " ").err
    # chits by their label, in the sample kit; other parts are left out
    plan = plan_kit(sample_kit(), PrintOptions.from_strings(reprint=["Gold"]))
    assert [p.part.kind for p in plan.parts] == ["chits"]
    assert [(c.front.label, c.count) for c in plan.parts[0].part.chits] == [("gold", 1)]


def test_progress_is_reported_for_every_page():
    calls = []
    data = build_kit(sample_kit(parts="deck"), PrintOptions(),
                     progress=lambda done, total, label: calls.append((done, total, label)))
    n = len(_reader(data).pages)
    assert [c[0] for c in calls] == list(range(1, n + 1))
    assert all(c[1] == n for c in calls)
    assert all(isinstance(c[2], str) and c[2] for c in calls)


@pytest.mark.parametrize("backs", ["duplex-long", "duplex-short"])
def test_duplex_fronts_are_on_odd_pages_followed_by_their_backs(backs):
    plan = plan_kit(sample_kit(), PrintOptions.from_strings(backs=backs))
    pages = plan.pages
    fronts = [i for i, p in enumerate(pages) if p.role == "front"]
    assert fronts
    for i in fronts:
        assert i % 2 == 0, f"page {i + 1} holds fronts but is printed on a back side"
        if pages[i].layout is not None and any(
                s.side == "front" for s in pages[i].layout.slots):
            nxt = pages[i + 1]
            if nxt.role == "back":
                assert {s.index for s in nxt.layout.slots} <= {
                    s.index for s in pages[i].layout.slots}


def test_every_page_says_print_at_100_percent(sample_pdf):
    import pypdfium2 as pdfium

    doc = pdfium.PdfDocument(sample_pdf)
    for i in range(len(doc)):
        text = doc[i].get_textpage().get_text_range()
        assert "Print at 100% (actual size)" in text, f"page {i + 1}"
    doc.close()


def _placed_forms(data: bytes, page_index: int) -> list[tuple[list[float], str]]:
    """(cm operands, form name) of each design placed on a page, in order: a form placed with
    ``q cm /Name Do Q``, or a design used once drawn in place with ``q cm <box> re W n ... Q``
    (named "inline"; reportlab starts the clipping path with ``n``)."""
    from pypdf.generic import ContentStream

    reader = _reader(data)
    page = reader.pages[page_index]
    ops = [op for op in ContentStream(page.get_contents(), reader).operations]
    placed = []
    depth = 0
    for k, (operands, op) in enumerate(ops):
        if op == b"q":
            depth += 1
        elif op == b"Q":
            depth -= 1
        elif op == b"cm" and depth == 1 and ops[k - 1][1] == b"q":
            cm = [float(v) for v in operands]
            following = [o for _, o in ops[k + 1:k + 5]]
            if following[:1] == [b"Do"]:
                placed.append((cm, str(ops[k + 1][0][0])))
            elif following[:3] in ([b"n", b"re", b"W"], [b"n", b"re", b"W*"]):
                placed.append((cm, "inline"))
    return placed


def test_what_is_drawn_matches_the_layout_transforms(sample_pdf, sample_plan):
    checked = 0
    for index, page in enumerate(sample_plan.pages):
        if page.layout is None:
            continue
        placed = _placed_forms(sample_pdf, index)
        slots = page.layout.slots
        assert len(placed) == len(slots)
        for (cm, name), slot in zip(placed, slots):
            assert cm is not None
            assert all(abs(a - b) < 1e-3 for a, b in zip(cm, slot.transform)), (cm, slot.transform)
            checked += 1
    assert checked > 100


def _is_white(px) -> bool:
    return all(v >= 250 for v in px)


def test_what_is_drawn_matches_the_layout_pixels(sample_pdf, sample_plan, render_page):
    """Card backgrounds fill each trim and run into the bleed; outside the bleed rectangles
    (crop marks and the small print aside) the page is blank."""
    scale = 2.0
    checked = 0
    for index, page in enumerate(sample_plan.pages):
        if page.layout is None or page.part.title != "Sample deck":
            continue
        layout = page.layout
        img = render_page(sample_pdf, index, scale)
        H = layout.paper.height

        def px(x, y):
            return img.getpixel((int(x * scale), int((H - y) * scale)))

        for slot in layout.slots:
            for x, y in ((slot.trim.x + 1.5, slot.trim.cy), (slot.bleed.x + 1.0, slot.bleed.cy),
                         (slot.trim.cx, slot.bleed.y + 1.0), (slot.bleed.x1 - 1.0, slot.trim.cy),
                         (slot.trim.cx, slot.bleed.y1 - 1.0)):
                assert not _is_white(px(x, y)), f"page {index + 1}: blank inside {slot}"
            if page.role == "front":
                # the background in the bleed is the card's own border colour
                assert px(slot.bleed.x + 1.0, slot.trim.cy) == px(slot.trim.x + 1.5, slot.trim.cy)
        marks = layout.crop_marks
        for gx in range(0, int(layout.paper.width), 7):
            for gy in range(0, int(H), 7):
                if any(s.bleed.grow(1.5).contains_point(gx, gy) for s in layout.slots):
                    continue
                if layout.notice.grow(1.0).contains_point(gx, gy):
                    continue
                if any(_near(m, gx, gy, 2.0) for m in marks):
                    continue
                assert _is_white(px(gx, gy)), f"page {index + 1}: ink at ({gx}, {gy}) outside the layout"
                checked += 1
    assert checked > 1000


def _near(seg, x, y, d):
    return (min(seg.x0, seg.x1) - d <= x <= max(seg.x0, seg.x1) + d
            and min(seg.y0, seg.y1) - d <= y <= max(seg.y0, seg.y1) + d)


def test_calibration_sheet():
    for paper in (A4, LETTER):
        data = calibration_pdf(paper)
        reader = _reader(data)
        assert len(reader.pages) == 2
        for page in reader.pages:
            assert abs(float(page.mediabox.width) - paper.width) < 1e-3
            assert abs(float(page.mediabox.height) - paper.height) < 1e-3
        text = reader.pages[0].extract_text()
        assert "--back-offset X,Y" in text and "100 mm" in text and "Print at 100%" in text
        assert reader.metadata.title == "Printer calibration sheet"
        # with no offset each cross lies exactly behind its target, for either flip
        for backs, flip in (("duplex-long", lambda x, y: (paper.width - x, y)),
                            ("duplex-short", lambda x, y: (x, paper.height - y))):
            targets = sorted(target_centres(paper))
            seen = sorted(flip(*c) for c in cross_centres(paper, backs))
            for (tx, ty), (sx, sy) in zip(targets, seen):
                assert abs(tx - sx) < 1e-9 and abs(ty - sy) < 1e-9
            # an offset moves the crosses as seen from the front exactly as it moves card backs
            moved = sorted(flip(*c) for c in cross_centres(paper, backs, (1.0, -0.5)))
            for (tx, ty), (sx, sy) in zip(targets, moved):
                assert abs(sx - (tx + mm(1.0))) < 1e-9 and abs(sy - (ty - mm(0.5))) < 1e-9


def test_calibration_targets_and_rulers_are_inside_the_safe_area():
    for paper in (A4, LETTER):
        safe, notice, area = content_area(paper, 8.0)
        for x, y in target_centres(paper):
            assert area.contains_point(x - mm(14), y - mm(10)) and area.contains_point(x + mm(14), y + mm(14))


def test_write_kit_writes_to_the_out_option(tmp_path):
    target = tmp_path / "out" / "kit.pdf"
    opts = PrintOptions.from_strings(only="charts", out=str(target))
    written = write_kit(sample_kit(), opts)
    assert written == target and target.read_bytes().startswith(b"%PDF-")
    assert not (tmp_path / "out" / "kit.pdf.part").exists()


def test_backs_none_prints_two_sided_parts_for_folding():
    plan = plan_kit(sample_kit(), PrintOptions.from_strings(backs="none"))
    by_title = {p.part.title: p for p in plan.parts}
    assert by_title["Sample deck"].backs == "none"
    assert all(p.role != "back" for p in by_title["Sample deck"].pages)
    assert by_title["Characters"].backs == "fold" and by_title["Characters"].note
    assert by_title["Counters"].backs == "fold"


def test_games_can_draw_their_own_faces_backs_chits_and_pages(tmp_path, render_page):
    from companion.render.printkit import (CardBack, CardFace, Chit, ChitFace, ChitSheet, Deck,
                                           FreePages, Kit)

    calls = []

    def face(pen, w, h):
        calls.append(("face", round(w), round(h), pen.bleed_mm))
        pen.rect(-pen.bleed_mm, -pen.bleed_mm, w + 2 * pen.bleed_mm, h + 2 * pen.bleed_mm,
                 fill="#204060", stroke=None)
        pen.text_box(3, 3, w - 6, h - 6, "Drawn by the game, **in its own words**.",
                     colour="white")
        pen.icon("crown", w / 2 - 5, h / 2 - 5, 10)

    def back(pen, w, h):
        calls.append(("back", round(w), round(h)))
        pen.rect(0, 0, w, h, fill="#802020", stroke=None)

    def chit(pen, w, h):
        calls.append(("chit", round(w), round(h)))
        pen.circle(w / 2, h / 2, w / 3, fill="gold")

    def sheet(pen, w, h, index):
        calls.append(("page", index))
        pen.text(0, h - 5, "Blank influence sheet", size_pt=12, bold=True)
        pen.hexagon(w / 2, h / 2, 20, fill="#dddddd")
        pen.line(0, 0, w, 0, dash_mm=[2, 1])

    kit = Kit("custom", "Custom drawings", [
        Deck(title="Own cards", cards=[CardFace("X", draw=face, count=3)],
             back=CardBack(draw=back)),
        ChitSheet(title="Own chits", chits=[Chit(ChitFace(draw=chit), count=4)]),
        FreePages(title="Sheets", draw=sheet, count=2),
    ])
    data = build_kit(kit, PrintOptions.from_strings(backs="duplex-long", bleed="2"))
    qpdf_check(data, tmp_path)
    # each design is drawn once (as a form) however often it is printed
    assert calls.count(("face", 63, 88, 2.0)) == 1
    assert calls.count(("back", 63, 88)) == 1
    assert calls.count(("chit", 16, 16)) == 1
    assert ("page", 0) in calls and ("page", 1) in calls
    plan = plan_kit(kit, PrintOptions.from_strings(backs="duplex-long", bleed="2"))
    index = next(i for i, p in enumerate(plan.pages) if p.role == "front")
    slot = plan.pages[index].layout.slots[0]
    img = render_page(data, index, 1.0)
    px = img.getpixel((int(slot.trim.x + 4), int(A4.height - slot.trim.y - 4)))
    assert px[2] > px[0] + 30, f"the game's dark blue background is not drawn: {px}"


def test_bad_input_is_reported_before_drawing():
    from companion.render.printkit import CardFace, Deck, Kit, Stat

    bad_icon = Kit("k", "K", [Deck(title="D", cards=[CardFace("A", stats=[Stat("swrod", 1)])])])
    with pytest.raises(UsageError) as err:
        plan_kit(bad_icon, PrintOptions())
    assert "unknown icon 'swrod'" in err.value.message and "did you mean 'sword'" in err.value.hint
    bad_colour = Kit("k", "K", [Deck(title="D", cards=[CardFace("A", colour="#12")])])
    with pytest.raises(UsageError) as err:
        plan_kit(bad_colour, PrintOptions())
    assert "'#12' is not a colour" in err.value.message
    dupes = Kit("k", "K", [Deck(title="D"), Deck(title="D")])
    with pytest.raises(UsageError, match="several parts are named d"):
        plan_kit(dupes, PrintOptions())
