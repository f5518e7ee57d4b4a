"""A refusal's message names the same wait as its ``retry_after``: both rounded up to 1/100 s.

(The message used to round to the nearest hundredth and ``retry_after`` up, so a bot author
read "wait 0.03 s" beside ``retry_after`` 0.04 and could not tell which to trust.)
"""

from __future__ import annotations

from noddy.protocol.errors import retry_after

from .test_core import Harness


def test_rate_limited_message_and_retry_after_agree() -> None:
    h = Harness(rate=20.0, burst=1)
    ann = h.connect("ann")             # hello took the only token
    h.now += 0.0151                    # 0.302 of a token back: 0.0349 s to wait
    refused = h.send(ann, {"type": "ping", "id": 1})
    assert refused["code"] == "rate_limited"
    assert refused["retry_after"] == 0.04
    assert refused["message"] == "too many requests; wait 0.04 s"


def test_retry_after_rounds_up_but_not_for_a_float_s_noise() -> None:
    assert retry_after(0.0349) == 0.04
    assert retry_after(0.03) == 0.03      # 0.03 * 100 is 3.0000000000000004
    assert retry_after(0.0300001) == 0.04
    assert retry_after(0.0) == 0.0
    assert retry_after(1e-9) == 0.01      # never sooner than the wait
