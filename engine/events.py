"""What happened: the events that :meth:`Game.apply` returns, in the order they happened.

Events are frozen values.  Some carry cards that only one seat may see (the cards dealt to
it, what it laid away, a show made before the play under the Noddy presets); for those,
:meth:`Event.for_seat` returns the version a given seat or spectator (``None``) is entitled
to, with the hidden cards removed, or ``None`` when that seat is not told of the event at all
(a claim refused, counting by hand: only its claimer hears of it).  The table layer sends
``event.for_seat(s).to_dict()`` to each seat ``s`` that has a view, so hidden cards cannot
leak by accident: the redaction lives here, beside the data, not in the code that sends it.

Every event class spells out its own :meth:`~Event.to_dict`: the server builds these dicts
for every event it stores and sends, and the generic walk over the fields (kept in the base
class for any event class that does not) was the top of its profile.  Each ``to_dict``
returns a new dict, which the caller may keep or change; the key order is the wire order.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any, ClassVar

from .cards import Card
from .outcome import Outcome
from .scoring import ScoreItem, announce


def _texts(cards: tuple[Card, ...]) -> list[str]:
    """Cards as their texts, in order: ``["5H", "TC"]``."""
    return [card.text for card in cards]


def _plain(value: Any) -> Any:
    """Cards to their text, score items to dicts, tuples to lists: ready for JSON."""
    if isinstance(value, Card):
        return str(value)
    if isinstance(value, ScoreItem):
        return value.to_dict()
    if isinstance(value, (tuple, list)):
        return [_plain(v) for v in value]
    return value


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


#: Each event class's field names, in order (see :meth:`Event.to_dict`).
_FIELD_NAMES: dict[type, tuple[str, ...]] = {}


@dataclass(frozen=True, slots=True)
class Event:
    """Base class.  ``kind`` names the event on the wire (``"played"``, ``"scored"``...)."""

    kind: ClassVar[str] = "event"

    #: True when this event hides nothing: ``for_seat`` returns the event itself for every
    #: seat, so a sender may give all seats one message without asking each view.  A class
    #: that redacts in ``for_seat`` overrides this too: with ``False``, or with a property
    #: where it depends on the event (:class:`Scored`).  A plain class attribute, not a
    #: property, because the server asks it of every event it sends.
    always_public: ClassVar[bool] = True

    #: True for an event that only its own seat is told of (:class:`ClaimRefused`): the others
    #: get no message for it at all, so it takes no number in a table's message sequence.
    private: ClassVar[bool] = False

    def for_seat(self, seat: int | None) -> "Event | None":
        """This event as ``seat`` (``None``: a spectator) may see it, or None when ``seat``
        is not told of it (a :attr:`private` event).  Public by default."""
        return self

    def to_dict(self) -> dict[str, Any]:
        """The event on the wire: ``kind``, then every field in order, made plain for JSON.

        Generic and slow, for an event class that does not spell out its own; the classes
        below all do, and each must give exactly what this would."""
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
                "cards": None if cards is None else _texts(cards)}


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
                "cards": None if cards is None else _texts(cards)}


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
                "cards": None if cards is None else _texts(cards), "concealed": self.concealed,
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
        return {"kind": self.kind, "hands": [_texts(hand) for hand in self.hands],
                "crib": None if crib is None else _texts(crib)}


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
                "cards": _texts(self.cards), "turn_up": self.turn_up.text}


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
                "cards": _texts(self.cards), "points": self.points}


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
                "cards": _texts(self.cards), "claimed": self.claimed, "worth": self.worth,
                "items": [item.to_dict() for item in self.items], "mugged_by": self.mugged_by,
                "lost": self.lost, "announcement": self.announcement}


EVENT_TYPES: dict[str, type[Event]] = {
    cls.kind: cls
    for cls in (GameStarted, CutForDeal, DealStarted, CardsDealt, Discarded, TurnedUp, Scored,
                Played, SaidGo, CountReset, HandsRevealed, DealEnded, GameOver, Claimed,
                CountingStarted, MugginsCalled, MugginsPassed, ShowCounted, ClaimRefused)
}
