"""The server core: lobby, tables and games as a sans-IO state machine.

Theory of operation
===================

The core never touches a socket, a clock it was not given, or a thread.  The network layer
(:mod:`noddy.server.network`) tells it what happened and carries out what it returns:

* ``connect(address)`` -> a new connection id (and the greeting to send, or a
  ``too_many_connections`` error and a close when the address holds too many already);
* ``receive(conn, line)`` -> one line from a connection;
* ``line_too_long(conn)`` / ``disconnect(conn)`` -> the connection broke its limit / went away;
* ``tick()`` -> time passed: grace periods, turn timers and keepalive are checked;
* ``take_bot_jobs()`` / ``bot_moved(job, action)`` -> computer players are asked to decide
  off the event loop and their decisions come back (ignored if the game moved on meanwhile);
* ``shutdown()`` -> goodbye to everyone (the tables stay stored, to be restored);
* ``restore(state)`` -> once, before any connection: the open tables, games and ratings that
  storage kept (:mod:`noddy.server.storage`), rebuilt by replaying each game's actions.

Each call returns a list of :class:`Send` and :class:`Close` instructions, and may return
:class:`Query` instructions: a reply that needs stored data, which the network layer reads
and gives back to ``answer(query, result)``.  Each call may also leave *storage records*
(:mod:`noddy.server.records`: tables, games, actions, ratings) for ``take_records()``; the
network layer must have them written before it carries out that call's instructions, so what
anyone was told has happened is always on disk first.  Every request is
validated completely before anything changes (the engine does the same for actions), so a
refused request changes nothing and the connection stays open; only ``line_too_long``,
``flood`` and ``too_many_connections`` close a connection.

Who hears what: a request gets exactly one direct reply (its result or an ``error``, with the
request's ``id``).  Changes are pushed: a table's summary to its members and to everyone in
the lobby; game ``event`` and ``turn`` messages to the table's members, each redacted for the
member's own seat (:mod:`noddy.server.table`).
"""

from __future__ import annotations

import heapq
import logging
import math
import time
from dataclasses import dataclass
from typing import Any, Callable

import noddy
from noddy.bots import LEVELS, Player, get_player
from noddy.engine import (
    PRESETS,
    Action,
    Discard,
    Event,
    Go,
    NoddyError,
    Observation,
    Play,
    Rules,
    Game,
    configure,
)
from noddy.protocol import (
    PROTOCOL_VERSION,
    SUPPORTED_VERSIONS,
    ProtocolError,
    decode_line,
    validate_request,
)
from noddy.protocol.errors import ERROR_CODES
from noddy.protocol.names import normal_name, skeleton
from noddy.protocol.requests import MAX_PLAYERS, request_id_of
from noddy.protocol.text import clean_text

from . import text_mode
from .config import ServerConfig
from .passwords import hash_password, password_matches
from .ratings import FAMILIES, RatingBook, Rated, family_of
from .records import (ActionApplied, GameBegun, GameFinished, Record, StoredGame, TableClosed, TableSaved,
                      replay)
from .ratelimit import AddressBuckets, PasswordGuard, TokenBucket
from .record_cache import RecordCache
from .session import Connection, Session
from .storage import StoredState
from .table import FINISHED, PLAYING, LiveGame, Seat, Table

log = logging.getLogger("noddy.server")

SERVER_NAME = f"noddy-server/{noddy.__version__}"


# The instructions are plain slotted dataclasses, not frozen ones: a frozen dataclass's
# __init__ sets each field through object.__setattr__, which made building the ~7 Sends of a
# game request show in the profile.  Nothing hashes or changes an instruction once made.
@dataclass(slots=True)
class Send:
    """Write ``message`` to connection ``conn`` (as readable text if ``text``)."""

    conn: int
    message: dict[str, Any]
    text: bool = False
    #: For a text connection at a table: the seats' names, so it reads "ann plays 5H".
    names: tuple[str, ...] = ()


@dataclass(slots=True)
class Close:
    """Close connection ``conn`` once what was sent before has been written."""

    conn: int
    reason: str


@dataclass(slots=True)
class Query:
    """Read ``kind`` (``list_games``, ``get_game``) from storage; pass the result to
    :meth:`ServerCore.answer`, which replies to request ``request_id`` on ``conn``."""

    conn: int
    request_id: Any
    kind: str
    args: dict[str, Any]


Out = Send | Close | Query

#: ``(text, names)`` of every Send to a JSON connection (see ServerCore._how_to_send).
_AS_JSON: tuple[bool, tuple[str, ...]] = (False, ())


@dataclass(frozen=True)
class BotJob:
    """A computer player's decision to be made off the event loop."""

    table_id: int
    game_number: int
    seat: int
    player: Player
    view: Observation
    rules: Rules

    def run(self) -> Action:
        return self.player.choose(self.view, self.rules)


class ServerCore:
    """Every connection, session and table of one server; see the module docstring."""

    def __init__(self, config: ServerConfig | None = None,
                 clock: Callable[[], float] = time.monotonic,
                 wall_clock: Callable[[], float] = time.time) -> None:
        self.config = config or ServerConfig()
        self.clock = clock
        #: Seconds since the epoch, for the times kept in game records.
        self.wall_clock = wall_clock
        self.ratings = RatingBook()
        #: Storage records not yet taken by the network layer (see ``take_records``).
        self._records: list[Record] = []
        #: Tables whose stored state must be written again at the end of this call.
        self._dirty: dict[int, Table] = {}
        #: The current game of each table that has one (its storage bookkeeping).
        self._next_game = 1
        #: ``table_closed`` for whoever comes back to a table that could not be restored, by
        #: resume token (see ``_table_lost``).
        self._lost_tables: dict[str, dict[str, Any]] = {}
        self.connections: dict[int, Connection] = {}
        self.sessions: dict[str, Session] = {}
        self.tables: dict[int, Table] = {}
        self._next_conn = 1
        self._next_table = 1
        self._guests = 0
        self._out: list[Out] = []
        #: Tables to look at in ``take_bot_jobs`` (changed since it last ran).
        self._bot_check: set[int] = set()
        #: Open, admitted connections per peer address (the ``max_connections_per_address`` limit).
        self._per_address: dict[str, int] = {}
        #: Ids of the tables created from each address (the open ones count against
        #: ``max_tables_per_address``; closed ones are forgotten when the address creates again).
        self._address_tables: dict[str, set[int]] = {}
        #: Chat per address over all its connections, and wrong table passwords per address.
        self._chat_buckets = AddressBuckets(self.config.chat_rate_per_address,
                                            self.config.chat_burst_per_address)
        self._password_guard = PasswordGuard(self.config.password_attempts, self.config.password_window,
                                             self.config.password_lockout)
        #: Requests that read records, per address (see ``_charge_query``), and the finished
        #: games' records already read (``get_game`` of a long game is costly to read and encode).
        self._query_buckets = AddressBuckets(self.config.query_rate_per_address,
                                             self.config.query_burst_per_address)
        self.record_cache = RecordCache(self.config.record_cache_bytes)
        # Indexes that spare the hot paths a scan of every session, table or connection (at
        # 1,000 tables those scans were the top of the profile).  Each may hold stale entries:
        # whoever reads one checks the real state, so the index only has to be a superset.
        #: Sessions that may be in the lobby (kept by Session.__setattr__; see _lobby_sessions).
        self._lobby: dict[Session, None] = {}
        #: Sessions by the skeleton of their name (see _name_in_use).
        self._names: dict[str, list[Session]] = {}
        #: Min-heaps of (when, ...) for tick(): held seats' ends, turn timers' ends, and when
        #: each connection is next due a keepalive look (ping or idle drop).
        self._held_due: list[tuple[float, int, Session]] = []
        self._timer_due: list[tuple[float, int]] = []
        self._conn_due: list[tuple[float, int]] = []
        self._due_serial = 0
        #: When tick() next re-checks every playing table for computer moves (a safety net).
        self._next_sweep = 0.0
        #: Tables whose records could not be written, with when next to try to take them back
        #: from the database (see :meth:`unstored`); they take no action meanwhile.
        self._paused: dict[int, float] = {}
        #: Paused tables with a ``repair_table`` query out now.
        self._repairing: set[int] = set()
        #: Paused tables already rolled back to what is stored (see :meth:`_repaired`).
        self._rolled_back: set[int] = set()
        #: ``(connection id, request id)`` of the request the last ``receive`` handled: the
        #: network layer passes it to :meth:`unstored` if that call's records are not written.
        self.origin: tuple[int, Any] | None = None
        self.closed = False

    # == entry points ======================================================================
    def connect(self, address: str | None = None) -> tuple[int, list[Out]]:
        """A new connection from ``address`` (an IP; None: unknown, never limited)."""
        now = self.clock()
        conn = Connection(self._next_conn, TokenBucket(self.config.rate, self.config.burst, now), now)
        self._next_conn += 1
        self.connections[conn.id] = conn
        limit = self.config.max_connections_per_address
        if address is not None:
            open_here = self._per_address.get(address, 0)
            if limit and open_here >= limit:
                log.warning("connection %d refused: %s already has %d connections open",
                            conn.id, address, open_here)
                conn.text = False
                self._error(conn, ProtocolError(
                    "too_many_connections",
                    f"your address already has {open_here} connections open (the limit); closing"), None)
                self._close(conn, "too many connections")
                return conn.id, self._flush()
            conn.address = address
            self._per_address[address] = open_here + 1
        self._schedule_conn(conn)
        log.info("connection %d opened", conn.id)
        self._send(conn.id, {
            "type": "greeting", "server": SERVER_NAME, "version": PROTOCOL_VERSION,
            "help": "Type help and press Enter to play by text; "
                    "programs send a JSON hello (see docs/PROTOCOL.md).",
        })
        return conn.id, self._flush()

    def receive(self, conn_id: int, line: bytes) -> list[Out]:
        self.origin = None
        conn = self.connections.get(conn_id)
        if conn is None or conn.closing:
            return []
        stripped = line.strip()
        if not stripped:
            return []
        now = self.clock()
        conn.last_seen = now
        conn.pinged = False
        if conn.text is None:
            conn.text = not stripped.startswith(b"{")
        wait = conn.bucket.take(now)
        if wait > 0:
            request_id = None if conn.text else _quiet_id(stripped)
            if conn.bucket.strikes > self.config.flood_strikes:
                self._error(conn, ProtocolError("flood", "too many requests; closing the connection"),
                            request_id)
                self._close(conn, "flood")
            else:
                self._error(conn, ProtocolError(
                    "rate_limited", f"too many requests; wait {wait:.2f} s",
                    retry_after=math.ceil(wait * 100) / 100), request_id)  # never too soon
            return self._flush()
        if conn.text:
            self._receive_text(conn, stripped.decode("utf-8", errors="replace"))
        else:
            try:
                message = decode_line(stripped)
            except ProtocolError as exc:
                self._error(conn, exc, None)
            else:
                self._dispatch(conn, message)
        return self._flush()

    def line_too_long(self, conn_id: int) -> list[Out]:
        conn = self.connections.get(conn_id)
        if conn is not None and not conn.closing:
            self._error(conn, ProtocolError(
                "line_too_long", f"a line may hold at most {self.config.max_line} bytes; closing"), None)
            self._close(conn, "line too long")
        return self._flush()

    def disconnect(self, conn_id: int) -> list[Out]:
        """The connection is gone (closed by either side); hold its seat if it had one."""
        conn = self.connections.pop(conn_id, None)
        if conn is None:
            return []
        if conn.address is not None:
            left = self._per_address.pop(conn.address) - 1
            if left:
                self._per_address[conn.address] = left
        log.info("connection %d closed", conn_id)
        session = conn.session
        if session is None or session.conn != conn_id:
            return self._flush()
        session.conn = None
        table = session.table
        if table is None:
            self.sessions.pop(session.token, None)
        elif session.seat is None:  # a watcher may resume too, within the grace period
            session.held_until = self.clock() + self.config.grace_period
            self._schedule_held(session)
        else:
            session.held_until = self.clock() + self.config.grace_period
            self._schedule_held(session)
            log.info("seat %d at table %d held for %s", session.seat, table.id, session.name)
            self._to_table(table, {"type": "player_away", "table": table.id, "seat": session.seat,
                                   "name": session.name, "grace": self.config.grace_period})
            self._table_changed(table)
        return self._flush()

    def tick(self) -> list[Out]:
        """Only what is due is looked at: held seats, turn timers and connections each wait in
        a heap ordered by when they are due (a stale entry is checked and skipped)."""
        now = self.clock()
        held = self._held_due
        while held and held[0][0] <= now:
            session = heapq.heappop(held)[2]
            if (session.held_until is not None and session.held_until <= now
                    and self.sessions.get(session.token) is session):
                if session.table is not None and session.table.id in self._paused:
                    # Not while the table is paused: its seats cannot be saved.
                    self._due_serial += 1
                    heapq.heappush(held, (now + self.config.storage_retry, self._due_serial, session))
                    continue
                self._expire(session)
        timers = self._timer_due
        due_tables: set[int] = set()
        while timers and timers[0][0] <= now:
            due_tables.add(heapq.heappop(timers)[1])
        for table_id in sorted(due_tables):
            table = self.tables.get(table_id)
            if table is not None:
                if table_id not in self._paused:
                    self._check_turn_timer(table, now)
                for deadline in table.deadlines.values():  # due but not acted on: look again
                    if deadline <= now:
                        self._schedule_timer(table, deadline)
        if now >= self._next_sweep:
            # Every change already marks its table for take_bot_jobs; this sweep is only a
            # safety net, so once a second is plenty.
            self._next_sweep = now + 1.0
            for table in self.tables.values():
                if table.status == PLAYING:
                    self._bot_check.add(table.id)
        for table_id, due in self._paused.items():
            if due <= now and table_id not in self._repairing:
                self._repairing.add(table_id)
                self._out.append(Query(0, None, "repair_table",
                                       {"table": table_id, "write": table_id in self._rolled_back}))
        conns = self._conn_due
        due_conns = []
        while conns and conns[0][0] <= now:
            due_conns.append(heapq.heappop(conns)[1])
        for conn_id in due_conns:
            conn = self.connections.get(conn_id)
            if conn is None or conn.closing:
                continue
            self._keepalive(conn, now)
            if not conn.closing:
                self._schedule_conn(conn)
        return self._flush()

    def _keepalive(self, conn: Connection, now: float) -> None:
        """Ping a silent connection, or drop it when it has been silent too long.

        Text-mode connections too: a silent one would otherwise hold its socket (and its
        name) for ever.  A person at a terminal reads the ping as a question, and is told
        why before the connection is closed; a JSON client is dropped without a message."""
        idle = now - conn.last_seen
        if idle >= self.config.idle_timeout:
            # Before hello nobody is pinged, but a connection that says nothing (or stops in
            # the middle of a line) must not hold its socket for ever either.
            log.info("connection %d silent for %.0f s%s; dropping it", conn.id, idle,
                     " before hello" if conn.session is None else "")
            if conn.text:
                self._send(conn.id, {"type": "bye", "reason": f"silent for {self.config.idle_timeout:g} s, "
                                     "the idle limit; closing the connection"})
            self._close(conn, "idle")
        elif conn.session is not None and idle >= self.config.ping_interval and not conn.pinged:
            conn.pinged = True
            self._send(conn.id, {"type": "ping"})

    def _schedule_conn(self, conn: Connection) -> None:
        """Put ``conn`` in the keepalive heap at the next moment tick() may act on it (if its
        last_seen moves on meanwhile, tick() finds nothing to do then and schedules it again)."""
        config = self.config
        due = conn.last_seen + config.idle_timeout
        if conn.session is not None and not conn.pinged:
            due = min(due, conn.last_seen + config.ping_interval)
        heapq.heappush(self._conn_due, (due, conn.id))

    def _schedule_held(self, session: Session) -> None:
        if session.held_until is not None:
            self._due_serial += 1
            heapq.heappush(self._held_due, (session.held_until, self._due_serial, session))

    def _schedule_timer(self, table: Table, deadline: float) -> None:
        heapq.heappush(self._timer_due, (deadline, table.id))

    def _add_session(self, session: Session) -> None:
        """A new session: in ``sessions`` and in the indexes of names and of the lobby."""
        self.sessions[session.token] = session
        self._names.setdefault(skeleton(session.name), []).append(session)
        session.lobby = self._lobby

    def take_bot_jobs(self) -> list[BotJob]:
        """Decisions computer players owe now; each is handed out once."""
        jobs = []
        # Only tables that changed since the last call can owe a decision (tick() adds every
        # playing table as a safety net): scanning all tables per request was the hot spot.
        check, self._bot_check = self._bot_check, set()
        for table_id in check:
            table = self.tables.get(table_id)
            if table is None:
                continue
            game = table.game
            if table.status != PLAYING or game is None or table_id in self._paused:
                continue
            for seat in game.awaiting:
                occupant = table.seats[seat]
                if occupant is None or occupant.player is None or seat in table.thinking:
                    continue
                table.thinking.add(seat)
                jobs.append(BotJob(table.id, table.games_played, seat, occupant.player,
                                   game.observation(seat), game.rules))
        return jobs

    def bot_moved(self, job: BotJob, action: Action | None) -> list[Out]:
        """A computer player decided (``None``: it failed).  Stale decisions are dropped."""
        table = self.tables.get(job.table_id)
        if table is None or table.games_played != job.game_number:
            return []
        table.thinking.discard(job.seat)
        self._bot_check.add(table.id)
        game = table.game
        occupant = table.seats[job.seat]
        if (table.status != PLAYING or game is None or occupant is None or table.id in self._paused
                or occupant.player is not job.player or job.seat not in game.awaiting):
            return self._flush()
        legal = game.legal_actions(job.seat)
        if action not in legal:
            log.error("computer player %s at table %d seat %d chose %r; playing %s instead",
                      occupant.level, table.id, job.seat, action, legal[0])
            action = legal[0]
        self._stream(table, *self._apply_action(table, game, action))
        return self._flush()

    def take_records(self) -> list[Record]:
        """The storage records of the calls since the last take, in order (see the module doc)."""
        records, self._records = self._records, []
        return records

    def answer(self, query: Query, result: Any, failed: bool = False) -> list[Out]:
        """Reply to a :class:`Query` with what storage returned (``failed``: it could not read)."""
        if query.kind == "repair_table":
            return self._repaired(query.args["table"], result, failed)
        if query.kind == "get_game" and result is not None and not failed:
            result = self.record_cache.put(query.args["game"], result)  # finished: it never changes
        conn = self.connections.get(query.conn)
        if conn is None or conn.closing:
            return []
        if failed:
            self._error(conn, ProtocolError("storage_unavailable",
                                            "the server could not read its records; try again"),
                        query.request_id)
        elif query.kind == "list_games":
            self._reply(conn, query.request_id, {"type": "games", "name": query.args["name"],
                                                 "games": result})
        else:
            self._answer_game(conn, query, result)
        return self._flush()

    def _answer_game(self, conn: Connection, query: Query, result: StoredGame | None) -> None:
        """Reply to ``get_game`` with the game storage or the record cache gave (None: no
        such finished game), if the asker may read it."""
        if result is None or not result.visible_to(query.args["viewer"], query.args["password"]):
            # A private table's game that the asker may not read is answered as if it did
            # not exist: the refusal does not even confirm that there is such a game.  A
            # password given in vain counts against the address like a wrong one at a
            # table (whether the game exists or not, so the lock-out tells nothing either).
            if query.args["password"] is not None and conn.address is not None:
                self._password_guard.failed(conn.address, self.clock())
            self._error(conn, ProtocolError("no_such_game", f"there is no finished game {query.args['game']}",
                                            field="game"), query.request_id)
        else:
            self._reply(conn, query.request_id, {"type": "game_record", "record": result.record})

    # == when storage fails ================================================================
    def unstored(self, table_ids: set[int] | frozenset[int], origin: tuple[int, Any] | None,
                 reason: str = "") -> list[Out]:
        """The records of a call that changed ``table_ids`` could not be written, so what the
        call did is not acknowledged: the network layer has dropped its messages, and the
        request it came from (``origin``) is refused with ``storage_unavailable``.

        Each of those tables is *paused* (it takes no action, its computers and turn timers
        wait) and its people are told so.  Storage refuses the table's later records until
        the table is taken back, so nothing is ever written on top of a gap (and another
        table's records never fail with these).  At the next :meth:`tick` the table is rolled
        back to what is stored (a read, which a failing disk usually still allows), so
        nobody sees what was not saved; then every ``storage_retry`` seconds storage is asked
        whether it takes writes again, and once it does the table goes on (:meth:`_repaired`).
        """
        now = self.clock()
        newly = sorted(t for t in table_ids if t not in self._paused)
        for table_id in newly:
            self._paused[table_id] = now
            self._rolled_back.discard(table_id)
        if newly:
            log.error("the records of table%s %s could not be written (%s): paused until the "
                      "database takes them", "s" if len(newly) > 1 else "",
                      ", ".join(map(str, newly)), reason or "storage failed")
        for table_id in newly:
            table = self.tables.get(table_id)
            if table is not None:
                self._to_table(table, ProtocolError(
                    "storage_unavailable", f"the server cannot save table {table_id}'s game right "
                    f"now, so it is paused; it goes on by itself once it can save again",
                    table=table_id).to_message())
        if origin is not None:
            conn = self.connections.get(origin[0])
            if conn is not None and not conn.closing:
                self._error(conn, ProtocolError(
                    "storage_unavailable", "the server could not save that, so it did not "
                    "happen; try again later"), origin[1])
        return self._flush()

    def _repaired(self, table_id: int, result: dict[str, Any] | None, failed: bool) -> list[Out]:
        """Storage answered ``repair_table``: rebuild the table from what is stored (rolled
        back, still paused; or, once storage takes writes again, going on), or try again
        later."""
        self._repairing.discard(table_id)
        now = self.clock()
        if table_id not in self._paused:
            return self._flush()
        if failed or result is None:
            log.debug("table %d: the database still fails; trying again in %.1f s",
                      table_id, self.config.storage_retry)
            self._paused[table_id] = now + self.config.storage_retry
            return self._flush()
        if result["writable"]:
            del self._paused[table_id]
            self._rolled_back.discard(table_id)
            log.warning("table %d: the database takes writes again; the table goes on from where "
                        "it was last saved", table_id)
        else:
            self._paused[table_id] = now + self.config.storage_retry
            self._rolled_back.add(table_id)
        # The ratings of a game whose end was not stored would otherwise count twice.
        self.ratings.standings.clear()
        self.ratings.load(result["ratings"])
        old = self.tables.get(table_id)
        saved = result["table"]
        if old is None:
            if saved is not None:  # closed here, but the closing was what failed
                self._records.append(TableClosed(table_id))
            return self._flush()
        if saved is None:
            self._close_table(old, "the server could not save this table")
            return self._flush()
        live = {session.token: session for session in old.humans()}
        try:
            table = self._restore_table(saved, result["record"], now, live)
        except (NoddyError, ValueError, KeyError, TypeError) as exc:
            log.error("table %d cannot be rebuilt from the database (%s); closing it", table_id, exc)
            self.tables[table_id] = old
            self._paused.pop(table_id, None)
            self._close_table(old, "the server could not save this table")
            return self._flush()
        seated = {id(s.session) for s in table.seats if s is not None and s.session is not None}
        for session in old.spectators:
            if id(session) not in seated:
                session.table, session.seat = table, None
                table.spectators.append(session)
        for session in old.humans():
            if session.table is old:  # sat down after the last save: back to the lobby
                session.table, session.seat = None, None
                if session.conn is None:
                    self.sessions.pop(session.token, None)
        for session, seat in table.members():
            self._send(session.conn, table.snapshot(seat, now))
        self._table_changed(table)
        return self._flush()

    def restore(self, state: StoredState) -> list[Out]:
        """Bring back what storage kept: ratings, ids, and every open table with its game.

        Each game is dealt again from its seed and its stored actions are applied, so it is
        exactly where it was.  Seated people are disconnected now, so their seats are held
        for a fresh grace period: they come back with their resume tokens.  A table with no
        person seated at it is closed, as it would have been when its last person left.
        """
        self.ratings.load(state.ratings)
        self._next_table = max(self._next_table, state.next_table)
        self._next_game = max(self._next_game, state.next_game)
        now = self.clock()
        for saved, record in state.tables:
            try:
                table = self._restore_table(saved, record, now)
            except (NoddyError, ValueError, KeyError, TypeError) as exc:
                log.error("table %s cannot be restored (%s); closing it", saved.get("id"), exc)
                self._records.append(TableClosed(saved["id"]))
                self._table_lost(saved, now)
                continue
            if table.game is not None and table.game.is_over and record is not None \
                    and record["status"] == "playing":
                # Won at the deal by an older server, which never recorded such a game's end.
                self._finish_game(table, table.game)
            if not any(s is not None and s.session is not None for s in table.seats):
                self._close_table(table, "nobody came back")
            else:
                log.info("table %d restored (%s, %s)", table.id, table.preset, table.status)
        self._dirty.clear()
        return self._flush()

    def _table_lost(self, saved: dict[str, Any], now: float) -> None:
        """A stored table could not be rebuilt: the people seated at it are held in the
        lobby for the grace period (their resume tokens still work), and whoever comes back
        is told the table is gone (``table_closed``) instead of finding a table that exists
        nowhere.  ``saved`` may be damaged: only what reads as a seat is used."""
        message = {"type": "table_closed", "table": saved["id"],
                   "reason": "it could not be restored after the server restarted"}
        seats = saved.get("seats")
        for seat in seats if isinstance(seats, list) else []:
            if not (isinstance(seat, dict) and seat.get("kind") == "human"
                    and isinstance(seat.get("token"), str) and isinstance(seat.get("name"), str)):
                continue
            session = self.sessions.get(seat["token"])  # made already if it failed later
            if session is None:
                session = Session(seat["name"], bool(seat.get("bot")), None, token=seat["token"])
                session.held_until = now + self.config.grace_period
                self._add_session(session)
                self._schedule_held(session)
            session.table, session.seat = None, None
            self._lost_tables[session.token] = message

    def _restore_table(self, saved: dict[str, Any], record: dict[str, Any] | None, now: float,
                       live: dict[str, Session] | None = None) -> Table:
        """A table as storage kept it; seated people are held sessions, or (``live``: the
        sessions at the table, by token, when a paused table is rebuilt) the same sessions."""
        rules = configure(saved["preset"], saved["players"], partnerships=saved["partnerships"],
                          options=saved["options"])
        table = Table(saved["id"], rules, rules.name, saved["players"], saved["partnerships"],
                      dict(saved["options"]), password=saved["password"], turn_timer=saved["turn_timer"])
        table.rate = self._rater(table)
        table.games_played = saved["games_played"]
        table.computers_made = saved["computers_made"]
        for index, seat in enumerate(saved["seats"]):
            if seat is None:
                continue
            if seat["kind"] == "computer":
                table.seats[index] = self._computer(table, index, seat["level"])
                continue
            session = live.get(seat["token"]) if live else None
            if session is None:
                session = Session(seat["name"], seat["bot"], None, token=seat["token"])
                session.held_until = now + self.config.grace_period
                self._add_session(session)
                self._schedule_held(session)
            session.table, session.seat = table, index
            table.seats[index] = Seat(session.name, session=session, ready=seat["ready"])
            if seat["token"] == saved.get("creator"):
                table.creator = session
        table.status = saved["status"]
        game_info = saved.get("game")
        if game_info is not None and record is not None:
            game = replay(record)
            table.game = game
            table.seq = game_info["seq_start"]
            table.record(game.log)
            table.live = LiveGame(record["id"], game_info["seq_start"], record["seats"],
                                  len(record["steps"]))
            if game.is_over:
                table.status = FINISHED
            elif table.status == PLAYING and table.turn_timer is not None:
                for seat_index in game.awaiting:
                    occupant = table.seats[seat_index]
                    if occupant is not None and not occupant.is_computer:
                        table.deadlines[seat_index] = now + table.turn_timer
                        self._schedule_timer(table, table.deadlines[seat_index])
        elif table.status == PLAYING:
            raise ValueError("a playing table without its game")
        self.tables[table.id] = table
        return table

    def shutdown(self) -> list[Out]:
        """Tell everyone the server is going, close every table and connection.

        Nothing of this is stored: the tables stay open in storage and come back at the
        next start, exactly as after a crash.
        """
        self.closed = True
        for table in list(self.tables.values()):
            self._close_table(table, "the server is shutting down", tell_lobby=False)
        for conn in list(self.connections.values()):
            if not conn.closing:
                self._send(conn.id, {"type": "shutdown", "message": "the server is shutting down"})
                self._close(conn, "shutdown")
        return self._flush()

    # == plumbing ==========================================================================
    def _flush(self) -> list[Out]:
        if self.closed:
            self._records.clear()
        else:
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
            return _AS_JSON
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
        for session in self._lobby_sessions():
            if session is not exclude:
                self._send(session.conn, message)

    def _table_changed(self, table: Table, exclude: Session | None = None) -> None:
        """Push the table's summary to its members and the lobby (not to ``exclude``), and
        have its state stored again at the end of this call."""
        self._dirty[table.id] = table
        self._bot_check.add(table.id)
        message = {"type": "table", "table": table.summary()}
        self._to_table(table, message, exclude)
        self._to_lobby(message, exclude)

    # == requests ==========================================================================
    def _dispatch(self, conn: Connection, message: dict[str, Any]) -> None:
        request_id = request_id_of(message)
        self.origin = (conn.id, request_id)
        try:
            kind, fields = validate_request(message)
            if conn.session is None and kind not in ("hello", "ping", "pong"):
                raise ProtocolError("hello_required", f"say hello before {kind}")
            if self._paused and kind in _CHANGES_SEATS_OR_GAME:
                self._check_not_paused(conn, kind, fields)
            getattr(self, f"_on_{kind}")(conn, fields, request_id)
        except ProtocolError as exc:
            self._error(conn, exc, request_id)
        except NoddyError as exc:
            code = exc.code if exc.code in ERROR_CODES else "illegal_action"
            self._error(conn, ProtocolError(code, str(exc)), request_id)

    def _receive_text(self, conn: Connection, line: str) -> None:
        try:
            request = text_mode.parse_command(line)
        except ProtocolError as exc:
            self._error(conn, exc, None)
            return
        if request is None:
            self._send(conn.id, {"type": "help", "text": text_mode.HELP})
            return
        if conn.session is None and request["type"] != "hello":
            self._guests += 1
            while self._name_in_use(f"guest-{self._guests}"):
                self._guests += 1
            self._dispatch(conn, {"type": "hello", "name": f"guest-{self._guests}",
                                  "version": PROTOCOL_VERSION})
        start = len(self._out)
        try:
            if request["type"] == "hello" and conn.session is not None:
                self._hello_again_in_text(conn, request)
            else:
                if request.get("action") == "discard" and all(c.isdigit() for c in request["cards"]):
                    request["cards"] = text_mode.cards_by_number(request["cards"], self._my_legal(conn))
                self._dispatch(conn, request)
        except ProtocolError as exc:
            self._error(conn, exc, None)
        # Errors are reworded for the person who caused them ("you do not hold TH", seats from 1).
        seat = conn.session.seat if conn.session is not None else None
        mine = [out for out in self._out[start:] if isinstance(out, Send) and out.conn == conn.id]
        for out in mine:
            if out.message["type"] == "error":
                out.message = text_mode.person_error(out.message, seat)
        # Watching a game: the snapshot begins with the table, so the table reply would
        # print the same line twice.
        if request["type"] == "spectate" and any(o.message["type"] == "snapshot" for o in mine):
            tables = [o for o in mine if o.message["type"] == "table"][:1]
            self._out[start:] = [out for out in self._out[start:] if not any(out is t for t in tables)]

    def _my_legal(self, conn: Connection) -> list[dict[str, Any]]:
        """The legal actions of a text connection's seat, for ``discard 1 2`` (none if it has
        no seat in a game)."""
        session = conn.session
        if session is None or session.seat is None or session.table is None or session.table.game is None:
            return []
        return [a.to_dict(with_seat=False) for a in session.table.game.legal_actions(session.seat)]

    def _hello_again_in_text(self, conn: Connection, request: dict[str, Any]) -> None:
        """``name NAME`` or ``resume TOKEN`` from a text connection that already has a name
        (a guest's, given on its first command, or one chosen before): until they sit down a
        person may choose another name, or take back a held seat.  Either goes through the
        very hello a JSON client sends, so it meets the same rules; the session is a new one
        (a new resume token, or the resumed one).  A watcher keeps watching under a new name;
        one who resumes a session leaves the table they were watching."""
        old = conn.session
        assert old is not None
        table = old.table
        resuming = request.get("resume") is not None
        if old.seat is not None and table is not None:
            raise ProtocolError("already_hello", f"you sit at table {table.id} as {old.name}; "
                                + ("stand up or leave first" if resuming
                                   else "stand up or leave to change your name"), field="name")
        conn.session = None
        self.sessions.pop(old.token, None)  # frees the old name for the check
        self._dispatch(conn, request)
        if conn.session is None:  # refused: the old name stays
            self._add_session(old)
            conn.session = old
            return
        new = conn.session
        log.info("connection %d: %s is now %s", conn.id, old.name, new.name)
        if table is not None and resuming:
            self._remove_spectator(table, old)
        elif table is not None:
            table.spectators[table.spectators.index(old)] = new
            new.table = table
            if table.creator is old:
                table.creator = new
            old.table = None
            self._table_changed(table)

    def _session(self, conn: Connection) -> Session:
        assert conn.session is not None
        return conn.session

    def _check_not_paused(self, conn: Connection, kind: str, fields: dict[str, Any]) -> None:
        """Refuse what would change a paused table: its records could not be written, so
        nothing more is done there until storage takes them again (spectators come and go)."""
        session = conn.session
        table = session.table if session is not None else None
        if kind == "sit" and table is None:
            table = self.tables.get(fields["table"])
        if table is None or table.id not in self._paused:
            return
        if kind == "leave" and session is not None and session.seat is None:
            return
        raise ProtocolError("storage_unavailable", f"table {table.id} is paused: the server cannot "
                            f"save its game right now; it goes on by itself once it can")

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

    def _check_seating_open(self, table: Table) -> None:
        if table.status == PLAYING:
            raise ProtocolError("game_in_progress", f"a game is being played at table {table.id}")

    def _check_password(self, table: Table, session: Session, password: str | None) -> None:
        """Let ``session`` into a private table only with its password, and only while its
        address has not given too many wrong ones lately (then not even with the right one:
        else one host could guess hundreds a second over many connections)."""
        if not table.private or session.table is table:
            return
        conn = self.connections.get(session.conn) if session.conn is not None else None
        address = conn.address if conn is not None else None
        now = self.clock()
        if address is not None:
            wait = self._password_guard.locked_for(address, now)
            if wait > 0:
                raise ProtocolError(
                    "too_many_attempts", f"too many wrong passwords from your address; wait {wait:.2f} s",
                    field="password", retry_after=math.ceil(wait * 100) / 100)
        if not password_matches(table.password, password):
            if password is not None and address is not None:
                self._password_guard.failed(address, now)
            raise ProtocolError("wrong_password", f"table {table.id} is private: the password is wrong"
                                if password is not None else
                                f"table {table.id} is private: give its password", field="password")

    def _check_creator(self, table: Table, session: Session, what: str) -> None:
        owner = table.owner()
        if owner is not session:
            raise ProtocolError("not_creator", f"only the table's creator "
                                f"({'nobody' if owner is None else owner.name}) may {what}")

    def _rater(self, table: Table) -> Callable[[Seat], int]:
        """How the table's summary shows a seat's rating in the table's preset family."""
        family = family_of(table.preset)
        return lambda seat: round(self.ratings.rating(family, _identity(seat)))

    def _choose_seat(self, table: Table, seat: int | None) -> int:
        free = table.free_seats()
        if seat is not None:
            _check_seat_number(table, seat)
        if not free:
            raise ProtocolError("table_full", f"table {table.id} has no free seat")
        if seat is None:
            return free[0]
        if table.seats[seat] is not None:
            raise ProtocolError("seat_taken", f"seat {seat} at table {table.id} is taken", field="seat")
        return seat

    def _welcome(self, session: Session, resumed: bool) -> dict[str, Any]:
        config = self.config
        return {
            "type": "welcome", "version": PROTOCOL_VERSION, "server": SERVER_NAME,
            "name": session.name, "token": session.token, "resumed": resumed,
            "table": None if session.table is None else session.table.id, "seat": session.seat,
            "presets": [rules.describe() for rules in PRESETS.values()],
            "levels": list(LEVELS), "default_level": config.computer_level,
            "ratings": {family: round(self.ratings.rating(family, Rated("human", session.name)))
                        for family in FAMILIES},
            "limits": {"max_line": config.max_line, "grace_period": config.grace_period,
                       "ping_interval": config.ping_interval, "idle_timeout": config.idle_timeout,
                       "rate": config.rate, "burst": config.burst},
        }

    def _on_hello(self, conn: Connection, f: dict[str, Any], rid: Any) -> None:
        if conn.session is not None:
            raise ProtocolError("already_hello", "this connection has already said hello")
        if f["version"] not in SUPPORTED_VERSIONS:
            raise ProtocolError("unsupported_version",
                                f"protocol version {f['version']} is not spoken here",
                                field="version", supported=list(SUPPORTED_VERSIONS))
        if f["resume"] is not None:
            session = self.sessions.get(f["resume"])
            if session is None:
                raise ProtocolError("bad_token", "no seat is held for that resume token", field="resume")
            old = self.connections.get(session.conn) if session.conn is not None else None
            if old is not None:
                self._send(old.id, {"type": "bye", "reason": "resumed on another connection"})
                old.session = None
                self._close(old, "replaced")
            session.conn = conn.id
            session.held_until = None
            conn.session = session
            self._schedule_conn(conn)  # now it may be pinged
            log.info("connection %d resumed %r", conn.id, session)
            self._reply(conn, rid, self._welcome(session, resumed=True))
            lost = self._lost_tables.pop(session.token, None)
            if lost is not None:  # its table could not be restored (see _table_lost)
                self._send(conn.id, lost)
            table = session.table
            if table is not None:
                if session.seat is not None:
                    self._to_table(table, {"type": "player_back", "table": table.id,
                                           "seat": session.seat, "name": session.name}, exclude=session)
                    self._table_changed(table, exclude=session)
                self._send(conn.id, table.snapshot(session.seat, self.clock()))
            return
        name = normal_name(f["name"])  # printable, NFKC: the form everyone is shown
        if skeleton(name) in _COMPUTER_SKELETONS:
            raise ProtocolError("name_taken", f"the name {name!r} is (or looks like) a computer "
                                "player's; choose another", field="name")
        if self._name_in_use(name):
            raise ProtocolError("name_taken", f"the name {name!r} (or one that looks the same) is in "
                                "use by someone connected (or holding a seat); choose another",
                                field="name")
        session = Session(name, f["bot"], conn.id)
        self._add_session(session)
        conn.session = session
        self._schedule_conn(conn)  # now it may be pinged
        log.info("connection %d is %s%s", conn.id, session.name, " (bot)" if session.bot else "")
        self._reply(conn, rid, self._welcome(session, resumed=False))

    def _name_in_use(self, name: str) -> bool:
        """Whether a connected person, or one whose seat is held, goes by ``name`` or by a name
        that looks the same (any case, width or accents, Cyrillic or Greek lookalikes: the
        names' :func:`~noddy.protocol.names.skeleton` is the same)."""
        wanted = skeleton(name)
        same = self._names.get(wanted)
        if not same:
            return False
        same[:] = [s for s in same if self.sessions.get(s.token) is s]  # forget sessions gone
        if not same:
            del self._names[wanted]
        return any(s.conn is not None or s.held_until is not None for s in same)

    def _on_ping(self, conn: Connection, f: dict[str, Any], rid: Any) -> None:
        self._reply(conn, rid, {"type": "pong"})

    def _on_pong(self, conn: Connection, f: dict[str, Any], rid: Any) -> None:
        """An answer to the server's ping: receiving it already refreshed ``last_seen``."""

    def _on_list_tables(self, conn: Connection, f: dict[str, Any], rid: Any) -> None:
        tables = [table.summary() for _, table in sorted(self.tables.items())]
        self._reply(conn, rid, {"type": "tables", "tables": tables})

    def _on_create_table(self, conn: Connection, f: dict[str, Any], rid: Any) -> None:
        session = self._session(conn)
        if session.table is not None:
            raise ProtocolError("already_at_table", f"you are already at table {session.table.id}")
        options = dict(f["options"] or {})
        rules = configure(f["preset"], f["players"], partnerships=f["partnerships"], options=options)
        if f["private"] and not f["password"]:
            raise ProtocolError("missing_field", "a private table needs a password", field="password")
        conn.tables_created &= self.tables.keys()
        limit = self.config.max_tables_per_connection
        if limit and len(conn.tables_created) >= limit:
            raise ProtocolError("too_many_tables", f"tables you created are still open "
                                f"({', '.join(map(str, sorted(conn.tables_created)))}); "
                                f"a connection may have {limit} open at once")
        address_limit = self.config.max_tables_per_address
        if address_limit and conn.address is not None:
            from_here = self._address_tables.get(conn.address, set()) & self.tables.keys()
            self._address_tables[conn.address] = from_here
            if len(from_here) >= address_limit:
                raise ProtocolError("too_many_tables", f"{len(from_here)} tables created from your "
                                    f"address are still open; an address may have "
                                    f"{address_limit} open at once")
        seat = f["seat"]
        if seat is not None and seat >= f["players"]:
            raise ProtocolError("no_such_seat", f"a {f['players']}-player table has seats 0 to "
                                f"{f['players'] - 1}, not {seat}", field="seat")
        table = Table(self._next_table, rules, rules.name, f["players"], f["partnerships"], options,
                      password=hash_password(f["password"]) if f["private"] else None,
                      turn_timer=f["turn_timer"])
        table.creator = session
        table.rate = self._rater(table)
        self._next_table += 1
        self.tables[table.id] = table
        conn.tables_created.add(table.id)
        if conn.address is not None:
            self._address_tables.setdefault(conn.address, set()).add(table.id)
        if seat is None:
            table.spectators.append(session)
        else:
            table.seats[seat] = Seat(session.name, session=session)
        session.table, session.seat = table, seat
        log.info("%s created table %d (%s, %d players)", session.name, table.id, table.preset, table.players)
        self._reply(conn, rid, {"type": "table", "table": table.summary(), "seat": session.seat})
        self._table_changed(table, exclude=session)

    def _on_sit(self, conn: Connection, f: dict[str, Any], rid: Any) -> None:
        session = self._session(conn)
        if f["table"] is None:
            if session.table is None:
                raise ProtocolError("missing_field", "say which table to sit at", field="table")
            table = session.table
        else:
            table = self._find_table(f["table"])
        if session.table is not None and session.table is not table:
            raise ProtocolError("already_at_table", f"you are already at table {session.table.id}")
        self._check_password(table, session, f["password"])
        if session.seat is not None and session.seat == f["seat"]:
            self._reply(conn, rid, {"type": "table", "table": table.summary(), "seat": session.seat})
            return
        seat = self._choose_seat(table, f["seat"])
        self._check_seating_open(table)
        if session.seat is not None:
            table.seats[session.seat] = None
        if session in table.spectators:
            table.spectators.remove(session)
        table.seats[seat] = Seat(session.name, session=session)
        session.table, session.seat = table, seat
        self._reply(conn, rid, {"type": "table", "table": table.summary(), "seat": session.seat})
        self._table_changed(table, exclude=session)

    def _on_spectate(self, conn: Connection, f: dict[str, Any], rid: Any) -> None:
        session = self._session(conn)
        table = self._find_table(f["table"])
        if session.table is not None:
            raise ProtocolError("already_at_table", f"you are already at table {session.table.id}")
        self._check_password(table, session, f["password"])
        table.spectators.append(session)
        session.table, session.seat = table, None
        self._reply(conn, rid, {"type": "table", "table": table.summary(), "seat": session.seat})
        self._table_changed(table, exclude=session)
        if table.game is not None:
            self._send(conn.id, table.snapshot(None, self.clock()))

    def _on_stand(self, conn: Connection, f: dict[str, Any], rid: Any) -> None:
        session = self._session(conn)
        table, seat = self._my_seat(session)
        self._check_seating_open(table)
        table.seats[seat] = None
        table.spectators.append(session)
        session.seat = None
        self._reply(conn, rid, {"type": "table", "table": table.summary(), "seat": session.seat})
        self._table_changed(table, exclude=session)

    def _on_leave(self, conn: Connection, f: dict[str, Any], rid: Any) -> None:
        session = self._session(conn)
        table = self._my_table(session)
        self._reply(conn, rid, {"type": "ok"})
        self._leave(table, session)

    def _on_add_computer(self, conn: Connection, f: dict[str, Any], rid: Any) -> None:
        session = self._session(conn)
        table = self._my_table(session)
        self._check_seating_open(table)
        level = f["level"] or self.config.computer_level
        if level not in LEVELS:
            raise ProtocolError("unknown_level", f"no computer level {level!r}; the levels are: "
                                f"{', '.join(LEVELS)}", field="level")
        seat = self._choose_seat(table, f["seat"])
        table.seats[seat] = self._computer(table, seat, level)
        self._seating_changed(conn, rid, table, session)

    def _seating_changed(self, conn: Connection, rid: Any, table: Table, session: Session) -> None:
        """A seat filled or a player got ready: deal if the table can start now, reply with
        the table, tell everyone else, then stream the new game's opening."""
        started = self._start_game(table) if table.can_start() else None
        self._reply(conn, rid, {"type": "table", "table": table.summary()})
        self._table_changed(table, exclude=session)
        if started is not None:
            self._publish(table, *started)

    def _on_remove_computer(self, conn: Connection, f: dict[str, Any], rid: Any) -> None:
        session = self._session(conn)
        table = self._my_table(session)
        self._check_creator(table, session, "remove a computer player")
        self._check_seating_open(table)
        seat = f["seat"]
        _check_seat_number(table, seat)
        occupant = table.seats[seat]
        if occupant is None or not occupant.is_computer:
            raise ProtocolError("not_a_computer", f"no computer player sits in seat {seat}", field="seat")
        table.seats[seat] = None
        self._reply(conn, rid, {"type": "table", "table": table.summary()})
        self._table_changed(table, exclude=session)

    def _on_ready(self, conn: Connection, f: dict[str, Any], rid: Any) -> None:
        session = self._session(conn)
        table, seat = self._my_seat(session)
        self._check_seating_open(table)
        occupant = table.seats[seat]
        assert occupant is not None
        occupant.ready = f["ready"]
        self._seating_changed(conn, rid, table, session)

    def _on_action(self, conn: Connection, f: dict[str, Any], rid: Any) -> None:
        session = self._session(conn)
        table, seat = self._my_seat(session)
        game = table.game
        if game is None or table.status != PLAYING:
            raise ProtocolError("no_game", f"no game is being played at table {table.id}")
        if f["seat"] is not None and f["seat"] != seat:
            raise ProtocolError("bad_field", f"you sit in seat {seat}, not {f['seat']}", field="seat")
        action: Action
        if f["action"] == "play":
            if f["card"] is None:
                raise ProtocolError("missing_field", "play needs the field 'card'", field="card")
            action = Play(seat, f["card"])
        elif f["action"] == "discard":
            if f["cards"] is None:
                raise ProtocolError("missing_field", "discard needs the field 'cards'", field="cards")
            action = Discard(seat, f["cards"])
        else:
            action = Go(seat)
        events, plain = self._apply_action(table, game, action)
        table.deadlines.pop(seat, None)
        self._reply(conn, rid, {"type": "ok"})
        self._stream(table, events, plain)

    def _on_chat(self, conn: Connection, f: dict[str, Any], rid: Any) -> None:
        """Chat, cleaned of terminal controls once here so JSON and text readers get the same
        text, and limited per address as well as per connection (see PROTOCOL.md, Chat)."""
        session = self._session(conn)
        to = f["to"] or ("table" if session.table is not None else "lobby")
        table = self._my_table(session) if to == "table" else None
        if conn.address is not None:
            wait = self._chat_buckets.take(conn.address, self.clock())
            if wait > 0:
                raise ProtocolError("rate_limited", f"too much chat from your address; wait {wait:.2f} s",
                                    retry_after=math.ceil(wait * 100) / 100)
        message = {"type": "chat", "to": to, "table": None if table is None else table.id,
                   "from": session.name, "seat": session.seat if table is not None else None,
                   "text": clean_text(f["text"])}
        self._reply(conn, rid, {"type": "ok"})
        if table is not None:
            self._to_table(table, message)
        else:
            self._to_lobby(message, exclude=session)
            self._send(conn.id, message)

    def _on_snapshot(self, conn: Connection, f: dict[str, Any], rid: Any) -> None:
        session = self._session(conn)
        table = self._my_table(session)
        self._reply(conn, rid, table.snapshot(session.seat, self.clock()))

    def _on_configure_table(self, conn: Connection, f: dict[str, Any], rid: Any) -> None:
        session = self._session(conn)
        table = self._my_table(session)
        self._check_creator(table, session, "change its settings")
        self._check_seating_open(table)
        options = table.options if f["options"] is None else dict(f["options"])
        rules = configure(table.preset, table.players, partnerships=table.partnerships, options=options)
        private = table.private if f["private"] is None else f["private"]
        if private and not (f["password"] or (f["password"] is None and table.password)):
            raise ProtocolError("missing_field", "a private table needs a password", field="password")
        table.rules, table.options = rules, options
        if not private:
            table.password = None
        elif f["password"] is not None:  # only its hash is kept (see passwords.py)
            table.password = hash_password(f["password"])
        if f["turn_timer"] is not None:  # the schema holds it to create_table's bounds; 0: off
            table.turn_timer = f["turn_timer"] or None
        for occupant in table.seats:  # nobody has agreed to play under the new settings yet
            if occupant is not None:
                occupant.ready = False
        self._reply(conn, rid, {"type": "table", "table": table.summary()})
        self._table_changed(table, exclude=session)

    def _on_list_games(self, conn: Connection, f: dict[str, Any], rid: Any) -> None:
        self._charge_query(conn)
        viewer = self._session(conn).name  # a private table's games only to who sat there
        name = f["name"] if f["name"] is not None else viewer
        self._out.append(Query(conn.id, rid, "list_games", {"name": name, "limit": f["limit"],
                                                            "viewer": viewer}))

    def _on_get_game(self, conn: Connection, f: dict[str, Any], rid: Any) -> None:
        # Who asks and the password given: ``answer`` checks them against the stored game
        # (StoredGame.visible_to) before anything of it is sent.
        self._charge_query(conn)
        if f["password"] is not None and conn.address is not None:  # as at a private table
            wait = self._password_guard.locked_for(conn.address, self.clock())
            if wait > 0:
                raise ProtocolError(
                    "too_many_attempts", f"too many wrong passwords from your address; wait {wait:.2f} s",
                    field="password", retry_after=math.ceil(wait * 100) / 100)
        query = Query(conn.id, rid, "get_game", {"game": f["game"], "viewer": self._session(conn).name,
                                                 "password": f["password"]})
        cached = self.record_cache.get(f["game"])
        if cached is None:
            self._out.append(query)
        else:  # read before: no database read, and its line is encoded already
            self._answer_game(conn, query, cached)

    def _charge_query(self, conn: Connection) -> None:
        """A request that reads records takes ``query_cost`` tokens of the connection's rate
        bucket (its first already taken, as every request's, by ``receive``) and one of its
        address's: reading a long record costs far more than a move.  Refused with
        ``rate_limited`` (nothing done) when either is short."""
        now = self.clock()
        bucket = conn.bucket
        extra = max(0, self.config.query_cost - 1)
        wait = bucket.take(now, extra) if extra else 0.0
        what = "requests for records"
        if wait <= 0 and conn.address is not None:
            wait = self._query_buckets.take(conn.address, now)
            if wait > 0:
                bucket.tokens += extra  # not served: the connection keeps what it paid
                what = "requests for records from your address"
        if wait > 0:
            # The refused request's own token is spent, and a retry takes all of query_cost.
            wait = max(wait, (extra + 1 - bucket.tokens) / bucket.rate)
            raise ProtocolError("rate_limited", f"too many {what}; wait {wait:.2f} s",
                                retry_after=math.ceil(wait * 100) / 100)

    def _on_leaderboard(self, conn: Connection, f: dict[str, Any], rid: Any) -> None:
        self._charge_query(conn)
        rows = self.ratings.leaderboard(f["family"], f["limit"])
        self._reply(conn, rid, {"type": "leaderboard", "family": f["family"], "players": [
            {"rank": rank, "kind": who.kind, "name": who.name, "rating": round(standing.rating),
             "games": standing.games, "wins": standing.wins}
            for rank, (who, standing) in enumerate(rows, start=1)]})

    def _on_bye(self, conn: Connection, f: dict[str, Any], rid: Any) -> None:
        session = self._session(conn)
        session.conn, conn.session = None, None
        self.sessions.pop(session.token, None)
        if session.table is not None:
            self._leave(session.table, session)
        self._reply(conn, rid, {"type": "bye", "reason": "goodbye"})
        self._close(conn, "bye")

    # == tables and games ==================================================================
    def _computer(self, table: Table, seat: int, level: str) -> Seat:
        table.computers_made += 1
        player = get_player(level, seed=self.config.bot_seed(table.id, seat, table.computers_made))
        return Seat(_computer_name(level, seat), player=player, level=level)

    def _leave(self, table: Table, session: Session) -> None:
        """``session`` goes back to the lobby; mid-game a computer player takes its seat."""
        seat = session.seat
        session.table, session.seat = None, None
        if session in table.spectators:
            table.spectators.remove(session)
        if seat is not None:
            self._vacate(table, seat, session.name)
        if not table.humans():
            self._close_table(table, "everyone has left")
        else:
            self._table_changed(table)

    def _vacate(self, table: Table, seat: int, name: str) -> None:
        """A person has gone from ``seat`` for good: free it, or hand it to a computer mid-game."""
        if table.status == PLAYING:
            level = self.config.computer_level
            table.seats[seat] = self._computer(table, seat, level)
            table.deadlines.pop(seat, None)
            self._to_table(table, {"type": "player_replaced", "table": table.id, "seat": seat,
                                   "name": name, "level": level})
        else:
            table.seats[seat] = None

    def _remove_spectator(self, table: Table, session: Session) -> None:
        table.spectators.remove(session)
        session.table = None
        self.sessions.pop(session.token, None)
        if not table.humans():
            self._close_table(table, "everyone has left")
        else:
            self._table_changed(table)

    def _expire(self, session: Session) -> None:
        """A held seat's (or a watcher's place's) grace period is over."""
        session.held_until = None
        self.sessions.pop(session.token, None)
        table, seat = session.table, session.seat
        if table is not None and seat is None:
            self._remove_spectator(table, session)
            return
        session.table, session.seat = None, None
        if table is None or seat is None:
            return
        log.info("%s did not come back to table %d", session.name, table.id)
        self._vacate(table, seat, session.name)
        if not table.humans():
            self._close_table(table, "everyone has left")
        else:
            self._table_changed(table)

    def _close_table(self, table: Table, reason: str, tell_lobby: bool = True) -> None:
        log.info("table %d closed: %s", table.id, reason)
        self.tables.pop(table.id, None)
        if not self.closed:  # at shutdown the table stays stored, to be restored
            self._records.append(TableClosed(table.id))
        message = {"type": "table_closed", "table": table.id, "reason": reason}
        self._to_table(table, message)
        for session in table.humans():
            session.table, session.seat = None, None
            if session.conn is None:
                self.sessions.pop(session.token, None)
        table.status = FINISHED if table.status == PLAYING else table.status
        if tell_lobby:
            self._to_lobby(message)

    def _start_game(self, table: Table) -> tuple[list[tuple[int, Event]], list[dict[str, Any]]]:
        """Deal a new game at a full, ready table; the caller publishes the returned events
        (numbered) with their dicts, which the storage record holds too."""
        table.games_played += 1
        seed = self.config.game_seed(table.id, table.games_played)
        # The table's rules are configured already (from its preset and options), so the
        # game takes them as they are instead of configuring a copy.
        game = Game(table.rules, table.players, partnerships=table.partnerships, seed=seed)
        seats = [{"seat": i, "name": s.name, "kind": "computer" if s.is_computer else "human",
                  "level": s.level} for i, s in enumerate(table.seats) if s is not None]
        live = LiveGame(self._next_game, table.seq, seats)
        self._next_game += 1
        table.live = live
        plain = [event.to_dict() for event in game.log]
        self._records.append(GameBegun(
            live.game_id, table.id, table.games_played, table.preset, family_of(table.preset),
            table.players, table.partnerships, dict(table.options), seats, game.seed,
            self.wall_clock(), plain, password=table.password))
        if game.is_over:  # won by the deal itself, before anyone acted
            self._finish_game(table, game)
        self._dirty[table.id] = table
        table.game = game
        table.status = PLAYING
        table.log.clear()
        table.deadlines.clear()
        table.thinking.clear()
        for occupant in table.seats:
            if occupant is not None:
                occupant.ready = False
        log.info("table %d: game %d of %s begins", table.id, table.games_played, table.preset)
        return table.record(game.log), plain

    def _apply_action(self, table: Table, game: Game, action: Action,
                      ) -> tuple[list[Event], list[dict[str, Any]]]:
        """Apply ``action`` (the engine raises, changing nothing, if it is illegal) and queue
        it for storage with its events; a won game is recorded as finished and rated.
        Returns the events and their dicts (the stored ones, for :meth:`_stream` to reuse)."""
        events = game.apply(action)
        live = table.live
        assert live is not None
        live.actions += 1
        plain = [event.to_dict() for event in events]
        self._records.append(ActionApplied(live.game_id, live.actions, action.to_dict(), plain, table.id))
        if game.is_over:
            self._finish_game(table, game)
        return events, plain

    def _finish_game(self, table: Table, game: Game) -> None:
        """Record a won game as finished and rate it.  Every way a game ends comes here: an
        action (a person's, a computer's or the turn timer's) or the deal itself (under the
        Noddy presets the show comes before the play, so a low target can be reached at once)."""
        live = table.live
        assert live is not None and game.winner is not None
        changes: list = []
        if table.players == 2 or table.partnerships:
            by_seat = {s["seat"]: _identity_of(s) for s in live.seats}
            sides = [[by_seat[seat] for seat in range(table.players) if game.team_of(seat) == side]
                     for side in (0, 1)]
            changes = self.ratings.rate_game(family_of(table.preset), sides, game.winner)
        self._records.append(GameFinished(
            live.game_id, self.wall_clock(),
            {"winner": game.winner, "winning_seats": list(game.winning_seats),
             "scores": list(game.scores)}, tuple(changes), table.id))

    def _stream(self, table: Table, events: list[Event], plain: list[dict[str, Any]]) -> None:
        """Number and send new game events (see :meth:`_publish`)."""
        self._publish(table, table.record(events), plain)

    def _publish(self, table: Table, numbered: list[tuple[int, Event]],
                 plain: list[dict[str, Any]]) -> None:
        """Send numbered game events to every member, redacted for its seat, then whose turn it is.

        ``plain`` are the events' dicts, which the storage records hold: a public event's
        message carries the same dict (see :meth:`Table.event_messages`), so nothing may
        change either once made."""
        game = table.game
        assert game is not None
        now = self.clock()
        members = table.members()
        seats = dict.fromkeys(seat for _session, seat in members)
        self._bot_check.add(table.id)
        # Members whose redacted views of an event agree get the very same message object,
        # which the network layer then encodes once (events are mostly public).
        messages = table.event_messages(numbered, seats, plain)
        # Each member's connection is looked up once, for its events and its turn (nothing
        # in between opens or closes one, or changes who sits where).
        recipients: list[tuple[int, int | None, bool, tuple[str, ...]]] = []
        for session, seat in members:
            conn_id = session.conn
            how = self._how_to_send(conn_id)
            if how is not None:
                assert conn_id is not None
                recipients.append((conn_id, seat, *how))
        out = self._out
        for conn_id, seat, text, names in recipients:
            for message in messages[seat]:
                out.append(Send(conn_id, message, text, names))
        if game.is_over:
            table.status = FINISHED
            table.deadlines.clear()
            log.info("table %d: game %d won by %s, scores %s", table.id, table.games_played,
                     game.winner, game.scores)
            self._table_changed(table)
            return
        if table.turn_timer is not None:
            awaiting = set(game.awaiting)
            for seat in list(table.deadlines):
                if seat not in awaiting:
                    del table.deadlines[seat]
            for seat in awaiting:
                occupant = table.seats[seat]
                if occupant is not None and not occupant.is_computer and seat not in table.deadlines:
                    table.deadlines[seat] = now + table.turn_timer
                    self._schedule_timer(table, table.deadlines[seat])
        turns = table.turn_messages(seats, now)
        for conn_id, seat, text, names in recipients:
            out.append(Send(conn_id, turns[seat], text, names))

    def _check_turn_timer(self, table: Table, now: float) -> None:
        game = table.game
        if table.status != PLAYING or game is None or not table.deadlines:
            return
        for seat, deadline in sorted(table.deadlines.items()):
            if deadline > now or seat not in game.awaiting or game.is_over:
                continue
            del table.deadlines[seat]
            player = get_player("random", seed=self.config.bot_seed(table.id, seat, -game.deal))
            action = player.choose(game.observation(seat), game.rules)
            for member, viewer in table.members():  # a discard's cards only to its seat
                self._send(member.conn, table.timed_out_message(seat, action, viewer))
            self._stream(table, *self._apply_action(table, game, action))


#: Requests that change a table's seats or game: refused at a paused table.
_CHANGES_SEATS_OR_GAME = frozenset({"action", "ready", "sit", "stand", "leave", "add_computer",
                                    "remove_computer", "configure_table"})


def _computer_name(level: str, seat: int | None = None) -> str:
    """The name a computer player of ``level`` sits under in ``seat`` (no person may take it).

    Each seat's computer has its own name, ``greedy computer 2`` for seat 1 (the number the
    screens give the seat), so that three of them at one table are three names in "Lay away 1
    for greedy computer 3's crib" or "greedy computer 2 wins"; the seat makes it stable
    across a restore, which builds the computer again for the same seat.  ``seat=None`` is
    the bare ``greedy computer``, refused for people all the same.
    """
    return f"{level} computer" if seat is None else f"{level} computer {seat + 1}"


#: The skeletons of every computer player's name: a person's name that looks like one of them
#: is refused (see :func:`~noddy.protocol.names.skeleton`).
_COMPUTER_SKELETONS = frozenset(skeleton(_computer_name(level, seat)) for level in LEVELS
                                for seat in (None, *range(MAX_PLAYERS)))


def _check_seat_number(table: Table, seat: int) -> None:
    if not 0 <= seat < table.players:
        raise ProtocolError("no_such_seat", f"table {table.id} has seats 0 to {table.players - 1}, "
                            f"not {seat}", field="seat")


def _identity(seat: Seat) -> Rated:
    """Who a seat's rating belongs to: a person by name, a computer player by level."""
    return Rated("computer", seat.level or "") if seat.is_computer else Rated("human", seat.name)


def _identity_of(seat: dict[str, Any]) -> Rated:
    """The same for a seat as a game record keeps it."""
    return Rated("computer", seat["level"]) if seat["kind"] == "computer" else Rated("human", seat["name"])


def _quiet_id(line: bytes) -> Any:
    """The id of a request that is refused before it is read properly (rate limiting)."""
    try:
        return request_id_of(decode_line(line))
    except ProtocolError:
        return None
