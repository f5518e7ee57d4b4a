"""Helpers of the club-night tests over real sockets (issue 35): a server on an injected
clock, entrants who play their boards out with random legal moves, and the standings worked
out again from the games' records."""

from __future__ import annotations

import random
from collections import defaultdict
from typing import Any

from noddy.server import ServerCore

from .harness import Client, play_out
from .harness import test_config as config_for_tests

#: The preset the tests' club nights play: Noddy to 15, a game of a few deals.
PRESET = {"preset": "noddy", "options": {"target": 15}}


def core(now: list[float], **changes: Any) -> ServerCore:
    """A core whose clocks (the monotonic one and the wall clock events run on) only the test moves."""
    return ServerCore(config_for_tests(**changes), clock=lambda: now[0], wall_clock=lambda: now[0])


async def person(port: int, name: str, source: str, **hello: Any) -> Client:
    client = await Client.connect(port, source)
    await client.hello(name, **hello)
    return client


async def play_board(client: Client, rng: random.Random) -> int:
    """Play the client's board (it is seated, or about to be) until its table closes: the
    number of games played."""
    games = 0
    while True:
        message = await play_out(client, rng, stop_after=lambda m: m["type"] == "table_closed", timeout=60.0)
        if message.get("type") == "table_closed":
            assert message["reason"] == "event_board", message
            return games
        games += 1


def news(client: Client, kind: str) -> list[dict[str, Any]]:
    return [m for m in client.received if m["type"] == "event_news" and m["kind"] == kind]


async def records_of(client: Client, names: list[str]) -> dict[int, dict[str, Any]]:
    """Every finished game of ``names``, by id, as ``get_game`` gives its record."""
    ids: set[int] = set()
    for name in names:
        for row in (await client.request({"type": "list_games", "name": name, "limit": 100}))["games"]:
            ids.add(row["id"])
    records = {}
    for game_id in sorted(ids):
        reply = await client.request({"type": "get_game", "game": game_id})
        assert reply["type"] == "game_record", reply
        records[game_id] = reply["record"]
    return records


def acc_points(records: list[dict[str, Any]]) -> dict[str, tuple[int, int]]:
    """Each name's ACC points (2 a win, 3 a skunk win) and spread from finished games' records."""
    points: dict[str, int] = defaultdict(int)
    spread: dict[str, int] = defaultdict(int)
    for record in records:
        result = record["result"]
        names = [seat["name"] for seat in sorted(record["seats"], key=lambda s: s["seat"])]
        winner = names[result["winner"]]
        points[winner] += 3 if result.get("skunk", "none") != "none" else 2
        for seat, name in enumerate(names):
            spread[name] += result["scores"][seat] - result["scores"][1 - seat]
    return {name: (points[name], spread[name]) for name in set(points) | set(spread)}
