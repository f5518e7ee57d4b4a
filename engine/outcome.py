"""How a game ended: the one value that every reader of a result reads.

A finished game's :class:`Outcome` is given by :attr:`Game.outcome <noddy.engine.game.Game.outcome>`
and carried by its ``game_over`` event.  The server's game-over message, the stored record's
``result``, the rating of the game, the match runner and the narration all read this one
value (or its :meth:`Outcome.to_dict`), so a fact about the end of a game -- who won, the
scores, how it ended, and next whether it was a skunk -- is written down once.

How the value gains a field (the rule every stored game relies on):

* the new field gets a default that describes every game played before it existed (here
  ``ending="target"``: until resignations are ruled, every game ends at the target);
* :meth:`Outcome.from_dict` reads a dict without the field as that default, and ignores
  keys it does not know (a record written by a newer server);
* a stored game is replayed and compared with what was stored *on the stored keys only*
  (:func:`noddy.server.storage.records.replay`): a replayed event may hold a field the
  stored one never had, but every field that was stored must be equal.

>>> outcome = Outcome(winner=1, winning_seats=(1, 3), scores=(88, 121))
>>> outcome.to_dict()
{'winner': 1, 'winning_seats': [1, 3], 'scores': [88, 121], 'ending': 'target'}
>>> Outcome.from_dict({"winner": 1, "winning_seats": [1, 3], "scores": [88, 121]}) == outcome
True
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping

#: How a game can end: a side reached the target; a side resigned; a seat was abandoned and
#: never taken back.  The engine itself ends games at the target only, so far.
ENDINGS = ("target", "resignation", "abandoned")


@dataclass(frozen=True, slots=True)
class Outcome:
    """Who won a game, with what scores, and how it ended.

    ``winner`` is a seat, or a team in partnerships (0: seats 0 and 2; 1: seats 1 and 3);
    ``winning_seats`` every seat on the winning side; ``scores`` per seat or per team."""

    winner: int
    winning_seats: tuple[int, ...]
    scores: tuple[int, ...]
    ending: str = "target"

    def __post_init__(self) -> None:
        if self.ending not in ENDINGS:
            raise ValueError(f"a game ends by one of {', '.join(ENDINGS)}, not {self.ending!r}")

    def to_dict(self) -> dict[str, Any]:
        return {"winner": self.winner, "winning_seats": list(self.winning_seats),
                "scores": list(self.scores), "ending": self.ending}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> "Outcome":
        """An outcome as :meth:`to_dict` (of this version or an older one) gave it."""
        winner, seats, scores = data["winner"], data["winning_seats"], data["scores"]
        if not (isinstance(winner, int) and isinstance(seats, list) and isinstance(scores, list)
                and all(isinstance(v, int) for v in [*seats, *scores])):
            raise ValueError(f"not a game's outcome: {dict(data)!r}")
        return cls(winner, tuple(seats), tuple(scores), data.get("ending", "target"))
