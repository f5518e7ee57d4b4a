"""Text-mode words for a table's news about its seats' people: one lost the connection, is
back, resigned, has a computer standing in, or is silent on their turn.

These messages (``player_away``, ``player_back``, ``player_replaced``, ``stand_in``,
``seat_silent``: docs/PROTOCOL.md, "Stand-ins and results that count") all tell the people
at a table what they may do about a seat whose person has gone quiet or away, in the text
commands a person types (``standin N``, ``wait N``).  Seats are counted from 1.
"""

from __future__ import annotations

from typing import Any

from noddy.protocol.i18n import _, pgettext, say

#: The message types :func:`seat_news_text` words.
SEAT_NEWS = frozenset({"player_away", "player_back", "player_replaced", "stand_in", "seat_silent"})


def seat_news_text(message: dict[str, Any]) -> str:
    """One of :data:`SEAT_NEWS` in words (without the line's end)."""
    kind, name, seat = message["type"], message["name"], message["seat"] + 1
    if kind == "player_away":
        return _("{name} (seat {seat}) lost the connection; the seat is held for {grace:g} s.").format(
            name=name, seat=seat, grace=message["grace"])
    if kind == "player_back":
        return _("{name} (seat {seat}) is back.").format(name=name, seat=seat)
    level = level_word(message.get("level"))
    if kind == "player_replaced" and message.get("resigned"):
        return _("{name} (seat {seat}) resigned: a loss for {name}; {level} computer {seat} plays the seat "
                 "on.").format(name=name, seat=seat, level=level)
    if kind == "player_replaced":
        return _("A {level} computer player takes seat {seat} from {name}.").format(level=level, seat=seat,
                                                                                   name=name)
    if kind == "seat_silent":
        return _("{name} (seat {seat}) has said nothing for {silent:g} s on their turn; type standin {seat} "
                 "to let a computer play for them until they say something.").format(
            name=name, seat=seat, silent=message["silent"])
    assert kind == "stand_in", kind
    if message["level"] is None:
        return _("The table waits for {name} (seat {seat}); type standin {seat} to let a computer play "
                 "meanwhile.").format(name=name, seat=seat)
    counts = " " + say(message["counts"]) if message.get("counts") else ""  # (issue 33)
    return (_("{name} (seat {seat}) has said nothing: {level} computer {seat} stands in until {name} does "
              "(type wait {seat} to wait for {name} instead).") if message.get("silent") else
            _("{name} (seat {seat}) has not come back: {level} computer {seat} stands in until {name} does "
              "(type wait {seat} to wait for {name} instead).")).format(name=name, seat=seat, level=level) + counts


def level_word(level: str | None) -> str:
    """A computer player's level (a code word of the protocol) in the reader's language."""
    words = {"random": pgettext("computer level", "random"), "greedy": pgettext("computer level", "greedy"),
             "expert": pgettext("computer level", "expert")}
    return words.get(level or "", level or "")
