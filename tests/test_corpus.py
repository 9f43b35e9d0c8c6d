"""The malformed-input corpus (tests/corpus/<kind>/{setup,orders,import}/): every file, through
the installed command line, is refused with exit status 1, a located message and no traceback,
and leaves the store byte for byte as it was.

Setup files run as ``companion new KIND corpus --setup FILE``; order files as ``companion orders
submit corpus Anna FILE`` against a fresh game of three players (Anna, Bert, Cora, or as many as
the kind seats; seed 1); import files as ``companion import FILE``. Messages about setup and
order files carry FILE:LINE:COL; import files are JSON, located by line and column when the JSON
itself is broken and by the JSON path (players[0].token) otherwise. The import files are written
by tests/corpus/make_imports.py.
"""
from __future__ import annotations

import re
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

CORPUS = Path(__file__).parent / "corpus"
KINDS = sorted(p.name for p in CORPUS.iterdir() if p.is_dir() and p.name != "__pycache__")
OPTIONS = {"gral": ["--option", "first=Anna"]}


def files(kind: str, part: str) -> list[Path]:
    folder = CORPUS / kind / part
    return sorted(p for p in folder.iterdir() if p.is_file()) if folder.is_dir() else []


def test_the_corpus_covers_every_game():
    from companion.registry import KINDS as REGISTERED

    for entry in REGISTERED:
        assert entry.id in KINDS, f"no corpus for {entry.id}"
        for part in ("setup", "orders", "import"):
            assert len(files(entry.id, part)) >= 12, f"{entry.id}/{part}: fewer than 12 files"


@pytest.mark.parametrize("kind", KINDS)
def test_every_malformed_input_is_refused_with_its_place(cli, kind):
    from companion.registry import info

    seats = [arg for name in ("Anna", "Bert", "Cora")[: info(kind).max_players]
             for arg in ("--player", name)]
    cli.ok("new", kind, "corpus", *seats, "--seed", "1", *OPTIONS.get(kind, []))
    before = cli.store.read_bytes()
    runs = []
    for path in files(kind, "setup"):
        runs.append((path, ("new", kind, "fresh", "--setup", str(path)), True))
    for path in files(kind, "orders"):
        runs.append((path, ("orders", "submit", "corpus", "Anna", str(path)), True))
    for path in files(kind, "import"):
        runs.append((path, ("import", str(path)), False))
    with ThreadPoolExecutor(max_workers=2) as pool:
        results = list(pool.map(lambda run: cli(*run[1]), runs))
    problems = []
    for (path, args, located), result in zip(runs, results):
        where = f"{path.relative_to(CORPUS)}"
        if result.code != 1:
            problems.append(f"{where}: exit {result.code}\n{result.text}")
        elif "Traceback" in result.text:
            problems.append(f"{where}: traceback\n{result.text}")
        elif located and not re.search(re.escape(str(path)) + r":\d+:\d+", result.err):
            problems.append(f"{where}: no FILE:LINE:COL in\n{result.err}")
        elif not located and str(path) not in result.err:
            problems.append(f"{where}: the message does not name the file\n{result.err}")
    assert not problems, "\n\n".join(problems)
    assert cli.store.read_bytes() == before
    assert not (cli.output / "fresh").exists()
