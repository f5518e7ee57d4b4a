"""A seat gets at least the time its turn announces, counted from when the turn reaches it.

The network layer sends a call's messages only once its storage records are written, so a
turn computed at one moment can go out a good while later (a slow commit, a busy machine).
The turn timer used to run from when the core computed the turn: after two timed-out
discards the next play's turn went out with ``time_left 1.0`` and its timeout 0.00 s after
it (issue 27, item 14), and a claim's 0.58 s after.  Here the core is driven on a fake clock,
and the harness's "store" holds every message back until the test says it is written, which
it then reports to the core as the network layer does (``ServerCore.turns_sent``).
"""

from __future__ import annotations

import asyncio
from concurrent.futures import Future
from typing import Any

import pytest

from noddy.server import NoddyServer, ServerCore
from noddy.server.core import Send
from noddy.server.core.instructions import Effects, Lines

from .harness import Client
from .harness import test_config as config_for_tests
from .test_core import Harness


class SlowStore(Harness):
    """A harness whose messages wait, while ``holding``, until :meth:`write` (a slow commit)."""

    def __init__(self, **config: Any) -> None:
        super().__init__(**config)
        self.holding = False
        self.held: list[Effects] = []
        #: Connections closed: the network layer writes nothing more to them.
        self.gone: set[int] = set()
        #: (clock, connection, message) for every message as it reached its connection.
        self.arrived: list[tuple[float, int, dict[str, Any]]] = []

    def take(self, effects: Effects) -> None:
        if self.holding:
            self.held.append(effects)
            return
        effects.out = [out for out in effects.out if not (isinstance(out, Send) and out.conn in self.gone)]
        for out in effects.out:
            if isinstance(out, Send):
                items = out.message.messages if isinstance(out.message, Lines) else [out.message]
                self.arrived += [(self.now, out.conn, item) for item in items]
        super().take(effects)

    def write(self) -> None:
        """The commit is done: what was held goes out now, in order."""
        self.holding = False
        held, self.held = self.held, []
        for effects in held:
            self.take(effects)

    def hang_up(self, conn: int) -> None:
        """The connection closes (its messages still held are never written)."""
        self.gone.add(conn)
        self.take(self.core.disconnect(conn))

    def turns_to(self, conn: int, seat: int, action: str) -> list[tuple[float, dict[str, Any]]]:
        """When each turn for ``seat`` alone to ``action`` reached ``conn``, and the turn."""
        return [(when, m) for when, c, m in self.arrived
                if c == conn and m["type"] == "turn" and m["awaiting"] == [seat]
                and m["legal_actions"][0]["action"] == action]

    def timeouts_of(self, seat: int, conn: int) -> list[tuple[float, dict[str, Any]]]:
        return [(when, m) for when, c, m in self.arrived
                if c == conn and m["type"] == "timed_out" and m["seat"] == seat]


def _two_silent_people(options: dict[str, Any] | None = None) -> tuple[SlowStore, int, int]:
    """ann (seat 0) and ben (seat 1) at a cribbage table with a 1-second turn timer, dealt."""
    h = SlowStore()
    ann, ben = h.connect("ann"), h.connect("ben")
    h.send(ann, {"type": "create_table", "preset": "cribbage", "turn_timer": 1,
                 "options": options or {}})
    h.send(ben, {"type": "sit", "table": 1})
    h.send(ann, {"type": "ready"})
    h.send(ben, {"type": "ready"})
    assert h.core.tables[1].status == "playing"
    return h, ann, ben


def test_a_play_right_after_two_timed_out_discards_gets_its_second() -> None:
    h, ann, ben = _two_silent_people()
    game = h.core.tables[1].game
    assert sorted(game.awaiting) == [0, 1]  # both to lay away two cards
    h.holding = True  # the next commit is slow: 1.1 s
    h.tick(1.0)  # both discards time out; the pone's play is computed now
    pone = game.to_move
    assert game.awaiting == (pone,) and game.legal_actions(pone)[0].to_dict()["action"] == "play"
    conn = (ann, ben)[pone]
    assert h.turns_to(conn, pone, "play") == []  # nothing has gone out yet
    h.tick(1.05)  # its timer would have run out: the turn has not even reached the seat
    h.now += 0.05
    h.write()
    (reached, turn), = h.turns_to(conn, pone, "play")
    assert (round(reached, 2), turn["time_left"]) == (2.1, 1.0)
    assert [m["action"]["action"] for _when, m in h.timeouts_of(0, conn) + h.timeouts_of(1, conn)] == [
        "discard", "discard"]
    h.tick(0.95)  # 0.95 s after the turn reached the seat: still its to make
    assert h.timeouts_of(pone, conn)[1:] == [] and game.awaiting == (pone,)
    h.tick(0.1)
    (when, timed_out), = h.timeouts_of(pone, conn)[1:]
    assert timed_out["action"]["action"] == "play" and round(when - reached, 2) == 1.05


def test_a_claim_gets_the_time_its_turn_announces() -> None:
    h, ann, ben = _two_silent_people({"counting": "manual"})
    game = h.core.tables[1].game
    # Everything times out, one second at a time, until the next timeout brings a claim's
    # turn (the play's last card, or the muggins step's pass); that commit takes 0.42 s.
    while True:
        claim_next = any(a.to_dict()["action"] == "claim" for seat in game.awaiting
                         for a in game.legal_actions(seat))
        assert not claim_next, "the claim's turn came without a timeout before it"
        h.holding = True
        h.tick(1.0)
        if any(a.to_dict()["action"] == "claim" for seat in game.awaiting for a in game.legal_actions(seat)):
            break
        h.write()
    claimer = game.awaiting[0]
    conn = (ann, ben)[claimer]
    computed = h.now
    h.tick(0.42)
    h.write()
    reached, turn = h.turns_to(conn, claimer, "claim")[-1]
    assert (round(reached - computed, 2), turn["time_left"]) == (0.42, 1.0)
    assert turn["legal_actions"][0]["action"] == "claim"
    claims = len(h.timeouts_of(claimer, conn))
    h.tick(0.58)  # the old timer ran out here, 0.58 s after the turn reached the seat
    h.tick(0.38)
    assert len(h.timeouts_of(claimer, conn)) == claims and game.awaiting == (claimer,)
    h.tick(0.1)
    (when, timed_out), = h.timeouts_of(claimer, conn)[claims:]
    assert timed_out["action"] == {"action": "claim", "points": 0} and round(when - reached, 2) == 1.06


def test_a_turn_held_for_a_connection_that_closed_times_out_as_computed() -> None:
    """A seat whose connection is gone is never sent its turn: its timer runs from when the
    turn was computed (the seat is held, and the server plays for it as before)."""
    h, ann, ben = _two_silent_people()
    game = h.core.tables[1].game
    h.holding = True
    h.tick(1.0)
    pone = game.to_move
    h.hang_up((ann, ben)[pone])  # before its turn could be written
    h.write()
    other = (ann, ben)[1 - pone]
    h.tick(0.95)
    assert game.awaiting == (pone,)
    h.tick(0.1)
    assert [m["action"]["action"] for _when, m in h.timeouts_of(pone, other)] == ["discard", "play"]


async def test_over_sockets_the_timer_runs_from_when_the_turn_is_written(monkeypatch: pytest.MonkeyPatch) -> None:
    """The same as the first case through the network layer: a real server on a fake clock,
    ticked by hand, whose storage takes 1.1 s (of the fake clock) to commit the two timed-out
    discards.  The play's turn reaches the pone at 2.1 with ``time_left 1.0``; at 3.05 the
    play is still the pone's (a ping's reply comes first), and at 3.15 it times out."""
    now = [0.0]
    config = config_for_tests()
    server = NoddyServer(config, core=ServerCore(config, clock=lambda: now[0]))
    await server.start()
    assert server._ticker is not None and server._store is not None and server.core is not None
    server._ticker.cancel()  # the test ticks by hand
    holding = False
    held: list[tuple[Future[Any], Future[Any]]] = []
    write = server._store.write

    def slow_write(records: Any) -> Future[Any]:
        written = write(records)  # (in memory: done at once)
        if not holding:
            return written
        later: Future[Any] = Future()
        held.append((written, later))
        return later

    monkeypatch.setattr(server._store, "write", slow_write)

    async def tick(to: float) -> None:
        now[0] = to
        server._apply(server.core.tick())
        await asyncio.sleep(0)  # the loop hands the tick's records to storage

    try:
        ann, ben = await Client.connect(server.port), await Client.connect(server.port)
        await ann.hello("ann")
        await ben.hello("ben")
        await ann.request({"type": "create_table", "preset": "cribbage", "turn_timer": 1})
        await ben.request({"type": "sit", "table": 1})
        await ann.request({"type": "ready"})
        await ben.request({"type": "ready"})
        game = server.core.tables[1].game
        assert game is not None and sorted(game.awaiting) == [0, 1]
        holding = True
        await tick(1.0)  # both discards time out
        pone = game.to_move
        assert game.awaiting == (pone,) and game.legal_actions(pone)[0].to_dict()["action"] == "play"
        await tick(2.05)
        assert held
        now[0] = 2.1
        holding = False
        for written, later in held:  # the commit is done: what waited goes out
            later.set_result(written.result())
        client = (ann, ben)[pone]
        turn = await client.recv_until(lambda m: m["type"] == "turn" and m["awaiting"] == [pone]
                                       and m["legal_actions"][0]["action"] == "play")
        assert turn["time_left"] == 1.0
        await tick(3.05)
        pong = await client.request({"type": "ping"})
        assert pong["type"] == "pong"
        after_turn = client.received[client.received.index(turn):]
        assert [m for m in after_turn if m["type"] == "timed_out"] == []
        await tick(3.15)
        timed_out = await client.recv_until(lambda m: m["type"] == "timed_out")
        assert (timed_out["seat"], timed_out["action"]["action"]) == (pone, "play")
        for c in (ann, ben):
            await c.close()
    finally:
        await server.shutdown()
