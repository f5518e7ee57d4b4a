"""Accepting connections: the server's listening sockets, and pausing when descriptors run out.

The server takes connections from its listening sockets itself (``_accept``), so that
running out of file descriptors pauses accepting for ``accept_retry_delay`` with one warning,
where asyncio's own accept loop logged thousands of tracebacks a second.  Each accepted
socket becomes a :class:`~noddy.server.net.link._Link`; from then on the link and the server
deal with it.  With ``tls_cert`` and ``tls_key`` the server listens on ``tls_port`` too, and
wraps what it accepts there in TLS (the standard library's ``ssl``, see
:mod:`~noddy.server.net.handshake`); the plain port stays as it is, for ``nc``.

Admission before the handshake (issue 31).  The core limits the connections of an address
(``max_connections_per_address``) once a connection is made, which for TLS is after the
handshake: too late, as a handshake in progress already holds a descriptor and memory.  So
the accepting counts every socket it holds per address from accept on, and a socket on the
TLS port is closed at once, unanswered (nothing can be said before the handshake), when its
address already holds ``max_connections_per_address`` sockets (handshakes in progress and
connections), or ``max_tls_handshakes_per_address`` handshakes, or when the server has
``max_tls_handshakes`` in progress -- never more than a quarter of the process's descriptor
limit (``DESCRIPTOR_SHARE``), so that a flood on the TLS port leaves the descriptors the
plain port and the established connections need.  The plain port is left to the core, which
refuses the connection over the limit politely (``too_many_connections``).

:class:`Accepting` is a mixin of :class:`~noddy.server.net.network.NoddyServer`, not an object
of its own: the server starts and stops it, and its log lines keep the network layer's logger.
"""

from __future__ import annotations

import asyncio
import errno
import logging
import socket
import ssl
import time

try:
    import resource
except ImportError:  # not on Windows: there only max_tls_handshakes caps the handshakes
    resource = None  # type: ignore[assignment]


from ..config import ServerConfig
from ..model.ratelimit import address_group
from .handshake import Handshake, Turns
from .link import _Link
from .throttled_log import ThrottledLog

#: The network layer's one logger (operators and tests filter on its name).
log = logging.getLogger("noddy.server.net.network")

#: Connections the kernel may hold for the server before it accepts them (also while it has
#: stopped accepting for want of file descriptors).
BACKLOG = 1024
#: Connections taken from one listening socket per turn of the event loop (the rest wait for
#: the next turn, as the socket stays readable): an accept and the close of one refused before
#: its handshake cost the server ~80 µs here (the kernel's share included), and a flood's
#: backlog taken at once (1,024) held every player's lines for ~20 ms or more; 16 keep a turn
#: near a millisecond, and a crowd of 2,000 connecting at once is still taken in ~125 turns.
ACCEPT_BATCH = 16
#: TLS handshakes in progress are never more than the process's descriptor limit divided by
#: this (a quarter: 256 of ``ulimit -n`` 1024), however many ``max_tls_handshakes`` allows, so
#: that three quarters stay for the plain port and the connections that are made.
DESCRIPTOR_SHARE = 4
#: Seconds between two log lines about TLS connections refused before their handshake (a
#: flood refuses thousands a second; the line says how many were not logged).
REFUSAL_LOG_PERIOD = 10.0
#: What ``accept()`` fails with when the process or system has no descriptor (or memory) for
#: one more connection: it will until some are freed, so the server stops trying for a while.
OUT_OF_RESOURCES = frozenset({errno.EMFILE, errno.ENFILE, errno.ENOBUFS, errno.ENOMEM})

# The server accepts connections itself rather than through ``loop.create_server``: on
# Python 3.11, when ``accept()`` fails for want of a file descriptor, asyncio logs an
# error with a traceback and then tries again, up to its backlog (1,024) times in the same
# call, every second: thousands of tracebacks a second, and a busy loop.  Here the first
# such failure stops accepting for ``accept_retry_delay`` seconds (the kernel keeps the
# waiting connections in the backlog), with one warning for the whole time the server is
# short, and one line when it accepts again.


class Accepting:
    """The listening half of :class:`~noddy.server.net.network.NoddyServer`: opens its sockets,
    accepts from them, and stops for a while when the process is out of descriptors."""

    #: Set by the server (a dataclass field); the accepting reads its host, port and delay.
    config: ServerConfig
    #: The server's open connections (counted in the log lines about starving).
    _links: dict[int, _Link]

    def _init_accepting(self) -> None:
        """The accepting state, empty until ``_listen``; called once by the server's constructor."""
        #: The listening sockets; the server accepts from them itself (see ``_accept``).
        self._listeners: list[socket.socket] = []
        #: Those of them on the TLS port (connections there are encrypted with this context).
        self._tls_listeners: set[socket.socket] = set()
        self._tls_context: ssl.SSLContext | None = None
        #: Connections accepted whose transport is being set up.
        self._adopting: set[asyncio.Task[None]] = set()
        #: While accepting is stopped for want of descriptors: when it resumes.
        self._accept_timer: asyncio.TimerHandle | None = None
        #: When the server last found itself out of descriptors (None: it is not), and how
        #: many times it has tried again since; logged once when it accepts again.
        self._starved_since: float | None = None
        self._starved_tries = 0
        #: Sockets held per address, from accept until closed, on both ports (handshakes in
        #: progress and connections); TLS handshakes in progress per address, and in all.
        self._held_from: dict[str, int] = {}
        self._handshakes_from: dict[str, int] = {}
        self._handshakes = 0
        self._refusals = ThrottledLog(log, logging.WARNING, REFUSAL_LOG_PERIOD)
        #: Handshakes waiting for their turn to begin (see ``handshake.HANDSHAKES_PER_TURN``).
        self._turns = Turns()

    @property
    def port(self) -> int:
        """The port the server listens on (the one the system chose, for ``port=0``)."""
        assert self._listeners
        return int(self._listeners[0].getsockname()[1])

    @property
    def tls_port(self) -> int | None:
        """The port of the encrypted listener (None: no TLS)."""
        for sock in self._listeners:
            if sock in self._tls_listeners:
                return int(sock.getsockname()[1])
        return None

    def _tls(self) -> ssl.SSLContext | None:
        """The server's TLS context from ``tls_cert`` and ``tls_key`` (None: no TLS); raises
        ``OSError`` (``ssl.SSLError`` is one) for files that cannot be read or do not match."""
        if not self.config.tls_cert:
            return None
        context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
        context.minimum_version = ssl.TLSVersion.TLSv1_2
        context.load_cert_chain(self.config.tls_cert, self.config.tls_key or None)
        return context

    async def _listen(self) -> list[socket.socket]:
        """Listening sockets for every address ``config.host`` stands for, on the plain port
        and (with TLS) the TLS port, the plain ones first."""
        self._tls_context = self._tls()
        listeners = await self._listen_on(self.config.port)
        if self._tls_context is not None:
            try:
                encrypted = await self._listen_on(self.config.tls_port)
            except BaseException:
                for sock in listeners:
                    sock.close()
                raise
            self._tls_listeners = set(encrypted)
            listeners += encrypted
        return listeners

    async def _listen_on(self, port: int) -> list[socket.socket]:
        """Listening sockets on ``port`` for every address ``config.host`` stands for (as
        ``create_server`` makes them: address reuse, IPv6 sockets IPv6 only)."""
        loop = asyncio.get_running_loop()
        infos = await loop.getaddrinfo(self.config.host or None, port,
                                       type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
        listeners: list[socket.socket] = []
        try:
            for family, kind, proto, _name, address in dict.fromkeys(infos):
                sock = socket.socket(family, kind, proto)
                listeners.append(sock)
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
                if family == socket.AF_INET6:
                    sock.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 1)
                try:
                    sock.bind(address)
                except OSError as exc:
                    raise OSError(exc.errno, f"cannot bind {address[0]}:{address[1]}: {exc.strerror}") from None
                sock.listen(BACKLOG)
                sock.setblocking(False)
        except BaseException:
            for sock in listeners:
                sock.close()
            raise
        return listeners

    def _start_accepting(self) -> None:
        self._accept_timer = None
        loop = asyncio.get_running_loop()
        for sock in self._listeners:
            loop.add_reader(sock.fileno(), self._accept, sock)

    def _stop_listening(self) -> None:
        loop = asyncio.get_running_loop()
        if self._accept_timer is not None:
            self._accept_timer.cancel()
            self._accept_timer = None
        for sock in self._listeners:
            loop.remove_reader(sock.fileno())
            sock.close()
        self._listeners = []
        for task in list(self._adopting):
            task.cancel()

    def _accept(self, listener: socket.socket) -> None:
        """A listening socket is readable: accept what is waiting (at most ``ACCEPT_BATCH``,
        so a crowd connecting at once cannot hold up the loop)."""
        loop = asyncio.get_running_loop()
        if listener not in self._listeners:  # closed by the shutdown since the loop saw it ready
            return
        for _ in range(ACCEPT_BATCH):
            try:
                conn, address = listener.accept()
            except (BlockingIOError, InterruptedError, ConnectionAbortedError):
                return
            except OSError as exc:
                self._pause_accepting(exc)
                return
            if self._starved_since is not None:
                log.info("accepting again after %.1f s short of file descriptors (%d tries); "
                         "%d connections open", time.monotonic() - self._starved_since,
                         self._starved_tries, len(self._links))
                self._starved_since = None
            # Counted as the core counts it: an IPv6 /64 is one host (see address_group).
            host = address_group(address[0]) if isinstance(address, tuple) and address else None
            tls = self._tls_context if listener in self._tls_listeners else None
            if tls is not None:
                refusal = self._over_tls_limits(host)
                if refusal:
                    conn.close()
                    self._refusals("TLS connection from %s closed before its handshake: %s", host, refusal)
                    continue
                self._handshakes += 1
                if host is not None:
                    self._handshakes_from[host] = self._handshakes_from.get(host, 0) + 1
            if host is not None:
                self._held_from[host] = self._held_from.get(host, 0) + 1
            task = loop.create_task(self._adopt(conn, host, tls))
            self._adopting.add(task)
            task.add_done_callback(self._adopting.discard)

    def _over_tls_limits(self, host: str | None) -> str:
        """Why a TLS connection from ``host`` may not start its handshake ('' if it may)."""
        config = self.config
        if host is not None:
            held, limit = self._held_from.get(host, 0), config.max_connections_per_address
            if limit and held >= limit:
                return f"the address holds {held} connections and handshakes (the limit)"
            shaking, limit = self._handshakes_from.get(host, 0), config.max_tls_handshakes_per_address
            if limit and shaking >= limit:
                return f"the address has {shaking} handshakes in progress (the limit)"
        cap = tls_handshake_cap(config.max_tls_handshakes)
        if self._handshakes >= cap:
            return f"{self._handshakes} handshakes in progress from all addresses (the limit)"
        return ""

    def _let_go(self, host: str | None) -> None:
        """A socket from ``host`` counted by ``_accept`` is closed (or about to be)."""
        if host is None:
            return
        held = self._held_from.get(host, 0) - 1
        if held > 0:
            self._held_from[host] = held
        else:
            self._held_from.pop(host, None)

    def _handshake_over(self, host: str | None) -> None:
        """A TLS handshake from ``host`` counted by ``_accept`` is done, or given up."""
        self._handshakes -= 1
        if host is None:
            return
        shaking = self._handshakes_from.get(host, 0) - 1
        if shaking > 0:
            self._handshakes_from[host] = shaking
        else:
            self._handshakes_from.pop(host, None)

    async def _adopt(self, conn: socket.socket, host: str | None, tls: ssl.SSLContext | None = None) -> None:
        """Make an accepted socket from ``host`` a connection (:class:`_Link`), encrypted with
        ``tls``: a peer that does not complete the handshake in ``tls_handshake_timeout`` is
        let go.  The socket's places counted by ``_accept`` are given back when it closes."""
        link = _Link(self)
        link.lost.add_done_callback(lambda _: self._let_go(host))
        if tls is not None:
            def over(connected: bool) -> None:
                self._handshake_over(host)
                if not connected:
                    self._let_go(host)  # the link is never connected, so never lost

            try:
                await Handshake(conn, tls, link, self.config.tls_handshake_timeout, over, self._turns).run()
            except Exception as exc:  # the peer left as asyncio set up its transport: closed, let go
                log.debug("a TLS connection could not be set up: %r", exc)
            return
        try:
            await asyncio.get_running_loop().connect_accepted_socket(lambda: link, conn)
        except Exception as exc:  # the peer may be gone already; nothing else is affected
            log.debug("an accepted connection could not be set up: %r", exc)
            if not link.lost.done():
                link.lost.cancel()  # its places are given back (the callback above)
            conn.close()

    def _pause_accepting(self, exc: OSError) -> None:
        """``accept()`` failed: stop listening for ``accept_retry_delay`` seconds.  Out of
        descriptors, say so once until the server accepts again; any other failure is
        unexpected and logged as it comes (it too would repeat at once)."""
        loop = asyncio.get_running_loop()
        for sock in self._listeners:
            loop.remove_reader(sock.fileno())
        delay = self.config.accept_retry_delay
        if exc.errno not in OUT_OF_RESOURCES:
            log.warning("accept() failed (%s); not accepting for %g s", exc, delay)
        elif self._starved_since is None:
            self._starved_since = time.monotonic()
            self._starved_tries = 0
            log.warning("out of file descriptors or memory (%s): not accepting connections until "
                        "some are free (trying every %g s); the %d connections open are served as usual",
                        exc, delay, len(self._links))
        else:
            self._starved_tries += 1
        self._accept_timer = loop.call_later(delay, self._start_accepting)


def tls_handshake_cap(configured: int) -> int:
    """TLS handshakes in progress allowed at once: ``configured`` (0: no limit), and never more
    than ``1 / DESCRIPTOR_SHARE`` of the descriptors this process may open, read each time as
    the limit may change (``ulimit -n``; see the module's docstring)."""
    if resource is None:
        return configured or 1 << 30
    soft = resource.getrlimit(resource.RLIMIT_NOFILE)[0]
    if soft == resource.RLIM_INFINITY:
        return configured or 1 << 30
    share = max(1, soft // DESCRIPTOR_SHARE)
    return min(configured, share) if configured else share
