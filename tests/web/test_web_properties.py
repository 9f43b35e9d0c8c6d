"""Property tests of the web view (docs/web.md): any address, any form body and any orders text
a browser could send get a page, never a server failure (500); an answer never shows the token
of a player whose link was not asked for; orders the engine refuses store nothing."""
from __future__ import annotations

from urllib.parse import quote

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.web.conftest import csrf_of, links

FIXTURES = settings(suppress_health_check=[HealthCheck.function_scoped_fixture,
                                           HealthCheck.too_slow], max_examples=120)


@pytest.fixture
def site(gral_store, make_client):
    """The client, every player's token and Anna's links (report and orders form)."""
    client = make_client(gral_store.path, max_failures=10**9)
    game = gral_store.game("g")
    tokens = {p.name: p.token for p in game.players}
    report = links(gral_store, "g")["Anna"]
    return client, tokens, report, report.replace("?h=", "/orders?h=")


def leaked(answer, tokens: dict[str, str], asked: str) -> list[str]:
    """Players whose token the answer shows although the address asked did not hold it."""
    body = answer.content.decode("latin-1")
    return [name for name, token in tokens.items() if token in body and token not in asked]


SEGMENT = st.one_of(
    st.sampled_from(["g", "0", "1", "99999999999999999999", "-1", "public", "moderator",
                     "orders", "report.pdf", "static", "..", ".", "%2e%2e", "%2f", "%00",
                     "anna", "anna.", "view", "game", "turn", "login", "logout"]),
    st.text(min_size=1, max_size=12).map(lambda s: quote(s, safe="")),
)


@FIXTURES
@given(segments=st.lists(SEGMENT, min_size=1, max_size=6),
       query=st.one_of(st.none(), st.text(max_size=20).map(lambda s: quote(s, safe="=&"))),
       method=st.sampled_from(["GET", "POST", "HEAD"]),
       token_of=st.sampled_from([None, "Anna", "Bert"]))
def test_any_address_gets_a_page_and_no_foreign_token(site, segments, query, method, token_of):
    client, tokens, _report, _form = site
    if token_of is not None:              # an otherwise random address holding a real token
        segments = segments[:1] + [f"{token_of.lower()}.{tokens[token_of]}"] + segments[1:]
    path = "/" + "/".join(segments) + (f"?{query}" if query is not None else "")
    answer = client.request(method, path)
    assert answer.status_code != 500, (method, path)
    assert answer.status_code in (200, 303, 307, 400, 403, 404, 405, 413, 415, 422, 429), \
        (method, path, answer.status_code)
    assert not leaked(answer, tokens, path), (method, path)


ORDER_WORDS = st.sampled_from([
    "assign", "10", "to", "Alberto", "Bert", "answer", "pass", "move", "#", "\n", " ", "\t",
    "ÄÖÜ", "\u200b", "\u00ad", "\u202e", "\x00", "\x0b", "\ufeff", "9" * 30, "-5", "1e9", "'",
    '"', "<script>", "&amp;", "\r\n", "\r"])
ORDERS = st.one_of(st.lists(ORDER_WORDS, max_size=25).map("".join), st.text(max_size=200))


@FIXTURES
@given(orders=ORDERS, action=st.sampled_from(["check", "submit", "", "nonsense", "check\x00"]),
       extra=st.dictionaries(st.text(max_size=8), st.text(max_size=30), max_size=4))
def test_any_orders_form_is_answered_and_a_refusal_stores_nothing(site, gral_store, orders,
                                                                   action, extra):
    client, tokens, _report, form = site
    page = client.get(form)
    before = {name: sub.text for name, sub in gral_store.pending("g").items()}
    data = {**extra, "csrf": csrf_of(page.text), "orders": orders, "action": action}
    answer = client.post(form, data=data)
    # 303: stored, sent on to the page that says so; 400: an action the form does not offer
    assert answer.status_code in (200, 303, 400, 413, 422), (answer.status_code, orders, action)
    assert (answer.status_code == 400) == (action not in ("check", "submit"))
    assert answer.status_code != 303 or action == "submit"
    assert not leaked(answer, {k: v for k, v in tokens.items() if k != "Anna"}, form)
    after = {name: sub.text for name, sub in gral_store.pending("g").items()}
    if answer.status_code != 303:
        assert after == before, (orders, action)


@FIXTURES
@given(body=st.binary(max_size=300),
       kind=st.sampled_from(["application/x-www-form-urlencoded", "text/plain",
                             "multipart/form-data; boundary=x", "", "application/json"]))
def test_any_form_body_is_refused_or_read_without_failure(site, gral_store, body, kind):
    client, tokens, _report, form = site
    answer = client.post(form, content=body, headers={"content-type": kind} if kind else {})
    assert answer.status_code in (400, 403, 413, 415), (body, kind, answer.status_code)
    assert gral_store.pending("g") == {}


KOC_WORDS = st.sampled_from([
    "move", "to", "Camelot", "Logres", "stay", "enter", "request", "adventure", "from", "King",
    "Arthur", "pray", "on", "yield:", "yes", "no", "answer", "encounter:", "avoid", "seek",
    "challenge", "Sir", "Kay", "turn", "knave", "#", "\n", " ", "\u200b", "\u00ad", "9" * 25,
    "é", "<b>", "'"])


@pytest.fixture
def koc_site(tmp_path, monkeypatch, make_client):
    from companion import service
    from companion.store import Store
    from tests.web.conftest import EPOCH

    monkeypatch.setenv("SOURCE_DATE_EPOCH", EPOCH)
    store = Store(tmp_path / "k.sqlite3", create=True)
    service.new_game(store, "koc", "k", ["Anna", "Bert"], seed="7", output=tmp_path / "out")
    client = make_client(store.path, max_failures=10**9)
    tokens = {p.name: p.token for p in store.game("k").players}
    form = links(store, "k")["Anna"].replace("?h=", "/orders?h=")
    yield client, tokens, store, form
    store.close()


@settings(suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
          max_examples=60)
@given(orders=st.one_of(st.lists(KOC_WORDS, max_size=20).map(" ".join), st.text(max_size=120)),
       action=st.sampled_from(["check", "submit"]))
def test_any_knights_of_camelot_orders_on_the_phone_form_are_answered(koc_site, orders, action):
    """The most intricate orders of the five games, typed on a phone: an answer, never a
    failure; no other player's token; a refusal stores nothing."""
    client, tokens, store, form = koc_site
    page = client.get(form)
    before = {n: sub.text for n, sub in store.pending("k").items()}
    answer = client.post(form, data={"csrf": csrf_of(page.text), "orders": orders,
                                     "action": action})
    assert answer.status_code in (200, 303, 413, 422), (answer.status_code, orders)
    assert tokens["Bert"] not in answer.text
    if answer.status_code != 303:
        assert {n: sub.text for n, sub in store.pending("k").items()} == before


MODERATOR_FIELDS = st.fixed_dictionaries({}, optional={
    "expect": st.sampled_from(["0", "1", "2", "", "-1", "x", "1.0", "99999999999999999999"]),
    "to": st.one_of(st.sampled_from(["0", "1", "2", "", "-1", "01", " 0 ", "٠", "1e3"]),
                    st.text(max_size=8)),
    "confirm": st.sampled_from(["yes", "Yes", "", "no", "on"]),
    "reason": st.text(max_size=300),
    "address": st.one_of(st.sampled_from(["none", "a@example.org", "", "a@", "@b", "a b@c.d"]),
                         st.text(max_size=30)),
    "player": st.one_of(st.sampled_from(["anna", "bert", "cora", "Anna", "", "public"]),
                        st.text(max_size=8)),
    "when": st.one_of(st.sampled_from(["+2d", "36h", "none", "2030-01-01 18:00", "0", "-1d",
                                       "9999-12-31 23:59", "+99999999d", "2030-13-45",
                                       "2030-01-01T18:00+25:00", "\x00"]),
                      st.text(max_size=40)),
})


@pytest.fixture
def moderated(gral_store, make_client, tmp_path):
    """Signed in as the moderator, a game after one turn, a play-by-email schedule row."""
    from companion import service
    from tests.web.conftest import login

    for name in ("Anna", "Bert", "Cora"):
        service.submit_orders(gral_store, "g", name, "assign 10 to Alberto\n", "o")
    service.run_turn(gral_store, "g", output=tmp_path / "out")
    client = make_client(gral_store.path, output=tmp_path / "out", max_failures=10**9)
    login(client)
    service.set_schedule(gral_store, "g")
    return client, gral_store


def store_rows(store) -> list:
    return [store.db.execute(f"SELECT * FROM {t} ORDER BY 1").fetchall()
            for t in ("turns", "rewound_turns", "mail_games", "submissions", "players",
                      "mail_address_changes")]


@settings(suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
          max_examples=80)
@given(action=st.sampled_from(["turn", "rewind", "deadline", "hold", "release", "token",
                                      "address"]),
       fields=MODERATOR_FIELDS)
def test_any_moderators_form_is_answered_and_a_refusal_changes_nothing(moderated, action,
                                                                       fields):
    """The moderator's forms (run the turn, take turns back, deadline, hold, release, a new
    link) with any values: a page, never a failure; a refusal (400 for a form without its
    turn, 409, 422) changes nothing in the store."""
    client, store = moderated
    page = client.get("/moderator/game/g")
    before = store_rows(store)
    answer = client.post(f"/moderator/game/g/{action}",
                         data={"csrf": csrf_of(page.text), **fields})
    assert answer.status_code in (200, 400, 409, 422), (action, fields, answer.status_code)
    from companion.engine.numbers import is_digits

    assert (answer.status_code == 400) == (not is_digits(fields.get("expect", "")))
    if answer.status_code != 200:
        assert store_rows(store) == before, (action, fields)
    else:
        assert 'class="notice ok"' in answer.text, (action, fields)
