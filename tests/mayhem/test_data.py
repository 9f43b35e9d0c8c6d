"""The Medieval Mayhem data files: the export, the rules' constraints on the deck, and every check
an edited copy gets, with file, line, column and a suggestion."""
from __future__ import annotations

import json
import shutil
from collections import Counter
from pathlib import Path

import pytest

from companion.mayhem.cards import DATA_DIR, check_data_dir

from .helpers import CAT, KIND


def test_export_holds_the_70_cards_and_the_18_characters():
    data = KIND.data_export()
    assert set(data) == {"cards", "characters"}
    assert len(data["cards"]) == 70 and len(data["characters"]) == 18
    json.dumps(data)
    first = data["cards"][0]
    assert {"name", "colour", "type", "number", "points", "effect", "text"} <= set(first)
    assert {"name", "character", "version", "action", "action_text", "bonus",
            "bonus_text"} <= set(data["characters"][0])


def test_the_deck_follows_the_rules():
    cards = CAT.cards
    assert len(cards) == 70
    assert set(Counter(c.colour for c in cards)) == {"Crimson", "Gilded", "Sapphire"}
    assert set(Counter(c.type for c in cards)) == {"Dragon", "Princess", "Knight", "Treasure",
                                                   "Attack", "Defense"}
    assert {c.kind for c in cards if c.type == "Defense"} == {"Scales", "Guardians", "Shield"}
    assert {c.number for c in cards} == {1, 2, 3}
    best = {"Crimson": 0, "Sapphire": 1, "Gilded": 2}
    for c in cards:
        i = best[c.colour]
        assert c.points[i] > max(p for j, p in enumerate(c.points) if j != i), c.name
    faces = Counter(ch.face for ch in CAT.characters)
    assert len(CAT.characters) == 18 and set(faces.values()) == {3}
    assert len({ch.bonus_text for ch in CAT.characters}) == 18


def test_the_bundled_data_is_valid():
    assert check_data_dir(DATA_DIR) == []


@pytest.fixture
def copy(tmp_path) -> Path:
    folder = tmp_path / "data"
    shutil.copytree(DATA_DIR, folder)
    return folder


def edit(folder: Path, name: str, old: str, new: str, count: int = 1) -> None:
    path = folder / name
    text = path.read_text(encoding="utf-8")
    assert old in text, old
    path.write_text(text.replace(old, new, count), encoding="utf-8")


def line_of(folder: Path, name: str, needle: str) -> int:
    lines = (folder / name).read_text(encoding="utf-8").splitlines()
    return next(i for i, l in enumerate(lines, start=1) if needle in l)


@pytest.mark.parametrize("name, old, new, needle, message, hint", [
    ("cards.toml", 'colour = "Gilded"', 'colour = "Gildd"', 'colour = "Gildd"',
     "'Gildd' is not a colour", "did you mean 'Gilded'?"),
    ("cards.toml", 'type = "Knight"', 'type = "Knigt"', 'type = "Knigt"',
     "'Knigt' is not a card type", "did you mean 'Knight'?"),
    ("cards.toml", 'kind = "Shield"', 'kind = "Sheild"', 'kind = "Sheild"',
     "'Sheild' is not a Defense kind", "did you mean 'Shield'?"),
    ("cards.toml", "number = 3", "number = 4", "number = 4", "the number must be 1, 2 or 3", None),
    ("cards.toml", "points = { play = 4, set = 1, hand = 1 }",
     "points = { play = 1, set = 1, hand = 4 }", "points = { play = 1, set = 1, hand = 4 }",
     "a Crimson card must score most in play", "Crimson in play"),
    ("cards.toml", '"capture 1 Princess from target play"', '"capture 1 Princes from target play"',
     "Princes from", "effect: 'Princes' is not a colour", "did you mean 'Princess'?"),
    ("cards.toml", 'name = "Cinder Whelp"', 'name = "Ember Drake"', 'name = "Ember Drake"',
     "card name 'Ember Drake' is used twice", "unique"),
    ("cards.toml", 'name = "Cinder Whelp"', 'name = "Whelp at Dawn"', 'name = "Whelp at Dawn"',
     "the word 'at' is a keyword", "reserved words"),
    ("cards.toml", 'name = "Cinder Whelp"', 'nmae = "Cinder Whelp"', 'nmae = "Cinder Whelp"',
     "unknown key 'nmae'", "did you mean 'name'?"),
    ("characters.toml", 'bonus = "3 per set"', 'bonus = "3 per sett"', 'bonus = "3 per sett"',
     "expected 'in play'", None),
    ("characters.toml", 'action = "draw 3; destroy 1 card from own hand"',
     'action = "draw 3; destory 1 card from own hand"', "destory", "'destory' is not a step",
     "did you mean 'destroy'?"),
])
def test_edited_copies_are_checked_with_located_errors(copy, name, old, new, needle, message,
                                                       hint):
    expected = line_of(copy, name, old.split("\n")[0])
    edit(copy, name, old, new)
    errors = check_data_dir(copy)
    matching = [e for e in errors if message in e.message]
    assert matching, [e.render() for e in errors]
    err = matching[0]
    assert err.path.endswith(name)
    assert err.line == expected and needle in (copy / name).read_text().splitlines()[
        err.line - 1], err.render()
    assert err.column and err.column >= 1
    if hint:
        assert hint in (err.hint or ""), err.render()


def test_the_effect_error_points_at_the_word(copy):
    edit(copy, "cards.toml", '"capture 1 Princess from target play"',
         '"capture 1 Princess from target pocket"')
    err = next(e for e in check_data_dir(copy) if "pocket" in e.message)
    line = (copy / "cards.toml").read_text().splitlines()[err.line - 1]
    assert line[err.column - 1:].startswith("pocket"), (line, err.column)


def test_the_deck_size_and_the_rules_cards_are_checked(copy):
    text = (copy / "cards.toml").read_text(encoding="utf-8")
    start = text.index("[[card]]\nname = \"Ember Drake\"")
    end = text.index("[[card]]", start + 5)
    (copy / "cards.toml").write_text(text[:start] + text[end:], encoding="utf-8")
    edit(copy, "cards.toml", '"lure 3 Knight from target hand"', '"lure 2 Knight from target hand"')
    errors = [e.render() for e in check_data_dir(copy)]
    joined = "\n".join(errors)
    assert "the deck holds 69 cards; the rules give 70" in joined
    assert "clarification N.2 needs a Gilded Princess that lures 3 Knights" in joined


def test_toml_syntax_errors_are_located(copy):
    edit(copy, "characters.toml", 'name = "The Seer"', 'name = "The Seer')
    errors = check_data_dir(copy)
    assert errors and "TOML syntax" in errors[0].message and errors[0].line


def test_a_missing_file_and_a_missing_folder_are_reported(copy, tmp_path):
    (copy / "characters.toml").unlink()
    assert "file not found" in check_data_dir(copy)[0].render()
    assert "not a folder" in check_data_dir(tmp_path / "nowhere")[0].render()


def test_data_through_the_command_line(cli, copy):
    out = cli.ok("data", "export", "mayhem").out
    data = json.loads(out)
    assert len(data["cards"]) == 70 and len(data["characters"]) == 18
    assert "the data is valid" in cli.ok("data", "check", "mayhem", str(copy)).out
    edit(copy, "cards.toml", 'colour = "Gilded"', 'colour = "Gildd"')
    result = cli("data", "check", "mayhem", str(copy))
    assert result.code == 1
    assert f"cards.toml:{line_of(copy, 'cards.toml', 'Gildd')}:" in result.err
    assert "did you mean 'Gilded'?" in result.err
