"""The Medieval Mayhem print-and-play kit: every part planned and drawn on both papers and in
every backs mode, the card counts, texts that fit, pages that are not empty, and the command the
issue names."""
from __future__ import annotations

import pytest

from companion.render.printkit import PrintOptions, build_kit, plan_kit

from .helpers import KIND


@pytest.fixture(scope="module")
def kit():
    return KIND.print_kit()


def test_the_kit_has_every_part(kit):
    titles = [p.title for p in kit.parts]
    assert titles == ["Draw cards", "Character cards", "Scoring pad", "Player aid"]
    draw, characters = kit.parts[0], kit.parts[1]
    assert draw.total == 70 and len({c.name for c in draw.cards}) == 70
    assert characters.total == 18 and characters.two_sided
    assert all(c.back is not None for c in characters.cards)
    assert draw.card_size.label.startswith("poker") and characters.card_size.label.startswith(
        "tarot")


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("backs", ["none", "duplex-long", "duplex-short", "fold"])
def test_the_kit_is_planned_on_every_paper_and_backs_mode(kit, paper, backs):
    plan = plan_kit(kit, PrintOptions.from_strings(paper=paper, backs=backs, bleed="3"))
    parts = [p.part.title for p in plan.pages if p.part is not None]
    assert parts.count("Draw cards") >= 9 and "Character cards" in parts
    aid = [p for p in plan.pages if p.part is not None and p.part.title == "Player aid"]
    assert len(aid) == 1, "the player aid fits on one page"


@pytest.mark.parametrize("card", ["poker", "bridge"])
def test_card_faces_draw_at_other_sizes(kit, card):
    pdf = build_kit(kit, PrintOptions.from_strings(paper="a4", card=card, only="draw-cards"))
    assert pdf.startswith(b"%PDF")


def test_the_issues_command_and_pages_that_are_not_empty(cli):
    import pypdfium2 as pdfium

    out = cli.ok("print", "mayhem", "--paper", "letter", "--backs", "duplex-long").out.strip()
    doc = pdfium.PdfDocument(out)
    assert len(doc) >= 30
    width, height = doc[0].get_size()
    assert (round(width), round(height)) == (612, 792)
    for index in (2, 3, len(doc) - 1):
        img = doc[index].render(scale=0.5).to_pil().convert("L")
        hist = img.histogram()
        assert sum(hist[:240]) / sum(hist) > 0.03, f"page {index + 1} looks empty"
    text = doc[len(doc) - 1].get_textpage().get_text_range()
    assert "Set triggers" in text and "Capture" in text


def test_the_kit_is_byte_identical(kit):
    options = PrintOptions.from_strings(paper="a4", only="pad,aid")
    assert build_kit(kit, options) == build_kit(kit, options)
