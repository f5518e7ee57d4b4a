"""Every number the server sends or stores fits in 53 bits, so a JavaScript bot's
``JSON.parse`` reads it exactly; an old record with a bigger seed is sent as a string."""

from __future__ import annotations

import json
import random
import sqlite3
from pathlib import Path
from typing import Any, Iterator

from noddy.engine import Game
from noddy.server import ServerConfig
from noddy.server.storage.records import (MAX_SAFE_INTEGER, ActionApplied, GameBegun, GameFinished,
                                  record_events, replay)
from noddy.server.storage import Storage

from .harness import Client, play_out, running_server
from .results import outcome_events


def ints_in(value: Any) -> Iterator[int]:
    """Every whole number in a JSON value (and in JSON held in its strings)."""
    if isinstance(value, bool):
        return
    if isinstance(value, int):
        yield value
    elif isinstance(value, str) and value[:1] in ("{", "["):
        yield from ints_in(json.loads(value))
    elif isinstance(value, dict):
        for item in value.values():
            yield from ints_in(item)
    elif isinstance(value, (list, tuple)):
        for item in value:
            yield from ints_in(item)


def too_big(value: Any) -> list[int]:
    return [n for n in ints_in(value) if not -MAX_SAFE_INTEGER <= n <= MAX_SAFE_INTEGER]


def test_seeds_are_made_within_53_bits() -> None:
    config = ServerConfig(seed=20240601)
    seeds = [config.game_seed(table, game) for table in range(1, 30) for game in range(1, 4)]
    seeds += [config.bot_seed(table, seat, serial) for table in range(1, 30) for seat in range(4)
              for serial in range(-2, 3)]
    seeds += [Game("noddy").seed for _ in range(30)]  # a server without --seed: the engine's own
    assert too_big(seeds) == []
    assert len(set(seeds)) == len(seeds)


async def test_every_number_of_a_seeded_game_sent_and_stored_fits(tmp_path: Path) -> None:
    path = tmp_path / "noddy.sqlite3"
    async with running_server(db=str(path)) as server:
        ann = await Client.connect(server.port)
        await ann.hello("ann")
        await ann.request({"type": "create_table", "preset": "cribbage", "options": {"target": 31}})
        await ann.request({"type": "add_computer", "level": "greedy"})
        await ann.request({"type": "ready"})
        await play_out(ann, random.Random(7))
        games = (await ann.request({"type": "list_games"}))["games"]
        record = (await ann.request({"type": "get_game", "game": games[0]["id"]}))["record"]
        assert record["seed"] == server.config.game_seed(1, 1) and replay(record).is_over
        assert len(ann.received) > 50 and too_big(ann.received) == []
        await ann.close()
    db = sqlite3.connect(path)
    try:
        rows = [row for (name,) in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
                for row in db.execute(f"SELECT * FROM {name}")]
    finally:
        db.close()
    assert len(rows) > 10 and too_big(rows) == []


async def test_an_old_record_with_a_big_seed_is_sent_as_a_string_and_replays(tmp_path: Path) -> None:
    """A server before seeds were 53 bits stored a 63-bit one: it is sent as a decimal string
    (exact in any JSON reader) and still replays, here and on the server."""
    path = tmp_path / "noddy.sqlite3"
    big = 5176404926135151453
    game = Game("noddy", 2, options={"target": 15}, seed=big)
    opening = [event.to_dict() for event in game.log]
    rng = random.Random(1)
    steps = []
    while not game.is_over:
        action = rng.choice(game.legal_actions(game.awaiting[0]))
        steps.append((action.to_dict(), [event.to_dict() for event in game.apply(action)]))
    seats = [{"seat": 0, "name": "ann", "kind": "human", "level": None},
             {"seat": 1, "name": "random computer", "kind": "computer", "level": "random"}]
    storage = Storage(path)
    storage.write([GameBegun(1, 1, 1, "noddy", "noddy", 2, False, {"target": 15}, seats, big, 1.7e9, opening)]
                  + [ActionApplied(1, n, action, events, 1) for n, (action, events) in enumerate(steps, 1)]
                  + [GameFinished(1, 1.7e9 + 60, {"winner": game.winner, "winning_seats": list(game.winning_seats),
                                                  "scores": list(game.scores)}, (), 1)])
    storage.close()
    async with running_server(db=str(path)) as server:
        ann = await Client.connect(server.port)
        await ann.hello("ann")
        listed = (await ann.request({"type": "list_games"}))["games"]
        record = (await ann.request({"type": "get_game", "game": 1}))["record"]
        assert [g["seed"] for g in listed] == [record["seed"]] == [str(big)]
        assert too_big(ann.received) == []
        assert outcome_events(record_events(record)) == outcome_events([e.to_dict() for e in replay(record).log]) \
            == outcome_events(opening + [e for _, events in steps for e in events])
        await ann.close()
