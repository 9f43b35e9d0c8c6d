"""Validation of edited data folders: every error names file, line and column."""
from __future__ import annotations

import json
import re

import pytest

from companion.errors import DataError, DataErrors
from companion.koc.world import check_data_dir, load_world


def edit(folder, name: str, old: str, new: str, count: int = 1) -> None:
    path = folder / name
    text = path.read_text(encoding="utf-8")
    assert old in text, f"{old!r} not in {name}"
    path.write_text(text.replace(old, new, count), encoding="utf-8")


def errors_of(folder) -> list[DataError]:
    return check_data_dir(folder)


def find(errors, pattern: str) -> DataError:
    for e in errors:
        if re.search(pattern, e.render()):
            return e
    raise AssertionError(f"no error matching {pattern!r} in:\n" + "\n".join(e.render() for e in errors))


def line_of(folder, err: DataError) -> str:
    assert err.path and err.path.endswith(".toml")
    assert err.line is not None and err.column is not None
    return (folder / err.path.rsplit("/", 1)[-1]).read_text(encoding="utf-8").splitlines()[err.line - 1]


def test_pristine_copy_is_valid(data_copy):
    assert errors_of(data_copy) == []
    world = load_world(data_copy)
    assert len(world.areas) > 100


def test_unknown_area_in_adjacency_suggests_a_name(data_copy):
    edit(data_copy, "areas.toml",
         'land = ["Somerset", "Bradon Forest", "Bedgebury Forest", "Surrey", "Sussex"]',
         'land = ["Somerset", "Bradon Forest", "Bedgebury Forest", "Surey", "Sussex"]')
    errs = errors_of(data_copy)
    err = find(errs, r"areas\.toml:\d+:\d+: error: area 'Hampshire', land: unknown area 'Surey'")
    assert err.hint == "did you mean 'Surrey'?"
    assert '"Surey"' in line_of(data_copy, err)
    asym = find(errs, r"area 'Surrey' lists 'Hampshire' under land, but 'Hampshire' does not")
    assert "add \"Surrey\" to the land list of 'Hampshire'" in asym.hint


def test_asymmetric_link(data_copy):
    edit(data_copy, "areas.toml", 'name = "Cornwall"\nkind = "countryside"\nkingdom = "Cornwall"\nland = ["Sharpenose Wood"]\nriver = ["Tamar"]',
         'name = "Cornwall"\nkind = "countryside"\nkingdom = "Cornwall"\nland = ["Sharpenose Wood"]')
    err = find(errors_of(data_copy), r"area 'Tamar' lists 'Cornwall' under river, but 'Cornwall' does not list 'Tamar'")
    assert '"Cornwall"' in line_of(data_copy, err) and "river" in line_of(data_copy, err)


def test_duplicate_unknown_key_and_wrong_type(data_copy):
    edit(data_copy, "areas.toml", 'name = "Glen"', 'name = "Nene"')
    edit(data_copy, "areas.toml", 'name = "Medway"\nkind = "river"', 'name = "Medway"\nkind = "river"\ncolour = "blue"')
    edit(data_copy, "knights.toml", 'name = "Sir Kay"\nvirtue_level = 6', 'name = "Sir Kay"\nvirtue_level = "six"')
    errs = errors_of(data_copy)
    dup = find(errs, r"duplicate area name 'Nene'")
    assert 'name = "Nene"' in line_of(data_copy, dup)
    unk = find(errs, r"area 'Medway': unknown key 'colour'")
    assert "colour" in line_of(data_copy, unk)
    typ = find(errs, r"knights\.toml:\d+:\d+: error: knight 'Sir Kay': 'virtue_level' must be a whole number")
    assert "virtue_level" in line_of(data_copy, typ)


def test_wrong_kind_and_link_type(data_copy):
    edit(data_copy, "areas.toml", 'name = "Kent"\nkind = "countryside"', 'name = "Kent"\nkind = "countrysid"')
    errs = errors_of(data_copy)
    err = find(errs, r"area 'Kent': unknown kind 'countrysid'")
    assert err.hint == "did you mean 'countryside'?"
    assert "kind" in line_of(data_copy, err)


def test_chart_gaps_overlaps_and_bad_references(data_copy):
    edit(data_copy, "charts.toml", '{ roll = "6-8", key = "calm_passage"', '{ roll = "6-7", key = "calm_passage"')
    edit(data_copy, "charts.toml", '{ roll = "2-5", key = "monster"', '{ roll = "2-6", key = "monster"')
    edit(data_copy, "charts.toml", 'key = "peasants", label = "Peasants" }', 'key = "peasants", label = "Peasants", chart = "animals" }')
    edit(data_copy, "deployment.toml", 'area = "Yare"', 'area = "Yar"')
    edit(data_copy, "deployment.toml", '{ roll = "9/6", key = "tamar", label = "Tamar", area = "Tamar" }',
         '{ roll = "9/6", key = "tamar", label = "Tamar", area = "Wye" }')
    errs = errors_of(data_copy)
    gap = find(errs, r"charts\.toml:\d+:\d+: error: chart 'sea': no result for 8")
    overlap = find(errs, r"chart 'forest': ranges 2-6 and 6-7 overlap at 6")
    assert 'roll = "6-7"' in line_of(data_copy, overlap)
    ref = find(errs, r"chart 'countryside', roll '8': unknown chart 'animals'")
    assert ref.hint == "did you mean 'animal'?" and "peasants" in line_of(data_copy, ref)
    area = find(errs, r"deployment\.toml:\d+:\d+: error: chart 'deploy_castle', roll '6/4-6/4-6/4': unknown area 'Yar'")
    assert area.hint == "did you mean 'Yare'?"
    wrong = find(errs, r"deploy_castle, roll '9/6': 'Wye' does not touch Cornwall")
    assert "Wye" in line_of(data_copy, wrong)
    assert gap.line is not None


def test_card_rules(data_copy):
    edit(data_copy, "knights.toml", 'name = "Sir Galahad"\nvirtue_level = 0', 'name = "Sir Galahad"\nvirtue_level = 2')
    edit(data_copy, "knights.toml", 'name = "Sir Belleus"\nvirtue_level = 7\nchivalry_points = 40',
         'name = "Sir Belleus"\nvirtue_level = 12\nchivalry_points = 40')
    edit(data_copy, "knights.toml", 'name = "Sir Ozanna"\nvirtue_level = 5', 'name = "Sir Ozanna"\nvirtue_level = 1')
    edit(data_copy, "ladies.toml", 'name = "Queen of North Wales"\nvirtue_level = 9', 'name = "Queen of North Wales"\nvirtue_level = 8')
    edit(data_copy, "ladies.toml", 'home_castle = "Astolat"', 'home_castle = "York"')
    errs = errors_of(data_copy)
    assert "virtue_level" in line_of(data_copy, find(errs, r"Sir Galahad has VL 0 in the rules"))
    bad = find(errs, r"Sir Belleus: VL 12 cannot come from 40 CP")
    assert "nearest possible VL" in bad.hint
    find(errs, r"Sir Ozanna: VL 1 would make every prayer succeed")
    find(errs, r"Queen of North Wales is an Enchantress of VL 9")
    find(errs, r"home castle 'York' has the name of a map area")


def test_card_count(data_copy):
    text = (data_copy / "kings.toml").read_text(encoding="utf-8")
    start = text.index('[[king]]\nname = "King Howell"')
    (data_copy / "kings.toml").write_text(text[:start], encoding="utf-8")
    err = find(errors_of(data_copy), r"kings\.toml:\d+:\d+: error: the game has 15 king cards; this file has 14")
    assert err.line is not None


def test_syntax_error_and_missing_file(data_copy):
    edit(data_copy, "chits.toml", 'name = "Badger"', 'name = "Badger')
    (data_copy / "war.toml").unlink()
    errs = errors_of(data_copy)
    syntax = find(errs, r"chits\.toml:\d+:\d+: error: TOML syntax")
    assert syntax.line is not None
    find(errs, r"war\.toml: error: file not found")


def test_all_files_errors_are_raised_together(data_copy):
    edit(data_copy, "areas.toml", 'name = "Glen"', 'name = "Nene"')
    edit(data_copy, "requests.toml", '"heal", "join", "lift_enchantment"]', '"heal", "jion", "lift_enchantment"]')
    edit(data_copy, "war.toml", '{ roll = "4", next = "X", when = "next_turn" }', '{ roll = "4", next = "Q9", when = "next_turn" }')
    with pytest.raises(DataErrors) as exc:
        load_world(data_copy)
    text = exc.value.render()
    assert "areas.toml" in text and "requests.toml" in text and "war.toml" in text
    assert "unknown request 'jion'" in text and "did you mean 'join'?" in text
    assert "exit to unknown step 'Q9'" in text


def test_unreachable_area_and_port_rules(data_copy):
    edit(data_copy, "areas.toml", 'name = "Carisbrooke"\nkind = "town"\nwithin = "Isle of Wight"\nport = true\nship = ["Narrow Sea"]',
         'name = "Carisbrooke"\nkind = "town"\nwithin = "Isle of Wight"')
    edit(data_copy, "areas.toml", '"Isle of Wight", "Test", "Carisbrooke",', '"Isle of Wight", "Test",')
    edit(data_copy, "areas.toml", 'name = "Isle of Wight"\nkind = "countryside"\naliases = ["I. of Wight"]\nkingdom = "Logres"\ncastellany = "Jagent"\nship = ["Narrow Sea"]',
         'name = "Isle of Wight"\nkind = "countryside"\naliases = ["I. of Wight"]\nkingdom = "Logres"\ncastellany = "Jagent"')
    edit(data_copy, "areas.toml", '"Hampshire", "Isle of Wight", "Test"', '"Hampshire", "Test"')
    errs = errors_of(data_copy)
    find(errs, r"area 'Isle of Wight' cannot be reached from Camelot Castle")


def test_world_json_is_complete_and_deterministic(world):
    data = world.to_json()
    for key in ("areas", "knights", "kings", "ladies", "chits", "charts"):
        assert data[key], key
    for area in data["areas"]:
        assert {"name", "kind", "adjacent"} <= set(area)
        assert area["adjacent"] == sorted(area["adjacent"], key=str.casefold)
        assert all(isinstance(n, str) for n in area["adjacent"])
    text = json.dumps(data, sort_keys=True)
    assert text == json.dumps(world.to_json(), sort_keys=True)
    assert text == json.dumps(load_world().to_json(), sort_keys=True)
    chart = next(c for c in data["charts"] if c["name"] == "king_arthur")
    assert chart["entries"][-1]["shown"] == "12+"
    assert {"foreign_war", "requests", "kingdoms", "castellanies"} <= set(data)


def test_every_request_and_person_the_engine_uses_is_in_the_data(data_copy):
    """An emptied requests.toml passed the check once: a game would have granted nothing."""
    (data_copy / "requests.toml").write_text("# nothing\n")
    with pytest.raises(DataErrors) as exc:
        load_world(data_copy)
    text = exc.value.render()
    assert "request 'welcome' is missing (the orders let a knight make it)" in text
    assert "person 'hermit' is missing (the requests phase asks one)" in text
    assert 'add a [[request]] with key = "adventure"' in text
