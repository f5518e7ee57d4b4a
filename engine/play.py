"""The play (pegging): what each card makes, go, and the count's end.  (What a seat may
play is asked at every turn, so :meth:`Game.legal_actions` works it out inline.)

Cards are played in turn from the dealer's left, the count running to 31 at most.  A seat
that holds cards but cannot play says go (an explicit action); seats with no cards left are
passed over.  When nobody can play on, the last card pegs its point (where the rules give
one) and the count starts again from the next seat, or -- every card played, or under rules
where the count does not restart -- the play is over.

These are the game's transitions for the play, over its public state (the game is a
:class:`~.game_state.GameState` here): each changes the pile, the count and the turn,
appends its events, pegs through :func:`~.pegging.peg` and returns True when the play is
over, which the game then ends (False also when a peg won the game).  They run at every
card played, so they are written for speed: see the comments.
"""

from __future__ import annotations

from .actions import Play
from .events import CountReset, Event, Played, SaidGo
from .game_state import GameState
from .pegging import peg
from .score_items import ScoreItem
from .scoring import play_items
from .seats import CLOCKWISE

#: Played events are immutable values, few (seat by card by count) and one for every card
#: played: each is made once and shared, like the legal actions.
_PLAYED: dict[tuple[int, int, int], Played] = {}


def play_card(game: GameState, action: Play, events: list[Event]) -> bool:
    """``action.seat`` plays ``action.card`` (checked): what it makes is pegged, then the
    turn passes on or the count ends.  True when the play is over."""
    seat, card = action.seat, action.card
    game.hands[seat].remove(card)
    pile = game.pile
    pile.append(card)
    game.count = count = game.count + card.value
    game.played.append((seat, card))
    played = _PLAYED.get((seat, card.index, count))
    if played is None:
        played = _PLAYED[(seat, card.index, count)] = Played(seat, card, count)
    events.append(played)
    items = play_items(tuple(pile), count, game.rules)
    if items and peg(game, events, seat, items, "play"):
        return False
    if count == 31:
        return _end_count(game, events, last_card_point=False)
    return next_turn(game, seat, events)


def say_go(game: GameState, seat: int, events: list[Event]) -> bool:
    """``seat`` cannot play (checked) and says go.  True when the play is over."""
    game.passed.add(seat)
    events.append(SaidGo(seat))
    return next_turn(game, seat, events)


def next_turn(game: GameState, after: int, events: list[Event]) -> bool:
    """Hand the turn to the next seat clockwise after ``after`` that holds cards and has
    not said go; if there is none, the count is over.  True when the play is over."""
    hands, passed = game.hands, game.passed
    for seat in CLOCKWISE[game.players][after]:
        if hands[seat] and seat not in passed:
            game.to_move = seat
            return False
    return _end_count(game, events, last_card_point=True)


def _end_count(game: GameState, events: list[Event], *, last_card_point: bool) -> bool:
    """Nobody can play on: the last card's point, then a new count or the play's end."""
    rules = game.rules
    last = game.played[-1][0] if game.played else None  # who played the last card
    if last_card_point and last is not None and rules.last_card_points:
        item = ScoreItem(rules.last_card_name, rules.last_card_points, (game.pile[-1],))
        if peg(game, events, last, (item,), "play"):
            return False
    if rules.play_restarts and any(game.hands):
        game.pile = []
        game.count = 0
        game.passed = set()
        events.append(CountReset())
        assert last is not None
        return next_turn(game, last, events)
    return True
