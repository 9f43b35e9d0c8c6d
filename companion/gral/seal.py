"""Sealed influence sheets: the PBEM answer to the rules' "if you are leery" clause.

Every report prints, for each player, a commitment to that player's sheet at the end of the
turn: ``sha256(salt + canonical_json(sheet))`` as hex, where ``salt`` is 64 hex digits known only
to the moderator's store (a fresh salt for every player and turn, so a commitment reveals
nothing, not even whether a sheet changed). When the game ends, the disclosure file publishes
every turn's sheets and salts. Anyone can then check, with this module or by hand:

1. each turn's commitments match the disclosed sheets and salts (compare them with the ones
   printed in your own reports: they cannot have been changed afterwards);
2. units were only ever added, never moved or removed, and only in turns where that player
   assigned influence (opening or an assign action);
3. payments for blowing covers are exactly the public ones, 10 points each;
4. nobody revealed more influence than their sheet held at the time, and the losses declared
   for uncovered initiates are what the sheets held;
5. the winner had the most influence on the bearer.
"""
from __future__ import annotations

from typing import Any

from companion.engine.canon import canonical_json, sha256_hex

FORMAT = "companion-gral-disclosure"


def disclosure(world, game, turns) -> dict[str, Any]:
    """Everything needed to check the sheets, built from a game's stored turns."""
    players = [p.name for p in game.players]
    final = turns[-1].state
    salts = final.get("salts") or {}
    out_turns = []
    for turn in turns:
        state = turn.state
        assigned = {p: False for p in players}
        for decision in turn.decisions:
            if decision["kind"] in ("opening", "action") and decision["answer"].startswith("assign"):
                assigned[decision["player"]] = True
        payments, reveals, lost = [], [], []
        for event in turn.events:
            data = event.get("data", {})
            if event["kind"] == "payment":
                payments.append({"player": data["player"], "initiate": data["initiate"],
                                 "amount": 10})
            elif event["kind"] == "contest" and "revealed" in data:
                for p, n in data["revealed"].items():
                    reveals.append({"player": p, "initiate": data["initiate"], "amount": n})
                if data.get("mover_shown"):
                    reveals.append({"player": data["mover"], "initiate": data["initiate"],
                                    "amount": data["mover_shown"]})
            elif event["kind"] == "uncover":
                for p, n in data["lost"].items():
                    lost.append({"player": p, "initiate": data["target"], "amount": n})
        out_turns.append({
            "turn": turn.number,
            "commitments": state.get("commitments", {}),
            "salts": salts.get(str(turn.number), {}),
            "sheets": {p: state["sheets"][p] for p in players},
            "assigned": assigned,
            "payments": payments,
            "reveals": reveals,
            "lost": lost,
        })
    return {
        "format": FORMAT,
        "game": game.id,
        "players": players,
        "units": {u.id: u.value for u in world.units},
        "recipe": "commitment = sha256 hex of (salt + sheet as canonical JSON: keys sorted, "
                  "no spaces, UTF-8)",
        "turns": out_turns,
        "result": final.get("result"),
    }


def commitment_of(salt: str, sheet: dict[str, Any]) -> str:
    return sha256_hex(salt + canonical_json(sheet))


def verify(data: dict[str, Any]) -> list[str]:
    """Check a disclosure; return the problems found (empty: everything is consistent)."""
    problems: list[str] = []
    if data.get("format") != FORMAT:
        return ["not a Gral disclosure file"]
    units: dict[str, int] = data["units"]
    players: list[str] = data["players"]

    def gross(sheet: dict, initiate: str) -> int:
        return sum(units.get(u, 0) for u, t in sheet["units"].items() if t == initiate)

    previous = None
    for entry in data["turns"]:
        t = entry["turn"]
        for p in players:
            sheet = entry["sheets"][p]
            salt = entry["salts"].get(p)
            if salt is None:
                problems.append(f"turn {t}: no salt disclosed for {p}")
            elif commitment_of(salt, sheet) != entry["commitments"].get(p):
                problems.append(f"turn {t}: {p}'s sheet does not match the commitment printed "
                                "in that turn's reports")
            for u in sheet["units"]:
                if u not in units:
                    problems.append(f"turn {t}: {p}'s sheet uses an unknown unit {u}")
            if previous is not None:
                before = previous["sheets"][p]
                for u, target in before["units"].items():
                    if sheet["units"].get(u) != target:
                        problems.append(f"turn {t}: {p}'s unit {u} was moved or removed")
                added = [u for u in sheet["units"] if u not in before["units"]]
                if added and not entry["assigned"].get(p):
                    problems.append(f"turn {t}: {p}'s sheet gained units {', '.join(added)} "
                                    "without an assignment that turn")
                for initiate in set(sheet["paid"]) | set(before["paid"]):
                    diff = sheet["paid"].get(initiate, 0) - before["paid"].get(initiate, 0)
                    public = sum(x["amount"] for x in entry["payments"]
                                 if x["player"] == p and x["initiate"] == initiate)
                    if diff != public:
                        problems.append(f"turn {t}: {p} paid {diff} on {initiate}, but the public "
                                        f"record shows {public}")
        for r in entry["reveals"]:
            sheet = entry["sheets"][r["player"]]
            paid_before = (previous["sheets"][r["player"]]["paid"].get(r["initiate"], 0)
                           if previous else 0)
            bound = gross(sheet, r["initiate"]) - paid_before
            if r["amount"] > bound:
                problems.append(f"turn {t}: {r['player']} revealed {r['amount']} on "
                                f"{r['initiate']} but held at most {bound}")
        for x in entry["lost"]:
            sheet = entry["sheets"][x["player"]]
            held = gross(sheet, x["initiate"]) - sheet["paid"].get(x["initiate"], 0)
            if held != x["amount"]:
                problems.append(f"turn {t}: {x['player']} declared {x['amount']} lost on "
                                f"{x['initiate']} but the sheet held {held}")
        previous = entry
    result = data.get("result")
    if result and result.get("bearer") and previous is not None and result.get("totals"):
        for p in players:
            sheet = previous["sheets"][p]
            held = gross(sheet, result["bearer"]) - sheet["paid"].get(result["bearer"], 0)
            if held != result["totals"].get(p):
                problems.append(f"result: {p} held {held} on the bearer, not "
                                f"{result['totals'].get(p)} as announced")
    return problems
