"""The play, cell by cell of RULES.md's "Play" table, for each of the six presets.

``score_play(pile, preset)`` gives what the last card of ``pile`` (the cards played since
the count last started at 0) scores, exactly-31 included, the last-card / go point not.
The second half drives whole deals through :class:`Game` from a stacked deck, to pin the
go, last-card, 31 and count-restart rules.  Every expectation was worked out by hand from
RULES.md.
"""

from __future__ import annotations

import pytest

from noddy.engine import (
    CountReset,
    DealEnded,
    Discard,
    Game,
    Go,
    HandsRevealed,
    Play,
    Played,
    SaidGo,
    Scored,
    configure,
    parse_cards,
    score_play,
)

from .conftest import deal_deck
from .eventlog import first_deal

from .presets import ALL, CRIB, CRIBBAGE_LIKE, DUCOEUR, FIVE, HOLME, MODERN, NODDY, NODDY_PRESETS  # noqa: F401
F = ("fifteen", 2)


def items(score) -> list[tuple[str, int]]:
    return sorted((item.kind, item.points) for item in score.items)


def rows(pile, by_preset):
    out = []
    for presets, expected in by_preset.items():
        for preset in (presets if isinstance(presets, tuple) else (presets,)):
            out.append(pytest.param(preset, pile, expected,
                                    id=f"{preset}:{pile.replace(' ', '-')}"))
    return out


def check(preset, pile, expected):
    score = score_play(parse_cards(pile), preset)
    assert items(score) == sorted(expected), (preset, pile)
    assert score.total == sum(points for _, points in expected)


# -- the count: 15, 25, 31 -------------------------------------------------------------------

COUNTS = [
    # 7+8 = 15
    *rows("7C 8D", {ALL: [F]}),
    # 10+5+10 = 25 with three cards (no pair: 5 then K; no run; three suits)
    *rows("KC 5D KS", {NODDY: [("twenty-five", 3)],
                       (DUCOEUR, HOLME): [("twenty-five", 2)],
                       CRIBBAGE_LIKE: []}),
    # 6+9+4+6 = 25 with four cards (6 after 4: no pair; 9 4 6 / 6 9 4 6: no run)
    *rows("6C 9D 4S 6H", {NODDY: [("twenty-five", 4)],
                          (DUCOEUR, HOLME): [("twenty-five", 2)],
                          CRIBBAGE_LIKE: []}),
    # 1+2+9+3+10 = 25 with five cards
    *rows("AC 2D 9S 3H TC", {NODDY: [("twenty-five", 5)],
                             (DUCOEUR, HOLME): [("twenty-five", 2)],
                             CRIBBAGE_LIKE: []}),
    # 10+10+5+6 = 31: 2 in all (hitter / thirty-one); Q 5 6 is no run
    *rows("KC QD 5S 6H", {NODDY_PRESETS: [("hitter", 2)], CRIBBAGE_LIKE: [("thirty-one", 2)]}),
    # 10+5+8+8 = 31 with a pair: both count
    *rows("TC 5D 8S 8H", {(NODDY, DUCOEUR): [("hitter", 2), ("pair", 2)],
                          HOLME: [("hitter", 2), ("pair", 4)],
                          CRIBBAGE_LIKE: [("thirty-one", 2), ("pair", 2)]}),
    # 10+9+2+9 = 30 is nothing (the second 9 follows the 2: no pair; no run)
    *rows("KC 9D 2S 9H", {ALL: []}),
]


@pytest.mark.parametrize("preset, pile, expected", COUNTS)
def test_count_of_fifteen_twenty_five_and_thirty_one(preset, pile, expected):
    check(preset, pile, expected)


@pytest.mark.parametrize("preset", NODDY_PRESETS)
@pytest.mark.parametrize("pile, expected", [
    # hitter 2 + thirty-one 1 a card
    ("KC QD 5S 6H", [("hitter", 2), ("thirty-one", 4)]),
    # 1+2+9+3+10+6 = 31 with six cards (T♣ 6♣ after 3♥: no flush of three)
    ("AC 2D 9S 3H TC 6C", [("hitter", 2), ("thirty-one", 6)]),
])
def test_hitter_counts_thirty_one_option_adds_one_per_card(preset, pile, expected):
    rules = configure(preset, options={"hitter_counts_thirty_one": True})
    score = score_play(parse_cards(pile), rules)
    assert items(score) == sorted(expected)


@pytest.mark.parametrize("preset", NODDY_PRESETS)
def test_hitter_counts_thirty_one_option_leaves_other_counts_alone(preset):
    rules = configure(preset, options={"hitter_counts_thirty_one": True})
    assert items(score_play(parse_cards("7C 8D"), rules)) == [F]
    assert items(score_play(parse_cards("KC 9D 2S 9H"), rules)) == []


# -- pairs -----------------------------------------------------------------------------------

PAIRS = [
    *rows("9C 9D", {HOLME: [("pair", 4)], (NODDY, DUCOEUR) + CRIBBAGE_LIKE: [("pair", 2)]}),
    # 27: pair royal
    *rows("9C 9D 9S", {HOLME: [("pair royal", 12)],
                       (NODDY, DUCOEUR) + CRIBBAGE_LIKE: [("pair royal", 6)]}),
    # A A A A = 4: double pair royal
    *rows("AC AD AS AH", {HOLME: [("double pair royal", 24)],
                          (NODDY, DUCOEUR) + CRIBBAGE_LIKE: [("double pair royal", 12)]}),
    # 5 5 5 = 15: fifteen and pair royal (RULES.md's cribbage example: 8)
    *rows("5C 5D 5S", {HOLME: [F, ("pair royal", 12)],
                       (NODDY, DUCOEUR) + CRIBBAGE_LIKE: [F, ("pair royal", 6)]}),
    # 5 5 5 5 = 20: double pair royal
    *rows("5C 5D 5S 5H", {HOLME: [("double pair royal", 24)],
                          (NODDY, DUCOEUR) + CRIBBAGE_LIKE: [("double pair royal", 12)]}),
    # a pair must be with the last cards: 6 6 4 6 (22) is nothing
    *rows("6C 6D 4S 6H", {ALL: []}),
    # only the last cards pair: 7 7 2 2 (18) is one pair, of the 2s
    *rows("7C 7D 2S 2H", {HOLME: [("pair", 4)], (NODDY, DUCOEUR) + CRIBBAGE_LIKE: [("pair", 2)]}),
]


@pytest.mark.parametrize("preset, pile, expected", PAIRS)
def test_pairs_with_the_last_cards_played(preset, pile, expected):
    check(preset, pile, expected)


# -- runs ------------------------------------------------------------------------------------

RUNS = [
    # 3 5 4 (12): a run of three in any order
    *rows("3C 5D 4S", {NODDY_PRESETS: [("run", 2)], CRIBBAGE_LIKE: [("run", 3)]}),
    # 3 5 4 6 (18): only the longest run, four
    *rows("3C 5D 4S 6H", {ALL: [("run", 4)]}),
    # 3 5 4 6 2 (20): five
    *rows("3C 5D 4S 6H 2C", {ALL: [("run", 5)]}),
    # 4 5 4 6 (19): the last three are 5 4 6; the last four have a repeated 4
    *rows("4C 5D 4S 6H", {NODDY_PRESETS: [("run", 2)], CRIBBAGE_LIKE: [("run", 3)]}),
    # 2 3 3 4 (12): the 4 makes no run (RULES.md example)
    *rows("2C 3D 3S 4H", {ALL: []}),
    # K Q J (30): a run; Q K A (21) is none
    *rows("KC QD JS", {NODDY_PRESETS: [("run", 2)], CRIBBAGE_LIKE: [("run", 3)]}),
    *rows("QC KD AS", {ALL: []}),
    # 4 2 5 3 (14): run of four; then 6 (20): run of five (RULES.md example)
    *rows("4C 2D 5S 3H", {ALL: [("run", 4)]}),
    *rows("4C 2D 5S 3H 6C", {ALL: [("run", 5)]}),
    # 4 5 6 = 15: fifteen and a run
    *rows("4C 5D 6S", {NODDY_PRESETS: [F, ("run", 2)], CRIBBAGE_LIKE: [F, ("run", 3)]}),
    # 7 8 9 A 2 3 4 5 would pass 31; 8 9 7 6 5 (35) too -- run of six: A 2 3 4 5 6 (21)
    *rows("AC 2D 3S 4H 5C 6D", {ALL: [("run", 6)]}),
]


@pytest.mark.parametrize("preset, pile, expected", RUNS)
def test_runs_any_order_only_the_longest(preset, pile, expected):
    check(preset, pile, expected)


# -- flush in the play: Noddy presets only ---------------------------------------------------

FLUSHES = [
    # 2 9 5 (16) all hearts
    *rows("2H 9H 5H", {NODDY_PRESETS: [("flush", 3)], CRIBBAGE_LIKE: []}),
    # 2 9 5 7 (23) all hearts: only the longest flush
    *rows("2H 9H 5H 7H", {NODDY_PRESETS: [("flush", 4)], CRIBBAGE_LIKE: []}),
    # the last three hearts
    *rows("2C 9H 5H 7H", {NODDY_PRESETS: [("flush", 3)], CRIBBAGE_LIKE: []}),
    # broken by a club: the last two only
    *rows("2H 9C 5H 7H", {ALL: []}),
    # 3 5 4 (12) all hearts: run and flush
    *rows("3H 5H 4H", {NODDY_PRESETS: [("run", 2), ("flush", 3)], CRIBBAGE_LIKE: [("run", 3)]}),
]


@pytest.mark.parametrize("preset, pile, expected", FLUSHES)
def test_flush_of_the_last_cards_in_the_play(preset, pile, expected):
    check(preset, pile, expected)


def test_score_play_of_an_empty_pile_is_nothing():
    assert items(score_play([], NODDY)) == []


# -- whole deals through Game, from a stacked deck -------------------------------------------

DEALER_IS_SEAT_0 = "AC KD"   # seat 0 cuts the ace: seat 0 deals, seat 1 leads


def run(game, steps):
    """Apply ("play", seat, card) / ("go", seat) steps, checking each is the seat to move."""
    events = []
    for step in steps:
        seat = step[1]
        assert game.to_move == seat, (step, game.to_move)
        action = Play(seat, step[2]) if step[0] == "play" else Go(seat)
        events += game.apply(action)
    return events


def pegs(events, reason=None):
    return [(e.seat, e.points, e.reason, sorted((i.kind, i.points) for i in e.items))
            for e in events if isinstance(e, Scored) and (reason is None or e.reason == reason)]


# Pone (seat 1) KC QC 2H, dealer (seat 0) KD 9D 5S, turn-up 4C.  Pone K (10), dealer K (20,
# pair), pone Q (30); neither can play on (9, 5 and 2 all pass 31).
GO_DEAL = deal_deck(["KC QC 2H", "KD 9D 5S"], "4C")
GO_STEPS = [("play", 1, "KC"), ("play", 0, "KD"), ("play", 1, "QC"), ("go", 0), ("go", 1)]


def test_noddy_one_round_play_ends_when_nobody_can_play_on_and_the_last_card_scores_one(stack):
    stack(DEALER_IS_SEAT_0, GO_DEAL)
    game = Game(NODDY, seed=1)
    assert game.dealer == 0 and game.phase == "play"
    run(game, GO_STEPS)
    events = first_deal(game.log)
    assert pegs(events, "play") == [
        (0, 2, "play", [("pair", 2)]),
        (1, 1, "play", [("last card", 1)]),
    ]
    # one round only: the 9, 5 and 2 still in hand are never played and no count restarts
    assert not any(isinstance(e, CountReset) for e in events)
    assert [str(e.card) for e in events if isinstance(e, Played)] == ["KC", "KD", "QC"]
    assert isinstance(events[-2], HandsRevealed)
    # shows before the play: pone K♣ Q♣ 2H + 4♣ = flush of three clubs 3; dealer K 9 5 + 4 =
    # fifteen (K+5) 2.  After the deal: dealer 2+2 = 4, pone 3+1 = 4.
    assert pegs(events, "show") == [(1, 3, "show", [("flush", 3)]), (0, 2, "show", [F])]
    assert events[-1].scores == (4, 4)


def test_modern_go_scores_one_then_the_count_restarts_led_by_the_next_player(stack):
    stack(DEALER_IS_SEAT_0, GO_DEAL)
    game = Game(MODERN, seed=1)
    run(game, GO_STEPS)
    # after the go (pone played last), the dealer leads the new count: 9 (9), 2 (11), 5 (16);
    # all cards played, the dealer's 5 is the last card: go 1.
    run(game, [("play", 0, "9D"), ("play", 1, "2H"), ("play", 0, "5S")])
    events = first_deal(game.log)
    kinds = [type(e).__name__ for e in events
             if isinstance(e, (Played, SaidGo, CountReset, Scored, DealEnded))]
    assert kinds == [
        "Played", "Played", "Scored", "Played", "SaidGo", "SaidGo", "Scored", "CountReset",
        "Played", "Played", "Played", "Scored",
        "Scored", "Scored",          # the show, after the play: pone, then dealer
        "DealEnded",
    ]
    assert pegs(events, "play") == [
        (0, 2, "play", [("pair", 2)]),
        (1, 1, "play", [("go", 1)]),
        (0, 1, "play", [("go", 1)]),
    ]
    # shows (modern): pone K♣ Q♣ 2♥ + 4♣ nothing (not all hand cards one suit);
    # dealer K 9 5 + 4: fifteen 2.  After the deal: dealer 2+1+2 = 5, pone 1.
    assert pegs(events, "show") == [(1, 0, "show", []), (0, 2, "show", [F])]
    assert events[-1].scores == (5, 1)


# Pone (seat 1) KC 5S 2H, dealer (seat 0) QC 6H 3D, turn-up 9C.  K (10), Q (20), 5 (25: three
# cards), 6 (31: hitter).  The 2 and 3 are left in hand.
HITTER_DEAL = deal_deck(["KC 5S 2H", "QC 6H 3D"], "9C")
HITTER_STEPS = [("play", 1, "KC"), ("play", 0, "QC"), ("play", 1, "5S"), ("play", 0, "6H")]


@pytest.mark.parametrize("options, hitter_items", [
    ({}, [("hitter", 2)]),
    ({"hitter_counts_thirty_one": True}, [("hitter", 2), ("thirty-one", 4)]),
])
def test_noddy_thirty_one_ends_the_one_round_play_without_a_last_card_point(
        stack, options, hitter_items):
    stack(DEALER_IS_SEAT_0, HITTER_DEAL)
    game = Game(NODDY, options=options, seed=1)
    run(game, HITTER_STEPS)
    events = first_deal(game.log)
    hitter = sum(p for _, p in hitter_items)
    assert pegs(events, "play") == [
        (1, 3, "play", [("twenty-five", 3)]),
        (0, hitter, "play", sorted(hitter_items)),
    ]
    assert not any(isinstance(e, (CountReset, SaidGo)) for e in events)
    # shows: pone K 5 2 + 9: fifteen (K+5) 2; dealer Q 6 3 + 9: fifteen (6+9) 2 and
    # twenty-five (Q+6+9) 3 = 5.  After: dealer 5 + hitter, pone 2 + 3.
    assert pegs(events, "show") == [(1, 2, "show", [F]), (0, 5, "show", [F, ("twenty-five", 3)])]
    assert events[-1].scores == (5 + hitter, 5)


# Cribbage: pone (seat 1) keeps K♣ Q♣ 9♠ 2♥ (lays away 3♣ 3♦), dealer (seat 0) keeps
# K♦ 8♦ 7♠ 6♥ (lays away A♣ A♦); turn-up T♠.
CRIB_DEAL = deal_deck(["KC QC 9S 2H 3C 3D", "KD 8D 7S 6H AC AD"], "TS")


def test_cribbage_count_restarts_after_each_go_until_every_card_is_played(stack):
    stack(DEALER_IS_SEAT_0, CRIB_DEAL)
    game = Game(CRIB, seed=1)
    game.apply(Discard(1, ["3C", "3D"]))
    game.apply(Discard(0, ["AC", "AD"]))
    assert str(game.turn_up) == "TS" and game.to_move == 1
    run(game, [
        ("play", 1, "KC"), ("play", 0, "KD"),         # 20: pair 2 (dealer)
        ("play", 1, "QC"), ("go", 0), ("go", 1),      # 30: go 1 (pone); count restarts
        ("play", 0, "8D"), ("play", 1, "9S"),         # the dealer leads: 8, 17
        ("play", 0, "7S"),                            # 24: 8 9 7, a run of three (dealer)
        ("play", 1, "2H"), ("go", 0),                 # 26: go 1 (pone); count restarts
        ("play", 0, "6H"),                            # 6: last card, go 1 (dealer)
    ])
    events = first_deal(game.log)
    assert pegs(events, "play") == [
        (0, 2, "play", [("pair", 2)]),
        (1, 1, "play", [("go", 1)]),
        (0, 3, "play", [("run", 3)]),
        (1, 1, "play", [("go", 1)]),
        (0, 1, "play", [("go", 1)]),
    ]
    assert sum(isinstance(e, CountReset) for e in events) == 2
    # the show, after the play: pone K Q 9 2 + T nothing (9 T . Q K has no J); dealer
    # K 8 7 6 + T: 7+8 fifteen 2, run 6 7 8 3 = 5; crib A A 3 3 + T: T+3+A+A twice = 4,
    # two pairs 4 = 8.  After: dealer play 2+3+1 = 6, + 5 + 8 = 19; pone 1+1 = 2.
    assert [(s, p, r) for s, p, r, _ in pegs(events) if r != "play"] == [
        (1, 0, "show"), (0, 5, "show"), (0, 8, "crib")]
    assert events[-1].scores == (19, 2)


def test_cribbage_thirty_one_scores_two_and_restarts_led_by_the_next_player(stack):
    # pone K♣ Q♣ 9♠ 2♥, dealer K♦ A♥ 8♦ 7♠: K (10), K (20, pair), Q (30), A (31: 2);
    # the pone leads the new count.
    deck = deal_deck(["KC QC 9S 2H 3C 3D", "KD AH 8D 7S AC AD"], "TS")
    stack(DEALER_IS_SEAT_0, deck)
    game = Game(CRIB, seed=1)
    game.apply(Discard(1, ["3C", "3D"]))
    game.apply(Discard(0, ["AC", "AD"]))
    events = run(game, [("play", 1, "KC"), ("play", 0, "KD"), ("play", 1, "QC"),
                        ("play", 0, "AH")])
    assert pegs(events) == [(0, 2, "play", [("pair", 2)]), (0, 2, "play", [("thirty-one", 2)])]
    assert isinstance(events[-1], CountReset)
    assert game.count == 0 and game.to_move == 1
