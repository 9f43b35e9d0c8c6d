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
    ("move Alberto to Chart insist", "expected how many points to reveal at most "
     "(a whole number, or 'all')"),
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
    assert lines[2].startswith("skipped means not possible when your action comes, so not "
                               "proposed; rejected means proposed and stopped by an objection")
    assert "the remaining moves are proposed in turn" in lines[3]
    assert lines[4] == "if every choice is skipped: the assignment below is made instead"
    assert lines[5] == "otherwise: assign 7 (unit A7) + 3 (unit A3) to Mansur Al-Jallah"
    assert lines[6] == "standing order 1: object any up to 4"


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


# ------------------------------------------------------------------ rules edition 2 and after

def current(**kw):
    """A position of a game begun now (rules edition of today); ``start`` reads a bare
    position, which is a game of edition 0."""
    state = start(**kw)
    state["edition"] = KIND.edition
    return state


def test_the_rules_edition_is_4():
    assert KIND.edition == 4


@pytest.mark.parametrize("text, where, expected, hint", [
    ("object any with grail without grail up to 5", "anna.txt:1:23:",
     "syntax error: contradictory conditions: 'without grail' contradicts 'with grail' "
     "(column 12): the active initiate cannot both hold the grail after the action and not "
     "hold it, so this line could never object", "keep one of them; to object whether or not "
     "the grail goes along, leave both out"),
    ("object Alberto   WITHOUT  grail to Akkon with grail up to all", "anna.txt:1:42:",
     "'with grail' contradicts 'WITHOUT grail' (column 18)", "leave both out"),
    ("object any by Bert except by bert up to 3", "anna.txt:1:20:",
     "'except by bert' contradicts 'by Bert' (column 12): an action cannot be both by that "
     "player and by somebody else", "keep one of them: 'by Bert' objects to Bert's actions "
     "only, 'except by Bert' to everybody else's"),
    ("object any except by Cora ending by Cora up to 3", "anna.txt:1:34:",
     "'by Cora' contradicts 'except by Cora' (column 12)", "keep one of them"),
    ("object Alb blowing Alberto up to 3", "anna.txt:1:12:",
     "'blowing Alberto' contradicts 'object Alb' (column 1): the objection is to actions of "
     "Alberto Castellano, who cannot blow his own cover",
     "write 'object any blowing Alberto Castellano ...'"),
])
def test_contradictory_conditions_are_refused_from_edition_2(text, where, expected, hint):
    """An objection that could never apply is refused with where (line, column), both
    conflicting clauses as written, and a suggestion; nothing of the file is accepted."""
    out = errors(text, current())
    assert where in out and expected in out and hint in out
    assert "no orders were accepted" in out


def test_conditions_that_only_overlap_are_not_contradictions():
    orders = parse("object any by Bert except by Cora up to 3\n"
                   "object any to Akkon from Akkon up to 2\n"
                   "object Alberto blowing any without grail ending up to all\n", current())
    assert [ob.to_json()["except_by"] for ob in orders.standing] == ["Cora", None, None]


def test_a_game_of_an_earlier_edition_reads_contradictions_as_it_did():
    """Stored orders of an edition-1 game replay unchanged: the later condition wins."""
    for old in (0, 1):
        state = start()
        if old:
            state["edition"] = old
        [ob] = parse("object any with grail without grail up to 5", state).standing
        assert ob.grail is False
        [ob] = parse("object any by Bert except by Bert up to 5", state).standing
        assert (ob.by, ob.except_by) == ("Bert", "Bert")


def test_a_setup_position_refuses_a_contradictory_standing_order():
    from companion.errors import DataError

    with pytest.raises(DataError) as info:
        start(extra="standing: Bert: object any with grail without grail up to 5\n")
    assert "contradictory conditions: 'without grail' contradicts 'with grail'" in \
        info.value.render()


@pytest.mark.parametrize("typed, name", [
    ("S. Juan", "San Juan de la Peña"),
    ("s.juan", "San Juan de la Peña"),
    ("S. Juan Peña", "San Juan de la Peña"),         # the text board's short form
    ("S. Juan de la P.", "San Juan de la Peña"),
    ("S.", "San Juan de la Peña"),
    ("Rennes-le-Ch.", "Rennes-le-Château"),
    ("R.-le-Château", "Rennes-le-Château"),
    ("Const.", "Constantinople"),
    ("O Cebr.", "O Cebreiro"),
    ("Ext.", "Externsteine"),
])
def test_fields_may_be_shortened_with_a_dot(typed, name):
    state = current(next_player="Bert")
    [mv] = parse(f"move Adam to {typed}", state).moves
    assert KIND.world.field[mv.dest].name == name


@pytest.mark.parametrize("typed, name", [
    ("A. Castellano", "Alberto Castellano"),
    ("K. v. Eichstätt", "Kaspar von Eichstätt"),
    ("Y. ibn T.", "Yusuf ibn Tariq"),
    ("Mans. Al-J.", "Mansur Al-Jallah"),
])
def test_initiates_may_be_shortened_with_a_dot(typed, name):
    [ob] = parse(f"object {typed} to S. Juan up to 3", current()).standing
    assert KIND.world.initiate[ob.initiate].name == name


@pytest.mark.parametrize("text, expected", [
    ("move Adam to Mont.", "anna.txt:1:14: ambiguous name: the shortened name 'Mont.' could be "
     "any of: Montsalvat, Montségur"),
    ("move Adam to M.", "could be any of: Montsalvat, Montségur, Malta, Masyaf"),
    ("move Adam to Mont.", "write more of the shortened word to say which one"),
    ("move A. to Valencia", "the shortened name 'A.' could be any of: Alberto Castellano, "
     "Adam zu Weisenheim"),
    ("move Adam to St. Juan", "unknown name: no field called 'St. Juan'"),
    ("move Adam to St. Juan", "did you mean 'San Juan de la Peña'?"),
    ("move Adam to S. Juan nowhere", "expected 'with', 'leaving', 'dropping', 'and' or "
     "'insist' after the field's name, found 'nowhere'"),
])
def test_shortened_names_that_fit_several_or_none_are_refused(text, expected):
    assert expected in errors(text, current())


def test_shortening_changes_no_name_understood_before():
    """Every way of writing a name without a dot (each name, and every beginning of the whole
    name or of one of its words) means what it meant before the abbreviations, or stays an
    error; and a dot-free text that was unknown stays unknown."""
    from companion.engine.names import match_name
    from companion.engine.orders import Cursor, OrderError, order_lines
    from companion.gral.orders import Parser

    w = KIND.world
    parser = Parser(w, PLAYERS)
    for known, forms in ((w.field_names, parser.field_forms),
                         (w.initiate_names, parser.initiate_forms)):
        typed = set()
        for name in known:
            words = name.split()
            for k in range(1, len(name) + 1):
                typed.add(name[:k].strip())
            for i in range(len(words)):
                rest = " ".join(words[i:])
                typed.update(rest[:k].strip() for k in range(1, len(rest) + 1))
        for text in sorted(t for t in typed if t and "." not in t):
            before = match_name(text, known)
            line = order_lines(f"x {text}")[0]
            try:
                now = parser.resolve(line, line.tokens[1:], known, "name", forms)
            except OrderError:
                now = None
            assert now == before.name, (text, before, now)


def test_a_with_grail_move_is_refused_when_the_grail_cannot_be_at_hand():
    """docs/gral.md [58]: a move that can never become possible in time is refused at once;
    that includes its grail clause (Bert acts second: one action comes first)."""
    state = current()
    out = errors("move Alberto to Chartres with grail", state, player="Bert")
    assert ("the grail is lying on Golgota, 3 steps from Chartres; only 1 action comes "
            "before yours, so it cannot be at hand for Alberto Castellano's move by then") in out
    assert "the grail is lying on Golgota" in errors(
        "move Alberto to Glastonbury dropping grail", state, player="Bert")
    assert "the grail is lying on Golgota" in errors(
        "move Alberto to Chartres leaving grail", state, player="Bert")
    # two steps from the destination: an earlier action may bring it to the field next to it
    for text in ("move Bertrand to Troyes with grail", "move Mansur to Akkon with grail"):
        state = current(extra="piece: Bertrand de Voisins @ Chartres\n" + "".join(
            f"piece: {n} @ {f}\n" for n, f in [
                ("Mansur", "Masyaf"), ("Yusuf", "Masyaf"), ("Alberto", "Paris"),
                ("Tobias", "Kassel"), ("Elias", "Kassel"), ("Adam", "Ingolstadt"),
                ("Kaspar", "Ingolstadt")]) + "grail: Tortosa\n")
        orders = KIND.parse_orders(state, "Bert", text, "b.txt")
        if "Bertrand" in text:
            with pytest.raises(OrdersRejected, match="1 error"):
                KIND.check_orders(state, "Bert", orders, "b.txt")
        else:
            KIND.check_orders(state, "Bert", orders, "b.txt")
            assert "not possible in the position now" in KIND.acknowledge(state, "Bert",
                                                                          orders)[0]


def test_taking_the_grail_that_cannot_lie_free_is_refused_at_once():
    state = current(extra="sheet: Bert: Alberto Castellano = 10\n")
    out = errors("move Alberto to Chartres with grail and blow Bertrand taking grail", state,
                 player="Bert")
    assert "after 'with grail' the grail is not lying free on Chartres" in out
    out = errors("blow Bertrand by Alberto taking grail", state, player="Bert")
    assert ("the grail is lying on Golgota, 4 steps from Alberto Castellano on Paris; only 1 "
            "action comes before yours, so it cannot lie on his field by then") in out


def test_options_are_few_valid_and_include_standing_orders():
    """'companion options' on a phone: every legal move and blow, a few assign examples
    instead of every unit for every initiate, standing order examples, and 'pass' last."""
    opening = current(phase="opening")
    lines = KIND.options_for(opening, "Anna")
    assigns = [line for line in lines if line.startswith("assign ")]
    assert len(assigns) == 9 and len(lines) < 15
    assert "assign 10 to Alberto Castellano" in assigns and "assign 1 to Mansur Al-Jallah" in \
        assigns
    assert "object any ending up to all" in lines and lines[-1] == "pass"
    state = current(extra="sheet: Anna: Alberto Castellano = 10\n"
                          "standing: Anna: object any up to 3\n")
    lines = KIND.options_for(state, "Anna")
    assert "assign 9 to Mansur Al-Jallah" in lines        # the only 10 is used
    assert ["object Alberto Castellano up to all", "object any ending up to all",
            "object none"] == [line for line in lines if line.startswith("object ")]
    assert lines[-1] == "pass" and len(lines) < 40
    for line in lines:
        orders = KIND.parse_orders(state, "Anna", line, "options")
        KIND.check_orders(state, "Anna", orders, "options")
    titles = [title for title, _ in KIND.option_groups(state, "Anna")]
    assert titles[-2].startswith("Standing orders") and titles[-1] == "Or"


def test_options_hold_only_lines_a_player_might_send():
    """Each listed line is a choice as it stands: no two largest units heaped by '+' on
    whichever initiate comes first (the report's pattern shows the '+' form), and no 'object
    any ending up to all' in a round while the player has influence on no initiate on the
    board: an objection reveals influence on the active initiate, so that line never objects."""
    empty = current()
    lines = KIND.options_for(empty, "Anna")
    assert not [line for line in lines if "+" in line], lines
    assert not [line for line in lines if line.startswith("object ")], lines
    assert "Standing orders" not in " ".join(t for t, _ in KIND.option_groups(empty, "Anna"))
    assert lines[-1] == "pass" and "assign 10 to Mansur Al-Jallah" in lines
    some = current(extra="sheet: Anna: Yusuf ibn Tariq = 3\n")
    objects = [line for line in KIND.options_for(some, "Anna") if line.startswith("object ")]
    assert objects == ["object Yusuf ibn Tariq up to all", "object any ending up to all"]
    opening = KIND.options_for(current(phase="opening"), "Anna")
    assert "object any ending up to all" in opening         # in force after the assignment
    for state, line_list in ((empty, lines), (some, KIND.options_for(some, "Anna"))):
        for line in line_list:
            KIND.check_orders(state, "Anna", KIND.parse_orders(state, "Anna", line, "o"), "o")


def test_options_offer_a_bearer_no_with_grail_twin():
    """A bearer keeps the grail when nothing is said, so 'move X to F with grail' would repeat
    'move X to F' in the option list: only the plain move is offered (also before a blow);
    an initiate whose field the grail lies on is offered both (without it he leaves it)."""
    pieces = "".join(f"piece: {n} @ {f}\n" for n, f in [
        ("Mansur", "Akkon"), ("Yusuf", "Masyaf"), ("Alberto", "Tortosa"), ("Bertrand", "Paris"),
        ("Tobias", "Kassel"), ("Elias", "Kassel"), ("Adam", "Ingolstadt"),
        ("Kaspar", "Ingolstadt")])
    state = current(extra=pieces + "grail: Alberto Castellano\n"
                    "sheet: Anna: Alberto Castellano = 10+9\n")
    lines = KIND.options_for(state, "Anna")
    alberto = [line for line in lines if line.startswith("move Alberto")]
    assert "move Alberto Castellano to Akkon" in alberto
    assert not [line for line in alberto if "with grail" in line], alberto
    assert "move Alberto Castellano to Akkon and blow Mansur Al-Jallah" in alberto
    assert "move Alberto Castellano to Akkon leaving grail" in alberto
    assert "move Alberto Castellano to Akkon dropping grail" in alberto
    lying = current(extra=pieces + "grail: Tortosa\n")
    alberto = [line for line in KIND.options_for(lying, "Anna") if line.startswith("move Alb")]
    assert {"move Alberto Castellano to Akkon",
            "move Alberto Castellano to Akkon with grail"} <= set(alberto)


def test_acknowledgement_of_further_moves_after_rejections_says_the_game_waits():
    state = current(extra="sheet: Anna: Alberto Castellano = 5\n")
    state["pending"] = {"player": "Anna", "rejected": [["alberto-castellano", "chartres"]],
                        "proposed": ["move Alberto Castellano to Chartres"]}
    lines = KIND.acknowledge(state, "Anna", parse("move Tobias to Wartburg", state))
    assert lines[-2] == ("if none goes ahead while other moves remain: you are asked for more "
                         "moves (assigning is allowed only once every move is rejected)")
    assert not any(line.startswith("if every choice is skipped") for line in lines)


def test_options_offer_no_drop_after_a_move_home():
    """Rules edition 4 (casebook cases 95, 96): carrying the grail into the bearer's own
    headquarters ends the game before he could drop it, so the option list offers the move home
    and 'leaving grail', never 'dropping grail' there; a game of edition 3 still offers it."""
    pieces = "".join(f"piece: {n} @ {f}\n" for n, f in [
        ("Mansur", "Antioch"), ("Yusuf", "Masyaf"), ("Alberto", "Paris"), ("Bertrand", "Paris"),
        ("Tobias", "Kassel"), ("Elias", "Kassel"), ("Adam", "Ingolstadt"),
        ("Kaspar", "Ingolstadt")])
    state = current(extra=pieces + "grail: Mansur Al-Jallah\n")
    mansur = [line for line in KIND.options_for(state, "Anna") if line.startswith("move Mansur")]
    assert {"move Mansur Al-Jallah to Masyaf",
            "move Mansur Al-Jallah to Masyaf leaving grail"} <= set(mansur), mansur
    assert "move Mansur Al-Jallah to Masyaf dropping grail" not in mansur
    assert "move Mansur Al-Jallah to Vienna dropping grail" in mansur
    state["edition"] = 3
    mansur = [line for line in KIND.options_for(state, "Anna") if line.startswith("move Mansur")]
    assert "move Mansur Al-Jallah to Masyaf dropping grail" in mansur
