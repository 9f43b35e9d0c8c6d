"""Property-based tests of 'companion data check' for every game with data files (Hypothesis):
an edited copy of the shipped data folder, with one to three random edits (a line deleted,
duplicated, moved or replaced by noise, a number changed, a name swapped for another, the file
cut short), is either valid or gives DataErrors, each naming the file it is about and, unless
it is about the file as a whole, a line of it; nothing else ever escapes (a moderator who
edits a card must get a message, not a traceback)."""
from __future__ import annotations

import os
import re
import shutil
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.errors import DataError, DataErrors
from companion.registry import get_kind

EXAMPLES = int(os.environ.get("COMPANION_PROPERTY_EXAMPLES", "100")) // 2
SETTINGS = settings(max_examples=max(EXAMPLES, 10), deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                           HealthCheck.function_scoped_fixture])
ROOT = Path(__file__).resolve().parents[1] / "companion"
KINDS = ["fluxx", "gral", "grailccg", "mayhem", "koc"]
NOISE = ["", "#", "[[", "]]", "=", '"', "name", "grail", "0", "1", "99", "-1", "x", "²",
         "true", "[x]", "a = 1", "name = \"\"", "1" * 30, "{", "}", ",", "é"]


def files_of(kind: str) -> list[Path]:
    data = ROOT / kind / "data"
    return sorted(p for p in data.rglob("*") if p.is_file() and p.suffix in (".toml", ".txt"))


def words_of(text: str) -> list[str]:
    return sorted(set(re.findall(r'"([^"\n]{1,40})"', text)))[:200] or ["x"]


def mutate(data, text: str) -> str:
    lines = text.splitlines()
    if not lines:
        return text
    how = data.draw(st.sampled_from(["delete", "duplicate", "number", "swap", "truncate",
                                     "noise", "move"]), label="mutation")
    i = data.draw(st.integers(0, len(lines) - 1), label="line")
    if how == "delete":
        del lines[i]
    elif how == "duplicate":
        lines.insert(i, lines[i])
    elif how == "number":
        new = data.draw(st.sampled_from(["0", "-1", "1", "7", "99", "100000", "1.5", "", "x",
                                         "²", "1" * 40]), label="number")
        lines[i] = re.sub(r"\d+", new, lines[i], count=1)
    elif how == "swap":
        names = words_of(text)
        old, new = data.draw(st.sampled_from(names)), data.draw(st.sampled_from(names))
        lines[i] = lines[i].replace(old, new)
    elif how == "truncate":
        return text[:data.draw(st.integers(0, len(text)), label="cut")]
    elif how == "noise":
        lines[i] = " ".join(data.draw(st.lists(st.sampled_from(NOISE), max_size=5)))
    else:
        j = data.draw(st.integers(0, len(lines) - 1), label="to")
        lines.insert(j, lines.pop(i))
    return "\n".join(lines) + "\n"


def check(kind: str, folder: Path, edited: Path) -> None:
    try:
        errors = get_kind(kind).data_check(folder)
    except (DataError, DataErrors) as raised:
        errors = raised.errors if isinstance(raised, DataErrors) else [raised]
    for error in errors:
        rendered = error.render()
        assert error.path, rendered
        assert Path(error.path).name in {p.name for p in folder.rglob("*")} | {folder.name}, \
            rendered
        assert "Traceback" not in rendered


@pytest.mark.parametrize("kind", KINDS)
def test_edited_data_folders_check_or_say_what_is_wrong(kind, tmp_path_factory):
    folder = tmp_path_factory.mktemp(kind) / "data"
    shutil.copytree(ROOT / kind / "data", folder)
    assert get_kind(kind).data_check(folder) == [], "the shipped data must be valid"
    files = [folder / p.relative_to(ROOT / kind / "data") for p in files_of(kind)]

    @SETTINGS
    @given(data=st.data())
    def edited(data):
        target = data.draw(st.sampled_from(files), label="file")
        original = target.read_text(encoding="utf-8")
        text = original
        try:
            for _ in range(data.draw(st.integers(1, 3), label="edits")):
                text = mutate(data, text)
            target.write_text(text, encoding="utf-8")
            check(kind, folder, target)
        finally:
            target.write_text(original, encoding="utf-8")

    edited()
