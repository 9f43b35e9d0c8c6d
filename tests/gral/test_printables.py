"""The Gral print-and-play kit and the filled sheet, through the print suite."""
from __future__ import annotations

import io

import pikepdf
import pytest
from pypdf import PdfReader

from companion.gral.kind import KIND
from companion.render.printkit import PrintOptions, build_kit, plan_kit


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("backs", ["none", "duplex-long", "duplex-short", "fold"])
def test_kit_lays_out_on_every_paper_and_backs_mode(paper, backs):
    plan = plan_kit(KIND.print_kit(), PrintOptions.from_strings(paper=paper, backs=backs,
                                                                bleed="3"))
    assert plan.pages


def test_kit_pdf_is_sound_and_reproducible(tmp_path):
    options = PrintOptions.from_strings(paper="letter", backs="duplex-long")
    data = build_kit(KIND.print_kit(), options)
    assert data == build_kit(KIND.print_kit(), options)
    path = tmp_path / "kit.pdf"
    path.write_bytes(data)
    job = pikepdf.Job(["qpdf", "--check", str(path)])   # libqpdf's own 'qpdf --check'
    job.run()
    assert job.exit_code == 0 and not job.has_warnings
    reader = PdfReader(io.BytesIO(data))
    titles = [o.title for o in reader.outline if not isinstance(o, list)]
    assert {"Board", "Influence sheets", "Rules summary"} <= set(titles)
    assert reader.metadata.title.startswith("Die Jagd nach dem Gral")
    for page in reader.pages:
        assert [round(float(x)) for x in page.mediabox[2:]] == [612, 792]


def test_filled_sheet_shows_the_players_units(tmp_path):
    import pypdfium2 as pdfium

    from companion import service
    from companion.gral.printables import filled_sheet_pdf
    from companion.store import Store

    store = Store(tmp_path / "s.sqlite3", create=True)
    service.new_game(store, "gral", "g", ["Anna", "Bert"], seed="1", option_args=["first=Anna"])
    service.submit_orders(store, "g", "Anna", "assign 10+7 to Alberto", "a")
    service.run_turn(store, "g")
    data = filled_sheet_pdf(store.game("g"), store.turn("g"), "Anna")
    text = pdfium.PdfDocument(data)[0].get_textpage().get_text_range()
    assert "Anna" in text and "7 + 10" in text and "17" in text


def test_the_printed_board_marks_where_the_grail_starts(monkeypatch):
    """The board of the kit (no pieces on it) bears the grail's sign on its starting field, as
    a report's board does while the grail lies there: the key's "The grail starts on ..." can
    be checked on the board itself."""
    from reportlab.pdfgen import canvas

    from companion.gral import render
    from companion.gral.printables import board_data

    data = board_data()
    drawn = []
    monkeypatch.setattr(render, "draw_grail", lambda c, x, y, size: drawn.append((x, y)))
    side = 500.0
    render.draw_board(canvas.Canvas(io.BytesIO()), data, 0, 0, side, show_pieces=False)
    [(x, y)] = drawn
    cell = side / max(data["rows"], data["columns"])
    start = next(f for f in data["fields"] if f["name"] == data["grail"]["field"])
    assert int(x // cell) + 1 == start["column"]
    assert data["rows"] - int(y // cell) == start["row"]
