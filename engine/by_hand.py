"""Counting by hand (``counting: "manual"``): the claim and muggins steps of each show.

Counting by hand (only where the show follows the play) turns the show into decisions: for
each hand from the dealer's left, then the crib, its owner claims (phase ``claim``), then
each opponent in turn from the owner's left may call muggins or pass (phase ``muggins``;
partners never call).  The engine knows each show's worth all along but tells it only in the
``counted`` event that closes the muggins step.

A claim above the worth (RULES.md, revised ruling) is refused once, so that a slip costs
nothing: the claim step stays open and only the claimer is told (``claim_refused``).  A
second claim above the worth for the same show stands as a claim of 0.  So every claim
from 0 to 29 is legal for any show, and trying numbers downwards from 29 finds nothing
but, at most, that the hand holds less than the first number tried.

:class:`CountingByHand` is the step's own state -- the shows still to count and the one
being counted (:class:`ShowCount`, its worth included) -- held by the game and changed only
by its methods here.  Each takes the game (typed as :class:`~.game_state.GameState`: this
module does not import the game), moves its turn, pegs through :func:`~.pegging.peg`, appends
the events it makes and returns True when every show is counted: the game then ends the deal.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Sequence

from .actions import MAX_CLAIM, Action, Claim, Muggins, Pass
from .cards import Card
from .counting_events import Claimed, ClaimRefused, CountingStarted, MugginsCalled, MugginsPassed, ShowCounted
from .events import Event
from .game_state import GameState
from .pegging import peg
from .phases import CLAIM, MUGGINS
from .score_items import POINTS, ScoreItem
from .scoring import show_items
from .shows import CRIB, ShowRecord, crib_shown


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


class CountingByHand:
    """The counting-by-hand step of a deal: the shows still to count, in show order, and
    the one being counted now (``show``; None between shows and before the first)."""

    __slots__ = ("to_count", "show")

    def __init__(self) -> None:
        self.to_count: list[tuple[int, str]] = []  # (seat, "show" or "crib"), in show order
        self.show: ShowCount | None = None

    def copy(self) -> CountingByHand:
        """An independent copy (for :meth:`Game.copy <noddy.engine.game.Game.copy>`)."""
        other = CountingByHand()
        other.to_count = list(self.to_count)
        if self.show is not None:
            other.show = replace(self.show, callers=list(self.show.callers))
        return other

    def begin(self, game: GameState, order: Sequence[tuple[int, str]], events: list[Event]) -> bool:
        """The play is over: count these shows, in this order.  True if there are none."""
        self.to_count = list(order)
        return self.next_show(game, events)

    def next_show(self, game: GameState, events: list[Event]) -> bool:
        """The next show's claim step; True (the deal is over) when every show is counted."""
        if not self.to_count:
            self.show = None
            return True
        seat, reason = self.to_count.pop(0)
        is_crib = reason == CRIB
        cards = crib_shown(game.crib) if is_crib else game.kept[seat]
        assert game.turn_up is not None
        items = show_items(cards, game.turn_up, game.rules, crib=is_crib)
        self.show = ShowCount(seat, reason, cards, sum(map(POINTS, items)), items)
        events.append(CountingStarted(seat, reason, cards, game.turn_up))
        game.phase = CLAIM
        game.to_move = seat
        return False

    def claim(self, game: GameState, shows: ShowRecord, action: Claim, events: list[Event]) -> bool:
        """The owner's claim: refused once if above the worth, then taken (a second claim
        above the worth as a claim of 0) and pegged, and the muggins step begins."""
        show = self.show
        assert show is not None
        seat, points = action.seat, action.points
        if points > show.worth:
            again = show.refused is None
            events.append(ClaimRefused(seat, show.reason, points, not again))
            if again:
                show.refused = points
                return False
            points = 0
        show.claimed = points
        events.append(Claimed(seat, show.reason, show.cards, points))
        shows.record(seat, points)
        if points and peg(game, events, seat, (ScoreItem("claim", points),), "claim"):
            return False
        owner_team = game.team_of(seat)
        show.callers = [other for other in ((seat + i) % game.players for i in range(1, game.players))
                        if game.team_of(other) != owner_team]
        game.phase = MUGGINS
        game.to_move = show.callers[0]
        return False

    def muggins(self, game: GameState, action: Muggins, events: list[Event]) -> bool:
        show = self.show
        assert show is not None and show.claimed is not None
        right = action.points == show.worth and show.claimed < show.worth
        events.append(MugginsCalled(action.seat, show.seat, action.points, right))
        if not right:
            return self._next_caller(game, events)
        show.mugged_by = action.seat
        item = ScoreItem("muggins", show.worth - show.claimed)
        if peg(game, events, action.seat, (item,), "muggins"):
            return False
        return self._end_step(game, events)

    def pass_(self, game: GameState, seat: int, events: list[Event]) -> bool:
        assert self.show is not None
        events.append(MugginsPassed(seat, self.show.seat))
        return self._next_caller(game, events)

    def _next_caller(self, game: GameState, events: list[Event]) -> bool:
        assert self.show is not None
        callers = self.show.callers
        callers.pop(0)
        if callers:
            game.to_move = callers[0]
            return False
        return self._end_step(game, events)

    def _end_step(self, game: GameState, events: list[Event]) -> bool:
        """The muggins step is over: tell the show's worth, then count the next one."""
        show = self.show
        assert show is not None and show.claimed is not None
        lost = 0 if show.mugged_by is not None else show.worth - show.claimed
        events.append(ShowCounted(show.seat, show.reason, show.cards, show.claimed,
                                  show.worth, show.items, show.mugged_by, lost))
        return self.next_show(game, events)

    def legal_actions(self, phase: str, seat: int) -> list[Action] | None:
        """The claims or calls ``seat`` may make now (it is to move), or None outside the
        claim and muggins steps."""
        show = self.show
        if phase == CLAIM and show is not None:
            return [Claim(seat, points) for points in range(MAX_CLAIM + 1)]  # (one too high is refused)
        if phase == MUGGINS and show is not None and show.claimed is not None:
            calls: list[Action] = [Muggins(seat, points) for points in range(show.claimed + 1, MAX_CLAIM + 1)]
            return calls + [Pass(seat)]
        return None


def default_action(game: GameState, seat: int) -> Action | None:
    """What ``seat`` does when its turn timer runs out while a show is counted by hand:
    a silent owner claims 0 (its show is then open to muggins) and a silent opponent
    passes.  None in any other phase (a server then plays for the seat as it likes)."""
    if seat != game.to_move or game.winner is not None:
        return None
    if game.phase == CLAIM:
        return Claim(seat, 0)
    if game.phase == MUGGINS:
        return Pass(seat)
    return None
