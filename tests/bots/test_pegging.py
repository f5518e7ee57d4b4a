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


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_reply_points_add_up_what_points_gives_for_each_reply(preset: str) -> None:
    fast = PlayRules(configure(preset))
    rng = random.Random(f"replies:{preset}")
    for _ in range(500):
        cards = rng.sample(list(FULL_DECK), rng.randint(1, 5))
        pile: list = []
        for card in cards:
            if sum(c.value for c in pile) + card.value <= 31:
                pile.append(card)
        count = sum(c.value for c in pile)
        replies = [(card, rng.randint(1, 4)) for card in rng.sample(list(FULL_DECK), 12)]
        expected = sum(times * score_play(pile + [card], preset).total
                       for card, times in replies if count + card.value <= 31)
        assert fast.reply_points(tuple(pile), count, replies) == expected, (pile, replies)
