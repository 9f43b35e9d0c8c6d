"""Challenges between player knights: a casebook (rules: COMBAT, Challenges, the example of Sir
Alfred, Sirs Baudrand, John and Maurice; PLAYER INTERACTION, Challenging a PK; COMBAT,
Challenges between PKs with a Lady's service at stake). Dice are explicit."""
from __future__ import annotations

from kocpos import pos

from companion.koc.engine.game import run_player_turn

INSIDE = 'at = "Tintagel"\nwhere = "inside"\nlord = "King Mark"\ncp = {cp}\nvp = 10\n{more}'
LANCES_12_6 = [4, 4, 4, 2, 2, 2]        # one pass on horseback with lances: 12 against 6


def castle(anna_cp=80, john="", maurice="", baudrand=""):
    """Sir Alfred (player Anna) with Sirs Baudrand, John and Maurice inside Tintagel."""
    others = {p: INSIDE.format(cp=cp, more=more) for p, cp, more in
              (("Baudrand", 60, baudrand), ("John", 50, john), ("Maurice", 70, maurice))}
    return pos(cp=anna_cp, vp=10, at="Tintagel", where="inside", lord="King Mark",
               anna='name = "Sir Alfred"', others=others)


def test_r01_sir_alfred_declined_then_fights_another(table):
    """Challenges, the rules' example: Sir Alfred challenges Sir Baudrand, who declines; he may
    then challenge Sir John the same turn. Inside a castle the other knight is found without a
    Luck Test. John, felled in the first pass (12 against 6, only 5 WL to lose), loses: Alfred
    gains CP for the 5 wounds and 6 VP; John gains 6 CP for the lesson; no Knight's Fate."""
    t = table(castle(), dice=[3, *LANCES_12_6],
              orders={"Anna": "challenge Baudrand\nchallenge John",
                      "John": "on pk_challenge: yes"})
    run_player_turn(t.game, "Anna")
    assert t.saw("Baudrand declines Sir Alfred's challenge.")
    assert t.saw("John accepts Sir Alfred's challenge.")
    alfred, john = t.knight("Anna"), t.knight("John")
    assert (alfred["cp"], alfred["vp"]) == (85, 16)
    assert (john["cp"], john["vp"]) == (56, 10)
    assert "John" in alfred["challenged"] and "Sir Alfred" in john["challenged"]
    assert "Baudrand" not in alfred["challenged"]       # declined: not resolved, may be offered again
    assert not t.saw("Knight's Fate") and t.unused_dice == []


def test_r02_once_per_pair_but_maurice_may_challenge_later(table):
    """Challenging a PK: a challenge may be offered again and again but resolved once a game.
    In his own turn Sir Maurice may still challenge Sir Alfred (they never met); John, who has
    fought Alfred, may not challenge him again."""
    done = 'challenged = ["Sir Alfred"]'
    t = table(castle(john=done), dice=[3, 5, *LANCES_12_6],
              orders={"John": "challenge Anna", "Maurice": "challenge Anna",
                      "Anna": "on pk_challenge: yes"})
    t.knight("Anna")["challenged"] = ["John"]
    run_player_turn(t.game, "John")
    assert t.saw("have already met in a challenge (once a game)")
    run_player_turn(t.game, "Maurice")
    assert t.saw("Sir Alfred accepts Maurice's challenge.")
    assert "Maurice" in t.knight("Anna")["challenged"]
    assert t.unused_dice == []


def test_r03_maurice_leaves_the_castle(table):
    """Challenging a PK: if Sir Maurice rides out of the castle first, Sir Alfred is no longer
    with him and the challenge waits until they meet again."""
    t = table(castle(), dice=[3, 6], orders={"Maurice": "move Cornwall\nchallenge Anna",
                                             "Anna": "on pk_challenge: yes"})
    run_player_turn(t.game, "Maurice")
    assert t.saw("Maurice moves into Cornwall.") and t.saw("Sir Alfred is not here to challenge.")
    assert "Sir Alfred" not in t.knight("Maurice")["challenged"]


def test_r04_finding_a_knight_in_the_open(table):
    """Finding a PK who may not wish to be found: outside castles and shrines a Luck Test,
    +1 for each earlier turn of trying in the same place."""
    open_country = pos(cp=80, vp=10, at="Cornwall", others={"Bert": 'at = "Cornwall"'})
    t = table(open_country, dice=[5, 3], orders={"Anna": "challenge Bert"})
    run_player_turn(t.game, "Anna")
    assert t.saw("Luck test (find Bert): rolled 3, needing 5 or more: failure.")
    assert t.saw("Anna does not find Bert this turn.")
    assert t.knight("Anna")["persistence"] == {"seek:Bert:Cornwall": 1}


LADY = 'lady = "Lady Elaine"'


def test_r05_for_lady_let_pass(table):
    """Challenges between PKs, the Lady's service at stake (as Message 6): letting the
    challenge pass, John is released by his Lady and loses her service award in CP."""
    t = table(castle(john=LADY), dice=[3], orders={"Anna": "challenge John for lady"})
    run_player_turn(t.game, "Anna")
    assert t.saw("Sir Alfred challenges John for the service of Lady Elaine.")
    assert t.saw("John lets the challenge pass; Lady Elaine releases him.")
    assert t.knight("John")["lady"] is None and t.knight("John")["cp"] == 30
    assert t.unused_dice == []


def test_r06_for_lady_won(table):
    """Challenges between PKs, the Lady's service at stake: Sir Alfred wins; John loses Lady
    Elaine (20 CP, her award); her castle becomes friendly to Alfred, who may now ask her
    for her service."""
    t = table(castle(john=LADY), dice=[3, *LANCES_12_6],
              orders={"Anna": "challenge John for lady", "John": "on pk_challenge lady: yes"})
    run_player_turn(t.game, "Anna")
    john, alfred = t.knight("John"), t.knight("Anna")
    assert john["lady"] is None and john["cp"] == 30 + 6        # her award lost, the lesson
    assert "Castle of Case" in alfred["friendly"]
    assert "Lady Elaine" in alfred["friendly_persons"]
    assert alfred["lady"] is None                       # he must still ask for her service


def test_r07_for_lady_defended(table):
    """Challenges between PKs, the Lady's service at stake: John defends her honour and wins
    (6 against 12 in the one pass that fells Sir Alfred, who has 3 WL): 6 VP for her
    honour besides the challenge's awards; he keeps his Lady."""
    t = table(castle(anna_cp=30, john=LADY), dice=[3, 2, 2, 2, 4, 4, 4],
              orders={"Anna": "challenge John for lady", "John": "on pk_challenge: yes"})
    run_player_turn(t.game, "Anna")
    john = t.knight("John")
    assert john["lady"]["name"] == "Lady Elaine"
    assert john["vp"] == 10 + 6 + 6 and john["cp"] == 50 + 3
    assert t.saw("John gains 6 VP (defending the honour of Lady Elaine)")


def test_r08_orders_for_lady(table):
    """Orders: 'challenge <player> for lady' parses; 'attack <player> for lady' does not."""
    import pytest

    from companion.engine.orders import OrdersRejected
    from companion.koc.kind import KIND
    from companion.koc.orders import parse_orders

    orders = parse_orders(KIND.world, ["Anna", "Bert"], "challenge bert for lady\n", "a.txt")
    assert orders.plan[0]["stake"] == "lady" and orders.plan[0]["target"] == "Bert"
    with pytest.raises(OrdersRejected) as bad:
        parse_orders(KIND.world, ["Anna", "Bert"], "attack Bert for lady\n", "a.txt")
    assert bad.value.errors[0].line.number == 1


def test_r09_witnesses_see_the_award_not_the_totals(table):
    """A knight's totals are his Adventure Journal's, private (docs/koc-engine.md, "Reports"):
    the knights present see what he won and why, he alone sees his new CP, VP, WL and VL. A
    game begun before edition 2 keeps telling the witnesses the totals (its replay needs it)."""
    for edition, shown in ((2, False), (1, True)):
        t = table(castle(), dice=[*LANCES_12_6],
                  orders={"Anna": "challenge John", "John": "on pk_challenge: yes"})
        t.state["edition"] = edition
        run_player_turn(t.game, "Anna")
        gains = [e for e in t.ctx.events if e["text"].startswith("Sir Alfred gains 6 VP")]
        mine = [e["text"] for e in gains if "Anna" in e["to"]]
        theirs = [e["text"] for e in gains if "John" in e["to"]]
        assert len(mine) == 1 and "; VP 16, VL " in mine[0]
        assert len(theirs) == 1 and ("VP 16" in theirs[0]) is shown
        if not shown:
            assert theirs[0].startswith("Sir Alfred gains 6 VP (") and theirs[0].endswith(").")
            assert sorted({p for e in gains for p in e["to"]}) == ["Anna", "Baudrand", "John",
                                                                   "Maurice"]


def test_r10_for_lady_won_from_a_knight_of_morgan(table):
    """Challenges between PKs, the Lady's service at stake, the Lady being Morgan Le Fay, who
    has no castle (random play, seed 620015): from rules edition 5 the victor is told he may
    ask her for her service, where earlier editions wrote "Morgan Le Fay's castle (None) is
    open to Sir Alfred" (a game of edition 4 keeps it, for its replay)."""
    from companion.koc.engine.service import MORGAN, lady_record

    for edition, text in ((5, "Sir Alfred may ask Morgan Le Fay for her service."),
                          (4, "Morgan Le Fay's castle (None) is open to Sir Alfred; he may ask "
                              "her for her service.")):
        t = table(castle(), dice=[3, *LANCES_12_6], orders={"Anna": "challenge John for lady"})
        t.state["edition"] = edition
        t.knight("John")["lady"] = lady_record(MORGAN)
        run_player_turn(t.game, "Anna")
        assert t.saw("Sir Alfred challenges John for the service of Morgan Le Fay.")
        assert t.saw("John takes up the challenge for Morgan Le Fay.")   # an Enchantress's
        assert t.knight("John")["lady"] is None                          # knight must answer
        assert t.saw(text), t.events
        assert "Morgan Le Fay" in t.knight("Anna")["friendly_persons"]
        if edition >= 5:
            assert not any("(None)" in e for e in t.events)
