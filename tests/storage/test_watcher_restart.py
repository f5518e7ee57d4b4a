"""A watcher who was watching when the server went down is watching again when it comes back
(issue 27, item 8: after a restart the players came back to their table, the watcher was
left in the lobby with "the server is shutting down" on screen)."""

from __future__ import annotations

from pathlib import Path

from ..server.harness import Client, running_server


async def test_a_watcher_resumes_watching_after_a_restart(tmp_path: Path) -> None:
    db = str(tmp_path / "noddy.sqlite3")
    async with running_server(db=db, grace_period=30.0) as server:
        ann, wes = await Client.connect(server.port), await Client.connect(server.port)
        await ann.hello("ann")
        await wes.hello("wes")
        table = (await ann.request({"type": "create_table", "preset": "cribbage"}))["table"]["id"]
        await ann.request({"type": "add_computer", "level": "random"})
        assert (await ann.request({"type": "ready"}))["table"]["status"] == "playing"
        assert (await wes.request({"type": "spectate", "table": table}))["seat"] is None
        tokens = ann.token, wes.token
    async with running_server(db=db, grace_period=30.0) as server:
        wes = await Client.connect(server.port)
        back = await wes.request({"type": "hello", "name": "wes", "version": 1, "resume": tokens[1]})
        assert (back["type"], back["resumed"], back["table"], back["seat"]) == ("welcome", True, table, None)
        snapshot = await wes.recv_until(lambda m: m["type"] == "snapshot")
        assert (snapshot["seat"], snapshot["table"]["spectators"]) == (None, ["wes"])
        assert snapshot["game"]["hand"] is None and snapshot["table"]["status"] == "playing"
        ann = await Client.connect(server.port)
        again = await ann.request({"type": "hello", "name": "ann", "version": 1, "resume": tokens[0]})
        assert (again["table"], again["seat"]) == (table, 0)
        for client in (ann, wes):
            await client.close()
