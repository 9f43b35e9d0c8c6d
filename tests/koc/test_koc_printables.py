"""The Knights of Camelot print-and-play kit: cards, chits, the map poster and the charts."""
from __future__ import annotations

import io
import math
import re

import pikepdf
import pytest
from pypdf import PdfReader

from companion.errors import CompanionError, DataError
from companion.koc import poster
from companion.koc.printables import chit_groups, kit
from companion.koc.world import MAP_HEIGHT, MAP_WIDTH, check_data_dir, load_world
from companion.render.printkit import (Board, ChitSheet, Deck, Heading, PrintOptions,
                                       ReferenceSheet, Table, build_kit, plan_kit)
from tests.pdftext import pdf_text


@pytest.fixture(scope="module")
def the_kit(world):
    return kit(world)


@pytest.fixture(scope="module")
def layout(world):
    return poster.poster_layout(world)


def parts_of(k, kind):
    return [p for p in k.parts if isinstance(p, kind)]


# ---- planning on every paper -----------------------------------------------------------------

@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("backs", ["none", "duplex-long", "duplex-short", "fold"])
@pytest.mark.parametrize("bleed", ["0", "3"])
def test_kit_plans_on_every_paper_backs_mode_and_bleed(the_kit, paper, backs, bleed):
    plan = plan_kit(the_kit, PrintOptions.from_strings(paper=paper, backs=backs, bleed=bleed))
    assert [pp.part.title for pp in plan.parts] == [p.title for p in the_kit.parts]
    board = next(pp for pp in plan.parts if isinstance(pp.part, Board))
    assert (board.board.cols, board.board.rows) == (3, 3)      # 9 tiles on A4 and on Letter
    if backs.startswith("duplex"):
        fronts = [i for i, pg in enumerate(plan.pages) if pg.role == "front"]
        assert fronts and all(i % 2 == 0 and plan.pages[i + 1].role == "back" for i in fronts)


@pytest.mark.parametrize("card", ["bridge", "tarot", "mini-euro", "mini-usa"])
def test_every_card_text_fits_other_card_sizes(the_kit, card):
    assert plan_kit(the_kit, PrintOptions.from_strings(paper="a4", card=card, bleed="3")).pages


# ---- contents --------------------------------------------------------------------------------

def test_three_decks_with_the_120_cards(the_kit, world):
    decks = parts_of(the_kit, Deck)
    assert [d.title for d in decks] == ["Knight cards", "King cards", "Lady cards"]
    knights, kings, ladies = decks
    assert (knights.total, kings.total, ladies.total) == (75, 15, 30)
    assert len({d.back.title for d in decks}) == 3 and len({d.back.colour for d in decks}) == 3
    assert [c.name for c in knights.cards] == [k.name for k in world.knights]
    assert [c.name for c in kings.cards] == [k.name for k in world.kings]
    assert [c.name for c in ladies.cards] == [k.name for k in world.ladies]
    for card, k in zip(knights.cards, world.knights):
        assert card.kind == ("Arthurian Knight" if k.arthurian else "Knight")
        assert card.corner.value == f"VL {k.virtue_level}"
        assert [s.value for s in card.stats] == [f"{k.chivalry_points} CP", f"WL {k.wound_level}"]
    for card, k in zip(kings.cards, world.kings):
        assert k.kingdom in card.subtitle and f"{k.chivalry_points} CP" == card.stats[0].value
        assert card.corner.value == f"VL {k.virtue_level}"
    for card, lady in zip(ladies.cards, world.ladies):
        assert card.kind == ("Enchantress" if lady.enchantress else "Lady")
        assert card.corner.value == f"VL {lady.virtue_level}"
        assert card.stats[0].value == f"{lady.service_award} CP"
        assert card.stats[1].value == f"+{lady.seduction_adjustment}"
        assert lady.home_castle in card.text
        assert "Service award" in card.text and "Seduction" in card.text
    assert sum(c.kind == "Enchantress" for c in ladies.cards) == 7
    prayers = [c.name for d in decks for c in d.cards if "never fail" in c.text]
    assert sorted(prayers) == sorted(["Sir Galahad", "Sir Percival", "Sir Bors", "King Arthur",
                                      "King Pellam", "Lady Elaine"])


def test_every_chit_with_its_count(the_kit, world):
    sheets = parts_of(the_kit, ChitSheet)
    groups = chit_groups(world)
    assert [s.title for s in sheets] == [title for title, _ in groups]
    placed = [c for _, chits in groups for c in chits]
    assert sorted(map(id, placed)) == sorted(map(id, world.chits))       # each chit once
    for sheet, (_, chits) in zip(sheets, groups):
        assert [c.count for c in sheet.chits] == [c.count for c in chits]
        for printed, chit in zip(sheet.chits, chits):
            drawn = world.chit_kinds[chit.kind].drawn
            # drawn blind: a back showing only the group; Merlin/Morgan: one on each side
            assert (printed.back is not None) == (drawn or "/" in chit.name), chit.name
    total = sum(c.count for s in sheets for c in s.chits)
    assert total == sum(c.count for c in world.chits) == 128
    players = [c for c in world.chits if c.colour]
    assert len({c.colour for c in players}) == 8 and len(players) == 48


def test_every_seat_has_its_printed_set(world):
    """The box's six colour sets plus G and H: every knight the game seats (up to eight) has
    his two knight counters and the Adventure markers the engine names for his seat printed
    (the engine gives A-1 to A-4 first; more running adventures are rare)."""
    from companion.koc.engine.resolutions import marker_letter
    from companion.koc.kind import KIND
    printed = {c.name for c in world.chits}
    for seat in range(KIND.max_players):
        letter = marker_letter(world, seat)
        assert {f"{letter}-{n}" for n in range(1, 5)} <= printed, (seat, letter)
        colour = next(pc.colour for pc in world.player_colours if pc.letter == letter)
        assert {f"Knight ({colour})", f"Arthurian Knight ({colour})"} <= printed, seat


def test_every_chart_with_every_entry(the_kit, world):
    sheets = parts_of(the_kit, ReferenceSheet)
    titles = [b.text for s in sheets for b in s.blocks if isinstance(b, Heading)]
    assert len(titles) == len(set(titles))
    for chart in world.charts.values():
        assert chart.title in titles, chart.name
        sheet = next(s for s in sheets if any(isinstance(b, Heading) and b.text == chart.title
                                               for b in s.blocks))
        i = next(i for i, b in enumerate(sheet.blocks) if isinstance(b, Heading) and b.text == chart.title)
        table = next(b for b in sheet.blocks[i:] if isinstance(b, Table))
        rows = chart.rows(optional=bool(chart.optional_dice))
        assert [r[0] for r in table.rows] == [roll for roll, _ in rows]
        assert [re.sub(r" \((may be refused|fit for a non-player Knight)(; [^)]*)?\)$", "",
                       r[1].split("\n")[0]).removesuffix(" (optional)")
                for r in table.rows] == [label for _, label in rows]
    war = next(s for s in sheets if s.title == "The Foreign War")
    steps = next(b for b in war.blocks if isinstance(b, Table) and b.columns[0] == "Step")
    assert [r[0] for r in steps.rows] == list(world.war_steps)
    requests = next(s for s in sheets if s.title == "Requests")
    table = next(b for b in requests.blocks if isinstance(b, Table))
    assert [r[0] for r in table.rows] == [r.label for r in world.requests.values()]
    assert all(r[1] != "-" for r in table.rows)


# ---- the map poster --------------------------------------------------------------------------

def test_every_area_has_a_position_in_the_frame(world):
    for area in world.areas.values():
        assert area.at is not None, area.name
        assert 0 <= area.at[0] <= MAP_WIDTH and 0 <= area.at[1] <= MAP_HEIGHT
        assert len(area.path) >= (2 if area.kind == "sea" else 1)
        if area.kind != "sea":
            assert area.path == (area.at,)


def test_map_places_every_area_without_overlaps(layout, world):
    assert set(layout.nodes) | set(layout.bands) == set(world.areas)
    assert set(layout.bands) == {a.name for a in world.areas.values() if a.kind == "sea"}
    assert layout.overlaps() == []
    assert layout.crossings() == []           # no line runs through a shape it does not join
    frame = poster.Box(0, 0, poster.POSTER_W, poster.POSTER_H)
    for node in layout.nodes.values():
        assert frame.contains((node.box.x0, node.box.y0)) and frame.contains((node.box.x1, node.box.y1))


def _on_edge(layout, name, point) -> bool:
    if name in layout.bands:
        band = layout.bands[name]
        d = math.dist(point, poster.closest_on_path(point, band.path))
        return d <= band.width / 2 + 1e-6
    box = layout.nodes[name].box
    inside = box.grow(1e-6).contains(point)
    on_edge = min(abs(point[0] - box.x0), abs(point[0] - box.x1),
                  abs(point[1] - box.y0), abs(point[1] - box.y1)) < 2.5   # pills: round ends
    return inside and on_edge


def test_map_draws_every_link(layout, world):
    wanted = set()
    for area in world.areas.values():
        for kind, others in area.links().items():
            for other in others:
                wanted.add((min(area.name, other), max(area.name, other), kind))
    drawn = [(lk.a, lk.b, lk.kind) for lk in layout.links]
    assert len(drawn) == len(set(drawn))
    assert set(drawn) == wanted
    for lk in layout.links:
        assert _on_edge(layout, lk.a, lk.start), (lk.a, lk.b, lk.kind)
        assert _on_edge(layout, lk.b, lk.end), (lk.a, lk.b, lk.kind)
        assert math.dist(lk.start, lk.end) > 2.0, (lk.a, lk.b, lk.kind)   # visible


def test_map_marks_ports_navigable_rivers_and_royal_castles(layout, world):
    for area in world.areas.values():
        if area.kind == "sea":
            continue
        node = layout.nodes[area.name]
        assert node.port == area.port and node.navigable == area.navigable
    seats = poster.royal_seats(world)
    assert len(seats) == 21
    assert all("crown" in layout.nodes[s].icons for s in seats)
    assert all(lb.text for n in layout.nodes.values() for lb in n.labels[:1])


# ---- the PDF ---------------------------------------------------------------------------------

def test_pdf_is_sound_and_reproducible(the_kit, tmp_path):
    options = PrintOptions.from_strings(paper="a4", backs="duplex-long", bleed="3")
    data = build_kit(the_kit, options)
    assert data == build_kit(kit(load_world()), options)
    path = tmp_path / "koc.pdf"
    path.write_bytes(data)
    job = pikepdf.Job(["qpdf", "--check", str(path)])
    job.run()
    assert job.exit_code == 0 and not job.has_warnings
    reader = PdfReader(io.BytesIO(data))
    titles = [o.title for o in reader.outline if not isinstance(o, list)]
    assert titles == ["Contents and printing"] + [p.title for p in the_kit.parts]
    assert reader.metadata.title == "Knights of Camelot"
    assert all([round(float(x)) for x in page.mediabox[2:]] == [595, 842] for page in reader.pages)
    cover = " ".join(reader.pages[0].extract_text().split())
    assert "Map poster" in cover and "Merlin has Morgan Le Fay on his back" in cover


def test_print_command_prints_the_cards(cli):
    out = cli.root / "cards.pdf"
    cli.ok("print", "koc", "--only", "cards", "--paper", "letter", "--backs", "duplex-long",
           "--out", str(out))
    reader = PdfReader(str(out))
    titles = [o.title for o in reader.outline if not isinstance(o, list)]
    assert titles == ["Contents and printing", "Knight cards", "King cards", "Lady cards"]
    assert all([round(float(x)) for x in page.mediabox[2:]] == [612, 792] for page in reader.pages)
    text = pdf_text(out)
    assert "Sir Galahad" in text and "Queen of North Wales" in text and "King Mark" in text


# ---- positions in an edited data folder ---------------------------------------------------------

def _edit(folder, old: str, new: str) -> None:
    path = folder / "areas.toml"
    text = path.read_text(encoding="utf-8")
    assert old in text, old
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def _line(folder, err: DataError) -> str:
    return (folder / "areas.toml").read_text(encoding="utf-8").splitlines()[err.line - 1]


@pytest.mark.parametrize("new, message", [
    ("at = [51]", r"area 'Faerie', at: write two numbers, x \(east\) and y \(north\)"),
    ('at = ["51", 70]', r"area 'Faerie', at: write two numbers"),
    ("at = [51, 90]", r"area 'Faerie', at: \[51, 90\] lies outside the map"),
    ("at = [[51, 70], [52, 70]]", r"area 'Faerie', at: only a sea is drawn along a course"),
    ('at = "51, 70"', r"area 'Faerie': 'at' must be a list"),
])
def test_a_broken_position_is_reported_at_its_line(data_copy, new, message):
    _edit(data_copy, "at = [51, 70]", new)
    errors = check_data_dir(data_copy)
    assert len(errors) == 1, [e.render() for e in errors]
    err = errors[0]
    assert re.search(r"areas\.toml:\d+:\d+: error: " + message, err.render()), err.render()
    assert _line(data_copy, err).startswith("at = ")


def test_a_missing_or_shared_position_is_reported(data_copy):
    text = (data_copy / "areas.toml").read_text(encoding="utf-8")
    kent = re.search(r'name = "Kent"\n(?:.*\n)*?(at = \[[^\n]*\])', text).group(1)
    _edit(data_copy, kent + "\n", "")                         # Kent loses its position
    _edit(data_copy, "at = [51, 70]", "at = [6.5, 44.2]")     # Faerie on the Isle of Servage
    rendered = [e.render() for e in check_data_dir(data_copy)]
    assert any(re.search(r"areas\.toml:\d+:\d+: error: area 'Kent' has no position on the map", r)
               for r in rendered), rendered
    assert any(re.search(r"areas\.toml:\d+:\d+: error: area 'Faerie' is on the same spot as "
                         r"'Isle of Servage'", r) for r in rendered), rendered
    assert len(rendered) == 2


def test_positions_are_optional_but_the_poster_needs_them(data_copy):
    path = data_copy / "areas.toml"
    text = "\n".join(line for line in path.read_text(encoding="utf-8").splitlines()
                     if not line.startswith("at = "))
    path.write_text(text, encoding="utf-8")
    world = load_world(data_copy)              # the rules engine does not need the map
    assert all(a.at is None for a in world.areas.values())
    with pytest.raises(CompanionError, match="needs a position for every area"):
        kit(world)


def test_a_lost_counter_or_card_is_printed_again_alone():
    """Every counter carries its name as its label (drawn by the kit's own drawer, the label
    only names it), so `companion print koc --reprint Wolf` finds it; a card keeps its number."""
    from companion.render.printkit import PrintOptions, plan_kit

    plan = plan_kit(kit(), PrintOptions.from_strings(reprint=["Wolf", "Sir Lancelot"]))
    parts = {p.part.kind: p.part for p in plan.parts}
    assert set(parts) == {"cards", "chits"}
    assert [(c.front.label, c.count) for c in parts["chits"].chits] == [("Wolf", 1)]
    assert [c.name for c in parts["cards"].cards if c.count] == ["Sir Lancelot"]
    labels = [c.front.label for p in kit().parts if p.kind == "chits" for c in p.chits]
    assert all(labels), "a counter without a name cannot be reprinted"


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_each_way_on_in_the_foreign_war_steps_takes_one_line(the_kit, paper):
    """Shared by natural width, the long step labels took the room and every way on ("serve
    and lose: R next turn") wrapped; the Next column is wide enough for each way to a step on
    one line (the two longest ends of the war, "...: war over: to her castle", may wrap)."""
    from companion.render.fonts import register_fonts
    from companion.render.printkit.flow import CELL_PAD_X, GUTTER, column_widths
    from companion.render.printkit.fit import faces, parsed, text_width
    from companion.render.printkit.layout import content_area
    from companion.render.printkit.options import parse_paper

    register_fonts()
    table = next(b for p in the_kit.parts for b in getattr(p, "blocks", None) or ()
                 if getattr(b, "columns", None) == ["Step", "What happens", "Next"])
    _, _, area = content_area(parse_paper(paper), 8.0)
    widths = column_widths(table, (area.w - GUTTER) / 2, 8.0)
    f = faces(False)
    for row in table.rows:
        for line in row[2].split("\n"):
            if "war over" in line:
                continue
            words = parsed(line, "r")[0]
            width = sum(text_width(w.text, f.bold if w.style == "b" else f.regular, 8.0)
                        + (text_width(" ", f.regular, 8.0) if w.space_before else 0.0)
                        for w in words)
            assert width <= widths[2] - 2 * CELL_PAD_X, (paper, line)


def test_the_knights_fate_chart_marks_its_flags_in_words(world):
    """Which fates the loser may refuse, and which suit a beaten non-player knight, are marked
    in each row in the words the chart's note uses (it once printed the data's field names,
    'refusable = ...', for a table without such a column)."""
    from companion.koc.printables import chart_blocks
    from companion.render.printkit import Paragraph, Table

    blocks = chart_blocks(world.charts["knights_fate"])
    note = " ".join(b.text for b in blocks if isinstance(b, Paragraph))
    assert "refusable" not in note and "npk_choice" not in note
    assert "'may be refused'" in note and "'fit for a non-player Knight'" in note
    rows = {r[0]: r[1] for b in blocks if isinstance(b, Table) for r in b.rows}
    assert rows["2"].startswith("Pilgrimage to a shrine (may be refused)")
    assert rows["1"].startswith("Grants a request (fit for a non-player Knight)")
    assert "(" not in rows["3"]
