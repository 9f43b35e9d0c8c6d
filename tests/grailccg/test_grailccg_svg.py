"""The England/Avalon figure as SVG for the web view (``views.england_svg``, the twin of
``england_flowable``): well-formed XML, a viewBox, role and label, every text escaped, no style
attribute or script, built from the viewer's figure data only (nothing of another hand), and
generic over the number of Englands in the data."""
from __future__ import annotations

import copy
import re
import xml.etree.ElementTree as ET

from companion.grailccg import views
from companion.grailccg.kind import KIND
from companion.render.report_html import svg_function

from ccg_play import NAMES, engine_game

SVG = "{http://www.w3.org/2000/svg}"


def _figure(state, viewer):
    """The figure data the report draws for ``viewer`` (built from their view alone)."""
    return views._figure_data(KIND.view(state, viewer))


def _texts(svg: str) -> str:
    root = ET.fromstring(svg)
    return "\n".join(t for el in root.iter() for t in (el.text, el.tail) if t)


def test_the_web_view_finds_the_svg_twin_of_the_flowable():
    assert svg_function(views.FIGURE) is views.england_svg


def test_svg_is_well_formed_scalable_and_labelled():
    state, _ = engine_game(4, max_turns=12)
    svg = views.england_svg(_figure(state, NAMES[0]))
    root = ET.fromstring(svg)
    assert root.tag == SVG + "svg"
    assert re.fullmatch(r"0 0 \d+(\.\d+)? \d+(\.\d+)?", root.get("viewBox"))
    assert root.get("width") is None and root.get("height") is None    # scales on a phone
    assert root.get("role") == "img" and "England" in root.get("aria-label")
    assert "style=" not in svg and "<script" not in svg.lower() and "on" + "load" not in svg
    titles = [t.text for t in root.iter(SVG + "title")]
    for area in ("av1", "1a", "4b", "home"):
        assert any(t.startswith(area + ":") for t in titles), area


def test_every_text_is_escaped():
    state, _ = engine_game(4, max_turns=4)
    data = copy.deepcopy(_figure(state, NAMES[0]))
    nasty = '<b>&"'
    data["boards"][0]["player"] = nasty
    data["boards"][0]["areas"]["1a"] = {"label": nasty, "state": "up", "foes": [nasty],
                                        "here": [nasty], "searched": True}
    data["avalon"]["av1"]["label"] = nasty
    svg = views.england_svg(data)
    ET.fromstring(svg)                      # still well-formed
    assert "<b>" not in svg and "&lt;b&gt;&amp;&quot;" in svg
    assert nasty in _texts(svg)             # and reads back as the name itself


def test_nothing_of_another_players_hand_or_a_face_down_card():
    for seed in (2, 5):
        state, _ = engine_game(seed, max_turns=16)
        g = state["game"]
        for viewer in NAMES:
            data = _figure(state, viewer)
            shown = _texts(views.england_svg(data))
            visible = {c["label"] for b in data["boards"] for c in b["areas"].values()} | \
                {c["label"] for c in data["avalon"].values()} | \
                {f for b in data["boards"] for c in b["areas"].values() for f in c["foes"]} | \
                {f for c in data["avalon"].values() for f in c["foes"]}
            secret = [i for q in NAMES if q != viewer for i in g["hands"][q]]
            secret += [a["card"] for side in g["england"].values() for a in side.values()
                       if a["card"] and not a["up"]]
            secret += [a["card"] for a in g["avalon"].values() if a["card"] and not a["up"]]
            for inst in secret:
                name = KIND.cards.get(g["cards"][inst]).name
                if any(name in v for v in visible):     # also face up (or in a longer name)
                    continue
                assert not re.search(r"(?<!\w)" + re.escape(name) + r"(?!\w)", shown), \
                    f"{name} (hidden from {viewer}) is in the SVG"


def test_generic_over_the_number_of_englands():
    state, _ = engine_game(4, max_turns=2)
    data = _figure(state, NAMES[0])
    for count in (1, 3, 5):
        more = copy.deepcopy(data)
        more["boards"] = [dict(copy.deepcopy(data["boards"][k % 2]), player=f"P{k}")
                          for k in range(count)]
        root = ET.fromstring(views.england_svg(more))
        titles = [t.text for t in root.iter(SVG + "text")]
        assert sum(1 for t in titles if t and t.endswith("cards)")) == count
        height = float(root.get("viewBox").split()[3])
        assert height > 100 * ((count + 1) // 2)


PHONE_COLUMN = 360
"""CSS pixels a figure gets on a 390-pixel phone (the page's margins taken off)."""


def _sizes(root) -> list[tuple[float, str]]:
    return [(float(t.get("font-size")), t.text or "") for t in root.iter(SVG + "text")]


def test_every_label_is_readable_on_a_phone_without_zooming():
    """Laid out in one column about a phone's width: every text (titles, area names, cards,
    foes, 'searched', the Round Table's holder) comes out at 9 CSS pixels or more at the
    width of a phone's column, for two Englands and for six; a long card, foe or player name
    is wrapped or cut to its area, never drawn smaller."""
    state, _ = engine_game(4, max_turns=16)
    data = copy.deepcopy(_figure(state, NAMES[0]))
    long = "Bartholomew" + "x" * 29
    data["boards"][0]["player"] = long
    data["boards"][0]["areas"]["2a"] = {"label": "Knights Who Say Ni of the Castle Aaargh",
                                        "state": "up", "foes": ["Black Knight", long],
                                        "here": [long], "searched": False}
    data["avalon"]["av2"] = {"label": "Bridge of Death", "state": "up", "foes": ["Tim"],
                             "here": [NAMES[1]], "searched": True}
    six = copy.deepcopy(data)
    six["boards"] = [dict(copy.deepcopy(data["boards"][k % 2]), player=f"P{k}")
                     for k in range(6)]
    six["avalon"] = {f"av{k}": {"label": "unexplored", "state": "down", "foes": [],
                                "here": [], "searched": False} for k in range(1, 8)}
    for figure in (data, six):
        svg = views.england_svg(figure)
        assert svg == views.england_svg(copy.deepcopy(figure))          # same data, same bytes
        root = ET.fromstring(svg)
        width = float(root.get("viewBox").split()[2])
        assert 300 <= width <= 400, width
        sizes = _sizes(root)
        small = [(s, t) for s, t in sizes if s * PHONE_COLUMN / width < 9]
        assert sizes and not small, small
        for t in root.iter(SVG + "text"):       # every text within the figure's width
            x, anchor = float(t.get("x")), t.get("text-anchor", "start")
            half = len(t.text or "") * float(t.get("font-size")) * 0.68 / 2
            left, right = {"start": (x, x + 2 * half), "end": (x - 2 * half, x),
                           "middle": (x - half, x + half)}[anchor]
            assert 0 <= left and right <= width, (t.text, left, right)
    texts = [t for _, t in _sizes(ET.fromstring(views.england_svg(data)))]
    assert "searched" in texts and "Bridge of" in texts and "Death" in texts, texts
    assert any(t.startswith("! Black") for t in texts), texts
