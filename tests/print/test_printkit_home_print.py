"""What a tester printing at home found: a reprint name that means several pieces, card sizes
too small for a design, --out naming a folder, what the cover says (backs left out, page
counts, plurals, notes), text on cards and chits at the documented minimum, the Mayhem back's
title, the Mayhem character checklist, and the calibration grid's labels."""
from __future__ import annotations

import pytest

from companion.errors import CompanionError, UsageError
from companion.registry import KINDS, get_kind
from companion.render.printkit import PrintOptions, build_kit, plan_kit, write_kit
from companion.render.printkit.model import CardFace, Deck
from companion.render.printkit.sample import sample_kit
from companion.render.printkit.units import CARD_SIZES
from tests.pdfsizes import MIN_PT, cover_text as _cover_text

GAMES = [k.id for k in KINDS if hasattr(get_kind(k.id), "print_kit")]


# ------------------------------------------------------------------------------ 1. --reprint
def test_a_name_in_two_decks_is_refused_with_the_pieces_and_how_to_name_each(kits):
    kit = kits["grailccg"]
    for name in ("Patsy", "Arthur"):
        with pytest.raises(UsageError) as err:
            plan_kit(kit, PrintOptions.from_strings(reprint=[name]))
        message = err.value.message
        assert "2 different pieces" in message and "Starter deck: Arthur's party" in message
        assert "Starter deck: the French" in message and "/44" in message and "/45" in message
        assert (f"'starter-arthur: {name}'" in err.value.hint
                and f"'starter-french: {name}'" in err.value.hint)
    # the deck named before a colon, by its name or a word of its title; one copy per mention
    for typed in ("starter-arthur: Patsy", "arthur:patsy", "Starter deck: Arthur's party: Patsy"):
        plan = plan_kit(kit, PrintOptions.from_strings(reprint=[typed]))
        assert [(p.part.name, [(c.name, c.count) for c in p.part.cards if c.count])
                for p in plan.parts] == [("starter-arthur", [("Patsy", 1)])]
    plan = plan_kit(kit, PrintOptions.from_strings(reprint=["french: Patsy"] * 2))
    assert [(c.name, c.count) for c in plan.parts[0].part.cards if c.count] == [("Patsy", 2)]
    with pytest.raises(UsageError, match="could be several parts") as err:
        plan_kit(kit, PrintOptions.from_strings(reprint=["starter: Patsy"]))
    assert "'starter-arthur'" in err.value.hint
    with pytest.raises(UsageError, match="has no card"):
        plan_kit(kit, PrintOptions.from_strings(reprint=["arthur: Zzyzx"]))


def test_versions_and_counters_of_one_name_are_told_apart(kits):
    with pytest.raises(UsageError) as err:
        plan_kit(kits["mayhem"], PrintOptions.from_strings(reprint=["The Thief"]))
    assert "3 different pieces" in err.value.message
    assert "'The Thief, version II'" in err.value.hint
    plan = plan_kit(kits["mayhem"], PrintOptions.from_strings(reprint=["the thief, version ii"]))
    cards = [c for c in plan.parts[0].part.cards if c.count]
    assert len(cards) == 1 and cards[0].back.name == "The Thief, version II"
    # KoC: counters sharing a name carry the Wound Level printed on them in their label
    with pytest.raises(UsageError) as err:
        plan_kit(kits["koc"], PrintOptions.from_strings(reprint=["Troll"]))
    assert "'Troll WL 7'" in err.value.hint and "'Troll WL 8'" in err.value.hint
    plan = plan_kit(kits["koc"], PrintOptions.from_strings(reprint=["troll wl 8", "Wolf"]))
    assert [(c.front.label, c.count) for c in plan.parts[0].part.chits] == [("Wolf", 1),
                                                                             ("Troll WL 8", 1)]


def test_no_two_pieces_of_a_kit_share_a_name(kits):
    """Every card and labelled chit can be reprinted by a name that means it alone (with its
    deck before a colon where two decks hold it)."""
    for game, kit in kits.items():
        seen = {}
        for part in kit.parts:
            if isinstance(part, Deck):
                names = [(c.back.name if isinstance(c.back, CardFace) else c.name)
                         for c in part.cards if c.count]
            elif part.kind == "chits":
                names = [c.front.label for c in part.chits if c.count]
            else:
                continue
            assert len(names) == len(set(names)), f"{game} {part.title}: names repeat"
            seen[part.slug] = names


# ------------------------------------------------------------------ 2, 3. card sizes
@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("card", list(CARD_SIZES) + ["40x60"])
def test_every_game_plans_on_every_card_size(kits, game, card):
    plan_kit(kits[game], PrintOptions.from_strings(card=card, only=None if game == "gral"
                                                   else "cards", backs="duplex-long"))


@pytest.mark.parametrize("card", ["mini-usa", "40x60"])
def test_the_mayhem_draw_cards_draw_on_small_cards(kits, card):
    assert build_kit(kits["mayhem"], PrintOptions.from_strings(
        card=card, only="draw-cards", backs="duplex-long")).startswith(b"%PDF")


@pytest.mark.parametrize("card", ["10x10", "20x30"])
def test_a_card_too_small_for_the_design_says_so_with_the_smallest_size(kits, card):
    import re

    with pytest.raises(UsageError) as err:
        plan_kit(kits["koc"], PrintOptions.from_strings(card=card, only="cards"))
    message = err.value.message
    w, h = card.split("x")
    assert message.startswith(f"cards of {w} x {h} mm are too small for the Knights of Camelot "
                              "cards: the smallest that works is about ")
    assert "-" not in message and "--card" in err.value.hint
    least = re.search(r"about (\d+) x (\d+) mm", message).groups()
    assert abs(int(least[1]) / int(least[0]) - int(h) / int(w)) < 0.05, "the same shape"
    plan_kit(kits["koc"], PrintOptions.from_strings(card="x".join(least), only="cards"))


def test_a_design_drawn_by_the_game_states_its_smallest_card(kits):
    with pytest.raises(UsageError, match="too small for the Medieval Mayhem cards"):
        plan_kit(kits["mayhem"], PrintOptions.from_strings(card="30x45", only="draw-cards"))


def test_a_text_too_long_for_any_card_keeps_its_own_message():
    kit = sample_kit(parts="deck")
    deck = kit.parts[0]
    long = CardFace("A name", kind="Test", text="word " * 900)
    kit.parts[0] = Deck(title=deck.title, cards=[long], back=deck.back)
    with pytest.raises(CompanionError, match="characters do not fit"):
        plan_kit(kit, PrintOptions.from_strings(card="mini-usa"))


# ------------------------------------------------------------------------- 4. --out DIR
def test_out_naming_a_folder_writes_the_kit_into_it(tmp_path):
    kit = sample_kit(parts="deck")
    written = write_kit(kit, PrintOptions.from_strings(out=str(tmp_path)))
    assert written == tmp_path / f"{kit.game}-kit.pdf" and written.read_bytes()[:5] == b"%PDF-"
    written = write_kit(kit, PrintOptions.from_strings(out=str(tmp_path), reprint=["Lantern"]))
    assert written == tmp_path / f"{kit.game}-reprint.pdf"
    (tmp_path / "afile").write_text("x")
    with pytest.raises(CompanionError) as err:
        write_kit(kit, PrintOptions.from_strings(), tmp_path / "afile" / "kit.pdf")
    assert "cannot write the kit to" in err.value.message and ".part" not in err.value.message
    assert "store" not in err.value.render() and "--out" in err.value.hint


def test_the_command_writes_into_a_folder(cli, tmp_path):
    out = cli.ok("print", "calibrate", "--out", str(tmp_path)).out.strip()
    assert out == str(tmp_path / "calibration-a4.pdf")


# -------------------------------------------------------------------------- 5. checklist
def test_the_mayhem_character_checklist_names_each_version(kits):
    plan = plan_kit(kits["mayhem"], PrintOptions.from_strings(only="characters"))
    table = next(b for b in plan.parts[0].checklist if hasattr(b, "rows"))
    names = [row[1] for row in table.rows]
    assert "The Thief, version I" in names and "The Thief, version III" in names
    assert len(set(names)) == len(names) == 18


# --------------------------------------------------------------------------- 6, 9. cover
def test_the_cover_says_when_card_backs_are_left_out():
    kit = sample_kit(parts="deck")
    text = _cover_text(build_kit(kit, PrintOptions.from_strings()))
    assert "Card backs are not printed" in text and "--backs duplex-long" in text
    text = _cover_text(build_kit(kit, PrintOptions.from_strings(backs="duplex-long")))
    assert "Card backs are not printed" not in text


def test_the_cover_counts_every_page_of_a_board_and_says_1_card():
    kit = sample_kit()
    plan = plan_kit(kit, PrintOptions.from_strings())
    board = next(p for p in plan.parts if p.part.kind == "board")
    text = _cover_text(build_kit(sample_kit(parts="board"), PrintOptions.from_strings()))
    assert f"on {len(board.pages)} pages" in text and len(board.pages) > len(board.board.tiles)
    reprint = _cover_text(build_kit(kit, PrintOptions.from_strings(reprint=["Lantern"])))
    assert "1 card, 1 sheet" in reprint and "1 cards" not in reprint
    assert kit.notes[0] not in reprint and "reprint of single pieces" in reprint.lower()


def test_notes_are_sentences_and_the_subject_carries_the_settings(kits):
    from companion.render.printkit.build import subject

    for game in ("koc", "mayhem"):
        plan = plan_kit(kits[game], PrintOptions.from_strings(only="cards"))
        for note in list(kits[game].notes) + [p.note for p in plan.parts if p.note]:
            assert note.rstrip().endswith("."), f"{game}: {note!r}"
    options = PrintOptions.from_strings(paper="letter", backs="fold")
    text = subject(kits["koc"], options)
    assert text.startswith(kits["koc"].subject) and options.describe() in text


# --------------------------------------------------------------------- 7. smallest text
class _Recorder:
    """A pen that records the text sizes a drawing asks for."""

    def __init__(self, w: float, h: float):
        from companion.render.printkit.units import MM

        self.width_mm, self.height_mm, self.bleed_mm = w, h, 0.0
        self.unit_pt, self.what = MM, "test"
        self.sizes: list[tuple[str, float]] = []
        self.rects: list[tuple] = []
        self.texts: list[tuple] = []

    def text(self, x, y, text, *, size_pt=8.0, **_):
        self.sizes.append((text, size_pt))
        self.texts.append((text, x, y, size_pt))

    def text_box(self, x, y, w, h, text, *, max_pt=10.0, min_pt=5.0, **_):
        self.sizes.append((text, min_pt))
        assert max_pt >= min_pt

    def rect(self, x, y, w, h, **style):
        self.rects.append((x, y, w, h, style.get("fill")))

    def __getattr__(self, name):          # shapes and icons: nothing to record
        return lambda *a, **k: None


def test_chit_and_mayhem_texts_are_at_least_the_documented_minimum(kits):
    from companion.mayhem import printables as mp

    for part in kits["koc"].parts:
        if part.kind != "chits":
            continue
        for chit in part.chits:
            for face in (chit.front, chit.back):
                if face is None or face.draw is None:
                    continue
                pen = _Recorder(16, 16)
                face.draw(pen, 16.0, 16.0)
                small = [(t, s) for t, s in pen.sizes if s < MIN_PT]
                assert not small, f"KoC chit {face.label or chit.front.label}: {small}"
    deck = kits["mayhem"].parts[0]
    for card in ("poker", "mini-usa"):
        size = CARD_SIZES[card]
        for face in deck.cards[:12]:
            pen = _Recorder(size.width_mm, size.height_mm)
            face.draw(pen, size.width_mm, size.height_mm)
            assert all(s >= MIN_PT for _, s in pen.sizes), (face.name, pen.sizes)
            assert any(t.startswith("Medieval Mayhem · ") for t, _ in pen.sizes)


def test_standard_card_texts_are_at_least_the_documented_minimum(kits):
    from companion.render.fonts import register_fonts
    from companion.render.printkit.draw import deck_colours, prepare_face

    register_fonts()
    for game, kit in kits.items():
        for deck in [p for p in kit.parts if isinstance(p, Deck)]:
            for card in ("poker", "mini-usa"):
                size = CARD_SIZES[card]
                for face in deck.cards[:20]:
                    if face.draw is not None:
                        continue
                    fl = prepare_face(face, deck, size.width, size.height, deck_colours(deck),
                                      1, len(deck.cards))
                    sizes = [fl.name.size, fl.footer_size] + (
                        [fl.kind_size] if fl.kind_line else []) + (
                        [fl.text.size] if fl.text else [])
                    assert min(sizes) >= MIN_PT, (game, deck.title, face.name, card, sizes)


def test_standee_and_board_note_texts_are_at_least_the_documented_minimum(kits, monkeypatch):
    """Texts fitted into a drawing's boxes (Gral standees, the CCG board's notes) may shrink
    no lower than the minimum either, whatever the paper."""
    from companion.render.printkit import fit

    sizes: list[tuple[str, float, float]] = []
    real = fit.fit_text

    def spy(text, *args, **kwargs):
        fitted = real(text, *args, **kwargs)
        sizes.append((text, kwargs.get("min_size", 5.5), fitted.size))
        return fitted

    monkeypatch.setattr(fit, "fit_text", spy)
    for game, only in (("gral", "standees"), ("grailccg", "board")):
        for paper in ("a4", "letter"):
            sizes.clear()
            build_kit(kits[game], PrintOptions.from_strings(only=only, paper=paper))
            assert sizes, (game, only)
            assert all(low >= MIN_PT and size >= MIN_PT for _, low, size in sizes), sizes


# ------------------------------------------------------------------ 8. the Mayhem back
def test_the_mayhem_back_title_is_on_a_dark_panel():
    from companion.mayhem.printables import draw_back

    pen = _Recorder(63.5, 88.9)
    draw_back(pen, 63.5, 88.9)
    panels = [r for r in pen.rects if r[4] == "#2a2320" and r[2] < 63.5]
    for word in ("MEDIEVAL", "MAYHEM"):
        _, x, y, size = next(t for t in pen.texts if t[0] == word)
        cap = size * 0.73 * 25.4 / 72
        assert any(px < x < px + pw and py < y and y + cap < py + ph
                   for px, py, pw, ph, _ in panels), f"{word} is not on the panel"


# -------------------------------------------------------------------- 10. calibration
def test_calibration_labels_sit_on_the_bold_lines():
    from companion.render.printkit.calibrate import GRID_MM, bold_values, label_values

    labels = label_values()
    assert set(labels) == {v for v in bold_values() if v == int(v)}
    assert 0 in labels and all(v % 5 == 0 for v in labels)
    assert max(labels) <= GRID_MM
