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

What is kept (schema version 1):

* ``tables`` -- every table ever opened: its id, whether it is still ``open``, and its state
  as JSON (settings, password, creator, seats with the seated people's resume tokens, counters,
  the current game's id).  Open tables are restored at start.
* ``games`` -- one row per game dealt: settings, seat names, seed, ``status`` (``playing``,
  ``finished`` or ``abandoned``), times, result and the deal-in events (``opening``).
* ``actions`` -- each game's actions in order, each with the events it caused.
* ``game_players`` -- who sat where in each game, indexed by name for ``list_games``.
* ``ratings`` -- one row per (family, kind, name).
"""

from __future__ import annotations

import json
import logging
import os
import sqlite3
import threading
import time
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Sequence

from noddy.protocol import compact_json

from .records import ActionApplied, GameBegun, GameFinished, Record, TableClosed, TableSaved

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
MIGRATIONS: tuple[str, ...] = (_V1,)
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
        self.db = _open(self.path, migrations)

    def close(self) -> None:
        self.db.close()

    @property
    def schema_version(self) -> int:
        return int(self.db.execute("PRAGMA user_version").fetchone()[0])

    # -- writing --------------------------------------------------------------------------
    def write(self, records: Sequence[Record]) -> None:
        """Write ``records`` in one transaction: all of them or none."""
        db = self.db
        now = time.time()
        db.execute("BEGIN IMMEDIATE")
        try:
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
                if isinstance(record, TableSaved):
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
            if moves:
                db.executemany(_INSERT_ACTION, moves)
        except BaseException:
            db.execute("ROLLBACK")
            raise
        db.execute("COMMIT")

    def _begin_game(self, r: GameBegun) -> None:
        self.db.execute(
            "INSERT INTO games (id, table_id, number, preset, family, players, partnerships, options, "
            "seats, seed, status, started_at, opening) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'playing', ?, ?)",
            (r.game_id, r.table_id, r.number, r.preset, r.family, r.players, int(r.partnerships),
             compact_json(r.options), compact_json(r.seats), r.seed, r.started_at, compact_json(r.opening)))
        self.db.executemany(
            "INSERT INTO game_players (game_id, seat, kind, name) VALUES (?, ?, ?, ?)",
            [(r.game_id, s["seat"], s["kind"], s["level"] if s["kind"] == "computer" else s["name"])
             for s in r.seats])

    def _finish_game(self, r: GameFinished) -> None:
        self.db.execute("UPDATE games SET status = 'finished', finished_at = ?, result = ? WHERE id = ?",
                        (r.finished_at, compact_json(r.result), r.game_id))
        self.db.executemany(
            "INSERT INTO ratings (family, kind, name, rating, games, wins) VALUES (?, ?, ?, ?, ?, ?) "
            "ON CONFLICT (family, kind, name) DO UPDATE SET rating = excluded.rating, "
            "games = excluded.games, wins = excluded.wins",
            [(c.family, c.identity.kind, c.identity.name, c.after, c.games, c.wins) for c in r.ratings])

    # -- reading --------------------------------------------------------------------------
    def load(self) -> StoredState:
        """The open tables (with their games), the ratings and the next free ids."""
        db = self.db
        state = StoredState()
        state.next_table = db.execute("SELECT coalesce(max(id), 0) + 1 FROM tables").fetchone()[0]
        state.next_game = db.execute("SELECT coalesce(max(id), 0) + 1 FROM games").fetchone()[0]
        for (text,) in db.execute("SELECT state FROM tables WHERE open = 1 ORDER BY id").fetchall():
            table = json.loads(text)
            game = table.get("game")
            record = self.game_record(game["id"]) if game else None
            state.tables.append((table, record))
        state.ratings = [tuple(row) for row in db.execute(  # type: ignore[misc]
            "SELECT family, kind, name, rating, games, wins FROM ratings ORDER BY family, kind, name")]
        return state

    def list_games(self, name: str, limit: int) -> list[dict[str, Any]]:
        """The finished games ``name`` played in, newest first (records without their moves)."""
        rows = self.db.execute(
            "SELECT g.* FROM game_players AS p JOIN games AS g ON g.id = p.game_id "
            "WHERE p.kind = 'human' AND p.name = ? AND g.status = 'finished' "
            "GROUP BY g.id ORDER BY g.id DESC LIMIT ?", (name, limit)).fetchall()
        return [self._summary(row) for row in rows]

    def finished_game(self, game_id: int) -> dict[str, Any] | None:
        """A finished game's full record, or None (unfinished games are not shown: cards)."""
        record = self.game_record(game_id)
        return record if record is not None and record["status"] == "finished" else None

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
            return self.list_games(args["name"], args["limit"])
        if kind == "get_game":
            return self.finished_game(args["game"])
        raise ValueError(f"unknown storage query {kind!r}")

    @staticmethod
    def _summary(row: sqlite3.Row) -> dict[str, Any]:
        return {
            "id": row["id"], "table": row["table_id"], "number": row["number"], "preset": row["preset"],
            "family": row["family"], "players": row["players"], "partnerships": bool(row["partnerships"]),
            "options": json.loads(row["options"]), "seats": json.loads(row["seats"]), "seed": row["seed"],
            "status": row["status"], "started_at": row["started_at"], "finished_at": row["finished_at"],
            "result": None if row["result"] is None else json.loads(row["result"]),
        }


_INSERT_ACTION = "INSERT INTO actions (game_id, n, action, events) VALUES (?, ?, ?, ?)"


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
    try:
        db = sqlite3.connect(path, isolation_level=None, check_same_thread=True)
    except sqlite3.Error as exc:
        raise StorageError(f"cannot open the database {path}: {exc}") from None
    db.row_factory = sqlite3.Row
    try:
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
        self._queued: list[tuple[Sequence[Record], "Future[None]"]] = []
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

    def write(self, records: Sequence[Record]) -> "Future[None]":
        """Write ``records`` in a transaction, which writes queued while the thread was busy
        with the one before share (a group commit): a commit to a file costs a few hundred
        microseconds whatever it holds, so under load one commit serves many requests."""
        if self._executor is None:
            return self._call(lambda: self._require().write(records))
        future: Future[None] = Future()
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
            self._require().write([record for records, _ in queued for record in records])
            self._last_commit = time.monotonic()
        except BaseException as exc:
            for _, future in queued:
                future.set_exception(exc)
        else:
            for _, future in queued:
                future.set_result(None)

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
