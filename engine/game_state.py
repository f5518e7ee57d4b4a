"""What the engine's helper modules may see of a game: :class:`GameState`, a Protocol.

The checks (:mod:`.checks`), the views (:mod:`.views`), the leaving rules (:mod:`.leaving`),
pegging (:mod:`.pegging`), the shows (:mod:`.shows`) and counting by hand (:mod:`.by_hand`)
work on a :class:`~noddy.engine.game.Game`, but type against this instead
of importing it: ``game`` imports them, so they must not import ``game`` (the engine's
modules import each other one way only).  Only a game's public attributes are here; the
state objects a helper works on (:class:`~.laying_away.LayingAway`,
:class:`~.by_hand.CountingByHand`, :class:`~.shows.ShowRecord`) are handed to it by the game.
"""

from __future__ import annotations

from typing import Protocol

from .actions import Action
from .cards import Card
from .outcome import Outcome
from .rules import Rules


class GameState(Protocol):
    """A game's public state, as :class:`~noddy.engine.game.Game` holds it."""

    rules: Rules
    players: int
    partnerships: bool
    phase: str
    deal: int
    dealer: int | None
    hands: list[list[Card]]
    kept: list[tuple[Card, ...]]
    crib: list[Card]
    turn_up: Card | None
    pile: list[Card]
    count: int
    played: list[tuple[int, Card]]
    passed: set[int]
    to_move: int | None
    scores: list[int]
    winner: int | None
    result: Outcome | None
    gone: dict[int, tuple[str, tuple[int, ...]]]

    @property
    def awaiting(self) -> tuple[int, ...]: ...

    def team_of(self, seat: int) -> int: ...

    def legal_actions(self, seat: int | None = None) -> list[Action]: ...
