"""Expert: discards on expected value, legal and deterministic play, and taking a win."""

from __future__ import annotations

import random

import pytest

from noddy.bots import ExpertPlayer
from noddy.bots.crib_table import CRIB_TABLE, RANK_LETTERS, pattern_ranks, pattern_text
from noddy.bots.crib_values import estimate_crib
from noddy.bots.expert import WIN, crib_value
from noddy.bots.make_crib_table import patterns
from noddy.engine import FULL_DECK, Card, Discard, Game, Play, configure, parse_cards, score_show

from .helpers import discard_view, play_view


def test_hand_expectation_is_exact_over_every_turn_up() -> None:
    """A discard's value is the kept hand's average show over the 46 possible turn-ups
    (checked against the engine's itemised ``score_show``), minus the opponent's crib."""
    view = discard_view("cribbage", "5C 5D JH JS 2C 9D", dealer=1)
    rules = configure("cribbage")
    player = ExpertPlayer(seed=1, crib_samples=200)
    hand = parse_cards("5C 5D JH JS 2C 9D")
    for option, value in player.discard_values(view, rules).items():
        kept = [c for c in hand if c not in option.cards]
        turn_ups = [c for c in FULL_DECK if c not in hand]
        exact = sum(score_show(kept, t, rules).total for t in turn_ups) / len(turn_ups)
        assert value == pytest.approx(exact - crib_value(option.cards, rules, 2, 200)), option


def test_keeps_three_fives_and_the_jack_out_of_the_opponents_crib() -> None:
    """5-5-5-J is the best four there is (29 with the last five turned up); K-8 make
    nothing together, and a Jack is worth more in a crib than a King (more runs, and a
    chance of his nob), so the non-dealer keeps 5-5-5-J..."""
    view = discard_view("cribbage", "5C 5D 5H JS KD 8C", dealer=1)
    assert ExpertPlayer(seed=2).choose(view, configure("cribbage")) == Discard(0, ("KD", "8C"))


def test_dealer_keeps_the_three_fives_and_may_give_itself_the_jack() -> None:
    """...while the dealer, whose crib it is, loses nothing by laying the Jack away (its
    his-nob chance is the same in hand or crib) and gains its extra runs in the crib."""
    view = discard_view("cribbage", "5C 5D 5H JS KD 8C", dealer=0)
    choice = ExpertPlayer(seed=2).choose(view, configure("cribbage"))
    assert isinstance(choice, Discard) and "8C" in {str(c) for c in choice.cards}
    assert not {"5C", "5D", "5H"} & {str(c) for c in choice.cards}


def test_discard_is_the_best_by_its_own_values() -> None:
    rules = configure("cribbage")
    view = discard_view("cribbage", "2C 3D 4H 7S 8C 9D", dealer=0)
    player = ExpertPlayer(seed=3)
    values = player.discard_values(view, rules)
    assert len(values) == 15
    assert player.choose(view, rules) == max(values, key=values.__getitem__)


def test_an_own_crib_is_worth_more_than_an_opponents() -> None:
    """The same hand: laying 5-5 away scores for the dealer, against the non-dealer."""
    rules = configure("cribbage")
    hand = "5C 5D 2S 9H KC QD"
    five_five = Discard(0, ("5C", "5D"))
    as_dealer = ExpertPlayer(seed=4).discard_values(discard_view("cribbage", hand, dealer=0), rules)
    as_pone = ExpertPlayer(seed=4).discard_values(discard_view("cribbage", hand, dealer=1), rules)
    assert as_dealer[five_five] > as_pone[five_five] + 10  # the crib of 5-5 is worth 6+ twice


def test_takes_the_thirty_one_that_wins_the_game() -> None:
    view = play_view("cribbage", "TS 4C", "TH 6C 5D", scores=(119, 100))
    assert ExpertPlayer(seed=5).choose(view, configure("cribbage")) == Play(0, "TS")


def test_prefers_the_run_over_the_thirty_one_early_in_the_game() -> None:
    """TH 6C 5D = 21: the 4 makes a run of three (3) and leaves 25, the ten makes 31 (2)."""
    view = play_view("cribbage", "TS 4C", "TH 6C 5D", played_before="", hand_sizes=(2, 1))
    values = ExpertPlayer(seed=6).play_values(view, configure("cribbage"), list(view.legal_actions))
    assert values[Play(0, "4C")] > values[Play(0, "TS")] - 1


def test_a_win_is_worth_win() -> None:
    view = play_view("noddy", "5S 9C", "TH", scores=(29, 0))
    values = ExpertPlayer(seed=7).play_values(view, configure("noddy"), list(view.legal_actions))
    assert values[Play(0, "5S")] == WIN


def test_deterministic_given_a_seed() -> None:
    rng = random.Random(8)
    for _ in range(10):
        game = Game("cribbage", seed=rng.randrange(10**6))
        while True:
            seat = game.awaiting[0]
            view = game.observation(seat)
            a = ExpertPlayer(seed=42, samples=6, model_samples=6).choose(view, game.rules)
            b = ExpertPlayer(seed=42, samples=6, model_samples=6).choose(view, game.rules)
            assert a == b
            game.apply(a)
            if game.is_over or game.deal > 1:
                break


def test_never_illegal_on_many_positions() -> None:
    """Random positions from random play: the expert's answer is always legal."""
    rng = random.Random(9)
    expert = ExpertPlayer(seed=9, samples=3, crib_samples=10, max_depth=5)
    for preset, players, partnerships in [("cribbage", 2, False), ("cribbage", 3, False),
                                          ("noddy-modern", 3, False), ("noddy", 4, True)]:
        game = Game(preset, players, partnerships=partnerships, seed=rng.randrange(10**6))
        for _ in range(60):
            if game.is_over:
                break
            seat = rng.choice(game.awaiting)
            view = game.observation(seat)
            action = expert.choose(view, game.rules)
            assert action in view.legal_actions
            game.apply(rng.choice(view.legal_actions))


def test_its_own_discards_are_never_dealt_to_an_opponent() -> None:
    """The Observation says what this seat laid away, so the hands the expert imagines for
    the others never hold those cards, and a fresh player object decides the same."""
    from noddy.bots.pegging import unseen_cards

    game = Game("cribbage", seed=12)
    expert = ExpertPlayer(seed=12, samples=4)
    laid = {}
    for seat in list(game.awaiting):
        action = expert.choose(game.observation(seat), game.rules)
        laid[seat] = set(action.cards)
        game.apply(action)
    seat = game.to_move
    view = game.observation(seat)
    assert set(view.laid_away) == laid[seat]
    assert not laid[seat] & set(unseen_cards(view, view.laid_away))
    assert ExpertPlayer(seed=12, samples=4).choose(view, game.rules) == expert.choose(view, game.rules)


def test_the_crib_table_holds_what_crib_value_would_compute() -> None:
    """The precomputed crib values read from ``bots/data/crib_table.json`` are exactly the
    first-use estimates, for every preset with a crib and player count; a few entries are
    recomputed (each takes a few ms; ``python -m noddy.bots.make_crib_table --check`` does
    them all)."""
    keys = sorted(CRIB_TABLE, key=repr)
    assert {key[:2] for key in keys} >= {("cribbage", 2), ("cribbage", 3), ("cribbage", 4),
                                          ("five-card-cribbage", 2)}
    for key in random.Random(3).sample(keys, 6):
        name, players, ranks, suited, samples = key
        assert estimate_crib(configure(name), players, ranks, suited, samples) == CRIB_TABLE[key]


def test_the_crib_table_has_every_pattern_the_generator_would_write() -> None:
    """No pattern of a preset is missing from the data file, and nothing else is in it."""
    assert set(CRIB_TABLE) == {key for key, _ in patterns()}


def test_the_crib_table_file_writes_ranks_as_the_engine_does() -> None:
    """The data file's rank letters are the engine's own (``Card.parse``), and a key read
    back from its text is the key written."""
    assert [Card.parse(letter + "C").rank for letter in RANK_LETTERS] == list(range(1, 14))
    assert pattern_text((1, 10, 13)) == "ATK"
    assert pattern_ranks("ATK") == (1, 10, 13)
    with pytest.raises(ValueError, match="'1'"):
        pattern_ranks("1J")


def test_crib_values_depend_on_the_pattern_only() -> None:
    """Any cards of the pattern give the same value (not whichever met it first), and a
    preset with another target reads the same table."""
    rules = configure("cribbage")
    value = crib_value(tuple(parse_cards("5H JS")), rules, 2, 3000)
    assert crib_value(tuple(parse_cards("JC 5D")), rules, 2, 3000) == value
    assert crib_value(tuple(parse_cards("5D JD")), rules, 2, 3000) != value  # suited
    assert crib_value(tuple(parse_cards("5S JH")), configure("cribbage", options={"target": 61}),
                      2, 3000) == value
    custom = configure("cribbage", options={"knave_noddy": False})
    assert crib_value(tuple(parse_cards("5H JS")), custom, 2, 300) == \
        crib_value(tuple(parse_cards("5C JD")), custom, 2, 300)
