"""One TLS handshake in progress, made as cheap as the standard library allows (issue 31).

A TLS connection costs the server most before anyone is known: asyncio's ``SSLProtocol``
allocates (and zeroes) a 256 KiB read buffer for each connection as it is made, and OpenSSL
its own state; 3,000 handshakes left unfinished took the server from 31 to 973 MB.  So a
:class:`Handshake`

- starts no TLS at all until the peer has sent its first bytes (it waits for the socket to
  be readable, and peeks, so nothing is taken from the stream): a connection that never
  speaks costs a descriptor and a few small objects;
- then runs the standard library's handshake with a read buffer of ``TLS_READ_BUFFER``
  (``_LeanSSLProtocol``, where this Python's ``asyncio.sslproto`` is the one known to take
  it, see ``LEAN_TLS``); the buffer stays that size for the connection's life;
- begins at most ``HANDSHAKES_PER_TURN`` handshakes' cryptography per turn of the event loop
  (:class:`Turns`): a flood's handshakes, all ready at once, would otherwise run one after
  another while every player's line waits;
- and owns the deadline, ``tls_handshake_timeout`` from the accept: when it passes, the
  caller's ``over`` is called (its places freed) *before* the socket is closed, so a peer
  that sees the close can count on its place being free.

Admission (which handshakes may start at all) is the caller's:
:class:`~noddy.server.net.accepting.Accepting`.
"""

from __future__ import annotations

import asyncio
import socket
import ssl
import sys
from collections import deque
from typing import Callable

from asyncio import sslproto

#: Bytes the TLS layer reads from the socket at a time, and so holds per connection: two of
#: TLS's largest records (16 KiB and a little), so a burst of records still comes in one read;
#: asyncio's own 256 KiB is for bulk transfers, while the server's lines are at most 8 KiB.
TLS_READ_BUFFER = 32 * 1024

#: Whether this Python's ``asyncio.sslproto.SSLProtocol`` is the one whose read buffer is the
#: class attribute ``max_size`` and whose constructor ``_LeanSSLProtocol`` calls (CPython
#: 3.11 to 3.13, from uvloop).  Elsewhere connections use the standard path, buffer and all.
LEAN_TLS = ((3, 11) <= sys.version_info[:2] <= (3, 13)
            and getattr(getattr(sslproto, "SSLProtocol", None), "max_size", None) == 256 * 1024)


#: Handshakes that may begin per turn of the event loop.  The server's part of a handshake
#: (its key share and its signature) costs ~0.6 ms of the loop here with a 2048-bit RSA key:
#: 64 begun at once held every player's line for ~40-100 ms; two keep a turn near a millisecond.
HANDSHAKES_PER_TURN = 2


class Turns:
    """Handshakes waiting to begin, let go ``HANDSHAKES_PER_TURN`` per turn of the event loop
    (a callback scheduled with ``call_soon`` runs in the next turn, after the I/O of this one)."""

    def __init__(self) -> None:
        self._waiting: deque[asyncio.Future[bool]] = deque()
        self._scheduled = False

    def wait(self) -> "asyncio.Future[bool]":
        """A future that becomes True when it is this handshake's turn (the caller may settle
        it False first, if it gives up)."""
        loop = asyncio.get_running_loop()
        turn: asyncio.Future[bool] = loop.create_future()
        self._waiting.append(turn)
        if not self._scheduled:
            self._scheduled = True
            loop.call_soon(self._next)
        return turn

    def _next(self) -> None:
        begun = 0
        while self._waiting and begun < HANDSHAKES_PER_TURN:
            turn = self._waiting.popleft()
            if not turn.done():  # not given up meanwhile
                turn.set_result(True)
                begun += 1
        if self._waiting:
            asyncio.get_running_loop().call_soon(self._next)
        else:
            self._scheduled = False


if LEAN_TLS:
    class _LeanSSLProtocol(sslproto.SSLProtocol):
        """The standard library's TLS protocol with a ``TLS_READ_BUFFER`` read buffer (it is
        allocated in the constructor, and grown back only to ``max_size``)."""

        max_size = TLS_READ_BUFFER


class Handshake:
    """A TLS handshake on an accepted socket, for ``link``: ``await handshake.run()`` is True
    once the link is connected (encrypted), False if the peer left, failed or ran out of time.
    In every case ``over`` has been called exactly once -- ``over(True)`` when the link is
    connected, ``over(False)`` *before* the socket is closed otherwise."""

    def __init__(self, conn: socket.socket, context: ssl.SSLContext, link: asyncio.BaseProtocol,
                 timeout: float, over: Callable[[bool], None], turns: Turns) -> None:
        self.conn = conn
        self.turns = turns
        self.context = context
        self.link = link
        self.timeout = timeout
        self._over: Callable[[bool], None] | None = over
        #: What ``run`` waits on: the socket readable, its turn (``turns``), the handshake done.
        self._waiting: asyncio.Future[bool] | None = None
        #: The socket is watched for its first bytes (``_first_bytes``).
        self._peeking = False
        self._transport: asyncio.BaseTransport | None = None
        self._task: asyncio.Task[bool] | None = None
        #: The deadline has passed (a cancellation of ``run`` is then its own doing).
        self._expired = False

    async def run(self) -> bool:
        loop = asyncio.get_running_loop()
        self._task = asyncio.current_task()  # type: ignore[assignment]
        deadline = loop.call_later(self.timeout, self._expire)
        try:
            if not await self._first_bytes():
                return self._fail()
            self._waiting = self.turns.wait()
            if not await self._waiting:
                return self._fail()
            if LEAN_TLS:
                waiter: asyncio.Future[None] = loop.create_future()
                self._waiting = loop.create_future()
                waiter.add_done_callback(self._handshake_done)
                # The handshake timeout given to asyncio is a backstop: ``deadline`` comes first.
                protocol = _LeanSSLProtocol(loop, self.link, self.context, waiter, server_side=True,
                                            ssl_handshake_timeout=self.timeout + 1.0)
                self._transport, _ = await loop.connect_accepted_socket(lambda: protocol, self.conn)
                connected = await self._waiting
            else:
                self._transport, _ = await loop.connect_accepted_socket(
                    lambda: self.link, self.conn, ssl=self.context, ssl_handshake_timeout=self.timeout + 1.0)
                connected = True
            if connected:
                self._end(True)
                return True
            return self._fail()
        except BaseException as exc:  # the peer left while the transport was made; a shutdown
            self._fail()
            if isinstance(exc, asyncio.CancelledError) and self._expired:
                return False
            raise
        finally:
            deadline.cancel()

    async def _first_bytes(self) -> bool:
        """Wait until the peer sends something (True) or closes, fails or runs out of time."""
        loop = asyncio.get_running_loop()
        self._waiting = loop.create_future()
        loop.add_reader(self.conn.fileno(), self._settle, True)
        self._peeking = True
        try:
            if not await self._waiting:
                return False
        finally:
            self._stop_peeking()
        try:
            return bool(self.conn.recv(1, socket.MSG_PEEK))
        except (BlockingIOError, InterruptedError):
            return True  # readable a moment ago after all; the handshake will find out
        except OSError:
            return False

    def _stop_peeking(self) -> None:
        if self._peeking:
            self._peeking = False
            asyncio.get_running_loop().remove_reader(self.conn.fileno())

    def _settle(self, result: bool) -> None:
        if self._waiting is not None and not self._waiting.done():
            self._waiting.set_result(result)

    def _handshake_done(self, waiter: asyncio.Future[None]) -> None:
        """The standard library's handshake is over: it succeeded only if the link was told
        it is connected (the waiter also completes quietly for a peer that closes midway)."""
        self._settle(not waiter.cancelled() and waiter.exception() is None
                     and getattr(self.link, "transport", None) is not None)

    def _expire(self) -> None:
        """Out of time: free the places, then close (or have ``run`` close, as it wakes)."""
        if self._over is None:
            return
        if getattr(self.link, "transport", None) is not None:  # connected just now: in time
            self._end(True)
            return
        self._expired = True
        self._end(False)
        if self._transport is None and self._waiting is not None and not self._waiting.done():
            self._settle(False)  # ``run`` wakes (watching, or waiting for its turn) and closes
        elif self._transport is not None:
            self._transport.abort()  # closes the socket, and lets the TLS state go
        elif self._task is not None:
            self._task.cancel()  # while asyncio makes the transport

    def _fail(self) -> bool:
        self._end(False)
        self._stop_peeking()
        if self._transport is not None:
            self._transport.abort()
        else:
            self.conn.close()
        return False

    def _end(self, connected: bool) -> None:
        over, self._over = self._over, None
        if over is not None:
            over(connected)
