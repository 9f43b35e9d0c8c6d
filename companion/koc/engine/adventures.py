"""Adventures performed at their sites, shared, abandoned and rewarded (rules: ADVENTURES,
LIST OF ADVENTURES, OPTIONAL ADVENTURES, PLAYER INTERACTION; the decisions where the rules
are silent are in docs/koc-engine.md, "Adventures performed: decisions").

Hearing of an adventure (``resolutions.record_adventure``) places its site and records the
task; this module does the rest.

Contract (the hooks the other modules call):

* ``heard(s, task)``: right after an adventure was recorded: the cards it drew are held by it
  (``adv["cards"]``), the King's hunt castle receives the knight without a reaction roll, 6:5
  is also a summons, the Pict leader is drawn, the errand's item is packed.
* ``arrive(s, task)``: the knight reached the site (``resolutions.task_done``): the task's
  status becomes ``at_site`` and the entry's first step is performed (a fight, a search, a
  castle's gate, Faerie, ...). Entries that take several turns keep their state on the task
  (``adv["stage"]``) and go on through the hooks below.
* ``start_of_turn(s)`` (``encounters.start_of_movement``): ended adventures give back what
  they held; Rome's shrine or town; the dwarf of 3:3 back from Faerie; the orders
  ``share adventure ...`` and ``abandon adventure ...``.
* ``movement_hook(s, plan) -> bool`` (``movement.movement_phase``): a knight who stays at a
  site spends his movement on it (riding up to its castle, searching, the King's hunt, an
  appeal or assault for a prisoner); True when that was his movement.
* ``first_encounter(s, area) -> bool`` and ``band_found(s, area) -> bool``
  (``encounters.terrain_encounter``): the encounter that is the adventure's foe (3:5, 4:2; the
  brigands of 8:4).
* ``requests_hook(s)`` (``requests.requests_phase``): prayers (2:6, 3:1, 4:6; one Man-at-Arms
  may pray instead), waiting out an impossible adventure, castles that admitted him, the
  wilderness walk, leaving a site.
* ``owed_request(s, who, request) -> bool``: a request owed by the knight's Lord or Lady (an
  adventure's reward) is granted at once.
* ``prophecy_pending(pk) -> dict | None``: an unattempted prophecy (King Arthur will not hear
  the petition for the Round Table while one is held; the Grail code may ask the same).
* ``progress(task) -> str``: a line for the knight's own report.

Awards (``finish``): success pays the entry's VP and CP ("wl"/"wls": the WL of the foes
defeated); a failed attempt half the VP rounded up and no CP; an impossible adventure its half
VP after three turns in place; nothing when it came from a trick or as a Man-at-Arms of the
victor (``awards`` False), nothing for failure under Knight's Fate 9
(``no_failure_award``). The award is divided equally among the knights sharing it who are
present, the leftover to the knight who first heard of it. Tournaments (5:5, 5:6, 6:3) are
``tournaments.adventure_tournament``'s.
"""
from __future__ import annotations

import math
import re

from companion.engine.game import edition
from companion.koc.engine import knight as kn
from companion.koc.engine import tasks
from companion.koc.engine.questions import Spec, register
from companion.koc.engine.session import Question, Session
from companion.koc.engine.words import plural

SHARED_SITE_UNFIXED = 5
"""The rules edition from which an invitation to share an adventure whose site is not fixed
(6:5 without a castle to save, one ridden with a knight) says so, and the sharer's task names
no site; before, "(its site: None)" and "sharing Cora's adventure 6:5 ... at None"."""

FAILED_WL_HALF = 7
"""The rules edition from which a failed attempt at an entry whose VP award is its foe's WL
(6:2 Slay Monster) pays half that WL in VP, rounded up, as any failed adventure pays half its
VP award (ADVENTURES, Awards); before, the award counted only the foes defeated, so the
monster left standing made the half award nothing."""

ESCORT_TURN_VP = 7
"""The rules edition from which the escort adventures (1:2 a Lady, 1:3 Pilgrims) earn the
escort's 1 VP for each turn on the road outside a castle, as every escort does (REQUESTS,
Escort; the entry points there), besides the 6 VP of arriving; the adventure's awards replace
only those of its encounters and fights (ADVENTURES, Awards). Before, they earned the 6 VP
alone."""

GRACE_AT_THE_START = 7
"""The rules edition from which an adventure's turn of grace (staying to gather aid before
setting out) is had only in the area where the knight heard of it: once he has left it, a
movement phase in which he could ride on and does not (no encounter stopping him) is a stop
along the route, and the adventure disappears (ADVENTURES, Pursuing Adventures, and Sir
Robert's example); before, the one turn could be taken anywhere on the way."""

TOURNAMENTS = ("tournament_for_lady", "tournament_at_camelot", "tournament")
COURTING = ("court_lady",)                  # an adventure that depends on courting a Lady
PRAYERS = ("lift_enchantment", "cure_wounded_knight", "cure_lady")
NO_AWARD_IF_ENCHANTRESS = ("court_lady", "visit_lady", "cure_lady")
FAERIE = ("visit_faerie", "white_hart")
MARSHES = ("Lincoln Marsh", "Holbeach Marsh", "Terrington Marsh")
ENDED = ("done", "failed", "cancelled", "abandoned")
DESTINATIONS = ("escort_lady", "escort_pilgrims", "pilgrimage_canterbury", "pilgrimage_rome")
SEARCH = {"find_animal": "the {creature}", "mad_knight": "the mad knight",
          "pict_revolt": "the Picts", "journey_to_london": "the item's recipient",
          "journey_to_york": "the item's recipient", "druid_stone_ring": "the stone ring",
          "scour_the_wastelands": "the brigands' lair"}

register(
    Spec("share", "another player knight invites you to share his adventure (you must be with "
         "him when he reaches its site; the award is divided)", ("yes", "no"), "yes"),
    Spec("faerie_share", "your share of a shared Faerie adventure (3:3, 3:4): take it as VP "
         "or as CP", ("vp", "cp"), "vp", tags=("faerie",)),
    Spec("adventure_prayer", "who says the prayer an adventure needs this turn (2:6, 3:1, "
         "4:6): best (a Man-at-Arms whose prayer works as often as yours, else you; only a "
         "Man-at-Arms when you ordered other prayers), self, man-at-arms, or none",
         ("best", "self", "man-at-arms", "none"), "best"),
    Spec("court", "at the castle of adventure 1:1, court its lady (a request for her service, "
         "with its Luck Test)", ("yes", "no"), "yes"),
    Spec("free_prisoner", "at the castle of adventure 5:1 or 5:2: appeal to the jailor (once "
         "the castle admits you), storm it, or give up", ("appeal", "storm", "leave"),
         "appeal"),
    Spec("rome", "at the start of a full turn in Rome: stay at its shrine or go into its town",
         ("shrine", "town"), "shrine"),
    Spec("company", "Knight's Fate 7: the victor you ride with has fallen and you won the "
         "day: stay and take the adventure as your own, or ride away without penalty",
         ("stay", "leave"), "stay"),
)


# ============================================================================== helpers
def turn_no(s: Session) -> int:
    return s.game.state["koc"]["turn"]


def is_adventure(task: dict) -> bool:
    return task.get("kind") == "adventure" and isinstance(task.get("adventure"), dict)


def ident(task: dict) -> str:
    adv = task["adventure"]
    return f"{adv.get('id', '?')} {adv.get('label', '')}".strip()


def running(task: dict) -> bool:
    return is_adventure(task) and task["status"] in ("active", "at_site") and \
        not task["adventure"].get("result")


def _res():
    from companion.koc.engine import resolutions

    return resolutions


def _enc():
    from companion.koc.engine import encounters

    return encounters


def _fellow(s: Session, player: str) -> Session:
    return s if player == s.player else Session(s.game, player, parent=s)


def _lady_is_enchantress(adv: dict) -> bool:
    return bool((adv.get("lady") or {}).get("enchantress"))


def _able(pk: dict) -> bool:
    return not (pk["slain"] or pk["prison"] or pk["mad"] or pk.get("asleep")
                or pk["at"]["where"] == "prison")


def _in_faerie(s: Session, pk: dict | None = None) -> bool:
    area = (pk or s.pk)["at"]["area"]
    return bool(area) and s.world.areas[area].otherworld


def _holds(s: Session, task: dict) -> bool:
    """The task is still on this knight's record (he was not slain and replaced)."""
    return any(t is task for t in s.pk["tasks"])


# ============================================================================== hearing
def heard(s: Session, task: dict) -> None:
    """What an adventure needs from the moment it is heard of."""
    from companion.koc.engine import resolutions as rs

    pk = s.pk
    adv = task["adventure"]
    key = adv["key"]
    cards: list[list[str]] = []
    for card in adv.get("knights", []):
        cards.append(["knights", card["name"]])
    if adv.get("knight") and ["knights", adv["knight"]["name"]] not in cards:
        cards.append(["knights", adv["knight"]["name"]])
    if adv.get("lady"):
        cards.append(["ladies", adv["lady"]["name"]])
    adv["cards"] = cards
    adv["heard_at"] = pk["at"]["area"]
    if key == "kings_hunt" and adv.get("castle"):
        # the King expects him: no castle reaction is rolled
        rs.temp_friendly(s, adv["castle"])
    elif key == "save_your_lady":
        from companion.koc.engine import service

        castle = adv.get("castle")
        who = "lady" if castle and castle == service.lady_castle(s) else "lord"
        s.note(f"The call to adventure {adv['id']} is also a summons from his "
               f"{'Lady' if who == 'lady' else 'Lord'}.")
        service.summons(s, who)
    elif key == "pict_revolt":
        card = rs.draw_knight(s, "the renegade leading the Picts", arthurian=False)
        adv["knight"] = card
        adv["cards"].append(["knights", card["name"]])
    elif key in ("journey_to_london", "journey_to_york"):
        town = adv.get("site") or "London"
        pk["party_extra"].append({"kind": "item", "name": f"the parcel for {town}",
                                  "rides": False, "task": task["id"]})
    if task.get("prophecy"):
        adv["prophecy_heard"] = turn_no(s)


# ============================================================================== arriving
def arrive(s: Session, task: dict) -> None:
    """The knight reached the site of an adventure: perform its first step."""
    adv = task["adventure"]
    if adv.get("result"):
        return
    key = adv["key"]
    first = task["status"] != "at_site" and "arrived" not in adv
    task["status"] = "at_site"
    adv.setdefault("arrived", turn_no(s))
    if key in TOURNAMENTS:
        _tournament(s, task)
        return
    stage = adv.get("stage")
    if stage in ("home", "deliver"):
        _delivered(s, task)
        return
    if first:
        s.note(f"{s.pk['name']} reaches the site of adventure {ident(task)}.")
    _gather(s, task, arrival=True)
    if not _able(s.pk) or _in_faerie(s):
        _leave(s, task, "he cannot go on with it")
        return
    handler = ARRIVALS.get(key)
    if handler is None:
        finish(s, task, "success")
        return
    handler(s, task)


def _tournament(s: Session, task: dict) -> None:
    try:
        from companion.koc.engine import tournaments

        run = tournaments.adventure_tournament
    except (ImportError, AttributeError):
        if not task["adventure"].get("waiting_note"):
            task["adventure"]["waiting_note"] = True
            s.tell("The tournament cannot be held yet.")
        return
    run(s, task)


# -- castles -------------------------------------------------------------------------------
def site_castle(s: Session, task: dict) -> str | None:
    adv = task["adventure"]
    if adv.get("castle"):
        return adv["castle"]
    site = adv.get("site") or task.get("dest")
    if site and site in s.world.areas and s.world.areas[site].kind == "castle":
        return site
    return None


def inside(s: Session, castle: str | None) -> bool:
    at = s.pk["at"]
    return bool(castle) and at["where"] == "inside" and at.get("castle", at["area"]) == castle


def _at_castle(s: Session, castle: str) -> bool:
    at = s.pk["at"]
    return at.get("castle", at["area"] if s.world.areas[at["area"]].kind == "castle"
                  else None) == castle and at["where"] in ("inside", "gate")


def _approach(s: Session, task: dict, *, now: bool) -> bool:
    """Whether he is inside the site's castle. A castle counter standing in this area is
    ridden up to (a castle reaction) when nothing else happened to him here this turn
    (``now``), else next turn; at a gate he persists by staying."""
    castle = site_castle(s, task)
    if castle is None or inside(s, castle):
        return castle is not None
    adv = task["adventure"]
    if _at_castle(s, castle):
        adv["stage"] = "visit"
        return False
    adv["stage"] = "approach"
    if not now or s.pk.get("encountered"):
        s.note(f"{s.pk['name']} will ride up to {castle} next turn, if he stays.")
    else:
        adv["attempted"] = True
        s.note(f"{s.pk['name']} rides up to {castle}.")
        _enc().castle_encounter(s, castle)
        if inside(s, castle):
            return True
        if _at_castle(s, castle):
            adv["stage"] = "visit"
    return False


# -- the entries -----------------------------------------------------------------------------
def _visit(s: Session, task: dict) -> None:
    """1:1, 1:6, 2:1, 2:2, 4:6: a castle that must receive him."""
    if _approach(s, task, now=True):
        _visited(s, task, arrival=True)
    elif task["adventure"].get("stage") == "visit":
        task["adventure"]["attempted"] = True
        s.note(f"{s.pk['name']} waits at the gate of {site_castle(s, task)}; staying, he "
               "tries again.")


def _visited(s: Session, task: dict, *, arrival: bool = False) -> None:
    """He is inside the castle of a visit."""
    adv = task["adventure"]
    key = adv["key"]
    adv["attempted"] = True
    castle = site_castle(s, task)
    if castle in (s.pk.get("knave") or {}).get("holds", {}):
        # a Knave who took the castle by storm is nobody's guest there: whoever he was sent to
        # call on was beaten and imprisoned or turned out (docs/koc-engine.md)
        s.note(f"{s.pk['name']} holds {castle} by force: nobody receives him there as a "
               f"guest, and adventure {ident(task)} fails.")
        finish(s, task, "failure")
        return
    if key == "court_lady":
        adv["stage"] = "court"
        s.note(f"{s.pk['name']} is received at {castle}; he may court its lady.")
        return          # courting is a request: the requests phase (requests_hook)
    if key == "cure_lady":
        lady = adv.get("lady") or {}
        s.note(f"At {castle} {lady.get('name', 'a lady')} lies in an enchanted sleep.")
        if lady.get("enchantress"):
            s.note(f"{lady.get('name')} is an Enchantress: there is nothing to win here.")
            finish(s, task, "nothing")
            return
        adv["stage"] = "pray"
        return
    if key == "visit_lady" and _lady_is_enchantress(adv):
        s.note(f"{adv['lady']['name']} receives him, but she is an Enchantress: the visit "
               "earns nothing.")
        finish(s, task, "nothing")
        return
    if key == "visit_king_arthur":
        s.note(f"{s.pk['name']} enters Camelot and is presented to King Arthur.")
    elif key == "visit_local_king":
        owner = _res().castle_owner(s, castle)
        s.note(f"{s.pk['name']} is received by {owner.get('name', 'the lord')} at {castle}.")
    elif key == "visit_lady":
        s.note(f"{adv['lady']['name']} welcomes {s.pk['name']} at {castle}.")
    finish(s, task, "success")


def _court(s: Session, task: dict) -> None:
    """1:1: meet the lady of the castle (her reaction), then court her: a request for her
    service. The courtship pays her Service Award and its 6 VP itself."""
    from companion.koc.engine import requests

    pk = s.pk
    adv = task["adventure"]
    lady = adv["lady"]
    if pk["lady"]:
        _impossible_turn(s, task, f"{pk['name']} already serves a Lady and cannot court "
                         f"{lady['name']}")
        return
    out = _enc().meet_lady(s, lady, status=False, ask=False)
    _forget_met(s, lady)
    if not _holds(s, task) or not _able(pk):
        finish(s, task, "failure")
        return
    if lady.get("enchantress"):
        s.note(f"{lady['name']} is an Enchantress: the adventure earns nothing.")
        finish(s, task, "nothing")
        return
    if pk["lady"] and pk["lady"]["name"] == lady["name"]:
        # she offered her service herself, and he took it: the suit is won
        if task["adventure"].get("awards", True):
            s.gain_vp(6, f"adventure {ident(task)}: the lady's service won")
        finish(s, task, "success")
        return
    if getattr(out, "attitude", None) != "friendly" or pk["lady"]:
        s.note(f"{lady['name']} does not welcome his suit.")
        finish(s, task, "failure")
        return
    q = Question("court", f"{lady['name']} receives you kindly. Court her (a request for her "
                 "service)?", ["yes", "no"], "yes")
    if s.ask(q) != "yes":
        s.note(f"{pk['name']} does not court {lady['name']}.")
        finish(s, task, "failure")
        return
    person = requests.person(lady, "lady", at_castle=True, alone=True,
                             castle=site_castle(s, task))
    if requests.grant(s, person, "service"):
        finish(s, task, "success")
    else:
        finish(s, task, "failure")


def _forget_met(s: Session, card: dict) -> None:
    """A person the adventure holds is not left among this turn's meetings (her card stays
    with the adventure until it ends)."""
    met = s.pk.get("met")
    if met:
        s.pk["met"] = [m for m in met if (m.get("card") or {}).get("name") != card.get("name")]


def _destination(s: Session, task: dict) -> None:
    """1:2, 1:3, 4:3, 5:4: arriving is success (Carbonek's shrine once the castle admits him;
    Rome's shrine, not its town)."""
    pk = s.pk
    adv = task["adventure"]
    adv["attempted"] = True
    if not _site_ready(s, task):
        adv["stage"] = "visit"
        where = "the shrine of Carbonek needs the castle's welcome" \
            if task["dest"] == "Carbonek" else "he is in the town, not at the shrine"
        s.note(f"{pk['name']} is at {task['dest']}, but {where}.")
        return
    finish(s, task, "success")


def _site_ready(s: Session, task: dict) -> bool:
    pk = s.pk
    site = task.get("dest")
    if site == "Carbonek":
        return inside(s, "Carbonek")
    if site == "Rome":
        return pk.get("rome", "shrine") == "shrine"
    return True


def _searching(s: Session, task: dict) -> None:
    """Entries whose foe or goal must first be found (a Luck Test)."""
    adv = task["adventure"]
    adv["stage"] = "find"
    if s.pk.get("encountered"):
        s.note(f"After this turn's encounter {s.pk['name']} cannot search; he may stay and "
               "search from next turn.")
        return
    search(s, task)


def search(s: Session, task: dict) -> bool:
    adv = task["adventure"]
    key = adv["key"]
    creature = (adv.get("creature") or {}).get("name", "animal")
    what = SEARCH.get(key, "what he seeks").format(creature=creature)
    adv["attempted"] = True
    adv["searches"] = adv.get("searches", 0) + 1
    found = tasks.find_here(s, f"adventure {adv['id']}", f"find {what}",
                            found=f"{s.pk['name']} finds {what}.",
                            missed=f"{s.pk['name']} does not find {what} this turn.")
    if found:
        FOUND[key](s, task)
    return found


def _found_animal(s: Session, task: dict) -> None:
    """1:4: found, the adventure is done; the animal then reacts as any animal met."""
    adv = task["adventure"]
    finish(s, task, "success")
    chit = adv.get("creature")
    if chit and _able(s.pk):
        _enc().meet_animal(s, dict(chit), ask=False)


def _hunt_arrival(s: Session, task: dict) -> None:
    """1:5: at the royal castle; he rides out with the King next turn (at once if he was
    already there when he heard of it, a turn ago)."""
    adv = task["adventure"]
    adv["stage"] = "hunt"
    if adv.get("heard_at") == s.pk["at"]["area"] and adv.get("heard", 0) < turn_no(s):
        adv["hunt"] = turn_no(s)
        hunt(s, task)
        return
    adv["hunt"] = turn_no(s) + 1
    s.note(f"{s.pk['name']} will ride out hunting with the King next turn.")


def hunt(s: Session, task: dict) -> None:
    from companion.koc.engine import party
    from companion.koc.engine.combat import foe

    pk = s.pk
    adv = task["adventure"]
    castle = site_castle(s, task) or pk["at"]["area"]
    owner = _res().castle_owner(s, castle)
    around = s.world.local_countryside(tasks.castle_area(s, castle)).name
    before = pk["at"]
    pk["at"] = {"area": around, "where": "area"}
    party.follow(s, before)
    pk["encountered"] = True
    s.note(f"{pk['name']} rides out of {castle} into {around} with {owner.get('name', 'the King')}"
           " and his escort to hunt.")
    chit = adv.get("creature") or s.game.draw_chit("animal", "the quarry of the King's hunt")
    beast = foe("animal", chit["name"], chit["wl"], chit.get("dice", 2))
    s.note(f"The hunt starts a {chit['name']} (WL {chit['wl']}), which turns on "
           f"{pk['name']}.")
    won, _result = fight(s, task, [beast], tags=("animal",), personal=True)
    finish(s, task, "success" if won else "failure")


def _fight_arrival(s: Session, task: dict) -> None:
    """Entries whose foes wait at the site: met on arrival."""
    from companion.koc.engine import resolutions as rs
    from companion.koc.engine.combat import foe, npk

    pk = s.pk
    adv = task["adventure"]
    key = adv["key"]
    values = adv["values"]
    if key == "vanquish_knight":
        card = adv["knight"]
        s.note(f"{card['name']}, hostile, rides against {pk['name']}.")
        won, _ = fight(s, task, [npk(card)], tags=("knight",), personal=True)
    elif key in ("vanquish_brigands", "barbarian_raiders"):
        won, _ = fight(s, task, brigands(s, values.get("count", 5)), tags=("brigands",))
    elif key == "avenge_knight":
        s.note(f"The ogre that slew {pk['name']}'s friend is here.")
        won, _ = fight(s, task, [foe("monster", "the Ogre", values.get("wl", 10), 3)],
                       tags=("monster",))
    elif key == "distressed_lady":
        card = adv["knight"]
        s.note(f"{card['name']} is mistreating {adv['lady']['name']}; {pk['name']} rides to "
               "her rescue.")
        won, _ = fight(s, task, [npk(card)], attacker="pk", tags=("knight",), personal=True)
        if won:
            _friend(s, task, adv["lady"])
    elif key == "kings_champion":
        card = adv["knight"]
        s.note(f"{card['name']} stands for the King of {site_castle(s, task) or task['dest']} "
               f"against {pk['name']}.")
        won, _ = fight(s, task, [npk(card)], attacker="pk", tags=("knight",), personal=True,
                       alone=True)
        if won:
            _friend(s, task, rs.castle_owner(s, site_castle(s, task) or task["dest"]),
                    castle=site_castle(s, task), lord_request=True)
    elif key == "avenge_baron":
        won = _avenge_baron(s, task)
    elif key == "avenge_lady":
        knaves = [npk(c) for c in adv["knights"]]
        s.note(f"Knaves hold {site_castle(s, task)}: " + ", ".join(c["name"] for c in knaves)
               + ".")
        won, _ = fight(s, task, knaves, attacker="pk", tags=("knights",))
        if won:
            _friend(s, task, adv["lady"], castle=site_castle(s, task))
    elif key == "rescue_lady":
        s.note(f"A serpent is terrorising {adv['lady']['name']}.")
        won, _ = fight(s, task, [foe("monster", "the Serpent", values.get("wl", 16), 3)],
                       tags=("monster",))
        if won:
            _friend(s, task, adv["lady"])
    elif key == "slay_monster":
        chit = adv.get("creature") or s.game.draw_chit("monster", "the monster")
        if edition(s.game.state) >= FAILED_WL_HALF:
            adv["creature"] = chit          # its WL is the award, even for a failure
        s.note(f"The {chit['name']} (WL {chit['wl']}) is upon {pk['name']}.")
        won, _ = fight(s, task, [foe("monster", chit["name"], chit["wl"], chit.get("dice", 3))],
                       tags=("monster",))
    elif key == "rescue_lady_from_trolls":
        trolls = [foe("monster", "Troll", 7, 3), foe("monster", "Troll (the larger)", 8, 3)]
        s.note(f"Two trolls besiege {adv['lady']['name']} in {site_castle(s, task)}.")
        won, _ = fight(s, task, trolls, tags=("monster",))
        if won:
            _friend(s, task, adv["lady"], castle=site_castle(s, task))
    elif key == "save_your_lady":
        s.note(f"A huge dragon lies before {site_castle(s, task) or task['dest']}.")
        won, _ = fight(s, task, [foe("monster", "the Dragon", values.get("wl", 25), 3)],
                       tags=("monster",))
        if won:
            _owed_from_summoner(s, task)
    elif key == "vanquish_rebels":
        won = _rebels(s, task)
    elif key == "treason_afoot":
        won = _treason(s, task)
        if won:
            return
    else:
        won = False
    if not task["adventure"].get("result"):
        finish(s, task, "success" if won else "failure")


def brigands(s: Session, n: int, *, leader_wl: int | None = None) -> list[dict]:
    from companion.koc.engine.combat import foe

    band = []
    for i in range(n):
        if leader_wl is not None and i == n - 1:
            band.append(foe("brigand", "the brigands' leader", leader_wl, 2))
            continue
        chit = s.game.draw_chit("brigand", "a brigand of the adventure")
        band.append(foe("brigand", f"brigand {i + 1}", chit["wl"], chit.get("dice", 2)))
    s.note(f"{n} brigands: WL " + ", ".join(str(b["wl"]) for b in band) + ".")
    return band


def _avenge_baron(s: Session, task: dict) -> bool:
    """4:4: the wronged Baron (a friendly knight) waits outside his castle and rides with the
    knight against the two who wronged him."""
    from companion.koc.engine import resolutions as rs
    from companion.koc.engine.combat import npk

    pk = s.pk
    adv = task["adventure"]
    baron = adv.get("baron")
    if baron is None:
        baron = rs.draw_knight(s, "the wronged baron")
        adv["baron"] = baron
        adv["cards"].append(["knights", baron["name"]])
    s.note(f"{baron['name']}, the wronged baron, meets {pk['name']} outside "
           f"{site_castle(s, task)} and rides with him.")
    helper = dict(baron, joined=turn_no(s), wounds=0, helper=True)
    pk["comrades"].append(helper)
    try:
        foes = [npk(c) for c in adv["knights"]]
        won, _ = fight(s, task, foes, attacker="pk", tags=("knights",))
    finally:
        if any(c is helper for c in pk["comrades"]):
            pk["comrades"] = [c for c in pk["comrades"] if c is not helper]
    if won:
        _friend(s, task, baron, castle=site_castle(s, task))
    return won


def _rebels(s: Session, task: dict) -> bool:
    """6:6: five knights, then the King himself."""
    from companion.koc.engine import resolutions as rs
    from companion.koc.engine.combat import npk

    adv = task["adventure"]
    castle = site_castle(s, task) or task["dest"]
    knights = [npk(c) for c in adv["knights"]]
    s.note(f"Rebel knights hold {castle}: " + ", ".join(k["name"] for k in knights) + ".")
    won, _ = fight(s, task, knights, attacker="pk", tags=("knights",))
    if not won or not _holds(s, task) or not _able(s.pk):
        return False
    king = rs.castle_owner(s, castle)
    s.note(f"{king.get('name', 'The King')} himself comes out against {s.pk['name']}.")
    won, _ = fight(s, task, [npk(dict(king, kind="king"))], attacker="pk", tags=("king",))
    if won:
        _friend(s, task, {"kind": "king", "name": "King Arthur", "castle": "Camelot Castle"},
                castle="Camelot Castle", lord_request=True)
    return won


def _treason(s: Session, task: dict) -> bool:
    """8:5-6: three barbarian chieftains slain, three renegades taken to King Arthur."""
    from companion.koc.engine.combat import npk

    adv = task["adventure"]
    chiefs = brigands(s, 3)
    for i, c in enumerate(chiefs):
        c["name"] = f"chieftain {i + 1}"
    renegades = [dict(npk(c), kept=True) for c in adv["knights"]]
    s.note("The renegades " + ", ".join(r["name"] for r in renegades) + " meet three "
           "barbarian chieftains.")
    won, result = fight(s, task, chiefs + renegades, attacker="pk", tags=("knights",))
    if not won:
        return False
    _take_captives(s, task, [f["card"] for f in renegades])
    _travel(s, task, "deliver", "Camelot Castle", temp_friendly=True,
            why="to hand the renegades over to King Arthur")
    return True


def _take_captives(s: Session, task: dict, cards: list[dict]) -> None:
    pk = s.pk
    for card in cards:
        pk["party_extra"].append({"kind": "captive", "name": card["name"], "card": card,
                                  "horse": True, "task": task["id"]})
    s.note(f"{pk['name']} takes " + ", ".join(c["name"] for c in cards) + " prisoner.")


def _travel(s: Session, task: dict, stage: str, castle: str, *, temp_friendly: bool,
            why: str) -> None:
    """The adventure goes on elsewhere (a madman taken home, captives delivered): the task is
    on the road again, with no route rule."""
    adv = task["adventure"]
    adv["stage"] = stage
    adv["goal"] = castle
    if temp_friendly:
        _res().temp_friendly(s, castle)
    task["dest"] = tasks.castle_area(s, castle)
    task["route"] = None
    task["status"] = "active"
    s.note(f"{s.pk['name']} sets out for {castle} {why}.")


def _delivered(s: Session, task: dict) -> None:
    """5:3, 7:1-2, 8:5-6: arriving where the madman or the captives are to go. The castle must
    receive him (Camelot and a madman's home do, for this visit)."""
    from companion.koc.engine import resolutions as rs

    pk = s.pk
    adv = task["adventure"]
    key = adv["key"]
    castle = adv.get("goal") or task["dest"]
    if key == "mad_knight":
        card = adv["knight"]
        if not _madman_with(pk, card["name"]):
            s.note(f"{card['name']} is no longer with {pk['name']}.")
            finish(s, task, "failure")
            return
    elif not _captives(pk, task):
        s.note(f"{pk['name']} has no captive left to hand over.")
        finish(s, task, "failure")
        return
    if not inside(s, castle):
        adv["stage_wait"] = True
        s.note(f"{pk['name']} waits at the gate of {castle}; staying, he tries again.")
        return
    if key == "mad_knight":
        card = adv["knight"]
        _part_with(s, card["name"])
        s.note(f"{pk['name']} brings {card['name']} home to {castle}.")
        if card.get("arthurian"):
            pk["arthur"]["favour"] = True
            s.note(f"King Arthur will look kindly on {pk['name']} (Arthur's Favour).")
            finish(s, task, "success")
            return
        finish(s, task, "success", friend=(rs.castle_owner(s, castle), castle, True))
        return
    for extra in _captives(pk, task):
        pk["party_extra"].remove(extra)
    if key == "pict_revolt":
        owner = rs.castle_owner(s, castle)
        s.note(f"{pk['name']} hands the renegade over to {owner.get('name')}.")
        finish(s, task, "success", friend=(owner, castle, True))
    else:
        s.note(f"{pk['name']} hands the renegades over to King Arthur.")
        finish(s, task, "success", friend=({"kind": "king", "name": "King Arthur",
                                             "castle": "Camelot Castle"}, "Camelot Castle",
                                            True))


def _captives(pk: dict, task: dict) -> list[dict]:
    return [e for e in pk["party_extra"] if e.get("kind") == "captive"
            and e.get("task") == task["id"]]


def _madman_with(pk: dict, name: str) -> bool:
    return any(e.get("name") == name for e in pk["party_extra"]) or \
        any(c["name"] == name for c in pk["men_at_arms"] + pk["comrades"])


def _part_with(s: Session, name: str) -> None:
    pk = s.pk
    pk["party_extra"] = [e for e in pk["party_extra"] if e.get("name") != name]
    pk["men_at_arms"] = [c for c in pk["men_at_arms"] if c["name"] != name]
    pk["comrades"] = [c for c in pk["comrades"] if c["name"] != name]


def _found_mad_knight(s: Session, task: dict) -> None:
    """5:3: found, he is subdued (a madman fights bare-handed with two dice) and taken home."""
    from companion.koc.engine.combat import foe

    adv = task["adventure"]
    card = adv["knight"]
    wl = (card.get("cp") or 10) // 10
    s.note(f"The mad knight is {card['name']} (WL {wl}); raving, he attacks.")
    madman = foe("mad_knight", card["name"], wl, 2, shield=False, shieldless_matters=True,
                 card=card, vl=card["vl"], arthurian=card.get("arthurian", False), kept=True)
    won, _ = fight(s, task, [madman], tags=("mad_knight",))
    if not won:
        finish(s, task, "failure")
        return
    pk = s.pk
    pk["party_extra"].append({"kind": "bound_mad_knight", "name": card["name"], "card": card,
                              "rides": True, "horse": False})
    if card.get("arthurian"):
        home = "Camelot Castle"
    else:
        home = tasks.random_royal_castle(s)
    s.note(f"{pk['name']} binds {card['name']} to take him home to {home}.")
    _travel(s, task, "home", home, temp_friendly=True, why=f"with {card['name']}")


def _found_picts(s: Session, task: dict) -> None:
    """7:1-2: six Picts and their renegade leader; beaten, the leader goes to King
    Galahaut."""
    from companion.koc.engine.combat import npk

    adv = task["adventure"]
    band = brigands(s, 6)
    leader = dict(npk(adv["knight"]), kept=True)
    s.note(f"The Picts are led by {leader['name']}.")
    won, _ = fight(s, task, band + [leader], attacker="pk", tags=("brigands",))
    if not won:
        finish(s, task, "failure")
        return
    _take_captives(s, task, [adv["knight"]])
    king = next(k for k in s.world.kings if k.kingdom == "Surluise")
    castle = s.world.kingdoms["Surluise"].royal_castle
    _travel(s, task, "deliver", castle, temp_friendly=False,
            why=f"to bring the renegade before {king.name}")


def _found_recipient(s: Session, task: dict) -> None:
    """7:3-4, 7:5-6: the item handed over."""
    pk = s.pk
    item = [e for e in pk["party_extra"] if e.get("kind") == "item"
            and e.get("task") == task["id"]]
    if not item:
        s.note(f"{pk['name']} no longer has the item: the errand earns nothing.")
        finish(s, task, "nothing")
        return
    for e in item:
        pk["party_extra"].remove(e)
    s.note(f"{pk['name']} hands the item to its recipient.")
    finish(s, task, "success")


def _found_ring(s: Session, task: dict) -> None:
    """8:1: the druid's spell, then the druid and his six animals attack."""
    from companion.koc.engine import resolutions as rs
    from companion.koc.engine.combat import foe

    pk = s.pk
    adv = task["adventure"]
    s.note("At the stone ring a druid waits with six beasts.")
    rs.enchant(s, {"kind": "druid", "name": "the druid", "vl": 13}, 3, druid=True)
    if not _holds(s, task) or not _able(pk) or pk["at"]["area"] != task["dest"]:
        finish(s, task, "failure")
        return
    animals = []
    first = adv.get("creature")
    for i in range(6):
        chit = first if i == 0 and first else s.game.draw_chit("animal", "a druid's beast")
        animals.append(foe("animal", f"{chit['name']} ({i + 1})", chit["wl"],
                           chit.get("dice", 2)))
    druid = foe("hermit", "the druid", 1, 1, druid=True)
    won, _ = fight(s, task, animals + [druid], tags=("animal",), count=("animal",))
    finish(s, task, "success" if won else "failure")


def _found_band(s: Session, task: dict) -> None:
    """8:4: seven brigands, six drawn and a leader of WL 10."""
    band = brigands(s, 7, leader_wl=task["adventure"]["values"].get("wl", 10))
    won, _ = fight(s, task, band, tags=("brigands",))
    finish(s, task, "success" if won else "failure")


FOUND = {"find_animal": _found_animal, "mad_knight": _found_mad_knight,
         "pict_revolt": _found_picts, "journey_to_london": _found_recipient,
         "journey_to_york": _found_recipient, "druid_stone_ring": _found_ring,
         "scour_the_wastelands": _found_band}


def _prayer_arrival(s: Session, task: dict) -> None:
    """2:6: the enchanted knight is fought first; 3:1: the wounded knight is there. Then the
    prayers (requests phase)."""
    from companion.koc.engine.combat import npk

    adv = task["adventure"]
    if adv["key"] == "lift_enchantment":
        card = adv["knight"]
        s.note(f"{card['name']}, under an Enchantress's spell, attacks {s.pk['name']}.")
        won, _ = fight(s, task, [dict(npk(card), kept=True)], tags=("knight",))
        if not won:
            finish(s, task, "failure")
            return
        s.note(f"{card['name']} is overcome; only a prayer can free him of the spell.")
    else:
        s.note(f"{adv['knight']['name']} lies here with a poisoned wound.")
    adv["stage"] = "pray"


def _faerie_arrival(s: Session, task: dict) -> None:
    """3:3, 3:4: the leader is led into Faerie (companions stay behind, the Mascot goes with
    him); the White Hart becomes a Mascot if he has none."""
    from companion.koc.engine import faerie

    pk = s.pk
    adv = task["adventure"]
    adv["attempted"] = True
    if adv["key"] == "white_hart":
        s.note("The White Hart is waiting, and leads the way.")
        if pk["mascot"] is None and "always_travel_alone" not in pk["oaths"]:
            pk["mascot"] = {"name": "White Hart", "wl": adv["values"].get("wl", 8)}
            s.note(f"The White Hart stays with {pk['name']} as his Mascot.")
    else:
        s.note("The dwarf is waiting, and leads the way.")
        adv["dwarf_waits"] = True
    people = payees(s, task)
    faerie.enter_faerie(s, award=False, why=f"adventure {ident(task)}")
    finish(s, task, "success", people=people)


def _first_encounter_arrival(s: Session, task: dict) -> None:
    """3:5, 4:2: the first encounter indicated here is the brigands."""
    task["adventure"]["stage"] = "first_encounter"
    s.note(f"The first encounter {s.pk['name']} has here will be the brigands.")


def _beast(s: Session, task: dict) -> None:
    """4:1: one attempt to find the Questing Beast on arrival; then it moves on, and he may
    follow it (6 VP a sighting)."""
    from companion.koc.engine import resolutions as rs

    pk = s.pk
    adv = task["adventure"]
    adv["attempted"] = True
    found = rs.sight_beast(s)
    if not found:
        s.note("The Questing Beast is not found.")
    finish(s, task, "success" if found else "failure")
    if _holds(s, task) and _able(pk):
        area = s.world.areas[task["dest"]]
        land = (area.castellanies or area.kingdoms or (None,))[0]
        new = rs.questing_beast(s, first=False, exclude=land)
        if new is not None:
            new["sightings"] = 1


def _free_arrival(s: Session, task: dict) -> None:
    adv = task["adventure"]
    adv["stage"] = "free"
    if s.pk.get("encountered"):
        s.note(f"{s.pk['name']} will try to free the prisoner next turn.")
        return
    free_attempt(s, task)


def free_attempt(s: Session, task: dict) -> None:
    """5:1, 5:2: an appeal (once the castle admits him) or an assault. Three failed appeals or
    a lost assault are a failed attempt."""
    from companion.koc.engine import resolutions as rs

    pk = s.pk
    adv = task["adventure"]
    castle = site_castle(s, task)
    prisoner = adv.get("lady") if adv["key"] == "free_lady" else adv.get("knight")
    q = Question("free_prisoner", f"{prisoner['name']} is held in {castle}. Appeal to the "
                 "jailor, storm the castle, or give up?", ["appeal", "storm", "leave"],
                 "appeal")
    choice = s.ask(q)
    if choice == "leave":
        if adv.get("attempted"):
            finish(s, task, "failure")
        else:
            finish(s, task, "abandoned")
        return
    adv["attempted"] = True
    if choice == "storm":
        n = s.d6(f"knights holding {castle}")
        defenders = [rs.draw_knight(s, f"a defender of {castle}") for _ in range(n)]
        adv["cards"] += [["knights", c["name"]] for c in defenders]
        from companion.koc.engine.combat import npk

        s.note(f"{pk['name']} storms {castle}: {n} {plural(s, n, 'knight')} "
               f"{plural(s, n, 'defends', 'defend', old='defend')} it.")
        won, result = fight(s, task, [npk(c) for c in defenders], attacker="pk",
                            tags=("knights", "castle"), on_defeat="none")
        if won:
            adv["by_combat"] = True
            s.note(f"{castle} falls to {pk['name']}'s assault.")
            _freed(s, task)
        else:
            if _holds(s, task) and result is not None and result.pk_defeated and \
                    not pk["slain"]:
                rs.imprison(s, by="castle", jailor=f"the lord of {castle}", castle=castle)
            finish(s, task, "failure")
        return
    if not inside(s, castle):
        s.note(f"{pk['name']} rides up to {castle} to plead for {prisoner['name']}.")
        _enc().castle_encounter(s, castle, persisting=_at_castle(s, castle))
        if not _holds(s, task) or not inside(s, castle):
            s.note(f"{castle} does not admit him: no appeal this turn.")
            return
    adv["appeals"] = adv.get("appeals", 0) + 1
    if rs.appeal_to_jailor(s, castle=castle, prisoner=dict(prisoner), appealer="pk",
                           persisting=adv["appeals"] > 1):
        _freed(s, task)
    elif adv["appeals"] >= 3:
        s.note(f"Three appeals have failed: {pk['name']} has done what he could.")
        finish(s, task, "failure")


def _freed(s: Session, task: dict) -> None:
    pk = s.pk
    adv = task["adventure"]
    if adv["key"] == "free_lady":
        lady = adv["lady"]
        s.note(f"{lady['name']} is free.")
        finish(s, task, "success", friend=(lady, None, False))
        return
    card = adv["knight"]
    s.note(f"{card['name']} is free.")
    if not adv.get("awards", True) or not _holds(s, task):
        pass                # (no award: he rides home; the card goes back at the end)
    elif "always_travel_alone" in pk["oaths"]:
        s.note(f"{card['name']} thanks {pk['name']} and rides away.")
    else:
        member = dict(card, joined=turn_no(s), wounds=0)
        pk["men_at_arms"].append(member)
        s.note(f"{card['name']} serves {pk['name']} as a Man-at-Arms.")
    finish(s, task, "success")


def _wilderness(s: Session, task: dict) -> None:
    """8:3: alone and on foot with sword and shield through the three marshes."""
    from companion.koc.engine import party
    from companion.koc.engine.encounters import drop_companions

    pk = s.pk
    adv = task["adventure"]
    adv["attempted"] = True
    adv["stage"] = "walk"
    adv["marshes"] = [pk["at"]["area"]] if pk["at"]["area"] in MARSHES else []
    party.drop(s.game, s.player, "he must walk the wastes alone")
    dwarf = pk["dwarf"]
    if dwarf and dwarf.get("arthurian"):
        pk.setdefault("reunite", {})["dwarf"] = dwarf
        pk["dwarf"] = None
    drop_companions(s, why="he walks the wastes alone")
    stored = [g for g in ("horse", "lance") if pk["gear"][g]]
    for g in stored:
        pk["gear"][g] = False
    pk["on_foot"] = True
    adv["stored"] = stored
    s.note(f"{pk['name']} sets out alone into the wastes on foot, with only sword and shield"
           + (f"; his {' and '.join(stored)} will follow him" if stored else "") + ".")


def _wild_step(s: Session, task: dict) -> None:
    """The wilderness walk, after each movement: the marshes entered, leaving the wastes, the
    Man-at-Arms with his gear found, a castle or town reached."""
    pk = s.pk
    adv = task["adventure"]
    area = s.world.areas[pk["at"]["area"]]
    if adv["stage"] == "walk":
        if area.kind == "wasteland":
            if area.name in MARSHES and area.name not in adv["marshes"]:
                adv["marshes"].append(area.name)
                s.note(f"{pk['name']} has crossed {area.name} "
                       f"({len(adv['marshes'])} of the three marshes).")
            return
        if len(adv["marshes"]) < len(MARSHES):
            s.note(f"{pk['name']} leaves the wastes before he has walked all three marshes.")
            _gear_back(s, task, draw=False)
            finish(s, task, "failure")
            return
        adv["stage"] = "gear"
        s.note(f"{pk['name']} comes out of the wastes; his gear must be found.")
    if adv["stage"] == "gear":
        if pk.get("encountered"):
            return
        if tasks.find_here(s, f"adventure {adv['id']}", "find the Man-at-Arms with his gear",
                           found=f"{pk['name']} finds the Man-at-Arms carrying his gear.",
                           missed=f"{pk['name']} does not find the Man-at-Arms this turn."):
            _gear_back(s, task, draw=True)
            adv["stage"] = "town"
    if adv["stage"] == "town":
        at = pk["at"]
        if area.kind == "castle" or (area.is_town and not area.otherworld) or at.get("castle"):
            s.note(f"{pk['name']} reaches {at.get('castle', at['area'])}: the walk is over.")
            finish(s, task, "success")


def _gear_back(s: Session, task: dict, *, draw: bool) -> None:
    from companion.koc.engine import resolutions as rs

    pk = s.pk
    adv = task["adventure"]
    for g in adv.get("stored", []):
        pk["gear"][g] = True
    if adv.get("stored"):
        pk["on_foot"] = not pk["gear"]["horse"]
    adv["stored"] = []
    if draw and "always_travel_alone" not in pk["oaths"]:
        card = rs.draw_knight(s, "the Man-at-Arms carrying his gear")
        pk["men_at_arms"].append(dict(card, joined=turn_no(s), wounds=0))
        s.note(f"{card['name']} stays with {pk['name']} as his Man-at-Arms.")


ARRIVALS = {
    "court_lady": _visit, "escort_lady": _destination, "escort_pilgrims": _destination,
    "find_animal": _searching, "kings_hunt": _hunt_arrival, "visit_king_arthur": _visit,
    "visit_lady": _visit, "visit_local_king": _visit, "vanquish_knight": _fight_arrival,
    "vanquish_brigands": _fight_arrival, "avenge_knight": _fight_arrival,
    "lift_enchantment": _prayer_arrival, "cure_wounded_knight": _prayer_arrival,
    "distressed_lady": _fight_arrival, "visit_faerie": _faerie_arrival,
    "white_hart": _faerie_arrival, "irish_brigands": _first_encounter_arrival,
    "kings_champion": _fight_arrival, "seek_questing_beast": _beast,
    "voyage_to_servage": _first_encounter_arrival, "pilgrimage_canterbury": _destination,
    "avenge_baron": _fight_arrival, "avenge_lady": _fight_arrival, "cure_lady": _visit,
    "free_knight": _free_arrival, "free_lady": _free_arrival, "mad_knight": _searching,
    "pilgrimage_rome": _destination, "rescue_lady": _fight_arrival,
    "slay_monster": _fight_arrival, "rescue_lady_from_trolls": _fight_arrival,
    "save_your_lady": _fight_arrival, "vanquish_rebels": _fight_arrival,
    "pict_revolt": _searching, "journey_to_london": _searching,
    "journey_to_york": _searching, "druid_stone_ring": _searching,
    "barbarian_raiders": _fight_arrival, "wander_in_wilderness": _wilderness,
    "scour_the_wastelands": _searching, "treason_afoot": _fight_arrival,
}


# ============================================================================== fighting
def fight(s: Session, task: dict, foes: list[dict], *, attacker: str = "foe",
          tags: tuple[str, ...] = (), personal: bool = False, alone: bool = False,
          on_defeat: str | None = None, count: tuple[str, ...] | None = None):
    """A fight of the adventure: no combat awards (the adventure's replace them). With a
    victor of Knight's Fate 7 leading, he fights first. ``personal``: the foe must fall to a
    player knight of the adventure (his Mascot's blows count as his), not to his followers.
    ``count``: the kinds of foe whose WL the award counts (default every foe). Returns
    (won, combat result or None)."""
    from companion.koc.engine.combat import fight as combat_fight

    adv = task["adventure"]
    adv["attempted"] = True
    adv.setdefault("wl_total", 0)
    leader = task.get("leader") if not adv.get("leader_fallen") else None
    if leader:
        foes = _victor_fights(s, task, leader, foes, count)
        if not foes:
            return True, None
        adv["leader_fallen"] = True
        s.note(f"{leader['name']} has fallen; {s.pk['name']} fights on.")
    pk = s.pk
    result = combat_fight(s, foes, attacker=attacker, tags=tags, awards=False, alone=alone,
                          on_defeat=on_defeat)
    for f in result.defeated:
        if count is None or f["kind"] in count:
            adv["wl_total"] += f["wl"]
        card = f.get("card")
        if card and f["kind"] == "knight" and not f.get("kept"):
            # the fate given (or his flight) decided what became of his card
            adv["cards"] = [c for c in adv.get("cards", []) if c != ["knights", card["name"]]]
    won = result.won and _holds(s, task) and s.pk is pk
    if won and personal:
        mine = [s.player, *adv.get("joined", [])]
        won = all(f.get("defeated_by", "pk") == "pk" and f.get("struck_down_by") in mine
                  for f in result.defeated)
        if not won:
            s.note("The foe did not fall to the knight's own hand: the adventure is not won.")
    if won and leader and adv.get("leader_fallen"):
        _stay_or_leave(s, task)
    return won, result


def _victor_fights(s: Session, task: dict, leader: dict, foes: list[dict],
                   count: tuple[str, ...] | None) -> list[dict]:
    """Knight's Fate 7: the victor leads and fights first, one foe after another (passes, no
    combat events); returns the foes still standing when he falls."""
    from companion.koc.engine.combat import Combat, left, npk

    adv = task["adventure"]
    champion = npk(dict(leader))
    champion["wounds"] = 0
    c = Combat(s, foes, attacker="foe", awards=False, alone=True)
    s.note(f"{leader['name']} leads and fights first.")
    remaining = list(foes)
    while remaining and left(champion) > 0:
        enemy = remaining[0]
        c.bout(champion, enemy, passes=True)
        if left(enemy) <= 0:
            remaining.pop(0)
            s.note(f"{leader['name']} defeats {enemy['name']}.")
            if count is None or enemy["kind"] in count:
                adv["wl_total"] += enemy["wl"]
    return remaining


def victor_fights_first(s: Session, foes: list[dict]) -> list[dict]:
    """Knight's Fate 7 on the road: while the NPK victor he rides with as a Man-at-Arms is
    standing, the victor leads and fights first in every fight (not against player knights);
    the foes still standing when he falls are the knight's to fight. The foes the victor
    beats are his: they pay the knight nothing. At the adventure's site ``fight`` does the
    same (and counts the foes for the award)."""
    if any(f["kind"] == "pk" for f in foes):
        return foes
    task = next((t for t in s.pk["tasks"] if running(t) and t.get("leader")
                 and not t["adventure"].get("leader_fallen")), None)
    if task is None or task["status"] == "at_site":
        return foes
    leader = task["leader"]
    standing = _victor_fights(s, task, leader, list(foes), ())
    if standing:
        task["adventure"]["leader_fallen"] = True
        s.note(f"{leader['name']} has fallen; {s.pk['name']} fights on.")
    return standing


def after_road_fight(s: Session, won: bool) -> None:
    """Knight's Fate 7: the victor fell in a fight on the road. Winning the day, the knight
    stays (the adventure his own, with its awards) or rides away without penalty; not winning
    it, nothing binds him any more: the adventure is given up, without penalty."""
    task = next((t for t in s.pk["tasks"] if running(t) and t.get("leader") and
                 t["status"] == "active" and t["adventure"].get("leader_fallen")), None)
    if task is None:
        return
    if won:
        _stay_or_leave(s, task)
        if not task["adventure"].get("ride_away"):
            return
    task["penalty_vp"] = 0
    finish(s, task, "left")


def _stay_or_leave(s: Session, task: dict) -> None:
    """Knight's Fate 7: the victor fell and the knight won the day."""
    adv = task["adventure"]
    q = Question("company", f"{task['leader']['name']} has fallen and you won the day. Stay "
                 "and take the adventure as your own, or ride away without penalty?",
                 ["stay", "leave"], "stay")
    if s.ask(q) == "stay":
        s.note(f"{s.pk['name']} stays: the adventure is his own now.")
        adv["awards"] = True
        adv["no_failure_award"] = False
        task["leader"] = None
        task["penalty_vp"] = 0
    else:
        s.note(f"{s.pk['name']} rides away, free of his victor's company.")
        task["penalty_vp"] = 0
        adv["ride_away"] = True


def stopped_on_the_way(s: Session, task: dict) -> bool:
    """A turn without moving, for an adventure bound to the most direct route: a stop along
    the way (no grace) once he has left the area where he heard of it (``GRACE_AT_THE_START``).
    Not 1:2: escorting a Lady, he may stop over at a castle on the way, as any escort may."""
    adv = task.get("adventure")
    if not isinstance(adv, dict) or not adv.get("heard_at") or \
            adv.get("key") == "escort_lady" or edition(s.game.state) < GRACE_AT_THE_START:
        return False
    return s.pk["at"]["area"] != adv["heard_at"]


# ============================================================================== awards
def escort_turn(s: Session, task: dict) -> None:
    """A turn of the 1:2 or 1:3 escort still on the road (the requests phase, not inside a
    castle): 1 VP, unless the adventure pays no awards (``ESCORT_TURN_VP``)."""
    adv = task.get("adventure")
    if not isinstance(adv, dict) or adv.get("key") not in ("escort_lady", "escort_pilgrims") \
            or adv.get("result") or not adv.get("awards", True) or \
            edition(s.game.state) < ESCORT_TURN_VP:
        return
    s.gain_vp(1, f"a turn of escort (adventure {ident(task)})")


def _amount(value, adv: dict) -> int:
    if isinstance(value, int):
        return value
    if value in ("wl", "wls"):
        return adv.get("wl_total", 0)
    return 0


def totals(task: dict, outcome: str, state: dict | None = None) -> tuple[int, int]:
    """(VP, CP) the adventure pays for this outcome, before it is divided. With the game's
    ``state`` (edition 7 on), a failed entry whose VP is its foe's WL counts the foe drawn for
    it, beaten or not (``FAILED_WL_HALF``)."""
    adv = task["adventure"]
    values = adv.get("values", {})
    key = adv["key"]
    vp = _amount(values.get("vp", 0), adv)
    if outcome in ("failure", "impossible") and values.get("vp") == "wl" and \
            state is not None and edition(state) >= FAILED_WL_HALF and \
            isinstance((adv.get("creature") or {}).get("wl"), int):
        vp = adv["creature"]["wl"]
    cp = _amount(values.get("cp", 0), adv)
    if _lady_is_enchantress(adv):
        if key in NO_AWARD_IF_ENCHANTRESS:
            vp = cp = 0
        elif values.get("vp_loss"):
            vp = max(0, vp - values["vp_loss"])
    if outcome == "success":
        if key == "court_lady":
            return 0, 0         # the courtship itself paid 6 VP and her Service Award
        return vp, cp
    if outcome in ("failure", "impossible"):
        return math.ceil(vp / 2), 0
    return 0, 0


def payees(s: Session, task: dict) -> list[Session]:
    """The knights the award goes to: the knight who heard of it (if he still holds it) and
    those sharing it who joined him and are present, in that order."""
    adv = task["adventure"]
    state = s.game.state
    out: list[Session] = []
    holder_ok = _holds(s, task) and not s.pk["slain"]
    if holder_ok:
        out.append(s)
    here = s.pk["at"]["area"] if holder_ok else task.get("dest")
    for p in adv.get("joined", []):
        rec = state["knights"].get(p)
        if rec is None or rec["slain"] or p == s.player:
            continue
        if rec["at"]["area"] == here or (adv["key"] in FAERIE and p in adv.get("present", [])):
            out.append(_fellow(s, p))
    return out


def _pay(s: Session, task: dict, outcome: str, people: list[Session]) -> None:
    adv = task["adventure"]
    what = f"adventure {ident(task)}"
    if not people:
        return
    if not adv.get("awards", True):
        s.note(f"The adventure {adv['id']} brings {s.pk['name']} no award.")
        return
    if outcome != "success" and adv.get("no_failure_award"):
        s.note("A failed adventure charged on him by his victor brings no award.")
        return
    vp, cp = totals(task, outcome, s.game.state)
    if outcome == "success" and adv["key"] in FAERIE:
        _pay_faerie(s, task, people, vp)
        return
    n = len(people)
    each_vp, rest_vp = divmod(vp, n)
    each_cp, rest_cp = divmod(cp, n)
    why = what if outcome == "success" else f"{what}, half the award for the attempt"
    if n > 1:
        why += f", shared {n} ways"
    for i, x in enumerate(people):
        x.gain_vp(each_vp + (rest_vp if i == 0 else 0), why)
        x.gain_cp(each_cp + (rest_cp if i == 0 else 0), why)


def _pay_faerie(s: Session, task: dict, people: list[Session], amount: int) -> None:
    """3:3, 3:4: 12 points; shared, each knight takes his share as VP or CP."""
    n = len(people)
    each, rest = divmod(amount, n)
    for i, x in enumerate(people):
        part = each + (rest if i == 0 else 0)
        if n == 1:
            q = Question("faerie_award", f"You have reached Faerie: take {part} VP or {part} "
                         "CP?", ["vp", "cp"], "vp", tags=("faerie",))
        else:
            q = Question("faerie_share", f"Your share of adventure {task['adventure']['id']}: "
                         f"take {part} as VP or as CP?", ["vp", "cp"], "vp", tags=("faerie",))
        choice = x.ask(q) if x is s else s.ask_other(x.player, q)
        if choice == "cp":
            x.gain_cp(part, f"adventure {ident(task)}")
        else:
            x.gain_vp(part, f"adventure {ident(task)}")


def _friend(s: Session, task: dict, person: dict, *, castle: str | None = None,
            lord_request: bool = False) -> None:
    """Remember a friendship the adventure wins (paid with the award at its end)."""
    friend = {"person": dict(person), "lord_request": lord_request}
    if castle:
        friend["castle"] = castle          # (no None: a position is TOML)
    task["adventure"]["friend"] = friend


def befriend_for(x: Session, person: dict, castle: str | None, lord_request: bool,
                 why: str) -> None:
    """A person's friendship won by an adventure: his castle friendly too (Camelot for good).
    Where the person is the knight's own Lord and the entry says so, one request of him is
    granted at once instead (``owed_request``)."""
    from companion.koc.engine import resolutions as rs
    from companion.koc.engine.encounters import befriend

    pk = x.pk
    name = person.get("name")
    if lord_request and pk["lord"] and pk["lord"]["name"] == name:
        pk["lord"]["owed"] = pk["lord"].get("owed", 0) + 1
        x.note(f"{name}, his Lord, will grant {pk['name']} one request without fail ({why}).")
        return
    rs.befriend(x, person)
    if castle == "Camelot Castle":
        if castle not in pk["friendly"]:
            pk["friendly"].append(castle)
            x.note(f"Camelot Castle is now friendly to {pk['name']}.")
    elif castle:
        befriend(x, castle)


def _owed_from_summoner(s: Session, task: dict) -> None:
    """6:5: the Lady (or Lord) saved grants one request without a Luck Test."""
    from companion.koc.engine import service

    pk = s.pk
    castle = site_castle(s, task)
    who = "lady" if pk["lady"] and castle == service.lady_castle(s) else "lord"
    task["adventure"]["owed_by"] = who


def _give_owed(s: Session, task: dict) -> None:
    pk = s.pk
    who = task["adventure"].get("owed_by")
    rec = pk.get(who) if who else None
    if rec:
        rec["owed"] = rec.get("owed", 0) + 1
        s.note(f"{rec['name']} will grant {pk['name']} one request without fail.")


# ============================================================================== the end
def finish(s: Session, task: dict, outcome: str, *, people: list[Session] | None = None,
           friend: tuple | None = None) -> None:
    """The adventure is over: 'success', 'failure' (attempted, not done), 'impossible' (waited
    three turns), 'nothing' (attempted, no award due), 'abandoned' or 'left' (no award)."""
    from companion.koc.engine import requests, service

    adv = task["adventure"]
    if adv.get("result"):
        return
    adv["result"] = outcome
    pk = s.pk
    holder = _holds(s, task)
    if people is None:
        people = payees(s, task)
    if adv.get("ride_away"):
        people = []
    adv["paid"] = [x.player for x in people]
    task["status"] = {"success": "done", "nothing": "done", "failure": "failed",
                      "impossible": "failed"}.get(outcome, "abandoned")
    words = {"success": "is accomplished", "failure": "has failed",
             "impossible": "cannot be done: he has waited three turns in vain",
             "nothing": "is over", "abandoned": "is abandoned", "left": "is given up"}[outcome]
    s.note(f"Adventure {ident(task)} {words}.")
    if outcome in ("success", "failure", "impossible"):
        _pay(s, task, outcome, people)
    if outcome == "success" and adv.get("awards", True) and people:
        if friend is not None:
            _friend(s, task, *friend[:1], castle=friend[1], lord_request=friend[2])
        won = adv.get("friend")
        if won:
            person, castle, lord_request = (won["person"], won.get("castle"),
                                            won["lord_request"])
            for x in people:
                befriend_for(x, person, castle, lord_request, f"adventure {adv['id']}")
        if holder and adv.get("owed_by"):
            _give_owed(s, task)
    if outcome in ("success", "failure", "impossible", "nothing") and \
            adv["key"] not in TOURNAMENTS:
        from companion.koc.engine.turn import after_adventure

        for x in people:        # those who attempted it: the holder and his sharers present
            after_adventure(x, f"adventure {adv['id']}")
    if task.get("prophecy") and outcome in ("success", "failure", "impossible", "nothing"):
        task["fulfilled"] = True
        s.note(f"The prophecy of adventure {adv['id']} is fulfilled.")
    if holder:
        a = pk["arthur"].get("task") or {}
        if (task.get("arthur_task") or adv.get("arthur_task")) and \
                a.get("task_id") == task["id"]:
            requests.arthur_task_done(s, success=outcome == "success")
        if outcome == "success" and adv.get("grants_castle") and adv.get("awards", True):
            service.grant_castle(s)
    if task.get("repentance") and holder:
        from companion.koc.engine import knaves

        knaves.repentance_over(s, task, outcome)    # A Knave Repentant
    close(s, task)


def close(s: Session, task: dict) -> None:
    """An adventure that ended (by this module or by straying, a lost escort...): the persons
    it held go back to their decks, its companions leave, the sharers are told."""
    adv = task["adventure"]
    if adv.get("closed"):
        return
    adv["closed"] = True
    pk = s.pk if _holds(s, task) else None
    if pk is not None:
        names = set()
        if adv["key"] in ("escort_lady", "escort_pilgrims"):
            names.add((task.get("person") or {}).get("name"))
        keep = [e for e in pk["party_extra"]
                if not (e.get("task") == task["id"] and e.get("kind") in ("item", "captive"))
                and e.get("name") not in names
                and not (e.get("kind") == "bound_mad_knight" and adv["key"] == "mad_knight"
                         and e.get("name") == (adv.get("knight") or {}).get("name"))]
        pk["party_extra"] = keep
        for castle in ([adv.get("castle")] if adv["key"] == "kings_hunt" else []) + \
                ([adv.get("goal")] if adv.get("goal") else []):
            if castle:
                _res().end_temp_friendly(s, castle)
    release(s, task)
    for p, rec in s.game.state["knights"].items():
        for t in rec["tasks"]:
            shared = t.get("shared") or {}
            if t["kind"] == "share" and t["status"] == "active" and \
                    shared.get("leader") == s.player and shared.get("task") == task["id"]:
                t["status"] = "done" if adv.get("result") == "success" and \
                    p in adv.get("paid", []) else "cancelled"


def in_play(state: dict, deck: str, name: str, skip: dict | None = None) -> bool:
    """Whether a card is in a pile or held by somebody (a knight's followers, Lord or Lady,
    persons met, prisoners, castle guards, another adventure)."""
    pile = state["decks"][deck]
    if name in pile["draw"] or name in pile["discard"] or name in pile["removed"]:
        return True
    for rec in state["knights"].values():
        groups = rec["comrades"] + rec["men_at_arms"] + rec.get("prisoners", []) + \
            (rec.get("knave") or {}).get("prisoners", [])   # a Knave's prisoners, led or held
        if any(c.get("name") == name for c in groups):
            return True
        if any(e.get("name") == name or (e.get("card") or {}).get("name") == name
               or (e.get("person") or {}).get("name") == name for e in rec["party_extra"]):
            return True
        for role in ("lord", "lady"):
            if rec[role] and rec[role].get("name") == name:
                return True
        for m in rec.get("met", []):
            cards = m.get("card")
            for c in cards if isinstance(cards, list) else [cards]:
                if isinstance(c, dict) and c.get("name") == name:
                    return True
        for t in rec["tasks"]:
            if t is skip or not is_adventure(t) or t["adventure"].get("closed"):
                continue
            if [deck, name] in t["adventure"].get("cards", []):
                return True
    for castle in state.get("castles", {}).values():
        if any(g.get("name") == name for g in castle.get("guards", [])):
            return True
    if any(c.get("name") == name for c in state.get("castellans", {}).values()):
        return True
    return False


def release(s: Session, task: dict) -> None:
    """The cards an adventure held go back to their decks (unless somebody holds them now)."""
    adv = task["adventure"]
    state = s.game.state
    for deck, name in adv.get("cards", []):
        if not in_play(state, deck, name, skip=task):
            s.game.discard(deck, name)
    adv["cards"] = []


def tidy(s: Session) -> None:
    """Adventures that ended elsewhere (strayed from, an escort lost, a tournament held) give
    back what they held."""
    for task in list(s.pk["tasks"]):
        if is_adventure(task) and task["status"] in ENDED and \
                not task["adventure"].get("closed"):
            adv = task["adventure"]
            if task.get("prophecy") and not task.get("fulfilled") and \
                    task["status"] in ("failed", "cancelled"):
                task["fulfilled"] = True      # ended by mischance while honestly pursued
            a = s.pk["arthur"].get("task") or {}
            if a.get("task_id") == task["id"] and task["status"] != "done":
                from companion.koc.engine import requests

                requests.arthur_task_done(s, success=False)     # lost on the road
            if adv.get("dwarf_waits"):
                continue
            close(s, task)


# ============================================================================== leaving
def _leave(s: Session, task: dict, why: str) -> None:
    """He is no longer at the site (moved on, in prison, mad, carried off): an adventure
    attempted has failed; one not yet attempted is given up (a prophecy waits for him)."""
    adv = task["adventure"]
    s.note(f"{s.pk['name']} is no longer at the site of adventure {ident(task)} ({why}).")
    if adv.get("attempted"):
        finish(s, task, "failure")
        return
    if task.get("prophecy"):
        task["status"] = "active"
        task["route"] = None
        adv["stage"] = None
        s.note("The prophecy still waits to be attempted.")
        return
    finish(s, task, "left")


def _impossible_turn(s: Session, task: dict, why: str) -> None:
    """A turn in place at an adventure he cannot achieve; the third pays half the VP."""
    adv = task["adventure"]
    adv["waited"] = adv.get("waited", 0) + 1
    adv["impossible"] = why
    s.note(f"{why}: a turn in place ({adv['waited']} of 3).")
    if adv["waited"] >= 3:
        adv["attempted"] = True
        finish(s, task, "impossible")


# ============================================================================== prayers
def prayer_possible(s: Session) -> bool:
    """Whether any prayer of his company can work: his own (VL 6 or better) or a
    Man-at-Arms's (VL 6 or better, or one of those whose prayers never fail)."""
    from companion.koc.engine.service import ALWAYS_PRAY

    pk = s.pk
    if kn.vl(pk) <= 6:
        return True
    return any(m["name"] in ALWAYS_PRAY or (m.get("vl") or 0) <= 6 for m in pk["men_at_arms"])


def _chance(vl: int, always: bool = False) -> float:
    if always or vl <= 1:
        return 1.0
    return max(0.0, (7 - vl) / 6)


def _pray_step(s: Session, task: dict) -> None:
    from companion.koc.engine import service
    from companion.koc.engine.service import ALWAYS_PRAY

    pk = s.pk
    adv = task["adventure"]
    target = (adv.get("lady") if adv["key"] == "cure_lady" else adv.get("knight")) or {}
    if not prayer_possible(s):
        _impossible_turn(s, task, f"No prayer of {pk['name']}'s company can work (VL "
                         f"{kn.vl(pk)})")
        return
    own_free = pk.get("prayed") != turn_no(s)
    men = sorted(pk["men_at_arms"], key=lambda m: -_chance(m.get("vl") or 0,
                                                          m["name"] in ALWAYS_PRAY))
    options = ["best"] + (["self"] if own_free else []) + (["man-at-arms"] if men else []) + \
        ["none"]
    if len(options) == 2:
        s.note(f"{pk['name']} has said his prayer this turn and has no Man-at-Arms to pray "
               "for him.")
        return
    q = Question("adventure_prayer", f"Adventure {adv['id']}: who prays for "
                 f"{target.get('name', 'the afflicted')} this turn? Your VL is {kn.vl(pk)}"
                 + (f"; your best Man-at-Arms is {men[0]['name']} (VL {men[0]['vl']})" if men
                    else "") + ".", options, "best")
    choice = s.ask(q)
    if choice == "none":
        s.note(f"No prayer is said for {target.get('name')} this turn.")
        return
    orders = s.game.orders.get(s.player)
    ordered = bool(orders is not None and orders.prayers)
    mine = _chance(kn.vl(pk)) if own_free and not ordered else -1.0
    man = men[0] if men else None
    theirs = _chance(man.get("vl") or 0, man["name"] in ALWAYS_PRAY) if man else -1.0
    if choice == "best":
        choice = "man-at-arms" if man is not None and theirs >= mine and theirs > 0 else \
            ("self" if mine > 0 else None)
        if choice is None:
            s.note(f"No prayer that could work is free this turn for "
                   f"{target.get('name')}.")
            return
    adv["attempted"] = True
    adv["prayers"] = adv.get("prayers", 0) + 1
    purpose = f"for {target.get('name', 'the afflicted')} (adventure {adv['id']})"
    if choice == "self":
        pk["prayed"] = turn_no(s)
        ok = s.vl_test(kn.vl(pk), f"prayer {purpose}")
    else:
        ok = service.pray(s, man, f"in {pk['name']}'s stead {purpose}")
    if not ok:
        s.note("The prayer is not answered.")
        return
    key = adv["key"]
    if key == "lift_enchantment":
        s.note(f"The spell on {target.get('name')} is broken.")
    elif key == "cure_wounded_knight":
        s.note(f"{target.get('name')}'s poisoned wound is healed.")
    else:
        s.note(f"{target.get('name')} wakes from her enchanted sleep.")
        _friend(s, task, target, castle=site_castle(s, task))
    finish(s, task, "success")


# ============================================================================== turn hooks
def start_of_turn(s: Session) -> None:
    """Before anything else of the movement phase (each knight of a joint turn too)."""
    pk = s.pk
    if pk["slain"]:
        return
    tidy(s)
    _rome(s)
    _dwarf_returns(s)
    orders = s.game.orders.get(s.player)
    for item in getattr(orders, "adventure_orders", None) or []:
        if item["do"] == "share":
            share(s, item["which"], item["with"])
        else:
            abandon(s, item["which"])
    _gather(s)


def _rome(s: Session) -> None:
    pk = s.pk
    if pk["at"]["area"] != "Rome" or pk["prison"]:
        pk.pop("rome", None)
        return
    q = Question("rome", f"{pk['name']} begins the turn in Rome: stay at the shrine, or go into "
                 "the town?", ["shrine", "town"], "shrine")
    choice = s.ask(q)
    if choice != pk.get("rome", "shrine"):
        s.note(f"{pk['name']} goes to Rome's {choice}.")
    pk["rome"] = choice


def _dwarf_returns(s: Session) -> None:
    """3:3: the dwarf who led him into Faerie waits for him when he comes back."""
    pk = s.pk
    if _in_faerie(s):
        return
    for task in pk["tasks"]:
        adv = task.get("adventure") if is_adventure(task) else None
        if adv and adv.get("dwarf_waits"):
            adv["dwarf_waits"] = False
            if pk["dwarf"] is None and "always_travel_alone" not in pk["oaths"]:
                pk["dwarf"] = {"arthurian": False, "spares": []}
                s.note(f"Back from Faerie, {pk['name']} finds the dwarf waiting for him; he "
                       "joins him.")
            close(s, task)


def _staying(plan) -> bool:
    return all(step.get("do") in ("stay", "enter", "seek", "declare") for step in plan or [])


def movement_hook(s: Session, plan) -> bool:
    """A knight who stays at a site spends his movement on the adventure."""
    pk = s.pk
    if not _staying(plan) or pk["at"]["where"] == "ship":
        return False
    for task in list(pk["tasks"]):
        if not (running(task) and task["status"] == "at_site"):
            continue
        adv = task["adventure"]
        if adv["key"] in TOURNAMENTS or pk["at"]["area"] != task["dest"]:
            continue
        stage = adv.get("stage")
        if stage == "approach":
            _approach(s, task, now=True)
            if inside(s, site_castle(s, task)):
                _visited(s, task)
        elif stage == "hunt" and turn_no(s) >= adv.get("hunt", 0):
            hunt(s, task)
        elif stage == "find":
            search(s, task)
        elif stage == "free":
            free_attempt(s, task)
        else:
            continue
        if pk is s.pk:
            tasks.after_movement(s, pk["at"]["area"], [], True)
        return True
    return False


def _matching(s: Session, area: str, keys: tuple[str, ...]) -> dict | None:
    for task in s.pk["tasks"]:
        if running(task) and task["adventure"]["key"] in keys and task.get("dest") == area \
                and task["adventure"].get("stage") in (None, "first_encounter", "find"):
            return task
    return None


def _reach_early(s: Session, task: dict) -> None:
    """The site's encounter came while he was entering it: he has arrived."""
    if task["status"] == "active":
        task["status"] = "at_site"
        task["adventure"].setdefault("arrived", turn_no(s))
        s.note(f"{s.pk['name']} reaches the site of adventure {ident(task)}.")
        _gather(s, task, arrival=True)


def first_encounter(s: Session, area: str) -> bool:
    """3:5, 4:2: the first encounter indicated there is the band of brigands."""
    task = _matching(s, area, ("irish_brigands", "voyage_to_servage"))
    if task is None:
        return False
    _reach_early(s, task)
    values = task["adventure"]["values"]
    s.note(f"The encounter is the brigands of adventure {task['adventure']['id']}.")
    won, _ = fight(s, task, brigands(s, values.get("count", 5)), tags=("brigands",))
    finish(s, task, "success" if won else "failure")
    return True


def band_found(s: Session, area: str) -> bool:
    """8:4: a brigand encounter in the wasteland is the band the adventure hunts."""
    task = _matching(s, area, ("scour_the_wastelands",))
    if task is None:
        return False
    _reach_early(s, task)
    s.note("The brigands met here are the band that plunders the land.")
    _found_band(s, task)
    return True


def requests_hook(s: Session) -> None:
    """The requests phase: prayers, castles that received him, waiting, leaving."""
    pk = s.pk
    for task in list(pk["tasks"]):
        if task.get("kind") == "share" and task["status"] == "active":
            _meet_leader(s, task)
            continue
        if not running(task):
            continue
        adv = task["adventure"]
        if adv["key"] in TOURNAMENTS:
            if task["status"] == "at_site" and pk.get("met_merlin") is None:
                _tournament(s, task)
            continue
        if task["status"] == "active":
            _on_the_road(s, task)
            continue
        _at_site_step(s, task)
        if s.pk is not pk:
            return


def _on_the_road(s: Session, task: dict) -> None:
    """An active adventure: the errand's item, the madman or captives still with him."""
    pk = s.pk
    adv = task["adventure"]
    key = adv["key"]
    if key in ("journey_to_london", "journey_to_york") and not any(
            e.get("kind") == "item" and e.get("task") == task["id"] for e in pk["party_extra"]):
        s.note(f"{pk['name']} has lost the item he carried: the errand earns nothing.")
        finish(s, task, "nothing")
    elif adv.get("stage") == "home" and not _madman_with(pk, adv["knight"]["name"]):
        s.note(f"{adv['knight']['name']} is no longer with {pk['name']}.")
        finish(s, task, "failure")
    elif adv.get("stage") == "deliver" and not _captives(pk, task):
        s.note(f"{pk['name']} has no captive left to hand over.")
        finish(s, task, "failure")


def _at_site_step(s: Session, task: dict) -> None:
    pk = s.pk
    adv = task["adventure"]
    stage = adv.get("stage")
    if stage in ("walk", "gear", "town"):
        if not _able(pk):
            s.note(f"{pk['name']} cannot go on with his walk.")
            _gear_back(s, task, draw=False)
            finish(s, task, "failure")
            return
        if not pk.get("met_merlin"):
            _wild_step(s, task)
        return
    if not _able(pk) or pk["at"]["area"] != task["dest"]:
        _leave(s, task, "he has left it" if _able(pk) else "he cannot go on with it")
        return
    if adv["key"] in ("journey_to_london", "journey_to_york"):
        _on_the_road(s, task)
        if adv.get("result"):
            return
    if pk.get("met_merlin"):
        return
    if stage == "visit" and adv["key"] in DESTINATIONS:
        if _site_ready(s, task):
            finish(s, task, "success")
        return
    if stage in ("visit", "approach") and inside(s, site_castle(s, task)):
        _visited(s, task)
        stage = adv.get("stage")
        if adv.get("result"):
            return
    if stage in ("home", "deliver") and adv.get("stage_wait"):
        if inside(s, adv.get("goal")):
            _delivered(s, task)
        return
    if stage == "court":
        _court(s, task)
    elif stage == "pray":
        _pray_step(s, task)


def _meet_leader(s: Session, share_task: dict) -> None:
    """An invited knight who has come to his leader (same encounter area) has joined him."""
    shared = share_task["shared"]
    leader = s.game.state["knights"].get(shared["leader"])
    if leader is None or leader["slain"]:
        share_task["status"] = "cancelled"
        return
    task = next((t for t in leader["tasks"] if t.get("id") == shared["task"]
                 and is_adventure(t)), None)
    if task is None or not running(task):
        share_task["status"] = "cancelled"
        return
    adv = task["adventure"]
    if s.player in adv.get("joined", []):
        return
    if task["status"] == "active" and leader["at"]["area"] == s.pk["at"]["area"]:
        adv.setdefault("joined", []).append(s.player)
        s.note(f"{s.pk['name']} has joined {leader['name']} to share adventure {adv['id']}.")


def _gather(s: Session, task: dict | None = None, *, arrival: bool = False) -> None:
    """The invited knights who are with the leader now have joined him (until he reaches the
    site; those with him as he arrives count); at arrival, who is present is recorded."""
    pk = s.pk
    state = s.game.state
    for t in ([task] if task is not None else pk["tasks"]):
        if not running(t):
            continue
        adv = t["adventure"]
        if t["status"] == "active" or arrival:
            for p in adv.get("sharers", []):
                rec = state["knights"].get(p)
                if rec and not rec["slain"] and rec["at"]["area"] == pk["at"]["area"] and \
                        p not in adv.setdefault("joined", []):
                    adv["joined"].append(p)
                    s.note(f"{rec['name']} is with {pk['name']} to share adventure "
                           f"{adv['id']}.")
        if arrival:
            adv["present"] = [p for p in adv.get("joined", [])
                              if state["knights"][p]["at"]["area"] == pk["at"]["area"]]


# ============================================================================== orders
_MARKER = re.compile(r"^[A-Za-z]-\d+$")
_ID = re.compile(r"^(\d):(\d)(?:-(\d))?$")


def valid_reference(text: str) -> bool:
    return bool(_MARKER.match(text) or _ID.match(text))


def refers_to(adv: dict, which: str) -> bool:
    """An order's adventure: its marker ('B-2') or its number ('4:3'; '7:3' for 7:3-4)."""
    which = which.strip()
    if adv.get("marker", "").lower() == which.lower():
        return True
    mine = _ID.match(adv.get("id", ""))
    theirs = _ID.match(which)
    if not mine or not theirs or mine.group(1) != theirs.group(1):
        return False
    low, high = int(mine.group(2)), int(mine.group(3) or mine.group(2))
    want_low, want_high = int(theirs.group(2)), int(theirs.group(3) or theirs.group(2))
    return low <= want_low and want_high <= high


def held(pk: dict, which: str) -> dict | None:
    """The running adventure a knight holds that an order names."""
    for task in pk["tasks"]:
        if running(task) and refers_to(task["adventure"], which):
            return task
    return None


def unshareable(task: dict) -> str | None:
    """Why an adventure may not be shared (None: it may)."""
    adv = task["adventure"]
    if adv["key"] in COURTING:
        return "an adventure that depends on courting a Lady is not shared"
    if adv.get("shareable") is False or adv.get("values", {}).get("shareable") is False:
        return f"adventure {adv['id']} may not be shared"
    if adv["key"] in TOURNAMENTS:
        return "every knight jousts for himself: a tournament is not shared"
    if task.get("leader"):
        return "riding as his victor's Man-at-Arms he cannot invite anybody"
    return None


def share(s: Session, which: str, players: list[str]) -> None:
    """Invite knights to share an adventure; each agrees or not (question ``share``)."""
    from companion.koc.engine import resolutions as rs

    pk = s.pk
    task = held(pk, which)
    if task is None:
        s.tell(f"{pk['name']} holds no adventure '{which}' to share.")
        return
    why = unshareable(task)
    if why:
        s.tell(f"{why.capitalize()}.")
        return
    adv = task["adventure"]
    if task["status"] != "active":
        s.tell(f"{pk['name']} has reached the site of adventure {adv['id']}: too late to invite "
               "anybody.")
        return
    for p in players:
        rec = s.game.state["knights"].get(p)
        if p == s.player or rec is None or rec["slain"]:
            s.tell(f"{p} cannot be invited.")
            continue
        if p in adv.setdefault("sharers", []):
            continue
        site = task["dest"]
        named = site is not None or edition(s.game.state) < SHARED_SITE_UNFIXED
        q = Question("share", f"{pk['name']} invites you to share adventure {ident(task)} "
                     + (f"(its site: {site}). You must be with him when he gets there. "
                        if named else "(its site is not fixed yet). You must be with him "
                        "when he comes to it. ")
                     + "Accept?", ["yes", "no"], "yes")
        other = rs.other_session(s, p)
        if s.ask_other(p, q) != "yes":
            s.note(f"{rec['name']} declines to share adventure {adv['id']} with {pk['name']}.")
            adv.setdefault("declined", []).append(p)
            continue
        adv["sharers"].append(p)
        s.note(f"{rec['name']} will share adventure {ident(task)} with {pk['name']}.")
        tasks.add(other, "share", None, awards={}, route=None,
                  why=f"sharing {pk['name']}'s adventure {ident(task)}"
                      + (f" at {site}" if named else ""),
                  shared={"leader": s.player, "task": task["id"], "id": adv["id"],
                          "marker": adv.get("marker"), "site": task["dest"]})


def abandon(s: Session, which: str) -> None:
    """Give up an adventure: no penalty, it is simply gone (a Prophecy cannot be given up; a
    task of King Arthur's given up has failed)."""
    pk = s.pk
    task = held(pk, which)
    if task is None:
        s.tell(f"{pk['name']} holds no adventure '{which}' to abandon.")
        return
    adv = task["adventure"]
    if task.get("prophecy"):
        s.tell(f"Adventure {adv['id']} is a Prophecy: it must be attempted, not abandoned.")
        return
    if adv["key"] in TOURNAMENTS and task["status"] == "at_site":
        s.tell("He has entered the lists: the tournament is not left now.")
        return
    s.note(f"{pk['name']} abandons adventure {ident(task)}.")
    finish(s, task, "abandoned")


# ============================================================================== requests
def owed_request(s: Session, who: dict, request: str) -> bool:
    """A request of his Lord or Lady owed by an adventure: granted without a Luck Test (King
    Arthur grants it without his chart). True when it was used."""
    from companion.koc.engine import requests

    pk = s.pk
    rec = None
    for role in ("lord", "lady"):
        r = pk[role]
        if r and r.get("owed") and r["name"] == who.get("name"):
            rec = r
    if rec is None:
        return False
    if requests.allowed(s, who, request) or requests.barred(s, who, request):
        return False
    if who["role"] == "arthur" and request == "service" and prophecy_pending(pk):
        return False
    rec["owed"] -= 1
    if not rec["owed"]:
        rec.pop("owed")
    s.note(f"{rec['name']} grants {pk['name']}'s request at once, as promised.")
    if who["role"] == "arthur":
        requests.arthur_grants(s, request, why="a promise kept")
    else:
        requests.grant(s, who, request, automatic=True)
    return True


def prophecy_pending(pk: dict) -> dict | None:
    """A Prophecy the knight holds and has not yet attempted (the first one)."""
    for task in pk["tasks"]:
        if is_adventure(task) and task.get("prophecy") and not task.get("fulfilled") and \
                task["status"] in ("active", "at_site") and \
                not task["adventure"].get("attempted"):
            return task
    return None


# ============================================================================== reports
def progress(task: dict) -> str:
    """What an adventure (or a share of one) has come to, for the knight's own report."""
    if task.get("kind") == "share" and task.get("shared"):
        sh = task["shared"]
        return f"invited to share {sh.get('marker') or sh.get('id')} by {sh.get('leader')}"
    if not is_adventure(task):
        return ""
    adv = task["adventure"]
    bits = [f"marker {adv['marker']}"] if adv.get("marker") else []
    if task.get("prophecy"):
        bits.append("a Prophecy" + (", fulfilled" if task.get("fulfilled") else
                                    ", attempted" if adv.get("attempted") else ", not yet "
                                    "attempted"))
    if adv.get("arrived"):
        bits.append(f"at the site since turn {adv['arrived']}")
    stage = adv.get("stage")
    words = {"approach": "to ride up to the castle", "visit": "waiting at the gate",
             "court": "to court the lady", "pray": "prayers needed", "find": "searching",
             "hunt": "the hunt is next", "free": "freeing the prisoner",
             "first_encounter": "waiting for the first encounter",
             "home": f"taking the madman to {adv.get('goal')}",
             "deliver": f"taking the captives to {adv.get('goal')}",
             "walk": "walking the wastes", "gear": "seeking his gear", "town": "bound for a "
             "castle or town"}
    if stage in words and not adv.get("result"):
        bits.append(words[stage])
    if adv.get("marshes"):
        bits.append("marshes crossed: " + ", ".join(adv["marshes"]))
    if adv.get("prayers"):
        bits.append(f"prayers said: {adv['prayers']}")
    if adv.get("searches"):
        bits.append(f"searches: {adv['searches']}")
    if adv.get("waited"):
        bits.append(f"turns waited in place: {adv['waited']} of 3")
    if adv.get("sharers"):
        joined = adv.get("joined", [])
        bits.append("shared with " + ", ".join(
            p + ("" if p in joined else " (not yet with him)") for p in adv["sharers"]))
    if adv.get("result"):
        bits.append({"success": "accomplished", "failure": "failed", "impossible":
                     "impossible", "nothing": "over, without award", "abandoned": "abandoned",
                     "left": "given up"}.get(adv["result"], adv["result"]))
    return "; ".join(bits)
