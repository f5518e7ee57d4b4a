"""Each resource limit of PROTOCOL.md's table, broken on purpose: line length, requests a
second, connections per address, tables per connection and per address (the message queue and silence are
in test_peers.py)."""

from __future__ import annotations

import asyncio
import json

from noddy.protocol import MAX_LINE_BYTES
from noddy.server import ServerCore

from ..server.harness import running_server
from ..server.harness import test_config as config_for_tests
from .helpers import connect, watch_errors


async def test_line_length_limit_is_exact_in_json_and_text_mode() -> None:
    async with running_server() as server:
        client = await connect(server.port)
        head = b'{"type":"ping","id":1,"pad":"'
        fits = head + b"x" * (MAX_LINE_BYTES - len(head) - 3) + b'"}\n'
        assert len(fits) == MAX_LINE_BYTES
        await client.send_raw(fits)
        assert await client.recv() == {"type": "pong", "id": 1}
        await client.send_raw(fits[:-3] + b'x"}\n')  # one byte more
        reply = await client.recv()
        assert (reply["code"], reply["id"]) == ("line_too_long", None)
        assert await client.closed()
        text = await connect(server.port)
        await text.send_raw(b"help\n")
        await text.reader.readuntil(b"\n")
        await text.send_raw(b"say " + b"x" * MAX_LINE_BYTES + b"\n")
        rest = await asyncio.wait_for(text.reader.read(), 10)
        assert b"line_too_long" in rest or b"8192" in rest
        await text.close()


async def test_rate_and_burst_then_flood() -> None:
    # The clock stands still, so no token comes back however slowly the lines are read.
    core = ServerCore(config_for_tests(rate=1.0, burst=5, flood_strikes=10), clock=lambda: 0.0)
    async with running_server(core=core) as server:
        client = await connect(server.port)
        await client.send_raw(b"".join(b'{"type":"ping","id":%d}\n' % i for i in range(1, 20)))
        replies = [await client.recv() for _ in range(16)]
        assert [r["type"] for r in replies[:5]] == ["pong"] * 5
        assert {r["code"] for r in replies[5:15]} == {"rate_limited"}
        assert [r["retry_after"] for r in replies[5:15]] == [1.0] * 10  # a token a second
        assert (replies[15]["code"], replies[15]["id"]) == ("flood", 16)
        assert await client.closed()


async def test_connections_per_address() -> None:
    with watch_errors() as watch:
        async with running_server(max_connections_per_address=5) as server:
            clients = [await connect(server.port) for _ in range(5)]
            for _ in range(3):
                reader, writer = await asyncio.open_connection("127.0.0.1", server.port)
                refusal = json.loads(await asyncio.wait_for(reader.readline(), 10))
                assert (refusal["type"], refusal["code"], refusal["id"]) == ("error", "too_many_connections", None)
                assert await asyncio.wait_for(reader.read(), 10) == b""
                writer.close()
            # the five are untouched
            for client in clients:
                assert (await client.request({"type": "ping"}))["type"] == "pong"
            # one goes, and a new connection is let in once the server has seen it go
            await clients.pop().close()
            for _ in range(200):
                if server.core.connections.per_address.get("127.0.0.1") == 4:
                    break
                await asyncio.sleep(0.01)
            clients.append(await connect(server.port))
            for client in clients:
                await client.close()
        watch.assert_clean()


async def test_connections_per_address_zero_means_no_limit() -> None:
    async with running_server(max_connections_per_address=0) as server:
        clients = [await connect(server.port) for _ in range(100)]
        assert (await clients[-1].request({"type": "ping"}))["type"] == "pong"
        for client in clients:
            await client.close()


async def test_tables_per_connection() -> None:
    """Ann creates tables and leaves each to a friend who stays; her third is refused
    (nothing changes); when a friend leaves and that table closes, she may create again."""
    async with running_server(max_tables_per_connection=2) as server:
        ann = await connect(server.port)
        await ann.hello("ann")
        friends = []
        for name in ("ben", "cat"):
            table = (await ann.request({"type": "create_table"}))["table"]["id"]
            friend = await connect(server.port)
            await friend.hello(name)
            await friend.request({"type": "sit", "table": table})
            await ann.request({"type": "leave"})
            friends.append(friend)
        before = await ann.request({"type": "list_tables"})
        refused = await ann.request({"type": "create_table"})
        assert (refused["type"], refused["code"]) == ("error", "too_many_tables")
        after = await ann.request({"type": "list_tables"})
        assert before["tables"] == after["tables"] and len(after["tables"]) == 2
        assert (await friends[0].request({"type": "leave"}))["type"] == "ok"
        assert (await ann.request({"type": "create_table"}))["type"] == "table"
        # another connection has its own count
        dan = await connect(server.port)
        await dan.hello("dan")
        assert (await dan.request({"type": "create_table"}))["type"] == "table"
        for client in (ann, dan, *friends):
            await client.close()


async def test_tables_per_address() -> None:
    """One address creating tables through many connections: each connection stays within
    its own limit, but the address's third open table is refused (nothing changes); when
    one of its tables closes, the address may create again."""
    async with running_server(max_tables_per_connection=1, max_tables_per_address=2) as server:
        creators = []
        for name in ("ann", "ben", "cat"):
            client = await connect(server.port)
            await client.hello(name)
            creators.append(client)
        ann, ben, cat = creators
        assert (await ann.request({"type": "create_table"}))["type"] == "table"
        assert (await ben.request({"type": "create_table"}))["type"] == "table"
        before = await cat.request({"type": "list_tables"})
        refused = await cat.request({"type": "create_table"})
        assert (refused["type"], refused["code"]) == ("error", "too_many_tables")
        assert "address" in refused["message"]
        after = await cat.request({"type": "list_tables"})
        assert before["tables"] == after["tables"] and len(after["tables"]) == 2
        assert (await cat.request({"type": "ping"}))["type"] == "pong"  # still open
        assert (await ann.request({"type": "leave"}))["type"] == "ok"   # her table closes
        assert (await cat.request({"type": "create_table"}))["type"] == "table"
        for client in creators:
            await client.close()


async def test_tables_per_address_zero_means_no_limit() -> None:
    async with running_server(max_tables_per_connection=0, max_tables_per_address=0) as server:
        clients = []
        for i in range(40):
            client = await connect(server.port)
            await client.hello(f"p{i}")
            assert (await client.request({"type": "create_table"}))["type"] == "table"
            clients.append(client)
        for client in clients:
            await client.close()
