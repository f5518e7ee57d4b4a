"""The show, cell by cell of RULES.md's "Show" table, for each of the six presets.

Every expectation below was worked out by hand from RULES.md (the arithmetic is in the
comments), never by running the engine.  A row is (preset, hand, turn-up, expected items),
and an item is (kind, points); a test compares the engine's items as a multiset, so a
missing, extra or mis-valued combination fails.

Hands are chosen so that the combination under test is the only one in them (or the extra
ones are written out).  Noddy presets show 3 cards + turn-up, `five-card-cribbage` a
3-card hand (or a 4-card crib), `cribbage` a 4-card hand or crib.
"""

from __future__ import annotations

import random

import pytest

from noddy.engine import FULL_DECK, PRESETS, Card, configure, parse_cards, score_show, show_total

from .presets import ALL, CRIB, CRIBBAGE_LIKE, DUCOEUR, FIVE, HOLME, MODERN, NODDY, NODDY_PRESETS  # noqa: F401
THREE_CARD_PRESETS = (NODDY, DUCOEUR, HOLME, MODERN, FIVE)

F = ("fifteen", 2)


def items(score) -> list[tuple[str, int]]:
    return sorted((item.kind, item.points) for item in score.items)


def show(preset, hand, turn_up, crib=False):
    return score_show(parse_cards(hand), Card.parse(turn_up), preset, crib=crib)


def check(preset, hand, turn_up, expected, crib=False):
    score = show(preset, hand, turn_up, crib)
    assert items(score) == sorted(expected), (preset, hand, turn_up)
    assert score.total == sum(points for _, points in expected)


def rows(hand, turn_up, by_preset):
    """One row per preset: ``by_preset`` maps a preset (or a tuple of presets) to items."""
    out = []
    for presets, expected in by_preset.items():
        for preset in (presets if isinstance(presets, tuple) else (presets,)):
            out.append(pytest.param(preset, hand, turn_up, expected,
                                    id=f"{preset}:{hand.replace(' ', '-')}+{turn_up}"))
    return out


# -- fifteen: any subset, 2 each, in every preset -------------------------------------------

FIFTEENS = [
    # 7+8 = 15; nothing else (2 4 7 8: no run, no pair, four suits, total 21).
    *rows("7C 8D 2S", "4H", {THREE_CARD_PRESETS: [F]}),
    # cribbage, 4-card hand: 7+8 only (A 2 7 8 K: a ten needs 5 more, A+2 is 3).
    *rows("7C 8D 2S AH", "KD", {CRIB: [F]}),
    # 9+6 and 9+2+4: two fifteens.
    *rows("9C 6D 2S", "4H", {THREE_CARD_PRESETS: [F, F]}),
    # 9+6 and 9+2+4 again; the K would need a 5 (2+4 is 6).
    *rows("9C 6D 2S 4H", "KC", {CRIB: [F, F]}),
]


@pytest.mark.parametrize("preset, hand, turn_up, expected", FIFTEENS)
def test_every_subset_making_fifteen_scores_two(preset, hand, turn_up, expected):
    check(preset, hand, turn_up, expected)


# -- twenty-five: a subset of 3+ cards (Noddy presets only) ----------------------------------

TWENTY_FIVES = [
    # K+5, Q+5 = two fifteens; K+Q+5 = 25 with three cards.
    *rows("KC QD 5S", "2H", {
        NODDY: [F, F, ("twenty-five", 3)],           # 1 per card: 3
        (DUCOEUR, HOLME): [F, F, ("twenty-five", 2)],  # 2 each
        (MODERN, FIVE): [F, F],                        # no twenty-five
    }),
    # 9+9+4+3 = 25 with all four cards; no fifteen (sums 13 12 7 18 16 16 21 22); pair of 9s.
    *rows("9C 9D 4S", "3H", {
        NODDY: [("twenty-five", 4), ("pair", 2)],
        DUCOEUR: [("twenty-five", 2), ("pair", 2)],
        HOLME: [("twenty-five", 2), ("pair", 4)],
        (MODERN, FIVE): [("pair", 2)],
    }),
    # 5 5 10 10: four fifteens (each 5 with each ten), two twenty-fives (one 5 with both
    # tens), a pair of fives.  noddy 8+6+2=16, ducoeur 8+4+2=14, holme 8+4+4=16, modern 10.
    *rows("5C 5D TS", "KH", {
        NODDY: [F, F, F, F, ("twenty-five", 3), ("twenty-five", 3), ("pair", 2)],
        DUCOEUR: [F, F, F, F, ("twenty-five", 2), ("twenty-five", 2), ("pair", 2)],
        HOLME: [F, F, F, F, ("twenty-five", 2), ("twenty-five", 2), ("pair", 4)],
        (MODERN, FIVE): [F, F, F, F, ("pair", 2)],
    }),
    # cribbage: tens with 5 and with 2+3 = four fifteens; K+Q+5 = 25 is not scored.
    *rows("KC QD 5S 2H", "3C", {CRIB: [F, F, F, F]}),
]


@pytest.mark.parametrize("preset, hand, turn_up, expected", TWENTY_FIVES)
def test_twenty_five_per_card_in_noddy_two_in_ducoeur_and_holme_none_elsewhere(
        preset, hand, turn_up, expected):
    check(preset, hand, turn_up, expected)


# -- thirty-one: all four cards (Noddy presets only) ----------------------------------------

THIRTY_ONES = [
    # 10+10+9+2 = 31; no fifteen or twenty-five (pairs 20 19 12 19 12 11, triples 29 22 21 21);
    # 9 10 K is no run (no J).
    *rows("KC TD 9S", "2H", {NODDY_PRESETS: [("thirty-one", 4)], (MODERN, FIVE): []}),
    # cribbage: five cards making 31 score nothing for it; only the pair of aces.
    *rows("KC TD 9S AH", "AD", {CRIB: [("pair", 2)]}),
]


@pytest.mark.parametrize("preset, hand, turn_up, expected", THIRTY_ONES)
def test_thirty_one_with_all_four_cards_scores_one_per_card_in_noddy_presets_only(
        preset, hand, turn_up, expected):
    check(preset, hand, turn_up, expected)


# -- pairs: 2 / 6 / 12, Holme 4 / 12 / 24 ----------------------------------------------------

OTHERS = (NODDY, DUCOEUR, MODERN, FIVE)
PAIRS = [
    # 4 4 9 K: no fifteen (4+4+... needs 7, 9 needs 6, ten needs 5), no 25, no run.
    *rows("4C 4D 9S", "KH", {OTHERS: [("pair", 2)], HOLME: [("pair", 4)]}),
    *rows("4C 4D 9S QH", "KH", {CRIB: [("pair", 2)]}),
    # 4 4 4 K: sums 12, 14, 18, 22 -- only the pair royal.
    *rows("4C 4D 4S", "KH", {OTHERS: [("pair royal", 6)], HOLME: [("pair royal", 12)]}),
    *rows("4C 4D 4S QH", "KH", {CRIB: [("pair royal", 6)]}),
    # four 4s: 16 in all, no fifteen, no thirty-one.
    *rows("4C 4D 4S", "4H", {OTHERS: [("double pair royal", 12)],
                             HOLME: [("double pair royal", 24)]}),
    *rows("4C 4D 4S 4H", "KS", {CRIB: [("double pair royal", 12)]}),
    # two different pairs: 4 4 9 9 (sums 8 13 18 17 22 26): two pairs.
    *rows("4C 4D 9S", "9H", {OTHERS: [("pair", 2), ("pair", 2)],
                             HOLME: [("pair", 4), ("pair", 4)]}),
    *rows("4C 4D 9S 9H", "KS", {CRIB: [("pair", 2), ("pair", 2)]}),
]


@pytest.mark.parametrize("preset, hand, turn_up, expected", PAIRS)
def test_pair_pair_royal_and_double_pair_royal(preset, hand, turn_up, expected):
    check(preset, hand, turn_up, expected)


# -- runs: Noddy 2 / 4 / 1 a card; the rest 1 a card; each distinct run counts --------------

RUNS = [
    # A 2 3 + 7: a run of three, no fifteen (the four make 13).
    *rows("AC 2D 3S", "7H", {NODDY_PRESETS: [("run", 2)], (MODERN, FIVE): [("run", 3)]}),
    # A 2 3 4: a run of four (sum 10).
    *rows("AC 2D 3S", "4H", {THREE_CARD_PRESETS: [("run", 4)]}),
    # 9 10 10 J: a pair and two runs of three (RULES.md: 6 under noddy).
    *rows("9C TD TS", "JH", {
        (NODDY, DUCOEUR): [("pair", 2), ("run", 2), ("run", 2)],
        HOLME: [("pair", 4), ("run", 2), ("run", 2)],
        (MODERN, FIVE): [("pair", 2), ("run", 3), ("run", 3)],
    }),
    # Q K A is no run (ace low); no fifteen (K Q A 7: 21, 28, 8...).
    *rows("QC KD AS", "7H", {THREE_CARD_PRESETS: []}),
    # cribbage: a run of five, 9 to K (no fifteen: every pair of them is 19+).
    *rows("9C TD JS QH", "KC", {CRIB: [("run", 5)]}),
    # cribbage: 7 7 8 8 9 -- four fifteens, two pairs, four runs of three = 8+4+12 = 24.
    *rows("7S 8S 7H 8H", "9D", {CRIB: [F, F, F, F, ("pair", 2), ("pair", 2),
                                        ("run", 3), ("run", 3), ("run", 3), ("run", 3)]}),
    # cribbage: 4 4 4 5 6 -- three fifteens (4+5+6), pair royal, three runs = 6+6+9 = 21.
    *rows("4C 4D 4S 5D", "6S", {CRIB: [F, F, F, ("pair royal", 6),
                                        ("run", 3), ("run", 3), ("run", 3)]}),
]


@pytest.mark.parametrize("preset, hand, turn_up, expected", RUNS)
def test_runs_score_by_length_and_every_distinct_run_counts(preset, hand, turn_up, expected):
    check(preset, hand, turn_up, expected)


def test_run_of_five_scores_five_in_noddy_modern_with_four_cards():
    rules = configure(MODERN, options={"four_card": True})
    check(rules, "9C TD JS QH", "KC", [("run", 5)])


# -- flush -----------------------------------------------------------------------------------
# A 3 9 7 / A 3 9 K 7 in any suits: no fifteen (pairs 4 10 8 12 16 10 ..., triples 11-26 but
# never 15), no run, no pair -- only the flush can score.

FLUSHES = [
    # Noddy: 3+ cards of one suit among hand and turn-up, 1 a card.
    *rows("AH 3H 9C", "7H", {NODDY_PRESETS: [("flush", 3)], (MODERN, FIVE): []}),
    *rows("AH 3H 9H", "7C", {NODDY_PRESETS: [("flush", 3)],
                             MODERN: [("flush", 3)],       # all hand cards
                             FIVE: [("flush", 3)]}),       # hand: 3
    *rows("AH 3H 9H", "7H", {NODDY_PRESETS: [("flush", 4)],
                             MODERN: [("flush", 4)],       # 3 + 1 for the turn-up
                             FIVE: [("flush", 4)]}),       # 3 + 1
    *rows("AH 3H 9C", "7S", {THREE_CARD_PRESETS: []}),     # only two of a suit
    # cribbage hand: 4, or 5 with the turn-up; 3 of 4 in hand is nothing.
    *rows("AH 3H 9H KH", "7C", {CRIB: [("flush", 4)]}),
    *rows("AH 3H 9H KH", "7H", {CRIB: [("flush", 5)]}),
    *rows("AH 3H 9H KC", "7H", {CRIB: []}),
]


@pytest.mark.parametrize("preset, hand, turn_up, expected", FLUSHES)
def test_flush_in_the_hand(preset, hand, turn_up, expected):
    check(preset, hand, turn_up, expected)


CRIB_FLUSHES = [
    # A crib flush counts only together with the turn-up: 5 or nothing.
    pytest.param(FIVE, "AH 3H 9H KH", "7C", [], id="five-card:crib-4-hearts-turn-up-club"),
    pytest.param(FIVE, "AH 3H 9H KH", "7H", [("flush", 5)], id="five-card:crib-5-hearts"),
    pytest.param(FIVE, "AH 3H 9H KC", "7H", [], id="five-card:crib-3-hearts-plus-turn-up"),
    pytest.param(CRIB, "AH 3H 9H KH", "7C", [], id="cribbage:crib-4-hearts-turn-up-club"),
    pytest.param(CRIB, "AH 3H 9H KH", "7H", [("flush", 5)], id="cribbage:crib-5-hearts"),
    pytest.param(CRIB, "AH 3H 9H KC", "7H", [], id="cribbage:crib-3-hearts-plus-turn-up"),
]


@pytest.mark.parametrize("preset, crib, turn_up, expected", CRIB_FLUSHES)
def test_crib_flush_needs_all_four_crib_cards_and_the_turn_up(preset, crib, turn_up, expected):
    check(preset, crib, turn_up, expected, crib=True)


@pytest.mark.parametrize("turn_up, expected", [
    ("7C", [("flush", 4)]),   # all four hand cards
    ("7H", [("flush", 5)]),   # + 1 for the turn-up
])
def test_modern_four_card_flush_is_every_hand_card_plus_one_for_the_turn_up(turn_up, expected):
    rules = configure(MODERN, options={"four_card": True})
    check(rules, "AH 3H 9H KH", turn_up, expected)
    check(rules, "AH 3H 9H KC", turn_up, [])


# -- the Jack of the turn-up's suit, held ----------------------------------------------------
# J 6 8 + 3: no fifteen (a ten needs 5; 6+8=14, 6+3=9, 8+3=11, 6+8+3=17), no 25, no run.

HELD_JACKS = [
    *rows("JH 6C 8D", "3H", {
        (NODDY, DUCOEUR): [("knave noddy", 1)],
        HOLME: [("knave noddy", 2), ("picture card", 5)],   # J♥ is also a Holme picture
        (MODERN, FIVE): [("his nob", 1)],
    }),
    # a Jack of another suit is nothing (J♣ is no picture card either)
    *rows("JC 6C 8D", "3H", {THREE_CARD_PRESETS: []}),
    # J 7 9 A + 3: no fifteen, no run: only his nob.
    *rows("JH 7C 9D AS", "3H", {CRIB: [("his nob", 1)]}),
]


@pytest.mark.parametrize("preset, hand, turn_up, expected", HELD_JACKS)
def test_held_jack_of_the_turn_ups_suit(preset, hand, turn_up, expected):
    check(preset, hand, turn_up, expected)


@pytest.mark.parametrize("preset, hand, turn_up", [
    *[pytest.param(p, "6C 8D 3S", "JH", id=p) for p in THREE_CARD_PRESETS],
    pytest.param(CRIB, "7C 9D AS 3H", "JH", id=CRIB),
])
def test_turned_up_jack_is_never_a_held_jack_nor_a_picture(preset, hand, turn_up):
    # 6 8 3 J: no fifteen (ten needs 5, 6+8+... needs 1), no 25 (24 19 21 17), no run.
    # 7 9 A 3 J: no fifteen, no run.
    check(preset, hand, turn_up, [])


def test_jack_in_the_crib_of_the_turn_ups_suit_scores_his_nob():
    check(CRIB, "JH 7C 9D AS", "3H", [("his nob", 1)], crib=True)


# -- Holme's picture cards: K♠ 6, Q♥ 4, J♥ 5, only when held --------------------------------
# x 2 4 + 8: no fifteen (ten needs 5: 2+4=6; 8 needs 7), no 25 (2+4+8+10 = 24), no run.

PICTURES = [
    pytest.param("KS 2C 4D", "8H", [("picture card", 6)], id="king-of-spades-6"),
    pytest.param("QH 2C 4D", "8S", [("picture card", 4)], id="queen-of-hearts-4"),
    pytest.param("JH 2C 4D", "8S", [("picture card", 5)], id="jack-of-hearts-5"),
    pytest.param("KH 2C 4D", "8S", [], id="king-of-hearts-is-no-picture"),
    pytest.param("QS 2C 4D", "8H", [], id="queen-of-spades-is-no-picture"),
    pytest.param("2C 4D 8H", "KS", [], id="turned-up-king-of-spades-is-not-held"),
    pytest.param("2C 4D 8S", "QH", [], id="turned-up-queen-of-hearts-is-not-held"),
]


@pytest.mark.parametrize("hand, turn_up, expected", PICTURES)
def test_holme_picture_cards_held(hand, turn_up, expected):
    check(HOLME, hand, turn_up, expected)


@pytest.mark.parametrize("preset", [NODDY, DUCOEUR, MODERN, FIVE])
def test_picture_cards_score_nothing_outside_holme(preset):
    check(preset, "KS 2C 4D", "8H", [])
    check(preset, "QH 2C 4D", "8S", [])


# -- the fast path agrees with the itemised score --------------------------------------------

def _sample_configs():
    """(label, rules, hand size, crib?) for every shape of show each preset has."""
    return [
        ("noddy", PRESETS[NODDY], 3, False),
        ("noddy-ducoeur", PRESETS[DUCOEUR], 3, False),
        ("noddy-holme", PRESETS[HOLME], 3, False),
        ("noddy-modern", PRESETS[MODERN], 3, False),
        ("noddy-modern+four_card", configure(MODERN, options={"four_card": True}), 4, False),
        ("five-card-hand", PRESETS[FIVE], 3, False),
        ("five-card-crib", PRESETS[FIVE], 4, True),
        ("cribbage-hand", PRESETS[CRIB], 4, False),
        ("cribbage-crib", PRESETS[CRIB], 4, True),
    ]


SAMPLE_PER_PRESET = 20_000


@pytest.mark.parametrize("label, rules, size, crib",
                         [pytest.param(*c, id=c[0]) for c in _sample_configs()])
def test_show_total_equals_score_show_total_on_a_seeded_random_sample(label, rules, size, crib):
    # 20,000 shows per preset, split between the shapes a preset has (hand and crib, or
    # three and four cards).
    shapes = sum(1 for c in _sample_configs() if c[1].name == rules.name)
    rng = random.Random(f"show-total:{label}")
    deck = list(FULL_DECK)
    mismatches = []
    for _ in range(SAMPLE_PER_PRESET // shapes):
        cards = rng.sample(deck, size + 1)
        hand, turn_up = cards[:size], cards[size]
        fast = show_total(hand, turn_up, rules, crib=crib)
        slow = score_show(hand, turn_up, rules, crib=crib).total
        if fast != slow:
            mismatches.append((" ".join(map(str, hand)), str(turn_up), fast, slow))
    assert mismatches[:5] == []


def test_show_total_scores_suit_rules_like_score_show_on_hand_made_cases():
    # Held Jack + Holme picture (2 + 5), crib flush without the turn-up (0), hand flush (4),
    # Noddy flush using the turn-up (3), turned-up Jack and picture (0).
    assert show_total(parse_cards("JH 6C 8D"), Card.parse("3H"), PRESETS[HOLME]) == 7
    assert show_total(parse_cards("AH 3H 9H KH"), Card.parse("7C"), PRESETS[CRIB], crib=True) == 0
    assert show_total(parse_cards("AH 3H 9H KH"), Card.parse("7C"), PRESETS[CRIB]) == 4
    assert show_total(parse_cards("AH 3H 9C"), Card.parse("7H"), PRESETS[NODDY]) == 3
    assert show_total(parse_cards("6C 8D 3S"), Card.parse("JH"), PRESETS[HOLME]) == 0
