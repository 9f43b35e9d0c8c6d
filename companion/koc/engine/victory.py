"""Winning and the end of a game (VICTORY CONDITIONS; KNAVES: How to win as a Knave,
Interaction of Knights and Knaves).

A game has up to two winners: the first knight to meet his scenario's goal (``koc["winner"]``)
and the first Knave to reach ten Knave Victory Points (``koc["knave_winner"]``). The rules say a
mixed game has one of each; they do not say when such a game stops. Our decision
(docs/koc-engine.md, "The end of a game"): a game is over once every side still in play has its
winner: a knight winner with no Knave in play ends it, as does a Knave winner with no honest
knight left; with both kinds at the table it goes on until both are won. Every rule that
decides a winner calls :func:`declare`; nothing else writes these keys.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from companion.koc.engine import knight as kn
from companion.koc.engine.words import knight_and_player

if TYPE_CHECKING:
    from companion.koc.engine.session import Session

KNIGHT, KNAVE = "knight", "knave"
KEYS = {KNIGHT: "winner", KNAVE: "knave_winner"}


def is_knave(pk: dict) -> bool:
    """Whether this knight plays as a Knave now (a repentant one still is, until absolved)."""
    return bool(pk.get("knave")) and not pk["knave"].get("absolved", False)


def goal(state: dict) -> str:
    """The knights' goal in this game: 'round_table' (King Arthur, Basic, Advanced: be made a
    Knight of the Round Table) or 'grail' (Quest of the Holy Grail, Campaign: bring the Holy
    Grail to Camelot Castle). A scenario file may name either."""
    from companion.koc.scenarios import terms_of

    return terms_of(state)["goal"]


def declare(s: "Session", side: str, reason: str) -> bool:
    """The session's knight wins for ``side`` (``knight`` or ``knave``) because ``reason``
    (a clause such as 'brings the Holy Grail to Camelot Castle'). False when that side already
    has its winner (the first one wins). Ends the game when :func:`settle` says so."""
    return record(s.game.state, s.announce, s.player, side, reason)


def record(state: dict, announce, player: str, side: str, reason: str) -> bool:
    """:func:`declare` without a session: ``announce(text)`` tells every player."""
    koc = state["koc"]
    key = KEYS[side]
    if koc.get(key):
        return False
    koc[key] = player
    koc.setdefault("reasons", {})[side] = reason
    title = "the game" if side == KNIGHT else "the game as a Knave"
    who = knight_and_player(state, state["knights"][player]["name"], player)
    announce(f"{who} {reason} and wins {title}.")
    settle(state)
    if koc["over"]:
        announce("The game is over.")
    return True


def time_up(game) -> None:
    """After the last game turn a scenario allows (``turn_limit``): each side without a
    winner gets the best knight of that side by the final standings, and the game ends
    whatever else is left. Nobody wins a side no knight plays."""
    from companion.koc.scenarios import terms_of

    state = game.state
    koc = state["koc"]
    limit = terms_of(state).get("turn_limit", 0)
    if not limit or koc["over"] or koc["turn"] < limit:
        return

    def say(text: str) -> None:
        game.ctx.event(text, kind="koc")

    say(f"Game turn {limit} was the scenario's last.")
    rows = [r for r in standings(state) if not r["slain"]]
    for side in (KNIGHT, KNAVE):
        if koc.get(KEYS[side]):
            continue
        best = next((r for r in rows if r["knave"] == (side == KNAVE)), None)
        if best is not None:
            why = (f"has the most Knave Victory Points ({best['kvp']})" if side == KNAVE
                   else f"stands best when time runs out (VL {best['vl']}, CP {best['cp']})")
            record(state, say, best["player"], side, why)
    if not koc["over"]:
        koc["over"] = True
        say("The game is over.")


def settle(state: dict) -> None:
    """Set ``koc["over"]`` when every side in play has its winner."""
    koc = state["koc"]
    if koc["over"]:
        return
    knights = [pk for pk in state["knights"].values() if not pk.get("slain")]
    knaves_in_play = any(is_knave(pk) for pk in knights)
    honest_in_play = any(not is_knave(pk) for pk in knights)
    need = []
    if honest_in_play or not knaves_in_play:
        need.append(KNIGHT)
    if knaves_in_play:
        need.append(KNAVE)
    won = [side for side in (KNIGHT, KNAVE) if koc.get(KEYS[side])]
    if won and all(koc.get(KEYS[side]) for side in need):
        koc["over"] = True


def winners(state: dict) -> list[tuple[str, str, str]]:
    """(side, player, reason) for each winner so far, the knight winner first."""
    koc = state["koc"]
    out = []
    for side in (KNIGHT, KNAVE):
        player = koc.get(KEYS[side])
        if player:
            out.append((side, player, koc.get("reasons", {}).get(side, "")))
    return out


def standings(state: dict) -> list[dict]:
    """Every knight's final standing, best first: winners, then by VL (lower is better), CP
    and VP; Knaves also by Knave Victory Points. Used for the final report and `show`."""
    koc = state["koc"]
    rows = []
    for player in koc["order"]:
        pk = state["knights"][player]
        knave = pk.get("knave") or {}
        rows.append({"player": player, "name": pk["name"], "cp": pk["cp"], "vp": pk["vp"],
                     "vl": kn.vl(pk), "wl": kn.wl(pk), "slain": bool(pk.get("slain")),
                     "arthurian": bool(pk.get("arthurian")), "knave": is_knave(pk),
                     "kvp": knave.get("kvp", 0),
                     "won": [side for side in (KNIGHT, KNAVE)
                             if koc.get(KEYS[side]) == player]})
    rows.sort(key=lambda r: (not r["won"], r["slain"], -r["kvp"] if r["knave"] else 0,
                             r["vl"], -r["cp"], -r["vp"], koc["order"].index(r["player"])))
    return rows
