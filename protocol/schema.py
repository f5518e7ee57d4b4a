"""The protocol as one JSON Schema (draft 2020-12), made from its declarations, for clients in any language.

:func:`build_schema` reads :data:`~noddy.protocol.requests.REQUESTS` (what a client sends)
and :data:`~noddy.protocol.messages.MESSAGES`, :data:`~noddy.protocol.messages.EVENTS` and
:data:`~noddy.protocol.messages.SHAPES` (what the server sends) and gives the schema that is
shipped in the package (``noddy/protocol/data/schema.json``, :func:`load_schema`) and published
as ``docs/schema.json``.  Run ``python -m noddy.protocol.schema`` after changing a declaration
to write both again; tests/protocol/test_schema.py fails while either differs from what the
declarations give.

Its layout: ``$defs`` holds ``request.TYPE`` for each request, ``message.TYPE`` for each
server message, ``event.KIND`` for each event and ``shape.NAME`` for the shared shapes; the
schema itself accepts any one server message (``oneOf`` the ``message.*``).  Objects allow
fields the schema does not name (a newer server may add some); ``strict=True`` gives a
schema that does not, which the tests use to catch a field sent but never declared.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from .limits import PROTOCOL_VERSION
from .messages import EVENTS, MESSAGES, SHAPES, Fields
from .requests import REQUESTS, FieldSpec

#: The schema as shipped in the package.
SCHEMA_PATH = Path(__file__).parent / "data" / "schema.json"
#: A card's text: rank (A, 2-9, T, J, Q, K) then suit (C, D, H, S).
CARD_PATTERN = "^[A2-9TJQK][CDHS]$"

_WORDS: dict[str, dict[str, Any]] = {
    "int": {"type": "integer"}, "number": {"type": "number"}, "str": {"type": "string"},
    "bool": {"type": "boolean"}, "object": {"type": "object"}, "any": {},
    "card": {"type": "string", "pattern": CARD_PATTERN},
    "id": {"type": ["integer", "string", "null"]},
}
_REQUEST_KINDS: dict[str, dict[str, Any]] = {
    "str": {"type": "string"}, "int": {"type": "integer"}, "bool": {"type": "boolean"},
    "number": {"type": "number"}, "object": {"type": "object"},
    "str_list": {"type": "array", "items": {"type": "string"}},
    "int_list": {"type": "array", "items": {"type": "integer"}},
}


def type_schema(word: str) -> dict[str, Any]:
    """The JSON Schema of one type word of :mod:`noddy.protocol.messages` (``[@seat?]``...)."""
    if word.endswith("?"):
        return {"anyOf": [type_schema(word[:-1]), {"type": "null"}]}
    if word.startswith("[") and word.endswith("]"):
        return {"type": "array", "items": type_schema(word[1:-1])}
    if word.startswith("message:"):
        if word[len("message:"):] not in MESSAGES:
            raise ValueError(f"no message type {word!r}")
        return {"$ref": f"#/$defs/message.{word[len('message:'):]}"}
    if word.startswith("@"):
        name = word[1:]
        if name == "event":
            return {"$ref": "#/$defs/event"}
        if name not in SHAPES:
            raise ValueError(f"no shape named {name!r}")
        return {"$ref": f"#/$defs/shape.{name}"}
    if word not in _WORDS:
        raise ValueError(f"unknown type word {word!r}")
    return dict(_WORDS[word])


def object_schema(fields: Fields, strict: bool, const: tuple[str, str] | None = None) -> dict[str, Any]:
    """An object with ``fields`` (a ``~name`` may be absent); ``const`` fixes its ``type`` or ``kind``."""
    properties: dict[str, Any] = {}
    required: list[str] = []
    if const is not None:
        properties[const[0]] = {"const": const[1]}
        required.append(const[0])
    for name, word in fields.items():
        optional = name.startswith("~")
        name = name.lstrip("~")
        properties[name] = type_schema(word)
        if not optional:
            required.append(name)
    schema: dict[str, Any] = {"type": "object", "properties": properties, "required": required}
    if strict:
        schema["additionalProperties"] = False
    return schema


def request_schema(name: str, specs: tuple[FieldSpec, ...]) -> dict[str, Any]:
    """One request as :data:`REQUESTS` declares it (unknown fields are ignored by the server)."""
    properties: dict[str, Any] = {"type": {"const": name}, "id": _WORDS["id"]}
    required = ["type"]
    for spec in specs:
        field: dict[str, Any] = dict(_REQUEST_KINDS[spec.kind])
        if spec.choices:
            field["enum"] = list(spec.choices)
        if spec.kind in ("int", "number"):
            if spec.minimum is not None:
                field["minimum"] = spec.minimum
            if spec.maximum is not None:
                field["maximum"] = spec.maximum
        elif spec.kind == "int_list":
            for key, value in (("minimum", spec.minimum), ("maximum", spec.maximum)):
                if value is not None:
                    field["items"][key] = value
            if spec.max_length is not None:
                field["maxItems"] = spec.max_length
        elif spec.kind == "str" and spec.max_length is not None:
            field["maxLength"] = spec.max_length
        if spec.also:
            field = {"anyOf": [field, {"enum": list(spec.also)}]}
        if spec.nullable:
            field = {"anyOf": [field, {"type": "null"}]}
        if spec.default is not None:
            field["default"] = spec.default
        if spec.unless:
            field["description"] = f"required unless {spec.unless!r} is given"
        properties[spec.name] = field
        if spec.required and not spec.unless:
            required.append(spec.name)
    return {"type": "object", "properties": properties, "required": required}


def build_schema(strict: bool = False) -> dict[str, Any]:
    """The whole protocol's schema (``strict``: objects may hold only the fields declared)."""
    defs: dict[str, Any] = {}
    for name, specs in REQUESTS.items():
        defs[f"request.{name}"] = request_schema(name, specs)
    for name, fields in MESSAGES.items():
        defs[f"message.{name}"] = object_schema(fields, strict, ("type", name))
    for kind, fields in EVENTS.items():
        defs[f"event.{kind}"] = object_schema(fields, strict, ("kind", kind))
    defs["event"] = {"oneOf": [{"$ref": f"#/$defs/event.{kind}"} for kind in EVENTS]}
    for name, fields in SHAPES.items():
        defs[f"shape.{name}"] = object_schema(fields, strict)
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": f"https://noddy.invalid/protocol/v{PROTOCOL_VERSION}/schema.json",
        "title": f"The Noddy protocol, version {PROTOCOL_VERSION}: any message the server sends",
        "description": "Generated from noddy.protocol.requests and noddy.protocol.messages; "
                       "see docs/PROTOCOL.md.  $defs: request.TYPE (client to server), "
                       "message.TYPE (server to client), event.KIND, shape.NAME.",
        "oneOf": [{"$ref": f"#/$defs/message.{name}"} for name in MESSAGES],
        "$defs": defs,
    }


def schema_text() -> str:
    """The schema as written to its files: indented, keys in declaration order, one final newline."""
    return json.dumps(build_schema(), indent=1, ensure_ascii=False) + "\n"


def load_schema() -> dict[str, Any]:
    """The schema shipped in the package."""
    return json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))


def main(argv: list[str]) -> int:
    """Write the schema to the package's copy and to each path in ``argv`` (docs/schema.json)."""
    text = schema_text()
    for path in [SCHEMA_PATH, *map(Path, argv)]:
        path.write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
