"""The open connections: who is connected from where, and when each is due a keepalive look.

Owns: every :class:`~noddy.server.model.session.Connection` by id, the next id, each one's
language (and how many read another than English), how many are open per peer address (the ``max_connections_per_address`` limit) and the keepalive heap
(when each connection is next due a look: a ping, or a drop for silence before hello).  Only this class
opens, closes or marks a connection closing; the other parts read connections through
:meth:`get` and tell this one what happened.
"""

from __future__ import annotations

import heapq
import logging
from collections.abc import Mapping
from typing import Iterator

from noddy.protocol.i18n import DEFAULT_LANGUAGE

from ..config import ServerConfig
from ..model.ratelimit import TokenBucket, address_group
from ..model.session import Connection

log = logging.getLogger("noddy.server")


class Connections(Mapping[int, Connection]):
    """The open connections by id (read as a mapping) and their keepalive; see the module
    docstring."""

    def __init__(self, config: ServerConfig) -> None:
        self._config = config
        self._open: dict[int, Connection] = {}
        self._next = 1
        #: Open, admitted connections per peer address.
        self._per_address: dict[str, int] = {}
        #: Min-heap of when each connection is next due a keepalive look (ping, or a drop before hello).
        self._due: list[tuple[float, int]] = []
        #: A connection by id, or None (``get(None)`` too): the dict's own lookup, bound, as
        #: the send path asks it for every member of a table at every action.
        self.get = self._open.get  # type: ignore[method-assign]
        #: How many open connections read another language than English: while none does,
        #: a call's Sends need no language looked up (see Outbox.take).
        self.not_english = 0

    def __len__(self) -> int:
        return len(self._open)

    def __iter__(self) -> Iterator[int]:
        return iter(self._open)

    def __getitem__(self, conn_id: int) -> Connection:
        return self._open[conn_id]


    @property
    def per_address(self) -> dict[str, int]:
        """How many connections are open from each address (a copy)."""
        return dict(self._per_address)

    @property
    def next_id(self) -> int:
        return self._next

    def all(self) -> list[Connection]:
        return list(self._open.values())

    def open(self, address: str | None, now: float) -> tuple[Connection, int]:
        """A new connection from ``address``; also how many were open from there already
        (over the limit, the caller refuses it and it is not counted).  Every per-address
        limit counts the address's group: an IPv6 /64 is one host (see ``address_group``)."""
        config = self._config
        address = address_group(address)
        conn = Connection(self._next, TokenBucket(config.rate, config.burst, now), now)
        self._next += 1
        self._open[conn.id] = conn
        open_here = 0
        if address is not None:
            open_here = self._per_address.get(address, 0)
            limit = config.max_connections_per_address
            if not (limit and open_here >= limit):
                conn.address = address
                self._per_address[address] = open_here + 1
        return conn, open_here

    def over_limit(self, open_here: int) -> bool:
        limit = self._config.max_connections_per_address
        return bool(limit) and open_here >= limit

    def closed(self, conn_id: int) -> Connection | None:
        """The connection is gone: forget it (None if it was not open)."""
        conn = self._open.pop(conn_id, None)
        if conn is not None and conn.language != DEFAULT_LANGUAGE:
            self.not_english -= 1
        if conn is not None and conn.address is not None:
            left = self._per_address.pop(conn.address) - 1
            if left:
                self._per_address[conn.address] = left
        return conn

    def closing(self, conn: Connection) -> None:
        """Nothing more is sent to ``conn`` after its Close."""
        conn.closing = True

    def heard(self, conn: Connection, now: float) -> None:
        """``conn`` said something: it is not silent, and owes no answer to a ping."""
        conn.last_seen = now
        conn.pinged = False

    def pinged(self, conn: Connection) -> None:
        conn.pinged = True

    def set_language(self, conn: Connection, language: str) -> None:
        """``conn``'s person reads ``language`` from now on (``hello``, ``language``)."""
        if (conn.language == DEFAULT_LANGUAGE) != (language == DEFAULT_LANGUAGE):
            self.not_english += 1 if language != DEFAULT_LANGUAGE else -1
        conn.language = language

    def set_mode(self, conn: Connection, text: bool) -> None:
        """The first line of ``conn`` decided: text mode (a person at a terminal) or JSON."""
        conn.text = text

    def schedule(self, conn: Connection, now: float | None = None) -> None:
        """Put ``conn`` in the keepalive heap at the next moment it may be due a look (if its
        last_seen moves on meanwhile, nothing is done then and it is scheduled again): before
        hello, when its ``idle_timeout`` runs out; a JSON client, when it is due a ping; a
        text-mode connection with a name never (nobody is closed for silence)."""
        config = self._config
        if conn.session is None:
            due = conn.last_seen + config.idle_timeout
        elif conn.text:
            return
        else:
            due = conn.last_seen + config.ping_interval
            if conn.pinged and now is not None:  # pinged already: look again a period later
                due = max(due, now + config.ping_interval)
        heapq.heappush(self._due, (due, conn.id))

    def due(self, now: float) -> list[Connection]:
        """The open connections whose keepalive look is due by ``now``."""
        heap = self._due
        out = []
        while heap and heap[0][0] <= now:
            conn = self._open.get(heapq.heappop(heap)[1])
            if conn is not None and not conn.closing:
                out.append(conn)
        return out
