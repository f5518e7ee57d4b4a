"""The bots' fast pegging arithmetic must agree with the engine's ``score_play`` exactly."""

from __future__ import annotations

import random

import pytest

from noddy.bots.pegging import PlayRules
from noddy.engine import FULL_DECK, PRESETS, configure, score_play


CASES = [(preset, False) for preset in sorted(PRESETS)] + [
    (preset, True) for preset in sorted(PRESETS)
    if "hitter_counts_thirty_one" in configure(preset).allowed_options()
]


@pytest.mark.parametrize(("preset", "hitter"), CASES)
def test_points_equal_score_play_on_random_piles(preset: str, hitter: bool) -> None:
    options = {"hitter_counts_thirty_one": True} if hitter else {}
    rules = configure(preset, options=options)
    fast = PlayRules(rules)
    rng = random.Random(5)
    # Low cards make long piles with runs, pairs and flushes; bias toward them.
    low = [c for c in FULL_DECK if c.rank <= 7]
    checked = 0
    while checked < 3000:
        deck = rng.sample(low if rng.random() < 0.7 else list(FULL_DECK), 8)
        pile = []
        count = 0
        for card in deck:
            if count + card.value > 31:
                break
            pile.append(card)
            count += card.value
            expected = score_play(pile, rules).total
            assert fast.points(pile, count) == expected, pile
            # As a tuple the pile is remembered: the second asking comes from the memo.
            assert fast.points(tuple(pile), count) == expected, pile
            assert fast.points(tuple(pile), count) == expected, pile
            checked += 1
