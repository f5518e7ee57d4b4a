"""Guessing at account passwords: what is counted, where, and who is never locked out.

An account's password can be guessed only by asking the server to check it, so the server
counts the checks it agrees to make, *when they arrive* (a guess sent on forty connections at
once is forty guesses, not however many had come back by then), along three lines:

* **per name**, over every address: at most :attr:`LoginLimits.per_name` checks of one
  account's password within :attr:`~LoginLimits.window` seconds (the issue's aim: 10 in 15
  minutes), however many addresses the guesser has;
* **per address across names** (spraying one common password over many names): at most
  :attr:`~LoginLimits.names_per_address` different names from one address in the window;
* the cost of each check, per address, is the core's token bucket (:mod:`.ratelimit`), and
  the checks in progress are bounded by the hashing worker's queue.

A right password gives its check back (it was no guess), so the owner logging in now and then
never wears the budget down.  And the owner is never locked out by someone else's guessing:
an address that has logged in to the account before (:meth:`LoginLimits.known`, kept per
account, :data:`KNOWN_ADDRESSES` of them) is not held to the per-name or spraying limits, so
a person whose router the guesser shares -- or who logs in at home while somebody guesses at
their name from elsewhere -- still gets in; and a resume token needs no password at all.

Everything here is in memory and bounded: a restart forgets it, which only gives a guesser
one more window's worth.  Addresses are the core's address groups (an IPv6 /64 is one
address: see :func:`~noddy.server.model.ratelimit.address_group`).

>>> limits = LoginLimits(per_name=2, names_per_address=5, window=900.0)
>>> [limits.admit("10.0.0.9", "ann", now=0.0) for _ in range(3)]
[(0.0, ''), (0.0, ''), (900.0, 'name')]
>>> limits.logged_in("10.0.0.1", "ann", now=1.0)   # the owner, from home
>>> limits.admit("10.0.0.1", "ann", now=2.0)       # is never held to the name's limit
(0.0, '')
"""

from __future__ import annotations

from collections import OrderedDict, deque

#: Addresses remembered per account as ones its owner logged in from (the newest kept): a
#: person's home, phone and a club or two; an old one forgotten costs only the exemption.
KNOWN_ADDRESSES = 8
#: Addresses (or names) the limiter follows at most: past it the oldest are forgotten, so
#: a crowd of addresses cannot grow the server's memory without end.  One entry is at most
#: a few hundred bytes; 16,384 of them a few MB.
MAX_TRACKED = 16_384


class LoginLimits:
    """The password checks of logins counted at arrival, per name and per address; see the
    module docstring.  A limit of 0 means none."""

    def __init__(self, per_name: int, names_per_address: int, window: float) -> None:
        self.per_name = per_name
        self.names_per_address = names_per_address
        self.window = window
        #: account key -> arrival times of its checks from unknown addresses (newest last).
        self._by_name: OrderedDict[str, deque[float]] = OrderedDict()
        #: address -> {account key: last check's time} within the window.
        self._by_address: OrderedDict[str, dict[str, float]] = OrderedDict()
        #: account key -> the addresses it was logged in from (newest last).
        self._known: dict[str, OrderedDict[str, None]] = {}

    def known(self, address: str | None, key: str) -> bool:
        """Whether the account ``key`` was logged in to from ``address`` before."""
        return address is not None and address in self._known.get(key, ())

    def admit(self, address: str | None, key: str, now: float) -> tuple[float, str]:
        """Count a check of ``key``'s password asked from ``address`` at ``now``: ``(0.0, "")``
        if it may be made, else the seconds until it may and which limit holds it back
        (``"name"`` or ``"address"``); nothing is counted then."""
        if address is None or self.known(address, key):
            return 0.0, ""
        times = self._by_name.get(key)
        if times is not None:
            while times and times[0] <= now - self.window:
                times.popleft()
        if self.per_name and times is not None and len(times) >= self.per_name:
            return times[0] + self.window - now, "name"
        names = self._by_address.get(address)
        if names is not None:
            for old in [name for name, at in names.items() if at <= now - self.window]:
                del names[old]
        if (self.names_per_address and names is not None and key not in names
                and len(names) >= self.names_per_address):
            return min(names.values()) + self.window - now, "address"
        if times is None:
            times = self._by_name[key] = deque()
        self._by_name.move_to_end(key)
        times.append(now)
        if names is None:
            names = self._by_address[address] = {}
        self._by_address.move_to_end(address)
        names[key] = now
        _trim(self._by_name)
        _trim(self._by_address)
        return 0.0, ""

    def refund(self, address: str | None, key: str) -> None:
        """The check :meth:`admit` counted last for ``key`` from ``address`` was not made."""
        times = self._by_name.get(key)
        if times:
            times.pop()
        names = self._by_address.get(address) if address is not None else None
        if names is not None:
            names.pop(key, None)

    def settled(self, address: str | None, key: str, right: bool, now: float) -> None:
        """The check counted by :meth:`admit` came back: a right password was no guess, so its
        check is given back (and the address is now one the owner uses)."""
        if right:
            self.refund(address, key)
            self.logged_in(address, key, now)

    def logged_in(self, address: str | None, key: str, now: float) -> None:
        """The account ``key`` was logged in to (or registered) from ``address``."""
        if address is None:
            return
        known = self._known.setdefault(key, OrderedDict())
        known[address] = None
        known.move_to_end(address)
        while len(known) > KNOWN_ADDRESSES:
            known.popitem(last=False)

    def forget(self, key: str) -> None:
        """The account ``key`` was given up: whoever registers the name next starts afresh."""
        self._known.pop(key, None)
        self._by_name.pop(key, None)

    def sizes(self) -> tuple[int, int, int]:
        """How many names, addresses and accounts' known addresses are followed (for tests
        pinning the bounds)."""
        return len(self._by_name), len(self._by_address), len(self._known)


def _trim(table: OrderedDict[str, object]) -> None:
    """Forget the least recently counted entries past :data:`MAX_TRACKED`."""
    while len(table) > MAX_TRACKED:
        table.popitem(last=False)


class Registrations:
    """Accounts created per address per ``window`` (a day): at most ``limit`` (0: no limit),
    counted when the request arrives and given back if it fails (the name was taken), so a
    script from one address cannot fill the server's disk with accounts.

    >>> made = Registrations(limit=2, window=86400.0)
    >>> made.admit("10.0.0.1", 0.0), made.admit("10.0.0.1", 1.0), made.admit("10.0.0.1", 2.0)
    (0.0, 0.0, 86398.0)
    >>> made.failed("10.0.0.1"); made.admit("10.0.0.1", 3.0)
    0.0
    """

    def __init__(self, limit: int, window: float) -> None:
        self.limit = limit
        self.window = window
        self._times: OrderedDict[str, deque[float]] = OrderedDict()

    def admit(self, address: str | None, now: float) -> float:
        if address is None or not self.limit:
            return 0.0
        times = self._times.get(address)
        if times is None:
            times = self._times[address] = deque()
        while times and times[0] <= now - self.window:
            times.popleft()
        if len(times) >= self.limit:
            return times[0] + self.window - now
        times.append(now)
        self._times.move_to_end(address)
        _trim(self._times)
        return 0.0

    def failed(self, address: str | None) -> None:
        """The registration counted last for ``address`` did not make an account."""
        times = self._times.get(address) if address is not None else None
        if times:
            times.pop()

    def __len__(self) -> int:
        return len(self._times)
