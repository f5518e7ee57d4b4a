"""How a game ended: the one value that every reader of a result reads.

A finished game's :class:`Outcome` is given by :attr:`Game.outcome <noddy.engine.game.Game.outcome>`
and carried by its ``game_over`` event.  The server's game-over message, the stored record's
``result``, the rating of the game, the match runner and the narration all read this one
value (or its :meth:`Outcome.to_dict`), so a fact about the end of a game -- who won, the
scores, how it ended and whether it was a skunk -- is written down once.

Skunks (``../shared/RULES.md``, "Skunks and matches"): a game won at the target is a
``"skunk"`` when a losing side ends below the target minus 30, a ``"double"`` skunk below the
target minus 60.  The margins are the preset's data (:attr:`Rules.skunk_margins
<noddy.engine.rules.Rules.skunk_margins>`: ``(30, 60)`` for the Cribbage presets, none for the
Noddy ones).  A line counts only where it lies at :data:`LOWEST_SKUNK_LINE` or above, the
lowest line the ruling names ("below 31 in a game to 61"), so a game to 61 has no double
skunk (its line would be 1) and a short game none at all.  Each losing side is judged on its
own (three-handed, each loser; partnerships, the team's shared score) and the outcome says
the worst.  A game that did not end at the target (a resignation) is never a skunk.

How the value gains a field (the rule every stored game relies on):

* the new field gets a default that describes every game played before it existed (here
  ``ending="target"``: until resignations are ruled, every game ends at the target; and
  ``skunk="none"``: a result stored before skunks were judged says none);
* :meth:`Outcome.from_dict` reads a dict without the field as that default, and ignores
  keys it does not know (a record written by a newer server);
* a stored game is replayed and compared with what was stored *on the stored keys only*
  (:func:`noddy.server.storage.records.replay`): a replayed event may hold a field the
  stored one never had, but every field that was stored must be equal.

>>> outcome = Outcome(winner=1, winning_seats=(1, 3), scores=(88, 121))
>>> outcome.to_dict()
{'winner': 1, 'winning_seats': [1, 3], 'scores': [88, 121], 'ending': 'target', 'skunk': 'none'}
>>> Outcome.from_dict({"winner": 1, "winning_seats": [1, 3], "scores": [88, 121]}) == outcome
True
>>> judge_skunk((121, 88), winner=0, target=121, margins=(30, 60))
'skunk'
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping, Sequence

#: How a game can end: a side reached the target; a side resigned (every other side did,
#: in a game of three or four alone); a seat was abandoned and never taken back, which counts
#: as a resignation at the moment it was abandoned (see :mod:`noddy.engine.leaving`).
ENDINGS = ("target", "resignation", "abandoned")
#: How badly the losers were beaten, from none to worst.
SKUNKS = ("none", "skunk", "double")
#: The lowest skunk line the ruling names (below 31 in a game to 61); a margin that would put
#: its line lower does not apply in that game.
LOWEST_SKUNK_LINE = 31


def judge_skunk(scores: Sequence[int], winner: int, target: int, margins: Sequence[int]) -> str:
    """The worst skunk among the losing sides of a game won at ``target``: each entry of
    ``scores`` but the ``winner``'s is judged on its own against the lines ``target - margin``
    (the first margin a skunk, the second a double).

    >>> judge_skunk((60, 121), 1, 121, (30, 60)), judge_skunk((0, 61), 1, 61, (30, 60))
    ('double', 'skunk')
    >>> judge_skunk((0, 31), 1, 31, ()), judge_skunk((90, 121, 95), 1, 121, (30, 60))
    ('none', 'skunk')
    """
    worst = 0
    for side, score in enumerate(scores):
        if side == winner:
            continue
        for level, margin in enumerate(margins, start=1):
            line = target - margin
            if line >= LOWEST_SKUNK_LINE and score < line:
                worst = max(worst, level)
    return SKUNKS[worst]


@dataclass(frozen=True, slots=True)
class Outcome:
    """Who won a game, with what scores, and how it ended.

    ``winner`` is a seat, or a team in partnerships (0: seats 0 and 2; 1: seats 1 and 3);
    ``winning_seats`` every seat on the winning side; ``scores`` per seat or per team (when
    a side resigned, or abandoned its seat, the scores at that moment); ``skunk`` one of
    :data:`SKUNKS` (see :func:`judge_skunk`).  ``resigned`` and ``abandoned`` are the seats
    whose person resigned, or left and never came back, in the order it happened (each such
    seat lost, whatever a computer standing in did after, and is never judged a skunk);
    their dict keys are there only when not empty, as a game before them had none."""

    winner: int
    winning_seats: tuple[int, ...]
    scores: tuple[int, ...]
    ending: str = "target"
    skunk: str = "none"
    resigned: tuple[int, ...] = ()
    abandoned: tuple[int, ...] = ()

    def __post_init__(self) -> None:
        if self.ending not in ENDINGS:
            raise ValueError(f"a game ends by one of {', '.join(ENDINGS)}, not {self.ending!r}")
        if self.skunk not in SKUNKS:
            raise ValueError(f"a skunk is one of {', '.join(SKUNKS)}, not {self.skunk!r}")
        if self.skunk != "none" and self.ending != "target":
            raise ValueError(f"a game ended by {self.ending} is never a skunk")

    @classmethod
    def at_target(cls, winner: int, winning_seats: tuple[int, ...], scores: Sequence[int],
                  target: int, skunk_margins: Sequence[int], resigned: tuple[int, ...] = (),
                  abandoned: tuple[int, ...] = ()) -> "Outcome":
        """A game a side won by reaching ``target``, its skunk judged from the scores of the
        losers who played it out (a seat that ``resigned`` or was ``abandoned`` lost by
        leaving, never by a skunk: three or four alone, where the game goes on without it)."""
        gone = set(resigned) | set(abandoned)
        judged = [scores[winner] if side in gone else score for side, score in enumerate(scores)]
        return cls(winner, winning_seats, tuple(scores), "target",
                   judge_skunk(judged, winner, target, skunk_margins), resigned, abandoned)

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {"winner": self.winner, "winning_seats": list(self.winning_seats),
                                "scores": list(self.scores), "ending": self.ending,
                                "skunk": self.skunk}
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
                   data.get("skunk", "none"), tuple(resigned), tuple(abandoned))
