"""A rewound Gral turn run again with the orders it was run with.

Found by random play of older rules editions (a helper's hunt: rewind to the middle of a
finished game and run the next turn again; 42 of 168 Gral games whose players sometimes sent
standing orders alone): in a game of rules edition 0
or 1, orders holding only standing orders take effect in the turn that reads them but stay
pending for the turns after (docs/gral.md, Rules editions), so that turn never marks them used.
``companion rewind`` made pending again only the orders the first turn taken back *used*
(companion/store.py, ``Store.rewind_in``), so the turn run again lacked them: the player's
objections were gone and the turn differed from the one taken back. The same happened at any
edition to orders a turn reads but holds for a later action (seen at edition 3, 6 players).

The cause was in the shared store (``Store.rewind_in``, now making pending again the orders that
were pending when the turn ran, ``Store.pending_when_run``); this pins the Gral case of an
older rules edition."""
from __future__ import annotations

from companion import service
from companion.registry import get_kind
from companion.store import Store

KIND = get_kind("gral")


def turn(store: Store, orders: dict[str, str]) -> None:
    for player, text in orders.items():
        service.submit_orders(store, "g", player, text, "orders.txt")
    service.run_turn(store, "g")


def test_standing_orders_held_pending_are_pending_again_after_a_rewind(tmp_path, fixed_date,
                                                                       monkeypatch):
    monkeypatch.setattr(KIND, "edition", 1)
    store = Store(tmp_path / "s.sqlite3", create=True)
    service.new_game(store, "gral", "g", ["Anna", "Bert"], seed="5",
                     option_args=["first=Anna"])
    state = store.turn("g").state
    turn(store, {p: KIND.options_for(state, p)[0] + "\n" for p in ("Anna", "Bert")})
    turn(store, {"Anna": "object any up to all\n", "Bert": "pass\n"})
    taken_back = store.turn("g")
    assert taken_back.state["edition"] == 1 and taken_back.state["standing"]["Anna"]
    turn(store, {"Anna": "pass\n", "Bert": "pass\n"})
    service.rewind(store, "g", 1, None)
    service.run_turn(store, "g")
    again = store.turn("g")
    assert again.state["standing"]["Anna"] == taken_back.state["standing"]["Anna"]
    assert again.state == taken_back.state
