"""Shared helpers of the Holy Grail CCG rules tests: where every card instance is (conservation),
the invariants every position keeps, a random player choosing from the legal order lines, and
an engine-only game loop (no store, no reports)."""
from __future__ import annotations

import copy
import random
from collections import Counter
from typing import Any

from companion.engine.chance import Chance, seed_key
from companion.engine.game import TurnContext
from companion.engine.orders import OrdersRejected
from companion.grailccg import england as E
from companion.grailccg.kind import KIND, GrailKind

NAMES = ["Anna", "Bert"]


def places(state: dict) -> list[tuple[str, str]]:
    """(card instance, where) for every card of the game, wherever it is."""
    g = state["game"]
    out: list[tuple[str, str]] = []
    for p in g["players"]:
        out += [(i, f"deck {p}") for i in g["decks"][p]]
        out += [(i, f"hand {p}") for i in g["hands"][p]]
        out += [(i, f"dead {p}") for i in g["dead"][p]]
        out += [(i, f"ante {p}") for i in g["ante"]["cards"][p]]
        t = g["table"][p]
        out += [(i, f"round table {p}") for i in t["members"]]
        for page, info in t["pages"].items():
            out.append((page, f"page {p}"))
            out += [(i, f"item {p}") for i in info["items"] + info["new"]]
        for name, a in g["england"][p].items():
            out += area_cards(a, f"england {p} {name}")
    for name, a in g["avalon"].items():
        out += area_cards(a, f"avalon {name}")
    return out


def area_cards(a: dict, where: str) -> list[tuple[str, str]]:
    out = [(a["card"], where)] if a["card"] else []
    out += [(i, where + " foe") for i in a["foes"]]
    out += [(i, where + " occupant") for i in a["occupants"]]
    if a.get("castle"):
        out += [(i, where + " trapped") for i in a["castle"].get("trapped", [])]
    return out


def check_invariants(state: dict) -> None:
    g = state["game"]
    found = places(state)
    counts = Counter(i for i, _ in found)
    doubles = {i: [w for j, w in found if j == i] for i, n in counts.items() if n > 1}
    assert not doubles, f"cards in two places: {doubles}"
    assert set(counts) == set(g["cards"]), \
        f"lost: {sorted(set(g['cards']) - set(counts))}, unknown: {sorted(set(counts) - set(g['cards']))}"
    in_avalon = [g["table"][p]["at"] for p in g["players"]
                 if g["table"][p]["at"].startswith("av")]
    assert len(in_avalon) == len(set(in_avalon)), f"two Round Tables in one area: {in_avalon}"
    for p in g.get("out", []) if g["stage"] != "over" else []:
        assert g["table"][p]["at"] == E.HOME, f"{p} is out but their Round Table is on the board"
    for p in g["players"]:
        at = g["table"][p]["at"]
        assert at == E.HOME or at in E.AREAS or at in g["avalon"], at
        held = [k for a in list(g["england"][p].values()) + list(g["avalon"].values())
                if a.get("castle") for k in a["castle"].get("trapped", [])]
        for page, info in g["table"][p]["pages"].items():   # a page stays with a held knight
            assert info["knight"] is None or info["knight"] in g["table"][p]["members"] + held
            cap = KIND_CARDS(state).get(g["cards"][page]).capacity or 1
            assert len(info["items"]) + len(info["new"]) <= cap
    areas = [a for q in g["players"] for a in g["england"][q].values()]
    areas += list(g["avalon"].values())
    for a in areas:     # occupants stand only in a face-up castle: never beside a face-down
        if a["occupants"]:      # card that could turn up as a duplicate (FAQ 8, case 142)
            assert a["card"] and a["up"] and \
                KIND_CARDS(state).get(g["cards"][a["card"]]).type == "castle", \
                f"castle occupants without a face-up castle: {a}"
    d = g["dispute"]
    if d:
        assert g["stage"] != "over"
    if g["stage"] == "over":
        assert g["result"], "a game over without a result"


_CARDS = {}


def KIND_CARDS(state):
    return _CARDS.get("kind", KIND).cards


class RandomPlayer:
    def __init__(self, seed: int, kind: GrailKind = KIND):
        self.rng = random.Random(seed)
        self.kind = kind

    def turn_orders(self, state: dict, player: str) -> list[str]:
        rng = self.rng
        options = self.kind.options_for(state, player)
        if not options:
            return []
        if state.get("pending"):
            return [rng.choice(options)]
        lines = []
        plays = [o for o in options if o.startswith(("play ", "give ", "use "))]
        moves = [o for o in options if o.startswith("move ")]
        disputes = [o for o in options if o.startswith(("fight", "outwit", "run away"))]
        castles = [o for o in options if o in ("consult", "assault", "stay outside", "search")]
        if disputes:
            lines.append(rng.choice(disputes))
        rng.shuffle(plays)
        lines += plays[:rng.randint(0, 3)]
        if "search" in castles and rng.random() < 0.9:
            lines.append("search")
        elif castles and rng.random() < 0.7:
            lines.append(rng.choice(castles))
        if moves:
            # mostly upwards: towards Avalon
            up = sorted(moves, key=lambda m: -E.row_of(m.split()[1]))
            lines.append(up[0] if rng.random() < 0.7 else rng.choice(moves))
            if rng.random() < 0.5:
                lines.append(rng.choice(["fight", "outwit", "run away", "consult", "search"]))
        if "double" in options and rng.random() < 0.03:
            lines.append("double")
        return lines

    def standing(self, state: dict, player: str) -> list[str]:
        rng = self.rng
        g = state["game"]
        cards = self.kind.cards
        out = []
        hand = [cards.get(g["cards"][i]) for i in g["hands"][player]]
        fitting = [c.name for c in hand if c.type in ("song", "taunt", "questions-three",
                                                      "event")]
        if fitting and rng.random() < 0.5:
            out.append("on dispute: play " + ", ".join(rng.sample(fitting, k=min(2, len(fitting)))))
        if rng.random() < 0.3:
            out.append(f"on double: {rng.choice(['accept', 'accept', 'concede'])}")
        if rng.random() < 0.2:
            out.append(f"on retreat: {rng.choice(E.AREAS)}")
        if rng.random() < 0.2:
            out.append(f"on reveal: {rng.choice(['apply', 'ignore'])}")
        return out


def play_stored_game(store, game_id: str, player: "RandomPlayer", max_turns: int) -> None:
    """Play the stored game ``game_id`` through the service with ``player``'s orders (a rejected
    order line is dropped from the end until the rest is accepted; 'end' when nothing is) until
    it is over or ``max_turns`` turns have run, checking the invariants after every turn; then
    assert it is over and replays."""
    from companion import service
    from companion.errors import CompanionError

    for _ in range(max_turns):
        state = store.turn(game_id).state
        if KIND.is_over(state):
            break
        for p in KIND.awaited(state):
            lines = player.turn_orders(state, p) or ["end"]
            while lines:
                try:
                    service.submit_orders(store, game_id, p, "\n".join(lines) + "\n", "o.txt")
                    break
                except OrdersRejected:
                    lines = lines[:-1]
            else:
                service.submit_orders(store, game_id, p, "end\n", "o.txt")
        try:
            service.run_turn(store, game_id)
        except CompanionError as exc:
            assert "nothing to adjudicate" in exc.message, exc.message
        check_invariants(store.turn(game_id).state)
    assert KIND.is_over(store.turn(game_id).state)
    result = service.replay(store, game_id)
    assert result.ok, result.message


def new_state(kind: GrailKind, seed: int, options: dict[str, Any] | None = None,
              players: list[str] | None = None):
    players = list(players or NAMES)
    opts = {"missing": "default", "first": players[0], "decks": None, "grail-draw": "discard",
            "hand-limit": 7, "doubling": "on"}
    opts.update(options or {})
    key = seed_key(str(seed))
    chance = Chance(key, 0)
    state = kind.create(players, opts, chance)
    state["edition"] = kind.edition         # as service.opening stamps a new game
    ctx = TurnContext(turn=0, key=key, chance=chance, orders={}, options=opts)
    kind.finish_turn(state, ctx)
    return state, opts, key, chance.to_json()


def run_turn(kind: GrailKind, state: dict, number: int, key: bytes, opts: dict,
             texts: dict[str, str], replay: list | None = None):
    orders = {}
    for p, text in texts.items():
        parsed = kind.parse_orders(state, p, text, "o")
        kind.check_orders(state, p, parsed, "o")
        orders[p] = parsed
    chance = Chance(key, number, replay=replay)
    ctx = TurnContext(turn=number, key=key, chance=chance, orders=orders, options=opts)
    kind.process(state, ctx)
    kind.finish_turn(state, ctx)
    return ctx, chance.to_json()


def engine_game(seed: int, options: dict[str, Any] | None = None, max_turns: int = 600,
                kind: GrailKind = KIND, record: list | None = None,
                players: list[str] | None = None):
    """A whole random game through the rules engine only. Returns the final state and the
    number of processed turns; ``record`` gets (texts, chance outcomes) per turn; ``players``
    (default Anna and Bert) seats three or more for 16.3."""
    rng = random.Random(seed)
    players = list(players or NAMES)
    state, opts, key, _ = new_state(kind, seed, options, players)
    check_invariants(state)
    player = RandomPlayer(seed, kind)
    number = 0
    while not kind.is_over(state) and number < max_turns:
        number += 1
        texts = {}
        for p in players:
            lines = []
            if p in kind.awaited(state):
                lines = player.turn_orders(state, p)
            elif rng.random() < 0.2:
                lines = player.standing(state, p)
            while lines:
                try:
                    parsed = kind.parse_orders(state, p, "\n".join(lines), "o")
                    kind.check_orders(state, p, parsed, "o")
                    texts[p] = "\n".join(lines)
                    break
                except OrdersRejected:
                    lines = lines[:-1]
        ctx, outcomes = run_turn(kind, state, number, key, opts, texts)
        if record is not None:
            record.append((texts, outcomes, copy.deepcopy(state)))
        check_invariants(state)
    return state, number


# ------------------------------------------------------------------------------ built positions
def filler(kind: GrailKind, grail: int) -> str:
    """A card id with the given grail number (for arranging the top of a deck)."""
    for c in kind.cards.cards:
        if c.grail == grail and c.type in ("land", "event", "song", "taunt", "item"):
            return c.id
    for c in kind.cards.cards:
        if c.grail == grail:
            return c.id
    raise ValueError(f"no card with grail number {grail}")


def build(kind: GrailKind, spec: dict[str, Any]) -> dict:
    """A position from a case's ``setup``: per player ``table`` (members), ``pages`` (["Page",
    "serving knight", ["item", ...]]), ``hand``, ``deck`` (top first; a number stands for a card
    with that grail number), ``dead``, ``at``, ``from``, ``england`` (area -> card name of the
    England the player explores, "up:" for face up, "foe:" for a face-up adversary on it,
    "occupants:" ...), ``fill`` (more deck cards under the listed ones, default 20); ``avalon``;
    ``active``, ``turn``, ``options``."""
    from companion.grailccg.kind import empty_standing, rule_options
    from companion.grailccg.rules import new_area, new_game_state

    players = list(spec.get("players", NAMES))
    g = new_game_state(players)
    counters = {p: 0 for p in players}
    seat = {p: i + 1 for i, p in enumerate(players)}

    def other(p):
        return players[(players.index(p) + 1) % len(players)]

    def inst(owner: str, what) -> str:
        cid = filler(kind, what) if isinstance(what, int) else kind.cards.by_name(what).id
        counters[owner] += 1
        i = f"{seat[owner]}-{counters[owner]:02d}"
        g["cards"][i] = cid
        return i

    setup = spec.get("setup", {})
    for p in players:
        s = setup.get(p, {})
        t = g["table"][p]
        t["members"] = [inst(p, n) for n in s.get("table", ["Arthur"])]
        for entry in s.get("pages", [["Patsy", "Arthur"]]):
            page = inst(p, entry[0])
            knight = None
            if len(entry) > 1 and entry[1]:
                cid = kind.cards.by_name(entry[1]).id
                knight = next(m for m in t["members"] if g["cards"][m] == cid)
            items = [inst(p, n) for n in (entry[2] if len(entry) > 2 else [])]
            new = [inst(p, n) for n in (entry[3] if len(entry) > 3 else [])]
            t["pages"][page] = {"knight": knight, "items": items, "new": new}
        g["hands"][p] = [inst(p, n) for n in s.get("hand", [])]
        g["decks"][p] = [inst(p, n) for n in s.get("deck", [])]
        g["decks"][p] += [inst(p, 7 if k % 2 else 4) for k in range(s.get("fill", 20))]
        g["dead"][p] = [inst(p, n) for n in s.get("dead", [])]
        g["ante"]["cards"][p] = [inst(p, n) for n in s.get("ante", [5])]
        t["at"] = s.get("at", "home")
        t["from"] = s.get("from")
    for p in players:
        s = setup.get(p, {})
        owner = other(p)
        areas = {}
        for name in E.AREAS:
            areas[name] = new_area(None, True)
        for name, what in s.get("england", {}).items():
            areas[name] = make_area(kind, g, owner, what, inst)
        g["england"][p] = areas
    for name in ("av1", "av2", "av3", "av4"):
        g["avalon"][name] = new_area(None, True)
    for name, what in spec.get("avalon", {}).items():
        owner = players[1]
        if isinstance(what, str) and what.startswith(tuple(f"{q}:" for q in players)):
            owner, what = what.split(":", 1)
        g["avalon"][name] = make_area(kind, g, owner, what, inst)
    for name, flag in spec.get("searched", {}).items():
        g["avalon"][name]["searched"] = flag
    g["counters"]["search_bonus"] = spec.get("search_bonus", 0)
    g["active"] = spec.get("active", players[0])
    g["turn"] = spec.get("turn_number", 3)
    g["stage"] = "action"
    opts = {"missing": "default", "first": players[0], "decks": None, "grail-draw": "discard",
            "hand-limit": 7, "doubling": "on"}
    opts.update(spec.get("options", {}))
    standing = {p: empty_standing() for p in players}
    return {"kind": "grailccg", "edition": kind.edition, "players": players, "game": g,
            "standing": standing,
            "pending": None, "events": [], "rules": rule_options(opts), "options": opts}


def make_area(kind, g, owner, what, inst) -> dict:
    """'Gawain' (face down), 'up:Tintagel', {card=..., up=..., foes=[...], occupants=[...]}."""
    from companion.grailccg.rules import new_area

    if isinstance(what, str):
        what = {"card": what[3:], "up": True} if what.startswith("up:") else {"card": what}
    card = what.get("card")
    a = new_area(inst(owner, card) if card else None, bool(what.get("up", card is None)))
    a["foes"] = [inst(owner, n) for n in what.get("foes", [])]
    a["occupants"] = [inst(owner, n) for n in what.get("occupants", [])]
    if what.get("occupants") is not None or what.get("castle"):
        a["castle"] = {"outside": [], "passage": [], "breached": {}, "consulted": {},
                       "assaulted": False, "trapped": []}
        a["castle"].update(what.get("castle", {}))
    return a
