"""The database thread: :class:`StorageWorker` runs one :class:`Storage` on a thread of its
own, so the event loop never waits on the disk, and gathers the writes that queue up while
the thread is busy into one transaction (a group commit).

Kept apart from :class:`Storage` because it is about threads and timing, not SQL: the
storage it drives neither knows nor cares which thread calls it (see
:mod:`noddy.server.storage`).
"""

from __future__ import annotations

import os
import threading
import time
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any, Callable, Sequence

from .records import Record
from .database import Storage
from .opening import MEMORY, StorageError
from .reads import StoredState


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
