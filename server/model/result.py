"""A finished game's result as the server tells and keeps it: the engine's outcome plus the
server's own facts about the game.

The engine's :class:`~noddy.engine.Outcome` says who won, the scores and how the game ended:
what the rules decide.  What only the server knows -- how long the game took -- is not the
engine's business, so it is not put there: a :class:`GameResult` carries the outcome and the
server's facts together, and is the one value the ``game_over`` event and the stored
record's ``result`` (which the statistics and the text renderer read) are made from.  (Who
sat where and the match are kept beside the result in the record, as ``seats`` and ``match``.)

Its dict is the outcome's keys followed by the server's (``duration_s``).  Reading a dict
back keeps every key it does not know (after the known ones): a result stored by a newer
server, with a field this one has never heard of, goes through storage and back out to
``get_game`` and ``--export-game`` with it.  A result stored before a field existed reads
with the field's default (``duration_s``: None).  Adding a field is therefore one edit here
(with its default) and one where its value is made.

>>> from noddy.engine import Outcome
>>> result = GameResult(Outcome(1, (1,), (90, 121)), duration_s=312.5)
>>> result.to_dict()
{'winner': 1, 'winning_seats': [1], 'scores': [90, 121], 'ending': 'target', 'skunk': 'none', 'duration_s': 312.5}
>>> GameResult.from_dict({**result.to_dict(), "weather": "fair"}).to_dict()["weather"]
'fair'
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping, Sequence

from noddy.engine import Outcome
from noddy.engine.events import GameOver

#: Decimal places a duration is given to: a tenth of a second says how long a game took
#: (seconds to hours) without pretending to more than the clock's word.
DURATION_DIGITS = 1

#: The keys the server adds to the outcome's; every other key the outcome does not know is
#: kept as it came (see :meth:`GameResult.from_dict`).
_SERVER_KEYS: tuple[str, ...] = ("duration_s", "names", "played_to")


def duration_between(started_at: float | None, finished_at: float) -> float | None:
    """Seconds from a game's first deal (``started_at``) to its end, on the server's wall
    clock (the one its records' ``started_at`` and ``finished_at`` are read on); None when the
    start is not known.  Never negative: a wall clock set back mid-game gives 0.

    >>> duration_between(1000.0, 1312.46), duration_between(None, 5.0), duration_between(9.0, 5.0)
    (312.5, None, 0.0)
    """
    if started_at is None:
        return None
    return round(max(0.0, finished_at - started_at), DURATION_DIGITS)


@dataclass(frozen=True)
class GameResult:
    """A finished game's :class:`Outcome` and the server's facts about it.

    ``duration_s``: seconds from the first deal to the end (None: not known -- a result stored
    before the field existed, or a game restored by a server that did not keep its start).
    ``unknown``: keys of a stored result that this version
    does not know (a newer server's), kept so they are written back out as they came."""

    outcome: Outcome
    duration_s: float | None = None
    unknown: Mapping[str, Any] = field(default_factory=dict)
    #: Who sat in each seat when the game was dealt -- given only when someone resigned or
    #: left a seat never taken back, so the result names *them*, not the computer that
    #: played their seat on (issue 33).
    names: tuple[str | None, ...] | None = None
    #: The scores on the board when the game ended, as played, when the result counts
    #: others (a seat left and never taken back: the scores when it was left; issue 33).
    played_to: tuple[int, ...] | None = None

    def to_dict(self) -> dict[str, Any]:
        """The result as records and the ``game_over`` event carry it."""
        data = {**self.outcome.to_dict(), "duration_s": self.duration_s}
        if self.names is not None:
            data["names"] = list(self.names)
        if self.played_to is not None:
            data["played_to"] = list(self.played_to)
        return {**data, **self.unknown}

    def event_dict(self) -> dict[str, Any]:
        """The ``game_over`` event's dict: the outcome's event with the server's facts."""
        return {"kind": GameOver.kind, **self.to_dict()}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> "GameResult":
        """A result as :meth:`to_dict` of this or any other version gave it (an engine
        outcome's dict alone reads with the server's facts unknown).  Raises ``ValueError``
        (or ``KeyError``/``TypeError``) for a dict that holds no outcome."""
        outcome = Outcome.from_dict(data)
        known = set(outcome.to_dict()) | set(_SERVER_KEYS) | {"resigned", "abandoned"}
        duration = data.get("duration_s")
        if duration is not None and (isinstance(duration, bool) or not isinstance(duration, int | float)):
            raise ValueError(f"a game's duration is a number of seconds, not {duration!r}")
        names, played_to = data.get("names"), data.get("played_to")
        return cls(outcome, duration, {k: v for k, v in data.items() if k not in known},
                   None if not isinstance(names, list) else tuple(names),
                   None if not isinstance(played_to, list) else tuple(played_to))


def game_result(outcome: Outcome, duration_s: float | None, seats: Sequence[Mapping[str, Any]],
                players: int, board: Sequence[int]) -> GameResult:
    """A game's result with the server's facts: how long it took (``duration_s``) and, when
    someone resigned or left, who sat where as dealt (``seats``, the record's) -- so the
    result names who left, not their stand-in -- and the ``board`` as played when the result
    counts other scores (a seat left and never taken back; issue 33)."""
    names = played_to = None
    if outcome.resigned or outcome.abandoned:
        by_seat = {entry["seat"]: entry["name"] for entry in seats}
        names = tuple(by_seat.get(seat) for seat in range(players))
    if outcome.ending == "abandoned" and list(board) != list(outcome.scores):
        played_to = tuple(board)
    return GameResult(outcome, duration_s, names=names, played_to=played_to)


def stored_result(stored: Any) -> Any:
    """A stored result as this version gives it out: an older one gains the fields added
    since (with their defaults), a newer one keeps the fields this version does not know;
    one that is no result at all is passed on as it is."""
    if not isinstance(stored, Mapping):
        return stored
    try:
        return GameResult.from_dict(stored).to_dict()
    except (KeyError, TypeError, ValueError):
        return stored


class FinishedGameOver(GameOver):
    """The engine's ``game_over`` event as the server publishes it: with the server's facts
    (:class:`GameResult`), so the live message, a later snapshot's log and the stored result
    say the same.  It is still a :class:`GameOver` to everything that asks."""

    __slots__ = ("result",)

    def __init__(self, result: GameResult) -> None:
        super().__init__(result.outcome)
        object.__setattr__(self, "result", result)

    def to_dict(self) -> dict[str, Any]:
        return self.result.event_dict()
