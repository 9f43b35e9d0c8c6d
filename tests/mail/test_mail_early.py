"""Turns that run only at their deadline: the game's setting (``companion deadline GAME
--early no``) and a player's ``wait`` (``nowait`` ends it). Without a deadline neither counts.
Nobody learns who asked to wait. Maildir and outbox only (no server)."""
from __future__ import annotations

from companion.mail.identity import command_of
from tests.mail import corpus
from tests.mail.conftest import body
from tests.mail.helpers import new_game, rows

ORDERS = corpus.ORDERS
CORRECTION = "assign 2 to Mansur Al-Jallah"
FOUR_HOURS = str(4 * 3600 + 1)        # past the deadline 2027-01-01 04:00 (the epoch is 00:00)


def orders_from_both(world, who, text: str = ORDERS) -> list[str]:
    for name in ("Anna", "Bert"):
        world.send(who[name], f"orders {world.code(who[name])}", text + "\n")
    return world.run()


def processed(log: list[str]) -> bool:
    return any("turn 1 processed" in line for line in log)


def test_early_no_holds_the_turn_until_the_deadline_and_a_correction_counts(world, monkeypatch):
    who = new_game(world, "gral", "g1", ["Anna", "Bert"])
    shown = world.cli.ok("deadline", "g1", "2027-01-01 04:00", "--early", "no").out
    assert "runs only at the deadline" in shown and "--early no" in shown, shown
    world.run()
    log = orders_from_both(world, who)
    assert not processed(log), log
    ack = body(world.to(who["Bert"])[-1])
    assert "orders accepted" in world.to(who["Bert"])[-1]["Subject"]
    assert "runs only at the deadline, not before (the game's setting" in ack, ack
    world.send(who["Anna"], f"orders {world.code(who['Anna'])}", CORRECTION + "\n")
    assert not processed(world.run())
    assert "replaced your earlier orders" in body(world.to(who["Anna"])[-1])
    monkeypatch.setenv("COMPANION_TEST_CLOCK_OFFSET", FOUR_HOURS)
    log = world.run()
    assert processed(log) and any("deadline 2027-01-01 04:00 UTC has passed" in line
                                  for line in log), log
    assert rows(world, "SELECT text FROM submissions WHERE player='Anna' AND status='used'") \
        == [(CORRECTION + "\n",)]
    assert "--early no" in world.cli.ok("deadline", "g1").out        # the setting stays


def test_early_yes_runs_the_turn_once_all_orders_are_in(world):
    who = new_game(world, "gral", "g1", ["Anna", "Bert"])
    world.cli.ok("deadline", "g1", "2027-01-01 04:00", "--early", "no")
    shown = world.cli.ok("deadline", "g1", "--early", "yes").out
    assert "runs early" in shown and "--early yes" in shown, shown
    world.run()
    log = orders_from_both(world, who)
    assert processed(log) and any("every awaited player has sent orders" in line
                                  for line in log), log
    bad = world.cli("deadline", "g1", "--early", "maybe")
    assert bad.code == 1 and "give yes or no" in bad.err


def test_a_wait_holds_the_turn_and_nowait_releases_it_and_nobody_learns_who(world):
    who = new_game(world, "gral", "g1", ["Anna", "Bert"])
    world.cli.ok("deadline", "g1", "2027-01-01 04:00")
    world.run()
    world.send(who["Anna"], f"{world.code(who['Anna'])} wait", "")
    world.run()
    reply = world.to(who["Anna"])[-1]
    assert "waiting for the deadline" in reply["Subject"]
    assert "turn 1 waits for its deadline" in body(reply), body(reply)
    log = orders_from_both(world, who)                  # orders after it leave it standing
    assert not processed(log), log
    for name in ("Anna", "Bert"):
        ack = body(world.to(who[name])[-1])
        assert "a player asked to wait" in ack, ack
    assert "Anna" not in body(world.to(who["Bert"])[-1])
    shown = world.cli.ok("deadline", "g1").out
    assert "a player asked to wait" in shown and "Anna" not in shown, shown
    world.send(who["Anna"], f"pending {world.code(who['Anna'])}", "")
    world.run()
    assert "You asked it to wait" in body(world.to(who["Anna"])[-1])
    world.send(who["Bert"], f"pending {world.code(who['Bert'])}", "")
    world.run()
    pending = body(world.to(who["Bert"])[-1])
    assert "a player asked to wait" in pending and "Anna" not in pending, pending
    world.send(who["Anna"], f"{world.code(who['Anna'])} nowait", "")
    log = world.run()
    assert processed(log), log
    assert "is cancelled" in body([m for m in world.to(who["Anna"])
                                   if "not waiting" in m["Subject"]][-1])
    # the request was for turn 1 alone: turn 2 runs early again
    assert "runs early" in world.cli.ok("deadline", "g1", "2027-01-02 04:00").out


def test_without_a_deadline_neither_wait_nor_early_no_holds_a_turn(world):
    who = new_game(world, "gral", "g1", ["Anna", "Bert"])
    world.cli.ok("deadline", "g1", "--early", "no")
    world.run()
    world.send(who["Anna"], f"{world.code(who['Anna'])} wait", "")
    world.run()
    assert "has no deadline, so it still runs" in body(world.to(who["Anna"])[-1])
    assert processed(orders_from_both(world, who))


def test_wait_and_nowait_count_only_as_the_single_word_beside_the_code():
    code = "ABCDE-FGHIJ-KLMNO"
    assert command_of(f"{code} wait", "") == "wait"
    assert command_of(f"Re: [g1] {code} NOWAIT", "") == "nowait"
    assert command_of(f"{code} wait for me", "") == ""
    assert command_of("orders", f"{code} wait") == "wait"


def test_a_command_follows_the_reply_prefix_of_any_common_mail_program():
    """'SV: [g1] CODE options' (a Swedish reply), 'Antw:', 'Odp:', 'RIF:', 'Re[2]:': the
    command after the code was missed and the message read as orders."""
    code = "ABCDE-FGHIJ-KLMNO"
    for prefix in ("Re:", "AW:", "SV:", "Antw:", "Odp:", "RIF: R:", "Re[2]:", "TR:", "RV:",
                   "VS: Fwd:", "Enc:", "YNT:"):
        assert command_of(f"{prefix} [g1] {code} options", "") == "options", prefix
        assert command_of(f"{prefix} {code} pending", "") == "pending", prefix
    assert command_of(f"Really: {code} options", "") == ""      # not a prefix
