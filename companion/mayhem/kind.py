"""Medieval Mayhem as a game kind of the shared engine."""
from __future__ import annotations

from functools import cached_property
from itertools import combinations
from typing import Any, Sequence

from companion.engine.chance import Chance
from companion.engine.game import COMMON_OPTIONS, GameKind, OptionSpec, TurnContext, edition
from companion.engine.names import match_name
from companion.engine.numbers import is_digits
from companion.engine.orders import OrderError, OrdersRejected
from companion.engine.words import counted, word_for
from companion.errors import CompanionError
from companion.mayhem import orders as grammar
from companion.mayhem.cards import load_catalogue
from companion.mayhem.effects import shared_aspects
from companion.mayhem.orders import MayhemOrders, defend_text, hand_text, illegal
from companion.mayhem.rules import (BARRACKS, HAND_START, TRIGGER_OPTIONS, Machine,
                                    legal_targets, right_of, set_candidates, set_triggers,
                                    team_of)

ROUND_NAMES = {"off": 0, "short": 10, "medium": 15, "long": 20}
SWITCHES = ("draft", "charm", "right-hand", "best-defense", "free-sets", "chaos")
RULE_TITLES = {
    "draft": "A Character Card Draft", "rounds": "B Round Time Limit",
    "charm": "C Three's a Charm", "right_hand": "D Right Hand Man",
    "best_defense": "E The Best Defense", "teams": "F Team Tactics",
    "free_sets": "G Free Stuff", "chaos": "H Chaos Theory",
}


def _first(value: str, players: Sequence[str]) -> str:
    if value.lower() == "random":
        return "random"
    found = match_name(value, players)
    if not found.ok:
        raise ValueError(f"'{value}' is not a player of this game (players: {', '.join(players)})")
    return found.name


def _rounds(value: str, players: Sequence[str]) -> int:
    key = value.strip().lower()
    if key in ROUND_NAMES:
        return ROUND_NAMES[key]
    if is_digits(key) and 1 <= int(key) <= 99:
        return int(key)
    raise ValueError(f"'{value}' is not off, short (10), medium (15), long (20) or a number of "
                     "rounds from 1 to 99")


def _teams(value: str, players: Sequence[str]) -> Any:
    key = value.strip().lower()
    n = len(players)
    if key == "off":
        return None
    if n not in (4, 6):
        raise ValueError(f"Team Tactics is for 4 or 6 players; this game has {n}")
    if key in ("on", "pairs"):
        half = n // 2
        return [[players[i], players[i + half]] for i in range(half)]
    if key == "trios":
        if n != 6:
            raise ValueError("teams of three need 6 players")
        return [[players[0], players[2], players[4]], [players[1], players[3], players[5]]]
    teams = []
    for part in value.split("/"):
        team = []
        for typed in part.split("+"):
            found = match_name(typed.strip(), players)
            if not found.ok:
                raise ValueError(f"'{typed.strip()}' is not a player of this game")
            team.append(found.name)
        teams.append(team)
    flat = [p for t in teams for p in t]
    if sorted(flat) != sorted(players) or len(set(flat)) != n:
        raise ValueError("every player must be in exactly one team, e.g. "
                         "teams=Anna+Cora/Bert+Dora")
    sizes = {len(t) for t in teams}
    if len(sizes) != 1 or sizes.pop() not in (2, 3) or len(teams) < 2:
        raise ValueError("teams are two or three players each, all of the same size")
    return teams


def _switch(key: str, title: str, help_text: str) -> OptionSpec:
    return OptionSpec(key, f"optional rule {title}: {help_text} (off or on)", "off",
                      ("off", "on"))


class MayhemKind(GameKind):
    edition = 3     # 1: a player protected from a card is told so once, not at each step.
    # 2: an end triggered by the player just before the starting player is announced as ending
    # the game after that turn (rules K), not with 'the others play until ...' (rules.Machine
    # .trigger_end); the opening names a round limit of one as '(1 round)', not '(1 rounds)';
    # three winners (or a team of three) are 'Anna, Bert and Cora', not 'Anna and Bert and
    # Cora', and the end names a tie-breaker's figure after a comma, not in parentheses nested
    # in its own ('most cards in hand, 3'; rules.rank), and a team's total as 'the highest
    # team total', not 'the highest score'; a line skipped for cards no longer at
    # hand says they 'are not in your hand' (earlier without the verb; rules.Machine.are);
    # a card's text never takes the card itself, so Silver Mirror captures another card of the
    # play zone, not itself (rules.Machine.open_step; docs/mayhem.md, decision 22); Discard then
    # Draw and the number set trigger say the discard and the draw in one line ('... and draws
    # 2 cards', not '... and draws as many.' then 'Anna draws 2 cards.'; Machine.draw's lead),
    # and Discard then Draw with no cards is 'Anna passes: ...', not '... without discarding
    # anything', which a later discard seemed to contradict; a draw from the empty deck is
    # 'Bert draws nothing: the deck is empty.', not 'Bert draws 0 cards (the deck is empty, 1
    # fewer than asked).' (Machine.draw); the default with the deck and the Barracks empty is
    # told as 'discard none', not 'discard none then draw' (Machine.default_action); 'defend
    # none' is acknowledged as 'defend lines: none, so the default applies (...)', not a bare
    # 'none' that read as 'never defend' (apply_submissions); an answer 'no defense' to the
    # question is echoed to its player ('You do not defend against ..., as you answered.';
    # Machine.defense_choice); the final reveal quotes the character's bonus as the card's
    # words, 'Anna reveals The Thief I (bonus: "2 points for each Treasure in your hand.")',
    # not '(2 points for each Treasure in your hand)', whose 'your' read as the reader's; a
    # play line skipped for a card no longer in hand names it with its type label, as a
    # skipped discard does ('Flame Empress (Crimson Princess 3) is not in your hand'), not by
    # its bare name, and so do a skipped recruit ('... is not in the Barracks') and set line
    # (rules.Machine.impossible).
    # 3: a Defense line says once that the card leaves its player alone: no 'Bert is protected
    # by a Defense card.' follows it, and a draw the Defense stops is one line for all who
    # defended, 'The Defense card also keeps George from drawing.', not 'George is protected
    # and draws nothing.' each (rules.Machine.run_step); the Attack set's draw is one line,
    # 'Attack set: Anna draws 3 cards.', not 'Attack set: Anna draws up to 3 cards (3).' then
    # 'Anna draws 3 cards.' (Machine.t_trigger); a card with alternatives says what the chosen
    # one does, 'choosing B: draw 3 cards', not a bare 'choosing B' (Machine.perform); the
    # final reveal of an empty hand is 'and an empty hand', not 'and the hand nothing'
    # (Machine.finish); several cards a text takes from the Barracks at once (Tidal Wave,
    # Frost Bolt, Tidal Queen) are one line, 'Anna destroys every card in the Barracks: ...',
    # and one refill after them, not a line and a refill for each card (Machine.open_step);
    # with Right Hand Man and Team Tactics, a player whose right neighbour is a teammate may
    # play a card (or use a character action) that targets a player 'at nobody', and its
    # target's part does nothing, where earlier editions refused it (Machine.effect_problem,
    # Machine.aimed, check_action; docs/mayhem.md, decision 26)
    option_specs = COMMON_OPTIONS + (
        OptionSpec("first", "the starting player: a player's name, or 'random' (a draw "
                   "recorded in the game's history)", "random", parse=_first),
        _switch("draft", "A (Character Card Draft)", "all 18 character cards are dealt out "
                "and each player keeps one"),
        OptionSpec("rounds", "optional rule B (Round Time Limit): off, short (10 rounds), "
                   "medium (15), long (20) or a number; the game then ends only after that "
                   "many rounds", "off", parse=_rounds),
        _switch("charm", "C (Three's a Charm)", "whoever forms a third set wins at once"),
        _switch("right-hand", "D (Right Hand Man, 3 or more players)", "cards may only target "
                "the player on your right"),
        _switch("best-defense", "E (The Best Defense)", "adds the Recycle action"),
        OptionSpec("teams", "optional rule F (Team Tactics, 4 or 6 players): off; on or pairs "
                   "(partners sit opposite: seats 1+3 and 2+4, with six players 1+4, 2+5, 3+6); "
                   "trios (six players: 1+3+5 against 2+4+6); or the teams written out, e.g. "
                   "Anna+Cora/Bert+Dora", "off", parse=_teams),
        _switch("free-sets", "G (Free Stuff)", "forming a set costs no action"),
        _switch("chaos", "H (Chaos Theory)", "draws at random which of the rules A, B, C, D, "
                "E and G (those not switched on already) are used"),
    )

    @cached_property
    def catalogue(self):
        return load_catalogue()

    # -- creation ---------------------------------------------------------------------------
    def check_players(self, players: list[str], options: dict[str, Any]) -> None:
        n = len(players)
        if n > 5 and not options.get("teams"):
            raise CompanionError("Medieval Mayhem is for 2 to 5 players; six play only with "
                                 "Team Tactics", hint="add --option teams=on")
        if options.get("right-hand") == "on" and n < 3:
            raise CompanionError("Right Hand Man (optional rule D) needs 3 or more players")

    def rules_from(self, options: dict[str, Any]) -> dict[str, Any]:
        return {"draft": options.get("draft") == "on", "rounds": options.get("rounds") or 0,
                "charm": options.get("charm") == "on",
                "right_hand": options.get("right-hand") == "on",
                "best_defense": options.get("best-defense") == "on",
                "teams": options.get("teams"), "free_sets": options.get("free-sets") == "on",
                "chaos": options.get("chaos") == "on", "wait": options.get("missing") == "wait"}

    def create(self, players: list[str], options: dict[str, Any], chance: Chance) -> dict:
        self.check_players(players, options)
        cat = self.catalogue
        rules = self.rules_from(options)
        if rules["chaos"]:
            for key in ("draft", "charm", "right_hand", "best_defense", "free_sets"):
                if key == "right_hand" and len(players) < 3:
                    continue
                if not rules[key]:
                    rules[key] = chance.choice(2, f"chaos: rule {RULE_TITLES[key]}") == 1
            if not rules["rounds"]:
                rules["rounds"] = (0, 10, 15, 20)[chance.choice(4, "chaos: round time limit")]
        deck = chance.shuffle([c.id for c in cat.cards], "draw deck")
        characters = chance.shuffle([c.id for c in cat.characters], "character cards")
        first = options.get("first", "random")
        if first == "random":
            first = players[chance.choice(len(players), "starting player")]
        state = blank_state(players, rules, first)
        order = players[players.index(first):] + players[:players.index(first)]
        for _ in range(HAND_START):
            for p in order:
                state["hands"][p].append(deck.pop(0))
        state["barracks"] = [deck.pop(0) for _ in range(BARRACKS)]
        state["deck"] = deck
        if rules["draft"]:
            per = len(characters) // len(players)
            state["phase"] = "draft"
            state["draft"] = {"dealt": {p: characters[i * per:(i + 1) * per]
                                        for i, p in enumerate(players)},
                              "picked": {}}
            state["box"] = characters[per * len(players):]
            state["pending"] = None
        else:
            for i, p in enumerate(players):
                state["characters"][p] = characters[i]
            state["box"] = characters[len(players):]
            machine = Machine(cat, state, None)
            machine.begin_turn(first)
            machine.run()
        return state

    def read_position(self, text: str, filename: str, options: dict[str, Any]) -> dict:
        from companion.mayhem.position import read_position

        return read_position(self, text, filename, options)

    def setup_players(self, text: str) -> list[str]:
        from companion.mayhem.position import setup_players

        return setup_players(text)

    def write_position(self, state: dict, viewer: str = "moderator") -> str:
        from companion.mayhem.position import write_position

        return write_position(self, state, viewer)

    # -- orders -----------------------------------------------------------------------------
    def parse_orders(self, state: dict, player: str, text: str, filename: str) -> MayhemOrders:
        return grammar.parse_orders(self.catalogue, state["players"], text, filename,
                                    grammar.before_player(self.catalogue, state, player))

    def asked(self, state: dict, player: str) -> str:
        """What is asked of ``player`` now: 'nothing', 'pick', 'turn', 'defense', 'give',
        'limit'."""
        if state["phase"] == "over":
            return "nothing"
        if state["phase"] == "draft":
            return "pick" if player not in state["draft"]["picked"] else "nothing"
        pending = state.get("pending")
        if pending and pending["player"] == player:
            return pending["kind"]
        return "nothing"

    def check_orders(self, state: dict, player: str, orders: MayhemOrders,
                     filename: str) -> None:
        cat = self.catalogue
        errors: list[OrderError] = []
        if state["phase"] == "over":
            for line in (orders.lines or orders.all_lines)[:1]:
                errors.append(illegal(line, "the game is over; no more orders are taken"))
            if errors:
                raise OrdersRejected(errors, filename)
            return
        for i, o in enumerate(orders.picks):
            if state["phase"] != "draft":
                errors.append(illegal(o.line, "there is no character draft now (optional rule "
                                      "A is played before the first turn)"))
            elif player in state["draft"]["picked"]:
                errors.append(illegal(o.line, "you have already kept a character"))
            elif o.data["character"] not in state["draft"]["dealt"][player]:
                dealt = ", ".join(cat.character[c].name for c in state["draft"]["dealt"][player])
                errors.append(illegal(o.line, f"{cat.character[o.data['character']].name} was "
                                      "not dealt to you", f"your character cards: {dealt}"))
            elif i > 0:
                errors.append(illegal(o.line, "you keep one character; 'pick' is given twice"))
        for i, o in enumerate(orders.answers):
            if i > 0:
                errors.append(illegal(o.line, "only one answer is asked for"))
                continue
            problem = self.check_answer(state, player, o.data)
            if problem:
                errors.append(illegal(o.line, problem[0], problem[1]))
        seen_character = seen_recycle = False
        if len(orders.actions) > 12:
            errors.append(illegal(orders.actions[12].line, "at most 12 action lines (two are "
                                  "used; the others are alternatives)"))
        character = state["characters"].get(player)
        if orders.picks and state["phase"] == "draft":
            character = orders.picks[0].data["character"]
        for o in orders.actions:
            a = o.data
            if a["kind"] == "character":
                if seen_character:
                    errors.append(illegal(o.line, "the character action may be used only once "
                                          "per turn"))
                    continue
                seen_character = True
            if a["kind"] == "recycle":
                if seen_recycle:
                    errors.append(illegal(o.line, "Recycle may be used only once per turn"))
                    continue
                seen_recycle = True
            problem = self.check_action(state, player, a, character)
            if problem:
                errors.append(illegal(o.line, problem[0], problem[1]))
        if errors:
            raise OrdersRejected(errors, filename)

    def check_answer(self, state: dict, player: str, ans: dict) -> tuple[str, str | None] | None:
        cat = self.catalogue
        pending = state.get("pending")
        if not pending or pending["player"] != player or pending["kind"] == "turn":
            return ("nothing is asked of you now: answers are for the questions your report "
                    "asks", "for your turn, write actions (play, draw, recruit, ...)")
        if ans["kind"] != pending["kind"]:
            return (f"the game asks you {self.question(state, player)}",
                    "answer with: " + " | ".join(self.answer_examples(state, player)))
        hand = state["hands"][player]
        if ans["kind"] == "defense":
            if ans["defend"] and ans.get("card"):
                c = cat.card[ans["card"]]
                if c.type != "Defense" or ans["card"] not in hand:
                    return (f"{c.name} is not a Defense card in your hand", None)
            return None
        if ans["kind"] == "give":
            pool, k = pending["pool"], pending["count"]
            bad = [c for c in ans["cards"] if c not in pool]
            if bad:
                return (f"{cat.card[bad[0]].name} is not one of the cards you may give",
                        "you choose from: " + ", ".join(cat.card[c].name for c in pool))
            if len(ans["cards"]) != k:
                return (f"name exactly {k} card{'s' if k != 1 else ''}, not "
                        f"{len(ans['cards'])}", None)
            return None
        if ans["kind"] == "limit":
            over = pending["over"]
            named = ans["cards"]
            h = [c for c in named if c in hand]
            pl = [c for c in named if c in state["play"][player]]
            sets = {i for i, st in enumerate(state["sets"][player]) if any(c in st for c in named)}
            stray = [c for c in named if c not in h and c not in pl and
                     not any(c in st for st in state["sets"][player])]
            if stray:
                return (f"{cat.card[stray[0]].name} is not in your hand, play zone or sets",
                        None)
            if len(h) != over["hand"] or len(pl) != over["play"] or len(sets) != over["sets"]:
                return (f"discard exactly {over['hand']} from hand, {over['play']} from play and "
                        f"{counted(over['sets'], 'set')} (name one card of each set)", None)
            return None
        return None

    def check_action(self, state: dict, player: str, a: dict,
                     character: str | None) -> tuple[str, str | None] | None:
        cat = self.catalogue
        rules = state["rules"]
        kind = a["kind"]
        if kind in ("play", "character"):
            if kind == "play":
                card = cat.card[a["card"]]
                effect, what = card.effect, card.name
            else:
                if character is None:
                    return None
                ch = cat.character[character]
                effect, what = ch.action, f"your character action ({ch.face})"
            targets = legal_targets(state, player)
            if effect.targets and not targets:
                # Right Hand Man with a teammate on the right: nobody may be targeted
                right = right_of(state, player)
                if edition(state) < 3:
                    return (f"{what} targets a player, and nobody may be targeted: with Right "
                            f"Hand Man only {right}, on your right, and {right} is on your "
                            "team (Team Tactics)", None)
                if a.get("at") is not None:     # from rules edition 3 played at nobody
                    return (f"nobody may be targeted: with Right Hand Man only {right}, on "
                            f"your right, and {right} is on your team (Team Tactics)",
                            "leave out 'at ...': the card is played at nobody, and its "
                            "text for the target does nothing")
            elif effect.targets:
                if a.get("at") is None and len(targets) != 1:
                    return (f"{what} targets a player: add 'at <player>'",
                            "possible targets: " + ", ".join(targets))
                if a.get("at") is not None and a["at"] not in targets:
                    t = a["at"]
                    if t == player:
                        why = "you cannot target yourself"
                    elif t in team_of(state, player):
                        why = f"{t} is on your team (Team Tactics)"
                    else:
                        why = (f"with Right Hand Man you may only target the player on your "
                               f"right, {right_of(state, player)}")
                    return (why, "possible targets: " + ", ".join(targets))
            elif a.get("at") is not None:
                return (f"{what} does not target a player", "leave out 'at ...'")
            if effect.choose:
                if a.get("choose") is None:
                    alts = "; ".join(f"{'AB'[i]}: {txt}" for i, txt in enumerate(
                        _alt_texts(effect)))
                    return (f"{what} offers a choice: add 'choose A' or 'choose B'", alts)
                if a["choose"] >= len(effect.alternatives):
                    return (f"{what} has only {len(effect.alternatives)} alternatives", None)
            elif a.get("choose") is not None:
                return (f"{what} offers no choice", "leave out 'choose ...'")
            if a.get("upto") is not None:
                limit = effect.upto_limit(a.get("choose") or 0)
                if limit is None:
                    return (f"{what} has no 'up to' count", "leave out 'up to ...'")
                if a["upto"] > limit:
                    return (f"{what} allows up to {limit}, not {a['upto']}", None)
            steps = effect.alternatives[a.get("choose") or 0]
            if kind == "play" and a["card"] in (a.get("taking") or []) and edition(state) >= 2:
                return (f"{what} cannot take itself: a played card stays in play (rules N.3)",
                        "name another card after 'taking', or leave out 'taking ...'")
            if a.get("taking") and not any(st.places and not st.hidden for st in steps):
                hand = any(st.hidden for st in steps)
                return (f"{what} " + ("takes from a hand, where its owner chooses the cards"
                                      if hand else "takes no card you choose") +
                        ": 'taking' cannot name them", "leave out 'taking ...'")
            return None
        if kind == "set":
            cards = [cat.card[c] for c in a["cards"]]
            aspects = shared_aspects(cards)
            if not aspects:
                return ("these three cards share no number, colour or type, so they are no set",
                        "; ".join(f"{c.name}: {c.label}" for c in cards))
            if a.get("by") and a["by"] not in aspects:
                return (f"these cards do not share a {a['by']}", "they share: " +
                        ", ".join(aspects))
            fired = set_triggers(cards)
            seen = set()
            number = cards[0].number
            for tr in a.get("triggers", []):
                name = tr["name"]
                if name in seen:
                    return (f"the {name} trigger is named twice", None)
                seen.add(name)
                if name not in fired:
                    return (f"this set does not fire the {name} trigger",
                            "it fires: " + (", ".join(fired) or "no trigger"))
                problem = self.check_trigger(tr, number, a["cards"])
                if problem:
                    return (problem, None)
            return None
        if kind == "recycle":
            if not rules.get("best_defense"):
                return ("Recycle belongs to the optional rule The Best Defense (E), which this "
                        "game does not use", None)
            if a.get("defense") and cat.card[a["defense"]].type != "Defense":
                return (f"{cat.card[a['defense']].name} is not a Defense card", None)
        return None

    def check_trigger(self, tr: dict, number: int, set_cards: list[str]) -> str | None:
        cat = self.catalogue
        name = tr["name"]
        if name == "numbers":
            if len(tr["cards"]) > number:
                return f"a set of {number}s lets you discard up to {counted(number, 'card')}"
            if any(c in set_cards for c in tr["cards"]):
                return "the cards of the set itself cannot be discarded for the number trigger"
            if len(set(tr["cards"])) != len(tr["cards"]):
                return "a card is named twice"
        if name == "defense" and tr.get("card") and cat.card[tr["card"]].type != "Defense":
            return f"{cat.card[tr['card']].name} is not a Defense card"
        if name == "attack" and tr["option"] == "draw" and not 0 <= tr["n"] <= 3:
            return "the Attack trigger draws up to 3 cards"
        if name in TRIGGER_OPTIONS and name != "attack" and tr.get("card"):
            c = cat.card[tr["card"]]
            need = {("dragon", "princess"): ("type", "Princess"),
                    ("dragon", "scales"): ("kind", "Scales"),
                    ("princess", "knight"): ("type", "Knight"),
                    ("princess", "guardians"): ("kind", "Guardians"),
                    ("knight", "dragon"): ("type", "Dragon"),
                    ("knight", "shield"): ("kind", "Shield")}[(name, tr["option"])]
            if getattr(c, need[0]) != need[1]:
                return f"{c.name} is not a {need[1]} card"
        return None

    def question(self, state: dict, player: str) -> str:
        pending = state.get("pending") or {}
        cat = self.catalogue
        kind = pending.get("kind")
        if kind == "defense":
            return (f"whether to discard a Defense card against {cat.card[pending['card']].name}"
                    f" played by {pending['actor']}")
        if kind == "give":
            return (f"which {word_for(pending.get('count', 2), 'card')} to give up: "
                    f"{pending['what']}")
        if kind == "limit":
            o = pending["over"]
            return (f"what to discard at the end of your turn: {o['hand']} from hand, "
                    f"{o['play']} from play, {counted(o['sets'], 'set')}")
        if kind == "turn":
            return "for your turn's actions"
        return "nothing"

    def answer_examples(self, state: dict, player: str) -> list[str]:
        return self.options_for(state, player)[:4]

    def acknowledge(self, state: dict, player: str, orders: MayhemOrders) -> list[str]:
        cat = self.catalogue
        out = []
        asked = self.asked(state, player)
        my_turn = asked == "turn" or (state["phase"] == "play" and state["current"] == player)
        hand = state["hands"][player]
        for o in orders.picks:
            out.append(f"keep the character {cat.character[o.data['character']].name}")
        for o in orders.answers:
            out.append("answer: " + o.line.text.strip().split(None, 1)[1])
        for n, o in enumerate(orders.actions, start=1):
            a = o.data
            text = f"action line {n}: {a['text']}"
            note = None
            if a["kind"] == "play" and a["card"] not in hand:
                note = f"{cat.card[a['card']].name} is not in your hand now"
            elif a["kind"] == "recruit" and a["card"] not in state["barracks"]:
                note = f"{cat.card[a['card']].name} is not in the Barracks now"
            elif a["kind"] in ("set", "exchange") and any(
                    c not in hand and c not in state["play"][player] for c in a["cards"]):
                note = "some of these cards are not in your hand or play zone now"
            if note:
                text += f" ({note}; skipped if that is still so when its time comes)"
            out.append(text)
        if orders.actions:
            when = "this turn" if my_turn else "your next turn (held until it begins)"
            out.append(f"these lines are for {when}: the first two that can be carried out are "
                       "your two actions, the rest are alternatives")
            nonfree = [o for o in orders.actions
                       if not (o.data["kind"] == "set" and state["rules"].get("free_sets"))]
            if len(nonfree) < 2:
                out.append("fewer than two actions: if the lines run out before your two actions "
                           "are done, " + ("the game waits for more orders from you"
                                           if self._waits(state, player)
                                           else "the default (draw) fills in"))
        if orders.defend is not None:
            if not orders.defend:
                out.append("standing orders: the defend lines are cleared")
            for o in orders.defend or []:
                out.append("standing order: " + defend_text(cat, o.data))
        if orders.hand_set:
            lines = hand_text(cat, orders.hand)
            out.append("standing orders for giving up cards: " + ("; ".join(lines) if lines
                       else "cleared"))
        if not orders.has_standing:
            out.append("standing orders unchanged")
        return out

    def _waits(self, state: dict, player: str) -> bool:
        """Whether running out of action lines makes the game wait rather than draw: always
        for orders sent ahead of the turn; with missing=wait also during the turn."""
        asked = self.asked(state, player)
        return asked != "turn" or bool(state["rules"].get("wait"))

    # -- options ----------------------------------------------------------------------------
    def options_for(self, state: dict, player: str) -> list[str]:
        return [line for _, lines in self.option_groups(state, player) for line in lines]

    def option_groups(self, state: dict, player: str) -> list[tuple[str, list[str]]]:
        cat = self.catalogue
        asked = self.asked(state, player)
        name = lambda c: cat.card[c].name  # noqa: E731
        if asked == "nothing":
            return []
        if asked == "pick":
            return [("Keep one character card", [f"pick {cat.character[c].name}"
                                                 for c in state["draft"]["dealt"][player]])]
        pending = state["pending"]
        hand = state["hands"][player]
        if asked == "defense":
            defenses = [c for c in hand if cat.card[c].type == "Defense"]
            return [("Answer", [f"answer defend with {name(c)}" for c in defenses]
                     + ["answer no defense"])]
        if asked == "give":
            combos = list(combinations(pending["pool"], pending["count"]))[:60]
            return [("Answer (which cards you give up)",
                     ["answer give " + ", ".join(name(c) for c in combo) for combo in combos])]
        if asked == "limit":
            over = pending["over"]
            hands = list(combinations(hand, over["hand"]))[:8]
            plays = list(combinations(state["play"][player], over["play"]))[:8]
            sets = list(combinations(range(len(state["sets"][player])), over["sets"]))[:4]
            lines = []
            for h in hands:
                for pl in plays:
                    for st in sets:
                        cards = list(h) + list(pl) + [state["sets"][player][i][0] for i in st]
                        lines.append("answer discard " + (", ".join(name(c) for c in cards)
                                                          or "none"))
            return [("Answer (what you discard at the end of your turn)", lines[:60])]
        # the player's turn
        groups: list[tuple[str, list[str]]] = []
        targets = legal_targets(state, player)
        plays = []
        for c in hand:
            plays += self._effect_lines(f"play {name(c)}", cat.card[c].effect, targets,
                                        nobody=edition(state) >= 3)
        if plays:
            groups.append(("Play a card from your hand", plays))
        groups.append(("Draw the top card of the deck", ["draw"]))
        if state["barracks"]:
            groups.append(("Recruit a card from the Barracks",
                           [f"recruit {name(c)}" for c in state["barracks"]]))
        if not state["turn"]["character"] and state["characters"].get(player):
            ch = cat.character[state["characters"][player]]
            lines = self._effect_lines("character", ch.action, targets,
                                       nobody=edition(state) >= 3)
            if lines:
                groups.append((f"Character action ({ch.face}, once per turn)", lines))
        sets = []
        for zone, cards in (("hand", hand), ("play", state["play"][player])):
            for combo in set_candidates(cat, cards):
                sets.append("set " + ", ".join(name(c) for c in combo) + f" from {zone}")
        if sets:
            free = " (free: optional rule G)" if state["rules"].get("free_sets") else ""
            groups.append(("Form a set" + free, sets))
        exchanges = ["discard none"]     # as the order form writes it: it draws nothing
        for k in (1, 2):
            for combo in combinations(hand, k):
                exchanges.append("discard " + ", ".join(name(c) for c in combo) + " then draw")
        if len(hand) > 2:
            exchanges.append("discard " + ", ".join(name(c) for c in hand) + " then draw")
        groups.append(("Discard then draw", exchanges))
        if state["rules"].get("best_defense") and not state["turn"]["recycle"]:
            pool = hand + state["play"][player]
            if len(pool) >= 2:
                groups.append(("Recycle (optional rule E, once per turn)",
                               ["recycle " + ", ".join(name(c) for c in combo)
                                for combo in combinations(pool, 2)][:30]))
        return groups

    def _effect_lines(self, head: str, effect, targets: list[str],
                      nobody: bool = False) -> list[str]:
        """The order lines for a play or character action; a card that targets a player is
        offered at nobody if nobody may be targeted and ``nobody`` (rules edition 3)."""
        ats = [f" at {t}" for t in targets] if effect.targets and targets else [""]
        if effect.targets and not targets and not nobody:
            return []
        chooses = [f" choose {'AB'[i]}" for i in range(len(effect.alternatives))] \
            if effect.choose else [""]
        return [head + at + ch for at in ats for ch in chooses]

    # -- turns ------------------------------------------------------------------------------
    def process(self, state: dict, ctx: TurnContext) -> None:
        state["events"] = []
        machine = Machine(self.catalogue, state, ctx)
        self.apply_submissions(state, ctx, machine)
        if state["phase"] == "draft":
            self.draft(state, ctx, machine)
        if state["phase"] == "play":
            machine.run()

    def apply_submissions(self, state: dict, ctx: TurnContext, machine: Machine) -> None:
        cat = self.catalogue
        for p in state["players"]:
            orders: MayhemOrders | None = ctx.orders.get(p)
            if orders is None:
                continue
            standing = state["standing"][p]
            notes = []
            if orders.defend is not None:
                standing["defend"] = [o.data for o in orders.defend]
                # from rules edition 2 'none' says that the default applies, which is not
                # 'never defend' ('no defense')
                none = ("none, so the default applies (you defend when a card would take or "
                        "destroy a card of yours)" if edition(state) >= 2 else "none")
                notes.append("defend lines: " + ("; ".join(defend_text(cat, r) for r in
                                                           standing["defend"]) or none))
            if orders.hand_set:
                standing["hand"] = orders.hand
                notes.append("giving up cards: " + ("; ".join(hand_text(cat, orders.hand))
                                                    or "the default order"))
            if notes:
                ctx.event("Your standing orders now: " + " | ".join(notes) + ".", to=[p],
                          kind="standing")
            pending = state.get("pending")
            actions = [o.data for o in orders.actions]
            use = False
            if state["phase"] == "draft":
                if orders.picks and p not in state["draft"]["picked"]:
                    pick = orders.picks[0].data["character"]
                    state["draft"]["picked"][p] = pick
                    ctx.decided(p, "draft", cat.character[pick].name, "orders")
                if actions:
                    state["plans"][p] = actions
                use = True
            elif pending and pending["player"] == p:
                answers = [o.data for o in orders.answers if o.data["kind"] == pending["kind"]]
                if answers:
                    pending["answer"] = answers[0]
                if actions:
                    state["plans"][p] = actions
                use = True
            elif state["phase"] == "play" and p == state["current"] and actions:
                state["plans"][p] = actions
                use = True
            elif not actions and not orders.answers and not orders.picks:
                use = True
            if use:
                ctx.use_orders(p)

    def draft(self, state: dict, ctx: TurnContext, machine: Machine) -> None:
        cat = self.catalogue
        draft = state["draft"]
        missing = [p for p in state["players"] if p not in draft["picked"]]
        if missing and ctx.wait_for_orders:
            for p in missing:
                ctx.await_orders(p)
            return
        for p in missing:
            pick = draft["dealt"][p][0]
            draft["picked"][p] = pick
            ctx.decided(p, "draft", cat.character[pick].name, "default")
            ctx.event(f"No pick arrived from you: you keep {cat.character[pick].name}, the "
                      "first card dealt to you.", to=[p], kind="default")
        for p in state["players"]:
            pick = draft["picked"][p]
            state["characters"][p] = pick
            rest = [c for c in draft["dealt"][p] if c != pick]
            state["box"].extend(rest)
            ch = cat.character[pick]
            ctx.event(f"You keep {ch.name}; the others go to the box: "
                      f"{', '.join(cat.character[c].name for c in rest) or 'none'}.", to=[p],
                      kind="draft")
            ctx.event(f"{p} keeps a character: {ch.face} (the concealed side stays hidden).",
                      kind="draft")
        state["draft"] = None
        state["phase"] = "play"
        machine.begin_turn(state["first"])

    def finish_turn(self, state: dict, ctx: TurnContext) -> None:
        if ctx.turn == 0:
            self.opening_events(state, ctx)
        state["events"] = ctx.events

    def opening_events(self, state: dict, ctx: TurnContext) -> None:
        cat = self.catalogue
        if state.get("setup_rest"):
            rest = ctx.chance.shuffle(state["setup_rest"], "draw deck (setup)")
            state["deck"] = state["deck"] + rest
            state["setup_rest"] = None
            machine = Machine(cat, state, ctx)
            machine.refill()
        state.pop("setup_rest", None)
        rules = [RULE_TITLES[k] for k in ("draft", "rounds", "charm", "right_hand",
                                          "best_defense", "teams", "free_sets", "chaos")
                 if state["rules"].get(k)]
        if state["rules"].get("rounds"):
            n = state["rules"]["rounds"]
            # from rules edition 2 '(1 round)', earlier '(1 rounds)'
            rules[rules.index(RULE_TITLES["rounds"])] += (f" ({counted(n, 'round')})"
                                                          if edition(state) >= 2 else
                                                          f" ({n} rounds)")
        ctx.event(f"The game begins with {', '.join(state['players'])} (seated clockwise in this "
                  f"order); {state['first']} starts. Optional rules: "
                  f"{', '.join(rules) or 'none'}.", kind="setup")
        if state["rules"].get("teams"):
            ctx.event("Teams: " + "; ".join(" + ".join(t) for t in state["rules"]["teams"])
                      + ".", kind="setup")
        for p in state["players"]:
            ctx.event(f"Your starting hand: {', '.join(cat.card[c].name for c in state['hands'][p])}.",
                      to=[p], kind="setup")
            if state["phase"] == "draft":
                dealt = state["draft"]["dealt"][p]
                ctx.event("Character draft: you are dealt "
                          + ", ".join(cat.character[c].name for c in dealt)
                          + ". Keep one with 'pick <character>'.", to=[p], kind="setup")
            elif state["characters"].get(p):
                ch = cat.character[state["characters"][p]]
                ctx.event(f"Your character: {ch.name}.", to=[p], kind="setup")

    def is_over(self, state: dict) -> bool:
        return state["phase"] == "over"

    def awaited(self, state: dict) -> list[str]:
        if state["phase"] == "over":
            return []
        if state["phase"] == "draft":
            return [p for p in state["players"] if p not in state["draft"]["picked"]]
        pending = state.get("pending")
        return [pending["player"]] if pending else []

    # -- views ------------------------------------------------------------------------------
    def view(self, state: dict, viewer: str) -> dict:
        from companion.mayhem.views import view

        return view(self, state, viewer)

    def report(self, view: dict) -> dict:
        from companion.mayhem.views import report

        return report(self, view)

    def summary(self, state: dict) -> list[str]:
        return [e["text"] for e in state["events"] if e["to"] == "public"]

    # -- data and print ---------------------------------------------------------------------
    def data_export(self) -> dict:
        return self.catalogue.to_json()

    def data_check(self, folder) -> list:
        from companion.mayhem.cards import check_data_dir

        return check_data_dir(folder)

    def print_kit(self):
        from companion.mayhem.printables import kit

        return kit(self.catalogue)


def _alt_texts(effect) -> list[str]:
    from companion.mayhem.effects import sequence_text

    return [sequence_text(alt) for alt in effect.alternatives]


def blank_state(players: list[str], rules: dict[str, Any], first: str) -> dict[str, Any]:
    return {
        "kind": "mayhem",
        "players": list(players),
        "rules": rules,
        "first": first,
        "phase": "play",
        "current": first,
        "turn": {"actions": 0, "character": False, "recycle": False, "sets": 0},
        "round": 0,
        "turns": {p: 0 for p in players},
        "end": None,
        "deck": [],
        "barracks": [],
        "discard": [],
        "hands": {p: [] for p in players},
        "play": {p: [] for p in players},
        "sets": {p: [] for p in players},
        "characters": {p: None for p in players},
        "draft": None,
        "box": [],
        "standing": {p: {"defend": [], "hand": None} for p in players},
        "plans": {p: [] for p in players},
        "stack": [],
        "pending": None,
        "result": None,
        "events": [],
    }


KIND = MayhemKind()
