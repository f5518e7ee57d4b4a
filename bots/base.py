"""The computer player interface, the registry of levels by name, and the simplest player.

:class:`Player` is all the server and ``noddy-match`` know of a computer: ``choose`` an
action from what its seat sees.  :data:`LEVELS` finds a level by name (the package adds
``greedy`` and ``expert``), so callers need not import the levels themselves.  ``random``
lives here as the floor every other level must beat.
"""

from __future__ import annotations

import random
from typing import Callable, Protocol

from noddy.engine import Action, Observation, Rules

from .counting import counting_action


class Player(Protocol):
    """Anything that picks an action for a seat from what that seat can see."""

    level: str

    def choose(self, view: Observation, rules: Rules) -> Action:
        """Return one of ``view.legal_actions`` (which is never empty when asked)."""
        ...


class RandomPlayer:
    """Any legal move, uniformly at random: the floor every other level must beat.  When
    shows are counted by hand it counts carelessly (:mod:`noddy.bots.counting`)."""

    level = "random"

    def __init__(self, seed: int | None = None) -> None:
        self._rng = random.Random(seed)

    def choose(self, view: Observation, rules: Rules) -> Action:
        if view.counting is not None:
            counted = counting_action(view, rules, careless=self._rng)
            if counted is not None:
                return counted
        return self._rng.choice(view.legal_actions)


#: Computer levels by name; each factory takes an optional seed.
LEVELS: dict[str, Callable[..., Player]] = {"random": RandomPlayer}


def get_player(level: str = "random", seed: int | None = None) -> Player:
    """A new computer player of ``level``; raises ``ValueError`` naming the known levels."""
    try:
        factory = LEVELS[level]
    except KeyError:
        raise ValueError(f"unknown computer level {level!r}; the levels are: {', '.join(LEVELS)}") from None
    return factory(seed=seed)
