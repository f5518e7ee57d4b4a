"""The network layer: bytes in, bytes out; every decision is the core's.

This module holds :class:`NoddyServer`, the object that owns the event-loop side of the
server: it starts and shuts down, hands what each connection says to
:class:`~noddy.server.core.ServerCore`, and carries out the core's instructions once storage
allows (below).  The rest of the layer is one module per idea, each a part of the server:

- :mod:`noddy.server.net.link`: one connection (``_Link``): cutting lines, buffering writes;
- :mod:`noddy.server.net.accepting`: the listening sockets, and pausing when descriptors run out;
- :mod:`noddy.server.net.sending`: encoding messages and writing them to links, within the caps;
- :mod:`noddy.server.net.computer_players`: computer players thinking in worker threads;
- :mod:`noddy.server.net.ticking`: the core's timers, slept to (``ServerCore.next_deadline``);
- :mod:`noddy.server.net.ordering`: each connection's messages in order while storage steps
  and password checks are in flight (and the hashing worker those checks run on).

The parts are mixins of :class:`NoddyServer` rather than objects it calls, so a message's path
from the socket to the core and back is the same chain of method calls it was when this was
one module.  Their old names are re-exported here, so ``noddy.server.net.network`` keeps working
for whoever imported them from it.

Storage (:mod:`noddy.server.storage`) runs on its own thread (an in-memory database writes
at once, on the loop: it never waits for a disk).  After every core call the
call's storage records are handed to it, and the call's messages wait in :attr:`_pending`
until the transaction has committed: nothing is sent that is not yet on disk.  The records of
all the core calls made in one turn of the event loop are written in one transaction (a group
commit), so under load the thread is woken once per turn of the loop, not once per request.
The waiting steps are carried out strictly in order, so messages keep the order the core gave them even
while several writes are in flight; a ``Query`` (a reply that needs stored data) waits its
turn the same way.  The calls of one turn that wait for the same commit share one step (see
:class:`_Step`), so they are carried out together: one write per connection per turn.
"""

from __future__ import annotations

import asyncio
import logging
from collections import deque
from dataclasses import dataclass, field
from typing import Any

from .accepting import BACKLOG, OUT_OF_RESOURCES, Accepting
from .computer_players import ComputerPlayers
from .ticking import Ticking
from ..config import ServerConfig
from ..core import Close, Effects, Out, Query, ServerCore
from .link import RECEIVE_BUFFER, SEND_BUFFER, _Link
from .ordering import Ordering
from .sending import ESSENTIAL_TYPES, LOG_PERIOD, Sending, _essential
from ..storage import MEMORY, StorageWorker
from ..text import TextAdapter

__all__ = ["BACKLOG", "ESSENTIAL_TYPES", "LOG_PERIOD", "OUT_OF_RESOURCES", "RECEIVE_BUFFER", "SEND_BUFFER",
           "NoddyServer", "_Link", "_Step", "_essential"]

log = logging.getLogger("noddy.server.net.network")
#: UTF-8's byte order mark, which some editors and Windows tools put before a file's first line:
#: dropped from a connection's first line, so ``\ufeff{...}`` is JSON like ``{...}``.
_BOM = b"\xef\xbb\xbf"


#: The tables of a core call that wrote no storage record.
_NO_TABLES: frozenset[int] = frozenset()


@dataclass(eq=False)
class _Step:
    """Instructions held back until ``future`` is done: a storage write, or a query's read.

    Every core call of one turn of the event loop waits for the same group commit, so their
    instructions share one step (``outs`` in order) and are carried out together: one
    ``_carry_out``, and one write per connection however many calls sent to it.  ``parts``
    keeps what each call's share was, for the rare write that fails (see ``_drain``)."""

    future: "asyncio.Future[Any] | None"
    outs: list[Out]
    query: Query | None = None
    #: One entry per core call in the step: the end of its instructions in ``outs``, the
    #: tables whose records it wrote, and the request it came from (see ServerCore.unstored):
    #: if those records are not written, its messages are not sent.
    parts: list[tuple[int, frozenset[int], tuple[int, Any] | None]] = field(default_factory=list)


@dataclass(eq=False)
class NoddyServer(Accepting, Sending, ComputerPlayers, Ticking, Ordering):
    """A listening server; ``start()``, then ``shutdown()`` (or ``async with``)."""

    config: ServerConfig = field(default_factory=ServerConfig)
    core: ServerCore | None = None

    def __post_init__(self) -> None:
        if self.core is None:
            self.core = ServerCore(self.config)
        #: Text-mode connections: their lines read, their messages marked (see noddy.server.text).
        self._text = TextAdapter(self.core)
        #: Records of a core call carried out outside ``_apply`` (a query's answer, an unstored
        #: write's refusals): written with the next call's, as they always were.
        self._leftover: list[Any] = []
        self._restored_jobs: list[Any] = []
        self._links: dict[int, _Link] = {}
        self._init_accepting()
        #: Where every connection's socket is read into (see :class:`_Link`): one is enough,
        #: as each read is cut into lines before the next.
        self._inbox = memoryview(bytearray(RECEIVE_BUFFER))
        self._init_computer_players()
        self._init_ticking()
        self._store: StorageWorker | None = None
        self._pending: deque[_Step] = deque()
        self._init_ordering()
        #: Records of this turn of the loop not yet handed to storage, and the future that
        #: their messages wait on (see ``_gate``).
        self._batch: list[Any] = []
        self._batch_gate: "asyncio.Future[Any] | None" = None
        self._init_sending()

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
        self._apply(self.core.restore(state), run_bots=False)
        try:
            self._listeners = await self._listen()
        except BaseException:
            await self._close_store()
            raise
        self._start_accepting()
        self._ticker = asyncio.create_task(self._tick_loop())
        # DEBUG: noddy-server prints the address on stdout; at INFO it was printed twice.
        log.debug("listening on %s:%d (database %s)", self.config.host, self.port, self.config.db or MEMORY)
        self._run_bots(self._restored_jobs)

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
        self._hasher.close()
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
        link.conn, effects = self.core.connect(address)
        self._links[link.conn] = link
        log.debug("connection %d from %s", link.conn, peer)
        self._apply(effects)

    def _receive(self, link: _Link, line: bytes) -> None:
        assert self.core is not None
        if link.text is None:  # the first line that is not blank decides, for good
            if line.startswith(_BOM):  # an editor's byte order mark is not the line's first character
                line = line[len(_BOM):]
            stripped = line.strip()
            if not stripped:
                return
            link.text = not stripped.startswith(b"{")
        if link.text:
            self._apply(self._text.receive(link.conn, line), marked=True)
        else:
            self._apply(self.core.receive(link.conn, line))

    def _line_too_long(self, link: _Link) -> None:
        assert self.core is not None
        self._apply(self.core.line_too_long(link.conn))

    def _hang_up(self, link: _Link) -> None:
        """The peer stopped sending: the core lets go of the connection, and the socket closes
        once what the connection is still owed (an error, a bye) has been written."""
        assert self.core is not None
        link.gone = True
        effects = self.core.disconnect(link.conn)
        self._text.forget(link.conn)
        effects.out.append(Close(link.conn, "the peer hung up"))
        self._apply(effects)

    def _lost(self, link: _Link) -> None:
        """The socket has closed, by either side."""
        assert self.core is not None
        if self._links.get(link.conn) is link:
            del self._links[link.conn]
        if not link.gone:
            link.gone = True
            self._text.forget(link.conn)
            self._apply(self.core.disconnect(link.conn))

    def _apply(self, effects: Effects, marked: bool = False, run_bots: bool = True) -> None:
        """Carry out one core call's instructions once its storage records are written
        (``effects.origin``: the request the call handled, refused if they cannot be written),
        and start its computer players thinking.  ``marked``: the text adapter has seen the
        instructions already."""
        assert self.core is not None
        if self._alarm is not None and not self._arm_due:  # the call may have set an earlier deadline
            self._arm_soon()
        outs, records, origin = effects.out, effects.records, effects.origin
        if not marked and self._text.people:
            self._text.outgoing(outs)
        if self._leftover:
            records, self._leftover = self._leftover + records, []
        if run_bots:
            if effects.jobs:
                self._run_bots(effects.jobs)
        else:
            self._restored_jobs = effects.jobs
        for work in effects.passwords:
            self._parked.setdefault(work.conn, [])
            self._hasher.submit(work, self._password_done)
        gate = None
        tables = _NO_TABLES
        if records and self._store is not None:
            gate = self._gate(records)
            tables = frozenset([record.table_id for record in records])
        for out in outs:
            if out.__class__ is Query:
                break
        else:  # no query among them: the usual call
            if gate is None:
                if not self._pending:
                    self._carry_out(outs)
                    return
                outs = self._overtake(outs)
                if not outs:
                    return
            pending = self._pending
            last = pending[-1] if pending else None
            if last is not None and last.query is None and last.future is gate:
                # The same group commit as the calls before it in this turn: one step.
                self._hold(outs)
                last.outs += outs
                last.parts.append((len(last.outs), tables, origin))
                return
            if gate is not None or outs:
                # A copy: the calls after it in this turn are added to the step's list.
                self._hold(outs)
                pending.append(_Step(gate, outs[:], None, [(len(outs), tables, origin)]))
            self._drain()
            return
        plain: list[Out] = []
        for out in outs:
            if isinstance(out, Query):
                if gate is not None or plain:
                    self._hold(plain)
                    self._pending.append(_Step(gate, plain, None, [(len(plain), tables, origin)]))
                    gate, plain, tables = None, [], frozenset()
                self._read(out)
            else:
                plain.append(out)
        if gate is not None or plain:
            self._hold(plain)
            self._pending.append(_Step(gate, plain, None, [(len(plain), tables, origin)]))
        self._drain()

    def _read(self, query: Query) -> None:
        """Have storage read (or write) what ``query`` asks, after every write before it; its
        answer waits its turn in ``_pending``."""
        self._write_batch()
        read = None if self._store is None else self._watch(self._store.read(query.kind, query.args))
        self._held[query.conn] = self._held.get(query.conn, 0) + 1
        self._pending.append(_Step(read, [], query))

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
            self._release(step)
            outs = step.outs
            failure = None
            if step.future is not None:
                failure = step.future.exception() if not step.future.cancelled() else RuntimeError("cancelled")
            if step.query is not None:
                result = None if failure is not None or step.future is None else step.future.result()
                if failure is not None and step.query.kind != "repair_table":  # the core says when
                    log.error("reading %s from the database failed: %s", step.query.kind, failure)
                outs = self._aside(self.core.answer(step.query, result,
                                                    failed=step.future is None or failure is not None))
                if any(out.__class__ is Query for out in outs):  # an answer that asks again (a
                    # login's waiting tells): its reads go after every step held back so far
                    self._carry_out([out for out in outs if out.__class__ is not Query])
                    for query in [out for out in outs if out.__class__ is Query]:
                        self._read(query)
                    continue
            elif step.future is not None and (failure is not None or step.future.result()):
                outs = self._unwritten(step, failure)
            self._carry_out(outs)

    def _aside(self, effects: Effects) -> list[Out]:
        """The instructions of a core call carried out straight away (an answer, an unstored
        write's refusals): marked for text connections; its records wait for the next call's
        write, its computer players start thinking now."""
        if self._text.people:
            self._text.outgoing(effects.out)
        self._leftover += effects.records
        if effects.jobs:
            self._run_bots(effects.jobs)
        for work in effects.passwords:
            self._parked.setdefault(work.conn, [])
            self._hasher.submit(work, self._password_done)
        return effects.out

    def _unwritten(self, step: _Step, failure: BaseException | None) -> list[Out]:
        """What to carry out of ``step`` whose write failed (``failure``), or left some
        tables' records unwritten (the future's result): a write that failed is not
        acknowledged, so the messages of each core call whose tables were not written are
        not sent, its request is refused and its tables wait until storage takes them again.
        The other calls' instructions go out as usual, in order."""
        assert self.core is not None and step.future is not None
        failed_tables = None if failure is not None else (step.future.result() or set())
        outs: list[Out] = []
        start = 0
        for end, tables, origin in step.parts:
            part = step.outs[start:end]
            start = end
            unwritten = tables if failed_tables is None else tables & failed_tables
            if unwritten:
                outs += [out for out in part if isinstance(out, Close)]
                outs += self._aside(self.core.unstored(unwritten, origin, repr(failure) if failure else ""))
            else:
                outs += part
        return outs
