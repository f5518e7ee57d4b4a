"""What one game of a match comes to, and where its cards come from.

:class:`GameResult` is what :func:`noddy.bots.pairing.play_pairing` returns a game: its
seed, who sat where, the outcome or a forfeit, the thinking times and the replayable record.
:func:`deal_seed` is the one place a match's deals come from (both games of a pair share
one), for games in this process and on match servers alike; :func:`seat_labels` says which
side sits where.  :func:`replay` reproduces a recorded game through the engine.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any, Sequence

from noddy.engine import Action, Game, Outcome

#: The reasons a game is forfeited (see :class:`GameResult`).
FORFEIT_REASONS = ("crash", "timeout", "protocol error")
#: The largest seed anywhere: a JavaScript number holds every integer up to it exactly.
MAX_SEED = 2**53 - 1


@dataclass
class GameResult:
    """One game of a pairing.

    ``index``: the game's number in the match (from 0); ``seed``: its deal seed;
    ``labels``: "A" or "B" for each seat; ``seats``: who sat there (a level, or a ``cmd:``
    bot's name as it said ``hello``); ``outcome``: the engine's result (None if forfeited);
    ``winner_label``: the side that won ("A" or "B"); ``margin``: A's best score minus B's
    best (0 for a forfeit); ``think``: each side's thinking time per decision, in seconds
    (decisions with a choice of actions only; for a server game, as the server saw it: from
    the turn sent to the action received); ``forfeit``: None, or one of
    :data:`FORFEIT_REASONS`, with ``forfeit_label`` the side that forfeited and
    ``forfeit_detail`` what happened; ``record``: the game as a replayable JSON record (None
    for a forfeit); ``game``: the finished game itself, for in-process games.
    """

    index: int
    seed: int
    labels: tuple[str, ...]
    seats: tuple[str, ...]
    outcome: Outcome | None
    winner_label: str
    margin: int
    think: dict[str, list[float]] = field(default_factory=lambda: {"A": [], "B": []})
    forfeit: str | None = None
    forfeit_label: str | None = None
    forfeit_detail: str = ""
    record: dict[str, Any] | None = None
    game: Game | None = None


def deal_seed(match_seed: int, game_index: int) -> int:
    """The deal seed of game ``game_index`` of the match on ``match_seed``: both games of a
    pair (``2k``, ``2k + 1``) share it; 53 bits.

    >>> deal_seed(1, 0) == deal_seed(1, 1) != deal_seed(1, 2)
    True
    >>> 0 <= deal_seed(123, 9) <= MAX_SEED
    True
    """
    return random.Random(f"noddy-match:{match_seed}:{game_index // 2}").getrandbits(53)


def game_seeds(seed: int, games: int) -> list[int]:
    """The deal seed of each of the first ``games`` games of the match on ``seed``."""
    return [deal_seed(seed, index) for index in range(games)]


def seat_labels(game_index: int, players: int) -> list[str]:
    """Which of "A" and "B" sits in each seat in game ``game_index`` (pairs swap seats)."""
    first, second = ("A", "B") if game_index % 2 == 0 else ("B", "A")
    return [first if seat % 2 == 0 else second for seat in range(players)]


def finished(index: int, record: dict[str, Any], labels: Sequence[str], seats: Sequence[str],
             partnerships: bool, outcome: Outcome, think: dict[str, list[float]],
             game: Game | None = None) -> GameResult:
    """A finished game's result: ``record`` (the game up to its actions) completed with its
    outcome (with the winner's label beside it), the winner's label and A's margin (its best
    score minus B's; a seat's score is its team's, ``scores[seat % 2]``, in partnerships)."""
    scores = outcome.scores
    winner_label = labels[outcome.winning_seats[0]]
    record["result"] = {**outcome.to_dict(), "winner_player": winner_label}
    best = {label: max(scores[s % 2 if partnerships else s]
                       for s in range(len(labels)) if labels[s] == label)
            for label in ("A", "B")}
    return GameResult(index, record["seed"], tuple(labels), tuple(seats), outcome, winner_label,
                      best["A"] - best["B"], think, record=record, game=game)


def forfeited(index: int, seed: int, labels: Sequence[str], seats: Sequence[str], label: str,
              reason: str, detail: str) -> GameResult:
    """The result of a game side ``label`` forfeited: a loss for it, margin 0, no record."""
    assert reason in FORFEIT_REASONS, reason
    other = "B" if label == "A" else "A"
    return GameResult(index, seed, tuple(labels), tuple(seats), None, other, 0,
                      forfeit=reason, forfeit_label=label, forfeit_detail=detail)


def replay(record: dict[str, Any]) -> Game:
    """The game a record describes, replayed through the engine (raises if it diverges)."""
    game = Game(record["preset"], record["players"], partnerships=record["partnerships"],
                options=record["options"], seed=int(record["seed"]))
    for seat, text in record["actions"]:
        game.apply(Action.parse(seat, text))
    result = Outcome.from_dict(record["result"])  # a record from before "ending" reads too
    if game.outcome != result:
        raise ValueError(f"replay ended {game.scores} (winner {game.winner}), "
                         f"the record says {list(result.scores)} (winner {result.winner})")
    return game
