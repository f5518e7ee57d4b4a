"""The shows of a deal: the order they are made in, what each was counted at, and the show
the engine counts itself (:func:`count_shows`; counted by hand: :mod:`.by_hand`).

The show order is every hand from the dealer's left, the dealer's last, then the crib (the
dealer's).  :class:`ShowRecord` keeps ``(seat, points)`` of each show counted so far this
deal -- the points it held when the engine counts, the points claimed when counted by hand
(:mod:`.by_hand`) -- which every seat may see (``Observation.shows``).  The game holds one
and changes it only through its methods.
"""

from __future__ import annotations

from typing import Sequence

from .cards import SORT_KEY, Card
from .events import Event
from .game_state import GameState
from .pegging import peg
from .score_items import POINTS
from .scoring import show_items

SHOW = "show"
CRIB = "crib"


def show_order(seats_from_left: Sequence[int], dealer: int, has_crib: bool) -> list[tuple[int, str]]:
    """``(seat, "show")`` for each hand in turn from the dealer's left, then
    ``(dealer, "crib")`` where there is a crib."""
    order = [(seat, SHOW) for seat in seats_from_left]
    if has_crib:
        order.append((dealer, CRIB))
    return order


def crib_shown(crib: Sequence[Card]) -> tuple[Card, ...]:
    """The crib as it is shown: its cards in order."""
    return tuple(sorted(crib, key=SORT_KEY))


class ShowRecord:
    """``(seat, points)`` of every show (and crib, as the dealer's) counted this deal so far,
    in show order."""

    __slots__ = ("counted",)

    def __init__(self, counted: list[tuple[int, int]] | None = None) -> None:
        self.counted: list[tuple[int, int]] = counted if counted is not None else []

    def record(self, seat: int, points: int) -> None:
        self.counted.append((seat, points))

    def clear(self) -> None:
        """A new deal: nothing shown yet."""
        self.counted = []

    def copy(self) -> ShowRecord:
        return ShowRecord(list(self.counted))


def count_shows(game: GameState, shows: ShowRecord, order: Sequence[tuple[int, str]],
                events: list[Event]) -> bool:
    """Count and peg every show in ``order`` (see :func:`show_order`).  True if someone won.
    A show made before the play (the Noddy presets) is concealed from the others; a crib,
    never."""
    rules = game.rules
    turn_up = game.turn_up
    assert turn_up is not None
    for seat, reason in order:
        is_crib = reason == CRIB
        cards = crib_shown(game.crib) if is_crib else game.kept[seat]
        items = show_items(cards, turn_up, rules, crib=is_crib)
        shows.record(seat, sum(map(POINTS, items)))
        if peg(game, events, seat, items, reason, cards, rules.show_before_play and not is_crib):
            return True
    return False
