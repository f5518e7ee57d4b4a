"""Stacking the pack: a stand-in for ``noddy.engine.game.draw`` that deals exactly the cards
a rule or a worked example needs, for the engine's tests and for tests of a real server
(which runs in the test's process)."""

from __future__ import annotations

import random
from typing import Callable

from noddy.engine import FULL_DECK, Card, parse_cards


def stacked_draw(*decks: str) -> Callable[[random.Random, int], list[Card]]:
    """A ``draw(rng, count)`` whose first draws start with ``decks`` in order (the first for
    the cut: seat 0 cuts the first card...; the next for the deal, dealt one at a time from
    the dealer's left, then the turn-up); the rest of each draw, and every later draw, are
    ordinary seeded ones."""
    queue = [list(parse_cards(deck)) for deck in decks]

    def draw(rng: random.Random, count: int) -> list[Card]:
        if queue:
            top = queue.pop(0)
            rest = [card for card in FULL_DECK if card not in top]
            rng.shuffle(rest)
            return (top + rest)[:count]
        return rng.sample(FULL_DECK, count)

    return draw


def deal_deck(hands_from_dealers_left: list[str], turn_up: str) -> str:
    """The deck that deals these hands (seat order from the dealer's left), then turns up."""
    cards = []
    for round_ in zip(*(parse_cards(h) for h in hands_from_dealers_left)):
        cards.extend(str(c) for c in round_)
    return " ".join(cards + [turn_up])
