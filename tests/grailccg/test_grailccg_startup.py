"""The Holy Grail CCG's quick commands start fast: the shipped card set comes from the data
cache (companion/engine/cache.py) and ``show``/``options`` import only what they use (figures:
docs/performance.md; nothing here is timed)."""
from __future__ import annotations

from tests.test_cli_startup import modules_after

# the cached card set equals the loaded one, and its cache key covers every module that loads
# it: tests/test_cache.py (CACHED["grailccg"]), as for every kind's data


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
