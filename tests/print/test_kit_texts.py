"""Kit texts: no paragraph printed on every card of a deck (a reference card or the cover says
it once), and the counts the kits state agree with the cards they hold."""
from __future__ import annotations

import re

import pytest

from companion.registry import KINDS, get_kind
from companion.render.printkit.model import Deck


@pytest.mark.parametrize("kind", [k.id for k in KINDS if hasattr(get_kind(k.id), "print_kit")])
def test_no_boilerplate_on_every_card_of_a_deck(kind):
    kit = get_kind(kind).print_kit()
    for deck in [p for p in kit.parts if isinstance(p, Deck)]:
        if len(deck.cards) < 4:
            continue
        common = set.intersection(*[{line.strip() for line in card.text.split("\n")
                                     if line.strip()} for card in deck.cards])
        assert not common, f"{kind} {deck.title}: on every card: {sorted(common)}"


def test_the_fluxx_kit_says_what_its_cards_are():
    kit = get_kind("fluxx").print_kit()
    cards = sum(len(p.cards) for p in kit.parts if isinstance(p, Deck))
    stated = [int(n) for n in re.findall(r"(\d+) cards", kit.subject)]
    assert stated == [cards] == [101]
    assert "Basic Rules card" in kit.subject and any("never drawn" in n for n in kit.notes)


def test_a_progress_bar_on_a_terminal(tmp_path):
    """On a terminal 'companion print' draws a bar as the pages are drawn; piped, it is quiet."""
    import os
    import pty
    import select
    import subprocess
    import sys
    from pathlib import Path

    script = str(Path(sys.executable).parent / "companion")
    pid, fd = pty.fork()
    if pid == 0:                                     # the child: stdout and stderr are the pty
        os.execv(script, [script, "print", "fluxx", "--out", str(tmp_path / "k.pdf")])
    seen = b""
    while True:
        ready, _, _ = select.select([fd], [], [], 120)
        if not ready:
            break
        try:
            chunk = os.read(fd, 4096)
        except OSError:
            break
        if not chunk:
            break
        seen += chunk
    os.waitpid(pid, 0)
    assert b"fluxx kit [" in seen and re.search(rb"\] (\d+)/\1 ", seen), seen[-300:]
    piped = subprocess.run([script, "print", "fluxx", "--out", str(tmp_path / "k2.pdf")],
                           capture_output=True, text=True, timeout=300)
    assert piped.returncode == 0 and piped.stderr == ""


@pytest.mark.parametrize("kind", [k.id for k in KINDS if hasattr(get_kind(k.id), "print_kit")])
def test_no_nearly_empty_page(kind, tmp_path):
    """Checklists of consecutive decks share their pages, and a reference sheet whose last page
    would hold a few lines is set a little smaller: every page is at least a third full (the
    heights filled in its left and right halves added up: the last page of a sheet in two
    columns has them evenly filled, each less high)."""
    import pypdfium2 as pdfium

    from companion.render.printkit import PrintOptions, write_kit

    path = write_kit(get_kind(kind).print_kit(), PrintOptions.from_strings(),
                     tmp_path / "kit.pdf")
    pdf = pdfium.PdfDocument(str(path))
    for number, page in enumerate(pdf, 1):
        height = page.get_size()[1]
        boxes = [b for b in (o.get_bounds() for o in page.get_objects()) if b[1] > 40]
        assert boxes, f"{kind}: page {number} is empty"
        width = page.get_size()[0]
        halves = [[b for b in boxes if ((b[0] + b[2]) / 2 < width / 2) == left]
                  for left in (True, False)]
        filled = sum(max(b[3] for b in half) - min(b[1] for b in half)
                     for half in halves if half) / height
        assert filled >= 0.33, f"{kind}: page {number} is {filled:.0%} full"
    pdf.close()
