"""People who leave a game before it ends: a resignation, an abandoned seat, a seat taken back.

A person may give a game up (:class:`~noddy.engine.actions.Resign`), or go and not come back
in time (:class:`~noddy.engine.actions.Abandon`, which the server takes for them when their
seat's grace period runs out; :class:`~noddy.engine.actions.TakeBack` when they return).
The rules of a result that counts what happened (issue 24):

* A resignation is a loss for the side that resigned, at the moment it resigned, whatever a
  computer standing in does afterwards.  When only one side is left that has not resigned
  (always, in a game of two sides), the game ends at once: that side wins, ending
  ``"resignation"``, with the scores of that moment.  With three or four alone, the game may
  go on with a computer in the resigned seat; the outcome then lists who ``resigned``.
* A seat abandoned and never taken back counts as a resignation at the moment it was
  abandoned.  The game goes on (the person may come back), so which it is is only known at
  the end: in a game of two sides the side that abandoned first loses, ending
  ``"abandoned"``, with the scores of the moment it was abandoned; with three or four alone
  the target decides the winner and the outcome lists who ``abandoned``.

These actions are never among ``legal_actions`` (no bot chooses one), and are kept with the
game's other actions, so a stored game replays to the same outcome.

>>> from noddy.engine import Game
>>> from noddy.engine.actions import Resign
>>> game = Game("noddy", 2, seed=1)
>>> [event.to_dict()["ending"] for event in game.apply(Resign(1))]
['resignation']
>>> game.outcome.winner, game.outcome.resigned
(0, (1,))
"""

from __future__ import annotations

from .actions import Abandon, Action, Resign, TakeBack
from .errors import N_, IllegalActionError
from .events import Event, GameOver
from .game_state import GameState
from .outcome import Outcome
from .phases import OVER

RESIGNED = "resignation"
ABANDONED = "abandoned"


def apply(game: GameState, action: Action, events: list[Event]) -> None:
    """Apply a Resign, Abandon or TakeBack (the game is not over: :meth:`Game.apply` checked)."""
    seat = action.seat
    gone = game.gone
    if isinstance(action, TakeBack):
        if gone.get(seat, ("",))[0] != ABANDONED:
            raise IllegalActionError(N_("seat {seat} was not abandoned"), seat=seat)
        del gone[seat]
        return
    if seat in gone and gone[seat][0] == RESIGNED:
        raise IllegalActionError(N_("seat {seat} has resigned already"), seat=seat)
    if isinstance(action, Abandon):
        if seat in gone:
            raise IllegalActionError(N_("seat {seat} is abandoned already"), seat=seat)
        gone[seat] = (ABANDONED, tuple(game.scores))
        return
    assert isinstance(action, Resign)
    gone.pop(seat, None)  # an abandoned seat's person came back to resign: a resignation now
    gone[seat] = (RESIGNED, tuple(game.scores))
    left = _sides_left(game)
    if len(left) == 1:
        resigned, abandoned = _who_went(game)
        _end(game, Outcome(left[0], _seats_of(game, left[0]), tuple(game.scores), RESIGNED,
                           resigned=resigned, abandoned=abandoned), events)


def outcome_at_target(game: GameState, team: int) -> Outcome:
    """The outcome when ``team`` (a seat, or a team in partnerships) reaches the target: its
    win, unless a side of a two-sided game abandoned a seat that nobody took back."""
    resigned, abandoned = _who_went(game)
    if _sides(game) == 2:
        for seat, (how, scores) in game.gone.items():
            if how == ABANDONED:
                winner = 1 - game.team_of(seat)
                return Outcome(winner, _seats_of(game, winner), scores, ABANDONED,
                               resigned=resigned, abandoned=abandoned)
    return Outcome.at_target(team, _seats_of(game, team), game.scores, game.rules.target,
                             game.rules.skunk_margins, resigned, abandoned)


def end_at_target(game: GameState, team: int, events: list[Event]) -> None:
    """``team`` reached the target: the game is over (see :func:`outcome_at_target`)."""
    _end(game, outcome_at_target(game, team), events)


def _end(game: GameState, outcome: Outcome, events: list[Event]) -> None:
    game.winner = outcome.winner
    game.result = outcome
    game.phase = OVER
    game.to_move = None
    events.append(GameOver(outcome))


def _sides(game: GameState) -> int:
    return 2 if game.partnerships else game.players


def _seats_of(game: GameState, team: int) -> tuple[int, ...]:
    return tuple(s for s in range(game.players) if game.team_of(s) == team)


def _sides_left(game: GameState) -> list[int]:
    """The sides none of whose seats has resigned (a partner's resignation is the team's)."""
    out = {game.team_of(s) for s, (how, _) in game.gone.items() if how == RESIGNED}
    return sorted({game.team_of(s) for s in range(game.players)} - out)


def _who_went(game: GameState) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The seats that resigned, and those abandoned and not taken back, in order."""
    return (tuple(s for s, (how, _) in game.gone.items() if how == RESIGNED),
            tuple(s for s, (how, _) in game.gone.items() if how == ABANDONED))
