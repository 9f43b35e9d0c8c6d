"""The Knave variant, its core (KNAVES: How to win as a Knave, The Acts of Villainy, Lord and
Lady Service, Encounters with Arthurian Knights, Knave Combat, A Knave Repentant, Interaction
of Knights and Knaves). See docs/koc-engine.md, "Knaves: records and decisions".

Contract (other modules, notably ``villainy.py`` for castles, shrines, brigands and pirates,
call only these):

* ``is_knave(pk)``: plays as a Knave now (``victory.is_knave``).
* ``become(s, pk, why)``: the knight turns Knave (his ``knave`` record is created; an
  absolved ex-Knave starts again from nothing).
* ``commit_act(s, pk, act, why)``: one Act of Villainy of kind ``act`` (see ``ACTS``); KVP
  recomputed, the act made known, Arthur's service lost on the first act, a friendly
  Arthurian companion judges him, the +6 VP bonus for beating him re-armed, victory at 10 KVP.
* ``undo_act(s, pk, act, why)``: one act of that kind taken back (freeing his own prisoners).
* ``award_kvp(s, pk, n, why)``: a one-off bonus KVP (holding Camelot three turns).
* ``kvp_for(count)``: KVP earned from ``count`` repeats of one act.
* ``add_sp(s, pk, n, why)``: Scoundrel Points; ``wl_points(pk)``: CP + SP, at most 300.
* ``take_captive(s, card, kind, ask=True)``: a King, Knight or Lady he beat is led to one of his
  castles (``his_castles(pk)``); ``held_by_knave(state, name)``; ``release(s, prisoner,
  by_knave=...)``; ``distress(m, lady, escort, out)``; ``curse(s, key, by=...)``.

Hooks the other modules call (each does nothing for a knight who is no Knave):
``start_of_turn`` / ``end_of_turn`` (turn.py), ``after_battle``, ``knave_beaten``,
``rival_won``, ``hermit_slain`` (combat.py), ``fate_severity`` (fate.py),
``arthurian_reaction``, ``offer_distress`` (encounters.py), ``cannot_grant``,
``service_refused``, ``curse_request`` (requests.py), ``review``, ``ignored_summons``,
``entered_service`` (service.py), ``rescued``, ``prophecy_met``, ``curse_lifted``
(resolutions.py), ``repentance_over`` (adventures.py), ``read_record`` (position.py),
``order_problem``, ``legal_lines`` (checks.py), ``journal_lines`` (views.py). Knight.py counts
a Knave's SP in his WL and turns CP he loses into SP; session.py applies the Life of
Misfortune and the Mark of the Knave.

The ``knave`` record in a knight's journal::

    {"acts": {act: count}, "kvp": n, "sp": n, "bonus_kvp": n, "curses": [key, ...],
     "castles": [name, ...], "prisoners": [{"name", "kind", "castle", "act"}],
     "since": turn, "bounty": bool, "repent": None | {...}, "renounced_sp": n,
     "absolved": bool}

``bounty`` is whether a non-Knave PK who beats him now earns the +6 VP bonus (re-armed by each
new act). ``repent`` is the repentance under way (see ``repent_*``).
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from companion.koc.engine import knight as kn
from companion.koc.engine import victory
from companion.koc.engine.questions import Spec, register
from companion.koc.engine.victory import is_knave
from companion.koc.engine.words import knight_and_player, plural

if TYPE_CHECKING:
    from companion.koc.engine.session import Session

__all__ = ["is_knave", "become", "commit_act", "undo_act", "award_kvp", "kvp_for", "ACTS",
           "KVP_TO_WIN", "add_sp", "wl_points", "repeats_for"]

ACTS = {
    "distress_lady": "distressing a Lady",
    "imprison": "imprisoning a person",
    "loot_shrine": "looting a Shrine",
    "piracy": "piracy",
    "storm_castle": "seizing a castle by storm",
    "slay_good_knight": "slaying a good Knight",
    "slay_hermit": "slaying a Goodly Hermit Man",
}
KVP_TO_WIN = 10
BEAT_KNAVE_VP = 6
JUDGED_FOR_ACTS = 7
"""The rules edition from which a King or Lady asked for service judges a Knave (the VL test of
Lord and Lady Service) only once he has committed an Act of Villainy: scorn begins with his
first act, and a review judges only acts. Before, a Knave without any act was judged too."""
SP_MAX_POINTS = 300          # CP + SP counted for a Knave's WL


# ------------------------------------------------------------------------------ arithmetic
def kvp_for(count: int) -> int:
    """KVP earned by ``count`` repeats of one kind of act: the first gives 1, two more give the
    second, four more the third, ... (each point needs twice the repeats of the one before),
    so ``n`` points need ``2**n - 1`` repeats."""
    if count <= 0:
        return 0
    return (count + 1).bit_length() - 1


def repeats_for(kvp: int) -> int:
    """Repeats of one act needed for ``kvp`` points from it alone (the inverse of kvp_for)."""
    return 2 ** kvp - 1 if kvp > 0 else 0


def record(pk: dict) -> dict | None:
    """The knight's Knave record (None if he never was one)."""
    return pk.get("knave") or None


def new_record(turn: int = 0) -> dict:
    return {"acts": {}, "kvp": 0, "sp": 0, "bonus_kvp": 0, "curses": [], "castles": [],
            "prisoners": [], "since": turn, "bounty": False, "repent": None,
            "renounced_sp": 0, "absolved": False}


def total_kvp(rec: dict) -> int:
    return sum(kvp_for(n) for n in rec["acts"].values()) + rec.get("bonus_kvp", 0)


def wl_points(pk: dict) -> int:
    """CP, plus SP for a Knave, at most 300: the points his WL is counted from."""
    rec = pk.get("knave")
    if not rec or not is_knave(pk):
        return pk["cp"]
    return min(SP_MAX_POINTS, pk["cp"] + rec.get("sp", 0))


# ------------------------------------------------------------------------------ becoming
def _turn(s: "Session") -> int:
    return s.game.state["koc"]["turn"]


def _session_for(s: "Session", pk: dict) -> "Session":
    """A session speaking for ``pk`` (the turn's own when it is his)."""
    if pk is s.pk:
        return s
    from companion.koc.engine.session import Session

    return Session(s.game, pk["player"], parent=s)


def become(s: "Session", pk: dict, why: str) -> None:
    """``pk`` turns Knave (``why``: a clause such as 'chooses the path of villainy'). A Knave
    already is one (nothing happens); an absolved ex-Knave starts from scratch."""
    if is_knave(pk):
        return
    pk["knave"] = new_record(_turn(s))
    ks = _session_for(s, pk)
    ks.announce(f"{knight_and_player(s, pk['name'], pk['player'])} becomes a Knave ({why}).")


# ------------------------------------------------------------------------------ acts
def commit_act(s: "Session", pk: dict, act: str, why: str) -> None:
    """One Act of Villainy of kind ``act`` by the Knave ``pk`` (``why``: what he did, a clause
    such as 'slays Sir Lamorak')."""
    if act not in ACTS:
        raise ValueError(f"unknown Act of Villainy {act!r}")
    rec = pk.get("knave")
    if not rec or not is_knave(pk):
        return
    ks = _session_for(s, pk)
    before = total_kvp(rec)
    rec["done"] = _acts_done(rec) + 1         # every act ever committed (reviews)
    rec["acts"][act] = rec["acts"].get(act, 0) + 1
    rec["kvp"] = total_kvp(rec)
    rec["bounty"] = True
    ks.note(f"{pk['name']} commits an Act of Villainy: {ACTS[act]} ({why}).")
    if rec["kvp"] > before:
        ks.tell(f"{pk['name']} now has {_kvp_text(rec['kvp'])}.")
    else:
        ks.tell(f"{pk['name']} earns no further KVP for {ACTS[act]} yet "
                f"({rec['acts'][act]} so far; {rec['kvp']} KVP).")
    dismiss_from_arthur(ks)             # his first act (none may serve Arthur after)
    arthurian_judgement(ks)
    _check_victory(ks)


def undo_act(s: "Session", pk: dict, act: str, why: str) -> None:
    """One act of kind ``act`` is taken back (freeing his own prisoners erases the credit)."""
    rec = pk.get("knave")
    if not rec or not rec["acts"].get(act):
        return
    ks = _session_for(s, pk)
    rec["acts"][act] -= 1
    if not rec["acts"][act]:
        del rec["acts"][act]
    rec["kvp"] = total_kvp(rec)
    ks.note(f"{pk['name']} loses the credit for an Act of Villainy ({ACTS[act]}): {why}.")
    ks.tell(f"{pk['name']} now has {_kvp_text(rec['kvp'])}.")


def _kvp_text(n: int) -> str:
    return f"{n} Knave Victory Point{'' if n == 1 else 's'}"


def award_kvp(s: "Session", pk: dict, n: int, why: str) -> None:
    """``n`` bonus KVP for ``why`` (holding Camelot three complete turns)."""
    rec = pk.get("knave")
    if not rec or not is_knave(pk) or n == 0:
        return
    ks = _session_for(s, pk)
    rec["bonus_kvp"] = rec.get("bonus_kvp", 0) + n
    rec["kvp"] = total_kvp(rec)
    ks.tell(f"{pk['name']} earns {n} Knave Victory Point{'s' if n != 1 else ''} ({why}); "
            f"{rec['kvp']} KVP.")
    _check_victory(ks)


def _check_victory(ks: "Session") -> None:
    from companion.koc.scenarios import terms_of

    rec = ks.pk["knave"]
    if rec["kvp"] >= terms_of(ks.game.state).get("knave_kvp", KVP_TO_WIN):
        victory.declare(ks, victory.KNAVE, f"reaches {rec['kvp']} Knave Victory Points")


def dismiss_from_arthur(ks: "Session") -> None:
    """No Knave may serve King Arthur: his first act costs him that service."""
    pk = ks.pk
    if pk["lord"] and pk["lord"]["name"] == "King Arthur":
        from companion.koc.engine import service

        service.abandon_lord(ks, "no Knave may serve King Arthur", vp=0, summons_vp=0)
    pk["arthurian"] = False


def arthurian_judgement(ks: "Session") -> None:
    """Each friendly Arthurian Knight in his company (a comrade or a Man-at-Arms) tests his VL
    (one die); on a success he leaves."""
    pk = ks.pk
    for group in ("comrades", "men_at_arms"):
        for c in list(pk[group]):
            if not c.get("arthurian") or c.get("kind") not in ("knight", "king", None):
                continue
            vl = c.get("vl") or (c.get("card") or {}).get("vl", 0)
            if ks.vl_test(vl, "an Arthurian companion judges the Knave", who=c["name"]):
                pk[group].remove(c)
                ks.game.discard_card(c)
                ks.note(f"{c['name']} will not ride with a Knave and leaves {pk['name']}.")


# ------------------------------------------------------------------------------ SP
def add_sp(s: "Session", pk: dict, n: int, why: str) -> int:
    """Scoundrel Points for a Knave; returns those added."""
    rec = pk.get("knave")
    if not rec or not is_knave(pk) or n <= 0:
        return 0
    rec["sp"] += n
    ks = _session_for(s, pk)
    ks.tell(f"{pk['name']} earns {n} Scoundrel Points ({why}); SP {rec['sp']}, "
            f"WL {kn.wl(pk)}.")
    return n


# ------------------------------------------------------------------------------ combat hooks
def half_wl(f: dict) -> int:
    """Half a beaten knightly foe's WL, rounded up (the engine's halves round up)."""
    from companion.koc.engine.combat import wl_of

    return -(-wl_of(f) // 2)


def after_battle(combats: list) -> None:
    """combat.settle_battle: Scoundrel Points for each Knave of the party who fought without
    chivalry: half the WL of each knightly foe he struck down if his side won, 3 if he was
    beaten (KNAVES: Knave Combat)."""
    for c in combats:
        if not c.unchivalrous or kn.knave_rec(c.pk) is None:
            continue
        if c.result.pk_defeated and not c.result.won:
            add_sp(c.s, c.pk, 3, "beaten while fighting unchivalrously")
            continue
        if not c.result.won:
            continue
        for f in c.result.defeated:
            if f.get("knightly") and f.get("struck_down_by", c.s.player) == c.s.player and \
                    f.get("defeated_by", "pk") == "pk":
                add_sp(c.s, c.pk, half_wl(f), f"beating {f['name']} unchivalrously")


def knave_beaten(s: "Session", loser: dict, awarded: bool) -> None:
    """The PK of ``s`` has beaten the player knight ``loser`` (combat.settle_foe). A non-Knave
    victor gains 6 VP for a Knave with a new act since he was last so beaten (an award: not
    for an unchivalrous win); a Knave loser who fought unchivalrously gets 3 SP."""
    rec = kn.knave_rec(loser)
    if rec is None:
        return
    if awarded and not is_knave(s.pk) and rec.get("bounty"):
        rec["bounty"] = False
        s.gain_vp(BEAT_KNAVE_VP, f"vanquishing the Knave {loser['name']}")


def rival_won(winner_s: "Session", loser: dict, unchivalrous: bool, awarded: bool) -> None:
    """combat.pk_defeated: the player knight of ``winner_s`` beat ``loser``, who was fighting
    him: SP for a Knave winner who used an advantage, the bonus for beating a Knave."""
    winner = winner_s.pk
    if unchivalrous and is_knave(winner):
        add_sp(winner_s, winner, -(-kn.wl(loser) // 2),
               f"beating {loser['name']} unchivalrously")
    knave_beaten(winner_s, loser, awarded)


def fate_severity(pk: dict) -> int:
    """What the Doleful Retribution curse adds to a Knight's Fate he suffers."""
    rec = kn.knave_rec(pk)
    return 2 if rec and "doleful_retribution" in rec.get("curses", ()) else 0


def arthurian_reaction(s: "Session", people: list) -> int:
    """-1 to the reaction of a person or group with an Arthurian Knight meeting a Knave: a Knave
    anywhere in the party met (he leads it or rides in another knight's party)."""
    from companion.koc.engine import party

    knave = next((r for r in party.records(s) if is_knave(r)), None)
    if knave is None:
        return 0
    arthurian = [p for p in people if p and (p.get("arthurian") or p.get("name") == "King Arthur")
                 and p.get("kind", "knight") in ("knight", "king")]
    if not arthurian:
        return 0
    s.note(f"{arthurian[0]['name']} knows {knave['name']} for a Knave: reaction -1.")
    return -1


# ------------------------------------------------------------------------------ positions
CURSES = ("brittle_lance", "fateful_encounter", "prophecy_of_the_beast", "mark_of_the_knave",
          "life_of_misfortune", "doleful_retribution")
_INTS = ("kvp", "sp", "bonus_kvp", "since", "renounced_sp")
_LISTS = ("curses", "castles", "prisoners")


def read_record(src, where: str, value) -> dict | None:
    """A position's ``knave`` field: ``true`` (a new Knave), ``false`` (none) or a table of
    the record's fields (those left out take their defaults; fields other modules keep pass
    through). KVP are recomputed from the acts. Errors are located at ``where``.knave."""
    if value is False:
        return None
    if value is True:
        return new_record()
    if not isinstance(value, dict):
        src.error(f"{where}: knave must be true, false or a table", where, "knave")
        return None
    rec = {**new_record(), **value}
    acts = rec["acts"]
    if not isinstance(acts, dict):
        src.error(f"{where}: knave.acts must be a table of act = count", where, "knave")
        rec["acts"] = {}
    else:
        for act, n in list(acts.items()):
            if act not in ACTS:
                from companion.engine.datafiles import suggest

                src.error(f"{where}: knave.acts: unknown Act of Villainy '{act}'", where,
                          "knave", act, hint=suggest(act, list(ACTS)))
                del acts[act]
            elif not isinstance(n, int) or isinstance(n, bool) or n < 0:
                src.error(f"{where}: knave.acts.{act} must be a whole number, 0 or more",
                          where, "knave")
                del acts[act]
    for key in _INTS:
        if not isinstance(rec[key], int) or isinstance(rec[key], bool) or rec[key] < 0:
            src.error(f"{where}: knave.{key} must be a whole number, 0 or more", where, "knave")
            rec[key] = 0
    for key in _LISTS:
        if not isinstance(rec[key], list):
            src.error(f"{where}: knave.{key} must be a list", where, "knave")
            rec[key] = []
    for curse in list(rec["curses"]):
        if curse not in CURSES:
            from companion.engine.datafiles import suggest

            src.error(f"{where}: knave.curses: unknown curse '{curse}'", where, "knave",
                      str(curse), hint=suggest(str(curse), list(CURSES)))
            rec["curses"].remove(curse)
    for key in ("bounty", "absolved"):
        if not isinstance(rec[key], bool):
            src.error(f"{where}: knave.{key} must be true or false", where, "knave")
            rec[key] = False
    if rec["repent"] is not None and not isinstance(rec["repent"], dict):
        src.error(f"{where}: knave.repent must be a table", where, "knave")
        rec["repent"] = None
    rec["kvp"] = total_kvp(rec)
    return rec


# ------------------------------------------------------------------------------ questions
register(
    Spec("become_knave", "at the start of your turn: turn Knave (order 'turn knave')",
         ("yes", "no"), "no"),
    Spec("knave_repent", "as a Knave at a shrine: begin to repent (order 'repent'): meditate "
         "there a turn per KVP, renounce your SP, then a random adventure must succeed",
         ("yes", "no"), "no"),
    Spec("knave_backslide", "as a repenting Knave: give up repenting and take back your SP "
         "(order 'backslide')", ("yes", "no"), "no"),
    Spec("knave_free", "as a Knave: free the prisoners you hold (order 'free prisoners'; "
         "erases the credit for imprisoning them)", ("yes", "no"), "no"),
    Spec("distress", "as a Knave attacking a Lady: distress her (beat her companions, then "
         "her, bare-handed; 6 VP; an Act of Villainy) rather than fight to kill",
         ("yes", "no"), "yes", tags=("lady", "alone", "escorted", "enchantress")),
    Spec("take_prisoner", "as a Knave who beat a King, Knight or Lady: take the captive to "
         "one of your castles to imprison there (an Act of Villainy when you arrive)",
         ("yes", "no"), "yes", tags=("king", "knight", "lady")),
)


def _ordered(s: "Session", key: str, prompt: str) -> bool:
    """Whether this turn's orders give ``key`` the answer yes (asked only then, so that a
    turn without such an order never pauses for it)."""
    from companion.koc.engine.session import Question

    if s.root.replaying:
        # a resumed turn plays the part before the pause as it was played: it was asked there
        # exactly when the record holds it next (a new 'turn knave' sent with the answer comes
        # too late for this turn's start)
        if not s.recorded_next(s.player, key):
            return False
        return s.ask(Question(key, prompt, ["yes", "no"], "no")) == "yes"
    orders = s.game.orders.get(s.player)
    if orders is None:
        return False
    q = Question(key, prompt, ["yes", "no"], "no")
    if orders.answer(q) != "yes":
        return False
    return s.ask(q) == "yes"


# ------------------------------------------------------------------------------ each turn
def start_of_turn(s: "Session") -> None:
    """turn.single_turn / party turn, after the Luck-of-the-Day: the orders 'turn knave',
    'backslide', 'repent' and 'free prisoners'; repentance under way; captives arriving."""
    pk = s.pk
    if pk["slain"]:
        return
    if not is_knave(pk):
        if _ordered(s, "become_knave", "Turn Knave?"):
            become(s, pk, "by his own choice")
        return
    rec = pk["knave"]
    if rec.get("repent") and _ordered(s, "knave_backslide", "Give up repenting?"):
        backslide(s)
    if _ordered(s, "knave_free", "Free your prisoners?"):
        for p in [p for p in rec["prisoners"] if p.get("status") == "held"]:
            release(s, p, by_knave=True)
    if not rec.get("repent") and _ordered(s, "knave_repent", "Begin to repent?"):
        start_repenting(s)
    elif rec.get("repent"):
        repent_turn(s)
    captives_arrive(s)


def end_of_turn(s: "Session") -> None:
    """turn.healing_phase: captives reaching his castle; his Lord's or Lady's review when he
    is at their castle."""
    pk = s.pk
    if pk["slain"] or not is_knave(pk):
        return
    captives_arrive(s)
    for who in ("lord", "lady"):
        if pk[who] and _at_castle_of(s, who):
            review(s, who)


def _at_castle_of(s: "Session", who: str) -> bool:
    from companion.koc.engine import service

    castle = service.summoner_castle(s, who)
    at = s.pk["at"]
    return bool(castle) and at["where"] == "inside" and castle in (at.get("castle"), at["area"])


# ------------------------------------------------------------------------------ castles, captives
def his_castles(pk: dict) -> list[str]:
    """The castles a Knave may hold prisoners in: those he holds (villainy.py keeps
    ``castles``) and one his Lord granted him."""
    out = list((pk.get("knave") or {}).get("castles", []))
    if pk.get("own_castle") and pk["own_castle"] not in out:
        out.append(pk["own_castle"])
    return out


def take_captive(s: "Session", card: dict, kind: str, *, ask: bool = True) -> bool:
    """After he personally beat a King, Knight or Lady (``card``): he may lead the captive to
    one of his castles (question ``take_prisoner``). Returns True when the captive goes with
    him (the card stays out of its deck)."""
    from companion.koc.engine.session import Question

    pk = s.pk
    if not is_knave(pk) or not his_castles(pk):
        return False
    q = Question("take_prisoner", f"Take {card['name']} along as your prisoner, to be "
                 f"imprisoned in {' or '.join(his_castles(pk))}?", ["yes", "no"], "yes",
                 tags=(kind,))
    if ask and s.ask(q) != "yes":
        return False
    pk["knave"]["prisoners"].append({"name": card["name"], "kind": kind, "card": dict(card),
                                     "status": "led", "castle": None})
    withhold_card(s, card["name"], kind)
    pk["party_extra"].append({"kind": "captive", "name": card["name"], "rides": True,
                              "horse": True})
    s.note(f"{pk['name']} takes {card['name']} prisoner and leads {_obj(kind)} away.")
    captives_arrive(s)
    return True


def withhold_card(s: "Session", name: str, kind: str) -> None:
    """A prisoner's card is out of its deck while he or she is a Knave's prisoner (drawn for
    the meeting it is out already; a castle's lord taken in a storm is taken out here)."""
    deck = {"king": "kings", "lady": "ladies"}.get(kind, "knights")
    pile = s.game.state["decks"][deck]
    for where in ("draw", "discard"):
        if name in pile[where]:
            pile[where].remove(name)


def _obj(kind: str) -> str:
    return "her" if kind == "lady" else "him"


def captives_arrive(s: "Session") -> None:
    """Captives he leads enter prison once he is inside one of his castles: the act of
    imprisoning is then done (one act per prisoner)."""
    pk = s.pk
    rec = pk.get("knave")
    if not rec:
        return
    at = pk["at"]
    here = at.get("castle") or at["area"]
    if at["where"] != "inside" or here not in his_castles(pk):
        return
    for p in rec["prisoners"]:
        if p.get("status") != "led":
            continue
        p["status"], p["castle"] = "held", here
        pk["party_extra"] = [e for e in pk["party_extra"]
                             if not (e.get("kind") == "captive" and e["name"] == p["name"])]
        s.note(f"{p['name']} is thrown into the prison of {here}.")
        p["act"] = True
        commit_act(s, pk, "imprison", f"imprisons {p['name']} in {here}")
        _tell_servants(s, p)


def _tell_servants(s: "Session", p: dict) -> None:
    """Every other PK whose Lord or Lady he imprisoned gets Message 2 ("your Lady (Lord) is
    imprisoned"): a task to free the captive from the Knave's castle."""
    from companion.koc.engine import tasks
    from companion.koc.engine.session import Session

    for player, other in s.game.state["knights"].items():
        if player == s.player or other["slain"]:
            continue
        who = next((w for w in ("lady", "lord") if other[w] and other[w]["name"] == p["name"]),
                   None)
        if who is None:
            continue
        o = Session(s.game, player, parent=s)
        o.tell(f"Message: {o.pk['name']}'s {'Lady' if who == 'lady' else 'Lord'}, "
               f"{p['name']}, is imprisoned by the Knave {s.pk['name']} in {p['castle']}.")
        tasks.add(o, "rescue", tasks.castle_area(o, p["castle"]), awards={}, penalty_vp=0,
                  route=None, why=f"freeing {p['name']} from the Knave's prison",
                  on_done="rescue", castle=p["castle"], prisoner=dict(p["card"]),
                  knave=s.player, attempts=0)


def held_by_knave(state: dict, name: str) -> tuple[str, dict] | None:
    """(Knave player, prisoner entry) if ``name`` lies in a Knave's prison."""
    for player, pk in state["knights"].items():
        for p in (pk.get("knave") or {}).get("prisoners", []):
            if p["name"] == name and p.get("status") == "held":
                return player, p
    return None


def cannot_grant(s: "Session", name: str) -> str | None:
    """requests.grant: an imprisoned Lord or Lady grants nothing until freed."""
    held = held_by_knave(s.game.state, name)
    if held is None:
        return None
    return f"{name} lies in the prison of {held[1]['castle']} and can grant nothing."


def _return_card(s: "Session", p: dict) -> None:
    deck = {"king": "kings", "lady": "ladies"}.get(p["kind"], "knights")
    s.game.discard(deck, p["name"])


def release(s: "Session", p: dict, *, by_knave: bool) -> None:
    """The Knave ``s.pk`` lets a prisoner go (his own choice: the act's credit is erased), or
    loses him otherwise (``by_knave`` False: the credit stays)."""
    pk = s.pk
    rec = pk["knave"]
    if p in rec["prisoners"]:
        rec["prisoners"].remove(p)
    pk["party_extra"] = [e for e in pk["party_extra"]
                         if not (e.get("kind") == "captive" and e["name"] == p["name"])]
    s.note(f"{p['name']} is set free" + (f" by {pk['name']}." if by_knave else "."))
    if by_knave and p.get("act"):
        undo_act(s, pk, "imprison", f"he freed {p['name']}")
    _return_card(s, p)


def rescued(s: "Session", task: dict) -> None:
    """resolutions.freed: the PK of ``s`` freed a Knave's prisoner (Rescuing a Prisoner): 6 VP
    and the friendship of the one he rescued; the Knave keeps his credit."""
    from companion.koc.engine import resolutions
    from companion.koc.engine.session import Session

    name = task["prisoner"]["name"]
    held = held_by_knave(s.game.state, name)
    resolutions.befriend(s, task["prisoner"])
    s.gain_vp(6, f"freeing {name} from the Knave's prison")
    if held is None:
        return
    knave_s = Session(s.game, held[0], parent=s) if held[0] != s.player else s
    release(knave_s, held[1], by_knave=held[0] == s.player)


# ------------------------------------------------------------------------------ distressing a Lady
def offer_distress(m, lady: dict, escort: list, out) -> bool:
    """encounters.meet_lady: a Knave who attacks a Lady may mean to distress her (question
    ``distress``). True when the meeting was settled here."""
    from companion.koc.engine.session import Question

    s = m.s
    if not is_knave(s.pk):
        return False
    tags = ("lady", "escorted" if escort else "alone") + \
        (("enchantress",) if lady.get("enchantress") else ())
    q = Question("distress", "Distress the lady (beat her companions, then her, bare-handed; "
                 "6 VP) rather than fight to kill?", ["yes", "no"], "yes", tags=tags)
    if s.ask(q) != "yes":
        return False
    distress(m, lady, escort, out)
    return True


def distress(m, lady: dict, escort: list, out) -> bool:
    """KNAVES: Distressing a Lady. Her companions first; alone, she screams and (his Luck Test
    failed) a random Knight rides to defend her; then an Enchantress's spell; then she fights
    with one die, he bare-handed with one die. Returns True when she was distressed."""
    from companion.koc.engine.combat import npk

    s, pk = m.s, m.pk
    if escort:
        s.note(f"{pk['name']} falls upon the lady's companions: "
               + ", ".join(c["name"] for c in escort) + ".")
        result = m.fight([npk(c) for c in escort], attacker="pk", out=out)
        if not result.won or m.over():
            return False
    elif not s.luck_test("nobody hears the lady scream"):
        champion = m.knights(1, "a knight who hears the lady scream")
        s.note(f"{champion[0]['name']} hears her scream and rides to defend {lady['name']}.")
        result = m.fight([npk(c) for c in champion], attacker="foe", out=out)
        if not result.won or m.over():
            return False
    s.note(f"The lady is {lady['name']}.")
    if lady.get("enchantress"):
        from companion.koc.engine import resolutions

        s.note(f"{lady['name']}, an Enchantress, defends herself with a spell.")
        if not resolutions.enchant(s, lady, lady.get("seduction", 0)):
            return False
    if not bare_handed(s, lady):
        from companion.koc.engine.encounters import UNFRIENDLY

        s.note(f"{lady['name']} fends {pk['name']} off and escapes.")
        m.met("lady", lady, UNFRIENDLY, alone=True)
        return False
    s.gain_vp(-6, f"distressing {lady['name']}")
    commit_act(s, pk, "distress_lady", f"distresses {lady['name']}")
    if not take_captive(s, lady, "lady"):
        from companion.koc.engine.encounters import UNFRIENDLY

        s.note(f"{lady['name']} is left to go her way.")
        m.met("lady", lady, UNFRIENDLY, alone=True)
    return True


def bare_handed(s: "Session", lady: dict) -> bool:
    """A Lady (WL 1, one die) against the Knave bare-handed (one die): passes until one is
    down; the higher roll deals the difference in wounds; a tie is another pass (no Combat
    Events). True when the Knave wins."""
    pk = s.pk
    her_wl = 1
    while True:
        mine, hers = s.d6(f"{pk['name']} bare-handed"), s.d6(f"{lady['name']} resists")
        if mine > hers:
            her_wl -= mine - hers
        elif hers > mine:
            pk["wounds"] += hers - mine
        s.note(f"Pass: {pk['name']} {mine}, {lady['name']} {hers}; {pk['name']} WL "
               f"{kn.current_wl(pk)}, {lady['name']} WL {max(0, her_wl)}.")
        if her_wl <= 0:
            return True
        if kn.current_wl(pk) <= 0:
            return False


# ------------------------------------------------------------------------------ slaying a hermit
def hermit_slain(s: "Session", f: dict) -> None:
    """combat.settle_foe: a Knave slew a Goodly Hermit Man (an Act of Villainy) or a druid
    (no act); either may curse him as he dies, if the Knave fails a Luck Test."""
    pk = s.pk
    if not is_knave(pk):
        return
    if not f.get("druid"):
        commit_act(s, pk, "slay_hermit", f"slays {f['name']}")
    if s.luck_test(f"escape the dying curse of {f['name']}"):
        return
    result = s.chart("curse", purpose=f"the dying curse of {f['name']}")
    curse(s, result.entry.key, by=f["name"], count_die=None)


def curse(s: "Session", key: str, *, by: str, count_die: int | None = None) -> None:
    """The Knave is cursed with ``key``; the prophecies are recorded as tasks."""
    from companion.koc.engine import tasks

    pk = s.pk
    rec = pk["knave"]
    rec["curses"].append(key)
    label = s.world.charts["curse"].entry(key).label
    s.note(f"With his dying breath {by} curses {pk['name']}: {label}.")
    if key in ("fateful_encounter", "prophecy_of_the_beast"):
        area = tasks.deploy_castle_area(s, "where the prophecy waits")
        extra = {}
        if key == "fateful_encounter":
            extra["count"] = count_die or s.d6("how many knights the prophecy sends")
        tasks.add(s, "prophecy", area, awards={}, route=None, prophecy=True,
                  on_done="knave_prophecy", curse=key,
                  why=("a prophecy: knights will fall upon him" if key == "fateful_encounter"
                       else "a prophecy: he will meet a monster"), **extra)


def prophecy_met(s: "Session", task: dict) -> None:
    """resolutions.task_done: he reached the place of a cursed prophecy. The Fateful
    Encounter: 1-6 knights attack on sight and slay him if they beat him; the Beast: a
    monster attacks."""
    from companion.koc.engine.combat import fight, npk

    pk = s.pk
    if task["curse"] == "fateful_encounter":
        knights = [npk(s.game.draw("knights", "a knight of the fateful encounter"))
                   for _ in range(task.get("count", 1))]
        n = len(knights)
        s.note(f"The prophecy is fulfilled: {n} {plural(s, n, 'knight')} "
               f"{plural(s, n, 'falls', 'fall', old='fall')} upon {pk['name']}.")
        fight(s, knights, attacker="foe", tags=("knights",), on_defeat="slay")
    else:
        from companion.koc.engine.encounters import meet_monster

        s.note(f"The prophecy is fulfilled: a monster finds {pk['name']}.")
        meet_monster(s, avoidable=False, ask=False)
    task["fulfilled"] = True
    rec = kn.knave_rec(pk)
    if rec and task["curse"] in rec["curses"]:
        rec["curses"].remove(task["curse"])      # the prophecy met, the curse is spent


def curse_request(s: "Session", p: dict, request: str) -> bool:
    """requests.perform: a granted Lift Enchantment or Heal, asked by a cursed Knave of a
    Hermit, King, Lady or Knight, is the first step to lift his oldest curse: the second is a
    pilgrimage to Rome. True when the grant served for that."""
    from companion.koc.engine import tasks

    pk = s.pk
    rec = kn.knave_rec(pk)
    if rec is None or request not in ("heal", "lift_enchantment"):
        return False
    if p["role"] not in ("hermit", "king", "lady", "knight", "arthurian_knight", "arthur"):
        return False
    lasting = [c for c in rec["curses"] if c not in
               [t.get("curse") for t in pk["tasks"] if t.get("on_done") == "knave_lift"
                and t["status"] == "active"]]
    if not lasting or (request == "heal" and pk["poison"]) or \
            (request == "lift_enchantment" and pk["enchantments"]):
        return False
    key = lasting[0]
    s.note(f"{p['name']} grants the request: if {pk['name']} makes a pilgrimage to Rome, the "
           f"curse ({key.replace('_', ' ')}) will be lifted.")
    tasks.add(s, "pilgrimage", "Rome", awards={}, route=None, on_done="knave_lift", curse=key,
              why="a pilgrimage to Rome to lift a hermit's curse")
    return True


def curse_lifted(s: "Session", task: dict) -> None:
    """resolutions.task_done: the pilgrimage to Rome is done: the curse is lifted."""
    rec = kn.knave_rec(s.pk) or s.pk.get("knave") or {}
    if task["curse"] in rec.get("curses", []):
        rec["curses"].remove(task["curse"])
        s.note(f"In Rome the curse ({task['curse'].replace('_', ' ')}) is lifted from "
               f"{s.pk['name']}.")


# ------------------------------------------------------------------------------ Lord and Lady
def _acts_done(rec: dict) -> int:
    return rec.get("done", sum(rec["acts"].values()))


def review(s: "Session", who: str) -> bool:
    """KNAVES: Lord and Lady Service. At his Lord's or Lady's castle (a visit, or answering
    a summons) his deeds since the last review are judged: if he committed an act since and
    the Lord or Lady has a lower VL than his and passes a VL test, he is cast out (a Lord's
    castle stays friendly, a Lady's does not). True when he was cast out."""
    from companion.koc.engine import service

    pk = s.pk
    rec = kn.knave_rec(pk)
    master = pk[who]
    if rec is None or not master:
        return False
    reviewed = rec.setdefault("reviewed", {})
    done = _acts_done(rec)
    if done <= reviewed.get(who, rec.get("entered", {}).get(who, 0)):
        return False
    reviewed[who] = done
    vl = master.get("vl") or 0
    title = "Lord" if who == "lord" else "Lady"
    if not vl or vl >= kn.vl(pk):
        s.note(f"{master['name']} hears of {pk['name']}'s deeds and keeps him in service.")
        return False
    if not s.vl_test(vl, f"{master['name']} judges the Knave", who=master["name"]):
        s.note(f"{master['name']} overlooks {pk['name']}'s villainy.")
        return False
    s.note(f"{master['name']} spurns {pk['name']} and casts him out of service.")
    if who == "lord":
        castle = service.lord_castle(s)
        service.abandon_lord(s, f"cast out by his {title} for his villainy", vp=0, summons_vp=0)
        if castle and castle not in pk["friendly"]:
            pk["friendly"].append(castle)      # a Lord's castle stays friendly
    else:
        service.lose_lady(s, f"cast out by his {title} for his villainy")
    return True


def service_refused(s: "Session", p: dict, request: str) -> str | None:
    """requests.grant: a Knave asking a King, King Arthur or a Lady for service. No Knave may
    serve King Arthur; a King or Lady with a lower VL than his who passes a VL test will not
    hear him (the moral judgement of a review), once he has committed an act
    (JUDGED_FOR_ACTS). The reason when refused."""
    pk = s.pk
    if request != "service" or not is_knave(pk):
        return None
    if p["role"] == "arthur" or p.get("name") == "King Arthur":
        return "No Knave may serve King Arthur."
    if p["role"] not in ("king", "lady"):
        return None
    from companion.engine.game import edition

    if edition(s.game.state) >= JUDGED_FOR_ACTS and not _acts_done(pk["knave"]):
        return None                     # no act yet: nothing to judge
    vl = p.get("vl") or (p.get("card") or {}).get("vl") or 0
    if vl and vl < kn.vl(pk) and s.vl_test(vl, f"{p['name']} judges the Knave", who=p["name"]):
        return f"{p['name']} knows {pk['name']} for a Knave and will not take him into service."
    return None


def entered_service(pk: dict, who: str) -> None:
    """A Knave who enters service is judged later only for deeds done after."""
    rec = kn.knave_rec(pk)
    if rec is not None:
        rec.setdefault("reviewed", {})[who] = _acts_done(rec)


def ignored_summons(s: "Session") -> None:
    """service.summons: a second Summons from his Lord (he ignored the first) costs the 6 VP
    as usual; a Knave's Lord also takes back the castle he granted him."""
    pk = s.pk
    if not is_knave(pk) or not pk["lord"]:
        return
    own = pk.get("own_castle")
    placed = s.game.state.get("castles", {})
    if own and placed.get(own, {}).get("granted_by") == pk["lord"]["name"]:
        if own in pk["friendly"]:
            pk["friendly"].remove(own)
        placed.pop(own, None)
        pk["own_castle"] = None
        s.note(f"{pk['lord']['name']} revokes the castle he granted {pk['name']}.")


# ------------------------------------------------------------------------------ repentance
def start_repenting(s: "Session") -> bool:
    """The order 'repent', at a shrine: meditation begins (a turn there per KVP)."""
    pk = s.pk
    rec = pk["knave"]
    area = s.world.areas[pk["at"]["area"]]
    if not area.is_shrine:
        s.tell(f"{pk['name']} must be at a shrine to begin repenting.")
        return False
    rec["repent"] = {"stage": "meditate", "turns": 0, "need": rec["kvp"], "since": _turn(s)}
    s.note(f"{pk['name']} kneels at the shrine to repent his villainy "
           f"({rec['kvp']} {plural(s, rec['kvp'], 'turn')} of meditation).")
    repent_turn(s)
    return True


def repent_turn(s: "Session") -> None:
    """The start of each turn of a repenting Knave: meditation at a shrine (the turn is spent
    there), then the renouncing of his SP and the adventure he must accomplish."""
    pk = s.pk
    rec = pk["knave"]
    r = rec["repent"]
    at_shrine = s.world.areas[pk["at"]["area"]].is_shrine and pk["at"]["where"] != "prison"
    if r["stage"] == "meditate":
        if r["turns"] < r["need"]:
            if not at_shrine:
                s.tell(f"{pk['name']} is away from any shrine: no meditation this turn "
                       f"({r['turns']} of {r['need']} done).")
                return
            r["turns"] += 1
            pk["immobile"].insert(0, {"why": "meditating at the shrine", "turns": 1})
            s.note(f"{pk['name']} meditates at the shrine (turn {r['turns']} of {r['need']}).")
            return      # after the last one, he renounces at the start of the next turn
        renounce(s)
        repentance_adventure(s)
    elif r["stage"] == "again" and at_shrine:
        repentance_adventure(s)


def renounce(s: "Session") -> None:
    rec = s.pk["knave"]
    rec["renounced_sp"] = rec.get("renounced_sp", 0) + rec["sp"]
    rec["sp"] = 0
    s.note(f"{s.pk['name']} renounces his {rec['renounced_sp']} Scoundrel Points; WL "
           f"{kn.wl(s.pk)}.")


def repentance_adventure(s: "Session") -> None:
    """A random adventure (5:6 rolled again) that he must undertake and accomplish."""
    from companion.koc.engine import resolutions

    rec = s.pk["knave"]
    task = resolutions.adventure_news(s, {"kind": "shrine", "name": "the shrine"}, must=True,
                                      reroll=("tournament_at_camelot",))
    if task is None:
        return
    task["repentance"] = True
    rec["repent"]["stage"] = "adventure"
    rec["repent"]["task"] = task["id"]
    s.note(f"To be free of his knavery {s.pk['name']} must accomplish this adventure.")


def repentance_over(s: "Session", task: dict, outcome: str) -> None:
    """adventures.finish: the repentance adventure ended. Success ends his knavery (his SP are
    lost for good); otherwise he must seek a shrine and a new adventure."""
    pk = s.pk
    rec = kn.knave_rec(pk)
    if rec is None or not rec.get("repent") or rec["repent"].get("task") != task["id"]:
        return
    if outcome == "success":
        rec["absolved"] = True
        rec["repent"] = None
        rec["sp"] = rec["renounced_sp"] = 0
        rec["bounty"] = False
        s.announce(f"{knight_and_player(s, pk['name'], s.player)} has repented and is a Knave "
                   "no longer.")
        victory.settle(s.game.state)
        return
    rec["repent"]["stage"] = "again"
    s.note(f"{pk['name']}'s repentance is not yet accepted: he must go to a shrine for a new "
           "adventure.")


def backslide(s: "Session") -> None:
    """The order 'backslide': a repenting Knave takes back the SP he renounced."""
    rec = s.pk["knave"]
    back = rec.get("renounced_sp", 0)
    rec["sp"] += back
    rec["renounced_sp"] = 0
    rec["repent"] = None
    s.note(f"{s.pk['name']} turns from repentance back to villainy"
           + (f" and takes back {back} SP; WL {kn.wl(s.pk)}." if back else "."))


# ------------------------------------------------------------------------------ orders
KNAVE_ORDERS = {"become_knave": "turn knave", "knave_repent": "repent",
                "knave_backslide": "backslide", "knave_free": "free prisoners"}


def order_problem(world, state: dict, player: str, key: str) -> tuple[str, str | None] | None:
    """Why a Knave order cannot be carried out at the start of the next turn (message, hint),
    or None."""
    pk = state["knights"][player]
    rec = pk.get("knave") or {}
    knave = is_knave(pk)
    if key == "become_knave":
        from companion.koc.scenarios import terms_of

        if knave:
            return f"{pk['name']} is a Knave already", None
        if not terms_of(state).get("knaves", True):
            return "this game's scenario allows no Knaves", None
        return None
    if not knave:
        return f"{pk['name']} is no Knave", "send 'turn knave' first (a turn earlier)"
    if key == "knave_repent":
        if rec.get("repent"):
            return f"{pk['name']} is repenting already", None
        if not world.areas[pk["at"]["area"]].is_shrine:
            return (f"{pk['name']} must be at a shrine to begin repenting (he is at "
                    f"{pk['at']['area']})", "ride to a shrine first")
    if key == "knave_backslide" and not rec.get("repent"):
        return f"{pk['name']} is not repenting", None
    if key == "knave_free" and not any(p.get("status") == "held"
                                       for p in rec.get("prisoners", [])):
        return f"{pk['name']} holds no prisoners", None
    return None


def legal_lines(world, state: dict, player: str) -> list[str]:
    """The Knave order lines legal for the player now. 'turn knave' is listed only in a game
    that plays the variant (some knight is or was a Knave); it is accepted in any game."""
    variant = any(rec.get("knave") for rec in state["knights"].values())
    return [text for key, text in KNAVE_ORDERS.items()
            if (variant or key != "become_knave")
            and order_problem(world, state, player, key) is None]


def journal_lines(pk: dict) -> list[str]:
    """The Knave's own view of his record (empty for a knight who never was one)."""
    rec = pk.get("knave")
    if not rec:
        return []
    if rec.get("absolved"):
        return ["a Knave no longer (repented)"]
    acts = ", ".join(f"{ACTS[a]} x{n}" for a, n in rec["acts"].items() if n) or "none yet"
    out = [f"{rec['kvp']} KVP", f"{rec['sp']} SP", f"acts: {acts}"]
    if rec.get("bonus_kvp"):
        out.append(f"bonus KVP {rec['bonus_kvp']}")
    if rec["curses"]:
        out.append("cursed: " + ", ".join(c.replace("_", " ") for c in rec["curses"]))
    held = [f"{p['name']} ({p['castle']})" if p.get("status") == "held" else
            f"{p['name']} (led captive)" for p in rec["prisoners"]]
    if held:
        out.append("prisoners: " + ", ".join(held))
    r = rec.get("repent")
    if r:
        out.append({"meditate": f"repenting: meditation {r['turns']} of {r['need']} turns",
                    "adventure": "repenting: his adventure must succeed",
                    "again": "repenting: a shrine and a new adventure await"}[r["stage"]])
    if rec.get("renounced_sp"):
        out.append(f"{rec['renounced_sp']} SP renounced")
    return out
