"""The match a table plays (server/model/match.py): points by the game's outcome, who deals
the next game first, when a table starts a new match, and the stored form's round trip."""

from __future__ import annotations

import pytest

from noddy.engine import Outcome
from noddy.server.model.match import Match, loser_to_deal, match_points
from noddy.server.model.table import Seat, Table
from noddy.server.model.table_options import table_rules


@pytest.mark.parametrize("outcome, points", [
    (Outcome(0, (0,), (121, 95)), 1),
    (Outcome(0, (0,), (121, 90), skunk="skunk"), 2),
    (Outcome(1, (1,), (60, 121), skunk="double"), 4),
    (Outcome(1, (1,), (3, 10), ending="resignation"), 1),
])
def test_a_game_scores_1_a_skunk_2_a_double_skunk_4_a_resignation_1(outcome: Outcome, points: int) -> None:
    assert match_points(outcome) == points


def test_the_loser_deals_first_three_handed_the_lowest_partnerships_the_losing_team() -> None:
    assert loser_to_deal(Outcome(0, (0,), (121, 100)), 2, False, 0) == 1
    assert loser_to_deal(Outcome(1, (1,), (50, 121, 40)), 3, False, 2) == 2
    assert loser_to_deal(Outcome(1, (1,), (40, 121, 40)), 3, False, 0) == 2  # a tie: first from the left
    assert loser_to_deal(Outcome(1, (1, 3), (80, 121)), 4, True, 0) == 2
    assert loser_to_deal(Outcome(1, (1, 3), (80, 121)), 4, True, 2) == 0


def test_a_match_is_won_at_its_points_and_survives_its_stored_form() -> None:
    match = Match(to=3, sides=2, names=["ann", "ben"])
    match.start(game_id=4, dealer=0)
    assert match.finish(Outcome(1, (1,), (100, 121)), 2, False) == 1
    assert (match.points, match.next_dealer, match.winner) == ([0, 1], 0, None)
    match.start(game_id=5, dealer=0)
    assert match.finish(Outcome(1, (1,), (60, 121), skunk="double"), 2, False) == 4
    assert (match.points, match.winner, match.id, match.game) == ([0, 5], 1, 4, 2)
    assert Match.from_dict(match.to_dict()) == match
    assert match.for_game(finished=True) == {"id": 4, "game": 2, "to": 3, "first_dealer": 0,
                                             "points": [0, 5], "winner": 1}


def _table(options: dict) -> Table:
    table = Table(1, table_rules("cribbage", 2, False, options), "cribbage", 2, False, dict(options))
    table.seats = [Seat("ann"), Seat("ben")]
    return table


def test_a_table_starts_a_new_match_when_won_resized_or_someone_else_sits() -> None:
    table = _table({"match": 3})
    first = table.next_match()
    assert first is not None and table.next_match() is first
    first.resign(1)
    assert first.winner == 0 and table.next_match() is not first  # won: a new one
    second = table.running_match
    table.seats[1] = Seat("cy")
    assert table.next_match() is not second  # someone else sits
    third = table.running_match
    table.options = {"match": 5}
    assert table.next_match() is not third and table.running_match.to == 5  # another length
    table.options = {}
    assert table.next_match() is None and table.summary()["match"] is None
