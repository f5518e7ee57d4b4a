"""Computer players.

A computer player sees exactly what a seat may see -- an
:class:`~noddy.engine.Observation` -- plus the table's :class:`~noddy.engine.Rules`, and
returns one of the observation's ``legal_actions``.  It never looks at the :class:`Game`
itself, so it cannot peek at hidden cards, and the server can run it on any seat.

>>> from noddy.engine import Game
>>> game = Game("noddy", seed=1)
>>> player = get_player("random", seed=1)
>>> action = player.choose(game.observation(game.to_move), game.rules)
>>> action in game.legal_actions()
True
"""

from __future__ import annotations

from .base import LEVELS, Player, RandomPlayer, get_player

__all__ = ["LEVELS", "Player", "RandomPlayer", "get_player"]
