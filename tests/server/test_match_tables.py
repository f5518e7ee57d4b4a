"""Match tables: a runner fixes each game's deal with ``deal_seeds`` (only on a server started
to allow it), hears each game's result and thinking times in ``match_game`` wherever it is,
and the table closes when its planned games are played."""

from __future__ import annotations

import random

from noddy.engine import Game, Outcome
from noddy.server.storage.records import action_from_dict

from .harness import Client, play_out, running_server

SEEDS = [2**53 - 1, 12345]


def replayed(report: dict) -> Game:
    """The game a ``match_game`` report describes, replayed by the engine from its seed."""
    game = Game("noddy", 2, seed=report["seed"])
    for action in report["actions"]:
        game.apply(action_from_dict(action))
    return game


async def test_a_server_refuses_deal_seeds_unless_started_to_allow_them() -> None:
    async with running_server() as server:
        runner = await Client.connect(server.port)
        await runner.hello("runner", bot=True)
        reply = await runner.request({"type": "create_table", "deal_seeds": [1, 2], "seat": None})
        assert reply["type"] == "error" and reply["code"] == "bad_field"
        assert reply["field"] == "deal_seeds"
        assert reply["message"] == ("this server does not let a table fix its deals "
                                    "(deal_seeds: a match runner's own server only)")
        assert len(server.core.tables) == 0


async def test_deal_seeds_are_checked() -> None:
    async with running_server(allow_deal_seeds=True) as server:
        runner = await Client.connect(server.port)
        await runner.hello("runner", bot=True)
        for seeds, message in [
            ([], "deal_seeds needs at least one seed"),
            ([2**53], "field 'deal_seeds' must hold whole numbers from 0 to 9007199254740991, "
                      "not 9007199254740992"),
            ([1, "2"], "field 'deal_seeds' must be a list of whole numbers, not [1, '2']"),
        ]:
            reply = await runner.request({"type": "create_table", "deal_seeds": seeds})
            assert (reply["type"], reply["code"], reply["message"]) == ("error", "bad_field", message)


async def test_a_match_table_deals_the_runners_seeds_reports_each_game_and_closes() -> None:
    # As the runner's server runs: computer players decide on the event loop.
    async with running_server(allow_deal_seeds=True, computers_inline=True) as server:
        runner, bot = await Client.connect(server.port), await Client.connect(server.port)
        await runner.hello("runner", bot=True)
        await bot.hello("pybot", bot=True)
        created = await runner.request({"type": "create_table", "deal_seeds": SEEDS, "seat": None})
        table_id = created["table"]["id"]
        assert (created["table"]["rated"], created["table"]["unrated_reasons"],
                created["table"]["unrated_why"]) == (
            False, ["fixed_deals"], "the deals are fixed in advance (a match)")
        assert "deal_seeds" not in str(created)  # the seeds are never shown
        added = await runner.request({"type": "add_computer", "seat": 1, "level": "greedy"})
        created_computer = added["table"]["seats"][1]["name"]
        await bot.request({"type": "sit", "table": table_id, "seat": 0})
        assert (await runner.request({"type": "leave"}))["type"] == "ok"
        refused = await bot.request({"type": "configure_table", "options": {"target": 61}})
        assert refused["code"] == "not_creator"

        for number, seed in enumerate(SEEDS, start=1):
            await bot.request({"type": "ready"})
            game_over = await play_out(bot, random.Random(number))
            report = await runner.recv_until(lambda m: m["type"] == "match_game")
            assert (report["table"], report["game"], report["games"], report["seed"]) == \
                (table_id, number, 2, seed)
            assert [(s["name"], s["kind"]) for s in report["seats"]] == \
                [("pybot", "human"), (created_computer, "computer")]
            game = replayed(report)
            assert Outcome.from_dict(report["result"]) == game.outcome
            assert report["result"]["scores"] == game_over["scores"]
            # Thinking times: one per decision with a choice, for the bot and the computer.
            assert len(report["think"]) == 2
            assert all(time >= 0 for times in report["think"] for time in times)
            assert report["think"][0] and report["think"][1]

        reply = await bot.request({"type": "ready"})
        assert reply["type"] == "table"
        closed = await bot.recv_until(lambda m: m["type"] == "table_closed")
        assert closed == {"type": "table_closed", "table": table_id,
                          "reason": "match_played",
                          "message": "the match's games are all played"}
        told = await runner.recv_until(lambda m: m["type"] == "table_closed")
        assert told == {**closed, "games_played": 2}
        assert table_id not in server.core.tables


async def test_the_runner_hears_when_a_match_table_closes_early() -> None:
    # (grace 0, keep_away 0: as noddy-match starts its server, see bots/external.py)
    async with running_server(allow_deal_seeds=True, grace_period=0.0, keep_away=0.0) as server:
        runner, bot = await Client.connect(server.port), await Client.connect(server.port)
        await runner.hello("runner", bot=True)
        await bot.hello("pybot", bot=True)
        created = await runner.request({"type": "create_table", "deal_seeds": SEEDS, "seat": None})
        table_id = created["table"]["id"]
        await runner.request({"type": "add_computer", "seat": 1})
        await bot.request({"type": "sit", "table": table_id, "seat": 0})
        await runner.request({"type": "leave"})
        await bot.request({"type": "ready"})
        await bot.close()  # a crash in the middle of the first game
        told = await runner.recv_until(lambda m: m["type"] == "table_closed")
        assert told == {"type": "table_closed", "table": table_id, "reason": "empty",
                        "message": "everyone has left", "games_played": 1}
