"""The state every concern of the core shares, and the plumbing they all send through.

Owns: the one :class:`CoreState` base of :class:`~noddy.server.core.ServerCore`.  Its
``__init__`` makes *all* of the core's state, grouped by the module that owns each part
(the other modules read it there; each says in its opening which parts it touches); its
methods are what every concern uses to answer and to push:

* ``_send`` / ``_reply`` / ``_error`` / ``_close`` queue instructions in ``_out``, and
  ``_flush`` hands them out at the end of an entry point, after queueing a ``TableSaved``
  record for every table a call changed (``_dirty``) -- see ``take_records``;
* ``_to_table`` / ``_to_lobby`` / ``_table_changed`` push to a table's members and to the
  lobby: a table's members at once, the lobby its table news gathered (``_lobby_news``, see
  :mod:`~noddy.server.core.lobby_push`) and pushed by ``_tick_lobby`` at most once an interval;
* the lobby index: ``_in_lobby(session)`` is called wherever a session's place changes so
  that it may now be in the lobby (connected, at no table); ``_lobby_sessions`` reads it.

The concerns are mixins over this base (see :mod:`noddy.server.core` for the list), so a
call from one to another is a plain method call on ``self``, as it was when the core was one
class: the hot path (an action, published to every member) costs no more than it did.  The
calls that cross from one concern to another are declared at the end of :class:`CoreState`
(for the type checker), which makes them the seams a newcomer may rely on.
"""

from __future__ import annotations

import logging
import time
from typing import TYPE_CHECKING, Any, Callable

import noddy
from noddy.protocol import ProtocolError

from ..config import ServerConfig
from .instructions import AS_JSON, Close, Out, Query, Send
from .lobby_push import LobbyNews
from ..model.ratelimit import AddressBuckets, PasswordGuard
from ..model.ratings import RatingBook
from ..storage.record_cache import RecordCache
from ..storage.records import Record, StoredGame, TableSaved
from ..model.session import Connection
from ..model.table import Seat, Session, Table

if TYPE_CHECKING:
    from noddy.engine import Action, Event, Game

log = logging.getLogger("noddy.server")

SERVER_NAME = f"noddy-server/{noddy.__version__}"


class CoreState:
    """Every connection, session and table of one server, and how messages leave it."""

    def __init__(self, config: ServerConfig | None = None,
                 clock: Callable[[], float] = time.monotonic,
                 wall_clock: Callable[[], float] = time.time) -> None:
        self.config = config or ServerConfig()
        self.clock = clock
        #: Seconds since the epoch, for the times kept in game records.
        self.wall_clock = wall_clock
        #: ``(connection id, request id)`` of the request the last ``receive`` handled: the
        #: network layer passes it to :meth:`unstored` if that call's records are not written.
        self.origin: tuple[int, Any] | None = None
        self.closed = False

        # -- shared: the plumbing (this module) --------------------------------------------
        self._out: list[Out] = []
        #: Storage records not yet taken by the network layer (see ``take_records``).
        self._records: list[Record] = []
        #: Tables whose stored state must be written again at the end of this call.
        self._dirty: dict[int, Table] = {}
        #: Tables to look at in ``take_bot_jobs`` (changed since it last ran).
        self._bot_check: set[int] = set()
        # Indexes that spare the hot paths a scan of every session, table or connection (at
        # 1,000 tables those scans were the top of the profile).  Each may hold stale entries:
        # whoever reads one checks the real state, so the index only has to be a superset.
        #: Sessions that may be in the lobby (see :meth:`_in_lobby` and :meth:`_lobby_sessions`).
        self._lobby: dict[Session, None] = {}
        #: The tables changed (or closed) since the lobby was last told (see ``_tick_lobby``).
        self._lobby_news = LobbyNews(self.config.lobby_push_interval)

        # -- connections.py: connections and keepalive -------------------------------------
        self.connections: dict[int, Connection] = {}
        self._next_conn = 1
        #: Open, admitted connections per peer address (the ``max_connections_per_address`` limit).
        self._per_address: dict[str, int] = {}
        #: Min-heap of when each connection is next due a keepalive look (ping or idle drop).
        self._conn_due: list[tuple[float, int]] = []
        self._guests = 0

        # -- lobby.py: sessions and names --------------------------------------------------
        self.sessions: dict[str, Session] = {}
        #: Sessions by the skeleton of their name (see _name_in_use).
        self._names: dict[str, list[Session]] = {}
        #: Chat per address over all its connections.
        self._chat_buckets = AddressBuckets(self.config.chat_rate_per_address,
                                            self.config.chat_burst_per_address)

        # -- seating.py: tables, seats and held places -------------------------------------
        self.tables: dict[int, Table] = {}
        self._next_table = 1
        #: Ids of the tables created from each address (the open ones count against
        #: ``max_tables_per_address``; closed ones are forgotten when the address creates again).
        self._address_tables: dict[str, set[int]] = {}
        #: Wrong table passwords per address (``get_game`` with a password counts too).
        self._password_guard = PasswordGuard(self.config.password_attempts, self.config.password_window,
                                             self.config.password_lockout)
        #: Min-heap of (when, serial, session) of held seats' (and watchers' places') ends.
        self._held_due: list[tuple[float, int, Session]] = []
        self._due_serial = 0

        # -- gameplay.py: games, turn timers and computer players --------------------------
        self._next_game = 1
        #: Min-heap of (when, table id) of turn timers' ends.
        self._timer_due: list[tuple[float, int]] = []
        #: When tick() next re-checks every playing table for computer moves (a safety net).
        self._next_sweep = 0.0

        # -- queries.py: records and ratings -----------------------------------------------
        self.ratings = RatingBook()
        #: Requests that read records, per address (see ``_charge_query``), and the finished
        #: games' records already read (``get_game`` of a long game is costly to read and encode).
        self._query_buckets = AddressBuckets(self.config.query_rate_per_address,
                                             self.config.query_burst_per_address)
        self.record_cache = RecordCache(self.config.record_cache_bytes)

        # -- recovery.py: restore, and tables whose records could not be written -----------
        #: ``table_closed`` for whoever comes back to a table that could not be restored, by
        #: resume token (see ``_table_lost``).
        self._lost_tables: dict[str, dict[str, Any]] = {}
        #: Tables whose records could not be written, with when next to try to take them back
        #: from the database (see :meth:`unstored`); they take no action meanwhile.
        self._paused: dict[int, float] = {}
        #: Paused tables with a ``repair_table`` query out now.
        self._repairing: set[int] = set()
        #: Paused tables already rolled back to what is stored (see :meth:`_repaired`).
        self._rolled_back: set[int] = set()

    def take_records(self) -> list[Record]:
        """The storage records of the calls since the last take, in order (see the module doc
        of :mod:`noddy.server.core`)."""
        records, self._records = self._records, []
        return records

    def _in_lobby(self, session: Session) -> None:
        """``session``'s place changed (it left a table, or came back on a connection): if it
        is now in the lobby (connected, at no table), index it, so that a lobby push need not
        scan every session.  Sessions that leave the lobby are dropped from the index lazily,
        by :meth:`_lobby_sessions`; one already indexed keeps its place in the order."""
        if session.table is None and session.conn is not None:
            self._lobby[session] = None

    def _flush(self) -> list[Out]:
        if self.closed:
            self._records.clear()
        elif self._dirty:
            for table in self._dirty.values():
                if table.id in self.tables and table.id not in self._paused:
                    self._records.append(TableSaved(table.id, self._table_state(table)))
        self._dirty.clear()
        out, self._out = self._out, []
        return out

    def _table_state(self, table: Table) -> dict[str, Any]:
        """What storage keeps of a table to restore it (spectators are not kept)."""
        seats: list[dict[str, Any] | None] = []
        for seat in table.seats:
            if seat is None:
                seats.append(None)
            elif seat.is_computer:
                seats.append({"kind": "computer", "name": seat.name, "level": seat.level})
            else:
                assert seat.session is not None
                seats.append({"kind": "human", "name": seat.name, "token": seat.session.token,
                              "bot": seat.session.bot, "ready": seat.ready})
        live = table.live
        creator = table.creator
        return {
            "id": table.id, "preset": table.preset, "players": table.players,
            "partnerships": table.partnerships, "options": dict(table.options),
            "password": table.password, "turn_timer": table.turn_timer, "status": table.status,
            "games_played": table.games_played, "computers_made": table.computers_made,
            "creator": None if creator is None else creator.token, "seats": seats,
            "game": None if live is None else {"id": live.game_id, "seq_start": live.seq_start},
        }

    def _send(self, conn_id: int | None, message: dict[str, Any]) -> None:
        """Send ``message`` to ``conn_id`` if it is open."""
        how = self._how_to_send(conn_id)
        if how is not None:
            assert conn_id is not None
            text, names = how
            self._out.append(Send(conn_id, message, text, names))

    def _how_to_send(self, conn_id: int | None) -> tuple[bool, tuple[str, ...]] | None:
        """The ``text`` and ``names`` of a :class:`Send` to ``conn_id``, or None if it is not
        open.  A caller sending several messages to one connection asks once."""
        if conn_id is None:
            return None
        conn = self.connections.get(conn_id)
        if conn is None or conn.closing:
            return None
        if not conn.text:
            return AS_JSON
        session = conn.session
        if session is None or session.table is None:
            return True, ()
        return True, tuple("" if seat is None else seat.name for seat in session.table.seats)

    def _close(self, conn: Connection, reason: str) -> None:
        conn.closing = True
        self._out.append(Close(conn.id, reason))

    def _reply(self, conn: Connection, request_id: Any, message: dict[str, Any]) -> None:
        if request_id is not None:
            message = {**message, "id": request_id}
        self._send(conn.id, message)

    def _error(self, conn: Connection, exc: ProtocolError, request_id: Any) -> None:
        log.debug("connection %d: %s: %s", conn.id, exc.code, exc.message)
        self._send(conn.id, exc.to_message(request_id))

    def _to_table(self, table: Table, message: dict[str, Any], exclude: Session | None = None) -> None:
        for session, _seat in table.members():
            if session is not exclude:
                self._send(session.conn, message)

    def _lobby_sessions(self) -> list[Session]:
        """Connected sessions at no table, from the lobby index (pruned of those gone)."""
        lobby = self._lobby
        sessions = self.sessions
        out = []
        for s in list(lobby):
            if s.table is None and s.conn is not None and sessions.get(s.token) is s:
                out.append(s)
            else:
                del lobby[s]
        return out

    def _to_lobby(self, message: dict[str, Any], exclude: Session | None = None) -> None:
        """Push ``message`` to everyone in the lobby at once (not to ``exclude``): a chat line.
        Table news waits for the next lobby push (``_table_changed``, ``_close_table``)."""
        for session in self._lobby_sessions():
            if session is not exclude:
                self._send(session.conn, message)

    def _table_changed(self, table: Table, exclude: Session | None = None,
                       summary: dict[str, Any] | None = None) -> None:
        """Push the table's summary to its members at once (not to ``exclude``: a request's
        own reply carries it), note it for the next lobby push, and have its state stored
        again at the end of this call.  ``summary``: the table's summary as it is now, if
        the caller has just made it (nobody changes a summary once made)."""
        self._dirty[table.id] = table
        self._bot_check.add(table.id)
        self._to_table(table, {"type": "table", "table": table.summary() if summary is None else summary},
                       exclude)
        self._lobby_news.changed(table)

    def _tick_lobby(self, now: float) -> None:
        """Push the lobby its table news if some is waiting and the last push was at least
        ``lobby_push_interval`` ago: each changed table's latest ``table`` (or its
        ``table_closed``), as one :class:`~noddy.server.core.instructions.Lines` object that every
        lobby connection is sent, so the network layer encodes it once (once for JSON, once
        for text) and writes it to each connection in one write."""
        lines = self._lobby_news.take(now, self.tables)
        if lines is None:
            return
        how_to_send = self._how_to_send
        out = self._out
        for session in self._lobby_sessions():
            how = how_to_send(session.conn)
            if how is not None:
                assert session.conn is not None
                out.append(Send(session.conn, lines, *how))

    def _session(self, conn: Connection) -> Session:
        assert conn.session is not None
        return conn.session

    def _find_table(self, table_id: int) -> Table:
        table = self.tables.get(table_id)
        if table is None:
            raise ProtocolError("no_such_table", f"there is no table {table_id}", field="table")
        return table

    def _my_table(self, session: Session) -> Table:
        if session.table is None:
            raise ProtocolError("not_at_table", "you are not at a table")
        return session.table

    def _my_seat(self, session: Session) -> tuple[Table, int]:
        table = self._my_table(session)
        if session.seat is None:
            raise ProtocolError("not_seated", f"you are watching table {table.id}, not seated at it")
        return table, session.seat

    if TYPE_CHECKING:
        # -- the seams: what one concern calls of another, defined in the module named -----
        # connections.py
        def _schedule_conn(self, conn: Connection) -> None: ...
        def _dispatch(self, conn: Connection, message: dict[str, Any], escapes: bool = True) -> None: ...
        # lobby.py
        def _add_session(self, session: Session) -> None: ...
        def _name_in_use(self, name: str) -> bool: ...
        def _hello_again_in_text(self, conn: Connection, request: dict[str, Any]) -> None: ...
        # seating.py
        def _schedule_held(self, session: Session) -> None: ...
        def _computer(self, table: Table, seat: int, level: str) -> Seat: ...
        def _leave(self, table: Table, session: Session) -> None: ...
        def _remove_spectator(self, table: Table, session: Session) -> None: ...
        def _close_table(self, table: Table, reason: str, tell_lobby: bool = True) -> None: ...
        # gameplay.py
        def _schedule_timer(self, table: Table, deadline: float) -> None: ...
        def _start_game(self, table: Table) -> tuple[list[tuple[int, Event]], list[dict[str, Any]]]: ...
        def _publish(self, table: Table, numbered: list[tuple[int, Event]],
                     plain: list[dict[str, Any]]) -> None: ...
        def _finish_game(self, table: Table, game: Game) -> None: ...
        def _apply_action(self, table: Table, game: Game, action: Action,
                          ) -> tuple[list[Event], list[dict[str, Any]]]: ...
        # queries.py
        def _rater(self, table: Table) -> Callable[[Seat], int]: ...
        def _charge_query(self, conn: Connection) -> None: ...
        def _read_game(self, conn: Connection, query: Query) -> None: ...
        def _answer_game(self, conn: Connection, query: Query, result: StoredGame | None) -> None: ...
        # coaching.py
        def _answer_review(self, conn: Connection, query: Query, stored: StoredGame) -> None: ...
        # recovery.py
        def _check_not_paused(self, conn: Connection, kind: str, fields: dict[str, Any]) -> None: ...
        def _repaired(self, table_id: int, result: dict[str, Any] | None, failed: bool) -> list[Out]: ...
