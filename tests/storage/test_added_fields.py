"""A game stored before an event or result gained a field still replays, reads and restores.

The rule (:mod:`noddy.engine.outcome`): a new field has a default that describes the games
played before it, readers take an old dict without it, and a stored game is compared with
its replay on the stored fields only.  ``game_over``'s ``ending`` and ``skunk`` are the fields
added so far.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from noddy.engine import Game, Outcome
from noddy.server.storage import Storage
from noddy.server.storage.records import ActionApplied, GameBegun, GameFinished, replay

from ..server.results import outcome


def _played(seed: int = 5) -> tuple[Game, list[tuple[dict[str, Any], list[dict[str, Any]]]]]:
    """A two-handed noddy game to 15, played at random, with each action's events."""
    game = Game("noddy", 2, options={"target": 15}, seed=seed)
    chooser = random.Random(seed)
    steps = []
    while not game.is_over:
        action = chooser.choice(game.legal_actions(chooser.choice(game.awaiting)))
        steps.append((action.to_dict(), [e.to_dict() for e in game.apply(action)]))
    return game, steps


def _record(game: Game, steps: list[tuple[dict[str, Any], list[dict[str, Any]]]]) -> dict[str, Any]:
    return {"id": 1, "preset": "noddy", "players": 2, "partnerships": False, "options": {"target": 15},
            "seed": game.seed, "opening": None,
            "steps": [{"action": action, "events": [dict(e) for e in events]} for action, events in steps]}


def _without_ending(record: dict[str, Any]) -> dict[str, Any]:
    """The record as a server before the fields stored it (schema 2 kept every event)."""
    for step in record["steps"]:
        for event in step["events"]:
            if event["kind"] == "game_over":
                del event["ending"], event["skunk"]
    return record


def test_a_stored_game_over_without_its_ending_replays() -> None:
    game, steps = _played()
    record = _without_ending(_record(game, steps))
    replayed = replay(record)
    assert replayed.outcome == game.outcome == Outcome(game.winner, game.winning_seats, tuple(game.scores))
    assert record["steps"][-1]["events"][-1] == {"kind": "game_over", "winner": game.winner,
                                                 "winning_seats": list(game.winning_seats),
                                                 "scores": list(game.scores)}


@pytest.mark.parametrize("change", ["a stored field differs", "a stored field is unknown", "an event is missing"])
def test_a_stored_game_that_replays_otherwise_is_still_refused(change: str) -> None:
    game, steps = _played()
    record = _without_ending(_record(game, steps))
    last = record["steps"][-1]["events"]
    if change == "a stored field differs":
        last[-1]["scores"] = [0, 0]
    elif change == "a stored field is unknown":
        last[-1]["margin"] = 3
    else:
        last.pop()
    with pytest.raises(ValueError, match="does not replay to the stored events"):
        replay(record)


def test_a_result_stored_without_its_ending_is_read_with_it(tmp_path: Any) -> None:
    game, steps = _played()
    storage = Storage(str(tmp_path / "old.sqlite3"))
    seats = [{"seat": 0, "name": "ann", "kind": "human", "level": None},
             {"seat": 1, "name": "random computer 2", "kind": "computer", "level": "random"}]
    old_result = {"winner": game.winner, "winning_seats": list(game.winning_seats), "scores": list(game.scores)}
    storage.write([GameBegun(1, 1, 1, "noddy", "noddy", 2, False, {"target": 15}, seats, game.seed, 1.7e9, None)]
                  + [ActionApplied(1, n, action, None, 1) for n, (action, _events) in enumerate(steps, 1)]
                  + [GameFinished(1, 1.7e9 + 60, old_result, (), 1)])
    listed = storage.read("list_games", {"name": "ann", "limit": 5, "viewer": {"account": None}})
    assert [outcome(g["result"]) for g in listed] == [{**old_result, "ending": "target", "skunk": "none"}]
    storage.close()
