"""The ``expert`` computer level: reasons about the cards it cannot see.

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
  Deals of the unseen cards are drawn (:func:`_sample_deal`) and weighted by how well
  they explain the play so far (:func:`history_weight`: zero if the rules rule the deal
  out -- the opponent said go holding a card that fitted, or had to -- and
  :data:`MODEL_SLIP` for each earlier choice greedy would not have made); under the Noddy
  presets, where the show comes first, a deal must also give the opponent exactly the
  show points it pegged.  Then :class:`_Worlds` searches the rest of the play over all
  the deals at once: at this seat's turns one card is chosen for every deal it cannot
  tell apart (no "strategy fusion": it never plays as if it could see the other hand),
  at the opponent's the deals split by the card greedy would play in each (or its go).
  A leaf is worth the difference in points pegged from here on; reaching the target --
  in the play, or in the show that follows it, in order (the non-dealer first) -- is
  worth :data:`WIN` (minus :data:`WIN` for the opponent).  The card with the best
  weighted average wins.  ``opponent="minimax"`` restores the older search below.
* **The play, three or four players** (and if no drawn deal fits).  Determinized search
  ("perfect-information Monte Carlo"): in each of ``samples`` deals consistent with the
  hand sizes, the cards played and the current goes, alpha-beta over the rest of the
  play (own side maximising, the others minimising), leaves valued as above; long plays
  are cut off at ``max_depth`` plies.

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

from noddy.engine import FULL_DECK, Action, Card, Discard, Observation, Play, Rules, show_total

from .counting import counting_action
from .crib_values import CRIB_SAMPLES, crib_value
from .pegging import PlayRules, team_of, unseen_cards

#: What reaching the target is worth, against a few points of pegging either way.
WIN = 100.0
#: The most turns of this seat the two-player search visits in one decision (a bound by
#: work, not time, so a decision is the same on every machine); past it, greedy's card.
MAX_NODES = 20_000
_INF = float("inf")


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
        search = _Search(view, rules, fast, self.max_depth)
        totals = [0.0] * len(distinct)
        for _ in range(self.samples):
            hands, crib = _sample_deal(view, unseen, laid, fast, rng)
            search.set_deal(hands, crib)
            for i, play in enumerate(distinct):
                totals[i] += search.root(play.card)
        return {play: totals[i] / self.samples for i, play in enumerate(distinct)}

    def _model_values(self, view: Observation, rules: Rules, fast: PlayRules,
                      distinct: list[Play], unseen: list[Card], laid: tuple[Card, ...],
                      rng: random.Random) -> dict[Play, float] | None:
        """Two players: sampled deals weighted by how well they explain what the opponent
        did, searched together by :class:`_Worlds` (see the module doc)."""
        assert view.seat is not None and view.hand is not None and view.turn_up is not None
        opp = 1 - view.seat
        opp_played = tuple(c for s, c in view.played if s == opp)
        shown = None  # the opponent's show, when it came before the play
        if not fast.show_after_play:
            shown = next((p for s, p in view.shows if s == opp), None)
        replies = _REPLIES.setdefault(rules, {})
        worlds: list[_World] = []
        weight_sum = 0.0
        for _ in range(self.model_samples * self.draws):
            hands, crib = _sample_deal(view, unseen, laid, fast, rng)
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
        search = _Worlds(view, rules, fast)
        search.replies = replies
        search.budget = self.max_nodes
        passed = _seat_bits(view.passed)
        hand = tuple(view.hand)
        try:
            return {play: search.root(worlds, hand, view.pile, view.count, passed, play.card)
                    / weight_sum for play in distinct}
        except _OutOfTime:
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


def _sample_deal(view: Observation, unseen: list[Card], laid: tuple[Card, ...], fast: PlayRules,
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


def _choices(hand: Sequence[Card], count: int, flush: bool) -> list[Card]:
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


def _seat_bits(seats: Sequence[int]) -> int:
    """``seats`` as the bit set the searches keep the goes of a count in."""
    bits = 0
    for seat in seats:
        bits |= 1 << seat
    return bits


class _Search:
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
        self.passed = _seat_bits(view.passed)
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
        choices = _choices(hands[seat], count, self.fast.flush)
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


#: How much less likely a sampled deal is for each earlier choice of the opponent that the
#: greedy model would not have made (the model is a guess, not a certainty).
MODEL_SLIP = 0.05

#: A sampled deal for :class:`_Worlds`: the opponent's hand, its weight, and the points the
#: opponent's show and the crib will make after the play (0 when there is none).
_World = tuple[tuple[Card, ...], float, int, int]


_BY_RANK = [[card for card in FULL_DECK if card.rank == rank] for rank in range(14)]


def _reply_key(flush: bool, pile: tuple[Card, ...]) -> tuple[int, ...]:
    """The key of ``pile``'s replies: its cards' indexes, or only its ranks if the play scores
    no flushes (ints: quick to hash, and no work for the garbage collector)."""
    if flush:
        return tuple([card.index for card in pile])
    return tuple([card.rank for card in pile])


def _replies(fast: PlayRules, pile: tuple[Card, ...], count: int) -> list[tuple[Card, int]]:
    """Every card that would peg something played on ``pile``, with its points."""
    found: list[tuple[Card, int]] = []
    room = 31 - count
    points = fast.points_uncached  # the replies are remembered whole, per pile
    if fast.flush:
        # A reply's suit matters only if it is the suit of the pile's last card (a flush
        # runs on from it): one card of each rank in that suit, one standing for the others.
        suit = pile[-1].suit
        for rank in range(1, 14):
            same = _BY_RANK[rank]
            if same[0].value > room:
                continue
            other = same[1] if same[0].suit == suit else same[0]
            gained_other = points(pile + (other,), count + other.value)
            for reply in same:
                if reply.suit == suit:
                    gained = points(pile + (reply,), count + reply.value)
                else:
                    gained = gained_other
                if gained:
                    found.append((reply, gained))
        return found
    for rank in range(1, 14):  # without flushes, the suit of a reply changes nothing
        same = _BY_RANK[rank]
        if same[0].value <= room:
            gained = points(pile + (same[0],), count + same[0].value)
            if gained:
                found.extend((reply, gained) for reply in same)
    return found


#: Per rules, the replies that peg on each pile seen (a pile's replies never change), keyed by
#: the pile's ranks when the play scores no flushes (suits change nothing then).
_REPLIES: dict[Rules, dict[tuple[int, ...], list[tuple[Card, int]]]] = {}


def greedy_pick(fast: PlayRules, hand: Sequence[Card], pile: tuple[Card, ...], count: int,
                blocked: set[Card], unseen: int, replier: int, reply_sign: int,
                replies: dict[tuple[int, ...], list[tuple[Card, int]]]) -> tuple[Card, bool]:
    """The card :mod:`~noddy.bots.greedy` plays from ``hand``, and whether it was a real
    choice (two or more cards with different keys).

    Exactly :func:`~noddy.bots.greedy.play_value`: points now plus ``reply_sign`` times the
    replier's expected points, averaged over the ``unseen`` cards the player cannot see (the
    cards not in ``blocked``); ``replier`` is ``0`` when nobody else would play next.  Ties
    go to the higher card.  ``replies`` caches, per pile, the cards that would peg on it.
    """
    room = 31 - count
    points = fast.points
    best_key: tuple[float, int, int] | None = None
    best = hand[0]
    keys = 0
    for card in hand:
        if card.value > room:
            continue
        keys += 1
        new_pile = pile + (card,)
        new_count = count + card.value
        value: float = points(new_pile, new_count)
        if new_count != 31 and unseen and replier:
            key = _reply_key(fast.flush, new_pile)
            found = replies.get(key)
            if found is None:
                found = _replies(fast, new_pile, new_count)
                if len(replies) > 20_000:
                    replies.clear()
                replies[key] = found
            total = 0
            for reply, gained in found:
                if reply not in blocked:
                    total += gained
            value = value + reply_sign * (total / unseen)
        key = (value, card.value, card.rank)
        if best_key is None or key > best_key:
            best_key = key
            best = card
    return best, keys > 1


class _OutOfTime(Exception):
    """The search of one decision used up its node budget."""


class _Worlds:
    """Expectimax of the rest of a two-player play over a set of sampled deals at once.

    The state everybody sees (pile, count, goes, points pegged, this seat's hand) is shared;
    only the opponent's hand differs between the deals.  At this seat's turn one card is
    chosen for *all* the deals still possible (it cannot know which one is true: no
    "strategy fusion"); at the opponent's turn, in each deal it plays the card greedy would
    play there, and the deals split by the card seen (or the go), each group searched on
    its own -- which is also what this seat learns from the card.  A deal's value is its
    weight times: the points pegged by this seat minus the opponent's, or +/-:data:`WIN`
    if a side reaches the target in the play or in the show that follows it.
    """

    def __init__(self, view: Observation, rules: Rules, fast: PlayRules) -> None:
        assert view.seat is not None and view.dealer is not None and view.hand is not None
        self.fast = fast
        self.me = view.seat
        self.opp = 1 - view.seat
        self.base = view.scores
        self.target = view.target
        self.flush = fast.flush
        self.restarts = fast.restarts
        self.dead = {card for _, card in view.played}
        if view.turn_up is not None:
            self.dead.add(view.turn_up)
        self.replies: dict[tuple[int, ...], list[tuple[Card, int]]] = {}
        # After the play (show-after-play presets): the non-dealer shows first.
        self.me_first = (view.dealer + 1) % 2 == self.me
        self.my_show = 0
        self.has_show = fast.show_after_play and view.turn_up is not None
        if self.has_show:
            kept = tuple(view.hand) + tuple(c for s, c in view.played if s == self.me)
            self.my_show = show_total(kept, view.turn_up, rules)
        self.my_crib = view.dealer == self.me
        self.budget = MAX_NODES  # this seat's turns the search may still visit

    # -- the search ----------------------------------------------------------------------
    def root(self, worlds: list[_World], hand: tuple[Card, ...], pile: tuple[Card, ...],
             count: int, passed: int, card: Card) -> float:
        return self._play(self.me, card, worlds, hand, pile, count, passed, (), (0, 0))

    def _play(self, seat: int, card: Card, worlds: list[_World], hand: tuple[Card, ...],
              pile: tuple[Card, ...], count: int, passed: int, gone: tuple[Card, ...],
              gains: tuple[int, int]) -> float:
        if seat == self.me:
            hand = tuple(c for c in hand if c is not card)
        pile = pile + (card,)
        count += card.value
        gone = gone + (card,)
        points = self.fast.points(pile, count)
        if points:
            if seat == self.me:
                gains = (gains[0] + points, gains[1])
            else:
                gains = (gains[0], gains[1] + points)
            if self.base[seat] + gains[seat != self.me] >= self.target:
                return self._won(seat, worlds)
        if count == 31:
            return self._end_count(seat, False, worlds, hand, pile, count, passed, gone, gains)
        return self._turn(seat, seat, worlds, hand, pile, count, passed, gone, gains)

    def _won(self, seat: int, worlds: list[_World]) -> float:
        weight = sum(w[1] for w in worlds)
        return weight * WIN if seat == self.me else -weight * WIN

    def _turn(self, after: int, last: int | None, worlds: list[_World], hand: tuple[Card, ...],
              pile: tuple[Card, ...], count: int, passed: int, gone: tuple[Card, ...],
              gains: tuple[int, int]) -> float:
        first = 1 - after
        opp_cards = len(worlds[0][0])
        for seat in (first, after):
            if (hand if seat == self.me else opp_cards) and not (passed >> seat) & 1:
                if seat == self.me:
                    return self._my_move(last, worlds, hand, pile, count, passed, gone, gains)
                return self._opp_move(last, worlds, hand, pile, count, passed, gone, gains)
        return self._end_count(last, True, worlds, hand, pile, count, passed, gone, gains)

    def _my_move(self, last: int | None, worlds: list[_World], hand: tuple[Card, ...],
                 pile: tuple[Card, ...], count: int, passed: int, gone: tuple[Card, ...],
                 gains: tuple[int, int]) -> float:
        self.budget -= 1
        if self.budget < 0:
            raise _OutOfTime
        choices = _choices(hand, count, self.flush)
        if not choices:
            return self._turn(self.me, last, worlds, hand, pile, count, passed | (1 << self.me),
                              gone, gains)
        return max(self._play(self.me, card, worlds, hand, pile, count, passed, gone, gains)
                   for card in choices)

    def _opp_move(self, last: int | None, worlds: list[_World], hand: tuple[Card, ...],
                  pile: tuple[Card, ...], count: int, passed: int, gone: tuple[Card, ...],
                  gains: tuple[int, int]) -> float:
        room = 31 - count
        opp = self.opp
        # Greedy's replier after its card: this seat if it can still be asked, else nobody.
        replier = 1 if hand and not (passed >> self.me) & 1 else 0
        seen = self.dead.union(gone)  # what every deal's opponent has seen played
        groups: dict[Card | None, list[_World]] = {}
        # greedy_pick for every deal at once: a card's points now and the replies it gives
        # away (less those the deal's opponent holds) are worked out once per node.
        candidates: dict[Card, tuple[int, int, dict[Card, int] | None]] = {}
        seen_count = len(seen)
        for world in worlds:
            opp_hand = world[0]
            if any(c.value <= room for c in opp_hand):
                if len(opp_hand) == 1:
                    card = opp_hand[0]
                else:
                    card = self._greedy_card(opp_hand, pile, count, seen, replier,
                                             52 - seen_count - len(opp_hand), candidates)
                groups.setdefault(card, []).append(
                    (tuple(c for c in opp_hand if c is not card), world[1], world[2], world[3]))
            else:
                groups.setdefault(None, []).append(world)
        total = 0.0
        for card, group in groups.items():
            if card is None:
                total += self._turn(opp, last, group, hand, pile, count, passed | (1 << opp),
                                    gone, gains)
            else:
                total += self._play(opp, card, group, hand, pile, count, passed, gone, gains)
        return total

    def _greedy_card(self, opp_hand: tuple[Card, ...], pile: tuple[Card, ...], count: int,
                     seen: set[Card], replier: int, unseen: int,
                     candidates: dict[Card, tuple[int, int, dict[Card, int] | None]]) -> Card:
        """Exactly ``greedy_pick(fast, opp_hand, pile, count, seen | opp_hand, unseen,
        replier, -1, replies)[0]`` (``unseen`` is ``52 - len(seen | opp_hand)``), with each
        card's share of the work kept in ``candidates`` for the other deals of the node."""
        room = 31 - count
        best_key: tuple[float, int, int] | None = None
        best = opp_hand[0]
        for card in opp_hand:
            if card.value > room:
                continue
            entry = candidates.get(card)
            if entry is None:
                entry = self._candidate(pile, count, card, seen, replier, unseen)
                candidates[card] = entry
            now, total, by_card = entry
            value: float = now
            if by_card is not None:
                for held in opp_hand:
                    gained = by_card.get(held)
                    if gained:
                        total -= gained
                value = value - total / unseen
            key = (value, card.value, card.rank)
            if best_key is None or key > best_key:
                best_key = key
                best = card
        return best

    def _candidate(self, pile: tuple[Card, ...], count: int, card: Card, seen: set[Card],
                   replier: int, unseen: int) -> tuple[int, int, dict[Card, int] | None]:
        """``card`` played on ``pile``: the points it pegs, and (if a reply is asked for) the
        points of the replies nobody has seen played, in total and by card."""
        new_pile = pile + (card,)
        new_count = count + card.value
        now = self.fast.points(new_pile, new_count)
        if new_count == 31 or not unseen or not replier:
            return now, 0, None
        replies = self.replies
        key = _reply_key(self.flush, new_pile)
        found = replies.get(key)
        if found is None:
            found = _replies(self.fast, new_pile, new_count)
            if len(replies) > 20_000:
                replies.clear()
            replies[key] = found
        by_card = {reply: gained for reply, gained in found if reply not in seen}
        return now, sum(by_card.values()), by_card

    def _end_count(self, last: int | None, last_card: bool, worlds: list[_World],
                   hand: tuple[Card, ...], pile: tuple[Card, ...], count: int, passed: int,
                   gone: tuple[Card, ...], gains: tuple[int, int]) -> float:
        fast = self.fast
        if last_card and last is not None and fast.last_card:
            mine = last == self.me
            point = fast.last_card
            gains = (gains[0] + point, gains[1]) if mine else (gains[0], gains[1] + point)
            if self.base[last] + gains[not mine] >= self.target:
                return self._won(last, worlds)
        if fast.restarts and (hand or worlds[0][0]):
            assert last is not None
            return self._turn(last, last, worlds, hand, (), 0, 0, gone, gains)
        return self._finished(worlds, gains)

    def _finished(self, worlds: list[_World], gains: tuple[int, int]) -> float:
        mine = self.base[self.me] + gains[0]
        theirs = self.base[self.opp] + gains[1]
        diff = gains[0] - gains[1]
        if not self.has_show:
            return diff * sum(w[1] for w in worlds)
        target = self.target
        total = 0.0
        for _, weight, their_show, crib in worlds:
            m = mine
            t = theirs
            if self.me_first:
                m += self.my_show
                if m >= target:
                    total += weight * WIN
                    continue
                t += their_show
                if t >= target:
                    total -= weight * WIN
                    continue
                t += crib
                if t >= target:
                    total -= weight * WIN
                    continue
            else:
                t += their_show
                if t >= target:
                    total -= weight * WIN
                    continue
                m += self.my_show + crib
                if m >= target:
                    total += weight * WIN
                    continue
            total += weight * diff
        return total


def history_weight(view: Observation, fast: PlayRules, opp_hand: tuple[Card, ...],
                   replies: dict[tuple[int, ...], list[tuple[Card, int]]]) -> float:
    """How likely this deal's play so far is if the opponent (two players) holds
    ``opp_hand`` now: 0 if the rules rule it out (it said go holding a card that fitted, or
    played on when it had to say go), else :data:`MODEL_SLIP` to the power of the choices it
    made that greedy would not have made."""
    assert view.seat is not None and view.hand is not None and view.dealer is not None
    me = view.seat
    opp = 1 - me
    hands: list[list[Card]] = [[], []]
    hands[me] = list(view.hand) + [c for s, c in view.played if s == me]
    hands[opp] = list(opp_hand) + [c for s, c in view.played if s == opp]
    turn_up = view.turn_up
    pile: tuple[Card, ...] = ()
    count = 0
    passed = 0
    gone: set[Card] = set()
    weight = 1.0
    to_move: int | None = (view.dealer + 1) % 2
    last: int | None = None

    def advance(after: int) -> int | None:
        nonlocal pile, count, passed
        while True:
            for seat in (1 - after, after):
                if hands[seat] and not (passed >> seat) & 1:
                    return seat
            if not fast.restarts or not (hands[0] or hands[1]) or last is None:
                return None
            pile, count, passed = (), 0, 0
            after = last

    for seat, card in view.played:
        while to_move != seat or card.value > 31 - count:
            if to_move is None:
                return 0.0
            room = 31 - count
            if any(c.value <= room for c in hands[to_move]):
                return 0.0  # it would have had to play
            passed |= 1 << to_move
            to_move = advance(to_move)
        if seat == opp and len(hands[opp]) > 1:
            blocked = gone | set(hands[opp])
            if turn_up is not None:
                blocked.add(turn_up)
            replier = 1 if hands[me] and not (passed >> me) & 1 else 0
            choice, real = greedy_pick(fast, hands[opp], pile, count, blocked, 52 - len(blocked),
                                       replier, -1, replies)
            if real and choice.rank != card.rank:
                weight *= MODEL_SLIP
        hands[seat].remove(card)
        gone.add(card)
        pile = pile + (card,)
        count += card.value
        last = seat
        if count == 31:
            pile, count, passed = (), 0, 0
            if not fast.restarts:
                to_move = None
                continue
            to_move = advance(seat)
            # advance() above found the next seat from a fresh count only if hands remain
        else:
            to_move = advance(seat)
    # Now it is this seat's turn: any seat passed over to reach it must have had to go.
    while to_move is not None and to_move != me:
        room = 31 - count
        if any(c.value <= room for c in hands[to_move]):
            return 0.0
        passed |= 1 << to_move
        to_move = advance(to_move)
    return weight
