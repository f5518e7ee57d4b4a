"""A log line for a kind of trouble that may repeat thousands of times a second.

A peer (or a bug) that makes the same failure happen over and over must not make the server
spend its time writing the same warning over and over, nor bury every other line of the log:
:class:`ThrottledLog` writes at most one line a period and counts the ones it kept back,
reporting that count with the next line it writes.
"""

from __future__ import annotations

import logging
import time
from typing import Any, Callable


class ThrottledLog:
    """``log(msg, *args)``: write ``msg`` at ``level`` unless a line was written less than
    ``period`` seconds ago (then only count it).  Returns whether the line was written.

    >>> import logging
    >>> now = [0.0]
    >>> throttled = ThrottledLog(logging.getLogger("doctest"), logging.WARNING, 10.0, lambda: now[0])
    >>> throttled("first"), throttled("second"), throttled("third")
    (True, False, False)
    >>> throttled.held_back
    2
    >>> now[0] = 11.0
    >>> throttled("fourth"), throttled.held_back
    (True, 0)
    """

    def __init__(self, logger: logging.Logger, level: int, period: float,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.logger = logger
        self.level = level
        self.period = period
        self.clock = clock
        #: Lines not written since the last one that was.
        self.held_back = 0
        self._quiet_until = float("-inf")

    def __call__(self, msg: str, *args: Any, exc_info: bool = False) -> bool:
        now = self.clock()
        if now < self._quiet_until:
            self.held_back += 1
            return False
        if self.held_back:
            msg += " (%d more like this in the last %g s were not logged)"
            args += (self.held_back, self.period)
            self.held_back = 0
        self._quiet_until = now + self.period
        self.logger.log(self.level, msg, *args, exc_info=exc_info)
        return True
