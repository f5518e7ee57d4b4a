"""A match: a table playing game after game until one side has ``to`` match points.

Table option ``match: N`` (``../shared/RULES.md``, "Skunks and matches"): a won game scores
its winner 1 match point, a skunk 2, a double skunk 4 -- read from the engine's one
:class:`~noddy.engine.Outcome` value, whose ``skunk`` already judges the worst-beaten loser
(three-handed) and is always ``"none"`` under the Noddy presets; a game won by resignation
(or an abandoned seat) scores 1.  The cut decides the first deal of the match; each later
game is dealt first by the loser of the previous one (three-handed: the lowest score in
it), which the table passes to the engine as the new game's ``first_dealer``.

A :class:`Match` is plain state the table owns: gameplay scores it as each game finishes,
the table's summary shows it, each game's record carries :meth:`Match.for_game` (which match,
which game of it, who dealt first, and once the game is over the points after it), and the
table's stored state keeps :meth:`Match.to_dict`, so a match survives a restart like its game.
Its ``id`` is the stored id of its first game: unique, and found again in the records.

>>> m = Match(to=3, sides=2)
>>> m.start(game_id=12, dealer=1)
>>> m.finish(Outcome(1, (1,), (80, 121), skunk="skunk"), players=2, partnerships=False)
2
>>> m.points, m.next_dealer, m.winner
([0, 2], 0, None)
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping

from noddy.engine import Outcome

#: Match points a won game scores, by its outcome's ``skunk``.
MATCH_POINTS = {"none": 1, "skunk": 2, "double": 4}


def match_points(outcome: Outcome) -> int:
    """What a finished game scores its winner in a match: 1, a skunk 2, a double skunk 4; a
    game not won at the target (a resignation, an abandoned seat) 1.

    >>> match_points(Outcome(0, (0,), (121, 50), skunk="double"))
    4
    """
    return MATCH_POINTS[outcome.skunk] if outcome.ending == "target" else 1


def loser_to_deal(outcome: Outcome, players: int, partnerships: bool, last_first_dealer: int) -> int:
    """Who deals first in the next game: the loser of this one.  Three-handed (or more, each
    alone) the lowest score, a tie going to the first of them clockwise from the last first
    dealer's left; in partnerships the losing team's seat first clockwise from there.

    >>> loser_to_deal(Outcome(1, (1,), (100, 121)), 2, False, 1)
    0
    >>> loser_to_deal(Outcome(0, (0, 2), (121, 90)), 4, True, 1)
    3
    >>> loser_to_deal(Outcome(2, (2,), (50, 40, 121)), 3, False, 0)
    1
    """
    order = [(last_first_dealer + step) % players for step in range(1, players + 1)]
    if partnerships:
        return next(seat for seat in order if seat % 2 != outcome.winner)
    losers = [seat for seat in order if seat != outcome.winner]
    lowest = min(outcome.scores[seat] for seat in losers)
    return next(seat for seat in losers if outcome.scores[seat] == lowest)


@dataclass
class Match:
    """A running (or just won) match; see the module docstring.  ``points`` per side (seat,
    or team in partnerships); ``game`` the number of the current (or last) game in it;
    ``first_dealer`` who dealt that game first (its first game: whom the cut chose);
    ``next_dealer`` who deals the next one first (None: the players cut for it); ``winner`` the side that won the match, once one has."""

    to: int
    sides: int
    id: int | None = None
    points: list[int] = field(default_factory=list)
    game: int = 0
    first_dealer: int | None = None
    next_dealer: int | None = None
    winner: int | None = None
    #: The side that resigned the match (left the table while it ran), if one did.
    resigned: int | None = None
    #: Who sat in each seat when it began: someone else sitting down starts a new match.
    names: list[str | None] = field(default_factory=list)

    def __post_init__(self) -> None:
        if not self.points:
            self.points = [0] * self.sides

    @property
    def over(self) -> bool:
        return self.winner is not None

    def start(self, game_id: int, dealer: int | None) -> None:
        """A game of the match is dealt, ``dealer`` dealing first (the first game names the
        match)."""
        if self.id is None:
            self.id = game_id
        self.game += 1
        self.first_dealer = dealer

    def finish(self, outcome: Outcome, players: int, partnerships: bool) -> int:
        """Score a finished game; returns the match points it scored.  The loser deals the
        next game first."""
        scored = match_points(outcome)
        self.points[outcome.winner] += scored
        if self.winner is None and self.points[outcome.winner] >= self.to:  # (not if resigned)
            self.winner = outcome.winner
        assert self.first_dealer is not None
        self.next_dealer = loser_to_deal(outcome, players, partnerships, self.first_dealer)
        return scored

    def resign(self, side: int) -> None:
        """``side`` gives up the match: the other side wins it (three alone: the one of the
        others with the most match points, the first of them on a tie)."""
        self.resigned = side
        others = [s for s in range(self.sides) if s != side]
        self.winner = max(others, key=lambda s: self.points[s])

    def summary(self) -> dict[str, Any]:
        """The table summary's ``match``: the running score, and who played each seat in it
        (a seat left empty after the match still has its player's name to show); once a side
        gave it up, ``resigned`` says which (its winner may have fewer points)."""
        summary = {"to": self.to, "points": list(self.points), "game": self.game, "id": self.id,
                   "winner": self.winner, "names": list(self.names)}
        if self.resigned is not None:
            summary["resigned"] = self.resigned
        return summary

    def for_game(self, finished: bool = False) -> dict[str, Any]:
        """What a game's record says of its match: which match, which game of it, who dealt
        first (in its first game, whom the cut chose), the points (before the game, or after it once ``finished``)
        and the match's winner once decided."""
        data = {"id": self.id, "game": self.game, "to": self.to, "first_dealer": self.first_dealer,
                "points": list(self.points)}
        if finished:
            data["winner"] = self.winner
            if self.resigned is not None:
                data["resigned"] = self.resigned
        return data

    def to_dict(self) -> dict[str, Any]:
        """All of it, for the table's stored state."""
        return {"to": self.to, "sides": self.sides, "id": self.id, "points": list(self.points),
                "game": self.game, "first_dealer": self.first_dealer,
                "next_dealer": self.next_dealer, "winner": self.winner, "resigned": self.resigned,
                "names": list(self.names)}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> "Match":
        return cls(data["to"], data["sides"], data.get("id"), list(data["points"]),
                   data.get("game", 0), data.get("first_dealer"), data.get("next_dealer"),
                   data.get("winner"), data.get("resigned"), list(data.get("names") or []))
