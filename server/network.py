"""The network layer: asyncio streams in, bytes out; every decision is the core's.

One small :class:`_Link` per connection, in the manner of hypercorn: a reader loop that
feeds lines to :class:`~noddy.server.core.ServerCore`, and a writer task draining a bounded
queue, so a slow or stuck peer fills only its own queue (and is dropped when it is full)
instead of stalling its table.  Computer players think in worker threads
(``asyncio.to_thread``) so an expensive level never blocks the loop.  Handler tasks are
tracked here because Python 3.11's ``Server.wait_closed`` does not wait for them.

Storage (:mod:`noddy.server.storage`) runs on its own thread.  After every core call the
call's storage records are handed to it, and the call's messages wait in :attr:`_pending`
until the transaction has committed: nothing is sent that is not yet on disk.  The waiting
steps are carried out strictly in order, so messages keep the order the core gave them even
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
    queue: asyncio.Queue[bytes | None]
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
        self._encoded: dict[tuple[int, bool], tuple[dict[str, object], bytes]] = {}
        self._store: StorageWorker | None = None
        self._pending: deque[_Step] = deque()

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
        waiting = [step.future for step in self._pending if step.future is not None]
        if waiting:
            await asyncio.wait(waiting, timeout=self.config.shutdown_timeout)
        self._drain()
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
        link = _Link(conn, writer, asyncio.Queue(self.config.send_queue))
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
        try:
            queue = link.queue
            while True:
                # Everything queued goes out in one write: one send() for a turn's burst of
                # events instead of one per message (the benchmark's top system call).
                batch = [await queue.get()]
                while not queue.empty() and batch[-1] is not None:
                    batch.append(queue.get_nowait())
                done = batch[-1] is None
                if done:
                    batch.pop()
                if batch:
                    link.writer.write(b"".join(batch))
                    await link.writer.drain()
                if done:
                    break
        except (ConnectionError, OSError):
            pass
        finally:
            link.writer.close()

    def _encode(self, out: Send) -> bytes:
        """``out`` on the wire.  The core hands every member of a table the same message
        object when their views agree, so within one batch of instructions each object is
        encoded once; the cache is emptied as soon as the batch has been carried out."""
        key = (id(out.message), out.text)
        hit = self._encoded.get(key)
        if hit is not None and hit[0] is out.message:
            return hit[1]
        data = text_mode.render(out.message).encode("utf-8") if out.text else encode_line(out.message)
        if not self._encoded:
            asyncio.get_running_loop().call_soon(self._encoded.clear)
        self._encoded[key] = (out.message, data)
        return data

    def _end(self, link: _Link) -> None:
        """No more writes: the writer task finishes what is queued and closes the socket."""
        if link.closing:
            return
        link.closing = True
        try:
            link.queue.put_nowait(None)
        except asyncio.QueueFull:
            link.writer.transport.abort()
            if link.writer_task is not None:
                link.writer_task.cancel()

    def _apply(self, outs: list[Out]) -> None:
        """Carry out one core call's instructions once its storage records are written."""
        assert self.core is not None
        records = self.core.take_records()
        gate = None
        if records and self._store is not None:
            gate = self._watch(self._store.write(records))
        if gate is None and not self._pending and not any(isinstance(o, Query) for o in outs):
            self._carry_out(outs)
            return
        plain: list[Out] = []
        for out in outs:
            if isinstance(out, Query):
                if gate is not None or plain:
                    self._pending.append(_Step(gate, plain))
                    gate, plain = None, []
                read = None if self._store is None else self._watch(self._store.read(out.kind, out.args))
                self._pending.append(_Step(read, [], out))
            else:
                plain.append(out)
        if gate is not None or plain:
            self._pending.append(_Step(gate, plain))
        self._drain()

    async def _settle(self) -> None:
        """Wait (a bounded time) until every step held back so far has been carried out."""
        waiting = [step.future for step in self._pending if step.future is not None]
        if waiting:
            await asyncio.wait(waiting, timeout=self.config.shutdown_timeout)
        self._drain()

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
        for out in outs:
            link = self._links.get(out.conn)
            if link is None or link.closing:
                continue
            if isinstance(out, Send):
                data = self._encode(out)
                try:
                    link.queue.put_nowait(data)
                except asyncio.QueueFull:
                    log.warning("connection %d is not reading; dropping it", out.conn)
                    link.closing = True
                    link.writer.transport.abort()
                    if link.writer_task is not None:
                        link.writer_task.cancel()
            elif isinstance(out, Close):
                log.debug("closing connection %d: %s", out.conn, out.reason)
                self._end(link)

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
