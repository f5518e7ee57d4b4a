"""The words every text command's reader shares: a number, a seat as people count it, an
option's value, and the shape of a reader itself.

A reader (:data:`Reader`) takes the verb as typed, the words after it and the rest of the
line as typed, and gives the request they stand for, or None when they do not fit the
command (the person is then told how it is written: see :mod:`.commands`).  The readers are
grouped by topic (:mod:`.seat_commands`, :mod:`.move_commands`, :mod:`.people_commands`,
:mod:`.session_commands`, :mod:`.record_commands`, :mod:`.club_text`); what they all read
the same way is here, so a seat or a number is refused in the same words whichever command
it came in.

>>> seat("1")
0
>>> value("yes"), value("61"), value("manual")
(True, 61, 'manual')
"""

from __future__ import annotations

from typing import Any, Callable

from noddy.protocol import ProtocolError
from noddy.protocol.i18n import N_, Phrase

#: What a command's reader is: ``(verb, args, rest)`` -> the request, or None when the words
#: do not fit the command.
Reader = Callable[[str, list[str], str], dict[str, Any] | None]


#: "WHAT must be a number" for each word a number is asked for by, whole, so that each
#: language names the thing in its own words (the field's name stays English in the protocol).
NOT_A_NUMBER = {"seat": N_("seat must be a number, not {word!r}"),
                "table": N_("table must be a number, not {word!r}"),
                "points": N_("points must be a number, not {word!r}"),
                "deal": N_("deal must be a number, not {word!r}"),
                "event": N_("event must be a number, not {word!r}"),
                "game": N_("game must be a number, not {word!r}"),
                "games": N_("games must be a number, not {word!r}"),
                "challenge": N_("challenge must be a number, not {word!r}")}


def not_a_number(what: str, word: str) -> Phrase:
    """The refusal of ``word`` where a number was asked for by ``what``."""
    template = NOT_A_NUMBER.get(what)
    if template is None:
        return Phrase("{what} must be a number, not {word!r}", what=what, word=word)
    return Phrase(template, word=word)


def value(text: str) -> Any:
    """An option's value as typed (``target=61``, ``hints=on``): a yes/no word is a bool, a
    whole number an int, anything else the word itself, so a JSON client and a person at a
    terminal send the same options."""
    lowered = text.lower()
    if lowered in ("true", "yes", "on"):
        return True
    if lowered in ("false", "no", "off"):
        return False
    try:
        return int(text)
    except ValueError:
        return text


def number(word: str, what: str) -> int:
    """A word that must be a number (a table, a game, points): ``bad_field`` naming ``what``
    otherwise, so the person learns which word was wrong."""
    try:
        return int(word)
    except ValueError:
        raise ProtocolError("bad_field", not_a_number(what, word), field=what) from None


def seat(word: str) -> int:
    """A seat as people number them (from 1) -> the protocol's seat (from 0)."""
    counted = number(word, "seat")
    if counted < 1:
        raise ProtocolError("no_such_seat", Phrase("seats are numbered from 1"), field="seat")
    return counted - 1


def bare(request: dict[str, Any]) -> Reader:
    """The reader of a command that takes nothing after it and sends ``request`` (a fresh
    copy each time, so no caller can change the next one's)."""
    return lambda verb, args, rest: None if args else dict(request)
