"""Text that always fits: the fitting routine, the condensed fallback, clear errors, and every
card of the sample decks on every card size."""
from __future__ import annotations

import pytest

from companion.render.printkit import CARD_SIZES, CardFace, Deck
from companion.render.printkit.draw import TEXT_PAD, deck_colours, prepare_face
from companion.render.printkit.fit import (ASCENT, DESCENT, STEP, GlyphError, TextFitError,
                                           fit_line, fit_text, plain, text_width)
from companion.render.printkit.sample import _LONG, _LONGEST, sample_characters, sample_deck
from companion.render.printkit.units import mm


def _check_inside(fitted, width, height):
    assert fitted.height <= height + 1e-6
    for line in fitted.lines:
        assert line.width <= width + 1e-6
        for piece in line.pieces:
            end = piece.x + text_width(piece.text, piece.font, fitted.size)
            assert piece.x >= -1e-9 and end <= width + 1e-6


def _words(text):
    return plain(text).split()


def _fitted_words(fitted):
    out = []
    for line in fitted.lines:
        text, end = "", None
        for p in line.pieces:
            if end is not None and p.x > end + 1e-6:
                text += " "
            text += p.text
            end = p.x + text_width(p.text, p.font, fitted.size)
        out.append(text)
    return " ".join(out).split()


@pytest.mark.parametrize("text", [_LONG, _LONGEST, "Short.", "Draw **two** cards."])
def test_fits_and_chooses_the_largest_size(text):
    width, height = mm(52), mm(32)
    fitted = fit_text(text, width, height, max_size=10, min_size=5)
    _check_inside(fitted, width, height)
    assert _fitted_words(fitted) == _words(text), "nothing is lost or reordered"
    if fitted.size < 10:
        bigger = fit_text(text, width, 10 ** 6, max_size=fitted.size + STEP,
                          min_size=fitted.size + STEP, condense=False)
        if not fitted.condensed:
            assert bigger.height > height, "the next size up would not fit"


def test_longest_text_falls_back_to_the_condensed_face():
    width, height = mm(50), mm(40)
    fitted = fit_text(_LONGEST, width, height, max_size=9, min_size=6)
    assert fitted.condensed
    _check_inside(fitted, width, height)
    with pytest.raises(TextFitError):
        fit_text(_LONGEST, width, height, max_size=9, min_size=6, condense=False)


def test_text_that_cannot_fit_gives_a_clear_error():
    with pytest.raises(TextFitError) as err:
        fit_text(_LONGEST * 3, mm(40), mm(20), max_size=9, min_size=5.5, what="card 'X'")
    message = err.value.message
    assert message.startswith("card 'X':")
    assert "40.0 x 20.0 mm" in message and "5.5 pt" in message and "condensed" in message
    assert "shorten it by about" in err.value.hint


def test_long_words_are_broken_not_overflowing():
    word = "Supercalifragilisticexpialidocious-and-then-some-more-letters"
    fitted = fit_text(word * 2, mm(20), mm(30), max_size=9, min_size=5)
    _check_inside(fitted, mm(20), mm(30))


def test_lines_are_counted_with_ascent_and_descent():
    fitted = fit_text("One line.", mm(50), mm(10), max_size=8, min_size=8)
    assert abs(fitted.height - 8 * (ASCENT + DESCENT)) < 1e-9
    assert fitted.baselines(100.0) == [100.0 - 8 * ASCENT]


def test_missing_glyphs_are_refused():
    with pytest.raises(GlyphError) as err:
        fit_text("Chinese \u4e2d here", mm(50), mm(20), what="card 'Smile'")
    assert "U+4E2D" in err.value.message and "card 'Smile'" in err.value.message


def test_fit_line():
    font, size = fit_line("A very long card name indeed", mm(40), max_size=12, min_size=5)
    assert text_width("A very long card name indeed", font, size) <= mm(40)
    with pytest.raises(TextFitError) as err:
        fit_line("x" * 200, mm(20), max_size=12, min_size=6, what="name")
    assert "does not fit on one line" in err.value.message


@pytest.mark.parametrize("size", list(CARD_SIZES), ids=list(CARD_SIZES))
def test_every_sample_card_fits_on_every_card_size(size):
    for deck in (sample_deck(), sample_characters()):
        card = CARD_SIZES[size]
        w, h = card.width, card.height
        colours = deck_colours(deck)
        for i, face in enumerate(deck.cards):
            for f in (face, face.back) if isinstance(face.back, CardFace) else (face,):
                if size == "mini-usa" and f.text == _LONGEST:
                    # 726 characters are too many for a 41 x 63 mm card: a clear error
                    with pytest.raises(TextFitError, match="The Long Council"):
                        prepare_face(f, deck, w, h, colours, i + 1, len(deck.cards))
                    continue
                fl = prepare_face(f, deck, w, h, colours, i + 1, len(deck.cards))
                if fl.text is not None:
                    x, y, bw, bh = fl.text_box
                    _check_inside(fl.text, bw, bh)
                    assert x >= fl.border + TEXT_PAD - 1e-9
                    assert x + bw <= w - fl.border - TEXT_PAD + 1e-6
                    assert y >= fl.border and y + bh <= h - fl.border - fl.header_h


def test_a_card_text_too_long_for_the_card_names_the_card():
    deck = Deck(title="Test", cards=[CardFace("Talker", "Event", _LONGEST * 2)])
    with pytest.raises(TextFitError) as err:
        prepare_face(deck.cards[0], deck, CARD_SIZES["mini-usa"].width,
                     CARD_SIZES["mini-usa"].height, deck_colours(deck), 1, 1)
    assert "deck 'Test', card 'Talker': text" in err.value.message
