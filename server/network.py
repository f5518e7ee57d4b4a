"""The network layer: asyncio streams in, bytes out; every decision is the core's.

One small :class:`_Link` per connection, in the manner of hypercorn: a reader loop that
feeds lines to :class:`~noddy.server.core.ServerCore`, and a bounded buffer of messages.  The
messages of one batch of instructions go to the socket in one write, straight away while the
peer keeps up; when it does not (the transport is paused) the link's writer task waits for it
to drain while later messages wait in the buffer, so a slow or stuck peer fills only its own
buffer (and is dropped when it is full) instead of stalling its table.  Computer players
think in worker threads (``asyncio.to_thread``) so an expensive level never blocks the loop.  Handler tasks are
tracked here because Python 3.11's ``Server.wait_closed`` does not wait for them.

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
from collections import deque
from dataclasses import dataclass, field
from typing import Any

from noddy.protocol import encode_line

from . import text_mode
from .config import ServerConfig
from .core import BotJob, Close, Out, Query, Send, ServerCore
from .storage import MEMORY, StorageWorker

log = logging.getLogger("noddy.server.network")


@dataclass(eq=False)
class _Link:
    conn: int
    writer: asyncio.StreamWriter
    #: Encoded messages not yet handed to the socket.
    buffer: list[bytes] = field(default_factory=list)
    #: Messages waiting for the peer, as the old per-link queue counted them: those sent in
    #: this turn of the event loop plus those buffered while the transport is paused.  At
    #: ``send_queue`` the peer is taken for one that is not reading and dropped.
    waiting: int = 0
    #: The transport's buffer is over its high-water mark: the writer task is draining it.
    blocked: bool = False
    #: No more messages: the writer task writes what is buffered, then closes the socket.
    done: bool = False
    wake: asyncio.Event = field(default_factory=asyncio.Event)
    writer_task: asyncio.Task[None] | None = None
    closing: bool = False


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
        self._handlers: set[asyncio.Task[None]] = set()
        self._bots: set[asyncio.Task[None]] = set()
        self._ticker: asyncio.Task[None] | None = None
        #: Messages already encoded in the current batch (see ``_encode``).
        self._encoded: dict[tuple[int, bool, tuple[str, ...]], tuple[dict[str, object], bytes]] = {}
        self._store: StorageWorker | None = None
        self._pending: deque[_Step] = deque()
        #: Records of this turn of the loop not yet handed to storage, and the future that
        #: their messages wait on (see ``_gate``).
        self._batch: list[Any] = []
        self._batch_gate: "asyncio.Future[Any] | None" = None
        #: Links sent to in this turn of the event loop (their ``waiting`` counts restart).
        self._sent_to: set[_Link] = set()

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
            self._server = await asyncio.start_server(
                self._handle, self.config.host, self.config.port,
                # StreamReader lets a line through when its "\n" is at index <= limit, so
                # limit = max_line - 1 makes max_line bytes, newline included, the longest.
                limit=self.config.max_line - 1)
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
        """Stop accepting, say goodbye to every client, close tables, wait for handlers."""
        assert self.core is not None
        log.info("shutting down")
        if self._server is not None:
            self._server.close()
        if self._ticker is not None:
            self._ticker.cancel()
        self._apply(self.core.shutdown())
        if self._handlers:
            done, pending = await asyncio.wait(set(self._handlers), timeout=self.config.shutdown_timeout)
            for link in list(self._links.values()):
                link.writer.transport.abort()
            for task in pending:
                task.cancel()
            if pending:
                await asyncio.wait(pending, timeout=1.0)
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

    # -- per connection -----------------------------------------------------------------------
    async def _handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        assert self.core is not None
        task = asyncio.current_task()
        assert task is not None
        self._handlers.add(task)
        peer = writer.get_extra_info("peername")
        address = peer[0] if isinstance(peer, tuple) and peer else None
        conn, outs = self.core.connect(address)
        link = _Link(conn, writer)
        link.writer_task = asyncio.create_task(self._write_loop(link))
        self._links[conn] = link
        log.debug("connection %d from %s", conn, peer)
        try:
            self._apply(outs)
            while not link.closing:
                try:
                    line = await reader.readline()
                except (ValueError, asyncio.LimitOverrunError):
                    self._apply(self.core.line_too_long(conn))
                    break
                except (ConnectionError, OSError):
                    break
                if not line:
                    break
                self._apply(self.core.receive(conn, line))
                self._run_bots()
        finally:
            self._apply(self.core.disconnect(conn))
            self._run_bots()
            if self._pending:  # what this connection is owed (an error, a bye) goes out first
                try:
                    await self._settle()
                except asyncio.CancelledError:
                    pass
            self._end(link)
            try:
                await asyncio.wait_for(asyncio.shield(link.writer_task), self.config.shutdown_timeout)
            except (asyncio.TimeoutError, asyncio.CancelledError):
                writer.transport.abort()
            self._links.pop(conn, None)
            self._handlers.discard(task)

    async def _write_loop(self, link: _Link) -> None:
        """Wait while the peer is slow (the transport paused); close the socket at the end."""
        try:
            while True:
                await link.wake.wait()
                link.wake.clear()
                while link.blocked:
                    await link.writer.drain()
                    link.blocked = False
                    link.waiting = 0
                    self._flush(link)
                if link.done:
                    break
        except (ConnectionError, OSError):
            pass
        finally:
            link.writer.close()

    def _flush(self, link: _Link) -> None:
        """Hand the buffered messages to the socket in one write (one send() for a turn's
        burst of events), unless the writer task is waiting for the peer to catch up."""
        if link.blocked or not link.buffer:
            return
        transport = link.writer.transport
        if transport.is_closing():
            link.buffer.clear()
            return
        data = b"".join(link.buffer) if len(link.buffer) > 1 else link.buffer[0]
        link.buffer.clear()
        transport.write(data)
        if transport.get_write_buffer_size() > transport.get_write_buffer_limits()[1]:
            link.blocked = True
            link.wake.set()

    def _encode(self, out: Send) -> bytes:
        """``out`` on the wire.  The core hands every member of a table the same message
        object when their views agree, so within one batch of instructions each object is
        encoded once; the cache is emptied as soon as the batch has been carried out."""
        key = (id(out.message), out.text, out.names)
        hit = self._encoded.get(key)
        if hit is not None and hit[0] is out.message:
            return hit[1]
        data = (text_mode.render(out.message, out.names).encode("utf-8") if out.text
                else encode_line(out.message))
        if not self._encoded:
            asyncio.get_running_loop().call_soon(self._encoded.clear)
        self._encoded[key] = (out.message, data)
        return data

    def _new_turn(self) -> None:
        """The loop has turned: what was written to a link that is not paused has gone."""
        for link in self._sent_to:
            if not link.blocked:
                link.waiting = 0
        self._sent_to.clear()

    def _end(self, link: _Link) -> None:
        """No more writes: what is buffered goes out, then the writer task closes the socket."""
        if link.closing:
            return
        link.closing = True
        self._flush(link)
        link.done = True
        link.wake.set()

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
        touched: list[_Link] = []
        for out in outs:
            link = self._links.get(out.conn)
            if link is None or link.closing:
                continue
            if isinstance(out, Send):
                buffer = link.buffer
                if link.waiting >= self.config.send_queue:
                    log.warning("connection %d is not reading; dropping it", out.conn)
                    link.closing = True
                    buffer.clear()
                    link.writer.transport.abort()
                    if link.writer_task is not None:
                        link.writer_task.cancel()
                    continue
                if not buffer:
                    touched.append(link)
                buffer.append(self._encode(out))
                link.waiting += 1
                if not self._sent_to:
                    asyncio.get_running_loop().call_soon(self._new_turn)
                self._sent_to.add(link)
            elif isinstance(out, Close):
                log.debug("closing connection %d: %s", out.conn, out.reason)
                self._end(link)
        for link in touched:
            if not link.closing:
                self._flush(link)

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
