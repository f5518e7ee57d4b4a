"""Framing: one JSON object per line, UTF-8, ``\\n``-terminated, compact and key-ordered as built.

``encode_line`` is used by whoever sends; ``decode_line`` by whoever receives and raises a
:class:`~noddy.protocol.errors.ProtocolError` with code ``bad_json`` for anything that is not
one JSON object, so a receiver has exactly one failure to handle.

>>> encode_line({"type": "ping", "id": 1})
b'{"type":"ping","id":1}\\n'
>>> decode_line(b'{"type":"ping"}\\r\\n')
{'type': 'ping'}
"""

from __future__ import annotations

import json
from typing import Any

from .errors import ProtocolError


def encode_line(message: dict[str, Any]) -> bytes:
    """``message`` as one line of compact JSON (non-ASCII kept as UTF-8, not escaped)."""
    return (_ENCODER.encode(message) + "\n").encode("utf-8")


#: One encoder for every line (``json.dumps`` with options builds a new one per call).
_ENCODER = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"))


def decode_line(line: bytes | str) -> dict[str, Any]:
    """Parse one line into a JSON object; ``bad_json`` if it is not valid UTF-8 JSON or not an object."""
    if isinstance(line, bytes):
        try:
            text = line.decode("utf-8")
        except UnicodeDecodeError:
            raise ProtocolError("bad_json", "the line is not valid UTF-8") from None
    else:
        text = line
    try:
        value = json.loads(text)
    except ValueError as exc:
        raise ProtocolError("bad_json", f"the line is not valid JSON: {exc}") from None
    except RecursionError:
        # json's C decoder recurses per nesting level: 8192 bytes of "[" would otherwise
        # escape as a RecursionError, which is not a ValueError.
        raise ProtocolError("bad_json", "the line is nested too deeply to read") from None
    if not isinstance(value, dict):
        raise ProtocolError("bad_json", f"a message must be a JSON object, not {type(value).__name__}")
    return value
