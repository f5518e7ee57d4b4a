"""What a player can do: lay cards away to the crib, play a card, or say go.

Actions are small frozen values with a text round trip, like python-chess's moves:

>>> Play(0, "5H")
Play(seat=0, card=Card.parse('5H'))
>>> str(Discard(1, ("KS", "2C"))), Action.parse(1, "discard KS 2C") == Discard(1, ("2C", "KS"))
('discard 2C KS', True)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, Iterable

from .cards import Card, format_cards, parse_cards
from .errors import IllegalActionError


def _card(value: Card | str) -> Card:
    return value if isinstance(value, Card) else Card.parse(value)


@dataclass(frozen=True, slots=True)
class Action:
    """Base class: every action names the seat that takes it."""

    seat: int
    verb: ClassVar[str] = ""

    @staticmethod
    def parse(seat: int, text: str) -> "Action":
        """Read ``"play 5H"``, ``"go"`` or ``"discard KS 2C"`` for ``seat``."""
        words = text.split()
        if not words:
            raise IllegalActionError("an empty action; say 'play CARD', 'go' or 'discard CARDS'")
        verb, rest = words[0].lower(), words[1:]
        if verb == "play" and len(rest) == 1:
            return Play(seat, rest[0])
        if verb == "go" and not rest:
            return Go(seat)
        if verb == "discard" and rest:
            return Discard(seat, rest)
        raise IllegalActionError(f"not an action: {text!r}; say 'play CARD', 'go' or 'discard CARDS'")

    def to_dict(self, *, with_seat: bool = True) -> dict:
        """``{"action": verb, "seat": seat, ...}``.  Without the seat, it is the action as a
        client sends it (the server knows the seat): the form of a turn's legal actions."""
        return {"action": self.verb, "seat": self.seat} if with_seat else {"action": self.verb}


@dataclass(frozen=True, slots=True)
class Play(Action):
    """Play ``card`` to the pile, adding its value to the running count."""

    card: Card
    verb: ClassVar[str] = "play"

    def __init__(self, seat: int, card: Card | str) -> None:
        object.__setattr__(self, "seat", seat)
        # _card inlined: every turn builds a Play per playable card.
        object.__setattr__(self, "card", card if isinstance(card, Card) else Card.parse(card))

    def __str__(self) -> str:
        return f"play {self.card}"

    def to_dict(self, *, with_seat: bool = True) -> dict:
        if with_seat:
            return {"action": "play", "seat": self.seat, "card": str(self.card)}
        return {"action": "play", "card": str(self.card)}


@dataclass(frozen=True, slots=True)
class Go(Action):
    """Say go: no card in hand can be played without passing 31."""

    verb: ClassVar[str] = "go"

    def __str__(self) -> str:
        return "go"


@dataclass(frozen=True, slots=True)
class Discard(Action):
    """Lay ``cards`` away to the dealer's crib (kept sorted, so order does not matter)."""

    cards: tuple[Card, ...]
    verb: ClassVar[str] = "discard"

    def __init__(self, seat: int, cards: Iterable[Card | str]) -> None:
        object.__setattr__(self, "seat", seat)
        object.__setattr__(self, "cards", tuple(sorted(_card(c) for c in cards)))

    @classmethod
    def _sorted(cls, seat: int, cards: tuple[Card, ...]) -> "Discard":
        """A discard of ``cards``, which the caller guarantees are Cards already in sorted
        order (e.g. a combination of a sorted hand): no parsing, no sort.  ``legal_actions``
        builds every discard this way; a cribbage deal offers 15 of them."""
        action = object.__new__(cls)
        object.__setattr__(action, "seat", seat)
        object.__setattr__(action, "cards", cards)
        return action

    def __str__(self) -> str:
        return "discard " + format_cards(self.cards)

    def to_dict(self, *, with_seat: bool = True) -> dict:
        cards = [str(c) for c in self.cards]
        if with_seat:
            return {"action": "discard", "seat": self.seat, "cards": cards}
        return {"action": "discard", "cards": cards}


__all__ = ["Action", "Play", "Go", "Discard", "parse_cards"]
