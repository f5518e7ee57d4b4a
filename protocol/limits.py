"""The numbers both ends of a connection must agree on: version, default port, line limit."""

from __future__ import annotations

#: The protocol version this package speaks; a client says which one it speaks in ``hello``.
PROTOCOL_VERSION = 1
#: Every version the server can speak (a ``hello`` with another gets ``unsupported_version``).
SUPPORTED_VERSIONS: tuple[int, ...] = (1,)
#: 3131: thirty-one, the count no card may pass.
DEFAULT_PORT = 3131
#: The longest line either side may send, counting the ``\n``.  A longer line from a client
#: is answered with ``line_too_long`` and the connection is closed: nothing legitimate is
#: anywhere near this long, and the server must not buffer without bound.
MAX_LINE_BYTES = 8192
