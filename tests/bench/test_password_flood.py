"""bench/password_flood.py (issue 31) runs end to end in its quick mode with tiny numbers and
prints each of its figure lines and both aims (the figures themselves are read by people,
never asserted); a request still unanswered when the run ends counts in the percentiles at
its wait so far, so a stalled server cannot look fast by answering nothing."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path
from types import ModuleType

BENCH_DIR = Path(__file__).resolve().parents[2] / "bench"
BENCH = BENCH_DIR / "password_flood.py"
#: The bench's sibling modules it imports by their plain names (taken out again after the
#: import: ``server`` is also the name of the project's own folder).
SIBLINGS = ("hostile", "human", "load_common", "password_flood_attack", "server")


def _load() -> ModuleType:
    sys.path.insert(0, str(BENCH_DIR))
    before = {name: sys.modules.get(name) for name in SIBLINGS}
    try:
        spec = importlib.util.spec_from_file_location("bench_password_flood", BENCH)
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        return module
    finally:
        sys.path.remove(str(BENCH_DIR))
        for name, old in before.items():
            if old is None:
                sys.modules.pop(name, None)
            else:
                sys.modules[name] = old


def test_the_quick_run_prints_every_figure_and_both_aims() -> None:
    result = subprocess.run([sys.executable, str(BENCH), "--quick", "--addresses", "2", "--per-address", "2",
                             "--seconds", "1", "--quiet-seconds", "0.5"],
                            capture_output=True, text=True, timeout=180)
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0].startswith("password flood: 2 addresses x 2 connections (2 guessing at 'victim', "
                               "2 registering names and changing passwords) for ")
    assert " s before and after; server of this checkout with --db, default limits" in lines[0]
    timed = [f"{what:<20} {phase:<6}  " for what in ("action -> reply", "ping -> pong", "list_games -> games")
             for phase in ("before", "during", "after")]
    assert [line[:len(start)] for line, start in zip(lines[1:10], timed)] == timed
    assert all(" answered, p50 " in line and " ms, p99 " in line for line in lines[1:10])
    labels = ["", "server RSS", "open descriptors", "server CPU", "guesses checked", "guess replies",
              "register/change", "flood connections", "error codes", "server log"]
    assert [line[:20].strip() for line in lines[10:20]] == labels
    assert lines[11].startswith("server RSS           before ") and lines[11].endswith(" MiB")
    assert lines[14].startswith("guesses checked      ") and " at 'victim' in " in lines[14]
    assert lines[20].startswith("aim: action -> reply p99 during the flood under 3x its quiet value (")
    assert lines[21].startswith("aim: at most 10 guesses at one name checked per 15 minutes from any "
                                "number of addresses: ")
    assert len(lines) == 22


def test_a_request_unanswered_at_the_end_counts_at_its_wait_so_far() -> None:
    timings = _load().Timings()
    timings.answered["during"] += [0.002] * 98
    timings.unanswered["during"] += [5.0, 6.0]
    assert timings.quantile("during", 0.5) == 0.00205  # the middle of its 0.1 ms bucket
    assert timings.quantile("during", 0.99) == 5.00005
    assert timings.line("during") == ("   98 answered, p50       2.1 ms, p99    5000.1 ms; "
                                      "2 unanswered at the end (waited up to 6.0 s)")
    assert timings.line("after") == "    0 answered, p50       nan ms, p99       nan ms"
