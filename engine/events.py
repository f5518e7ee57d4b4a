"""What happened: the events of a deal and a game that :meth:`Game.apply
<noddy.engine.game.Game.apply>` returns, in the order they happened, and every event kind by
its name on the wire (:data:`EVENT_TYPES`).

What an event is -- a frozen value that hides what a seat may not see (:meth:`Event.for_seat`)
and spells out its own ``to_dict`` -- is :mod:`.event`; the events of counting by hand are
:mod:`.counting_events`.  All are importable from here.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from .cards import Card
from .counting_events import Claimed, ClaimRefused, CountingStarted, MugginsCalled, MugginsPassed, ShowCounted
from .event import Event, texts
from .outcome import Outcome
from .score_items import ScoreItem, announce

__all__ = [
    "EVENT_TYPES", "Event", "GameStarted", "CutForDeal", "DealStarted", "CardsDealt", "Discarded",
    "TurnedUp", "Scored", "Played", "SaidGo", "CountReset", "HandsRevealed", "DealEnded",
    "GameOver", "CountingStarted", "Claimed", "ClaimRefused", "MugginsCalled", "MugginsPassed",
    "ShowCounted",
]


#: Sets a field of a frozen event in a class's own ``__init__`` (what dataclasses do).
_set = object.__setattr__

_HIDDEN: dict[tuple[type, int | None, int], "Event"] = {}


def _hidden(cls: type, seat: int | None, count: int) -> "Event":
    """``cls(seat, count, None)``: a deal's or a discard's view without its cards.  There
    are only a few distinct ones (seat by count), and events are immutable, so each is made
    once and shared: every deal sends one to every other seat and spectator."""
    key = (cls, seat, count)
    view = _HIDDEN.get(key)
    if view is None:
        view = _HIDDEN[key] = cls(seat, count, None)
    return view


_BARE_ITEMS: dict[tuple[str, int], ScoreItem] = {}


def _bare_item(kind: str, points: int) -> ScoreItem:
    """``ScoreItem(kind, points, ())``: a concealed show's item as the other seats see it,
    shared like :func:`_hidden`'s views (kinds and points are few)."""
    item = _BARE_ITEMS.get((kind, points))
    if item is None:
        item = _BARE_ITEMS[(kind, points)] = ScoreItem(kind, points, ())
    return item


@dataclass(frozen=True, slots=True)
class GameStarted(Event):
    preset: str
    players: int
    partnerships: bool
    target: int
    kind: ClassVar[str] = "game_started"

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "preset": self.preset, "players": self.players,
                "partnerships": self.partnerships, "target": self.target}


@dataclass(frozen=True, slots=True)
class CutForDeal(Event):
    """Each seat's cut for the first deal; ``dealer`` is None when the lowest tied."""

    cuts: tuple[tuple[int, Card], ...]
    dealer: int | None
    kind: ClassVar[str] = "cut_for_deal"

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "dealer": self.dealer,
                "cuts": [{"seat": seat, "card": card.text} for seat, card in self.cuts]}


@dataclass(frozen=True, slots=True)
class DealStarted(Event):
    deal: int
    dealer: int
    kind: ClassVar[str] = "deal_started"

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "deal": self.deal, "dealer": self.dealer}


@dataclass(frozen=True, slots=True)
class CardsDealt(Event):
    """``seat`` was dealt ``count`` cards; only that seat sees which (``cards``)."""

    seat: int
    count: int
    cards: tuple[Card, ...] | None
    kind: ClassVar[str] = "cards_dealt"
    always_public: ClassVar[bool] = False

    def for_seat(self, seat: int | None) -> Event:
        if seat == self.seat:
            return self
        return _hidden(CardsDealt, self.seat, self.count)

    def to_dict(self) -> dict[str, Any]:
        cards = self.cards
        return {"kind": self.kind, "seat": self.seat, "count": self.count,
                "cards": None if cards is None else texts(cards)}


@dataclass(frozen=True, slots=True)
class Discarded(Event):
    """Cards laid away to the crib by ``seat`` (``None``: the card the pack gives the crib
    in three-handed Cribbage).  Nobody but the discarder sees them until the crib is shown."""

    seat: int | None
    count: int
    cards: tuple[Card, ...] | None
    kind: ClassVar[str] = "discarded"
    always_public: ClassVar[bool] = False

    def for_seat(self, seat: int | None) -> Event:
        if self.seat is not None and seat == self.seat:
            return self
        return _hidden(Discarded, self.seat, self.count)

    def to_dict(self) -> dict[str, Any]:
        cards = self.cards
        return {"kind": self.kind, "seat": self.seat, "count": self.count,
                "cards": None if cards is None else texts(cards)}


@dataclass(frozen=True, slots=True)
class TurnedUp(Event):
    card: Card
    kind: ClassVar[str] = "turned_up"

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "card": self.card.text}


@dataclass(frozen=True, slots=True)
class Scored(Event):
    """``seat`` pegged ``points`` for ``reason``: ``"first deal"``, ``"turn-up"``, ``"play"``,
    ``"show"`` or ``"crib"`` (counting by hand: ``"claim"`` or ``"muggins"``).  ``scores``
    are everyone's totals after it (per team in a partnership game).  A show carries the cards shown; under the Noddy presets the show
    comes before the play and is ``concealed``: other seats hear the points and the kinds
    of combination, not the cards."""

    seat: int
    points: int
    reason: str
    items: tuple[ScoreItem, ...]
    scores: tuple[int, ...]
    cards: tuple[Card, ...] | None = None
    concealed: bool = False
    spoken: str | None = None
    kind: ClassVar[str] = "scored"

    def __init__(self, seat: int, points: int, reason: str, items: tuple[ScoreItem, ...],
                 scores: tuple[int, ...], cards: tuple[Card, ...] | None = None,
                 concealed: bool = False, spoken: str | None = None) -> None:
        # The dataclass's own __init__, written out with a bound setter: a frozen class's
        # generated one looks ``object.__setattr__`` up for every field, and this is the
        # commonest event after Played (every point pegged, every seat's view of a show).
        _set(self, "seat", seat)
        _set(self, "points", points)
        _set(self, "reason", reason)
        _set(self, "items", items)
        _set(self, "scores", scores)
        _set(self, "cards", cards)
        _set(self, "concealed", concealed)
        _set(self, "spoken", spoken)

    @property
    def always_public(self) -> bool:
        """Only a concealed show hides anything (its cards, from the other seats)."""
        return not self.concealed

    def for_seat(self, seat: int | None) -> Event:
        if not self.concealed or seat == self.seat:
            return self
        # What the others hear is the announcement, which names combinations, not cards.
        return Scored(self.seat, self.points, self.reason,
                      tuple([_bare_item(i.kind, i.points) for i in self.items]), self.scores,
                      None, self.concealed, announce(self.items, concealed=True))

    @property
    def announcement(self) -> str:
        """``"fifteen two, a pair four"``: how the player calls it."""
        return self.spoken if self.spoken is not None else announce(self.items)

    def to_dict(self) -> dict[str, Any]:
        """The fields in order, but the announcement in place of ``spoken``."""
        cards, spoken = self.cards, self.spoken
        return {"kind": self.kind, "seat": self.seat, "points": self.points, "reason": self.reason,
                "items": [item.to_dict() for item in self.items], "scores": list(self.scores),
                "cards": None if cards is None else texts(cards), "concealed": self.concealed,
                "announcement": spoken if spoken is not None else announce(self.items)}


@dataclass(frozen=True, slots=True)
class Played(Event):
    seat: int
    card: Card
    count: int
    kind: ClassVar[str] = "played"

    def __init__(self, seat: int, card: Card, count: int) -> None:
        # Written out for speed, as Scored's (every card played makes one).
        _set(self, "seat", seat)
        _set(self, "card", card)
        _set(self, "count", count)

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "seat": self.seat, "card": self.card.text, "count": self.count}


@dataclass(frozen=True, slots=True)
class SaidGo(Event):
    seat: int
    kind: ClassVar[str] = "go"

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "seat": self.seat}


@dataclass(frozen=True, slots=True)
class CountReset(Event):
    """The count went back to 0 (after 31, or when nobody could play on)."""

    kind: ClassVar[str] = "count_reset"

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind}


@dataclass(frozen=True, slots=True)
class HandsRevealed(Event):
    """At the end of a deal: every seat's hand as it stood after the discards, and the crib."""

    hands: tuple[tuple[Card, ...], ...]
    crib: tuple[Card, ...] | None
    kind: ClassVar[str] = "hands_revealed"

    def to_dict(self) -> dict[str, Any]:
        crib = self.crib
        return {"kind": self.kind, "hands": [texts(hand) for hand in self.hands],
                "crib": None if crib is None else texts(crib)}


@dataclass(frozen=True, slots=True)
class DealEnded(Event):
    deal: int
    scores: tuple[int, ...]
    kind: ClassVar[str] = "deal_ended"

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "deal": self.deal, "scores": list(self.scores)}


@dataclass(frozen=True, slots=True)
class GameOver(Event):
    """The game is over: its :class:`~noddy.engine.outcome.Outcome`, the one value every
    reader of a result reads (``winner`` is a seat, or a team: 0 is seats 0 and 2)."""

    outcome: Outcome
    kind: ClassVar[str] = "game_over"

    @property
    def winner(self) -> int:
        return self.outcome.winner

    @property
    def winning_seats(self) -> tuple[int, ...]:
        return self.outcome.winning_seats

    @property
    def scores(self) -> tuple[int, ...]:
        return self.outcome.scores

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, **self.outcome.to_dict()}


EVENT_TYPES: dict[str, type[Event]] = {
    cls.kind: cls
    for cls in (GameStarted, CutForDeal, DealStarted, CardsDealt, Discarded, TurnedUp, Scored,
                Played, SaidGo, CountReset, HandsRevealed, DealEnded, GameOver, Claimed,
                CountingStarted, MugginsCalled, MugginsPassed, ShowCounted, ClaimRefused)
}
