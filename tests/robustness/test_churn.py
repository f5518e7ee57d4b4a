"""Connection churn: thousands of connects and disconnects of every kind, with half-open
connections held throughout; afterwards the server has forgotten them all and still serves."""

from __future__ import annotations

import asyncio
import random
import socket
import struct

from ..server.harness import running_server
from .helpers import check_game, connect, game_against_computer, watch_errors

CHURN = 2_000
AT_ONCE = 50
HALF_OPEN = 40


async def one_churn(port: int, rng: random.Random) -> None:
    kind = rng.randrange(6)
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    try:
        if kind == 0:           # connect and go
            pass
        elif kind == 1:         # read the greeting, then go
            await reader.readline()
        elif kind == 2:         # say hello, then go
            await reader.readline()
            writer.write(b'{"type":"hello","id":1,"name":"churn","version":1}\n')
            await reader.readline()
        elif kind == 3:         # half a line, then reset
            writer.write(b'{"type":"hel')
            await writer.drain()
        elif kind == 4:         # sit down to a game and vanish: the seat is held, then expires
            await reader.readline()
            writer.write(b'{"type":"hello","id":1,"name":"gone","version":1}\n'
                         b'{"type":"create_table","id":2}\n{"type":"ready","id":3}\n'
                         b'{"type":"add_computer","id":4,"level":"random"}\n')
            for _ in range(4):
                await reader.readline()
        else:                   # text mode, then go
            writer.write(b"help\n")
            await writer.drain()
    finally:
        if rng.random() < 0.5:  # an abortive close (RST) or an orderly one
            sock = writer.get_extra_info("socket")
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        writer.close()


async def test_thousands_of_connects_and_disconnects() -> None:
    with watch_errors() as watch:
        async with running_server(grace_period=0.2, keep_away=0.3, max_connections_per_address=0) as server:
            port = server.port
            idle = [await asyncio.open_connection("127.0.0.1", port) for _ in range(HALF_OPEN)]
            game = asyncio.create_task(game_against_computer(port, "steady", seed=11))
            rng = random.Random(42)
            for start in range(0, CHURN, AT_ONCE):
                await asyncio.gather(*(one_churn(port, random.Random(rng.random()))
                                       for _ in range(AT_ONCE)))
            client, table, over = await game
            check_game(server, table, over)
            # the server forgets every churned connection, and the held seats expire (a churned
            # table alone against a computer first waits keep_away for its person)
            for _ in range(500):
                if len(server.core.connections) == HALF_OPEN + 1 and len(server.core.tables) == 1:
                    break
                await asyncio.sleep(0.02)
            assert len(server.core.connections) == HALF_OPEN + 1
            assert server.core.connections.per_address == {"127.0.0.1": HALF_OPEN + 1}
            assert list(server.core.tables) == [table]
            assert len(server._links) == HALF_OPEN + 1
            # and it still accepts and serves
            fresh = await connect(port)
            await fresh.hello("fresh")
            assert (await fresh.request({"type": "list_tables"}))["tables"][0]["id"] == table
            for _reader, writer in idle:
                writer.close()
            await fresh.close()
            await client.close()
        watch.assert_clean()
