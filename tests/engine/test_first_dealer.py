"""A game whose first dealer is fixed (a match's later games: the loser of the last game deals
first, ``../shared/RULES.md`` "Skunks and matches"): no cut, that seat deals, and the same
arguments deal the same game again (a stored game replays)."""

from __future__ import annotations

import pytest

from noddy.engine import Game


@pytest.mark.parametrize("preset, players, partnerships", [
    ("cribbage", 2, False), ("cribbage", 3, False), ("noddy", 4, True), ("five-card-cribbage", 2, False)])
def test_the_first_dealer_deals_without_a_cut(preset: str, players: int, partnerships: bool) -> None:
    for dealer in range(players):
        game = Game(preset, players, partnerships=partnerships, seed=11, first_dealer=dealer)
        kinds = [event.kind for event in game.log]
        assert kinds[:2] == ["game_started", "deal_started"] and "cut_for_deal" not in kinds
        assert game.log[1].to_dict()["dealer"] == dealer == game.dealer
        again = Game(preset, players, partnerships=partnerships, seed=11, first_dealer=dealer)
        assert [e.to_dict() for e in again.log] == [e.to_dict() for e in game.log]
    assert Game(preset, players, partnerships=partnerships, seed=11).log[1].kind == "cut_for_deal"


def test_a_first_dealer_that_is_no_seat_is_refused() -> None:
    with pytest.raises(ValueError, match="the first dealer is a seat from 0 to 1, not 2"):
        Game("cribbage", 2, seed=1, first_dealer=2)
