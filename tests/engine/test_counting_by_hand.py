"""Counting by hand and muggins (option ``counting: "manual"``), as RULES.md rules it.

The worked example is played through :class:`Game` from a stacked pack: ``cribbage`` for two,
seat 0 (Ben) deals, seat 1 (Ann) holds 5♥ 5♠ J♦ 4♣ after laying K♥ Q♥ away, and 6♣ is
turned up, so her hand holds 16.  Every branch of a claim and a muggins step is pinned
down: the short claim mugged exactly, the wrong call, the exact claim, the over-claim refused
once and the second one that stands as a claim of 0, the timer's claim of 0 and pass, a call
that wins the game, partnerships and three players.
"""

from __future__ import annotations

import random

import pytest

from noddy.engine import (
    MAX_CLAIM,
    BadClaimError,
    Claim,
    Claimed,
    ClaimRefused,
    CountingStarted,
    Discard,
    Game,
    GameOver,
    InvalidOptionError,
    Muggins,
    MugginsCalled,
    MugginsPassed,
    NotYourTurnError,
    Pass,
    Play,
    Scored,
    ShowCounted,
    WrongPhaseError,
    describe_legal,
    score_show,
)

from .conftest import deal_deck

MANUAL = {"counting": "manual"}
CUT_SEAT_0_DEALS = "AC KD"
ANN, BEN = 1, 0


def worked_game(stack, ann="5H 5S JD 4C KH QH") -> Game:
    """The worked example up to Ann's claim: both lay away, the play is played out."""
    stack(CUT_SEAT_0_DEALS, deal_deck([ann, "2C 3D 7S 8S 9D TD"], "6C"))
    game = Game("cribbage", options=MANUAL, seed=1)
    assert game.dealer == BEN
    game.apply(Discard(ANN, ann.split()[4:]))
    game.apply(Discard(BEN, ["9D", "TD"]))
    while game.phase == "play":
        game.apply(game.legal_actions()[0])
    assert (game.phase, game.to_move) == ("claim", ANN)
    assert game.log[-1] == CountingStarted(ANN, "show", game.kept[ANN], game.turn_up)  # her cards, now public
    return game


def test_rules_worked_example_ann_claims_12_and_ben_mugs_her_for_the_4_she_missed(stack):
    game = worked_game(stack)
    ann0, ben0 = game.scores[ANN], game.scores[BEN]
    events = game.apply(Claim(ANN, 12))
    assert events[0] == Claimed(ANN, "show", game.kept[ANN], 12)
    assert [(e.seat, e.points, e.reason) for e in events if isinstance(e, Scored)] == [(ANN, 12, "claim")]
    assert game.scores[ANN] == ann0 + 12
    assert (game.phase, game.to_move) == ("muggins", BEN)
    events = game.apply(Muggins(BEN, 16))
    assert events[0] == MugginsCalled(BEN, ANN, 16, True)
    assert [(e.seat, e.points, e.reason) for e in events if isinstance(e, Scored)] == [(BEN, 4, "muggins")]
    counted = next(e for e in events if isinstance(e, ShowCounted))
    assert (counted.seat, counted.claimed, counted.worth, counted.mugged_by, counted.lost) == (ANN, 12, 16, BEN, 0)
    assert [(i.kind, i.points) for i in counted.items] == [
        ("fifteen", 2), ("fifteen", 2), ("fifteen", 2), ("fifteen", 2), ("pair", 2),
        ("run", 3), ("run", 3)]
    assert (game.scores[ANN], game.scores[BEN]) == (ann0 + 12, ben0 + 4)
    # Next: the dealer's own hand.
    assert (game.phase, game.to_move, game.observation(ANN).counting.seat) == ("claim", BEN, BEN)


def test_a_wrong_call_pegs_nothing_and_the_missed_points_are_lost(stack):
    game = worked_game(stack)
    game.apply(Claim(ANN, 12))
    before = list(game.scores)
    events = game.apply(Muggins(BEN, 14))
    assert events[0] == MugginsCalled(BEN, ANN, 14, False)
    assert not any(isinstance(e, Scored) for e in events)
    counted = next(e for e in events if isinstance(e, ShowCounted))
    assert (counted.claimed, counted.worth, counted.mugged_by, counted.lost) == (12, 16, None, 4)
    assert game.scores == before


def test_a_first_over_claim_is_refused_once_and_only_its_owner_is_told(stack):
    """RULES.md (revised ruling): a claim above what the hand holds is refused once, so a
    slip costs nothing.  The refusal is an accepted action that only Ann hears of: the
    scores, the phase, the turn and what anyone else sees stay as they were."""
    game = worked_game(stack)
    seen_before = {seat: game.observation(seat) for seat in (None, BEN)}
    before = (list(game.scores), game.phase, game.to_move, game.legal_actions(ANN))
    events = game.apply(Claim(ANN, 18))
    assert events == [ClaimRefused(ANN, "show", 18, False)]
    assert events[0].to_dict() == {"kind": "claim_refused", "seat": ANN, "reason": "show", "points": 18,
                                   "counts_as_zero": False}
    assert (events[0].for_seat(ANN), events[0].for_seat(BEN), events[0].for_seat(None)) == (events[0], None, None)
    assert (list(game.scores), game.phase, game.to_move, game.legal_actions(ANN)) == before
    assert {seat: game.observation(seat) for seat in (None, BEN)} == seen_before
    assert game.observation(ANN).counting.refused == 18
    assert game.observation(BEN).to_dict()["counting"]["refused"] is None
    events = game.apply(Claim(ANN, 12))  # she claims again, short: an ordinary claim
    assert events[0] == Claimed(ANN, "show", game.kept[ANN], 12)
    assert game.scores[ANN] == before[0][ANN] + 12 and game.phase == "muggins"


def test_a_second_over_claim_stands_as_a_claim_of_0_and_muggins_takes_the_whole_hand(stack):
    """RULES.md's worked example: had Ann claimed 18 and then 17, the 17 would stand as a
    claim of 0, and Ben's muggins 16 would peg him 16.  Ben sees exactly what a claim of 0
    shows him, nothing of the over-claim."""
    game = worked_game(stack)
    plain_zero = game.copy()
    plain_zero.apply(Claim(ANN, 0))
    before = list(game.scores)
    game.apply(Claim(ANN, 18))
    events = game.apply(Claim(ANN, 17))
    assert events == [ClaimRefused(ANN, "show", 17, True), Claimed(ANN, "show", game.kept[ANN], 0)]
    assert [e.for_seat(BEN) for e in events] == [None, Claimed(ANN, "show", game.kept[ANN], 0)]
    assert game.scores == before and (game.phase, game.to_move) == ("muggins", BEN)
    for seat in (None, BEN):
        assert game.observation(seat) == plain_zero.observation(seat)
    assert describe_legal(game.legal_actions(BEN)) == [{"action": "muggins", "min": 1, "max": 29},
                                                        {"action": "pass"}]
    events = game.apply(Muggins(BEN, 16))
    assert events[0] == MugginsCalled(BEN, ANN, 16, True)
    assert [(e.seat, e.points, e.reason) for e in events if isinstance(e, Scored)] == [(BEN, 16, "muggins")]
    counted = next(e for e in events if isinstance(e, ShowCounted))
    assert (counted.claimed, counted.worth, counted.mugged_by, counted.lost) == (0, 16, BEN, 0)
    assert game.scores == [before[BEN] + 16, before[ANN]]


def test_each_show_has_its_own_refusal(stack):
    """Ann's refusal is hers for her hand: Ben's first over-claim of his own hand is refused
    too, and a claim within the worth after a refusal is taken as it is."""
    game = worked_game(stack)
    game.apply(Claim(ANN, 18))
    game.apply(Claim(ANN, 16))
    game.apply(Pass(BEN))
    assert (game.phase, game.to_move) == ("claim", BEN)
    assert game.apply(Claim(BEN, 29)) == [ClaimRefused(BEN, "show", 29, False)]
    assert game.observation(BEN).counting.refused == 29 and game.observation(ANN).counting.refused is None
    assert game.apply(Claim(BEN, 28))[0] == ClaimRefused(BEN, "show", 28, True)


def test_the_timer_still_claims_0_after_a_refusal(stack):
    game = worked_game(stack)
    game.apply(Claim(ANN, 18))
    assert game.default_action(ANN) == Claim(ANN, 0)
    assert game.apply(game.default_action(ANN)) == [Claimed(ANN, "show", game.kept[ANN], 0)]


def test_his_nob_makes_the_same_hand_with_the_jack_of_clubs_17(stack):
    game = worked_game(stack, ann="5H 5S JC 4C KH QH")
    assert game.apply(Claim(ANN, 18)) == [ClaimRefused(ANN, "show", 18, False)]
    game.apply(Claim(ANN, 17))
    events = game.apply(Pass(BEN))
    assert events[0] == MugginsPassed(BEN, ANN)
    counted = events[1]
    assert isinstance(counted, ShowCounted)
    assert (counted.claimed, counted.worth, counted.lost) == (17, 17, 0)
    assert counted.items[-1].kind == "his nob"


def test_an_exact_claim_cannot_be_mugged(stack):
    game = worked_game(stack)
    game.apply(Claim(ANN, 16))
    assert describe_legal(game.legal_actions(BEN)) == [
        {"action": "muggins", "min": 17, "max": MAX_CLAIM}, {"action": "pass"}]
    with pytest.raises(BadClaimError, match=r"muggins must say the show holds more than the 16 claimed \(up to 29\), not 16"):
        game.apply(Muggins(BEN, 16))
    before = list(game.scores)
    events = game.apply(Muggins(BEN, 17))
    assert events[0] == MugginsCalled(BEN, ANN, 17, False)
    assert game.scores == before


def test_the_claim_step_accepts_0_to_29_for_any_show(stack):
    game = worked_game(stack)
    assert game.legal_actions(ANN) == [Claim(ANN, n) for n in range(MAX_CLAIM + 1)]
    assert game.legal_actions(BEN) == []
    assert describe_legal(game.legal_actions(ANN)) == [{"action": "claim", "min": 0, "max": 29}]
    with pytest.raises(NotYourTurnError, match="it is seat 1's turn to claim, not seat 0's"):
        game.apply(Claim(BEN, 3))
    with pytest.raises(BadClaimError, match="a claim is a whole number from 0 to 29, not 30"):
        game.apply(Claim(ANN, 30))
    with pytest.raises(WrongPhaseError, match="the play is over: the shows are being counted"):
        game.apply(Play(ANN, "5H"))
    with pytest.raises(WrongPhaseError, match="seat 1 is to claim its points first"):
        game.apply(Pass(BEN))


def test_nobody_is_told_the_worth_before_the_muggins_step_is_over(stack):
    game = worked_game(stack)
    for seat in (None, ANN, BEN):
        seen = game.observation(seat).to_dict()
        assert seen["counting"] == {"seat": ANN, "reason": "show", "cards": ["5H", "5S", "JD", "4C"],
                                    "claimed": None, "refused": None}
    events = game.apply(Claim(ANN, 12))
    seen = game.observation(BEN).to_dict()
    assert describe_legal(game.observation(BEN).legal_actions) == [
        {"action": "muggins", "min": 13, "max": 29}, {"action": "pass"}]  # the same for any worth
    del seen["legal_actions"]
    assert "16" not in repr([e.to_dict() for e in events]) + repr(seen)
    assert game.observation(BEN).counting.claimed == 12


def test_the_timer_claims_0_for_a_silent_owner_and_passes_for_a_silent_opponent(stack):
    game = worked_game(stack)
    assert game.default_action(BEN) is None
    assert game.default_action(ANN) == Claim(ANN, 0)
    events = game.apply(game.default_action(ANN))
    assert events == [Claimed(ANN, "show", game.kept[ANN], 0)]  # nothing pegged
    assert game.default_action(BEN) == Pass(BEN)
    events = game.apply(game.default_action(BEN))
    assert events[0] == MugginsPassed(BEN, ANN)
    assert (events[1].claimed, events[1].worth, events[1].lost) == (0, 16, 16)


def test_a_muggins_call_that_reaches_the_target_wins_at_once(stack):
    game = worked_game(stack)
    game.apply(Claim(ANN, 12))
    game.scores[BEN] = 118  # three short of 121: the 4 Ann missed win it
    events = game.apply(Muggins(BEN, 16))
    assert isinstance(events[-1], GameOver) and events[-1].winner == BEN
    assert not any(isinstance(e, ShowCounted) for e in events)
    assert game.is_over and game.legal_actions(BEN) == []


def test_a_claim_that_reaches_the_target_wins_at_once(stack):
    game = worked_game(stack)
    game.scores[ANN] = 110
    events = game.apply(Claim(ANN, 11))
    assert isinstance(events[-1], GameOver) and events[-1].winner == ANN


def _to_claim(game: Game, rng: random.Random) -> None:
    while game.phase != "claim":
        seat = game.awaiting[0]
        game.apply(rng.choice(game.legal_actions(seat)))


def test_partners_never_call_muggins_on_each_other():
    game = Game("cribbage", 4, partnerships=True, options=MANUAL, seed=3)
    _to_claim(game, random.Random(3))
    owner = game.to_move
    game.apply(Claim(owner, 0))
    callers = []
    while game.phase == "muggins" and game.observation(owner).counting.seat == owner:
        callers.append(game.to_move)
        game.apply(Pass(game.to_move))
    assert callers == [(owner + 1) % 4, (owner + 3) % 4]


def test_three_players_each_opponent_may_call_in_turn_from_the_owners_left():
    game = Game("cribbage", 3, options=MANUAL, seed=5)
    _to_claim(game, random.Random(5))
    owner = game.to_move
    show = game.observation(owner).counting
    worth = score_show(show.cards, game.turn_up, game.rules, crib=show.reason == "crib").total
    game.apply(Claim(owner, 0))
    first, second = (owner + 1) % 3, (owner + 2) % 3
    assert game.to_move == first
    if worth == 0:
        pytest.skip("seed 5 deals a first show worth 0")
    game.apply(Muggins(first, worth + 1 if worth < MAX_CLAIM else worth))  # wrong
    assert game.to_move == second
    before = game.scores[second]
    events = game.apply(Muggins(second, worth))
    assert events[0] == MugginsCalled(second, owner, worth, True)
    assert game.scores[second] == before + worth


@pytest.mark.parametrize("preset", ["noddy", "noddy-ducoeur", "noddy-holme"])
def test_the_noddy_presets_refuse_counting_by_hand_and_say_why(preset):
    with pytest.raises(InvalidOptionError, match=rf"^counting by hand does not apply to {preset}: its "
                       "shows are made before the play, concealed, so nobody could check a claim"):
        Game(preset, options=MANUAL, seed=1)
    assert Game(preset, options={"counting": "auto"}, seed=1).rules.counting_by_hand is False


def test_counting_takes_only_auto_or_manual():
    with pytest.raises(InvalidOptionError, match="option 'counting' must be \"auto\" or \"manual\", not 'hand'"):
        Game("cribbage", options={"counting": "hand"}, seed=1)


@pytest.mark.parametrize("preset, players, partnerships", [
    ("cribbage", 2, False), ("cribbage", 3, False), ("cribbage", 4, True),
    ("five-card-cribbage", 2, False), ("noddy-modern", 2, False), ("noddy-modern", 4, False)])
def test_random_games_counted_by_hand_finish_and_replay_the_same(preset, players, partnerships):
    for seed in range(15):
        rng = random.Random(seed)
        game = Game(preset, players, partnerships=partnerships, options=MANUAL, seed=seed)
        actions = []
        while not game.is_over:
            seat = game.awaiting[0]
            action = rng.choice(game.legal_actions(seat))  # claims from 0 to 29: many too high
            actions.append(action)
            game.apply(action)
        again = Game(preset, players, partnerships=partnerships, options=MANUAL, seed=seed)
        for action in actions:
            again.apply(action)
        assert [e.to_dict() for e in again.log] == [e.to_dict() for e in game.log]
        # Every counted show's claim plus what was mugged plus what was lost is its worth.
        for event in game.log:
            if isinstance(event, ShowCounted):
                mugged = event.worth - event.claimed if event.mugged_by is not None else 0
                assert event.claimed + mugged + event.lost == event.worth


def test_a_copy_taken_mid_count_goes_on_like_the_original(stack):
    game = worked_game(stack)
    game.apply(Claim(ANN, 12))
    copy = game.copy()
    assert copy.observation(BEN) == game.observation(BEN)
    assert game.apply(Muggins(BEN, 16)) == copy.apply(Muggins(BEN, 16))
    copy.apply(Claim(BEN, 0))  # the copy's own claim leaves the original's count alone
    assert (game.phase, game.to_move, game.observation(BEN).counting.claimed) == ("claim", BEN, None)
