"""Render independent documents on several processors: ``fork_map(func, items)``.

The reports of a turn do not depend on one another, and reportlab holds the interpreter lock, so
threads do not help; forked processes do. The process forks once per extra processor after
everything is loaded (reportlab, the fonts: ``prepare``), so a child starts warm and costs a
few milliseconds; each child renders its share (every n-th item) and sends the results back
through a pipe, the parent renders the last share meanwhile. The results are the same bytes as
rendering one after the other: each document is built from its own data alone.

Forking is used only where it is safe and pays: on Linux, with ``os.fork``, no other thread
running, more than one processor to use and at least two items per process. Anything else, or a
child that fails, falls back to rendering in this process (so an error is raised here, as
without the children). By default two processes are used where two processors are available;
``COMPANION_JOBS=N`` asks for at most N, ``COMPANION_JOBS=1`` turns it off (see
``default_jobs``).
"""
from __future__ import annotations

import os
import pickle
import sys
import threading
from typing import Any, Callable, Iterable

from companion.engine.numbers import is_digits

JOBS_VARIABLE = "COMPANION_JOBS"
MAX_JOBS = 4
MIN_ITEMS_PER_JOB = 2


DEFAULT_JOBS = 2
"""Processes when ``COMPANION_JOBS`` is not set: on the project's idle 2-core machine two
processes render an 8-player Gral turn's reports in 192 ms instead of 311 ms (CPU 328 ms
instead of 311); with the other processor busy they were no slower than one
(docs/performance.md)."""


def default_jobs() -> int:
    """Processes to use: ``COMPANION_JOBS`` (1 turns forking off), else DEFAULT_JOBS; at most
    the processors this process may run on and MAX_JOBS."""
    wanted = os.environ.get(JOBS_VARIABLE, "").strip()
    count = int(wanted) if is_digits(wanted) and int(wanted) >= 1 else DEFAULT_JOBS
    try:
        cpus = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        cpus = os.cpu_count() or 1
    return max(1, min(count, cpus, MAX_JOBS))


def can_fork() -> bool:
    return (sys.platform.startswith("linux") and hasattr(os, "fork")
            and threading.active_count() == 1)


def fork_map(func: Callable[[Any], Any], items: Iterable[Any], *,
             prepare: Callable[[], None] | None = None, jobs: int | None = None) -> list[Any]:
    """``[func(item) for item in items]``, shared among forked processes when that pays.
    ``func`` must return something picklable; ``prepare`` is called once before forking (load
    what every call needs, so the children inherit it)."""
    items = list(items)
    jobs = min(jobs or default_jobs(), len(items) // MIN_ITEMS_PER_JOB)
    if jobs < 2 or not can_fork():
        return [func(item) for item in items]
    if prepare is not None:
        prepare()
    # every jobs-th item; this process takes the last share, the smallest when they differ (it
    # has the rest of the caller's work to do), the children the others
    shares = [list(range(k, len(items), jobs)) for k in range(jobs)]
    mine = shares.pop()
    children: list[tuple[int, int, list[int]]] = []
    results: list[Any] = [None] * len(items)
    try:
        for share in shares:
            read, write = os.pipe()
            try:
                pid = os.fork()
            except OSError:
                os.close(read)
                os.close(write)
                break                       # no more processes: the rest is done here
            if pid == 0:                    # the child: never returns
                _child(read, write, func, [items[i] for i in share])
            os.close(write)
            children.append((pid, read, share))
        for i in mine:
            results[i] = func(items[i])
    finally:
        collected = [_collect(pid, read) for pid, read, _ in children]
    done = set(mine)
    for (_, _, share), values in zip(children, collected):
        if values is not None and len(values) == len(share):
            for i, value in zip(share, values):
                results[i] = value
            done.update(share)
    for i in range(len(items)):             # a child that failed or never started
        if i not in done:
            results[i] = func(items[i])
    return results


def _child(read: int, write: int, func, items: list) -> None:
    code = 1
    try:
        os.close(read)
        data = pickle.dumps([func(item) for item in items], protocol=pickle.HIGHEST_PROTOCOL)
        with os.fdopen(write, "wb") as pipe:
            pipe.write(data)
        code = 0
    except BaseException:                   # noqa: BLE001 - the parent does the share again
        pass
    finally:
        os._exit(code)                      # no atexit handlers, no flushing the parent's buffers


def _collect(pid: int, read: int) -> list | None:
    """A child's results (read to the end before waiting, so a full pipe cannot block it), or
    None if it failed."""
    try:
        with os.fdopen(read, "rb") as pipe:
            data = pipe.read()
    except OSError:
        data = b""
    try:
        _, status = os.waitpid(pid, 0)
    except ChildProcessError:
        return None
    if not os.WIFEXITED(status) or os.WEXITSTATUS(status) != 0 or not data:
        return None
    try:
        return pickle.loads(data)
    except Exception:                       # noqa: BLE001
        return None
