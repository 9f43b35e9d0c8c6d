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


def waiting_game(tmp_path, position: str, orders: dict[str, str]) -> Store:
    """A game of ``position`` with missing=wait after one turn of ``orders``."""
    store = Store(tmp_path / "w.sqlite3", create=True)
    setup = tmp_path / "wait.txt"
    setup.write_text(position, encoding="utf-8")
    service.new_game(store, "gral", "g", [], seed="1", setup=str(setup),
                     option_args=["missing=wait"])
    for player, text in orders.items():
        service.submit_orders(store, "g", player, text, f"{player}.txt")
    service.run_turn(store, "g")
    return store


def offered_alone_are_accepted(store: Store, player: str) -> list[str]:
    from companion.registry import get_kind

    kind = get_kind("gral")
    state = store.turn("g").state
    lines = kind.options_for(state, player)
    for line in lines:
        service.validate_orders(kind, state, player, line + "\n", "o.txt")
    return lines


def test_listed_moves_all_skipped_leave_the_player_free_to_assign(tmp_path, fixed_date):
    """Random play (seed 620000): with missing=wait a player whose listed moves were all
    skipped as not possible (none proposed, none rejected) waits for new orders. His report
    said "the moves you listed were rejected ()" and that he could not assign yet, though he
    may (casebook case 91's situation): now it says no listed move was possible, and offers
    an assignment, which is accepted."""
    store = waiting_game(tmp_path, POSITION.replace("sheet: Anna: Alberto Castellano = 10\n"
                                                    "standing: Anna: object Alberto Castellano "
                                                    "up to all\n", ""),
                         {"Anna": "move Alberto to Chartres",
                          "Bert": "move Alberto to Glastonbury"})
    state = store.turn("g").state
    assert state["pending"] == {"player": "Bert", "rejected": [], "proposed": []}
    bert = texts(store)["Bert"]
    bert = " ".join(bert.split())       # the words, however the lines wrap
    assert "()" not in bert
    assert "none of the moves you listed was possible when your action came" in bert
    assert "Send new orders: a move, a blow, an assignment of influence or 'pass'." in bert
    assert "only once every possible move has been rejected" not in bert
    lines = offered_alone_are_accepted(store, "Bert")
    assert any(line.startswith("assign ") for line in lines)
    service.submit_orders(store, "g", "Bert", "assign 3 to Tobias", "Bert.txt")


def test_a_player_whose_move_was_rejected_is_not_offered_an_assignment(tmp_path, fixed_date):
    """With missing=wait a player whose listed move was rejected must send further moves
    before he may assign (5.2; casebook case 70): the legal lines offered him held the
    assignments all the same, each refused when sent alone. Now every offered line is
    accepted alone, and his report names the rejected move."""
    store = waiting_game(tmp_path, POSITION, {"Anna": "move Tobias to Wartburg",
                                              "Bert": "move Alberto to Glastonbury\n"
                                                      "move Alberto to Troyes"})
    assert store.turn("g").state["pending"]["player"] == "Bert"
    lines = offered_alone_are_accepted(store, "Bert")
    assert lines and not any(line.startswith("assign ") for line in lines)
    bert = " ".join(texts(store)["Bert"].split())
    assert "the moves you listed were rejected (move Alberto Castellano to Glastonbury)" in bert
    assert "influence may be assigned only once every possible move has been rejected" in bert
