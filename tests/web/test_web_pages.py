"""The web view's pages (Starlette's TestClient, in process): the report behind every link,
its PDF, earlier and newer turns, the order form, the moderator's page, and the commands that
go with them (docs/web.md)."""
from __future__ import annotations

import re

from companion import service
from companion.render.report_html import render_html
from companion.render.report_pdf import render_pdf
from tests.web.conftest import PASSWORD, ROOT, csrf_of, links, login


def test_every_viewer_gets_their_own_report(gral_store, make_client):
    client = make_client(gral_store.path)
    game = gral_store.game("g")
    turn = gral_store.turn("g")
    docs = service.report_documents(game, turn)
    for viewer, path in links(gral_store, "g").items():
        page = client.get(path)
        assert page.status_code == 200, viewer
        assert page.headers["content-type"].startswith("text/html")
        # the same document as the PDF and the text, rendered to HTML
        for label, value in docs[viewer]["header"]:
            assert str(value) in page.text
        for sec in docs[viewer]["sections"]:
            assert sec["title"] in page.text
        assert f"{game.id}/0/" in page.text and "report.pdf" in page.text
    anna = client.get(links(gral_store, "g")["Anna"]).text
    assert "Your influence sheet" in anna and "/orders?h=" in anna
    # what a player sees first is what is asked of him; the turn hash is in the footer
    assert anna.index('class="notice orders-state"') < anna.index("<h1>")
    assert anna.index("<footer>") < anna.index("This page shows the stored state")
    assert "<svg" in anna and 'class="gral-board"' in anna       # the board as SVG
    public = client.get(links(gral_store, "g")["public"]).text
    assert "Your influence sheet" not in public and "/orders?h=" not in public


def test_the_pdf_is_the_published_report(gral_store, make_client, tmp_path):
    client = make_client(gral_store.path)
    game = gral_store.game("g")
    for viewer, path in links(gral_store, "g").items():
        answer = client.get(path.replace("?h=", "/report.pdf?h="))
        assert answer.status_code == 200
        assert answer.headers["content-type"] == "application/pdf"
        name = "public" if viewer == "public" else game.player(viewer).slug
        assert answer.content == (tmp_path / "out" / "g" / "turn-000" / f"{name}.pdf"
                                  ).read_bytes()


def test_the_html_renderer_renders_every_block_type():
    doc = {"title": "T <x>", "header": [("Game", "g")], "footer": "f", "qr": "secret-link",
           "sections": [{"title": "S", "blocks": [
               {"type": "para", "text": "a <b>para</b>"},
               {"type": "list", "items": ["one", "two & three"]},
               {"type": "table", "columns": ["A"], "rows": [["<td>"]], "widths": None},
               {"type": "figure", "figure": "nowhere.module:thing_flowable", "data": {},
                "text": "+--+\n|<>|\n+--+"},
               {"type": "options", "groups": [{"title": "Move", "lines": ["move <x>"]}]},
               {"type": "form", "lines": 3, "text": "write here"},
               {"type": "code", "lines": ["x = 1"]}]}]}
    html = render_html(doc)
    assert "a &lt;b&gt;para&lt;/b&gt;" in html and "two &amp; three" in html
    assert "&lt;td&gt;" in html and "|&lt;&gt;|" in html and "move &lt;x&gt;" in html
    assert "<pre class=\"figure-text\">" in html         # the text fallback of a figure
    assert "secret-link" not in html                     # the link is the page's own address
    assert "<script" not in html and "style=" not in html


def test_a_figure_made_for_a_phone_is_capped_on_a_wide_screen():
    """figure_fit: a figure whose labels would pass body text at the column's full width (a
    close-up: a few units across, labels of 3) gets a cap; a dense map or a board does not; a
    cap never comes below a phone's column (24rem)."""
    from companion.render.report_html import figure_fit

    def svg(width, *sizes):
        texts = "".join(f'<text font-size="{s}">x</text>' for s in sizes)
        return f'<svg viewBox="10 20 {width} 140" class="x">{texts}</svg>'

    assert figure_fit(svg(96, 3.2, 3.2, 6.3)) == "fit-30"      # 96 * 16 / 3.2 px = 30rem
    assert figure_fit(svg(560, 2.8, 2.6)) == ""                 # a whole map: labels small
    assert figure_fit(svg(500, 12, 7.7, 12)) == ""              # a board
    assert figure_fit(svg(40, 8)) == "fit-24"                   # never below a phone's column
    assert figure_fit(svg(96)) == "" and figure_fit(None) == ""  # no text, no figure
    app_css = (ROOT / "templates" / "web" / "static" / "app.css").read_text()
    for rem in range(24, 40, 2):
        assert f".svg.fit-{rem} svg {{ max-width: {rem}rem; }}" in app_css


def test_every_page_offers_a_dark_scheme_and_the_header_is_compact(gral_store, make_client):
    """A phone in dark mode gets the dark scheme (app.css, prefers-color-scheme: dark) on every
    page, announced by the base template; the scheme recolours no figure's inside (it only lays
    each on a light panel). The report's header marks its short rows (two to a line on a phone)
    and the chance commitment, a 64-digit hash, as a token (small monospace that wraps): by
    the form of the value, not its label. Colours and layout are measured in
    test_web_browser.py."""
    from companion.render.report_html import header_class

    app_css = (ROOT / "templates" / "web" / "static" / "app.css").read_text()
    dark = app_css[app_css.index("@media (prefers-color-scheme: dark)"):]
    assert "color-scheme: light dark" in app_css and "--paper" in dark
    assert "fill" not in dark and "svg *" not in dark and "svg text" not in dark
    assert header_class("Chance commitment", "0f" * 32) == "token"
    assert header_class("Base", "x" * 30) == "token"                    # no space: a token
    assert header_class("Game", "g1") == header_class("Game turn", "4 (next)") == "short"
    assert header_class("Seat order", "Anna, Bert (next: Anna)") == ""
    assert header_class("Stage", "a b " * 10) == ""                     # spaces: wraps
    client = make_client(gral_store.path)
    report = client.get(links(gral_store, "g")["Anna"]).text
    assert report.count('<meta name="color-scheme" content="light dark">') == 1
    assert '<div class="short"><dt>Game</dt><dd>g</dd></div>' in report
    assert re.search(r'<div class="token"><dt>Chance commitment</dt><dd>[0-9a-f]{64}</dd>',
                     report)
    assert "style=" not in report and "<script" not in report
    for path in ("/moderator", "/no/such/page"):
        assert 'content="light dark"' in client.get(path).text


def test_a_short_list_of_legal_lines_is_open_on_the_order_page():
    """A few legal order lines are shown at once under the form; a long list stays folded."""
    from companion.render.report_html import render_page

    def page(count):
        return render_page("orders.html.j2", title="T", game_id="g", turn=1, player="Anna",
                           can_submit=True, legal=[f"move {n}" for n in range(count)],
                           max_chars=10, text="", csrf="c")

    assert '<details class="options" open>' in page(4)
    assert '<details class="options">' in page(30)


def test_orders_checked_at_line_and_column_then_submitted_as_the_cli_does(gral_store,
                                                                          make_client):
    client = make_client(gral_store.path)
    path = links(gral_store, "g")["Anna"]
    form_path = path.replace("?h=", "/orders?h=")
    page = client.get(form_path)
    assert page.status_code == 200 and "are awaited" in page.text
    csrf = csrf_of(page.text)
    bad = "assign 10 to Alberto\nassign 7 to Nobodyhere\n"
    checked = client.post(form_path, data={"csrf": csrf, "orders": bad, "action": "check"})
    assert checked.status_code == 422
    assert re.search(r"line 2, column \d+", checked.text), checked.text
    # the listing has the two lines typed (no empty third for the final newline), and the
    # text box is tied to the errors for a screen reader
    listing = re.search(r'<pre class="listing">(.*?)</pre>', checked.text, re.S).group(1)
    assert re.findall(r'class="ln">\s*(\d+)<', listing) == ["1", "2"], listing
    assert 'aria-describedby="errors" aria-invalid="true"' in checked.text
    assert gral_store.pending("g") == {}
    submitted = client.post(form_path, data={"csrf": csrf, "orders": bad, "action": "submit"})
    assert submitted.status_code == 422 and gral_store.pending("g") == {}
    good = "assign 10 to Alberto\nassign 7 to Mansur\n"
    ok = client.post(form_path, data={"csrf": csrf, "orders": good, "action": "check"})
    assert ok.status_code == 200 and "valid" in ok.text and gral_store.pending("g") == {}
    posted = client.post(form_path, data={"csrf": csrf, "orders": good, "action": "submit"})
    assert posted.status_code == 303           # POST/redirect/GET: a reload sends nothing
    assert posted.headers["location"] == form_path + "&sent=stored"
    stored = client.get(posted.headers["location"])
    assert stored.status_code == 200 and "Your orders are stored" in stored.text
    understood = service.check_orders(gral_store, "g", "Anna", good, "x").understood
    for line in understood:
        assert line in stored.text or line.replace('"', "&#34;") in stored.text
    pending = gral_store.pending("g")["Anna"]
    assert pending.text == good and pending.for_turn == 1
    again = client.get(form_path)
    assert "are in" in again.text and "assign 7 to Mansur" in again.text   # pre-filled
    withdrawn = client.post(form_path, data={"csrf": csrf, "orders": "withdraw",
                                             "action": "submit"}, follow_redirects=True)
    assert "Your pending orders are withdrawn" in withdrawn.text and gral_store.pending("g") == {}


def test_the_newer_turn_and_the_earlier_turns(gral_store, make_client, tmp_path):
    client = make_client(gral_store.path)
    first = links(gral_store, "g")
    for name in ("Anna", "Bert", "Cora"):
        service.submit_orders(gral_store, "g", name, "assign 10 to Alberto\n", "o")
    service.run_turn(gral_store, "g", output=tmp_path / "out")
    second = links(gral_store, "g")
    old = client.get(first["Anna"])
    assert old.status_code == 200 and "A newer turn has been processed" in old.text
    assert second["Anna"].replace("&", "&amp;") in old.text
    assert "/orders?h=" not in old.text            # orders are sent from the latest turn only
    new = client.get(second["Anna"])
    assert "A newer turn" not in new.text and first["Anna"] in new.text   # turn 0 one click away
    stale_form = client.get(first["Anna"].replace("?h=", "/orders?h="))
    assert "Turn 0 is over" in stale_form.text and "<textarea" not in stale_form.text
    csrf = csrf_of(client.get(second["Anna"].replace("?h=", "/orders?h=")).text)
    late = client.post(first["Anna"].replace("?h=", "/orders?h="),
                       data={"csrf": csrf, "orders": "assign 5 to Mansur", "action": "submit"})
    assert late.status_code in (403, 409) and gral_store.pending("g") == {}


def test_the_moderator_signs_in_follows_the_game_and_runs_the_turn(gral_store, make_client,
                                                                   tmp_path):
    client = make_client(gral_store.path, output=tmp_path / "out")
    assert "Password" in client.get("/moderator").text
    assert client.get("/moderator/game/g").status_code == 303     # signed out: to sign-in
    csrf = csrf_of(client.get("/moderator").text)
    wrong = client.post("/moderator/login", data={"csrf": csrf, "password": "nope"})
    assert wrong.status_code == 403 and "Wrong password" in wrong.text
    login(client)
    games = client.get("/moderator")
    assert games.status_code == 200 and "/moderator/game/g" in games.text
    for name in ("Anna", "Bert"):
        service.submit_orders(gral_store, "g", name, "assign 10 to Alberto\n", "o")
    page = client.get("/moderator/game/g")
    assert "Adjudicate turn 1" in page.text and "Anna" in page.text
    assert page.text.count("<summary>in (") == 2
    assert "<pre>assign 10 to Alberto\n</pre>" in page.text     # the orders, as sent
    for p in gral_store.game("g").players:
        report = client.get(f"/moderator/game/g/view/{p.slug}")
        assert report.status_code == 200 and p.name in report.text
        assert p.token not in report.text
    service.submit_orders(gral_store, "g", "Cora", "assign 10 to Alberto\n", "o")
    ran = client.post("/moderator/game/g/turn", data={"csrf": csrf_of(page.text),
                                                      "expect": "0"})
    assert ran.status_code == 200 and "Turn 1 processed" in ran.text
    assert gral_store.turn("g").number == 1
    assert (tmp_path / "out" / "g" / "turn-001" / "anna.pdf").exists()
    twice = client.post("/moderator/game/g/turn", data={"csrf": csrf_of(page.text),
                                                        "expect": "0"})
    assert twice.status_code == 409 and gral_store.turn("g").number == 1
    out = client.post("/moderator/logout", data={"csrf": csrf_of(page.text)})
    assert out.status_code == 303
    assert client.get("/moderator/game/g").status_code == 303


def test_the_moderator_takes_back_a_turn_on_the_page_and_releases_the_hold(
        gral_store, make_client, tmp_path):
    """``companion rewind`` on the moderator's page: a turn to keep, a box to tick; refusals
    (no tick, no such turn, an old page, not signed in) change nothing; the turn taken back is
    listed with its reason, its orders are pending again, a mail game is held until released."""
    out = tmp_path / "out"
    client = make_client(gral_store.path, output=out)
    for name in ("Anna", "Bert", "Cora"):
        service.submit_orders(gral_store, "g", name, "assign 10 to Alberto\n", "o")
    service.run_turn(gral_store, "g", output=out)
    with gral_store.transaction() as db:          # a play-by-email game
        db.execute("INSERT INTO mail_games (game_id, held, reminded_turn, mailed_turn) "
                   "VALUES ('g', 0, -1, 1)")
    before = gral_store.turn("g").hash
    signed_out = client.post("/moderator/game/g/rewind",
                             data={"csrf": "x", "expect": "1", "to": "0", "confirm": "yes"})
    assert signed_out.status_code == 403 and gral_store.turn("g").hash == before
    login(client)
    page = client.get("/moderator/game/g")
    assert "Take back turns" in page.text and "<option value=\"0\" selected>" in page.text
    assert "on hold" not in page.text
    csrf = csrf_of(page.text)

    def rewind(**fields):
        return client.post("/moderator/game/g/rewind", data={"csrf": csrf, **fields})

    unticked = rewind(expect="1", to="0", reason="late orders")
    assert unticked.status_code == 422 and "tick the box" in unticked.text
    assert 'value="late orders"' in unticked.text      # what was typed stays in the form
    for bad, says in (("1", "its latest"), ("7", "not one of them"), ("x", "not a turn number"),
                      ("", "not a turn number")):
        refused = rewind(expect="1", to=bad, confirm="yes")
        assert refused.status_code == 422 and says in refused.text, bad
    old_page = rewind(expect="0", to="0", confirm="yes")
    assert old_page.status_code == 409 and "the page was old" in old_page.text
    assert gral_store.turn("g").hash == before and gral_store.pending("g") == {}

    done = rewind(expect="1", to="0", confirm="yes", reason="Cora's   orders came\nlate")
    assert done.status_code == 200 and "Turn 1 taken back" in done.text
    assert gral_store.turn("g").number == 0 and sorted(gral_store.pending("g")) == [
        "Anna", "Bert", "Cora"]
    assert "Turns taken back" in done.text and "Cora&#39;s orders came late" in done.text
    assert (out / "g" / "rewound").is_dir() and not (out / "g" / "turn-001").exists()
    assert "Play by email is on hold" in done.text and "Take back turns" not in done.text
    assert service.mail_schedule(gral_store, "g")[1] is True
    game = gral_store.game("g")
    anna_gone = service.link(game, 1, "Anna", before).removeprefix(game.base_url)
    gone = client.get(anna_gone)
    latest = service.link(game, 0, "Anna", gral_store.turn("g").hash)
    assert gone.status_code == 410 and "took back turn 1" in gone.text
    assert latest.removeprefix(game.base_url) in gone.text.replace("&amp;", "&")
    assert "came" not in gone.text           # the moderator's reason is not the players'
    assert client.get(anna_gone.replace("?h=", "/orders?h=")).status_code == 410
    wrong = anna_gone[:-1] + ("0" if anna_gone[-1] != "0" else "1")
    assert client.get(wrong).status_code == 404
    bert = gral_store.game("g").player("Bert")
    assert client.get(anna_gone.replace(game.player("Anna").token, bert.token)).status_code \
        == 404                                   # another's token: the one 404

    csrf = csrf_of(done.text)
    released = client.post("/moderator/game/g/release",
                           data={"csrf": csrf, "expect": "0"})
    assert released.status_code == 200 and "Released" in released.text
    assert service.mail_schedule(gral_store, "g")[1] is False
    again = client.post("/moderator/game/g/release", data={"csrf": csrf, "expect": "0"})
    assert again.status_code == 409 and "not on hold" in again.text
    ran = client.post("/moderator/game/g/turn", data={"csrf": csrf, "expect": "0"})
    assert ran.status_code == 200 and gral_store.turn("g").hash == before   # the same dice
    assert client.get(anna_gone).status_code == 200     # the same turn: its link works again


def test_the_moderator_sets_the_deadline_and_holds_the_game_on_the_page(gral_store,
                                                                         make_client):
    """``companion deadline`` on the page: a time, a time from now or none; a bad one is said
    with what to write and changes nothing; Hold and Release."""
    client = make_client(gral_store.path)
    login(client)
    page = client.get("/moderator/game/g")
    assert "Set deadline" in page.text and "Hold (no turn runs by mail)" in page.text
    csrf = csrf_of(page.text)

    def post(what, **fields):
        return client.post(f"/moderator/game/g/{what}", data={"csrf": csrf, "expect": "0",
                                                              **fields})

    for far in ("+99999999d", "9999-12-31 23:59"):       # once a server failure
        assert post("deadline", when=far).status_code == 422
    bad = post("deadline", when="next tuesday")
    assert bad.status_code == 422 and "is not a deadline" in bad.text and "+2d" in bad.text
    assert 'value="next tuesday"' in bad.text and service.mail_schedule(gral_store, "g") == (
        None, False)
    done = post("deadline", when="2030-05-01 18:00")
    assert done.status_code == 200 and "Game g, turn 0: deadline 2030-05-01 18:00 UTC" in done.text
    assert "for the orders of turn 1" in done.text
    assert service.mail_schedule(gral_store, "g") == ("2030-05-01 18:00 UTC", False)
    assert "2030-05-01 18:00 UTC" in client.get("/moderator").text
    later = post("deadline", when="+2d")
    assert later.status_code == 200 and "Game g, turn 0: deadline " in later.text
    held = post("hold")
    assert held.status_code == 200 and "On hold" in held.text and "Release" in held.text
    assert service.mail_schedule(gral_store, "g")[1] is True
    assert post("hold").status_code == 409
    assert post("release").status_code == 200
    off = post("deadline", when="none")
    assert off.status_code == 200 and "no deadline" in off.text
    assert service.mail_schedule(gral_store, "g") == (None, False)
    assert post("deadline", when="+1d", expect="3").status_code == 409     # an old page


def test_the_moderator_gives_a_player_a_new_link_on_the_page(gral_store, make_client,
                                                              tmp_path):
    """``companion token`` on the page: the player's old link stops working (the one 404),
    the new one opens their report, which is written again; refusals change nothing."""
    out = tmp_path / "out"
    client = make_client(gral_store.path, output=out)
    old = links(gral_store, "g")["Bert"]
    assert client.get(old).status_code == 200
    login(client)
    page = client.get("/moderator/game/g")
    assert "New link" in page.text
    csrf = csrf_of(page.text)
    token = gral_store.game("g").player("Bert").token

    def post(**fields):
        return client.post("/moderator/game/g/token", data={"csrf": csrf, "expect": "0",
                                                            **fields})

    unticked = post(player="bert")
    assert unticked.status_code == 422 and "tick the box to give Bert a new link" in unticked.text
    assert '<option value="bert" selected>' in unticked.text
    assert post(player="zed", confirm="yes").status_code == 422
    assert gral_store.game("g").player("Bert").token == token
    done = post(player="bert", confirm="yes")
    assert done.status_code == 200 and "Bert has a new link." in done.text
    fresh = gral_store.game("g").player("Bert").token
    assert fresh != token and fresh in done.text and token not in done.text
    assert client.get(old).status_code == 404
    new = links(gral_store, "g")["Bert"]
    assert client.get(new).status_code == 200
    assert fresh in (out / "g" / "turn-000" / "bert.txt").read_text(encoding="utf-8")


def test_the_moderator_changes_a_players_address_on_the_page(gral_store, make_client):
    """``companion game address`` on the page: a bad address or none typed is said and
    changes nothing; a new one is recorded like every change; 'none' stops the mail."""
    client = make_client(gral_store.path)
    login(client)
    csrf = csrf_of(client.get("/moderator/game/g").text)

    def post(**fields):
        return client.post("/moderator/game/g/address", data={"csrf": csrf, "expect": "0",
                                                              **fields})

    for bad, says in (({"player": "cora", "address": "cora@"}, "name@example.org"),
                      ({"player": "cora", "address": "  "}, "give Cora&#39;s new address"),
                      ({"player": "nobody", "address": "x@example.org"}, "choose a player")):
        answer = post(**bad)
        assert answer.status_code == 422 and says in answer.text, bad
    assert gral_store.game("g").player("Cora").email is None
    done = post(player="cora", address="cora@example.org")
    assert done.status_code == 200 and "Cora: no address -&gt; cora@example.org." in done.text
    assert "Cora (cora@example.org)" in done.text
    off = post(player="cora", address="none")
    assert off.status_code == 200 and "no address (no mail)" in off.text
    assert gral_store.db.execute("SELECT old_email, new_email, message_id FROM "
                                 "mail_address_changes ORDER BY id").fetchall() == [
        (None, "cora@example.org", "moderator: the web page"),
        ("cora@example.org", "", "moderator: the web page")]


def test_a_seat_given_on_the_page_is_told_to_the_others_unless_a_correction(gral_store,
                                                                          make_client):
    """Once a game's reports were mailed, a new address given on the page is to be told to
    the other players by the next mail pass (companion.mail.seats), as ``companion game
    address`` does; the box 'a correction' tells nobody, and cancels what was still to tell.
    The page says what will be told, and that it holds nothing of the seat's."""
    gral_store.db.execute("INSERT INTO mail_games (game_id, mailed_turn) VALUES ('g', 0)")
    gral_store.db.commit()
    client = make_client(gral_store.path)
    login(client)
    page = client.get("/moderator/game/g").text
    assert 'name="quiet"' in page and "a correction" in page.lower()
    csrf = csrf_of(page)

    def post(**fields):
        return client.post("/moderator/game/g/address", data={"csrf": csrf, "expect": "0",
                                                              **fields})

    told = post(player="bert", address="bea@example.org")
    assert told.status_code == 200
    assert ("The other players are told by the next mail pass that Bert is played by a new "
            "player from turn 1 (nothing of the seat's address") in told.text.replace(
                "&#39;", "'")
    quiet = post(player="bert", address="bea@example.net", quiet="yes")
    assert quiet.status_code == 200 and "the other players are not told" in quiet.text
    assert "nor of the earlier change not told yet" in quiet.text
    assert gral_store.db.execute("SELECT new_email, announce, from_turn FROM "
                                 "mail_address_changes ORDER BY id").fetchall() == [
        ("bea@example.org", "quiet", 1), ("bea@example.net", "quiet", None)]


def test_without_a_password_the_moderators_page_stays_shut(gral_store):
    from starlette.testclient import TestClient

    from companion.web.app import create_app

    with TestClient(create_app(gral_store.path)) as client:
        page = client.get("/moderator")
        assert "No moderator password is set" in page.text and "<form" not in page.text


def test_game_set_base_url_and_serve_prints_it(cli):
    cli.ok("new", "gral", "g1", "--player", "Anna", "--player", "Bert", "--seed", "1")
    bad = cli("game", "set", "g1", "base-url", "https://x.org/a b")
    assert bad.code == 1 and "base URL" in bad.err
    for odd in ("ht%tp://x.org", "pbem.example.org/g", "://x.org", "1http://x.org"):
        bad = cli("game", "set", "g1", "base-url", odd)
        assert bad.code == 1 and "does not start with a scheme such as 'https:'" in bad.err, odd
    bad = cli("new", "gral", "g2", "--player", "Anna", "--player", "Bert", "--base-url", "x.org")
    assert bad.code == 1 and "scheme" in bad.err and "g2" not in cli.ok("list").out
    cli.ok("game", "set", "g1", "base-url", "https://pbem.example.org/")
    cli.ok("report", "g1")
    text = (cli.output / "g1" / "turn-000" / "anna.txt").read_text()
    assert "https://pbem.example.org/g1/0/anna." in text
    unknown = cli("game", "set", "g1", "colour", "red")
    assert unknown.code == 1 and "base-url" in unknown.err


def test_hash_password_command_and_the_config_file(cli, tmp_path):
    from companion.web.config import config_path, read_config, verify_password

    made = cli.ok("web", "hash-password", "--stdin", input=PASSWORD + "\n").out
    assert made.startswith("[web]\nmoderator_password_hash = \"scrypt$")
    short = cli("web", "hash-password", "--stdin", input="short\n")
    assert short.code == 1 and "too short" in short.err
    assert short.out == ""      # 'hash-password >> companion.toml' (README) appends no stray [web]
    store = tmp_path / "s.sqlite3"
    config_path(store).write_text(made + "max_failures = 5\n", encoding="utf-8")
    config = read_config(config_path(store))
    assert config.max_failures == 5
    assert verify_password(PASSWORD, config.moderator_password_hash)
    assert not verify_password(PASSWORD + "x", config.moderator_password_hash)
    config_path(store).write_text("[web]\nmoderator_password = \"plain\"\n", encoding="utf-8")
    import pytest

    from companion.errors import CompanionError

    with pytest.raises(CompanionError, match="unknown key"):
        read_config(config_path(store))
    config_path(store).write_text("[web]\nmax_failures = \n", encoding="utf-8")
    with pytest.raises(CompanionError) as info:     # a TOML mistake at its line and column
        read_config(config_path(store))
    assert f"{config_path(store)}:2:16: error: TOML syntax" in info.value.render()


def test_pdf_route_renders_the_same_document(gral_store, make_client):
    """The PDF is rendered from the document the page shows (not read from the output)."""
    client = make_client(gral_store.path)
    game, turn = gral_store.game("g"), gral_store.turn("g")
    doc = service.report_documents(game, turn, only="Bert")["Bert"]
    path = links(gral_store, "g")["Bert"].replace("?h=", "/report.pdf?h=")
    assert client.get(path).content == render_pdf(doc)


def test_behind_a_proxy_prefix_the_links_keep_it(gral_store, password_hash):
    """``serve --root-path /pbem``: the proxy strips the prefix; every link and asset of the
    pages carries it again."""
    from starlette.testclient import TestClient

    from companion.web.app import create_app
    from companion.web.config import WebConfig

    app = create_app(gral_store.path, None, WebConfig(moderator_password_hash=password_hash))
    with TestClient(app, root_path="/pbem") as client:
        path = links(gral_store, "g")["Anna"]
        page = client.get(path).text
        assert 'href="/pbem/static/app.css"' in page
        assert "/pbem" + path.replace("?h=", "/orders?h=").replace("&", "&amp;") in page
        assert 'action="/pbem/moderator/login"' in client.get("/moderator").text


def test_a_turn_number_beyond_64_bits_is_no_such_turn_never_a_failure(cli, make_client):
    """'show --turn 99999999999999999999' failed with an OverflowError (SQLite holds 64-bit
    integers); now it is said like any turn that does not exist, on the command line and in the
    web view (the one 404, even with a real token)."""
    from companion.store import Store

    cli.ok("new", "gral", "g", "--player", "Anna", "--player", "Bert", "--seed", "5")
    huge = "99999999999999999999"
    result = cli("show", "g", "--turn", huge)
    assert result.code == 1 and f"game 'g' has no turn {huge}" in result.err
    assert "unexpectedly" not in result.err
    store = Store(cli.store)
    assert store.rewound_hashes("g", int(huge)) == []
    link = service.link(store.game("g"), 0, "Anna", store.turn("g").hash)
    client = make_client(cli.store)
    path = link[link.index("/g/"):].replace("/g/0/", f"/g/{huge}/")
    assert client.get(path).status_code == 404
    store.close()


def test_a_deadline_ends_with_its_turn(gral_store, make_client, tmp_path):
    """A deadline set for one turn is shown nowhere once that turn has been processed (the
    mail pass's own reading, ``deadlines.deadline_for``): not on the moderator's pages, not in
    'companion list' (``game_summaries``), not on the player's pages."""
    client = make_client(gral_store.path, output=tmp_path / "out")
    login(client)
    csrf = csrf_of(client.get("/moderator/game/g").text)
    set_it = client.post("/moderator/game/g/deadline",
                         data={"csrf": csrf, "expect": "0", "when": "2030-05-01 18:00"})
    assert set_it.status_code == 200
    anna = links(gral_store, "g")["Anna"]
    assert "Deadline: 2030-05-01 18:00 UTC" in client.get(anna.replace("?h=", "/orders?h=")).text
    assert "2030-05-01 18:00 UTC (orders of turn 1)" in client.get("/moderator/game/g").text
    ran = client.post("/moderator/game/g/turn", data={"csrf": csrf, "expect": "0",
                                                      "confirm": "yes"})
    assert ran.status_code == 200 and gral_store.turn("g").number == 1
    assert service.mail_schedule(gral_store, "g") == (None, False)
    assert [g["deadline"] for g in service.game_summaries(gral_store)] == [None]
    anna = links(gral_store, "g")["Anna"]
    for path in ("/moderator", "/moderator/game/g", anna, anna.replace("?h=", "/orders?h=")):
        assert "2030-05-01" not in client.get(path).text, path


def test_waiting_for_leaves_out_those_whose_orders_are_in(gral_store, make_client):
    """The game's page says whom the game waits for as the games' list does: not Anna, whose
    orders are in."""
    client = make_client(gral_store.path)
    login(client)
    service.submit_orders(gral_store, "g", "Anna", "assign 10 to Alberto\n", "o")
    page = client.get("/moderator/game/g").text
    assert "<dt>Waiting for</dt><dd>Bert, Cora</dd>" in page
    assert "<td>Bert, Cora</td>" in client.get("/moderator").text


def test_orders_typed_on_a_page_the_turn_left_behind_are_kept(gral_store, make_client,
                                                              tmp_path):
    """The turn runs while the form is open: nothing is stored, and the text comes back in the
    new turn's form (sent from there, it is stored for the new turn)."""
    client = make_client(gral_store.path)
    old = links(gral_store, "g")["Anna"].replace("?h=", "/orders?h=")
    csrf = csrf_of(client.get(old).text)
    for name in ("Anna", "Bert", "Cora"):
        service.submit_orders(gral_store, "g", name, "assign 10 to Alberto\n", "o")
    service.run_turn(gral_store, "g", output=tmp_path / "out")
    typed = "assign 5 to Mansur\nassign 5 to Alberto\n"
    late = client.post(old, data={"csrf": csrf, "orders": typed, "action": "submit"})
    assert late.status_code == 409 and gral_store.pending("g") == {}
    assert "Turn 1 was processed after this form was opened" in late.text
    new = links(gral_store, "g")["Anna"].replace("?h=", "/orders?h=")
    assert f'action="{new.replace("&", "&amp;")}"' in late.text       # the new turn's form
    assert f">{typed}</textarea>" in late.text and "are awaited" in late.text
    again = client.post(new, data={"csrf": csrf_of(late.text), "orders": typed,
                                   "action": "submit"})
    assert again.status_code == 303 and gral_store.pending("g")["Anna"].for_turn == 2


def test_orders_within_the_character_limit_are_never_too_large(gral_store, make_client):
    """19,999 'é' (six bytes each, form-encoded) are within the 20,000 characters: read and
    checked, not refused for their bytes; one character over is refused and kept."""
    client = make_client(gral_store.path)
    form = links(gral_store, "g")["Anna"].replace("?h=", "/orders?h=")
    csrf = csrf_of(client.get(form).text)
    for text in ("é" * 19_999, "😀" * 20_000):
        answer = client.post(form, data={"csrf": csrf, "orders": text, "action": "check"})
        assert answer.status_code == 422 and "nothing was stored" in answer.text
    over = client.post(form, data={"csrf": csrf, "orders": "é" * 20_001, "action": "submit"})
    assert over.status_code == 413 and "20,001 characters long" in over.text
    assert "é" * 20_001 in over.text and gral_store.pending("g") == {}


def test_each_state_of_the_order_page_says_one_thing(gral_store, make_client, tmp_path,
                                                     monkeypatch):
    """An earlier turn's order page: over, with the latest turn's link (no 'not stored', no
    deadline, nothing awaited); a finished game: no orders offered, nothing asked."""
    from companion.registry import get_kind

    client = make_client(gral_store.path)
    service.set_schedule(gral_store, "g", "2030-05-01 18:00")
    old = links(gral_store, "g")["Anna"].replace("?h=", "/orders?h=")
    for name in ("Anna", "Bert", "Cora"):
        service.submit_orders(gral_store, "g", name, "assign 10 to Alberto\n", "o")
    service.run_turn(gral_store, "g", output=tmp_path / "out")
    service.set_schedule(gral_store, "g", "2030-06-01 18:00")
    page = client.get(old).text
    assert "Turn 0 is over" in page and "Open turn 1" in page
    new = links(gral_store, "g")["Anna"].replace("?h=", "/orders?h=")
    assert new.replace("&", "&amp;") in page
    for never in ("not stored", "awaited", "Deadline", "2030", "<textarea", "for turn 1"):
        assert never not in page, never
    monkeypatch.setattr(get_kind("gral"), "is_over", lambda state: True)
    over = client.get(new).text
    assert "The game is over: no orders are asked for." in over
    for never in ("Nothing is asked", "you may still send", "Deadline", "<textarea",
                  "awaited"):
        assert never not in over, never


def test_a_deadline_not_in_the_future_is_refused(gral_store, make_client):
    """'2020-01-01 00:00' or '+0d' would run the turn at the next mail pass: refused, said
    why, nothing changed (the same check as 'companion deadline')."""
    client = make_client(gral_store.path)
    login(client)
    csrf = csrf_of(client.get("/moderator/game/g").text)
    for when in ("2020-01-01 00:00", "+0d", "0"):
        answer = client.post("/moderator/game/g/deadline",
                             data={"csrf": csrf, "expect": "0", "when": when})
        assert answer.status_code == 422 and "is not in the future" in answer.text, when
        assert "+2d" in answer.text and f'value="{when}"' in answer.text
    assert service.mail_schedule(gral_store, "g") == (None, False)


def test_running_a_turn_with_orders_missing_needs_a_ticked_box(gral_store, make_client,
                                                               tmp_path):
    """'Adjudicate' with orders missing says whose and asks for the box, as taking turns back
    and a new link do; with every order in, one tap runs it."""
    client = make_client(gral_store.path, output=tmp_path / "out")
    login(client)
    for name in ("Anna", "Bert", "Cora"):
        service.submit_orders(gral_store, "g", name, "assign 10 to Alberto\n", "o")
    page = client.get("/moderator/game/g").text
    assert "Yes, run turn" not in page
    csrf = csrf_of(page)
    one_tap = client.post("/moderator/game/g/turn", data={"csrf": csrf, "expect": "0"})
    assert one_tap.status_code == 200 and gral_store.turn("g").number == 1
    awaited = service.game_summaries(gral_store)[0]["awaited"]
    assert sorted(awaited) == ["Anna", "Bert", "Cora"]
    page = client.get("/moderator/game/g").text
    assert f"Yes, run turn 2 without orders from {', '.join(awaited)}" in page
    refused = client.post("/moderator/game/g/turn", data={"csrf": csrf, "expect": "1"})
    assert refused.status_code == 422 and gral_store.turn("g").number == 1
    assert f"no orders yet from {', '.join(awaited)}: tick the box to run turn 2" in refused.text
    ran = client.post("/moderator/game/g/turn", data={"csrf": csrf, "expect": "1",
                                                      "confirm": "yes"})
    assert ran.status_code == 200 and gral_store.turn("g").number == 2


def test_incomplete_forms_and_unknown_actions_are_said_as_such(gral_store, make_client):
    """A moderator's form without its turn number is incomplete (not 'the game had moved
    on'); an order form asking for anything but Check or Submit is refused, the text kept."""
    client = make_client(gral_store.path)
    login(client)
    csrf = csrf_of(client.get("/moderator/game/g").text)
    for fields in ({}, {"expect": "x"}, {"expect": ""}):
        answer = client.post("/moderator/game/g/hold", data={"csrf": csrf, **fields})
        assert answer.status_code == 400 and "The form is incomplete" in answer.text
        assert "moved on" not in answer.text
    assert service.mail_schedule(gral_store, "g") == (None, False)
    form = links(gral_store, "g")["Anna"].replace("?h=", "/orders?h=")
    csrf = csrf_of(client.get(form).text)
    answer = client.post(form, data={"csrf": csrf, "orders": "assign 10 to Alberto",
                                     "action": "delete"})
    assert answer.status_code == 400 and "asked for &#39;delete&#39;" in answer.text
    assert ">assign 10 to Alberto</textarea>" in answer.text and gral_store.pending("g") == {}


def test_a_second_web_table_says_to_replace_the_hash(cli, tmp_path):
    """'companion web hash-password >> companion.toml' a second time (a new password) makes two
    [web] tables: the error says to replace the old line, not only that TOML refuses it."""
    from companion.errors import CompanionError
    from companion.web.config import read_config

    made = cli.ok("web", "hash-password", "--stdin", input=PASSWORD + "\n").out
    path = tmp_path / "companion.toml"
    path.write_text(made + made, encoding="utf-8")
    import pytest

    with pytest.raises(CompanionError) as caught:
        read_config(path)
    text = caught.value.render()
    assert "companion.toml:3:" in text and "twice" in text
    assert "replace the old moderator_password_hash line" in text


def test_a_phone_keyboard_leaves_orders_addresses_and_deadlines_as_typed(gral_store,
                                                                         make_client):
    """A phone's keyboard capitalises, corrects and 'completes' what is typed unless a field
    says not to: the order box left Safari's autocorrect on (it may turn the game's names,
    'Jallah', 'Yusuf', into dictionary words), and the moderator's address and deadline
    fields let a phone capitalise and correct them, with no '@' key offered for the
    address. Each field of free text now says no to all of it."""
    import re

    client = make_client(gral_store.path)
    orders = client.get(links(gral_store, "g")["Anna"].replace("?", "/orders?")).text
    login(client)
    page = client.get("/moderator/game/g").text
    fields = {"orders": re.search(r'<textarea id="orders"[^>]*>', orders).group(0),
              "address": re.search(r'<input id="address"[^>]*>', page).group(0),
              "when": re.search(r'<input id="when"[^>]*>', page).group(0)}
    for name, tag in fields.items():
        for attribute in ('autocapitalize="none"', 'autocorrect="off"', 'spellcheck="false"',
                          'autocomplete="off"'):
            assert attribute in tag, (name, attribute, tag)
    assert 'inputmode="email"' in fields["address"] and 'type="text"' in fields["address"]


def test_the_moderators_page_of_a_finished_game_names_no_next_turn(gral_store, make_client,
                                                                    monkeypatch):
    """A finished game has no next turn: its players' table asks for no 'Orders for turn 1',
    and nothing offers to run one."""
    from companion.registry import get_kind

    client = make_client(gral_store.path)
    login(client)
    assert "Orders for turn 1" in client.get("/moderator/game/g").text
    monkeypatch.setattr(get_kind("gral"), "is_over", lambda state: True)
    page = client.get("/moderator/game/g").text
    for never in ("for turn 1", "turn 1", "Adjudicate"):
        assert never not in page, never
    assert "<th>Orders</th>" in page


def test_a_long_game_lists_the_turns_near_the_page_and_folds_the_rest():
    """Turn 20 of a 40-turn game: the list under the report holds turn 0, turns 18 to 22 and
    the latest (a phone does not scroll past 41 lines of links), every turn in a fold; a game
    of 12 turns or fewer lists them all as before."""
    import re

    from companion.render.report_html import TURNS_SHOWN, render_html

    def page(count: int, current: int) -> str:
        turns = [{"number": n, "date": "2027-01-01 00:00 UTC", "current": n == current,
                  "url": f"/g/{n}/public?h=x"} for n in range(count)]
        doc = {"title": "T", "header": [], "sections": [], "footer": "f"}
        return render_html(doc, {"turns": turns})

    html = page(41, 20)
    shown, fold = html.split('<details class="turns">')
    listed = [int(n) for n in re.findall(r"turn (\d+)</", shown.split('id="turns"')[1])]
    assert listed == [0, 18, 19, 20, 21, 22, 40], listed
    assert "<summary>Every turn (41)</summary>" in fold
    assert len(re.findall(r"<li>", fold)) == 41 and "<strong>turn 20</strong>" in fold
    short = page(TURNS_SHOWN, 3)
    assert "<details" not in short and len(re.findall(r"<li>", short)) == TURNS_SHOWN


def test_the_moderators_list_shows_each_games_state_beside_its_turn(gral_store, make_client):
    """Whether a game runs, is held or is over is in the fourth column, seen on a phone
    without scrolling the table sideways (orders, awaited and deadline come after)."""
    import re

    client = make_client(gral_store.path)
    login(client)
    page = client.get("/moderator").text
    heads = re.findall(r"<th>([^<]*)</th>", page)
    assert heads[:4] == ["Game", "Kind", "Turn", "State"], heads
    row = re.search(r"<tr><td><a [^>]*>g</a></td>(.*?)</tr>", page).group(1)
    assert re.findall(r"<td>([^<]*)</td>", row)[:3] == ["gral", "0", "running"], row


def test_a_long_order_form_line_wraps_under_its_own_start_on_a_phone():
    """Each line of an order form is a block of its own whose wrapped part is indented
    deeper than any line begins (app.css, pre.code .line), so on a phone a question's
    explanation does not run on at the left margin as if it were the next line."""
    import re

    from companion.render.report_html import render_html

    doc = {"title": "T", "header": [], "footer": "f", "sections": [
        {"title": "Order form", "blocks": [{"type": "code", "lines": [
            "play <card> [choices]     a card from your hand (in the order to play)",
            "    taking <keeper>", "keep none"]}]}]}
    html = render_html(doc, {})
    code = re.search(r'<pre class="code">(.*?)</pre>', html, re.S).group(1)
    spans = re.findall(r'<span class="([^"]+)">([^<]*)</span>', code)
    assert [cls for cls, _ in spans] == ["line", "line sub", "line"], spans
    assert [text for _, text in spans] == [
        "play &lt;card&gt; [choices]     a card from your hand (in the order to play)\n",
        "    taking &lt;keeper&gt;\n", "keep none\n"]
    css = (ROOT / "templates" / "web" / "static" / "app.css").read_text()
    assert "pre.code .line { display: block;" in css and "pre.code .line.sub" in css
