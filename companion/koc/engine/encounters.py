"""Encounters: the terrain charts, castles, the sea, Merlin and Morgan, and every creature and
person met, with their reactions (see docs/koc-engine.md).

Contract used by movement and other modules:

* ``terrain_encounter(s, area)``: an encounter happened in ``area`` (countryside, forest,
  river, wasteland, town, shrine): roll its chart and resolve it completely (avoid / attack /
  await, reveal, reaction, combat, resolutions). Sets ``s.pk['encountered'] = True``.
* ``castle_encounter(s, castle, persisting=False, from_ship=False) -> bool``: the PK arrives
  at a castle (a map castle area or a placed castle): friendly castles admit him (re-equip);
  otherwise roll the Castle Reactions (persistence +1 per turn). Returns whether he is admitted
  (inside). Sets ``s.pk['at']`` to inside or gate.
* ``sea_encounter(s, sea, previous) -> str``: the automatic sea encounter; returns the entry
  key (e.g. 'good_winds', 'storm').
* ``merlin_encounter(s, starting=False)``: the PK is in Merlin/Morgan's reach: avoidance as the
  rules allow, identity for this game turn, Merlin's reaction or Morgan's enchantment; no
  further movement, combat or requests this turn.
* Person and creature meetings usable from resolutions: ``meet_knights(s, knights, *,
  reaction_modifier=0, leader=None)``, ``meet_king(s, king=None, *, reaction_modifier=0)``,
  ``meet_lady(s, lady=None, *, reaction_modifier=0, status=True)``, ``meet_animal``,
  ``meet_monster``, ``meet_dwarf``, ``meet_hermit``, ``meet_mad_knight``, ``meet_brigands(s, n)``.
  Each returns an ``Outcome`` (the final attitude, whether the meeting was avoided, fought,
  won or lost). Every ``meet_*`` also takes ``ask=False`` (no avoid/attack/await question: the
  person simply arrives) and ``avoidable=False``.

Hooks used by movement (small, documented extensions of movement.py):

* ``start_of_movement(s) -> bool``: first thing of every movement phase: forgets persons
  met in earlier turns, carries out what an encounter scheduled for this turn (scourging, fasting,
  being led to a castle, the gateway to Faerie, the lost knight's roll in a forest). True when
  that ends the movement phase.
* ``river_crossing(s, river, target) -> bool``: leaving a river the turn after an avoided
  encounter or a flood there; True when the move is stopped.
* ``forced_encounter(s, area) -> bool``: staying in a town the turn after slaying a Lady, Priest
  or Dwarf there (or beating the watch) brings the watch back; True if it happened.

What the PK met is kept in ``s.pk['met']``: a list of ``{"kind", "card", "attitude", "turn"}``
(kind: knight, king, lady, dwarf, hermit, ...; card: the card record or a small record of the
person; attitude: friendly, neutral or unfriendly), so that the requests phase knows whom the
PK may ask (it reads and clears the list). Ladies' entries also say whether she is ``alone``.
Drawn cards are discarded and drawn chits returned when the meeting ends, except cards that
joined the PK's party (comrades, Men-at-Arms, persons escorted, prisoners), a new Mascot, and
the cards of persons recorded as met (the requests phase gives those back when it is over).
Decisions where the rules are silent: docs/koc-engine.md, "Encounters and Faerie".
"""
from __future__ import annotations

import math
from dataclasses import dataclass

from companion.engine.game import edition
from companion.koc.engine import knight as kn
from companion.koc.engine import optional
from companion.koc.engine import party
from companion.koc.engine import tasks
from companion.koc.engine.combat import Result, fight, foe, lose_followers, npk
from companion.koc.engine.questions import FOES, PLACES, Spec, register
from companion.koc.engine.session import Question, Session
from companion.koc.engine.words import plural

FRIENDLY, NEUTRAL, UNFRIENDLY = "friendly", "neutral", "unfriendly"
CAMELOT = "Camelot Castle"
ONE_KNIGHT_FLEES = 3
"""The rules edition from which a lone knight who flees is named (he flees, he reacts anew;
before: "the knights", "they react", whatever their number)."""
ONE_KNIGHT_SEEN = 3
"""The rules edition from which one knight met on the way is "a knight (in Camelot's colours)",
"He is Sir Kay"; before, "1 knight, 1 of them in Camelot's colours", "They are Sir Kay"."""
PIRATES_NAMED = 3
"""The rules edition from which pirates are named "pirate 1", as brigands are; before, "pirate 1
(WL 4)", which the fight's texts doubled ("pirate 1 (WL 4) (WL 4)")."""
OUTLAWRY_LAPSES = 7
"""The rules edition from which a castle that outlawed the knight (Messages 4) is neutral, as
the rules call it, not barred for good: a friendly reaction there puts it back on his list and
lifts the outlawry, and a visit the rules make friendly for the time being (Messages 3, the
dying kinsman's castle) is friendly. Before, an outlawing castle was never friendly again,
though "now friendly" was said."""
MERLIN_HEEDS_ALONE = 7
"""The rules edition from which Merlin heeds the oath to travel alone (Oaths 10: no Dwarf):
renewing a sworn knight's equipment (Merlin 3) he gives no Dwarf, and the gift of a faithful
Dwarf is one the knight cannot take, so Merlin chooses again, as for a gift he has. Before,
the Dwarf came with him all the same."""
MERLIN_SPARES_BEARER = 7
"""The rules edition from which Merlin's reaction 2 (the knight turned into an animal, which is
Enchantment 4) leaves the Holy Grail's bearer as he is: the bearer is immune to Enchantment
(Quest of the Holy Grail), as he is to an Enchantress's spell (resolutions.enchant). Before,
Merlin changed him into a beast, and he went on bearing the Grail."""
ONE_NO_LONGER_TRAVELS = 7
"""The rules edition from which one person who leaves the knight's company "no longer travels
with" him (drop_companions; several "travel"); before, "King Mark no longer travel with
Anna"."""
MERLIN = {"kind": "merlin", "name": "Merlin", "vl": 0}
MORGAN = {"kind": "lady", "name": "Morgan Le Fay", "vl": 12, "service_award": 30,
          "seduction": 5, "enchantress": True, "castle": None, "morgan": True}
KING_REQUESTS = ("heal", "lift enchantment", "men at arms", "dwarf", "adventure", "escort",
                 "service", "pardon", "castle")
HERMIT_BOONS = ("cure poison", "lift enchantment", "release from enchantress",
                "release from oath", "none")

# ------------------------------------------------------------------------------ questions
_ENCOUNTER_TAGS = tuple(dict.fromkeys(
    FOES + PLACES + ("faerie", "arthurian", "group", "alone", "escorted", "distressed",
                     "bathing", "priest", "waiting")))
register(
    Spec("encounter", "what to do when an encounter is met, before it is revealed and before "
         "its reaction is known: avoid it (a Luck Test; an Arthurian knight loses 6 VP for "
         "trying), attack it first (chivalrously against knights and kings), await its "
         "reaction, or turn invisible with a Magic Ring",
         ("avoid", "attack", "await", "ring"), "await", tags=_ENCOUNTER_TAGS,
         values=("count", "arthurian_count")),
    Spec("pursue", "pursue a fleeing animal or fleeing knights (a Luck Test); caught, they "
         "react anew", ("yes", "no"), "no", tags=("animal", "knights", "knight")),
    Spec("follow", "follow an animal or dwarf who offers to lead the way next turn (to an "
         "adventure or to a lady's castle)", ("yes", "no"), "yes",
         tags=("animal", "dwarf", "adventure", "castle")),
    Spec("flee_attack", "try to flee attacking knights before the fight (a Luck Test; fleeing "
         "costs the Dwarf, Men-at-Arms and comrades, and 6 VP to an Arthurian knight)",
         ("yes", "no"), "no", tags=("knights", "knight", "arthurian")),
    Spec("accept_challenge", "accept a challenge offered by a king, a knight or a castle's "
         "champion (declining costs nothing)", ("yes", "no"), "no",
         tags=("king", "knight", "castle", "arthurian")),
    Spec("king_challenge", "answer a king who challenges you; declining makes your comrades, "
         "Men-at-Arms and Dwarf leave you", ("yes", "no"), "yes", tags=("king",)),
    Spec("challenge", "challenge the friendly king or the leader of friendly knights at the "
         "end of the encounter (he accepts on a VL check)", ("yes", "no"), "no",
         tags=("king", "knight", "arthurian")),
    Spec("join", "let those who offer it join you: knights as comrades, a dwarf as your Dwarf",
         ("yes", "no"), "yes", tags=("knights", "knight", "dwarf", "castle")),
    Spec("escort", "escort a king or lady who asks for it (a request for aid: 6 VP for doing "
         "it, 6 VP lost for refusing) or who invites you", ("yes", "no"), "yes",
         tags=("king", "lady", "request", "invitation")),
    Spec("rescue_lady", "fight the knights who hold a lady against her will (aid: 6 VP if "
         "rescued, 6 VP lost for refusing)", ("yes", "no"), "yes", tags=("lady", "town")),
    Spec("watchmen", "the town watch will not believe you: submit (prison) or resist (3 VP "
         "and a fight)", ("submit", "resist"), "submit", tags=("watchmen", "town")),
    Spec("force_fight", "attack the scornful knights who refuse to fight (VP but no CP)",
         ("yes", "no"), "no", tags=("knights", "knight", "arthurian")),
    Spec("penance", "accept a hermit's penance (refusing costs 12 VP)", ("accept", "refuse"),
         "accept", tags=("hermit", "priest", "rome", "scourge", "fast", "pilgrimage")),
    Spec("fast_on", "go on fasting one more turn (3 VP; combat rolls halved)", ("yes", "no"),
         "no", tags=("fast",), values=("turns",)),
    Spec("hermit_services", "serve the hermit a turn (no movement, 1 VP, he becomes friendly)",
         ("yes", "no"), "yes", tags=("hermit", "priest")),
    Spec("hermit_boon", "what the healing hermit does for you (default: the first that "
         "applies of cure poison, lift enchantment, release from enchantress, release from "
         "oath)", HERMIT_BOONS, "cure poison", tags=("hermit", "priest")),
    Spec("attack_druid", "attack the druid whose spell you resisted (no awards; he slays "
         "you if he wins)", ("yes", "no"), "no", tags=("hermit",)),
    Spec("dwarf_gear", "the mounted dwarf offers fresh equipment", ("accept", "decline",
                                                                    "attack"), "accept",
         tags=("dwarf",)),
    Spec("pray_for_lady", "pray (a VL test) to free the lady enchanted into an animal (aid: "
         "6 VP if the prayer works, 6 VP lost for refusing)", ("yes", "no"), "yes",
         tags=("animal",)),
    Spec("lady_service", "accept the service of a lady who offers it", ("yes", "no"), "yes",
         tags=("lady",)),
    Spec("virtue_test", "take the castle's test of virtue (a VL test; failing or refusing "
         "costs 3 VP)", ("yes", "no"), "yes", tags=("castle",)),
    Spec("gateway", "use the castle's magic gateway to Faerie next turn", ("yes", "no"), "no",
         tags=("castle",)),
    Spec("king_request", "the request a king who offers any one request grants (default: "
         "the first that helps of heal, lift enchantment, men at arms, dwarf; else none)",
         KING_REQUESTS + ("none",), "none", tags=("king",)),
)


def _res():
    from companion.koc.engine import resolutions

    return resolutions


def _svc():
    from companion.koc.engine import service

    return service


def attitude_of(total: int) -> str:
    """6 or less unfriendly, 7 neutral, 8 or more friendly."""
    return UNFRIENDLY if total <= 6 else NEUTRAL if total == 7 else FRIENDLY


def place_kind(s: Session, area_name: str) -> str:
    area = s.world.areas[area_name]
    at = s.pk["at"]
    if area.otherworld:
        return "faerie"
    if area.kind == "sea" or at["where"] == "ship":
        return "sea"
    if at.get("castle") or area.kind == "castle":
        return "castle"
    if area.is_shrine and not (area.is_town and s.pk.get("rome") == "town"):
        return "shrine"     # (Rome: its shrine, unless he went into its town this turn)
    if area.is_town:
        return "town"
    return area.kind


def turn_no(s: Session) -> int:
    return s.game.state["koc"]["turn"]


def names(cards: list[dict]) -> str:
    return ", ".join(c["name"] for c in cards)


# ------------------------------------------------------------------------------ outcome
@dataclass
class Outcome:
    """How a meeting ended."""

    kind: str
    attitude: str | None = None     # final attitude of those met (None: gone or avoided)
    avoided: bool = False
    fought: bool = False
    won: bool = False               # the PK's side won the fight
    lost: bool = False              # the PK was defeated
    key: str | None = None          # the reaction chart entry


class Meeting:
    """The context of one encounter: the cards and chits it drew, what the PK met."""

    def __init__(self, s: Session, area: str | None = None, *, place: str | None = None):
        self.s = s
        self.pk = s.pk
        self.area = area or s.pk["at"]["area"]
        self.place = place or place_kind(s, self.area)
        self.avoidable = self.place not in ("town", "shrine", "sea", "faerie")
        self.cards: list[tuple[str, str]] = []
        self.chits: list[tuple[str, list]] = []
        self.avoided = False

    # -- the PK's state -------------------------------------------------------------------
    def over(self) -> bool:
        """The PK can take no further part (slain, in prison, carried off, asleep)."""
        pk = self.pk
        if pk["slain"] or self.s.pk is not pk or pk["prison"] or pk.get("asleep"):
            return True
        return self.s.world.areas[pk["at"]["area"]].otherworld and self.place != "faerie"

    @property
    def turn(self) -> int:
        return turn_no(self.s)

    # -- cards and chits ------------------------------------------------------------------
    def draw(self, deck: str, purpose: str, accept=None) -> dict:
        card = self.s.game.draw(deck, purpose, accept)
        self.cards.append((deck, card["name"]))
        return card

    def knights(self, n: int, purpose: str, *, arthurian: bool = False, vl_at_least: int = 0,
                fresh: bool = False) -> list[dict]:
        pk = self.pk

        def accept(c):
            return (not arthurian or c.arthurian) and c.virtue_level >= vl_at_least and \
                (not fresh or c.name not in pk["challenged"])
        return [self.draw("knights", purpose, accept) for _ in range(n)]

    def chit(self, kind: str, purpose: str) -> dict:
        chit = self.s.game.draw_chit(kind, purpose)
        tag = [chit["name"], chit["wl"]]
        self.s.game.state.setdefault("chits_out", {}).setdefault(kind, []).append(tag)
        self.chits.append((kind, tag))
        return chit

    def keep_chit(self, kind: str, chit: dict) -> None:
        """The chit stays in play (a new Mascot)."""
        for i, (k, tag) in enumerate(self.chits):
            if k == kind and tag == [chit["name"], chit["wl"]]:
                del self.chits[i]
                return

    def finish(self) -> None:
        """Discard the drawn cards that did not join the party; return the chits. The cards of
        persons recorded as met stay out until the requests phase is over (requests.py
        discards them then, unless they joined)."""
        pk = self.pk
        keep: list[str] = []
        if not pk["slain"] and self.s.pk is pk:
            for rec in party.records(self.s):
                for group in (rec["comrades"], rec["men_at_arms"], rec["party_extra"],
                              rec.get("prisoners", []), rec.get("guards", []),
                              rec.get("met", []),
                              (rec.get("knave") or {}).get("prisoners", [])):
                    keep.extend(x.get("name") or (x.get("card") or {}).get("name")
                                for x in group)
            for placed in self.s.game.state.get("castles", {}).values():
                keep.extend(g["name"] for g in placed.get("guards", []))
            from companion.koc.engine.villainy import held_cards

            keep.extend(held_cards(self.s.game.state))
            block = pk.get("river_block")
            if block and block.get("knight"):
                keep.append(block["knight"]["name"])
        for deck, name in self.cards:
            if name not in keep:
                self.s.game.discard(deck, name)
        self.cards = []
        out = self.s.game.state.get("chits_out", {})
        for kind, tag in self.chits:
            if tag in out.get(kind, []):
                out[kind].remove(tag)
        self.chits = []

    # -- what the PK met ------------------------------------------------------------------
    def met(self, kind: str, card: dict, attitude: str | None, **extra) -> None:
        """Record a person met and his final attitude (None: he left)."""
        if self.over():
            return
        # the reaction is towards the whole party: every knight of it met him
        for rec in party.records(self.s):
            met = rec.setdefault("met", [])
            met[:] = [e for e in met if not (e["kind"] == kind and e["card"].get("name") ==
                                              card.get("name"))]
            if attitude is not None:
                met.append({"kind": kind, "card": card, "attitude": attitude,
                            "turn": self.turn, **extra})

    # -- fighting -------------------------------------------------------------------------
    def fight(self, foes: list[dict], *, attacker: str = "foe", out: Outcome | None = None,
              **kw) -> Result:
        s = self.s
        kinds = [{"brigand": "brigands", "watchman": "watchmen", "pirate": "pirates"}.get(
            f["kind"], f["kind"]) for f in foes]
        tag = "knights" if kinds.count("knight") > 1 else kinds[0]
        tags = tuple(t for t in (tag, self.place) if t in FOES or t in PLACES)
        result = fight(s, foes, attacker=attacker, tags=tags, **kw)
        if out is not None:
            out.fought = True
            out.won = out.won or result.won
            out.lost = out.lost or (result.pk_defeated and not result.won)
        if self.place == "town" and not self.pk["slain"]:
            for f in result.defeated:
                if f["kind"] in ("lady", "hermit", "dwarf") and not f.get("druid"):
                    self.pk["town_watch"] = {"town": self.area, "turn": self.turn}
                    s.note(f"The town will not forget {f['name']}'s death: the watch will be "
                           f"looking for {self.pk['name']} if he stays.")
                    break
        return result


def _meeting(s: Session, m: Meeting | None, place: str | None = None) -> tuple[Meeting, bool]:
    if m is not None:
        return m, False
    return Meeting(s, place=place), True


# ------------------------------------------------------------------------------ deciding
def decide(m: Meeting, kind: str, what: str, *, avoidable: bool | None = None,
           attackable: bool = True, tags: tuple[str, ...] = (), count: int = 1,
           arthurian: int = 0, ask: bool = True) -> str:
    """The PK's choice before the encounter is revealed: 'avoided', 'attack' or 'await'.

    Avoiding takes a Luck Test (an Arthurian PK loses 6 VP for trying; a PK in animal form
    slips away at will, except from another animal); a failed attempt means awaiting the
    reaction. Sworn never to avoid, he cannot try. A Magic Ring avoids anything, at the cost
    of every follower but the Mascot and 6 VP."""
    s, pk = m.s, m.pk
    if not ask or pk["mad"] or getattr(s, "no_decide", False):
        return "await"
    avoidable = m.avoidable if avoidable is None else avoidable
    animal_form = pk["animal"] is not None
    if animal_form and kind == "animal":
        avoidable = False
    options = []
    if avoidable and "never_avoid_encounters" not in pk["oaths"]:
        options.append("avoid")
    if attackable and m.place != "shrine":
        options.append("attack")
    options.append("await")
    if kn.has_item(pk, "magic_ring"):
        options.append("ring")
    if options == ["await"]:
        return "await"
    how = "slip away" if animal_form else "avoid it (a Luck Test)"
    q = Question("encounter", f"{pk['name']} meets {what} ({m.place}). Choose: "
                 + ", ".join({"avoid": how, "attack": "attack first",
                              "await": "await the reaction",
                              "ring": "vanish with the Magic Ring"}[o] for o in options) + ".",
                 options, "await", tags=tuple(dict.fromkeys((kind, m.place, *tags))),
                 values={"count": count, "arthurian_count": arthurian})
    choice = s.ask(q)
    if choice == "ring":
        use_ring(m)
        m.avoided = True
        return "avoided"
    if choice == "avoid":
        if animal_form:
            s.note(f"{pk['name']}, in animal shape, slips away from {what}.")
            m.avoided = True
            return "avoided"
        if pk["arthurian"]:
            s.gain_vp(-6, "an Arthurian knight trying to avoid an encounter")
        if s.luck_test(f"avoid {what}"):
            s.note(f"{pk['name']} avoids {what}; his movement ends here.")
            m.avoided = True
            return "avoided"
        s.note(f"{pk['name']} cannot get away from {what}.")
        return "await"
    return choice


def use_ring(m: Meeting) -> None:
    """The Magic Ring: invisible, the PK avoids the encounter, but every comrade and companion
    except the Mascot leaves him, and the deceit costs 6 VP."""
    s, pk = m.s, m.pk
    s.note(f"{pk['name']} turns the Magic Ring and vanishes from sight.")
    drop_companions(s, why="vanishing with the Magic Ring", keep_arthurian_dwarf=False)
    s.gain_vp(-6, "using the Magic Ring")


def drop_companions(s: Session, *, why: str, keep_arthurian_dwarf: bool = False,
                    keep: tuple[str, ...] = ()) -> None:
    """Comrades, Men-at-Arms, the Dwarf and the persons escorted leave (not the Mascot, nor
    what ``party_extra`` holds of the kinds ``keep``)."""
    pk = s.pk
    lose_followers(s, why=why, keep_arthurian_dwarf=keep_arthurian_dwarf)
    going = [e for e in pk["party_extra"] if e.get("kind") not in keep]
    if going:
        names = [e["name"] for e in going]
        for extra in going:
            deck = {"king": "kings", "lady": "ladies", "knight": "knights",
                    "bound_mad_knight": "knights"}.get(extra.get("kind"))
            if deck:
                s.game.discard(deck, extra["name"])
        pk["party_extra"] = [e for e in pk["party_extra"] if e.get("kind") in keep]
        for task in tasks.active(s):
            if task.get("person") and task["person"].get("name") in names:
                task["status"] = "failed"
        verb = plural(s, len(names), "travels", "travel") \
            if edition(s.game.state) >= ONE_NO_LONGER_TRAVELS else "travel"
        s.note(f"{', '.join(names)} no longer {verb} with {pk['name']} ({why}).")


def stays_alone(s: Session, what: str) -> bool:
    """Sworn to travel alone, the PK takes no comrade or companion."""
    if "always_travel_alone" in s.pk["oaths"]:
        s.note(f"{s.pk['name']} has sworn to ride alone: {what} cannot come with him.")
        return True
    return False


def count_of(s: Session, entry, what: str) -> int:
    """How many the chart entry brings: a number, or '1-6' (one die)."""
    count = entry.get("count", 1)
    if isinstance(count, int):
        return count
    return s.d6(f"how many {what}")


# ============================================================================== terrain
def terrain_encounter(s: Session, area: str) -> None:
    """An encounter in a countryside, wasteland, forest, river, town, shrine or Faerie."""
    pk = s.pk
    pk["encountered"] = True
    from companion.koc.engine import adventures

    if adventures.first_encounter(s, area):
        return      # adventures 3:5 and 4:2: the first encounter there is their brigands
    m = Meeting(s, area)
    if m.place == "castle" and s.world.areas[area].is_shrine and pk["at"]["where"] == "area" \
            and not pk["at"].get("castle"):
        # outside a castle that is a shrine (Carbonek), where his Arthurian Dwarf carried him
        # mad to be cured: its holy place, a shrine's encounter (this raised before: no stored
        # turn can have passed here, so no edition)
        m = Meeting(s, area, place="shrine")
    place = m.place
    if place in ("countryside", "wasteland", "faerie"):
        modifier = 0 if place == "faerie" else s.world.countryside_modifier(area)
        result = s.chart("countryside", modifier=modifier, purpose=f"encounter in {area}")
    elif place in ("forest", "river", "town", "shrine"):
        result = s.chart(place, purpose=f"encounter in {area}")
    else:
        raise ValueError(f"no terrain encounter in {area} ({place})")
    key = result.entry.key
    if place == "faerie" and key in ("mad_knight", "monster", "hermit"):
        s.note("No such being dwells in Faerie: nothing happens.")
        return
    if key == "brigands" and adventures.band_found(s, area):
        m.finish()      # adventure 8:4: the band it hunts
        return
    handler = TERRAIN.get((place, key)) or TERRAIN.get(("*", key))
    handler(m, result.entry)
    if place == "river" and m.avoided and not m.over() and \
            pk.get("river_block", {}).get("turn") != m.turn:
        # an avoided river encounter: he has not crossed
        pk["river_block"] = {"river": area, "from": getattr(s, "came_from", None),
                             "turn": m.turn, "kind": "avoided"}
    m.finish()


def _monster(m: Meeting, entry) -> None:
    meet_monster(m.s, m=m)


def _mad_knight(m: Meeting, entry) -> None:
    meet_mad_knight(m.s, m=m)


def _animal(m: Meeting, entry) -> None:
    meet_animal(m.s, m=m)


def _knights(m: Meeting, entry) -> None:
    meet_knights(m.s, count=count_of(m.s, entry, "knights ride together"), m=m)


def _brigands(m: Meeting, entry) -> None:
    meet_brigands(m.s, count_of(m.s, entry, "brigands lie in wait"), m=m)


def _lady(m: Meeting, entry) -> None:
    meet_lady(m.s, m=m)


def _hermit(m: Meeting, entry) -> None:
    meet_hermit(m.s, m=m)


def _dwarf(m: Meeting, entry) -> None:
    meet_dwarf(m.s, m=m)


def _king(m: Meeting, entry) -> None:
    meet_king(m.s, m=m)


def _peasants(m: Meeting, entry) -> None:
    s, pk = m.s, m.pk
    if pk["mad"]:
        mad_meets(m, "peasants")
        return
    s.note(f"Peasants crowd round {pk['name']}, full of admiration and of their troubles; "
           "the day is gone before he can ride on.")
    m.met("peasants", {"kind": "peasants", "name": "peasants"}, FRIENDLY)


def _beggars(m: Meeting, entry) -> None:
    s, pk = m.s, m.pk
    if pk["mad"]:
        mad_meets(m, "beggars")
        return
    s.note(f"Beggars cling to {pk['name']}'s stirrups with tales of woe and pleas for alms; "
           "he gets no further today.")
    m.met("beggars", {"kind": "beggars", "name": "beggars"}, FRIENDLY)


# -- forest -------------------------------------------------------------------------------
def _lost(m: Meeting, entry) -> None:
    s, pk = m.s, m.pk
    pk["lost"] = True
    s.note(f"{pk['name']} loses his way among the trees of {m.area}. Next turn an encounter "
           "comes on 1-3; without one he finds the path out.")


def _wood_nymph(m: Meeting, entry) -> None:
    s, pk = m.s, m.pk
    choice = decide(m, "wood_nymph", "a wood nymph", attackable=False)
    if choice == "avoided":
        return
    if pk["mad"]:
        mad_meets(m, "wood_nymph")
    turns = s.d6("how long the wood nymph holds him")
    s.note(f"A wood nymph beguiles {pk['name']}: he will linger with her for {turns} "
           f"{plural(s, turns, 'turn')}, "
           "and leave her healed and free of every oath and spell.")
    pk["immobile"].append({"why": "beguiled by a wood nymph", "turns": turns})
    nymph_cure(m)


def nymph_cure(m: Meeting) -> None:
    """All poisoned wounds cured; every oath, enchantment and Enchantress's service lifted; no
    longer lost."""
    s, pk = m.s, m.pk
    if pk["poison"]:
        kn.cure_poison(pk)
        s.note(f"All of {pk['name']}'s poisoned wounds are healed.")
    if pk["oaths"]:
        s.note(f"{pk['name']} is released from his oaths ({', '.join(pk['oaths'])}).")
        pk["oaths"] = []
    _res().lift_all_enchantments(s)
    release_from_enchantress(m, "the wood nymph")
    pk["lost"] = False


def release_from_enchantress(m: Meeting, by: str) -> bool:
    s, pk = m.s, m.pk
    lady = pk["lady"]
    if pk.get("enchantress") or (lady and (lady.get("enchantress") or lady.get("morgan"))):
        _svc().lose_lady(s, f"released from the Enchantress's service by {by}")
        pk["enchantress"] = None
        return True
    return False


# -- river --------------------------------------------------------------------------------
def _attacking_knight(m: Meeting, entry, card: dict | None = None) -> None:
    """A knight who waits at the river for an opponent attacks; avoided, he is still there if
    the PK tries to cross next turn."""
    s, pk = m.s, m.pk
    waiting = card is not None
    card = card or m.draw("knights", "the knight guarding the river")
    if waiting:
        m.cards.append(("knights", card["name"]))
        s.note(f"The knight who guards the crossing of {m.area} is still there.")
    what = "the knight still waiting at the crossing" if waiting else \
        "a knight guarding the crossing" + (" (he wears Camelot's colours)"
                                            if card["arthurian"] else "")
    out = Outcome("knight")
    if pk["mad"]:
        mad_meets(m, "knight", card)
        return
    choice = decide(m, "knight", what, tags=("waiting", "alone") +
                    (("arthurian",) if card["arthurian"] else ()),
                    arthurian=int(card["arthurian"]))
    if choice == "avoided":
        pk["river_block"] = {"river": m.area, "from": getattr(s, "came_from", None),
                             "turn": m.turn, "kind": "knight", "knight": card}
        return
    s.note(f"It is {card['name']} (VL {card['vl']}, CP {card['cp']}).")
    f = npk(card)
    if card["name"] in pk["enemies"]:
        f["to_death"] = True
        s.note(f"{card['name']} is {pk['name']}'s declared enemy: they fight to the death.")
    m.fight([f], attacker="pk" if choice == "attack" else "foe", out=out)


def _highwayman(m: Meeting, entry) -> None:
    s, pk = m.s, m.pk
    card = m.draw("knights", "the highwayman's strength")
    if pk["mad"]:
        mad_meets(m, "highwayman")
        return
    choice = decide(m, "highwayman", "a highwayman", attackable=False)
    if choice == "avoided":
        return
    wl = (card["cp"] or 10) // 10
    s.note(f"A mounted highwayman (WL {wl}) rides at {pk['name']}, sword in hand.")
    robber = foe("highwayman", "the highwayman", wl, 2, bonus=entry.get("bonus", 1),
                 shieldless_matters=True, events=("opponent_shield_broken",))
    m.fight([robber], out=Outcome("highwayman"))


def _flooded_river(m: Meeting, entry) -> None:
    s, pk = m.s, m.pk
    pk["river_block"] = {"river": m.area, "from": getattr(s, "came_from", None),
                         "turn": m.turn, "kind": "flood"}
    s.note(f"{m.area} is in flood: {pk['name']} cannot cross. Next turn he must turn back or "
           "wait for the water to fall.")


def _troll(m: Meeting, entry) -> None:
    """A troll (WL 8) tries a trick first; escaped, it attacks."""
    s, pk = m.s, m.pk
    wl = entry.get("wl", 8)
    troll = foe("troll", "the troll of the river", wl, 3)
    choice = decide(m, "troll", "a troll under the bridge")
    if choice == "avoided":
        return
    if choice == "attack" or pk["mad"]:
        m.fight([troll], attacker="pk" if choice == "attack" else "foe", out=Outcome("troll"))
        return
    escaped = _res().trick(s, by={"kind": "troll", "name": "the troll of the river"})
    if escaped and not m.over():
        s.note("Its trick foiled, the troll attacks.")
        m.fight([troll], out=Outcome("troll"))


def _lady_bathing(m: Meeting, entry) -> None:
    meet_lady(m.s, m=m, status=False, reaction_modifier=entry.get("modifier", -1),
              avoidable=False, bathing=True)


# -- town ---------------------------------------------------------------------------------
def _plague(m: Meeting, entry) -> None:
    s, pk = m.s, m.pk
    loss = 10 * s.d6("how much the plague weakens him")
    s.note(f"{pk['name']} falls sick with the plague in {m.area} and lives, but much "
           "weakened; nothing can give back what it took.")
    s.gain_cp(-loss, "the plague")


def _watchmen(m: Meeting, entry) -> None:
    town_watch(m, entry)


WATCHMEN_NAMED = 7
"""The rules edition from which the town watch are named "watchman 1", as pirates are
(PIRATES_NAMED); before, "watchman 1 (WL 4)", which the fight's texts doubled."""


def town_watch(m: Meeting, entry=None) -> None:
    """Six watchmen accuse the PK; a VL test clears him; else he submits (prison) or resists (3
    VP and a fight on foot with swords; beaten, he goes to prison)."""
    s, pk = m.s, m.pk
    if pk["mad"]:
        mad_meets(m, "watchmen")
        return
    s.note(f"Six men of the town watch seize on {pk['name']} in a tavern of {m.area}, "
           "accusing him of brawling and of insulting women.")
    if s.vl_test(kn.vl(pk), "convince the watch of his innocence"):
        s.note("The watchmen are satisfied and let him go.")
        return
    q = Question("watchmen", "The watch does not believe you. Submit (and go to prison) or "
                 "resist (3 VP lost, and a fight)?", ["submit", "resist"], "submit",
                 tags=("watchmen", "town"))
    if s.ask(q) == "submit":
        s.note(f"{pk['name']} gives himself up to the watch.")
        _res().imprison(s, by="watchmen", jailor="the town watch", castle=m.area)
        return
    s.gain_vp(-entry.get("vp_loss", 3) if entry else -3, "fighting the town watch")
    men = []
    for i in range(entry.get("count", 6) if entry else 6):
        chit = m.chit("brigand", "a watchman")
        name = f"watchman {i + 1}" if edition(m.s.game.state) >= WATCHMEN_NAMED else \
            f"watchman {i + 1} (WL {chit['wl']})"      # the fight adds its WL itself
        men.append(foe("watchman", name, chit["wl"], 2))
    result = m.fight(men, on_defeat="none")
    if m.over():
        return
    if result.won:
        pk["town_watch"] = {"town": m.area, "turn": m.turn}
        s.note(f"The watch is beaten, but more will come for {pk['name']} if he stays in "
               f"{m.area}.")
    elif result.pk_defeated:
        _res().imprison(s, by="watchmen", jailor="the town watch", castle=m.area)


def _wanton_lady(m: Meeting, entry) -> None:
    s, pk = m.s, m.pk
    lady = m.draw("ladies", "a wanton lady", lambda c: c.virtue_level >= 6)
    choice = decide(m, "lady", "a lady of easy virtue", tags=("alone",))
    if choice == "avoided":
        return
    s.note(f"It is {lady['name']} (VL {lady['vl']}).")
    if pk["mad"]:
        mad_meets(m, "lady", lady)
        return
    if choice == "attack":
        attack_lady(m, lady, Outcome("lady"))
        return
    seduced = seduce(m, lady)
    m.met("lady", lady, FRIENDLY if seduced else UNFRIENDLY, alone=True)


def _lady_with_knights(m: Meeting, entry) -> None:
    s = m.s
    result = s.chart("town_lady", purpose="the lady and her three knights")
    lady = m.draw("ladies", "the lady with three knights")
    if result.entry.key == "escorted":
        escort = m.knights(3, "a knight escorting the lady")
        meet_lady(s, lady, escort=escort, status=False, m=m)
        return
    captors = m.knights(3, "a knight mistreating the lady", vl_at_least=6)
    distressed_lady(m, lady, captors)


def _priest(m: Meeting, entry) -> None:
    meet_hermit(m.s, priest=True, m=m)


def _children(m: Meeting, entry) -> None:
    s, pk = m.s, m.pk
    if pk["mad"]:
        mad_meets(m, "children")
        return
    s.note(f"The children of {m.area} beg {pk['name']} for tales of chivalry; he stays to tell "
           "them, losing the next turn (3 VP for his kindness).")
    pk["immobile"].append({"why": "telling stories to the town's children", "turns": 1,
                           "vp_per_turn": entry.get("vp", 3)})


def _town_knights(m: Meeting, entry) -> None:
    _knights(m, entry)


def _shrine_hermit(m: Meeting, entry) -> None:
    meet_hermit(m.s, m=m)


SHRINE_TURN_VP = 7
"""The rules edition from which each full turn spent at a shrine earns 1 VP (Shrine
Encounters): the knight began his player turn there and his movement phase took him nowhere
(shrine_turn). Before, nothing."""


def shrine_turn(s: Session, start: dict, moved: list[str] | None) -> None:
    """After the movement phase: 1 VP if the whole turn was spent at a shrine, that is he began
    it at the shrine (``start``) and is still there without having entered any area (``moved``)
    on the way. Rome counts while he is at its shrine, not in its town; Carbonek's shrine lies
    inside its castle. Not in prison."""
    pk = s.pk
    if edition(s.game.state) < SHRINE_TURN_VP or pk["slain"] or pk["prison"] or moved:
        return
    at = pk["at"]
    if at != start or at.get("castle"):
        return
    area = s.world.areas[at["area"]]
    if not area.is_shrine or (area.kind == "castle") != (at["where"] == "inside") or \
            at["where"] not in ("area", "inside") or \
            (area.is_town and pk.get("rome") == "town"):
        return
    s.gain_vp(1, f"a full turn at the shrine of {area.name}")


TERRAIN = {
    ("*", "monster"): _monster,
    ("*", "mad_knight"): _mad_knight,
    ("*", "animal"): _animal,
    ("*", "knights_three"): _knights,
    ("*", "knights"): _knights,
    ("*", "brigands"): _brigands,
    ("*", "peasants"): _peasants,
    ("*", "lady"): _lady,
    ("*", "hermit"): _hermit,
    ("*", "dwarf"): _dwarf,
    ("*", "king"): _king,
    ("forest", "lost"): _lost,
    ("forest", "wood_nymph"): _wood_nymph,
    ("river", "attacking_knight"): _attacking_knight,
    ("river", "highwayman"): _highwayman,
    ("river", "flooded_river"): _flooded_river,
    ("river", "troll"): _troll,
    ("river", "lady_bathing"): _lady_bathing,
    ("town", "plague"): _plague,
    ("town", "watchmen"): _watchmen,
    ("town", "wanton_lady"): _wanton_lady,
    ("town", "beggars"): _beggars,
    ("town", "lady_with_knights"): _lady_with_knights,
    ("town", "priest"): _priest,
    ("town", "children"): _children,
    ("shrine", "hermit"): _shrine_hermit,
}


# ============================================================================== creatures
def meet_monster(s: Session, monster: dict | None = None, *, m: Meeting | None = None,
                 avoidable: bool | None = None, ask: bool = True) -> Outcome:
    """A Monster (a chit): unless avoided it attacks at once, three dice, and slays whom it
    defeats."""
    m, own = _meeting(s, m)
    out = Outcome("monster")
    chit = monster or m.chit("monster", "a monster")
    if decide(m, "monster", "a monster", avoidable=avoidable, attackable=False,
              ask=ask) == "avoided":
        out.avoided = True
    elif monster is None and optional.is_devil(s):
        devil = optional.fight_devil(s)      # Devils (optional rule): a Monster met at random
        out.fought = True
        out.won = devil["outcome"] == "vanquished"
    else:
        s.note(f"It is a {chit['name']} (WL {chit['wl']}); it attacks.")
        m.fight([foe("monster", chit["name"], chit["wl"], 3)], out=out)
    if own:
        m.finish()
    return out


def meet_brigands(s: Session, n: int, *, m: Meeting | None = None,
                  avoidable: bool | None = None, ask: bool = True) -> Outcome:
    """A band of n Brigands (chits): unless avoided they attack at once, two dice each, and
    rob the PK's party of all equipment if they win."""
    m, own = _meeting(s, m)
    out = Outcome("brigands")
    pk = m.pk
    from companion.koc.engine import villainy

    if pk["mad"]:
        mad_meets(m, "brigands")
    elif ask and villainy.knave_meets_brigands(m, n, out):
        pass        # they follow the Knave (KNAVES: Encounters with Brigands)
    elif decide(m, "brigands", f"a band of {n} {plural(s, n, 'brigand')}", avoidable=avoidable,
                attackable=False, count=n, tags=("group",) if n > 1 else ("alone",),
                ask=ask) == "avoided":
        out.avoided = True
    else:
        band = []
        for i in range(n):
            chit = m.chit("brigand", "a brigand")
            band.append(foe("brigand", f"brigand {i + 1}", chit["wl"], 2))
        s.note(f"{n} {plural(s, n, 'brigand')} {plural(s, n, 'falls', 'fall', old='fall')} "
               f"upon {pk['name']}: "
               + ", ".join(f"WL {b['wl']}" for b in band) + ".")
        m.fight(band, out=out)
    if own:
        m.finish()
    return out


def meet_mad_knight(s: Session, card: dict | None = None, *, m: Meeting | None = None,
                    avoidable: bool | None = None, ask: bool = True) -> Outcome:
    """A Mad Knight (a Knight card): no equipment, but two dice for his rage, no shield; unless
    avoided he attacks at once and slays whom he defeats."""
    m, own = _meeting(s, m)
    out = Outcome("mad_knight")
    card = card or m.draw("knights", "the mad knight")
    if decide(m, "mad_knight", "a mad knight", avoidable=avoidable, attackable=False,
              ask=ask) == "avoided":
        out.avoided = True
    else:
        wl = (card.get("cp") or 10) // 10
        s.note(f"The mad knight is {card['name']} (WL {wl}); raving, he attacks bare-handed.")
        madman = foe("mad_knight", card["name"], wl, 2, shield=False, shieldless_matters=True,
                     card=card, vl=card["vl"], arthurian=card.get("arthurian", False))
        m.fight([madman], out=out)
    if own:
        m.finish()
    return out


def mad_meets(m: Meeting, kind: str, card: dict | None = None) -> str:
    """How the person or creature met treats a mad PK (service.mad_reaction): 'attacks',
    'avoids', 'cured' (go on with the reaction) or 'done'. A lady whose prayer cures him is
    met again at once (her reaction at +1), with no avoid/attack question."""
    s = m.s
    s.no_decide = True
    try:
        return _svc().mad_reaction(s, {"kind": kind,
                                       "card": card or {"kind": kind, "name": kind}})
    finally:
        s.no_decide = False


# -- animals ------------------------------------------------------------------------------
def animal_foe(chit: dict, name: str | None = None) -> dict:
    return foe("animal", name or chit["name"], chit["wl"], 2)


def meet_animal(s: Session, animal: dict | None = None, *, m: Meeting | None = None,
                avoidable: bool | None = None, ask: bool = True) -> Outcome:
    """An Animal (a chit) and its reaction. A PK in animal form cannot avoid another animal,
    which attacks him. A Mascot lost in a shipwreck (or while in animal form:
    ``pk['reunite']``) is found again at the next animal encounter."""
    m, own = _meeting(s, m)
    pk = m.pk
    out = Outcome("animal")
    lost = pk.get("reunite", {}).get("mascot")
    if lost and animal is None and not pk["animal"]:
        pk["reunite"].pop("mascot")
        if pk["mascot"] is None:
            pk["mascot"] = lost
            s.game.state.setdefault("chits_out", {}).setdefault("animal", []).append(
                [lost["name"], lost["wl"]])
            s.note(f"The animal is {pk['name']}'s lost {lost['name']}, which joyfully "
                   "finds its master again.")
            out.attitude = FRIENDLY
            if own:
                m.finish()
            return out
    chit = animal or m.chit("animal", "an animal")
    choice = decide(m, "animal", "an animal", avoidable=avoidable, ask=ask)
    if choice == "avoided":
        out.avoided = True
    else:
        s.note(f"It is a {chit['name']} (WL {chit['wl']}).")
        if choice == "attack":
            m.fight([animal_foe(chit)], attacker="pk", out=out)
        elif pk["mad"] or pk["animal"]:
            why = "the madman" if pk["mad"] else "the beast he has become"
            s.note(f"The {chit['name']} attacks {why}.")
            m.fight([animal_foe(chit)], out=out)
        else:
            animal_reaction(m, chit, out)
    if own:
        m.finish()
    return out


def animal_reaction(m: Meeting, chit: dict, out: Outcome) -> None:
    s, pk = m.s, m.pk
    name = chit["name"]
    while True:
        result = s.chart("animal", purpose=f"reaction of the {name}")
        key = out.key = result.entry.key
        out.attitude = attitude_of(result.totals[0])
        if key == "attacks_with_others":
            n = s.d6("how many animals run with it")
            pack = [animal_foe(chit)] + [animal_foe(chit, f"{name} {i + 2}") for i in range(n)]
            s.note(f"The {name} and {n} more of its kind attack {pk['name']}.")
            m.fight(pack, out=out)
        elif key == "attacks_steed":
            if pk["gear"]["horse"]:
                s.note(f"The {name} goes for {pk['name']}'s horse; he fights to save it.")
                m.fight([animal_foe(chit)], out=out, steed=True)
            else:
                s.note(f"With no horse to go for, the {name} attacks {pk['name']}.")
                m.fight([animal_foe(chit)], out=out)
        elif key == "prophecy":
            s.note(f"The {name} speaks with a human voice and utters a prophecy.")
            _res().adventure_news(s, {"kind": "animal", "name": f"the {name}"}, prophecy=True)
        elif key == "message":
            s.note(f"The {name} carries a message for {pk['name']}.")
            _res().message(s, source={"kind": "animal", "name": f"the {name}"})
        elif key == "flees_chased":
            s.note(f"The {name} bolts past; close behind comes a knight on its trail.")
            meet_knights(s, count=1, reaction_modifier=result.entry.get("modifier", -1), m=m,
                         avoidable=False)
        elif key == "runs_away":
            s.note(f"The {name} runs off.")
            if pursue(m, "animal", f"the {name}"):
                continue
        elif key in ("leads_to_adventure", "leads_to_castle"):
            what = "an adventure close by" if key == "leads_to_adventure" else \
                "a lady's castle close by"
            if follow(m, "animal", f"the {name}", what, key):
                if key == "leads_to_adventure":
                    _res().adventure_news(s, {"kind": "animal", "name": f"the {name}"},
                                          local=True)
        elif key == "informs_adventure":
            s.note(f"The {name} speaks, and tells of an adventure.")
            _res().adventure_news(s, {"kind": "animal", "name": f"the {name}"})
        elif key == "mascot":
            new_mascot(m, chit, out)
        elif key == "enchanted_lady":
            enchanted_lady(m, chit, result.entry)
        return


def pursue(m: Meeting, kind: str, what: str, *, they: bool = False) -> bool:
    """Chase those who flee (a Luck Test); caught, their reaction is rolled anew. ``they``:
    ``what`` names more than one ("the knights"; the verb agrees)."""
    s = m.s
    flee = plural(s, 2 if they else 1, "flees", "flee", old="flee(s)")
    react = "they react" if they or edition(s.game.state) < ONE_KNIGHT_FLEES else \
        "it reacts" if kind == "animal" else "he reacts"
    q = Question("pursue", f"{what} {flee}. Pursue (a Luck Test; caught, {react} anew)?",
                 ["yes", "no"], "no", tags=(kind,))
    if s.ask(q) == "yes" and s.luck_test(f"catch up with {what}"):
        s.note(f"{m.pk['name']} catches up with {what}.")
        return True
    return False


def follow(m: Meeting, kind: str, who: str, what: str, key: str) -> bool:
    """An animal or dwarf offers to lead the PK next turn (to a local adventure or to a local
    lady's friendly castle)."""
    s, pk = m.s, m.pk
    q = Question("follow", f"{who} would lead {pk['name']} to {what}. Follow?", ["yes", "no"],
                 "yes", tags=(kind, "adventure" if key == "leads_to_adventure" else "castle"))
    if s.ask(q) != "yes":
        s.note(f"{pk['name']} does not follow {who}.")
        return False
    s.note(f"{pk['name']} will follow {who}.")
    if key != "leads_to_adventure":
        local = s.world.local_countryside(m.area).name
        schedule(s, "led_to_castle", area=local, by=who)
    return True


def new_mascot(m: Meeting, chit: dict, out: Outcome) -> None:
    """The animal would stay with the PK as his Mascot; should he own one already, the two
    fight, and a victorious newcomer then attacks the PK."""
    s, pk = m.s, m.pk
    name = chit["name"]
    if pk["mascot"] is None:
        if stays_alone(s, f"the {name}"):
            return
        pk["mascot"] = {"name": name, "wl": chit["wl"]}
        m.keep_chit("animal", chit)
        s.note(f"The {name} attaches itself to {pk['name']} as his Mascot.")
        return
    from companion.koc.engine.combat import duel

    mine = pk["mascot"]
    s.note(f"The {name} wants to be {pk['name']}'s Mascot and goes for {mine['name']}.")
    ours = foe("mascot", mine["name"], mine["wl"], 2)
    ours["wounds"] = mine.get("wounds", 0)
    winner = duel(s, ours, animal_foe(chit))
    if winner is ours:
        mine["wounds"] = ours["wounds"]
        s.note(f"{mine['name']} kills the {name}.")
        s.gain_cp(math.ceil(chit["wl"] / 2), f"his Mascot slaying the {name}")
        return
    s.note(f"The {name} kills {mine['name']} and turns on {pk['name']}.")
    out_chits = s.game.state.get("chits_out", {}).get("animal", [])
    if [mine["name"], mine["wl"]] in out_chits:
        out_chits.remove([mine["name"], mine["wl"]])
    pk["mascot"] = None
    beast = animal_foe(chit)
    beast["wounds"] = winner["wounds"]
    m.fight([beast], out=out)


def enchanted_lady(m: Meeting, chit: dict, entry) -> None:
    """An enchanted Lady asks for a prayer (aid): a PK's prayer is a VL test; lifted, the lady
    (never an Enchantress) is friendly; a failed prayer neither gains nor costs."""
    s, pk = m.s, m.pk
    name = chit["name"]
    s.note(f"The {name} speaks: she is a lady under a spell, and begs {pk['name']} to pray for "
           "her release.")
    forced = "always_grant_requests" in pk["oaths"] or "always_help_ladies" in pk["oaths"]
    q = Question("pray_for_lady", "Pray for the enchanted lady (a VL test; 6 VP if it works, "
                 "6 VP lost for refusing)?", ["yes", "no"], "yes", tags=("animal",))
    if not forced and s.ask(q) == "no":
        s.note(f"{pk['name']} will not pray for her; the {name} goes sadly away.")
        s.gain_vp(-entry.get("vp", 6), "refusing aid to the enchanted lady")
        return
    if s.world.areas[pk["at"]["area"]].otherworld:
        s.note("Prayer has no power in Faerie; the spell holds and the animal leaves.")
        return
    if s.vl_test(kn.vl(pk), "a prayer to lift the spell"):
        lady = m.draw("ladies", "the lady freed from the spell", lambda c: not c.enchantress)
        s.note(f"The spell breaks: the {name} becomes {lady['name']}, who is grateful.")
        s.gain_vp(entry.get("vp", 6), "lifting the spell from an enchanted lady")
        m.met("lady", lady, FRIENDLY, alone=True)
    else:
        s.note(f"The prayer fails; the {name} leaves.")


def schedule(s: Session, what: str, **data) -> None:
    """Something an encounter sets up for the PK's next turn (see start_of_movement)."""
    s.pk.setdefault("next_turn", []).append({"what": what, "due": turn_no(s) + 1, **data})


# -- dwarves ------------------------------------------------------------------------------
DWARF = {"kind": "dwarf", "name": "the dwarf", "vl": 0}


def dwarf_foe(name: str = "the dwarf", bonus: int = 0) -> dict:
    return foe("dwarf", name, 1, 2, bonus=bonus)


def meet_dwarf(s: Session, *, m: Meeting | None = None, avoidable: bool | None = None,
               ask: bool = True) -> Outcome:
    """A Dwarf (WL 1, two dice) and his reaction. An Arthurian Dwarf left behind (in Faerie,
    or when the PK was turned into an animal) is the first Dwarf met afterwards."""
    m, own = _meeting(s, m)
    pk = m.pk
    out = Outcome("dwarf")
    waiting = pk.get("reunite", {}).get("dwarf")
    if waiting and pk["dwarf"] is None and not pk["animal"]:
        pk["dwarf"] = pk["reunite"].pop("dwarf")
        s.note(f"The dwarf is {pk['name']}'s own faithful Arthurian Dwarf, who has waited for "
               "him; he takes up his service again.")
        out.attitude = FRIENDLY
    elif pk["mad"]:
        mad_meets(m, "dwarf")
    else:
        choice = decide(m, "dwarf", "a dwarf", avoidable=avoidable, ask=ask)
        if choice == "avoided":
            out.avoided = True
        elif choice == "attack":
            s.note(f"{pk['name']} attacks the dwarf.")
            m.fight([dwarf_foe()], attacker="pk", out=out)
        else:
            dwarf_reaction(m, out)
    if own:
        m.finish()
    return out


def dwarf_reaction(m: Meeting, out: Outcome) -> None:
    s, pk = m.s, m.pk
    result = s.chart("dwarf", purpose="reaction of the dwarf")
    key = out.key = result.entry.key
    attitude = attitude_of(result.totals[0])
    if key == "tricks_into_faerie":
        s.note(f"The dwarf lures {pk['name']} through a hidden door into Faerie.")
        from companion.koc.engine.faerie import enter_faerie

        enter_faerie(s, award=False, why="tricked there by a dwarf")
        return
    if key == "calls_king":
        s.note("The dwarf runs off and comes back with a king and his knights.")
        meet_king(s, m=m, reaction_modifier=result.entry.get("modifier", -1), ask=False)
        return
    if key == "calls_brigands":
        s.note("The dwarf whistles, and brigands come running.")
        meet_brigands(s, count_of(s, result.entry, "brigands"), m=m, ask=False)
        return
    if key == "tricks":
        _res().trick(s, by=dict(DWARF))
    elif key == "message":
        _res().message(s, source=dict(DWARF))
    elif key == "offers_equipment":
        dwarf_gear(m, result.entry, out)
    elif key == "requests_aid":
        attitude = FRIENDLY if _res().request_aid(s, dict(DWARF)) else NEUTRAL
    elif key == "informs_adventure":
        _res().adventure_news(s, dict(DWARF))
    elif key == "requests_to_join":
        dwarf_joins(m, out)
    elif key == "knight_in_disguise":
        card = m.draw("knights", "the knight disguised as a dwarf")
        s.note(f"The dwarf throws off his disguise: he is {card['name']}.")
        meet_knights(s, [card], reaction_modifier=result.entry.get("modifier", 1), m=m,
                     ask=False)
        return
    elif key == "leads_to_castle":
        follow(m, "dwarf", "the dwarf", "a lady's castle close by", key)
    if not m.over():
        out.attitude = attitude
        m.met("dwarf", dict(DWARF), attitude)


def dwarf_gear(m: Meeting, entry, out: Outcome) -> None:
    """A mounted dwarf with a full set of equipment offers to resupply the PK (he stays
    neutral and does not join); attacked, he fights at +1 while mounted."""
    s, pk = m.s, m.pk
    q = Question("dwarf_gear", "A mounted dwarf offers you fresh equipment: accept, decline, "
                 "or attack him?", ["accept", "decline", "attack"], "accept", tags=("dwarf",))
    choice = s.ask(q)
    if choice == "accept":
        missing = [g for g in kn.GEAR if not pk["gear"][g]]
        for g in missing:
            pk["gear"][g] = True
        if "horse" in missing:
            pk["on_foot"] = False
        s.note(f"The dwarf gives {pk['name']} "
               + (", ".join(missing) if missing else "nothing he lacks") + ".")
    elif choice == "attack":
        m.fight([dwarf_foe("the mounted dwarf", entry.get("bonus", 1))], attacker="pk",
                out=out)


def dwarf_joins(m: Meeting, out: Outcome) -> None:
    """The dwarf asks to serve: with no Dwarf yet he joins (without spare equipment); if the
    PK has one, the two dwarves fight; a victorious newcomer then attacks the PK."""
    s, pk = m.s, m.pk
    if pk["dwarf"] is None:
        if stays_alone(s, "the dwarf"):
            return
        q = Question("join", "The dwarf asks to serve you. Take him on?", ["yes", "no"], "yes",
                     tags=("dwarf",))
        if s.ask(q) == "yes":
            pk["dwarf"] = {"arthurian": False, "spares": []}
            s.note(f"The dwarf enters {pk['name']}'s service (he carries no spare equipment).")
        return
    from companion.koc.engine.combat import duel

    mine = pk["dwarf"]
    s.note(f"The dwarf wants {pk['name']}'s Dwarf's place: the two dwarves fight.")
    ours = dwarf_foe("his own Dwarf", 1 if mine.get("arthurian") else 0)
    theirs = dwarf_foe("the stranger dwarf")
    if duel(s, ours, theirs) is ours:
        s.note("The stranger dwarf is slain.")
        return
    s.note(f"{pk['name']}'s Dwarf is slain, and the stranger turns on {pk['name']}.")
    pk["dwarf"] = None
    m.fight([theirs], out=out)


# -- hermits ------------------------------------------------------------------------------
def meet_hermit(s: Session, *, priest: bool = False, m: Meeting | None = None,
                avoidable: bool | None = None, ask: bool = True) -> Outcome:
    """A Goodly Hermit Man (or a town's Priest: the same reactions): WL 1, one die, never the
    first to strike. At a shrine he cannot be avoided, nor fought."""
    m, own = _meeting(s, m)
    pk = m.pk
    out = Outcome("hermit")
    who = "the priest" if priest else "the hermit"
    hermit = {"kind": "hermit", "name": who, "vl": 0, "priest": priest}
    if m.place == "shrine":
        avoidable = False
    choice = decide(m, "hermit", "a priest" if priest else "a Goodly Hermit Man",
                    avoidable=avoidable, tags=("priest",) if priest else (), ask=ask)
    if choice == "avoided":
        out.avoided = True
    elif choice == "attack":
        s.note(f"{pk['name']} attacks {who}.")
        m.fight([foe("hermit", who, 1, 1)], attacker="pk", out=out)
    else:
        if pk["mad"]:
            mad_meets(m, "priest" if priest else "hermit", hermit)
        hermit_reaction(m, hermit, out)
    if own:
        m.finish()
    return out


def hermit_reaction(m: Meeting, hermit: dict, out: Outcome) -> None:
    s, pk = m.s, m.pk
    who = hermit["name"]
    kind_tag = "priest" if hermit["priest"] else "hermit"
    result = s.chart("hermit", purpose=f"reaction of {who}")
    entry = result.entry
    key = out.key = entry.key
    attitude = attitude_of(result.totals[0])
    if key == "penance_rome":
        if penance(m, "rome", f"to journey to Rome by the shortest way ({entry.get('vp', 18)} "
                   "VP on arrival)", kind_tag):
            tasks.add(s, "penance", entry.get("area", "Rome"), awards={"vp": entry.get("vp", 18)},
                      penalty_vp=12, why=f"{who}'s penance: a journey to Rome")
        else:
            attitude = NEUTRAL
    elif key == "exacts_oath":
        _res().swear_oath(s, f"demanded by {who}")
    elif key == "druid":
        druid(m)
    elif key == "tricks":
        _res().trick(s, by=dict(hermit), hermit=True)
    elif key == "prophecy":
        _res().adventure_news(s, dict(hermit), prophecy=True)
    elif key == "requests_services":
        q = Question("hermit_services", f"{who.capitalize()} asks {pk['name']} to stay and "
                     "pray with him through the next turn (no movement; 1 VP; he becomes "
                     "friendly). Stay?", ["yes", "no"], "yes", tags=(kind_tag,))
        if s.ask(q) == "yes":
            s.note(f"{pk['name']} will spend the next turn in prayer with {who}.")
            pk["immobile"].append({"why": f"resting and praying with {who}", "turns": 1,
                                   "vp_per_turn": entry.get("vp", 1)})
            schedule(s, "hermit_services", hermit=dict(hermit))
        else:
            s.note(f"{pk['name']} excuses himself and rides on.")
    elif key == "informs_adventure":
        _res().adventure_news(s, dict(hermit))
    elif key == "penance_scourge":
        if penance(m, "scourge", "to scourge himself next turn (3 VP for each poisoned wound, "
                   "at most a die's worth)", kind_tag):
            schedule(s, "scourge", by=who)
        else:
            attitude = NEUTRAL
    elif key == "penance_fast":
        if penance(m, "fast", "to fast from next turn, up to six turns (3 VP a turn; combat "
                   "rolls halved)", kind_tag):
            schedule(s, "fast", by=who)
        else:
            attitude = NEUTRAL
    elif key == "penance_pilgrimage":
        shrine = tasks.random_shrine(s)
        if penance(m, "pilgrimage", f"to go on pilgrimage to {shrine} by the most direct way "
                   f"({entry.get('vp', 12)} VP on arrival)", kind_tag):
            tasks.add(s, "pilgrimage", shrine, awards={"vp": entry.get("vp", 12)},
                      penalty_vp=12, why=f"{who}'s penance")
        else:
            attitude = NEUTRAL
    elif key == "heals":
        hermit_boon(m, who, kind_tag)
    if not m.over():
        out.attitude = attitude
        m.met("hermit", dict(hermit), attitude)


def penance(m: Meeting, kind: str, what: str, tag: str) -> bool:
    """Accept a penance, or refuse it for 12 VP."""
    s, pk = m.s, m.pk
    q = Question("penance", f"A penance is laid on {pk['name']}: {what}. Accept it (refusing "
                 "costs 12 VP)?", ["accept", "refuse"], "accept", tags=(tag, kind))
    if s.ask(q) == "accept":
        s.note(f"{pk['name']} accepts the penance.")
        return True
    s.note(f"{pk['name']} refuses the penance.")
    s.gain_vp(-12, "refusing a penance")
    return False


def druid(m: Meeting) -> None:
    """The hermit is a Druid who tries to enchant the PK (+3); resisted, the PK may attack him,
    without award or penalty, and is slain if he loses."""
    s = m.s
    s.note("The hermit is no holy man but a druid, and he weaves a spell.")
    resisted = _res().enchant(s, {"kind": "druid", "name": "the druid", "vl": 13}, 3,
                              druid=True)
    if not resisted or m.over():
        return
    if m.place == "shrine":
        s.note("No blood may be shed at the shrine: the druid walks away.")
        return
    q = Question("attack_druid", "You resisted the druid's spell. Attack him (no award; he "
                 "slays you if he wins)?", ["yes", "no"], "no", tags=("hermit",))
    if s.ask(q) == "yes":
        m.fight([foe("hermit", "the druid", 1, 1, druid=True)], attacker="pk", awards=False,
                on_defeat="slay")


def hermit_boon(m: Meeting, who: str, tag: str) -> None:
    """The friendly hermit cures all poisoned wounds, or lifts one enchantment, or releases the
    PK from an Enchantress's service (Morgan's too), or from one oath: the PK chooses."""
    s, pk = m.s, m.pk
    lady = pk["lady"]
    options = []
    if pk["poison"]:
        options.append("cure poison")
    if pk["enchantments"]:
        options.append("lift enchantment")
    if pk.get("enchantress") or (lady and (lady.get("enchantress") or lady.get("morgan"))):
        options.append("release from enchantress")
    if pk["oaths"]:
        options.append("release from oath")
    if not options:
        s.note(f"{who.capitalize()} blesses {pk['name']}, who needs no healing.")
        return
    options.append("none")
    q = Question("hermit_boon", f"{who.capitalize()} offers to heal {pk['name']} or free him: "
                 + ", ".join(options[:-1]) + ".", options, options[0], tags=(tag,))
    choice = s.ask(q)
    if choice == "cure poison":
        n = kn.cure_poison(pk)
        s.note(f"{who.capitalize()} heals all {n} of {pk['name']}'s poisoned wounds.")
    elif choice == "lift enchantment":
        _res().lift_enchantment(s, pk["enchantments"][0])
    elif choice == "release from enchantress":
        release_from_enchantress(m, who)
    elif choice == "release from oath":
        _res().release_oath(s)


# ============================================================================== persons
def is_lord(pk: dict, card: dict) -> bool:
    lord = pk["lord"]
    return bool(lord and lord.get("name") == card.get("name"))


def remembered(pk: dict, card: dict) -> bool:
    """A person who became friendly for good (a King beaten who passed his VL check, a person
    aided or freed: resolutions.befriend) greets the PK as a friend again."""
    return card.get("name") in pk.get("friendly_persons", [])


def arthurian_count(cards: list[dict]) -> int:
    return sum(1 for c in cards if c.get("arthurian"))


def group_tags(cards: list[dict]) -> tuple[str, ...]:
    tags = ["group" if len(cards) > 1 else "alone"]
    if arthurian_count(cards):
        tags.append("arthurian")
    return tuple(tags)


def declared_enemies(pk: dict, cards: list[dict]) -> list[dict]:
    return [c for c in cards if c["name"] in pk["enemies"]]


def fight_enemies(m: Meeting, cards: list[dict], out: Outcome, leader: dict | None = None,
                  extra: list[dict] = ()) -> None:
    """Declared enemies attack at once and fight to the death (so do those with them)."""
    s, pk = m.s, m.pk
    names = ", ".join(c["name"] for c in declared_enemies(pk, cards))
    s.note(f"{names} and {pk['name']} are declared enemies: they attack, and fight to the "
           "death.")
    foes = []
    for c in cards:
        f = npk(c)
        if c["name"] in pk["enemies"]:
            f["to_death"] = True
        foes.append(f)
    m.fight(foes + list(extra), out=out, leader=leader)


def offer_challenge(m: Meeting, card: dict, tag: str) -> None:
    """At the end of a friendly meeting the PK may challenge the King or the knights' leader,
    once per game each; the NPK accepts on a VL check."""
    s, pk = m.s, m.pk
    if m.over() or card["name"] in pk["challenged"] or m.place in ("shrine",):
        return
    if any(c.get("name") == card["name"] for c in pk["comrades"] + pk["men_at_arms"]):
        return
    q = Question("challenge", f"Challenge {card['name']} (VL {card['vl']}, CP {card['cp']}) to "
                 "single combat? He accepts on a VL check.", ["yes", "no"], "no",
                 tags=(tag,) + (("arthurian",) if card.get("arthurian") else ()))
    if s.ask(q) != "yes":
        return
    if not s.vl_check(card["vl"], "accepts the challenge", who=card["name"]):
        s.note(f"{card['name']} declines the challenge.")
        return
    from companion.koc.engine.combat import challenge

    result = challenge(s, npk(card), challenger="pk", tags=(tag,))
    if result.challenge_winner == "foe" and not m.over():
        m.met(card["kind"], card, NEUTRAL)


# -- kings --------------------------------------------------------------------------------
def meet_king(s: Session, king: dict | None = None, *, reaction_modifier: int = 0,
              escort: list[dict] | None = None, m: Meeting | None = None,
              avoidable: bool | None = None, ask: bool = True) -> Outcome:
    """A King, always with as many knights as the PK's party counts (King Arthur's all
    Arthurian). He is revealed with his escort; his reaction stands for the whole party; the
    PK's Lord is always friendly."""
    m, own = _meeting(s, m)
    pk = m.pk
    out = Outcome("king")
    king = king or m.draw("kings", "a king")
    arthur = king["name"] == "King Arthur"
    if escort is None:
        escort = m.knights(party.party_knights(s), f"a knight of {king['name']}'s escort",
                           arthurian=arthur)
    cards = [king] + escort
    choice = decide(m, "king", f"a king with {len(escort)} {plural(s, len(escort), 'knight')}",
                    avoidable=avoidable,
                    tags=("escorted",) + (("arthurian",) if arthurian_count(escort) else ()),
                    count=len(cards), arthurian=arthurian_count(escort), ask=ask)
    if choice == "avoided":
        out.avoided = True
        if own:
            m.finish()
        return out
    s.note(f"It is {king['name']} (VL {king['vl']}), riding with "
           + (", ".join(c["name"] for c in escort) or "nobody") + ".")
    leader = npk(king)
    if choice == "attack":
        s.note(f"{pk['name']} attacks the King's party.")
        m.fight([npk(c) for c in escort] + [leader], attacker="pk", out=out, leader=leader)
        settle_king_attitude(m, king, UNFRIENDLY, out)
    elif pk["mad"]:
        mad_meets(m, "king", king)
    elif declared_enemies(pk, cards):
        fight_enemies(m, escort, out, leader=leader, extra=[leader])
        settle_king_attitude(m, king, UNFRIENDLY, out)
    elif is_lord(pk, king):
        s.note(f"{king['name']} is {pk['name']}'s Lord, and greets him as a friend.")
        settle_king_attitude(m, king, FRIENDLY, out)
    elif remembered(pk, king):
        s.note(f"{king['name']} remembers {pk['name']} as a friend.")
        settle_king_attitude(m, king, FRIENDLY, out)
    else:
        king_reaction(m, king, escort, reaction_modifier, out)
    if own:
        m.finish()
    return out


def settle_king_attitude(m: Meeting, king: dict, attitude: str | None, out: Outcome) -> None:
    """Record the King's final attitude (a King beaten in a fight decides his own), and his
    party's; King Arthur friendly makes Camelot Castle friendly for good."""
    if m.over():
        return
    if king.get("reaction") == FRIENDLY:
        _res().befriend(m.s, king)
    attitude = king.pop("reaction", attitude)
    out.attitude = attitude
    m.met("king", king, attitude)
    if attitude == FRIENDLY and king["name"] == "King Arthur" and \
            CAMELOT not in m.pk["friendly"]:
        m.pk["friendly"].append(CAMELOT)
        m.s.note(f"King Arthur's favour opens Camelot Castle to {m.pk['name']} for good.")


def king_reaction(m: Meeting, king: dict, escort: list[dict], modifier: int,
                  out: Outcome) -> None:
    s = m.s
    arthur = king["name"] == "King Arthur"
    from companion.koc.engine.tournaments import office_bonus

    from companion.koc.engine.knaves import arthurian_reaction

    modifier += arthurian_reaction(s, [king, *escort])
    result = s.chart("king", modifier=modifier + office_bonus(s.pk, "king"),
                     purpose=f"reaction of {king['name']}")
    entry = result.entry
    key = out.key = entry.key
    attitude = attitude_of(result.totals[0])
    leader = npk(king)
    if key == "attacks_with_knights":
        more = m.knights(count_of(s, entry, "knights the king calls"),
                         "a knight called by the king", arthurian=arthur)
        s.note(f"{king['name']} calls " + ", ".join(c["name"] for c in more)
               + " to attack with his escort.")
        m.fight([npk(c) for c in escort + more] + [leader], out=out, leader=leader)
    elif key == "exacts_oath":
        _res().swear_oath(s, f"demanded by {king['name']}")
    elif key == "tricks":
        _res().trick(s, by=king)
    elif key in ("challenges", "offers_challenge"):
        attitude = king_challenge(m, king, issued=key == "challenges")
    elif key == "informs_adventure":
        _res().adventure_news(s, king)
    elif key == "requests_escort":
        castle = s.world.kingdoms[king["kingdom"]].royal_castle
        if escort_person(m, king, castle, aid=True, vp=entry.get("vp", 6)):
            befriend(s, castle)
        else:
            attitude = NEUTRAL
    elif key == "requests_aid":
        attitude = FRIENDLY if _res().request_aid(s, king) else NEUTRAL
    elif key == "invites_to_castle":
        castle = s.world.kingdoms[king["kingdom"]].royal_castle
        befriend(s, castle)
        escort_person(m, king, castle, aid=False)
    elif key == "message":
        _res().message(s, source=king)
    elif key == "grants_request":
        king_grants(m, king)
    settle_king_attitude(m, king, attitude, out)
    if attitude == FRIENDLY and not m.over():
        offer_challenge(m, king, "king")


def king_challenge(m: Meeting, king: dict, *, issued: bool) -> str:
    """A King's challenge (issued: declining costs the PK his comrades, Men-at-Arms and Dwarf;
    offered: declining is free and the King's party rides on). The PK gets a lance and shield
    (sword and shield in a wasteland) from the escort if he lacks one. Won, the King is
    friendly; lost, a Knight's Fate; even, no fate."""
    s, pk = m.s, m.pk
    if king["name"] in pk["challenged"]:
        # he turns to another knight of the party who has not met him yet, if any
        other = next((x for x in party.with_me(s) if king["name"] not in x.pk["challenged"]),
                     None)
        if other is None:
            s.note(f"{king['name']} and {pk['name']} have already met in a challenge; the King "
                   "stays neutral.")
            return NEUTRAL
        s.note(f"{king['name']} has already met {pk['name']} in a challenge, and turns to "
               f"{other.pk['name']}.")
        s, pk = other, other.pk
    if issued:
        q = Question("king_challenge", f"{king['name']} challenges {pk['name']}. Accept "
                     "(declining, your comrades, Men-at-Arms and Dwarf leave you)?",
                     ["yes", "no"], "yes", tags=("king",))
    else:
        q = Question("accept_challenge", f"{king['name']} offers a challenge. Accept?",
                     ["yes", "no"], "no", tags=("king",))
    if s.ask(q) != "yes":
        s.note(f"{pk['name']} declines {king['name']}'s challenge.")
        if issued:
            lose_followers(s, why="declining a King's challenge")
            return NEUTRAL
        s.note(f"{king['name']} and his knights ride on.")
        return None
    wanted = ("sword", "shield") if m.place == "wasteland" else ("lance", "shield")
    if any(not pk["gear"][g] for g in wanted):
        for g in wanted:
            pk["gear"][g] = True
        s.note(f"The King's escort lends {pk['name']} a {' and a '.join(wanted)}.")
    from companion.koc.engine.combat import challenge

    result = challenge(s, npk(king), challenger="foe", tags=("king",))
    return FRIENDLY if result.challenge_winner == "pk" else NEUTRAL


def king_grants(m: Meeting, king: dict) -> None:
    """The King offers to grant any one request, at once and without a Luck Test."""
    s, pk = m.s, m.pk
    options = [r for r in KING_REQUESTS
               if not (r == "castle" and not is_lord(pk, king))
               and not (r == "escort" and m.place == "castle")
               and not (r == "pardon" and king["kingdom"] not in pk["exiles"])
               and not (r == "service" and is_lord(pk, king))]
    options.append("none")
    default = "none"
    if pk["poison"]:
        default = "heal"
    elif pk["enchantments"]:
        default = "lift enchantment"
    elif not pk["men_at_arms"] and pk["lord"]:
        default = "men at arms"
    elif pk["dwarf"] is None:
        default = "dwarf"
    q = Question("king_request", f"{king['name']} will grant {pk['name']} any one request: "
                 "which?", options, default, tags=("king",))
    choice = s.ask(q)
    if choice == "none":
        s.note(f"{pk['name']} asks nothing of {king['name']}.")
        return
    from companion.koc.engine.requests import REQUEST_KEYS, grant

    grant(s, king, REQUEST_KEYS.get(choice, choice.replace(" ", "_")), automatic=True)


# -- knights ------------------------------------------------------------------------------
def meet_knights(s: Session, knights: list[dict] | None = None, *, count: int | None = None,
                 reaction_modifier: int = 0, leader: dict | None = None,
                 m: Meeting | None = None, avoidable: bool | None = None,
                 ask: bool = True) -> Outcome:
    """Knights (cards drawn in order; the first drawn leads). The PK may learn how many wear
    Camelot's colours before choosing. With a leader (a King or a Lady), the leader's reaction
    takes precedence (see meet_king, meet_lady)."""
    if leader is not None and leader.get("kind") == "king":
        return meet_king(s, leader, escort=knights, reaction_modifier=reaction_modifier, m=m,
                         avoidable=avoidable, ask=ask)
    if leader is not None and leader.get("kind") == "lady":
        return meet_lady(s, leader, escort=knights, reaction_modifier=reaction_modifier,
                         status=False, m=m, avoidable=avoidable, ask=ask)
    m, own = _meeting(s, m)
    pk = m.pk
    out = Outcome("knights")
    if knights is None:
        knights = m.knights(count or 1, "a knight met on the way")
    n, arth = len(knights), arthurian_count(knights)
    lone = n == 1 and edition(s.game.state) >= ONE_KNIGHT_SEEN
    if lone:
        what = "a knight in Camelot's colours" if arth else "a knight"
    else:
        what = f"{n} {plural(s, n, 'knight')}, {arth} of them in Camelot's colours"
    s.note(f"{pk['name']} sees {what}.")
    kind = "knights" if n > 1 else "knight"
    choice = decide(m, kind, what, avoidable=avoidable, tags=group_tags(knights), count=n,
                    arthurian=arth, ask=ask)
    if choice == "avoided":
        out.avoided = True
    else:
        s.note(("He is " if lone else "They are ")
               + ", ".join(f"{c['name']} (VL {c['vl']}, CP {c['cp']})" for c in knights) + ".")
        if choice == "attack":
            s.note(f"{pk['name']} attacks them.")
            m.fight([npk(c) for c in knights], attacker="pk", out=out)
            record_knights(m, knights, UNFRIENDLY, out)
        elif pk["mad"]:
            arthurian = [c for c in knights if c.get("arthurian")]
            mad_meets(m, "knight", (arthurian or knights)[0])
        elif declared_enemies(pk, knights):
            fight_enemies(m, knights, out)
            record_knights(m, knights, UNFRIENDLY, out)
        elif any(is_lord(pk, c) for c in knights):
            s.note(f"{pk['name']}'s Lord rides with them: they are friendly.")
            record_knights(m, knights, FRIENDLY, out)
        elif remembered(pk, knights[0]):
            s.note(f"{knights[0]['name']} remembers {pk['name']} as a friend.")
            record_knights(m, knights, FRIENDLY, out)
        else:
            knight_reaction(m, knights, reaction_modifier, out)
    if own:
        m.finish()
    return out


def record_knights(m: Meeting, knights: list[dict], attitude: str | None, out: Outcome) -> None:
    """The knights still present (not beaten, not joined) keep the group's final attitude."""
    pk = m.pk
    out.attitude = attitude
    joined = [c["name"] for c in pk["comrades"] + pk["men_at_arms"]]
    for c in knights:
        if c["name"] not in joined:
            m.met("knight", c, attitude)


def knight_reaction(m: Meeting, knights: list[dict], modifier: int, out: Outcome) -> None:
    s, pk = m.s, m.pk
    lead = knights[0]
    attitude: str | None
    from companion.koc.engine.knaves import arthurian_reaction

    modifier += arthurian_reaction(s, knights)
    while True:
        result = s.chart("knight", modifier=modifier, purpose=f"reaction of {lead['name']}'s "
                         "party")
        entry = result.entry
        key = out.key = entry.key
        attitude = attitude_of(result.totals[0])
        if key == "flees":
            if len(knights) == 1 and edition(s.game.state) >= ONE_KNIGHT_FLEES:
                s.note(f"{lead['name']} turns and rides away.")
                if pursue(m, "knight", lead["name"]):
                    continue
            else:
                s.note("The knights turn and ride away.")
                if pursue(m, "knights" if len(knights) > 1 else "knight", "the knights",
                          they=True):
                    continue
            attitude = None
        break
    if key == "attacks_with_others":
        more = m.knights(count_of(s, entry, "knights called to help"), "a knight called to help")
        s.note("They call " + ", ".join(c["name"] for c in more) + " and attack.")
        knights = knights + more
        m.fight([npk(c) for c in knights], out=out)
    elif key == "fights_for_lady":
        s.note(f"They attack {pk['name']} for the sake of a lady.")
        result = m.fight([npk(c) for c in knights], out=out)
        if not m.over() and result.pk_defeated and not result.won and pk["lady"]:
            # her award goes; VP only if under her summons
            _svc().lose_lady(s, "beaten by the knights who fought for her", summons_vp=6)
    elif key == "refuses_to_fight":
        s.note(f"The knights look down on {pk['name']}: they will not fight him, ride with him "
               "or let him ride with them.")
        s.gain_vp(-entry.get("vp_loss", 3), "scorned by other knights")
        q = Question("force_fight", "Force a fight on the scornful knights (VP but no CP for "
                     "beating them)?", ["yes", "no"], "no",
                     tags=("knights" if len(knights) > 1 else "knight",) + group_tags(knights)[1:])
        if s.ask(q) == "yes":
            foes = [npk(c) for c in knights]
            for f in foes:
                f["no_cp"] = True
            m.fight(foes, attacker="pk", out=out)
    elif key == "tricks":
        _res().trick(s, by=lead)
    elif key == "attacks":
        s.note(f"The knights attack {pk['name']}.")
        if not try_to_flee(m, knights):
            m.fight([npk(c) for c in knights], out=out)
    elif key == "offers_challenge":
        attitude = knights_challenge(m, lead)
    elif key == "asks_to_join":
        knights_join(m, knights)
    elif key == "message":
        _res().message(s, source=lead)
    elif key == "asks_for_aid":
        attitude = FRIENDLY if _res().request_aid(s, lead) else NEUTRAL
    elif key == "offers_adventure":
        s.note(f"The knights are riding to an adventure and offer {pk['name']} to share it.")
        if _res().adventure_news(s, lead):
            knights_join(m, knights, ask=False)
    if m.over():
        return
    record_knights(m, knights, attitude, out)
    if attitude == FRIENDLY and key != "flees":
        offer_challenge(m, lead, "knight")


def try_to_flee(m: Meeting, knights: list[dict]) -> bool:
    """Before attacking knights strike, the PK may try to flee (a Luck Test): he loses his Dwarf
    (not an Arthurian one), Men-at-Arms and comrades, and 6 VP if Arthurian."""
    s, pk = m.s, m.pk
    if "never_avoid_encounters" in pk["oaths"]:
        return False
    q = Question("flee_attack", "The knights attack. Try to flee first (a Luck Test)?",
                 ["yes", "no"], "no", tags=group_tags(knights)[1:] +
                 ("knights" if len(knights) > 1 else "knight",))
    if s.ask(q) != "yes" or not s.luck_test("flee the attacking knights"):
        return False
    s.note(f"{pk['name']} flees.")
    lose_followers(s, why="fleeing", keep_arthurian_dwarf=True)
    if pk["arthurian"]:
        s.gain_vp(-6, "an Arthurian knight fleeing")
    return True


def knights_challenge(m: Meeting, lead: dict) -> str:
    """The neutral knights' leader offers a challenge; won, the knights are friendly."""
    s, pk = m.s, m.pk
    if lead["name"] in pk["challenged"]:
        s.note(f"{lead['name']} and {pk['name']} have met in a challenge before; the knights "
               "stay neutral.")
        return NEUTRAL
    q = Question("accept_challenge", f"{lead['name']} offers {pk['name']} a challenge. Accept?",
                 ["yes", "no"], "no", tags=("knight",) + (("arthurian",)
                                                          if lead.get("arthurian") else ()))
    if s.ask(q) != "yes":
        s.note(f"{pk['name']} declines the challenge.")
        return NEUTRAL
    from companion.koc.engine.combat import challenge

    result = challenge(s, npk(lead), challenger="foe", tags=("knight",))
    return FRIENDLY if result.challenge_winner == "pk" else NEUTRAL


def knights_join(m: Meeting, knights: list[dict], *, ask: bool = True) -> bool:
    s, pk = m.s, m.pk
    if stays_alone(s, "the knights"):
        return False
    if ask:
        q = Question("join", "The knights offer to ride with you as comrades. Accept?",
                     ["yes", "no"], "yes", tags=("knights" if len(knights) > 1 else "knight",))
        if s.ask(q) != "yes":
            s.note(f"{pk['name']} thanks them and rides on alone.")
            return False
    for c in knights:
        c["joined"] = m.turn
        c["wounds"] = 0
        pk["comrades"].append(c)
    s.note(f"{names(knights)} {'joins' if len(knights) == 1 else 'join'} {pk['name']} as "
           f"{'a comrade' if len(knights) == 1 else 'comrades'}.")
    return True


# -- ladies -------------------------------------------------------------------------------
def lady_fighter(lady: dict) -> dict:
    return foe("lady", lady["name"], 1, 1, vl=lady["vl"], card=lady)


def meet_lady(s: Session, lady: dict | None = None, *, reaction_modifier: int = 0,
              status: bool = True, escort: list[dict] | None = None, m: Meeting | None = None,
              avoidable: bool | None = None, ask: bool = True, bathing: bool = False) -> Outcome:
    """A Lady. Met outside her castle, a die says who is with her (1-3 admiring knights, alone,
    or held by a knight of VL 6 or more). She is revealed only once her escort is dealt with.
    An Enchantress always tries to enchant; the Lady the PK serves is friendly; otherwise her
    reaction is rolled (her knights act on it)."""
    m, own = _meeting(s, m)
    pk = m.pk
    out = Outcome("lady")
    lady = lady or m.draw("ladies", "a lady")
    captor = None
    at = pk["at"]
    if at["where"] == "inside" and lady.get("castle") and \
            at.get("castle", at["area"]) == lady["castle"]:
        # met in her own castle: no company roll, and nothing to avoid
        status, ask = False, False
    if escort is None and status:
        result = s.chart("lady_company", purpose="who is with the lady")
        if result.entry.key == "admirers":
            escort = m.knights(result.totals[0], "a knight admiring the lady")
        elif result.entry.key == "distressed":
            captor = m.knights(1, "the knight holding the lady", vl_at_least=6)
    escort = escort or []
    if bathing:
        s.note(f"{pk['name']} comes upon {lady['name']} bathing in the river: too late to "
               "turn away.")
    if captor:
        what = "a lady held by a knight against her will"
        tags = ("distressed", "alone")
    elif escort:
        what = f"a lady with {len(escort)} {plural(s, len(escort), 'knight')}, " \
               f"{arthurian_count(escort)} of them in Camelot's colours"
        tags = ("escorted",) + (("arthurian",) if arthurian_count(escort) else ())
    else:
        what = lady["name"] if bathing else "a lady riding alone"
        tags = ("bathing", "alone") if bathing else ("alone",)
    choice = decide(m, "lady", what, avoidable=False if bathing else avoidable, tags=tags,
                    count=1 + len(escort), arthurian=arthurian_count(escort), ask=ask)
    if choice == "avoided":
        out.avoided = True
        if own:
            m.finish()
        return out
    from companion.koc.engine import knaves

    if choice == "attack" and not captor and knaves.offer_distress(m, lady, escort, out):
        pass        # a Knave distresses her (KNAVES: Distressing a Lady)
    elif captor:
        distressed_lady(m, lady, captor, attack=choice == "attack", out=out)
    elif choice == "attack" and escort:
        s.note(f"{pk['name']} attacks the lady's knights: "
               + ", ".join(c["name"] for c in escort) + ".")
        result = m.fight([npk(c) for c in escort], attacker="pk", out=out,
                         leader=lady_fighter(lady))
        if result.won and not m.over():
            s.note(f"Her knights beaten, the lady stands revealed: {lady['name']}.")
            lady_meeting(m, lady, [], reaction_modifier, out)
    elif choice == "attack":
        s.note(f"The lady is {lady['name']}.")
        attack_lady(m, lady, out)
    else:
        s.note(f"The lady is {lady['name']} (VL {lady['vl']}).")
        lady_meeting(m, lady, escort, reaction_modifier, out)
    if own:
        m.finish()
    return out


def enchanted_by(pk: dict, name: str) -> bool:
    return any(e.get("by") == name for e in pk["enchantments"]) or pk.get("enchantress") == name


def attack_lady(m: Meeting, lady: dict, out: Outcome) -> None:
    s, pk = m.s, m.pk
    if lady.get("enchantress") and enchanted_by(pk, lady["name"]):
        s.note(f"Under {lady['name']}'s spell, {pk['name']} cannot raise a hand against her.")
        lady_meeting(m, lady, [], 0, out)
        return
    s.note(f"{pk['name']} attacks {lady['name']}.")
    m.fight([lady_fighter(lady)], attacker="pk", out=out)
    if not m.over() and lady["name"] not in m.s.game.state["decks"]["ladies"]["removed"]:
        m.met("lady", lady, UNFRIENDLY, alone=True)


def lady_meeting(m: Meeting, lady: dict, escort: list[dict], modifier: int,
                 out: Outcome) -> None:
    """The revealed lady: madness, enchantress, the PK's own Lady, or her reaction."""
    s, pk = m.s, m.pk
    if pk["mad"]:
        mad_meets(m, "lady", lady)
        return
    if lady.get("enchantress"):
        enchantress(m, lady, escort, out)
        return
    if pk["lady"] and pk["lady"].get("name") == lady["name"]:
        s.note(f"{lady['name']} is {pk['name']}'s own Lady, and glad to see him.")
        out.attitude = FRIENDLY
        m.met("lady", lady, FRIENDLY, alone=not escort)
        return
    if remembered(pk, lady):
        s.note(f"{lady['name']} remembers {pk['name']} kindly.")
        out.attitude = FRIENDLY
        m.met("lady", lady, FRIENDLY, alone=not escort)
        return
    lady_reaction(m, lady, escort, modifier, out)


def enchantress(m: Meeting, lady: dict, escort: list[dict], out: Outcome) -> None:
    """An Enchantress casts a spell at once (VL check against the PK's VL plus her seduction
    adjustment to resist). Resisted, she is hostile: her knights attack unless they resist her
    command themselves (each a VL check of his VL plus her adjustment)."""
    s, pk = m.s, m.pk
    adjustment = lady.get("seduction", 0)
    s.note(f"{lady['name']} is an Enchantress, and casts a spell on {pk['name']}.")
    resisted = _res().enchant(s, lady, adjustment)
    if m.over():
        return
    if not resisted:
        out.attitude = FRIENDLY
        m.met("lady", lady, FRIENDLY, alone=not escort)
        return
    out.attitude = UNFRIENDLY
    if escort:
        s.note(f"Furious, {lady['name']} orders her knights to attack.")
        obey = [c for c in escort if not s.vl_check(c["vl"] + adjustment, "resists her command",
                                                    who=c["name"])]
        if obey:
            m.fight([npk(c) for c in obey], out=out, leader=lady_fighter(lady))
        else:
            s.note("Her knights stand bewildered and do nothing.")
    else:
        s.note(f"{lady['name']} stalks off in a rage.")
    m.met("lady", lady, UNFRIENDLY, alone=not escort)


def lady_reaction(m: Meeting, lady: dict, escort: list[dict], modifier: int,
                  out: Outcome) -> None:
    s, pk = m.s, m.pk
    from companion.koc.engine.knaves import arthurian_reaction

    modifier += arthurian_reaction(s, escort)
    result = s.chart("lady", modifier=modifier, purpose=f"reaction of {lady['name']}")
    entry = result.entry
    key = out.key = entry.key
    attitude = attitude_of(result.totals[0])
    name = lady["name"]
    if key == "attempts_suicide":
        s.note(f"{name} is in despair and tries to take her own life.")
        if s.luck_test(f"stop {name}"):
            s.note(f"{pk['name']} stops her in time; she is grateful.")
            s.gain_vp(entry.get("vp", 6), f"saving {name} from despair")
            attitude = FRIENDLY
        else:
            s.note(f"{pk['name']} cannot stop her: {name} dies.")
            s.game.remove("ladies", name)
            from companion.koc.engine.service import owner_slain

            owner_slain(s, name, "lady")
            attitude = None
    elif key == "exacts_oath":
        _res().swear_oath(s, f"demanded by {name}")
    elif key == "tricks":
        _res().trick(s, by=lady)
    elif key == "knights_defend":
        defenders = escort
        if not defenders:
            defenders = m.knights(1, f"{name}'s champion")
            disguise = " disguised as a sailor" if m.place == "sea" else ""
            s.note(f"{name} calls her champion, {defenders[0]['name']}{disguise}, to defend her.")
        else:
            s.note(f"{name}'s knights ride at {pk['name']}.")
        m.fight([npk(c) for c in defenders], out=out, leader=lady_fighter(lady))
    elif key == "seduces":
        attitude = FRIENDLY if seduce(m, lady) else UNFRIENDLY
    elif key == "informs_adventure":
        _res().adventure_news(s, lady)
    elif key == "requests_escort":
        kingdom = s.chart("random_kingdom", purpose=f"where {name} is going").entry.get("kingdom")
        dest = s.world.kingdoms[kingdom].escort_destination
        if not escort_person(m, lady, dest, aid=True, vp=entry.get("vp", 6)):
            attitude = NEUTRAL
    elif key == "requests_aid":
        attitude = FRIENDLY if _res().request_aid(s, lady) else NEUTRAL
    elif key == "invites_to_castle":
        castle = tasks.place_castle(s, lady["castle"], name, "lady")
        befriend(s, castle)
        escort_person(m, lady, castle, aid=False)
    elif key == "message":
        _res().message(s, source=lady)
    elif key == "offers_hand":
        offers_hand(m, lady)
    if m.over():
        return
    out.attitude = attitude
    m.met("lady", lady, attitude, alone=not escort or key == "knights_defend" and out.won)


def offers_hand(m: Meeting, lady: dict) -> None:
    offer_service(m.s, lady)


def offer_service(s: Session, lady: dict, ask=None) -> None:
    """A Lady offers the knight her service: one who serves a Lady already must decline;
    otherwise question `lady_service` (``ask``: how the knight's answer is had, by default
    his own question)."""
    pk = s.pk
    if pk["lady"]:
        s.note(f"{lady['name']} offers {pk['name']} her service, but he already serves "
               f"{pk['lady']['name']} and must decline.")
        return
    q = Question("lady_service", f"{lady['name']} offers to take {pk['name']} into her "
                 "service. Accept?", ["yes", "no"], "yes", tags=("lady",))
    if (ask or s.ask)(q) == "yes":
        _svc().enter_lady_service(s, lady)
    else:
        s.note(f"{pk['name']} courteously declines.")


def seduce(m: Meeting, lady: dict) -> bool:
    """A seduction: resisted on a VL check against the PK's VL plus her seduction adjustment;
    a PK already seduced is ignored. Seduced, he enters her service (service.py applies the
    award and the VP loss)."""
    s, pk = m.s, m.pk
    adjustment = lady.get("seduction", 0)
    fallen = []
    # she tries every knight of the party who is free to fall (engine/party.py)
    for x in [s, *party.with_me(s)]:
        served = x.pk["lady"]
        if served and served.get("seduced"):
            s.note(f"{lady['name']} sees that {x.pk['name']} is already another's captive, "
                   "and ignores him.")
            continue
        if served and served.get("name") == lady["name"]:
            s.note(f"{x.pk['name']} already serves {lady['name']}.")
            continue
        s.note(f"{lady['name']} sets out to seduce {x.pk['name']}.")
        if x.vl_check(kn.vl(x.pk) + adjustment, f"resist {lady['name']}'s charms (VL "
                      f"{kn.vl(x.pk)} + {adjustment})"):
            s.note(f"{x.pk['name']} resists her.")
        else:
            s.note(f"{x.pk['name']} falls under {lady['name']}'s spell.")
            fallen.append(x)
    if not fallen:
        served = pk["lady"] or {}
        return not served.get("seduced") and served.get("name") == lady["name"]
    winner = fallen[0]
    if len(fallen) > 1:
        from companion.koc.engine.rivals import seduced_together

        winner = seduced_together(s, lady, fallen)
    if not winner.pk["slain"]:
        _svc().enter_lady_service(winner, lady, seduced=True)
    return True


def distressed_lady(m: Meeting, lady: dict, captors: list[dict], *, attack: bool = False,
                    out: Outcome | None = None) -> None:
    """Knights (VL 6 or more) hold a lady; she asks to be rescued (aid: 6 VP won or lost). An
    Enchantress, though, casts her spell instead, and her captors ride off."""
    s, pk = m.s, m.pk
    out = out or Outcome("lady")
    names = ", ".join(c["name"] for c in captors)
    s.note(f"{lady['name']} is held against her will by {names}.")
    if lady.get("enchantress") and not pk["mad"]:
        s.note(f"{names} let her go and ride off.")
        lady_meeting(m, lady, [], 0, out)
        return
    if pk["mad"]:
        lady_meeting(m, lady, [], 0, out)
        return
    forced = attack or "always_grant_requests" in pk["oaths"] or \
        "always_help_ladies" in pk["oaths"]
    q = Question("rescue_lady", f"{lady['name']} begs {pk['name']} to free her from {names} "
                 "(6 VP if he does, 6 VP lost for refusing). Fight them?", ["yes", "no"],
                 "yes", tags=("lady",) + (("town",) if m.place == "town" else ()))
    if not forced and s.ask(q) == "no":
        s.note(f"{pk['name']} leaves {lady['name']} to her fate.")
        s.gain_vp(-6, f"refusing aid to {lady['name']}")
        m.met("lady", lady, NEUTRAL, alone=False)
        return
    result = m.fight([npk(c) for c in captors], attacker="pk", out=out)
    if m.over():
        return
    if result.won or result.broke_off:
        s.note(f"{lady['name']} is free, and grateful to {pk['name']}.")
        s.gain_vp(6, f"rescuing {lady['name']}")
        out.attitude = FRIENDLY
        m.met("lady", lady, FRIENDLY, alone=True)
    else:
        m.met("lady", lady, NEUTRAL, alone=False)


# -- escorts ------------------------------------------------------------------------------
def escort_person(m: Meeting, person: dict, dest: str, *, aid: bool, vp: int = 6) -> bool:
    """A King or Lady asks (aid: 6 VP on arrival, 6 VP lost for refusing) or invites the PK to
    escort them to ``dest`` by the most direct route (1 VP a turn). Impossible without a horse
    or for a knight sworn to ride alone (no penalty then). Returns whether he escorts."""
    s, pk = m.s, m.pk
    name = person["name"]
    placed = s.game.state.get("castles", {}).get(dest)
    area = placed["area"] if placed else dest
    if not pk["gear"]["horse"] or pk["animal"]:
        s.note(f"Without a horse {pk['name']} cannot escort {name}.")
        return False
    if "always_travel_alone" in pk["oaths"]:
        s.note(f"Sworn to ride alone, {pk['name']} cannot escort {name}.")
        return False
    forced = aid and ("always_grant_requests" in pk["oaths"] or (
        person["kind"] == "lady" and "always_help_ladies" in pk["oaths"]))
    kind = "request" if aid else "invitation"
    q = Question("escort", f"{name} " + ("asks" if aid else "invites") + f" {pk['name']} to "
                 f"escort {'her' if person['kind'] == 'lady' else 'him'} to {dest}"
                 + (" (6 VP on arrival, 6 VP lost for refusing)" if aid else "")
                 + ". Escort?", ["yes", "no"], "yes", tags=(person["kind"], kind))
    if not forced and s.ask(q) == "no":
        s.note(f"{pk['name']} declines to escort {name}.")
        if aid:
            s.gain_vp(-vp, f"refusing to escort {name}")
        return False
    pk["party_extra"].append({"kind": person["kind"], "name": name, "horse": True,
                              "person": person})
    tasks.add(s, "escort", area, person=person, castle=dest,
              awards={"vp": vp if aid else 0, "per_turn": True}, penalty_vp=vp if aid else 0,
              why=f"escorting {name} to {dest}")
    return True


# ============================================================================== castles
def friendly_castle(s: Session, castle: str) -> bool:
    """His Lord's castle, his Lady's, his own, those on his list (unless he is outlawed from
    them) and those friendly for the time being."""
    pk = s.pk
    lord, lady = pk["lord"], pk["lady"]
    if lord and lord.get("castle") == castle:
        return True
    own = pk.get("own_castle")
    if (own.get("name") if isinstance(own, dict) else own) == castle:
        return True
    if castle in ((pk.get("knave") or {}).get("holds") or {}):
        return True                     # a castle the Knave holds (engine/villainy.py)
    from companion.koc.engine import grail

    if grail.carbonek_friendly(s, castle):
        return True                     # always, to a knight on the Quest of the Grail
    if castle in pk["outlawed"]:
        if edition(s.game.state) < OUTLAWRY_LAPSES:
            return False
        # neutral: friendly for a visit the rules make friendly (a friendly reaction there
        # ends the outlawry: befriend)
        return castle in pk.get("temp_friendly", [])
    if lady and lady.get("castle") == castle:
        return True
    return castle in pk["friendly"] or castle in pk.get("temp_friendly", [])


def befriend(s: Session, castle: str) -> None:
    """A friendly castle reaction: noted on the knight's list (Camelot only for the visit)."""
    pk = s.pk
    if castle == CAMELOT:
        return
    if castle not in pk["friendly"]:
        pk["friendly"].append(castle)
        s.note(f"{castle} is now friendly to {pk['name']}.")
    if castle in pk["outlawed"] and edition(s.game.state) >= OUTLAWRY_LAPSES:
        pk["outlawed"].remove(castle)
        s.note(f"{pk['name']} is no longer outlawed at {castle}.")


def resupply(s: Session, castle: str) -> None:
    """A friendly castle replaces all missing equipment, the Dwarf's spare set included; a
    lordless knight gets only a sword (his Dwarf nothing)."""
    pk = s.pk
    if pk["animal"] or pk["mad"]:
        return
    if pk["lord"]:
        missing = [g for g in kn.GEAR if not pk["gear"][g]]
        for g in missing:
            pk["gear"][g] = True
        spares = []
        if pk["dwarf"] is not None:
            spares = [g for g in kn.GEAR if g not in pk["dwarf"]["spares"]]
            pk["dwarf"]["spares"] = list(kn.GEAR)
        if "horse" in missing:
            pk["on_foot"] = False
        if missing or spares:
            s.note(f"{castle} re-equips {pk['name']}"
                   + (f" ({', '.join(missing)})" if missing else "")
                   + (f" and fills his Dwarf's packs ({', '.join(spares)})" if spares else "")
                   + ".")
    elif not pk["gear"]["sword"]:
        pk["gear"]["sword"] = True
        s.note(f"Having no Lord, {pk['name']} is given only a sword at {castle}.")


CAMELOT_NOT_SHARED = 7
"""The rules edition from which Camelot, friendly to a knight without a reaction (his Lord's
castle, or friendly for good), does not re-equip the fellows of his party it is not friendly
to (Friendly Castles: the party rule does not hold at Camelot); a friendly reaction there is
towards the whole party, as anywhere. Before, it re-equipped them all."""


def castle_encounter(s: Session, castle: str, persisting: bool = False,
                     from_ship: bool = False) -> bool:
    pk = s.pk
    from companion.koc.engine import villainy

    stormed = villainy.offer_storm(s, castle, from_ship)    # a Knave may storm it to hold it
    if stormed is not None:
        return stormed
    placed = s.game.state.get("castles", {}).get(castle)
    area = placed["area"] if placed else castle

    fellows = party.with_me(s)

    def put(inside: bool) -> None:
        if from_ship or m_over():
            return
        before = pk["at"]
        pk["at"] = {"area": area, "where": "inside" if inside else "gate"}
        if placed:
            pk["at"]["castle"] = castle
        party.follow(s, before)

    def admitted(reaction: bool = False) -> None:
        """The whole party is re-equipped; fellows to whom the castle is not friendly are
        its guests only (no requests of its owner). Camelot, friendly to the knight without a
        reaction, re-equips no fellow it is not friendly to (CAMELOT_NOT_SHARED)."""
        for x in [s, *fellows]:
            if x.pk["at"] != pk["at"]:
                continue
            if x is not s:
                if friendly_castle(x, castle):
                    x.pk.pop("guest_of", None)
                else:
                    x.pk["guest_of"] = castle
                    if castle == CAMELOT and not reaction and \
                            edition(s.game.state) >= CAMELOT_NOT_SHARED:
                        s.note(f"Camelot Castle is not friendly to {x.pk['name']}: he rides in "
                               f"with {pk['name']}'s party, but is not re-equipped there.")
                        continue
            resupply(x, castle)

    def m_over() -> bool:
        return pk["slain"] or s.pk is not pk or bool(pk["prison"]) or \
            s.world.areas[pk["at"]["area"]].otherworld

    host = next((x for x in fellows if castle != CAMELOT and friendly_castle(x, castle)), None)
    if friendly_castle(s, castle) or host is not None:
        if friendly_castle(s, castle):
            s.note(f"{castle} is friendly: {pk['name']} is admitted at once.")
            pk.pop("guest_of", None)
        else:
            s.note(f"{castle} is friendly to {host.pk['name']}: it admits his whole party.")
            pk["guest_of"] = castle
        if castle in pk.get("temp_friendly", []) and not from_ship:
            visited = pk.setdefault("temp_visited", [])
            if castle not in visited:
                visited.append(castle)
        put(True)
        admitted()
        return True
    key = f"castle:{castle}"
    if placed and placed.get("kind") == "pk":
        owner = next((rec for player, rec in s.game.state["knights"].items()
                      if placed["owner"] in (player, rec["name"]) and not rec["slain"]), None)
        if owner is None or owner["at"].get("castle") != castle:
            s.note(f"The lord of {castle} is away; his men keep the gate shut.")
            pk["encountered"] = True
            put(False)
            if not from_ship:
                storm_for_prisoners(s, castle)
            return False
    bonus = pk["persistence"].get(key, 0) if persisting else 0
    pk["persistence"].pop(key, None)
    pk["encountered"] = True
    m = Meeting(s, area, place="castle")
    from companion.koc.engine.tournaments import office_bonus

    result = s.chart("castle", modifier=bonus + office_bonus(pk, "castle"),
                     purpose=f"reaction of {castle}" + (f" (+{bonus} persistence)" if bonus
                                                        else ""))
    verdict = castle_reaction(m, castle, result.entry, from_ship=from_ship)
    m.finish()
    if m_over():
        return False
    if verdict == "friendly":
        for x in [s, *fellows]:          # the reaction is towards the whole party
            befriend(x, castle)
        if castle == CAMELOT:
            s.note(f"Camelot Castle receives {pk['name']} for as long as he stays.")
        put(True)
        admitted(reaction=True)
        return True
    if verdict == "gate":
        pk["persistence"][key] = bonus + 1
        put(False)
        s.note(f"{pk['name']} waits outside the gate of {castle}.")
    return False


PK_CASTLE_STORMED = 7
"""The rules edition from which a knight at the gate of another player knight's castle, its
lord away, may storm it when player knights are held prisoner there (Player Knight Castles:
freeing them is aid, 6 VP each; storm_for_prisoners). Before, he could only ride on."""


def storm_for_prisoners(s: Session, castle: str) -> bool:
    """Player Knight Castles: its lord away, the castle may be stormed if player knights are
    its prisoners; its knight guards defend it (none: 1-6 drawn knights, as
    resolutions.storm_castle has it; a player knight on guard there stays out of the fight).
    The question is the rescuer's (resolutions' ``rescue``, tag ``pk_castle``): storm or
    leave (the default), no appeal, as nobody is there to hear one. Returns whether it was
    stormed and taken."""
    pk = s.pk
    if edition(s.game.state) < PK_CASTLE_STORMED or pk["mad"] or pk["animal"] or pk["slain"] \
            or pk["prison"]:
        return False
    held = [rec["name"] for player, rec in s.game.state["knights"].items()
            if player != s.player and (rec.get("prison") or {}).get("castle") == castle]
    if not held:
        return False
    q = Question("rescue", f"{', '.join(held)} {plural(s, len(held), 'is', 'are')} held "
                 f"prisoner in {castle}, and its lord is away. Storm the castle (aid: 6 VP for "
                 f"each prisoner freed; beaten, you are its prisoner too) or leave?",
                 ["storm", "leave"], "leave", tags=("pk_castle",))
    if s.ask(q) != "storm":
        return False
    return _res().storm_castle(s, castle, why="to free its prisoners")


def castle_reaction(m: Meeting, castle: str, entry, *, from_ship: bool = False) -> str:
    """'friendly' (admitted), 'gate' (left outside) or 'out' (sent back into the land)."""
    s, pk = m.s, m.pk
    key = entry.key
    owner = _res().castle_owner(s, castle)
    camelot = castle == CAMELOT
    if key == "monster_attacks":
        out = meet_monster(s, m=m, avoidable=True)
        return "friendly" if out.won else "gate"
    if key == "knights_attack":
        knights = m.knights(count_of(s, entry, "knights ride out"), f"a knight of {castle}",
                            arthurian=camelot)
        s.note(f"Knights ride out of {castle} against {pk['name']}: "
               + ", ".join(c["name"] for c in knights) + ".")
        result = m.fight([npk(c) for c in knights], out=Outcome("knights"))
        return "friendly" if result.won else "gate"
    if key == "tricks":
        _res().trick(s, by=owner)
        return "gate"
    if key == "message":
        _res().message(s, source=owner)
        return "gate"
    if key == "tests_virtue":
        q = Question("virtue_test", f"{castle} admits only the worthy: take its test of virtue "
                     f"(a VL test of your VL {kn.vl(pk)})?", ["yes", "no"], "yes",
                     tags=("castle",))
        if s.ask(q) == "yes" and s.vl_test(kn.vl(pk), f"prove his worth at {castle}"):
            return "friendly"
        s.gain_vp(-entry.get("vp_loss", 3), f"found unworthy at {castle}")
        if from_ship:
            return "gate"
        around = area_around(s, castle)
        s.note(f"{pk['name']} is turned away from {castle} and goes back into {around}; he may "
               "try again only after an encounter roll there.")
        before = pk["at"]
        pk["at"] = {"area": around, "where": "area"}
        party.follow(s, before)
        pk["persistence"].pop(f"castle:{castle}", None)
        from companion.koc.engine.movement import Mover

        Mover(s).encounter_roll(around)
        return "out"
    if key == "lord_not_home":
        s.note(f"The lord of {castle} is not at home, and his guards let nobody in.")
        return "gate"
    if key == "challenge":
        champion = m.knights(1, f"the champion of {castle}", arthurian=camelot, fresh=True)[0]
        s.note(f"{castle} sends out its champion, {champion['name']} (VL {champion['vl']}, "
               f"CP {champion['cp']}), with a challenge.")
        q = Question("accept_challenge", f"{champion['name']}, champion of {castle}, "
                     "challenges you: win and the castle is friendly. Accept?", ["yes", "no"],
                     "no", tags=("castle", "knight") + (("arthurian",)
                                                         if champion["arthurian"] else ()))
        if s.ask(q) != "yes":
            s.note(f"{pk['name']} declines; the gate stays shut.")
            return "gate"
        from companion.koc.engine.combat import challenge

        result = challenge(s, npk(champion), challenger="foe", tags=("knight",))
        return "friendly" if result.challenge_winner == "pk" else "gate"
    if key == "informs_adventure":
        befriend(s, castle)
        _res().adventure_news(s, owner)
        return "friendly"
    if key == "friendship":
        s.note(f"{castle} welcomes {pk['name']}.")
        return "friendly"
    if key == "offers_adventure":
        befriend(s, castle)
        s.note(f"Knights of {castle} are setting out on an adventure and ask {pk['name']} to "
               "lead them.")
        royal = any(k.royal_castle == castle for k in s.world.kingdoms.values()) or \
            any(c.castle == castle for c in s.world.castellanies.values())
        reroll = ("tournament_at_camelot",) + (("visit_local_king",) if royal else ())
        if _res().adventure_news(s, owner, reroll=reroll) and not m.over():
            riders = m.knights(count_of(s, entry, "knights of the castle"),
                               f"a knight of {castle}", arthurian=camelot)
            if not stays_alone(s, "the castle's knights"):
                for c in riders:
                    c["joined"] = m.turn
                    c["wounds"] = 0
                    pk["comrades"].append(c)
                s.note(f"{names(riders)} {'rides' if len(riders) == 1 else 'ride'} with "
                       f"{pk['name']} as {'a comrade' if len(riders) == 1 else 'comrades'}.")
        return "friendly"
    if key == "magic_gateway":
        q = Question("gateway", f"{castle} offers {pk['name']} a magic gateway into Faerie. "
                     "Go through it next turn?", ["yes", "no"], "no", tags=("castle",))
        if s.ask(q) == "yes":
            s.note(f"{pk['name']} will pass through the gateway into Faerie next turn.")
            schedule(s, "gateway", castle=castle)
        return "friendly"
    raise ValueError(f"castle reaction {key!r}")


def area_around(s: Session, castle: str) -> str:
    placed = s.game.state.get("castles", {}).get(castle)
    if placed:
        return placed["area"]
    return s.world.areas[castle].within or castle


def castles_in(s: Session, area: str) -> list[str]:
    """The placed castles standing in an encounter area (friendly ones first, then by name)."""
    names = sorted(n for n, c in s.game.state.get("castles", {}).items() if c["area"] == area)
    return sorted(names, key=lambda n: not friendly_castle(s, n))


# ============================================================================== the sea
def sea_encounter(s: Session, sea: str, previous: str) -> str:
    """Every sea move meets the sea; nothing here can be avoided."""
    pk = s.pk
    pk["encountered"] = True
    m = Meeting(s, sea, place="sea")
    result = s.chart("sea", purpose=f"the sea in {sea}")
    key = result.entry.key
    if optional.good_winds(pk, result.totals[0]) and key != "good_winds":
        s.note("The flagship sails on a fair wind (6-9 on the sea chart).")
        key = "good_winds"
    if key == "sea_monster":
        sea_monster(m, sea)
    elif key == "shipwreck":
        s.note(f"A storm wrecks {pk['name']}'s ship in {sea}.")
        shipwreck(m, sea)
    elif key == "storm":
        pk["at"] = {"area": previous, "where": "ship"}
        if previous == sea:         # staying at sea (movement.SEA_STAY_MET): it goes nowhere
            s.note(f"A storm tosses the ship about in {sea}.")
        else:
            s.note(f"A storm drives the ship back to {previous}.")
    elif key == "becalmed":
        pk["immobile"].append({"why": "becalmed at sea", "turns": result.entry.get("turns", 1)})
        s.note(f"The wind dies: {pk['name']}'s ship lies becalmed and will lose its next turn.")
    elif key == "calm_passage":
        from companion.koc.engine import villainy

        if not villainy.merchant_sighted(m, sea):     # a pirate Knave sights a merchant ship
            s.note("The crossing is quiet.")
    elif key == "good_winds":
        s.note("A fair wind fills the sails: the ship may make one more move without meeting "
               "the sea again.")
    elif key == "lady_stowaway":
        s.note("A lady has hidden herself aboard.")
        meet_lady(s, m=m, status=False, avoidable=False)
    elif key == "pirates":
        pirates(m, sea, result.entry)
    m.finish()
    return key


def sea_monster(m: Meeting, sea: str) -> None:
    """Drawn from the monster cup; it cannot be avoided. A defeated knight may escape it on a
    Luck Test, as a castaway; otherwise it devours him."""
    s, pk = m.s, m.pk
    chit = m.chit("monster", "a sea monster")
    name = f"Sea {chit['name']}"
    if decide(m, "sea_monster", "a sea monster", avoidable=False,
              attackable=False) == "avoided":
        return
    s.note(f"A {name} (WL {chit['wl']}) rises from the waves and attacks.")
    result = m.fight([foe("sea_monster", name, chit["wl"], 3)], on_defeat="none",
                     out=Outcome("sea_monster"))
    if pk["slain"] or not (result.pk_defeated and not result.won):
        return
    if s.luck_test(f"escape the {name}"):
        s.note(f"{pk['name']} escapes the {name}, clinging to the wreck of his ship.")
        shipwreck(m, sea)
    else:
        s.note(f"The {name} devours {pk['name']}.")
        from companion.koc.engine.combat import knight_slain

        knight_slain(s)


def shipwreck(m: Meeting, sea: str) -> None:
    """Equipment, companions, comrades and ship are lost (optional rule shipwreck_saves: a Luck
    Test saves each); a lost Mascot turns up at the next animal encounter. The PK is washed up
    on the nearest coast outside Britain (a wasteland on the North Sea)."""
    s, pk = m.s, m.pk
    if optional.is_admiral(pk):
        from companion.koc.engine.tournaments import lose_office

        lose_office(s, "shipwrecked")       # Signal Honour: a wreck forfeits the Lord Admiral
    saves = s.options_rule("shipwreck_saves")
    lost = []
    for g in kn.GEAR:
        if pk["gear"][g] and not (saves and s.luck_test(f"keep his {g}")):
            pk["gear"][g] = False
            lost.append(g)
    pk["on_foot"] = not pk["gear"]["horse"]
    for group in ("comrades", "men_at_arms"):
        for c in list(pk[group]):
            if saves and s.luck_test(f"{c['name']} survives the wreck"):
                continue
            pk[group].remove(c)
            s.game.discard_card(c)
            lost.append(c["name"])
    if pk["dwarf"] and not (saves and s.luck_test("the Dwarf survives the wreck")):
        pk["dwarf"] = None
        lost.append("the Dwarf")
    for extra in list(pk["party_extra"]):
        if saves and s.luck_test(f"{extra['name']} survives the wreck"):
            continue
        pk["party_extra"].remove(extra)
        lost.append(extra["name"])
    if pk["mascot"] and not (saves and s.luck_test(f"{pk['mascot']['name']} survives")):
        pk.setdefault("reunite", {})["mascot"] = pk["mascot"]
        out = s.game.state.get("chits_out", {}).get("animal", [])
        if [pk["mascot"]["name"], pk["mascot"]["wl"]] in out:
            out.remove([pk["mascot"]["name"], pk["mascot"]["wl"]])
        lost.append(pk["mascot"]["name"])
        pk["mascot"] = None
    pk.pop("ship", None)
    if lost:
        s.note(f"Lost in the wreck: {', '.join(lost)}.")
    cast_ashore(s, sea)


def cast_ashore(s: Session, sea: str) -> str:
    """Put the PK on the nearest coast outside Britain (or on a North Sea marsh): the coasts of
    the sea itself first, then of the seas next to it, and so on; among equals a die decides."""
    pk = s.pk
    world = s.world
    if sea == "North Sea":
        choices = sorted(a.name for a in world.areas.values()
                         if a.kind == "wasteland" and sea in a.coast)
    else:
        seen, layer, choices = [sea], [sea], []
        while layer and not choices:
            choices = sorted(a.name for a in world.areas.values()
                             if any(x in a.coast for x in layer) and a.kind in
                             ("countryside", "forest", "wasteland") and a.kingdoms and
                             all(world.kingdoms[k].overseas for k in a.kingdoms
                                 if k in world.kingdoms) and
                             any(k in world.kingdoms for k in a.kingdoms))
            nxt = []
            for x in layer:
                for y in world.areas[x].ship:
                    if world.areas[y].kind == "sea" and y not in seen:
                        seen.append(y)
                        nxt.append(y)
            layer = nxt
    if not choices:
        choices = sorted(a.name for a in world.areas.values() if sea in a.coast)
    where = choices[0] if len(choices) == 1 else \
        choices[s.chance.choice(len(choices), "which shore the castaway reaches")]
    pk["at"] = {"area": where, "where": "coast"}
    pk.pop("ship", None)
    s.note(f"{pk['name']} is cast ashore on the coast of {where}; he must go inland first.")
    return where


def pirates(m: Meeting, sea: str, entry) -> None:
    """Ten brigand chits: they attack at once; victorious, they rob the PK and set him ashore
    on the nearest coast outside Britain."""
    s, pk = m.s, m.pk
    from companion.koc.engine import villainy

    if villainy.knave_meets_pirates(m, sea, entry):
        return      # KNAVES: Turning Pirate
    if decide(m, "pirates", "a pirate ship", avoidable=False, attackable=False) == "avoided":
        return
    crew = []
    for i in range(entry.get("count", 10)):
        chit = m.chit("brigand", "a pirate")
        name = f"pirate {i + 1}" if edition(s.game.state) >= PIRATES_NAMED else \
            f"pirate {i + 1} (WL {chit['wl']})"        # the fight adds its WL itself
        crew.append(foe("pirate", name, chit["wl"], 2))
    s.note(f"Pirates board {pk['name']}'s ship: {len(crew)} of them, WL "
           + ", ".join(str(c["wl"]) for c in crew) + ".")
    result = m.fight(crew, out=Outcome("pirates"))
    if pk["slain"] or not (result.pk_defeated and not result.won):
        return
    pk.pop("ship", None)
    s.note(f"The pirates take {pk['name']}'s ship.")
    cast_ashore(s, sea)


# ============================================================================== Merlin
def merlin_encounter(s: Session, starting: bool = False) -> None:
    """The PK is where the Merlin/Morgan counter stands. In a castle or town, aboard or in
    prison he cannot avoid it; in a shrine, on a coast or on a river he may slip by at will;
    elsewhere avoiding takes a Luck Test. The first PK to meet the counter in a game turn
    learns who it is (1-3 Morgan Le Fay, 4-6 Merlin) for everybody that turn. Whatever
    happens, he moves no further, fights no one and asks nothing this turn."""
    pk = s.pk
    pk["met_merlin"] = True
    pk["encountered"] = True
    at = pk["at"]
    area = s.world.areas[at["area"]]
    state = s.game.state["merlin"]
    who = state.get("who")
    m = Meeting(s, at["area"])
    s.note(f"{pk['name']} is where Merlin or Morgan Le Fay is to be found this turn.")
    trapped = at["where"] in ("inside", "gate", "ship", "prison") or at.get("castle") or \
        area.kind in ("castle", "town") or (area.is_town and not area.is_shrine)
    free = not trapped and (area.is_shrine or at["where"] == "coast" or area.kind == "river")
    options = ["await"]
    if not trapped and "never_avoid_encounters" not in pk["oaths"] and not pk["mad"]:
        options.insert(0, "avoid")
    if kn.has_item(pk, "magic_ring"):
        options.append("ring")
    tags = (who,) if who else ("merlin", "morgan")
    choice = "await"
    if len(options) > 1:
        how = "avoid (at will here)" if free or pk["animal"] else "avoid (a Luck Test)"
        q = Question("encounter", f"{pk['name']} meets "
                     + ({"merlin": "Merlin", "morgan": "Morgan Le Fay"}.get(who, "Merlin or "
                                                                               "Morgan Le Fay"))
                     + f". Choose: {', '.join(how if o == 'avoid' else o for o in options)}.",
                     options, "await", tags=tags + (m.place,))
        choice = s.ask(q)
    if choice == "ring":
        use_ring(m)
        return
    if choice == "avoid":
        if pk["arthurian"]:
            s.gain_vp(-6, "an Arthurian knight trying to avoid an encounter")
        if free or pk["animal"] or s.luck_test("avoid Merlin or Morgan"):
            s.note(f"{pk['name']} keeps out of the enchanter's way.")
            return
        s.note(f"{pk['name']} cannot escape the meeting.")
    if who is None:
        who = state["who"] = s.chart("merlin_or_morgan", purpose="Merlin or Morgan?").entry.key
    if who == "merlin":
        meet_merlin(m)
    else:
        meet_morgan(m)
    m.finish()


def meet_morgan(m: Meeting) -> None:
    """Morgan Le Fay enchants (+5); a mad knight is cured first and cannot resist."""
    s, pk = m.s, m.pk
    s.note(f"It is Morgan Le Fay, and she casts a spell on {pk['name']}.")
    if pk["mad"]:
        _svc().cure_madness(s, "Morgan Le Fay's craft")
        _res().enchant(s, dict(MORGAN), 5, resistible=False)
        return
    _res().enchant(s, dict(MORGAN), 5)


def meet_merlin(m: Meeting) -> None:
    """Merlin cures madness and the animal shape, then reacts."""
    s, pk = m.s, m.pk
    s.note("It is Merlin.")
    _svc().cure_madness(s, "Merlin's art")
    if pk["animal"]:
        spell = next((e for e in pk["enchantments"] if e.get("key") == "change_into_animal"),
                     None)
        if spell is not None:
            _res().lift_enchantment(s, spell)
        if pk["animal"]:
            pk["animal"] = None
        s.note(f"Merlin gives {pk['name']} back his own shape.")
    result = s.chart("merlin", purpose="Merlin's reaction")
    key = result.entry.key
    if key == "changes_into_animal":
        if pk.get("grail") and edition(s.game.state) >= MERLIN_SPARES_BEARER:
            s.note(f"The Grail shields {pk['name']} from Merlin's spell.")
            return
        s.note(f"Merlin changes {pk['name']} into a beast.")
        _res().change_into_animal(s, dict(MERLIN))
    elif key == "renews_equipment":
        for g in kn.GEAR:
            pk["gear"][g] = True
        pk["on_foot"] = False
        if edition(s.game.state) >= MERLIN_HEEDS_ALONE and \
                stays_alone(s, "the Dwarf Merlin would give him"):
            s.note(f"Merlin equips {pk['name']} anew from head to foot.")
        else:
            if pk["dwarf"] is None:
                pk["dwarf"] = {"arthurian": False, "spares": list(kn.GEAR)}
            else:
                pk["dwarf"]["spares"] = list(kn.GEAR)
            s.note(f"Merlin equips {pk['name']} anew from head to foot, and gives him a Dwarf "
                   "with a spare set.")
    elif key == "sends_to_faerie":
        from companion.koc.engine.faerie import enter_faerie

        s.note(f"Merlin sends {pk['name']} into Faerie.")
        enter_faerie(s, award=True, why="sent there by Merlin")
    elif key == "prophecy":
        s.note("Merlin prophesies.")
        _res().adventure_news(s, dict(MERLIN), prophecy=True)
    elif key == "gift":
        merlin_gift(m)


GIFT_ITEMS = {
    "magic_shield": {"absorbs": 2},
    "magic_sword": {"bonus": 4},
    "magic_talisman": {"bonus": 2},
}


def has_gift(pk: dict, key: str) -> bool:
    if key == "faithful_dwarf":
        return bool(pk["dwarf"] and pk["dwarf"].get("arthurian"))
    return kn.has_item(pk, key)


def merlin_gift(m: Meeting) -> str | None:
    """A roll on Merlin's gifts, rolled again while the PK already has what it gives."""
    s, pk = m.s, m.pk
    for _ in range(40):
        result = s.chart("merlin_gifts", purpose="Merlin's gift")
        key = result.entry.key
        if has_gift(pk, key):
            s.note(f"{pk['name']} already has that gift: Merlin chooses again.")
            continue
        if key == "faithful_dwarf" and "always_travel_alone" in pk["oaths"] and \
                edition(s.game.state) >= MERLIN_HEEDS_ALONE:
            s.note(f"{pk['name']} has sworn to ride alone and can take no Dwarf: Merlin "
                   "chooses again.")
            continue
        give_gift(s, key, result.entry)
        return key
    s.note("Merlin has nothing more to give.")
    return None


def give_gift(s: Session, key: str, entry) -> None:
    pk = s.pk
    if key == "faithful_dwarf":
        spares = pk["dwarf"]["spares"] if pk["dwarf"] else []
        pk["dwarf"] = {"arthurian": True, "spares": spares}
        s.note(f"Merlin gives {pk['name']} a faithful Arthurian Dwarf.")
        return
    item = {"key": key, **GIFT_ITEMS.get(key, {})}
    if key == "valiant_charger":
        item["wl"] = 3 + s.dice(1, "the Valiant Charger's wound level", sides=3)[0]
        pk["gear"]["horse"] = True
        pk["on_foot"] = False
    pk["items"].append(item)
    s.note(f"Merlin gives {pk['name']} a gift: {entry.label}"
           + (f" (WL {item['wl']})" if "wl" in item else "") + ".")


# ============================================================================== hooks
def start_of_movement(s: Session) -> bool:
    """The start of the PK's movement phase: forget meetings of earlier turns, clear what has
    lapsed, and carry out what earlier encounters set up for this turn. True when that ends the
    movement phase."""
    pk = s.pk
    now = turn_no(s)
    pk["met"] = [e for e in pk.get("met", []) if e.get("turn", now) == now]
    from companion.koc.engine import adventures

    adventures.start_of_turn(s)     # share/abandon orders, Rome, ended adventures (part 2)
    block = pk.get("river_block")
    if block and (block["turn"] < now - 1 or pk["at"]["area"] != block["river"]):
        pk.pop("river_block")
        if block.get("knight"):
            s.game.discard("knights", block["knight"]["name"])
    watch = pk.get("town_watch")
    if watch and watch["turn"] < now - 1:
        pk.pop("town_watch")
    if pk.get("fasting") and pk["fasting"].get("penance") and pk["fasting"].get("since", now) < now:
        keep_fasting(s)
    over = False
    due = [item for item in pk.get("next_turn", []) if item["due"] <= now]
    pk["next_turn"] = [item for item in pk.get("next_turn", []) if item["due"] > now]
    if not pk["next_turn"]:
        pk.pop("next_turn")
    for item in due:
        over = scheduled(s, item) or over
    for castle in list(pk.get("temp_visited", [])):
        at = pk["at"]
        if at["where"] != "inside" or at.get("castle", at["area"]) != castle:
            # a castle friendly for one visit only: the visit is over
            pk["temp_visited"].remove(castle)
            _res().end_temp_friendly(s, castle)
    from companion.koc.engine.movement import in_merlins_reach

    if not over and pk["lost"] and s.world.areas[pk["at"]["area"]].kind == "forest" and \
            pk["at"]["where"] == "area" and not (pk["prison"] or pk["immobile"] or pk["mad"]) \
            and not in_merlins_reach(s, pk["at"]["area"]):
        roll = s.d6(f"encounter roll in {pk['at']['area']} (lost)")
        if roll <= 3:
            s.note(f"Lost in {pk['at']['area']}: {roll}, an encounter.")
            terrain_encounter(s, pk["at"]["area"])
            return True
        pk["lost"] = False
        s.note(f"Lost in {pk['at']['area']}: {roll}, no encounter; {pk['name']} finds the way "
               "out.")
    return over


def scheduled(s: Session, item: dict) -> bool:
    pk = s.pk
    what = item["what"]
    free = not (pk["prison"] or pk["mad"] or pk["slain"] or pk["immobile"] and
                what in ("led_to_castle", "gateway"))
    if what == "hermit_services":
        s.note(f"{pk['name']} spends the turn in prayer with {item['hermit']['name']}.")
        pk.setdefault("met", []).append({"kind": "hermit", "card": item["hermit"],
                                         "attitude": FRIENDLY})
        return False
    if what == "scourge":
        _res().scourge(s)
        return False
    if what == "fast":
        pk["fasting"] = {"turns": 1, "penance": True, "since": turn_no(s)}
        s.note(f"{pk['name']} begins his fast: his combat rolls are halved.")
        s.gain_vp(3, "a turn of fasting")
        return False
    if not free:
        s.note(f"{pk['name']} cannot go where he meant to go this turn.")
        return False
    if what == "led_to_castle":
        if pk["at"]["area"] != item["area"]:
            return False
        lady = s.game.draw("ladies", "the lady of the castle")
        castle = tasks.place_castle(s, lady["castle"], lady["name"], "lady", area=item["area"])
        s.game.discard("ladies", lady["name"])
        befriend(s, castle)
        placed = s.game.state["castles"][castle]
        pk["at"] = {"area": placed["area"], "where": "inside", "castle": castle}
        s.note(f"{item['by'].capitalize()} leads {pk['name']} to {castle}, the castle of "
               f"{lady['name']}, who welcomes him.")
        pk["encountered"] = True
        resupply(s, castle)
        return True
    if what == "gateway":
        at = pk["at"]
        if at.get("castle", at["area"]) != item["castle"] or at["where"] != "inside":
            return False
        from companion.koc.engine.faerie import enter_faerie

        s.note(f"{pk['name']} steps through the gateway of {item['castle']}.")
        enter_faerie(s, award=True, why=f"through the magic gateway of {item['castle']}")
        return True
    return False


def keep_fasting(s: Session) -> None:
    """The end of a turn of fasting (asked at the start of the next): go on, up to six turns,
    or stop and fight at full strength again."""
    pk = s.pk
    fast = pk["fasting"]
    if fast["turns"] >= 6:
        pk["fasting"] = None
        s.note(f"{pk['name']}'s six turns of fasting are over.")
        return
    q = Question("fast_on", f"{pk['name']} has fasted {fast['turns']} "
                 f"{plural(s, fast['turns'], 'turn')}. Fast one more "
                 "turn (3 VP; combat rolls halved)?", ["yes", "no"], "no", tags=("fast",),
                 values={"turns": fast["turns"]})
    if s.ask(q) == "yes":
        fast["turns"] += 1
        s.gain_vp(3, "a turn of fasting")
    else:
        pk["fasting"] = None
        s.note(f"{pk['name']} ends his fast.")


def river_crossing(s: Session, river: str, target: str) -> bool:
    """Leaving a river, the turn after an encounter there was avoided or the river flooded,
    towards anywhere but the bank he came from: a flood still bars the way; the knight who was
    avoided still waits and attacks; after any other avoided encounter the river must be rolled
    for again. True when the move is stopped."""
    pk = s.pk
    block = pk.get("river_block")
    if not block or block["river"] != river or block["turn"] != turn_no(s) - 1:
        return False
    if target == block.get("from"):
        # turning back: whatever waits at the river is left behind
        pk.pop("river_block")
        if block.get("knight"):
            s.game.discard("knights", block["knight"]["name"])
        return False
    if block["kind"] == "flood":
        s.note(f"{river} is still in flood: {pk['name']} cannot cross this turn.")
        return True
    pk.pop("river_block")
    if block["kind"] == "knight":
        m = Meeting(s, river)
        pk["encountered"] = True
        _attacking_knight(m, None, card=block["knight"])
        m.finish()
        return True
    roll = s.d6(f"encounter roll crossing {river}")
    s.note(f"Crossing {river} again: {roll} (an encounter on 1).")
    if roll == 1:
        terrain_encounter(s, river)
        return True
    return False


def forced_encounter(s: Session, area: str) -> bool:
    """Staying in a town the turn after slaying a Lady, Priest or Dwarf there, or beating the
    watch: the watch comes back."""
    pk = s.pk
    watch = pk.get("town_watch")
    if not watch or watch["town"] != area or watch["turn"] != turn_no(s) - 1:
        return False
    pk.pop("town_watch")
    pk["encountered"] = True
    s.note(f"The watch of {area} comes looking for {pk['name']}.")
    m = Meeting(s, area, place="town")
    town_watch(m, s.world.charts["town"].entry("watchmen"))
    m.finish()
    return True
