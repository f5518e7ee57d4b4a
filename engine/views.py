"""What one seat (or a spectator) may see of a game: :class:`Observation`, and the show
being counted by hand as everyone may see it (:class:`ShowToCount`).

:func:`observe` is ``Game.observation``: it reads the game and the steps the game hands it
(who still lays away, the shows counted, the show being counted by hand) and never changes
anything.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .actions import Action
from .by_hand import CountingByHand
from .cards import Card
from .game_state import GameState
from .laying_away import LayingAway
from .phases import CLAIM, DISCARD, MUGGINS
from .shows import ShowRecord


@dataclass(frozen=True)
class ShowToCount:
    """The show being counted by hand, as every seat may see it: whose it is, ``"show"`` or
    ``"crib"``, its cards and the claim (None until the owner has claimed).  Its worth is
    not here: nobody is told it until the muggins step is over.  ``refused`` is the claim
    refused once (above the worth; a second one counts as 0), in the owner's own view only:
    None for everyone else, whatever the owner claimed."""

    seat: int
    reason: str
    cards: tuple[Card, ...]
    claimed: int | None
    refused: int | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"seat": self.seat, "reason": self.reason, "cards": [str(c) for c in self.cards],
                "claimed": self.claimed, "refused": self.refused}


@dataclass(frozen=True)
class Observation:
    """The game as one seat (or a spectator, ``seat=None``) may see it right now."""

    seat: int | None
    preset: str
    players: int
    partnerships: bool
    target: int
    phase: str
    deal: int
    dealer: int | None
    hand: tuple[Card, ...] | None
    hand_sizes: tuple[int, ...]
    crib_size: int
    turn_up: Card | None
    pile: tuple[Card, ...]
    count: int
    played: tuple[tuple[int, Card], ...]
    passed: tuple[int, ...]
    discarded: tuple[int, ...]
    scores: tuple[int, ...]
    to_move: int | None
    legal_actions: tuple[Action, ...] = field(default=())
    winner: int | None = None
    #: The cards this seat laid away to the crib this deal (None for a spectator).
    laid_away: tuple[Card, ...] | None = None
    #: ``(seat, points)`` of every show (and crib, as the dealer's) counted this deal so far
    #: (counting by hand: the points claimed).
    shows: tuple[tuple[int, int], ...] = ()
    #: Counting by hand: the show being counted now (phases ``claim`` and ``muggins``).
    counting: ShowToCount | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "seat": self.seat, "preset": self.preset, "players": self.players,
            "partnerships": self.partnerships, "target": self.target, "phase": self.phase,
            "deal": self.deal, "dealer": self.dealer,
            "hand": None if self.hand is None else [str(c) for c in self.hand],
            "hand_sizes": list(self.hand_sizes), "crib_size": self.crib_size,
            "turn_up": None if self.turn_up is None else str(self.turn_up),
            "pile": [str(c) for c in self.pile], "count": self.count,
            "played": [{"seat": s, "card": str(c)} for s, c in self.played],
            "passed": list(self.passed), "discarded": list(self.discarded),
            "scores": list(self.scores), "to_move": self.to_move,
            "legal_actions": [a.to_dict() for a in self.legal_actions],
            "winner": self.winner,
            "laid_away": None if self.laid_away is None else [str(c) for c in self.laid_away],
            "shows": [{"seat": s, "points": p} for s, p in self.shows],
            "counting": None if self.counting is None else self.counting.to_dict(),
        }


def observe(game: GameState, seat: int | None, laying_away: LayingAway, shows: ShowRecord,
            by_hand: CountingByHand) -> Observation:
    """What ``seat`` may see now (``None``: a spectator): never another seat's cards."""
    own = None if seat is None else tuple(game.hands[seat])
    legal: tuple[Action, ...] = ()
    if seat is not None and seat in game.awaiting:
        legal = tuple(game.legal_actions(seat))
    return Observation(
        seat=seat, preset=game.rules.name, players=game.players,
        partnerships=game.partnerships, target=game.rules.target, phase=game.phase,
        deal=game.deal, dealer=game.dealer, hand=own,
        hand_sizes=tuple(len(h) for h in game.hands), crib_size=len(game.crib),
        turn_up=game.turn_up, pile=tuple(game.pile), count=game.count,
        played=tuple(game.played), passed=tuple(sorted(game.passed)),
        discarded=tuple(s for s in range(game.players)
                        if game.phase == DISCARD and s not in laying_away.pending),
        scores=tuple(game.scores), to_move=game.to_move, legal_actions=legal,
        winner=game.winner,
        laid_away=None if seat is None else laying_away.laid_away[seat],
        shows=tuple(shows.counted),
        counting=count_view(game.phase, seat, by_hand),
    )

def count_view(phase: str, seat: int | None, by_hand: CountingByHand) -> ShowToCount | None:
    """The show being counted as ``seat`` sees it (its own refused claim included)."""
    counting = by_hand.show
    if counting is None or phase not in (CLAIM, MUGGINS):
        return None
    refused = counting.refused if seat == counting.seat and phase == CLAIM else None
    return ShowToCount(counting.seat, counting.reason, counting.cards, counting.claimed, refused)
