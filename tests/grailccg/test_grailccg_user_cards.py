"""Write Yer Own cards (12.1) in a game, through the installed command line: 'companion new
--option cards=FILE' with a deck list naming the new cards, a whole (short) game played with
them, the files deleted, the game replayed, exported and imported; and every mistake in a card
file or deck file reported at its file, line and column with nothing created."""
from __future__ import annotations

import json

CARDS = """\
# two Write Yer Own cards
[[knight]]
name = "Sir Gareth the Quite Good"
grail = 5
combat = 4
wits = 2
icons = ["sword"]
limit = "any"
flavour = "Drawn by hand on a blank card, armour and all."

[[event]]
name = "Deadly Rumour"
grail = 2
primary = "lose-game"
limit = "any"
"""

DECK = """\
# Anna's deck: Arthur and Patsy for the Round Table, the rest her own cards
1 Arthur
1 Patsy
29 Sir Gareth the Quite Good
29 Deadly Rumour
"""


def _new(cli, game: str, *options: str):
    return cli("new", "grailccg", game, "--player", "Anna", "--player", "Bert", "--seed", "1",
               "--option", "first=Anna", *[x for o in options for x in ("--option", o)])


def test_a_game_with_write_yer_own_cards_survives_deleting_the_files(cli):
    cards = cli.root / "my-cards.toml"
    deck = cli.root / "anna.txt"
    cards.write_text(CARDS, encoding="utf-8")
    deck.write_text(DECK, encoding="utf-8")
    out = _new(cli, "g1", "cards=my-cards.toml", "decks=anna.txt,starter-french")
    assert out.code == 0, out.text
    cards.unlink()          # the game keeps the files' text: nothing reads them again
    deck.unlink()
    legal = cli.ok("options", "g1", "Anna").out.splitlines()
    assert "play Sir Gareth the Quite Good" in legal and "play Deadly Rumour" in legal
    cli.ok("orders", "submit", "g1", "Anna", "-",
           input="play Sir Gareth the Quite Good\nplay Deadly Rumour\n")
    out = cli.ok("turn", "g1").out
    assert "Anna plays Sir Gareth the Quite Good, who joins the Round Table" in out
    assert "Bert loses the game: Deadly Rumour" in out and "the game is over" in out
    shown = cli.ok("show", "g1").out
    assert "members: Anna: Arthur; Sir Gareth the Quite Good" in shown
    assert "Anna wins" in shown
    report = (cli.output / "g1" / "turn-001" / "anna.txt").read_text(encoding="utf-8")
    assert "Sir Gareth the Quite Good" in report
    public = json.loads(cli.ok("show", "g1", "--player", "public", "--json").out)
    assert public["viewer"] == "public"
    assert "every hash matches" in cli.ok("replay", "g1").out
    cli.ok("export", "g1", "g1.json")
    cli.ok("import", "g1.json", "--as", "g2")
    assert "every hash matches" in cli.ok("replay", "g2").out
    assert "members: Anna: Arthur; Sir Gareth the Quite Good" in cli.ok("show", "g2").out
    # the position of the finished game reads back as a setup with the same card file
    cards.write_text(CARDS, encoding="utf-8")
    position = cli.ok("show", "g1").out.replace("stage: over", "stage: action")
    cli.write("pos.txt", position)
    cli.ok("new", "grailccg", "g4", "--setup", "pos.txt", "--option", "cards=my-cards.toml")
    refused = cli("new", "grailccg", "g5", "--setup", "pos.txt")
    assert refused.code == 1 and "pos.txt:" in refused.err and "Sir Gareth" in refused.err


def test_every_mistake_of_a_card_file_is_located_and_nothing_is_created(cli):
    cli.write("bad.toml", CARDS.replace("grail = 5", "grail = 8")
              .replace('"lose-game"', '"lose-gaem"'))
    result = _new(cli, "g3", "cards=bad.toml")
    assert result.code == 1
    assert "bad.toml:4:1: error: Knight 'Sir Gareth the Quite Good': grail number 8 is not " \
           "allowed" in result.err
    assert "hint: use a grail number from 1 to 7" in result.err
    assert "bad.toml:14:12: error: Event 'Deadly Rumour', primary: unknown effect " \
           "'lose-gaem'" in result.err and "did you mean 'lose-game'?" in result.err
    assert cli("show", "g3").code == 1, "no game may be created"
    cli.write("dup.toml", CARDS.replace("Deadly Rumour", "Lancelot"))
    result = _new(cli, "g3", "cards=dup.toml")
    assert result.code == 1 and "dup.toml:" in result.err and "Lancelot" in result.err
    cli.write("robin.toml", CARDS.replace('icons = ["sword"]',
                                          'icons = ["sword"]\nsecondary = "run-away"'))
    result = _new(cli, "g3", "cards=robin.toml")
    assert result.code == 1 and "robin.toml:8:13: error: Knight 'Sir Gareth the Quite Good': " \
        "a knight's secondary property can only be 'join'" in result.err, result.err
    assert "hint: move the effect to 'primary'" in result.err
    missing = _new(cli, "g3", "cards=nowhere.toml")
    assert missing.code == 1 and "option cards: no file 'nowhere.toml'" in missing.err
    assert cli("show", "g3").code == 1


def test_deck_files_are_checked_against_the_games_cards(cli):
    cli.write("my-cards.toml", CARDS)
    cli.write("typo.txt", DECK.replace("29 Deadly Rumour", "29 Deadly Rumor"))
    result = _new(cli, "g6", "cards=my-cards.toml", "decks=typo.txt,starter-french")
    assert result.code == 1
    assert "typo.txt:5:4: error: no card called 'Deadly Rumor'" in result.err
    assert "did you mean 'Deadly Rumour'" in result.err
    cli.write("anna.txt", DECK)
    without = _new(cli, "g6", "decks=anna.txt,starter-french")      # no card file given
    assert without.code == 1 and "anna.txt:4:4: error: no card called 'Sir Gareth the " \
                                 "Quite Good'" in without.err
    cli.write("short.txt", "1 Arthur\n1 Patsy\n4 Sir Gareth the Quite Good\n")
    short = _new(cli, "g6", "cards=my-cards.toml", "decks=short.txt,starter-french")
    assert short.code == 1 and "the deck has 6 cards; a deck needs at least 60" in short.err
    typo = _new(cli, "g6", "decks=starter-artur,starter-french")
    assert typo.code == 1 and "did you mean 'starter-arthur'?" in typo.err
    assert cli("show", "g6").code == 1


def test_the_same_seed_and_files_give_the_same_game(make_cli, tmp_path):
    outs = []
    for name in ("a", "b"):
        (tmp_path / name).mkdir()
        sandbox = make_cli(tmp_path / name)
        sandbox.write("my-cards.toml", CARDS)
        sandbox.write("anna.txt", DECK)
        _new(sandbox, "g1", "cards=my-cards.toml", "decks=anna.txt,starter-french")
        outs.append(sandbox.ok("show", "g1").out)
    assert outs[0] == outs[1]


def test_a_game_kept_with_a_card_a_later_check_refuses_still_opens():
    """A game begun with a Write Yer Own knight whose secondary property is not 'join' (refused
    for new games since) reads its kept card text again: the property does nothing, as it
    always did, and the game goes on."""
    from companion.grailccg.kind import GrailKind

    text = CARDS.replace('icons = ["sword"]', 'icons = ["sword"]\nsecondary = "run-away"')
    kind = GrailKind().for_game({"cards": {"file": "robin.toml", "text": text}})
    assert kind.cards.by_name("Sir Gareth the Quite Good").secondary
