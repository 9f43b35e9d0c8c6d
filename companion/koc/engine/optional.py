"""Optional rules of part 3 that bite in several places (rules: OPTIONAL RULES): Limited Luck,
Seeking Encounters, Devils, Player Knights Tricking Player Knights, and the Lord Admiral's
flagship (Signal Honour). Each is switched on by its name in ``--option rules=...`` and hooked
where it bites (combat.py, movement.py, encounters.py, rivals.py); see docs/koc-engine.md.
"""
from __future__ import annotations

from companion.koc.engine import knight as kn
from companion.koc.engine.questions import Spec, register
from companion.koc.engine.session import Question, Session

TRICKS = ("abandon_lady", "imprisonment", "fight_unarmed", "break_oath", "lose_horses",
          "tell_a_lie", "fight_enemy", "lose_lance", "escort_pilgrims", "deliver_message",
          "prophecy")

register(
    Spec("seek_encounter", "Seeking Encounters: after a roll that found nothing, try a Luck "
         "Test to find an encounter (once in each area a turn)", ("yes", "no"), "no",
         tags=("countryside", "forest", "river", "wasteland", "town", "shrine")),
    Spec("pk_trick", "Tricking Player Knights: at the start of your turn, before a challenge "
         "between player knights, trick your opponent instead (12 VP; you need 13 VP or "
         "more): the trick you choose, or no",
         ("no", *(t.replace("_", " ") for t in TRICKS)), "no", tags=("pk", "lady")),
    Spec("flagship", "Lord Admiral: boarding in a port where the flagship is not, look for it "
         "(a Luck Test; failing, he waits in port) or take a ship of the port",
         ("seek", "any ship"), "seek", tags=("port",)),
)


# ============================================================================== Limited Luck
def luck_interval(cp: int) -> int:
    """Limited Luck: fight rounds from one Luck Test to the next (100 CP or less: 3; 101-200:
    2; 201 or more: every round)."""
    return 3 if cp <= 100 else 2 if cp <= 200 else 1


def combat_luck_allowed(s: Session, combat) -> bool:
    """Whether the knight may attempt a Luck Test now in this combat (Limited Luck). A fight
    round is one pass (both sides roll their attack dice: ``combat.rounds``); the first Luck
    Test of a combat is always allowed, the next only ``luck_interval`` rounds later."""
    if not s.options_rule("limited_luck"):
        return True
    rounds = getattr(combat, "rounds", 0)
    last = getattr(combat, "luck_round", None)
    if last is not None and rounds - last < luck_interval(s.pk["cp"]):
        return False
    combat.luck_round = rounds
    return True


# ============================================================================== Seeking
def seek_encounter(s: Session, area: str) -> bool:
    """Seeking Encounters: after a roll that found nothing, a Luck Test finds an encounter
    (question ``seek_encounter``, default no); once in each area in a turn."""
    if not s.options_rule("seeking_encounters") or s.pk["lost"] or s.pk["mad"]:
        return False
    tried = s.__dict__.setdefault("sought_in", [])
    if area in tried:
        return False
    place = s.world.areas[area]
    kind = "shrine" if place.is_shrine and place.kind != "castle" else place.kind
    q = Question("seek_encounter", f"Nothing in {area}: look for an encounter (a Luck Test)?",
                 ["yes", "no"], "no", tags=(kind,))
    if s.ask(q) != "yes":
        return False
    tried.append(area)
    if s.luck_test(f"find an encounter in {area}"):
        s.note(f"{s.pk['name']} goes looking for adventure in {area}, and finds it.")
        return True
    s.note(f"{s.pk['name']} looks for adventure in {area}, in vain.")
    return False


# ============================================================================== Devils
def is_devil(s: Session) -> bool:
    """Devils: a Monster met at random is a Devil on a die of 1."""
    if not s.options_rule("devils"):
        return False
    return s.d6("is the monster a Devil") == 1


def fight_devil(s: Session) -> dict:
    """A Devil (WL d6+4, three attack dice): fought on foot (horses and Mascots will not come
    near), it ignores the combat events that would touch it; the knight takes his VL off each
    of his attack rolls, and a Hermit travelling with him adds his one die. Winning a pass, it
    gives one Poisoned Wound, which a VL Test of the knight wards off. After a pass it vanishes
    when a die is no more than the Poisoned Wounds it gave (or at once when one more would
    slay him). Vanquished: its WL in CP and VP; vanished: the wounds he gave it, in CP and VP.
    Returns {"outcome": "vanquished" | "vanished" | "fled", "wounds": n, "poisoned": n}."""
    from companion.koc.engine.combat import Combat, Place, foe, left

    pk = s.pk
    wl = s.d6("the Devil's wound level") + 4
    devil = foe("devil", "the Devil", wl, 3, events=())
    pk["on_foot"] = True
    s.note(f"It is a Devil (WL {wl})! Horses and Mascots will not come near it: "
           f"{pk['name']} fights on foot.")
    c = Combat(s, [devil], attacker="foe", alone=True, tags=("monster",),
               place=Place(False, False, True, "devil"))
    hermits = [e for e in pk["party_extra"] if e.get("kind") == "hermit"]
    vl = kn.vl(pk)
    poisoned = 0
    outcome = None
    for _ in range(200):
        mine, _broke = c.roll(c.me, devil)
        mine -= vl
        if hermits:
            mine += s.d6(f"the prayers of {hermits[0]['name']}")
        theirs = sum(s.dice(3, "attack of the Devil"))
        c.rounds = getattr(c, "rounds", 0) + 1
        if mine > theirs:
            devil["wounds"] += min(mine - theirs, left(devil))
        elif theirs > mine:
            if not s.vl_test(vl, "resist the Devil's poison"):
                kn.poison(pk, 1)
                poisoned += 1
                s.note(f"The Devil gives {pk['name']} a Poisoned Wound (WL now {kn.wl(pk)}).")
        s.note(f"Pass: {pk['name']} {mine}, the Devil {theirs}; the Devil WL {left(devil)}.")
        if kn.current_wl(pk) <= 0:
            from companion.koc.engine.combat import knight_slain

            knight_slain(s)
            return {"outcome": "slain", "wounds": devil["wounds"], "poisoned": poisoned}
        if left(devil) <= 0:
            outcome = "vanquished"
            break
        if mine == theirs:
            c.event(devil)
            if c.result.fled:
                outcome = "fled"
                break
        if kn.current_wl(pk) <= 1:
            outcome = "vanished"
            break
        if poisoned and s.d6("does the Devil vanish") <= poisoned:
            outcome = "vanished"
            break
    if outcome == "vanquished":
        s.note(f"{pk['name']} vanquishes the Devil.")
        s.gain_cp(wl, "vanquishing a Devil")
        s.gain_vp(wl, "vanquishing a Devil")
    elif outcome == "vanished":
        s.note("Its work done, the Devil vanishes.")
        s.gain_cp(devil["wounds"], "wounds given to a Devil")
        s.gain_vp(devil["wounds"], "wounds given to a Devil")
    return {"outcome": outcome, "wounds": devil["wounds"], "poisoned": poisoned}


# ============================================================================== Tricking PKs
def pk_trick(s: Session, other: Session, *, at_start: bool) -> str | None:
    """Tricking Player Knights: before a challenge between two player knights (plain or for a
    Lady) taking place at the start of the challenger's turn, the challenger, then the one
    challenged, may trick the other instead (question ``pk_trick``: the trick chosen from the
    Tricks chart). It costs the trickster 12 VP and needs 13 VP; the victim escapes on a Luck
    Test, and then the trickster must fight. Returns 'tricked' (the trick took the place of the
    challenge), 'fight' (a failed trick: the challenge must be fought) or None."""
    if not s.options_rule("tricking_pks") or not at_start:
        return None
    for trickster, victim in ((s, other), (other, s)):
        if trickster.pk["vp"] < 13:
            continue
        q = Question("pk_trick", f"You face {victim.pk['name']}: trick him instead of "
                     "fighting (12 VP; he escapes on a Luck Test)? Name the trick, or no.",
                     ["no", *(t.replace("_", " ") for t in TRICKS)], "no", tags=("pk",))
        answer = s.ask_other(trickster.player, q) if trickster is not s else s.ask(q)
        if answer == "no":
            continue
        key = answer.replace(" ", "_")
        trickster.gain_vp(-12, f"trying to trick {victim.pk['name']}")
        s.note(f"{trickster.pk['name']} tries to trick {victim.pk['name']}.")
        from companion.koc.engine.resolutions import trick

        if trick(victim, by={"kind": "pk", "name": trickster.pk["name"]}, chosen=key):
            s.note(f"The trick fails: {trickster.pk['name']} must fight "
                   f"{victim.pk['name']}.")
            return "fight"
        return "tricked"
    return None


# ============================================================================== the flagship
FLAGSHIP = {"kind": "ship", "name": "the Arthurian flagship", "wl": 35, "flagship": True}


def is_admiral(pk: dict) -> bool:
    return (pk.get("office") or {}).get("key") == "lord_admiral"


def board_flagship(s: Session, port: str) -> bool | None:
    """The Lord Admiral boards in a port: his flagship if it lies there; elsewhere he may look
    for it (question ``flagship``: a Luck Test; failing, he waits in port this turn). Returns
    True (aboard the flagship), False (he waits) or None (an ordinary ship)."""
    pk = s.pk
    if not is_admiral(pk):
        return None
    office = pk["office"]
    if office.get("flagship") != port:
        q = Question("flagship", f"The flagship is not in {port}: look for it (a Luck Test) "
                     "or take a ship of the port?", ["seek", "any ship"], "seek",
                     tags=("port",))
        if s.ask(q) != "seek":
            return None
        if not s.luck_test("find the flagship"):
            s.note(f"The flagship is not to be found in {port} this turn.")
            return False
        s.note(f"The flagship comes into {port}.")
    pk["ship"] = dict(FLAGSHIP)
    office["flagship"] = port
    return True


def good_winds(pk: dict, total: int) -> bool:
    """The flagship has Good Winds on 6-9 of the Sea Encounters chart."""
    ship = pk.get("ship") or {}
    return bool(ship.get("flagship")) and 6 <= total <= 9


def flagship_moored(s: Session, port: str | None) -> None:
    """He leaves the flagship: it stays in the port he sailed it to (None: not in a port, it
    must be found again)."""
    pk = s.pk
    if is_admiral(pk) and (pk.get("ship") or {}).get("flagship"):
        pk["office"]["flagship"] = port
