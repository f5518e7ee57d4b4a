"""The core's one façade: :class:`ServerCore` builds the parts, wires them, and is the only
door the network layer knocks on.

Every entry point does its work through the parts and returns one
:class:`~noddy.server.core.instructions.Effects`: the call's instructions, its storage
records, the computer players' jobs it made due, and the request it handled.  The parts are
built here in the order of their collaborators, so each constructor names every seam of its
part; nothing reaches another part's state but through that part's methods.
"""

from __future__ import annotations

import time
from typing import Any, Callable

from noddy.engine import Action
from noddy.protocol import ProtocolError
from noddy.protocol.i18n import Phrase

from ..config import ServerConfig
from ..model.ratelimit import PasswordGuard
from ..model.ratings import RatingBook
from ..model.table import Table
from ..storage import StoredState
from ..storage.accounts import ACCOUNT_QUERIES
from ..storage.tells import TELL_QUERIES
from ..storage.record_cache import RecordCache
from ..storage.club import EVENT_QUERIES
from .accounts import Accounts
from .club_nights import ClubNights
from .club_tables import ClubTables
from .coaching import Coaching
from .connections import Connections
from .game_ending import GameEnding
from .gameplay import Gameplay
from .held_seats import HeldSeats
from .instructions import BotJob, Effects, PasswordResult, PasswordWork, Query, TurnTimer
from .leaving import Leaving
from .lobby import Lobby
from .lobby_board import LobbyBoard
from .matchmaking import Matchmaking
from .mutes import Mutes
from .outages import LostTables, PausedTables
from .outbox import Outbox
from .publishing import Publisher
from .queries import Queries
from .reception import Reception
from .recovery import Recovery
from .results import Results
from .seating import Seating
from .sessions import Sessions
from .silence import Silence
from .stand_ins import StandIns
from .table_closing import TableClosing
from .table_state import stored_state
from .tables import Tables
from .talk import Talk
from .turn_timers import TurnTimers


#: The longest the core's timers go without a look (the network layer wakes by then at the
#: latest), so an idle server wakes once a second.  The parts that sweep rather than keep a
#: heap -- seat silence and the computer players' safety net (both once a second),
#: challenges running out or withdrawn -- are looked at this often, which is all they ever
#: needed; so are held seats (grace periods, keep-away) and keepalive looks, a second late
#: at most: a ping due every ``ping_interval`` (30 s) or a silent newcomer dropped after
#: ``idle_timeout`` (90 s) loses nothing by it, and 1,000 idle lobby connections, each due
#: at its own moment, are then looked at a second's worth at a time instead of each waking
#: the server on its own.
SWEEP_INTERVAL = 1.0


class ServerCore:
    """Every connection, session and table of one server; see :mod:`noddy.server.core`."""

    def __init__(self, config: ServerConfig | None = None,
                 clock: Callable[[], float] = time.monotonic,
                 wall_clock: Callable[[], float] = time.time) -> None:
        self.config = config = config or ServerConfig()
        self.clock = clock
        #: Seconds since the epoch, for the times kept in game records.
        self.wall_clock = wall_clock
        self.closed = False
        #: When tick() last ran (see next_deadline).
        self._ticked = clock()
        # The rooms that hold state others read, leaves first.
        self.connections = Connections(config)
        self.sessions = Sessions()
        self.ratings = RatingBook()
        self.paused = PausedTables()
        self.lost = LostTables()
        self.mutes = Mutes()
        guard = PasswordGuard(config.password_attempts, config.password_window, config.password_lockout)
        self.outbox = outbox = Outbox(self.connections)
        self.board = LobbyBoard(config.lobby_push_interval, outbox, self.sessions, self.mutes)
        self.tables = Tables(outbox, self.board)
        # The parts that handle requests, each given what it works with.
        self.turn_timers = TurnTimers(outbox, self.tables)
        self.silence = Silence(config, clock, outbox, self.tables)
        self.results = Results(outbox, self.sessions)
        self.ending = GameEnding(clock, wall_clock, outbox, self.tables, self.ratings, self.sessions, self.results)
        self.publisher = Publisher(clock, outbox, self.turn_timers, self.silence, self.ending)
        self.gameplay = Gameplay(config, clock, wall_clock, outbox, self.turn_timers, self.tables, self.paused,
                                 self.publisher, self.ending)
        self.stand_ins = StandIns(config, clock, outbox, self.tables, self.gameplay, self.silence)
        self.closing = TableClosing(outbox, self.sessions, self.board, self.tables)
        self.seating = Seating(config, clock, outbox, self.connections, self.board, self.tables, guard,
                               self.ratings, self.gameplay, self.publisher, self.stand_ins, self.closing)
        self.leaving = Leaving(outbox, self.sessions, self.board, self.tables, self.stand_ins, self.closing,
                               self.results)
        self.held_seats = HeldSeats(config, clock, outbox, self.sessions, self.board, self.tables,
                                    self.paused, self.stand_ins, self.leaving, self.closing)
        self.accounts = Accounts(config, clock, outbox, self.connections, self.tables, self.ratings)
        self.talk = Talk(config, clock, wall_clock, outbox, self.connections, self.sessions, self.accounts,
                         self.mutes)
        self.lobby = Lobby(config, clock, outbox, self.connections, self.sessions, self.board,
                           self.tables, self.ratings, self.lost, self.seating, self.leaving, self.accounts,
                           self.mutes, self.talk, self.results)
        self.queries = Queries(config, clock, outbox, self.connections, self.ratings, guard, self.accounts)
        self.coaching = Coaching(outbox, self.queries)
        self.matchmaking = Matchmaking(config, clock, outbox, self.connections, self.sessions, self.board,
                                       self.tables, self.seating, self.gameplay, self.publisher, self.mutes)
        self.recovery = Recovery(config, clock, outbox, self.connections, self.sessions, self.board,
                                 self.tables, self.ratings, self.paused, self.lost, self.lobby,
                                 self.seating, self.held_seats, self.closing, self.gameplay, self.ending)
        self.club_tables = ClubTables(outbox, self.sessions, self.board, self.tables, self.seating,
                                      self.gameplay, self.publisher, self.closing)
        self.club_nights = ClubNights(config, clock, wall_clock, outbox, self.sessions, self.club_tables)
        handlers: dict[str, Any] = {}
        for part in (self.lobby, self.seating, self.leaving, self.stand_ins, self.gameplay, self.queries,
                     self.coaching, self.matchmaking, self.accounts, self.talk, self.club_nights):
            handlers.update(part.handlers())
        self.reception = Reception(config, clock, outbox, self.connections, self.lobby, self.held_seats,
                                   self.recovery, self.paused, handlers,
                                   heard=self.stand_ins.heard,  # a request ends its person's silence
                                   registered_as=self.accounts.registered_as)  # a refused name's hint

    @property
    def record_cache(self) -> RecordCache:
        return self.queries.record_cache

    def language_of(self, conn_id: int) -> str:
        """The language connection ``conn_id`` reads (English once it is gone): for the
        text adapter's own lines, which it sends without the core."""
        conn = self.connections.get(conn_id)
        return "en" if conn is None else conn.language

    # -- the entry points -------------------------------------------------------------------
    def connect(self, address: str | None = None) -> tuple[int, Effects]:
        """A new connection from ``address`` (an IP; None: unknown, never limited)."""
        conn_id = self.reception.connect(address)
        return conn_id, self._effects()

    def receive(self, conn_id: int, line: bytes) -> Effects:
        """One line (JSON) from a connection."""
        self.reception.receive(conn_id, line)
        return self._effects(self.reception.origin)

    def receive_request(self, conn_id: int, request: dict[str, Any] | ProtocolError | None,
                        finish: Callable[[dict[str, Any]], dict[str, Any]] | None = None,
                        ) -> tuple[bool, Effects]:
        """A line a person typed, as the text adapter read it (see :meth:`Reception.receive_request`)."""
        admitted = self.reception.receive_request(conn_id, request, finish)
        return admitted, self._effects(self.reception.origin)

    def line_too_long(self, conn_id: int) -> Effects:
        self.reception.line_too_long(conn_id)
        return self._effects()

    def disconnect(self, conn_id: int) -> Effects:
        """The connection is gone (closed by either side); hold its seat if it had one."""
        self.reception.disconnect(conn_id)
        return self._effects()

    def tick(self) -> Effects:
        """Time passed: each part looks at what is due by now, in this order.  Only what is
        due is looked at: held seats, turn timers and connections each wait in a heap ordered
        by when they are due (a stale entry is checked and skipped)."""
        self._ticked = now = self.clock()
        self.held_seats.tick(now)  # grace periods over
        self.gameplay.tick(now)  # turn timers, and the computer players' sweep
        self.silence.tick(now)  # the people to move silent long enough: the others are told
        self.recovery.tick(now)  # paused tables due a look
        self.reception.tick(now)  # ping or drop the silent
        self.matchmaking.tick(now)  # challenges run out, or their players left the lobby
        self.club_nights.tick()  # club nights' starts, no-shows and rounds (on the wall clock)
        self.board.tick(now, self.tables.by_id())  # the lobby's table news, last (this tick's too)
        return self._effects()

    def next_deadline(self) -> float:
        """When :meth:`tick` next has something to do, on the core's clock: the earliest of the
        parts' own deadlines (held seats, turn timers, paused tables, the lobby's next push of
        news), and never later than ``SWEEP_INTERVAL`` after the last tick (the sweeps and the
        keepalive looks: a ping or a silent seat's notice loses nothing by coming up to a second
        late).  The network
        layer sleeps until then instead of ticking on a fixed interval, and asks again after
        every call, as a call may have set an earlier deadline.  Cheap: the first item of a
        few heaps.  A deadline may be stale (a timer since moved): the tick then finds
        nothing to do."""
        deadline = self._ticked + SWEEP_INTERVAL
        for due in (self.held_seats.next_due(), self.turn_timers.next_due(), self.paused.next_due(),
                    self.board.next_due(), self.club_nights.next_deadline()):
            if due is not None and due < deadline:
                deadline = due
        return deadline

    def turns_sent(self, timers: list[TurnTimer]) -> None:
        """The network layer has written the Sends that carried ``timers`` (see
        :class:`~noddy.server.core.instructions.TurnTimer`): those seats' turn timers run from
        now.  It only moves deadlines, so it has nothing to send or store, and returns nothing."""
        self.turn_timers.turns_sent(timers, self.clock())

    def bot_moved(self, job: BotJob, action: Action | None) -> Effects:
        """A computer player decided (``None``: it failed).  Stale decisions are dropped."""
        self.gameplay.bot_moved(job, action)
        return self._effects()

    def answer(self, query: Query, result: Any, failed: bool = False) -> Effects:
        """Reply to a :class:`Query` with what storage returned (``failed``: it could not read)."""
        if query.kind == "repair_table":
            self.recovery.repaired(query.args["table"], result, failed)
        elif query.kind in ACCOUNT_QUERIES:
            self.accounts.answer(query, result, failed)
        elif query.kind in EVENT_QUERIES:
            self.club_nights.answer(query, result, failed)
        elif query.kind in TELL_QUERIES:
            self.talk.answer(query, result, failed)
        else:
            self.queries.answer(query, result, failed)
        return self._effects()

    def password_done(self, work: PasswordWork, result: PasswordResult | None) -> Effects:
        """The hashing worker checked or hashed an account password (``None``: it failed)."""
        if work.kind == "login":
            self.lobby.logged_in(work, result)
        else:
            self.accounts.password_done(work, result)
        return self._effects()

    def restore(self, state: StoredState) -> Effects:
        """Once, before any connection: what storage kept (see :meth:`Recovery.restore`)."""
        self.accounts.load(state.accounts)  # first: a restored seat's person may have an account
        self.recovery.restore(state)
        self.club_nights.restore(state.events, state.last_event)  # after the tables: their boards
        return self._effects()

    def unstored(self, table_ids: set[int] | frozenset[int], origin: tuple[int, Any] | None,
                 reason: str = "") -> Effects:
        """The records of a call that changed ``table_ids`` could not be written (see
        :meth:`Recovery.unstored`)."""
        self.recovery.unstored(table_ids, origin, reason)
        return self._effects()

    def shutdown(self) -> Effects:
        """Tell everyone the server is going, close every table and connection.

        Nothing of this is stored: the tables stay open in storage and come back at the
        next start, exactly as after a crash.
        """
        self.closed = True
        self.closing.close_down()
        for conn in self.connections.all():
            if not conn.closing:
                self.outbox.send(conn.id, {"type": "shutdown", "message": Phrase("the server is shutting down")})
                self.outbox.close(conn, "shutdown")
        return self._effects()

    def _stored_state(self, table: Table) -> dict[str, Any] | None:
        """What storage keeps of a changed table, or None: closed, or paused."""
        if table.id in self.tables and table.id not in self.paused:
            return stored_state(table)
        return None

    def _effects(self, origin: tuple[int, Any] | None = None) -> Effects:
        if not self.closed:
            self.club_nights.settle()  # what this call did at the club nights' boards
        out, records = self.outbox.take(self.closed, self._stored_state)
        return Effects(out, records, self.gameplay.take_bot_jobs(), origin, self.outbox.take_passwords())
