"""Laying away to the crib: which seats still owe cards, and what each laid away.

While the crib is laid away every seat that still owes cards may act, in any order, so
the game asks :class:`LayingAway` who is awaited, and tells it each seat's discard.  What a
seat laid away stays here for the deal (its own view shows it: ``Observation.laid_away``).
The game holds one and changes it only through its methods.
"""

from __future__ import annotations

from .cards import Card


class LayingAway:
    """The seats that still owe the crib cards (from the dealer's left) and each seat's
    discard this deal (``()`` until it lays away, and in presets without a crib)."""

    __slots__ = ("pending", "laid_away")

    def __init__(self, players: int) -> None:
        self.pending: list[int] = []
        self.laid_away: list[tuple[Card, ...]] = [()] * players

    def new_deal(self, players: int) -> None:
        """A deal begins: nothing laid away yet (nobody owes cards until :meth:`begin`)."""
        self.laid_away = [()] * players

    def begin(self, order: list[int]) -> None:
        """These seats (from the dealer's left) are to lay away."""
        self.pending = order

    def lay_away(self, seat: int, cards: tuple[Card, ...]) -> int | None:
        """``seat`` laid away ``cards``: the first seat still owing cards, or None if none."""
        self.laid_away[seat] = cards
        self.pending = [s for s in self.pending if s != seat]
        return self.pending[0] if self.pending else None

    def clear(self) -> None:
        """The game is over: nobody owes cards any more."""
        self.pending = []

    def copy(self) -> LayingAway:
        other = LayingAway.__new__(LayingAway)
        other.pending = list(self.pending)
        other.laid_away = list(self.laid_away)
        return other
