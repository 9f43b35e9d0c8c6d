"""The Medieval Mayhem order grammar.

Your turn (two non-free actions; list more lines as alternatives: a line that cannot be carried
out when its time comes is skipped and the next one is tried)::

    play <card> [at <player>] [choose A|B] [up to <N>] [taking <card>, ...]
    draw
    recruit <card>
    character [at <player>] [choose A|B] [up to <N>] [taking <card>, ...]
    set <card>, <card>, <card> [from hand|from play] [by number|colour|type]
        [then <trigger> ...] ...
    discard <card>, ... [then draw]          (Discard then Draw; 'discard none' draws nothing)
    recycle <card>, <card> [for <card>]      (optional rule E, The Best Defense)

Set triggers, in the order you want them resolved (unnamed ones follow in the rules' order)::

    then crimson <card>|none            then gilded <card>|none        then sapphire
    then numbers <card>, ...|none       then attack destroy | then attack draw <0-3>
    then dragon princess [<card>] | dragon scales [<card>] | dragon none
    then princess knight [<card>] | princess guardians [<card>] | princess none
    then knight dragon [<card>] | knight shield [<card>] | knight none
    then defense <card>|none

Answers, when the game asks you something::

    answer defend [with <card>]     answer no defense
    answer give <card>, ...         answer discard <card>, ...
    pick <character>                (the character draft, optional rule A)

Standing orders (kept until a later submission brings lines of the same kind)::

    defend [by <player>] [against <type> [or <type> ...]] [from hand|play|set] [with <card>]
    no defense [by <player>] [against <type> ...] [from hand|play|set]
    defend none                      (forget the defend lines)
    give <card>, ...                 keep <card>, ...
    give any                         give none

Names match ignoring case and accents; any unambiguous beginning is enough ("hoard", "sun q").
"""
from __future__ import annotations

from dataclasses import field
from typing import Any

from companion.engine.names import match_name
from companion.engine.orders import (
    AmbiguousNameError, Cursor, IllegalOrderError, Line, OrderError, OrdersRejected,
    OrderSyntaxError, UnknownNameError, next_order_hint, order_lines, read_line, resolve_name,
    span_text, unknown_keyword,
)
from companion.engine.record import record
from companion.mayhem.effects import TYPES

KEYWORDS = ("play", "draw", "recruit", "character", "set", "discard", "recycle", "answer",
            "defend", "no", "give", "keep", "pick")
CLAUSE_STOPS = ("at", "choose", "up", "taking")
SET_STOPS = ("from", "by", "then")
TRIGGER_WORDS = ("crimson", "gilded", "sapphire", "numbers", "number", "dragon", "princess",
                 "knight", "attack", "defense", "defence")
TYPE_ALIASES = {"Dragons": "Dragon", "Princesses": "Princess", "Knights": "Knight",
                "Treasures": "Treasure", "Attacks": "Attack", "Defenses": "Defense",
                "Defence": "Defense", "Defences": "Defense"}
ALT_WORDS = {"a": 0, "b": 1, "1": 0, "2": 1, "first": 0, "second": 1}
SYNONYMS = {"cast": "play", "use": "play"}
"""Words a player may write for an order's keyword ('cast Hoard Wyrm at Bert', 'use
character at Bert')."""
CLAUSE_HINTS = {"on": "at", "to": "at", "vs": "at", "versus": "at", "against": "at",
                "targeting": "at", "target": "at", "@": "at", "upto": "up to",
                "option": "choose", "alternative": "choose", "take": "taking",
                "takes": "taking", "take:": "taking"}
"""What a player may have meant by a word where a clause was expected (a suggestion only)."""


@record
class Order:
    line: Line
    data: dict[str, Any]


@record
class MayhemOrders:
    actions: list[Order] = field(default_factory=list)
    answers: list[Order] = field(default_factory=list)
    picks: list[Order] = field(default_factory=list)
    defend: list[Order] | None = None          # None: the defend lines stay as they are
    hand: dict[str, Any] | None = None         # the give/keep policy (None: cleared)
    hand_lines: list[Line] = field(default_factory=list)
    all_lines: list[Line] = field(default_factory=list)     # every order line, in file order

    @property
    def hand_set(self) -> bool:
        return bool(self.hand_lines)

    @property
    def has_standing(self) -> bool:
        return self.defend is not None or self.hand_set

    @property
    def lines(self) -> list[Line]:
        out = [o.line for o in self.actions + self.answers + self.picks + (self.defend or [])]
        return sorted(out + self.hand_lines, key=lambda l: l.number)


# ------------------------------------------------------------------------------------- parsing
def _expected(stops) -> str:
    words = [f"'{w}'" for w in stops]
    if not words:
        return "the end of the line"
    return ", ".join(words[:-1]) + (" or " if len(words) > 1 else "") + words[-1]


def _hint(tokens, at: int, stops) -> str | None:
    """A suggestion for the unexpected word at ``tokens[at]``: the clause word a player may
    have meant ('on Bert': 'at Bert'), or that a second order goes on a line of its own."""
    word = tokens[at].key
    if tuple(stops) == SET_STOPS and word not in stops:
        return "separate the three cards with commas: 'set <card>, <card>, <card>'"
    if tuple(stops) == ("then",) and word == "and":
        return "Discard then Draw is one action: write 'then draw'"
    meant = CLAUSE_HINTS.get(word)
    if meant is not None and meant.split()[0] in stops:
        return f"did you mean '{meant}'?"
    return next_order_hint(tokens, at, KEYWORDS + tuple(SYNONYMS))


class Parser:
    def __init__(self, cat, players: list[str], characters: list[str] | None = None,
                 prefer: frozenset[str] = frozenset()):
        self.cat = cat
        self.players = players
        self.characters = characters or cat.character_names
        self.prefer = prefer          # names before the player: a short name means these

    def name(self, cur: Cursor, stops, known: list[str], what: str) -> str:
        span = cur.span_until(stops, f"a {what}'s name")
        try:
            return resolve_name(cur.line, span, known, what, prefer=self.prefer)
        except UnknownNameError:
            from companion.engine.names import fold

            whole = {fold(n) for n in known}
            exact = any(fold(span_text(span[:k])) in whole for k in range(1, len(span)))
            if not exact and match_name(span_text(span), known).suggestions:
                raise          # a mistyped name ('did you mean ...') rather than a lost keyword
            for k in range(len(span) - 1, 0, -1):
                if match_name(span_text(span[:k]), known, suggest=False).ok:
                    token = span[k]
                    raise OrderSyntaxError(
                        f"expected {_expected(stops) if stops else 'the end of the line'} "
                        f"after the {what}'s name, found '{token.text}'", cur.line, token.col,
                        token.end - token.col,
                        suggestion=_hint(cur.tokens, cur.tokens.index(token), stops)) from None
            raise

    def card(self, cur: Cursor, stops=()) -> str:
        return self.cat.card_by_name[self.name(cur, tuple(stops), self.cat.card_names, "card")]

    def cards(self, cur: Cursor, stops=(), allow_none: bool = False) -> list[str]:
        if allow_none and cur.accept("none", "nothing"):
            return []
        out = [self.card(cur, stops)]
        while cur.peek() is not None and cur.peek().text == ",":
            cur.next()
            out.append(self.card(cur, stops))
        return out

    def player(self, cur: Cursor, stops=()) -> str:
        return self.name(cur, tuple(stops), self.players, "player")

    def character(self, cur: Cursor) -> str:
        name = self.name(cur, (), self.cat.character_names, "character card")
        return self.cat.character_by_name[name]

    def parse(self, text: str) -> tuple[MayhemOrders, list[OrderError]]:
        orders = MayhemOrders()
        errors: list[OrderError] = []
        for line in order_lines(text):
            orders.all_lines.append(line)
            try:        # refused as typed, read as a phone leaves it ('Draw.', 'please')
                _, orders.all_lines[-1] = read_line(line, lambda x: self.line(x, orders))
            except OrderError as err:
                errors.append(err)
        return orders, errors

    def line(self, line: Line, orders: MayhemOrders) -> None:
        """Parse one order line into ``orders``; a line that raises adds nothing."""
        cur = Cursor(line)
        head = cur.next()
        if head.kind != "word" or (head.key not in KEYWORDS
                                   and head.key not in SYNONYMS):
            raise unknown_keyword(line, head, KEYWORDS)
        key = SYNONYMS.get(head.key, head.key)
        if key == "play" and cur.accept("character"):
            key = "character"       # 'play character at Bert', 'use character'
        if key in ("play", "character"):
            data = {"kind": key}
            if key == "play":
                data["card"] = self.card(cur, CLAUSE_STOPS)
            self.clauses(cur, data)
            orders.actions.append(Order(line, data))
        elif key == "draw":
            self.draw_words(cur)
            orders.actions.append(Order(line, {"kind": "draw"}))
        elif key == "recruit":
            data = {"kind": "recruit", "card": self.card(cur)}
            cur.finish()
            orders.actions.append(Order(line, data))
        elif key == "set":
            orders.actions.append(Order(line, self.set_line(cur)))
        elif key == "discard":
            try:
                cards = self.cards(cur, ("then",), allow_none=True)
            except UnknownNameError as err:
                if line.tokens[-1].key == "draw" and err.col == line.tokens[-1].col:
                    err.suggestion = "Discard then Draw is one action: write '... then draw'"
                raise
            if cur.accept("then"):
                cur.expect("draw", "after 'then' (discard <cards> then draw)")
            cur.finish()
            self.distinct(line, cards)
            orders.actions.append(Order(line, {"kind": "exchange", "cards": cards}))
        elif key == "recycle":
            cards = self.cards(cur, ("for",))
            data = {"kind": "recycle", "cards": cards, "defense": None}
            if cur.accept("for"):
                data["defense"] = self.card(cur)
            cur.finish()
            self.distinct(line, cards)
            if len(cards) != 2:
                raise IllegalOrderError(f"Recycle discards exactly 2 cards, not "
                                        f"{len(cards)}", line, head.col,
                                        len(line.text.rstrip()) - head.col + 1)
            orders.actions.append(Order(line, data))
        elif key == "answer":
            orders.answers.append(Order(line, self.answer(cur)))
        elif key == "pick":
            data = {"character": self.character(cur)}
            cur.finish()
            orders.picks.append(Order(line, data))
        elif key in ("defend", "no"):
            if key == "no":
                cur.expect("defense", "after 'no' (no defense ...)") \
                    if not cur.at_keyword("defence") else cur.next()
            rule = self.defend_rule(cur, defend=key == "defend")
            if orders.defend is None:
                orders.defend = []
            if rule is not None:
                orders.defend.append(Order(line, rule))
        else:
            self.hand_policy(cur, key, orders)

    def draw_words(self, cur: Cursor) -> None:
        """'draw', also 'draw a card' ('one card', '1 card', 'card'); more than one card is
        more than one action, a line each."""
        count = cur.peek()
        if count is not None and count.key in ("a", "one", "1"):
            cur.next()
        card = cur.accept("card")
        if not cur.at_end():
            token = cur.peek()
            if card is None and token.key in ("2", "3", "two", "three", "cards"):
                raise cur.syntax("'draw' is one action drawing one card", token,
                                 suggestion="to draw twice, write 'draw' on two lines")
            raise cur.syntax("unexpected text at the end of the order", token,
                             suggestion=next_order_hint(cur.tokens, cur.i, KEYWORDS))

    def distinct(self, line: Line, cards: list[str]) -> None:
        seen = set()
        for c in cards:
            if c in seen:
                raise IllegalOrderError(f"{self.cat.card[c].name} is named twice", line,
                                        line.tokens[0].col, len(line.text.rstrip()))
            seen.add(c)

    def clauses(self, cur: Cursor, data: dict[str, Any]) -> None:
        while not cur.at_end():
            token = cur.peek()
            if cur.accept("at"):
                if "at" in data:
                    raise cur.syntax("the target is given twice", token)
                data["at"] = self.player(cur, CLAUSE_STOPS)
            elif cur.accept("choose"):
                if "choose" in data:
                    raise cur.syntax("'choose' is given twice", token)
                alt = cur.peek()
                if alt is None or alt.key not in ALT_WORDS:
                    raise cur.syntax("expected A or B after 'choose'", alt)
                cur.next()
                data["choose"] = ALT_WORDS[alt.key]
            elif cur.accept("up"):
                cur.expect("to", "after 'up' (up to <N>)")
                data["upto"] = cur.number("how many at most")
            elif cur.accept("taking"):
                data.setdefault("taking", []).extend(self.cards(cur, CLAUSE_STOPS))
            else:
                raise cur.syntax("expected 'at <player>', 'choose A|B', 'up to <N>' or "
                                 "'taking <card>, ...'", token,
                                 suggestion=_hint(cur.tokens, cur.i, CLAUSE_STOPS))

    def set_line(self, cur: Cursor) -> dict[str, Any]:
        start = cur.peek()
        cards = self.cards(cur, SET_STOPS)
        if len(cards) != 3 or len(set(cards)) != 3:
            raise IllegalOrderError(
                f"a set is 3 different cards; this names {len(cards)}"
                + (" with a repeat" if len(set(cards)) != len(cards) else ""),
                cur.line, start.col if start else 1, len(cur.line.text.rstrip()))
        data: dict[str, Any] = {"kind": "set", "cards": cards, "zone": None, "by": None,
                                "triggers": []}
        while not cur.at_end():
            token = cur.peek()
            if cur.accept("from"):
                zone = cur.peek()
                if zone is None or zone.key not in ("hand", "play"):
                    raise cur.syntax("expected 'hand' or 'play' after 'from'", zone)
                cur.next()
                data["zone"] = zone.key
            elif cur.accept("by"):
                aspect = cur.peek()
                words = {"number": "number", "colour": "colour", "color": "colour",
                         "type": "type"}
                if aspect is None or aspect.key not in words:
                    raise cur.syntax("expected number, colour or type after 'by'", aspect)
                cur.next()
                data["by"] = words[aspect.key]
            elif cur.accept("then"):
                data["triggers"].append(self.trigger(cur))
            else:
                raise cur.syntax("expected 'from hand|play', 'by number|colour|type' or "
                                 "'then <trigger>'", token)
        return data

    def trigger(self, cur: Cursor) -> dict[str, Any]:
        token = cur.peek()
        if token is None or token.key not in TRIGGER_WORDS:
            raise cur.syntax("expected a set trigger (crimson, gilded, sapphire, numbers, "
                             "dragon, princess, knight, attack, defense)", token)
        cur.next()
        name = {"number": "numbers", "defence": "defense"}.get(token.key, token.key)
        out: dict[str, Any] = {"name": name}
        stops = ("then",)
        if name in ("crimson", "gilded", "defense"):
            out["card"] = None if cur.accept("none", "nothing") else self.card(cur, stops)
        elif name == "sapphire":
            pass
        elif name == "numbers":
            out["cards"] = self.cards(cur, stops, allow_none=True)
        elif name == "attack":
            word = cur.peek()
            if cur.accept("destroy"):
                out["option"] = "destroy"
            elif cur.accept("draw"):
                out["option"] = "draw"
                out["n"] = 3
                if cur.peek() is not None and cur.peek().kind == "number":
                    out["n"] = cur.number("how many cards (0 to 3)")
            else:
                raise cur.syntax("expected 'destroy' or 'draw [N]' after 'attack'", word)
        else:
            options = {"dragon": ("princess", "scales"), "princess": ("knight", "guardians"),
                       "knight": ("dragon", "shield")}[name]
            word = cur.peek()
            if cur.accept("none", "nothing"):
                out["option"] = "none"
            elif word is not None and word.key in options:
                cur.next()
                out["option"] = word.key
                if not cur.at_end() and not cur.at_keyword("then"):
                    out["card"] = self.card(cur, stops)
            else:
                raise cur.syntax(f"expected {options[0]}, {options[1]} or none after "
                                 f"'{name}'", word)
        if not cur.at_end() and not cur.at_keyword("then"):
            raise cur.syntax("expected 'then' or the end of the line", cur.peek())
        return out

    def answer(self, cur: Cursor) -> dict[str, Any]:
        token = cur.peek()
        if cur.accept("defend"):
            out = {"kind": "defense", "defend": True, "card": None}
            if cur.accept("with"):
                out["card"] = self.card(cur)
            cur.finish()
            return out
        if cur.accept("no"):
            if not cur.accept("defense", "defence"):
                raise cur.syntax("expected 'defense' after 'answer no'", cur.peek())
            cur.finish()
            return {"kind": "defense", "defend": False, "card": None}
        if cur.accept("give"):
            cards = self.cards(cur)
            cur.finish()
            self.distinct(cur.line, cards)
            return {"kind": "give", "cards": cards}
        if cur.accept("discard"):
            cards = self.cards(cur, allow_none=True)
            cur.finish()
            self.distinct(cur.line, cards)
            return {"kind": "limit", "cards": cards}
        raise cur.syntax("expected 'defend', 'no defense', 'give <cards>' or 'discard <cards>' "
                         "after 'answer'", token)

    def defend_rule(self, cur: Cursor, defend: bool) -> dict[str, Any] | None:
        if defend and cur.accept("none"):
            cur.finish()
            return None
        rule: dict[str, Any] = {"defend": defend, "by": None, "against": None, "from": None,
                                "with": None}
        stops = ("by", "against", "from", "with")
        seen: set[str] = set()
        while not cur.at_end():
            token = cur.peek()
            if token.key in seen:
                raise cur.syntax(f"'{token.text}' is given twice", token)
            seen.add(token.key)
            if cur.accept("by"):
                rule["by"] = self.player(cur, stops)
            elif cur.accept("against"):
                rule["against"] = [self.card_type(cur)]
                while cur.accept("or"):
                    rule["against"].append(self.card_type(cur))
            elif cur.accept("from"):
                zone = cur.peek()
                if zone is None or zone.key not in ("hand", "play", "set", "castle"):
                    raise cur.syntax("expected hand, play or set after 'from'", zone)
                cur.next()
                rule["from"] = "set" if zone.key == "castle" else zone.key
            elif defend and cur.accept("with"):
                rule["with"] = self.card(cur, stops)
            else:
                raise cur.syntax("expected 'by <player>', 'against <card type>', "
                                 "'from hand|play|set'" + (" or 'with <card>'" if defend else ""),
                                 token)
        return rule

    def card_type(self, cur: Cursor) -> str:
        token = cur.peek()
        if token is None:
            raise cur.syntax("expected a card type (" + ", ".join(TYPES) + ")")
        found = match_name(token.text, list(TYPES), TYPE_ALIASES)
        if not found.ok:
            if found.ambiguous:
                raise AmbiguousNameError(f"'{token.text}' could be any of: "
                                         f"{', '.join(found.candidates)}", cur.line, token.col,
                                         token.end - token.col)
            raise UnknownNameError(f"no card type called '{token.text}'", cur.line, token.col,
                                   token.end - token.col,
                                   suggestion="card types: " + ", ".join(TYPES))
        cur.next()
        return found.name

    def hand_policy(self, cur: Cursor, key: str, orders: MayhemOrders) -> None:
        line = cur.line
        if orders.hand is None and not orders.hand_lines:
            orders.hand = {"give": [], "keep": []}
        if key == "give" and cur.accept("none"):
            cur.finish()
            orders.hand = None
        elif key == "give" and cur.accept("any"):
            cur.finish()
            if orders.hand is None:
                orders.hand = {"give": [], "keep": []}
        else:
            cards = self.cards(cur)
            cur.finish()
            hand = orders.hand or {"give": [], "keep": []}
            named = hand["give"] + hand["keep"]
            for c in cards:
                if c in named:
                    raise IllegalOrderError(f"{self.cat.card[c].name} is already in a give or "
                                            "keep line", line, line.tokens[0].col,
                                            len(line.text.rstrip()))
                named.append(c)
            orders.hand = hand
            hand[key].extend(cards)
        orders.hand_lines.append(line)


def parse_orders(cat, players: list[str], text: str, filename: str,
                 prefer: frozenset[str] = frozenset()) -> MayhemOrders:
    """``prefer``: the card names the player has before him (``before_player``)."""
    orders, errors = Parser(cat, players, prefer=prefer).parse(text)
    for o in orders.actions:
        o.data["text"] = action_text(cat, o.data)
    if errors:
        raise OrdersRejected(errors, filename, partial=orders)
    return orders


def before_player(cat, state: dict, player: str) -> frozenset[str]:
    """The names a player has before him: his hand, the characters dealt to him or his own,
    and the cards face up on the table (barracks, play, sets). Nothing another player hides."""
    ids = list(state["hands"].get(player, [])) + list(state.get("barracks", []))
    for p in state["play"]:
        ids += state["play"][p] + [c for st in state["sets"][p] for c in st]
    names = {cat.card[c].name for c in ids if c in cat.card}
    chars = list((state.get("draft") or {}).get("dealt", {}).get(player, []))
    if state.get("characters", {}).get(player):
        chars.append(state["characters"][player])
    names |= {cat.character[c].name for c in chars if c in cat.character}
    return frozenset(names)


# ------------------------------------------------------------------------------------- text
def action_text(cat, a: dict[str, Any]) -> str:
    kind = a["kind"]
    name = lambda c: cat.card[c].name  # noqa: E731
    if kind == "draw":
        return "draw"
    if kind == "recruit":
        return f"recruit {name(a['card'])}"
    if kind in ("play", "character"):
        text = f"play {name(a['card'])}" if kind == "play" else "character"
        if a.get("at"):
            text += f" at {a['at']}"
        if a.get("choose") is not None:
            text += f" choose {'AB'[a['choose']]}"
        if a.get("upto") is not None:
            text += f" up to {a['upto']}"
        if a.get("taking"):
            text += " taking " + ", ".join(name(c) for c in a["taking"])
        return text
    if kind == "set":
        text = "set " + ", ".join(name(c) for c in a["cards"])
        if a.get("zone"):
            text += f" from {a['zone']}"
        if a.get("by"):
            text += f" by {a['by']}"
        for tr in a.get("triggers", []):
            text += " then " + trigger_text(cat, tr)
        return text
    if kind == "exchange":
        return ("discard " + (", ".join(name(c) for c in a["cards"]) or "none")) + " then draw"
    if kind == "recycle":
        text = "recycle " + ", ".join(name(c) for c in a["cards"])
        if a.get("defense"):
            text += f" for {name(a['defense'])}"
        return text
    raise ValueError(kind)


def trigger_text(cat, tr: dict[str, Any]) -> str:
    name = tr["name"]
    if name == "sapphire":
        return "sapphire"
    if name == "numbers":
        return "numbers " + (", ".join(cat.card[c].name for c in tr["cards"]) or "none")
    if name == "attack":
        return "attack destroy" if tr["option"] == "destroy" else f"attack draw {tr['n']}"
    if name in ("crimson", "gilded", "defense"):
        return f"{name} {cat.card[tr['card']].name if tr.get('card') else 'none'}"
    text = f"{name} {tr['option']}"
    if tr.get("card"):
        text += f" {cat.card[tr['card']].name}"
    return text


def defend_text(cat, rule: dict[str, Any]) -> str:
    text = "defend" if rule["defend"] else "no defense"
    if rule.get("by"):
        text += f" by {rule['by']}"
    if rule.get("against"):
        text += " against " + " or ".join(rule["against"])
    if rule.get("from"):
        text += f" from {rule['from']}"
    if rule.get("with"):
        text += f" with {cat.card[rule['with']].name}"
    return text


def hand_text(cat, policy: dict[str, Any] | None) -> list[str]:
    if policy is None:
        return []
    out = []
    if policy["give"]:
        out.append("give " + ", ".join(cat.card[c].name for c in policy["give"]))
    if policy["keep"]:
        out.append("keep " + ", ".join(cat.card[c].name for c in policy["keep"]))
    return out or ["give any"]


def illegal(line: Line, message: str, suggestion: str | None = None) -> IllegalOrderError:
    col = line.tokens[0].col if line.tokens else 1
    length = len(line.text.rstrip()) - col + 1
    return IllegalOrderError(message, line, col, length, suggestion=suggestion)
