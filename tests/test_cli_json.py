"""--json on the commands a script talks to: one JSON document each, in the shapes of
docs/cli-json.md, refusals included."""
from __future__ import annotations

import json


def run(cli, *args, code=0, **kw):
    result = cli(*args, "--json", **kw)
    assert result.code == code, result.text
    return json.loads(result.out)


def test_every_json_shape(cli):
    kinds = run(cli, "games")
    assert {"id", "title", "min_players", "max_players", "summary", "playable"} <= set(kinds[0])
    cli.ok("new", "gral", "g1", "--player", "Anna", "--player", "Bert", "--seed", "4",
           "--option", "first=Anna")
    options = run(cli, "options", "g1", "Anna")
    assert options["player"] == "Anna" and "pass" in options["options"]
    checked = run(cli, "orders", "check", "g1", "Anna", "-", input="assign 3 to Adam\n")
    assert checked["ok"] and checked["understood"]
    refused = run(cli, "orders", "check", "g1", "Anna", "-", code=1, input="mvoe x\nfly\n")
    assert refused["ok"] is False and len(refused["errors"]) == 2
    first = refused["errors"][0]
    assert (first["file"], first["line"], first["column"]) == ("<stdin>", 1, 1)
    assert first["suggestion"] == "did you mean 'move'?"
    submitted = run(cli, "orders", "submit", "g1", "Anna", "-", input="assign 3 to Adam\n")
    assert submitted["submission"] == 1 and not submitted["replaced"]
    shown = run(cli, "orders", "show", "g1")
    assert [(e["player"], e["submission"], e["text"]) for e in shown["pending"]] == [
        ("Anna", 1, "assign 3 to Adam\n"), ("Bert", None, None)]
    assert shown["pending"][0]["understood"] == submitted["understood"]
    turned = run(cli, "turn", "g1")
    assert turned["turn"] == 1 and turned["recovered"] == [] and turned["files"]
    assert set(turned) >= {"public", "awaiting", "asked", "over", "notes"}
    replayed = run(cli, "replay", "g1")
    assert replayed["ok"] and replayed["turns"] == 1 and replayed["first_bad_turn"] is None
    text = (cli.output / "g1" / "turn-001" / "public.txt").read_text().splitlines()
    link = text[text.index("Public link:") + 1].strip()
    opened = run(cli, "open", link)
    assert opened["matches"] and opened["view"] == "public" and opened["turn"] == 1
    verified = run(cli, "verify", "g1")
    assert verified["ok"] and verified["problems"] == [] and verified["turns"]
    missing = run(cli, "replay", "nope", code=1)
    assert missing["errors"][0]["message"].startswith("no game 'nope'")
