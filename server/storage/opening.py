"""Opening a database file: where it lives, the lock file that keeps a second server off it,
and the checks, exclusive locking, migration and probe write made before it is used.

Everything here runs once, at start, before a single record is written: a file that is not
ours, is newer, cannot be written or is held by another server is refused here with
:class:`StorageError` and left untouched, so the rest of storage may assume a healthy,
current database (see :mod:`noddy.server.storage`).
"""

from __future__ import annotations

import contextlib
import fcntl
import logging
import os
import sqlite3
from pathlib import Path
from typing import IO, Sequence

from .schema import APPLICATION_ID, SQL_FUNCTIONS

log = logging.getLogger("noddy.server.storage")

#: The path of a database kept in memory only (nothing outlives the process).
MEMORY = ":memory:"


class StorageError(Exception):
    """The database cannot be used; the message says why in one line, for the operator."""


def default_db_path() -> Path:
    """``$XDG_DATA_HOME/noddy/noddy.sqlite3``, or ``~/.local/share/noddy/noddy.sqlite3``."""
    base = os.environ.get("XDG_DATA_HOME") or os.path.join(os.path.expanduser("~"), ".local", "share")
    return Path(base) / "noddy" / "noddy.sqlite3"


def take_lock(path: str, lock_path: str) -> IO[str]:
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


def open_database(path: str, migrations: Sequence[str]) -> sqlite3.Connection:
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
        for name, function in SQL_FUNCTIONS.items():  # what a migration works out in Python
            db.create_function(name, 1, function, deterministic=True)
        if version == 0 and len(migrations):  # a new file: one line, nothing was migrated
            log.info("creating the database %s (schema version %d)", path, len(migrations))
        for step in range(version, len(migrations)):
            if version:
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
