"""Computer players.

A computer player sees exactly what a seat may see -- an
:class:`~noddy.engine.Observation` -- plus the table's :class:`~noddy.engine.Rules`, and
returns one of the observation's ``legal_actions``.  It never looks at the :class:`Game`
itself, so it cannot peek at hidden cards, and the server can run it on any seat.

The levels, weakest first: ``random`` (any legal move), ``greedy`` (most points now,
without leaving gifts; :mod:`noddy.bots.greedy`) and ``expert`` (expected-value discards
and determinized search of the play; :mod:`noddy.bots.expert`).
``python -m noddy.bots.match`` plays two of them against each other.

>>> from noddy.engine import Game
>>> game = Game("noddy", seed=1)
>>> player = get_player("random", seed=1)
>>> action = player.choose(game.observation(game.to_move), game.rules)
>>> action in game.legal_actions()
True
"""

from __future__ import annotations

from .base import LEVELS, Player, RandomPlayer, get_player
from .expert import ExpertPlayer
from .greedy import GreedyPlayer

LEVELS["greedy"] = GreedyPlayer
LEVELS["expert"] = ExpertPlayer

__all__ = ["LEVELS", "Player", "RandomPlayer", "GreedyPlayer", "ExpertPlayer", "get_player"]
