"""The ``expert`` computer level: reasons about the cards it cannot see.

How it decides
==============

* **Laying away to the crib** (crib presets).  Every legal discard is valued by its
  expected points: the kept hand's show averaged *exactly* over every card that could be
  turned up, plus (own or partner's crib) or minus (an opponent's) the crib's show,
  averaged over turn-ups and the other players' cards drawn at random (see
  :func:`crib_value`, which caches it by the pattern of cards laid away, so it is precise
  and, after the first deals, free).  ``show_total`` makes all this a few hundred table
  look-ups.
* **The play.**  Determinized search ("perfect-information Monte Carlo"): draw
  ``samples`` deals of the unseen cards to the other hands (and to the crib) that agree
  with everything this seat has seen -- hand sizes, the cards played, and that a seat which
  said go holds nothing that fits under 31 -- then, in each, search the rest of the play
  with alpha-beta (its own side maximising, the others minimising).  A leaf is worth the
  difference in points pegged from here on; reaching the target -- in the play, or in the
  show that follows it under the Cribbage presets, counted in the proper order -- is worth
  :data:`WIN` (minus :data:`WIN` for an opponent).  The card with the best average wins.
  Long plays (Cribbage for three or four) are cut off at ``max_depth`` plies.

Bounded time: the work per decision is fixed by ``samples``, ``crib_samples`` and
``max_depth`` (tens of milliseconds, see ``bench/bots.py``), and a safety deadline
(``time_limit``) stops adding samples if a slow machine would take longer.  The player is
a plain function of the observation: the server runs it in a worker thread, off the event
loop.

Deterministic given a seed: each decision draws from ``random.Random`` seeded by the
player's seed and the observation itself, so the same seat in the same position always
chooses the same card, whichever decisions came before.
"""

from __future__ import annotations

import random
import time
from typing import Sequence

from noddy.engine import FULL_DECK, Action, Card, Discard, Go, Observation, Play, Rules, show_total

from .pegging import PlayRules, team_of, unseen_cards

#: What reaching the target is worth, against a few points of pegging either way.
WIN = 100.0
_INF = float("inf")


class ExpertPlayer:
    """Expected-value discards and determinized search of the play; see the module doc."""

    level = "expert"

    def __init__(self, seed: int | None = None, *, samples: int = 24, crib_samples: int = 3000,
                 max_depth: int = 9, time_limit: float = 0.5) -> None:
        self._seed = seed if seed is not None else random.SystemRandom().randrange(2**63)
        self.samples = samples
        self.crib_samples = crib_samples
        self.max_depth = max_depth
        self.time_limit = time_limit

    # -- the Player protocol ------------------------------------------------------------
    def choose(self, view: Observation, rules: Rules) -> Action:
        legal = view.legal_actions
        if len(legal) == 1:
            return legal[0]
        rng = random.Random(f"{self._seed}|{_position_key(view)}")
        if isinstance(legal[0], Discard):
            return self._discard(view, rules, rng)
        plays = [a for a in legal if isinstance(a, Play)]
        if not plays:
            return next(a for a in legal if isinstance(a, Go))
        return self._play(view, rules, plays, rng)

    # -- laying away -------------------------------------------------------------------
    def discard_values(self, view: Observation, rules: Rules,
                       rng: random.Random | None = None) -> dict[Discard, float]:
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

    def _discard(self, view: Observation, rules: Rules, rng: random.Random) -> Discard:
        values = self.discard_values(view, rules, rng)
        return max(values, key=lambda option: values[option])

    # -- the play ----------------------------------------------------------------------
    def play_values(self, view: Observation, rules: Rules, plays: Sequence[Play],
                    rng: random.Random | None = None) -> dict[Play, float]:
        """Each distinct play's average value over the sampled deals (see the module doc)."""
        assert view.seat is not None and view.hand is not None and view.dealer is not None
        if rng is None:
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
        search = _Search(view, rules, fast, self.max_depth)
        totals = [0.0] * len(distinct)
        started = time.perf_counter()
        done = 0
        for _ in range(self.samples):
            hands, crib = _sample_deal(view, unseen, laid, fast, rng)
            search.set_deal(hands, crib)
            for i, play in enumerate(distinct):
                totals[i] += search.root(play.card)
            done += 1
            if time.perf_counter() - started > self.time_limit:
                break
        return {play: totals[i] / done for i, play in enumerate(distinct)}

    def _play(self, view: Observation, rules: Rules, plays: list[Play], rng: random.Random) -> Play:
        values = self.play_values(view, rules, plays, rng)
        return max(values, key=lambda play: values[play])


_CRIB_VALUES: dict[tuple[object, ...], float] = {}


def crib_value(laid: tuple[Card, ...], rules: Rules, players: int, samples: int) -> float:
    """The average show of a crib holding ``laid``, the rest of it and the turn-up drawn at
    random from the other cards.

    It depends on the laid-away ranks, whether they share a suit and which Jack could be
    "his nob", not on the rest of the hand, so it is estimated once per pattern (with a
    fixed seed, ``samples`` draws) and cached for the life of the process: precise,
    deterministic, and nearly free after the first few deals.
    """
    suited = len({card.suit for card in laid}) == 1
    key = (rules, players, tuple(sorted(card.rank for card in laid)), suited, samples)
    value = _CRIB_VALUES.get(key)
    if value is None:
        others = rules.discards(players) * players + rules.pack_to_crib(players) - len(laid)
        rest = [card for card in FULL_DECK if card not in laid]
        rng = random.Random(f"crib|{rules.name}|{key[1:]}")
        total = 0
        for _ in range(samples):
            draw = rng.sample(rest, others + 1)
            total += show_total(laid + tuple(draw[:others]), draw[others], rules, crib=True)
        value = total / samples
        _CRIB_VALUES[key] = value
    return value


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
    pool = list(unseen)
    rng.shuffle(pool)
    hands: list[tuple[Card, ...]] = [()] * view.players
    hands[view.seat] = tuple(view.hand)
    room = 31 - view.count
    for seat in view.passed:
        if seat == view.seat:
            continue
        size = view.hand_sizes[seat]
        big = [card for card in pool if card.value > room]
        chosen = big[:size] if len(big) >= size else pool[:size]
        for card in chosen:
            pool.remove(card)
        hands[seat] = tuple(chosen)
    for seat in range(view.players):
        if seat == view.seat or seat in view.passed:
            continue
        size = view.hand_sizes[seat]
        hands[seat] = tuple(pool[:size])
        del pool[:size]
    crib: tuple[Card, ...] = ()
    if fast.has_crib and fast.show_after_play:
        missing = max(0, view.crib_size - len(laid))
        crib = tuple(laid) + tuple(pool[:missing])
    return hands, crib


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
        view = self.view
        gains = (0,) * self.team_count
        passed = 0
        for seat in view.passed:
            passed |= 1 << seat
        return self._after_play(self.hands, view.pile, view.count, passed, self.me, card,
                                gains, 0, -_INF, _INF)

    def _node(self, hands: list[tuple[Card, ...]], pile: tuple[Card, ...], count: int, passed: int,
              last: int | None, seat: int, gains: tuple[int, ...], depth: int,
              alpha: float, beta: float) -> float:
        hand = hands[seat]
        room = 31 - count
        flush = self.fast.flush
        choices: list[Card] = []
        keys: set[object] = set()
        for card in hand:
            if card.value <= room:
                key = card if flush else card.rank
                if key not in keys:
                    keys.add(key)
                    choices.append(card)
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
