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

#: How a game can end: a side reached the target; a side resigned (every other side did,
#: in a game of three or four alone); a seat was abandoned and never taken back, which counts
#: as a resignation at the moment it was abandoned (see :mod:`noddy.engine.leaving`).
ENDINGS = ("target", "resignation", "abandoned")


@dataclass(frozen=True, slots=True)
class Outcome:
    """Who won a game, with what scores, and how it ended.

    ``winner`` is a seat, or a team in partnerships (0: seats 0 and 2; 1: seats 1 and 3);
    ``winning_seats`` every seat on the winning side; ``scores`` per seat or per team (when
    a side resigned, or abandoned its seat, the scores at that moment).  ``resigned`` and
    ``abandoned`` are the seats whose person resigned, or left and never came back, in the
    order it happened (each such seat lost, whatever a computer standing in did after);
    their dict keys are there only when not empty, as a game before them had none."""

    winner: int
    winning_seats: tuple[int, ...]
    scores: tuple[int, ...]
    ending: str = "target"
    resigned: tuple[int, ...] = ()
    abandoned: tuple[int, ...] = ()

    def __post_init__(self) -> None:
        if self.ending not in ENDINGS:
            raise ValueError(f"a game ends by one of {', '.join(ENDINGS)}, not {self.ending!r}")

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {"winner": self.winner, "winning_seats": list(self.winning_seats),
                                "scores": list(self.scores), "ending": self.ending}
        if self.resigned:
            data["resigned"] = list(self.resigned)
        if self.abandoned:
            data["abandoned"] = list(self.abandoned)
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> "Outcome":
        """An outcome as :meth:`to_dict` (of this version or an older one) gave it."""
        winner, seats, scores = data["winner"], data["winning_seats"], data["scores"]
        resigned, abandoned = data.get("resigned", []), data.get("abandoned", [])
        if not (isinstance(winner, int) and all(isinstance(v, list) for v in (seats, scores, resigned, abandoned))
                and all(isinstance(v, int) for v in [*seats, *scores, *resigned, *abandoned])):
            raise ValueError(f"not a game's outcome: {dict(data)!r}")
        return cls(winner, tuple(seats), tuple(scores), data.get("ending", "target"),
                   tuple(resigned), tuple(abandoned))
