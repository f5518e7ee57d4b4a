"""What every event is: :class:`Event`, the base class of the events :meth:`Game.apply
<noddy.engine.game.Game.apply>` returns (:mod:`.events`, :mod:`.counting_events`).

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
from .score_items import ScoreItem


def texts(cards: tuple[Card, ...]) -> list[str]:
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


#: Each event class's field names, in order (see :meth:`Event.to_dict`).
_FIELD_NAMES: dict[type, tuple[str, ...]] = {}


@dataclass(frozen=True, slots=True)
class Event:
    """Base class.  ``kind`` names the event on the wire (``"played"``, ``"scored"``...)."""

    kind: ClassVar[str] = "event"

    #: True when this event hides nothing: ``for_seat`` returns the event itself for every
    #: seat, so a sender may give all seats one message without asking each view.  A class
    #: that redacts in ``for_seat`` overrides this too: with ``False``, or with a property
    #: where it depends on the event (:class:`~.events.Scored`).  A plain class attribute, not a
    #: property, because the server asks it of every event it sends.
    always_public: ClassVar[bool] = True

    #: True for an event that only its own seat is told of
    #: (:class:`~.counting_events.ClaimRefused`): the others get no message for it at all, so
    #: it takes no number in a table's message sequence.
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
