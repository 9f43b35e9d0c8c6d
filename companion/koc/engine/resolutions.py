"""The miscellaneous resolutions: aids, enchantments, imprisonment and appeals, messages, oaths,
tricks; and what completing a task or finding someone sets off (see docs/koc-engine.md).

Contract:

* ``request_aid(s, person) -> bool``: a random Aid requested by ``person`` (a record); the PK
  grants or refuses (6 VP either way); returns whether it was performed.
* ``enchant(s, by, adjustment, *, resistible=True, druid=False) -> bool``: an Enchantment
  attempt; returns True if resisted.
* ``lift_enchantment(s, enchantment)``: remove one enchantment record (and its effects).
* ``imprison(s, *, by, jailor, castle=None)``: throw the PK into prison (losing equipment,
  companions, comrades); ``by`` is 'king', 'knight', 'pk', 'castle', 'watchmen', 'trick',
  'enchantment' (this decides which appeals he may make).
* ``prison_phase(s)``: the movement phase of an imprisoned PK: appeals to passer-by or jailor.
* ``message(s, source)``: a random Message (summonses, wedding, raiders, ...).
* ``swear_oath(s, why, key=None)``, ``break_oath(s, key)``: oaths (12 VP to break).
* ``trick(s, by, *, hermit=False)``: escape on a Luck Test, else 6 VP and a random Trick.
* ``adventure_news(s, source, *, prophecy=False, immediate=True, local=False, rolled=None)``:
  roll an Adventure and offer it (or impose it as a Prophecy); records it as a task.
* ``after_hold(s, hold)``: a lost-turns hold ended (e.g. court attended, scourging chosen).
* ``task_done(s, task)``: a task with ``on_done`` completed.
* ``found(s, task)``: a sought person or creature was found.

Also for the other engine modules:

* ``oath_binds(s, key, doing) -> bool``: the PK's oath ``key`` forbids (or demands) ``doing``;
  he may break it (12 VP, asked) if he can. True means the oath holds and must be honoured.
  How each oath is honoured:

  - ``never_yield``, ``use_no_weapons``, ``fight_without_advantage``, ``spare_knights``,
    ``do_not_eat``, ``never_avoid_encounters``: read by combat.py and fate.py (and by the
    encounters' avoid question);
  - ``always_travel_alone``: swearing it sends away Dwarf, Mascot, Men-at-Arms and comrades;
    afterwards nobody may join (requests 'join', 'men at arms', 'dwarf' are refused here, and
    encounters should not add companions), no escort is undertaken (aid 'escort home', trick
    and passer-by pilgrims: the PK must refuse unless he breaks the oath);
  - ``serve_only_present_lord``: ``service.change_lord`` and the request for a King's service
    (so King Arthur's petition too) are refused while it holds;
  - ``always_help_ladies``: a Lady's request for aid or escort must be granted (``request_aid``
    asks ``oath_binds`` when the person is a lady; encounters should do the same for her
    escort request); a Lady Summons becomes a direct-route task whose straying costs 12 VP; an
    adventure involving a Lady cannot be declined; her insult must be challenged;
  - ``always_grant_requests``: every aid or escort request and every prayer asked of him is
    granted (here, in ``requests.grant`` for requests made of a PK, and by encounters for
    escorts);
  - ``never_break_oaths``: no oath is broken willingly (``oath_binds`` never offers it), and a
    hermit must release this oath before any other.
* ``change_into_animal(s, by)``: the animal-form enchantment (Merlin's reaction 2 uses it).
* ``lift_all_enchantments(s)``: a Wood Nymph's cure.
* ``appeal_to_jailor(s, ...)``: one Appeal to Jailor (Faerie's departure uses it too).
* ``storm_castle(s, castle, ...)``: storming a castle to free its prisoners.
* ``castle_owner(s, castle)``, ``castle_here(s)``, ``local_area(s)``, ``local_castle(s, ...)``;
  at sea (``at_sea(s)``) the local castle is ``landfall_castle(s, purpose)``, a castle whose
  port opens on that sea (or the nearest sea with one), and ``local_land(s, purpose)`` the
  countryside around it: nothing a result places "locally" ever stands on a sea.
"""
from __future__ import annotations

from companion.engine.game import edition
from companion.koc.engine import knight as kn
from companion.koc.engine import tasks
from companion.koc.engine.questions import OATH_KEYS, Spec, register
from companion.koc.engine.session import Question, Session
from companion.koc.engine.words import plural

LOST_FOR_FREEDOM = 3
"""The rules edition from which a fight for a prisoner's freedom that is lost says so ("Anna
has lost: he stays in prison."); before, "Anna fails: Anna stays in prison."."""
ESCORT_NEEDS_HORSE = 7
"""The rules edition from which a King or Lady asking to be escorted home as aid (Aids 10) of a
knight without a horse (or in animal form) asks what cannot be given: no penalty, as for the
escorts they ask in their reactions (SERVICE: a King or Lady is escorted only on horseback).
Before, he was asked, and refusing cost 6 VP."""
ALONE_NO_RESCUED_COMPANY = 7
"""The rules edition from which the oath to travel alone (Oaths 10: no comrades or companions
join him) stands against Aid 2 (the person rescued from a pursuing monster stays at his side as
a comrade) as it does against an escort (Aid 10): he keeps the oath and refuses (6 VP), or
breaks it (12 VP) when he can. Before, the person joined him and the oath was not asked."""
ONLY_OATHS_AT_ISSUE = 7
"""The rules edition from which, when the oath to travel alone pulls against the oath that
obliges a knight to give an aid that brings company (Aids 2 and 10), only the oaths that bind
him to this person count: the oath to help ladies when a Lady asks, the oath to grant every
request always. The first sworn of those holds and the others are broken. Before, the oath to
help ladies counted (and was broken) whoever asked."""
SLEEPER_LEFT_ALONE = 7
"""The rules edition from which an enchanted sleep (Enchantments 12: every companion and
comrade departs) sends away the persons in his company too: an escorted King, Lady, Knight,
Dwarf or Hermit, pilgrims, a bound Mad Knight (their cards go back), and the tasks that need
them end without penalty (an escort, its 1 VP a turn stops; the escort adventures 1:2 and 1:3;
carrying the Mad Knight). An Arthurian Dwarf stays by him (hardier stock: he does not flee), and
what he carries and his captives stay (encounters.drop_companions). Before, only his Dwarf,
Men-at-Arms, comrades and Mascot left, and an escort earned its VP while he slept."""
ANIMAL_SHEDS_COMPANY = 7
"""The rules edition from which a knight changed into an animal (Enchantments 4) parts from the
persons in his company as a sleeper does (SLEEPER_LEFT_ALONE: encounters.drop_companions):
they leave him, their cards go back, and every task that needs them ends without penalty, the
escort adventures 1:2 and 1:3 too (no award on arriving with nobody); a bound Mad Knight still
breaks loose. Before, only the escorts and the carrying of a Mad Knight failed (with their
penalty, if any), the adventures ran on, and the persons' cards were kept out of the decks."""

AID_KEYS = ("rescue_from_pursuit", "rescue_from_prison", "rescue_from_captors", "court_a_lady",
            "give_shield", "give_dwarf", "give_sword", "give_horse", "escort_home",
            "deliver_message", "give_directions")
PASSERBY_TERMS = ("abandon_lady", "swear_oath", "fight_enemy", "prison_rescue",
                  "deliver_message", "escort_pilgrims", "adventure")
JAILOR_TERMS = ("released_exile", "released_oath", "released_fight", "released_challenge")
LASTING = ("change_into_animal", "rob", "sleep")
PERSONS = ("knight", "king", "lady", "dwarf", "hermit", "castle", "pk", "arthur", "lord",
           "passerby", "trick", "animal", "merlin", "fate")
ADVENTURE_SOURCES = ("lord", "lady", "arthur", "king", "knight", "castle", "hermit", "dwarf",
                     "animal", "message", "merlin", "trick", "passerby", "fate", "request")
LOCAL_SITES = ("local", "local_castle", "local_royal_castle")

register(
    Spec("aid", "grant or refuse a request for aid (6 VP either way; no penalty when impossible)",
         ("grant", "refuse"), "grant", tags=AID_KEYS + PERSONS[:5]),
    Spec("aid_spare", "give away the Dwarf's spare item rather than your own", ("spare", "own"),
         "spare", tags=("give_shield", "give_sword", "give_horse")),
    Spec("break_oath", "an oath stands in the way: keep it or break it (12 VP)",
         ("keep", "break"), "keep", tags=OATH_KEYS),
    Spec("oath_to_break", "which sworn oath a trick makes you break", OATH_KEYS, OATH_KEYS[0]),
    Spec("prison_appeal", "this turn's appeal from prison, one a turn (default: the jailor "
         "when a direct appeal is allowed, else a passer-by)",
         ("jailor", "passerby", "none"), "jailor", tags=("direct",)),
    Spec("allow_direct_appeal", "as jailor: let your prisoner appeal to you directly",
         ("yes", "no"), "no", tags=("pk",)),
    Spec("passerby_terms", "accept a passer-by's price for appealing to your jailor (default: "
         "accept, except forsaking the Lady you serve)",
         ("accept", "decline"), "accept", tags=PASSERBY_TERMS),
    Spec("jailor_terms", "accept the jailor's terms of release", ("accept", "decline"), "accept",
         tags=JAILOR_TERMS),
    Spec("rescue", "at the castle holding a prisoner: appeal to the jailor (after a friendly "
         "castle reaction), storm the castle, or give up", ("appeal", "storm", "leave"),
         "appeal", tags=("aid", "passerby", "pk_castle", "summons")),
    Spec("outlaw", "which friendly castle outlaws you (the answer names a castle)",
         ("first", "last"), "last"),
    Spec("wedding", "attend a wedding of state (3 VP) or refuse (6 VP)", ("attend", "refuse"),
         "attend"),
    Spec("insult", "challenge the knight who insulted your Lady, or ignore it",
         ("challenge", "ignore"), "challenge", tags=("no_lady", "enchantress")),
    Spec("raiders", "ride at once against raiders on a coast", ("ride", "stay"), "ride"),
    Spec("questing_beast", "pursue the Questing Beast (again)", ("pursue", "give up"), "pursue"),
    Spec("adventure", "accept an adventure you are told of or offered",
         ("accept", "decline"), "accept", tags=ADVENTURE_SOURCES + ("requested",)),
    Spec("trick_task", "undertake the task a trick imposes (refusing costs 12 VP)",
         ("accept", "refuse"), "accept", tags=("escort_pilgrims", "deliver_message")),
    Spec("lift_which", "which enchantment a prayer lifts", LASTING, LASTING[0]),
)


# ============================================================================== helpers
def turn_no(s: Session) -> int:
    return s.game.state["koc"]["turn"]


def name_of(person) -> str:
    if isinstance(person, str):
        return person
    if not person:
        return "someone"
    return person.get("name") or person.get("kind", "someone")


def local_area(s: Session) -> str:
    """The local encounter area: where the PK is, or the countryside around his castle, town
    or shrine."""
    return s.world.local_countryside(s.pk["at"]["area"]).name


def castle_here(s: Session) -> str | None:
    """The castle the PK is at (inside, at its gate or in its prison), if any."""
    at = s.pk["at"]
    if at.get("castle"):
        return at["castle"]
    area = s.world.areas.get(at["area"]) if at["area"] else None
    if area is not None and area.kind == "castle" and at["where"] in ("inside", "gate",
                                                                         "prison", "ship"):
        return area.name
    return None


def castles_in(s: Session, area: str) -> list[str]:
    """Map castles standing in an area's countryside and castle counters placed there."""
    out = [a for a in s.world.areas[area].sites if s.world.areas[a].kind == "castle"]
    out += [n for n, c in sorted(s.game.state.get("castles", {}).items()) if c["area"] == area]
    return out


def pick(s: Session, options: list, purpose: str):
    """One of several options by one die (for the dice to be given in a casebook)."""
    if len(options) == 1:
        return options[0]
    roll = s.d6(purpose)
    return options[(roll - 1) * len(options) // 6]


def at_sea(s: Session) -> bool:
    """The PK is on a sea (always aboard a ship: no castle, town or land there)."""
    area = s.world.areas.get(s.pk["at"]["area"] or "")
    return area is not None and area.kind == "sea"


def port_castles(s: Session, sea: str) -> list[str]:
    """The map castles whose ports open on ``sea``; for a sea without one, those of the seas
    next to it, and so on outwards (the nearest castles a ship can put in at)."""
    world = s.world
    seen, layer = [sea], [sea]
    while layer:
        found = sorted({x for here in layer for x in world.areas[here].ship
                        if world.areas[x].kind == "castle"})
        if found:
            return found
        nxt = []
        for here in layer:
            for x in world.areas[here].ship:
                if world.areas[x].kind == "sea" and x not in seen:
                    seen.append(x)
                    nxt.append(x)
        layer = nxt
    return []


def landfall_castle(s: Session, purpose: str, sea: str | None = None) -> str:
    """At sea, the local castle: one whose port opens on this sea (a die picks among several),
    else on the nearest sea that has one. A result that needs a local castle (a prison, a
    prisoner to free, a lady's castle) happens there: the ship puts in at its port."""
    sea = sea or s.pk["at"]["area"]
    castle = pick(s, port_castles(s, sea), f"which castle's port on {sea} ({purpose})")
    s.note(f"No castle stands on {sea}: the nearest a ship puts in at is {castle} ({purpose}).")
    return castle


def local_land(s: Session, purpose: str) -> str:
    """The local area for something that must stand on land (a castle counter, an adventure
    site): the local area, or at sea the countryside around the castle the ship puts in at
    (``landfall_castle``)."""
    if at_sea(s):
        return s.world.local_countryside(landfall_castle(s, purpose)).name
    return local_area(s)


def _local_royal_castle(s: Session, ident: str, unclaimed: str | None) -> str:
    """The royal castle of the local kingdom (``unclaimed`` for land of no kingdom); a random
    one where that is no kingdom of the map (Faerie, the Otherworld, an unclaimed land)."""

    area = s.world.areas[local_land(s, f"adventure {ident}")]
    kingdom = area.kingdoms[0] if area.kingdoms else unclaimed
    if kingdom not in s.world.kingdoms:
        return tasks.random_royal_castle(s)
    return s.world.royal_castle(kingdom, area.castellanies[0]
                                if area.castellanies else None).name


def local_castle(s: Session, purpose: str, *, name: str | None = None,
                 owner: str = "its lord", kind: str = "castle") -> str:
    """A local castle: the one the PK is at, else one in the local countryside (a die picks
    among several), else a castle counter placed there. At sea (no castle stands on a sea) it
    is a castle whose port opens on that sea (``landfall_castle``); a named castle counter
    stands in the countryside around that castle."""
    here = castle_here(s)
    if here and not name:
        return here
    if at_sea(s):
        port = landfall_castle(s, purpose)
        if not name:
            return port
        area = s.world.local_countryside(port).name
    else:
        area = local_area(s)
    if name:
        return tasks.place_castle(s, name, owner, kind, area=area)
    options = castles_in(s, area)
    if options:
        return pick(s, options, f"which local castle ({purpose})")
    return tasks.place_castle(s, f"the castle in {area}", owner, kind, area=area)


def is_map_castle(s: Session, castle: str) -> bool:
    area = s.world.areas.get(castle)
    return area is not None and area.kind == "castle"


def at_castle(s: Session, castle: str) -> bool:
    return castle_here(s) == castle or (not is_map_castle(s, castle)
                                        and s.pk["at"]["area"] == tasks.castle_area(s, castle))


def castle_kingdom(s: Session, castle: str) -> tuple[str | None, str | None]:
    area = s.world.areas[tasks.castle_area(s, castle)]
    return ((area.kingdoms or (None,))[0], (area.castellanies or (None,))[0])


def castellan(s: Session, castellany: str) -> dict:
    """The knight ruling a Logres castellany: a PK's Lord if one rules it, else a Knight card
    drawn once and remembered in state['castellans']."""
    seat = s.world.castellanies[castellany].castle
    for rec in s.game.state["knights"].values():
        lord = rec.get("lord")
        if lord and lord.get("kind") == "knight" and lord.get("castle") == seat:
            return {"kind": "king", "name": lord["name"], "vl": lord.get("vl", 7),
                    "castellan": castellany, "castle": seat, "cp": lord.get("cp")}
    known = s.game.state.setdefault("castellans", {})
    if castellany not in known:
        card = s.game.draw("knights", f"the castellan of {castellany}")
        known[castellany] = card
    card = dict(known[castellany])
    card.update({"kind": "king", "castellan": castellany, "castle": seat})
    return card


def king_card(s: Session, kingdom: str) -> dict:
    king = next(k for k in s.world.kings if k.kingdom == kingdom)
    record = s.game.card_record("kings", king)
    record["castle"] = s.world.kingdoms[kingdom].royal_castle
    return record


def castle_owner(s: Session, castle: str) -> dict:
    """Who owns a castle, as a person record (kind king, knight, lady or pk)."""
    from companion.koc.engine import villainy

    held = villainy.owner_record(s, castle)     # a castle a Knave took by storm
    if held is not None:
        return held
    placed = s.game.state.get("castles", {}).get(castle)
    if placed:
        owner, kind = placed["owner"], placed.get("kind", "knight")
        for player, rec in s.game.state["knights"].items():
            if rec["name"] == owner or player == owner:
                return {"kind": "pk", "name": rec["name"], "player": player,
                        "vl": kn.vl(rec), "castle": castle}
        if kind == "lady":
            lady = next((l for l in s.world.ladies if l.name == owner), None)
            if lady:
                rec = s.game.card_record("ladies", lady)
                rec["castle"] = castle
                return rec
        knight = next((k for k in s.world.knights if k.name == owner), None)
        if knight:
            rec = s.game.card_record("knights", knight)
            rec["castle"] = castle
            return rec
        return {"kind": "knight", "name": owner, "vl": 7, "cp": 70, "castle": castle}
    for kingdom, k in s.world.kingdoms.items():
        if k.royal_castle == castle:
            return king_card(s, kingdom)
    for name, c in s.world.castellanies.items():
        if c.castle == castle:
            return castellan(s, name)
    return {"kind": "knight", "name": f"the lord of {castle}", "vl": 7, "cp": 70,
            "castle": castle}


def draw_knight(s: Session, purpose: str, *, arthurian: bool | None = None,
                min_vl: int | None = None, not_challenged: bool = False,
                not_lord: bool = True) -> dict:
    pk = s.pk

    def ok(card) -> bool:
        if arthurian is not None and card.arthurian != arthurian:
            return False
        if min_vl is not None and card.virtue_level < min_vl:
            return False
        if not_challenged and card.name in pk["challenged"]:
            return False
        if not_lord and pk["lord"] and pk["lord"]["name"] == card.name:
            return False
        return True

    return s.game.draw("knights", purpose, accept=ok)


def knight_foe(s: Session, card: dict) -> dict:
    from companion.koc.engine.combat import npk

    return npk(card)


def random_province(s: Session, kingdom: str | None, castellany: str | None = None) -> str:
    provinces = sorted(s.world.provinces(kingdom, castellany)) if kingdom else []
    if not provinces:
        return tasks.deploy_castle_area(s, "a random place")
    return pick(s, provinces, f"which province of {castellany or kingdom}")


def give_vp(s: Session, amount: int, why: str) -> None:
    s.gain_vp(amount, why)


def other_session(s: Session, player: str) -> Session:
    """Another player's part in this turn: their questions are answered by their orders and
    standing orders (never a pause), recorded with the turn's answers."""
    return Session(s.game, player, parent=s)


def player_of(s: Session, name: str) -> str | None:
    for player, rec in s.game.state["knights"].items():
        if rec["name"] == name or player == name:
            return player
    return None


# ============================================================================== oaths
def can_break(s: Session, key: str) -> bool:
    """A PK breaks an oath willingly only with VP to pay for it and without the oath never to
    break oaths."""
    pk = s.pk
    return pk["vp"] > 12 and "never_break_oaths" not in pk["oaths"]


def oath_binds(s: Session, key: str, doing: str) -> bool:
    """True if sworn oath ``key`` holds against ``doing`` (the PK keeps it); when he can, he is
    asked whether to break it instead (12 VP)."""
    pk = s.pk
    if key not in pk["oaths"]:
        return False
    if not can_break(s, key):
        s.tell(f"{pk['name']}'s oath ({key.replace('_', ' ')}) holds: {doing} is not possible.")
        return True
    q = Question("break_oath", f"Your oath ({key.replace('_', ' ')}) stands against this: "
                 f"{doing}. Keep the oath, or break it for 12 VP?", ["keep", "break"], "keep",
                 tags=(key,))
    if s.ask(q) == "break":
        break_oath(s, key)
        return False
    return True


def swear_oath(s: Session, why: str, key: str | None = None) -> str | None:
    """Swear an oath (rolled, rerolling oaths already sworn, unless ``key`` is given)."""
    pk = s.pk
    if key is None:
        if all(k in pk["oaths"] for k in OATH_KEYS):
            s.note(f"{pk['name']} has sworn every oath there is; nothing more is asked.")
            return None
        while True:
            result = s.chart("oaths", purpose=f"oath sworn ({why})")
            key = result.entry.key
            if key not in pk["oaths"]:
                break
            s.note("He has already sworn that oath: roll again.")
    elif key in pk["oaths"]:
        return key
    pk["oaths"].append(key)
    s.note(f"{pk['name']} swears an oath ({why}): {key.replace('_', ' ')}.")
    if key == "always_travel_alone":
        dismiss_companions(s, "his oath to travel alone")
    return key


def dismiss_companions(s: Session, why: str) -> None:
    pk = s.pk
    gone = [c["name"] for c in pk["comrades"] + pk["men_at_arms"]]
    for c in pk["comrades"]:
        s.game.discard_card(c)
    for m in pk["men_at_arms"]:
        s.game.discard("knights", m["name"])
    pk["comrades"], pk["men_at_arms"] = [], []
    if pk["dwarf"]:
        gone.append("the Dwarf")
        pk["dwarf"] = None
    if pk["mascot"]:
        gone.append(pk["mascot"]["name"])
        pk["mascot"] = None
    if gone:
        s.note(f"{pk['name']} parts from {', '.join(gone)} ({why}).")


def break_oath(s: Session, key: str) -> None:
    """An oath is broken: 12 VP and it is struck off."""
    pk = s.pk
    if key not in pk["oaths"]:
        return
    pk["oaths"].remove(key)
    s.note(f"{pk['name']} breaks his oath ({key.replace('_', ' ')}).")
    s.gain_vp(-12, "breaking an oath")


def release_oath(s: Session, key: str | None = None) -> str | None:
    """A hermit (or wood nymph) lifts an oath without penalty; the oath never to break oaths
    must go first."""
    pk = s.pk
    if not pk["oaths"]:
        return None
    if "never_break_oaths" in pk["oaths"]:
        key = "never_break_oaths"
    elif key not in pk["oaths"]:
        q = Question("release_oath", "Which oath should be lifted?", list(pk["oaths"]),
                     pk["oaths"][0])
        key = s.ask(q)
    pk["oaths"].remove(key)
    s.note(f"{pk['name']} is released from his oath ({key.replace('_', ' ')}).")
    return key


register(Spec("release_oath", "which oath a hermit lifts (the oath never to break oaths goes "
              "first)", OATH_KEYS, OATH_KEYS[0]))


# ============================================================================== aids
def request_aid(s: Session, person: dict, *, aid: str | None = None) -> bool:
    """A random aid requested by ``person``; returns whether the PK performed (or undertook)
    it. 6 VP for giving aid, 6 lost for refusing, nothing when it cannot be given."""
    pk = s.pk
    who = name_of(person)
    if aid is None:
        result = s.chart("aids", purpose=f"the aid {who} asks for")
        aid = result.entry.key
    s.note(f"{who} asks {pk['name']} for aid: {aid.replace('_', ' ')}.")
    reason = aid_impossible(s, aid, person)
    if reason:
        s.note(f"{pk['name']} cannot give this aid ({reason}); there is no penalty.")
        return False
    if aid == "court_a_lady" and pk["lady"]:
        s.note(f"{pk['name']} already serves a Lady and must refuse.")
        s.gain_vp(-6, "refusing aid")
        return False
    if aid == "give_directions":
        s.note(f"{pk['name']} shows {who} the way.")
        s.gain_vp(6, "giving aid")
        return True
    # the oaths that oblige him to help: every request, or a lady's
    binding = [k for k in ("always_grant_requests", "always_help_ladies") if k in pk["oaths"]
               and (k == "always_grant_requests" or person.get("kind") == "lady")]
    must = bool(binding)
    company = aid == "escort_home" or (aid == "rescue_from_pursuit" and
                                       edition(s.game.state) >= ALONE_NO_RESCUED_COMPANY)
    if company and "always_travel_alone" in pk["oaths"]:
        if must:
            # two oaths pull apart: the one sworn first holds, the other is broken
            if edition(s.game.state) < ONLY_OATHS_AT_ISSUE:
                binding = ["always_grant_requests", "always_help_ladies"]
            first = next(k for k in pk["oaths"] if k in ("always_travel_alone", *binding))
            if first == "always_travel_alone":
                for k in binding:
                    break_oath(s, k)
                s.gain_vp(-6, "refusing aid")
                return False
            break_oath(s, "always_travel_alone")
        elif oath_binds(s, "always_travel_alone", "an escort" if aid == "escort_home"
                        else f"{who} at his side"):
            s.gain_vp(-6, "refusing aid")
            return False
    q = Question("aid", f"{who} asks for aid: {aid.replace('_', ' ')}. Grant it (6 VP) or "
                 "refuse (6 VP lost)?", ["grant", "refuse"], "grant",
                 tags=(aid, person.get("kind", "knight")))
    answer = s.ask(q)
    if answer == "refuse" and must:
        key = "always_grant_requests" if "always_grant_requests" in pk["oaths"] \
            else "always_help_ladies"
        if not can_break(s, key):
            s.note(f"{pk['name']}'s oath obliges him to help.")
            answer = "grant"
        else:
            break_oath(s, key)
    if answer == "refuse":
        s.note(f"{pk['name']} refuses.")
        s.gain_vp(-6, "refusing aid")
        return False
    return perform_aid(s, aid, person)


def aid_impossible(s: Session, aid: str, person: dict | None = None) -> str | None:
    pk = s.pk
    spares = pk["dwarf"]["spares"] if pk["dwarf"] else []
    item = {"give_shield": "shield", "give_sword": "sword", "give_horse": "horse"}.get(aid)
    if item and not pk["gear"][item] and item not in spares:
        return f"he has no {item}"
    if aid == "give_dwarf" and not pk["dwarf"]:
        return "he has no Dwarf"
    if aid == "escort_home" and (person or {}).get("kind") in ("king", "lady") and \
            (not pk["gear"]["horse"] or pk["animal"]) and \
            edition(s.game.state) >= ESCORT_NEEDS_HORSE:
        return f"a {person['kind']} is escorted only on horseback, and he has no horse"
    if pk["prison"]:
        return "he is in prison"
    return None


def perform_aid(s: Session, aid: str, person: dict) -> bool:
    pk = s.pk
    who = name_of(person)
    item = {"give_shield": "shield", "give_sword": "sword", "give_horse": "horse"}.get(aid)
    if item:
        spares = pk["dwarf"]["spares"] if pk["dwarf"] else []
        use_spare = item in spares
        if use_spare and pk["gear"][item]:
            q = Question("aid_spare", f"Give {who} the Dwarf's spare {item} or your own?",
                         ["spare", "own"], "spare", tags=(aid,))
            use_spare = s.ask(q) == "spare"
        if use_spare:
            spares.remove(item)
        else:
            pk["gear"][item] = False
            if item == "horse":
                pk["on_foot"] = True
        s.note(f"{pk['name']} gives {who} {'a spare' if use_spare else 'his'} {item}.")
        s.gain_vp(6, "giving aid")
        return True
    if aid == "give_dwarf":
        s.note(f"{pk['name']} gives his Dwarf (and what he carries) to {who}.")
        pk["dwarf"] = None
        s.gain_vp(6, "giving aid")
        return True
    if aid == "rescue_from_pursuit":
        monster = s.game.draw_chit("monster", f"the monster pursuing {who}")
        s.note(f"{who} flees from a {monster['name']} (WL {monster['wl']}); {pk['name']} "
               "will face it next turn.")
        join_party(s, person, why="fleeing a monster")
        pk["immobile"].append({"why": f"the {monster['name']} hunting {who} catches up",
                               "turns": 1, "then": "pursuit", "monster": monster,
                               "person": person})
        s.gain_vp(6, "giving aid")
        return True
    if aid == "rescue_from_captors":
        from companion.koc.engine.combat import fight

        captors = [knight_foe(s, draw_knight(s, f"a captor of {who}")) for _ in range(3)]
        s.gain_vp(6, "giving aid")
        result = fight(s, captors, attacker="pk", tags=("knights",))
        if result.won:
            befriend(s, person)
        return True
    if aid == "rescue_from_prison":
        prisoner = draw_knight(s, f"the prisoner {who} wants freed")
        castle = local_castle(s, "a prisoner is held there")
        s.note(f"{prisoner['name']} lies in the prison of {castle}.")
        tasks.add(s, "rescue", tasks.castle_area(s, castle), awards={}, penalty_vp=6,
                  why=f"freeing {prisoner['name']} for {who}", on_done="rescue",
                  castle=castle, prisoner=prisoner, aided=person, attempts=0, aid=True,
                  route=None)
        return True
    if aid == "court_a_lady":
        lady = s.game.draw("ladies", "the lady to be courted",
                           accept=lambda c: c.home_castle not in s.game.state.get("castles", {}))
        castle = tasks.place_castle(s, lady["castle"], lady["name"], "lady",
                                    area=local_land(s, "the lady to be courted"))
        if castle not in pk["friendly"]:
            pk["friendly"].append(castle)
        tasks.add(s, "court", tasks.castle_area(s, castle), awards={}, route=None,
                  why=f"seeking the service of {lady['name']} for {who}", on_done="court",
                  castle=castle, lady=lady)
        s.gain_vp(6, "giving aid")
        return True
    if aid == "escort_home":
        dest, castle = home_of(s, person)
        extra = {"kind": "escorted", "name": who, "horse": True, "person": person}
        pk["party_extra"].append(extra)
        tasks.add(s, "escort", dest, awards={"vp": 6, "per_turn": True}, penalty_vp=6,
                  why=f"escorting {who} home", person=person, castle=castle, grace=1,
                  on_done="escort_home")
        return True
    if aid == "deliver_message":
        castle = tasks.random_royal_castle(s)
        tasks.add(s, "message", castle, awards={"vp": 6}, penalty_vp=6, needs="friendly_castle",
                  why=f"carrying a message for {who}")
        return True
    return False


def home_of(s: Session, person: dict) -> tuple[str, str]:
    """(area, castle) of a person's home for 'escort home'."""
    kind = person.get("kind")
    if kind == "king" and person.get("kingdom"):
        castle = s.world.kingdoms[person["kingdom"]].royal_castle
    elif kind == "lady" and person.get("castle"):
        castle = tasks.place_castle(s, person["castle"], person["name"], "lady")
    elif kind == "dwarf":
        area = s.world.areas[local_area(s)]
        kingdom = area.kingdoms[0] if area.kingdoms and area.kingdoms[0] in \
            s.world.kingdoms else None
        castellany = area.castellanies[0] if area.castellanies else None
        castle = tasks.random_royal_castle(s) if kingdom is None else \
            s.world.royal_castle(kingdom, castellany).name
    else:
        castle = tasks.random_royal_castle(s)
    return tasks.castle_area(s, castle), castle


def join_party(s: Session, person: dict, why: str) -> None:
    pk = s.pk
    if person.get("kind") in ("knight", "king"):
        card = dict(person)
        card["joined"] = turn_no(s)
        card["wounds"] = 0
        pk["comrades"].append(card)
    else:
        pk["party_extra"].append({"kind": person.get("kind", "companion"),
                                  "name": name_of(person), "horse": True, "person": person})
    s.note(f"{name_of(person)} rides with {pk['name']} ({why}).")


def befriend(s: Session, person: dict) -> None:
    """A person becomes friendly to the PK (remembered by name for later meetings)."""
    pk = s.pk
    names = pk.setdefault("friendly_persons", [])
    if name_of(person) not in names:
        names.append(name_of(person))
    s.note(f"{name_of(person)} is now friendly to {pk['name']}.")


# ============================================================================== enchantments
def enchant(s: Session, by: dict, adjustment: int, *, resistible: bool = True,
            druid: bool = False) -> bool:
    """An enchantment attempt by ``by`` (a lady card, a druid, Morgan): the PK resists on a VL
    check of his VL plus the adjustment (+2 to the dice with a Magic Talisman). Returns True if
    resisted; the caller decides what a frustrated enchantress does."""
    pk = s.pk
    who = name_of(by)
    if pk.get("grail"):
        s.note(f"The Grail shields {pk['name']} from {who}'s spell.")
        return True
    if resistible:
        bonus = 2 if kn.has_item(pk, "magic_talisman") else 0
        if s.vl_check(kn.vl(pk) + adjustment, f"resist {who}'s enchantment", bonus=bonus):
            s.note(f"{pk['name']} resists {who}'s enchantment.")
            return True
    result = s.chart("enchantments", purpose=f"{who}'s enchantment")
    apply_enchantment(s, result.entry.key, by, druid=druid, turns_entry=result.entry)
    return False


def apply_enchantment(s: Session, key: str, by: dict, *, druid: bool = False,
                      turns_entry=None) -> None:
    from companion.koc.engine import service

    pk = s.pk
    who = name_of(by)
    if key == "abandon_lady":
        if not pk["lady"]:
            s.note(f"{pk['name']} serves no Lady: the spell seduces him instead.")
            return apply_enchantment(s, "seduce", by, druid=druid)
        service.lose_lady(s, f"{who}'s spell makes him forsake her", vp=6, summons_vp=6)
    elif key == "abandon_lord":
        if not pk["lord"]:
            s.note(f"{pk['name']} serves no Lord: the spell seduces him instead.")
            return apply_enchantment(s, "seduce", by, druid=druid)
        service.abandon_lord(s, f"{who}'s spell makes him forsake his Lord", vp=6,
                             summons_vp=6)
    elif key == "change_into_animal":
        change_into_animal(s, by)
    elif key == "imprison":
        imprison(s, by="enchantment", jailor=who)
    elif key == "seduce":
        if druid:
            lady = s.game.draw("ladies", "the lady resting in the druid's cottage")
            s.note(f"The druid leads {pk['name']} to a cottage where {lady['name']} rests.")
            if pk["lady"] and pk["lady"]["name"] == lady["name"]:
                s.note("He already serves her: nothing happens.")
                s.game.discard("ladies", lady["name"])
                return
            service.enter_lady_service(s, lady, seduced=True, abandon_vp=6)
            return
        if by.get("kind") != "lady":
            s.note(f"{who} has no service to bind him to: nothing happens.")
            return
        if pk["lady"] and pk["lady"]["name"] == who:
            s.note(f"{pk['name']} already serves {who}: she ignores him.")
            return
        service.enter_lady_service(s, by, seduced=True, abandon_vp=6)
    elif key == "poisoned_wound":
        kn.poison(pk, 1)
        s.note(f"{who}'s spell leaves {pk['name']} a poisoned wound; WL {kn.wl(pk)}.")
    elif key == "rob":
        saved = dict(pk["gear"])
        dwarf = pk["dwarf"]
        pk["gear"] = {g: False for g in kn.GEAR}
        pk["dwarf"] = None
        pk["on_foot"] = True
        pk["enchantments"].append({"key": "rob", "by": who, "gear": saved, "dwarf": dwarf})
        s.note(f"{pk['name']}'s equipment" + (" and Dwarf" if dwarf else "")
               + (" vanishes" if not dwarf and edition(s.game.state) >= 3 else " vanish")
               + " by magic.")
    elif key == "madness":
        service.go_mad(s, f"{who}'s spell")
    elif key == "sleep":
        turns = s.d6("turns of enchanted sleep")
        from companion.koc.engine.combat import lose_followers

        if edition(s.game.state) >= SLEEPER_LEFT_ALONE:
            from companion.koc.engine.encounters import drop_companions

            drop_companions(s, why="his enchanted sleep", keep_arthurian_dwarf=True,
                            keep=("item", "captive"))
        else:
            lose_followers(s, why="his enchanted sleep")
        if pk["mascot"]:
            s.note(f"{pk['mascot']['name']} wanders off.")
            pk["mascot"] = None
        pk["asleep"] = True
        pk["immobile"].insert(0, {"why": "an enchanted sleep", "turns": turns, "then": "wake"})
        pk["enchantments"].append({"key": "sleep", "by": who, "turns": turns})
        s.note(f"{pk['name']} falls into an enchanted sleep for {turns} "
               f"{plural(s, turns, 'turn')}.")


def change_into_animal(s: Session, by) -> None:
    """The PK becomes a randomly drawn animal, losing equipment, companions and comrades; a
    bound Mad Knight breaks loose. Already an animal: a different one."""
    from companion.koc.engine.combat import lose_followers

    pk = s.pk
    old = pk["animal"]
    animal = s.game.draw_chit("animal", "the animal form")
    for _ in range(20):
        if animal["name"] != old:
            break
        animal = s.game.draw_chit("animal", "the animal form (a different one)")
    keep = {}
    if pk["mascot"]:
        keep["mascot"] = pk["mascot"]
        pk["mascot"] = None
    if pk["dwarf"] and pk["dwarf"].get("arthurian"):
        keep["dwarf"] = {"arthurian": True, "spares": []}
    lose_followers(s, why="his change into an animal", keep_arthurian_dwarf=False)
    pk["dwarf"] = None
    if edition(s.game.state) >= ANIMAL_SHEDS_COMPANY:
        from companion.koc.engine.encounters import drop_companions

        for e in pk["party_extra"]:
            if e.get("kind") == "bound_mad_knight":
                s.note(f"{e['name']}, the bound Mad Knight, breaks loose.")
        drop_companions(s, why="none will travel with a beast")
    else:
        for e in pk["party_extra"]:
            if e.get("kind") == "bound_mad_knight":
                s.note(f"{e['name']}, the bound Mad Knight, breaks loose.")
            else:
                s.note(f"{e['name']} will not travel with a beast.")
        for task in tasks.active(s):
            if task["kind"] in ("escort", "carry_mad_knight"):
                tasks.fail(s, task, "his companions are gone")
    pk["party_extra"] = []
    pk["gear"] = {g: False for g in kn.GEAR}
    pk["animal"] = animal["name"]
    record = next((e for e in pk["enchantments"] if e["key"] == "change_into_animal"), None)
    if record:
        record["animal"] = animal["name"]
        record.setdefault("keep", {}).update(keep)
    else:
        pk["enchantments"].append({"key": "change_into_animal", "by": name_of(by),
                                   "animal": animal["name"], "keep": keep})
    s.note(f"{pk['name']} is changed into a {animal['name']}: he moves 2 areas a turn, fights "
           "with 2 dice and may avoid encounters at will.")


def lift_enchantment(s: Session, enchantment: dict) -> None:
    """One enchantment ends: animal form (lost Mascot and Arthurian Dwarf come back at the next
    animal and dwarf encounters), vanished equipment reappears, the sleeper wakes."""
    pk = s.pk
    if enchantment in pk["enchantments"]:
        pk["enchantments"].remove(enchantment)
    key = enchantment["key"]
    if key == "change_into_animal":
        pk["animal"] = None
        keep = enchantment.get("keep", {})
        if keep:
            pk.setdefault("reunite", {}).update(keep)
        s.note(f"{pk['name']} takes his own shape again.")
    elif key == "rob":
        for g, had in enchantment.get("gear", {}).items():
            if had:
                pk["gear"][g] = True
        if pk["gear"]["horse"]:
            pk["on_foot"] = False
        if enchantment.get("dwarf") and not pk["dwarf"]:
            pk["dwarf"] = enchantment["dwarf"]
        s.note(f"{pk['name']}'s vanished equipment reappears around him.")
    elif key == "sleep":
        pk.pop("asleep", None)
        pk["immobile"] = [h for h in pk["immobile"] if h.get("then") != "wake"]
        s.note(f"{pk['name']} wakes from his enchanted sleep.")
    else:
        s.note(f"The enchantment on {pk['name']} ({key.replace('_', ' ')}) is lifted.")


def lift_all_enchantments(s: Session) -> None:
    for e in list(s.pk["enchantments"]):
        lift_enchantment(s, e)


def choose_enchantment(s: Session) -> dict | None:
    pk = s.pk
    if not pk["enchantments"]:
        return None
    if len(pk["enchantments"]) == 1:
        return pk["enchantments"][0]
    keys = [e["key"] for e in pk["enchantments"]]
    q = Question("lift_which", "Which enchantment should be lifted?", keys, keys[0])
    choice = s.ask(q)
    return next(e for e in pk["enchantments"] if e["key"] == choice)


# ============================================================================== imprisonment
def imprison(s: Session, *, by: str, jailor: str, castle: str | None = None) -> None:
    """The PK is thrown into a cell: equipment (kept by the jailor), companions and comrades
    are lost. A king's prisoner may appeal to the jailor; a PK jailor decides; others only
    appeal to passers-by."""
    from companion.koc.engine.combat import lose_followers

    pk = s.pk
    jailor_player = player_of(s, jailor)
    if jailor_player == s.player:
        jailor_player = None
    if castle is None:
        here = s.world.areas[pk["at"]["area"]]
        if by == "watchmen" and here.is_town:
            castle = here.name
        elif jailor_player and s.game.state["knights"][jailor_player].get("own_castle"):
            castle = s.game.state["knights"][jailor_player]["own_castle"]
        elif castle_here(s):
            castle = castle_here(s)
        elif here.kind == "castle":
            # riding up to a map castle (its reaction): he is at that castle already
            castle = here.name
        elif here.is_town:
            castle = here.name
        elif by == "trick" and not at_sea(s):
            castle = tasks.place_castle(s, f"{jailor}'s castle", jailor, "knight",
                                        area=pk["at"]["area"])
        else:
            castle = local_castle(s, "a prison")
    if jailor_player:
        by = "pk"
    direct = by == "king"
    if by == "pk" and jailor_player:
        q = Question("allow_direct_appeal", f"{pk['name']} is your prisoner. Let him appeal to "
                     "you directly (you must abide by the outcome)?", ["yes", "no"], "no",
                     tags=("pk",))
        direct = s.ask_other(jailor_player, q) == "yes"
        jrec = s.game.state["knights"][jailor_player]
        jrec.setdefault("prisoners", []).append({"kind": "pk", "name": pk["name"],
                                                 "player": s.player})
    saved = dict(pk["gear"])
    lose_followers(s, why="his imprisonment", keep_arthurian_dwarf=False)
    if pk["mascot"]:
        s.note(f"{pk['mascot']['name']} is driven off.")
        pk["mascot"] = None
    for task in tasks.active(s):
        if task["kind"] == "escort":
            tasks.fail(s, task, "he was thrown into prison")
    pk["party_extra"] = []
    pk["gear"] = {g: False for g in kn.GEAR}
    if pk.get("ship"):
        pk.pop("ship")
    pk["prison"] = {"by": by, "jailor": jailor, "castle": castle, "direct": direct,
                    "since": turn_no(s), "gear": saved, "last": None,
                    "jailor_player": jailor_player}
    area = tasks.castle_area(s, castle)
    pk["at"] = {"area": area, "where": "prison"}
    if area != castle:
        pk["at"]["castle"] = castle
    s.note(f"{pk['name']} is thrown into the prison of {castle} by {jailor}"
           + (" (he may appeal to his jailor)." if direct else
              " (he may only appeal to passers-by)."))


def prison_phase(s: Session) -> None:
    """The movement phase in prison: one appeal, to the jailor (if allowed) or a passer-by; the
    same appeal as last turn is persisting (an ignored appeal is rolled again once)."""
    pk = s.pk
    prison = pk["prison"]
    if prison.get("jailor_player"):
        jp = prison["jailor_player"]
        if not s.game.state["knights"][jp]["slain"]:
            other_session(s, jp).gain_vp(-3, f"keeping {pk['name']} in prison")
    if prison.get("since") == turn_no(s) and prison.get("by") == "trick":
        s.note("No appeal is possible on the turn of the trick.")
        return
    options = (["jailor"] if prison["direct"] else []) + ["passerby", "none"]
    q = Question("prison_appeal", f"{pk['name']} is imprisoned at {prison['castle']}. Appeal "
                 "to " + ("the jailor or " if prison["direct"] else "") + "a passer-by?",
                 options, options[0], tags=(("direct",) if prison["direct"] else ()))
    choice = s.ask(q)
    if choice == "none":
        prison["last"] = None
        s.note(f"{pk['name']} makes no appeal this turn.")
        return
    persisting = prison.get("last") == choice
    prison["last"] = choice
    if choice == "jailor":
        appeal_to_jailor(s, castle=prison["castle"], persisting=persisting)
    else:
        appeal_to_passerby(s, persisting=persisting)


def appeal_to_passerby(s: Session, *, persisting: bool = False) -> bool:
    pk = s.pk
    result = s.chart("passerby", purpose="appeal to a passer-by")
    key = result.entry.key
    if key == "ignored" and persisting:
        s.note("He persists: the passer-by is asked once more.")
        key = s.chart("passerby", purpose="appeal to a passer-by (persisting)").entry.key
    if key == "ignored":
        s.note("The passer-by walks on.")
        return False
    if key == "free_appeal":
        s.note("The passer-by pleads with the jailor for nothing in return.")
        return appeal_to_jailor(s, castle=pk["prison"]["castle"], appealer="passerby")
    terms = {
        "abandon_lady": "forsake your Lady (your Lord if you serve none) first",
        "swear_oath": "swear an oath when freed",
        "fight_enemy": "fight a knight as soon as you are freed",
        "prison_rescue": "try to free a prisoner from another castle",
        "deliver_message": "carry a message to a royal castle",
        "escort_pilgrims": "escort pilgrims to a shrine, without reward",
        "adventure": "undertake an adventure, without reward",
    }[key]
    default = "decline" if key == "abandon_lady" and pk["lady"] else "accept"
    q = Question("passerby_terms", f"A passer-by will plead for you if you {terms}.",
                 ["accept", "decline"], default, tags=(key,))
    if s.ask(q) == "decline":
        s.note(f"{pk['name']} declines the passer-by's price.")
        return False
    from companion.koc.engine import service

    if key == "abandon_lady":
        if pk["lady"]:
            service.lose_lady(s, "the price of a passer-by's help", vp=6, summons_vp=6)
        else:
            service.abandon_lord(s, "the price of a passer-by's help", vp=6, summons_vp=6)
    released = appeal_to_jailor(s, castle=pk["prison"]["castle"], appealer="passerby")
    if not released:
        return False
    if key == "swear_oath":
        swear_oath(s, "the passer-by's price")
    elif key == "fight_enemy":
        from companion.koc.engine.combat import fight

        for g, had in pk.get("released_gear", {}).items():
            if had:
                pk["gear"][g] = True
        foe = knight_foe(s, draw_knight(s, "the knight he must fight on release"))
        fight(s, [foe], attacker="foe", tags=("knight",))
    elif key == "prison_rescue":
        prisoner = draw_knight(s, "a prisoner to rescue")
        area = tasks.deploy_castle_area(s, "the castle holding the prisoner")
        castle = tasks.place_castle(s, f"the castle in {area}", "its lord", "knight", area=area)
        tasks.add(s, "rescue", area, awards={}, penalty_vp=12, route=None,
                  why=f"freeing {prisoner['name']}, the passer-by's price", on_done="rescue",
                  castle=castle, prisoner=prisoner, attempts=0)
    elif key == "deliver_message":
        castle = tasks.random_royal_castle(s)
        tasks.add(s, "message", castle, awards={}, penalty_vp=12, needs="friendly_castle",
                  why="the passer-by's message")
    elif key == "escort_pilgrims":
        pilgrims(s, "the passer-by's price", awards={})
    elif key == "adventure":
        adventure_news(s, {"kind": "passerby", "name": "the passer-by"}, prophecy=True,
                       awards=False, reroll=("tournament_at_camelot",), no_local=True)
    return True


def pilgrims(s: Session, why: str, *, awards: dict, penalty_vp: int = 12) -> dict:
    shrine = tasks.random_shrine(s)
    s.pk["party_extra"].append({"kind": "pilgrims", "name": "the pilgrims", "walks": True,
                                "rides": False})
    return tasks.add(s, "escort", shrine, awards=awards, penalty_vp=penalty_vp, walk=True,
                     why=why, person={"kind": "pilgrims", "name": "the pilgrims"})


def appeal_to_jailor(s: Session, *, castle: str | None = None, prisoner: dict | None = None,
                     appealer: str = "pk", persisting: bool = False) -> bool:
    """One Appeal to Jailor for the PK in prison (``prisoner`` None) or, made by the PK, for
    another prisoner. The terms bind the PK whether he is prisoner or appealer. Returns
    whether the prisoner goes free."""
    from companion.koc.engine.combat import challenge, fight

    pk = s.pk
    for_pk = prisoner is None
    whom = pk["name"] if for_pk else name_of(prisoner)
    result = s.chart("jailor", purpose=f"appeal to the jailor for {whom}")
    key = result.entry.key
    if key == "ignored" and persisting and appealer == "pk":
        s.note("Persisting, the appeal is made once more.")
        key = s.chart("jailor", purpose=f"appeal to the jailor for {whom} (persisting)").entry.key
    if for_pk and pk["prison"]:
        pk["prison"]["last_result"] = key
    if key == "ignored":
        s.note("The jailor ignores the appeal.")
        return False
    if key == "tortured":
        s.note(f"The jailor keeps {whom}" + (" and has him tortured." if for_pk else "."))
        if for_pk:
            kn.poison(pk, 1)
            s.note(f"{pk['name']} takes a poisoned wound; WL {kn.wl(pk)}.")
        return False
    gear = "own"
    if key in JAILOR_TERMS:
        what = {"released_exile": "accept exile from the land of the castle",
                "released_oath": "swear an oath",
                "released_fight": "fight and defeat three knights",
                "released_challenge": "win a challenge against the jailor's champion"}[key]
        q = Question("jailor_terms", f"{whom} goes free if {pk['name']} will {what}.",
                     ["accept", "decline"], "accept", tags=(key,))
        if s.ask(q) == "decline":
            s.note(f"{pk['name']} declines the jailor's terms.")
            return False
        if key == "released_exile":
            kingdom, castellany = castle_kingdom(s, castle) if castle else (None, None)
            land = castellany or kingdom
            if land:
                exile(s, [land], f"the terms of {whom}'s release")
        elif key == "released_oath":
            swear_oath(s, f"the terms of {whom}'s release")
        else:
            if for_pk:
                pk["gear"] = {g: True for g in kn.GEAR}
                pk["on_foot"] = False
                s.note(f"The jailor arms {pk['name']} with a full set of equipment.")
            if key == "released_fight":
                foes = [knight_foe(s, draw_knight(s, "a knight of the jailor")) for _ in range(3)]
                res = fight(s, foes, attacker="pk", on_defeat="none", tags=("knights",))
                won = res.won
            else:
                champion = knight_foe(s, draw_knight(s, "the jailor's champion",
                                                     not_challenged=True))
                res = challenge(s, champion, challenger="pk")
                won = res.challenge_winner == "pk"
            if not won:
                if edition(s.game.state) >= LOST_FOR_FREEDOM:
                    s.note(f"{pk['name']} has lost: "
                           + ("he stays" if for_pk else f"{whom} stays") + " in prison.")
                else:
                    s.note(f"{pk['name']} fails: {whom} stays in prison.")
                if for_pk:
                    pk["gear"] = {g: False for g in kn.GEAR}
                return False
            gear = "kept" if for_pk else "own"
    elif key == "released_no_equipment":
        gear = "none"
    elif key == "released_no_horse_lance":
        gear = "no_horse_lance"
    elif key == "released_equipped":
        gear = "full"
    if for_pk:
        release_pk(s, gear)
    else:
        prisoner["release_gear"] = gear
        s.note(f"{whom} is set free.")
    return True


def release_pk(s: Session, gear: str = "own") -> None:
    """The PK walks out of prison; his equipment as the appeal says ('own': what he had,
    'kept': what he fought with, 'none', 'no_horse_lance', 'full')."""
    pk = s.pk
    prison = pk["prison"]
    if prison is None:
        if gear == "none":
            pk["gear"] = {g: False for g in kn.GEAR}
        elif gear == "full":
            pk["gear"] = {g: True for g in kn.GEAR}
        elif gear == "no_horse_lance":
            pk["gear"]["horse"] = pk["gear"]["lance"] = False
        return
    saved = prison.get("gear", {})
    if gear == "own":
        pk["gear"] = {g: bool(saved.get(g)) for g in kn.GEAR}
    elif gear == "none":
        pk["gear"] = {g: False for g in kn.GEAR}
    elif gear == "no_horse_lance":
        pk["gear"] = {g: bool(saved.get(g)) and g not in ("horse", "lance") for g in kn.GEAR}
    elif gear == "full":
        pk["gear"] = {g: True for g in kn.GEAR}
    pk["released_gear"] = saved
    pk["on_foot"] = not pk["gear"]["horse"]
    castle = prison["castle"]
    pk["prison"] = None
    jp = prison.get("jailor_player")
    if jp:
        jrec = s.game.state["knights"][jp]
        jrec["prisoners"] = [p for p in jrec.get("prisoners", []) if p.get("player") != s.player]
    area = tasks.castle_area(s, castle)
    if is_map_castle(s, castle):
        pk["at"] = {"area": castle, "where": "gate"}
    elif s.world.areas[area].kind == "sea":
        # a castle counter an older version placed on a sea: he is set down at the gate of
        # the castle a ship would have put in at, never at sea without a ship
        pk["at"] = {"area": landfall_castle(s, "where he is set free", sea=area),
                    "where": "gate"}
    else:
        pk["at"] = {"area": area, "where": "area"}
    s.note(f"{pk['name']} is released from the prison of {castle} ("
           + {"own": "his equipment returned", "kept": "with the arms he fought in",
              "none": "stripped of all equipment", "no_horse_lance": "without horse or lance",
              "full": "with a full set of equipment"}[gear] + ").")


def exile(s: Session, lands: list[str], why: str) -> None:
    pk = s.pk
    for land in lands:
        if land not in pk["exiles"]:
            pk["exiles"].append(land)
    s.note(f"{pk['name']} is exiled from {', '.join(lands)} ({why}).")
    here = s.world.areas[pk["at"]["area"]]
    if {*here.kingdoms, *here.castellanies} & set(lands):
        tasks.add(s, "leave", None, awards={}, penalty_vp=12, leave=list(lands),
                  why="leaving the land of his exile")


def storm_castle(s: Session, castle: str, *, defenders: list[dict] | None = None,
                 why: str = "to free its prisoners") -> bool:
    """Storm a castle: the PK's party must defeat its defenders (a castle a Knave took: his
    guards; a PK's castle: its knight guards, a player knight standing guard there staying out
    of the fight; else, or with none, 1-6 drawn knights). Defeat means prison in that castle.
    Returns whether he won."""
    from companion.koc.engine.combat import fight

    pk = s.pk
    from companion.koc.engine import villainy

    if defenders is None:
        defenders = villainy.defenders_of(s, castle)     # a Knave's castle: its guards
    if defenders is None:
        owner = castle_owner(s, castle)
        if owner.get("kind") == "pk":
            orec = s.game.state["knights"][owner["player"]]
            guards = s.game.state.get("castles", {}).get(orec.get("own_castle") or "",
                                                          {}).get("guards", [])
            # a player knight standing guard is no card to fight as a non-player knight
            defenders = [dict(g) for g in guards if g.get("kind") != "pk"]
    if not defenders:
        n = s.d6(f"knights holding {castle}")
        defenders = [draw_knight(s, f"a defender of {castle}") for _ in range(n)]
    n = len(defenders)
    s.note(f"{pk['name']} storms {castle} {why}: {n} {plural(s, n, 'knight')} "
           f"{plural(s, n, 'defends', 'defend', old='defend')} it.")
    foes = [knight_foe(s, d) for d in defenders]
    result = fight(s, foes, attacker="pk", on_defeat="none", tags=("knights", "castle"))
    if result.won:
        s.note(f"{castle} falls to {pk['name']}'s assault.")
        free_pk_prisoners(s, castle)
        villainy.castle_stormed(s, castle)      # a Knave holding it loses it
        return True
    if result.pk_defeated and not pk["slain"]:
        imprison(s, by="castle", jailor=f"the lord of {castle}", castle=castle)
    return False


def free_pk_prisoners(s: Session, castle: str) -> None:
    for player, rec in s.game.state["knights"].items():
        if player != s.player and rec.get("prison") and rec["prison"]["castle"] == castle:
            other = other_session(s, player)
            release_pk(other, "own")
            s.gain_vp(6, f"freeing {rec['name']} (aid)")


# ============================================================================== messages
def message(s: Session, source=None) -> str:
    """A random Message and its consequences; returns its key."""
    pk = s.pk
    who = name_of(source) if source else "a messenger"
    for _ in range(12):
        result = s.chart("messages", purpose=f"the message from {who}")
        key = result.entry.key
        if key == "outlawed" and not outlaw_candidates(s):
            s.note("No friendly castle could outlaw him: another message.")
            continue
        if key == "special_tournament" and s.options_rule("special_tournament_once") and \
                "announced" in s.game.state.get("special_tournament", {}):
            s.note("The great tournament has already been proclaimed once: another message.")
            continue
        break
    handle_message(s, key, source)
    return key


def handle_message(s: Session, key: str, source=None) -> None:
    from companion.koc.engine import service

    pk = s.pk
    if key == "lady_imprisoned":
        who = "lady" if pk["lady"] and not pk["lady"].get("morgan") else "lord"
        if who == "lady" and pk.get("own_castle") and \
                pk["lady"].get("castle") == pk["own_castle"]:
            s.note(f"{pk['name']}'s Lady is safe in his own castle: the message is a summons.")
            service.summons(s, "lady")
            return
        s.note(f"Word comes that {pk['name']}'s {'Lady' if who == 'lady' else 'Lord'} is held "
               "captive in her castle." if who == "lady" else
               f"Word comes that {pk['name']}'s Lord is held captive in his castle.")
        service.summons(s, who, captive=True)
    elif key == "relative_near_death":
        home = (pk["original_home"] or pk["home"] or {}).get("castle") or pk["at"]["area"]
        temp_friendly(s, home)
        tasks.add(s, "vigil", tasks.castle_area(s, home), awards={}, why="a kinsman lies dying",
                  on_done="vigil", castle=home, first=True)
        s.note(f"{pk['name']} must ride at once to {home}, where a kinsman lies dying.")
    elif key == "outlawed":
        options = outlaw_candidates(s)
        q = Question("outlaw", "Which friendly castle outlaws you? "
                     + ", ".join(options) + f" (answer first or last: {options[0]} / "
                     f"{options[-1]}).", ["first", "last"], "last")
        castle = options[0] if s.ask(q) == "first" else options[-1]
        pk["friendly"].remove(castle)
        if castle not in pk["outlawed"]:
            pk["outlawed"].append(castle)
        s.note(f"{pk['name']} is outlawed from {castle}: it is no longer friendly.")
    elif key == "wedding_of_state":
        wedding(s)
    elif key == "lady_insulted":
        insult(s, source)
    elif key == "lord_summons":
        service.summons(s, "lord")
    elif key == "lady_summons":
        service.summons(s, "lady")
    elif key == "informs_adventure":
        adventure_news(s, source or {"kind": "message", "name": "a messenger"})
    elif key == "raiders":
        raiders(s)
    elif key == "special_tournament":
        special_tournament(s)
    elif key == "questing_beast":
        questing_beast(s, first=True)


def outlaw_candidates(s: Session) -> list[str]:
    pk = s.pk
    keep = set()
    if pk["lord"] and pk["lord"].get("castle"):
        keep.add(pk["lord"]["castle"])
    if pk.get("own_castle"):
        keep.add(pk["own_castle"])
    return [c for c in pk["friendly"] if c not in keep]


def temp_friendly(s: Session, castle: str) -> None:
    """A castle friendly for the coming visit only (castle_encounter admits the PK; the entry
    is removed when he leaves or when the task is over)."""
    lst = s.pk.setdefault("temp_friendly", [])
    if castle not in lst and castle not in s.pk["friendly"]:
        lst.append(castle)


def end_temp_friendly(s: Session, castle: str) -> None:
    lst = s.pk.get("temp_friendly", [])
    if castle in lst:
        lst.remove(castle)


def wedding(s: Session) -> None:
    pk = s.pk
    q = Question("wedding", "Duty calls you to a wedding of state in a castle far away: attend "
                 "(3 VP) or refuse (6 VP lost)?", ["attend", "refuse"], "attend")
    if s.ask(q) == "refuse":
        s.note(f"{pk['name']} will not attend the wedding.")
        s.gain_vp(-6, "refusing to attend a wedding of state")
        return
    host = draw_knight(s, "the lord of the wedding castle", not_lord=False)
    s.game.discard("knights", host["name"])
    area = tasks.deploy_castle_area(s, "where the wedding is held")
    castle = tasks.place_castle(s, f"{host['name']}'s castle", host["name"], "knight", area=area)
    temp_friendly(s, castle)
    tasks.add(s, "wedding", area, awards={}, penalty_vp=6, grace=0,
              why=f"attending a wedding of state at {castle}", on_done="wedding", castle=castle,
              host=host)


def insulted_host(s: Session, source) -> dict | None:
    """Adventure 2:1: when the castle he calls on sends Message 6 and he serves no Lady, the
    lady insulted is that castle's owner (the lady of the visit)."""
    from companion.koc.engine import adventures

    if s.pk["lady"] or not isinstance(source, dict):
        return None
    for task in s.pk["tasks"]:
        if adventures.running(task) and task["adventure"]["key"] == "visit_lady":
            lady = task["adventure"].get("lady")
            if lady and lady["name"] == source.get("name"):
                return lady
    return None


def insult(s: Session, source=None) -> None:
    from companion.koc.engine import service
    from companion.koc.engine.combat import challenge

    pk = s.pk
    lady = pk["lady"]
    enchantress = bool(lady and lady.get("enchantress"))
    knight = draw_knight(s, "the knight who spoke the insult",
                         min_vl=None if enchantress else 6, not_challenged=True)
    if lady:
        s.note(f"{knight['name']} has insulted {lady['name']}, {pk['name']}'s Lady.")
    else:
        s.note(f"{knight['name']} has insulted a lady.")
    must = enchantress or "always_help_ladies" in pk["oaths"]
    options = ["challenge"] if must and (enchantress or not can_break(s, "always_help_ladies")) \
        else ["challenge", "ignore"]
    q = Question("insult", f"Challenge {knight['name']} for the lady's honour, or ignore it?",
                 options, "challenge", tags=(("no_lady",) if not lady else
                                             (("enchantress",) if enchantress else ())))
    answer = s.ask(q)
    if answer == "ignore" and "always_help_ladies" in pk["oaths"]:
        break_oath(s, "always_help_ladies")
    if answer == "ignore":
        s.game.discard("knights", knight["name"])
        if lady:
            s.note(f"{pk['name']} lets the insult pass; {lady['name']} releases him.")
            service.lose_lady(s, "he let an insult to her pass", vp=0, summons_vp=6)
        return
    result = challenge(s, knight_foe(s, knight), challenger="pk")
    s.game.discard("knights", knight["name"])
    if result.challenge_winner == "pk":
        if lady:
            s.gain_vp(6, f"defending {lady['name']}'s honour")
        elif insulted_host(s, source):
            insulted = insulted_host(s, source)
            s.note(f"The lady insulted was {insulted['name']}, his hostess.")
            befriend(s, insulted)
        else:
            insulted = s.game.draw("ladies", "the lady who was insulted")
            s.game.discard("ladies", insulted["name"])
            castle = tasks.place_castle(s, insulted["castle"], insulted["name"], "lady")
            if insulted.get("enchantress"):
                s.note(f"The lady was {insulted['name']}, an Enchantress: she will try her "
                       f"spells on him at {castle}.")
            else:
                befriend(s, insulted)
                s.note(f"{insulted['name']} will welcome {pk['name']} at {castle}.")
    elif lady:
        s.note(f"{pk['name']} lost the challenge; {lady['name']} releases him.")
        service.lose_lady(s, "he failed to defend her honour", vp=0, summons_vp=6)


def raiders(s: Session) -> None:
    pk = s.pk
    result = s.chart("random_kingdom", purpose="where the raiders strike")
    kingdom = result.entry.get("kingdom")
    if kingdom == "Logres" or result.entry.get("castellany"):
        area = "Lincoln"
    else:
        coastal = sorted(a for a in s.world.provinces(kingdom) if s.world.areas[a].coast)
        area = pick(s, coastal or sorted(s.world.provinces(kingdom)),
                    f"where in {kingdom} the raiders land")
    s.note(f"Raiders are attacking the coast of {kingdom} ({area}).")
    q = Question("raiders", f"Ride at once to {area} to fight the raiders?", ["ride", "stay"],
                 "ride")
    if s.ask(q) == "stay":
        s.note(f"{pk['name']} lets others deal with the raiders.")
        return
    leader = draw_knight(s, "the raiders' leader", not_lord=False)
    tasks.add(s, "raiders", area, awards={}, grace=0, why="fighting the raiders",
              on_done="raiders", leader=leader)


def fight_raiders(s: Session, task: dict) -> None:
    from companion.koc.engine.combat import fight, foe

    pk = s.pk
    card = task["leader"]
    wl = (card.get("cp") or 70) // 10
    leader = foe("raider", card["name"], wl, 2, bonus=1, shield=True, card=card)
    s.note(f"{pk['name']} finds the raiders led by {card['name']} (WL {wl}), who fights from "
           "horseback with a sword and without chivalry.")
    result = fight(s, [leader], attacker="pk", tags=("brigands",))
    s.game.discard("knights", card["name"])
    if result.won:
        s.note("The raiders flee.")
        s.gain_vp(6, "driving off the raiders")


def special_tournament(s: Session) -> None:
    """All PKs hear of a great tournament at Camelot three turns from now; each gets a task to
    go there once his current obligations allow. Part 2's tournament code runs it from
    state['special_tournament']."""
    state = s.game.state
    turn = turn_no(s)
    state["special_tournament"] = {"turn": turn + 3, "announced": turn, "by": s.player,
                                   "site": "Camelot Castle", "npks": 5, "held": False}
    s.announce(f"A great tournament is proclaimed at Camelot Castle, to be held on game turn "
               f"{turn + 3}.")
    for player, rec in state["knights"].items():
        if rec["slain"]:
            continue
        other = s if player == s.player else other_session(s, player)
        if any(t["kind"] == "special_tournament" and t["status"] == "active"
               for t in rec["tasks"]):
            continue
        tasks.add(other, "special_tournament", "Camelot Castle", awards={}, route=None,
                  why=f"the great tournament of turn {turn + 3}", on_done="tournament_wait",
                  held_on=turn + 3)


def questing_beast(s: Session, *, first: bool, exclude: str | None = None,
                   adventure: dict | None = None) -> dict | None:
    """The Questing Beast is sighted in a random kingdom; the PK may pursue it by the most
    direct route and try to find it there (12 VP the first time, 6 each later sighting)."""
    pk = s.pk
    for _ in range(20):
        result = s.chart("random_kingdom", purpose="where the Questing Beast is seen")
        kingdom = result.entry.get("kingdom")
        castellany = result.entry.get("castellany")
        if (castellany or kingdom) != exclude:
            break
    area = random_province(s, kingdom, castellany)
    s.note(f"The Questing Beast has been seen in {castellany or kingdom} ({area}).")
    q = Question("questing_beast", f"Pursue the Questing Beast to {area}?",
                 ["pursue", "give up"], "pursue")
    if s.ask(q) != "pursue":
        s.note(f"{pk['name']} lets the Beast go.")
        return None
    return tasks.add(s, "questing_beast", area, awards={}, grace=0,
                     why="pursuing the Questing Beast", on_done="questing_beast",
                     find={"what": "the Questing Beast", "area": area, "then": "questing_beast"},
                     sightings=0 if first else 1, land=castellany or kingdom,
                     adventure=adventure)


def sight_beast(s: Session) -> bool:
    """Finding the Questing Beast where it was seen: a Luck Test, never after an encounter
    this turn."""
    pk = s.pk
    if pk.get("encountered"):
        s.note("The encounter keeps him from finding the Beast here.")
        return False
    if s.luck_test("find the Questing Beast"):
        s.note(f"{pk['name']} glimpses the Questing Beast!")
        return True
    return False


def beast_hunt(s: Session, task: dict) -> None:
    pk = s.pk
    found_it = sight_beast(s)
    if found_it:
        vp = 12 if task.get("sightings", 0) == 0 else 6
        s.gain_vp(vp, "sighting the Questing Beast")
        task["sightings"] = task.get("sightings", 0) + 1
    else:
        s.note("The Questing Beast is not found.")
    task["status"] = "done"
    s.note("The Beast moves on.")
    new = questing_beast(s, first=False, exclude=task.get("land"), adventure=task.get("adventure"))
    if new is not None:
        new["sightings"] = task.get("sightings", 0)


# ============================================================================== tricks
def trick(s: Session, by, *, hermit: bool = False, chosen: str | None = None) -> bool:
    """A trick: escaped on a Luck Test (6 VP when the trickster is a hermit); otherwise 6 VP
    lost (1 for a lie) and a random trick (``chosen``: the trick a player knight picked,
    optional rule tricking_pks). Returns True if escaped."""
    from companion.koc.engine import service
    from companion.koc.engine.combat import fight

    pk = s.pk
    who = name_of(by)
    if s.luck_test(f"escape {who}'s trick"):
        s.note(f"{pk['name']} sees through {who}'s trick.")
        if hermit:
            s.gain_vp(6, "escaping a hermit's trick")
        return True
    if chosen:
        key = chosen
        label = next(e.label for e in s.world.charts["tricks"].entries if e.key == key)
        s.note(f"{who} plays the trick of his choice: {label}.")
    else:
        result = s.chart("tricks", purpose=f"{who}'s trick")
        key = result.entry.key
    s.gain_vp(-1 if key == "tell_a_lie" else -6, "falling for a trick")
    if key == "abandon_lady":
        if pk["lady"]:
            service.lose_lady(s, f"tricked by {who}", vp=6, summons_vp=6)
        else:
            service.abandon_lord(s, f"tricked by {who}", vp=6, summons_vp=6)
    elif key == "imprisonment":
        imprison(s, by="trick", jailor=who)
    elif key == "fight_unarmed":
        foe = knight_foe(s, draw_knight(s, "the knight he must fight bare-handed"))
        added = "use_no_weapons" not in pk["oaths"]
        if added:
            pk["oaths"].append("use_no_weapons")
        try:
            fight(s, [foe], attacker="foe", awards=False, tags=("knight",))
        finally:
            if added and "use_no_weapons" in pk["oaths"]:
                pk["oaths"].remove("use_no_weapons")
    elif key == "break_oath":
        if pk["oaths"]:
            q = Question("oath_to_break", "The trick makes you break one of your oaths: which?",
                         list(pk["oaths"]), pk["oaths"][0])
            break_oath(s, s.ask(q))
        else:
            swear_oath(s, f"tricked by {who}")
    elif key == "lose_horses":
        pk["gear"]["horse"] = False
        pk["on_foot"] = True
        if pk["dwarf"]:
            pk["dwarf"]["spares"] = [x for x in pk["dwarf"]["spares"] if x != "horse"]
        s.note(f"{pk['name']} is tricked into giving away his horse"
               + (" and his Dwarf's spare one." if pk["dwarf"] else "."))
    elif key == "tell_a_lie":
        s.note(f"{pk['name']} is tricked into telling a lie.")
    elif key == "fight_enemy":
        foe = knight_foe(s, draw_knight(s, "the knight he must fight alone"))
        fight(s, [foe], attacker="foe", alone=True, tags=("knight",))
    elif key == "lose_lance":
        pk["gear"]["lance"] = False
        if pk["dwarf"]:
            pk["dwarf"]["spares"] = [x for x in pk["dwarf"]["spares"] if x != "lance"]
        s.note(f"{pk['name']} is tricked into giving away his lance"
               + (" and the spare one." if pk["dwarf"] else "."))
    elif key in ("escort_pilgrims", "deliver_message"):
        what = "escort pilgrims to a shrine" if key == "escort_pilgrims" \
            else "carry a message to a royal castle"
        refuse = False
        if key == "escort_pilgrims" and "always_travel_alone" in pk["oaths"]:
            refuse = oath_binds(s, "always_travel_alone", "escorting pilgrims")
        if not refuse:
            q = Question("trick_task", f"The trick binds you to {what}, without reward "
                         "(refusing or straying costs 12 VP).", ["accept", "refuse"], "accept",
                         tags=(key,))
            refuse = s.ask(q) == "refuse"
        if refuse:
            s.note(f"{pk['name']} refuses the task.")
            s.gain_vp(-12, "refusing a task imposed by a trick")
        elif key == "escort_pilgrims":
            pilgrims(s, f"tricked by {who}", awards={})
        else:
            castle = tasks.random_royal_castle(s)
            tasks.add(s, "message", castle, awards={}, penalty_vp=12, needs="friendly_castle",
                      why=f"a message forced on him by {who}")
    elif key == "prophecy":
        adventure_news(s, by if isinstance(by, dict) else {"kind": "trick", "name": who},
                       prophecy=True)
    return False


# ============================================================================== adventures
def source_role(s: Session, source: dict) -> str:
    """Who tells of an adventure: 'own_lord' and 'own_lady' for the PK's own Lord and Lady,
    else the kind of person (or 'castle' for a castle's owner)."""
    pk = s.pk
    if source.get("as"):
        return source["as"]
    name = source.get("name")
    if pk["lord"] and name == pk["lord"]["name"]:
        return "own_lord"
    if pk["lady"] and name == pk["lady"]["name"]:
        return "own_lady"
    return source.get("kind") or "castle"


def roll_adventure(s: Session, source: dict, *, reroll=(), no_local: bool = False,
                   local: bool = False) -> object:
    """Roll the adventure list (odd die first) with the rerolls and changes the source
    brings: the Lord, the Lady, King Arthur (+1 on each die), kings in their castles."""
    pk = s.pk
    chart = s.world.charts["adventures"]
    optional = s.options_rule("optional_adventures")
    kind = source_role(s, source)
    is_arthur = source.get("name") == "King Arthur"
    bad = set(reroll)
    if kind == "own_lord":
        bad.add("visit_local_king")
    if kind == "own_lady":
        bad.update(("court_lady", "tournament_for_lady"))
    if is_arthur:
        bad.add("visit_king_arthur")
    else:
        bad.add("treason_afoot")
    if pk["lady"]:
        bad.add("court_lady")
    if source.get("in_own_castle"):
        bad.add("visit_local_king")
    if local:
        bad.add("tournament_at_camelot")
    if s.options_rule("camelot_tournament_once") and \
            s.game.state.get("tournaments", {}).get("camelot_heard"):
        bad.add("tournament_at_camelot")        # held once a game (optional rule)
    for _ in range(50):
        if is_arthur:
            stages = chart.stages(optional)
            a = s.chance.roll(stages[0].sides, "Adventure (King Arthur adds 1 to each die)")
            b = s.chance.roll(stages[1].sides, "Adventure (King Arthur adds 1 to each die)")
            dice = [min(stages[0].sides if optional else 6, a + 1), min(6, b + 1)]
            result = chart.resolve(dice, optional=optional)
            s.note(f"King Arthur's adventure: {a}+1, {b}+1 -> {result.text()}")
        else:
            result = s.chart("adventures", optional=optional,
                             purpose=f"the adventure from {name_of(source)}")
        entry = result.entry
        key = entry.key
        if key == "save_your_lady" and kind == "own_lord" and not pk["lady"]:
            s.note("He serves no Lady: roll again.")
            continue
        site = entry.get("site")
        if key in bad:
            s.note("That adventure cannot come from here: roll again.")
            continue
        if no_local and site in LOCAL_SITES:
            s.note("A local adventure is no use to a prisoner: roll again.")
            continue
        if local and site == "named" and entry.get("area") != local_area(s):
            s.note("Not a local adventure: roll again.")
            continue
        if local and site == "rolled":
            s.note("Not a local adventure: roll again.")
            continue
        return entry
    return entry


def adventure_news(s: Session, source, *, prophecy: bool = False, immediate: bool = True,
                   local: bool = False, rolled: str | None = None, awards: bool = True,
                   no_failure_award: bool = False, requested: bool = False,
                   reroll=(), no_local: bool = False, arthur_task: bool = False,
                   grants_castle: bool = False, must: bool = False,
                   chooser: Session | None = None) -> dict | None:
    """Roll (or take ``rolled``, an adventure key) an adventure and offer it; a Prophecy is
    imposed. ``chooser``: the victorious PK who may name a random site (Knight's Fate 9).
    Returns the task recorded, or None if declined."""
    from companion.koc.engine import grail, service

    pk = s.pk
    if prophecy and grail.prophecy_immune(s):
        return None                     # the Grail bearer receives no Prophecy
    if isinstance(source, str):
        source = {"kind": source, "name": source}
    chart = s.world.charts["adventures"]
    if rolled:
        entry = chart.entry(rolled)
        s.note(f"Adventure {entry.roll_text.replace('/', ':')}: {entry.label}.")
    else:
        entry = roll_adventure(s, source, reroll=reroll, no_local=no_local, local=local)
    key = entry.key
    is_arthur = source.get("name") == "King Arthur"
    kind = source_role(s, source)
    if key == "save_your_lady" and kind == "own_lady":
        s.note("From his Lady, this is a call to save his Lord.")
    ident = entry.roll_text.replace("/", ":")
    if prophecy:
        for task in tasks.active(s):
            if isinstance(task.get("adventure"), dict) and task["adventure"].get("id") == ident:
                task["prophecy"] = True
                task["route"] = None
                s.note(f"The prophecy names the adventure he already pursues ({ident}): it "
                       "becomes a Prophecy.")
                return task
    if not prophecy:
        ladyish = key in ("court_lady", "escort_lady", "visit_lady", "distressed_lady",
                          "avenge_lady", "cure_lady", "free_lady", "tournament_for_lady",
                          "rescue_lady", "rescue_lady_from_trolls", "save_your_lady")
        cannot_decline = (kind == "own_lady" and requested and
                          pk["lady"].get("enchantress")) or arthur_task or must
        if ladyish and "always_help_ladies" in pk["oaths"]:
            cannot_decline = cannot_decline or oath_binds(s, "always_help_ladies",
                                                          "declining an adventure for a lady")
        options = ["accept"] if cannot_decline else ["accept", "decline"]
        q = Question("adventure", f"{name_of(source)} tells of an adventure: {ident} "
                     f"{entry.label}. Undertake it?", options, "accept",
                     tags=({"own_lord": "lord", "own_lady": "lady"}.get(kind, kind)
                           if {"own_lord": "lord", "own_lady": "lady"}.get(kind, kind)
                           in ADVENTURE_SOURCES else "request",
                           *(("requested",) if requested else ())))
        if s.ask(q) == "decline":
            s.note(f"{pk['name']} declines the adventure.")
            if requested:
                if kind == "own_lady":
                    s.note(f"{source['name']} dismisses him from her service.")
                    service.lose_lady(s, "he turned down her adventure")
                elif not (pk["lord"] and pk["lord"]["name"] == source.get("name")):
                    unfriendly(s, source)
            return None
    return record_adventure(s, entry, source, prophecy=prophecy, immediate=immediate,
                            local=local, awards=awards, no_failure_award=no_failure_award,
                            arthur_task=arthur_task, grants_castle=grants_castle,
                            chooser=chooser)


def unfriendly(s: Session, person: dict) -> None:
    """A host turned down becomes unfriendly: his castle is no longer friendly."""
    pk = s.pk
    castle = person.get("castle") or castle_here(s)
    if castle and castle in pk["friendly"] and not (pk["lord"] and
                                                    pk["lord"].get("castle") == castle):
        pk["friendly"].remove(castle)
    end_temp_friendly(s, castle) if castle else None
    names = pk.get("friendly_persons", [])
    if name_of(person) in names:
        names.remove(name_of(person))
    pk.setdefault("unfriendly_persons", []).append(name_of(person))
    s.note(f"{name_of(person)} takes offence and is no longer friendly to {pk['name']}.")


BOX_COLOUR_SETS = 6
"""The colour sets (knight counters and Adventure markers) in the box; the world data adds a
seventh and eighth (G, H) for the knights the box has no set for."""

MARKERS_BY_SEAT = 6
"""The rules edition from which a knight's Adventure markers carry the letter of his seat at
the table, counted from the game's first player (his colour's set), so that it stays his when
the first player rotates, and a seventh and eighth knight get letters of their own (G, H:
the data's sets beyond the box's six); no marker is then given that another knight's running adventure
bears. Earlier editions took the letter of his place in this game turn's order, modulo the six
sets: two knights could hold "A-1" at once (random play with 7 and 8 knights, and with the
first player rotating)."""


def seat_of(state: dict, player: str) -> int:
    """A player's seat at the table: his place in the order counted from the game's first
    player (the order only ever turns round the table, so this never changes)."""
    order = state["koc"]["order"]
    first = state["koc"].get("first")
    start = order.index(first) if first in order else 0
    return (order.index(player) - start) % len(order)


def marker_letter(world, seat: int) -> str:
    """The letter of a seat's markers: its colour set's, then the letters no set uses."""
    letters = [c.letter for c in world.player_colours]
    letters += [x for x in "ABCDEFGHIJKLMNOPQRSTUVWXYZ" if x not in letters]
    return letters[seat % len(letters)]


def adventure_marker(s: Session) -> str:
    state = s.game.state
    order = state["koc"]["order"]
    colours = s.world.player_colours
    if edition(state) >= MARKERS_BY_SEAT:
        letter = marker_letter(s.world, seat_of(state, s.player)) if s.player in order else "A"
        used = [t["adventure"].get("marker") for rec in state["knights"].values()
                for t in rec["tasks"]
                if isinstance(t.get("adventure"), dict) and t["status"] in ("active", "at_site")]
    else:
        # those editions knew the box's six colour sets only (the data added G and H later)
        sets = colours[:BOX_COLOUR_SETS]
        letter = sets[order.index(s.player) % len(sets)].letter if s.player in order else "A"
        used = [t["adventure"].get("marker") for t in s.pk["tasks"]
                if isinstance(t.get("adventure"), dict) and t["status"] in ("active", "at_site")]
    for n in range(1, 100):
        if f"{letter}-{n}" not in used:
            return f"{letter}-{n}"
    return f"{letter}-0"


def record_adventure(s: Session, entry, source: dict, *, prophecy: bool, immediate: bool,
                     local: bool, awards: bool, no_failure_award: bool = False,
                     arthur_task: bool = False, grants_castle: bool = False,
                     chooser: Session | None = None) -> dict:
    """Place the adventure's site on the map, draw what it needs and record the task (part 2
    performs it at the site). A random site is the ``chooser``'s to name, if one is given."""
    pk = s.pk
    key = entry.key
    ident = entry.roll_text.replace("/", ":")
    values = dict(entry.values)
    site = values.get("site")
    is_arthur = source.get("name") == "King Arthur"
    adv: dict = {"key": key, "id": ident, "label": entry.label, "values": values,
                 "source": {"kind": source.get("kind"), "name": source.get("name"),
                            "role": source_role(s, source)},
                 "marker": adventure_marker(s), "awards": awards,
                 "no_failure_award": no_failure_award, "from_arthur": is_arthur,
                 "shareable": values.get("shareable", True), "heard": turn_no(s),
                 "arthur_task": arthur_task, "grants_castle": grants_castle}
    draw = values.get("draw")
    if draw == "knight_card":
        n = values.get("count", 1) if isinstance(values.get("count"), int) else 1
        adv["knights"] = []
        for i in range(n):
            card = draw_knight(s, f"knight for adventure {ident}",
                               arthurian=False if key in ("vanquish_rebels", "treason_afoot")
                               else None)
            adv["knights"].append(card)
        adv["knight"] = adv["knights"][0]
    elif draw == "lady_card":
        own = pk["lady"]["name"] if pk["lady"] else None
        adv["lady"] = s.game.draw("ladies", f"lady for adventure {ident}",
                                  accept=lambda c: c.name != own and
                                  (key != "escort_lady" or not c.enchantress))
    elif draw in ("monster", "animal"):
        adv["creature"] = s.game.draw_chit(draw, f"creature for adventure {ident}")
    if key in ("distressed_lady",):
        adv["knight"] = draw_knight(s, "the unchivalrous knight", min_vl=6)
    if key == "avenge_lady" and adv.get("lady") is None:
        # the dispossessed lady: the knaves hold her castle
        own = pk["lady"]["name"] if pk["lady"] else None
        adv["lady"] = s.game.draw("ladies", f"the dispossessed lady of adventure {ident}",
                                  accept=lambda c: c.name != own)
    if key == "escort_lady" and adv.get("lady") is None:
        adv["lady"] = s.game.draw("ladies", "the lady to escort",
                                  accept=lambda c: not c.enchantress)
    castle = None
    dest: str | None
    if site == "local":
        dest = local_land(s, f"adventure {ident}")
    elif site == "local_castle":
        owner = adv.get("lady")
        if key in ("court_lady", "visit_lady") and owner is None:
            owner = s.game.draw("ladies", "the lady of the local castle")
            adv["lady"] = owner
        castle = local_castle(s, f"adventure {ident}",
                              name=owner["castle"] if owner else None,
                              owner=owner["name"] if owner else "its lord",
                              kind="lady" if owner else "castle")
        dest = tasks.castle_area(s, castle)
    elif site == "local_royal_castle":
        castle = _local_royal_castle(s, ident, None)
        dest = castle
    elif site == "random_area":
        dest = local_land(s, f"adventure {ident}") if local else \
            (victor_site(chooser, s, entry) or tasks.deploy_castle_area(s, f"adventure {ident}"))
    elif site == "random_castle":
        owner = adv.get("lady")
        name = owner["castle"] if owner and key != "free_lady" else f"castle of adventure " \
            f"{adv['marker']}"
        # (a castle already on the map stays where it stands: nothing to choose)
        chosen = None if local or name in s.game.state.get("castles", {}) \
            else victor_site(chooser, s, entry)
        area = local_land(s, f"adventure {ident}") if local else \
            (chosen or tasks.deploy_castle_area(s, f"adventure {ident}"))
        castle = tasks.place_castle(s, name, owner["name"] if owner and key != "free_lady"
                                    else "its lord", "lady" if owner else "castle", area=area)
        dest = tasks.castle_area(s, castle)
    elif site == "random_royal_castle":
        if local:
            castle = _local_royal_castle(s, ident, "Logres")
        else:
            lord_castle = pk["lord"].get("castle") if pk["lord"] else None
            exclude = (lord_castle,) if key == "vanquish_rebels" and lord_castle else ()
            castle = victor_site(chooser, s, entry, exclude=exclude) or \
                tasks.random_royal_castle(s, exclude=exclude)
        dest = castle
    elif site == "random_shrine":
        dest = victor_site(chooser, s, entry) or tasks.random_shrine(s)
    elif site == "named":
        dest = s.world.area(values["area"]).name
    elif site == "own_castle":
        from companion.koc.engine import service

        castle = service.summoner_castle(s, "lady" if pk["lady"] and
                                         source_role(s, source) != "own_lady" else "lord")
        dest = tasks.castle_area(s, castle) if castle else None
    elif site == "with_knight":
        dest = (victor_site(chooser, s, entry) or tasks.random_shrine(s)) \
            if values.get("chart") == "random_shrine" else None
        adv["start"] = pk["at"]["area"]
    elif site == "random_wasteland":
        wastes = sorted(a.name for a in s.world.areas.values() if a.kind == "wasteland")
        dest = victor_site(chooser, s, entry) or \
            pick(s, wastes, f"which wasteland for adventure {ident}")
    elif site == "rolled":
        dest = victor_site(chooser, s, entry)
        if dest is None:
            res = s.chart(values["chart"], purpose=f"the site of adventure {ident}")
            if res.entry.get("area"):
                dest = s.world.area(res.entry.get("area")).name
            else:
                dest = random_province(s, res.entry.get("kingdom"))
    else:
        dest = None
    if values.get("area") == "Faerie":
        adv["leads_to"] = "Faerie"
    if castle:
        adv["castle"] = castle
    adv["site"] = dest
    walk = values.get("moves") == 1
    if key == "escort_lady" and adv.get("lady"):
        pk["party_extra"].append({"kind": "lady", "name": adv["lady"]["name"], "horse": True,
                                  "person": adv["lady"]})
    if key == "escort_pilgrims":
        pk["party_extra"].append({"kind": "pilgrims", "name": "the pilgrims", "walks": True,
                                  "rides": False})
    if is_arthur and not pk["men_at_arms"]:
        card = draw_knight(s, "an Arthurian Man-at-Arms from King Arthur", arthurian=True)
        card["joined"] = turn_no(s)
        card["wounds"] = 0
        pk["men_at_arms"].append(card)
        s.note(f"King Arthur sends {card['name']} along as {pk['name']}'s Man-at-Arms.")
    route = "direct" if (immediate and not prophecy) else None
    grace = 0 if is_arthur else 1
    task = tasks.add(s, "adventure", dest, awards={}, route=route, grace=grace, walk=walk,
                     why=f"adventure {ident} {entry.label}"
                     + (" (a Prophecy)" if prophecy else ""),
                     on_done="adventure", adventure=adv, prophecy=prophecy,
                     person=adv.get("lady") if key == "escort_lady" else
                     ({"kind": "pilgrims", "name": "the pilgrims"}
                      if key == "escort_pilgrims" else None))
    if dest:
        s.note(f"Adventure marker {adv['marker']} is placed at {dest}.")
    if key == "tournament_at_camelot":
        from companion.koc.engine import tournaments

        tournaments.camelot_heard(s, task)     # every knight hears of it at once
    from companion.koc.engine import adventures

    adventures.heard(s, task)       # the cards it holds, what it needs from now on
    return task


def victor_site(chooser: Session | None, s: Session, entry,
                exclude: tuple[str, ...] = ()) -> str | None:
    """Knight's Fate 9 given by a PK: the victor (``chooser``) may name where the adventure's
    random site lies (question `fate_site`); None leaves it to the dice."""
    if chooser is None:
        return None
    values = dict(entry.values)
    options = [n for n in tasks.sites_to_choose(s.world, values) if n not in exclude]
    if not options:
        return None
    ident = entry.roll_text.replace("/", ":")
    listed = ", ".join(options) if len(options) <= 20 else \
        "any countryside, forest, river or wasteland outside Faerie and the Road to Rome"
    q = Question("fate_site", f"{s.pk['name']} must undertake adventure {ident} {entry.label}. "
                 f"Where does it take place? Name the place ({listed}), or random.",
                 ["random", *options], "random", tags=("fate", tasks.site_tag(values)))
    answer = chooser.ask(q)
    if answer == "random":
        return None
    s.note(f"{chooser.pk['name']} chooses where {s.pk['name']}'s adventure takes place: "
           f"{answer}.")
    return answer


# ============================================================================== completions
def after_hold(s: Session, hold: dict) -> None:
    """A hold of lost turns ran out (called from the movement phase)."""
    from companion.koc.engine import requests

    pk = s.pk
    then = hold.get("then")
    if then == "pursuit":
        from companion.koc.engine.combat import fight, foe

        monster = hold["monster"]
        person = hold.get("person") or {}
        beast = foe("monster", monster["name"], monster["wl"], monster.get("dice", 3))
        s.note(f"The {monster['name']} hunting {name_of(person)} catches up with them.")
        result = fight(s, [beast], tags=("monster",))
        if result.won:
            befriend(s, person)
    elif then == "wake":
        pk.pop("asleep", None)
        pk["enchantments"] = [e for e in pk["enchantments"] if e["key"] != "sleep"]
        s.note(f"{pk['name']} wakes from his enchanted sleep.")
    elif then == "wedding":
        s.note(f"The wedding at {hold.get('castle')} is over; {pk['name']} may ask a request "
               "of the castle's lord this turn.")
        pk["host"] = {"person": hold.get("host"), "castle": hold.get("castle"),
                      "turn": turn_no(s)}
    elif then in ("arthur_court", "arthur_feast"):
        requests.arthur_task_done(s, success=True)
        pk["arthur"].pop("owed", None)
        requests.arthur_grants(s, hold.get("request"), why="after the " + (
            "court ceremony" if then == "arthur_court" else "feast"))
    elif then == "vigil":
        pass
    elif then == "scourge":
        scourge(s)
    else:
        s.tell(f"{pk['name']} may move again.")


register(Spec("scourge", "how many poisoned wounds to inflict on yourself as a penance "
              "(3 VP each; none refuses the penance)", ("0", "1", "2", "3", "4", "5", "6"),
              "1"))


def scourge(s: Session) -> None:
    """A penance of scourging: one die gives the most wounds he may inflict on himself (3 VP
    each; at least one, or the penance is refused)."""
    pk = s.pk
    most = s.d6("the most scourging allowed")
    options = [str(n) for n in range(0, most + 1)]
    q = Question("scourge", f"Scourge yourself: up to {most} "
                 f"{plural(s, most, 'poisoned wound')}, 3 VP each.",
                 options, "1")
    n = int(s.ask(q))
    n = min(n, max(0, kn.wl(pk) - 1))
    if n == 0:
        s.note(f"{pk['name']} refuses the scourging.")
        s.gain_vp(-12, "refusing a penance")
        return
    kn.poison(pk, n)
    s.note(f"{pk['name']} scourges himself: {n} {plural(s, n, 'poisoned wound')}.")
    s.gain_vp(3 * n, "the penance of scourging")


def task_done(s: Session, task: dict) -> None:
    """Arrival at a task's destination (``tasks.arrive`` marked it done first)."""
    from companion.koc.engine import requests, service

    pk = s.pk
    what = task.get("on_done")
    if what == "adventure":
        from companion.koc.engine import adventures

        adventures.arrive(s, task)          # performed at its site (adventures.py)
    elif what == "summons":
        service.answer_summons(s)
    elif what == "vigil":
        castle = task["castle"]
        s.note(f"{pk['name']} keeps vigil at the bedside of his dying kinsman in {castle}.")
        pk["vigil"] = {"castle": castle, "prayers": 0}
        pk["immobile"].append({"why": "keeping vigil by a dying kinsman", "turns": 2,
                               "vigil": True, "then": "vigil"})
    elif what == "wedding":
        castle = task["castle"]
        pk["at"] = {"area": pk["at"]["area"], "where": "inside", "castle": castle}
        s.note(f"{pk['name']} attends the wedding at {castle}.")
        s.gain_vp(3, "attending a wedding of state")
        pk["immobile"].append({"why": "the wedding celebrations", "turns": 1, "then": "wedding",
                               "castle": castle, "host": task.get("host")})
    elif what == "raiders":
        fight_raiders(s, task)
    elif what == "questing_beast":
        beast_hunt(s, task)
    elif what == "rescue":
        rescue_attempt(s, task)
    elif what in ("knave_prophecy", "knave_lift"):
        from companion.koc.engine import knaves

        (knaves.prophecy_met if what == "knave_prophecy" else knaves.curse_lifted)(s, task)
    elif what == "court":
        castle = task["castle"]
        pk["at"] = {"area": pk["at"]["area"], "where": "inside", "castle": castle}
        lady = task["lady"]
        s.note(f"{pk['name']} is welcomed at {castle}; he may ask {lady['name']} to take him "
               "into her service.")
        pk.setdefault("courting", []).append({"lady": lady, "castle": castle})
    elif what == "escort_home":
        person = task.get("person") or {}
        befriend(s, person)
    elif what == "mad_knight_cured":
        service.mad_knight_cured(s, task)
    elif what == "arthur_message":
        s.note(f"{pk['name']} has delivered King Arthur's message.")
        requests.arthur_task_done(s, success=True, return_grant=True)
    elif what == "arthur_monster":
        task["status"] = "active"
        task["dest"] = None
        try_find(s, task)
    elif what == "tournament_wait":
        from companion.koc.engine import tournaments

        tournaments.arrived(s, task)
    elif what == "carried_mad":
        service.cure_madness(s, "the holy place")


def try_find(s: Session, task: dict) -> bool:
    """A Luck Test to find what a task seeks here (persistence +1 a turn), as tasks.seek."""
    pk = s.pk
    find = task["find"]
    if pk.get("encountered"):
        s.note(f"The encounter keeps {pk['name']} from finding {find['what']} this turn.")
        return False
    here = pk["at"]["area"]
    key = f"seek:{find['what']}:{here}"
    from companion.koc.engine.tasks import seek_bonus

    bonus = seek_bonus(s, key)
    area = s.world.areas[here]
    if area.kind == "castle" or area.is_shrine or s.luck_test(f"find {find['what']}",
                                                               bonus=bonus):
        pk["persistence"].pop(key, None)
        s.note(f"{pk['name']} finds {find['what']}.")
        found(s, task)
        return True
    pk["persistence"][key] = bonus + 1
    s.note(f"{pk['name']} does not find {find['what']} this turn.")
    return False


def found(s: Session, task: dict) -> None:
    """What finding a sought thing sets off."""
    from companion.koc.engine import requests
    from companion.koc.engine.combat import fight, foe

    pk = s.pk
    then = task["find"].get("then")
    if then == "questing_beast":
        task["status"] = "done"
        s.gain_vp(12 if task.get("sightings", 0) == 0 else 6, "sighting the Questing Beast")
        task["sightings"] = task.get("sightings", 0) + 1
        new = questing_beast(s, first=False, exclude=task.get("land"))
        if new is not None:
            new["sightings"] = task["sightings"]
    elif then == "arthur_monster":
        monster = task["monster"]
        beast = foe("monster", monster["name"], monster["wl"], monster.get("dice", 3))
        result = fight(s, [beast], attacker="pk", tags=("monster",))
        task["status"] = "done" if result.won else "failed"
        requests.arthur_task_done(s, success=result.won)
    else:
        task["status"] = "done"


def rescue_attempt(s: Session, task: dict) -> None:
    """At the castle holding a prisoner: appeal (after a friendly castle reaction) or storm.
    Three failed appeals or one storm make a valid attempt."""
    from companion.koc.engine import encounters

    pk = s.pk
    castle = task["castle"]
    prisoner = task["prisoner"]
    task["status"] = "active"
    q = Question("rescue", f"{prisoner['name']} is held in {castle}. Appeal to the jailor, storm "
                 "the castle, or give up?", ["appeal", "storm", "leave"], "appeal",
                 tags=(("aid",) if task.get("aid") else ("passerby",)))
    choice = s.ask(q)
    if choice == "leave":
        tasks.fail(s, task, "he gave up the rescue")
        return
    if task.get("aid") and task.get("attempts", 0) == 0:
        task["penalty_vp"] = 0
        s.gain_vp(6, "giving aid (the rescue is attempted)")
    if choice == "storm":
        task["attempts"] = 3
        won = storm_castle(s, castle, why=f"to free {prisoner['name']}")
        if won:
            freed(s, task)
        task["status"] = "done"
        return
    admitted = pk["at"]["where"] == "inside" and castle_here(s) == castle
    if not admitted:
        admitted = encounters.castle_encounter(s, castle, persisting=task.get("attempts", 0) > 0)
    if not admitted:
        s.note(f"{castle} does not admit him: no appeal this turn.")
        return
    task["attempts"] = task.get("attempts", 0) + 1
    if appeal_to_jailor(s, castle=castle, prisoner=prisoner, appealer="pk",
                        persisting=task["attempts"] > 1):
        freed(s, task)
        task["status"] = "done"
    elif task["attempts"] >= 3:
        s.note(f"Three appeals have failed: {pk['name']} has done what he could.")
        task["status"] = "done"


def freed(s: Session, task: dict) -> None:
    prisoner = task["prisoner"]
    if task.get("knave"):
        from companion.koc.engine import knaves

        knaves.rescued(s, task)         # a Knave's prisoner: 6 VP and friendship
        return
    befriend(s, prisoner)
    if task.get("aided"):
        befriend(s, task["aided"])
    s.game.discard("knights", prisoner["name"])
