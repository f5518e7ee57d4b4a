"""What a client may send: every request type and its fields, checked before anything acts on it.

:data:`REQUESTS` is the schema (a table, as in h11: a missing entry is a precise error);
:func:`validate_request` checks one decoded message against it and returns the request's
type and its fields with defaults filled in, or raises a
:class:`~noddy.protocol.errors.ProtocolError` (``unknown_type``, ``missing_field`` or
``bad_field``, naming the field).  Fields the schema does not name are ignored, so a newer
client can talk to an older server.  Whether a request makes sense *now* (your turn, a free
seat...) is for the server to decide, not this module.

The server reads every request with :func:`read_request`, which gives the request's ``id``
as well.  It tries a validator compiled once per request type (see :func:`_compile`) that
only says yes to a request that is exactly right, and hands anything else to
:func:`validate_request`, so every error is found and worded in one place.

>>> validate_request({"type": "sit", "table": 1, "id": "a"})
('sit', {'table': 1, 'seat': None, 'password': None})
>>> validate_request({"type": "sit", "table": "one"})
Traceback (most recent call last):
...
noddy.protocol.errors.ProtocolError: field 'table' must be a whole number, not 'one'
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import Any, Callable

from .errors import ProtocolError
from .text import has_lone_surrogate, lone_surrogate_path

_KIND_WORDS = {
    "str": "a string", "int": "a whole number", "bool": "true or false",
    "number": "a number", "object": "a JSON object", "str_list": "a list of strings",
    "int_list": "a list of whole numbers",
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
    #: A required field that may be left out when this other field is given (not null):
    #: ``hello``'s ``name`` with ``resume``, whose session has a name already.
    unless: str | None = None

    def check(self, value: Any) -> Any:
        if value is None:
            if self.nullable:
                return None
            raise ProtocolError("bad_field", f"field {self.name!r} may not be null", field=self.name)
        if not _is_kind(value, self.kind):
            raise ProtocolError(
                "bad_field", f"field {self.name!r} must be {_KIND_WORDS[self.kind]}, not {value!r}",
                field=self.name)
        if self.kind == "int_list":
            return self._check_items(value)
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

    def _check_items(self, value: list[int]) -> list[int]:
        """An ``int_list``: its length against ``max_length``, each item against the bounds."""
        if self.max_length is not None and len(value) > self.max_length:
            raise ProtocolError(
                "bad_field", f"field {self.name!r} has more than {self.max_length} items", field=self.name)
        low = -math.inf if self.minimum is None else self.minimum
        high = math.inf if self.maximum is None else self.maximum
        for item in value:
            if not low <= item <= high:
                raise ProtocolError(
                    "bad_field", f"field {self.name!r} must hold whole numbers from {self.minimum} "
                    f"to {self.maximum}, not {item!r}", field=self.name)
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
    if kind == "int_list":
        return isinstance(value, list) and all(isinstance(v, int) and not isinstance(v, bool)
                                               for v in value)
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
#: The most games a match table's ``deal_seeds`` may plan (the line limit holds it to ~450).
MAX_DEAL_SEEDS = 1000
#: The longest password (of a table or an account) a request may carry, and the shortest an
#: account's may be (``register``, ``change_password``: ``bad_field`` below it).
MAX_PASSWORD = 64
MIN_ACCOUNT_PASSWORD = 4


def _f(name: str, kind: str, **kw: Any) -> FieldSpec:
    return FieldSpec(name, kind, **kw)


#: Every request type and its fields (``type`` and ``id`` are common to all and not listed).
REQUESTS: dict[str, tuple[FieldSpec, ...]] = {
    "hello": (
        _f("name", "str", required=True, nullable=False, max_length=32, unless="resume"),
        _f("bot", "bool", default=False, nullable=False),
        _f("version", "int", required=True, nullable=False, minimum=0, maximum=MAX_ID),
        _f("resume", "str", max_length=64),
        _f("password", "str", max_length=MAX_PASSWORD),
    ),
    "ping": (),
    "pong": (),
    "list_tables": (
        _f("people_only", "bool", default=False, nullable=False),
    ),
    "create_table": (
        _f("preset", "str", default="noddy", nullable=False),
        _f("players", "int", default=2, nullable=False, minimum=1, maximum=MAX_PLAYERS),
        _f("partnerships", "bool", default=False, nullable=False),
        _f("options", "object", default=None),
        _f("private", "bool", default=False, nullable=False),
        _f("password", "str", max_length=64),
        _f("seat", "int", default=0, minimum=0, maximum=MAX_SEAT),
        _f("turn_timer", "number", minimum=TURN_TIMER_MIN, maximum=TURN_TIMER_MAX),
        _f("deal_seeds", "int_list", minimum=0, maximum=MAX_ID, max_length=MAX_DEAL_SEEDS),
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
    "stand_in": (
        _f("seat", "int", required=True, nullable=False, minimum=0, maximum=MAX_SEAT),
        _f("on", "bool", default=True, nullable=False),
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
        _f("to", "str", choices=("table", "lobby", "watchers")),
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
        _f("people_only", "bool", default=False, nullable=False),
    ),
    "stats": (
        _f("name", "str", max_length=32),
        _f("preset", "str", max_length=32),
    ),
    "bye": (),
    "register": (
        _f("password", "str", required=True, nullable=False, max_length=MAX_PASSWORD),
    ),
    "change_password": (
        _f("old", "str", required=True, nullable=False, max_length=MAX_PASSWORD),
        _f("new", "str", required=True, nullable=False, max_length=MAX_PASSWORD),
    ),
    "unregister": (
        _f("password", "str", required=True, nullable=False, max_length=MAX_PASSWORD),
    ),
    "who": (
        _f("people_only", "bool", default=False, nullable=False),
    ),
    "challenge": (
        _f("name", "str", required=True, nullable=False, max_length=32),
        _f("preset", "str", default="noddy", nullable=False, max_length=32),
        _f("options", "object"),
        _f("ready", "bool", default=False, nullable=False),
        _f("text", "str", max_length=200),
    ),
    "accept": (
        _f("challenge", "int", required=True, nullable=False, minimum=1, maximum=MAX_ID),
        _f("ready", "bool", default=False, nullable=False),
    ),
    "decline": (
        _f("challenge", "int", required=True, nullable=False, minimum=1, maximum=MAX_ID),
    ),
    "seek": (
        _f("preset", "str", default="noddy", nullable=False, max_length=32),
        _f("options", "object"),
        _f("opponents", "str", default="any", nullable=False, choices=("any", "people", "bots")),
        _f("ready", "bool", default=False, nullable=False),
    ),
    "unseek": (),
    "tell": (
        _f("name", "str", required=True, nullable=False, max_length=32),
        _f("text", "str", required=True, nullable=False, max_length=500),
    ),
    "invite": (
        _f("name", "str", required=True, nullable=False, max_length=32),
        _f("text", "str", max_length=200),
    ),
    "mute": (
        _f("name", "str", required=True, nullable=False, max_length=32),
    ),
    "unmute": (
        _f("name", "str", required=True, nullable=False, max_length=32),
    ),
    "muted": (),
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
            if spec.required and (spec.unless is None or message.get(spec.unless) is None):
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


# -- the fast path ------------------------------------------------------------------------------
# validate_request interprets the schema afresh for every message (a FieldSpec.check and an
# _is_kind call per field), which cost more than the rest of reading a game move.  What
# follows says the same "yes" far more cheaply, and says nothing else: whenever it is not sure,
# the request goes to validate_request, so the errors, their wording and which of several wins
# stay exactly that function's (tests/protocol/test_fast_path.py holds the two paths equal).

#: The classes of ``id`` that read_request echoes without a closer look (a bool is no int here).
_PLAIN_IDS = frozenset({int, str, type(None)})
#: The one class of item a ``str_list`` holds.
_STR_ONLY = frozenset({str})


class _Unsure(Exception):
    """The fast path cannot vouch for a request: :func:`validate_request` reads it."""


def _quick_test(spec: FieldSpec) -> Callable[[Any], object]:
    """A test whose result is true only for values ``spec.check`` returns as they are (of
    the values JSON gives).  It is cheap for the usual shapes of field, C code where some
    says the same; it may say no to a good value (the full check decides then), or raise
    TypeError, which also means no.  Explicit nulls, for one, are left to the full check."""
    unbounded = spec.minimum is None and spec.maximum is None and not spec.also
    if spec.kind == "str" and unbounded and spec.choices and spec.max_length is None \
            and all(type(choice) is str for choice in spec.choices):
        # ``action``'s verb and the like: only a string can equal one of these (a value
        # that cannot be hashed raises TypeError).
        return frozenset(spec.choices).__contains__
    if spec.kind == "str" and unbounded and not spec.choices and not spec.required:
        # A string of at most max_length characters (a free-text field that is not required
        # may be blank); anything but a str (or a subclass) raises TypeError.
        longest = "" if spec.max_length is None else str(spec.max_length)
        return re.compile(f"(?s).{{0,{longest}}}").fullmatch  # a match, or None
    if spec.kind == "int" and not (spec.choices or spec.also or spec.max_length is not None):
        low = -math.inf if spec.minimum is None else spec.minimum
        high = math.inf if spec.maximum is None else spec.maximum

        def bounded_int(value: Any) -> bool:
            return type(value) is int and low <= value <= high
        return bounded_int
    if spec.kind == "bool" and not (spec.choices or spec.also):
        def plain_bool(value: Any) -> bool:
            return type(value) is bool
        return plain_bool
    if spec.kind == "str_list" and not (spec.choices or spec.also or spec.max_length is not None):
        def str_list(value: Any) -> bool:
            return type(value) is list and _STR_ONLY.issuperset(map(type, value))
        return str_list

    def checked(value: Any) -> bool:  # any other shape (a required string, numbers, objects)
        try:
            return spec.check(value) is value
        except ProtocolError:
            return False
    return checked


def _compile(specs: tuple[FieldSpec, ...]) -> Callable[[dict[str, Any]], dict[str, Any]]:
    """The fields of a request of one type that is exactly right (every field it names is
    valid, no required one is missing), as :func:`validate_request` gives them; for any
    other request it raises :class:`_Unsure` (or TypeError, from a test), and
    validate_request reads the request instead."""
    defaults = {spec.name: spec.default for spec in specs}  # in schema order, as validate_request
    names = frozenset(defaults)
    # A field required unless another is given counts as required here: a request without
    # it is left to validate_request.
    required = frozenset(spec.name for spec in specs if spec.required)
    tests = {spec.name: _quick_test(spec) for spec in specs}

    def fields_of(message: dict[str, Any]) -> dict[str, Any]:
        present = names.intersection(message)  # the type, the id and unknown fields are left out
        if not required <= present:
            raise _Unsure
        fields = defaults.copy()
        for name in present:
            value = message[name]
            if not tests[name](value):
                raise _Unsure
            fields[name] = value
        return fields
    return fields_of


#: A compiled validator per request type (see :func:`_compile`).
_COMPILED: dict[str, Callable[[dict[str, Any]], dict[str, Any]]] = {
    kind: _compile(specs) for kind, specs in REQUESTS.items()}


def read_request(message: dict[str, Any], escapes: bool = True) -> tuple[str, dict[str, Any], Any]:
    """:func:`validate_request` and :func:`request_id_of` in one: ``(type, fields, id)``, or
    the ProtocolError validate_request raises (``escapes`` as there).

    >>> read_request({"type": "action", "action": "play", "card": "9H", "id": 12}, escapes=False)
    ('action', {'action': 'play', 'card': '9H', 'cards': None, 'points': None, 'seat': None}, 12)
    """
    kind = message.get("type")
    request_id = message.get("id")
    if request_id.__class__ in _PLAIN_IDS and not (escapes and lone_surrogate_path(message) is not None):
        try:
            return kind, _COMPILED[kind](message), request_id
        except (KeyError, TypeError, _Unsure):
            pass  # not a request type (or not even hashable), or not a request to vouch for
    kind, fields = validate_request(message, escapes)
    return kind, fields, request_id_of(message)
