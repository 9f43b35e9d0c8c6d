"""The Holy Grail CCG order grammar.

A player's orders for their turn are carried out from the top, one line after another (a line
that is not possible when its turn comes is left out and the report says why)::

    play <card> [on|to|at <target>]   play a card from hand; the target is an area (1a..4b,
                                      av1..av4, 'my 2b' / 'their 2b' for either England), or a
                                      character (the knight a page serves, the page that carries
                                      an item, the knight 'Burn Her!' slays); with three or more
                                      players 'of <player>' after it names whose (16.3)
    play <card> ... against <player>  whom a card aimed at an opponent hits (16.3)
    give <item> to <page>             the same as 'play <item> to <page>' (11.1)
    pass <item> from <page> to <page> hand an item from one page to another (FAQ 5)
    use <item> [at <area>]            use the property of an item a page carries (11.1)
    move [to] <area>                  the Round Table moves one area (exploring it)
    lead <character>                  the lead in the dispute (7.1)
    fight [with <character>]          settle the dispute by combat (7.2)
    outwit [with <character>]         settle it by a battle of wits (7.4)
    run away [to <area>]              run away (7.6); the area is a wish, the opponent decides
    consult [with <character>]        consult the castle table (8.1)
    assault [with <character>]        assault the castle (8.3)
    stay outside                      the knights stay outside the castle (8.4)
    decline [<character>]             make no Round Table draw for the next knight or persona
                                      turned up this turn (or only for the one named): it
                                      stays as an adversary (5 as rebuilt, 7.1)
    assign <page> to <knight>         a page whose knight died serves another knight of yours
                                      (FAQ 4, 10.1)
    search                            search for the Grail in this area of Avalon (15.1)
    give up                           end a lone search after the opponent is out (15.3)
    discard <card>[, <card> ...]      what goes when the hand is over the limit (end phase)
    double                            double the ante after this turn (16.2)
    end                               nothing more this turn (the lines after it are ignored)

Answers to a question asked (option ``missing=wait``): ``accept``, ``concede``,
``retreat <area>``, ``defend <card>``, ``respond <card>`` / ``respond pass``,
``reveal apply`` / ``reveal ignore``.

Standing orders (kept until replaced; ``none`` clears one)::

    on dispute: play <card>[, <card> ...]   cards to play before grail numbers are drawn (13.1)
    on play: play <card>[, ...]             answers to a card the opponent plays (13.2-13.4)
    on invite: play <card>[, ...]           before the opponent's Round Table draw (13.4)
    on double: accept | concede             the answer when the opponent doubles (16.2)
    on retreat: <area>[, <area> ...]        where the opponent's Round Table runs to (7.6)
    on defend: <card>[, <card> ...]         who occupies a castle of yours (8.1)
    on reveal: apply | ignore               a turned-up card's primary property (FAQ 1)

Card names match ignoring case, accents and punctuation; any unambiguous beginning is enough.
A shortened name is looked up first among the cards the order can refer to (the hand for
'play' and 'discard', the items the pages carry for 'use', the Round Table's pages for 'give
... to', ...: :func:`name_tiers`), then among cards of the right type, then in the whole card
set; a name typed in full always means that card.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from companion.engine.names import fold, match_name
from companion.engine.orders import (
    AmbiguousNameError, Cursor, IllegalOrderError, Line, OrderError, OrderSyntaxError,
    UnknownNameError, next_order_hint, order_lines, read_line, unknown_keyword,
)
from companion.grailccg import england as E

HEADS = ("play", "give", "pass", "use", "move", "lead", "fight", "outwit", "run", "consult",
         "assault", "stay", "search", "discard", "double", "end", "accept", "concede",
         "retreat", "defend", "respond", "reveal", "on", "decline", "assign")
STOPS = ("on", "to", "at", "from", "with", "against")
TRIGGERS = ("dispute", "play", "invite", "double", "retreat", "defend", "reveal")
SYNONYMS = {"cast": "play", "go": "move"}
"""Words a player may write for an order's keyword ('cast Bors', 'go to 1a')."""
STANDING_KINDS = ("on",)
ANSWER_KINDS = ("accept", "concede", "retreat", "defend", "respond", "reveal")


@dataclass
class GrailOrders:
    """Parsed orders: JSON-able line dicts and the source lines they came from."""

    lines: list[dict[str, Any]] = field(default_factory=list)
    src: list[Line] = field(default_factory=list)

    def add(self, entry: dict[str, Any], line: Line) -> None:
        entry["line"] = line.number
        entry["text"] = " ".join(line.text.split("#", 1)[0].split())
        self.lines.append(entry)
        self.src.append(line)

    @property
    def standing(self) -> list[dict[str, Any]]:
        return [e for e in self.lines if e["kind"] == "on"]

    @property
    def turn_lines(self) -> list[dict[str, Any]]:
        return [e for e in self.lines if e["kind"] != "on"]

    @property
    def standing_only(self) -> bool:
        return all(e["kind"] == "on" for e in self.lines)


class Parser:
    def __init__(self, cards, players: list[str], tiers: dict[str, list[list[str]]] | None = None):
        self.cards = cards
        self.players = players
        self.names = [c.name for c in cards.cards]
        try:
            self.aliases = cards.aliases()
        except AttributeError:
            self.aliases = {}
        self.tiers = tiers or {}
        self.exact = {fold(n) for n in self.names} | {fold(a) for a in self.aliases}

    def lookup(self, text: str, suggest: bool = True):
        return match_name(text, self.names, self.aliases, suggest=suggest)

    def resolve(self, text: str, role: str | None) -> str | None:
        """The card name ``text`` means for an order slot of ``role``: a name or alias typed in
        full is that card; else a unique match among the first tier of the role's cards that has
        any (the hand, the pages of the Round Table, ...); else a unique match in the whole card
        set. None when nothing settles it (the caller then reports against the whole set)."""
        found = self.lookup(text, suggest=False)
        if found.ok and fold(text) in self.exact:
            return found.name
        for tier in self.tiers.get(role or "", ()):
            if not tier:
                continue
            names = set(tier)
            aliases = {a: n for a, n in self.aliases.items() if n in names}
            mine = match_name(text, tier, aliases, suggest=False)
            if mine.ok:
                return mine.name
        return found.name if found.ok else None

    def card_id(self, name: str) -> str:
        for c in self.cards.cards:
            if c.name == name:
                return c.id
        raise KeyError(name)

    # -- names ------------------------------------------------------------------------------
    def card(self, cur: Cursor, what: str, stops=STOPS, role: str | None = None) -> str:
        """A card name: the longest span (ending before a stop word or a comma, or at the end
        of the line) that names a card (first among the cards of ``role``, see
        :meth:`resolve`). Returns the card id."""
        tokens = cur.tokens
        start = cur.i
        if start >= len(tokens):
            raise cur.syntax(f"expected {what} (a card's name)")
        if tokens[start].kind == "punct":
            raise cur.syntax(f"expected {what} (a card's name)", tokens[start])
        limit = next((j for j in range(start, len(tokens)) if tokens[j].kind == "punct"
                      and tokens[j].text == ","), len(tokens))
        bounds = [j for j in range(start + 1, limit)
                  if tokens[j].kind == "word" and tokens[j].key in stops] + [limit]
        line = cur.line
        for j in reversed(bounds):
            text = line.text[tokens[start].col - 1: tokens[j - 1].end - 1]
            name = self.resolve(text, role)
            if name is None and j == start + 1 and tokens[start].kind == "quoted":
                name = self.resolve(tokens[start].text, role)   # a name in quotes: "Bors"
            if name is not None:
                cur.i = j
                return self.card_id(name)
        j = bounds[0]
        span = tokens[start:j]
        text = line.text[span[0].col - 1: span[-1].end - 1]
        col, length = span[0].col, span[-1].end - span[0].col
        found = self.lookup(text)
        if found.ambiguous:
            raise AmbiguousNameError(f"'{text}' could be any of: {', '.join(found.candidates)}",
                                     line, col, length,
                                     suggestion="type more of the name to say which one")
        suggestion = next((hint for k in range(start + 1, j) if tokens[k].key in ("and", "then")
                           for hint in [next_order_hint(tokens, k, HEADS)] if hint), None)
        if suggestion is None and found.suggestions:
            suggestion = "did you mean " + " or ".join(f"'{s}'" for s in found.suggestions) + "?"
        raise UnknownNameError(f"no card called '{text}'", line, col, length,
                               suggestion=suggestion)

    def cards_list(self, cur: Cursor, what: str, role: str | None = None) -> list[str]:
        out = [self.card(cur, what, stops=(), role=role)]
        while not cur.at_end():
            token = cur.peek()
            if token.kind == "punct" and token.text in (",", ";"):
                cur.next()
                out.append(self.card(cur, what, stops=(), role=role))
            else:
                raise cur.syntax("expected ',' between card names", token)
        return out

    def area(self, cur: Cursor) -> dict[str, Any]:
        side = None
        if cur.at_keyword("my", "mine", "their", "theirs"):
            side = "my" if cur.next().key.startswith("m") else "their"
        token = cur.peek()
        if token is None:
            raise cur.syntax("expected an area (1a..4b, av1..av4 or home)")
        name = E.canonical(token.text)
        if name is None:
            raise OrderSyntaxError(f"no area called '{token.text}'", cur.line, token.col,
                                   token.end - token.col,
                                   suggestion="areas: " + " ".join(E.AREAS) +
                                   ", av1..av4 (Avalon), home")
        cur.next()
        out = {"area": name}
        if side:
            out["side"] = side
        return out

    def areas_list(self, cur: Cursor) -> list[str]:
        out = [self.area(cur)["area"]]
        while not cur.at_end():
            token = cur.peek()
            if token.kind == "punct" and token.text in (",", ";"):
                cur.next()
                out.append(self.area(cur)["area"])
            else:
                raise cur.syntax("expected ',' between areas", token)
        return out

    def target(self, cur: Cursor, role: str = "tabled") -> dict[str, Any]:
        """An area or a character after on/to/at, each optionally followed by 'of <player>'
        (whose England or Round Table, in a game of three or more, 16.3)."""
        token = cur.peek()
        if token is None:
            raise cur.syntax("expected an area or a character")
        if cur.at_keyword("my", "mine", "their", "theirs") or E.canonical(token.text):
            out = self.area(cur)
        else:
            out = {"member": self.card(cur, "a character", stops=("of", "against"), role=role)}
        if cur.accept("of"):
            out["player"] = self.player(cur)
        return out

    def player(self, cur: Cursor) -> str:
        """A player's name (the rest of the line, or up to 'against')."""
        start = cur.i
        if cur.at_end():
            raise cur.syntax("expected a player's name")
        end = next((j for j in range(start, len(cur.tokens)) if cur.tokens[j].kind == "word"
                    and cur.tokens[j].key == "against"), len(cur.tokens))
        if end == start:
            raise cur.syntax("expected a player's name", cur.peek())
        span = cur.tokens[start:end]
        text = cur.line.text[span[0].col - 1: span[-1].end - 1]
        found = match_name(text, self.players)
        if not found.ok:
            suggestion = "players: " + ", ".join(self.players)
            if found.ambiguous:
                raise AmbiguousNameError(f"'{text}' could be any of: "
                                         f"{', '.join(found.candidates)}", cur.line, span[0].col,
                                         span[-1].end - span[0].col, suggestion=suggestion)
            raise UnknownNameError(f"no player called '{text}'", cur.line, span[0].col,
                                   span[-1].end - span[0].col, suggestion=suggestion)
        cur.i = end
        return found.name

    def against(self, cur: Cursor, entry: dict) -> None:
        """'against <player>': whom the card is aimed at (16.3)."""
        if cur.accept("against"):
            entry["target"] = dict(entry.get("target") or {}, player=self.player(cur))

    def with_member(self, cur: Cursor, entry: dict) -> None:
        if cur.accept("with", "by"):
            entry["card"] = self.card(cur, "a member of your Round Table", stops=(),
                                      role="members")

    # -- lines ------------------------------------------------------------------------------
    def parse(self, text: str) -> tuple[GrailOrders, list[OrderError]]:
        orders = GrailOrders()
        errors: list[OrderError] = []
        for line in order_lines(text):
            try:        # refused as typed, read as a phone leaves it ('Play Bors.', 'please')
                entry, line = read_line(line, self.parse_line)
            except OrderError as error:
                errors.append(error)
                continue
            orders.add(entry, line)
        return orders, errors

    def parse_line(self, line: Line) -> dict[str, Any]:
        cur = Cursor(line)
        head = cur.peek()
        if head.kind != "word" or head.key not in HEADS and head.key not in SYNONYMS:
            raise unknown_keyword(line, head, HEADS)
        cur.next()
        key = SYNONYMS.get(head.key, head.key)
        entry: dict[str, Any]
        if key == "play":
            entry = {"kind": "play", "card": self.card(cur, "the card to play", role="hand")}
            if cur.accept("on", "to", "at"):
                kind = str(self.cards.get(entry["card"]).type).lower()
                entry["target"] = self.target(cur, {"page": "knights", "item": "pages"}.get(
                    kind, "tabled"))
            self.against(cur, entry)
        elif key == "give" and cur.at_keyword("up"):
            cur.next()
            entry = {"kind": "giveup"}
        elif key == "give":
            entry = {"kind": "give", "card": self.card(cur, "the item to give", role="give")}
            cur.expect("to", "after the item ('give <item> to <page>')")
            entry["page"] = self.card(cur, "the page", stops=(), role="pages")
        elif key == "pass":
            entry = {"kind": "pass", "card": self.card(cur, "the item to pass",
                                                        role="carried")}
            cur.expect("from", "after the item ('pass <item> from <page> to <page>')")
            entry["from"] = self.card(cur, "the page that carries it", role="pages")
            cur.expect("to", "after the first page ('pass <item> from <page> to <page>')")
            entry["to"] = self.card(cur, "the page to carry it", stops=(), role="pages")
        elif key == "use":
            entry = {"kind": "use", "card": self.card(cur, "the item to use", role="carried")}
            if cur.accept("on", "to", "at"):
                entry["target"] = self.target(cur)
            self.against(cur, entry)
        elif key == "move":
            cur.accept("to")
            token = cur.peek()
            where = self.area(cur)
            if where.get("side") == "their":
                raise IllegalOrderError("a Round Table never enters the opponent's England "
                                        "(FAQ 10)", line, token.col,
                                        cur.tokens[cur.i - 1].end - token.col,
                                        suggestion=f"write 'move {where['area']}' for your own "
                                        "England")
            entry = {"kind": "move", "area": where["area"]}
        elif key == "lead":
            entry = {"kind": "lead", "card": self.card(cur, "the lead character", stops=(),
                                                        role="members")}
        elif key in ("fight", "outwit"):
            entry = {"kind": key}
            self.with_member(cur, entry)
        elif key == "run":
            cur.expect("away", "after 'run' ('run away')")
            entry = {"kind": "run", "area": None}
            if cur.accept("to"):
                entry["area"] = self.area(cur)["area"]
        elif key in ("consult", "assault"):
            entry = {"kind": key}
            self.with_member(cur, entry)
        elif key == "stay":
            cur.expect("outside", "after 'stay' ('stay outside')")
            entry = {"kind": "outside"}
        elif key == "decline":
            cur.accept("draw")
            entry = {"kind": "decline", "card": None}
            if not cur.at_end():
                cur.accept("for")
                entry["card"] = self.card(cur, "the knight or persona not to invite", stops=(),
                                          role="characters")
        elif key == "assign":
            entry = {"kind": "assign", "card": self.card(cur, "the page to assign",
                                                          role="pages")}
            cur.expect("to", "after the page ('assign <page> to <knight>')")
            entry["knight"] = self.card(cur, "the knight the page is to serve", stops=(),
                                        role="knights")
        elif key in ("search", "double", "end", "accept", "concede"):
            entry = {"kind": key}
            if key == "end":
                cur.accept("turn")                      # 'end turn'
            elif key == "double":
                cur.accept("the")
                cur.accept("ante")                      # 'double the ante'
        elif key == "discard":
            entry = {"kind": "discard", "cards": self.cards_list(cur, "the card to discard",
                                                                 role="hand")}
        elif key == "retreat":
            cur.accept("to")
            entry = {"kind": "retreat", "area": self.area(cur)["area"]}
        elif key == "defend":
            cur.accept("with")
            entry = {"kind": "defend", "card": self.card(cur, "the occupant", stops=(),
                                                          role="defend")}
        elif key == "respond":
            if cur.accept("pass", "nothing", "none"):
                entry = {"kind": "respond", "card": None}
            else:
                cur.accept("play", "with")
                entry = {"kind": "respond", "card": self.card(cur, "the card to play",
                                                               stops=(), role="answer")}
        elif key == "reveal":
            token = cur.peek()
            if not cur.accept("apply", "ignore"):
                raise cur.syntax("expected 'apply' or 'ignore'", token)
            entry = {"kind": "reveal", "value": token.key}
        else:           # on <trigger>: ...
            entry = self.standing(cur)
        if not cur.at_end():
            raise cur.syntax("unexpected text at the end of the order", cur.peek(),
                             suggestion=next_order_hint(cur.tokens, cur.i, HEADS))
        return entry

    def standing(self, cur: Cursor) -> dict[str, Any]:
        token = cur.peek()
        if token is None or token.kind != "word" or token.key not in TRIGGERS:
            if token is None:
                raise cur.syntax("expected what the standing order answers ("
                                 + ", ".join(TRIGGERS) + ")")
            raise unknown_keyword(cur.line, token, TRIGGERS)
        trigger = cur.next().key
        colon = cur.peek()
        if colon is not None and colon.kind == "punct" and colon.text == ":":
            cur.next()
        entry: dict[str, Any] = {"kind": "on", "trigger": trigger}
        if cur.accept("none", "nothing"):
            entry["value"] = None
            return entry
        if trigger in ("dispute", "play", "invite"):
            cur.accept("play")
            entry["value"] = self.cards_list(cur, "the card to play", role="answer")
        elif trigger == "double":
            token = cur.peek()
            if not cur.accept("accept", "concede"):
                raise cur.syntax("expected 'accept' or 'concede'", token)
            entry["value"] = token.key
        elif trigger == "reveal":
            token = cur.peek()
            if not cur.accept("apply", "ignore"):
                raise cur.syntax("expected 'apply' or 'ignore'", token)
            entry["value"] = token.key
        elif trigger == "retreat":
            entry["value"] = self.areas_list(cur)
        else:
            entry["value"] = self.cards_list(cur, "the occupant", role="defend")
        return entry


def line_text(cards, entry: dict[str, Any]) -> str:
    """An order line in its canonical spelling (what was understood)."""
    def n(cid):
        return cards.get(cid).name

    kind = entry["kind"]
    if kind == "play":
        text = f"play {n(entry['card'])}"
        t = entry.get("target")
        if t:
            text += (" on " + target_text(cards, t)) if "area" in t or "member" in t else \
                f" against {t['player']}"
        return text
    if kind == "give":
        return f"give {n(entry['card'])} to {n(entry['page'])}"
    if kind == "pass":
        return f"pass {n(entry['card'])} from {n(entry['from'])} to {n(entry['to'])}"
    if kind == "use":
        text = f"use {n(entry['card'])}"
        t = entry.get("target")
        if t:
            text += (" at " + target_text(cards, t)) if "area" in t or "member" in t else \
                f" against {t['player']}"
        return text
    if kind == "move":
        return f"move {entry['area']}"
    if kind == "lead":
        return f"lead {n(entry['card'])}"
    if kind in ("fight", "outwit", "consult", "assault"):
        return kind + (f" with {n(entry['card'])}" if entry.get("card") else "")
    if kind == "run":
        return "run away" + (f" to {entry['area']}" if entry.get("area") else "")
    if kind == "outside":
        return "stay outside"
    if kind == "decline":
        return "decline" + (f" {n(entry['card'])}" if entry.get("card") else "")
    if kind == "assign":
        return f"assign {n(entry['card'])} to {n(entry['knight'])}"
    if kind == "giveup":
        return "give up"
    if kind == "discard":
        return "discard " + ", ".join(n(c) for c in entry["cards"])
    if kind == "retreat":
        return f"retreat {entry['area']}"
    if kind == "defend":
        return f"defend {n(entry['card'])}"
    if kind == "respond":
        return "respond " + (n(entry["card"]) if entry.get("card") else "pass")
    if kind == "reveal":
        return f"reveal {entry['value']}"
    if kind == "on":
        value = entry.get("value")
        if value is None:
            shown = "none"
        elif entry["trigger"] in ("dispute", "play", "invite"):
            shown = "play " + ", ".join(n(c) for c in value)
        elif entry["trigger"] == "defend":
            shown = ", ".join(n(c) for c in value)
        elif entry["trigger"] == "retreat":
            shown = ", ".join(value)
        else:
            shown = str(value)
        return f"on {entry['trigger']}: {shown}"
    return kind


def target_text(cards, t: dict[str, Any]) -> str:
    of = f" of {t['player']}" if t.get("player") else ""
    if "area" in t:
        return (f"{t['side']} " if t.get("side") else "") + t["area"] + of
    return cards.get(t["member"]).name + of


def illegal(line: Line, message: str, suggestion: str | None = None) -> IllegalOrderError:
    col = line.tokens[0].col if line.tokens else 1
    return IllegalOrderError(message, line, col, max(1, len(line.text.rstrip()) - col + 1),
                             suggestion=suggestion)


def name_tiers(cards, state: dict | None, player: str) -> dict[str, list[list[str]]]:
    """For each kind of order slot, the card names a shortened name is looked up among first,
    tier by tier, before the whole card set: what the order can refer to in ``player``'s
    position (their hand, the items their pages carry, their pages and knights, the characters
    on every Round Table), then the cards of the right type. Only ``player``'s own hand and
    cards (and the open Round Tables) are read, so the answer tells them nothing new."""
    tiers = dict(_typed_tiers(cards))
    g = (state or {}).get("game")
    if not g or player not in g.get("hands", {}):
        return tiers

    def names(insts) -> list[str]:
        out: list[str] = []
        for i in insts:
            name = cards.get(g["cards"][i]).name
            if name not in out:
                out.append(name)
        return out

    table = g["table"][player]
    hand = names(g["hands"][player])
    carried = names(i for info in table["pages"].values() for i in info["items"] + info["new"])
    pages = names(table["pages"])
    members = names(table["members"])
    knights = [n for n in members if _type(cards._by_name_exact(n)) == "knight"]
    everyone = names(m for q in g["players"] for m in
                     list(g["table"][q]["members"]) + list(g["table"][q]["pages"]))
    seat = f"{g['players'].index(player) + 1}-"
    own = [n for n in names(sorted(i for i in g["cards"] if i.startswith(seat)))
           if _type(cards._by_name_exact(n)) in ("knight", "persona", "adversary")]
    items = [n for n in hand if _type(cards._by_name_exact(n)) == "item"]
    for role, first in (("hand", [hand]), ("give", [items]), ("carried", [carried]),
                        ("pages", [pages]), ("knights", [knights]), ("members", [members]),
                        ("tabled", [everyone]), ("answer", [hand]), ("defend", [own])):
        tiers[role] = first + tiers.get(role, [])
    return tiers


def _typed_tiers(cards) -> dict[str, list[list[str]]]:
    """The last tier of each slot: the names of the cards of the right type (worked out once
    per card set and kept on it; read, never changed)."""
    known = getattr(cards, "_typed_tiers", None)
    if known is not None:
        return known

    def typed(*types: str) -> list[str]:
        return [c.name for c in cards.cards if _type(c) in types]

    known = {
        "give": [typed("item")], "carried": [typed("item")], "pages": [typed("page")],
        "knights": [typed("knight")], "members": [typed("knight", "persona")],
        "characters": [typed("knight", "persona")], "defend": [typed("knight", "persona",
                                                                      "adversary")],
        "tabled": [typed("knight", "persona", "page")],
        "answer": [typed("event", "song", "taunt", "questions")],
    }
    try:
        cards._typed_tiers = known
    except AttributeError:
        pass
    return known


def _type(card) -> str:
    t = str(card.type).lower().replace("-", " ").replace("_", " ")
    return "questions" if t.startswith("question") else t


def parse_orders(cards, players: list[str], text: str, filename: str,
                 tiers: dict[str, list[list[str]]] | None = None) -> GrailOrders:
    from companion.engine.orders import OrdersRejected

    orders, errors = Parser(cards, players, tiers).parse(text)
    if errors:
        raise OrdersRejected(errors, filename, partial=orders)
    return orders
