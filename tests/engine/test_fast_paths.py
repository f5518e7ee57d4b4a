"""The engine's fast paths give exactly what the plain ways they stand in for give.

Each of these was written for speed (the server runs them at every action): the deal's draw
replicates ``Random.sample``, the engine's show scoring maps a cached plan per multiset of
ranks onto the cards, the play scoring stops early, and a turn's legal actions are described
by a mapped method call.  Each test compares one with the slow,
obvious version over many random cases.
"""

from __future__ import annotations

import random

import pytest

from noddy.engine import (
    FULL_DECK, PRESETS, Discard, Go, Play, ScoreItem, configure, describe_legal,
    score_show,
)
from noddy.engine.cards import draw
from noddy.engine.scoring import PAIR_KINDS, play_items, show_items


def test_draw_is_random_sample_for_every_count() -> None:
    for seed in range(100):
        for count in range(53):
            ours, theirs = random.Random(seed), random.Random(seed)
            assert draw(ours, count) == theirs.sample(FULL_DECK, count), (seed, count)
            assert ours.getstate() == theirs.getstate()  # the same draws consumed


def test_draw_of_a_random_subclass_goes_through_its_sample() -> None:
    class Loaded(random.Random):
        def sample(self, population, k, *, counts=None):  # type: ignore[override]
            return list(population[:k])

    assert draw(Loaded(1), 7) == list(FULL_DECK[:7])


@pytest.mark.parametrize("preset", list(PRESETS))
def test_show_items_match_score_show(preset: str) -> None:
    rules = configure(preset, 2)
    rng = random.Random(preset)
    for _ in range(800):
        size = rng.choice((3, 4, 5, 6))
        # A narrow pack now and then, for more pairs, runs, fifteens and flushes.
        pack = FULL_DECK if rng.random() < 0.5 else [
            c for c in FULL_DECK if c.rank in (1, 4, 5, 6, 10, 11) or c.suit == "H"]
        cards = rng.sample(list(pack), size + 1)
        hand, turn_up = tuple(cards[:size]), cards[size]
        for crib in (False, True):
            expected = score_show(hand, turn_up, rules, crib=crib).items
            assert show_items(hand, turn_up, rules, crib=crib) == expected, (hand, turn_up, crib)
            # The same ranks in other suits: the rank plan is reused, the cards are not.
            suits = {card: rng.choice("CDHS") for card in cards}
            other = [next(c for c in FULL_DECK if c.rank == card.rank and c.suit == suits[card])
                     for card in cards]
            if len(set(other)) == len(other):
                hand2, turn2 = tuple(other[:size]), other[size]
                assert (show_items(hand2, turn2, rules, crib=crib)
                        == score_show(hand2, turn2, rules, crib=crib).items)


def _plain_play_items(cards: tuple, rules) -> tuple[ScoreItem, ...]:
    """What the last card of ``cards`` makes, the obvious way: every tail looked at."""
    count = sum(card.value for card in cards)
    items = []
    if count == 15:
        items.append(ScoreItem("fifteen", rules.fifteen_points, cards))
    elif count == 25 and rules.play_twenty_five:
        points = len(cards) if rules.play_twenty_five == "per_card" else rules.twenty_five_fixed_points
        items.append(ScoreItem("twenty-five", points, cards))
    elif count == 31:
        items.append(ScoreItem(rules.thirty_one_name, rules.thirty_one_points, cards))
        if rules.hitter_counts_thirty_one:
            items.append(ScoreItem("thirty-one", len(cards), cards))
    same = 1
    while same < min(len(cards), 4) and cards[-1 - same].rank == cards[-1].rank:
        same += 1
    if same >= 2:
        items.append(ScoreItem(PAIR_KINDS[same - 2], rules.pair_points[same - 2], cards[-same:]))
    else:
        for length in range(len(cards), 2, -1):
            ranks = sorted(card.rank for card in cards[-length:])
            if ranks == list(range(ranks[0], ranks[0] + length)):
                items.append(ScoreItem("run", rules.run_points(length), cards[-length:]))
                break
    if rules.play_flush:
        length = 1
        while length < len(cards) and cards[-1 - length].suit == cards[-1].suit:
            length += 1
        if length >= 3:
            items.append(ScoreItem("flush", length, cards[-length:]))
    return tuple(items)


@pytest.mark.parametrize("preset", list(PRESETS))
def test_play_items_match_the_plain_count(preset: str) -> None:
    rules = configure(preset, 2, options={"hitter_counts_thirty_one": True}
                      if preset.startswith("noddy") and preset != "noddy-modern" else None)
    rng = random.Random(preset)
    low = [c for c in FULL_DECK if c.rank <= 7]
    for _ in range(6000):
        size = rng.randrange(1, 9)
        pack = low if rng.random() < 0.6 else FULL_DECK
        pile = tuple(rng.sample(pack, size))
        count = sum(card.value for card in pile)
        assert play_items(pile, count, rules) == _plain_play_items(pile, rules), pile


def test_describe_legal_is_each_action_as_offered() -> None:
    actions = [Play(0, "5H"), Play(0, "KS"), Go(1), Discard(1, ["2C", "AH"])]
    assert describe_legal(actions) == [a.to_dict(with_seat=False) for a in actions]
    assert describe_legal(iter(actions)) == [a.to_dict(with_seat=False) for a in actions]
