"""Play by email through a Maildir and the .eml outbox: no server at all."""
from __future__ import annotations

from companion.mail.identity import mail_code

from tests.mail import corpus
from tests.mail.conftest import attachments, body
from tests.mail.helpers import new_game, rows, submissions, turn_one_taken_back

ORDERS = corpus.ORDERS


def players_secrets(world, game_id):
    store = world.store()
    try:
        game = store.game(game_id)
        return {p.name: (p.email, p.token, mail_code(game, p)) for p in game.players}
    finally:
        store.close()


def assert_private(world, game_id):
    """Every mail to a player holds only that player's code, token and files."""
    secrets = players_secrets(world, game_id)
    for name, (address, _, _) in secrets.items():
        for msg in world.to(address):
            raw = msg.as_string()
            for other, (_, token, code) in secrets.items():
                if other != name:
                    assert token not in raw and code not in raw, (name, other, msg["Subject"])
            for filename in attachments(msg):
                assert filename.startswith(name.lower() + ".") or \
                    filename.endswith(".json"), filename


def test_a_turn_by_mail_through_a_maildir(world):
    who = new_game(world, "gral", "g1", ["Anna", "Bert"])
    log = world.run()
    assert any("turn 0 report for Anna queued" in line for line in log)
    anna, bert = world.to(who["Anna"]), world.to(who["Bert"])
    assert len(anna) == 1 and len(bert) == 1
    assert set(attachments(anna[0])) == {"anna.pdf"}
    assert attachments(anna[0])["anna.pdf"].startswith(b"%PDF")
    assert "Report for:   Anna" in body(anna[0])
    world.send(who["Anna"], f"orders {world.code(who['Anna'])}", ORDERS + "\n")
    world.send(who["Bert"], f"Re: [g1] {world.code(who['Bert'])}", ORDERS + "\n")
    log = world.run()
    assert any("running turn 1" in line for line in log), log
    replies = [m for m in world.to(who["Anna"]) if "orders accepted" in m["Subject"]]
    assert len(replies) == 1 and "opening: assign 1 (unit A1) to Mansur Al-Jallah" in \
        body(replies[0])
    assert replies[0]["In-Reply-To"] == "<m1@players.example.org>"
    reports = [m for m in world.to(who["Anna"]) if "turn 1 report" in m["Subject"]]
    assert len(reports) == 1 and "Turn:         1" in body(reports[0])
    assert (world.output / "g1" / "turn-001" / "anna.pdf").read_bytes() == \
        attachments(reports[0])["anna.pdf"]
    assert_private(world, "g1")
    assert not list(world.inbox.glob("new/*"))            # taken from the mailbox
    # a second pass finds nothing to do and sends nothing again
    before = len(world.sent())
    world.run()
    assert len(world.sent()) == before


def test_a_message_read_twice_is_processed_once(world):
    who = new_game(world, "gral", "g1", ["Anna", "Bert"])
    world.run()
    raw = world.message(who["Anna"], f"o {world.code(who['Anna'])}", ORDERS + "\n",
                        message_id="<twice@example.org>")
    world.deliver(raw)
    world.run()
    world.deliver(raw)                                    # the same message once more
    log = world.run()
    assert any("already stored" in line for line in log)
    assert len(submissions(world, "g1")) == 1
    assert len([m for m in world.to(who["Anna"]) if "accepted" in m["Subject"]]) == 1


def test_spoofed_messages_are_refused_and_store_nothing(world):
    who = new_game(world, "gral", "g1", ["Anna", "Bert"])
    new_game(world, "gral", "g2", ["Cora", "Dan"])
    world.run()
    anna, bert = world.code(who["Anna"]), world.code(who["Bert"])
    world.send(who["Anna"], "my orders", ORDERS + "\n")                       # no code
    world.send(who["Anna"], f"orders {bert}", ORDERS + "\n")                  # Bert's code
    world.send("eve@evil.example.org", f"orders {anna}", ORDERS + "\n")       # stolen code
    world.send("eve@evil.example.org", "orders", ORDERS + "\n")               # unknown
    world.send(who["Anna"], "orders AAAAA-BBBBB-CCCCC", ORDERS + "\n")        # wrong code
    world.send(who["Anna"], f"orders {world.code('cora@g2.example.org')}",    # another game's
               ORDERS + "\n")
    world.send("mod@example.org", "hold g1", "hold g1\n")                     # no secret
    world.run()
    assert submissions(world, "g1") == [] and submissions(world, "g2") == []
    states = rows(world, "SELECT state, outcome FROM mail_in ORDER BY rowid")
    assert [s for s, _ in states] == ["refused"] * 7
    reasons = " | ".join(o for _, o in states)
    for needle in ("carries no code", "not yours", "does not belong to the address",
                   "not registered", "is wrong", "moderator's secret"):
        assert needle in reasons, needle
    refusals = [m for m in world.sent() if m["Subject"].startswith("Not accepted")]
    assert len(refusals) == 7
    for msg in refusals:            # a refusal goes back to the sender and holds no code
        assert anna not in msg.as_string() and bert not in msg.as_string()
    assert not any(anna in m.as_string() for m in world.to("eve@evil.example.org"))
    assert rows(world, "SELECT held FROM mail_games WHERE game_id='g1'") == [(0,)]
    inbox = world.cli.ok("mail", "inbox").out
    assert "eve@evil.example.org" in inbox and anna not in inbox and bert not in inbox
    assert "[code]" in inbox


def test_every_message_shape_is_read_or_refused_clearly(world):
    who = new_game(world, "gral", "g1", ["Anna", "Bert"])
    world.run()
    shapes = corpus.shapes(f"Anna <{who['Anna']}>", world.code(who["Anna"]))
    for raw, _ in shapes.values():
        world.deliver(raw)
    for raw in corpus.broken().values():
        world.deliver(raw)
    world.run()
    states = dict(rows(world, "SELECT message_id, state FROM mail_in"))
    outcomes = dict(rows(world, "SELECT message_id, outcome FROM mail_in"))
    for name, (raw, expected) in shapes.items():
        mid = next(line.split(":", 1)[1].strip() for line in raw.decode("latin-1").splitlines()
                   if line.lower().startswith("message-id:"))
        if expected == "orders":
            assert states[mid] == "done" and ("accepted" in outcomes[mid] or
                                              "replaced" in outcomes[mid]), (name, outcomes[mid])
        elif expected == "ignored":
            assert states[mid] == "ignored", name
        else:
            assert "rejected" in outcomes[mid], (name, outcomes[mid])
    assert len(states) == len(shapes) + len(corpus.broken())    # keyed by their bytes
    assert "new" not in states.values()                         # each one handled
    typo = [m for m in world.to(who["Anna"]) if "NOT accepted" in m["Subject"]]
    assert len(typo) == 1 and "message:2:1" in body(typo[0])
    assert not [m for m in world.sent() if m["To"] and "mailer-daemon" in m["To"].lower()]


def test_player_commands_by_mail(world):
    who = new_game(world, "gral", "g1", ["Anna", "Bert"])
    world.run()
    code = world.code(who["Anna"])
    world.send(who["Anna"], f"{code} options", "")
    world.send(who["Anna"], f"Re: {code} resend", "")
    world.send(who["Anna"], f"{code} help", "")
    world.send(who["Anna"], "a question", f"{code} options\n")        # on the first line
    world.run()
    subjects = [m["Subject"] for m in world.to(who["Anna"])]
    assert subjects.count("[g1] your options") == 2 and "[g1] help" in subjects
    options = next(m for m in world.to(who["Anna"]) if m["Subject"] == "[g1] your options")
    assert "assign 1 to Mansur Al-Jallah" in body(options)
    again = [m for m in world.to(who["Anna"]) if "(again)" in m["Subject"]]
    assert len(again) == 1 and set(attachments(again[0])) == {"anna.pdf"}
    # a new address, from the new address, with the code; the old one is told
    world.send("anna.new@example.net", f"{code} address", "")
    world.run()
    assert any("address changed" in m["Subject"] for m in world.to("anna.new@example.net"))
    assert any("your address was changed" in m["Subject"] for m in world.to(who["Anna"]))
    assert rows(world, "SELECT player, old_email, new_email FROM mail_address_changes") == [
        ("Anna", who["Anna"], "anna.new@example.net")]
    world.send(who["Anna"], f"orders {code}", ORDERS + "\n")               # the old address
    world.send("anna.new@example.net", f"orders {code}", ORDERS + "\n")    # the new one
    world.run()
    assert [s.player for s in submissions(world, "g1")] == ["Anna"]


def test_a_player_asks_by_mail_for_the_orders_that_stand(world):
    """'pending' after the code: the player's own orders for the next turn, as accepted and
    as understood, or that none were accepted yet; never another player's."""
    who = new_game(world, "gral", "g1", ["Anna", "Bert"])
    world.run()
    anna, bert = world.code(who["Anna"]), world.code(who["Bert"])
    world.send(who["Anna"], f"{anna} pending", "")
    world.send(who["Bert"], f"orders {bert}", "# my plan\n" + ORDERS + "\n")
    world.run()
    world.send(who["Bert"], f"Re: {bert} pending", "")
    world.run()
    [none] = [m for m in world.to(who["Anna"]) if m["Subject"] == "[g1] your pending orders"]
    assert "No orders of Anna for turn 1 have been accepted yet." in body(none)
    [mine] = [m for m in world.to(who["Bert"]) if m["Subject"] == "[g1] your pending orders"]
    text = body(mine)
    assert "The orders of Bert for turn 1, accepted " in text and "  | # my plan\n" in text
    assert f"  | {ORDERS}\n" in text and "understood as:" in text and "Deadline:" in text
    assert "Anna" not in text
    world.send(who["Anna"], f"{anna} help", "")
    world.run()
    assert any("  pending " in body(m) for m in world.to(who["Anna"])
               if m["Subject"] == "[g1] help")


def test_deadlines_reminders_and_the_missing_policy(world, monkeypatch):
    who = new_game(world, "gral", "g1", ["Anna", "Bert"])
    world.cli.ok("deadline", "g1", "+2h", "--period", "1d", "--remind", "1h")
    world.run()
    world.send(who["Anna"], f"orders {world.code(who['Anna'])}", ORDERS + "\n")
    world.run()
    assert not [m for m in world.sent() if "reminder" in m["Subject"]]
    monkeypatch.setenv("COMPANION_TEST_CLOCK_OFFSET", str(90 * 60))     # 30 min before
    world.run()
    world.run()
    reminders = [m for m in world.sent() if "reminder" in m["Subject"]]
    assert [m["To"] for m in reminders] == [who["Bert"]]                # once, the missing one
    monkeypatch.setenv("COMPANION_TEST_CLOCK_OFFSET", str(2 * 3600 + 1))  # past the deadline
    log = world.run()
    assert any("deadline" in line and "running turn 1" in line for line in log), log
    assert any("turn 1 report" in m["Subject"] for m in world.to(who["Bert"]))
    out = world.cli.ok("deadline", "g1", env={"COMPANION_TEST_CLOCK_OFFSET": "7201"}).out
    assert "turn 1: deadline" in out and "deadlines 1d after each turn" in out
    world.run()                          # the old deadline runs no second turn
    assert rows(world, "SELECT MAX(number) FROM turns WHERE game_id='g1'") == [(1,)]


def test_the_moderator_holds_releases_and_runs_by_mail(world, monkeypatch):
    who = new_game(world, "gral", "g1", ["Anna", "Bert"])
    world.run()
    secret = "moderator-secret-42"
    world.send("mod@example.org", f"commands {secret}",
               "hold g1\nhold g1\nstatus\nfrobnicate g1\n")
    world.run()
    answer = body(world.to("mod@example.org")[-1])
    assert "g1: held" in answer and "unknown command 'frobnicate'" in answer
    assert "g1: already held: nothing to hold" in answer
    for name in ("Anna", "Bert"):
        world.send(who[name], f"orders {world.code(who[name])}", ORDERS + "\n")
    log = world.run()
    assert not any("running turn" in line for line in log)              # held
    world.send("mod@example.org", secret, "release g1\n")
    log = world.run()
    assert any("running turn 1" in line for line in log)
    assert rows(world, "SELECT outcome FROM mail_in WHERE sender='mod@example.org'")
    assert not any(secret in o for (o,) in rows(world, "SELECT outcome FROM mail_in"))
    assert not any(secret in line for line in log)
    world.send("mod@example.org", secret, "extend g1 2h\nrun g1\n")
    log = world.run()
    assert any("running turn 2" in line for line in log), log


def test_the_moderator_hands_a_seat_to_somebody_else(world):
    """A player leaves and Dora takes over the seat: a new token (the old link and code stop
    working), the new address, the latest report mailed to her; by mail the same, and every
    change recorded (docs/mail.md, "A player moves or leaves")."""
    who = new_game(world, "gral", "g1", ["Anna", "Bert"])
    world.run()
    old_code = world.code(who["Bert"])
    world.cli.ok("token", "g1", "Bert")
    out = world.cli.ok("game", "address", "g1", "bert", "dora@example.net").out
    assert f"the address of Bert is now dora@example.net (was {who['Bert']})" in out
    assert "'companion mail resend g1 Bert' mails them" in out     # a command to copy as is
    out = world.cli.ok("mail", "resend", "g1", "Bert").out
    assert "goes to Bert at dora@example.net" in out and "next 'companion mail run'" in out
    world.run()
    again = world.to("dora@example.net")
    assert len(again) == 1 and "(again)" in again[0]["Subject"]
    assert set(attachments(again[0])) == {"bert.pdf"}
    new_code = world.code("dora@example.net")
    assert new_code != old_code
    world.send(who["Bert"], f"orders {old_code}", ORDERS + "\n")          # Bert has left
    world.send("dora@example.net", f"orders {old_code}", ORDERS + "\n")   # the old code
    world.run()
    assert submissions(world, "g1") == []
    world.send("dora@example.net", f"orders {new_code}", ORDERS + "\n")
    world.run()
    assert [s.player for s in submissions(world, "g1")] == ["Bert"]
    # bad input changes nothing and says why
    bad = world.cli("game", "address", "g1", "Bert", "dora@")
    assert bad.code == 1 and "not an email address" in bad.err
    assert "did you mean 'Bert'" in world.cli("game", "address", "g1", "Berta", "x@y.org").err
    assert "'Nobody' is not a player of game g1" in world.cli("mail", "resend", "g1",
                                                               "Nobody").err
    # the same by mail, from the moderator
    secret = "moderator-secret-42"
    world.send("mod@example.org", secret, "address g1 Anna anna2@example.net\n"
                                          "resend g1 anna\nresend g1 Zed\n"
                                          "address g1 Anna not-an-address\naddress g1\n")
    world.run()
    answer = body(world.to("mod@example.org")[-1])
    assert f"g1: the address of Anna is now anna2@example.net (was {who['Anna']})" in answer
    assert "g1: the report of turn 0 goes to Anna at anna2@example.net" in answer
    assert "resend g1 Zed: 'Zed' is not a player of game g1" in answer
    assert "not an email address" in answer and "which player?" in answer
    assert [m["Subject"] for m in world.to("anna2@example.net")] == [
        "[g1] turn 0 report for Anna (again)"]
    changes = rows(world, "SELECT player, old_email, new_email, message_id FROM "
                          "mail_address_changes ORDER BY id")
    assert [c[:3] for c in changes] == [("Bert", who["Bert"], "dora@example.net"),
                                        ("Anna", who["Anna"], "anna2@example.net")]
    assert changes[0][3] == "moderator: companion game address"
    assert changes[1][3].startswith("moderator: <")
    assert secret not in repr(changes)
    assert_private(world, "g1")
    assert "(no mail)" in world.cli.ok("game", "address", "g1", "Anna", "none").out
    world.send(who["Anna"], f"orders {world.code('anna2@example.net')}", ORDERS + "\n")
    world.run()
    assert not world.to("anna2@example.net")[1:]          # no address: no mail to anybody
    assert "Anna has no email address" in world.cli("mail", "resend", "g1", "Anna").err


def test_a_turn_taken_back_is_run_and_mailed_again(world):
    """The moderator takes back turn 1 (Bert's orders were in his spam folder): the orders are
    pending again, Bert's new ones replace his, the next pass runs turn 1 again and mails its
    reports although turn 1's were mailed before; the deadline of the gone turn is cleared."""
    who = new_game(world, "gral", "g1", ["Anna", "Bert"])
    world.cli.ok("deadline", "g1", "+2h")
    world.run()
    for name in ("Anna", "Bert"):
        world.send(who[name], f"orders {world.code(who[name])}", ORDERS + "\n")
    world.run()
    assert len([m for m in world.to(who["Anna"]) if "turn 1 report" in m["Subject"]]) == 1
    world.cli.ok("deadline", "g1", "+1d")
    out = world.cli.ok("rewind", "g1", "0", "--yes", "--reason", "late orders").out
    assert "orders pending for turn 1: Anna, Bert" in out and "--release" in out
    assert rows(world, "SELECT deadline, held FROM mail_games") == [(None, 1)]
    options = world.cli.ok("options", "g1", "Bert").out.splitlines()
    world.send(who["Bert"], f"orders {world.code(who['Bert'])}", options[-1] + "\n")
    log = world.run()        # held: Bert's new orders are stored, no turn runs
    assert not any("running turn" in line for line in log), log
    told = [m for m in world.to(who["Anna"]) if "taken back" in m["Subject"]]
    assert len(told) == 1 and "no orders of yours" not in body(told[0])    # hers stand
    assert any("Anna told of turn 1 taken back" in line for line in log), log
    world.cli.ok("deadline", "g1", "--release")
    log = world.run()        # every awaited player's orders are in: turn 1 runs again
    assert any("running turn 1" in line for line in log), log
    reports = [m for m in world.to(who["Anna"]) if "turn 1 report" in m["Subject"]]
    assert len(reports) == 2 and reports[0]["Message-ID"] != reports[1]["Message-ID"]
    assert rows(world, "SELECT COUNT(*) FROM rewound_turns") == [(1,)]
    assert_private(world, "g1")


def test_the_moderator_takes_a_turn_back_by_mail(world):
    who = new_game(world, "gral", "g1", ["Anna", "Bert"])
    world.run()
    for name in ("Anna", "Bert"):
        world.send(who[name], f"orders {world.code(who[name])}", ORDERS + "\n")
    world.run()
    secret = "moderator-secret-42"
    world.send("mod@example.org", secret, "rewind g1 0\nrewind g1 x yes\nrewind g1 5 yes\n")
    world.run()
    answer = body(world.to("mod@example.org")[-1])
    assert "'rewind g1 0 yes' takes back turn 1 (nothing is deleted); nothing done yet" in \
        answer
    assert "give the last turn to keep" in answer and "g1 has turns 0 to 1" in answer
    assert rows(world, "SELECT MAX(number) FROM turns") == [(1,)]
    world.send("mod@example.org", secret, "rewind g1 0 yes\n")
    world.run()
    answer = body(world.to("mod@example.org")[-1])
    assert "g1: turn 1 taken back; orders pending for turn 1: Anna, Bert; the game is held" \
        in answer
    assert rows(world, "SELECT MAX(number) FROM turns") == [(0,)]
    assert (world.output / "g1" / "rewound").is_dir()
    assert not (world.output / "g1" / "turn-001").exists()
    assert [r[0].startswith("by mail (<") for r in rows(
        world, "SELECT reason FROM rewound_turns")] == [True]
    notices = {name: [m for m in world.to(who[name]) if "taken back" in m["Subject"]]
               for name in ("Anna", "Bert")}
    assert [m["Subject"] for m in notices["Anna"]] == ["[g1] turn 1 taken back"]
    told = body(notices["Bert"][0])
    assert "the moderator took back turn 1" in told and "stands at turn 0 again" in told
    assert "your orders for turn 1 (submission" in told and "stand" in told
    assert "by mail" not in told and "Anna" not in told      # no reason, nobody else's
    assert "on hold: the turn runs again when the moderator releases it" in told
    world.run()
    assert len([m for m in world.to(who["Bert"]) if "taken back" in m["Subject"]]) == 1
    world.send("mod@example.org", secret, "release g1\n")
    log = world.run()
    assert any("running turn 1" in line for line in log), log
    # the same orders, the same dice and (in the tests) the same clock: the very same turn,
    # mailed again all the same: Bert was told its report no longer stood
    assert rows(world, "SELECT hash FROM rewound_turns") == rows(
        world, "SELECT hash FROM turns WHERE number=1")
    reports = [m for m in world.to(who["Bert"]) if "turn 1 report" in m["Subject"]]
    assert [m["Subject"] for m in reports] == ["[g1] turn 1 report for Bert",
                                               "[g1] turn 1 report for Bert (run again)"]
    assert body(reports[1]).startswith("Turn 1 was taken back and has run again: this report "
                                       "replaces the one you were sent before.\n"), \
        body(reports[1])
    world.run()         # run again: nothing more to tell
    assert len([m for m in world.to(who["Bert"]) if "taken back" in m["Subject"]]) == 1
    assert len([m for m in world.to(who["Bert"]) if "turn 1 report" in m["Subject"]]) == 2


def test_a_rewind_notice_says_when_the_turn_runs_as_the_game_stands(world):
    """Released (with a new deadline) before the pass that tells the players, the notice says
    when the turn runs then, not that the game waits for the moderator."""
    who = turn_one_taken_back(world)
    world.cli.ok("deadline", "g1", "--release")
    world.cli.ok("deadline", "g1", "+2d")
    world.run()
    told = body([m for m in world.to(who["Anna"]) if "taken back" in m["Subject"]][0])
    assert "on hold" not in told and "releases" not in told
    assert "The turn runs again once all the orders it waits for are in, or at the deadline, " \
        in told


def test_orders_submit_takes_a_whole_saved_message(world):
    who = new_game(world, "gral", "g1", ["Anna", "Bert"])
    raw = corpus.shapes(who["Anna"], "ABCDE-FGHIJ-KLMN2")["quoted-printable"][0].decode()
    out = world.cli.ok("orders", "submit", "g1", "Anna", "-", input=raw).out
    assert "assign 1 (unit A1) to Mansur Al-Jallah" in out
    raw = corpus.shapes(who["Bert"], "ABCDE-FGHIJ-KLMN2")["code on the first line"][0].decode()
    assert "accepted orders of Bert" in world.cli.ok("orders", "submit", "g1", "Bert", "-",
                                                     input=raw).out


def test_the_command_line_runs_a_pass_and_checks_its_configuration(world):
    who = new_game(world, "gral", "g1", ["Anna", "Bert"])
    out = world.cli.ok("mail", "check").out
    assert "configuration is valid" in out and "Maildir" in out and ".eml" in out
    out = world.cli.ok("mail", "run").out
    assert "turn 0 report for Anna queued" in out and "pass done" in out
    world.send(who["Anna"], f"orders {world.code(who['Anna'])}", ORDERS + "\n")
    assert "1 new message stored" in world.cli.ok("mail", "fetch").out
    out = world.cli.ok("mail", "run").out
    assert "orders of Anna accepted" in out and world.code(who["Anna"]) not in out
    assert "nothing waiting" in world.cli.ok("mail", "outbox").out
    assert "sent" in world.cli.ok("mail", "outbox", "--all").out
    world.config_path.write_text('[mail]\naddress = "judge"\nmoderator = "m@example.org"\n'
                                 '[mailbox]\nkind = "imap"\nhost = "imap.example.org"\n'
                                 'tls = "none"\nuser = "u"\n[smpt]\nhost = "x"\n')
    result = world.cli("mail", "check")
    assert result.code == 1
    for needle in ("companion.toml:2:", "not an email address", "moderator_secret_env",
                   "tls = \"none\"", "no password source", "did you mean 'smtp'"):
        assert needle in result.err, (needle, result.err)
    assert "Traceback" not in result.err


def test_mail_check_notes_a_running_game_whose_links_no_phone_opens(world):
    """A game mailed to its players with the default base URL ('companion://...' links and QR
    codes) gets a note saying how to point them at 'companion serve'; a game with a real base
    URL, or with no addresses, gets none."""
    new_game(world, "gral", "g1", ["Anna", "Bert"])
    world.cli.ok("new", "gral", "g2", "--player", "Cora", "--player", "Dora")
    result = world.cli.ok("mail", "check")
    assert "note: game g1: the links and QR codes of its reports read 'companion://g1/...'" \
        in result.err and "companion game set g1 base-url https://" in result.err
    assert "game g2" not in result.err and "configuration is valid" in result.out
    world.cli.ok("game", "set", "g1", "base-url", "https://pbem.example.org")
    assert "note:" not in world.cli.ok("mail", "check").err


def test_a_password_comes_from_the_environment_or_a_file_never_the_command_line(world):
    result = world.cli("mail", "run", "--password", "x")
    assert result.code == 2
    new_game(world, "gral", "g1", ["Anna", "Bert"])
    world.config_path.write_text('[mail]\naddress = "judge@example.org"\n[mailbox]\n'
                                 'kind = "imap"\nhost = "127.0.0.1"\nport = 9\ntls = "none"\n'
                                 'user = "u"\npassword_env = "NO_SUCH_PASSWORD_VARIABLE"\n')
    result = world.cli("mail", "run")
    assert result.code == 1 and "NO_SUCH_PASSWORD_VARIABLE" in result.err


def test_the_quick_commands_import_no_mail_module(cli):
    from tests.test_cli_startup import modules_after

    for args in (["--help"], ["games"]):
        try:
            loaded = modules_after(cli, *args)
        except AssertionError:
            continue                                  # --help exits before atexit prints
        assert not {m for m in loaded if m.startswith("companion.mail")}, args
    assert "mail" in cli.ok("--help").out and "deadline" in cli.ok("--help").out


def test_a_store_without_a_game_or_a_config_says_what_to_do(world):
    result = world.cli("mail", "run")
    assert result.code == 1 and "no store at" in result.err and "companion new" in result.err
    world.config_path.unlink()
    result = world.cli("mail", "run")
    assert result.code == 1 and "no mail configuration" in result.err and "docs/mail.md" in \
        result.err
    assert not world.store_path.exists()


def test_the_mail_demo_plays_by_mail_without_any_server(cli):
    out = cli.ok("mail", "demo", "mayhem", "--turns", "1").out
    assert "1 turn played by mail" in out
    folder = cli.output / "mail-demo"
    assert len(list((folder / "outbox").glob("*.eml"))) >= 3 * 2 + 1
    assert "1 turn played" in cli.ok("mail", "demo", "fluxx", "--turns", "1").out   # again: replaced
    other = cli.root / "mine"
    other.mkdir()
    result = cli("mail", "demo", "--folder", str(other))
    assert result.code == 1 and "not a mail demo folder" in result.err


def test_the_default_mail_demo_plays_the_bundled_gral_game_to_its_end(cli):
    """'companion mail demo' mails the order files of 'companion demo' (a game random orders
    would not finish in 200 turns): the same game, played to its winner."""
    import json

    out = cli.ok("mail", "demo").out
    assert "6 turns played by mail" in out
    mailed = cli.output / "mail-demo" / "demo.sqlite3"
    listed = json.loads(cli.ok("--store", str(mailed), "list", "--json").out)
    assert listed[0]["state"] == "over" and listed[0]["turn"] == 6
    cli.ok("demo")
    by_mail = cli.ok("--store", str(mailed), "show", "demo", "--json").out
    assert cli.ok("show", "demo", "--json").out == by_mail


def test_watch_repeats_until_stopped(world):
    """'mail run --watch N' makes a pass every N seconds; SIGTERM (systemd's stop) ends it
    cleanly between passes."""
    import select
    import signal
    import subprocess
    import time

    who = new_game(world, "gral", "g1", ["Anna", "Bert"])
    proc = subprocess.Popen([world.cli.script, "mail", "run", "--watch", "1"], cwd=world.root,
                            env=world.cli.env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True)
    lines: list[str] = []
    try:
        deadline = time.monotonic() + 120
        sent = False
        while sum("pass done" in line for line in lines) < 3 and time.monotonic() < deadline:
            ready, _, _ = select.select([proc.stdout], [], [], 1)
            if ready:
                lines.append(proc.stdout.readline())
            if not sent and any("pass done" in line for line in lines):
                world.send(who["Anna"], f"o {world.code(who['Anna'])}", ORDERS + "\n")
                sent = True
        proc.send_signal(signal.SIGTERM)
        out, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    lines.append(out)
    text = "".join(lines)
    assert proc.returncode == 0 and "stopped" in text and "Traceback" not in err, err
    assert "watching every 1 s" in text and "orders of Anna accepted" in text


def test_one_pass_at_a_time(world):
    import pytest

    from companion.errors import CompanionError
    from companion.mail.run import pass_lock

    new_game(world, "gral", "g1", ["Anna", "Bert"])
    with pass_lock(world.store_path):
        with pytest.raises(CompanionError, match="another 'companion mail run'"):
            world.run()
    assert world.sent() == []
    world.run()
    assert len(world.sent()) == 2


def test_a_maildir_in_a_folder_not_made_yet_is_created(tmp_path):
    """companion.toml's default Maildir is mail/inbox: 'mail check' says the first 'mail run'
    makes it, so opening it makes 'mail' too (it stopped with 'No such file or directory')."""
    from companion.mail.mailbox import MaildirSource

    source = MaildirSource(tmp_path / "mail" / "inbox")
    assert "does not exist yet" in source.check()
    source.open()
    assert all((tmp_path / "mail" / "inbox" / sub).is_dir() for sub in ("new", "cur", "tmp"))
    assert source.check() == "ok, 0 new messages"


def test_two_messages_delivered_in_one_tick_are_taken_in_delivery_order(world):
    """Where the file system keeps whole seconds (ext3, FAT, some network file systems) two
    messages delivered in the same second have the same mtime, and the names decided: as text
    'M10' comes before 'M9', so Anna's later orders were read first and her earlier ones kept.
    The names' delivery time (seconds, then the microseconds after 'M') decides now."""
    import os

    who = new_game(world, "gral", "g1", ["Anna", "Bert"])
    world.run()
    code = world.code(who["Anna"])
    earlier = world.message(who["Anna"], f"orders {code}", "assign 1 to Mansur Al-Jallah\n")
    later = world.message(who["Anna"], f"orders {code}", "assign 2 to Mansur Al-Jallah\n")
    new = world.inbox / "new"
    names = {"1764460800.M9P123.mx.example.org": earlier,          # delivered first
             "1764460800.M10P124.mx.example.org": later}           # ... and a moment later
    assert sorted(names)[0].startswith("1764460800.M10")           # text order is the wrong one
    for name, raw in names.items():
        (new / name).write_bytes(raw)
        os.utime(new / name, ns=(1764460800_000000000, 1764460800_000000000))
    log = world.run()
    pending = submissions(world, "g1")
    assert [s.text.strip() for s in pending if s.status == "pending"] == \
        ["assign 2 to Mansur Al-Jallah"]                       # the later orders are kept
    received = [line for line in log if line.startswith("received")]
    assert received == ["received <m1@players.example.org> from " + who["Anna"],
                         "received <m2@players.example.org> from " + who["Anna"]], log
    assert "replaced your earlier orders" in body(world.to(who["Anna"])[-1])


def test_maildir_order_reads_the_delivery_time_of_the_name(tmp_path):
    """mtime first, then the seconds and microseconds ('M') and delivery counter ('Q') a
    standard Maildir name carries, then the name itself: every name has its place, also one
    that follows no convention."""
    from companion.mail.mailbox import delivery_time

    assert delivery_time("1764460800.M9P123.host") == (1764460800, 9, -1)
    assert delivery_time("1764460800.M9P123Q4.host,S=812:2,") == (1764460800, 9, 4)
    assert delivery_time("1764460800.P123Q10.host") == (1764460800, -1, 10)
    assert delivery_time("1764460800.123_4.host") == (1764460800, -1, 4)      # qmail's count
    assert delivery_time("1764460800.x123_4.host") == (1764460800, -1, -1)    # no M, no Q
    assert delivery_time("1764460800") == (1764460800, -1, -1)                # no dots at all
    assert delivery_time("nodots") == (-1, -1, -1)
    assert delivery_time("17644x0800.M9P1.host") == (-1, -1, -1)             # seconds not digits
    assert delivery_time("١٢٣.M9P1.host") == (-1, -1, -1)                    # not ASCII digits
    assert delivery_time("1764460800.P5M7.hostM99") == (1764460800, 7, -1)   # host not read
    assert delivery_time("") == (-1, -1, -1)


def test_maildir_messages_of_one_mtime_are_taken_by_the_time_their_names_carry(tmp_path):
    import os

    from companion.mail.mailbox import MaildirSource

    source = MaildirSource(tmp_path / "inbox")
    source.open()
    names = ["1764460801.M1P1.host",          # a second later
             "1764460800.M10P2.host",
             "1764460800.M9P3Q2.host",
             "1764460800.M9P3Q10.host",
             "1764460800.P4Q1.host",          # no M: before those with one
             "1764460800.123_9.host",         # qmail's <pid>_<count>: the count
             "1764460800.123_10.host",
             "1764460800.Xa.host",            # neither M nor Q nor count: the name decides
             "1764460800.Xb.host",
             "x.M1P1.host",                   # seconds not a number: first, by name
             "nodots",
             "999.M1P1.host:2,S"]             # seen: not waiting
    for name in names:
        path = tmp_path / "inbox" / "new" / name
        path.write_bytes(b"Subject: x\n\nx\n")
        os.utime(path, ns=(10**18, 10**18))
    late = tmp_path / "inbox" / "new" / "0.M0P0.host"       # the latest mtime comes last
    late.write_bytes(b"Subject: x\n\nx\n")
    os.utime(late, ns=(10**18 + 1, 10**18 + 1))
    assert source.waiting() == ["new/nodots", "new/x.M1P1.host",
                                "new/1764460800.Xa.host", "new/1764460800.Xb.host",
                                "new/1764460800.P4Q1.host",
                                "new/1764460800.123_9.host", "new/1764460800.123_10.host",
                                "new/1764460800.M9P3Q2.host", "new/1764460800.M9P3Q10.host",
                                "new/1764460800.M10P2.host", "new/1764460801.M1P1.host",
                                "new/0.M0P0.host"]
