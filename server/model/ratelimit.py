"""Rate limits: a token bucket per connection (how the server tells a busy client from a
flood), and per peer address what one host may do over all its connections together (chat,
and guessing table passwords)."""

from __future__ import annotations

import ipaddress
from typing import Any

#: The bits of an IPv6 address that name one host for the per-address limits: a home or a
#: machine is given a whole /64, so each of its 2**64 addresses is the same host.
IPV6_HOST_PREFIX = 64


def address_group(address: str | None) -> str | None:
    """The key the per-address limits count ``address`` under: an IPv4 address itself (an
    IPv4-mapped IPv6 one as IPv4), an IPv6 address as its /64, anything else unchanged.

    >>> address_group("2001:db8:1:2:aaaa::1"), address_group("::ffff:10.0.0.7"), address_group("10.0.0.7")
    ('2001:db8:1:2::/64', '10.0.0.7', '10.0.0.7')
    """
    if address is None or ":" not in address:
        return address
    try:
        ip = ipaddress.IPv6Address(address.split("%", 1)[0])
    except ValueError:
        return address
    if ip.ipv4_mapped is not None:
        return str(ip.ipv4_mapped)
    return str(ipaddress.IPv6Network((ip, IPV6_HOST_PREFIX), strict=False))


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

    def take(self, now: float, cost: float = 1.0) -> float:
        """Take ``cost`` tokens (a request that costs the server more takes more)."""
        # Every request passes here: the refill is worked out in a local, and capped by the
        # comparison min(burst, tokens) makes (so a NaN is capped too), without the call.
        tokens = self.tokens + (now - self.updated) * self.rate
        if not tokens < self.burst:
            tokens = self.burst
        self.updated = now
        if tokens >= cost:
            self.tokens = tokens - cost
            self.strikes = 0
            return 0.0
        self.tokens = tokens
        self.strikes += 1
        return (cost - tokens) / self.rate


#: Entries an address table holds before it forgets the addresses that no longer matter (a
#: full bucket, no recent wrong password): the tables must not grow with every address seen.
_PRUNE_AT = 256
#: Entries an address table holds at most, even when none can be pruned (a crowd of
#: addresses, each still limited or locked out): past it the oldest entry is forgotten, so
#: the tables cannot grow with every address seen (issue 37).  An entry is ~200 bytes:
#: 16,384 of them ~3 MB a table.  Forgetting an address only gives it a fresh allowance,
#: which a host that holds 16,384 addresses has anyway.
MAX_ADDRESSES = 16_384


class AddressBuckets:
    """A :class:`TokenBucket` per peer address, for what one host may do over all its
    connections together (chat: 60 connections each under their own limit would otherwise
    multiply it by 60 for everyone listening).  A ``rate`` of 0 means no limit."""

    def __init__(self, rate: float, burst: int) -> None:
        self.rate = rate
        self.burst = burst
        self._buckets: dict[str, TokenBucket] = {}

    def take(self, address: str, now: float) -> float:
        """0.0 if ``address`` may go ahead now, else the seconds until it may."""
        if not self.rate:
            return 0.0
        bucket = self._buckets.get(address)
        if bucket is None:
            if len(self._buckets) >= _PRUNE_AT:
                self._prune(now)
                _forget_oldest(self._buckets)
            bucket = self._buckets[address] = TokenBucket(self.rate, self.burst, now)
        return bucket.take(now)

    def _prune(self, now: float) -> None:
        """Forget buckets that have filled up again: a new one would be the same."""
        for address, bucket in list(self._buckets.items()):
            if bucket.tokens + (now - bucket.updated) * bucket.rate >= bucket.burst:
                del self._buckets[address]


class PasswordGuard:
    """Wrong passwords per peer address: after ``attempts`` of them within ``window`` seconds
    the address is locked out for ``lockout`` seconds, whatever password it gives then, so a
    host guesses at most a few passwords a minute however many connections it opens.

    A right password does not wipe the count (else a host could create its own private
    table and mix guesses with its known password), and while ``attempts`` wrong ones stay
    within the window, each further wrong one locks the address out again.  ``attempts`` of
    0 means no limit.

    >>> guard = PasswordGuard(attempts=2, window=60.0, lockout=10.0)
    >>> guard.failed("10.0.0.1", now=0.0); guard.locked_for("10.0.0.1", now=1.0)
    0.0
    >>> guard.failed("10.0.0.1", now=2.0); guard.locked_for("10.0.0.1", now=3.0)
    9.0
    >>> guard.locked_for("10.0.0.1", now=12.0), guard.locked_for("10.0.0.2", now=3.0)
    (0.0, 0.0)
    """

    def __init__(self, attempts: int, window: float, lockout: float) -> None:
        self.attempts = attempts
        self.window = window
        self.lockout = lockout
        #: address -> (times of its wrong passwords within the window, end of its lock-out)
        self._guesses: dict[str, tuple[list[float], float]] = {}

    def locked_for(self, address: str, now: float) -> float:
        """Seconds until ``address`` may give a password again (0.0: it may now)."""
        entry = self._guesses.get(address)
        return 0.0 if entry is None else max(0.0, entry[1] - now)

    def failed(self, address: str, now: float) -> None:
        """``address`` gave a wrong password at ``now``."""
        if not self.attempts:
            return
        entry = self._guesses.get(address)
        if entry is None and len(self._guesses) >= _PRUNE_AT:
            self._prune(now)
            _forget_oldest(self._guesses)
        times, locked_until = entry if entry is not None else ([], 0.0)
        times = [t for t in times[-self.attempts:] if t > now - self.window] + [now]
        if len(times) >= self.attempts:
            locked_until = now + self.lockout
        self._guesses[address] = (times, locked_until)

    def _prune(self, now: float) -> None:
        """Forget addresses with no wrong password within the window and no lock-out left."""
        for address, (times, locked_until) in list(self._guesses.items()):
            if locked_until <= now and all(t <= now - self.window for t in times):
                del self._guesses[address]


def _forget_oldest(table: dict[str, Any]) -> None:
    """Make room for one more entry within :data:`MAX_ADDRESSES`: forget the oldest."""
    while len(table) >= MAX_ADDRESSES:
        del table[next(iter(table))]
