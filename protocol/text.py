"""Text that is safe to pass on: lone surrogates found, terminal controls taken out of chat.

JSON may spell a UTF-16 surrogate on its own (``"\\ud800"``); Python reads it into a string
that cannot be encoded as UTF-8, so a message carrying it would fail in the middle of being
sent to someone else.  :func:`lone_surrogate_path` finds such a string anywhere in a decoded
message, so the request schema can refuse it at the door.  A surrogate *pair* is read as the
one character it stands for, so any surrogate left in a decoded string is a lone one.

Chat goes to other people's terminals as it was typed: an escape sequence could clear their
screen or write their clipboard, a line feed could forge a whole server line, U+202E could
turn the text around.  :func:`clean_text` replaces every such character:

>>> clean_text("hi\\x1b[2J\\nann: won\\u202e!")
'hi\\ufffd[2J ann: won\\ufffd!'
>>> clean_text("plain, accented é and 🂡 stay")
'plain, accented é and 🂡 stay'
>>> lone_surrogate_path({"type": "chat", "text": "a\\ud800"})
'text'
>>> lone_surrogate_path({"type": "chat", "text": "🂡", "x": [{"y": 1}]}) is None
True
"""

from __future__ import annotations

import re
from typing import Any

#: A surrogate code point, which a decoded string holds only where the JSON had a lone one.
_SURROGATE = re.compile("[\ud800-\udfff]")

#: Characters that move a terminal's cursor to a new line, or read as one: they become a
#: space, so a chat stays on its one line and nothing can start a forged one.
_LINE_BREAKS = "\t\n\v\f\r\x1c\x1d\x1e\x85\u2028\u2029"
#: Bidirectional controls: embeddings, overrides, isolates and marks (U+202E reverses text).
_BIDI = "\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
#: What every character :func:`clean_text` changes becomes: line breaks a space, every other
#: C0 and C1 control, DEL and bidirectional control the replacement character U+FFFD.
_CLEAN = str.maketrans(
    {**{c: "\ufffd" for c in map(chr, [*range(0x00, 0x20), *range(0x7f, 0xa0)])},
     **{c: "\ufffd" for c in _BIDI},
     **{c: " " for c in _LINE_BREAKS}})
#: The characters :func:`clean_text` changes, to leave clean text untouched cheaply.
_DIRTY = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029" + _BIDI + "]")


def has_lone_surrogate(text: str) -> bool:
    """Whether ``text`` holds a surrogate code point (so cannot be encoded as UTF-8).

    ASCII text (nearly everything) is answered without a look at its characters.

    >>> has_lone_surrogate("ok"), has_lone_surrogate("\\udfff")
    (False, True)
    """
    return not text.isascii() and _SURROGATE.search(text) is not None


def lone_surrogate_path(message: dict[str, Any]) -> str | None:
    """The top-level field of ``message`` whose key or value holds a lone surrogate anywhere
    inside it, or None.  A key that itself holds one is named with its surrogates escaped
    (``"\\\\ud800"``), so the answer can always be sent back."""
    # Every request passes here, so the common case (short ASCII keys, ASCII strings and
    # numbers) is answered inline; only non-ASCII text and containers are looked into.
    for key, value in message.items():
        if not key.isascii() and _SURROGATE.search(key) is not None:
            return key.encode("utf-8", "backslashreplace").decode("ascii")
        if type(value) is str:
            if not value.isascii() and _SURROGATE.search(value) is not None:
                return key
        elif type(value) in (list, dict) and _holds_lone_surrogate(value):
            return key
    return None


def _holds_lone_surrogate(value: Any) -> bool:
    """Whether a decoded JSON value holds a lone surrogate in any string or key in it.

    Iterative, because a readable line may nest hundreds of levels deep."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            if has_lone_surrogate(item):
                return True
        elif isinstance(item, list):
            stack.extend(item)
        elif isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
    return False


def clean_text(text: str) -> str:
    """``text`` with line breaks made spaces and every other control character (C0, DEL, C1)
    and bidirectional control replaced by U+FFFD; anything else is kept as it is."""
    if _DIRTY.search(text) is None:
        return text
    return text.translate(_CLEAN)
