"""Skunks as ``../shared/RULES.md`` ("Skunks and matches") rules them, in the engine's one
outcome value: below the target minus 30 a skunk, minus 60 a double skunk (none in a game to
61), each loser judged alone in three-handed play, a partnership by its shared score, no skunk
in the Noddy presets, and a resignation never one."""

from __future__ import annotations

import random

import pytest

from noddy.engine import SKUNKS, Game, GameOver, Outcome, configure


def _judged(preset: str, players: int, scores: tuple[int, ...], winner: int, *,
            partnerships: bool = False, target: int | None = None) -> str:
    """The skunk of a game of ``preset`` won by ``winner`` with ``scores``, by the preset's
    own parameters as a table configures them."""
    rules = configure(preset, players, partnerships=partnerships,
                      options={"target": target} if target else None)
    return Outcome.at_target(winner, (winner,), scores, rules.target, rules.skunk_margins).skunk


@pytest.mark.parametrize("scores,winner,expected", [
    ((121, 91), 0, "none"),      # 91 is not below 91
    ((121, 90), 0, "skunk"),
    ((61, 121), 1, "skunk"),     # 61 is not below 61
    ((60, 121), 1, "double"),
    ((121, 0), 0, "double"),
])
def test_a_game_to_121_is_a_skunk_below_91_and_a_double_below_61(
        scores: tuple[int, int], winner: int, expected: str) -> None:
    assert _judged("cribbage", 2, scores, winner) == expected


@pytest.mark.parametrize("preset,target,scores,expected", [
    ("cribbage", 61, (61, 31), "none"),
    ("cribbage", 61, (61, 30), "skunk"),
    ("cribbage", 61, (61, 0), "skunk"),          # no double skunk in a game to 61
    ("five-card-cribbage", None, (61, 31), "none"),
    ("five-card-cribbage", None, (62, 30), "skunk"),
    ("five-card-cribbage", None, (61, 0), "skunk"),
    ("cribbage", 31, (31, 0), "none"),           # a line below 31 is no line at all
])
def test_a_game_to_61_has_a_skunk_below_31_and_no_double(
        preset: str, target: int | None, scores: tuple[int, int], expected: str) -> None:
    assert _judged(preset, 2, scores, 0, target=target) == expected


@pytest.mark.parametrize("scores,winner,expected", [
    ((121, 95, 92), 0, "none"),
    ((121, 95, 90), 0, "skunk"),      # one loser skunked is enough
    ((70, 122, 58), 1, "double"),     # one skunked, one double skunked: the worst
    ((60, 59, 121), 2, "double"),
])
def test_three_handed_each_loser_is_judged_alone_and_the_worst_is_told(
        scores: tuple[int, int, int], winner: int, expected: str) -> None:
    assert _judged("cribbage", 3, scores, winner) == expected


@pytest.mark.parametrize("scores,winner,expected", [
    ((121, 91), 0, "none"), ((89, 121), 1, "skunk"), ((121, 45), 0, "double")])
def test_a_partnership_is_judged_by_its_shared_score(
        scores: tuple[int, int], winner: int, expected: str) -> None:
    assert _judged("cribbage", 4, scores, winner, partnerships=True) == expected


@pytest.mark.parametrize("preset,players,partnerships,target", [
    ("noddy", 2, False, None), ("noddy", 4, True, 121), ("noddy-ducoeur", 2, False, 121),
    ("noddy-holme", 2, False, None), ("noddy-modern", 3, False, 121)])
def test_the_noddy_presets_have_no_skunk(preset: str, players: int, partnerships: bool,
                                         target: int | None) -> None:
    rules = configure(preset, players, partnerships=partnerships,
                      options={"target": target} if target else None)
    assert rules.skunk_margins == ()
    scores = (rules.target, 0) if partnerships else (rules.target,) + (0,) * (players - 1)
    assert _judged(preset, players, scores, 0, partnerships=partnerships, target=target) == "none"


def _played_out(preset: str, players: int, seed: int, *, partnerships: bool = False,
                options: dict | None = None, dull_seat: int | None = None) -> Game:
    """A seeded game played to its end by random choices (``dull_seat`` always takes its
    first legal action, which loses heavily)."""
    game = Game(preset, players, partnerships=partnerships, options=options, seed=seed)
    chooser = random.Random(seed)
    while not game.is_over:
        seat = chooser.choice(game.awaiting)
        actions = game.legal_actions(seat)
        game.apply(actions[0] if seat == dull_seat else chooser.choice(actions))
    return game


@pytest.mark.parametrize("preset,players,partnerships,options,seed,dull,scores,skunk", [
    ("cribbage", 2, False, None, 0, None, (109, 121), "none"),
    ("cribbage", 2, False, None, 6, None, (123, 77), "skunk"),
    ("cribbage", 2, False, None, 1, 1, (121, 55), "double"),
    ("cribbage", 2, False, {"target": 61}, 10, None, (29, 61), "skunk"),
    ("cribbage", 3, False, None, 77, None, (70, 122, 58), "double"),
    ("cribbage", 3, False, None, 0, None, (121, 86, 115), "skunk"),
    ("cribbage", 4, True, None, 9, None, (121, 85), "skunk"),
    ("five-card-cribbage", 2, False, None, 17, None, (30, 63), "skunk"),
])
def test_a_played_games_game_over_and_outcome_carry_its_skunk(
        preset: str, players: int, partnerships: bool, options: dict | None, seed: int,
        dull: int | None, scores: tuple[int, ...], skunk: str) -> None:
    game = _played_out(preset, players, seed, partnerships=partnerships, options=options,
                       dull_seat=dull)
    over = game.log[-1]
    assert isinstance(over, GameOver) and over.outcome == game.outcome
    assert game.outcome is not None and game.outcome.scores == scores
    assert game.outcome.skunk == skunk and over.to_dict()["skunk"] == skunk


def test_the_skunk_reads_back_and_an_older_result_reads_as_none() -> None:
    outcome = Outcome(1, (1,), (60, 121), "target", "double")
    assert outcome.to_dict() == {"winner": 1, "winning_seats": [1], "scores": [60, 121],
                                 "ending": "target", "skunk": "double"}
    assert Outcome.from_dict(outcome.to_dict()) == outcome
    assert Outcome.from_dict({"winner": 1, "winning_seats": [1], "scores": [60, 121]}).skunk == "none"
    assert SKUNKS == ("none", "skunk", "double")


@pytest.mark.parametrize("ending", ["resignation", "abandoned"])
def test_a_game_not_won_at_the_target_is_never_a_skunk(ending: str) -> None:
    assert Outcome(0, (0,), (40, 2), ending).skunk == "none"
    with pytest.raises(ValueError, match="never a skunk"):
        Outcome(0, (0,), (40, 2), ending, "skunk")
    with pytest.raises(ValueError, match="never a skunk"):
        Outcome.from_dict({"winner": 0, "winning_seats": [0], "scores": [40, 2],
                           "ending": ending, "skunk": "double"})


def test_an_unknown_skunk_is_refused() -> None:
    with pytest.raises(ValueError, match="'triple'"):
        Outcome.from_dict({"winner": 0, "winning_seats": [0], "scores": [121, 2], "skunk": "triple"})
