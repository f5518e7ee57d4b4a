"""Computer players counting by hand: greedy and expert exactly, random carelessly."""

from __future__ import annotations

import random

import pytest

from noddy.bots import get_player
from noddy.bots.counting import counting_action
from noddy.engine import Claim, ClaimRefused, Game, Muggins, Pass, ShowCounted, score_show

MANUAL = {"counting": "manual"}


def play_with(levels: list[str], seed: int, preset: str = "cribbage") -> Game:
    players = [get_player(level, seed=seed + i) for i, level in enumerate(levels)]
    game = Game(preset, len(levels), options=MANUAL, seed=seed)
    while not game.is_over:
        seat = game.awaiting[0]
        game.apply(players[seat].choose(game.observation(seat), game.rules))
    return game


@pytest.mark.parametrize("level", ["greedy", "expert"])
def test_greedy_and_expert_claim_exactly(level):
    game = play_with([level, level], seed=11, preset="five-card-cribbage")
    counted = [e for e in game.log if isinstance(e, ShowCounted)]
    assert counted and all(e.claimed == e.worth and e.lost == 0 and e.mugged_by is None for e in counted)


def test_greedy_mugs_every_short_claim_of_random_exactly_and_random_overlooks_some():
    game = play_with(["random", "greedy"], seed=3)
    by_random = [e for e in game.log if isinstance(e, ShowCounted) and e.seat == 0]
    short = [e for e in by_random if e.claimed < e.worth]
    assert short, "random overlooked nothing in a whole game"
    assert all(e.mugged_by == 1 and e.lost == 0 for e in short)
    assert all(e.claimed <= e.worth for e in by_random)


@pytest.mark.parametrize("seed", range(3))
def test_no_computer_ever_claims_above_the_worth(seed):
    """Every claim from 0 to 29 is legal now, and one too high is refused once, then counts
    as 0: the computers never make one, careless or not (they overlook, never add)."""
    game = play_with(["random", "greedy"], seed=seed)
    assert any(isinstance(e, ShowCounted) for e in game.log)
    assert not any(isinstance(e, ClaimRefused) for e in game.log)


def test_the_counting_decisions_from_a_view():
    game = Game("cribbage", options=MANUAL, seed=8)
    rng = random.Random(8)
    while game.phase != "claim":
        game.apply(rng.choice(game.legal_actions(game.awaiting[0])))
    owner = game.to_move
    view = game.observation(owner)
    true = score_show(view.counting.cards, view.turn_up, game.rules).total
    assert counting_action(view, game.rules) == Claim(owner, true)
    assert counting_action(game.observation(1 - owner), game.rules) is None  # not its turn
    game.apply(Claim(owner, 0))
    caller = game.to_move
    expected = Muggins(caller, true) if true > 0 else Pass(caller)
    assert counting_action(game.observation(caller), game.rules) == expected
