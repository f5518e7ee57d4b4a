"""Cards as the client shows them: wire text ("TH", "5S") to "10♥", values and sort order.

The client may not import the engine, so the little it needs to know about cards lives
here: the suit symbols, which suits are red, a card's value for the running count (to say
*why* a card cannot be played) and an order to sort a hand by.

>>> card_label("TH"), card_label("5S"), card_label("AC")
('10♥', '5♠', 'A♣')
>>> is_red("QD"), is_red("QS")
(True, False)
>>> card_value("KH"), card_value("TS"), card_value("7C")
(10, 10, 7)
>>> sort_cards(["KH", "5S", "AC", "5D", "TH"])
['AC', '5D', '5S', 'TH', 'KH']
"""

from __future__ import annotations

from collections.abc import Iterable

RANKS = "A23456789TJQK"
SUITS = "CDHS"
SUIT_SYMBOLS = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}
RED_SUITS = frozenset("DH")
RANK_NAMES = {"A": "Ace", "T": "Ten", "J": "Jack", "Q": "Queen", "K": "King"}


def _split(card: str) -> tuple[str, str]:
    """Rank and suit letters of a wire card; ``"10H"`` is accepted for ``"TH"``."""
    text = card.strip().upper()
    if text.startswith("10"):
        text = "T" + text[2:]
    if len(text) != 2 or text[0] not in RANKS or text[1] not in SUITS:
        raise ValueError(f"not a card: {card!r}")
    return text[0], text[1]


def rank_label(card: str) -> str:
    """The rank as printed on a card face: ``"10"`` for T, else the letter or digit."""
    rank, _ = _split(card)
    return "10" if rank == "T" else rank


def suit_symbol(card: str) -> str:
    return SUIT_SYMBOLS[_split(card)[1]]


def card_label(card: str) -> str:
    """``"TH"`` -> ``"10♥"``: what a player expects to read."""
    return rank_label(card) + suit_symbol(card)


def cards_label(cards: Iterable[str]) -> str:
    return " ".join(card_label(c) for c in cards)


def is_red(card: str) -> bool:
    return _split(card)[1] in RED_SUITS


def card_value(card: str) -> int:
    """What the card adds to the running count: A=1, 2-9, T J Q K = 10."""
    rank, _ = _split(card)
    return min(RANKS.index(rank) + 1, 10)


def sort_key(card: str) -> tuple[int, int]:
    rank, suit = _split(card)
    return RANKS.index(rank), SUITS.index(suit)


def sort_cards(cards: Iterable[str]) -> list[str]:
    """A hand in the order players hold it: by rank (ace low), then suit."""
    return sorted(cards, key=sort_key)
