"""Finished games' records kept in memory for ``get_game``, with their encoded JSON.

Reading a long game's record costs the server tens of milliseconds: a database query, then a
``json.loads`` of every action and a replay of the game, which rebuilds the events that
storage does not keep (a 500-point Cribbage game: ~580 steps, 13 ms), then encoding the 160 KB
reply (5 ms).  One client asking for it again and again within its
rate limit froze every table.  A finished game never changes, so the first read is kept: the
record, and the compact JSON of it, encoded once.  A reply carrying a kept record is written
by splicing that JSON into the reply's line (:func:`encoded_line`), which gives exactly the
bytes that encoding the whole reply would.

The cache is a least-recently-used one bounded by an estimate of the memory its entries
hold: a record as Python objects takes about ten times its encoded length (1.47 MB for the
160 KB record above), so an entry counts as ``RECORD_OVERHEAD`` times its encoded length.
"""

from __future__ import annotations

from collections import OrderedDict
from typing import Any

from noddy.protocol import encode_line
from noddy.protocol.codec import compact_json

from .records import StoredGame

#: Memory a record takes as Python objects, per byte of its encoded JSON (see above).
RECORD_OVERHEAD = 10


class EncodedRecord(dict):  # type: ignore[type-arg]
    """A game's record (an ordinary dict, as storage gives it) that also holds its compact
    JSON, encoded once, as UTF-8 bytes."""

    __slots__ = ("encoded",)

    def __init__(self, record: dict[str, Any]) -> None:
        super().__init__(record)
        self.encoded: bytes = compact_json(record).encode("utf-8")


class RecordCache:
    """``StoredGame`` by game id, the least recently used dropped beyond ``max_bytes``."""

    def __init__(self, max_bytes: int) -> None:
        self.max_bytes = max_bytes
        self.bytes = 0
        self._games: OrderedDict[int, StoredGame] = OrderedDict()

    def __contains__(self, game_id: int) -> bool:
        return game_id in self._games

    def __len__(self) -> int:
        return len(self._games)

    def get(self, game_id: int) -> StoredGame | None:
        stored = self._games.get(game_id)
        if stored is not None:
            self._games.move_to_end(game_id)
        return stored

    def put(self, game_id: int, stored: StoredGame) -> StoredGame:
        """Keep ``stored`` (a finished game as storage read it); returns the copy to reply
        with, whose record is an :class:`EncodedRecord` (kept or not: one too big for the
        cache is still encoded only once for this reply)."""
        kept = StoredGame(EncodedRecord(stored.record), stored.password)
        size = _cost(kept)
        if not self.max_bytes or size > self.max_bytes:
            return kept
        old = self._games.pop(game_id, None)
        if old is not None:
            self.bytes -= _cost(old)
        self._games[game_id] = kept
        self.bytes += size
        while self.bytes > self.max_bytes:
            _, dropped = self._games.popitem(last=False)
            self.bytes -= _cost(dropped)
        return kept


def _cost(stored: StoredGame) -> int:
    record = stored.record
    assert isinstance(record, EncodedRecord)
    return len(record.encoded) * RECORD_OVERHEAD


def encoded_line(message: dict[str, Any]) -> bytes | None:
    """The line of a ``game_record`` reply whose record is an :class:`EncodedRecord`, made
    without encoding the record again; None for any other message (encode it as usual).

    The rest of the reply (its type and request id) is encoded with the record left out
    (``null``), and the record's JSON put in that place: the ``"record":null`` that comes
    first is the record's own, since only ``"type":"game_record"`` comes before it.
    """
    record = message.get("record")
    if message.get("type") != "game_record" or not isinstance(record, EncodedRecord):
        return None
    rest = encode_line({**message, "record": None})
    head, found, tail = rest.partition(b'"record":null')
    if not found or b'"record"' in head:  # not laid out as expected: encode it all
        return None
    return head + b'"record":' + record.encoded + tail
