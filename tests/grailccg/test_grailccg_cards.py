"""The Holy Grail CCG card set: the shipped data respects every name and number of the rules
text and FACTS.md, the starter decks are legal and distinct, and every kind of bad input (card
files, Write Yer Own cards, deck lists) gives an error with file, line, column and a
suggestion."""
from __future__ import annotations

import shutil
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from companion.errors import DataError, DataErrors
from companion.grailccg.cards import (
    CASTLE_RESULTS, DATA_DIR, DECK_RULES, EFFECTS, FILES, STARTER_DECKS, TYPES, VILLAGE_RESULTS,
    WHEN, Card, DeckRules, Effect, EffectError, UnknownCard, card_from_dict, check_data_dir,
    effect_phrase, load_cards, load_deck, load_user_cards, parse_deck, parse_effect,
    parse_village_result, starter_decks,
)

CARDS = load_cards()


def errors_of(call) -> list[DataError]:
    try:
        call()
    except DataErrors as many:
        return list(many.errors)
    except DataError as one:
        return [one]
    return []


# ------------------------------------------------------------------ the shipped set

def test_the_thirteen_types_in_the_rules_order():
    assert list(TYPES) == ["knight", "page", "persona", "adversary", "land", "castle", "village",
                           "item", "peril", "song", "event", "taunt", "questions-three"]
    assert TYPES["questions-three"] == "Questions Three"


def test_the_shipped_set_loads_with_every_type():
    counts = Counter(c.type for c in CARDS)
    assert set(counts) == set(TYPES)
    assert all(n >= 5 for n in counts.values()), counts
    assert len(CARDS) >= 100
    assert len(set(CARDS.ids)) == len(CARDS)
    assert all(1 <= c.grail <= 7 for c in CARDS)
    assert {c.grail for c in CARDS} == set(range(1, 8))


NAMED = {
    # name: expected stats (rules examples, FACTS.md, errata)
    "Arthur": dict(type="knight", combat=5, wits=5),
    "Lancelot": dict(type="knight", combat=8),
    "Gawain": dict(type="knight", combat=4),
    "Bedevere": dict(type="knight"),
    "Ector": dict(type="knight"),
    "Galahad": dict(type="knight"),
    "Brave Sir Robin": dict(type="knight"),
    "Bors": dict(type="knight", combat=4, wits=4),
    "Patsy": dict(type="page"),
    "Humphrey the Page": dict(type="page"),
    "Page": dict(type="page"),
    "Excalibur": dict(type="item"),
    "Tintagel": dict(type="castle", defence=4),
    "Vicious Chicken of Bristol": dict(type="peril", combat=3),
    "Legendary Black Beast of Arrrghhh": dict(type="peril"),
    "Intermission": dict(type="event"),
    "Eccentric Performance": dict(type="event"),
    "A Newt?": dict(type="event"),
    "Get On With It": dict(type="event"),
    "Slaying of the Historian": dict(type="event"),
}


@pytest.mark.parametrize("name", list(NAMED))
def test_every_card_the_rules_name_exists_with_its_stats(name):
    card = CARDS.by_name(name)
    assert card.name == name
    for key, value in NAMED[name].items():
        assert getattr(card, key) == value, (name, key)


def test_icons_of_the_errata_and_of_bors():
    for name in ("Humphrey the Page", "Page", "Patsy"):
        assert "sword" in CARDS.by_name(name).icons, name
    assert CARDS.by_name("Bors").has_icon("castle")
    assert all(c.icons == () for c in CARDS if c.type not in ("knight", "page", "persona",
                                                             "adversary"))
    assert all(c.capacity and c.capacity >= 1 for c in CARDS.of("page"))
    assert CARDS.by_name("Page").limit is None


def test_example_8_1_and_8_2_tintagel_and_bors():
    tintagel, arthur, bors = (CARDS.by_name(n) for n in ("Tintagel", "Arthur", "Bors"))
    assert tintagel.occupant == "bors"
    total = 4 + 2 + arthur.wits - bors.wits
    assert total == 7
    assert tintagel.castle_result(total) not in ("pass", "pass-draw-1")
    assert tintagel.castle_result(total) == "wait"
    ector, galahad = CARDS.by_name("Ector"), CARDS.by_name("Galahad")
    assert arthur.combat + 2 == 7 and bors.combat + tintagel.defence == 8
    assert ector.type == galahad.type == "knight"


def test_examples_7_1_and_7_2():
    lancelot, gawain = CARDS.by_name("Lancelot"), CARDS.by_name("Gawain")
    assert lancelot.combat + 3 == 11 and gawain.combat + 6 == 10
    chicken = CARDS.by_name("Vicious Chicken of Bristol")
    assert lancelot.combat + 3 + 2 == 13 and chicken.combat + 2 == 5
    assert CARDS.by_name("Legendary Black Beast of Arrrghhh").combat


def test_the_historian_can_end_a_game_and_knights_may_refuse():
    slaying = CARDS.by_name("Slaying of the Historian")
    assert [e.name for e in slaying.primary] == ["lose-game"] and slaying.limit == 1
    black = CARDS.by_name("Black Knight")
    assert black.type == "adversary" and black.combat
    assert CARDS.of("song") and CARDS.of("taunt") and CARDS.of("questions-three")


def test_every_stat_the_rules_need():
    for c in CARDS:
        if c.type == "knight":
            assert c.combat is not None and "sword" in c.icons, c.name
        if c.type in ("persona", "adversary", "peril"):
            assert c.combat is not None or c.wits is not None, c.name
        if c.type == "castle":
            assert c.defence is not None and c.castle_table, c.name
            assert c.castle_table[0][0] is None and c.castle_table[-1][1] is None, c.name
            for (a, b) in zip(c.castle_table, c.castle_table[1:]):
                assert b[0] == a[1] + 1, c.name
            assert all(r in CASTLE_RESULTS for _, _, r in c.castle_table)
            if c.occupant not in (None, "knight", "persona", "adversary"):
                assert "castle" in CARDS.get(c.occupant).icons, c.name
        if c.type == "village":
            assert [g for g, _ in c.village_table] == list(range(1, 8)), c.name
            for _, result in c.village_table:
                assert parse_village_result(result).text == result
        if c.type in ("land", "castle", "village"):
            assert c.permanent, c.name
        else:
            assert not c.permanent and c.draws == 0, c.name
        if c.type in ("item", "event", "song", "taunt", "questions-three"):
            assert c.primary and c.primary_text, c.name
        if c.outwits:
            assert c.wits is not None, c.name


def test_card_texts_are_generated_in_our_words():
    excalibur = CARDS.by_name("Excalibur")
    assert excalibur.primary == (Effect("combat", 3, None, "combat +3"),)
    assert excalibur.primary_text == "Your side gets +3 combat in this dispute."
    taunt = CARDS.by_name("Your Mother Was a Hamster")
    assert "-2" in taunt.primary_text
    for spec in EFFECTS.values():
        assert spec.when in WHEN and spec.meaning
    for c in CARDS:
        for e in c.primary + c.secondary + c.outwits:
            assert e.name in EFFECTS and effect_phrase(e)


def test_names_ids_and_lookups():
    assert CARDS.by_name("sir lancelot").id == "lancelot"
    assert CARDS.by_name("King Arthur").id == "arthur"
    assert CARDS.by_name("vicious chicken of bristol").name == "Vicious Chicken of Bristol"
    assert CARDS.get("tintagel").name == "Tintagel"
    assert "arthur" in CARDS and len(CARDS.ids) == len(CARDS)
    with pytest.raises(UnknownCard) as info:
        CARDS.by_name("Lancelott")
    assert "Lancelot" in (info.value.hint or "")
    with pytest.raises(UnknownCard) as info:
        CARDS.get("tintagle")
    assert "tintagel" in (info.value.hint or "")
    with pytest.raises(UnknownCard) as info:
        CARDS.by_name("What")
    assert "several" in info.value.message


def test_load_order_is_the_file_order_and_deterministic(tmp_path):
    copy = tmp_path / "data"
    shutil.copytree(DATA_DIR, copy)
    a, b = load_cards(copy), load_cards(copy)
    assert a.ids == b.ids == CARDS.ids
    assert a.cards == CARDS.cards
    assert CARDS.ids[0] == "arthur"
    per_file = []
    for name in FILES:
        text = (DATA_DIR / name).read_text(encoding="utf-8")
        per_file += [line.split("=", 1)[1].strip().strip('"') for line in text.splitlines()
                     if line.startswith("name = ")]
    assert [c.name for c in CARDS] == per_file


def test_importing_is_cheap():
    code = ("import sys, companion.grailccg; "
            "assert 'companion.grailccg.cards' not in sys.modules; "
            "import companion.grailccg.cards as c; "
            "assert c._default_cards.cache_info().currsize == 0; "
            "assert c._starters.cache_info().currsize == 0; print('ok')")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         cwd=Path(__file__).resolve().parents[2])
    assert out.stdout.strip() == "ok", out.stderr


# ------------------------------------------------------------------ effects

@pytest.mark.parametrize("text, name, amount, target, canon", [
    ("draw 2", "draw", 2, None, "draw 2"),
    ("combat +2", "combat", 2, None, "combat +2"),
    ("wits -1", "wits", -1, None, "wits -1"),
    ("slay adversary", "slay", None, "adversary", "slay adversary"),
    ("  Slay   KNIGHT ", "slay", None, "knight", "slay knight"),
    ("move-back 1", "move-back", 1, None, "move-back 1"),
    ("reveal area", "reveal", None, "area", "reveal area"),
    ("none", "none", None, None, "none"),
])
def test_parse_effect(text, name, amount, target, canon):
    assert parse_effect(text) == Effect(name, amount, target, canon)


@pytest.mark.parametrize("text, message, hint", [
    ("drow 2", "unknown effect 'drow'", "did you mean 'draw'?"),
    ("combat 2", "needs a sign", "combat +2"),
    ("draw +2", "plain number", "draw 2"),
    ("draw", "needs a number", "draw N"),
    ("draw 9", "from 1 to 7", None),
    ("slay dragon", "cannot take 'dragon'", "adversary"),
    ("slay advresary", "cannot take", "did you mean 'adversary'?"),
    ("cancel now", "unexpected 'now'", None),
    ("", "empty effect", None),
])
def test_bad_effects_are_refused_with_a_suggestion(text, message, hint):
    with pytest.raises(EffectError) as info:
        parse_effect(text)
    assert message in info.value.message
    if hint:
        assert hint in (info.value.hint or "")


def test_the_extra_results():
    assert set(CASTLE_RESULTS) == {"pass", "pass-draw-1", "wait", "lose-a-page", "run-away",
                                   "trapped", "lead-knight-slain"}
    assert parse_village_result("draw 1").amount == 1
    assert parse_village_result("lose-a-page").name == "lose-a-page"
    assert "rest" in VILLAGE_RESULTS
    with pytest.raises(EffectError):
        parse_village_result("slay knight")


# ------------------------------------------------------------------ starter decks

def test_the_starter_decks_are_legal_distinct_and_sixty_cards():
    decks = starter_decks()
    assert list(decks) == list(STARTER_DECKS) == ["starter-arthur", "starter-french"]
    sets = []
    for name, deck in decks.items():
        assert deck.name == name
        assert len(deck.cards) == 60, name
        assert deck.check(CARDS) == [], [e.render() for e in deck.check(CARDS)]
        distinct = set(deck.cards)
        assert 40 <= len(distinct) <= 46, (name, len(distinct))
        assert deck.cards.count("arthur") == 1 and deck.cards.count("patsy") >= 1
        assert {CARDS.get(c).type for c in distinct} >= {"knight", "page", "adversary", "peril",
                                                       "castle", "village", "land", "item",
                                                       "event"}
        for cid in distinct:
            card = CARDS.get(cid)
            if card.type == "castle" and card.occupant in CARDS:
                assert card.occupant in distinct, (name, card.name)
        sets.append(distinct)
    a, b = sets
    assert a != b and len(a & b) <= 10
    spare = set(CARDS.ids) - a - b
    assert len(spare) >= 20


def test_starter_decks_are_copies_and_load_by_name():
    first = starter_decks()["starter-arthur"]
    first.cards.clear()
    assert len(starter_decks()["starter-arthur"].cards) == 60
    assert load_deck("starter-french").cards == starter_decks()["starter-french"].cards
    assert load_deck(DATA_DIR / "decks" / "starter-french.txt").name == "starter-french"


def test_deck_construction_rules():
    assert DECK_RULES.min_cards == 60 and DECK_RULES.default_limit == 4
    base = starter_decks()["starter-arthur"]
    short = parse_deck("1 Arthur\n1 Patsy\n4 Page\n", "short.txt")
    msgs = [e.message for e in short.check(CARDS)]
    assert any("at least 60" in m for m in msgs)
    text = (DATA_DIR / "decks" / "starter-arthur.txt").read_text()
    no_arthur = parse_deck(text.replace("1 Arthur\n", "1 Kay\n"), "a.txt")
    assert any("no Arthur" in e.message and "2.1" in e.message for e in no_arthur.check(CARDS))
    two_arthurs = parse_deck(text.replace("1 Arthur\n", "2 Arthur\n"), "a.txt")
    errs = two_arthurs.check(CARDS)
    assert any("only 1" in e.message for e in errs) and errs[0].line is not None
    no_patsy = parse_deck(text.replace("3 Patsy\n", "3 Page\n"), "a.txt")
    assert any("no Patsy" in e.message for e in no_patsy.check(CARDS))
    edited = text.replace("3 Vicious Chicken of Bristol\n", "5 Vicious Chicken of Bristol\n")
    [err] = parse_deck(edited, "a.txt").check(CARDS)
    assert "at most 4" in err.message and err.path == "a.txt"
    assert edited.splitlines()[err.line - 1].startswith("5 Vicious Chicken")
    pages = parse_deck(text.replace("5 Page\n", "12 Page\n"), "a.txt")
    assert pages.check(CARDS) == []                      # the generic Page has no limit
    historian = parse_deck(text + "2 Slaying of the Historian\n", "a.txt")
    assert any("at most 1" in e.message for e in historian.check(CARDS))
    strict = DeckRules(min_cards=61)
    assert base.check(CARDS, strict) and not base.check(CARDS)


@pytest.mark.parametrize("line, message, column, hint", [
    ("3 Vicious Chiken of Bristol", "no card called 'Vicious Chiken of Bristol'", 3,
     "Vicious Chicken of Bristol"),
    ("  2 Lancelott", "no card called 'Lancelott'", 5, "Lancelot"),
    ("3a Page", "cannot read the count '3a'", 1, "3 Vicious Chicken"),
    ("0 Page", "from 1 to 60", 1, None),
    ("4", "a card name is missing", 2, None),
    ("1 What", "could be several cards", 3, "What Is Your Name?"),
])
def test_deck_list_errors_are_located(line, message, column, hint):
    text = "# my deck\n\n1 Arthur\n" + line + "   # a comment\n1 Patsy\n"
    with pytest.raises(DataError) as info:
        parse_deck(text, "mine.txt")
    err = info.value
    assert message in err.message and err.path == "mine.txt"
    assert (err.line, err.column) == (4, column), err.render()
    if hint:
        assert hint in (err.hint or "")
    assert err.render().startswith(f"mine.txt:4:{column}: error:")


def test_deck_list_forms_and_several_errors(tmp_path):
    deck = parse_deck("1 Arthur\n2x Patsy\n  1 Sir Lancelot   # alias\nGawain\n", "f.txt")
    assert deck.cards == ["arthur", "patsy", "patsy", "lancelot", "gawain"]
    assert deck.lines == {"arthur": 1, "patsy": 2, "lancelot": 3, "gawain": 4}
    path = tmp_path / "bad.txt"
    path.write_text("1 Arthr\n1 Patsy\n2 Excalibr\n", encoding="utf-8")
    with pytest.raises(DataErrors) as info:
        load_deck(path)
    assert [(e.line, e.column) for e in info.value.errors] == [(1, 3), (3, 3)]
    with pytest.raises(DataError) as info:
        load_deck("starter-arthor")
    assert "starter-arthur" in (info.value.hint or "")


# ------------------------------------------------------------------ edited copies of the data

def broken_copy(tmp_path: Path, file: str, old: str, new: str) -> Path:
    folder = tmp_path / "data"
    shutil.copytree(DATA_DIR, folder)
    path = folder / file
    text = path.read_text(encoding="utf-8")
    assert old in text, old
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    return folder


TINTAGEL = ('table = ["<=2: trapped", "3..4: run-away", "5..8: wait", "9..11: pass", '
            '">=12: pass-draw-1"]')


@pytest.mark.parametrize("file, old, new, message, at", [
    ("characters.toml", 'name = "Lancelot"\ngrail = 1', 'name = "Lancelot"\ngrial = 1',
     "unknown key 'grial'", "grial"),
    ("characters.toml", 'name = "Lancelot"\ngrail = 1', 'name = "Lancelot"\ngrail = "1"',
     "'grail' must be a whole number", "grail"),
    ("characters.toml", 'name = "Lancelot"\ngrail = 1', 'name = "Lancelot"\ngrail = 8',
     "12.1", "grail = 8"),
    ("characters.toml", 'name = "Lancelot"\ngrail = 1', 'name = "Lancelot"\ngrail = 0',
     "grail numbers run from 1 to 7", "grail = 0"),
    ("characters.toml", 'name = "Gawain"\ngrail = 4\ncombat = 4\n', 'name = "Gawain"\ngrail = 4\n',
     "a knight needs 'combat'", 'name = "Gawain"'),
    ("characters.toml", 'combat = 8', 'combat = 8.5', "'combat' must be a whole number", "combat"),
    ("characters.toml", 'combat = 8', 'combat = 40', "'combat' must be from 0 to 12", "combat"),
    ("characters.toml", 'icons = ["sword", "castle"]\nlimit = 1',
     'icons = ["sowrd", "castle"]\nlimit = 1', "did you mean 'sword'?", '"sowrd"'),
    ("characters.toml", 'name = "Gawain"', 'name = "LANCELOT"', "two cards are called 'LANCELOT'",
     'name = "LANCELOT"'),
    ("characters.toml", 'name = "Patsy"\ngrail = 5', 'name = "Patsy"\ngrail = 5\nwits = 2',
     "a page has no 'wits'", "wits"),
    ("characters.toml", "capacity = 2", "capacity = 9", "'capacity' must be from 0 to 4",
     "capacity"),
    ("characters.toml", 'name = "Zoot"\ngrail = 5\nwits = 3\n', 'name = "Zoot"\ngrail = 5\n',
     "a persona needs 'combat', 'wits' or both", 'name = "Zoot"'),
    ("foes.toml", 'outwits = "slay knight"', 'outwits = "slay knigt"', "did you mean 'knight'?",
     '"slay knigt"'),
    ("places.toml", 'defence = 4\ndraws = 1\noccupant = "Bors"', 'draws = 1\noccupant = "Bors"',
     "a castle needs 'defence'", 'name = "Tintagel"'),
    ("places.toml", TINTAGEL + "\n", "", "a castle needs a castle 'table'", 'name = "Tintagel"'),
    ("places.toml", '"5..8: wait"', '"5..8: wiat"', "did you mean 'wait'?", "wiat"),
    ("places.toml", '"5..8: wait"', '"5..7: wait"', "leave a gap or overlap", '"9..11: pass"'),
    ("places.toml", '"<=2: trapped"', '"2: trapped"', "must start with a '<=N' row",
     '"2: trapped"'),
    ("places.toml", '"5..8: wait"', '"5-8: wait"', "cannot read the castle table row",
     '"5-8: wait"'),
    ("places.toml", 'occupant = "Bors"', 'occupant = "Boars"', "did you mean 'Bors'?", "Boars"),
    ("places.toml", 'occupant = "Bors"', 'occupant = "Kay"', "has no castle icon", '"Kay"'),
    ("places.toml", 'occupant = "Bors"', 'occupant = "Excalibur"', "castles hold knights",
     '"Excalibur"'),
    ("places.toml", '"4..5: rest", "6..7: draw 1"]', '"4..5: rest", "6: draw 1"]',
     "does not cover grail number 7", "table"),
    ("places.toml", '"4..5: rest", "6..7: draw 1"]', '"4..6: rest", "6..7: draw 1"]',
     "grail number 6 appears twice", '"6..7: draw 1"'),
    ("places.toml", '"4..5: rest", "6..7: draw 1"]', '"4..5: rest", "6..8: draw 1"]',
     "grail numbers run from 1 to 7", '"6..8: draw 1"'),
    ("places.toml", '"4..5: rest", "6..7: draw 1"]', '"4..5: rest", "6..7: drow 1"]',
     "did you mean 'draw'?", "drow 1"),
    ("places.toml", 'name = "Camelot"\ngrail = 3', 'name = "Camelot"\ngrail = 3\ncombat = 2',
     "a land has no 'combat'", "combat"),
    ("places.toml", 'name = "Camelot"\ngrail = 3\ndraws = 1',
     'name = "Camelot"\ngrail = 3\ndraws = 5',
     "'draws' must be from 0 to 3", "draws"),
    ("items.toml", 'primary = "combat +3"', 'primary = "combt +3"', "unknown effect 'combt'",
     "combt"),
    ("items.toml", 'primary = "combat +3"', 'primary = "combat 3"', "needs a sign", "3\""),
    ("items.toml", 'primary = "combat +3"', 'primary = ["combat +3", "none"]',
     "lists 'none' with other effects", "none"),
    ("items.toml", 'primary = "combat +3"', 'primary = 3', "must be an effect string", "primary"),
    ("items.toml", 'primary = "combat +3"\n', '', "an item needs a 'primary' property",
     'name = "Excalibur"'),
    ("items.toml", 'primary = "combat +3"', 'primary = "none"', "other than 'none'",
     'primary'),
    ("events.toml", 'primary = "revive"', 'primary = "join"', "secondary property of a page",
     '"join"'),
    ("events.toml", 'limit = 1', 'limit = 0', "'limit' must be a number of copies", "limit"),
    ("words.toml", '[[taunt]]\nname = "Your Mother', '[[tuant]]\nname = "Your Mother',
     "did you mean 'taunt'?", "[[tuant]]"),
    ("words.toml", 'name = "Marching Hymn"', 'name = "Marching Hymn"\nprimary_text = "Add some."',
     "does not mention the number 1", "primary_text"),
    ("words.toml", 'name = "Marching Hymn"', 'name = "Marching Hymn"\ncolour = "red"',
     "unknown key 'colour'", "colour"),
    ("words.toml", '[[song]]\nname = "Knights', '[[song]\nname = "Knights', "TOML syntax", None),
])
def test_edited_copies_give_located_errors(tmp_path, file, old, new, message, at):
    folder = broken_copy(tmp_path, file, old, new)
    errors = errors_of(lambda: load_cards(folder))
    assert errors, "no error"
    hits = [e for e in errors if message in e.render()]
    assert hits, [e.render() for e in errors]
    err = hits[0]
    assert err.path.endswith(file) and err.line is not None and err.column is not None
    assert err.render().startswith(f"{err.path}:{err.line}:{err.column}: error:")
    if at is not None:
        line = (folder / file).read_text(encoding="utf-8").splitlines()[err.line - 1]
        assert line[err.column - 1:].startswith(at) or at in line, (line, err.column, at)


def test_the_column_points_at_the_bad_word(tmp_path):
    folder = broken_copy(tmp_path, "places.toml", '"5..8: wait"', '"5..8: wiat"')
    [err] = errors_of(lambda: load_cards(folder))
    line = (folder / "places.toml").read_text().splitlines()[err.line - 1]
    assert line[err.column - 1:].startswith("wiat")
    folder = broken_copy(tmp_path / "b", "items.toml", 'primary = "combat +3"',
                         'primary = "combat 3"')
    [err] = errors_of(lambda: load_cards(folder))
    line = (folder / "items.toml").read_text().splitlines()[err.line - 1]
    assert line[err.column - 1:].startswith('3"')


def test_several_errors_are_reported_together(tmp_path):
    folder = broken_copy(tmp_path, "items.toml", 'primary = "combat +3"', 'primary = "combt +3"')
    path = folder / "characters.toml"
    path.write_text(path.read_text().replace("grail = 1\n", "grail = 9\n", 1))
    with pytest.raises(DataErrors) as info:
        load_cards(folder)
    files = {Path(e.path).name for e in info.value.errors}
    assert files == {"items.toml", "characters.toml"}


def test_a_missing_file_is_reported(tmp_path):
    folder = tmp_path / "data"
    shutil.copytree(DATA_DIR, folder)
    (folder / "words.toml").unlink()
    [err] = errors_of(lambda: load_cards(folder))
    assert "file not found" in err.message and err.path.endswith("words.toml")


def test_check_data_dir_covers_cards_and_decks(tmp_path):
    folder = tmp_path / "data"
    shutil.copytree(DATA_DIR, folder)
    assert check_data_dir(folder) == []
    deck = folder / "decks" / "starter-french.txt"
    deck.write_text(deck.read_text().replace("2 Catapult\n", "1 Catapult\n"))
    [err] = check_data_dir(folder)
    assert "59 cards" in err.message and err.path.endswith("starter-french.txt")
    deck.write_text(deck.read_text().replace("1 Catapult\n", "2 Catapolt\n"))
    [err] = check_data_dir(folder)
    assert "did you mean 'Catapult'" in err.render() and err.line is not None


def test_an_edited_set_keeps_the_cards_the_rules_name_and_the_starter_decks(tmp_path):
    """A copy without Patsy (2.1), with Intermission turned into a song, or without a starter
    deck is refused, each error saying where."""
    folder = broken_copy(tmp_path, "characters.toml", 'name = "Patsy"', 'name = "Patzy"')
    errors = check_data_dir(folder)
    assert any("the Page 'Patsy' is missing: the rules name it (2.1" in e.message and
               e.path.endswith("characters.toml") for e in errors), errors
    song = broken_copy(tmp_path / "song", "events.toml", '[[event]]\nname = "Intermission"',
                       '[[song]]\nname = "Intermission"')
    [err] = check_data_dir(song)
    assert "Song 'Intermission': the rules make it an event" in err.message
    assert err.path.endswith("events.toml") and err.line is not None
    (song / "events.toml").write_text((DATA_DIR / "events.toml").read_text())
    (song / "decks" / "starter-french.txt").unlink()
    [err] = check_data_dir(song)
    assert "file not found" in err.message and err.path.endswith("starter-french.txt")


# ------------------------------------------------------------------ Write Yer Own (12.1)

OWN = '''# my own cards
[[knight]]
name = "Sir Gareth the Quite Good"
grail = 5
combat = 4
wits = 2
icons = ["sword"]
flavour = "Drawn by hand on a blank card."

[[item]]
name = "Rubber Chicken"
grail = 6
primary = "wits +1"
secondary = "draw 1"
'''


def test_write_yer_own_cards_load_and_join_a_deck(tmp_path):
    path = tmp_path / "own.toml"
    path.write_text(OWN, encoding="utf-8")
    cards = load_user_cards(path)
    gareth = cards.by_name("Sir Gareth the Quite Good")
    assert gareth.custom and gareth.combat == 4 and gareth.id == "sir-gareth-the-quite-good"
    assert not cards.by_name("Arthur").custom
    assert len(cards) == len(CARDS) + 2 and cards.ids[-2:] == [gareth.id, "rubber-chicken"]
    text = (DATA_DIR / "decks" / "starter-arthur.txt").read_text()
    text = text.replace("5 Page\n", "3 Page\n2 Sir Gareth the Quite Good\n")
    deck = parse_deck(text, "mine.txt", card_set=cards)
    assert deck.check(cards) == []
    with pytest.raises(DataError):
        parse_deck(text, "mine.txt")               # not in the shipped set


def test_write_yer_own_grail_over_seven_is_refused(tmp_path):
    path = tmp_path / "own.toml"
    path.write_text(OWN.replace("grail = 6", "grail = 8"), encoding="utf-8")
    [err] = errors_of(lambda: load_user_cards(path))
    assert "grail number 8 is not allowed" in err.message and "12.1" in err.message
    assert err.path == str(path) and err.line == 12 and err.column == 1


def test_write_yer_own_cards_may_not_reuse_a_name_and_are_checked_alike(tmp_path):
    path = tmp_path / "own.toml"
    path.write_text(OWN.replace("Rubber Chicken", "Excalibur"), encoding="utf-8")
    [err] = errors_of(lambda: load_user_cards(path))
    assert "two cards are called 'Excalibur'" in err.message and err.line == 11
    path.write_text(OWN.replace('"wits +1"', '"witts +1"').replace("combat = 4\n", ""),
                    encoding="utf-8")
    errors = errors_of(lambda: load_user_cards(path))
    assert {e.line for e in errors} == {3, 12}          # one line shorter without combat


def test_an_empty_user_file_is_refused():
    from companion.grailccg.cards import parse_user_cards

    [err] = errors_of(lambda: parse_user_cards("# nothing yet\n", "empty.toml"))
    assert "holds no cards" in err.message and err.path == "empty.toml"


def test_card_from_dict():
    card = card_from_dict({"type": "castle", "name": "Castle Test", "grail": 3, "defence": 2,
                           "table": ["<=5: wait", ">=6: pass"], "occupant": "Bors"}, "test")
    assert isinstance(card, Card) and card.occupant == "bors" and card.castle_result(6) == "pass"
    assert card.castle_result(-10) == "wait" and card.permanent
    with pytest.raises(DataError) as info:
        card_from_dict({"type": "knight", "name": "Sir Eight", "grail": 8, "combat": 1}, "test")
    assert "12.1" in info.value.message and info.value.path == "test"
    with pytest.raises(DataError) as info:
        card_from_dict({"type": "knigt", "name": "X", "grail": 1}, "test")
    assert "did you mean 'knight'?" in info.value.render()


def test_patsy_may_not_exceed_the_copy_limit():
    text = (DATA_DIR / "decks" / "starter-arthur.txt").read_text()
    deck = parse_deck(text.replace("3 Patsy\n", "5 Patsy\n").replace("5 Page\n", "3 Page\n"),
                      "a.txt")
    [err] = deck.check(CARDS)
    assert "5 copies of 'Patsy'" in err.message


def test_export_is_json_ready():
    import json

    from companion.grailccg.cards import export

    data = json.loads(json.dumps(export()))
    assert len(data["cards"]) == len(CARDS) and set(data["effects"]) == set(EFFECTS)
    tintagel = next(c for c in data["cards"] if c["id"] == "tintagel")
    assert tintagel["castle_table"][0] == [None, 2, "trapped"] and tintagel["occupant"] == "bors"
    assert len(data["decks"]["starter-french"]) == 60


# ------------------------------------------------------------------ the user documentation

DOC = (Path(__file__).resolve().parents[2] / "docs" / "grailccg-cards.md").read_text(
    encoding="utf-8")


def doc_block(marker: str) -> str:
    import re

    m = re.search(rf"<!-- {marker} -->\s*\n```[^\n]*\n(.*?)^```", DOC, re.M | re.S)
    assert m, marker
    return m.group(1)


def test_the_documented_write_yer_own_example_loads_and_its_error_is_as_shown():
    from companion.grailccg.cards import parse_user_cards

    text = doc_block("cards-example")
    cards = parse_user_cards(text, "my-cards.toml")
    assert cards.by_name("Rubber Chicken").custom
    [err] = errors_of(lambda: parse_user_cards(text.replace("grail = 6", "grail = 8"),
                                               "my-cards.toml"))
    assert err.render() in DOC


def test_the_documented_deck_example_parses_and_its_error_is_as_shown():
    text = doc_block("deck-example")
    deck = parse_deck(text, "my-deck.txt")
    assert deck.cards[:2] == ["arthur", "patsy"] and "lancelot" in deck.cards
    bad = text.replace("3 Vicious Chicken", "3 Vicious Chiken")
    [err] = errors_of(lambda: parse_deck(bad, "my-deck.txt"))
    assert err.render() in DOC


def test_the_documentation_lists_every_word_and_the_counts():
    for name, spec in EFFECTS.items():
        assert f"`{name}" in DOC, name
    for result in CASTLE_RESULTS:
        assert f"| `{result}` |" in DOC, result
    for result in VILLAGE_RESULTS:
        assert f"| `{result}" in DOC, result
    counts = Counter(c.type for c in CARDS)
    for ctype, title in TYPES.items():
        assert f"| {title} | {counts[ctype]} |" in DOC, title
    assert f"| **all** | **{len(CARDS)}** |" in DOC


def test_the_documented_timing_of_each_effect_is_the_table_s():
    """The "may be used" column of the effect table says what ``EffectSpec.when_for`` says, for
    each target (``slay knight`` is played in your own turn, ``slay adversary`` in a dispute,
    as the engine plays them)."""
    import re

    label = {"turn": "your turn", "dispute": "in a dispute",
             "grail": "before a grail number is drawn", "invite": "before a Round Table draw",
             "response": "in answer to a card", "any": "any time", "found": "when found"}
    table = DOC.split("\n## Effects\n", 1)[1].split("\n## ", 1)[0]
    rows = {m.group(1): m.group(2).strip()
            for m in re.finditer(r"^\| `([a-z-]+(?: [a-z]+)?)[^|]*\| ([^|]*) \|", table, re.M)}
    assert rows["slay knight"] == "your turn" and rows["slay adversary"] == "in a dispute"
    assert EFFECTS["slay"].when_for("knight") == "turn"
    assert EFFECTS["slay"].when_for("adversary") == EFFECTS["slay"].when == "dispute"
    for name, spec in EFFECTS.items():
        if name == "none":
            continue
        for target in spec.targets or (None,):
            key = f"{name} {target}" if target else name
            assert rows.get(key) == label[spec.when_for(target)], key
    from companion.grailccg.cards import export

    assert export()["effects"]["slay"]["when_by_target"] == {"adversary": "dispute",
                                                             "knight": "turn"}
    assert "when_by_target" not in export()["effects"]["draw"]
