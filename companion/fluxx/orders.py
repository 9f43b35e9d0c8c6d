"""The Fluxx order grammar.

A player's orders for their turn list the plays in order, with the choices each card needs::

    play <card> [<choice> ...]        play a card (if you hold it when its turn comes)
    use <card> [<choice> ...]         a free action of a Keeper in front of you or a New Rule
    <choice>                          an answer to a choice a card will ask for, used when the
                                      play line itself does not settle it
    sing "<line>" [judged ok|no]      claim a singing bonus; accent "<line>" likewise
    quote "<line>" [judged ok|no]     your answer ready for What Is Your Quote? (standing)
    keep <card>[; <card> ...] | keep none
                                      the cards you hold on to when you must discard (standing)
    ask                               pause and ask me when my orders do not settle something
    join                              a player who has not joined yet takes a seat

Choices (clauses): ``taking <keeper>``, ``moving <creeper> [to <player>]``, ``on <card in
play>``, ``with <player>``, ``giving <keeper> for <keeper>``, ``replacing <goal>``,
``keeping <goal>``, ``choosing <card>`` and ``quoting "<line>"``. Card and player names match
ignoring case, accents and punctuation, and any unambiguous beginning is enough ("steal",
"knights who").
"""
from __future__ import annotations

import bisect

from dataclasses import field
from typing import Any

from companion.engine.names import match_name
from companion.engine.orders import (
    Cursor, IllegalOrderError, Line, OrderError, OrdersRejected, OrderSyntaxError, Token,
    UnknownNameError, AmbiguousNameError, next_order_hint, order_lines, read_line, unknown_keyword,
)
from companion.engine.record import record
from companion.fluxx.cards import ALL_CLAUSES, PLACEHOLDER, Card, Deck, norm

HEADS = ("play", "use", "sing", "accent", "quote", "keep", "ask", "join")
KEYWORDS = HEADS + ALL_CLAUSES
SYNONYMS = {"cast": "play"}
"""Words a player may write for an order's keyword ('cast Trojan Rabbit')."""
STOPS = ALL_CLAUSES + ("judged",)
CLAUSE_TYPES: dict[str, tuple[str, ...] | str] = {
    "taking": ("keeper",), "moving": ("creeper",), "on": ("keeper", "creeper"),
    "giving": ("keeper",), "for": ("keeper",), "replacing": ("goal",), "keeping": ("goal",),
    "choosing": ("keeper", "creeper", "goal", "rule", "action"), "to": "player",
    "with": "player", "quoting": "text",
}
CLAUSE_HINTS = {"take": "taking", "takes": "taking", "move": "moving", "w/": "with",
                "give": "giving", "replace": "replacing", "choose": "choosing"}
"""What a player may have meant by a word after a card's name (a suggestion only)."""
TYPE_WORD = {"keeper": "Keeper", "creeper": "Creeper", "goal": "Goal", "rule": "New Rule",
             "action": "Action"}


@record
class FluxxOrders:
    """Parsed orders: JSON-able line dicts (kept in the state while a turn is paused) and the
    source lines they came from (for located errors)."""

    lines: list[dict[str, Any]] = field(default_factory=list)
    src: list[Line] = field(default_factory=list)

    def add(self, entry: dict[str, Any], line: Line) -> None:
        entry["line"] = line.number
        entry["text"] = line.text.strip()
        self.lines.append(entry)
        self.src.append(line)

    @property
    def kinds(self) -> list[str]:
        return [entry["kind"] for entry in self.lines]

    @property
    def standing_only(self) -> bool:
        return all(k in ("keep", "quote") for k in self.kinds)

    @property
    def keep(self) -> list[str] | None:
        found = [e["cards"] for e in self.lines if e["kind"] == "keep"]
        return found[-1] if found else None

    @property
    def quote(self) -> dict[str, Any] | None:
        found = [e for e in self.lines if e["kind"] == "quote"]
        return {"words": found[-1]["words"], "judged": found[-1].get("judged")} if found else None

    @property
    def joins(self) -> bool:
        return "join" in self.kinds

    @property
    def turn_lines(self) -> list[dict[str, Any]]:
        return [e for e in self.lines if e["kind"] not in ("keep", "quote", "join")]


class Parser:
    def __init__(self, deck: Deck, players: list[str], prefer: frozenset[str] = frozenset(),
                 before_you: bool = False, whole_name: bool = False):
        self.deck = deck
        self.players = players
        self.prefer = prefer    # the cards before the player: a short name means one of these
        # rules edition 2: a name read as a card not before the player, but also matching one
        # card that is (on a later word), means that one ('grail' with The Holy Grail in hand)
        self.before_you = before_you
        # rules edition 5: a card's whole name means that card, though it is also the end of the
        # name of a card before the player ('A Shrubbery' in the discard pile, with the Goal
        # You Must Bring Us a Shrubbery on the table)
        self.whole_name = whole_name
        self.playable = [c for c in deck.cards]
        self.free_cards = [c for c in deck.cards if c.free]

    # -- names ------------------------------------------------------------------------------
    def span_text(self, line: Line, tokens: list[Token]) -> str:
        return line.text[tokens[0].col - 1: tokens[-1].end - 1]

    def card(self, cur: Cursor, types: tuple[str, ...], what: str,
             stops: tuple[str, ...] = STOPS) -> Card:
        """A card name: the longest span (ending before a choice keyword or at the end of the
        line) that names a card of the wanted types."""
        return self._name(cur, stops, what, lambda text: self._match_card(text, types),
                          lambda text: self._wrong_type(text, types, what))

    def player(self, cur: Cursor, stops: tuple[str, ...] = STOPS) -> str:
        def match(text):
            found = match_name(text, self.players)
            if found.ok:
                return found.name, ()
            return None, found.candidates if found.ambiguous else ()
        return self._name(cur, stops, "player", match, None)

    def _name(self, cur: Cursor, stops, what: str, match, wrong):
        tokens = cur.tokens
        start = cur.i
        if start >= len(tokens):
            raise cur.syntax("expected a player's name" if what == "player" else
                             f"expected {what} (a card's name)")
        bounds = [j for j in range(start + 1, len(tokens))
                  if tokens[j].kind == "word" and tokens[j].key in stops] + [len(tokens)]
        for j in reversed(bounds):
            text = self.span_text(cur.line, tokens[start:j])
            found, _ = match(text)
            if found is not None:
                cur.i = j
                return found
        j = bounds[0]
        span = tokens[start:j]
        text = self.span_text(cur.line, span)
        col, length = span[0].col, span[-1].end - span[0].col
        _, candidates = match(text)
        if candidates:
            raise AmbiguousNameError(f"'{text}' could be any of: {', '.join(candidates)}",
                                     cur.line, col, length,
                                     suggestion="type more of the name to say which one")
        if wrong is not None:
            problem = wrong(text)
            if problem:
                raise IllegalOrderError(problem, cur.line, col, length)
        known = ([c.name for c in self.deck.cards] if what != "player" else self.players)
        found = match_name(norm(text), [norm(k) for k in known])
        back = {norm(k): k for k in known}
        suggestion = next((hint for k in range(start + 1, j) for hint in
                           [next_order_hint(tokens, k, HEADS + tuple(SYNONYMS))] if hint), None)
        meant = [CLAUSE_HINTS[t.key] for t in span[1:] if t.key in CLAUSE_HINTS]
        if suggestion is None and meant and not found.suggestions:
            suggestion = f"did you mean '{meant[0]}'?"     # 'trade hands w/ cora'
        if suggestion is None and found.suggestions:
            suggestion = "did you mean " + " or ".join(f"'{back[s]}'" for s in found.suggestions) + "?"
        elif suggestion is None and what == "player":
            suggestion = f"players: {', '.join(self.players)}"
        noun = "player" if what == "player" else "card"
        raise UnknownNameError(f"no {noun} called '{text}'", cur.line, col, length,
                               suggestion=suggestion)

    def _match_card(self, text: str, types: tuple[str, ...]):
        table = self.deck.name_table(types)
        found, candidates = quick_match(norm(text), table)
        mine = [name for name in candidates if name in self.prefer]
        if len(mine) == 1:      # 'hand limit' with only Hand Limit 2 in hand
            return quick_match(norm(mine[0]), table)
        if self.before_you and found is not None and found.name not in self.prefer and \
                not (self.whole_name and norm(text) in table.exact):
            mine = [c for c in table.all_hits(norm(text)) if c.name in self.prefer]
            if len(mine) == 1:
                return mine[0], ()
        return found, tuple(mine) or candidates

    def _wrong_type(self, text: str, types: tuple[str, ...], what: str) -> str | None:
        card, _ = self._match_card(text, ("keeper", "creeper", "goal", "rule", "action"))
        if card is None and norm(text) == norm(self.deck.basic.name):
            return f"the {self.deck.basic.name} card stays on the table; it is never played"
        if card is not None and card.type not in types:
            wanted = " or ".join(TYPE_WORD[t] for t in types)
            return f"{card.name} is a {TYPE_WORD[card.type]}, but {what} must be a {wanted}"
        return None

    # -- lines ------------------------------------------------------------------------------
    def parse(self, text: str) -> tuple[FluxxOrders, list[OrderError]]:
        orders = FluxxOrders()
        errors: list[OrderError] = []
        for line in order_lines(text):
            try:        # refused as typed, read as a phone leaves it ('Ask.', curly quotes)
                entry, line = read_line(line, self.entry)
            except OrderError as err:
                errors.append(err)
                continue
            orders.add(entry, line)
        return orders, errors

    def entry(self, line: Line) -> dict[str, Any]:
        """One order line as its JSON-able dict."""
        cur = Cursor(line)
        head = cur.peek()
        unclosed = unclosed_quote(line.raw)
        if unclosed:
            raise OrderSyntaxError(
                "a quoted line opens here but is not closed", line, unclosed, 1,
                suggestion='end it with a second double quote: "..."')
        if head.kind != "word" or (head.key not in KEYWORDS
                                   and head.key not in SYNONYMS):
            raise unknown_keyword(line, head, KEYWORDS)
        cur.next()
        if SYNONYMS.get(head.key, head.key) == "play":
            card = self.card(cur, ("keeper", "goal", "rule", "action", "creeper"),
                             "the card to play")
            if card.type == "creeper":
                raise IllegalOrderError(
                    f"{card.name} is a Creeper: Creepers are never held or played, they "
                    "go in front of whoever draws them", line, head.col,
                    len(line.text.rstrip()) - head.col + 1)
            entry = {"kind": "play", "card": card.id, "clauses": {}}
            self.clauses(cur, entry)
        elif head.key == "use":
            card = self.card(cur, ("keeper", "rule"), "the card to use")
            if not card.free:
                with_free = ", ".join(c.name for c in self.free_cards)
                raise IllegalOrderError(f"{card.name} has no free action", line,
                                        head.col, len(line.text.rstrip()) - head.col + 1,
                                        suggestion=f"cards with free actions: {with_free}")
            entry = {"kind": "use", "card": card.id, "clauses": {}}
            self.clauses(cur, entry)
        elif head.key in ("sing", "accent", "quote"):
            words = self.quoted(cur, head.key)
            entry = {"kind": "quote" if head.key == "quote" else "claim",
                     "what": head.key, "words": words}
            self.judged(cur, entry)
            cur.finish()
        elif head.key == "keep":
            entry = {"kind": "keep", "cards": self.keep_list(cur)}
        elif head.key in ("ask", "join"):
            cur.finish()
            entry = {"kind": head.key}
        else:
            cur.i -= 1
            entry = {"kind": "answer", "clauses": {}}
            self.clauses(cur, entry)
        return entry

    def quoted(self, cur: Cursor, what: str) -> str:
        token = cur.peek()
        if token is None or token.kind != "quoted":
            raise cur.syntax(f'expected the line in double quotes after \'{what}\' '
                             f'({what} "...")', token)
        cur.next()
        words = " ".join(token.text.split())
        if not words:
            raise OrderSyntaxError(f"the quoted line after '{what}' is empty", cur.line,
                                   token.col, token.end - token.col)
        return words

    def judged(self, cur: Cursor, entry: dict[str, Any]) -> None:
        if cur.accept("judged"):
            verdict = cur.peek()
            if verdict is None or verdict.kind != "word" or verdict.key not in ("ok", "no"):
                raise cur.syntax("expected 'ok' or 'no' after 'judged' (the moderator's verdict)",
                                 verdict)
            cur.next()
            entry["judged"] = verdict.key

    def clauses(self, cur: Cursor, entry: dict[str, Any]) -> None:
        clauses = entry["clauses"]
        while not cur.at_end():
            token = cur.peek()
            if token.kind != "word" or token.key not in ALL_CLAUSES:
                if token.kind == "word" and token.key == "judged" and "quoting" in clauses \
                        and "judged" not in entry:
                    self.judged(cur, entry)
                    continue
                raise cur.syntax("expected a choice (" + ", ".join(ALL_CLAUSES) + ")", token)
            cur.next()
            key = token.key
            if key in clauses:
                raise cur.syntax(f"the choice '{key}' is given twice", token)
            kind = CLAUSE_TYPES[key]
            if kind == "player":
                clauses[key] = self.player(cur)
            elif kind == "text":
                clauses[key] = self.quoted(cur, key)
            else:
                what = {"taking": "the Keeper to take", "moving": "the Creeper to move",
                        "on": "the card in play", "giving": "your Keeper",
                        "for": "their Keeper", "replacing": "the Goal to replace",
                        "keeping": "the Goal to keep", "choosing": "the card"}[key]
                clauses[key] = self.card(cur, kind, what).id

    def keep_list(self, cur: Cursor) -> list[str]:
        if cur.at_keyword("none", "nothing"):
            cur.next()
            cur.finish()
            return []
        segments: list[list[Token]] = [[]]
        while not cur.at_end():
            token = cur.next()
            if token.kind == "punct" and token.text in (";", ","):
                segments.append([])
            else:
                segments[-1].append(token)
        if not segments[0]:
            raise cur.syntax("expected card names after 'keep' (separated by ';'), or 'keep "
                             "none'")
        out: list[str] = []
        i = 0
        types = ("keeper", "goal", "rule", "action")
        while i < len(segments):
            if not segments[i]:
                i += 1
                continue
            for j in range(len(segments), i, -1):
                parts = segments[i:j]
                if any(not p for p in parts):
                    continue
                text = cur.line.text[parts[0][0].col - 1: parts[-1][-1].end - 1]
                card, _ = self._match_card(text, types)
                if card is not None:
                    if card.id not in out:
                        out.append(card.id)
                    i = j
                    break
            else:
                sub = Cursor(Line(cur.line.number, cur.line.raw, segments[i]))
                self.card(sub, types, "a card to keep", stops=())
                i += 1
        return out


def is_placeholder(words: str) -> bool:
    """Whether a quoted line is the options' placeholder as offered (case and punctuation
    ignored: with or without its brackets), not a line of the player's own."""
    return norm(words) == norm(PLACEHOLDER)


def unclosed_quote(raw: str) -> int | None:
    """The column of a double quote that opens a quoted text never closed (a ``#`` outside
    quotes ends the line), or None."""
    opened = None
    for i, ch in enumerate(raw):
        if ch == '"':
            opened = None if opened is not None else i + 1
        elif ch == "#" and opened is None:
            break
    return opened


def quick_match(query: str, table):
    """Match a normalised name like :func:`match_name` does (exact, unique prefix, unique prefix
    of a later word), without computing suggestions. ``table`` is a list of (key, item) pairs or
    a :class:`NameIndex`. Returns (item or None, names of the candidates when ambiguous)."""
    index = table if isinstance(table, NameIndex) else NameIndex(table)
    return index.match(query)


class NameIndex:
    """Normalised names with their later-word suffixes, for fast matching of typed names: each
    list is also kept sorted, so that the keys a typed text begins are found by bisection."""

    def __init__(self, pairs):
        self.pairs = list(pairs)
        self.exact = {}
        for key, item in self.pairs:
            self.exact.setdefault(key, item)
        self.suffixes = []
        for key, item in self.pairs:
            for i, ch in enumerate(key):
                if ch == " ":
                    self.suffixes.append((key[i + 1:], item))
        # (key, position in its list) sorted by key, per list
        self.sorted = [sorted((key, n) for n, (key, _) in enumerate(table))
                       for table in (self.pairs, self.suffixes)]

    def all_hits(self, query: str) -> list:
        """Every item a query could mean: its exact name, or a name or later word it begins."""
        found: list = []
        for table, ordered in zip((self.pairs, self.suffixes), self.sorted):
            at = bisect.bisect_left(ordered, (query,))
            while at < len(ordered) and ordered[at][0].startswith(query):
                item = table[ordered[at][1]][1]
                if item not in found:
                    found.append(item)
                at += 1
        return found

    def match(self, query: str):
        if not query:
            return None, ()
        if query in self.exact:
            return self.exact[query], ()
        for table, ordered in zip((self.pairs, self.suffixes), self.sorted):
            at = bisect.bisect_left(ordered, (query,))
            hits = []
            while at < len(ordered) and ordered[at][0].startswith(query):
                hits.append(ordered[at][1])
                at += 1
            found = []
            for n in sorted(hits):  # in the list's own order, as a scan of it finds them
                item = table[n][1]
                if item not in found:
                    found.append(item)
            if len(found) == 1:
                return found[0], ()
            if found:
                return None, tuple(getattr(i, "name", str(i)) for i in found)
        return None, ()


def parse_orders(deck: Deck, players: list[str], text: str, filename: str,
                 prefer: frozenset[str] = frozenset(), before_you: bool = False,
                 whole_name: bool = False) -> FluxxOrders:
    """``prefer``: the names of the cards before the player (his hand and the table);
    ``before_you`` (rules edition 2): a short name that means a card not before him but also
    one that is, means the one before him; ``whole_name`` (rules edition 5): but not when it is
    the whole name of the card not before him."""
    orders, errors = Parser(deck, players, prefer, before_you, whole_name).parse(text)
    if errors:
        raise OrdersRejected(errors, filename, partial=orders)
    return orders


def illegal(line: Line, message: str, suggestion: str | None = None) -> IllegalOrderError:
    col = line.tokens[0].col if line.tokens else 1
    length = len(line.text.rstrip()) - col + 1
    return IllegalOrderError(message, line, col, length, suggestion=suggestion)


def line_text(deck: Deck, entry: dict[str, Any]) -> str:
    """An order line written back in its canonical form."""
    kind = entry["kind"]
    if kind in ("play", "use"):
        text = f"{kind} {deck.name(entry['card'])}"
        clauses = clause_text(deck, entry["clauses"])
        text = f"{text} {clauses}" if clauses else text
        if entry.get("judged"):
            text += f" judged {entry['judged']}"
        return text
    if kind == "answer":
        return clause_text(deck, entry["clauses"])
    if kind in ("claim", "quote"):
        text = f'{entry["what"]} "{entry["words"]}"'
        return text + (f" judged {entry['judged']}" if entry.get("judged") else "")
    if kind == "keep":
        return "keep " + ("; ".join(deck.name(c) for c in entry["cards"]) or "none")
    return kind


def clause_text(deck: Deck, clauses: dict[str, Any]) -> str:
    parts = []
    for key in ALL_CLAUSES:
        if key not in clauses:
            continue
        value = clauses[key]
        if key == "quoting":
            parts.append(f'quoting "{value}"')
        elif CLAUSE_TYPES[key] == "player":
            parts.append(f"{key} {value}")
        else:
            parts.append(f"{key} {deck.name(value)}")
    return " ".join(parts)
