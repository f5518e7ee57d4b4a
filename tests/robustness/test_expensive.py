"""Expensive requests: ``get_game`` of a long record, and the requests that read records.

A finished game's record never changes, so the server keeps it (and its encoded line) once
read: asking again costs neither a database read nor an encoding, whoever asks, and the
access check of a private table's game still applies to it.  The requests that read records
take ``query_cost`` tokens of the connection's rate bucket, and one address may make only so
many of them a second over all its connections.  (How much this spares the other players is
measured by ``bench/hostile.py``, not here: a timed test would fail on a busy machine.)
"""

from __future__ import annotations

import asyncio
import json
import random
from typing import Any

from noddy.protocol import encode_line
from noddy.server.storage import MEMORY, Storage

from ..server.harness import running_server
from ..storage.helpers import Driver
from .helpers import connect, game_against_computer


class CountingStorage(Storage):
    """A real database that counts the reads the core asks for."""

    def __init__(self) -> None:
        super().__init__(MEMORY)
        self.reads: list[tuple[str, Any]] = []

    def read(self, kind: str, args: dict[str, Any]) -> Any:
        self.reads.append((kind, args.get("game")))
        return super().read(kind, args)


def finished_game(driver: Driver, name: str, conn: int | None = None, **table: Any) -> tuple[int, int]:
    """``name`` (on a new connection, or ``conn``) plays a noddy game against a computer to
    its end; returns the connection and the game's id."""
    conn = driver.connect(name) if conn is None else conn
    driver.versus_computer(conn, "noddy", "random", **table)
    game_id = driver.send(conn, {"type": "snapshot"})["table"]["game_id"]
    driver.play(conn, random.Random(7))
    driver.send(conn, {"type": "leave"})
    return conn, game_id


def test_a_record_asked_for_again_is_not_read_again() -> None:
    storage = CountingStorage()
    driver = Driver(storage)
    ann, game = finished_game(driver, "ann")
    bob = driver.connect("bob")
    storage.reads.clear()
    first = driver.send(ann, {"type": "get_game", "game": game})
    assert first["type"] == "game_record" and first["record"]["id"] == game
    assert first["record"]["status"] == "finished" and first["record"]["steps"]
    assert storage.reads == [("get_game", game)]
    again = driver.send(ann, {"type": "get_game", "game": game})
    other = driver.send(bob, {"type": "get_game", "game": game})
    assert again == first and other == first
    assert storage.reads == [("get_game", game)]  # served from memory: no second read
    # a game that is not (yet) finished is not remembered as missing
    missing = driver.send(bob, {"type": "get_game", "game": game + 1})
    driver.send(bob, {"type": "get_game", "game": game + 1})
    assert missing["code"] == "no_such_game"
    assert storage.reads == [("get_game", game), ("get_game", game + 1), ("get_game", game + 1)]


def test_a_remembered_private_record_still_needs_a_seat_or_the_password() -> None:
    storage = CountingStorage()
    driver = Driver(storage)
    ann = driver.connect("ann")
    driver.register(ann)  # a private game's record is its accounts' (a guest's: by password only)
    ann, game = finished_game(driver, "ann", private=True, password="sesame", conn=ann)
    eve = driver.connect("eve")
    assert driver.send(ann, {"type": "get_game", "game": game})["type"] == "game_record"
    storage.reads.clear()
    refused = driver.send(eve, {"type": "get_game", "game": game})
    assert (refused["type"], refused["code"]) == ("error", "no_such_game")
    wrong = driver.send(eve, {"type": "get_game", "game": game, "password": "open"})
    assert (wrong["type"], wrong["code"]) == ("error", "no_such_game")
    right = driver.send(eve, {"type": "get_game", "game": game, "password": "sesame"})
    assert right["type"] == "game_record" and right["record"]["id"] == game
    assert storage.reads == []


def test_the_record_cache_is_bounded_by_bytes() -> None:
    """With room for about one record, asking for two games in turn reads each every time;
    with no cache at all, every request reads."""
    for cache, expected_reads in ((1, 4), (0, 4), (64 * 1024 * 1024, 2)):
        storage = CountingStorage()
        driver = Driver(storage, record_cache_bytes=cache)
        ann, first = finished_game(driver, "ann")
        bob, second = finished_game(driver, "bob")
        storage.reads.clear()
        for game in (first, second, first, second):
            assert driver.send(ann, {"type": "get_game", "game": game})["record"]["id"] == game
        assert len(storage.reads) == expected_reads, (cache, storage.reads)


def test_record_requests_take_query_cost_tokens() -> None:
    """rate 1, burst 10, query_cost 4, no time passing: hello takes one token, two record
    requests eight, and the third is refused with the seconds until its four tokens are
    there (its own, the one token a refused request takes, is spent)."""
    driver = Driver(CountingStorage(), rate=1.0, burst=10, query_cost=4, query_rate_per_address=0)
    for request in ({"type": "get_game", "game": 1}, {"type": "list_games"},
                    {"type": "leaderboard", "family": "noddy"}):
        conn = driver.connect(f"p{driver.core.connections.next_id}")
        assert driver.send(conn, request)["type"] != "error" or request["type"] == "get_game"
        assert driver.send(conn, request).get("code") != "rate_limited"
        refused = driver.send(conn, request)
        assert (refused["type"], refused["code"]) == ("error", "rate_limited"), refused
        # its own token is gone: all four are there again after 4 s
        assert refused["retry_after"] == 4.0
        driver.now += 3.9
        assert driver.send(conn, request).get("code") == "rate_limited"
        driver.now += 4.0
        assert driver.send(conn, request).get("code") != "rate_limited"
        assert (driver.send(conn, {"type": "ping"}))["type"] == "pong"  # a ping takes one


def test_one_address_makes_few_record_requests_over_all_its_connections() -> None:
    driver = Driver(CountingStorage(), query_rate_per_address=2.0, query_burst_per_address=3)
    conns = []
    for number in range(4):
        conn, outs = driver.core.connect("10.0.0.9")
        driver.take(outs)
        conns.append(conn)
        driver.send(conn, {"type": "hello", "name": f"h{number}", "version": 1})
    answers = [driver.send(conn, {"type": "list_games"}) for conn in conns]
    assert [a["type"] for a in answers] == ["games", "games", "games", "error"]
    assert (answers[3]["code"], answers[3]["retry_after"]) == ("rate_limited", 0.5)
    elsewhere, outs = driver.core.connect("10.0.0.10")  # another address is not affected
    driver.take(outs)
    driver.send(elsewhere, {"type": "hello", "name": "other", "version": 1})
    assert driver.send(elsewhere, {"type": "list_games"})["type"] == "games"
    driver.now += 0.5
    assert driver.send(conns[3], {"type": "list_games"})["type"] == "games"


async def test_a_remembered_record_goes_out_as_the_same_line_in_json_and_text() -> None:
    async with running_server() as server:
        client, table, _over = await game_against_computer(server.port, "ann", seed=3)
        game = (await client.request({"type": "list_games"}))["games"][0]["id"]
        lines = []
        for _ in range(2):  # the first is read from the database, the second remembered
            client.writer.write(b'{"type":"get_game","game":%d,"id":"same"}\n' % game)
            lines.append(await asyncio.wait_for(client.reader.readline(), 10))
        assert lines[0] == lines[1]
        reply = json.loads(lines[1])
        assert (reply["type"], reply["id"], reply["record"]["id"]) == ("game_record", "same", game)
        assert encode_line(reply) == lines[1]  # what encoding the reply afresh would give
        client.writer.write(b'{"type":"get_game","game":%d}\n' % game)  # no id at all
        assert json.loads(await asyncio.wait_for(client.reader.readline(), 10)) == \
            {k: v for k, v in reply.items() if k != "id"}
        assert server.core is not None and game in server.core.record_cache
        text = await connect(server.port)
        await text.send_raw(b"name reader\n")
        await text.reader.readline()
        await text.reader.readline()
        await text.reader.readline()  # the welcome's three lines
        await text.send_raw(b"game %d\n" % game)
        # (a lobby push of the finished table may come first: wait for the record's line)
        while not (line := await asyncio.wait_for(text.reader.readline(), 10)).startswith(b"Game "):
            assert line.startswith(b"Table "), line
        assert line.startswith(b"Game %d (table %d)" % (game, table))
        await text.close()
        await client.close()
