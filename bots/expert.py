"""The ``expert`` computer level: reasons about the cards it cannot see.

This module holds the player, :class:`ExpertPlayer`, which puts together the pieces kept in
their own modules: crib values (:mod:`noddy.bots.crib_values`, read for the presets from
:mod:`noddy.bots.crib_table`), the model of a two-player opponent
(:mod:`noddy.bots.opponent_model`), the two-player search over many deals
(:mod:`noddy.bots.worlds`) and the search of one drawn deal (:mod:`noddy.bots.search`).
The names other code uses are importable from here too.

How it decides
==============

* **Laying away to the crib** (crib presets).  Every legal discard is valued by its
  expected points: the kept hand's show averaged *exactly* over every card that could be
  turned up, plus (own or partner's crib) or minus (an opponent's) the crib's show,
  averaged over turn-ups and the other players' cards drawn at random (see
  :func:`~noddy.bots.crib_values.crib_value`, which values each pattern of cards laid away
  once -- ahead of time, in :mod:`noddy.bots.crib_table`, for the presets -- so it is
  precise and free).  ``show_total`` makes all this a few hundred table look-ups.
* **The play, two players.**  The opponent is modelled as playing like ``greedy`` (the
  most points now less the expected reply), which is what most opponents roughly do.
  Deals of the unseen cards are drawn (:func:`~noddy.bots.search.sample_deal`) and weighted
  by how well they explain the play so far
  (:func:`~noddy.bots.opponent_model.history_weight`: zero if the rules rule the deal out
  -- the opponent said go holding a card that fitted, or had to -- and :data:`MODEL_SLIP`
  for each earlier choice greedy would not have made); under the Noddy presets, where the
  show comes first, a deal must also give the opponent exactly the show points it pegged.
  Then :class:`~noddy.bots.worlds.Worlds` searches the rest of the play over all the deals
  at once: at this seat's turns one card is chosen for every deal it cannot tell apart (no
  "strategy fusion": it never plays as if it could see the other hand), at the opponent's
  the deals split by the card greedy would play in each (or its go).  A leaf is worth the
  difference in points pegged from here on; reaching the target -- in the play, or in the
  show that follows it, in order (the non-dealer first) -- is worth :data:`WIN` (minus
  :data:`WIN` for the opponent).  The card with the best weighted average wins.
  ``opponent="minimax"`` restores the older search below.
* **The play, three or four players** (and if no drawn deal fits).  Determinized search
  ("perfect-information Monte Carlo", :class:`~noddy.bots.search.DealSearch`): in each of
  ``samples`` deals consistent with the hand sizes, the cards played and the current goes,
  alpha-beta over the rest of the play (own side maximising, the others minimising), leaves
  valued as above; long plays are cut off at ``max_depth`` plies.

Bounded by work, not time: the work per decision is fixed by ``samples`` /
``model_samples`` (two players; ``draws`` is the most deals drawn per wanted sample),
``crib_samples`` and ``max_depth``, and the two-player search visits at most ``max_nodes``
of this seat's turns (past that, rare, it gives way to greedy's choice).  Nothing reads a
clock, so a decision is the same on a fast machine, a slow one or a loaded one (a few
milliseconds to tens of them, see ``bench/expert_time.py``).  The player is a plain function
of the observation: the server runs it in a worker thread, off the event loop.

Deterministic given a seed: each decision draws from ``random.Random`` seeded by the
player's seed and the observation itself, so the same seat in the same position always
chooses the same card, whichever decisions came before.
"""

from __future__ import annotations

import random
from typing import Sequence

from noddy.engine import Action, Card, Discard, Observation, Play, Rules, show_total

from .counting import counting_action
from .crib_values import CRIB_SAMPLES, crib_value
from .opponent_model import MODEL_SLIP, REPLIES, greedy_pick, history_weight
from .pegging import PlayRules, team_of, unseen_cards
from .search import WIN, DealSearch, sample_deal, seat_bits
from .worlds import MAX_NODES, OutOfNodes, World, Worlds

__all__ = ["ExpertPlayer", "WIN", "MAX_NODES", "MODEL_SLIP", "crib_value", "greedy_pick",
           "history_weight"]


class ExpertPlayer:
    """Expected-value discards and determinized search of the play; see the module doc."""

    level = "expert"

    def __init__(self, seed: int | None = None, *, samples: int = 24,
                 crib_samples: int = CRIB_SAMPLES, max_depth: int = 9,
                 max_nodes: int = MAX_NODES, opponent: str = "greedy",
                 model_samples: int = 48, draws: int = 8) -> None:
        self._seed = seed if seed is not None else random.SystemRandom().randrange(2**63)
        self.opponent = opponent
        self.model_samples = model_samples
        self.draws = draws
        self.samples = samples
        self.crib_samples = crib_samples
        self.max_depth = max_depth
        self.max_nodes = max_nodes

    # -- the Player protocol ------------------------------------------------------------
    def choose(self, view: Observation, rules: Rules) -> Action:
        counted = counting_action(view, rules)  # counting by hand: exactly
        if counted is not None:
            return counted
        legal = view.legal_actions
        if len(legal) == 1:
            return legal[0]  # a go is always alone: it is legal only when no card is
        values: dict[Discard, float] | dict[Play, float]
        if isinstance(legal[0], Discard):
            values = self.discard_values(view, rules)
        else:
            values = self.play_values(view, rules, [a for a in legal if isinstance(a, Play)])
        return max(values, key=values.__getitem__)

    # -- laying away -------------------------------------------------------------------
    def discard_values(self, view: Observation, rules: Rules) -> dict[Discard, float]:
        """Each legal discard's expected hand-plus-crib points (crib negative if not ours)."""
        assert view.hand is not None and view.seat is not None and view.dealer is not None
        options = [a for a in view.legal_actions if isinstance(a, Discard)]
        unseen = unseen_cards(view)
        own_crib = team_of(view, view.dealer) == team_of(view, view.seat)
        sign = 1.0 if own_crib else -1.0
        values: dict[Discard, float] = {}
        for option in options:
            laid = option.cards
            kept = tuple(card for card in view.hand if card not in laid)
            hand_ev = sum(show_total(kept, t, rules) for t in unseen) / len(unseen)
            values[option] = hand_ev + sign * crib_value(laid, rules, view.players,
                                                         self.crib_samples)
        return values

    # -- the play ----------------------------------------------------------------------
    def play_values(self, view: Observation, rules: Rules,
                    plays: Sequence[Play]) -> dict[Play, float]:
        """Each distinct play's average value over the sampled deals (see the module doc)."""
        assert view.seat is not None and view.hand is not None and view.dealer is not None
        rng = random.Random(f"{self._seed}|{_position_key(view)}")
        fast = PlayRules(rules)
        # Cards of one rank play alike unless the play scores flushes.
        distinct: list[Play] = []
        seen_keys: set[object] = set()
        for play in sorted(plays, key=lambda p: (-p.card.value, -p.card.rank, p.card.suit)):
            key = (play.card.rank, play.card.suit) if fast.flush else play.card.rank
            if key not in seen_keys:
                seen_keys.add(key)
                distinct.append(play)
        if len(distinct) == 1:
            return {distinct[0]: 0.0}
        laid = view.laid_away or ()  # our own discards are in no other hand
        unseen = unseen_cards(view, laid)
        if view.players == 2 and self.opponent == "greedy":
            values = self._model_values(view, rules, fast, distinct, unseen, laid, rng)
            if values is not None:
                return values
        search = DealSearch(view, rules, fast, self.max_depth)
        totals = [0.0] * len(distinct)
        for _ in range(self.samples):
            hands, crib = sample_deal(view, unseen, laid, fast, rng)
            search.set_deal(hands, crib)
            for i, play in enumerate(distinct):
                totals[i] += search.root(play.card)
        return {play: totals[i] / self.samples for i, play in enumerate(distinct)}

    def _model_values(self, view: Observation, rules: Rules, fast: PlayRules,
                      distinct: list[Play], unseen: list[Card], laid: tuple[Card, ...],
                      rng: random.Random) -> dict[Play, float] | None:
        """Two players: sampled deals weighted by how well they explain what the opponent
        did, searched together by :class:`~noddy.bots.worlds.Worlds` (see the module doc)."""
        assert view.seat is not None and view.hand is not None and view.turn_up is not None
        opp = 1 - view.seat
        opp_played = tuple(c for s, c in view.played if s == opp)
        shown = None  # the opponent's show, when it came before the play
        if not fast.show_after_play:
            shown = next((p for s, p in view.shows if s == opp), None)
        replies = REPLIES.memo(fast.scoring)
        worlds: list[World] = []
        weight_sum = 0.0
        for _ in range(self.model_samples * self.draws):
            hands, crib = sample_deal(view, unseen, laid, fast, rng)
            opp_hand = hands[opp]
            weight = history_weight(view, fast, opp_hand, replies)
            if not weight:
                continue
            their_show = crib_show = 0
            if shown is not None:
                if show_total(opp_hand + opp_played, view.turn_up, rules) != shown:
                    continue
            elif fast.show_after_play:
                their_show = show_total(opp_hand + opp_played, view.turn_up, rules)
                if fast.has_crib and crib and len(crib) == view.crib_size:
                    crib_show = show_total(crib, view.turn_up, rules, crib=True)
            worlds.append((opp_hand, weight, their_show, crib_show))
            weight_sum += weight
            if weight_sum >= self.model_samples - 1e-9:
                break
        if not worlds:
            return None
        search = Worlds(view, rules, fast)
        search.replies = replies
        search.budget = self.max_nodes
        passed = seat_bits(view.passed)
        hand = tuple(view.hand)
        try:
            return {play: search.root(worlds, hand, view.pile, view.count, passed, play.card)
                    / weight_sum for play in distinct}
        except OutOfNodes:
            # A position too big for the node budget: fall back on greedy's own choice.
            blocked = set(view.hand) | search.dead
            replier = 1 if view.hand_sizes[opp] and opp not in view.passed else 0
            card, _ = greedy_pick(fast, hand, view.pile, view.count, blocked, 52 - len(blocked),
                                  replier, -1, replies)
            return {play: float(play.card.rank == card.rank) for play in distinct}


def _position_key(view: Observation) -> str:
    """A stable text naming the decision, for seeding that decision's random draws."""
    hand = " ".join(str(c) for c in view.hand or ())
    played = " ".join(f"{s}{c}" for s, c in view.played)
    return (f"{view.preset}|{view.deal}|{view.dealer}|{view.seat}|{hand}|{view.turn_up}|"
            f"{played}|{view.count}|{view.passed}|{view.scores}")
