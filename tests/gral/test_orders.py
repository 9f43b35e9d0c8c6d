"""The Gral order grammar: what parses, what each error says, and the acknowledgement."""
from __future__ import annotations

import pytest

from companion.engine.orders import OrdersRejected
from companion.gral.kind import KIND
from companion.gral.position import read_position

PLAYERS = ["Anna", "Bert", "Cora"]


def start(phase="round", next_player="Anna", extra=""):
    text = (f"game: gral\nplayers: {', '.join(PLAYERS)}\nfirst: Anna\nphase: {phase}\n"
            + (f"next: {next_player}\n" if phase == "round" else "") + extra
            + ("grail: Golgota\n" if "grail:" not in extra else ""))
    return read_position(KIND.world, text, "test")


def parse(text, state=None):
    return KIND.parse_orders(state or start(), "Anna", text, "anna.txt")


def errors(text, state=None, player="Anna"):
    state = state or start()
    with pytest.raises(OrdersRejected) as info:
        orders = KIND.parse_orders(state, player, text, "anna.txt")
        KIND.check_orders(state, player, orders, "anna.txt")
    return info.value.render()


def test_full_grammar_parses():
    orders = parse("MOVE alb TO akk WITH GRAIL and blow mans taking grail insist all\n"
                   "blow Yusuf by Mansur insist 4\n"
                   "assign 10+5 to Tobias\nassign 3, 2 to Elias\n"
                   "object any to Masyaf from Akkon with grail blowing any by Bert except by Cora "
                   "ending up to 12\n"
                   "object Alberto without grail up to all\n")
    assert [m.dest for m in orders.moves] == ["akkon", None]
    first = orders.moves[0]
    assert (first.grail, first.blow, first.take, first.insist) == ("with", "mansur-al-jallah", True,
                                                                  "all")
    assert [a.values for a in orders.assigns] == [[10, 5], [3, 2]]
    ob = orders.standing[0].to_json()
    assert ob == {"initiate": None, "to": "masyaf", "from": "akkon", "grail": True,
                  "blowing": "any", "by": "Bert", "except_by": "Cora", "ending": True, "limit": 12}
    assert orders.standing[1].grail is False and orders.standing[1].limit == "all"


def test_object_none_clears_and_no_object_keeps():
    assert parse("object none").standing == []
    assert parse("pass").standing is None


@pytest.mark.parametrize("text, expected", [
    ("mvoe Alberto to Chartres", "anna.txt:1:1: syntax error: unknown order 'mvoe'\n"),
    ("mvoe Alberto to Chartres", "did you mean 'move'?"),
    ("move Alberto Chartres", "1:14: syntax error: expected 'to' after the initiate's name, found 'Chartres'"),
    ("move Albrto to Chartres", "unknown name: no initiate called 'Albrto'"),
    ("move Albrto to Chartres", "did you mean 'Alberto Castellano'?"),
    ("move A to Chartres", "ambiguous name: 'A' could be any of: Alberto Castellano, Adam zu Weisenheim"),
    ("move Alberto to Chart insist", "expected how many points to reveal at most (a whole number)"),
    ("assign 5 Alberto", "expected 'to' after the units"),
    ("object Alberto up to", "expected the most you will reveal"),
    ("object Alberto", "expected 'up to <N>' or 'up to all'"),
    ("object Alberto to Akkon to Malta up to 3", "the condition 'to' is given twice"),
    ("object Alberto by Zed up to 3", "unknown name: no player called 'Zed'"),
    ("pass\npass", "'pass' is given twice"),
    ("move Alberto to Chartres extra", "expected 'with', 'leaving', 'dropping', 'and' or 'insist' after the field's name, found 'extra'"),
    ("move Alberto to Chartres dropping", "expected 'grail' after 'dropping' (the line ends here)"),
])
def test_error_messages(text, expected):
    assert expected in errors(text)


def test_every_error_of_a_file_is_reported_with_its_line():
    text = "move Albrto to Chartres\n# fine\nassign 5 to Nobody\nmvoe x\n"
    rendered = errors(text)
    assert "anna.txt:1:6:" in rendered and "anna.txt:3:13:" in rendered
    assert "anna.txt:4:1:" in rendered and "3 errors in anna.txt" in rendered


def test_illegal_orders():
    assert "Troyes is not adjacent" in errors("move Alberto to Troyes")
    assert "'pass' means assigning nothing" in errors("pass\nassign 3 to Alberto")
    assert "uncovered" in errors("assign 3 to Yusuf", start(extra="piece: Yusuf @ uncovered\n"
                                 + "".join(f"piece: {n} @ {f}\n" for n, f in [
                                     ("Mansur", "Masyaf"), ("Alberto", "Paris"),
                                     ("Bertrand", "Paris"), ("Tobias", "Kassel"),
                                     ("Elias", "Kassel"), ("Adam", "Ingolstadt"),
                                     ("Kaspar", "Ingolstadt")])))
    over = start()
    over["phase"] = "over"
    assert "the game is over" in errors("pass", over)


def test_acknowledgement_says_what_was_understood():
    state = start(extra="sheet: Anna: Alberto Castellano = 10+5\n")
    orders = parse("move alb to chart insist 12\nmove Tobias to Wartburg\nassign 7+3 to Mansur\n"
                   "object any up to 4", state)
    lines = KIND.acknowledge(state, "Anna", orders)
    assert lines[0] == ("choice 1: move Alberto Castellano to Chartres, insisting up to 12 "
                        "(you have 15 on him now)")
    assert lines[1] == "choice 2: move Tobias Morgenstern to Wartburg, giving in at the first objection"
    assert "the remaining moves are proposed in turn" in lines[2]
    assert lines[3] == "otherwise: assign 7 (unit A7) + 3 (unit A3) to Mansur Al-Jallah"
    assert lines[4] == "standing order 1: object any up to 4"


def test_options_are_valid_orders():
    state = start(extra="sheet: Anna: Mansur Al-Jallah = 10\n")
    lines = KIND.options_for(state, "Anna")
    assert "move Alberto Castellano to Chartres" in lines and "pass" in lines
    assert "assign 10 to Mansur Al-Jallah" not in lines  # the only 10 is used
    for line in lines:
        orders = KIND.parse_orders(state, "Anna", line, "options")
        KIND.check_orders(state, "Anna", orders, "options")


def test_options_empty_when_game_over():
    state = start()
    state["phase"] = "over"
    assert KIND.options_for(state, "Anna") == []


def test_the_first_to_act_is_not_told_the_position_may_change_first():
    """The prompt of a round: the player acting first acts on the position shown; the others
    are told it may change before their turn."""
    from companion.gral.views import _asks

    state = start(next_player="Anna")
    first = _asks(KIND, state, "Anna")["prompt"]
    assert "You act first in the round" in first and "may change" not in first
    later = _asks(KIND, state, state["players"][1])["prompt"]
    assert "second in the round" in later and "may change before your turn" in later


def test_too_many_units_of_a_value_say_how_many_are_free():
    """'assign 9+9+9' with two 9s free names both numbers, not 'no free unit of 9'; a unit an
    earlier line of the same orders takes is said to be taken there."""
    state = start(phase="opening")
    out = errors("assign 9+9+9 to Adam\n", state)
    assert "you asked for 3 units of 9; only 2 are free" in out
    out = errors("assign 9+9 to Adam\nassign 9 to Kaspar\n", state)
    assert "you have no free unit of 9 left (an earlier line of these orders takes some)" in out
