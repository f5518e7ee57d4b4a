"""Counting by hand (``counting: "manual"``): the claim and muggins steps of each show.

These are :class:`~noddy.engine.game.Game`'s own transitions for the phases ``claim`` and
``muggins``, split from :mod:`noddy.engine.game` for its size: each takes the game, changes
it and appends the events it makes.  :class:`ShowCount` is the engine's own record of the
show being counted (its worth included, which nobody is told before ``counted``).

A claim above the worth (RULES.md, revised ruling) is refused once, so that a slip costs
nothing: the claim step stays open and only the claimer is told (``claim_refused``).  A
second claim above the worth for the same show stands as a claim of 0.  So every claim
from 0 to 29 is legal for any show, and trying numbers downwards from 29 finds nothing
but, at most, that the hand holds less than the first number tried.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from .actions import MAX_CLAIM, Action, Claim, Muggins, Pass
from .cards import SORT_KEY, Card
from .events import (Claimed, ClaimRefused, CountingStarted, Event, MugginsCalled, MugginsPassed,
                     ShowCounted)
from .phases import CLAIM, MUGGINS
from .scoring import POINTS, ScoreItem, show_items

if TYPE_CHECKING:
    from .game import Game


@dataclass
class ShowCount:
    """The engine's own record of a show being counted by hand (its worth included)."""

    seat: int
    reason: str
    cards: tuple[Card, ...]
    worth: int
    items: tuple[ScoreItem, ...]
    claimed: int | None = None
    #: The claim refused once (above the worth), if any: a second one counts as 0.
    refused: int | None = None
    callers: list[int] = field(default_factory=list)  # opponents still to call or pass
    mugged_by: int | None = None


def next_count(game: Game, events: list[Event]) -> None:
    """The next show's claim step, or the deal's end when every show is counted."""
    if not game._to_count:
        game._counting = None
        game._end_deal(events)
        return
    seat, reason = game._to_count.pop(0)
    crib = reason == "crib"
    cards = tuple(sorted(game.crib, key=SORT_KEY)) if crib else game.kept[seat]
    assert game.turn_up is not None
    items = show_items(cards, game.turn_up, game.rules, crib=crib)
    game._counting = ShowCount(seat, reason, cards, sum(map(POINTS, items)), items)
    events.append(CountingStarted(seat, reason, cards, game.turn_up))
    game.phase = CLAIM
    game.to_move = seat

def claim(game: Game, action: Claim, events: list[Event]) -> None:
    """The owner's claim: refused once if above the worth, then taken (a second claim above
    the worth as a claim of 0) and pegged, and the muggins step begins."""
    counting = game._counting
    assert counting is not None
    seat, points = action.seat, action.points
    if points > counting.worth:
        again = counting.refused is None
        events.append(ClaimRefused(seat, counting.reason, points, not again))
        if again:
            counting.refused = points
            return
        points = 0
    counting.claimed = points
    events.append(Claimed(seat, counting.reason, counting.cards, points))
    game._shows.append((seat, points))
    if points and game._peg(events, seat, (ScoreItem("claim", points),), "claim"):
        return
    owner_team = game.team_of(seat)
    counting.callers = [other for other in ((seat + i) % game.players for i in range(1, game.players))
                        if game.team_of(other) != owner_team]
    game.phase = MUGGINS
    game.to_move = counting.callers[0]

def muggins(game: Game, action: Muggins, events: list[Event]) -> None:
    counting = game._counting
    assert counting is not None and counting.claimed is not None
    right = action.points == counting.worth and counting.claimed < counting.worth
    events.append(MugginsCalled(action.seat, counting.seat, action.points, right))
    if not right:
        next_caller(game, events)
        return
    counting.mugged_by = action.seat
    item = ScoreItem("muggins", counting.worth - counting.claimed)
    if game._peg(events, action.seat, (item,), "muggins"):
        return
    end_count_step(game, events)

def pass_(game: Game, seat: int, events: list[Event]) -> None:
    counting = game._counting
    assert counting is not None
    events.append(MugginsPassed(seat, counting.seat))
    next_caller(game, events)

def next_caller(game: Game, events: list[Event]) -> None:
    counting = game._counting
    assert counting is not None
    counting.callers.pop(0)
    if counting.callers:
        game.to_move = counting.callers[0]
    else:
        end_count_step(game, events)

def end_count_step(game: Game, events: list[Event]) -> None:
    """The muggins step is over: tell the show's worth, then count the next one."""
    counting = game._counting
    assert counting is not None and counting.claimed is not None
    lost = 0 if counting.mugged_by is not None else counting.worth - counting.claimed
    events.append(ShowCounted(counting.seat, counting.reason, counting.cards, counting.claimed,
                              counting.worth, counting.items, counting.mugged_by, lost))
    next_count(game, events)


def legal_actions(game: Game, seat: int) -> list[Action] | None:
    """The claims or calls ``seat`` may make now (it is to move), or None outside the claim
    and muggins steps."""
    counting = game._counting
    if game.phase == CLAIM and counting is not None:
        return [Claim(seat, points) for points in range(MAX_CLAIM + 1)]  # (one too high is refused)
    if game.phase == MUGGINS and counting is not None and counting.claimed is not None:
        calls: list[Action] = [Muggins(seat, points) for points in range(counting.claimed + 1, MAX_CLAIM + 1)]
        return calls + [Pass(seat)]
    return None


def default_action(game: Game, seat: int) -> Action | None:
    """What ``seat`` does when its turn timer runs out while a show is counted by hand:
    a silent owner claims 0 (its show is then open to muggins) and a silent opponent
    passes.  None in any other phase (a server then plays for the seat as it likes)."""
    if seat != game.to_move or game.is_over:
        return None
    if game.phase == CLAIM:
        return Claim(seat, 0)
    if game.phase == MUGGINS:
        return Pass(seat)
    return None
