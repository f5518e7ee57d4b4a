"""Shared engine-test fixtures: stacking the pack so that a test deals exactly the cards a
rule or worked example needs."""

from __future__ import annotations

import pytest

import noddy.engine.game as game_module

from ..stacking import deal_deck, stacked_draw

__all__ = ["stack", "deal_deck"]


@pytest.fixture
def stack(monkeypatch):
    """Stack the packs the game draws from: the first for the cut (seat 0 cuts the first
    card...), the next for the deal (dealt one at a time from the dealer's left, then the
    turn-up).  Later draws are ordinary seeded ones.  The engine's one source of chance is
    ``noddy.engine.game.draw(rng, count)``, which this replaces.
    """

    def install(*decks: str) -> None:
        monkeypatch.setattr(game_module, "draw", stacked_draw(*decks))

    return install
