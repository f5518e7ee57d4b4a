"""Readers of the text commands for the game's moves: playing a card, laying away to the crib
(by card or by the numbers the prompt shows), counting by hand, and the coach's review.

The numbers of ``discard 1 2`` live here too (:func:`numbered_hand`, :func:`cards_by_number`):
the discard prompt (:mod:`.render`) and the adapter, which turns the numbers into cards, read
the same list, so the numbers a person types cannot disagree with the ones they were shown.
:mod:`.commands` declares these commands with the readers here.

>>> read_play("play", ["5h"], "5h")
{'type': 'action', 'action': 'play', 'card': '5h'}
>>> cards_by_number(["2"], [{"action": "discard", "cards": ["5H", "TC"]}])
['TC']
"""

from __future__ import annotations

from typing import Any, Sequence

from noddy.protocol import ProtocolError
from noddy.protocol.i18n import Phrase
from noddy.protocol.narration import sort_cards

from .words import number


def read_play(verb: str, args: list[str], rest: str) -> dict[str, Any] | None:
    """``play CARD``, the card as typed (the core reads ``5h`` and ``5H`` alike)."""
    if len(args) != 1:
        return None
    return {"type": "action", "action": "play", "card": args[0]}


def read_discard(verb: str, args: list[str], rest: str) -> dict[str, Any] | None:
    """``discard CARD CARD`` (or ``discard 1 2``: the adapter turns numbers into cards)."""
    if not args:
        return None
    return {"type": "action", "action": "discard", "cards": args}


def read_claim(verb: str, args: list[str], rest: str) -> dict[str, Any] | None:
    """``claim N``: counting by hand, the points one counts in one's own cards."""
    if len(args) != 1:
        return None
    return {"type": "action", "action": "claim", "points": number(args[0], "points")}


def read_muggins(verb: str, args: list[str], rest: str) -> dict[str, Any] | None:
    """``muggins N``: counting by hand, the points an opponent's cards truly hold."""
    if len(args) != 1:
        return None
    return {"type": "action", "action": "muggins", "points": number(args[0], "points")}


def read_review(verb: str, args: list[str], rest: str) -> dict[str, Any] | None:
    """``review [DEAL]``: the coach's look back at a deal (the last one when none is said)."""
    if len(args) > 1:
        return None
    return {"type": "review", "deal": number(args[0], "deal") if args else None}


def numbered_hand(legal_actions: Sequence[dict[str, Any]]) -> list[str]:
    """The cards a discard prompt numbers 1, 2, ...: every card of the legal discards, sorted
    as players hold them (:func:`~noddy.protocol.narration.sort_cards`, as ``look`` shows the
    hand).  :func:`cards_by_number` reads ``discard 1 2`` with the same list, so the numbers
    cannot disagree with the prompt, nor with ``look``."""
    cards: dict[str, None] = {}
    for action in legal_actions:
        if action["action"] == "discard":
            cards.update(dict.fromkeys(action["cards"]))
    return sort_cards(cards)


def cards_by_number(words: Sequence[str], legal_actions: Sequence[dict[str, Any]]) -> list[str]:
    """``discard 1 2`` -> the cards numbered 1 and 2 in the discard prompt."""
    hand = numbered_hand(legal_actions)
    if not hand:
        raise ProtocolError("wrong_phase", Phrase("there is nothing to discard now"), field="cards")
    cards = []
    for word in words:
        position = int(word)
        if not 1 <= position <= len(hand):
            raise ProtocolError("card_not_in_hand", Phrase("your cards are numbered 1 to {last}, not {position}",
                                                           last=len(hand), position=position), field="cards")
        cards.append(hand[position - 1])
    return cards
