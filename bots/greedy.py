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

import random

from noddy.engine import Action, Card, Discard, Go, Observation, Play, Rules, score_show

from .pegging import PlayRules, next_seat, team_of, unseen_cards


class GreedyPlayer:
    """Most points now, minus the expected reply; see the module docstring."""

    level = "greedy"

    def __init__(self, seed: int | None = None) -> None:
        # Greedy is deterministic; the seed is accepted so every level is built the same way.
        self._rng = random.Random(seed)

    def choose(self, view: Observation, rules: Rules) -> Action:
        legal = view.legal_actions
        if len(legal) == 1:
            return legal[0]
        if isinstance(legal[0], Discard):
            return max(legal, key=lambda action: discard_value(view, rules, action))  # type: ignore[arg-type]
        plays = [a for a in legal if isinstance(a, Play)]
        if not plays:
            return next(a for a in legal if isinstance(a, Go))
        scored = [(play_value(view, rules, a.card), a.card.value, a.card.rank, a) for a in plays]
        return max(scored, key=lambda item: item[:3])[3]


def discard_value(view: Observation, rules: Rules, action: Discard) -> float:
    """Show points of the cards kept, plus (or minus) what the laid-away cards make."""
    assert view.hand is not None and view.seat is not None
    kept = tuple(card for card in view.hand if card not in action.cards)
    value = float(score_show(kept, None, rules).total)
    crib_points = score_show(action.cards, None, rules, crib=True).total
    assert view.dealer is not None
    own_crib = team_of(view, view.dealer) == team_of(view, view.seat)
    return value + (crib_points if own_crib else -crib_points)


def play_value(view: Observation, rules: Rules, card: Card) -> float:
    """Points ``card`` pegs now, minus the next player's expected points in reply."""
    assert view.seat is not None and view.hand is not None
    fast = PlayRules(rules)
    pile = view.pile + (card,)
    count = view.count + card.value
    now = fast.points(pile, count)
    if count == 31:
        return float(now)  # the count ends here: nothing to reply to
    sizes = list(view.hand_sizes)
    sizes[view.seat] -= 1
    replier = next_seat(view, view.seat, sizes, view.passed)
    if replier is None or replier == view.seat:
        return float(now)
    unseen = unseen_cards(view)
    if not unseen:
        return float(now)
    room = 31 - count
    reply = sum(fast.points(pile + (x,), count + x.value) for x in unseen if x.value <= room)
    expected = reply / len(unseen)
    sign = 1 if team_of(view, replier) == team_of(view, view.seat) else -1
    return now + sign * expected
