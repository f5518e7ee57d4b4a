"""SQLite storage: the tables, games and ratings that must outlive the server process.

Theory of operation
===================

One :class:`Storage` owns one ``sqlite3`` connection and is only ever used from one thread:
:class:`StorageWorker` runs it on a single dedicated thread and hands every call to it
through a queue (a one-thread executor), so calls are carried out in the order they were
made and the event loop never waits on the disk.  The network layer gives the worker the
storage records (:mod:`noddy.server.storage.records`) of each turn of its event loop and sends the
messages of those calls only once the transaction holding them has committed; writes that
queue up while the thread is busy share one transaction (a group commit, see
:meth:`StorageWorker.write`).

The database is identified by ``PRAGMA application_id`` (:data:`APPLICATION_ID`) and its
schema version is ``PRAGMA user_version``; :data:`MIGRATIONS` brings any older version up to
date, one transaction per step.  A file that is not SQLite, or is some other program's
database, or comes from a newer server, is refused with :class:`StorageError` and left
untouched.  The journal is WAL with ``synchronous=FULL``: a committed action survives the
process being killed and the machine losing power.

What is kept (schema version 11, which added club nights):

* ``tables`` -- every table ever opened: its id, whether it is still ``open``, and its state
  as JSON (settings, the password's salted hash, creator, seats with the seated people's resume tokens, counters,
  the current game's id, a running match).  Open tables are restored at start.
* ``games`` -- one row per game dealt: settings, seat names, seed, ``status`` (``playing``,
  ``finished`` or ``abandoned``), times, result, for a private table's game the hash of the
  table's password then (``password``), and for a match's game its place in the match
  (``match``, JSON, version 8: which match, which game, who dealt first, the match points).
  Not the events of its deal-in, which replaying the seed gives (``opening`` is ``null``; rows from before version 4 hold them,
  checked whenever the game is replayed).
* ``actions`` -- each game's actions in order; not the events they caused, which replaying
  the game gives (``events`` is NULL; rows from before version 3 hold them, checked whenever
  the game is replayed).
* ``game_players`` -- who sat where in each game, indexed by name for ``list_games``.
* ``ratings`` -- one row per (family, kind, name).
* ``game_stats`` -- one summary row per seat of each finished game, for ``stats``
  (:mod:`~noddy.server.storage.game_stats`), written with the game's result, naming the
  seat's account (version 9); and ``stats_totals``, each person's running sums of those rows
  per preset, by name and account.
* ``accounts`` -- registered names: the name's skeleton, the name, the password's salted
  scrypt hash, an id never reused (:mod:`~noddy.server.storage.accounts`).
* ``tells`` -- tells waiting for an account's next login, deleted as they are delivered
  (:mod:`~noddy.server.storage.tells`), with the sender's account (version 9); and ``mutes``,
  each account's muted names (version 9), which keep a muted name's tells out.
* ``events`` -- club nights (version 11): each event's whole state as JSON, what a restart
  brings back; and ``event_entrants``, ``event_pairings``, ``event_games``, its entries (with
  their places), boards and games as rows, written afresh from it at each save
  (:mod:`~noddy.server.storage.club`).

Where it lives: the schema and its migrations in :mod:`~noddy.server.storage.schema`; opening
a file (checks, the lock file, exclusive locking, the probe write) in
:mod:`~noddy.server.storage.opening`; :class:`Storage` in :mod:`~noddy.server.storage.database`,
composed of its reads (:mod:`~noddy.server.storage.reads`) and writes
(:mod:`~noddy.server.storage.writes`); :class:`StorageWorker` and its group commit in
:mod:`~noddy.server.storage.worker`.  This module keeps the one import path everything uses.
"""

from __future__ import annotations

from .database import Storage
from .opening import MEMORY, StorageError, default_db_path
from .reads import StoredState
from .schema import APPLICATION_ID, MIGRATIONS, SCHEMA_VERSION
from .worker import COMMIT_SPACING, StorageWorker

__all__ = ["APPLICATION_ID", "COMMIT_SPACING", "MEMORY", "MIGRATIONS", "SCHEMA_VERSION", "Storage",
           "StorageError", "StorageWorker", "StoredState", "default_db_path"]
