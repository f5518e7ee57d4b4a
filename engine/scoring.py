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

from dataclasses import dataclass
from itertools import combinations, product
from typing import Iterable, Sequence

from .cards import JACK, Card
from .rules import Rules, find_preset

PAIR_KINDS = ("pair", "pair royal", "double pair royal")


@dataclass(frozen=True, slots=True)
class ScoreItem:
    """One scoring combination: its kind (``"fifteen"``, ``"run"``...), points and cards."""

    kind: str
    points: int
    cards: tuple[Card, ...] = ()

    def to_dict(self) -> dict:
        return {"kind": self.kind, "points": self.points, "cards": [str(c) for c in self.cards]}


@dataclass(frozen=True, slots=True)
class Score:
    """An itemised score; ``total`` is the sum of the items' points."""

    items: tuple[ScoreItem, ...] = ()

    @property
    def total(self) -> int:
        return sum(item.points for item in self.items)

    def __bool__(self) -> bool:
        return bool(self.items)

    def announce(self, start: int = 0) -> str:
        """The score as a player calls it: ``"fifteen two, a pair four"``.

        ``start`` is added to the running figure (a show is announced from zero; a play
        announcement may be given from anywhere).  An empty score is ``"nothing"``.
        """
        return announce(self.items, start)


def announce(items: Iterable[ScoreItem], start: int = 0, *, concealed: bool = False) -> str:
    """Call ``items`` with a running total.  ``concealed`` words it for players who may not
    know the cards: combinations are named ("a run of three"), cards are not."""
    running = start
    phrases = []
    for item in items:
        running += item.points
        phrases.append(f"{_phrase(item, concealed)} {number_words(running)}")
    return ", ".join(phrases) if phrases else "nothing"


def _phrase(item: ScoreItem, concealed: bool = False) -> str:
    """How ``item`` is called; a kind not worded specially (fifteen, hitter, a preset's own
    names for its Jacks...) is called by its name."""
    if item.kind in PAIR_KINDS:
        return f"a {item.kind}"
    if item.kind == "run":
        return f"a run of {number_words(len(item.cards))}"
    if item.kind == "flush":
        return "a flush"
    if item.kind == "picture card":
        return f"the {item.cards[0].name}" if item.cards and not concealed else "a picture card"
    return item.kind


_SMALL = (
    "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen "
    "fifteen sixteen seventeen eighteen nineteen"
).split()
_TENS = "_ _ twenty thirty forty fifty sixty seventy eighty ninety".split()


def number_words(n: int) -> str:
    """``number_words(25) == "twenty-five"``; used for spoken counts up to 999."""
    if n < 0:
        return "minus " + number_words(-n)
    if n < 20:
        return _SMALL[n]
    if n < 100:
        tens, ones = divmod(n, 10)
        return _TENS[tens] + ("-" + _SMALL[ones] if ones else "")
    hundreds, rest = divmod(n, 100)
    head = _SMALL[hundreds] + " hundred"
    return head + (" and " + number_words(rest) if rest else "")


# -- the show ------------------------------------------------------------------------------


def _rank_items(rules: Rules, cards: Sequence[Card]) -> list[ScoreItem]:
    """Fifteens, twenty-fives, thirty-one, pairs and runs: everything that ranks decide."""
    items: list[ScoreItem] = []
    n = len(cards)
    values = [card.value for card in cards]
    fifteens: list[ScoreItem] = []
    twenty_fives: list[ScoreItem] = []
    for size in range(2, n + 1):
        # The cards' combinations and their values' come in the same order; summing a tuple
        # of ints is much cheaper than indexing into ``values`` (every deal shows 3-5 times).
        for combo_values, combo in zip(combinations(values, size), combinations(cards, size)):
            total = sum(combo_values)
            if total == 15:
                fifteens.append(ScoreItem("fifteen", rules.fifteen_points, combo))
            elif total == 25 and size >= 3 and rules.show_twenty_five:
                points = size if rules.show_twenty_five == "per_card" else rules.twenty_five_fixed_points
                twenty_fives.append(ScoreItem("twenty-five", points, combo))
    items += fifteens + twenty_fives
    if rules.show_thirty_one and n >= 4 and sum(values) == 31:
        items.append(ScoreItem("thirty-one", n, tuple(cards)))

    by_rank: dict[int, list[Card]] = {}
    for card in cards:
        by_rank.setdefault(card.rank, []).append(card)
    for rank in sorted(by_rank):
        group = by_rank[rank]
        if len(group) >= 2:
            items.append(ScoreItem(PAIR_KINDS[len(group) - 2],
                                   rules.pair_points[len(group) - 2], tuple(group)))

    # Runs: the longest stretch of consecutive ranks (3 or more); each way of picking one
    # card of every rank in it is a distinct run.
    ranks = sorted(by_rank)
    best: list[int] = []
    stretch: list[int] = []
    for rank in ranks:
        stretch = stretch + [rank] if stretch and rank == stretch[-1] + 1 else [rank]
        if len(stretch) >= 3 and len(stretch) > len(best):
            best = stretch
    if best:
        for choice in product(*(by_rank[rank] for rank in best)):
            items.append(ScoreItem("run", rules.run_points(len(best)), tuple(choice)))
    return items


def _suit_items(rules: Rules, hand: Sequence[Card], turn_up: Card | None,
                crib: bool) -> list[ScoreItem]:
    """Flushes, the held Jack of the turn-up's suit, and picture cards."""
    items: list[ScoreItem] = []
    if rules.flush_rule == "three_of_a_suit":
        cards = list(hand) + ([turn_up] if turn_up else [])
        counts: dict[str, int] = {}  # a Counter, but cheaper to fill for a handful of cards
        for card in cards:
            counts[card.suit] = counts.get(card.suit, 0) + 1
        suit, count = ("", 0)
        for some_suit, some_count in counts.items():  # the first suit with the most cards
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


def show_total(hand: Sequence[Card], turn_up: Card, rules: Rules, *, crib: bool = False) -> int:
    """``score_show(hand, turn_up, rules, crib=crib).total``, fast; ``rules`` a Rules object.

    Fifteens, pairs, runs, twenty-fives and thirty-ones depend only on the multiset of
    ranks, which ``sum(card.rank_bit)`` identifies exactly (at most four cards a rank), so
    that part is computed once per multiset and cached.  Suits are checked directly.
    """
    key = turn_up.rank_bit
    for card in hand:
        key += card.rank_bit
    cache = rules.__dict__.get("_rank_cache") or _rank_cache(rules)
    total = cache.get(key)
    if total is None:
        cards = tuple(hand) + (turn_up,)
        total = sum(item.points for item in _rank_items(rules, cards))
        cache[key] = total
    suit = turn_up.suit
    if rules.flush_rule == "three_of_a_suit":
        counts = {suit: 1}
        for card in hand:
            counts[card.suit] = counts.get(card.suit, 0) + 1
        most = max(counts.values())
        if most >= 3:
            total += most
    else:
        first = hand[0].suit
        if all(card.suit == first for card in hand):
            if first == suit:
                total += len(hand) + 1
            elif not crib:
                total += len(hand)
    if rules.held_jack_points:
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

    last = cards[-1]
    same = 1
    while same < len(cards) and same < 4 and cards[-1 - same].rank == last.rank:
        same += 1
    if same >= 2:
        items.append(ScoreItem(PAIR_KINDS[same - 2], rules.pair_points[same - 2],
                               cards[-same:]))

    for length in range(len(cards), 2, -1):
        tail = cards[-length:]
        ranks = {card.rank for card in tail}
        if len(ranks) == length and max(ranks) - min(ranks) == length - 1:
            items.append(ScoreItem("run", rules.run_points(length), tail))
            break

    if rules.play_flush:
        length = 1
        while length < len(cards) and cards[-1 - length].suit == last.suit:
            length += 1
        if length >= 3:
            items.append(ScoreItem("flush", length, cards[-length:]))
    return tuple(items)
