"""The :class:`Storage` class's writes: the fast path (one transaction for a whole batch), the
slow path (one savepoint per table, so one table's bad record never costs another table its
moves), broken tables and their repair, and the check that the file is still the one opened.

Split from the reads (:mod:`noddy.server.storage.reads`, which this class builds on: a
repair answers with what is stored) so that the error handling that keeps storage from ever
lying about what it saved can be read in one place.
"""

from __future__ import annotations

import json
import logging
import os
import sqlite3
import time
from typing import Any, Callable, Sequence

from noddy.protocol import compact_json

from .game_stats import seat_summaries, write_summaries
from .records import ActionApplied, GameBegun, GameFinished, MatchResigned, Record, TableClosed, TableSaved
from .opening import StorageError
from .reads import StorageReads

log = logging.getLogger("noddy.server.storage")


class StorageWrites(StorageReads):
    """The writing half of :class:`~noddy.server.storage.Storage`, on its one connection."""

    path: str
    #: Tables whose records failed to be written: their later records are refused until
    #: :meth:`repair` (see :meth:`write`).
    broken: set[int]
    #: (device, inode) of the file as opened, to notice it being removed or replaced.
    _identity: tuple[int, int] | None
    #: Whether the schema has the statistics' table (see :meth:`_write_stats`).
    keeps_stats: bool = True

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
        moves: list[tuple[int, int, str]] = []
        for record in records:
            if isinstance(record, ActionApplied):
                moves.append((record.game_id, record.index, _action_text(record.action)))
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
            db.execute(_INSERT_ACTION, (record.game_id, record.index, _action_text(record.action)))
        elif isinstance(record, TableSaved):
            db.execute("INSERT INTO tables (id, open, state, updated_at) VALUES (?, 1, ?, ?) "
                       "ON CONFLICT (id) DO UPDATE SET state = excluded.state, "
                       "updated_at = excluded.updated_at",
                       (record.table_id, compact_json(record.state), now))
        elif isinstance(record, GameBegun):
            self._begin_game(record)
        elif isinstance(record, GameFinished):
            self._finish_game(record)
        elif isinstance(record, MatchResigned):
            db.execute("UPDATE games SET match = ? WHERE id = ?", (compact_json(record.match), record.game_id))
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
        # Incomplete: rebuilding the table replays the game, which fills in its events.
        return {"table": table, "record": self.game_record(game["id"], complete=False) if game else None,
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
             compact_json(r.options), compact_json(r.seats), r.seed, r.started_at, _REPLAYED, r.password))
        if r.match is not None:  # (a single game's column stays NULL)
            self.db.execute("UPDATE games SET match = ? WHERE id = ?", (compact_json(r.match), r.game_id))
        self.db.executemany(
            "INSERT INTO game_players (game_id, seat, kind, name) VALUES (?, ?, ?, ?)",
            [(r.game_id, s["seat"], s["kind"], s["level"] if s["kind"] == "computer" else s["name"])
             for s in r.seats])

    def _finish_game(self, r: GameFinished, rate: bool = True) -> None:
        self.db.execute("UPDATE games SET status = 'finished', finished_at = ?, result = ? WHERE id = ?",
                        (r.finished_at, compact_json(r.result), r.game_id))
        if r.seats is not None:  # who played each seat, with when it changed hands
            self.db.execute("UPDATE games SET seats = ? WHERE id = ?", (compact_json(r.seats), r.game_id))
        if r.match is not None:  # the match's points after the game, and its winner
            self.db.execute("UPDATE games SET match = ? WHERE id = ?", (compact_json(r.match), r.game_id))
        if rate:
            self._write_ratings(r)
        self._write_stats(r)

    def _write_stats(self, r: GameFinished) -> None:
        """The game's statistics rows (:mod:`~noddy.server.storage.game_stats`): counted from
        the events the record carries (``r.log``) beside the game's row as just written (its
        settings, seats and result: read as a record reads them), or else from a replay of
        the whole stored game.  A game that cannot be counted is logged and gets none (the
        next start tries again): statistics never cost anyone a game."""
        if not self.keeps_stats:
            return
        try:
            if r.log is not None:
                row = self.db.execute("SELECT * FROM games WHERE id = ?", (r.game_id,)).fetchone()
                record = None if row is None else self._summary(row)
            else:
                record = self.game_record(r.game_id)
            if record is None:
                return
            rows = seat_summaries(record, {(c.identity.kind, c.identity.name): c.after for c in r.ratings}, r.log)
        except (ValueError, KeyError, TypeError, IndexError, AttributeError) as exc:
            log.error("game %d: no statistics (%s)", r.game_id, exc)
            return
        write_summaries(self.db, rows)

    def _write_ratings(self, r: GameFinished) -> None:
        self.db.executemany(
            "INSERT INTO ratings (family, kind, name, rating, games, wins) VALUES (?, ?, ?, ?, ?, ?) "
            "ON CONFLICT (family, kind, name) DO UPDATE SET rating = excluded.rating, "
            "games = excluded.games, wins = excluded.wins",
            [(c.family, c.identity.kind, c.identity.name, c.after, c.games, c.wins) for c in r.ratings])


#: A game's deal-in is stored without its events (JSON null, schema version 4): replaying the
#: game's seed gives them (see :mod:`noddy.server.storage.records`).  Their JSON was ~150k machine
#: instructions per game: an eighth of storage's work per game action.
_REPLAYED = "null"

#: An action is stored without its events (NULL): replaying the game gives them (see
#: :mod:`noddy.server.storage.records`).
_INSERT_ACTION = "INSERT INTO actions (game_id, n, action) VALUES (?, ?, ?)"

#: The keys, in order, of the two actions nearly every stored move is: ``Play.to_dict()``
#: and ``Go.to_dict()`` (see :func:`_action_text`).
_PLAY_KEYS = ("action", "seat", "card")
_GO_KEYS = ("action", "seat")
#: A str as a JSON string (quotes, escapes; non-ASCII kept): the very function the
#: encoder behind ``compact_json`` applies to every str (keys and values alike).
_quote: Callable[[str], str] = json.encoder.encode_basestring


def _action_text(action: dict[str, Any]) -> str:
    """``compact_json(action)``, exactly, for less work in the usual case.

    Every game move is stored as its action's JSON text, and nearly every move is a
    ``play`` or a ``go``.  For such a small dict, most of the encoder's cost is making a
    string object of each key, separator and number and joining them; a format string
    makes the same text at once.  It is exact because it does what the encoder does:
    the keys are written as they are (they are compared to these very strs), each str
    value goes through the same ``encode_basestring`` (so escapes, non-ASCII and even a
    lone surrogate come out the same), and an int is written as ``int.__repr__`` writes
    it -- hence ``type(x) is int``, as a bool is an int to Python but ``true`` to JSON.
    Anything else (another action, a key or value of another type, a dict subclass)
    is given to ``compact_json`` itself."""
    if type(action) is dict:
        keys = tuple(action)
        if keys == _PLAY_KEYS:
            verb, seat, card = action.values()
            if type(verb) is str and type(seat) is int and type(card) is str:
                return f'{{"action":{_quote(verb)},"seat":{seat},"card":{_quote(card)}}}'
        elif keys == _GO_KEYS:
            verb, seat = action.values()
            if type(verb) is str and type(seat) is int:
                return f'{{"action":{_quote(verb)},"seat":{seat}}}'
    return compact_json(action)


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
