"""``retry_after`` is never too soon: a client that waits exactly that long gets through.

(It used to be rounded to the nearest hundredth, so a wait under 5 ms read 0.0: a bot that
trusted it retried at once, was refused again, and soon was closed for a flood.)
"""

from __future__ import annotations

from .test_core import Harness


def test_waiting_retry_after_is_enough() -> None:
    h = Harness(rate=20.0, burst=1)
    ann = h.connect("ann")             # hello took the only token
    h.now += 0.0499                    # 0.998 of a token back: 0.1 ms short
    refused = h.send(ann, {"type": "ping", "id": 1})
    assert refused["code"] == "rate_limited"
    assert refused["retry_after"] == 0.01
    h.now += refused["retry_after"]
    assert h.send(ann, {"type": "ping", "id": 2})["type"] == "pong"
