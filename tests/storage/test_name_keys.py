"""Accounts of an older server keep working when the skeleton changes (issue 31): opening
its database works each account's ``key`` out again with today's skeleton (schema version 10),
and two accounts that now look alike are kept apart (the older one keeps the name)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from noddy.protocol.names import apart_key, skeleton
from noddy.server.model.passwords import hash_password
from noddy.server.storage import MIGRATIONS, SCHEMA_VERSION, Storage

from .helpers import Driver

#: Accounts as a server of schema version 8 left them: id, name, key (the skeleton of that
#: time: case, accents and a few Cyrillic and Greek letters folded), password.
OLD_ACCOUNTS = [
    (1, "Bill", "bill", "bill's secret"),    # now blll: i and l are one letter
    (2, "Al", "al", "al's secret"),          # registered first ...
    (3, "AI", "ai", "ai's secret"),          # ... so this one, now a lookalike of Al, is set apart
    (4, "Zoë", "zoe", "zoë's secret"),       # unchanged
    (5, "νal", "nal", "val's secret"),       # Greek nu: now val
]


def _old_database(path: Path) -> None:
    old = Storage(path, migrations=MIGRATIONS[:8])
    for account, name, key, password in OLD_ACCOUNTS:
        old.db.execute("INSERT INTO accounts (id, key, name, password, created_at, changed_at) "
                       "VALUES (?, ?, ?, ?, 1.0, 1.0)", (account, key, name, hash_password(password)))
    old.close()


def _keys(storage: Storage) -> dict[str, str]:
    return {row["name"]: row["key"] for row in storage.db.execute("SELECT name, key FROM accounts")}


def test_opening_an_old_database_works_each_key_out_again(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite3"
    _old_database(path)
    storage = Storage(path)
    assert storage.schema_version == SCHEMA_VERSION == 11
    assert _keys(storage) == {"Bill": "blll", "Al": "al", "AI": " AI", "Zoë": "zoe", "νal": "val"}
    assert [_keys(storage)[name] for name in ("Bill", "Al", "Zoë", "νal")] == [
        skeleton(name) for name in ("Bill", "Al", "Zoë", "νal")]
    storage.close()
    again = Storage(path)  # opening it again changes nothing
    assert _keys(again) == {"Bill": "blll", "Al": "al", "AI": " AI", "Zoë": "zoe", "νal": "val"}
    again.close()


def test_an_account_whose_key_changed_still_logs_in_and_its_lookalikes_need_its_password(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite3"
    _old_database(path)
    d = Driver(Storage(path))
    bill = d.connect()
    welcome = d.send(bill, {"type": "hello", "name": "bill", "version": 1, "password": "bill's secret"})
    assert (welcome["type"], welcome["name"], welcome["registered"]) == ("welcome", "Bill", True)
    d.send(bill, {"type": "bye"})
    # bi11 is Bill's name now, and so needs Bill's password (the old key, bill, let it pass).
    fake = d.connect()
    refused = d.send(fake, {"type": "hello", "name": "bi11", "version": 1})
    assert (refused["type"], refused["code"]) == ("error", "password_required")
    assert refused["message"].startswith("'Bill' is a registered name")
    val = d.send(fake, {"type": "hello", "name": "\u03bdal", "version": 1, "password": "val's secret"})
    assert (val["type"], val["name"], val["registered"]) == ("welcome", "νal", True)
    d.storage.close()


def test_a_set_apart_account_keeps_its_password_and_its_lookalikes_are_the_older_ones(tmp_path: Path) -> None:
    """``AI`` (registered after ``Al``) keeps its row and password under a key no skeleton can
    be (so nobody can register it), and is reached by its exact spelling; the skeleton, shared
    by both names now, is ``Al``'s: any other lookalike (``A1``) needs ``Al``'s password."""
    path = tmp_path / "old.sqlite3"
    _old_database(path)
    with sqlite3.connect(path) as before:
        hashes = dict(before.execute("SELECT name, password FROM accounts"))
    before.close()
    d = Driver(Storage(path))
    rows = d.storage.db.execute("SELECT id, key, name, password FROM accounts WHERE name IN ('Al', 'AI') ORDER BY id")
    assert [tuple(row) for row in rows] == [(2, skeleton("AI"), "Al", hashes["Al"]), (3, apart_key("AI"), "AI", hashes["AI"])]
    assert apart_key("AI") != skeleton(apart_key("AI"))
    conn = d.connect()
    refused = d.send(conn, {"type": "hello", "name": "AI", "version": 1})
    assert (refused["type"], refused["code"]) == ("error", "password_required")
    assert refused["message"].startswith("'AI' is a registered name")
    lookalike = d.send(conn, {"type": "hello", "name": "A1", "version": 1})
    assert lookalike["message"].startswith("'Al' is a registered name")
    welcome = d.send(conn, {"type": "hello", "name": "AI", "version": 1, "password": "ai's secret"})
    assert (welcome["type"], welcome["name"], welcome["registered"]) == ("welcome", "AI", True)
    d.storage.close()
