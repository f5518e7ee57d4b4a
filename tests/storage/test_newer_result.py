"""A result stored by a newer server, with a field this one does not know, is given back as
it was stored: by ``list_games``, ``get_game``'s record (and its ``game_over`` event) and
``--export-game``'s (issue 32: reading a result rebuilt it through the engine's outcome,
which silently dropped every key the outcome did not know)."""

from __future__ import annotations

import random
from typing import Any

from noddy.engine import Game
from noddy.server.model.result import GameResult
from noddy.server.storage import Storage
from noddy.server.storage.records import ActionApplied, GameBegun, GameFinished

from ..server.results import like


def _stored(storage: Storage, result_of: Any) -> Game:
    """A two-handed noddy game to 15 played at random and stored, its result as
    ``result_of(outcome dict)`` makes it."""
    game = Game("noddy", 2, options={"target": 15}, seed=5)
    chooser = random.Random(5)
    actions = []
    while not game.is_over:
        action = chooser.choice(game.legal_actions(chooser.choice(game.awaiting)))
        game.apply(action)
        actions.append(action.to_dict())
    assert game.outcome is not None
    seats = [{"seat": 0, "name": "ann", "kind": "human", "level": None},
             {"seat": 1, "name": "random computer 2", "kind": "computer", "level": "random"}]
    storage.write([GameBegun(1, 1, 1, "noddy", "noddy", 2, False, {"target": 15}, seats, game.seed, 1.7e9, None)]
                  + [ActionApplied(1, n, action, None, 1) for n, action in enumerate(actions, 1)]
                  + [GameFinished(1, 1.7e9 + 60, result_of(game.outcome.to_dict()), (), 1)])
    return game


def test_a_newer_servers_result_fields_are_kept() -> None:
    storage = Storage(":memory:")
    newer = {"weather": "fair", "table_talk": {"lines": 3}}
    game = _stored(storage, lambda result: {**result, **newer})
    assert game.outcome is not None
    stored = {**game.outcome.to_dict(), **newer}
    listed = storage.read("list_games", {"name": "ann", "limit": 5, "viewer": {"account": None}})
    # (Compared on the stored fields: a result gains the fields added since it was stored.)
    assert like([g["result"] for g in listed], [stored]) == [stored]
    record = storage.finished_game(1)
    assert record is not None and like([record["result"]], [stored]) == [stored]
    over = {"kind": "game_over", **stored}
    assert like(record["steps"][-1]["events"][-1:], [over]) == [over]
    storage.close()


def test_a_result_round_trips_through_its_dict_untouched() -> None:
    stored = {"winner": 0, "winning_seats": [0, 2], "scores": [121, 80], "ending": "target",
              "skunk": "none", "resigned": [1], "duration_s": 12.5, "weather": "fair"}
    result = GameResult.from_dict(stored)
    assert (result.outcome.winner, result.outcome.resigned, result.unknown["weather"]) == (0, (1,), "fair")
    assert result.to_dict() == stored
    assert result.event_dict() == {"kind": "game_over", **stored}
