"""Knights of Camelot orders as players type them on a phone (docs/koc-engine.md, Play by
email): a full stop, 'please', curly quotes, 'ride to', 'move to', 'board ship', 'ask the lord
for an adventure'. Such a line is read a second time only when refused as typed, so every line
accepted before means the same (stored orders replay alike); a text the grammar always read
loosely ('of lord.', 'on fate: robs, avoid') still parses as before and is refused by the checks
when sent, saying what to write."""
from __future__ import annotations

import pytest
from kocpos import pos

from companion.engine.orders import OrdersRejected
from companion.koc.kind import KIND
from companion.koc.orders import parse_orders

PLAYERS = ["Anna", "Bert"]


def read(text: str) -> list[tuple]:
    orders = parse_orders(KIND.world, PLAYERS, text, "anna.txt")
    out = [(s["do"], s.get("area") or s.get("target")) for s in orders.plan]
    out += [("request", r["request"], r["of"]) for r in orders.requests]
    out += [("pray", p["for"], p["to"]) for p in orders.prayers]
    out += [("answer", a["key"], a["answer"]) for a in orders.answers]
    out += [("on", a["key"], a["answer"]) for a in orders.standing or []]
    out += [("join", orders.join)] if orders.join else []
    out += [("leave",)] if orders.leave else []
    return out


def refused(text: str) -> OrdersRejected:
    with pytest.raises(OrdersRejected) as info:
        parse_orders(KIND.world, PLAYERS, text, "anna.txt")
    return info.value


@pytest.mark.parametrize("text, meant", [
    # accepted before, and read as before
    ("move cornwall", [("move", "Cornwall")]),
    ("move corn, tamar", [("move", "Cornwall"), ("move", "Tamar")]),
    ("go to camelot", [("to", "Camelot Castle")]),
    ("request release from oath", [("request", "release from oath", None)]),
    ("request adventure of King Mark", [("request", "adventure", "king mark")]),
    ("on encounter monster : avoid", [("on", "encounter", "avoid")]),
    ("pray for bert to heal, please", [("pray", "bert", "heal")]),
    # read a second time: refused as typed before
    ("Move Cornwall.", [("move", "Cornwall")]),
    ("please move cornwall", [("move", "Cornwall")]),
    ("move \u201cCornwall\u201d", [("move", "Cornwall")]),
    ("Stay.", [("stay", None)]),
    ("stay here please", [("stay", None)]),
    ("remain", [("stay", None)]),
    ("board the ship", [("board", None)]),
    ("Go to Camelot!", [("to", "Camelot Castle")]),
    ("go camelot", [("to", "Camelot Castle")]),
    ("ride to camelot", [("to", "Camelot Castle")]),
    ("travel to Camelot please", [("to", "Camelot Castle")]),
    ("move to camelot", [("to", "Camelot Castle")]),
    ("move to cornwall, tamar", [("move", "Cornwall"), ("move", "Tamar")]),
    ("move cornwall and tamar", [("move", "Cornwall"), ("move", "Tamar")]),
    ("move cornwall, then tamar.", [("move", "Cornwall"), ("move", "Tamar")]),
    ("move cornwall; tamar", [("move", "Cornwall"), ("move", "Tamar")]),
    ("sail to celtic sea", [("sail", "Celtic Sea")]),
    ("debark at cornwall", [("debark", "Cornwall")]),
    ("fight bert", [("confront", "Bert")]),
    ("Challenge Bert.", [("confront", "Bert")]),
    ("request an adventure of the lord", [("request", "adventure", "lord")]),
    ("request men at arms from lord", [("request", "men at arms", "lord")]),
    ("request release from oath from lord", [("request", "release from oath", "lord")]),
    ("ask for adventure", [("request", "adventure", None)]),
    ("ask the lord for an adventure", [("request", "adventure", "lord")]),
    ("ask king mark for men at arms please", [("request", "men at arms", "king mark")]),
    ("on encounter monster: Avoid.", [("on", "encounter", "avoid")]),
    ("answer adventure: decline please", [("answer", "adventure", "decline")]),
    ("attend the tournament", [("answer", "tournament", "yes")]),
    ("join Bert's party", [("join", "Bert")]),
    ("leave the party", [("leave",)]),
])
def test_phone_typing_is_understood(text, meant):
    assert read(text) == meant


def test_a_line_read_again_adds_only_what_the_second_reading_found():
    """'move cornwall, tamar.' as typed stepped into Cornwall before 'tamar.' was refused; the
    second reading starts from what the lines before it gave."""
    orders = parse_orders(KIND.world, PLAYERS, "stay\nmove cornwall, tamar.\n", "anna.txt")
    assert [s["do"] for s in orders.plan] == ["stay", "move", "move"]
    assert [s["line"] for s in orders.plan] == [1, 2, 2]


@pytest.mark.parametrize("text, col", [
    ("move cornwall, stay", 16),
    ("stay, request adventure of lord", 5),
    ("move cornwall and request adventure of lord", 19),
])
def test_two_orders_on_a_line_are_refused_with_one_order_per_line(text, col):
    error, = refused(text).errors
    assert error.col == col and error.line.text == text
    assert error.suggestion.startswith("one order per line: put '")


def test_a_shortened_refusal_keeps_the_error_as_typed_when_reading_again_gets_no_further():
    error, = refused("move nowhere.").errors
    assert error.message == "no area called 'nowhere.'" and error.col == 6


def check(text: str, state=None):
    state = state or KIND_STATE()
    orders = KIND.parse_orders(state, "Anna", text, "anna.txt")
    KIND.check_orders(state, "Anna", orders, "anna.txt")
    return orders


def KIND_STATE():
    from companion.koc.position import read_position

    state = read_position(KIND.world, pos(at="Tintagel", lord="King Mark",
                                             others={"Bert": 'at = "Cornwall"'}), "case.toml")
    state["edition"] = KIND.edition
    return state


def check_errors(text: str) -> list[tuple]:
    with pytest.raises(OrdersRejected) as info:
        check(text)
    return [(e.col, e.message, e.suggestion) for e in info.value.errors]


@pytest.mark.parametrize("text, message, hint", [
    ("request adventure of lord.", "'of lord.' names nobody the request could be made of",
     "write 'of lord'"),
    ("request adventure of my lord", "'of my lord' names nobody the request could be made of",
     "write 'of lord'"),
    ("request dwarf of lord please", "'of lord please' names nobody the request could be made "
     "of", "write 'of lord'"),
    ("request castle of lord.", "'of lord.' names nobody the request could be made of",
     "write 'of lord'"),
    ("seek merlin.", "'seek merlin.' seeks nothing known by that name", "write 'seek merlin'"),
    ("pray for bert to heal.", "a prayer cannot ask to 'heal.'", "write 'to heal'"),
])
def test_loose_free_texts_parse_as_before_and_are_refused_when_sent(text, message, hint):
    assert check_errors(text) == [(1, message, hint)]


@pytest.mark.parametrize("text, col, unread, hint", [
    ("on fate: robs, avoid", 14, "', avoid'", "one order (or answer) per line"),
    ("answer adventure: accept, stay", 25, "', stay'", "one order per line: put 'stay ...'"),
    ("request adventure, request dwarf", 18, "', request dwarf'",
     "one order per line: put 'request ...'"),
    ("on encounter monster: avoid (unless weak)", 29, "'(unless weak)'", "after '#'"),
])
def test_text_left_unread_after_an_order_is_refused_when_sent(text, col, unread, hint):
    orders = parse_orders(KIND.world, PLAYERS, text, "anna.txt")      # read as it always was
    assert len(orders.answers + (orders.standing or []) + orders.requests) == 1
    (at, message, suggestion), = check_errors(text)
    assert at == col and message == f"text after the order would not be read: {unread}"
    assert hint in suggestion


@pytest.mark.parametrize("text", [
    "request adventure of lord", "request adventure of king mark", "seek merlin",
    "request adventure of Queen of the Out Isles", "pray for bert to heal, please",
    "on fate: robs.", "on fate: robs, thanks!",
])
def test_what_names_someone_or_asks_nothing_more_passes(text):
    check(text)


@pytest.mark.parametrize("text, hint", [
    ("ride", "did you mean 'go to <area>'?"), ("Travel please", "did you mean 'go to <area>'?"),
    ("fight", "did you mean 'attack <player>'?"),
])
def test_a_bare_word_for_an_order_says_what_the_order_looks_like(text, hint):
    [error] = refused(text).errors
    assert error.message.startswith("unknown order") and error.suggestion == hint


def test_a_step_after_a_refused_one_is_judged_from_it_and_the_comment_is_not_marked():
    """docs/koc-engine.md, Play by email: Anna stands in Tintagel. 'Strangore' is not next to
    it; the step after it, 'Cornwall' (next to Tintagel), is judged from Strangore, the area the
    refused step named, not from Tintagel. The marks under the line cover the order, not the
    comment after it."""
    with pytest.raises(OrdersRejected) as info:
        check("move Strangore, Cornwall      # a note\n")
    first, second = info.value.errors
    assert first.message == "Strangore is not next to Tintagel"
    assert second.message == "Cornwall is not next to Strangore"
    assert (first.col, first.length) == (1, len("move Strangore, Cornwall"))
    assert "^" * 24 + "\n" in info.value.render() and "^" * 25 not in info.value.render()
