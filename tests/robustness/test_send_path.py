"""The send path: a message that cannot be encoded, and what a connection may hold unsent.

Protocol validation refuses strings that cannot be encoded at the door; these tests are about
the second line of defence, so they inject the bad message through the core itself (a
:class:`ServerCore` subclass that adds, to the instructions of a chosen request, a message
holding a lone surrogate for chosen connections) and check that only those connections are
touched: the others get every message of the batch and stay connected.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from typing import Any, Iterator

from noddy.server import NoddyServer
from noddy.server.core import Out, Send, ServerCore
from noddy.server.core.instructions import Effects, Lines

from ..server.harness import Client
from ..server.harness import test_config as config_for_tests
from .helpers import connect, small_buffer_connection, watch_errors

#: Python reads this from JSON (``"\\ud800"``) but it has no UTF-8 encoding.
LONE_SURROGATE = "\ud800"


class PoisonCore(ServerCore):
    """A core that, when a request line holds ``POISON``, sends the connections in
    ``victims`` one message object that cannot be encoded, in the same batch as the
    request's own messages (before them, so an exception would strand the rest)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.victims: list[int] = []
        #: The bad message is a reply (it carries an ``id``), so the victims cannot do without it.
        self.as_reply = False
        #: The bad message is an event inside a game's batch (Lines), after a good one that
        #: every connection in ``bystanders`` is sent in a batch of its own.
        self.as_game = False
        self.bystanders: list[int] = []

    def receive(self, conn_id: int, line: bytes) -> Effects:
        effects = super().receive(conn_id, line)
        if b"POISON" not in line:
            return effects
        outs = effects.out
        bad: dict[str, Any] = {"type": "chat", "to": "lobby", "from": "x", "text": LONE_SURROGATE}
        if self.as_reply:
            bad = {"type": "pong", "id": LONE_SURROGATE}
        if self.as_game:
            good = {"type": "event", "table": 9, "seq": 1, "event": {"kind": "go", "seat": 0}}
            bad = {"type": "event", "table": 9, "seq": 2, "event": {"kind": "go", "name": LONE_SURROGATE}}
            batch = Lines((good, bad), True)  # the same batch object for every victim
            effects.out = ([Send(victim, batch) for victim in self.victims]
                           + [Send(other, Lines((good,), True)) for other in self.bystanders] + outs)
            return effects
        effects.out = [Send(victim, bad, self.connections[victim].text or False)
                       for victim in self.victims] + outs
        return effects


class Warnings(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


@contextlib.contextmanager
def warnings_of_network() -> Iterator[Warnings]:
    handler = Warnings()
    logger = logging.getLogger("noddy.server.net.network")
    logger.addHandler(handler)
    try:
        yield handler
    finally:
        logger.removeHandler(handler)


@contextlib.asynccontextmanager
async def poisoned_server(**changes: Any) -> Any:
    config = config_for_tests(**changes)
    core = PoisonCore(config)
    server = NoddyServer(config, core)
    await server.start()
    try:
        yield server, core
    finally:
        await server.shutdown()


def conn_of(server: NoddyServer, name: str) -> int:
    assert server.core is not None
    conn = next(s.conn for s in server.core.sessions.values() if s.name == name)
    assert conn is not None
    return conn


async def lobby_of_six(port: int) -> list[Client]:
    clients = [await connect(port) for _ in range(6)]
    for number, client in enumerate(clients):
        await client.hello(f"p{number}")
    return clients


async def test_an_unencodable_push_skips_only_its_recipients() -> None:
    """p0 creates a table: the summary goes to everyone in the lobby.  In the same batch a
    chat that cannot be encoded goes to p2, p4 and a text-mode connection: the bad chat is
    skipped for them (it is not essential), logged once, and everyone gets the summary and
    stays connected."""
    with watch_errors() as errors, warnings_of_network() as warned:
        async with poisoned_server() as (server, core):
            clients = await lobby_of_six(server.port)
            text_reader, text_writer = await asyncio.open_connection("127.0.0.1", server.port)
            await text_reader.readline()  # the greeting
            text_writer.write(b"name reader\n")
            assert b"Welcome, reader!" in await asyncio.wait_for(text_reader.readline(), 10)
            assert b"Type tables" in await asyncio.wait_for(text_reader.readline(), 10)
            assert b"You are a guest" in await asyncio.wait_for(text_reader.readline(), 10)
            core.victims = [conn_of(server, "p2"), conn_of(server, "p4"), conn_of(server, "reader")]
            reply = await clients[0].request({"type": "create_table", "preset": "noddy", "note": "POISON"})
            assert reply["type"] == "table"
            table = reply["table"]["id"]
            for client in clients[1:]:
                pushed = await client.recv()
                assert (pushed["type"], pushed["table"]["id"]) == ("table", table), pushed
            assert f"Table {table}".encode() in await asyncio.wait_for(text_reader.readline(), 10)
            assert b"[waiting]" in await asyncio.wait_for(text_reader.readline(), 10)  # (its second line)
            for client in clients:
                assert (await client.request({"type": "ping"}))["type"] == "pong"
                assert not any(m.get("type") == "chat" for m in client.received)
            text_writer.write(b"ping\n")
            assert await asyncio.wait_for(text_reader.readline(), 10) == b"pong\n"
            bad = [r for r in warned.records if "could not be encoded" in r.getMessage()]
            assert len(bad) == 1, [r.getMessage() for r in warned.records]
            assert "3 connections" in bad[0].getMessage()
            for client in clients:
                await client.close()
            text_writer.close()
        errors.assert_clean()


async def test_an_unencodable_reply_drops_only_its_recipient() -> None:
    """A reply that cannot be encoded is one the recipient cannot do without (it waits for
    it): that connection is dropped; the requester and everyone else carry on."""
    with watch_errors() as errors, warnings_of_network() as warned:
        async with poisoned_server() as (server, core):
            clients = await lobby_of_six(server.port)
            core.victims = [conn_of(server, "p3")]
            core.as_reply = True
            reply = await clients[0].request({"type": "create_table", "preset": "noddy", "note": "POISON"})
            assert reply["type"] == "table"
            for number, client in enumerate(clients[1:], start=1):
                if number == 3:
                    assert await client.closed()
                    assert not any(m.get("type") == "pong" for m in client.received)
                else:
                    assert (await client.recv())["type"] == "table"
            for number, client in enumerate(clients):
                if number != 3:
                    assert (await client.request({"type": "ping"}))["type"] == "pong"
            assert server.core is not None
            # p3 was in the lobby: dropped, its session is gone (a seated one would be held)
            assert [s.name for s in server.core.sessions.values()] == ["p0", "p1", "p2", "p4", "p5"]
            assert sum("could not be encoded" in r.getMessage() for r in warned.records) == 1
            for client in clients:
                await client.close()
        errors.assert_clean()


async def test_an_unencodable_event_in_a_game_batch_drops_the_connections_it_was_for() -> None:
    """A game's batch (its events and turn, one Lines per member) holding an event that
    cannot be encoded: the members it was for cannot follow the game without it, so they are
    dropped (a resume would bring a snapshot), not sent the rest of the batch; a connection
    whose batch holds only the good event gets it; one warning names the event and counts
    its recipients."""
    with watch_errors() as errors, warnings_of_network() as warned:
        async with poisoned_server() as (server, core):
            clients = await lobby_of_six(server.port)
            core.victims = [conn_of(server, "p2"), conn_of(server, "p4")]
            core.bystanders = [conn_of(server, "p1")]
            core.as_game = True
            assert (await clients[0].request({"type": "ping", "note": "POISON"}))["type"] == "pong"
            for number in (2, 4):
                assert await clients[number].closed()
                assert not any(m.get("type") == "event" for m in clients[number].received)
            assert (await clients[1].recv())["event"] == {"kind": "go", "seat": 0}
            for number in (0, 1, 3, 5):
                assert (await clients[number].request({"type": "ping"}))["type"] == "pong"
            bad = [r.getMessage() for r in warned.records if "could not be encoded" in r.getMessage()]
            assert len(bad) == 1 and "'event' message" in bad[0] and "dropped the 2 connections" in bad[0], bad
            for client in clients:
                await client.close()
        errors.assert_clean()


async def test_unencodable_messages_are_logged_at_most_once_a_period() -> None:
    """Many failing messages in a row give one warning (the rest are counted, not logged)."""
    with warnings_of_network() as warned:
        async with poisoned_server() as (server, core):
            clients = await lobby_of_six(server.port)
            core.victims = [conn_of(server, "p1")]
            for _ in range(20):
                assert (await clients[0].request({"type": "ping", "note": "POISON"}))["type"] == "pong"
            assert (await clients[1].request({"type": "ping"}))["type"] == "pong"
            assert sum("could not be encoded" in r.getMessage() for r in warned.records) == 1
            for client in clients:
                await client.close()


def held_bytes(server: NoddyServer) -> dict[int, int]:
    """What the server holds unsent for each connection: its queue and its transport's buffer."""
    return {conn: sum(map(len, link.buffer)) + (link.transport.get_write_buffer_size() if link.transport else 0)
            for conn, link in server._links.items()}


async def test_connections_that_do_not_read_are_dropped_at_the_byte_bound() -> None:
    """Thirty tables make ``list_tables`` a long reply (~10 KB).  Five connections that never
    read ask for it 300 times each (4 MB each, far under the 2000-message bound): each is
    dropped once it holds ``send_buffer_bytes``, no connection ever holds more than that
    bound (or one reply, if longer), an innocent client is answered throughout, and nothing
    of the dropped connections is kept."""
    import gc
    import weakref

    bound = 48 * 1024
    with watch_errors() as errors:
        async with poisoned_server(send_buffer_bytes=bound, max_tables_per_connection=0,
                                   max_tables_per_address=0) as (server, core):
            makers = [await connect(server.port) for _ in range(30)]
            for number, maker in enumerate(makers):
                await maker.hello(f"maker{number}")
                assert (await maker.request({"type": "create_table"}))["type"] == "table"
            innocent = await connect(server.port)
            await innocent.hello("innocent")
            reply = await innocent.request({"type": "list_tables"})
            size = len(json.dumps(reply, separators=(",", ":"), ensure_ascii=False)) + 1
            assert 8_000 < size < bound
            hogs = [await small_buffer_connection(server.port) for _ in range(5)]
            hog_links = []
            for number, (reader, writer) in enumerate(hogs):
                assert json.loads(await reader.readline())["type"] == "greeting"
                writer.write(b'{"type":"hello","id":1,"name":"hog%d","version":1}\n' % number)
                assert json.loads(await reader.readline())["type"] == "welcome"
                hog_links.append(weakref.ref(server._links[conn_of(server, f"hog{number}")]))
                writer.transport.pause_reading()  # from here on, not a byte is read
            most = 0
            for _ in range(30):
                for _reader, writer in hogs:
                    if not writer.is_closing():
                        writer.write(b'{"type":"list_tables"}\n' * 10)
                await asyncio.sleep(0.01)
                most = max([most, *held_bytes(server).values()])
                assert (await innocent.request({"type": "ping"}))["type"] == "pong"
            for _ in range(300):
                if all(ref() is None or ref().closing for ref in hog_links):
                    break
                await asyncio.sleep(0.01)
            assert most <= bound, most
            assert not any(s.name.startswith("hog") for s in server.core.sessions.values())
            for reader, writer in hogs:
                writer.transport.abort()
            await asyncio.sleep(0.05)
            gc.collect()
            assert [ref() for ref in hog_links] == [None] * 5  # nothing keeps a dropped link
            assert set(held_bytes(server).values()) == {0}
            assert (await innocent.request({"type": "list_tables"}))["type"] == "tables"
            for client in [*makers, innocent]:
                await client.close()
        errors.assert_clean()
