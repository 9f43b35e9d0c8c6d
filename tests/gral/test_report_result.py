"""The report's result section: 'Winners' for several, the reason as the event wrote it (names
not lowered), and in The Original a word that the influence did not decide."""
from __future__ import annotations

from companion import service
from companion.render.report_text import render_text
from companion.store import Store

SHARED = """game: gral
players: Anna, Bert, Cora
first: Anna
phase: round
next: Anna
piece: Mansur Al-Jallah @ Masyaf
piece: Yusuf ibn Tariq @ Antioch
piece: Alberto Castellano @ Masyaf
piece: Bertrand de Voisins @ Paris
piece: Tobias Morgenstern @ Kassel
piece: Elias Rosenthal @ Kassel
piece: Adam zu Weisenheim @ Ingolstadt
piece: Kaspar von Eichstätt @ Ingolstadt
grail: Alberto Castellano
sheet: Anna: Mansur Al-Jallah = 10+5
sheet: Bert: Mansur Al-Jallah = 3+9
sheet: Cora: Mansur Al-Jallah = 3+9
"""


def finished(tmp_path, position: str, orders: dict[str, str], options=()) -> dict[str, str]:
    store = Store(tmp_path / "s.sqlite3", create=True)
    setup = tmp_path / "pos.txt"
    setup.write_text(position, encoding="utf-8")
    service.new_game(store, "gral", "g", [], seed="1", setup=str(setup),
                     option_args=list(options))
    for player, text in orders.items():
        service.submit_orders(store, "g", player, text, f"{player}.txt")
    service.run_turn(store, "g")
    turn = store.turn("g")
    assert turn.state["phase"] == "over"
    return {v: " ".join(render_text(doc).split()) for v, doc in
            service.report_documents(store.game("g"), turn).items()}


def test_several_winners_and_names_kept(tmp_path, fixed_date):
    texts = finished(tmp_path, SHARED, {"Anna": "blow Alberto by Mansur taking grail"})
    for text in texts.values():
        assert "Winners: Bert and Cora. Bert and Cora share the most influence on the bearer, " \
            "12." in text, text
        assert "Winner: Bert and Cora" not in text and "bert and cora" not in text


def the_original(moving: str, mansur: str, alberto: str, sheet: str) -> str:
    """A four-player position of The Original (Anna's Templars, Bert's Assassins, Cora's
    Rosicrucians, Dora's Illuminati), ``moving`` next, Mansur Al-Jallah carrying the grail on
    field ``mansur``, Alberto Castellano on ``alberto``, and one sheet line."""
    return f"""game: gral
players: Anna, Bert, Cora, Dora
first: Anna
phase: round
next: {moving}
hq: Anna = Templars
hq: Bert = Assassins
hq: Cora = Rosicrucians
hq: Dora = Illuminati
piece: Mansur Al-Jallah @ {mansur}
piece: Yusuf ibn Tariq @ Masyaf
piece: Alberto Castellano @ {alberto}
piece: Bertrand de Voisins @ Paris
piece: Tobias Morgenstern @ Kassel
piece: Elias Rosenthal @ Kassel
piece: Adam zu Weisenheim @ Ingolstadt
piece: Kaspar von Eichstätt @ Ingolstadt
grail: Mansur Al-Jallah
sheet: {sheet}
"""


def test_the_original_says_the_influence_did_not_decide(tmp_path, fixed_date):
    original = the_original("Bert", "Chartres", "Kassel", "Bert: Mansur Al-Jallah = 10+9")
    texts = finished(tmp_path, original, {"Bert": "move Mansur to Paris with grail"},
                     ["variant=original"])
    text = texts["Bert"]
    assert "Winner: Anna. The grail reached Paris, the headquarters assigned to Anna." in text
    assert "the influence is shown for interest only" in text


def test_the_original_dropped_grail_shows_no_influence_on_a_bearer(tmp_path, fixed_date):
    """The grail dropped on an assigned headquarters ends The Original with no bearer (rules
    edition 4, casebook case 101): the result names the winner and shows no table of influence
    'on the bearer', where edition 3 showed everybody with 0 though Anna held 15 on the
    initiate who brought it."""
    original = the_original("Anna", "Akkon", "Paris", "Anna: Mansur Al-Jallah = 10+5")
    texts = finished(tmp_path, original, {"Anna": "move Mansur to Masyaf dropping grail"},
                     ["variant=original"])
    for text in texts.values():
        assert "Winner: Bert. The grail reached Masyaf, the headquarters assigned to Bert." in text
        assert "Influence on the bearer" not in text and "for interest only" not in text


def test_the_field_of_each_initiate_comes_next_to_his_name(tmp_path, fixed_date):
    """The board's table of initiates: where each stands is the column after his name, so a
    phone shows it without scrolling the table sideways (order and figure come after)."""
    store = Store(tmp_path / "s.sqlite3", create=True)
    setup = tmp_path / "pos.txt"
    setup.write_text(SHARED, encoding="utf-8")
    service.new_game(store, "gral", "g", [], seed="1", setup=str(setup))
    doc = service.report_documents(store.game("g"), store.turn("g"))["Anna"]
    board = next(s for s in doc["sections"] if s["title"] == "The board")
    table = next(b for b in board["blocks"] if b["type"] == "table")
    assert table["columns"] == ["", "Initiate", "Field", "Order", "Figure"]
    assert table["rows"][2] == ["AC", "Alberto Castellano", "Masyaf (carries the grail)",
                                "Templars", "tall"]


def test_a_finished_game_lists_no_standing_orders(tmp_path, fixed_date):
    """'Nothing: the game is over.' is all the final report asks; the objections a player
    had standing are not listed after it as if they still applied."""
    position = SHARED + "standing: Bert: object Kaspar up to 3\n"
    texts = finished(tmp_path, position, {"Anna": "blow Alberto by Mansur taking grail"})
    for name in ("Anna", "Bert", "Cora"):
        assert "Nothing: the game is over." in texts[name]
        assert "Your standing orders" not in texts[name], texts[name]
        # where a player finds the salts: not "next to this report", a folder he never sees
        assert "disclosure.json, attached to the mail of this report" in texts[name]
