"""Tournaments: a casebook (rules: COMBAT, Tournaments and Breaking Lances, the Lady's Token on
the combat modifiers, challenges between PKs who first meet at a tournament; COMRADE &
COMPANION RETENTION; Animal form; ADVENTURES: Tournaments, Tournament at Camelot, Special
Tournament at Camelot, Player Knight Tournaments; LIST OF ADVENTURES 5:5, 5:6, 6:3; MESSAGES
11; King Arthur's task 7; OPTIONAL RULES: Short Tournaments, Signal Honour, the once-a-game
tournaments). The project's decisions where the rules are silent are in docs/koc-engine.md,
"Tournaments: records and decisions". Dice are explicit.

Every pass of a joust is the lower-placed knight's three dice, then the upper one's.
``UP`` makes the upper knight win a joust in one pass (3 against 18), ``LOW`` the lower one.
Anna sits first, Bert second, Carl third."""
from __future__ import annotations

import pytest
from kocpos import card, pos

from companion.engine.chance import Chance, seed_key
from companion.engine.game import TurnContext
from companion.engine.orders import OrdersRejected
from companion.koc.checks import acknowledge, check_orders, legal_lines
from companion.koc.engine import knight as kn
from companion.koc.engine import requests, tasks
from companion.koc.engine import resolutions as rs
from companion.koc.engine import tournaments as T
from companion.koc.engine.game import Game, process
from companion.koc.engine.turn import retention_phase
from companion.koc.kind import KIND
from companion.koc.orders import parse_orders

UP = [1, 1, 1, 6, 6, 6]          # the upper knight wins the joust in one pass
LOW = [6, 6, 6, 1, 1, 1]         # the lower knight wins it in one pass
WEAK = ("Sir Belleus", "Sir Hemison", "Sir Gauter", "Sir Miles of the Launds", "Sir Herlews")
HEAL = {2: [1, 1], 6: [3, 3], 7: [3, 4], 12: [6, 6]}


def deck(*knights, ladies=()):
    text = "\n[decks]\nknights = [" + ", ".join(f'"{k}"' for k in knights) + "]\n"
    if ladies:
        text += "ladies = [" + ", ".join(f'"{n}"' for n in ladies) + "]\n"
    return text


def knight(at="Hampshire", cp=60, vp=6, more=""):
    return f'cp = {cp}\nvp = {vp}\nat = "{at}"\nlord = "King Arthur"' + ("\n" + more if more
                                                                         else "")


def inside(at):
    return f'at = "{at}"\nwhere = "inside"\nlord = "King Arthur"'


def game_turn(t):
    process(t.world, t.state, t.ctx)


def next_turn(t, dice=(), orders=None):
    """The next game turn of the same table: new dice, new orders."""
    players = t.state["koc"]["order"]
    parsed = {p: parse_orders(t.world, players, text, f"{p}.txt")
              for p, text in (orders or {}).items()}
    for p, o in parsed.items():
        if o.standing is not None:
            t.state["knights"][p]["standing"] = list(o.standing)
    key = seed_key("harness-next")
    t.chance = Chance(key, 1, dice=list(dice))
    t.ctx = TurnContext(turn=t.state["koc"]["turn"], key=key, chance=t.chance, orders=parsed,
                        options=t.ctx.options)
    t.game = Game(t.world, t.state, t.ctx, parsed)


def camelot(t, hearer="Anna"):
    """Adventure 5:6 heard of by ``hearer`` (resolutions.record_adventure)."""
    s = t.session(hearer)
    entry = t.world.charts["adventures"].entry("tournament_at_camelot")
    return rs.record_adventure(s, entry, {"kind": "king", "name": "King Lot"}, prophecy=False,
                               immediate=True, local=False, awards=True)


def adventure(t, key, *, player="Anna", site="Tintagel", lady=None):
    """A tournament adventure (5:5 or 6:3) whose site the knight has reached."""
    s = t.session(player)
    entry = t.world.charts["adventures"].entry(key)
    adv = {"key": key, "id": entry.roll_text.replace("/", ":"), "label": entry.label,
           "values": dict(entry.values), "marker": "A-1", "awards": True,
           "no_failure_award": False, "site": site, "castle": site,
           "source": {"kind": "king", "name": "King Lot", "role": "king"}}
    if lady:
        adv["lady"] = t.game.draw("ladies", "the lady of the tournament")
        assert adv["lady"]["name"] == lady
    task = tasks.add(s, "adventure", site, on_done="adventure", adventure=adv)
    task["status"] = "at_site"
    return s, task


def deck_cards(t, deck_name):
    pile = t.state["decks"][deck_name]
    return pile["draw"] + pile["discard"] + pile["removed"]


def lists_text(t):
    return next(e for e in t.events if "the lists, from the top" in e)


# ============================================================================== the joust
def test_t01_lists_by_cp_then_vp_pk_below_npk(table):
    """ADVENTURES, Tournaments: the entrants are sorted by CP, then VP; still tied, the PK is
    placed below the NPK. An NPK's VP is the least whole VP his card allows (Sir Kay: CP 140,
    VL 6: 24 VP), so Anna (140 CP, 24 VP) ties Sir Kay and goes below him; Bert, tied with
    both, goes below Anna (seat order); Sir Galahad (VL 0) tops any equal CP."""
    t = table(pos(cp=140, vp=24, at="Camelot Castle", where="inside",
                  others={"Bert": knight(cp=140, vp=24)}))
    s = t.session()
    entrants = [T.entrant_pk(s, "Anna"), T.entrant_pk(s, "Bert")]
    entrants += [T.entrant_npk(card(n), i) for i, n in enumerate(
        ("Sir Kay", "Sir Dodinas", "Sir Accolon", "Sir Dinadan"))]
    assert [e["name"] for e in T.ranked(entrants)] == [
        "Sir Dinadan", "Sir Dodinas", "Sir Kay", "Anna", "Bert", "Sir Accolon"]
    assert T.npk_vp(card("Sir Kay")) == 24
    gala = T.entrant_npk(card("Sir Galahad", cp=140), 9)
    assert T.ranked([T.entrant_pk(s, "Anna"), gala])[0]["name"] == "Sir Galahad"


def test_t02_the_chain_of_jousts_and_its_awards(table):
    """ADVENTURES, Tournaments; COMBAT, Tournaments: the last knight jousts the one above, the
    winner rides on to the top. Anna (100 CP) is last: Sir Kay beats her (4 against 18); she
    takes the lesson of defeat (6 CP) but no Knight's Fate and keeps her comrade and her
    Man-at-Arms; Sir Kay, healed, beats Sir Dinadan and is the champion."""
    t = table(pos(cp=100, vp=20, at="Camelot Castle", where="inside",
                  anna='comrades = ["Sir Griflet"]\nmen_at_arms = ["Sir Lucan"]'),
              dice=[1, 1, 2, 6, 6, 6] + LOW)
    champion = T.hold(t.session(), "The test", "Camelot Castle", ["Anna"],
                      [card("Sir Kay"), card("Sir Dinadan")])
    assert champion["name"] == "Sir Kay"
    assert "1. Sir Dinadan (CP 150); 2. Sir Kay (CP 140); 3. Anna (CP 100, a player knight)" \
        in lists_text(t)
    assert t.saw("joust 1: Anna (WL 10) rides against Sir Kay (WL 14)")
    assert t.saw("joust 1: Sir Kay wins (Anna is beaten)")
    assert t.saw("joust 2: Sir Kay (WL 14) rides against Sir Dinadan (WL 15)")
    assert t.saw("Sir Kay is the champion of the tournament")
    rec = t.knight()
    assert rec["cp"] == 106 and rec["vp"] == 20 and rec["wounds"] == 0
    assert [c["name"] for c in rec["comrades"]] == ["Sir Griflet"]
    assert [m["name"] for m in rec["men_at_arms"]] == ["Sir Lucan"]
    assert not t.saw("Knight's Fate") and not rec.get("defeated")
    assert t.unused_dice == []


def test_t03_lances_replaced_one_cp_each(table):
    """COMBAT, Breaking Lances: 11 on the three dice breaks the lance; in a tournament the host
    hands him another and it earns the breaker 1 CP. Anna breaks hers (3+4+4), gains 1 CP and
    jousts on with a lance; she beats Sir Kay (his WL 14 in CP, 6 VP). An NPK's broken lance
    is replaced too (no CP); an Unbreakable Lance never breaks (and earns nothing)."""
    t = table(pos(cp=100, vp=20, at="Camelot Castle", where="inside"),
              dice=[3, 4, 4, 1, 1, 1, 6, 6, 6, 1, 1, 2])
    T.hold(t.session(), "The test", "Camelot Castle", ["Anna"], [card("Sir Kay")])
    rec = t.knight()
    assert t.saw("Anna's lance breaks (11 on the attack dice); the host hands him a new one.")
    assert t.saw("Anna gains 1 CP (a lance broken in the tournament)")
    assert t.saw("Pass: Anna 18, Sir Kay 4")
    assert rec["cp"] == 115 and rec["vp"] == 26 and rec["gear"]["lance"]
    t = table(pos(cp=100, vp=20, at="Camelot Castle", where="inside"),
              dice=[6, 5, 6, 3, 4, 4, 6, 6, 6, 1, 1, 1])
    T.hold(t.session(), "The test", "Camelot Castle", ["Anna"], [card("Sir Kay")])
    assert t.saw("Sir Kay's lance breaks (11 on the attack dice); the host hands him a new one.")
    assert t.saw("Pass: Anna 18, Sir Kay 3") and t.knight()["cp"] == 114
    t = table(pos(cp=100, vp=20, at="Camelot Castle", where="inside"),
              dice=[3, 4, 4, 1, 1, 1, 6, 6, 6, 1, 1, 2])
    t.knight()["items"].append({"key": "unbreakable_lance"})
    T.hold(t.session(), "The test", "Camelot Castle", ["Anna"], [card("Sir Kay")])
    assert not t.saw("lance breaks") and t.knight()["cp"] == 114


def test_t04_healed_after_every_joust_awards_at_once(table):
    """COMBAT, Tournaments: each joust's award is paid at once (a knight grows stronger up the
    lists) and the contestants are healed after every joust. Anna takes 3 wounds from Sir Kay
    but beats him (+14 CP: WL 11); healed, she meets Sir Dinadan at her new full WL 11."""
    t = table(pos(cp=100, vp=20, at="Camelot Castle", where="inside"),
              dice=[2, 2, 2, 3, 3, 3] + LOW + LOW)
    champion = T.hold(t.session(), "The test", "Camelot Castle", ["Anna"],
                      [card("Sir Kay"), card("Sir Dinadan")])
    assert champion["name"] == "Anna"
    assert t.saw("Anna is tended after the joust: his wounds are healed.")
    assert t.saw("joust 2: Anna (WL 11) rides against Sir Dinadan (WL 15)")
    rec = t.knight()
    assert rec["cp"] == 129 and rec["vp"] == 32 and rec["wounds"] == 0


def test_t05_ladys_token(table):
    """COMBAT, Tournaments; ADVENTURES, Tournaments: a Lady's Token gives 6 VP once in the
    tournament and +1 on every joust roll (Anna's 6+6+6 counts 19)."""
    t = table(pos(cp=100, vp=20, at="Camelot Castle", where="inside", anna="token = true"),
              dice=LOW + LOW)
    T.hold(t.session(), "The test", "Camelot Castle", ["Anna"],
           [card("Sir Kay"), card("Sir Dinadan")])
    assert sum("Lady's Token" in e for e in t.events) == 1
    assert t.saw("Pass: Anna 19, Sir Kay 3") and t.saw("Pass: Anna 19, Sir Dinadan 3")
    assert t.knight()["vp"] == 20 + 6 + 6 + 6


def test_t06_short_tournaments(table):
    """OPTIONAL RULES, Short Tournaments: three passes that wound somebody (a tie does not
    count); the most wounds wins; a tie goes on until broken; the winning PK gains CP for the
    wounds he inflicted (VP as usual). Pass 1 is a tie; then Anna 3, Sir Kay 2 and 1: 3 all;
    the fifth pass (Anna 2 more) decides: Anna wins with 5 wounds: 5 CP and 6 VP."""
    dice = [3, 3, 3, 3, 3, 3,  4, 4, 4, 3, 3, 3,  3, 3, 2, 4, 3, 3,  3, 3, 3, 4, 3, 3,
            4, 4, 4, 3, 3, 4]
    t = table(pos(cp=100, vp=20, at="Camelot Castle", where="inside"), dice=dice,
              options={"rules": ("short_tournaments",)})
    champion = T.hold(t.session(), "The test", "Camelot Castle", ["Anna"], [card("Sir Kay")])
    assert champion["name"] == "Anna" and t.saw("Anna wins (5 wounds to 3)")
    rec = t.knight()
    assert rec["cp"] == 105 and rec["vp"] == 26 and t.unused_dice == []
    # lost on wounds: the lesson of defeat (6 CP) as usual
    t = table(pos(cp=100, vp=20, at="Camelot Castle", where="inside"),
              dice=[2, 2, 2, 3, 3, 3] * 3, options={"rules": ("short_tournaments",)})
    champion = T.hold(t.session(), "The test", "Camelot Castle", ["Anna"], [card("Sir Kay")])
    assert champion["name"] == "Sir Kay" and t.saw("Sir Kay wins (0 wounds to 9)")
    assert t.knight()["cp"] == 106


def test_t07_mutual_challenge_between_pks(table):
    """COMBAT, Challenges: PKs who first meet at a tournament count their jousts as their
    challenge of the game. Bert beats Anna: each has fought the other; no challenge between
    them is offered any more. The winner gains the loser's WL in CP and 6 VP, the loser 6 CP."""
    t = table(pos(cp=100, vp=20, at="Camelot Castle", where="inside",
                  others={"Bert": "cp = 110\nvp = 20\n" + inside("Camelot Castle")}),
              dice=UP)
    T.hold(t.session(), "The test", "Camelot Castle", ["Anna", "Bert"], [])
    anna, bert = t.knight("Anna"), t.knight("Bert")
    assert anna["challenged"] == ["Bert"] and bert["challenged"] == ["Anna"]
    assert bert["cp"] == 120 and bert["vp"] == 26 and anna["cp"] == 106
    assert "challenge Bert" not in legal_lines(t.world, t.state, "Anna")


# ============================================================================== adventures
def test_t08_tournament_for_a_lady_won(table):
    """ADVENTURES 5:5 and Tournaments: at the royal castle Anna meets four drawn knights and
    wins: the whole award (12 VP, 10 CP), the King's friendship (King Mark is not her Lord)
    and the drawn Lady's offer of service, accepted by default. The host castle is friendly;
    the task is done; the cards go back."""
    t = table(pos(cp=100, vp=20, at="Tintagel", extra=deck(*WEAK[:4], ladies=("Lady Lyonesse",))),
              dice=UP * 4)
    s, task = adventure(t, "tournament_for_lady", lady="Lady Lyonesse")
    T.adventure_tournament(s, task)
    rec = t.knight()
    assert "1. Anna (CP 100, a player knight); 2. Sir Miles of the Launds" in lists_text(t)
    assert task["status"] == "done" and rec["at"] == {"area": "Tintagel", "where": "inside"}
    assert rec["vp"] == 20 + 6 + 12 and rec["lady"]["name"] == "Lady Lyonesse"
    award = t.world.ladies[[l.name for l in t.world.ladies].index("Lady Lyonesse")].service_award
    assert rec["cp"] == 100 + 5 + 10 + award
    assert "King Mark" in rec["friendly_persons"] and "Tintagel" in rec["friendly"]
    assert "Lady Lyonesse" in deck_cards(t, "ladies")
    assert all(k in t.state["decks"]["knights"]["discard"] for k in WEAK[:4])


def test_t09_tournament_for_a_lady_the_king_is_his_lord(table):
    """ADVENTURES 5:5 and Tournaments: when the King is his Lord the winner has a request
    granted at once instead of the friendship, once he meets the host (a Luck Test: 5 against
    Luck 3). Anna asks for Men-at-Arms (3 from her Lord). A knight who serves a Lady declines
    the drawn Lady's offer."""
    t = table(pos(cp=100, vp=20, at="Tintagel", lord="King Mark",
                  anna='luck = 3\nlady = "Lady Elaine"',
                  extra=deck(*WEAK[:4], "Sir Lanceor", "Sir Malgrin", "Sir Urry",
                             ladies=("Lady Lyonesse",))),
              dice=UP * 4 + [5], orders={"Anna": "answer king_request: men at arms"})
    s, task = adventure(t, "tournament_for_lady", lady="Lady Lyonesse")
    T.adventure_tournament(s, task)
    rec = t.knight()
    assert t.saw("Luck test (be received by King Mark, the host): rolled 5, needing 3 or more")
    assert len(rec["men_at_arms"]) == 3 and "King Mark" not in rec.get("friendly_persons", [])
    assert rec["lady"]["name"] == "Lady Elaine" and t.saw("must decline")
    # not received: no request (and no friendship either: he is already the Lord)
    t = table(pos(cp=100, vp=20, at="Tintagel", lord="King Mark", anna="luck = 3",
                  extra=deck(*WEAK[:4])), dice=UP * 4 + [2])
    s, task = adventure(t, "tournament")
    T.adventure_tournament(s, task)
    assert t.saw("King Mark does not receive Anna") and t.knight()["men_at_arms"] == []


def test_t10_royal_tournament_lost_half_vp(table):
    """ADVENTURES 6:3 and Tournaments: four NPKs other than his Lord (Sir Kay, drawn first, is
    put aside); beaten, the adventure ends for him with half the VP (6) and the lesson of the
    joust (6 CP); no Knight's Fate, and his comrades stay (tournament defeats do not send
    them away). The same for 5:5 lost: no Lady's offer, no friendship."""
    t = table(pos(cp=100, vp=20, at="Tintagel", lord="Sir Kay",
                  anna='comrades = ["Sir Griflet"]', extra=deck("Sir Kay", *WEAK[:4])),
              dice=UP * 3 + LOW)
    s, task = adventure(t, "tournament")
    T.adventure_tournament(s, task)
    rec = t.knight()
    assert "Sir Kay" not in lists_text(t)
    assert task["status"] == "failed" and rec["vp"] == 26 and rec["cp"] == 106
    assert [c["name"] for c in rec["comrades"]] == ["Sir Griflet"]
    assert not t.saw("Knight's Fate")
    # 5:5 lost: half the VP, no Lady's offer; her card goes back
    t = table(pos(cp=100, vp=20, at="Tintagel",
                  extra=deck(*WEAK[:4], ladies=("Lady Lyonesse",))), dice=UP * 3 + LOW)
    s, task = adventure(t, "tournament_for_lady", lady="Lady Lyonesse")
    T.adventure_tournament(s, task)
    rec = t.knight()
    assert task["status"] == "failed" and rec["vp"] == 26 and rec["lady"] is None
    assert "Lady Lyonesse" in deck_cards(t, "ladies") and "King Mark" not in \
        rec.get("friendly_persons", [])


def test_t11_shared_adventure_undivided_and_animal_barred(table):
    """ADVENTURES, Tournaments: every PK sharing the adventure rides; the award is not divided
    (Bert, the champion, has the full 12 VP and 10 CP; Anna, beaten, half the VP). A PK in
    animal form is barred from tournaments: the adventure is lost for him."""
    t = table(pos(cp=100, vp=20, at="Tintagel",
                  others={"Bert": knight(at="Tintagel", cp=110, vp=20)},
                  extra=deck(*WEAK[:4])), dice=UP * 4 + UP)
    s, task = adventure(t, "tournament")
    tasks.add(t.session("Bert"), "adventure", "Tintagel", on_done="adventure",
              adventure=dict(task["adventure"]))
    T.adventure_tournament(s, task)
    anna, bert = t.knight("Anna"), t.knight("Bert")
    assert bert["vp"] == 20 + 6 + 12 and bert["tasks"][0]["status"] == "done"
    assert anna["vp"] == 20 + 6 + 6 and task["status"] == "failed"
    t = table(pos(cp=100, vp=20, at="Tintagel", anna='animal = "Hart"', extra=deck(*WEAK)))
    s, task = adventure(t, "tournament")
    T.adventure_tournament(s, task)
    assert task["status"] == "failed" and t.saw("barred from tournaments")
    assert not t.saw("the lists, from the top")


# ============================================================================== Camelot
def test_t12_every_pk_hears_of_the_camelot_tournament(table):
    """ADVENTURES, Tournament at Camelot: all PKs hear of it at once (public news). Each first
    finishes the obligations he holds, then rides to Camelot by the most direct route: Bert's
    pilgrimage comes first (no route rule yet), Carl's and Anna's journeys are direct. Camelot
    Castle is friendly to them for the tournament."""
    t = table(pos(cp=100, vp=20, at="Hampshire",
                  others={"Bert": knight(at="Somerset"), "Carl": knight(at="Surrey")}))
    tasks.add(t.session("Bert"), "pilgrimage", "Canterbury", why="a test")
    task = camelot(t)
    assert any("King Arthur proclaims a tournament at Camelot" in e["text"]
               and e["to"] == "public" for e in t.ctx.events)
    bert = [x for x in t.knight("Bert")["tasks"] if x["kind"] == "camelot_tournament"][0]
    carl = t.knight("Carl")["tasks"][0]
    assert task["route"] == "direct" and task["tournament"] == bert["tournament"]
    assert bert["route"] is None and carl["route"] == "direct" and carl["dest"] == "Camelot Castle"
    for p in ("Anna", "Bert", "Carl"):
        assert "Camelot Castle" in t.knight(p)["temp_friendly"]
    record = T.pending(t.state)[0]
    assert record["first"] == "Anna" and record["kind"] == "camelot"
    # Bert's pilgrimage done, the tournament becomes his first obligation: direct
    t.knight("Bert")["tasks"][0]["status"] = "done"
    T.route_rules(t.session("Bert"))
    assert bert["route"] == "direct"


def test_t13_waiting_earns_vp_camelot_town_forfeits(table):
    """ADVENTURES, Tournament at Camelot: each turn a PK waits inside Camelot Castle for the
    others earns 1 VP (not the turn he arrives); a turn in which he goes to Camelot Town
    earns nothing. Bert, on his way, is waited for."""
    t = table(pos(cp=100, vp=20, at="Camelot Castle", where="inside", turn=2,
                  others={"Bert": knight(at="Somerset", more='immobile = [{why = "a feast", '
                                                             'turns = 3}]')}),
              dice=[4, 4], orders={"Anna": "stay", "Bert": "stay"})
    camelot(t)
    task = t.knight()["tasks"][0]
    assert task["waiting"] and t.knight()["vp"] == 20
    task["since_wait"] = 1
    game_turn(t)
    assert t.saw("Anna gains 1 VP (a turn of waiting at Camelot Castle for the tournament)")
    assert T.pending(t.state) and t.knight()["vp"] == 21
    next_turn(t, dice=[4, 6, 4], orders={"Anna": "move Camelot Town, Camelot Castle",
                                           "Bert": "stay"})
    game_turn(t)
    assert t.saw("Anna went to Camelot Town: no VP for waiting this turn.")
    assert t.knight()["vp"] == 21 and task["waiting"]


def test_t14_it_begins_when_the_last_arrives_seat_order_goes_on(table):
    """ADVENTURES, Tournament at Camelot and Tournaments; docs 'Tournaments: records and
    decisions' (scheduling): Anna and Carl wait in Camelot; Bert rides in during his player
    turn and the tournament is held at once in it (3 drawn NPKs). Anna, who has played this
    game turn, does not play again; Carl's turn follows as usual. Champion Anna: 12 VP and
    10 CP; the others half the VP."""
    extra = deck("Sir Belleus", "Sir Hemison", "Sir Gauter")
    t = table(pos(cp=100, vp=20, at="Camelot Castle", where="inside", turn=2, extra=extra,
                  others={"Bert": knight(at="Camelot Town", cp=60, vp=6),
                          "Carl": "cp = 50\nvp = 10\n" + inside("Camelot Castle")}),
              dice=[4, 4] + UP * 5 + [4],
              orders={"Anna": "stay", "Bert": "move Camelot Castle", "Carl": "stay"})
    camelot(t)
    for p in ("Anna", "Carl"):
        [x for x in t.knight(p)["tasks"] if x.get("waiting")][0]["since_wait"] = 1
    del t.ctx.events[:]
    game_turn(t)
    events = t.events
    begin = next(i for i, e in enumerate(events) if "tournament at Camelot begins" in e)
    assert events.index("— Bert's turn (game turn 2), in Camelot Town.") < begin
    assert begin < events.index("— Carl's turn (game turn 2), inside Camelot Castle.")
    assert sum(e.startswith("— Anna's turn") for e in events) == 1
    assert "Anna, Bert, Carl ride in it" in events[begin]
    assert "1. Anna (CP 100, a player knight); 2. Bert (CP 60, a player knight); " \
        "3. Carl (CP 50, a player knight); 4. Sir Hemison" in lists_text(t)
    anna, bert, carl = (t.knight(p) for p in ("Anna", "Bert", "Carl"))
    assert anna["vp"] == 20 + 1 + 6 + 12 and anna["cp"] == 100 + 6 + 10
    assert bert["vp"] == 6 + 6 + 6 and carl["vp"] == 10 + 6 + 6
    assert not T.pending(t.state) and anna["tasks"][0]["status"] == "done"
    assert bert["tasks"][0]["status"] == "failed"
    assert all(k in deck_cards(t, "knights") for k in ("Sir Belleus", "Sir Hemison"))


def test_t15_camelot_once_a_game(table):
    """ADVENTURES 5:6, optional rule: the Tournament at Camelot occurs once a game. Once it has
    been heard of, 5:6 is rolled again; heard of anyway, it comes to nothing."""
    t = table(pos(), dice=[5, 6, 1, 2], options={"rules": ("camelot_tournament_once",)})
    t.state["tournaments"] = {"next": 2, "pending": [], "camelot_heard": 1, "jousted": {}}
    entry = rs.roll_adventure(t.session(), {"kind": "king", "name": "King Lot"})
    assert entry.key != "tournament_at_camelot" and t.saw("roll again")
    task = camelot(t)
    assert task["status"] == "cancelled" and not T.pending(t.state)
    # without the option a second one is held (once the first is over)
    t = table(pos())
    t.state["tournaments"] = {"next": 2, "pending": [], "camelot_heard": 1, "jousted": {}}
    assert camelot(t)["status"] == "active" and T.pending(t.state)


def test_t16_signal_honour(table):
    """OPTIONAL RULES, Signal Honour: the winner of the Tournament at Camelot rolls for an
    office; 1-3 Ambassador-at-Large, accepted by default: it replaces the 12 VP (the 10 CP
    stay). A non-Arthurian rolling Lord Admiral (4) gets no offer and keeps the VP. The
    Ambassador adds 3 to castle reactions and 2 to Kings'; an unfriendly answer of King Arthur
    (6 or less) takes the office away."""
    extra = deck("Sir Belleus", "Sir Hemison", "Sir Gauter")
    t = table(pos(cp=100, vp=20, at="Camelot Castle", where="inside", extra=extra),
              dice=[4] + UP * 3 + [2], orders={"Anna": "stay"},
              options={"rules": ("signal_honour",)})
    camelot(t)
    game_turn(t)
    rec = t.knight()
    assert rec["office"]["key"] == "ambassador" and rec["cp"] == 115 and rec["vp"] == 26
    assert t.saw("Anna is made Ambassador-at-Large by King Arthur.")
    assert T.office_bonus(rec, "castle") == 3 and T.office_bonus(rec, "king") == 2
    t = table(pos(cp=100, vp=20, at="Camelot Castle", where="inside", extra=extra),
              dice=[4] + UP * 3 + [4], orders={"Anna": "stay"},
              options={"rules": ("signal_honour",)})
    camelot(t)
    game_turn(t)
    assert not t.knight().get("office") and t.knight()["vp"] == 38
    assert t.saw("Only a knight of the Round Table may be Lord Admiral")
    # an unfriendly answer of King Arthur forfeits it
    t = table(pos(cp=120, vp=40, at="Camelot Castle", where="inside", lord="King Mark",
                  anna='office = {key = "ambassador", label = "Ambassador-at-Large"}'),
              dice=HEAL[6], orders={"Anna": "request heal of arthur"})
    requests.requests_phase(t.session())
    assert not t.knight().get("office") and t.saw("loses the office of Ambassador-at-Large")


def test_t17_war_duke_and_lord_admiral_sole_holders(table):
    """OPTIONAL RULES, Signal Honour: Lord Admiral and War Duke go to an Arthurian PK, one at a
    time; the War Duke gets d3 more Men-at-Arms from King Arthur (at most six) and loses the
    office with a Knight's Fate from anyone but King Arthur."""
    t = table(pos(cp=100, vp=20, at="Camelot Castle", where="inside",
                  anna="arthurian = true",
                  others={"Bert": 'arthurian = true\noffice = {key = "war_duke", '
                                  'label = "War Duke"}\n' + inside("Camelot Castle")}),
              dice=[5, 4])
    assert not T.signal_honour(t.session()) and t.saw("There is a War Duke already")
    assert T.signal_honour(t.session()) and t.knight()["office"]["key"] == "lord_admiral"
    assert t.knight()["office"]["flagship"] == "Camelot Town"
    t = table(pos(cp=120, vp=40, at="Camelot Castle", where="inside", lord="King Arthur",
                  anna='arthurian = true\noffice = {key = "war_duke", label = "War Duke"}'),
              dice=[4, 2])
    p = requests.person({"kind": "king", "name": "King Arthur", "vl": 1}, "arthur")
    requests.men_at_arms(t.session(), p)
    assert len(t.knight()["men_at_arms"]) == 6
    from companion.koc.engine.fate import suffer_fate

    t = table(pos(anna='office = {key = "war_duke", label = "War Duke"}'), dice=[3])
    suffer_fate(t.session(), {"kind": "knight", "name": "Sir Kay", "vl": 0})
    assert not t.knight().get("office")


# ============================================================================== Special
def special_table(table, *, dice, anna_at="Camelot Castle", bert_at="Tintagel", extra="",
                  options=None):
    t = table(pos(cp=100, vp=20, at=anna_at, where="inside", extra=extra,
                  others={"Bert": "cp = 60\nvp = 6\n" + inside(bert_at)}),
              dice=dice, orders={"Anna": "stay", "Bert": "stay"}, options=options)
    t.state["special_tournament"] = {"turn": 1, "announced": 0, "by": "Bert",
                                     "site": "Camelot Castle", "npks": 5, "held": False}
    for p in ("Anna", "Bert"):
        tasks.add(t.session(p), "special_tournament", "Camelot Castle", awards={}, route=None,
                  why="the great tournament", on_done="tournament_wait", held_on=1)
    if anna_at == "Camelot Castle":
        T.arrived(t.session(), t.knight()["tasks"][0])
    return t


def test_t18_special_tournament_with_whoever_came(table):
    """MESSAGES 11 and Special Tournament at Camelot: it is held on its day (after the last
    player turn of that game turn) with the PKs waiting in Camelot Castle and five drawn NPKs;
    Bert, who did not come, has lost his place. Anna wins: 12 VP and a roll on the prize chart
    (3: a faithful Arthurian Dwarf)."""
    t = special_table(table, dice=[4, 4] + UP * 5 + [3], extra=deck(*WEAK))
    game_turn(t)
    rec = t.knight()
    assert t.saw("The great tournament at Camelot begins: Anna rides in it.")
    assert lists_text(t).count("(CP") == 6
    assert rec["vp"] == 20 + 6 + 12 and rec["dwarf"] == {"arthurian": True, "spares": [],
                                                           "faithful": True}
    assert t.knight("Bert")["tasks"][0]["status"] == "cancelled"
    assert rec["tasks"][0]["status"] == "done" and t.state["special_tournament"]["held"]
    assert before(t, "great tournament at Camelot begins", "End of game turn 1")


def test_t19_special_tournament_nobody_came(table):
    """Special Tournament at Camelot: if no PK reaches Camelot Castle in time it does not take
    place."""
    t = special_table(table, dice=[4, 4], anna_at="Hampshire")
    game_turn(t)
    assert t.saw("The great tournament at Camelot does not take place: no knight came.")
    assert all(t.knight(p)["tasks"][0]["status"] == "cancelled" for p in ("Anna", "Bert"))
    assert t.state["special_tournament"]["held"] and not t.saw("the lists, from the top")


def test_t20_special_waiting_vp_and_once_a_game(table):
    """Special Tournament at Camelot: 1 VP a turn of waiting in Camelot Castle before it
    begins; with the optional rule a second Message 11 is read again."""
    t = special_table(table, dice=[4, 4], extra=deck(*WEAK))
    t.state["special_tournament"]["turn"] = 3
    t.knight()["tasks"][0]["since_wait"] = 0
    game_turn(t)
    assert t.knight()["vp"] == 21 and not t.state["special_tournament"]["held"]
    assert any("held at the end of game turn 3; waiting there: Anna" in line
               for line in T.summary(t.state))
    t = table(pos(), dice=[5, 6, 3, 4], options={"rules": ("special_tournament_once",)})
    t.state["special_tournament"] = {"announced": 0, "turn": 3, "held": True}
    rs.message(t.session())
    assert t.saw("already been proclaimed once")


@pytest.mark.parametrize("die,check", [
    (1, lambda rec: rec["cp"] == 120 and rec["arthur"]["honour"] == 2),
    (2, lambda rec: rec["lady"] and not rec["lady"]["enchantress"]),
    (3, lambda rec: rec["dwarf"]["arthurian"] and rec["dwarf"]["faithful"]),
    (4, lambda rec: {"key": "valiant_charger", "wl": 5} in rec["items"] and
        kn.movement_allowance(rec) == 4),
    (5, lambda rec: kn.has_item(rec, "unbreakable_lance")),
    (6, lambda rec: kn.has_item(rec, "free_passage")),
])
def test_t21_special_prize_chart(table, die, check):
    """Special Tournament at Camelot, the prize: 1 the King's Honour (20 CP, +2 once with King
    Arthur); 2 a Lady's Favour (Enchantresses redrawn: the Queen of North Wales, on top, is
    put aside; accepted by default); 3 a faithful Dwarf; 4 a Valiant Charger (WL 3+d3: 2, so 5; four
    areas a turn); 5 a lance that never breaks; 6 a writ of Free Passage (one exile)."""
    t = table(pos(cp=100, vp=20, extra=deck(ladies=("Queen of North Wales", "Lady Lyonesse"))),
              dice=[die] + ([2] if die == 4 else []))
    assert T.special_prize(t.session()) is not None
    assert check(t.knight())
    if die == 2:
        assert "Queen of North Wales" in deck_cards(t, "ladies")
        assert "Lady Lyonesse" in deck_cards(t, "ladies")


def test_t22_special_prize_owned_rolled_again(table):
    """Special prize: a prize the winner already has (an Unbreakable Lance) is rolled again."""
    t = table(pos(), dice=[5, 6])
    t.knight()["items"].append({"key": "unbreakable_lance"})
    assert T.special_prize(t.session()) == "free_passage" and t.saw("roll again")


# ============================================================================== PK tournaments
CASTLE = '\n[castles]\n"Anna\'s castle" = {area = "Hampshire", owner = "Anna", kind = "pk"}\n'
AT_HOME = ('own_castle = "Anna\'s castle"\nat = {area = "Hampshire", where = "inside", '
           'castle = "Anna\'s castle"}')


def pk_castle_table(table, dice, orders, bert_at="Hampshire"):
    text = pos(cp=100, vp=20, at="Hampshire", extra=CASTLE + deck(*WEAK),
               others={"Bert": knight(at=bert_at),
                       "Carl": "cp = 50\nvp = 10\n" + inside("Camelot Castle")})
    text = text.replace('at = "Hampshire"\nlord = "King Arthur"\n', AT_HOME + "\nlord = "
                        '"King Arthur"\n', 1)
    return table(text, dice=dice, orders=orders)


def test_t23_pk_tournament_declared_attended_and_held(table):
    """ADVENTURES, Player Knight Tournaments: Anna, inside her castle, declares a tournament;
    every other PK is told at once and answers in his next player turn of a later game turn
    (Bert attends, Carl declines by default). It begins once all who attend have arrived (in
    Carl's turn, when the last answer is in); the owner rides too (default); 3 drawn NPKs.
    Champion Anna: 12 VP and 10 CP; Bert has only his joust awards."""
    t = pk_castle_table(table, dice=[4, 4, 6, 4], orders={"Anna": "declare tournament",
                                                          "Bert": "stay"})
    game_turn(t)
    assert any("declares a tournament at Anna's castle" in e["text"] and e["to"] == "public"
               for e in t.ctx.events)
    record = T.pending(t.state)[0]
    assert record["invited"] == {"Bert": None, "Carl": None}
    assert "attend tournament" in legal_lines(t.world, t.state, "Bert")
    next_turn(t, dice=[4, 4, 6, 4] + UP * 4, orders={"Anna": "stay",
                                                    "Bert": "attend tournament\nstay"})
    game_turn(t)
    assert record["invited"] == {"Bert": "yes", "Carl": "no"}
    assert t.saw("Bert will attend Anna's tournament at Anna's castle.")
    assert t.saw("Bert is admitted to Anna's castle for the tournament.")
    begin = next(i for i, e in enumerate(t.events) if "Anna's tournament at Anna's castle "
                 "begins" in e)
    assert t.events.index("— Carl's turn (game turn 2), inside Camelot Castle.") < begin
    anna, bert = t.knight("Anna"), t.knight("Bert")
    assert anna["vp"] == 20 + 6 + 12 and anna["cp"] == 100 + 6 + 10
    assert bert["vp"] == 6 + 6 and bert["tasks"][0]["status"] == "failed"
    assert not T.pending(t.state)


def test_t24_pk_tournament_without_the_owner_or_void(table):
    """Player Knight Tournaments: the owner may stay out of the lists (answer
    tournament_host: no); if nobody at all rides, it is not held."""
    t = pk_castle_table(table, dice=[4], orders={"Anna": "declare tournament\n"
                                                       "answer tournament_host: no"})
    t.state["koc"]["order"] = ["Anna", "Bert", "Carl"]
    t.knight("Bert")["slain"] = True
    t.knight("Carl")["slain"] = True
    t.play("Anna")
    assert t.saw("The tournament at Anna's castle is not held: no knight is left to ride in it.")
    assert not T.pending(t.state)


def test_t25_tournament_orders(table):
    """Orders: 'declare tournament', 'attend tournament', 'decline tournament' (the last two
    answer the question 'tournament'); errors are located; declaring needs a castle of one's
    own."""
    world = KIND.world
    orders = parse_orders(world, ["Anna", "Bert"], "declare tournament\n", "a.txt")
    assert orders.plan[0]["do"] == "declare"
    orders = parse_orders(world, ["Anna", "Bert"], "attend tournament\n", "a.txt")
    assert orders.answers[0]["key"] == "tournament" and orders.answers[0]["answer"] == "yes"
    orders = parse_orders(world, ["Anna", "Bert"], "decline tournament\n", "a.txt")
    assert orders.answers[0]["answer"] == "no"
    for text, needle in (("declare\n", "expected 'tournament'"),
                         ("attend tournament\ndecline tournament\n", "only one answer"),
                         ("declare tournament now\n", "unexpected text")):
        with pytest.raises(OrdersRejected) as err:
            parse_orders(world, ["Anna", "Bert"], text, "a.txt")
        assert needle in err.value.render() and "a.txt:" in err.value.render()
    t = table(pos())
    orders = parse_orders(world, ["Anna"], "declare tournament\n", "a.txt")
    with pytest.raises(OrdersRejected) as err:
        check_orders(world, t.state, "Anna", orders, "a.txt")
    assert "holds none" in err.value.render()
    t = pk_castle_table(table, dice=[], orders={})
    check_orders(world, t.state, "Anna", orders, "a.txt")
    assert "step 1: declare a tournament at his castle" in acknowledge(world, t.state, "Anna",
                                                                     orders)[0]
    assert "declare tournament" in legal_lines(world, t.state, "Anna")


# ============================================================================== King Arthur 7
def arthur_joust_table(table, dice, cp=200):
    t = table(pos(cp=cp, vp=40, at="Camelot Castle", where="inside", lord="King Mark", turn=2,
                  extra=deck("Sir Urry", "Sir Baudwin", "Sir Ozanna", "Sir Kay")),
              dice=dice, orders={"Anna": "stay"})
    requests.arthur_answer(t.session(), "task_joust", "heal")
    t.knight()["tasks"][0]["since"] = 1
    t.knight()["wounds"] = 0
    return t


def test_t26_arthurs_joust_won(table):
    """PRAYERS & REQUESTS, King Arthur 7: the PK jousts three Arthurian NPKs (in his next
    player turn, held at Camelot for it), tournament-style, from the lowest placed up; all
    beaten, King Arthur is friendly and grants the request."""
    t = arthur_joust_table(table, dice=[4] + LOW * 3)
    game_turn(t)
    rec = t.knight()
    assert t.saw("does not move this turn: the day of the joust before King Arthur")
    assert "1. Anna (CP 200, a player knight); 2. Sir Baudwin (CP 110); 3. Sir Urry (CP 110); " \
        "4. Sir Ozanna (CP 110)" in lists_text(t)
    assert t.saw("joust 1: Anna (WL 20) rides against Sir Ozanna")
    assert rec["tasks"][0]["status"] == "done" and rec["arthur"]["task"] is None
    assert "joust" not in rec["arthur"] and rec["arthur"]["bonus"] == 1
    assert t.saw("King Arthur grants the request (the joust is won)")
    assert "Sir Kay" not in lists_text(t)


def test_t27_arthurs_joust_lost(table):
    """King Arthur 7: beaten in the lists, the PK takes a Knight's Fate from King Arthur (a die
    + his VL 1: 5 + 1 = 6, to report to the victor's Lord, accepted by default)."""
    t = arthur_joust_table(table, dice=[4] + LOW + UP + [5], cp=120)
    game_turn(t)
    rec = t.knight()
    assert t.saw("Knight's Fate for Anna from King Arthur: Report to the victor's lord.")
    assert rec["tasks"][0]["status"] == "failed" and rec["arthur"]["task"] is None
    assert t.saw("King Arthur's task has failed")


def test_t35_wounded_before_the_day_of_arthurs_joust(table):
    """King Arthur 7 (decision): wounds dealt in another player's turn heal in the knight's own
    healing phase, so he may come to the joust with them, even at WL 0. The lists tend their
    contestants after each joust (COMBAT, Tournaments), and at the table those wounds would
    have healed at the close of the turn that dealt them: rules edition 3 tends him before the
    first joust too (his 20 wounds healed: he rides at WL 20 and wins). A game begun under
    edition 2 keeps its reading: he rode at WL 0, was beaten without a pass and took King
    Arthur's Knight's Fate. Poisoned wounds are not healed (t36)."""
    t = arthur_joust_table(table, dice=[4] + LOW * 3)
    t.knight()["wounds"] = 20
    game_turn(t)
    assert t.saw("Anna is tended before the joust: his wounds are healed.")
    assert t.saw("joust 1: Anna (WL 20) rides against Sir Ozanna")
    assert t.knight()["tasks"][0]["status"] == "done"
    t = arthur_joust_table(table, dice=[4, 2])
    t.state["edition"] = 2
    t.knight()["wounds"] = 20
    game_turn(t)
    assert not t.saw("tended before the joust")
    assert t.saw("joust 1: Anna (WL 0) rides against Sir Ozanna")
    assert t.saw("Knight's Fate for Anna from King Arthur")
    assert t.knight()["tasks"][0]["status"] == "failed"


def test_t36_poisoned_wounds_stay_for_arthurs_joust(table):
    """King Arthur 7 with Poisoned Wounds: only normal wounds are tended before the joust
    (t35); 5 poisoned wounds stay, and he rides at his held WL 20 less 5. (Winning, he is
    granted the request he made, 'heal': then King Arthur cures them.)"""
    t = arthur_joust_table(table, dice=[4] + LOW * 3)
    from companion.koc.engine import knight as kn

    kn.poison(t.knight(), 5)
    t.knight()["wounds"] = 15
    game_turn(t)
    assert t.saw("joust 1: Anna (WL 15) rides against Sir Ozanna")
    assert t.knight()["tasks"][0]["status"] == "done" and t.knight()["poison"] == 0


def test_t28_arthurs_joust_away_from_camelot(table):
    """King Arthur 7 (decision): away from Camelot when the joust is due, the task fails (no
    Knight's Fate)."""
    t = arthur_joust_table(table, dice=[4, 6])
    t.knight()["at"] = {"area": "Hampshire", "where": "area"}
    game_turn(t)
    assert t.knight()["tasks"][0]["status"] == "failed" and not t.saw("Knight's Fate")


# ============================================================================== open cases
@pytest.mark.parametrize("state,why", [
    ('prison = {by = "castle", jailor = "Sir Kay", castle = "Tintagel", direct = false}\n'
     'at = {area = "Tintagel", where = "prison"}', "in prison"),
    ('at = "Faerie"', "in Faerie"),
    ("mad = {since = 1, tests = 0}", "mad"),
    ("asleep = true", "in an enchanted sleep"),
    ('animal = "Hart"', "animal form"),
    ("slain = true", "slain"),
    ('guard = {castle = "Tintagel"}', "on guard duty"),
])
def test_t29_camelot_does_not_wait_for_who_cannot_come(table, state, why):
    """Docs 'Tournaments: records and decisions': the Tournament at Camelot waits for every PK
    bound for it, except those who cannot come now (in prison, in Faerie, mad, asleep, in
    animal form, slain, on guard duty): when the rest are there it begins without them, and
    they lose their place. A knight merely on his way is waited for."""
    extra = deck("Sir Belleus", "Sir Hemison", "Sir Gauter")
    t = table(pos(cp=100, vp=20, at="Camelot Castle", where="inside", extra=extra,
                  others={"Bert": "cp = 60\nvp = 6\nlord = \"King Arthur\"\nat = \"Somerset\""}),
              dice=UP * 3)
    camelot(t)
    record = T.pending(t.state)[0]
    assert T.ready(t.session(), record) == "wait"
    fields = {}
    import tomllib

    fields = tomllib.loads(state)
    bert = t.knight("Bert")
    for key, value in fields.items():
        if key == "at":
            bert["at"] = ({"area": value, "where": "area"} if isinstance(value, str)
                          else dict(value))
        else:
            bert[key] = value
    assert why in T.barred(bert, t.world)
    T.check_pending(t.session())
    assert t.saw("King Arthur's tournament at Camelot begins: Anna rides in it.")
    assert bert["tasks"][0]["status"] == "cancelled"
    assert t.saw("is held without Bert")


def test_t30_nobody_left_bound_voids_it(table):
    """Decision: when no knight is bound for the Tournament at Camelot any more (all strayed
    from the route or lost their place) it is not held."""
    t = table(pos(cp=100, vp=20, at="Hampshire"))
    task = camelot(t)
    tasks.fail(t.session(), task, "it left the most direct route")
    T.check_pending(t.session())
    assert not T.pending(t.state) and t.saw("is not held: no knight is left")


def test_t31_retention_at_a_tournament(table):
    """COMRADE & COMPANION RETENTION: comrades at a tournament (waiting in its castle, or
    jousting this turn) do not check for leaving."""
    t = table(pos(cp=100, vp=20, at="Camelot Castle", where="inside", lord="King Mark",
                  anna='comrades = ["Sir Griflet"]'))
    camelot(t)
    assert T.keeps_company(t.session())
    retention_phase(t.session())
    assert not t.saw("Luck test") and t.knight()["comrades"]


def test_t32_no_stall_outside_a_player_turn(table):
    """missing=wait never stalls a tournament held outside a player turn: the special
    tournament's winner answers the Lady's Favour from his orders, standing answers or the
    default, and the game turn ends."""
    t = special_table(table, dice=[4, 4] + UP * 5 + [2], options={"missing": "wait"},
                      extra=deck(*WEAK, ladies=("Lady Lyonesse",)))
    game_turn(t)
    assert t.knight()["lady"]["name"] == "Lady Lyonesse" and t.state["koc"]["turn"] == 2
    assert not t.state["pending"]


def test_t33_reports_and_position(table):
    """Reports: the tournaments proclaimed are public news (and the order help names the
    tournament orders); a position with a pending tournament and an office reads back the
    same."""
    import json

    t = table(pos(cp=100, vp=20, at="Hampshire", others={"Bert": knight(at="Somerset")},
                  anna='office = {key = "ambassador", label = "Ambassador-at-Large"}'))
    camelot(t)
    public = KIND.view(t.state, "public")
    assert any("King Arthur's tournament at Camelot" in line for line in public["tournaments"])
    mine = KIND.view(t.state, "Anna")
    assert mine["journal"]["office"] == "Ambassador-at-Large"
    from companion.koc.views import ORDER_HELP, report
    from companion.render.report_text import render_text

    assert "declare tournament" in ORDER_HELP
    public["envelope"] = {"game_id": "g", "date": "today", "link": "x", "link_label": "x",
                          "turn": 1}
    text = render_text(report(KIND, public))
    assert "Tournaments proclaimed" in text and "King Arthur's tournament at Camelot" in text
    state = {k: v for k, v in t.state.items() if k != "events"}
    back = KIND.read_position(KIND.write_position(t.state), "p.toml", {})
    assert json.loads(json.dumps({k: v for k, v in back.items() if k != "events"})) == \
        json.loads(json.dumps(state))


def before(t, first, second):
    events = t.events
    a = next(i for i, e in enumerate(events) if first in e)
    b = next(i for i, e in enumerate(events) if second in e)
    return a < b


def test_t34_a_paused_turn_holds_the_same_tournament(table):
    """Questions, answers and pausing: with missing=wait the host's own question
    (`tournament_host`) waits for his answer; the turn is rolled back and, answered, played
    again from its start with the same dice: the same tournament, declared and held."""
    text = pos(cp=100, vp=20, at="Hampshire", extra=CASTLE + deck(*WEAK))
    text = text.replace('at = "Hampshire"\nlord = "King Arthur"\n', AT_HOME + "\nlord = "
                        '"King Arthur"\n', 1)
    t = table(text, dice=[4] + UP * 3, orders={"Anna": "declare tournament"},
              options={"missing": "wait"})
    assert t.play() is False
    assert t.state["pending"]["Anna"]["question"]["key"] == "tournament_host"
    assert not T.pending(t.state) and t.knight()["vp"] == 20
    next_turn(t, orders={"Anna": "answer tournament_host: yes"})
    assert t.play() is True
    assert t.saw("Anna's tournament at Anna's castle begins: Anna rides in it.")
    assert t.knight()["vp"] == 20 + 6 + 12 and not t.state["pending"]


def test_t37_wounded_before_another_tournament(table):
    """HEALING WOUNDS and COMBAT, Tournaments (decision, as for King Arthur's joust, t35):
    wounds dealt in another player's turn would have healed at its close, and the lists heal
    their contestants after each joust. Carl, waiting in Camelot Castle with 10 wounds from
    another player's turn, is tended before the first joust of the Tournament at Camelot
    (rules edition 3, tournaments.LISTS_TENDED); Bert, in whose player turn it begins, keeps
    his 4 wounds (they may be this turn's: only the end of a turn heals those). A game begun
    under edition 2 keeps its reading: Carl rode wounded."""
    extra = deck("Sir Belleus", "Sir Hemison", "Sir Gauter")
    for edition in (3, 2):
        t = table(pos(cp=100, vp=20, at="Camelot Castle", where="inside", turn=2, extra=extra,
                      others={"Bert": knight(at="Camelot Town", cp=60, vp=6),
                              "Carl": "cp = 50\nvp = 10\n" + inside("Camelot Castle")}),
                  dice=[4, 4] + UP * 5 + [4],
                  orders={"Anna": "stay", "Bert": "move Camelot Castle", "Carl": "stay"})
        t.state["edition"] = edition
        camelot(t)
        for p in ("Anna", "Carl"):
            [x for x in t.knight(p)["tasks"] if x.get("waiting")][0]["since_wait"] = 1
        t.knight("Carl")["wounds"] = 10
        t.knight("Bert")["wounds"] = 4
        del t.ctx.events[:]
        game_turn(t)
        assert t.saw("tournament at Camelot begins")
        assert not t.saw("Bert is tended before the tournament")
        assert t.saw("Bert (WL 2) rides against") or t.saw("rides against Bert (WL 2)")
        if edition == 3:
            assert t.saw("Carl is tended before the tournament: his wounds are healed.")
            assert before(t, "Carl is tended before the tournament", "the lists, from the top")
            assert not t.saw("Carl (WL 0)")
        else:
            assert not t.saw("tended before the tournament")
            assert t.saw("Carl (WL 0)")


def test_t38_the_knight_whose_turn_it_is_is_tended_of_other_turns_wounds(table):
    """HEALING WOUNDS and COMBAT, Tournaments (decision, rules edition 4,
    tournaments.OTHER_TURNS_TENDED; t37): a wound heals at the close of the turn that dealt it,
    or after a joust. Anna begins her player turn of game turn 2 with 3 wounds from Bert's
    attack in his turn of game turn 1 (noted in her Luck phase, die 4), then takes 2 more from
    a brigand on her way (her 4 against his 6; then 18 against 2). In the lists the same turn
    she is tended of the 3 dealt before her turn and keeps the 2 of this turn: she rides at WL
    8 against Sir Kay (and wins, 18 against 3). A game begun under edition 3 keeps its reading:
    the knight whose player turn it is keeps every wound, and she rode at WL 5."""
    from companion.koc.engine.combat import fight, foe
    from companion.koc.engine.turn import luck_phase

    for edition in (4, 3):
        t = table(pos(cp=100, vp=20, turn=2, anna="wounds = 3", others={"Bert": knight()}),
                  dice=[4] + [1, 1, 2, 3, 3] + [6, 6, 6, 1, 1] + LOW)
        t.state["edition"] = edition
        s = t.session()
        luck_phase(s)
        fight(s, [foe("brigand", "brigand 1", 1, 2)])
        assert t.saw("Pass: Anna 4, brigand 1 6; Anna WL 5, brigand 1 WL 1.")
        assert t.knight()["wounds"] == 5
        T.hold(s, "The test", "Hampshire", ["Anna"], [card("Sir Kay")])
        if edition == 4:
            assert t.saw("Anna is tended before the tournament: 3 wounds dealt before his turn "
                         "heal; he keeps the 2 of this turn.")
            assert t.saw("joust 1: Anna (WL 8) rides against Sir Kay (WL 14)")
        else:
            assert not t.saw("tended before the tournament")
            assert t.saw("joust 1: Anna (WL 5) rides against Sir Kay (WL 14)")
        assert t.saw("Pass: Anna 18, Sir Kay 3") and t.knight()["wounds"] == 0
        assert t.unused_dice == []


def test_t39_a_member_of_a_joint_turn_keeps_this_turns_wounds(table):
    """HEALING WOUNDS and COMBAT, Tournaments (decision, rules edition 4,
    tournaments.OTHER_TURNS_TENDED): a joint turn is the player turn of every knight of the
    party. Bert rides in Anna's party and takes 2 wounds in the joint turn (after both Luck
    phases, dice 4 and 4); in the lists that turn he keeps them, as Anna would hers: he rides
    at WL 4 against her (the lowest placed first), then she against Sir Kay. A game begun
    under edition 3 keeps its reading: only the leader counted as the knight whose player turn
    it is, and Bert was tended of all his wounds (WL 6)."""
    from companion.koc.engine import party
    from companion.koc.engine.turn import luck_phase

    for edition in (4, 3):
        t = table(pos(cp=100, vp=20, extra='[parties]\nAnna = ["Bert"]\n',
                      others={"Bert": knight()}),
                  dice=[4, 4] + UP * 2)
        t.state["edition"] = edition
        s = t.session()
        bert = party.member_sessions(s)[0]
        luck_phase(s)
        luck_phase(bert)
        t.knight("Bert")["wounds"] += 2
        T.hold(s, "The test", "Hampshire", ["Anna", "Bert"], [card("Sir Kay")])
        if edition == 4:
            assert not t.saw("tended before the tournament")
            assert t.saw("joust 1: Bert (WL 4) rides against Anna (WL 10)")
        else:
            assert t.saw("Bert is tended before the tournament: his wounds are healed.")
            assert t.saw("joust 1: Bert (WL 6) rides against Anna (WL 10)")
        assert t.unused_dice == []
