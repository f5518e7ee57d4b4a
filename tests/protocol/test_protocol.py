"""The shared protocol package: framing, request validation, error codes, and its layering."""

from __future__ import annotations

import ast
import doctest
import json
import json.encoder
import pathlib
import sys

import pytest

import noddy.protocol
from noddy.protocol import (
    CLOSING_CODES,
    ERROR_CODES,
    MAX_LINE_BYTES,
    REQUESTS,
    ProtocolError,
    decode_line,
    encode_line,
    validate_request,
)
from noddy.protocol import codec, errors, requests

PROTOCOL_DIR = pathlib.Path(noddy.protocol.__file__).parent


@pytest.mark.parametrize("module", [codec, errors, requests])
def test_doctests(module: object) -> None:
    assert doctest.testmod(module).failed == 0  # type: ignore[arg-type]


def test_protocol_imports_only_the_standard_library() -> None:
    for path in PROTOCOL_DIR.glob("*.py"):
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0:
                names = [node.module or ""]
            else:
                continue
            for name in names:
                assert name.split(".")[0] in sys.stdlib_module_names | {"__future__"}, (path.name, name)


def test_encode_is_one_compact_utf8_line() -> None:
    assert encode_line({"type": "chat", "text": "Grüße ♥"}) == '{"type":"chat","text":"Grüße ♥"}\n'.encode()
    assert decode_line(encode_line({"type": "x", "n": [1, None]})) == {"type": "x", "n": [1, None]}


MESSAGE = {"type": "chat", "text": "café \"quoted\"\n", "n": [1, -2.5, None, True], "o": {"k": []}}


def test_encoding_falls_back_to_the_plain_encoder(monkeypatch: pytest.MonkeyPatch) -> None:
    """The fast path uses json's undocumented C encoder factory; where it is missing (as on
    a Python without the C accelerator), the plain encoder gives the same text."""
    expected = json.dumps(MESSAGE, ensure_ascii=False, separators=(",", ":"))
    monkeypatch.setattr(json.encoder, "c_make_encoder", None)
    chunks = codec._compact_encoder()
    assert chunks.__name__ == "plain"  # JSONEncoder.encode, wrapped to give its pieces
    assert "".join(chunks(MESSAGE, 0)) == expected
    monkeypatch.setattr(codec, "_chunks", chunks)
    assert codec.encode_line(MESSAGE) == (expected + "\n").encode()


def test_the_fast_encoder_gives_what_json_dumps_gives() -> None:
    assert type(codec._chunks).__module__ == "_json"  # CPython: the C encoder, made once
    expected = json.dumps(MESSAGE, ensure_ascii=False, separators=(",", ":"))
    assert codec.compact_json(MESSAGE) == expected
    assert codec.encode_line(MESSAGE) == (expected + "\n").encode()


@pytest.mark.parametrize("line, message", [
    (b"{", "the line is not valid JSON"),
    (b"\xff\xfe", "the line is not valid UTF-8"),
    (b"[1]", "a message must be a JSON object, not list"),
    (b'"hi"', "a message must be a JSON object, not str"),
])
def test_decode_refuses_what_is_not_an_object(line: bytes, message: str) -> None:
    with pytest.raises(ProtocolError) as info:
        decode_line(line)
    assert info.value.code == "bad_json"
    assert str(info.value).startswith(message)


def test_validation_fills_defaults() -> None:
    assert validate_request({"type": "create_table"}) == ("create_table", {
        "preset": "noddy", "players": 2, "partnerships": False, "options": None, "private": False,
        "password": None, "seat": 0, "turn_timer": None, "deal_seeds": None})
    assert validate_request({"type": "hello", "name": "Ada", "version": 1, "extra": 1}) == (
        "hello", {"name": "Ada", "bot": False, "version": 1, "resume": None, "password": None,
                  "turn_state": False, "language": None})


@pytest.mark.parametrize("message, code, field", [
    ({}, "missing_field", "type"),
    ({"type": 3}, "unknown_type", "type"),
    ({"type": "fly"}, "unknown_type", "type"),
    ({"type": "ping", "id": [1]}, "bad_field", "id"),
    ({"type": "ping", "id": True}, "bad_field", "id"),
    ({"type": "hello", "version": 1}, "missing_field", "name"),
    ({"type": "hello", "name": "", "version": 1}, "bad_field", "name"),
    ({"type": "hello", "name": "x" * 33, "version": 1}, "bad_field", "name"),
    ({"type": "hello", "name": "a", "version": "1"}, "bad_field", "version"),
    ({"type": "hello", "name": "a", "version": 1, "bot": "yes"}, "bad_field", "bot"),
    ({"type": "create_table", "players": True}, "bad_field", "players"),
    ({"type": "create_table", "turn_timer": 0.5}, "bad_field", "turn_timer"),
    ({"type": "action", "action": "fold"}, "bad_field", "action"),
    ({"type": "action", "action": "discard", "cards": ["AH", 2]}, "bad_field", "cards"),
    ({"type": "chat", "text": "x" * 501}, "bad_field", "text"),
    ({"type": "spectate", "table": None}, "bad_field", "table"),
])
def test_validation_names_the_offending_field(message: dict, code: str, field: str) -> None:
    with pytest.raises(ProtocolError) as info:
        validate_request(message)
    assert (info.value.code, info.value.field) == (code, field)
    assert info.value.to_message(7)["field"] == field


def test_error_codes_are_documented_and_stable() -> None:
    assert CLOSING_CODES <= set(ERROR_CODES)
    with pytest.raises(AssertionError):
        ProtocolError("no_such_code", "x")
    doc = (pathlib.Path(__file__).parents[2] / "docs" / "PROTOCOL.md").read_text()
    for code in ERROR_CODES:
        assert f"`{code}`" in doc, code
    for kind in REQUESTS:
        assert f"`{kind}`" in doc, kind
    assert str(MAX_LINE_BYTES) in doc
