"""The Noddy wire protocol, shared by the server and every client: no I/O, standard library only.

One UTF-8 JSON object per ``\\n``-terminated line, each with a ``type``.  This package holds
what both ends must agree on -- the version, the limits, the codec, the error codes and the
shape of every request -- so that a client imports ``noddy.protocol`` and nothing else.
``docs/PROTOCOL.md`` is the prose description of the same things.
"""

from __future__ import annotations

from .codec import compact_json, decode_line, encode_line
from .errors import ERROR_CODES, CLOSING_CODES, ProtocolError, error_message
from .limits import (
    DEFAULT_PORT,
    MAX_LINE_BYTES,
    PROTOCOL_VERSION,
    SUPPORTED_VERSIONS,
)
from .requests import REQUESTS, FieldSpec, validate_request
from .story import TableView, narrate

__all__ = [
    "compact_json", "decode_line", "encode_line", "ERROR_CODES", "CLOSING_CODES", "ProtocolError",
    "error_message", "DEFAULT_PORT", "MAX_LINE_BYTES", "PROTOCOL_VERSION",
    "SUPPORTED_VERSIONS", "REQUESTS", "FieldSpec", "validate_request", "TableView", "narrate",
]
