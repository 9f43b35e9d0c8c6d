"""The Fluxx table as a figure (companion/fluxx/table.py, drawn by companion/render/cardtable.py):
in every report, as SVG on the web page, as text in the text report; built from the viewer's
view alone, so no card of another player's hand is ever in it; escaped; byte-identical."""
from __future__ import annotations

import copy
import re
import xml.etree.ElementTree as ET
from html import escape

import pytest

from companion import service
from companion.fluxx.table import table_data, table_svg, table_text
from companion.registry import get_kind
from companion.render import cardtable
from companion.render.report_html import render_html
from companion.render.report_pdf import render_pdf
from companion.render.report_text import render_text
from companion.store import Store
from tests.fluxx.test_fluxx_reports import AWKWARD, SETUP
from tests.web.conftest import links, make_client, password_hash  # noqa: F401 (fixtures)
from tests.pdftext import pdf_text

KIND = get_kind("fluxx")
FIGURE = "companion.fluxx.table:table_flowable"
SVG = "{http://www.w3.org/2000/svg}"


@pytest.fixture
def game(tmp_path, fixed_date):
    """Bo is paused in the middle of Draw 2 and Use 'em (two cards drawn apart from the hand)."""
    store = Store(tmp_path / "s.sqlite3", create=True)
    setup = tmp_path / "setup.txt"
    setup.write_text(SETUP, encoding="utf-8")
    service.new_game(store, "fluxx", "g", [], seed="5", option_args=["missing=wait"],
                     setup=str(setup), output=tmp_path / "out")
    service.submit_orders(store, "g", AWKWARD[0], "play Draw 2 and Use 'em", "a")
    service.run_turn(store, "g", output=tmp_path / "out")
    yield store
    store.close()


def figure_of(doc: dict) -> dict:
    blocks = [b for s in doc["sections"] for b in s["blocks"]
              if b["type"] == "figure" and b["figure"] == FIGURE]
    assert len(blocks) == 1, "one table figure per report"
    return blocks[0]


def svg_names(svg: str) -> list[str]:
    """The tooltip of every card of an SVG (a card's name starts it)."""
    root = ET.fromstring(svg)
    return [g.find(f"{SVG}title").text for g in root.iter(f"{SVG}g")
            if g.find(f"{SVG}title") is not None]


def text_names(text: str) -> set[str]:
    """The card names of the figure's text form ('  label: A; B (sub); C')."""
    out = set()
    for line in text.split("\n"):
        if line.startswith("  ") and ": " in line:
            for item in line.split(": ", 1)[1].split("; "):
                out.add(re.sub(r" \([^()]*\)$", "", item))
    return out


def data_names(data: dict) -> set[str]:
    return {c["name"] for a in data["areas"] for g in a["groups"] for c in g["cards"]}


def hands(store) -> dict[str, list[str]]:
    """Every card each player holds, hand and cards drawn apart (the secrets of the state)."""
    g = store.turn("g").state["game"]
    out = {p: [KIND.deck.name(c) for c in g["hands"][p]] for p in AWKWARD}
    out[g["active"]] += [KIND.deck.name(c) for frame in g["using"] for c in frame]
    return out


def test_every_report_has_the_table_figure_built_from_its_view(game):
    docs = service.report_documents(game.game("g"), game.turn("g"))
    assert set(docs) == {"public", *AWKWARD}
    state = game.turn("g").state
    for viewer, doc in docs.items():
        block = figure_of(doc)
        assert block["data"] == table_data(KIND.view(state, viewer))
        assert block["text"] == table_text(block["data"])
        assert "The middle of the table" in block["text"]
        assert "Rules in play (2): Basic Rules; Play 2" in block["text"]
        assert "Goal: Flying Creatures" in block["text"]
        assert "Keepers (1): Airborne Cow" in block["text"]
        assert "Creepers (1): Grim Reaper" in block["text"]
        assert "The middle of the table\n  Draw 1, play 2" in render_text(doc)
    mine = figure_of(docs[AWKWARD[0]])
    areas = [a for a in mine["data"]["areas"] if a["style"] == "you"]
    assert len(areas) == 1 and areas[0]["title"].startswith(AWKWARD[0] + " (you")
    assert "Your hand (2): Coconuts (Keeper); Sir Robin (Keeper)" in mine["text"]
    assert "Drawn apart, to be played: Steal a Keeper (Action); Jackpot! (Action)" \
        in mine["text"]
    public = figure_of(docs["public"])
    assert not [a for a in public["data"]["areas"] if a["style"] in ("you", "private")]


def test_no_card_of_another_hand_is_in_a_figure(game):
    docs = service.report_documents(game.game("g"), game.turn("g"))
    held = hands(game)
    for viewer, doc in docs.items():
        block = figure_of(doc)
        svg = table_svg(block["data"])
        names = data_names(block["data"]) | text_names(block["text"])
        titles = svg_names(svg)
        for owner, cards in held.items():
            for card in cards:
                shown = card in names or any(t == card or t.startswith(card + " (")
                                             for t in titles)
                assert shown == (owner == viewer), (viewer, owner, card)


def test_the_svg_is_xml_escaped_and_fit_for_the_web_view(game):
    state = game.turn("g").state
    view = KIND.view(state, AWKWARD[1])
    view = copy.deepcopy(view)
    view["table"][1]["keepers"].append('<b>Cow & "Co"</b>')
    svg = table_svg(table_data(view))
    root = ET.fromstring(svg)                           # well-formed XML
    assert root.tag == f"{SVG}svg" and root.get("role") == "img"
    assert root.get("aria-label") == f"The table, as {AWKWARD[1]} sees it"
    assert re.fullmatch(r"0 0 300 \d+(\.\d)?", root.get("viewBox"))
    assert "<b>" not in svg and "&lt;b&gt;Cow &amp; &quot;Co&quot;&lt;/b&gt;" in svg
    assert "&lt;b&gt;Bo &amp; &quot;Jo&quot;&lt;/b&gt;" in svg           # the player's name
    texts = "".join(t.text or "" for t in root.iter(f"{SVG}text"))
    assert AWKWARD[0] in texts                                          # shown exactly
    for element in root.iter():
        assert "style" not in element.attrib, element.tag
        assert not element.tag.endswith("script")
        assert not any(k.startswith("on") for k in element.attrib)


def test_the_pdf_renders_the_figure_the_same_bytes_twice(game):
    docs = service.report_documents(game.game("g"), game.turn("g"))
    for viewer, doc in docs.items():
        first = render_pdf(doc)
        assert first.startswith(b"%PDF") and first == render_pdf(copy.deepcopy(doc))
        assert table_svg(figure_of(doc)["data"]) == table_svg(copy.deepcopy(
            figure_of(doc)["data"]))
    text = pdf_text(render_pdf(docs[AWKWARD[0]]))
    for needle in ("The middle of the table", "Your hand (private: only you see it)",
                   "Airborne Cow", "88 cards"):
        assert needle in text, needle


def test_the_web_page_draws_the_table_as_svg(game, make_client):
    client = make_client(game.path)
    paths = links(game, "g")
    held = hands(game)
    for viewer, path in paths.items():
        page = client.get(path)
        assert page.status_code == 200, viewer
        assert '<svg xmlns="http://www.w3.org/2000/svg"' in page.text
        assert 'class="card-table fluxx-table"' in page.text
        assert "style=" not in page.text and "<script" not in page.text
        for owner, cards in held.items():
            if owner != viewer:
                for card in cards:
                    assert f"<title>{escape(card)} (" not in page.text, (viewer, card)
    assert "Your hand (private" in client.get(paths[AWKWARD[0]]).text
    assert "Your hand (private" not in client.get(paths["public"]).text
    html = render_html(service.report_documents(game.game("g"), game.turn("g"))["public"])
    assert html.count("<svg") == 1


def test_the_shared_drawing_splits_between_pages_and_shrinks_a_giant_area():
    """A figure longer than a page continues on the next; an area taller than a whole page is
    scaled down to fit it, rather than failing."""
    many = [{"name": f"Card {k}", "sub": "Keeper", "tone": "green"} for k in range(160)]
    data = {"label": "x", "areas": [{"title": f"Seat {k}", "style": "plain", "groups": [
        {"label": "Keepers", "cards": many[:9]}]} for k in range(14)]
        + [{"title": "Giant", "style": "private", "groups": [{"label": "All", "cards": many}]}]}
    doc = {"title": "T", "header": [["Game", "g"]], "qr": None, "footer": "f", "sections": [
        {"title": "Table", "blocks": [
            {"type": "figure", "figure": "companion.render.cardtable:flowable", "data": data,
             "text": cardtable.table_text(data)}]}]}
    pdf = render_pdf(doc)
    text = pdf_text(pdf)
    assert text.count("Seat ") == 14 and "Giant" in text and "Card 159" in text
    assert pdf == render_pdf(doc)
    ET.fromstring(cardtable.svg(data))


def test_empty_groups_and_long_names_stay_inside_their_cards():
    data = {"areas": [{"title": "T" * 300, "notes": ["n " * 200], "groups": [
        {"label": "Nothing", "cards": [], "empty": "no Goal yet"},
        {"label": "Long", "cards": [{"name": "Supercalifragilisticexpialidocious " * 4,
                                     "sub": "a very long caption indeed, far too long",
                                     "tone": "unknown-tone"}]}]}]}
    band = cardtable.layout(data, 300, cardtable.SVG_METRICS)[0]
    for op in band.ops:
        if op[0] == "text":
            assert cardtable.estimate(op[3], op[4], op[5]) <= op[8] + 0.01, op
    svg = cardtable.svg(data)
    ET.fromstring(svg)
    assert "no Goal yet" in svg and "\u2026" in svg
