"""The Holy Grail CCG's quick commands start fast: the shipped card set comes from the data
cache (companion/engine/cache.py) and ``show``/``options`` import only what they use (figures:
docs/performance.md; nothing here is timed)."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from companion.engine import cache
from companion.grailccg import cards

ROOT = Path(__file__).resolve().parents[2]


def test_the_cached_card_set_is_the_loaded_one(tmp_path, monkeypatch):
    monkeypatch.setenv(cache.ENV, str(tmp_path / "cache"))
    fresh = cards._load_folder(cards.DATA_DIR)
    cards._default_cards.cache_clear()
    try:
        first = cards.load_cards()
        assert len(list((tmp_path / "cache").glob("grailccg-cards-*.cache"))) == 1
        cards._default_cards.cache_clear()
        monkeypatch.setattr(cards, "_load_folder", lambda folder: 1 / 0)   # from the cache now
        again = cards.load_cards()
    finally:
        cards._default_cards.cache_clear()
    assert again is not first
    assert cache.same(first, fresh) and cache.same(again, fresh)
    assert again.cards == fresh.cards and again.folder == fresh.folder
    assert again.get("arthur") is again.cards[again.ids.index("arthur")]


def test_the_code_version_covers_every_module_that_loads_the_card_set():
    """Every module of the package imported while the set is loaded from its files is among
    the sources of its cache key (so editing it makes the cache stale)."""
    code = ("import sys\n"
            "from companion.grailccg.cards import _load_folder, DATA_DIR; _load_folder(DATA_DIR)\n"
            "print('\\n'.join(m.__file__ for n, m in sorted(sys.modules.items())\n"
            "                 if n.split('.')[0] == 'companion' and getattr(m, '__file__', None)))\n")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True,
                         check=True, env=dict(os.environ, COMPANION_CACHE_DIR="off")).stdout
    loaded = {Path(line).resolve() for line in out.split()}
    packages = {(ROOT / "companion" / sub / "__init__.py").resolve()
                for sub in ("", "engine", "grailccg")}
    assert loaded - packages - {Path(p).resolve() for p in cards.CODE} == set()
    assert (ROOT / "companion" / "engine" / "datafiles.py").resolve() in loaded


def modules_after(cli, *args: str) -> set[str]:
    """The modules loaded by a run of the command line (in a child process, as the script)."""
    code = ("import sys, atexit\n"
            "atexit.register(lambda: print('\\nMODULES ' + ' '.join(sorted(sys.modules))))\n"
            f"sys.argv = ['companion', *{list(args)!r}]\n"
            "from companion.cli import main\n"
            "main()\n")
    proc = subprocess.run([sys.executable, "-c", code], cwd=cli.root, env=cli.env,
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    return set(proc.stdout.rsplit("MODULES ", 1)[1].split())


def test_show_and_options_parse_no_toml_and_skip_what_they_do_not_use(cli, tmp_path):
    cli.env["COMPANION_CACHE_DIR"] = str(tmp_path / "cache")
    cli.ok("new", "grailccg", "g1", "--player", "Anna", "--player", "Bert", "--player", "Cora",
           "--seed", "1")
    for args in (["options", "g1", "Anna"], ["show", "g1"]):
        modules_after(cli, *args)
        loaded = modules_after(cli, *args)
        assert "companion.grailccg.kind" in loaded
        assert not {"tomllib", "companion.engine.datafiles", "companion.grailccg.orders"} & loaded
        assert not {m for m in loaded if m.split(".")[0] in ("pydantic", "reportlab")}, args
    assert "companion.grailccg.rules" not in loaded         # show: the view and the position


def test_commands_give_the_same_output_with_and_without_the_cache(cli, tmp_path):
    cli.ok("new", "grailccg", "g1", "--player", "Anna", "--player", "Bert", "--seed", "3")
    folder = tmp_path / "own-cache"
    runs = {}
    for label, setting in (("off", "off"), ("fill", str(folder)), ("cached", str(folder))):
        env = {"COMPANION_CACHE_DIR": setting}
        runs[label] = [cli.ok(*args, env=env).out for args in
                       (["show", "g1"], ["show", "g1", "--player", "Anna"],
                        ["options", "g1", "Anna"], ["options", "g1", "Bert", "--json"],
                        ["data", "export", "grailccg"])]
        if label == "fill":
            assert list(folder.glob("grailccg-cards-*.cache"))
    assert runs["off"] == runs["fill"] == runs["cached"]
