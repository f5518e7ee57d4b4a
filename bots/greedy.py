"""The ``greedy`` computer level: the most points now, without handing the next player a gift.

Greedy looks one card ahead and no further, which makes it a fair yardstick: it never
misses a fifteen, a pair or a thirty-one that is on the table, and it does not lead a five
or leave the count on 21 for no reason, but it has no idea what the others hold beyond
"any unseen card is equally likely".

* **Play.**  Each playable card is worth the points it pegs at once, minus the points the
  next seat to play could expect to peg in reply, averaging over every card this seat
  cannot see (one the reply could not legally be counts as no points).  That single rule
  is what makes it avoid leaving the count on 5 or 21 (a ten-card scores 2), on 15 under
  the Noddy presets (a ten makes twenty-five), and leading into a likely pair royal.
  Ties go to the higher card, keeping low cards for squeezing in near 31.
* **Discard** (crib presets).  Keep the cards whose show is biggest without a turn-up,
  and add (own crib) or subtract (an opponent's) what the laid-away cards score together.
"""

from __future__ import annotations

from noddy.engine import Action, Card, Discard, Observation, Play, Rules, show_total

from .counting import counting_action
from .pegging import PlayRules, next_seat, team_of, unseen_cards


class GreedyPlayer:
    """Most points now, minus the expected reply; see the module docstring."""

    level = "greedy"

    def __init__(self, seed: int | None = None) -> None:
        """Greedy is deterministic: ``seed`` is accepted so every level is built the same way."""

    def choose(self, view: Observation, rules: Rules) -> Action:
        counted = counting_action(view, rules)  # counting by hand: exactly
        if counted is not None:
            return counted
        legal = view.legal_actions
        if len(legal) == 1:
            return legal[0]  # a go is always alone: it is legal only when no card is
        if isinstance(legal[0], Discard):
            return max(legal, key=lambda action: discard_value(view, rules, action))  # type: ignore[arg-type]
        value = _PlayValue(view, rules)
        scored = [(value(a.card), a.card.value, a.card.rank, a) for a in legal if isinstance(a, Play)]
        return max(scored, key=lambda item: item[:3])[3]


def discard_value(view: Observation, rules: Rules, action: Discard) -> float:
    """Show points of the cards kept, plus (or minus) what the laid-away cards make
    (``show_total`` without a turn-up: ``score_show``'s total, from a cache of the ranks)."""
    assert view.hand is not None and view.seat is not None
    kept = tuple(card for card in view.hand if card not in action.cards)
    value = float(show_total(kept, None, rules))
    crib_points = show_total(action.cards, None, rules, crib=True)
    assert view.dealer is not None
    own_crib = team_of(view, view.dealer) == team_of(view, view.seat)
    return value + (crib_points if own_crib else -crib_points)


def play_value(view: Observation, rules: Rules, card: Card) -> float:
    """Points ``card`` pegs now, minus the next player's expected points in reply."""
    return _PlayValue(view, rules)(card)


class _PlayValue:
    """:func:`play_value` for one decision: the rules, the replier and the cards it could
    hold are the same whichever card is played, so they are worked out once.

    Without flushes in the play what a reply pegs depends on its rank alone, so each rank
    is tried once, weighed by how many unseen cards have it (``replies``): the same whole
    number of points as trying every unseen card, about three times faster."""

    def __init__(self, view: Observation, rules: Rules) -> None:
        assert view.seat is not None and view.hand is not None
        self.fast = PlayRules(rules)
        self.pile = view.pile
        self.count = view.count
        sizes = list(view.hand_sizes)
        sizes[view.seat] -= 1
        replier = next_seat(view, view.seat, sizes, view.passed)
        self.unseen: list[Card] = []  # none when nobody replies
        #: The replies to try: (a card, how many unseen cards score as it does).
        self.replies: list[tuple[Card, int]] = []
        self.sign = 0
        if replier is not None and replier != view.seat:
            self.unseen = unseen_cards(view)
            self.sign = 1 if team_of(view, replier) == team_of(view, view.seat) else -1
            if self.fast.flush:
                self.replies = [(card, 1) for card in self.unseen]
            else:
                by_rank: dict[int, tuple[Card, int]] = {}
                for card in self.unseen:
                    first, times = by_rank.get(card.rank, (card, 0))
                    by_rank[card.rank] = (first, times + 1)
                self.replies = list(by_rank.values())

    def __call__(self, card: Card) -> float:
        fast = self.fast
        pile = self.pile + (card,)
        count = self.count + card.value
        now = fast.points(pile, count)
        if count == 31 or not self.unseen:
            return float(now)  # the count ends here, or nobody can reply
        reply = fast.reply_points(pile, count, self.replies)
        return now + self.sign * (reply / len(self.unseen))
