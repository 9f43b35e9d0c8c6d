"""The Knave variant's castles, shrines, brigands and pirates (KNAVES: Looting a Shrine, Piracy,
Seizing a Castle by Storm, Encounters with Brigands, Turning Pirate). The Knave core (acts, KVP,
SP) is ``knaves.py``; this module only calls its contract. See docs/koc-engine.md, "Knaves'
castles, shrines, brigands and pirates: decisions".

Hooks other modules call (each does nothing for a knight who is not a Knave):

* ``offer_storm(s, castle, from_ship) -> bool | None``: first thing of a castle encounter: a
  Knave may storm the castle to hold it (question ``knave_storm``); None when he does not (the
  castle encounter goes on), else whether he is inside.
* ``at_shrine(s, area) -> bool``: a Knave at a shrine may loot it (question ``loot_shrine``);
  True when he did (his movement ends).
* ``knave_meets_brigands(m, n, out) -> bool``: a Knave may lead the brigands he meets (a Luck
  Test); True when they follow him.
* ``knave_meets_pirates(m, sea, entry) -> bool``: a Knave may take the pirates over (a Luck
  Test); True when he did.
* ``merchant_sighted(m, sea) -> bool``: a Knave aboard a pirate ship reads "nothing happens"
  at sea as a merchant ship; True when something happened.
* ``fight_first(s, foes) -> list``: his brigands (and aboard, his pirate crew) fight before him;
  the foes left standing.  ``after_fight(s, result)``: beaten, his brigands run.
* ``start_of_turn(s)``: after the Luck-of-the-Day: Camelot's hold and counter-storm, brigands
  left outside a castle or aboard, mounting brigands.
* ``allowance(s, base) -> int``: brigands on foot slow him to the foot rate.
* ``holder(state, castle)``, ``owner_record(s, castle)``, ``defenders_of(s, castle)``,
  ``castle_taken(s, castle)`` (a castle a Knave holds falls to whoever stormed it),
  ``guard_castle(s)`` and ``guards(s, castle)`` (defeated knights sent as reinforcements),
  ``held_cards(state)`` (cards out of the decks as guards), ``beaten_by_pk(winner, loser)``
  (surrender on demand), ``fate_suffered(s, victor, total)`` (an Arthurian's Fate above 4),
  ``horse_taken(s)`` (a horse robbed from a beaten knight, for a brigand).

What it keeps, all in the Knave record ``pk["knave"]`` (the core's ``castles`` lists the names
of the castles he holds)::

    holds      {castle: {"from": original owner's name, "since": turn, "guards": [cards]};
               "from_player": the player whose granted castle it was, if it was one}
    camelot    {"since": turn} while he holds Camelot; camelot_kvp: true once the bonus is won
    brigands   [{"name", "wl", "wounds", "mounted"}]; brigands_out {"castle", "since"}
    horses     spare horses robbed for his brigands
    pirate     true once he commands pirates; fleet [{"name", "wl"}]; captured_in: the sea of
               his last capture (a warship waits there)
"""
from __future__ import annotations

from companion.koc.engine import knight as kn
from companion.koc.engine.questions import Spec, register
from companion.koc.engine.session import Question, Session
from companion.koc.engine.words import plural

CAMELOT = "Camelot Castle"
CARBONEK = "Carbonek"
STORM_TAGS = ("camelot", "royal", "lady", "knight", "knave", "carbonek")
VAGON_LANDING = {1: "Brittany", 2: "Brittany", 3: "Gaul", 4: "Gaul", 5: "Benwick", 6: "Benwick"}
BRIGANDS_STAY_TURNS = 3

register(
    Spec("knave_storm", "as a Knave at a castle (not your Lord's or Lady's, not one you hold): "
         "storm it to hold it (an Act of Villainy if you take it; beaten, you are its prisoner) "
         "or deal with it as usual", ("storm", "no"), "no", tags=STORM_TAGS),
    Spec("loot_shrine", "as a Knave at a shrine: loot it (d6-3 knights defend it; 12 VP; an "
         "Act of Villainy)", ("yes", "no"), "no"),
    Spec("lead_brigands", "as a Knave meeting brigands: try to lead them (a Luck Test; failing, "
         "they attack)", ("yes", "no"), "yes", values=("count",)),
    Spec("brigands_fight", "as a Knave: let your brigands fight before you", ("yes", "no"),
         "yes", tags=("knights", "knight", "king", "monster", "animal", "pk", "brigands")),
    Spec("lead_pirates", "as a Knave meeting pirates: try to make them yours (a Luck Test; "
         "failing, they attack)", ("yes", "no"), "yes"),
    Spec("merchant_ship", "as a pirate Knave sighting a merchant ship (its crew strength "
         "known): attack it or let it sail by", ("attack", "let pass"), "let pass",
         values=("crew",)),
    Spec("pirate_first", "as a pirate Knave boarding a ship: your crew fights first, or you "
         "do (your crew flees when you and your party are beaten)", ("crew", "me"), "crew"),
    Spec("storm_captive", "after storming a castle: imprison its defeated King or Lady there "
         "(an Act of Villainy), or let them go", ("imprison", "let go"), "imprison",
         tags=("king", "lady")),
    Spec("storm_distress", "after storming a Lady's castle: distress her (6 VP; an Act of "
         "Villainy)", ("yes", "no"), "no"),
    Spec("demand_castles", "having beaten a Knave: demand that he gives up the castles he "
         "holds (they go back to their lords)", ("yes", "no"), "yes"),
)


# ============================================================================== records
def _knaves():
    from companion.koc.engine import knaves

    return knaves


def is_knave(pk: dict) -> bool:
    return bool(pk.get("knave")) and _knaves().is_knave(pk)


def turn_no(s: Session) -> int:
    return s.game.state["koc"]["turn"]


def rec(pk: dict) -> dict:
    """The Knave record with this module's fields."""
    r = pk["knave"]
    r.setdefault("castles", [])
    r.setdefault("holds", {})
    r.setdefault("brigands", [])
    r.setdefault("horses", 0)
    r.setdefault("fleet", [])
    return r


def _session_of(s: Session, player: str) -> Session:
    if player == s.player:
        return s
    return Session(s.game, player, parent=s)


def holder(state: dict, castle: str) -> str | None:
    """The player whose Knave holds ``castle``, if any."""
    for player, pk in state["knights"].items():
        k = pk.get("knave")
        if k and not pk["slain"] and castle in (k.get("holds") or {}):
            return player
    return None


def held_cards(state: dict) -> list[str]:
    """Knight cards standing guard in castles Knaves hold (out of the decks)."""
    out = []
    for pk in state["knights"].values():
        for hold in ((pk.get("knave") or {}).get("holds") or {}).values():
            out.extend(g["name"] for g in hold.get("guards", []) if g.get("kind") != "pk")
    return out


def owner_record(s: Session, castle: str) -> dict | None:
    """The Knave holding a castle, as a castle owner (resolutions.castle_owner)."""
    player = holder(s.game.state, castle)
    if player is None:
        return None
    pk = s.game.state["knights"][player]
    return {"kind": "pk", "name": pk["name"], "player": player, "vl": kn.vl(pk),
            "castle": castle}


def guards(s: Session, castle: str) -> list[dict] | None:
    """The guards of a castle a Knave holds (None: no Knave holds it)."""
    player = holder(s.game.state, castle)
    if player is None:
        return None
    return rec(s.game.state["knights"][player])["holds"][castle].setdefault("guards", [])


def guard_castle(s: Session) -> str | None:
    """Where a knight the Knave beat may be sent as a reinforcement: the first castle he holds
    with fewer than six guards."""
    pk = s.pk
    if not is_knave(pk):
        return None
    from companion.koc.engine.service import GUARDS_MAX

    for castle, hold in rec(pk)["holds"].items():
        if len(hold.get("guards", [])) < GUARDS_MAX:
            return castle
    return None


def defenders_of(s: Session, castle: str) -> list[dict] | None:
    """A held castle is defended by its guards (None: no Knave holds it)."""
    found = guards(s, castle)
    return None if found is None else [dict(g) for g in found if g.get("kind") != "pk"]


# ============================================================================== storming
def own_lords_castle(pk: dict, castle: str) -> bool:
    return any(p and p.get("castle") == castle for p in (pk["lord"], pk["lady"]))


def storm_tags(s: Session, castle: str, owner: dict) -> tuple[str, ...]:
    tags = []
    if castle == CAMELOT:
        tags.append("camelot")
    if castle == CARBONEK:
        tags.append("carbonek")
    kind = owner.get("kind")
    if kind == "pk" and owner.get("player") in s.game.state["knights"] and \
            not is_knave(s.game.state["knights"][owner["player"]]):
        kind = "knight"         # a castle granted to a player knight who is no Knave
    tags.append({"king": "royal", "lady": "lady", "pk": "knave"}.get(kind, "knight"))
    return tuple(tags)


def offer_storm(s: Session, castle: str, from_ship: bool = False) -> bool | None:
    pk = s.pk
    if not is_knave(pk) or from_ship or pk["mad"] or pk["animal"] or own_lords_castle(pk, castle):
        return None
    if castle in rec(pk)["holds"]:
        return None
    from companion.koc.engine.resolutions import castle_owner

    owner = castle_owner(s, castle)
    if owner.get("kind") == "pk" and owner.get("player") == s.player:
        return None         # the castle granted to him is his own
    q = Question("knave_storm", f"{pk['name']} stands before {castle}. Storm it and hold it, or "
                 "not?", ["storm", "no"], "no", tags=storm_tags(s, castle, owner))
    if s.ask(q) != "storm":
        return None
    return storm(s, castle)


def _place_throne_room():
    from companion.koc.engine.combat import Place

    return Place(horses=False, lances=False, events=True, name="throne room")


def storm(s: Session, castle: str) -> bool:
    """The Knave storms ``castle`` to hold it. Its knights (Camelot: 2-12 Arthurians; a held
    castle: its guards; else 1-6) must all be beaten; then a King owner fights in his throne
    room (no horse, no lance), a Lady owner with one die. Beaten, he is the castle's prisoner.
    Won: the castle is his (an Act of Villainy), and its loot hires 1-3 guards."""
    from companion.koc.engine import resolutions as res
    from companion.koc.engine.combat import fight, npk

    pk = s.pk
    pk["encountered"] = True
    area = res.tasks.castle_area(s, castle)
    owner = res.castle_owner(s, castle)
    held_by = holder(s.game.state, castle)
    drawn: list[dict] = []
    granted = None          # the guards of a castle granted to another player knight
    if held_by is None and owner.get("kind") == "pk":
        granted = s.game.state.get("castles", {}).get(castle, {}).get("guards") or None
    if held_by is not None:
        cards = defenders_of(s, castle)
        what = f"the guards of {s.game.state['knights'][held_by]['name']}"
    elif granted:
        cards = [dict(g) for g in granted if g.get("kind") != "pk"]
        what = f"the guards of {owner['name']}"
    elif castle == CAMELOT:
        a, b = s.dice(2, "Arthurian knights defending Camelot")
        cards = draw_some(s, a + b, "a defender of Camelot", lambda c: c.arthurian)
        drawn = list(cards)
        what = "Arthurian knights"
    else:
        n = s.d6(f"knights defending {castle}")
        cards = [res.draw_knight(s, f"a defender of {castle}") for _ in range(n)]
        drawn = list(cards)
        what = "its knights"
    before = dict(pk["at"])
    pk["at"] = {"area": area, "where": "gate"}
    if s.game.state.get("castles", {}).get(castle):
        pk["at"]["castle"] = castle
    from companion.koc.engine import party

    party.follow(s, before)
    s.note(f"{pk['name']} storms {castle}: {len(cards)} of {what} defend it"
           + (f" ({', '.join(c['name'] for c in cards)})" if cards else "") + ".")
    won = True
    defeated_names: list[str] = []
    if cards:
        s.storming = True           # brigands enter no castle but his own: they stay out
        try:
            result = fight(s, [npk(c) for c in cards], attacker="pk", on_defeat="none",
                           tags=("knights", "castle"))
        finally:
            s.storming = False
        defeated_names = [f["name"] for f in result.defeated]
        won = result.won
        if held_by is not None or granted:      # a guard beaten is a guard no more
            left_guards = guards(s, castle) if held_by is not None else granted
            left_guards[:] = [g for g in left_guards if g["name"] not in defeated_names]
    for c in drawn:
        if c["name"] not in defeated_names and not pk["slain"]:
            s.game.discard("knights", c["name"])
    if won and held_by is None and owner.get("kind") in ("king", "lady") and not pk["slain"]:
        won = _throne_room(s, castle, owner)
    if pk["slain"]:
        return False
    if not won:
        s.note(f"{castle} holds out; {pk['name']} is taken inside as a prisoner.")
        res.imprison(s, by="castle", jailor=owner.get("name") or f"the lord of {castle}",
                     castle=castle)
        return False
    seize(s, castle, owner, held_by)
    return True


def _throne_room(s: Session, castle: str, owner: dict) -> bool:
    """The King fights in his throne room (no horse, no lance); a Lady with one die. Beaten,
    they are not slain: the Knave may imprison them (and distress the Lady)."""
    from companion.koc.engine.combat import fight, foe, npk

    pk = s.pk
    if owner["kind"] == "king":
        f = npk(owner)
        s.note(f"{owner['name']} meets {pk['name']} in his throne room, on foot.")
        place = _place_throne_room()
    else:
        f = foe("lady", owner["name"], 1, 1, vl=owner.get("vl", 0), card=owner)
        s.note(f"{owner['name']} defends herself with one die.")
        place = None
    f["kept"] = True
    result = fight(s, [f], attacker="pk", on_defeat="none", tags=(owner["kind"], "castle"),
                   place=place, alone=True)
    if not result.won:
        return False
    if owner["kind"] == "king":
        s.gain_cp(f["wl"], f"defeating {owner['name']}")
    k = _knaves()
    if owner["kind"] == "lady":
        q = Question("storm_distress", f"{owner['name']} is at your mercy. Distress her (6 VP)?",
                     ["yes", "no"], "no")
        if s.ask(q) == "yes":
            s.gain_vp(-6, f"distressing {owner['name']}")
            k.commit_act(s, pk, "distress_lady", f"distresses {owner['name']} in {castle}")
    q = Question("storm_captive", f"Imprison {owner['name']} in {castle}?",
                 ["imprison", "let go"], "imprison", tags=(owner["kind"],))
    if s.ask(q) == "imprison":
        kind = "knight" if owner.get("castellan") else owner["kind"]   # a castellan's card
        p = {"name": owner["name"], "kind": kind, "card": dict(owner), "status": "held",
             "castle": castle, "act": True}
        rec(pk)["prisoners"].append(p)
        if kind in ("king", "lady"):
            k.withhold_card(s, owner["name"], kind)     # out of its deck while imprisoned
        s.note(f"{pk['name']} throws {owner['name']} into the dungeon of {castle}.")
        k.commit_act(s, pk, "imprison", f"imprisons {owner['name']} in {castle}")
        tell = getattr(k, "_tell_servants", None)
        if tell is not None:
            tell(s, p)      # Message 2 to a player knight whose Lord or Lady this is
    else:
        s.note(f"{pk['name']} lets {owner['name']} go.")
    return True


def seize(s: Session, castle: str, owner: dict, held_by: str | None) -> None:
    pk = s.pk
    r = rec(pk)
    before = dict(pk["at"])
    pk["at"]["where"] = "inside"
    from companion.koc.engine import party

    party.follow(s, before)
    origin = _original(s, castle, owner, held_by)
    if held_by is not None:
        castle_taken(s, castle, by_knave=True, why=f"stormed by {pk['name']}")
    r["holds"][castle] = {"from": origin, "since": turn_no(s), "guards": []}
    if held_by is None and owner.get("kind") == "pk":
        r["holds"][castle]["from_player"] = owner["player"]
        granted_lost(s, castle, owner)
    if castle not in r["castles"]:
        r["castles"].append(castle)
    s.announce(f"{pk['name']} has taken {castle} by storm and holds it.")
    _knaves().commit_act(s, pk, "storm_castle", f"seizes {castle}")
    if castle == CAMELOT:
        r["camelot"] = {"since": turn_no(s)}
    hire_guards(s, castle)
    if r["brigands"]:
        r.pop("brigands_out", None)
    if castle == CARBONEK:
        q = Question("loot_shrine", "Carbonek's shrine lies open: loot it (12 VP; an Act of "
                     "Villainy)?", ["yes", "no"], "no")
        if s.ask(q) == "yes":
            looted(s, CARBONEK)


def granted_lost(s: Session, castle: str, owner: dict) -> None:
    """The Knave ``s.pk`` took by storm the castle granted to another player knight: that
    knight loses it (he is told); guards still in it are discarded; his own prisoners there,
    if he is a Knave, walk free (no act kept for them)."""
    player = owner["player"]
    other = s.game.state["knights"][player]
    if other.get("own_castle") == castle:
        other["own_castle"] = None
    if castle in other["friendly"]:
        other["friendly"].remove(castle)
    placed = s.game.state.get("castles", {}).get(castle, {})
    for g in placed.pop("guards", None) or []:
        if g.get("kind") != "pk" and not _held_elsewhere(s.game.state, g["name"]):
            s.game.discard("knights", g["name"])
    k = other.get("knave")
    names = []
    if k:
        freed = [p for p in k.get("prisoners", []) if p.get("castle") == castle]
        k["prisoners"] = [p for p in k.get("prisoners", []) if p.get("castle") != castle]
        lords = [c.get("name") for c in s.game.state.get("castellans", {}).values()]
        for p in freed:
            names.append(p["name"])
            if p["name"] in lords:
                continue            # a castellan's card stays his castellany's
            try:
                s.game.discard({"king": "kings", "lady": "ladies"}.get(p.get("kind"),
                                                                       "knights"), p["name"])
            except ValueError:
                pass
    o = _session_of(s, player)
    o.tell(f"Message: {castle}, the castle granted to {other['name']}, is taken by storm by "
           f"the Knave {s.pk['name']}; it is no longer {other['name']}'s."
           + (f" {', '.join(names)} go free." if names else ""))


def _original(s: Session, castle: str, owner: dict, held_by: str | None) -> str:
    if held_by is None:
        return owner.get("name") or castle
    return rec(s.game.state["knights"][held_by])["holds"].get(castle, {}).get("from") or castle


def draw_some(s: Session, n: int, purpose: str, accept) -> list[dict]:
    """Up to ``n`` Knight cards that fit (fewer when the deck has no more of them)."""
    out = []
    for _ in range(n):
        try:
            out.append(s.game.draw("knights", purpose, accept=accept))
        except RuntimeError:
            break
    return out


def hire_guards(s: Session, castle: str) -> None:
    """The castle's loot hires 1-3 random knights (any drawn with a VL under 6 is redrawn)."""
    n = (s.d6(f"guards hired with the loot of {castle}") + 1) // 2
    hired = draw_some(s, n, f"a guard hired for {castle}", lambda c: c.virtue_level >= 6)
    for g in hired:
        g["wounds"] = 0
    rec(s.pk)["holds"][castle]["guards"].extend(hired)
    s.note(f"The loot of {castle} hires {len(hired)} {plural(s, len(hired), 'guard')}: "
           f"{', '.join(g['name'] for g in hired) or 'nobody fit to be found'}.")


def castle_taken(s: Session, castle: str, *, by_knave: bool = False, demanded: bool = False,
                 why: str = "") -> None:
    """The Knave holding ``castle`` loses it: it goes back to its lord; his prisoners there
    walk free (no act kept for them). Stormed by another (``by_knave``: a Knave), the rescuer
    gets no VP here (``resolutions.free_pk_prisoners`` rewards freeing player knights)."""
    player = holder(s.game.state, castle)
    if player is None:
        return
    from companion.koc.engine import resolutions as res

    pk = s.game.state["knights"][player]
    r = rec(pk)
    hold = r["holds"].pop(castle)
    if castle in r["castles"]:
        r["castles"].remove(castle)
    if castle == CAMELOT:
        r.pop("camelot", None)
    for g in hold.get("guards", []):
        if g.get("kind") != "pk" and not _held_elsewhere(s.game.state, g["name"]):
            s.game.discard("knights", g["name"])
    freed = [p for p in r["prisoners"] if p.get("castle") == castle]
    r["prisoners"] = [p for p in r["prisoners"] if p.get("castle") != castle]
    names = [p["name"] for p in freed]
    lords = [c.get("name") for c in s.game.state.get("castellans", {}).values()]
    for p in freed:
        if p["name"] in lords:
            continue            # a castellan's card stays his castellany's
        deck = {"king": "kings", "lady": "ladies"}.get(p.get("kind"), "knights")
        try:
            s.game.discard(deck, p["name"])
        except ValueError:
            pass
    for other, orec in s.game.state["knights"].items():
        if orec.get("prison") and orec["prison"].get("castle") == castle and other != s.player:
            names.append(orec["name"])
            res.release_pk(_session_of(s, other), "own")
    back = hold.get("from_player")      # a castle he stormed from a player knight's grant
    if back in s.game.state["knights"]:
        brec = s.game.state["knights"][back]
        if not brec["slain"] and not brec.get("own_castle"):
            brec["own_castle"] = castle
            if castle not in brec["friendly"]:
                brec["friendly"].append(castle)
    s.announce(f"{pk['name']} loses {castle}" + (f" ({why})" if why else "") + "; it returns "
               f"to {hold.get('from') or 'its lord'}"
               + (f", and {', '.join(names)} go free." if names else "."))
    if by_knave and freed:
        s.note("Storming a Knave's castle frees his prisoners: nobody may keep them.")


def _held_elsewhere(state: dict, name: str) -> bool:
    """A guard beaten in the storm may have joined his victor (a guard no more)."""
    for pk in state["knights"].values():
        for group in ("comrades", "men_at_arms", "party_extra"):
            if any(c.get("name") == name for c in pk.get(group) or []):
                return True
    return False


def castle_stormed(s: Session, castle: str) -> None:
    """``resolutions.storm_castle`` won: a castle a Knave held is lost to him."""
    if holder(s.game.state, castle) is not None and holder(s.game.state, castle) != s.player:
        castle_taken(s, castle, by_knave=is_knave(s.pk), why=f"stormed by {s.pk['name']}")


def beaten_by_pk(winner: Session, loser: dict) -> None:
    """A player knight beat a Knave: on demand the Knave gives up every castle he holds (they
    go back to their lords; the winner gets neither the castles nor VP for prisoners freed)."""
    if not is_knave(loser) or not rec(loser)["holds"]:
        return
    q = Question("demand_castles", f"{loser['name']} is beaten. Demand the castles he holds "
                 f"({', '.join(rec(loser)['holds'])})?", ["yes", "no"], "yes")
    if winner.ask(q) != "yes":
        return
    for castle in list(rec(loser)["holds"]):
        castle_taken(winner, castle, demanded=True,
                     why=f"surrendered on {winner.pk['name']}'s demand")


def fate_suffered(s: Session, victor: dict, total: int) -> None:
    """Beaten by an Arthurian knight whose Knight's Fate is above 4, a Knave loses every castle
    he took by storm."""
    pk = s.pk
    if not is_knave(pk) or not victor.get("arthurian") or total <= 4 or not rec(pk)["holds"]:
        return
    for castle in list(rec(pk)["holds"]):
        castle_taken(s, castle, why=f"a Knight's Fate of {total} from {victor['name']}")


# ============================================================================== each turn
def start_of_turn(s: Session) -> None:
    pk = s.pk
    if not is_knave(pk) or pk["slain"]:
        return
    r = rec(pk)
    if CAMELOT in r["holds"]:
        camelot_turn(s)
    brigands_turn(s)


def camelot_turn(s: Session) -> None:
    """Held for three complete game turns, Camelot earns one KVP (once per game). Every turn
    a failed Luck Test brings a counter-storm by 1-6 Arthurian knights."""
    pk = s.pk
    r = rec(pk)
    since = r["holds"][CAMELOT]["since"]
    if not r.get("camelot_kvp") and turn_no(s) - since >= 4:
        r["camelot_kvp"] = True
        _knaves().award_kvp(s, pk, 1, "holding Camelot three complete turns")
    if s.luck_test("keep the Arthurians from storming back into Camelot"):
        return
    counter_storm(s)


def counter_storm(s: Session) -> None:
    """1-6 Arthurian knights storm Camelot back: the guards meet them first (NPK party combat);
    then the Knave if he is inside. Camelot is lost if they win."""
    from companion.koc.engine.combat import fight, npk, party_combat

    pk = s.pk
    n = s.d6("Arthurian knights storming Camelot back")
    cards = draw_some(s, n, "an Arthurian storming Camelot", lambda c: c.arthurian)
    if not cards:
        return              # no Arthurian knight left to send
    n = len(cards)
    s.announce(f"{n} Arthurian {plural(s, n, 'knight')} "
               f"{plural(s, n, 'storms', 'storm', old='storm')} Camelot against {pk['name']}: "
               + ", ".join(c["name"] for c in cards) + ".")
    hold = rec(pk)["holds"][CAMELOT]
    keep = [g for g in hold["guards"] if g.get("kind") != "pk"]
    mine = sum(npk(g)["wl"] for g in keep)
    theirs = sum(npk(c)["wl"] for c in cards)
    held = bool(keep) and party_combat(s, mine, theirs)
    if not held and keep:
        s.note("The guards of Camelot are overcome.")
        for g in keep:
            hold["guards"].remove(g)
            s.game.discard("knights", g["name"])
    inside = pk["at"]["area"] == CAMELOT and pk["at"]["where"] == "inside" and not pk["prison"]
    if not held and inside:
        result = fight(s, [npk(c) for c in cards], attacker="foe", tags=("knights", "castle"))
        held = result.won
        cards = [c for c in cards if c["name"] not in [f["name"] for f in result.defeated]]
    for c in cards:
        s.game.discard("knights", c["name"])
    if held:
        s.note(f"Camelot holds for {pk['name']}.")
    elif not pk["slain"]:
        castle_taken(s, CAMELOT, why="stormed back by Arthurian knights")
        if pk["at"]["area"] == CAMELOT and pk["at"]["where"] == "inside":
            pk["at"]["where"] = "gate"


# ============================================================================== shrines
def at_shrine(s: Session, area: str) -> bool:
    """A Knave at a shrine may announce he loots it."""
    pk = s.pk
    if not is_knave(pk) or pk["mad"] or pk["animal"]:
        return False
    if area == CARBONEK:
        return False        # Carbonek's shrine is looted by storming Carbonek (seize)
    q = Question("loot_shrine", f"{pk['name']} is at {area}. Loot the shrine?", ["yes", "no"],
                 "no")
    if s.ask(q) != "yes":
        return False
    loot(s, area)
    return True


def loot(s: Session, area: str) -> bool:
    """d6-3 knights come to defend the shrine (none on 1-3); beaten or absent, the shrine is
    looted: 12 VP and an Act of Villainy."""
    from companion.koc.engine import resolutions as res
    from companion.koc.engine.combat import fight, npk

    pk = s.pk
    pk["encountered"] = True
    roll = s.d6(f"knights defending {area}")
    n = max(0, roll - 3)
    s.note(f"{pk['name']} sets about looting {area}: {roll} - 3 -> "
           + (f"{n} {plural(s, n, 'knight')} {plural(s, n, 'comes', 'come', old='come')} to "
              "defend it." if n else "nobody comes to defend it."))
    if n:
        cards = [res.draw_knight(s, f"a defender of {area}") for _ in range(n)]
        result = fight(s, [npk(c) for c in cards], attacker="pk", tags=("knights", "shrine"))
        beaten = [f["name"] for f in result.defeated]
        for c in cards:
            if c["name"] not in beaten:
                s.game.discard("knights", c["name"])
        if not result.won or pk["slain"]:
            s.note(f"{area} is saved from {pk['name']}.")
            return False
    looted(s, area)
    return True


def looted(s: Session, shrine: str) -> None:
    pk = s.pk
    s.gain_vp(-12, f"looting {shrine}")
    _knaves().commit_act(s, pk, "loot_shrine", f"loots {shrine}")


# ============================================================================== brigands
def brigand_foe(b: dict) -> dict:
    from companion.koc.engine.combat import foe

    f = foe("brigand", b["name"], b["wl"], 2, bonus=1 if b.get("mounted") else 0)
    f["wounds"] = b.get("wounds", 0)
    f["follower"] = b
    return f


def knave_meets_brigands(m, n: int, out) -> bool:
    """Brigands met by a Knave: on a Luck Test they take him as their leader."""
    s, pk = m.s, m.pk
    if not is_knave(pk) or pk["mad"] or pk["animal"]:
        return False
    q = Question("lead_brigands", f"{pk['name']} meets a band of {n} {plural(s, n, 'brigand')}. "
                 "Try to lead "
                 "them (a Luck Test)?", ["yes", "no"], "yes", values={"count": n})
    if s.ask(q) != "yes":
        return False
    if not s.luck_test(f"lead {n} {plural(s, n, 'brigand')}"):
        s.note("The brigands will have none of him.")
        return False
    r = rec(pk)
    band = []
    for i in range(n):
        chit = m.chit("brigand", "a brigand")
        m.keep_chit("brigand", chit)
        band.append({"name": f"brigand {len(r['brigands']) + i + 1}", "wl": chit["wl"],
                     "wounds": 0, "mounted": False, "chit": [chit["name"], chit["wl"]]})
    r["brigands"].extend(band)
    out.attitude = "friendly"
    s.note(f"{n} {plural(s, n, 'brigand')} (WL {', '.join(str(b['wl']) for b in band)}) "
           f"{plural(s, n, 'takes', 'take', old='take')} {pk['name']} as their leader.")
    mount(s)
    return True


def disband(s: Session, why: str) -> None:
    r = rec(s.pk)
    if not r["brigands"]:
        return
    out = s.game.state.get("chits_out", {}).get("brigand", [])
    for b in r["brigands"]:
        if b.get("chit") in out:
            out.remove(b["chit"])
    n = len(r["brigands"])
    s.note(f"{s.pk['name']}'s {n} {plural(s, n, 'brigand')} "
           f"{plural(s, n, 'leaves', 'leave', old='leave')} him ({why}).")
    r["brigands"] = []
    r.pop("brigands_out", None)


def mount(s: Session) -> None:
    """Brigands ride horses robbed from beaten knights, or from a castle he holds."""
    pk = s.pk
    r = rec(pk)
    on_foot = [b for b in r["brigands"] if not b.get("mounted")]
    if not on_foot:
        return
    inside_own = pk["at"]["where"] == "inside" and _castle_here(s) in r["holds"]
    n = len(on_foot) if inside_own else min(len(on_foot), r["horses"])
    if not n:
        return
    for b in on_foot[:n]:
        b["mounted"] = True
    if not inside_own:
        r["horses"] -= n
    s.note(f"{n} of {pk['name']}'s brigands are mounted"
           + (f" from the stables of {_castle_here(s)}." if inside_own else
              " on horses robbed from beaten knights."))


def horse_taken(s: Session) -> None:
    """A beaten knight robbed: his horse may carry a brigand."""
    pk = s.pk
    if is_knave(pk) and any(not b.get("mounted") for b in rec(pk)["brigands"]):
        rec(pk)["horses"] += 1
        mount(s)


def _castle_here(s: Session) -> str | None:
    at = s.pk["at"]
    return at.get("castle") or (at["area"] if s.world.areas[at["area"]].kind == "castle"
                                else None)


def brigands_turn(s: Session) -> None:
    """Brigands go no further than his own castles, and take no ship; left outside another
    castle they wait three complete turns, then stay only on a Luck Test each turn."""
    pk = s.pk
    r = rec(pk)
    if not r["brigands"]:
        return
    at = pk["at"]
    if at["where"] == "ship":
        disband(s, "brigands take no ship")
        return
    castle = _castle_here(s) if at["where"] == "inside" else None
    if castle is None or castle in r["holds"]:
        if r.pop("brigands_out", None):
            s.note(f"{pk['name']}'s brigands rejoin him.")
        mount(s)
        return
    out = r.setdefault("brigands_out", {"castle": castle, "since": turn_no(s) - 1})
    if turn_no(s) - out["since"] - 1 < BRIGANDS_STAY_TURNS:
        return
    if not s.luck_test("keep the brigands waiting outside the castle"):
        disband(s, "tired of waiting outside the castle")


def allowance(s: Session, base: int) -> int:
    """Brigands on foot travel at the foot rate (one area a turn)."""
    pk = s.pk
    if is_knave(pk) and any(not b.get("mounted") for b in rec(pk)["brigands"]):
        return min(base, 1)
    return base


def fight_first(s: Session, foes: list[dict]) -> list[dict]:
    """His brigands (unless he keeps them back) and, aboard his pirate ship, the crew fight
    before the Knave, one bout after another (no Combat Events); foes they beat give him
    nothing. A player knight the brigands beat takes the Knave's Knight's Fate."""
    pk = s.pk
    if not is_knave(pk) or not foes or pk["slain"]:
        return foes
    r = rec(pk)
    from companion.koc.engine.combat import Combat, left

    foes = list(foes)
    fighters = []
    if r["brigands"] and pk["at"]["where"] != "ship" and not _inside_other_castle(s) and \
            not getattr(s, "storming", False):
        kinds = [f["kind"] for f in foes]
        tag = "knights" if kinds.count("knight") > 1 else kinds[0]
        n = len(r["brigands"])
        q = Question("brigands_fight", f"Send your {n} {plural(s, n, 'brigand')} in first?",
                     ["yes", "no"], "yes",
                     tags=(tag,) if tag in ("knights", "knight", "king", "monster", "animal",
                                            "pk") else ())
        if s.ask(q) == "yes":
            fighters += [brigand_foe(b) for b in r["brigands"]]
    ship = pk.get("ship")
    if ship and ship.get("pirate") and pk["at"]["where"] == "ship" and \
            not getattr(s, "knave_first", False):
        fighters.append(crew_foe(ship))
    if not fighters:
        return foes
    c = Combat(s, foes, attacker="pk", awards=False, alone=True)
    for f in fighters:
        while foes and left(f) > 0:
            enemy = foes[0]
            c.bout(f, enemy, passes=True)
            if left(enemy) <= 0:
                foes.pop(0)
                s.note(f"{f['name']} beats {enemy['name']}.")
                _beaten_by_follower(s, enemy)
        if left(f) <= 0:
            s.note(f"{f['name']} falls.")
        if f.get("follower") is not None:
            b = f["follower"]
            b["wounds"] = f["wounds"]
            if left(f) <= 0:
                r["brigands"].remove(b)
                out = s.game.state.get("chits_out", {}).get("brigand", [])
                if b.get("chit") in out:
                    out.remove(b["chit"])
        elif f["kind"] == "crew" and left(f) <= 0:
            s.note(f"The crew of the {ship['name']} is beaten; {pk['name']} fights on.")
    return foes


def crew_foe(ship: dict) -> dict:
    from companion.koc.engine.combat import foe

    return foe("crew", f"the crew of the {ship['name']}", ship["wl"], 2)


def _inside_other_castle(s: Session) -> bool:
    castle = _castle_here(s)
    return s.pk["at"]["where"] == "inside" and castle is not None and \
        castle not in rec(s.pk)["holds"]


def _beaten_by_follower(s: Session, enemy: dict) -> None:
    kind = enemy["kind"]
    if kind == "pk":
        from companion.koc.engine.fate import give_fate_to_pk

        s.note(f"{enemy['name']} is beaten by {s.pk['name']}'s brigands; {s.pk['name']} "
               "decides his fate.")
        give_fate_to_pk(s, enemy)
    elif kind in ("knight", "king") and enemy.get("card"):
        s.note(f"{enemy['name']} flees.")
        try:
            s.game.discard_card(enemy["card"])
        except ValueError:
            pass


def after_fight(s: Session, result) -> None:
    """Beaten, the Knave's brigands run away."""
    pk = s.pk
    if is_knave(pk) and result.pk_defeated and not result.won and rec(pk)["brigands"]:
        disband(s, "they run when he is beaten")


# ============================================================================== pirates
def knave_meets_pirates(m, sea: str, entry) -> bool:
    """On a Luck Test the pirates take the Knave as their captain: their brigand chits become a
    ship no stronger than their combined WL; the ship he sailed on is gone (unless he is a
    pirate already: the new ship joins his fleet)."""
    s, pk = m.s, m.pk
    if not is_knave(pk) or pk["mad"] or pk["animal"]:
        return False
    q = Question("lead_pirates", f"Pirates bear down on {pk['name']}'s ship. Try to make them "
                 "yours (a Luck Test)?", ["yes", "no"], "yes")
    if s.ask(q) != "yes" or not s.luck_test("the pirates take him as their captain"):
        return False
    n = entry.get("count", 10)
    strength = 0
    for _ in range(n):
        strength += m.chit("brigand", "a pirate")["wl"]
    ship = pirate_ship(s, strength)
    r = rec(pk)
    aboard = pk.get("ship")
    was_pirate = bool(aboard and aboard.get("pirate"))
    r["pirate"] = True
    if was_pirate:
        if aboard not in r["fleet"]:
            r["fleet"].append(aboard)
        r["fleet"].append(ship)
        s.note(f"The {n} pirates (strength {strength}) join {pk['name']}'s fleet with a "
               f"{ship['name']} (crew {ship['wl']}).")
    else:
        old = pk.get("ship")
        pk["ship"] = ship
        if ship not in r["fleet"]:
            r["fleet"].append(ship)
        s.note(f"The {n} pirates (strength {strength}) hail {pk['name']} as their captain: "
               f"he sails on in a pirate {ship['name']} (crew {ship['wl']})"
               + (f"; the {old['name']} is gone." if old else "."))
    return True


def pirate_ship(s: Session, strength: int) -> dict:
    """The strongest ship counter whose crew is no more than ``strength`` (else the weakest)."""
    ships = sorted((c for c in s.world.chits if c.kind == "ship" and not c.optional),
                   key=lambda c: c.crew)
    fit = [c for c in ships if c.crew <= strength] or ships[:1]
    c = fit[-1]
    return {"kind": "ship", "name": c.name, "wl": c.crew, "pirate": True}


def merchant_sighted(m, sea: str) -> bool:
    """'Nothing happens' at sea is a merchant ship to a Knave aboard his pirate ship."""
    s, pk = m.s, m.pk
    ship = pk.get("ship")
    if not is_knave(pk) or not ship or not ship.get("pirate") or pk["at"]["where"] != "ship":
        return False
    r = rec(pk)
    chit = m.chit("ship", "a merchant ship")
    s.note(f"A merchant ship is sighted: a {chit['name']} (crew {chit['wl']}).")
    entry = None
    if r.get("captured_in") == sea:
        entry = s.chart("merchant_ship", purpose="who sails aboard the merchant ship").entry
        if entry.key == "no_passengers":
            s.note("It is a warship sent against the pirates: it attacks.")
            warship(m, sea, chit)
            return True
    q = Question("merchant_ship", f"Attack the {chit['name']} (crew {chit['wl']})?",
                 ["attack", "let pass"], "let pass", values={"crew": chit["wl"]})
    if s.ask(q) != "attack":
        s.note("The pirates let it sail by.")
        return True
    if entry is None:
        entry = s.chart("merchant_ship", purpose="who sails aboard the merchant ship").entry
    board(m, sea, chit, entry)
    return True


def _knights(m, n: int, purpose: str) -> list[dict]:
    from companion.koc.engine.combat import npk

    return [npk(m.draw("knights", purpose)) for _ in range(n)]


def warship(m, sea: str, chit: dict) -> None:
    from companion.koc.engine.combat import foe

    s = m.s
    n = s.d6("knights aboard the warship")
    foes = [foe("crew", f"the crew of the {chit['name']}", chit["wl"], 2)]
    foes += _knights(m, n, "a knight aboard the warship")
    sea_battle(m, sea, foes, act=True, what=f"the warship {chit['name']}")


def board(m, sea: str, chit: dict, entry) -> None:
    """The merchant ship's passengers (Merchant Ship Chart) and the boarding fight."""
    from companion.koc.engine import encounters as enc
    from companion.koc.engine.combat import foe, npk

    s, pk = m.s, m.pk
    key = entry.key
    crew = foe("crew", f"the crew of the {chit['name']}", chit["wl"], 2)
    if key == "ghost_ship":
        s.note("A ghost ship, empty of men: the frightened pirates maroon "
               f"{pk['name']} as a Jonah.")
        rec(pk)["fleet"] = [f for f in rec(pk)["fleet"] if f is not pk.get("ship")
                            and f != pk.get("ship")]
        enc.shipwreck(m, sea)
        return
    if key == "magic_ship":
        s.note(f"The ship is enchanted: it carries {pk['name']} alone away into Faerie.")
        from companion.koc.engine import faerie

        rec(pk)["fleet"] = [f for f in rec(pk)["fleet"] if f != pk.get("ship")]

        faerie.enter_faerie(s, why="an enchanted ship", award=False)
        return
    if key == "disguised_pirates":
        foes = [foe("pirate", f"pirate {i + 1}", m.chit("brigand", "a rival pirate")["wl"], 2)
                for i in range(entry.get("count", 7))]
        sea_battle(m, sea, foes, act=False, what="the rival pirates")
        return
    foes = [crew]
    if key == "druid":
        from companion.koc.engine import resolutions as res

        s.note("A druid aboard casts a spell at the Knave.")
        res.enchant(s, by={"kind": "hermit", "name": "the druid", "druid": True},
                    adjustment=entry.get("seduction", 0), druid=True)
        if m.over():
            return
    elif key in ("knights", "few_knights"):
        if key == "knights":
            n = s.d6("knights aboard")
        else:
            n = max(0, s.d6("knights aboard (d6-3)") - 3)
        foes += _knights(m, n, "a knight aboard the merchant ship")
    elif key == "dwarf":
        foes.append(enc.dwarf_foe())
    elif key == "lady_and_knights":
        n = max(0, s.d6("knights with the lady (d6-3)") - 3)
        knights = _knights(m, n, "a knight escorting the lady")
        if not knights:
            s.note("A lady sails alone aboard.")
        if sea_battle(m, sea, foes + knights, act=True, what=f"the {chit['name']}") and \
                not m.over():
            enc.meet_lady(s, m=m, status=False, avoidable=False)   # her reaction, as usual
        return
    elif key == "priest":
        s.note("A priest is aboard.")
        if sea_battle(m, sea, foes, act=True, what=f"the {chit['name']}") and not m.over():
            enc.meet_hermit(s, priest=True, m=m, avoidable=False)
        return
    elif key == "king":
        king = m.draw("kings", "a king aboard")
        n = max(0, s.d6("knights with the king (0-5)") - 1)
        foes += [npk(king)] + _knights(m, n, "a knight with the king")
    sea_battle(m, sea, foes, act=True, what=f"the {chit['name']}")


def sea_battle(m, sea: str, foes: list[dict], *, act: bool, what: str) -> bool:
    """The pirates board: the crew first (or the Knave, if he says so), then the Knave, then
    his comrades and companions. Won, a merchant ship is an Act of Villainy (not rival
    pirates); beaten, the Knave is carried to land."""
    from companion.koc.engine.combat import fight

    s, pk = m.s, m.pk
    q = Question("pirate_first", f"Board {what}: your crew first, or you?", ["crew", "me"],
                 "crew")
    me_first = s.ask(q) == "me"
    ship = pk.get("ship")
    s.knave_first = me_first
    saved = None
    if me_first:
        saved = pk.pop("ship", None)       # beaten with his party, his crew flees
    try:
        knightly = [f for f in foes if f.get("knightly")]
        result = fight(s, foes, attacker="pk", on_defeat="none",
                       tags=("knights" if len(knightly) > 1 else "knight" if knightly
                             else "pirates", "sea"))
    finally:
        s.knave_first = False
        if saved is not None and not pk["slain"]:
            pk["ship"] = saved
    if pk["slain"]:
        return False
    if result.won:
        if act:
            rec(pk)["captured_in"] = sea
            _knaves().commit_act(s, pk, "piracy", f"takes {what} in {sea}")
        else:
            s.note(f"{pk['name']} beats off {what}.")
        return True
    if me_first and ship:
        s.note(f"Seeing {pk['name']} beaten, his pirates flee with the {ship['name']}.")
        rec(pk)["fleet"] = [f for f in rec(pk)["fleet"] if f != ship]
    pk.pop("ship", None)
    if ship:
        rec(pk)["fleet"] = [f for f in rec(pk)["fleet"] if f != ship]
    victor = next((f for f in result.remaining if f.get("knightly")), None)
    carried_off(s, sea, victor)
    return False


def carried_off(s: Session, sea: str, victor: dict | None) -> None:
    """The beaten Knave sails on with his captors and is put ashore in a random kingdom (Logres'
    Vagon has no coast: 1-2 Brittany, 3-4 Gaul, 5-6 Benwick), at its King's or Provincial
    Lord's castle. The fate of a knight or king aboard falls due there; with none, he is that
    castle's prisoner."""
    from companion.koc.engine import resolutions as res
    from companion.koc.engine.fate import suffer_fate

    pk = s.pk
    entry = s.chart("random_kingdom", purpose="where the captors land").entry
    kingdom, castellany = entry.get("kingdom"), entry.get("castellany")
    if castellany == "Vagon":
        roll = s.d6("Vagon has no coast: where the ship lands instead")
        kingdom, castellany = VAGON_LANDING[roll], None
        s.note(f"Vagon has no coast: the ship lands in {kingdom} instead.")
    if castellany:
        castle = s.world.castellanies[castellany].castle
    else:
        castle = s.world.kingdoms[kingdom].royal_castle
    area = castle or res.random_province(s, kingdom, castellany)
    pk["at"] = {"area": area, "where": "gate" if castle else "area"}
    s.note(f"{pk['name']} is carried to {kingdom}" + (f" ({castellany})" if castellany else "")
           + f" and put ashore at {area}.")
    if victor is not None:
        suffer_fate(s, victor.get("card") or victor)
        return
    owner = res.castle_owner(s, castle) if castle else {"name": "the local lord"}
    res.imprison(s, by="castle", jailor=owner.get("name") or f"the lord of {castle}",
                 castle=castle)


# ============================================================================== orders
ORDER_KEYS = {"knave_storm": "storm castle", "loot_shrine": "loot shrine",
              "lead_brigands": "lead brigands", "lead_pirates": "lead pirates",
              "merchant_ship": "attack merchant ship"}


def order_problem(state: dict, player: str, key: str) -> tuple[str, str | None] | None:
    """Why a Knave's villainy order is refused (message, hint), or None."""
    pk = state["knights"][player]
    if not is_knave(pk):
        return (f"'{ORDER_KEYS[key]}' is an order for a Knave; {pk['name']} is none",
                "send 'turn knave' first")
    if key == "merchant_ship" and not (pk.get("ship") or {}).get("pirate"):
        return (f"{pk['name']} commands no pirate ship",
                "meet pirates at sea and lead them ('lead pirates')")
    return None


def legal_lines(world, state: dict, player: str) -> list[str]:
    """The villainy orders that make sense now."""
    pk = state["knights"][player]
    if not is_knave(pk) or pk["at"]["where"] == "prison":
        return []
    at = pk["at"]
    if at["where"] == "ship":
        return ["attack merchant ship", "lead pirates"] if (pk.get("ship") or {}).get(
            "pirate") else ["lead pirates"]
    out = []
    area = world.areas[at["area"]]
    near = set(area.links()["land"]) | {at["area"]}
    if any(world.areas[a].kind == "castle" for a in sorted(near)) or \
            any(c["area"] in near for c in state.get("castles", {}).values()):
        out.append("storm castle")
    if "Camelot Castle" in near:
        out.append("storm camelot")
    if "Carbonek" in near:
        out.append("storm carbonek")
    if any(world.areas[a].is_shrine and world.areas[a].kind != "castle" for a in sorted(near)):
        out.append("loot shrine")
    out.append("lead brigands")
    return out


# ============================================================================== rivers
def river_landing(s: Session, target: str, how: str, stake: str | None) -> bool | None:
    """A Knave aboard his pirate ship on a river and a player knight on that river's bank (or
    the other way round) may meet: the Knave lands for the fight, alone (his crew does not
    help), and goes back aboard if he can. None: not such a meeting."""
    from companion.koc.engine import rivals

    knights = s.game.state["knights"]
    pair = [(s.player, s.pk), (target, knights[target])]
    a, b = pair[0][1]["at"], pair[1][1]["at"]
    if a["area"] != b["area"] or s.world.areas[a["area"]].kind != "river":
        return None
    aboard = [(p, r) for p, r in pair if r["at"]["where"] == "ship"
              and (r.get("ship") or {}).get("pirate") and is_knave(r)]
    ashore = [(p, r) for p, r in pair if r["at"]["where"] == "area"]
    if len(aboard) != 1 or len(ashore) != 1:
        return None
    player, knave_pk = aboard[0]
    kept = dict(knave_pk["at"])
    landed = {"area": kept["area"], "where": "area"}
    knave_pk["at"] = dict(landed)
    s.note(f"{knave_pk['name']} leaves his pirate ship on {kept['area']} to fight; his crew "
           "stays aboard.")
    try:
        return rivals.confront(s, how, target, stake=stake)
    finally:
        if knave_pk["at"] == landed and not knave_pk["slain"] and not knave_pk["prison"]:
            knave_pk["at"] = kept


# ============================================================================== journal
def journal_lines(pk: dict) -> list[str]:
    """The Knave's own view of his castles, brigands and ships (his journal only)."""
    if not is_knave(pk):
        return []
    r = pk["knave"]
    out = []
    for castle, h in (r.get("holds") or {}).items():
        out.append(f"holds {castle} (taken in game turn {h.get('since')}; guards: "
                   + (", ".join(g["name"] for g in h.get("guards", [])) or "none") + ")")
    if r.get("brigands"):
        out.append(f"leads {len(r['brigands'])} {plural(None, len(r['brigands']), 'brigand')}, "
                   f"{sum(1 for b in r['brigands'] if b.get('mounted'))} mounted"
                   + (f", waiting outside {r['brigands_out']['castle']}"
                      if r.get("brigands_out") else ""))
    if r.get("fleet"):
        out.append("pirate fleet: " + ", ".join(f"{f['name']} (crew {f['wl']})"
                                                for f in r["fleet"]))
    return out
