"""A seat is not held hostage after a restart either (issue 31): a restored game has
published no turn yet, so the person to move is watched from when they come back."""

from __future__ import annotations

from noddy.server.storage import Storage

from .helpers import Driver


def test_the_person_to_move_in_a_restored_game_is_watched_from_their_return() -> None:
    d = Driver(Storage(":memory:"))
    ann, ben = d.connect("ann"), d.connect("ben")
    d.send(ann, {"type": "create_table", "preset": "noddy"})
    d.send(ben, {"type": "sit", "table": 1})
    d.send(ann, {"type": "ready"})
    d.send(ben, {"type": "ready"})
    tokens = d.token(ann), d.token(ben)
    (mover,) = d.core.tables[1].game.awaiting
    silent, other = ("ann", "ben")[mover], ("ann", "ben")[1 - mover]
    d.restart()
    conns = d.connect(), d.connect()
    for conn, name, token in zip(conns, ("ann", "ben"), tokens):
        assert d.send(conn, {"type": "hello", "name": name, "version": 1, "resume": token})["resumed"] is True
    told = conns[1 - mover]
    d.now += 299.0
    d.take(d.core.tick())
    assert [m for m in d.inbox[told] if m["type"] == "seat_silent"] == []
    d.now += 2.0
    d.take(d.core.tick())
    assert [m for m in d.inbox[told] if m["type"] == "seat_silent"] == [
        {"type": "seat_silent", "table": 1, "seat": mover, "name": silent, "silent": 300.0,
         "request": {"type": "stand_in", "seat": mover, "on": True}}]
    assert d.send(told, {"type": "stand_in", "seat": mover, "on": True})["type"] == "ok"
    assert d.core.tables[1].seats[mover].stand_in_for.name == silent != other
