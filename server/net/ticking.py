"""The core's timers: the server sleeps until the next one is due, then ticks the core.

The core keeps its timers (turn timers, held seats and keep-away, paused tables, the lobby's
pushes, keepalive looks) in heaps of its own, and ``ServerCore.next_deadline`` says when the
first that must be exact is due (a second after the last tick at the latest: the parts that
sweep and keepalive looks).  The tick loop sleeps until then rather than waking every
``tick_interval`` (issue 37: an idle local game woke ten times a second for nothing), and a
turn of the event loop that made core calls re-arms it, as a call may set an earlier deadline.

:class:`Ticking` is a mixin of :class:`~noddy.server.net.network.NoddyServer`: the server
starts ``_tick_loop`` as ``_ticker`` and calls ``_arm`` from ``_apply``.
"""

from __future__ import annotations

import asyncio
import math
import time
from collections.abc import Callable

from ..config import ServerConfig
from ..core import ServerCore
from ..core.facade import SWEEP_INTERVAL


class Ticking:
    """The tick loop and its wake-up."""

    #: Set by the server (a dataclass field; never None once it is constructed).
    core: ServerCore | None
    #: The server's way of carrying out a core call's instructions (see ``NoddyServer._apply``).
    _apply: Callable[..., None]
    config: ServerConfig

    def _init_ticking(self) -> None:
        """Not ticking yet; called once by the server's constructor."""
        self._ticker: asyncio.Task[None] | None = None
        #: The tick loop's wake-up: the future it waits on, the loop's timer that resolves
        #: it, when (loop time) that timer fires, and when the loop last ticked.
        self._alarm: "asyncio.Future[None] | None" = None
        self._wake: asyncio.TimerHandle | None = None
        self._wake_at = math.inf
        self._ticked_at = -math.inf
        #: Whether a look at the core's next deadline is due at the end of this turn of the
        #: event loop (see ``_arm_soon``).
        self._arm_due = False

    async def _tick_loop(self) -> None:
        """Tick when the core's next deadline is due (``ServerCore.next_deadline``: a turn
        timer, a lobby push, a paused table; a second after the last tick at the latest), not on a fixed interval: an idle server wakes about once a second.
        ``_apply`` has the wake-up re-armed once the turn of the event loop that made core
        calls is done (``_arm_soon``), as a call may have set an earlier deadline.  Two ticks are never closer than ``tick_interval``, so a deadline that is
        due but cannot be acted on yet (a paused table, a turn still being written) is looked
        at again no more often than the fixed tick used to.

        A core on a clock of its own (a test's fake clock) ticks every ``tick_interval`` as
        before: its time moves when the test says, so no deadline of it can be slept to."""
        assert self.core is not None
        loop = asyncio.get_running_loop()
        self._ticked_at = loop.time()  # the first tick a tick_interval after the start, as before
        try:
            while True:
                self._alarm = loop.create_future()
                self._arm()
                await self._alarm
                self._alarm, self._wake, self._wake_at = None, None, math.inf
                self._ticked_at = loop.time()
                self._apply(self.core.tick())
        finally:
            self._alarm = None
            if self._wake is not None:
                self._wake.cancel()
                self._wake, self._wake_at = None, math.inf

    def _arm_soon(self) -> None:
        """A core call may have set an earlier deadline: look once this turn of the event loop
        is done, however many calls it carries (under load a turn carries dozens, and the look
        -- the core's next deadline, the loop's timer -- cost each of them ~10 µs)."""
        if self._alarm is not None and not self._arm_due:
            self._arm_due = True
            asyncio.get_running_loop().call_soon(self._arm_now)

    def _arm_now(self) -> None:
        self._arm_due = False
        if self._alarm is not None:
            self._arm()

    def _arm(self) -> None:
        """Have the tick loop woken at the core's next deadline, if that is sooner than the
        wake-up already set."""
        core = self.core
        assert core is not None
        loop = asyncio.get_running_loop()
        soonest = self._ticked_at + self.config.tick_interval
        if core.clock is time.monotonic:  # the loop's own clock (asyncio's default)
            when = max(soonest, min(loop.time() + core.next_deadline() - core.clock(),
                                    self._ticked_at + SWEEP_INTERVAL))
        else:
            when = max(soonest, loop.time())
        if when < self._wake_at:
            if self._wake is not None:
                self._wake.cancel()
            self._wake, self._wake_at = loop.call_at(when, self._ring), when

    def _ring(self) -> None:
        """The wake-up is due: the tick loop runs (once, however often it was re-armed)."""
        alarm = self._alarm
        if alarm is not None and not alarm.done():
            alarm.set_result(None)

