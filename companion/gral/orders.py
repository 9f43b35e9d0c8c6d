"""The Gral order grammar.

Turn orders (the player's action; alternatives are tried in the order written)::

    move <initiate> to <field> [with grail | leaving grail | dropping grail]
         [and blow <initiate> [taking grail]] [insist <N> | insist all]
    blow <initiate> by <initiate> [taking grail] [insist <N> | insist all]
    assign <unit>[+<unit>...] to <initiate>      (the opening, or instead of moving)
    pass                                          (assign nothing: a bluff)

Standing orders (kept until replaced; the first line that matches a proposed move decides)::

    object <initiate | any> [to <field>] [from <field>] [with grail | without grail]
           [blowing <initiate | any>] [by <player>] [except by <player>] [ending]
           up to <N | all>
    object none

Names match ignoring case and accents; an unambiguous prefix is enough ("alb", "akk"). A name
no prefix matches may be written with words shortened by a dot ("S. Juan", "Rennes-le-Ch.",
"A. Castellano"; see ``abbreviated``); a field's short form on the text board is accepted too.

A line refused as typed is read once more as a phone leaves it (``second_reading``: 'Pass.',
curly quotes, 'please', 'uncover' for 'blow', 'with the grail', 'insist 3 points', 'assign 9 and
1', 'Eichstaett'); a line accepted as typed never changes its meaning that way.

From rules edition 2 an ``object`` line whose conditions can never hold together ("with grail
without grail", "by Anna except by Anna", "object Alberto blowing Alberto") is refused; games
of earlier editions keep reading such a line as before (the later condition wins), so that
their stored orders replay unchanged.
"""
from __future__ import annotations

import re
from dataclasses import field
from typing import Any, Sequence

from companion.engine.names import fold, match_name
from companion.engine.orders import (
    AmbiguousNameError, Cursor, IllegalOrderError, Line, OrderError, OrdersRejected,
    OrderSyntaxError, Token, UnknownNameError, forgiving, order_lines, read_line, resolve_name,
    span_text, unknown_keyword,
)
from companion.engine.record import record
from companion.engine.words import word_for

KEYWORDS = ("move", "blow", "assign", "pass", "object")
GRAIL_CLAUSES = {"with": "with", "leaving": "leave", "dropping": "drop"}
SYNONYMS = {"uncover": "blow", "expose": "blow"}
"""Words a player may write for an order's keyword ('uncover Yusuf by Mansur'); read only in
the second reading of a refused line."""
GRAIL_WORDS = ("with", "without", "leaving", "dropping", "taking")
POINTS = ("points", "point", "pts", "pt")
JOINERS = (",", ";", "and", "then", "or")


@record
class Move:
    line: Line
    initiate: str                 # initiate id (the active initiate)
    dest: str | None              # field id; None: blow without moving
    grail: str | None = None      # None, 'with', 'leave' or 'drop' (the move part)
    blow: str | None = None       # initiate id whose cover is blown
    take: bool = False            # take the grail after blowing the cover
    insist: int | str = 0         # the most the mover reveals to push it through, or 'all'


@record
class Assign:
    line: Line
    values: list[int]
    initiate: str


@record
class Objection:
    line: Line | None
    initiate: str | None          # None: any initiate
    to: str | None = None
    frm: str | None = None
    grail: bool | None = None     # True: with grail, False: without
    blowing: str | None = None    # initiate id, 'any', or None (no condition)
    by: str | None = None
    except_by: str | None = None
    ending: bool = False
    limit: int | str = 0          # points, or 'all'

    def to_json(self) -> dict[str, Any]:
        return {"initiate": self.initiate, "to": self.to, "from": self.frm, "grail": self.grail,
                "blowing": self.blowing, "by": self.by, "except_by": self.except_by,
                "ending": self.ending, "limit": self.limit}


@record
class GralOrders:
    moves: list[Move] = field(default_factory=list)
    assigns: list[Assign] = field(default_factory=list)
    passed: Line | None = None
    standing: list[Objection] | None = None     # None: standing orders unchanged
    lines: list[Line] = field(default_factory=list)     # every order line, in file order

    @property
    def has_action(self) -> bool:
        return bool(self.moves or self.assigns or self.passed)


# ------------------------------------------------------------------------------------- parsing
def _expected(stops: tuple[str, ...]) -> str:
    words = [f"'{w}'" for w in stops]
    if not words:
        return "the end of the line"
    return ", ".join(words[:-1]) + (" or " if len(words) > 1 else "") + words[-1]


_ABBREVIATED_WORD = re.compile(r"[^.\s]+\.*")


def _words(text: str) -> list[str]:
    """The words of a folded name, a word shortened with a dot kept with its dot: 's.juan'
    and 's. juan' are both ['s.', 'juan']."""
    return _ABBREVIATED_WORD.findall(fold(text))


def _fits(typed: list[str], words: list[str], start: int) -> bool:
    """Whether the typed words stand for the name's words from ``start`` on: a word with a dot
    for any word it begins ('s.' for 'san'), the last typed word for any word it begins, every
    other word for itself; the name's later words may be left out."""
    if start + len(typed) > len(words):
        return False
    for j, word in enumerate(typed):
        stem, full = word.rstrip("."), words[start + j].rstrip(".")
        if word.endswith(".") or j == len(typed) - 1:
            if not full.startswith(stem):
                return False
        elif full != stem:
            return False
    return True


def abbreviated(typed: str, forms: dict[str, str], known: Sequence[str]) -> list[str]:
    """The names ``typed`` stands for when it shortens words with a dot ("S. Juan" for "San
    Juan de la Peña", "Mont." for Montsalvat and Montségur). ``forms``: every written form
    (a name, a field's short form) -> the name. The forms whose first word the typed words
    begin with are tried first, then those where they begin at a later word (as names match by
    prefix); several names found is an ambiguous abbreviation. Only used for a name nothing
    else matches, so no name that was understood before is understood differently."""
    words = _words(typed)
    if not any(w.endswith(".") for w in words):
        short = [name for form, name in forms.items() if fold(form) == fold(typed)]
        return short[:1]
    order = {name: i for i, name in enumerate(known)}
    for later in (False, True):
        found = {name for form, name in forms.items()
                 for start in (range(1, len(_words(form))) if later else (0,))
                 if _fits(words, _words(form), start)}
        if found:
            return sorted(found, key=lambda name: order.get(name, len(order)))
    return []


def second_reading(line: Line) -> Line | None:
    """A refused line read again as a phone or a casual writer leaves it: ``forgiving`` (curly
    quotes, end punctuation, 'please'), then 'uncover'/'expose' for 'blow', 'the' left out of
    'with the grail' (and 'without', 'leaving', 'dropping', 'taking'), 'points' after a number
    ('insist 3 points', 'up to 2 points'), and 'and' between two units ('assign 9 and 1 to
    ...'). None when that changes nothing. Only for a line refused as typed."""
    base = forgiving(line) or line
    tokens = list(base.tokens)
    if tokens and tokens[0].kind == "word" and tokens[0].key in SYNONYMS:
        first = tokens[0]
        tokens[0] = Token(SYNONYMS[first.key], first.col, "word", width=first.end - first.col)
    out: list[Token] = []
    for i, token in enumerate(tokens):
        before = out[-1] if out else None
        after = tokens[i + 1] if i + 1 < len(tokens) else None
        if token.kind == "word" and token.key == "the" and before is not None and \
                before.key in GRAIL_WORDS and after is not None and after.key == "grail":
            continue
        if token.kind == "word" and token.key in POINTS and before is not None and \
                (before.kind == "number" or before.key == "all"):
            continue
        if token.kind == "word" and token.key == "and" and tokens[0].key == "assign" and \
                before is not None and before.kind == "number" and after is not None and \
                after.kind == "number":
            out.append(Token("+", token.col, "punct", width=token.end - token.col))
            continue
        out.append(token)
    if base is line and out == line.tokens:
        return None
    return Line(line.number, base.raw, out)


def joined_hint(tokens: Sequence[Token], col: int | None) -> str | None:
    """A suggestion for a refused line that joins a second order on ('move A to B, move C to
    D', '... or move ...', 'move ..., blow X', 'assign 9 to A and 1 to B'), found at the token
    where the line was refused."""
    at = next((i for i, t in enumerate(tokens) if t.col == col), None)
    if at is None:
        return None
    while at > 0 and tokens[at - 1].kind in ("word", "punct") and tokens[at - 1].key in JOINERS:
        at -= 1
    j = at
    while j < len(tokens) and tokens[j].kind in ("word", "punct") and tokens[j].key in JOINERS:
        j += 1
    if j == at or j >= len(tokens):
        return None
    head, nxt = tokens[0].key, tokens[j]
    if nxt.kind == "word" and nxt.key == "blow" and head == "move":
        return ("to blow a cover as part of the move, join it with 'and': 'move <initiate> to "
                "<field> and blow <initiate>'")
    if nxt.kind == "word" and (nxt.key in KEYWORDS or nxt.key in SYNONYMS):
        return (f"one order per line: put '{nxt.text} ...' on a line of its own (move and "
                "blow lines are alternatives, tried in the order written)")
    if head == "assign" and nxt.kind == "number":
        return ("one initiate per 'assign' line: put the units for the next initiate on a line "
                "of their own ('assign <units> to <initiate>')")
    if head in ("move", "blow") and tokens[at].key != "and":
        return ("one order per line: write each move in full on a line of its own ('move "
                "<initiate> to <field>'; the lines are alternatives, tried in the order written)")
    return None


def _umlauts(typed: str) -> str:
    """A name with the German way of writing an umlaut without one ('Eichstaett') written as
    its folded form ('Eichstatt', as 'Eichstätt' folds); tried only for a name nothing else
    matches."""
    return re.sub(r"([aou])e", r"\1", fold(typed))


GRAIL_CLASH = ("the active initiate cannot both hold the grail after the action and not hold "
               "it")
GRAIL_HINT = ("keep one of them; to object whether or not the grail goes along, leave both "
              "out")
BY_CLASH = "an action cannot be both by that player and by somebody else"


def _clause(first: Token, last: Token) -> tuple[int, int]:
    """The columns a clause takes: from its first word to the end of its last."""
    return first.col, last.end


class Parser:
    """Reads order texts. ``strict`` (rules edition 2 on): an ``object`` line whose conditions
    contradict each other is refused instead of the later condition winning."""

    def __init__(self, world, players: list[str], *, strict: bool = True):
        self.world = world
        self.players = players
        self.strict = strict
        self.field_forms = {f.name: f.name for f in world.fields}
        for f in world.fields:
            self.field_forms.setdefault(f.short, f.name)
        self.initiate_forms = {name: name for name in world.initiate_names}

    def resolve(self, line: Line, span: list[Token], known: list[str], what: str,
                forms: dict[str, str] | None) -> str:
        """A name, or an abbreviation of one (initiates and fields only)."""
        try:
            return resolve_name(line, span, known, what)
        except UnknownNameError:
            typed = span_text(span)
            found = abbreviated(typed, forms, known) if forms else []
            if len(found) == 1:
                return found[0]
            if not found:
                spelled = _umlauts(typed)
                if spelled != typed and match_name(spelled, known, suggest=False).ok:
                    return match_name(spelled, known, suggest=False).name
            if found:
                col = span[0].col
                dotted = sum(w.endswith(".") for w in _words(typed))
                raise AmbiguousNameError(
                    f"the shortened name '{typed}' could be any of: {', '.join(found)}", line,
                    col, span[-1].end - col,
                    suggestion=f"write more of the shortened {word_for(dotted, 'word')} to say "
                               "which one, or the whole name") from None
            raise

    def name(self, cur: Cursor, stops: tuple[str, ...], known: list[str], what: str,
             forms: dict[str, str] | None = None) -> str:
        """A name; when the words do not name anything but their beginning does, the real
        mistake is a missing keyword, reported as a syntax error at the first extra word."""
        span = cur.span_until(stops, f"a{'n' if what[0] in 'aeiou' else ''} {what}'s name")
        try:
            return self.resolve(cur.line, span, known, what, forms)
        except UnknownNameError:
            for k in range(len(span) - 1, 0, -1):
                text = span_text(span[:k])
                if match_name(text, known, suggest=False).ok or (
                        forms and len(abbreviated(text, forms, known)) == 1):
                    token = span[k]
                    raise OrderSyntaxError(
                        f"expected {_expected(stops)} after the {what}'s name, found "
                        f"'{token.text}'", cur.line, token.col, token.end - token.col) from None
            raise

    def initiate(self, cur: Cursor, stops: tuple[str, ...]) -> str:
        return self.world.initiate_by_name[self.name(cur, stops, self.world.initiate_names,
                                                     "initiate", self.initiate_forms)]

    def field(self, cur: Cursor, stops: tuple[str, ...]) -> str:
        return self.world.field_by_name[self.name(cur, stops, self.world.field_names, "field",
                                                  self.field_forms)]

    def player(self, cur: Cursor, stops: tuple[str, ...]) -> str:
        return self.name(cur, stops, self.players, "player")

    def insist(self, cur: Cursor) -> int | str:
        if cur.accept("all"):
            return "all"
        return self.most(cur, "how many points to reveal at most")

    @staticmethod
    def most(cur: Cursor, what: str) -> int:
        """A number of points (after 'insist' or 'up to'; 'all' was tried first)."""
        token = cur.peek()
        if token is None or token.kind != "number":
            raise cur.syntax(f"expected {what} (a whole number, or 'all')", token)
        return cur.number(what)

    def parse(self, text: str) -> tuple[GralOrders, list[OrderError]]:
        orders = GralOrders()
        errors: list[OrderError] = []
        for line in order_lines(text):
            orders.lines.append(line)
            try:    # refused as typed: read as a phone leaves it ('Pass.', 'uncover')
                _, orders.lines[-1] = read_line(line, lambda x: self.line(x, orders),
                                                second_reading, further=True)
            except OrderError as err:
                if err.suggestion is None and err.line is line:
                    err.suggestion = joined_hint(line.tokens, err.col)
                errors.append(err)
        return orders, errors

    def line(self, line: Line, orders: GralOrders) -> None:
        """Parse one order line into ``orders``; a line that raises adds nothing."""
        cur = Cursor(line)
        head = cur.next()
        if head.kind != "word" or head.key not in KEYWORDS:
            raise unknown_keyword(line, head, KEYWORDS)
        if head.key == "move":
            orders.moves.append(self.move(cur))
        elif head.key == "blow":
            orders.moves.append(self.blow(cur))
        elif head.key == "assign":
            if cur.accept("nothing"):
                cur.finish()
                orders.passed = orders.passed or line
            else:
                orders.assigns.append(self.assign(cur))
        elif head.key == "pass":
            cur.finish()
            if orders.passed is not None:
                raise OrderSyntaxError("'pass' is given twice", line, head.col, 4)
            orders.passed = line
        else:
            objection = self.objection(cur)
            if orders.standing is None:
                orders.standing = []
            if objection is not None:
                orders.standing.append(objection)

    def move(self, cur: Cursor) -> Move:
        initiate = self.initiate(cur, ("to",))
        cur.expect("to", "after the initiate's name (move <initiate> to <field>)")
        dest = self.field(cur, ("with", "leaving", "dropping", "and", "insist"))
        mv = Move(cur.line, initiate, dest)
        clause = cur.accept("with", "leaving", "dropping")
        if clause is not None:
            cur.expect("grail", f"after '{clause.text}'")
            mv.grail = GRAIL_CLAUSES[clause.key]
        if cur.accept("and"):
            cur.expect("blow", "after 'and' (… and blow <initiate>)")
            mv.blow = self.initiate(cur, ("taking", "insist"))
        return self.tail(cur, mv)

    def blow(self, cur: Cursor) -> Move:
        target = self.initiate(cur, ("by",))
        cur.expect("by", "after the initiate to uncover (blow <initiate> by <initiate>)")
        actor = self.initiate(cur, ("taking", "insist", "and", "then"))
        mv = Move(cur.line, actor, None, blow=target)
        if cur.at_keyword("and", "then"):
            raise cur.syntax("blowing a cover ends the action, so nothing may follow it (to move "
                             "first, write 'move <initiate> to <field> and blow <initiate>')",
                             cur.peek())
        return self.tail(cur, mv)

    def tail(self, cur: Cursor, mv: Move) -> Move:
        """What may end a move or blow: 'taking grail' (after a blow) and 'insist N|all'."""
        if mv.blow is not None and cur.accept("taking"):
            cur.expect("grail", "after 'taking'")
            mv.take = True
        if cur.accept("insist"):
            mv.insist = self.insist(cur)
        cur.finish()
        return mv

    def assign(self, cur: Cursor) -> Assign:
        values = [cur.number("the value of a unit on your sheet")]
        while cur.peek() is not None and cur.peek().text in ("+", ","):
            cur.next()
            values.append(cur.number("the value of a unit after '+'"))
        cur.expect("to", "after the units (assign <units> to <initiate>)")
        initiate = self.initiate(cur, ())
        cur.finish()
        return Assign(cur.line, values, initiate)

    def objection(self, cur: Cursor) -> Objection | None:
        if cur.accept("none"):
            cur.finish()
            return None
        stops = ("to", "from", "with", "without", "blowing", "by", "except", "ending", "up")
        if cur.accept("any"):
            ob = Objection(cur.line, None)
        else:
            ob = Objection(cur.line, self.initiate(cur, stops))
        seen: set[str] = set()
        # a clause -> the columns it takes, to name both words of a contradiction
        where: dict[str, tuple[int, int]] = {"initiate": _clause(cur.tokens[0],
                                                                  cur.tokens[cur.i - 1])}
        while not cur.at_end():
            token = cur.peek()
            word = token.key if token.kind == "word" else ""
            if word in seen and word != "up":
                raise cur.syntax(f"the condition '{word}' is given twice", token)
            seen.add(word)
            if cur.accept("to"):
                ob.to = self.field(cur, stops)
            elif cur.accept("from"):
                ob.frm = self.field(cur, stops)
            elif cur.accept("with"):
                where["with"] = _clause(token, cur.expect("grail", "after 'with'"))
                if ob.grail is False:
                    self.contradiction(cur, where["with"], where["without"], GRAIL_CLASH,
                                       GRAIL_HINT)
                ob.grail = True
            elif cur.accept("without"):
                where["without"] = _clause(token, cur.expect("grail", "after 'without'"))
                if ob.grail is True:
                    self.contradiction(cur, where["without"], where["with"], GRAIL_CLASH,
                                       GRAIL_HINT)
                ob.grail = False
            elif cur.accept("blowing"):
                ob.blowing = "any" if cur.accept("any") else self.initiate(cur, stops)
                if ob.blowing == ob.initiate:
                    name = self.world.initiate[ob.initiate].name
                    self.contradiction(
                        cur, _clause(token, cur.tokens[cur.i - 1]), where["initiate"],
                        f"the objection is to actions of {name}, who cannot blow his own cover",
                        f"to object to any initiate uncovering {name}, write 'object any "
                        f"blowing {name} ...'")
            elif cur.accept("by"):
                ob.by = self.player(cur, stops)
                where["by"] = _clause(token, cur.tokens[cur.i - 1])
                if ob.except_by == ob.by:
                    self.contradiction(cur, where["by"], where["except"], BY_CLASH,
                                       f"keep one of them: 'by {ob.by}' objects to {ob.by}'s "
                                       f"actions only, 'except by {ob.by}' to everybody else's")
            elif cur.accept("except"):
                cur.expect("by", "after 'except'")
                ob.except_by = self.player(cur, stops)
                where["except"] = _clause(token, cur.tokens[cur.i - 1])
                if ob.except_by == ob.by:
                    self.contradiction(cur, where["except"], where["by"], BY_CLASH,
                                       f"keep one of them: 'by {ob.by}' objects to {ob.by}'s "
                                       f"actions only, 'except by {ob.by}' to everybody else's")
            elif cur.accept("ending"):
                ob.ending = True
            elif cur.accept("up"):
                cur.expect("to", "after 'up'")
                ob.limit = "all" if cur.accept("all") else self.most(cur,
                                                                     "the most you will reveal")
                cur.finish()
                return ob
            else:
                raise cur.syntax("expected a condition (to, from, with grail, without grail, "
                                 "blowing, by, except by, ending) or 'up to <N>'", token)
        raise cur.syntax("expected 'up to <N>' or 'up to all': the most you will reveal")

    def contradiction(self, cur: Cursor, later: tuple[int, int], earlier: tuple[int, int],
                      why: str, hint: str) -> None:
        """From rules edition 2 (``strict``): refuse an objection whose conditions can never
        hold together, at the later of the two clauses, naming both as written."""
        if not self.strict:
            return
        text = cur.line.text
        said = [" ".join(text[col - 1:end - 1].split()) for col, end in (later, earlier)]
        raise OrderSyntaxError(
            f"contradictory conditions: '{said[0]}' contradicts '{said[1]}' (column "
            f"{earlier[0]}): {why}, so this line could never object", cur.line, later[0],
            later[1] - later[0], suggestion=hint)


def parse_orders(world, players: list[str], text: str, filename: str, *,
                 strict: bool = True) -> GralOrders:
    """Parse an order text; ``strict``: the checks of rules edition 2 (see ``Parser``)."""
    orders, errors = Parser(world, players, strict=strict).parse(text)
    if errors:
        raise OrdersRejected(errors, filename, partial=orders)
    return orders


# --------------------------------------------------------------------------------- text forms
def move_text(world, mv: Move, *, with_insist: bool = True) -> str:
    name = world.initiate[mv.initiate].name
    if mv.dest is None:
        text = f"blow {world.initiate[mv.blow].name} by {name}"
    else:
        text = f"move {name} to {world.field[mv.dest].name}"
        if mv.grail:
            text += {"with": " with grail", "leave": " leaving grail",
                     "drop": " dropping grail"}[mv.grail]
        if mv.blow:
            text += f" and blow {world.initiate[mv.blow].name}"
    if mv.take:
        text += " taking grail"
    if with_insist and mv.insist:
        text += f" insist {mv.insist}"
    return text


def objection_text(world, ob: dict[str, Any]) -> str:
    text = "object " + (world.initiate[ob["initiate"]].name if ob["initiate"] else "any")
    if ob["to"]:
        text += f" to {world.field[ob['to']].name}"
    if ob["from"]:
        text += f" from {world.field[ob['from']].name}"
    if ob["grail"] is True:
        text += " with grail"
    elif ob["grail"] is False:
        text += " without grail"
    if ob["blowing"]:
        text += " blowing " + ("any" if ob["blowing"] == "any"
                               else world.initiate[ob["blowing"]].name)
    if ob["by"]:
        text += f" by {ob['by']}"
    if ob["except_by"]:
        text += f" except by {ob['except_by']}"
    if ob["ending"]:
        text += " ending"
    return text + f" up to {ob['limit']}"


def ending_clash(world, ob: Objection, original: bool) -> tuple[int, int, str, str] | None:
    """Why an 'object ... ending' line could never object, or None: a condition under which no
    action can end the game ('without grail' outside The Original, where only the active
    initiate can carry the grail home; 'to' a field where no action that goes there ends the
    game). Returns the column and width of 'ending' in the line, the message and a
    suggestion; checked when orders are sent (``GralKind.check_standing``) and when a setup
    position is read (``position.read_position``)."""
    if not ob.ending or ob.line is None:
        return None
    tokens = ob.line.tokens
    ending = next((t for t in tokens[2:] if t.kind == "word" and t.key == "ending"), tokens[0])
    homes = [o.headquarters for o in world.orders]
    clash = None
    if ob.grail is False and not original:
        clash = ("without grail", "the game ends only when an initiate carries the grail into "
                 "his own order's headquarters, so the active initiate holds it then")
    elif ob.to is not None:
        if ob.initiate is not None and not original:
            homes = [world.order[world.initiate[ob.initiate].order].headquarters]
        if ob.to not in homes:
            field = world.field[ob.to].name
            clash = (f"to {field}", f"no action that ends on {field} ends the game "
                     + ("(it is no headquarters)" if ob.initiate is None or original
                        else f"(it is not the headquarters of "
                             f"{world.initiate[ob.initiate].name}'s order)"))
    if clash is None:
        return None
    return (ending.col, ending.end - ending.col,
            f"contradictory conditions: 'ending' with '{clash[0]}': {clash[1]}, so this line "
            "could never object", f"leave out 'ending' or '{clash[0]}'")


def illegal(line: Line, message: str, suggestion: str | None = None) -> IllegalOrderError:
    col = line.tokens[0].col if line.tokens else 1
    length = len(line.text.rstrip()) - col + 1
    return IllegalOrderError(message, line, col, length, suggestion=suggestion)
