"""What a stranger (anybody who can send mail to the moderator's address) or a player can put
in a message's headers never stops the pass, never holds up the other players' mail and never
silences a notice meant for a player (docs/security.md, Mail)."""
from __future__ import annotations

import pytest

from tests.mail import corpus
from tests.mail.helpers import new_game, rows, submissions


@pytest.fixture
def narrow_smtp():
    """A real SMTP server that does not offer SMTPUTF8 (no addresses beyond ASCII)."""
    pytest.importorskip("aiosmtpd", reason="the SMTP tests need aiosmtpd (pip install "
                                           "'.[test]')")
    from tests.mail.conftest import SmtpServer

    server = SmtpServer(smtputf8=False)
    yield server
    server.stop()


def test_an_address_beyond_ascii_fails_alone_and_the_other_mail_goes_out(world, narrow_smtp):
    """A stranger writing from an address with letters beyond ASCII gets a refusal, which a
    server without SMTPUTF8 cannot take: that one message is marked failed with the reason,
    the pass goes on, and every report and notice queued after it is sent. A server offering
    SMTPUTF8 gets it."""
    from tests.mail.conftest import SmtpServer

    smtp_server = narrow_smtp
    world.smtp = smtp_server
    world.write_config()
    who = new_game(world, "gral", "g1", ["Anna", "Bert"])
    world.send("jörg@bücher.example", "hello", "orders?\n")
    log = world.run()                                   # once raised UnicodeEncodeError
    assert sorted(r for r, _ in smtp_server.received) == sorted(
        [who["Anna"], who["Bert"], "mod@example.org"])
    (state, answer), = rows(world, "SELECT state, answer FROM mail_out WHERE recipient=?",
                            "jörg@bücher.example")
    assert state == "failed" and "SMTPUTF8" in answer, answer
    assert any("could not send" in line and "SMTPUTF8" in line for line in log), log
    # the next pass tries it again and still sends the new mail around it
    world.send(who["Anna"], f"orders {world.code(who['Anna'])}", corpus.ORDERS + "\n")
    world.run()
    assert [m["Subject"] for m in world.to(who["Anna"])][-1] == "[g1] orders accepted"
    assert rows(world, "SELECT attempts FROM mail_out WHERE recipient=?",
                "jörg@bücher.example") == [(2,)]
    # a server that takes such addresses gets the refusal
    wide = SmtpServer(smtputf8=True)
    try:
        world.smtp = wide
        world.write_config()
        world.run()
        assert [r for r, _ in wide.received] == ["jörg@bücher.example"]
    finally:
        wide.stop()
    assert rows(world, "SELECT DISTINCT state FROM mail_out") == [("sent",)]


def test_a_message_id_chosen_by_a_sender_never_silences_the_old_address_notice(world):
    """Whoever changes a player's address with their code, the old address is told: a
    message sent first with the Message-ID 'X:old' (its refusal queued under its own key)
    does not stop the notice of the address change sent as 'X'."""
    who = new_game(world, "gral", "g1", ["Anna", "Bert"])
    world.run()
    code = world.code(who["Anna"])
    world.deliver(with_id(world, "mallory@evil.example", "hello", "hi\n", "hijack:old"))
    world.deliver(with_id(world, "mallory@evil.example", f"{code} address", "\n", "hijack"))
    world.run()
    told = [m for m in world.to(who["Anna"]) if m["Subject"] == "[g1] your address was changed"]
    assert len(told) == 1, [m["Subject"] for m in world.to(who["Anna"])]
    assert "mallory@evil.example" in told[0].get_body().get_content()
    assert code not in told[0].as_string()          # no code goes to the old address


def test_the_moderator_hears_of_a_seat_moved_by_mail_above_all_one_left_without_address(world):
    """A seat the moderator left without an address ('none': its player gone) can still be
    moved by its old code ('CODE address', from anywhere): nobody else would learn of it, so
    the moderator is told, with what to do; an ordinary move by mail is told to them too.
    The notice holds no code."""
    who = new_game(world, "gral", "g1", ["Anna", "Bert"])
    world.run()
    code = world.code(who["Bert"])
    world.cli.ok("game", "address", "g1", "Bert", "none")
    world.run()
    world.send("bert@elsewhere.example", f"{code} address", "")
    world.run()
    notices = [m for m in world.to("mod@example.org")
               if m["Subject"] == "companion: Bert in game g1 changed their address"]
    assert len(notices) == 1, [m["Subject"] for m in world.to("mod@example.org")]
    text = notices[0].get_body().get_content()
    assert "from none (no mail) to bert@elsewhere.example" in text
    assert "companion token g1 \"Bert\"" in text and code not in notices[0].as_string()
    anna = world.code(who["Anna"])
    world.send("anna@moved.example", f"{anna} address", "")
    world.run()
    moved = [m for m in world.to("mod@example.org") if "Anna in game g1" in m["Subject"]]
    assert len(moved) == 1 and anna not in moved[0].as_string()
    assert f"from {who['Anna']} to anna@moved.example" in moved[0].get_body().get_content()


def test_a_from_address_that_cannot_be_answered_is_said_so(world):
    """A From: address holding a line break or a control character cannot be the To: of a
    reply: the message goes to the review list saying why (not as a failure of companion),
    and the other messages of the pass are answered as ever."""
    who = new_game(world, "gral", "g1", ["Anna", "Bert"])
    world.run()
    for n, address in enumerate(("ev\u2028il@x.example", "ev\x00il@x.example")):
        world.deliver(f"From: {address}\r\nTo: judge@example.org\r\nSubject: hi\r\n"
                      f"Message-ID: <odd{n}@x.example>\r\n\r\nhello\r\n".encode("utf-8"))
    world.send(who["Bert"], f"orders {world.code(who['Bert'])}", corpus.ORDERS + "\n")
    world.run()
    outcomes = rows(world, "SELECT state, outcome FROM mail_in WHERE message_id LIKE '<odd%' "
                           "ORDER BY message_id")
    assert len(outcomes) == 2
    for state, outcome in outcomes:
        assert state == "review" and "bug" not in outcome, outcome
        assert "cannot be answered" in outcome, outcome
    assert [m["Subject"] for m in world.to(who["Bert"])][-1] == "[g1] orders accepted"
    assert rows(world, "SELECT COUNT(*) FROM mail_out WHERE recipient LIKE 'ev%'") == [(0,)]


def with_id(world, sender: str, subject: str, body: str, message_id: str) -> bytes:
    """A message with its Message-ID header exactly as given (EmailMessage would read it, and
    shorten it, as the parser does)."""
    raw = world.message(sender, subject, body, message_id="<placeholder@tests.example>")
    return raw.replace(b"<placeholder@tests.example>", message_id.encode("ascii"))


def test_two_messages_whose_ids_the_parser_shortens_alike_are_both_read(world):
    """The email parser reads the Message-IDs '<day:1@client>' and '<day:2@client>' both as
    '<day': as keys they would make the second message 'read twice' and drop it. Each is read,
    and a message fetched again is still read once."""
    who = new_game(world, "gral", "g1", ["Anna", "Bert"])
    world.run()
    code = world.code(who["Anna"])
    world.deliver(with_id(world, who["Anna"], f"orders {code}", corpus.ORDERS + "\n",
                          "<day:1@client>"))
    world.run()
    world.deliver(with_id(world, who["Anna"], f"{code} pending", "\n", "<day:2@client>"))
    world.run()
    subjects = [m["Subject"] for m in world.to(who["Anna"])]
    assert subjects[-2:] == ["[g1] orders accepted", "[g1] your pending orders"], subjects
    raw = with_id(world, who["Anna"], f"{code} pending", "\n", "<day:3@client>")
    world.deliver(raw)
    world.deliver(raw)                                  # the same message twice
    world.run()
    assert [m["Subject"] for m in world.to(who["Anna"])][len(subjects):] == [
        "[g1] your pending orders"]
    assert rows(world, "SELECT COUNT(*) FROM mail_in") == [(3,)]


def test_no_control_character_of_a_message_reaches_a_reply_or_a_progress_line(world):
    """Escape sequences and other control characters in a message's ID, subject or sender
    (which would act on the moderator's terminal, or break a header) appear in no progress
    line, no review entry and no mail sent; the message is answered as ever, and 'mail inbox
    --show' writes them out instead of sending them to the terminal."""
    who = new_game(world, "gral", "g1", ["Anna", "Bert"])
    world.run()
    code = world.code(who["Anna"])
    escape = "\x1b]0;owned\x07\x1b[2J"
    world.deliver(f"From: {who['Anna']}\r\nTo: judge@example.org\r\nSubject: {code} pending"
                  f"{escape}\r\nMessage-ID: <a{escape}b@x.example>\r\n\r\n\r\n".encode("utf-8"))
    world.deliver(f"From: stranger{escape}@x.example\r\nTo: judge@example.org\r\nSubject: "
                  f"{escape}hello\r\nMessage-ID: <c{escape}d@x.example>\r\n\r\nhi\r\n"
                  .encode("utf-8"))
    world.deliver(f"From: other@x.example\r\nTo: judge@example.org\r\nSubject: "
                  f"{escape}hello\r\nMessage-ID: <e@x.example>\r\n\r\nhi\r\n".encode("utf-8"))
    log = world.run()
    assert not any("\x1b" in line or "\x07" in line for line in log), log
    stored = rows(world, "SELECT message_id, sender, subject, outcome FROM mail_in")
    assert not any("\x1b" in (value or "") for row in stored for value in row), stored
    assert [m["Subject"] for m in world.to(who["Anna"])][-1] == "[g1] your pending orders"
    refused, = world.to("other@x.example")
    assert "\x1b" not in refused["Subject"] and "\x1b" not in refused.get_body().get_content()
    assert world.cli.ok("mail", "inbox", "--all").out.count("\x1b") == 0
    shown = world.cli.ok("mail", "inbox", "--show", "<e@x.example>").out
    assert "\x1b" not in shown and "\x07" not in shown and "\r" not in shown
    assert "Subject: \\x1b]0;owned\\x07\\x1b[2Jhello\n" in shown     # said, never obeyed


def test_orders_by_mail_are_bounded_as_on_the_web_page(world):
    """Orders by mail have the web form's limit (MAX_ORDER_CHARS): a longer text is refused
    unread, saying its length and the limit, and nothing is stored; a text within it with a
    great many mistakes gets a reply listing the first MAIL_ERRORS and how many more."""
    from companion.engine.orders import MAX_ORDER_CHARS
    from companion.mail.run import MAIL_ERRORS

    who = new_game(world, "gral", "g1", ["Anna", "Bert"])
    world.run()
    code = world.code(who["Anna"])
    world.send(who["Anna"], f"orders {code}", "nonsense here\n" * (MAX_ORDER_CHARS // 10))
    world.run()
    reply = world.to(who["Anna"])[-1]
    text = reply.get_body().get_content()
    assert reply["Subject"] == "[g1] orders NOT accepted"
    assert f"{MAX_ORDER_CHARS:,}" in text and "28,000 characters" in text, text
    assert rows(world, "SELECT COUNT(*) FROM submissions") == [(0,)]
    # a long report quoted whole, orders written below it: read, not refused for the quote
    quoted = "> a line of the report quoted in the reply\n" * (MAX_ORDER_CHARS // 20)
    world.send(who["Anna"], f"Re: orders {code}", quoted + "pass\n")
    world.run()
    assert world.to(who["Anna"])[-1]["Subject"] == "[g1] orders accepted"
    world.send(who["Anna"], f"orders {code}", "nonsense here\n" * 1000)
    world.run()
    text = world.to(who["Anna"])[-1].get_body().get_content()
    assert text.count("unknown order 'nonsense'") == MAIL_ERRORS, text[:2000]
    assert f"... and {1000 - MAIL_ERRORS} more errors after line {MAIL_ERRORS}" in text
    assert "1000 errors in message; no orders were accepted" in text
    assert len(text) < 20_000


def test_a_message_too_large_to_read_is_kept_and_its_sender_told(world):
    """A message over MAX_MESSAGE_BYTES (thousands of parts, a pasted archive), or with more
    header lines than MAX_HEADER_BYTES, is not parsed beyond its first header lines: it is
    stored whole, its sender gets a refusal saying why, the moderator a notice, nothing is
    submitted, and the other players' mail of the pass is answered as ever."""
    from companion.mail.parse import MAX_HEADER_BYTES, MAX_MESSAGE_BYTES

    who = new_game(world, "gral", "g1", ["Anna", "Bert"])
    world.run()
    code = world.code(who["Anna"])
    world.send(who["Anna"], f"orders {code}", "pass\n" + "x" * MAX_MESSAGE_BYTES + "\n")
    world.send(who["Bert"], f"orders {world.code(who['Bert'])}", "pass\n")
    world.send(who["Anna"], f"{code} help", "", **{"X-Padding": "y" * (MAX_HEADER_BYTES + 10)})
    world.run()
    subjects = [m["Subject"] for m in world.to(who["Anna"])]
    refusals = [m for m in world.to(who["Anna"]) if m["Subject"].startswith("Not accepted: orders")]
    assert len(refusals) == 1, subjects
    refusal = refusals[0]
    text = refusal.get_body().get_content()
    assert "MB; companion reads messages of up to 10 MB" in text, text
    assert any(m["Subject"].startswith("Not accepted") and "help" in m["Subject"]
               for m in world.to(who["Anna"])), subjects
    assert "[g1] orders accepted" in [m["Subject"] for m in world.to(who["Bert"])]
    assert rows(world, "SELECT state FROM mail_in WHERE sender=? ORDER BY rowid",
                who["Anna"])[-2:] == [("refused",), ("refused",)]
    assert rows(world, "SELECT length(raw) > ? FROM mail_in WHERE sender=? ORDER BY rowid",
                MAX_MESSAGE_BYTES, who["Anna"])[-2] == (1,)
    assert [s.player for s in submissions(world, "g1")] == ["Bert"]


def many_parts(sender: str, subject: str, parts: int, boundary: str = "XYZ") -> bytes:
    """A message of ``parts`` tiny text parts, the first holding the orders."""
    body = b"".join(b"--%s\r\nContent-Type: text/plain\r\n\r\n%s\r\n"
                    % (boundary.encode(), b"pass" if k == 0 else b"part %d" % k)
                    for k in range(parts))
    return (f"From: {sender}\r\nTo: judge@example.org\r\nSubject: {subject}\r\n"
            f"Message-ID: <parts{parts}@players.example.org>\r\nMIME-Version: 1.0\r\n"
            f'Content-Type: multipart/mixed; boundary="{boundary}"\r\n\r\n').encode() \
        + body + b"--%s--\r\n" % boundary.encode()


def test_a_message_of_too_many_parts_is_kept_and_its_sender_told(world):
    """Python's parser takes about a millisecond a MIME part: a message of more than MAX_PARTS
    parts (ten megabytes of tiny ones would hold the pass up for minutes) is stored whole and
    not parsed, and its sender is told why; one of MAX_PARTS parts is read as ever."""
    from companion.mail.parse import MAX_PARTS, mime_parts

    who = new_game(world, "gral", "g1", ["Anna", "Bert"])
    world.run()
    anna, bert = who["Anna"], who["Bert"]
    world.deliver(many_parts(anna, f"orders {world.code(anna)}", MAX_PARTS + 1))
    world.deliver(many_parts(bert, f"orders {world.code(bert)}", MAX_PARTS))
    world.run()
    refusal = world.to(anna)[-1]
    assert refusal["Subject"].startswith("Not accepted: orders"), refusal["Subject"]
    assert f"more than {MAX_PARTS} parts" in refusal.get_body().get_content()
    assert world.to(bert)[-1]["Subject"] == "[g1] orders accepted"
    assert [s.player for s in submissions(world, "g1")] == ["Bert"]
    assert rows(world, "SELECT state FROM mail_in WHERE sender=? ORDER BY rowid", anna)[-1] \
        == ("refused",)
    # counted without parsing, and soon: many boundaries declared are as many parts
    raw = b"".join(b'Content-Type: multipart/mixed; boundary="b%d"\r\n' % k
                   for k in range(50_000))
    assert mime_parts(raw) > MAX_PARTS


def test_refusals_to_one_address_are_limited_so_no_one_can_be_flooded_through_companion(
        world, monkeypatch):
    """A From address can be forged: companion answers at most REFUSALS_A_DAY refusals to one
    address in 24 hours (the last says so) and sends the moderator as many notices of it; the
    messages after that are kept on the review list, with why no reply went. Another address,
    and the players, are answered as ever; a day later the address is answered again."""
    from companion.mail.run import REFUSALS_A_DAY

    who = new_game(world, "gral", "g1", ["Anna", "Bert"])
    world.run()
    victim = "victim@elsewhere.example"
    for k in range(REFUSALS_A_DAY + 3):
        world.send(victim, f"spam {k}", "buy now\n")
    world.send("other@elsewhere.example", "hello", "hi\n")
    world.send(who["Anna"], f"{world.code(who['Anna'])} help", "")
    world.run()
    refusals = world.to(victim)
    assert len(refusals) == REFUSALS_A_DAY, [m["Subject"] for m in refusals]
    assert "not answered again until a day has passed" in \
        refusals[-1].get_body().get_content()
    notices = [m for m in world.to("mod@example.org") if victim in m["Subject"]]
    assert len(notices) == REFUSALS_A_DAY
    outcomes = rows(world, "SELECT state, outcome FROM mail_in WHERE sender=? ORDER BY rowid",
                    victim)
    assert [s for s, _ in outcomes] == ["refused"] * (REFUSALS_A_DAY + 3)
    assert all("no reply sent" in o for _, o in outcomes[REFUSALS_A_DAY:])
    assert len(world.to("other@elsewhere.example")) == 1
    assert "[g1] help" in [m["Subject"] for m in world.to(who["Anna"])]
    monkeypatch.setenv("COMPANION_TEST_CLOCK_OFFSET", str(25 * 3600))
    world.send(victim, "again", "hi\n")
    world.run()
    assert len(world.to(victim)) == REFUSALS_A_DAY + 1
