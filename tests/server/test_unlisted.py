"""An unlisted table (table option ``unlisted``, issue 32's fourth change): left out of the
lobby's list and its news for everyone not at it, found by its number all the same."""

from __future__ import annotations

import asyncio

from .harness import Client, running_server, text_connection, text_until


async def test_an_unlisted_table_is_not_listed_nor_announced_but_can_be_joined_by_number() -> None:
    async with running_server() as server:
        ann, ben, cy = [await Client.connect(server.port) for _ in range(3)]
        for client, name in ((ann, "ann"), (ben, "ben"), (cy, "cy")):
            await client.hello(name)
        listed = await ann.request({"type": "create_table", "options": {"hints": False}})
        hidden = await cy.request({"type": "create_table", "options": {"unlisted": True}})
        assert hidden["table"]["options"]["unlisted"] is True
        tables = await ben.request({"type": "list_tables"})
        assert [t["id"] for t in tables["tables"]] == [listed["table"]["id"]]
        # The lobby's news (a push every lobby_push_interval) says nothing of it either.
        await asyncio.sleep(0.2)
        ping = await ben.request({"type": "ping"})
        news = [m["table"]["id"] for m in ben.received if m["type"] == "table" and "id" not in m]
        assert ping["type"] == "pong" and hidden["table"]["id"] not in news
        joined = await ben.request({"type": "sit", "table": hidden["table"]["id"]})
        assert (joined["type"], joined["table"]["id"]) == ("table", hidden["table"]["id"])
        mine = await ben.request({"type": "list_tables"})  # listed for those at it
        assert hidden["table"]["id"] in [t["id"] for t in mine["tables"]]
        for client in (ann, ben, cy):
            await client.close()


async def test_an_unlisted_table_over_nc() -> None:
    async with running_server() as server:
        reader, writer = await text_connection(server.port)
        writer.write(b"name Cy\nnew noddy unlisted=yes\n")
        assert (await text_until(reader, "Table 1")).startswith("Table 1")
        other = await Client.connect(server.port)
        await other.hello("dee")
        assert (await other.request({"type": "list_tables"}))["tables"] == []
        writer.close()
        await other.close()
