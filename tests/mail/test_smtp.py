"""Sending through a real SMTP server (aiosmtpd on 127.0.0.1): reports to the right players,
a refused recipient and a dropped connection recorded and retried, nothing sent twice."""
from __future__ import annotations

from collections import Counter

from tests.mail import corpus
from tests.mail.conftest import attachments, body
from tests.mail.helpers import new_game, rows


def smtp_world(world, server):
    world.smtp = server
    world.write_config()
    return world


def test_reports_and_replies_go_out_by_smtp(world, smtp_server):
    smtp_world(world, smtp_server)
    who = new_game(world, "mayhem", "m1", ["Anna", "Bert", "Cora"])
    world.run()
    assert sorted(r for r, _ in smtp_server.received) == sorted(who.values())
    for name, address in who.items():
        (msg,) = world.to(address)
        assert set(attachments(msg)) == {f"{name.lower()}.pdf"}
        assert f"the report of {name}" in body(msg)
    assert rows(world, "SELECT DISTINCT state, answer FROM mail_out") == [("sent",
                                                                           "250 accepted")]
    out = world.cli.ok("mail", "check").out
    assert "smtp: SMTP server 127.0.0.1" in out and "connected" in out


def test_a_refused_recipient_is_recorded_and_retried(world, smtp_server):
    smtp_world(world, smtp_server)
    who = new_game(world, "gral", "g1", ["Anna", "Bert"])
    smtp_server.refuse = {who["Bert"]}
    log = world.run()
    assert any("could not send" in line and "550" in line for line in log), log
    (state, attempts, answer), = rows(world, "SELECT state, attempts, answer FROM mail_out "
                                             "WHERE recipient=?", who["Bert"])
    assert state == "failed" and attempts == 1 and "550" in answer and "unavailable" in answer
    assert "failed" in world.cli.ok("mail", "outbox").out
    world.run()                                               # still refused: tried again
    assert rows(world, "SELECT attempts FROM mail_out WHERE recipient=?", who["Bert"]) == [(2,)]
    smtp_server.refuse = set()
    world.run()
    counts = Counter(r for r, _ in smtp_server.received)
    assert counts == {who["Anna"]: 1, who["Bert"]: 1}           # each once, none twice
    assert rows(world, "SELECT DISTINCT state FROM mail_out") == [("sent",)]


def test_a_dropped_connection_is_retried_and_nothing_is_sent_twice(world, smtp_server):
    smtp_world(world, smtp_server)
    who = new_game(world, "gral", "g1", ["Anna", "Bert"])
    smtp_server.drop_next = 1
    log = world.run()
    assert any("closed the connection" in line for line in log), log
    assert len(smtp_server.received) == 1                     # the other one went through
    world.run()
    world.run()
    assert Counter(r for r, _ in smtp_server.received) == {who["Anna"]: 1, who["Bert"]: 1}
    world.send(who["Anna"], f"o {world.code(who['Anna'])}", corpus.ORDERS + "\n")
    world.run()
    assert len([m for m in world.to(who["Anna"]) if "accepted" in m["Subject"]]) == 1


def test_a_server_that_is_down_is_said_and_the_mail_waits(world, smtp_server):
    smtp_world(world, smtp_server)
    who = new_game(world, "gral", "g1", ["Anna", "Bert"])
    smtp_server.stop()
    log = world.run()
    assert sum("could not send" in line for line in log) == 2
    result = world.cli("mail", "check")
    assert result.code == 1 and "smtp: FAILED" in result.err and "127.0.0.1" in result.err
    from tests.mail.conftest import SmtpServer

    again = SmtpServer()
    try:
        smtp_world(world, again)
        world.run()
        assert sorted(r for r, _ in again.received) == sorted(who.values())
    finally:
        again.stop()


def test_starttls_and_tls_with_a_certificate_of_ones_own(world, certificate):
    """A real TLS handshake: STARTTLS (port 587 style) and TLS from the start (465 style),
    the server's certificate checked against ca_file; a login over TLS."""
    from tests.mail.conftest import SmtpServer

    who = new_game(world, "gral", "g1", ["Anna", "Bert"])
    for mode in ("starttls", "tls"):
        server = SmtpServer(cert=certificate, mode=mode)
        try:
            world.smtp = server
            world.write_config()
            text = world.config_path.read_text().replace(
                'tls = "none"\ntimeout = 5\n',
                f'tls = "{mode}"\ntimeout = 5\nca_file = "{certificate.cert}"\n')
            world.config_path.write_text(text)
            assert f"({mode}): connected" in world.cli.ok("mail", "check").out
            if mode == "starttls":
                world.run()
                assert sorted(r for r, _ in server.received) == sorted(who.values())
            # without the certificate's authority the connection is refused, and said so
            world.config_path.write_text(text.replace(f'ca_file = "{certificate.cert}"\n', ""))
            result = world.cli("mail", "check")
            assert result.code == 1 and "certificate" in result.err.lower(), result.err
        finally:
            server.stop()
