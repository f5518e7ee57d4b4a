"""A Swiss club night of 3 rounds, 2 games a pairing on duplicate deals, played through the
event's state machine with an injected clock (issue 35): eight entrants, a no-show who
forfeits round 1 and withdraws, so rounds 2 and 3 have an odd field and a bye; checked round
by round -- pairings, byes, ACC points and spread -- against sums worked out by hand in the
comments (2 a win, 3 a skunk or double skunk win, a bye 2 a game, spread the margins)."""

from __future__ import annotations

from noddy.server.model.club_types import (Announce, CloseTable, EventOver, OpenTables,
                                           PairingForfeited, RoundOver)

from .club_helpers import entered, only, open_tables, pairs, play, points, seat

NAMES = ["ann", "ben", "cat", "dan", "eve", "fay", "gus", "hal"]
BOTS = ["fay", "gus", "hal"]


def test_a_swiss_of_three_rounds_with_a_no_show_a_withdrawal_and_byes() -> None:
    event = entered(NAMES, BOTS)
    start = event.start(100.0, "dir")
    # Round 1 pairs the field in the order it entered.
    assert pairs(start) == ([(1, "ann", "ben"), (2, "cat", "dan"), (3, "eve", "fay"), (4, "gus", "hal")], None)
    tables = open_tables(event, 100.0, start, 11)
    assert tables == {1: 11, 2: 12, 3: 13, 4: 14}
    assert event.next_deadline() == 160.0  # the no-show wait, 60 s from the tables' opening

    # ann wins 121-100; ben wins the return game 121-85, a skunk (85 < 91).
    assert play(event, 120.0, 1, 1, [("ann", 121, 100, "none"), ("ben", 121, 85, "skunk")]) == []
    # eve wins 121-110 and 121-60, a double skunk (counts 3); hal wins both 121-111.
    play(event, 130.0, 1, 3, [("eve", 121, 110, "none"), ("eve", 121, 60, "double")])
    assert play(event, 150.0, 1, 4, [("hal", 121, 111, "none"), ("hal", 121, 111, "none")]) == []
    # dan never comes: at 160 cat wins both games by forfeit (no margin), and the round is over.
    assert seat(event, 110.0, 1, 2, ["cat"]) == []
    assert event.tick(159.9) == []
    last = event.tick(160.0)
    assert last[:2] == [CloseTable(1, 2, 12, "no-show"), PairingForfeited(1, 2, ("dan",), "no-show")]
    assert only(last, RoundOver) == [RoundOver(1, 190.0)]
    assert event.next_deadline() == 190.0
    assert points(event) == [("eve", 5, 11 + 61), ("hal", 4, 20), ("cat", 4, 0), ("ben", 3, 36 - 21),
                             ("ann", 2, 21 - 36), ("dan", 0, 0), ("gus", 0, -20), ("fay", 0, -72)]
    dan = next(row for row in event.standings()["rows"] if row["name"] == "dan")
    assert (dan["forfeits"], dan["games"], dan["status"]) == (2, 2, "entered")

    # dan withdraws in the pause: seven are left, so round 2 has a bye.
    assert event.withdraw(170.0, "dan") == [Announce("withdrawn", "dan withdrew (Tuesday club)", ("dan",))]
    assert event.tick(189.0) == []
    round2 = event.tick(190.0)
    # Ranked eve, hal, cat, ben, ann, gus, fay: fay, the lowest, sits out; no rematch.
    assert pairs(round2) == ([(1, "eve", "hal"), (2, "cat", "ben"), (3, "ann", "gus")], "fay")
    assert Announce("bye", "fay sits out round 2 (a bye)", ("fay",)) in round2
    open_tables(event, 190.0, round2, 21)
    # hal wins 121-119, eve the return 121-100; ben wins 121-90 (a skunk) and 121-101; ann
    # wins both 121-95.
    play(event, 250.0, 2, 1, [("hal", 121, 119, "none"), ("eve", 121, 100, "none")])
    play(event, 260.0, 2, 2, [("ben", 121, 90, "skunk"), ("ben", 121, 101, "none")])
    last = play(event, 270.0, 2, 3, [("ann", 121, 95, "none"), ("ann", 121, 95, "none")])
    assert only(last, RoundOver) == [RoundOver(2, 300.0)]
    # fay's bye scores a plain win for each of the pairing's 2 games: 4 points, no spread.
    assert points(event) == [("ben", 3 + 3 + 2, 15 + 31 + 20), ("eve", 5 + 2, 72 - 2 + 21),
                             ("ann", 2 + 4, -15 + 52), ("hal", 4 + 2, 20 + 2 - 21), ("cat", 4, -51),
                             ("fay", 4, -72), ("dan", 0, 0), ("gus", 0, -20 - 52)]

    round3 = event.tick(300.0)
    # ben-eve and ann-hal have not met; gus is the lowest without a bye (fay had one).
    assert pairs(round3) == ([(1, "ben", "eve"), (2, "ann", "hal"), (3, "cat", "fay")], "gus")
    open_tables(event, 300.0, round3, 31)
    play(event, 320.0, 3, 1, [("ben", 121, 100, "none"), ("ben", 121, 100, "none")])
    play(event, 330.0, 3, 2, [("hal", 121, 119, "none"), ("hal", 121, 119, "none")])
    last = play(event, 340.0, 3, 3, [("fay", 121, 80, "skunk"), ("cat", 121, 120, "none")])
    assert only(last, RoundOver) == [RoundOver(3, None)]
    assert only(last, EventOver) == [EventOver("finished", "every round is played")]
    assert event.state == "finished" and event.next_deadline() is None
    assert points(event) == [("ben", 12, 66 + 42), ("hal", 10, 1 + 4), ("eve", 7, 91 - 42),
                             ("fay", 7, -72 + 41 - 1), ("ann", 6, 37 - 4), ("cat", 6, -51 - 41 + 1),
                             ("gus", 4, -72), ("dan", 0, 0)]
    rows = {row["name"]: row for row in event.standings()["rows"]}
    assert [(n, rows[n]["games"], rows[n]["wins"], rows[n]["skunk_wins"], rows[n]["byes"], rows[n]["forfeits"])
            for n in ("ben", "fay", "cat", "gus", "dan")] == [
        ("ben", 6, 5, 2, 0, 0), ("fay", 4, 1, 1, 1, 0), ("cat", 6, 3, 0, 0, 0), ("gus", 4, 0, 0, 1, 0),
        ("dan", 2, 0, 0, 0, 2)]
    assert rows["ben"]["against"] == {"ann": [1, 2], "cat": [2, 2], "eve": [2, 2]}
    assert (rows["dan"]["status"], rows["fay"]["kind"], rows["ann"]["kind"]) == ("withdrawn", "bot", "person")
    # the rating estimate: ben, who won 5 of 6, rates above gus, who won none; each inside its interval
    assert rows["ben"]["low"] < rows["ben"]["rating"] < rows["ben"]["high"]
    assert rows["ben"]["rating"] > 1500 > rows["gus"]["rating"]


def test_each_round_deals_every_board_alike_and_each_pairing_plays_them_both_ways() -> None:
    event = entered(NAMES[:6])
    start = event.start(0.0, "dir")
    (opening,) = only(start, OpenTables)
    seeds = {board.seeds for board in opening.boards}
    assert len(seeds) == 1
    (first, second), = seeds
    assert first == second  # games 0 and 1 share a deal, with the seats swapped
    assert (opening.preset, opening.options) == ("cribbage", {})
    tables = open_tables(event, 0.0, start, 1)
    deal = seat(event, 1.0, 1, 2, ["dan", "cat"])
    assert [(d.table, d.game, d.seed, d.seats) for d in deal] == [(tables[2], 0, first, ("cat", "dan"))]
    again = event.game_finished(2.0, 1, 2, 0, "dan", {"dan": 121, "cat": 100}, "none")
    assert [(d.game, d.seed, d.seats) for d in again] == [(1, first, ("dan", "cat"))]
    # round 2 is dealt other cards, again the same at every board
    for board, winner in ((1, "ann"), (2, "cat"), (3, "eve")):
        if board != 2:
            seat(event, 3.0, 1, board, [event.rounds[0].pairings[board - 1].a, event.rounds[0].pairings[board - 1].b])
            loser = "ben" if winner == "ann" else "fay"
        else:
            loser = "dan"
        if board != 2:
            event.game_finished(4.0, 1, board, 0, winner, {winner: 121, loser: 100}, "none")
        event.game_finished(5.0, 1, board, 1, winner, {winner: 121, loser: 100}, "none")
    (round2,) = only(event.tick(35.0), OpenTables)
    assert len({board.seeds for board in round2.boards}) == 1
    assert round2.boards[0].seeds[0] != first
