"""Play by email as players and a moderator meet it over weeks: answering the report mail,
a deadline passed while the game waits, reminders that say what happens, a correction sent
after the turn ran, a rewind notice that asks only the players a turn waits for, the last
report of a finished game. Maildir and outbox only (no server)."""
from __future__ import annotations

import json

from companion.mail.identity import masked
from tests.mail import corpus
from tests.mail.conftest import body
from tests.mail.helpers import new_game, rows

ORDERS = corpus.ORDERS


def quoting(mail, orders: str) -> str:
    """A reply as a mail client writes it: the orders on top, the mail answered quoted
    under an attribution line."""
    return (orders + "\n\nOn Fri, 1 Jan 2027 at 10:00, The Judge <judge@example.org> wrote:\n"
            + "".join(f"> {line}\n" for line in body(mail).splitlines()))


def test_answering_the_report_mail_with_the_code_quoted_is_read_as_orders(world):
    who = new_game(world, "gral", "g1", ["Anna", "Bert"])
    world.run()
    report = world.to(who["Anna"])[-1]
    world.send(who["Anna"], f"Re: {report['Subject']}", quoting(report, ORDERS))
    world.run()
    reply = world.to(who["Anna"])[-1]
    assert "orders accepted" in reply["Subject"], body(reply)
    assert "Mansur" in body(reply)
    assert body(reply).startswith("Game g1, for turn 1 (after turn 0)."), body(reply)
    # the reply carries the code again, so answering it works as well
    assert world.code(who["Anna"]) in body(reply)
    world.send(who["Anna"], f"Re: {reply['Subject']}", quoting(reply, ORDERS))
    world.run()
    assert "replaced your earlier orders" in body(world.to(who["Anna"])[-1])
    # another seat's report quoted (forwarded by Bert) is not Anna's code: refused as before,
    # and Bert quoting Anna's report gets nothing either
    world.send(who["Bert"], "Re: your report", quoting(report, ORDERS))
    world.run()
    refusal = world.to(who["Bert"])[-1]
    assert refusal["Subject"].startswith("Not accepted"), refusal["Subject"]
    assert world.code(who["Anna"]) not in body(refusal)
    assert rows(world, "SELECT COUNT(*) FROM submissions WHERE player='Bert'") == [(0,)]
    # the moderator's notice shows the placeholder of the hint, not '[code]'
    notice = body(world.to("mod@example.org")[-1])
    assert "XXXXX-XXXXX-XXXXX" in notice and "answer the mail of your latest report" in notice


def test_a_quoted_code_counts_only_from_the_registered_address(world):
    who = new_game(world, "gral", "g1", ["Anna", "Bert"])
    world.run()
    report = world.to(who["Anna"])[-1]
    world.send("anna@elsewhere.example.org", "Re: report", quoting(report, ORDERS))
    world.run()
    assert rows(world, "SELECT COUNT(*) FROM submissions") == [(0,)]
    assert rows(world, "SELECT state FROM mail_in ORDER BY rowid DESC LIMIT 1") == [("refused",)]


def test_a_deadline_passed_in_a_waiting_game_is_told_to_the_late_players_and_the_moderator(
        world, monkeypatch):
    who = new_game(world, "gral", "g1", ["Anna", "Bert"], options=("missing=wait",))
    world.cli.ok("deadline", "g1", "+2h", "--remind", "1h")
    world.run()
    monkeypatch.setenv("COMPANION_TEST_CLOCK_OFFSET", str(90 * 60))
    world.run()
    [reminder] = [m for m in world.to(who["Bert"]) if "reminder" in m["Subject"]]
    assert "the game waits for them" in body(reminder)
    assert world.code(who["Bert"]) in body(reminder)
    assert world.code(who["Anna"]) not in body(reminder)
    monkeypatch.setenv("COMPANION_TEST_CLOCK_OFFSET", str(2 * 3600 + 1))
    for _ in range(3):
        world.run()
    late = [m for m in world.sent() if "deadline passed" in m["Subject"]]
    assert sorted(m["To"] for m in late) == sorted(who.values())      # once each
    for m in late:
        assert "no orders of yours for turn 1" in body(m)
        assert world.code(m["To"]) in body(m)
    notices = [m for m in world.to("mod@example.org") if "past its deadline" in m["Subject"]]
    assert len(notices) == 1 and "Anna, Bert" in body(notices[0])
    assert "extend g1" in body(notices[0])
    assert not any(world.code(a) in body(notices[0]) for a in who.values())
    # Bert answers that mail: read as his orders; the acknowledgement says the deadline passed
    [bert] = [m for m in late if m["To"] == who["Bert"]]
    world.send(who["Bert"], f"Re: {bert['Subject']}", quoting(bert, ORDERS))
    log = world.run()
    assert any("orders of Bert accepted" in line for line in log), log
    ack = [m for m in world.to(who["Bert"]) if "orders accepted" in m["Subject"]][-1]
    assert "(passed)" in body(ack)


def test_a_reminder_in_a_game_with_defaults_says_the_defaults_are_taken(world, monkeypatch):
    who = new_game(world, "gral", "g1", ["Anna", "Bert"])
    world.cli.ok("deadline", "g1", "+2h", "--remind", "1h")
    world.run()
    monkeypatch.setenv("COMPANION_TEST_CLOCK_OFFSET", str(90 * 60))
    world.run()
    reminders = [m for m in world.sent() if "reminder" in m["Subject"]]
    assert {m["To"] for m in reminders} == {who["Anna"], who["Bert"]}
    for m in reminders:
        assert "runs with your defaults" in body(m)
        assert world.code(m["To"]) in body(m)                         # their own code only
        other = [a for a in who.values() if a != m["To"]][0]
        assert world.code(other) not in body(m)


def test_a_correction_sent_after_the_turn_ran_is_told_it_counts_for_the_next_turn(world):
    who = new_game(world, "gral", "g1", ["Anna", "Bert"])
    world.run()
    for name in ("Anna", "Bert"):
        world.send(who[name], f"orders {world.code(who[name])}", ORDERS + "\n")
    log = world.run()
    assert any("turn 1 processed" in line for line in log), log
    world.send(who["Anna"], f"orders {world.code(who['Anna'])}", "frobnicate\n")
    world.run()
    answer = body(world.to(who["Anna"])[-1])
    assert "were carried out when turn 1 ran" in answer and "counts for turn 2" in answer
    world.send(who["Anna"], f"pending {world.code(who['Anna'])}", "")
    world.run()
    pending = body(world.to(who["Anna"])[-1])
    assert "Turn 2 waits for your orders." in pending, pending
    assert "carried out" not in pending


def test_pending_says_when_the_next_turn_does_not_wait_for_the_player(world):
    who = new_game(world, "mayhem", "m1", ["Anna", "Bert", "Cora"])
    world.run()
    [game] = json.loads(world.cli.ok("list", "--json").out)
    idle = [n for n in who if n not in game["awaited"]][0]
    world.send(who[idle], f"{world.code(who[idle])} pending", "")
    world.run()
    answer = body(world.to(who[idle])[-1])
    assert "does not wait for your orders" in answer, answer


def test_the_rewind_notice_asks_only_the_players_the_turn_waits_for(world):
    who = new_game(world, "mayhem", "m1", ["Anna", "Bert", "Cora"])
    world.run()
    [game] = json.loads(world.cli.ok("list", "--json").out)
    [actor] = game["awaited"]
    world.send(who[actor], f"orders {world.code(who[actor])}", "draw\n")
    world.run()
    world.cli.ok("rewind", "m1", "0", "--yes")
    world.run()
    notices = {m["To"]: body(m) for m in world.sent() if "taken back" in m["Subject"]}
    assert set(notices) == set(who.values())
    for name, address in who.items():
        text = notices[address]
        assert "the report you were sent for it no longer stands" in text, text
        if name == actor:
            assert "your orders for turn 1" in text and "stand;" in text
        else:
            assert "turn 1 does not wait for orders of yours" in text, text
            assert "send them" not in text


def turn_zero_mail(world) -> dict:
    """What the mail of game g1's turn 0 is made from, read from the store: the game, its
    deadline schedule and the turn's report folder; and ``parts(name)``, that player's mail
    (text, attachments) as for a finished game."""
    from companion.mail import deadlines
    from companion.mail.run import report_parts

    store = world.store()
    try:
        game = store.game("g1")
        with store.transaction() as db:
            schedule = deadlines.ensure(db, "g1", 0)
    finally:
        store.close()
    folder = world.output / "g1" / "turn-000"
    return {"schedule": schedule, "folder": folder,
            "parts": lambda name: report_parts(game, game.player(name), 0, folder,
                                               world.config(), schedule, over=True)}


def test_the_report_of_a_finished_game_asks_for_no_orders(world):
    from companion.mail.run import deadline_said

    who = new_game(world, "gral", "g1", ["Anna", "Bert"])
    world.cli.ok("deadline", "g1", "+2h")
    world.run()
    mail = turn_zero_mail(world)
    text, _ = mail["parts"]("Anna")
    schedule = mail["schedule"]
    assert "The game is over: no more orders are taken." in text
    assert "Deadline" not in text.split("-" * 72)[0]
    assert deadline_said(schedule, 0).startswith("Deadline: 20")       # no "deadline" twice
    assert world.code(who["Anna"]) in text


def test_a_player_named_like_the_fairness_file_does_not_keep_it_from_the_others(world):
    """A player whose name makes the slug 'chance-disclosure' (the fairness file's name,
    chance-disclosure.json) has their own report and text; every player of the finished game
    still gets the game's disclosure files, each exactly once."""
    new_game(world, "gral", "g1", ["Anna", "Chance-Disclosure"])
    mail = turn_zero_mail(world)
    (mail["folder"] / "chance-disclosure.json").write_text("{}\n", encoding="utf-8")
    (mail["folder"] / "disclosure.json").write_text("{}\n", encoding="utf-8")
    for name, slug in (("Anna", "anna"), ("Chance-Disclosure", "chance-disclosure")):
        names = [n for n, _ in mail["parts"](name)[1]]
        assert sorted(names) == sorted([f"{slug}.pdf", "chance-disclosure.json",
                                        "disclosure.json"]), (name, names)


def test_the_placeholder_of_a_code_is_never_masked():
    assert masked("the code (XXXXX-XXXXX-XXXXX) or ABCDE-FGHIJ-KLMNO") == \
        "the code (XXXXX-XXXXX-XXXXX) or [code]"


def test_a_deadline_extended_gets_its_own_reminder(world, monkeypatch):
    """The moderator extends a deadline that has passed (missing=wait): the players still
    missing orders are reminded again before the new one, once."""
    who = new_game(world, "gral", "g1", ["Anna", "Bert"], options=("missing=wait",))
    world.cli.ok("deadline", "g1", "+2h", "--remind", "1h")
    world.run()
    monkeypatch.setenv("COMPANION_TEST_CLOCK_OFFSET", str(90 * 60))
    world.run()
    monkeypatch.setenv("COMPANION_TEST_CLOCK_OFFSET", str(2 * 3600 + 1))
    world.run()
    world.cli.ok("deadline", "g1", "2027-01-01 04:00")
    monkeypatch.setenv("COMPANION_TEST_CLOCK_OFFSET", str(3 * 3600 + 30 * 60))
    for _ in range(2):
        world.run()
    for address in who.values():
        reminders = [m for m in world.to(address) if "reminder" in m["Subject"]]
        assert len(reminders) == 2, [m["Subject"] for m in reminders]
        assert reminders[0]["Subject"] != reminders[1]["Subject"]      # each names its deadline


def test_a_turn_run_again_after_a_new_token_brings_the_new_code(world):
    """Turn 1 is taken back, Bert's seat gets a new token, and turn 1 runs again the same: the
    players were told its reports no longer stood, so each gets the report again, Bert's with
    his new code (and a word that it is new); his old code is in none of it."""
    from tests.mail.helpers import turn_one_taken_back

    who = turn_one_taken_back(world)
    old = world.code(who["Bert"])
    world.cli.ok("token", "g1", "Bert")
    world.cli.ok("deadline", "g1", "--release")
    log = world.run()
    assert any("running turn 1" in line for line in log), log
    new = world.code(who["Bert"])
    assert new != old
    for name in ("Anna", "Bert"):
        reports = [m for m in world.to(who[name]) if "turn 1 report" in m["Subject"]]
        assert [m["Subject"].endswith("(run again)") for m in reports] == [False, True]
        text = body(reports[1])
        assert text.startswith("Turn 1 was taken back and has run again"), text
        assert ("(a new code below)" in text) == (name == "Bert"), text
        assert world.code(who[name]) in text
        assert old not in text
    assert rows(world, "SELECT COUNT(*) FROM rewound_turns") == [(1,)]


def test_pending_says_when_the_orders_that_stand_did_not_come_by_mail(world):
    """The moderator put right a player's orders ('companion orders submit'): the player's
    'pending' showed orders they never sent as if accepted from their mail, with nothing to
    say where they came from."""
    who = new_game(world, "gral", "g1", ["Anna", "Bert"])
    world.run()
    code = world.code(who["Anna"])
    world.send(who["Anna"], f"orders {code}", ORDERS + "\n")
    world.send(who["Anna"], f"{code} pending", "")
    world.run()
    assert "(submission 1):" in body(world.to(who["Anna"])[-1])
    from companion import service

    store = world.store()
    try:                                # as 'companion orders submit g1 Anna FILE' does
        service.submit_orders(store, "g1", "Anna", "assign 2 to Yusuf\n", "anna.txt")
    finally:
        store.close()
    world.send(who["Anna"], f"{code} pending", "")
    world.run()
    answer = body(world.to(who["Anna"])[-1])
    assert "(submission 2; not sent by mail: given on the web page, or entered by the " \
           "moderator):" in answer and "  | assign 2 to Yusuf" in answer, answer
