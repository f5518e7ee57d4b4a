"""Text-mode words for a table's news about its seats' people: one lost the connection, is
back, resigned, has a computer standing in, or is silent on their turn.

These messages (``player_away``, ``player_back``, ``player_replaced``, ``stand_in``,
``seat_silent``: docs/PROTOCOL.md, "Stand-ins and results that count") all tell the people
at a table what they may do about a seat whose person has gone quiet or away, in the text
commands a person types (``standin N``, ``wait N``).  Seats are counted from 1.
"""

from __future__ import annotations

from typing import Any

#: The message types :func:`seat_news_text` words.
SEAT_NEWS = frozenset({"player_away", "player_back", "player_replaced", "stand_in", "seat_silent"})


def seat_news_text(message: dict[str, Any]) -> str:
    """One of :data:`SEAT_NEWS` in words (without the line's end)."""
    kind, name, seat = message["type"], message["name"], message["seat"] + 1
    if kind == "player_away":
        return f"{name} (seat {seat}) lost the connection; the seat is held for {message['grace']:g} s."
    if kind == "player_back":
        return f"{name} (seat {seat}) is back."
    if kind == "player_replaced" and message.get("resigned"):
        return (f"{name} (seat {seat}) resigned: a loss for {name}; "
                f"{message['level']} computer {seat} plays the seat on.")
    if kind == "player_replaced":
        return f"A {message['level']} computer player takes seat {seat} from {name}."
    if kind == "seat_silent":
        return (f"{name} (seat {seat}) has said nothing for {message['silent']:g} s on their turn; "
                f"type standin {seat} to let a computer play for them until they say something.")
    assert kind == "stand_in", kind
    if message["level"] is None:
        return f"The table waits for {name} (seat {seat}); type standin {seat} to let a computer play meanwhile."
    gone = "has said nothing" if message.get("silent") else "has not come back"
    counts = f" {message['counts']}" if message.get("counts") else ""  # (issue 33)
    return (f"{name} (seat {seat}) {gone}: {message['level']} computer {seat} stands in until {name} does "
            f"(type wait {seat} to wait for {name} instead).{counts}")
