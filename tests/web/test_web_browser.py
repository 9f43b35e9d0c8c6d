"""The path a player takes, in a real browser: Chromium headless (the Debian package
``chromium``, driven by Playwright) at a phone-sized viewport, against a real uvicorn server on
the loopback interface.

The QR code is decoded from the real PDF of a real game; the page it opens shows that player's
report and nothing of another's; orders typed with a mistake show the error at its line; the
corrected orders are accepted; the moderator signs in and runs the turn; the player's page then
links to the new turn. With COMPANION_TEST_ARTIFACTS=FOLDER set, screenshots of each page are kept
in FOLDER/web/ (tests/web/conftest.py, shot).
"""
from __future__ import annotations

import os
from pathlib import Path

import pytest

from companion import service
from companion.store import Store
from companion.web.config import WebConfig
from tests.every_kind import PLAYABLE, play, players_for
from tests.web.conftest import EPOCH, PASSWORD, shot
from tests.web.server import free_port, running

CHROMIUM = os.environ.get("COMPANION_CHROMIUM", "/usr/bin/chromium")
PHONE = {"viewport": {"width": 390, "height": 844}, "device_scale_factor": 2,
         "is_mobile": True, "has_touch": True}

READABLE_FIGURES = {"gral": "svg.gral-board", "grailccg": "svg.grailccg-england"}
"""The report figures drawn to be read on a phone as they are: every text 9 pixels or more."""

pytestmark = pytest.mark.skipif(
    not Path(CHROMIUM).exists(),
    reason=f"Chromium is not installed at {CHROMIUM}: install the Debian package 'chromium' "
           "(apt-get install chromium), or set COMPANION_CHROMIUM to its executable")


@pytest.fixture(scope="module")
def browser():
    playwright = pytest.importorskip("playwright.sync_api", reason="pip install playwright "
                                                                   "(the test extras)")
    with playwright.sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=CHROMIUM, headless=True,
                                     args=["--no-sandbox", "--disable-gpu"])
        yield chromium
        chromium.close()


def decode_qr(pdf: Path) -> str:
    import pypdfium2 as pdfium
    import zxingcpp

    image = pdfium.PdfDocument(pdf.read_bytes())[0].render(scale=3).to_pil()
    found = zxingcpp.read_barcodes(image)
    assert len(found) == 1, pdf
    return found[0].text


COLOURS = """() => {
    // WCAG 2 contrast of every text outside the figures (and of every text field) against the
    // background it is drawn on (the background colours of it and its ancestors, composed);
    // the page's own colours, and each figure's background and shadow (its paper panel)
    const rgba = c => { const m = c.match(/[\\d.]+/g).map(Number);
                        return [m[0], m[1], m[2], m.length > 3 ? m[3] : 1]; };
    const over = (top, below) => [0, 1, 2].map(i => top[i] * top[3] + below[i] * (1 - top[3]))
        .concat([1]);
    const lum = c => c.slice(0, 3).map(v => { v /= 255;
        return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); })
        .reduce((sum, v, i) => sum + v * [0.2126, 0.7152, 0.0722][i], 0);
    const ratio = (a, b) => { const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p);
                              return (x + 0.05) / (y + 0.05); };
    const behind = e => { const layers = [];
        for (let n = e; n; n = n.parentElement) {
            const c = rgba(getComputedStyle(n).backgroundColor);
            if (c[3] > 0) layers.push(c);
            if (c[3] >= 1) break;
        }
        return layers.reverse().reduce((below, top) => over(top, below), [255, 255, 255, 1]); };
    const low = [];
    let lowest = 99;
    for (const e of document.querySelectorAll('body *')) {
        const r = e.getBoundingClientRect();
        if (!r.width || !r.height || e.closest('svg')) continue;
        if (!e.matches('input[type=text], input[type=password], select, textarea')
            && ![...e.childNodes].some(n => n.nodeType === 3 && n.textContent.trim())) continue;
        const bg = behind(e);
        const c = ratio(over(rgba(getComputedStyle(e).color), bg), bg);
        lowest = Math.min(lowest, c);
        if (c < 4.5) low.push([e.tagName + '.' + e.className, Math.round(c * 100) / 100,
                               e.textContent.trim().slice(0, 20)]);
    }
    const body = getComputedStyle(document.body);
    return {lowest: Math.round(lowest * 100) / 100, low: low.slice(0, 5),
            body: [lum(rgba(body.backgroundColor)),
                   ratio(rgba(body.color), rgba(body.backgroundColor))],
            figures: [...document.querySelectorAll('figure .svg svg')].map(f => {
                const s = getComputedStyle(f);
                return [s.backgroundColor, lum(rgba(s.backgroundColor)), s.boxShadow];
            })};
}"""
"""The colours of the page in the scheme it is shown in (page.emulate_media(color_scheme=...)):
the lowest contrast of a text outside the figures and the texts below 4.5:1 (WCAG AA for body
text), the body's background luminance and text contrast, every figure's panel."""


def check_colours(page, scheme: str) -> dict:
    """The page in the light or the dark colour scheme (emulated: no new page load): every text
    outside the figures 4.5:1 or more against its background (so none is invisible); in the
    dark scheme a dark body with light text and each figure on a light panel as large as the
    figure; in the light scheme the figures as they always were, with no panel. After a form
    is sent the new page's text can be there before its stylesheet (a computed style then reads
    the browser's defaults): the page's "load" comes first."""
    page.wait_for_load_state("load")
    page.emulate_media(color_scheme=scheme)
    colours = page.evaluate(COLOURS)
    assert colours["low"] == [], (scheme, colours["low"])
    background, contrast = colours["body"]
    assert contrast >= 4.5, (scheme, contrast)
    for colour, luminance, shadow in colours["figures"]:
        if scheme == "dark":
            assert luminance > 0.8 and colour in shadow, (colour, luminance, shadow)
        else:
            assert colour == "rgba(0, 0, 0, 0)" and shadow == "none", (colour, shadow)
    assert background < 0.05 if scheme == "dark" else background == 1.0, (scheme, background)
    return colours


def test_a_player_scans_reads_and_sends_orders_and_the_moderator_runs_the_turn(
        browser, tmp_path, monkeypatch, password_hash):
    monkeypatch.setenv("SOURCE_DATE_EPOCH", EPOCH)
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    store = Store(tmp_path / "s.sqlite3", create=True)
    out = tmp_path / "out"
    service.new_game(store, "gral", "g", ["Anna", "Bert", "Cora"], seed="5", base_url=base,
                     output=out)
    game = store.game("g")
    link = decode_qr(out / "g" / "turn-000" / "anna.pdf")
    assert link == service.link(game, 0, "Anna", store.turn("g").hash)
    assert link.startswith(base + "/g/0/anna.")
    bert = game.player("Bert")
    requests, problems = [], []
    with running(store.path, out, WebConfig(moderator_password_hash=password_hash),
                 port=port):
        player = browser.new_context(**PHONE)
        player.set_default_timeout(10_000)
        page = player.new_page()
        page.on("request", lambda r: requests.append(r.url))
        page.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
        page.goto(link)
        assert page.title().startswith("g turn 0")
        body = page.inner_text("body")
        assert "Report for" in body and "Anna" in body and "Your influence sheet" in body
        assert bert.token not in page.content()
        assert page.locator("svg.gral-board").count() == 1
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= 390 + 1, "the page is wider than the phone"
        shot(page, "01-report-turn-0.png", full_page=True)

        page.click("text=Orders")
        page.fill("textarea#orders", "assign 10 to Alberto\nassign 7 to Nobodyhere\n")
        page.click("button[value=check]")
        errors = page.inner_text("#errors")
        assert "line 2, column" in errors, errors
        shot(page, "02-orders-error.png", full_page=True)
        check_colours(page, "light")
        check_colours(page, "dark")              # the listing of the error, the notices
        shot(page, "02-orders-error-dark.png", full_page=True)
        page.emulate_media(color_scheme="light")
        assert store.pending("g") == {}

        page.fill("textarea#orders", "assign 10 to Alberto\nassign 7 to Mansur\n")
        page.click("button[value=submit]")
        assert "Your orders are stored" in page.inner_text("#result")
        assert "Understood as" in page.inner_text("#understood")
        shot(page, "03-orders-accepted.png", full_page=True)
        assert store.pending("g")["Anna"].text == "assign 10 to Alberto\nassign 7 to Mansur\n"

        for name in ("Bert", "Cora"):
            service.submit_orders(store, "g", name, "assign 10 to Alberto\n", "o")
        moderator = browser.new_context(**PHONE, color_scheme="dark")    # at night
        moderator.set_default_timeout(20_000)
        mod = moderator.new_page()
        mod.goto(base + "/moderator")
        mod.fill("#password", PASSWORD)
        mod.click("button[type=submit]")
        mod.click("a[href$='/moderator/game/g']")
        assert "Adjudicate turn 1" in mod.inner_text("body")
        shot(mod, "04-moderator-game.png", full_page=True)
        mod.click("text=Adjudicate turn 1")
        assert "Turn 1 processed" in mod.inner_text("#result")
        check_colours(mod, "dark")
        shot(mod, "05-moderator-turn-run.png", full_page=True)
        assert store.turn("g").number == 1

        page.goto(link)
        assert "A newer turn has been processed" in page.inner_text("body")
        page.click("text=turn 1")
        turn1 = store.turn("g")
        assert page.url == service.link(store.game("g"), 1, "Anna", turn1.hash)
        assert page.locator("dl.header").inner_text().count("1") >= 1
        assert "A newer turn" not in page.inner_text("body")
        assert bert.token not in page.content()
        shot(page, "06-report-turn-1.png", full_page=True)
        assert decode_qr(out / "g" / "turn-001" / "anna.pdf") == page.url

        turn1_link = page.url              # the moderator takes turn 1 back (late orders)
        mod.select_option("select#to", "0")
        mod.fill("input#reason", "Bert's orders came late")
        mod.click("form.rewind button")
        assert "tick the box" in mod.inner_text("#result") and store.turn("g").number == 1
        mod.check("form.rewind input[name=confirm]")
        mod.click("form.rewind button")
        assert "Turn 1 taken back" in mod.inner_text("#result")
        assert "Bert's orders came late" in mod.inner_text("ul.rewound")
        shot(mod, "07-moderator-took-back.png", full_page=True)
        assert store.turn("g").number == 0 and len(store.pending("g")) == 3
        page.goto(turn1_link)
        assert "took back turn 1" in page.inner_text("body")
        page.click("text=Open turn 0")
        assert "Your influence sheet" in page.inner_text("body") and "/g/0/" in page.url
        shot(page, "08-player-turn-taken-back.png", full_page=True)
        player.close()
        moderator.close()
    assert requests and all(r.startswith(base + "/") for r in requests), requests
    assert not [p for p in problems if "Content Security Policy" in p], problems
    store.close()


@pytest.mark.parametrize("kind_id", PLAYABLE)
def test_every_kind_fits_a_phone(browser, tmp_path, monkeypatch, password_hash, kind_id):
    """Each game's report page, order form and the moderator's pages, a few turns into a game
    with awkward player names, fit a phone's width (390 CSS pixels): nothing to scroll
    sideways but a wide table or figure inside its own scrolling box; text outside the
    figures is at least 12 pixels, and every link or control standing alone (the bar's, the
    contents', the turns', buttons, folds, boxes to tick) at least 40 pixels high for a
    finger. The figures of the games whose report figure is drawn for a phone (READABLE_FIGURES)
    have every text at least 9 pixels high there, with no zooming: font size times the
    figure's scale on the screen. Each page is also seen in the dark colour scheme (emulated
    on the page loaded: check_colours), where it still fits, every text keeps 4.5:1, the
    figures lie on light panels and are as large as in the light scheme."""
    monkeypatch.setenv("SOURCE_DATE_EPOCH", EPOCH)
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    store = Store(tmp_path / "s.sqlite3", create=True)
    names = players_for(kind_id, 3)
    play(store, kind_id, "g", names, turns=3)
    service.set_base_url(store, "g", base)
    first = names[0]
    link = service.link(store.game("g"), store.turn("g").number, first, store.turn("g").hash)
    overflow = """() => {
        const wide = [];
        const limit = document.documentElement.clientWidth;
        for (const e of document.querySelectorAll('body *')) {
            const r = e.getBoundingClientRect();
            if (r.right > limit + 1 && !e.closest('.scroll, svg, pre, table')) {
                wide.push(e.tagName + '.' + e.className + ' ' + Math.round(r.right));
            }
        }
        return [document.documentElement.scrollWidth, wide.slice(0, 5)];
    }"""
    fingers = """() => {
        const bad = [];
        for (const e of document.querySelectorAll('body *')) {
            const r = e.getBoundingClientRect();
            if (!r.height || e.closest('svg')) continue;
            const own = [...e.childNodes].some(n => n.nodeType === 3 && n.textContent.trim());
            if (own && parseFloat(getComputedStyle(e).fontSize) < 12) {
                bad.push('small ' + e.tagName + ' ' + e.textContent.trim().slice(0, 20));
            }
            if (e.matches('.bar a, .bar button, .toc a, ol.turns a, footer a, td a, button, '
                          + 'summary, select, textarea, input[type=text], label.check')
                    && r.height < 40) {
                bad.push('tap ' + e.tagName + ' ' + Math.round(r.height) + ' '
                         + e.textContent.trim().slice(0, 20));
            }
        }
        return bad.slice(0, 5);
    }"""
    figure_texts = """(selector) => {
        const sizes = [];
        for (const t of document.querySelectorAll(selector + ' text')) {
            const px = parseFloat(getComputedStyle(t).fontSize) * t.getScreenCTM().a;
            sizes.push([Math.round(px * 100) / 100, t.textContent]);
        }
        return sizes;
    }"""
    figure_widths = """() => [...document.querySelectorAll('figure .svg svg')].map(
        f => Math.round(f.getBoundingClientRect().width * 100) / 100)"""
    header = """() => {
        const rows = [...document.querySelectorAll('dl.header > div')];
        const hash = document.querySelector('dl.header > div.token dd');
        const style = getComputedStyle(hash);
        return {height: document.querySelector('dl.header').getBoundingClientRect().height,
                rows: rows.length,
                lines: new Set(rows.map(r => Math.round(r.getBoundingClientRect().top))).size,
                hash: [style.fontFamily, parseFloat(style.fontSize),
                       hash.getBoundingClientRect().height]};
    }"""
    with running(store.path, None, WebConfig(moderator_password_hash=password_hash),
                 port=port):
        context = browser.new_context(**PHONE)
        context.set_default_timeout(20_000)
        page = context.new_page()
        pages = {"report": link, "orders": link.replace("?h=", "/orders?h=")}
        for name, url in pages.items():
            page.goto(url)
            width, wide = page.evaluate(overflow)
            shot(page, f"phone-{kind_id}-{name}.png", full_page=True)
            assert width <= 391 and not wide, (name, width, wide)
            assert page.evaluate(fingers) == [], name
            check_colours(page, "light")
            if name == "report":           # the header: short rows two to a line, the hash
                top = page.evaluate(header)  # (Chance commitment) small, in two lines
                assert top["height"] < 240 and top["lines"] < top["rows"], top
                assert "Mono" in top["hash"][0] and 12 <= top["hash"][1] < 16, top
                assert top["hash"][2] < 2.5 * 1.3 * top["hash"][1], top
                figures = page.evaluate(figure_widths)
                assert figures, "a report without a figure"
            if name == "report" and kind_id in READABLE_FIGURES:
                sizes = page.evaluate(figure_texts, READABLE_FIGURES[kind_id])
                assert sizes and min(sizes)[0] >= 9.0, min(sizes or [None])
            check_colours(page, "dark")
            width, wide = page.evaluate(overflow)
            assert width <= 391 and not wide, ("dark", name, width, wide)
            if name == "report":
                assert page.evaluate(figure_widths) == figures
                shot(page, f"phone-{kind_id}-{name}-dark.png")
                page.locator("figure .svg").first.scroll_into_view_if_needed()
                shot(page, f"phone-{kind_id}-{name}-dark-figure.png")
            page.emulate_media(color_scheme="light")
        page.goto(base + "/moderator")
        page.fill("#password", PASSWORD)
        page.click("button[type=submit]")
        for name, path in (("moderator", "/moderator"), ("moderator-game", "/moderator/game/g")):
            page.goto(base + path)
            width, wide = page.evaluate(overflow)
            shot(page, f"phone-{kind_id}-{name}.png", full_page=True)
            assert width <= 391 and not wide, (name, width, wide)
            assert page.evaluate(fingers) == [], name
            check_colours(page, "light")
            check_colours(page, "dark")
            page.emulate_media(color_scheme="light")
        context.close()
    store.close()


def test_long_names_and_reasons_fit_a_phone(browser, tmp_path, monkeypatch, password_hash):
    """A player name of the 40 characters allowed, without a space, and a reason for taking a
    turn back of 180 characters without a space: every page stays within a phone's 390 pixels
    (the words break; a table scrolls inside its own box)."""
    monkeypatch.setenv("SOURCE_DATE_EPOCH", EPOCH)
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    store = Store(tmp_path / "s.sqlite3", create=True)
    long_name = "Bartholomew" + "x" * 29
    assert len(long_name) == 40
    service.new_game(store, "gral", "g", [long_name, "Bert", "Cora"], seed="5", base_url=base)
    for _ in range(2):
        for name in (long_name, "Bert", "Cora"):
            lines = service.legal_options(store, "g", name)
            first = next((line for line in lines if not line.startswith("#")), None)
            service.submit_orders(store, "g", name, "assign 10 to Alberto\n"
                                  if store.turn("g").number == 0 else first or "# none", "o")
        service.run_turn(store, "g")
    service.rewind(store, "g", 1, None, "x" * 180)
    game, turn = store.game("g"), store.turn("g")
    slug = game.player(long_name).slug
    link = service.link(game, turn.number, long_name, turn.hash)
    with running(store.path, None, WebConfig(moderator_password_hash=password_hash),
                 port=port):
        context = browser.new_context(**PHONE)
        context.set_default_timeout(20_000)
        page = context.new_page()
        widths = {}
        for name, url in (("report", link), ("orders", link.replace("?h=", "/orders?h=")),
                          ("report-0", service.link(game, 0, long_name,
                                                    store.turn("g", 0).hash))):
            page.goto(url)
            widths[name] = page.evaluate("document.scrollingElement.scrollWidth")
            if name == "report":            # the name in the list of what happened
                assert long_name in " ".join(page.locator("ul.events").all_inner_texts())
        page.goto(base + "/moderator")
        page.fill("#password", PASSWORD)
        page.click("button[type=submit]")
        for name, path in (("games", "/moderator"), ("game", "/moderator/game/g"),
                           ("view", f"/moderator/game/g/view/{slug}")):
            page.goto(base + path)
            widths[name] = page.evaluate("document.scrollingElement.scrollWidth")
            if name == "game":
                assert "x" * 180 in page.inner_text("ul.rewound")
                shot(page, "phone-long-names-moderator.png", full_page=True)
        context.close()
    assert all(width <= 390 for width in widths.values()), widths
    store.close()


def test_a_koc_player_reads_the_closeup_of_his_area_on_a_phone(browser, tmp_path, monkeypatch):
    """Knights of Camelot on a phone (390 CSS pixels, no zooming): the close-up of the map
    around his knight comes before the whole map, and his area's name in it, every other name
    in it and its key are at least 9 pixels high (on the whole map the same name is a few
    pixels: too small to read without pinching). In a desktop's window the close-up is not
    blown up to the column's width (its cap, 30rem, from its labels: report_html.figure_fit),
    and the whole map is."""
    from companion.koc.kind import KIND
    from companion.koc.mapfigure import geometry

    monkeypatch.setenv("SOURCE_DATE_EPOCH", EPOCH)
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    store = Store(tmp_path / "s.sqlite3", create=True)
    service.new_game(store, "koc", "k", ["Anna", "Bert"], seed="3", base_url=base)
    game, turn = store.game("k"), store.turn("k")
    home = turn.state["knights"]["Anna"]["at"]["area"]
    lines = next(a["lines"] for a in geometry(KIND.world)["areas"] if a["name"] == home)
    measure = """([selector, wanted]) => [...document.querySelectorAll(selector)]
        .filter(t => wanted === null || t.textContent === wanted)
        .map(t => [t.textContent, t.getBoundingClientRect().height])"""
    with running(store.path, None, WebConfig(), port=port):
        context = browser.new_context(**PHONE)
        context.set_default_timeout(20_000)
        page = context.new_page()
        page.goto(service.link(game, turn.number, "Anna", turn.hash))
        assert page.locator("svg.koc-closeup").count() == 1
        order = page.evaluate("""() => {
            const [a, b] = [document.querySelector('svg.koc-closeup'),
                            document.querySelector('svg.koc-map')];
            return !!(a.compareDocumentPosition(b) & Node.DOCUMENT_POSITION_FOLLOWING);
        }""")
        assert order, "the close-up comes before the whole map"
        page.locator("svg.koc-closeup").scroll_into_view_if_needed()
        shot(page, "phone-koc-closeup.png")
        for line in lines:
            [(_, close)] = page.evaluate(measure, ["svg.koc-closeup text", line])
            [(_, whole)] = page.evaluate(measure, ["svg.koc-map > text", line])
            assert close >= 9.0, (line, close)
            assert whole < close / 2, (line, whole, close)
        for text, height in page.evaluate(measure, ["svg.koc-closeup text", None]):
            assert height >= 9.0, (text, height)
        assert page.evaluate("document.documentElement.scrollWidth") <= 391
        page.set_viewport_size({"width": 1280, "height": 900})
        sizes = page.evaluate("""() => ['svg.koc-closeup', 'svg.koc-map'].map(
            s => document.querySelector(s).getBoundingClientRect().width)""")
        assert sizes == [30 * 16, 40 * 16], sizes
        page.locator("svg.koc-closeup").scroll_into_view_if_needed()
        shot(page, "desktop-koc-closeup.png")
        context.close()
    store.close()
