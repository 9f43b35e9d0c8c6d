"""The Gral board as SVG for the web view (``render.board_svg``, the twin of
``board_flowable``): readable on a phone without zooming. Every text, the fields' names and the
initiates' codes on their pawns alike, is as large as the others and comes out at 9 CSS pixels
or more in a phone's column; a crowded field keeps every code whole; the same view gives the
same bytes; names and codes are escaped; no style attribute or script."""
from __future__ import annotations

import copy
import re
import xml.etree.ElementTree as ET

from companion.engine.chance import Chance, seed_key
from companion.engine.game import resolve_options
from companion.gral import render
from companion.gral.kind import KIND
from companion.render.report_html import svg_function

SVG = "{http://www.w3.org/2000/svg}"
PHONE_COLUMN = 360
"""CSS pixels a figure gets on a 390-pixel phone (the page's margins taken off)."""


def _board(viewer: str = "Anna") -> dict:
    players = ["Anna", "Bert", "Cora"]
    options = resolve_options(KIND.option_specs, {}, players)
    state = KIND.create(players, options, Chance(seed_key("5"), 0))
    return KIND.view(state, viewer)["board"]


def _texts(root) -> list[tuple[float, str, str]]:
    """(font size, text, fill) of every text of the figure."""
    return [(float(t.get("font-size")), t.text or "", t.get("fill"))
            for t in root.iter(SVG + "text")]


def test_the_web_view_finds_the_svg_twin_of_the_flowable():
    assert svg_function("companion.gral.render:board_flowable") is render.board_svg


def test_every_label_and_pawn_code_is_readable_on_a_phone():
    board = _board()
    crowded = copy.deepcopy(board)               # every initiate on one field, the grail held
    for piece in crowded["pieces"]:
        piece["field"] = "Rome"
    crowded["grail"]["holder"] = crowded["pieces"][0]["initiate"]
    for data in (board, crowded):
        svg = render.board_svg(data)
        assert svg == render.board_svg(copy.deepcopy(data))             # same view, same bytes
        assert "style=" not in svg and "<script" not in svg.lower()
        root = ET.fromstring(svg)
        width = float(root.get("viewBox").split()[2])
        texts = _texts(root)
        codes = [size for size, _, fill in texts if fill == "#ffffff"]
        labels = [size for size, _, fill in texts if fill != "#ffffff"]
        assert len(codes) == sum(1 for p in data["pieces"] if p["field"])
        assert min(codes) >= max(labels), "a pawn's code is smaller than a field's name"
        small = [(size, text) for size, text, _ in texts if size * PHONE_COLUMN / width < 9]
        assert not small, small
        # a code never wider than its pawn: squeezed into it where the font would overflow
        for t in root.iter(SVG + "text"):
            if t.get("textLength"):
                assert t.get("lengthAdjust") == "spacingAndGlyphs"
                assert float(t.get("textLength")) <= 100
    shown = [text for _, text, fill in _texts(ET.fromstring(render.board_svg(crowded)))
             if fill == "#ffffff"]
    assert sorted(shown) == sorted(p["code"] for p in crowded["pieces"])
    # drawn after every pawn, so no pawn of a crowded field covers a code
    svg = render.board_svg(crowded)
    assert svg.rindex("<circle") < re.search(r'<text[^>]*fill="#ffffff"', svg).start()


def test_names_and_codes_are_escaped():
    board = copy.deepcopy(_board())
    nasty = '<b>&"'
    board["fields"][0]["short"] = nasty
    board["pieces"][0]["code"] = nasty
    board["pieces"][0]["field"] = board["fields"][0]["name"]
    svg = render.board_svg(board)
    ET.fromstring(svg)
    assert "<b>" not in svg and "&lt;b&gt;&amp;" in svg
