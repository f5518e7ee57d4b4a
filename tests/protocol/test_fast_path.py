"""The fast path of reading a request says exactly what the full validator says.

:func:`~noddy.protocol.requests.read_request` tries a validator compiled per request type and
falls back to :func:`~noddy.protocol.requests.validate_request` for anything it cannot vouch
for.  These tests feed many valid and invalid variants of every request type through both and
hold the results equal: the same type, fields (values, their classes and their order) and id,
or the same error (code, message, field and extras).
"""

from __future__ import annotations

import json
import math
import random
from typing import Any

import pytest

from noddy.protocol import REQUESTS, ProtocolError, decode_line
from noddy.protocol.requests import (
    MAX_ID,
    _COMPILED,
    _Unsure,
    read_request,
    request_id_of,
    validate_request,
)

#: Values of every JSON shape, with the edges of the schema's limits among them.
PALETTE: list[Any] = [
    None, True, False, 0, 1, -1, 2, 7, 20, 29, 31, 63, 64, 65, 99, 100, 101, 999, 1000, 3600, 3601,
    MAX_ID, MAX_ID + 1, -MAX_ID, 10**30, 0.0, 0.5, 1.0, 1.5, 30.0, 3600.0, 3600.5, -0.0, 1e300,
    math.nan, math.inf, -math.inf,
    "", " ", "\t\n", "a", "Ada", "9H", "10H", "th", "play", "go", "discard", "claim", "muggins",
    "pass", "fold", "table", "lobby", "noddy", "cribbage", "x" * 8, "x" * 9, "x" * 32, "x" * 33,
    "x" * 64, "x" * 65, "y" * 500, "y" * 501, " " * 40, "é", "🂡" * 8, "🂡" * 9, "\u00a0", "1",
    [], ["AH"], ["AH", "2C"], ["AH", 2], [None], [["AH"]], [True], {}, {"a": 1}, {"x": math.nan},
    {"target": 61, "hints": True},
]
#: Surrogate-holding strings: only in messages read with ``escapes`` (a line without a
#: ``\\u`` escape cannot hold one).
SURROGATES = ["\ud800", "a\udfff", "\udc00\ud800"]
IDS: list[Any] = [None, 0, 1, 12, -5, MAX_ID + 7, "a", "", "é", True, False, 1.5, [1], {"n": 1}]
TYPES: list[Any] = [*REQUESTS, "fly", "", 3, None, True, ["action"], {"t": 1}, "ACTION"]
_ABSENT = object()


def outcome(read: Any, message: dict[str, Any], escapes: bool) -> tuple[Any, ...]:
    """What ``read`` makes of ``message``: the request, or the error in every detail."""
    try:
        kind, fields, request_id = read(message, escapes)
    except ProtocolError as exc:
        return ("error", exc.code, exc.message, exc.field, exc.extra)
    # Values by identity and order too: the handlers get the very objects the message held.
    return ("ok", kind, [(name, type(value), id(value)) for name, value in fields.items()],
            type(request_id), request_id)


def reference(message: dict[str, Any], escapes: bool) -> tuple[str, dict[str, Any], Any]:
    """The full path alone: what the server did before the fast path."""
    kind, fields = validate_request(message, escapes)
    return kind, fields, request_id_of(message)


def variants(rng: random.Random, count: int) -> list[tuple[dict[str, Any], bool]]:
    """Messages near every request type: right ones, and ones wrong in one or more ways."""
    out: list[tuple[dict[str, Any], bool]] = []
    for _ in range(count):
        escapes = rng.random() < 0.3
        kind = rng.choice(TYPES) if rng.random() < 0.1 else rng.choice(list(REQUESTS))
        message: dict[str, Any] = {}
        if rng.random() < 0.97:
            message["type"] = kind
        specs = REQUESTS.get(kind, ()) if isinstance(kind, str) else ()
        for spec in specs:
            roll = rng.random()
            if roll < 0.25:
                continue  # absent
            if roll < 0.75:  # a value of the right kind, within limits or near them
                value = rng.choice([v for v in PALETTE if _kind_fits(v, spec.kind)] or PALETTE)
                if spec.choices and rng.random() < 0.7:
                    value = rng.choice(spec.choices)
            else:
                value = rng.choice(PALETTE)
            message[spec.name] = value
        if rng.random() < 0.7:
            message["id"] = rng.choice(IDS)
        if rng.random() < 0.15:
            message[rng.choice(["extra", "Card", "tyPe", "x"])] = rng.choice(PALETTE)
        if escapes and rng.random() < 0.3:
            where = rng.choice([*message, "extra"]) if message else "extra"
            if rng.random() < 0.2:
                message[rng.choice(SURROGATES)] = 1  # in a key
            else:
                message[where] = rng.choice(SURROGATES + [[rng.choice(SURROGATES)]])
        keys = list(message)
        rng.shuffle(keys)  # the order of a line's fields is the sender's
        out.append(({key: message[key] for key in keys}, escapes))
    return out


def _kind_fits(value: Any, kind: str) -> bool:
    return {"str": isinstance(value, str), "int": type(value) is int, "bool": type(value) is bool,
            "number": type(value) in (int, float), "object": isinstance(value, dict),
            "str_list": isinstance(value, list), "int_list": isinstance(value, list)}[kind]


def test_the_fast_path_reads_every_variant_as_the_full_validator_does() -> None:
    rng = random.Random(15)
    fast = 0
    for message, escapes in variants(rng, 30_000):
        expected = outcome(reference, message, escapes)
        assert outcome(read_request, message, escapes) == expected, (message, escapes)
        kind = message.get("type")
        if isinstance(kind, str) and kind in _COMPILED:
            try:
                fields = _COMPILED[kind](message)
            except (_Unsure, TypeError):
                continue  # not vouched for: the full validator alone decides
            fast += 1
            # What it vouches for, the full validator accepts with the same fields (for a
            # message free of lone surrogates, which read_request looks for first).
            if expected[0] == "ok":
                assert [(n, type(v), id(v)) for n, v in fields.items()] == expected[2], message
            else:
                assert expected[1] in ("bad_text", "bad_field") and (
                    expected[1] == "bad_text" or expected[3] == "id"), (message, expected)
    assert fast > 5_000  # the fast path did vouch for the right ones


@pytest.mark.parametrize("message", [
    {"type": "action", "action": "play", "card": "9H", "id": 12},
    {"type": "action", "action": "go", "id": "x"},
    {"type": "action", "action": "discard", "cards": ["AH", "2C"]},
    {"type": "action", "action": "claim", "points": 12, "seat": 1},
    {"type": "ready", "id": 3},
    {"type": "ping"},
    {"type": "sit", "table": 3},
    {"type": "create_table", "preset": "cribbage", "players": 2, "private": True,
     "password": "pw", "turn_timer": 30, "options": {"target": 61}},
    {"type": "list_games", "name": "Ada", "limit": 5},
    {"type": "leaderboard", "family": "cribbage"},
])
def test_the_usual_requests_take_the_fast_path(message: dict[str, Any]) -> None:
    fields = _COMPILED[message["type"]](message)
    assert read_request(message, escapes=False) == (*validate_request(message, False), message.get("id"))
    assert fields == validate_request(message, False)[1]


@pytest.mark.parametrize("message", [
    {"type": "action", "action": "play", "card": None},  # an explicit null: the full check
    {"type": "action", "action": ["play"]},  # unhashable where a choice goes
    {"type": "action"},  # a required field missing
    {"type": "hello", "name": " ", "version": 1},  # a blank name
    {"type": "sit", "table": True},  # a bool where a whole number goes
])
def test_what_the_fast_path_cannot_vouch_for_goes_to_the_full_validator(message: dict[str, Any]) -> None:
    with pytest.raises((_Unsure, TypeError)):
        _COMPILED[message["type"]](message)
    assert outcome(read_request, message, True) == outcome(reference, message, True)


def test_decoded_lines_read_the_same_on_both_paths() -> None:
    """Through the codec, as the server reads them: lines without a \\u escape skip the
    search for lone surrogates, on both paths alike."""
    rng = random.Random(31)
    for message, escapes in variants(rng, 5_000):
        try:
            line = json.dumps(message, ensure_ascii=False).encode("utf-8")
        except (UnicodeEncodeError, ValueError):
            continue  # a lone surrogate cannot be UTF-8 (the JSON would escape it)
        decoded = decode_line(line)
        escapes = b"\\u" in line
        assert outcome(read_request, decoded, escapes) == outcome(reference, decoded, escapes)
