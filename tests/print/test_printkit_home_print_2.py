"""A second round of printing every kit at home: the cover of a PDF of some parts only speaks
of those parts, a reprint of a piece that --only leaves out says so, and no text on any page
(cards, chits, standees, charts, free pages, the calibration sheet) is below 5.5 pt, apart from
a board's reduced assembly overview."""
from __future__ import annotations

import pytest

from companion.errors import UsageError
from companion.registry import KINDS, get_kind
from companion.render.printkit import Kit, Note, PrintOptions, build_kit, plan_kit
from companion.render.printkit.build import render_plan
from companion.render.printkit.sample import sample_kit
from tests.pdfsizes import cover_text as _cover_text
from tests.pdfsizes import small_texts as _small_texts

GAMES = [k.id for k in KINDS if hasattr(get_kind(k.id), "print_kit")]


# ------------------------------------------------------------------- the cover of --only
def test_the_cover_of_some_parts_leaves_out_the_notes_about_the_others(kits):
    whole = _cover_text(build_kit(kits["koc"], PrintOptions.from_strings(only="charts")))
    assert "Reference charts: every table" in whole
    cards = _cover_text(build_kit(kits["koc"], PrintOptions.from_strings(only="cards")))
    assert "Cards: 75 Knights" in cards and "Knights and Kings: VL is virtue" in cards
    for other in ("Chits:", "Map poster:", "Reference charts:", "Adventure Journals:"):
        assert other not in cards, other
    ladies = _cover_text(build_kit(kits["koc"], PrintOptions.from_strings(only="lady-cards")))
    assert "Cards: 75 Knights" in ladies and "Knights and Kings" not in ladies
    board = _cover_text(build_kit(kits["grailccg"], PrintOptions.from_strings(only="board")))
    assert "Print the play mat twice" in board and "starter decks" not in board
    sheets = _cover_text(build_kit(kits["gral"], PrintOptions.from_strings(only="sheets")))
    assert "influence sheet per game" in sheets and "standees" not in sheets


def test_every_note_of_every_kit_is_on_the_whole_kits_cover(kits):
    for game, kit in kits.items():
        plan = plan_kit(kit, PrintOptions())
        from companion.render.printkit.model import notes_for

        assert notes_for(kit, [p.part for p in plan.parts]) == list(kit.notes), game
        assert any(isinstance(note, Note) and note.parts for note in kit.notes), game


def test_a_note_about_parts_the_kit_does_not_have_is_refused():
    kit = sample_kit(parts="deck")
    bad = Kit(game=kit.game, title=kit.title, parts=kit.parts,
              notes=[Note("About the map.", ["board"])])
    with pytest.raises(UsageError, match="which the kit does not have"):
        plan_kit(bad, PrintOptions())
    fine = Kit(game=kit.game, title=kit.title, parts=kit.parts,
               notes=["Whole kit.", Note("About the cards.", ["cards"])])
    text = _cover_text(build_kit(fine, PrintOptions()))
    assert "Whole kit." in text and "About the cards." in text


# ------------------------------------------------------------------ --reprint with --only
def test_a_reprint_of_a_piece_that_only_leaves_out_says_so(kits):
    with pytest.raises(UsageError) as err:
        plan_kit(kits["koc"], PrintOptions.from_strings(only="journals", reprint=["Sir Bors"]))
    assert "it is in 'Knight cards', which --only leaves out" in err.value.message
    assert "knight-cards" in err.value.hint and "leave --only out" in err.value.hint
    # a name of two pieces: the whole kit's message, and what --only did
    with pytest.raises(UsageError) as err:
        plan_kit(kits["grailccg"], PrintOptions.from_strings(only="board", reprint=["Patsy"]))
    assert "2 different pieces" in err.value.message and "--only" in err.value.message
    assert "starter-arthur: Patsy" in err.value.hint
    # a name the kit does not have at all keeps its message
    with pytest.raises(UsageError, match="has no card or labelled chit"):
        plan_kit(kits["koc"], PrintOptions.from_strings(only="chits", reprint=["Sir Zzyzx"]))
    # and --only naming the part still works
    plan = plan_kit(kits["koc"], PrintOptions.from_strings(only="knight-cards",
                                                           reprint=["Sir Bors"]))
    assert [c.name for c in plan.parts[0].part.cards if c.count] == ["Sir Bors"]


# ------------------------------------------------------------------- text of 5.5 pt or more
def _journal(page) -> bool:
    return page.part is not None and getattr(page.part, "part_kind", "") == "journals"


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("game", GAMES)
def test_no_text_of_a_kit_is_below_the_minimum(kits, game, paper):
    """Every page as printed, the Gral standees' base tabs included; a board's assembly
    overview is the board reduced, and the KoC journal is checked below."""
    plan = plan_kit(kits[game], PrintOptions.from_strings(paper=paper))
    pdf = render_plan(plan)
    pages = [i for i, page in enumerate(plan.pages)
             if not (page.part is not None and page.part.kind == "board"
                     and page.label.endswith(": assembly")) and not _journal(page)]
    assert not _small_texts(pdf, pages)


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_the_koc_adventure_journal_text_is_not_below_the_minimum(kits, paper):
    """Its box hints ('Chivalry Points', 'summonses: ____', 'her Token') and header labels
    were 4.8 and 5.2 pt; every text of it, blank and filled in, is now 5.5 pt or more."""
    plan = plan_kit(kits["koc"], PrintOptions.from_strings(only="journals", paper=paper))
    assert not _small_texts(render_plan(plan))


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_the_calibration_sheet_text_is_not_below_the_minimum(paper):
    from companion.render.printkit import calibration_pdf

    assert not _small_texts(calibration_pdf(paper, backs="duplex-short"))


# ------------------------------------------------------------------------ boards on paper
@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_the_ccg_mat_takes_two_by_two_pages_and_avalon_no_overview(kits, paper):
    """520 mm took 2 x 3 pages of Letter for one mat (printed twice); a two-tile strip's
    overview was a page holding a small picture of the same strip."""
    plan = plan_kit(kits["grailccg"], PrintOptions.from_strings(paper=paper, only="board"))
    mat, avalon = plan.parts
    assert len(mat.board.tiles) == 4 and len(mat.pages) == 5            # with its overview
    # its two tiles (about 40% of a page each) share one page, each in its own frame
    assert len(avalon.board.tiles) == 2 and len(avalon.pages) == 1
    assert not any(p.label.endswith(": assembly") for p in avalon.pages)


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_the_gral_board_key_stands_clear_of_the_cut_frame(kits, paper):
    import pypdfium2 as pdfium

    from companion.render.printkit.units import mm

    plan = plan_kit(kits["gral"], PrintOptions.from_strings(paper=paper, only="board"))
    place = plan.parts[0].board.tiles[0].place
    doc = pdfium.PdfDocument(render_plan(plan))
    try:
        textpage = doc[1].get_textpage()
        boxes = [textpage.get_charbox(k) for k in range(textpage.count_chars())
                 if textpage.get_text_range(k, 1).strip()]
        boxes = [b for b in boxes if b[1] >= place.y]          # not the page's small print
        key = textpage.get_text_range()
    finally:
        doc.close()
    assert "Die Jagd nach dem Gral" in key and boxes
    assert min(b[0] for b in boxes) >= place.x + mm(2), "text touches the board's left edge"
    assert max(b[2] for b in boxes) <= place.x1 - mm(1)


# --------------------------------------------------------- duplex: sheets to cut or assemble
@pytest.mark.parametrize("backs", ["duplex-long", "duplex-short"])
@pytest.mark.parametrize("game", ["koc", "gral", "grailccg"])
def test_in_duplex_a_sheet_to_cut_or_assemble_has_nothing_behind_it(kits, game, backs):
    """Before, a KoC map tile was printed on the back of the tile it is glued to, the
    companions' chit sheet on the back of the map's overview, the Gral standees back to back
    and the Gral board behind the cover."""
    plan = plan_kit(kits[game], PrintOptions.from_strings(backs=backs))
    pages = plan.pages
    alone = [i for i, page in enumerate(pages) if page.alone]
    assert alone, game
    for i in alone:
        assert i % 2 == 0, f"{pages[i].label} is on the back of {pages[i - 1].label}"
        assert i + 1 == len(pages) or pages[i + 1].role == "blank", (
            f"{pages[i + 1].label} is on the back of {pages[i].label}")
    kinds = {pages[i].part.kind for i in alone}
    assert kinds <= {"board", "chits", "standees"}
    tiles = [p for p in pages if p.part is not None and p.part.kind == "board"]
    assert all(p.alone for p in tiles if ": tile " in p.label or ": tiles " in p.label)
    assert not any(p.alone for p in tiles if p.label.endswith(": assembly"))
    # fronts still have their backs behind them, and the kit does not end on a blank page
    for i, page in enumerate(pages):
        if page.role == "front":
            assert i % 2 == 0 and pages[i + 1].role == "back"
    assert pages[-1].role != "blank"


def test_single_sided_kits_get_no_blank_pages(kits):
    for game in ("koc", "gral"):
        for backs in ("none", "fold"):
            plan = plan_kit(kits[game], PrintOptions.from_strings(backs=backs))
            assert not any(p.role == "blank" for p in plan.pages), (game, backs)


def test_the_duplex_cover_says_what_the_blank_pages_are_for(kits):
    text = _cover_text(build_kit(kits["gral"], PrintOptions.from_strings(backs="duplex-long")))
    assert "leave the back of every sheet to cut up or assemble" in text
    text = _cover_text(build_kit(sample_kit(parts="deck"),
                                 PrintOptions.from_strings(backs="duplex-long")))
    assert "blank pages keep them paired." in text and "cut up or assemble" not in text
