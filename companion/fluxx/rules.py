"""The rules of Monty Python Fluxx as the engine applies them: the card language's interpreter.

One processed turn (``companion turn``) is one player's turn: their plays from their orders,
the end of their turn (hand and keeper limits), players joining, and then the next player's
start of turn (bonuses and the draw), so that their report shows the hand they will play from.

Everything a player decides is a *decision* (see :meth:`Run.decide`). Its answer comes from that
player's orders, their standing orders, or a documented default; or the game pauses (option
``missing=wait`` for the player whose turn it is, ``others=wait`` for everybody else) and the
report asks. A paused turn is resumed by running it again from the position at its start with
the answers already given (the decision log) and the chance outcomes already drawn (the chance
log), so that the rules are written straight through, with no continuation machinery: the run
reaches the same point with the same events and goes on from there with the new orders.
"""
from __future__ import annotations

from typing import Any, Callable

from companion.engine.replay import ReplayedChance
from companion.fluxx.cards import Deck

MAX_PLAYS = 250
"""A safety limit on plays in one turn (Play All with cards that keep refilling the hand)."""


class Pause(Exception):
    """The game must wait for a player's answer."""

    def __init__(self, question: dict[str, Any]):
        super().__init__(question["prompt"])
        self.question = question


class Over(Exception):
    """The game has ended (a single winner emerged, or the turn limit was reached)."""


def new_game_state(deck: Deck, players: list[str], waiting: list[str]) -> dict[str, Any]:
    seated = [p for p in players if p not in waiting]
    return {
        "seated": seated, "waiting": list(waiting), "active": seated[0], "stage": "start",
        "turn": 0, "turns_done": 0, "drawn": 0, "played": 0, "extra_play": 0, "used": [],
        "ended": False, "start_rules": [],
        "deck": list(deck.ids), "discard": [], "hands": {p: [] for p in players},
        "table": {p: [] for p in players}, "rules": [], "goals": [], "using": [], "limbo": [],
        "tied": [], "result": None, "basic": deck.basic.id,
    }


class Run(ReplayedChance):
    """One run of the rules over a game position ``g`` (mutated in place)."""

    def __init__(self, deck: Deck, g: dict[str, Any], roster: list[str],
                 standing: dict[str, Any], options: dict[str, Any], chance, *,
                 log: list | None = None, chance_log: list | None = None,
                 cursors: dict[str, Any] | None = None, joiners: list[str] | None = None,
                 edition: int = 0):
        self.deck = deck
        self.edition = edition      # the game's rules edition (GameKind.edition)
        self.g = g
        self.roster = roster
        self.standing = standing
        self.options = options
        self.chance = chance
        self.log = list(log or [])
        self.li = 0
        self.chance_log = list(chance_log or [])
        self.ci = 0
        self.cursors = cursors if cursors is not None else {}
        self.joiners = list(joiners or [])
        self.joined: list[str] = []
        self.events: list[dict[str, Any]] = []
        self.fresh: list[tuple[str, str, str, str]] = []
        self._notes: list[tuple[str, Any]] | None = None

    # ------------------------------------------------------------------------------ recording
    def say(self, text: str, to: list[str] | None = None, kind: str = "info", **data: Any) -> None:
        if self.edition >= 4:       # "plays Jackpot!." reads as a typo: no full stop after ! or ?
            text = end_stop(text)
        self.events.append({"text": text, "to": sorted(to) if to is not None else None,
                            "kind": kind, "data": data})

    def note(self, text: str, to: list[str]) -> None:
        """An event raised while an answer is being worked out (kept with the answer)."""
        if self._notes is not None:
            self._notes.append((text, to))
        else:
            self.say(text, to=to, kind="note")

    def decide(self, player: str, kind: str, resolve: Callable[[], tuple[Any, str]]) -> Any:
        """A decision: the logged answer when re-running a paused turn, else ``resolve()``
        (which may raise Pause). Fresh answers are logged and reported to the context."""
        if self.li < len(self.log):
            entry = self.log[self.li]
            self.li += 1
            if entry["k"] != kind or entry["p"] != player:
                raise RuntimeError(f"resuming a paused turn: decision {self.li} was "
                                   f"{entry['k']}/{entry['p']}, now {kind}/{player}")
            for text, to in entry.get("n", []):
                self.say(text, to=to, kind="note")
            return entry["a"]
        self._notes = []
        try:
            answer, source = resolve()
        finally:
            notes, self._notes = self._notes, None
        entry = {"k": kind, "p": player, "a": answer}
        if notes:
            entry["n"] = [[t, to] for t, to in notes]
        self.log.append(entry)
        self.li += 1
        for text, to in notes:
            self.say(text, to=to, kind="note")
        self.fresh.append((player, kind, _answer_text(answer), source))
        return answer

    # ------------------------------------------------------------------------------ the rule set
    def n(self, cid: str) -> str:
        return self.deck.name(cid)

    def names(self, ids) -> str:
        items = [self.n(c) for c in ids]
        return card_list(items) if self.edition >= 4 else _and(items)

    def param(self, key: str) -> Any:
        value = self.deck.basic.set.get(key)
        for rid in self.g["rules"]:
            rset = self.deck[rid].set
            if rset and key in rset:
                value = rset[key]
        return value

    def num(self, n: int) -> int:
        """A printed number as it counts now ('One, Two, Five!': a 3 counts as 5)."""
        if n == 3:
            return self.param("three_counts_as") or 3
        return n

    def draw_count(self) -> int:
        return self.num(self.param("draw"))

    def play_count(self) -> int | str:
        value = self.param("play")
        return "all" if value == "all" else self.num(value)

    def hand_limit(self) -> int | None:
        value = self.param("hand_limit")
        return None if value is None else self.num(value)

    def keeper_limit(self) -> int | None:
        value = self.param("keeper_limit")
        return None if value is None else self.num(value)

    def goal_slots(self) -> int:
        return self.param("goals") or 1

    def reverse(self) -> bool:
        return self.param("order") == "reverse"

    def plays_left(self, p: str) -> int:
        hand = self.g["hands"][p]
        count = self.play_count()
        if count == "all":
            return len(hand)
        return max(0, count + self.g["extra_play"] - self.g["played"])

    # ------------------------------------------------------------------------------ seats
    def after(self, p: str) -> list[str]:
        """The other seated players in turn order, starting with the one after ``p``."""
        seats = self.g["seated"]
        i = seats.index(p)
        order = seats[i + 1:] + seats[:i]
        return order[::-1] if self.reverse() else order

    def next_player(self, p: str) -> str:
        return self.after(p)[0]

    def keepers(self, p: str) -> list[str]:
        return [c for c in self.g["table"][p] if self.deck[c].type == "keeper"]

    def creepers(self, p: str) -> list[str]:
        return [c for c in self.g["table"][p] if self.deck[c].type == "creeper"]

    def owner(self, cid: str) -> str | None:
        for p, cards in self.g["table"].items():
            if cid in cards:
                return p
        return None

    # ------------------------------------------------------------------------------ drawing
    def take_top(self) -> str | None:
        g = self.g
        if not g["deck"]:
            if not g["discard"]:
                return None
            count = len(g["discard"])
            g["deck"] = self.shuffle(g["discard"], "reshuffle the discard pile into a new draw pile")
            g["discard"] = []
            pile = _count(count) if self.edition >= 3 else f"{count} cards"
            self.say(f"The draw pile is empty: the discard pile ({pile}) is shuffled into a "
                     "new draw pile.", kind="reshuffle")
        return g["deck"].pop(0)

    def draw(self, p: str, count: int, *, into: list | None = None, why: str = "") -> list[str]:
        """Draw ``count`` cards that are not Creepers; every Creeper drawn goes in front of the
        player at once (not a play) and is replaced."""
        got: list[str] = []
        while len(got) < count:
            cid = self.take_top()
            if cid is None:
                self.say("The draw pile and the discard pile are both empty: no card can be drawn.",
                         kind="empty")
                break
            if self.deck[cid].type == "creeper":
                self.g["table"][p].append(cid)
                self.say(f"{p} draws {self.n(cid)}, a Creeper, and must put it in front of them "
                         "(it does not count as a play).", kind="creeper", card=cid, player=p)
                self.check_win()
                continue
            (into if into is not None else self.g["hands"][p]).append(cid)
            got.append(cid)
        if got:
            self.say(f"{p} draws {_count(len(got))}{why}.", kind="draw", player=p, count=len(got))
            self.say(f"You drew {self.names(got)}{why}.", to=[p], kind="drawn", cards=got)
        return got

    def top_up(self, p: str) -> None:
        """New draw numbers take effect at once: draw what the current rule still asks for."""
        g = self.g
        if p != g["active"] or g["stage"] != "play":
            return
        need = self.draw_count() - g["drawn"]
        if need > 0:
            g["drawn"] += need
            self.draw(p, need, why=" to make up the new draw number")

    # ------------------------------------------------------------------------------ winning
    def meets(self, p: str, gid: str) -> bool:
        goal = self.deck[gid].goal
        g = self.g
        mine = g["table"][p]
        if goal.get("nothing"):
            if mine or g["hands"][p] or (g["using"] and p == g["active"]):
                return False
            return all(g["table"][q] or g["hands"][q] for q in g["seated"] if q != p)
        for item in goal.get("have", []):
            options = item if isinstance(item, list) else [item]
            if not any(c in mine for c in options):
                return False
        for tag, count in goal.get("count", {}).items():
            if sum(1 for c in mine if tag in self.deck[c].tags) < self.num(count):
                return False
        for item in goal.get("another_has", []):
            if not any(item in g["table"][q] for q in g["seated"] if q != p):
                return False
        named = set(self.deck[gid].mentioned)
        if any(c not in named for c in self.creepers(p)):
            return False
        return True

    def goals_met(self, p: str) -> list[str]:
        return [gid for gid in self.g["goals"] if self.meets(p, gid)]

    def check_win(self) -> None:
        g = self.g
        if g["stage"] == "over":
            raise Over()
        winners = [p for p in g["seated"] if self.goals_met(p)]
        if len(winners) == 1:
            p = winners[0]
            met = self.goals_met(p)
            g["result"] = {"winner": p, "goals": met,
                           "reason": f"{p} meets the Goal {self.names(met)}"}
            g["stage"] = "over"
            g["tied"] = []
            self.say(f"{p} meets the Goal {self.names(met)} and wins the game!", kind="win",
                     player=p, goals=met)
            raise Over()
        if len(winners) > 1 and winners != g["tied"]:
            self.say(f"{_and(winners)} meet a Goal at the same moment: nobody wins yet, and the "
                     "game goes on until a single winner emerges.", kind="tie")
        g["tied"] = winners

    # ------------------------------------------------------------------------------ cursors
    def waits(self, p: str) -> bool:
        if p == self.g["active"]:
            cur = self.cursors.get(p)
            return self.options.get("missing") == "wait" or bool(cur and cur.get("ask"))
        return self.options.get("others") == "wait"

    def line_at(self, p: str, ref) -> dict[str, Any] | None:
        if not ref:
            return None
        cur = self.cursors.get(p)
        if cur is None or cur["gen"] != ref[0]:
            return None
        return cur["lines"][ref[1]]

    def pause(self, p: str, kind: str, prompt: str, options: list[str]) -> Pause:
        return Pause({"player": p, "kind": kind, "prompt": prompt, "options": options})

    # ------------------------------------------------------------------------------ choices
    def choose(self, p: str, kind: str, options: list[dict[str, Any]], line: dict | None,
               prompt: str) -> dict[str, Any]:
        """One of ``options`` (clause dicts such as {"taking": card}): from the play line's
        clauses, an answer line of the player's orders, the default (the first option), or a
        pause."""
        def resolve():
            keys = list(options[0])
            clauses = (line or {}).get("clauses", {})
            want = {k: clauses[k] for k in keys if k in clauses}
            if want:
                for option in options:
                    if all(option[k] == v for k, v in want.items()):
                        return option, "orders"
                self.note(f"Your choice '{self.clause_text(want)}' was not possible at that "
                          "moment.", [p])
            if len(options) == 1:
                return options[0], "default"       # no choice at all: nothing to ask
            cur = self.cursors.get(p)
            if cur:
                for i, entry in enumerate(cur["lines"]):
                    if cur["used"][i] or entry["kind"] != "answer":
                        continue
                    given = {k: entry["clauses"][k] for k in keys if k in entry["clauses"]}
                    if not given:
                        continue
                    for option in options:
                        if all(option[k] == v for k, v in given.items()):
                            cur["used"][i] = True
                            return option, "orders"
            if self.waits(p):
                raise self.pause(p, kind, prompt, [self.clause_text(o) for o in options])
            return options[0], "default"
        return self.decide(p, kind, resolve)

    def clause_text(self, clauses: dict[str, Any]) -> str:
        parts = []
        for key, value in clauses.items():
            if key == "quoting":
                parts.append(f'quoting "{value}"')
            elif isinstance(value, str) and value in self.deck.by_id:
                parts.append(f"{key} {self.n(value)}")
            else:
                parts.append(f"{key} {value}")
        return " ".join(parts)

    def keep_choice(self, p: str, cards: list[str], keep: int, what: str, prompt: str) -> list[str]:
        """Which ``keep`` of ``cards`` a player keeps: their keep list (cards listed first, in
        its order), else the default (the cards they have had longest), or a pause."""
        def resolve():
            ranked = self.standing.get(p, {}).get("keep")
            if ranked is None:
                if self.waits(p) and 0 < keep < len(cards):
                    from itertools import combinations

                    combos = list(combinations(cards, keep))
                    if len(combos) <= 30:
                        lines = ["keep " + "; ".join(self.n(c) for c in combo) if combo else
                                 "keep none" for combo in combos]
                    else:
                        lines = [f"keep {self.n(c)}" for c in cards]
                    raise self.pause(p, what, prompt, lines)
                return cards[:keep], "default"
            order = [c for c in ranked if c in cards] + [c for c in cards if c not in ranked]
            kept = order[:keep]
            return [c for c in cards if c in kept], "standing"
        return self.decide(p, what, resolve)

    # ------------------------------------------------------------------------------ the game
    def setup(self, first: str) -> None:
        g = self.g
        g["deck"] = self.shuffle(g["deck"], "shuffle the deck")
        self.say(f"The deck is shuffled and each player is dealt 3 cards. {first} goes first.",
                 kind="setup")
        for _ in range(3):
            for p in g["seated"]:
                g["hands"][p].append(self.take_top())
        for p in g["seated"]:
            self.say(f"You were dealt {self.names(g['hands'][p])}.", to=[p], kind="dealt",
                     cards=list(g["hands"][p]))
        for p in g["seated"]:
            self.lay_down_creepers(p)
        g["active"] = first
        self.begin_turn(first)

    def lay_down_creepers(self, p: str) -> None:
        hand = self.g["hands"][p]
        found = [c for c in hand if self.deck[c].type == "creeper"]
        for cid in found:
            hand.remove(cid)
            self.g["table"][p].append(cid)
            self.say(f"{p} was dealt {self.n(cid)}, a Creeper, lays it down and draws a "
                     "replacement.", kind="creeper", card=cid, player=p)
        if found:
            self.draw(p, len(found), why=" to replace the Creepers in the starting hand")
        self.check_win()

    def join(self, p: str) -> None:
        g = self.g
        g["waiting"].remove(p)
        g["seated"] = [q for q in self.roster if q in g["seated"] or q == p]
        self.say(f"{p} joins the game and is dealt 3 cards.", kind="join", player=p)
        self.draw(p, 3, why=" on joining")

    def begin_turn(self, p: str) -> None:
        g = self.g
        g.update(active=p, stage="play", drawn=0, played=0, extra_play=0, used=[], ended=False)
        g["turn"] += 1
        g["start_rules"] = list(g["rules"])
        self.say(f"Turn {g['turn']}: {p}'s turn begins.", kind="turn", player=p)
        bonuses = [self.deck[r] for r in g["rules"] if self.deck[r].bonus]
        for card in sorted(bonuses, key=lambda c: c.bonus["when"] != "empty_hand"):
            b = card.bonus
            if b["when"] == "empty_hand" and not g["hands"][p] and "draw" in b:
                self.draw(p, self.num(b["draw"]), why=f" ({card.name})")
            elif b["when"] == "per_creeper" and "draw" in b:
                count = len(self.creepers(p))
                if count:
                    self.draw(p, count * self.num(b["draw"]), why=f" ({card.name})")
        g["drawn"] = self.draw_count()
        self.draw(p, g["drawn"])

    def play_turn(self) -> None:
        """The whole of one processed turn."""
        g = self.g
        try:
            if g["stage"] == "start":
                self.begin_turn(g["active"])
            p = g["active"]
            self.turn_body(p)
            self.end_turn(p)
            for joiner in self.joiners:
                if joiner in g["waiting"]:
                    self.joined.append(joiner)
                    self.join(joiner)
            if self.joined:
                self.enforce_others(p)
            g["turns_done"] += 1
            limit = self.options.get("turn-limit") or 0
            if limit and g["turns_done"] >= limit:
                g["stage"] = "over"
                g["result"] = {"winner": None, "goals": [],
                               "reason": f"the turn limit of {limit} was reached"}
                turns = f"{limit} turn" if limit == 1 and self.edition >= 5 else f"{limit} turns"
                self.say(f"The turn limit ({turns}) is reached: the game ends without a "
                         "winner.", kind="end")
                return
            self.begin_turn(self.next_player(p))
        except Over:
            return

    def turn_body(self, p: str) -> None:
        g = self.g

        def has_orders():
            if p in self.cursors:
                return "orders", "orders"
            if self.options.get("missing") == "wait":
                raise self.pause(p, "turn", "It is your turn: send your orders.", [])
            return "default", "default"
        how = self.decide(p, "orders", has_orders)
        if how == "default":
            self.say(f"No orders arrived from {p}: the default plays are made (the cards held "
                     "longest first).", kind="default", player=p)
        claims = self.decide(p, "claims", lambda: self.resolve_claims(p))
        for claim in claims:
            self.claim(p, claim)
        self.top_up(p)
        plays = 0
        while not g["ended"]:
            can_play = self.plays_left(p) > 0 and bool(g["hands"][p]) and plays < MAX_PLAYS
            step = self.decide(p, "step", lambda: self.resolve_step(p, can_play))
            if step["do"] == "end":
                break
            line = self.line_at(p, step.get("line"))
            if step["do"] == "use":
                self.free_action(p, step["card"], line)
            else:
                plays += 1
                g["played"] += 1
                self.play_card(p, step["card"], line, g["hands"][p])
        if plays >= MAX_PLAYS:
            self.say(f"{p} has made {MAX_PLAYS} plays this turn: the safety limit ends the turn.",
                     kind="limit")

    def resolve_claims(self, p: str):
        cur = self.cursors.get(p)
        out = []
        if cur:
            seen = set()
            for i, entry in enumerate(cur["lines"]):
                if entry["kind"] == "claim" and not cur["used"][i] and entry["what"] not in seen:
                    cur["used"][i] = True
                    seen.add(entry["what"])
                    out.append({"what": entry["what"], "words": entry["words"],
                                "judged": entry.get("judged")})
        return out, "orders"

    def claim(self, p: str, claim: dict[str, Any]) -> None:
        g = self.g
        what = claim["what"]
        verb = {"sing": "sings", "accent": "says in an outrageous accent"}[what]
        rules = [self.deck[r] for r in g["start_rules"]
                 if self.deck[r].bonus and self.deck[r].bonus["when"] == what]
        if not rules:
            self.say(f"You claimed a bonus ({what}), but no rule gave one at the start of your "
                     "turn.", to=[p], kind="note")
            return
        self.say(f'{p} {verb}: "{claim["words"]}"', kind="claim", player=p, what=what)
        social = self.options.get("social", "trust")
        if social == "off" or (social == "judge" and claim.get("judged") != "ok"):
            self.say(f"The moderator vetoes the performance: no bonus for {p}.", kind="veto")
            return
        for card in rules:
            b = card.bonus
            if "draw" in b:
                self.draw(p, self.num(b["draw"]), why=f" ({card.name})")
            else:
                g["extra_play"] += self.num(b["play"])
                self.say(f"{p} may play {_count(self.num(b['play']))} more this turn "
                         f"({card.name}).", kind="bonus", player=p)

    def resolve_step(self, p: str, can_play: bool):
        hand = self.g["hands"][p]
        cur = self.cursors.get(p)
        if cur:
            lines, used = cur["lines"], cur["used"]
            if can_play:
                for i in range(cur["ptr"]):
                    if not used[i] and lines[i]["kind"] == "play" and lines[i]["card"] in hand:
                        used[i] = True
                        return {"do": "play", "card": lines[i]["card"],
                                "line": [cur["gen"], i]}, "orders"
            while cur["ptr"] < len(lines):
                i = cur["ptr"]
                entry = lines[i]
                cur["ptr"] += 1
                if used[i]:
                    continue
                if entry["kind"] == "use":
                    used[i] = True
                    return {"do": "use", "card": entry["card"], "line": [cur["gen"], i]}, "orders"
                if entry["kind"] == "play" and can_play and entry["card"] in hand:
                    used[i] = True
                    return {"do": "play", "card": entry["card"], "line": [cur["gen"], i]}, "orders"
        if not can_play:
            return {"do": "end"}, "orders" if cur else "default"
        if self.waits(p) and len(set(hand)) > 1:
            raise self.pause(p, "step", "Choose the next card to play from your hand.",
                             [f"play {self.n(c)}" for c in hand])
        return {"do": "play", "card": hand[0]}, "default"

    def end_turn(self, p: str) -> None:
        self.limit_hand(p)
        self.limit_keepers(p)
        self.say(f"{p}'s turn ends.", kind="turn-end", player=p)

    # ------------------------------------------------------------------------------ playing
    def play_card(self, p: str, cid: str, line: dict | None, source: list[str],
                  how: str = "plays", via: str | None = None) -> None:
        source.remove(cid)
        self.g["limbo"].append(cid)
        if via and self.edition >= 4:   # the card first, then where it came from
            self.say(f"{p} plays {self.n(cid)} (drawn by {via}).", kind="play", card=cid,
                     player=p)
        else:
            self.say(f"{p} {how} {self.n(cid)}.", kind="play", card=cid, player=p)
        self.resolve(p, cid, line)
        self.after_play(p)

    def resolve(self, p: str, cid: str, line: dict | None) -> None:
        card = self.deck[cid]
        g = self.g
        if card.type in ("keeper", "creeper"):
            g["limbo"].remove(cid)
            g["table"][p].append(cid)
            self.check_win()
        elif card.type == "goal":
            self.place_goal(p, cid, line)
        elif card.type == "rule":
            self.enter_rule(p, cid, line)
        else:
            for op in card.do:
                getattr(self, "op_" + op["op"])(p, op, line, card)
                self.check_win()
            g["limbo"].remove(cid)
            g["discard"].append(cid)

    def after_play(self, p: str) -> None:
        self.enforce_others(p)
        self.check_win()

    def place_goal(self, p: str, cid: str, line: dict | None) -> None:
        g = self.g
        if len(g["goals"]) >= self.goal_slots():
            if len(g["goals"]) == 1:
                old = g["goals"][0]
            else:
                old = self.choose(p, "replacing", [{"replacing": x} for x in g["goals"]], line,
                                  f"{self.n(cid)} replaces one of the two Goals: which one "
                                  "goes?")["replacing"]
            g["limbo"].remove(cid)
            g["goals"].remove(old)
            g["discard"].append(old)
            self.say(f"{self.n(cid)} replaces the Goal {self.n(old)}.", kind="goal", card=cid)
        else:
            g["limbo"].remove(cid)
            self.say(f"{self.n(cid)} is now a Goal.", kind="goal", card=cid)
        g["goals"].append(cid)
        self.check_win()

    def enter_rule(self, p: str, cid: str, line: dict | None) -> None:
        g = self.g
        g["limbo"].remove(cid)
        keys = set(self.deck[cid].set or {})
        replaced = [r for r in g["rules"] if keys & set(self.deck[r].set or {})]
        for r in replaced:
            g["rules"].remove(r)
            g["discard"].append(r)
        g["rules"].append(cid)
        if replaced:
            self.say(f"{self.n(cid)} replaces {self.names(replaced)} (they contradict each "
                     "other).", kind="rule", card=cid)
        else:
            self.say(f"{self.n(cid)} is now in play.", kind="rule", card=cid)
        self.rules_changed(p, line)

    def remove_rules(self, p: str, ids: list[str], line: dict | None) -> None:
        g = self.g
        for r in ids:
            g["rules"].remove(r)
            g["discard"].append(r)
        self.rules_changed(p, line)

    def rules_changed(self, p: str, line: dict | None) -> None:
        g = self.g
        while len(g["goals"]) > self.goal_slots():
            options = [{"keeping": x} for x in reversed(g["goals"])]
            keep = self.choose(p, "keeping", options, line,
                               "Only one Goal may stay in play now: which one do you keep?")
            dropped = [x for x in g["goals"] if x != keep["keeping"]]
            for x in dropped:
                g["goals"].remove(x)
                g["discard"].append(x)
            self.say(f"Only one Goal may stay: {p} keeps {self.n(keep['keeping'])} and discards "
                     f"{self.names(dropped)}.", kind="goal")
        self.top_up(p)
        self.enforce_others(p)
        self.check_win()

    # ------------------------------------------------------------------------------ limits
    def enforce_others(self, active: str) -> None:
        for q in self.after(self.g["active"]) if self.g["active"] in self.g["seated"] else []:
            self.limit_hand(q)
            self.limit_keepers(q)

    def limit_hand(self, q: str, limit: int | None = None, why: str | None = None) -> None:
        g = self.g
        limit = self.hand_limit() if limit is None else limit
        hand = g["hands"][q]
        if limit is None or len(hand) <= limit:
            return
        why = why or f"the Hand Limit of {limit}"
        kept = self.keep_choice(q, list(hand), limit, "keep-hand",
                                f"You hold {len(hand)} cards: keep {limit} ({why}); the others "
                                "are discarded.")
        dropped = [c for c in hand if c not in kept]
        hand[:] = [c for c in hand if c in kept]
        g["discard"].extend(dropped)
        self.say(f"{q} discards {self.names(dropped)} ({why}).", kind="discard", player=q,
                 cards=dropped)

    def limit_keepers(self, q: str) -> None:
        g = self.g
        limit = self.keeper_limit()
        keepers = self.keepers(q)
        if limit is None or len(keepers) <= limit:
            return
        kept = self.keep_choice(q, keepers, limit, "keep-keepers",
                                f"You have {len(keepers)} Keepers: keep {limit} (the Keeper "
                                "Limit); the others are discarded.")
        dropped = [c for c in keepers if c not in kept]
        g["table"][q] = [c for c in g["table"][q] if c not in dropped]
        g["discard"].extend(dropped)
        self.say(f"{q} discards the Keeper{'s' if len(dropped) > 1 or not self.edition else ''} "
                 f"{self.names(dropped)} (the Keeper Limit of {limit}).",
                 kind="discard", player=q, cards=dropped)
        self.check_win()

    # ------------------------------------------------------------------------------ free actions
    def free_action(self, p: str, cid: str, line: dict | None) -> None:
        g = self.g
        card = self.deck[cid]
        free = card.free
        name = card.name
        if card.type == "keeper" and cid not in g["table"][p]:
            self.say(f"You cannot use {name}: it is not in front of you.", to=[p], kind="note")
            return
        if card.type == "rule" and cid not in g["rules"]:
            self.say(f"You cannot use {name}: it is not in play.", to=[p], kind="note")
            return
        limit = free.get("per_turn")
        if limit and g["used"].count(cid) >= limit:
            self.say(f"You have already used {name} this turn.", to=[p], kind="note")
            return
        op = free["op"]
        if op == "trash":
            targets = self.trash_targets(p, free["what"], own_first=True)
            if free.get("cost") == "discard":
                targets = [t for t in targets if t != cid]
            if not targets:
                self.say(f"{name}: there is nothing to discard, so you did not use it.", to=[p],
                         kind="note")
                return
            choice = self.choose(p, "on", [{"on": t} for t in targets], line,
                                 f"{name}: which card in play is discarded?")
            g["used"].append(cid)
            if free.get("cost") == "discard":
                g["table"][p].remove(cid)
                g["discard"].append(cid)
                self.say(f"{p} discards {name} (a free action).", kind="use", card=cid, player=p)
            else:
                self.say(f"{p} uses {name} (a free action).", kind="use", card=cid, player=p)
            self.discard_from_table(choice["on"], f"by {name}")
        elif op == "move_creeper":
            options = self.creeper_moves(p, free["from"])
            if not options:
                self.say(f"{name}: there is no Creeper to move, so you did not use it.", to=[p],
                         kind="note")
                return
            choice = self.choose(p, "moving", options, line,
                                 f"{name}: which Creeper goes to whom?")
            g["used"].append(cid)
            self.say(f"{p} uses {name} (a free action).", kind="use", card=cid, player=p)
            self.move_creeper(choice["moving"], choice["to"])
        elif op == "redraw_hand":
            if self.plays_left(p) <= 0 or not g["hands"][p]:
                self.say(f"{name} needs plays left and cards in hand: not used.", to=[p],
                         kind="note")
                return
            g["used"].append(cid)
            hand = list(g["hands"][p])
            g["hands"][p] = []
            g["discard"].extend(hand)
            self.say(f"{p} uses {name}: discards the whole hand ({self.names(hand)}), draws "
                     f"{_count(self.num(free['n']))} and ends the turn.", kind="use", card=cid,
                     player=p)
            self.draw(p, self.num(free["n"]), why=f" ({name})")
            g["ended"] = True
        elif op == "swap_plays":
            left = self.plays_left(p)
            if left <= 0:
                self.say(f"{name} needs plays left: not used.", to=[p], kind="note")
                return
            g["used"].append(cid)
            self.say(f"{p} uses {name}: gives up {_count(left).replace('card', 'play')} and draws "
                     "as many cards; the turn ends.", kind="use", card=cid, player=p)
            self.draw(p, left, why=f" ({name})")
            g["ended"] = True
        self.after_play(p)

    # ------------------------------------------------------------------------------ helpers
    def trash_targets(self, p: str, what: str, own_first: bool) -> list[str]:
        order = [p] + self.after(p) if own_first else self.after(p) + [p]
        types = {"keeper": ("keeper",), "creeper": ("creeper",),
                 "any": ("keeper", "creeper")}[what]
        return [c for q in order for c in self.g["table"][q] if self.deck[c].type in types]

    def discard_from_table(self, cid: str, why: str) -> None:
        owner = self.owner(cid)
        self.g["table"][owner].remove(cid)
        self.g["discard"].append(cid)
        self.say(f"{self.n(cid)} is discarded from in front of {owner} ({why}).", kind="trash",
                 card=cid, player=owner)

    def creeper_moves(self, p: str, source: str) -> list[dict[str, str]]:
        owners = [p] if source == "self" else [p] + self.after(p)
        out = []
        for owner in owners:
            for c in self.creepers(owner):
                for target in self.after(owner):
                    out.append({"moving": c, "to": target})
        return out

    def move_creeper(self, cid: str, target: str) -> None:
        owner = self.owner(cid)
        self.g["table"][owner].remove(cid)
        self.g["table"][target].append(cid)
        self.say(f"{self.n(cid)} moves from {owner} to {target}.", kind="move", card=cid)

    # ------------------------------------------------------------------------------ action ops
    def op_draw(self, p, op, line, card) -> None:
        self.draw(p, self.num(op["n"]), why=f" ({card.name})")

    def op_draw_and_play(self, p, op, line, card) -> None:
        g = self.g
        frame: list[str] = []
        g["using"].append(frame)
        self.draw(p, self.num(op["draw"]), into=frame, why=f" apart from the hand ({card.name})")
        target = self.num(op["play"])
        done = 0
        while done < target and frame:
            pick = self.decide(p, "pick", lambda: self.resolve_pick(p, frame, card))
            done += 1
            self.play_card(p, pick["card"], self.line_at(p, pick.get("line")), frame,
                           how=f"plays (from {card.name})", via=card.name)
        if frame:
            rest = list(frame)
            frame.clear()
            g["discard"].extend(rest)
            self.say(f"{p} discards the cards not played ({card.name}): {self.names(rest)}."
                     if self.edition >= 4 and len(rest) > 1 else
                     f"{p} discards {self.names(rest)}, not played ({card.name}).",
                     kind="discard", cards=rest)
        for k in range(len(g["using"]) - 1, -1, -1):
            if g["using"][k] is frame:
                del g["using"][k]
                break

    def resolve_pick(self, p: str, frame: list[str], card):
        cur = self.cursors.get(p)
        if cur:
            for i, entry in enumerate(cur["lines"]):
                if not cur["used"][i] and entry["kind"] == "play" and entry["card"] in frame:
                    cur["used"][i] = True
                    return {"card": entry["card"], "line": [cur["gen"], i]}, "orders"
        if self.waits(p) and len(frame) > 1:
            raise self.pause(p, "pick", f"{card.name}: choose which of the cards drawn you play "
                             "next.", [f"play {self.n(c)}" for c in frame])
        return {"card": frame[0]}, "default"

    def op_discard_rules(self, p, op, line, card) -> None:
        rules = list(self.g["rules"])
        if not rules:
            self.say("There are no New Rules to discard.", kind="info")
            return
        self.say(f"The New Rule {self.names(rules)} is discarded; the Basic Rules stay."
                 if len(rules) == 1 and self.edition >= 3 else
                 f"The New Rules {self.names(rules)} are discarded; the Basic Rules stay.",
                 kind="rules-discarded")
        self.remove_rules(p, rules, line)

    def op_discard_goals(self, p, op, line, card) -> None:
        goals = list(self.g["goals"])
        if not goals:
            self.say("There is no Goal to discard.")
            return
        self.g["goals"] = []
        self.g["discard"].extend(goals)
        self.say(f"The Goal {self.names(goals)} is discarded."
                 if len(goals) == 1 or not self.edition else
                 f"The Goals {self.names(goals)} are discarded.", kind="goals-discarded")

    def op_steal_keeper(self, p, op, line, card) -> None:
        options = [{"taking": c} for q in self.after(p) for c in self.keepers(q)]
        if not options:
            self.say("Nobody else has a Keeper: there is nothing to steal.")
            return
        choice = self.choose(p, "taking", options, line, "Steal a Keeper: which one do you take?")
        owner = self.owner(choice["taking"])
        self.g["table"][owner].remove(choice["taking"])
        self.g["table"][p].append(choice["taking"])
        self.say(f"{p} takes {self.n(choice['taking'])} from {owner}.", kind="steal",
                 card=choice["taking"])

    def op_move_creeper(self, p, op, line, card) -> None:
        options = self.creeper_moves(p, op["from"])
        if not options:
            self.say("There is no Creeper in play to move.")
            return
        choice = self.choose(p, "moving", options, line, f"{card.name}: which Creeper goes to "
                             "whom?")
        self.move_creeper(choice["moving"], choice["to"])

    def op_trash(self, p, op, line, card) -> None:
        targets = self.trash_targets(p, op["what"], own_first=op["what"] == "creeper")
        if not targets:
            self.say(f"There is nothing in play for {card.name} to discard.")
            return
        choice = self.choose(p, "on", [{"on": t} for t in targets], line,
                             f"{card.name}: which card in play is discarded?")
        self.discard_from_table(choice["on"], card.name)

    def op_trade_hands(self, p, op, line, card) -> None:
        g = self.g
        others = sorted(self.after(p), key=lambda q: (-len(g["hands"][q]), self.after(p).index(q)))
        choice = self.choose(p, "with", [{"with": q} for q in others], line,
                             "Trade Hands: with whom?")
        q = choice["with"]
        mine, theirs = g["hands"][p], g["hands"][q]
        g["hands"][p], g["hands"][q] = theirs, mine
        self.say(f"{p} and {q} trade hands: {p} gives {_count(len(mine))} and gets "
                 f"{_count(len(theirs))}.", kind="trade")
        for who in (p, q):
            held = g["hands"][who]
            self.say(f"After the trade you hold {self.names(held) or 'nothing'}.", to=[who],
                     kind="hand", cards=list(held))

    def op_exchange_keepers(self, p, op, line, card) -> None:
        mine = self.keepers(p)
        options = [{"giving": a, "for": b} for q in self.after(p) for b in self.keepers(q)
                   for a in mine]
        if not options:
            if self.edition >= 3:       # a public line: the player by name, not "you"
                self.say(f"Exchange Keepers needs a Keeper in front of {p} and one in front of "
                         "another player: nothing happens.")
            else:
                self.say("Exchange Keepers needs a Keeper in front of you and one in front of "
                         "someone else: nothing happens.")
            return
        choice = self.choose(p, "giving", options, line,
                             "Exchange Keepers: which of yours for which of theirs?")
        a, b = choice["giving"], choice["for"]
        q = self.owner(b)
        g = self.g
        g["table"][p].remove(a)
        g["table"][q].remove(b)
        g["table"][p].append(b)
        g["table"][q].append(a)
        self.say(f"{p} gives {self.n(a)} to {q} and takes {self.n(b)}.", kind="exchange")

    def op_reveal_goal(self, p, op, line, card) -> None:
        g = self.g
        budget = len(g["deck"]) + len(g["discard"])
        shown: list[str] = []
        found = None
        while budget > 0:
            budget -= 1
            cid = self.take_top()
            if cid is None:
                break
            if self.deck[cid].type == "goal":
                found = cid
                break
            shown.append(cid)
            g["limbo"].append(cid)
        if shown:
            self.say(f"Turned up and discarded: {self.names(shown)}.", kind="reveal", cards=shown)
            for cid in shown:
                g["limbo"].remove(cid)
            g["discard"].extend(shown)
        if found is None:
            self.say("No Goal turned up.")
            return
        self.say(f"{self.n(found)} turns up.", kind="play", card=found, player=p)
        g["limbo"].append(found)
        self.place_goal(p, found, line)

    def op_discard_creepers(self, p, op, line, card) -> None:
        gone = []
        for q in self.g["seated"]:
            for c in self.creepers(q):
                self.g["table"][q].remove(c)
                self.g["discard"].append(c)
                gone.append(c)
        self.say(f"Every Creeper is discarded: {self.names(gone)}." if gone else
                 "There are no Creepers in play.", kind="sweep")

    def op_others_lose_keeper(self, p, op, line, card) -> None:
        any_lost = False
        for q in self.after(p):
            keepers = self.keepers(q)
            if not keepers:
                continue
            any_lost = True
            kept = self.keep_choice(q, keepers, len(keepers) - 1, "keep-keepers",
                                    f"{card.name}: you must discard one of your Keepers; keep "
                                    f"the other {len(keepers) - 1}.")
            lost = [c for c in keepers if c not in kept]
            for c in lost:
                self.g["table"][q].remove(c)
                self.g["discard"].append(c)
            self.say(f"{q} discards the Keeper{'s' if len(lost) > 1 and self.edition else ''} "
                     f"{self.names(lost)} ({card.name}).",
                     kind="discard", cards=lost)
            self.check_win()
        if not any_lost:
            self.say("Nobody else has a Keeper to lose.")

    def op_others_discard_to(self, p, op, line, card) -> None:
        limit = self.num(op["n"])
        for q in self.after(p):
            self.limit_hand(q, limit, f"{card.name}: down to {limit}")

    def op_pass_creepers(self, p, op, line, card) -> None:
        mine = self.creepers(p)
        if not mine:
            self.say(f"{p} has no Creepers to pass on.")
            return
        target = self.next_player(p)
        for c in mine:
            self.g["table"][p].remove(c)
            self.g["table"][target].append(c)
        self.say(f"{p} passes {self.names(mine)} to {target}.", kind="move")

    def op_replay(self, p, op, line, card) -> None:
        g = self.g
        options = [{"choosing": c} for c in reversed(g["discard"])
                   if self.deck[c].type in op["types"]]
        if not options:
            self.say(f"There is nothing in the discard pile for {card.name} to play again.")
            return
        choice = self.choose(p, "choosing", options, line,
                             f"{card.name}: which card do you play from the discard pile?")
        cid = choice["choosing"]
        g["discard"].remove(cid)
        g["limbo"].append(cid)
        self.say(f"{p} plays {self.n(cid)} again, from the discard pile.", kind="play", card=cid,
                 player=p)
        self.resolve(p, cid, line)

    def op_rescue(self, p, op, line, card) -> None:
        g = self.g
        options = [{"choosing": c} for c in reversed(g["discard"])
                   if self.deck[c].type == "keeper"]
        if not options:
            self.say("There is no Keeper in the discard pile.")
            return
        choice = self.choose(p, "choosing", options, line,
                             f"{card.name}: which Keeper do you take from the discard pile?")
        cid = choice["choosing"]
        g["discard"].remove(cid)
        g["table"][p].append(cid)
        self.say(f"{p} takes {self.n(cid)} from the discard pile and puts it in front of them.",
                 kind="rescue", card=cid)

    def op_quote_round(self, p, op, line, card) -> None:
        g = self.g
        social = self.options.get("social", "trust")
        for q in [p] + self.after(p):
            def resolve(q=q):
                clauses = (line or {}).get("clauses", {})
                if q == p and "quoting" in clauses:
                    return {"words": clauses["quoting"], "judged": line.get("judged")}, "orders"
                quote = self.standing.get(q, {}).get("quote")
                if quote:
                    self.standing[q]["quote"] = None
                    return dict(quote), "standing"
                return None, "default"
            quote = self.decide(q, "quote", resolve)
            ok = quote is not None and social != "off" and (
                social != "judge" or quote.get("judged") == "ok")
            if quote is not None:
                self.say(f'{q} answers: "{quote["words"]}"', kind="quote", player=q)
            if ok:
                self.draw(q, self.num(op["draw"]), why=f" ({card.name})")
                continue
            if quote is not None:
                self.say(f"The moderator does not accept {q}'s answer.", kind="veto")
            hand = g["hands"][q]
            if hand:
                i = self.pick(len(hand), f"the card {q} loses at random ({card.name})")
                lost = hand.pop(i)
                g["discard"].append(lost)
                self.say(f"{q} has no answer and loses {self.n(lost)}, picked at random.",
                         kind="discard", cards=[lost])
            else:
                self.say(f"{q} has no answer but no cards to lose either.")

    def op_pass_random(self, p, op, line, card) -> None:
        g = self.g
        count = self.num(op["n"])
        order = [p] + self.after(p)
        moves = []
        for q in order:
            hand = list(g["hands"][q])
            chosen = []
            for _ in range(min(count, len(hand))):
                i = self.pick(len(hand), f"the card {q} passes on ({card.name})")
                chosen.append(hand.pop(i))
            moves.append((q, self.next_player(q), chosen))
        for q, target, chosen in moves:
            for c in chosen:
                g["hands"][q].remove(c)
                g["hands"][target].append(c)
        self.say(f"Every player passes {_count(count)} at random to the next player.",
                 kind="pass")
        for q, target, chosen in moves:
            if chosen:
                self.say(f"You passed {self.names(chosen)} to {target}.", to=[q], kind="hand")
                self.say(f"You received {self.names(chosen)} from {q}.", to=[target], kind="hand")

    def op_shuffle_hands(self, p, op, line, card) -> None:
        g = self.g
        order = [p] + self.after(p)
        pool = [c for q in order for c in g["hands"][q]]
        for q in order:
            g["hands"][q] = []
        if pool:
            pool = self.shuffle(pool, f"the gathered hands ({card.name})")
        for k, c in enumerate(pool):
            g["hands"][order[k % len(order)]].append(c)
        counts = ", ".join(f"{q} {len(g['hands'][q])}" for q in order)
        self.say(f"All hands ({_count(len(pool))}) are shuffled together and dealt out again: "
                 f"{counts}.", kind="shuffle")
        for q in order:
            self.say(f"Your new hand: {self.names(g['hands'][q]) or 'nothing'}.", to=[q],
                     kind="hand", cards=list(g["hands"][q]))


# ---------------------------------------------------------------------------------- helpers
def _count(n: int) -> str:
    return f"{n} card" if n == 1 else f"{n} cards"


def _and(items: list[str]) -> str:
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


def card_list(items: list[str]) -> str:
    """Rules edition 4: a list of card names that stays readable when a name holds a comma
    ("Draw 3, Play 2 of Them", "One, Two, Five! (Three, Sir!)", "Message For You, Sir"): then
    every name is set off by a semicolon; otherwise as ``_and``."""
    if len(items) <= 1 or not any("," in item for item in items):
        return _and(items)
    return "; ".join(items[:-1]) + "; and " + items[-1]


def end_stop(text: str) -> str:
    """Rules edition 4: a sentence ending in a card name that ends in '!' or '?' takes no
    full stop after it ("Anna plays Jackpot!", not "Jackpot!.")."""
    if text.endswith(("!.", "?.")):
        return text[:-1]
    return text


def _answer_text(answer: Any) -> str:
    if isinstance(answer, dict):
        return ", ".join(f"{k} {v}" for k, v in answer.items())
    if isinstance(answer, list):
        return ", ".join(str(a) for a in answer) or "nothing"
    return str(answer)
