"""The checks :meth:`Game.apply <noddy.engine.game.Game.apply>` runs before it changes
anything: each reads the game (and the step it is in: who still lays away, the show being
counted by hand) and raises the precise error of what is wrong, never changing anything."""

from __future__ import annotations

from .actions import MAX_CLAIM, Claim, Discard, Go, Muggins, Pass, Play
from .cards import format_cards
from .errors import (
    N_,
    AlreadyDiscardedError,
    BadClaimError,
    CardNotInHandError,
    MustPlayError,
    NotYourTurnError,
    WouldPassThirtyOneError,
    WrongDiscardError,
    WrongPhaseError,
)
from .by_hand import CountingByHand
from .game_state import GameState
from .laying_away import LayingAway
from .phases import CLAIM, DISCARD, MUGGINS, PLAY


def check_discard(game: GameState, laying_away: LayingAway, action: Discard) -> None:
    if game.phase != DISCARD:
        raise WrongPhaseError(N_("nothing is laid away to the crib now (phase: {phase})"),
                              phase=game.phase)
    seat = action.seat
    if seat not in laying_away.pending:
        raise AlreadyDiscardedError(N_("seat {seat} has already laid away to the crib"), seat=seat)
    size = game.rules.discards(game.players)
    if len(action.cards) != size or len(set(action.cards)) != size:
        if action.cards:
            raise WrongDiscardError(N_("lay away exactly {size} different card(s), not {cards}"),
                                    size=size, cards=format_cards(action.cards))
        raise WrongDiscardError(N_("lay away exactly {size} different card(s), not nothing"),
                                size=size)
    for card in action.cards:
        if card not in game.hands[seat]:
            raise CardNotInHandError(N_("seat {seat} does not hold {card}"), seat=seat, card=card)

def check_play(game: GameState, action: Play) -> None:
    """A card played (the commonest action: the turn's checks run only to fail)."""
    if game.phase != PLAY or action.seat != game.to_move:
        check_turn(game, action)
    card = action.card
    if card not in game.hands[action.seat]:
        raise CardNotInHandError(N_("seat {seat} does not hold {card}"), seat=action.seat, card=card)
    if game.count + card.value > 31:
        raise WouldPassThirtyOneError(N_("{card} would take the count from {now} to {total}, past 31"),
                                      card=card, now=game.count, total=game.count + card.value)

def check_turn(game: GameState, action: Play | Go) -> None:
    """The play is on and it is ``action.seat``'s turn (the checks Play and Go share)."""
    if game.phase != PLAY:
        if game.phase in (CLAIM, MUGGINS):
            raise WrongPhaseError(
                N_("the play is over: the shows are being counted (phase: {phase})"), phase=game.phase)
        raise WrongPhaseError(N_("the play has not begun (phase: {phase})"), phase=game.phase)
    if action.seat != game.to_move:
        raise NotYourTurnError(N_("it is seat {to_move}'s turn, not seat {seat}'s"),
                               to_move=game.to_move, seat=action.seat)

def check_go(game: GameState, action: Go) -> None:
    check_turn(game, action)
    room = 31 - game.count
    playable = [card for card in game.hands[action.seat] if card.value <= room]
    if playable:
        raise MustPlayError(N_("seat {seat} can play ({cards}) and may not say go"),
                            seat=action.seat, cards=format_cards(playable))

def check_count_turn(game: GameState, by_hand: CountingByHand, action: Claim | Muggins | Pass,
                     phase: str) -> None:
    """Counting by hand: the right phase, the right seat, a number in its range."""
    counting = by_hand.show
    if game.phase != phase or counting is None:
        if game.phase == CLAIM:
            raise WrongPhaseError(N_("seat {seat} is to claim its points first"), seat=game.to_move)
        if game.phase == MUGGINS:
            raise WrongPhaseError(N_("the claim is made: call muggins (with the points the "
                                     "show holds) or pass"))
        if not game.rules.counting_by_hand:
            raise WrongPhaseError(N_("shows are counted by the server at this table "
                                     "(counting \"auto\"): there is nothing to claim or call"))
        raise WrongPhaseError(N_("no show is being counted now (phase: {phase})"), phase=game.phase)
    if action.seat != game.to_move:
        if phase == CLAIM:
            raise NotYourTurnError(N_("it is seat {to_move}'s turn to claim, not seat {seat}'s"),
                                   to_move=game.to_move, seat=action.seat)
        raise NotYourTurnError(N_("it is seat {to_move}'s turn to call or pass, not seat {seat}'s"),
                               to_move=game.to_move, seat=action.seat)
    if isinstance(action, (Claim, Muggins)):
        points = action.points
        low = 0 if isinstance(action, Claim) else (counting.claimed or 0) + 1
        if not isinstance(points, int) or isinstance(points, bool) or not low <= points <= MAX_CLAIM:
            if isinstance(action, Claim):
                raise BadClaimError(N_("a claim is a whole number from 0 to {most}, not {points!r}"),
                                    most=MAX_CLAIM, points=points)
            if counting.claimed == MAX_CLAIM:
                raise BadClaimError(N_("{most} was claimed, the most a show can hold: "
                                       "there is nothing to call; pass"), most=MAX_CLAIM)
            raise BadClaimError(N_("muggins must say the show holds more than the {claimed} claimed "
                                   "(up to {most}), not {points!r}"),
                                claimed=counting.claimed, most=MAX_CLAIM, points=points)
