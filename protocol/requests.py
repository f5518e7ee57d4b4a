"""What a client may send: every request type and its fields, checked before anything acts on it.

:data:`REQUESTS` is the schema (a table, as in h11: a missing entry is a precise error);
:func:`validate_request` checks one decoded message against it and returns the request's
type and its fields with defaults filled in, or raises a
:class:`~noddy.protocol.errors.ProtocolError` (``unknown_type``, ``missing_field`` or
``bad_field``, naming the field).  Fields the schema does not name are ignored, so a newer
client can talk to an older server.  Whether a request makes sense *now* (your turn, a free
seat...) is for the server to decide, not this module.

>>> validate_request({"type": "sit", "table": 1, "id": "a"})
('sit', {'table': 1, 'seat': None, 'password': None})
>>> validate_request({"type": "sit", "table": "one"})
Traceback (most recent call last):
...
noddy.protocol.errors.ProtocolError: field 'table' must be a whole number, not 'one'
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from .errors import ProtocolError
from .text import has_lone_surrogate, lone_surrogate_path

_KIND_WORDS = {
    "str": "a string", "int": "a whole number", "bool": "true or false",
    "number": "a number", "object": "a JSON object", "str_list": "a list of strings",
}


@dataclass(frozen=True)
class FieldSpec:
    """One field of a request: its JSON kind, whether it is required, and its limits."""

    name: str
    kind: str
    required: bool = False
    default: Any = None
    nullable: bool = True
    choices: tuple[Any, ...] = ()
    minimum: float | None = None
    maximum: float | None = None
    max_length: int | None = None
    #: Values allowed besides ``minimum``..``maximum`` (``configure_table``'s turn timer 0: off).
    also: tuple[Any, ...] = ()

    def check(self, value: Any) -> Any:
        if value is None:
            if self.nullable:
                return None
            raise ProtocolError("bad_field", f"field {self.name!r} may not be null", field=self.name)
        if not _is_kind(value, self.kind):
            raise ProtocolError(
                "bad_field", f"field {self.name!r} must be {_KIND_WORDS[self.kind]}, not {value!r}",
                field=self.name)
        if value in self.also:
            return value
        if self.choices and value not in self.choices:
            allowed = ", ".join(map(str, self.choices))
            raise ProtocolError(
                "bad_field", f"field {self.name!r} must be one of {allowed}, not {value!r}",
                field=self.name)
        if self.minimum is not None and value < self.minimum:
            raise ProtocolError(
                "bad_field", f"field {self.name!r} must be at least {self.minimum}, not {value!r}",
                field=self.name)
        if self.maximum is not None and value > self.maximum:
            raise ProtocolError(
                "bad_field", f"field {self.name!r} must be at most {self.maximum}, not {value!r}",
                field=self.name)
        if self.max_length is not None and len(value) > self.max_length:
            raise ProtocolError(
                "bad_field", f"field {self.name!r} is longer than {self.max_length}", field=self.name)
        if self.kind == "str" and not self.choices and value.strip() == "" and self.required:
            raise ProtocolError("bad_field", f"field {self.name!r} may not be empty", field=self.name)
        return value


def _is_kind(value: Any, kind: str) -> bool:
    if kind == "str":
        return isinstance(value, str)
    if kind == "int":
        return isinstance(value, int) and not isinstance(value, bool)
    if kind == "bool":
        return isinstance(value, bool)
    if kind == "number":
        # NaN and infinity (which Python's json reads) pass every range check and cannot be
        # sent back as JSON, so they are not numbers here.
        return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)
    if kind == "object":
        return isinstance(value, dict)
    if kind == "str_list":
        return isinstance(value, list) and all(isinstance(v, str) for v in value)
    raise AssertionError(kind)


#: The turn timer's bounds in seconds, for ``create_table`` and ``configure_table`` alike (a
#: shorter timer would let a table's creator make the server move for the others at will).
TURN_TIMER_MIN = 1
TURN_TIMER_MAX = 3600


#: The largest id (of a table or a game) a request may name: the largest integer every JSON
#: reader holds exactly (2**53 - 1), far below what storage can hold (2**63 - 1), so a larger
#: one is ``bad_field`` instead of a failure of the database.
MAX_ID = 2**53 - 1
#: Seat numbers and player counts beyond any table (a preset's own limits are checked later).
MAX_SEAT = 63
MAX_PLAYERS = MAX_SEAT + 1
#: The most points a claim or a muggins call may name on the wire (the engine holds them to
#: what a show can hold, 29, with a clearer error).
MAX_POINTS = 999


def _f(name: str, kind: str, **kw: Any) -> FieldSpec:
    return FieldSpec(name, kind, **kw)


#: Every request type and its fields (``type`` and ``id`` are common to all and not listed).
REQUESTS: dict[str, tuple[FieldSpec, ...]] = {
    "hello": (
        _f("name", "str", required=True, nullable=False, max_length=32),
        _f("bot", "bool", default=False, nullable=False),
        _f("version", "int", required=True, nullable=False, minimum=0, maximum=MAX_ID),
        _f("resume", "str", max_length=64),
    ),
    "ping": (),
    "pong": (),
    "list_tables": (),
    "create_table": (
        _f("preset", "str", default="noddy", nullable=False),
        _f("players", "int", default=2, nullable=False, minimum=1, maximum=MAX_PLAYERS),
        _f("partnerships", "bool", default=False, nullable=False),
        _f("options", "object", default=None),
        _f("private", "bool", default=False, nullable=False),
        _f("password", "str", max_length=64),
        _f("seat", "int", default=0, minimum=0, maximum=MAX_SEAT),
        _f("turn_timer", "number", minimum=TURN_TIMER_MIN, maximum=TURN_TIMER_MAX),
    ),
    "sit": (
        _f("table", "int", minimum=1, maximum=MAX_ID),
        _f("seat", "int", minimum=0, maximum=MAX_SEAT),
        _f("password", "str", max_length=64),
    ),
    "spectate": (
        _f("table", "int", required=True, nullable=False, minimum=1, maximum=MAX_ID),
        _f("password", "str", max_length=64),
    ),
    "stand": (),
    "leave": (),
    "add_computer": (
        _f("seat", "int", minimum=0, maximum=MAX_SEAT),
        _f("level", "str", max_length=32),
    ),
    "remove_computer": (
        _f("seat", "int", required=True, nullable=False, minimum=0, maximum=MAX_SEAT),
    ),
    "ready": (
        _f("ready", "bool", default=True, nullable=False),
    ),
    "action": (
        _f("action", "str", required=True, nullable=False,
           choices=("play", "go", "discard", "claim", "muggins", "pass")),
        _f("card", "str", max_length=8),
        _f("cards", "str_list"),
        _f("points", "int", minimum=0, maximum=MAX_POINTS),
        _f("seat", "int", minimum=0, maximum=MAX_SEAT),
    ),
    "chat": (
        _f("text", "str", required=True, nullable=False, max_length=500),
        _f("to", "str", choices=("table", "lobby")),
    ),
    "snapshot": (),
    "hint": (),
    "review": (
        _f("game", "int", minimum=1, maximum=MAX_ID),
        _f("deal", "int", minimum=1, maximum=MAX_ID),
        _f("seat", "int", minimum=0, maximum=MAX_SEAT),
    ),
    "configure_table": (
        _f("options", "object"),
        _f("private", "bool"),
        _f("password", "str", max_length=64),
        _f("turn_timer", "number", minimum=TURN_TIMER_MIN, maximum=TURN_TIMER_MAX, also=(0,)),
    ),
    "list_games": (
        _f("name", "str", max_length=32),
        _f("limit", "int", default=20, nullable=False, minimum=1, maximum=100),
    ),
    "get_game": (
        _f("game", "int", required=True, nullable=False, minimum=1, maximum=MAX_ID),
        _f("password", "str", max_length=64),
    ),
    "leaderboard": (
        _f("family", "str", default="noddy", nullable=False, choices=("noddy", "cribbage")),
        _f("limit", "int", default=20, nullable=False, minimum=1, maximum=100),
    ),
    "bye": (),
}


def validate_request(message: dict[str, Any], escapes: bool = True) -> tuple[str, dict[str, Any]]:
    """Check ``message`` against :data:`REQUESTS`; return ``(type, fields)`` or raise.

    First of all, a lone surrogate anywhere in the message (even in a field the schema does
    not name) is ``bad_text``: such a string cannot be encoded, so nothing may pass it on.
    A receiver that read ``message`` from a line of valid UTF-8 holding no ``\\u`` passes
    ``escapes=False``: such JSON can hold a surrogate only as a ``\\u`` escape, so there is
    none to look for (most requests, and every bot's move, are spared the walk).
    """
    bad_text = lone_surrogate_path(message) if escapes else None
    if bad_text is not None:
        raise ProtocolError("bad_text", f"field {bad_text!r} holds a lone UTF-16 surrogate "
                            "(a \\ud800-\\udfff escape that is not half of a pair), which is not text",
                            field=bad_text)
    kind = message.get("type")
    if "type" not in message:
        raise ProtocolError("missing_field", "every message needs a 'type'", field="type")
    if not isinstance(kind, str) or kind not in REQUESTS:
        known = ", ".join(REQUESTS)
        raise ProtocolError("unknown_type", f"unknown message type {kind!r}; the requests are: {known}",
                            field="type")
    request_id = message.get("id")
    if request_id is not None and (not isinstance(request_id, (str, int)) or isinstance(request_id, bool)):
        raise ProtocolError("bad_field", f"field 'id' must be a string or a whole number, not {request_id!r}",
                            field="id")
    fields: dict[str, Any] = {}
    for spec in REQUESTS[kind]:
        if spec.name not in message:
            if spec.required:
                raise ProtocolError("missing_field", f"{kind} needs the field {spec.name!r}", field=spec.name)
            fields[spec.name] = spec.default
            continue
        fields[spec.name] = spec.check(message[spec.name])
    return kind, fields


def request_id_of(message: Any) -> Any:
    """The ``id`` to echo in a reply: the request's own, if it is a usable one."""
    if isinstance(message, dict):
        value = message.get("id")
        if isinstance(value, int) and not isinstance(value, bool):
            return value
        if isinstance(value, str) and not has_lone_surrogate(value):  # else it cannot be sent back
            return value
    return None
