"""The web view of a Holy Grail CCG game: every viewer's report page draws England and Avalon
as SVG (companion.grailccg.views.england_svg), and a player's page names none of the cards in
the other player's hand that are not face up somewhere."""
from __future__ import annotations

import re

import pytest

from companion import service
from companion.store import Store
from tests.web.conftest import EPOCH, links


@pytest.fixture
def ccg_store(tmp_path, monkeypatch):
    monkeypatch.setenv("SOURCE_DATE_EPOCH", EPOCH)
    store = Store(tmp_path / "s.sqlite3", create=True)
    service.new_game(store, "grailccg", "c", ["Anna", "Bert"], seed="3",
                     option_args=["first=Anna"], output=tmp_path / "out")
    yield store
    store.close()


def test_every_report_page_draws_england_as_svg(ccg_store, make_client):
    client = make_client(ccg_store.path)
    pages = {viewer: client.get(path) for viewer, path in links(ccg_store, "c").items()}
    for viewer, page in pages.items():
        assert page.status_code == 200, viewer
        html = page.text
        assert "<svg" in html and 'class="grailccg-england"' in html, viewer
        assert 'role="img"' in html and "viewBox=" in html
        svg = html[html.index("<svg"):html.index("</svg>")]
        assert "style=" not in svg and "<script" not in svg
    state = ccg_store.turn("c").state
    from companion.grailccg.kind import KIND

    g = state["game"]
    anna = pages["Anna"].text
    svg = anna[anna.index("<svg"):anna.index("</svg>")]
    for inst in g["hands"]["Bert"]:
        name = KIND.cards.get(g["cards"][inst]).name
        assert not re.search(r"(?<!\w)" + re.escape(name) + r"(?!\w)", svg), name
