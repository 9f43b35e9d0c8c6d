"""Lord and Lady service, summonses, losing one's Lady or Lord, madness (see
docs/koc-engine.md).

Contract:

* ``enter_lady_service(s, lady, *, seduced=False)``, ``lose_lady(s, why, *, died=False)``,
  ``abandon_lord(s, why)``, ``change_lord(s, king)``;
* ``summons(s, who)`` with who 'lord' or 'lady': a Summons and its penalties;
* ``answer_summons(s)``: called when the PK reaches the summoner's castle;
* ``go_mad(s, why)``, ``mad_wandering(s)`` (the movement phase of a mad PK, and the two Luck
  Tests at the end of the turn), ``defeated_mad_knight(s, foe)``.

More, for the other modules:

* ``enter_lady_service(s, lady, *, seduced=False, courted=False, abandon_vp=0)``: a courted
  Lady gives 6 VP and her service award; a seductress gives her award and takes VP equal to
  her VL. A Lady already served is lost: her award goes, plus ``abandon_vp`` (6 for an
  enchantment; 0 for a Lady's own seduction) and 6 more if under her Summons.
* ``lose_lady(s, why, *, died=False, vp=0, summons_vp=0)``: she stops being friendly, her
  castle leaves the board, the award and the Token go; a death costs 12 VP and drives him mad
  on a 1; otherwise ``vp`` (+ ``summons_vp`` if under her Summons).
* ``abandon_lord(s, why, *, vp=6, summons_vp=6)``: without a Lord a friendly castle gives only
  a sword and nothing to the Dwarf (``castle_encounter`` reads ``pk['lord'] is None``); the old
  Lord is remembered in ``pk['former_lords']`` (no longer automatically friendly).
* ``mad_reaction(s, whom) -> str``: how a person or creature met treats a mad PK; encounters
  call it first when ``s.pk['mad']``. ``whom`` is ``{"kind": ..., "card": ...}`` as in
  ``pk['met']``. Returns 'attacks' (animal, monster: fight as usual), 'avoids' (brigands,
  common knights, dwarves, peasants: the encounter ends), 'cured' (hermit, wood nymph,
  Merlin: madness gone, roll their reaction as usual) or 'done' (Arthurian knight, king, lady,
  enchantress: resolved here).
* ``mad_recovery(s)``: the two Luck Tests at the end of a turn (requests_phase calls it).
* ``cure_madness(s, why)``, ``grant_castle(s)`` (a Lord's castle, after its adventure),
  ``summoner_castle(s, who)``.
"""
from __future__ import annotations

from companion.engine.game import edition
from companion.koc.engine import knight as kn
from companion.koc.engine import tasks
from companion.koc.engine.questions import Spec, register
from companion.koc.engine.session import Question, Session

MORGAN = {"kind": "lady", "name": "Morgan Le Fay", "vl": 12, "service_award": 30,
          "seduction": 5, "enchantress": True, "castle": None, "morgan": True}
ALWAYS_PRAY = ("Sir Galahad", "King Arthur", "Lady Elaine", "Sir Percival", "King Pellam",
               "Sir Bors")      # the six whose prayers never fail

register(
    Spec("mad_knight", "what to do with a Mad Knight you defeated: carry him bound to a shrine "
         "(Camelot for an Arthurian) to be cured (3 VP), release him, slay him, or pray for "
         "his sanity now", ("carry", "release", "slay", "pray"), "carry",
         tags=("arthurian",)),
)


def turn_no(s: Session) -> int:
    return s.game.state["koc"]["turn"]


# ============================================================================== Lady service
def lady_record(lady: dict) -> dict:
    return {"name": lady["name"], "castle": lady.get("castle"), "vl": lady.get("vl", 0),
            "service_award": lady.get("service_award", 0),
            "seduction": lady.get("seduction", 0),
            "enchantress": bool(lady.get("enchantress")), "morgan": bool(lady.get("morgan"))}


def enter_lady_service(s: Session, lady: dict, *, seduced: bool = False, courted: bool = False,
                       abandon_vp: int = 0) -> None:
    pk = s.pk
    if pk["lady"] and pk["lady"]["name"] == lady["name"]:
        s.note(f"{pk['name']} already serves {lady['name']}.")
        return
    if pk["lady"]:
        lose_lady(s, f"entering the service of {lady['name']}", vp=abandon_vp, summons_vp=6)
    record = lady_record(lady)
    record["seduced"] = seduced
    pk["lady"] = record
    if record["castle"] and not record["morgan"]:
        tasks.place_castle(s, record["castle"], record["name"], "lady")
        if record["castle"] not in pk["friendly"]:
            pk["friendly"].append(record["castle"])
    if seduced and record["enchantress"]:
        pk["enchantress"] = record["name"]
    from companion.koc.engine import knaves

    knaves.entered_service(pk, "lady")
    how = "is seduced into" if seduced else "enters"
    s.note(f"{pk['name']} {how} the service of {record['name']}"
           + (f" (her castle: {record['castle']})." if record["castle"] else "."))
    s.gain_cp(record["service_award"], f"the service award of {record['name']}")
    if courted:
        s.gain_vp(6, "a successful courtship")
    if seduced:
        s.gain_vp(-record["vl"], f"seduced by {record['name']}")


def castle_occupied(s: Session, castle: str) -> bool:
    """Whether some player knight is at or in a castle, or in its prison."""
    for rec in s.game.state["knights"].values():
        at, prison = rec["at"], rec.get("prison")
        if castle in (at.get("castle"), at["area"]) or (prison and prison["castle"] == castle):
            return True
    return False


def lose_lady(s: Session, why: str, *, died: bool = False, vp: int = 0,
              summons_vp: int = 0) -> bool:
    pk = s.pk
    lady = pk["lady"]
    if not lady:
        return False
    under = pk["lady_summons"] > 0
    pk["lady"] = None
    pk["token"] = False
    pk["lady_summons"] = 0
    pk.pop("captive_summoner", None) if pk.get("captive_summoner") == "lady" else None
    if pk.get("enchantress") == lady["name"]:
        pk["enchantress"] = None
    castle = lady.get("castle")
    own = pk.get("own_castle")
    if castle and castle != own:
        if castle in pk["friendly"]:
            pk["friendly"].remove(castle)
        placed = s.game.state.get("castles", {})
        if castle in placed and placed[castle].get("owner") == lady["name"] and \
                not castle_occupied(s, castle):
            # her castle leaves the map, unless a knight is in it or in its prison: then it
            # stays, as the castle of a lady met on an adventure does (s08)
            del placed[castle]
    for task in tasks.active(s):
        if task["kind"] == "summons" and task.get("summoner") == "lady":
            task["status"] = "cancelled"
    s.note(f"{pk['name']} loses his Lady, {lady['name']} ({why}).")
    s.gain_cp(-lady.get("service_award", 0), f"losing the service award of {lady['name']}")
    if died:
        s.game.remove("ladies", lady["name"])
        owner_slain(s, lady["name"], "lady")
        s.gain_vp(-12, f"the death of {lady['name']}")
        roll = s.d6(f"grief at the death of {lady['name']}")
        if roll == 1:
            go_mad(s, f"grief at the death of {lady['name']}")
        else:
            s.note(f"Grief-stricken, {pk['name']} keeps his wits (rolled {roll}).")
    else:
        loss = vp + (summons_vp if under else 0)
        if loss:
            s.gain_vp(-loss, "forsaking his Lady" + (" while under her summons" if under else ""))
    return True


CASTLE_DIES_WITH_OWNER = 7
"""The rules edition from which a castle stops being friendly once its owner is slain
(ENCOUNTERS: TERRAIN, Friendly Castles): a Lady or a Knight who owns a castle counter and is
slain (in a fight, as a Knight's Fate, by her own despair or of loneliness, by a madman) takes
that castle off the friendly list of every player knight who had it, with a word to the
witnesses and to those knights; a Lord's castle stays on his vassal's list (what becomes of a
knight whose Lord is slain is a matter of its own), and a castle a Knave holds is his. Before,
only the knight whose own Lady died of loneliness lost her castle."""


def owner_slain(s: Session, name: str, kind: str) -> None:
    """The Lady or Knight ``name`` (``kind`` 'lady' or 'knight') was slain (``Game.remove``):
    the castles he or she owned leave the player knights' friendly lists
    (CASTLE_DIES_WITH_OWNER)."""
    state = s.game.state
    if edition(state) < CASTLE_DIES_WITH_OWNER:
        return
    from companion.engine.words import joined
    from companion.koc.engine import villainy

    placed = state.get("castles", {})
    owned = [c for c in sorted(placed) if placed[c].get("owner") == name and
             placed[c].get("kind", "knight") == kind]
    if kind == "lady":      # her castle, placed on the map or not yet
        home = next((l.home_castle for l in s.world.ladies if l.name == name), None)
    else:
        home = f"{name}'s castle"
    if home and home not in owned and home not in placed:
        owned.append(home)
    for castle in owned:
        if villainy.holder(state, castle) is not None:
            continue
        lost = []
        for player in state["koc"]["order"]:
            rec = state["knights"][player]
            if castle in rec["friendly"] and (rec.get("lord") or {}).get("name") != name:
                rec["friendly"].remove(castle)
                lost.append(player)
        if lost:
            seen = s.witnesses()
            names = joined(state["knights"][p]["name"] for p in lost)
            s.game.ctx.event(f"With {name} slain, {castle} is no longer friendly to {names}.",
                             to=seen + [p for p in lost if p not in seen], kind="koc")
    if kind == "knight" and edition(state) >= LORD_SLAIN_LEAVES_NO_LORD:
        lord_slain(s, name)


def lordless(s: Session) -> None:
    """The session's knight has no Lord any more: his Lord's summonses lapse."""
    pk = s.pk
    pk["lord"] = None
    pk["lord_summons"] = 0
    if pk.get("captive_summoner") == "lord":
        pk.pop("captive_summoner")
    for task in tasks.active(s):
        if task["kind"] == "summons" and task.get("summoner") == "lord":
            task["status"] = "cancelled"


LORD_SLAIN_LEAVES_NO_LORD = 7
"""The rules edition from which a player knight whose Lord is a Knight (the lord of a Logres
castellany, or one he entered the service of) is left without a Lord once that Knight is slain
(SERVICE, Lord Service: one of the two ways to lose one's Lord), with a word to the witnesses
and to him: no VP lost, an unanswered Lord Summons lapses, the Lord's castle stays on his
friendly list (CASTLE_DIES_WITH_OWNER) and a castle the Lord granted stays his. Before, the
slain Knight went on being his Lord."""


def lord_slain(s: Session, name: str) -> None:
    """The Knight ``name``, slain, no longer is any player knight's Lord
    (LORD_SLAIN_LEAVES_NO_LORD)."""
    state = s.game.state
    for player in state["koc"]["order"]:
        rec = state["knights"][player]
        lord = rec.get("lord") or {}
        if lord.get("kind") != "knight" or lord.get("name") != name or rec.get("slain"):
            continue
        lordless(s if player == s.player else Session(s.game, player, parent=s))
        seen = s.witnesses()
        s.game.ctx.event(f"With {name} slain, {rec['name']} has no Lord.",
                         to=seen + ([player] if player not in seen else []), kind="koc")


# ============================================================================== Lord service
def lord_castle(s: Session) -> str | None:
    pk = s.pk
    lord = pk["lord"]
    if not lord:
        return None
    if lord.get("castle"):
        return lord["castle"]
    if lord.get("kind") == "knight" and pk.get("home") and pk["home"].get("castellany"):
        return pk["home"]["castle"]
    return tasks.knight_castle(s, lord["name"])


def lady_castle(s: Session) -> str | None:
    lady = s.pk["lady"]
    if not lady or lady.get("morgan") or not lady.get("castle"):
        return None
    return tasks.place_castle(s, lady["castle"], lady["name"], "lady")


def summoner_castle(s: Session, who: str) -> str | None:
    return lady_castle(s) if who == "lady" else lord_castle(s)


def abandon_lord(s: Session, why: str, *, vp: int = 6, summons_vp: int = 6) -> bool:
    pk = s.pk
    lord = pk["lord"]
    if not lord:
        return False
    under = pk["lord_summons"] > 0
    castle = lord_castle(s)
    pk.setdefault("former_lords", []).append(lord["name"])
    if castle and castle in pk["friendly"]:
        pk["friendly"].remove(castle)
    own = pk.get("own_castle")
    placed = s.game.state.get("castles", {})
    if own and placed.get(own, {}).get("granted_by") == lord["name"]:
        if own in pk["friendly"]:
            pk["friendly"].remove(own)
        placed.pop(own, None)
        pk["own_castle"] = None
        s.note(f"{lord['name']} takes back the castle he had granted to {pk['name']}.")
    lordless(s)
    if lord["name"] == "King Arthur" and pk["arthurian"]:
        pk["arthurian"] = False
    s.note(f"{pk['name']} leaves the service of {lord['name']} ({why}).")
    loss = vp + (summons_vp if under else 0)
    if loss:
        s.gain_vp(-loss, "forsaking his Lord" + (" while under his summons" if under else ""))
    return True


def change_lord(s: Session, king: dict, *, summons_vp: int = 6) -> bool:
    """The PK enters a new King's service (his Request for service was granted); under his old
    Lord's Summons he loses ``summons_vp`` (0 when the request paid them:
    requests.SUMMONS_COSTS_THE_TRY)."""
    pk = s.pk
    from companion.koc.engine.resolutions import oath_binds

    if "serve_only_present_lord" in pk["oaths"] and pk["lord"] and \
            oath_binds(s, "serve_only_present_lord", "serving another Lord"):
        return False
    if pk["lord"]:
        abandon_lord(s, f"entering the service of {king['name']}", vp=0, summons_vp=summons_vp)
    if king.get("castle"):
        castle = king["castle"]
    elif king.get("kingdom"):
        castle = s.world.kingdoms[king["kingdom"]].royal_castle
    else:
        castle = None
    pk["lord"] = {"kind": king.get("kind", "king") if king.get("kind") != "pk" else "knight",
                  "name": king["name"], "castle": castle, "vl": king.get("vl", 0)}
    if castle and castle not in pk["friendly"]:
        pk["friendly"].append(castle)
    if king["name"] in pk.get("former_lords", []):
        pk["former_lords"].remove(king["name"])
    if king["name"] == "King Arthur":
        pk["arthurian"] = True
        s.note(f"{pk['name']} is now a Knight of King Arthur.")
    from companion.koc.engine import knaves

    knaves.entered_service(pk, "lord")
    s.note(f"{pk['name']} enters the service of {king['name']}.")
    return True


def grant_castle(s: Session) -> str | None:
    """The Lord grants a castle in his lands (after the castle adventure): friendly, with one
    Knight (non-Arthurian unless the Lord is King Arthur) as its garrison."""
    from companion.koc.engine.resolutions import random_province

    pk = s.pk
    lord = pk["lord"]
    if not lord:
        return None
    castle = lord_castle(s)
    area = s.world.areas[tasks.castle_area(s, castle)]
    kingdom = area.kingdoms[0] if area.kingdoms else None
    castellany = area.castellanies[0] if area.castellanies else None
    where = random_province(s, kingdom, castellany)
    name = f"{pk['name']}'s castle"
    tasks.place_castle(s, name, pk["name"], "pk", area=where)
    arthur = lord["name"] == "King Arthur"
    guard = s.game.draw("knights", "the garrison of the granted castle",
                        accept=lambda c: c.arthurian == arthur)
    placed = s.game.state["castles"][name]
    placed["granted_by"] = lord["name"]
    placed["guards"] = [guard]
    pk["own_castle"] = name
    if name not in pk["friendly"]:
        pk["friendly"].append(name)
    s.note(f"{lord['name']} grants {pk['name']} a castle in {where}, held by {guard['name']}.")
    return name


# ============================================================================== castle guards
GUARDS_MAX = 6
GUARD_WASTELAND_MODIFIED = 7
"""The rules edition from which guard duty at a castle in a wasteland rolls the countryside
chart less 1, with the kingdom's modifier, as any wasteland encounter (Wasteland Encounters);
before, unmodified."""
ATTACKS = {"knight": ("attacks", "attacks_with_others"), "king": ("attacks_with_knights",)}


def guards_of(s: Session, castle: str) -> list[dict]:
    from companion.koc.engine import villainy

    held = villainy.guards(s, castle)       # a castle a Knave took by storm
    if held is not None:
        return held
    return s.game.state.get("castles", {}).get(castle, {}).setdefault("guards", [])


def can_take_guard(s: Session) -> str | None:
    """The castle of the PK's where a defeated knight may be sent to guard it (None: he has no
    castle, or six guards hold it already)."""
    castle = s.pk.get("own_castle")
    if not castle or castle not in s.game.state.get("castles", {}):
        from companion.koc.engine import villainy

        return villainy.guard_castle(s)     # a Knave's reinforcements for a stormed castle
    return castle if len(guards_of(s, castle)) < GUARDS_MAX else None


def send_to_guard(s: Session, castle: str, owner: str) -> None:
    """A defeated player knight sent to guard the victor's castle (Knight's Fate 14): he rides
    there at once and stays on guard duty until he breaks his word ('leave guard', 12 VP) or is
    beaten by those who storm it."""
    pk = s.pk
    placed = s.game.state["castles"][castle]
    before = pk["at"]
    pk["at"] = {"area": placed["area"], "where": "inside", "castle": castle}
    pk["guard"] = {"castle": castle, "owner": owner, "since": turn_no(s)}
    guards_of(s, castle).append({"kind": "pk", "name": pk["name"], "player": s.player})
    from companion.koc.engine import party

    party.drop(s.game, s.player, "sent to guard a castle")
    s.note(f"{pk['name']} rides to {castle} to stand guard there"
           + ("." if before["area"] == placed["area"] else f" (in {placed['area']})."))


def end_guard(s: Session, why: str) -> None:
    pk = s.pk
    duty = pk.pop("guard", None)
    if not duty:
        return
    guards = guards_of(s, duty["castle"])
    guards[:] = [g for g in guards if g.get("player") != s.player]
    s.note(f"{pk['name']} is no longer on guard duty at {duty['castle']} ({why}).")


def leave_guard(s: Session) -> None:
    """Leaving guard duty is breaking one's word: 12 VP."""
    s.gain_vp(-12, "breaking his word to stand guard")
    end_guard(s, "he breaks his word and rides away")


def guard_duty(s: Session) -> None:
    """A turn on guard duty: an encounter roll on the chart of the land around the castle, the
    party counting the castle's guards (at most 5); a flooded river, a lady bathing and a wood
    nymph are rolled again, 'lost' means 1-6 knights. Inside the walls everything passes by,
    save knights and kings who attack: they storm the castle, and the guards fight with him."""
    from companion.koc.engine import encounters as enc
    from companion.koc.engine.combat import npk
    from companion.koc.engine.movement import QUIET

    pk = s.pk
    duty = pk["guard"]
    castle = duty["castle"]
    around = s.world.areas[tasks.castle_area(s, castle)]
    kind = around.kind if around.kind in ("forest", "river", "wasteland") else "countryside"
    s.note(f"{pk['name']} stands guard at {castle}.")
    value = 1 if kind in QUIET else min(5, len(guards_of(s, castle)))
    roll = s.d6(f"encounter roll at {castle} (on guard)")
    s.note(f"Encounter roll around {castle}: {roll} (an encounter on {value} or less): "
           f"{'an encounter' if roll <= value else 'nothing'}.")
    if roll > value:
        return
    while True:
        modifier = s.world.countryside_modifier(around.name) if kind == "countryside" or (
            kind == "wasteland" and edition(s.game.state) >= GUARD_WASTELAND_MODIFIED) else 0
        result = s.chart(kind if kind != "wasteland" else "countryside", modifier=modifier,
                         purpose=f"encounter around {castle}")
        key = result.entry.key
        if key not in ("flooded_river", "lady_bathing", "wood_nymph"):
            break
        s.note("That cannot happen to a castle's guard: rolled again.")
    m = enc.Meeting(s, around.name, place="castle")
    foes: list[dict] = []
    if key in ("knights", "knights_three", "lost", "attacking_knight"):
        count = 1 if key == "attacking_knight" else 3 if key == "knights_three" else \
            s.d6("how many knights ride up")
        knights = m.knights(count, "a knight riding up to the castle")
        s.note("Knights ride up to the castle: " + enc.names(knights) + ".")
        lead = knights[0]
        reaction = None if key == "attacking_knight" else \
            s.chart("knight", purpose=f"reaction of {lead['name']}").entry
        if reaction is None or reaction.key in ATTACKS["knight"]:
            if reaction is not None and reaction.key == "attacks_with_others":
                knights += m.knights(enc.count_of(s, reaction, "knights called"),
                                     "a knight called to the attack")
            foes = [npk(c) for c in knights]
    elif key == "king":
        king = m.draw("kings", "a king riding by")
        s.note(f"{king['name']} rides up to the castle.")
        reaction = s.chart("king", purpose=f"reaction of {king['name']}").entry
        if reaction.key in ATTACKS["king"]:
            escort = m.knights(len(guards_of(s, castle)) + enc.count_of(
                s, reaction, "knights the king calls"), f"a knight of {king['name']}'s men")
            foes = [npk(c) for c in escort] + [npk(king)]
    else:
        s.note(f"Whatever it is ({result.entry.label}) passes by: the guards keep within the "
               "walls.")
    if foes:
        storm(s, castle, foes)
    m.finish()


def storm(s: Session, castle: str, foes: list[dict]) -> None:
    """Attackers storm the castle he guards: he fights, and the castle's other (non-player)
    guards with him; beaten, he is a guard no longer."""
    from companion.koc.engine.combat import fight

    pk = s.pk
    s.note(f"They storm {castle}!")
    own = list(pk["comrades"])
    garrison = [g for g in guards_of(s, castle) if g.get("kind") != "pk"]
    for g in garrison:
        g.setdefault("wounds", 0)
    pk["comrades"] = own + garrison           # the garrison fights at his side
    try:
        king = next((f for f in foes if f["kind"] == "king"), None)
        result = fight(s, foes, tags=("knights", "castle"), leader=king)
    finally:
        still = pk["comrades"]
        guards = guards_of(s, castle)
        guards[:] = [g for g in guards if g.get("kind") == "pk" or any(g is c for c in still)]
        pk["comrades"] = [c for c in still if not any(c is g for g in garrison)]
    if result.pk_defeated and not pk["slain"]:
        end_guard(s, "beaten when the castle was stormed")


# ============================================================================== summonses
def summons(s: Session, who: str, *, captive: bool = False) -> None:
    """A Summons from the Lord or the Lady. A second Lord's Summons before the first is
    answered costs 6 VP (each time); a second Lady's Summons kills her of loneliness."""
    pk = s.pk
    if who == "lady":
        lady = pk["lady"]
        if not lady:
            s.note(f"{pk['name']} serves no Lady: the summons means nothing to him.")
            return
        if lady.get("morgan"):
            morgan_summons(s)
            return
        if pk["lady_summons"]:
            s.note(f"A second summons comes before {pk['name']} answered the first: "
                   f"{lady['name']} dies of loneliness.")
            lose_lady(s, "she died of loneliness", died=True)
            return
        pk["lady_summons"] = 1
        s.note(f"{lady['name']} summons {pk['name']} to her castle.")
    else:
        lord = pk["lord"]
        if not lord:
            s.note(f"{pk['name']} serves no Lord: the summons means nothing to him.")
            return
        if pk["lord_summons"]:
            s.gain_vp(-6, "a further summons from his Lord while the first is unanswered")
            from companion.koc.engine import knaves

            knaves.ignored_summons(s)       # a Knave's granted castle is revoked
        pk["lord_summons"] += 1
        s.note(f"{lord['name']} summons {pk['name']} to his castle.")
    if captive:
        pk["captive_summoner"] = who
    castle = summoner_castle(s, who)
    if castle is None:
        return
    if any(t["kind"] == "summons" and t.get("summoner") == who for t in tasks.active(s)):
        return
    direct = who == "lady" and "always_help_ladies" in pk["oaths"]
    task = tasks.add(s, "summons", tasks.castle_area(s, castle), awards={},
                     route="direct" if direct else None, penalty_vp=12 if direct else 0,
                     why=f"answering the summons of his {who}", on_done="summons",
                     summoner=who, castle=castle)
    if direct:
        pk["tasks"].remove(task)
        pk["tasks"].insert(0, task)
        s.note("His oath to help ladies sends him to her at once, by the most direct route.")
    from companion.koc.engine.resolutions import at_castle

    if at_castle(s, castle) and pk["at"]["where"] in ("inside", "area"):
        answer_summons(s)


def morgan_summons(s: Session) -> None:
    """Morgan summons her servant: he is carried to her by magic (out of prison too), loses
    6 VP, and she tries another enchantment (seduction then does nothing)."""
    from companion.koc.engine.resolutions import enchant

    pk = s.pk
    area = s.game.state["merlin"]["area"] or pk["at"]["area"]
    pk["prison"] = None
    if s.world.areas[area].kind != "sea":       # (the counter off the map: he stays aboard)
        pk["at"] = {"area": area, "where": "area"}
    s.note(f"Morgan Le Fay summons {pk['name']}: magic carries him to her in {area}.")
    s.gain_vp(-6, "Morgan's summons")
    enchant(s, MORGAN, MORGAN["seduction"])


def answer_summons(s: Session) -> None:
    """The PK is at his Lord's or Lady's castle: any Summons from there is answered (a captive
    Lord or Lady must first be freed by storming the castle)."""
    from companion.koc.engine.resolutions import at_castle, storm_castle

    pk = s.pk
    for who in ("lady", "lord"):
        if not pk[f"{who}_summons"]:
            continue
        castle = summoner_castle(s, who)
        if castle is None or not at_castle(s, castle):
            continue
        if pk.get("captive_summoner") == who:
            name = pk[who]["name"]
            s.note(f"{castle} is held by enemies and {name} is their prisoner.")
            if not storm_castle(s, castle, why=f"to free {name}"):
                s.note(f"{name} is still a prisoner: the summons is not yet answered.")
                for task in tasks.active(s) + [t for t in pk["tasks"] if t["status"] == "done"]:
                    if task["kind"] == "summons" and task.get("summoner") == who:
                        task["status"] = "active"
                continue
            pk.pop("captive_summoner")
            s.note(f"{name} is free.")
        pk[f"{who}_summons"] = 0
        for task in pk["tasks"]:
            if task["kind"] == "summons" and task.get("summoner") == who and \
                    task["status"] == "active":
                task["status"] = "done"
        s.note(f"{pk['name']} answers the summons of his {'Lady' if who == 'lady' else 'Lord'}.")
        from companion.koc.engine import knaves

        knaves.review(s, who)           # a Knave's deeds are judged
        if who == "lord":
            from companion.koc.engine import foreign_war

            foreign_war.summons_answered(s)     # optional rule: a war abroad on a 1-3


# ============================================================================== madness
def go_mad(s: Session, why: str) -> None:
    """Madness: equipment thrown away, companions and comrades flee (not a Mascot; an
    Arthurian Dwarf tries to subdue him), tasks with a route are abandoned."""
    from companion.koc.engine.combat import lose_followers

    pk = s.pk
    if pk["mad"]:
        return
    from companion.koc.engine import party, rivals

    fellows = party.with_me(s)
    pk["mad"] = {"since": turn_no(s), "tests": 0, "why": why}
    s.note(f"{pk['name']} goes mad ({why}), throws away his arms and runs wild.")
    party.drop(s.game, s.player, "madness")
    pk["gear"] = {g: False for g in kn.GEAR}
    pk["on_foot"] = True
    arthurian_dwarf = pk["dwarf"] if pk["dwarf"] and pk["dwarf"].get("arthurian") else None
    if pk["dwarf"]:
        pk["dwarf"]["spares"] = []
    lose_followers(s, why="his madness", keep_arthurian_dwarf=True)
    for e in pk["party_extra"]:
        s.note(f"{e['name']} flees from the madman.")
    pk["party_extra"] = []
    for task in tasks.active(s):
        if task.get("route") == "direct" and not task.get("prophecy"):
            task["status"] = "failed"
            s.note(f"His task ({task['kind'].replace('_', ' ')}) is lost in his madness.")
    if arthurian_dwarf:
        dwarf_subdues(s)
    if fellows and pk["mad"] and not pk["slain"]:
        rivals.madman_attacks(s, fellows)


def dwarf_subdues(s: Session) -> None:
    """The Arthurian Dwarf (WL 1, two dice +1 from horseback) wrestles his mad master (two dice
    of rage); if he wins he carries him toward the nearest Shrine or Camelot to be cured; if he
    loses he is slain."""
    pk = s.pk
    dwarf_wounds, pk_left = 0, kn.current_wl(pk)
    while dwarf_wounds < 1 and pk_left > 0:
        d = sum(s.dice(2, "the Arthurian Dwarf subdues his master")) + 1
        m = sum(s.dice(2, "the mad knight's rage"))
        if d > m:
            pk_left -= d - m
        elif m > d:
            dwarf_wounds += m - d
    if pk_left <= 0:
        dest = nearest_cure(s, camelot_ok=True)
        pk["mad"]["carried_to"] = dest
        s.note(f"The Arthurian Dwarf overpowers {pk['name']} and carries him bound toward "
               f"{dest}.")
    else:
        pk["dwarf"] = None
        s.note(f"{pk['name']} in his rage slays his faithful Dwarf.")


def nearest_cure(s: Session, *, camelot_ok: bool) -> str:
    """The nearest Shrine (or Camelot Castle when allowed and nearer) by land."""
    here = s.pk["at"]["area"]
    options = [a.name for a in s.world.areas.values() if a.is_shrine and a.name != "Rome"]
    if camelot_ok:
        options.append("Camelot Castle")
    best, best_d = options[0], None
    for name in sorted(options):
        d = tasks.land_distance(s, here, name)
        if d is not None and (best_d is None or d < best_d):
            best, best_d = name, d
    return best


def mad_wandering(s: Session) -> None:
    """The movement phase of a mad PK: on foot, one area a turn toward the encounter area of
    his Lady's castle (his Lord's without a Lady), wandering there; encounters as usual."""
    from companion.koc.engine.movement import Mover
    from companion.koc.routes import land_route

    pk = s.pk
    mad = pk["mad"]
    if mad.get("since") == turn_no(s):
        return
    goal = mad.get("carried_to")
    if goal is None:
        castle = lady_castle(s) or lord_castle(s)
        if castle is None:
            goal = pk["at"]["area"]
        else:
            goal = s.world.local_countryside(tasks.castle_area(s, castle)).name
    here = pk["at"]["area"]
    if here == goal:
        if mad.get("carried_to"):
            cure_madness(s, f"the holy place of {goal}")
            return
        Mover(s).run([{"do": "stay"}])
        return
    try:
        route = land_route(s.world, here, goal)
        step = route.steps[1].area
    except Exception:
        Mover(s).run([{"do": "stay"}])
        return
    if mad.get("carried_to"):
        pk["at"] = {"area": step, "where": "area"}
        s.note(f"The Dwarf carries {pk['name']} into {step}.")
        if step == goal:
            cure_madness(s, f"the holy place of {goal}")
        return
    s.note(f"{pk['name']} wanders, mad, toward {goal}.")
    Mover(s).run([{"do": "move", "area": step}])


def mad_recovery(s: Session) -> None:
    """End of a turn after the madness struck: two successful Luck Tests cure it."""
    pk = s.pk
    mad = pk["mad"]
    if not mad or mad.get("since") == turn_no(s):
        return
    first = s.luck_test("recover from madness (first test)",
                        said="recover from madness, the first of two")
    second = s.luck_test("recover from madness (second test)",
                         said="recover from madness, the second of two")
    if first and second:
        cure_madness(s, "his wits return")
    else:
        mad["tests"] = mad.get("tests", 0) + 1


def cure_madness(s: Session, why: str) -> None:
    pk = s.pk
    if not pk["mad"]:
        return
    pk["mad"] = None
    s.note(f"{pk['name']} is cured of his madness ({why}).")


def mad_reaction(s: Session, whom: dict) -> str:
    """How a person or creature met treats a mad PK (see the module docstring)."""
    pk = s.pk
    kind = whom.get("kind")
    card = whom.get("card") or whom
    if kind in ("animal", "monster", "sea_monster", "troll"):
        return "attacks"
    if kind in ("brigands", "brigand", "dwarf", "peasants", "highwayman", "beggars",
                "watchmen", "children"):
        s.note(f"The {kind.replace('_', ' ')} keep well away from the madman.")
        return "avoids"
    if kind in ("hermit", "priest", "wood_nymph", "merlin"):
        cure_madness(s, f"the {kind.replace('_', ' ')}'s care")
        return "cured"
    if kind == "knight" and not card.get("arthurian"):
        s.note(f"{card.get('name', 'The knight')} rides around the madman.")
        return "avoids"
    if kind in ("knight", "king"):
        return knight_subdues_madman(s, card)
    if kind == "lady":
        from companion.koc.engine.resolutions import enchant

        if card.get("enchantress"):
            cure_madness(s, f"{card['name']}'s craft")
            enchant(s, card, card.get("seduction", 0), resistible=False)
            return "done"
        if pray(s, card, "for the madman's sanity"):
            cure_madness(s, f"{card['name']}'s prayer")
            from companion.koc.engine import encounters

            encounters.meet_lady(s, card, reaction_modifier=1, status=False, ask=False)
        else:
            s.note(f"{card['name']} flees from the madman.")
        return "done"
    return "attacks"


def pray(s: Session, who: dict, why: str) -> bool:
    """A person's prayer: the six of low VL and hermits always succeed; else a VL test."""
    name = who.get("name", "")
    if who.get("kind") == "hermit" or name in ALWAYS_PRAY or (who.get("vl") or 0) <= 0:
        s.note(f"{name or 'The hermit'} prays {why}; the prayer is answered.")
        return True
    return s.vl_test(who.get("vl", 7), f"prayer {why}", who=name)


def knight_subdues_madman(s: Session, card: dict) -> str:
    """An Arthurian knight or a King fights the mad PK (his Mascot stays out of it); if the PK
    is beaten the victor prays for his sanity: cured, he suffers a Knight's Fate; otherwise he
    wanders on. A madman who wins slays his foe (a King he cannot slay)."""
    from companion.koc.engine.combat import Combat, npk
    from companion.koc.engine.fate import suffer_fate

    pk = s.pk
    foe = npk(card)
    s.note(f"{card['name']} attacks the madman {pk['name']}.")
    mascot, pk["mascot"] = pk["mascot"], None
    try:
        result = Combat(s, [foe], attacker="foe", awards=False, alone=True).run()
    finally:
        pk["mascot"] = mascot
    if result.won:
        if card.get("kind") == "king":
            s.note(f"King {card['name']} is beaten and withdraws.")
        else:
            s.note(f"The madman slays {card['name']}.")
            s.game.remove("knights", card["name"])
            owner_slain(s, card["name"], "knight")
        return "done"
    pk["defeated"] = True
    if pray(s, card, f"for {pk['name']}'s sanity"):
        cure_madness(s, f"{card['name']}'s prayer")
        suffer_fate(s, foe)
    else:
        s.note(f"{card['name']} lets the madman wander on.")
    return "done"


# ------------------------------------------------------------------------- mad NPKs defeated
def defeated_mad_knight(s: Session, foe: dict) -> None:
    """The PK defeated a Mad Knight: slay him (no penalty), release him, pray for his sanity,
    or carry him bound to the nearest Shrine (Camelot for an Arthurian) to be cured (3 VP)."""
    pk = s.pk
    card = foe.get("card") or {"kind": "knight", "name": foe["name"], "vl": foe.get("vl", 7),
                               "cp": foe.get("cp") or foe["wl"] * 10,
                               "arthurian": foe.get("arthurian", False)}
    options = ["carry", "release", "slay"]
    if pk.get("prayed") != turn_no(s) and not pk["mad"]:
        options.append("pray")
    default = "carry"
    q = Question("mad_knight", f"{foe['name']}, the Mad Knight, lies beaten. Carry him bound to "
                 "be cured, release him, slay him" + (", or pray for him" if "pray" in options
                                                      else "") + "?", options, default,
                 tags=(("arthurian",) if card.get("arthurian") else ()))
    choice = s.ask(q)
    if choice == "slay":
        s.note(f"{pk['name']} slays the Mad Knight {foe['name']}.")
        s.game.remove("knights", foe["name"])
        owner_slain(s, foe["name"], "knight")
        return
    if choice == "release":
        s.note(f"{pk['name']} lets {foe['name']} wander on in his madness.")
        s.game.discard("knights", foe["name"])
        return
    if choice == "pray":
        pk["prayed"] = turn_no(s)
        if s.vl_test(kn.vl(pk), f"prayer for {foe['name']}'s sanity"):
            s.gain_vp(6, "a successful prayer (aid rendered)")
            cured_knight_serves(s, card)
            return
        s.note(f"The prayer is not answered; {pk['name']} binds {foe['name']}.")
    bind_mad_knight(s, card)


def bind_mad_knight(s: Session, card: dict) -> None:
    pk = s.pk
    dest = "Camelot Castle" if card.get("arthurian") else nearest_cure(s, camelot_ok=False)
    pk["party_extra"].append({"kind": "bound_mad_knight", "name": card["name"], "card": card,
                              "rides": True, "horse": False})
    if dest == "Camelot Castle":
        from companion.koc.engine.resolutions import temp_friendly

        temp_friendly(s, dest)
    tasks.add(s, "carry_mad_knight", dest, awards={}, route=None,
              why=f"carrying the Mad Knight {card['name']} to be cured at {dest}",
              on_done="mad_knight_cured", person=card)
    s.note(f"{pk['name']} binds {card['name']} and carries him toward {dest}.")


def mad_knight_cured(s: Session, task: dict) -> None:
    """Arrival with a bound Mad Knight at a Shrine (or Camelot): he is cured (3 VP)."""
    pk = s.pk
    card = task["person"]
    if not any(e.get("kind") == "bound_mad_knight" and e["name"] == card["name"]
               for e in pk["party_extra"]):
        s.note(f"{card['name']} is no longer with {pk['name']}.")
        return
    pk["party_extra"] = [e for e in pk["party_extra"] if not (
        e.get("kind") == "bound_mad_knight" and e["name"] == card["name"])]
    s.note(f"At {task['dest']} {card['name']} is cured of his madness.")
    s.gain_vp(3, "bringing a Mad Knight to be cured")
    cured_knight_serves(s, card)


def cured_knight_serves(s: Session, card: dict) -> None:
    """A cured Mad Knight serves as Man-at-Arms if the PK has none, else rides as a comrade
    (a PK sworn to travel alone lets him go)."""
    pk = s.pk
    pk["party_extra"] = [e for e in pk["party_extra"] if not (
        e.get("kind") == "bound_mad_knight" and e["name"] == card["name"])]
    if "always_travel_alone" in pk["oaths"]:
        s.note(f"{card['name']} thanks {pk['name']} and rides away.")
        s.game.discard("knights", card["name"])
        return
    member = dict(card)
    member["joined"] = turn_no(s)
    member["wounds"] = 0
    if not pk["men_at_arms"]:
        pk["men_at_arms"].append(member)
        s.note(f"{card['name']}, cured, serves {pk['name']} as a Man-at-Arms.")
    else:
        pk["comrades"].append(member)
        s.note(f"{card['name']}, cured, rides with {pk['name']} as a comrade.")
