"""Reading orders from a real IMAP server: Dovecot started by a fixture on a loopback port with
its own configuration and test user (tests/mail/conftest.py); replies and reports sent through
a real SMTP server (aiosmtpd). Skipped, saying so, where Dovecot is not installed."""
from __future__ import annotations

from collections import Counter

from tests.mail import corpus
from tests.mail.helpers import new_game, rows, submissions
from tests.mail.test_whole_games import play_by_mail


def imap_world(world, dovecot, smtp_server):
    world.imap, world.smtp = dovecot, smtp_server
    world.write_config()
    return world


def test_a_game_played_through_imap_and_smtp(world, dovecot, smtp_server):
    imap_world(world, dovecot, smtp_server)
    assert play_by_mail(world, "fluxx", "f1", ["Anna", "Bert", "Cora"], 3) >= 1
    assert dovecot.unseen() == 0                       # every message taken (flagged Seen)
    assert rows(world, "SELECT DISTINCT source FROM mail_in")[0][0].startswith("IMAP players@")


def test_a_message_fetched_twice_from_imap_is_processed_once(world, dovecot, smtp_server):
    imap_world(world, dovecot, smtp_server)
    who = new_game(world, "gral", "g1", ["Anna", "Bert"])
    world.run()
    raw = world.message(who["Anna"], f"o {world.code(who['Anna'])}", corpus.ORDERS + "\n",
                        message_id="<dup@example.org>")
    dovecot.append(raw)
    dovecot.append(raw)
    world.run()
    assert len(submissions(world, "g1")) == 1
    assert Counter(m["Subject"] for m in world.to(who["Anna"]))["[g1] orders accepted"] == 1


def test_mail_check_says_what_fails_with_imap(world, dovecot, smtp_server):
    imap_world(world, dovecot, smtp_server)
    out = world.cli.ok("mail", "check").out
    assert "mailbox: IMAP players@127.0.0.1" in out and "ok, 0 new messages" in out
    assert "smtp: SMTP server 127.0.0.1" in out
    dovecot.password_file.write_text("wrong\n")
    result = world.cli("mail", "check")
    assert result.code == 1 and "login as players refused" in result.err
    dovecot.password_file.write_text(dovecot.password + "\n")
    world.config_path.write_text(world.config_path.read_text().replace(
        "[mailbox]\n", '[mailbox]\nfolder = "Nowhere"\n'))
    result = world.cli("mail", "check")
    assert result.code == 1 and "no folder 'Nowhere'" in result.err


def test_imap_over_tls_and_starttls(world, dovecot_tls, smtp_server, certificate):
    """Dovecot with a certificate of its own: TLS from the start (imaps) and STARTTLS, the
    certificate checked against ca_file; without it, refused and said so."""
    imap_world(world, dovecot_tls, smtp_server)
    base = world.config_path.read_text()
    plain = f'port = {dovecot_tls.port}\ntls = "none"\n'
    assert plain in base
    who = new_game(world, "gral", "g1", ["Anna", "Bert"])
    for mode, port in (("tls", dovecot_tls.tls_port), ("starttls", dovecot_tls.port)):
        text = base.replace(plain, f'port = {port}\ntls = "{mode}"\n'
                                   f'ca_file = "{certificate.cert}"\n')
        world.config_path.write_text(text)
        assert f"{port}/INBOX ({mode}): ok" in world.cli.ok("mail", "check").out
        world.config_path.write_text(text.replace(f'ca_file = "{certificate.cert}"\n', ""))
        result = world.cli("mail", "check")
        assert result.code == 1 and "certificate" in result.err.lower(), result.err
    world.config_path.write_text(base.replace(
        plain, f'port = {dovecot_tls.tls_port}\ntls = "tls"\nca_file = "{certificate.cert}"\n'))
    world.run()
    world.send(who["Anna"], f"o {world.code(who['Anna'])}", corpus.ORDERS + "\n")
    world.run()
    assert [s.player for s in submissions(world, "g1")] == ["Anna"]
