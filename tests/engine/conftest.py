"""Shared engine-test fixtures: stacking the pack so that a test deals exactly the cards a
rule or worked example needs."""

from __future__ import annotations

import pytest

import noddy.engine.game as game_module
from noddy.engine import FULL_DECK, parse_cards


@pytest.fixture
def stack(monkeypatch):
    """Stack the packs the game draws from: the first for the cut (seat 0 cuts the first
    card...), the next for the deal (dealt one at a time from the dealer's left, then the
    turn-up).  Later draws are ordinary seeded ones.  The engine's one source of chance is
    ``noddy.engine.game.draw(rng, count)``, which this replaces.
    """

    def install(*decks: str) -> None:
        queue = [list(parse_cards(deck)) for deck in decks]

        def draw(rng, count):
            if queue:
                top = queue.pop(0)
                rest = [card for card in FULL_DECK if card not in top]
                rng.shuffle(rest)
                return (top + rest)[:count]
            return rng.sample(FULL_DECK, count)

        monkeypatch.setattr(game_module, "draw", draw)

    return install


def deal_deck(hands_from_dealers_left, turn_up):
    """The deck that deals these hands (seat order from the dealer's left), then turns up."""
    cards = []
    for round_ in zip(*(parse_cards(h) for h in hands_from_dealers_left)):
        cards.extend(str(c) for c in round_)
    return " ".join(cards + [turn_up])
