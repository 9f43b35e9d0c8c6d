"""Option parsing: what the user types for --paper, --card, --bleed, --backs, --back-offset, --only."""
from __future__ import annotations

import pytest

from companion.errors import UsageError
from companion.render.printkit import (A4, CARD_SIZES, LETTER, PrintOptions, parse_back_offset,
                                       parse_backs, parse_bleed, parse_card_size, parse_only,
                                       parse_paper)


def test_paper_sizes_are_exact():
    assert (round(A4.width, 2), round(A4.height, 2)) == (595.28, 841.89)
    assert (LETTER.width, LETTER.height) == (612.0, 792.0)
    assert parse_paper("A4") is A4
    assert parse_paper("letter") is LETTER
    assert parse_paper("US-Letter") is LETTER


def test_unknown_paper_names_the_accepted_ones():
    with pytest.raises(UsageError) as err:
        parse_paper("a5")
    assert "a5" in err.value.message
    assert "a4, letter" in err.value.hint


@pytest.mark.parametrize("name,size", [("poker", (63, 88)), ("bridge", (57, 89)),
                                       ("tarot", (70, 120)), ("mini-euro", (44, 67)),
                                       ("mini-usa", (41, 63))])
def test_named_card_sizes(name, size):
    card = parse_card_size(name)
    assert (card.width_mm, card.height_mm) == size
    assert CARD_SIZES[name] == card


@pytest.mark.parametrize("text,size", [("63x88", (63, 88)), ("63.5x88", (63.5, 88)),
                                       ("63 x 88 mm", (63, 88)), ("63×88", (63, 88)),
                                       ("70X120", (70, 120)), ("Mini European", (44, 67))])
def test_custom_card_sizes(text, size):
    card = parse_card_size(text)
    assert (card.width_mm, card.height_mm) == size


@pytest.mark.parametrize("text,needle", [
    ("63x", "the height is missing"),
    ("x88", "the width is missing"),
    ("63x88x2", "expected two numbers"),
    ("63xabc", "'abc' is not a number"),
    ("63,5x88", "point, not a comma"),
    ("5x88", "outside 10..400 mm"),
    ("pokr", "unknown card size"),
])
def test_bad_card_sizes_say_what_is_wrong_and_the_accepted_forms(text, needle):
    with pytest.raises(UsageError) as err:
        parse_card_size(text)
    assert needle in err.value.message
    assert f"--card '{text}'" in err.value.message
    assert "poker" in err.value.hint and "63x88" in err.value.hint


def test_card_size_typo_suggests():
    with pytest.raises(UsageError) as err:
        parse_card_size("pokr")
    assert "did you mean 'poker'" in err.value.hint


@pytest.mark.parametrize("text,value", [("0.5,-1", (0.5, -1.0)), (" 0.5 , -1 ", (0.5, -1.0)),
                                        ("1mm,2mm", (1.0, 2.0)), ("-0,0", (0.0, 0.0)),
                                        ("0.25 -0.75", (0.25, -0.75)), ("+1;-1", (1.0, -1.0))])
def test_back_offset(text, value):
    assert parse_back_offset(text) == value


@pytest.mark.parametrize("text,needle", [("0.5", "has 1 number, expected 2"), ("", "is empty"),
                                         ("1,2,3", "has 3 numbers"), ("a,1", "X 'a' is not"),
                                         ("1,b", "Y 'b' is not"), ("30,0", "more than 20 mm")])
def test_bad_back_offset(text, needle):
    with pytest.raises(UsageError) as err:
        parse_back_offset(text)
    assert needle in err.value.message
    assert "X,Y" in err.value.hint and "calibrate" in err.value.hint


def test_bleed_and_backs_and_only():
    assert parse_bleed("3") == 3.0
    assert parse_bleed("2.5mm") == 2.5
    assert parse_bleed(0) == 0.0
    for bad, needle in (("-1", "between 0 and 10"), ("11", "between 0 and 10"),
                        ("three", "not a number"), ("2,5", "point, not a comma")):
        with pytest.raises(UsageError) as err:
            parse_bleed(bad)
        assert needle in err.value.message
    assert parse_backs("duplex-long") == "duplex-long"
    assert parse_backs("Short") == "duplex-short"
    assert parse_backs("fold-over") == "fold"
    with pytest.raises(UsageError) as err:
        parse_backs("duplex-lon")
    assert "did you mean 'duplex-long'" in err.value.hint
    assert parse_only("cards, chits") == ("cards", "chits")
    assert parse_only(None) == ()
    with pytest.raises(UsageError):
        parse_only(" , ")


def test_print_options_from_strings():
    opts = PrintOptions.from_strings(paper="letter", card="63x88", bleed="3", backs="short",
                                     back_offset="0.5,-1", only="cards", out="kit.pdf",
                                     cut_lines=True, crop_marks=False)
    assert opts.paper is LETTER
    assert (opts.card.width_mm, opts.card.height_mm) == (63, 88)
    assert opts.bleed_mm == 3.0 and opts.backs == "duplex-short"
    assert opts.back_offset_mm == (0.5, -1.0)
    assert opts.only == ("cards",) and str(opts.out) == "kit.pdf"
    assert opts.cut_lines and not opts.crop_marks
    assert "US Letter" in opts.describe() and "back offset 0.5,-1 mm" in opts.describe()
    defaults = PrintOptions()
    assert defaults.paper is A4 and defaults.card is None and defaults.bleed_mm == 0
    assert defaults.margin_mm == 8.0 and defaults.backs == "none" and defaults.crop_marks


def test_safe_margin_is_at_least_8_mm():
    with pytest.raises(UsageError) as err:
        PrintOptions(margin_mm=5)
    assert "less than 8 mm" in err.value.message
    with pytest.raises(UsageError):
        PrintOptions.from_strings(margin="6")
    assert PrintOptions.from_strings(margin="10").margin_mm == 10


def test_importing_the_package_does_not_load_reportlab():
    import subprocess
    import sys

    code = ("import sys, companion.render.printkit as pk; "
            "pk.PrintOptions.from_strings(card='poker', back_offset='1,1'); "
            "pk.layout_items(10, pk.CARD_SIZES['poker'], pk.A4); "
            "import companion.render.printkit.sample; "
            "print(any(m.startswith('reportlab') for m in sys.modules))")
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         cwd=root)
    assert out.stdout.strip() == "False"
