"""Every structure that grows with addresses, people or games stays at its bound when more
arrives (issue 37): a busy evening's crowd must not grow the server's memory without end."""

from __future__ import annotations

from noddy.server.model import ratelimit
from noddy.server.model.ratelimit import AddressBuckets, PasswordGuard

from .test_core import Harness


def test_address_buckets_stay_at_their_bound_when_every_address_is_still_limited(monkeypatch) -> None:
    monkeypatch.setattr(ratelimit, "MAX_ADDRESSES", 300)
    buckets = AddressBuckets(rate=1.0, burst=1)
    for n in range(1000):  # each address spends its one token at once: none can be pruned
        assert buckets.take(f"10.0.{n // 256}.{n % 256}", now=0.0) == 0.0
    assert len(buckets._buckets) == 300
    # the newest are kept (still limited), the oldest forgotten
    assert buckets.take("10.0.3.231", now=0.0) == 1.0  # n = 999
    assert "10.0.0.0" not in buckets._buckets


def test_the_password_guard_stays_at_its_bound_when_every_address_is_locked_out(monkeypatch) -> None:
    monkeypatch.setattr(ratelimit, "MAX_ADDRESSES", 300)
    guard = PasswordGuard(attempts=1, window=60.0, lockout=60.0)
    for n in range(1000):
        guard.failed(f"10.1.{n // 256}.{n % 256}", now=0.0)
    assert len(guard._guesses) == 300
    assert guard.locked_for("10.1.3.231", now=1.0) == 59.0
    assert guard.locked_for("10.1.0.0", now=1.0) == 0.0  # forgotten: the oldest


def test_sessions_gone_leave_no_name_behind() -> None:
    """Names in use were tidied only when the same name was asked about again: every guest
    who ever came stayed, with their session and what it held."""
    h = Harness(grace_period=60.0)
    for n in range(50):
        conn = h.connect(f"guest{n}")
        h.send(conn, {"type": "create_table"})
        h.take(h.core.disconnect(conn))  # the seat is held for the grace period
    h.tick(61.0)  # over: the seats are given up, the tables close
    assert len(h.core.sessions) == 0
    assert h.core.sessions._names == {}


def test_a_replaced_session_leaves_its_name() -> None:
    h = Harness(grace_period=10.0)
    ann, ben = h.connect("ann"), h.connect("ben")
    h.send(ann, {"type": "create_table"})
    h.send(ben, {"type": "sit", "table": 1})
    token = h.core.tables[1].seats[1].session.token
    h.take(h.core.disconnect(ben))
    again, _ = h.core.connect()
    assert h.send(again, {"type": "hello", "version": 1, "resume": token})["resumed"] is True
    h.send(again, {"type": "leave"})
    h.take(h.core.disconnect(again))
    assert [skeleton for skeleton in h.core.sessions._names] == ["ann"]
