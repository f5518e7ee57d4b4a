"""The seeded generator of bad input: each case is one line and the reply it must get.

A case is ``(category, line, expected)``; ``expected`` is ``(type, code, id, field)`` of
the one reply the server owes the line (``code`` None for a non-error reply, ``field``
None where it is not checked).  Every line is shorter than the line limit and has no
``\\n`` inside; the over-long lines are made separately because each one closes its
connection.  Whether the sender has said hello changes some answers (a valid request out
of order is ``hello_required`` before the handshake and a state error after it), so the
generator is told.
"""

from __future__ import annotations

import json
import random
from typing import Any

from noddy.protocol import MAX_LINE_BYTES, REQUESTS

Expected = tuple[str, str | None, Any, str | None]
Case = tuple[str, bytes, Expected]

CATEGORIES = ("invalid_utf8", "invalid_json", "not_an_object", "wrong_type", "bad_value",
              "missing_field", "extra_fields", "huge_number", "deep_nesting", "random_bytes",
              "out_of_order")

#: Values of a JSON kind other than the one a field wants (bool is never an int here).
WRONG: dict[str, list[Any]] = {
    "str": [1, 2.5, True, [], {}, ["a"]],
    "int": ["1", 1.5, True, False, [1], {"n": 1}, 1e300],
    "bool": [0, 1, "true", "yes", [True], {}],
    "number": ["30", True, [30], {}],
    "object": [[], "{}", 1, True, [["a", 1]]],
    "str_list": ["AS", [1, 2], [["AS"]], {"0": "AS"}, [None], True],
}

#: A valid value for every required field, so one broken field is the only fault.
REQUIRED_OK: dict[str, Any] = {"name": "fuzz", "version": 1, "table": 1, "seat": 0,
                               "action": "go", "text": "hi"}


def _line(message: dict[str, Any]) -> bytes:
    return json.dumps(message, separators=(",", ":")).encode()


def _is_utf8(data: bytes) -> bool:
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


def _is_object(line: bytes) -> bool:
    try:
        return isinstance(json.loads(line), dict)
    except (ValueError, RecursionError):
        return False


def _error(code: str, rid: Any = None, field: str | None = None) -> Expected:
    return ("error", code, rid, field)


def _base(kind: str) -> dict[str, Any]:
    message: dict[str, Any] = {"type": kind}
    for spec in REQUESTS[kind]:
        if spec.required:
            message[spec.name] = REQUIRED_OK[spec.name]
    return message


class Fuzzer:
    """Deterministic bad lines from one seed; ``next(hello_done)`` gives one case."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        self.next_id = 0
        # Request types whose required fields this generator can fill (new ones are skipped
        # until it learns them), in schema order so a seed always gives the same lines.
        self.kinds = [k for k, specs in REQUESTS.items()
                      if k != "pong" and all(s.name in REQUIRED_OK for s in specs if s.required)]

    def rid(self) -> int:
        self.next_id += 1
        return self.next_id

    def next(self, hello_done: bool) -> Case:
        category = self.rng.choice(CATEGORIES)
        line, expected = getattr(self, category)(hello_done)
        assert b"\n" not in line and len(line) < MAX_LINE_BYTES, (category, line[:80])
        return category, line, expected

    # -- framing --------------------------------------------------------------------------
    def invalid_utf8(self, hello_done: bool) -> tuple[bytes, Expected]:
        junk = bytes(self.rng.randrange(0x80, 0x100) for _ in range(self.rng.randrange(1, 20)))
        bad = self.rng.choice([b"\xff", b"\xc0\xaf", b"\xed\xa0\x80", b"\xe2\x82", junk])
        if bad is junk and _is_utf8(junk):  # random high bytes can happen to be valid UTF-8
            bad = junk + b"\xff"
        return b'{"type":"ping","id":%d,"x":"' % self.rid() + bad + b'"}', _error("bad_json")

    def invalid_json(self, hello_done: bool) -> tuple[bytes, Expected]:
        good = _line({"type": "chat", "id": self.rid(), "text": "hello there"})
        choice = self.rng.randrange(6)
        if choice == 0:
            line = good[:self.rng.randrange(1, len(good) - 1)]
        elif choice == 1:
            line = good[:-1] + b",}"
        elif choice == 2:
            line = good.replace(b'"', b"'")
        elif choice == 3:
            line = b'{type:"ping"}'
        elif choice == 4:
            line = good + b"}" * self.rng.randrange(1, 5)
        else:
            while True:
                line = b'{"type":"ping",' + bytes(self.rng.choice(b"{}[]:,\"0a") for _ in range(30))
                if not _is_object(line):
                    break
        return line, _error("bad_json")

    def not_an_object(self, hello_done: bool) -> tuple[bytes, Expected]:
        value = self.rng.choice([[1, 2], "ping", 42, None, True, [{"type": "ping"}], 1.5])
        return json.dumps(value).encode(), _error("bad_json")

    def random_bytes(self, hello_done: bool) -> tuple[bytes, Expected]:
        while True:
            body = bytes(self.rng.choice(range(256)) for _ in range(self.rng.randrange(1, 200)))
            line = b"~" + body.replace(b"\n", b"?")
            if not _is_object(line):
                return line, _error("bad_json")

    # -- message shape ----------------------------------------------------------------------
    def wrong_type(self, hello_done: bool) -> tuple[bytes, Expected]:
        rid = self.rid()
        if self.rng.random() < 0.1:
            wrong_id = self.rng.choice([1.5, True, [1], {"a": 1}])
            return _line({"type": "ping", "id": wrong_id}), _error("bad_field", None, "id")
        if self.rng.random() < 0.1:
            return _line({"type": self.rng.choice([1, None, ["ping"], "PING", "hello!"]), "id": rid}), \
                _error("unknown_type", rid, "type")
        kind = self.rng.choice([k for k in self.kinds if REQUESTS[k]])
        spec = self.rng.choice(REQUESTS[kind])
        message = {**_base(kind), "id": rid, spec.name: self.rng.choice(WRONG[spec.kind])}
        return _line(message), _error("bad_field", rid, spec.name)

    def bad_value(self, hello_done: bool) -> tuple[bytes, Expected]:
        """The right JSON kind, an impossible value."""
        rid = self.rid()
        kind, field, value = self.rng.choice([
            ("hello", "name", "x" * 33), ("hello", "name", "   "), ("hello", "name", None),
            ("action", "action", "fold"), ("chat", "text", "x" * 501), ("chat", "to", "everyone"),
            ("create_table", "turn_timer", 0), ("create_table", "turn_timer", 3601),
            ("create_table", "seat", -1), ("hello", "resume", "t" * 65), ("action", "card", "ACE-OF-SPADES"),
            ("create_table", "preset", None), ("ready", "ready", None),
        ])
        return _line({**_base(kind), "id": rid, field: value}), _error("bad_field", rid, field)

    def missing_field(self, hello_done: bool) -> tuple[bytes, Expected]:
        rid = self.rid()
        if self.rng.random() < 0.2:
            return _line({"id": rid, "name": "x"}), _error("missing_field", rid, "type")
        kind = self.rng.choice([k for k in self.kinds if any(s.required for s in REQUESTS[k])])
        message = {**_base(kind), "id": rid}
        field = self.rng.choice([s.name for s in REQUESTS[kind] if s.required])
        del message[field]
        return _line(message), _error("missing_field", rid, field)

    def extra_fields(self, hello_done: bool) -> tuple[bytes, Expected]:
        """Unknown fields are ignored (documented), so a ping with extras is still a ping."""
        rid = self.rid()
        message: dict[str, Any] = {"type": "ping", "id": rid}
        for _ in range(self.rng.randrange(1, 8)):
            key = "".join(self.rng.choice("abcxyz_$é") for _ in range(self.rng.randrange(1, 12)))
            if key not in message:
                message[key] = self.rng.choice([None, 1, "x" * 50, [1, {"a": []}], {"b": True}])
        return _line(message), ("pong", None, rid, None)

    def huge_number(self, hello_done: bool) -> tuple[bytes, Expected]:
        rid = self.rid()
        digits = self.rng.randrange(20, 4000)
        big = int("9" * digits)
        choice = self.rng.randrange(8)
        if choice == 0:
            return _line({"type": "ping", "id": big}), ("pong", None, big, None)
        if choice == 1:  # more digits than Python will read: not readable JSON
            return b'{"type":"ping","id":' + b"7" * self.rng.randrange(4400, 8000) + b"}", _error("bad_json")
        if choice == 2:
            raw = self.rng.choice([b"1e999", b"-1e999", b"NaN", b"Infinity"])
            return b'{"type":"create_table","id":%d,"turn_timer":%s}' % (rid, raw), \
                _error("bad_field", rid, "turn_timer")
        if choice == 3:
            return _line({"type": "sit", "id": rid, "table": big}), \
                _error("no_such_table" if hello_done else "hello_required", rid)
        if choice == 4:
            return _line({"type": "remove_computer", "id": rid, "seat": -big}), \
                _error("not_at_table" if hello_done else "hello_required", rid)
        if choice == 5:
            return _line({"type": "create_table", "id": rid, "players": big}), \
                _error("invalid_player_count" if hello_done else "hello_required", rid)
        if choice == 6:
            return _line({"type": "hello", "id": rid, "name": "x", "version": big}), \
                _error("already_hello" if hello_done else "unsupported_version", rid)
        return _line({"type": "spectate", "id": rid, "table": 1e300}), _error("bad_field", rid, "table")

    def deep_nesting(self, hello_done: bool) -> tuple[bytes, Expected]:
        rid = self.rid()
        if self.rng.random() < 0.5:  # deep but readable: an ignored extra field
            depth = self.rng.randrange(1, 200)
            return b'{"type":"ping","id":%d,"x":' % rid + b"[" * depth + b"]" * depth + b"}", \
                ("pong", None, rid, None)
        # Deeper than the decoder will go (Python 3.11's recursion limit is 1000).
        if self.rng.random() < 0.5:
            depth = self.rng.randrange(3000, 4000)
            return b'{"type":"ping","x":' + b"[" * depth + b"]" * depth + b"}", _error("bad_json")
        depth = self.rng.randrange(1100, 1300)
        return b'{"type":"ping","x":' + b'{"a":' * depth + b"1" + b"}" * depth + b"}", _error("bad_json")

    # -- valid requests at the wrong moment ---------------------------------------------------
    def out_of_order(self, hello_done: bool) -> tuple[bytes, Expected]:
        rid = self.rid()
        message, after_hello = self.rng.choice([
            ({"type": "action", "action": "play", "card": "AS"}, "not_at_table"),
            ({"type": "action", "action": "discard", "cards": ["AS", "2S"]}, "not_at_table"),
            ({"type": "action", "action": "go"}, "not_at_table"),
            ({"type": "ready"}, "not_at_table"),
            ({"type": "stand"}, "not_at_table"),
            ({"type": "leave"}, "not_at_table"),
            ({"type": "snapshot"}, "not_at_table"),
            ({"type": "add_computer"}, "not_at_table"),
            ({"type": "remove_computer", "seat": 1}, "not_at_table"),
            ({"type": "chat", "text": "hi", "to": "table"}, "not_at_table"),
            ({"type": "sit", "table": 999_999}, "no_such_table"),
            ({"type": "spectate", "table": 999_999}, "no_such_table"),
            ({"type": "sit"}, "missing_field"),
            ({"type": "hello", "name": "again", "version": 1}, "already_hello"),
        ])
        if not hello_done and message["type"] == "hello":
            message = {"type": "hello", "name": "x", "version": 2}
            return _line({**message, "id": rid}), _error("unsupported_version", rid, "version")
        code = after_hello if hello_done else "hello_required"
        return _line({**message, "id": rid}), _error(code, rid)


def over_long_line(rng: random.Random) -> bytes:
    """One line past the limit, in one of three shapes (the last never ends)."""
    size = MAX_LINE_BYTES + rng.randrange(1, 3 * MAX_LINE_BYTES)
    shape = rng.randrange(3)
    if shape == 0:
        return b'{"type":"chat","text":"' + b"x" * size + b'"}\n'
    if shape == 1:
        return bytes(rng.randrange(256) for _ in range(size)).replace(b"\n", b" ") + b"\n"
    return b"{" * size
