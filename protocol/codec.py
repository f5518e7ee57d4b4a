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
import json.encoder
import json.scanner
from typing import Any, Callable

from .errors import ProtocolError
from .i18n import Phrase


def _compact_encoder() -> Callable[[Any, int], list[str]]:
    """The function that turns a message into the pieces of its compact JSON text
    (``_chunks(message, 0)``, joined by the callers).

    It is what ``json.dumps(message, ensure_ascii=False, separators=(",", ":"))`` gives, but
    the server encodes every message it sends, and ``JSONEncoder.encode`` builds a new C
    encoder (and a circular-reference memo) on every call: a third of its cost for a small
    message.  So the standard library's C encoder is made once, with the settings ``encode``
    would give it, and reused; messages are trees the server has just built, so the circular
    check is not needed.  It is called straight from :func:`encode_line` (no Python function
    in between: the server calls it ~7 times per game move).  Where the C encoder is missing
    (another Python), or does not give exactly what ``encode`` gives, the plain encoder is used.
    """
    encoder = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"), check_circular=False)

    def plain(value: Any, _level: int) -> list[str]:
        return [encoder.encode(value)]

    make_c_encoder = getattr(json.encoder, "c_make_encoder", None)
    if make_c_encoder is None:
        return plain
    try:  # an undocumented function: any change to it in another Python means the plain encoder
        c_encoder = make_c_encoder(None, encoder.default, json.encoder.encode_basestring, None,
                                   encoder.key_separator, encoder.item_separator, encoder.sort_keys,
                                   encoder.skipkeys, encoder.allow_nan)
        sample = {"type": "é\n\"", "n": [1, -2.5, 1e300, None, True, False], "o": {"k": []}}
        if "".join(c_encoder(sample, 0)) == encoder.encode(sample):
            return c_encoder
    except (TypeError, ValueError):
        pass
    return plain


_chunks = _compact_encoder()


#: The keys, in order, of the messages a game sends most (see :func:`encode_line`).
_EVENT_KEYS = ("type", "table", "seq", "event")
_TURN_KEYS = ("type", "table", "seq", "to_move", "awaiting", "count", "legal_actions", "time_left")
_REPLY_KEYS = ("type", "id")
_PLAY_KEYS = ("action", "card")
#: A str as a JSON string (quotes, escapes; non-ASCII kept): what the C encoder does to one.
_quote: Callable[[str], str] = json.encoder.encode_basestring


def encode_line(message: dict[str, Any]) -> bytes:
    """``message`` as one line of compact JSON (non-ASCII kept as UTF-8, not escaped).

    A game move makes the server encode ~7 messages, nearly all an ``event``, a ``turn`` or an
    ``ok``, and in Python 3.11 the C encoder makes a string object of every key, separator
    and number and then joins them: for small messages, a large part of the cost.
    So these three shapes (exactly these keys, in this order, with whole numbers where
    numbers go) have their outer layer written by a format string, and only what is nested
    (the event itself, the lists) goes through the encoder: the very same bytes, for about
    a quarter (an event) to two thirds (an ``ok``) less work.  Anything else, including any
    other value in those places, is encoded whole (tests/protocol/test_codec_shapes.py
    holds both ways equal)."""
    kind = message.get("type")
    if kind == "event":
        if tuple(message) == _EVENT_KEYS:
            table, seq = message["table"], message["seq"]
            if type(table) is int and type(seq) is int:
                return (f'{{"type":"event","table":{table},"seq":{seq},"event":'
                        f'{"".join(_chunks(message["event"], 0))}}}\n').encode("utf-8")
    elif kind == "turn":
        if tuple(message) == _TURN_KEYS:
            table, seq, to_move, count, time_left = (message["table"], message["seq"], message["to_move"],
                                                     message["count"], message["time_left"])
            if (type(table) is int and type(seq) is int and type(count) is int and time_left is None
                    and (to_move is None or type(to_move) is int)):
                awaiting, legal = message["awaiting"], message["legal_actions"]
                return (f'{{"type":"turn","table":{table},"seq":{seq},'
                        f'"to_move":{"null" if to_move is None else to_move},'
                        f'"awaiting":{_int_list(awaiting)},"count":{count},'
                        f'"legal_actions":{_legal_list(legal)},'
                        f'"time_left":null}}\n').encode("utf-8")
    elif kind == "ok":
        if tuple(message) == _REPLY_KEYS:
            request_id = message["id"]
            if type(request_id) is int:
                return f'{{"type":"ok","id":{request_id}}}\n'.encode("utf-8")
    return ("".join(_chunks(message, 0)) + "\n").encode("utf-8")


def _int_list(values: Any) -> str:
    """A turn's ``awaiting``: a list of seat numbers, usually one."""
    if type(values) is list and len(values) == 1 and type(values[0]) is int:
        return f"[{values[0]}]"
    return compact_json(values)


def _legal_list(actions: Any) -> str:
    """A turn's ``legal_actions``, usually cards to play: ``{"action": ..., "card": ...}``."""
    if type(actions) is not list:
        return compact_json(actions)
    parts = []
    for action in actions:
        if type(action) is not dict or tuple(action) != _PLAY_KEYS:  # a discard, a claim...
            return compact_json(actions)
        verb, card = action["action"], action["card"]
        if type(verb) is not str or type(card) is not str:
            return compact_json(actions)
        parts.append(f'{{"action":{_quote(verb)},"card":{_quote(card)}}}')
    return "[" + ",".join(parts) + "]"


def compact_json(value: Any) -> str:
    """``value`` as the compact JSON text of a line, without the newline: what the server
    also stores and exports, so a stored record reads like the wire."""
    return "".join(_chunks(value, 0))


#: json's scanner (the C one where there is one), called straight: what ``json.loads`` ends
#: in, without the three Python calls and two whitespace matches in front of it, which
#: were a third of reading a bot's move.  Anything it does not read as one whole object
#: goes through ``json.loads`` again, for the exact error.
_scan_once = json.scanner.make_scanner(json.JSONDecoder())


def decode_line(line: bytes | str) -> dict[str, Any]:
    """Parse one line into a JSON object; ``bad_json`` if it is not valid UTF-8 JSON or not an object."""
    try:
        text = line.decode("utf-8")
    except UnicodeDecodeError:
        raise ProtocolError("bad_json", Phrase("the line is not valid UTF-8")) from None
    except AttributeError:  # a str (it has no decode): text already
        text = line
    # The usual line is one object with nothing around it: scanned straight.  Whatever else
    # the scanner makes of a line (another value, one that stops early, an error, or text
    # that is not a str, such as a bytearray) is left to json.loads below, which reads it
    # the same way and says exactly what is wrong.
    try:
        value, end = _scan_once(text, 0)
    except (StopIteration, ValueError, RecursionError, TypeError):
        pass
    else:
        if type(value) is dict and end == len(text):
            return value
    try:
        value = json.loads(text)
    except ValueError as exc:
        raise ProtocolError("bad_json", Phrase("the line is not valid JSON: {detail}", detail=str(exc))) from None
    except RecursionError:
        # json's C decoder recurses per nesting level: 8192 bytes of "[" would otherwise
        # escape as a RecursionError, which is not a ValueError.
        raise ProtocolError("bad_json", Phrase("the line is nested too deeply to read")) from None
    if not isinstance(value, dict):
        raise ProtocolError("bad_json", Phrase("a message must be a JSON object, not {kind}",
                                           kind=type(value).__name__))
    return value
