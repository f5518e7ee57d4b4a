"""A name given up is someone else's once registered again (issue 31), over real sockets:
statistics, ratings and tells belong to the account, not the name, so whoever registers a
name that was given up (``unregister``) starts with none of the first owner's games (public
or private), a fresh rating, and no tell of theirs reaches anyone under the name."""

from __future__ import annotations

import random
from typing import Any

from .harness import Client, play_out, running_server

SECRET = "correct horse"


async def _account(port: int, name: str) -> Client:
    client = await Client.connect(port)
    await client.hello(name)
    assert (await client.request({"type": "register", "password": SECRET}))["type"] == "registered"
    return client


async def _games_against_a_computer(client: Client, seed: int, games: int, **table: Any) -> None:
    """``client`` plays ``games`` short Noddy games against a computer at a new table."""
    await client.request({"type": "create_table", "preset": "noddy", "options": {"target": 15}, **table})
    await client.request({"type": "add_computer", "level": "random"})
    for game in range(games):
        assert (await client.request({"type": "ready"}))["type"] != "error"
        await play_out(client, random.Random(seed + game))
    await client.request({"type": "leave"})


def _games(stats: dict[str, Any]) -> int:
    return sum(preset["games"] for preset in stats["presets"])


async def test_whoever_registers_a_name_given_up_starts_with_nothing_of_the_first_owners(
        tmp_path: Any) -> None:
    async with running_server(db=str(tmp_path / "noddy.db")) as server:
        carl = await _account(server.port, "carl")
        await carl.request({"type": "bye"})
        first = await _account(server.port, "ann")
        await _games_against_a_computer(first, 10, 2, private=True, password="owl")
        await _games_against_a_computer(first, 20, 1)
        own = await first.request({"type": "stats"})
        assert (_games(own), [len(r["history"]) for r in own["ratings"]]) == (3, [3])
        assert (await first.request({"type": "tell", "name": "carl", "text": "from the first ann"}))["waiting"]
        assert (await first.request({"type": "unregister", "password": SECRET}))["type"] == "unregistered"
        await first.request({"type": "bye"})

        second = await _account(server.port, "ann")
        await _games_against_a_computer(second, 30, 1)
        own = await second.request({"type": "stats"})
        assert (_games(own), [len(r["history"]) for r in own["ratings"]]) == (1, [1])
        cat = await Client.connect(server.port)
        await cat.hello("cat")
        assert _games(await cat.request({"type": "stats", "name": "ann"})) == 1
        board = await cat.request({"type": "leaderboard", "family": "noddy", "people_only": True})
        assert [(p["name"], p["games"]) for p in board["players"]] == [("ann", 1)]

        # The first ann's tell to carl went with her account; the second's waits.
        assert (await second.request({"type": "tell", "name": "carl", "text": "from the second ann"}))["waiting"]
        carl = await Client.connect(server.port)
        await carl.hello("carl", password=SECRET)
        await carl.recv_until(lambda m: m["type"] == "tell" and m["waiting"])
        assert (await cat.request({"type": "tell", "name": "carl", "text": "barrier"}))["waiting"] is False
        await carl.recv_until(lambda m: m["type"] == "tell" and m["text"] == "barrier")
        assert [(m["from"], m["text"]) for m in carl.received if m["type"] == "tell" and m["waiting"]] == [
            ("ann", "from the second ann")]
        for client in (second, cat, carl):
            await client.close()
