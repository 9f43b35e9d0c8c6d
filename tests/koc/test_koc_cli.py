"""The Knights of Camelot verbs of the installed command line: data, roll, route."""
from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import companion.koc

DATA = Path(companion.koc.__file__).parent / "data"


def test_data_export(cli):
    data = json.loads(cli.ok("data", "export", "koc").out)
    assert {"areas", "knights", "kings", "ladies", "chits", "charts"} <= set(data)
    assert (len(data["knights"]), len(data["kings"]), len(data["ladies"])) == (75, 15, 30)
    names = {a["name"] for a in data["areas"]}
    for area in data["areas"]:
        assert area["name"] and area["kind"] and isinstance(area["adjacent"], list)
        assert set(area["adjacent"]) <= names


def test_data_check(cli, tmp_path):
    copy = tmp_path / "koc-data"
    shutil.copytree(DATA, copy)
    assert "the data is valid" in cli.ok("data", "check", "koc", str(copy)).out
    areas = copy / "areas.toml"
    areas.write_text(areas.read_text().replace('kind = "sea"', 'kind = "ocean"', 1))
    result = cli("data", "check", "koc", str(copy))
    assert result.code == 1
    assert re.search(r"areas\.toml:\d+:\d+: error: area 'North Sea': unknown kind 'ocean'",
                     result.err)
    assert "did you mean 'sea'" in result.err
    assert cli("data", "check", "koc", str(tmp_path / "missing")).code == 1


def test_roll(cli):
    assert cli.ok("roll", "koc", "countryside", "--dice", "3,4").out.strip() == \
        "Countryside encounters: 3+4 = 7 -> Knights riding (1-6) [knights]"
    out = cli.ok("roll", "koc", "knight").out
    assert re.match(r"Knight reactions: \d\+\d = \d+ -> ", out)
    result = cli("roll", "koc", "countrysid", "--dice", "3,x")
    assert result.code == 1 and "item 2" in result.err
    result = cli("roll", "koc", "nosuchchart")
    assert result.code == 1 and "unknown chart" in result.err and "countryside" in result.err


def test_route(cli):
    out = cli.ok("route", "koc", "camelot", "york").out
    assert out.startswith("Camelot Castle -> ") and out.rstrip().endswith("turns at 3 areas a turn)")
    assert "ship moves" in cli.ok("route", "koc", "Camelot", "St. Andrew", "--by", "ship").out
    assert " -> " in cli.ok("route", "koc", "Tintagel", "Carbonek", "--by", "land").out
    result = cli("route", "koc", "Camelott", "Yrok")
    assert result.code == 1 and "did you mean" in result.err
    assert cli("route", "koc", "Camelot", "York", "--by", "air").code == 1


def test_koc_is_not_playable_yet(cli):
    result = cli("new", "koc", "k1", "--player", "A", "--player", "B")
    assert result.code == 1 and "rules engine is not built" in result.err
    assert "[data, charts and printables only]" in cli.ok("games").out
