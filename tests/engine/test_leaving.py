"""Results that count what happened (issue 24): a resignation loses at the moment it is made,
an abandoned seat never taken back counts as one, and a seat taken back plays on as before.
See :mod:`noddy.engine.leaving`."""

from __future__ import annotations

import random

import pytest

from noddy.engine import Abandon, Game, GameOverError, IllegalActionError, Outcome, Resign, TakeBack


def play_until(game: Game, rng: random.Random, stop: int | None = None) -> None:
    """Random legal moves until the game is over (or ``stop`` actions were taken)."""
    taken = 0
    while not game.is_over and (stop is None or taken < stop):
        seat = rng.choice(game.awaiting)
        game.apply(rng.choice(game.legal_actions(seat)))
        taken += 1


def test_a_resignation_in_a_two_handed_game_ends_it_at_once_for_the_other_side() -> None:
    game = Game("noddy", 2, seed=5)
    play_until(game, random.Random(5), stop=3)
    scores = tuple(game.scores)
    (over,) = game.apply(Resign(1))
    assert over.to_dict() == {"kind": "game_over", "winner": 0, "winning_seats": [0],
                              "scores": list(scores), "ending": "resignation", "skunk": "none",
                              "resigned": [1]}
    assert game.outcome == Outcome(0, (0,), scores, "resignation", resigned=(1,)) and game.is_over
    with pytest.raises(GameOverError):
        game.apply(Resign(0))


def test_one_partner_resigns_for_the_team() -> None:
    game = Game("cribbage", 4, partnerships=True, seed=2)
    (over,) = game.apply(Resign(2))
    assert (over.outcome.winner, over.outcome.winning_seats, over.outcome.ending) == (1, (1, 3), "resignation")


def test_three_handed_the_resigner_loses_and_the_game_goes_on_to_the_target() -> None:
    game = Game("cribbage", 3, options={"target": 31}, seed=7)
    assert game.apply(Resign(2)) == [] and not game.is_over
    with pytest.raises(IllegalActionError):
        game.apply(Resign(2))
    play_until(game, random.Random(7))
    outcome = game.outcome
    assert outcome is not None and outcome.ending == "target" and outcome.resigned == (2,)
    assert outcome.to_dict()["resigned"] == [2]
    # two of three resigning: the last one wins by resignation
    game = Game("cribbage", 3, seed=7)
    game.apply(Resign(0))
    (over,) = game.apply(Resign(2))
    assert (over.outcome.winner, over.outcome.ending, over.outcome.resigned) == (1, "resignation", (0, 2))


def test_an_abandoned_seat_never_taken_back_loses_with_the_scores_of_that_moment() -> None:
    game = Game("noddy", 2, seed=11)
    rng = random.Random(11)
    play_until(game, rng, stop=4)
    scores_then = tuple(game.scores)
    assert game.apply(Abandon(0)) == []
    play_until(game, rng)  # a computer plays seat 0 on, whatever it scores
    assert game.outcome == Outcome(1, (1,), scores_then, "abandoned", abandoned=(0,))


def test_a_seat_taken_back_plays_on_and_the_target_decides() -> None:
    game = Game("noddy", 2, seed=11)
    rng = random.Random(11)
    play_until(game, rng, stop=4)
    game.apply(Abandon(0))
    play_until(game, rng, stop=2)
    game.apply(TakeBack(0))
    with pytest.raises(IllegalActionError):
        game.apply(TakeBack(0))
    play_until(game, rng)
    outcome = game.outcome
    assert outcome is not None and outcome.ending == "target" and outcome.abandoned == ()
    assert outcome.scores == tuple(game.scores) and outcome.scores[outcome.winner] >= 31
    assert "abandoned" not in outcome.to_dict()


def test_leaving_is_never_a_legal_action_and_replays_the_same() -> None:
    game = Game("noddy", 2, seed=3)
    rng = random.Random(3)
    actions = []
    while not game.is_over:
        legal = game.legal_actions(rng.choice(game.awaiting))
        assert not any(isinstance(a, (Resign, Abandon, TakeBack)) for a in legal)
        action = rng.choice(legal)
        if len(actions) == 2:
            action = Abandon(1)
        game.apply(action)
        actions.append(action)
    again = Game("noddy", 2, seed=3)
    for action in actions:
        again.apply(action)
    assert again.outcome == game.outcome and game.outcome.ending == "abandoned"
    assert Outcome.from_dict(game.outcome.to_dict()) == game.outcome
    assert [a.to_dict() for a in (Resign(1), Abandon(0), TakeBack(0))] == [
        {"action": "resign", "seat": 1}, {"action": "abandon", "seat": 0}, {"action": "take_back", "seat": 0}]


def test_a_resignation_is_never_a_skunk() -> None:
    """RULES.md: a game won by resignation is never a skunk, however far behind the resigner
    was; three-handed, a seat that resigned (or was left) is not judged when the target ends
    the game, the others are."""
    game = Game("cribbage", 2, seed=3)
    play_until(game, random.Random(3), stop=40)
    (over,) = game.apply(Resign(0))
    assert over.to_dict()["ending"] == "resignation" and over.to_dict()["skunk"] == "none"
    assert Outcome.at_target(1, (1,), (50, 121, 100), 121, (30, 60)).skunk == "double"
    assert Outcome.at_target(1, (1,), (50, 121, 100), 121, (30, 60), resigned=(0,)).skunk == "none"
    assert Outcome.at_target(1, (1,), (50, 121, 80), 121, (30, 60), abandoned=(0,)).skunk == "skunk"
