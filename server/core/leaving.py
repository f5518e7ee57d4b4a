"""Leaving: a person going from a table for good, and a match given up.

Handles ``leave`` (back to the lobby; mid-game that is a resignation, :mod:`.stand_ins`)
and ``resign_match`` (a match going on given up between its games, staying seated), and
is the one way a person's place at a table ends for good: :meth:`Leaving.leave` (the
request, a ``bye``, a held seat whose time ran out) and :meth:`Leaving.remove_spectator`
(a watcher's held place run out, or a watcher who resumed another session).  Whoever
leaves while their table's match is on gives it up (:meth:`Leaving.give_up_match`): the
other side wins it, its last game's record says so, and they are told the result wherever
they are.  The last person gone closes the table.

Owns: nothing but those rules (the seats are the table's).  It is a part of its own, apart
from :mod:`.seating`, because seating is about coming to a table and its places (which a
limit checks once), while this is about going: the lobby (``bye``, a resumed watcher), the
held-seat queue (:mod:`.held_seats`) and the ``leave`` request all end a place the same way,
and only here does a match end by someone giving it up.

Collaborators (passed in): the outbox (the reply, the match's record), the sessions (a
watcher never back is forgotten), the lobby's board (a person back in the lobby), the open
tables (a change is announced there), the stand-ins (a resignation mid-game), table closing
(a table whose last person left) and the results (a match given up is told to its players
wherever they are).
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any, Callable

from noddy.protocol import ProtocolError
from noddy.protocol.i18n import Phrase

from ..model.session import Connection
from ..model.table import PLAYING, Session, Table
from ..storage.records import MatchResigned
from .places import my_seat, my_table, session_of

if TYPE_CHECKING:
    from .lobby_board import LobbyBoard
    from .outbox import Outbox
    from .results import Results
    from .sessions import Sessions
    from .stand_ins import StandIns
    from .table_closing import TableClosing
    from .tables import Tables

log = logging.getLogger("noddy.server")


class Leaving:
    """People going from tables for good, and matches given up; see the module docstring."""

    def __init__(self, outbox: Outbox, sessions: Sessions, board: LobbyBoard, tables: Tables,
                 stand_ins: StandIns, closing: TableClosing, results: Results) -> None:
        self._outbox = outbox
        self._sessions = sessions
        self._board = board
        self._tables = tables
        self._stand_ins = stand_ins
        self._closing = closing
        self._results = results

    def handlers(self) -> dict[str, Callable[[Connection, dict[str, Any], Any], None]]:
        return {"leave": self.leave_request, "resign_match": self.resign_match}

    # -- requests ---------------------------------------------------------------------------
    def leave_request(self, conn: Connection, f: dict[str, Any], rid: Any) -> None:
        session = session_of(conn)
        table = my_table(session)
        self._outbox.reply(conn, rid, {"type": "ok"})
        self.leave(table, session)
        self._board.greet(session)  # back in the lobby: what it has been saying

    def resign_match(self, conn: Connection, f: dict[str, Any], rid: Any) -> None:
        """A seated person gives up the match going on at their table, between its games,
        and stays seated: the other side wins it, as when they leave (:meth:`give_up_match`),
        and the next ``ready`` starts a new match.  Mid-game it is refused: the game is not
        given up by this (``leave`` resigns the game and the match)."""
        session = session_of(conn)
        table, seat = my_seat(session)
        if table.status == PLAYING:
            raise ProtocolError("game_in_progress", Phrase("a game is being played at table {table}: finish it "
                                                        "first (leave gives up the game and the match)",
                                                        table=table.id))
        if not self.give_up_match(table, seat):
            raise ProtocolError("no_match", Phrase("no match is going on at table {table}", table=table.id))
        self._outbox.reply(conn, rid, {"type": "table", "table": table.summary()})
        self._tables.changed(table, exclude=session)

    # -- going for good ----------------------------------------------------------------------
    def leave(self, table: Table, session: Session) -> None:
        """``session`` goes back to the lobby.  Mid-game that is a resignation: a loss for its
        side at once; in a game of two sides the game ends, else a computer plays the seat on."""
        seat = session.seat
        session.table, session.seat = None, None
        self._board.arrived(session)
        if session in table.spectators:
            table.spectators.remove(session)
        if seat is not None and table.status == PLAYING:
            self._stand_ins.resign(table, seat, session.name)
        elif seat is not None:
            table.seats[seat] = None
        if seat is not None:
            self.give_up_match(table, seat)
        if not table.humans():
            self._closing.close_table(table, "empty")
        else:
            self._tables.changed(table)

    def give_up_match(self, table: Table, seat: int) -> bool:
        """``seat``'s person left, or gave the match up, while the table's match was on: the
        match is given up, and its last game's record says so.  False: no match was on."""
        resigned = table.resign_match(seat)
        if resigned is not None and table.live is not None:
            self._outbox.record(MatchResigned(table.live.game_id, resigned, table.id))
            match = table.running_match
            name = match.names[seat] if match is not None and seat < len(match.names) else None
            log.info("table %d: %s (seat %d) gives up the match", table.id, name, seat + 1)
            if name is not None:  # told the result, wherever they are now (issue 33)
                self._results.match_given_up(table, seat, name, resigned)
        return resigned is not None

    def remove_spectator(self, table: Table, session: Session) -> None:
        """A watcher's place ends for good (its hold ran out, or it resumed another session):
        back in the lobby and forgotten; the table closes if nobody is left."""
        table.spectators.remove(session)
        session.table = None
        self._board.arrived(session)
        self._sessions.forget(session)
        if not table.humans():
            self._closing.close_table(table, "empty")
        else:
            self._tables.changed(table)
