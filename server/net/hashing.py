"""The hashing worker: account passwords checked and hashed on a thread of their own.

scrypt costs ~50 ms of a core per check (:mod:`noddy.server.model.passwords`).  On the event
loop it would stop every game for that long; on the database thread it held every table's
writes -- and so every message, even a ``pong`` -- behind a guesser's checks.  Here it has
one thread (:data:`THREADS`) to itself: hashlib's scrypt lets go of the GIL while it works,
so the event loop and storage go on beside it on the other core.  How many checks may wait
is the core's to bound (``ServerConfig.password_queue``): it counts what it hands out and
answers ``busy`` past it, so this queue never grows without end.
"""

from __future__ import annotations

import asyncio
import logging
import os
import threading
from concurrent.futures import ThreadPoolExecutor
from typing import Callable

from ..core import PasswordResult, PasswordWork

log = logging.getLogger("noddy.server.net.network")

#: Threads that hash.  One: a second would take the core the event loop and storage share on
#: a two-core host, and the queue's bound, not the threads, is what keeps a flood harmless.
THREADS = 1
#: How much nicer than the rest of the server the hashing thread runs (Linux gives each thread
#: its own nice value): under a flood of password checks it has a core's worth of work, and
#: the scheduler should always prefer the event loop and storage, which serve every game.
NICENESS = 10


def _lower_priority() -> None:
    """Run the calling thread (the hashing worker) at :data:`NICENESS` where the system lets
    a thread have its own priority; elsewhere leave it as it is."""
    try:
        os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), NICENESS)
    except (AttributeError, OSError):  # not Linux, or not allowed: hashing still works
        log.debug("the hashing thread runs at the server's own priority")


class PasswordWorker:
    """Runs :class:`PasswordWork` off the event loop and hands each result back on it."""

    def __init__(self) -> None:
        self._executor = ThreadPoolExecutor(max_workers=THREADS, thread_name_prefix="noddy-hash",
                                            initializer=_lower_priority)

    def submit(self, work: PasswordWork, done: Callable[[PasswordWork, PasswordResult | None], None]) -> None:
        """Run ``work``; then call ``done(work, result)`` on the event loop (result None if it
        failed: a bug, logged, answered as ``storage_unavailable``)."""
        future = asyncio.wrap_future(self._executor.submit(work.run))

        def finished(_: "asyncio.Future[PasswordResult]") -> None:
            result = None
            if future.cancelled():
                return
            if future.exception() is not None:
                log.error("a password check failed: %r", future.exception())
            else:
                result = future.result()
            done(work, result)
        future.add_done_callback(finished)

    def close(self) -> None:
        """Stop: the checks not yet begun are dropped (their connections are closing anyway)."""
        self._executor.shutdown(wait=False, cancel_futures=True)
