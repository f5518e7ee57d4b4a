"""Clean ends (issue 25): ``bye`` is never rate-limited and is answered before the close, a
name that said ``bye`` is free at once, and a seat at a finished table is not held for a
connection that closes.  Both example bots close right after sending ``bye``; under a rate
limit their ``bye`` was refused, the seat at the finished table held, and their next game
in a round robin met ``name_taken``."""

from __future__ import annotations

import asyncio
import json
import random

from .harness import Client, play_out, running_server


async def _finished_game(port: int, name: str) -> Client:
    """``name`` plays a short noddy game against a computer to its end; the table stays open
    and finished."""
    bot = await Client.connect(port)
    await bot.hello(name, bot=True)
    await bot.request({"type": "create_table", "preset": "noddy", "options": {"target": 15}})
    await bot.request({"type": "add_computer", "seat": 1, "level": "random"})
    await bot.request({"type": "ready"})
    await play_out(bot, random.Random(5))
    return bot


async def _empty_the_bucket(client: Client) -> None:
    """Send pings until one is refused: the connection has no request left to spend."""
    for _ in range(400):
        reply = await client.request({"type": "ping"})
        if reply["type"] == "error":
            assert reply["code"] == "rate_limited"
            return
    raise AssertionError("never rate-limited")


async def test_bye_under_a_rate_limit_is_answered_and_frees_the_name_at_once() -> None:
    # A slow refill: once the bucket is empty, the bye that follows at once finds it empty.
    async with running_server(rate=1.0, burst=300, flood_strikes=1000) as server:
        bot = await _finished_game(server.port, "pybot")
        await _empty_the_bucket(bot)
        await bot.send({"type": "bye", "id": "last"})
        assert await bot.recv_until(lambda m: m.get("id") == "last") == {
            "type": "bye", "reason": "goodbye", "id": "last"}
        assert await bot.closed()
        again = await Client.connect(server.port)
        welcome = await again.request({"type": "hello", "name": "pybot", "version": 1, "bot": True})
        assert (welcome["type"], welcome["name"]) == ("welcome", "pybot")
        assert server.core.tables.get(1) is None  # nobody was left at it: it closed
        await again.close()


async def test_a_bot_that_closes_right_after_bye_can_play_again_under_its_name() -> None:
    # What both example bots do after a game: send bye and close without reading the reply.
    async with running_server(rate=1.0, burst=300, flood_strikes=1000) as server:
        bot = await _finished_game(server.port, "jsbot")
        await _empty_the_bucket(bot)
        await bot.send({"type": "bye"})
        await bot.close()
        again = await Client.connect(server.port)
        for _ in range(50):  # the close may be read a moment after the new hello
            reply = await again.request({"type": "hello", "name": "jsbot", "version": 1})
            if reply["type"] == "welcome":
                break
            assert reply["code"] == "name_taken"
            await asyncio.sleep(0.02)
        assert reply["type"] == "welcome", reply
        await again.close()


async def test_a_seat_at_a_finished_table_is_not_held_for_a_closed_connection() -> None:
    async with running_server(grace_period=30.0) as server:
        bot = await _finished_game(server.port, "quitter")
        watcher = await Client.connect(server.port)
        await watcher.hello("wes")
        await watcher.request({"type": "spectate", "table": 1})
        await bot.close()  # no bye at all
        table = await watcher.recv_until(lambda m: m["type"] == "table" and m["table"]["seats"][0] is None)
        assert table["table"]["status"] == "finished"
        assert not any(m["type"] == "player_away" for m in watcher.received)
        again = await Client.connect(server.port)
        assert (await again.request({"type": "hello", "name": "quitter", "version": 1}))["type"] == "welcome"
        for client in (watcher, again):
            await client.close()


async def test_quit_by_text_under_a_rate_limit_says_goodbye() -> None:
    async with running_server(rate=1.0, burst=3, flood_strikes=1000) as server:
        reader, writer = await asyncio.open_connection("127.0.0.1", server.port)
        json.loads(await asyncio.wait_for(reader.readline(), 5))  # the greeting
        writer.write(b"name Ada\nping\nping\nping\nquit\n")
        rest = (await asyncio.wait_for(reader.read(), 10)).decode()
        assert "Error (rate_limited)" in rest
        assert rest.endswith("Goodbye.\n(If your terminal stays open, press Ctrl-C.)\n")
        writer.close()
        again = await Client.connect(server.port)
        assert (await again.request({"type": "hello", "name": "Ada", "version": 1}))["type"] == "welcome"
        await again.close()
