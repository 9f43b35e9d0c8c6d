"""A seat given to a new player (docs/mail.md, "A player moves or leaves"): the other players
are told once, by the next pass, that the seat has a new player, with nothing of the seat's
address, token, code or link; the new player gets their report as before; a correction said
quiet is told to nobody. Through a real IMAP server (Dovecot) and a real SMTP server
(aiosmtpd) on the loopback interface (tests/mail/conftest.py)."""
from __future__ import annotations

import shutil
from collections import Counter
from pathlib import Path

from tests.mail import corpus
from tests.mail.conftest import attachments, body
from tests.mail.helpers import new_game, rows
from tests.mail.test_maildir import assert_private, players_secrets
from tests.mail.test_mail_store import DATA, columns

SECRET = "moderator-secret-42"


def servers(world, dovecot, smtp_server):
    world.imap, world.smtp = dovecot, smtp_server
    world.write_config()
    return world


def announcements(world, address: str) -> list:
    return [m for m in world.to(address) if m["Subject"].endswith("has a new player")]


def told(world, game_id: str) -> list[tuple]:
    return rows(world, "SELECT player, announce, from_turn FROM mail_address_changes WHERE "
                       "game_id=? ORDER BY id", game_id)


def test_a_seat_taken_over_is_told_once_to_the_others_and_nothing_of_it_leaks(
        world, dovecot, smtp_server):
    servers(world, dovecot, smtp_server)
    who = new_game(world, "gral", "g1", ["Anna", "Bert", "Cora"])
    world.run()
    for name in ("Anna", "Bert", "Cora"):           # turn 1 runs: the takeover is from turn 2
        world.send(who[name], f"orders {world.code(who[name])}", corpus.ORDERS + "\n")
    world.run()
    assert rows(world, "SELECT MAX(number) FROM turns WHERE game_id='g1'") == [(1,)]
    _, old_token, old_code = players_secrets(world, "g1")["Bert"]
    # the moderator's three steps (docs/mail.md): a new token, the new address, the report
    world.cli.ok("token", "g1", "Bert")
    out = world.cli.ok("game", "address", "g1", "Bert", "dora@example.net").out
    assert "the address of Bert is now dora@example.net" in out
    assert ("The other players are told by the next 'companion mail run' that Bert is played "
            "by a new player from turn 2") in out
    assert "run this again with --quiet before then" in out
    world.cli.ok("mail", "resend", "g1", "Bert")
    before = {a: len(world.to(a)) for a in who.values()}
    log = world.run()
    assert any("g1: Bert is played by a new player from turn 2: 2 other players told" in line
               for line in log), log
    _, new_token, new_code = players_secrets(world, "g1")["Bert"]
    for name in ("Anna", "Cora"):
        (mail,) = announcements(world, who[name])
        assert mail["Subject"] == "[g1] Bert has a new player"
        text = body(mail)
        assert text.startswith("Game g1: Bert is now played by a new player, from turn 2.")
        assert world.code(who[name]) in text                      # their own code, to answer
        raw = mail.as_string()
        for secret in (old_token, new_token, old_code, new_code, "dora@example.net",
                       who["Bert"], "dora", "bert."):
            assert secret not in raw, (name, secret)
        assert not attachments(mail)
        assert len(world.to(who[name])) == before[who[name]] + 1          # that one alone
    # the new player gets her report as before (her new code), and no announcement
    (report,) = world.to("dora@example.net")
    assert report["Subject"] == "[g1] turn 1 report for Bert (again)"
    assert new_code in body(report) and old_code not in body(report)
    assert set(attachments(report)) == {"bert.pdf"}
    assert len(world.to(who["Bert"])) == before[who["Bert"]]   # the old address: nothing
    assert told(world, "g1") == [("Bert", "told", 2)]
    assert_private(world, "g1")
    # passes run again (cron, --watch) send nothing more
    sent = len(smtp_server.received)
    world.run()
    world.run()
    assert len(smtp_server.received) == sent
    assert Counter(m["To"] for m in world.sent() if m["Subject"].endswith("new player")) == {
        who["Anna"]: 1, who["Cora"]: 1}
    # and the new player plays with her new code
    world.send("dora@example.net", f"orders {new_code}", corpus.ORDERS + "\n")
    world.run()
    assert "orders accepted" in world.to("dora@example.net")[-1]["Subject"]


def test_a_correction_said_quiet_is_told_to_nobody(world, dovecot, smtp_server):
    servers(world, dovecot, smtp_server)
    who = new_game(world, "gral", "g1", ["Anna", "Bert", "Cora"])
    world.run()
    sent = len(smtp_server.received)
    out = world.cli.ok("game", "address", "g1", "Cora", "cora@new.example.org", "--quiet").out
    assert "the address of Cora is now cora@new.example.org" in out
    assert "Quiet: the other players are not told" in out
    # forgot --quiet: the same command again with it cancels the announcement not sent yet
    out = world.cli.ok("game", "address", "g1", "Anna", "anna@new.example.org").out
    assert "told by the next 'companion mail run'" in out
    out = world.cli.ok("game", "address", "g1", "Anna", "anna@new.example.org", "--quiet").out
    assert "Quiet: the other players are not told (nor of the earlier change not told yet)" \
        in out
    log = world.run()
    assert not any("new player" in line for line in log), log
    assert len(smtp_server.received) == sent                     # nothing at all was mailed
    assert told(world, "g1") == [("Cora", "quiet", None), ("Anna", "quiet", 1),
                                 ("Anna", "quiet", None)]
    # bad input: a clear message, nothing changed, nothing to tell
    bad = world.cli("game", "address", "g1", "Bert", "dora@", "--quiet")
    assert bad.code == 1 and "not an email address" in bad.err
    bad = world.cli("game", "address", "g1", "Berta", "dora@example.net")
    assert bad.code == 1 and "did you mean 'Bert'" in bad.err
    assert len(told(world, "g1")) == 3
    world.run()
    assert len(smtp_server.received) == sent


def test_the_moderator_by_mail_and_what_is_never_told(world, dovecot, smtp_server):
    """By mail: 'address GAME PLAYER ADDRESS' is told in the same pass, 'quiet' after it is not.
    Never told: a player's own 'CODE address' (the same player, moved), the addresses given
    before the first reports went out (setting up), 'none' (until the seat has a player again,
    then once), and a mistyped address put right before the pass (one announcement)."""
    servers(world, dovecot, smtp_server)
    who = new_game(world, "gral", "g1", ["Anna", "Bert", "Cora"])
    world.cli.ok("game", "address", "g1", "Cora", "cora@setup.example.org")   # setting up
    world.run()
    cora = "cora@setup.example.org"
    assert not any(announcements(world, a) for a in [*who.values(), cora])
    assert told(world, "g1") == [("Cora", "", None)]
    # a player moves by herself: not a new player
    world.send(who["Anna"], f"{world.code(who['Anna'])} address anna@moved.example.org", "")
    world.run()
    assert "address changed" in world.to("anna@moved.example.org")[-1]["Subject"]
    assert not any(announcements(world, a) for a in [who["Bert"], cora])
    # the moderator by mail: Bert's seat to Dora (told now), Cora's address corrected (quiet)
    world.send("mod@example.org", SECRET, "address g1 Bert dora@example.net\n"
                                          "resend g1 Bert\n"
                                          "address g1 Cora cora@fixed.example.org quiet\n")
    log = world.run()
    answer = body(world.to("mod@example.org")[-1])
    assert ("g1: the address of Bert is now dora@example.net (was bert@g1.example.org); the "
            "other players are told in this pass that Bert is played by a new player from "
            "turn 1") in answer
    assert ("g1: the address of Cora is now cora@fixed.example.org (was "
            "cora@setup.example.org); quiet: the other players are not told") in answer
    assert any("Bert is played by a new player from turn 1: 2 other players told" in line
               for line in log), log
    assert len(announcements(world, "anna@moved.example.org")) == 1
    assert len(announcements(world, "cora@fixed.example.org")) == 1
    assert not announcements(world, "dora@example.net")
    assert "(again)" in world.to("dora@example.net")[0]["Subject"]
    # Dora leaves too: the seat has nobody ('none': nothing told), a stand-in is found, first
    # mistyped, then put right before the pass: one announcement, to the right address alone
    world.cli.ok("game", "address", "g1", "Bert", "none")
    world.run()
    world.cli.ok("game", "address", "g1", "Bert", "eve@exampel.net")
    world.cli.ok("game", "address", "g1", "Bert", "eve@example.net")
    world.run()
    assert len(announcements(world, "anna@moved.example.org")) == 2
    assert len(announcements(world, "cora@fixed.example.org")) == 2
    assert not world.to("eve@exampel.net") and not world.to("eve@example.net")
    assert [r[1] for r in told(world, "g1")] == ["", "", "told", "quiet", "", "told", "told"]
    assert_private(world, "g1")
    sent = len(smtp_server.received)
    world.run()
    assert len(smtp_server.received) == sent


def test_a_store_of_schema_6_is_upgraded_to_7_and_tells_nothing_of_old_changes(world):
    """tests/data/store-v6.sqlite3 was written by companion at schema 6: a Gral game 'g' whose
    turn-0 reports were mailed, after which Bert's seat went to dora@example.net. It upgrades
    once; that old change is never announced (nothing is due); a change made now is."""
    from companion.store import Store

    shutil.copy(DATA / "store-v6.sqlite3", world.store_path)
    store = Store(world.store_path)
    assert any("upgraded from schema 6 to 7" in n for n in store.notes)
    store.close()
    assert told(world, "g") == [("Bert", "", None)]
    assert rows(world, "SELECT mailed_turn FROM mail_games") == [(0,)]
    world.run()
    assert not any(m["Subject"].endswith("new player") for m in world.sent())
    world.cli.ok("game", "address", "g", "Bert", "eve@example.net")
    world.run()
    (mail,) = [m for m in world.sent() if m["Subject"].endswith("new player")]
    assert mail["To"] == "anna@example.org" and "from turn 1" in body(mail)
    fresh = Path(world.root) / "fresh.sqlite3"
    Store(fresh, create=True).close()
    assert columns(world.store_path, "mail_address_changes") == \
        columns(fresh, "mail_address_changes")
