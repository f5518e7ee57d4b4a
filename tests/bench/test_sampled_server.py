"""bench/sampled_server.py's sampler charges CPU time to the function that spends it and to
every function above it, and says so in its report.  (The server it wraps is tested
elsewhere; this is the measuring tool, which must not mislead whoever reads its figures.)"""

from __future__ import annotations

import importlib.util
import os
import time
from types import ModuleType

BENCH = os.path.join(os.path.dirname(__file__), "..", "..", "bench", "sampled_server.py")


def _load() -> ModuleType:
    spec = importlib.util.spec_from_file_location("sampled_server", BENCH)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _spin(seconds: float) -> int:
    """Busy for ``seconds`` of CPU time: where the samples must land."""
    end = time.process_time() + seconds
    n = 0
    while time.process_time() < end:
        n += 1
    return n


def _caller() -> int:
    return _spin(0.4)


def test_the_samples_land_on_the_busy_function_and_its_callers() -> None:
    sampled = _load()
    sampler = sampled.Sampler()
    sampler.start()
    try:
        _caller()
    finally:
        sampler.stop()
    spin, caller = "bench/test_sampled_server.py:_spin", "bench/test_sampled_server.py:_caller"
    # ~100 samples for 0.4 s at one per 4 ms; a loaded machine gives CPU time all the same.
    assert sampler.samples >= 50
    assert sampler.own.most_common(1)[0][0] == spin
    assert sampler.own[spin] >= 0.9 * sampler.samples
    assert sampler.inclusive[caller] >= sampler.inclusive[spin] >= sampler.own[spin]
    assert sampler.own[caller] <= 0.1 * sampler.samples
    report = sampler.report()
    assert report.startswith(f"{sampler.samples} samples, one per 4.0 ms of CPU time\n")
    assert "\n== own time by function (% of samples)\n" in report
    share = 100 * sampler.own[spin] / sampler.samples
    assert f"{share:6.2f}  {spin}\n" in report


def test_without_a_report_path_it_says_how_to_run_it(capsys) -> None:  # type: ignore[no-untyped-def]
    assert _load().main([]) == 2
    assert "python bench/sampled_server.py REPORT" in capsys.readouterr().err
