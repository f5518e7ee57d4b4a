"""A kept hand's show total for every possible turn-up at once: the coach's exact averages.

``score_show(kept, t, rules)`` itemises one show; averaging it over the 46 cards a seat
cannot see, for each of the 15 ways to lay away from a six-card hand, is 690 itemised shows.
Every part of a show depends either on the turn-up's *rank* alone (fifteens, twenty-fives,
thirty-one, pairs, runs) or on its *suit* alone (flushes, the held Jack, picture cards,
which do not depend on the turn-up at all).  So :class:`ShowTable` scores the kept cards'
own part once -- the counts of their subsets by size and sum, their ranks' multiplicities,
their suits -- and then works out what each of the 13 ranks and each of the 4 suits adds:

    total(t) = by_rank[t.rank] + by_suit[t.suit]

exactly ``score_show(kept, t, rules, crib=crib).total`` for every card ``t`` not among the
kept ones (``tests/bots/test_coach.py`` holds them equal for every preset), so a sum over
any set of turn-ups is 13 + 4 products of integers.
"""

from __future__ import annotations

from typing import Iterable, Sequence

from noddy.engine import Card, Rules

__all__ = ["ShowTable", "expected_show"]

#: The Jack's rank: held in the turn-up's suit it scores "his nob" ("knave noddy").
JACK_RANK = 11


class ShowTable:
    """The show totals of ``kept`` under ``rules`` for every turn-up, by rank and by suit.

    ``by_rank[r]`` (index 1-13) holds the rank-decided points with a turn-up of rank ``r``
    (0 for a rank whose four cards are all kept: no such turn-up exists);
    ``by_suit[s]`` (``"CDHS"``) the suit-decided points with a turn-up of suit ``s``.

    >>> from noddy.engine import PRESETS, parse_cards, Card
    >>> table = ShowTable(parse_cards("5C 5D 5H JS"), PRESETS["cribbage"])
    >>> table.total(Card.parse("5S")), table.total(Card.parse("2H")), table.total(Card.parse("2S"))
    (29, 14, 15)
    """

    __slots__ = ("kept", "by_rank", "by_suit")

    def __init__(self, kept: Sequence[Card], rules: Rules, *, crib: bool = False) -> None:
        self.kept = tuple(kept)
        self.by_rank = _rank_parts(self.kept, rules)
        self.by_suit = _suit_parts(self.kept, rules, crib)

    def total(self, turn_up: Card) -> int:
        """``score_show(kept, turn_up, rules, crib=crib).total``."""
        return self.by_rank[turn_up.rank] + self.by_suit[turn_up.suit]

    def sum_over(self, turn_ups: Iterable[Card]) -> int:
        """The sum of :meth:`total` over ``turn_ups`` (none of them among the kept cards)."""
        ranks = [0] * 14
        suits = {"C": 0, "D": 0, "H": 0, "S": 0}
        for card in turn_ups:
            ranks[card.rank] += 1
            suits[card.suit] += 1
        by_rank = self.by_rank
        by_suit = self.by_suit
        return (sum(n * by_rank[r] for r, n in enumerate(ranks) if n)
                + sum(n * by_suit[s] for s, n in suits.items() if n))


def expected_show(kept: Sequence[Card], turn_ups: Sequence[Card], rules: Rules, *,
                  crib: bool = False) -> float:
    """The mean show of ``kept`` over the equally likely ``turn_ups`` (exact, see the module)."""
    return ShowTable(kept, rules, crib=crib).sum_over(turn_ups) / len(turn_ups)


def _rank_parts(kept: tuple[Card, ...], rules: Rules) -> list[int]:
    """``[0, points with an ace turned up, ..., with a king]``: fifteens, twenty-fives,
    thirty-one, pairs and runs of the kept cards together with the turn-up's rank."""
    n = len(kept) + 1  # cards in the show
    # Subsets of the kept cards by (size, sum of values): the turn-up's combinations are a
    # kept subset plus the turn-up, and the kept cards' own are the subsets themselves.
    subsets: dict[tuple[int, int], int] = {(0, 0): 1}
    for card in kept:
        for (size, total), ways in list(subsets.items()):
            key = (size + 1, total + card.value)
            subsets[key] = subsets.get(key, 0) + ways
    fifteen = rules.fifteen_points
    twenty_five = rules.show_twenty_five

    def twenty_five_points(size: int) -> int:
        return size if twenty_five == "per_card" else rules.twenty_five_fixed_points

    own = 0  # combinations among the kept cards alone
    for (size, total), ways in subsets.items():
        if size >= 2 and total == 15:
            own += ways * fifteen
        elif twenty_five and size >= 3 and total == 25:
            own += ways * twenty_five_points(size)
    kept_values = sum(card.value for card in kept)
    counts = [0] * 15  # multiplicity of each rank among the kept cards (padded both ends)
    for card in kept:
        counts[card.rank] += 1
    pair_points = (0, 0) + tuple(rules.pair_points)
    parts = [0] * 14
    for rank in range(1, 14):
        if counts[rank] == 4:
            continue  # all four are kept: no turn-up of this rank exists
        value = min(rank, 10)
        points = own
        for (size, total), ways in subsets.items():
            # The turn-up with this subset: fifteen needs 2+ cards (size 0 never sums to 15
            # with a card worth 10 at most), twenty-five 3+ (size 2 and up).
            if total + value == 15 and size >= 1:
                points += ways * fifteen
            elif twenty_five and total + value == 25 and size >= 2:
                points += ways * twenty_five_points(size + 1)
        if rules.show_thirty_one and n >= 4 and kept_values + value == 31:
            points += n
        counts[rank] += 1
        points += sum(pair_points[c] for c in counts)
        points += _runs(counts, rules)
        counts[rank] -= 1
        parts[rank] = points
    return parts


def _runs(counts: list[int], rules: Rules) -> int:
    """The runs of a show whose rank multiplicities are ``counts``: the engine's rule, the
    first longest stretch of 3+ consecutive ranks, once for each way to pick its cards."""
    best_start = best_length = 0
    length = 0
    for rank in range(1, 14):
        if counts[rank]:
            length += 1
            if length >= 3 and length > best_length:
                best_start, best_length = rank - length + 1, length
        else:
            length = 0
    if not best_length:
        return 0
    ways = 1
    for rank in range(best_start, best_start + best_length):
        ways *= counts[rank]
    return ways * rules.run_points(best_length)


def _suit_parts(kept: tuple[Card, ...], rules: Rules, crib: bool) -> dict[str, int]:
    """``{suit: points}`` with a turn-up of that suit: flushes, the held Jack of the
    turn-up's suit, and picture cards held (the same whatever is turned up)."""
    pictures = 0
    if rules.picture_points:
        table = rules.pictures
        pictures = sum(table.get(card.index, 0) for card in kept)
    parts: dict[str, int] = {}
    for suit in "CDHS":
        points = pictures
        if rules.flush_rule == "three_of_a_suit":
            tally: dict[str, int] = {}
            for card in kept:
                tally[card.suit] = tally.get(card.suit, 0) + 1
            tally[suit] = tally.get(suit, 0) + 1
            most = max(tally.values())
            if most >= 3:
                points += most
        elif kept and all(card.suit == kept[0].suit for card in kept):
            if kept[0].suit == suit:
                points += len(kept) + 1
            elif not crib:
                points += len(kept)
        if rules.held_jack_points:
            points += rules.held_jack_points * sum(
                1 for card in kept if card.rank == JACK_RANK and card.suit == suit)
        parts[suit] = points
    return parts
