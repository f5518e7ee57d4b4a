"""One connection's link: bytes in, cut into lines for the core; bytes out, held for a slow peer.

Each connection is a :class:`_Link`, an :class:`asyncio.BufferedProtocol`: the event loop
reads the socket into the server's receive buffer (``buffer_updated``), the link cuts that
into lines and feeds each to
:class:`~noddy.server.core.ServerCore` there and then, and it writes the core's messages
straight to the transport.  No task, queue or stream sits between the socket and the core:
with a reader task per connection the loop woke a coroutine and copied each line through a
``StreamReader`` before the core saw it, which cost more than the core's own work on a game
move (see ``bench/RESULTS.md``).

While the peer keeps up the link's messages go to the socket straight away; when it does not,
the transport calls ``pause_writing`` and later messages wait in the link's bounded buffer
until ``resume_writing``.  A link the core closes writes what it holds, then closes; a peer
that will not take even that is cut off after ``shutdown_timeout``.

The link owns only what one connection holds (its partial line, its unsent bytes, its
closing state); what to do with a line, and when a peer holds too much, is the server's (see
:mod:`noddy.server.net.network` and :mod:`noddy.server.net.sending`).  It knows the server only
through :class:`LinkOwner`, so this module imports no other part of the network layer.
"""

from __future__ import annotations

import asyncio
import socket
from typing import Protocol

from ..config import ServerConfig

#: The kernel's send buffer for each connection (Linux doubles it).  Left to itself the
#: kernel grows it to megabytes, so a peer that never reads would take that much memory
#: before the transport even pauses; the server's messages are small, and this is plenty.
SEND_BUFFER = 32 * 1024
#: How much one read of a socket takes at most: more than the longest line.
RECEIVE_BUFFER = 64 * 1024


class LinkOwner(Protocol):
    """What a link asks of the server that owns it (:class:`~noddy.server.net.network.NoddyServer`):
    spelled out here so that the link need not import the server, which imports it."""

    config: ServerConfig
    #: The one buffer every connection's socket is read into (see :class:`_Link`).
    _inbox: memoryview

    def _connected(self, link: "_Link") -> None: ...

    def _receive(self, link: "_Link", line: bytes) -> None: ...

    def _line_too_long(self, link: "_Link") -> None: ...

    def _hang_up(self, link: "_Link") -> None: ...

    def _lost(self, link: "_Link") -> None: ...


class _Link(asyncio.BufferedProtocol):
    """One connection: cuts what arrives into lines for the core, holds what cannot be
    written yet.  The server does the rest (see :class:`~noddy.server.net.network.NoddyServer`).

    It is a *buffered* protocol so that the socket is read into the server's one receive
    buffer: a plain protocol makes asyncio allocate a fresh 256 KiB ``bytes`` for every
    read, and a buffer that size comes from ``mmap``, which cost more (~13 µs) than the
    core's work on a typical request.  Lines are cut out of the buffer before the next read.
    """

    def __init__(self, server: LinkOwner) -> None:
        self.server = server
        self.conn = 0
        self.transport: asyncio.Transport | None = None
        #: Encoded messages not yet handed to the socket: those of the batch being carried
        #: out, and any that came while the transport was paused.  At ``send_queue`` of them,
        #: or ``send_buffer_bytes`` held with the transport's buffer, the peer is taken for
        #: one that is not reading, and dropped.
        self.buffer: list[bytes] = []
        #: The bytes in ``buffer`` (kept, not summed: it is checked for every message).
        self.held = 0
        #: The transport's buffer is over its high-water mark: hold messages until it drains.
        self.blocked = False
        #: No more messages: what is buffered is written, then the socket closes.
        self.closing = False
        #: The core has been told the connection is gone (it is told exactly once).
        self.gone = False
        #: None until the first line that is not blank: then text mode (a person) or JSON, for good.
        self.text: bool | None = None
        #: The start of a line whose end has not arrived yet.
        self.partial = b""
        #: Done when the socket has closed (the shutdown waits for it).
        self.lost: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.abort_timer: asyncio.TimerHandle | None = None

    # -- asyncio.Protocol -----------------------------------------------------------------------
    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        self.transport = transport
        byte_limit = self.server.config.send_buffer_bytes
        if byte_limit:
            # While the transport is not paused it holds at most half the byte limit, so
            # _carry_out need only ask for its buffer's size once the link is blocked or
            # holds much itself (see there).
            high = transport.get_write_buffer_limits()[1]
            transport.set_write_buffer_limits(high=min(high, byte_limit // 2))
        sock = transport.get_extra_info("socket")
        if sock is not None:
            try:
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, SEND_BUFFER)
            except OSError:
                pass
            keep_alive(sock, self.server.config)
        self.server._connected(self)

    def get_buffer(self, sizehint: int) -> memoryview:
        return self.server._inbox

    def buffer_updated(self, nbytes: int) -> None:
        """Feed every complete line that has arrived to the core; keep the rest for later."""
        if self.closing:
            return
        server = self.server
        data = bytes(server._inbox[:nbytes])
        limit = server.config.max_line
        if self.partial:
            data = self.partial + data
            self.partial = b""
        elif 0 < nbytes <= limit and data.find(b"\n") == nbytes - 1:
            # The usual read, one whole line and nothing after it (a client waits for the
            # reply to each request): handed on as it is, without the cutting below.
            server._receive(self, data)
            return
        start = 0
        while True:
            end = data.find(b"\n", start)
            if end < 0:
                break
            if end + 1 - start > limit:
                server._line_too_long(self)
                return
            server._receive(self, data[start:end + 1])
            if self.closing:
                return
            start = end + 1
        rest = data[start:]
        if len(rest) >= limit:  # even its newline would make it one byte too long
            server._line_too_long(self)
            return
        self.partial = rest

    def eof_received(self) -> bool:
        """The peer has finished sending: its last unterminated line counts, then the
        connection ends once what it is owed has been written (so keep the socket open).
        Over TLS the transport closes after the end of the stream whatever this says, and
        asyncio warns for each connection that keeping it open "has no effect": so say False."""
        if not self.closing:
            if self.partial:
                line, self.partial = self.partial, b""
                self.server._receive(self, line)
            if not self.closing:
                self.server._hang_up(self)
        return self.transport is None or self.transport.get_extra_info("sslcontext") is None

    def connection_lost(self, exc: Exception | None) -> None:
        self.closing = True
        self.buffer.clear()
        self.held = 0
        if self.abort_timer is not None:
            self.abort_timer.cancel()
        self.server._lost(self)
        if not self.lost.done():
            self.lost.set_result(None)

    def pause_writing(self) -> None:
        self.blocked = True

    def resume_writing(self) -> None:
        self.blocked = False
        self.flush()
        if self.closing and self.transport is not None and not self.buffer:
            self.transport.close()

    # -- writing ----------------------------------------------------------------------------------
    def flush(self) -> None:
        """Hand the buffered messages to the socket in one write (one send() for a turn's
        burst of events), unless the peer has not caught up with the last ones yet."""
        if self.blocked or not self.buffer or self.transport is None:
            return
        if self.transport.is_closing():
            self.buffer.clear()
            self.held = 0
            return
        data = b"".join(self.buffer) if len(self.buffer) > 1 else self.buffer[0]
        self.buffer.clear()
        self.held = 0
        self.transport.write(data)  # may call pause_writing

    def unsent(self) -> int:
        """The bytes held for the peer and not yet in the kernel: this link's queue and the
        transport's buffer (the kernel's own is bounded by ``SEND_BUFFER``)."""
        transport = self.transport
        return self.held + (transport.get_write_buffer_size() if transport is not None else 0)

    def end(self, timeout: float) -> None:
        """No more messages: write what is buffered, then close; give up after ``timeout``."""
        if self.closing:
            return
        self.closing = True
        self.partial = b""
        transport = self.transport
        if transport is None:
            return
        self.flush()
        if not self.buffer:
            transport.close()  # the transport still writes what it holds, then closes
        self.abort_timer = asyncio.get_running_loop().call_later(timeout, transport.abort)

    def drop(self) -> None:
        """Cut the connection off now, unwritten messages and all (the transport's ``abort``
        lets go of its buffer too)."""
        self.closing = True
        self.buffer.clear()
        self.held = 0
        if self.transport is not None:
            self.transport.abort()


def keep_alive(sock: socket.socket, config: ServerConfig) -> None:
    """Turn on TCP keepalive for ``sock`` as ``config`` says (``keepalive_idle`` 0: off), so
    the kernel probes a silent peer and reports one that vanished: the connection then ends
    (``connection_lost``) like any other, and a person's seat is held.  A quiet person's
    machine answers the probes itself, so silence alone never ends a connection.  The
    per-socket timings are set where the system has them (Linux, macOS, Windows 10+).

    Keepalive probes only an idle connection: one whose peer vanished while the server was
    sending (a move pushed just then) is retransmitted to for many minutes instead.  Where
    the system has ``TCP_USER_TIMEOUT`` (Linux), unacknowledged data is given up after the
    same time keepalive takes, so either way a vanished peer is found in about
    ``keepalive_idle + keepalive_interval * keepalive_count`` seconds."""
    if config.keepalive_idle <= 0:
        return
    settings = [(socket.SOL_SOCKET, socket.SO_KEEPALIVE, 1)]
    for name, value in (("TCP_KEEPIDLE", config.keepalive_idle), ("TCP_KEEPINTVL", config.keepalive_interval),
                        ("TCP_KEEPCNT", config.keepalive_count)):
        option = getattr(socket, name, None)
        if option is not None and value > 0:
            settings.append((socket.IPPROTO_TCP, option, max(1, int(value))))
    user_timeout = getattr(socket, "TCP_USER_TIMEOUT", None)
    if user_timeout is not None:
        total = config.keepalive_idle + config.keepalive_interval * config.keepalive_count
        settings.append((socket.IPPROTO_TCP, user_timeout, int(total * 1000)))
    for level, option, value in settings:
        try:
            sock.setsockopt(level, option, value)
        except OSError:  # not a TCP socket, or the system refuses: the connection still works
            pass
