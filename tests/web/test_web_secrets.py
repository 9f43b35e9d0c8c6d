"""No page or response of the web view tells a player anything of another player's secrets,
for every playable kind, on a game played a few turns (tests/every_kind.py), as the PDF and
text leak tests do (tests/test_reports.py):

* every response (HTML, PDF, headers) of every turn and every viewer is searched for the other
  players' tokens and the texts of their private events;
* non-interference: the HTML rendering of every viewer's report is byte-identical when
  another player's secrets change (and changes when the viewer's own do);
* a player's pages do not change when another player submits orders.
"""
from __future__ import annotations

import copy

import pytest

from companion import service
from companion.render.report_html import render_html
from companion.store import Store
from tests.every_kind import PLAYABLE, play, players_for, scrambled
from tests.web.conftest import EPOCH, ENTROPY, links


@pytest.fixture(scope="module", params=PLAYABLE)
def played(request, tmp_path_factory):
    kind_id = request.param
    folder = tmp_path_factory.mktemp(f"web-secrets-{kind_id}")
    with pytest.MonkeyPatch.context() as env:
        env.setenv("SOURCE_DATE_EPOCH", EPOCH)
        env.setenv("COMPANION_TEST_ENTROPY", ENTROPY)
        store = Store(folder / "s.sqlite3", create=True)
        play(store, kind_id, "g", players_for(kind_id, 3), output=folder / "out")
    yield kind_id, store
    store.close()


def dump(answer) -> str:
    """Everything a response says: status, headers, body (PDF bytes as Latin-1)."""
    body = answer.text if answer.headers.get("content-type", "").startswith("text/") else \
        answer.content.decode("latin-1")
    return "\n".join([str(answer.status_code)] + [f"{k}: {v}" for k, v in
                                                  answer.headers.items()] + [body])


def private_texts(store: Store, owner: str) -> set[str]:
    """Texts of events only ``owner`` was told, over the whole game, that nobody else was told
    in the same words."""
    mine, others = set(), set()
    for turn in store.turns("g"):
        for event in turn.events + turn.state.get("events", []):
            target = mine if event.get("to") == [owner] else others
            target.add(event["text"])
    return {t for t in mine - others if len(t) > 12}


def test_no_response_holds_another_players_secrets(played, make_client):
    kind_id, store = played
    client = make_client(store.path)
    game = store.game("g")
    latest = store.turn("g").number
    seen: dict[str, list[str]] = {v: [] for v in service.viewers(game)}
    for number in range(latest + 1):
        for viewer, path in links(store, "g", number).items():
            answers = [client.get(path)]
            if number == latest:
                answers.append(client.get(path.replace("?h=", "/report.pdf?h=")))
                if viewer != "public":
                    answers.append(client.get(path.replace("?h=", "/orders?h=")))
            for answer in answers:
                assert answer.status_code == 200, (kind_id, number, viewer)
                seen[viewer].append(dump(answer))
    tokens = {p.name: p.token for p in game.players}
    secrets = {p.name: private_texts(store, p.name) for p in game.players}
    assert any(secrets.values()), f"{kind_id}: the game has no private events to look for"
    escaped = {name: {t.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
                      .replace('"', "&#34;").replace("'", "&#39;") for t in texts}
               for name, texts in secrets.items()}
    for viewer, pages in seen.items():
        text = "\n".join(pages)
        for owner in tokens:
            if owner == viewer:
                continue
            assert tokens[owner] not in text, (kind_id, viewer, owner)
            for secret in secrets[owner] | escaped[owner]:
                assert secret not in text, (kind_id, viewer, owner, secret)


def test_html_non_interference_of_secrets(played):
    kind_id, store = played
    game = store.game("g")
    turn = store.turn("g")
    base = {v: render_html(d) for v, d in service.report_documents(game, turn).items()}
    for owner in [p.name for p in game.players]:
        changed = copy.copy(turn)
        changed.state = scrambled(kind_id, turn.state, owner)
        after = {v: render_html(d) for v, d in service.report_documents(game, changed).items()}
        for viewer, html in base.items():
            if viewer == owner:
                assert after[viewer] != html, "the owner's own page must show the change"
            else:
                assert after[viewer] == html, f"{viewer}'s page depends on {owner}'s secrets"


def test_pages_do_not_change_when_another_player_submits(tmp_path, monkeypatch, make_client):
    monkeypatch.setenv("SOURCE_DATE_EPOCH", EPOCH)
    store = Store(tmp_path / "s.sqlite3", create=True)
    service.new_game(store, "gral", "g", ["Anna", "Bert", "Cora"], seed="5")
    client = make_client(store.path)
    paths = links(store, "g")

    def pages(viewer):
        return [client.get(paths[viewer]).text,
                client.get(paths[viewer].replace("?h=", "/orders?h=")).text
                if viewer != "public" else ""]

    before = {v: pages(v) for v in paths}
    service.submit_orders(store, "g", "Bert", "assign 10 to Alberto\nassign 9 to Mansur\n", "o")
    for viewer in paths:
        if viewer != "Bert":
            assert pages(viewer) == before[viewer], viewer
    assert "assign 9 to Mansur" in pages("Bert")[1]
    store.close()
