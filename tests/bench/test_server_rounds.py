"""bench/server.py's ``--rounds``: several rounds of the game server and the echoes, taking
turns at running first, whose figure is the median of the rounds' ratios.  On a machine whose
speed drifts by half within a minute, one run's ratio says little; this is the measuring tool
the speed aims of issue 15 are judged by, so what it prints must be exactly what it measured."""

from __future__ import annotations

import importlib.util
import math
import os
import sys
from types import ModuleType
from typing import Any

import pytest

BENCH_DIR = os.path.join(os.path.dirname(__file__), "..", "..", "bench")


def _load() -> ModuleType:
    sys.path.insert(0, BENCH_DIR)  # server.py imports its sibling load_common
    try:
        spec = importlib.util.spec_from_file_location("bench_server", os.path.join(BENCH_DIR, "server.py"))
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        return module
    finally:
        sys.path.remove(BENCH_DIR)


def _run(round_trips: float, server_cpu: float) -> dict[str, Any]:
    """A measured window as _load returns it: rates a second, CPU as a share of a core."""
    return {"round_trips": round_trips, "cpu": {"server": server_cpu, "generators": 0.3}}


def _rounds() -> list[dict[str, Any]]:
    return [
        {"first": "game", "game": _run(6000, 1.0), "streams": _run(20000, 1.0)},   # 0.30
        {"first": "streams", "game": _run(5000, 1.0), "streams": _run(10000, 0.5)},  # 0.50
        {"first": "game", "game": _run(8000, 1.0), "streams": _run(20000, 1.0)},   # 0.40
    ]


def test_each_rounds_ratio_is_its_own_game_over_its_own_echo() -> None:
    bench = _load()
    assert bench._round_ratios(_rounds(), "streams") == [0.3, 0.5, 0.4]
    # An echo that answered nothing gives no ratio, not a division by zero.
    assert math.isnan(bench._round_ratios([{"game": _run(10, 1.0), "streams": _run(0, 1.0)}], "streams")[0])


def test_the_rounds_report_gives_every_round_and_the_medians(capsys: pytest.CaptureFixture[str]) -> None:
    bench = _load()
    bench._print_rounds(_rounds(), ["streams"])
    assert capsys.readouterr().out.splitlines() == [
        "3 rounds, alternating which server runs first:",
        "  round 1 (game first): server 6000 rt/s (167 µs of server CPU per round trip), "
        "streams echo 20000 rt/s (50 µs), ratio streams 0.30",
        "  round 2 (streams first): server 5000 rt/s (200 µs of server CPU per round trip), "
        "streams echo 10000 rt/s (50 µs), ratio streams 0.50",
        "  round 3 (game first): server 8000 rt/s (125 µs of server CPU per round trip), "
        "streams echo 20000 rt/s (50 µs), ratio streams 0.40",
        "median ratio against echo (asyncio streams): 0.40 (rounds 0.30-0.50)",
        "median server CPU per round trip: 167 µs",
    ]


@pytest.mark.parametrize("argv, complaint", [
    (["--rounds", "0"], "--rounds must be at least 1"),
    (["--rounds", "2", "--sample", "/tmp/x"], "--profile and --sample take one round"),
    (["--rounds", "3", "--profile", "/tmp/x"], "--profile and --sample take one round"),
])
def test_rounds_that_cannot_be_measured_are_refused_before_any_server_starts(
        argv: list[str], complaint: str, capsys: pytest.CaptureFixture[str]) -> None:
    bench = _load()
    with pytest.raises(SystemExit) as stopped:
        bench.main(argv)
    assert stopped.value.code == 2
    assert complaint in capsys.readouterr().err
