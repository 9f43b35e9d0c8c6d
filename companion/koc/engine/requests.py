"""Prayers and requests: the fourth phase of a player turn (see docs/koc-engine.md).

Contract:

* ``requests_phase(s)``: the PK's prayers and requests from his orders, to the friendly persons
  present (met this turn, the owner of a friendly castle he is in, his travelling companions,
  King Arthur at Camelot), with Luck Tests and persistence; King Arthur answers on his own chart.
* ``grant(s, person, request, *, automatic=False) -> bool``: one request to one person.
* ``pray(s, who, target, effect) -> bool``: a prayer (VL test; some always succeed).

Who is present (``present(s)``):

* the persons met this turn (``s.pk['met']``, written by the encounters: ``{"kind", "card",
  "attitude"}``) who are friendly; King Arthur whatever his attitude;
* inside a castle: its owner (a King, a castellan, a Lady, a Knight, a PK who is at home), met
  on a Luck Test (not tested again while the PK persists with a request of him); at Camelot,
  King Arthur, whom a petitioner may address without that test; after a wedding of state, the
  castle's lord;
* the fellow travellers: comrades, Men-at-Arms, escorted persons (never a persistence bonus);
* other player knights in the same place.

Without orders nothing is asked. One request may be made of each person a turn, and one prayer
is said a turn. Persistence: the same request of the same person on consecutive turns, without
moving, adds 1 per earlier turn to the Luck Test. Also: ``arthur_grants(s, request)``,
``arthur_task_done(s, success=...)`` (part 2 calls it when an adventure set by King Arthur as a
task ends), ``REQUEST_KEYS`` (order words to request keys).
"""
from __future__ import annotations

from companion.engine.game import edition
from companion.engine.names import fold
from companion.koc import scenarios
from companion.koc.engine import knight as kn
from companion.koc.engine import resolutions as rs
from companion.koc.engine import service, tasks
from companion.koc.engine.questions import Spec, register
from companion.koc.engine.session import Question, Session
from companion.koc.engine.words import plural

NOBODY_WHERE = 3
"""The rules edition from which a request nobody can grant says where the knight is when it is
made, after his moves ("Nobody in Cornwall can grant the request 'adventure' (asked of
lord)."; a request sent with moves out of his Lord's castle); before, "Nobody present"."""

ESCORT_ON_HORSEBACK = 7
"""The rules edition from which a knight without a horse may not ask to escort a King (King
Arthur too) or a Lady, whether or not he serves a Lord (SERVICE: a King or Lady is escorted only
on horseback; the same reading as their reactions' escorts and Aid 10,
resolutions.ESCORT_NEEDS_HORSE); a Hermit walks and may be escorted on foot. Before, only a
knight without a Lord was held to it."""
JAILOR_HEARS_APPEALS = 7
"""The rules edition from which every castle owner grants a request for an Appeal to Jailor
without a Luck Test (PRAYERS & REQUESTS: the appeal has its own chance of failing); the Luck
Test to be received by the owner stays. Before, only a player knight owner did, and any other
owner granted it on a Luck Test."""
ARTHUR_AT_HOME = 7
"""The rules edition from which King Arthur in a castle (at Camelot) cannot be asked for an
escort, as no King can (Table of Possible Requests: Escort, unless at a Castle): the request is
refused before his chart is rolled. Before, his chart was rolled and a grant sent the knight
escorting him to the castle they stood in."""
SUMMONS_COSTS_THE_TRY = 7
"""The rules edition from which a knight under his Lord's Summons loses the 6 VP for seeking
another Lord when he asks a King (or a castellan) for service, before the Luck Test, whether
it is granted or not (SERVICE, Changing Lords: the attempt costs them); a grant costs nothing
more. Before, only a granted request cost them. King Arthur, the rules' special case, is not
concerned."""

REQUEST_KEYS = {
    "adventure": "adventure", "appeal to jailor": "appeal_to_jailor",
    "arthurs favour": "arthurs_favour", "castle": "castle", "dwarf": "dwarf",
    "escort": "escort", "heal": "heal", "join": "join", "lift enchantment": "lift_enchantment",
    "men at arms": "men_at_arms", "pardon": "pardon", "pilgrimage": "pilgrimage",
    "release from enchantress": "release_enchantress_service",
    "release from oath": "release_oath", "service": "service", "token": "token",
    "welcome": "welcome",
}
ARTHUR = "King Arthur"
ARTHUR_CAN = ("adventure", "castle", "dwarf", "escort", "heal", "lift_enchantment",
              "men_at_arms", "pardon", "service", "grail")
NO_LORD_BARS = ("arthurs_favour", "adventure", "men_at_arms")

register(
    Spec("grant_request", "another player knight asks you for something (heal, lift an "
         "enchantment): grant it", ("yes", "no"), "yes"),
    Spec("welcome_for", "which fellow player knight the castle should welcome",
         ("first", "last"), "first"),
)


def turn_no(s: Session) -> int:
    return s.game.state["koc"]["turn"]


# ============================================================================== persons
def person(card: dict, role: str, **flags) -> dict:
    """A person present: the card record plus the role it answers in (a key of world.persons,
    or 'arthur' / 'pk') and flags: lord, own_lady, castellan, at_castle, at_shrine, owner,
    traveller, meet (a Luck Test is needed to meet him), player."""
    p = {"card": card, "role": role, "name": card.get("name", role), "vl": card.get("vl")}
    p.update(flags)
    return p


def as_person(s: Session, who: dict) -> dict:
    """Accept a person dict (from ``present``) or a bare card record."""
    if "role" in who and "card" in who:
        return who
    pk = s.pk
    kind = who.get("kind", "knight")
    name = who.get("name", kind)
    flags = {"lord": bool(pk["lord"] and pk["lord"]["name"] == name),
             "own_lady": bool(pk["lady"] and pk["lady"]["name"] == name)}
    if name == ARTHUR:
        return person(who, "arthur", **flags)
    if kind == "knight":
        role = "arthurian_knight" if who.get("arthurian") else "knight"
    elif kind in ("priest", "druid"):
        role = "hermit"
    else:
        role = kind
    if who.get("castellan"):
        flags["castellan"] = True
        role = "king"
    return person(who, role, **flags)


def allowed(s: Session, p: dict, request: str) -> str | None:
    """Why ``p`` cannot grant ``request`` (None if he can)."""
    pk = s.pk
    role = p["role"]
    if role == "arthur":
        if request == "escort" and p.get("at_castle") and \
                edition(s.game.state) >= ARTHUR_AT_HOME:
            return "King Arthur is in his castle and needs no escort"
        return None if request in ARTHUR_CAN else "King Arthur does not grant that"
    if role == "pk":
        if request in ("heal", "lift_enchantment"):
            return None
        if p.get("owner") and request in ("appeal_to_jailor", "welcome"):
            return None
        return (f"{p['name']} (a player knight) can only pray to heal or to lift an "
                "enchantment" + (", or as castle owner hear an appeal or welcome a guest"
                                 if p.get("owner") else ""))
    roles = [role] + (["castle_owner"] if p.get("owner") else [])
    if role == "arthurian_knight":
        roles.append("knight")
    for r in roles:
        spec = s.world.persons.get(r)
        if spec is None:
            continue
        for key, only in spec.requests:
            if key != request:
                continue
            if only == "castellan" and not p.get("castellan"):
                continue
            if only == "lord" and not p.get("lord"):
                continue
            if only == "own_lady" and not p.get("own_lady"):
                continue
            if only == "not_at_castle" and p.get("at_castle"):
                continue
            if only == "not_at_shrine" and p.get("at_shrine"):
                continue
            return None
    return f"{p['name']} cannot grant that"


def present(s: Session, met: list[dict]) -> list[dict]:
    """Every friendly person the PK may address now."""
    pk = s.pk
    out: list[dict] = []
    seen: set[str] = set()

    def add(p: dict) -> None:
        if p["name"] not in seen:
            seen.add(p["name"])
            out.append(p)

    here = s.world.areas[pk["at"]["area"]]
    at_shrine = here.is_shrine and pk["at"]["where"] != "inside"
    for m in met:
        cards = m.get("card")
        cards = cards if isinstance(cards, list) else [cards or {"kind": m.get("kind"),
                                                                 "name": m.get("kind")}]
        for card in cards:
            card = dict(card)
            card.setdefault("kind", m.get("kind"))
            p = as_person(s, card)
            if m.get("attitude") != "friendly" and p["role"] != "arthur":
                continue
            p["at_castle"] = pk["at"]["where"] == "inside"
            p["at_shrine"] = at_shrine
            p["alone"] = m.get("alone", True)
            add(p)
    castle = rs.castle_here(s)
    guest = castle and pk.get("guest_of") == castle and castle not in pk["friendly"]
    if castle and pk["at"]["where"] == "inside" and not guest:
        # (a guest of a party admitted for a fellow's sake may not address the owner)
        owner = rs.castle_owner(s, castle)
        if owner.get("kind") == "pk":
            orec = s.game.state["knights"][owner["player"]]
            if orec["at"].get("area") == pk["at"]["area"] and owner["player"] != s.player:
                add(person(owner, "pk", owner=True, at_castle=True, player=owner["player"],
                           pk_owner=True))
        elif owner.get("name") == ARTHUR:
            p = as_person(s, owner)
            p["at_castle"] = True
            add(p)
        else:
            already = next((x for x in out if x["name"] == owner.get("name")), None)
            # an owner who received him this turn (a friendly castle reaction) is met already
            p = already or as_person(s, owner)
            p.update({"owner": True, "at_castle": True, "castle": castle,
                      "meet": already is None})
            if owner.get("kind") == "king":
                p["own_castle"] = True
            add(p)
    host = pk.get("host")
    if host and host.get("turn") == turn_no(s) and host.get("person"):
        p = as_person(s, host["person"])
        p.update({"owner": True, "at_castle": True, "castle": host.get("castle")})
        add(p)
    for c in pk["comrades"] + pk["men_at_arms"]:
        p = as_person(s, c)
        p["traveller"] = True
        p["at_castle"] = False
        add(p)
    for e in pk["party_extra"]:
        if e.get("person") and e.get("kind") not in ("bound_mad_knight",):
            p = as_person(s, e["person"])
            p["traveller"] = True
            add(p)
    for player, rec in s.game.state["knights"].items():
        if player != s.player and not rec["slain"] and rec["at"] == pk["at"]:
            add(person({"kind": "pk", "name": rec["name"], "vl": kn.vl(rec)}, "pk",
                       player=player))
    return out


def choose(s: Session, people: list[dict], request: str, whom: str | None) -> dict | None:
    """The person a request is addressed to: the one the order names, else the first able."""
    if request == "join":
        people = [p for p in people if not p.get("traveller")]
    able = [p for p in people if allowed(s, p, request) is None]
    if whom:
        w = fold(whom)
        pk = s.pk

        def fits(p: dict) -> bool:
            role = p["role"]
            if w == "king":
                return role in ("king", "arthur")
            if w == "arthur":
                return role == "arthur"
            if w == "lord":
                return bool(p.get("lord"))
            if w == "lady":
                return role == "lady"
            if w == "hermit":
                return role == "hermit"
            if w == "knight":
                return role in ("knight", "arthurian_knight")
            if w == "dwarf":
                return role == "dwarf"
            if w == "castle owner":
                return bool(p.get("owner"))
            if w == "comrade":
                return bool(p.get("traveller"))
            return fold(p["name"]).startswith(w) or w in fold(p["name"])

        named = [p for p in people if fits(p)]
        if not named:
            return None
        able_named = [p for p in named if allowed(s, p, request) is None]
        return (able_named or named)[0]
    return able[0] if able else None


# ============================================================================== the phase
def requests_phase(s: Session) -> None:
    pk = s.pk
    turn = turn_no(s)
    met = [m for m in pk.pop("met", []) if m.get("turn", turn) == turn]
    try:
        if pk["slain"]:
            return
        from companion.koc.engine import adventures

        adventures.requests_hook(s)     # adventures at their sites: prayers, waiting, leaving
        if pk["slain"] or s.pk is not pk:
            return
        if pk.get("met_merlin"):
            return
        if pk["mad"]:
            service.mad_recovery(s)
            return
        if pk.get("vigil"):
            vigil_prayer(s)
        if not pk["at"]["where"] == "inside":
            tasks.escort_turn_award(s)
        people = present(s, met)
        arthur = next((p for p in people if p["role"] == "arthur"), None)
        if arthur and pk["arthur"].get("owed") and not pk["arthur"].get("task"):
            owed = pk["arthur"].pop("owed")
            s.note(f"{pk['name']} is back at King Arthur's court: the King keeps his word.")
            arthur_grants(s, owed, why="the task is done")
        orders = s.game.orders.get(s.player)
        if orders is None:
            return
        for item in orders.prayers:
            prayer_order(s, item)
        asked: set[str] = set()
        if pk["prison"] and orders.requests:
            s.tell("A prisoner has nobody friendly to ask: no requests this turn.")
            return
        for item in orders.requests:
            if pk["slain"] or pk["prison"]:
                return
            request = REQUEST_KEYS.get(item["request"], item["request"].replace(" ", "_"))
            if request == "grail":          # leave to see the Grail, or to seek it (grail.py)
                from companion.koc.engine import grail

                grail.request(s, people, item, asked)
                continue
            who = choose(s, people, request, item.get("of"))
            if who is None and edition(s.game.state) >= NOBODY_WHERE:
                from companion.koc.engine.turn import place_text

                s.tell(f"Nobody {place_text(s)} can grant the request '{item['request']}'"
                       + (f" (asked of {item['of']})." if item.get("of") else "."))
                continue
            if who is None:
                s.tell(f"Nobody present can grant the request '{item['request']}'"
                       + (f" (asked of {item['of']})." if item.get("of") else "."))
                continue
            if who["name"] in asked:
                s.tell(f"Only one request of {who['name']} a turn.")
                continue
            asked.add(who["name"])
            if adventures.owed_request(s, who, request):    # promised by an adventure
                continue
            grant(s, who, request, bonus=persistence(s, who, request))
    finally:
        pk.pop("host", None) if pk.get("host", {}).get("turn") != turn else None
        discard_met(s, met)


def persistence(s: Session, who: dict, request: str) -> int:
    """+1 for each earlier consecutive turn of the same request of the same person (not of
    fellow travellers, not of King Arthur), standing in the same place."""
    pk = s.pk
    if who.get("traveller") or who["role"] in ("arthur", "pk"):
        return 0
    key = f"{who['name']}:{request}"
    prev = pk["persistence"].get("request")
    turn = turn_no(s)
    bonus = 0
    if prev and prev["key"] == key and prev["turn"] == turn - 1 and prev["at"] == pk["at"]["area"]:
        bonus = prev["count"] + 1
    pk["persistence"]["request"] = {"key": key, "turn": turn, "count": bonus,
                                    "at": pk["at"]["area"]}
    return bonus


def discard_met(s: Session, met: list[dict]) -> None:
    """The cards of persons met go back to their decks unless they stayed with the PK."""
    pk = s.pk
    keep = {c["name"] for c in pk["comrades"] + pk["men_at_arms"]}
    keep |= {e["name"] for e in pk["party_extra"]}
    keep |= {p["name"] for p in (pk.get("knave") or {}).get("prisoners", [])}   # KNAVES
    for role in ("lord", "lady"):
        if pk[role]:
            keep.add(pk[role]["name"])
    from companion.koc.engine import party

    for rec in party.records(s)[1:]:
        # a fellow of his party who has yet to make his requests, or who took the person along
        keep |= {c["name"] for c in rec["comrades"] + rec["men_at_arms"]}
        for m in rec.get("met", []):
            cards = m.get("card")
            keep |= {c.get("name") for c in (cards if isinstance(cards, list) else [cards])
                     if isinstance(c, dict)}
    for m in met:
        cards = m.get("card")
        for card in cards if isinstance(cards, list) else [cards]:
            if not isinstance(card, dict) or not card.get("name") or card["name"] in keep:
                continue
            deck = {"knight": "knights", "king": "kings", "lady": "ladies"}.get(
                card.get("kind") or m.get("kind"))
            if deck and card["name"] in {c.name for c in getattr(
                    s.world, deck)}:
                s.game.discard(deck, card["name"])


# ============================================================================== granting
def grant(s: Session, person_: dict, request: str, *, automatic: bool = False,
          bonus: int = 0) -> bool:
    """One request of one person: his ability, the Luck Test (persistence ``bonus``), the
    automatic grants (Lord and Lady heal; a PK castle owner's appeal to jailor), then the
    effect."""
    pk = s.pk
    p = as_person(s, person_)
    label = s.world.requests[request].label if request in s.world.requests else request
    why = allowed(s, p, request)
    if why:
        s.tell(f"{why} ({label}).")
        return False
    why = barred(s, p, request)
    if why:
        s.tell(why)
        return False
    from companion.koc.engine import knaves

    why = knaves.cannot_grant(s, p["name"]) or knaves.service_refused(s, p, request)
    if why:
        s.tell(why)
        return False
    if p["role"] == "arthur":
        return arthur_request(s, p, request)
    s.note(f"{pk['name']} asks {p['name']} for: {label}.")
    if p["role"] == "pk" and request in ("heal", "lift_enchantment"):
        return pk_grants(s, p, request)
    if p["role"] == "pk" and request == "welcome":
        q = Question("grant_request", f"{pk['name']} asks you to welcome a fellow knight to "
                     "your castle. Grant it?", ["yes", "no"], "yes")
        if s.ask_other(p["player"], q) != "yes":
            s.note(f"{p['name']} refuses.")
            return False
        return perform(s, p, request)
    if p.get("meet") and not automatic:
        if not meet_owner(s, p):
            return False
    if request == "service" and p["role"] == "lady" and p.get("owner") and \
            not p.get("own_lady") and not lady_still_friendly(s, p):
        return False
    auto = automatic or (request == "heal" and (p.get("lord") or p.get("own_lady"))) or \
        (request == "appeal_to_jailor" and (p.get("pk_owner") or (
            p.get("owner") and edition(s.game.state) >= JAILOR_HEARS_APPEALS)))
    if request == "service" and p["role"] == "king" and pk["lord"] and \
            pk["lord_summons"] and edition(s.game.state) >= SUMMONS_COSTS_THE_TRY:
        s.gain_vp(-6, "seeking another Lord while under his Lord's summons")
    if not auto and not s.luck_test(f"{p['name']} grants the request", bonus=bonus):
        s.note(f"{p['name']} does not grant the request.")
        if request == "service":
            pk.setdefault("declined", {})[p["name"]] = [pk["cp"], pk["vp"]]
        return False
    return perform(s, p, request)


def barred(s: Session, p: dict, request: str) -> str | None:
    pk = s.pk
    if pk["lord"] is None and (request in NO_LORD_BARS or
                               (request == "join" and p["role"] == "arthurian_knight")):
        return "Without a Lord he cannot make that request."
    if request == "escort" and p["role"] in ("king", "lady", "arthur") and \
            not pk["gear"]["horse"]:
        if edition(s.game.state) >= ESCORT_ON_HORSEBACK:
            return (f"{p['name']} rides: a King or Lady is escorted only on horseback, and "
                    f"{pk['name']} has no horse.")
        if pk["lord"] is None and p["role"] != "arthur":
            return "Without a Lord he may escort a King or Lady only on horseback."
    if request in ("join", "men_at_arms", "dwarf", "escort") and \
            "always_travel_alone" in pk["oaths"]:
        if rs.oath_binds(s, "always_travel_alone", "taking on company"):
            return "His oath to travel alone forbids it."
    if request == "service" and p["role"] in ("king", "arthur") and \
            "serve_only_present_lord" in pk["oaths"] and pk["lord"]:
        if rs.oath_binds(s, "serve_only_present_lord", "serving another Lord"):
            return "His oath binds him to his present Lord."
    if request == "service":
        before = pk.get("declined", {}).get(p["name"])
        if before and before == [pk["cp"], pk["vp"]]:
            return (f"{p['name']} declined him before; he must earn some CP or VP before "
                    "asking again.")
        if p["role"] == "lady":
            if pk["lady"]:
                return "He already serves a Lady."
            if pk["comrades"] or p.get("alone") is False:
                return "A Lady is courted only when he is alone with her (no comrades, her " \
                       "escort gone)."
        if p["role"] in ("king", "arthur") and pk["lord"] and pk["lord"]["name"] == p["name"]:
            return f"He already serves {p['name']}."
    if request == "dwarf" and pk["dwarf"]:
        return "He already has a Dwarf."
    if request == "men_at_arms" and pk["men_at_arms"]:
        return "He already has Men-at-Arms."
    if request == "arthurs_favour" and p.get("card", {}).get("player"):
        return "Arthurian player knights cannot grant Arthur's Favour."
    if request == "pardon" and not pardon_lands(s, p):
        return f"{p['name']} has no exile of his to lift."
    if request == "castle" and pk.get("own_castle"):
        return "He already holds a castle."
    if request == "token" and not p.get("own_lady"):
        return "Only his own Lady gives him her Token."
    return None


def meet_owner(s: Session, p: dict) -> bool:
    """A Luck Test to be received by a friendly castle's owner; a PK persisting at the same
    castle is received without testing again."""
    pk = s.pk
    turn = turn_no(s)
    prev = pk["persistence"].get("owner")
    if prev and prev.get("castle") == p.get("castle") and prev.get("turn") in (turn - 1, turn):
        pk["persistence"]["owner"] = {"castle": p.get("castle"), "turn": turn}
        return True
    if s.luck_test(f"meet {p['name']}, the castle's owner"):
        pk["persistence"]["owner"] = {"castle": p.get("castle"), "turn": turn}
        return True
    s.note(f"{p['name']} does not receive {pk['name']} this turn.")
    return False


def lady_still_friendly(s: Session, p: dict) -> bool:
    """A Lady friendly only because her castle is must first be met: her reaction is rolled,
    and the request goes on only if she is friendly."""
    from companion.koc.engine import encounters

    out = encounters.meet_lady(s, p["card"], status=False, ask=False)
    if getattr(out, "attitude", None) != "friendly" or s.pk["lady"]:
        s.note(f"{p['name']} is not friendly now: no courtship.")
        return False
    return True


def pk_grants(s: Session, p: dict, request: str) -> bool:
    """Another player knight is asked (his standing orders decide; sworn to grant every
    request, he must)."""
    pk = s.pk
    player = p["player"]
    orec = s.game.state["knights"][player]
    if "always_grant_requests" in orec["oaths"]:
        yes = True
    else:
        q = Question("grant_request", f"{pk['name']} asks you to pray for him "
                     f"({request.replace('_', ' ')}). Grant it?", ["yes", "no"], "yes")
        yes = s.ask_other(player, q) == "yes"
    if not yes:
        s.note(f"{p['name']} refuses.")
        return False
    if request == "heal" and not pk["poison"]:
        s.tell("He has no poisoned wound to heal.")
        return False
    other = rs.other_session(s, player)
    if other.vl_test(kn.vl(orec), f"prayer for {pk['name']}"):
        other.gain_vp(6, "a successful prayer (aid rendered)")
        prayer_effect(s, request)
        return True
    s.note(f"{p['name']}'s prayer is not answered.")
    return False


def prayer_effect(s: Session, request: str, *, all_wounds: bool = False) -> None:
    pk = s.pk
    if request == "heal":
        n = kn.cure_poison(pk, None if all_wounds else 1)
        s.note(f"{n} of {pk['name']}'s poisoned wounds " + ("is" if n == 1 else "are")
               + f" cured; WL {kn.wl(pk)}.")
    elif request == "lift_enchantment":
        ench = rs.choose_enchantment(s)
        if ench:
            rs.lift_enchantment(s, ench)


def person_prays(s: Session, p: dict, why: str) -> bool:
    card = dict(p["card"])
    card.setdefault("kind", "hermit" if p["role"] == "hermit" else card.get("kind"))
    if p["role"] == "hermit":
        card["kind"] = "hermit"
    return service.pray(s, card, why)


def perform(s: Session, p: dict, request: str) -> bool:
    """The effect of a granted request."""
    pk = s.pk
    name = p["name"]
    role = p["role"]
    if request == "adventure":
        source = dict(p["card"])
        source["as"] = "own_lord" if p.get("lord") else "own_lady" if p.get("own_lady") \
            else ("castle" if p.get("owner") else role)
        source["in_own_castle"] = bool(p.get("own_castle"))
        return rs.adventure_news(s, source, requested=True) is not None
    if request == "appeal_to_jailor":
        return appeal_for_prisoner(s, p)
    if request == "arthurs_favour":
        pk["arthur"]["favour"] = True
        s.note(f"{name} will speak for {pk['name']} to King Arthur.")
        return True
    if request == "castle":
        source = dict(p["card"])
        source["as"] = "own_lord"
        task = rs.adventure_news(s, source, requested=True, grants_castle=True)
        if task:
            s.note(f"{name} will grant {pk['name']} a castle once the adventure is done.")
        return task is not None
    if request == "dwarf":
        spares = [g for g in kn.GEAR if pk["gear"][g]] if pk["lord"] is None else list(kn.GEAR)
        pk["dwarf"] = {"arthurian": role == "arthur", "spares": spares}
        s.note(f"{name} gives {pk['name']} a Dwarf" + (" of Camelot" if role == "arthur" else "")
               + f" carrying {', '.join(spares) if spares else 'nothing'}.")
        return True
    if request == "escort":
        return start_escort(s, p)
    from companion.koc.engine import knaves

    if knaves.curse_request(s, p, request):
        return True         # the first step to lift a Knave's curse (then Rome)
    if request == "heal":
        if not pk["poison"]:
            s.tell(f"{pk['name']} has no poisoned wound.")
            return False
        if role in ("hermit", "arthur"):
            prayer_effect(s, "heal", all_wounds=True)
            return True
        if person_prays(s, p, f"to heal {pk['name']}"):
            prayer_effect(s, "heal")
            return True
        s.note(f"{name}'s prayer is not answered.")
        return False
    if request == "join":
        if role == "dwarf":
            pk["dwarf"] = {"arthurian": False, "spares": []}
            s.note(f"The Dwarf joins {pk['name']} (carrying no spare equipment).")
            return True
        card = dict(p["card"])
        card["joined"] = turn_no(s)
        card["wounds"] = 0
        pk["comrades"].append(card)
        s.note(f"{name} joins {pk['name']} as a comrade.")
        return True
    if request == "lift_enchantment":
        if not pk["enchantments"]:
            s.tell(f"{pk['name']} is under no enchantment that prayer can lift.")
            return False
        if role in ("hermit", "arthur") or person_prays(s, p, f"to lift {pk['name']}'s "
                                                              "enchantment"):
            prayer_effect(s, "lift_enchantment")
            return True
        s.note(f"{name}'s prayer is not answered.")
        return False
    if request == "men_at_arms":
        return men_at_arms(s, p)
    if request == "pardon":
        for land in pardon_lands(s, p):
            pk["exiles"].remove(land)
            for task in tasks.active(s):
                if task["kind"] == "leave" and land in task.get("leave", []):
                    task["status"] = "done"
            s.note(f"{name} pardons {pk['name']}: his exile from {land} is lifted.")
        return True
    if request == "pilgrimage":
        shrine = tasks.random_shrine(s)
        tasks.add(s, "pilgrimage", shrine, awards={"vp": 12}, penalty_vp=12,
                  why=f"a pilgrimage granted by {name}")
        return True
    if request == "release_enchantress_service":
        if not pk.get("enchantress"):
            s.tell(f"{pk['name']} serves no Enchantress.")
            return False
        service.lose_lady(s, f"{name} frees him from her spell")
        return True
    if request == "release_oath":
        return rs.release_oath(s) is not None
    if request == "service":
        if role == "lady":
            service.enter_lady_service(s, p["card"], courted=True)
            pk.pop("courting", None)
            return True
        paid = p["role"] == "king" and edition(s.game.state) >= SUMMONS_COSTS_THE_TRY
        return service.change_lord(s, p["card"], summons_vp=0 if paid else 6)
    if request == "token":
        pk["token"] = True
        s.note(f"{name} gives {pk['name']} her Token.")
        return True
    if request == "welcome":
        return welcome(s, p)
    return False


def pardon_lands(s: Session, p: dict) -> list[str]:
    pk = s.pk
    card = p["card"]
    lands = []
    for land in pk["exiles"]:
        if card.get("castellan") == land or card.get("kingdom") == land:
            lands.append(land)
        elif p["role"] == "arthur" and land in s.world.castellanies:
            lands.append(land)
    return lands


def men_at_arms(s: Session, p: dict) -> bool:
    pk = s.pk
    role = p["role"]
    if role == "arthur":
        n = s.d6("how many Arthurian Men-at-Arms King Arthur gives")
        if (pk.get("office") or {}).get("key") == "war_duke":      # Signal Honour
            n = min(6, n + s.dice(1, "the War Duke's extra Men-at-Arms", sides=3)[0])
    elif p.get("lord"):
        n = 3
    else:
        n = (s.d6("how many Men-at-Arms (1-3)") + 1) // 2
    for _ in range(n):
        card = rs.draw_knight(s, "a Man-at-Arms", arthurian=True if role == "arthur" else None)
        card["joined"] = turn_no(s)
        card["wounds"] = 0
        pk["men_at_arms"].append(card)
    s.note(f"{p['name']} gives {pk['name']} {n} Man(-Men)-at-Arms: "
           + ", ".join(m["name"] for m in pk["men_at_arms"]) + ".")
    return True


def nearest_royal_castle(s: Session) -> str:
    here = s.pk["at"]["area"]
    best, best_d = None, None
    for kingdom in sorted(s.world.kingdoms):
        castle = s.world.kingdoms[kingdom].royal_castle
        if castle == here:
            continue
        d = tasks.land_distance(s, here, castle)
        if d is not None and (best_d is None or d < best_d):
            best, best_d = castle, d
    return best or tasks.random_royal_castle(s)


def start_escort(s: Session, p: dict) -> bool:
    pk = s.pk
    role = p["role"]
    card = p["card"]
    if role == "hermit":
        dest = tasks.random_shrine(s)
        pk["party_extra"].append({"kind": "hermit", "name": p["name"], "walks": True,
                                  "rides": False, "person": card})
        tasks.add(s, "escort", dest, awards={"per_turn": True}, walk=True,
                  why=f"escorting {p['name']} on foot", person=card)
        return True
    chart = "king_escort" if role in ("king", "arthur") else "lady_escort"
    key = s.chart(chart, purpose=f"where {p['name']} is bound").entry.key
    if key == "own_castle":
        if role in ("king", "arthur"):
            castle = s.world.kingdoms[card["kingdom"]].royal_castle
        else:
            castle = tasks.place_castle(s, card["castle"], p["name"], "lady")
    elif key == "nearest_royal_castle":
        castle = nearest_royal_castle(s)
    elif key == "random_shrine":
        castle = tasks.random_shrine(s)
    else:
        own = s.world.kingdoms[card["kingdom"]].royal_castle if card.get("kingdom") else None
        castle = tasks.random_royal_castle(s, exclude=(own,) if own else ())
    dest = tasks.castle_area(s, castle)
    pk["party_extra"].append({"kind": role, "name": p["name"], "horse": True, "person": card})
    tasks.add(s, "escort", dest, awards={"per_turn": True}, grace=1,
              why=f"escorting {p['name']} to {castle}", person=card, castle=castle)
    return True


def welcome(s: Session, p: dict) -> bool:
    pk = s.pk
    castle = p.get("castle") or rs.castle_here(s)
    if castle == "Camelot Castle":
        s.tell("Camelot Castle befriends nobody for another's sake.")
        return False
    others = [pl for pl, rec in s.game.state["knights"].items()
              if pl != s.player and not rec["slain"] and rec["at"] == pk["at"]]
    if not others:
        s.tell("No other player knight is with him to be welcomed.")
        return False
    if len(others) > 1:
        q = Question("welcome_for", "Welcome which fellow knight: "
                     + ", ".join(others) + "?", ["first", "last"], "first")
        other = others[0] if s.ask(q) == "first" else others[-1]
    else:
        other = others[0]
    orec = s.game.state["knights"][other]
    if castle not in orec["friendly"]:
        orec["friendly"].append(castle)
    s.note(f"{castle} will always welcome {orec['name']}.")
    return True


def appeal_for_prisoner(s: Session, p: dict) -> bool:
    """One free Appeal to Jailor for a prisoner of this castle: another player knight held
    here, the prisoner the PK came to free, or a knight in a PK's cells."""
    pk = s.pk
    castle = p.get("castle") or rs.castle_here(s)
    for player, rec in s.game.state["knights"].items():
        if player != s.player and rec.get("prison") and rec["prison"]["castle"] == castle:
            card = {"kind": "pk", "name": rec["name"]}
            if rs.appeal_to_jailor(s, castle=castle, prisoner=card, appealer="pk"):
                rs.release_pk(rs.other_session(s, player), card.get("release_gear", "own"))
                return True
            return False
    for task in tasks.active(s):
        if task.get("on_done") == "rescue" and task.get("castle") == castle:
            if rs.appeal_to_jailor(s, castle=castle, prisoner=task["prisoner"], appealer="pk"):
                rs.freed(s, task)
                task["status"] = "done"
                return True
            task["attempts"] = task.get("attempts", 0) + 1
            return False
    if p.get("pk_owner"):
        orec = s.game.state["knights"][p["player"]]
        for prisoner in list(orec.get("prisoners", [])):
            if prisoner.get("kind") != "pk":
                if rs.appeal_to_jailor(s, castle=castle, prisoner=prisoner, appealer="pk"):
                    orec["prisoners"].remove(prisoner)
                    rs.befriend(s, prisoner)
                    return True
                return False
    s.tell(f"Nobody is held in {castle} to appeal for.")
    return False


# ============================================================================== King Arthur
def arthur_task_undone(pk: dict) -> bool:
    """Whether King Arthur set the knight a task not yet done: he hears no request until then
    (read only, for the legal-orders list; ``sync_arthur_task`` settles a failed journey)."""
    task = pk["arthur"].get("task")
    if not task:
        return False
    if not task.get("task_id"):
        return True
    rec = next((t for t in pk["tasks"] if t["id"] == task["task_id"]), None)
    return rec is not None and rec["status"] not in ("failed", "cancelled")


def sync_arthur_task(s: Session) -> None:
    """A task King Arthur set whose journey failed (a detour, a delay) is failed."""
    a = s.pk["arthur"]
    task = a.get("task")
    if not task or not task.get("task_id"):
        return
    rec = next((t for t in s.pk["tasks"] if t["id"] == task["task_id"]), None)
    if rec is None or rec["status"] in ("failed", "cancelled"):
        arthur_task_done(s, success=False)


def arthur_request(s: Session, p: dict, request: str) -> bool:
    """A request of King Arthur: his own chart instead of a Luck Test (+1 for Arthur's Favour,
    the bonus of tasks done, the King's Honour); a petition to join the Round Table below 100
    CP or at VL 6 or more is refused with exile."""
    pk = s.pk
    a = pk["arthur"]
    label = s.world.requests[request].label if request in s.world.requests else request
    s.note(f"{pk['name']} asks King Arthur for: {label}.")
    sync_arthur_task(s)
    if a.get("task"):
        s.note("King Arthur will hear no request while his task is undone.")
        return False
    if request not in ARTHUR_CAN:
        s.tell("King Arthur does not grant that.")
        return False
    if request == "service" and pk["arthurian"]:
        s.tell(f"{pk['name']} already serves King Arthur.")
        return False
    if request == "grail":
        from companion.koc.engine import grail

        why = grail.arthur_refusal(s)
        if why:
            s.tell(why)
            return False
    if request == "service" and refused_for_prophecy(s):
        return False
    if request == "castle" and not (pk["lord"] and pk["lord"]["name"] == ARTHUR):
        s.tell("A castle is asked only of one's own Lord.")
        return False
    terms = scenarios.terms_of(s.game.state)
    if request == "service" and (pk["cp"] < terms["petition_cp"]
                                 or kn.vl(pk) > terms["petition_max_vl"]):
        s.note(f"{pk['name']} is not yet worthy of the Round Table ({terms['petition_cp']} CP "
               f"and VL {terms['petition_max_vl']} or better are needed).")
        key, total = "exiles", 2
    elif request == "service" and "serve_only_present_lord" in pk["oaths"] and pk["lord"] and \
            rs.oath_binds(s, "serve_only_present_lord", "serving King Arthur"):
        return False
    else:
        modifier = a.get("bonus", 0)
        if a.get("favour"):
            modifier += 1
            if a.get("permanent"):      # his for ever (Foreign War, line U)
                s.note("Arthur's lasting Favour speaks for him (+1).")
            else:
                a["favour"] = False
                s.note("Arthur's Favour speaks for him (+1); it is spent.")
        if a.get("honour"):
            modifier += a.pop("honour")
            s.note("The King's Honour from the great tournament counts (+2).")
        result = s.chart("king_arthur", modifier=modifier, purpose="King Arthur's answer")
        key, total = result.entry.key, result.totals[0]
    if total <= 6 and pk.get("office"):
        from companion.koc.engine.tournaments import lose_office

        lose_office(s, "King Arthur's displeasure")     # a Signal Honour is forfeit
    if total >= 8 and "Camelot Castle" not in pk["friendly"]:
        pk["friendly"].append("Camelot Castle")
        rs.end_temp_friendly(s, "Camelot Castle")
        s.note("King Arthur looks kindly on him: Camelot Castle is now friendly to him.")
    return arthur_answer(s, key, request)


def arthur_answer(s: Session, key: str, request: str) -> bool:
    pk = s.pk
    a = pk["arthur"]
    if key == "exiles":
        s.note(f"King Arthur refuses and banishes {pk['name']} from Camelot and Jagent.")
        if "Camelot Castle" in pk["friendly"] and not pk["arthurian"]:
            pk["friendly"].remove("Camelot Castle")
        rs.end_temp_friendly(s, "Camelot Castle")
        if pk["at"]["area"] == "Camelot Castle":
            pk["at"] = {"area": "Camelot Castle", "where": "gate"}
        rs.exile(s, ["Jagent"], "King Arthur's displeasure")
        return False
    if key == "doubts_honour":
        s.note("King Arthur doubts his honour and refuses.")
        s.gain_vp(-6, "King Arthur doubts his honour")
        return False
    if key == "grants":
        return arthur_grants(s, request)
    task = {"kind": key, "request": request}
    a["task"] = task
    if key == "task_slay_monster":
        monster = s.game.draw_chit("monster", "the monster King Arthur wants slain")
        area = tasks.deploy_castle_area(s, "where the monster lurks")
        t = tasks.add(s, "arthur_task", area, awards={}, route=None,
                      why=f"King Arthur's task: slay the {monster['name']} in {area}",
                      on_done="arthur_monster", monster=monster,
                      find={"what": f"the {monster['name']}", "area": area,
                            "then": "arthur_monster"})
        task["task_id"] = t["id"]
    elif key in ("task_adventure", "task_mad_knight", "task_brigands"):
        rolled = {"task_mad_knight": "mad_knight", "task_brigands": "vanquish_brigands"}.get(key)
        if key == "task_adventure" and request == "adventure":
            a["task"] = None
            s.note("King Arthur sends him on the adventure he asked for.")
            rs.adventure_news(s, {"kind": "king", "name": ARTHUR}, arthur_task=False)
            return True
        t = rs.adventure_news(s, {"kind": "king", "name": ARTHUR}, rolled=rolled,
                              arthur_task=True)
        if t is not None:
            t["arthur_task"] = key
            task["task_id"] = t["id"]
    elif key == "task_joust":
        if pk["animal"]:
            a["task"] = None
            s.note("He cannot joust in animal form: King Arthur answers again.")
            result = s.chart("king_arthur", modifier=a.get("bonus", 0),
                             purpose="King Arthur's answer (again)")
            return arthur_answer(s, result.entry.key, request)
        t = tasks.add(s, "arthur_joust", None, awards={}, route=None,
                      why="King Arthur's task: joust with three of his knights",
                      knights=3, arthurian=True, site="Camelot Castle")
        task["task_id"] = t["id"]
        pk["arthur"]["joust"] = {"knights": 3, "request": request, "task_id": t["id"]}
    elif key == "task_message":
        for _ in range(30):
            res = s.chart("random_kingdom", purpose="where King Arthur's message goes")
            if not res.entry.get("castellany"):
                break
            s.note("A castellany of Logres: roll again.")
        castle = s.world.kingdoms[res.entry.get("kingdom")].royal_castle
        t = tasks.add(s, "arthur_task", castle, awards={}, needs="friendly_castle",
                      why=f"King Arthur's task: carry his message to {castle}",
                      on_done="arthur_message")
        task["task_id"] = t["id"]
    elif key in ("task_court", "task_feast"):
        turns = 2 if key == "task_court" else 1
        pk["immobile"].append({"why": "attending King Arthur's court" if turns == 2 else
                               "feasting at King Arthur's table", "turns": turns,
                               "then": "arthur_court" if turns == 2 else "arthur_feast",
                               "request": request})
        s.note(f"King Arthur will grant the request if {pk['name']} spends {turns} "
               f"{plural(s, turns, 'turn')} at "
               "his " + ("court." if turns == 2 else "feast."))
    return False


def arthur_task_done(s: Session, *, success: bool, return_grant: bool = False) -> None:
    """A task King Arthur set is over: on success a cumulative bonus on his answers (+2 for the
    monster, +1 otherwise; none for an adventure he was asked for), Camelot friendly on the
    return, and for the message, the brigands and the joust the request itself."""
    pk = s.pk
    a = pk["arthur"]
    task = a.get("task") or {}
    a["task"] = None
    if not success:
        s.note("King Arthur's task has failed: Camelot Castle will not be friendly on his "
               "return.")
        rs.end_temp_friendly(s, "Camelot Castle")
        return
    kind = task.get("kind")
    gain = 2 if kind == "task_slay_monster" else 1
    if kind == "task_adventure" and task.get("request") == "adventure":
        gain = 0
    a["bonus"] = a.get("bonus", 0) + gain
    s.note(f"King Arthur's task is done: +{gain} on his answers from now on (total "
           f"{a['bonus']}).")
    rs.temp_friendly(s, "Camelot Castle")
    if kind in ("task_message", "task_brigands", "task_joust") or return_grant:
        a["owed"] = task.get("request")


def arthur_grants(s: Session, request: str | None, *, why: str = "") -> bool:
    """King Arthur grants a request (his prayers always succeed; he heals every wound)."""
    pk = s.pk
    if not request:
        return False
    s.note("King Arthur grants the request" + (f" ({why})." if why else "."))
    p = person({"kind": "king", "name": ARTHUR, "vl": 1, "kingdom": "Logres",
                "castle": "Camelot Castle"}, "arthur",
               lord=bool(pk["lord"] and pk["lord"]["name"] == ARTHUR))
    if request == "service":
        return round_table_test(s)
    if request == "grail":              # the Campaign's leave to seek the Grail: no VL test
        from companion.koc.engine import grail

        return grail.arthur_permits(s)
    if request == "adventure":
        return rs.adventure_news(s, {"kind": "king", "name": ARTHUR}, requested=True) is not None
    return perform(s, p, request)


def refused_for_prophecy(s: Session) -> bool:
    """A knight holding a Prophecy he has not attempted may not petition for the Round Table
    (ADVENTURES, Prophecies): the petition is refused, with nothing rolled."""
    from companion.koc.engine.adventures import ident, prophecy_pending

    task = prophecy_pending(s.pk)
    if task is None:
        return False
    s.note(f"King Arthur will not hear {s.pk['name']}'s petition for the Round Table until he "
           f"has attempted the adventure of his Prophecy ({ident(task)}).")
    return True


def round_table_test(s: Session) -> bool:
    """The petition is heard: a VL test of VL+1 makes him a Knight of the Round Table; failing,
    he may ask again with another +1."""
    pk = s.pk
    if refused_for_prophecy(s):
        return False
    if s.vl_test(kn.vl(pk) + 1, "worthy of the Round Table (VL+1)"):
        arthur = {"kind": "king", "name": ARTHUR, "vl": 1, "kingdom": "Logres",
                  "castle": "Camelot Castle"}
        service.change_lord(s, arthur)
        if "Camelot Castle" not in pk["friendly"]:
            pk["friendly"].append("Camelot Castle")
        pk["arthurian"] = True
        from companion.koc.engine import victory

        if not (victory.goal(s.game.state) == "round_table"
                and victory.declare(s, victory.KNIGHT, "is made a Knight of the Round Table")):
            s.announce(f"{pk['name']} is made a Knight of the Round Table.")
        return True
    pk["arthur"]["bonus"] = pk["arthur"].get("bonus", 0) + 1
    s.note(f"{pk['name']} is found not yet worthy; his next petition gains +1.")
    return False


# ============================================================================== prayers
def vigil_prayer(s: Session) -> None:
    """At a dying kinsman's side the PK prays every turn: success (6 VP) ends the vigil; after
    the third failure the kinsman dies."""
    pk = s.pk
    vigil = pk["vigil"]
    pk["prayed"] = turn_no(s)
    vigil["prayers"] = vigil.get("prayers", 0) + 1
    if s.vl_test(kn.vl(pk), "prayer for a dying kinsman"):
        s.note(f"The kinsman recovers through {pk['name']}'s prayer.")
        s.gain_vp(6, "a successful prayer (aid rendered)")
        end = True
    elif vigil["prayers"] >= 3:
        s.note(f"After three turns of prayer the kinsman dies; {pk['name']}'s vigil is over.")
        end = True
    else:
        s.note("The kinsman lingers.")
        end = False
    if end:
        pk["vigil"] = None
        pk["immobile"] = [h for h in pk["immobile"] if not h.get("vigil")]
        rs.end_temp_friendly(s, vigil.get("castle"))


EFFECTS = {"heal": "heal", "cure": "heal", "wounds": "heal", "lift": "lift",
           "enchantment": "lift", "wake": "lift", "sanity": "sanity", "madness": "sanity",
           "cure madness": "sanity", "lift enchantment": "lift", "health": "relative"}


SELF_WORDS = ("me", "myself", "himself", "herself")


def prayer_target(state: dict, player: str, text: str, *, prefix: bool = True
                  ) -> tuple[str, object]:
    """Whom ``pray for <text>`` names, from what the praying knight knows: ('relative', None),
    ('self', None), ('pk', player), ('mad', the bound Mad Knight's party entry), ('comrade',
    his card), or ('unknown', close names). A knight is named by his name or his player's, in
    full or by a beginning that fits one knight only."""
    import difflib

    pk = state["knights"][player]
    wanted = fold(text).removeprefix("the ").strip()
    if wanted in ("relative", "kinsman"):
        return "relative", None
    if wanted in (fold(pk["name"]), fold(player), *SELF_WORDS):
        return "self", None
    others = {fold(name): who for who, rec in state["knights"].items()
              if who != player and not rec["slain"] for name in (rec["name"], who)}
    found = others.get(wanted)
    if found is None and prefix:
        fitting = {who for name, who in others.items() if name.startswith(wanted)}
        found = fitting.pop() if len(fitting) == 1 else None
    if found is not None:
        return "pk", found
    for e in pk["party_extra"]:
        if e.get("kind") == "bound_mad_knight" and (wanted in fold(e["name"]) or
                                                   wanted in ("mad knight", "madman")):
            return "mad", e
    for c in pk["comrades"] + pk["men_at_arms"]:
        if wanted and wanted in fold(c["name"]):
            return "comrade", c
    names = [rec["name"] for who, rec in state["knights"].items()
             if who != player and not rec["slain"]]
    return "unknown", difflib.get_close_matches(text, names, n=2, cutoff=0.5)


def prayer_order(s: Session, item: dict) -> None:
    """A 'pray for <someone> [to <effect>]' order."""
    pk = s.pk
    if pk.get("prayed") == turn_no(s):
        s.tell("Only one prayer a turn: it has been said already.")
        return
    effect = EFFECTS.get(fold(item["to"] or "").strip()) if item.get("to") else None
    later = edition(s.game.state) >= 1      # edition 0: full names only; comrades prayed for
    kind, target = prayer_target(s.game.state, s.player, item["for"], prefix=later)
    if kind == "relative":
        if not pk.get("vigil"):
            s.tell("No kinsman of his lies dying here.")
    elif kind == "self":
        s.tell("A knight may not pray for himself.")
    elif kind == "pk":
        pray(s, pk, {"kind": "pk", "player": target}, effect)
    elif kind == "mad":
        pray(s, pk, {"kind": "npk", "card": target["card"]}, "sanity")
    elif kind == "comrade" and not later:
        pray(s, pk, {"kind": "npk", "card": target}, effect or "heal")
    elif kind == "comrade":
        # comrades and Men-at-Arms carry no poisoned wound, enchantment or madness (their
        # hurts heal at the end of the turn): a prayer has nothing to do for them
        s.tell(f"Nothing ails {target['name']} that a prayer could cure: no prayer is said.")
    else:
        s.tell(f"There is nobody called '{item['for']}' here to pray for.")


def pray(s: Session, who: dict, target: dict, effect: str | None) -> bool:
    """A prayer by ``who`` (the PK's record, or a person card) for ``target`` ({'kind': 'pk',
    'player': ...} or {'kind': 'npk', 'card': ...}) to ``effect`` ('heal', 'lift', 'sanity';
    None: what the target needs). A PK's prayer is his one prayer of the turn, a VL test of
    his VL, and earns 6 VP when answered. No prayer works in Faerie."""
    pk = s.pk
    here = s.world.areas[pk["at"]["area"]]
    if here.otherworld:
        s.tell("Prayer does not work in Faerie.")
        return False
    by_pk = who is pk
    if target.get("kind") == "pk" and target.get("player") == s.player and by_pk:
        s.tell("A knight may not pray for himself.")
        return False
    trec = s.game.state["knights"][target["player"]] if target.get("kind") == "pk" else None
    if trec is not None:
        if trec["at"]["area"] != pk["at"]["area"] or (trec["at"]["where"] != pk["at"]["where"]
                                                      and not trec.get("asleep")):
            s.tell(f"{trec['name']} is not here to be prayed for.")
            return False
        if effect is None:
            effect = "sanity" if trec["mad"] else "lift" if trec["enchantments"] else "heal"
        needs = {"sanity": trec["mad"], "lift": trec["enchantments"], "heal": trec["poison"]}
        if not needs.get(effect) and edition(s.game.state) >= 1:
            # a prayer is said to cure or lift something (rules, Prayers): none is said for
            # a knight who lacks what it asks for; it earns nothing and uses no prayer
            s.tell(f"{trec['name']} has " + {"sanity": "no madness", "lift": "no enchantment",
                                             "heal": "no poisoned wound"}.get(effect, "nothing")
                   + " for a prayer to cure: no prayer is said.")
            return False
        if trec.get("asleep") and not find_sleeper(s, trec):
            return False
    if by_pk:
        pk["prayed"] = turn_no(s)
        name = trec["name"] if trec else target["card"]["name"]
        ok = s.vl_test(kn.vl(pk), f"prayer for {name} ({effect})")
    else:
        ok = service.pray(s, who, f"({effect})")
    if not ok:
        s.note("The prayer is not answered.")
        return False
    if by_pk:
        s.gain_vp(6, "a successful prayer (aid rendered)")
    if trec is not None:
        other = rs.other_session(s, target["player"])
        if effect == "sanity":
            service.cure_madness(other, f"{pk['name']}'s prayer")
        elif effect == "lift":
            ench = next((e for e in trec["enchantments"] if e["key"] == "sleep"), None) or \
                (trec["enchantments"][0] if trec["enchantments"] else None)
            if ench:
                rs.lift_enchantment(other, ench)
        elif effect == "heal":
            n = kn.cure_poison(trec, 1)
            other.note(f"{n} of {trec['name']}'s poisoned wounds is cured.")
        return True
    card = target["card"]
    if effect == "sanity":
        s.note(f"{card['name']} is cured of his madness.")
        service.cured_knight_serves(s, card)
    else:
        s.note(f"The prayer for {card['name']} is answered.")
    return True


def find_sleeper(s: Session, trec: dict) -> bool:
    """A knight in an enchanted sleep must first be found (a Luck Test, +1 a turn persisting;
    automatic in a castle or shrine)."""
    pk = s.pk
    return tasks.find_here(s, trec["name"], f"find the sleeping {trec['name']}",
                           found=f"{pk['name']} finds {trec['name']} asleep.",
                           missed=f"{pk['name']} does not find {trec['name']}.")
