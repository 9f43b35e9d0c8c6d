"""Gral orders as players type them on a phone (docs/gral.md, Orders): a full stop or '!' at
the end, 'please', curly quotes, 'uncover' for 'blow', 'with the grail', 'insist 3 points',
'assign 9 and 1', 'Eichstaett'. Such a line is read a second time only when refused as typed,
so every line accepted before means the same; the refusals that remain say what was meant."""
from __future__ import annotations

import pytest

from companion.engine.orders import OrdersRejected
from companion.gral.kind import KIND
from companion.gral.orders import move_text, objection_text
from companion.gral.position import read_position

PLAYERS = ["Anna", "Bert", "Cora"]
STATE = read_position(KIND.world, f"game: gral\nplayers: {', '.join(PLAYERS)}\nfirst: Anna\n"
                      "phase: round\nnext: Anna\ngrail: Golgota\n", "test")


def understood(text: str) -> list[str]:
    orders = KIND.parse_orders(STATE, "Anna", text, "anna.txt")
    out = [move_text(KIND.world, m) for m in orders.moves]
    out += [f"assign {'+'.join(map(str, a.values))} to {KIND.world.initiate[a.initiate].name}"
            for a in orders.assigns]
    out += ["pass"] if orders.passed else []
    out += [objection_text(KIND.world, o.to_json()) for o in orders.standing or []]
    out += ["object none"] if orders.standing == [] else []
    return out


def refused(text: str) -> OrdersRejected:
    with pytest.raises(OrdersRejected) as info:
        KIND.parse_orders(STATE, "Anna", text, "anna.txt")
    return info.value


@pytest.mark.parametrize("text, meant", [
    # accepted before, and read as before
    ("move mansur to antioch", "move Mansur Al-Jallah to Antioch"),
    ("Move Mansur to Antioch.", "move Mansur Al-Jallah to Antioch"),      # 'Antioch.' shortened
    ("assign 9, 1 to mansur", "assign 9+1 to Mansur Al-Jallah"),
    ("move tob to wart insist 3", "move Tobias Morgenstern to Wartburg insist 3"),
    ("object any ending up to all", "object any ending up to all"),
    # read a second time: refused as typed before
    ("move Mansur to akkon please", "move Mansur Al-Jallah to Akkon"),
    ("please move yusuf to akkon", "move Yusuf ibn Tariq to Akkon"),
    ("Blow Yusuf by Mansur!", "blow Yusuf ibn Tariq by Mansur Al-Jallah"),
    ("uncover yusuf by mansur", "blow Yusuf ibn Tariq by Mansur Al-Jallah"),
    ("expose yusuf by mansur taking the grail", "blow Yusuf ibn Tariq by Mansur Al-Jallah "
     "taking grail"),
    ("move \u201cMansur Al-Jallah\u201d to \u201cAkkon\u201d", "move Mansur Al-Jallah to Akkon"),
    ("move mansur to antioch insist all.", "move Mansur Al-Jallah to Antioch insist all"),
    ("move mansur to antioch insist 3 points", "move Mansur Al-Jallah to Antioch insist 3"),
    ("move alberto to chartres with the grail", "move Alberto Castellano to Chartres with grail"),
    ("assign 9 and 1 to mansur", "assign 9+1 to Mansur Al-Jallah"),
    ("Pass.", "pass"),
    ("pass please", "pass"),
    ("object any ending up to all.", "object any ending up to all"),
    ("object any to akkon up to 2 points", "object any to Akkon up to 2"),
    ("object none.", "object none"),
    ("move Kaspar von Eichstaett to O Cebreiro", "move Kaspar von Eichstätt to O Cebreiro"),
])
def test_phone_typing_is_understood(text, meant):
    assert understood(text) == [meant]


@pytest.mark.parametrize("text, col, hint", [
    ("move mansur to antioch, blow yusuf", 23, "join it with 'and'"),
    ("move mansur to antioch or move yusuf to akkon", 24, "one order per line: put 'move ...'"),
    ("move mansur to antioch, yusuf to akkon", 23, "write each move in full on a line of its"),
    ("assign 9 to yusuf and 1 to mansur", 19, "one initiate per 'assign' line"),
])
def test_two_orders_on_a_line_are_refused_with_a_hint(text, col, hint):
    error, = refused(text).errors
    assert error.col == col and error.line.text == text
    assert hint in error.suggestion


def test_a_refusal_keeps_the_error_as_typed_when_reading_again_gets_no_further():
    """'Mont.' is a shortened name that fits two fields: that is what the player is told, not
    what 'Mont' without its dot would say."""
    error, = refused("move Adam to Mont.").errors
    assert "the shortened name 'Mont.' could be any of" in error.message


def test_a_limit_may_be_all():
    error, = refused("object any up to everything").errors
    assert "(a whole number, or 'all')" in error.message
