"""Slow and dead peers: one that never reads, one that stops in the middle of a line, one
that drops its connection at every moment of a deal.  The server's buffers stay bounded, the
other tables play on, and seats are held and resumed by the reconnect rules."""

from __future__ import annotations

import asyncio
import json
import random

from noddy.server import NoddyServer

from ..server.harness import play_out, running_server
from .helpers import check_game, connect, game_against_computer, small_buffer_connection, watch_errors

SEND_QUEUE = 50


def buffered_bytes(server: NoddyServer) -> int:
    """Everything the server holds for its peers now: buffered messages and transport buffers."""
    total = 0
    for link in server._links.values():
        assert len(link.buffer) <= SEND_QUEUE
        total += len(link.buffer) * 200 + (link.transport.get_write_buffer_size() if link.transport else 0)
    return total


async def test_a_peer_that_never_reads_is_dropped_and_its_seat_held() -> None:
    with watch_errors() as watch:
        async with running_server(send_queue=SEND_QUEUE, rate=1e9, burst=10**9, flood_strikes=10**9) as server:
            other = asyncio.create_task(game_against_computer(server.port, "other", seed=5))
            reader, writer = await small_buffer_connection(server.port)
            assert json.loads(await reader.readline())["type"] == "greeting"
            writer.write(b'{"type":"hello","id":1,"name":"sloth","version":1}\n')
            welcome = json.loads(await reader.readline())
            token = welcome["token"]
            writer.transport.pause_reading()  # from here on, not a byte is read
            writer.write(b'{"type":"create_table","id":2}\n{"type":"ready","id":3}\n'
                         b'{"type":"add_computer","id":4,"level":"random"}\n')
            # Now it asks and asks and never reads a reply: 20,000 pings, far more than fit.
            most = 0
            for _ in range(40):
                writer.write(b'{"type":"ping"}\n' * 500)
                try:
                    await asyncio.wait_for(writer.drain(), 5)
                except (ConnectionError, asyncio.TimeoutError):
                    break
                most = max(most, buffered_bytes(server))
            session = next(s for s in server.core.sessions.values() if s.name == "sloth")
            for _ in range(500):
                if session.conn is None:
                    break
                await asyncio.sleep(0.02)
                most = max(most, buffered_bytes(server))
            assert session.conn is None, "the peer that never reads was not dropped"
            assert session.held_until is not None and session.seat == 0
            # bounded: the queue bound plus a transport's high-water mark and a little
            assert most < SEND_QUEUE * 200 + 256 * 1024, most
            writer.transport.abort()
            # the seat was held: a new connection resumes it and plays the game out
            back = await connect(server.port)
            again = await back.hello("sloth", resume=token)
            assert again["resumed"] and again["table"] is not None and again["seat"] == 0
            over = await play_out(back, random.Random(1), timeout=120)
            check_game(server, again["table"], over)
            client, table, other_over = await other
            check_game(server, table, other_over)
            await client.close()
            await back.close()
        watch.assert_clean()


async def test_a_peer_that_stops_mid_line_is_dropped_by_the_idle_timeout_only_before_hello() -> None:
    """A socket that never finishes its first line is dropped; a seated player who stops in
    the middle of a line is only a person who has not finished typing: still seated."""
    with watch_errors() as watch:
        async with running_server(idle_timeout=0.5, ping_interval=0.2) as server:
            early = await asyncio.open_connection("127.0.0.1", server.port)
            await early[0].readline()
            early[1].write(b'{"type":"hel')  # and never the rest
            seated = await connect(server.port)
            await seated.hello("stopper")
            table = (await seated.request({"type": "create_table"}))["table"]["id"]
            await seated.request({"type": "ready"})
            await seated.request({"type": "add_computer", "level": "random"})
            seated.writer.write(b'{"type":"action","action":')
            assert b"nothing said for 0.5 s" in await asyncio.wait_for(early[0].read(), 10)
            seated.writer.write(b'"go"}\n')  # the rest of the line, a second later
            await asyncio.sleep(1.0)
            assert (await seated.request({"type": "snapshot"}))["seat"] == 0
            session = next(s for s in server.core.sessions.values() if s.name == "stopper")
            assert session.conn is not None and session.table is not None and session.table.id == table
            # a line split over two writes is still one request
            client = await connect(server.port)
            client.writer.write(b'{"type":"pi')
            await client.writer.drain()
            await asyncio.sleep(0.05)
            client.writer.write(b'ng","id":9}\n')
            assert await client.recv() == {"type": "pong", "id": 9}
            await client.close()
            early[1].close()
        watch.assert_clean()


async def test_a_player_who_drops_at_every_moment_of_a_deal_resumes_each_time() -> None:
    """Ann cuts her connection after each thing she is told (before her table hears her
    next move, between sending a move and its reply, mid-deal, at the deal's end), comes back
    with her token every time, and the game against Ben ends as the engine replays it."""
    with watch_errors() as watch:
        async with running_server(grace_period=30.0) as server:
            ann, ben = await connect(server.port), await connect(server.port)
            welcome = await ann.hello("ann")
            token = welcome["token"]
            await ben.hello("ben")
            table = (await ann.request({"type": "create_table"}))["table"]["id"]
            await ben.request({"type": "sit", "table": table})
            await ann.request({"type": "ready"})
            await ben.request({"type": "ready"})
            ben_game = asyncio.create_task(play_out(ben, random.Random(2), timeout=120))
            rng = random.Random(3)
            drops, deals = 0, set()
            over = None
            while over is None:
                # act once if it is our turn, sometimes dropping before the reply arrives
                message = await ann.recv_until(lambda m: m["type"] in ("turn", "snapshot", "event"))
                if message["type"] == "event" and message["event"]["kind"] == "game_over":
                    over = message["event"]
                    break
                turn = message if message["type"] == "turn" else message.get("turn")
                game = server.core.tables[table].game
                deals.add(game.deal)
                if turn and turn["legal_actions"] and turn["seq"] == server.core.tables[table].seq:
                    action = rng.choice(turn["legal_actions"])
                    await ann.send({"type": "action", **action, "id": "a"})
                    if rng.random() < 0.5:
                        await ann.recv_until(lambda m: m.get("id") == "a")
                ann.writer.transport.abort()
                drops += 1
                ann = await connect(server.port)
                back = await ann.request({"type": "hello", "name": "ann", "version": 1, "resume": token})
                if back["type"] == "error":
                    # The game was over when her connection dropped: a seat at a finished
                    # table is not held (issue 25), so nobody was told she was away.
                    assert back["code"] == "bad_token" and server.core.tables[table].game.is_over
                    over = server.core.tables[table].log[-1][1].to_dict()
                    drops -= 1
                    break
                assert back["resumed"] and back["table"] == table and back["seat"] == 0
                if server.core.tables[table].game.is_over:
                    snap = await ann.recv_until(lambda m: m["type"] == "snapshot")
                    over = snap["events"][-1]["event"]
            ben_over = await ben_game
            assert drops > 10 and len(deals) >= 2
            check_game(server, table, over)
            check_game(server, table, ben_over)
            await ben.request({"type": "ping"})  # reads every push sent to Ben before it
            away = [m for m in ben.received if m["type"] == "player_away"]
            back_again = [m for m in ben.received if m["type"] == "player_back"]
            assert len(away) == drops == len(back_again)
            await ann.close()
            await ben.close()
        watch.assert_clean()


async def test_a_closed_connection_whose_peer_never_reads_is_cut_off_after_the_timeout() -> None:
    """The server closes a connection (here: a line too long) while the peer has not read
    a hundred kilobytes of replies: the socket cannot finish writing, so after
    ``shutdown_timeout`` it is aborted, and the server forgets the connection."""
    with watch_errors() as watch:
        async with running_server(shutdown_timeout=0.5, rate=1e9, burst=10**9,
                                  flood_strikes=10**9) as server:
            reader, writer = await small_buffer_connection(server.port)
            await reader.readline()  # the greeting
            writer.transport.pause_reading()  # from here on, not a byte is read
            writer.write(b"help\n" * 200)  # text mode: each reply is a long help text (~2 KB;
            # 200 of them stay below the 512 KiB send cap, which would drop the connection)
            await writer.drain()
            for _ in range(500):
                if sum(len(link.buffer) for link in server._links.values()) > 0:
                    break  # the socket and the write buffer are full: replies queue
                await asyncio.sleep(0.02)
            assert len(server._links) == 1
            writer.write(b"x" * 10_000 + b"\n")  # line_too_long: the server closes
            await writer.drain()
            for _ in range(500):
                if not server._links and not server.core.connections:
                    break
                await asyncio.sleep(0.02)
            assert not server._links and not server.core.connections
            writer.transport.abort()
            # and the server still serves
            client = await connect(server.port)
            assert (await client.request({"type": "ping"}))["type"] == "pong"
            await client.close()
        watch.assert_clean()


async def test_a_peer_that_finishes_sending_gets_its_replies_then_the_connection_ends() -> None:
    """As ``printf ... | nc -N`` does: the peer half-closes after its last request, whose
    line need not end with a newline.  Every request is answered, then the server closes."""
    with watch_errors() as watch:
        async with running_server() as server:
            reader, writer = await asyncio.open_connection("127.0.0.1", server.port)
            writer.write(b'{"type":"ping","id":1}\n{"type":"ping","id":2}')
            writer.write_eof()
            received = await asyncio.wait_for(reader.read(), 10)
            lines = [json.loads(line) for line in received.splitlines()]
            assert [line["type"] for line in lines] == ["greeting", "pong", "pong"]
            assert [line["id"] for line in lines[1:]] == [1, 2]
            writer.close()
            text_reader, text_writer = await asyncio.open_connection("127.0.0.1", server.port)
            text_writer.write(b"tables")
            text_writer.write_eof()
            received = await asyncio.wait_for(text_reader.read(), 10)
            assert received.splitlines()[-1] == b"No tables yet. Type new noddy to start one."
            text_writer.close()
            for _ in range(500):
                if not server.core.connections:
                    break
                await asyncio.sleep(0.02)
            assert not server.core.connections
        watch.assert_clean()
