"""The command line starts fast: what makes it so holds (figures: benchmarks/cli_startup.py;
nothing here is timed)."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _hooked() -> bool:
    """Whether this typer has the internals companion/cli_coercion.py hooks (without them
    typer converts through pydantic, as it always did: slower, not wrong)."""
    import importlib.util

    return importlib.util.find_spec("typer._coercion") is not None


HEAVY = ("pydantic", "reportlab", "sqlite3") if _hooked() else ("reportlab", "sqlite3")


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


def test_games_imports_no_game_and_no_pydantic(cli):
    loaded = modules_after(cli, "games")
    assert not {m for m in loaded if m.startswith(("companion.gral", "companion.koc",
                                                  "companion.mayhem", "companion.fluxx"))}
    assert not {m for m in loaded if m.split(".")[0] in HEAVY}


def test_a_command_builds_only_its_own_part_of_the_tree(monkeypatch):
    """main() builds the shared command or group the arguments name (companion/cli.py
    app_for), none for a kind's own commands, the whole tree for anything else."""
    from companion import cli

    def names(part) -> tuple[list[str], list[str]]:
        return ([cli._name_of(c) for c in part.registered_commands],
                [g.name for g in part.registered_groups])

    whole = names(cli.app)
    assert len(whole[0]) > 10 and "orders" in whole[1]
    assert names(cli.app_for(["show", "g1"])) == (["show"], [])
    assert names(cli.app_for(["options", "g1", "Anna", "--json"])) == (["options"], [])
    assert names(cli.app_for(["--store", "s.sqlite3", "--output=out", "open", "x"])) == \
        (["open"], [])
    assert names(cli.app_for(["orders", "check", "g1", "Anna", "-"])) == ([], ["orders"])
    assert names(cli.app_for(["mail", "--help"])) == ([], ["mail"])
    for kind_command in (["koc", "roll", "x"], ["journal", "g1"], ["route", "koc", "a", "b"]):
        assert names(cli.app_for(kind_command)) == ([], []), kind_command
    for args in ([], ["--help"], ["-h"], ["-V"], ["--version"], ["--store"], ["no-such-verb"],
                 ["shw", "g1"], ["--frob", "show"], ["--", "show"], ["--show-completion"]):
        assert cli.app_for(args) is cli.app, args
    monkeypatch.setenv("_COMPANION_COMPLETE", "bash_complete")
    assert cli.app_for(["show", "g1"]) is cli.app
    assert names(cli.app) == whole      # the parts are copies


def test_each_part_of_the_tree_answers_as_the_whole_tree():
    """Help and usage errors of every shared command and group (and of the kinds' groups): the
    same text and status from the part main() builds as from the whole tree."""
    from typer.testing import CliRunner

    from companion import cli

    from companion.registry import KINDS

    runner = CliRunner()
    top = [cli._name_of(c) for c in cli.app.registered_commands] + \
        [g.name for g in cli.app.registered_groups] + [k.id for k in KINDS if k.commands]
    for name in top:
        for args in ([name, "--help"], [name, "--frobnicate"], ["--store", "x", name, "-h"]):
            whole = runner.invoke(cli.app, args, prog_name="companion")
            part = runner.invoke(cli.app_for(args), args, prog_name="companion")
            assert cli.app_for(args) is not cli.app
            assert (part.exit_code, part.output) == (whole.exit_code, whole.output), args


def test_the_collector_skips_what_start_up_made(cli):
    """main() freezes the modules, classes and commands made at start-up (gc.freeze) and
    leaves the collector on; importing companion.cli leaves an importer's collector as it
    was."""
    code = ("import gc, sys, atexit\n"
            "gc.disable()\n"
            "import companion.cli\n"
            "assert not gc.isenabled()\n"
            "gc.enable()\n"
            "atexit.register(lambda: print('GC', gc.isenabled(), gc.get_freeze_count() > 1000))\n"
            "sys.argv = ['companion', 'games']\n"
            "companion.cli.main()\n")
    proc = subprocess.run([sys.executable, "-c", code], cwd=cli.root, env=cli.env,
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.rstrip().endswith("GC True True")


def test_games_lists_the_registry_metadata(cli):
    from companion.registry import KINDS, get_kind

    listed = json.loads(cli.ok("games", "--json").out)
    assert [k["id"] for k in listed] == [k.id for k in KINDS]
    for entry, kind in zip(listed, KINDS):
        assert entry["playable"] is kind.playable is get_kind(kind.id).playable


def test_options_and_show_import_only_their_game(cli):
    cli.ok("new", "gral", "g1", "--player", "Anna", "--player", "Bert", "--seed", "1")
    for args in (["options", "g1", "Anna"], ["show", "g1"]):
        loaded = modules_after(cli, *args)
        assert "companion.gral.kind" in loaded
        assert not {m for m in loaded if m.startswith(("companion.koc", "companion.mayhem",
                                                      "companion.fluxx"))}
        assert not {m for m in loaded if m.split(".")[0] in HEAVY[:-1]}


@pytest.mark.parametrize("kind", ["gral", "koc", "mayhem", "fluxx", "grailccg"])
def test_options_and_show_read_no_data_file_once_cached(cli, tmp_path, kind):
    """A game's data comes from the cache (companion/engine/cache.py) after the first command:
    no TOML is parsed (figures: docs/performance.md)."""
    cli.env["COMPANION_CACHE_DIR"] = str(tmp_path / "cache")
    cli.ok("new", kind, "g1", "--player", "Anna", "--player", "Bert", "--player", "Cora",
           "--seed", "1")
    for args in (["options", "g1", "Anna"], ["show", "g1"]):
        modules_after(cli, *args)
        loaded = modules_after(cli, *args)
        assert f"companion.{kind}.kind" in loaded
        assert "tomllib" not in loaded, args


def test_every_printable_ascii_character_is_in_the_fonts():
    """Names of printable ASCII are accepted without reading the fonts (identity.py)."""
    from companion.engine.identity import unshowable
    from companion.render.fonts import missing_glyphs

    ascii_text = "".join(chr(c) for c in range(0x20, 0x7f))
    assert missing_glyphs(ascii_text) == [] and unshowable(ascii_text) == []


def test_plain_values_are_converted_as_typer_converts_them():
    """The light converter (companion/cli_coercion.py) gives what typer's own gives."""
    from typing import List

    pytest.importorskip("typer._coercion", reason="this typer has no _coercion internals")

    import typer
    from typer._coercion import build_runtime_param, resolve_type_descriptor
    from typer.models import ArgumentInfo, OptionInfo

    from companion import cli_coercion

    cli_coercion.install()
    cases = [(str, ["", "g1", " Anna ", "-", "Ünïcode", "3"]),
             (int, ["0", "7", "007", "123456789012345678"]),
             (Path, ["x", "./out/dir", "-", "~/store.sqlite3", ""]),
             (bool, [True, False]),
             (List[str], [("a", "b=c"), ()]),
             (List[Path], [("r1.txt", "sub/r2.txt")])]
    for annotation, values in cases:
        for info in (OptionInfo(), ArgumentInfo()):
            descriptor = resolve_type_descriptor(annotation, info)
            assert cli_coercion.plain_type(descriptor.annotation, info)
            param = typer.core.TyperOption(param_decls=["--x"], type_descriptor=descriptor) \
                if isinstance(info, OptionInfo) else None
            for value in values:
                theirs = build_runtime_param(descriptor)._coerce_value(value, param=param,
                                                                       ctx=None)
                light = _light(descriptor)._coerce_value(value, param=param, ctx=None)
                assert light == theirs and type(light) is type(theirs), (annotation, value)


def _light(descriptor):
    """The converter install() gives a parameter of this descriptor."""
    import typer.core

    holder = type("Holder", (), {})()
    holder._runtime_param = None
    holder.type_descriptor = descriptor
    return typer.core._TyperParameter.get_runtime_param(holder)


@pytest.mark.parametrize("value", ["-3", "+3", " 7", "1_0", "x", "٣"])
def test_unusual_numbers_go_to_typers_own_converter(cli, value):
    cli.ok("new", "gral", "g1", "--player", "Anna", "--player", "Bert", "--seed", "1")
    plain = cli("show", "g1", "--turn", value)
    assert plain.code in (0, 1, 2)
    if value in ("x", "٣"):
        assert plain.code == 2 and "--turn" in plain.err


def test_the_benchmark_script_runs():
    script = ROOT / "benchmarks" / "cli_startup.py"
    out = subprocess.run([sys.executable, str(script), "--runs", "1", "--kinds", "gral"],
                         capture_output=True, text=True, timeout=300, check=True).stdout
    assert "games" in out and "show bench-gral" in out and "slowest ratio" in out
