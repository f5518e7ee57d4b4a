"""What happened: the events that :meth:`Game.apply` returns, in the order they happened.

Events are frozen values.  Some carry cards that only one seat may see (the cards dealt to
it, what it laid away, a show made before the play under the Noddy presets); for those,
:meth:`Event.for_seat` returns the version a given seat or spectator (``None``) is entitled
to, with the hidden cards removed.  The table layer sends ``event.for_seat(s).to_dict()`` to
each seat ``s``, so hidden cards cannot leak by accident: the redaction lives here, beside
the data, not in the code that sends it.
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace
from typing import Any, ClassVar

from .cards import Card
from .scoring import ScoreItem, announce


def _plain(value: Any) -> Any:
    """Cards to their text, score items to dicts, tuples to lists: ready for JSON."""
    if isinstance(value, Card):
        return str(value)
    if isinstance(value, ScoreItem):
        return value.to_dict()
    if isinstance(value, (tuple, list)):
        return [_plain(v) for v in value]
    return value


#: Each event class's field names, in order (see :meth:`Event.to_dict`).
_FIELD_NAMES: dict[type, tuple[str, ...]] = {}


@dataclass(frozen=True, slots=True)
class Event:
    """Base class.  ``kind`` names the event on the wire (``"played"``, ``"scored"``...)."""

    kind: ClassVar[str] = "event"

    def for_seat(self, seat: int | None) -> "Event":
        """This event as ``seat`` (``None``: a spectator) may see it.  Public by default."""
        return self

    def to_dict(self) -> dict[str, Any]:
        names = _FIELD_NAMES.get(type(self))
        if names is None:  # dataclasses.fields() is slow enough to show in the server's profile
            names = _FIELD_NAMES[type(self)] = tuple(f.name for f in fields(self))
        data: dict[str, Any] = {"kind": self.kind}
        for name in names:
            data[name] = _plain(getattr(self, name))
        return data


@dataclass(frozen=True, slots=True)
class GameStarted(Event):
    preset: str
    players: int
    partnerships: bool
    target: int
    kind: ClassVar[str] = "game_started"


@dataclass(frozen=True, slots=True)
class CutForDeal(Event):
    """Each seat's cut for the first deal; ``dealer`` is None when the lowest tied."""

    cuts: tuple[tuple[int, Card], ...]
    dealer: int | None
    kind: ClassVar[str] = "cut_for_deal"

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "dealer": self.dealer,
                "cuts": [{"seat": seat, "card": str(card)} for seat, card in self.cuts]}


@dataclass(frozen=True, slots=True)
class DealStarted(Event):
    deal: int
    dealer: int
    kind: ClassVar[str] = "deal_started"


@dataclass(frozen=True, slots=True)
class CardsDealt(Event):
    """``seat`` was dealt ``count`` cards; only that seat sees which (``cards``)."""

    seat: int
    count: int
    cards: tuple[Card, ...] | None
    kind: ClassVar[str] = "cards_dealt"

    def for_seat(self, seat: int | None) -> Event:
        return self if seat == self.seat else replace(self, cards=None)


@dataclass(frozen=True, slots=True)
class Discarded(Event):
    """Cards laid away to the crib by ``seat`` (``None``: the card the pack gives the crib
    in three-handed Cribbage).  Nobody but the discarder sees them until the crib is shown."""

    seat: int | None
    count: int
    cards: tuple[Card, ...] | None
    kind: ClassVar[str] = "discarded"

    def for_seat(self, seat: int | None) -> Event:
        if self.seat is not None and seat == self.seat:
            return self
        return replace(self, cards=None)


@dataclass(frozen=True, slots=True)
class TurnedUp(Event):
    card: Card
    kind: ClassVar[str] = "turned_up"


@dataclass(frozen=True, slots=True)
class Scored(Event):
    """``seat`` pegged ``points`` for ``reason``: ``"first deal"``, ``"turn-up"``, ``"play"``,
    ``"show"`` or ``"crib"``.  ``scores`` are everyone's totals after it (per team in a
    partnership game).  A show carries the cards shown; under the Noddy presets the show
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

    def for_seat(self, seat: int | None) -> Event:
        if not self.concealed or seat == self.seat:
            return self
        # What the others hear is the announcement, which names combinations, not cards.
        return replace(self, cards=None, spoken=announce(self.items, concealed=True),
                       items=tuple(ScoreItem(i.kind, i.points, ()) for i in self.items))

    @property
    def announcement(self) -> str:
        """``"fifteen two, a pair four"``: how the player calls it."""
        return self.spoken if self.spoken is not None else announce(self.items)

    def to_dict(self) -> dict[str, Any]:
        data = Event.to_dict(self)
        del data["spoken"]
        data["announcement"] = self.announcement
        return data


@dataclass(frozen=True, slots=True)
class Played(Event):
    seat: int
    card: Card
    count: int
    kind: ClassVar[str] = "played"


@dataclass(frozen=True, slots=True)
class SaidGo(Event):
    seat: int
    kind: ClassVar[str] = "go"


@dataclass(frozen=True, slots=True)
class CountReset(Event):
    """The count went back to 0 (after 31, or when nobody could play on)."""

    kind: ClassVar[str] = "count_reset"


@dataclass(frozen=True, slots=True)
class HandsRevealed(Event):
    """At the end of a deal: every seat's hand as it stood after the discards, and the crib."""

    hands: tuple[tuple[Card, ...], ...]
    crib: tuple[Card, ...] | None
    kind: ClassVar[str] = "hands_revealed"


@dataclass(frozen=True, slots=True)
class DealEnded(Event):
    deal: int
    scores: tuple[int, ...]
    kind: ClassVar[str] = "deal_ended"


@dataclass(frozen=True, slots=True)
class GameOver(Event):
    """``winner`` is a seat, or a team (0: seats 0 and 2; 1: seats 1 and 3)."""

    winner: int
    winning_seats: tuple[int, ...]
    scores: tuple[int, ...]
    kind: ClassVar[str] = "game_over"


EVENT_TYPES: dict[str, type[Event]] = {
    cls.kind: cls
    for cls in (GameStarted, CutForDeal, DealStarted, CardsDealt, Discarded, TurnedUp, Scored,
                Played, SaidGo, CountReset, HandsRevealed, DealEnded, GameOver)
}
