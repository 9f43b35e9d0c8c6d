"""What a moderator setting up real mail ran into: every configuration problem at once (with
file, line and a suggestion, nothing changed), secret files open to others, refusals that told
a stranger whether a code was live, and greetings and sign-offs around the orders."""
from __future__ import annotations

import os
import re

import pytest

from companion.mail.config import inspect
from companion.mail.parse import GREETINGS, SIGN_OFFS, courtesies, without_courtesies
from companion.registry import KINDS

from tests.mail import corpus
from tests.mail.conftest import body
from tests.mail.helpers import new_game, rows, submissions

ORDERS = corpus.ORDERS


# ------------------------------------------------------------ 1. every problem in one go
def broken_config(world) -> None:
    """A companion.toml with mistakes of every kind: malformed values, an environment
    variable that is not set, a password file that is not there, a ca_file that is not there,
    a moderator's secret with a space in it."""
    (world.root / "mod-secret").write_text("two words\n")
    os.chmod(world.root / "mod-secret", 0o600)
    world.config_path.write_text(
        '[mail]\n'
        'address = "judge"\n'                                           # 2
        'moderator = "mod@example.org"\n'
        'moderator_secret_file = "mod-secret"\n'                        # 4
        '[mailbox]\n'
        'kind = "imap"\n'
        'host = "imap.example.org"\n'
        'user = "judge@example.org"\n'
        'password_env = "COMPANION_TEST_UNSET_PASSWORD"\n'              # 9
        'ca_file = "no-such-ca.pem"\n'                                  # 10
        '[smtp]\n'
        'host = "smtp.example.org"\n'
        'tls = "ssl"\n'                                                 # 13
        'user = "judge@example.org"\n'
        'password_file = "no-such-password"\n'                          # 15
        '[deadlines]\n'
        'period = "3 weeks"\n'                                          # 17
        '[outbox]\n'
        'path = "outbox"\n', encoding="utf-8")


def test_mail_check_says_every_problem_at_once_with_its_line_and_a_suggestion(world):
    broken_config(world)
    world.cli.env.pop("COMPANION_TEST_UNSET_PASSWORD", None)
    result = world.cli("mail", "check")
    assert result.code == 1 and "Traceback" not in result.err
    path = str(world.config_path)
    expected = {2: "not an email address", 4: "holds a space", 9: "COMPANION_TEST_UNSET_PASSWORD",
                10: "'ca_file'", 13: "'tls' must be one of", 15: "does not exist",
                17: "is not a duration"}
    said = [line for line in result.err.splitlines() if line.startswith(path)]
    for number, needle in expected.items():
        assert any(line.startswith(f"{path}:{number}:") and needle in line for line in said), \
            (number, needle, result.err)
    # every error has a suggestion, and they come in the order of the file
    assert result.err.count("  hint: ") >= len(expected)
    numbers = [int(line[len(path) + 1:].split(":")[0]) for line in said]
    assert numbers == sorted(numbers)
    # both servers have errors of their own: not tried, and said so
    assert "mailbox: not tried: fix what is wrong in [mailbox]" in result.err
    assert "smtp: not tried: fix what is wrong in [smtp]" in result.err
    assert "7 errors" in result.err and "nothing was changed" in result.err
    assert "not set" in result.err and "export COMPANION_TEST_UNSET_PASSWORD=" in result.err


def test_inspect_reads_everything_and_raises_nothing_but_a_syntax_error(world):
    broken_config(world)
    found = inspect(world.config_path)
    assert len(found.errors) == 7 and found.broken("mailbox") and found.broken("smtp")
    assert all(e.hint for e in found.errors), [e.message for e in found.errors if not e.hint]
    world.config_path.write_text('[mail\naddress = "j@example.org"\n')
    result = world.cli("mail", "check")
    assert result.code == 1 and f"{world.config_path}:1:" in result.err
    assert "nothing else was checked" in result.err


def test_a_secret_is_the_first_line_of_its_file_and_an_empty_variable_is_said(world,
                                                                              monkeypatch):
    from companion.mail.config import load

    secret = world.root / "secret"
    secret.write_text("a-long-moderator-secret-42\r\n# made on the first day\n")
    os.chmod(secret, 0o600)
    world.config_path.write_text(
        '[mail]\naddress = "judge@example.org"\nmoderator = "mod@example.org"\n'
        f'moderator_secret_file = "{secret}"\n[mailbox]\npath = "inbox"\n'
        '[smtp]\nhost = "127.0.0.1"\ntls = "none"\nuser = "u"\n'
        'password_env = "COMPANION_TEST_EMPTY_PASSWORD"\n', encoding="utf-8")
    monkeypatch.setenv("COMPANION_TEST_EMPTY_PASSWORD", "")
    assert load(world.config_path).moderator_secret() == "a-long-moderator-secret-42"
    found = inspect(world.config_path)
    assert [(e.line, "is set but empty" in e.message) for e in found.errors] == [(11, True)]
    assert found.broken("smtp") and not found.broken("mail") and not found.warnings


def test_mail_check_changes_nothing(world):
    """No folder made, no message taken: the Maildir and the outbox folder that the first
    'mail run' makes are not made by 'mail check'."""
    new_game(world, "gral", "g1", ["Anna", "Bert"])
    out = world.cli.ok("mail", "check").out
    assert "does not exist yet" in out
    assert not world.inbox.exists() and not world.outbox.exists()
    world.send("anna@g1.example.org", "hello", "hello\n")
    before = sorted(p.name for p in (world.inbox / "new").iterdir())
    out = world.cli.ok("mail", "check").out
    assert "ok, 1 new message" in out
    assert sorted(p.name for p in (world.inbox / "new").iterdir()) == before
    assert not list((world.inbox / "cur").iterdir()) and not world.outbox.exists()


def test_mail_check_examines_the_imap_folder_without_changing_it(world, dovecot, smtp_server):
    """The folder is opened read-only (EXAMINE): nothing flagged Seen, and a message flagged
    Deleted by a mail program is not expunged (a CLOSE of a folder opened read-write would)."""
    world.imap, world.smtp = dovecot, smtp_server
    world.write_config()
    os.chmod(dovecot.password_file, 0o600)
    dovecot.append(world.message("anna@example.org", "one", "one\n"))
    dovecot.append(world.message("anna@example.org", "two", "two\n"))
    imap = dovecot.connect()
    imap.select("INBOX")
    imap.store("1", "+FLAGS", "(\\Deleted)")
    imap.logout()                                   # no CLOSE: flagged, not expunged
    result = world.cli.ok("mail", "check")
    assert "ok, 2 new messages" in result.out and "warning" not in result.err
    imap = dovecot.connect()
    imap.select("INBOX", readonly=True)
    assert len(imap.search(None, "ALL")[1][0].split()) == 2
    imap.logout()
    assert dovecot.unseen() == 2


# --------------------------------------------------- 2. secret files open to others
def test_a_secret_file_others_can_read_is_warned_about_naming_the_fix(world):
    secret = world.root / "moderator secret"
    secret.write_text("a-long-moderator-secret-42\n")
    os.chmod(secret, 0o644)
    world.config_path.write_text(
        '[mail]\naddress = "judge@example.org"\nmoderator = "mod@example.org"\n'
        f'moderator_secret_file = "{secret}"\n[mailbox]\npath = "inbox"\n'
        '[outbox]\npath = "outbox"\n', encoding="utf-8")
    new_game(world, "gral", "g1", ["Anna", "Bert"])
    result = world.cli.ok("mail", "check")          # a warning, not a refusal
    warning = f"{world.config_path}:4:1: warning: [mail]: 'moderator_secret_file': " \
              f"permissions 0644 for the moderator's secret file {secret} are too open"
    assert warning in result.err, result.err
    assert f"chmod 600 '{secret}'" in result.err and "every user of this machine" in result.err
    assert "1 warning" in result.err and "a-long-moderator-secret-42" not in result.err
    result = world.cli.ok("mail", "run")             # said by every run, which goes on
    assert warning in result.err and "pass done" in result.out
    os.chmod(secret, 0o640)
    assert "its group can read it" in world.cli.ok("mail", "check").err
    os.chmod(secret, 0o600)
    result = world.cli.ok("mail", "check")
    assert "warning" not in result.err and "configuration is valid" in result.out
    assert "warning" not in world.cli.ok("mail", "run").err


def test_a_password_file_others_can_read_is_warned_about(world, dovecot, smtp_server):
    world.imap, world.smtp = dovecot, smtp_server
    world.write_config()
    os.chmod(dovecot.password_file, 0o604)
    result = world.cli.ok("mail", "check")
    assert "permissions 0604 for the IMAP password file" in result.err
    assert f"chmod 600 {dovecot.password_file}" in result.err
    assert "ok, 0 new messages" in result.out                  # and it is used all the same
    assert dovecot.password not in result.err + result.out


def test_a_short_moderator_secret_is_warned_about(world):
    world.cli.env["COMPANION_TEST_MODERATOR_SECRET"] = "1234"
    result = world.cli.ok("mail", "check")
    assert "only 4 characters long" in result.err and "1234" not in result.err
    assert "token_urlsafe" in result.err


# ------------------------------------------ 3. refusals tell strangers nothing of codes
def refusal_to(world, address: str, subject: str) -> str:
    (msg,) = [m for m in world.to(address) if m["Subject"] == f"Not accepted: {subject}"]
    return body(msg)


def test_a_stranger_cannot_tell_a_live_code_from_a_dead_one(world):
    who = new_game(world, "gral", "g1", ["Anna", "Bert"])
    world.run()
    anna = world.code(who["Anna"])
    world.cli.ok("token", "g1", "Bert")              # Bert's code is dead now
    bert_old = world.code(who["Bert"])
    eve = "eve@evil.example.org"
    world.send(eve, f"orders {anna}", ORDERS + "\n")              # live
    world.run()
    live = refusal_to(world, eve, "orders [code]")
    for probe in (bert_old, "AAAAA-BBBBB-CCCCC"):                 # out of date, made up
        world.send(eve, f"orders {probe}", ORDERS + "\n")
        world.run()
        answers = [body(m) for m in world.to(eve)]
        assert answers[-1] == live, (answers[-1], live)
    world.send(eve, f"{anna} options", "")                         # a live code's command
    world.send(eve, "orders", ORDERS + "\n")                       # no code at all
    world.run()
    replies = [body(m) for m in world.to(eve)]
    assert len(replies) == 5
    # (the fifth adds that no more refusals go to this address today: the same for any code)
    assert len({re.sub(r"\(.*?\) was not read|\nThis is the 5th refusal.*", "", r, flags=re.S)
                for r in replies}) == 1, replies
    assert "not registered for any game here" in live and "belong" not in live
    # the moderator is told which it was (the review list and the notice)
    reasons = [o for (o,) in rows(world, "SELECT outcome FROM mail_in WHERE sender=? "
                                         "ORDER BY rowid", eve)]
    assert "does not belong to the address" in reasons[0] and "Anna" in reasons[0]
    # and how to register the address if it is Anna's new one
    assert f"'companion game address g1 \"Anna\" {eve} --quiet' registers it" in reasons[0]
    assert "nobody's" in reasons[1] and "nobody's" in reasons[2]
    notices = " ".join(body(m) for m in world.to("mod@example.org"))
    assert "does not belong to the address" in notices and anna not in notices


def test_a_player_with_a_wrong_code_is_told_how_to_fix_it_without_learning_others(world):
    who = new_game(world, "gral", "g1", ["Anna", "Bert"])
    world.run()
    anna, bert = world.code(who["Anna"]), world.code(who["Bert"])
    world.send(who["Anna"], f"orders {bert}", ORDERS + "\n")              # another's, live
    world.send(who["Anna"], "orders AAAAA-BBBBB-CCCCC", ORDERS + "\n")    # nobody's
    typo = anna[:-1] + ("A" if anna[-1] != "A" else "B")
    world.send(who["Anna"], f"orders {typo}", ORDERS + "\n")              # her own, mistyped
    world.run()
    refusals = [body(m) for m in world.to(who["Anna"]) if "Not accepted" in m["Subject"]]
    assert len(refusals) == 3 and refusals[0] == refusals[1]
    assert "mistyped, out of date" in refusals[0] and "send that report again" in refusals[0]
    assert "one or two characters" in refusals[2] and "one or two" not in refusals[0]
    assert bert not in "".join(refusals) and anna not in "".join(refusals)
    reasons = [o for (o,) in rows(world, "SELECT outcome FROM mail_in ORDER BY rowid")]
    assert "not yours" in reasons[0] and "is wrong" in reasons[1]
    assert submissions(world, "g1") == []


# ------------------------------------------------------- 4. greetings and sign-offs
@pytest.mark.parametrize("text,aside", [
    ("Hi judge,\nassign 1\nThanks,\nAnna\n", [(1, "greeting"), (3, "sign-off"), (4, "name")]),
    ("\nHello!\n\nassign 1\n\nCheers\n", [(2, "greeting"), (6, "sign-off")]),
    ("Dear moderator,\nassign 1\nRegards, Anna Example\n", [(1, "greeting"), (3, "sign-off")]),
    ("Good morning all\nassign 1\nbest wishes\n- Anna\n-- \nAnna\nmove x\n",
     [(1, "greeting"), (3, "sign-off"), (4, "name")]),
    ("> Hi judge,\n# hello\nHey there!\nassign 1\n", [(3, "greeting")]),
    ("Hi,\nwithdraw\nThanks!\n", [(1, "greeting"), (3, "sign-off")]),
    ("assign 1\nThanks!\nCheers, Anna\n", [(2, "sign-off"), (3, "sign-off")]),
    ("assign 1\nThanks again!\nBest,\nAnna\n", [(2, "sign-off"), (3, "sign-off"), (4, "name")]),
    ("assign 1\nThanks\nThanks\nCheers, Anna\n", [(3, "sign-off"), (4, "sign-off")]),  # two
    # not greetings or sign-offs from the lists: left for the game, which says where
    ("Hi judge, here are my orders:\nassign 1\n", []),
    ("Greetings from sunny Spain, judge!\nassign 1\n", []),
    ("assign 1\nThanks\nAnna\nassign 2\n", []),                # a sign-off only at the end
    ("assign 1\nHi judge,\nassign 2\n", []),                   # a greeting only at the start
    ("assign 1\nThanks, see you next turn\n", []),
    ("assign 1\nThanks,\nAnna Maria Beatrix Example\n", []),  # a name of four words
    ("Hi\u200bjudge\nassign 1\n", []),
    # a dash where a comma would stand
    ("Hi Judge \u2013\nassign 1\nThanks \u2013 Anna\n", [(1, "greeting"), (3, "sign-off")]),
    ("Hello - all\nassign 1\nCheers -\n", [(1, "greeting"), (3, "sign-off")]),
])
def test_only_greetings_and_sign_offs_from_the_fixed_lists_are_set_aside(text, aside):
    found = courtesies(text)
    assert [(c.line, c.kind) for c in found] == aside
    cleaned, again = without_courtesies(text)
    assert again == found and courtesies(text) == found              # deterministic
    assert len(cleaned.splitlines()) == len(text.splitlines())        # numbers kept
    for c in found:
        assert cleaned.splitlines()[c.line - 1] == "# " + c.text
    kept = [i for i in range(len(text.splitlines())) if i + 1 not in {c.line for c in found}]
    assert [cleaned.splitlines()[i] for i in kept] == [text.splitlines()[i] for i in kept]


@pytest.mark.parametrize("kind_id", [k.id for k in KINDS if k.playable])
def test_no_game_reads_a_greeting_or_sign_off_as_an_order(world, kind_id):
    """The fixed lists hold no word any game's orders start with (a game that takes one as a
    keyword makes this fail), and no legal order line of a player looks like one."""
    from companion.mail.run import reads_as_order
    from companion.registry import get_kind

    info = next(k for k in KINDS if k.id == kind_id)
    names = ["Anna", "Bert", "Cora", "Dan", "Emma", "Finn"][:max(2, info.min_players)]
    new_game(world, kind_id, "c1", names)
    store = world.store()
    try:
        kind = get_kind(store.game("c1").kind)
        state = store.turn("c1").state
    finally:
        store.close()
    for name in names:
        guard = reads_as_order(kind, state, name)
        for word in GREETINGS + SIGN_OFFS:
            assert not guard(1, word.capitalize() + ","), (kind_id, word)
            assert not guard(5, word + " Anna"), (kind_id, word)
        for line in kind.options_for(state, name)[:200]:
            assert guard(1, line), (kind_id, line)
            assert courtesies(line + "\n") == [] and courtesies(f"Hi,\n{line}\n") != [], line
            assert courtesies(f"{line}\nThanks,\n{line}\n", guard) == [], line


def test_a_line_a_game_reads_as_an_order_is_never_a_name_under_a_sign_off(world):
    """'Stay' is a Knights of Camelot order: under 'Thanks,' it is read as one, not as a
    name (and 'Thanks,' is then no sign-off: it is not after the last order)."""
    from companion.mail.run import reads_as_order
    from companion.registry import get_kind

    new_game(world, "koc", "k1", ["Anna", "Bert"])
    store = world.store()
    try:
        kind, state = get_kind("koc"), store.turn("k1").state
    finally:
        store.close()
    guard = reads_as_order(kind, state, "Anna")
    assert guard(3, "Stay") and not guard(3, "Anna")
    assert [c.kind for c in courtesies("stay\nThanks,\nAnna\n", guard)] == ["sign-off", "name"]
    assert courtesies("stay\nThanks,\nStay\n", guard) == []
    assert [c.kind for c in courtesies("stay\nThanks,\nStay\n")] == ["sign-off", "name"]


def test_greetings_and_sign_offs_are_named_in_the_reply_and_the_game_replays(world):
    who = new_game(world, "gral", "g1", ["Anna", "Bert"])
    world.run()
    world.send(who["Anna"], f"orders {world.code(who['Anna'])}",
               f"Hi judge,\n\n{ORDERS}\n\nThanks,\nAnna\n")
    world.send(who["Bert"], f"orders {world.code(who['Bert'])}",
               f"Dear moderator,\n{ORDERS}\nCheers, Bert\n-- \nBert Example\n")
    log = world.run()
    assert any("running turn 1" in line for line in log), log
    (reply,) = [body(m) for m in world.to(who["Anna"]) if "orders accepted" in m["Subject"]]
    for said in ("ignored the greeting 'Hi judge,' (line 1 of your message)",
                 "ignored the sign-off 'Thanks,' (line 5 of your message)",
                 "ignored the name 'Anna' under the sign-off (line 6 of your message)",
                 "opening: assign 1 (unit A1) to Mansur Al-Jallah"):
        assert said in reply, (said, reply)
    (reply,) = [body(m) for m in world.to(who["Bert"]) if "orders accepted" in m["Subject"]]
    assert "ignored the greeting 'Dear moderator,'" in reply
    assert "ignored the sign-off 'Cheers, Bert' (line 3" in reply
    texts = {s.player: s.text for s in submissions(world, "g1")}
    assert texts["Anna"] == f"# Hi judge,\n\n{ORDERS}\n\n# Thanks,\n# Anna\n"
    assert texts["Bert"].startswith(f"# Dear moderator,\n{ORDERS}\n# Cheers, Bert\n-- \n")
    outcomes = [o for (o,) in rows(world, "SELECT outcome FROM mail_in ORDER BY rowid")]
    assert all("ignored" in o for o in outcomes[-2:]), outcomes
    result = world.cli.ok("replay", "g1")            # the stored texts replay as they ran
    assert "Traceback" not in result.err


def test_a_greeting_beside_a_mistake_is_named_and_the_mistake_located(world):
    who = new_game(world, "gral", "g1", ["Anna", "Bert"])
    world.run()
    code = world.code(who["Anna"])
    world.send(who["Anna"], f"orders {code}", "Hello!\nasign 1 to Mansur Al-Jallah\nRegards\n")
    world.send(who["Anna"], f"orders {code}", f"Hi judge, here are my orders:\n{ORDERS}\n")
    world.run()
    first, second = [body(m) for m in world.to(who["Anna"]) if "NOT accepted" in m["Subject"]]
    assert "message:2:1" in first and "ignored the greeting 'Hello!' (line 1" in first
    assert "ignored the sign-off 'Regards' (line 3" in first and "message:1:" not in first
    assert "message:1:1" in second and "unknown order 'Hi'" in second
    assert "ignored" not in second
    assert submissions(world, "g1") == []
