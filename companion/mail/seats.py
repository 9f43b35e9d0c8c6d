"""A seat given to a new player, told to the other players (docs/mail.md, "A player moves or
leaves").

When the moderator gives a seat a new address (``companion game address``, or ``address GAME
PLAYER ADDRESS`` by mail) in a game whose reports have been mailed, the change is recorded as
to be announced (``mail_address_changes.announce`` 'due', with ``from_turn``, the first turn
the new player plays); the next mail pass tells every other player with an address, once:
"Bert is now played by a new player, from turn 5". Nothing of the seat's is in it: not its
address (old or new), token, code, link or orders. The moderator says ``--quiet`` (``quiet``
by mail) for a correction (a mistyped address, a player who moved): nobody is told of it, nor
of a change of that seat not told yet. A player's own ``CODE address`` is never announced (the
same player, moved); nor is ``none`` (nobody plays the seat: the announcement waits until it
has a player again), the same address again, a game whose first reports were not mailed yet
(setting it up), or a game that is over.

A takeover is one announcement however many commands it takes: the changes of a seat not told
yet are told together, with the turn of the latest, in one transaction that marks them 'told';
each mail's outbox key names the seat's latest change and the recipient, so a pass run again
(or after a crash) never sends it twice.
"""
from __future__ import annotations

from dataclasses import dataclass

from companion.engine.words import counted


@dataclass(frozen=True)
class SeatChange:
    """A change of a seat's address as recorded: the player (the seat's name), the old and the
    new address, and whether the other players are told ('due', 'quiet' or '') from which
    turn; ``cancelled``: how many earlier changes of the seat not told yet a quiet one
    dropped."""
    player: str
    old: str | None
    new: str | None
    announce: str = ""
    from_turn: int | None = None
    cancelled: int = 0

    def said(self, when: str) -> str:
        """What the moderator is told of the announcement (``when``: 'by the next
        'companion mail run'', 'in this pass'); '' when there is nothing to say."""
        if self.announce == "due":
            return (f"the other players are told {when} that {self.player} is played by a new "
                    f"player from turn {self.from_turn} (nothing of the seat's address, link "
                    "or code)")
        if self.announce == "quiet":
            return ("quiet: the other players are not told" +
                    (" (nor of the earlier change not told yet)" if self.cancelled == 1 else
                     f" (nor of the {self.cancelled} earlier changes not told yet)"
                     if self.cancelled else ""))
        return ""


def change(store, db, game, player, new: str | None, when: str, source: str, *,
           quiet: bool = False, announce: bool = True) -> SeatChange:
    """Inside the caller's transaction: the moderator gives ``player``'s seat the address
    ``new`` (None: none) and says whether that is a new player (``quiet``: a correction). With
    ``announce`` False (a caller that does not ask, the moderator's web page) it is recorded
    with nothing to announce, as before."""
    from companion.registry import get_kind
    from companion.store import Store

    old = player.email
    state, from_turn, cancelled = "", None, 0
    if quiet:
        state = "quiet"
        cancelled = db.execute("UPDATE mail_address_changes SET announce='quiet' WHERE "
                               "game_id=? AND player=? AND announce='due'",
                               (game.id, player.name)).rowcount
    elif announce and new is not None and (old or "").lower() != new.lower():
        latest = Store.latest_in(db, game.id)
        mailed = db.execute("SELECT mailed_turn FROM mail_games WHERE game_id=?",
                            (game.id,)).fetchone()
        if latest is not None and mailed is not None and mailed[0] >= 0 and \
                not get_kind(game.kind).is_over(store.turn(game.id, latest).state):
            state, from_turn = "due", latest + 1
    store.change_email(db, game.id, player, new, when, source, announce=state,
                       from_turn=from_turn)
    return SeatChange(player.name, old, new, state, from_turn, cancelled)


def announce(store, config, game, log) -> None:
    """Tell the other players of every seat given to a new player and not told yet, once per
    seat (its changes not told yet together, with the turn of the latest). A seat with no
    address now (nobody plays it yet) waits until it has one."""
    from companion.mail import outbox
    from companion.mail.run import code_footer

    rows = store.db.execute("SELECT id, player, from_turn FROM mail_address_changes WHERE "
                            "game_id=? AND announce='due' ORDER BY id", (game.id,)).fetchall()
    if not rows:
        return
    seats: dict[str, list[tuple[int, int]]] = {}
    for row_id, name, from_turn in rows:
        seats.setdefault(name, []).append((row_id, from_turn))
    with store.transaction() as db:
        for name, changes in seats.items():
            seat = next((p for p in game.players if p.name == name), None)
            if seat is None or not seat.email:
                continue
            last, from_turn = changes[-1]
            told = 0
            for other in game.players:
                if other.name == name or not other.email:
                    continue
                if outbox.queue(db, config, f"seat:{game.id}:{last}:{other.slug}", other.email,
                                f"[{game.id}] {name} has a new player",
                                f"Game {game.id}: {name} is now played by a new player, from "
                                f"turn {from_turn}. The seat keeps its name in the game; "
                                "nothing else changes for you.\n\n"
                                "Players' addresses are not given out: anything for the new "
                                "player goes through the moderator.\n\n"
                                + code_footer(game, other),
                                game_id=game.id, player=other.name):
                    told += 1
            db.execute("UPDATE mail_address_changes SET announce='told' WHERE game_id=? AND "
                       f"id IN ({','.join('?' * len(changes))})",
                       (game.id, *(row_id for row_id, _ in changes)))
            log(f"game {game.id}: {name} is played by a new player from turn {from_turn}: "
                f"{counted(told, 'other player')} told")
