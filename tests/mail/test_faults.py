"""A pass killed at any step and run again: no message lost, none processed twice, no report
or reply sent twice or not at all; the game ends exactly as after an uninterrupted pass.

The process dies by ``os._exit`` (COMPANION_TEST_MAIL_CRASH=STEP:N, companion/mail/run.py): no
cleanup, no rollback but SQLite's own. Bounded by default (a few points drawn at random plus
the ones that matter most); COMPANION_SOAK=1 tries every step at several counts."""
from __future__ import annotations

import os
import random
import shutil
import sqlite3

import pytest

from tests.mail import corpus
from tests.mail.helpers import new_game

STEPS = ["stored", "taken", "in-transaction", "processed", "reports-queued", "turn-commit",
         "turn", "before-send", "after-send"]
MUST = [("in-transaction", 2), ("turn-commit", 1), ("after-send", 3)]


def prepare(world) -> None:
    """A game, its turn-0 reports mailed, and a mailbox of orders, a refusal and a command."""
    who = new_game(world, "gral", "g1", ["Anna", "Bert"])
    world.run()
    world.send(who["Anna"], f"o {world.code(who['Anna'])}", corpus.ORDERS + "\n")
    world.send("eve@evil.example.org", "orders", corpus.ORDERS + "\n")
    world.send(who["Bert"], f"{world.code(who['Bert'])} options", "")
    world.send(who["Bert"], f"o {world.code(who['Bert'])}", corpus.ORDERS + "\n")


def outcome(root) -> dict:
    db = sqlite3.connect(root / "store.sqlite3")
    try:
        result = {
            "turns": db.execute("SELECT number, hash FROM turns ORDER BY number").fetchall(),
            "submissions": db.execute("SELECT player, text, status FROM submissions ORDER BY "
                                      "id").fetchall(),
            "in": db.execute("SELECT message_id, state, outcome FROM mail_in ORDER BY "
                             "message_id").fetchall(),
            "out": db.execute("SELECT key, recipient, state FROM mail_out ORDER BY key"
                              ).fetchall(),
            "out_ids": db.execute("SELECT id FROM mail_out").fetchall(),
        }
    finally:
        db.close()
    files = sorted(p.name for p in (root / "outbox").glob("*.eml"))
    result["files"] = len(files)
    result["out_ids"] = len(result["out_ids"])
    result["left_in_mailbox"] = len(list((root / "inbox" / "new").iterdir()))
    return result


def run_in(make_cli, root, crash: str | None = None):
    cli = make_cli(root)
    cli.env["COMPANION_TEST_MODERATOR_SECRET"] = "moderator-secret-42"
    env = {"COMPANION_TEST_MAIL_CRASH": crash} if crash else {}
    return cli("mail", "run", env=env)


def points() -> list[tuple[str, int]]:
    if os.environ.get("COMPANION_SOAK"):
        return [(step, n) for step in STEPS for n in (1, 2, 3)]
    rng = random.Random(os.environ.get("COMPANION_FAULT_SEED", "mail-faults"))
    drawn = [(rng.choice(STEPS), rng.randint(1, 3)) for _ in range(2)]
    return MUST + [p for p in drawn if p not in MUST]


@pytest.mark.soak
def test_a_pass_killed_anywhere_then_rerun_loses_and_doubles_nothing(world, make_cli,
                                                                     tmp_path):
    prepare(world)
    template = tmp_path / "template"
    shutil.copytree(world.root, template, ignore=shutil.ignore_patterns("template"))
    reference = tmp_path / "reference"
    shutil.copytree(template, reference)
    assert run_in(make_cli, reference).code == 0
    expected = outcome(reference)
    assert len(expected["turns"]) == 2 and expected["left_in_mailbox"] == 0
    assert expected["files"] == expected["out_ids"] == len(expected["out"])
    for step, count in points():
        root = tmp_path / f"crash-{step}-{count}"
        shutil.copytree(template, root)
        killed = run_in(make_cli, root, f"{step}:{count}")
        assert killed.code in (0, 137), killed.text
        assert killed.code == 137 or (step, count) not in MUST, (step, count)
        assert "Traceback" not in killed.err
        again = run_in(make_cli, root)
        assert again.code == 0, again.text
        run_in(make_cli, root)                   # and once more: nothing left to do
        got = outcome(root)
        assert got == expected, (step, count, killed.code)


@pytest.mark.soak
def test_a_pass_killed_at_a_random_moment_then_rerun_loses_and_doubles_nothing(
        world, make_cli, tmp_path):
    """SIGKILL at a moment drawn at random while the pass runs (wherever it is: parsing,
    inside a transaction, rendering, writing a file)."""
    import signal
    import subprocess
    import time

    prepare(world)
    template = tmp_path / "template"
    shutil.copytree(world.root, template, ignore=shutil.ignore_patterns("template"))
    reference = tmp_path / "reference"
    shutil.copytree(template, reference)
    assert run_in(make_cli, reference).code == 0
    expected = outcome(reference)
    rng = random.Random(os.environ.get("COMPANION_FAULT_SEED", "mail-kill"))
    for attempt in range(10 if os.environ.get("COMPANION_SOAK") else 1):
        root = tmp_path / f"kill-{attempt}"
        shutil.copytree(template, root)
        cli = make_cli(root)
        cli.env["COMPANION_TEST_MODERATOR_SECRET"] = "moderator-secret-42"
        proc = subprocess.Popen([cli.script, "mail", "run"], cwd=root, env=cli.env,
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        time.sleep(rng.uniform(0.2, 3.0))
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        assert run_in(make_cli, root).code == 0
        run_in(make_cli, root)
        assert outcome(root) == expected, attempt
