"""A restart on the same database brings every unfinished table back exactly where it was
(driven sans-IO: the core is thrown away and rebuilt from storage, as after a crash)."""

from __future__ import annotations

import random

import pytest

from noddy.server.storage import Storage

from .helpers import Driver, comparable

# (preset, players, partnerships, actions before the restart)
GAMES = [
    ("noddy", 2, False, 7),
    ("noddy-ducoeur", 2, False, 3),
    ("cribbage", 2, False, 1),      # in the middle of laying away to the crib
    ("cribbage", 4, True, 9),
    ("five-card-cribbage", 2, False, 12),
    ("noddy", 4, True, 5),
]


@pytest.mark.parametrize("preset,players,partnerships,actions", GAMES)
def test_a_table_comes_back_exactly_and_the_game_finishes(
        preset: str, players: int, partnerships: bool, actions: int) -> None:
    d = Driver(Storage(":memory:"))
    ann = d.connect("ann")
    ben = d.connect("ben")
    d.send(ann, {"type": "create_table", "preset": preset, "players": players, "partnerships": partnerships})
    d.send(ben, {"type": "sit", "table": 1})
    for seat in range(2, players):
        d.send(ann, {"type": "add_computer", "seat": seat, "level": "random"})
    d.send(ben, {"type": "ready"})
    d.send(ann, {"type": "ready"})
    rng = random.Random(actions)
    done = 0
    while done < actions:  # whoever must act, acts
        awaiting = d.send(ann, {"type": "snapshot"})["turn"]["awaiting"]
        done += d.play(ann if 0 in awaiting or 2 in awaiting else ben, rng, 1)
    before = {name: d.send(conn, {"type": "snapshot"}) for name, conn in (("ann", ann), ("ben", ben))}
    tokens = {"ann": d.token(ann), "ben": d.token(ben)}

    d.restart()
    conns = {}
    for name in ("ben", "ann"):
        conn = d.connect()
        welcome = d.send(conn, {"type": "hello", "name": name, "version": 1, "resume": tokens[name]})
        assert (welcome["resumed"], welcome["table"]) == (True, 1)
        conns[name] = conn
    for name, conn in conns.items():
        assert comparable(d.send(conn, {"type": "snapshot"})) == comparable(before[name])
    # ... and the game is played to its end
    while d.core.tables[1].status == "playing":
        awaiting = d.send(conns["ann"], {"type": "snapshot"})["turn"]["awaiting"]
        d.play(conns["ann"] if 0 in awaiting or 2 in awaiting else conns["ben"], rng, 1)
    assert d.core.tables[1].game.is_over
    games = d.send(conns["ann"], {"type": "list_games"})["games"]
    assert [g["id"] for g in games] == [1] and games[0]["status"] == "finished"


def test_computer_players_resume_and_ids_continue() -> None:
    d = Driver(Storage(":memory:"))
    ann = d.connect("ann")
    d.versus_computer(ann, "noddy", "greedy")
    d.play(ann, random.Random(1), 2)
    token = d.token(ann)
    seq = d.core.tables[1].seq
    d.restart()
    table = d.core.tables[1]
    assert table.seq == seq and table.status == "playing"
    assert table.seats[1].is_computer and table.seats[1].level == "greedy"
    assert table.seats[0].session.token == token and table.seats[0].session.conn is None
    ann = d.connect()
    d.send(ann, {"type": "hello", "name": "ann", "version": 1, "resume": token})
    d.play(ann, random.Random(2))  # the computer answers every move: the game ends
    assert table.game.is_over
    cat = d.connect("cat")
    assert d.send(cat, {"type": "create_table"})["table"]["id"] == 2


def test_a_seat_nobody_reclaims_goes_to_a_computer_after_the_grace_period() -> None:
    d = Driver(Storage(":memory:"), grace_period=30.0)
    ann, ben = d.connect("ann"), d.connect("ben")
    d.send(ann, {"type": "create_table", "preset": "noddy"})
    d.send(ben, {"type": "sit", "table": 1})
    d.send(ann, {"type": "ready"})
    d.send(ben, {"type": "ready"})
    token = d.token(ann)
    d.restart()
    ann = d.connect()
    d.send(ann, {"type": "hello", "name": "ann", "version": 1, "resume": token})
    d.now += 31
    d.take(d.core.tick())
    table = d.core.tables[1]
    assert table.seats[1].is_computer  # ben did not come back
    d.play(ann, random.Random(5))
    assert table.game.is_over
    # nobody else can take a held name, but once the seat is given up the name is free again
    assert d.send(d.connect(), {"type": "hello", "name": "ben", "version": 1})["type"] == "welcome"


def test_a_finished_table_comes_back_ready_for_another_game() -> None:
    d = Driver(Storage(":memory:"))
    ann = d.connect("ann")
    d.versus_computer(ann, "noddy", "random")
    d.play(ann, random.Random(3))
    token = d.token(ann)
    d.restart()
    ann = d.connect()
    d.send(ann, {"type": "hello", "name": "ann", "version": 1, "resume": token})
    table = d.core.tables[1]
    assert table.status == "finished" and table.games_played == 1
    seq = table.seq
    assert d.send(ann, {"type": "ready"})["table"]["status"] == "playing"
    assert table.game.log and table.seq > seq  # seq goes on across games, never reset
    d.play(ann, random.Random(4))
    assert [g["number"] for g in d.send(ann, {"type": "list_games"})["games"]] == [2, 1]


def test_tables_without_a_seated_person_close_and_closed_tables_stay_closed() -> None:
    d = Driver(Storage(":memory:"))
    ann, ben = d.connect("ann"), d.connect("ben")
    d.send(ann, {"type": "create_table", "preset": "cribbage", "players": 2})
    d.send(ann, {"type": "add_computer", "level": "random"})
    d.send(ann, {"type": "stand"})  # ann only watches; and a table ben leaves closes at once
    d.send(ben, {"type": "create_table"})
    d.send(ben, {"type": "leave"})
    assert sorted(d.core.tables) == [1]
    d.restart()
    assert d.core.tables == {}  # a watcher does not hold a table across a restart
    d.restart()
    assert d.core.tables == {}


def test_a_turn_timer_starts_again_after_the_restart() -> None:
    d = Driver(Storage(":memory:"), grace_period=600.0)
    ann = d.connect("ann")
    d.versus_computer(ann, "noddy", "random", turn_timer=20)
    table_seq = d.core.tables[1].seq
    d.restart()
    table = d.core.tables[1]
    assert table.seq == table_seq
    awaiting_humans = [s for s in table.game.awaiting if not table.seats[s].is_computer]
    assert sorted(table.deadlines) == awaiting_humans
    d.now += 21
    d.take(d.core.tick())
    assert table.seq > table_seq or not awaiting_humans  # the server played for the absent seat


def test_a_claim_refused_before_a_restart_stays_refused_after_it() -> None:
    """Counting by hand: the refused claim is a stored action, so a restart (which replays
    the stored actions) keeps it: the owner's snapshot still says it, the other's never did,
    and the owner's next claim above the worth counts as 0."""
    from noddy.engine import score_show

    d = Driver(Storage(":memory:"))
    conns = [d.connect("ann"), d.connect("ben")]
    d.send(conns[0], {"type": "create_table", "preset": "cribbage", "options": {"counting": "manual"}})
    d.send(conns[1], {"type": "sit", "table": 1})
    for conn in conns:
        d.send(conn, {"type": "ready"})
    game = d.core.tables[1].game
    while game.phase != "claim":
        seat = game.awaiting[0]
        d.send(conns[seat], {"type": "action", **game.legal_actions(seat)[0].to_dict(with_seat=False)})
    owner = game.to_move
    too_many = score_show(game.kept[owner], game.turn_up, game.rules).total + 1
    assert d.send(conns[owner], {"type": "action", "action": "claim", "points": too_many})["type"] == "ok"
    before = [d.send(conn, {"type": "snapshot"}) for conn in conns]
    assert [s["game"]["counting"]["refused"] for s in before] == [
        too_many if seat == owner else None for seat in (0, 1)]
    tokens = [d.token(conn) for conn in conns]

    d.restart()
    conns = [d.connect() for _ in tokens]
    for conn, token, name in zip(conns, tokens, ("ann", "ben")):
        assert d.send(conn, {"type": "hello", "name": name, "version": 1, "resume": token})["resumed"]
    for conn, snapshot in zip(conns, before):
        assert comparable(d.send(conn, {"type": "snapshot"})) == comparable(snapshot)
    heard = len(d.inbox[conns[1 - owner]])
    assert d.send(conns[owner], {"type": "action", "action": "claim", "points": too_many})["type"] == "ok"
    claimed = next(m["event"] for m in d.inbox[conns[1 - owner]][heard:] if m["type"] == "event")
    assert (claimed["kind"], claimed["seat"], claimed["points"]) == ("claimed", owner, 0)
