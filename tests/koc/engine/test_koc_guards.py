"""Guard duty at a player knight's castle: a casebook (rules: CASTLES, a PK's own castle and
its guards; Knight's Fate 14, sending a defeated knight to guard; SEQUENCE OF PLAY, movement
does not occur on guard duty). Dice are explicit."""
from __future__ import annotations

import pytest
from kocpos import card, pos

from companion.engine.orders import OrdersRejected
from companion.koc.engine import party
from companion.koc.engine.combat import pk_fighter
from companion.koc.engine.fate import give_fate, give_fate_to_pk
from companion.koc.engine.game import run_player_turn
from companion.koc.engine.session import Session
from companion.koc.kind import KIND

CASTLE = "Anna's castle"


def with_castle(t, guards=1):
    """Anna owns a castle in Hampshire, held by ``guards`` Knight cards."""
    names = ["Sir Belleus", "Sir Gauter", "Sir Hemison", "Sir Kay", "Sir Dinadan", "Sir Ozanna"]
    t.state["castles"] = {CASTLE: {"area": "Hampshire", "owner": "Anna", "kind": "pk",
                                   "granted_by": "King Arthur",
                                   "guards": [card(n) for n in names[:guards]]}}
    t.knight("Anna")["own_castle"] = CASTLE
    t.knight("Anna")["friendly"].append(CASTLE)


def two(bert=""):
    return pos(cp=100, vp=20, at="Hampshire",
               others={"Bert": 'cp = 60\nvp = 6\nat = "Hampshire"\nlord = "King Arthur"\n' + bert})


def on_guard(t, player="Bert"):
    rec = t.knight(player)
    rec["at"] = {"area": "Hampshire", "where": "inside", "castle": CASTLE}
    rec["guard"] = {"castle": CASTLE, "owner": "Anna", "since": 1}
    t.state["castles"][CASTLE]["guards"].append({"kind": "pk", "name": rec["name"],
                                                 "player": player})


def test_g01_npk_sent_to_guard(table):
    """Knight's Fate given by a PK who owns a castle: a yielding knight may be sent to guard it
    (six guards at most); his card stays out of the deck while he guards."""
    t = table(two(), dice=[6, 6], orders={"Anna": "answer fate: sends as guard"})
    with_castle(t)
    kay = card("Sir Lamorak")
    give_fate(t.session("Anna"), {"kind": "knight", "name": kay["name"], "vl": kay["vl"],
                                  "card": kay})
    guards = t.state["castles"][CASTLE]["guards"]
    assert [g["name"] for g in guards][-1] == "Sir Lamorak"
    assert "Sir Lamorak" not in t.state["decks"]["knights"]["discard"]
    assert t.saw("Anna sends Sir Lamorak to guard Anna's castle.")


def test_g02_no_seventh_guard(table):
    """A castle has six guards at most: then 'sends as guard' is not offered."""
    t = table(two(), dice=[6, 6], orders={"Anna": "answer fate: sends as guard"})
    with_castle(t, guards=6)
    kay = card("Sir Lamorak")
    give_fate(t.session("Anna"), {"kind": "knight", "name": kay["name"], "vl": kay["vl"],
                                  "card": kay})
    assert len(t.state["castles"][CASTLE]["guards"]) == 6
    assert t.saw("Anna lets Sir Lamorak go freely.")


def test_g03_pk_sent_to_guard(table):
    """Knight's Fate 14 chosen by a PK for a PK: sent to guard the victor's castle (he may
    refuse it for 12 VP; here he accepts): he stands inside it, on guard, out of any party."""
    t = table(two(), orders={"Anna": "answer fate_pk: sends as guard"})
    with_castle(t)
    give_fate_to_pk(t.session("Anna"), pk_fighter(Session(t.game, "Bert")))
    bert = t.knight("Bert")
    assert bert["guard"]["castle"] == CASTLE and bert["at"]["where"] == "inside"
    assert {"kind": "pk", "name": "Bert", "player": "Bert"} in \
        t.state["castles"][CASTLE]["guards"]
    assert not party.able(bert)


def test_g04_refused(table):
    """Knight's Fate 14 between PKs: being sent as a guard may be refused (12 VP)."""
    t = table(two(), orders={"Anna": "answer fate_pk: sends as guard",
                             "Bert": "on refuse_fate sends_as_guard: refuse"})
    with_castle(t)
    give_fate_to_pk(t.session("Anna"), pk_fighter(Session(t.game, "Bert")))
    assert "guard" not in t.knight("Bert") and t.knight("Bert")["vp"] == 1


def test_g05_a_quiet_turn_on_guard(table):
    """On guard duty: no movement; an encounter roll with the castle's guards as his party
    (two guards here: 3 is nothing)."""
    t = table(two(), dice=[4, 3])
    with_castle(t)
    on_guard(t)
    run_player_turn(t.game, "Bert")
    assert t.saw("Bert stands guard at Anna's castle.")
    assert t.saw("Encounter roll around Anna's castle: 3 (an encounter on 2 or less): nothing.")
    assert t.knight("Bert")["at"]["castle"] == CASTLE and t.unused_dice == []


def test_g06_what_passes_by(table):
    """On guard duty, an encounter that is not an attack passes by the walls (Hampshire's
    countryside: 8, +1 for the land, is a Lady)."""
    t = table(two(), dice=[4, 1, 4, 4])
    with_castle(t)
    on_guard(t)
    run_player_turn(t.game, "Bert")
    assert t.saw("Countryside encounters: 4+4 = 8 +1 = 9 -> Lady [lady]")
    assert t.saw("Whatever it is (Lady) passes by: the guards keep within the walls.")
    assert t.knight("Bert")["guard"] and t.unused_dice == []


def test_g07_knights_storm_the_castle(table):
    """On guard duty, attacking knights storm the castle and the garrison fights with the
    guard (NPK party combat once he is down); beaten, he is a guard no more, and the knight who
    beat him gives his Knight's Fate. Three knights ride up (countryside 4 +1), the first
    reacts 2 (attack, calling others: one more); Bert's lance (3) against Lamorak's (10) fells
    him; the garrison's 5 + Sir Belleus's WL loses to the four knights; Knight's Fate 1 +
    Lamorak's VL 3 = 4, a free release."""
    draw = ["Sir Lamorak", "Sir Galahad", "Sir Percival", "Sir Dinadan"]
    t = table(two(), dice=[4, 1, 2, 2, 1, 1, 1,      # luck, roll, countryside, reaction, called
                           1, 1, 1, 2, 4, 4,         # the pass: Bert 3, Lamorak 10
                           4, 1, 1, 1,               # NPK party combat
                           1])                       # Knight's Fate
    with_castle(t)
    on_guard(t)
    t.state["decks"]["knights"]["draw"][:0] = draw
    run_player_turn(t.game, "Bert")
    assert t.saw("Knights ride up to the castle: Sir Lamorak, Sir Galahad, Sir Percival.")
    assert t.saw("They storm Anna's castle!")
    assert t.saw("against Sir Lamorak (WL 27), Sir Galahad (WL 25), Sir Percival (WL 22), "
                 "Sir Dinadan (WL 15).")
    assert t.saw("Party combat: the PK's side ")
    assert t.saw("Knight's Fate for Bert from Sir Lamorak: ")
    assert "guard" not in t.knight("Bert")
    assert [g["name"] for g in t.state["castles"][CASTLE]["guards"]] == ["Sir Belleus"]
    assert t.unused_dice == []


def test_g08_leave_guard(table):
    """Leaving guard duty breaks one's word: 12 VP; then he moves as ordered."""
    t = table(two(), dice=[4, 6, 6], orders={"Bert": "leave guard\nmove Hampshire, Somerset"})
    t.knight("Bert")["vp"] = 20
    with_castle(t)
    on_guard(t)
    run_player_turn(t.game, "Bert")
    bert = t.knight("Bert")
    assert "guard" not in bert and bert["vp"] == 8 and bert["at"]["area"] == "Somerset"
    assert all(g.get("player") != "Bert" for g in t.state["castles"][CASTLE]["guards"])


def test_g09_orders_on_guard(table):
    """Orders: on guard duty a move without 'leave guard' is refused with its line and a
    suggestion; 'leave guard' is offered among the legal lines; out of a castle counter the
    first move is into the area it stands in."""
    t = table(two())
    with_castle(t)
    on_guard(t)
    orders = KIND.parse_orders(t.state, "Bert", "move Somerset\n", "bert.txt")
    with pytest.raises(OrdersRejected) as bad:
        KIND.check_orders(t.state, "Bert", orders, "bert.txt")
    err = bad.value.errors[0]
    assert err.line.number == 1 and "leave guard" in err.suggestion
    assert "leave guard" in KIND.options_for(t.state, "Bert")
    out = KIND.parse_orders(t.state, "Bert", "leave guard\nmove Somerset\n", "bert.txt")
    with pytest.raises(OrdersRejected) as bad:      # a castle counter is left into its area
        KIND.check_orders(t.state, "Bert", out, "bert.txt")
    assert bad.value.errors[0].suggestion == "move Hampshire, Somerset"
    ok = KIND.parse_orders(t.state, "Bert", "leave guard\nmove Hampshire, Somerset\n",
                           "bert.txt")
    KIND.check_orders(t.state, "Bert", ok, "bert.txt")
    assert "move Hampshire" in KIND.options_for(t.state, "Bert")
