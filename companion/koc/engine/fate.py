"""Knight's Fate: suffered by a defeated player knight (rolled: one die + the victor's VL), and
given by a victorious player knight to a defeated knight (chosen)."""
from __future__ import annotations

from companion.engine.game import edition
from companion.engine.words import joined
from companion.koc.engine import knight as kn
from companion.koc.engine.session import Question, Session
from companion.koc.engine.words import plural

LORD_HERE_IS_OATH = 3
"""The rules edition from which Knight's Fate 6 (sends to his Lord) assigned at the very castle
he would be sent to is an oath (Fate 5), as the chart says; before, the task was set anyway."""

JAILOR_OWNS_A_CASTLE = 3
"""The rules edition from which a player knight without a castle cannot choose to imprison a
player knight he defeated (Knight's Fate 14; before, he could, for a castle at hand)."""

LANDS_JOINED = 3
"""The rules edition from which the lands of an exile are listed with 'and' ("Beale-Valet and
Vagon"); before, with commas alone ("Beale-Valet, Vagon")."""

PK_LORD_KNOWN = 3
"""The rules edition from which Knight's Fate 6 (sends to his Lord) given by a player knight
sends the loser to that knight's own Lord's castle; before, a player knight not in King
Arthur's service sent him to a random royal castle, as an unknown knight's Lord is found."""

FATE_HEEDS_ALONE = 7
"""The rules edition from which a knight sworn to travel alone (Oaths 10: nobody joins him)
takes no company from a Knight's Fate: suffering Fate 8 (the victor rides with him) he keeps
the oath, or breaks it for 12 VP, as against Aid 2's comrade (the victor's castle is friendly
either way); Fate 4 (a request) offers him no comrade; and giving a fate, he is not offered
those that bring him a comrade or a Man-at-Arms. Before, the victor joined him and those fates
were offered."""

REFUSABLE = ("sends_to_shrine", "exact_oath", "sends_to_lord", "demands_company",
             "charges_with_adventure", "exiles", "sends_as_guard")
FOR_NPKS = {
    # the fates that mean something when a PK chooses them for a defeated knight
    "free_release": "let him go freely",
    "grants_request": "he asks to join you as a comrade",
    "will_join": "you ride together for a time (he joins as a comrade)",
    "demands_company": "he serves you for the adventure you pursue",
    "robs": "take his equipment",
    "declared_enemy": "scar him (he loses 20 CP) and declare him your enemy",
    "imprisons": "imprison him in your castle",
    "sends_as_guard": "send him to guard your castle",
    "slay": "slay him",
}


# ------------------------------------------------------------------------------ suffered
def suffer_fate(s: Session, victor: dict, joiner: dict | None = None) -> None:
    """The PK rolls one die and adds the victor's VL (or his leader's); the chart says what
    befalls him. Fates marked refusable may be refused at a cost of 12 VP."""
    pk = s.pk
    if (pk.get("office") or {}).get("key") == "war_duke" and victor.get("name") != "King Arthur":
        from companion.koc.engine.tournaments import lose_office

        lose_office(s, f"a Knight's Fate from {victor['name']}")
    vl = victor.get("vl") or 0
    from companion.koc.engine import knaves

    extra = knaves.fate_severity(pk)      # KNAVES: Doleful Retribution
    result = s.chart("knights_fate", modifier=vl + extra,
                     purpose=f"Knight's Fate (victor's VL {vl}"
                     + (f", +{extra} doleful retribution)" if extra else ")"))
    key = result.entry.key
    s.note(f"Knight's Fate for {pk['name']} from {victor['name']}: {result.entry.label}.")
    from companion.koc.engine import villainy

    villainy.fate_suffered(s, victor, result.totals[0])     # an Arthurian's Fate >4
    if key in REFUSABLE:
        q = Question("refuse_fate", f"Your fate: {result.entry.label}. Accept it, or refuse "
                     "(refusing costs 12 VP at once)?", ["accept", "refuse"], "accept",
                     tags=("fate", key))
        if s.ask(q) == "refuse":
            s.note(f"{pk['name']} refuses the fate.")
            s.gain_vp(-12, "refusing a Knight's Fate")
            return
    apply_fate(s, key, victor, result.entry, joiner=joiner)


def apply_fate(s: Session, key: str, victor: dict, entry, *, chosen: str | None = None,
               chooser: Session | None = None, joiner: dict | None = None) -> None:
    """What the fate does to the loser (``s``). A victorious PK may have chosen the shrine or
    the oath (``chosen``; None rolls it) and names a random adventure site (``chooser``, his
    session)."""
    pk = s.pk
    from companion.koc.engine import tasks

    alone = "always_travel_alone" in pk["oaths"] and \
        edition(s.game.state) >= FATE_HEEDS_ALONE
    if key == "grants_request":
        options = ["join", "equipment", "heal", "lift enchantment", "arthur's favour", "none"]
        if alone:
            options.remove("join")
        q = Question("fate_request", f"{victor['name']} grants you one request.", options,
                     "join" if victor["kind"] == "knight" and not alone else "none",
                     tags=("fate",))
        choice = s.ask(q)
        if choice == "join" and victor["kind"] == "knight":
            card = dict(victor.get("card") or victor)
            card["joined"] = s.game.state["koc"]["turn"]
            card["wounds"] = 0
            pk["comrades"].append(card)
            s.note(f"{victor['name']} joins {pk['name']} as a comrade.")
        elif choice == "equipment":
            missing = [g for g in kn.GEAR if not pk["gear"][g]]
            for g in missing:
                pk["gear"][g] = True
            s.note(f"{victor['name']} gives {pk['name']} "
                   + (", ".join(missing) if missing else "nothing he lacks") + ".")
        elif choice == "heal" and pk["poison"]:
            kn.cure_poison(pk, 1)
            s.note(f"{victor['name']} heals one of {pk['name']}'s poisoned wounds.")
        elif choice == "lift enchantment" and pk["enchantments"]:
            from companion.koc.engine.resolutions import lift_enchantment

            lift_enchantment(s, pk["enchantments"][0])
        elif choice == "arthur's favour":
            pk["arthur"]["favour"] = True
            s.note(f"{victor['name']} will speak well of {pk['name']} to King Arthur.")
    elif key == "sends_to_shrine":
        shrine = chosen or tasks.random_shrine(s)
        tasks.add(s, "pilgrimage", shrine, awards={}, penalty_vp=12,
                  why=f"sent by {victor['name']} after his defeat", refusal_vp=12)
    elif key == "commends_skill":
        s.gain_vp(6, f"{victor['name']} commends his skill")
    elif key == "free_release":
        s.note(f"{victor['name']} lets {pk['name']} go freely.")
    elif key == "exact_oath":
        from companion.koc.engine.resolutions import swear_oath

        swear_oath(s, why=f"exacted by {victor['name']}", key=chosen)
    elif key == "sends_to_lord":
        if victor["kind"] == "king":
            castle = s.world.kingdoms[victor["card"]["kingdom"]].royal_castle
        else:
            castle = "Camelot Castle" if victor.get("arthurian") else \
                victor.get("lord_castle") or tasks.random_royal_castle(s)
        if pk["at"]["area"] == castle and edition(s.game.state) >= LORD_HERE_IS_OATH:
            # Knight's Fate 6 assigned at the castle he would be sent to counts as 5
            s.note(f"{pk['name']} is at {castle} already: {victor['name']} makes him swear an "
                   "oath instead.")
            from companion.koc.engine.resolutions import swear_oath

            swear_oath(s, why=f"exacted by {victor['name']}")
        elif victor["kind"] == "king":
            tasks.add(s, "escort", castle, person=victor["card"], awards={}, penalty_vp=12,
                      why=f"escorting King {victor['name']} home after defeat")
        else:
            tasks.add(s, "report", castle, awards={}, penalty_vp=12, needs="friendly_castle",
                      why=f"reporting to the Lord of {victor['name']}")
    elif key == "demands_company":
        # he rides as the victor's Man-at-Arms on an adventure rolled for the victor (5:6
        # rerolled), without awards of his own; the victor leads and fights first
        from companion.koc.engine import resolutions

        s.note(f"{pk['name']} must ride with {victor['name']} as his Man-at-Arms.")
        task = resolutions.adventure_news(s, {"kind": victor["kind"], "name": victor["name"]},
                                          reroll=("tournament_at_camelot",), awards=False,
                                          no_failure_award=True, must=True)
        if task is not None:
            task["leader"] = victor.get("card") or {"name": victor["name"]}
            task["penalty_vp"] = 12
            task["why"] = f"riding as {victor['name']}'s Man-at-Arms on an adventure"
    elif key == "will_join":
        if victor.get("kind") == "lady":
            # her VL set the fate; the knight of hers who beat him is the one who rides along
            victor = joiner or victor
        if victor.get("kind") == "lady":
            s.note(f"{victor['name']} has no knight to send along; she rides on.")
            return
        castle = tasks.knight_castle(s, victor["name"])
        if alone:
            from companion.koc.engine.resolutions import oath_binds

            if oath_binds(s, "always_travel_alone", f"{victor['name']} at his side"):
                if castle and castle not in pk["friendly"]:
                    pk["friendly"].append(castle)
                s.note(f"{victor['name']} rides on without {pk['name']}; his castle "
                       f"({castle}) is now friendly.")
                return
        card = dict(victor.get("card") or victor)
        card["joined"] = s.game.state["koc"]["turn"]
        card["wounds"] = 0
        pk["comrades"].append(card)
        if castle and castle not in pk["friendly"]:
            pk["friendly"].append(castle)
        s.note(f"{victor['name']} rides with {pk['name']} for a time; his castle ({castle}) is "
               "now friendly.")
    elif key == "charges_with_adventure":
        # a random adventure (5:6 rerolled) to undertake at once: the usual awards on
        # success, nothing for failure
        from companion.koc.engine import resolutions

        s.note(f"{victor['name']} charges {pk['name']} with an adventure.")
        resolutions.adventure_news(s, {"kind": victor["kind"], "name": victor["name"]},
                                   reroll=("tournament_at_camelot",), no_failure_award=True,
                                   must=True, chooser=chooser)
    elif key == "sends_as_guard":
        # sent by a victorious PK to stand guard at his castle (service.py)
        from companion.koc.engine.service import can_take_guard, send_to_guard

        castle = can_take_guard(chooser) if chooser is not None else None
        if castle:
            send_to_guard(s, castle, chooser.player)
    elif key == "robs":
        from companion.koc.engine.combat import robbed

        robbed(s, by=victor["name"])
    elif key == "exiles":
        area = s.world.areas[pk["at"]["area"]]
        lands = list(area.castellanies or area.kingdoms)
        if victor["name"] == "King Arthur":
            lands = list(s.world.castellanies)
        for land in lands:
            if land not in pk["exiles"]:
                pk["exiles"].append(land)
        named = joined(lands) if edition(s.game.state) >= LANDS_JOINED else ", ".join(lands)
        s.note(f"{pk['name']} is exiled from {named} and must leave by the most direct way.")
        tasks.add(s, "leave", None, awards={}, penalty_vp=12, leave=lands,
                  why="leaving the land of his exile")
    elif key == "declared_enemy":
        s.gain_cp(-20, f"scarred by {victor['name']}")
        if victor["name"] not in pk["enemies"]:
            pk["enemies"].append(victor["name"])
        s.note(f"{victor['name']} declares {pk['name']} his enemy.")
    elif key == "imprisons":
        from companion.koc.engine.resolutions import imprison

        imprison(s, by="king" if victor["kind"] == "king" else "knight", jailor=victor["name"])
    elif key == "poisoned_wounds":
        n = min(5, s.d6("poisoned wounds inflicted"), kn.current_wl(pk) + pk["wounds"] - 1)
        n = max(0, min(n, kn.wl(pk) - 1))
        kn.poison(pk, n)
        s.note(f"{victor['name']} gives {pk['name']} {n} {plural(s, n, 'poisoned wound')}.")
    elif key == "slay":
        from companion.koc.engine.combat import knight_slain

        s.note(f"{victor['name']} slays {pk['name']}.")
        knight_slain(s)


# ------------------------------------------------------------------------------ given
def give_fate(s: Session, loser: dict) -> None:
    """The PK has personally defeated a knight. An NPK first yields only on a VL check of his
    VL; if he refuses, the PK slays him or lets him go. Otherwise the PK chooses his fate."""
    pk = s.pk
    card = loser.get("card") or loser
    if loser["kind"] == "pk":
        give_fate_to_pk(s, loser)
        return
    if not s.vl_check(loser["vl"], "yields", who=loser["name"]):
        q = Question("slay_unyielding", f"{loser['name']} refuses to yield. Slay him, or let "
                     "him ride away?", ["let go", "slay"], "let go", tags=("fate", "knight"))
        if s.ask(q) == "slay":
            slay_knight(s, loser)
        else:
            s.note(f"{loser['name']} rides away.")
            s.game.discard("knights", loser["name"])
        return
    options = ["free_release", "grants_request", "will_join", "robs", "declared_enemy", "slay"]
    if any(t.get("adventure") for t in pk["tasks"]):
        options.insert(3, "demands_company")
    from companion.koc.engine import knaves

    if pk.get("own_castle") or (knaves.is_knave(pk) and knaves.his_castles(pk)):
        options.insert(-1, "imprisons")
    from companion.koc.engine.service import can_take_guard, guards_of

    guarded = can_take_guard(s)
    if guarded:
        options.insert(-1, "sends_as_guard")
    if "spare_knights" in pk["oaths"]:
        options.remove("slay")
    if "always_travel_alone" in pk["oaths"] and edition(s.game.state) >= FATE_HEEDS_ALONE:
        options = [o for o in options if o not in ("grants_request", "will_join",
                                                   "demands_company")]
    q = Question("fate", f"{loser['name']} yields. Choose his fate: "
                 + "; ".join(f"{o.replace('_', ' ')} ({FOR_NPKS[o]})" for o in options) + ".",
                 [o.replace("_", " ") for o in options], "free release",
                 tags=("fate", "knight", *(["arthurian"] if card.get("arthurian") else [])))
    choice = s.ask(q).replace(" ", "_")
    if choice == "slay":
        slay_knight(s, loser)
        return
    if choice in ("grants_request", "will_join", "demands_company"):
        card = dict(card)
        card["joined"] = s.game.state["koc"]["turn"]
        card["wounds"] = 0
        target = "men_at_arms" if choice == "demands_company" and not pk["men_at_arms"] \
            else "comrades"
        pk[target].append(card)
        s.note(f"{loser['name']} joins {pk['name']} "
               f"({'as a Man-at-Arms' if target == 'men_at_arms' else 'as a comrade'}).")
        return
    if choice == "robs":
        taken = [g for g in kn.GEAR if not pk["gear"][g]]
        for g in taken:
            pk["gear"][g] = True
        s.note(f"{pk['name']} takes {loser['name']}'s equipment"
               + (f" and replaces his own {', '.join(taken)}." if taken else "."))
        from companion.koc.engine import villainy

        villainy.horse_taken(s)         # a Knave's brigand may ride the horse
        if s.options_rule("robbing_costs_vp") and loser.get("attacked_by_pk"):
            s.gain_vp(-6, "robbing a foe he attacked")
    elif choice == "declared_enemy":
        s.note(f"{pk['name']} scars {loser['name']} and declares him his enemy.")
        pk["enemies"].append(loser["name"])
    elif choice == "imprisons" and knaves.take_captive(s, card, "knight", ask=False):
        return      # a Knave leads him to one of his castles (KNAVES: Imprisoning a Person)
    elif choice == "imprisons":
        s.note(f"{pk['name']} sends {loser['name']} to his castle's prison.")
        pk.setdefault("prisoners", []).append(card)
        return
    elif choice == "sends_as_guard":
        card = dict(card)
        card["wounds"] = 0
        guards_of(s, guarded).append(card)
        s.note(f"{pk['name']} sends {loser['name']} to guard {guarded}.")
        return
    else:
        s.note(f"{pk['name']} lets {loser['name']} go freely.")
    s.game.discard("knights", loser["name"])


def slay_knight(s: Session, loser: dict) -> None:
    """Slaying a defeated knight: his card leaves the game; if he passes a VL check of his VL
    (a good knight), the slayer loses 15 CP and 6 VP."""
    s.note(f"{s.pk['name']} slays {loser['name']}.")
    s.game.remove("knights", loser["name"])
    from companion.koc.engine.service import owner_slain

    owner_slain(s, loser["name"], "knight")
    if s.vl_check(loser["vl"], "was a good knight", who=loser["name"]):
        s.gain_cp(-15, f"slaying the good knight {loser['name']}")
        s.gain_vp(-6, f"slaying the good knight {loser['name']}")
        from companion.koc.engine import knaves

        knaves.commit_act(s, s.pk, "slay_good_knight", f"slays {loser['name']}")


def give_fate_to_pk(s: Session, loser: dict) -> None:
    """A PK chooses the fate of another PK (never death, nor poison enough to kill, nor
    declared enmity); the loser may refuse the refusable ones."""
    from companion.koc.engine.session import Session as _S

    from companion.koc.engine.service import can_take_guard

    options = ["free_release", "commends_skill", "sends_to_shrine", "exact_oath",
               "sends_to_lord", "charges_with_adventure", "robs", "exiles", "imprisons"]
    if edition(s.game.state) >= JAILOR_OWNS_A_CASTLE:
        from companion.koc.engine import knaves

        if not (s.pk.get("own_castle") or (knaves.is_knave(s.pk) and knaves.his_castles(s.pk))):
            options.remove("imprisons")     # Fate 14: only a castle's owner imprisons
    guarded = can_take_guard(s)
    if guarded:
        options.append("sends_as_guard")
    q = Question("fate_pk", f"You have defeated {loser['name']}. Choose his fate.",
                 [o.replace("_", " ") for o in options], "free release", tags=("fate", "pk"))
    choice = s.ask(q).replace(" ", "_")
    other = _S(s.game, loser["player"], parent=s)
    chosen = victor_terms(s, other, choice)
    named = choice.replace("_", " ") + (f": {chosen.replace('_', ' ')}" if chosen else "")
    other.note(f"{s.pk['name']} gives {loser['name']} a Knight's Fate: {named}.")
    if choice in REFUSABLE:
        q2 = Question("refuse_fate", f"Accept the fate ({named}) or refuse it for 12 VP?",
                      ["accept", "refuse"], "accept", tags=("fate", choice))
        if s.ask_other(loser["player"], q2) == "refuse":
            other.gain_vp(-12, "refusing a Knight's Fate")
            return
    victor = {"kind": "pk", "name": s.pk["name"], "vl": kn.vl(s.pk),
              "arthurian": s.pk["arthurian"]}
    if choice == "sends_to_lord" and edition(s.game.state) >= PK_LORD_KNOWN:
        from companion.koc.engine.service import lord_castle

        victor["lord_castle"] = lord_castle(s)  # his own Lord's; a knight without one: random
    apply_fate(other, choice, victor, None, chosen=chosen, chooser=s)


def victor_terms(s: Session, other: Session, key: str) -> str | None:
    """The part of a fate a victorious PK names with it, before the loser accepts or refuses:
    the shrine of Fate 2 (any but Rome) or the oath of Fate 5 (one not yet sworn). None leaves
    it to the dice, rolled only once the fate is accepted."""
    from companion.koc.engine import tasks
    from companion.koc.engine.questions import OATH_KEYS

    name = other.pk["name"]
    if key == "sends_to_shrine":
        q = Question("fate_shrine", f"To which shrine do you send {name}?",
                     ["random", *tasks.shrines_to_choose(s.world)], "random", tags=("fate",))
        answer = s.ask(q)
        return None if answer == "random" else answer
    if key == "exact_oath":
        free = [k.replace("_", " ") for k in OATH_KEYS if k not in other.pk["oaths"]]
        if not free:
            return None
        q = Question("fate_oath", f"Which oath must {name} swear?", ["random", *free], "random",
                     tags=("fate",))
        answer = s.ask(q)
        return None if answer == "random" else answer.replace(" ", "_")
    return None
