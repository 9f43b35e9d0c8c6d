"""The player knight's record (the Adventure Journal) and the values derived from it.

Everything is plain JSON so it can live in the game state. VL and WL are never stored: VL is
CP/VP rounded up, WL is CP/10 rounded down (held while the knight carries poisoned wounds).
"""
from __future__ import annotations

import math
from typing import Any

CP_MIN, CP_MAX, VP_MIN = 10, 300, 1
GEAR = ("horse", "shield", "lance", "sword")


def new_knight(player: str, name: str, cp: int, vp: int, *, arthurian: bool = False) -> dict:
    return {
        "player": player,
        "name": name,
        "cp": cp,
        "vp": vp,
        "arthurian": arthurian,
        "poison": 0,               # poisoned wounds carried
        "held_wl": None,           # WL at the moment of the first poisoned wound
        "wounds": 0,               # ordinary wounds taken this turn
        "luck": None,              # this turn's Luck-of-the-Day
        "at": {"area": None, "where": "area"},
        # where: "area" (in the encounter area), "inside" (inside a castle), "gate" (outside a
        # castle that did not admit him), "ship" (aboard, 'area' is a sea, river or port),
        # "coast" (just landed on a coast), "prison" (in a cell; 'area' is the castle or town)
        "gear": {g: True for g in GEAR},
        "on_foot": False,          # dismounted this turn (wasteland, a lost horse)
        "items": [],               # magic items: {"key": ..., ...}
        "dwarf": None,             # {"arthurian": bool, "spares": [gear...]}
        "mascot": None,            # {"name": animal, "wl": n}
        "men_at_arms": [],         # NPK records
        "comrades": [],            # NPK or king records, with "joined": turn
        "party_extra": [],         # others travelling along: pilgrims, a lady, a bound mad knight
        "lord": None,              # {"kind": "king"|"knight", "name": card, "castle": area}
        "lady": None,              # {"name": card, "castle": area, "seduced": bool}
        "lord_summons": 0,         # unanswered Lord Summonses
        "lady_summons": 0,
        "token": False,            # the Lady's Token
        "home": None,              # {"kingdom": ..., "castellany": ..., "castle": area}
        "original_home": None,
        "friendly": [],            # friendly castles (area names)
        "outlawed": [],
        "exiles": [],              # kingdoms or castellanies
        "enemies": [],             # names of declared enemies
        "oaths": [],               # oath keys
        "enchantments": [],        # {"key": ..., "by": ..., ...}
        "enchantress": None,       # name of an Enchantress whose service holds him
        "mad": None,               # {"since": turn, "tests": n}
        "animal": None,            # animal form: the animal's name
        "immobile": [],            # {"why": ..., "turns": n}
        "lost": False,             # lost in a forest
        "prison": None,            # {"by": "king"|"pk"|"castle"|..., "jailor": ..., "direct": bool}
        "tasks": [],
        "arthur": {"favour": False, "bonus": 0, "task": None},
        "challenged": [],          # persons a challenge was fought with (once per game)
        "persistence": {},         # what he repeated last turn -> count
        "fasting": None,           # {"turns": n, "penance": bool}
        "slain": False,
        "turns_played": 0,
    }


# ------------------------------------------------------------------------- derived values
def vl(record: dict) -> int:
    """Virtue Level: CP / VP rounded up (lower is better)."""
    return math.ceil(record["cp"] / record["vp"])


def base_wl(cp: int) -> int:
    return cp // 10


def knave_rec(record: dict) -> dict | None:
    """The Knave record of a knight who plays as a Knave now (see engine/knaves.py)."""
    rec = record.get("knave")
    return rec if rec and not rec.get("absolved") else None


def wl_points(record: dict) -> int:
    """The points WL is counted from: CP; for a Knave CP + SP, at most 300 (KNAVES: Knave
    Combat)."""
    rec = knave_rec(record)
    return min(CP_MAX, record["cp"] + rec.get("sp", 0)) if rec else record["cp"]


def wl(record: dict) -> int:
    """Full Wound Level: CP/10 (a Knave's (CP+SP)/10; held at its value when first poisoned),
    less poisoned wounds, plus a Magic Girdle."""
    full = record["held_wl"] if record["held_wl"] is not None else base_wl(wl_points(record))
    bonus = 5 if has_item(record, "magic_girdle") else 0
    return max(0, full + bonus - record["poison"])


def current_wl(record: dict) -> int:
    """Wounds he can still take this turn."""
    return max(0, wl(record) - record["wounds"])


def has_item(record: dict, key: str) -> bool:
    return any(i["key"] == key for i in record["items"])


# ------------------------------------------------------------------------- awards
def add_cp(record: dict, amount: int) -> int:
    """Add (or take) CP within 10..300; returns the change actually made. CP a Knave loses
    become as many Scoundrel Points (only CP he has: the 10 CP floor holds)."""
    before = record["cp"]
    record["cp"] = max(CP_MIN, min(CP_MAX, before + amount))
    rec = knave_rec(record)
    if rec is not None and record["cp"] < before:
        rec["sp"] = rec.get("sp", 0) + before - record["cp"]
    return record["cp"] - before


def add_vp(record: dict, amount: int) -> int:
    before = record["vp"]
    record["vp"] = max(VP_MIN, before + amount)
    return record["vp"] - before


def poison(record: dict, wounds: int) -> None:
    if wounds <= 0:
        return
    if record["poison"] == 0 and record["held_wl"] is None:
        record["held_wl"] = base_wl(wl_points(record))
    record["poison"] += wounds


def cure_poison(record: dict, wounds: int | None = None) -> int:
    """Cure ``wounds`` poisoned wounds (all if None); WL held while poisoned is released when the
    last one is cured. Returns how many were cured."""
    cured = record["poison"] if wounds is None else min(wounds, record["poison"])
    record["poison"] -= cured
    if record["poison"] == 0:
        record["held_wl"] = None
    return cured


# ------------------------------------------------------------------------- party
def mounted(record: dict) -> bool:
    return record["gear"]["horse"] and not record["on_foot"] and record["animal"] is None


def party_knights(record: dict) -> list[dict]:
    return [*record["comrades"], *record["men_at_arms"]]


def knights_in_party(record: dict) -> int:
    """The PK, his comrade knights and kings, and a bound mad knight."""
    knights = 1 + sum(1 for c in record["comrades"] if c.get("kind") in ("knight", "king"))
    return knights + sum(1 for e in record["party_extra"] if e.get("kind") == "bound_mad_knight")


def encounter_value(record: dict) -> int:
    """The knights of his party (``knights_in_party``) and Men-at-Arms at half (rounded up);
    at most 5."""
    return min(5, knights_in_party(record) + math.ceil(len(record["men_at_arms"]) / 2))


def movement_allowance(record: dict) -> int:
    """Areas per turn: the slowest member decides. One rider per horse: 3 (a Valiant Charger:
    4); two riders on any horse: 2 (a Charger: 3); anybody on foot: 1; an animal: 2."""
    if record["animal"] is not None:
        return 2
    riders = 1 + len(record["comrades"]) + len(record["men_at_arms"])
    riders += sum(1 for e in record["party_extra"] if e.get("rides", True))
    if record["dwarf"]:
        riders += 1
    horses = (1 if record["gear"]["horse"] else 0)
    horses += sum(1 for c in party_knights(record) if c.get("horse", True))
    if record["dwarf"]:     # his own pony (unless it was slain or given up) and spare horses
        horses += (0 if record["dwarf"].get("no_horse") else 1) + \
            record["dwarf"]["spares"].count("horse")
    horses += sum(1 for e in record["party_extra"] if e.get("horse"))
    if any(e.get("walks") for e in record["party_extra"]):
        return 1
    if any(t.get("walk") and t.get("status") == "active" for t in record["tasks"]):
        return 1        # a task to be walked (adventure 4:3, the pilgrims' pace)
    if not record["gear"]["horse"] and horses == 0:
        return 1
    charger = has_item(record, "valiant_charger")
    if horses >= riders:
        return 4 if charger else 3
    if horses * 2 >= riders:
        return 3 if charger else 2
    return 1


def describe_gear(record: dict) -> str:
    have = [g for g in GEAR if record["gear"][g]]
    return ", ".join(have) if have else "no equipment"
