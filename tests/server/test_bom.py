"""A byte order mark before a connection's first line does not turn a JSON client into a text one."""

from __future__ import annotations

import asyncio
import json

from .harness import Client, running_server

BOM = "\ufeff".encode("utf-8")


async def test_a_bom_before_the_first_json_line_keeps_the_connection_json() -> None:
    async with running_server() as server:
        client = await Client.connect(server.port)
        await client.send_raw(BOM + b'{"type":"hello","name":"Ada","version":1,"id":1}\n')
        welcome = await client.recv()
        assert (welcome["type"], welcome["id"], welcome["name"]) == ("welcome", 1, "Ada")
        await client.send_raw(b'{"type":"ping","id":2}\n')
        assert (await client.recv_until(lambda m: m.get("id") == 2))["type"] == "pong"
        await client.close()


async def test_a_bom_before_a_text_command_is_still_text() -> None:
    async with running_server() as server:
        reader, writer = await asyncio.open_connection("127.0.0.1", server.port)
        json.loads(await asyncio.wait_for(reader.readline(), 10))  # the greeting
        writer.write(BOM + b"name Ada\n")
        line = (await asyncio.wait_for(reader.readline(), 10)).decode()
        assert line.startswith("Welcome, Ada! Your resume token is ")
        writer.close()
