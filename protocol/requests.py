"""What a client may send: every request type and its fields, checked before anything acts on it.

:data:`REQUESTS` is the schema (a table, as in h11: a missing entry is a precise error), read
from each request's declaration in :mod:`.request_table`;
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
from typing import Any, Callable

from .errors import ProtocolError
from .fields import FieldSpec
from .i18n import Phrase
from .request_table import (  # noqa: F401  (re-exported: the bounds are read from here)
    MAX_DEAL_SEEDS, MAX_ID, MAX_PASSWORD, MAX_PLAYERS, MAX_POINTS, MAX_SEAT, MIN_ACCOUNT_PASSWORD,
    REQUESTS, TURN_TIMER_MAX, TURN_TIMER_MIN,
)
from .text import has_lone_surrogate, lone_surrogate_path


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
        raise ProtocolError("bad_text", Phrase("field {name!r} holds a lone UTF-16 surrogate (a "
                                               "\\ud800-\\udfff escape that is not half of a pair), "
                                               "which is not text", name=bad_text), field=bad_text)
    kind = message.get("type")
    if "type" not in message:
        raise ProtocolError("missing_field", Phrase("every message needs a 'type'"), field="type")
    if not isinstance(kind, str) or kind not in REQUESTS:
        known = ", ".join(REQUESTS)
        raise ProtocolError("unknown_type", Phrase("unknown message type {kind!r}; the requests are: "
                                                   "{known}", kind=kind, known=known), field="type")
    request_id = message.get("id")
    if request_id is not None and (not isinstance(request_id, (str, int)) or isinstance(request_id, bool)):
        raise ProtocolError("bad_field", Phrase("field 'id' must be a string or a whole number, not "
                                                "{value!r}", value=request_id), field="id")
    fields: dict[str, Any] = {}
    for spec in REQUESTS[kind]:
        if spec.name not in message:
            if spec.required and (spec.unless is None or message.get(spec.unless) is None):
                raise ProtocolError("missing_field", Phrase("{kind} needs the field {name!r}",
                                                            kind=kind, name=spec.name), field=spec.name)
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
