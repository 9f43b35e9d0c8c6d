"""Games played only through mail: orders delivered to the mailbox (a Maildir here, IMAP in
test_imap.py), 'mail run' passes, reports received by the SMTP server with the right files for
the right player and no one else's. (The outbox folder without SMTP: 'mail demo', test_maildir.)"""
from __future__ import annotations

import os
import random

import pytest

from companion import service
from companion.mail.identity import mail_code
from companion.registry import KINDS

from tests.mail.conftest import attachments, body
from tests.mail.helpers import legal_orders, new_game, rows, state_of

PLAYABLE = [k.id for k in KINDS if k.playable]
TURNS = 300 if os.environ.get("COMPANION_SOAK") else 3
"""Bounded by default (a few turns of each kind); COMPANION_SOAK=1 plays every game to its end
(or 300 turns)."""


def play_by_mail(world, kind_id: str, game_id: str, names: list[str], turns: int) -> int:
    """Play up to ``turns`` turns (or to the end) by mail only; returns the turns played."""
    who = new_game(world, kind_id, game_id, names)
    rng = random.Random(f"mail/{kind_id}")
    world.run()
    played = 0
    for _ in range(turns):
        kind, turn, pending, awaited = state_of(world, game_id)
        if kind.is_over(turn.state):
            break
        for name in awaited:
            text = legal_orders(world, game_id, name, rng)
            if text:
                world.send(who[name], f"Re: orders {world.code(who[name])}", text)
        world.run()
        if state_of(world, game_id)[1].number == turn.number:
            # someone had nothing to send: the moderator runs the turn by mail
            world.send("mod@example.org", "moderator-secret-42", f"run {game_id}\n")
            world.run()
        if state_of(world, game_id)[1].number == turn.number:
            break
        played += 1
    check_mail_of_game(world, game_id, who)
    return played


def check_mail_of_game(world, game_id: str, who: dict[str, str]) -> None:
    store = world.store()
    try:
        game = store.game(game_id)
        latest = store.turn(game_id).number
        secrets = {p.name: (p.token, mail_code(game, p)) for p in game.players}
        assert service.replay(store, game_id).ok
    finally:
        store.close()
    for name, address in who.items():
        mails = world.to(address)
        reports = [m for m in mails if " report for " in m["Subject"]]
        assert [int(m["Subject"].split()[2]) for m in reports] == list(range(latest + 1))
        for msg in reports:
            number = int(msg["Subject"].split()[2])
            folder = world.output / game_id / f"turn-{number:03d}"
            slug = next(p.slug for p in game.players if p.name == name)
            files = attachments(msg)
            assert f"{slug}.pdf" in files
            own = {f.name for f in folder.iterdir() if f.name.startswith(slug + ".")}
            assert own - {f"{slug}.txt"} <= set(files), "an extra file of the player's is " \
                "missing from their mail (a KoC journal, a Gral sealed sheet)"
            for filename, data in files.items():
                assert filename.startswith(slug + ".") or filename.endswith(".json")
                assert (folder / filename).read_bytes() == data
            assert (folder / f"{slug}.txt").read_text(encoding="utf-8") in body(msg)
        for msg in mails:
            raw = msg.as_string()
            for other, (token, code) in secrets.items():
                if other != name:
                    assert token not in raw and code not in raw
    assert rows(world, "SELECT COUNT(*) FROM mail_in WHERE state='new'") == [(0,)]
    assert rows(world, "SELECT COUNT(*) FROM mail_out WHERE state!='sent'") == [(0,)]


@pytest.mark.soak
@pytest.mark.parametrize("kind_id", PLAYABLE)
def test_a_game_played_only_through_a_maildir(world, smtp_server, kind_id):
    """Orders into the Maildir, reports and replies out through the SMTP server."""
    world.smtp = smtp_server
    world.write_config()
    entry = next(k for k in KINDS if k.id == kind_id)
    names = ["Anna", "Bert", "Cora", "Dora", "Emil"][:max(entry.min_players,
                                                         min(entry.max_players, 3))]
    played = play_by_mail(world, kind_id, f"{kind_id}1", names, TURNS)
    assert played >= 1
    if os.environ.get("COMPANION_SOAK"):
        kind, turn, _, _ = state_of(world, f"{kind_id}1")
        assert kind.is_over(turn.state) or played == TURNS, f"stalled at turn {turn.number}"
