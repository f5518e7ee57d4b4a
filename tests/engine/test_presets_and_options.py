"""RULES.md's "The presets" table, cell by cell, and the table options.

Each parameter is checked twice where it can be: as data (``PRESETS`` / ``configure``) and
as behaviour of a seeded :class:`Game` (the events in ``game.log``).  Option and player
count errors are checked down to their message text.
"""

from __future__ import annotations

import pytest

from noddy.engine import (
    PRESETS,
    CardsDealt,
    CountReset,
    CutForDeal,
    DealEnded,
    DealStarted,
    Discarded,
    Game,
    GameOver,
    GameStarted,
    InvalidOptionError,
    Played,
    PlayerCountError,
    Scored,
    TurnedUp,
    UnknownPresetError,
    configure,
)
from noddy.engine.cards import JACK

from .conftest import deal_deck
from .eventlog import first_deal

from .presets import ALL, CRIB, CRIBBAGE_LIKE, DUCOEUR, FIVE, HOLME, MODERN, NODDY, NODDY_PRESETS  # noqa: F401


def test_the_six_presets_are_offered():
    assert set(PRESETS) == set(ALL)


# -- players ---------------------------------------------------------------------------------

@pytest.mark.parametrize("preset, solo, partnerships", [
    (NODDY, (2,), (4,)),            # 2, or 4 in partnerships
    (DUCOEUR, (2,), (4,)),
    (HOLME, (2,), (4,)),
    (MODERN, (2, 3, 4), (4,)),      # 2, 3, 4 each alone; 4 in partnerships allowed
    (FIVE, (2,), ()),               # 2
    (CRIB, (2, 3), (4,)),           # 2, 3, or 4 in partnerships
])
def test_player_counts(preset, solo, partnerships):
    for players in range(1, 7):
        for together in (False, True):
            allowed = players in (partnerships if together else solo)
            if allowed:
                assert configure(preset, players, partnerships=together).name == preset
            else:
                with pytest.raises(PlayerCountError):
                    configure(preset, players, partnerships=together)


# -- cards dealt, crib, target, turned-up Jack, bonus, order of the deal ---------------------

@pytest.mark.parametrize("preset, players, cards, to_crib, from_pack", [
    (NODDY, 2, 3, 0, 0), (NODDY, 4, 3, 0, 0),
    (DUCOEUR, 2, 3, 0, 0), (DUCOEUR, 4, 3, 0, 0),
    (HOLME, 2, 3, 0, 0), (HOLME, 4, 3, 0, 0),
    (MODERN, 2, 3, 0, 0), (MODERN, 3, 3, 0, 0), (MODERN, 4, 3, 0, 0),
    (FIVE, 2, 5, 2, 0),                                  # 2 each to the dealer
    (CRIB, 2, 6, 2, 0),                                  # 6 dealt, 2 each
    (CRIB, 3, 5, 1, 1),                                  # 5 dealt, 1 each + 1 from the pack
    (CRIB, 4, 5, 1, 0),                                  # 5 dealt, 1 each
])
def test_cards_dealt_and_crib_as_data(preset, players, cards, to_crib, from_pack):
    rules = PRESETS[preset]
    assert rules.hand_size(players) == cards
    assert rules.discards(players) == to_crib
    assert rules.pack_to_crib(players) == from_pack
    assert rules.has_crib == (preset in (FIVE, CRIB))


@pytest.mark.parametrize("players", [2, 3, 4])
def test_four_card_option_deals_four_in_noddy_modern(players):
    assert configure(MODERN, players, options={"four_card": True}).hand_size(players) == 4
    assert configure(MODERN, players, options={"four_card": False}).hand_size(players) == 3


PRESET_TABLE = [
    # preset, target, turned-up Jack points, to the dealer?, first-deal bonus,
    # show before the play?, count restarts?
    (NODDY, 31, 2, False, 0, True, False),
    (DUCOEUR, 31, 2, True, 0, True, False),
    (HOLME, 61, 2, False, 0, True, False),
    (MODERN, 31, 1, True, 0, False, True),
    (FIVE, 61, 2, True, 3, False, False),
    (CRIB, 121, 2, True, 0, False, True),
]


@pytest.mark.parametrize("preset, target, jack, to_dealer, bonus, show_first, restarts",
                         PRESET_TABLE)
def test_preset_parameters_as_data(preset, target, jack, to_dealer, bonus, show_first, restarts):
    rules = PRESETS[preset]
    assert rules.target == target
    assert rules.turned_jack_points == jack
    assert rules.turned_jack_to_dealer == to_dealer
    assert rules.first_deal_bonus == bonus
    assert rules.show_before_play == show_first
    assert rules.play_restarts == restarts


# -- the same parameters, seen in games ------------------------------------------------------

def step(game):
    seat = game.awaiting[0]
    return game.apply(game.legal_actions(seat)[0])


def play_deals(game, deals):
    """Drive ``game`` with the first legal action until ``deals`` deals have ended."""
    for _ in range(20_000):
        if game.is_over or sum(isinstance(e, DealEnded) for e in game.log) >= deals:
            return game
        step(game)
    raise AssertionError("game did not progress")


def first_deal_of(game):
    """Play ``game``'s first deal out; its events."""
    play_deals(game, 1)
    return first_deal(game.log)


@pytest.mark.parametrize("preset, players, partnerships, options, cards", [
    (NODDY, 2, False, {}, 3), (NODDY, 4, True, {}, 3),
    (DUCOEUR, 2, False, {}, 3), (HOLME, 4, True, {}, 3),
    (MODERN, 3, False, {}, 3), (MODERN, 4, False, {"four_card": True}, 4),
    (MODERN, 4, True, {}, 3),
    (FIVE, 2, False, {}, 5),
    (CRIB, 2, False, {}, 6), (CRIB, 3, False, {}, 5), (CRIB, 4, True, {}, 5),
])
def test_cards_dealt_events_give_each_seat_its_hand_size(preset, players, partnerships, options,
                                                         cards):
    game = Game(preset, players, partnerships=partnerships, options=options, seed=11)
    dealt = [e for e in game.log if isinstance(e, CardsDealt)]
    assert [e.count for e in dealt] == [cards] * players
    assert all(len(e.cards) == cards for e in dealt)
    # dealt from the dealer's left, the dealer last
    dealer = game.dealer
    assert [e.seat for e in dealt] == [(dealer + i) % players for i in range(1, players + 1)]


@pytest.mark.parametrize("preset, players, partnerships, each, from_pack", [
    (FIVE, 2, False, 2, 0),
    (CRIB, 2, False, 2, 0),
    (CRIB, 3, False, 1, 1),
    (CRIB, 4, True, 1, 0),
])
def test_crib_is_four_cards_laid_away_as_the_preset_says(preset, players, partnerships, each,
                                                         from_pack):
    game = Game(preset, players, partnerships=partnerships, seed=5)
    assert game.phase == "discard"
    assert [e.seat for e in game.log if isinstance(e, Discarded)] == [None] * from_pack
    for seat in game.awaiting:
        assert {len(a.cards) for a in game.legal_actions(seat)} == {each}
    while game.phase == "discard":
        step(game)
    laid = [e for e in game.log if isinstance(e, Discarded)]
    assert sorted((e.seat is None, e.count) for e in laid) == sorted(
        [(False, each)] * players + [(True, 1)] * from_pack)
    assert len(game.crib) == 4
    assert any(isinstance(e, TurnedUp) for e in game.log)


@pytest.mark.parametrize("preset, players, partnerships", [
    (NODDY, 2, False), (NODDY, 4, True), (DUCOEUR, 2, False), (HOLME, 2, False),
])
def test_noddy_presets_show_before_the_play(preset, players, partnerships):
    events = first_deal_of(Game(preset, players, partnerships=partnerships, seed=3))
    shows = [i for i, e in enumerate(events) if isinstance(e, Scored) and e.reason == "show"]
    plays = [i for i, e in enumerate(events) if isinstance(e, Played)]
    turn_up = next(i for i, e in enumerate(events) if isinstance(e, TurnedUp))
    assert len(shows) == players
    assert turn_up < min(shows) and max(shows) < min(plays)
    # counted clockwise from the dealer's left, the dealer last
    dealer = next(e.dealer for e in events if isinstance(e, DealStarted))
    assert [events[i].seat for i in shows] == [(dealer + k) % players
                                               for k in range(1, players + 1)]


@pytest.mark.parametrize("preset, players, partnerships", [
    (MODERN, 2, False), (MODERN, 3, False), (FIVE, 2, False), (CRIB, 2, False),
    (CRIB, 3, False), (CRIB, 4, True),
])
def test_cribbage_presets_show_after_the_play_then_the_crib(preset, players, partnerships):
    events = first_deal_of(Game(preset, players, partnerships=partnerships, seed=3))
    shows = [i for i, e in enumerate(events)
             if isinstance(e, Scored) and e.reason in ("show", "crib")]
    plays = [i for i, e in enumerate(events) if isinstance(e, Played)]
    assert min(shows) > max(plays)
    dealer = next(e.dealer for e in events if isinstance(e, DealStarted))
    order = [(dealer + k) % players for k in range(1, players + 1)]
    has_crib = preset != MODERN
    assert [(events[i].seat, events[i].reason) for i in shows] == (
        [(s, "show") for s in order] + ([(dealer, "crib")] if has_crib else []))


@pytest.mark.parametrize("preset, restarts", [
    (NODDY, False), (DUCOEUR, False), (HOLME, False), (FIVE, False),
    (MODERN, True), (CRIB, True),
])
def test_one_round_play_never_restarts_the_count_and_reset_presets_do(preset, restarts):
    # Eight deals each.  Two-handed Cribbage plays 8 cards a deal, always more than 31, so
    # it restarts every deal; the one-round presets never do: within a deal the count
    # shown by each Played event only ever rises.
    game = play_deals(Game(preset, options={"target": 500}, seed=21), 8)
    resets = sum(isinstance(e, CountReset) for e in game.log)
    assert (resets > 0) == restarts
    drops = 0
    last = 0
    for event in game.log:
        if isinstance(event, DealStarted):
            last = 0
        elif isinstance(event, Played):
            drops += event.count < last
            last = event.count
    assert (drops > 0) == restarts


def test_dealer_passes_to_the_left_after_every_deal():
    game = play_deals(Game(CRIB, 3, options={"target": 500}, seed=8), 4)
    dealers = [e.dealer for e in game.log if isinstance(e, DealStarted)]
    assert dealers[:5] == [(dealers[0] + k) % 3 for k in range(5)]


@pytest.mark.parametrize("preset, target", [(p, t) for p, t, *_ in PRESET_TABLE])
def test_game_plays_to_the_presets_target(preset, target):
    started = Game(preset, seed=1).log[0]
    assert isinstance(started, GameStarted) and started.target == target
    assert Game(preset, seed=1, options={"target": 15}).rules.target == 15


def test_reaching_the_target_wins_at_once_and_nothing_after_is_scored(stack):
    # noddy-holme to 15: the pone (seat 1) shows K♠ Q♥ J♥ + 5♥ = 34 (RULES.md's example)
    # first and wins; the dealer's hand (5♣ 5♦ 5♠, which would score) is never counted.
    stack("AC KD", deal_deck(["KS QH JH", "5C 5D 5S"], "5H"))
    game = Game(HOLME, options={"target": 15}, seed=1)
    scored = [e for e in game.log if isinstance(e, Scored)]
    assert [(e.seat, e.points, e.reason) for e in scored] == [(1, 34, "show")]
    assert isinstance(game.log[-1], GameOver)
    assert game.log[-1].winner == 1 and game.is_over and game.to_move is None


@pytest.mark.parametrize("players", [2, 3, 4])
def test_lowest_cut_deals_and_only_tied_players_cut_again(players):
    ties = 0
    for seed in range(300):
        cuts = [e for e in Game(MODERN, players, seed=seed).log if isinstance(e, CutForDeal)]
        for tied, again in zip(cuts, cuts[1:]):
            ties += 1
            assert tied.dealer is None
            low = min(card.rank for _, card in tied.cuts)
            assert [s for s, _ in again.cuts] == [s for s, c in tied.cuts if c.rank == low]
        final = cuts[-1]
        ranks = sorted(card.rank for _, card in final.cuts)
        assert ranks[0] < ranks[1]                       # a single lowest cut
        assert dict(final.cuts)[final.dealer].rank == ranks[0]
    assert ties > 0                                      # the sample did meet a tie


# -- the turned-up Jack, in games -------------------------------------------------------------

def game_with_jack_turned(preset, players=2, partnerships=False, options=None):
    """The first seed whose first deal turns up a Jack (discards made if the preset has a
    crib), with that game."""
    for seed in range(5_000):
        game = Game(preset, players, partnerships=partnerships, options=options, seed=seed)
        while game.phase == "discard" and game.deal == 1:
            step(game)
        if game.deal == 1 and game.turn_up is not None and game.turn_up.rank == JACK:
            return seed, game
    raise AssertionError("no seed turns up a Jack")


@pytest.mark.parametrize("preset, points, to_dealer", [
    (NODDY, 2, False), (DUCOEUR, 2, True), (HOLME, 2, False),
    (MODERN, 1, True), (FIVE, 2, True), (CRIB, 2, True),
])
def test_turned_up_jack_scores_for_the_right_player(preset, points, to_dealer):
    seed, game = game_with_jack_turned(preset)
    dealer = game.dealer
    expected_seat = dealer if to_dealer else (dealer + 1) % 2
    turned = [e for e in game.log if isinstance(e, Scored) and e.reason == "turn-up"]
    assert [(e.seat, e.points) for e in turned] == [(expected_seat, points)]
    # pegged straight after the turn-up, before any show or play
    kinds = [type(e) for e in game.log]
    assert kinds[kinds.index(TurnedUp) + 1] is Scored
    # and knave_noddy: false drops it, the deal otherwise the same
    off = Game(preset, options={"knave_noddy": False}, seed=seed)
    while off.phase == "discard" and off.deal == 1:
        step(off)
    assert off.turn_up == game.turn_up
    assert not [e for e in off.log if isinstance(e, Scored) and e.reason == "turn-up"]


def test_noddy_turned_up_jack_goes_to_the_team_on_the_dealers_left_in_partnerships():
    seed, game = game_with_jack_turned(NODDY, 4, partnerships=True)
    left = (game.dealer + 1) % 4
    turned = [e for e in game.log if isinstance(e, Scored) and e.reason == "turn-up"]
    assert [(e.seat, e.points) for e in turned] == [(left, 2)]
    team = left % 2
    assert turned[0].scores[team] == 2 and turned[0].scores[1 - team] == 0


def test_five_card_cribbage_non_dealer_pegs_three_at_the_start_of_the_first_deal_only():
    game = Game(FIVE, options={"target": 500}, seed=4)
    dealer = game.dealer
    bonus = [e for e in game.log if isinstance(e, Scored) and e.reason == "first deal"]
    assert [(e.seat, e.points) for e in bonus] == [((dealer + 1) % 2, 3)]
    kinds = [type(e) for e in game.log]
    assert kinds.index(Scored) < kinds.index(CardsDealt)
    play_deals(game, 3)
    bonus = [e for e in game.log if isinstance(e, Scored) and e.reason == "first deal"]
    assert len(bonus) == 1


@pytest.mark.parametrize("preset", [NODDY, DUCOEUR, HOLME, MODERN, CRIB])
def test_no_first_deal_bonus_outside_five_card_cribbage(preset):
    game = Game(preset, seed=4)
    assert not [e for e in game.log if isinstance(e, Scored) and e.reason == "first deal"]


# -- options: what each preset takes ---------------------------------------------------------

TAKES = {
    NODDY: {"target", "knave_noddy", "counting", "hitter_counts_thirty_one"},
    DUCOEUR: {"target", "knave_noddy", "counting", "hitter_counts_thirty_one"},
    HOLME: {"target", "knave_noddy", "counting", "hitter_counts_thirty_one"},
    MODERN: {"target", "knave_noddy", "counting", "four_card"},
    FIVE: {"target", "knave_noddy", "counting"},
    CRIB: {"target", "knave_noddy", "counting"},
}
GOOD_VALUES = {"target": 61, "knave_noddy": False, "hitter_counts_thirty_one": True,
               "four_card": True, "counting": "auto"}


@pytest.mark.parametrize("preset", ALL)
@pytest.mark.parametrize("option", sorted(GOOD_VALUES))
def test_each_option_is_taken_or_refused_by_name(preset, option):
    value = GOOD_VALUES[option]
    if option in TAKES[preset]:
        rules = configure(preset, options={option: value})
        assert rules.options == {option: value}
    else:
        always = ["target", "knave_noddy", "counting"]
        allowed = ", ".join(always + sorted(TAKES[preset] - set(always)))
        with pytest.raises(InvalidOptionError) as info:
            configure(preset, options={option: value})
        assert str(info.value) == (
            f"option {option!r} (given {value!r}) does not apply to {preset}; "
            f"its options are: {allowed}")
        assert info.value.option == option and info.value.value == value


@pytest.mark.parametrize("target", [15, 16, 31, 61, 121, 499, 500])
def test_target_takes_any_whole_number_from_15_to_500(target):
    for preset in ALL:
        assert configure(preset, options={"target": target}).target == target


@pytest.mark.parametrize("value, shown", [
    (14, "14"), (501, "501"), (0, "0"), (-31, "-31"), ("61", "'61'"), (61.0, "61.0"),
    (True, "True"), (None, "None"),
])
def test_target_out_of_range_or_not_a_whole_number_is_refused(value, shown):
    with pytest.raises(InvalidOptionError) as info:
        configure(NODDY, options={"target": value})
    assert str(info.value) == f"option 'target' must be a whole number from 15 to 500, not {shown}"
    assert (info.value.option, info.value.allowed) == ("target", "15 to 500")


@pytest.mark.parametrize("preset, option", [
    (NODDY, "knave_noddy"), (CRIB, "knave_noddy"), (HOLME, "hitter_counts_thirty_one"),
    (MODERN, "four_card"),
])
@pytest.mark.parametrize("value, shown", [("no", "'no'"), (0, "0"), (1, "1"), (None, "None")])
def test_true_or_false_options_refuse_anything_else(preset, option, value, shown):
    with pytest.raises(InvalidOptionError) as info:
        configure(preset, options={option: value})
    assert str(info.value) == f"option {option!r} must be true or false, not {shown}"
    assert (info.value.option, info.value.allowed) == (option, "true or false")


@pytest.mark.parametrize("preset", ALL)
def test_knave_noddy_false_drops_only_the_turned_up_jack(preset):
    rules = configure(preset, options={"knave_noddy": False})
    assert rules.turned_jack_points == 0
    assert rules.held_jack_points == PRESETS[preset].held_jack_points   # the held Jack stays


def test_options_leave_the_preset_itself_unchanged():
    configure(NODDY, options={"target": 99, "hitter_counts_thirty_one": True})
    assert PRESETS[NODDY].target == 31 and PRESETS[NODDY].hitter_counts_thirty_one is False


# -- player counts and presets that do not exist: messages -----------------------------------

@pytest.mark.parametrize("preset, players, partnerships, message", [
    (NODDY, 3, False,
     "noddy is played by 2 players each alone, or by 4 in partnerships; "
     "3 players each alone is not allowed"),
    (NODDY, 4, False,
     "noddy is played by 2 players each alone, or by 4 in partnerships; "
     "4 players each alone is not allowed"),
    (HOLME, 2, True,
     "noddy-holme is played by 2 players each alone, or by 4 in partnerships; "
     "2 players in partnerships is not allowed"),
    (MODERN, 5, False,
     "noddy-modern is played by 2, 3 or 4 players each alone, or by 4 in partnerships; "
     "5 players each alone is not allowed"),
    (FIVE, 3, False,
     "five-card-cribbage is played by 2 players each alone; 3 players each alone is not allowed"),
    (FIVE, 4, True,
     "five-card-cribbage is played by 2 players each alone; "
     "4 players in partnerships is not allowed"),
    (CRIB, 4, False,
     "cribbage is played by 2 or 3 players each alone, or by 4 in partnerships; "
     "4 players each alone is not allowed"),
    (CRIB, 1, False,
     "cribbage is played by 2 or 3 players each alone, or by 4 in partnerships; "
     "1 player each alone is not allowed"),
])
def test_player_count_error_names_the_count_and_what_is_allowed(preset, players, partnerships,
                                                                message):
    with pytest.raises(PlayerCountError) as info:
        configure(preset, players, partnerships=partnerships)
    assert str(info.value) == message
    with pytest.raises(PlayerCountError):
        Game(preset, players, partnerships=partnerships, seed=1)


@pytest.mark.parametrize("name", ["bridge", "Noddy", "", "cribbage "])
def test_unknown_preset_error_lists_the_presets(name):
    with pytest.raises(UnknownPresetError) as info:
        configure(name)
    assert str(info.value) == (
        f"unknown preset {name!r}; the presets are: noddy, noddy-ducoeur, noddy-holme, "
        "noddy-modern, five-card-cribbage, cribbage")
    with pytest.raises(UnknownPresetError):
        Game(name, seed=1)


def test_a_game_refuses_a_bad_option_too():
    with pytest.raises(InvalidOptionError):
        Game(CRIB, options={"four_card": True}, seed=1)
    with pytest.raises(InvalidOptionError):
        Game(NODDY, options={"target": 501}, seed=1)
