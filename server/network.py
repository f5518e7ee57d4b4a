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
is full) instead of stalling its table.  A link the core closes writes what it holds, then
closes; a peer that will not take even that is cut off after ``shutdown_timeout``.  Computer
players think in worker threads (``asyncio.to_thread``) so an expensive level never blocks
the loop.

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
import logging
import socket
from collections import deque
from dataclasses import dataclass, field
from typing import Any

from noddy.protocol import encode_line

from . import text_mode
from .config import ServerConfig
from .core import BotJob, Close, Out, Query, Send, ServerCore
from .storage import MEMORY, StorageWorker

log = logging.getLogger("noddy.server.network")

#: The kernel's send buffer for each connection (Linux doubles it).  Left to itself the
#: kernel grows it to megabytes, so a peer that never reads would take that much memory
#: before the transport even pauses; the server's messages are small, and this is plenty.
SEND_BUFFER = 32 * 1024
#: How much one read of a socket takes at most: more than the longest line.
RECEIVE_BUFFER = 64 * 1024


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
        #: out, and any that came while the transport was paused.  At ``send_queue`` of them
        #: the peer is taken for one that is not reading, and dropped.
        self.buffer: list[bytes] = []
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
            return
        data = b"".join(self.buffer) if len(self.buffer) > 1 else self.buffer[0]
        self.buffer.clear()
        self.transport.write(data)  # may call pause_writing

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
        """Cut the connection off now, unwritten messages and all."""
        self.closing = True
        self.buffer.clear()
        if self.transport is not None:
            self.transport.abort()


@dataclass(eq=False)
class _Step:
    """Instructions held back until ``future`` is done: a storage write, or a query's read."""

    future: "asyncio.Future[Any] | None"
    outs: list[Out]
    query: Query | None = None


@dataclass(eq=False)
class NoddyServer:
    """A listening server; ``start()``, then ``shutdown()`` (or ``async with``)."""

    config: ServerConfig = field(default_factory=ServerConfig)
    core: ServerCore | None = None

    def __post_init__(self) -> None:
        if self.core is None:
            self.core = ServerCore(self.config)
        self._server: asyncio.Server | None = None
        self._links: dict[int, _Link] = {}
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

    @property
    def port(self) -> int:
        assert self._server is not None and self._server.sockets
        return int(self._server.sockets[0].getsockname()[1])

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
            self._server = await asyncio.get_running_loop().create_server(
                lambda: _Link(self), self.config.host, self.config.port, backlog=1024)
        except BaseException:
            await self._close_store()
            raise
        self._ticker = asyncio.create_task(self._tick_loop())
        log.info("listening on %s:%d (database %s)", self.config.host, self.port, self.config.db or MEMORY)
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
        if self._server is not None:
            self._server.close()
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
        if self._server is not None:
            await self._server.wait_closed()
        await self._close_store()
        log.info("shut down")

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
        self._apply(self.core.receive(link.conn, line))
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

    def _apply(self, outs: list[Out]) -> None:
        """Carry out one core call's instructions once its storage records are written."""
        assert self.core is not None
        records = self.core.take_records()
        gate = None
        if records and self._store is not None:
            gate = self._gate(records)
        if gate is None and not self._pending and not any(isinstance(o, Query) for o in outs):
            self._carry_out(outs)
            return
        plain: list[Out] = []
        for out in outs:
            if isinstance(out, Query):
                if gate is not None or plain:
                    self._pending.append(_Step(gate, plain))
                    gate, plain = None, []
                self._write_batch()  # the read comes after every write before it
                read = None if self._store is None else self._watch(self._store.read(out.kind, out.args))
                self._pending.append(_Step(read, [], out))
            else:
                plain.append(out)
        if gate is not None or plain:
            self._pending.append(_Step(gate, plain))
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
                gate.set_result(None)

        written = self._store.write(records)
        if written.done():  # an in-memory database writes at once: no need to wait a turn
            if written.exception() is not None:
                gate.set_exception(written.exception())  # type: ignore[arg-type]
            else:
                gate.set_result(None)
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
                if failure is not None:
                    log.error("reading %s from the database failed: %s", step.query.kind, failure)
                outs = self.core.answer(step.query, result, failed=step.future is None or failure is not None)
            elif failure is not None:
                # The game goes on (refusing to would strand every table), but loudly.
                log.error("writing to the database failed; sending anyway: %r", failure)
            self._carry_out(outs)

    def _carry_out(self, outs: list[Out]) -> None:
        """Encode and write ``outs``: each connection's messages of the batch in one write.

        The core hands every member of a table the same message object when their views
        agree, so each object is encoded once per batch (once per text/JSON and names)."""
        touched: list[_Link] = []
        encoded: dict[tuple[int, bool, tuple[str, ...]], bytes] = {}
        limit = self.config.send_queue
        for out in outs:
            link = self._links.get(out.conn)
            if link is None or link.closing:
                continue
            if isinstance(out, Send):
                if len(link.buffer) >= limit:
                    log.warning("connection %d is not reading; dropping it", out.conn)
                    link.drop()
                    continue
                key = (id(out.message), out.text, out.names)
                data = encoded.get(key)
                if data is None:
                    data = encoded[key] = (
                        text_mode.render(out.message, out.names).encode("utf-8") if out.text
                        else encode_line(out.message))
                if not link.buffer:
                    touched.append(link)
                link.buffer.append(data)
            elif isinstance(out, Close):
                log.debug("closing connection %d: %s", out.conn, out.reason)
                link.end(self.config.shutdown_timeout)
        for link in touched:
            if not link.closing:
                link.flush()

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
