"""The Fluxx benchmark script runs and prints its figures (it asserts nothing itself)."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_fluxx_benchmark_runs():
    result = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "fluxx.py"), "--games", "2"],
                            capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stderr
    assert "games/s" in result.stdout and "reports" in result.stdout
