"""The rules of Medieval Mayhem as the engine applies them (sections D to O of the rules).

The game advances on a stack of small tasks kept in the state (``state["stack"]``): a player's
turn, an action, a card's text, a set trigger, the end of a turn. A task that needs an answer it
does not have (a player's orders for their turn, a Defense response, a choice from a hand) stops
the machine with ``state["pending"]`` naming the question; the next processed turn resumes
exactly there. Every random outcome happens at setup (the shuffle, the characters, the first
player); after that the game is a deterministic function of the orders.

Play by email (docs/mayhem.md): a processed turn begins with the player whose turn it is and goes
on in seat order through as many players' turns as orders allow. A player whose turn begins
during the processing needs orders already submitted; otherwise the processing stops after that
player's start-of-turn draw, so their report shows the hand they will play from.
"""
from __future__ import annotations

from itertools import combinations
from companion.engine.game import TurnContext, edition
from companion.mayhem.cards import Card, Catalogue
from companion.mayhem.effects import Effect, Step, sequence_text, shared_aspects

HAND_START = 3
BARRACKS = 5
LIMITS = {"play": 6, "hand": 6, "sets": 3}
TRIGGERS = ("crimson", "gilded", "sapphire", "numbers", "dragon", "princess", "knight",
            "attack", "defense")
TRIGGER_OPTIONS = {"dragon": ("princess", "scales"), "princess": ("knight", "guardians"),
                   "knight": ("dragon", "shield"), "attack": ("destroy", "draw")}
DEFENSE_OF = {"dragon": "Scales", "princess": "Guardians", "knight": "Shield"}
NONFREE = ("play", "draw", "recruit", "character", "set", "exchange", "recycle")


class Wait(Exception):
    """The machine stops: orders are needed (``state["pending"]`` says from whom)."""


# ================================================================================ the table
def listed(names: list[str]) -> str:
    """Names as a list in words: 'Anna', 'Anna and Bert', 'Anna, Bert and Cora'."""
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"


def seats_from(state: dict, player: str) -> list[str]:
    """Every player in seat order (clockwise), starting with ``player``."""
    players = state["players"]
    i = players.index(player)
    return players[i:] + players[:i]


def left_of(state: dict, player: str) -> str:
    players = state["players"]
    return players[(players.index(player) + 1) % len(players)]


def right_of(state: dict, player: str) -> str:
    players = state["players"]
    return players[(players.index(player) - 1) % len(players)]


def team_of(state: dict, player: str) -> list[str]:
    for team in state["rules"].get("teams") or []:
        if player in team:
            return list(team)
    return [player]


def opponents(state: dict, player: str) -> list[str]:
    """The players ``player``'s card text may reach: everybody else, or with Team Tactics the
    players of the other teams."""
    mates = team_of(state, player)
    return [p for p in seats_from(state, player) if p not in mates]


def legal_targets(state: dict, player: str) -> list[str]:
    """Whom a card of ``player`` may target: another player (an opponent with Team Tactics);
    with Right Hand Man only the player on the right."""
    targets = opponents(state, player)
    if state["rules"].get("right_hand") and len(state["players"]) >= 3:
        right = right_of(state, player)
        targets = [p for p in targets if p == right]
    return targets


def all_cards(state: dict) -> list[str]:
    out = list(state["deck"]) + list(state["barracks"]) + list(state["discard"])
    for p in state["players"]:
        out += state["hands"][p] + state["play"][p]
        for s in state["sets"][p]:
            out += s
    return out


def locate(state: dict, card: str) -> tuple:
    """Where a card is: ('deck',), ('barracks',), ('discard',), ('hand', p), ('play', p),
    ('set', p, index)."""
    for zone in ("deck", "barracks", "discard"):
        if card in state[zone]:
            return (zone,)
    for p in state["players"]:
        if card in state["hands"][p]:
            return ("hand", p)
        if card in state["play"][p]:
            return ("play", p)
        for i, s in enumerate(state["sets"][p]):
            if card in s:
                return ("set", p, i)
    return ("nowhere",)


# ================================================================================ scoring
def zone_points(cat: Catalogue, state: dict, player: str) -> dict[str, int]:
    play = sum(cat.card[c].score("play") for c in state["play"][player])
    sets = sum(cat.card[c].score("set") for s in state["sets"][player] for c in s)
    hand = sum(cat.card[c].score("hand") for c in state["hands"][player])
    return {"play": play, "set": sets, "hand": hand}


def bonus_points(cat: Catalogue, state: dict, player: str) -> int:
    cid = state["characters"].get(player)
    if not cid:
        return 0
    ch = cat.character[cid]
    zones = {"play": list(state["play"][player]), "hand": list(state["hands"][player]),
             "set": [c for s in state["sets"][player] for c in s]}
    return sum(b.score(zones, state["sets"][player], lambda c: cat.card[c]) for b in ch.bonus)


def final_scores(cat: Catalogue, state: dict) -> dict[str, dict[str, int]]:
    out = {}
    for p in state["players"]:
        z = zone_points(cat, state, p)
        b = bonus_points(cat, state, p)
        out[p] = {"play": z["play"], "set": z["set"], "hand": z["hand"], "bonus": b,
                  "total": z["play"] + z["set"] + z["hand"] + b,
                  "sets": len(state["sets"][p]), "in_play": len(state["play"][p]),
                  "in_hand": len(state["hands"][p])}
    return out


def rank(scores: dict[str, dict[str, int]], sides: list[list[str]],
         words: int = 0) -> tuple[list[str], str]:
    """The winning side(s) by total, then most sets, most cards in play, most cards in hand.

    ``sides`` lists the competitors (single players, or teams). Returns the winners (players)
    and the reason in words, those of rules edition ``words``: from edition 2 a team's total
    is called so ('the highest team total, 28', not 'the highest score', which no member
    has), and a tie-breaker's figure follows a comma, where earlier editions put it in
    parentheses that the end-of-game event nests in its own."""
    nested = words < 2

    def key(side):
        return tuple(sum(scores[p][k] for p in side) for k in ("total", "sets", "in_play",
                                                                 "in_hand"))
    keys = {tuple(side): key(side) for side in sides}
    best_total = max(k[0] for k in keys.values())
    tied = [s for s in sides if keys[tuple(s)][0] == best_total]
    teams = any(len(side) > 1 for side in sides)
    reason = (f"the highest team total, {best_total}" if teams and not nested else
              f"the highest score, {best_total}")
    labels = ("most sets in the Castle", "most cards in play", "most cards in hand")
    for level, label in enumerate(labels, start=1):
        if len(tied) < 2:
            break
        top = max(keys[tuple(s)][level] for s in tied)
        narrowed = [s for s in tied if keys[tuple(s)][level] == top]
        if len(narrowed) < len(tied):
            reason = (f"tied on {best_total}; the tie-breaker is {label} ({top})" if nested
                      else f"tied on {best_total}; the tie-breaker is {label}, {top}")
        tied = narrowed
    if len(tied) > 1:
        reason = f"tied on {best_total} and on every tie-breaker: the game ends in a tie"
    winners = [p for s in tied for p in s]
    return winners, reason


# ================================================================================ the machine
class Machine:
    """Runs the task stack of one processed turn (or of the game's creation)."""

    def __init__(self, cat: Catalogue, state: dict, ctx: TurnContext | None):
        self.cat = cat
        self.s = state
        self.ctx = ctx
        self.started: list[str] = []      # players whose turn began in this processing
        self.log: list[dict] = []         # events when there is no context (creation)

    # -- context helpers --------------------------------------------------------------------
    @property
    def wait_mode(self) -> bool:
        return self.ctx is not None and self.ctx.wait_for_orders

    def event(self, text: str, to: list[str] | None = None, kind: str = "info", **data) -> None:
        if self.ctx is not None:
            self.ctx.event(text, to=to, kind=kind, **data)
        else:
            self.log.append({"kind": kind, "text": text,
                             "to": sorted(to) if to is not None else "public"})

    def decided(self, player: str, kind: str, answer: str, source: str) -> None:
        if self.ctx is not None:
            self.ctx.decided(player, kind, answer, source)

    def name(self, card: str) -> str:
        c = self.cat.card[card]
        return f"{c.name} ({c.label})"

    def names(self, cards: list[str]) -> str:
        return ", ".join(self.name(c) for c in cards) if cards else "nothing"

    def are(self, cards: list[str]) -> str:
        """' is' or ' are' before 'not in your hand' (from rules edition 2; earlier editions
        said 'Red Squire (...) not in your hand', without a verb)."""
        if edition(self.s) < 2:
            return ""
        return " is" if len(cards) == 1 else " are"

    def card(self, cid: str) -> Card:
        return self.cat.card[cid]

    # -- moving cards -----------------------------------------------------------------------
    def remove(self, card: str) -> tuple:
        where = locate(self.s, card)
        zone = where[0]
        if zone in ("deck", "barracks", "discard"):
            self.s[zone].remove(card)
        elif zone == "hand":
            self.s["hands"][where[1]].remove(card)
        elif zone == "play":
            self.s["play"][where[1]].remove(card)
        elif zone == "set":
            self.s["sets"][where[1]][where[2]].remove(card)
        return where

    def move(self, card: str, to: str, owner: str | None = None,
             refill: bool = True) -> tuple:
        """Move a card; afterwards refill the Barracks (unless ``refill`` is False: the caller
        refills once it has taken every card a step takes) and break up sets left short."""
        where = self.remove(card)
        if to == "hand":
            self.s["hands"][owner].append(card)
        elif to == "play":
            self.s["play"][owner].append(card)
        elif to == "discard":
            self.s["discard"].append(card)
        else:
            raise ValueError(to)
        if where[0] == "set":
            self.check_sets(where[1])
        if where[0] == "barracks" and refill:
            self.refill()
        return where

    def check_sets(self, player: str) -> None:
        """A set that no longer holds three cards is invalid: what is left returns to play."""
        keep = []
        for s in self.s["sets"][player]:
            if len(s) >= 3:
                keep.append(s)
                continue
            self.s["play"][player].extend(s)
            self.event(f"{player}'s set is broken: {self.names(s) if s else 'no card'} "
                       f"{'returns' if len(s) == 1 else 'return'} to {player}'s play zone.",
                       kind="set-broken", player=player)
        self.s["sets"][player] = keep

    def draw(self, player: str, n: int, why: str = "", lead: str | None = None,
             kind: str = "draw", prefix: str = "") -> list[str]:
        """``player`` draws ``n`` cards, said in one public line: '{player} draws 2 cards', or
        with ``lead`` (what the player did first) '{lead} and draws 2 cards'; ``prefix`` comes
        first ('Attack set: ')."""
        got = []
        for _ in range(n):
            if not self.s["deck"]:
                break
            got.append(self.s["deck"].pop(0))
            self.s["hands"][player].append(got[-1])
        short = n - len(got)
        subject = prefix + (f"{lead} and" if lead else player)
        text = f"{subject} draws {len(got)} card{'s' if len(got) != 1 else ''}{why}."
        if short and not got and edition(self.s) >= 2:
            # from rules edition 2 'draws nothing: the deck is empty', not 'draws 0 cards (the
            # deck is empty, 2 fewer than asked)'
            text = f"{subject} draws nothing{why}: the deck is empty."
        elif short:
            text = text[:-1] + f" (the deck is empty, {short} fewer than asked)."
        self.event(text, kind=kind, player=player, count=len(got))
        if got:
            self.event(f"You draw {self.names(got)}.", to=[player], kind="draw-private")
            if not self.s["deck"]:
                self.trigger_end("deck")
        return got

    def refill(self) -> None:
        added = []
        while len(self.s["barracks"]) < BARRACKS and self.s["deck"]:
            card = self.s["deck"].pop(0)
            self.s["barracks"].append(card)
            added.append(card)
        if added:
            self.event(f"The Barracks are refilled from the deck: {self.names(added)}.",
                       kind="refill")
            if not self.s["deck"]:
                self.trigger_end("deck")

    # -- the end ----------------------------------------------------------------------------
    def trigger_end(self, reason: str) -> None:
        rules = self.s["rules"]
        if rules.get("rounds") or self.s["end"] is not None:
            return
        current = self.s["current"]
        self.s["end"] = {"reason": reason, "player": current}
        what = ("the draw deck is empty" if reason == "deck" else
                f"{current} has formed a third set" if reason == "sets" else
                f"{current}'s team has formed {team_set_goal(self.s)} sets")
        if edition(self.s) >= 2 and left_of(self.s, current) == self.s["first"]:
            # rules K: the last player before the starting player ends the game with this
            # turn; earlier editions said 'the others play until ...' here too, where nobody does
            self.event(f"The end of the game is triggered: {what}. {current} finishes this "
                       f"turn, the last one: the turn would pass next to {self.s['first']}, "
                       "who started the game, so the game is scored after it.",
                       kind="end-triggered")
            return
        self.event(f"The end of the game is triggered: {what}. {current} finishes this turn; "
                   f"the others play until the turn would pass to {self.s['first']}, who "
                   "started the game; then the game is scored.", kind="end-triggered")

    def check_set_goal(self, player: str) -> bool:
        """After a set was formed: the third set (or the team's goal) triggers the end, or with
        Three's a Charm wins at once. Returns True if the game is over now."""
        rules = self.s["rules"]
        if rules.get("teams"):
            team = team_of(self.s, player)
            count = sum(len(self.s["sets"][p]) for p in team)
            goal = team_set_goal(self.s)
        else:
            team = [player]
            count = len(self.s["sets"][player])
            goal = 3
        if count < goal:
            return False
        if rules.get("charm"):
            # from rules edition 2 a team of three is 'A, B and C' (earlier 'A and B and C')
            who = listed(team) if edition(self.s) >= 2 else " and ".join(team)
            self.event(f"Three's a Charm: {who} {'wins' if len(team) == 1 else 'win'} at once "
                       f"with {count} sets.", kind="charm")
            self.finish(team, "Three's a Charm: " + (f"{player} formed a third set" if len(team)
                        == 1 else f"the team {who} reached {goal} sets"),
                        charm=True)
            return True
        self.trigger_end("sets" if not rules.get("teams") else "team-sets")
        return False

    def finish(self, winners: list[str] | None, reason: str | None, charm: bool = False) -> None:
        cat, s = self.cat, self.s
        scores = final_scores(cat, s)
        teams = s["rules"].get("teams")
        sides = [list(t) for t in teams] if teams else [[p] for p in s["players"]]
        if winners is None:
            winners, reason = rank(scores, sides, words=edition(s))
        s["phase"] = "over"
        s["stack"] = []
        s["pending"] = None
        s["plans"] = {p: [] for p in s["players"]}
        s["result"] = {"winners": winners, "reason": reason, "scores": scores,
                       "teams": [list(t) for t in teams] if teams else None,
                       "team_totals": {" + ".join(t): sum(scores[p]["total"] for p in t)
                                       for t in teams} if teams else None,
                       "charm": charm}
        for p in s["players"]:
            ch = cat.character[s["characters"][p]]
            sc = scores[p]
            # from rules edition 2 the bonus is quoted as the card's words, whose 'your' is
            # the revealing player's, not the reader's
            bonus = (f"bonus: \"{ch.bonus_text}\"" if edition(s) >= 2
                     else ch.bonus_text.rstrip('.'))
            # from rules edition 3 an empty hand is 'and an empty hand', not 'and the hand
            # nothing'
            hand = ("an empty hand" if not s["hands"][p] and edition(s) >= 3 else
                    f"the hand {self.names(s['hands'][p])}")
            self.event(f"{p} reveals {ch.name} ({bonus}) and {hand}. "
                       f"Score: play {sc['play']}, sets {sc['set']}, "
                       f"hand {sc['hand']}, bonus {sc['bonus']}: {sc['total']}.", kind="score",
                       player=p)
        # from rules edition 2 'Anna, Bert and Cora' (earlier 'Anna and Bert and Cora')
        label = listed(winners) if edition(s) >= 2 else " and ".join(winners)
        self.event(f"The game is over. {'Winner' if len(winners) == 1 else 'Winners'}: "
                   f"{label} ({reason}).", kind="end")

    # -- running ----------------------------------------------------------------------------
    def run(self) -> None:
        handlers = {"turn": self.t_turn, "act": self.t_act, "effect": self.t_effect,
                    "trigger": self.t_trigger, "end": self.t_end}
        guard = 0
        while self.s["phase"] == "play" and self.s["stack"]:
            guard += 1
            if guard > 100000:
                raise RuntimeError("the task stack does not shrink")
            task = self.s["stack"][-1]
            try:
                handlers[task["t"]](task)
            except Wait:
                return

    def push(self, task: dict) -> None:
        self.s["stack"].append(task)

    def pop(self, task: dict) -> None:
        assert self.s["stack"][-1] is task
        self.s["stack"].pop()

    def wait(self, player: str, kind: str, **details) -> None:
        self.s["pending"] = dict({"player": player, "kind": kind}, **details)
        if self.ctx is not None:
            self.ctx.await_orders(player)
        raise Wait()

    def answer(self, player: str, kind: str) -> dict | None:
        """The answer to the pending question of ``player`` of ``kind`` (submitted since)."""
        p = self.s.get("pending")
        if p and p["player"] == player and p["kind"] == kind and p.get("answer") is not None:
            return p["answer"]
        return None

    def clear_pending(self) -> None:
        self.s["pending"] = None

    # -- a player's turn --------------------------------------------------------------------
    def begin_turn(self, player: str) -> None:
        self.push({"t": "turn", "p": player})

    def t_turn(self, task: dict) -> None:
        p = task["p"]
        s = self.s
        s["current"] = p
        s["turn"] = {"actions": 0, "character": False, "recycle": False, "sets": 0}
        self.started.append(p)
        self.event(f"{p}'s turn begins.", kind="turn", player=p)
        short = HAND_START - len(s["hands"][p])
        if short > 0:
            self.draw(p, short, " at the start of the turn")
        self.pop(task)
        self.push({"t": "act", "p": p})

    def t_act(self, task: dict) -> None:
        s = self.s
        p = task["p"]
        t = s["turn"]
        plan = s["plans"].setdefault(p, [])
        if t["actions"] >= 2:
            # the two actions are done: what is left of the plan were alternatives, except sets
            # formed as free actions (optional rule G), which may still follow
            free = s["rules"].get("free_sets")
            while plan and not (free and plan[0]["kind"] == "set"):
                plan.pop(0)
            if not plan:
                self.pop(task)
                self.push({"t": "end", "p": p})
                return
            action = plan.pop(0)
            reason = self.impossible(p, action)
            if reason:
                self.event(f"Your order '{action['text']}' was skipped: {reason}.", to=[p],
                           kind="skipped")
                return
            self.decided(p, "action", action["text"], "orders")
            self.perform(p, action)
            return
        if not plan and self.ctx is not None and p in self.ctx.orders and p not in self.ctx.used:
            orders = self.ctx.orders[p]
            self.ctx.use_orders(p)
            plan.extend(o.data for o in orders.actions)
        source = "orders"
        if not plan:
            if p in self.started or self.wait_mode or self.ctx is None:
                self.wait(p, "turn", done=t["actions"])
            action = self.default_action(p)
            source = "default"
            self.event(f"No orders from you for this action: {action['text']} (the default).",
                       to=[p], kind="default")
        else:
            action = plan.pop(0)
        if s.get("pending") and s["pending"]["player"] == p and s["pending"]["kind"] == "turn":
            self.clear_pending()
        reason = self.impossible(p, action)
        if reason:
            self.event(f"Your order '{action['text']}' was skipped: {reason}.", to=[p],
                       kind="skipped")
            return
        self.decided(p, "action", action["text"], source)
        self.perform(p, action)

    def default_action(self, p: str) -> dict:
        if self.s["deck"]:
            return {"kind": "draw", "text": "draw"}
        if self.s["barracks"]:
            best = best_card(self.cat, self.s["barracks"], "hand")
            return {"kind": "recruit", "card": best,
                    "text": f"recruit {self.cat.card[best].name}"}
        # from rules edition 2 said as the order form writes it ('discard none' draws nothing)
        return {"kind": "exchange", "cards": [], "text": "discard none" if edition(self.s) >= 2
                else "discard none then draw"}

    # -- actions ----------------------------------------------------------------------------
    def impossible(self, p: str, a: dict) -> str | None:
        s = self.s
        kind = a["kind"]
        hand = s["hands"][p]
        if kind == "play":
            if a["card"] not in hand:
                # from rules edition 2 with its type label, as the other skipped lines name
                # their cards ('Flame Empress (Crimson Princess 3) is not in your hand')
                shown = (self.name(a["card"]) if edition(s) >= 2 else
                         self.cat.card[a["card"]].name)
                return f"{shown} is not in your hand"
            return self.effect_problem(p, self.cat.card[a["card"]].effect, a)
        if kind == "recruit":
            if a["card"] not in s["barracks"]:
                shown = (self.name(a["card"]) if edition(s) >= 2 else       # as a play line
                         self.cat.card[a["card"]].name)
                return f"{shown} is not in the Barracks"
        if kind == "character":
            if s["turn"]["character"]:
                return "the character action may be used only once per turn"
            ch = self.cat.character[s["characters"][p]]
            return self.effect_problem(p, ch.action, a)
        if kind == "set":
            cards = a["cards"]
            in_hand = all(c in hand for c in cards)
            in_play = all(c in s["play"][p] for c in cards)
            zone = a.get("zone")
            if zone is None:
                zone = "hand" if in_hand else "play" if in_play else None
            if zone is None:
                return ("the three cards of a set must all be in your hand or all in your play "
                        "zone")
            if not (in_hand if zone == "hand" else in_play):
                where = hand if zone == "hand" else s["play"][p]
                missing = [self.name(c) if edition(s) >= 2 else self.cat.card[c].name
                           for c in cards if c not in where]     # edition 2: with type labels
                return (f"{', '.join(missing)} {'is' if len(missing) == 1 else 'are'} not in "
                        f"your {'hand' if zone == 'hand' else 'play zone'}")
            a["zone"] = zone
            if not shared_aspects([self.cat.card[c] for c in cards]):
                return "the three cards share no number, colour or type"
        if kind == "exchange":
            missing = [c for c in a["cards"] if c not in hand]
            if missing:
                return f"{self.names(missing)}{self.are(missing)} not in your hand"
        if kind == "recycle":
            if not s["rules"].get("best_defense"):
                return "the Recycle action belongs to the optional rule The Best Defense"
            if s["turn"]["recycle"]:
                return "Recycle may be used only once per turn"
            missing = [c for c in a["cards"] if c not in hand and c not in s["play"][p]]
            if missing:
                return f"{self.names(missing)}{self.are(missing)} not in your hand or play zone"
        return None

    def effect_problem(self, p: str, effect: Effect, a: dict) -> str | None:
        if effect.targets:
            targets = legal_targets(self.s, p)
            target = a.get("at")
            if target is None and len(targets) == 1:
                a["at"] = targets[0]
            elif target is None and not targets and edition(self.s) >= 3:
                pass    # from rules edition 3 played at nobody (docs/mayhem.md, decision 26)
            elif target not in targets:
                if not targets:
                    return "there is no player this card may target"
                return f"the target must be {' or '.join(targets)}"
        alt = a.get("choose")
        if effect.choose and (alt is None or not 0 <= alt < len(effect.alternatives)):
            a["choose"] = 0
        return None

    def perform(self, p: str, a: dict) -> None:
        s = self.s
        kind = a["kind"]
        t = s["turn"]
        free = kind == "set" and s["rules"].get("free_sets")
        if not free:
            t["actions"] += 1
        if kind == "draw":
            self.draw(p, 1)
        elif kind == "recruit":
            self.event(f"{p} recruits {self.name(a['card'])} from the Barracks.", kind="recruit",
                       player=p, card=a["card"])
            self.move(a["card"], "hand", p)
        elif kind == "play":
            card = self.cat.card[a["card"]]
            self.move(a["card"], "play", p)
            target = self.aimed(p, card.effect, a)
            choice = f", choosing {'AB'[a['choose']]}" if card.effect.choose else ""
            if choice and edition(s) >= 3:
                # from rules edition 3 with what the letter stands for, 'choosing B: draw 3
                # cards', which a reader without the card's text could not tell
                said = sequence_text(card.effect.alternatives[a["choose"]]).rstrip(".")
                choice += f": {said[:1].lower()}{said[1:]}"
            self.event(f"{p} plays {self.name(a['card'])}{target}{choice}.", kind="play",
                       player=p, card=a["card"], target=a.get("at"))
            self.push(self.effect_task(p, card.effect, a, source="card", card=a["card"]))
        elif kind == "character":
            t["character"] = True
            ch = self.cat.character[s["characters"][p]]
            target = self.aimed(p, ch.action, a)
            self.event(f"{p} uses the character action of {ch.face}{target} (no Defense "
                       "against it).", kind="character", player=p, target=a.get("at"))
            self.push(self.effect_task(p, ch.action, a, source="character", card=None))
        elif kind == "set":
            self.form_set(p, a, free)
        elif kind == "exchange":
            if not a["cards"]:
                # from rules edition 2 a pass, which no later discard (the second action, the
                # zone limits) seems to contradict; earlier 'without discarding anything'
                self.event(f"{p} passes: Discard then Draw with no cards." if edition(s) >= 2
                           else f"{p} uses Discard then Draw without discarding anything.",
                           kind="exchange", player=p)
                return
            if edition(s) >= 2:     # one line: 'Anna discards X, Y and draws 2 cards.'
                for c in a["cards"]:
                    self.move(c, "discard")
                self.draw(p, len(a["cards"]), lead=f"{p} discards {self.names(a['cards'])}",
                          kind="exchange")
                return
            self.event(f"{p} discards {self.names(a['cards'])} and draws as many.",
                       kind="exchange", player=p)
            for c in a["cards"]:
                self.move(c, "discard")
            self.draw(p, len(a["cards"]))
        elif kind == "recycle":
            t["recycle"] = True
            for c in a["cards"]:
                self.move(c, "discard")
            self.event(f"{p} recycles: discards {self.names(a['cards'])}.", kind="recycle",
                       player=p)
            pool = [c for c in s["discard"] if self.cat.card[c].type == "Defense"]
            pick = a.get("defense") if a.get("defense") in pool else (
                best_card(self.cat, pool, "hand") if pool else None)
            if pick:
                self.move(pick, "hand", p)
                self.event(f"{p} captures {self.name(pick)} from the discard pile.",
                           kind="capture", player=p)
            else:
                self.event("There is no Defense card in the discard pile to capture.",
                           kind="recycle")

    def aimed(self, p: str, effect: Effect, a: dict) -> str:
        """' at Bert' after a play or character line, or from rules edition 3, when no player
        may be targeted (Right Hand Man with a teammate on the right), ' at nobody: ...'."""
        if not effect.targets:
            return ""
        if a.get("at") is None:
            right = right_of(self.s, p)
            return (f" at nobody: with Right Hand Man only {right}, on {p}'s right, may be "
                    f"targeted, and {right} is on {p}'s team")
        return f" at {a['at']}"

    def form_set(self, p: str, a: dict, free: bool) -> None:
        cards = a["cards"]
        zone = a["zone"]
        for c in cards:
            self.remove(c)
        self.s["sets"][p].append(list(cards))
        aspects = shared_aspects([self.cat.card[c] for c in cards])
        how = ", ".join(aspects)
        self.event(f"{p} forms a set from {'hand' if zone == 'hand' else 'play'} "
                   f"({'same ' + how}){' as a free action' if free else ''}: "
                   f"{self.names(cards)}.", kind="set", player=p, cards=cards, aspects=aspects)
        if self.check_set_goal(p):
            return
        fired = set_triggers([self.cat.card[c] for c in cards])
        number = self.cat.card[cards[0]].number
        chosen = [tr for tr in a.get("triggers", []) if tr["name"] in fired]
        order = [tr["name"] for tr in chosen] + [f for f in fired
                                                if f not in [tr["name"] for tr in chosen]]
        by_name = {tr["name"]: tr for tr in chosen}
        if order:
            self.event(f"Set triggers, in {p}'s order: {', '.join(order)}.", kind="triggers",
                       player=p)
        for name in reversed(order):
            self.push({"t": "trigger", "p": p, "name": name, "number": number,
                       "choice": by_name.get(name)})

    # -- card text --------------------------------------------------------------------------
    def effect_task(self, p: str, effect: Effect, a: dict, *, source: str,
                    card: str | None) -> dict:
        alt = a.get("choose") or 0
        return {"t": "effect", "p": p, "source": source, "card": card,
                "effect": effect.source, "alt": alt, "target": a.get("at"),
                "upto": a.get("upto"), "taking": list(a.get("taking") or []),
                "phase": "defend" if source == "card" else "steps",
                "queue": None, "qi": 0, "protected": [], "si": 0, "sub": 0}

    def effect_of(self, task: dict) -> Effect:
        if task["card"]:
            return self.cat.card[task["card"]].effect
        return self.cat.character[self.s["characters"][task["p"]]].action

    def owners(self, task: dict, owner: str) -> list[str]:
        """The players a place's owner word names, in the order they act."""
        s, p = self.s, task["p"]
        if owner == "own":
            return [p]
        if owner == "target":
            return [task["target"]] if task["target"] else []
        if owner == "each":
            if s["rules"].get("teams"):
                return [q for q in seats_from(s, s["current"]) if q in opponents(s, p)]
            return seats_from(s, s["current"])
        if owner == "others":
            return [q for q in seats_from(s, left_of(s, p)) if q in opponents(s, p)]
        return []

    def touched(self, task: dict, player: str) -> dict[str, bool]:
        """What the card's text would do to ``player``: lose cards (and from which zones), or
        draw. Worked out on the position now (a hand is looked at privately)."""
        effect = self.effect_of(task)
        out = {"lose": False, "draw": False, "zones": []}
        for step in effect.steps(task["alt"]):
            if step.op == "draw":
                if step.who != "you" and player in self.draw_players(task, step):
                    out["draw"] = True
                continue
            for place in step.places:
                if place.owner is None or place.owner == "own":
                    continue
                if player not in self.owners(task, place.owner):
                    continue
                pool = self.zone_cards(player, place.zone)
                if any(step.filter.matches(self.cat.card[c]) for c in pool):
                    out["lose"] = True
                    if place.zone not in out["zones"]:
                        out["zones"].append(place.zone)
        return out

    def zone_cards(self, player: str | None, zone: str) -> list[str]:
        if zone == "barracks":
            return list(self.s["barracks"])
        if zone == "discard":
            return list(self.s["discard"])
        if zone == "hand":
            return list(self.s["hands"][player])
        if zone == "play":
            return list(self.s["play"][player])
        return [c for st in self.s["sets"][player] for c in st]

    def draw_players(self, task: dict, step: Step) -> list[str]:
        p = task["p"]
        if step.who == "you":
            return [p]
        if step.who == "target":
            return [task["target"]] if task["target"] else []
        return self.owners(task, step.who)

    def t_effect(self, task: dict) -> None:
        if task["phase"] == "defend":
            self.defend_round(task)
            task["phase"] = "steps"
        steps = self.effect_of(task).steps(task["alt"])
        while task["si"] < len(steps):
            self.run_step(task, steps[task["si"]])
            task["si"] += 1
            task["sub"] = 0
        self.pop(task)

    # -- Defense ----------------------------------------------------------------------------
    def defend_round(self, task: dict) -> None:
        s = self.s
        if task["queue"] is None:
            effect = self.effect_of(task)
            involved: list[str] = []
            for step in effect.steps(task["alt"]):
                who = []
                if step.op == "draw":
                    if step.who != "you":
                        who = self.draw_players(task, step)
                else:
                    for place in step.places:
                        if place.owner not in (None, "own"):
                            who += self.owners(task, place.owner)
                for q in who:
                    if q not in involved:
                        involved.append(q)
            task["queue"] = [q for q in seats_from(s, s["current"]) if q in involved]
        while task["qi"] < len(task["queue"]):
            q = task["queue"][task["qi"]]
            card = self.defense_choice(task, q)
            if card:
                self.move(card, "discard")
                task["protected"].append(q)
                self.event(f"{q} discards {self.name(card)} from hand: the text of "
                           f"{self.cat.card[task['card']].name} leaves {q} and {q}'s cards "
                           "alone.", kind="defense", player=q, card=card)
            task["qi"] += 1
            if self.s.get("pending") and self.s["pending"]["player"] == q and \
                    self.s["pending"]["kind"] == "defense":
                self.clear_pending()

    def defense_choice(self, task: dict, q: str) -> str | None:
        """The Defense card ``q`` discards against this card, or None."""
        s = self.s
        defenses = [c for c in s["hands"][q] if self.cat.card[c].type == "Defense"]
        if not defenses:
            return None
        hit = self.touched(task, q)
        if not hit["lose"] and not hit["draw"]:
            return None
        card = self.cat.card[task["card"]]
        cheapest = min(defenses, key=lambda c: (self.cat.card[c].score("hand"),
                                                 self.cat.order[c]))
        ans = self.answer(q, "defense")
        if ans is not None:
            use = ans.get("card") if ans.get("card") in defenses else cheapest
            self.decided(q, "defense", f"defend with {self.cat.card[use].name}"
                         if ans["defend"] else "no defense", "orders")
            if not ans["defend"] and edition(s) >= 2:
                # from rules edition 2 the answer is echoed to its player, whose report would
                # otherwise show nothing of it (a Defense used is public anyway)
                self.event(f"You do not defend against {self.name(task['card'])}, as you "
                           "answered.", to=[q], kind="defense-answer")
            return use if ans["defend"] else None
        for rule in s["standing"][q].get("defend", []):
            if rule.get("by") and rule["by"] != task["p"]:
                continue
            if rule.get("against") and card.type not in rule["against"]:
                continue
            if rule.get("from") and rule["from"] not in hit["zones"]:
                continue
            if rule["defend"]:
                use = rule.get("with") if rule.get("with") in defenses else cheapest
                self.decided(q, "defense", f"defend with {self.cat.card[use].name}", "standing")
                return use
            self.decided(q, "defense", "no defense", "standing")
            return None
        if self.wait_mode:
            self.wait(q, "defense", card=task["card"], actor=task["p"],
                      defenses=defenses)
        use = cheapest if hit["lose"] else None
        self.decided(q, "defense", f"defend with {self.cat.card[use].name}" if use
                     else "no defense", "default")
        return use

    # -- steps ------------------------------------------------------------------------------
    def run_step(self, task: dict, step: Step) -> None:
        protected = task["protected"]
        if step.op == "draw":
            who = self.draw_players(task, step)
            while task["sub"] < len(who):
                q = who[task["sub"]]
                task["sub"] += 1
                if q in protected:
                    if edition(self.s) < 3:
                        self.event(f"{q} is protected and draws nothing.", kind="protected")
                    elif q == next(x for x in who if x in protected):
                        # from rules edition 3 one line for every protected player of the
                        # draw, which adds to their Defense lines without repeating them
                        group = [x for x in who if x in protected]
                        whose = ("The Defense card also keeps" if len(group) == 1 else
                                 "Their Defense cards also keep")
                        self.event(f"{whose} {listed(group)} from drawing.", kind="protected")
                    continue
                self.draw(q, step.n)
            return
        if all(pl.owner is None for pl in step.places):
            self.open_step(task, step, None, [pl.zone for pl in step.places])
            return
        owners: list[str] = []
        for pl in step.places:
            for q in self.owners(task, pl.owner):
                if q not in owners:
                    owners.append(q)
        if task["target"] is None and any(pl.owner == "target" for pl in step.places):
            self.event("The card has no target, so that part does nothing.", kind="nothing")
        while task["sub"] < len(owners):
            q = owners[task["sub"]]
            zones = [pl.zone for pl in step.places if q in self.owners(task, pl.owner)]
            if q in protected:
                if not edition(self.s):         # a game of edition 0: said at every step
                    self.event(f"{q} is protected by a Defense card.", kind="protected")
                elif edition(self.s) >= 3:
                    pass    # from rules edition 3 the Defense line alone says so (it leaves
                    # q and q's cards alone), not again as 'q is protected by a Defense card.'
                elif q not in task.setdefault("told_protected", []):    # once per card
                    task["told_protected"].append(q)
                    self.event(f"{q} is protected by a Defense card.", kind="protected")
            elif step.hidden:
                self.hand_step(task, step, q)
            else:
                self.open_step(task, step, q, zones)
            task["sub"] += 1

    def count_for(self, task: dict, step: Step, available: int) -> int:
        if step.all:
            return available
        n = step.n
        if step.upto and task.get("upto") is not None:
            n = min(n, max(0, int(task["upto"])))
        return min(n, available)

    def hand_step(self, task: dict, step: Step, q: str) -> None:
        """Cards from ``q``'s hand: ``q`` chooses which (N.4), as many as there are (N.2)."""
        p = task["p"]
        pool = [c for c in self.s["hands"][q] if step.filter.matches(self.cat.card[c])]
        what = step.filter.text(False)
        whats = step.filter.text(True)
        k = self.count_for(task, step, len(pool))
        if not pool:
            self.event(f"{q} has no {what} in hand.", kind="none-in-hand", player=q)
            return
        if k == 0:
            self.event(f"{p} takes none (up to {step.n}).", kind="upto")
            return
        if k >= len(pool):
            chosen = list(pool)
        else:
            chosen = self.hand_choice(q, pool, k, task if q == p else None, "give",
                                      f"{step.op} {k} {whats if k != 1 else what} from your hand")
        verb = {"capture": "gives", "lure": "gives", "destroy": "discards"}[step.op]
        dest = {"capture": f" to {p}'s hand", "lure": f" to {p}'s play zone",
                "destroy": ""}[step.op]
        for c in chosen:
            if step.op == "capture":
                self.move(c, "hand", p)
            elif step.op == "lure":
                self.move(c, "play", p)
            else:
                self.move(c, "discard")
        count = f"{len(chosen)} {whats if len(chosen) != 1 else what}"
        asked = None if step.all else (min(step.n, int(task["upto"])) if step.upto and
                                       task.get("upto") is not None else step.n)
        allof = f"; that is all {q} has" if asked is not None and len(chosen) < asked else ""
        if step.op == "capture":
            self.event(f"{q} {verb} {count} from hand{dest}{allof}.", kind="give", player=q,
                       to_player=p, count=len(chosen))
            if q != p:
                self.event(f"{q} gives {self.names(chosen)} to {p}.", to=[q, p],
                           kind="give-private")
        else:
            self.event(f"{q} {verb} {self.names(chosen)} from hand{dest}{allof}.", kind="give",
                       player=q, to_player=p, cards=chosen)

    def hand_choice(self, q: str, pool: list[str], k: int, own_task: dict | None, kind: str,
                    what: str) -> list[str]:
        """``q`` chooses ``k`` cards of ``pool`` (their hand): the answer to a pending question,
        cards the orders named ('taking'), the standing give/keep order, or the default."""
        asked = bool(self.s.get("pending")) and self.s["pending"]["player"] == q and \
            self.s["pending"]["kind"] == kind
        ans = self.answer(q, kind)
        chosen: list[str] | None = None
        if ans is not None:
            named = [c for c in ans.get("cards", []) if c in pool]
            if len(named) >= k:
                chosen, source = named[:k], "orders"
        if chosen is None and own_task is not None:
            named = [c for c in own_task.get("taking", []) if c in pool]
            if len(named) >= k:
                chosen, source = named[:k], "orders"
        policy = self.s["standing"][q].get("hand")
        if chosen is None:
            if policy is None and self.wait_mode:
                self.wait(q, kind, pool=list(pool), count=k, what=what)
            chosen = give_order(self.cat, pool, policy, "hand")[:k]
            source = "standing" if policy is not None else "default"
        self.decided(q, kind, ", ".join(self.cat.card[c].name for c in chosen), source)
        if asked:
            self.clear_pending()
        return chosen

    def open_step(self, task: dict, step: Step, q: str | None, zones: list[str]) -> None:
        """Cards from open places: the player resolving the text chooses (orders, else the
        card worth most)."""
        p = task["p"]
        pool: list[str] = []
        for z in zones:
            pool += [c for c in self.zone_cards(q, z) if step.filter.matches(self.cat.card[c])]
        # from rules edition 2 a card's text never takes the card itself, which stays in play
        # once played (rules N.3; docs/mayhem.md, decision 22): Silver Mirror captures another
        # card of its player's play zone, not itself
        itself = task.get("card") if edition(self.s) >= 2 and task.get("card") in pool else None
        if itself:
            pool.remove(itself)
        what = step.filter.text(False)
        place = " or ".join(
            {"barracks": "the Barracks", "discard": "the discard pile", "play":
             f"{q}'s play zone", "set": f"{q}'s Castle", "hand": "hand"}[z] for z in zones)
        if not pool:
            besides = f" besides {self.cat.card[itself].name} itself" if itself else ""
            self.event(f"There is no {what} in {place}{besides}.", kind="nothing")
            return
        k = self.count_for(task, step, len(pool))
        if k == 0:
            self.event(f"{p} takes none (up to {step.n}).", kind="upto")
            return
        dest_zone = {"capture": "hand", "lure": "play", "destroy": None}[step.op]
        if step.op == "destroy":
            value_zone = "set" if "set" in zones else "play" if q and q != p else "hand"
            if q == p:
                chosen_order = sorted(pool, key=lambda c: (self.cat.card[c].score(
                    "set" if "set" in zones else "play"), self.cat.order[c]))
            else:
                chosen_order = ranked(self.cat, pool, value_zone)
        else:
            chosen_order = ranked(self.cat, pool, dest_zone)
        named = [c for c in task.get("taking", []) if c in pool]
        chosen = named[:k]
        for c in chosen_order:
            if len(chosen) >= k:
                break
            if c not in chosen:
                chosen.append(c)
        if edition(self.s) >= 3 and len(chosen) > 1 and \
                all(c in self.s["barracks"] for c in chosen):
            # from rules edition 3 several cards a step takes from the Barracks (Tidal Wave,
            # Frost Bolt, Tidal Queen) are one line, and the Barracks are refilled once, after
            # the step, as the Attack set's 'destroy every card' is told: the cards were chosen
            # together (rules G.6), so no card refilled between them could be one of them, and
            # the Barracks end the same; earlier editions said each card and each refill
            verb = {"destroy": "destroys", "capture": "captures", "lure": "lures"}[step.op]
            if step.all and step.op == "destroy" and step.filter.any:
                shown = [c for c in self.s["barracks"] if c in chosen]    # as they lay
                said = f"every card in the Barracks: {self.names(shown)}"
            else:
                said = f"{self.names(chosen)} from the Barracks"
            self.event(f"{p} {verb} {said}.", kind=step.op, player=p, cards=list(chosen))
            for c in chosen:
                self.move(c, {"capture": "hand", "lure": "play"}.get(step.op, "discard"), p,
                          refill=False)
            self.refill()
            return
        for c in chosen:
            before = locate(self.s, c)
            src = {"barracks": "the Barracks", "discard": "the discard pile",
                   "play": f"{before[1]}'s play zone" if len(before) > 1 else "",
                   "set": f"{before[1]}'s Castle" if len(before) > 1 else ""}.get(before[0], "")
            if step.op == "destroy":
                self.event(f"{p} destroys {self.name(c)} from {src}.", kind="destroy",
                           player=p, card=c)
            else:
                self.event(f"{p} {'captures' if step.op == 'capture' else 'lures'} "
                           f"{self.name(c)} from {src}.", kind=step.op, player=p, card=c)
            if step.op == "capture":
                self.move(c, "hand", p)
            elif step.op == "lure":
                self.move(c, "play", p)
            else:
                self.move(c, "discard")

    # -- set triggers -----------------------------------------------------------------------
    def t_trigger(self, task: dict) -> None:
        s, p = self.s, task["p"]
        name = task["name"]
        ch = task.get("choice") or {}
        source = "orders" if task.get("choice") else "default"
        cat = self.cat
        self.pop(task)
        if name == "sapphire":
            self.event("Sapphire set: every other player draws a card, starting on the left.",
                       kind="trigger")
            for q in seats_from(s, left_of(s, p))[:-1] if len(s["players"]) > 1 else []:
                self.draw(q, 1)
            return
        if name == "crimson":
            pool = list(s["discard"])
            pick = self.trigger_pick(ch, pool, "play", source, p, name)
            if pick:
                self.event(f"Crimson set: {p} lures {self.name(pick)} from the discard pile.",
                           kind="trigger")
                self.move(pick, "play", p)
            else:
                self.event(f"Crimson set: {p} lures nothing.", kind="trigger")
            return
        if name == "gilded":
            pool = list(s["play"][p])
            if ch:
                pick = ch.get("card") if ch.get("card") in pool else None
            else:
                gains = [(cat.card[c].score("hand") - cat.card[c].score("play"), -cat.order[c], c)
                         for c in pool]
                best = max(gains) if gains else None
                pick = best[2] if best and best[0] > 0 else None
            self.decided(p, "trigger gilded", cat.card[pick].name if pick else "none", source)
            if pick:
                self.event(f"Gilded set: {p} captures {self.name(pick)} from the play zone.",
                           kind="trigger")
                self.move(pick, "hand", p)
            else:
                self.event(f"Gilded set: {p} captures nothing.", kind="trigger")
            return
        if name == "numbers":
            n = task["number"]
            hand = s["hands"][p]
            cards = [c for c in ch.get("cards", []) if c in hand][:n] if ch else []
            self.decided(p, "trigger numbers", ", ".join(cat.card[c].name for c in cards)
                         or "none", source)
            for c in cards:
                self.move(c, "discard")
            if cards and edition(s) >= 2:   # one line, as Discard then Draw
                self.draw(p, len(cards), lead=f"Number set: {p} discards {self.names(cards)}",
                          kind="trigger")
            elif cards:
                self.event(f"Number set: {p} discards {self.names(cards)} and draws as many.",
                           kind="trigger")
                self.draw(p, len(cards))
            else:
                self.event(f"Number set: {p} discards nothing (up to {n} allowed).",
                           kind="trigger")
            return
        if name in ("dragon", "princess", "knight"):
            first, second = TRIGGER_OPTIONS[name]
            kind = DEFENSE_OF[name]
            defense_pool = [c for c in s["barracks"] + s["discard"] if cat.card[c].kind == kind]
            if name == "dragon":
                first_pool = [c for c in s["barracks"] if cat.card[c].type == "Princess"]
            elif name == "princess":
                first_pool = [c for c in s["barracks"] if cat.card[c].type == "Knight"]
            else:
                first_pool = [c for c in s["barracks"] if cat.card[c].type == "Dragon"]
            option = ch.get("option") if ch else None
            if option is None and not ch:
                if name == "knight":
                    option = second if defense_pool else first if first_pool else "none"
                else:
                    option = first if first_pool else second if defense_pool else "none"
            option = option or "none"
            pool = first_pool if option == first else defense_pool if option == second else []
            pick = None
            if pool:
                wanted = ch.get("card") if ch else None
                pick = wanted if wanted in pool else ranked(
                    cat, pool, "play" if (name, option) == ("princess", "knight") else "hand")[0]
            self.decided(p, f"trigger {name}", f"{option} {cat.card[pick].name}" if pick
                         else "none", source)
            label = name.capitalize()
            if not pick:
                self.event(f"{label} set: {p} takes nothing.", kind="trigger")
                return
            where = "the Barracks" if locate(s, pick)[0] == "barracks" else "the discard pile"
            if option == second or name == "dragon":
                self.event(f"{label} set: {p} captures {self.name(pick)} from {where}.",
                           kind="trigger")
                self.move(pick, "hand", p)
            elif name == "princess":
                self.event(f"Princess set: {p} lures {self.name(pick)} from the Barracks.",
                           kind="trigger")
                self.move(pick, "play", p)
            else:
                self.event(f"Knight set: {p} destroys {self.name(pick)} in the Barracks.",
                           kind="trigger")
                self.move(pick, "discard")
            return
        if name == "attack":
            option = ch.get("option", "draw") if ch else "draw"
            n = ch.get("n", 3) if ch else 3
            self.decided(p, "trigger attack", "destroy" if option == "destroy" else f"draw {n}",
                         source)
            if option == "destroy":
                gone = list(s["barracks"])
                for c in gone:
                    self.remove(c)
                    s["discard"].append(c)
                self.event(f"Attack set: {p} destroys every card in the Barracks: "
                           f"{self.names(gone)}.", kind="trigger")
                self.refill()
            else:
                if edition(s) >= 3:
                    # from rules edition 3 one line, 'Attack set: Anna draws 3 cards.', not
                    # 'Attack set: Anna draws up to 3 cards (3).' then 'Anna draws 3 cards.'
                    if n:
                        self.draw(p, n, prefix="Attack set: ", kind="trigger")
                    else:
                        self.event(f"Attack set: {p} draws nothing (up to 3 allowed).",
                                   kind="trigger")
                    return
                self.event(f"Attack set: {p} draws up to 3 cards ({n}).", kind="trigger")
                if n:
                    self.draw(p, n)
            return
        if name == "defense":
            pool = [c for c in s["barracks"] + s["discard"] if cat.card[c].type == "Defense"]
            pick = self.trigger_pick(ch, pool, "hand", source, p, name)
            if pick:
                where = locate(s, pick)[0]
                self.event(f"Defense set: {p} captures {self.name(pick)} from "
                           f"{'the Barracks' if where == 'barracks' else 'the discard pile'}.",
                           kind="trigger")
                self.move(pick, "hand", p)
            else:
                self.event(f"Defense set: {p} captures nothing.", kind="trigger")

    def trigger_pick(self, ch: dict, pool: list[str], zone: str, source: str, p: str,
                     name: str) -> str | None:
        if ch:
            pick = ch.get("card") if ch.get("card") in pool else None
            if ch.get("card") and pick is None and pool:
                self.event(f"Your choice for the {name} trigger was no longer available; the "
                           "default applies.", to=[p], kind="skipped")
                pick = ranked(self.cat, pool, zone)[0]
                source = "default"
        else:
            pick = ranked(self.cat, pool, zone)[0] if pool else None
        self.decided(p, f"trigger {name}", self.cat.card[pick].name if pick else "none", source)
        return pick

    # -- the end of a turn ------------------------------------------------------------------
    def t_end(self, task: dict) -> None:
        s, p = self.s, task["p"]
        over = {"hand": len(s["hands"][p]) - LIMITS["hand"],
                "play": len(s["play"][p]) - LIMITS["play"],
                "sets": len(s["sets"][p]) - LIMITS["sets"]}
        if any(v > 0 for v in over.values()):
            self.limits(p, {k: max(0, v) for k, v in over.items()})
        self.pop(task)
        s["turns"][p] = s["turns"].get(p, 0) + 1
        s["plans"][p] = []
        nxt = left_of(s, p)
        self.event(f"{p}'s turn ends.", kind="turn-end", player=p)
        if nxt == s["first"]:
            s["round"] += 1
        limit = s["rules"].get("rounds") or 0
        if limit and nxt == s["first"] and s["round"] >= limit:
            self.event(f"Round {limit} is complete: the round limit ends the game.",
                       kind="rounds")
            self.finish(None, None)
            return
        if s["end"] is not None and nxt == s["first"]:
            self.finish(None, None)
            return
        self.begin_turn(nxt)

    def limits(self, p: str, over: dict[str, int]) -> None:
        s = self.s
        ans = self.answer(p, "limit")
        policy = s["standing"][p].get("hand")
        chosen: dict[str, list] = {"hand": [], "play": [], "sets": []}
        source = "default"
        if ans is not None:
            named = ans.get("cards", [])
            chosen["hand"] = [c for c in named if c in s["hands"][p]][:over["hand"]]
            chosen["play"] = [c for c in named if c in s["play"][p]][:over["play"]]
            chosen["sets"] = [i for i, st in enumerate(s["sets"][p])
                              if any(c in st for c in named)][:over["sets"]]
            source = "orders"
            self.clear_pending()
        elif policy is None and self.wait_mode:
            self.wait(p, "limit", over=over)
        elif policy is not None:
            source = "standing"
        if len(chosen["hand"]) < over["hand"]:
            rest = [c for c in give_order(self.cat, s["hands"][p], policy, "hand")
                    if c not in chosen["hand"]]
            chosen["hand"] += rest[:over["hand"] - len(chosen["hand"])]
        if len(chosen["play"]) < over["play"]:
            rest = [c for c in give_order(self.cat, s["play"][p], policy, "play")
                    if c not in chosen["play"]]
            chosen["play"] += rest[:over["play"] - len(chosen["play"])]
        if len(chosen["sets"]) < over["sets"]:
            values = sorted(range(len(s["sets"][p])), key=lambda i: (
                sum(self.cat.card[c].score("set") for c in s["sets"][p][i]), i))
            chosen["sets"] += [i for i in values if i not in chosen["sets"]][
                :over["sets"] - len(chosen["sets"])]
        cards = chosen["hand"] + chosen["play"]
        gone_sets = [list(s["sets"][p][i]) for i in sorted(chosen["sets"])]
        self.decided(p, "limit", ", ".join(self.cat.card[c].name for c in
                                           cards + [x for st in gone_sets for x in st]),
                     source)
        for c in cards:
            self.move(c, "discard")
        for i in sorted(chosen["sets"], reverse=True):
            st = s["sets"][p].pop(i)
            s["discard"].extend(st)
        parts = []
        if chosen["hand"]:
            parts.append(f"from hand {self.names(chosen['hand'])}")
        if chosen["play"]:
            parts.append(f"from play {self.names(chosen['play'])}")
        for st in gone_sets:
            parts.append(f"the set {self.names(st)}")
        self.event(f"End of {p}'s turn: over the zone limits, {p} discards "
                   + "; ".join(parts) + ".", kind="limits", player=p)


# ================================================================================ helpers
def team_set_goal(state: dict) -> int:
    return 5 if len(state["players"]) >= 6 else 4


def set_triggers(cards: list[Card]) -> list[str]:
    """The set triggers a set of these cards fires, in the rules' order."""
    aspects = shared_aspects(cards)
    fired = []
    if "colour" in aspects:
        fired.append(cards[0].colour.lower())
    if "number" in aspects:
        fired.append("numbers")
    if "type" in aspects and cards[0].type != "Treasure":
        fired.append(cards[0].type.lower())
    return [t for t in TRIGGERS if t in fired]


def ranked(cat: Catalogue, pool: list[str], zone: str) -> list[str]:
    """Cards worth most in ``zone`` first; ties by card number."""
    return sorted(pool, key=lambda c: (-cat.card[c].score(zone), cat.order[c]))


def best_card(cat: Catalogue, pool: list[str], zone: str) -> str:
    return ranked(cat, pool, zone)[0]


def give_order(cat: Catalogue, pool: list[str], policy: dict | None, zone: str) -> list[str]:
    """The order in which a player gives cards up: their 'give' list first, then the cards
    worth least in ``zone`` (ties by card number), their 'keep' list last."""
    policy = policy or {}
    give = [c for c in policy.get("give", []) if c in pool]
    keep = [c for c in policy.get("keep", []) if c in pool and c not in give]
    rest = sorted((c for c in pool if c not in give and c not in keep),
                  key=lambda c: (cat.card[c].score(zone), cat.order[c]))
    return give + rest + list(reversed(keep))


def set_candidates(cat: Catalogue, cards: list[str]) -> list[tuple[str, str, str]]:
    """Every three cards of ``cards`` (in their order) that form a valid set."""
    return [combo for combo in combinations(cards, 3)
            if shared_aspects([cat.card[c] for c in combo])]
