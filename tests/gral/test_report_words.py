"""The words of a Gral report's "What is asked of you": the note that 'object none' clears the
standing orders appears only when the reader has some in force (a rendering matter, so not tied
to a rules edition)."""
from __future__ import annotations

from companion import service
from companion.render.report_text import render_text
from companion.store import Store

NOTE = "'object none' clears your standing orders"

POSITION = """game: gral
players: Anna, Bert
first: Anna
phase: round
next: Anna
grail: Golgota
sheet: Anna: Alberto Castellano = 10
standing: Anna: object Alberto Castellano up to all
"""


def texts(store: Store) -> dict[str, str]:
    turn = store.turn("g")
    return {v: render_text(doc) for v, doc in
            service.report_documents(store.game("g"), turn).items()}


def test_opening_report_does_not_offer_to_clear_standing_orders_nobody_has(tmp_path, fixed_date):
    store = Store(tmp_path / "s.sqlite3", create=True)
    service.new_game(store, "gral", "g", ["Anna", "Bert", "Cora"], seed="1")
    for player, text in texts(store).items():
        assert NOTE not in text, player
    assert "object <initiate|any> [conditions] up to <N|all>" in texts(store)["Anna"]


def test_the_note_appears_for_the_player_with_standing_orders_only(tmp_path, fixed_date):
    store = Store(tmp_path / "s.sqlite3", create=True)
    setup = tmp_path / "pos.txt"
    setup.write_text(POSITION, encoding="utf-8")
    service.new_game(store, "gral", "g", [], seed="1", setup=str(setup))
    reports = texts(store)
    assert NOTE in reports["Anna"]
    assert NOTE not in reports["Bert"]


def test_the_note_appears_once_standing_orders_are_sent_and_goes_with_object_none(tmp_path,
                                                                                   fixed_date):
    store = Store(tmp_path / "s.sqlite3", create=True)
    service.new_game(store, "gral", "g", ["Anna", "Bert"], seed="1", option_args=["first=Anna"])
    service.submit_orders(store, "g", "Anna", "assign 5 to Tobias\nobject Tobias up to all",
                          "Anna.txt")
    service.submit_orders(store, "g", "Bert", "pass", "Bert.txt")
    service.run_turn(store, "g")
    reports = texts(store)
    assert NOTE in reports["Anna"] and NOTE not in reports["Bert"]
    service.submit_orders(store, "g", "Anna", "pass\nobject none", "Anna.txt")
    service.run_turn(store, "g")
    assert NOTE not in texts(store)["Anna"]
