"""A table says which stored game it is playing, so a spectator or a bot can fetch the
record of a finished game without searching for it by name."""

from __future__ import annotations

import random

from .harness import Client, play_out, running_server


async def test_table_summary_names_the_game_being_played_and_the_last_one() -> None:
    async with running_server() as server:
        ann = await Client.connect(server.port)
        await ann.hello("ann")
        created = await ann.request({"type": "create_table", "preset": "noddy",
                                     "options": {"target": 15}})
        assert created["table"]["game_id"] is None and created["table"]["games_played"] == 0
        await ann.request({"type": "add_computer", "level": "random"})
        await ann.request({"type": "ready"})
        over = await play_out(ann, random.Random(3))
        finished = await ann.recv_until(lambda m: m["type"] == "table"
                                        and m["table"]["status"] == "finished")
        games = (await ann.request({"type": "list_games"}))["games"]
        assert [g["id"] for g in games] == [finished["table"]["game_id"]]
        record = (await ann.request({"type": "get_game", "game": finished["table"]["game_id"]}))
        assert record["record"]["result"]["scores"] == over["scores"]
        await ann.close()
