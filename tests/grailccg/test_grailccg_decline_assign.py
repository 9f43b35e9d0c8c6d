"""The order forms of declining the Round Table draw and reassigning a page (docs/grailccg.md):
the grammar and its canonical spelling, mistakes located at line and column, the legal lines a
report offers, and the order help. The rules themselves are in the casebook (cases 72-77)."""
from __future__ import annotations

import pytest

from companion.engine.orders import OrdersRejected
from companion.grailccg import views
from companion.grailccg.kind import KIND
from companion.grailccg.orders import line_text

from ccg_play import build


def _state():
    return build(KIND, {"setup": {"Anna": {"table": ["Arthur", "Lancelot"],
                                           "pages": [["Patsy", "Arthur"], ["Page", ""]]}}})


@pytest.mark.parametrize("text, entry, canonical", [
    ("decline", {"kind": "decline", "card": None}, "decline"),
    ("Decline draw", {"kind": "decline", "card": None}, "decline"),
    ("decline gawain", {"kind": "decline", "card": "gawain"}, "decline Gawain"),
    ("decline draw for Sir Gawain", {"kind": "decline", "card": "gawain"}, "decline Gawain"),
    ("assign page to lancelot", {"kind": "assign", "card": "page", "knight": "lancelot"},
     "assign Page to Lancelot"),
    ("assign Humphrey to Brave Sir Robin", {"kind": "assign", "card": "humphrey-the-page",
                                      "knight": "brave-sir-robin"},
     "assign Humphrey the Page to Brave Sir Robin"),
])
def test_the_grammar_and_its_canonical_spelling(text, entry, canonical):
    state = _state()
    parsed = KIND.parse_orders(state, "Anna", text, "o.txt")
    got = {k: v for k, v in parsed.lines[0].items() if k not in ("line", "text")}
    assert got == entry
    assert line_text(KIND.cards, parsed.lines[0]) == canonical


@pytest.mark.parametrize("text, where, message", [
    ("assign Page Lancelot", "o.txt:1:8", "no card called 'Page Lancelot'"),
    ("assign Page to Lancelott", "o.txt:1:16", "did you mean 'Lancelot'"),
    ("decline Gawian", "o.txt:1:9", "no card called 'Gawian'"),
])
def test_mistakes_are_located(text, where, message):
    with pytest.raises(OrdersRejected) as info:
        KIND.parse_orders(_state(), "Anna", text, "o.txt")
    rendered = info.value.render()
    assert where in rendered and message in rendered, rendered


def test_orders_of_the_wrong_card_type_or_out_of_turn_are_refused():
    state = _state()
    for text, message in (("decline Excalibur", "Excalibur is not a knight or persona"),
                          ("assign Excalibur to Arthur", "Excalibur is not a page"),
                          ("assign Page to Zoot", "Zoot is not a knight")):
        parsed = KIND.parse_orders(state, "Anna", text, "o.txt")
        with pytest.raises(OrdersRejected) as info:
            KIND.check_orders(state, "Anna", parsed, "o.txt")
        assert message in info.value.render()
    parsed = KIND.parse_orders(state, "Bert", "decline", "o.txt")
    with pytest.raises(OrdersRejected) as info:
        KIND.check_orders(state, "Bert", parsed, "o.txt")
    assert "it is Anna's turn" in info.value.render()


def test_the_legal_lines_and_the_order_help_offer_both():
    lines = KIND.options_for(_state(), "Anna")
    assert "decline" in lines
    assert "assign Page to Arthur" in lines and "assign Page to Lancelot" in lines
    assert not any(line.startswith("assign Patsy") for line in lines)   # Patsy serves Arthur
    for line in lines:                      # every offered line is a valid order
        state = _state()
        KIND.check_orders(state, "Anna", KIND.parse_orders(state, "Anna", line, "o"), "o")
    helps = "\n".join(views.ORDER_HELP)
    assert "decline [<knight>]" in helps and "assign <page> to <knight>" in helps
