"""Schema version 9 (issue 31): a database of version 8, whose statistics were kept by name,
is opened by this server: each statistics row is given the account that sat in its seat
(from the game's stored seats), the sums are made again per account, and a name given up and
registered again shows its new owner none of the first owner's games."""

from __future__ import annotations

import random
import sqlite3
from pathlib import Path
from typing import Any

from noddy.server.storage import MIGRATIONS, SCHEMA_VERSION, Storage
from noddy.server.storage.game_stats import read_stats

from .helpers import Driver


def _as_version_8(path: Path) -> None:
    """Make the file what a server of schema version 8 left: ``game_stats`` without its
    account, the version-6 indexes, ``stats_totals`` summed by name, tells without their
    sender's account, no mutes kept, no club nights (version 11)."""
    db = sqlite3.connect(path)
    db.executescript("""
        DROP INDEX game_stats_best;
        DROP INDEX game_stats_ratings;
        ALTER TABLE game_stats DROP COLUMN account;
        DROP TABLE stats_totals;
        DROP INDEX tells_by_sender;
        ALTER TABLE tells DROP COLUMN sender_account;
        DROP TABLE mutes;
        DROP TABLE events;
        DROP TABLE event_entrants;
        DROP TABLE event_pairings;
        DROP TABLE event_games;
    """)
    db.executescript(MIGRATIONS[5])  # the version-6 indexes and an empty stats_totals of then
    db.executescript("""
        INSERT INTO stats_totals
            SELECT kind, name, preset, private, min(family), count(*), sum(won), sum(deals), sum(cribs),
                   sum(pegging), sum(hand), sum(crib), sum(skunk_given != 'none'), sum(skunk_given = 'double'),
                   sum(skunk_taken != 'none'), sum(skunk_taken = 'double')
            FROM game_stats GROUP BY kind, name, preset, private;
        PRAGMA user_version = 8;
    """)
    db.close()


def _rows(storage: Storage, sql: str) -> list[tuple[Any, ...]]:
    return [tuple(row) for row in storage.db.execute(sql).fetchall()]


def _figures(storage: Storage, name: str, account: int) -> dict[str, Any]:
    return read_stats(storage.db, name, account, None, True)


def test_a_version_8_database_gives_each_statistics_row_its_account(tmp_path: Path) -> None:
    path = tmp_path / "noddy.sqlite3"
    d = Driver(Storage(path))
    first = d.connect("ann")
    d.register(first)
    d.versus_computer(first, "noddy", "random", private=True, password="pw", options={"target": 15})
    d.play(first, random.Random(1))
    d.send(first, {"type": "leave"})
    d.versus_computer(first, "noddy", "random", options={"target": 15})
    d.play(first, random.Random(2))
    d.send(first, {"type": "leave"})
    assert d.send(first, {"type": "unregister", "password": "a secret"})["type"] == "unregistered"
    d.send(first, {"type": "bye"})
    second = d.connect("ann")
    d.register(second)
    d.versus_computer(second, "noddy", "random", options={"target": 15})
    d.play(second, random.Random(3))
    carl, ben = d.connect("carl"), d.connect("ben")
    d.register(carl)
    d.register(ben)
    d.send(carl, {"type": "bye"})
    assert d.send(ben, {"type": "tell", "name": "carl", "text": "a game?"})["waiting"] is True
    accounts = dict(_rows(d.storage, "SELECT name, id FROM accounts"))
    old_id, new_id = accounts["ann"] - 1, accounts["ann"]  # registered: ann, ann again, carl, ben
    assert sorted(accounts.values()) == [new_id, new_id + 1, new_id + 2]
    seats = _rows(d.storage, "SELECT name, account, count(*) FROM game_stats GROUP BY name, account "
                             "ORDER BY account, name")
    assert seats == [("random", 0, 3), ("ann", old_id, 2), ("ann", new_id, 1)]
    first_figures, second_figures = _figures(d.storage, "ann", old_id), _figures(d.storage, "ann", new_id)
    d.storage.close()

    _as_version_8(path)
    d.storage = Storage(path)
    assert d.storage.schema_version == SCHEMA_VERSION == 11
    assert _rows(d.storage, "SELECT name, account, count(*) FROM game_stats GROUP BY name, account "
                            "ORDER BY account, name") == seats
    assert _rows(d.storage, "SELECT kind, name, account, private, games FROM stats_totals "
                            "ORDER BY account, private") == [
        ("computer", "random", 0, 0, 2), ("computer", "random", 0, 1, 1),
        ("human", "ann", old_id, 0, 1), ("human", "ann", old_id, 1, 1), ("human", "ann", new_id, 0, 1)]
    assert _figures(d.storage, "ann", old_id) == first_figures
    assert _figures(d.storage, "ann", new_id) == second_figures
    assert sum(p["games"] for p in second_figures["presets"]) == 1
    assert _rows(d.storage, "SELECT sender, sender_account FROM tells") == [("ben", None)]
    assert _rows(d.storage, "SELECT * FROM mutes") == []
    d.restart()
    again = d.connect()
    d.send(again, {"type": "hello", "name": "ann", "version": 1, "password": "a secret"})
    own = d.send(again, {"type": "stats"})
    assert [(p["preset"], p["games"]) for p in own["presets"]] == [("noddy", 1)]
    assert own["presets"] == second_figures["presets"]
    d.storage.close()
