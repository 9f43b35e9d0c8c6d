"""Play by email, the finishing touches: the report names the player's mail code, the
moderator hears of every refused message, `companion deadline` knows the default period, a
turn that cannot run is said once per deadline."""
from __future__ import annotations

import pytest

from companion.mail.identity import mail_code
from tests.every_kind import PLAYABLE, play, players_for
from tests.mail import corpus
from tests.mail.conftest import body
from tests.mail.helpers import new_game, rows, turn_one_taken_back
from tests.test_reports import pdf_text

ORDERS = corpus.ORDERS


# ------------------------------------------------------------------- the code in the report
@pytest.mark.parametrize("kind_id", PLAYABLE)
def test_each_report_tells_its_own_player_their_mail_code_and_nobody_else(
        kind_id, tmp_path, monkeypatch):
    from companion import service
    from companion.render.report_html import render_html
    from companion.store import Store

    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1798761600")
    monkeypatch.setenv("COMPANION_TEST_ENTROPY", "tests")
    names = players_for(kind_id, 3)
    # the first player has no address: they cannot play by mail, their report says nothing
    addresses = {n: f"p{i}@example.org" for i, n in enumerate(names) if i}
    store = Store(tmp_path / "s.sqlite3", create=True)
    out = tmp_path / "out"
    play(store, kind_id, "g", names, output=out)
    with store.transaction() as db:                 # addresses given later (as by mail)
        for name, address in addresses.items():
            db.execute("UPDATE players SET email=? WHERE game_id='g' AND name=?",
                       (address, name))
    service.render_reports(store, "g", None, out)
    game = store.game("g")
    turn = store.turn("g")
    codes = {p.name: mail_code(game, p) for p in game.players}
    folder = out / "g" / f"turn-{turn.number:03d}"
    docs = service.report_documents(game, turn)
    for viewer, doc in docs.items():
        slug = "public" if viewer == "public" else game.player(viewer).slug
        text = (folder / f"{slug}.txt").read_text(encoding="utf-8")
        pdf = " ".join(pdf_text((folder / f"{slug}.pdf").read_bytes()).split())
        html = render_html(doc)
        for owner, code in codes.items():
            shown = owner == viewer and owner in addresses
            for where, content in (("txt", text), ("pdf", pdf), ("html", html)):
                assert (code in content) == shown, (kind_id, viewer, owner, where)
        titles = [s["title"] for s in doc["sections"]]
        assert ("Orders by mail" in titles) == (viewer in addresses), (kind_id, viewer)
        if viewer in addresses:
            assert f"Your mail code: {codes[viewer]}" in text
            assert "subject" in text and addresses[viewer] in text
    store.close()


def test_a_game_without_addresses_has_reports_as_before(tmp_path, monkeypatch):
    from companion import service
    from companion.store import Store

    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1798761600")
    store = Store(tmp_path / "s.sqlite3", create=True)
    service.new_game(store, "gral", "g", ["Anna", "Bert"], seed="5")
    game = store.game("g")
    assert service.mail_codes(game) == {}
    docs = service.report_documents(game, store.turn("g"))
    assert not any(s["title"] == "Orders by mail" for d in docs.values()
                   for s in d["sections"])
    store.close()


def test_the_mailed_report_carries_the_code_in_body_pdf_and_text(world):
    who = new_game(world, "gral", "g1", ["Anna", "Bert"])
    world.run()
    from tests.mail.conftest import attachments

    for name, other in (("Anna", "Bert"), ("Bert", "Anna")):
        mine, theirs = world.code(who[name]), world.code(who[other])
        (report,) = world.to(who[name])
        pdf = " ".join(pdf_text(attachments(report)[f"{name.lower()}.pdf"]).split())
        assert mine in pdf and theirs not in pdf
        assert body(report).count(mine) >= 2 and theirs not in body(report)
        assert "Orders by mail" in body(report)
        said = " ".join(body(report).split())       # every word a player may send, pending too
        assert all(word in said for word in ("options (", "pending (", "resend (", "help,"))


# ------------------------------------------------------------- the moderator hears refusals
def test_the_moderator_secret_sent_from_another_address_is_masked_everywhere(world):
    """A stranger (or the moderator writing from a phone) with the moderator's secret in the
    subject is refused; the secret appears in no reply, no pass output, no review list."""
    new_game(world, "gral", "g1", ["Anna", "Bert"])
    world.run()
    world.send("eve@evil.example.org", "moderator-secret-42", "hold g1\n")
    log = world.run()
    sent = [m for m in world.sent() if m["To"] == "eve@evil.example.org"]
    assert sent and all("moderator-secret-42" not in m["Subject"] + body(m) for m in sent)
    assert sent[0]["Subject"] == "Not accepted: [code]"
    assert not any("moderator-secret-42" in line for line in log), log
    listed = world.cli.ok("mail", "inbox").out
    assert "moderator-secret-42" not in listed and "[code]" in listed


def test_the_moderator_is_told_of_every_refused_message_once(world):
    who = new_game(world, "gral", "g1", ["Anna", "Bert"])
    world.run()
    anna, bert = world.code(who["Anna"]), world.code(who["Bert"])
    world.send(who["Anna"], "my orders", ORDERS + "\n")                      # no code
    world.send(who["Anna"], f"orders {bert}", ORDERS + "\n")                 # Bert's code
    world.send("eve@evil.example.org", f"orders {anna}", ORDERS + "\n")      # stolen code
    world.send("mod@example.org", "hold g1", "hold g1\n")                    # no secret
    world.send(who["Bert"], f"orders {bert}", ORDERS + "\n")                 # accepted
    world.send(who["Anna"], "out of office", "away",                         # automatic
               Auto_Submitted="auto-replied")
    world.run()
    notices = [m for m in world.to("mod@example.org")
               if m["Subject"].startswith("companion: refused")]
    # the moderator's own message without the secret was answered to them: no notice
    assert sorted(m["Subject"] for m in notices) == sorted(
        [f"companion: refused a message from {who['Anna']}"] * 2
        + ["companion: refused a message from eve@evil.example.org"])
    text = "\n".join(body(m) for m in notices)
    for needle in ("carries no code", "not yours", "does not belong to the address",
                   "From:       eve@evil.example.org", "Subject:    orders [code]",
                   "companion mail inbox"):
        assert needle in text, needle
    assert anna not in text and bert not in text and "moderator-secret-42" not in text
    for msg in notices:
        assert msg["Auto-Submitted"] == "auto-generated"        # a reply to it loops nowhere
    recorded = rows(world, "SELECT key, state FROM mail_out WHERE key LIKE 'notice:%'")
    assert len(recorded) == 3 and {s for _, s in recorded} == {"sent"}
    before = len(world.sent())
    world.run()                                                # nothing is sent twice
    assert len(world.sent()) == before


def test_no_moderator_configured_no_notice(world):
    world.write_config(moderator=False)
    new_game(world, "gral", "g1", ["Anna", "Bert"])
    world.run()
    world.send("eve@evil.example.org", "orders", ORDERS + "\n")
    world.run()
    assert rows(world, "SELECT state FROM mail_in") == [("refused",)]
    assert rows(world, "SELECT COUNT(*) FROM mail_out WHERE key LIKE 'notice:%'") == [(0,)]


def test_a_notice_the_server_refuses_is_failed_and_retried(world, smtp_server):
    world.smtp = smtp_server
    world.write_config()
    new_game(world, "gral", "g1", ["Anna", "Bert"])
    world.run()
    smtp_server.refuse.add("mod@example.org")
    world.send("eve@evil.example.org", "orders", ORDERS + "\n")
    world.run()
    assert rows(world, "SELECT state, answer LIKE '%550%' FROM mail_out WHERE key LIKE "
                       "'notice:%'") == [("failed", 1)]
    smtp_server.refuse.clear()
    world.run()
    assert rows(world, "SELECT state FROM mail_out WHERE key LIKE 'notice:%'") == [("sent",)]
    assert len([r for r, _ in smtp_server.received if r == "mod@example.org"]) == 1


# ----------------------------------------------------------- deadline: the default period
def test_the_deadline_command_uses_the_configured_period_for_a_new_game(world):
    world.write_config('[deadlines]\nperiod = "3d"\nremind_before = "12h"\n')
    new_game(world, "gral", "g1", ["Anna", "Bert"])
    out = world.cli.ok("deadline", "g1").out               # no mail pass has seen g1 yet
    assert "deadline 2027-01-04 00:00 UTC" in out, out        # EPOCH 2027-01-01 + 3d
    assert "later turns' deadlines 3d after each turn" in out
    assert "reminders 12h before a deadline" in out
    out = world.cli.ok("deadline", "g1", "--period", "none", "--remind", "off").out
    assert "period" not in out and "reminders" not in out     # off, although the file says 3d
    world.run()
    out = world.cli.ok("deadline", "g1").out
    assert "period" not in out and "deadline 2027-01-04 00:00 UTC" in out


def test_a_deadline_must_lie_ahead_and_a_release_without_a_hold_says_so(world):
    """A deadline in the past (or now) would run the turn at the next pass: refused, nothing
    changed. '--release' of a game not held, or '--hold' of one held, says so."""
    new_game(world, "gral", "g1", ["Anna", "Bert"])
    before = world.cli.ok("deadline", "g1").out
    for when in ("2020-01-01 00:00", "+0d", "0"):
        bad = world.cli("deadline", "g1", when)
        assert bad.code == 1 and "is not in the future" in bad.err, (when, bad.err)
        assert "nothing was changed" in bad.err
    assert world.cli.ok("deadline", "g1").out == before
    assert "was not held: nothing to release" in world.cli.ok("deadline", "g1",
                                                              "--release").out
    assert "HELD" in world.cli.ok("deadline", "g1", "--hold").out
    assert "was already held" in world.cli.ok("deadline", "g1", "--hold").out


def test_the_deadline_command_without_a_mail_configuration(world):
    new_game(world, "gral", "g1", ["Anna", "Bert"])
    world.config_path.write_text('[web]\nport = 8080\n', encoding="utf-8")   # not for mail
    assert "no deadline" in world.cli.ok("deadline", "g1").out
    world.config_path.unlink()
    assert "no deadline" in world.cli.ok("deadline", "g1", "--period", "2d").out
    world.config_path.write_text('[mail]\naddress = "judge@example.org"\n[deadlines]\n'
                                 'period = "soon"\n', encoding="utf-8")
    result = world.cli("deadline", "g1")
    assert result.code == 1 and "companion.toml:" in result.err and "soon" in result.err


# ------------------------------------------------------- a turn that cannot run: said once
def test_a_turn_that_cannot_run_is_said_once_per_deadline(world, monkeypatch):
    who = new_game(world, "gral", "g1", ["Anna", "Bert"], options=("missing=wait",))
    world.cli.ok("deadline", "g1", "+1h")
    world.run()
    monkeypatch.setenv("COMPANION_TEST_CLOCK_OFFSET", str(3600 + 1))    # no orders at all
    logs = [world.run() for _ in range(3)]
    said = [[line for line in log if "game g1" in line] for log in logs]
    assert any("running turn 1" in line for line in said[0]), said
    assert any("no turn run" in line and "Anna, Bert" in line for line in said[0]), said
    assert said[1] == [] and said[2] == [], said              # quiet while nothing changes
    world.cli.ok("deadline", "g1", "+1h", env={"COMPANION_TEST_CLOCK_OFFSET": "3601"})
    monkeypatch.setenv("COMPANION_TEST_CLOCK_OFFSET", str(2 * 3600 + 2))
    log = world.run()                                          # a new deadline: said again
    assert sum("no turn run" in line for line in log) == 1, log
    assert [line for line in world.run() if "game g1" in line] == []
    world.send(who["Anna"], f"orders {world.code(who['Anna'])}", ORDERS + "\n")
    log = world.run()                                          # orders came: the turn runs
    assert any("running turn 1" in line for line in log), log
    assert any("turn 1 processed" in line for line in log), log
    assert rows(world, "SELECT COUNT(*) FROM companion_meta WHERE key LIKE 'mail-no-turn:%'"
                ) == [(0,)]


# ------------------------------------------------------- a send interrupted by a crash
def test_a_message_interrupted_while_sent_is_sent_again_and_said(world):
    who = new_game(world, "gral", "g1", ["Anna", "Bert"])
    killed = world.cli("mail", "run", env={"COMPANION_TEST_MAIL_CRASH": "after-send:1"})
    assert killed.code == 137
    assert rows(world, "SELECT state FROM mail_out ORDER BY id") == [("sending",), ("queued",)]
    first = sorted(world.outbox.glob("*.eml"))
    assert len(first) == 1                                   # written, not yet marked sent
    out = world.cli.ok("mail", "run").out
    assert "was being sent when an earlier pass stopped" in out
    assert rows(world, "SELECT state FROM mail_out ORDER BY id") == [("sent",), ("sent",)]
    assert sorted(world.outbox.glob("*.eml"))[0] == first[0]  # the same file, once
    assert len(world.to(who["Anna"])) == 1 and len(world.to(who["Bert"])) == 1


def test_a_held_game_gets_its_next_deadline_only_when_released(world):
    """docs/mail.md, a turn taken back: the deadline of the turn taken back is cleared and a
    game with a period gets its next deadline once released; a pass while it is held sets
    none (the time on hold would come off the players' period)."""
    world.write_config('[deadlines]\nperiod = "3d"\n')
    turn_one_taken_back(world)
    world.run()
    shown = world.cli.ok("deadline", "g1").out
    assert "turn 0: no deadline" in shown and "HELD" in shown, shown
    world.cli.ok("deadline", "g1", "--release")
    log = world.run()
    assert any("running turn 1" in line for line in log), log
    assert "turn 1: deadline" in world.cli.ok("deadline", "g1").out


def test_a_subject_naming_another_game_is_noted_in_the_reply(world):
    """A player's code decides the game; a subject tag naming another game ('[g9]', a reply to
    the wrong game's mail) is said in the reply, so that orders meant elsewhere are noticed."""
    who = new_game(world, "gral", "g1", ["Anna", "Bert"])
    world.run()
    world.send(who["Anna"], f"[g9] orders {world.code(who['Anna'])}", ORDERS + "\n")
    world.run()
    answer = body(world.to(who["Anna"])[-1])
    assert "the subject names game g9, but the code in this message is for game g1" in answer
    world.send(who["Bert"], f"Re: [g1] orders {world.code(who['Bert'])}", ORDERS + "\n")
    world.run()
    assert "subject names game" not in body(world.to(who["Bert"])[-1])
