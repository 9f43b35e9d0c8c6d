"""The Quest of the Holy Grail and the Campaign game (SCENARIOS: Quest of the Holy Grail,
Campaign Game). Records and decisions: docs/koc-engine.md, "Quest of the Holy Grail and
Campaign: records and decisions".

Only games whose goal is the Grail (``victory.goal(state) == 'grail'``) have one; every hook
here does nothing in the other scenarios.

What the state keeps:

* ``state["grail"]``: ``castle`` (the castle the Grail stands in, None while borne),
  ``bearer`` (the player whose knight carries it, or None), ``permission`` (Campaign: King
  Arthur has allowed the search; it holds for every Arthurian knight), ``seen_turn`` (the
  last game turn in which a knight saw it where it stands);
* a knight's ``quest``: ``carbonek`` (he has been to Carbonek since setting out),
  ``permission`` (the castle whose King allowed him to see the Grail there), ``seen`` (the
  castle where he has seen it); both castle keys lapse when the Grail moves;
* a knight's ``grail``: true while he bears it (combat adds 1 to his rolls for it, and
  enchantments leave him alone: combat.py, resolutions.py).

Hooks (small calls from the turn, the requests, combat and rivals modules):
``start_of_turn``, ``request``, ``after_requests``, ``after_battle``, ``after_challenge``,
``challenge_bearer``, ``prophecy_immune``, ``carbonek_friendly``, ``arthur_refusal``,
``arthur_permits``, ``destination``.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from companion.koc.engine import knight as kn
from companion.koc.engine.words import knight_and_player

if TYPE_CHECKING:
    from companion.koc.engine.session import Session

CARBONEK = "Carbonek"            # the castle and shrine of Listenoise where the Grail begins
CAMELOT = "Camelot Castle"
UNCOUNTED_VL = 6                 # a knight of this VL or worse does not make the Grail move


# ------------------------------------------------------------------------------ the record
def active(state: dict) -> bool:
    from companion.koc.engine import victory

    return victory.goal(state) == "grail"


def record(state: dict) -> dict:
    """The Grail's record (made on first use: the Grail at Carbonek, nobody bearing it)."""
    rec = state.setdefault("grail", {})
    rec.setdefault("castle", CARBONEK if not rec.get("bearer") else None)
    rec.setdefault("bearer", None)
    rec.setdefault("permission", False)
    rec.setdefault("seen_turn", 0)
    return rec


def peek(state: dict) -> dict:
    """The Grail's record as it stands, without writing one (reports and order checks)."""
    rec = {"castle": CARBONEK, "bearer": None, "permission": False, "seen_turn": 0}
    rec.update(state.get("grail") or {})
    if rec["bearer"]:
        rec["castle"] = None
    return rec


def quest(pk: dict) -> dict:
    return pk.setdefault("quest", {})


def bearer(state: dict) -> str | None:
    if not active(state):
        return None
    return peek(state)["bearer"]


def is_bearer(state: dict, player: str) -> bool:
    return bearer(state) == player


def search_allowed(state: dict) -> bool:
    """The Quest scenario sets out with the search allowed; the Campaign needs King Arthur's
    permission first (granted once, for every Arthurian knight)."""
    from companion.koc.scenarios import terms_of

    if terms_of(state).get("key", state["koc"]["scenario"]) == "grail":
        return True
    return bool(peek(state)["permission"])


def on_quest(state: dict, pk: dict) -> bool:
    """An Arthurian knight, alive and sane, in a game where the search is allowed."""
    return active(state) and bool(pk.get("arthurian")) and not pk["slain"] and \
        search_allowed(state)


def why_not_seek(s: "Session") -> str | None:
    """Why the knight may not seek the Grail now (None: he may)."""
    from companion.koc.engine.adventures import ident, prophecy_pending

    state, pk = s.game.state, s.pk
    if not active(state):
        return "There is no Quest of the Holy Grail in this game."
    if not pk.get("arthurian"):
        return "Only a Knight of the Round Table may seek the Holy Grail."
    if not search_allowed(state):
        return "King Arthur has not yet allowed the search for the Holy Grail."
    if record(state)["bearer"]:
        holder = state["knights"][record(state)["bearer"]]["name"]
        return f"The Grail is borne by {holder}: it is he who must be sought."
    task = prophecy_pending(pk)
    if task is not None:
        return (f"{pk['name']} must first fulfil his Prophecy ({ident(task)}) before he may "
                "seek the Holy Grail.")
    if pk["mad"]:
        return f"{pk['name']} is mad."
    return None


# ------------------------------------------------------------------------------ moving it
def random_royal_castle(s: "Session", purpose: str, away_from: str | None = None) -> str:
    """A royal castle drawn on the Random Kingdom chart (a castellany of Logres gives its own
    castle: Jagent for the first, never Camelot); ``away_from`` is drawn again."""
    for _ in range(50):
        result = s.chart("random_kingdom", purpose=purpose)
        castle = s.world.royal_castle(result.entry.get("kingdom"),
                                      result.entry.get("castellany")).name
        if castle != away_from:
            return castle
        s.note(f"The Grail stands in {castle} already: drawn again.")
    raise RuntimeError("no other royal castle drawn")


def relocate(s: "Session", why: str, away_from: str | None = None) -> str:
    """The Grail goes to a random royal castle; every knight's permission and sight lapse."""
    state = s.game.state
    rec = record(state)
    castle = random_royal_castle(s, "where the Holy Grail goes", away_from=away_from)
    rec["castle"] = castle
    rec["bearer"] = None
    rec["seen_turn"] = 0
    for other in state["knights"].values():
        q = other.get("quest")
        if q:
            q.pop("permission", None)
            q.pop("seen", None)
    s.announce(f"The Holy Grail vanishes ({why}) and now rests in {castle}.")
    return castle


def lose(s: "Session", why: str) -> None:
    """The bearer loses the Grail: it takes itself away to a random royal castle."""
    state = s.game.state
    if not s.pk.get("grail"):
        return
    s.pk.pop("grail", None)
    record(state)["bearer"] = None
    s.announce(f"{s.pk['name']} no longer bears the Holy Grail: {why}.")
    relocate(s, f"taken from {s.pk['name']}")


# ------------------------------------------------------------------------------ turn hooks
def start_of_turn(s: "Session") -> None:
    """The bearer's VL test at the start of his turn (after his Luck-of-the-Day)."""
    state, pk = s.game.state, s.pk
    if not active(state) or pk["slain"]:
        return
    mark_carbonek(s)
    if pk.get("grail") and not s.vl_test(kn.vl(pk), "keep the Holy Grail"):
        lose(s, "he failed his VL test at the start of his turn")


def mark_carbonek(s: "Session") -> None:
    pk = s.pk
    if pk["at"]["area"] == CARBONEK and pk["at"]["where"] == "inside" and \
            on_quest(s.game.state, pk) and not quest(pk).get("carbonek"):
        quest(pk)["carbonek"] = True
        rec = record(s.game.state)
        if rec["castle"] != CARBONEK and not rec["bearer"]:
            s.tell(f"At Carbonek {pk['name']} learns that the Grail now rests in "
                   f"{rec['castle']}.")


def carbonek_friendly(s: "Session", castle: str) -> bool:
    """Carbonek is always friendly to a knight on the Quest."""
    return castle == CARBONEK and on_quest(s.game.state, s.pk)


def prophecy_immune(s: "Session") -> bool:
    """The bearer receives no Prophecy."""
    if s.pk.get("grail") and active(s.game.state):
        s.note(f"Bearing the Holy Grail, {s.pk['name']} is untouched by the Prophecy.")
        return True
    return False


def destination(s: "Session") -> str | None:
    """Where a knight on the Quest heads without orders: the bearer home to Camelot; the
    others to the bearer, else Carbonek first, then the Grail's castle."""
    state, pk = s.game.state, s.pk
    if not on_quest(state, pk):
        return None
    rec = record(state)
    if pk.get("grail"):
        return CAMELOT
    if rec["bearer"]:
        return state["knights"][rec["bearer"]]["at"]["area"]
    if why_not_seek(s):
        return None
    if not quest(pk).get("carbonek") and rec["castle"] != CARBONEK:
        return CARBONEK
    return rec["castle"]


# ------------------------------------------------------------------------------ permission
def request(s: "Session", people: list[dict], item: dict, asked: set) -> bool:
    """'request grail': in the Campaign, before the search is allowed, King Arthur's permission
    to search (at Camelot, or of King Arthur met on the road); else the permission of the King
    (the owner) of the castle where the Grail rests to see it."""
    from companion.koc.engine import requests

    state, pk = s.game.state, s.pk
    if not active(state):
        s.tell("There is no Quest of the Holy Grail in this game.")
        return False
    arthur = next((p for p in people if p["role"] == "arthur"), None)
    if (pk["at"]["area"] == CAMELOT or arthur is not None) and not search_allowed(state):
        if arthur is None:
            s.tell("King Arthur is not here to be asked.")
            return False
        if arthur["name"] in asked:
            s.tell(f"Only one request of {arthur['name']} a turn.")
            return False
        asked.add(arthur["name"])
        return requests.grant(s, arthur, "grail")
    why = why_not_seek(s)
    if why:
        s.tell(why)
        return False
    rec = record(state)
    castle = rec["castle"]
    if pk["at"]["area"] != castle or pk["at"]["where"] != "inside":
        s.tell(f"The Holy Grail rests in {castle}: its King is asked from inside that castle.")
        return False
    if castle != CARBONEK and not quest(pk).get("carbonek"):
        s.tell(f"{pk['name']} must first go to Carbonek before he seeks the Grail elsewhere.")
        return False
    if quest(pk).get("permission") == castle:
        s.tell(f"{pk['name']} already has leave to see the Grail here.")
        return False
    owner = next((p for p in people if p.get("owner")), None)
    if owner is None:
        s.tell("Nobody here can give leave to see the Grail.")
        return False
    if owner["name"] in asked:
        s.tell(f"Only one request of {owner['name']} a turn.")
        return False
    asked.add(owner["name"])
    s.note(f"{pk['name']} asks {owner['name']} for leave to see the Holy Grail.")
    if owner.get("meet") and not requests.meet_owner(s, owner):
        return False
    bonus = requests.persistence(s, owner, "grail")
    if not s.luck_test(f"{owner['name']} grants the request", bonus=bonus):
        s.note(f"{owner['name']} does not grant the request.")
        return False
    quest(pk)["permission"] = castle
    s.note(f"{owner['name']} gives {pk['name']} leave to see the Holy Grail.")
    return True


def arthur_refusal(s: "Session") -> str | None:
    """Why King Arthur is not asked for the search (None: the chart decides)."""
    state, pk = s.game.state, s.pk
    if not active(state):
        return "There is no Quest of the Holy Grail in this game."
    if not pk.get("arthurian"):
        return "Only a Knight of the Round Table may ask leave to seek the Holy Grail."
    if search_allowed(state):
        return "The search for the Holy Grail is allowed already."
    return None


def arthur_permits(s: "Session") -> bool:
    """King Arthur grants the search (no VL test): for every Arthurian knight."""
    record(s.game.state)["permission"] = True
    s.announce(f"King Arthur allows {s.pk['name']} to seek the Holy Grail: every Knight of the "
               "Round Table may now seek it.")
    return True


# ------------------------------------------------------------------------------ seeing it
def after_requests(sessions: list["Session"]) -> None:
    """End of the prayers & requests phase of a knight (or of every knight of a party): the
    bearer at Camelot wins; knights with leave inside the Grail's castle try to see it
    (VL+1) and then to grasp it (VL+1); if every counted attempt of this game turn failed,
    it moves to another royal castle."""
    if not sessions or not active(sessions[0].game.state):
        return
    state = sessions[0].game.state
    rec = record(state)
    turn = state["koc"]["turn"]
    failed: list[str] = []
    castle = rec["castle"]
    for s in sessions:
        pk = s.pk
        if pk["slain"] or s.pk is not pk:
            continue
        mark_carbonek(s)
        if pk.get("grail"):
            if pk["at"]["area"] == CAMELOT and pk["at"]["where"] == "inside":
                from companion.koc.engine import victory

                victory.declare(s, victory.KNIGHT, "brings the Holy Grail to Camelot Castle")
            continue
        if rec["bearer"] or rec["castle"] != castle or castle is None:
            continue
        q = quest(pk)
        if q.get("permission") != castle or pk["at"] != {"area": castle, "where": "inside"} \
                or pk["prison"]:
            continue
        if why_not_seek(s):
            s.tell(why_not_seek(s))
            continue
        if pk["animal"]:
            s.note(f"In animal form {pk['name']} can neither see nor grasp the Holy Grail.")
            continue
        if q.get("seen") != castle:
            if s.vl_test(kn.vl(pk) + 1, "see the Holy Grail (VL+1)"):
                q["seen"] = castle
                rec["seen_turn"] = turn
                s.note(f"{pk['name']} sees the Holy Grail.")
            else:
                s.note(f"{pk['name']} is found unworthy to see the Holy Grail.")
                if kn.vl(pk) < UNCOUNTED_VL:
                    failed.append(s.player)
                continue
        if s.vl_test(kn.vl(pk) + 1, "grasp the Holy Grail (VL+1)"):
            rec["bearer"], rec["castle"] = s.player, None
            pk["grail"] = True
            for other in state["knights"].values():
                if other.get("quest"):
                    other["quest"].pop("permission", None)
                    other["quest"].pop("seen", None)
            s.announce(f"{knight_and_player(s, pk['name'], s.player)} grasps the Holy Grail in "
                       f"{castle} and bears it away.")
        else:
            s.note(f"{pk['name']} is found unworthy to carry the Holy Grail.")
    if failed and rec["castle"] == castle and not rec["bearer"] and rec["seen_turn"] != turn:
        relocate(sessions[0], "nobody was found worthy to see it", away_from=castle)


# ------------------------------------------------------------------------------ combat
def after_battle(combats: list) -> None:
    """Defeated (his side winning or not) or fighting without chivalry, the bearer loses the
    Grail; so does a player knight bearer among the foes."""
    from companion.koc.engine.session import Session

    if not combats or not active(combats[0].s.game.state):
        return
    lead = combats[0]
    for c in combats:
        if c.pk.get("grail") and (c.result.pk_defeated or c.unchivalrous):
            lose(c.s, "defeated in combat" if c.result.pk_defeated
                 else "he fought without chivalry")
    for f in lead.foes:
        if f.get("kind") != "pk" or not f["pk"].get("grail"):
            continue
        down = any(f is d for d in lead.result.defeated)
        if down or f.get("unchivalrous"):
            lose(Session(lead.s.game, f["player"], parent=lead.s),
                 "defeated in combat" if down else "he fought without chivalry")


def after_challenge(s: "Session", combat, opponent: dict, result) -> None:
    """A challenge lost (or fought without chivalry) costs the bearer the Grail."""
    if not active(s.game.state):
        return
    if s.pk.get("grail") and (result.challenge_winner == "foe" or result.pk_defeated
                              or combat.unchivalrous):
        lose(s, "he fought without chivalry" if combat.unchivalrous and
             result.challenge_winner != "foe" else "he lost a challenge")
    if opponent.get("kind") == "pk" and opponent["pk"].get("grail") and \
            (result.challenge_winner == "pk" or opponent.get("unchivalrous")):
        lose(combat.rival(opponent), "he lost a challenge" if result.challenge_winner == "pk"
             else "he fought without chivalry")


def challenge_bearer(s: "Session", target: str) -> bool:
    """Another knight challenges the bearer's right to the Grail: he must find him (a Luck
    Test, +1 for each earlier turn of trying here); the bearer cannot refuse; it is a
    challenge (the challenger fights chivalrously; nobody is slain), not limited to one a
    game."""
    from companion.koc.engine.combat import challenge, pk_fighter
    from companion.koc.engine.session import Session

    pk = s.pk
    rec = s.game.state["knights"][target]
    memo = f"seek:{target}:{pk['at']['area']}"
    from companion.koc.engine.tasks import seek_bonus

    bonus = seek_bonus(s, memo)
    if not s.luck_test(f"find {rec['name']}, the Grail bearer", bonus=bonus):
        pk["persistence"][memo] = bonus + 1
        s.note(f"{pk['name']} does not find {rec['name']} this turn.")
        return False
    pk["persistence"].pop(memo, None)
    s.note(f"{pk['name']} finds {rec['name']} and challenges his right to bear the Holy Grail; "
           "the bearer cannot refuse.")
    other = Session(s.game, target, parent=s)
    challenge(s, pk_fighter(other), challenger="pk", tags=("pk",))
    return True


# ------------------------------------------------------------------------------ reports
def public_lines(state: dict) -> list[str]:
    """What every player knows of the Grail."""
    if not active(state):
        return []
    rec = peek(state)
    out = []
    if rec["bearer"]:
        b = state["knights"][rec["bearer"]]
        out.append(f"The Holy Grail is borne by {knight_and_player(None, b['name'], rec['bearer'])}"
                   ", now in "
                   f"{b['at']['area']}.")
    else:
        out.append(f"The Holy Grail rests in {rec['castle']}.")
    if not search_allowed(state) or rec["permission"]:
        out.append("King Arthur has allowed the search for the Holy Grail." if rec["permission"]
                   else "King Arthur has not yet allowed the search for the Holy Grail.")
    return out


def legal_lines(state: dict, player: str) -> list[str]:
    """Order lines of the Quest legal for the player now."""
    if not active(state):
        return []
    pk = state["knights"][player]
    rec = peek(state)
    out = []
    at = pk["at"]
    from companion.koc.engine.requests import arthur_task_undone

    if at["area"] == CAMELOT and at["where"] == "inside" and pk.get("arthurian") and \
            not search_allowed(state) and not arthur_task_undone(pk):     # (w16)
        out.append("request grail of arthur")
    q = pk.get("quest") or {}
    if on_quest(state, pk) and not rec["bearer"] and at == {"area": rec["castle"],
                                                             "where": "inside"} and \
            (rec["castle"] == CARBONEK or q.get("carbonek")) and \
            q.get("permission") != rec["castle"]:
        out.append("request grail of king")
    b = rec["bearer"]
    if b and b != player and on_quest(state, pk) and state["knights"][b]["at"] == at:
        out.append(f"challenge {b}")
    return out
