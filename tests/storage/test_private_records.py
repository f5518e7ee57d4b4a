"""Private tables on a real database file: only salted hashes of their passwords are kept,
a restored table still takes its password, each game knows whether it was private, and a
database of an older server (passwords in the clear, schema version 1) keeps working."""

from __future__ import annotations

import json
import random
import sqlite3
from pathlib import Path

from noddy.server.model.passwords import is_hashed
from noddy.server.storage import SCHEMA_VERSION, Storage

from .helpers import Driver

PASSWORD = "sesame"


def _private_game_then_a_waiting_table(d: Driver) -> tuple[int, str]:
    """ann plays a game at private table 1 and opens private table 2, where she waits;
    returns ann's connection and resume token."""
    ann = d.connect("ann")
    d.register(ann)
    d.versus_computer(ann, "noddy", "random", private=True, password=PASSWORD, options={"target": 15})
    d.play(ann, random.Random(2))
    assert d.core.tables[1].game.is_over
    d.send(ann, {"type": "leave"})
    table = d.send(ann, {"type": "create_table", "private": True, "password": PASSWORD})["table"]
    assert (table["id"], table["private"]) == (2, True)
    return ann, d.token(ann)


def _stored_passwords(db: sqlite3.Connection) -> tuple[list[str | None], list[str | None]]:
    tables = [json.loads(state)["password"] for (state,) in db.execute("SELECT state FROM tables ORDER BY id")]
    games = [password for (password,) in db.execute("SELECT password FROM games ORDER BY id")]
    return tables, games


def test_only_salted_hashes_are_stored_and_a_restored_table_takes_its_password(tmp_path: Path) -> None:
    path = tmp_path / "noddy.sqlite3"
    d = Driver(Storage(path))
    _, token = _private_game_then_a_waiting_table(d)
    tables, games = _stored_passwords(d.storage.db)
    d.storage.close()
    assert len(tables) == 2 and len(games) == 1 and all(is_hashed(p) for p in tables)
    assert tables[0] != tables[1]  # salted: the same password, two hashes
    assert games == [tables[0]]  # the game keeps its table's password then
    for file in tmp_path.iterdir():  # nowhere on disk in the clear (the journal included)
        assert PASSWORD.encode() not in file.read_bytes(), file.name

    d.storage = Storage(path)
    d.restart()
    _the_password_still_opens_the_table_and_its_game(d, token)


def test_an_older_database_with_passwords_in_the_clear_keeps_working(tmp_path: Path) -> None:
    path = tmp_path / "noddy.sqlite3"
    d = Driver(Storage(path))
    _, token = _private_game_then_a_waiting_table(d)
    d.storage.close()
    # Make it what a server before hashing left: schema version 1, the passwords in the
    # tables' saved state in the clear, and nothing on the games.
    db = sqlite3.connect(path)
    with db:
        for table_id, state in db.execute("SELECT id, state FROM tables").fetchall():
            db.execute("UPDATE tables SET state = ? WHERE id = ?",
                       (json.dumps({**json.loads(state), "password": PASSWORD}), table_id))
        db.execute("ALTER TABLE games DROP COLUMN password")
        db.execute("DROP TABLE accounts")  # and no accounts: ann was a name, as everyone then
        db.execute("DROP TABLE tells")  # nor tells waiting for an account (version 7)
        db.execute("DROP TABLE game_stats")  # nor statistics (version 6: summed up again at open)
        db.execute("DROP TABLE stats_totals")
        db.execute("DROP TABLE mutes")  # nor an account's mutes (version 9)
        for table in ("events", "event_entrants", "event_pairings", "event_games"):
            db.execute(f"DROP TABLE {table}")  # nor club nights (version 11)
        for game_id, seats in db.execute("SELECT id, seats FROM games").fetchall():
            db.execute("UPDATE games SET seats = ? WHERE id = ?",
                       (json.dumps([{k: v for k, v in seat.items() if k != "account"}
                                    for seat in json.loads(seats)]), game_id))
        db.execute("ALTER TABLE games DROP COLUMN match")  # no matches either
    db.execute("PRAGMA user_version = 1")
    db.close()

    d.storage = Storage(path)
    assert d.storage.schema_version == SCHEMA_VERSION
    d.restart()
    tables, games = _stored_passwords(d.storage.db)
    assert all(is_hashed(p) for p in tables + games) and len(tables) == 2 and len(games) == 1
    _the_password_still_opens_the_table_and_its_game(d, token, account=False)


def _the_password_still_opens_the_table_and_its_game(d: Driver, token: str, account: bool = True) -> None:
    """After a restart: ann resumes at private table 2; ben needs its password to sit there,
    and the game played at the private table is seen by its player's account and by the
    password only (``account``: ann played it registered; an older server had no accounts,
    and its private games open to their password alone)."""
    ann = d.connect()
    assert d.send(ann, {"type": "hello", "name": "ann", "version": 1, "resume": token})["table"] == 2
    ben = d.connect("ben")
    assert d.send(ben, {"type": "sit", "table": 2, "password": "Sesame"})["code"] == "wrong_password"
    assert d.send(ben, {"type": "sit", "table": 2, "password": PASSWORD})["table"]["id"] == 2
    assert [g["private"] for g in d.send(ann, {"type": "list_games"})["games"]] == ([True] if account else [])
    assert d.send(ben, {"type": "list_games", "name": "ann"})["games"] == []
    assert d.send(ben, {"type": "get_game", "game": 1})["code"] == "no_such_game"
    assert d.send(ben, {"type": "get_game", "game": 1, "password": PASSWORD})["record"]["id"] == 1
    d.storage.close()
