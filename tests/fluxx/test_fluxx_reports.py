"""Fluxx turn reports: what each shows (hand, table, rules and Goal, piles, events, options, order
form), fonts embedded, names printed exactly, questions only to the player asked, and the hands
of others never shown (views hold only the viewer's secrets)."""
from __future__ import annotations

import pytest
from pypdf import PdfReader

from companion import service
from companion.registry import get_kind
from companion.render.report_pdf import render_pdf
from companion.render.report_text import render_text
from companion.store import Store
from tests.pdftext import pdf_text

KIND = get_kind("fluxx")
AWKWARD = ['<b>Bo & "Jo"</b>', "Jörg Ünal", "Борис Годунов"]
SETUP = """game: fluxx
players: <b>Bo & "Jo"</b>, Jörg Ünal, Борис Годунов
active: <b>Bo & "Jo"</b>
stage: play
turn: 1
turns-done: 0
drawn: 1
played: 0
rules: Play 2
goals: Flying Creatures
hand: <b>Bo & "Jo"</b>: Draw 2 and Use 'em; Coconuts; Sir Robin
hand: Jörg Ünal: The Foot; Nude Organist
hand: Борис Годунов: Trojan Rabbit
table: <b>Bo & "Jo"</b>:
table: Jörg Ünal: Airborne Cow; Grim Reaper
table: Борис Годунов:
deck: Steal a Keeper; Jackpot!; Resting Parrot; Excalibur; The Catapult
discard:
rest: deck
"""


@pytest.fixture
def game(tmp_path, fixed_date):
    store = Store(tmp_path / "s.sqlite3", create=True)
    setup = tmp_path / "setup.txt"
    setup.write_text(SETUP, encoding="utf-8")
    service.new_game(store, "fluxx", "g", [], seed="5", option_args=["missing=wait"],
                     setup=str(setup), output=tmp_path / "out")
    service.submit_orders(store, "g", AWKWARD[0], "play Draw 2 and Use 'em", "a")
    service.run_turn(store, "g", output=tmp_path / "out")
    return store, tmp_path / "out" / "g"


def text_of(folder, name: str) -> str:
    return (folder / f"{name}.txt").read_text(encoding="utf-8")


def test_a_paused_turn_asks_only_the_player_concerned(game):
    store, out = game
    g = store.game("g")
    folder = out / "turn-001"
    bo, jorg = g.players[0].slug, g.players[1].slug
    mine = text_of(folder, bo)
    assert "The game is paused for your answer" in mine
    assert "play Steal a Keeper" in mine and "play Jackpot!" in mine
    assert ("Drawn apart from your hand, waiting to be played: Steal a Keeper and Jackpot!"
            in " ".join(mine.split()))
    assert "Jackpot!." not in mine      # rules edition 4: no full stop after a name's !
    other = text_of(folder, jorg)
    assert "Nothing now: the game waits for" in other
    assert "Steal a Keeper" not in other and "Jackpot!" not in other
    public = text_of(folder, "public")
    assert "paused: waiting for" in public and "Jackpot!" not in public


def test_a_report_shows_everything_a_player_needs(game):
    store, out = game
    service.submit_orders(store, "g", AWKWARD[0], "play Jackpot!\nplay Steal a Keeper taking "
                          "Airborne Cow\nplay Coconuts", "a")
    service.run_turn(store, "g", output=out.parent)
    folder = out / "turn-002"
    g = store.game("g")
    jorg = text_of(folder, g.players[1].slug)
    for needle in ("What happened", "Your hand", "The Foot (Keeper)", "Rules and Goal",
                   "Basic Rules: Draw 1 card", "Play 2: Play 2 cards", "Flying Creatures: You win",
                   "On the table", "Draw pile:", "Discard pile:", "What is asked of you",
                   "It is your turn", "play The Foot", "Order form", "keep <card>",
                   "Airborne Cow", "Grim Reaper"):
        assert needle in jorg, needle
    bo = text_of(folder, g.players[0].slug)
    assert "Nothing now: it is Jörg Ünal's turn" in bo
    assert "The Foot (Keeper)" not in bo and "play The Foot" not in bo


def test_names_print_exactly_and_fonts_are_embedded(game):
    store, out = game
    folder = out / "turn-001"
    compact = pdf_text(folder / "public.pdf").replace("\r", "")
    for name in AWKWARD:
        assert name in compact, name
    for path in folder.glob("*.pdf"):
        for page in PdfReader(path).pages:
            assert [round(float(x), 2) for x in page.mediabox[2:]] == [595.28, 841.89]
            for ref in page["/Resources"]["/Font"].values():
                font = ref.get_object()
                target = font["/DescendantFonts"][0].get_object() if "/DescendantFonts" in font \
                    else font
                assert "/FontFile2" in target["/FontDescriptor"].get_object()


def test_views_hold_only_the_viewers_secrets(game):
    store, _ = game
    state = store.turn("g").state
    assert state["pending"]["snapshot"]["hands"][AWKWARD[1]]
    for name in AWKWARD:
        view = KIND.view(state, name)
        assert "hands" not in view and "question" not in view
        assert [c["name"] for c in view["hand"]] == [KIND.deck.name(c)
                                                     for c in state["game"]["hands"][name]]
        if name != AWKWARD[0]:
            assert "using" not in view and view["asks"]["groups"] == []
    public = KIND.view(state, "public")
    assert "hand" not in public and "using" not in public and "asks" not in public
    moderator = KIND.view(state, "moderator")
    assert set(moderator["hands"]) == set(AWKWARD) and moderator["question"]


def test_same_state_same_bytes(game):
    store, out = game
    g = store.game("g")
    turn = store.turn("g")
    folder = out / f"turn-{turn.number:03d}"
    for viewer, doc in service.report_documents(g, turn).items():
        name = "public" if viewer == "public" else g.player(viewer).slug
        assert render_pdf(doc) == (folder / f"{name}.pdf").read_bytes()
        assert render_text(doc) == (folder / f"{name}.txt").read_text(encoding="utf-8")


def test_the_show_command_gives_views_and_positions(cli):
    cli.ok("new", "fluxx", "g", "--player", "Anna", "--player", "Bert", "--seed", "2",
           "--option", "first=Anna")
    mine = cli.ok("show", "g", "--player", "Anna").out
    assert "Your hand" in mine and "It is your turn" in mine
    pos = cli.ok("show", "g", "--player", "Bert", "--position").out
    assert "hand: Anna: 4 cards" in pos and "deck: 93 cards" in pos


def test_a_player_asked_in_another_players_turn_is_told_only_the_answer_is_his(tmp_path,
                                                                               fixed_date):
    """Bring Out Your Dead! in Anna's turn asks Bert which Keeper he loses: his report asks
    for the answer and says it is Anna's turn (not that he may add plays for his turn)."""
    store = Store(tmp_path / "s.sqlite3", create=True)
    setup = tmp_path / "setup.txt"
    setup.write_text(SETUP.replace('<b>Bo & "Jo"</b>', "Anna").replace("Jörg Ünal", "Bert")
                     .replace("Draw 2 and Use 'em", "Bring Out Your Dead!")
                     .replace("Airborne Cow; Grim Reaper", "Airborne Cow; Excalibur")
                     .replace("Excalibur; The Catapult", "The Catapult"), encoding="utf-8")
    service.new_game(store, "fluxx", "g", [], seed="5",
                     option_args=["missing=wait", "others=wait"],
                     setup=str(setup), output=tmp_path / "out")
    service.submit_orders(store, "g", "Anna", "play Bring Out Your Dead!", "a")
    service.run_turn(store, "g", output=tmp_path / "out")
    bert = " ".join(text_of(tmp_path / "out" / "g" / "turn-001", "bert").split())
    assert "The game is paused for your answer" in bert
    assert "it is Anna's turn, so the answer is all that is asked of you now" in bert
    assert "further plays for the rest of your turn" not in bert


def test_the_stage_names_a_reversed_direction_without_brackets_in_brackets(tmp_path,
                                                                          fixed_date):
    """With Ministry of Silly Walks in play the header's stage reads "...'s turn 1; turns go
    reversed (Ministry of Silly Walks)", not "(turns go reversed (Ministry of Silly Walks))"."""
    store = Store(tmp_path / "s.sqlite3", create=True)
    setup = tmp_path / "setup.txt"
    setup.write_text(SETUP.replace("rules: Play 2", "rules: Play 2; Ministry of Silly Walks"),
                     encoding="utf-8")
    service.new_game(store, "fluxx", "g", [], seed="5", setup=str(setup))
    for doc in service.report_documents(store.game("g"), store.turn("g")).values():
        stage = dict(doc["header"])["Stage"]
        assert stage.endswith("; turns go reversed (Ministry of Silly Walks)"), stage
        assert "))" not in stage
