"""Pegging: points are scored the moment they are made, and the game ends at the target.

Every part of a deal that scores -- the play, the turn-up, the show, a claim or a call of
muggins -- pegs through :func:`peg`, which moves the score, tells it (a ``scored`` event)
and, when a seat or team reaches the target, ends the game at once (:mod:`.leaving` says who
won: a side that abandoned a seat may lose even so).  The caller stops when it returns
True: nothing after the winning peg is scored.
"""

from __future__ import annotations

from .cards import Card
from .events import Event, Scored
from .game_state import GameState
from .leaving import end_at_target
from .score_items import POINTS, ScoreItem


def peg(game: GameState, events: list[Event], seat: int, items: tuple[ScoreItem, ...], reason: str,
        cards: tuple[Card, ...] | None = None, concealed: bool = False) -> bool:
    """Peg ``items`` for ``seat``; True (and the game over) if that reaches the target."""
    points = sum(map(POINTS, items))
    team = seat % 2 if game.partnerships else seat  # game.team_of(seat), inlined
    scores = game.scores
    scores[team] += points
    events.append(Scored(seat, points, reason, items, tuple(scores), cards, concealed))
    if scores[team] >= game.rules.target:
        end_at_target(game, team, events)
        return True
    return False
