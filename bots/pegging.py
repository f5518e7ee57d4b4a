"""Fast pegging arithmetic and what a seat can infer about unseen cards, shared by the bots.

The engine's :func:`~noddy.engine.score_play` itemises a play for people to read; a bot
that searches calls the same arithmetic hundreds of thousands of times per decision and
only needs the total.  :class:`PlayRules` pre-reads the handful of :class:`Rules`
parameters the play depends on, and :meth:`PlayRules.points` returns exactly
``score_play(pile, rules).total`` (``tests/bots/test_pegging.py`` holds the two equal on
random piles for every preset).

:func:`unseen_cards` is the other half every level shares: the cards a seat cannot see,
computed only from its :class:`~noddy.engine.Observation` (and, optionally, the cards it
remembers laying away), so no bot ever peeks at the game.
"""

from __future__ import annotations

from typing import Iterable, Sequence

from noddy.engine import FULL_DECK, Card, Observation, Rules

from .memos import MemoFamily

#: The points of each pile met (see :meth:`PlayRules.points`), one memo per set of the
#: play's scoring parameters: 200,000 entries in all (~23 MB).
PILE_POINTS = MemoFamily("pile points", each=200_000, total=200_000)


class PlayRules:
    """The parameters of the play, read once from a :class:`Rules` for speed."""

    __slots__ = ("fifteen", "twenty_five", "twenty_five_fixed", "thirty_one",
                 "hitter_counts", "pair_points", "noddy_runs", "flush", "last_card",
                 "restarts", "target", "show_after_play", "has_crib", "scoring", "_memo")

    def __init__(self, rules: Rules) -> None:
        self.fifteen = rules.fifteen_points
        self.twenty_five = rules.play_twenty_five
        self.twenty_five_fixed = rules.twenty_five_fixed_points
        self.thirty_one = rules.thirty_one_points
        self.hitter_counts = rules.hitter_counts_thirty_one
        self.pair_points = rules.pair_points
        self.noddy_runs = rules.run_scale == "noddy"
        self.flush = rules.play_flush
        self.last_card = rules.last_card_points
        self.restarts = rules.play_restarts
        self.target = rules.target
        self.show_after_play = not rules.show_before_play
        self.has_crib = rules.has_crib
        #: What a pile pegs depends on these alone (not the target, nor who counts the
        #: shows): the key of the memos shared by every PlayRules that scores alike.
        self.scoring = (self.fifteen, self.twenty_five, self.twenty_five_fixed, self.thirty_one,
                        self.hitter_counts, tuple(self.pair_points), self.noddy_runs, self.flush)
        # Shared by every PlayRules that scores alike: a search meets the same piles again
        # and again, within a decision and across decisions and tables.
        self._memo = PILE_POINTS.memo(self.scoring)

    def points(self, pile: Sequence[Card], count: int) -> int:
        """What the last card of ``pile`` (whose values add up to ``count``) pegs.

        Remembered per pile (``count`` is always the pile's total, so the pile alone is the
        key): the searches ask for the same piles many times over."""
        # Keyed by numbers: without flushes only the ranks count (piles of other suits share
        # the entry), with them the cards' indexes.  A tuple of ints hashes far faster than
        # one of cards, and the garbage collector stops tracking it.
        if self.flush:
            key = tuple([card.index for card in pile])
        else:
            key = tuple([card.rank for card in pile])
        memo = self._memo
        try:
            return memo[key]
        except KeyError:
            value = self.points_uncached(pile, count)
            PILE_POINTS.put(memo, key, value)
            return value

    def reply_points(self, pile: tuple[Card, ...], count: int,
                     replies: Sequence[tuple[Card, int]]) -> int:
        """``sum(times * points(pile + (card,), count + card.value))`` over the ``replies``
        that fit under 31: what every answer to ``pile`` pegs, each weighed ``times``.  The
        same totals as asking :meth:`points` each time, with the key of ``pile`` built once."""
        flush = self.flush
        prefix = tuple([card.index for card in pile] if flush else [card.rank for card in pile])
        memo = self._memo
        room = 31 - count
        total = 0
        for card, times in replies:
            if card.value > room:
                continue
            key = prefix + ((card.index if flush else card.rank),)
            value = memo.get(key)
            if value is None:
                value = self.points_uncached(pile + (card,), count + card.value)
                PILE_POINTS.put(memo, key, value)
            total += times * value
        return total

    def points_uncached(self, pile: Sequence[Card], count: int) -> int:
        """:meth:`points` computed afresh."""
        n = len(pile)
        points = 0
        if count == 15:
            points = self.fifteen
        elif count == 25 and self.twenty_five:
            points = n if self.twenty_five == "per_card" else self.twenty_five_fixed
        elif count == 31:
            points = self.thirty_one + (n if self.hitter_counts else 0)
        if n < 2:
            return points
        last = pile[-1]
        rank = last.rank
        same = 1
        while same < n and same < 4 and pile[-1 - same].rank == rank:
            same += 1
        if same >= 2:
            points += self.pair_points[same - 2]
        elif n >= 3:
            # A run cannot end in a pair, so only look for one when the last two differ.
            for length in range(n, 2, -1):
                low = high = rank
                seen = 1 << rank
                ok = True
                for i in range(2, length + 1):
                    r = pile[-i].rank
                    bit = 1 << r
                    if seen & bit:
                        ok = False
                        break
                    seen |= bit
                    if r < low:
                        low = r
                    elif r > high:
                        high = r
                if ok and high - low == length - 1:
                    points += 2 if (self.noddy_runs and length == 3) else length
                    break
        if self.flush and n >= 3:
            suit = last.suit
            length = 1
            while length < n and pile[-1 - length].suit == suit:
                length += 1
            if length >= 3:
                points += length
        return points


def unseen_cards(view: Observation, laid_away: Iterable[Card] = ()) -> list[Card]:
    """Every card ``view``'s seat cannot see, in deck order.

    Seen are: the seat's hand, the turn-up, every card played this deal, and whatever the
    seat remembers laying away to the crib (the Observation itself does not carry that).
    """
    seen = set(view.hand or ())
    seen.update(card for _, card in view.played)
    if view.turn_up is not None:
        seen.add(view.turn_up)
    seen.update(laid_away)
    return [card for card in FULL_DECK if card not in seen]


def team_of(view: Observation, seat: int) -> int:
    """The index into ``view.scores`` that ``seat``'s points go to."""
    return seat % 2 if view.partnerships else seat


def next_seat(view: Observation, after: int, hand_sizes: Sequence[int], passed: Iterable[int]) -> int | None:
    """The seat the engine hands the turn to after ``after`` (holds cards, has not said go)."""
    gone = set(passed)
    for step in range(1, view.players + 1):
        seat = (after + step) % view.players
        if hand_sizes[seat] and seat not in gone:
            return seat
    return None
