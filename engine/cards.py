"""Cards and the deck: the value types every other part of the engine is built from.

A card is written on the wire and in tests as two characters, rank then suit: ``"TH"`` is
the ten of hearts, ``"5S"`` the five of spades (``"10H"`` is accepted on input).  There are
exactly 52 :class:`Card` objects; ``Card.parse`` and ``Card(rank, suit)`` always hand back the
same instance, so cards compare and hash as cheaply as small integers, which matters when a
bot scores millions of hands.

>>> Card.parse("TH")
Card.parse('TH')
>>> str(Card.parse("10h")), Card.parse("KS").value, Card.parse("AC").rank
('TH', 10, 1)
"""

from __future__ import annotations

import random
from operator import attrgetter
from typing import Iterable, Sequence

from .errors import N_, InvalidCardError

RANK_CHARS = "A23456789TJQK"
SUIT_CHARS = "CDHS"
SUIT_SYMBOLS = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}
SUIT_NAMES = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}
RANK_NAMES = {
    1: "ace", 2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven",
    8: "eight", 9: "nine", 10: "ten", 11: "jack", 12: "queen", 13: "king",
}
JACK = 11


class Card:
    """One of the 52 cards: ``rank`` 1 (ace) to 13 (king), ``suit`` one of ``C D H S``.

    ``value`` is what the card adds to a count (ace 1, court cards 10); ``index`` (0-51) is
    a dense number for tables.  ``text`` is ``str(card)`` and ``sort_key`` an int that
    orders cards as ``<`` does: kept as attributes because the engine writes cards as text
    into every event's and action's dict and sorts every discard and crib, where calls to
    ``__str__`` and ``__lt__`` were a noticeable share.  Instances are interned:
    ``Card(5, "H") is Card.parse("5H")``.
    """

    __slots__ = ("rank", "suit", "value", "index", "rank_bit", "text", "sort_key")

    rank: int
    suit: str
    value: int
    index: int
    rank_bit: int
    text: str
    sort_key: int

    def __new__(cls, rank: int, suit: str) -> "Card":
        try:
            return _BY_RANK_SUIT[(rank, suit)]
        except (KeyError, TypeError):
            raise InvalidCardError(N_("no such card: rank {rank!r}, suit {suit!r}"), rank=rank,
                                   suit=suit) from None

    @classmethod
    def _make(cls, rank: int, suit: str) -> "Card":
        card = object.__new__(cls)
        set_ = object.__setattr__
        set_(card, "rank", rank)
        set_(card, "suit", suit)
        set_(card, "value", min(rank, 10))
        set_(card, "index", SUIT_CHARS.index(suit) * 13 + rank - 1)
        # Four bits a rank: the sum of rank_bit over a hand identifies its multiset of ranks,
        # which is all that fifteens, pairs and runs depend on (see scoring.show_total).
        set_(card, "rank_bit", 1 << (4 * (rank - 1)))
        set_(card, "text", RANK_CHARS[rank - 1] + suit)
        # Orders cards as ``<`` does (rank, then suit): ``sorted(cards, key=SORT_KEY)`` gives
        # ``sorted(cards)`` without a Python-level comparison per pair.
        set_(card, "sort_key", rank * 4 + SUIT_CHARS.index(suit))
        return card

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("cards are immutable")

    @classmethod
    def parse(cls, text: str) -> "Card":
        """Read ``"TH"``, ``"10h"``, ``"5S"``...; raise :class:`InvalidCardError` otherwise."""
        try:  # the form the wire and the engine write (every action a client sends): at once
            return _BY_TEXT[text]
        except (KeyError, TypeError):
            pass
        if not isinstance(text, str):
            raise InvalidCardError(N_("a card is a string like 'TH', not {text!r}"), text=text)
        try:
            return _BY_TEXT[text.strip().upper()]
        except KeyError:
            raise InvalidCardError(
                N_("not a card: {text!r} (rank one of A 2-9 T J Q K, suit one of C D H S, e.g. 'TH')"),
                text=text) from None

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"Card.parse({self.text!r})"

    def __hash__(self) -> int:
        return self.index

    def __lt__(self, other: "Card") -> bool:
        if not isinstance(other, Card):
            return NotImplemented
        return (self.rank, self.suit) < (other.rank, other.suit)

    def __reduce__(self) -> tuple[type, tuple[int, str]]:
        return (Card, (self.rank, self.suit))

    def __copy__(self) -> "Card":
        return self

    def __deepcopy__(self, memo: dict) -> "Card":
        return self

    @property
    def symbol(self) -> str:
        """The card as a person reads it: ``10♥``, ``K♠``."""
        rank = "10" if self.rank == 10 else RANK_CHARS[self.rank - 1]
        return rank + SUIT_SYMBOLS[self.suit]

    @property
    def name(self) -> str:
        """``"king of spades"``: for spoken announcements."""
        return f"{RANK_NAMES[self.rank]} of {SUIT_NAMES[self.suit]}"


#: The key that sorts cards as ``sorted()`` does, fast (see ``Card.sort_key``).
SORT_KEY = attrgetter("sort_key")
#: A card's text, for ``list(map(TEXT, cards))``: the cards of an event or action on the wire,
#: without a Python-level loop (a list comprehension is a function call of its own).
TEXT = attrgetter("text")
#: A card's index, for ``map``: see :meth:`Game.legal_actions`.
INDEX = attrgetter("index")

_BY_RANK_SUIT: dict[tuple[int, str], Card] = {}
_BY_TEXT: dict[str, Card] = {}
for _suit in SUIT_CHARS:
    for _rank in range(1, 14):
        _card = Card._make(_rank, _suit)
        _BY_RANK_SUIT[(_rank, _suit)] = _card
        _BY_TEXT[str(_card)] = _card
        if _rank == 10:
            _BY_TEXT["10" + _suit] = _card

#: The 52 cards in a fixed order (clubs, diamonds, hearts, spades; ace to king).
FULL_DECK: tuple[Card, ...] = tuple(
    sorted(_BY_RANK_SUIT.values(), key=lambda c: c.index)
)


def parse_cards(text: str | Iterable[str]) -> tuple[Card, ...]:
    """Parse ``"TC JH 4H"`` (or a list of card strings) into a tuple of cards."""
    items = text.split() if isinstance(text, str) else list(text)
    return tuple(Card.parse(item) for item in items)


def format_cards(cards: Sequence[Card]) -> str:
    """The inverse of :func:`parse_cards`: ``"TC JH 4H"``."""
    return " ".join(str(card) for card in cards)


def draw(rng: random.Random, count: int) -> list[Card]:
    """The top ``count`` cards of a freshly shuffled pack: the only source of chance in a
    game.  Only the cards a deal uses are drawn, which is the same as shuffling all 52 and
    dealing from the top, at a fraction of the cost.

    The cards are exactly ``rng.sample(FULL_DECK, count)`` (a test holds them equal, so a
    seed deals the same games as ever).  A deal draws more than 5 cards, for which
    ``Random.sample`` picks from a copy of the pack, each pick ``_randbelow(cards left)``,
    i.e. ``getrandbits`` of the cards left's bit length until below it; that is done here
    directly, without ``sample``'s general set-up and its call per pick, because every deal
    of every game draws (sample was a sixteenth of the engine's work per action).  Fewer cards
    (the cut for the deal) go through ``sample`` itself, which picks them differently.
    """
    if count <= 5 or type(rng) is not random.Random:
        return rng.sample(FULL_DECK, count)
    getrandbits = rng.getrandbits
    pool = list(FULL_DECK)
    out = []
    for left, bits, last in _PICKS[:count]:
        pick = getrandbits(bits)
        while pick >= left:
            pick = getrandbits(bits)
        out.append(pool[pick])
        pool[pick] = pool[last]  # the last card left takes the place of the one picked
    return out


#: For each pick from a full pack in turn: the cards left, their number's bit length, and
#: the position of the last of them.
_PICKS = tuple((left, left.bit_length(), left - 1) for left in range(52, 0, -1))
