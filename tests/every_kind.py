"""Every registered kind, without knowing it: a game played a few turns through the service
layer with order lines picked from the kind's own ``options_for`` (so that it holds private
information: hands, sheets, standing orders, private events), and a way to change one
player's secrets for the non-interference tests (tests/test_reports.py).

Changing a player's private events works for every kind (the engine's ``events`` with ``to``);
each kind also names its other secrets in SECRETS (a kind not listed there fails
``test_every_playable_kind_names_its_secrets`` until it is added)."""
from __future__ import annotations

import copy
import random
from typing import Callable

from companion import service
from companion.engine.orders import OrdersRejected
from companion.errors import CompanionError
from companion.registry import KINDS, get_kind

PLAYABLE = [k.id for k in KINDS if k.playable]
AWKWARD = ['<b>Bo & "Jo"</b>', "Jörg Ünal", "Борис Годунов", "Σωκράτης"]


def players_for(kind_id: str, count: int = 3) -> list[str]:
    """``count`` awkward names (markup, accents, Cyrillic, Greek) within the kind's range."""
    entry = next(k for k in KINDS if k.id == kind_id)
    count = max(entry.min_players, min(entry.max_players, count))
    return (AWKWARD * 3)[:count]


def submit_some(store, game_id: str, player: str, rng: random.Random, kind) -> bool:
    """Submit one to three of the player's legal order lines (fewer if refused together)."""
    lines = kind.options_for(store.turn(game_id).state, player)
    if not lines:
        return False
    for _ in range(6):
        chosen = rng.sample(lines, k=min(len(lines), rng.randint(1, 3)))
        while chosen:
            try:
                service.submit_orders(store, game_id, player, "\n".join(chosen) + "\n", "o.txt")
                return True
            except OrdersRejected:
                chosen = chosen[:-1]
    return False


def play(store, kind_id: str, game_id: str, players: list[str], *, seed: str = "secrets",
         turns: int = 3, output=None) -> None:
    """A new game of ``kind_id`` and up to ``turns`` turns of legal orders from
    ``options_for`` (players with nothing to decide submit nothing)."""
    kind = get_kind(kind_id)
    service.new_game(store, kind_id, game_id, players, seed=seed, output=output)
    rng = random.Random(f"{kind_id}/{seed}")
    for _ in range(turns):
        if kind.is_over(store.turn(game_id).state):
            return
        for player in players:
            submit_some(store, game_id, player, rng, kind)
        try:
            service.run_turn(store, game_id, output=output)
        except CompanionError:      # nothing to adjudicate, or waiting: the game stays here
            return


# ------------------------------------------------------------------------------ secrets
def _gral(state: dict, owner: str, rng: random.Random) -> None:
    state["sheets"][owner] = {"units": {"A1": "yusuf-ibn-tariq", "B9": "elias-rosenthal"},
                              "paid": state["sheets"][owner]["paid"]}
    state["standing"][owner] = [{"initiate": None, "to": "paris", "from": None, "grail": True,
                                 "blowing": None, "by": None, "except_by": None,
                                 "ending": False, "limit": 77}]


def _koc(state: dict, owner: str, rng: random.Random) -> None:
    rec = state["knights"][owner]          # tests/koc/engine/test_koc_random_play.py
    rec["cp"] = 299 if rec["cp"] != 299 else 298
    rec["vp"] += 7
    rec["oaths"] = ["never_yield"]
    rec["standing"] = [{"key": "yield", "tags": ["yield"], "answer": "yes",
                        "text": "on yield: yes"}]
    rec["lady"] = {"name": "Lady Lyonesse", "castle": "Castle Perilous", "seduced": False}


def _mayhem(state: dict, owner: str, rng: random.Random) -> None:
    from companion.registry import get_kind

    cat = get_kind("mayhem").catalogue      # tests/mayhem/test_reports.py
    hand, deck = state["hands"][owner], state["deck"]
    k = min(len(hand), len(deck))
    state["hands"][owner] = deck[:k] + hand[k:]
    state["deck"] = hand[:k] + deck[k:]
    draft = state.get("draft")
    if draft and draft["dealt"].get(owner):   # optional rule A: the characters dealt to choose
        dealt, box = draft["dealt"][owner], state["box"]   # from, and the one kept (secret)
        k = min(len(dealt), len(box))
        draft["dealt"][owner], state["box"] = box[:k] + dealt[k:], dealt[:k] + box[k:]
        if owner in draft["picked"]:
            draft["picked"][owner] = draft["dealt"][owner][-1]
    cid = state["characters"].get(owner)
    face = cat.character[cid].face if cid in cat.character else None
    alt = next((c for c in state["box"] if cat.character[c].face == face), None)
    if alt is not None:
        state["box"] = [cid if c == alt else c for c in state["box"]]
        state["characters"][owner] = alt
    state["standing"][owner] = {"defend": [{"defend": False, "by": None, "against": ["Knight"],
                                            "from": "set", "with": None}],
                                "hand": {"give": state["hands"][owner][:1], "keep": []}}
    state["plans"][owner] = [{"kind": "draw", "text": "draw"}]


def _fluxx(state: dict, owner: str, rng: random.Random) -> None:
    g = state["game"]                       # tests/fluxx/test_fluxx_random_play.py
    hand = g["hands"][owner]
    if hand and len(g["deck"]) >= len(hand):
        fresh = rng.sample(g["deck"], k=len(hand))
        g["deck"] = hand + [c for c in g["deck"] if c not in fresh]
        g["hands"][owner] = fresh
    state["standing"][owner] = {"keep": list(g["hands"][owner][:1]),
                                "quote": {"words": "secret", "judged": None}}


def _grailccg(state: dict, owner: str, rng: random.Random) -> None:
    g = state["game"]                       # tests/grailccg/test_grailccg_views.py
    hand, deck = g["hands"][owner], g["decks"][owner]
    for i in range(min(len(hand), len(deck))):
        hand[i], deck[-1 - i] = deck[-1 - i], hand[i]
    rng.shuffle(deck)
    state["standing"][owner]["double"] = "concede"


SECRETS: dict[str, Callable[[dict, str, random.Random], None]] = {
    "gral": _gral, "koc": _koc, "mayhem": _mayhem, "fluxx": _fluxx, "grailccg": _grailccg}
"""Per kind: change every secret of one player in a state (in place) other than their private
events, which :func:`scrambled` changes for every kind."""


def scrambled(kind_id: str, state: dict, owner: str) -> dict:
    """The same position with every secret of ``owner`` changed: their private events (every
    kind) and what SECRETS names for the kind."""
    other = copy.deepcopy(state)
    other["events"] = [dict(e, text=e["text"] + " (secret detail)") if e["to"] == [owner] else e
                       for e in other["events"]]
    other["events"].append({"kind": "note", "text": "A private note for the owner only.",
                            "to": [owner]})
    if kind_id in SECRETS:
        SECRETS[kind_id](other, owner, random.Random(f"{kind_id}/{owner}"))
    return other
