"""The plain-text email body of every game: no line wider than 76 characters, header values in
one column, the link on a line of its own, and an order form with one order per line."""
from __future__ import annotations

import importlib
import re

import pytest

from companion import service
from companion.engine.orders import OrdersRejected
from companion.registry import get_kind
from companion.render.report_text import WIDTH, render_text, table_text
from companion.store import Store

KINDS = {"gral": ["first=Anna"], "koc": [], "mayhem": [], "fluxx": []}
NAMES = ["Anna Maria von Hohenzollern-Sigmaringen", "Bert", "Cora"]


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_every_line_of_every_report_fits_an_email_line(tmp_path, kind):
    store = Store(tmp_path / "s.sqlite3", create=True)
    service.new_game(store, kind, "g", NAMES, seed="6", option_args=KINDS[kind])
    for _ in range(3):
        try:
            service.run_turn(store, "g")
        except Exception:  # noqa: BLE001 - a game waiting for orders: enough turns then
            break
    game = store.game("g")
    for turn in store.turns("g"):
        for viewer, doc in service.report_documents(game, turn).items():
            text = render_text(doc)
            for number, line in enumerate(text.split("\n"), 1):
                if len(line) > WIDTH:
                    assert " " not in line.strip(), (viewer, turn.number, number, line)
            header = [line for line in text.split("\n")[2:8] if re.match(r"\w[\w ]*: ", line)]
            starts = {len(re.match(r"[^:]+:\s+", line).group(0)) for line in header}
            assert len(starts) == 1, header
            label = "Public link:" if viewer == "public" else "Your private link:"
            lines = text.split("\n")
            assert lines[lines.index(label) + 1].strip() == doc["qr"]


def test_a_wide_table_becomes_records():
    wide = table_text(["Knight", "Where", "What he carries"],
                      [["Sir Anna Maria von Hohenzollern", "Forest of Broceliande",
                        "a lance, a shield, a sword and a horse called Gringolet"]])
    assert all(len(line) <= WIDTH for line in wide.split("\n"))
    assert "Knight:" in wide and "Where:" in wide


def test_a_short_wide_grid_is_turned_to_read_down_the_page():
    """A Gral influence sheet (two bars of ten units, each '9 → KE' once assigned) is too wide
    for a phone's line: its rows become columns, not 20 records of 'N: value' lines."""
    columns = [""] + [str(i) for i in range(1, 11)]
    rows = [["Bar A"] + [f"{i} → KE" for i in range(1, 11)],
            ["Bar B"] + [f"{i} → YT" for i in range(1, 10)]]
    text = table_text(columns, rows)
    lines = text.split("\n")
    assert all(len(line) <= WIDTH for line in lines)
    assert lines[0].split() == ["Bar", "A", "Bar", "B"]
    assert lines[2].split() == ["1", "1", "→", "KE", "1", "→", "YT"]
    assert lines[-1].split() == ["10", "10", "→", "KE"] and ":" not in text


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_the_order_form_shows_one_order_per_line(tmp_path, kind):
    """Every line of the order help that is a whole order by itself parses as one order (two
    orders side by side would not)."""
    store = Store(tmp_path / "s.sqlite3", create=True)
    service.new_game(store, kind, "g", ["Anna", "Bert", "Cora"], seed="1",
                     option_args=KINDS[kind])
    state = store.turn("g").state
    help_lines = importlib.import_module(f"companion.{kind}.views").ORDER_HELP
    assert all(len(line) <= WIDTH - 2 for line in help_lines)
    whole = [line.split("   ")[0].strip() for line in help_lines
             if not line.startswith(" ") and not line.endswith(":")
             and not any(ch in line.split("   ")[0] for ch in "<[(.")]
    assert whole
    for line in whole:
        try:
            get_kind(kind).parse_orders(state, "Anna", line + "\n", "form")
        except OrdersRejected as exc:
            pytest.fail(f"{kind}: the order form line {line!r} does not parse: "
                        f"{exc.errors[0].message}")


def test_finished_games_stop_asking_and_name_the_winner(tmp_path):
    """The last reports of a whole game: no order form, nothing asked, the winner named."""
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).parent))
    import test_random_play as gral_play  # noqa: E402
    from mayhem import test_random_play as mayhem_play  # noqa: E402
    sys.path.insert(0, str(Path(__file__).parent / "fluxx"))
    from fluxx_play import engine_game  # noqa: E402

    finished = []
    (tmp_path / "g").mkdir()
    (tmp_path / "m").mkdir()
    for name, (store, game_id) in (("gral", gral_play.play_in_process(tmp_path / "g", 3, 5)),
                                   ("mayhem", mayhem_play.play_in_process(
                                       tmp_path / "m", 3, 5, []))):
        game = store.game(game_id)
        assert get_kind(game.kind).is_over(store.turn(game_id).state), name
        finished.append((name, service.report_documents(game, store.turn(game_id))))
    state, _ = engine_game(5, 3)
    fluxx = get_kind("fluxx")
    assert fluxx.is_over(state)
    envelope = {"game_id": "f", "turn": 9, "date": "2027-01-01 00:00 UTC", "link": "x",
                "link_label": "link"}
    finished.append(("fluxx", {v: fluxx.report(dict(fluxx.view(state, v), envelope=envelope))
                               for v in ["public"] + list(state["players"])}))
    for name, docs in finished:
        for viewer, doc in docs.items():
            titles = [section["title"] for section in doc["sections"]]
            assert "Order form" not in titles, (name, viewer, titles)
            text = render_text(dict(doc, qr=None))
            assert re.search(r"\bWinners?\b|\bwins\b", text), (name, viewer)


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_no_page_holds_what_would_have_fit_on_the_page_before(tmp_path, kind):
    """A short section is not pushed to a page of its own when the page before has room."""
    import pypdfium2 as pdfium

    from companion.render.report_pdf import render_pdf

    store = Store(tmp_path / "s.sqlite3", create=True)
    service.new_game(store, kind, "g", NAMES, seed="8", option_args=KINDS[kind])
    try:
        service.run_turn(store, "g")
    except Exception:  # noqa: BLE001 - waiting for orders: turn 0 is enough
        pass
    game = store.game("g")
    footer = 14 * 72 / 25.4          # the frame's bottom edge, in points
    for viewer, doc in service.report_documents(game, store.turn("g")).items():
        pdf = pdfium.PdfDocument(render_pdf(doc))
        spans = []
        for page in pdf:
            # everything drawn above the footer: text, table rules, the order form's lines
            ys = [box for box in (obj.get_bounds() for obj in page.get_objects())
                  if box[1] > footer + 1]
            spans.append((min(b[1] for b in ys), max(b[3] for b in ys)) if ys else None)
        for before, this in zip(spans, spans[1:]):
            if before and this:
                room = before[0] - footer
                assert this[1] - this[0] + 24 > room, (viewer, spans)
        pdf.close()
