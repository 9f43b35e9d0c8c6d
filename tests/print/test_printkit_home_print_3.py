"""Print-at-home fixes, third round: standees of several sizes sharing a page (Gral's tall and
small figures on one sheet), room to write on Gral's influence sheet, and ``--out`` naming a
folder that does not exist yet."""
from __future__ import annotations

import pytest

from companion.render.printkit import PrintOptions, build_kit, plan_kit
from companion.render.printkit.layout import MARK_GAP, layout_groups, layout_items
from companion.render.printkit.model import Kit, Standee, Standees
from companion.render.printkit.units import CardSize, mm
from companion.render.printkit.options import parse_paper


def _overlaps(a, b) -> bool:
    return a.x < b.x1 - 1e-6 and b.x < a.x1 - 1e-6 and a.y < b.y1 - 1e-6 and b.y < a.y1 - 1e-6


def _check_page(layout, bleed):
    slots = layout.slots
    for i, a in enumerate(slots):
        assert a.bleed.x >= layout.safe.x - 1e-6 and a.bleed.x1 <= layout.safe.x1 + 1e-6
        assert a.bleed.y >= layout.notice.y1 - 1e-6 and a.bleed.y1 <= layout.safe.y1 + 1e-6
        for b in slots[i + 1:]:
            assert not _overlaps(a.bleed, b.bleed), (a, b)
    for m in layout.crop_marks:
        for s in slots:   # no mark runs into any item's bleed (nor a neighbour section's)
            r = s.bleed
            inside = (min(m.x0, m.x1) < r.x1 - 1e-6 and max(m.x0, m.x1) > r.x + 1e-6
                      and min(m.y0, m.y1) < r.y1 - 1e-6 and max(m.y0, m.y1) > r.y + 1e-6)
            crossing = (m.x0 == m.x1 and r.x + 1e-6 < m.x0 < r.x1 - 1e-6
                        and min(m.y0, m.y1) < r.y1 - 1e-6 and max(m.y0, m.y1) > r.y + 1e-6) or (
                        m.y0 == m.y1 and r.y + 1e-6 < m.y0 < r.y1 - 1e-6
                        and min(m.x0, m.x1) < r.x1 - 1e-6 and max(m.x0, m.x1) > r.x + 1e-6)
            assert not inside and not crossing, (m, s)


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("bleed", [0.0, 3.0])
def test_strips_of_two_sizes_share_a_page_each_with_its_own_marks(paper, bleed):
    tall, small = CardSize(26, 108), CardSize(22, 88)
    plan = layout_groups([(tall, 4), (small, 5)], parse_paper(paper), bleed_mm=bleed,
                         gap_mm=2, cut_lines=True)
    assert len(plan.sheets) == 1 and plan.count == 9
    page = plan.sheets[0].front
    assert sorted(s.index for s in page.slots) == list(range(9))
    for s in page.slots:   # each item exactly its own size
        size = tall if s.index < 4 else small
        assert {round(s.trim.w, 6), round(s.trim.h, 6)} == {round(size.width, 6),
                                                            round(size.height, 6)}
    _check_page(page, plan.bleed)
    # the tall ones above the small ones, with room for both sets of marks between them
    low_tall = min(s.bleed.y for s in page.slots if s.index < 4)
    high_small = max(s.bleed.y1 for s in page.slots if s.index >= 4)
    assert low_tall - high_small >= 2 * (MARK_GAP + mm(1.5))
    # every cut line stays within its own section (no line through the other size)
    for line in page.cut_lines:
        ys = sorted((line.y0, line.y1))
        assert ys[1] <= high_small + 1e-6 or ys[0] >= low_tall - 1e-6


def test_one_size_is_laid_out_as_before():
    size = CardSize(25, 104)
    a = layout_groups([(size, 7)], parse_paper("a4"), gap_mm=2)
    b = layout_items(7, size, parse_paper("a4"), gap_mm=2)
    assert a == b


def test_sizes_that_do_not_fit_together_go_on_the_next_page():
    big = CardSize(60, 200)
    plan = layout_groups([(big, 3), (CardSize(22, 88), 2)], parse_paper("a4"), gap_mm=2,
                         rotate=False)
    assert [len(s.front.slots) for s in plan.sheets] == [3, 2]
    for sheet in plan.sheets:
        _check_page(sheet.front, plan.bleed)


def test_gral_standees_take_one_page_in_every_paper_and_bleed():
    from companion.gral.printables import kit

    for paper in ("a4", "letter"):
        for bleed in ("0", "3"):
            options = PrintOptions.from_strings(paper=paper, bleed=bleed, only="standees")
            plan = plan_kit(kit(), options)
            (part,) = plan.parts
            assert len(part.pages) == 1, (paper, bleed)
            assert len(part.pages[0].layout.slots) == 9
            sizes = {(round(s.trim.w), round(s.trim.h)) for s in part.pages[0].layout.slots}
            assert len(sizes) == 2


def test_a_part_of_standees_of_two_sizes_draws_each_at_its_size():
    seen = []

    def panel(pen, w, h):
        seen.append((round(w, 3), round(h, 3)))

    part = Standees(title="Pawns", figure_mm=40, width_mm=25,
                    figures=[Standee("big", draw=panel),
                             Standee("small", draw=panel, figure_mm=30, width_mm=20),
                             Standee("big 2", draw=panel)])
    kit = Kit(game="test", title="Test", parts=[part])
    a = build_kit(kit, PrintOptions.from_strings())
    assert a == build_kit(kit, PrintOptions.from_strings())   # deterministic
    assert set(seen) == {(25.0, 40.0), (20.0, 30.0)}
    plan = plan_kit(kit, PrintOptions.from_strings())
    slots = plan.parts[0].pages[0].layout.slots
    assert len(slots) == 3


# ----------------------------------------------------------------- the Gral influence sheet
def test_the_influence_line_has_room_for_a_handwritten_100():
    """The line after "Influence:" is a drawn line of INFLUENCE_LINE_MM (a handwritten figure
    is about 3 to 4 mm wide), read back from the page: the label's right end and the line."""
    import pypdfium2 as pdfium

    from companion.gral.printables import INFLUENCE_LINE_MM, kit

    assert INFLUENCE_LINE_MM >= 20
    pdf = pdfium.PdfDocument(build_kit(kit(), PrintOptions.from_strings(only="sheets")))
    page = pdf[1]
    text = page.get_textpage()
    found = text.search("Influence:")
    hit = found.get_next()
    assert hit is not None and "______" not in text.get_text_range()
    # the label is followed by free space: nothing printed in the next 20 mm on its line
    left, bottom, right, top = text.get_charbox(hit[0] + hit[1] - 1)
    free = text.get_text_bounded(right + 1, bottom, right + mm(20), top)
    assert free.strip() == ""


# -------------------------------------------------------------- --out in a missing folder
def test_out_in_a_missing_folder_is_created_and_said(cli, tmp_path):
    target = tmp_path / "kist" / "deeper" / "cal.pdf"
    result = cli.ok("print", "calibrate", "--out", str(target))
    assert result.out.strip() == str(target) and target.read_bytes()[:5] == b"%PDF-"
    assert f"created the folder {tmp_path / 'kist'}" in result.err
    # a second time the folder is there: nothing to say
    again = cli.ok("print", "calibrate", "--out", str(target))
    assert "created" not in again.err


def test_out_in_an_existing_folder_or_by_default_says_nothing(cli, tmp_path):
    result = cli.ok("print", "calibrate", "--out", str(tmp_path / "cal.pdf"))
    assert result.err == ""
    result = cli.ok("print", "calibrate")      # the default output folder is no surprise
    assert "created" not in result.err


def test_out_ending_in_a_slash_names_a_folder_even_when_missing(cli, tmp_path):
    """'--out kits/' is a folder (the shell's completion writes it so): made, said, and the
    kit's usual file name written into it, never a PDF file named 'kits'."""
    result = cli.ok("print", "gral", "--only", "standees", "--out", f"{tmp_path / 'kits'}/")
    assert (tmp_path / "kits" / "gral-kit.pdf").read_bytes()[:5] == b"%PDF-"
    assert result.out.strip() == str(tmp_path / "kits" / "gral-kit.pdf")
    assert result.err.count(f"created the folder {tmp_path / 'kits'}") == 1
    again = cli.ok("print", "gral", "--only", "standees", "--out", f"{tmp_path / 'kits'}/")
    assert "created" not in again.err


def test_a_kit_into_a_missing_folder_says_so(cli, tmp_path):
    target = tmp_path / "new" / "pawns.pdf"
    result = cli.ok("print", "gral", "--only", "standees", "--out", str(target))
    assert target.exists() and f"created the folder {tmp_path / 'new'}" in result.err


# ------------------------------------------------------------ small board tiles share a page
@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_two_small_tiles_share_a_page_and_keep_their_glue_strip(paper):
    from companion.render.printkit import tile_board
    from companion.render.printkit.layout import TILE_SEP, content_area

    p = parse_paper(paper)
    bp = tile_board(295, 123, p)              # the CCG's Avalon strip
    assert (bp.cols, bp.rows) == (2, 1) and {t.sheet for t in bp.tiles} == {0}
    a1, b1 = bp.tiles
    _, _, area = content_area(p, 8.0)
    for t in bp.tiles:
        assert area.contains(t.place)
        assert abs(t.place.w - t.window.w) < 1e-6 and abs(t.place.h - t.window.h) < 1e-6
    assert a1.place.y - b1.place.y1 >= TILE_SEP - 1e-6      # room to cut each out
    assert [n for n, _ in a1.glue] == ["B1"] and b1.cut_edges == ("left",)
    # a tile as large as a page still takes a page of its own, centred as before
    big = tile_board(600, 420, p)
    assert sorted({t.sheet for t in big.tiles}) == list(range(len(big.tiles)))
    for t in big.tiles:
        assert abs(t.place.cx - area.cx) < 1e-6 and abs(t.place.cy - area.cy) < 1e-6


def test_the_avalon_page_names_both_tiles():
    import pypdfium2 as pdfium

    from companion.grailccg.printables import kit

    pdf = pdfium.PdfDocument(build_kit(kit(), PrintOptions.from_strings(only="avalon")))
    assert len(pdf) == 2                                       # the cover and one page
    text = pdf[1].get_textpage().get_text_range()
    assert "tiles A1 and B1 of 2 x 1" in text and "left edge of B1 on the dashed line of A1" in text
    assert "Avalon: A1" in text and "Avalon: B1" in text
