"""The :class:`Storage` class itself: one database connection, opened with its lock, and the
query dispatch the core uses.

The class is composed of its accounts (:mod:`noddy.server.storage.accounts`), the tells
waiting for a login (:mod:`noddy.server.storage.tells`), club nights
(:mod:`noddy.server.storage.club`), its reads (:mod:`noddy.server.storage.reads`) and writes
(:mod:`noddy.server.storage.writes`); what is left here is its life -- opening the file and
taking its lock (:mod:`noddy.server.storage.opening`), closing both -- and :meth:`Storage.read`,
which routes the core's queries to either half.  See :mod:`noddy.server.storage`.
"""

from __future__ import annotations

import contextlib
import os
from pathlib import Path
from typing import Any, Sequence

from .accounts import ACCOUNT_QUERIES, StorageAccounts
from .club import EVENT_QUERIES, StorageEvents, events_of
from .game_stats import backfill, read_stats
from .opening import MEMORY, open_database, take_lock
from .schema import MIGRATIONS, STATS_VERSION
from .tells import TELL_QUERIES, StorageTells
from .writes import StorageWrites

#: The club nights a ``stats`` reply lists (the latest): a season's worth of club nights.
EVENTS_IN_STATS = 20


class Storage(StorageAccounts, StorageTells, StorageEvents, StorageWrites):
    """The database, used from one thread only; see :mod:`noddy.server.storage`."""

    def __init__(self, path: str | os.PathLike[str], migrations: Sequence[str] = MIGRATIONS) -> None:
        self.path = str(path)
        #: Tables whose records failed to be written: their later records are refused until
        #: :meth:`repair` (see :meth:`write`).
        self.broken: set[int] = set()
        lock_path = str(Path(self.path).expanduser()) + ".lock"
        created = not os.path.exists(lock_path)
        self._lock = None if self.path == MEMORY else take_lock(self.path, lock_path)
        try:
            self.db = open_database(self.path, migrations)
            # Games finished before the statistics were kept (schema 6) are summed up once.
            self.keeps_stats = len(migrations) >= STATS_VERSION
            if self.keeps_stats:
                try:
                    backfill(self.db, self.game_record)
                except BaseException:
                    self.db.close()
                    raise
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

    def read(self, kind: str, args: dict[str, Any]) -> Any:
        """The queries the core may ask for (:class:`~noddy.server.core.Query`)."""
        if kind == "list_games":
            return self.list_games(args["name"], args["limit"], args.get("viewer"))
        if kind == "get_game":
            return self.stored_game(args["game"])
        if kind == "stats":  # with the club nights the name entered (issue 35), as person or bot
            events = events_of(self.db, args["name"], "person", EVENTS_IN_STATS) + events_of(
                self.db, args["name"], "bot", EVENTS_IN_STATS)
            events.sort(key=lambda row: -row["event"])
            stats = read_stats(self.db, args["name"], args.get("account", 0), args["preset"], args["private"])
            return {**stats, "events": events[:EVENTS_IN_STATS]} if events else stats
        if kind == "repair_table":
            return self.repair(args["table"], args["write"])
        if kind in ACCOUNT_QUERIES:
            return self.account(kind, args)
        if kind in TELL_QUERIES:
            return self.tell_query(kind, args)
        if kind in EVENT_QUERIES:
            return self.event_query(kind, args)
        raise ValueError(f"unknown storage query {kind!r}")
