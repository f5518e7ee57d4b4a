"""Why a table closed: the ``reason`` code of a ``table_closed`` message, and its words.

A program branches on the code; a person reads the ``message``.  ``shutdown`` is not an
end: the table is kept, and comes back where it was when the server starts again (its
players resume with their tokens), so it is said in words that promise that.

>>> closed_message(4, "shutdown")["message"]
'the server is shutting down; the table is kept and will be back when it starts again'
>>> closed_message(4, "empty")
{'type': 'table_closed', 'table': 4, 'reason': 'empty', 'message': 'everyone has left'}
"""

from __future__ import annotations

from typing import Any

#: Every ``reason`` a ``table_closed`` may carry, with what it tells a person.
CLOSE_REASONS: dict[str, str] = {
    "empty": "everyone has left",
    "shutdown": "the server is shutting down; the table is kept and will be back when it starts again",
    "not_saved": "the server could not save this table",
    "not_restored": "it could not be restored after the server restarted",
    "nobody_back": "nobody came back to it after the server restarted",
    "match_played": "the match's games are all played",
    "event_board": "the club night's board is over (played out, forfeited, or the event ended)",
}


def closed_message(table: int, reason: str) -> dict[str, Any]:
    """The ``table_closed`` message for ``table``, closed for ``reason`` (a code)."""
    return {"type": "table_closed", "table": table, "reason": reason, "message": CLOSE_REASONS[reason]}


def closed_words(message: dict[str, Any]) -> str:
    """What a ``table_closed`` message tells a person (a server before the codes sent its
    words as ``reason``)."""
    return str(message.get("message") or message.get("reason") or "")
