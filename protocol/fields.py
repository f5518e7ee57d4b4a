"""A request's field: its JSON kind, whether it is required, and its limits.

:class:`FieldSpec` is one field of one request type (:mod:`.request_table` declares them
all); its :meth:`FieldSpec.check` says whether a value fits, raising a
:class:`~noddy.protocol.errors.ProtocolError` (``bad_field``, naming the field) if not.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from .errors import ProtocolError
from .i18n import N_, Phrase

#: What each kind of field must be, as an error says it (each said in its reader's language).
_KIND_WORDS = {
    "str": N_("a string"), "int": N_("a whole number"), "bool": N_("true or false"),
    "number": N_("a number"), "object": N_("a JSON object"), "str_list": N_("a list of strings"),
    "int_list": N_("a list of whole numbers"),
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
            raise ProtocolError("bad_field", Phrase("field {name!r} may not be null", name=self.name),
                                field=self.name)
        if not _is_kind(value, self.kind):
            raise ProtocolError(
                "bad_field", Phrase("field {name!r} must be {kind}, not {value!r}", name=self.name,
                                   kind=Phrase(_KIND_WORDS[self.kind]), value=value),
                field=self.name)
        if self.kind == "int_list":
            return self._check_items(value)
        if value in self.also:
            return value
        if self.choices and value not in self.choices:
            allowed = ", ".join(map(str, self.choices))
            raise ProtocolError(
                "bad_field", Phrase("field {name!r} must be one of {allowed}, not {value!r}", name=self.name,
                                   allowed=allowed, value=value),
                field=self.name)
        if self.minimum is not None and value < self.minimum:
            raise ProtocolError(
                "bad_field", Phrase("field {name!r} must be at least {minimum}, not {value!r}", name=self.name,
                                   minimum=self.minimum, value=value),
                field=self.name)
        if self.maximum is not None and value > self.maximum:
            raise ProtocolError(
                "bad_field", Phrase("field {name!r} must be at most {maximum}, not {value!r}", name=self.name,
                                   maximum=self.maximum, value=value),
                field=self.name)
        if self.max_length is not None and len(value) > self.max_length:
            raise ProtocolError(
                "bad_field", Phrase("field {name!r} is longer than {length}", name=self.name,
                                   length=self.max_length), field=self.name)
        if self.kind == "str" and not self.choices and value.strip() == "" and self.required:
            raise ProtocolError("bad_field", Phrase("field {name!r} may not be empty", name=self.name),
                                field=self.name)
        return value

    def _check_items(self, value: list[int]) -> list[int]:
        """An ``int_list``: its length against ``max_length``, each item against the bounds."""
        if self.max_length is not None and len(value) > self.max_length:
            raise ProtocolError(
                "bad_field", Phrase("field {name!r} has more than {length} items", name=self.name,
                                   length=self.max_length), field=self.name)
        low = -math.inf if self.minimum is None else self.minimum
        high = math.inf if self.maximum is None else self.maximum
        for item in value:
            if not low <= item <= high:
                raise ProtocolError(
                    "bad_field", Phrase("field {name!r} must hold whole numbers from {minimum} to {maximum}, "
                                       "not {item!r}", name=self.name, minimum=self.minimum,
                                       maximum=self.maximum, item=item), field=self.name)
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

