"""Accepting connections: the server's listening sockets, and pausing when descriptors run out.

The server takes connections from its listening sockets itself (``_accept``), so that
running out of file descriptors pauses accepting for ``accept_retry_delay`` with one warning,
where asyncio's own accept loop logged thousands of tracebacks a second.  Each accepted
socket becomes a :class:`~noddy.server.net.link._Link`; from then on the link and the server
deal with it.  With ``tls_cert`` and ``tls_key`` the server listens on ``tls_port`` too, and
wraps what it accepts there in TLS (the standard library's ``ssl``); the plain port stays
as it is, for ``nc``.

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

from ..config import ServerConfig
from .link import _Link

#: The network layer's one logger (operators and tests filter on its name).
log = logging.getLogger("noddy.server.net.network")

#: Connections the kernel may hold for the server before it accepts them (also while it has
#: stopped accepting for want of file descriptors).
BACKLOG = 1024
#: Seconds a peer on the TLS port has to complete its handshake.
TLS_HANDSHAKE_TIMEOUT = 10.0
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
        """A listening socket is readable: accept what is waiting (at most a backlog's worth,
        so a crowd connecting at once cannot hold up the loop)."""
        loop = asyncio.get_running_loop()
        if listener not in self._listeners:  # closed by the shutdown since the loop saw it ready
            return
        for _ in range(BACKLOG):
            try:
                conn, _address = listener.accept()
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
            task = loop.create_task(self._adopt(conn, self._tls_context if listener in self._tls_listeners
                                                    else None))
            self._adopting.add(task)
            task.add_done_callback(self._adopting.discard)

    async def _adopt(self, conn: socket.socket, tls: ssl.SSLContext | None = None) -> None:
        """Make an accepted socket a connection (:class:`_Link`), encrypted with ``tls``: a
        peer that does not complete the handshake in ``TLS_HANDSHAKE_TIMEOUT`` is let go."""
        try:
            if tls is None:
                await asyncio.get_running_loop().connect_accepted_socket(lambda: _Link(self), conn)
            else:
                await asyncio.get_running_loop().connect_accepted_socket(
                    lambda: _Link(self), conn, ssl=tls, ssl_handshake_timeout=TLS_HANDSHAKE_TIMEOUT)
        except Exception as exc:  # the peer may be gone already; nothing else is affected
            log.debug("an accepted connection could not be set up: %r", exc)
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
