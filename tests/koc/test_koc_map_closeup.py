"""The close-up of the map around a player's own knight (companion/koc/mapfigure.py,
``closeup_data``): a second figure block of his report, in the section "Around you" before the
whole map, built from the whole map's data of his own view; none in the public report
(docs/koc-engine.md, "Reports")."""
from __future__ import annotations

import copy
import xml.etree.ElementTree as ET

import pytest

from companion.engine.chance import Chance, seed_key
from companion.engine.game import MODERATOR, PUBLIC
from companion.koc import mapfigure
from companion.koc.kind import KIND
from tests.koc.kocplay import OPTIONS, play_states
from tests.koc.test_koc_map_figure import ENVELOPE, SVG, document, with_secrets_of

CLOSEUP = "companion.koc.mapfigure:closeup_flowable"


@pytest.fixture(scope="module")
def states():
    """States of a random five-knight game (after creation and after each of 6 game turns)."""
    return list(play_states(11, 5, 6))


def closeups(doc: dict) -> list[tuple[int, str, dict]]:
    """(section index, section title, block) of every close-up figure of a document."""
    return [(i, sec["title"], b) for i, sec in enumerate(doc["sections"])
            for b in sec["blocks"] if b["type"] == "figure" and b["figure"] == CLOSEUP]


def closeup_of(state: dict, viewer: str) -> dict:
    [(_, _, block)] = closeups(document(state, viewer))
    return block["data"]


def placed_at(state: dict, player: str, area: str) -> dict:
    """The state with ``player``'s knight moved to ``area`` (aboard a ship on a sea)."""
    changed = copy.deepcopy(state)
    where = "ship" if KIND.world.areas[area].kind == "sea" else "area"
    changed["knights"][player]["at"] = {"area": area, "where": where}
    return changed


def box_of(area: dict) -> list[float]:
    return [area["x"] - area["w"] / 2, area["y"] - area["h"] / 2,
            area["x"] + area["w"] / 2, area["y"] + area["h"] / 2]


def inside(box, window, slack: float = 0.01) -> bool:
    return (box[0] >= window[0] - slack and box[1] >= window[1] - slack
            and box[2] <= window[2] + slack and box[3] <= window[3] + slack)


def apart(a, b) -> bool:
    return a[2] <= b[0] or b[2] <= a[0] or a[3] <= b[1] or b[3] <= a[1]


def test_a_players_report_shows_the_closeup_before_the_whole_map(states):
    state = states[-1]
    for player in state["koc"]["order"]:
        doc = document(state, player)
        found = closeups(doc)
        assert [title for _, title, _ in found] == ["Around you"], player
        the_map = [i for i, sec in enumerate(doc["sections"]) if sec["title"] == "The map"]
        assert found[0][0] < the_map[0]
        block = found[0][2]
        assert block["text"].startswith("Close-up of the map around ")


@pytest.mark.parametrize("viewer", [PUBLIC, MODERATOR])
def test_the_public_and_the_moderators_reports_keep_only_the_whole_map(states, viewer):
    doc = document(states[-1], viewer)
    assert closeups(doc) == []
    figures = [b["figure"] for sec in doc["sections"] for b in sec["blocks"]
               if b["type"] == "figure"]
    assert figures == ["companion.koc.mapfigure:map_flowable"]


def test_a_knight_away_at_a_foreign_war_gets_no_closeup(states):
    state = copy.deepcopy(states[-1])
    player = state["koc"]["order"][0]
    state["knights"][player]["at"] = {"area": "Kent", "where": "war"}
    assert closeups(document(state, player)) == []


def test_the_closeup_holds_his_area_and_names_every_area_next_to_it(states):
    """His area (with his counter) lies in the window, clear of the edge labels; each area he
    can reach next is drawn in the window or labelled at its edge (or, when an edge has no
    room left, named in the key): the "Around you" table's areas, every one accounted for."""
    for state in (states[0], states[-1]):
        for player in state["koc"]["order"]:
            view = KIND.view(state, player)
            data = closeup_of(state, player)
            check_closeup(data, view, player)


def check_closeup(data: dict, view: dict, player: str) -> None:
    window = data["window"]
    assert window[2] - window[0] == pytest.approx(mapfigure.CLOSE_W)
    assert window[3] - window[1] == pytest.approx(mapfigure.CLOSE_H)
    size = data["size"]
    assert 0 <= window[0] and window[2] <= size[0] + 0.01
    assert 0 <= window[1] and window[3] <= size[1] + 0.01
    mine = [c for c in data["counters"] if c["mine"]]
    assert [c["player"] for c in mine] == [player]
    home = data["home"]
    assert mine[0]["area"] == home and home in mine[0]["place"]
    areas = {a["name"]: a for a in data["areas"]}
    tokens = mapfigure._tokens(data)
    [token] = [t for t in tokens if t["mine"]]
    assert inside([token["cx"] - mapfigure.RADIUS, token["cy"] - mapfigure.RADIUS,
                   token["cx"] + mapfigure.RADIUS, token["cy"] + mapfigure.RADIUS], window)
    home_box = None
    if home in areas:
        home_box = box_of(areas[home])
        assert inside(home_box, window)
    near = sorted({a for way in view["neighbours"].values() for a in way} - {home})
    on_map = [n for n in near if n in set(data["reach"])]
    marked = [m["name"] for m in data["marks"]]
    assert sorted(data["inside"] + marked + data["left_out"]) == on_map
    for name in data["inside"]:
        if name in areas:
            assert inside(box_of(areas[name]), window), name
    boxes = []
    for mark in data["marks"]:
        assert inside(mark["box"], window), mark
        assert mark["text"].startswith(mark["name"])
        gap = {"left": mark["box"][0] - window[0], "right": window[2] - mark["box"][2],
               "bottom": mark["box"][1] - window[1], "top": window[3] - mark["box"][3]}
        assert gap[mark["side"]] == pytest.approx(mapfigure.EDGE, abs=0.06), mark
        if home_box is not None:
            assert apart(mark["box"], home_box), (home, mark)
        boxes.append(mark["box"])
    for k, a in enumerate(boxes):
        for b in boxes[k + 1:]:
            assert apart(a, b), (a, b)
    text = mapfigure.closeup_text(data)
    assert f"around {home}," in text
    for name in near:
        if name in on_map:
            assert name in text


def test_every_area_of_the_map_gets_a_closeup_holding_it():
    """A knight in each area of the map in turn (aboard a ship on a sea): the close-up's
    promises hold everywhere, the crowded areas (Mercia, the seas) too."""
    state = KIND.create(["Anna", "Bert", "Cora"], OPTIONS, Chance(seed_key("7"), 0))
    state["events"] = []
    for area in sorted(KIND.world.areas):
        changed = placed_at(state, "Anna", area)
        view = KIND.view(changed, "Anna")
        data = mapfigure.closeup_data(mapfigure.map_data(KIND.world, view))
        assert data is not None, area
        check_closeup(data, view, "Anna")


def test_the_closeup_is_centred_on_his_area_where_nothing_pulls_it_aside():
    """With nothing next to it left out, the window stands on his area as near its middle as
    the poster's edges allow."""
    state = KIND.create(["Anna", "Bert"], OPTIONS, Chance(seed_key("7"), 0))
    data = mapfigure.closeup_data(mapfigure.map_data(
        KIND.world, KIND.view(placed_at(state, "Anna", "Somerset"), "Anna")))
    x0, y0, x1, y1 = data["window"]
    somerset = next(a for a in data["areas"] if a["name"] == "Somerset")
    assert abs((x0 + x1) / 2 - somerset["x"]) < mapfigure.CLOSE_W / 4
    assert abs((y0 + y1) / 2 - somerset["y"]) < mapfigure.CLOSE_H / 4
    assert data["inside"] and data["marks"]


def test_the_closeup_is_built_from_the_whole_maps_data_of_his_view(states):
    """Nothing but the player's own view: the close-up is the whole map's figure data (his
    view, the public geometry) cut down; another knight's private record changes nothing."""
    state = states[-1]
    order = list(state["koc"]["order"])
    for player in order[:3]:
        doc = document(state, player)
        whole = next(b["data"] for sec in doc["sections"] for b in sec["blocks"]
                     if b["type"] == "figure" and b["figure"].endswith(":map_flowable"))
        [(_, _, block)] = closeups(doc)
        assert block["data"] == mapfigure.closeup_data(whole)
        other = order[(order.index(player) + 1) % len(order)]
        changed = with_secrets_of(state, other)
        [(_, _, again)] = closeups(document(changed, player))
        assert again == block
        assert mapfigure.closeup_svg(again["data"]) == mapfigure.closeup_svg(block["data"])


def test_the_closeup_svg_is_clean_and_names_his_area_at_a_legible_scale(states):
    state = states[-1]
    for player in state["koc"]["order"]:
        data = closeup_of(state, player)
        svg = mapfigure.closeup_svg(data)
        root = ET.fromstring(svg)
        assert root.get("class") == "koc-closeup" and root.get("role") == "img"
        assert "style=" not in svg and "<script" not in svg.lower() and "on" + "load" not in svg
        x, y, w, h = map(float, root.get("viewBox").split())
        assert w == pytest.approx(mapfigure.CLOSE_W)       # the window's width, in poster mm
        texts = [t.text or "" for t in root.iter(f"{SVG}text")]
        home = next((a for a in data["areas"] if a["name"] == data["home"]), None)
        if home is not None:
            assert all(line in texts for line in home["lines"])
            # the smallest name is 7.5 pt on the poster: at 330 CSS px for 96 mm, 9 px or more
            assert home["pt"] * mapfigure.PT_MM * 330 / w >= 9.0
        for mark in data["marks"]:
            assert mark["text"] in texts
        knight = next(c["knight"] for c in data["counters"] if c["mine"])
        assert f"{knight} (you)" in texts                      # the key names his knight


def test_names_are_escaped_in_the_closeup():
    bad = '<b>&"Bo'
    state = KIND.create([bad, "Anna"], OPTIONS, Chance(seed_key("7"), 0))
    state["events"] = []
    data = closeup_of(state, bad)
    svg = mapfigure.closeup_svg(data)
    assert bad not in svg
    assert any(bad in (t.text or "") for t in ET.fromstring(svg).iter(f"{SVG}text"))


def test_the_three_renderings_are_byte_identical_twice(states):
    from companion.render.report_html import render_html
    from companion.render.report_pdf import render_pdf
    from companion.render.report_text import render_text
    from reportlab.lib.units import mm

    state = states[-1]
    player = state["koc"]["order"][1]
    doc = document(state, player)
    doc["timestamp"] = ENVELOPE["date"]
    first = (render_pdf(doc), render_html(doc), render_text(doc))
    mapfigure._recorded.clear()
    mapfigure._svg_parts.clear()
    again = copy.deepcopy(doc)
    assert (render_pdf(again), render_html(again), render_text(again)) == first
    assert first[1].index('class="koc-closeup"') < first[1].index('class="koc-map"')
    text = first[2]
    assert text.index("Close-up of the map around") < text.index("Counters on the map")
    assert all(len(line) <= 76 for line in text.splitlines())
    # in the PDF the close-up is the poster at its own size, the window 96 mm wide
    flowable = mapfigure.closeup_flowable(closeup_of(state, player), 178 * mm)
    width, height = flowable.wrap(178 * mm, 267 * mm)
    assert width == pytest.approx(178 * mm) and height < 180 * mm
