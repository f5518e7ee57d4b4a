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
              "out_of_order", "lone_surrogate", "control_chars")

#: Characters a terminal acts on or that disguise text: C0 controls (ESC, LF, CR, BEL...),
#: DEL, C1 controls (CSI), bidirectional controls, zero-width characters.
CONTROLS = [*map(chr, range(0x00, 0x20)), "\x7f", *map(chr, range(0x80, 0xa0)),
            "\u202e", "\u202d", "\u2066", "\u2067", "\u2068", "\u2069", "\u200e", "\u200f",
            "\u061c", "\u200b", "\u200d", "\ufeff", "\u2028"]
#: Escape sequences that do harm at a terminal: clear the screen, write the clipboard (OSC
#: 52), set the title, forge a server line, reverse the text.
TERMINAL_TRICKS = ["\x1b[2J\x1b[H", "\x1b]52;c;ZXZpbA==\x07", "\x1b]0;pwned\x07", "\nann: I resign\n",
                   "\r\x1b[K", "\u202eelgnis", "\x9b31m", "\x1bc", "\x07\x07\x07"]
#: Where a lone surrogate goes in a line, as the JSON escapes that spell it (hex in either
#: case; a high one with no low after it, a low one alone, a pair in the wrong order).
SURROGATE_ESCAPES = [b"\\ud800", b"\\uDBFF", b"\\udc00", b"\\uDFFF", b"\\udc00\\ud800",
                     b"\\ud83d", b"\\ud83dx", b"a\\uDe00"]
#: What the fuzzer writes where a surrogate goes, then swaps for one of SURROGATE_ESCAPES.
_MARK = "SURROGATE-HERE"

#: Values of a JSON kind other than the one a field wants (bool is never an int here).
WRONG: dict[str, list[Any]] = {
    "str": [1, 2.5, True, [], {}, ["a"]],
    "int": ["1", 1.5, True, False, [1], {"n": 1}, 1e300],
    "bool": [0, 1, "true", "yes", [True], {}],
    "number": ["30", True, [30], {}],
    "object": [[], "{}", 1, True, [["a", 1]]],
    "str_list": ["AS", [1, 2], [["AS"]], {"0": "AS"}, [None], True],
    "int_list": [1, "1", ["1"], [1.5], [True], {"0": 1}, [None]],
}

#: A valid value for every required field, so one broken field is the only fault.
REQUIRED_OK: dict[str, Any] = {"name": "fuzz", "version": 1, "table": 1, "seat": 0,
                               "action": "go", "text": "hi", "game": 1}


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
            ("sit", "seat", 64), ("sit", "table", 0), ("get_game", "game", 0), ("get_game", "game", 2**63),
            ("create_table", "players", 0), ("add_computer", "seat", -1), ("action", "seat", 99),
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
        # Every int field is bounded, so a huge one is bad_field before anything else.
        if choice == 3:
            kind, field = self.rng.choice([("sit", "table"), ("get_game", "game"), ("spectate", "table")])
            return _line({**_base(kind), "id": rid, field: big}), _error("bad_field", rid, field)
        if choice == 4:
            return _line({"type": "remove_computer", "id": rid, "seat": -big}), _error("bad_field", rid, "seat")
        if choice == 5:
            return _line({"type": "create_table", "id": rid, "players": big}), _error("bad_field", rid, "players")
        if choice == 6:
            return _line({"type": "hello", "id": rid, "name": "x", "version": big}), \
                _error("bad_field", rid, "version")
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

    # -- hostile text --------------------------------------------------------------------------
    def lone_surrogate(self, hello_done: bool) -> tuple[bytes, Expected]:
        """A lone surrogate in any string of any request: a field of the schema (a string, an
        item of a list of strings, a key or value of an object), the id, or an unknown field.
        It is ``bad_text`` naming that field, before anything else about the request."""
        rid: Any = self.rid()
        kind = self.rng.choice(self.kinds)
        message: dict[str, Any] = {**_base(kind), "id": rid}
        places = [s for s in REQUESTS[kind] if s.kind in ("str", "str_list", "object")]
        choice = self.rng.randrange(len(places) + 2)
        if choice < len(places):
            spec = places[choice]
            field = spec.name
            if spec.kind == "str":
                message[field] = self.rng.choice([_MARK, f"ok {_MARK}", f"{_MARK}!"])
            elif spec.kind == "str_list":
                message[field] = ["AS", _MARK][:self.rng.randrange(1, 3)] + [_MARK]
            else:
                message[field] = self.rng.choice([{_MARK: 1}, {"target": _MARK}, {"a": [{"b": _MARK}]}])
        elif choice == len(places):
            field = "id"
            message["id"] = f"id-{_MARK}"
            rid = None  # an id that cannot be sent back is not echoed
        else:
            field = "x_extra"
            message[field] = self.rng.choice([_MARK, [1, [_MARK]], {"deep": {"er": _MARK}}])
        line = _line(message).replace(_MARK.encode(), self.rng.choice(SURROGATE_ESCAPES))
        return line, _error("bad_text", rid, field)

    def control_chars(self, hello_done: bool) -> tuple[bytes, Expected]:
        """Terminal controls in a name (refused: ``bad_name``) or a chat (accepted, and cleaned
        before anyone gets it: the fuzz connections, all in the lobby, check every chat)."""
        rid = self.rid()
        trick = self.rng.choice([self.rng.choice(TERMINAL_TRICKS), self.rng.choice(CONTROLS)])
        if self.rng.random() < 0.5:
            name = self.rng.choice([f"eve{trick}", f"{trick}eve", f"e{trick}ve"])
            line = _line({"type": "hello", "id": rid, "name": name[:32], "version": 1})
            return line, _error("already_hello", rid) if hello_done else _error("bad_name", rid, "name")
        text = self.rng.choice([f"hi {trick} there", f"{trick}x", f"gg{trick * 3}"])
        line = _line({"type": "chat", "id": rid, "text": text, "to": "lobby"})
        return line, ("ok", None, rid, None) if hello_done else _error("hello_required", rid)

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
