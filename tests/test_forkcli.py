"""The tests' fork server (tests/forkcli.py) answers as the console script in a new interpreter
does: the same exit codes, output, standard input, files and environment; two servers with
different hash seeds; a run that sets an interpreter variable starts the real script."""
from __future__ import annotations

import forkcli
import pytest


def runs(cli) -> list[tuple]:
    """A short game's commands, good and bad, with everything each one answers."""
    out = []
    for args, kw in [
        (("--help",), {}),
        (("new", "gral", "g1", "--player", "Anna", "--player", "Bert", "--seed", "4"), {}),
        (("new", "gral", "g1", "--player", "Anna"), {}),                     # refused
        (("options", "g1", "Anna"), {}),
        (("orders", "submit", "g1", "Anna", "-"), {"input": "this is not an order\n"}),
        (("show", "g1", "--json"), {}),
        (("turn", "g1"), {"env": {"COMPANION_TEST_CRASH": "commit"}}),      # dies: exit 137
        (("turn", "g1"), {}),
        (("nonsense",), {}),                                                 # Click's usage
        (("replay", "g1"), {}),
    ]:
        result = cli(*args, **kw)
        out.append((args, result.code, *(text.replace(str(cli.root), "ROOT")
                                          for text in (result.out, result.err))))
    files = sorted((p.relative_to(cli.root).as_posix(), p.read_bytes())
                   for p in cli.output.rglob("*") if p.is_file())
    return out + [files]


def test_the_fork_server_answers_as_a_new_interpreter(tmp_path, make_cli):
    if not forkcli.usable(make_cli(tmp_path).env):
        pytest.skip("no fork server here (COMPANION_TEST_FORK=0 or not Linux)")
    (tmp_path / "forked").mkdir()
    (tmp_path / "fresh").mkdir()
    forked = runs(make_cli(tmp_path / "forked"))
    fresh = runs(make_cli(tmp_path / "fresh", fresh=True))
    assert [r[1] for r in forked[:-1]] == [0, 0, 1, 0, 1, 0, 137, 0, 2, 0]
    for a, b in zip(forked, fresh):
        assert a == b
    assert len({server.seed for server in forkcli._servers}) == 2


def test_an_interpreter_setting_of_its_own_starts_the_real_script(tmp_path, make_cli,
                                                                  monkeypatch):
    cli = make_cli(tmp_path)
    assert not forkcli.usable(dict(cli.env, PYTHONWARNINGS="error"))

    def no_server(*args, **kw):
        raise AssertionError("this run should not reach the fork server")

    monkeypatch.setattr(forkcli, "run", no_server)
    for run in (lambda: cli("--help", env={"PYTHONWARNINGS": "ignore"}),
                lambda: make_cli(tmp_path, fresh=True)("--help")):
        result = run()
        assert result.code == 0 and "Usage" in result.out


def test_a_missing_folder_is_refused_in_the_caller_as_subprocess_does(tmp_path, make_cli):
    for fresh in (False, True):
        with pytest.raises(FileNotFoundError):
            make_cli(tmp_path / "nowhere", fresh=fresh)("--help")
