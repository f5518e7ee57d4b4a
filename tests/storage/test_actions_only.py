"""A game is stored as its seed and actions, not its events again (neither its deal-in's nor
its actions'): ``get_game`` and a restore rebuild the events by replaying it, and a database
of an older server, whose rows hold them, still reads and restores (those events checked
against the replay)."""

from __future__ import annotations

import random
import sqlite3
from pathlib import Path
from typing import Any

from noddy.protocol import compact_json
from noddy.server.storage.records import ActionApplied, GameBegun, record_events, replay
from noddy.server.storage import MIGRATIONS, SCHEMA_VERSION, Storage

from ..server.results import outcome_events
from .helpers import Driver, comparable


def _stored_steps(records: list[Any], game_id: int) -> list[dict[str, Any]]:
    """The steps of ``game_id`` as the core handed them to storage: what the players were sent."""
    return [{"action": r.action, "events": r.events} for r in records
            if isinstance(r, ActionApplied) and r.game_id == game_id]


def _opening(records: list[Any], game_id: int) -> list[dict[str, Any]]:
    return next(r.opening for r in records if isinstance(r, GameBegun) and r.game_id == game_id)


def _openings(path: Path) -> list[str]:
    """The stored ``opening`` text of every game, in order."""
    db = sqlite3.connect(path)
    try:
        return [text for (text,) in db.execute("SELECT opening FROM games ORDER BY id")]
    finally:
        db.close()


def _rows(path: Path) -> list[tuple[int, int, bool]]:
    """(game, n, whether the row holds events) of every stored action."""
    db = sqlite3.connect(path)
    try:
        return [(g, n, e) for g, n, e in db.execute(
            "SELECT game_id, n, events IS NOT NULL FROM actions ORDER BY game_id, n")]
    finally:
        db.close()


def _two_games(d: Driver) -> tuple[str, dict[str, Any]]:
    """ann plays game 1 to its end; bob plays game 2 for six actions.  Returns bob's token and
    his snapshot then."""
    ann, bob = d.connect("ann"), d.connect("bob")
    d.versus_computer(ann, "noddy", "random")
    d.play(ann, random.Random(1))
    d.versus_computer(bob, "cribbage", "random")
    assert d.play(bob, random.Random(2), actions=6) == 6
    return d.token(bob), d.send(bob, {"type": "snapshot"})


def _resume(d: Driver, token: str) -> tuple[int, dict[str, Any]]:
    bob = d.connect()
    assert d.send(bob, {"type": "hello", "name": "bob", "version": 1, "resume": token})["resumed"] is True
    return bob, d.send(bob, {"type": "snapshot"})


def test_a_game_is_stored_without_its_events_and_read_back_with_them(tmp_path: Path) -> None:
    path = tmp_path / "noddy.sqlite3"
    d = Driver(Storage(path))
    token, before = _two_games(d)
    d.restart()  # mid-game for bob: his game is dealt again and its six actions replayed
    bob, after = _resume(d, token)
    assert comparable(after) == comparable(before)
    d.play(bob, random.Random(3))
    cat = d.connect("cat")  # anyone reads a public table's games
    for game_id in (1, 2):
        record = d.send(cat, {"type": "get_game", "game": game_id})["record"]
        assert record["opening"] == _opening(d.records, game_id)
        assert record["steps"] == _stored_steps(d.records, game_id)
        assert outcome_events(record_events(record)) == outcome_events([e.to_dict() for e in replay(record).log])
    d.storage.close()
    rows = _rows(path)
    assert [n for g, n, _ in rows if g == 2] == list(range(1, len(_stored_steps(d.records, 2)) + 1))
    assert not any(has_events for _, _, has_events in rows)
    assert _openings(path) == ["null", "null"]


def _as_an_older_server_wrote(path: Path, records: list[Any]) -> None:
    """``records`` written to a new database at schema version 2, each action with its events
    and each game with its deal-in's, as servers before version 3 stored them."""
    old = Storage(path, migrations=MIGRATIONS[:2])
    assert old.schema_version == 2
    old.db.execute("BEGIN")
    for record in records:
        if isinstance(record, ActionApplied):
            old.db.execute("INSERT INTO actions (game_id, n, action, events) VALUES (?, ?, ?, ?)",
                           (record.game_id, record.index, compact_json(record.action),
                            compact_json(record.events)))
        else:
            old._write_one(record, 1.7e9)
            if isinstance(record, GameBegun):
                old.db.execute("UPDATE games SET opening = ? WHERE id = ?",
                               (compact_json(record.opening), record.game_id))
    old.db.execute("COMMIT")
    old.close()


def test_an_older_database_with_events_reads_restores_and_goes_on(tmp_path: Path) -> None:
    d = Driver(Storage(":memory:"))
    token, before = _two_games(d)
    path = tmp_path / "old.sqlite3"
    _as_an_older_server_wrote(path, d.records)
    old_rows = _rows(path)
    assert old_rows and all(has_events for _, _, has_events in old_rows)

    d.storage = Storage(path)  # migrated to today's version: its rows keep their events
    assert d.storage.schema_version == SCHEMA_VERSION == 11
    d.restart()
    bob, after = _resume(d, token)
    assert comparable(after) == comparable(before)
    d.play(bob, random.Random(3))  # game 2 goes on: its new actions are stored without events
    cat = d.connect("cat")  # anyone reads a public table's games
    for game_id in (1, 2):
        record = d.send(cat, {"type": "get_game", "game": game_id})["record"]
        assert record["opening"] == _opening(d.records, game_id)
        assert record["steps"] == _stored_steps(d.records, game_id)
    d.storage.close()
    rows = _rows(path)
    assert rows[:len(old_rows)] == old_rows
    assert rows[len(old_rows):] and not any(has_events for _, _, has_events in rows[len(old_rows):])
    assert _openings(path) == [compact_json(_opening(d.records, 1)), compact_json(_opening(d.records, 2))]


def _refused_after_tampering(tmp_path: Path, change: str) -> None:
    """An older server's database of :func:`_two_games`, with ``change`` (SQL) made to it,
    restored: bob's table cannot be, and he is told so when he comes back."""
    d = Driver(Storage(":memory:"))
    token, _ = _two_games(d)
    path = tmp_path / "old.sqlite3"
    _as_an_older_server_wrote(path, d.records)
    db = sqlite3.connect(path)
    with db:
        db.execute(change)
    db.close()
    d.storage = Storage(path)
    d.restart()
    bob = d.connect()
    welcome = d.send(bob, {"type": "hello", "name": "bob", "version": 1, "resume": token})
    assert welcome["table"] is None
    assert [m["reason"] for m in d.inbox[bob] if m["type"] == "table_closed"] == ["not_restored"]
    d.storage.close()


def test_an_older_row_whose_events_do_not_replay_is_refused(tmp_path: Path) -> None:
    _refused_after_tampering(tmp_path, "UPDATE actions SET events = '[]' WHERE game_id = 2 AND n = 3")


def test_an_older_game_whose_deal_in_does_not_replay_is_refused(tmp_path: Path) -> None:
    """A stored deal-in is checked against the replay as a stored action's events are."""
    _refused_after_tampering(tmp_path, "UPDATE games SET opening = '[]' WHERE id = 2")
