"""The Fluxx print-and-play kit: 101 cards, a shared back, a one-page rules summary and a card
reference, on every paper and backs mode; the PDF is sound, reproducible and shows the cards."""
from __future__ import annotations

import io
import os

import pikepdf
import pypdfium2 as pdfium
import pytest
from pypdf import PdfReader

from companion.fluxx.kind import KIND
from companion.render.printkit import PrintOptions, build_kit, plan_kit


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("backs", ["none", "duplex-long", "duplex-short", "fold"])
def test_kit_lays_out_on_every_paper_and_backs_mode(paper, backs):
    plan = plan_kit(KIND.print_kit(), PrintOptions.from_strings(paper=paper, backs=backs,
                                                                bleed="3"))
    assert plan.pages


@pytest.mark.parametrize("card", ["poker", "bridge", "tarot"])
def test_every_card_text_fits_every_card_size(card):
    plan_kit(KIND.print_kit(), PrintOptions.from_strings(card=card))


def test_the_kit_has_all_cards_a_summary_and_a_reference():
    kit = KIND.print_kit()
    deck, summary, reference = kit.parts
    assert deck.total == 101 and len(deck.cards) == 101
    assert deck.cards[0].name == "Basic Rules"
    assert {c.kind for c in deck.cards} == {"Always on the table", "Keeper", "Creeper", "Goal",
                                            "New Rule", "Action"}
    assert summary.title == "Rules summary" and reference.title == "Card reference"
    names = {c.name for c in KIND.deck.cards}
    rows = [row[0] for block in reference.blocks if hasattr(block, "rows") for row in block.rows]
    assert set(rows) == names


def test_kit_pdf_is_sound_reproducible_and_readable(tmp_path):
    options = PrintOptions.from_strings(paper="letter", backs="duplex-long")
    data = build_kit(KIND.print_kit(), options)
    assert data == build_kit(KIND.print_kit(), options)
    path = tmp_path / "kit.pdf"
    path.write_bytes(data)
    job = pikepdf.Job(["qpdf", "--check", str(path)])
    job.run()
    assert job.exit_code == 0 and not job.has_warnings
    reader = PdfReader(io.BytesIO(data))
    titles = [o.title for o in reader.outline if not isinstance(o, list)]
    assert {"Cards", "Rules summary", "Card reference"} <= set(titles)
    for page in reader.pages:
        assert [round(float(x)) for x in page.mediabox[2:]] == [612, 792]
    doc = pdfium.PdfDocument(data)
    text = "\n".join(doc[i].get_textpage().get_text_range() for i in range(len(doc)))
    for name in ("Basic Rules", "The Finger of God", "Knights of the Round Table", "Confuse-a-Cat",
                 "New Rules that replace each other"):
        assert name in text.replace("\r", "").replace("\n", " ") or name in text, name
    keep = os.environ.get("COMPANION_PRINT_PNG")
    if keep:
        for i in range(len(doc)):
            doc[i].render(scale=1.5).to_pil().save(os.path.join(keep, f"fluxx-{i:02d}.png"))


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_the_rules_summary_is_one_page(paper):
    plan = plan_kit(KIND.print_kit(), PrintOptions.from_strings(paper=paper))
    assert len(plan.part_plan("rules").pages) == 1
    assert len(plan.part_plan("reference").pages) <= 4


def test_print_through_the_command_line(cli):
    out = cli.ok("print", "fluxx", "--paper", "letter", "--backs", "duplex-long").out.strip()
    assert out.endswith("fluxx-kit.pdf")
    data = open(out, "rb").read()
    assert data.startswith(b"%PDF") and len(PdfReader(io.BytesIO(data)).pages) > 26
