"""What a player can do: lay cards away to the crib, play a card, or say go; and, when
shows are counted by hand (option ``counting: "manual"``), claim a hand's points, call
muggins on a claim that fell short, or pass.

Actions are small frozen values with a text round trip, like python-chess's moves:

>>> Play(0, "5H")
Play(seat=0, card=Card.parse('5H'))
>>> str(Discard(1, ("KS", "2C"))), Action.parse(1, "discard KS 2C") == Discard(1, ("2C", "KS"))
('discard 2C KS', True)
>>> Action.parse(0, "claim 12"), str(Muggins(1, 16))
(Claim(seat=0, points=12), 'muggins 16')
"""

from __future__ import annotations

from dataclasses import dataclass
from operator import methodcaller
from typing import ClassVar, Iterable

from .cards import FULL_DECK, SORT_KEY, TEXT, Card, format_cards, parse_cards
from .errors import N_, EngineText, IllegalActionError

#: The most points any show can hold (a cribbage hand of 5-5-5-J with the fourth 5 turned
#: up): the top of the range of a claim or a muggins call.
MAX_CLAIM = 29

_SAY = EngineText(N_("say 'play CARD', 'go', 'discard CARDS', 'claim N', 'muggins N' or 'pass'"))


#: Sets a field of a frozen action in its own constructor (what dataclasses do), bound once:
#: ``legal_actions`` builds every discard of a crib deal this way.
_set = object.__setattr__


def _card(value: Card | str) -> Card:
    return value if isinstance(value, Card) else Card.parse(value)


@dataclass(frozen=True, slots=True)
class Action:
    """Base class: every action names the seat that takes it."""

    seat: int
    verb: ClassVar[str] = ""

    @staticmethod
    def parse(seat: int, text: str) -> "Action":
        """Read ``"play 5H"``, ``"go"``, ``"discard KS 2C"``, ``"claim 12"``, ``"muggins 16"``
        or ``"pass"`` for ``seat``."""
        words = text.split()
        if not words:
            raise IllegalActionError(N_("an empty action; {say}"), say=_SAY)
        verb, rest = words[0].lower(), words[1:]
        if verb == "play" and len(rest) == 1:
            return Play(seat, rest[0])
        if verb == "go" and not rest:
            return Go(seat)
        if verb == "discard" and rest:
            return Discard(seat, rest)
        if verb in ("claim", "muggins") and len(rest) == 1 and rest[0].isdigit() and len(rest[0]) < 4:
            return (Claim if verb == "claim" else Muggins)(seat, int(rest[0]))
        if verb == "pass" and not rest:
            return Pass(seat)
        raise IllegalActionError(N_("not an action: {text!r}; {say}"), text=text, say=_SAY)

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
        _set(self, "seat", seat)
        # _card inlined: every action a client sends is built here.
        _set(self, "card", card if isinstance(card, Card) else Card.parse(card))

    def __str__(self) -> str:
        return f"play {self.card}"

    def to_dict(self, *, with_seat: bool = True) -> dict:
        if with_seat:
            return {"action": "play", "seat": self.seat, "card": self.card.text}
        return {"action": "play", "card": self.card.text}


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
        _set(self, "seat", seat)
        _set(self, "cards", tuple(sorted([_card(c) for c in cards], key=SORT_KEY)))

    def __str__(self) -> str:
        return "discard " + format_cards(self.cards)

    def to_dict(self, *, with_seat: bool = True) -> dict:
        cards = list(map(TEXT, self.cards))
        if with_seat:
            return {"action": "discard", "seat": self.seat, "cards": cards}
        return {"action": "discard", "cards": cards}


@dataclass(frozen=True, slots=True)
class _Points(Action):
    """An action that names a number of points (a claim, a muggins call)."""

    points: int

    def __str__(self) -> str:
        return f"{self.verb} {self.points}"

    def to_dict(self, *, with_seat: bool = True) -> dict:
        if with_seat:
            return {"action": self.verb, "seat": self.seat, "points": self.points}
        return {"action": self.verb, "points": self.points}


@dataclass(frozen=True, slots=True)
class Claim(_Points):
    """Counting by hand: the owner of the show being counted claims ``points`` for it.

    Any claim from 0 to :data:`MAX_CLAIM` is legal.  One above what the show holds is
    refused once (the owner claims again), and a second one stands as a claim of 0; any
    other claim is pegged at once, even one that falls short."""

    verb: ClassVar[str] = "claim"


@dataclass(frozen=True, slots=True)
class Muggins(_Points):
    """Counting by hand: an opponent of the owner says the show is worth ``points``, more
    than was claimed.  Right, it pegs the difference to the caller; wrong, nothing."""

    verb: ClassVar[str] = "muggins"


@dataclass(frozen=True, slots=True)
class Pass(Action):
    """Counting by hand: an opponent lets the claim stand (calls no muggins)."""

    verb: ClassVar[str] = "pass"

    def __str__(self) -> str:
        return "pass"


@dataclass(frozen=True, slots=True)
class Resign(Action):
    """The seat's person gives the game up (see :mod:`noddy.engine.leaving`).  Never among
    ``legal_actions``: a player chooses it, no search or bot ever should."""

    verb: ClassVar[str] = "resign"

    def __str__(self) -> str:
        return "resign"


@dataclass(frozen=True, slots=True)
class Abandon(Action):
    """The seat's person left and did not come back in time; someone else (a computer)
    plays the seat on.  Not a choice of the seat: the server takes it for them."""

    verb: ClassVar[str] = "abandon"

    def __str__(self) -> str:
        return "abandon"


@dataclass(frozen=True, slots=True)
class TakeBack(Action):
    """The person who abandoned the seat is back and plays it again: it is not abandoned."""

    verb: ClassVar[str] = "take_back"

    def __str__(self) -> str:
        return "take_back"


#: ``_AS_OFFERED(action) == action.to_dict(with_seat=False)``, mapped over a turn's legal
#: actions without a Python-level loop (every turn describes them).
_AS_OFFERED = methodcaller("to_dict", with_seat=False)

_PLAYS: dict[int, tuple[Play, ...]] = {}
_GOES: dict[int, Go] = {}


def sorted_discards(seat: int, choices: Iterable[tuple[Card, ...]]) -> list[Discard]:
    """A discard by ``seat`` of each of ``choices``, which the caller guarantees are tuples
    of Cards already in sorted order (e.g. the combinations of a sorted hand): no parsing,
    no sort, and one call for them all.  ``legal_actions`` builds every discard this way; a
    cribbage deal offers 15 of them to each seat."""
    new, cls = object.__new__, Discard
    out = []
    for cards in choices:
        action = new(cls)
        _set(action, "seat", seat)
        _set(action, "cards", cards)
        out.append(action)
    return out


def plays_of(seat: int) -> tuple[Play, ...]:
    """``plays_of(seat)[card.index] == Play(seat, card)`` for each of the 52 cards.

    Actions are immutable values, so :meth:`Game.legal_actions` hands out these shared ones
    instead of building a Play per playable card at every turn (made once per seat)."""
    plays = _PLAYS.get(seat)
    if plays is None:
        plays = _PLAYS[seat] = tuple([Play(seat, card) for card in FULL_DECK])
    return plays


def go_of(seat: int) -> Go:
    """``Go(seat)``, shared for the same reason as :func:`plays_of`."""
    go = _GOES.get(seat)
    if go is None:
        go = _GOES[seat] = Go(seat)
    return go


def describe_legal(actions: Iterable[Action]) -> list[dict]:
    """Legal actions as a client is told them (``to_dict(with_seat=False)`` each), except
    that the claims and muggins calls, one per number, are described as one range each:
    ``{"action": "claim", "min": 0, "max": 29}``.  A claim's range on the wire is always 0 to
    :data:`MAX_CLAIM`, whatever the hand holds (as the engine's legal claims are), so that a
    seat is never told its show's worth before it has claimed.

    >>> describe_legal([Muggins(1, 13), Muggins(1, 14), Pass(1)])
    [{'action': 'muggins', 'min': 13, 'max': 14}, {'action': 'pass'}]
    """
    actions = list(actions)
    if not actions or not isinstance(actions[0], _Points):
        # (Claims and calls come first when offered: every other turn is as it always was.)
        return list(map(_AS_OFFERED, actions))
    out: list[dict] = []
    ranges: dict[str, dict] = {}
    for action in actions:
        if isinstance(action, (Claim, Muggins)):
            verb = action.verb
            if verb not in ranges:
                low = 0 if isinstance(action, Claim) else action.points
                ranges[verb] = {"action": verb, "min": low,
                                "max": MAX_CLAIM if isinstance(action, Claim) else action.points}
                out.append(ranges[verb])
            elif isinstance(action, Muggins):
                ranges[verb]["max"] = max(ranges[verb]["max"], action.points)
        else:
            out.append(action.to_dict(with_seat=False))
    return out


__all__ = ["Action", "Play", "Go", "Discard", "Claim", "Muggins", "Pass", "MAX_CLAIM",
           "describe_legal", "parse_cards"]
