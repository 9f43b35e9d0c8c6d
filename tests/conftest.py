"""Shared fixtures: an isolated store and output folder, and the installed console script."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import forkcli
import pytest
from hypothesis import settings

# Property tests draw the same examples on every run (CI stays reproducible); set
# HYPOTHESIS_PROFILE=explore to draw new ones each time.
settings.register_profile("default", derandomize=True, database=None, deadline=None)
settings.register_profile("explore", derandomize=False, deadline=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))

# The tests' folders (tmp_path) in memory where the system has a memory file system: the
# stores commit (and sync to disk) thousands of times, and a test waiting for the disk leaves
# its processor idle. pytest's own variable; a value already set is kept.
# COMPANION_TEST_SHM=0 keeps them on disk.
if os.environ.get("COMPANION_TEST_SHM", "1") != "0" and os.path.isdir("/dev/shm") \
        and os.access("/dev/shm", os.W_OK):
    os.environ.setdefault("PYTEST_DEBUG_TEMPROOT", "/dev/shm")


def pytest_xdist_auto_num_workers(config):
    """``-n auto``: one worker more than the processors this run may use, so that a processor
    is not idle while a test waits for a server, a browser or a subprocess
    (COMPANION_TEST_WORKERS=N sets the number)."""
    wanted = os.environ.get("COMPANION_TEST_WORKERS", "")
    if wanted.isdigit() and int(wanted) > 0:
        return int(wanted)
    try:
        cpus = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        cpus = os.cpu_count() or 1
    return cpus + 1


def pytest_configure(config):
    """The tests never read or write the user's cache (companion/engine/cache.py): a temporary
    cache folder for the session (tests of the cache set their own)."""
    import tempfile

    folder = tempfile.mkdtemp(prefix="companion-test-cache-")
    config._companion_cache = (folder, os.environ.get("COMPANION_CACHE_DIR"))
    os.environ["COMPANION_CACHE_DIR"] = folder


def pytest_unconfigure(config):
    forkcli.close()
    folder, before = getattr(config, "_companion_cache", (None, None))
    if folder is None:
        return
    shutil.rmtree(folder, ignore_errors=True)
    if before is None:
        os.environ.pop("COMPANION_CACHE_DIR", None)
    else:
        os.environ["COMPANION_CACHE_DIR"] = before


EPOCH = "1798761600"  # a fixed processing date, so reports are reproducible
ENTROPY = "tests"     # fixed tokens and game secrets (COMPANION_TEST_ENTROPY), so two runs
                      # of a test give byte-identical reports; tests of secrecy unset it


def console_script() -> str:
    """The installed ``companion`` script (tests run the real command, not the module)."""
    candidate = Path(sys.executable).parent / "companion"
    if candidate.exists():
        return str(candidate)
    found = shutil.which("companion")
    if not found:
        pytest.fail("the console script 'companion' is not installed; run pip install '.[test]'")
    return found


@dataclass
class Result:
    code: int
    out: str
    err: str

    @property
    def text(self) -> str:
        return self.out + self.err


class Cli:
    """Runs the installed console script in a sandbox folder with its own store and output: each
    run a child of a fork server that has imported the command line (tests/forkcli.py), or with
    ``fresh`` (or ``COMPANION_TEST_FORK=0``) the script in a new interpreter."""

    def __init__(self, root: Path, fresh: bool = False):
        self.root = root
        self.fresh = fresh      # every run a new interpreter (tests/forkcli.py otherwise)
        self.store = root / "store.sqlite3"
        self.output = root / "output"
        self.env = dict(os.environ, COMPANION_STORE=str(self.store),
                        COMPANION_OUTPUT=str(self.output), SOURCE_DATE_EPOCH=EPOCH,
                        COMPANION_TEST_ENTROPY=ENTROPY)
        self.script = console_script()

    def __call__(self, *args: str, input: str | None = None, env: dict | None = None) -> Result:
        environment = dict(self.env, **(env or {}))
        if not self.fresh and forkcli.usable(environment):
            return Result(*forkcli.run(self.script, list(args), self.root, environment, input,
                                       timeout=300))
        proc = subprocess.run([self.script, *args], cwd=self.root, input=input,
                              capture_output=True, text=True, env=environment, timeout=300)
        return Result(proc.returncode, proc.stdout, proc.stderr)

    def ok(self, *args: str, **kw) -> Result:
        result = self(*args, **kw)
        assert result.code == 0, f"companion {' '.join(args)} failed:\n{result.text}"
        return result

    def write(self, name: str, text: str) -> str:
        path = self.root / name
        path.write_text(text, encoding="utf-8")
        return str(path)


@pytest.fixture
def cli(tmp_path: Path) -> Cli:
    return Cli(tmp_path)


@pytest.fixture
def make_cli():
    """Several independent sandboxes in one test: ``make_cli(folder)``."""
    return Cli


@pytest.fixture
def fixed_date(monkeypatch):
    monkeypatch.setenv("SOURCE_DATE_EPOCH", EPOCH)


def shared_game(tmp_path_factory, name: str, make):
    """For a module-scoped fixture: ``make(folder)`` run once in a new folder with the date
    and entropy the tests fix (``fixed_date``, ``fixed_entropy``), so a game that every test
    of a module only reads is played once per worker, not once per test."""
    folder = tmp_path_factory.mktemp(name)
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("SOURCE_DATE_EPOCH", EPOCH)
        patch.setenv("COMPANION_TEST_ENTROPY", ENTROPY)
        return make(folder)


@pytest.fixture(autouse=True)
def fixed_entropy(monkeypatch):
    """Tokens and game secrets derived from a fixed value in every test (two runs of a game give
    the same bytes); tests of their randomness remove it with ``monkeypatch.delenv``."""
    monkeypatch.setenv("COMPANION_TEST_ENTROPY", ENTROPY)
