"""The receive path's shortcuts change nothing: lines are cut, and requests read, as before.

``_Link.buffer_updated`` hands a read that is one whole line straight on; here it is held to
the plain cutting loop (the reference below) over reads of every shape: several lines, a
line in pieces, empty lines, lines at and over the limit, and a link the server closes in
the middle of a read.  The bucket's arithmetic is held to its formula.
"""

from __future__ import annotations

import math
import random
from typing import Any

from noddy.server.config import ServerConfig
from noddy.server.net.link import _Link
from noddy.server.model.ratelimit import TokenBucket


class _Owner:
    """A LinkOwner that writes down what the link asks of it; ``quit`` closes the link."""

    def __init__(self, max_line: int) -> None:
        self.config = ServerConfig(max_line=max_line)
        self._inbox = memoryview(bytearray(4096))
        self.calls: list[tuple[str, bytes]] = []

    def _receive(self, link: Any, line: bytes) -> None:
        self.calls.append(("line", bytes(line)))
        if line.strip() == b"quit":
            link.closing = True

    def _line_too_long(self, link: Any) -> None:
        self.calls.append(("too long", b""))
        link.closing = True


def _reference(link: Any, owner: _Owner, nbytes: int) -> None:
    """The cutting loop alone, as buffer_updated did it before its shortcut."""
    if link.closing:
        return
    data = bytes(owner._inbox[:nbytes])
    limit = owner.config.max_line
    if link.partial:
        data = link.partial + data
        link.partial = b""
    start = 0
    while True:
        end = data.find(b"\n", start)
        if end < 0:
            break
        if end + 1 - start > limit:
            owner._line_too_long(link)
            return
        owner._receive(link, data[start:end + 1])
        if link.closing:
            return
        start = end + 1
    rest = data[start:]
    if len(rest) >= limit:
        owner._line_too_long(link)
        return
    link.partial = rest


class _Plain:
    """Just the state the reference needs."""

    def __init__(self) -> None:
        self.closing = False
        self.partial = b""


def _stream(rng: random.Random, limit: int) -> bytes:
    pieces = []
    for _ in range(rng.randrange(1, 12)):
        size = rng.choice([0, 1, 5, limit - 2, limit - 1, limit, limit + 3, rng.randrange(0, 2 * limit)])
        body = bytes(rng.choice(b"ab{} \r") for _ in range(max(size - 1, 0)))
        if rng.random() < 0.03:
            body = b"quit"
        pieces.append(body + b"\n" if rng.random() < 0.9 else body)
    return b"".join(pieces)


async def test_lines_are_cut_as_by_the_plain_loop_whatever_the_reads() -> None:
    rng = random.Random(7)
    for _ in range(3_000):
        limit = rng.choice([8, 16, 40])
        stream = _stream(rng, limit)
        fast_owner, plain_owner = _Owner(limit), _Owner(limit)
        link = _Link(fast_owner)  # type: ignore[arg-type]
        plain = _Plain()
        at = 0
        while at < len(stream):
            if rng.random() < 0.5:  # one line per read, the usual case, or any cut at all
                newline = stream.find(b"\n", at)
                size = (newline + 1 - at) if newline >= 0 else len(stream) - at
            else:
                size = rng.randrange(1, 3 * limit)
            chunk = stream[at:at + size]
            at += len(chunk)
            for owner in (fast_owner, plain_owner):
                owner._inbox[:len(chunk)] = chunk
            link.buffer_updated(len(chunk))
            _reference(plain, plain_owner, len(chunk))
            assert fast_owner.calls == plain_owner.calls, stream
            assert (link.closing, link.partial) == (plain.closing, plain.partial), stream


def test_the_bucket_takes_and_refuses_as_its_formula_says() -> None:
    rng = random.Random(3)
    for _ in range(200):
        rate, burst = rng.choice([0.5, 2.0, 20.0, 1e9, math.inf]), rng.choice([1, 3, 40])
        bucket = TokenBucket(rate, burst, 0.0)
        tokens, updated, strikes, now = float(burst), 0.0, 0, 0.0
        for _ in range(50):
            now += rng.choice([0.0, 0.001, 0.05, 0.5, 3.0])
            cost = rng.choice([1.0, 1.0, 2.5])
            tokens = min(float(burst), tokens + (now - updated) * rate)
            updated = now
            if tokens >= cost:
                tokens -= cost
                strikes = 0
                expected = 0.0
            else:
                strikes += 1
                expected = (cost - tokens) / rate
            # (repr: an infinite rate makes NaNs, which are equal to nothing)
            assert repr(bucket.take(now, cost)) == repr(expected)
            assert repr((bucket.tokens, bucket.updated, bucket.strikes)) == repr((tokens, updated, strikes))
