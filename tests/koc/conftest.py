"""Fixtures for the Knights of Camelot world tests.

The rules text lives outside the repository (``../shared/rules``, or beside the repository a
clone was made from, as in CI); tests that compare the data with it are skipped when it is
absent (set KOC_RULES to point elsewhere).
"""
from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from companion.koc.world import DATA_DIR, load_world

REPO = Path(__file__).resolve().parents[2]


def _origin(repo: Path) -> Path | None:
    """The folder a clone was made from, when its origin is a path on this machine (CI tests a
    fresh clone made elsewhere; the rules text sits beside the repository it was cloned from)."""
    try:
        config = (repo / ".git" / "config").read_text(encoding="utf-8")
    except OSError:
        return None
    found = re.search(r'\[remote "origin"\][^\[]*?^\s*url\s*=\s*(.+?)\s*$', config, re.M)
    if found is None or "://" in found.group(1) or ":" in found.group(1).split("/")[0]:
        return None
    return Path(found.group(1)).expanduser()


def _rules_text() -> Path:
    if os.environ.get("KOC_RULES"):
        return Path(os.environ["KOC_RULES"])
    places = [REPO.parent / "shared" / "rules"]
    origin = _origin(REPO)
    if origin is not None:
        places.append((REPO / origin).resolve().parent / "shared" / "rules")
    for place in places:
        if (place / "knights-of-camelot.txt").is_file():
            return place / "knights-of-camelot.txt"
    return places[0] / "knights-of-camelot.txt"


RULES = _rules_text()


@pytest.fixture(scope="session")
def world():
    return load_world()


@pytest.fixture(scope="session")
def rules() -> "RulesText":
    if not RULES.is_file():
        pytest.skip(f"rules text not found at {RULES}")
    return RulesText(RULES.read_text(encoding="utf-8"))


@pytest.fixture()
def data_copy(tmp_path):
    """A writable copy of the data folder."""
    out = tmp_path / "data"
    out.mkdir()
    for f in DATA_DIR.glob("*.toml"):
        (out / f.name).write_text(f.read_text(encoding="utf-8"), encoding="utf-8")
    return out


def norm(text: str) -> str:
    """Rules text with markup, dashes and spacing normalised for comparisons."""
    text = text.replace("**", "").replace("\u2013", "-").replace("\u2014", "-")
    return re.sub(r"[ \t]+", " ", text)


ROLL = r"(\d+(?:\s*[-\u2013]\s*\d+)?\+?)"
LINE = re.compile(r"^[-|\s]*" + ROLL + r"\.?[\u2020*]*\s+(.+?)\s*\|?\s*$")


class RulesText:
    """Helpers to pull chart lines and explanations out of the rules text."""

    def __init__(self, text: str):
        self.text = text
        self.lines = text.splitlines()
        self.summary_start = next(i for i, line in enumerate(self.lines)
                                  if line.startswith("THIRD EDITION CREDITS"))

    def index(self, heading: str, after: int = 0) -> int:
        for i in range(after, len(self.lines)):
            if self.lines[i].strip() == heading:
                return i
        raise LookupError(heading)

    def chart_lines(self, heading: str, *, summary: bool = True, after: str | None = None) -> dict[str, str]:
        """Roll -> label from the chart printed under ``heading`` (a whole line).

        ``summary`` reads the reference summary at the end of the rules (one line per
        result); otherwise the first occurrence in the body is used.
        """
        start = self.summary_start if summary else 0
        if after:
            start = self.index(after, start)
        i = self.index(heading, start) + 1
        out: dict[str, str] = {}
        while i < len(self.lines):
            line = self.lines[i].strip()
            i += 1
            if not line or line.startswith("("):
                if out and not line:
                    # a blank line ends the chart unless more numbered lines follow at once
                    nxt = next((l for l in self.lines[i:i + 2] if l.strip()), "")
                    if not LINE.match(nxt.strip()):
                        break
                continue
            m = LINE.match(line)
            if not m:
                if out:
                    break
                continue
            roll = re.sub(r"\s", "", m.group(1)).replace("\u2013", "-").rstrip("+")
            label = m.group(2).replace("**", "").strip()
            out.setdefault(roll, label)
        return out

    def section(self, heading: str, until: str | None = None, *, after: int = 0) -> str:
        """Normalised text from the line ``heading`` to the line ``until`` (or 60 lines)."""
        i = self.index(heading, after)
        j = self.index(until, i + 1) if until else min(len(self.lines), i + 60)
        return norm("\n".join(self.lines[i:j]))

    def explanation(self, section: str, roll: str) -> str:
        """The longest paragraph of ``section`` that starts with the result ``roll``."""
        pattern = re.compile(r"(?:^|\n|\|)[ \t-]*" + re.escape(roll) + r"\.?[\u2020*]*[ \t]+([^\n|]+)")
        found = [m.group(1) for m in pattern.finditer(section)]
        return max(found, key=len) if found else ""

    # ---- the Random Deployment charts --------------------------------------------------
    def countryside_rows(self) -> list[tuple[str, str, str, list[str]]]:
        """(roll, kingdom cell, king, provinces) from the first Random Deployment Chart."""
        i = self.index("Random Deployment Chart") + 1
        rows = []
        row_re = re.compile(r"^(\d+)(?: \(([^)]*)\))?\t([^\t]+)\t([^\t]*)\t(.+)$")
        sub = {"high": "4-6", "low": "1-3"}
        while i < len(self.lines):
            line = self.lines[i]
            i += 1
            m = row_re.match(line)
            if not m:
                if rows and not line.strip():
                    break
                continue
            n, extra, kingdom, king, country = m.groups()
            roll = n if not extra else f"{n}/{sub.get(extra, extra)}"
            rows.append((roll, kingdom.strip(), king.strip(), [c.strip() for c in country.split(";")]))
        return rows

    def castle_chart_copies(self) -> list[list[tuple[int | None, str]]]:
        """Each printed copy of the castle deployment chart as (2d6 number, area name) pairs.

        The tables are printed in two side-by-side blocks of five columns (2d6, d6, d6, d6,
        Area); a blank 2d6 cell repeats the number above. Some rows are misaligned in the
        text, so a few pairs come out with the wrong number: callers must tolerate that.
        """
        copies = []
        starts = [i for i, line in enumerate(self.lines) if line.startswith("Random Deployment Chart (Castles)")]
        stop = re.compile(r"^(SEQUENCE OF PLAY|LIST OF ADVENTURES)")
        chunk: list[str] = []
        for n, start in enumerate(starts):
            j = start + 1
            while j < len(self.lines) and not stop.match(self.lines[j]) and j not in starts:
                chunk.append(self.lines[j])
                j += 1
            continued = n + 1 < len(starts) and starts[n + 1] == j
            if continued:
                continue
            pairs: list[tuple[int | None, str]] = []
            current: list[int | None] = [None, None]
            for line in chunk:
                if not line.strip() or line.startswith("2d6"):
                    continue
                cells = line.split("\t")
                for block in (0, 1):
                    cells_b = cells[block * 5: block * 5 + 5]
                    if cells_b and cells_b[0].strip().isdigit():
                        current[block] = int(cells_b[0])
                    for cell in cells_b:
                        if re.search(r"[A-Za-z]", cell):
                            pairs.append((current[block], re.sub(r"^[\d\-\u2013\u2014 ]+", "", cell).strip()))
            copies.append(pairs)
            chunk = []
        return copies
