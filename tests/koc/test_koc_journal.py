"""Knights of Camelot Adventure Journals (docs/koc-journal.md): the blank sheets in the kit, a
knight's journal filled from the saved game (his view only), the journal beside every turn's
report, and the history the log of turns is filled from."""
from __future__ import annotations

import copy
import io
import json
import re
from pathlib import Path

import pytest

from companion.engine.chance import Chance, seed_key
from companion.koc.kind import KIND

OPTIONS = {"missing": "default", "scenario": "basic", "first-player": "fixed", "rules": (),
           "knaves": ()}
PAPERS = {"a4": (595.28, 841.89), "letter": (612.0, 792.0)}


# ------------------------------------------------------------------------------ helpers
def pdf_text(data: bytes) -> str:
    """The PDF's text with all white space removed (line breaks fall anywhere)."""
    import pypdfium2 as pdfium

    pdf = pdfium.PdfDocument(data)
    try:
        text = "".join(page.get_textpage().get_text_range() for page in pdf)
    finally:
        pdf.close()
    return re.sub(r"\s+", "", text)


def squeezed(text: str) -> str:
    return re.sub(r"\s+", "", text)


def check_pdf(data: bytes, paper: str, tmp_path: Path) -> None:
    """Exact page size on every page, every font an embedded subset, qpdf --check clean."""
    import pikepdf
    from pypdf import PdfReader

    reader = PdfReader(io.BytesIO(data))
    assert reader.pages
    for page in reader.pages:
        box = page.mediabox
        assert (round(float(box.width), 2), round(float(box.height), 2)) == PAPERS[paper]
        fonts = (page.get("/Resources") or {}).get_object().get("/Font") or {}
        assert fonts
        for font in fonts.values():
            font = font.get_object()
            base = str(font["/BaseFont"])
            assert "/FontFile2" in font["/FontDescriptor"].get_object(), base
            assert base[7] == "+" and "Helvetica" not in base, base
    path = tmp_path / "check.pdf"
    path.write_bytes(data)
    job = pikepdf.Job(["qpdf", "--check", str(path)])   # libqpdf's own 'qpdf --check'
    job.run()
    assert job.exit_code == 0 and not job.has_warnings, "qpdf --check found problems"


def qr_payloads(data: bytes) -> list[str]:
    """The QR codes of a PDF, decoded."""
    import pypdfium2 as pdfium
    import zxingcpp

    pdf = pdfium.PdfDocument(data)
    out = [found.text for page in pdf
           for found in zxingcpp.read_barcodes(page.render(scale=3).to_pil())]
    pdf.close()
    return out


def new_state(players=("Anna", "Bert", "Cora"), **options) -> dict:
    state = KIND.create(list(players), dict(OPTIONS, **options), Chance(seed_key("7"), 0))
    state["events"] = []
    return state


ADVENTURE = {"id": 9, "kind": "adventure", "dest": "Tintagel", "why": "adventure 2:1 ...",
             "since": 2, "route": "direct", "walk": False, "needs": None, "awards": {},
             "penalty_vp": 0, "grace": 1, "delay": 0, "status": "done", "on_done": "adventure",
             "prophecy": True, "fulfilled": True,
             "adventure": {"key": "rescue", "id": "2:1", "label": "Rescue a maiden",
                           "values": {"vp": 6}, "marker": "C-3", "site": "Tintagel"}}


def filled(state: dict, player: str = "Anna") -> dict:
    """Every field of the journal set on ``player``'s knight; what the sheet must show."""
    rec = state["knights"][player]
    rec.update(cp=123, vp=9, poison=2, held_wl=12, luck=4, token=True, lord_summons=1,
               lady_summons=2, own_castle="Anselm's Keep", outlawed=["Tintagel"],
               exiles=["Cornwall"], enemies=["Sir Breuse"], oaths=["never_yield"],
               challenged=["Sir Gawaine"], enchantress="Morgan Le Fay", animal="hare",
               original_home=dict(rec["home"], castle="Camelot Castle"))
    rec["gear"]["shield"] = False
    rec["items"] = [{"key": "valiant_charger"}]
    rec["mascot"] = {"name": "a hound", "wl": 1}
    rec["arthur"] = {"favour": True, "bonus": 3, "task": "slay_giant"}
    rec["lady"] = {"name": "Lady Lyonesse", "castle": "Castle Perilous", "seduced": False}
    rec["office"] = {"key": "steward", "label": "High Steward", "since": 3}
    rec["knave"] = {"acts": {"piracy": 1}, "kvp": 3, "sp": 7, "bonus_kvp": 0,
                    "curses": ["brittle_lance"], "castles": [], "prisoners": []}
    rec["quest"] = {"carbonek": True, "permission": "Carbonek", "seen": "Listinoise"}
    rec["war"] = {"lord": "King Pellam", "stage": "line", "line": "F", "since": 2}
    rec["tasks"] = [copy.deepcopy(ADVENTURE)]
    state.setdefault("history", {})[player] = [[1, "rode out from Sorhaute"],
                                               [2, "heard of adventure 2:1 Rescue a maiden"],
                                               [2, "CP +8 to 123"]]
    view = KIND.view(state, player)
    j = view["journal"]
    return {
        "CP": "123", "VP": "9", "VL": str(j["vl"]), "WL": str(j["wl"]), "luck": "4",
        "poison": "2", "held": "12", "homeland": j["sheet"]["homeland"],
        "home": rec["home"]["castle"], "first home": "Camelot Castle",
        "lord": rec["lord"]["name"], "lady": "Lady Lyonesse", "lady castle": "Castle Perilous",
        "items": "valiant charger", "mascot": "a hound", "own castle": "Anselm's Keep",
        "outlawed": "Tintagel", "exiles": "Cornwall", "enemies": "Sir Breuse",
        "oaths": "never yield", "challenged": "Sir Gawaine", "enchantress": "Morgan Le Fay",
        "animal": "hare", "bonus": "+3", "task": "slay giant", "office": "High Steward",
        "KVP": "3", "SP": "7", "curse": "brittle lance", "permission": "Carbonek",
        "seen": "Listinoise", "war lord": "King Pellam", "adventure": "2:1",
        "adventure label": "Rescue a maiden", "marker": "C-3", "log 1": "rode out from Sorhaute",
        "log 2": "heard of adventure 2:1 Rescue a maiden", "scenario goal": "Round Table",
    }


# ------------------------------------------------------------------------------ the sheet filled
def test_every_field_is_filled_from_a_position(cli, tmp_path):
    """A position that sets every field of the journal; 'companion journal' writes the PDF,
    and every value reads back from its text (and from the text version)."""
    state = new_state()
    expected = filled(state)
    position = tmp_path / "filled.toml"
    position.write_text(KIND.write_position(state))
    cli.ok("new", "koc", "j1", "--setup", str(position))
    out = Path(cli.ok("journal", "j1", "anna").out.strip())
    assert out == cli.output / "j1" / "anna-journal-turn-000.pdf"
    data = out.read_bytes()
    text = pdf_text(data)
    for what, value in expected.items():
        assert squeezed(value) in text, f"{what} ({value!r}) is not on the sheet"
    for label in ("AdventureJournal", "LogofTurns", "KNAVE", "THEHOLYGRAIL", "FOREIGNWAR",
                  "OFFICE", "FRIENDLYCASTLES", "horse", "fulfilled"):
        assert label in text
    as_text = cli.ok("journal", "j1", "Anna", "--text").out
    assert cli.ok("koc", "journal", "j1", "Anna", "--text").out == as_text   # the new spelling
    for what, value in expected.items():
        if what not in ("CP", "VP", "KVP", "SP", "held", "poison"):
            assert value in as_text, f"{what} ({value!r}) is not in the text"
    assert "Poisoned wounds:" in as_text and "WL held at 12" in as_text
    assert "Your private link" in as_text and "Chance commitment:" in as_text
    check_pdf(data, "a4", tmp_path)


def test_the_command_refuses_with_located_messages(cli, tmp_path):
    cli.ok("new", "koc", "j2", "--player", "Anna", "--player", "Bert", "--seed", "2")
    result = cli("journal", "j2", "Zed")
    assert result.code == 1 and "'Zed' is not a player of game j2" in result.err
    result = cli("journal", "j2", "Anna", "--turn", "9")
    assert result.code == 1 and "no turn 9" in result.err
    result = cli("journal", "j2", "Anna", "--paper", "a3")
    assert result.code != 0 and "Traceback" not in result.text
    cli.ok("new", "gral", "g", "--player", "Anna", "--player", "Bert", "--seed", "2",
           "--option", "first=Anna")
    result = cli("journal", "g", "Anna")
    assert result.code == 1 and "belong to koc" in result.err
    assert "'companion --help' lists the commands" in result.err    # no stale spelling
    target = tmp_path / "sub" / "anna.pdf"
    letter = cli.ok("journal", "j2", "ann", "--paper", "letter", "--out", str(target)).out
    assert letter.strip() == str(target)
    check_pdf(target.read_bytes(), "letter", tmp_path)


# ------------------------------------------------------------------------------ secrets
def test_a_journal_shows_nothing_private_of_another_knight(tmp_path):
    """Anna's journal, PDF and text, holds nothing of Bert's or Cora's private record; the
    others' records may change in any way without changing a byte of it; its QR code is her
    own link."""
    from companion.koc.journal import journal_files

    state = new_state()
    filled(state, "Anna")
    secrets = {}
    for other in ("Bert", "Cora"):
        filled(state, other)
        rec = state["knights"][other]
        mark = f"Zq{other}"
        rec["enemies"] = [f"Sir {mark}enemy"]
        rec["oaths"] = [f"{mark}oath"]
        rec["own_castle"] = f"{mark}keep"
        rec["lady"] = dict(rec["lady"], name=f"Lady {mark}lady")
        rec["office"] = {"key": "x", "label": f"{mark}office", "since": 1}
        rec["knave"]["curses"] = [f"{mark}curse"]
        rec["quest"] = {"carbonek": True, "permission": f"{mark}perm", "seen": f"{mark}seen"}
        rec["tasks"][0]["adventure"]["label"] = f"{mark}adventure"
        rec["tasks"][0]["adventure"]["marker"] = f"{mark}M"
        state["history"][other] = [[1, f"{mark}history"]]
        secrets[other] = [f"{mark}enemy", f"{mark}oath", f"{mark}keep", f"{mark}lady",
                          f"{mark}office", f"{mark}curse", f"{mark}perm", f"{mark}seen",
                          f"{mark}adventure", f"{mark}M", f"{mark}history", "Zq"]
    view = KIND.view(state, "Anna")
    link = "companion://j/0/anna.0123456789abcdef?h=0011223344556677"
    view["envelope"] = {"game_id": "j", "turn": 0, "date": "2027-01-01 00:00 UTC",
                        "link": link, "link_label": "your private link", "commitment": "c0"}
    files = journal_files(view)
    text = pdf_text(files["journal.pdf"])
    plain = files["journal.txt"].decode()
    for other, marks in secrets.items():
        for mark in marks:
            assert mark not in text and mark not in plain, f"Anna's journal shows {other}'s {mark}"
        for entry in state["knights"][other]["enemies"] + state["knights"][other]["oaths"]:
            assert squeezed(entry) not in text
    # another knight's record changes: Anna's journal stays byte for byte the same
    changed = copy.deepcopy(state)
    changed["knights"]["Bert"].update(cp=299, vp=1, luck=6)
    changed["knights"]["Cora"]["tasks"] = []
    changed["history"]["Bert"].append([3, "more"])
    again = KIND.view(changed, "Anna")
    again["envelope"] = view["envelope"]
    assert journal_files(again) == files
    assert qr_payloads(files["journal.pdf"]) == [link]
    assert link in plain


def test_the_turn_output_keeps_each_journal_private(cli):
    """Every player's journal beside his report: it carries his own link only."""
    cli.ok("new", "koc", "s1", "--player", "Anna", "--player", "Bert", "--player", "Cora",
           "--seed", "4")
    cli.ok("turn", "s1")
    from companion.store import Store

    from companion import service

    store = Store(cli.store)
    game = store.game("s1")
    turn = store.turn("s1", 1)
    tokens = {p.slug: p.token for p in game.players}
    names = {p.slug: p.name for p in game.players}
    store.close()
    folder = cli.output / "s1" / "turn-001"
    for slug in tokens:
        plain = (folder / f"{slug}.journal.txt").read_text()
        pdf = pdf_text((folder / f"{slug}.journal.pdf").read_bytes())
        assert f"Adventure Journal of {names[slug]}" in plain
        (payload,) = qr_payloads((folder / f"{slug}.journal.pdf").read_bytes())
        assert payload == service.link(game, 1, names[slug], turn.hash) and payload in plain
        for other, token in tokens.items():
            assert (token in plain) == (other == slug)
            assert token not in pdf


# ------------------------------------------------------------------------------ determinism
def test_journals_are_byte_identical_in_two_stores(make_cli, tmp_path, fixed_date):
    """The same game in two stores gives the same journals, beside every turn's report and
    from the command; 'companion report' writes them again byte for byte."""
    def game(folder: Path):
        folder.mkdir()
        cli = make_cli(folder)
        cli.ok("new", "koc", "b1", "--player", "Anna", "--player", "Bert", "--seed", "9")
        for _ in range(3):
            cli.ok("turn", "b1")
        files = {p.relative_to(cli.output): p.read_bytes()
                 for p in sorted((cli.output / "b1").rglob("*.journal.*"))}
        return cli, files

    cli, first = game(tmp_path / "a")
    _, second = game(tmp_path / "b")
    assert first == second and len(first) == 4 * 4      # turns 0-3, two players, pdf + txt
    folder = cli.output / "b1" / "turn-003"
    cli.ok("report", "b1", "--turn", "3")
    assert (folder / "anna.journal.pdf").read_bytes() == first[Path("b1/turn-003/anna.journal.pdf")]
    from companion.store import Store

    store = Store(cli.store)
    history = store.turn("b1").state.get("history", {})
    store.close()
    for player in ("Anna", "Bert"):
        plain = (folder / f"{player.lower()}.journal.txt").read_text()
        for turn, line in history.get(player, []):
            assert line in plain, (player, turn, line)
    made = Path(cli.ok("journal", "b1", "Anna", "--turn", "3").out.strip())
    assert made.read_bytes() == first[Path("b1/turn-003/anna.journal.pdf")]
    check_pdf(made.read_bytes(), "a4", tmp_path)


# ------------------------------------------------------------------------------ the blank sheets
@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_blank_journals_are_in_the_kit(cli, tmp_path, paper):
    out = tmp_path / f"journals-{paper}.pdf"
    cli.ok("print", "koc", "--only", "journals", "--paper", paper, "--out", str(out))
    data = out.read_bytes()
    check_pdf(data, paper, tmp_path)
    from pypdf import PdfReader

    assert len(PdfReader(io.BytesIO(data)).pages) == 1 + 2 + 2     # cover, two variants
    text = pdf_text(data)
    for label in ("AdventureJournal", "LogofTurns", "QuestoftheHolyGrail", "findtheHolyGrail",
                  "RoundTable", "KNAVE", "FOREIGNWAR", "THEHOLYGRAIL", "OUTLAWEDAT",
                  "KNIGHTSFOUGHTINACHALLENGE", "Prophecy".upper(), "LuckoftheDay"):
        assert label in text, label
    assert cli.ok("print", "koc", "--only", "journal-grail", "--out",
                  str(tmp_path / "g.pdf")).code == 0


def test_the_whole_kit_still_builds_with_the_journals():
    from companion.koc.printables import kit
    from companion.render.printkit import PrintOptions, plan_kit

    plan = plan_kit(kit(), PrintOptions.from_strings(paper="letter"))
    assert sum(1 for p in plan.pages if "Adventure Journal" in p.label) == 4


# ------------------------------------------------------------------------------ the history
def test_the_history_is_filled_over_played_turns():
    """The state keeps every knight's log: [game turn, text] entries in order, a few a turn,
    whose CP and VP entries end at the knight's values now; the log reaches the journal."""
    from tests.koc.kocplay import play_states

    from companion.koc.journal import journal_data, journal_text

    states = list(play_states(3, 3, 14))
    last = states[-1]
    history = last["history"]
    assert sum(len(v) for v in history.values()) >= 5
    assert len(json.dumps(history)) < 600 * len(history) * 14 / 10   # compact
    for player, entries in history.items():
        turns = [t for t, _ in entries]
        assert turns == sorted(turns) and all(1 <= t <= last["koc"]["turn"] for t in turns)
        assert all(isinstance(text, str) and 0 < len(text) < 200 for _, text in entries)
        per_turn = {}
        for t, _ in entries:
            per_turn[t] = per_turn.get(t, 0) + 1
        assert max(per_turn.values()) <= 16
        rec = last["knights"][player]
        cps = [int(m.group(1)) for _, text in entries
               for m in [re.search(r"CP [+-]\d+ to (\d+)", text)] if m]
        if cps and not any("takes up the journal" in text for _, text in entries):
            assert cps[-1] == rec["cp"], (player, entries)
        view = KIND.view(last, player)
        view["envelope"] = {}
        text = " ".join(journal_text(journal_data(view, view["terms"])).split())  # unwrapped
        for t, line in entries:
            assert " ".join(line.split()) in text
    # the history grows only: each state's log is the start of the next one's
    for before, after in zip(states, states[1:]):
        for player, entries in before.get("history", {}).items():
            assert after["history"][player][:len(entries)] == entries


def test_the_history_records_adventures_service_and_fates():
    from companion.koc.engine import history

    state = new_state()
    before = history.snapshot(state)
    rec = state["knights"]["Anna"]
    rec["tasks"].append(copy.deepcopy(ADVENTURE) | {"status": "travel"})
    rec["lady"] = {"name": "Lady Lyonesse", "castle": "Castle Perilous"}
    rec["prison"] = {"by": "castle"}
    rec["gear"]["horse"] = False
    rec["cp"] += 12
    history.record(state, before, 4)
    lines = [text for t, text in state["history"]["Anna"] if t == 4]
    assert lines == ["heard of adventure 2:1 Rescue a maiden (C-3), a prophecy",
                     "serves Lady Lyonesse as his Lady", "imprisoned", "lost his horse",
                     f"CP +12 to {rec['cp']}"]
    before = history.snapshot(state)
    rec["tasks"][-1]["status"] = "done"
    rec["prison"] = None
    history.record(state, before, 5)
    assert [text for t, text in state["history"]["Anna"] if t == 5] == [
        "adventure 2:1 Rescue a maiden (C-3), a prophecy: completed", "freed from prison"]
    assert "Bert" not in state["history"]


def test_played_journals_hold_no_other_knights_private_parts():
    """In played games, each player's journal (PDF text and text) holds none of another
    knight's private parts (his private events, standing answers, paused question) and none of
    the history entries only another knight has."""
    from tests.koc.engine.test_koc_random_play import private_parts
    from tests.koc.kocplay import play_states

    from companion.koc.journal import journal_files

    for seed, opts in ((5, {"missing": "wait"}), (6, {"scenario": "grail"})):
        for state in list(play_states(seed, 3, 10, opts))[3::3]:
            players = state["koc"]["order"]
            for viewer in players:
                view = KIND.view(state, viewer)
                view["envelope"] = {"game_id": "p", "turn": 1, "date": "d",
                                    "link": f"companion://p/1/{viewer}", "commitment": "c"}
                files = journal_files(view)
                texts = (pdf_text(files["journal.pdf"]), squeezed(files["journal.txt"].decode()))
                own = {t for _, t in state.get("history", {}).get(viewer, [])}
                own_parts = set(private_parts(state, viewer))
                for owner in players:
                    if owner == viewer:
                        continue
                    secrets = [p for p in private_parts(state, owner) if p not in own_parts]
                    # (a short entry may be part of the viewer's own: Cora's "lost his
                    # horse" in Bert's "lost his horse, lance, shield, sword")
                    secrets += [t for _, t in state.get("history", {}).get(owner, [])
                                if t not in own and len(t) > 12
                                and not any(t in mine for mine in own)]
                    secrets.append(f"companion://p/1/{owner}")
                    for secret in secrets:
                        for text in texts:
                            assert squeezed(secret) not in text, (viewer, owner, secret)


def test_a_grail_game_fills_the_grail_variant():
    """The scenario's terms decide the goal box: the Holy Grail in the Quest, the Round Table
    petition (with its CP and VL) otherwise."""
    from companion.koc.journal import journal_data, journal_text
    from companion.koc.journal_pdf import journal_pdf

    for scenario, goal in (("grail", "find the Holy Grail"), ("basic", "with 100 CP or more")):
        state = new_state(scenario=scenario)
        view = KIND.view(state, "Bert")
        view["envelope"] = {"game_id": "v", "turn": 0, "date": "d", "link": "companion://v",
                            "commitment": "c"}
        data = journal_data(view, view["terms"])
        assert goal in " ".join(journal_text(data).split())
        assert max(map(len, journal_text(data).splitlines())) <= 76     # a phone's width
        assert squeezed(goal) in pdf_text(journal_pdf(data, view["terms"], "letter"))


def test_a_filled_journal_prints_no_text_below_the_minimum():
    """A journal filled from a game: its values shrink to fit their boxes, never below the
    print suite's 5.5 pt (more than fits ends in an ellipsis; the text journal holds all)."""
    from companion.koc.journal import journal_files
    from tests.pdfsizes import small_texts

    state = new_state()
    filled(state, "Anna")
    view = KIND.view(state, "Anna")
    view["envelope"] = {"game_id": "j", "turn": 0, "date": "2027-01-01 00:00 UTC",
                        "link": "companion://j/0/anna.0123456789abcdef?h=0011223344556677",
                        "link_label": "your private link", "commitment": "c0"}
    assert not small_texts(journal_files(view)["journal.pdf"])


def test_king_arthurs_task_is_named_in_words():
    """King Arthur's task is kept as the chart's key and the request he answered
    (requests.arthur_answer); the report's journal table and the journal named it by that
    record itself, "task: {'kind': 'task_court', 'request': 'dwarf'}" (random play, seed
    620010). Both now say "attend court (for the request 'dwarf')"."""
    from companion.koc.journal import journal_data
    from companion.render.report_text import render_text

    state = new_state()
    state["knights"]["Anna"]["arthur"] = {"favour": False, "bonus": 0,
                                          "task": {"kind": "task_court", "request": "dwarf"}}
    view = KIND.view(state, "Anna")
    assert journal_data(view)["fields"]["task"] == "attend court (for the request 'dwarf')"
    view["envelope"] = {"game_id": "g", "turn": 1, "date": "2026-11-29", "link": "x",
                        "link_label": "your private link"}
    text = " ".join(render_text(KIND.report(view)).split())
    assert "task: attend court (for the request 'dwarf')" in text
    assert "{'" not in text and "task_court" not in text
    state["knights"]["Anna"]["arthur"]["task"] = {"kind": "task_brigands",
                                                  "request": "men_at_arms", "task_id": 1}
    assert journal_data(KIND.view(state, "Anna"))["fields"]["task"] == \
        "clear out brigands (for the request 'men at arms')"
