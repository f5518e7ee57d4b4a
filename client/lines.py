"""The small values the game screens show: log lines, pegs, and the count of a deal.

They are plain frozen (or nearly) dataclasses with no behaviour beyond formatting, shared by
the live table (:mod:`noddy.client.screens.game`), the replay
(:mod:`noddy.client.screens.replay`) and the drawing (:mod:`noddy.client.render`), so none of
those has to import another to name them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from noddy.protocol.story import number_words

from .cards import card_label, is_red

#: How many log lines are kept (the screen shows the last few; PgUp scrolls back).
LOG_LIMIT = 500


def pile_marks(names: Sequence[str]) -> list[str]:
    """One character per seat, to mark who played each card of the pile: the players'
    initials, or their seat numbers (1, 2...) when two share an initial (four greedy
    computers would all be "G") or a seat has no name ("" -- a departed player's: its
    placeholder "seat 2" made "S:10♦", which read like a spade)."""
    initials = [name[:1].upper() for name in names]
    if all(initials) and len(set(initials)) == len(initials):
        return initials
    return [str(seat + 1) for seat in range(len(names))]


@dataclass(frozen=True)
class LogLine:
    """One line of the log: ``segments`` are (style, text) pairs so cards can be coloured.

    ``style`` is one of ``event``, ``score``, ``deal``, ``chat``, ``error``, ``win``,
    ``info``, or ``card.red`` / ``card.black`` for a card inside a line.
    """

    kind: str
    segments: tuple[tuple[str, str], ...]

    @property
    def text(self) -> str:
        return "".join(text for _, text in self.segments)


def line(kind: str, *parts: str | list[str] | tuple[str, ...]) -> LogLine:
    """A log line; a list/tuple part is a run of wire cards shown with their suit colours."""
    segments: list[tuple[str, str]] = []
    for part in parts:
        if isinstance(part, (list, tuple)):
            for i, card in enumerate(part):
                if i:
                    segments.append((kind, " "))
                segments.append(("card.red" if is_red(card) else "card.black", card_label(card)))
        elif part:
            segments.append((kind, part))
    return LogLine(kind, tuple(segments))


@dataclass(frozen=True)
class Peg:
    """One track of the peg board: a player or a team, with the front and back peg."""

    label: str
    front: int
    back: int
    target: int
    mine: bool


@dataclass(frozen=True)
class CountRow:
    """One line of a deal's count: a hand (or the crib) with the turn-up and what it made."""

    label: str
    cards: tuple[str, ...]
    points: int | None
    announcement: str


@dataclass
class DealCount:
    """The count at the end of a deal, shown until a key (see
    :data:`noddy.client.screens.game.COUNT_SECONDS`): every hand and the crib with the turn-up, each
    with its score as the announcement reads, and the totals after the deal once
    ``deal_ended`` gives them; at a table with a coach, its review of the deal (``notes``,
    None until it comes)."""

    deal: int
    turn_up: str | None
    rows: list[CountRow]
    shown_at: float
    after: str = ""
    notes: list[LogLine] | None = None


__all__ = ["LogLine", "line", "Peg", "CountRow", "DealCount", "number_words", "LOG_LIMIT"]
