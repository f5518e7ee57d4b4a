"""The small wording helpers every teller of a game needs, in the reader's language: seats
named, the count in words, scores said one against another, and lines whose cards a
translation may put anywhere (:func:`with_cards`).  Apart from :mod:`.narration`, which
re-exports them, so that the tellers are one module and their words' grammar another.

Standard library only, no I/O.
"""

from __future__ import annotations

import string
from typing import Any, Callable, NamedTuple, Sequence

from .calls import number_words as spelled
from .i18n import DEFAULT_LANGUAGE, _, current_language, pgettext

#: A part of a :class:`Line`: plain text, or a run of wire cards ("5H", "TC").
Part = str | tuple[str, ...]
#: How a card is written: wire text in, what a reader sees out.
CardFormat = Callable[[str], str]


def plain_card(card: str) -> str:
    """The wire text itself (``"5H"``): how the text mode writes a card."""
    return card


class Line(NamedTuple):
    """One line of the story.  ``kind`` is how the client styles it: ``deal`` (a game or a
    deal begins or ends), ``event``, ``score`` or ``win``.  ``parts`` are plain text and
    runs of wire cards (tuples).  (A named tuple: the text mode makes one per event.)"""

    kind: str
    parts: tuple[Part, ...]

    def text(self, card: CardFormat = plain_card) -> str:
        """The line as plain text, every card written by ``card``."""
        out = []
        for part in self.parts:
            out.append(part if isinstance(part, str) else " ".join(map(card, part)))
        return "".join(out)

def number_words(n: int) -> str:
    """The running count as it is called, in the current language: ``number_words(25) ==
    "twenty-five"`` ("fünfundzwanzig", "veinticinco"); figures outside 0-99.  The spelling is
    the calls' (:func:`noddy.protocol.calls.number_words`); only an English count of none is
    "nought", not the calls' "zero"."""
    if not 0 <= n < 100:
        return str(n)
    if n == 0 and current_language() == DEFAULT_LANGUAGE:
        return "nought"
    return spelled(n)


def seat_name(seat: int | None, names: Sequence[str | None] = ()) -> str:
    """Who sits in ``seat``: the player's name, else ``"seat N"`` counted from 1 the way
    people count (``"nobody"`` for no seat)."""
    if seat is None:
        return _("nobody")
    if 0 <= seat < len(names) and names[seat]:
        return str(names[seat])
    return _("seat {n}").format(n=seat + 1)


def capital(text: str) -> str:
    """``text`` at the start of a sentence: "seat 2" -> "Seat 2"; names are left as typed."""
    lead = _("seat {n}").partition("{n}")[0]
    return text[:1].upper() + text[1:] if lead and text.startswith(lead) else text


def and_list(words: Sequence[str]) -> str:
    """``"ann and ben"``, ``"ann, ben and cy"`` is not said: the words are joined by "and"
    each time, as the game's lines always did (``"ann and ben and cy"``)."""
    if not words:
        return ""
    said = words[-1]
    for word in reversed(words[:-1]):
        said = pgettext("list", "{first} and {rest}").format(first=word, rest=said)
    return said


def score_to(scores: Sequence[Any]) -> str:
    """``"12 to 9"`` (``"12 to 9 to 3"``): scores said one against the other."""
    if not scores:
        return ""
    said = str(scores[-1])
    for score in reversed(scores[:-1]):
        said = pgettext("score", "{first} to {rest}").format(first=score, rest=said)
    return said


_FORMATTER = string.Formatter()


def with_cards(template: str, **values: Any) -> tuple[Part, ...]:
    """The parts of a line from a (translated) template: each ``{name}`` whose value is a
    tuple of wire cards becomes a run of cards, the rest is formatted as text.  A
    translation may so put the cards anywhere in its sentence."""
    parts: list[Part] = []
    text = ""
    for literal, field, spec, conversion in _FORMATTER.parse(template):
        text += literal
        if field is None:
            continue
        value = values[field]
        if isinstance(value, tuple):
            if text:
                parts.append(text)
            parts.append(value)
            text = ""
        else:
            value = _FORMATTER.convert_field(value, conversion) if conversion else value
            text += format(value, spec or "")
    if text:
        parts.append(text)
    return tuple(parts)


def side_labels(sides: int, names: Sequence[str | None], players: int = 0) -> list[str]:
    """One label for each of ``sides`` score tracks: a player, or with fewer tracks than
    seats a partnership ("Ann & Cy": seats 1 and 3 score together, 0 and 2 in the protocol)."""
    seats = max(players, len(names))
    if 0 < sides < seats:
        return [" & ".join(seat_name(s, names) for s in range(seats) if s % sides == side)
                for side in range(sides)]
    return [seat_name(side, names) for side in range(sides)]


def score_line(scores: Sequence[int], names: Sequence[str | None], players: int = 0) -> str:
    """``Ann 11, Ben 7``: each side's score beside its label."""
    labels = side_labels(len(scores), names, players)
    return ", ".join(f"{label} {score}" for label, score in zip(labels, scores))
