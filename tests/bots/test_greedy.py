"""Greedy's choices, pinned on hand-built positions (values worked out in the comments)."""

from __future__ import annotations

import random

import pytest

from noddy.bots import GreedyPlayer
from noddy.bots.greedy import discard_value, play_value
from noddy.bots.pegging import next_seat, team_of, unseen_cards
from noddy.engine import (FULL_DECK, PRESETS, Card, Discard, Go, Observation, Play, Rules,
                          configure, parse_cards, score_play, score_show, show_total)

from .helpers import discard_view, play_view


def choose(view):  # type: ignore[no-untyped-def]
    return GreedyPlayer().choose(view, configure(view.preset, view.players))


@pytest.mark.parametrize(("preset", "hand", "pile", "expected", "why"), [
    ("cribbage", "5S 9C KD", "TH", "5S", "fifteen for 2"),
    ("cribbage", "TS 8C", "TH 6C 5D", "TS", "thirty-one for 2, and no reply to fear"),
    ("cribbage", "8S 3C", "8H", "8S", "a pair for 2 (a pair royal back is 2 in 47)"),
    ("noddy", "5S 4D", "TH", "5S", "fifteen for 2 beats fearing twenty-five (about 1 back)"),
    ("noddy", "6S 2D", "TH 9H", "6S", "twenty-five scores one a card: 3"),
    ("cribbage", "5H 4C 9D", "", "4C", "leading a 5 gives 15 to any ten-card"),
    ("cribbage", "TH 2S", "6C 5D", "2S", "ten would leave 21: any ten-card makes 31"),
    ("noddy", "2S 5C", "KD 3H", "2S", "15 for 2 now, though it leaves 15 for a twenty-five"),
])
def test_greedy_choice(preset: str, hand: str, pile: str, expected: str, why: str) -> None:
    assert choose(play_view(preset, hand, pile)) == Play(0, expected), why


def test_leading_a_five_is_worth_less_than_a_four() -> None:
    view = play_view("cribbage", "5H 4C 9D", "")
    rules = configure("cribbage")
    five, four, nine = (play_value(view, rules, Card.parse(c)) for c in ("5H", "4C", "9D"))
    # Unseen: 48 cards.  After a 5: 15 ten-cards make fifteen (2), 3 fives pair (2).
    assert five == pytest.approx(-(15 * 2 + 3 * 2) / 48)
    # After a 4: only the 3 other fours score (a pair).
    assert four == pytest.approx(-(3 * 2) / 48)
    # After a 9: 4 sixes make fifteen, 3 nines pair.
    assert nine == pytest.approx(-(4 * 2 + 3 * 2) / 48)


def test_leaving_twenty_one_is_priced_as_the_thirty_one_it_gives() -> None:
    view = play_view("cribbage", "TH 2S", "6C 5D")
    rules = configure("cribbage")
    # 47 unseen; 14 ten-cards make 31 (2), 3 tens pair (2) -- TH is ours, KS turned up.
    assert play_value(view, rules, Card.parse("TH")) == pytest.approx(-(14 * 2 + 3 * 2) / 47)


def test_go_when_nothing_fits() -> None:
    assert choose(play_view("cribbage", "TS KD", "TH 9C 5D")) == Go(0)


def test_greedy_discard_keeps_the_most_points_and_spares_the_opponents_crib() -> None:
    view = discard_view("cribbage", "5C 5D JH JS 2C 9D", dealer=1)
    # 5-5-J-J: four fifteens and two pairs = 12 without a turn-up; 2-9 give the crib nothing.
    assert choose(view) == Discard(0, ("2C", "9D"))
    assert discard_value(view, configure("cribbage"), Discard(0, ("2C", "9D"))) == 12


def test_greedy_discard_into_own_crib_counts_what_it_lays_away() -> None:
    rules = configure("cribbage")
    # As dealer, laying away 7-8 (a fifteen) is worth +2 of crib; as non-dealer it is -2.
    hand = "7C 8D KH KS QC 2D"
    mine = discard_value(discard_view("cribbage", hand, dealer=0), rules, Discard(0, ("7C", "8D")))
    theirs = discard_value(discard_view("cribbage", hand, dealer=1), rules, Discard(0, ("7C", "8D")))
    assert mine - theirs == 4


# -- the fast paths give exactly what the plain arithmetic gives ----------------------------


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_a_show_without_a_turn_up_totals_as_score_show_does(preset: str) -> None:
    # What greedy weighs when it lays away: kept cards and laid-away cards, before the cut.
    rules = configure(preset)
    rng = random.Random(f"no-turn-up:{preset}")
    low = [card for card in FULL_DECK if card.rank <= 6]  # more fifteens, runs and flushes
    for _ in range(3000):
        hand = rng.sample(low if rng.random() < 0.5 else list(FULL_DECK), rng.randint(1, 5))
        for crib in (False, True):
            assert show_total(hand, None, rules, crib=crib) == \
                score_show(hand, None, rules, crib=crib).total, (hand, crib)


def test_a_show_without_a_turn_up_has_no_held_jack_and_a_flush_of_the_hand_alone() -> None:
    crib, holme = configure("cribbage"), configure("noddy-holme")
    assert show_total(parse_cards("AH 3H 9H KH"), None, crib) == 4
    assert show_total(parse_cards("AH 3H 9H KH"), None, crib, crib=True) == 0
    assert show_total(parse_cards("JH 6C 8D"), None, holme) == 5  # the picture card only
    assert show_total(parse_cards("5C 5D JH JS"), None, crib) == 12


def _reply_by_every_card(view: Observation, rules: Rules, card: Card) -> float:
    """Greedy's value of playing ``card`` as its module doc states it: points now, minus
    (or plus, for a partner) the mean of what each unseen card would peg in reply."""
    assert view.seat is not None
    pile = view.pile + (card,)
    now = score_play(pile, rules).total
    sizes = list(view.hand_sizes)
    sizes[view.seat] -= 1
    replier = next_seat(view, view.seat, sizes, view.passed)
    if sum(c.value for c in pile) == 31 or replier is None or replier == view.seat:
        return float(now)
    unseen = unseen_cards(view)
    room = 31 - sum(c.value for c in pile)
    reply = sum(score_play(pile + (x,), rules).total for x in unseen if x.value <= room)
    sign = 1 if team_of(view, replier) == team_of(view, view.seat) else -1
    return now + sign * (reply / len(unseen))


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_the_play_value_is_the_mean_reply_over_every_unseen_card(preset: str) -> None:
    rules = configure(preset)
    rng = random.Random(f"play-value:{preset}")
    low = [card for card in FULL_DECK if card.rank <= 7]
    checked = 0
    while checked < 300:
        cards = rng.sample(low if rng.random() < 0.6 else list(FULL_DECK), 7)
        hand, pile = cards[:3], []
        for card in cards[3:]:
            if sum(c.value for c in pile) + card.value > 31 or rng.random() < 0.3:
                break
            pile.append(card)
        count = sum(c.value for c in pile)
        playable = [card for card in hand if count + card.value <= 31]
        if not playable:
            continue
        # The pile alternates between the other seat and this one, ending with the other's.
        view = play_view(preset, " ".join(map(str, hand)), " ".join(map(str, pile)))
        for card in playable:
            assert play_value(view, rules, card) == _reply_by_every_card(view, rules, card), \
                (hand, pile, card)
        checked += 1
