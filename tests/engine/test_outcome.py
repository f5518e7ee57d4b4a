"""The one result value: a finished game's :class:`Outcome`, its dict, and reading older dicts."""

from __future__ import annotations

import random

import pytest

from noddy.engine import ENDINGS, Game, GameOver, Outcome


def test_a_finished_games_outcome_is_its_game_over_events() -> None:
    game = Game("cribbage", 4, partnerships=True, options={"target": 31}, seed=3)
    chooser = random.Random(3)
    assert game.outcome is None
    while not game.is_over:
        game.apply(chooser.choice(game.legal_actions(chooser.choice(game.awaiting))))
    over = game.log[-1]
    assert isinstance(over, GameOver) and over.outcome == game.outcome
    assert game.outcome == Outcome(game.winner, game.winning_seats, tuple(game.scores), "target")
    assert over.to_dict() == {"kind": "game_over", "winner": game.winner,
                              "winning_seats": list(game.winning_seats), "scores": list(game.scores),
                              "ending": "target", "skunk": "none"}
    assert (over.winner, over.winning_seats, over.scores) == (game.winner, game.winning_seats, tuple(game.scores))


def test_an_outcome_reads_back_and_an_older_one_gets_the_default_ending() -> None:
    outcome = Outcome(0, (0, 2), (121, 96), "resignation")
    assert Outcome.from_dict(outcome.to_dict()) == outcome
    assert Outcome.from_dict({"winner": 1, "winning_seats": [1], "scores": [40, 61], "rematch": "x"}) \
        == Outcome(1, (1,), (40, 61), "target")
    assert ENDINGS == ("target", "resignation", "abandoned")


@pytest.mark.parametrize("bad", [{"winner": "1", "winning_seats": [1], "scores": [1, 2]},
                                 {"winner": 1, "winning_seats": [1], "scores": [1, 2], "ending": "timeout"}])
def test_what_is_no_outcome_is_refused(bad: dict) -> None:
    with pytest.raises(ValueError):
        Outcome.from_dict(bad)
