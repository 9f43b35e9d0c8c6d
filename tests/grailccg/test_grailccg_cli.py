"""A whole two-player game of the Holy Grail CCG through the installed command line, from
'companion new' to the winner: the players' order lines chosen from 'companion options' (as a
player reads them in their report), submitted with 'orders submit', every turn run with
'companion turn', then the game replayed and its kit printed."""
from __future__ import annotations

import json
import random

PREFERRED = ("search", "move", "fight", "outwit", "assault", "consult")


def test_a_whole_game_from_new_to_the_winner(cli):
    out = cli.ok("new", "grailccg", "g1", "--player", "Anna", "--player", "Bert", "--seed", "2",
                 "--option", "first=Anna").out
    assert "created game g1 (grailccg)" in out
    rng = random.Random(2)
    for number in range(1, 61):
        for player in ("Anna", "Bert"):
            lines = [line for line in cli.ok("options", "g1", player).out.splitlines()
                     if line.startswith(PREFERRED)]
            if lines:
                cli.ok("orders", "submit", "g1", player, "-", input=rng.choice(lines) + "\n")
        out = cli.ok("turn", "g1").out
        assert f"turn {number} processed" in out
        if "the game is over" in out:
            break
    else:
        raise AssertionError("no winner in 60 turns")
    public = json.loads(cli.ok("show", "g1", "--player", "public", "--json").out)
    assert public["viewer"] == "public"
    shown = cli.ok("show", "g1").out
    assert "wins" in shown
    folder = cli.output / "g1" / f"turn-{number:03d}"
    for name in ("anna.pdf", "anna.txt", "bert.pdf", "bert.txt", "public.pdf",
                 "chance-disclosure.json"):
        assert (folder / name).exists(), name
    assert "wins" in (folder / "anna.txt").read_text()
    assert "every hash matches" in cli.ok("replay", "g1").out
    result = cli("turn", "g1")
    assert result.code == 1 and "is over" in result.err
