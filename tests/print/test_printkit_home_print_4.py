"""A fourth round of printing every kit at home and looking at each page: the labels of a map
tile's glue strips stay readable over the art under them, a card name on two lines breaks
evenly (no lone 'I' under 'The Scavenger, version'), a KoC player's knight counters show their
icon on a white disc whatever the seat colour (the gold crown on yellow D), the KoC cover
says what the kit holds, and in duplex a sheet a player keeps hidden (Gral's influence sheets)
has nothing behind it while a journal's record has its log of turns on its back."""
from __future__ import annotations

import dataclasses

import pytest

from companion.render.printkit import Board, Kit, PrintOptions, build_kit, plan_kit
from companion.render.printkit.colours import luminance, rgb
from companion.render.printkit.units import mm


def _contrast(a, b) -> float:
    la, lb = sorted((luminance(rgb(a)), luminance(rgb(b))), reverse=True)
    return (la + 0.05) / (lb + 0.05)


# ------------------------------------------------------------------ glue strip labels
@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_the_glue_strip_labels_stand_on_a_light_ground_over_dark_art(paper):
    """Before, the labels ('A1 -> glue under B1') were drawn straight over the art: on the KoC
    poster they ran through town names and the seas' lettering.  Each now has a ground of the
    strip's shade of its own."""
    import pypdfium2 as pdfium

    def black(pen) -> None:
        pen.rect(0, 0, 400, 300, fill="#000000", stroke=None)

    kit = Kit(game="test", title="Dark board",
              parts=[Board(title="Night", width_mm=400, height_mm=300, draw=black)])
    options = PrintOptions.from_strings(paper=paper)
    plan = plan_kit(kit, options)
    tile = plan.parts[0].board.tiles[0]
    assert tile.glue, "the first tile has a neighbour"
    doc = pdfium.PdfDocument(build_kit(kit, options))
    try:
        index = next(i for i in range(len(doc))
                     if "tile A1" in doc[i].get_textpage().get_text_range())
        page = doc[index]
        scale = 2.0
        image = page.render(scale=scale).to_pil().convert("L")
        height = page.get_height()
    finally:
        doc.close()
    for _, strip in tile.glue:
        box = (int(strip.x * scale) + 2, int((height - strip.y1) * scale) + 2,
               int(strip.x1 * scale) - 2, int((height - strip.y) * scale) - 2)
        histogram = image.crop(box).histogram()
        light = sum(histogram[181:]) / sum(histogram)     # none at all without the grounds
        assert light > 0.05, f"{strip}: {light:.0%} of the strip is light"


# ------------------------------------------------------------------ two-line card names
@pytest.mark.parametrize("size", [(70, 120), (63, 88)])
@pytest.mark.parametrize("name, lines", [
    ("The Scavenger, version I", ["The Scavenger,", "version I"]),
    ("The Scavenger, version III", ["The Scavenger,", "version III"]),
    ("My Hovercraft Is Full of Eels", ["My Hovercraft", "Is Full of Eels"]),
])
def test_a_name_on_two_lines_breaks_evenly(size, name, lines):
    from companion.render.fonts import register_fonts
    from companion.render.printkit.draw import TEXT_PAD, fit_name

    register_fonts()
    w, h = mm(size[0]), mm(size[1])
    header = max(mm(6.0), min(mm(11.0), 0.115 * h))
    border = max(mm(2.2), min(mm(3.5), 0.045 * w))
    fitted = fit_name(name, w - 2 * border - 2 * TEXT_PAD, header, "test")
    assert ["".join(p.text for p in line.pieces) for line in fitted.lines] == lines


def test_the_mayhem_concealed_sides_print_their_version_on_the_second_line():
    """What a player saw: 'The Scavenger, version' with a lone 'I' under it."""
    from companion.registry import get_kind
    from tests.pdftext import pdf_text

    pdf = build_kit(get_kind("mayhem").print_kit(), PrintOptions.from_strings(only="characters"))
    text = pdf_text(pdf).replace("\r\n", "\n")
    assert "The Scavenger, version\nI\n" not in text
    assert "The Scavenger,\nversion I\n" in text


# ------------------------------------------------------------------ KoC player counters
class _Recorder:
    """A stand-in for the pen: keeps the filled shapes and icons in drawing order."""

    def __init__(self):
        self.calls: list[tuple] = []

    def rect(self, x, y, w, h, *, fill=None, **_):
        self.calls.append(("rect", (x, y, x + w, y + h), fill))

    def circle(self, x, y, r, *, fill=None, **_):
        self.calls.append(("circle", (x - r, y - r, x + r, y + r), fill))

    def icon(self, name, x, y, size, **_):
        self.calls.append(("icon", (x, y, x + size, y + size), name))

    def text(self, *args, **kwargs):
        pass


def test_every_seat_colour_shows_its_knights_icon_on_a_light_ground():
    """The gold crown of an Arthurian player knight was drawn straight on the seat colour:
    on yellow D (and G's brown, H's grey) it hardly showed."""
    from companion.koc.printables import _chit
    from companion.koc.world import default_world
    from companion.render.printkit.icons import DEFAULT_FILLS

    world = default_world()
    players = [c for c in world.chits if c.kind in ("player_knight", "arthurian_player_knight")]
    assert len({c.colour for c in players}) >= 6
    for chit in players:
        face = _chit(world, chit).front
        pen = _Recorder()
        face.draw(pen, 16.0, 16.0)
        icons = [call for call in pen.calls if call[0] == "icon"]
        assert len(icons) == 1, chit.name
        _, (x0, y0, x1, y1), icon = icons[0]
        cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
        ground = face.colour
        for kind, (a, b, c, d), fill in pen.calls[:pen.calls.index(icons[0])]:
            if fill and a <= cx <= c and b <= cy <= d:
                ground = fill
        assert _contrast(ground, DEFAULT_FILLS[icon]) >= 1.8, (chit.name, ground)


# ------------------------------------------------------------------ the KoC cover
def test_the_koc_cover_counts_the_cards_of_the_world_printed():
    from companion.koc.printables import kit
    from companion.koc.world import default_world
    from tests.pdfsizes import cover_text

    world = default_world()
    fewer = dataclasses.replace(world, knights=world.knights[:10])
    text = " ".join(cover_text(build_kit(kit(fewer), PrintOptions.from_strings(only="cards")))
                    .split())
    assert f"Cards: 10 Knights, {len(world.kings)} Kings and {len(world.ladies)} Ladies" in text


def test_the_koc_cover_does_not_promise_a_journal_per_player():
    """The kit holds one blank record sheet and one log (and the Grail quest's): the cover
    said 'a record sheet and a log of turns for each player'."""
    from companion.koc.printables import kit
    from tests.pdfsizes import cover_text

    text = " ".join(cover_text(build_kit(kit(), PrintOptions.from_strings(only="journals")))
                    .split())
    assert "for each player (copy the log" not in text
    assert "one record sheet and one log of turns, blank, to copy for each player" in text


# ------------------------------------------------------------------ duplex: free pages
@pytest.mark.parametrize("backs", ["duplex-long", "duplex-short"])
def test_in_duplex_every_gral_influence_sheet_has_a_sheet_of_its_own(kits, backs):
    """Before, the eight influence sheets came back to back: two players' hidden sheets on
    one piece of paper."""
    from tests.pdfsizes import cover_text

    options = PrintOptions.from_strings(backs=backs)
    pages = plan_kit(kits["gral"], options).pages
    sheets = [i for i, p in enumerate(pages) if p.part is not None
              and p.part.title == "Influence sheets"]
    assert len(sheets) == 8
    for i in sheets:
        assert i % 2 == 0 and pages[i + 1].role == "blank", pages[i].label
    text = " ".join(cover_text(build_kit(kits["gral"], options)).split())
    assert "and of every sheet a player keeps (Influence sheets) empty" in text


@pytest.mark.parametrize("backs", ["duplex-long", "duplex-short"])
def test_in_duplex_a_journal_is_one_sheet_with_its_log_on_the_back(kits, backs):
    """Before, the KoC journal's record sheet came on the back of the Requests chart and its
    log of turns on the front of the Grail quest's record; the Mayhem scoring pad, which is
    cut in halves, on the back of the checklist."""
    for game, titles in (("koc", ("Adventure Journal",
                                  "Adventure Journal (Quest of the Holy Grail)")),
                         ("mayhem", ("Scoring pad",))):
        pages = plan_kit(kits[game], PrintOptions.from_strings(backs=backs)).pages
        for title in titles:
            own = [i for i, p in enumerate(pages) if p.part is not None and p.part.title == title]
            assert len(own) == 2 and own[0] % 2 == 0 and own[1] == own[0] + 1, (game, title)
            after = own[1] + 1
            assert after == len(pages) or after % 2 == 0


def test_single_sided_free_pages_follow_each_other(kits):
    for game in ("gral", "koc", "mayhem"):
        for backs in ("none", "fold"):
            pages = plan_kit(kits[game], PrintOptions.from_strings(backs=backs)).pages
            assert not any(p.role == "blank" for p in pages), (game, backs)


def test_an_unknown_sheets_value_is_refused():
    from companion.errors import UsageError
    from companion.render.printkit import FreePages

    kit = Kit(game="test", title="Pads",
              parts=[FreePages(title="Pad", draw=lambda pen, w, h, i: None, sheets="alone")])
    with pytest.raises(UsageError) as err:
        plan_kit(kit, PrintOptions())
    assert "sheets='alone'" in str(err.value) and "follow, own, each" in str(err.value.hint)


def test_no_card_name_of_any_kit_breaks_a_word(kits):
    """The even break must never cut a word: 'Damosel Lunete' came out 'Damose' / 'l Lunete'
    on a first try."""
    from companion.render.printkit.draw import deck_colours, prepare_face
    from companion.render.printkit.model import Deck

    checked = 0
    for game, kit in kits.items():
        for part in kit.parts:
            if not isinstance(part, Deck):
                continue
            size = part.card_size
            colours = deck_colours(part)
            for face in part.cards:
                for side in (face, face.back) if face.back is not None else (face,):
                    if side.draw is not None:
                        continue
                    fl = prepare_face(side, part, size.width, size.height, colours, 1, 1)
                    lines = ["".join(p.text for p in line.pieces) for line in fl.name.lines]
                    # a line may end at a hyphen ('Sir Not-Appearing-in-' / 'this-Film')
                    joined = "".join(line + ("" if line.endswith("-") else " ")
                                     for line in lines)
                    assert joined.split() == side.name.split(), (game, side.name, lines)
                    checked += 1
    assert checked > 200
