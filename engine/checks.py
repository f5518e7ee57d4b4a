"""The checks :meth:`Game.apply <noddy.engine.game.Game.apply>` runs before it changes
anything: each reads the game (and the step it is in: who still lays away, the show being
counted by hand) and raises the precise error of what is wrong, never changing anything."""

from __future__ import annotations

from .actions import MAX_CLAIM, Claim, Discard, Go, Muggins, Pass, Play
from .cards import format_cards
from .errors import (
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
        raise WrongPhaseError(f"nothing is laid away to the crib now (phase: {game.phase})")
    seat = action.seat
    if seat not in laying_away.pending:
        raise AlreadyDiscardedError(f"seat {seat} has already laid away to the crib")
    size = game.rules.discards(game.players)
    if len(action.cards) != size or len(set(action.cards)) != size:
        given = format_cards(action.cards) or "nothing"
        raise WrongDiscardError(f"lay away exactly {size} different card(s), not {given}")
    for card in action.cards:
        if card not in game.hands[seat]:
            raise CardNotInHandError(f"seat {seat} does not hold {card}")

def check_play(game: GameState, action: Play) -> None:
    """A card played (the commonest action: the turn's checks run only to fail)."""
    if game.phase != PLAY or action.seat != game.to_move:
        check_turn(game, action)
    card = action.card
    if card not in game.hands[action.seat]:
        raise CardNotInHandError(f"seat {action.seat} does not hold {card}")
    if game.count + card.value > 31:
        raise WouldPassThirtyOneError(
            f"{card} would take the count from {game.count} "
            f"to {game.count + card.value}, past 31"
        )

def check_turn(game: GameState, action: Play | Go) -> None:
    """The play is on and it is ``action.seat``'s turn (the checks Play and Go share)."""
    if game.phase != PLAY:
        if game.phase in (CLAIM, MUGGINS):
            raise WrongPhaseError(
                f"the play is over: the shows are being counted (phase: {game.phase})")
        raise WrongPhaseError(f"the play has not begun (phase: {game.phase})")
    if action.seat != game.to_move:
        raise NotYourTurnError(f"it is seat {game.to_move}'s turn, not seat {action.seat}'s")

def check_go(game: GameState, action: Go) -> None:
    check_turn(game, action)
    room = 31 - game.count
    playable = [card for card in game.hands[action.seat] if card.value <= room]
    if playable:
        raise MustPlayError(
            f"seat {action.seat} can play ({format_cards(playable)}) and may not say go"
        )

def check_count_turn(game: GameState, by_hand: CountingByHand, action: Claim | Muggins | Pass,
                     phase: str) -> None:
    """Counting by hand: the right phase, the right seat, a number in its range."""
    counting = by_hand.show
    if game.phase != phase or counting is None:
        if game.phase == CLAIM:
            raise WrongPhaseError(f"seat {game.to_move} is to claim its points first")
        if game.phase == MUGGINS:
            raise WrongPhaseError("the claim is made: call muggins (with the points the "
                                  "show holds) or pass")
        if not game.rules.counting_by_hand:
            raise WrongPhaseError("shows are counted by the server at this table "
                                  "(counting \"auto\"): there is nothing to claim or call")
        raise WrongPhaseError(f"no show is being counted now (phase: {game.phase})")
    if action.seat != game.to_move:
        what = "claim" if phase == CLAIM else "call or pass"
        raise NotYourTurnError(f"it is seat {game.to_move}'s turn to {what}, not seat {action.seat}'s")
    if isinstance(action, (Claim, Muggins)):
        points = action.points
        low = 0 if isinstance(action, Claim) else (counting.claimed or 0) + 1
        if not isinstance(points, int) or isinstance(points, bool) or not low <= points <= MAX_CLAIM:
            if isinstance(action, Claim):
                raise BadClaimError(f"a claim is a whole number from 0 to {MAX_CLAIM}, not {points!r}")
            if counting.claimed == MAX_CLAIM:
                raise BadClaimError(f"{MAX_CLAIM} was claimed, the most a show can hold: "
                                    "there is nothing to call; pass")
            raise BadClaimError(f"muggins must say the show holds more than the "
                                f"{counting.claimed} claimed (up to {MAX_CLAIM}), not {points!r}")
