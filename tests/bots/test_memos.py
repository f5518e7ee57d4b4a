"""The bots' memos stay bounded in total, whatever tables people create (issue 27, item 15).

A server's computer players and coach share what a pile pegs and which replies peg on it.
Kept per whole :class:`Rules`, every target (15 to 500) and every counting made a memo of
its own of up to 200,000 entries, never freed: the server's memory grew without bound.  They
are kept per set of scoring parameters now (every target of a preset shares one), within a
total bound, and emptying a memo never changes an answer.
"""

from __future__ import annotations

import random

import pytest

from noddy.bots import pegging
from noddy.bots.memos import MemoFamily
from noddy.bots.opponent_model import pegging_replies
from noddy.bots.pegging import PlayRules
from noddy.engine import FULL_DECK, PRESETS, Card, configure, score_play, show_total
from noddy.engine import scoring

ALL_TARGETS = range(15, 501)


def _random_piles(rng: random.Random, how_many: int) -> list[tuple[Card, ...]]:
    """Piles as a play makes them (never past 31), with their prefixes."""
    piles: list[tuple[Card, ...]] = []
    while len(piles) < how_many:
        pile: tuple[Card, ...] = ()
        count = 0
        for card in rng.sample(FULL_DECK, 8):
            if count + card.value > 31:
                break
            pile += (card,)
            count += card.value
            piles.append(pile)
    return piles[:how_many]


def _every_table_rules() -> list:
    """Rules of every preset under every target and counting a table may have."""
    found = []
    for preset in PRESETS:
        # Counting by hand only where the show follows the play (RULES.md).
        countings = ["auto"] if configure(preset).show_before_play else ["auto", "manual"]
        for target in ALL_TARGETS:
            for counting in countings:
                found.append(configure(preset, options={"target": target, "counting": counting}))
    return found


def test_every_target_and_counting_of_a_preset_shares_one_pile_memo() -> None:
    rules = _every_table_rules()
    memos = {id(PlayRules(r)._memo): PlayRules(r)._memo for r in rules}
    assert len(rules) > 3000
    # One memo per way the play scores: Noddy's, du Coeur's, Holme's, and one for
    # noddy-modern and the two cribbages (which score a play alike).
    assert len(memos) <= len(PRESETS)
    assert len(memos) == len({PlayRules(r).scoring for r in rules}) == 4
    before = sum(len(memo) for memo in memos.values())
    rng = random.Random(3)
    for r in rules[::10]:  # a few piles under each of 300 tables' rules
        fast = PlayRules(r)
        for pile in _random_piles(rng, 20):
            fast.points(pile, sum(card.value for card in pile))
    grown = sum(len(memo) for memo in memos.values()) - before
    assert 0 < grown <= 300 * 20  # not one memo per table's rules


def test_the_pile_memos_hold_at_most_their_total_and_answer_alike(monkeypatch: pytest.MonkeyPatch) -> None:
    small = MemoFamily("pile points", each=300, total=500, check_every=50)
    monkeypatch.setattr(pegging, "PILE_POINTS", small)
    rng = random.Random(11)
    rules = [configure(preset) for preset in sorted(PRESETS)]
    rules += [configure("noddy", options={"hitter_counts_thirty_one": True})]
    fasts = [PlayRules(r) for r in rules]
    highest = 0
    for _round in range(6):
        for fast, r in zip(fasts, rules):
            for pile in _random_piles(rng, 200):
                count = sum(card.value for card in pile)
                # Asked twice: the second answer comes from the memo unless it was emptied.
                assert fast.points(pile, count) == fast.points(pile, count) == score_play(pile, r).total
                highest = max(highest, small.entries())
    assert 300 < highest <= 500
    assert len({fast.scoring for fast in fasts}) == 5  # five memos took turns within the total


def test_a_memo_family_empties_its_largest_memos_first() -> None:
    family = MemoFamily("test", each=100, total=150, check_every=10)
    big, small = family.memo("big"), family.memo("small")
    for i in range(100):
        family.put(big, i, i)
    assert len(big) == 100
    family.put(big, 100, 100)  # a memo at its own bound is emptied first
    assert dict(big) == {100: 100}
    for i in range(99):
        family.put(big, 200 + i, i)
    for i in range(45):
        family.put(small, i, i)
    family.bound()  # 145 entries: over 140 (the total less a check's worth): the largest goes
    assert (len(big), len(small), family.entries()) == (0, 45, 45)
    assert family.memo("big") is big  # emptied, never replaced: its holders keep counting in it
    with pytest.raises(ValueError):
        MemoFamily("wrong", each=200, total=100)


def test_remembered_replies_share_one_pair_per_card_and_points() -> None:
    rng = random.Random(5)
    for preset in ("noddy", "cribbage"):
        fast = PlayRules(configure(preset))
        found = [pegging_replies(fast, pile, sum(c.value for c in pile))
                 for pile in _random_piles(rng, 400) if sum(c.value for c in pile) < 31]
        pairs = [pair for replies in found for pair in replies]
        assert len(pairs) > 1000
        assert len({id(pair) for pair in pairs}) == len(set(pairs)) < 52 * 31


def test_the_engines_show_caches_do_not_grow_with_targets_or_countings() -> None:
    rng = random.Random(8)
    hands = [tuple(rng.sample(FULL_DECK, 5)) for _ in range(50)]
    for r in _every_table_rules()[::7]:
        for hand in hands[:3]:
            show_total(hand[:4], hand[4], r)
    assert len(scoring._PARAM_CACHES) <= len(PRESETS)
    assert all(len(cache) <= 9000 for cache in scoring._PARAM_CACHES.values())


def test_crib_values_estimated_for_other_rules_are_shared_by_every_target() -> None:
    import dataclasses

    from noddy.bots import crib_values

    crib_values.clear_crib_values()
    laid = (Card.parse("5H"), Card.parse("5S"))
    # A crib scored unlike any preset's (fifteens worth 3) is estimated, not read from the table.
    values = {crib_values.crib_value(laid, dataclasses.replace(configure("cribbage"), fifteen_points=3,
                                                               target=target), 2, 40)
              for target in range(61, 131, 7)}
    assert len(values) == 1 and crib_values._CRIB_VALUES.entries() == 1
