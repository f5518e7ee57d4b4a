"""RULES.md "Worked examples", every one of them.

The two Noddy deals (004's and 002's) are checked three ways: the shows with
``score_show``, each play with ``score_play`` on the growing pile (with the last-card point
worked out by hand, since ``score_play`` leaves it out), and the whole deal through
:class:`Game` from a stacked pack, which must peg the same points in the same order and
end the deal with the same scores.
"""

from __future__ import annotations

import pytest

from noddy.engine import DealEnded, Game, Scored, parse_cards, score_play, score_show

from .conftest import deal_deck
from .test_play_rules import run

F = ("fifteen", 2)


def items(score):
    return sorted((item.kind, item.points) for item in score.items)


def show(preset, hand, turn_up, crib=False):
    return score_show(parse_cards(hand), parse_cards(turn_up)[0], preset, crib=crib)


def value(card):
    return min("A23456789TJQK".index(card[0]) + 1, 10)


def can_play(hand, count):
    return any(count + value(card) <= 31 for card in hand.split())


# == 004's deal, noddy: Anna deals; Ben holds T♣ J♥ 4♥, Anna 6♠ 6♦ 3♣; turn-up 5♥ ==========

def test_004_ben_shows_eleven():
    # fifteen 2 (T+5), fifteen 4 (J+5), twenty-five 3 (T+J+5: three cards), flush of three
    # (J♥ 4♥ 5♥) 3, knave noddy (J♥, the turn-up's suit) 1.
    score = show("noddy", "TC JH 4H", "5H")
    assert score.total == 11
    assert [(i.kind, i.points) for i in score.items] == [
        F, F, ("twenty-five", 3), ("flush", 3), ("knave noddy", 1)]
    assert score.announce() == (
        "fifteen two, fifteen four, twenty-five seven, a flush ten, knave noddy eleven")


def test_004_anna_shows_four():
    # 6+6+3 = 15: fifteen 2; the pair of sixes 2.  (3 5 6 6: no run without the 4.)
    score = show("noddy", "6S 6D 3C", "5H")
    assert items(score) == sorted([F, ("pair", 2)]) and score.total == 4


PLAY_004 = [
    # (who, card, count, what the card pegs)
    ("Ben", "4H", 4, []),
    ("Anna", "3C", 7, []),       # 4 3: no run of two
    ("Ben", "TC", 17, []),
    ("Anna", "6S", 23, []),
    # Ben: go (his J♥ would make 33)
    ("Anna", "6D", 29, [("pair", 2)]),
]


def test_004_by_hand_ben_says_go_at_23_and_annas_last_six_takes_the_last_card():
    assert not can_play("JH", 23)          # 23 + 10 > 31: Ben says go
    assert can_play("6D", 23)              # Anna plays on
    assert not can_play("JH", 29)          # nobody can play on at 29: last card to Anna
    ben = 11
    anna = 4 + 2 + 1                       # show 4, pair 2, last card 1
    assert (ben, anna) == (11, 7)


def test_004_deal_through_the_game(stack):
    # seat 0 = Anna (cuts the ace, deals), seat 1 = Ben
    stack("AC KD", deal_deck(["TC JH 4H", "6S 6D 3C"], "5H"))
    game = Game("noddy", seed=1)
    run(game, [("play", 1, "4H"), ("play", 0, "3C"), ("play", 1, "TC"), ("play", 0, "6S"),
               ("go", 1), ("play", 0, "6D")])
    scored = []
    for event in game.log:
        if isinstance(event, Scored):
            scored.append((event.seat, event.points, event.reason,
                           [i.kind for i in event.items]))
        if isinstance(event, DealEnded):
            break
    assert scored == [
        (1, 11, "show", ["fifteen", "fifteen", "twenty-five", "flush", "knave noddy"]),
        (0, 4, "show", ["fifteen", "pair"]),
        (0, 2, "play", ["pair"]),
        (0, 1, "play", ["last card"]),
    ]
    assert event.scores == (7, 11)         # after the deal: Anna 7, Ben 11


# == 002's deal, noddy: María deals; Arturo 4♣ 4♥ 6♦, María 6♠ 9♣ 9♦; turn-up 7♥ ===========

def test_002_arturo_shows_four_not_six():
    # 4+4+7 = 15: fifteen 2; pair of fours 2.  (4 4 6 7: no run, two hearts: no flush.)
    score = show("noddy", "4C 4H 6D", "7H")
    assert items(score) == sorted([F, ("pair", 2)]) and score.total == 4


def test_002_maria_shows_thirteen_not_nine():
    # 6+9 twice: fifteens 4; 9+9+7 = 25 with three cards: 3; 6+9+9+7 = 31 with all four: 4;
    # pair of nines 2.  4 + 3 + 4 + 2 = 13 (her announced 9 misses the thirty-one).
    score = show("noddy", "6S 9C 9D", "7H")
    assert items(score) == sorted([F, F, ("twenty-five", 3), ("thirty-one", 4), ("pair", 2)])
    assert score.total == 13


PLAY_002 = [
    ("Arturo", "4C", 4, []),
    ("María", "9D", 13, []),
    ("Arturo", "6D", 19, []),                                  # 4 9 6: no run; ♦♦ only two
    ("María", "6S", 25, [("pair", 2), ("twenty-five", 4)]),     # 6 in all
    ("Arturo", "4H", 29, []),                                  # a 4♥, not a 5♣
]


@pytest.mark.parametrize("plays, step", [(PLAY_004, i) for i in range(len(PLAY_004))]
                         + [(PLAY_002, i) for i in range(len(PLAY_002))])
def test_each_play_of_the_worked_deals_scores(plays, step):
    pile = [card for _, card, _, _ in plays[:step + 1]]
    who, card, count, expected = plays[step]
    assert sum(value(c) for c in pile) == count
    assert items(score_play(parse_cards(pile), "noddy")) == sorted(expected)


def test_002_by_hand_maria_cannot_play_at_29_and_arturo_takes_the_last_card():
    assert not can_play("9C", 29)
    arturo = 4 + 1                         # show 4, last card 1
    maria = 13 + 6                         # show 13, pair 2 + twenty-five 4
    assert (arturo, maria) == (5, 19)


def test_002_deal_through_the_game(stack):
    # seat 0 = María (deals), seat 1 = Arturo
    stack("AC KD", deal_deck(["4C 4H 6D", "6S 9C 9D"], "7H"))
    game = Game("noddy", seed=1)
    run(game, [("play", 1, "4C"), ("play", 0, "9D"), ("play", 1, "6D"), ("play", 0, "6S"),
               ("play", 1, "4H"), ("go", 0)])
    scored = []
    for event in game.log:
        if isinstance(event, Scored):
            scored.append((event.seat, event.points, event.reason,
                           sorted(i.kind for i in event.items)))
        if isinstance(event, DealEnded):
            break
    assert scored == [
        (1, 4, "show", ["fifteen", "pair"]),
        (0, 13, "show", ["fifteen", "fifteen", "pair", "thirty-one", "twenty-five"]),
        (0, 6, "play", ["pair", "twenty-five"]),
        (1, 1, "play", ["last card"]),
    ]
    assert event.scores == (19, 5)         # after the deal: María 19, Arturo 5


# == the listed shows ========================================================================

SHOWS = [
    # 9 10 10 J: a pair and two runs of three.  noddy 2 + 2 + 2 = 6; modern 2 + 3 + 3 = 8.
    ("noddy", "9C TD TS", "JH", 6, [("pair", 2), ("run", 2), ("run", 2)]),
    ("noddy-modern", "9C TD TS", "JH", 8, [("pair", 2), ("run", 3), ("run", 3)]),
    # T J 4 + 5 (hearts J 4 5): two fifteens 4, twenty-five (T J 5), flush of three 3,
    # held J♥.  ducoeur 4+2+3+1 = 10; holme 4+2+3+2 (held Jack) +5 (J♥ picture) = 16;
    # modern 4 + his nob 1 = 5 (no twenty-five; the hand is not all one suit).
    ("noddy-ducoeur", "TC JH 4H", "5H", 10,
     [F, F, ("twenty-five", 2), ("flush", 3), ("knave noddy", 1)]),
    ("noddy-holme", "TC JH 4H", "5H", 16,
     [F, F, ("twenty-five", 2), ("flush", 3), ("knave noddy", 2), ("picture card", 5)]),
    ("noddy-modern", "TC JH 4H", "5H", 5, [F, F, ("his nob", 1)]),
    # K♠ Q♥ J♥ + 5♥ (holme): three fifteens 6; three twenty-fives (two tens + 5) 6;
    # run J Q K 2; flush Q♥ J♥ 5♥ 3; held J♥ 2; pictures 6 + 4 + 5 = 15.  6+6+2+3+2+15 = 34.
    ("noddy-holme", "KS QH JH", "5H", 34,
     [F, F, F, ("twenty-five", 2), ("twenty-five", 2), ("twenty-five", 2), ("run", 2),
      ("flush", 3), ("knave noddy", 2),
      ("picture card", 6), ("picture card", 4), ("picture card", 5)]),
    # A♣ 2♣ 3♣ + K♣ (five-card): 2+3+K = 15: 2; run A 2 3: 3; flush 3 + 1 = 4.  9.
    ("five-card-cribbage", "AC 2C 3C", "KC", 9, [F, ("run", 3), ("flush", 4)]),
]


@pytest.mark.parametrize("preset, hand, turn_up, total, expected", SHOWS,
                         ids=[f"{p}:{h.replace(' ', '-')}+{t}" for p, h, t, *_ in SHOWS])
def test_listed_shows(preset, hand, turn_up, total, expected):
    score = show(preset, hand, turn_up)
    assert score.total == total
    assert items(score) == sorted(expected)


# == cribbage hands ==========================================================================

CRIBBAGE_HANDS = [
    # 5 5 5 J + 5: eight fifteens (J with each 5: 4; three 5s: 4) 16, double pair royal 12,
    # his nob (J♥, turn-up ♥) 1 = 29.
    ("5C 5S 5D JH", "5H", False, 29, [F] * 8 + [("double pair royal", 12), ("his nob", 1)]),
    # 7 8 7 8 + 9: four fifteens 8, two pairs 4, four runs of three 12 = 24.
    ("7S 8S 7H 8H", "9D", False, 24, [F] * 4 + [("pair", 2)] * 2 + [("run", 3)] * 4),
    # 4 4 4 5 + 6: three fifteens 6, pair royal 6, three runs of three 9 = 21.
    ("4C 4D 4S 5D", "6S", False, 21, [F] * 3 + [("pair royal", 6)] + [("run", 3)] * 3),
    # 2 4 6 8 clubs + 10♦: all even, no fifteen; flush of four as a hand, nothing as a crib.
    ("2C 4C 6C 8C", "TD", False, 4, [("flush", 4)]),
    ("2C 4C 6C 8C", "TD", True, 0, []),
    # with 10♣ turned: five either way.
    ("2C 4C 6C 8C", "TC", False, 5, [("flush", 5)]),
    ("2C 4C 6C 8C", "TC", True, 5, [("flush", 5)]),
]


@pytest.mark.parametrize("hand, turn_up, crib, total, expected", CRIBBAGE_HANDS,
                         ids=[f"{h.replace(' ', '-')}+{t}{'-crib' if c else ''}"
                              for h, t, c, *_ in CRIBBAGE_HANDS])
def test_cribbage_hands(hand, turn_up, crib, total, expected):
    score = show("cribbage", hand, turn_up, crib)
    assert score.total == total
    assert items(score) == sorted(expected)


# == cribbage play ===========================================================================

CRIBBAGE_PLAY = [
    # 5, 5, 5: the third 5 makes 15 and a pair royal: 2 + 6 = 8.
    ("5C 5D 5S", 8, [F, ("pair royal", 6)]),
    # 2, 3, 3, 4: the 4 makes no run (the last three are 3 3 4, the last four repeat a 3).
    ("2C 3D 3S 4H", 0, []),
    # 4, 2, 5, 3: a run of four; then 6: a run of five.
    ("4C 2D 5S 3H", 4, [("run", 4)]),
    ("4C 2D 5S 3H 6C", 5, [("run", 5)]),
]


@pytest.mark.parametrize("pile, total, expected", CRIBBAGE_PLAY,
                         ids=[p.replace(" ", "-") for p, *_ in CRIBBAGE_PLAY])
def test_cribbage_play_examples(pile, total, expected):
    score = score_play(parse_cards(pile), "cribbage")
    assert score.total == total
    assert items(score) == sorted(expected)
