"""The layout is data: trim and bleed rectangles, crop marks, duplex and fold geometry, tiles."""
from __future__ import annotations

import itertools

import pytest

from companion.errors import UsageError
from companion.render.printkit import A4, CARD_SIZES, LETTER, CardSize, layout_items, tile_board
from companion.render.printkit.layout import MARK_GAP, apply, content_area
from companion.render.printkit.units import EPS, Rect, mm

TOL = 1e-6
CASES = list(itertools.product(
    [A4, LETTER],
    list(CARD_SIZES.values()) + [CardSize(88, 63, "landscape"), CardSize(16, 16, "chit")],
    [0.0, 3.0],
    ["none", "duplex-long", "duplex-short", "fold"],
))


def _close(a: Rect, b: Rect, tol: float = 1e-6) -> bool:
    return all(abs(p - q) < tol for p, q in zip((a.x, a.y, a.w, a.h), (b.x, b.y, b.w, b.h)))


def _ids(case):
    paper, size, bleed, backs = case
    return f"{paper.name}-{size.name or size.label}-b{bleed:g}-{backs}"


def _plan(paper, size, bleed, backs, **kw):
    count = kw.pop("count", 23)
    return layout_items(count, size, paper, bleed_mm=bleed, backs=backs,
                        back_offset_mm=kw.pop("offset", (0.0, 0.0)), cut_lines=True, **kw)


@pytest.mark.parametrize("case", CASES, ids=[_ids(c) for c in CASES])
def test_trim_rectangles_are_exact_inside_the_safe_area_and_disjoint(case):
    paper, size, bleed, backs = case
    plan = _plan(paper, size, bleed, backs)
    assert plan.per_sheet >= 1
    placed = 0
    for page in plan.pages:
        safe, notice, area = content_area(paper, 8.0)
        if page.role == "back" and backs == "duplex-short":
            area = Rect(area.x, paper.height - area.y1, area.w, area.h)
            notice = Rect(notice.x, paper.height - notice.y1, notice.w, notice.h)
        assert _close(page.notice, notice)
        for slot in page.slots:
            w, h = (size.height, size.width) if slot.rotation in (90, 270) else (size.width, size.height)
            assert abs(slot.trim.w - w) < TOL and abs(slot.trim.h - h) < TOL
            assert safe.contains(slot.trim), slot
            assert area.contains(slot.bleed), "the bleed stays inside the printable area"
            assert _close(slot.bleed, slot.trim.grow(mm(bleed)))
            assert not notice.overlaps(slot.bleed)
        for a, b in itertools.combinations(page.slots, 2):
            assert not a.trim.overlaps(b.trim)
            # no bleed runs into another item's trim
            assert not a.bleed.overlaps(b.trim) and not b.bleed.overlaps(a.trim)
        placed += sum(1 for s in page.slots if s.side == "front")
    assert placed == 23
    indices = sorted(s.index for p in plan.pages for s in p.slots if s.side == "front")
    assert indices == list(range(23))


@pytest.mark.parametrize("case", CASES, ids=[_ids(c) for c in CASES])
def test_crop_marks_inside_page_outside_trims_no_closer_than_bleed(case):
    paper, size, bleed, backs = case
    plan = _plan(paper, size, bleed, backs)
    safe, notice, area = content_area(paper, 8.0)
    for page in plan.pages:
        if page.role == "back":
            assert page.crop_marks == [] and page.cut_lines == []
            continue
        assert page.crop_marks, "fronts have crop marks"
        for mark in page.crop_marks:
            assert mark.inside(paper.rect) and mark.inside(safe), "never reaching the paper edge"
            assert not mark.inside(notice.inset(0.01))
            assert mark.length >= mm(1.5) - TOL
            for slot in page.slots:
                d = slot.trim.distance_to_segment(mark)
                assert d >= mm(bleed) + MARK_GAP - TOL, (mark, slot.trim, d)
                assert slot.bleed.distance_to_segment(mark) > 0
        # every crop mark extends a trim edge
        edges_x = {round(v, 6) for s in page.slots for v in (s.trim.x, s.trim.x1)}
        edges_y = {round(v, 6) for s in page.slots for v in (s.trim.y, s.trim.y1)}
        for mark in page.crop_marks:
            if mark.x0 == mark.x1:
                assert round(mark.x0, 6) in edges_x
            else:
                assert round(mark.y0, 6) in edges_y
        # cut lines run along trim edges, never through an item
        for line in page.cut_lines:
            for slot in page.slots:
                inner = slot.trim.inset(0.01)
                assert inner.distance_to_segment(line) > 0


def test_cards_per_page():
    poker = CARD_SIZES["poker"]
    assert layout_items(9, poker, A4).per_sheet == 9
    letter = layout_items(9, poker, LETTER)
    assert letter.per_sheet == 8 and letter.rotated, "turned sideways, 8 fit on Letter"
    assert layout_items(9, poker, LETTER, rotate=False).per_sheet == 6
    assert layout_items(9, CARD_SIZES["tarot"], A4).per_sheet == 4
    assert layout_items(9, CARD_SIZES["mini-euro"], A4).per_sheet == 16
    assert layout_items(100, CardSize(16, 16), A4, crop_marks=False).per_sheet == 12 * 17


def test_gap_is_at_least_twice_the_bleed():
    plan = layout_items(9, CARD_SIZES["poker"], A4, bleed_mm=3)
    slots = plan.sheets[0].front.slots
    xs = sorted({s.trim.x for s in slots})
    gap = xs[1] - (xs[0] + slots[0].trim.w)
    assert abs(gap - mm(6)) < TOL
    plan = layout_items(9, CARD_SIZES["poker"], A4, gap_mm=2, rotate=False)
    xs = sorted({s.trim.x for s in plan.sheets[0].front.slots})
    assert abs(xs[1] - xs[0] - mm(65)) < TOL


def test_card_too_big_for_the_paper():
    with pytest.raises(UsageError) as err:
        layout_items(1, CardSize(200, 290), A4)
    assert "do not fit on A4" in err.value.message and "8 mm safe margin" in err.value.message


def _flip(backs, paper, x, y):
    return (paper.width - x, y) if backs == "duplex-long" else (x, paper.height - y)


@pytest.mark.parametrize("backs", ["duplex-long", "duplex-short"])
@pytest.mark.parametrize("paper", [A4, LETTER], ids=["a4", "letter"])
@pytest.mark.parametrize("size", [CARD_SIZES["poker"], CARD_SIZES["tarot"], CARD_SIZES["mini-usa"]],
                         ids=["poker", "tarot", "mini-usa"])
@pytest.mark.parametrize("offset", [(0.0, 0.0), (1.5, -0.75)], ids=["no-offset", "offset"])
def test_duplex_backs_land_behind_their_fronts(backs, paper, size, offset):
    plan = layout_items(20, size, paper, bleed_mm=3, backs=backs, back_offset_mm=offset)
    ox, oy = mm(offset[0]), mm(offset[1])
    w, h = size.width, size.height
    for sheet in plan.sheets:
        assert sheet.back is not None and sheet.back.role == "back"
        fronts = {s.index: s for s in sheet.front.slots}
        backs_ = {s.index: s for s in sheet.back.slots}
        assert fronts.keys() == backs_.keys()
        for i, front in fronts.items():
            back = backs_[i]
            # the back's trim, seen through the sheet from the front, is the front's trim moved
            # by exactly the back offset
            corners = [_flip(backs, paper, x, y) for x in (back.trim.x, back.trim.x1)
                       for y in (back.trim.y, back.trim.y1)]
            seen = Rect(min(c[0] for c in corners), min(c[1] for c in corners),
                        back.trim.w, back.trim.h)
            assert abs(seen.x - (front.trim.x + ox)) < 1e-6
            assert abs(seen.y - (front.trim.y + oy)) < 1e-6
            assert abs(seen.w - front.trim.w) < 1e-6 and abs(seen.h - front.trim.h) < 1e-6
            # point by point: turning the cut card over about its own vertical axis, the back's
            # point (w - u, v) is behind the front's point (u, v)
            for u, v in ((0, 0), (w, 0), (0, h), (w / 3, h / 5), (w, h)):
                fx, fy = apply(front.transform, u, v)
                bx, by = _flip(backs, paper, *apply(back.transform, w - u, v))
                assert abs(bx - (fx + ox)) < 1e-6 and abs(by - (fy + oy)) < 1e-6


def test_duplex_long_mirrors_columns_short_mirrors_rows():
    poker = CARD_SIZES["poker"]
    long_ = layout_items(9, poker, A4, backs="duplex-long").sheets[0]
    for f, b in zip(long_.front.slots, long_.back.slots):
        assert b.row == f.row and b.col == 2 - f.col
        assert b.rotation == 0
    short = layout_items(9, poker, A4, backs="duplex-short").sheets[0]
    for f, b in zip(short.front.slots, short.back.slots):
        assert b.col == f.col and b.row == 2 - f.row
        assert b.rotation == 180, "upright when the cut card is turned over sideways"


@pytest.mark.parametrize("paper", [A4, LETTER], ids=["a4", "letter"])
@pytest.mark.parametrize("size", list(CARD_SIZES.values()), ids=list(CARD_SIZES))
def test_fold_backs_mirror_their_fronts_across_the_fold_line(paper, size):
    plan = layout_items(7, size, paper, bleed_mm=2, backs="fold", cut_lines=True)
    assert plan.fold_axis in ("vertical", "horizontal")
    w = size.width
    for sheet in plan.sheets:
        page = sheet.front
        assert sheet.back is None and page.role == "fold"
        (fold,) = page.fold_lines
        fronts = {s.index: s for s in page.slots if s.side == "front"}
        backs = {s.index: s for s in page.slots if s.side == "back"}
        assert fronts.keys() == backs.keys()
        for i, front in fronts.items():
            back = backs[i]
            if plan.fold_axis == "vertical":
                flip = lambda x, y: (2 * fold.x0 - x, y)  # noqa: E731
                assert front.trim.x1 <= fold.x0 + EPS <= back.trim.x + 2 * EPS
            else:
                flip = lambda x, y: (x, 2 * fold.y0 - y)  # noqa: E731
                assert back.trim.y1 <= fold.y0 + EPS <= front.trim.y + 2 * EPS
            for u, v in ((0, 0), (w, size.height), (w / 4, size.height / 3)):
                fx, fy = apply(front.transform, u, v)
                bx, by = flip(*apply(back.transform, w - u, v))
                assert abs(bx - fx) < 1e-6 and abs(by - fy) < 1e-6
        for slot in page.slots:
            assert slot.trim.inset(0.01).distance_to_segment(fold) > 0
        # nothing tells the user to cut along the fold
        for seg in page.crop_marks + page.cut_lines:
            if fold.x0 == fold.x1:
                assert not (seg.x0 == seg.x1 and abs(seg.x0 - fold.x0) < 1e-4)
            else:
                assert not (seg.y0 == seg.y1 and abs(seg.y0 - fold.y0) < 1e-4)


def test_fold_without_gap_folds_on_the_shared_edge():
    plan = layout_items(4, CARD_SIZES["poker"], A4, backs="fold", cut_lines=True)
    page = plan.sheets[0].front
    (fold,) = page.fold_lines
    fronts = [s for s in page.slots if s.side == "front"]
    backs = [s for s in page.slots if s.side == "back"]
    if plan.fold_axis == "vertical":
        assert any(abs(s.trim.x1 - fold.x0) < 1e-6 for s in fronts)
        assert any(abs(s.trim.x - fold.x0) < 1e-6 for s in backs)
    else:
        assert any(abs(s.trim.y - fold.y0) < 1e-6 for s in fronts)


@pytest.mark.parametrize("paper", [A4, LETTER], ids=["a4", "letter"])
@pytest.mark.parametrize("dims", [(420, 300), (300, 420), (600, 600), (150, 100), (200, 290)])
def test_board_tiles_cover_the_board_with_overlaps(paper, dims):
    overlap = 10.0
    bp = tile_board(dims[0], dims[1], paper, overlap_mm=overlap)
    safe, notice, area = content_area(paper, 8.0)
    assert len(bp.tiles) == bp.cols * bp.rows
    tw, th = bp.tiles[0].window.w, bp.tiles[0].window.h
    for t in bp.tiles:
        assert area.contains(t.place), "tiles print inside the safe area"
        assert abs(t.place.w - t.window.w) < 1e-6 and abs(t.place.h - t.window.h) < 1e-6, "1:1"
        assert abs(t.window.w - tw) < 1e-6 and abs(t.window.h - th) < 1e-6, "same size"
        assert Rect(0, 0, bp.width, bp.height).contains(t.window)
        names = [n for n, _ in t.glue]
        right = [r for n, r in t.glue if r.x > t.place.x]
        if t.col < bp.cols - 1:
            right_n = next(x for x in bp.tiles if (x.col, x.row) == (t.col + 1, t.row))
            assert right_n.name in names
            # the neighbour starts exactly where the glue strip starts
            assert abs(right_n.window.x - (t.window.x1 - mm(overlap))) < 1e-6
            assert abs(right[0].w - mm(overlap)) < 1e-6
        if t.row < bp.rows - 1:
            below = next(x for x in bp.tiles if (x.col, x.row) == (t.col, t.row + 1))
            assert below.name in names
            assert abs(below.window.y1 - (t.window.y + mm(overlap))) < 1e-6
    # together the tiles cover the whole board
    xs = sorted({t.window.x for t in bp.tiles})
    ys = sorted({t.window.y for t in bp.tiles})
    assert xs[0] == 0 and abs(max(t.window.x1 for t in bp.tiles) - bp.width) < 1e-6
    assert ys[0] == 0 and abs(max(t.window.y1 for t in bp.tiles) - bp.height) < 1e-6
    names = [t.name for t in bp.tiles]
    assert names[0] == "A1" and len(set(names)) == len(names)


def test_board_turns_when_that_needs_fewer_pages():
    bp = tile_board(420, 300, A4)
    assert bp.rotated and len(bp.tiles) == 4
    assert len(tile_board(420, 300, A4, rotate=False).tiles) == 6
    assert len(tile_board(150, 100, A4).tiles) == 1


def test_the_last_page_of_a_long_flow_fills_its_columns_evenly():
    """A reference sheet over several pages: its last page's columns share what is left (one
    column half full beside an empty one looked unfinished), as a sheet of one page always
    did; the pages before it and the page count stay as they were."""
    from companion.render.fonts import register_fonts
    from companion.render.printkit import Heading, Table
    from companion.render.printkit.flow import flow
    from companion.render.printkit.units import Rect

    register_fonts()

    rows = [[str(n), f"result number {n} of the chart"] for n in range(1, 131)]
    blocks = [Heading("A long chart"), Table(["Roll", "Result"], rows)]
    area = Rect(40, 40, 515, 760)

    def bottoms(balance: bool):
        pages, ncols = flow(blocks, area, size=9, columns=2, first_top=0, later_top=0,
                            what="test", balance=balance, shrink=False)
        assert ncols == 2
        last: dict[float, float] = {}
        for op in pages[-1].ops:    # each op: (item or header, x, top, width)
            item, x, top, _ = op.__defaults__
            last[x] = min(last.get(x, top), top - item.height)
        return len(pages), last, [len(p.ops) for p in pages[:-1]]

    count, even, before = bottoms(True)
    assert (count, before) == bottoms(False)[::2]
    assert len(even) == 2 and abs(max(even.values()) - min(even.values())) < 20, even
    _, uneven, _ = bottoms(False)
    assert len(uneven) == 1 or max(uneven.values()) - min(uneven.values()) > 20
