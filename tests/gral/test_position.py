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


@pytest.mark.parametrize("line, col, message", [
    ("standing: Bert: object any without grail ending up to all", 42,
     "'ending' with 'without grail'"),
    ("standing: Bert:   object Alberto to Masyaf ending up to 3", 44,
     "'ending' with 'to Masyaf': no action that ends on Masyaf ends the game (it is not the "
     "headquarters of Alberto Castellano's order)"),
    ("standing: Bert: object any to Golgota ending up to 3", 39,
     "'ending' with 'to Golgota': no action that ends on Golgota ends the game (it is no "
     "headquarters)"),
])
def test_standing_lines_that_could_never_object_are_refused(line, col, message):
    """A setup's standing orders get the checks of orders sent by players: 'ending' with a
    condition that rules it out (gral kind.check_standing) is refused at file, line, column."""
    bad = GOOD.replace("standing: Bert: object any ending up to 2", line)
    with pytest.raises(DataError) as info:
        read_position(KIND.world, bad, "bad.txt")
    rendered = info.value.render()
    assert f"bad.txt:24:{col}: " in rendered and message in rendered, rendered
    assert "hint: leave out 'ending' or '" in rendered, rendered


def test_standing_ending_lines_that_can_end_the_game_are_read():
    for line in ("standing: Bert: object Alberto to Paris ending up to 3",
                 "standing: Bert: object any to Masyaf with grail ending up to 3"):
        state = read_position(KIND.world, GOOD.replace(
            "standing: Bert: object any ending up to 2", line), "good.txt")
        assert state["standing"]["Bert"][-1]["ending"] is True
    # in The Original a grail dropped on an assigned headquarters ends the game, so 'without
    # grail' can end it there, and any headquarters is one for any initiate
    original = (GOOD.replace("players: Anna, Bert, Cora", "players: Anna, Bert, Cora, Dora")
                .replace("rounds: 4\nactions: 13\n", "rounds: 4\n")
                .replace("standing: Bert: object any ending up to 2",
                         "standing: Bert: object any without grail ending up to 2\n"
                         "standing: Bert: object Alberto to Masyaf ending up to 2")
                + "hq: Anna = Templars\nhq: Bert = Assassins\nhq: Cora = Rosicrucians\n"
                  "hq: Dora = Illuminati\n")
    state = read_position(KIND.world, original, "original.txt", {"variant": "original"})
    assert [ob["ending"] for ob in state["standing"]["Bert"]] == [False, True, True]


def test_game_begun_from_a_setup_now_refused_still_replays(tmp_path, monkeypatch):
    """A game begun before the check from a position with such a line replays from its stored
    start (with a note), and its turns are re-run from it."""
    import companion.gral.position as position

    bad = GOOD.replace("standing: Bert: object any ending up to 2",
                       "standing: Bert: object any to Golgota ending up to 3")
    store = Store(tmp_path / "s.sqlite3", create=True)
    setup = tmp_path / "pos.txt"
    setup.write_text(bad, encoding="utf-8")
    monkeypatch.setattr(position, "ending_clash", lambda *args: None)   # as before the check
    service.new_game(store, "gral", "g", [], seed="1", setup=str(setup))
    service.submit_orders(store, "g", "Cora", "pass", "cora.txt")
    service.run_turn(store, "g")
    monkeypatch.undo()
    with pytest.raises(DataError, match="'ending' with 'to Golgota'"):
        read_position(KIND.world, bad, "pos.txt")
    result = service.replay(store, "g")
    assert result.ok and "no longer passes the checks" in result.notes[0], result
