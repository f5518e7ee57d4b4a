"""A table whose stored game no longer replays cannot be restored: it is closed, and its
players, when they come back with their resume tokens, are told so and are in the lobby --
never left at a table that does not exist (a real server, a real database file)."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

from tests.server.harness import Client, running_server


async def test_a_player_of_a_table_that_cannot_be_restored_comes_back_to_the_lobby(tmp_path: Path) -> None:
    path = tmp_path / "noddy.sqlite3"
    async with running_server(db=str(path)) as server:
        ann = await Client.connect(server.port)
        await ann.hello("ann")
        await ann.request({"type": "create_table", "preset": "noddy"})
        await ann.request({"type": "add_computer", "level": "random"})
        await ann.request({"type": "ready"})
        turn = await ann.recv_until(lambda m: m["type"] == "turn" and m["legal_actions"] != [])
        assert (await ann.request({"type": "action", **turn["legal_actions"][0]}))["type"] == "ok"
        token = ann.token
        await ann.close()
    # The first action is a play at count 0; a "go" there is illegal: the game cannot replay.
    db = sqlite3.connect(path)
    with db:
        (action,) = db.execute("SELECT action FROM actions WHERE game_id = 1 AND n = 1").fetchone()
        seat = json.loads(action)["seat"]
        db.execute("UPDATE actions SET action = ? WHERE game_id = 1 AND n = 1",
                   (json.dumps({"action": "go", "seat": seat}),))
    db.close()

    async with running_server(db=str(path)) as server:
        assert server.core.tables == {}
        ann = await Client.connect(server.port)
        welcome = await ann.request({"type": "hello", "name": "ann", "version": 1, "resume": token})
        assert (welcome["type"], welcome["resumed"], welcome["table"], welcome["seat"]) == ("welcome", True, None, None)
        closed = await ann.recv()
        assert closed == {"type": "table_closed", "table": 1, "reason": "not_restored",
                          "message": "it could not be restored after the server restarted"}
        assert (await ann.request({"type": "snapshot"}))["code"] == "not_at_table"
        assert (await ann.request({"type": "list_tables"}))["tables"] == []
        created = await ann.request({"type": "create_table", "preset": "noddy"})
        assert (created["type"], created["table"]["id"]) == ("table", 2)
        await ann.close()
    db = sqlite3.connect(path)
    try:
        assert db.execute("SELECT open FROM tables WHERE id = 1").fetchone() == (0,)
        assert db.execute("SELECT status FROM games WHERE id = 1").fetchone() == ("abandoned",)
    finally:
        db.close()
