"""Shared engine machinery: names, chance, order texts, options."""
from __future__ import annotations

import pytest

from companion.engine.chance import Chance, ChanceError, parse_dice, seed_key
from companion.engine.game import OptionSpec, parse_option_args, resolve_options
from companion.engine.names import fold, match_name, slugify, unique_slugs
from companion.engine.orders import (
    AmbiguousNameError, Cursor, OrderSyntaxError, OrdersRejected, UnknownNameError, order_lines,
    resolve_name, tokenize,
)
from companion.errors import CompanionError

NAMES = ["Alberto Castellano", "Adam zu Weisenheim", "Kaspar von Eichstätt", "Rennes-le-Château"]


# ---------------------------------------------------------------------------------- names
def test_fold_ignores_case_accents_and_hyphens():
    assert fold("Rennes-le-Château") == fold("RENNES LE CHATEAU") == "rennes le chateau"


@pytest.mark.parametrize("typed, expected", [
    ("alberto castellano", "Alberto Castellano"),   # exact, any case
    ("alb", "Alberto Castellano"),                  # unique prefix
    ("castell", "Alberto Castellano"),              # prefix of a later word
    ("kaspar von eichstatt", "Kaspar von Eichstätt"),  # accents ignored
    ("rennes le ch", "Rennes-le-Château"),
])
def test_match_name(typed, expected):
    assert match_name(typed, NAMES).name == expected


def test_ambiguous_and_unknown_names():
    found = match_name("a", NAMES)
    assert found.ambiguous and set(found.candidates) == {"Alberto Castellano", "Adam zu Weisenheim"}
    found = match_name("Albrto", NAMES)
    assert not found.ok and found.suggestions == ("Alberto Castellano",)


@pytest.mark.parametrize("typed", ["alb", "a", "Albrto", "castell", "zzz", "", "Rennes x"])
def test_match_without_suggestions_differs_only_in_the_suggestions(typed):
    """Parsers that only probe whether some words name anything skip the suggestions."""
    full, quick = match_name(typed, NAMES), match_name(typed, NAMES, suggest=False)
    assert (quick.name, quick.candidates, quick.suggestions) == (full.name, full.candidates, ())


def test_exact_match_wins_over_prefix():
    assert match_name("Ann", ["Ann", "Anna"]).name == "Ann"


def test_slugs():
    assert slugify("Jörg <b>Ünal</b> & Co") == "jorg-b-unal-b-co"
    assert slugify("Борис Ельцин") == "boris-eltsin"
    assert slugify("Σωκράτης") == "sokratis"
    with pytest.raises(ValueError, match="share the file name"):
        unique_slugs(["Anna", "ANNA!"])
    with pytest.raises(ValueError, match="no letters or digits"):
        unique_slugs(["???"])


# ---------------------------------------------------------------------------------- chance
def test_stream_is_deterministic_and_recorded_with_purpose():
    key = seed_key("42")
    a, b = Chance(key, 3), Chance(key, 3)
    rolls_a = [a.roll(6, "test die") for _ in range(50)]
    rolls_b = [b.roll(6, "test die") for _ in range(50)]
    assert rolls_a == rolls_b and set(rolls_a) == {1, 2, 3, 4, 5, 6}
    assert a.outcomes[0].purpose == "test die" and a.outcomes[0].source == "stream"
    assert Chance(key, 4).roll(6, "x") is not None
    assert [Chance(key, t).roll(1000, "x") for t in range(5)] != [Chance(key, 0).roll(1000, "x")] * 5


def test_stream_is_uniform_enough():
    chance = Chance(seed_key("uniform"), 1)
    counts = [0] * 6
    for _ in range(6000):
        counts[chance.roll(6, "u") - 1] += 1
    assert all(850 < c < 1150 for c in counts), counts


def test_supplied_dice_come_first_then_the_stream():
    chance = Chance(seed_key("1"), 1, dice=[3, 5])
    assert chance.roll(6, "a") == 3 and chance.roll(6, "b") == 5
    chance.roll(6, "c")
    assert [o.source for o in chance.outcomes] == ["moderator", "moderator", "stream"]


def test_supplied_die_out_of_range_is_refused():
    chance = Chance(seed_key("1"), 1, dice=[7])
    with pytest.raises(ChanceError, match="6-sided"):
        chance.roll(6, "a")


def test_replay_uses_recorded_outcomes_and_checks_purpose():
    first = Chance(seed_key("s"), 2)
    first.roll(6, "attack")
    first.shuffle(list("abcde"), "deck")
    first.choice(3, "first player")
    recorded = first.to_json()
    again = Chance(seed_key("another seed entirely"), 2, replay=recorded)
    assert again.roll(6, "attack") == recorded[0]["value"]
    assert again.shuffle(list("abcde"), "deck") == [list("abcde")[i] for i in recorded[1]["value"]]
    assert again.choice(3, "first player") == recorded[2]["value"]
    again.check_replay_complete()
    wrong = Chance(seed_key("s"), 2, replay=recorded)
    with pytest.raises(ChanceError, match="for 'attack'"):
        wrong.roll(6, "defence")


def test_parse_dice():
    assert parse_dice("3, 5,1") == [3, 5, 1]
    assert parse_dice(None) == []
    with pytest.raises(ChanceError, match="item 2"):
        parse_dice("3,x")


# ---------------------------------------------------------------------------------- order texts
def test_comments_quotes_and_signature_are_ignored():
    text = ("> move something quoted\n"
            "move Alberto to \"Akkon\"   # a comment\n"
            "   \n"
            "# only a comment\n"
            "pass\n"
            "-- \n"
            "Gregor, sent from a phone\n"
            "move after the signature\n")
    lines = order_lines(text)
    assert [l.number for l in lines] == [2, 5]
    assert [t.text for t in lines[0].tokens] == ["move", "Alberto", "to", "Akkon"]
    assert lines[0].tokens[3].kind == "quoted"


def test_tokens_carry_columns():
    tokens = tokenize("assign 10+5 to Mansur")
    assert [(t.text, t.col, t.kind) for t in tokens] == [
        ("assign", 1, "word"), ("10", 8, "number"), ("+", 10, "punct"), ("5", 11, "number"),
        ("to", 13, "word"), ("Mansur", 16, "word")]


def test_error_kinds_and_format():
    line = order_lines("move alb to nowhere land")[0]
    cur = Cursor(line)
    cur.next()
    span = cur.span_until(("to",), "an initiate")
    assert resolve_name(line, span, NAMES, "initiate") == "Alberto Castellano"
    cur.expect("to", "after the name")
    span = cur.span_until((), "a field")
    with pytest.raises(UnknownNameError) as info:
        resolve_name(line, span, ["Akkon", "Malta"], "field")
    err = info.value
    err.filename = "anna.txt"
    text = err.format()
    assert text.startswith("anna.txt:1:13: unknown name: no field called 'nowhere land'")
    assert "    move alb to nowhere land\n                ^^^^^^^^^^^^" in text
    line = order_lines("move a to x")[0]
    with pytest.raises(AmbiguousNameError, match="could be any of"):
        resolve_name(line, [line.tokens[1]], NAMES, "initiate")
    with pytest.raises(OrderSyntaxError, match="expected 'to'"):
        c = Cursor(order_lines("move alb")[0])
        c.next(); c.span_until(("to",), "x"); c.expect("to", "after the name")


def test_rejected_file_lists_every_error():
    errors = [OrderSyntaxError("first", order_lines("a")[0], 1), OrderSyntaxError("second",
                                                                               order_lines("b")[0], 1)]
    rejected = OrdersRejected(errors, "f.txt")
    text = rejected.render()
    assert "f.txt:1:1: syntax error: first" in text and "f.txt:1:1: syntax error: second" in text
    assert text.endswith("2 errors in f.txt; no orders were accepted")


# ---------------------------------------------------------------------------------- options
def test_options_validation():
    specs = (OptionSpec("missing", "", "default", ("default", "wait")),
             OptionSpec("limit", "", "0", parse=lambda v, p: int(v)))
    assert resolve_options(specs, {}, []) == {"missing": "default", "limit": 0}
    assert resolve_options(specs, parse_option_args(["missing=WAIT", "limit=3"]), []) == \
        {"missing": "wait", "limit": 3}
    with pytest.raises(CompanionError, match="unknown option 'mising'") as info:
        resolve_options(specs, {"mising": "wait"}, [])
    assert "did you mean 'missing'" in info.value.hint
    with pytest.raises(CompanionError, match="'later' is not one of default, wait"):
        resolve_options(specs, {"missing": "later"}, [])
    with pytest.raises(CompanionError, match="expected KEY=VALUE"):
        parse_option_args(["missing"])
