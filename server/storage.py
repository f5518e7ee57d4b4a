"""SQLite storage: the tables, games and ratings that must outlive the server process.

Theory of operation
===================

One :class:`Storage` owns one ``sqlite3`` connection and is only ever used from one thread:
:class:`StorageWorker` runs it on a single dedicated thread and hands every call to it
through a queue (a one-thread executor), so calls are carried out in the order they were
made and the event loop never waits on the disk.  The network layer gives the worker the
storage records (:mod:`noddy.server.records`) of each turn of its event loop and sends the
messages of those calls only once the transaction holding them has committed; writes that
queue up while the thread is busy share one transaction (a group commit, see
:meth:`StorageWorker.write`).

The database is identified by ``PRAGMA application_id`` (:data:`APPLICATION_ID`) and its
schema version is ``PRAGMA user_version``; :data:`MIGRATIONS` brings any older version up to
date, one transaction per step.  A file that is not SQLite, or is some other program's
database, or comes from a newer server, is refused with :class:`StorageError` and left
untouched.  The journal is WAL with ``synchronous=FULL``: a committed action survives the
process being killed and the machine losing power.

What is kept (schema version 2):

* ``tables`` -- every table ever opened: its id, whether it is still ``open``, and its state
  as JSON (settings, the password's salted hash, creator, seats with the seated people's resume tokens, counters,
  the current game's id).  Open tables are restored at start.
* ``games`` -- one row per game dealt: settings, seat names, seed, ``status`` (``playing``,
  ``finished`` or ``abandoned``), times, result, the deal-in events (``opening``) and, for a
  private table's game, the hash of the table's password then (``password``).
* ``actions`` -- each game's actions in order, each with the events it caused.
* ``game_players`` -- who sat where in each game, indexed by name for ``list_games``.
* ``ratings`` -- one row per (family, kind, name).
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import logging
import os
import sqlite3
import threading
import time
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any, Callable, Sequence

from noddy.protocol import compact_json

from .passwords import hash_password, is_hashed
from .records import (ActionApplied, GameBegun, GameFinished, Record, StoredGame, TableClosed,
                      TableSaved, wire_int)

log = logging.getLogger("noddy.server.storage")

#: ``PRAGMA application_id`` of a noddy-server database: "Nody" in ASCII.
APPLICATION_ID = 0x4E6F6479
MEMORY = ":memory:"

_V1 = """
CREATE TABLE tables (
    id         INTEGER PRIMARY KEY,
    open       INTEGER NOT NULL DEFAULT 1,
    state      TEXT    NOT NULL,
    updated_at REAL    NOT NULL
);
CREATE TABLE games (
    id           INTEGER PRIMARY KEY,
    table_id     INTEGER NOT NULL,
    number       INTEGER NOT NULL,
    preset       TEXT    NOT NULL,
    family       TEXT    NOT NULL,
    players      INTEGER NOT NULL,
    partnerships INTEGER NOT NULL,
    options      TEXT    NOT NULL,
    seats        TEXT    NOT NULL,
    seed         INTEGER NOT NULL,
    status       TEXT    NOT NULL CHECK (status IN ('playing', 'finished', 'abandoned')),
    started_at   REAL    NOT NULL,
    finished_at  REAL,
    result       TEXT,
    opening      TEXT    NOT NULL
);
CREATE INDEX games_by_table ON games (table_id, status);
CREATE TABLE game_players (
    game_id INTEGER NOT NULL REFERENCES games (id),
    seat    INTEGER NOT NULL,
    kind    TEXT    NOT NULL,
    name    TEXT    NOT NULL,
    PRIMARY KEY (game_id, seat)
) WITHOUT ROWID;
CREATE INDEX game_players_by_name ON game_players (kind, name, game_id);
CREATE TABLE actions (
    game_id INTEGER NOT NULL REFERENCES games (id),
    n       INTEGER NOT NULL,
    action  TEXT    NOT NULL,
    events  TEXT    NOT NULL,
    PRIMARY KEY (game_id, n)
) WITHOUT ROWID;
CREATE TABLE ratings (
    family TEXT    NOT NULL,
    kind   TEXT    NOT NULL,
    name   TEXT    NOT NULL,
    rating REAL    NOT NULL,
    games  INTEGER NOT NULL,
    wins   INTEGER NOT NULL,
    PRIMARY KEY (family, kind, name)
) WITHOUT ROWID;
"""

#: ``MIGRATIONS[n]`` takes a database from schema version ``n`` to ``n + 1``.  Append only:
#: a released step is never edited, so every database walks the same path.
#: Version 2: each game keeps the hash of its table's password when it was dealt (NULL: a
#: public table), so a private table's records go only to its players or to its password.
#: Games stored before take the password their table has in its saved state (an older
#: server kept it in the clear: :meth:`Storage.load` hashes those).
_V2 = """
ALTER TABLE games ADD COLUMN password TEXT;
UPDATE games SET password = (SELECT json_extract(t.state, '$.password') FROM tables AS t
                             WHERE t.id = games.table_id);
"""

MIGRATIONS: tuple[str, ...] = (_V1, _V2)
SCHEMA_VERSION = len(MIGRATIONS)


class StorageError(Exception):
    """The database cannot be used; the message says why in one line, for the operator."""


def default_db_path() -> Path:
    """``$XDG_DATA_HOME/noddy/noddy.sqlite3``, or ``~/.local/share/noddy/noddy.sqlite3``."""
    base = os.environ.get("XDG_DATA_HOME") or os.path.join(os.path.expanduser("~"), ".local", "share")
    return Path(base) / "noddy" / "noddy.sqlite3"


@dataclass
class StoredState:
    """Everything the server restores at start."""

    #: Each open table's state and, if it has a game, that game's record (any status).
    tables: list[tuple[dict[str, Any], dict[str, Any] | None]] = field(default_factory=list)
    #: (family, kind, name, rating, games, wins) rows.
    ratings: list[tuple[str, str, str, float, int, int]] = field(default_factory=list)
    next_table: int = 1
    next_game: int = 1


class Storage:
    """The database, used from one thread only; see the module docstring."""

    def __init__(self, path: str | os.PathLike[str], migrations: Sequence[str] = MIGRATIONS) -> None:
        self.path = str(path)
        #: Tables whose records failed to be written: their later records are refused until
        #: :meth:`repair` (see :meth:`write`).
        self.broken: set[int] = set()
        lock_path = str(Path(self.path).expanduser()) + ".lock"
        created = not os.path.exists(lock_path)
        self._lock = None if self.path == MEMORY else _take_lock(self.path, lock_path)
        try:
            self.db = _open(self.path, migrations)
        except BaseException:
            if created:  # a file that is refused is left as it was found, with nothing beside it
                with contextlib.suppress(OSError):
                    os.remove(lock_path)
            self._release_lock()
            raise
        #: (device, inode) of the file as opened, to notice it being removed or replaced.
        self._identity: tuple[int, int] | None = None
        if self.path != MEMORY:
            st = os.stat(self.path)
            self._identity = (st.st_dev, st.st_ino)

    def close(self) -> None:
        self.db.close()
        self._release_lock()

    def _release_lock(self) -> None:
        if self._lock is not None:
            self._lock.close()  # closing the descriptor releases the lock
            self._lock = None

    @property
    def schema_version(self) -> int:
        return int(self.db.execute("PRAGMA user_version").fetchone()[0])

    # -- writing --------------------------------------------------------------------------
    def write(self, records: Sequence[Record]) -> set[int]:
        """Write ``records`` in one transaction; return the ids of the tables whose records
        could not be written (empty when everything was).

        Each table's records are written whole or not at all, and never fail because of
        another table's: the batch is first written as one transaction (the fast path, all
        a healthy disk ever needs); if any record fails, the batch is written again with a
        savepoint per table, so only the failing tables' records are left out.  A table
        that failed is *broken*: its later records are refused (reported failed) without
        being written, so nothing is ever stored on top of a gap, until :meth:`repair`.
        Raises (and every table of the batch is broken) when the transaction as a whole
        cannot be made: the disk is full, the file was removed, the database is unwritable.
        """
        try:
            self._check_file()
            if not (self.broken and any(_table_of(record) in self.broken for record in records)):
                try:
                    self._transaction(lambda: self._write_all(records, time.time()))
                    return set()
                except (sqlite3.Error, ValueError, TypeError, OverflowError) as exc:
                    if _whole_database(exc):
                        raise
            failed: set[int] = self._transaction(lambda: self._write_per_table(records, time.time()))
            return failed
        except BaseException:
            self.broken.update(_table_of(record) for record in records)
            raise

    def _transaction(self, body: Callable[[], Any]) -> Any:
        """Run ``body`` in a write transaction and commit it, or roll it back and raise."""
        db = self.db
        db.execute("BEGIN IMMEDIATE")
        try:
            result = body()
        except BaseException:
            _rollback(db)
            raise
        try:
            db.execute("COMMIT")
        except BaseException:
            _rollback(db)
            raise
        return result

    def _write_all(self, records: Sequence[Record], now: float) -> None:
        db = self.db
        # A busy server's batch is mostly game moves: those go in with one executemany
        # per run of them, not one execute (and its statement lookup) each.
        moves: list[tuple[int, int, str, str]] = []
        for record in records:
            if isinstance(record, ActionApplied):
                moves.append((record.game_id, record.index, compact_json(record.action),
                              compact_json(record.events)))
                continue
            if moves:
                db.executemany(_INSERT_ACTION, moves)
                moves = []
            self._write_one(record, now)
        if moves:
            db.executemany(_INSERT_ACTION, moves)

    def _write_per_table(self, records: Sequence[Record], now: float) -> set[int]:
        """The slow path of :meth:`write`: one savepoint per table, ratings last."""
        db = self.db
        by_table: dict[int, list[Record]] = {}
        for record in records:
            by_table.setdefault(_table_of(record), []).append(record)
        failed: set[int] = set()
        for table_id, group in by_table.items():
            if table_id in self.broken:
                failed.add(table_id)
                continue
            db.execute("SAVEPOINT one_table")
            try:
                for record in group:
                    if isinstance(record, GameFinished):
                        self._finish_game(record, rate=False)
                    else:
                        self._write_one(record, now)
            except (sqlite3.Error, ValueError, TypeError, OverflowError) as exc:
                if _whole_database(exc):
                    raise
                log.error("table %d: its records could not be written (%s); its game is "
                          "paused until they can", table_id, exc)
                db.execute("ROLLBACK TO one_table")
                failed.add(table_id)
            db.execute("RELEASE one_table")
        # Ratings are absolute values: written last, in the order they were made, so two
        # tables rating one computer level in the same batch keep the later value.
        for record in records:
            if isinstance(record, GameFinished) and record.table_id not in failed:
                self._write_ratings(record)
        self.broken |= failed
        return failed

    def _write_one(self, record: Record, now: float) -> None:
        db = self.db
        if isinstance(record, ActionApplied):
            db.execute(_INSERT_ACTION, (record.game_id, record.index, compact_json(record.action),
                                        compact_json(record.events)))
        elif isinstance(record, TableSaved):
            db.execute("INSERT INTO tables (id, open, state, updated_at) VALUES (?, 1, ?, ?) "
                       "ON CONFLICT (id) DO UPDATE SET state = excluded.state, "
                       "updated_at = excluded.updated_at",
                       (record.table_id, compact_json(record.state), now))
        elif isinstance(record, GameBegun):
            self._begin_game(record)
        elif isinstance(record, GameFinished):
            self._finish_game(record)
        elif isinstance(record, TableClosed):
            db.execute("UPDATE tables SET open = 0, updated_at = ? WHERE id = ?", (now, record.table_id))
            db.execute("UPDATE games SET status = 'abandoned' WHERE table_id = ? AND status = 'playing'",
                       (record.table_id,))
        else:
            raise TypeError(f"not a storage record: {record!r}")

    def repair(self, table_id: int, write: bool) -> dict[str, Any]:
        """What is stored of table ``table_id`` after its records failed: ``{"table": state
        or None (never stored, or closed), "record": its current game's record or None,
        "ratings": every rating row, "writable": write}`` -- what the core rebuilds it from,
        exactly as it stands on disk.  With ``write``, first check that the database takes
        writes again (a real write transaction; raises if not) and take the table back:
        its records are written again from now on."""
        if write:
            self._check_file()
            self._transaction(lambda: self.db.execute(
                "UPDATE tables SET updated_at = ? WHERE id = (SELECT max(id) FROM tables)", (time.time(),)))
            self.broken.discard(table_id)
        row = self.db.execute("SELECT state, open FROM tables WHERE id = ?", (table_id,)).fetchone()
        table = json.loads(row["state"]) if row is not None and row["open"] else None
        game = None if table is None else table.get("game")
        return {"table": table, "record": self.game_record(game["id"]) if game else None,
                "ratings": self._ratings(), "writable": write}

    def _check_file(self) -> None:
        """Refuse to write when the database file was removed or replaced while the server
        ran: SQLite would go on writing to the deleted file, and everything would be lost at
        the next start without a word."""
        if self._identity is None:
            return
        try:
            st = os.stat(self.path)
            identity = (st.st_dev, st.st_ino)
        except OSError:
            identity = None
        if identity != self._identity:
            raise StorageError(f"the database file {self.path} was removed or replaced while the "
                               f"server was running: nothing more can be saved; restart the server")

    def _begin_game(self, r: GameBegun) -> None:
        self.db.execute(
            "INSERT INTO games (id, table_id, number, preset, family, players, partnerships, options, "
            "seats, seed, status, started_at, opening, password) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'playing', ?, ?, ?)",
            (r.game_id, r.table_id, r.number, r.preset, r.family, r.players, int(r.partnerships),
             compact_json(r.options), compact_json(r.seats), r.seed, r.started_at, compact_json(r.opening),
             r.password))
        self.db.executemany(
            "INSERT INTO game_players (game_id, seat, kind, name) VALUES (?, ?, ?, ?)",
            [(r.game_id, s["seat"], s["kind"], s["level"] if s["kind"] == "computer" else s["name"])
             for s in r.seats])

    def _finish_game(self, r: GameFinished, rate: bool = True) -> None:
        self.db.execute("UPDATE games SET status = 'finished', finished_at = ?, result = ? WHERE id = ?",
                        (r.finished_at, compact_json(r.result), r.game_id))
        if rate:
            self._write_ratings(r)

    def _write_ratings(self, r: GameFinished) -> None:
        self.db.executemany(
            "INSERT INTO ratings (family, kind, name, rating, games, wins) VALUES (?, ?, ?, ?, ?, ?) "
            "ON CONFLICT (family, kind, name) DO UPDATE SET rating = excluded.rating, "
            "games = excluded.games, wins = excluded.wins",
            [(c.family, c.identity.kind, c.identity.name, c.after, c.games, c.wins) for c in r.ratings])

    # -- reading --------------------------------------------------------------------------
    def load(self) -> StoredState:
        """The open tables (with their games), the ratings and the next free ids."""
        db = self.db
        self._hash_clear_passwords()
        state = StoredState()
        state.next_table = db.execute("SELECT coalesce(max(id), 0) + 1 FROM tables").fetchone()[0]
        state.next_game = db.execute("SELECT coalesce(max(id), 0) + 1 FROM games").fetchone()[0]
        for (text,) in db.execute("SELECT state FROM tables WHERE open = 1 ORDER BY id").fetchall():
            table = json.loads(text)
            game = table.get("game")
            record = self.game_record(game["id"]) if game else None
            state.tables.append((table, record))
        state.ratings = self._ratings()
        return state

    def _ratings(self) -> list[tuple[str, str, str, float, int, int]]:
        return [tuple(row) for row in self.db.execute(  # type: ignore[misc]
            "SELECT family, kind, name, rating, games, wins FROM ratings ORDER BY family, kind, name")]

    def _hash_clear_passwords(self) -> None:
        """Hash the table passwords an older server kept in the clear (in a table's saved
        state, and on its games by migration 2), in one transaction; nothing when none is."""
        db = self.db
        tables = []
        # Only states that are valid JSON: mending a broken one is not for here (restoring
        # it fails and closes its table).
        for table_id, text in db.execute(
                "SELECT id, state FROM tables WHERE json_valid(state) "
                "AND json_type(state, '$.password') = 'text' "
                "AND substr(json_extract(state, '$.password'), 1, 7) != 'scrypt$'"):
            state = json.loads(text)
            if not is_hashed(state["password"]):
                tables.append((table_id, state))
        games = [(game_id, password) for game_id, password in db.execute(
            "SELECT id, password FROM games WHERE password IS NOT NULL AND substr(password, 1, 7) != 'scrypt$'")
            if not is_hashed(password)]
        if not tables and not games:
            return
        log.info("hashing the passwords of %d tables and %d games kept in the clear",
                 len(tables), len(games))

        def rewrite() -> None:
            for table_id, state in tables:
                state["password"] = hash_password(state["password"])
                db.execute("UPDATE tables SET state = ? WHERE id = ?", (compact_json(state), table_id))
            db.executemany("UPDATE games SET password = ? WHERE id = ?",
                           [(hash_password(password), game_id) for game_id, password in games])
        self._transaction(rewrite)

    def list_games(self, name: str, limit: int, viewer: str | None = None) -> list[dict[str, Any]]:
        """The finished games ``name`` played in, newest first (records without their moves).
        With a ``viewer``, a private table's games only if the viewer sat in them too."""
        rows = self.db.execute(
            "SELECT g.* FROM game_players AS p JOIN games AS g ON g.id = p.game_id "
            "WHERE p.kind = 'human' AND p.name = ? AND g.status = 'finished' "
            "AND (g.password IS NULL OR ? IS NULL OR EXISTS (SELECT 1 FROM game_players AS v "
            "WHERE v.game_id = g.id AND v.kind = 'human' AND v.name = ?)) "
            "GROUP BY g.id ORDER BY g.id DESC LIMIT ?", (name, viewer, viewer, limit)).fetchall()
        return [self._summary(row) for row in rows]

    def finished_game(self, game_id: int) -> dict[str, Any] | None:
        """A finished game's full record, or None (unfinished games are not shown: cards).
        Not access-checked: for the operator's ``--export-game`` (see :meth:`stored_game`)."""
        record = self.game_record(game_id)
        return record if record is not None and record["status"] == "finished" else None

    def stored_game(self, game_id: int) -> StoredGame | None:
        """A finished game's record with what decides who may read it (``get_game``)."""
        record = self.finished_game(game_id)
        if record is None:
            return None
        (password,) = self.db.execute("SELECT password FROM games WHERE id = ?", (game_id,)).fetchone()
        return StoredGame(record, password)

    def game_record(self, game_id: int) -> dict[str, Any] | None:
        """Any game's full record, or None if there is no such game."""
        row = self.db.execute("SELECT * FROM games WHERE id = ?", (game_id,)).fetchone()
        if row is None:
            return None
        record = self._summary(row)
        record["opening"] = json.loads(row["opening"])
        record["steps"] = [{"action": json.loads(action), "events": json.loads(events)}
                           for action, events in self.db.execute(
                               "SELECT action, events FROM actions WHERE game_id = ? ORDER BY n", (game_id,))]
        return record

    def read(self, kind: str, args: dict[str, Any]) -> Any:
        """The queries the core may ask for (:class:`~noddy.server.core.Query`)."""
        if kind == "list_games":
            return self.list_games(args["name"], args["limit"], args.get("viewer"))
        if kind == "get_game":
            return self.stored_game(args["game"])
        if kind == "repair_table":
            return self.repair(args["table"], args["write"])
        raise ValueError(f"unknown storage query {kind!r}")

    @staticmethod
    def _summary(row: sqlite3.Row) -> dict[str, Any]:
        return {
            "id": row["id"], "table": row["table_id"], "number": row["number"], "preset": row["preset"],
            "family": row["family"], "players": row["players"], "partnerships": bool(row["partnerships"]),
            "options": json.loads(row["options"]), "seats": json.loads(row["seats"]),
            "seed": wire_int(row["seed"]), "private": row["password"] is not None,
            "status": row["status"], "started_at": row["started_at"], "finished_at": row["finished_at"],
            "result": None if row["result"] is None else json.loads(row["result"]),
        }


_INSERT_ACTION = "INSERT INTO actions (game_id, n, action, events) VALUES (?, ?, ?, ?)"

#: What SQLite says when the database as a whole cannot take a write (as opposed to one
#: record being at fault): writing the tables one by one would fail the same way.
_WHOLE_DATABASE_ERRORS = ("disk i/o error", "disk is full", "readonly", "read-only", "unable to open",
                          "database is locked", "no such table", "not a database", "malformed")


def _whole_database(exc: BaseException) -> bool:
    return isinstance(exc, sqlite3.OperationalError | sqlite3.DatabaseError) and any(
        words in str(exc).lower() for words in _WHOLE_DATABASE_ERRORS)


def _table_of(record: Record) -> int:
    return record.table_id


def _rollback(db: sqlite3.Connection) -> None:
    """Roll back the open transaction, if SQLite has not already done so itself (it does
    after some errors, such as a full disk, and then ROLLBACK would fail in its turn)."""
    if db.in_transaction:
        try:
            db.execute("ROLLBACK")
        except sqlite3.Error as exc:
            log.error("rolling back failed too: %s", exc)


def _take_lock(path: str, lock_path: str) -> IO[str]:
    """Hold ``PATH.lock`` (an ``flock``, which the system releases however the process ends,
    even by ``kill -9``) with our process id in it, so that a second server on the same
    database refuses to start and names the one that has it: two servers on one file would
    both restore its tables and hand out the same ids."""
    try:
        Path(lock_path).parent.mkdir(parents=True, exist_ok=True)
        handle = open(lock_path, "a+", encoding="ascii")
    except OSError as exc:
        raise StorageError(f"cannot use the database {path}: cannot create its lock file "
                           f"{lock_path}: {exc.strerror or exc}") from None
    try:
        fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        handle.seek(0)
        holder = handle.read().strip() or "unknown"
        handle.close()
        raise StorageError(f"the database {path} is in use by another noddy-server (process "
                           f"{holder}); stop that one first, or choose another file with --db") from None
    try:
        handle.seek(0)
        handle.truncate()
        handle.write(f"{os.getpid()}\n")
        handle.flush()
    except OSError as exc:  # a disk that takes no writes: say so before anything else
        with contextlib.suppress(OSError):
            handle.close()  # which tries the write once more, and fails the same way
        raise StorageError(f"cannot use the database {path}: cannot write its lock file "
                           f"{lock_path}: {exc.strerror or exc}") from None
    return handle


def _open(path: str, migrations: Sequence[str]) -> sqlite3.Connection:
    """Open ``path``, check it is ours (or new and empty), and migrate it; see the module doc."""
    if path != MEMORY:
        folder = Path(path).expanduser().resolve().parent
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise StorageError(f"cannot create the folder for the database {path}: {exc}") from None
        if Path(path).is_dir():
            raise StorageError(f"the database path {path} is a folder")
        if Path(path).exists() and not os.access(path, os.R_OK | os.W_OK):
            raise StorageError(f"the database {path} cannot be written (read-only file: "
                               f"check its permissions); it was left untouched")
        if not os.access(folder, os.W_OK | os.X_OK):
            raise StorageError(f"the folder of the database {path} cannot be written (SQLite "
                               f"keeps its journal beside the file): check its permissions")
    try:
        db = sqlite3.connect(path, isolation_level=None, check_same_thread=True)
    except sqlite3.Error as exc:
        raise StorageError(f"cannot open the database {path}: {exc}") from None
    db.row_factory = sqlite3.Row
    try:
        if path != MEMORY:
            # Before the first access: with the lock held for good, SQLite keeps the WAL index
            # in its own memory instead of a shared, memory-mapped -shm file, which raises
            # SIGBUS in the whole process when the file cannot be written (a full disk).
            db.execute("PRAGMA locking_mode = EXCLUSIVE")
        app_id = db.execute("PRAGMA application_id").fetchone()[0]
        version = db.execute("PRAGMA user_version").fetchone()[0]
        objects = db.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]
    except sqlite3.DatabaseError as exc:
        db.close()
        raise StorageError(f"{path} is not a noddy-server database (SQLite says: {exc}); "
                           f"it was left untouched") from None
    if app_id != APPLICATION_ID and (app_id != 0 or objects or version):
        db.close()
        raise StorageError(f"{path} is some other program's SQLite database, not a noddy-server "
                           f"one; it was left untouched (choose another file with --db)")
    if version > len(migrations):
        db.close()
        raise StorageError(f"{path} has schema version {version}, newer than this server's "
                           f"{len(migrations)}; upgrade noddy-server (the file was left untouched)")
    try:
        if path != MEMORY:
            db.execute("PRAGMA journal_mode = WAL")
            if not objects:
                os.chmod(path, 0o600)  # it holds resume tokens
        db.execute("PRAGMA synchronous = FULL")
        db.execute("PRAGMA foreign_keys = ON")
        for step in range(version, len(migrations)):
            log.info("migrating the database %s to schema version %d", path, step + 1)
            db.executescript(f"BEGIN IMMEDIATE;\n{migrations[step]}\n"
                             f"PRAGMA application_id = {APPLICATION_ID};\n"
                             f"PRAGMA user_version = {step + 1};\nCOMMIT;")
        # A write now, before anyone is told a move is saved: a full disk or a file that
        # cannot be written is an error at start, not a surprise at the first move.
        db.executescript(f"BEGIN IMMEDIATE;\nPRAGMA user_version = {len(migrations)};\nCOMMIT;")
    except sqlite3.Error as exc:
        db.close()
        raise StorageError(f"cannot prepare the database {path}: {exc}") from None
    return db


#: The least time between two commits of a database thread (see ``StorageWorker._flush``).
COMMIT_SPACING = 0.001


class StorageWorker:
    """A :class:`Storage` on its own thread: every call returns a future, in call order.

    An in-memory database (``:memory:``) never waits for a disk, so its calls are carried
    out at once on the caller's thread and return futures already done: handing each write
    to another thread only added a wait for the GIL (up to ``sys.getswitchinterval()``, 5 ms)
    to every request while the event loop was busy -- the benchmark's latency floor.
    """

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = str(path)
        self.inline = self.path == MEMORY
        self._executor = (None if self.inline
                          else ThreadPoolExecutor(max_workers=1, thread_name_prefix="noddy-db"))
        self._storage: Storage | None = None
        #: Writes waiting for the database thread, and whether a flush of them is queued.
        self._lock = threading.Lock()
        self._queued: list[tuple[Sequence[Record], "Future[set[int]]"]] = []
        self._flush_due = False
        self._last_commit = 0.0

    def _call(self, fn: Callable[..., Any], *args: Any) -> "Future[Any]":
        if self._executor is not None:
            return self._executor.submit(fn, *args)
        future: Future[Any] = Future()
        try:
            future.set_result(fn(*args))
        except BaseException as exc:  # the caller reads it from the future, as from the thread
            future.set_exception(exc)
        return future

    def open(self) -> "Future[StoredState]":
        """Open (creating or migrating) the database and load what is to be restored."""
        def run() -> StoredState:
            self._storage = Storage(self.path)
            return self._storage.load()
        return self._call(run)

    def write(self, records: Sequence[Record]) -> "Future[set[int]]":
        """Write ``records`` in a transaction, which writes queued while the thread was busy
        with the one before share (a group commit): a commit to a file costs a few hundred
        microseconds whatever it holds, so under load one commit serves many requests."""
        if self._executor is None:
            return self._call(lambda: self._require().write(records))
        future: Future[set[int]] = Future()
        with self._lock:
            self._queued.append((records, future))
            if self._flush_due:
                return future
            self._flush_due = True
        # Submitted now, so any read submitted after this call comes after it.
        self._executor.submit(self._flush)
        return future

    def _flush(self) -> None:
        """On the database thread: write everything queued so far in one transaction.

        A commit to a file waits for the disk (``synchronous = FULL``): ~130 µs of CPU and
        ~300 µs in all on the machine measured, whatever the transaction holds.  Under load
        commits would follow each other back to back, so one that comes less than
        ``COMMIT_SPACING`` after the last waits out the rest of it, gathering more writes:
        at most one commit a millisecond, and no wait at all when the server is quiet."""
        wait = self._last_commit + COMMIT_SPACING - time.monotonic()
        if wait > 0:
            time.sleep(wait)
        with self._lock:
            queued, self._queued = self._queued, []
            self._flush_due = False
        try:
            failed = self._require().write([record for records, _ in queued for record in records])
            self._last_commit = time.monotonic()
        except BaseException as exc:
            for _, future in queued:
                future.set_exception(exc)
        else:
            for _, future in queued:
                future.set_result(failed)  # each caller picks its own tables out of it

    def read(self, kind: str, args: dict[str, Any]) -> "Future[Any]":
        return self._call(lambda: self._require().read(kind, args))

    def close(self) -> "Future[None]":
        """Close the database after every call queued before; then the thread ends."""
        def run() -> None:
            if self._storage is not None:
                self._storage.close()
                self._storage = None
        future = self._call(run)
        if self._executor is not None:
            self._executor.shutdown(wait=False)
        return future

    def _require(self) -> Storage:
        if self._storage is None:
            raise StorageError("the database is not open")
        return self._storage
