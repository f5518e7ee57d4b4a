"""bench/stats.py runs end to end on a small database and prints each of its figures (the
figures themselves are read by people, never asserted)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parents[2] / "bench" / "stats.py"


def test_the_stats_bench_prints_its_figures() -> None:
    result = subprocess.run([sys.executable, str(BENCH), "--games", "40", "--others", "40", "--runs", "3"],
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0].startswith("40 games of ada and 40 rows of others written in ")
    assert [line.split(" median ")[0].rstrip() for line in lines[1:]] == [
        "storage read, every preset", "storage read, the cribbage family",
        "stats request over a socket (round trip)", "ping over a socket, for comparison", "summing up a finished cribbage game (replay + rows)"]
