"""Club nights in the database (issue 35, schema version 11): a file of version 10 is given
the events tables and keeps what it held; an event stored mid-round comes back, after the
database is closed and opened again, exactly as it was, and goes on as it would have; its
rows say each entrant's place and each board's games."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

from noddy.server.model.club import Event
from noddy.server.storage import MIGRATIONS, SCHEMA_VERSION, Storage
from noddy.server.storage.club import FINISHED_LOADED

from .club_helpers import entered, open_tables, play, seat


def _mid_round() -> Event:
    """A Swiss of five, mid round 1: board 1 played (ann 121-85 a skunk, ben 121-100), board
    2 seated with cat only, eve's bye, the director's pause on."""
    event = entered(["ann", "ben", "cat", "dan", "eve"], ["eve"], password_hash="scrypt$abc", rated=True)
    start = event.start(0.0, "dir")
    open_tables(event, 0.0, start, 41)
    play(event, 10.0, 1, 1, [("ann", 121, 85, "skunk"), ("ben", 121, 100, "none")])
    seat(event, 12.0, 1, 2, ["cat"])
    event.pause(15.0, "dir")
    return event


def _rows(storage: Storage, sql: str) -> list[tuple[Any, ...]]:
    return [tuple(row) for row in storage.db.execute(sql).fetchall()]


def test_an_event_stored_mid_round_comes_back_after_a_restart_and_goes_on_alike(tmp_path: Path) -> None:
    path = tmp_path / "club.sqlite3"
    event = _mid_round()
    storage = Storage(path)
    assert storage.read("save_event", {"event": event.to_dict(), "saved_at": 16.0}) is None
    storage.close()

    storage = Storage(path)
    loaded = storage.read("load_events", {})
    assert loaded["last_id"] == 1 and len(loaded["events"]) == 1
    restored = Event.from_dict(loaded["events"][0])
    assert restored == event
    assert (restored.state, restored.paused_at, restored.rounds[0].pairings[1].arrived) == ("paused", 15.0, ["cat"])
    assert restored.definition.password_hash == "scrypt$abc"
    # the same calls give the same effects: dan's no-show clock, stopped by the pause, runs out at
    # 60 + (40 - 15)
    for copy in (event, restored):
        copy.resume(40.0, "dir")
    assert restored.next_deadline() == event.next_deadline() == 85.0
    assert restored.tick(85.0) == event.tick(85.0)
    assert restored == event
    storage.read("save_event", {"event": restored.to_dict(), "saved_at": 86.0})
    assert Event.from_dict(storage.read("get_event", {"event": 1})) == event
    storage.close()


def test_the_rows_beside_an_event_give_places_boards_and_games(tmp_path: Path) -> None:
    storage = Storage(tmp_path / "club.sqlite3")
    event = _mid_round()
    storage.read("save_event", {"event": event.to_dict(), "saved_at": 16.0})
    assert _rows(storage, "SELECT id, title, director, state, announced_at, updated_at FROM events") == [
        (1, "Tuesday club", "dir", "paused", 0.0, 16.0)]
    # eve's bye scores 4 (2 games' worth); ann's skunk win 3, ben's plain win 2
    assert _rows(storage, "SELECT name, kind, status, place, points FROM event_entrants ORDER BY place") == [
        ("eve", "bot", "entered", 1, 4), ("ann", "person", "entered", 2, 3), ("ben", "person", "entered", 3, 2),
        ("cat", "person", "entered", 4, 0), ("dan", "person", "entered", 5, 0)]
    assert _rows(storage, "SELECT round, board, a, b, table_id, status, forfeit FROM event_pairings") == [
        (1, 1, "ann", "ben", 41, "done", None), (1, 2, "cat", "dan", 42, "seating", None)]
    seeds = event.rounds[0].pairings[0].seeds
    assert _rows(storage, "SELECT round, board, game, seed, winner, a_score, b_score, skunk FROM event_games") == [
        (1, 1, 0, seeds[0], "ann", 121, 85, "skunk"), (1, 1, 1, seeds[1], "ben", 100, 121, "none")]
    # dan does not come: saved again, the forfeit replaces the rows, never adds to them
    event.resume(20.0, "dir")
    event.tick(65.0)
    storage.read("save_event", {"event": event.to_dict(), "saved_at": 66.0})
    assert _rows(storage, "SELECT board, status, forfeit, forfeit_by FROM event_pairings") == [
        (1, "done", None, None), (2, "done", "no-show", "dan")]
    assert _rows(storage, "SELECT count(*), sum(forfeit IS NOT NULL) FROM event_games") == [(4, 2)]
    assert storage.read("events_of", {"name": "cat", "kind": "person", "limit": 5}) == [
        {"event": 1, "title": "Tuesday club", "state": "running", "place": 1, "points": 4, "entrants": 5}]
    assert storage.read("events_of", {"name": "eve", "kind": "person", "limit": 5}) == []
    storage.close()


def test_an_event_over_is_kept_and_the_latest_over_are_brought_back_after_the_open_ones(tmp_path: Path) -> None:
    """A start brings back the events not over and, after them, the latest FINISHED_LOADED
    over with their final tables (so that ``event N`` still shows one after a restart)."""
    storage = Storage(tmp_path / "club.sqlite3")
    event = _mid_round()
    event.end_early(20.0, "dir")
    storage.read("save_event", {"event": event.to_dict(), "saved_at": 21.0})
    assert storage.read("load_events", {}) == {"events": [event.to_dict()], "last_id": 1}
    kept = storage.read("get_event", {"event": 1})
    assert kept["state"] == "ended" and kept["final"] == event.standings()
    assert storage.read("get_event", {"event": 2}) is None
    # more over than are brought back, and one open (the lowest id): the open one first
    for number in range(2, FINISHED_LOADED + 3):
        data = event.to_dict()
        data["definition"]["id"] = number
        storage.read("save_event", {"event": data, "saved_at": 22.0})
    open_one = _mid_round().to_dict()
    storage.read("save_event", {"event": open_one, "saved_at": 23.0})  # id 1 again, not over now
    loaded = storage.read("load_events", {})
    assert [(e["definition"]["id"], e["state"]) for e in loaded["events"]] == [(1, "paused")] + [
        (number, "ended") for number in range(3, FINISHED_LOADED + 3)]
    assert loaded["last_id"] == FINISHED_LOADED + 2
    storage.close()


def test_a_version_10_database_is_given_the_events_tables_and_keeps_its_accounts(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite3"
    old = Storage(path, migrations=MIGRATIONS[:10])
    assert old.schema_version == 10
    old.read("register", {"key": "ann", "name": "ann", "stored": "scrypt$ann"})
    old.close()
    with sqlite3.connect(path) as db:
        assert db.execute("SELECT count(*) FROM sqlite_master WHERE name LIKE 'event%'").fetchone() == (0,)
    db.close()
    storage = Storage(path)
    assert storage.schema_version == SCHEMA_VERSION == 11
    assert _rows(storage, "SELECT key, name FROM accounts") == [("ann", "ann")]
    assert storage.read("load_events", {}) == {"events": [], "last_id": 0}
    storage.read("save_event", {"event": _mid_round().to_dict(), "saved_at": 16.0})
    assert storage.read("load_events", {})["last_id"] == 1
    storage.close()


def test_a_pairing_keeps_its_game_ids_and_one_stored_before_them_loads_with_none() -> None:
    """The game ids (the records a client replays) go with a stored pairing; an event stored
    before they were kept has none, and its games show no id rather than failing to load."""
    from noddy.server.model.club_types import Pairing

    pairing = Pairing(round=1, board=1, a="ann", b="ben", seeds=[5, 5], game_ids=[7, None])
    assert Pairing.from_dict(pairing.to_dict()).game_ids == [7, None]
    old = pairing.to_dict()
    del old["game_ids"]
    loaded = Pairing.from_dict(old)
    assert (loaded.game_ids, loaded.game_id(0), loaded.game_id(1)) == ([], None, None)
    assert (pairing.game_id(0), pairing.game_id(1), pairing.game_id(2)) == (7, None, None)
