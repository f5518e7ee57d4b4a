"""A person who waits is not idle (issue 24): silence never closes a connection that has
spoken (a netcat user cannot answer pings), at a table, watching, or in the lobby; a peer
that vanished is found by TCP keepalive on every accepted socket, and reaped when the
transport reports it.  Only a socket that says nothing at all after connecting is dropped.

The idle limit is made tiny here (0.2 s) and the tests wait several times as long: what
is asserted is what the person then reads, not how long anything took."""

from __future__ import annotations

import asyncio
import errno
import json
import socket

from .harness import Client, running_server

#: A tiny idle limit and ping interval, so that a short wait is "longer than the limit".
QUIET = dict(idle_timeout=0.2, ping_interval=0.1)
WAIT = 1.0  # five idle limits


async def nc(port: int) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    """A netcat user: text lines, the greeting read."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    await asyncio.wait_for(reader.readline(), 5)
    return reader, writer


async def say(reader: asyncio.StreamReader, writer: asyncio.StreamWriter, line: str, expect: str) -> str:
    """Type ``line``; read until a line containing ``expect`` (failing on a closed socket)."""
    writer.write(line.encode() + b"\n")
    await writer.drain()
    while True:
        got = await asyncio.wait_for(reader.readline(), 5)
        assert got, f"the server closed the connection while waiting for {expect!r}"
        text = got.decode()
        assert "silent for" not in text and "Are you there" not in text, text
        if expect in text:
            return text


async def test_an_nc_player_silent_at_a_table_is_still_seated_and_plays_on() -> None:
    async with running_server(**QUIET) as server:
        reader, writer = await nc(server.port)
        await say(reader, writer, "width 1000", "Lines are wrapped")  # one line a message
        await say(reader, writer, "name cy", "Welcome, cy")
        await say(reader, writer, "new noddy", "Table 1 noddy 2p (unrated: cy is a guest) [waiting] 1: cy (guest) | 2: empty")
        await say(reader, writer, "bot 2", "2: greedy computer 2 (computer)")
        await say(reader, writer, "ready", "[playing]")  # the game begins
        await asyncio.sleep(WAIT)
        assert "Scores: cy" in await say(reader, writer, "look", "Scores: cy")
        assert server.core is not None
        session = next(s for s in server.core.sessions.values() if s.name == "cy")
        assert session.conn is not None and session.held_until is None and session.seat == 0
        writer.close()


async def test_an_nc_spectator_and_an_nc_person_in_the_lobby_stay_connected() -> None:
    async with running_server(**QUIET) as server:
        players = await Client.connect(server.port)
        await players.hello("ann")
        table = (await players.request({"type": "create_table"}))["table"]["id"]
        watcher = await nc(server.port)
        await say(*watcher, "name dee", "Welcome, dee")
        await say(*watcher, f"watch {table}", "Table 1")
        lobby = await nc(server.port)
        await say(*lobby, "name eve", "Welcome, eve")
        await asyncio.sleep(WAIT)
        # both still there: each gets an answer, and the table's chat reaches the watcher
        assert (await players.request({"type": "chat", "text": "still there?"}))["type"] == "ok"
        assert "still there?" in await say(*watcher, "look", "still there?")
        assert "Table 1" in await say(*lobby, "tables", "Table 1")
        assert server.core is not None and len(server.core.connections) == 3
        await players.close()
        watcher[1].close()
        lobby[1].close()


async def test_a_json_client_is_pinged_once_and_never_dropped_for_silence() -> None:
    async with running_server(**QUIET) as server:
        ann = await Client.connect(server.port)
        await ann.hello("ann")
        assert await ann.recv(timeout=5) == {"type": "ping"}
        await asyncio.sleep(WAIT)  # no answer to the ping, and silent for five idle limits
        assert (await ann.request({"type": "ping"}))["type"] == "pong"
        assert [m for m in ann.received if m["type"] == "ping"] == [{"type": "ping"}] * 1
        await ann.close()


async def test_a_socket_that_never_says_anything_is_still_dropped() -> None:
    async with running_server(**QUIET) as server:
        reader, writer = await asyncio.open_connection("127.0.0.1", server.port)
        await reader.readline()
        rest = (await asyncio.wait_for(reader.read(), 5)).decode()
        assert json.loads(rest) == {"type": "bye", "reason": "nothing said for 0.2 s after "
                                                             "connecting; closing the connection"}
        writer.close()


async def test_every_accepted_socket_has_tcp_keepalive_as_configured() -> None:
    async with running_server(keepalive_idle=7, keepalive_interval=3, keepalive_count=4) as server:
        client = await Client.connect(server.port)
        (link,) = server._links.values()
        sock = link.transport.get_extra_info("socket")
        assert sock.getsockopt(socket.SOL_SOCKET, socket.SO_KEEPALIVE) == 1
        if hasattr(socket, "TCP_KEEPIDLE"):
            assert [sock.getsockopt(socket.IPPROTO_TCP, option) for option in
                    (socket.TCP_KEEPIDLE, socket.TCP_KEEPINTVL, socket.TCP_KEEPCNT)] == [7, 3, 4]
        if hasattr(socket, "TCP_USER_TIMEOUT"):  # data in flight is given up as soon: 7 + 3 * 4 s
            assert sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_USER_TIMEOUT) == 19_000
        await client.close()
    async with running_server(keepalive_idle=0) as server:  # 0: off
        client = await Client.connect(server.port)
        (link,) = server._links.values()
        assert link.transport.get_extra_info("socket").getsockopt(socket.SOL_SOCKET, socket.SO_KEEPALIVE) == 0
        await client.close()


async def test_a_peer_the_kernel_reports_gone_is_reaped_and_its_seat_held() -> None:
    """What TCP keepalive does when probes go unanswered, made on loopback: the transport
    reports the connection lost with ETIMEDOUT (as the kernel's failed probes do); the
    server lets the connection go and holds the seat, and the other player is told."""
    async with running_server() as server:
        ann, ben = await Client.connect(server.port), await Client.connect(server.port)
        await ann.hello("ann")
        await ben.hello("ben")
        table = (await ann.request({"type": "create_table"}))["table"]["id"]
        await ben.request({"type": "sit", "table": table})
        assert server.core is not None
        ann_conn = next(s.conn for s in server.core.sessions.values() if s.name == "ann")
        link = server._links[ann_conn]
        link.transport._force_close(TimeoutError(errno.ETIMEDOUT, "Connection timed out"))
        away = await ben.recv_until(lambda m: m["type"] == "player_away")
        assert (away["name"], away["seat"]) == ("ann", 0)
        assert ann_conn not in server.core.connections
        await ann.close()
        await ben.close()
