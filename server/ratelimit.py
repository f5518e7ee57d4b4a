"""A token bucket per connection: how the server tells a busy client from a flood."""

from __future__ import annotations


class TokenBucket:
    """``rate`` tokens a second up to ``burst``; each request takes one.

    ``take(now)`` returns 0.0 when the request may go ahead, otherwise the seconds until a
    token will be available (the ``retry_after`` of a ``rate_limited`` error).  ``strikes``
    counts refusals since the last accepted request; the caller closes the connection when
    it passes its flood limit.
    """

    def __init__(self, rate: float, burst: int, now: float) -> None:
        self.rate = rate
        self.burst = float(burst)
        self.tokens = float(burst)
        self.updated = now
        self.strikes = 0

    def take(self, now: float) -> float:
        self.tokens = min(self.burst, self.tokens + (now - self.updated) * self.rate)
        self.updated = now
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            self.strikes = 0
            return 0.0
        self.strikes += 1
        return (1.0 - self.tokens) / self.rate
