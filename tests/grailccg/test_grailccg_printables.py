"""The Holy Grail CCG print-and-play kit: both starter decks card by card (with their counts and a
shared back), the England play mat and Avalon as boards, the turn summary and the castle and
village tables; it lays out on every paper, card size and backs mode, the PDF is sound and
byte-for-byte reproducible, and every card of both decks is in it."""
from __future__ import annotations

import io

import pikepdf
import pypdfium2 as pdfium
import pytest
from pypdf import PdfReader

from companion.grailccg import printables
from companion.grailccg.cards import item_text, load_cards, starter_decks
from companion.render.printkit import Board, Deck, PrintOptions, ReferenceSheet, build_kit, plan_kit


def the_kit():
    """The kit as the command line gets it (through the kind once it offers it)."""
    from companion.grailccg.kind import KIND

    if hasattr(KIND, "print_kit"):
        return KIND.print_kit()
    return printables.kit()


def test_the_kit_has_both_decks_the_mat_avalon_and_the_references():
    kit = the_kit()
    assert kit.game == "grailccg"
    kinds = [(type(p).__name__, p.slug) for p in kit.parts]
    assert kinds == [("Deck", "starter-arthur"), ("Deck", "starter-french"), ("Board", "mat"),
                     ("Board", "avalon"), ("ReferenceSheet", "summary"),
                     ("ReferenceSheet", "tables")]
    decks = [p for p in kit.parts if isinstance(p, Deck)]
    assert decks[0].back == decks[1].back, "one back for both decks"


def test_every_starter_card_is_printed_with_its_count():
    cards = load_cards()
    kit = the_kit()
    decks = {p.slug: p for p in kit.parts if isinstance(p, Deck)}
    for name, deck in starter_decks().items():
        printed = {face.name: face.count for face in decks[name].cards}
        wanted: dict[str, int] = {}
        for cid in deck.cards:
            wanted[cards.get(cid).name] = wanted.get(cards.get(cid).name, 0) + 1
        assert printed == wanted
        assert decks[name].total == len(deck.cards) == 60


def test_card_faces_show_the_numbers_the_rules_use():
    cards = load_cards()
    lancelot = printables.face(cards.by_name("Lancelot"))
    assert lancelot.corner.value == cards.by_name("Lancelot").grail
    assert {(s.label, s.value) for s in lancelot.stats} >= {("combat", 8), ("wits", 3)}
    assert "sword" in lancelot.subtitle and "castle" in lancelot.subtitle
    castle = printables.face(cards.by_name("Tintagel"))
    assert "Castle table" in castle.text and "Held by:** Bors" in castle.text
    assert ("defence", 4) in {(s.label, s.value) for s in castle.stats}
    village = printables.face(cards.by_name("Plague Village"))
    assert "Village table" in village.text and "lose a knight" in village.text
    for card in cards:
        face = printables.face(card)
        assert face.kind == card.type_name and face.corner.value == card.grail
        if card.primary_text and card.type == "item":     # carried or used, never played
            label, said = item_text(card)
            assert f"**{label}:** {said}" in face.text and "Played" not in face.text
        elif card.primary_text:
            assert card.primary_text in face.text
        if card.secondary_text:
            assert card.secondary_text in face.text


def test_the_reference_sheets_hold_every_castle_and_village_table():
    cards = load_cards()
    kit = the_kit()
    tables = next(p for p in kit.parts if p.slug == "tables")
    headings = [b.text for b in tables.blocks if type(b).__name__ == "Heading"]
    for card in cards.of("castle"):
        assert any(h.startswith(card.name + " (defence") for h in headings), card.name
    for card in cards.of("village"):
        assert card.name in headings
    summary = next(p for p in kit.parts if p.slug == "summary")
    assert isinstance(summary, ReferenceSheet)
    text = " ".join(str(getattr(b, "text", "")) + " ".join(getattr(b, "items", []))
                    for b in summary.blocks)
    for word in ("Draw", "ante", "Avalon", "grail number", "Round Table", "search"):
        assert word in text


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("backs", ["none", "duplex-long", "duplex-short", "fold"])
def test_the_kit_lays_out_on_every_paper_and_backs_mode(paper, backs):
    plan = plan_kit(the_kit(), PrintOptions.from_strings(paper=paper, backs=backs, bleed="3"))
    assert plan.pages


@pytest.mark.parametrize("card", ["poker", "bridge", "tarot"])
def test_every_card_text_fits_every_card_size(card):
    plan_kit(the_kit(), PrintOptions.from_strings(card=card))


def test_page_counts_are_sensible():
    plan = plan_kit(the_kit(), PrintOptions.from_strings(paper="a4"))
    # 9 poker cards to an A4 sheet: 60 cards with their checklist in at most 9 pages a deck
    for name in ("starter-arthur", "starter-french"):
        assert 7 <= len(plan.part_plan(name).pages) <= 9
    assert len(plan.part_plan("summary").pages) == 1
    assert len(plan.part_plan("tables").pages) <= 2
    assert 2 <= len(plan.part_plan("mat").pages) <= 8
    assert len(plan.part_plan("avalon").pages) <= 4
    duplex = plan_kit(the_kit(), PrintOptions.from_strings(paper="a4", backs="duplex-long"))
    assert len(duplex.pages) > len(plan.pages)
    assert len(plan.pages) <= 40


def test_the_pdf_is_sound_reproducible_and_readable(tmp_path):
    options = PrintOptions.from_strings(paper="a4", backs="duplex-long")
    data = build_kit(the_kit(), options)
    assert data == build_kit(the_kit(), options)
    path = tmp_path / "kit.pdf"
    path.write_bytes(data)
    job = pikepdf.Job(["qpdf", "--check", str(path)])
    job.run()
    assert job.exit_code == 0 and not job.has_warnings
    reader = PdfReader(io.BytesIO(data))
    titles = [o.title for o in reader.outline if not isinstance(o, list)]
    for title in ("Starter deck: Arthur's party", "Starter deck: the French", "Play mat: England",
                  "Avalon", "Turn summary", "Castle and village tables"):
        assert title in titles, title
    doc = pdfium.PdfDocument(data)
    text = "\n".join(doc[i].get_textpage().get_text_range() for i in range(len(doc)))
    flat = " ".join(text.replace("\r", "").split())
    cards = load_cards()
    for deck in starter_decks().values():
        for cid in sorted(set(deck.cards)):
            assert cards.get(cid).name in flat, cards.get(cid).name


def test_fold_mode_builds():
    data = build_kit(the_kit(), PrintOptions.from_strings(paper="letter", backs="fold",
                                                          only="cards"))
    assert data.startswith(b"%PDF") and len(PdfReader(io.BytesIO(data)).pages) >= 14


def test_the_mat_is_a_board_bigger_than_a_page():
    mat = next(p for p in the_kit().parts if p.slug == "mat")
    assert isinstance(mat, Board) and mat.width_mm > 210 and mat.height_mm > 297


def test_print_through_the_command_line(cli):
    out = cli.ok("print", "grailccg", "--paper", "a4", "--backs", "duplex-long").out.strip()
    assert out.endswith("grailccg-kit.pdf")
    data = open(out, "rb").read()
    assert data.startswith(b"%PDF") and len(PdfReader(io.BytesIO(data)).pages) > 30


def test_an_item_says_it_is_carried_or_used_not_played():
    """11.1: an item is given to a page; one that changes combat or wits counts in the
    disputes its page's knight leads, any other is used once (found by the third audit: the
    cards said 'Played: ... in this dispute')."""
    cards = load_cards()
    excalibur = printables.face(cards.by_name("Excalibur")).text
    assert "**Carried:** +3 combat in each dispute led by the knight its page serves" in excalibur
    coconuts = printables.face(cards.by_name("Coconuts")).text
    assert "**Used:** Your Round Table may move one extra area this turn. Once, then into the " \
        "dead cart." in coconuts
    catapult = printables.face(cards.by_name("Catapult")).text
    assert "-2 combat for the adversary in each dispute" in catapult
