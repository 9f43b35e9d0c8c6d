"""Project-level promises: the README's commands, CI running exactly them, benchmarks that run."""
from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def readme_commands() -> list[str]:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    return [m.strip() for m in re.findall(r"^    (python3 -m venv .+)$", text, re.M)][:2]


def test_readme_opens_with_a_demo_and_a_test_command():
    demo, tests = readme_commands()
    assert demo.endswith("companion demo") and "pytest" in tests


def test_ci_runs_exactly_the_readme_test_command():
    _, tests = readme_commands()
    lines = [l.strip() for l in (ROOT / ".ci" / "run").read_text().splitlines()
             if l.strip() and not l.strip().startswith("#")]
    assert tests in lines


def test_gral_benchmark_runs():
    result = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "gral.py"), "--games", "2"],
                            capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stderr
    assert "games/s" in result.stdout and "start-up" in result.stdout


def test_print_benchmark_runs():
    result = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "print_kit.py"), "--runs", "1"],
                            capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stderr
    assert "ratio" in result.stdout


def test_store_size_benchmark_runs():
    result = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "store_size.py"),
                             "--turns", "6"], capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stderr
    for kind in ("gral", "koc"):
        assert f"{kind}: 6 turns" in result.stdout
        assert "per KB of record" in result.stdout and "with the game's history" in result.stdout
