"""The coach: every choice a seat has, ranked by expected points, from what that seat sees.

This module owns the evaluation behind the ``hint`` request and the after-deal review
(issue 14); the server and clients only carry its answers.  It reads an
:class:`~noddy.engine.Observation`, never the :class:`~noddy.engine.Game`, so a hint cannot
reveal a hidden card, and it agrees with the ``expert`` computer player where they overlap.

How a choice is valued
======================

* **Laying away** (:func:`rank_discards`, crib presets).  ``hand`` is the kept cards' show
  averaged *exactly* over every card the seat cannot see as the turn-up (46 for a six-card
  hand; in three-handed Cribbage the pack's card to the crib is among them, since the seat
  cannot see it).  :class:`~noddy.bots.show_batch.ShowTable` computes the 46 shows at once,
  identical to calling ``score_show`` for each.  ``crib`` is the expert's own estimate of a
  crib holding the laid cards (:func:`noddy.bots.crib_values.crib_value`, read from the
  precomputed table for the presets), added when the crib is the seat's side's (its own, or
  its partner's in partnerships) and subtracted when an opponent's.  ``total`` is the sum.
* **The play** (:func:`rank_plays`).  ``now`` is what the card pegs at once
  (``play_items`` on the pile with the card on top).  The last-card ("go") point is left
  out even when it looks certain: whether it comes depends on cards the seat cannot see.
  ``answer`` is the expected best single reply of the *next seat to play*: the next seat
  clockwise that holds cards and has not said go in this count.  Its hand is taken to be a
  uniform draw of its hand size from the cards the seat cannot see (its own hand, the
  turn-up, every card played and the cards it laid away to the crib are seen; nothing else
  -- neither earlier goes nor a Noddy show's points -- narrows the draw).  The reply is
  worth the most that seat could peg with one legal card on top (0 if it holds none that
  fits), computed exactly in hypergeometric form: with the unseen cards graded by the
  points they would peg, ``P(best >= v) = 1 - C(N - m_v, h) / C(N, h)`` where ``m_v``
  counts the cards that peg ``v`` or more.  ``answer`` is 0 when the card makes 31 (the
  count ends), when nobody else can play, when the next to play is the seat itself, and
  when it is the seat's partner (partners do not answer against each other).  A go is
  valued the same way, with the reply made on the current pile.  ``total = now - answer``.
* **Ties** break deterministically, so a hint never flickers: plays by the points made now,
  then by card (lowest first); discards by hand points, then by the laid cards' order.

:func:`review` replays a game and lists the decisions of one seat that fell short of the
coach's best by at least a margin.
"""

from __future__ import annotations

from dataclasses import dataclass
from math import comb
from typing import Sequence

from noddy.engine import Action, Card, Discard, Game, Go, Observation, Play, Rules
from noddy.engine.scoring import play_items

from .crib_values import crib_value
from .expert import ExpertPlayer
from .pegging import team_of, unseen_cards
from .show_batch import ShowTable

__all__ = ["DiscardAdvice", "PlayAdvice", "ReviewNote", "advise", "expected_best_reply",
           "rank_discards", "rank_plays", "review", "CRIB_SAMPLES"]

#: The draws behind the expert's crib values (the precomputed table is keyed by it): the
#: coach asks for the very same estimate, so the two never disagree about a crib.
CRIB_SAMPLES: int = ExpertPlayer(seed=0).crib_samples


def _points(value: float) -> float:
    """A figure for JSON: two decimals, and never ``-0.0``."""
    return round(value, 2) + 0.0


@dataclass(frozen=True)
class DiscardAdvice:
    """One way to lay away, with its expected points (see the module docstring)."""

    laid: tuple[Card, ...]
    kept: tuple[Card, ...]
    hand: float
    crib: float
    total: float

    def to_dict(self) -> dict:
        """``{"laid": ["5H", ...], "kept": [...], "hand": 8.7, "crib": -4.52, "total": 4.18}``"""
        return {"laid": [str(c) for c in self.laid], "kept": [str(c) for c in self.kept],
                "hand": _points(self.hand), "crib": _points(self.crib),
                "total": _points(self.total)}


@dataclass(frozen=True)
class PlayAdvice:
    """One card to play (``card`` None: say go), with its points now and the expected reply."""

    card: Card | None
    now: int
    answer: float
    total: float

    def to_dict(self) -> dict:
        """``{"card": "5H", "now": 2, "answer": 1.23, "total": 0.77}`` (``"card": null``: go)."""
        return {"card": None if self.card is None else str(self.card), "now": self.now,
                "answer": _points(self.answer), "total": _points(self.total)}


@dataclass(frozen=True)
class ReviewNote:
    """A decision of the reviewed seat worse than the coach's best by ``difference``."""

    deal: int
    decision: str
    chosen: DiscardAdvice | PlayAdvice
    best: DiscardAdvice | PlayAdvice
    difference: float

    def to_dict(self) -> dict:
        return {"deal": self.deal, "decision": self.decision, "chosen": self.chosen.to_dict(),
                "best": self.best.to_dict(), "difference": _points(self.difference)}


# -- laying away -----------------------------------------------------------------------------


def _check_view(view: Observation, phase: str) -> tuple[int, tuple[Card, ...]]:
    if view.phase != phase:
        raise ValueError(f"the coach ranks {phase} choices, but the phase is {view.phase!r}")
    if view.seat is None or view.hand is None:
        raise ValueError("the coach advises a seat, not a spectator")
    if not view.legal_actions:
        raise ValueError(f"seat {view.seat} has no {phase} decision to make now")
    return view.seat, view.hand


def rank_discards(view: Observation, rules: Rules) -> list[DiscardAdvice]:
    """Every legal discard of ``view``'s seat, best ``total`` first (see the module doc).

    Raises :class:`ValueError` unless the seat has a discard to make."""
    seat, hand = _check_view(view, "discard")
    assert view.dealer is not None
    turn_ups = unseen_cards(view, view.laid_away or ())
    sign = 1.0 if team_of(view, view.dealer) == team_of(view, seat) else -1.0
    advice = []
    for action in view.legal_actions:
        if not isinstance(action, Discard):
            continue
        laid = action.cards
        kept = tuple(sorted(card for card in hand if card not in laid))
        hand_points = ShowTable(kept, rules).sum_over(turn_ups) / len(turn_ups)
        crib_points = sign * crib_value(laid, rules, view.players, CRIB_SAMPLES)
        advice.append(DiscardAdvice(laid, kept, hand_points, crib_points,
                                    hand_points + crib_points))
    advice.sort(key=lambda a: (-round(a.total, 9), -round(a.hand, 9),
                               [(c.rank, c.suit) for c in a.laid]))
    return advice


# -- the play --------------------------------------------------------------------------------


def _next_to_play(view: Observation, seat: int, hand_sizes: Sequence[int]) -> int | None:
    """The seat the turn passes to after ``seat`` (holds cards, has not said go), as the
    engine hands it on; ``passed`` is ``view.passed`` plus ``seat`` if it says go."""
    passed = set(view.passed)
    for step in range(1, view.players + 1):
        other = (seat + step) % view.players
        if hand_sizes[other] and other not in passed:
            return other
    return None


def expected_best_reply(pile: tuple[Card, ...], count: int, unseen: Sequence[Card],
                        hand_size: int, rules: Rules) -> float:
    """The expected most points one card can peg on ``pile`` (count ``count``), for a hand
    of ``hand_size`` cards drawn uniformly from ``unseen``; exact (hypergeometric)."""
    total_cards = len(unseen)
    if hand_size <= 0 or total_cards == 0:
        return 0.0
    hand_size = min(hand_size, total_cards)
    room = 31 - count
    grades: dict[int, int] = {}  # points -> cards pegging exactly that
    for card in unseen:
        if card.value <= room:
            points = sum(item.points for item in play_items(pile + (card,), count + card.value,
                                                             rules))
            if points > 0:
                grades[points] = grades.get(points, 0) + 1
    if not grades:
        return 0.0
    all_hands = comb(total_cards, hand_size)
    expected = 0.0
    at_least = 0  # cards pegging at least the current grade
    levels = sorted(grades, reverse=True)
    # E[best] = sum over v >= 1 of P(best >= v); P is constant between grades.
    for i, points in enumerate(levels):
        at_least += grades[points]
        lower = levels[i + 1] if i + 1 < len(levels) else 0
        probability = 1.0 - comb(total_cards - at_least, hand_size) / all_hands
        expected += (points - lower) * probability
    return expected


def rank_plays(view: Observation, rules: Rules) -> list[PlayAdvice]:
    """Every legal card of ``view``'s seat (or its go, when no card fits), best first.

    Raises :class:`ValueError` unless the seat has a play to make."""
    seat, _ = _check_view(view, "play")
    unseen = unseen_cards(view, view.laid_away or ())
    advice = []
    for action in view.legal_actions:
        if isinstance(action, Play):
            card: Card | None = action.card
            pile = view.pile + (action.card,)
            count = view.count + action.card.value
            now = sum(item.points for item in play_items(pile, count, rules))
            sizes = list(view.hand_sizes)
            sizes[seat] -= 1
        elif isinstance(action, Go):
            card, pile, count, now, sizes = None, view.pile, view.count, 0, list(view.hand_sizes)
            sizes[seat] = 0  # a seat that has said go is passed over for the rest of the count
        else:
            continue
        answer = 0.0
        if count != 31:
            replier = _next_to_play(view, seat, sizes)
            if replier is not None and team_of(view, replier) != team_of(view, seat):
                answer = expected_best_reply(pile, count, unseen, view.hand_sizes[replier], rules)
        advice.append(PlayAdvice(card, now, answer, now - answer))
    advice.sort(key=lambda a: (-round(a.total, 9), -a.now,
                               (0, 0, "") if a.card is None else (1, a.card.rank, a.card.suit)))
    return advice


def advise(view: Observation, rules: Rules) -> list[DiscardAdvice] | list[PlayAdvice]:
    """:func:`rank_discards` or :func:`rank_plays`, by ``view.phase``; :class:`ValueError`
    in any other phase (nothing to advise) or when the seat has no decision to make."""
    if view.phase == "discard":
        return rank_discards(view, rules)
    if view.phase == "play":
        return rank_plays(view, rules)
    raise ValueError(f"the coach advises discards and plays, not the phase {view.phase!r}")


# -- the review ------------------------------------------------------------------------------


def _matching(advice: Sequence[DiscardAdvice] | Sequence[PlayAdvice],
              action: Action) -> DiscardAdvice | PlayAdvice:
    for entry in advice:
        if isinstance(entry, DiscardAdvice):
            if isinstance(action, Discard) and entry.laid == action.cards:
                return entry
        elif (isinstance(action, Go) and entry.card is None) or (
                isinstance(action, Play) and entry.card == action.card):
            return entry
    raise ValueError(f"{action} is not among the choices the coach ranked")


def review(game: Game, actions: Sequence[Action], seat: int, *, deal: int | None = None,
           margin: float = 1.0) -> list[ReviewNote]:
    """Replay ``actions`` from ``game`` (a game at its start; it is copied, not changed) and
    note every discard or play of ``seat`` whose total fell short of the coach's best by at
    least ``margin``, judged from what the seat could see then.  ``deal`` limits the review
    to that deal (None: every deal).  Any other kind of action is applied, not reviewed."""
    replay = game.copy()
    notes: list[ReviewNote] = []
    for action in actions:
        if (action.seat == seat and isinstance(action, (Discard, Play, Go))
                and (deal is None or replay.deal == deal)):
            view = replay.observation(seat)
            expected = "discard" if isinstance(action, Discard) else "play"
            if view.phase == expected and len(view.legal_actions) > 1:
                advice = advise(view, replay.rules)
                chosen = _matching(advice, action)
                best = advice[0]
                difference = best.total - chosen.total
                if difference >= margin:
                    notes.append(ReviewNote(view.deal, expected, chosen, best, difference))
        replay.apply(action)
    return notes
