"""Medieval Mayhem through the installed command line: the kind is listed, options are checked,
a short game runs from orders files with every command a moderator uses."""
from __future__ import annotations

import json


def test_the_kind_is_listed(cli):
    out = cli.ok("games").out
    assert "mayhem" in out and "Medieval Mayhem (2-6 players)" in out


def test_options_and_player_counts_are_checked(cli):
    result = cli("new", "mayhem", "g", *sum([["--player", n] for n in "ABCDEF"], []))
    assert result.code == 1 and "six play only with Team Tactics" in result.err
    result = cli("new", "mayhem", "g", "--player", "A", "--player", "B", "--option",
                 "right-hand=on")
    assert result.code == 1 and "3 or more players" in result.err
    result = cli("new", "mayhem", "g", "--player", "A", "--player", "B", "--option", "chaoss=on")
    assert result.code == 1 and "did you mean 'chaos'?" in result.err
    result = cli("new", "mayhem", "g", "--player", "A", "--player", "B", "--option", "teams=on")
    assert result.code == 1 and "Team Tactics is for 4 or 6 players" in result.err
    result = cli("new", "mayhem", "g", "--player", "A", "--player", "B", "--option", "rounds=x")
    assert result.code == 1 and "short (10)" in result.err


def test_a_short_game_by_the_moderators_commands(cli):
    cli.ok("new", "mayhem", "g", "--seed", "3", "--player", "Anna", "--player", "Bert",
           "--option", "first=Anna", "--option", "rounds=1")
    options = cli.ok("options", "g", "Anna").out.splitlines()
    assert "draw" in options
    assert cli.ok("options", "g", "Bert").out.strip() == ""
    bad = cli.write("bad.txt", "plya\n")
    result = cli("orders", "check", "g", "Anna", bad)
    assert result.code == 1 and "bad.txt:1:1: syntax error" in result.err
    good = cli.write("anna.txt", "draw\ndraw\n")
    assert "action line 1: draw" in cli.ok("orders", "check", "g", "Anna", good).out
    cli.ok("orders", "submit", "g", "Anna", good)
    cli.ok("orders", "submit", "g", "Bert", "-", input="defend\ndraw\ndraw\n")
    out = cli.ok("turn", "g").out
    assert "turn 1 processed" in out
    assert "The game is over" in out
    show = cli.ok("show", "g", "--player", "Anna").out
    assert "Medieval Mayhem" in show
    position = cli.ok("show", "g", "--position").out
    assert "game: mayhem" in position
    view = json.loads(cli.ok("show", "g", "--json").out)
    assert view["phase"] == "over"
    assert "every hash matches" in cli.ok("replay", "g").out
    cli.ok("report", "g")
    folder = cli.output / "g" / "turn-001"
    assert (folder / "anna.pdf").exists() and (folder / "public.txt").exists()
