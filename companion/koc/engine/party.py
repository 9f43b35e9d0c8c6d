"""Player knights travelling together (PLAYER INTERACTION: travelling in groups).

Knights standing in the same place may ride as one party. One of them leads: the party takes
one joint turn, in the leader's player turn, and he moves the whole stack. Each knight still
rolls his own Luck-of-the-Day, keeps or loses his own comrades, makes his own requests and
prayers and heals; each suffers his own Knight's Fate. Encounters meet the whole party: the
encounter value and the movement allowance are the party's, a castle friendly to one knight
admits them all (``encounters.castle_encounter``), combat is fought by every knight of the
party (``combat.fight``), a King whose challenge one knight has already answered turns to
another, a seductress tries every knight.

Orders (``companion/koc/orders.py``)::

    join <knight>       ride in that knight's party (he leads, and must agree: question 'party')
    leave party         ride alone again (a leader who leaves breaks the party up)

State: ``state["parties"][leader] = {"members": [...], "since": turn}``, and for the game
turn under way ``state["party_turn"] = {"turn": n, "settled": [...], "moved": [...]}``:
the knights whose join/leave orders were settled, and those who moved with a party (they do
not move again alone that game turn). ``pk["parted"]`` records when a knight last
parted from another (``pk["parted"][other] = turn``; knights who travelled together must be
apart a whole game turn before they may fight, engine/rivals.py).

Timing: a join or leave order is settled at the first player turn of the game turn that
concerns the knights involved (the joiner's or the leader's, whichever comes first). A member
whose seat comes before his leader's waits for the leader's turn; one whose seat comes after
it has already moved with the party. If the leader cannot lead when his turn comes (in prison,
asleep, mad, held fast), the party breaks up and the members who waited for him play their own
turns at once, after his. Whatever carries one knight away from the others (a prison, Faerie,
a spell, a ship he alone boards) takes him out of the party.
"""
from __future__ import annotations

import math
from typing import TYPE_CHECKING

from companion.koc.engine import knight as kn
from companion.koc.engine.questions import Spec, register
from companion.koc.engine.session import Question, Session

if TYPE_CHECKING:
    from companion.koc.engine.game import Game

register(
    Spec("party", "another player knight asks to ride in your party, with you as its leader: "
         "take him along", ("yes", "no"), "no", tags=("pk",)),
)


# ------------------------------------------------------------------------------ records
def parties(state: dict) -> dict:
    """The parties (read only: views call this; ``_parties_w`` creates the table)."""
    return state.get("parties", {})


def _parties_w(state: dict) -> dict:
    return state.setdefault("parties", {})


def leader_of(state: dict, player: str) -> str | None:
    """The leader of the party the player rides in (himself if he leads), or None."""
    for leader, party in parties(state).items():
        if player == leader or player in party["members"]:
            return leader
    return None


def company(state: dict, player: str) -> list[str]:
    """Every knight of the player's party, the leader first (just the player if alone)."""
    leader = leader_of(state, player)
    if leader is None:
        return [player]
    return [leader, *parties(state)[leader]["members"]]


def fellows_of(state: dict, player: str) -> list[str]:
    """The other knights of his party (leader first, then the members in seat order)."""
    return [p for p in company(state, player) if p != player]


def together(state: dict, a: str, b: str) -> bool:
    return a != b and leader_of(state, a) is not None and leader_of(state, a) == leader_of(state, b)


def _turn_record(state: dict) -> dict:
    turn = state["koc"]["turn"]
    rec = state.get("party_turn")
    if not rec or rec.get("turn") != turn:
        rec = {"turn": turn, "settled": [], "moved": []}
        state["party_turn"] = rec
    return rec


def moved_with_party(state: dict, player: str) -> bool:
    rec = state.get("party_turn")
    return bool(rec) and rec.get("turn") == state["koc"]["turn"] and player in rec["moved"]


def able(rec: dict) -> bool:
    """Whether a knight can ride with a party now: not slain, imprisoned, mad, asleep, held
    fast, on guard duty or away at a Foreign War."""
    return not (rec["slain"] or rec["prison"] or rec["mad"] or rec.get("asleep")
                or rec["immobile"] or rec.get("guard") or rec["at"]["where"] == "prison"
                or rec.get("war"))


def _played(game: "Game", player: str) -> bool:
    koc = game.state["koc"]
    order = koc["order"]
    return player in order and order.index(player) < koc["current"]


# ------------------------------------------------------------------------------ changes
def drop(game: "Game", player: str, why: str) -> None:
    """The knight leaves his party (a leader's leaving breaks it up)."""
    state = game.state
    leader = leader_of(state, player)
    if leader is None:
        return
    party = parties(state)[leader]
    turn = state["koc"]["turn"]
    everyone = [leader, *party["members"]]
    if player == leader or len(party["members"]) <= 1:
        del parties(state)[leader]
        gone = everyone
        text = (f"The party of {', '.join(_name(state, p) for p in everyone)} breaks up "
                f"({why}).")
    else:
        party["members"].remove(player)
        gone = [player]
        text = f"{_name(state, player)} leaves {_name(state, leader)}'s party ({why})."
    for p in gone:
        # knights who travelled together must be apart a whole turn before they may fight
        parted = state["knights"][p].setdefault("parted", {})
        for q in everyone:
            if q != p:
                parted[q] = turn
    game.ctx.event(text, to=everyone, kind="koc")


def _name(state: dict, player: str) -> str:
    return state["knights"][player]["name"]


def _orders_of(game: "Game", player: str):
    return game.orders.get(player)


def settle(s: Session) -> None:
    """At the start of a player turn: the leave and join orders that concern this knight."""
    game, state = s.game, s.game.state

    def settled(p: str) -> bool:
        if game.frozen is not None and p not in game.frozen:
            return True         # sent while a paused turn waited: not for that turn
        rec = state.get("party_turn")
        return bool(rec) and rec["turn"] == state["koc"]["turn"] and p in rec["settled"]

    # leaving: any knight of his party who ordered it (settled once a game turn)
    for p in company(state, s.player):
        orders = _orders_of(game, p)
        if settled(p) or orders is None or not orders.leave:
            continue
        game.consulted.add(p)
        _turn_record(state)["settled"].append(p)
        if leader_of(state, p) is not None:
            drop(game, p, "by his own choice")
    # joining: his own request, then requests made to him (or to his party)
    candidates = [s.player] + [p for p in state["koc"]["order"] if p != s.player]
    for p in candidates:
        orders = _orders_of(game, p)
        if settled(p) or orders is None or not orders.join:
            continue
        target = _player_named(state, orders.join)
        if target is None:
            continue
        if p != s.player and s.player not in company(state, target):
            continue            # a request for another party: settled at its own time
        game.consulted.add(p)
        _turn_record(state)["settled"].append(p)
        _join(s, p, target)


def _player_named(state: dict, name: str) -> str | None:
    for player, rec in state["knights"].items():
        if name in (player, rec["name"]):
            return player
    return None


def _join(s: Session, joiner: str, target: str) -> None:
    game, state = s.game, s.game.state
    knights = state["knights"]
    leader = leader_of(state, target) or target
    jrec, lrec = knights[joiner], knights[leader]
    seen = [joiner, leader]

    def refuse(why: str) -> None:
        game.ctx.event(f"{jrec['name']} cannot join {lrec['name']}'s party: {why}.", to=seen,
                       kind="koc")

    if joiner == leader or joiner in company(state, leader):
        return
    if _played(game, joiner) or _played(game, leader) or moved_with_party(state, joiner):
        return refuse("one of them has already played this game turn")
    if parties(state).get(joiner):
        return refuse(f"{jrec['name']} leads a party of his own (send 'leave party' first)")
    if leader_of(state, joiner) is not None:
        return refuse(f"{jrec['name']} rides in another party (send 'leave party' first)")
    if jrec["at"] != lrec["at"]:
        return refuse("they are not in the same place")
    if not able(jrec) or not able(lrec):
        return refuse("one of them cannot travel now")
    if "always_travel_alone" in jrec["oaths"] or "always_travel_alone" in lrec["oaths"]:
        return refuse("an oath to ride alone forbids it")
    q = Question("party", f"{jrec['name']} asks to ride in your party, with you leading. "
                 "Take him along?", ["yes", "no"], "no", tags=("pk",))
    if s.ask_other(leader, q) != "yes":
        return refuse(f"{lrec['name']} does not take him along")
    party = _parties_w(state).setdefault(leader, {"members": [],
                                                  "since": state["koc"]["turn"]})
    order = state["koc"]["order"]
    party["members"].append(joiner)
    party["members"].sort(key=order.index)
    game.ctx.event(f"{jrec['name']} joins {lrec['name']}'s party: they travel together, "
                   f"{lrec['name']} leading.", to=sorted(set(company(state, leader))),
                   kind="koc")


def involved(game: "Game", player: str, state: dict) -> list[str]:
    """The players whose orders a player turn starting from ``state`` uses beyond his own: the
    knights of his party and those who asked to join it (a paused turn keeps their orders)."""
    group = company(state, player)
    out = [p for p in group if p != player]
    for p, orders in sorted(game.orders.items()):
        if p not in group and orders is not None and orders.join and \
                _player_named(state, orders.join) in group:
            out.append(p)
    return out


# ------------------------------------------------------------------------------ the turn
def turn_role(s: Session) -> str:
    """'alone', 'lead' (a joint turn now), 'wait' (a member whose leader plays later this game
    turn) or 'done' (a member who already moved with his party)."""
    state = s.game.state
    leader = leader_of(state, s.player)
    if moved_with_party(state, s.player):
        return "done"
    if leader is None:
        return "alone"
    if leader == s.player:
        if not able(s.pk) or s.world.areas[s.pk["at"]["area"]].otherworld:
            drop(s.game, s.player, f"{s.pk['name']} cannot lead it now")
            return "alone"
        members = parties(state)[leader]["members"]
        for m in list(members):
            if not able(state["knights"][m]) or state["knights"][m]["at"] != s.pk["at"]:
                drop(s.game, m, "he is no longer with the party")
        return "lead" if leader in parties(state) else "alone"
    return "wait" if not _played(s.game, leader) else "done"


def waiting_for(s: Session) -> list[str]:
    """The members of this leader's party whose seats came before his: they wait for his
    turn (and play their own at once if the party breaks up before it)."""
    state = s.game.state
    if leader_of(state, s.player) != s.player:
        return []
    return [p for p in parties(state)[s.player]["members"]
            if _played(s.game, p) and not moved_with_party(state, p)]


def member_sessions(s: Session) -> list[Session]:
    """Sessions for the other knights of the leader's party (their decisions come from their
    own orders, standing answers and defaults; a joint turn waits only for its leader)."""
    return [Session(s.game, p, parent=s) for p in fellows_of(s.game.state, s.player)]


def mark_moved(state: dict, players: list[str]) -> None:
    moved = _turn_record(state)["moved"]
    for p in players:
        if p not in moved:
            moved.append(p)


def with_me(s: Session) -> list[Session]:
    """The fellows who share this knight's fortunes now: in his party, in the same place, able
    to act. Empty outside a party."""
    state = s.game.state
    out = []
    for p in fellows_of(state, s.player):
        rec = state["knights"][p]
        if able(rec) and rec["at"] == s.pk["at"]:
            out.append(Session(s.game, p, parent=s))
    return out


def follow(s: Session, before: dict) -> None:
    """The leader has moved (or boarded, sailed, landed, entered a castle): the members who
    were with him come along."""
    state = s.game.state
    if leader_of(state, s.player) != s.player:
        return
    for p in parties(state)[s.player]["members"]:
        rec = state["knights"][p]
        if able(rec) and rec["at"] == before:
            rec["at"] = dict(s.pk["at"])
            if "ship" in s.pk:
                rec["ship"] = dict(s.pk["ship"])
            else:
                rec.pop("ship", None)


def check(s: Session) -> None:
    """After the leader's movement: members carried elsewhere, or no longer able, leave."""
    state = s.game.state
    if leader_of(state, s.player) != s.player or s.player not in parties(state):
        return
    if not able(s.pk):
        drop(s.game, s.player, f"{s.pk['name']} can lead it no further")
        return
    for p in list(parties(state)[s.player]["members"]):
        rec = state["knights"][p]
        if not able(rec) or rec["at"] != s.pk["at"]:
            drop(s.game, p, "they are parted")
            if s.player not in parties(state):
                return


# ------------------------------------------------------------------------------ values
def records(s: Session) -> list[dict]:
    """The records of this knight and the fellows with him now."""
    return [s.pk, *(x.pk for x in with_me(s))]


def encounter_value(s: Session) -> int:
    """The whole party's: every knight, comrade knight or king, bound mad knight, and the
    Men-at-Arms at half (rounded up); at most 5."""
    recs = records(s)
    if len(recs) == 1:
        return kn.encounter_value(s.pk)
    knights = sum(kn.knights_in_party(r) for r in recs)
    value = knights + math.ceil(sum(len(r["men_at_arms"]) for r in recs) / 2)
    return min(5, value)


def movement_allowance(s: Session) -> int:
    """The slowest knight's party decides (a Knave's brigands on foot: the foot rate)."""
    from companion.koc.engine import villainy

    return villainy.allowance(s, min(kn.movement_allowance(r) for r in records(s)))


def party_knights(s: Session) -> int:
    """Knights in the whole party, the PKs included (a King's escort matches it)."""
    return sum(1 + sum(1 for c in r["comrades"] if c.get("kind") in ("knight", "king"))
               + len(r["men_at_arms"]) for r in records(s))
