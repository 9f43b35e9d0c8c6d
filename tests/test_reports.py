"""Turn reports: fonts embedded, names printed exactly, QR codes readable, secrets kept.

Secrecy is tested by non-interference: changing another player's secrets (their sheet, their
standing orders, their private events) must not change a single byte of this player's PDF or
text report, nor of the public report.
"""
from __future__ import annotations

import copy
import io

import pypdfium2 as pdfium
import pytest
from pypdf import PdfReader

from companion import service
from companion.render.report_pdf import render_pdf
from companion.render.report_text import render_text
from companion.store import Store

AWKWARD = ['<b>Bo & "Jo"</b>', "Jörg Ünal", "Борис Годунов", "Σωκράτης"]


@pytest.fixture
def game(tmp_path, fixed_date):
    store = Store(tmp_path / "s.sqlite3", create=True)
    service.new_game(store, "gral", "g", AWKWARD, seed="5", option_args=["first=Jörg"],
                     output=tmp_path / "out")
    service.submit_orders(store, "g", AWKWARD[0], "assign 10+4 to Alberto\nobject Alberto up to all",
                          "a")
    service.submit_orders(store, "g", AWKWARD[1], "assign 9 to Mansur\nassign 2 to Kaspar", "b")
    service.submit_orders(store, "g", AWKWARD[2], "assign 8+1 to Tobias", "c")
    service.run_turn(store, "g", output=tmp_path / "out")
    service.submit_orders(store, "g", AWKWARD[1], "move Alberto to Chartres insist 3", "b")
    service.submit_orders(store, "g", AWKWARD[3], "assign 7 to Adam\nobject any up to 2", "d")
    service.run_turn(store, "g", output=tmp_path / "out")
    return store, tmp_path / "out" / "g" / "turn-002"


def pdf_text(data: bytes) -> str:
    doc = pdfium.PdfDocument(data)
    return "\n".join(doc[i].get_textpage().get_text_range() for i in range(len(doc)))


def test_every_font_is_embedded_and_pages_are_a4(game):
    _, folder = game
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

    _, folder = game
    for path in sorted(folder.glob("*.pdf")):
        job = pikepdf.Job(["qpdf", "--check", str(path)])
        job.run()
        assert job.exit_code == 0 and not job.has_warnings, path.name


def test_names_print_exactly_as_typed(game):
    _, folder = game
    text = pdf_text((folder / "public.pdf").read_bytes())
    compact = text.replace("\r", "")
    for name in AWKWARD:
        assert name in compact, name
    assert "\ufffd" not in compact
    txt = (folder / "public.txt").read_text()
    for name in AWKWARD:
        assert name in txt


def test_qr_codes_decode_to_each_viewers_own_link(game):
    import zxingcpp

    store, folder = game
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
    store, folder = game
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


def scrambled(state: dict, owner: str) -> dict:
    """The same position, with every secret of ``owner`` changed."""
    other = copy.deepcopy(state)
    other["sheets"][owner] = {"units": {"A1": "yusuf-ibn-tariq", "B9": "elias-rosenthal"},
                              "paid": other["sheets"][owner]["paid"]}
    other["standing"][owner] = [{"initiate": None, "to": "paris", "from": None, "grail": True,
                                 "blowing": None, "by": None, "except_by": None, "ending": False,
                                 "limit": 77}]
    other["events"] = [dict(e, text=e["text"] + " (secret detail)") if e["to"] == [owner] else e
                       for e in other["events"]]
    other["events"].append({"kind": "assign", "text": "A private note for the owner only.",
                            "to": [owner]})
    return other


def render_all(game_record, turn) -> dict[str, bytes]:
    docs = service.report_documents(game_record, turn)
    return {v: render_pdf(doc) + render_text(doc).encode() for v, doc in docs.items()}


def test_non_interference_of_secrets(game):
    store, _ = game
    g = store.game("g")
    turn = store.turn("g")
    base = render_all(g, turn)
    for owner in [p.name for p in g.players]:
        changed = copy.copy(turn)
        changed.state = scrambled(turn.state, owner)
        after = render_all(g, changed)
        for viewer, data in base.items():
            if viewer == owner:
                assert after[viewer] != data, "the owner's own report must show the change"
            else:
                assert after[viewer] == data, f"{viewer}'s report depends on {owner}'s secrets"


def test_views_hold_only_the_viewers_secrets(game):
    from companion.registry import get_kind

    store, _ = game
    state = store.turn("g").state
    kind = get_kind("gral")
    for name in AWKWARD:
        view = kind.view(state, name)
        assert view["sheet"]["player"] == name and "sheets" not in view
        assert "standing_all" not in view
    public = kind.view(state, "public")
    assert "sheet" not in public and "sheets" not in public and "standing" not in public


def test_same_state_same_bytes(game):
    store, folder = game
    g = store.game("g")
    turn = store.turn("g")
    docs = service.report_documents(g, turn)
    for viewer, doc in docs.items():
        name = "public" if viewer == "public" else g.player(viewer).slug
        assert render_pdf(doc) == (folder / f"{name}.pdf").read_bytes()
        assert render_text(doc) == (folder / f"{name}.txt").read_text()
