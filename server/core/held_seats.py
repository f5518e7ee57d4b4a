"""Held seats: a person whose connection is gone keeps their place for a while.

Owns: when held seats and watchers' places run out (the held heap: the held part of
``tick``).  A lost connection (:meth:`HeldSeats.connection_lost`) holds the person's seat,
or watcher's place, for the grace period; recovery holds the places of people restored
from storage the same way (:meth:`HeldSeats.schedule_held`).  When the time is over
(:meth:`HeldSeats.tick`) a watcher's place is given up, a seat between games is freed, and
mid-game a computer stands in until the person takes the seat back (:mod:`.stand_ins`) --
unless nobody is left at the table to play on, when the game waits ``keep_away`` seconds
more.  Between two games of a match going on, the seat is held as for a game (issue 33):
quitting is not resigning.  When the grace period runs out there, the seat is held
``keep_away`` seconds more (the table is told with ``player_away`` again); a person back
meanwhile plays the match's next game.  Only when that time is over too is the seat freed,
and the match is left unfinished, never given up: only ``leave`` or ``resign_match`` gives
a match away.  Nothing is given up at a paused table (its seats
cannot be saved): the look is put off by ``storage_retry``.

This is a part of its own, apart from :mod:`.seating`, because it is about time, not about
requests: it is the only part that keeps a queue of when things are due.

Collaborators (passed in): the config (grace period, storage retry), the clock, the outbox,
the sessions (a person never back is forgotten), the lobby's board, the open tables, the
paused tables, the stand-ins, leaving (:mod:`.leaving`: a seat or a watcher's place given up
for good, a match given up) and table closing (a table whose last person is gone).
"""

from __future__ import annotations

import heapq
import logging
from typing import TYPE_CHECKING, Callable

from ..config import ServerConfig
from ..model.table import FINISHED, PLAYING, Session, Table

if TYPE_CHECKING:
    from .leaving import Leaving
    from .lobby_board import LobbyBoard
    from .outages import PausedTables
    from .outbox import Outbox
    from .sessions import Sessions
    from .stand_ins import StandIns
    from .table_closing import TableClosing
    from .tables import Tables

log = logging.getLogger("noddy.server")


class HeldSeats:
    """The places held for people whose connection is gone; see the module docstring."""

    def __init__(self, config: ServerConfig, clock: Callable[[], float], outbox: Outbox,
                 sessions: Sessions, board: LobbyBoard, tables: Tables, paused: PausedTables,
                 stand_ins: StandIns, leaving: Leaving, closing: TableClosing) -> None:
        self._config = config
        self._clock = clock
        self._outbox = outbox
        self._sessions = sessions
        self._board = board
        self._tables = tables
        self._paused = paused
        self._stand_ins = stand_ins
        self._leaving = leaving
        self._closing = closing
        #: Min-heap of (when, serial, session) of held seats' (and watchers' places') ends.
        self._held_due: list[tuple[float, int, Session]] = []
        self._due_serial = 0
        #: The resume token of each person held ``keep_away`` more between two games of a
        #: match, and when that hold ends (a later, fresh hold is told apart by its time).
        self._kept_for_match: dict[str, float] = {}

    def connection_lost(self, session: Session) -> None:
        """``session``'s connection is gone: forget it in the lobby; at a table, hold its
        place (a seat, or a watcher's place) for the grace period -- but not a seat at a
        finished table, which it leaves at once."""
        session.conn = None
        table = session.table
        if table is None:
            self._sessions.forget(session)
            return
        if session.seat is not None and table.status == FINISHED and (
                table.running_match is None or table.running_match.over):
            # Nothing is at stake at a finished table (but a match going on): a bot that closes
            # after its game must not leave its name held for the grace period (issue 25).
            self._sessions.forget(session)
            self._leaving.leave(table, session)
            return
        session.held_until = self._clock() + self._config.grace_period
        self.schedule_held(session)
        if session.seat is not None:
            log.info("seat %d at table %d held for %s", session.seat + 1, table.id, session.name)
            self._tell_away(table, session, self._config.grace_period)
            self._tables.changed(table)

    def _tell_away(self, table: Table, session: Session, held_for: float) -> None:
        """The table hears that ``session``'s seat is held ``held_for`` seconds."""
        assert session.seat is not None
        self._outbox.to_table(table, {"type": "player_away", "table": table.id, "seat": session.seat,
                                      "name": session.name, "grace": held_for})

    def next_due(self) -> float | None:
        """When the first held seat's time may be up (None: none is held); an entry may be
        stale (its person came back), and the tick then finds nothing to do."""
        return self._held_due[0][0] if self._held_due else None

    def tick(self, now: float) -> None:
        """Held seats and watchers' places whose time is over are given up (not at a paused table)."""
        held = self._held_due
        is_current = self._sessions.is_current
        while held and held[0][0] <= now:
            session = heapq.heappop(held)[2]
            if session.held_until is not None and session.held_until <= now and is_current(session):
                if session.table is not None and session.table.id in self._paused:
                    # Not while the table is paused: its seats cannot be saved.
                    self._due_serial += 1
                    heapq.heappush(held, (now + self._config.storage_retry, self._due_serial, session))
                    continue
                self._expire(session)

    def schedule_held(self, session: Session) -> None:
        if session.held_until is not None:
            self._due_serial += 1
            heapq.heappush(self._held_due, (session.held_until, self._due_serial, session))

    def _expire(self, session: Session) -> None:
        """A held seat's (or a watcher's place's) grace period (or keep-away time) is over."""
        due, session.held_until = session.held_until, None
        table, seat = session.table, session.seat
        if table is not None and seat is not None and table.status == PLAYING:
            if self._stand_ins.keep_waiting(table, session, due):  # nobody here: the game waits
                return self.schedule_held(session)
            log.info("%s did not come back to table %d; a computer stands in", session.name, table.id)
            self._stand_ins.abandon(table, seat, session)  # the session stays: they may take it back
            if not table.humans():
                self._closing.close_table(table, "empty")
            else:
                self._tables.changed(table)
            return
        if table is not None and seat is not None and self._hold_for_match(table, session, due):
            return self.schedule_held(session)
        self._sessions.forget(session)
        if table is not None and seat is None:
            self._leaving.remove_spectator(table, session)
            return
        session.table, session.seat = None, None
        self._board.arrived(session)
        if table is None or seat is None:
            return
        log.info("%s did not come back to table %d", session.name, table.id)
        table.seats[seat] = None  # a match going on stays unfinished: not given up (issue 33)
        if not table.humans():
            self._closing.close_table(table, "empty")
        else:
            self._tables.changed(table)

    def _hold_for_match(self, table: Table, session: Session, due: float | None) -> bool:
        """``session``'s grace period (``due``) ran out between two games of a match going on
        at ``table``: hold the seat ``keep_away`` seconds more (True) -- once: when that time
        is over too, the seat is freed (False), the match left unfinished."""
        match = table.running_match
        if match is None or match.over or table.status == PLAYING:
            return False
        if self._kept_for_match.pop(session.token, None) == due or self._config.keep_away <= 0:
            return False
        keep = self._config.keep_away
        session.held_until = self._kept_for_match[session.token] = self._clock() + keep
        log.info("table %d: %s is away between games of a match; the seat is held %g s more",
                 table.id, session.name, keep)
        self._tell_away(table, session, keep)
        return True
