"""The expert's determinized search: a deal of the unseen cards drawn, the rest searched.

Three or four players (and two when no drawn deal fits the opponent model), the play is
valued by "perfect-information Monte Carlo": :func:`sample_deal` draws hands for the other
seats consistent with what this seat has seen, and :class:`DealSearch` runs alpha-beta over
the rest of the play of that one known deal (this side maximising, the others minimising),
leaves worth the difference in points pegged from here on, or :data:`WIN` when a side
reaches the target in the play or the show after it; long plays are cut off at
``max_depth`` plies.  :func:`sample_deal`, :func:`distinct_moves` and :func:`seat_bits`
also serve the two-player search, :mod:`noddy.bots.worlds`.
"""

from __future__ import annotations

import random
from typing import Sequence

from noddy.engine import Card, Observation, Rules, show_total

from .pegging import PlayRules, team_of

#: What reaching the target is worth, against a few points of pegging either way.
WIN = 100.0
_INF = float("inf")


def sample_deal(view: Observation, unseen: list[Card], laid: tuple[Card, ...], fast: PlayRules,
                rng: random.Random) -> tuple[list[tuple[Card, ...]], tuple[Card, ...]]:
    """One deal of the unseen cards to the other hands (and the crib) consistent with the
    view: a seat that has said go in this count holds only cards too big for it."""
    assert view.seat is not None and view.hand is not None
    hands: list[tuple[Card, ...]] = [()] * view.players
    hands[view.seat] = tuple(view.hand)
    pool = unseen
    me = view.seat
    passed = [seat for seat in view.passed if seat != me]
    if passed:
        pool = list(unseen)
        room = 31 - view.count
        for seat in passed:
            size = view.hand_sizes[seat]
            big = [card for card in pool if card.value > room]
            chosen = rng.sample(big, size) if len(big) >= size else rng.sample(pool, size)
            for card in chosen:
                pool.remove(card)
            hands[seat] = tuple(chosen)
    # Draw only the cards the other hands (and the crib) need, not a shuffle of the pool.
    others = [seat for seat in range(view.players) if seat != me and seat not in passed]
    missing = 0
    if fast.has_crib and fast.show_after_play:
        missing = max(0, view.crib_size - len(laid))
    need = sum(view.hand_sizes[seat] for seat in others)
    drawn = rng.sample(pool, min(len(pool), need + missing))
    at = 0
    for seat in others:
        size = view.hand_sizes[seat]
        hands[seat] = tuple(drawn[at:at + size])
        at += size
    crib: tuple[Card, ...] = ()
    if fast.has_crib and fast.show_after_play:
        crib = tuple(laid) + tuple(drawn[at:at + missing])
    return hands, crib


def distinct_moves(hand: Sequence[Card], count: int, flush: bool) -> list[Card]:
    """The cards of ``hand`` that fit under 31, one of each rank (of each card if the play
    scores flushes, where the suit matters): the moves a search tries."""
    room = 31 - count
    choices: list[Card] = []
    keys: set[object] = set()
    for card in hand:
        if card.value <= room:
            key = card if flush else card.rank
            if key not in keys:
                keys.add(key)
                choices.append(card)
    return choices


def seat_bits(seats: Sequence[int]) -> int:
    """``seats`` as the bit set the searches keep the goes of a count in."""
    bits = 0
    for seat in seats:
        bits |= 1 << seat
    return bits


class DealSearch:
    """Alpha-beta over the rest of the play of one fully known (sampled) deal."""

    def __init__(self, view: Observation, rules: Rules, fast: PlayRules, max_depth: int) -> None:
        assert view.seat is not None and view.dealer is not None
        self.rules = rules
        self.fast = fast
        self.n = view.players
        self.teams = [team_of(view, s) for s in range(self.n)]
        self.me = view.seat
        self.my_team = self.teams[view.seat]
        self.team_count = len(view.scores)
        self.base = view.scores
        self.target = view.target
        self.view = view
        self.max_depth = max_depth
        self.dealer = view.dealer
        self.show_order = [(view.dealer + i) % self.n for i in range(1, self.n + 1)]
        self.played_by = [tuple(c for s, c in view.played if s == seat) for seat in range(self.n)]
        self.passed = seat_bits(view.passed)
        self.hands: list[tuple[Card, ...]] = []
        self.show: list[tuple[int, int]] = []

    def set_deal(self, hands: list[tuple[Card, ...]], crib: tuple[Card, ...]) -> None:
        """Fix the sampled hands; precompute the show that follows the play, if any."""
        self.hands = hands
        self.show = []
        turn_up = self.view.turn_up
        if self.fast.show_after_play and turn_up is not None:
            for seat in self.show_order:
                kept = hands[seat] + self.played_by[seat]
                if kept:
                    self.show.append((self.teams[seat], show_total(kept, turn_up, self.rules)))
            if self.fast.has_crib and len(crib) == self.view.crib_size and crib:
                self.show.append((self.teams[self.dealer],
                                  show_total(crib, turn_up, self.rules, crib=True)))

    # -- values ------------------------------------------------------------------------
    def _diff(self, gains: Sequence[int]) -> float:
        mine = gains[self.my_team]
        others = sum(gains) - mine
        return mine - others / (self.team_count - 1)

    def _won(self, team: int) -> float:
        return WIN if team == self.my_team else -WIN

    def _finished(self, gains: Sequence[int]) -> float:
        """The play is over: run the show in order to see whether it decides the game."""
        if self.show:
            scores = [b + g for b, g in zip(self.base, gains)]
            for team, points in self.show:
                scores[team] += points
                if scores[team] >= self.target:
                    return self._won(team)
        return self._diff(gains)

    # -- the tree ----------------------------------------------------------------------
    def root(self, card: Card) -> float:
        gains = (0,) * self.team_count
        return self._after_play(self.hands, self.view.pile, self.view.count, self.passed,
                                self.me, card, gains, 0, -_INF, _INF)

    def _node(self, hands: list[tuple[Card, ...]], pile: tuple[Card, ...], count: int, passed: int,
              last: int | None, seat: int, gains: tuple[int, ...], depth: int,
              alpha: float, beta: float) -> float:
        choices = distinct_moves(hands[seat], count, self.fast.flush)
        if not choices:
            return self._next_turn(hands, pile, count, passed | (1 << seat), last, seat, gains,
                                   depth + 1, alpha, beta)
        if self.teams[seat] == self.my_team:
            best = -_INF
            for card in choices:
                value = self._after_play(hands, pile, count, passed, seat, card, gains, depth,
                                         alpha, beta)
                if value > best:
                    best = value
                    if value > alpha:
                        alpha = value
                        if alpha >= beta:
                            break
            return best
        best = _INF
        for card in choices:
            value = self._after_play(hands, pile, count, passed, seat, card, gains, depth,
                                     alpha, beta)
            if value < best:
                best = value
                if value < beta:
                    beta = value
                    if alpha >= beta:
                        break
        return best

    def _after_play(self, hands: list[tuple[Card, ...]], pile: tuple[Card, ...], count: int,
                    passed: int, seat: int, card: Card, gains: tuple[int, ...], depth: int,
                    alpha: float, beta: float) -> float:
        new_hands = list(hands)
        new_hands[seat] = tuple(c for c in hands[seat] if c is not card)
        pile = pile + (card,)
        count += card.value
        points = self.fast.points(pile, count)
        if points:
            team = self.teams[seat]
            as_list = list(gains)
            as_list[team] += points
            gains = tuple(as_list)
            if self.base[team] + gains[team] >= self.target:
                return self._won(team)
        if count == 31:
            return self._end_count(new_hands, pile, count, passed, seat, False, gains, depth + 1,
                                   alpha, beta)
        return self._next_turn(new_hands, pile, count, passed, seat, seat, gains, depth + 1,
                               alpha, beta)

    def _next_turn(self, hands: list[tuple[Card, ...]], pile: tuple[Card, ...], count: int,
                   passed: int, last: int | None, after: int, gains: tuple[int, ...], depth: int,
                   alpha: float, beta: float) -> float:
        n = self.n
        for step in range(1, n + 1):
            seat = (after + step) % n
            if hands[seat] and not (passed >> seat) & 1:
                if depth >= self.max_depth:
                    return self._diff(gains)
                return self._node(hands, pile, count, passed, last, seat, gains, depth,
                                  alpha, beta)
        return self._end_count(hands, pile, count, passed, last, True, gains, depth, alpha, beta)

    def _end_count(self, hands: list[tuple[Card, ...]], pile: tuple[Card, ...], count: int,
                   passed: int, last: int | None, last_card: bool, gains: tuple[int, ...],
                   depth: int, alpha: float, beta: float) -> float:
        fast = self.fast
        if last_card and last is not None and fast.last_card:
            team = self.teams[last]
            as_list = list(gains)
            as_list[team] += fast.last_card
            gains = tuple(as_list)
            if self.base[team] + gains[team] >= self.target:
                return self._won(team)
        if fast.restarts and any(hands):
            assert last is not None
            return self._next_turn(hands, (), 0, 0, last, last, gains, depth, alpha, beta)
        return self._finished(gains)
