"""Counting points: the show (a hand or crib with the turn-up) and the play (the pile).

Two entry points serve everything else:

* :func:`score_show` itemises a show: every fifteen, twenty-five, pair, run, flush, held
  Jack and picture card, each a :class:`ScoreItem` with the cards that made it.
* :func:`score_play` itemises what the last card of a pile makes on the running count.

:func:`show_total` is the fast path that bots call millions of times: the same total as
``score_show(...).total`` (a test holds them equal), computed from a cache keyed by the
multiset of ranks plus a few suit checks.

>>> from noddy.engine.cards import parse_cards, Card
>>> score = score_show(parse_cards("TC JH 4H"), Card.parse("5H"), "noddy")
>>> score.total
11
>>> score.announce()
'fifteen two, fifteen four, twenty-five seven, a flush ten, knave noddy eleven'
"""

from __future__ import annotations

from itertools import combinations, product
from operator import attrgetter
from typing import Iterable, Sequence

from .cards import JACK, Card
from .rules import Rules, find_preset
from .score_items import PAIR_KINDS, POINTS, Score, ScoreItem, announce, number_words

# (What a score is made of, and how it is called, is :mod:`.score_items`; these names are
# imported from here too.)
__all__ = ["PAIR_KINDS", "POINTS", "Score", "ScoreItem", "announce", "number_words", "play_items",
           "score_play", "score_show", "show_items", "show_total"]

_RANK = attrgetter("rank")
_RANK_BIT = attrgetter("rank_bit")


# -- the show ------------------------------------------------------------------------------


def _rank_items(rules: Rules, cards: Sequence[Card]) -> list[ScoreItem]:
    """Fifteens, twenty-fives, thirty-one, pairs and runs: everything that ranks decide."""
    return [ScoreItem(kind, points, tuple([cards[p] for p in positions]))
            for kind, points, positions in _rank_positions(rules, cards)]


def _rank_positions(rules: Rules, cards: Sequence[Card]) -> list[tuple[str, int, tuple[int, ...]]]:
    """:func:`_rank_items` as ``(kind, points, positions)``: the positions in ``cards`` of
    each item's cards, in the item's order.

    Which cards make each item depends only on the ranks, so the search for them is done
    once per multiset of ranks (:func:`_rank_plan`, keyed like :func:`show_total` by the sum
    of the cards' ``rank_bit``) and cached per set of rule parameters; each call only maps
    the plan's positions back onto ``cards``.  The engine scores every show of every deal,
    and enumerating the subsets each time was most of the cost of dealing a Noddy game.
    """
    key = sum(map(_RANK_BIT, cards))
    if len(cards) <= _PLAN_CACHE_MAX_CARDS:
        plans = rules.__dict__.get("_plan_cache")
        if plans is None:
            plans = _plan_cache(rules)
        plan = plans.get(key)
        if plan is None:
            plan = plans[key] = _rank_plan(rules, tuple(sorted([card.rank for card in cards])))
    else:  # more cards than any show holds (score_show is public): computed, not kept
        plan = _rank_plan(rules, tuple(sorted([card.rank for card in cards])))
    if not plan:  # nothing ranks make (a plan is falsy when it has no items)
        return []
    sums, rest = plan
    ranks = list(map(_RANK, cards))
    # ``order[i]`` is the position in ``cards`` of the i-th card by rank; the sort is stable,
    # so cards of one rank keep their order, as the plan assumes.
    order = sorted(range(len(cards)), key=ranks.__getitem__)
    items: list[tuple[str, int, tuple[int, ...]]] = []
    if sums:
        # A fifteen's (or twenty-five's) cards come in the order of their positions, and the
        # items as itertools.combinations gives them: fifteens before twenty-fives, each by
        # size, then by positions.  No two entries agree on all three, so sorting the tuples
        # never compares the kinds or points after them.
        found = [(group, len(subset), tuple(sorted(map(order.__getitem__, subset))), kind, points)
                 for group, kind, points, subset in sums]
        found.sort()
        items = [(kind, points, positions) for _, _, positions, kind, points in found]
    for kind, points, subset in rest:
        if subset is None:  # the thirty-one: every card, in the order given
            items.append((kind, points, tuple(range(len(cards)))))
        else:  # pairs and runs: ordered by rank already, then by position within a rank
            items.append((kind, points, tuple(map(order.__getitem__, subset))))
    return items


#: Every show the presets make has 4 or 5 cards; past this many a plan is computed but not
#: kept, so the cache stays small (under 9,000 multisets of ranks per set of rule
#: parameters) whatever a caller of the public score_show passes, and the key (four bits a
#: rank) cannot overflow.
_PLAN_CACHE_MAX_CARDS = 5

_PLAN_CACHES: dict[tuple, dict[int, tuple]] = {}


def _plan_cache(rules: Rules) -> dict[int, tuple]:
    """The plans of every Rules object with the same rank parameters, shared."""
    cache = _PLAN_CACHES.setdefault(_rank_key_params(rules), {})
    rules.__dict__["_plan_cache"] = cache
    return cache


def _rank_plan(rules: Rules, ranks: tuple[int, ...]) -> tuple:
    """The rank items of cards whose ranks, sorted, are ``ranks``, as positions in that
    sorted order: ``(sums, rest)``, or ``()`` when there are none.

    ``sums`` holds ``(group, kind, points, positions)`` for each fifteen (group 0) and
    twenty-five (group 1); ``rest`` holds ``(kind, points, positions)`` for the thirty-one
    (positions None: every card), the pairs and the runs, in the order they are called.
    This is the search the engine always made, over positions instead of cards."""
    n = len(ranks)
    values = [min(rank, 10) for rank in ranks]
    positions = range(n)
    sums: list[tuple] = []
    for size in range(2, n + 1):
        for subset in combinations(positions, size):
            total = sum(map(values.__getitem__, subset))
            if total == 15:
                sums.append((0, "fifteen", rules.fifteen_points, subset))
            elif total == 25 and size >= 3 and rules.show_twenty_five:
                points = size if rules.show_twenty_five == "per_card" else rules.twenty_five_fixed_points
                sums.append((1, "twenty-five", points, subset))
    rest: list[tuple] = []
    if rules.show_thirty_one and n >= 4 and sum(values) == 31:
        rest.append(("thirty-one", n, None))

    by_rank: dict[int, list[int]] = {}
    for position, rank in enumerate(ranks):
        by_rank.setdefault(rank, []).append(position)
    for rank in sorted(by_rank):
        group = by_rank[rank]
        if len(group) >= 2:
            rest.append((PAIR_KINDS[len(group) - 2], rules.pair_points[len(group) - 2],
                         tuple(group)))

    # Runs: the longest stretch of consecutive ranks (3 or more); each way of picking one
    # card of every rank in it is a distinct run.
    best: list[int] = []
    stretch: list[int] = []
    for rank in sorted(by_rank):
        stretch = stretch + [rank] if stretch and rank == stretch[-1] + 1 else [rank]
        if len(stretch) >= 3 and len(stretch) > len(best):
            best = stretch
    if best:
        for choice in product(*(by_rank[rank] for rank in best)):
            rest.append(("run", rules.run_points(len(best)), choice))
    if not sums and not rest:
        return ()
    return tuple(sums), tuple(rest)


def _suit_items(rules: Rules, hand: Sequence[Card], turn_up: Card | None,
                crib: bool) -> list[ScoreItem]:
    """Flushes, the held Jack of the turn-up's suit, and picture cards."""
    items: list[ScoreItem] = []
    if rules.flush_rule == "three_of_a_suit":
        cards = list(hand) + ([turn_up] if turn_up else [])
        suits = [card.suit for card in cards]
        suit, count = ("", 0)
        for some_suit in suits:  # the first suit (in the cards' order) with the most cards
            some_count = suits.count(some_suit)  # (a handful of cards: cheaper than a dict)
            if some_count > count:
                suit, count = some_suit, some_count
        if count >= 3:
            items.append(ScoreItem("flush", count, tuple(c for c in cards if c.suit == suit)))
    elif hand:
        suit = hand[0].suit
        if all(card.suit == suit for card in hand):
            with_turn = turn_up is not None and turn_up.suit == suit
            if with_turn:
                items.append(ScoreItem("flush", len(hand) + 1, tuple(hand) + (turn_up,)))
            elif not crib:
                items.append(ScoreItem("flush", len(hand), tuple(hand)))
    if turn_up is not None and rules.held_jack_points:
        for card in hand:
            if card.rank == JACK and card.suit == turn_up.suit:
                items.append(ScoreItem(rules.held_jack_name, rules.held_jack_points, (card,)))
    if rules.picture_points:
        pictures = rules.pictures
        for card in hand:
            points = pictures.get(card.index)
            if points:
                items.append(ScoreItem("picture card", points, (card,)))
    return items


def _cards(cards: Iterable[Card | str]) -> tuple[Card, ...]:
    """``cards`` as a tuple of cards, parsing any given as text."""
    out = tuple(cards)
    for card in out:  # the engine passes cards, not text: then there is nothing to parse
        if not isinstance(card, Card):
            return tuple(c if isinstance(c, Card) else Card.parse(c) for c in out)
    return out


def score_show(
    hand: Sequence[Card | str],
    turn_up: Card | str | None,
    preset: str | Rules = "noddy",
    *,
    crib: bool = False,
) -> Score:
    """Itemise a show: ``hand`` (or a crib, with ``crib=True``) together with the turn-up.

    The turned-up Jack's bonus belongs to the deal and is never counted here; the turn-up
    is never a "held" Jack.
    """
    rules = find_preset(preset)
    hand_cards = _cards(hand)
    turn = turn_up if turn_up is None or isinstance(turn_up, Card) else Card.parse(turn_up)
    cards = hand_cards + ((turn,) if turn is not None else ())
    return Score(tuple(_rank_items(rules, cards) + _suit_items(rules, hand_cards, turn, crib)))


def show_items(hand: tuple[Card, ...], turn_up: Card, rules: Rules, *,
               crib: bool = False) -> tuple[ScoreItem, ...]:
    """:func:`score_show`'s items for a ``hand`` given as a tuple of cards and a turn-up
    card, under configured ``rules``: the engine's own call, on every show of every deal,
    which spares the preset look-up, the parsing check and the :class:`Score` wrapper."""
    return tuple(_rank_items(rules, hand + (turn_up,)) + _suit_items(rules, hand, turn_up, crib))


def _rank_key_params(rules: Rules) -> tuple:
    return (rules.fifteen_points, rules.show_twenty_five, rules.twenty_five_fixed_points,
            rules.show_thirty_one, rules.pair_points, rules.run_scale)


_PARAM_CACHES: dict[tuple, dict[int, int]] = {}


def _rank_cache(rules: Rules) -> dict[int, int]:
    cache = rules.__dict__.get("_rank_cache")
    if cache is None:
        cache = _PARAM_CACHES.setdefault(_rank_key_params(rules), {})
        rules.__dict__["_rank_cache"] = cache
    return cache


def show_total(hand: Sequence[Card], turn_up: Card | None, rules: Rules, *,
               crib: bool = False) -> int:
    """``score_show(hand, turn_up, rules, crib=crib).total``, fast; ``rules`` a Rules object.

    Fifteens, pairs, runs, twenty-fives and thirty-ones depend only on the multiset of
    ranks, which ``sum(card.rank_bit)`` identifies exactly (at most four cards a rank), so
    that part is computed once per multiset and cached.  Suits are checked directly.
    ``turn_up`` None is the show without a turn-up: what a bot weighs when it lays away,
    before the cut (no held Jack then, and a flush of the hand alone).
    """
    key = 0 if turn_up is None else turn_up.rank_bit
    for card in hand:
        key += card.rank_bit
    cache = rules.__dict__.get("_rank_cache") or _rank_cache(rules)
    total = cache.get(key)
    if total is None:
        cards = tuple(hand) + (() if turn_up is None else (turn_up,))
        total = sum(item.points for item in _rank_items(rules, cards))
        cache[key] = total
    if rules.flush_rule == "three_of_a_suit":
        counts = {} if turn_up is None else {turn_up.suit: 1}
        for card in hand:
            counts[card.suit] = counts.get(card.suit, 0) + 1
        most = max(counts.values(), default=0)
        if most >= 3:
            total += most
    elif hand:
        first = hand[0].suit
        if all(card.suit == first for card in hand):
            if turn_up is not None and first == turn_up.suit:
                total += len(hand) + 1
            elif not crib:
                total += len(hand)
    if rules.held_jack_points and turn_up is not None:
        suit = turn_up.suit
        for card in hand:
            if card.rank == JACK and card.suit == suit:
                total += rules.held_jack_points
    if rules.picture_points:
        pictures = rules.pictures
        for card in hand:
            total += pictures.get(card.index, 0)
    return total


# -- the play ------------------------------------------------------------------------------


def score_play(pile: Sequence[Card | str], preset: str | Rules = "noddy") -> Score:
    """What the last card of ``pile`` scores on the running count.

    ``pile`` is every card played since the count last started at 0, in order.  Exactly 31
    is included (``"hitter"`` under the Noddy presets, ``"thirty-one"`` otherwise: 2 in
    all, in place of the last-card point); the last-card or go point for a count that ends
    below 31 is not, as it depends on who can still play.
    """
    rules = find_preset(preset)
    cards = _cards(pile)
    if not cards:
        return Score()
    return Score(play_items(cards, sum(card.value for card in cards), rules))


def play_items(cards: tuple[Card, ...], count: int, rules: Rules) -> tuple[ScoreItem, ...]:
    """:func:`score_play`'s items for a pile given as a non-empty tuple of cards whose values
    sum to ``count``, under configured ``rules``.

    The engine calls this on every card played: it holds the pile as cards and keeps the
    count already, so the preset look-up, the parsing check and the sum are spared.
    """
    items: list[ScoreItem] = []
    if count == 15:
        items.append(ScoreItem("fifteen", rules.fifteen_points, cards))
    elif count == 25 and rules.play_twenty_five:
        points = len(cards) if rules.play_twenty_five == "per_card" else rules.twenty_five_fixed_points
        items.append(ScoreItem("twenty-five", points, cards))
    elif count == 31:
        items.append(ScoreItem(rules.thirty_one_name, rules.thirty_one_points, cards))
        if rules.hitter_counts_thirty_one:
            items.append(ScoreItem("thirty-one", len(cards), cards))

    # Most cards played score nothing: each test below first looks at the two or three cards
    # on top, which decide at once that there is no pair, run or flush (this runs for every
    # card played).
    n = len(cards)
    last = cards[-1]
    rank = last.rank
    if n >= 2:
        below = cards[-2].rank
        if below == rank:  # a pair at least
            same = 2
            while same < n and same < 4 and cards[-1 - same].rank == rank:
                same += 1
            items.append(ScoreItem(PAIR_KINDS[same - 2], rules.pair_points[same - 2],
                                   cards[-same:]))
        elif n >= 3:
            # A run is the longest tail (3 cards or more) of distinct ranks spanning exactly
            # its length.  So its top three cards are distinct and span fewer ranks than the
            # pile has cards (most often they do not, and that is the end of it).  Else grow
            # the tail one card at a time from the end, keeping its lowest and highest rank;
            # no longer tail can qualify once a rank repeats.
            third = cards[-3].rank
            low = min(rank, below, third)
            high = max(rank, below, third)
            if third != rank and third != below and high - low < n:
                seen = {rank, below, third}
                best = 3 if high - low == 2 else 0
                for length in range(4, n + 1):
                    other = cards[-length].rank
                    if other in seen:
                        break
                    seen.add(other)
                    if other < low:
                        low = other
                    elif other > high:
                        high = other
                    if high - low == length - 1:
                        best = length
                if best:
                    items.append(ScoreItem("run", rules.run_points(best), cards[-best:]))

    if rules.play_flush and n >= 3:
        suit = last.suit
        if cards[-2].suit == suit and cards[-3].suit == suit:
            length = 3
            while length < n and cards[-1 - length].suit == suit:
                length += 1
            items.append(ScoreItem("flush", length, cards[-length:]))
    return tuple(items)
