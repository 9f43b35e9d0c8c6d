"""Rules editions of Die Jagd nach dem Gral beyond what the casebook can show: orders a game
stored before today's checks existed still replay as they were played (docs/gral.md, Rules
editions)."""
from __future__ import annotations

from pathlib import Path

import pytest

from companion import service
from companion.engine.orders import OrdersRejected
from companion.registry import get_kind
from companion.store import Store

KIND = get_kind("gral")
POSITION = """game: gral
players: Anna, Bert
first: Anna
phase: round
next: Anna
grail: Golgota
"""


def old_game(tmp_path: Path, number: int) -> Store:
    """A game begun under rules edition ``number`` (as an earlier release would have begun it)."""
    store = Store(tmp_path / "s.sqlite3", create=True)
    setup = tmp_path / "setup.txt"
    setup.write_text(POSITION, encoding="utf-8")
    KIND.edition = number
    try:
        service.new_game(store, "gral", "g", [], seed="editions", setup=str(setup))
    finally:
        vars(KIND).pop("edition", None)
    assert store.turn("g", 0).inputs.get("edition", 0) == number
    return store


@pytest.mark.parametrize("number", [0, 1])
def test_stored_contradictory_standing_orders_replay_as_read_then(tmp_path, fixed_date, number):
    """Before edition 2 an 'object' line with contradictory conditions was accepted, the later
    condition winning. Such a line is refused when sent today (casebook case 77), but orders
    stored back then are read again as they were: the turn and its replay give the same
    result."""
    store = old_game(tmp_path, number)
    text = "move Alberto to Glastonbury\nobject any with grail without grail up to 5\n"
    with pytest.raises(OrdersRejected) as refused:
        service.submit_orders(store, "g", "Anna", text, "anna.txt")
    assert "anna.txt:2:23: syntax error: contradictory conditions" in refused.value.render()
    # stored as the earlier release stored it, unchecked by today's submission checks
    store.submit("g", "Anna", 1, text, service.now_text())
    service.submit_orders(store, "g", "Bert", "pass\n", "bert.txt")
    service.run_turn(store, "g")
    position = KIND.write_position(store.turn("g").state).splitlines()
    assert "standing: Anna: object any without grail up to 5" in position
    assert "piece: Alberto Castellano @ Glastonbury" in position
    result = service.replay(store, "g")
    assert result.ok, result.message


def test_stored_ending_without_grail_replays(tmp_path, fixed_date):
    """'ending' with 'without grail' (which no action of a standard game meets) is refused when
    sent, in a game of any edition; a stored line of that kind is kept and replays."""
    store = old_game(tmp_path, 2)
    text = "pass\nobject any without grail ending up to all\n"
    with pytest.raises(OrdersRejected) as refused:
        service.submit_orders(store, "g", "Anna", text, "anna.txt")
    assert "anna.txt:2:26: illegal order: contradictory conditions: 'ending' with 'without " \
        "grail'" in refused.value.render()
    store.submit("g", "Anna", 1, text, service.now_text())
    service.run_turn(store, "g")
    position = KIND.write_position(store.turn("g").state).splitlines()
    assert "standing: Anna: object any without grail ending up to all" in position
    assert service.replay(store, "g").ok


def test_options_offer_no_blow_taking_a_grail_lying_free(tmp_path, fixed_date):
    """From edition 3 the option list offers 'taking grail' after a blow without a move only
    when the uncovered initiate carries the grail (section 5.3)."""
    from companion.gral.position import read_position

    base = """game: gral
players: Anna, Bert
first: Anna
phase: round
next: Anna
piece: Mansur Al-Jallah @ Akkon
piece: Yusuf ibn Tariq @ Masyaf
piece: Alberto Castellano @ Akkon
piece: Bertrand de Voisins @ Paris
piece: Tobias Morgenstern @ Kassel
piece: Elias Rosenthal @ Kassel
piece: Adam zu Weisenheim @ Ingolstadt
piece: Kaspar von Eichstätt @ Ingolstadt
sheet: Anna: Mansur Al-Jallah = 10
"""
    options = {"variant": "standard", "hq": "random"}
    lying = read_position(KIND.world, base + "grail: Akkon\n", "p.txt", options)
    lying["edition"] = 3
    lines = KIND.options_for(lying, "Anna")
    assert "blow Alberto Castellano by Mansur Al-Jallah" in lines
    assert "blow Alberto Castellano by Mansur Al-Jallah taking grail" not in lines
    lying["edition"] = 2
    assert "blow Alberto Castellano by Mansur Al-Jallah taking grail" in KIND.options_for(
        lying, "Anna")
    carried = read_position(KIND.world, base + "grail: Alberto Castellano\n", "p.txt", options)
    carried["edition"] = 3
    assert "blow Alberto Castellano by Mansur Al-Jallah taking grail" in KIND.options_for(
        carried, "Anna")
