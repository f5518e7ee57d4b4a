"""The database file: created on first start with its schema version, migrated step by step,
and refused -- clearly, and without being touched -- when it is damaged, foreign or newer."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from noddy.server.storage import (
    APPLICATION_ID,
    MIGRATIONS,
    SCHEMA_VERSION,
    Storage,
    StorageError,
    default_db_path,
)

EXPECTED_TABLES = {"tables", "games", "game_players", "actions", "ratings", "accounts", "tells",
                   "sqlite_sequence",  # (SQLite's own: accounts' ids are never used again)
                   "game_stats", "stats_totals", "mutes",
                   "events", "event_entrants", "event_pairings", "event_games"}


def _tables(path: Path) -> set[str]:
    db = sqlite3.connect(path)
    try:
        return {row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    finally:
        db.close()  # the server holds its database alone: nothing else may have it open


def test_created_on_first_start_with_its_version_and_identity(tmp_path: Path) -> None:
    path = tmp_path / "deep" / "folder" / "noddy.sqlite3"
    storage = Storage(path)
    assert storage.schema_version == SCHEMA_VERSION == len(MIGRATIONS)
    storage.close()
    assert _tables(path) == EXPECTED_TABLES
    with sqlite3.connect(path) as db:
        assert db.execute("PRAGMA application_id").fetchone()[0] == APPLICATION_ID
        assert db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    db.close()
    assert (path.stat().st_mode & 0o777) == 0o600  # it holds resume tokens
    Storage(path).close()  # opening again changes nothing
    assert _tables(path) == EXPECTED_TABLES


def test_an_empty_file_is_a_new_database(tmp_path: Path) -> None:
    path = tmp_path / "empty.sqlite3"
    path.touch()
    Storage(path).close()
    assert _tables(path) == EXPECTED_TABLES


def test_migrations_run_in_order_from_the_stored_version(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite3"
    Storage(path).close()  # a database at today's version
    later = MIGRATIONS + ("CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT);",
                          "ALTER TABLE notes ADD COLUMN author TEXT;")
    storage = Storage(path, migrations=later)
    assert storage.schema_version == len(later)
    storage.db.execute("INSERT INTO notes (text, author) VALUES ('x', 'ann')")
    storage.close()
    # and a server that knows only today's migrations refuses the newer file
    with pytest.raises(StorageError, match="newer than this server"):
        Storage(path)


def test_a_new_database_is_one_log_line_and_an_old_one_a_line_per_migration(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """Seen in tmux at 80x24 (issue 26's acceptance): the host's first screen on a new file
    opened with eight "migrating the database ... to schema version N" lines (16 rows at 80
    columns) above the lines friends type to join; nothing was migrated."""
    path = tmp_path / "new.sqlite3"
    with caplog.at_level("INFO", logger="noddy.server.storage"):
        Storage(path).close()
        assert caplog.messages == [f"creating the database {path} (schema version {SCHEMA_VERSION})"]
        caplog.clear()
        Storage(path, migrations=MIGRATIONS + ("CREATE TABLE notes (id INTEGER PRIMARY KEY);",)).close()
    assert caplog.messages == [f"migrating the database {path} to schema version {SCHEMA_VERSION + 1}"]


def test_a_failed_migration_leaves_the_old_version(tmp_path: Path) -> None:
    path = tmp_path / "db.sqlite3"
    Storage(path).close()
    with pytest.raises(StorageError, match="cannot prepare"):
        Storage(path, migrations=MIGRATIONS + ("CREATE TABLE notes (a); THIS IS NOT SQL;",))
    storage = Storage(path)
    assert storage.schema_version == SCHEMA_VERSION
    storage.close()
    assert "notes" not in _tables(path)


def test_damaged_file_is_refused_and_untouched(tmp_path: Path) -> None:
    path = tmp_path / "damaged.sqlite3"
    data = os.urandom(4096)
    path.write_bytes(data)
    with pytest.raises(StorageError, match="is not a noddy-server database"):
        Storage(path)
    assert path.read_bytes() == data
    assert sorted(p.name for p in tmp_path.iterdir()) == ["damaged.sqlite3"]


def test_foreign_sqlite_file_is_refused_and_untouched(tmp_path: Path) -> None:
    path = tmp_path / "photos.db"
    with sqlite3.connect(path) as db:
        db.execute("CREATE TABLE photos (id INTEGER PRIMARY KEY, caption TEXT)")
        db.execute("INSERT INTO photos (caption) VALUES ('owl')")
    db.close()
    data = path.read_bytes()
    with pytest.raises(StorageError, match="some other program's SQLite database"):
        Storage(path)
    assert path.read_bytes() == data


def _run_server(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "noddy.server.cli", "--host", "127.0.0.1", "--port", "0",
                           *args], capture_output=True, text=True, timeout=30)


@pytest.mark.parametrize("kind", ["random bytes", "foreign sqlite"])
def test_the_server_says_so_in_one_line_and_exits(tmp_path: Path, kind: str) -> None:
    path = tmp_path / "bad.sqlite3"
    if kind == "random bytes":
        path.write_bytes(os.urandom(2048))
    else:
        with sqlite3.connect(path) as db:
            db.execute("CREATE TABLE accounts (id INTEGER)")
        db.close()
    data = path.read_bytes()
    result = _run_server("--db", str(path))
    assert result.returncode == 2
    assert result.stdout == ""
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in result.stderr, result.stderr
    assert str(path) in lines[0] and "left untouched" in lines[0]
    assert path.read_bytes() == data


def test_default_path_follows_xdg_data_home(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    assert default_db_path() == tmp_path / "noddy" / "noddy.sqlite3"
    monkeypatch.delenv("XDG_DATA_HOME")
    assert default_db_path() == Path.home() / ".local" / "share" / "noddy" / "noddy.sqlite3"
