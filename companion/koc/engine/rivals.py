"""Player knights against each other (PLAYER INTERACTION: challenging and fighting a PK; the
Lady who seduces two PKs at once; a knight who goes mad among his fellows).

Orders (steps of the movement plan, carried out where the knight stands when the step comes)::

    challenge <player>      a challenge (three passes; once per pair of knights a game); the
                            other knight accepts or declines (question 'pk_challenge')
    challenge <player> for lady
                            the same, for the service of his Lady (``for_lady``)
    attack <player>         a fight to the defeat; the victor chooses the loser's Knight's Fate
                            (never death)

Like ``seek``, such a step needs the other knight in the same place, found (automatic in a
castle or at a shrine, else a Luck Test, +1 for each earlier turn of trying there), and no
encounter earlier in the turn. Knights of one party cannot fight each other; knights who
travelled together must have been apart for a whole game turn first. An attacked knight's party
fights at his side; the attacker's party at his (``combat.fight`` pairs them off). The challenger
(and the attacker) must fight chivalrously; the other may not, but then wins no awards.
"""
from __future__ import annotations

from companion.engine.game import edition
from companion.koc.engine import party
from companion.koc.engine.questions import Spec, register
from companion.koc.engine.session import Question, Session

LADY_WITHOUT_CASTLE = 5
"""The rules edition from which a knight who wins the service of a Lady without a castle
(Morgan Le Fay) from another knight is told only that he may ask her for her service; before,
"Morgan Le Fay's castle (None) is open to ...". A Lady with a castle is spoken of as before."""

register(
    Spec("pk_challenge", "another player knight challenges you: accept (three passes, no "
         "Knight's Fate; the loser's followers leave him); for your Lady's service, letting it "
         "pass costs you her service", ("yes", "no"), "no", tags=("pk", "lady")),
    Spec("fight_fair", "fight on even terms: a player knight you fight asks you to fight with "
         "his weapons (tag pk), or a combat event broke your knightly foe's shield and you may "
         "lay yours aside (no: keep it, unchivalrously)", ("yes", "no"), "yes", tags=("pk",)),
)


def turn_no(s: Session) -> int:
    return s.game.state["koc"]["turn"]


def parted_recently(s: Session, other: str) -> bool:
    """Whether the two knights travelled together this game turn or the one before."""
    now = turn_no(s)
    for a, b in ((s.player, other), (other, s.player)):
        when = s.game.state["knights"][a].get("parted", {}).get(b)
        if when is not None and now - when < 2:
            return True
    return False


def confront(s: Session, how: str, target: str, *, stake: str | None = None) -> bool:
    """A challenge or an attack on another player knight (see the module docstring); a
    challenge ``stake='lady'`` puts the service of his Lady at stake (``for_lady``). Returns
    True if it took place."""
    from companion.koc.engine.combat import challenge, fight, pk_fighter

    pk = s.pk
    knights = s.game.state["knights"]
    rec = knights.get(target)
    if rec is None or target == s.player:
        s.tell(f"There is no other knight called {target}.")
        return False
    name = rec["name"]
    if not (rec["slain"] or rec["prison"]) and rec["at"] != pk["at"]:
        from companion.koc.engine import villainy

        landed = villainy.river_landing(s, target, how, stake)   # a pirate Knave on a river
        if landed is not None:
            return landed
    if rec["slain"] or rec["prison"] or rec["at"] != pk["at"]:
        s.tell(f"{name} is not here to {how}.")
        return False
    if party.together(s.game.state, s.player, target):
        s.tell(f"{pk['name']} and {name} travel together: they cannot fight each other.")
        return False
    from companion.koc.engine import grail

    if how == "challenge" and stake is None and grail.is_bearer(s.game.state, target):
        return grail.challenge_bearer(s, target)     # his right to the Grail (grail.py)
    if how == "attack" and parted_recently(s, target):
        s.tell(f"{pk['name']} and {name} rode together until lately: they must be apart for a "
               "whole game turn before they may fight.")
        return False
    if how == "challenge" and (name in pk["challenged"] or pk["name"] in rec["challenged"]):
        s.tell(f"{pk['name']} and {name} have already met in a challenge (once a game).")
        return False
    if not find(s, target):
        return False
    other = Session(s.game, target, parent=s)
    if how == "challenge":
        lady = rec["lady"] if stake == "lady" else None
        if stake == "lady" and lady is None:
            s.note(f"{name} serves no Lady: {pk['name']} offers a plain challenge.")
        if lady:
            return for_lady(s, other, lady)
        q = Question("pk_challenge", f"{pk['name']} challenges you to a passage of arms (three "
                     "passes, no Knight's Fate). Accept?", ["yes", "no"], "no", tags=("pk",))
        if s.ask_other(target, q) != "yes":
            s.note(f"{name} declines {pk['name']}'s challenge.")
            return False
        s.note(f"{name} accepts {pk['name']}'s challenge.")
        if tricks_instead(s, other):
            return True
        challenge(s, pk_fighter(other), challenger="pk", tags=("pk",))
        return True
    defenders = [other, *(x for x in party.with_me(other) if x.player != s.player)]
    s.note(f"{pk['name']} attacks {', '.join(x.pk['name'] for x in defenders)}.")
    foes = [pk_fighter(x) for x in defenders]
    for f in foes:
        f["attacked_by_pk"] = True
    fight(s, foes, attacker="pk", tags=("pk",))
    return True


def for_lady(s: Session, other: Session, lady: dict) -> bool:
    """A challenge for the service of the other knight's Lady (as when her honour is at stake:
    Message 6). He may let it pass, and she releases him (not an Enchantress's knight, who must
    answer); beaten, he loses her (her award in CP, 6 VP more under her summons) and her castle
    becomes friendly to the victor, who may then ask her for her service; winning, he gains
    6 VP for her honour."""
    from companion.koc.engine import resolutions, service
    from companion.koc.engine.combat import challenge, pk_fighter

    pk, name = s.pk, other.pk["name"]
    s.note(f"{pk['name']} challenges {name} for the service of {lady['name']}.")
    options = ["yes"] if lady.get("enchantress") else ["yes", "no"]
    q = Question("pk_challenge", f"{pk['name']} challenges you for the service of your Lady, "
                 f"{lady['name']}: let it pass and she releases you. Accept?", options,
                 options[-1], tags=("pk", "lady"))
    if s.ask_other(other.player, q) != "yes":
        s.note(f"{name} lets the challenge pass; {lady['name']} releases him.")
        service.lose_lady(other, "he would not defend her", vp=0, summons_vp=6)
        return False
    s.note(f"{name} takes up the challenge for {lady['name']}.")
    if tricks_instead(s, other):
        return True
    result = challenge(s, pk_fighter(other), challenger="pk", tags=("pk", "lady"))
    if result.challenge_winner == "pk":
        service.lose_lady(other, f"{pk['name']} won her service from him", vp=0, summons_vp=6)
        castle = lady.get("castle")
        if castle and castle not in pk["friendly"]:
            pk["friendly"].append(castle)
        resolutions.befriend(s, lady)
        if castle or edition(s.game.state) < LADY_WITHOUT_CASTLE:
            s.note(f"{lady['name']}'s castle ({castle}) is open to {pk['name']}; he may ask "
                   "her for her service.")
        else:
            s.note(f"{pk['name']} may ask {lady['name']} for her service.")
    elif result.challenge_winner == "foe":
        other.gain_vp(6, f"defending the honour of {lady['name']}")
    return True


def tricks_instead(s: Session, other: Session) -> bool:
    """Tricking Player Knights (optional rule, engine/optional.py): at the start of the
    challenger's turn either knight may trick the other; True when a trick took the place of
    the challenge (a failed one leaves it to be fought)."""
    from companion.koc.engine.optional import pk_trick

    return pk_trick(s, other, at_start=getattr(s, "at_turn_start", False)) == "tricked"


def find(s: Session, target: str) -> bool:
    """Finding another knight who may not wish to be found: automatic in a castle or at a
    shrine, otherwise a Luck Test (+1 for each earlier turn of trying here)."""
    from companion.koc.engine.tasks import find_here

    pk, name = s.pk, s.game.state["knights"][target]["name"]
    return find_here(s, target, f"find {name}", found=f"{pk['name']} finds {name}.",
                     missed=f"{pk['name']} does not find {name} this turn.", inside=True)


def seduced_together(s: Session, lady: dict, seduced: list[Session]) -> Session:
    """Two (or more) knights fell for one Lady at once: they fight at once, the winner of each
    fight meeting the next; the last winner is hers, the losers bear their defeat."""
    from companion.koc.engine.combat import fight, pk_fighter

    names = ", ".join(x.pk["name"] for x in seduced)
    s.note(f"{names} all fall for {lady['name']} at once, and draw their swords over her.")
    winner = seduced[0]
    for rival in seduced[1:]:
        if winner.pk["slain"] or rival.pk["slain"]:
            continue
        result = fight(winner, [pk_fighter(rival)], attacker="pk", tags=("pk", "lady"),
                       alone=True)
        if not result.won:
            winner = rival
    s.note(f"{winner.pk['name']} wins {lady['name']}.")
    return winner


def madman_attacks(s: Session, fellows: list[Session]) -> None:
    """A knight gone mad attacks the knights he travelled with. They fight him as a Mad Knight
    (two dice of rage); beaten, he is left to his wanderings (a PK is never slain by another);
    whoever he beats is defeated without a Knight's Fate."""
    from companion.koc.engine.combat import Combat, pk_fighter, run_battle, settle_battle

    fellows = [x for x in fellows if not x.pk["slain"] and x.pk["at"] == s.pk["at"]]
    if not fellows:
        return
    s.note(f"In his madness {s.pk['name']} falls upon "
           + ", ".join(x.pk["name"] for x in fellows) + ".")
    # an unknightly foe now: two dice of rage, no question of chivalry, no combat events of his
    madman = {**pk_fighter(s), "knightly": False, "dice": 2}
    # every fellow stands against him (he has left their party: ``fight`` would not gather them)
    combats = [Combat(x, [madman], attacker="foe", tags=("mad_knight", "pk")) for x in fellows]
    run_battle(combats)
    settle_battle(combats, on_defeat=None)
