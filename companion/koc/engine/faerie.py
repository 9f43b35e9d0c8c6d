"""The land of Faerie: its own sequence of play (see docs/koc-engine.md).

Contract: ``faerie_turn(s)``: encounter on a Luck Test (no movement; no Mad Knight, Monster or
Hermit there), the magic exchange of CP and VP, and leaving by an Appeal to Jailor.

Also ``enter_faerie(s, *, award=True, why="")``: the PK passes into Faerie (by an adventure,
a castle's magic gateway, Merlin, or a dwarf's trick): his horse and the equipment he carries
go with him, but every companion and comrade stays behind except the Mascot (an Arthurian
Dwarf waits for him and is the first Dwarf he meets afterwards); with ``award`` he gains 12 VP
or 12 CP, as he chooses.
"""
from __future__ import annotations

from companion.koc.engine import knight as kn
from companion.koc.engine.questions import Spec, register
from companion.koc.engine.session import Question, Session
from companion.koc.engine.words import plural

register(
    Spec("faerie_award", "arriving in Faerie: take the 12 points as VP or as CP", ("vp", "cp"),
         "vp", tags=("faerie",)),
    Spec("faerie_magic", "Faerie's magic: exchange exactly the die's worth of CP for VP (or VP "
         "for CP), or nothing", ("none", "cp to vp", "vp to cp"), "none", tags=("faerie",),
         values=("points", "cp", "vp")),
    Spec("leave_faerie", "try to leave Faerie this turn (an Appeal to Jailor)", ("yes", "no"),
         "yes", tags=("faerie",)),
)


def faerie_area(s: Session) -> str:
    return next(a.name for a in s.world.areas.values() if a.otherworld)


def in_faerie(s: Session) -> bool:
    area = s.pk["at"]["area"]
    return bool(area) and s.world.areas[area].otherworld


def enter_faerie(s: Session, *, award: bool = True, why: str = "") -> None:
    from companion.koc.engine.encounters import drop_companions

    pk = s.pk
    dwarf = pk["dwarf"]
    if dwarf and dwarf.get("arthurian"):
        pk.setdefault("reunite", {})["dwarf"] = dwarf
        pk["dwarf"] = None
        s.note(f"{pk['name']}'s Arthurian Dwarf stays behind; he will wait for his master.")
    drop_companions(s, why="they cannot follow him into Faerie")
    pk.pop("ship", None)
    pk["lost"] = False
    pk["on_foot"] = not pk["gear"]["horse"]
    pk["at"] = {"area": faerie_area(s), "where": "area"}
    s.note(f"{pk['name']} passes into the land of Faerie" + (f" ({why})." if why else "."))
    if award:
        q = Question("faerie_award", "You have reached Faerie: take 12 VP or 12 CP?",
                     ["vp", "cp"], "vp", tags=("faerie",))
        if s.ask(q) == "cp":
            s.gain_cp(12, "reaching Faerie")
        else:
            s.gain_vp(12, "reaching Faerie")


def faerie_turn(s: Session) -> None:
    """Faerie's sequence of play (the Luck-of-the-Day and healing are as usual): no movement;
    an encounter only on a Luck Test (a Mad Knight, Monster or Hermit means none), never
    avoidable; the magic of exchanging points; no prayers or requests; leaving on an Appeal to
    Jailor."""
    from companion.koc.engine import encounters

    pk = s.pk
    pk["met"] = []
    s.note(f"{pk['name']} is in Faerie: he does not move.")
    if s.luck_test("an encounter in Faerie"):
        encounters.terrain_encounter(s, pk["at"]["area"])
    if pk["slain"] or s.pk is not pk or not in_faerie(s) or pk["prison"]:
        discard_met(s)
        return
    magic(s)
    depart(s)
    discard_met(s)


def discard_met(s: Session) -> None:
    """No requests in Faerie: the cards of persons met go back at once."""
    from companion.koc.engine.requests import discard_met as give_back

    met = s.pk.pop("met", [])
    if met:
        give_back(s, met)


def magic(s: Session) -> None:
    """One die: exactly that many points may change from CP to VP or back, or none at all
    (CP stays within 10-300, VP at least 1)."""
    pk = s.pk
    n = s.d6("Faerie's magic")
    options = ["none"]
    if pk["cp"] - n >= kn.CP_MIN:
        options.append("cp to vp")
    if pk["vp"] - n >= kn.VP_MIN and pk["cp"] + n <= kn.CP_MAX:
        options.append("vp to cp")
    if pk["mad"]:
        options = ["none"]
    q = Question("faerie_magic", f"Faerie's magic offers to change exactly {n} "
                 f"{plural(s, n, 'point')}: CP "
                 f"into VP, VP into CP, or none (now {pk['cp']} CP, {pk['vp']} VP).",
                 options, "none", tags=("faerie",),
                 values={"points": n, "cp": pk["cp"], "vp": pk["vp"]})
    choice = s.ask(q)
    if choice == "cp to vp":
        s.gain_cp(-n, "Faerie's magic")
        s.gain_vp(n, "Faerie's magic")
    elif choice == "vp to cp":
        s.gain_vp(-n, "Faerie's magic")
        s.gain_cp(n, "Faerie's magic")
    else:
        s.note(f"{pk['name']} leaves his points as they are.")


def depart(s: Session) -> None:
    """Leaving is an Appeal to Jailor (persisting after an ignored one: one reroll). Released,
    he comes back to a random countryside, with no encounter roll, and without the companions
    and comrades found in Faerie (not the Mascot), plus what the appeal takes."""
    from companion.koc.engine import resolutions
    from companion.koc.engine.encounters import drop_companions

    pk = s.pk
    q = Question("leave_faerie", "Try to leave Faerie this turn (an Appeal to Jailor)?",
                 ["yes", "no"], "yes", tags=("faerie",))
    if s.ask(q) != "yes":
        pk.pop("faerie_appeal", None)
        s.note(f"{pk['name']} lingers in Faerie.")
        return
    persisting = pk.get("faerie_appeal") == s.game.state["koc"]["turn"] - 1
    s.note(f"{pk['name']} seeks a way out of Faerie.")
    if not resolutions.appeal_to_jailor(s, persisting=persisting):
        pk["faerie_appeal"] = s.game.state["koc"]["turn"]
        if not pk["slain"] and in_faerie(s):
            s.note(f"Faerie keeps {pk['name']} a while longer.")
        return
    pk.pop("faerie_appeal", None)
    if pk["slain"] or s.pk is not pk:
        return
    drop_companions(s, why="they cannot leave Faerie with him")
    result = s.chart("deploy_countryside", purpose="where he comes back from Faerie")
    area = s.world.area(result.entry.get("area") or result.entry.label).name
    pk["at"] = {"area": area, "where": "area"}
    pk["on_foot"] = not pk["gear"]["horse"]
    s.note(f"{pk['name']} finds himself back in {area} (no encounter roll).")
