"""A finished table says how its last game was rated, not how the next one would be.

Found in the evening of issue 33 (and left then): a guest and an account played an unrated
game; the guest registered at the table afterwards, so the table's ``rated`` -- which
describes the next game, for the seats taken now -- became true, and a watcher arriving
then read "That game was rated." about a game that was not.  The table now carries the
terms the finished game was played under (``last_game``) until the next game starts."""

from __future__ import annotations

import asyncio
import random

from .harness import play_out, running_server, text_connection, text_until
from .test_accounts import _hello, _register


async def test_a_watcher_arriving_after_the_guest_registered_is_told_the_game_was_unrated() -> None:
    async with running_server() as server:
        ann, ben = await _hello(server.port, "ann"), await _hello(server.port, "ben")
        await _register(ann)
        table_id = (await ann.request({"type": "create_table", "preset": "noddy",
                                       "options": {"target": 15}}))["table"]["id"]
        await ben.request({"type": "sit", "table": table_id})
        await ann.request({"type": "ready"})
        await ben.request({"type": "ready"})
        await asyncio.gather(play_out(ann, random.Random(1)), play_out(ben, random.Random(2)))
        over = await ann.recv_until(lambda m: m["type"] == "table" and m["table"]["status"] == "finished")
        unrated = {"rated": False, "unrated_reasons": ["guest"], "unrated_why": "ben is a guest"}
        assert over["table"]["last_game"] == unrated
        await _register(ben)
        pushed = await ann.recv_until(lambda m: m["type"] == "table" and m["table"]["rated"])
        assert pushed["table"]["last_game"] == unrated  # the next game would be rated; that one was not
        reader, writer = await text_connection(server.port)
        writer.write(f"width 1000\nname cy\nwatch {table_id}\n".encode())
        await writer.drain()
        told = await text_until(reader, "That game was")
        assert told == "That game was unrated: ben is a guest.\n"
        await ann.request({"type": "ready"})
        await ben.request({"type": "ready"})
        again = await ann.recv_until(lambda m: m["type"] == "table" and m["table"]["status"] == "playing")
        assert "last_game" not in again["table"]
        writer.close()
        for client in (ann, ben):
            await client.close()
