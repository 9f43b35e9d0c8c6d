"""Tournaments: the joust, the lists, and every tournament of the game (see docs/koc-engine.md,
"Tournaments: records and decisions").

Rules sections: COMBAT (Tournaments, Breaking Lances, the Lady's Token modifier, challenges
between PKs who first meet at a tournament), ADVENTURES (Tournaments, Tournament at Camelot,
Special Tournament at Camelot, Player Knight Tournaments; adventures 5:5, 5:6 and 6:3),
MESSAGES 11, King Arthur's task 7, COMRADE & COMPANION RETENTION, and the optional rules Short
Tournaments, Signal Honour and the once-a-game tournaments.

Contract:

* ``joust`` and ``hold(s, ...)``: the lists (PKs and NPKs by CP, then VP; a full tie puts the
  PK below the NPK) and the chain of jousts from the bottom up. A joust has no combat events
  and no Knight's Fate, and ends in victory or defeat; lances are replaced by the host (1 CP
  for every lance a PK breaks); each joust's award is paid at once (the winner: the loser's WL
  in CP and 6 VP; a losing PK: 6 CP) and both are healed after it. A Lady's Token gives 6 VP
  once a tournament and +1 on every joust roll (``combat.Combat(tournament=True)``). With
  ``short_tournaments`` a joust is three counted passes (the most wounds wins, a tie goes on)
  and the winning PK's CP are the wounds he inflicted. Between two PKs a joust is their
  mutual challenge. Followers are kept whatever happens.
* ``adventure_tournament(s, task)``: adventures 5:5 and 6:3, when the knight reaches the site
  (adventures.py calls it); it pays and closes the task (``done`` / ``failed``), and for an
  adventure King Arthur set as a task or the price of a castle calls
  ``requests.arthur_task_done`` / ``service.grant_castle`` itself. Given a 5:6 task it only
  binds the knight to King Arthur's tournament (or marks him arrived).
* ``camelot_heard(s, task)``: adventure 5:6 was heard of (``resolutions.record_adventure``
  calls it): every PK is bound for Camelot Castle.
* ``arrived(s, task)``: a knight reached the site of a tournament he is bound for
  (``resolutions.task_done`` for ``on_done='tournament_wait'``).
* ``start_of_turn(s)`` (before the movement phase), ``after_movement(s)`` (after it, each
  knight of a joint turn), ``check_pending(s)`` (once, after the movement of a player turn),
  ``end_of_game_turn(game)`` (before Merlin moves): invitations, route rules, waiting VP, King
  Arthur's joust, and holding every tournament that is due.
* ``keeps_company(s)``: comrades check no retention at a tournament.
* ``summary(state)``: the tournaments under way, for the reports (public).

State: ``state["tournaments"] = {"next", "pending": [...], "camelot_heard", "jousted"}``; a
pending record is ``{id, kind ('camelot' | 'pk'), site, castle, host, first, heard, npks,
invited}``. The special tournament lives in ``state["special_tournament"]``
(resolutions.py). A knight bound for a tournament holds a task with ``tournament`` = the id
(kinds ``adventure`` (the hearer of 5:5), ``camelot_tournament``, ``pk_tournament``,
``special_tournament``) and ``on_done='tournament_wait'``; ``waiting`` once he is there.
``pk["office"]`` records a Signal Honour.
"""
from __future__ import annotations

import math

from companion.engine.game import edition
from companion.koc.engine import tasks
from companion.koc.engine.questions import Spec, register
from companion.koc.engine.session import Question, Session
from companion.koc.engine.words import plural

CAMELOT = "Camelot Castle"
CAMELOT_TOWN = "Camelot Town"
ARTHUR = "King Arthur"
JOUST_VP = 6
LESSON_CP = 6
TOKEN_VP = 6
MAX_PASSES = 400            # a safety net: a joust never runs for ever
JOUST_TENDED = 3
"""The rules edition from which a knight who comes to King Arthur's joust (task 7) with
wounds not yet healed (dealt in another player's turn: they heal in his own healing phase)
is tended before the first joust, as after each; before, he rode with them (at WL 0, beaten
without a pass, and given a Knight's Fate). Poisoned wounds stay."""
LISTS_TENDED = 3
"""The rules edition from which every other tournament tends, before its first joust, the
player knights whose player turn it is not (their wounds were dealt in another player's turn
and would have healed at its close; the lists heal their contestants after each joust). The
knight whose turn it is keeps his: they may be this turn's, which only the end of his turn
heals. Before, all rode with their wounds. Poisoned wounds stay."""
OTHER_TURNS_TENDED = 4
"""The rules edition from which the tending before a tournament's first joust goes by when a
wound was dealt: every player knight in the lists is tended of the wounds dealt outside his own
player turn, and keeps those of his own turn (only its close, or a joust, heals them). For the
knight whose player turn it is (a joint turn's leader and members alike) those are the wounds
he had when his turn began (``Session.carried``); for any other, all of them. Before (from
LISTS_TENDED), the knight of the root session kept every wound, those dealt before his turn
too, and everyone else was tended of all of his, a joint turn's members their own turn's too.
Poisoned wounds stay."""
OFFICES = {"ambassador": "Ambassador-at-Large", "lord_admiral": "Lord Admiral",
           "war_duke": "War Duke"}
SOLE_OFFICES = ("lord_admiral", "war_duke")     # one holder at a time, an Arthurian PK

register(
    Spec("tournament", "a player knight declared a tournament at his castle: attend it (the "
         "orders 'attend tournament' and 'decline tournament' answer this)", ("yes", "no"),
         "no", tags=("pk",)),
    Spec("tournament_host", "take part yourself in the tournament held at your castle",
         ("yes", "no"), "yes", tags=("pk",)),
    Spec("signal_honour", "accept the office King Arthur offers the winner of his tournament "
         "(it replaces the tournament's VP award)", ("yes", "no"), "yes",
         tags=tuple(OFFICES)),
)


# ============================================================================== records
def turn_no(s: Session) -> int:
    return s.game.state["koc"]["turn"]


def _t(state: dict) -> dict:
    return state.setdefault("tournaments", {"next": 1, "pending": [], "camelot_heard": 0,
                                            "jousted": {}})


def pending(state: dict) -> list[dict]:
    return state.get("tournaments", {}).get("pending", [])


def _record(state: dict, tid) -> dict | None:
    return next((r for r in pending(state) if r["id"] == tid), None)


def other(s: Session, player: str) -> Session:
    """The session of a knight taking part (his decisions: his orders, standing answers,
    defaults; never a pause unless it is his own player turn)."""
    if player == s.player:
        return s
    if s.root.player == player and not getattr(s.root, "outside", False):
        return s.root
    return Session(s.game, player, parent=s)


def decide(s: Session, player: str, q: Question) -> str:
    """A knight's answer: in his own player turn as any question (he may be waited for);
    otherwise from his orders for this game turn, his standing answers, else the default."""
    root = s.root
    active = player == root.player and not getattr(root, "outside", False)
    return root._answer(player, q, active=active)


def bound_tasks(rec: dict, tid) -> list[dict]:
    return [t for t in rec["tasks"] if t.get("tournament") == tid and t["status"] == "active"]


def special_tasks(rec: dict) -> list[dict]:
    return [t for t in rec["tasks"] if t["kind"] == "special_tournament"
            and t["status"] == "active"]


def barred(rec: dict, world) -> str | None:
    """Why a knight cannot ride in the lists now (None if he can)."""
    if rec["slain"]:
        return "slain"
    if rec["prison"] or rec["at"]["where"] == "prison":
        return "in prison"
    if rec.get("war"):
        return "away at a foreign war"
    if rec["at"]["area"] and world.areas[rec["at"]["area"]].otherworld:
        return "in Faerie"
    if rec["mad"]:
        return "mad"
    if rec.get("asleep"):
        return "in an enchanted sleep"
    if rec["animal"]:
        return "in animal form (barred from tournaments)"
    if rec.get("guard"):
        return "on guard duty"
    return None


def inside(rec: dict, site: str, castle: str | None) -> bool:
    at = rec["at"]
    if at["where"] != "inside" or at["area"] != site:
        return False
    return castle is None or at.get("castle") == castle


def note_all(s: Session, text: str) -> None:
    s.announce(text)


# ============================================================================== the joust
def npk_vp(card: dict) -> int:
    """An NPK's VP for the order of the lists: the least whole VP his card's CP and VL allow
    (Sir Galahad's VL 0 puts him above any knight of equal CP)."""
    vl = card.get("vl") or 0
    cp = card.get("cp") or 10
    return 10 ** 6 if vl <= 0 else math.ceil(cp / vl)


def entrant_pk(s: Session, player: str) -> dict:
    rec = s.game.state["knights"][player]
    order = s.game.state["koc"]["order"]
    return {"kind": "pk", "player": player, "name": rec["name"], "cp": rec["cp"],
            "vp": rec["vp"], "rank": order.index(player) if player in order else 99}


def entrant_npk(card: dict, n: int) -> dict:
    return {"kind": "knight", "card": card, "name": card["name"], "cp": card.get("cp") or 10,
            "vp": npk_vp(card), "rank": n}


def ranked(entrants: list[dict]) -> list[dict]:
    """Decreasing CP, then decreasing VP; a full tie puts a PK below an NPK; PKs still tied go
    in seat order, NPKs in the order drawn."""
    return sorted(entrants, key=lambda e: (-e["cp"], -e["vp"], e["kind"] == "pk", e["rank"]))


def draw_npks(s: Session, count: int, why: str, accept=None) -> list[dict]:
    return [s.game.draw("knights", why, accept=accept) for _ in range(count)]


def give_back(s: Session, cards: list[dict]) -> None:
    for card in cards:
        s.game.discard("knights", card["name"])


class Lists:
    """One tournament's lists at ``site``: the PKs (players) and NPKs (cards) who ride."""

    def __init__(self, s: Session, label: str, site: str, players: list[str],
                 cards: list[dict]):
        self.s = s
        self.label = label
        self.site = site
        self.players = list(players)
        self.cards = list(cards)
        self.short = s.options_rule("short_tournaments")
        self.jousts = 0

    # -- the whole tournament -----------------------------------------------------------------
    def prepare(self) -> None:
        """The host furnishes every PK with horse, lance and shield; Token bearers earn their
        6 VP; each is marked as at the tournament this turn. From rules edition 3 the PKs
        whose player turn it is not are tended first (LISTS_TENDED); from edition 4 every PK
        of the wounds dealt outside his own player turn (OTHER_TURNS_TENDED)."""
        state = self.s.game.state
        turn = turn_no(self.s)
        root = self.s.root
        now = None if getattr(root, "outside", False) else root.player
        tend = edition(state) >= LISTS_TENDED
        by_turn = edition(state) >= OTHER_TURNS_TENDED
        for p in self.players:
            x = other(self.s, p)
            rec = x.pk
            if by_turn:
                tend_other_turns(x)
            elif tend and p != now and rec["wounds"]:
                x.note(f"{rec['name']} is tended before the tournament: his wounds are healed.")
                rec["wounds"] = 0
            missing = [g for g in ("horse", "lance", "shield") if not rec["gear"][g]]
            for g in missing:
                rec["gear"][g] = True
            rec["on_foot"] = False
            if missing:
                x.note(f"The host furnishes {rec['name']} with a {' and a '.join(missing)} for "
                       "the lists.")
            _t(state)["jousted"][p] = turn
            if rec["token"]:
                x.gain_vp(TOKEN_VP, "wearing his Lady's Token in the tournament")

    def order(self) -> list[dict]:
        entrants = [entrant_pk(self.s, p) for p in self.players]
        entrants += [entrant_npk(c, n) for n, c in enumerate(self.cards)]
        lists = ranked(entrants)
        note_all(self.s, f"{self.label}: the lists, from the top: " + "; ".join(
            f"{n}. {e['name']} (CP {e['cp']}{', a player knight' if e['kind'] == 'pk' else ''})"
            for n, e in enumerate(lists, start=1)) + ".")
        return lists

    def run(self) -> dict:
        """The last knight jousts the one above him; the winner rides on up the lists. Returns
        the champion (an entrant)."""
        self.prepare()
        lists = self.order()
        champion = lists[-1]
        for upper in reversed(lists[:-1]):
            champion = self.joust(champion, upper)
        note_all(self.s, f"{self.label}: {champion['name']} is the champion of the tournament.")
        return champion

    def gauntlet(self, player: str) -> bool:
        """King Arthur's task 7: the PK jousts every NPK of the lists in turn, from the lowest
        placed up; True if he beats them all."""
        self.prepare()
        lists = self.order()
        me = next(e for e in lists if e.get("player") == player)
        for foe in reversed([e for e in lists if e is not me]):
            if self.joust(me, foe) is not me:
                return False
        return True

    # -- one joust --------------------------------------------------------------------------
    def session_for(self, a: dict, b: dict) -> Session:
        for e in (a, b):
            if e["kind"] == "pk":
                return other(self.s, e["player"])
        return other(self.s, self.players[0]) if self.players else self.s

    def joust(self, a: dict, b: dict) -> dict:
        """``a`` (placed lower) against ``b``: passes until one is beaten (or, Short
        Tournaments, three counted passes). Awards at once; both healed. Returns the winner."""
        from companion.koc.engine.combat import Combat, Place, left, methods_for, npk, pk_fighter

        self.jousts += 1
        s = self.session_for(a, b)
        place = Place(True, True, False, self.site)

        def fighter(e: dict, combat=None) -> dict:
            if e["kind"] != "pk":
                f = npk(e["card"])
                f["wounds"] = 0
                return f
            if combat is not None and e["player"] == s.player:
                return combat.me
            return pk_fighter(other(self.s, e["player"]))

        fb = fighter(b)
        combat = Combat(s, [fb], attacker="pk", tags=("tournament",), alone=True,
                        place=place, tournament=True)
        fa = fighter(a, combat)
        if fa is not combat.me and b["kind"] == "pk" and b["player"] == s.player:
            fb = combat.me
            combat.foes = [fa]
        for f in (fa, fb):
            f["method"] = methods_for(f, place)[0]
        note_all(self.s, f"{self.label}, joust {self.jousts}: {a['name']} (WL {left(fa)}) "
                 f"rides against {b['name']} (WL {left(fb)}).")
        dealt = {"a": 0, "b": 0}
        counted = passes = 0
        while left(fa) > 0 and left(fb) > 0 and passes < MAX_PASSES:
            before_a, before_b = left(fa), left(fb)
            combat.exchange(fa, fb)
            passes += 1
            da, db = before_b - left(fb), before_a - left(fa)
            dealt["a"] += da
            dealt["b"] += db
            if self.short and (da or db):
                counted += 1
                if counted >= 3 and dealt["a"] != dealt["b"]:
                    break
        if left(fa) <= 0:
            winner, loser = b, a
        elif left(fb) <= 0:
            winner, loser = a, b
        elif dealt["a"] != dealt["b"]:
            winner, loser = (a, b) if dealt["a"] > dealt["b"] else (b, a)
        else:
            winner, loser = (a, b) if left(fa) > left(fb) else (b, a)
        wf, lf = (fa, fb) if winner is a else (fb, fa)
        inflicted = dealt["a"] if winner is a else dealt["b"]
        how = (f"{dealt['a']} {plural(self.s, dealt['a'], 'wound')} to {dealt['b']}"
               if self.short
               else f"{loser['name']} is beaten")
        note_all(self.s, f"{self.label}, joust {self.jousts}: {winner['name']} wins ({how}).")
        self.award(winner, loser, lf, inflicted)
        for e in (a, b):
            if e["kind"] == "pk":
                x = other(self.s, e["player"])
                if x.pk["wounds"]:
                    x.note(f"{x.pk['name']} is tended after the joust: his wounds are healed.")
                x.pk["wounds"] = 0
                if e["player"] in x.root.carried:
                    x.root.carried[e["player"]] = 0
                x.pk["on_foot"] = False
        return winner

    def award(self, winner: dict, loser: dict, lf: dict, inflicted: int) -> None:
        """The usual award for beating a knight, paid at once: the loser's WL in CP (Short
        Tournaments: the wounds inflicted) and 6 VP; a beaten PK learns his lesson (6 CP).
        Between two PKs the joust is also their challenge of the game."""
        from companion.koc.engine.combat import wl_of

        loser_wl = wl_of(lf)
        if winner["kind"] == "pk":
            w = other(self.s, winner["player"])
            cp = inflicted if self.short else loser_wl
            w.gain_cp(cp, f"beating {loser['name']} in the joust")
            w.gain_vp(JOUST_VP, f"beating {loser['name']} in the joust")
        if loser["kind"] == "pk":
            other(self.s, loser["player"]).gain_cp(LESSON_CP, "the lesson of a lost joust")
        if winner["kind"] == "pk" and loser["kind"] == "pk":
            wrec = self.s.game.state["knights"][winner["player"]]
            lrec = self.s.game.state["knights"][loser["player"]]
            if lrec["name"] not in wrec["challenged"]:
                wrec["challenged"].append(lrec["name"])
            if wrec["name"] not in lrec["challenged"]:
                lrec["challenged"].append(wrec["name"])


def other_turns_wounds(x: Session) -> int:
    """How many of his knight's wounds were dealt outside his own player turn: those he had
    when it began (``Session.carried``) while it is under way (his Luck-of-the-Day cast, his
    healing phase not yet come), else all of them (OTHER_TURNS_TENDED)."""
    rec, root = x.pk, x.root
    if getattr(root, "outside", False) or rec["luck"] is None or x.player not in root.carried:
        return rec["wounds"]
    return min(root.carried[x.player], rec["wounds"])


def tend_other_turns(x: Session) -> None:
    """Before the first joust his knight is tended of the wounds dealt outside his own player
    turn; he keeps this turn's (OTHER_TURNS_TENDED). Poisoned wounds stay."""
    rec = x.pk
    n = other_turns_wounds(x)
    if n <= 0:
        return
    kept = rec["wounds"] - n
    rec["wounds"] = kept
    if x.player in x.root.carried:
        x.root.carried[x.player] = 0
    if not kept:
        x.note(f"{rec['name']} is tended before the tournament: his wounds are healed.")
        return
    x.note(f"{rec['name']} is tended before the tournament: {n} {plural(x, n, 'wound')} "
           f"dealt before his turn {plural(x, n, 'heals', 'heal')}; he keeps the {kept} of "
           "this turn.")


def hold(s: Session, label: str, site: str, players: list[str], cards: list[dict]) -> dict:
    """A whole tournament; returns the champion. The cards go back to the deck afterwards."""
    lists = Lists(s, label, site, players, cards)
    try:
        return lists.run()
    finally:
        give_back(s, cards)


def put_inside(x: Session, site: str, castle: str | None) -> None:
    """The host castle is friendly to every knight riding in its tournament: he is admitted."""
    from companion.koc.engine import party
    from companion.koc.engine.resolutions import temp_friendly

    rec = x.pk
    temp_friendly(x, castle or site)
    if inside(rec, site, castle):
        return
    before = rec["at"]
    rec["at"] = {"area": site, "where": "inside"}
    if castle:
        rec["at"]["castle"] = castle
    rec.pop("ship", None)             # come ashore at the castle's port
    party.follow(x, before)
    x.note(f"{rec['name']} is admitted to {castle or site} for the tournament.")


# ============================================================================== adventures
def sharers(s: Session, task: dict) -> list[str]:
    """Other PKs here who pursue the same adventure (a shared copy of the task)."""
    adv = task["adventure"]
    out = []
    for p in s.game.state["koc"]["order"]:
        rec = s.game.state["knights"][p]
        if p == s.player or rec["slain"] or rec["at"]["area"] != s.pk["at"]["area"]:
            continue
        for t in rec["tasks"]:
            a = t.get("adventure")
            if t["status"] in ("active", "at_site") and isinstance(a, dict) and \
                    a.get("key") == adv["key"] and (a.get("marker") == adv.get("marker")
                                                    or a.get("site") == adv.get("site")):
                out.append(p)
                break
    return out


def _adventure_task(rec: dict, adv: dict) -> dict | None:
    for t in rec["tasks"]:
        a = t.get("adventure")
        if t["status"] in ("active", "at_site") and isinstance(a, dict) and \
                a.get("key") == adv["key"] and (a.get("marker") == adv.get("marker")
                                                or a.get("site") == adv.get("site")):
            return t
    return None


def adventure_tournament(s: Session, task: dict) -> None:
    """Adventure 5:5 (a tournament for a Lady) or 6:3 (a royal tournament) at its royal castle:
    the knight (and any PK here sharing the adventure) against four drawn knights (for 6:3 not
    his Lord). The champion PK has the whole award, the King's friendship (his Lord: a request
    granted at once, once he meets him: a Luck Test) and for 5:5 the drawn Lady's offer of
    service; a beaten PK has half the VP. Pays and closes the task."""
    if task["status"] not in ("active", "at_site"):
        return
    adv = task["adventure"]
    key = adv["key"]
    if key == "tournament_at_camelot":
        # King Arthur's tournament is held when every knight is there (``check_pending``)
        if task.get("tournament") is None:
            camelot_heard(s, task)
        elif not task.get("waiting") and s.pk["at"]["area"] == CAMELOT:
            arrived(s, task)
        return
    values = adv.get("values", {})
    site = adv.get("site") or s.pk["at"]["area"]
    castle = adv.get("castle") if adv.get("castle") in s.game.state.get("castles", {}) else None
    players = [s.player, *sharers(s, task)]
    label = f"The tournament at {castle or site} (adventure {adv.get('id', '')})"
    fit, out = [], []
    for p in players:
        rec = s.game.state["knights"][p]
        (out if barred(rec, s.world) else fit).append(p)
    owned = {p: (task if p == s.player else _adventure_task(s.game.state["knights"][p], adv))
             for p in players}
    for p in out:
        x = other(s, p)
        x.note(f"{x.pk['name']} may not ride in the lists ({barred(x.pk, s.world)}): the "
               "adventure is lost.")
        if owned[p]:
            owned[p]["status"] = "failed"
            owned[p]["adventure"]["result"] = "nothing"
    if not fit:
        _lady_back(s, adv)
        return
    for p in fit:
        put_inside(other(s, p), site, castle)
    lord = s.pk["lord"]["name"] if s.pk["lord"] else None
    accept = (lambda c: c.name != lord) if key == "tournament" and lord else None
    count = values.get("count", 4) if isinstance(values.get("count"), int) else 4
    cards = draw_npks(s, count, f"the knights of {label}", accept=accept)
    champion = hold(s, label, site, fit, cards)
    vp = values.get("vp", 12) if isinstance(values.get("vp"), int) else 12
    cp = values.get("cp", 10) if isinstance(values.get("cp"), int) else 10
    pays = adv.get("awards", True)
    for p in fit:
        x = other(s, p)
        t = owned[p]
        won = champion.get("player") == p
        if won:
            if pays:
                x.gain_vp(vp, f"winning the tournament of adventure {adv.get('id', '')}")
                x.gain_cp(cp, f"winning the tournament of adventure {adv.get('id', '')}")
            king_rewards(x, site)
            if key == "tournament_for_lady" and adv.get("lady"):
                lady_offer(x, adv["lady"])
        elif pays and not adv.get("no_failure_award"):
            x.gain_vp(math.ceil(vp / 2), f"jousting in the tournament of adventure "
                      f"{adv.get('id', '')} (half the award)")
        if t is not None:
            t["status"] = "done" if won else "failed"
            if isinstance(t.get("adventure"), dict):
                t["adventure"]["result"] = "success" if won else "failure"
        arthur_kind = (t or {}).get("arthur_task") or adv.get("arthur_task")
        if arthur_kind and x.pk["arthur"].get("task"):
            from companion.koc.engine import requests

            requests.arthur_task_done(x, success=won)
        if won and (adv.get("grants_castle") or (t or {}).get("grants_castle")):
            from companion.koc.engine import service

            service.grant_castle(x)
        over(x.pk, castle or site)
    _lady_back(s, adv)


def _lady_back(s: Session, adv: dict) -> None:
    lady = adv.get("lady")
    if lady and not adv.get("lady_returned"):
        adv["lady_returned"] = True
        s.game.discard("ladies", lady["name"])


def king_rewards(x: Session, castle: str) -> None:
    """The host King's friendship; a King who is the knight's Lord grants him a request at
    once instead, once the knight is received by him (a Luck Test)."""
    from companion.koc.engine import resolutions as rs
    from companion.koc.engine.encounters import KING_REQUESTS, befriend

    king = rs.castle_owner(x, castle)
    if king.get("kind") not in ("king", "knight"):
        return
    pk = x.pk
    if pk["lord"] and pk["lord"]["name"] == king["name"]:
        if not x.luck_test(f"be received by {king['name']}, the host"):
            x.note(f"{king['name']} does not receive {pk['name']}: no request this time.")
            return
        options = [r for r in KING_REQUESTS if r not in ("service", "escort")
                   and not (r == "pardon" and king.get("kingdom") not in pk["exiles"])]
        options.append("none")
        q = Question("king_request", f"{king['name']}, your Lord, will grant you one request "
                     "for your victory: which?", options, "none", tags=("king",))
        choice = decide(x, x.player, q)
        if choice == "none":
            x.note(f"{pk['name']} asks nothing of {king['name']}.")
            return
        from companion.koc.engine.requests import REQUEST_KEYS, grant

        grant(x, king, REQUEST_KEYS.get(choice, choice.replace(" ", "_")), automatic=True)
        return
    rs.befriend(x, king)
    befriend(x, castle)


def lady_offer(x: Session, lady: dict) -> None:
    """The drawn Lady offers the champion her service (a knight who serves a Lady declines, as
    when any Lady offers it); his answer as any tournament question's."""
    from companion.koc.engine.encounters import offer_service

    offer_service(x, lady, ask=lambda q: decide(x, x.player, q))


# ============================================================================== Camelot (5:6)
def camelot_heard(s: Session, task: dict) -> None:
    """Adventure 5:6 is heard of: every PK hears of it at once and is bound for Camelot Castle
    (after the obligations he holds; then by the most direct route). With
    ``camelot_tournament_once`` a second one is not held."""
    state = s.game.state
    t = _t(state)
    pk = s.pk
    current = next((r for r in pending(state) if r["kind"] == "camelot"), None)
    if current is None and s.options_rule("camelot_tournament_once") and t["camelot_heard"]:
        task["status"] = "cancelled"
        s.note("King Arthur's tournament has been held once already: there is no other.")
        return
    if current is not None:
        if bound_tasks(pk, current["id"]):
            task["status"] = "cancelled"
            s.note(f"{pk['name']} is already bound for King Arthur's tournament.")
        else:
            _bind_camelot(s, task, current)
        return
    record = {"id": t["next"], "kind": "camelot", "site": CAMELOT, "castle": None,
              "host": ARTHUR, "first": s.player, "heard": turn_no(s), "npks": 3}
    t["next"] += 1
    t["camelot_heard"] += 1
    t["pending"].append(record)
    s.announce(f"King Arthur proclaims a tournament at Camelot Castle: every knight hears of "
               f"it ({pk['name']} first) and rides there once his present duties are done.")
    _bind_camelot(s, task, record)
    for player in state["koc"]["order"]:
        rec = state["knights"][player]
        if player == s.player or rec["slain"] or bound_tasks(rec, record["id"]):
            continue
        x = other(s, player)
        t2 = tasks.add(x, "camelot_tournament", CAMELOT, awards={}, route=None, grace=1,
                       why="King Arthur's tournament at Camelot", on_done="tournament_wait",
                       tournament=record["id"])
        _bind_camelot(x, t2, record)


def _bind_camelot(x: Session, task: dict, record: dict) -> None:
    from companion.koc.engine.resolutions import temp_friendly

    task["tournament"] = record["id"]
    task["on_done"] = "tournament_wait"
    task["dest"] = record["site"]
    task["grace"] = max(task.get("grace", 0), 1)
    temp_friendly(x, record["site"])
    route_rules(x)
    if x.pk["at"]["area"] == record["site"] and not barred(x.pk, x.world):
        arrived(x, task)


# ============================================================================== PK tournaments
def can_declare(state: dict, player: str) -> str | None:
    """Why the player knight cannot declare a tournament now (None if he can)."""
    rec = state["knights"][player]
    castle = rec.get("own_castle")
    placed = state.get("castles", {}).get(castle or "")
    if not castle or not placed:
        return "he holds no castle of his own"
    if not inside(rec, placed["area"], castle):
        return f"he must be inside {castle}"
    if any(r["kind"] == "pk" and r["host"] == player for r in pending(state)):
        return "his tournament is already proclaimed"
    return None


def declare(s: Session) -> bool:
    """A PK inside his own castle declares a tournament: every other PK is told at once and
    answers in his next player turn of a later game turn (question ``tournament``)."""
    state = s.game.state
    why = can_declare(state, s.player)
    if why:
        s.tell(f"{s.pk['name']} cannot declare a tournament: {why}.")
        return False
    t = _t(state)
    castle = s.pk["own_castle"]
    area = state["castles"][castle]["area"]
    invited = {p: None for p in state["koc"]["order"]
               if p != s.player and not state["knights"][p]["slain"]}
    record = {"id": t["next"], "kind": "pk", "site": area, "castle": castle, "host": s.player,
              "first": s.player, "heard": turn_no(s), "npks": 3, "invited": invited}
    t["next"] += 1
    t["pending"].append(record)
    s.announce(f"{s.pk['name']} declares a tournament at {castle} ({area}); every knight may "
               "attend ('attend tournament' or 'decline tournament' in the next orders).")
    return True


def answer_invitation(s: Session) -> None:
    """In his first player turn of a game turn after the declaration, an invited knight says
    whether he attends (question ``tournament``, default no)."""
    for record in pending(s.game.state):
        if record["kind"] != "pk" or s.player not in record.get("invited", {}):
            continue
        if record["invited"][s.player] is not None or turn_no(s) <= record["heard"]:
            continue
        host = s.game.state["knights"][record["host"]]["name"]
        q = Question("tournament", f"{host} holds a tournament at {record['castle']}: will you "
                     "attend?", ["yes", "no"], "no", tags=("pk",))
        answer = decide(s, s.player, q)
        record["invited"][s.player] = answer
        to = [s.player, record["host"]]
        if answer == "yes":
            s.game.ctx.event(f"{s.pk['name']} will attend {host}'s tournament at "
                             f"{record['castle']}.", to=to, kind="koc")
            task = tasks.add(s, "pk_tournament", record["site"], awards={}, route=None, grace=1,
                             why=f"{host}'s tournament at {record['castle']}",
                             on_done="tournament_wait", tournament=record["id"],
                             castle=record["castle"])
            from companion.koc.engine.resolutions import temp_friendly

            temp_friendly(s, record["castle"])
            if task["dest"] == s.pk["at"]["area"] and s.pk["at"].get("castle") == \
                    record["castle"]:
                arrived(s, task)
        else:
            s.game.ctx.event(f"{s.pk['name']} will not attend {host}'s tournament.", to=to,
                             kind="koc")


# ============================================================================== waiting
def route_rules(s: Session) -> None:
    """A knight bound for Camelot or for another knight's tournament rides there by the most
    direct route once it is his first obligation with a destination (one turn's grace);
    before that, the obligations he held come first."""
    first = tasks.current_destination(s)
    seen = False
    for task in tasks.active(s):
        if task.get("tournament") is None or task.get("waiting"):
            continue
        if task["kind"] == "special_tournament":
            continue
        if task["dest"] and task["dest"] == first and not seen:
            task["route"] = "direct"
            seen = True
        else:
            task["route"] = None


def arrived(s: Session, task: dict) -> None:
    """A knight reaches the site of a tournament he is bound for: the host admits him and he
    waits there (the tournament may begin at once, ``check_pending``)."""
    site, castle = task_site(s, task)
    task["status"] = "active"
    if barred(s.pk, s.world):
        task["dest"] = site
        return
    task["dest"] = None
    task["route"] = None
    task["waiting"] = True
    task["since_wait"] = turn_no(s)
    put_inside(s, site, castle)
    s.note(f"{s.pk['name']} waits at {castle or site} for the tournament.")


def task_site(s: Session, task: dict) -> tuple[str, str | None]:
    if task["kind"] == "special_tournament":
        return (s.game.state.get("special_tournament", {}).get("site") or CAMELOT), None
    record = _record(s.game.state, task.get("tournament"))
    if record is None:
        return CAMELOT, None
    return record["site"], record.get("castle")


def keeps_company(s: Session) -> bool:
    """At a tournament (this turn, or waiting inside its castle) comrades stay without a
    Luck Test."""
    if s.game.state.get("tournaments", {}).get("jousted", {}).get(s.player) == turn_no(s):
        return True
    return any(t.get("waiting") for t in tasks.active(s)
               if t.get("tournament") is not None or t["kind"] == "special_tournament")


def start_of_turn(s: Session) -> None:
    """Before the movement phase: invitations, route rules, the host castle friendly while a
    tournament he is bound for is to come, King Arthur's joust day."""
    from companion.koc.engine.resolutions import temp_friendly

    s.tourney_start = dict(s.pk["at"])
    if s.pk["slain"]:
        return
    answer_invitation(s)
    route_rules(s)
    for task in tasks.active(s):
        if task.get("tournament") is None and task["kind"] != "special_tournament":
            continue
        site, castle = task_site(s, task)
        temp_friendly(s, castle or site)
        visited = s.pk.get("temp_visited", [])
        if (castle or site) in visited:
            visited.remove(castle or site)      # it lasts until the tournament is over
    joust = s.pk["arthur"].get("joust")
    if joust and _arthur_due(s) and inside(s.pk, CAMELOT, None) and not any(
            h.get("arthur_joust") for h in s.pk["immobile"]):
        s.pk["immobile"].insert(0, {"why": "the day of the joust before King Arthur",
                                    "turns": 1, "arthur_joust": True})


def after_movement(s: Session, moved: list[str] | None = None) -> None:
    """After this knight's movement phase: King Arthur's joust, a declared tournament, and
    the VP of a turn spent waiting (not for a knight who went to Camelot Town)."""
    pk = s.pk
    if pk["slain"]:
        return
    if pk["arthur"].get("joust") and _arthur_due(s):
        arthur_joust(s)
    orders = s.game.orders.get(s.player)
    if orders is not None and any(step["do"] == "declare" for step in orders.plan):
        declare(s)
    start = getattr(s, "tourney_start", None)
    paid = town = False
    for task in tasks.active(s):
        bound = task.get("tournament") is not None or task["kind"] == "special_tournament"
        if bound and not task.get("waiting") and task["dest"] and \
                task["dest"] == pk["at"]["area"] and not barred(pk, s.world):
            arrived(s, task)       # a knight of a joint turn, or one carried there
            continue
        if not task.get("waiting"):
            continue
        site, castle = task_site(s, task)
        if not inside(pk, site, castle):
            task["waiting"] = False
            task["dest"] = site
            s.note(f"{pk['name']} has left {castle or site}: he must come back for the "
                   "tournament.")
            route_rules(s)
            continue
        camelot = task["kind"] == "special_tournament" or (
            _record(s.game.state, task.get("tournament")) or {}).get("kind") == "camelot"
        if not camelot or task.get("since_wait") == turn_no(s):
            continue
        if CAMELOT_TOWN in (moved or []):
            if not town:
                s.note(f"{pk['name']} went to Camelot Town: no VP for waiting this turn.")
            town = True
            continue
        if start is None or not inside({"at": start}, site, castle):
            continue
        if task.get("paid") == turn_no(s) or paid:
            continue
        task["paid"] = turn_no(s)
        paid = True          # one VP a turn, whatever he waits for there
        s.gain_vp(1, "a turn of waiting at Camelot Castle for the tournament")


# ============================================================================== holding
def check_pending(s: Session) -> None:
    """Hold every tournament whose knights are all there (or cannot come), in this player
    turn."""
    for record in list(pending(s.game.state)):
        state = ready(s, record)
        if state == "hold":
            hold_pending(s, record)
        elif state == "void":
            void(s, record)


def ready(s: Session, record: dict) -> str:
    """'hold', 'wait' or 'void' (nobody bound any more)."""
    state = s.game.state
    if record["kind"] == "pk":
        host = state["knights"].get(record["host"])
        if host is None or host["slain"] or host.get("own_castle") != record["castle"] or \
                record["castle"] not in state.get("castles", {}):
            return "void"
        if any(v is None for p, v in record.get("invited", {}).items()
               if not state["knights"][p]["slain"]):
            return "wait"
    bound, here, cannot = [], [], []
    for p in state["koc"]["order"]:
        rec = state["knights"][p]
        if not bound_tasks(rec, record["id"]):
            continue
        bound.append(p)
        if barred(rec, s.world):
            cannot.append(p)
        elif inside(rec, record["site"], record.get("castle")):
            here.append(p)
    if any(p not in here and p not in cannot for p in bound):
        return "wait"
    if record["kind"] == "pk":
        host = state["knights"][record["host"]]
        if here or (not barred(host, s.world) and inside(host, record["site"],
                                                          record["castle"])):
            return "hold"
        return "void" if not bound else "wait"
    if not bound:
        return "void"
    return "hold" if here else "wait"


def void(s: Session, record: dict) -> None:
    where = record.get("castle") or record["site"]
    if record in pending(s.game.state):
        pending(s.game.state).remove(record)
    s.announce(f"The tournament at {where} is not held: no knight is left to ride in it.")
    _close(s, record, [], [])


def _close(s: Session, record: dict, rode: list[str], champion_player: str | None) -> None:
    for p in s.game.state["koc"]["order"]:
        rec = s.game.state["knights"][p]
        for task in bound_tasks(rec, record["id"]):
            if p in rode:
                task["status"] = "done" if p == champion_player else "failed"
            else:
                task["status"] = "cancelled"
                other(s, p).note(f"The tournament at {record.get('castle') or record['site']} "
                                 f"is held without {rec['name']}.")
            task["waiting"] = False
    for p in rode:
        over(s.game.state["knights"][p], record.get("castle") or record["site"])


def over(rec: dict, castle: str) -> None:
    """The tournament is over: its castle stays friendly for this visit only."""
    if castle in rec.get("temp_friendly", []):
        visited = rec.setdefault("temp_visited", [])
        if castle not in visited:
            visited.append(castle)


def hold_pending(s: Session, record: dict) -> None:
    """The Tournament at Camelot (5:6) or a PK's tournament: everybody who is there rides, with
    three drawn NPKs; the knights who cannot come lose their place."""
    state = s.game.state
    pending(state).remove(record)
    players = []
    for p in state["koc"]["order"]:
        rec = state["knights"][p]
        if bound_tasks(rec, record["id"]) and not barred(rec, s.world) and \
                inside(rec, record["site"], record.get("castle")):
            players.append(p)
    if record["kind"] == "pk":
        host = state["knights"][record["host"]]
        if not barred(host, s.world) and inside(host, record["site"], record["castle"]):
            q = Question("tournament_host", f"Your tournament at {record['castle']} begins: "
                         "ride in it yourself?", ["yes", "no"], "yes", tags=("pk",))
            if decide(s, record["host"], q) == "yes":
                players.append(record["host"])
                players.sort(key=state["koc"]["order"].index)
    if not players:
        void(s, record)
        return
    where = record.get("castle") or record["site"]
    if record["kind"] == "camelot":
        label = "King Arthur's tournament at Camelot"
    else:
        label = f"{state['knights'][record['host']]['name']}'s tournament at {where}"
    s.announce(f"{label} begins: " + ", ".join(state["knights"][p]["name"] for p in players)
               + " ride" + ("s" if len(players) == 1 else "") + " in it.")
    cards = draw_npks(s, record.get("npks", 3), f"the knights of {label}")
    champion = hold(s, label, record["site"], players, cards)
    winner = champion.get("player")
    _close(s, record, players, winner)
    if record["kind"] == "camelot":
        for p in players:
            x = other(s, p)
            if p == winner:
                take_vp = True
                if s.options_rule("signal_honour"):
                    take_vp = not signal_honour(x)
                if take_vp:
                    x.gain_vp(12, "winning King Arthur's tournament")
                x.gain_cp(10, "winning King Arthur's tournament")
            else:
                x.gain_vp(6, "jousting in King Arthur's tournament (half the award)")
    elif winner:
        x = other(s, winner)
        x.gain_vp(12, f"the championship of {label}")
        x.gain_cp(10, f"the championship of {label}")
    first = record["first"]
    if len(players) > 1:
        s.announce(f"Play goes on in seat order: knights who have played this game turn do not "
                   f"play again (the tournament was first heard of by "
                   f"{state['knights'][first]['name'] if first in state['knights'] else first}).")


# ============================================================================== special (11)
def end_of_game_turn(game) -> None:
    """After the last player turn of a game turn: the special tournament on its day, and any
    other tournament that is now due."""
    state = game.state
    order = state["koc"]["order"]
    if not order:
        return
    st = state.get("special_tournament")
    due = st and not st.get("held") and st.get("turn") is not None and \
        state["koc"]["turn"] >= st["turn"]
    if not due and not pending(state):
        return
    s = Session(game, order[0])
    s.outside = True           # nobody's player turn: no question waits for an answer
    s.ask = lambda q: s._answer(s.player, q, active=False)
    if due:
        special(s, st)
    check_pending(s)


def special(s: Session, st: dict) -> None:
    """The Special Tournament at Camelot (Message 11), on its day, with every PK who waits
    inside Camelot Castle and five drawn NPKs; nobody there: it does not take place. The
    winner gains 12 VP and a roll on the prize chart."""
    state = s.game.state
    st["held"] = True
    site = st.get("site") or CAMELOT
    players, absent = [], []
    for p in state["koc"]["order"]:
        rec = state["knights"][p]
        if special_tasks(rec) and not barred(rec, s.world) and inside(rec, site, None):
            players.append(p)
        elif special_tasks(rec):
            absent.append(p)
    for p in absent:
        for task in special_tasks(state["knights"][p]):
            task["status"] = "cancelled"
    if not players:
        s.announce("The great tournament at Camelot does not take place: no knight came.")
        return
    x0 = other(s, players[0])
    label = "The great tournament at Camelot"
    s.announce(f"{label} begins: " + ", ".join(state["knights"][p]["name"] for p in players)
               + " ride" + ("s" if len(players) == 1 else "") + " in it.")
    cards = draw_npks(x0, st.get("npks", 5), f"the knights of {label}")
    champion = hold(x0, label, site, players, cards)
    for p in players:
        for task in special_tasks(state["knights"][p]):
            task["status"] = "done" if p == champion.get("player") else "failed"
            task["waiting"] = False
        over(state["knights"][p], site)
    if champion.get("player"):
        x = other(x0, champion["player"])
        x.gain_vp(12, "winning the great tournament at Camelot")
        special_prize(x)


def special_prize(x: Session) -> str | None:
    """One die on the special prize chart; a prize already owned is rolled again."""
    from companion.koc.engine.encounters import has_gift

    pk = x.pk
    for _ in range(20):
        result = x.chart("special_tournament_prizes", purpose="the special prize")
        key = result.entry.key
        if key in ("faithful_dwarf", "valiant_charger", "unbreakable_lance") and \
                has_gift(pk, key) and (key != "faithful_dwarf" or pk["dwarf"].get("faithful")):
            x.note(f"{pk['name']} already has that prize: roll again.")
            continue
        give_prize(x, key, result.entry)
        return key
    return None


def give_prize(x: Session, key: str, entry) -> None:
    pk = x.pk
    if key == "kings_honour":
        x.gain_cp(entry.get("cp", 20), "the King's Honour")
        pk["arthur"]["honour"] = entry.get("bonus", 2)
        x.note(f"{pk['name']} has the King's Honour: +2 once on a request of King Arthur.")
    elif key == "ladys_favour":
        lady = x.game.draw("ladies", "the Lady's Favour", accept=lambda c: not c.enchantress)
        x.note(f"{lady['name']} favours {pk['name']}.")
        try:
            lady_offer(x, lady)
        finally:
            x.game.discard("ladies", lady["name"])
    elif key == "faithful_dwarf":
        spares = pk["dwarf"]["spares"] if pk["dwarf"] else []
        pk["dwarf"] = {"arthurian": True, "spares": spares, "faithful": True}
        x.note(f"{pk['name']} gains a faithful Arthurian Dwarf.")
    elif key == "valiant_charger":
        wl = 3 + x.dice(1, "the Valiant Charger's wound level", sides=3)[0]
        pk["items"].append({"key": "valiant_charger", "wl": wl})
        pk["gear"]["horse"] = True
        pk["on_foot"] = False
        x.note(f"{pk['name']} is given a Valiant Charger (WL {wl}).")
    elif key == "unbreakable_lance":
        pk["items"].append({"key": "unbreakable_lance"})
        pk["gear"]["lance"] = True
        x.note(f"{pk['name']} is given a lance that will not break.")
    elif key == "free_passage":
        pk["items"].append({"key": "free_passage"})
        x.note(f"{pk['name']} is given a writ of Free Passage (it lifts one exile).")


# ============================================================================== Signal Honour
def office_holder(state: dict, key: str) -> str | None:
    for p, rec in state["knights"].items():
        if not rec["slain"] and (rec.get("office") or {}).get("key") == key:
            return p
    return None


def signal_honour(x: Session) -> bool:
    """Optional rule: the winner of King Arthur's tournament rolls for an office and may
    accept it (question ``signal_honour``); True if he took it (it replaces the VP award).
    Lord Admiral and War Duke go only to an Arthurian knight, and to one knight at a time."""
    pk = x.pk
    result = x.chart("signal_honour", purpose="the Signal Honour")
    key = result.entry.key
    if key not in OFFICES:
        x.note("King Arthur offers no office this time.")
        return False
    if key in SOLE_OFFICES:
        holder = office_holder(x.game.state, key)
        if not pk["arthurian"]:
            x.note(f"Only a knight of the Round Table may be {OFFICES[key]}: no office.")
            return False
        if holder is not None and holder != x.player:
            x.note(f"There is a {OFFICES[key]} already: no office.")
            return False
    q = Question("signal_honour", f"King Arthur offers you the office of {OFFICES[key]} (in "
                 "place of the 12 VP of the tournament). Accept?", ["yes", "no"], "yes",
                 tags=(key,))
    if decide(x, x.player, q) != "yes":
        x.note(f"{pk['name']} declines the office of {OFFICES[key]}.")
        return False
    pk["office"] = {"key": key, "label": OFFICES[key], "since": turn_no(x)}
    if key == "lord_admiral":
        pk["office"]["flagship"] = CAMELOT_TOWN
    x.announce(f"{pk['name']} is made {OFFICES[key]} by King Arthur.")
    return True


def office_bonus(rec: dict, what: str) -> int:
    """What an office adds to a reaction roll: the Ambassador-at-Large +3 on castle reactions
    and +2 on the reactions of Kings."""
    if (rec.get("office") or {}).get("key") != "ambassador":
        return 0
    return {"castle": 3, "king": 2}.get(what, 0)


def lose_office(x: Session, why: str) -> None:
    office = x.pk.get("office")
    if office:
        x.pk.pop("office", None)
        x.note(f"{x.pk['name']} loses the office of {office.get('label', office['key'])} "
               f"({why}).")


# ============================================================================== King Arthur 7
def _arthur_task(s: Session) -> dict | None:
    joust = s.pk["arthur"].get("joust") or {}
    return next((t for t in s.pk["tasks"] if t["id"] == joust.get("task_id")), None)


def _arthur_due(s: Session) -> bool:
    """The joust is held in his player turn after the one King Arthur set it in."""
    task = _arthur_task(s)
    return task is None or task.get("since", 0) < turn_no(s)


def arthur_joust(s: Session) -> bool:
    """King Arthur's task 7: the PK jousts three drawn Arthurian knights at Camelot Castle. All
    beaten: the task is done and the request granted; beaten once: King Arthur gives him a
    Knight's Fate. Away from Camelot (or unable to joust) when the day comes, the task fails."""
    from companion.koc.engine import requests
    from companion.koc.engine.fate import suffer_fate

    pk = s.pk
    joust = pk["arthur"].pop("joust", None) or {}
    task = _arthur_task(s) or next((t for t in pk["tasks"] if t["id"] == joust.get("task_id")),
                                   None)
    a_task = pk["arthur"].get("task") or {}
    request = joust.get("request") or a_task.get("request")
    why = barred(pk, s.world)
    if why or not inside(pk, CAMELOT, None):
        s.note(f"{pk['name']} is not at Camelot for King Arthur's joust"
               + (f" ({why})." if why else "."))
        if task:
            task["status"] = "failed"
        if pk["arthur"].get("task"):
            requests.arthur_task_done(s, success=False)
        return False
    if pk["wounds"] and edition(s.game.state) >= JOUST_TENDED:
        s.note(f"{pk['name']} is tended before the joust: his wounds are healed.")
        pk["wounds"] = 0
    cards = draw_npks(s, joust.get("knights", 3), "King Arthur's knights for the joust",
                      accept=lambda c: c.arthurian)
    label = "King Arthur's joust"
    try:
        won = Lists(s, label, CAMELOT, [s.player], cards).gauntlet(s.player)
    finally:
        give_back(s, cards)
    if task:
        task["status"] = "done" if won else "failed"
    if won:
        s.announce(f"{pk['name']} has beaten three of King Arthur's knights in the lists.")
        if pk["arthur"].get("task"):
            requests.arthur_task_done(s, success=True)
        owed = pk["arthur"].pop("owed", None) or request
        requests.arthur_grants(s, owed, why="the joust is won")
        return True
    s.announce(f"{pk['name']} is beaten in King Arthur's joust.")
    if pk["arthur"].get("task"):
        requests.arthur_task_done(s, success=False)
    from companion.koc.engine.combat import npk
    from companion.koc.engine.resolutions import king_card

    suffer_fate(s, npk(king_card(s, "Logres")))        # King Arthur, VL 1
    return False


# ============================================================================== reports
def summary(state: dict) -> list[str]:
    """Public lines on the tournaments under way."""
    out = []
    knights = state["knights"]
    for record in pending(state):
        where = record.get("castle") or record["site"]
        waiting = [knights[p]["name"] for p in state["koc"]["order"]
                   if any(t.get("waiting") for t in bound_tasks(knights[p], record["id"]))]
        if record["kind"] == "camelot":
            text = (f"King Arthur's tournament at Camelot (heard of on game turn "
                    f"{record['heard']}): it begins when every knight bound for it is there")
        else:
            host = knights[record["host"]]["name"] if record["host"] in knights else "?"
            text = (f"{host}'s tournament at {where} (declared on game turn {record['heard']}): "
                    "it begins when every knight who attends is there")
        out.append(text + (f"; waiting there: {', '.join(waiting)}." if waiting else "."))
    st = state.get("special_tournament")
    if st and not st.get("held") and st.get("turn") is not None:
        waiting = [knights[p]["name"] for p in state["koc"]["order"]
                   if any(t.get("waiting") for t in special_tasks(knights[p]))]
        out.append(f"The great tournament at Camelot is held at the end of game turn "
                   f"{st['turn']}" + (f"; waiting there: {', '.join(waiting)}." if waiting
                                      else "."))
    return out
