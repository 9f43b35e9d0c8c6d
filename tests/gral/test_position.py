"""Gral positions as text: written, read back, and validated with file:line:column errors."""
from __future__ import annotations

import pytest

from companion import service
from companion.errors import CompanionError, DataError, DataErrors
from companion.gral.kind import KIND
from companion.gral.position import read_position, write_position
from companion.store import Store

GOOD = """# a position
game: gral
players: Anna, Bert, Cora
first: Bert
phase: round
next: Cora
rounds: 4
actions: 13
piece: Mansur Al-Jallah @ Akkon
piece: Yusuf ibn Tariq @ uncovered
piece: Alberto Castellano @ Tortosa
piece: Bertrand de Voisins @ Paris
piece: Tobias Morgenstern @ Kassel
piece: Elias Rosenthal @ Golgota
piece: Adam zu Weisenheim @ Prague
piece: Kaspar von Eichstätt @ Ingolstadt
grail: Elias Rosenthal
sheet: Anna: Mansur Al-Jallah = 10+2; Yusuf ibn Tariq = 3
sheet: Bert: Alberto Castellano = 9
paid: Anna: Mansur Al-Jallah = 10
known: Anna: Mansur Al-Jallah = 2
lost: Anna: Yusuf ibn Tariq = 3
standing: Bert: object Alberto to Paris up to all
standing: Bert: object any ending up to 2
"""


def test_round_trip():
    state = read_position(KIND.world, GOOD, "good.txt")
    text = write_position(KIND.world, state)
    again = read_position(KIND.world, text, "again.txt")
    assert again == state
    assert write_position(KIND.world, again) == text


def test_player_and_public_versions_hide_other_sheets():
    state = read_position(KIND.world, GOOD, "good.txt")
    mine = write_position(KIND.world, state, "Anna")
    assert "sheet: Anna" in mine and "sheet: Bert" not in mine and "standing: Bert" not in mine
    public = write_position(KIND.world, state, "public")
    assert "sheet:" not in public and "standing:" not in public and "paid: Anna" not in public


@pytest.mark.parametrize("change, message, line", [
    (("piece: Mansur Al-Jallah @ Akkon", "piece: Mansur Al-Jallah @ Akon"),
     "no field called 'Akon'", 9),
    (("phase: round", "phase: rounds"), "phase 'rounds' is not one of", 5),
    (("next: Cora", "next: Zora"), "no player called 'Zora'", 6),
    (("rounds: 4", "roundz: 4"), "unknown key 'roundz'", 7),
    (("known: Anna: Mansur Al-Jallah = 2", "known: Anna: Mansur Al-Jallah = 5"),
     "known to have at least 5 on Mansur Al-Jallah but the sheet gives only 2", 21),
    (("sheet: Bert: Alberto Castellano = 9", "sheet: Bert: Alberto Castellano = 9+9+9"),
     "no free unit of 9 left", 19),
    (("grail: Elias Rosenthal", "grail: Yusuf"), "uncovered and cannot carry the grail", 17),
    (("standing: Bert: object any ending up to 2", "standing: Bert: object any endin up to 2"),
     "expected a condition", 24),
])
def test_errors_name_the_line(change, message, line):
    bad = GOOD.replace(*change)
    with pytest.raises((DataError, DataErrors)) as info:
        read_position(KIND.world, bad, "bad.txt")
    rendered = info.value.render()
    assert message in rendered and f"bad.txt:{line}:" in rendered, rendered


def test_incomplete_piece_list():
    bad = GOOD.replace("piece: Kaspar von Eichstätt @ Ingolstadt\n", "")
    with pytest.raises(DataError, match="initiates not placed: Kaspar von Eichstätt"):
        read_position(KIND.world, bad, "bad.txt")


def test_new_game_from_setup_and_errors(tmp_path):
    store = Store(tmp_path / "s.sqlite3", create=True)
    setup = tmp_path / "pos.txt"
    setup.write_text(GOOD, encoding="utf-8")
    service.new_game(store, "gral", "g", [], seed="1", setup=str(setup))
    assert KIND.write_position(store.turn("g").state) == write_position(
        KIND.world, read_position(KIND.world, GOOD, "x"))
    with pytest.raises(CompanionError, match="has the players Anna, Bert, Cora"):
        service.new_game(store, "gral", "h", ["Anna", "Bert"], seed="1", setup=str(setup))
    setup.write_text(GOOD.replace("players: Anna, Bert, Cora", "players: Anna"), encoding="utf-8")
    with pytest.raises(CompanionError):
        service.new_game(store, "gral", "i", [], seed="1", setup=str(setup))
    assert store.game_ids() == ["g"]
    assert service.replay(store, "g").ok
