"""The web view refuses what it must (docs/web.md, "Security model"): wrong tokens and tampered
hashes get the one 404 of a missing game, failed attempts are limited per client, every form
needs its token and a same-site origin, bodies are bounded, everything is escaped, the headers
are strict on every response, and no token reaches the log."""
from __future__ import annotations

import logging

import pytest

from companion import service
from companion.store import Store
from companion.web.security import CSP, FailureLimiter, redact
from tests.web.conftest import EPOCH, csrf_of, links, login

HEADERS = {"content-security-policy": CSP, "x-frame-options": "DENY",
           "referrer-policy": "no-referrer", "x-content-type-options": "nosniff"}


def assert_secure(answer) -> None:
    for name, value in HEADERS.items():
        assert answer.headers.get(name) == value, (name, answer.request.url)
    assert "frame-ancestors 'none'" in answer.headers["content-security-policy"]
    assert "script-src 'none'" in answer.headers["content-security-policy"]
    assert "server" not in answer.headers


def wrong_links(store: Store) -> list[str]:
    """Links that must all get the very same 404."""
    game = store.game("g")
    turn = store.turn("g")
    anna, bert = game.player("Anna"), game.player("Bert")
    h = turn.hash[:16]
    flipped = ("0" if h[0] != "0" else "1") + h[1:]
    return [
        f"/nogame/0/public?h={h}",                                   # no such game
        f"/g/7/public?h={h}",                                        # no such turn
        f"/g/0/public?h={flipped}",                                  # tampered hash
        f"/g/0/anna.{anna.token}?h={flipped}",
        f"/g/0/anna.{anna.token[:-1]}{'0' if anna.token[-1] != '0' else '1'}?h={h}",  # token
        f"/g/0/anna.{bert.token}?h={h}",                             # another player's token
        f"/g/0/bert.?h={h}", f"/g/0/anna?h={h}", f"/g/0/moderator?h={h}",
        f"/g/0/anna.{anna.token}", f"/g/0/anna.{anna.token}?h=",      # no hash
        f"/g/0/anna.{anna.token}?h={h.upper()}x",
        f"/g/0/anna.{anna.token}/report.pdf?h={flipped}",
        f"/g/0/anna.{anna.token}/orders?h={flipped}",
        f"/g/0/public/orders?h={h}",                                 # no form for the public
        "/g/0/public/../../etc/passwd", "/g/0/..%2f..%2fetc%2fpasswd?h=" + h,
        "/%2e%2e/%2e%2e/etc/passwd", "/static/../companion.toml", "/static/..%2f..%2fapp.py",
        "/g/0/public/report.pdf/../../x", "/g/-1/public?h=" + h, "/.env", "/g",
    ]


def test_wrong_links_all_get_the_same_404(gral_store, make_client):
    client = make_client(gral_store.path, max_failures=1000)
    reference = client.get("/nogame/0/public?h=0123456789abcdef")
    assert reference.status_code == 404
    for path in wrong_links(gral_store):
        answer = client.get(path)
        assert answer.status_code == 404, path
        assert answer.text == reference.text, path
        assert_secure(answer)
    good = client.get(links(gral_store, "g")["Anna"])
    assert good.status_code == 200


def test_security_headers_on_every_response(gral_store, make_client):
    client = make_client(gral_store.path, max_failures=2)
    paths = ["/", "/static/app.css", "/moderator", links(gral_store, "g")["Anna"],
             links(gral_store, "g")["Anna"].replace("?h=", "/orders?h="),
             links(gral_store, "g")["public"].replace("?h=", "/report.pdf?h="),
             "/nothing/here", "/g/0/public?h=0000000000000000"]
    for path in paths:
        assert_secure(client.get(path))
    assert_secure(client.post("/moderator/login", data={"csrf": "x", "password": "y"}))
    for _ in range(3):
        blocked = client.get("/g/0/public?h=0000000000000000")
    assert blocked.status_code == 429
    assert_secure(blocked)
    assert client.get("/static/app.css").headers["content-type"].startswith("text/css")


def test_failed_attempts_are_limited_per_client(gral_store, make_client):
    client = make_client(gral_store.path, max_failures=5)
    good = links(gral_store, "g")["Anna"]
    for _ in range(5):
        assert client.get("/g/0/anna.00000000000000000000000000000000?h=0000000000000000"
                          ).status_code == 404
    assert client.get(good).status_code == 429        # even the right link, for a while
    limiter = FailureLimiter(limit=2, window=10, clock=lambda: now[0])
    now = [0.0]
    limiter.fail("a")
    limiter.fail("a")
    assert limiter.blocked("a") and not limiter.blocked("b")
    now[0] = 11.0
    assert not limiter.blocked("a")


def test_wrong_passwords_are_limited_too(gral_store, make_client):
    client = make_client(gral_store.path, max_failures=3)
    for _ in range(3):
        csrf = csrf_of(client.get("/moderator").text)
        assert client.post("/moderator/login", data={"csrf": csrf, "password": "guess"}
                           ).status_code == 403
    assert client.get("/moderator").status_code == 429


def test_tokens_are_compared_in_constant_time(gral_store, make_client, monkeypatch):
    import companion.web.app as web_app

    seen = []
    real = web_app.hmac.compare_digest

    def spy(a, b):
        seen.append((a, b))
        return real(a, b)

    monkeypatch.setattr(web_app.hmac, "compare_digest", spy)
    client = make_client(gral_store.path)
    anna = gral_store.game("g").player("Anna")
    assert client.get(links(gral_store, "g")["Anna"]).status_code == 200
    assert (anna.token.encode(), anna.token.encode()) in seen
    # every player's token is compared, whichever matches (no early exit)
    assert sum(1 for a, b in seen if b == anna.token.encode()) == 3


def post_orders(client, path, csrf, **headers):
    return client.post(path, data={"csrf": csrf, "orders": "assign 10 to Alberto",
                                   "action": "submit"}, headers=headers)


def test_cross_site_posts_are_refused_and_store_nothing(gral_store, make_client):
    client = make_client(gral_store.path, max_failures=1000)
    form = links(gral_store, "g")["Anna"].replace("?h=", "/orders?h=")
    csrf = csrf_of(client.get(form).text)
    assert post_orders(client, form, "").status_code == 403
    assert post_orders(client, form, "0" * len(csrf)).status_code == 403
    bert_form = links(gral_store, "g")["Bert"].replace("?h=", "/orders?h=")
    assert post_orders(client, bert_form, csrf).status_code == 403     # Anna's token for Bert
    assert post_orders(client, form, csrf, origin="https://evil.example").status_code == 403
    assert post_orders(client, form, csrf, **{"sec-fetch-site": "cross-site"}).status_code == 403
    assert post_orders(client, form, csrf, origin="null",
                       **{"sec-fetch-site": "same-site"}).status_code == 403
    assert gral_store.pending("g") == {}
    same = post_orders(client, form, csrf, origin="http://testserver",
                       **{"sec-fetch-site": "same-origin"})
    assert same.status_code == 200 and "Anna" in gral_store.pending("g")
    # the moderator's forms
    login(client)
    page = client.get("/moderator/game/g")
    for data, headers in [({"csrf": "", "expect": "0"}, {}),
                          ({"csrf": csrf_of(page.text), "expect": "0"},
                           {"origin": "https://evil.example"})]:
        assert client.post("/moderator/game/g/turn", data=data, headers=headers
                           ).status_code == 403
    assert gral_store.turn("g").number == 0
    assert client.post("/moderator/login", data={"csrf": "", "password": "x"}).status_code == 403


def test_oversized_and_odd_bodies_are_refused(gral_store, make_client):
    client = make_client(gral_store.path, max_failures=1000)
    form = links(gral_store, "g")["Anna"].replace("?h=", "/orders?h=")
    csrf = csrf_of(client.get(form).text)
    huge = client.post(form, data={"csrf": csrf, "orders": "assign 10 to Alberto\n" * 5000,
                                   "action": "submit"})
    assert huge.status_code == 413
    long = client.post(form, data={"csrf": csrf, "orders": "#" * 30_000, "action": "submit"})
    assert long.status_code == 413
    multipart = client.post(form, files={"orders": ("o.txt", b"assign 10 to Alberto")},
                            data={"csrf": csrf, "action": "submit"})
    assert multipart.status_code == 415
    assert gral_store.pending("g") == {}
    assert client.put(form, content=b"x").status_code == 404        # no other method


def test_html_in_names_and_orders_is_escaped(tmp_path, monkeypatch, make_client):
    monkeypatch.setenv("SOURCE_DATE_EPOCH", EPOCH)
    store = Store(tmp_path / "s.sqlite3", create=True)
    evil = '<b>Bo & "Jo"</b>'
    service.new_game(store, "gral", "g", [evil, "<i>x</i>", "Cora"], seed="5")
    client = make_client(store.path)
    for viewer, path in links(store, "g").items():
        page = client.get(path)
        assert page.status_code == 200
        assert "<b>Bo" not in page.text and "<i>x</i>" not in page.text
        assert "&lt;b&gt;Bo &amp; &#34;Jo&#34;&lt;/b&gt;" in page.text
    form = links(store, "g")[evil].replace("?h=", "/orders?h=")
    csrf = csrf_of(client.get(form).text)
    orders = '<script>alert(1)</script>\nassign 10 to "<img src=x>"'
    answer = client.post(form, data={"csrf": csrf, "orders": orders, "action": "check"})
    assert answer.status_code == 422
    assert "<script>" not in answer.text and "<img" not in answer.text
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in answer.text
    login(client)
    assert "<b>Bo" not in client.get("/moderator/game/g").text
    store.close()


def test_no_token_in_the_log(gral_store, make_client, caplog):
    caplog.set_level(logging.INFO, logger="companion.web.access")
    client = make_client(gral_store.path)
    anna = gral_store.game("g").player("Anna")
    path = links(gral_store, "g")["Anna"]
    client.get(path)
    client.get(path.replace("?h=", "/orders?h="))
    client.get(f"/g/0/anna.{anna.token}x?h=0000000000000000")
    lines = [r.getMessage() for r in caplog.records if r.name == "companion.web.access"]
    assert len(lines) == 3 and all("anna.***" in line for line in lines)
    assert not any(anna.token in line or "?h=" in line for line in lines)
    assert redact(f"/g/3/anna.{anna.token}/orders") == "/g/3/anna.***/orders"
    assert redact("/g/3/public") == "/g/3/public"
    assert redact(f"/pbem/g/3/anna.{anna.token}") == "/pbem/g/3/anna.***"


@pytest.mark.parametrize("method", ["get", "post"])
def test_the_moderator_pages_need_a_session(gral_store, make_client, method):
    client = make_client(gral_store.path)
    for path in ("/moderator/game/g", "/moderator/game/g/view/anna", "/moderator/game/g/turn"):
        answer = getattr(client, method)(path)
        assert answer.status_code in (303, 403, 404, 415), (path, answer.status_code)
        assert "Adjudicate" not in answer.text and "assign" not in answer.text
    assert gral_store.turn("g").number == 0
