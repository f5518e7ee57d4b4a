"""The coach's rankings against independent brute force, hand-worked examples and the review.

The brute force here never uses the coach's shortcuts: hand points are averaged with the
engine's itemised ``score_show`` over every unseen turn-up, and a reply is found by dealing
the next seat every possible hand and letting the engine say who plays next.
"""

from __future__ import annotations

import dataclasses
import random
from fractions import Fraction
from itertools import combinations
from math import comb
from typing import Any

import pytest

from noddy.bots.coach import (CRIB_SAMPLES, DiscardAdvice, PlayAdvice, ReviewNote, advise,
                              rank_discards, rank_plays, review)
from noddy.bots.crib_table import CRIB_TABLE
from noddy.bots.expert import ExpertPlayer, crib_value
from noddy.bots.show_batch import ShowTable, expected_show
from noddy.engine import (FULL_DECK, PRESETS, Action, Card, Discard, Game, Go, Observation, Play,
                          Rules, configure, parse_cards, score_play, score_show)

from .helpers import discard_view, play_view

# (preset, players, partnerships): every way a preset with a crib is played, and Noddy.
CRIB_TABLES = [("cribbage", 2, False), ("cribbage", 3, False), ("cribbage", 4, True),
               ("five-card-cribbage", 2, False)]
PLAY_TABLES = CRIB_TABLES + [("noddy", 2, False), ("noddy", 4, True),
                             ("noddy-modern", 3, False), ("noddy-modern", 4, True)]


def _positions(preset: str, players: int, partnerships: bool, seed: int,
               phase: str) -> list[tuple[Game, int]]:
    """Every decision in ``phase`` of the first deal of a seeded game (each seat plays its
    first legal action), as (a copy of the game then, the seat to decide)."""
    game = Game(preset, players, partnerships=partnerships, seed=seed)
    found = []
    while game.deal == 1 and not game.is_over:
        seat = game.awaiting[0]
        if game.phase == phase:
            found.append((game.copy(), seat))
        game.apply(game.legal_actions(seat)[0])
    return found


# -- the batched show ------------------------------------------------------------------------


@pytest.mark.parametrize("preset", sorted(PRESETS))
@pytest.mark.parametrize("crib", [False, True])
def test_show_table_equals_score_show_for_every_turn_up(preset: str, crib: bool) -> None:
    rules = configure(preset)
    rng = random.Random(f"{preset}|{crib}")
    # Low cards and tens make fifteens, runs and pairs; some hands of one suit make flushes.
    rich = [c for c in FULL_DECK if c.rank in (4, 5, 6, 7, 10, 11)]
    for trial in range(8):
        size = (4, 3, 2, 5)[trial % 4]
        pool = rich if trial % 2 else [c for c in FULL_DECK if c.suit == "H" or trial % 3]
        kept = rng.sample(pool, size)
        if trial == 7:  # all four of a rank kept: no turn-up of that rank
            kept = list(parse_cards("7C 7D 7H 7S"))
        table = ShowTable(kept, rules, crib=crib)
        turn_ups = [c for c in FULL_DECK if c not in kept]
        exact = [score_show(kept, t, rules, crib=crib).total for t in turn_ups]
        assert [table.total(t) for t in turn_ups] == exact, kept
        assert table.sum_over(turn_ups) == sum(exact)
        assert expected_show(kept, turn_ups, rules, crib=crib) == sum(exact) / len(exact)


def test_five_five_five_jack_hand_worked() -> None:
    """Kept 5♣ 5♦ 5♥ J♠: 14 with any turn-up (fifteen 8, pair royal 6), 29 with the last
    five (5♠), 6 more (three fifteens) with each of the 15 other ten-cards and 2 more again
    (a pair) with the 3 other Jacks, and his nob with each of the other 11 spades.  Laying
    away 2♣ 8♦ leaves 46 turn-ups: (46*14 + 15 + 15*6 + 3*2 + 11) / 46 = 383/23."""
    hand = "5C 5D 5H JS 2C 8D"
    for dealer, sign in ((0, 1.0), (1, -1.0)):
        view = discard_view("cribbage", hand, dealer=dealer)
        advice = {a.laid: a for a in rank_discards(view, configure("cribbage"))}
        entry = advice[parse_cards("2C 8D")]
        assert entry.kept == parse_cards("5C 5D 5H JS")
        assert entry.hand == pytest.approx(383 / 23, abs=1e-12)
        assert entry.crib == sign * CRIB_TABLE[("cribbage", 2, (2, 8), False, 3000)]
        assert entry.total == pytest.approx(entry.hand + entry.crib, abs=1e-12)
    assert ShowTable(parse_cards("5C 5D 5H JS"), configure("cribbage")).total(Card.parse("5S")) == 29


def test_four_sevens_hand_worked() -> None:
    """Kept 7♣ 7♦ 7♥ 7♠: a double pair royal (12) with any turn-up; each of the 4 eights adds
    four fifteens (8), each of the 4 aces six (7-7-A, 12).  No seven can be turned up, and
    2♥ 4♦ laid away leave 46 turn-ups: (46*12 + 4*8 + 4*12) / 46 = 316/23."""
    view = discard_view("cribbage", "7C 7H 2H 7S 7D 4D", dealer=1)
    advice = {a.laid: a for a in rank_discards(view, configure("cribbage"))}
    assert advice[parse_cards("2H 4D")].hand == pytest.approx(316 / 23, abs=1e-12)


# -- discards against brute force --------------------------------------------------------------


@pytest.mark.parametrize(("preset", "players", "partnerships"), CRIB_TABLES)
@pytest.mark.parametrize("seed", [1, 2])
def test_discards_match_brute_force_and_the_expert(preset: str, players: int,
                                                   partnerships: bool, seed: int) -> None:
    positions = _positions(preset, players, partnerships, seed, "discard")
    assert len(positions) == players
    for game, seat in positions:
        rules = game.rules
        view = game.observation(seat)
        advice = rank_discards(view, rules)
        assert sorted(a.laid for a in advice) == sorted(a.cards for a in game.legal_actions(seat))
        hand = game.hands[seat]
        turn_ups = [c for c in FULL_DECK if c not in hand]  # the pack's crib card is unseen
        ours = (seat % 2 == game.dealer % 2) if partnerships else seat == game.dealer
        sign = 1.0 if ours else -1.0
        expert = ExpertPlayer(seed=0).discard_values(view, rules)
        for entry in advice:
            kept = tuple(sorted(c for c in hand if c not in entry.laid))
            assert entry.kept == kept
            exact = sum(score_show(kept, t, rules).total for t in turn_ups) / len(turn_ups)
            assert entry.hand == pytest.approx(exact, abs=1e-9)
            assert entry.crib == sign * crib_value(entry.laid, rules, players, CRIB_SAMPLES)
            assert entry.total == pytest.approx(expert[Discard(seat, entry.laid)], abs=1e-9)
        totals = [a.total for a in advice]
        assert totals == sorted(totals, reverse=True)


def test_partner_crib_counts_for_the_seat() -> None:
    """Four in partnerships: seat 0's crib value is added when seat 2 deals, subtracted when
    seat 1 or 3 does."""
    rules = configure("cribbage", 4, partnerships=True)
    view = dataclasses.replace(discard_view("cribbage", "5C 5D JH 2S 9D", players=3),
                               players=4, partnerships=True, hand_sizes=(5, 5, 5, 5),
                               crib_size=0)
    value = crib_value(parse_cards("9D"), rules, 4, CRIB_SAMPLES)
    assert value == CRIB_TABLE[("cribbage", 4, (9,), True, 3000)]
    for dealer, sign in ((0, 1), (1, -1), (2, 1), (3, -1)):
        advice = rank_discards(dataclasses.replace(view, dealer=dealer), rules)
        laid_nine = next(a for a in advice if a.laid == parse_cards("9D"))
        assert laid_nine.crib == sign * value


def test_ties_break_by_the_laid_cards() -> None:
    """9♥ Q♥ and 9♠ Q♥ keep hands worth the same; their cribs differ only by the suits, so the
    order is fixed by the totals and then by the cards, the same every time."""
    view = discard_view("cribbage", "5H 9H 9S TS JD QH", dealer=1)
    rules = configure("cribbage")
    first = rank_discards(view, rules)
    assert first == rank_discards(view, rules)
    keys = [(-round(a.total, 9), -round(a.hand, 9), [(c.rank, c.suit) for c in a.laid])
            for a in first]
    assert keys == sorted(keys)


# -- plays ----------------------------------------------------------------------------------


def test_a_third_five_pegs_eight_and_risks_the_fourth() -> None:
    """Pile 5♥ 5♦ (count 10): a third five pegs fifteen 2 and a pair royal 6.  The reply: only
    the last five (5♣) pegs (a double pair royal, 12); the opponent holds it with
    probability 3/46 (3 cards from the 46 unseen), so the answer is 36/46."""
    view = play_view("cribbage", "5S 9C 2D", "5H 5D", hand_sizes=(3, 3))
    advice = {a.card: a for a in rank_plays(view, configure("cribbage"))}
    five = advice[Card.parse("5S")]
    assert five.now == 8
    assert five.answer == pytest.approx(36 / 46, abs=1e-12)
    assert five.total == pytest.approx(8 - 36 / 46, abs=1e-12)
    assert five.to_dict() == {"card": "5S", "now": 8, "answer": 0.78, "total": 7.22}
    assert rank_plays(view, configure("cribbage"))[0] == five


def test_thirty_one_leaves_no_answer_and_a_partner_never_answers() -> None:
    """On 28: the 3 makes 31 (2 points) and the count ends, so nothing can answer it; the ace
    (29) can be answered for 2 by a two (31) or by one of the 3 other aces (a pair): 7 of
    the 46 unseen cards, against 3 of them in seat 1's hand.  Once seat 1 has said go, seat 2 -- the partner --
    plays next, and a partner never answers."""
    rules = configure("cribbage", 4, partnerships=True)
    base = play_view("noddy-modern", "AS 3D", "KH QD 8C", players=4, hand_sizes=(2, 3, 3, 3))
    view = dataclasses.replace(base, partnerships=True, preset="cribbage")
    advice = {a.card: a for a in rank_plays(view, rules)}
    assert (advice[Card.parse("3D")].now, advice[Card.parse("3D")].answer) == (2, 0.0)
    assert advice[Card.parse("AS")].now == 0
    unseen = 52 - 2 - 3 - 1
    assert advice[Card.parse("AS")].answer == pytest.approx(
        2 * (1 - comb(unseen - 7, 3) / comb(unseen, 3)), abs=1e-12)
    assert rank_plays(view, rules)[0].card == Card.parse("3D")
    passed = {a.card: a for a in rank_plays(dataclasses.replace(view, passed=(1,)), rules)}
    assert passed[Card.parse("AS")].answer == 0.0


def _brute_answer(game: Game, seat: int, action: Action) -> float:
    """Deal the next seat every hand it could hold; the engine says who plays next."""
    after = game.copy()
    after.apply(action)
    pile = tuple(after.pile)
    if after.phase != "play" or not pile or after.to_move is None:
        return 0.0  # 31 (the count ended) or the deal moved on
    replier = after.to_move
    if replier == seat or (game.partnerships and replier % 2 == seat % 2):
        return 0.0
    seen = set(game.hands[seat]) | {c for _, c in game.played} | {game.turn_up}
    seen |= set(game.observation(seat).laid_away or ())
    unseen = [c for c in FULL_DECK if c not in seen]
    room = 31 - after.count
    pegs = {c: score_play(pile + (c,), game.rules).total for c in unseen if c.value <= room}
    total = Fraction(0)
    hands = list(combinations(unseen, len(after.hands[replier])))
    for hand in hands:
        total += max([pegs[c] for c in hand if c in pegs], default=0)
    return float(total / len(hands))


@pytest.mark.parametrize(("preset", "players", "partnerships"), PLAY_TABLES)
def test_plays_match_brute_force(preset: str, players: int, partnerships: bool) -> None:
    checked = goes = 0
    for seed in (1, 2, 3):
        for game, seat in _positions(preset, players, partnerships, seed, "play"):
            replier_sizes = [n for s, n in enumerate(game.hands) if s != seat and n]
            if max(map(len, replier_sizes), default=0) > 2:
                continue  # keep C(N, h) small
            view = game.observation(seat)
            advice = rank_plays(view, game.rules)
            assert len(advice) == len(game.legal_actions(seat))
            for entry in advice:
                action = Go(seat) if entry.card is None else Play(seat, entry.card)
                goes += entry.card is None
                if entry.card is not None:
                    pile = tuple(game.pile) + (entry.card,)
                    assert entry.now == score_play(pile, game.rules).total
                else:
                    assert entry.now == 0
                assert entry.answer == pytest.approx(_brute_answer(game, seat, action), abs=1e-9)
                assert entry.total == entry.now - entry.answer
                checked += 1
            totals = [a.total for a in advice]
            assert totals == sorted(totals, reverse=True)
    assert checked >= 20 and goes >= 1


def test_go_is_the_only_advice_when_nothing_fits() -> None:
    view = play_view("cribbage", "KC QD", "TH JS 9C", hand_sizes=(2, 2))
    advice = rank_plays(view, configure("cribbage"))
    assert [a.card for a in advice] == [None]
    assert advice[0].now == 0
    assert advice[0].to_dict()["card"] is None
    # The opponent replies on 29: only an ace or a two fits; a two makes 31 (2 points).
    unseen = 52 - 2 - 3 - 1
    twos = 4
    expected = 2 * (1 - (unseen - twos) * (unseen - twos - 1) / (unseen * (unseen - 1)))
    assert advice[0].answer == pytest.approx(expected, abs=1e-12)


def test_advise_dispatches_by_phase_and_refuses_the_rest() -> None:
    rules = configure("cribbage")
    discard = discard_view("cribbage", "5C 5D 5H JS 2C 8D")
    assert all(isinstance(a, DiscardAdvice) for a in advise(discard, rules))
    play = play_view("cribbage", "5S 9C", "5H")
    assert all(isinstance(a, PlayAdvice) for a in advise(play, rules))
    with pytest.raises(ValueError, match="not the phase 'over'"):
        advise(dataclasses.replace(play, phase="over"), rules)
    with pytest.raises(ValueError, match="seat 0 has no play decision to make now"):
        advise(dataclasses.replace(play, legal_actions=()), rules)
    with pytest.raises(ValueError, match="not a spectator"):
        advise(dataclasses.replace(play, seat=None, hand=None), rules)
    with pytest.raises(ValueError, match="ranks discard choices, but the phase is 'play'"):
        rank_discards(play, rules)


def test_noddy_has_plays_only() -> None:
    game = Game("noddy", seed=4)
    view = game.observation(game.to_move)
    assert view.phase == "play"
    assert all(isinstance(a, PlayAdvice) for a in advise(view, game.rules))


# -- the review -----------------------------------------------------------------------------


def _coach_action(view: Observation, seat: int, rules: Rules) -> Action:
    best = advise(view, rules)[0]
    if isinstance(best, DiscardAdvice):
        return Discard(seat, best.laid)
    return Go(seat) if best.card is None else Play(seat, best.card)


def _match(seed: int, options: dict[str, Any] | None = None) -> tuple[Game, list[Action]]:
    """Seat 0 plays its first legal action, seat 1 follows the coach, to 61 (or as
    ``options`` say).  Counting by hand, every claim is exact (the largest allowed) and
    every muggins step a pass."""
    start = Game("cribbage", seed=seed, options=options or {"target": 61})
    game = start.copy()
    actions: list[Action] = []
    while not game.is_over:
        seat = game.awaiting[0]
        legal = game.legal_actions(seat)
        if game.phase not in ("discard", "play"):
            action = legal[-1]
        elif seat == 0 or len(legal) == 1:
            action = legal[0]
        else:
            action = _coach_action(game.observation(seat), seat, game.rules)
        actions.append(action)
        game.apply(action)
    return start, actions


def test_review_notes_the_careless_seat_and_not_the_coached_one() -> None:
    start, actions = _match(3)
    assert review(start, actions, 1) == []
    notes = review(start, actions, 0)
    # Each note is exactly the first legal choice against the coach's best at that moment.
    replay = start.copy()
    expected: list[ReviewNote] = []
    for action in actions:
        if action.seat == 0 and len(replay.legal_actions(0)) > 1:
            advice = advise(replay.observation(0), replay.rules)
            chosen = next(a for a in advice if (a.laid == action.cards
                                                if isinstance(a, DiscardAdvice)
                                                else a.card == getattr(action, "card", None)))
            if advice[0].total - chosen.total >= 1.0:
                expected.append(ReviewNote(replay.deal, replay.phase, chosen, advice[0],
                                           advice[0].total - chosen.total))
        replay.apply(action)
    assert notes == expected
    assert [(n.deal, n.decision) for n in notes] == [
        (1, "discard"), (1, "play"), (2, "discard"), (2, "play"), (3, "discard")]
    assert [n.to_dict() for n in notes[:2]] == [
        {"deal": 1, "decision": "discard",
         "chosen": {"laid": ["AC", "2S"], "kept": ["4D", "5C", "9C", "KH"], "hand": 4.57,
                    "crib": 4.47, "total": 9.03},
         "best": {"laid": ["5C", "KH"], "kept": ["AC", "2S", "4D", "9C"], "hand": 4.7,
                  "crib": 6.88, "total": 11.58},
         "difference": 2.54},
        # On T♠ (10): 9♣ pegs nothing and leaves runs and a pair to answer; 5♣ pegs fifteen
        # and is answered only by a pair of fives: 3 of the 44 unseen cards, so
        # 2 * (1 - C(41, 3) / C(44, 3)) = 0.39.
        {"deal": 1, "decision": "play",
         "chosen": {"card": "9C", "now": 0, "answer": 1.64, "total": -1.64},
         "best": {"card": "5C", "now": 2, "answer": 0.39, "total": 1.61},
         "difference": 3.25},
    ]
    assert notes[1].best.answer == pytest.approx(2 * (1 - comb(41, 3) / comb(44, 3)), abs=1e-12)
    assert review(start, actions, 0, deal=2) == notes[2:4]
    assert len(review(start, actions, 0, margin=0.01)) > len(notes)


def test_review_applies_claims_and_muggins_steps_without_reviewing_them() -> None:
    """Counting by hand adds claim, muggins and pass actions: the review applies them and
    notes only discards and plays (every claim here is exact, every call a pass)."""
    start, actions = _match(3, {"target": 31, "counting": "manual"})
    assert {type(a).__name__ for a in actions} >= {"Claim", "Pass", "Discard", "Play"}
    assert review(start, actions, 1) == []
    notes = review(start, actions, 0)
    assert notes and {n.decision for n in notes} == {"discard", "play"}
