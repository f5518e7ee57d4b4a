"""Turn timers: when each timed seat's turn runs out, and when the network layer's writing
of a turn lets its timer run.

A table with a ``turn_timer`` gives every awaiting person's seat a deadline when its turn
is published (:meth:`TurnTimers.turns_published`); the seat's time runs from when the
network layer reports that turn written (:meth:`TurnTimers.turns_sent`, from the
:class:`~noddy.server.core.instructions.TurnTimer` a Send carries), never before: a turn
still on its way (:meth:`TurnTimers.in_flight`) does not run out.  What the server then
plays for a seat whose time is over is the game's business (:mod:`.gameplay`), which asks
here which tables are due (:meth:`TurnTimers.due`).

Owns: the min-heap of deadlines (a stale entry is checked and skipped).  The deadlines
themselves are the table's (``Table.deadlines``, ``Table.turns_in_flight``).
Collaborators (passed in): the open tables and the outbox (whether a turn's connection is
still open).
"""

from __future__ import annotations

import heapq
from typing import TYPE_CHECKING, Any

from noddy.engine import Game

from ..model.table import Table
from .instructions import TurnTimer

if TYPE_CHECKING:
    from .outbox import Outbox
    from .tables import Tables


class TurnTimers:
    """The turn timers' heap and the writing of timed turns; see the module docstring."""

    def __init__(self, outbox: Outbox, tables: Tables) -> None:
        self._outbox = outbox
        self._tables = tables
        #: Min-heap of (when, table id) of turn timers' ends.
        self._timer_due: list[tuple[float, int]] = []

    def schedule(self, table: Table, deadline: float) -> None:
        heapq.heappush(self._timer_due, (deadline, table.id))

    def turns_published(self, table: Table, game: Game, now: float) -> None:
        """The game's turn was published at a timed table: a seat no longer awaited loses its
        deadline, a person newly awaited gets one (a computer never has one)."""
        if table.turn_timer is None:
            return
        awaiting = set(game.awaiting)
        for seat in list(table.deadlines):
            if seat not in awaiting:
                del table.deadlines[seat]
        for seat in awaiting:
            occupant = table.seats[seat]
            if occupant is not None and not occupant.is_computer and seat not in table.deadlines:
                table.deadlines[seat] = now + table.turn_timer
                self.schedule(table, table.deadlines[seat])

    def turns_sent(self, timers: list[TurnTimer], now: float) -> None:
        """The network layer has written turns that carried these timers (see
        :class:`TurnTimer`): each seat's deadline is now at least the time its turn announced
        from ``now``.  Each report counts (the seat was told that much when that turn reached
        it), but only the report of the last turn sent to the seat lets its timer run out."""
        for timer in timers:
            table = self._tables.get(timer.table_id)
            if table is None:
                continue
            deadline = table.deadlines.get(timer.seat)
            if deadline is not None and now + timer.seconds > deadline:
                table.deadlines[timer.seat] = now + timer.seconds
                self.schedule(table, now + timer.seconds)
            in_flight = table.turns_in_flight.get(timer.seat)
            if in_flight is not None and in_flight[1] == timer.seq:
                del table.turns_in_flight[timer.seat]

    def in_flight(self, table: Table, seat: int) -> bool:
        """Whether ``seat``'s turn is still on its way to its connection: sent by the core,
        not yet reported written by the network layer.  A turn sent to a connection that has
        closed, or that the seat's person has left for another, never will be: the seat's
        deadline then stands as it is."""
        in_flight = table.turns_in_flight.get(seat)
        if in_flight is None:
            return False
        occupant = table.seats[seat]
        session = occupant.session if occupant is not None else None
        if session is not None and session.conn == in_flight[0] and self._outbox.text_of(in_flight[0]) is not None:
            return True
        del table.turns_in_flight[seat]
        return False

    def next_due(self) -> float | None:
        """When the first turn timer runs out, if one runs (it may be stale: looked at and skipped)."""
        return self._timer_due[0][0] if self._timer_due else None

    def due(self, now: float) -> list[Table]:
        """The open tables some of whose timers are due by ``now``, in table order (each
        once); the caller plays for their seats, then :meth:`look_again`."""
        timers = self._timer_due
        due_tables: set[int] = set()
        while timers and timers[0][0] <= now:
            due_tables.add(heapq.heappop(timers)[1])
        return [table for table in map(self._tables.get, sorted(due_tables)) if table is not None]

    def look_again(self, table: Table, now: float) -> None:
        """``table``'s deadlines due by ``now`` but not acted on (a paused table, a turn in
        flight) are looked at again at the next tick."""
        for deadline in table.deadlines.values():
            if deadline <= now:
                self.schedule(table, deadline)


def turn_timer(table: Table, seat: int | None, conn_id: int, turn: dict[str, Any] | None,
               ) -> TurnTimer | None:
    """The timer of ``turn`` (a turn message, or None) sent to ``seat``'s connection
    ``conn_id``, if the seat awaits with time left on its turn timer; the table then holds the
    seat's timer until the network layer reports the turn written (see :class:`TurnTimer`).
    A turn that announces no time left (the seat's time ran out while another seat's timeout
    was played) promises nothing, so nothing waits for it."""
    if (turn is None or seat is None or seat not in table.deadlines or seat not in turn["awaiting"]
            or not turn["time_left"]):
        return None
    table.turns_in_flight[seat] = (conn_id, turn["seq"])
    return TurnTimer(table.id, seat, turn["seq"], turn["time_left"])
