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
           "referrer-policy": "same-origin", "x-content-type-options": "nosniff"}


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


def test_pages_served_over_https_keep_the_browser_to_https(gral_store, make_client):
    """Served over TLS (behind a proxy with --proxy-headers, the scheme it forwards), every
    response, errors included, tells the browser to keep to https for the host
    (Strict-Transport-Security), so no later http:// link sends a token in the clear; over
    plain http (a test machine, the loopback) it is not sent, where it would mean nothing."""
    client = make_client(gral_store.path)
    anna = links(gral_store, "g")["Anna"]
    assert "strict-transport-security" not in client.get(anna).headers
    client.base_url = "https://testserver"
    for path in (anna, "/moderator", "/nothing/here", "/static/app.css"):
        answer = client.get(path)
        assert answer.headers["strict-transport-security"] == "max-age=31536000", path
        assert_secure(answer)


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
    for null in ({"origin": "null"}, {"origin": "null", "sec-fetch-site": "same-origin"}):
        refused = post_orders(client, form, csrf, **null)     # a sandboxed or data: page
        assert refused.status_code == 403 and "another site" in refused.text, null
    assert gral_store.pending("g") == {}
    same = post_orders(client, form, csrf, origin="http://testserver",
                       **{"sec-fetch-site": "same-origin"})
    assert same.status_code == 303 and "Anna" in gral_store.pending("g")
    # the moderator's forms
    login(client)
    page = client.get("/moderator/game/g")
    for data, headers in [({"csrf": "", "expect": "0"}, {}),
                          ({"csrf": csrf_of(page.text), "expect": "0"},
                           {"origin": "https://evil.example"})]:
        assert client.post("/moderator/game/g/turn", data=data, headers=headers
                           ).status_code == 403
    null = client.post("/moderator/game/g/turn", headers={"origin": "null"},
                       data={"csrf": csrf_of(page.text), "expect": "0", "confirm": "yes"})
    assert null.status_code == 403 and "another site" in null.text
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
    assert long.status_code == 413 and "30,000 characters long" in long.text
    assert "#" * 30_000 in long.text                   # kept in the form, to shorten
    body = client.post(form, content=b"orders=" + b"x" * 300_000,
                       headers={"content-type": "application/x-www-form-urlencoded"})
    assert body.status_code == 413 and "20,000 characters" in body.text
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
    # malformed links: a segment missing, misplaced or joined, on any route
    for odd in (f"/g/anna.{anna.token}", f"/g/1/{anna.token}", f"/g/0/anna{anna.token}",
                f"/moderator/game/g/view/anna.{anna.token}", f"/g/0/anna.{anna.token}/",
                f"/x/{anna.token[:16]}/y", f"/{anna.token}.pdf", "/g/0/" + "x" * 20_000):
        client.get(odd)
    lines = [r.getMessage() for r in caplog.records if r.name == "companion.web.access"]
    assert len(lines) == 11 and all("anna.***" in line for line in lines[:3])
    assert not any(anna.token[:16] in line or "?h=" in line for line in lines), lines
    assert max(len(line) for line in lines) < 300 and "(20005 characters)" in lines[-1]
    assert redact(f"/g/3/anna.{anna.token}/orders") == "/g/3/anna.***/orders"
    assert redact("/g/3/public") == "/g/3/public"
    assert redact(f"/pbem/g/3/anna.{anna.token}") == "/pbem/g/3/anna.***"
    assert redact(f"/g/1/{anna.token}") == "/g/1/***"
    assert redact("/static/app.css") == "/static/app.css"
    assert redact("/g/3/public/report.pdf") == "/g/3/public/report.pdf"
    assert redact('/g/3/a\n"b') == "/g/3/a\\x{a}\\x{22}b"       # no forged log lines


@pytest.mark.parametrize("method", ["get", "post"])
def test_the_moderator_pages_need_a_session(gral_store, make_client, method):
    client = make_client(gral_store.path)
    for path in ("/moderator/game/g", "/moderator/game/g/view/anna", "/moderator/game/g/turn"):
        answer = getattr(client, method)(path)
        assert answer.status_code in (303, 403, 404, 415), (path, answer.status_code)
        assert "Adjudicate" not in answer.text and "assign" not in answer.text
    assert gral_store.turn("g").number == 0


def test_a_slash_at_the_end_is_redirected_to_a_relative_address(gral_store, make_client):
    """'/g/0/anna.TOKEN/?h=...' is sent on to the link without the slash, by a relative
    address (path and query): never to the host a request names (Host: evil.example)."""
    client = make_client(gral_store.path)
    path = links(gral_store, "g")["Anna"]
    slashed = path.replace("?h=", "/?h=")
    answer = client.get(slashed, headers={"host": "evil.example"})
    assert answer.status_code == 307 and answer.headers["location"] == path
    assert client.get(answer.headers["location"]).status_code == 200
    moderator = client.get("/moderator/", headers={"host": "evil.example"})
    assert moderator.status_code == 307 and moderator.headers["location"] == "/moderator"
    for never in ("//evil.example/", "/nothing/here/", "//moderator/", "/%2Fevil.example/"):
        answer = client.get("http://testserver" + never, headers={"host": "evil.example"})
        assert answer.status_code == 404, never


def test_only_canonical_turn_numbers_are_links(gral_store, make_client):
    """'/g/00/...' or '/g/+0/...' is no link: the one 404, as any wrong link."""
    client = make_client(gral_store.path, max_failures=1000)
    path = links(gral_store, "g")["Anna"]
    reference = client.get("/nogame/0/public?h=0123456789abcdef").text
    for odd in ("/g/00/", "/g/+0/", "/g/0x0/", "/g/٠/"):
        answer = client.get(path.replace("/g/0/", odd))
        assert answer.status_code == 404 and answer.text == reference, odd
    assert client.get(path).status_code == 200


def test_a_blocked_client_is_told_when_to_come_back(gral_store, make_client):
    client = make_client(gral_store.path, max_failures=2, failure_window=600)
    for _ in range(2):
        client.get("/g/0/public?h=0000000000000000")
    blocked = client.get("/moderator")
    assert blocked.status_code == 429
    assert 1 <= int(blocked.headers["retry-after"]) <= 600
    assert "Wait 10 minutes" in blocked.text


def test_the_sign_in_page_names_the_config_file_not_its_folder(gral_store, tmp_path):
    """With no password set, the page says which file to edit without the server's paths."""
    from starlette.testclient import TestClient

    from companion.web.app import create_app

    config = tmp_path / "private-folder" / "companion.toml"
    with TestClient(create_app(gral_store.path, config_file=config)) as client:
        page = client.get("/moderator").text
    assert "<code>companion.toml</code>" in page and "private-folder" not in page
    assert str(tmp_path) not in page


def test_the_form_key_survives_a_restart_and_is_random(gral_store, make_client, tmp_path):
    """A page opened before the server restarted can still be sent: the key of the form tokens
    is kept beside the store (random, readable by its owner only), not drawn at each start;
    another store gets another key. A form whose token does not fit is refused with what to
    do, the text kept to copy, and nothing stored."""
    import os
    import stat

    from companion.web.app import KEY_SUFFIX

    form = links(gral_store, "g")["Anna"].replace("?h=", "/orders?h=")
    before = make_client(gral_store.path)
    csrf = csrf_of(before.get(form).text)
    key_file = gral_store.path.parent / (gral_store.path.name + KEY_SUFFIX)
    assert stat.S_IMODE(os.stat(key_file).st_mode) == 0o600
    assert len(bytes.fromhex(key_file.read_text().strip())) == 32
    after = make_client(gral_store.path)                 # the server restarted
    sent = after.post(form, data={"csrf": csrf, "orders": "assign 10 to Alberto\n",
                                  "action": "submit"})
    assert sent.status_code == 303 and "Anna" in gral_store.pending("g")
    other = tmp_path / "other.sqlite3"
    Store(other, create=True).close()
    make_client(other)
    assert (tmp_path / ("other.sqlite3" + KEY_SUFFIX)).read_text() != key_file.read_text()
    typed = "assign 7 to Mansur\n# <kept>"
    stale = after.post(form, data={"csrf": "0" * len(csrf), "orders": typed,
                                   "action": "submit"})
    assert stale.status_code == 403 and "the page is too old" in stale.text
    assert "Open the page again" in stale.text
    assert "# &lt;kept&gt;" in stale.text and "readonly" in stale.text
    assert 'name="csrf"' not in stale.text
    assert gral_store.pending("g")["Anna"].text == "assign 10 to Alberto\n"


def test_the_addresses_of_one_ipv6_network_share_their_failed_attempts(gral_store,
                                                                       password_hash):
    """A client given a whole IPv6 /64 (as a household or a server is) could take a new
    address for every wrong password; the attempts of one /64 count together, so the limit
    holds. Another network, and an IPv4 address, have allowances of their own; an IPv4
    address written as IPv6 ('::ffff:198.51.100.1') is that IPv4 address."""
    from starlette.testclient import TestClient

    from companion.web.app import create_app
    from companion.web.config import WebConfig

    app = create_app(gral_store.path, None, WebConfig(moderator_password_hash=password_hash,
                                                      max_failures=3))

    def at(host: str) -> TestClient:
        return TestClient(app, follow_redirects=False, client=(host, 50000))

    for n in range(3):
        guesser = at(f"2001:db8:1:2::{n + 1:x}")
        csrf = csrf_of(guesser.get("/moderator").text)
        assert guesser.post("/moderator/login", data={"csrf": csrf, "password": "guess"}
                            ).status_code == 403
    assert at("2001:db8:1:2:ffff::9").get("/moderator").status_code == 429
    assert at("2001:db8:1:3::1").get("/moderator").status_code == 200
    assert at("192.0.2.7").get("/moderator").status_code == 200
    for host in ("::ffff:198.51.100.1", "198.51.100.1", "::ffff:198.51.100.1"):
        assert at(host).get("/g/0/public?h=0000000000000000").status_code == 404
    assert at("::ffff:198.51.100.1").get("/moderator").status_code == 429
    assert at("198.51.100.1").get("/moderator").status_code == 429
    assert at("198.51.100.200").get("/moderator").status_code == 200


def test_a_burst_of_guesses_sent_at_once_gets_no_more_tries(gral_store, password_hash):
    """Wrong passwords sent all at once (each waits for its check, and none was counted yet
    when the others came in) get no more tries than the same guesses one by one: at most
    max_failures passwords are checked, the rest answered 429. A right password is not
    counted against the client."""
    import threading

    from starlette.testclient import TestClient

    from companion.web.app import create_app
    from companion.web.config import WebConfig
    from tests.web.conftest import PASSWORD

    app = create_app(gral_store.path, None, WebConfig(moderator_password_hash=password_hash,
                                                      max_failures=3))
    guessers = []
    for _ in range(10):
        client = TestClient(app, follow_redirects=False)
        guessers.append((client, csrf_of(client.get("/moderator").text)))
    start, answers = threading.Barrier(len(guessers)), []

    def guess(client, csrf):
        start.wait()
        answers.append(client.post("/moderator/login",
                                   data={"csrf": csrf, "password": "guess"}).status_code)

    threads = [threading.Thread(target=guess, args=pair) for pair in guessers]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(answers) == [403] * 3 + [429] * 7, answers
    # a right password is taken back from the count: two wrong, then signing in again and
    # again (a new browser each time), stays open
    moderator = create_app(gral_store.path, None, WebConfig(
        moderator_password_hash=password_hash, max_failures=3))
    for password in ("guess", "guess", PASSWORD, PASSWORD, PASSWORD):
        client = TestClient(moderator, follow_redirects=False)
        answer = client.post("/moderator/login", data={
            "csrf": csrf_of(client.get("/moderator").text), "password": password})
        assert answer.status_code == (403 if password == "guess" else 303), answer.status_code


def test_a_token_of_another_game_or_an_old_token_gets_the_same_404(gral_store, make_client,
                                                                   tmp_path):
    """A player of two games of one store who opens one game's address with the other's
    token (both named Anna), and a link whose token the moderator replaced ('companion
    token'): the one 404, nothing of either game on it."""
    service.new_game(gral_store, "gral", "h", ["Anna", "Bert"], seed="5",
                     output=tmp_path / "out")
    client = make_client(gral_store.path, max_failures=1000)
    reference = client.get("/nogame/0/public?h=0123456789abcdef").text
    g, h = links(gral_store, "g")["Anna"], links(gral_store, "h")["Anna"]
    token_g = gral_store.game("g").player("Anna").token
    token_h = gral_store.game("h").player("Anna").token
    crossed = [g.replace(token_g, token_h), h.replace(token_h, token_g)]
    service.reissue_token(gral_store, "g", "Anna", tmp_path / "out")
    for path in crossed + [g]:
        answer = client.get(path)
        assert answer.status_code == 404 and answer.text == reference, path
    assert client.get(links(gral_store, "g")["Anna"]).status_code == 200
    assert client.get(h).status_code == 200
