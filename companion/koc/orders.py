"""The Knights of Camelot order grammar.

Movement for this turn (steps are carried out in order, until the allowance is spent or an
encounter stops the party)::

    move <area>[, <area> ...]       step by step through adjacent areas
    go to <area>                    along the most direct land route (rules edition 4: by
                                    ship, step by step, where no land route leads)
    stay                            remain (an encounter roll all the same, but not
                                    aboard, nor on a coast from rules edition 4)
    enter                           try the castle gate again
    board                           board a ship in this port
    sail <area> [then <area>]       one sea move (the second with Good Winds)
    debark [<area>]                 land in port or on a river; or on the coast of <area>
    inland                          from the coast into the land
    seek <someone>                  try to find someone known to be here
    challenge <player> [for lady]   challenge another player knight here (he may decline);
                                    'for lady' puts the service of his Lady at stake
    attack <player>                 attack another player knight here (and his party)

Travelling with other player knights (settled at the start of the turn)::

    join <player>                   ride in that player's party, with him leading (he agrees
                                    with 'answer party: yes' or 'on party: yes')
    leave party                     ride alone again (a leader's leaving breaks the party up)
    leave guard                     leave guard duty at a castle (breaking one's word: 12 VP)

Tournaments (docs/koc-engine.md, "Tournaments: records and decisions")::

    declare tournament              inside his own castle (after the movement phase): every
                                    other knight is told and may come
    attend tournament               answer a knight's tournament: he rides there (the same as
                                    'answer tournament: yes'; asked in the first player turn
                                    of a game turn after it was declared)
    decline tournament              he will not come ('answer tournament: no', the default)

Adventures (carried out at the start of the turn)::

    share adventure <marker> with <player>[, <player> ...]
                                    invite knights to share an adventure (each agrees with
                                    'answer share: yes'); they must be with you at its site
    abandon adventure <marker>      give it up (no penalty; not a Prophecy); <marker> is the
                                    adventure's marker (B-2) or its number (4:3)

Prayers and requests (the fourth phase)::

    request <request> [of <person>]     e.g. request men at arms of king; request token of lady
    request grail [of king|arthur]      the Grail scenarios: leave of the King of the castle
                                        where the Holy Grail rests to see it (he then tries to
                                        see and grasp it); in the Campaign, at Camelot, King
                                        Arthur's leave to seek it (engine/grail.py)
    pray for <someone> [to <effect>]    e.g. pray for Bert to heal; pray for the relative

A Knave's villainy (engine/villainy.py; each is the same as an 'answer' line)::

    storm castle                    storm the castle he comes to this turn to hold it
    storm camelot | storm carbonek  only that castle ('answer knave_storm camelot: storm')
    loot shrine                     loot the shrine he comes to ('answer loot_shrine: yes')
    lead brigands | lead pirates    try to lead the brigands or pirates he meets
    attack merchant ship            attack the merchant ship his pirates sight

A Knave's own course (engine/knaves.py; carried out at the start of the turn)::

    turn knave                      become a Knave ('answer become_knave: yes')
    repent                          at a shrine: begin to repent ('answer knave_repent: yes')
    backslide                       give up repenting, take back the SP renounced
    free prisoners                  free the prisoners he holds (their act is no longer his)

Answers to the questions the turn may raise (see the question catalogue)::

    on <question> [<tag> ...] [<name><op><number> ...]: <answer>     kept until replaced
    answer <question> [<tag> ...]: <answer>                           this turn only
    on none                                                           forget all 'on' lines

Example: ``on encounter monster: avoid``, ``on yield wl_left<=2: yes``, ``on fate: robs``.

A line refused as typed is read once more as a phone leaves it (``second_reading``: 'Stay.',
curly quotes, 'please', 'ride to', 'move to', 'board ship', 'ask the lord for an adventure');
a line accepted as typed never changes its meaning that way. Text the grammar always left
unread after a seek, a request, a prayer or an answer is noted in ``KocOrders.unread`` and
refused by the checks when sent (checks.py).
"""
from __future__ import annotations

import difflib
from dataclasses import dataclass, field, fields
from typing import Any

from companion.engine.orders import (
    Cursor, IllegalOrderError, Line, OrderError, OrdersRejected, OrderSyntaxError, Token,
    forgiving, next_order_hint, order_lines, resolve_name, span_text, unknown_keyword,
)
from companion.koc.engine.questions import CATALOGUE, answers_for, load_all
from companion.koc.engine.session import Question, _CONDITION, line_matches, pick_option

KEYWORDS = ("move", "go", "stay", "enter", "board", "sail", "debark", "inland", "seek",
            "challenge", "attack", "request", "pray", "join", "leave", "on", "answer",
            "declare", "attend", "decline", "share", "abandon", "storm", "loot", "lead",
            "turn", "repent", "backslide", "free")
REQUESTS = ("adventure", "appeal to jailor", "arthurs favour", "castle", "dwarf", "escort",
            "grail", "heal", "join", "lift enchantment", "men at arms", "pardon", "pilgrimage",
            "release from enchantress", "release from oath", "service", "token", "welcome")
PERSONS = ("king", "arthur", "lord", "lady", "hermit", "knight", "dwarf", "castle owner",
           "comrade")
SYNONYMS = {"ride": "go", "travel": "go", "head": "go", "walk": "go", "journey": "go",
            "fight": "attack", "remain": "stay"}
"""Words a player may write for an order's keyword ('ride to Camelot', 'fight Bert'); read only
in the second reading of a refused line (``second_reading``)."""
USAGE = {"go": "go to <area>", "attack": "attack <player>", "stay": "stay"}
"""What an order a synonym stands for looks like, for the hint to a bare 'ride' or 'fight'."""
ARTICLES = ("a", "an", "the", "some")
POSSESSIVES = ("my", "the", "your", "his", "her", "our")


# what the acknowledgement says of a Knave's own orders (engine/knaves.py); the
# answers' ``src`` line locates the checker's errors
KNAVE_TEXTS = {
    "become_knave": "turn knave (at the start of the turn he becomes a Knave)",
    "knave_repent": "repent (at the start of the turn, at a shrine: his meditation begins)",
    "knave_backslide": "backslide (at the start of the turn: no more repenting, SP back)",
    "knave_free": "free prisoners (at the start of the turn: their acts are his no longer)",
}


@dataclass
class KocOrders:
    plan: list[dict] = field(default_factory=list)
    requests: list[dict] = field(default_factory=list)
    prayers: list[dict] = field(default_factory=list)
    answers: list[dict] = field(default_factory=list)     # this turn only
    join: str | None = None                               # the player whose party to join
    leave: bool = False                                   # leave the party
    leave_guard: bool = False                             # leave guard duty
    adventure_orders: list[dict] = field(default_factory=list)   # share / abandon adventure
    join_line: Any = None                                 # the lines, for error messages
    leave_line: Any = None
    standing: list[dict] | None = None                    # None: unchanged
    unread: list = field(default_factory=list)            # (line, token): text after an
    # order that its grammar leaves unread ('on fate: robs, avoid'); the checks refuse it
    lines: list = field(default_factory=list)             # every order line, as parsed

    def answer(self, q: Question) -> str | None:
        for line in self.answers:
            if line_matches(line, q):
                found = pick_option(line["answer"], q.options)
                if found:
                    return found
        return None


class Parser:
    def __init__(self, world, players: list[str]):
        self.world = world
        self.players = players
        self.area_names = list(world.areas)
        self.aliases = world.area_aliases

    def area(self, cur: Cursor, stops: tuple[str, ...]) -> str:
        span = self.span(cur, stops, "an area's name")
        return resolve_name(cur.line, span, self.area_names, "area", self.aliases)

    @staticmethod
    def span(cur: Cursor, stops: tuple[str, ...], what: str) -> list:
        """The tokens of a name; an empty one (``""``) is refused where it stands."""
        span = cur.span_until(stops, what)
        if not span_text(span).strip():
            token = span[0]
            raise OrderSyntaxError(f"expected {what}, found an empty name", cur.line,
                                   token.col, token.end - token.col)
        return span

    def parse(self, text: str) -> tuple[KocOrders, list[OrderError]]:
        orders = KocOrders()
        errors: list[OrderError] = []
        for line in order_lines(text):
            orders.lines.append(line)
            before = _snapshot(orders)
            try:
                self.line(line, orders)
            except OrderError as err:
                # the line as a phone or a casual writer leaves it ('Stay.', curly quotes,
                # 'please', 'ride to', 'move to', 'board ship'): read again only when refused
                # as typed, so that a line once accepted keeps its meaning; what the refused
                # reading added to ``orders`` is taken out first
                second = second_reading(line)
                if second is not None:
                    refused = _snapshot(orders)
                    _restore(orders, before)
                    try:
                        self.line(second, orders)
                    except OrderError as again:
                        _restore(orders, refused)   # as the line typed left them
                        if (again.col or 0) > (err.col or 0):   # it read further: say why
                            again.line = line       # shown as typed; the columns are the same
                            err = again
                    else:
                        orders.lines[-1] = second
                        continue
                head = line.tokens[0] if line.tokens else None
                if second is None and head is not None and head.key in SYNONYMS:
                    err.suggestion = f"did you mean '{USAGE[SYNONYMS[head.key]]}'?"  # 'ride'
                elif err.line is line:
                    hint = joined_hint(line.tokens, err.col)
                    if hint is not None:
                        err.suggestion = hint
                errors.append(err)
        return orders, errors

    def line(self, line: Line, orders: KocOrders) -> None:
        cur = Cursor(line)
        head = cur.next()
        if head.kind != "word" or head.key not in KEYWORDS:
            raise unknown_keyword(line, head, KEYWORDS)
        getattr(self, f"p_{head.key}")(cur, orders)

    @staticmethod
    def rest(cur: Cursor, orders: KocOrders) -> None:
        """Note the text left after an order whose grammar has always left it unread (a seek,
        a request without 'of', a prayer, an answer: 'on fate: robs, avoid'). Such a line was
        accepted, so it still is, as before; the checks refuse it when the player sends it."""
        if not cur.at_end():
            orders.unread.append((cur.line, cur.peek()))

    # -- movement ------------------------------------------------------------------------------
    def p_move(self, cur: Cursor, orders: KocOrders) -> None:
        while True:
            orders.plan.append({"do": "move", "area": self.area(cur, ()), "line": cur.line.number, "src": cur.line})
            if cur.at_end():
                break
            token = cur.next()
            if token.text != ",":
                raise cur.syntax("expected ',' between areas", token)

    def p_go(self, cur: Cursor, orders: KocOrders) -> None:
        cur.expect("to", "after 'go' (go to <area>)")
        orders.plan.append({"do": "to", "area": self.area(cur, ()), "line": cur.line.number, "src": cur.line})
        cur.finish()

    def p_stay(self, cur: Cursor, orders: KocOrders) -> None:
        cur.finish()
        orders.plan.append({"do": "stay", "line": cur.line.number, "src": cur.line})

    def p_enter(self, cur: Cursor, orders: KocOrders) -> None:
        cur.finish()
        orders.plan.append({"do": "enter", "line": cur.line.number, "src": cur.line})

    def p_board(self, cur: Cursor, orders: KocOrders) -> None:
        cur.finish()
        orders.plan.append({"do": "board", "line": cur.line.number, "src": cur.line})

    def p_inland(self, cur: Cursor, orders: KocOrders) -> None:
        cur.finish()
        orders.plan.append({"do": "go_inland", "line": cur.line.number, "src": cur.line})

    def p_sail(self, cur: Cursor, orders: KocOrders) -> None:
        step = {"do": "sail", "area": self.area(cur, ("then",)), "line": cur.line.number, "src": cur.line}
        if cur.accept("then"):
            step["then"] = self.area(cur, ())
        cur.finish()
        orders.plan.append(step)

    def p_debark(self, cur: Cursor, orders: KocOrders) -> None:
        step = {"do": "debark", "line": cur.line.number, "src": cur.line}
        if not cur.at_end():
            step["area"] = self.area(cur, ())
        cur.finish()
        orders.plan.append(step)

    def p_seek(self, cur: Cursor, orders: KocOrders) -> None:
        span = self.span(cur, (), "whom or what to seek")
        orders.plan.append({"do": "seek", "target": span_text(span), "line": cur.line.number, "src": cur.line})
        self.rest(cur, orders)

    def p_challenge(self, cur: Cursor, orders: KocOrders, how: str = "challenge") -> None:
        span = self.span(cur, ("for",), f"whom to {how} (a player's name)")
        step = {"do": "confront", "how": how,
                "target": resolve_name(cur.line, span, self.players, "player"),
                "line": cur.line.number, "src": cur.line}
        if how == "challenge" and cur.accept("for"):
            cur.expect("lady", "after 'for' (challenge <player> for lady)")
            step["stake"] = "lady"
        cur.finish()
        orders.plan.append(step)

    def p_attack(self, cur: Cursor, orders: KocOrders) -> None:
        if cur.accept("merchant"):
            cur.expect("ship", "after 'attack merchant' (attack merchant ship)")
            cur.finish()
            self._knave_answer(cur, orders, "merchant_ship", "attack")
            return
        self.p_challenge(cur, orders, how="attack")

    # -- a Knave's villainy (engine/villainy.py): answers given ahead ----------------------------
    @staticmethod
    def _knave_answer(cur: Cursor, orders: KocOrders, key: str, answer: str,
                      tags: tuple[str, ...] = ()) -> None:
        if any(a["key"] == key and a["tags"] == list(tags) for a in orders.answers):
            raise IllegalOrderError(f"only one such order a turn ('{key}')", cur.line, 1,
                                    len(cur.line.text.rstrip()))
        orders.answers.append({"tags": list(tags), "key": key, "answer": answer,
                               "src": cur.line,
                               "text": f"answer {key}{''.join(' ' + t for t in tags)}: "
                                       f"{answer}"})

    def p_storm(self, cur: Cursor, orders: KocOrders) -> None:
        which = cur.accept("castle", "camelot", "carbonek")
        if which is None:
            raise cur.syntax("expected 'castle', 'camelot' or 'carbonek' after 'storm' (storm "
                             "castle: storm the castle you come to this turn)", cur.peek())
        cur.finish()
        tags = () if which.key == "castle" else (which.key,)
        self._knave_answer(cur, orders, "knave_storm", "storm", tags)

    def p_loot(self, cur: Cursor, orders: KocOrders) -> None:
        cur.expect("shrine", "after 'loot' (loot shrine)")
        cur.finish()
        self._knave_answer(cur, orders, "loot_shrine", "yes")

    def p_lead(self, cur: Cursor, orders: KocOrders) -> None:
        which = cur.accept("brigands", "pirates")
        if which is None:
            raise cur.syntax("expected 'brigands' or 'pirates' after 'lead'", cur.peek())
        cur.finish()
        self._knave_answer(cur, orders, f"lead_{which.key}", "yes")

    # -- a Knave's own course (engine/knaves.py) -------------------------------------------------
    def p_turn(self, cur: Cursor, orders: KocOrders) -> None:
        cur.expect("knave", "after 'turn' (turn knave)")
        cur.finish()
        self._knave_answer(cur, orders, "become_knave", "yes")
        orders.answers[-1].update(src=cur.line, text=KNAVE_TEXTS["become_knave"])

    def p_repent(self, cur: Cursor, orders: KocOrders) -> None:
        cur.finish()
        self._knave_answer(cur, orders, "knave_repent", "yes")
        orders.answers[-1].update(src=cur.line, text=KNAVE_TEXTS["knave_repent"])

    def p_backslide(self, cur: Cursor, orders: KocOrders) -> None:
        cur.finish()
        self._knave_answer(cur, orders, "knave_backslide", "yes")
        orders.answers[-1].update(src=cur.line, text=KNAVE_TEXTS["knave_backslide"])

    def p_free(self, cur: Cursor, orders: KocOrders) -> None:
        cur.expect("prisoners", "after 'free' (free prisoners)")
        cur.finish()
        self._knave_answer(cur, orders, "knave_free", "yes")
        orders.answers[-1].update(src=cur.line, text=KNAVE_TEXTS["knave_free"])

    # -- parties -----------------------------------------------------------------------------
    def p_join(self, cur: Cursor, orders: KocOrders) -> None:
        span = self.span(cur, (), "whose party to join (a player's name)")
        name = resolve_name(cur.line, span, self.players, "player")
        cur.finish()
        if orders.join is not None:
            raise IllegalOrderError("only one 'join' order a turn", cur.line, span[0].col,
                                    span[-1].end - span[0].col)
        orders.join = name
        orders.join_line = cur.line

    def p_leave(self, cur: Cursor, orders: KocOrders) -> None:
        if cur.accept("guard"):
            cur.finish()
            orders.leave_guard = True
            return
        cur.expect("party", "after 'leave' (leave party, or leave guard)")
        cur.finish()
        orders.leave = True
        orders.leave_line = cur.line

    # -- tournaments -----------------------------------------------------------------------------
    def p_declare(self, cur: Cursor, orders: KocOrders) -> None:
        cur.expect("tournament", "after 'declare' (declare tournament)")
        cur.finish()
        if any(step["do"] == "declare" for step in orders.plan):
            raise IllegalOrderError("only one 'declare tournament' a turn", cur.line, 1,
                                    len(cur.line.text.rstrip()))
        orders.plan.append({"do": "declare", "what": "tournament", "line": cur.line.number,
                            "src": cur.line})

    def p_attend(self, cur: Cursor, orders: KocOrders, answer: str = "yes") -> None:
        verb = "attend" if answer == "yes" else "decline"
        cur.expect("tournament", f"after '{verb}' ({verb} tournament)")
        cur.finish()
        if any(a["key"] == "tournament" for a in orders.answers):
            raise IllegalOrderError("only one answer to a tournament a turn ('attend "
                                    "tournament' or 'decline tournament')", cur.line, 1,
                                    len(cur.line.text.rstrip()))
        orders.answers.append({"tags": [], "key": "tournament", "answer": answer,
                               "text": f"answer tournament: {answer}"})

    def p_decline(self, cur: Cursor, orders: KocOrders) -> None:
        self.p_attend(cur, orders, answer="no")

    # -- adventures ------------------------------------------------------------------------------
    def adventure_ref(self, cur: Cursor, stops: tuple[str, ...]) -> tuple[str, Any]:
        """An adventure named by its marker ('B-2') or its number ('4:3'), as written."""
        from companion.koc.engine.adventures import valid_reference

        first = cur.peek()
        if first is None:
            raise cur.syntax("expected the adventure's marker (e.g. B-2) or number (e.g. 4:3)")
        parts = []      # 'B-2' is one token, '4:3' three written together
        while not cur.at_end() and not cur.at_keyword(*stops) and \
                (not parts or cur.peek().col == parts[-1].end):
            parts.append(cur.next())
        if not parts:
            raise cur.syntax("expected the adventure's marker (e.g. B-2) or number (e.g. 4:3)",
                             cur.peek())
        text = "".join(tok.text for tok in parts)
        if not valid_reference(text):
            raise OrderSyntaxError(f"'{text}' names no adventure", cur.line, parts[0].col,
                                   parts[-1].end - parts[0].col,
                                   suggestion="give its marker (e.g. B-2) or its number "
                                              "(e.g. 4:3), as your report shows them")
        return text, parts[0]

    def p_share(self, cur: Cursor, orders: KocOrders) -> None:
        cur.expect("adventure", "after 'share' (share adventure <marker> with <player>)")
        which, token = self.adventure_ref(cur, ("with",))
        cur.expect("with", "after the adventure (share adventure <marker> with <player>)")
        players = []
        while True:
            span = self.span(cur, (), "whom to invite (a player's name)")
            players.append(resolve_name(cur.line, span, self.players, "player"))
            if cur.at_end():
                break
            token2 = cur.next()
            if token2.text != ",":
                raise cur.syntax("expected ',' between players", token2)
        orders.adventure_orders.append({"do": "share", "which": which, "with": players,
                                        "line": cur.line.number, "src": cur.line})

    def p_abandon(self, cur: Cursor, orders: KocOrders) -> None:
        cur.expect("adventure", "after 'abandon' (abandon adventure <marker>)")
        which, _token = self.adventure_ref(cur, ())
        cur.finish()
        orders.adventure_orders.append({"do": "abandon", "which": which,
                                        "line": cur.line.number, "src": cur.line})

    # -- requests and prayers --------------------------------------------------------------------
    def p_request(self, cur: Cursor, orders: KocOrders) -> None:
        span = self.span(cur, ("of",), "what to request")
        typed = span_text(span).replace("'", "").replace("-", " ")
        found = pick_option(typed, REQUESTS)
        if found is None:
            close = difflib.get_close_matches(typed.lower(), REQUESTS, n=1)
            raise OrderSyntaxError(f"'{span_text(span)}' is not a request",
                                   cur.line, span[0].col, span[-1].end - span[0].col,
                                   suggestion=(f"did you mean '{close[0]}'?" if close else
                                               "requests: " + ", ".join(REQUESTS)))
        item = {"request": found, "of": None, "line": cur.line.number, "src": cur.line}
        if cur.accept("of"):
            span = self.span(cur, (), "of whom")
            whom = span_text(span)
            cur.finish()
            person = pick_option(whom.split()[0], PERSONS)
            item["of"] = whom if person is None else whom.lower()
        self.rest(cur, orders)
        orders.requests.append(item)

    def p_pray(self, cur: Cursor, orders: KocOrders) -> None:
        cur.expect("for", "after 'pray' (pray for <someone>)")
        span = self.span(cur, ("to",), "for whom to pray")
        item = {"for": span_text(span), "to": None, "line": cur.line.number, "src": cur.line}
        if cur.accept("to"):
            item["to"] = span_text(self.span(cur, (), "what the prayer asks"))
        self.rest(cur, orders)
        orders.prayers.append(item)

    # -- answers --------------------------------------------------------------------------------
    def p_on(self, cur: Cursor, orders: KocOrders) -> None:
        if cur.accept("none"):
            cur.finish()
            orders.standing = orders.standing if orders.standing is not None else []
            orders.standing.clear()
            return
        line = self.policy(cur)
        self.rest(cur, orders)
        if orders.standing is None:
            orders.standing = []
        orders.standing.append(line)

    def p_answer(self, cur: Cursor, orders: KocOrders) -> None:
        orders.answers.append(self.policy(cur))
        self.rest(cur, orders)

    def policy(self, cur: Cursor) -> dict:
        """<key> [<tag>...] [<cond>...] ':' <answer>, checked against the question catalogue."""
        token = cur.peek()
        if token is None:
            raise cur.syntax("expected a question (e.g. 'encounter', 'yield', 'fate')")
        key = token.key.replace(" ", "_")
        spec = CATALOGUE.get(key)
        if spec is None:
            close = difflib.get_close_matches(key, list(CATALOGUE), n=1)
            raise OrderSyntaxError(f"'{token.text}' is not a question the game asks", cur.line,
                                   token.col, token.end - token.col,
                                   suggestion=(f"did you mean '{close[0]}'?" if close else
                                               "your report's order form lists the questions "
                                               "the game may ask ('on <question>: <answer>')"))
        cur.next()
        tags: list[str] = []
        while not cur.at_end() and cur.peek().text != ":":
            tok = cur.peek()
            raw, count = tok.text.lower(), 1
            for k in (4, 3, 2):          # 'wl_left<=2' and 'wl_left <= 2' arrive in pieces
                pieces = [cur.peek(i) for i in range(k)]
                if all(p is not None and p.text != ":" for p in pieces):
                    joined = "".join(p.text for p in pieces).lower()
                    found = _CONDITION.match(joined)
                    if found and found.group(1) == pieces[0].text.lower().rstrip("<>="):
                        raw, count = joined, k
                        break
            for _ in range(count):
                cur.next()
            if _CONDITION.match(raw):
                name = _CONDITION.match(raw).group(1)
                if name not in spec.values:
                    raise OrderSyntaxError(
                        f"'{name}' cannot be tested for '{key}'", cur.line, tok.col,
                        tok.end - tok.col,
                        suggestion=(f"numbers for '{key}': {', '.join(spec.values)}"
                                    if spec.values else f"'{key}' has no numbers to test"))
                tags.append(raw)
                continue
            tag = raw.replace("-", "_")
            if tag not in spec.tags:
                close = difflib.get_close_matches(tag, list(spec.tags), n=1)
                raise OrderSyntaxError(
                    f"'{tok.text}' is not a situation of '{key}'", cur.line, tok.col,
                    tok.end - tok.col,
                    suggestion=(f"did you mean '{close[0]}'?" if close else
                                f"situations of '{key}': {', '.join(spec.tags) or 'none'}"))
            tags.append(tag)
        if cur.at_end():
            raise cur.syntax(f"expected ':' and an answer ({', '.join(spec.answers)})")
        cur.next()
        span = self.span(cur, (), "an answer")
        typed = span_text(span)
        answers = answers_for(spec, self.world)       # with the places some questions name
        answer = pick_option(typed, answers)
        if answer is None:
            hint = f"answers: {', '.join(answers)}"
            if len(answers) > 20:
                folded = {a.lower(): a for a in answers}
                close = difflib.get_close_matches(typed.lower(), list(folded), n=1)
                hint = (f"did you mean '{folded[close[0]]}'?" if close else
                        f"answers: {', '.join(spec.answers)} or a place's name")
            raise OrderSyntaxError(f"'{typed}' is not an answer to '{key}'", cur.line,
                                   span[0].col, span[-1].end - span[0].col, suggestion=hint)
        return {"tags": tags, "key": key, "answer": answer,
                "text": f"on {key}{''.join(' ' + t for t in tags)}: {answer}"}


def _snapshot(orders: KocOrders) -> dict[str, Any]:
    """What ``orders`` holds (every field but ``lines``), to take back what a refused line
    added."""
    return {f.name: (list(v) if isinstance(v, list) else v)
            for f in fields(orders) if f.name != "lines"
            for v in (getattr(orders, f.name),)}


def _restore(orders: KocOrders, snapshot: dict[str, Any]) -> None:
    for name, value in snapshot.items():
        setattr(orders, name, list(value) if isinstance(value, list) else value)


def _word(token: Token | None, *keys: str) -> bool:
    return token is not None and token.kind == "word" and token.key in keys


def _as(token: Token, text: str, kind: str = "word") -> Token:
    """``token`` read as ``text``, taking the columns it takes as typed."""
    return Token(text, token.col, kind, width=token.end - token.col)


def second_reading(line: Line) -> Line | None:
    """A refused line read again as a phone or a casual writer leaves it: ``forgiving`` (curly
    quotes, end punctuation, 'please'), then the words a player may use for an order:

    * 'ride to', 'travel to', 'head to', 'walk to', 'journey to', 'go <area>' for 'go to';
      'move to <area>' for 'go to <area>' (with a list, 'move to A, B': 'move A, B');
    * 'and' or 'then' between the areas of 'move' ('move Cornwall and Tamar');
    * 'sail to <area>', 'debark at|in|on <area>';
    * 'stay here', 'stay put', 'remain'; 'board ship', 'board the ship'; 'fight <player>';
    * an article after 'declare', 'attend', 'decline', 'storm', 'loot', 'lead', 'free',
      'attack', 'share', 'abandon' ('attend the tournament', 'loot the shrine');
    * 'leave the party', 'join Bert's party';
    * 'request an adventure', 'request adventure from lord', 'of my lord', 'of the king';
      'ask for <request> [of <person>]', 'ask <person> for <request>'.

    None when that changes nothing. Used only for a line refused as typed, so that no line
    accepted before is read differently."""
    base = forgiving(line) or line
    tokens = list(base.tokens)
    if not tokens or tokens[0].kind != "word":
        return None
    if tokens[0].key in SYNONYMS:
        if len(tokens) == 1 and SYNONYMS[tokens[0].key] != "stay":
            return None     # a bare 'ride': its own refusal, not one about 'go'
        tokens[0] = _as(tokens[0], SYNONYMS[tokens[0].key])
    if tokens[0].key == "ask":
        tokens = _asked(tokens)
    head = tokens[0].key
    rest = tokens[1:]
    if head == "go":
        if rest and not _word(rest[0], "to"):
            rest.insert(0, Token("to", rest[0].col, "word", width=0))
        rest = _without(rest, 1, POSSESSIVES)
    elif head == "move":
        rest = [_as(t, ",", "punct") if _word(t, "and", "then") or t.text == ";" else t
                for t in rest]
        rest = [t for i, t in enumerate(rest)     # ', and' / ', then' as one comma
                if not (t.text == "," and i and rest[i - 1].text == ",")]
        if _word(rest[0] if rest else None, "to"):
            if any(t.text == "," for t in rest):
                rest = rest[1:]
            else:
                tokens[0] = _as(tokens[0], "go")
        rest = _without(rest, 1 if _word(rest[0] if rest else None, "to") else 0, ("the",))
    elif head == "sail":
        rest = [t for i, t in enumerate(rest) if not (_word(t, "to") and (
            i == 0 or _word(rest[i - 1], "then")))]
    elif head == "debark" and _word(rest[0] if rest else None, "at", "in", "on"):
        rest = rest[1:]
    elif head == "stay" and len(rest) == 1 and _word(rest[0], "here", "put"):
        rest = []
    elif head == "board" and rest and _word(rest[-1], "ship", "boat") and \
            all(_word(t, *ARTICLES) for t in rest[:-1]):
        rest = []
    elif head == "leave":
        rest = _without(rest, 0, POSSESSIVES)
        if len(rest) == 2 and _word(rest[0], "guard") and _word(rest[1], "duty"):
            rest = rest[:1]
    elif head == "join" and len(rest) >= 2 and _word(rest[-1], "party"):
        rest = rest[:-1]
        who = rest[-1]
        if who.kind == "word" and who.text.lower().endswith(("'s", "\u2019s")):
            rest[-1] = Token(who.text[:-2], who.col, "word")
    elif head == "request":
        rest = _requested(rest)
    elif head in ("declare", "attend", "decline", "storm", "loot", "lead", "free", "attack",
                  "share", "abandon"):
        rest = _without(rest, 0, ARTICLES)      # 'declare a tournament', 'loot the shrine'
    out = [tokens[0]] + rest
    if base is line and out == line.tokens:
        return None
    return Line(line.number, base.raw, out)


def _without(tokens: list[Token], at: int, words: tuple[str, ...]) -> list[Token]:
    """``tokens`` without a word of ``words`` at index ``at``, when more follows it."""
    if at + 1 < len(tokens) and _word(tokens[at], *words):
        return tokens[:at] + tokens[at + 1:]
    return tokens


def _requested(rest: list[Token]) -> list[Token]:
    """The words of a request read again: an article before it left out ('an adventure'),
    'from' for 'of' ('adventure from lord'; a request's own 'from', as in 'release from
    oath', stays), and 'my' or 'the' after 'of' left out ('of my lord')."""
    rest = _without(rest, 0, ARTICLES)
    if not any(_word(t, "of") for t in rest):
        for i in range(len(rest) - 1, 0, -1):
            if _word(rest[i], "from") and pick_option(
                    span_text(rest[:i]).replace("'", "").replace("-", " "), REQUESTS):
                rest = rest[:i] + [_as(rest[i], "of")] + rest[i + 1:]
                break
    for i, token in enumerate(rest):
        if _word(token, "of"):
            return rest[:i + 1] + _without(rest[i + 1:], 0, POSSESSIVES)
    return rest


def _asked(tokens: list[Token]) -> list[Token]:
    """'ask for <request> [of|from <person>]' and 'ask <person> for <request>' as 'request
    <request> [of <person>]'."""
    ask = tokens[0]
    if _word(tokens[1] if len(tokens) > 1 else None, "for"):
        return [_as(ask, "request")] + tokens[2:]
    fors = [i for i, t in enumerate(tokens) if _word(t, "for")]
    if len(tokens) < 4 or not fors or fors[0] < 2:
        return tokens
    i = fors[0]
    return ([_as(ask, "request")] + tokens[i + 1:] + [_as(tokens[i], "of")] + tokens[1:i])


def joined_hint(tokens: list[Token], col: int | None) -> str | None:
    """'one order per line' when the line was refused where a second order is joined on
    ('move Cornwall, stay', 'stay, request adventure of lord', 'move Tamar and seek X')."""
    at = next((i for i, t in enumerate(tokens) if t.col == col), None)
    if at is None:
        return None
    joiners = (",", ";", "and", "then")
    while at > 0 and tokens[at - 1].key in joiners:
        at -= 1
    if not (at < len(tokens) and tokens[at].key in joiners):
        return None
    return next_order_hint(tokens, at, KEYWORDS + tuple(SYNONYMS) + ("ask",))


def parse_orders(world, players: list[str], text: str, filename: str) -> KocOrders:
    load_all()
    orders, errors = Parser(world, players).parse(text)
    for line in orders.answers + (orders.standing or []):
        line["tags"] = [line["key"], *line["tags"]]
    if errors:
        raise OrdersRejected(errors, filename, partial=orders)
    return orders
