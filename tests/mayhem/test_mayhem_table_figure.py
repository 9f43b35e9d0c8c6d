"""The Medieval Mayhem table as a figure (companion/mayhem/table.py, drawn by
companion/render/cardtable.py): the Kingdom and every player's zones in every report, as SVG on
the web page and as text in the text report; built from the viewer's view alone, so no card of
another player's hand is in it (not a teammate's with Team Tactics either); escaped;
byte-identical."""
from __future__ import annotations

import copy
import re
import xml.etree.ElementTree as ET
from html import escape

import pytest

from companion import service
from companion.mayhem.table import table_data, table_svg, table_text
from companion.render.report_pdf import render_pdf
from companion.render.report_text import render_text
from tests.conftest import shared_game
from tests.web.conftest import links, make_client, password_hash  # noqa: F401 (fixtures)

from .helpers import CAT, KIND, new_store
from .test_reports import AWKWARD, play_some

FIGURE = "companion.mayhem.table:table_flowable"
SVG = "{http://www.w3.org/2000/svg}"


@pytest.fixture(scope="module")
def game(tmp_path_factory):
    """Eight turns of a game of awkward names: played once for the module (the tests using
    it only read it)."""
    def make(folder):
        store = new_store(folder)
        play_some(store, "g", AWKWARD, turns=8, output=folder / "out")
        return store

    store = shared_game(tmp_path_factory, "mayhem-figure", make)
    yield store
    store.close()


@pytest.fixture(autouse=True)
def dated(fixed_date):
    """Every test renders at the fixed date its shared game was played at."""


def figure_of(doc: dict) -> dict:
    blocks = [b for s in doc["sections"] for b in s["blocks"]
              if b["type"] == "figure" and b["figure"] == FIGURE]
    assert len(blocks) == 1, "one table figure per report"
    return blocks[0]


def shown(block: dict) -> tuple[set[str], list[str]]:
    """(card names of the figure's data and text form, tooltips of the cards of its SVG)."""
    data = block["data"]
    names = {c["name"] for a in data["areas"] for g in a["groups"] for c in g["cards"]}
    for line in block["text"].split("\n"):
        if line.startswith("  ") and ": " in line:
            names |= {re.sub(r" \([^()]*\)$", "", item)
                      for item in line.split(": ", 1)[1].split("; ")}
    root = ET.fromstring(table_svg(data))
    titles = [g.find(f"{SVG}title").text for g in root.iter(f"{SVG}g")
              if g.find(f"{SVG}title") is not None]
    return names, titles


def check_no_other_hand(store, game_id: str) -> None:
    state = store.turn(game_id).state
    docs = service.report_documents(store.game(game_id), store.turn(game_id))
    held = {p: [CAT.card[c].name for c in state["hands"][p]] for p in state["players"]}
    assert any(held.values())
    for viewer, doc in docs.items():
        names, titles = shown(figure_of(doc))
        for owner, cards in held.items():
            for card in cards:
                seen = card in names or any(t.startswith(card + " (") for t in titles)
                assert seen == (owner == viewer), (viewer, owner, card)


def test_every_report_has_the_table_figure_built_from_its_view(game):
    state = game.turn("g").state
    docs = service.report_documents(game.game("g"), game.turn("g"))
    assert set(docs) == {"public", *AWKWARD}
    for viewer, doc in docs.items():
        block = figure_of(doc)
        assert block["data"] == table_data(KIND.view(state, viewer))
        assert block["text"] == table_text(block["data"])
        text = render_text(doc)
        assert "The table\n---------\nThe Kingdom\n" in text
        assert f"Draw deck: {len(state['deck'])} cards" in block["text"]
        barracks = "; ".join(CAT.card[c].name for c in state["barracks"])
        assert re.sub(r" \([^()]*\)", "", block["text"].split("Barracks (5): ")[1]
                      .split("\n")[0]) == barracks
        for p in AWKWARD:
            character = CAT.character[state["characters"][p]]
            assert f"Character: {character.face} (face up)" in block["text"]
            assert f"Hand: {len(state['hands'][p])} card" in block["text"]
            assert character.version not in [c["sub"] for a in block["data"]["areas"]
                                             for g in a["groups"] for c in g["cards"]
                                             if c.get("sub")]
        for p, area in zip(AWKWARD, block["data"]["areas"][1:]):
            assert area["title"].startswith(p)
            territory = next(g for g in area["groups"] if g["label"].startswith("Territory"))
            assert [c["name"] for c in territory["cards"]] == [CAT.card[c].name
                                                               for c in state["play"][p]]
        highlighted = [a["title"] for a in block["data"]["areas"] if a["style"] == "you"]
        private = [a for a in block["data"]["areas"] if a["style"] == "private"]
        if viewer == "public":
            assert highlighted == [] and private == []
        else:
            assert len(highlighted) == 1 and highlighted[0].startswith(viewer + " (you")
            hand = [CAT.card[c].name for c in sorted(state["hands"][viewer],
                                                     key=lambda c: CAT.order[c])]
            assert [c["name"] for c in private[0]["groups"][0]["cards"]] == hand


def test_no_card_of_another_hand_is_in_a_figure(game):
    check_no_other_hand(game, "g")


def test_not_even_a_teammates_hand_with_team_tactics(tmp_path, fixed_date):
    store = new_store(tmp_path)
    play_some(store, "t", AWKWARD, ["teams=on"], turns=4)
    state = store.turn("t").state
    assert state["rules"]["teams"]
    view = KIND.view(state, AWKWARD[0])
    assert any(view["team_hands"].values())         # the view has the teammate's hand ...
    check_no_other_hand(store, "t")                 # ... the figure does not show it
    data = table_data(view)
    assert any(" - team " in a["title"] for a in data["areas"])
    store.close()


def test_the_svg_is_xml_escaped_and_fit_for_the_web_view(game):
    view = copy.deepcopy(KIND.view(game.turn("g").state, AWKWARD[2]))
    view["barracks"][0]["name"] = '<b>Drake & "Co"</b>'
    svg = table_svg(table_data(view))
    root = ET.fromstring(svg)
    assert root.tag == f"{SVG}svg" and root.get("role") == "img"
    assert root.get("aria-label") == f"The table, as {AWKWARD[2]} sees it"
    assert re.fullmatch(r"0 0 300 \d+(\.\d)?", root.get("viewBox"))
    assert "<b>" not in svg
    assert "&lt;b&gt;Drake &amp; &quot;Co&quot;&lt;/b&gt;" in svg
    assert "&lt;b&gt;Bo &amp; &quot;Jo&quot;&lt;/b&gt;" in svg
    texts = "".join(t.text or "" for t in root.iter(f"{SVG}text"))
    assert AWKWARD[0] in texts and AWKWARD[3] in texts
    for element in root.iter():
        assert "style" not in element.attrib, element.tag
        assert not element.tag.endswith("script")
        assert not any(k.startswith("on") for k in element.attrib)


def test_the_pdf_renders_the_figure_the_same_bytes_twice(game):
    import pypdfium2 as pdfium

    docs = service.report_documents(game.game("g"), game.turn("g"))
    for viewer, doc in docs.items():
        first = render_pdf(doc)
        assert first.startswith(b"%PDF") and first == render_pdf(copy.deepcopy(doc))
    pdf = pdfium.PdfDocument(render_pdf(docs[AWKWARD[1]]))
    text = "\n".join(pdf[i].get_textpage().get_text_range() for i in range(len(pdf)))
    for needle in ("The Kingdom", "Barracks (5)", "Territory (", "Your hand (private: only you "
                   "see it)", AWKWARD[1] + " (you"):
        assert needle in text, needle


def test_the_web_page_draws_the_table_as_svg(game, make_client):
    client = make_client(game.path)
    state = game.turn("g").state
    for viewer, path in links(game, "g").items():
        page = client.get(path)
        assert page.status_code == 200, viewer
        assert 'class="card-table mayhem-table"' in page.text
        assert "style=" not in page.text and "<script" not in page.text
        for owner in AWKWARD:
            if owner != viewer:
                for c in state["hands"][owner]:
                    assert f"<title>{escape(CAT.card[c].name)} (" not in page.text


def test_castle_sets_characters_and_defense_captions(game):
    """Each set of a Castle is its own group, named by what its cards share; a character not
    chosen yet and an empty zone show as a dashed outline; a Defense card names its kind."""
    view = copy.deepcopy(KIND.view(game.turn("g").state, AWKWARD[0]))
    cards = [c for c in (view["barracks"] + view["hand"])][:3]
    view["table"][1]["sets"] = [{"cards": cards, "aspects": ["colour"]}]
    view["table"][2]["character"] = None
    defense = next(c for c in (CAT.card[i] for i in sorted(CAT.card)) if c.kind)
    from companion.mayhem.views import card_view

    view["hand"].append(card_view(CAT, defense.id))
    data = table_data(view)
    text = table_text(data)
    assert "Castle set 1/3: same colour: " + "; ".join(
        f"{c['name']} ({c['type']} {c['number']})" if not c.get("kind") else
        f"{c['name']} (Def. {c['kind']} {c['number']})" for c in cards) in text
    assert "Character: not chosen yet" in text
    assert f"{defense.name} (Def. {defense.kind} {defense.number})" in text
    svg = table_svg(data)
    ET.fromstring(svg)
    assert ">not chosen<" in svg and 'stroke-dasharray="3 2"' in svg     # in two lines
