"""Reports rendered on several processors (companion.render.parallel) are the same bytes as
rendered one after the other; a failing child changes nothing but the time taken."""
from __future__ import annotations

import os

import pytest

from companion import service
from companion.render import parallel
from companion.render.report_pdf import render_pdf, render_pdfs
from companion.store import Store

NAMES = ["Anna", "Bert", "Cora", "Dora", "Emil", "Fritz", "Greta", "Hugo"]

forking = pytest.mark.skipif(not parallel.can_fork(), reason="no fork here (or threads running)")


@pytest.fixture
def docs(tmp_path, fixed_date):
    store = Store(tmp_path / "s.sqlite3", create=True)
    service.new_game(store, "gral", "g", NAMES, seed="7", option_args=["first=Anna"])
    for p in NAMES:
        service.submit_orders(store, "g", p, "assign 10+5 to Alberto\nassign 3 to Mansur", "x")
    service.run_turn(store, "g")
    game, turn = store.game("g"), store.turn("g")
    out = list(service.report_documents(game, turn).values())
    store.close()
    return out


@forking
def test_parallel_rendering_is_byte_identical(docs, monkeypatch):
    monkeypatch.delenv(parallel.JOBS_VARIABLE, raising=False)
    serial = [render_pdf(doc) for doc in docs]
    for jobs in (2, 3, 4):
        assert parallel.fork_map(render_pdf, docs, jobs=jobs) == serial
    assert render_pdfs(docs) == serial


@forking
def test_work_is_really_shared_among_processes():
    pids = parallel.fork_map(lambda _: os.getpid(), range(9), jobs=2)
    assert pids[1::2] == [os.getpid()] * 4           # the last (smaller) share is done here
    assert len(set(pids[0::2])) == 1 and pids[0] != os.getpid()


@forking
def test_a_failing_child_is_redone_here(tmp_path):
    parent = os.getpid()
    marker = tmp_path / "redone"

    def fragile(item):
        if os.getpid() != parent:
            raise RuntimeError("the child fails")
        marker.write_text("yes")
        return item * 2

    assert parallel.fork_map(fragile, range(6), jobs=2) == [0, 2, 4, 6, 8, 10]
    assert marker.exists()


@forking
def test_an_error_is_raised_in_this_process(docs):
    def broken(item):
        raise ValueError(f"cannot render {item}")

    with pytest.raises(ValueError, match="cannot render [0-9]"):
        parallel.fork_map(broken, range(4), jobs=2)


def test_companion_jobs_one_renders_here(monkeypatch):
    monkeypatch.setenv(parallel.JOBS_VARIABLE, "1")
    assert parallel.default_jobs() == 1
    assert parallel.fork_map(lambda _: os.getpid(), range(6)) == [os.getpid()] * 6


def test_two_processes_unless_told_otherwise(monkeypatch):
    cpus = len(os.sched_getaffinity(0))
    monkeypatch.delenv(parallel.JOBS_VARIABLE, raising=False)
    assert parallel.default_jobs() == min(parallel.DEFAULT_JOBS, cpus)
    monkeypatch.setenv(parallel.JOBS_VARIABLE, "3")
    assert parallel.default_jobs() == min(3, cpus)
    monkeypatch.setenv(parallel.JOBS_VARIABLE, "many")
    assert parallel.default_jobs() == min(parallel.DEFAULT_JOBS, cpus)


@forking
def test_stage_reports_in_two_processes_same_files(tmp_path, fixed_date, monkeypatch):
    """The files of a turn are the same bytes with COMPANION_JOBS=2 as without."""
    store = Store(tmp_path / "s.sqlite3", create=True)
    service.new_game(store, "gral", "g", NAMES, seed="7", option_args=["first=Anna"])
    game, turn = store.game("g"), store.turn("g")
    files = []
    for jobs in ("1", "2"):
        monkeypatch.setenv(parallel.JOBS_VARIABLE, jobs)
        staged = service.stage_reports(game, turn, tmp_path / f"out{jobs}")
        files.append({p.name: p.read_bytes() for p in sorted(staged.iterdir())})
    store.close()
    assert files[0] == files[1] and len(files[0]) == 18


def test_few_items_are_not_worth_a_process():
    assert parallel.fork_map(lambda _: os.getpid(), range(3), jobs=4) == [os.getpid()] * 3
