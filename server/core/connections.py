"""Connections: opening, reading, keepalive and closing, and the dispatch of requests.

Owns: ``connections``, ``_next_conn``, ``_per_address`` (the per-address connection limit),
``_conn_due`` (the keepalive heap) and ``_guests`` (text mode's guest names), and the entry
points that concern a connection as such: ``connect``, ``receive``, ``line_too_long``,
``disconnect`` and ``shutdown``, with the keepalive part of ``tick``.

``receive`` is where every request comes in: the connection's rate limit is charged, the
line is read (JSON, or a text-mode command turned into the same request by
:mod:`noddy.server.text.text_mode`) and :meth:`Connections._dispatch` validates it and calls the
``_on_<kind>`` handler of whichever concern owns that request.  Touches, besides its own:
a session's ``conn`` and held place on disconnect (the seat is held by
:mod:`~noddy.server.core.seating`'s heap), and the pause of :mod:`~noddy.server.core.recovery`
(requests that would change a paused table are refused here).
"""

from __future__ import annotations

import heapq
import logging
import math
from typing import Any

from noddy.engine import NoddyError, describe_legal
from noddy.protocol import PROTOCOL_VERSION, REQUESTS, ProtocolError, decode_line
from noddy.protocol.errors import ERROR_CODES
from noddy.protocol.requests import read_request, request_id_of

from ..text import text_mode
from .core_state import SERVER_NAME, CoreState
from .instructions import Out, Send
from ..model.ratelimit import TokenBucket
from .recovery import CHANGES_SEATS_OR_GAME
from ..model.session import Connection

log = logging.getLogger("noddy.server")

#: The name of each request type's handler, made once rather than for every request.
_HANDLERS: dict[str, str] = {kind: f"_on_{kind}" for kind in REQUESTS}


class Connections(CoreState):
    """The connection entry points, keepalive and request dispatch; see the module docstring."""

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
                # The line is valid UTF-8 (decode_line checked): without a \u escape in it,
                # it cannot hold a lone surrogate (see validate_request).
                self._dispatch(conn, message, b"\\u" in stripped)
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

    def _tick_keepalive(self, now: float) -> None:
        """Look at each connection whose keepalive is due: ping it, or drop it if silent too long."""
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

    def _dispatch(self, conn: Connection, message: dict[str, Any], escapes: bool = True) -> None:
        try:
            kind, fields, request_id = read_request(message, escapes)
        except ProtocolError as exc:
            request_id = request_id_of(message)
            self.origin = (conn.id, request_id)
            self._error(conn, exc, request_id)
            return
        self.origin = (conn.id, request_id)
        try:
            if conn.session is None and kind not in ("hello", "ping", "pong"):
                raise ProtocolError("hello_required", f"say hello before {kind}")
            if self._paused and kind in CHANGES_SEATS_OR_GAME:
                self._check_not_paused(conn, kind, fields)
            getattr(self, _HANDLERS[kind])(conn, fields, request_id)
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
        # (A game's batch, a Lines, holds no reply: the reply to a request is a message alone.)
        mine = [out for out in self._out[start:]
                if isinstance(out, Send) and out.conn == conn.id and isinstance(out.message, dict)]
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
        return describe_legal(session.table.game.legal_actions(session.seat))

    def _on_ping(self, conn: Connection, f: dict[str, Any], rid: Any) -> None:
        self._reply(conn, rid, {"type": "pong"})

    def _on_pong(self, conn: Connection, f: dict[str, Any], rid: Any) -> None:
        """An answer to the server's ping: receiving it already refreshed ``last_seen``."""


def _quiet_id(line: bytes) -> Any:
    """The id of a request that is refused before it is read properly (rate limiting)."""
    try:
        return request_id_of(decode_line(line))
    except ProtocolError:
        return None
