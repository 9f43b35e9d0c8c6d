"""Combat: fights, battles against knightly foes, challenges, and their outcomes.

A *fighter* is a dict. The player knight's fighter wraps his record; other fighters are built
with ``foe()`` (creatures and unknightly persons) or ``npk()`` (knights and kings from their
cards). Every engagement is one against one, fought in passes: both roll their attack dice, the
higher total inflicts the difference in wounds, a tie is a Combat Event.

Entry points for encounters:

* ``fight(s, foes, *, attacker="foe"|"pk", tags=...)``: an attack by hostile foes, or the PK
  attacking (he must then fight knightly foes chivalrously);
* ``challenge(s, foe, *, challenger="pk"|"foe")``: a single combat of three passes;
* ``party_combat(pk_side_wl, foe_side_wl)``: the quick NPK party combat.

Each returns a ``Result``; the caller applies what the encounter makes of it (a friendly castle,
a Lady rescued...). Awards, slaying, robbing and Knight's Fate are applied here.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from companion.engine.game import edition
from companion.engine.words import joined
from companion.koc.engine import knight as kn
from companion.koc.engine.session import Question, Session
from companion.koc.engine.words import plural

KNIGHTLY = ("knight", "king", "pk")
METHODS = ("lance", "mounted sword", "sword", "unarmed")
RANK = {"lance": 3, "mounted sword": 2, "sword": 1, "unarmed": 0}


# ------------------------------------------------------------------------------ fighters
def foe(kind: str, name: str, wl: int, dice: int, *, bonus: int = 0, shieldless_matters=False,
        **extra) -> dict:
    """An unknightly fighter: a monster, animal, brigand, dwarf, hermit, lady, mad knight..."""
    return {"kind": kind, "name": name, "wl": wl, "wounds": 0, "dice": dice, "bonus": bonus,
            "knightly": False, "shield": extra.pop("shield", True),
            "shieldless_matters": shieldless_matters, **extra}


def npk(record: dict) -> dict:
    """A knight or king (a card record) as a fighter with a full set of equipment."""
    cp = record.get("cp") or 10
    return {"kind": record["kind"], "name": record["name"], "wl": record.get("wl") or cp // 10,
            "wounds": record.get("wounds", 0), "vl": record["vl"], "cp": cp,
            "knightly": True, "arthurian": record.get("arthurian", False),
            "gear": dict(record.get("gear") or {g: True for g in kn.GEAR}),
            "mounted": record.get("mounted", True), "method": None, "card": record}


def pk_fighter(s: Session) -> dict:
    pk = s.pk
    return {"kind": "pk", "name": pk["name"], "player": s.player, "knightly": True,
            "vl": kn.vl(pk), "cp": pk["cp"], "pk": pk, "method": None}


def wl_of(f: dict) -> int:
    return kn.wl(f["pk"]) if f["kind"] == "pk" else f["wl"]


def wounds_of(f: dict) -> int:
    return f["pk"]["wounds"] if f["kind"] == "pk" else f["wounds"]


def add_wounds(f: dict, n: int) -> None:
    if f["kind"] == "pk":
        f["pk"]["wounds"] += n
    else:
        f["wounds"] += n


def left(f: dict) -> int:
    return max(0, wl_of(f) - wounds_of(f))


def gear(f: dict) -> dict:
    return f["pk"]["gear"] if f["kind"] == "pk" else f.get("gear", {})


def is_mounted(f: dict) -> bool:
    if f["kind"] == "pk":
        return kn.mounted(f["pk"])
    return f.get("mounted", False) and f.get("gear", {}).get("horse", False)


def dismount(f: dict) -> None:
    """The fighter fights on foot from now on."""
    if f["kind"] == "pk":
        f["pk"]["on_foot"] = True
    else:
        f["mounted"] = False


def has_shield(f: dict) -> bool:
    if f["kind"] == "pk":
        return f["pk"]["gear"]["shield"] and f["pk"]["animal"] is None and \
            not f.get("shield_aside")       # laid aside to fight fairly (SHIELD_ASIDE)
    if f["knightly"]:
        return f["gear"].get("shield", False)
    return f.get("shield", True)


# ------------------------------------------------------------------------------ methods
def methods_for(f: dict, place: "Place") -> list[str]:
    """The methods a knightly fighter can use now, best first."""
    g = gear(f)
    out = []
    mounted = is_mounted(f) and place.horses
    if f["kind"] == "pk" and (f["pk"]["animal"] or "use_no_weapons" in f["pk"]["oaths"]):
        return ["unarmed"]
    if mounted and g.get("lance") and place.lances:
        out.append("lance")
    if g.get("sword"):
        if mounted:
            out.append("mounted sword")
        out.append("sword")
    out.append("unarmed")
    return out


@dataclass
class Place:
    """What the ground allows: horses and lances (not in towns, wastelands or aboard), combat
    events (not aboard)."""

    horses: bool = True
    lances: bool = True
    events: bool = True
    name: str = ""

    @classmethod
    def of(cls, s: Session, *, challenge: bool = False) -> "Place":
        at = s.pk["at"]
        area = s.world.areas[at["area"]]
        if at["where"] == "ship" or area.kind == "sea":
            return cls(False, False, False, "aboard")
        # a knight on foot (out of a wasteland this turn, a failed remount) is no reason for
        # his foe to dismount: each fighter's own horse decides (``is_mounted``), and a mounted
        # foe keeps his advantage unless he agrees to fight fairly (Knightly Methods of Combat)
        if area.kind == "wasteland":
            return cls(False, False, True, "wasteland")
        if area.is_town and area.kind != "castle" and not challenge:
            return cls(False, False, True, "town")
        return cls(True, True, True, area.name)


def superior(s: Session, rider: dict, other: dict) -> bool:
    """Superior Knights (optional rule): a knightly fighter with at least 50 CP more than his
    opponent cannot be unhorsed by a combat event."""
    if not s.options_rule("superior_knights") or not rider.get("knightly"):
        return False
    return (rider.get("cp") or 0) >= (other.get("cp") or 0) + 50


VICTOR_STANDS = 3
"""The rules edition from which a knight beaten by one foe who then fell to his followers
(brigands, pirates: the ship's crew fights on) is robbed, or slain, by a foe still standing;
before, by the fallen one ("pirate 1 is slain", then "pirate 1 robs Anna")."""

ROBBER_AGREES = 3
"""The rules edition from which a robber whose name ends in s robs ("Sir Epinogrus robs Bert");
before, "Sir Epinogrus rob Bert" (the verb of "the brigands rob")."""

NO_CHOICE_AT_THE_END = 3
"""The rules edition from which a lance broken in the pass that ends the fight (he or his foe
is down) asks no new method of combat, nor the foe to fight fairly (a VL check); before, it
did: "Cora's lance breaks ... Sir Aglovale agrees to fight with the same weapons. Cora is
defeated"."""

KNAVE_STAMINA = 3
"""The rules edition from which a Knave's Stamina Attack Bonus counts his WL points, CP + SP
(at most 300), as his WL does (Knaves: Knave Combat); before, his CP alone."""

FOLLOWERS_WIN_HALF = 4
"""The rules edition from which a foe struck down by the followers, once every knight of the
party has fallen (or fled), pays half the award he would pay a knight's own hand, rounded up
(CP, and VP where he pays them; penalties are not halved), to the knights who wounded him (else
the leader), as the rules pay for a Monster, Animal or Dwarf the knight did not slay himself
(COMBAT, Outcomes: Victory); the award says "struck down by the followers: half". Before,
Brigands, Pirates, a ship's crew, Knights, Kings and Mad Knights so beaten paid as much as if
the fallen knight had beaten them himself."""

LESSON_SIDE_WON = 4
"""The rules edition from which a knight defeated by a knightly foe (a Knight, a King, a player
knight, or a Lady, Hermit or Pilgrim, whose victory would bring a Knight's Fate) gains the 6 CP
lesson of defeat even when his side (his party, his followers) goes on to win the fight
(COMBAT: a knight defeated in combat gains 6 CP for the lesson; Outcomes, Defeat). Before, only
a knight whose side lost had the lesson, with his Knight's Fate. A knight felled by a creature
or by Brigands has none, side won or lost, as before (Defeat gives the 6 CP with the Knight's
Fate alone)."""
FLED_NOT_CREDITED = 4
"""The rules edition from which a foe the followers strike down after every knight of the
party is out, and whom no knight wounded, is credited to the first knight (the leader, else in
seat order) who did not flee, and he stands for the party in its outcome (the foe's fate, the
words "beaten by his followers"): the followers who fought on were those of the knights who
fell, as a knight who flees loses his Dwarf, Men-at-Arms and comrades (COMBAT: Party Combat,
Fleeing). Before, such a foe was the leader's even when he had fled."""
ANIMAL_FORM_FIGHTS = 7
"""The rules edition from which a player knight in animal form fights as the rules' Enchantments
4 says: his foes have no +2 for his want of a shield (an animal does not suffer from being
shield-less), and defeated in a fight he is slain, whoever beats him (a Knight, a King,
Brigands: no Knight's Fate, no robbing), so he is never offered to yield. Before, his foes
added 2 as against a knight without a shield, and he was beaten as a knight (a Knight's Fate
from a knightly victor, robbed by Brigands)."""
ENEMY_SPARED_BY_OATH = 7
"""The rules edition from which a knight sworn to spare the lives of knights (Oaths 7: he slays
none he defeats) who personally beats a declared enemy in their fight to the death (Knight's
Fate 13) keeps the oath, or breaks it for 12 VP when he can: kept, the enemy rides off beaten,
still his enemy, with the awards of the victory paid. Before, the enemy died by his hand, the
oath unasked."""
LESSON_FROM = ("knight", "king", "pk", "lady", "hermit", "pilgrim")
FIGHT_STOPPED_AS_CHALLENGE = 7
"""The rules edition from which a fight (not a challenge) stopped on Combat Event 7 goes as the
rules' explanation of that event says: the engagement stopped pays as a challenge would, by
the wounds the two inflicted on each other in it (more: CP for each wound and 6 VP, none to a
knight without chivalry or in a fight without awards; fewer: the 6 CP lesson; even: nothing);
every other knight or king still standing against the party stops too only on a VL check of
his own VL, and those who fail fight on; and nobody gives a Knight's Fate in that fight, before
or after it stopped (a knight beaten is let go, a beaten player knight has the lesson alone).
Before, the whole fight ended at once and the stop paid nothing."""
CHALLENGE_COUNTED = 7
"""The rules edition from which a challenge even after its passes goes on with the weapons it
was fought with, and with swords only once a lance has broken (COMBAT, Challenges; before,
always on foot with swords); and from which a knight who fells his foe but inflicted fewer
wounds has the winner's awards and the loser's 6 CP both, as one felled while ahead on the
count always had (a player knight foe has both too, either way round; before, the one who
felled the other had the winner's awards alone)."""
UNARMED_NOTHING_BREAKS = 7
"""The rules edition from which Combat Events 4 and 10 (a weapon broken) do nothing to a knight
fighting unarmed (in animal form, sworn to use no weapons, without sword and lance): he wields
no weapon, so none breaks. Before, the sword he carried unused broke."""
REFIT_BETWEEN_FOES = 7
"""The rules edition from which a knight who beat one foe takes, before he faces the next (and
while his Mascot fights for him), the spares of what he lost from his Dwarf without a Luck Test,
and gets back on his horse if he lost his saddle in this combat (COMBAT, Fights; Mascot
Combat). Before, he fought every later foe as he had ended the last engagement."""
SHIELD_ASIDE = 7
"""The rules edition from which Combat Event 11, breaking a knightly foe's shield, makes the
knight choose, as the event says, whether to fight chivalrously: he lays his own shield aside
for that engagement (the foe then adds 2 as well: they fight on even terms), forced to if he
must fight fairly (attacker, challenger, the oath), the default for a knight of the Round
Table; or he keeps it, an advantage, and fights unchivalrously (no awards; an Arthurian loses
6 VP). Before, he kept his shield and his +2 with no question of chivalry."""
FLEEING_DWARF_FOLLOWS = 7
"""The rules edition from which a knight who flees a fight keeps his Arthurian Dwarf (the
glossary: such a Dwarf tags along if his knight flees), losing his other Dwarf, Men-at-Arms and
comrades as ever, as a knight who flees attacking knights before the fight always did. Before,
the Arthurian Dwarf left him too."""
CHALLENGE_MENDED = 7
"""The rules edition from which a challenge fought inside a castle friendly to a knight ends
with that castle replacing what he lost in it (COMBAT, Challenges): a broken lance, shield or
sword, a slain horse. Before, he rode on without them."""
CHALLENGED_NOT_BOUND = 7
"""The rules edition from which only the challenger of a challenge is made to fight fairly
(COMBAT, Chivalry; Challenges): a knight challenged by a King or Knight (a neutral reaction's
challenge, a castle's champion), or by another player knight, chooses his method freely and,
taking an advantage, fights unchivalrously (no awards; an Arthurian loses 6 VP), as when he is
attacked. Before, every challenge bound him to fight fairly, whoever offered it."""
UNCHIVALROUS_EACH_FOE = 7
"""The rules edition from which a knight of the Round Table loses 6 VP for each knightly foe
he fights unchivalrously in a fight (SERVICE, King Arthur's Knights), e.g. 12 VP for taking an
advantage over two knights (``Combat.unfair`` lists them). Before, 6 VP once a fight, however
many foes he fought so."""


def enemy_spared(s: Session, f: dict) -> bool:
    """Whether the knight who beat his declared enemy ``f`` spares him for his oath to spare
    knights (ENEMY_SPARED_BY_OATH)."""
    if "spare_knights" not in s.pk["oaths"] or \
            edition(s.game.state) < ENEMY_SPARED_BY_OATH:
        return False
    from companion.koc.engine.resolutions import oath_binds

    return oath_binds(s, "spare_knights", f"slaying {f['name']}, his sworn enemy")


def stamina_bonus(s: Session, f: dict) -> int:
    """Stamina Attack Bonus (optional rule): +1 on the attack dice for every full 60 CP of a
    knight or king (6 WL; a Knave's CP + SP from rules edition 3), and for every full 6 WL of
    a ship's crew; not for a mad knight nor a player knight in animal form."""
    if not s.options_rule("stamina"):
        return 0
    if f["kind"] == "pk":
        rec = f["pk"]
        points = kn.wl_points(rec) if edition(s.game.state) >= KNAVE_STAMINA else rec["cp"]
        return 0 if rec["animal"] or rec.get("mad") else points // 60
    if f["knightly"]:
        return (f.get("cp") or 0) // 60
    if f["kind"] == "crew":
        return f["wl"] // 6
    return 0


def magic_breaks(s: Session, pk: dict, key: str, power: str) -> bool:
    """A combat event breaks a Magic Shield or Magic Sword (Foreign War Prize table): it loses
    one of its ``power`` (wounds absorbed, bonus pips) and stays whole; reaching none, it is
    an ordinary shield or sword. False when he carries no such item (or not that piece of
    gear)."""
    item = next((i for i in pk["items"] if i["key"] == key), None)
    if item is None or not pk["gear"]["shield" if key == "magic_shield" else "sword"]:
        return False
    default = 2 if key == "magic_shield" else 4
    item[power] = item.get(power, default) - 1
    what = "Magic Shield" if key == "magic_shield" else "Magic Sword"
    if item[power] <= 0:
        pk["items"].remove(item)
        s.note(f"{pk['name']}'s {what} is struck again: it is an ordinary "
               f"{'shield' if key == 'magic_shield' else 'sword'} now.")
    else:
        s.note(f"{pk['name']}'s {what} is struck but holds ({power} {item[power]} left).")
    return True


def attack_dice(f: dict, method: str | None) -> tuple[int, int]:
    """(dice, flat bonus) of a fighter's method."""
    if not f["knightly"]:
        return f["dice"], f.get("bonus", 0)
    if f["kind"] == "pk" and (f["pk"]["animal"] or f["pk"].get("mad")):
        return 2, 0      # an animal's two dice; a madman's rage (Mad Knight Encounters)
    return {"lance": (3, 0), "mounted sword": (2, 1), "sword": (2, 0), "unarmed": (1, 0)}[method]


# ------------------------------------------------------------------------------ results
@dataclass
class Result:
    won: bool = False                 # the PK's side won
    pk_defeated: bool = False
    fled: bool = False
    broke_off: bool = False
    yielded: bool = False
    slain: bool = False               # the PK was slain
    defeated: list = field(default_factory=list)   # foes defeated (fighter dicts)
    remaining: list = field(default_factory=list)
    unchivalrous: bool = False
    challenge_winner: str | None = None   # 'pk', 'foe' or None (challenges)
    wounds_dealt: int = 0
    wounds_taken: int = 0


# ------------------------------------------------------------------------------ the engine
class Combat:
    def __init__(self, s: Session, foes: list[dict], *, attacker: str, tags: tuple[str, ...] = (),
                 challenge: bool = False, awards: bool = True, alone: bool = False,
                 place: Place | None = None, leader: dict | None = None, steed: bool = False,
                 tournament: bool = False):
        self.s = s
        self.pk = s.pk
        self.me = pk_fighter(s)
        # a joust of a tournament (engine/tournaments.py): the Lady's Token adds 1, lances
        # broken are replaced by the host and earn the breaker 1 CP
        self.tournament = tournament
        self.foes = foes
        self.attacker = attacker
        self.tags = tags
        self.is_challenge = challenge
        self.awards = awards
        self.alone = alone or challenge
        self.place = place or Place.of(s, challenge=challenge)
        self.leader = leader
        self.result = Result()
        self.knightly = any(f["knightly"] for f in foes)
        self.mascot_used = False
        self.unchivalrous = False
        self.unfair: list[str] = []    # knightly foes fought unchivalrously (in that order)
        self.fair = set()          # foes who agreed to fight with the PK's method
        # encounters: an animal going for the PK's horse: its wounds fall on the horse (3 kill
        # it), then on the PK
        self.steed = {"wounds": 0} if steed and s.pk["gear"]["horse"] else None

    # -- the whole combat -------------------------------------------------------------------
    def run(self) -> Result:
        """The PK alone (with his own followers) against the foes."""
        return run_battle([self])[0]

    done = False
    stopped: dict | None = None     # Combat Event 7 stopped an engagement (FIGHT_STOPPED_...)
    no_fate = False                 # ... so nobody gives a Knight's Fate in this fight
    _base = (0, 0)                  # wounds dealt and taken before this engagement
    engaged = 0                     # engagements begun (REFIT_BETWEEN_FOES)
    unhorsed = False                # he lost his saddle or his horse in this combat

    def over(self) -> bool:
        r = self.result
        return r.pk_defeated or r.fled or r.broke_off or r.slain or self.done

    def remount_in_wasteland(self) -> None:
        """Leaving a wasteland the PK is still on foot; attacked, he may remount on a Luck Test."""
        s, pk = self.s, self.pk
        area = s.world.areas[pk["at"]["area"]]
        if pk["on_foot"] and area.kind != "wasteland" and self.attacker == "foe" and \
                pk["gear"]["horse"] and not self.is_challenge:
            if self.luck("remount before the fight"):
                pk["on_foot"] = False
                self.place = Place.of(s)

    def pick(self, queue: list[dict], first: bool) -> dict:
        """Foes are fought in the order they came, unless a Luck Test lets the PK choose."""
        s = self.s
        if len(queue) == 1:
            return queue[0]
        q = Question("opponent", f"Several foes face {self.pk['name']}: "
                     + ", ".join(f["name"] for f in queue)
                     + ". Try to pick whom to fight (a Luck Test), or take them in order?",
                     ["in order", "weakest", "strongest"], "in order", tags=self.tags)
        choice = s.ask(q)
        if choice != "in order" and self.luck("pick an opponent"):
            key = (lambda f: left(f)) if choice == "weakest" else (lambda f: -left(f))
            return sorted(queue, key=key)[0]
        return queue[0]

    # -- one engagement ---------------------------------------------------------------------
    def engage(self, opponent: dict) -> None:
        s, pk = self.s, self.pk
        self._base = (self.result.wounds_dealt, self.result.wounds_taken)
        mascot = self.send_mascot(opponent)
        if (mascot or self.engaged) and edition(s.game.state) >= REFIT_BETWEEN_FOES:
            self.refit()
        self.engaged += 1
        if mascot:
            if left(opponent) <= 0:
                return
        if opponent["kind"] == "pk" and opponent["knightly"]:
            self.rival_chooses(opponent)
        if opponent["knightly"]:
            self.choose_method(opponent, opening=True)
        passes = 0
        while left(opponent) > 0 and not self.over():
            passes += self.exchange(self.me, opponent)
            if self.over() or opponent.get("gone"):
                return
            if left(self.me) <= 0:
                self.defeated_by(opponent)
                return
            if self.is_challenge and (passes >= 3 or self.lance_broke):
                break
            if opponent["knightly"] and left(opponent) > 0 and self.wants_to_yield(opponent):
                self.result.yielded = True
                self.defeated_by(opponent, yielded=True)
                return
        if self.is_challenge:
            self.done = True        # a challenge is one engagement

    lance_broke = False
    rounds = 0          # fight rounds (passes) so far: Limited Luck (engine/optional.py)

    def luck(self, purpose: str) -> bool:
        """A Luck Test the knight attempts during the combat; under Limited Luck only as often
        as his CP allow (a test he may not attempt fails)."""
        from companion.koc.engine.optional import combat_luck_allowed

        if not combat_luck_allowed(self.s, self):
            self.s.note(f"{self.pk['name']} may not test his luck again so soon ({purpose}; "
                        "Limited Luck).")
            return False
        return self.s.luck_test(purpose)

    def exchange(self, a: dict, b: dict) -> int:
        """One pass between the PK (or his mascot/companion) ``a`` and foe ``b``. Returns 1 if it
        counts as a pass (0 when it produced a Combat Event)."""
        s = self.s
        self.rounds += 1
        ra, lance_a = self.roll(a, b)
        rb, lance_b = self.roll(b, a)
        if ra > rb:
            self.wound(b, ra - rb, a)
        elif rb > ra:
            self.wound(a, rb - ra, b)
        s.note(f"Pass: {a['name']} {ra}, {b['name']} {rb}"
               + ("" if ra != rb else " (a tie)") + f"; {a['name']} WL {left(a)}, "
               f"{b['name']} WL {left(b)}.")
        for who, broke in ((a, lance_a), (b, lance_b)):
            if broke:
                self.break_lance(who)
        if ra == rb:
            if self.place.events and a is self.me:
                self.combat_event(b)
            return 0
        return 1

    def roll(self, f: dict, opponent: dict) -> tuple[int, bool]:
        s = self.s
        method = f.get("method")
        if f["knightly"] and method is None:
            method = self.best_method(f)
            f["method"] = method
        count, bonus = attack_dice(f, method)
        dice = s.dice(count, f"attack of {f['name']}")
        total = sum(dice) + bonus + stamina_bonus(s, f)
        broke = method == "lance" and count == 3 and sum(dice) == 11
        if method == "lance" and count == 3 and f["kind"] == "pk" and \
                "brittle_lance" in (kn.knave_rec(f["pk"]) or {}).get("curses", ()):
            broke = 10 <= sum(dice) <= 12      # KNAVES: the Brittle Lance curse
        beast = opponent["kind"] == "pk" and opponent["pk"]["animal"] and \
            edition(s.game.state) >= ANIMAL_FORM_FIGHTS
        if not has_shield(opponent) and not beast and \
                (opponent["knightly"] or opponent.get("shieldless_matters")):
            total += 2
        if f["kind"] == "pk":
            rec = f["pk"]
            if rec.get("grail"):
                total += 1
            if kn.has_item(rec, "valiant_charger") and is_mounted(f):
                total += 1
            sword = next((i for i in rec["items"] if i["key"] == "magic_sword"), None)
            if sword and method in ("mounted sword", "sword"):
                total += sword.get("bonus", 4)
            if self.tournament and rec["token"]:
                total += 1
            if rec["fasting"] or "do_not_eat" in rec["oaths"]:
                total //= 2
        return total, broke

    def wound(self, f: dict, n: int, by: dict) -> None:
        if f is self.me and self.steed is not None and self.pk["gear"]["horse"]:
            self.steed["wounds"] += n
            if self.steed["wounds"] >= 3:
                self.steed = None
                self.pk["gear"]["horse"] = False
                self.pk["on_foot"] = True
                self.me["method"] = None
                self.s.note(f"{by['name']} kills {self.pk['name']}'s horse, and turns on him.")
            return
        if f["kind"] == "pk":
            shield = next((i for i in f["pk"]["items"] if i["key"] == "magic_shield"), None)
            if shield and f["pk"]["gear"]["shield"] and not f.get("shield_aside"):
                absorbed = min(n, shield.get("absorbs", 2))
                n -= absorbed
        n = min(n, left(f))          # no more wounds than he has left to take
        add_wounds(f, n)
        if f is self.me:
            self.result.wounds_taken += n
        elif by is self.me:
            self.result.wounds_dealt += n
            struck(f, self.s.player, n)

    def best_method(self, f: dict) -> str:
        options = methods_for(f, self.place)
        if f is self.me or f["kind"] == "pk":
            return options[0]
        if f["name"] in self.fair and self.me.get("method"):
            mine = self.me["method"]
            if mine in options:
                return mine
        return options[0]

    def choose_method(self, opponent: dict, opening: bool = False) -> None:
        """The PK picks his method; against a knightly foe, using an advantage is unchivalrous.
        At a disadvantage he may ask the foe to fight with the same method (VL check)."""
        s, me = self.s, self.me
        mine = methods_for(me, self.place)
        theirs = methods_for(opponent, self.place)
        must_be_fair = self.must_be_fair()
        chosen = opponent["name"] in self.fair or opponent["kind"] == "pk"
        best_foe = (opponent.get("method") if chosen else None) \
            or theirs[0]     # a fair foe who just lost his method takes his best again
        fair = [m for m in mine if RANK[m] <= RANK[best_foe]]
        default = fair[0] if (fair and (must_be_fair or self.pk["arthurian"])) else mine[0]
        q = Question("method", f"Fight {opponent['name']} ({best_foe}) with which method? "
                     f"Using a better one than your foe is unchivalrous.",
                     mine, default, tags=(*self.tags, "knightly"))
        method = s.ask(q) if len(mine) > 1 else mine[0]
        if must_be_fair and method not in fair and fair:
            method = fair[0]
        me["method"] = method
        if RANK[method] > RANK[best_foe]:
            if not self.unchivalrous:
                s.note(f"{self.pk['name']} fights {opponent['name']} unchivalrously "
                       f"({method} against {best_foe}): no awards for this combat.")
            self.unchivalrous = True
            if opponent["name"] not in self.unfair:
                self.unfair.append(opponent["name"])
        elif RANK[method] < RANK[best_foe] and opponent["name"] not in self.fair:
            self.appeal_fair(opponent, method)

    def must_be_fair(self) -> bool:
        """An attacker or challenger (not a Knave: Knave Combat), or a knight sworn to fight
        without advantage, is made to fight knightly foes fairly; the challenged knight is
        not (CHALLENGED_NOT_BOUND; a challenge's ``attacker`` is its challenger)."""
        bound = self.is_challenge and edition(self.s.game.state) < CHALLENGED_NOT_BOUND
        return ((self.attacker == "pk" or bound)
                and kn.knave_rec(self.pk) is None    # KNAVES: Knave Combat
                or "fight_without_advantage" in self.pk["oaths"])

    def shield_aside(self, opponent: dict) -> None:
        """Combat Event 11 left a knightly foe without a shield (SHIELD_ASIDE): keeping his own
        is an advantage, so the knight lays it aside for this engagement (question
        `fight_fair`, default yes for a knight of the Round Table as for his method; forced if
        he must fight fairly) or keeps it and fights unchivalrously (no awards)."""
        s, pk = self.s, self.pk
        if not has_shield(self.me) or edition(s.game.state) < SHIELD_ASIDE:
            return
        forced = self.must_be_fair()
        q = Question("fight_fair", f"{opponent['name']} has lost his shield. Lay yours aside "
                     "to fight him on even terms? Keeping it is unchivalrous.", ["yes", "no"],
                     "yes" if pk["arthurian"] else "no")
        if forced or s.ask(q) == "yes":
            self.me["shield_aside"] = True
            s.note(f"{pk['name']} lays his shield aside to fight {opponent['name']} fairly.")
        else:
            if not self.unchivalrous:
                s.note(f"{pk['name']} keeps his shield against {opponent['name']}, who has "
                       "none: he fights unchivalrously, no awards for this combat.")
            self.unchivalrous = True
            if opponent["name"] not in self.unfair:
                self.unfair.append(opponent["name"])

    def appeal_fair(self, opponent: dict, method: str) -> None:
        s = self.s
        if opponent["kind"] == "pk":
            self.appeal_to_rival(opponent, method)
            return
        q = Question("appeal_chivalry", f"{opponent['name']} has the better method. Ask him to "
                     f"fight with {method} as you do (he agrees on a VL check of his VL "
                     f"{opponent['vl']})?", ["yes", "no"], "yes", tags=self.tags)
        if s.ask(q) == "yes":
            if s.vl_check(opponent["vl"], "agrees to fight fairly", who=opponent["name"]):
                self.fair.add(opponent["name"])
                opponent["method"] = method if method in methods_for(opponent, self.place) \
                    else methods_for(opponent, self.place)[-1]
                s.note(f"{opponent['name']} agrees to fight with the same weapons.")
            else:
                s.note(f"{opponent['name']} refuses to give up his advantage.")

    # -- another player knight as the foe ---------------------------------------------------
    def rival(self, opponent: dict) -> Session:
        """The session of a player knight fought as a foe (his decisions are his own)."""
        return Session(self.s.game, opponent["player"], parent=self.s)

    def rival_chooses(self, opponent: dict) -> None:
        """A player knight fought as a foe picks his own method (default: the best that is no
        better than this knight's best); using an advantage costs him his awards."""
        theirs = methods_for(opponent, self.place)
        mine = methods_for(self.me, self.place)[0]
        fair = [m for m in theirs if RANK[m] <= RANK[mine]]
        default = fair[0] if fair else theirs[0]
        q = Question("method", f"{self.pk['name']} fights you ({mine}): your method?", theirs,
                     default, tags=(*self.tags, "pk", "knightly"))
        method = self.s.ask_other(opponent["player"], q) if len(theirs) > 1 else theirs[0]
        opponent["method"] = method
        if RANK[method] > RANK[mine] and not opponent.get("unchivalrous"):
            opponent["unchivalrous"] = True
            self.s.note(f"{opponent['name']} fights {self.pk['name']} unchivalrously "
                        f"({method} against {mine}): no awards for him from this combat.")

    def appeal_to_rival(self, opponent: dict, method: str) -> None:
        """Asked to fight with the same weapons, a player knight decides for himself."""
        q = Question("fight_fair", f"{self.pk['name']} asks you to fight with {method}, as he "
                     "does. Agree?", ["yes", "no"], "yes", tags=("pk",))
        if self.s.ask_other(opponent["player"], q) == "yes":
            theirs = methods_for(opponent, self.place)
            opponent["method"] = method if method in theirs else theirs[-1]
            opponent.pop("unchivalrous", None)
            self.fair.add(opponent["name"])
            self.s.note(f"{opponent['name']} agrees to fight with the same weapons.")
        else:
            self.s.note(f"{opponent['name']} keeps his advantage.")

    def mirror(self, opponent: dict) -> "Combat":
        """This combat seen from a player knight foe's side (for a combat event that befalls
        him as 'the player knight'): the same fighters, his session and record."""
        m = Combat.__new__(Combat)
        m.__dict__.update(self.__dict__)
        m.s = self.rival(opponent)
        m.pk, m.me, m.foes = m.s.pk, opponent, [self.me]
        m.result = Result()
        m.fair, m.steed, m.mascot_used = set(), None, True
        m.unfair = []
        m.unchivalrous = bool(opponent.get("unchivalrous"))
        m.attacker = "foe" if self.attacker == "pk" else "pk"
        m._current = self.me
        return m

    # -- equipment during the fight --------------------------------------------------------
    def break_lance(self, f: dict) -> None:
        s = self.s
        if self.tournament:
            if f["kind"] == "pk" and kn.has_item(f["pk"], "unbreakable_lance"):
                return
            s.note(f"{f['name']}'s lance breaks (11 on the attack dice); the host hands him "
                   "a new one.")
            self.lance_broke = True
            if f["kind"] == "pk":
                breaker = s if f.get("player") == s.player else self.rival(f)
                breaker.gain_cp(1, "a lance broken in the tournament")
            return
        if f["kind"] == "pk":
            if kn.has_item(f["pk"], "unbreakable_lance"):
                return
            f["pk"]["gear"]["lance"] = False
            s.note(f"{f['name']}'s lance breaks (11 on the attack dice).")
            self.lance_broke = True
            if not self.from_dwarf("lance"):
                f["method"] = None
                foe = self.current_foe()
                over = foe is not None and (left(f) <= 0 or left(foe) <= 0) and \
                    edition(s.game.state) >= NO_CHOICE_AT_THE_END
                if foe is not None and foe["knightly"] and not over:
                    self.choose_method(foe)     # else the best he has left (roll picks it)
        else:
            f["gear"]["lance"] = False
            f["method"] = None
            s.note(f"{f['name']}'s lance breaks (11 on the attack dice).")
            self.lance_broke = True

    def from_dwarf(self, item: str) -> bool:
        """A spare from the Dwarf, on a Luck Test."""
        s, pk = self.s, self.pk
        dwarf = pk["dwarf"]
        if not dwarf or item not in dwarf["spares"]:
            return False
        if self.luck(f"the Dwarf brings a spare {item}"):
            dwarf["spares"].remove(item)
            pk["gear"][item] = True
            if item == "horse":
                pk["on_foot"] = False
            s.note(f"{dwarf.get('name', 'The Dwarf')} brings {pk['name']} a spare {item}.")
            return True
        return False

    def refit(self) -> None:
        """Before his next foe, or while his Mascot fights (REFIT_BETWEEN_FOES): the knight
        takes from his Dwarf, without a Luck Test, the spares of what he lost, and one who lost
        his saddle in this combat gets back on a horse."""
        s, pk = self.s, self.pk
        dwarf = pk["dwarf"]
        got = [g for g in kn.GEAR if not pk["gear"][g] and dwarf and g in dwarf["spares"]]
        for g in got:
            dwarf["spares"].remove(g)
            pk["gear"][g] = True
        back = (self.unhorsed or "horse" in got) and pk["gear"]["horse"] and pk["on_foot"]
        if back:
            pk["on_foot"] = False
            self.unhorsed = False
        if got:
            s.note(f"{dwarf.get('name', 'The Dwarf')} hands {pk['name']} his spare "
                   f"{joined(got)}.")
        if back:
            s.note(f"{pk['name']} gets back on his horse.")
        if got or back:
            self.me["method"] = None
        self.me.pop("shield_aside", None)   # laid aside for the last foe only (SHIELD_ASIDE)

    def dwarfs_steed(self) -> bool:
        """With no spare horse, the knight mounts his Dwarf's own steed (the Dwarf walks until
        a horse is found for him: the party's movement counts one horse fewer)."""
        pk = self.pk
        dwarf = pk["dwarf"]
        if not dwarf or dwarf.get("no_horse") or not self.place.horses:
            return False
        dwarf["no_horse"] = True
        pk["gear"]["horse"] = True
        pk["on_foot"] = False
        self.s.note(f"{pk['name']} mounts his Dwarf's steed.")
        return True

    _current = None

    def current_foe(self) -> dict:
        return self._current or self.foes[0]

    # -- combat events ---------------------------------------------------------------------
    def combat_event(self, opponent: dict) -> None:
        s, pk = self.s, self.pk
        self._current = opponent
        if opponent["kind"] == "pk" and opponent["knightly"]:
            # between two PKs, each rolls a die: the lower is 'the player knight' of this
            # event (ties roll again)
            while True:
                a = s.d6(f"combat event: {pk['name']}'s die")
                b = s.d6(f"combat event: {opponent['name']}'s die")
                if a != b:
                    break
            s.note(f"Combat event between two player knights: {pk['name']} {a}, "
                   f"{opponent['name']} {b}: it befalls "
                   f"{pk['name'] if a < b else opponent['name']}'s side as 'the player knight'.")
            if b < a:
                mirror = self.mirror(opponent)
                mirror.event(opponent=self.me)
                if mirror.result.broke_off:
                    self.result.broke_off = True
                if mirror.unchivalrous:
                    opponent["unchivalrous"] = True
                self.fight_stopped(opponent)
                return
        self.event(opponent)
        self.fight_stopped(opponent)

    def fight_stopped(self, opponent: dict) -> None:
        """After Combat Event 7 stopped the engagement with ``opponent`` (a fight, from rules
        edition 7: FIGHT_STOPPED_AS_CHALLENGE): what it paid is settled with the battle; every
        other knight or king still standing stops too on a VL check of his VL, else fights
        on, and then only this engagement is over."""
        s = self.s
        if not self.result.broke_off or self.is_challenge or self.tournament or \
                edition(s.game.state) < FIGHT_STOPPED_AS_CHALLENGE:
            return
        self.stopped = {"foe": opponent, "dealt": self.result.wounds_dealt - self._base[0],
                        "taken": self.result.wounds_taken - self._base[1]}
        on = []
        for f in self.foes:
            if f is opponent or left(f) <= 0 or f.get("gone") or not f["knightly"] or \
                    f["kind"] == "pk":
                continue
            if f.get("to_death"):
                on.append(f)        # a declared enemy fights on to the death, unasked
                s.note(f"{f['name']} fights on.")
            elif s.vl_check(f["vl"], "stops fighting too", who=f["name"]):
                f["gone"] = True
                s.note(f"{f['name']} stops fighting too.")
            else:
                on.append(f)
                s.note(f"{f['name']} fights on.")
        if on:
            opponent["gone"] = True
            self.result.broke_off = False

    def event(self, opponent: dict) -> None:
        """A combat event with this knight as 'the player knight'."""
        s, pk = self.s, self.pk
        result = s.chart("combat_events")
        key = result.entry.key
        mine = key in ("party_leaves", "shield_broken", "weapon_broken", "horse_killed",
                       "unhorsed")
        theirs = key in ("opponent_unhorsed", "opponent_horse_killed", "opponent_weapon_broken",
                         "opponent_shield_broken")
        if theirs and not opponent["knightly"] and key not in opponent.get("events", ()):
            s.note(f"{opponent['name']} ignores this event.")
        elif key == "party_leaves":
            self.party_leaves()
        elif key == "shield_broken" and magic_breaks(s, pk, "magic_shield", "absorbs"):
            pass        # a Magic Shield loses one wound of its power (Foreign War prizes)
        elif key == "shield_broken":
            pk["gear"]["shield"] = False
            s.note(f"{pk['name']}'s shield breaks: his foes add 2 to their rolls.")
            self.from_dwarf("shield")
        elif key == "weapon_broken" and self.me.get("method") == "lance" and \
                kn.has_item(pk, "unbreakable_lance"):
            s.note(f"{pk['name']}'s lance does not break.")
        elif key == "weapon_broken" and self.me.get("method") != "lance" and \
                magic_breaks(s, pk, "magic_sword", "bonus"):
            pass        # a Magic Sword loses one pip of its bonus
        elif key == "weapon_broken" and self.me.get("method") == "unarmed" and \
                edition(s.game.state) >= UNARMED_NOTHING_BREAKS:
            s.note(f"{pk['name']} fights unarmed: he has no weapon to break.")
        elif key == "weapon_broken":
            weapon = "lance" if self.me.get("method") == "lance" else "sword"
            if pk["gear"][weapon]:
                pk["gear"][weapon] = False
                s.note(f"{pk['name']}'s {weapon} breaks.")
                if not self.from_dwarf(weapon):
                    self.me["method"] = None
                    if opponent["knightly"]:
                        self.choose_method(opponent)
        elif key == "horse_killed":
            if kn.mounted(pk):
                charger = next((i for i in pk["items"] if i["key"] == "valiant_charger"), None)
                if charger:
                    charger["wounds"] = charger.get("wounds", 0) + 1
                    s.note("The Valiant Charger takes a wound instead of dying.")
                else:
                    pk["gear"]["horse"] = False
                    pk["on_foot"] = True
                    self.unhorsed = True
                    s.note(f"{pk['name']}'s horse is killed; he fights on foot.")
                    if not self.from_dwarf("horse"):
                        self.dwarfs_steed()
                self.me["method"] = None
                if opponent["knightly"]:
                    self.choose_method(opponent)
        elif key == "unhorsed":
            if kn.mounted(pk):
                if superior(s, self.me, opponent):
                    self.superior_keeps_saddle(self.me, opponent)
                else:
                    s.note(f"{pk['name']} is unhorsed.")
                    if not self.luck("remount"):
                        pk["on_foot"] = True
                        self.unhorsed = True
                        self.me["method"] = None
                        if opponent["knightly"]:
                            self.choose_method(opponent)
        elif key == "break_off":
            self.offer_break_off(opponent)
        elif key == "opponent_unhorsed":
            if is_mounted(opponent) and superior(s, opponent, self.me):
                self.superior_keeps_saddle(opponent, self.me)
            elif is_mounted(opponent):
                dismount(opponent)
                opponent["method"] = None
                s.note(f"{opponent['name']} is unhorsed and fights on foot.")
                self.choose_method(opponent)
        elif key == "opponent_horse_killed":
            if is_mounted(opponent):
                dismount(opponent)
                gear(opponent)["horse"] = False
                opponent["method"] = None
                s.note(f"{opponent['name']}'s horse is killed.")
                self.choose_method(opponent)
        elif key == "opponent_weapon_broken" and opponent.get("method") == "unarmed" and \
                edition(s.game.state) >= UNARMED_NOTHING_BREAKS:
            s.note(f"{opponent['name']} fights unarmed: he has no weapon to break.")
        elif key == "opponent_weapon_broken":
            weapon = "lance" if opponent.get("method") == "lance" else "sword"
            gear(opponent)[weapon] = False
            opponent["method"] = None
            s.note(f"{opponent['name']}'s {weapon} breaks.")
            self.choose_method(opponent)
        elif key == "opponent_shield_broken" and not opponent["knightly"]:
            opponent["shield"] = False
            s.note(f"{opponent['name']}'s shield breaks: {pk['name']} adds 2 to his rolls.")
        elif key == "opponent_shield_broken":
            had = has_shield(opponent)
            gear(opponent)["shield"] = False
            s.note(f"{opponent['name']}'s shield breaks: {pk['name']} adds 2 to his rolls.")
            if had:
                self.shield_aside(opponent)
        elif key == "reinforcement":
            card = s.game.draw("knights", "a knight arrives to help")
            card["joined"] = s.game.state["koc"]["turn"]
            card["reinforcement"] = True
            pk["comrades"].append(card)
            s.note(f"{card['name']} arrives and joins {pk['name']}'s party.")
        if mine and not opponent["knightly"] and not self.over() and \
                "never_avoid_encounters" not in pk["oaths"]:
            q = Question("flee", f"After this combat event, try to flee from {opponent['name']} "
                         "(a Luck Test; fleeing costs your Dwarf, Men-at-Arms and comrades)?",
                         ["yes", "no"], "no", tags=(*self.tags, opponent["kind"]),
                         values={"wl_left": left(self.me), "foe_left": left(opponent)})
            if s.ask(q) == "yes" and self.luck("flee"):
                self.flee()

    def superior_keeps_saddle(self, rider: dict, other: dict) -> None:
        """Superior Knights (optional rule): the superior ``rider`` is not unhorsed; the
        ``other`` breaks his lance instead, or, fighting without one, the rider takes a
        wound."""
        s = self.s
        if other.get("method") == "lance" and gear(other).get("lance"):
            s.note(f"{rider['name']} is too strong to be unhorsed: {other['name']}'s lance "
                   "breaks instead.")
            gear(other)["lance"] = False
            other["method"] = None
            if other is self.me:
                if not self.from_dwarf("lance") and rider["knightly"]:
                    self.choose_method(rider)
            else:
                self.choose_method(other)
        else:
            n = min(1, left(rider))
            add_wounds(rider, n)
            if rider is self.me:
                self.result.wounds_taken += n
            else:
                self.result.wounds_dealt += n
                struck(rider, s.player, n)
            s.note(f"{rider['name']} keeps his saddle at the cost of a wound.")

    def bout(self, a: dict, b: dict, *, passes: bool = False) -> None:
        """Two fighters other than the PK (a follower, an NPK leader) fight it out: passes,
        the higher roll wounds the other by the difference, no Combat Events, until one of
        them is down. ``passes``: note every pass."""
        while left(a) > 0 and left(b) > 0:
            ra, _ = self.roll(a, b)
            rb, _ = self.roll(b, a)
            if ra > rb:
                add_wounds(b, ra - rb)
            elif rb > ra:
                add_wounds(a, rb - ra)
            if passes:
                self.s.note(f"Pass: {a['name']} {ra}, {b['name']} {rb}; {a['name']} WL "
                            f"{left(a)}, {b['name']} WL {left(b)}.")

    def party_leaves(self) -> None:
        s, pk = self.s, self.pk
        gone = [m["name"] for m in pk["men_at_arms"]]
        pk["men_at_arms"] = []
        if pk["dwarf"] and not pk["dwarf"].get("arthurian"):
            gone.append("the Dwarf")
            pk["dwarf"] = None
        for comrade in list(pk["comrades"]):
            if not s.vl_check(comrade["vl"], "stays in the fight", who=comrade["name"]):
                pk["comrades"].remove(comrade)
                gone.append(comrade["name"])
        s.note(f"{pk['name']}'s party leaves him: " + (", ".join(gone) if gone else "nobody")
               + " deserts.")

    def offer_break_off(self, opponent: dict) -> None:
        s = self.s
        if not opponent["knightly"]:
            return
        q = Question("break_off", f"You may offer {opponent['name']} to stop the fight (he "
                     f"agrees on a VL check of his VL {opponent['vl']}).", ["yes", "no"], "no",
                     tags=self.tags, values={"wl_left": left(self.me),
                                             "foe_left": left(opponent)})
        if s.ask(q) == "yes" and s.vl_check(opponent["vl"], "agrees to stop",
                                            who=opponent["name"]):
            s.note(f"{opponent['name']} agrees: the fight stops.")
            self.result.broke_off = True

    def flee(self) -> None:
        s, pk = self.s, self.pk
        self.result.fled = True
        s.note(f"{pk['name']} flees.")
        lose_followers(s, why="fleeing",
                       keep_arthurian_dwarf=edition(s.game.state) >= FLEEING_DWARF_FOLLOWS)
        if pk["arthurian"]:
            s.gain_vp(-6, "an Arthurian knight fleeing")

    # -- mascots ---------------------------------------------------------------------------
    def send_mascot(self, opponent: dict) -> bool:
        s, pk = self.s, self.pk
        mascot = pk["mascot"]
        if not mascot or self.is_challenge or self.result.pk_defeated:
            return False
        q = Question("mascot", f"Send {mascot['name']} (WL {mascot['wl']}) to fight "
                     f"{opponent['name']}?", ["yes", "no"], "no",
                     tags=(*self.tags, opponent["kind"]))
        if s.ask(q) != "yes":
            return False
        if self.mascot_used and not self.luck("command the mascot again"):
            s.note(f"{mascot['name']} does not obey.")
            return False
        self.mascot_used = True
        beast = foe("mascot", mascot["name"], mascot["wl"], 2)
        beast["wounds"] = mascot.get("wounds", 0)
        s.note(f"{mascot['name']} attacks {opponent['name']}.")
        while left(beast) > 0 and left(opponent) > 0:
            rb, _ = self.roll(beast, opponent)
            ro, broke = self.roll(opponent, beast)
            if rb > ro:
                add_wounds(opponent, rb - ro)
                struck(opponent, s.player, rb - ro)      # the Mascot's blows are his master's
            elif ro > rb:
                add_wounds(beast, ro - rb)
            s.note(f"Pass: {beast['name']} {rb}, {opponent['name']} {ro}; "
                   f"{beast['name']} WL {left(beast)}, {opponent['name']} WL {left(opponent)}.")
            if broke:
                self.break_lance(opponent)
        if left(beast) <= 0:
            s.note(f"{mascot['name']} is killed.")
            pk["mascot"] = None
        else:
            mascot["wounds"] = beast["wounds"]
            s.note(f"{mascot['name']} defeats {opponent['name']}.")
        return True

    # -- yielding and defeat ---------------------------------------------------------------
    def wants_to_yield(self, opponent: dict) -> bool:
        s, pk = self.s, self.pk
        if "never_yield" in pk["oaths"] or self.is_challenge or opponent.get("to_death"):
            return False
        if pk["animal"] and edition(s.game.state) >= ANIMAL_FORM_FIGHTS:
            return False
        q = Question("yield", f"Yield to {opponent['name']} now (WL left {left(self.me)}, his "
                     f"{left(opponent)})? A yielding knight takes a Knight's Fate.",
                     ["yes", "no"], "no", tags=(*self.tags, opponent["kind"]),
                     values={"wl_left": left(self.me), "foe_left": left(opponent),
                             "foe_vl": opponent.get("vl") or 0})
        return s.ask(q) == "yes"

    def defeated_by(self, opponent: dict, yielded: bool = False) -> None:
        """The PK is down (or yields). Knightly victors give a Knight's Fate unless the PK will
        not yield (an NPK then slays him); creatures slay; brigands rob."""
        s, pk = self.s, self.pk
        self.result.pk_defeated = True
        self.victor = opponent
        if yielded:
            s.note(f"{pk['name']} yields to {opponent['name']}.")
        else:
            s.note(f"{pk['name']} is defeated by {opponent['name']}.")

    def party_fights_on(self, records: list[dict], remaining: list[dict],
                        defeated: list[dict]) -> bool:
        """Every PK is down: against creatures the followers fight on one by one (comrades
        first, then Men-at-Arms, then an Arthurian Dwarf or a Valiant Charger, aboard the
        ship's crew last); against knights the rest is NPK party combat. Foes they defeat are
        marked ``defeated_by = 'party'``. ``remaining`` and ``defeated`` are updated; returns
        whether the PKs' side won."""
        s, pk = self.s, self.pk
        helpers = [npk(c) for r in records for c in r["comrades"]]
        helpers += [npk(c) for r in records for c in r["men_at_arms"]]
        for r in records:
            if r["dwarf"] and r["dwarf"].get("arthurian"):
                helpers.append(foe("dwarf", "the Arthurian Dwarf", 1, 2, bonus=1))
        for r in records:
            charger = next((i for i in r["items"] if i["key"] == "valiant_charger"), None)
            if charger:
                helpers.append(foe("horse", "the Valiant Charger", charger.get("wl", 5), 2))
        if pk["at"]["where"] == "ship" and pk.get("ship") and not pk["ship"].get("pirate"):
            # aboard, the ship's crew fights once the PK and his party are down (a Knave's
            # pirate crew fights first instead: engine/villainy.py)
            helpers.append(foe("crew", f"the crew of the {pk['ship']['name']}",
                               pk["ship"]["wl"], 2))
        if self.alone or not helpers:
            return False
        if self.knightly:
            mine = sum(left(h) for h in helpers)
            theirs = sum(left(f) for f in remaining)
            if not party_combat(s, mine, theirs):
                return False
            for f in remaining:
                f["defeated_by"] = "party"
            defeated.extend(remaining)
            remaining.clear()
            return True
        for helper in helpers:
            while remaining and left(helper) > 0:
                enemy = remaining[0]
                self.bout(helper, enemy)
                s.note(f"{helper['name']} fights {enemy['name']}: "
                       + (f"{enemy['name']} falls." if left(enemy) <= 0 else
                          f"{helper['name']} falls."))
                if left(enemy) <= 0:
                    remaining.pop(0)
                    enemy["defeated_by"] = "party"
                    defeated.append(enemy)
        return not remaining


def party_combat(s: Session, mine: int, theirs: int) -> bool:
    """NPK party combat: each side's remaining WLs plus two dice; higher wins (ties: roll again)."""
    while True:
        a = mine + sum(s.dice(2, "NPK party combat: the PK's side"))
        b = theirs + sum(s.dice(2, "NPK party combat: the foes"))
        s.note(f"Party combat: the PK's side {a} against the foes' {b}.")
        if a != b:
            return a > b


# ------------------------------------------------------------------------------ after defeat
def lose_followers(s: Session, *, why: str, keep_arthurian_dwarf: bool = True) -> None:
    """Fleeing, going mad, or defeat: Dwarf, Men-at-Arms and comrades go (not a Mascot, nor an
    Arthurian Dwarf where the rules keep him)."""
    pk = s.pk
    gone = [m["name"] for m in pk["men_at_arms"]] + [c["name"] for c in pk["comrades"]]
    for m in pk["men_at_arms"]:
        s.game.discard("knights", m["name"])
    for c in pk["comrades"]:
        s.game.discard_card(c)
    pk["men_at_arms"] = []
    pk["comrades"] = []
    if pk["dwarf"] and not (keep_arthurian_dwarf and pk["dwarf"].get("arthurian")):
        gone.append("the Dwarf")
        pk["dwarf"] = None
    if gone:
        s.note(f"{pk['name']} loses his followers ({why}): {', '.join(gone)}.")


def after_defeat(s: Session) -> None:
    """End of the turn in which the PK was defeated: Dwarf and Men-at-Arms leave; comrades leave
    unless they pass a VL check of their VL + 6."""
    pk = s.pk
    from companion.koc.engine.turn import leave_or_appeal

    optional = s.options_rule("steadfast_companions") and pk.get("side_won")
    gone = []
    for m in list(pk["men_at_arms"]):
        if optional and s.luck_test(f"{m['name']} stays after the defeat"):
            continue
        pk["men_at_arms"].remove(m)
        s.game.discard("knights", m["name"])
        gone.append(m["name"])
    if pk["dwarf"] and not pk["dwarf"].get("arthurian"):
        if not (optional and s.luck_test("the Dwarf stays after the defeat")):
            pk["dwarf"] = None
            gone.append("the Dwarf")
    if gone:
        s.note(f"After his defeat {pk['name']} loses {', '.join(gone)}.")
    for comrade in list(pk["comrades"]):
        if not s.vl_check(comrade["vl"] + 6, f"{comrade['name']} stays after the defeat",
                          who=comrade["name"]):
            pk["comrades"].remove(comrade)
            s.game.discard_card(comrade)
            s.note(f"{comrade['name']} leaves after the defeat.")
    pk.pop("side_won", None)


# ------------------------------------------------------------------------------ outcomes
UNKNIGHTLY_SLAY = ("monster", "animal", "dwarf", "mad_knight", "sea_monster", "troll")


def fight(s: Session, foes: list[dict], *, attacker: str = "foe", tags: tuple[str, ...] = (),
          awards: bool = True, alone: bool = False, leader: dict | None = None,
          on_defeat: str | None = None, place: Place | None = None,
          steed: bool = False) -> Result:
    """A fight with hostile foes (or the PK attacking), then its outcome: awards, slaying,
    robbing, Knight's Fate. ``on_defeat`` overrides what happens to a defeated PK ('slay',
    'rob', 'fate', 'imprison', 'none'). ``steed``: an animal attacking the PK's horse first.
    A foe marked ``to_death`` (a declared enemy) neither yields nor lets the PK yield: the
    loser is slain; one marked ``no_cp`` (scornful knights) gives VP but no CP."""
    from companion.koc.engine import adventures, party

    if not alone:
        # Knight's Fate 7: the victor he rides with fights first in every encounter
        standing = adventures.victor_fights_first(s, foes)
        if not standing:
            return Result(won=True, defeated=list(foes))
        foes = standing
        from companion.koc.engine import villainy

        # KNAVES: a Knave's brigands (and aboard, his pirate crew) fight before him
        standing = villainy.fight_first(s, foes)
        if not standing:
            return Result(won=True, defeated=[f for f in foes if f not in standing])
        foes = standing
    fellows = [] if alone else party.with_me(s)
    combats = [Combat(s, foes, attacker=attacker, tags=tags, awards=awards, alone=alone,
                      leader=leader, place=place, steed=steed)]
    # the other player knights of his party fight too, each for himself (engine/party.py)
    combats += [Combat(x, foes, attacker=attacker, tags=tags, awards=awards, leader=leader,
                       place=place) for x in fellows]
    results = run_battle(combats)
    settle_battle(combats, on_defeat=on_defeat)
    if not alone and not s.pk["slain"]:
        adventures.after_road_fight(s, results[0].won)
    if not s.pk["slain"]:
        from companion.koc.engine import villainy

        villainy.after_fight(s, results[0])     # beaten, a Knave's brigands run
    return results[0]


def struck(f: dict, player: str, n: int) -> None:
    """Note that a player knight wounded a foe (the knights who share his defeat)."""
    if n > 0:
        by = f.setdefault("wounded_by", [])
        if player not in by:
            by.append(player)


def run_battle(combats: list[Combat]) -> list[Result]:
    """The knights of a party against the foes (one knight alone is a party of one). Each round
    every knight still standing engages a foe, the leader choosing first, then the others in
    seat order (a Luck Test picks the foe, else the order they came in); a foe struck down
    leaves the line, a knight defeated or fled leaves the fight, and those left pair off again.
    When every knight is out, their followers fight on (``Combat.party_fights_on``)."""
    lead = combats[0]
    s, foes = lead.s, lead.foes
    names = ", ".join(f"{f['name']} (WL {left(f)})" for f in foes)
    side = ", ".join(f"{c.pk['name']} (WL {left(c.me)})" for c in combats)
    s.note(f"Combat: {side if len(combats) == 1 else 'the party of ' + side} against {names}.")
    for c in combats:
        c.remount_in_wasteland()
    queue = list(foes)
    defeated: list[dict] = []

    def broke() -> bool:
        return any(c.result.broke_off for c in combats)

    first = True
    while queue and not broke():
        pairs: list[tuple[Combat, dict]] = []
        for c in combats:
            free = [f for f in queue if all(f is not o for _, o in pairs)]
            if c.over() or not free:
                continue
            pairs.append((c, c.pick(free, first)))
        first = False
        if not pairs:
            break
        for c, opponent in pairs:
            if c.over() or broke():
                continue
            if left(opponent) > 0 and not opponent.get("gone"):
                c.engage(opponent)
            if left(opponent) <= 0 or opponent.get("gone"):
                queue.remove(opponent)
                if left(opponent) <= 0:
                    opponent.setdefault("struck_down_by", c.s.player)
                    defeated.append(opponent)
        # foes who stopped fighting (Combat Event 7: FIGHT_STOPPED_AS_CHALLENGE) leave the line
        queue[:] = [f for f in queue if not f.get("gone")]
    remaining = [f for f in foes if f not in defeated and not f.get("gone")]
    all_fled = all(c.result.fled for c in combats)
    won = False
    if remaining and not broke() and any(c.result.pk_defeated for c in combats) and \
            all(c.over() for c in combats):
        won = lead.party_fights_on([c.pk for c in combats if not c.result.fled], remaining,
                                   defeated)
    elif not remaining and not all_fled and not broke():
        won = True
    for c in combats:
        c.result.won = won
        c.result.defeated = defeated
        c.result.remaining = remaining
        c.result.unchivalrous = c.unchivalrous
    return [c.result for c in combats]


def challenge(s: Session, opponent: dict, *, challenger: str = "pk",
              tags: tuple[str, ...] = ()) -> Result:
    """A challenge: three passes (not counting Combat Events) or until a lance breaks; the one
    who inflicted more wounds wins; a tie goes on with swords. Only a King's win gives a
    Knight's Fate. Fought once per game with each person."""
    pk = s.pk
    pk["challenged"].append(opponent["name"])
    rival = opponent["kind"] == "pk"
    if rival:
        opponent["pk"]["challenged"].append(pk["name"])
    combat = Combat(s, [opponent], attacker=challenger, tags=(*tags, "challenge"),
                    challenge=True)
    had = {x.player: [g for g in kn.GEAR if x.pk["gear"][g]]
           for x in ([s, combat.rival(opponent)] if rival else [s])}
    result = combat.run()
    later = edition(s.game.state) >= CHALLENGE_COUNTED
    while not (result.pk_defeated or left(opponent) <= 0 or result.broke_off) and \
            result.wounds_dealt == result.wounds_taken:
        if later and not combat.lance_broke:
            s.note("The challenge is even: it goes on.")
        else:
            s.note("The challenge is even: it goes on with swords.")
            combat.me["method"] = "sword" if pk["gear"]["sword"] else "unarmed"
            opponent["method"] = "sword" if gear(opponent).get("sword") else "unarmed"
        combat.exchange(combat.me, opponent)
        if left(combat.me) <= 0:
            combat.defeated_by(opponent)
    dealt, taken = result.wounds_dealt, result.wounds_taken
    if result.broke_off:
        result.challenge_winner = None
    elif dealt > taken or left(opponent) <= 0:
        result.challenge_winner = "pk"
    else:
        result.challenge_winner = "foe"
    s.note(f"Challenge: {pk['name']} inflicted {dealt} {plural(s, dealt, 'wound')} and took "
           f"{taken}: "
           + {"pk": f"{pk['name']} wins.", "foe": f"{opponent['name']} wins.",
              None: "it ends without a winner."}[result.challenge_winner])
    if result.challenge_winner == "pk":
        if not combat.unchivalrous:
            s.gain_cp(dealt, f"wounds inflicted in the challenge with {opponent['name']}")
            s.gain_vp(6, f"winning the challenge with {opponent['name']}")
        if rival:
            # the loser of a challenge between PKs: the lesson, and his followers go
            other = combat.rival(opponent)
            other.gain_cp(6, "the lesson of a lost challenge")
            lose_followers(other, why="losing a challenge")
    elif result.challenge_winner == "foe":
        s.gain_cp(6, "the lesson of a lost challenge")
        lose_followers(s, why="losing a challenge")
        if rival and not opponent.get("unchivalrous"):
            other = combat.rival(opponent)
            other.gain_cp(taken, f"wounds inflicted in the challenge with {pk['name']}")
            other.gain_vp(6, f"winning the challenge with {pk['name']}")
        if opponent["kind"] == "king":
            from companion.koc.engine.fate import suffer_fate

            suffer_fate(s, opponent)
    if left(pk_fighter(s)) <= 0 and result.challenge_winner == "pk":
        s.gain_cp(6, "felled in the challenge")
    if later and result.challenge_winner == "pk" and (left(pk_fighter(s)) <= 0 or (
            left(opponent) <= 0 and taken > dealt)):
        # one won on the count of wounds, the other by felling him: each has both awards
        if left(opponent) <= 0 and taken > dealt:
            s.note(f"{pk['name']} felled {opponent['name']} but lost on the count of wounds: "
                   "the awards of the winner and of the loser both.")
            s.gain_cp(6, "the lesson of a challenge lost on the count of wounds")
        if rival and not opponent.get("unchivalrous"):
            other = combat.rival(opponent)
            other.gain_cp(taken, f"wounds inflicted in the challenge with {pk['name']}")
            other.gain_vp(6, f"winning the challenge with {pk['name']}")
    if combat.unchivalrous and pk["arthurian"]:
        s.gain_vp(-6, "an Arthurian knight fighting unchivalrously")
    if edition(s.game.state) >= CHALLENGE_MENDED:
        for x in ([s, combat.rival(opponent)] if rival else [s]):
            mended_at_castle(x, had[x.player])
    from companion.koc.engine import grail

    grail.after_challenge(s, combat, opponent, result)
    return result


def mended_at_castle(s: Session, had: list[str]) -> None:
    """A challenge fought inside a castle friendly to the knight (CHALLENGE_MENDED): what he
    had when it began and lost in it (broken, his horse slain) is replaced once it is over."""
    pk = s.pk
    if pk["slain"] or pk["at"]["where"] != "inside":
        return
    from companion.koc.engine.encounters import friendly_castle
    from companion.koc.engine.resolutions import castle_here

    castle = castle_here(s)
    lost = [g for g in had if not pk["gear"][g]]
    if not lost or not castle or not friendly_castle(s, castle):
        return
    for g in lost:
        pk["gear"][g] = True
    if "horse" in lost:
        pk["on_foot"] = False
    s.note(f"{castle} replaces what {pk['name']} lost in the challenge: {joined(lost)}.")


def settle_battle(combats: list[Combat], *, on_defeat: str | None) -> None:
    """The outcome for every knight of the party: the foes' awards (shared by the knights who
    wounded each, ``Purse``), then each defeated knight's own fate, unless his side won."""
    by_player = {c.s.player: c for c in combats}
    from companion.koc.engine import grail

    grail.after_battle(combats)         # a Grail bearer defeated or unchivalrous loses it
    for c in combats:
        if c.unchivalrous and c.pk["arthurian"] and c.knightly:
            n = 1
            if edition(c.s.game.state) >= UNCHIVALROUS_EACH_FOE:
                n = max(1, len(c.unfair))
            c.s.gain_vp(-6 * n, "an Arthurian knight fighting unchivalrously"
                        + (f" ({n} foes)" if n > 1 else ""))
    from companion.koc.engine import knaves

    knaves.after_battle(combats)
    lead = combats[0]
    result = lead.result
    if any(c.stopped for c in combats):
        for c in combats:
            c.no_fate = True        # no Knight's Fate in a fight stopped (Combat Event 7)
            if c.stopped:
                stopped_awards(c)
    for f in result.defeated:
        killer = by_player.get(f.get("struck_down_by")) or lead
        takers = [by_player[p] for p in f.get("wounded_by", []) if p in by_player]
        takers = [killer] + [c for c in takers if c is not killer]
        if f.get("defeated_by") == "party":
            # the followers struck him down: only the knights who wounded him share; from
            # rules edition 4 a knight who fled (his followers gone with his flight) neither
            # stands for nor is credited with a foe nobody wounded (FLED_NOT_CREDITED)
            stood = [c for c in combats if not c.result.fled]
            if stood and edition(lead.s.game.state) >= FLED_NOT_CREDITED:
                killer = stood[0]
            takers = [by_player[p] for p in f.get("wounded_by", []) if p in by_player] or \
                [killer]
        purse = Purse([(c.s, c.awards and not c.unchivalrous) for c in takers])
        settle_foe(killer.s, killer, f, killer.awards and not killer.unchivalrous, purse)
    for c in combats:
        s, pk = c.s, c.pk
        if not c.result.pk_defeated or pk["slain"]:
            continue
        if not c.result.won:
            victor = getattr(c, "victor", None) or (c.result.remaining or c.foes)[0]
            left_standing = c.result.remaining
            if left_standing and not any(f is victor for f in left_standing) and \
                    edition(s.game.state) >= VICTOR_STANDS:
                victor = left_standing[0]   # his victor fell to his followers: one who stands
            pk_defeated(s, c, victor, on_defeat)
        else:
            pk["defeated"] = True
            pk["side_won"] = True
            s.note(f"{pk['name']} fell, but his side won the day: no Knight's Fate.")
            victor = getattr(c, "victor", None) or c.foes[0]
            if edition(s.game.state) >= LESSON_SIDE_WON and victor["kind"] in LESSON_FROM and \
                    not (victor["kind"] == "pk" and victor["pk"]["mad"]):
                s.gain_cp(6, "the lesson of defeat")


def stopped_awards(c: Combat) -> None:
    """An engagement stopped on Combat Event 7 pays as a challenge (FIGHT_STOPPED_AS_CHALLENGE):
    the one who inflicted more wounds in it gains CP for them and 6 VP (not if he fought
    without chivalry, or in a fight without awards), the other the 6 CP lesson; an even count
    pays nothing. A player knight foe is paid the same way. A fight without awards (one an
    adventure pays for) pays nothing here either."""
    s, stop = c.s, c.stopped
    foe_, dealt, taken = stop["foe"], stop["dealt"], stop["taken"]
    if not c.awards:
        return
    sides = [(s, dealt, taken, c.awards and not c.unchivalrous, foe_["name"])]
    if foe_["kind"] == "pk":
        sides.append((c.rival(foe_), taken, dealt, c.awards and not foe_.get("unchivalrous"),
                      c.pk["name"]))
    for x, mine, theirs, give, other in sides:
        if mine > theirs and give:
            x.gain_cp(mine, f"wounds inflicted on {other} before the fight stopped")
            x.gain_vp(6, f"the better of the fight with {other} when it stopped")
        elif theirs > mine:
            x.gain_cp(6, f"the lesson of the fight with {other}, stopped")
    if dealt == taken:
        s.note(f"The fight stopped even ({dealt} {plural(s, dealt, 'wound')} each): "
               "it pays nothing.")


class Purse:
    """Who gains a defeated foe's awards and penalties: the knight who struck him down, or
    every knight of the party who wounded him, in equal shares (the one who struck him down
    takes what does not divide evenly). A knight who fought without chivalry (or in a fight
    without awards) gets no share of an award; penalties fall on all."""

    def __init__(self, takers: list[tuple[Session, bool]]):
        self.takers = takers
        self.half = False       # the followers struck him down (FOLLOWERS_WIN_HALF)

    def _share(self, kind: str, amount: int, why: str, award: bool) -> None:
        takers = [(x, give) for x, give in self.takers if give or not award]
        if not takers or amount == 0:
            return
        if self.half and award and amount > 0:
            amount = math.ceil(amount / 2)
            why = f"{why}, struck down by the followers: half"
        sign = 1 if amount > 0 else -1
        each, rest = divmod(abs(amount), len(self.takers))
        shared = len(self.takers) > 1
        for n, (x, give) in enumerate(self.takers):
            if award and not give:
                continue
            part = sign * (each + (rest if n == 0 else 0))
            text = f"{why}, shared" if shared else why
            (x.gain_cp if kind == "cp" else x.gain_vp)(part, text)

    def cp(self, amount: int, why: str) -> None:
        self._share("cp", amount, why, award=True)

    def vp(self, amount: int, why: str) -> None:
        self._share("vp", amount, why, award=True)

    def cp_penalty(self, amount: int, why: str) -> None:
        self._share("cp", amount, why, award=False)

    def vp_penalty(self, amount: int, why: str) -> None:
        self._share("vp", amount, why, award=False)


def settle(s: Session, combat: Combat, result: Result, *, on_defeat: str | None) -> None:
    """The outcome of one knight's combat (a party of one)."""
    settle_battle([combat], on_defeat=on_defeat)


def settle_foe(s: Session, combat: Combat, f: dict, give: bool,
               purse: Purse | None = None) -> None:
    """What a defeated foe means: awards and penalties (to ``purse``: by default the PK of
    ``s`` alone, awards only if ``give``), and what becomes of the foe."""
    pk = s.pk
    purse = purse or Purse([(s, give)])
    kind = f["kind"]
    personal = f.get("defeated_by", "pk") == "pk"
    if f.get("kept"):
        return      # an adventure's captive: the adventure decides his fate (adventures.py)
    # beaten by the followers after every knight fell: half of every award (the purse halves)
    purse.half = not personal and edition(s.game.state) >= FOLLOWERS_WIN_HALF
    if kind in ("monster", "animal", "dwarf", "sea_monster", "troll"):
        amount = f["wl"] if personal or purse.half else math.ceil(f["wl"] / 2)
        s.note(f"{f['name']} is slain.")
        purse.cp(amount, f"slaying {f['name']}")
        if kind in ("monster", "sea_monster", "troll"):
            purse.vp(amount, f"slaying {f['name']}")
    elif kind in ("brigand", "highwayman", "watchman", "pirate", "crew"):
        s.note(f"{f['name']} is {'slain' if kind != 'watchman' else 'beaten'}.")
        purse.cp(f["wl"], f"defeating {f['name']}")
    elif kind == "mad_knight":
        purse.cp(math.ceil(f["wl"] / 2), f"defeating the Mad Knight {f['name']}")
        from companion.koc.engine.service import defeated_mad_knight

        defeated_mad_knight(s, f)
    elif kind == "hermit":
        if f.get("druid"):
            s.note(f"The Druid {f['name']} is slain.")
        else:
            s.note(f"The hermit is slain.")
            purse.vp_penalty(-12, "slaying a Goodly Hermit Man")
        from companion.koc.engine import knaves

        knaves.hermit_slain(s, f)       # an Act of Villainy, a dying curse
    elif kind == "lady":
        card = f.get("card", {})
        s.note(f"{f['name']} is slain.")
        # an Enchantress is a Lady: the 20 CP go as for any Lady; only the VP loss is hers,
        # 12 less her VL (docs/koc-engine.md, decisions where the rules are unclear)
        purse.cp_penalty(-20, f"slaying {f['name']}")
        if card.get("enchantress"):
            if card["vl"] < 12:
                purse.vp_penalty(-(12 - card["vl"]), f"slaying the Enchantress {f['name']}")
        else:
            purse.vp_penalty(-12, f"slaying {f['name']}")
        s.game.remove("ladies", f["name"])
        from companion.koc.engine.service import owner_slain

        owner_slain(s, f["name"], "lady")
    elif kind == "king":
        purse.cp(f["wl"], f"defeating King {f['name']}")
        purse.vp(6, f"defeating King {f['name']}")
        # KNAVES: Knave Combat: a King beaten unchivalrously by a Knave is no friend of his
        from companion.koc.engine import knaves

        if personal and knaves.take_captive(s, f["card"], "king"):
            return      # a Knave leads the King away to his prison
        friendly = not (combat.unchivalrous and kn.knave_rec(pk) is not None) and \
            s.vl_check(f["vl"], "is friendly after his defeat", who=f["name"])
        s.note(f"King {f['name']} cannot be slain and goes free; he is "
               f"{'friendly' if friendly else 'neutral'} towards {pk['name']}.")
        f["card"]["reaction"] = "friendly" if friendly else "neutral"
    elif kind in ("knight", "raider"):
        if kind == "knight":
            if not f.get("no_cp"):
                purse.cp(f["wl"], f"defeating {f['name']}")
            purse.vp(6, f"defeating {f['name']}")
        else:
            purse.cp(f["wl"], f"defeating {f['name']}")
        if f.get("to_death") and personal and enemy_spared(s, f):
            s.note(f"{pk['name']} spares the life of {f['name']}, as he swore: his enemy rides "
                   "off beaten.")
            s.game.discard("knights", f["name"])
        elif f.get("to_death"):
            s.note(f"{f['name']} dies by {pk['name']}'s hand, as sworn enemies fight.")
            s.game.remove("knights", f["name"])
            from companion.koc.engine.service import owner_slain

            owner_slain(s, f["name"], "knight")
        elif f.get("defeated_by") == "party":
            s.note(f"{f['name']} flees.")
            s.game.discard("knights", f["name"])
        elif kind == "knight" and combat.no_fate:
            s.note(f"{f['name']} rides off beaten: no Knight's Fate in a fight that was "
                   "stopped.")
            s.game.discard("knights", f["name"])
        elif kind == "knight":
            from companion.koc.engine.fate import give_fate

            give_fate(s, f)
    elif kind == "pk":
        # another player knight: CP for his WL and 6 VP, and the victor chooses his fate (never
        # death); beaten by the followers in party combat, he simply rides off
        loser = Session(s.game, f["player"], parent=s)
        loser.pk["defeated"] = True
        if f["pk"]["mad"]:
            purse.cp(math.ceil(kn.wl(f["pk"]) / 2), f"defeating the madman {f['name']}")
            s.note(f"{f['name']} is overcome and left to his mad wanderings.")
            return
        wl = kn.wl(f["pk"])     # his WL in the fight: before the lesson's CP can raise it
        loser.gain_cp(6, "the lesson of defeat")
        purse.cp(wl if edition(s.game.state) >= 1 else kn.wl(f["pk"]),
                 f"defeating {f['name']}")
        purse.vp(6, f"defeating {f['name']}")
        from companion.koc.engine import knaves

        knaves.knave_beaten(s, f["pk"], give)
        from companion.koc.engine import villainy

        villainy.beaten_by_pk(s, f["pk"])      # he surrenders his castles on demand
        if f.get("defeated_by") == "party":
            s.note(f"{f['name']} is beaten by {pk['name']}'s followers and rides off.")
        elif combat.no_fate:
            s.note(f"{f['name']} rides off beaten: no Knight's Fate in a fight that was "
                   "stopped.")
        else:
            from companion.koc.engine.fate import give_fate

            give_fate(s, f)


def pk_defeated(s: Session, combat: Combat, victor: dict, on_defeat: str | None) -> None:
    pk = s.pk
    pk["defeated"] = True
    kind = victor["kind"]
    if victor.get("to_death"):
        on_defeat = "slay"
    if pk["animal"] and edition(s.game.state) >= ANIMAL_FORM_FIGHTS:
        s.note(f"In the shape of a {pk['animal']}, {pk['name']} dies as a beast dies.")
        on_defeat = "slay"
    what = on_defeat or ("fate" if kind in ("knight", "king", "lady", "hermit", "pilgrim", "pk")
                         else "rob" if kind in ("brigand", "highwayman", "pirate", "watchman",
                                                "raider")
                         else "slay")
    if what == "slay":
        s.note(f"{victor['name']} slays {pk['name']}.")
        knight_slain(s)
        return
    if what == "rob":
        robbed(s, by=victor["name"])
        return
    if what == "imprison":
        from companion.koc.engine.resolutions import imprison

        imprison(s, by="castle", jailor=victor["name"])
        return
    if what == "none":
        return
    if kind == "pk" and victor["pk"]["mad"]:
        s.note(f"The madman {victor['name']} leaves {pk['name']} lying and runs off.")
        return
    s.gain_cp(6, "the lesson of defeat")
    if combat.no_fate:
        s.note(f"The fight was stopped before: {victor['name']} gives {pk['name']} no "
               "Knight's Fate.")
        return
    if kind == "pk":
        # beaten by another player knight: he must yield; the victor gains CP for his WL and
        # 6 VP (unless he fought without chivalry) and chooses his fate
        from companion.koc.engine.fate import give_fate_to_pk

        winner = combat.rival(victor)
        if combat.awards and not victor.get("unchivalrous"):
            winner.gain_cp(kn.wl(pk), f"defeating {pk['name']}")
            winner.gain_vp(6, f"defeating {pk['name']}")
        from companion.koc.engine import knaves

        knaves.rival_won(winner, pk, bool(victor.get("unchivalrous")),
                         combat.awards and not victor.get("unchivalrous"))
        from companion.koc.engine import villainy

        villainy.beaten_by_pk(winner, pk)      # he surrenders his castles on demand
        give_fate_to_pk(winner, pk_fighter(s))
        return
    if not combat.result.yielded and victor["kind"] != "pk":
        if "never_yield" in pk["oaths"]:
            q = Question("yield_oath", "You swore never to yield. Yield anyway (breaking the "
                         "oath costs 12 VP) or be slain?", ["yield", "die"], "yield")
            if s.ask(q) == "die":
                s.note(f"{pk['name']} will not yield; {victor['name']} slays him.")
                knight_slain(s)
                return
            from companion.koc.engine.resolutions import break_oath

            break_oath(s, "never_yield")
        q = Question("yield", f"Defeated by {victor['name']}: yield (and take a Knight's Fate) "
                     "or refuse (he slays you)?", ["yes", "no"], "yes",
                     tags=("defeated", victor["kind"]))
        if s.ask(q) == "no":
            s.note(f"{pk['name']} refuses to yield; {victor['name']} slays him.")
            knight_slain(s)
            return
    from companion.koc.engine.fate import suffer_fate

    leader = combat.leader or victor
    suffer_fate(s, leader, joiner=victor if victor is not leader else None)


def robbed(s: Session, *, by: str) -> None:
    pk = s.pk
    pk["gear"] = {g: False for g in kn.GEAR}
    if pk["dwarf"]:
        pk["dwarf"]["spares"] = []
    pk["on_foot"] = True
    # an item carried on an errand (adventures 7:3-6) is taken with the rest
    pk["party_extra"] = [e for e in pk["party_extra"] if e.get("kind") != "item"]
    if edition(s.game.state) >= ROBBER_AGREES:    # "the brigands rob", "Sir Bors robs"
        plural = by.lower().startswith("the ") and by.endswith("s")
    else:
        plural = by.endswith("s")
    s.note(f"{by} rob{'' if plural else 's'} {pk['name']} and his party of all "
           "their equipment.")


def knight_slain(s: Session) -> None:
    """The PK dies; his player starts a new knight at the start of his next turn."""
    pk = s.pk
    pk["slain"] = True
    s.note(f"{pk['name']} is slain. {s.player} will start a new knight.")
    from companion.koc.engine.setup import replace_slain

    replace_slain(s)


def duel(s: Session, a: dict, b: dict) -> dict:
    """Two creatures fight it out without the PK (a Mascot and a new animal, two Dwarves):
    passes until one is down; no Combat Events. Returns the winner."""
    while left(a) > 0 and left(b) > 0:
        ra = sum(s.dice(a["dice"], f"attack of {a['name']}")) + a.get("bonus", 0)
        rb = sum(s.dice(b["dice"], f"attack of {b['name']}")) + b.get("bonus", 0)
        if ra > rb:
            add_wounds(b, ra - rb)
        elif rb > ra:
            add_wounds(a, rb - ra)
        s.note(f"Pass: {a['name']} {ra}, {b['name']} {rb}; {a['name']} WL {left(a)}, "
               f"{b['name']} WL {left(b)}.")
    return a if left(a) > 0 else b
