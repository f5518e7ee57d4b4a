"""The server sleeps until its next deadline instead of ticking every ``tick_interval`` (issue 37).

``ServerCore.next_deadline`` is the earliest of the parts' own deadlines (held seats, turn
timers, paused tables, the lobby's next push), and a second after the last tick at the
latest (the sweeps, held seats and keepalive looks); the network layer sleeps until then.  The core is
driven here on a fake clock; the last test runs a real server on the real clock.
"""

from __future__ import annotations

import asyncio

from noddy.server.core.facade import SWEEP_INTERVAL

from .harness import running_server
from .test_core import Harness


def test_an_idle_core_is_due_a_look_a_second_after_its_last_tick() -> None:
    h = Harness()
    assert h.core.next_deadline() == SWEEP_INTERVAL == 1.0
    h.tick(0.25)
    assert h.core.next_deadline() == 1.25


def test_a_held_seat_is_due_when_its_grace_period_ends() -> None:
    h = Harness(grace_period=10.0)
    ann, ben = h.connect("ann"), h.connect("ben")
    h.send(ann, {"type": "create_table"})
    h.send(ben, {"type": "sit", "table": 1})
    h.take(h.core.disconnect(ben))
    h.tick(9.5)
    assert h.core.next_deadline() == 10.0  # the grace period's end, not the next look
    h.tick(0.5)
    assert h.core.tables[1].seats[1] is None


def test_a_turn_timer_is_due_when_it_runs_out() -> None:
    h = Harness()
    ann = h.connect("ann")
    h.send(ann, {"type": "create_table", "preset": "cribbage", "turn_timer": 5})
    h.send(ann, {"type": "add_computer", "seat": 1, "level": "random"})
    h.send(ann, {"type": "ready"})
    assert h.core.tables[1].deadlines == {0: 5.0}
    h.tick(4.5)
    assert h.core.next_deadline() == 5.0


def test_keepalive_looks_ride_on_the_once_a_second_sweep() -> None:
    h = Harness(ping_interval=2.0)
    h.connect("ann")  # said hello at 0: due a ping at 2
    h.tick(1.9)
    assert h.core.next_deadline() == 2.9  # not 2.0: a ping may be a second late
    h.tick(1.0)
    assert h.inbox[1][-1] == {"type": "ping"}


def test_the_lobby_push_is_due_an_interval_after_the_last() -> None:
    h = Harness(lobby_push_interval=0.5)
    ann = h.connect("ann")
    h.connect("ben")
    h.send(ann, {"type": "create_table"})
    h.tick(0.1)  # pushed: the next push may go at 0.6
    assert h.core.next_deadline() == 1.1  # nothing waits
    h.send(ann, {"type": "configure_table", "options": {"target": 61}})
    assert h.core.next_deadline() == 0.6


async def test_an_idle_server_does_not_tick_every_tick_interval() -> None:
    async with running_server(tick_interval=0.02) as server:
        core = server.core
        assert core is not None
        ticks = [0]
        tick = core.tick

        def counted():  # type: ignore[no-untyped-def]
            ticks[0] += 1
            return tick()

        core.tick = counted  # type: ignore[method-assign]
        await asyncio.sleep(0.5)
        # Every 0.02 s this was 25 ticks; sleeping to the next deadline (nothing is due: a
        # second after the last tick), at most one.
        assert ticks[0] <= 1
