"""Running the installed ``companion`` script quickly in the tests: a fork server.

Two thirds of the suite's CPU time went into starting Python and importing the command line
(and reportlab) again for each of some 2,000 runs of the console script. A fork server is a
Python process, started like the console script (same interpreter, same ``sys.path[0]``), that
imports the command line and the modules its commands use and then waits; each run is a child
forked from it that takes the run's folder, environment, arguments, standard input and output
and calls the console script's entry point, exiting as the script would (its exit code, or the
signal that killed it). Each run is still its own process with its own store connection, files
and exit; nothing of one run reaches the next (the server itself runs no command and loads no
game data, so every child reads the data and its cache as a fresh process would).

Two servers with different hash seeds take the runs of a test session in turn, so a test that
plays the same game twice and compares the bytes still compares processes with different
string hashing (as separate interpreters would). A run whose environment sets a ``PYTHON*``
variable of its own, or a ``Cli(fresh=True)``, or every run with ``COMPANION_TEST_FORK=0``,
starts the real script instead.
"""
from __future__ import annotations

import io
import json
import locale
import os
import queue
import random
import subprocess
import sys
import tempfile
import threading
from pathlib import Path

ENV = "COMPANION_TEST_FORK"

# What the server imports before it waits: every module of companion (none loads game data
# or reads a setting when imported; their commands do that in the child) and the libraries the
# commands import when they run (reports: reportlab, qrcode, Pillow, jinja2), and the bundled
# fonts (as a process that has rendered before has them: registering reads no setting and
# changes no output).
PRELOAD = """
import importlib, pkgutil, companion
for _module in pkgutil.walk_packages(companion.__path__, "companion."):
    if not _module.name.endswith(".__main__"):
        importlib.import_module(_module.name)
import reportlab.pdfgen.canvas, reportlab.platypus, reportlab.lib.utils
import jinja2, qrcode, qrcode.image.pure, PIL.ImageDraw, PIL.ImageFont, _strptime
import companion.render.fonts
companion.render.fonts.register_fonts()
"""

# The server: reads one JSON request per line, forks, and answers with the child's exit status.
# The child leaves the loop and becomes the console script (its exit as the interpreter's:
# threads joined, atexit handlers, buffers flushed; only the freeing of every object skipped).
SERVER = r'''
import json, os, select, signal, sys
sys.path[0] = SCRIPT_DIR
exec(PRELOAD)
control_in = os.fdopen(os.dup(0), "r")
control_out = os.fdopen(os.dup(1), "w")
null = os.open(os.devnull, os.O_RDWR)
os.dup2(null, 0)
os.dup2(null, 1)
request = None
for line in control_in:
    job = json.loads(line)
    pid = os.fork()
    if pid == 0:
        request = job
        break
    pidfd = os.pidfd_open(pid)
    if not select.select([pidfd], [], [], job["timeout"])[0]:
        os.kill(pid, signal.SIGKILL)
        answer = {"timeout": True}
    else:
        answer = {}
    os.close(pidfd)
    answer["status"] = os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1])
    control_out.write(json.dumps(answer) + "\n")
    control_out.flush()
if request is None:
    sys.exit(0)
control_in.close()
control_out.close()
os.chdir(request["cwd"])
os.environ.clear()
os.environ.update(request["env"])
for fd, (path, flags) in enumerate([(request["stdin"], os.O_RDONLY),
                                    (request["stdout"], os.O_WRONLY | os.O_TRUNC),
                                    (request["stderr"], os.O_WRONLY | os.O_TRUNC)]):
    opened = os.open(path, flags)
    os.dup2(opened, fd)
    os.close(opened)
os.close(null)
sys.argv = request["argv"]
del json, select, signal, control_in, control_out, null, line, job, pid, request
from companion.cli import main
try:
    code = main()
except SystemExit as exc:
    code = exc.code
except BaseException:
    sys.excepthook(*sys.exc_info())
    code = 1
if code is not None and not isinstance(code, int):
    print(code, file=sys.stderr)
    code = 1
# What the interpreter does on exit before it frees everything: threads joined, atexit
# handlers run (logging's among them), the standard streams flushed. The freeing itself is
# skipped: in a forked child it touches every object the server imported, copying its memory
# page by page, two thirds of a short run's time, and it changes nothing a run leaves behind.
import atexit, threading
threading._shutdown()
atexit._run_exitfuncs()
for stream in (sys.stdout, sys.stderr):
    try:
        stream.flush()
    except (OSError, ValueError):
        pass
os._exit((code or 0) & 0xFF)
'''


class Server:
    """One fork server process (started on first use)."""

    def __init__(self, script: str, hash_seed: int):
        self.seed = hash_seed
        env = dict(os.environ, PYTHONHASHSEED=str(hash_seed))
        code = (f"SCRIPT_DIR = {str(Path(script).parent)!r}\nPRELOAD = {PRELOAD!r}\n" + SERVER)
        self.proc = subprocess.Popen([sys.executable, "-c", code], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, text=True, env=env)

    def run(self, request: dict) -> dict:
        assert self.proc.stdin and self.proc.stdout
        self.proc.stdin.write(json.dumps(request) + "\n")
        self.proc.stdin.flush()
        line = self.proc.stdout.readline()
        if not line:
            raise RuntimeError(f"the fork server of the tests stopped (exit {self.proc.poll()})")
        return json.loads(line)

    def close(self) -> None:
        if self.proc.poll() is None:
            assert self.proc.stdin
            self.proc.stdin.close()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()


_servers: list[Server] = []
_free: "queue.Queue[Server]" = queue.Queue()
_start = threading.Lock()
_folder: Path | None = None
_python_env: dict[str, str] = {}


def _python_settings(env: dict[str, str]) -> dict[str, str]:
    return {k: v for k, v in env.items() if k.startswith("PYTHON") and k != "PYTHONHASHSEED"}


def usable(env: dict[str, str]) -> bool:
    """Whether a run with ``env`` can be a child of a fork server: the servers are on (not
    ``COMPANION_TEST_FORK=0``; Linux) and ``env`` sets no interpreter setting of its own."""
    if os.environ.get(ENV, "1").strip() == "0" or not hasattr(os, "pidfd_open"):
        return False
    return _python_settings(env) == (_python_env if _servers else _python_settings(os.environ))


def run(script: str, args: list[str], cwd: Path, env: dict[str, str], input: str | None,
        timeout: float) -> tuple[int, str, str]:
    """Run the console script with ``args`` in a child of a fork server; returns (exit code,
    stdout, stderr) as ``subprocess.run(..., text=True)`` would. Thread-safe: two runs at once
    take one server each (a third waits)."""
    global _folder
    if not os.path.isdir(cwd):      # as subprocess.run says it, in the caller
        raise FileNotFoundError(2, "No such file or directory", str(cwd))
    with _start:
        if not _servers:
            _python_env.update(_python_settings(os.environ))
            _folder = Path(tempfile.mkdtemp(prefix="companion-forkcli-"))
            for seed in random.Random().sample(range(1, 2**32 - 1), 2):
                _servers.append(Server(script, seed))
                _free.put(_servers[-1])
    assert _folder is not None
    files = {}
    for name in ("stdin", "stdout", "stderr"):
        fd, path = tempfile.mkstemp(prefix=f"{name}-", dir=_folder)
        os.close(fd)
        files[name] = Path(path)
    try:
        files["stdin"].write_bytes((input or "").encode(locale.getpreferredencoding(False)))
        server = _free.get()
        try:
            answer = server.run({"argv": [script, *args], "cwd": str(cwd), "env": env,
                                 "stdin": str(files["stdin"]) if input is not None else
                                 os.devnull, "stdout": str(files["stdout"]),
                                 "stderr": str(files["stderr"]), "timeout": timeout})
        finally:
            _free.put(server)       # the next run takes the other server first
        if answer.get("timeout"):
            raise subprocess.TimeoutExpired([script, *args], timeout)
        return answer["status"], _text(files["stdout"]), _text(files["stderr"])
    finally:
        for path in files.values():
            path.unlink(missing_ok=True)


def _text(path: Path) -> str:
    """The file's bytes decoded as ``subprocess.run(text=True)`` decodes a pipe (the locale's
    encoding, universal newlines)."""
    return io.TextIOWrapper(io.BytesIO(path.read_bytes()),
                            encoding=locale.getpreferredencoding(False)).read()


def close() -> None:
    global _folder
    for server in _servers:
        server.close()
    _servers.clear()
    while not _free.empty():
        _free.get()
    if _folder is not None:
        import shutil

        shutil.rmtree(_folder, ignore_errors=True)
        _folder = None
