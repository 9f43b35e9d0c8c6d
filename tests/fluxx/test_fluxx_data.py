"""The Fluxx deck data: the shipped files respect the public facts; edited copies with mistakes
give located errors with suggestions; export and check through the command line."""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from companion.errors import DataError, DataErrors
from companion.fluxx.cards import DATA_DIR, card_text, load_deck, norm
from companion.fluxx.kind import export

DECK = load_deck()

# The names FACTS.md gives (normalised spellings), by type.
KEEPERS = ["Unladen Swallow", "Sir Bedevere", "The Foot", "Robin's Minstrels", "Coconuts",
           "Nude Organist", "King Arthur", "Sir Galahad", "The Holy Grail", "Resting Parrot",
           "Important Message", "Airborne Cow", "Sir Robin", "Trojan Rabbit", "A Shrubbery",
           "Sir Lancelot", "The Finger of God", "The Animator", "Holy Hand Grenade of Antioch",
           "Excalibur", "The Catapult"]
CREEPERS = ["Spanish Inquisition", "Legendary Black Beast of Aaarrghh", "Grim Reaper",
            "Killer Rabbit", "3-Headed Giant", 'Knights Who Say "Ni!"']
RULES = ["Draw 2", "Draw 3", "Draw 4", "Draw 5", "Play 2", "Play 3", "Play 4", "Play All",
         "Hand Limit 1", "Hand Limit 2", "Hand Limit 3", "Hand Limit 4",
         "One, Two, Five! (Three, Sir!)", "Always Look on the Bright Side of Life",
         "No-Hand Bonus", "Get On with It!", "Keeper Limit 3",
         "Double Agenda", "Swap Plays for Draws"]
ACTIONS = ["Rules Reset", "Draw 2 and Use 'em", "Steal a Keeper", "Move a Creeper",
           "My Brain Hurts!", "Trade Hands", "Exchange Keepers",
           "And Now For Something Completely Different", "Bring Out Your Dead!",
           "Creeper Sweeper", "This Game Has Become Too Silly", "Trash a Keeper",
           "Draw 3, Play 2 of Them", "Run Away! Run Away!", "Jackpot!", "Let's Do That Again!",
           "I'm Not Dead Yet!", "My Hovercraft Is Full of Eels", "What Is Your Quote?"]
K = "knight"
GOALS = {
    "'Course It's a Good Idea": ["Important Message", "The Finger of God"],
    "A Bird in the Bush": ["A Shrubbery", ["Unladen Swallow", "Resting Parrot"]],
    "Consult the Book of Armaments": ["Holy Hand Grenade of Antioch", "Important Message"],
    "I Have a Plan": ["Sir Bedevere", "Trojan Rabbit"],
    "Strange Women Lying in Ponds": ["King Arthur", "Excalibur"],
    "Bring Forth the Holy Hand Grenade": ["Killer Rabbit", "Holy Hand Grenade of Antioch"],
    "Coconut-Laden Swallow": ["Coconuts", "Unladen Swallow"],
    "Brave Sir Robin": ["Sir Robin", "Robin's Minstrels"],
    "Rabbits of Doom": ["Trojan Rabbit", "Killer Rabbit"],
    "Things No One Expects": ["Spanish Inquisition", ["Airborne Cow", "Nude Organist"]],
    "You Must Bring Us a Shrubbery": ['Knights Who Say "Ni!"', "A Shrubbery"],
    "He Bravely Ran Away": ["Robin's Minstrels", "3-Headed Giant"],
    "Who Leaps Out?": ["The Catapult", "Trojan Rabbit"],
    "Fetchez la Vache": ["Airborne Cow", "The Catapult"],
    "Squashed From Above": ["The Finger of God", "The Foot"],
    "Cave of Caerbannog": ["Killer Rabbit", "Legendary Black Beast of Aaarrghh"],
    "This Is a Temperate Zone": ["Coconuts", "Resting Parrot"],
    "Holy Relics": ["Holy Hand Grenade of Antioch", "The Holy Grail"],
    "Opening Credits": ["The Foot", "Nude Organist"],
    "Gone to Meet His Maker": ["The Finger of God", "Grim Reaper"],
    "Flying Creatures": ["Airborne Cow", "Unladen Swallow"],
    "This Is an Ex-Parrot": ["Resting Parrot", "Grim Reaper"],
    "The Cartoon Peril Was No More": ["Legendary Black Beast of Aaarrghh", "The Animator"],
    "The Meaning of Life?": ["The Finger of God", "The Animator"],
    "Message For You, Sir": ["Important Message", "Sir Lancelot"],
}
COUNTED = {"And There Was Much Rejoicing": (["Robin's Minstrels"], 2),
           "Quest Accomplished": (["The Holy Grail"], 1),
           "You're Using Coconuts": (["Coconuts"], 1),
           "Knights of the Round Table": ([], 3)}


def test_the_deck_has_100_cards_and_the_basic_rules():
    assert len(DECK.cards) == 100 and DECK.basic.name == "Basic Rules"
    assert DECK.basic.set == {"draw": 1, "play": 1}
    counts = {t: len(DECK.of(t)) for t in ("keeper", "creeper", "goal", "rule", "action")}
    assert counts == {"keeper": 21, "creeper": 6, "goal": 31, "rule": 22, "action": 20}
    assert len({c.id for c in DECK.cards}) == 100 and len({norm(c.name) for c in DECK.cards}) == 100


@pytest.mark.parametrize("names, ctype", [(KEEPERS, "keeper"), (CREEPERS, "creeper"),
                                          (RULES, "rule"), (ACTIONS, "action")])
def test_every_known_name_is_in_the_deck_with_its_type(names, ctype):
    for name in names:
        assert name in DECK.by_name, name
        assert DECK.by_name[name].type == ctype, name


def test_the_goals_need_what_the_facts_say():
    for name, needs in GOALS.items():
        goal = DECK.by_name[name].goal
        want = [[DECK.by_name[a].id for a in n] if isinstance(n, list) else DECK.by_name[n].id
                for n in needs]
        assert goal == {"have": want}, name
    for name, (needs, knights) in COUNTED.items():
        goal = DECK.by_name[name].goal
        assert goal.get("have", []) == [DECK.by_name[n].id for n in needs], name
        assert goal["count"] == {"knight": knights}, name
    beacon = DECK.by_name["Grail-Shaped Beacon"].goal
    assert beacon == {"have": ["sir-galahad"], "another_has": ["the-holy-grail"]}
    assert DECK.by_name["The Cheese Shop"].goal == {"nothing": True}
    assert len(GOALS) + len(COUNTED) + 2 == 31
    knights = {c.name for c in DECK.of("keeper") if "knight" in c.tags}
    assert knights == {"King Arthur", "Sir Bedevere", "Sir Galahad", "Sir Robin", "Sir Lancelot"}


def test_the_singing_and_accent_bonuses_and_our_own_cards_exist():
    whens = {c.bonus["when"]: c.name for c in DECK.of("rule") if c.bonus}
    assert {"sing", "accent", "empty_hand", "per_creeper"} <= set(whens)
    assert "Ministry of Silly Walks" in DECK.by_name and "Confuse-a-Cat" in DECK.by_name
    assert DECK.by_name["Get On with It!"].free["ends_turn"]
    assert DECK.by_name["Swap Plays for Draws"].free["ends_turn"]
    for name in ("The Finger of God", "The Animator"):
        assert DECK.by_name[name].free == {"op": "trash", "what": "creeper", "per_turn": 1}


def test_every_text_is_generated_from_the_behaviour_and_mentions_its_numbers():
    for card in DECK.cards:
        assert card.text == card_text(card, DECK), card.name
        if card.type == "rule" and card.set and isinstance(next(iter(card.set.values())), int):
            assert str(next(iter(card.set.values()))) in card.text, card.name
        if card.goal:
            for cid in card.mentioned:
                assert DECK.name(cid) in card.text, card.name
    assert "3" in DECK.by_name["Jackpot!"].text
    assert "2 of them" in DECK.by_name["Draw 3, Play 2 of Them"].text


def test_export_has_every_card_with_name_and_type():
    data = export(DECK)
    json.dumps(data)
    cards = data["cards"]
    assert len(cards) == 101
    assert [c["type"] for c in cards].count("basic") == 1
    assert all(c["name"] and c["type"] in ("basic", "keeper", "creeper", "goal", "rule", "action")
               for c in cards)
    bird = next(c for c in cards if c["name"] == "A Bird in the Bush")
    assert bird["goal"]["have"] == ["A Shrubbery", ["Unladen Swallow", "Resting Parrot"]]


# ------------------------------------------------------------------ edited copies

def broken_copy(tmp_path: Path, file: str, old: str, new: str) -> Path:
    folder = tmp_path / "data"
    shutil.copytree(DATA_DIR, folder)
    path = folder / file
    text = path.read_text(encoding="utf-8")
    assert old in text, old
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    return folder


@pytest.mark.parametrize("file, old, new, message", [
    ("goals.toml", 'have = ["Coconuts", "Unladen Swallow"]', 'have = ["Coconuts", "Unladen Swalow"]',
     "no keeper or creeper called 'Unladen Swalow'"),
    ("goals.toml", 'have = ["Coconuts", "Unladen Swallow"]', 'have = ["Coconuts", "Unladen Swalow"]',
     "did you mean 'Unladen Swallow'?"),
    ("goals.toml", 'have = ["Sir Bedevere", "Trojan Rabbit"]', 'have = ["Sir Bedevere", "Jackpot!"]',
     "'Jackpot!' is an action, but a keeper or creeper is needed here"),
    ("actions.toml", 'op = "trade_hands"', 'op = "trade_hand"', "did you mean 'trade_hands'?"),
    ("actions.toml", 'op = "draw", n = 3', 'op = "draw", n = "three"',
     "'n' must be a whole number from 0 to 20"),
    ("actions.toml", 'op = "draw", n = 3', 'op = "draw", count = 3', "unknown key 'count'"),
    ("rules.toml", "set = { draw = 2 }", "set = { drow = 2 }", "did you mean 'draw'?"),
    ("rules.toml", "set = { draw = 2 }", "set = { draw = 2 }\nbonus = { when = \"sing\", draw = 1 }",
     "exactly one of 'set', 'bonus' or 'free'"),
    ("rules.toml", 'bonus = { when = "sing", draw = 1 }', 'bonus = { when = "dance", draw = 1 }',
     "'when' must be"),
    ("keepers.toml", 'tags = ["knight"]', 'tags = ["knigth"]', "unknown tag 'knigth'"),
    ("keepers.toml", 'name = "Sir Robin"', 'name = "Sir  ROBIN"\n[[keeper]]\nname = "Sir Robin"',
     "two cards are called 'Sir Robin'"),
    ("keepers.toml", 'free = { op = "move_creeper", from = "self", per_turn = 1 }',
     'free = { op = "move_creeper", from = "elsewhere", per_turn = 1 }', "'from' must be"),
    ("creepers.toml", 'name = "Grim Reaper"', 'name = "Grim Reaper"\ncolour = "black"',
     "unknown key 'colour'"),
    ("goals.toml", "count = { knight = 3 }", "count = { knight = 0 }", "must be a whole number"),
    ("basic.toml", "draw = 1", "draw = 0", "'draw' must be a whole number from 1 to 20"),
    ("goals.toml", 'name = "Flying Creatures"\nhave = ["Airborne Cow", "Unladen Swallow"]',
     'name = "Flying Creatures"\nhave = ["Airborne Cow", "Unladen Swallow"]\n'
     'text = "You win with Airborne Cow in front of you."',
     "'Unladen Swallow' is not mentioned"),
    ("actions.toml", 'name = "Jackpot!"\ndo = [{ op = "draw", n = 3 }]',
     'name = "Jackpot!"\ndo = [{ op = "draw", n = 3 }]\ntext = "Draw some cards."',
     "the number 3 is not mentioned"),
    ("rules.toml", "[[rule]]\nname = \"Draw 2\"", "[[rule]\nname = \"Draw 2\"", "TOML syntax"),
])
def test_edited_copies_give_located_errors(tmp_path, file, old, new, message):
    folder = broken_copy(tmp_path, file, old, new)
    with pytest.raises((DataError, DataErrors)) as info:
        load_deck(folder)
    rendered = info.value.render()
    assert message in rendered, rendered
    assert f"{file}:" in rendered and rendered.split(f"{file}:")[1][0].isdigit(), rendered


def test_an_error_points_at_the_right_line(tmp_path):
    folder = broken_copy(tmp_path, "actions.toml", 'op = "trade_hands"', 'op = "trade_hand"')
    with pytest.raises(DataError) as info:
        load_deck(folder)
    lines = (folder / "actions.toml").read_text().splitlines()
    assert 'trade_hand"' in lines[info.value.line - 1]


def test_several_errors_are_reported_together(tmp_path):
    folder = broken_copy(tmp_path, "goals.toml", '"Resting Parrot"]]\n', '"Resting Parot"]]\n')
    path = folder / "keepers.toml"
    path.write_text(path.read_text().replace('tags = ["knight"]', 'tags = ["knigth"]', 1))
    with pytest.raises(DataErrors) as info:
        load_deck(folder)
    assert len(info.value.errors) >= 2


def test_a_valid_edited_copy_loads(tmp_path):
    folder = broken_copy(tmp_path, "actions.toml", 'do = [{ op = "draw", n = 3 }]',
                         'do = [{ op = "draw", n = 4 }]')
    deck = load_deck(folder)
    assert deck.by_name["Jackpot!"].text == "Draw 4 cards."


def test_data_export_and_check_through_the_command_line(cli, tmp_path):
    out = cli.ok("data", "export", "fluxx").out
    data = json.loads(out)
    assert len(data["cards"]) == 101 and {"name", "type"} <= set(data["cards"][0])
    folder = tmp_path / "copy"
    shutil.copytree(DATA_DIR, folder)
    assert "the data is valid" in cli.ok("data", "check", "fluxx", str(folder)).out
    path = folder / "goals.toml"
    path.write_text(path.read_text().replace('"The Foot", "Nude Organist"', '"The Foot", "Nude Organst"'))
    result = cli("data", "check", "fluxx", str(folder))
    assert result.code == 1 and "goals.toml:" in result.err and "Nude Organist" in result.err


def test_an_edited_deck_keeps_the_cards_the_rules_name_and_100_in_all(tmp_path):
    """A copy that lost a card the rules name, or one of our own (99 cards), or gave a named
    card another type, is refused: the game is the 100 cards (FACTS.md)."""
    folder = broken_copy(tmp_path, "actions.toml", '[[action]]\nname = "Rules Reset"\n'
                         'do = [{ op = "discard_rules" }]\n', '')
    with pytest.raises(DataErrors) as info:
        load_deck(folder)
    rendered = info.value.render()
    assert "actions.toml: error: the Action 'Rules Reset' is missing: the rules name it" in rendered
    assert "the deck holds 99 cards; Monty Python Fluxx has 100" in rendered
    assert "actions.toml 19" in rendered
    own = broken_copy(tmp_path / "own", "actions.toml", '[[action]]\nname = "Confuse-a-Cat"\n'
                      'do = [{ op = "shuffle_hands" }]\nflavour = "Nothing confuses a cat like '
                      'a well-shuffled hand."\n', '')
    with pytest.raises(DataError) as one:
        load_deck(own)
    assert "holds 99 cards" in one.value.message and one.value.path == str(own)
