"""Every level plays legal moves in every preset, player count and partnership setting."""

from __future__ import annotations

import pytest

from noddy.bots import LEVELS, ExpertPlayer, GreedyPlayer, RandomPlayer, get_player
from noddy.engine import PRESETS, Game, Observation, Rules, find_preset

TABLES = [
    (preset, players, partnerships)
    for preset, rules in PRESETS.items()
    for partnerships, counts in ((False, rules.solo_counts), (True, rules.partnership_counts))
    for players in counts
]


def test_levels_are_registered() -> None:
    assert set(LEVELS) >= {"random", "greedy", "expert"}
    assert isinstance(get_player("greedy"), GreedyPlayer)
    assert isinstance(get_player("expert", seed=3), ExpertPlayer)
    assert get_player("expert").level == "expert"
    with pytest.raises(ValueError, match="'grandmaster'.*random, greedy, expert"):
        get_player("grandmaster")


class Checked:
    """Wraps a player: every choice must be one of the observation's legal actions."""

    def __init__(self, inner: object) -> None:
        self.inner = inner
        self.level = inner.level  # type: ignore[attr-defined]
        self.decisions = 0

    def choose(self, view: Observation, rules: Rules):  # type: ignore[no-untyped-def]
        action = self.inner.choose(view, rules)  # type: ignore[attr-defined]
        assert action in view.legal_actions, (action, view)
        self.decisions += 1
        return action


def small(level: str, seed: int) -> object:
    """A player as in play, but an expert with fewer samples so the suite stays fast."""
    if level == "expert":
        return ExpertPlayer(seed=seed, samples=4, crib_samples=20, max_depth=6)
    return get_player(level, seed=seed)


@pytest.mark.parametrize("level", ["random", "greedy", "expert"])
@pytest.mark.parametrize(("preset", "players", "partnerships"), TABLES)
def test_level_plays_a_whole_game_legally_in_every_seat(
        level: str, preset: str, players: int, partnerships: bool) -> None:
    # Short games (target 31) keep the suite quick; every phase of a deal still happens.
    game = Game(preset, players, partnerships=partnerships, options={"target": 31}, seed=11)
    seats = [Checked(small(level, seed)) for seed in range(players)]
    while not game.is_over:
        seat = game.awaiting[-1]  # discards in any order: take the last waiting seat
        game.apply(seats[seat].choose(game.observation(seat), game.rules))
    assert all(s.decisions for s in seats)


@pytest.mark.parametrize(("preset", "players", "partnerships"), TABLES)
def test_levels_mixed_at_one_table(preset: str, players: int, partnerships: bool) -> None:
    """A full-length game with every level present, each seat checked for legality."""
    rules = find_preset(preset)
    game = Game(preset, players, partnerships=partnerships, seed=23,
                options={"target": min(rules.target, 61)})
    levels = ["expert", "greedy", "random", "greedy"]
    seats = [Checked(small(levels[s], s)) for s in range(players)]
    while not game.is_over:
        seat = game.awaiting[0]
        game.apply(seats[seat].choose(game.observation(seat), game.rules))
    assert game.winner is not None


def test_random_player_is_still_random() -> None:
    game = Game("cribbage", seed=4)
    view = game.observation(game.awaiting[0])
    choices = {RandomPlayer(seed=s).choose(view, game.rules) for s in range(30)}
    assert len(choices) > 3
