"""One turn of the event loop, one step: the core calls whose records go into the same group
commit are carried out together (one ``_carry_out``), and when the commit leaves a table's
records unwritten, only the calls that wrote that table are refused, in their place."""

from __future__ import annotations

import asyncio
import concurrent.futures
from dataclasses import dataclass
from typing import Any

from noddy.server.core.instructions import Close, Effects, Out, Query, Send
from noddy.server.net.network import NoddyServer


@dataclass
class _Record:
    table_id: int


class _Core:
    """The two things the network layer asks of the core here: the records of the call just
    made, and what to send instead of a call's messages whose tables were not written."""

    def __init__(self) -> None:
        self.records: list[_Record] = []
        self.unstored_calls: list[tuple[set[int], Any, str]] = []

    def effects(self, outs: list[Out], origin: Any = None) -> Effects:
        """One call's effects: its instructions and the records made since the last call."""
        records, self.records = self.records, []
        return Effects(outs, records, [], origin)  # type: ignore[arg-type]

    def answer(self, query: Query, result: Any, failed: bool) -> Effects:
        return self.effects([Send(query.conn, {"type": "answer", "id": query.request_id, "result": result})])

    def unstored(self, tables: frozenset[int], origin: Any, why: str) -> Effects:
        self.unstored_calls.append((set(tables), origin, why))
        conn, request_id = origin
        return self.effects([Send(conn, {"type": "error", "code": "storage_unavailable", "id": request_id})])


class _Store:
    """An in-memory store whose every write is done at once, failing ``failing`` tables."""

    def __init__(self, failing: set[int]) -> None:
        self.failing = failing
        self.writes: list[list[_Record]] = []

    def read(self, kind: str, args: dict[str, Any]) -> "concurrent.futures.Future[Any]":
        self.writes.append([kind])  # (in the same journal, to see what came first)
        done: concurrent.futures.Future[Any] = concurrent.futures.Future()
        done.set_result(f"{kind} after {len(self.writes) - 1} writes")
        return done

    def write(self, records: list[_Record]) -> "concurrent.futures.Future[set[int]]":
        self.writes.append(list(records))
        done: concurrent.futures.Future[set[int]] = concurrent.futures.Future()
        done.set_result({r.table_id for r in records} & self.failing)
        return done


def _server(failing: set[int]) -> tuple[NoddyServer, _Core, _Store, list[list[Out]]]:
    core = _Core()
    server = NoddyServer(core=core)  # type: ignore[arg-type]
    store = _Store(failing)
    server._store = store  # type: ignore[assignment]
    carried: list[list[Out]] = []
    server._carry_out = lambda outs: carried.append(list(outs))  # type: ignore[method-assign]
    return server, core, store, carried


def _call(server: NoddyServer, core: _Core, table: int, outs: list[Out], origin: Any) -> None:
    core.records.append(_Record(table))
    server._apply(core.effects(outs, origin))


async def _next_turns() -> None:
    for _ in range(3):
        await asyncio.sleep(0)


async def test_the_calls_of_one_turn_are_written_in_one_commit_and_carried_out_together() -> None:
    server, core, store, carried = _server(failing=set())
    first = [Send(1, {"type": "ok", "id": 1}), Send(2, {"type": "turn"})]
    second = [Send(3, {"type": "ok", "id": 7}), Close(3, "bye")]
    _call(server, core, 1, first, (1, 1))
    _call(server, core, 2, second, (3, 7))
    assert carried == []  # nothing goes out before the commit
    await _next_turns()
    assert store.writes == [[_Record(1), _Record(2)]]
    assert carried == [first + second]
    assert core.unstored_calls == []
    assert not server._pending


async def test_a_table_left_unwritten_refuses_only_its_own_call_in_its_place() -> None:
    server, core, store, carried = _server(failing={2})
    first = [Send(1, {"type": "ok", "id": 1})]
    second = [Send(3, {"type": "event", "seq": 9}), Close(4, "bye")]
    third = [Send(5, {"type": "ok", "id": 2})]
    _call(server, core, 1, first, (1, 1))
    _call(server, core, 2, second, (3, 7))
    _call(server, core, 3, third, (5, 2))
    await _next_turns()
    assert len(store.writes) == 1
    # The second call's messages are not sent (its Close still is), its request is refused
    # where its messages would have been; the calls before and after it go out as usual.
    assert carried == [first + [Close(4, "bye"), Send(3, {"type": "error", "code": "storage_unavailable",
                                                          "id": 7})] + third]
    assert core.unstored_calls == [({2}, (3, 7), "")]


async def test_a_call_of_the_next_turn_waits_for_its_own_commit() -> None:
    server, core, store, carried = _server(failing=set())
    first = [Send(1, {"type": "ok", "id": 1})]
    _call(server, core, 1, first, (1, 1))
    await _next_turns()
    second = [Send(1, {"type": "ok", "id": 2})]
    _call(server, core, 1, second, (1, 2))
    await _next_turns()
    assert [len(batch) for batch in store.writes] == [1, 1]
    assert carried == [first, second]


async def test_a_read_in_the_middle_of_a_turn_keeps_the_order_of_the_calls() -> None:
    """A call that reads storage (``list_games``) between two that write: the writes before
    it are committed first, its answer goes out after their messages and before those of
    the call after it, which waits for a commit of its own."""
    server, core, store, carried = _server(failing=set())
    first = [Send(1, {"type": "ok", "id": 1})]
    _call(server, core, 1, first, (1, 1))
    server._apply(core.effects([Query(2, 5, "list_games", {})], (2, 5)))
    third = [Send(3, {"type": "ok", "id": 9})]
    _call(server, core, 2, third, (3, 9))
    await _next_turns()
    assert store.writes == [[_Record(1)], ["list_games"], [_Record(2)]]
    assert [out for batch in carried for out in batch] == first + [
        Send(2, {"type": "answer", "id": 5, "result": "list_games after 1 writes"})] + third
