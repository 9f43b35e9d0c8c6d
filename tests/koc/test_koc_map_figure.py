"""The Knights of Camelot map in every report (companion/koc/mapfigure.py): the figure block of
the report document, its SVG for the web view, its PDF drawing and its text, each built from the
viewer's view only (docs/koc-engine.md, "Reports")."""
from __future__ import annotations

import copy
import xml.etree.ElementTree as ET
from html import escape

import pytest

from companion.engine.chance import Chance, seed_key
from companion.engine.game import PUBLIC
from companion.koc import mapfigure
from companion.koc.kind import KIND
from companion.koc.views import place
from tests.koc.kocplay import play_states

SVG = "{http://www.w3.org/2000/svg}"
OPTIONS = {"missing": "default", "scenario": "basic", "first-player": "fixed", "rules": ()}
ENVELOPE = {"game_id": "g1", "turn": 4, "date": "2027-01-01 00:00 UTC",
            "link": "companion://g1/4/x", "link_label": "your private link"}


@pytest.fixture(scope="module")
def states():
    """States of a random five-knight game (after creation and after each of 8 game turns)."""
    return list(play_states(11, 5, 8))


def document(state: dict, viewer: str) -> dict:
    view = KIND.view(state, viewer)
    view["envelope"] = dict(ENVELOPE)
    return KIND.report(view)


def figure_of(doc: dict) -> dict:
    blocks = [b for sec in doc["sections"] if sec["title"] == "The map" for b in sec["blocks"]
              if b["type"] == "figure"]
    assert len(blocks) == 1
    return blocks[0]


def svg_of(state: dict, viewer: str) -> str:
    return mapfigure.map_svg(figure_of(document(state, viewer))["data"])


def titles(svg: str) -> list[str]:
    return [t.text or "" for t in ET.fromstring(svg).iter(f"{SVG}title")]


def test_every_report_has_the_map_figure_from_its_view(states):
    state = states[-1]
    for viewer in [PUBLIC] + list(state["koc"]["order"]):
        view = KIND.view(state, viewer)
        block = figure_of(document(state, viewer))
        assert block["figure"] == "companion.koc.mapfigure:map_flowable"
        data = block["data"]
        assert [c["knight"] for c in data["counters"]] == [c["knight"] for c in view["counters"]]
        assert [c["place"] for c in data["counters"]] == [c["place"] for c in view["counters"]]
        assert data["merlin"] == view["merlin"]
        assert [c["mine"] for c in data["counters"]] == [c["player"] == viewer
                                                          for c in view["counters"]]
        for c in data["counters"]:
            if c["area"] is not None:
                assert c["area"] in KIND.world.areas
        assert "Counters on the map" in block["text"]
        for c in view["counters"]:
            assert c["knight"] in block["text"]


def test_the_geometry_is_the_posters_every_area_and_link():
    from companion.koc.poster import poster_layout

    layout = poster_layout(KIND.world)
    geo = mapfigure.geometry(KIND.world)
    assert [a["name"] for a in geo["areas"]] == list(layout.nodes)
    assert [s["name"] for s in geo["seas"]] == list(layout.bands)
    assert sum(len(v) for v in geo["links"].values()) == len(layout.links)
    assert mapfigure.geometry(KIND.world) is geo             # built once per process


@pytest.mark.parametrize("at, area, where", [
    ({"area": "Somerset", "where": "area"}, "Somerset", "area"),
    ({"area": "Tara", "where": "inside"}, "Tara", "inside"),
    ({"area": "Edinburgh", "where": "gate"}, "Edinburgh", "gate"),
    ({"area": "Edinburgh", "where": "prison"}, "Edinburgh", "prison"),
    ({"area": "Dublin", "where": "ship"}, "Dublin", "ship"),
    ({"area": "Ireland", "where": "coast"}, "Ireland", "coast"),
    ({"area": "Gwynedd", "where": "inside", "castle": "castle of adventure D-1"},
     "Gwynedd", "inside"),
    ({"area": "Gwynedd", "where": "inside", "castle": "Castle (Gwynedd) of <b>"},
     "Gwynedd", "inside"),
    ({"area": "Kent", "where": "war"}, None, "war"),
])
def test_a_counter_is_placed_in_the_area_its_place_names(at, area, where):
    names = set(KIND.world.areas)
    assert mapfigure.locate(place(at), names) == (area, where)


def test_every_kind_of_place_is_read_back():
    from companion.koc.views import PLACES

    tested = {"area", "inside", "gate", "prison", "ship", "coast", "war"}
    assert set(PLACES) == tested, "a new kind of place: teach mapfigure.locate and test it"


def test_the_svg_parses_and_shows_every_counter_the_view_holds(states):
    state = states[-1]
    for viewer in [PUBLIC] + list(state["koc"]["order"]):
        view = KIND.view(state, viewer)
        svg = svg_of(state, viewer)
        root = ET.fromstring(svg)                       # well-formed XML
        assert root.tag == f"{SVG}svg"
        assert root.get("role") == "img" and root.get("aria-label")
        assert root.get("viewBox", "").startswith("0 0 ")
        assert "style=" not in svg and "<script" not in svg.lower() and "on" + "load" not in svg
        said = titles(svg)
        for c in view["counters"]:
            mine = [t for t in said if c["knight"] in t and c["place"] in t]
            assert mine, (viewer, c)
        if view["merlin"]:
            assert "the Merlin/Morgan counter" in said
        texts = [t.text or "" for t in root.iter(f"{SVG}text")]
        for area in KIND.world.areas.values():
            if area.kind != "sea":
                assert any(area.name.startswith(t) or t in area.name for t in texts if t), \
                    area.name


def test_names_are_escaped_in_the_svg_and_the_text():
    bad = '<b>&"Bo'
    state = KIND.create([bad, "Anna"], OPTIONS, Chance(seed_key("7"), 0))
    state["events"] = []
    for viewer in (bad, "Anna", PUBLIC):
        block = figure_of(document(state, viewer))
        svg = mapfigure.map_svg(block["data"])
        assert bad not in svg and escape(bad) in svg
        assert any(bad in t for t in titles(svg))          # read back whole by an XML parser
        assert bad in block["text"]


def test_only_the_viewers_own_counter_is_ringed_and_only_his_next_steps_outlined(states):
    state = states[-1]
    public = svg_of(state, PUBLIC)
    assert mapfigure.GOLD not in public and mapfigure.REACH not in public
    assert "your knight" not in public
    for player in state["koc"]["order"]:
        view = KIND.view(state, player)
        data = figure_of(document(state, player))["data"]
        assert [c["player"] for c in data["counters"] if c["mine"]] == [player]
        reach = sorted({a for way in view["neighbours"].values() for a in way})
        assert data["reach"] == [a for a in reach if a in set(data["reach"])]
        assert set(data["reach"]) <= set(reach)
        svg = mapfigure.map_svg(data)
        assert svg.count(f'fill="{mapfigure.GOLD}"') == 2      # his counter and the legend's


def test_another_knights_private_record_never_changes_a_players_svg(states):
    """Non-interference: what another knight holds privately (journal, pending question,
    private events, standing answers) leaves a player's map and the public map unchanged."""
    state = states[-1]
    order = list(state["koc"]["order"])
    for player in order[:3]:
        other = order[(order.index(player) + 1) % len(order)]
        before = {v: svg_of(state, v) for v in (player, PUBLIC)}
        text_before = figure_of(document(state, player))["text"]
        changed = with_secrets_of(state, other)
        for viewer in (player, PUBLIC):
            assert svg_of(changed, viewer) == before[viewer], (player, other, viewer)
        assert figure_of(document(changed, player))["text"] == text_before


def with_secrets_of(state: dict, other: str) -> dict:
    """A copy of ``state`` in which another knight's private record differs: his journal
    (CP, VP, an item), his standing answers, a pending question and a private event."""
    changed = copy.deepcopy(state)
    rec = changed["knights"][other]
    rec["cp"] += 17
    rec["vp"] += 3
    rec["items"] = list(rec["items"]) + [{"key": "secret_sword_of_" + other}]
    rec["standing"] = [{"text": "on duel: yes"}]
    changed["pending"][other] = {"question": {"key": "duel", "prompt": "secret?",
                                              "options": ["yes", "no"], "default": "no"},
                                 "events": ["a secret happening"]}
    changed["events"] = list(changed["events"]) + [
        {"to": other, "text": "a private event only " + other + " saw"}]
    return changed


def test_the_pdf_renders_the_same_bytes_twice(states):
    from companion.render.report_pdf import render_pdf

    state = states[-1]
    player = state["koc"]["order"][0]
    doc = document(state, player)
    doc["timestamp"] = ENVELOPE["date"]
    mapfigure._recorded.clear()            # drawn afresh, then from the recorded operators
    first = render_pdf(doc)
    assert mapfigure._recorded
    assert first.startswith(b"%PDF") and render_pdf(copy.deepcopy(doc)) == first
    svg = mapfigure.map_svg(figure_of(doc)["data"])
    mapfigure._svg_parts.clear()
    assert mapfigure.map_svg(figure_of(doc)["data"]) == svg
    # the figure alone, drawn on its own canvas: the whole map fits a page below a heading
    from reportlab.lib.units import mm

    flowable = mapfigure.map_flowable(figure_of(doc)["data"], 178 * mm)
    width, height = flowable.wrap(178 * mm, 267 * mm)
    assert width == pytest.approx(178 * mm) and height <= mapfigure.MAX_HEIGHT_MM * mm + 0.01


def test_the_text_report_shows_the_map_text(states):
    from companion.render.report_text import render_text

    state = states[-1]
    player = state["koc"]["order"][1]
    text = render_text(document(state, player))
    assert "Counters on the map, area by area" in text
    assert "(you)" in text
    assert all(len(line) <= 76 for line in text.splitlines())


def test_the_web_page_of_a_koc_game_draws_the_map(tmp_path, monkeypatch):
    """As tests/web/test_web_pages.py fetches pages: Starlette's TestClient, in process."""
    from starlette.testclient import TestClient

    from companion import service
    from companion.store import Store
    from companion.web.app import create_app
    from companion.web.config import WebConfig
    from tests.web.conftest import EPOCH, links

    monkeypatch.setenv("SOURCE_DATE_EPOCH", EPOCH)
    store = Store(tmp_path / "s.sqlite3", create=True)
    try:
        service.new_game(store, "koc", "k", ["Anna", "Bert"], seed="3", output=tmp_path / "out")
        client = TestClient(create_app(store.path, None, WebConfig()), follow_redirects=False)
        paths = links(store, "k")
        anna = client.get(paths["Anna"])
        assert anna.status_code == 200
        assert "<svg" in anna.text and 'class="koc-map"' in anna.text
        assert "your knight Anna is ringed in gold" in anna.text
        public = client.get(paths["public"]).text
        assert 'class="koc-map"' in public and "ringed in gold" not in public
        assert mapfigure.REACH not in public
        client.close()
    finally:
        store.close()


def test_show_reads_the_map_without_reportlab_once_cached(cli, tmp_path):
    """The map's geometry is measured with reportlab once, then read from the cache: the text
    report of ``companion show`` stays a quick command."""
    from tests.test_cli_startup import modules_after

    cli.env["COMPANION_CACHE_DIR"] = str(tmp_path / "cache")
    cli.ok("new", "koc", "k1", "--player", "Anna", "--player", "Bert", "--seed", "1")
    modules_after(cli, "show", "k1", "--player", "Anna")
    loaded = modules_after(cli, "show", "k1", "--player", "Anna")
    assert "companion.koc.mapfigure" in loaded and "companion.koc.poster" not in loaded
    assert not {m for m in loaded if m.split(".")[0] == "reportlab"}
    assert "Counters on the map" in cli.ok("show", "k1", "--player", "Anna").out


def test_the_cached_geometry_is_the_built_one(tmp_path, monkeypatch):
    from companion.koc.world import default_world

    monkeypatch.setenv("COMPANION_CACHE_DIR", str(tmp_path / "cache"))
    world = default_world()
    built = mapfigure._build_geometry(world)
    first = mapfigure._cached_geometry(world)            # builds and writes the file
    assert list((tmp_path / "cache").glob("koc-map-*.cache"))
    again = mapfigure._cached_geometry(world)            # reads it
    assert first == built and again == built and again is not built


def test_the_geometry_cache_key_covers_every_module_that_builds_it():
    """Every module of the package imported while the geometry is built is among the sources
    of its cache key (as tests/test_cache.py checks for the world)."""
    import os
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    program = ("import sys\n"
               "from companion.koc.world import default_world\n"
               "from companion.koc.mapfigure import _build_geometry\n"
               "_build_geometry(default_world())\n"
               "print('\\n'.join(m.__file__ for n, m in sorted(sys.modules.items())\n"
               "                 if n.split('.')[0] == 'companion'\n"
               "                 and getattr(m, '__file__', None)))\n")
    out = subprocess.run([sys.executable, "-c", program], cwd=root, capture_output=True,
                         text=True, check=True,
                         env=dict(os.environ, COMPANION_CACHE_DIR="off")).stdout
    loaded = {Path(line).resolve() for line in out.split()}
    covered = {Path(p).resolve() for p in mapfigure.code()}
    packages = {(root / "companion" / sub / "__init__.py").resolve()
                for sub in ("", "engine", "koc", "koc/engine")}
    assert loaded - packages - covered == set()


def test_a_prisoners_report_says_what_he_may_order_and_outlines_nowhere(states):
    """Found reading random games: a knight in prison had no 'What you can order now' section
    (no legal lines) and the map outlined the areas next to his prison as where he could go.
    His report says he stays and makes one appeal a turn (the standing answer that chooses
    it), and outlines no area."""
    state = copy.deepcopy(states[-1])
    viewer = state["koc"]["order"][0]
    rec = state["knights"][viewer]
    state["pending"].pop(viewer, None)
    rec["at"] = {"area": "Sharpenose Wood", "where": "prison",
                 "castle": "the castle in Sharpenose Wood"}
    doc = document(state, viewer)
    section = next(sec for sec in doc["sections"] if sec["title"] == "What you can order now")
    text = " ".join(str(b) for b in section["blocks"])
    assert "in prison at the castle in Sharpenose Wood" in text and "prison_appeal" in text
    # and the one line his turn needs when the game waits for his orders (test_i15)
    assert "'lines': ['stay']" in text and "'stay' is all there is to send" in text
    assert figure_of(doc)["data"]["reach"] == []
    assert "Outlined: where" not in figure_of(doc)["text"]
