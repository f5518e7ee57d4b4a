"""Table closing: the one way an open table ends, for whatever reason.

Owns: whether the server is shutting down (a table closed then stays stored, to be
restored at the next start).  Handles :meth:`TableClosing.close_table` (a table empty, a
match runner's table played out, a table not saved or nobody back after a restart) and
:meth:`TableClosing.close_down` (every table, at shutdown).  It is a part of its own, apart
from :mod:`.seating`, because seating, leaving (:mod:`.leaving`), the held-seat queue
(:mod:`.held_seats`) and recovery all close tables, and closing is the same for each: the
members are told and back in the lobby, the runner of a match table hears it wherever they
are, and the lobby's table news says so.

Collaborators (passed in): the outbox, the sessions (a member whose connection is gone is
forgotten), the lobby's board (members back in the lobby) and the open tables.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from noddy.protocol.closing import closed_message

from ..model.table import FINISHED, PLAYING, Table
from ..storage.records import TableClosed

if TYPE_CHECKING:
    from .lobby_board import LobbyBoard
    from .outbox import Outbox
    from .sessions import Sessions
    from .tables import Tables

log = logging.getLogger("noddy.server")


class TableClosing:
    """Closing tables; see the module docstring."""

    def __init__(self, outbox: Outbox, sessions: Sessions, board: LobbyBoard, tables: Tables) -> None:
        self._outbox = outbox
        self._sessions = sessions
        self._board = board
        self._tables = tables
        #: Set at shutdown: a table closed then stays stored, to be restored.
        self._closing_down = False

    def close_down(self) -> None:
        """The server is shutting down: every table closes, staying stored to be restored."""
        self._closing_down = True
        for table in list(self._tables.values()):
            self.close_table(table, "shutdown", tell_lobby=False)

    def close_table(self, table: Table, reason: str, tell_lobby: bool = True) -> None:
        """Close ``table`` for ``reason`` (a code of :data:`~noddy.protocol.closing.CLOSE_REASONS`):
        its members are told, and back in the lobby.  At shutdown it stays stored, to come
        back at the next start, and the log says so rather than "closed"."""
        message = closed_message(table.id, reason)
        if reason == "shutdown":
            log.info("table %d kept for the next start (the server is shutting down)", table.id)
        else:
            log.info("table %d closed: %s", table.id, message["message"])
        self._tables.removed(table.id)
        if not self._closing_down:  # at shutdown the table stays stored, to be restored
            self._outbox.record(TableClosed(table.id))
        self._outbox.to_table(table, message)
        runner = None if table.match is None else table.match.runner
        if runner is not None and runner.table is not table:  # the runner hears it anywhere
            self._outbox.send(runner.conn, {**message, "games_played": table.games_played})
        for session in table.humans() + table.away():
            session.table, session.seat = None, None
            self._board.arrived(session)
            if session.conn is None:
                self._sessions.forget(session)
        table.status = FINISHED if table.status == PLAYING else table.status
        if tell_lobby:  # with the lobby's next table news (see lobby_push)
            self._board.table_closed(message)
