"""Monty Python and the Holy Grail CCG as a game kind of the shared engine.

Play by email: one processed turn is one player's turn (see :mod:`companion.grailccg.rules`).
The state holds:

* ``game``: the position (every card instance and where it is: decks, hands, dead carts, Round
  Tables, each player's England, Avalon, the ante; whose turn; the dispute in progress; the
  counters of the turn; the result). Card instances are ``"<seat>-<nn>"`` (the owner's seat and
  the place in their deck list); ``game["cards"]`` maps each to its card id. Private things are
  keyed per player (``decks``, ``hands``) or are face-down area cards (``up: false``);
* ``standing``: each player's standing orders;
* ``pending``: when a turn is paused, the position at its start, the answers and chance outcomes
  so far, each player's unused order lines, and the question asked;
* ``events``: what happened in the last processed turn, each with who may see it.

Views, reports and the position text are left to :mod:`companion.grailccg.views` and
:mod:`companion.grailccg.position`. The rules and the order grammar are imported where they are
used: ``show`` needs neither, ``options`` only the rules (docs/performance.md).
"""
from __future__ import annotations

import copy
from functools import cached_property, lru_cache
from typing import TYPE_CHECKING, Any, Sequence

from companion.engine.canon import deep_copy
from companion.engine.chance import Chance
from companion.engine.game import COMMON_OPTIONS, GameKind, OptionSpec, TurnContext, edition
from companion.engine.words import counted
from companion.engine.names import match_name
from companion.engine.numbers import is_digits
from companion.errors import CompanionError
from companion.grailccg import england as E

if TYPE_CHECKING:
    from companion.engine.orders import OrderError
    from companion.grailccg.orders import GrailOrders
    from companion.grailccg.rules import Run

DEFAULT_DECKS = "starter-arthur,starter-french"


def _first(value: str, players: Sequence[str]) -> str:
    if value.lower() == "random":
        return "random"
    found = match_name(value, players)
    if not found.ok:
        raise ValueError(f"'{value}' is not a player of this game (players: {', '.join(players)})")
    return found.name


def _limit(value: str, players: Sequence[str]) -> int:
    if not is_digits(value) or int(value) < 1:
        raise ValueError(f"'{value}' is not a whole number of at least 1")
    return int(value)


def _decks(value: str, players: Sequence[str]) -> list:
    """Shipped deck names stay names; a deck file is kept as its text (``{"name": as typed,
    "file", "text"}``), so the game never reads the file again (replay included). The cards in
    it are checked at create, against the game's card set."""
    names = [v.strip() for v in value.split(",") if v.strip()]
    if not names:
        raise ValueError("name a deck list for each player, separated by commas")
    return [_deck_entry(name) for name in names]


def _deck_entry(name: str):
    from pathlib import Path

    from companion.errors import DataError
    from companion.grailccg.cards import DECKS_DIR, _suggest
    from companion.service import read_text_file

    path = Path(name).expanduser()
    shipped = sorted(p.stem for p in DECKS_DIR.glob("*.txt"))
    if not path.exists():
        if path.suffix == "" and len(path.parts) == 1 and name in shipped:
            return name
        raise DataError(f"option decks: '{name}' is neither a shipped deck list nor a file",
                        path=name, hint=_suggest(name, shipped) or
                        f"shipped decks: {', '.join(shipped)}; or give the path of a deck list")
    text, shown = read_text_file(str(path))
    return {"name": name, "file": shown, "text": text}


def _user_cards(value: str, players: Sequence[str]):
    """``cards=FILE``: a file of Write Yer Own cards (12.1), checked now (every mistake with its
    file, line and column) and kept as its text, so the game never reads the file again."""
    from pathlib import Path

    from companion.grailccg.cards import parse_user_cards
    from companion.service import read_text_file

    value = value.strip()
    if not value or value.lower() == "none":
        return None
    path = Path(value).expanduser()
    if not path.is_file():
        raise CompanionError(f"option cards: no file '{value}'",
                             hint="give the path of a TOML file of Write Yer Own cards "
                                  "(docs/grailccg-cards.md)")
    text, shown = read_text_file(str(path))
    parse_user_cards(text, shown)
    return {"file": path.name, "text": text}


@lru_cache(maxsize=8)
def _custom_kind(file: str, text: str) -> "GrailKind":
    from companion.grailccg.cards import parse_user_cards

    kind = GrailKind(cards=parse_user_cards(text, file, stored=True))
    kind._custom = (file, text)
    return kind


def empty_standing() -> dict[str, Any]:
    return {"dispute": [], "play": [], "invite": [], "double": None, "retreat": [],
            "defend": [], "reveal": None}


class GrailKind(GameKind):
    edition = 6     # 1: grail bonuses wait for the next grail number; idle properties say so;
    # 2: an extra move or a joining at once does nothing outside its player's turn (a card
    # turned up: nobody is asked); a grail bonus is shown with its sign, "from an earlier
    # bonus"; a village's "grail -N" lowers the visitor's next grail number; a Round Table of
    # pages alone does not move (10.1); a castle says what the Round Table may do there (not
    # "may consult" when passage is granted or after an assault) and a slain knight's report
    # names the page who stays, if any (not "his page stays" always); "moves home", "runs
    # away back home" (not "to home"); "fight with X" or "assault with X" for an X who is not
    # in the Round Table is left out (not fought by another in X's place); the reason a foe
    # cannot be met with wits (no wits, an assault) and a move to where the Round Table
    # stands are said as they are; the dispute and discard questions offer each choice once
    # and name only what the options allow; the standing lines offered out of turn
    # (standing_lines) leave out a joining at once, which does nothing there
    # 3: a castle table is consulted at most once a turn per castle (Example 8.1); only a
    # Round Table with a knight may search for the Grail (15.1); a knight or persona whose
    # secondary property is "join" (Robin's Minstrels) turned up joins without a Round Table
    # draw, as a page does (FAQ 1); a card whose name ends in "!" or "?" is played without a
    # stray full stop; a Round Table at home is said to be at home when driven back; a page
    # that joins says whom it serves; a no-join card says that no knight or persona turned up
    # joins (as the engine does); a card that changes only wits is not played in answer into
    # a fight, nor one that changes only combat into a battle of wits (it would do nothing); a
    # cancelling card turned up says it has nothing to cancel, and nobody is asked (FAQ 1); a
    # Round Table before a castle whose defenders bar its way may run away (7.6, Example 8.1)
    # 4: a card turned up that duplicates one already face up in the same England gets no
    # replacement when another card of its area with `permanent = true` (a Write Yer Own
    # adversary or peril standing there) holds it (FAQ 8); a card turned up by `reveal area`
    # with nobody entering (Run.turn_up_remote) is checked for FAQ 8 (a duplicate goes to the
    # dead cart, replaced face down), and one that is neither a foe nor a land, castle or
    # village (nor permanent) goes to its owner's dead cart, leaving open land (FAQ 3), where
    # earlier games left every such card face up as its area's own card; the report says
    # what became of it
    # 5: a duplicate a Round Table turns up (FAQ 8) whose owner's deck is empty says that
    # nothing replaces it and that its area is open land (FAQ 3), as one turned up by
    # `reveal area` already did; earlier games say only that it goes to the dead cart
    # 6: a Round Table that runs away into the area of an adversary it has already run away
    # from this turn is not stopped by it again this turn (house rule, docs/grailccg.md,
    # Running away; case 158): a Round Table that cannot lead ran between two such areas
    # for ever, and with missing=wait the game never went on
    id = "grailccg"
    title = "Monty Python and the Holy Grail CCG"
    min_players = 2
    max_players = 6
    option_specs = COMMON_OPTIONS + (
        OptionSpec("first", "who takes the first turn (2.6: the player who owns the most cards "
                   "of the game, which the engine cannot know): a player's name, or 'random' (a "
                   "draw recorded in the game's history)", "random", parse=_first),
        OptionSpec("decks", "the deck lists in seat order, comma-separated: shipped deck names "
                   "or deck files", DEFAULT_DECKS, parse=_decks),
        OptionSpec("grail-draw", "where the card turned over for a grail number goes: 'discard' "
                   "(its owner's dead cart: grail draws wear the deck down) or 'bottom' (under "
                   "the deck)", "discard", ("discard", "bottom")),
        OptionSpec("hand-limit", "the most cards a player may hold at the end of their turn",
                   "7", parse=_limit),
        OptionSpec("doubling", "doubling the ante (16.2): 'on' or 'off'", "on", ("on", "off")),
        OptionSpec("cards", "a file of Write Yer Own cards (12.1, docs/grailccg-cards.md) added "
                   "to the card set for this game; the deck lists may then name them. The file "
                   "is checked now and kept in the game", "", parse=_user_cards),
        OptionSpec("after-defeat", "when a player is out before the Grail is found: 'end' (the "
                   "game ends; the other wins the game, nobody the ante) or 'search' (the other "
                   "goes on alone to try for the ante, 15.3)", "end", ("end", "search")),
    )

    _custom: tuple[str, str] | None = None
    """(file, text) of the Write Yer Own cards this kind's card set holds, if any."""

    def __init__(self, cards=None, decks: dict[str, list[str]] | None = None):
        if cards is not None:
            self.__dict__["cards"] = cards
        self._decks = dict(decks or {})

    def for_game(self, source: dict[str, Any] | None) -> "GrailKind":
        """The kind that plays a game: this one, or one whose card set holds the game's Write
        Yer Own cards (12.1). ``source`` is a state (``rules.cards``) or the game's options
        (``cards``): both keep the card file's text, never its path."""
        source = source or {}
        custom = (source.get("rules") or {}).get("cards") if "rules" in source \
            else source.get("cards")
        if not isinstance(custom, dict):
            return self
        key = (custom["file"], custom["text"])
        if key == self._custom:
            return self
        return _custom_kind(*key)

    def for_options(self, options: dict[str, Any]) -> tuple["GrailKind", dict[str, Any]]:
        """The kind for a new game's options, knowing the deck files named in option decks
        (checked against the game's card set), and the options with those files as names."""
        kind = self.for_game(options)
        entries = options.get("decks")
        files = [e for e in entries if isinstance(e, dict)] if isinstance(entries, list) else []
        if not files:
            return kind, options
        decks = dict(kind._decks)
        for entry in files:
            decks[entry["name"]] = kind.read_deck(entry)
        bound = GrailKind(cards=kind.cards, decks=decks)
        bound._custom = kind._custom
        return bound, dict(options, decks=[e["name"] if isinstance(e, dict) else e
                                           for e in entries])

    def read_deck(self, entry: dict[str, str]) -> list[str]:
        """A deck file kept in the options: its cards, after every check of its lines and of
        deck construction (docs/grailccg-cards.md), all errors raised together."""
        from companion.errors import DataErrors
        from companion.grailccg.cards import parse_deck

        deck = parse_deck(entry["text"], entry["file"], card_set=self.cards, name=entry["name"])
        errors = deck.check(self.cards)
        if errors:
            raise errors[0] if len(errors) == 1 else DataErrors(errors)
        return list(deck.cards)

    @cached_property
    def cards(self):
        from companion.grailccg.cards import load_cards

        return load_cards()

    @cached_property
    def effect_parsers(self):
        try:
            from companion.grailccg.cards import parse_effect, parse_village_result
        except ImportError:      # a stand-in card set in tests
            return None, None
        return parse_effect, parse_village_result

    def deck_list(self, name: str) -> list[str]:
        if name in self._decks:
            return list(self._decks[name])
        from companion.grailccg.cards import load_deck

        return list(load_deck(name, self.cards).cards)

    def run(self, g, standing, options, chance, **kw) -> Run:
        from companion.grailccg.rules import Run

        pe, pv = self.effect_parsers
        return Run(self.cards, g, standing, options, chance, parse_effect=pe, parse_village=pv,
                   **kw)

    # -- creation and positions -------------------------------------------------------------------
    def create(self, players: list[str], options: dict[str, Any], chance: Chance) -> dict:
        from companion.grailccg.rules import new_game_state

        kind, options = self.for_options(options)
        if kind is not self:
            return kind.create(players, options, chance)
        if not 2 <= len(players) <= 6:
            raise CompanionError(f"the Holy Grail CCG is played by 2 to 6 players (16.3), not "
                                 f"{len(players)}", hint="name between two and six players")
        names = options.get("decks") or DEFAULT_DECKS.split(",")
        if isinstance(names, str):
            names = _decks(names, players)
        if list(names) == DEFAULT_DECKS.split(",") and len(players) > 2:
            # 16.3 with the default decks: the two starter decks in turn, round the table
            names = [names[i % len(names)] for i in range(len(players))]
        if len(names) < len(players):
            raise CompanionError(f"option decks names {counted(len(names), 'deck')} for {len(players)} "
                                 "players", hint=f"for example decks={DEFAULT_DECKS}")
        decks = {p: self.deck_list(names[i]) for i, p in enumerate(players)}
        first = options.get("first", "random")
        if first == "random":
            first = players[chance.choice(len(players), "first player")]
        g = new_game_state(players)
        standing = {p: empty_standing() for p in players}
        run = self.run(g, standing, options, chance, edition=self.edition)
        try:
            run.setup(decks, first)
        except ValueError as exc:
            raise CompanionError(str(exc)) from None
        return {"kind": "grailccg", "players": list(players), "game": g, "standing": standing,
                "pending": None, "events": [], "setup_events": run.events,
                "decks": list(names[:len(players)]), "rules": rule_options(options)}

    def read_position(self, text: str, filename: str, options: dict[str, Any]) -> dict:
        kind, options = self.for_options(options)
        if kind is not self:
            return kind.read_position(text, filename, options)
        from companion.grailccg.position import read_position

        return read_position(self, text, filename, options)

    def write_position(self, state: dict, viewer: str = "moderator") -> str:
        if self.for_game(state) is not self:
            return self.for_game(state).write_position(state, viewer)
        from companion.grailccg.position import write_position

        return write_position(self, state, viewer)

    # -- orders -----------------------------------------------------------------------------------
    def parse_orders(self, state: dict, player: str, text: str, filename: str) -> GrailOrders:
        if self.for_game(state) is not self:
            return self.for_game(state).parse_orders(state, player, text, filename)
        from companion.grailccg import orders as grammar

        return grammar.parse_orders(self.cards, state["players"], text, filename,
                                    grammar.name_tiers(self.cards, state, player))

    def asked(self, state: dict) -> str | None:
        pending = state.get("pending")
        return pending["question"]["player"] if pending else None

    def check_orders(self, state: dict, player: str, orders: GrailOrders, filename: str) -> None:
        if self.for_game(state) is not self:
            return self.for_game(state).check_orders(state, player, orders, filename)
        from companion.engine.orders import OrdersRejected
        from companion.grailccg.orders import illegal
        from companion.grailccg.rules import (AREA_TYPES, CHARACTERS, HOSTILE, ONE_SHOT, ekey,
                                              type_of)

        g = state["game"]
        errors: list[OrderError] = []
        if g["stage"] == "over":
            if orders.src:
                raise OrdersRejected([illegal(orders.src[0], "the game is over; no more orders "
                                              "are taken")], filename)
            return
        if player in g.get("out", ()) and orders.src:       # 16.3: a player who has left
            raise OrdersRejected([illegal(orders.src[0], "you are out of the game (16.3); no "
                                          "more orders are taken from you")], filename)
        active = g["active"] == player
        asked = self.asked(state) == player
        gain = False        # an earlier line may bring a knight or a page to the Round Table
        avalon = sorted(g.get("avalon") or {}, key=lambda a: int(a[2:]))
        for entry, line in zip(orders.lines, orders.src):
            kind = entry["kind"]
            named = [entry.get("area"), (entry.get("target") or {}).get("area")]
            if kind == "on" and entry.get("trigger") == "retreat":
                named += list(entry.get("value") or ())
            missing = [a for a in named if isinstance(a, str) and a.startswith("av")
                       and a not in avalon]
            if missing and avalon:      # Avalon's size is fixed at set-up (16.3): never there
                errors.append(illegal(line, f"there is no {missing[0]} in this game: Avalon "
                                      f"has {len(avalon)} areas",
                                      f"Avalon's areas: {', '.join(avalon)}"))
                continue
            if kind == "on" or kind in ("defend", "respond"):
                problem = self._answer_problem(g, player, entry)
                if problem:
                    errors.append(illegal(line, *problem))
                    continue
            if kind == "on":
                continue
            if kind in ("accept", "concede", "retreat", "defend", "respond", "reveal"):
                if not asked:
                    errors.append(illegal(line, "nothing is asked of you now",
                                          "to answer in advance, write a standing order such "
                                          f"as 'on {_trigger(kind)}: ...'"))
                continue
            waiting_for = self.asked(state)
            if active and waiting_for and waiting_for != player:
                errors.append(illegal(line, f"your turn waits for {waiting_for}'s answer; the "
                                      "orders you sent for it are kept",
                                      "send only standing orders until it goes on"))
                continue
            if not active:
                errors.append(illegal(line, f"it is {g['active']}'s turn, not yours",
                                      "until your turn begins only standing orders are taken "
                                      "('on dispute: play <card>', 'on double: accept', ...); "
                                      "your report and 'companion options' list those that "
                                      "fit now"))
                continue
            if kind == "play":
                card = self.cards.get(entry["card"])
                t = type_of(card)
                target = entry.get("target") or {}
                if t in HOSTILE + AREA_TYPES and target.get("member"):
                    errors.append(illegal(line, f"{card.name} is played on an area, not on a "
                                          "character"))
                if t in ("page", "item") and target.get("area"):
                    errors.append(illegal(line, f"{card.name} is played on "
                                          f"{'a knight' if t == 'page' else 'a page'}, not on "
                                          "an area"))
                if t in CHARACTERS and target:
                    errors.append(illegal(line, f"{card.name} simply joins your Round Table; "
                                          "it takes no target"))
                effects = [ekey(e) for e in card.primary or ()]
                if t in ONE_SHOT and effects and all(k in ("join",) for k in effects):
                    errors.append(illegal(line, f"{card.name} only works when turned up"))
                if t in ("page", "item") and not target.get("area"):
                    problem = self._serving_problem(g, player, card, t, target.get("member"),
                                                    gain)
                    if problem:
                        errors.append(illegal(line, *problem))
                gain = gain or t in CHARACTERS or t == "page" or \
                    any(k in ("revive", "join") for k in effects)
            if kind in ("give", "pass", "use"):
                problem = self._item_problem(entry)
                if problem:
                    errors.append(illegal(line, *problem))
                    continue
            if kind == "give":
                problem = self._serving_problem(g, player, self.cards.get(entry["card"]),
                                                "item", entry["page"], gain)
                if problem:
                    errors.append(illegal(line, *problem))
            if kind in ("lead", "fight", "outwit", "consult", "assault") and entry.get("card"):
                problem = self._leader_problem(g, player, kind, entry["card"], gain)
                if problem:
                    errors.append(illegal(line, *problem))
            if kind in ("move", "run", "use", "assault"):
                gain = True     # a character turned up may join; a breach frees the held
            if kind == "decline" and entry.get("card") \
                    and type_of(self.cards.get(entry["card"])) not in CHARACTERS:
                errors.append(illegal(line, f"{self.cards.get(entry['card']).name} is not a "
                                      "knight or persona; only they are invited to join (5)",
                                      "write 'decline' alone for the next one turned up"))
            if kind == "assign":
                page, knight = (self.cards.get(entry[k]) for k in ("card", "knight"))
                if type_of(page) != "page":
                    errors.append(illegal(line, f"{page.name} is not a page"))
                if type_of(knight) != "knight":
                    errors.append(illegal(line, f"{knight.name} is not a knight; a page "
                                          "serves a knight (10.1)"))
            aimed = (entry.get("target") or {}).get("player") if kind in ("play", "use") \
                else None
            if aimed == player:
                errors.append(illegal(line, "a card cannot be aimed at yourself",
                                      "name another player after 'of' or 'against'"))
            elif aimed and aimed in [*(g.get("out") or ()), *(g.get("defeated") or ())]:
                errors.append(illegal(line, f"{aimed} is out of the game (16.3)",
                                      "name a player still in the game"))
            if kind == "double" and state.get("rules", {}).get("doubling", "on") != "on":
                errors.append(illegal(line, "this game is played without doubling the ante "
                                      "(option doubling=off, 16.1-16.2)"))
        if errors:
            raise OrdersRejected(errors, filename)

    def _leader_problem(self, g: dict, player: str, kind: str, cid: str,
                        gain: bool) -> tuple[str, str] | None:
        """Why ``lead X``, ``fight with X``, ``outwit with X``, ``assault with X`` or ``consult
        with X`` can never be carried out: X is a page (10.1: pages serve no other purpose), not
        a character, a persona without the sword icon (7.1), without the ability the order
        needs, or (when no earlier line of the orders, ``gain``, may bring one) not in
        ``player``'s Round Table. (message, suggestion) or None."""
        from companion.grailccg.rules import CHARACTERS, icons, num, type_label, type_of

        card = self.cards.get(cid)
        t = type_of(card)
        consult = kind == "consult"
        need = {"fight": "combat", "assault": "combat", "outwit": "wits", "consult": "wits"}.get(
            kind)
        doing = {"lead": "lead a dispute", "fight": "lead a fight", "outwit": "lead a battle of "
                 "wits", "assault": "lead an assault", "consult": "consult a castle table"}[kind]

        def able(c) -> bool:
            if type_of(c) not in CHARACTERS:
                return False
            if not consult and type_of(c) == "persona" and "sword" not in icons(c):
                return False
            stats = [need] if need else ["combat", "wits"]
            return any(num(getattr(c, s, None)) is not None for s in stats)

        names = []
        for inst in g["table"][player]["members"]:
            c = self.cards.get(g["cards"][inst])
            if able(c) and c.name not in names:
                names.append(c.name)
        written = [f"'lead {n}'" if kind == "lead" else f"'{kind} with {n}'" for n in names[:3]]
        alone = "" if kind == "lead" else f", or '{kind}' alone for the strongest"
        hint = (f"write {' or '.join(written)}{alone}" if names else
                f"your Round Table has nobody who can {doing} now")
        if t == "page":
            return (f"{card.name} is a page, and pages never {doing} (10.1)", hint)
        if t not in CHARACTERS:
            label = type_label(card).lower()
            return (f"{card.name} is {'an' if label[:1].lower() in 'aeiou' else 'a'} {label}, "
                    f"not a knight or persona of a Round Table", hint)
        if not consult and t == "persona" and "sword" not in icons(card):
            return (f"{card.name} has no sword icon, and a persona may {doing} only with it "
                    "(7.1)", hint)
        if not able(card):
            return (f"{card.name} has no {need or 'combat or wits'} value, so cannot {doing}",
                    hint)
        if gain or card.name in [self.cards.get(g["cards"][i]).name
                                 for i in g["table"][player]["members"]]:
            return None
        return (f"there is no {card.name} in your Round Table to {doing}", hint)

    def _item_problem(self, entry: dict) -> tuple[str, str] | None:
        """Why ``give``, ``pass`` or ``use`` can never work with the cards it names: the card
        is not an item (11.1), a page named is not a page, an item is passed from a page to
        itself (FAQ 5), or the item has nothing to use (it works by itself in disputes).
        (message, suggestion) or None."""
        from companion.grailccg.rules import ekey, type_label, type_of

        kind = entry["kind"]
        card = self.cards.get(entry["card"])
        if type_of(card) != "item":
            label = type_label(card).lower()
            what = {"give": "only an item is given to a page", "pass": "only items pass from "
                    "page to page", "use": "only an item a page carries is used"}[kind]
            return (f"{card.name} is {'an' if label[:1].lower() in 'aeiou' else 'a'} {label}, "
                    f"not an item: {what} (11.1)",
                    f"to play it from your hand, write 'play {card.name}'")
        if kind == "pass":
            for key in ("from", "to"):
                page = self.cards.get(entry[key])
                if type_of(page) != "page":
                    return (f"{page.name} is not a page; items pass between pages (FAQ 5)",
                            "write 'pass <item> from <page> to <page>'")
            if entry["from"] == entry["to"]:
                return (f"{card.name} would pass from {self.cards.get(entry['from']).name} to "
                        "the same page (FAQ 5)", "name two different pages of your Round "
                        "Table")
        if kind == "use" and not [e for e in card.primary or ()
                                  if ekey(e) not in ("combat", "wits", "none")]:
            return (f"{card.name} has nothing to use: it works by itself in disputes, for the "
                    "lead its page serves (11.1)", "keep it with a page; it adds to the lead "
                    "without an order")
        return None

    def _answer_problem(self, g: dict, player: str, entry: dict) -> tuple[str, str] | None:
        """Why an answer or a standing order names a card that can never serve it: a card to
        play in answer that is not an event, song, taunt or questions card, or (standing orders)
        one whose primary property does nothing in that window (13.1-13.4); a castle occupant
        that is not a knight, persona or adversary with the castle icon (8.1), or not among
        ``player``'s own cards. (message, suggestion) or None."""
        from companion.grailccg.rules import ONE_SHOT, ekey, icons, type_label, type_of

        kind, trigger = entry["kind"], entry.get("trigger")
        value = entry.get("value")
        if kind == "respond" or (kind == "on" and trigger in ("dispute", "play", "invite")):
            cids = [entry["card"]] if kind == "respond" else list(value or ())
            fits = {"dispute": ("combat", "wits", "grail", "cancel", "slay_adversary",
                                "run_away"),
                    "play": ("cancel", "auto_join", "no_join"),
                    "invite": ("cancel", "auto_join", "no_join")}
            for cid in cids:
                if cid is None:
                    continue
                card = self.cards.get(cid)
                label = type_label(card).lower()
                if type_of(card) not in ONE_SHOT:
                    return (f"{card.name} is {'an' if label[:1].lower() in 'aeiou' else 'a'} "
                            f"{label}: only events, songs, taunts and questions are played in "
                            "answer (13.1-13.4)", "your report lists the cards of your hand "
                            "that can answer")
                keys = [ekey(e) for e in card.primary or ()]
                if kind == "on" and not any(k in fits[trigger] for k in keys):
                    when = {"dispute": "before grail numbers are drawn",
                            "play": "in answer to a card played",
                            "invite": "before a Round Table draw"}[trigger]
                    return (f"{card.name} does nothing {when} (13.1-13.4), so 'on {trigger}:' "
                            "never plays it", "your report and 'companion options' list the "
                            "standing orders that fit your hand")
            return None
        if kind == "defend" or (kind == "on" and trigger == "defend"):
            cids = [entry["card"]] if kind == "defend" else list(value or ())
            seat = f"{g['players'].index(player) + 1}-"
            own = {c for i, c in g["cards"].items() if i.startswith(seat)}
            for cid in cids:
                card = self.cards.get(cid)
                if type_of(card) not in ("knight", "persona", "adversary") \
                        or "castle" not in icons(card):
                    return (f"{card.name} cannot occupy a castle: only knights, personas and "
                            "adversaries with the castle icon do (8.1)", "name such a card of "
                            "your deck")
                if cid not in own:
                    return (f"{card.name} is not among your cards: a castle's occupants come "
                            "from your own deck (8.1)", "name such a card of your deck")
        return None

    def _serving_problem(self, g: dict, player: str, card, t: str, member: str | None,
                         gain: bool) -> tuple[str, str] | None:
        """Why a page (or an item) played now can find no knight (or page) of ``player``'s
        Round Table to serve (or carry it), judged from the position the orders are checked
        against: (message, suggestion), or None. A wrong kind of target is always refused;
        a missing one only when no earlier line of the orders (``gain``) may bring one."""
        from companion.grailccg.rules import type_of

        wanted = "knight" if t == "page" else "page"
        table = g["table"][player]
        mine = [x for x in (table["members"] if t == "page" else list(table["pages"]))
                if type_of(self.cards.get(g["cards"][x])) == wanted]
        names = [self.cards.get(g["cards"][x]).name for x in mine]
        if member is not None:
            target = self.cards.get(member)
            if type_of(target) != wanted:
                return (f"{target.name} is not a {wanted}; "
                        + ("a page serves a knight (10.1)" if t == "page"
                           else "an item is carried by a page (11.1)"),
                        f"your {wanted}s: {', '.join(names)}" if names else
                        f"your Round Table has no {wanted} now")
            if gain or target.name in names:
                return None
            return (f"there is no {target.name} in your Round Table for {card.name} to "
                    + ("serve (10.1)" if t == "page" else "go to (11.1)"),
                    f"your {wanted}s: {', '.join(names)}" if names else
                    f"your Round Table has no {wanted} now")
        if gain or names:
            return None
        return (f"{card.name} needs a {wanted} of your Round Table to "
                + ("serve (10.1)" if t == "page" else "carry it (10.1, 11.1)")
                + f", and it has none now",
                f"play a {wanted} in a line above this one, or keep {card.name} for later")

    def acknowledge(self, state: dict, player: str, orders: GrailOrders) -> list[str]:
        if self.for_game(state) is not self:
            return self.for_game(state).acknowledge(state, player, orders)
        from companion.grailccg.orders import line_text

        g = state["game"]
        hand = {g["cards"][i] for i in g["hands"].get(player, [])}
        out = []
        for entry in orders.lines:
            text = line_text(self.cards, entry)
            kind = entry["kind"]
            if kind == "play" and entry["card"] not in hand:
                text += " (not in your hand now: played if you get it in time)"
            elif kind == "on":
                text += _standing_note(self.cards, state["standing"].get(player) or {},
                                       entry)
            elif kind in ("accept", "concede", "retreat", "defend", "respond", "reveal"):
                text = f"answer: {text}"
            out.append(text)
        if not orders.lines:
            out.append("no orders")
        return out

    def options_for(self, state: dict, player: str) -> list[str]:
        if self.for_game(state) is not self:
            return self.for_game(state).options_for(state, player)
        g = state["game"]
        if g["stage"] == "over":
            return []
        if player not in g["players"] or player in g.get("out", ()) \
                or player in g.get("defeated", ()):
            return []
        pending = state.get("pending")
        if pending:
            q = pending["question"]
            if q["player"] != player:
                return standing_lines(self, state, player)
            return list(q["options"])
        if g["active"] != player:
            return standing_lines(self, state, player)
        return legal_lines(self, state, player)

    # -- turns ------------------------------------------------------------------------------------
    def process(self, state: dict, ctx: TurnContext) -> None:
        if self.for_game(state) is not self:
            return self.for_game(state).process(state, ctx)
        from companion.grailccg.orders import line_text
        from companion.grailccg.rules import Pause

        state["events"] = []
        g = state["game"]
        if g["stage"] == "over":
            return
        orders: dict[str, GrailOrders] = ctx.orders
        for p in state["players"]:
            o = orders.get(p)
            if o is None:
                continue
            mine = state["standing"][p]
            for entry in o.standing:
                trig = entry["trigger"]
                value = entry.get("value")
                if value is None:
                    value = [] if isinstance(empty_standing()[trig], list) else None
                mine[trig] = value
                ctx.event(f"Your standing order is noted: {line_text(self.cards, entry)}.",
                          to=[p], kind="standing")
        pending = state.get("pending")
        asked = pending["question"]["player"] if pending else None
        active = g["active"]
        cursors = copy.deepcopy(pending["cursors"]) if pending else {}
        for p in state["players"]:
            o = orders.get(p)
            if o is None:
                continue
            if p == active or p == asked:
                gen = cursors.get(p, {}).get("gen", 0) + 1
                lines = copy.deepcopy(o.turn_lines)
                cursors[p] = {"gen": gen, "lines": lines, "used": [False] * len(lines)}
                ctx.use_orders(p)
            elif o.standing_only:
                ctx.use_orders(p)
        snapshot = deep_copy(pending["snapshot"] if pending else g)
        base = deep_copy(snapshot)
        run = self.run(base, state["standing"], dict(ctx.options), ctx.chance,
                       edition=edition(state), log=pending["log"] if pending else None,
                       chance_log=pending["chance"] if pending else None, cursors=cursors)
        done = pending["events_done"] if pending else 0
        try:
            run.play_turn()
            state["pending"] = None
        except Pause as pause:
            state["pending"] = {"snapshot": snapshot, "log": run.log, "chance": run.chance_log,
                                "events_done": len(run.events), "cursors": run.cursors,
                                "question": pause.question}
            ctx.await_orders(pause.question["player"])
        state["game"] = run.g
        for e in run.events[done:]:
            ctx.event(e["text"], to=e["to"], kind=e["kind"], **e["data"])
        for player, kind, answer, source in run.fresh:
            ctx.decided(player, kind, answer, source)

    def finish_turn(self, state: dict, ctx: TurnContext) -> None:
        for e in state.pop("setup_events", []):
            ctx.event(e["text"], to=e["to"], kind=e["kind"], **e["data"])
        state["events"] = ctx.events

    def is_over(self, state: dict) -> bool:
        return state["game"]["stage"] == "over"

    def result_lines(self, state: dict) -> list[str]:
        r = state["game"].get("result")
        if not r:
            return []
        if r.get("draw"):
            return [f"A draw: {r['reason']}."]
        return [f"{r['winner']} wins: {r['reason']}."]

    def awaited(self, state: dict) -> list[str]:
        g = state["game"]
        if g["stage"] == "over":
            return []
        if state.get("pending"):
            return [state["pending"]["question"]["player"]]
        return [g["active"]]

    # -- views ------------------------------------------------------------------------------------
    def view(self, state: dict, viewer: str) -> dict:
        if self.for_game(state) is not self:
            return self.for_game(state).view(state, viewer)
        from companion.grailccg.views import view

        return view(self, state, viewer)

    def report(self, view: dict) -> dict:
        from companion.grailccg.views import report

        return report(self, view)

    def setup_players(self, text: str) -> list[str]:
        from companion.grailccg.position import setup_players

        return setup_players(text)

    # -- data and printables ----------------------------------------------------------------------
    def data_export(self) -> dict:
        from companion.grailccg.cards import export

        return export(self.cards)

    def data_check(self, folder) -> list:
        from companion.grailccg.cards import check_data_dir

        return check_data_dir(folder)

    def print_kit(self):
        from companion.grailccg.printables import kit

        return kit(self.cards)


def rule_options(options: dict[str, Any]) -> dict[str, Any]:
    """The options the rules and the legal lines read, kept in the state."""
    return {"doubling": options.get("doubling", "on"),
            "hand-limit": int(options.get("hand-limit", 7) or 7),
            "grail-draw": options.get("grail-draw", "discard"),
            "after-defeat": options.get("after-defeat", "end")} | (
        {"cards": options["cards"]} if isinstance(options.get("cards"), dict) else {})


AIMED = ("opponent_discards", "slay_knight", "skip_draw", "move_back", "lose_game")
"""Effects that hit another player: with three or more, the order may name whom (16.3)."""


def _standing_note(cards, mine: dict[str, Any], entry: dict[str, Any]) -> str:
    """How a standing order changes the one kept: it replaces an earlier one only if there was
    one (then named), clears one, or is new."""
    from companion.grailccg.orders import line_text

    old = mine.get(entry["trigger"])
    if old in (None, []):
        return " (standing: nothing to clear)" if entry.get("value") is None else \
            " (standing: kept until you replace it)"
    was = line_text(cards, {"kind": "on", "trigger": entry["trigger"], "value": old})
    if entry.get("value") is None:
        return f" (standing: clears your earlier '{was}')"
    if entry.get("value") == old:
        return " (standing: the same as the one you have)"
    return f" (standing: replaces your earlier '{was}')"


def _trigger(kind: str) -> str:
    return {"accept": "double", "concede": "double", "respond": "dispute"}.get(kind, kind)


def standing_lines(kind: GrailKind, state: dict, p: str) -> list[str]:
    """The lines ``p`` may send while it is not their turn (nothing is asked of them): standing
    orders, which are always taken (turn orders are refused until their turn). One line per
    card of their hand that can answer in each window, the doubling answers, where the Round
    Tables they play the opponent for may run to, their castle defenders, the FAQ 1 choice, and
    'none' for each standing order they have set. Built from ``p``'s hand and cards and the open
    position only, under the game's rules edition: from edition 2 a joining at once does
    nothing outside its player's turn (``Run.idle_off_turn``), so a card whose only answer is
    that is not offered to a player waiting for his turn."""
    from companion.grailccg.rules import CHARACTERS, ONE_SHOT, ekey, icons, type_of

    g = state["game"]
    run = kind.run(deep_copy(g), state["standing"], {}, None, edition=edition(state))
    mine = state["standing"].get(p) or {}
    out: list[str] = []
    windows: dict[str, list[str]] = {"dispute": [], "play": [], "invite": []}
    for inst in g["hands"][p]:
        card = run.card(inst)
        if type_of(card) not in ONE_SHOT:
            continue
        keys = [ekey(e) for e in card.primary or ()
                if not (run.edition >= 2 and run.idle_off_turn(p, e))]
        if any(k in ("combat", "wits", "grail", "cancel") for k in keys):
            windows["dispute"].append(card.name)
        if any(k in ("cancel", "auto_join", "no_join") for k in keys):
            windows["play"].append(card.name)
        if any(k in ("auto_join", "no_join") for k in keys):
            windows["invite"].append(card.name)
    for trigger, names in windows.items():
        out += [f"on {trigger}: play {name}" for name in _unique_names(names)]
    if state.get("rules", {}).get("doubling", "on") == "on":
        out += ["on double: accept", "on double: concede"]
    for q in g["players"]:
        if q != p and not run.gone(q) and run.rival(q) == p:
            out += [f"on retreat: {a}" for a in run.retreats(q)]
    seat = f"{g['players'].index(p) + 1}-"
    seen = set(g["hands"][p]) | set(g["dead"][p]) | set(g["ante"]["cards"][p]) | \
        set(run.members(p))        # (not the face-down areas: nobody knows what lies there)
    defenders = [run.card(i).name for i in sorted(g["cards"]) if i.startswith(seat)
                 and i not in seen and type_of(run.card(i)) in (*CHARACTERS, "adversary")
                 and "castle" in icons(run.card(i))]
    out += [f"on defend: {name}" for name in _unique_names(defenders)[:3]]
    out += ["on reveal: apply", "on reveal: ignore"]
    for trigger in ("dispute", "play", "invite", "double", "retreat", "defend", "reveal"):
        if mine.get(trigger):
            out.append(f"on {trigger}: none")
    return _unique_names(out)


def _unique_names(items: list[str]) -> list[str]:
    seen: list[str] = []
    for item in items:
        if item not in seen:
            seen.append(item)
    return seen


def legal_lines(kind: GrailKind, state: dict, p: str) -> list[str]:
    """The order lines that make sense for ``p`` now (each valid input for orders submit)."""
    from companion.grailccg.rules import (AREA_TYPES, CHARACTERS, HOSTILE, ONE_SHOT, ekey,
                                          may_double, type_of)

    g = state["game"]
    run = kind.run(deep_copy(g), state["standing"], {}, None, edition=edition(state))
    out: list[str] = []
    d = g["dispute"]
    at = g["table"][p]["at"]
    if d and d["player"] == p:
        if not d.get("tied") or d["tied"] < g["turn"]:
            for method in d["methods"]:
                word = "fight" if method == "combat" else "outwit"
                leads = run.leads(p, method)
                if leads:
                    out.append(word)
                for lead in leads:
                    out.append(f"{word} with {run.n(lead)}")
            if run.retreats(p):
                out.append("run away")
                out += [f"run away to {a}" for a in run.retreats(p)]
    else:
        if run.moves_left(p) > 0:
            out += [f"move {a}" for a in run.move_targets(p)]
            if out:
                out.append("decline")
        knights = run.knights(p)
        for page, info in g["table"][p]["pages"].items():
            if info["knight"] is None:
                out += [f"assign {run.n(page)} to {run.n(k)}" for k in knights[:3]]
        if at != E.HOME:
            a = run.area(p, at)
            if a["card"] is not None and a["up"] and run.ctype(a["card"]) == "castle" \
                    and a["occupants"]:
                out += ["consult", "stay outside"]
                cs = a["castle"] or {}
                if (cs.get("consulted") or {}).get(p):
                    out.append("assault")
                if run.edition >= 3 and run.castle_bars(p) and run.retreats(p):
                    out.append("run away")      # 7.6 before the castle's defenders (case 139)
            if at.startswith("av") and not a["searched"] and \
                    (run.edition < 3 or run.knights(p)):      # 15.1: the knights search
                out.append("search")
    hand = g["hands"][p]
    for inst in hand:
        card = run.card(inst)
        t = type_of(card)
        name = card.name
        keys = [ekey(e) for e in card.primary or ()]
        if t in CHARACTERS:
            out.append(f"play {name}")
        elif t == "page":
            for k in run.knights(p)[:3]:
                out.append(f"play {name} on {run.n(k)}")
        elif t == "item":
            for page in list(g["table"][p]["pages"])[:3]:
                out.append(f"give {name} to {run.n(page)}")
        elif t in HOSTILE or t in AREA_TYPES:
            if run.multi:       # 16.3: whose England, named (the first is the default)
                for k, q in enumerate(run.seats_from(p)):
                    for area in run.area_targets(p, t, q)[:4 if k == 0 else 2]:
                        out.append(f"play {name} on {area} of {q}")
                continue
            for area in run.area_targets(p, t)[:4]:
                out.append(f"play {name} on {area}")
        elif t in ONE_SHOT:
            if keys and all(k in ("combat", "wits", "slay_adversary", "run_away",
                                  "return_to_hand") for k in keys) and not d:
                continue
            if keys and all(k in ("cancel", "join") for k in keys):
                continue
            out.append(f"play {name}")
            if run.multi and any(k in AIMED for k in keys):
                out += [f"play {name} against {q}" for q in run.seats_from(p)]
    for page, info in g["table"][p]["pages"].items():
        for item in info["items"]:
            keys = [ekey(e) for e in run.card(item).primary or ()]
            if any(k not in ("combat", "wits", "none") for k in keys):
                out.append(f"use {run.n(item)}")
    if g.get("defeated"):
        out.append("give up")
    elif state.get("rules", {}).get("doubling", "on") == "on" and may_double(g, p):
        out.append("double")
    out.append("end")
    seen = []
    for line in out:
        if line not in seen:
            seen.append(line)
    return seen


KIND = GrailKind()
