"""Turn reports of every registered kind: fonts embedded, names printed exactly, QR codes
readable, secrets kept.

Secrecy is tested by non-interference: changing another player's secrets (their sheet or hand,
their standing orders, their private events: tests/every_kind.py) must not change a single byte
of this player's PDF or text report, nor of the public report. Each test runs over every
playable kind in the registry, on a game played a few turns with orders from the kind's own
``options_for``; a new kind is covered as soon as it is registered.
"""
from __future__ import annotations

import copy

import pypdfium2 as pdfium
import pytest
from pypdf import PdfReader

from companion import service
from companion.registry import get_kind
from companion.render.report_pdf import render_pdf
from companion.render.report_text import render_text
from companion.store import Store
from tests.every_kind import AWKWARD, PLAYABLE, SECRETS, play, players_for, scrambled
from tests.pdftext import pdf_text

EPOCH, ENTROPY = "1798761600", "tests"   # as tests/conftest.py's fixed_date and fixed_entropy


@pytest.fixture(scope="module", params=PLAYABLE)
def game(request, tmp_path_factory):
    """(kind id, store, the latest turn's report folder) of game "g" with four awkward names."""
    kind_id = request.param
    folder = tmp_path_factory.mktemp(f"reports-{kind_id}")
    with pytest.MonkeyPatch.context() as env:
        env.setenv("SOURCE_DATE_EPOCH", EPOCH)
        env.setenv("COMPANION_TEST_ENTROPY", ENTROPY)
        store = Store(folder / "s.sqlite3", create=True)
        play(store, kind_id, "g", players_for(kind_id, 4), output=folder / "out")
    turn = store.turn("g")
    assert turn.number >= 1, f"{kind_id}: no turn was played"
    yield kind_id, store, folder / "out" / "g" / f"turn-{turn.number:03d}"
    store.close()


@pytest.fixture(scope="module")
def gral_game(tmp_path_factory):
    """A Gral game with hand-written orders (for the Gral-specific test below)."""
    folder = tmp_path_factory.mktemp("reports-gral-orders")
    with pytest.MonkeyPatch.context() as env:
        env.setenv("SOURCE_DATE_EPOCH", EPOCH)
        env.setenv("COMPANION_TEST_ENTROPY", ENTROPY)
        store = Store(folder / "s.sqlite3", create=True)
        out = folder / "out"
        service.new_game(store, "gral", "g", AWKWARD, seed="5", option_args=["first=Jörg"],
                         output=out)
        service.submit_orders(store, "g", AWKWARD[0],
                              "assign 10+4 to Alberto\nobject Alberto up to all", "a")
        service.submit_orders(store, "g", AWKWARD[1], "assign 9 to Mansur\nassign 2 to Kaspar",
                              "b")
        service.submit_orders(store, "g", AWKWARD[2], "assign 8+1 to Tobias", "c")
        service.run_turn(store, "g", output=out)
        service.submit_orders(store, "g", AWKWARD[1], "move Alberto to Chartres insist 3", "b")
        service.submit_orders(store, "g", AWKWARD[3], "assign 7 to Adam\nobject any up to 2",
                              "d")
        service.run_turn(store, "g", output=out)
    yield store
    store.close()


def test_every_font_is_embedded_and_pages_are_a4(game):
    _, _, folder = game
    assert sorted(folder.glob("*.pdf"))
    for path in folder.glob("*.pdf"):
        reader = PdfReader(path)
        assert reader.metadata.title and reader.metadata.creator.startswith("companion")
        for page in reader.pages:
            assert [round(float(x), 2) for x in page.mediabox[2:]] == [595.28, 841.89]
            fonts = page["/Resources"]["/Font"]
            for ref in fonts.values():
                font = ref.get_object()
                descendants = font.get("/DescendantFonts")
                target = descendants[0].get_object() if descendants else font
                descriptor = target["/FontDescriptor"].get_object()
                assert "/FontFile2" in descriptor, f"{path.name}: {font['/BaseFont']} not embedded"


def test_reports_pass_qpdf_check(game):
    import pikepdf

    _, _, folder = game
    for path in sorted(folder.glob("*.pdf")):
        job = pikepdf.Job(["qpdf", "--check", str(path)])
        job.run()
        assert job.exit_code == 0 and not job.has_warnings, path.name


def test_names_print_exactly_as_typed(game):
    kind_id, _, folder = game
    text = pdf_text((folder / "public.pdf").read_bytes())
    compact = text.replace("\r", "")
    for name in players_for(kind_id, 4):
        assert name in compact, name
    assert "\ufffd" not in compact
    txt = (folder / "public.txt").read_text()
    for name in players_for(kind_id, 4):
        assert name in txt


def test_qr_codes_decode_to_each_viewers_own_link(game):
    import zxingcpp

    _, store, folder = game
    g = store.game("g")
    turn = store.turn("g")
    for viewer, filename in [("public", "public.pdf")] + [(p.name, p.slug + ".pdf")
                                                          for p in g.players]:
        doc = pdfium.PdfDocument((folder / filename).read_bytes())
        image = doc[0].render(scale=3).to_pil()
        found = zxingcpp.read_barcodes(image)
        assert len(found) == 1, filename
        assert found[0].text == service.link(g, turn.number, viewer, turn.hash)
        opened = service.open_payload(store, found[0].text)
        assert opened.viewer == viewer and opened.matches


def test_links_never_appear_in_other_reports(game):
    _, store, folder = game
    g = store.game("g")
    tokens = {p.name: p.token for p in g.players}
    for p in g.players:
        for other in g.players:
            if other.name == p.name:
                continue
            assert tokens[other.name] not in (folder / f"{p.slug}.txt").read_text()
            assert tokens[other.name] not in pdf_text((folder / f"{p.slug}.pdf").read_bytes())
    public = (folder / "public.txt").read_text() + pdf_text((folder / "public.pdf").read_bytes())
    assert not any(t in public for t in tokens.values())


def render_all(game_record, turn) -> dict[str, bytes]:
    docs = service.report_documents(game_record, turn)
    return {v: render_pdf(doc) + render_text(doc).encode() for v, doc in docs.items()}


def test_non_interference_of_secrets(game):
    kind_id, store, _ = game
    g = store.game("g")
    turn = store.turn("g")
    base = render_all(g, turn)
    for owner in [p.name for p in g.players]:
        changed = copy.copy(turn)
        changed.state = scrambled(kind_id, turn.state, owner)
        after = render_all(g, changed)
        for viewer, data in base.items():
            if viewer == owner:
                assert after[viewer] != data, "the owner's own report must show the change"
            else:
                assert after[viewer] == data, f"{viewer}'s report depends on {owner}'s secrets"


def test_views_depend_only_on_the_viewers_own_secrets(game):
    """The view (from which the report is built) of another player or the public is unchanged
    when a player's secrets change, and that player's own view shows the change."""
    kind_id, store, _ = game
    kind = get_kind(kind_id)
    state = store.turn("g").state
    players = [p.name for p in store.game("g").players]
    for owner in players:
        other = scrambled(kind_id, state, owner)
        assert kind.view(other, owner) != kind.view(state, owner)
        for viewer in players + ["public"]:
            if viewer != owner:
                assert kind.view(other, viewer) == kind.view(state, viewer), (viewer, owner)


@pytest.mark.parametrize("kind_id", PLAYABLE)
def test_every_playable_kind_names_its_secrets(kind_id):
    """Besides private events, each kind says which parts of its state are a player's secrets
    (hands, sheets, standing orders...) so that the tests above change them too."""
    assert kind_id in SECRETS, f"add the secrets of '{kind_id}' to SECRETS in tests/every_kind.py"


def test_views_hold_only_the_viewers_secrets(gral_game):
    """Gral-specific by nature: the shape of a Gral view (one sheet, the viewer's own)."""
    state = gral_game.turn("g").state
    kind = get_kind("gral")
    for name in AWKWARD:
        view = kind.view(state, name)
        assert view["sheet"]["player"] == name and "sheets" not in view
        assert "standing_all" not in view
    public = kind.view(state, "public")
    assert "sheet" not in public and "sheets" not in public and "standing" not in public


def test_same_state_same_bytes(game):
    _, store, folder = game
    g = store.game("g")
    turn = store.turn("g")
    docs = service.report_documents(g, turn)
    for viewer, doc in docs.items():
        name = "public" if viewer == "public" else g.player(viewer).slug
        assert render_pdf(doc) == (folder / f"{name}.pdf").read_bytes()
        assert render_text(doc) == (folder / f"{name}.txt").read_text()
