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

# Reports of a turn rendered in this process alone (companion/render/parallel.py): the test
# workers already keep every processor busy, and a forked renderer on a busy machine only adds
# work (7% of the CPU time of the command-line tests). The tests of parallel rendering set the
# variable themselves; a value already set is kept.
os.environ.setdefault("COMPANION_JOBS", "1")


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
    rewrite_tests_ahead(config)


def rewrite_tests_ahead(config) -> None:
    """Rewrite the tests' ``assert`` statements once, before the xdist workers start.

    pytest rewrites each test module's asserts (so a failure shows the values compared) and
    keeps the result in ``__pycache__``; where the environment sets PYTHONDONTWRITEBYTECODE
    nothing is kept, and in a fresh clone nothing is there yet, so each worker rewrote every
    module again: 15 of the 21 CPU seconds a worker spent collecting. The controlling process
    now rewrites the modules whose cached result is missing or stale, shared among as many
    forked processes as there are processors, and writes the results where pytest looks
    for them (pytest checks each against its source before using it). This uses pytest's
    internal functions: if they are not there or fail, the workers rewrite as before."""
    if hasattr(config, "workerinput") or not getattr(config.option, "numprocesses", None) \
            or getattr(config.option, "assertmode", "rewrite") != "rewrite" \
            or not hasattr(os, "fork"):
        return
    try:
        from _pytest.assertion import rewrite

        state = config.stash[rewrite.assertstate_key]
        tail = rewrite.PYC_TAIL
    except Exception:  # noqa: BLE001 - pytest's internals changed: nothing done ahead
        return
    tests = Path(__file__).resolve().parent
    # only what this run collects: the paths named on the command line (all the tests if none)
    roots = [Path(config.invocation_params.dir, arg.split("::")[0]).resolve()
             for arg in config.args] or [tests]
    todo = []
    for source in sorted(tests.rglob("*.py")):
        if not (source.name.startswith("test_") or source.name == "conftest.py"):
            continue
        if not any(root == source or root in source.parents for root in roots) \
                and source.name != "conftest.py":
            continue
        pyc = rewrite.get_cache_dir(source) / (source.name[:-3] + tail)
        if rewrite._read_pyc(source, pyc) is None:
            todo.append((source, pyc))
    if not todo:
        return

    def write(share) -> None:
        for source, pyc in share:
            try:
                stamp, code = rewrite._rewrite_test(source, config)
                pyc.parent.mkdir(exist_ok=True)
                rewrite._write_pyc(state, code, stamp, pyc)
            except Exception:  # noqa: BLE001 - a worker rewrites it and reports any error
                pass

    try:
        jobs = max(1, min(len(os.sched_getaffinity(0)), 4, len(todo)))
    except (AttributeError, OSError):
        jobs = 1
    children = []
    for k in range(1, jobs):
        pid = os.fork()
        if pid == 0:                       # a child: its share, then gone without cleanup
            try:
                write(todo[k::jobs])
            finally:
                os._exit(0)
        children.append(pid)
    write(todo[0::jobs])
    for pid in children:
        os.waitpid(pid, 0)


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
