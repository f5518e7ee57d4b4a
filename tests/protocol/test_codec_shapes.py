"""encode_line's format strings for the game's most frequent messages (``event``, ``turn``,
``ok``) give exactly the bytes the JSON encoder gives, and anything else about those
messages (other values, other keys, another order) falls back to the encoder.

The reference is ``json.dumps(..., ensure_ascii=False, separators=(",", ":"))``: what
``encode_line`` is documented to produce.
"""

from __future__ import annotations

import json
import os
import random
from typing import Any

import pytest

from noddy.protocol import encode_line

#: Messages per shape in the seeded soak (NODDY_CODEC_SOAK raises it).
COUNT = int(os.environ.get("NODDY_CODEC_SOAK", "3000"))


def reference(message: dict[str, Any]) -> bytes:
    return (json.dumps(message, ensure_ascii=False, separators=(",", ":")) + "\n").encode("utf-8")


def test_the_usual_shapes_encode_as_json_does() -> None:
    event = {"type": "event", "table": 3, "seq": 41,
             "event": {"kind": "played", "seat": 1, "card": "9H", "count": 19}}
    turn = {"type": "turn", "table": 3, "seq": 42, "to_move": 0, "awaiting": [0], "count": 19,
            "legal_actions": [{"action": "play", "card": "5S"}, {"action": "go"}], "time_left": None}
    assert encode_line(event) == (b'{"type":"event","table":3,"seq":41,"event":{"kind":"played",'
                                  b'"seat":1,"card":"9H","count":19}}\n')
    assert encode_line(turn) == (b'{"type":"turn","table":3,"seq":42,"to_move":0,"awaiting":[0],'
                                 b'"count":19,"legal_actions":[{"action":"play","card":"5S"},'
                                 b'{"action":"go"}],"time_left":null}\n')
    assert encode_line({"type": "ok", "id": 7}) == b'{"type":"ok","id":7}\n'


def _value(rng: random.Random, depth: int = 0) -> Any:
    """Any JSON value, weighted toward what sits in the templated places, plus the values
    a format string would get wrong (a bool is an int to Python, a float, a str id)."""
    choice = rng.randrange(12 if depth < 2 else 8)
    if choice == 0:
        return rng.randrange(-5, 10**6)
    if choice == 1:
        return rng.choice([True, False])
    if choice == 2:
        return None
    if choice == 3:
        return rng.choice([0.5, 12.0, -3.25, 1e21])
    if choice == 4:
        return rng.choice(["9H", "play", "", "é\"\\\n\t\x01", "ünï 😀", "a\u2028b"])
    if choice == 5:
        return 2**70 * rng.choice([1, -1])
    if choice == 6:
        return rng.randrange(4)
    if choice == 7:
        return "x" * rng.randrange(3)
    if choice in (8, 9):
        return [_value(rng, depth + 1) for _ in range(rng.randrange(4))]
    return {rng.choice(["action", "card", "kind", "seat", "é"]): _value(rng, depth + 1)
            for _ in range(rng.randrange(4))}


def _legal(rng: random.Random) -> Any:
    if rng.random() < 0.7:  # the usual: cards to play (sometimes with a go or another shape)
        actions: list[Any] = [{"action": rng.choice(["play", "discard", "é"]),
                               "card": rng.choice(["9H", "TC", "é\"", 5, None])}
                              for _ in range(rng.randrange(4))]
        if rng.random() < 0.2:
            actions.append(rng.choice([{"action": "go"}, {"card": "9H", "action": "play"},
                                       {"action": "claim", "min": 0, "max": 29}, ["play", "9H"]]))
        return actions
    return _value(rng)


def _message(rng: random.Random, kind: str) -> dict[str, Any]:
    if kind == "event":
        message = {"type": "event", "table": rng.randrange(1, 99), "seq": rng.randrange(10**5),
                   "event": _value(rng)}
    elif kind == "turn":
        message = {"type": "turn", "table": rng.randrange(1, 99), "seq": rng.randrange(10**5),
                   "to_move": rng.choice([0, 1, 3, None]), "awaiting": rng.choice([[0], [1, 2], [], [True]]),
                   "count": rng.randrange(32), "legal_actions": _legal(rng), "time_left": None}
        if rng.random() < 0.2:
            message["time_left"] = rng.choice([12.5, 0, 30])
    else:
        message = {"type": "ok", "id": rng.randrange(10**9)}
    # Now and then a value the format string must not take as it is, or another layout.
    twist = rng.randrange(10)
    if twist == 0:
        key = rng.choice(sorted(message))
        message[key] = _value(rng)
    elif twist == 1:
        message["extra"] = _value(rng)
    elif twist == 2:
        items = list(message.items())
        rng.shuffle(items)
        message = dict(items)
    elif twist == 3:
        del message[rng.choice(sorted(message))]
    return message


@pytest.mark.parametrize("kind", ["event", "turn", "ok"])
def test_every_shape_and_twist_encodes_as_json_does(kind: str) -> None:
    rng = random.Random(f"codec-{kind}")
    for _ in range(COUNT):
        message = _message(rng, kind)
        try:
            expected = reference(message)
        except (TypeError, ValueError, UnicodeEncodeError) as exc:  # not JSON (a key that is no str...)
            with pytest.raises(type(exc)):
                encode_line(message)
            continue
        assert encode_line(message) == expected, message


@pytest.mark.parametrize("message", [
    {"type": "event", "table": 1, "seq": 2, "event": {"kind": "said", "text": "\ud800"}},
    {"type": "turn", "table": 1, "seq": 2, "to_move": 0, "awaiting": [0], "count": 0,
     "legal_actions": [{"action": "play", "card": "\udfff"}], "time_left": None},
])
def test_a_lone_surrogate_still_fails_to_encode(message: dict[str, Any]) -> None:
    """The send path drops what cannot be encoded (tests/robustness/test_send_path.py):
    a format string must fail on it just as the encoder does."""
    with pytest.raises(UnicodeEncodeError):
        reference(message)
    with pytest.raises(UnicodeEncodeError):
        encode_line(message)
