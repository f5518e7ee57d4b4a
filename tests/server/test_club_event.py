"""A club night's state machine (issue 35), apart from the long Swiss in test_club_swiss.py:
a round robin, the director's pause, resume and early end on an injected clock, late and
refused entries, forfeits by withdrawal and double no-show, and the whole state stored and
read back mid-round."""

from __future__ import annotations

import json

import pytest

from noddy.server.model.club import Event
from noddy.server.model.club_types import (Announce, ClubError, CloseTable, DealGame, EventDefinition,
                                           EventOver, OpenTables, PairingForfeited, RoundOver)

from .club_helpers import definition, entered, only, open_tables, pairs, play, points, seat


def test_a_round_robin_meets_everyone_once_and_forfeits_a_withdrawn_players_later_pairings() -> None:
    event = entered(["ann", "ben", "cat", "dan"], format="round-robin", rounds=0, games_per_pairing=1,
                    duplicate=False, round_pause=0.0)
    start = event.start(0.0, "dir")
    assert pairs(start) == ([(1, "ann", "dan"), (2, "ben", "cat")], None)
    assert event.total_rounds == 3
    (opening,) = only(start, OpenTables)
    assert opening.boards[0].seeds != opening.boards[1].seeds  # not duplicate: each board its deals
    open_tables(event, 0.0, start, 1)
    play(event, 10.0, 1, 1, [("ann", 121, 100, "none")])
    # cat wins 121-80, a skunk; with no pause round 2 begins at once
    round2 = play(event, 20.0, 1, 2, [("cat", 121, 80, "skunk")])
    assert only(round2, RoundOver) == [RoundOver(1, 20.0)]
    assert pairs(round2) == ([(1, "cat", "ann"), (2, "dan", "ben")], None)
    open_tables(event, 20.0, round2, 3)
    # the rating estimate is worked out once a round: round 1's games
    after1 = event.standings()
    assert after1["rated_rounds"] == 1 and after1["rows"][0]["name"] == "cat"
    assert after1["rows"][0]["rating"] > 1500 > after1["rows"][-1]["rating"]  # cat won, ben lost
    gone = event.withdraw(25.0, "dan")
    assert gone[1:3] == [CloseTable(2, 2, 4, "withdrew"), PairingForfeited(2, 2, ("dan",), "withdrew")]
    # ann wins 121-119 as B; round 3 opens ann v ben only: cat v dan is cat's by forfeit
    ratings = [(row["name"], row["rating"]) for row in event.standings()["rows"]]
    round3 = play(event, 30.0, 2, 1, [("ann", 121, 119, "none")])
    assert [(row["name"], row["rating"]) for row in event.standings()["rows"]] != ratings  # round 2 is over
    assert pairs(round3) == ([(1, "ann", "ben")], None)
    assert PairingForfeited(3, 2, ("dan",), "withdrew") in round3
    open_tables(event, 30.0, round3, 5)
    last = play(event, 40.0, 3, 1, [("ben", 121, 110, "none")])
    assert only(last, EventOver) == [EventOver("finished", "every round is played")]
    assert points(event) == [("cat", 3 + 2, 41 - 2), ("ann", 4, 21 + 2 - 11), ("ben", 4, -41 + 11),
                             ("dan", 0, -21)]


def test_a_round_robin_takes_no_late_entrant_and_a_swiss_takes_one_until_its_round() -> None:
    robin = entered(["ann", "ben", "cat"], format="round-robin", rounds=0)
    robin.start(0.0, "dir")
    with pytest.raises(ClubError) as refused:
        robin.join(1.0, "dan", "person")
    assert (refused.value.code, str(refused.value)) == ("too-late", "Tuesday club takes no more entrants")
    swiss = entered(["ann", "ben", "cat"], late_entry_until=2)
    start = swiss.start(0.0, "dir")
    assert pairs(start) == ([(1, "ann", "ben")], "cat")
    assert swiss.join(5.0, "dan", "bot") == [Announce("joined", "dan (a bot) entered Tuesday club", ("dan",))]
    assert swiss.entrants["dan"].joined_round == 1
    open_tables(swiss, 5.0, start, 1)
    play(swiss, 10.0, 1, 1, [("ann", 121, 100, "none"), ("ann", 121, 100, "none")])
    round2 = swiss.tick(40.0)
    # ann 4 (+42), cat 4 (the bye), dan 0 (+0), ben 0 (-42): four, paired top down, no bye
    assert pairs(round2) == ([(1, "ann", "cat"), (2, "dan", "ben")], None)
    with pytest.raises(ClubError) as late:
        swiss.join(41.0, "eve", "person")
    assert late.value.code == "too-late"


def test_the_director_pauses_and_the_clocks_stand_still_until_resumed() -> None:
    event = entered(["ann", "ben", "cat", "dan"])
    start = event.start(0.0, "dir")
    open_tables(event, 0.0, start, 1)
    assert seat(event, 5.0, 1, 1, ["ann", "ben"]) == [DealGame(1, 1, 1, 0, start[2].boards[0].seeds[0], ("ann", "ben"))]
    seat(event, 10.0, 1, 2, ["cat"])
    with pytest.raises(ClubError) as refused:
        event.pause(20.0, "ann")
    assert (refused.value.code, str(refused.value)) == ("not-director", "only the director, dir, may do that")
    assert event.pause(20.0, "dir") == [Announce("paused", "the director paused Tuesday club")]
    assert (event.next_deadline(), event.tick(100.0)) == (None, [])
    # games being played go on while paused
    event.game_finished(30.0, 1, 1, 0, "ann", {"ann": 121, "ben": 100})
    assert event.game_finished(31.0, 1, 1, 1, "ben", {"ann": 100, "ben": 121}) == []
    live = event.standings()  # points live; ratings once round 1 is over
    assert [(row["name"], row["points"], row["rating"]) for row in live["rows"]][:2] == [
        ("ann", 2, 1500.0), ("ben", 2, 1500.0)] and live["rated_rounds"] == 0
    resumed = event.resume(50.0, "dir")
    assert resumed == [Announce("resumed", "the director resumed Tuesday club")]
    assert event.next_deadline() == 60.0 + 30.0  # the 30 s paused do not count
    assert event.tick(89.9) == []
    over = event.tick(90.0)
    assert PairingForfeited(1, 2, ("dan",), "no-show") in over and RoundOver(1, 120.0) in over
    # paused between rounds: the pause's 10 s move the next round on
    event.pause(100.0, "dir")
    assert event.set_round_pause(101.0, "dir", 40.0) == [
        Announce("pause-changed", "the pause between rounds is now 40 seconds")]
    event.resume(110.0, "dir")
    assert event.next_deadline() == 90.0 + 40.0 + 10.0
    assert event.tick(139.0) == []
    assert pairs(event.tick(140.0)) == ([(1, "cat", "ann"), (2, "ben", "dan")], None)


def test_ended_early_the_unfinished_pairings_are_void_and_the_table_is_kept() -> None:
    event = entered(["ann", "ben", "cat", "dan"])
    start = event.start(0.0, "dir")
    open_tables(event, 0.0, start, 1)
    play(event, 10.0, 1, 1, [("ann", 121, 80, "skunk"), ("ann", 121, 100, "none")])
    seat(event, 10.0, 1, 2, ["cat", "dan"])
    end = event.end_early(20.0, "dir")
    assert end == [CloseTable(1, 2, 2, "ended"), EventOver("ended", "the director ended it early"),
                   Announce("ended", "Tuesday club is over: the director ended it early")]
    assert event.rounds[0].pairings[1].status == "void"
    assert points(event) == [("ann", 5, 41 + 21), ("cat", 0, 0), ("dan", 0, 0), ("ben", 0, -62)]
    assert event.standings() is event.final and event.standings()["state"] == "ended"
    for call in (lambda: event.join(21.0, "eve", "person"), lambda: event.end_early(21.0, "dir"),
                 lambda: event.start(21.0, "dir"), lambda: event.withdraw(21.0, "ann")):
        with pytest.raises(ClubError) as refused:
            call()
        assert refused.value.code == "wrong-state"
    assert event.next_deadline() is None


def test_a_double_no_show_scores_nobody_and_a_late_table_is_closed() -> None:
    event = entered(["ann", "ben", "cat", "dan"], forfeit_wait=30.0)
    start = event.start(0.0, "dir")
    assert event.table_opened(0.0, 1, 1, 7) == []
    assert event.withdraw(1.0, "cat")[1:3] == [PairingForfeited(1, 2, ("cat",), "withdrew"),
                                              Announce("forfeit", "round 1 board 2: cat forfeits (withdrew)",
                                                       ("cat",))]
    # board 2's table, opened after its forfeit, is not needed
    assert event.table_opened(2.0, 1, 2, 8) == [CloseTable(1, 2, 8, "withdrew")]
    over = event.tick(30.0)
    assert over[:2] == [CloseTable(1, 1, 7, "no-show"), PairingForfeited(1, 1, ("ann", "ben"), "no-show")]
    rows = {row["name"]: (row["points"], row["games"], row["forfeits"]) for row in event.standings()["rows"]}
    assert rows == {"ann": (0, 0, 2), "ben": (0, 0, 2), "cat": (0, 2, 2), "dan": (4, 2, 0)}
    assert start[0] == Announce("started", "Tuesday club has begun with 4 entrants", ("ann", "ben", "cat", "dan"))


def test_an_event_left_with_one_entrant_in_a_pause_ends_when_the_next_round_was_due() -> None:
    event = entered(["ann", "ben", "cat"])
    open_tables(event, 0.0, event.start(0.0, "dir"), 1)
    play(event, 10.0, 1, 1, [("ann", 121, 100, "none"), ("ann", 121, 100, "none")])
    event.withdraw(20.0, "ben")
    event.withdraw(21.0, "cat")
    assert event.tick(40.0) == [EventOver("finished", "fewer than 2 entrants are left"),
                                Announce("finished", "Tuesday club is over: fewer than 2 entrants are left")]
    assert len(event.rounds) == 1 and points(event)[0] == ("ann", 4, 42)


def test_a_game_given_to_one_side_counts_as_a_forfeit_of_that_game_only() -> None:
    event = entered(["ann", "ben"])
    open_tables(event, 0.0, event.start(0.0, "dir"), 1)
    seat(event, 1.0, 1, 1, ["ann", "ben"])
    deal = event.game_forfeited(2.0, 1, 1, 0, "ben", "held seat ran out")
    assert [(d.game, d.seats) for d in only(deal, DealGame)] == [(1, ("ben", "ann"))]
    event.game_finished(3.0, 1, 1, 1, "ben", {"ben": 121, "ann": 90}, "skunk")
    assert points(event) == [("ben", 3, 31), ("ann", 2, -31)]
    assert [r["forfeits"] for r in event.standings()["rows"]] == [1, 0]


def test_refused_calls_change_nothing() -> None:
    event = entered(["ann", "ben"])
    before = event.to_dict()
    cases = [(lambda: event.join(5.0, "ann", "person"), "already-entered"),
             (lambda: event.join(5.0, "eve", "robot"), "bad-entrant"),
             (lambda: event.withdraw(5.0, "eve"), "not-entered"),
             (lambda: event.start(5.0, "ann"), "not-director"),
             (lambda: event.remove(5.0, "ben", "ann"), "not-director"),
             (lambda: event.table_opened(5.0, 1, 1, 3), "no-such-pairing"),
             (lambda: event.set_round_pause(5.0, "dir", 1801.0), "bad-definition")]
    for call, code in cases:
        with pytest.raises(ClubError) as refused:
            call()
        assert refused.value.code == code
    assert event.to_dict() == before
    # one who withdraws before the start may enter again, last in the order
    event.withdraw(5.5, "ann")
    event.join(5.6, "ann", "person")
    assert list(event.entrants) == ["ben", "ann"] and event.entrants["ann"].joined_at == 5.6
    event.remove(6.0, "dir", "ben")
    with pytest.raises(ClubError) as again:
        event.join(7.0, "ben", "person")
    assert again.value.code == "removed"
    with pytest.raises(ClubError) as few:
        event.start(8.0, "dir")
    assert few.value.code == "too-few"
    open_tables(event, 9.0, (event.join(9.0, "cat", "person"), event.start(9.0, "dir"))[1], 1)
    seat(event, 9.0, 1, 1, ["ann", "cat"])
    for call, code in [(lambda: event.game_finished(10.0, 1, 1, 1, "ann", {"ann": 121, "cat": 0}), "bad-result"),
                       (lambda: event.game_finished(10.0, 1, 1, 0, "dan", {"ann": 121, "cat": 0}), "bad-result"),
                       (lambda: event.game_finished(10.0, 1, 1, 0, "ann", {"ann": 121, "ben": 0}), "bad-result"),
                       (lambda: event.player_arrived(10.0, 1, 1, "dan"), "no-such-pairing")]:
        with pytest.raises(ClubError) as refused:
            call()
        assert refused.value.code == code


@pytest.mark.parametrize("changes, problem", [
    ({"format": "arena"}, "an event's format is one of round-robin, swiss, not 'arena'"),
    ({"rounds": 0}, "a Swiss has 1 to 15 rounds, not 0"),
    ({"games_per_pairing": 3}, "duplicate deals are played both ways: games per pairing must be even"),
    ({"forfeit_wait": 0.0}, "the no-show wait is more than 0 and at most 1800 seconds"),
    ({"title": " "}, "an event's title is 1 to 60 characters, not ' '"),
])
def test_an_event_that_cannot_be_is_refused(changes: dict[str, object], problem: str) -> None:
    with pytest.raises(ClubError) as refused:
        definition(**changes)
    assert (refused.value.code, str(refused.value)) == ("bad-definition", problem)


def test_it_starts_by_itself_at_its_time_or_ends_with_too_few() -> None:
    event = entered(["ann", "ben"], starts_at=50.0)
    assert (event.next_deadline(), event.tick(49.9)) == (50.0, [])
    assert event.tick(50.0)[0].kind == "started" and event.state == "running"
    lonely = entered(["ann"], starts_at=50.0)
    assert only(lonely.tick(50.0), EventOver) == [EventOver("ended", "fewer than 2 entrants at the start")]


def test_the_whole_state_is_stored_and_read_back_mid_round() -> None:
    event = entered(["ann", "ben", "cat", "dan", "eve"], ["eve"], password_hash="scrypt$x", rated=True)
    start = event.start(0.0, "dir")
    open_tables(event, 0.0, start, 1)
    play(event, 10.0, 1, 1, [("ann", 121, 85, "skunk"), ("ben", 121, 100, "none")])
    seat(event, 12.0, 1, 2, ["cat"])
    event.pause(15.0, "dir")
    stored = json.loads(json.dumps(event.to_dict()))
    restored = Event.from_dict(stored)
    assert restored == event and restored.to_dict() == stored
    assert restored.definition == event.definition and isinstance(restored.definition, EventDefinition)
    # and the two go on alike
    for copy in (event, restored):
        copy.resume(40.0, "dir")
    assert restored.next_deadline() == event.next_deadline() == 60.0 + 25.0
    assert restored.tick(85.0) == event.tick(85.0)
    assert restored.tick(115.0) == event.tick(115.0)
    assert restored == event and len(event.rounds) == 2


#: 2024-12-04 19:20:00 UTC: a club evening's clock, as the server's wall clock gives it.
EVENING = 1733340000.0


@pytest.mark.parametrize("starts_in, when", [
    (600.0, "in 10 minutes, at 19:30 UTC"),
    (45.0, "in 45 seconds, at 19:20 UTC"),
    (5400.0, "in 90 minutes, at 20:50 UTC"),
    (86400.0, "in 24 hours, at 19:20 UTC"),
    (9000.0, "in 2 hours 30 minutes, at 21:50 UTC"),
    (7260.0, "in 2 hours 1 minute, at 21:21 UTC"),
    (1.0, "in 1 second, at 19:20 UTC"),
])
def test_an_announced_start_is_said_as_people_read_a_time(starts_in: float, when: str) -> None:
    """The news of an announced event says when it starts as a person reads it, not the
    server's clock in seconds ("starting at 1733340600")."""
    _, effects = Event.announce(definition(starts_at=EVENING + starts_in), EVENING)
    assert effects == [Announce("announced", f"Tuesday club: a swiss directed by dir, starting {when}")]
