"""The editable Gral data files: the shipped files are valid; broken copies give located errors."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from companion.errors import DataError, DataErrors
from companion.gral.world import DATA_DIR, load_world


def test_shipped_data_respects_the_facts():
    w = load_world()
    assert (w.rows, w.columns) == (5, 5) and len(w.fields) == 25
    assert w.total_points == 100 and all(1 <= u.value <= 10 for u in w.units)
    name = {f.id: f.name for f in w.fields}
    adjacent = lambda a, b: w.field_by_name[b] in w.adjacent[w.field_by_name[a]]  # noqa: E731
    assert adjacent("Masyaf", "Akkon") and adjacent("Tortosa", "Akkon") and adjacent("Malta", "Prague")
    assert name[w.grail_start] == "Golgota"
    corners = {(1, 1), (1, 5), (5, 1), (5, 5)}
    assert {(w.field[o.headquarters].row, w.field[o.headquarters].column) for o in w.orders} == corners
    assert w.field[w.order["assassins"].headquarters].name == "Masyaf"
    assert len(w.initiates) == 8
    assert {"Alberto Castellano", "Adam zu Weisenheim", "Mansur Al-Jallah"} <= set(w.initiate_names)
    assert w.initiate["alberto-castellano"].size == "tall"
    assert w.order[w.initiate["mansur-al-jallah"].order].name == "Assassins"
    for f, near in w.adjacent.items():
        for g in near:
            assert f in w.adjacent[g]


def broken_copy(tmp_path: Path, change: tuple[str, str], file: str = "board.toml") -> Path:
    folder = tmp_path / "data"
    shutil.copytree(DATA_DIR, folder)
    path = folder / file
    text = path.read_text(encoding="utf-8")
    assert change[0] in text
    path.write_text(text.replace(change[0], change[1], 1), encoding="utf-8")
    return folder


@pytest.mark.parametrize("change, file, message", [
    (('headquarters = "Masyaf"', 'headquarters = "Masyf"'), "board.toml",
     "no field called 'Masyf'"),
    (('symbol = "knife"', 'symbol = "knive"'), "board.toml", "did you mean 'knife'"),
    (('size = "tall"', 'size = "big"'), "board.toml", "size must be 'tall' or 'small'"),
    (('row = 3\ncolumn = 3', 'row = 3\ncolumn = 3\ncolour = "red"'), "board.toml",
     "unknown key 'colour'"),
    (("6, 7, 8, 9, 10,", "6, 7, 8, 9, 11,"), "sheet.toml", "units are whole numbers from 1 to 10"),
    (("6, 7, 8, 9,      # high", "6, 7, 8,      # high"), "sheet.toml", "add up to 91, not 100"),
    (("rows = 5", "rows = 5\nrows = 6"), "board.toml", "TOML syntax"),
])
def test_broken_data_is_located(tmp_path, change, file, message):
    folder = broken_copy(tmp_path, change, file)
    with pytest.raises((DataError, DataErrors)) as info:
        load_world(folder)
    rendered = info.value.render()
    assert message in rendered, rendered
    assert f"{file}:" in rendered and rendered.split(f"{file}:")[1][0].isdigit(), rendered
