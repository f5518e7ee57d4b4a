"""The expert plays the same on every machine: its search is bounded by work, not time.

A seeded match is played twice -- once quietly, once with the CPU busy (a thread spinning
in this process, contending for the interpreter) and every clock the expert could read
racing ahead a second per reading (a machine thousands of times slower) -- and every
decision must be the same.
"""

from __future__ import annotations

import threading
import time

import pytest

from noddy.bots.match import play_game, resolve_player

FACTORIES = {"A": resolve_player("expert"), "B": resolve_player("greedy")}
NAMES = {"A": "expert", "B": "greedy"}


def _decisions(preset: str, seed: int) -> list[list[object]]:
    actions: list[list[object]] = []
    for labels in (["A", "B"], ["B", "A"]):
        result = play_game(preset, 2, False, {}, seed, labels, FACTORIES, NAMES, seed)
        actions.extend(result.record["actions"])
    return actions


class _FastClock:
    """A clock that gains a second at every reading."""

    def __init__(self) -> None:
        self.now = time.perf_counter()

    def __call__(self) -> float:
        self.now += 1.0
        return self.now


@pytest.mark.parametrize(("preset", "seed"), [("noddy-modern", 11), ("five-card-cribbage", 5)])
def test_a_seeded_match_replays_exactly_under_load(preset: str, seed: int,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    quiet = _decisions(preset, seed)
    stop = threading.Event()

    def spin() -> None:
        x = 0
        while not stop.is_set():
            x += 1

    busy = threading.Thread(target=spin, daemon=True)
    busy.start()
    try:
        for name in ("perf_counter", "monotonic", "time", "process_time"):
            monkeypatch.setattr(time, name, _FastClock())
        loaded = _decisions(preset, seed)
    finally:
        stop.set()
        monkeypatch.undo()
        busy.join()
    assert len(quiet) > 20
    assert loaded == quiet
