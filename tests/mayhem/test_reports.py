"""Medieval Mayhem reports: secrecy by non-interference (changing one player's hand, concealed
character side, standing orders, plans or private events changes not one byte of any other
player's report, except a teammate's with Team Tactics), views holding only the viewer's
secrets, names printed exactly, fonts embedded, byte-identical rendering."""
from __future__ import annotations

import copy

import pytest
from pypdf import PdfReader

from companion import service
from companion.render.report_pdf import render_pdf
from companion.render.report_text import render_text

from tests.conftest import shared_game

from .helpers import CAT, KIND, new_store, pdf_text

AWKWARD = ['<b>Bo & "Jo"</b>', "Jörg Ünal", "Борис Годунов", "Σωκράτης"]


def play_some(store, game_id: str, players: list[str], options=(), turns: int = 5, output=None):
    service.new_game(store, "mayhem", game_id, players, seed="reports", option_args=list(options),
                     output=output)
    service.submit_orders(store, game_id, players[1], "defend against Dragon\nkeep "
                          + CAT.card[store.turn(game_id).state["hands"][players[1]][0]].name
                          + "\n", "s")
    for _ in range(turns):
        state = store.turn(game_id).state
        if state["phase"] == "over":
            break
        current = state["current"]
        lines = KIND.options_for(state, current)
        picks = [l for l in lines if l.startswith(("recruit", "play"))][:1] + ["draw"]
        try:
            service.submit_orders(store, game_id, current, "\n".join(picks) + "\n", "o")
        except Exception:
            pass
        service.run_turn(store, game_id, output=output)
    return store


@pytest.fixture(scope="module")
def game(tmp_path_factory):
    """A game of awkward names a few turns in and its reports: played once for the module
    (the tests using it only read it)."""
    def make(folder):
        store = new_store(folder)
        play_some(store, "g", AWKWARD, output=folder / "out")
        return store, folder / "out"

    store, output = shared_game(tmp_path_factory, "mayhem-reports", make)
    yield store, output
    store.close()


@pytest.fixture(autouse=True)
def dated(fixed_date):
    """Every test renders at the fixed date its shared game was played at."""


def scrambled(state: dict, owner: str) -> dict:
    """The same position with every secret of ``owner`` changed."""
    other = copy.deepcopy(state)
    hand, deck = other["hands"][owner], other["deck"]
    k = min(len(hand), len(deck))
    other["hands"][owner] = deck[:k] + hand[k:]
    other["deck"] = hand[:k] + deck[k:]
    cid = other["characters"][owner]
    face = CAT.character[cid].face
    alt = next(c for c in other["box"] if CAT.character[c].face == face)
    other["box"] = [cid if c == alt else c for c in other["box"]]
    other["characters"][owner] = alt
    other["standing"][owner] = {"defend": [{"defend": False, "by": None, "against": ["Knight"],
                                            "from": "set", "with": None}],
                                "hand": {"give": [other["hands"][owner][0]], "keep": []}}
    other["plans"][owner] = [{"kind": "draw", "text": "draw"}]
    other["events"] = [dict(e, text=e["text"] + " (secret detail)")
                       if e["to"] != "public" and e["to"] == [owner] else e
                       for e in other["events"]]
    other["events"].append({"kind": "draw-private", "text": "A private note for the owner only.",
                            "to": [owner]})
    return other


def render_all(game_record, turn) -> dict[str, bytes]:
    docs = service.report_documents(game_record, turn)
    return {v: render_pdf(doc) + render_text(doc).encode() for v, doc in docs.items()}


def check_non_interference(store, game_id: str, teams: list[list[str]] | None = None):
    g = store.game(game_id)
    turn = store.turn(game_id)
    base = render_all(g, turn)
    for owner in [p.name for p in g.players]:
        mates = next((t for t in teams or [] if owner in t), [owner])
        changed = copy.copy(turn)
        changed.state = scrambled(turn.state, owner)
        after = render_all(g, changed)
        for viewer, data in base.items():
            if viewer in mates:
                assert after[viewer] != data, f"{viewer}'s report must show {owner}'s change"
            else:
                assert after[viewer] == data, f"{viewer}'s report depends on {owner}'s secrets"


def test_non_interference_of_secrets(game):
    store, _ = game
    check_non_interference(store, "g")


def test_non_interference_with_team_tactics(tmp_path, fixed_date):
    store = new_store(tmp_path)
    names = ["Anna", "Bert", "Cora", "Dora"]
    play_some(store, "t", names, ["teams=on"])
    check_non_interference(store, "t", [["Anna", "Cora"], ["Bert", "Dora"]])


def test_non_interference_while_a_question_waits(tmp_path, fixed_date):
    from .helpers import setup_game

    store = new_store(tmp_path)
    setup_game(store, "w", """
players: Anna, Bert, Cora
first: Anna
turn: Anna
character: Anna = The Marshal I
character: Bert = The Seer II
character: Cora = The Thief I
hand: Anna = Hoard Wyrm, Gold Coin
hand: Bert = Rose Maiden, Golden Damsel, Crown Jewels
hand: Cora = Ember Drake, Pearl Necklace
barracks: Pearl Maiden, Tidal Wave, Frost Drake, Rose Guard, Cutpurse
deck:
""", ["missing=wait"])
    service.submit_orders(store, "w", "Anna", "play Hoard Wyrm at Bert\ndraw\n", "o")
    service.run_turn(store, "w")
    assert KIND.awaited(store.turn("w").state) == ["Bert"]
    check_non_interference(store, "w")
    docs = service.report_documents(store.game("w"), store.turn("w"))
    assert "Golden Damsel" in render_text(docs["Bert"])
    assert "Golden Damsel" not in render_text(docs["Anna"]) + render_text(docs["public"])


def test_views_hold_only_the_viewers_secrets(game):
    store, _ = game
    state = store.turn("g").state
    for name in AWKWARD:
        v = KIND.view(state, name)
        assert "hands" not in v and "characters" not in v and "standing_all" not in v
        assert [c["name"] for c in v["hand"]] == sorted(
            (CAT.card[c].name for c in state["hands"][name]),
            key=lambda n: CAT.card[CAT.card_by_name[n]].no)
        assert v["character"]["name"] == CAT.character[state["characters"][name]].name
    public = KIND.view(state, "public")
    assert "hand" not in public and "hands" not in public and "character" not in public
    for t in public["table"]:
        assert set(t["character"]) == {"face", "action"}


def test_the_end_reveals_everything(tmp_path, fixed_date):
    from .helpers import setup_game

    store = new_store(tmp_path)
    setup_game(store, "e", """
players: Anna, Bert
first: Anna
turn: Bert
end: deck (Anna)
character: Anna = The Marshal I
character: Bert = The Seer II
hand: Anna = Hoard Wyrm, Gold Coin
hand: Bert = Rose Maiden
barracks:
deck:
rest: discard
""")
    service.submit_orders(store, "e", "Bert", "discard none\ndiscard none\n", "o")
    service.run_turn(store, "e")
    docs = service.report_documents(store.game("e"), store.turn("e"))
    text = render_text(docs["Bert"])
    assert "Hoard Wyrm" in text and "The Marshal I" in text and "Result" in text
    assert "3 points for each set in your Castle" in render_text(docs["public"])


def test_every_font_is_embedded_and_pages_are_a4(game):
    _, out = game
    for path in sorted((out / "g").glob("turn-*/*.pdf"))[:6]:
        reader = PdfReader(path)
        assert reader.metadata.title
        for page in reader.pages:
            assert [round(float(x), 2) for x in page.mediabox[2:]] == [595.28, 841.89]
            for ref in page["/Resources"]["/Font"].values():
                font = ref.get_object()
                descendants = font.get("/DescendantFonts")
                target = descendants[0].get_object() if descendants else font
                assert "/FontFile2" in target["/FontDescriptor"].get_object()


def test_names_print_exactly_as_typed(game):
    _, out = game
    folder = sorted((out / "g").glob("turn-*"))[-1]
    text = pdf_text(folder / "public.pdf").replace("\r", "")
    for name in AWKWARD:
        assert name in text, name
        assert name in (folder / "public.txt").read_text()
    assert "\ufffd" not in text


def test_same_state_same_bytes(game):
    store, out = game
    g = store.game("g")
    turn = store.turn("g")
    folder = out / "g" / f"turn-{turn.number:03d}"
    for viewer, doc in service.report_documents(g, turn).items():
        name = "public" if viewer == "public" else g.player(viewer).slug
        assert render_pdf(doc) == (folder / f"{name}.pdf").read_bytes()
        assert render_text(doc) == (folder / f"{name}.txt").read_text()


def test_reports_pass_qpdf_check(game):
    import pikepdf

    _, out = game
    folder = sorted((out / "g").glob("turn-*"))[-1]
    for path in sorted(folder.glob("*.pdf")):
        job = pikepdf.Job(["qpdf", "--check", str(path)])
        job.run()
        assert job.exit_code == 0 and not job.has_warnings, path.name


def test_a_players_report_has_every_part_the_issue_asks_for(game):
    store, _ = game
    g = store.game("g")
    turn = store.turn("g")
    state = turn.state
    current = state["current"]
    doc = service.report_documents(g, turn)[current]
    titles = [s["title"] for s in doc["sections"]]
    for wanted in ("What happened", "Your hand and character", "The Kingdom: deck, Barracks, "
                   "discard pile", "The players' zones", "What is asked of you", "Order form"):
        assert wanted in titles, titles
    text = render_text(doc)
    assert "Concealed side (only you)" in text and "Barracks" in text and "discard" in text
    assert "points in play" in text and "draw\n" in text


def test_result_lists_three_winners_in_words_also_for_an_older_game(tmp_path, fixed_date):
    """The report's result line (not tied to an edition): 'Winners: Anna, Bert and Cora'; the
    end-of-game event keeps an edition 1 game's 'Anna and Bert and Cora' (casebook 81, 82)."""
    from .helpers import setup_game

    position = """players: Anna, Bert, Cora
first: Anna
turn: Cora
end: deck (Anna)
character: Anna = The Thief III
character: Bert = The Warlord III
character: Cora = The Marshal I
hand: Anna = Ember Drake, Red Squire
hand: Bert = Cinder Whelp, Ember Lancer
hand: Cora = Rose Maiden, Scarlet Heiress
barracks:
rest: discard
deck:
"""
    store = new_store(tmp_path)
    KIND.edition = 1
    try:
        setup_game(store, "g", position)
    finally:
        vars(KIND).pop("edition", None)
    service.submit_orders(store, "g", "Cora", "discard none\ndiscard none\n", "c.txt")
    service.run_turn(store, "g")
    turn = store.turn("g")
    text = " ".join(render_text(service.report_documents(store.game("g"), turn)["Anna"]).split())
    assert "Winners: Anna, Bert and Cora (tied on 2 and on every tie-breaker" in text, text
    assert "The game is over. Winners: Anna and Bert and Cora" in text


def test_the_result_shows_each_total_next_to_the_name(tmp_path, fixed_date):
    """The final scores: the total is the column after the player, so a phone shows who has
    how many points without scrolling the table sideways (its parts come after); and what
    is asked is nothing, without the standing orders that no longer apply."""
    from .helpers import setup_game

    position = """players: Anna, Bert
first: Anna
turn: Bert
end: deck (Anna)
character: Anna = The Thief III
character: Bert = The Warlord III
hand: Anna = Ember Drake, Red Squire
hand: Bert = Cinder Whelp
barracks:
rest: discard
deck:
"""
    store = new_store(tmp_path)
    setup_game(store, "g", position)
    service.submit_orders(store, "g", "Bert", "discard none\ndiscard none\n", "b.txt")
    service.run_turn(store, "g")
    turn = store.turn("g")
    doc = service.report_documents(store.game("g"), turn)["Anna"]
    result = next(s for s in doc["sections"] if s["title"] == "Result")
    table = next(b for b in result["blocks"] if b["type"] == "table")
    assert table["columns"][:3] == ["Player", "Total", "Points in play"]
    asked = next(s for s in doc["sections"] if s["title"] == "What is asked of you")
    said = [b["text"] for b in asked["blocks"]]     # the game is over: no standing orders
    assert said == ["Nothing: the game is over."], said
    for row in table["rows"]:
        parts = [int(x) for x in row[2:6]]
        assert int(row[1]) == sum(parts), row
