"""The network layer: bytes in, bytes out; every decision is the core's.

Each connection is a :class:`_Link`, an :class:`asyncio.BufferedProtocol`: the event loop
reads the socket into the server's receive buffer (``buffer_updated``), the link cuts that
into lines and feeds each to
:class:`~noddy.server.core.ServerCore` there and then, and it writes the core's messages
straight to the transport.  No task, queue or stream sits between the socket and the core:
with a reader task per connection the loop woke a coroutine and copied each line through a
``StreamReader`` before the core saw it, which cost more than the core's own work on a game
move (see ``bench/RESULTS.md``).

Writing: the messages of one batch of instructions go to a connection's socket in one
write.  While the peer keeps up they go straight away; when it does not, the transport calls
``pause_writing`` and later messages wait in the link's bounded buffer until
``resume_writing``, so a slow or stuck peer fills only its own buffer (and is dropped when it
holds ``send_buffer_bytes``, or ``send_queue`` messages) instead of stalling its table.  A
message that cannot be encoded touches only its own recipients (see ``_carry_out``).  A link
the core closes writes what it holds, then closes; a peer that will not take even that is
cut off after ``shutdown_timeout``.  Computer
players think in worker threads (``asyncio.to_thread``) so an expensive level never blocks
the loop.

Accepting: the server takes connections from its listening sockets itself (``_accept``), so
that running out of file descriptors pauses accepting for ``accept_retry_delay`` with one
warning, where asyncio's own accept loop logged thousands of tracebacks a second.

Storage (:mod:`noddy.server.storage`) runs on its own thread (an in-memory database writes
at once, on the loop: it never waits for a disk).  After every core call the
call's storage records are handed to it, and the call's messages wait in :attr:`_pending`
until the transaction has committed: nothing is sent that is not yet on disk.  The records of
all the core calls made in one turn of the event loop are written in one transaction (a group
commit), so under load the thread is woken once per turn of the loop, not once per request.
The waiting steps are carried out strictly in order, so messages keep the order the core gave them even
while several writes are in flight; a ``Query`` (a reply that needs stored data) waits its
turn the same way.
"""

from __future__ import annotations

import asyncio
import errno
import logging
import socket
import time
from collections import deque
from dataclasses import dataclass, field
from typing import Any

from noddy.protocol import encode_line

from . import text_mode
from .config import ServerConfig
from .core import BotJob, Close, Out, Query, Send, ServerCore
from .record_cache import encoded_line
from .storage import MEMORY, StorageWorker
from .throttled_log import ThrottledLog

log = logging.getLogger("noddy.server.network")

#: The kernel's send buffer for each connection (Linux doubles it).  Left to itself the
#: kernel grows it to megabytes, so a peer that never reads would take that much memory
#: before the transport even pauses; the server's messages are small, and this is plenty.
SEND_BUFFER = 32 * 1024
#: How much one read of a socket takes at most: more than the longest line.
RECEIVE_BUFFER = 64 * 1024
#: Connections the kernel may hold for the server before it accepts them (also while it has
#: stopped accepting for want of file descriptors).
BACKLOG = 1024
#: What ``accept()`` fails with when the process or system has no descriptor (or memory) for
#: one more connection: it will until some are freed, so the server stops trying for a while.
OUT_OF_RESOURCES = frozenset({errno.EMFILE, errno.ENFILE, errno.ENOBUFS, errno.ENOMEM})
#: Seconds between two log lines about the same kind of send-path trouble (see ThrottledLog).
LOG_PERIOD = 10.0
#: Message types a client cannot do without: its game (``event``, ``turn``, ``snapshot``) and
#: its session (``welcome``).  See :func:`_essential`.
ESSENTIAL_TYPES = frozenset({"event", "turn", "snapshot", "welcome"})


def _essential(message: dict[str, Any]) -> bool:
    """Whether a recipient that cannot be sent ``message`` must be dropped rather than have
    it skipped: a reply to its request (it waits for it: a request gets exactly one reply),
    or a message of its game or session (without it the client's picture of the game is
    silently wrong).  Dropping it is what a lost connection is: the seat is held and a resume
    brings a fresh snapshot.  Anything else (a table summary, a chat line, a ping) is
    skipped: the next one will do."""
    if not isinstance(message, dict):  # not a message at all: a bug, so play safe
        return True
    return message.get("id") is not None or message.get("type") in ESSENTIAL_TYPES



class _Link(asyncio.BufferedProtocol):
    """One connection: cuts what arrives into lines for the core, holds what cannot be
    written yet.  The server does the rest (see :class:`NoddyServer`).

    It is a *buffered* protocol so that the socket is read into the server's one receive
    buffer: a plain protocol makes asyncio allocate a fresh 256 KiB ``bytes`` for every
    read, and a buffer that size comes from ``mmap``, which cost more (~13 µs) than the
    core's work on a typical request.  Lines are cut out of the buffer before the next read.
    """

    def __init__(self, server: "NoddyServer") -> None:
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
        self.server._connected(self)

    def get_buffer(self, sizehint: int) -> memoryview:
        return self.server._inbox

    def buffer_updated(self, nbytes: int) -> None:
        """Feed every complete line that has arrived to the core; keep the rest for later."""
        if self.closing:
            return
        data = bytes(self.server._inbox[:nbytes])
        limit = self.server.config.max_line
        if self.partial:
            data = self.partial + data
            self.partial = b""
        start = 0
        server = self.server
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
        connection ends once what it is owed has been written (so keep the socket open)."""
        if not self.closing:
            if self.partial:
                line, self.partial = self.partial, b""
                self.server._receive(self, line)
            if not self.closing:
                self.server._hang_up(self)
        return True

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


@dataclass(eq=False)
class _Step:
    """Instructions held back until ``future`` is done: a storage write, or a query's read."""

    future: "asyncio.Future[Any] | None"
    outs: list[Out]
    query: Query | None = None
    #: The tables whose records the write holds, and the request they came from (see
    #: ServerCore.unstored): if those records are not written, the messages are not sent.
    tables: frozenset[int] = frozenset()
    origin: tuple[int, Any] | None = None


@dataclass(eq=False)
class NoddyServer:
    """A listening server; ``start()``, then ``shutdown()`` (or ``async with``)."""

    config: ServerConfig = field(default_factory=ServerConfig)
    core: ServerCore | None = None

    def __post_init__(self) -> None:
        if self.core is None:
            self.core = ServerCore(self.config)
        self._links: dict[int, _Link] = {}
        #: The listening sockets; the server accepts from them itself (see ``_accept``).
        self._listeners: list[socket.socket] = []
        #: Connections accepted whose transport is being set up.
        self._adopting: set[asyncio.Task[None]] = set()
        #: While accepting is stopped for want of descriptors: when it resumes.
        self._accept_timer: asyncio.TimerHandle | None = None
        #: When the server last found itself out of descriptors (None: it is not), and how
        #: many times it has tried again since; logged once when it accepts again.
        self._starved_since: float | None = None
        self._starved_tries = 0
        #: Where every connection's socket is read into (see :class:`_Link`): one is enough,
        #: as each read is cut into lines before the next.
        self._inbox = memoryview(bytearray(RECEIVE_BUFFER))
        self._bots: set[asyncio.Task[None]] = set()
        self._ticker: asyncio.Task[None] | None = None
        self._store: StorageWorker | None = None
        self._pending: deque[_Step] = deque()
        #: Records of this turn of the loop not yet handed to storage, and the future that
        #: their messages wait on (see ``_gate``).
        self._batch: list[Any] = []
        self._batch_gate: "asyncio.Future[Any] | None" = None
        #: One warning per message that cannot be encoded, at most one a period.
        self._unencodable = ThrottledLog(log, logging.WARNING, LOG_PERIOD)
        #: A write that failed for any other reason (a bug): logged, the link dropped.
        self._send_failed = ThrottledLog(log, logging.ERROR, LOG_PERIOD)

    @property
    def port(self) -> int:
        assert self._listeners
        return int(self._listeners[0].getsockname()[1])

    async def start(self) -> None:
        """Open the database and restore what it kept, then listen (raises ``StorageError``
        for a database that cannot be used, ``OSError`` if the address cannot be had)."""
        assert self.core is not None
        store = StorageWorker(self.config.db or MEMORY)
        try:
            state = await asyncio.wrap_future(store.open())
        except BaseException:
            store.close()
            raise
        self._store = store
        self._apply(self.core.restore(state))
        try:
            self._listeners = await self._listen()
        except BaseException:
            await self._close_store()
            raise
        self._start_accepting()
        self._ticker = asyncio.create_task(self._tick_loop())
        # DEBUG: noddy-server prints the address on stdout; at INFO it was printed twice.
        log.debug("listening on %s:%d (database %s)", self.config.host, self.port, self.config.db or MEMORY)
        self._run_bots()

    async def __aenter__(self) -> "NoddyServer":
        await self.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.shutdown()

    async def shutdown(self) -> None:
        """Stop accepting, say goodbye to every client, close tables, wait for the sockets."""
        assert self.core is not None
        log.info("shutting down")
        self._stop_listening()
        if self._ticker is not None:
            self._ticker.cancel()
        self._apply(self.core.shutdown())
        await self._settle()
        lost = [link.lost for link in self._links.values()]
        if lost:
            await asyncio.wait(lost, timeout=self.config.shutdown_timeout)
        for link in list(self._links.values()):
            link.drop()
        for task in list(self._bots):
            task.cancel()
        await self._close_store()
        log.info("shut down")

    # -- accepting connections ----------------------------------------------------------------
    # The server accepts connections itself rather than through ``loop.create_server``: on
    # Python 3.11, when ``accept()`` fails for want of a file descriptor, asyncio logs an
    # error with a traceback and then tries again, up to its backlog (1,024) times in the same
    # call, every second: thousands of tracebacks a second, and a busy loop.  Here the first
    # such failure stops accepting for ``accept_retry_delay`` seconds (the kernel keeps the
    # waiting connections in the backlog), with one warning for the whole time the server is
    # short, and one line when it accepts again.
    async def _listen(self) -> list[socket.socket]:
        """Listening sockets for every address ``config.host`` stands for (as
        ``create_server`` makes them: address reuse, IPv6 sockets IPv6 only)."""
        loop = asyncio.get_running_loop()
        infos = await loop.getaddrinfo(self.config.host or None, self.config.port,
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
            task = loop.create_task(self._adopt(conn))
            self._adopting.add(task)
            task.add_done_callback(self._adopting.discard)

    async def _adopt(self, conn: socket.socket) -> None:
        """Make an accepted socket a connection (:class:`_Link`)."""
        try:
            await asyncio.get_running_loop().connect_accepted_socket(lambda: _Link(self), conn)
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

    async def _close_store(self) -> None:
        """Let queued writes finish, then close the database."""
        await self._settle()
        if self._store is not None:
            store, self._store = self._store, None
            await asyncio.wrap_future(store.close())

    # -- per connection (called by _Link) ----------------------------------------------------------
    def _connected(self, link: _Link) -> None:
        assert self.core is not None and link.transport is not None
        peer = link.transport.get_extra_info("peername")
        address = peer[0] if isinstance(peer, tuple) and peer else None
        link.conn, outs = self.core.connect(address)
        self._links[link.conn] = link
        log.debug("connection %d from %s", link.conn, peer)
        self._apply(outs)

    def _receive(self, link: _Link, line: bytes) -> None:
        assert self.core is not None
        outs = self.core.receive(link.conn, line)
        self._apply(outs, self.core.origin)
        self._run_bots()

    def _line_too_long(self, link: _Link) -> None:
        assert self.core is not None
        self._apply(self.core.line_too_long(link.conn))

    def _hang_up(self, link: _Link) -> None:
        """The peer stopped sending: the core lets go of the connection, and the socket closes
        once what the connection is still owed (an error, a bye) has been written."""
        assert self.core is not None
        link.gone = True
        self._apply(self.core.disconnect(link.conn) + [Close(link.conn, "the peer hung up")])
        self._run_bots()

    def _lost(self, link: _Link) -> None:
        """The socket has closed, by either side."""
        assert self.core is not None
        if self._links.get(link.conn) is link:
            del self._links[link.conn]
        if not link.gone:
            link.gone = True
            self._apply(self.core.disconnect(link.conn))
            self._run_bots()

    def _apply(self, outs: list[Out], origin: tuple[int, Any] | None = None) -> None:
        """Carry out one core call's instructions once its storage records are written
        (``origin``: the request the call handled, refused if they cannot be written)."""
        assert self.core is not None
        records = self.core.take_records()
        gate = None
        tables: frozenset[int] = frozenset()
        if records and self._store is not None:
            gate = self._gate(records)
            tables = frozenset(record.table_id for record in records)
        if gate is None and not self._pending and not any(isinstance(o, Query) for o in outs):
            self._carry_out(outs)
            return
        plain: list[Out] = []
        for out in outs:
            if isinstance(out, Query):
                if gate is not None or plain:
                    self._pending.append(_Step(gate, plain, None, tables, origin))
                    gate, plain, tables = None, [], frozenset()
                self._write_batch()  # the read comes after every write before it
                read = None if self._store is None else self._watch(self._store.read(out.kind, out.args))
                self._pending.append(_Step(read, [], out))
            else:
                plain.append(out)
        if gate is not None or plain:
            self._pending.append(_Step(gate, plain, None, tables, origin))
        self._drain()

    async def _settle(self) -> None:
        """Wait (a bounded time) until every step held back so far has been carried out.

        Storage carries out its work in order, so the last step's future is the only one to
        wait for (waiting on all of them made 2,000 disconnects quadratic)."""
        self._write_batch()
        last = next((step.future for step in reversed(self._pending) if step.future is not None), None)
        if last is not None:
            await asyncio.wait([last], timeout=self.config.shutdown_timeout)
        self._drain()

    def _gate(self, records: list[Any]) -> "asyncio.Future[Any]":
        """The future that this call's messages wait on: the group commit of this turn of the
        event loop, which ``_write_batch`` hands to storage once the turn's callbacks are done."""
        self._batch.extend(records)
        if self._batch_gate is None:
            self._batch_gate = asyncio.get_running_loop().create_future()
            self._batch_gate.add_done_callback(lambda _: self._drain())
            asyncio.get_running_loop().call_soon(self._write_batch)
        return self._batch_gate

    def _write_batch(self) -> None:
        """Hand the records gathered so far to storage, in one transaction."""
        gate, records = self._batch_gate, self._batch
        if gate is None:
            return
        self._batch_gate, self._batch = None, []
        if self._store is None:
            gate.set_exception(RuntimeError("the database is closed"))
            return

        def settled(done: "asyncio.Future[Any]") -> None:
            if gate.done():
                return
            if done.cancelled():
                gate.cancel()
            elif done.exception() is not None:
                gate.set_exception(done.exception())  # type: ignore[arg-type]
            else:
                gate.set_result(done.result())  # the tables whose records failed

        written = self._store.write(records)
        if written.done():  # an in-memory database writes at once: no need to wait a turn
            if written.exception() is not None:
                gate.set_exception(written.exception())  # type: ignore[arg-type]
            else:
                gate.set_result(written.result())
            return
        asyncio.wrap_future(written).add_done_callback(settled)

    def _watch(self, future: Any) -> "asyncio.Future[Any]":
        waiting = asyncio.wrap_future(future)
        waiting.add_done_callback(lambda _: self._drain())
        return waiting

    def _drain(self) -> None:
        """Carry out the held-back steps whose storage work is done, in order."""
        assert self.core is not None
        while self._pending:
            step = self._pending[0]
            if step.future is not None and not step.future.done():
                return
            self._pending.popleft()
            outs = step.outs
            failure = None
            if step.future is not None:
                failure = step.future.exception() if not step.future.cancelled() else RuntimeError("cancelled")
            if step.query is not None:
                result = None if failure is not None or step.future is None else step.future.result()
                if failure is not None and step.query.kind != "repair_table":  # the core says when
                    log.error("reading %s from the database failed: %s", step.query.kind, failure)
                outs = self.core.answer(step.query, result, failed=step.future is None or failure is not None)
            elif step.tables:
                # A write that failed is not acknowledged: its messages are not sent, its
                # request is refused and its tables wait until storage takes them again.
                unwritten = step.tables if failure is not None else step.tables & (step.future.result() or set())
                if unwritten:
                    outs = [out for out in outs if isinstance(out, Close)]
                    outs += self.core.unstored(unwritten, step.origin, repr(failure) if failure else "")
            self._carry_out(outs)

    def _carry_out(self, outs: list[Out]) -> None:
        """Encode and write ``outs``: each connection's messages of the batch in one write.

        The core hands every member of a table the same message object when their views
        agree, so each object is encoded once per batch (once per text/JSON and names).

        Nothing here raises: a message that cannot be encoded (a string with a lone
        surrogate, say) is a fault of that message alone, so it touches only its own
        recipients (see :func:`_essential`: the message is skipped for them, or they are
        dropped), and it is logged once per message object, at most once a period, however
        many connections it was for.  Every other message of the batch goes out as usual."""
        touched: list[_Link] = []
        encoded: dict[tuple[int, bool, tuple[str, ...]], bytes | None] = {}
        #: id(message) -> [message, exception, recipients], for the messages that failed.
        failed: dict[int, list[Any]] = {}
        limit = self.config.send_queue or float("inf")
        byte_limit = self.config.send_buffer_bytes
        for out in outs:
            link = self._links.get(out.conn)
            if link is None or link.closing:
                continue
            try:
                if isinstance(out, Send):
                    if len(link.buffer) >= limit:
                        log.warning("connection %d is not reading (%d messages waiting); dropping it",
                                    out.conn, len(link.buffer))
                        link.drop()
                        continue
                    key = (id(out.message), out.text, out.names)
                    if key in encoded:
                        data = encoded[key]
                    else:
                        data = encoded[key] = self._encode(out, failed)
                    if data is None:
                        failed[id(out.message)][2] += 1
                        if _essential(out.message):
                            link.drop()
                        continue
                    if byte_limit and (link.blocked or link.held + len(data) > byte_limit // 2):
                        # (Otherwise the transport holds under half the limit: see connection_made.)
                        unsent = link.unsent()
                        # A message always goes into an empty queue: one longer than the
                        # bound still reaches a client that reads.
                        if unsent and unsent + len(data) > byte_limit:
                            log.warning("connection %d is not reading (%d bytes waiting); dropping it",
                                        out.conn, unsent)
                            link.drop()
                            continue
                    if not link.buffer:
                        touched.append(link)
                    link.buffer.append(data)
                    link.held += len(data)
                elif isinstance(out, Close):
                    log.debug("closing connection %d: %s", out.conn, out.reason)
                    link.end(self.config.shutdown_timeout)
            except Exception:  # a bug, not a peer's doing: it must still cost one link only
                self._send_failed("sending to connection %d failed; dropping it", out.conn, exc_info=True)
                link.drop()
        for link in touched:
            if not link.closing:
                try:
                    link.flush()
                except Exception:
                    self._send_failed("writing to connection %d failed; dropping it", link.conn, exc_info=True)
                    link.drop()
        for message, exc, recipients in failed.values():
            kind = message.get("type") if isinstance(message, dict) else type(message).__name__
            what = "dropped the" if _essential(message) else "skipped it for"
            self._unencodable("a %r message could not be encoded (%s: %s); %s %d connections",
                              kind, type(exc).__name__, exc, what, recipients)

    @staticmethod
    def _encode(out: Send, failed: dict[int, list[Any]]) -> bytes | None:
        """``out``'s message as the bytes of its line (text or JSON), or None (noted in
        ``failed``) if it cannot be encoded."""
        try:
            if out.text:
                return text_mode.render(out.message, out.names).encode("utf-8")
            if out.message.get("type") == "game_record":
                return encoded_line(out.message) or encode_line(out.message)
            return encode_line(out.message)
        except Exception as exc:  # UnicodeEncodeError, a value JSON cannot hold, a KeyError in render...
            failed.setdefault(id(out.message), [out.message, exc, 0])
            return None

    # -- timers and computer players ------------------------------------------------------------
    async def _tick_loop(self) -> None:
        assert self.core is not None
        while True:
            await asyncio.sleep(self.config.tick_interval)
            self._apply(self.core.tick())
            self._run_bots()

    def _run_bots(self) -> None:
        assert self.core is not None
        for job in self.core.take_bot_jobs():
            task = asyncio.create_task(self._bot(job))
            self._bots.add(task)
            task.add_done_callback(self._bots.discard)

    async def _bot(self, job: BotJob) -> None:
        assert self.core is not None
        try:
            action = await asyncio.to_thread(job.run)
        except Exception:
            log.exception("computer player at table %d seat %d failed", job.table_id, job.seat)
            action = None
        self._apply(self.core.bot_moved(job, action))
        self._run_bots()
