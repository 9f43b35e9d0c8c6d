"""Holy Grail CCG views and reports: what each viewer sees (hand, England and Avalon, Round
Tables, ante and dead carts, the dispute with its numbers, the legal lines and the order form),
the secrets kept (non-interference: another player's hand, every deck's order and every
face-down card change no byte of a report that may not show them), and reproducible bytes."""
from __future__ import annotations

import copy
import functools
import random

import pypdfium2 as pdfium
import pytest

from companion.grailccg import england as E
from companion.grailccg.kind import KIND
from companion.grailccg.views import FIGURE, layout_text, view
from companion.render.report_pdf import render_pdf
from companion.render.report_text import render_text

from ccg_play import NAMES, engine_game
from tests.pdftext import pdf_text

ANNA, BERT = NAMES


@functools.lru_cache(maxsize=None)
def _states(seed: int, wait: bool = False) -> tuple:
    record: list = []
    engine_game(seed, {"missing": "wait"} if wait else None, record=record)
    return tuple(s for _, _, s in record)


def states(seed: int, wait: bool = False) -> list[dict]:
    return [copy.deepcopy(s) for s in _states(seed, wait)]


def some_states() -> list[dict]:
    out = []
    for seed in range(4):
        got = states(seed, wait=seed % 2 == 1)
        out += got[1::max(1, len(got) // 4)]
    return out


def document(state: dict, viewer: str) -> dict:
    v = KIND.view(state, viewer)
    v["envelope"] = {"game_id": "g", "turn": 7, "date": "2026-11-25 05:00 UTC",
                     "link": f"companion://g/7/{viewer}", "link_label": "your private link"}
    return KIND.report(v)


def rendered(state: dict, viewer: str) -> tuple[bytes, str]:
    doc = document(state, viewer)
    return render_pdf(doc), render_text(doc)


def unused_cards() -> list[str]:
    """Card ids in neither starter deck (their names can only come from where we put them)."""
    from companion.grailccg.cards import starter_decks

    used = set()
    for deck in starter_decks().values():
        used |= set(deck.cards)
    return [c.id for c in KIND.cards if c.id not in used and "," not in c.name]


# ------------------------------------------------------------------------------ what is shown
def test_a_player_sees_their_hand_and_only_counts_of_the_other():
    state = states(1)[5]
    g = state["game"]
    for p in NAMES:
        v = view(KIND, state, p)
        assert [c["name"] for c in v["hand"]] == [KIND.cards.get(g["cards"][i]).name
                                                  for i in g["hands"][p]]
        assert "hands" not in v and "deck_tops" not in v and "question" not in v
        assert [s["hand"] for s in v["sides"]] == [len(g["hands"][q]) for q in NAMES]
        assert [s["deck"] for s in v["sides"]] == [len(g["decks"][q]) for q in NAMES]
    public = view(KIND, state, "public")
    assert not {"hand", "standing", "asks", "hands", "question"} & set(public)
    moderator = view(KIND, state, "moderator")
    assert set(moderator["hands"]) == set(NAMES) and set(moderator["deck_tops"]) == set(NAMES)


def test_face_down_areas_are_unexplored_for_everyone_but_the_moderator():
    for state in some_states()[:6]:
        g = state["game"]
        for viewer in NAMES + ["public"]:
            v = view(KIND, state, viewer)
            for side in v["sides"]:
                for name, a in side["england"].items():
                    raw = g["england"][side["player"]][name]
                    if raw["card"] is not None and not raw["up"]:
                        assert a["state"] == "down" and a["card"] is None and "hidden" not in a
        mod = view(KIND, state, "moderator")
        for side in mod["sides"]:
            for name, a in side["england"].items():
                if a["state"] == "down":
                    assert a["hidden"]["name"]


def test_the_report_shows_everything_a_player_needs():
    state = next(s for s in states(0) if s["game"]["stage"] != "over" and
                 s["game"]["last_dispute"] and s["game"]["active"] == ANNA)
    _, text = rendered(state, ANNA)
    for needle in ("What happened", "Your hand", "England and Avalon", "England explored by Anna",
                   "England explored by Bert", "Avalon (shared", "The Round Tables",
                   "Anna's Round Table", "Decks, dead carts and the ante", "Ante (face up)",
                   "Disputes", "The last numbers drawn", "What is asked of you", "It is your turn",
                   "Order form", "move <area>", "on dispute: play", "row 4:", "home:"):
        assert needle in text, needle
    for line in KIND.options_for(state, ANNA):
        assert line in text, line
    other = rendered(state, BERT)[1]
    assert "Nothing now: it is Anna's turn" in other
    assert "It is your turn" not in other


def test_a_dispute_in_progress_shows_every_number():
    found = None
    for seed in range(12):
        for s in states(seed):
            if s["game"]["dispute"] and s["game"]["stage"] != "over":
                found = s
                break
        if found:
            break
    assert found, "no random game left a dispute open between turns"
    g = found["game"]
    d = g["dispute"]
    foe = KIND.cards.get(g["cards"][d["foe"]])
    text = rendered(found, "public")[1]
    assert "In progress:" in text and foe.name in text and d["area"] in text
    v = view(KIND, found, "public")
    assert v["dispute"]["methods"] == d["methods"]
    assert v["dispute"]["foe"]["combat"] == foe.combat and v["dispute"]["foe"]["wits"] == foe.wits


def test_last_numbers_are_all_shown():
    state = next(s for s in states(0) if s["game"]["last_dispute"]
                 and s["game"]["last_dispute"].get("foe_total") is not None)
    n = state["game"]["last_dispute"]
    text = rendered(state, "public")[1]
    for key in ("grail", "total", "foe_grail", "foe_total", "lead_value", "foe_value"):
        assert str(n[key]) in text


def test_the_layout_figure_names_a_module_function_and_has_a_text_fallback():
    state = states(2)[4]
    doc = document(state, ANNA)
    figures = [b for s in doc["sections"] for b in s["blocks"] if b["type"] == "figure"]
    assert len(figures) == 1 and figures[0]["figure"] == FIGURE
    data = figures[0]["data"]
    assert list(data["avalon"]) == ["av1", "av2", "av3", "av4"]
    assert [sorted(b["areas"]) for b in data["boards"]] == [sorted(E.AREAS)] * 2
    lines = layout_text(view(KIND, state, ANNA))
    assert figures[0]["text"] == "\n".join(lines)
    assert any(line.startswith("  row 4:") for line in lines)
    assert render_pdf(doc).startswith(b"%PDF")


def test_only_the_player_asked_sees_the_question():
    asked = None
    for seed in range(1, 12, 2):
        asked = next((s for s in states(seed, wait=True) if s.get("pending")), None)
        if asked:
            break
    assert asked, "no paused turn in the random games"
    q = asked["pending"]["question"]
    other = next(p for p in NAMES if p != q["player"])
    mine = rendered(asked, q["player"])[1]
    assert "The game waits for your answer" in mine
    for line in q["options"]:
        assert line in mine
    theirs = rendered(asked, other)[1]
    assert "The game waits for your answer" not in theirs
    assert f"waits for {q['player']}'s answer" in theirs
    assert view(KIND, asked, "moderator")["question"] == q
    assert "question" not in view(KIND, asked, "public")


# ------------------------------------------------------------------------------ secrets
def scramble(state: dict, owner: str, rng: random.Random) -> dict:
    """The same position with every secret of ``owner`` changed: their hand (cards swapped
    with cards of their deck), their deck's order, their standing orders, their private
    events."""
    other = copy.deepcopy(state)
    g = other["game"]
    hand, deck = g["hands"][owner], g["decks"][owner]
    for i in range(min(len(hand), len(deck))):
        hand[i], deck[-1 - i] = deck[-1 - i], hand[i]
    rng.shuffle(deck)
    mine = other["standing"][owner]
    mine["double"] = "concede" if mine.get("double") != "concede" else "accept"
    mine["retreat"] = ["1a", "2b"]
    other["events"] = [dict(e, text=e["text"] + " (secret)") if e["to"] == [owner] else e
                       for e in other["events"]]
    other["events"].append({"kind": "note", "text": "Only for the owner.", "to": [owner]})
    return other


@pytest.mark.parametrize("seed", [0, 1, 3])
def test_non_interference_of_a_players_secrets(seed):
    got = states(seed, wait=seed % 2 == 1)
    state = got[len(got) // 2]
    base = {v: rendered(state, v) for v in NAMES + ["public"]}
    for owner in NAMES:
        changed = scramble(state, owner, random.Random(seed))
        for viewer in NAMES + ["public"]:
            after = rendered(changed, viewer)
            if viewer == owner:
                assert after != base[viewer], "the owner's own report must show the change"
            else:
                assert after == base[viewer], f"{viewer}'s report depends on {owner}'s secrets"
                assert KIND.view(changed, viewer) == KIND.view(state, viewer)


def test_face_down_cards_and_deck_order_change_no_players_report():
    state = states(0)[3]
    g = state["game"]
    base = {v: rendered(state, v) for v in NAMES + ["public"]}
    changed = copy.deepcopy(state)
    cg = changed["game"]
    spare = unused_cards()
    k = 0
    areas = [a for p in NAMES for a in cg["england"][p].values()] + list(cg["avalon"].values())
    for a in areas:
        if a["card"] is not None and not a["up"]:
            cg["cards"][a["card"]] = spare[k % len(spare)]
            k += 1
    for p in NAMES:
        cg["decks"][p].reverse()
    assert k
    for viewer in NAMES + ["public"]:
        assert rendered(changed, viewer) == base[viewer], viewer
    assert document(changed, "moderator") != document(state, "moderator")
    assert g["cards"] != cg["cards"]


def test_hidden_card_names_never_reach_another_players_pdf_or_text():
    state = states(3, wait=True)[6]
    changed = copy.deepcopy(state)
    g = changed["game"]
    spare = unused_cards()
    hidden = []
    for i, inst in enumerate(g["hands"][BERT]):
        g["cards"][inst] = spare[i]
        hidden.append(KIND.cards.get(spare[i]).name)
    down = [a for a in g["england"][ANNA].values() if a["card"] and not a["up"]]
    for j, a in enumerate(down):
        g["cards"][a["card"]] = spare[len(hidden) + j]
    down_names = [KIND.cards.get(spare[len(hidden) + j]).name for j in range(len(down))]
    deck_top = spare[len(hidden) + len(down)]
    g["cards"][g["decks"][ANNA][0]] = deck_top
    top_name = KIND.cards.get(deck_top).name
    assert hidden and down_names
    for viewer in (ANNA, "public"):
        pdf, text = rendered(changed, viewer)
        words = pdf_text(pdf).replace("\r", "").replace("\n", " ") + " " + text
        for name in hidden + down_names + [top_name]:
            assert name not in words, (viewer, name)
    pdf, text = rendered(changed, BERT)
    assert all(name in text for name in hidden)
    assert not any(name in text for name in down_names + [top_name])


# ------------------------------------------------------------------------------ bytes
def test_same_state_same_bytes_and_fonts_embedded():
    from pypdf import PdfReader
    import io

    state = states(2)[6]
    for viewer in NAMES + ["public", "moderator"]:
        first = rendered(state, viewer)
        assert first == rendered(copy.deepcopy(state), viewer)
        reader = PdfReader(io.BytesIO(first[0]))
        for page in reader.pages:
            assert [round(float(x), 2) for x in page.mediabox[2:]] == [595.28, 841.89]
            for ref in page["/Resources"]["/Font"].values():
                font = ref.get_object()
                target = font["/DescendantFonts"][0].get_object() if "/DescendantFonts" in font \
                    else font
                assert "/FontFile2" in target["/FontDescriptor"].get_object()


def test_views_are_pure():
    state = states(1, wait=True)[4]
    before = copy.deepcopy(state)
    for viewer in NAMES + ["public", "moderator"]:
        assert view(KIND, state, viewer) == view(KIND, state, viewer)
    assert state == before


def test_a_finished_game_reports_the_result():
    final = states(0)[-1]
    assert final["game"]["stage"] == "over"
    text = rendered(final, ANNA)[1]
    assert "Result" in text and "Nothing: the game is over" in text


# ------------------------------------------------------------------------------ through the service
def test_reports_through_the_service(tmp_path, fixed_date):
    import zxingcpp

    from companion import service
    from companion.store import Store

    names = ['<b>Bo & "Jo"</b>', "Jörg Ünal"]
    store = Store(tmp_path / "s.sqlite3", create=True)
    out = tmp_path / "out"
    service.new_game(store, "grailccg", "g", names, seed="5", option_args=[f"first={names[0]}"],
                     output=out)
    for _ in range(4):
        state = store.turn("g").state
        p = KIND.awaited(state)[0]
        lines = KIND.options_for(state, p)
        service.submit_orders(store, "g", p, next((x for x in lines if x.startswith("move")),
                                                  lines[0]), "o")
        service.run_turn(store, "g", output=out)
    g = store.game("g")
    turn = store.turn("g")
    folder = out / "g" / f"turn-{turn.number:03d}"
    docs = service.report_documents(g, turn)
    for viewer, doc in docs.items():
        name = "public" if viewer == "public" else g.player(viewer).slug
        pdf = (folder / f"{name}.pdf").read_bytes()
        assert render_pdf(doc) == pdf
        assert render_text(doc) == (folder / f"{name}.txt").read_text(encoding="utf-8")
        found = zxingcpp.read_barcodes(pdfium.PdfDocument(pdf)[0].render(scale=3).to_pil())
        assert [b.text for b in found] == [service.link(g, turn.number, viewer, turn.hash)]
        assert all(n in pdf_text(pdf).replace("\r", "") for n in names)
    for p in g.players:
        mine = (folder / f"{p.slug}.txt").read_text(encoding="utf-8")
        assert "Your hand" in mine
        for other in g.players:
            if other.name != p.name:
                assert other.token not in mine


def test_a_player_out_of_the_game_is_reported():
    state = states(0)[3]
    state["game"]["defeated"] = [BERT]
    text = rendered(state, "public")[1]
    assert "Bert is out of the game" in text


def test_the_documented_position_reports_its_dispute_and_round_tables():
    from companion.grailccg.position import read_position

    from test_grailccg_position import BASE

    state = read_position(KIND, BASE, "example.txt", {})
    text = " ".join(rendered(state, ANNA)[1].split())
    assert "In progress: Anna's Round Table is in a dispute with Black Knight (Adversary, " \
           "combat 7, wits 1, icons sword+castle) in 1b." in text
    assert "It may be met by combat or wits." in text
    assert "Page Patsy, serving Arthur, carries Holy Hand Grenade of Antioch (usable)" in text
    assert "1b: Open Moor; waiting there: Black Knight (combat 7, wits 1) [Round Table of Anna]" \
        in text
    assert "fight with Lancelot" in text and "run away" in text
    assert "Bors (Knight, grail 4, combat 4, wits 4, icons sword+castle)" in text
    theirs = " ".join(rendered(state, BERT)[1].split())
    assert "Bors" not in theirs and "Excalibur" not in theirs
    assert "Your standing orders: on dispute: play Burn Her!; on double: accept" in theirs


def test_a_page_shows_the_room_it_has_left_and_an_item_in_hand_is_carried_or_used():
    """Found by the third audit (reports read as a player would): a page full to its capacity
    said "(room for 1)", and an item in hand said "Played: ..." although an item is given to a
    page and carried or used (11.1, 10.1)."""
    from ccg_play import build

    state = build(KIND, {"setup": {ANNA: {
        "table": ["Arthur"], "hand": ["Coconuts", "Excalibur"],
        "pages": [["Patsy", "Arthur"], ["Humphrey the Page", "Arthur", ["Herring"]]]}}})
    state.pop("options", None)
    text = rendered(state, ANNA)[1]
    flat = " ".join(text.split())
    assert "Page Patsy, serving Arthur, carries nothing (room for 2)." in flat
    assert "Humphrey the Page, serving Arthur, carries Herring (usable) (no room for more)." \
        in flat
    assert "Coconuts (Item, grail 6): Used: Your Round Table may move one extra area this " \
        "turn. Once, then into the dead cart." in flat
    assert "Excalibur (Item, grail 2): Carried: +3 combat in each dispute led by the knight " \
        "its page serves" in flat
    assert "Played: Your side gets +3" not in flat
