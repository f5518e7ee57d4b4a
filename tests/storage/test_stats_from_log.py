"""A finished game's statistics are counted from the events the server hands over with its
result (``GameFinished.log``), not from a replay of the stored game (issue 34: that replay was
half of storage's writes in a match of quick games) -- and every row is the same as the
replay's: seeded full games of every preset, two-, three- and four-handed, in partnerships,
counted by hand, resigned and abandoned, each compared with ``seat_summaries`` of its stored
record read back and replayed (the old way).  A game finished without its events is still
replayed, and one that cannot be counted gets no rows, its result kept."""

from __future__ import annotations

import logging
import random
from typing import Any

import pytest

from noddy.engine import PRESETS, Game
from noddy.server.storage import Storage, reads
from noddy.server.storage.game_stats import COLUMNS, seat_summaries
from noddy.server.storage.records import ActionApplied, GameBegun, GameFinished

from .helpers import Driver

#: A seat's grace period in the games below (a seat left this long is abandoned).
GRACE = 5.0


def _play_table(d: Driver, conns: dict[int, int], rng: random.Random, stop_after: int | None = None) -> None:
    """The people of ``conns`` (seat: connection) make random legal moves, whoever is awaited,
    until the game of their table is over (or ``stop_after`` moves)."""
    anyone = next(iter(conns.values()))
    moves = 0
    while stop_after is None or moves < stop_after:
        snap = d.send(anyone, {"type": "snapshot"})
        if snap["game"] is None or snap["table"]["status"] != "playing":
            return
        awaited = [seat for seat in snap["turn"]["awaiting"] if seat in conns]
        assert awaited, snap["turn"]  # (computers move as soon as it is their turn)
        moves += d.play(conns[rng.choice(awaited)], rng, actions=1)


def _play_every_kind_of_game(d: Driver) -> None:
    ann, ben = d.connect("ann"), d.connect("ben")
    for conn in (ann, ben):  # only registered people are rated: the rows carry ratings
        d.register(conn)
    rng = random.Random(34)
    for preset in PRESETS:  # each preset against a computer, to its own target
        d.versus_computer(ann, preset, "greedy")
        d.play(ann, rng)
        d.send(ann, {"type": "leave"})
    for preset in ("cribbage", "five-card-cribbage"):  # counted by hand: claims at random
        d.versus_computer(ben, preset, "random", options={"counting": "manual", "target": 61})
        d.play(ben, rng)
        d.send(ben, {"type": "leave"})
    # Four in partnerships, two people and two computers.
    table = d.send(ann, {"type": "create_table", "preset": "cribbage", "players": 4, "partnerships": True,
                         "options": {"target": 61}})["table"]["id"]
    d.send(ben, {"type": "sit", "table": table, "seat": 1})
    d.send(ann, {"type": "add_computer", "seat": 2, "level": "random"})
    d.send(ann, {"type": "add_computer", "seat": 3, "level": "greedy"})
    d.send(ann, {"type": "ready"})
    d.send(ben, {"type": "ready"})
    _play_table(d, {0: ann, 1: ben}, rng)
    for conn in (ann, ben):
        d.send(conn, {"type": "leave"})
    # Three alone: ann resigns mid-game, a computer plays her seat on to the target.
    table = d.send(ben, {"type": "create_table", "preset": "cribbage", "players": 3,
                         "options": {"target": 61}})["table"]["id"]
    d.send(ann, {"type": "sit", "table": table, "seat": 2})
    d.send(ben, {"type": "add_computer", "level": "greedy"})
    d.send(ben, {"type": "ready"})
    d.send(ann, {"type": "ready"})
    _play_table(d, {0: ben, 2: ann}, rng, stop_after=30)
    d.send(ann, {"type": "leave"})
    _play_table(d, {0: ben}, rng)
    d.send(ben, {"type": "leave"})
    # Two alone: ben resigns, which ends the game at once.
    table = d.send(ann, {"type": "create_table", "preset": "noddy"})["table"]["id"]
    d.send(ben, {"type": "sit", "table": table})
    d.send(ann, {"type": "ready"})
    d.send(ben, {"type": "ready"})
    _play_table(d, {0: ann, 1: ben}, rng, stop_after=12)
    d.send(ben, {"type": "leave"})
    d.send(ann, {"type": "leave"})
    # Two alone: ben's connection is lost and never comes back; a computer plays his seat on.
    table = d.send(ann, {"type": "create_table", "preset": "cribbage", "options": {"target": 61}})["table"]["id"]
    d.send(ben, {"type": "sit", "table": table})
    d.send(ann, {"type": "ready"})
    d.send(ben, {"type": "ready"})
    _play_table(d, {0: ann, 1: ben}, rng, stop_after=12)
    d.take(d.core.disconnect(ben))
    d.now += GRACE + 1
    d.take(d.core.tick())
    _play_table(d, {0: ann}, rng)


def _rows(storage: Storage, game_id: int) -> list[tuple[Any, ...]]:
    return [tuple(row) for row in storage.db.execute(
        f"SELECT {', '.join(COLUMNS)} FROM game_stats WHERE game_id = ? ORDER BY seat", (game_id,))]


def _replayed(storage: Storage, finished: GameFinished) -> list[tuple[Any, ...]]:
    """The rows the old way: the stored record read back, replayed, and counted."""
    return seat_summaries(storage.game_record(finished.game_id),
                          {(c.identity.kind, c.identity.name): c.after for c in finished.ratings})


def test_every_kind_of_game_is_counted_from_its_events_as_its_replay_counts_it(
        monkeypatch: pytest.MonkeyPatch) -> None:
    d = Driver(Storage(":memory:"), grace_period=GRACE)
    replayed: list[int] = []
    replay = reads.replay
    monkeypatch.setattr(reads, "replay", lambda record: replayed.append(record["id"]) or replay(record))
    _play_every_kind_of_game(d)
    assert replayed == []  # no finished game was read back and replayed to be counted
    finished = [r for r in d.records if isinstance(r, GameFinished)]
    assert all(r.log is not None for r in finished)
    endings = {}
    for r in finished:
        record = d.storage.game_record(r.game_id)
        endings[r.game_id] = (record["preset"], record["players"], record["options"].get("counting"),
                              record["result"]["ending"])
        assert _rows(d.storage, r.game_id) == _replayed(d.storage, r), endings[r.game_id]
    # The games were the ones meant: every preset, by hand, partnerships, both ways of leaving.
    assert sorted(endings.values(), key=str) == sorted([
        *[(preset, 2, None, "target") for preset in PRESETS],
        ("cribbage", 2, "manual", "target"), ("five-card-cribbage", 2, "manual", "target"),
        ("cribbage", 4, None, "target"), ("cribbage", 3, None, "target"),
        ("noddy", 2, None, "resignation"), ("cribbage", 2, None, "abandoned")], key=str)
    rows = [row for r in finished for row in _rows(d.storage, r.game_id)]
    assert len(rows) == 2 * len(PRESETS) + 2 * 2 + 4 + 3 + 2 + 2
    # Something was counted in every figure's column, and rated games carry their ratings.
    by_column = dict(zip(COLUMNS, zip(*rows)))
    assert all(any(by_column[name]) for name in ("won", "deals", "cribs", "pegging", "hand", "crib", "best_points"))
    assert any(rating is not None for rating in by_column["rating"])
    d.storage.close()


def _stored_noddy(storage: Storage, seed: int) -> Game:
    """A two-handed noddy game to 15 played at random and stored as a server does, but that
    its GameFinished carries no events (a record made elsewhere than the core)."""
    game = Game("noddy", 2, options={"target": 15}, seed=seed)
    chooser = random.Random(seed)
    actions = []
    while not game.is_over:
        action = chooser.choice(game.legal_actions(chooser.choice(game.awaiting)))
        game.apply(action)
        actions.append(action.to_dict())
    assert game.outcome is not None
    seats = [{"seat": 0, "name": "ann", "kind": "human", "level": None},
             {"seat": 1, "name": "random computer 2", "kind": "computer", "level": "random"}]
    storage.write([GameBegun(1, 1, 1, "noddy", "noddy", 2, False, {"target": 15}, seats, game.seed, 1.7e9, [])]
                  + [ActionApplied(1, n, action, [], 1) for n, action in enumerate(actions, 1)]
                  + [GameFinished(1, 1.7e9 + 60, game.outcome.to_dict(), (), 1)])
    return game


def test_a_game_finished_without_its_events_is_replayed_for_them() -> None:
    storage = Storage(":memory:")
    game = _stored_noddy(storage, 5)
    rows = _rows(storage, 1)
    assert rows == seat_summaries(storage.game_record(1)) and [row[1] for row in rows] == [0, 1]
    # ... and the same rows as its events give.
    assert rows == seat_summaries(storage.game_record(1), {}, game.log)
    storage.close()


class _Broken:
    """An event that says it is a score but has nothing of one."""

    kind = "scored"


def test_a_game_that_cannot_be_counted_keeps_its_result_and_gets_no_rows(
        caplog: pytest.LogCaptureFixture) -> None:
    storage = Storage(":memory:")
    seats = [{"seat": 0, "name": "ann", "kind": "human", "level": None},
             {"seat": 1, "name": "ben", "kind": "human", "level": None}]
    result = {"winner": 0, "winning_seats": [0], "scores": [15, 3], "ending": "target", "skunk": "none"}
    with caplog.at_level(logging.ERROR, logger="noddy.server.storage"):
        failed = storage.write([GameBegun(7, 1, 1, "noddy", "noddy", 2, False, {}, seats, 1, 1.7e9, []),
                                GameFinished(7, 1.7e9 + 60, result, (), 1, log=(_Broken(),))])  # type: ignore[arg-type]
    assert failed == set()
    assert storage.db.execute("SELECT status FROM games WHERE id = 7").fetchone()[0] == "finished"
    assert _rows(storage, 7) == []
    assert [r.getMessage() for r in caplog.records] == [
        "game 7: no statistics ('_Broken' object has no attribute 'cards')"]
    storage.close()
