"""Malformed messages from many connections while real games run on other tables: 50,000 by
default (about 7 s), ``NODDY_FUZZ_LINES_PER_CONNECTION=2500`` (x 40 connections) for 100,000
or more in a longer soak.

Every bad line must get its documented answer (an error with the right code, id and field,
or for ignored extra fields the normal reply), every over-long line ``line_too_long`` and a
close, every real game must come out exactly as the engine replays it, and nothing may
reach the server's error log or the event loop's exception handler.  Lone surrogates in any
string are ``bad_text``; terminal controls in names are ``bad_name``, and in chat they are
cleaned before anyone gets it: every chat a fuzz connection (all are in the lobby) receives
is checked to be clean.
"""

from __future__ import annotations

import asyncio
import collections
import json
import os
import random
from typing import Any

from noddy.protocol.text import clean_text
from noddy.server import NoddyServer

from ..server.harness import running_server
from .fuzz import Expected, Fuzzer, over_long_line
from .helpers import (BIG, PATIENCE, check_game, connect, game_against_computer, game_between_people,
                      watch_errors)

SEED = 7_2024
CONNECTIONS = 40
LINES_PER_CONNECTION = int(os.environ.get("NODDY_FUZZ_LINES_PER_CONNECTION", "625"))  # 40 x 625 = 25,000 (more: the variable)
OVER_LONG = 120                       # and one over-long line on each of 120 more connections
CHUNK = 250                           # lines written between drains
PUSHES = {"table", "table_closed", "player_away", "player_back", "player_replaced", "chat"}


async def fuzz_connection(port: int, index: int, counts: collections.Counter[str]) -> None:
    """One connection: (maybe) hello, then pipelined bad lines; each reply checked in order."""
    fuzzer = Fuzzer(SEED * 1000 + index)
    hello_done = index % 2 == 0
    # The first line decides the mode: a JSON one, so the bad lines are read as JSON lines.
    cases = [("mode", b'{"type":"ping","id":"mode"}', ("pong", None, "mode", None))]
    cases += [fuzzer.next(hello_done) for _ in range(LINES_PER_CONNECTION)]
    client = await connect(port)
    expected: list[tuple[str, bytes, Expected]] = []
    if hello_done:
        await client.hello(f"fuzz{index}")
    expected.extend(cases)

    async def write() -> None:
        for start in range(0, len(cases), CHUNK):
            client.writer.write(b"".join(line + b"\n" for _, line, _ in cases[start:start + CHUNK]))
            await client.writer.drain()

    writer = asyncio.create_task(write())
    for category, line, (kind, code, rid, field) in expected:
        while True:
            raw = await asyncio.wait_for(client.reader.readline(), PATIENCE)
            assert raw, f"connection {index} closed early, waiting for the reply to {line[:60]!r}"
            reply: dict[str, Any] = json.loads(raw)
            if reply["type"] == "chat":  # another fuzz connection's lobby chat, cleaned
                assert clean_text(reply["text"]) == reply["text"], reply
                counts["chat_received"] += 1
            if reply["type"] not in PUSHES:
                break
        what = f"{category} {line[:80]!r} -> {str(reply)[:200]}"
        assert reply["type"] == kind, what
        assert reply.get("code") == code, what
        assert reply.get("id") == rid, what
        if field is not None:
            assert reply.get("field") == field, what
        if category != "mode":
            counts[category] += 1
    await writer
    # the connection still works after all that
    assert (await client.request({"type": "ping"}))["type"] == "pong"
    await client.close()


async def over_long(port: int, index: int, counts: collections.Counter[str]) -> None:
    rng = random.Random(SEED + index)
    reader, writer = await asyncio.open_connection("127.0.0.1", port, limit=BIG)
    assert json.loads(await reader.readline())["type"] == "greeting"
    writer.write(b'{"type":"ping"}\n' + over_long_line(rng))
    assert json.loads(await reader.readline())["type"] == "pong"
    reply = json.loads(await asyncio.wait_for(reader.readline(), PATIENCE))
    assert (reply["type"], reply["code"], reply["id"]) == ("error", "line_too_long", None), reply
    try:
        assert await asyncio.wait_for(reader.read(), PATIENCE) == b""
    except ConnectionResetError:
        pass  # the server closed with unread bytes of the long line in its buffer
    writer.close()
    counts["over_long_line"] += 1


async def test_tens_of_thousands_of_bad_messages_while_games_run() -> None:
    counts: collections.Counter[str] = collections.Counter()
    with watch_errors() as watch:
        async with running_server(rate=1e9, burst=10**9, flood_strikes=10**9,
                                  max_connections_per_address=0, chat_rate_per_address=0) as server:
            port = server.port
            games = [asyncio.create_task(game_against_computer(port, f"solo{i}", seed=i)) for i in range(4)]
            pair = asyncio.create_task(game_between_people(port, ("ann", "ben"), seed=99))
            sem = asyncio.Semaphore(20)

            async def bounded_over_long(i: int) -> None:
                async with sem:
                    await over_long(port, i, counts)

            await asyncio.gather(*(fuzz_connection(port, i, counts) for i in range(CONNECTIONS)),
                                 *(bounded_over_long(i) for i in range(OVER_LONG)))
            for client, table, over in await asyncio.gather(*games):
                check_game(server, table, over)
                await client.close()
            clients, table, overs = await pair
            for over in overs:
                check_game(server, table, over)
            for client in clients:
                await client.close()
            await still_serves(server)
        watch.assert_clean()
    chats = counts.pop("chat_received")
    total = sum(counts.values())
    print(f"\nfuzzed {total} bad lines: {dict(sorted(counts.items()))}; {chats} clean chats received")
    assert total >= CONNECTIONS * LINES_PER_CONNECTION
    assert set(counts) >= {"invalid_utf8", "invalid_json", "wrong_type", "missing_field", "extra_fields",
                           "huge_number", "deep_nesting", "random_bytes", "out_of_order", "over_long_line",
                           "lone_surrogate", "control_chars"}
    assert chats > 0


async def still_serves(server: NoddyServer) -> None:
    client = await connect(server.port)
    await client.hello("after")
    assert (await client.request({"type": "list_tables"}))["type"] == "tables"
    await client.close()
