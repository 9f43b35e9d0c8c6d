"""Shared helpers of the Fluxx tests: a random player choosing from the legal options, the
invariants every position keeps, and an engine-only game loop (also used by the benchmark)."""
from __future__ import annotations

import copy
import random
from collections import Counter
from typing import Any

from companion.engine.chance import Chance, seed_key
from companion.engine.game import TurnContext
from companion.engine.orders import OrdersRejected
from companion.registry import get_kind

KIND = get_kind("fluxx")
DECK = KIND.deck
NAMES = ["Anna", "Bert", "Cora", "Dora", "Emil", "Fritz"]
LINES = ["We are the knights who dance", "It's only a model", "A newt, it got better",
         "Run away, run away", "Strange women and ponds", "Spam, spam, lovely spam"]


def zones(state: dict) -> list[str]:
    """Every one of the 101 cards wherever it is (the Basic Rules card always on the table)."""
    g = state["game"]
    out = [g["basic"]] + list(g["deck"]) + list(g["discard"]) + list(g["rules"]) + \
        list(g["goals"]) + list(g["limbo"])
    for p in state["players"]:
        out += g["hands"][p] + g["table"][p]
    for frame in g["using"]:
        out += frame
    return out


def check_invariants(state: dict) -> None:
    g = state["game"]
    cards = zones(state)
    counts = Counter(cards)
    assert len(cards) == 101 == len(DECK.cards) + 1, f"{len(cards)} cards instead of 101"
    assert set(counts) == set(DECK.ids) | {DECK.basic.id} and max(counts.values()) == 1, \
        [c for c, n in counts.items() if n > 1]
    for p in state["players"]:
        assert all(DECK[c].type != "creeper" for c in g["hands"][p]), (p, g["hands"][p])
        assert all(DECK[c].type in ("keeper", "creeper") for c in g["table"][p])
        if p in g["waiting"]:
            assert not g["hands"][p] and not g["table"][p]
    assert all(DECK[c].type == "rule" for c in g["rules"])
    assert all(DECK[c].type == "goal" for c in g["goals"])
    keys = [k for r in g["rules"] for k in (DECK[r].set or {})]
    assert len(keys) == len(set(keys)), f"contradicting rules in play: {g['rules']}"
    slots = max([(DECK[r].set or {}).get("goals", 1) for r in g["rules"]] + [1])
    assert len(g["goals"]) <= slots or state.get("pending"), "more Goals than the rules allow"
    if g["stage"] != "over":
        assert not g["limbo"] or state.get("pending"), g["limbo"]
        assert g["active"] in g["seated"]
    if g["stage"] == "over" and g["result"]["winner"]:
        from companion.fluxx.rules import Run

        run = Run(DECK, g, state["players"], state["standing"], {}, None)
        winner = g["result"]["winner"]
        assert run.goals_met(winner), f"{winner} won without meeting a Goal"
        others = [p for p in g["seated"] if p != winner and run.goals_met(p)]
        assert not others, f"{others} also meet a Goal"


class RandomPlayer:
    def __init__(self, seed: int, social: str = "trust"):
        self.rng = random.Random(seed)
        self.social = social

    def turn_orders(self, state: dict, player: str) -> list[str]:
        rng = self.rng
        groups = KIND.option_groups(state, player)
        if not groups:
            return []
        pending = state.get("pending")
        if pending and pending["question"]["kind"] != "turn":
            options = groups[0][1]
            chosen = [rng.choice(options)] if options else []
            return chosen + self.extra_plays(state, player, rng)
        lines: list[str] = []
        by_card: dict[str, list[str]] = {}
        uses: list[str] = []
        other: list[str] = []
        for title, group in groups:
            for line in group:
                if line.startswith("play "):
                    card = self.card_of(line)
                    by_card.setdefault(card, []).append(line)
                elif line.startswith("use "):
                    uses.append(line)
                else:
                    other.append(line)
        cards = list(by_card)
        rng.shuffle(cards)
        plays = [rng.choice(by_card[c]) for c in cards]     # a line of one's own, not the
        plays = [p.replace("(write your line here)", LINES[0]) for p in plays]  # placeholder
        goals_first = sorted(plays, key=lambda l: 0 if self.helps(state, player, l) else 1)
        if rng.random() < 0.7:
            plays = goals_first
        for use in uses:
            if rng.random() < 0.4:
                plays.insert(rng.randint(0, len(plays)), use)
        lines += plays
        for line in other:
            if line.startswith(("sing ", "accent ")) and rng.random() < 0.7:
                lines.insert(0, line.replace("(write your line here)", rng.choice(LINES)))
        if rng.random() < 0.3:
            keeps = [l for l in other if l.startswith("keep ") and l != "keep none"]
            if keeps:
                lines.append(rng.choice(keeps))
        if rng.random() < 0.2:
            lines += self.extra_plays(state, player, rng)
        return lines

    def extra_plays(self, state, player, rng) -> list[str]:
        """Conditional plays of cards not held (yet): used if they turn up."""
        names = [c.name for c in DECK.cards if c.type in ("keeper", "goal", "action", "rule")]
        return [f"play {rng.choice(names)}" for _ in range(rng.randint(0, 2))]

    def card_of(self, line: str) -> str:
        from companion.fluxx.orders import Parser

        orders, errors = Parser(DECK, NAMES).parse(line)
        return orders.lines[0]["card"] if orders.lines else line

    def helps(self, state: dict, player: str, line: str) -> bool:
        card = DECK[self.card_of(line)]
        return card.type in ("keeper", "goal")

    def standing(self, state: dict, player: str) -> list[str]:
        rng = self.rng
        g = state["game"]
        out = []
        mine = g["hands"][player] + g["table"][player]
        if mine and rng.random() < 0.5:
            picks = rng.sample(mine, k=min(len(mine), rng.randint(1, 3)))
            out.append("keep " + "; ".join(DECK.name(c) for c in picks
                                            if DECK[c].type != "creeper") if any(
                DECK[c].type != "creeper" for c in picks) else "keep none")
        if rng.random() < 0.4:
            line = f'quote "{rng.choice(LINES)}"'
            if self.social == "judge":
                line += rng.choice([" judged ok", " judged no"])
            out.append(line)
        return out


def submit_lines(submit, lines: list[str]) -> bool:
    """Submit ``lines``, dropping lines from the end until the orders are accepted."""
    lines = list(lines)
    while lines:
        if submit("\n".join(lines) + "\n"):
            return True
        lines = lines[:-1]
    return False


def engine_game(seed: int, players: int, options: dict[str, Any] | None = None,
                max_turns: int = 400, on_turn=None,
                edition: int | None = None) -> tuple[dict, int]:
    """A whole random game through the rules engine only (no store, no reports), played under
    the rules ``edition`` (by default the current one, as a new game gets; an older one plays
    as a game begun by an earlier release). Returns the final state and the number of
    processed turns."""
    rng = random.Random(seed)
    names = NAMES[:players]
    opts = {"missing": "default", "others": "default", "first": names[0], "social": "trust",
            "waiting": [], "turn-limit": 0}
    opts.update(options or {})
    key = seed_key(str(seed))
    chance = Chance(key, 0)
    state = KIND.create(names, opts, chance)
    edition = KIND.edition if edition is None else edition
    if edition:                 # as service.opening stamps a game (absent for edition 0)
        state["edition"] = edition
    ctx = TurnContext(turn=0, key=key, chance=chance, orders={}, options=opts)
    KIND.finish_turn(state, ctx)
    player_rng = RandomPlayer(seed, opts["social"])
    number = 0
    while not KIND.is_over(state) and number < max_turns:
        number += 1
        orders = {}
        for p in names:
            lines = []
            if p in KIND.awaited(state):
                lines = player_rng.turn_orders(state, p)
            elif rng.random() < 0.15 and p in state["game"]["seated"]:
                lines = player_rng.standing(state, p)
            elif p in state["game"]["waiting"] and rng.random() < 0.3:
                lines = ["join"]
            while lines:
                try:
                    parsed = KIND.parse_orders(state, p, "\n".join(lines), "o")
                    KIND.check_orders(state, p, parsed, "o")
                    orders[p] = parsed
                    break
                except OrdersRejected:
                    lines = lines[:-1]
        chance = Chance(key, number)
        ctx = TurnContext(turn=number, key=key, chance=chance, orders=orders, options=opts)
        KIND.process(state, ctx)
        KIND.finish_turn(state, ctx)
        check_invariants(state)
        if on_turn is not None:
            on_turn(state)
    return state, number


def played_states(seed: int, players: int, options: dict[str, Any] | None = None,
                  max_turns: int = 400, edition: int | None = None) -> list[dict]:
    """Copies of the state after every processed turn of a random engine game."""
    out: list[dict] = []
    engine_game(seed, players, options, max_turns, on_turn=lambda s: out.append(copy.deepcopy(s)),
                edition=edition)
    return out
