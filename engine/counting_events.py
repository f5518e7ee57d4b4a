"""What happened while a show was counted by hand (option ``counting: "manual"``; see
:mod:`.by_hand`): the events of the claim and muggins steps."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from .cards import Card
from .event import Event, texts
from .score_items import ScoreItem, announce


# -- counting by hand (option ``counting: "manual"``) ---------------------------------------
# A show counted by hand is told in this order: ``counting`` (whose show it is, with its
# cards, now public), ``claimed`` (the owner's claim), a ``scored`` for the claim (reason "claim", if it is more than 0), then for each
# opponent in turn a ``muggins`` call (with a ``scored``, reason "muggins", when it is right)
# or ``passed``, and last ``counted``: the show's true worth and its items.  Nothing before
# ``counted`` tells what the show is worth.


@dataclass(frozen=True, slots=True)
class CountingStarted(Event):
    """``seat``'s ``reason`` (``"show"`` or ``"crib"``) is to be counted by hand: ``cards``,
    public from now on (the crib is turned over), with the ``turn_up`` they count with; its
    owner is to claim."""

    seat: int
    reason: str
    cards: tuple[Card, ...]
    turn_up: Card
    kind: ClassVar[str] = "counting"

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "seat": self.seat, "reason": self.reason,
                "cards": texts(self.cards), "turn_up": self.turn_up.text}


@dataclass(frozen=True, slots=True)
class Claimed(Event):
    """``seat`` claims ``points`` for its ``reason`` (``"show"`` or ``"crib"``) of ``cards``."""

    seat: int
    reason: str
    cards: tuple[Card, ...]
    points: int
    kind: ClassVar[str] = "claimed"

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "seat": self.seat, "reason": self.reason,
                "cards": texts(self.cards), "points": self.points}


@dataclass(frozen=True, slots=True)
class ClaimRefused(Event):
    """``seat`` claimed ``points`` for its ``reason``, more than the show holds.  The first
    such claim of a show is refused (the owner claims again); the second stands as a claim
    of 0 (``counts_as_zero``; a ``claimed`` of 0 follows).  Only ``seat`` is told: to anyone
    else a refusal would say something of the show's worth before its ``counted``."""

    seat: int
    reason: str
    points: int
    counts_as_zero: bool
    kind: ClassVar[str] = "claim_refused"
    always_public: ClassVar[bool] = False
    private: ClassVar[bool] = True

    def for_seat(self, seat: int | None) -> Event | None:
        return self if seat == self.seat else None

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "seat": self.seat, "reason": self.reason, "points": self.points,
                "counts_as_zero": self.counts_as_zero}


@dataclass(frozen=True, slots=True)
class MugginsCalled(Event):
    """``seat`` called muggins on ``owner``'s claim, saying the show holds ``points``;
    ``right`` when it does and the claim fell short (the caller pegs the difference)."""

    seat: int
    owner: int
    points: int
    right: bool
    kind: ClassVar[str] = "muggins"

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "seat": self.seat, "owner": self.owner,
                "points": self.points, "right": self.right}


@dataclass(frozen=True, slots=True)
class MugginsPassed(Event):
    """``seat`` let ``owner``'s claim stand."""

    seat: int
    owner: int
    kind: ClassVar[str] = "passed"

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "seat": self.seat, "owner": self.owner}


@dataclass(frozen=True, slots=True)
class ShowCounted(Event):
    """The muggins step of ``seat``'s show is over: what it was ``worth`` (with ``items``),
    what was ``claimed``, who mugged it (``mugged_by``, or None) and the points ``lost``
    (missed by the owner and taken by nobody)."""

    seat: int
    reason: str
    cards: tuple[Card, ...]
    claimed: int
    worth: int
    items: tuple[ScoreItem, ...]
    mugged_by: int | None
    lost: int
    kind: ClassVar[str] = "counted"

    @property
    def announcement(self) -> str:
        return announce(self.items)

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "seat": self.seat, "reason": self.reason,
                "cards": texts(self.cards), "claimed": self.claimed, "worth": self.worth,
                "items": [item.to_dict() for item in self.items], "mugged_by": self.mugged_by,
                "lost": self.lost, "announcement": self.announcement}
