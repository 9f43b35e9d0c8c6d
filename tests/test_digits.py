"""Numbers as people type them: only the digits 0-9 count.  ``str.isdigit`` is true for '²' and
'③', which ``int`` then refuses: each reader that asked ``isdigit`` before ``int`` crashed with
a ValueError (or showed Python's own message) on such a character.  Found by the Holy Grail
CCG's property tests (an area 'av²' in a position)."""
from __future__ import annotations

import pytest

from companion.engine.game import parse_option_args, resolve_options
from companion.engine.numbers import is_digits
from companion.errors import CompanionError, DataError, DataErrors
from companion.registry import get_kind

ODD = ["²", "③", "1²", "٣²", "", " 1", "1 ", "-1", "+1"]


def test_only_the_digits_0_to_9_are_digits():
    assert is_digits("0") and is_digits("0123456789") and is_digits("007")
    for text in ODD:
        assert not is_digits(text), text
    assert "²".isdigit()        # why the helper exists


@pytest.mark.parametrize("kind, key", [("fluxx", "turn-limit"), ("gral", "round-limit"),
                                       ("grailccg", "hand-limit"), ("mayhem", "rounds")])
@pytest.mark.parametrize("value", ["²", "1²", "③"])
def test_number_options_refuse_odd_digits_in_their_own_words(kind, key, value):
    specs = get_kind(kind).option_specs
    with pytest.raises(CompanionError) as info:
        resolve_options(specs, parse_option_args([f"{key}={value}"]), ["Anna", "Bert", "Cora"])
    assert f"'{value}'" in info.value.message
    assert "invalid literal" not in info.value.message


def test_a_duration_with_odd_digits_is_not_a_duration():
    from companion.mail.config import parse_duration

    with pytest.raises(ValueError, match="is not a duration"):
        parse_duration("²")
    assert parse_duration("90") == 90


def test_odd_digits_in_the_jobs_variable_fall_back_to_the_default(monkeypatch):
    from companion.render import parallel

    monkeypatch.delenv(parallel.JOBS_VARIABLE, raising=False)
    default = parallel.default_jobs()
    monkeypatch.setenv(parallel.JOBS_VARIABLE, "²")
    assert parallel.default_jobs() == default


def test_an_avalon_area_with_odd_digits_is_no_area():
    from companion.grailccg import england as E

    assert E.canonical("av2") == "av2" and E.canonical("AV²") is None


def test_a_mayhem_effect_with_odd_digits_is_refused_with_its_place():
    from companion.mayhem.effects import EffectError, parse_effect

    with pytest.raises(EffectError) as info:
        parse_effect("draw ²")
    assert "'²'" in str(info.value)


KOC = """\
game = "koc"
scenario = "basic"
turn = 3
order = ["Anna", "Bert"]
current = "Anna"

[draws]
monster = ["Lion {wl}"]

[knight.Anna]
at = "Camelot Castle"

[knight.Bert]
at = "Cornwall"
"""


def test_a_koc_position_drawing_a_counter_of_odd_wound_level_is_refused_where_it_says_so():
    kind = get_kind("koc")
    assert kind.read_position(KOC.format(wl=5), "p.toml", {})["draws"] == {"monster": ["Lion 5"]}
    with pytest.raises((DataError, DataErrors)) as info:
        kind.read_position(KOC.format(wl="²"), "p.toml", {})
    assert "p.toml:8:" in info.value.render() and "Lion ²" in info.value.render()


@pytest.mark.parametrize("text, where", [("0", "1:2"), ("a = 1\nb", "2:2"), ("", None),
                                         ("x = [", "1:6"), ("[t]\nx = 1\ny =", "3:4")])
def test_a_toml_mistake_at_the_end_of_a_file_is_located_there(text, where):
    """tomllib says "at end of document" without a line: the mistake is placed just after the
    last character (found by the Holy Grail CCG's property tests: a card file '0')."""
    from companion.engine.datafiles import load_toml

    if where is None:
        assert load_toml(text, "f.toml") == {}
        return
    with pytest.raises(DataError) as info:
        load_toml(text, "f.toml")
    assert info.value.render().startswith(f"f.toml:{where}: error: TOML syntax: ")
    assert "end of document" not in info.value.render()
