"""Paired statistics over duplicate deals, and a sequential test that stops a match early.

A match deals games in pairs: games ``2k`` and ``2k + 1`` have the same cards with the seats
swapped (:mod:`noddy.bots.pairing`).  Most of the luck of a deal is shared by the two games of
its pair, so the difference between the players *within* a pair varies much less than one
game's result does, and an interval over pairs is narrower than a binomial one over games.

**A pair's result** (:class:`PairResult`): A's *score* over the pair -- its wins divided by
two, so 0 (lost both), 0.5 (one each) or 1 (won both) -- and, when both games were played
out, A's *margin* over the pair (A's best score minus B's, summed over the two games).

**The interval** (:func:`mean_interval`) is the normal approximation: the mean of the pairs'
values plus or minus 1.96 standard errors (sample standard deviation over the square root of
the number of pairs).

**The sequential test** (:class:`Sprt`) is Wald's sequential probability ratio test on the
pairs' scores, in the normal ("generalised", GSPRT) form chess-engine testers use: under
hypothesis H0 A's expected pair score is ``s0``, under H1 it is ``s1``; with the scores'
variance ``v`` estimated from the pairs so far, the log likelihood ratio of n pairs summing
to ``S`` is::

    LLR = (s1 - s0) * (2 S - n (s0 + s1)) / (2 v)

(the log ratio of two normal densities of equal variance, summed).  Wald's bounds: accept
H1 once ``LLR >= log((1 - beta) / alpha)``, accept H0 once ``LLR <= log(beta / (1 - alpha))``;
``alpha`` is the chance of accepting H1 when H0 holds, ``beta`` of accepting H0 when H1
does.  A bound on the Elo scale becomes a score by ``1 / (1 + 10 ** (-elo / 400))``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Iterable, Sequence

from .results import GameResult

#: 1.96: the two-sided 95% point of the normal distribution.
Z95 = 1.96
#: Pairs counted before the test may decide: with fewer, the variance estimate is too rough
#: for the normal form of the LLR (a run of three clean sweeps is not yet evidence of much).
SPRT_MIN_PAIRS = 10
#: The variance of the pair scores is estimated as if three more pairs had been seen, one
#: of each outcome (0, 0.5, 1): a match whose pairs so far all ended alike would otherwise
#: have variance 0 and an infinite LLR.  It fades as pairs accumulate.
PRIOR_SCORES = (0.0, 0.5, 1.0)


@dataclass(frozen=True)
class PairResult:
    """A's result over one duplicate pair: ``first`` is the even game's index."""

    first: int
    score: float
    margin: int | None


def pair_results(results: Iterable[GameResult]) -> tuple[list[PairResult], list[int]]:
    """The pairs whose two games were both played, in order, and the indices of the games
    whose partner is missing (a match of an odd number of games, or one stopped early).

    >>> from noddy.bots.results import GameResult
    >>> games = [GameResult(i, 0, ("A", "B"), ("a", "b"), None, w, m)
    ...          for i, w, m in [(0, "A", 5), (1, "A", 3), (2, "B", -4)]]
    >>> pair_results(games)
    ([PairResult(first=0, score=1.0, margin=8)], [2])
    """
    by_index = {result.index: result for result in results}
    pairs: list[PairResult] = []
    unpaired: list[int] = []
    for index in sorted(by_index):
        partner = index ^ 1
        if partner not in by_index:
            unpaired.append(index)
        elif index % 2 == 0:
            games = (by_index[index], by_index[partner])
            score = sum(game.winner_label == "A" for game in games) / 2
            played = all(game.forfeit is None for game in games)
            margin = sum(game.margin for game in games) if played else None
            pairs.append(PairResult(index, score, margin))
    return pairs, unpaired


def mean_interval(values: Sequence[float], z: float = Z95) -> tuple[float, float, float]:
    """The mean of ``values`` and its normal-approximation interval (``z`` standard errors
    either side); with fewer than two values the interval is the value itself.

    >>> [round(x, 3) for x in mean_interval([1.0, 0.5, 1.0, 0.5])]
    [0.75, 0.467, 1.033]
    """
    if not values:
        return (0.0, 0.0, 0.0)
    mean = math.fsum(values) / len(values)
    if len(values) < 2:
        return (mean, mean, mean)
    variance = math.fsum((v - mean) ** 2 for v in values) / (len(values) - 1)
    half = z * math.sqrt(variance / len(values))
    return (mean, mean - half, mean + half)


def elo_score(elo: float) -> float:
    """The expected score of a player ``elo`` points stronger: 200 points is about 0.76.

    >>> round(elo_score(0), 3), round(elo_score(200), 3)
    (0.5, 0.76)
    """
    return 1 / (1 + 10 ** (-elo / 400))


@dataclass(frozen=True)
class Sprt:
    """Wald's sequential test of "A's expected pair score is ``s0``" against "it is ``s1``".

    >>> test = Sprt(0.5, 0.6)
    >>> [round(bound, 3) for bound in test.bounds]
    [-2.944, 2.944]
    >>> round(test.llr([1.0] * 12 + [0.5] * 4), 2)  # 16 pairs: A swept 12, split 4
    6.15
    >>> test.decide([1.0] * 12 + [0.5] * 4)
    'H1'
    >>> test.decide([0.5] * 9 + [1.0])  # too few pairs yet
    """

    s0: float
    s1: float
    alpha: float = 0.05
    beta: float = 0.05

    def __post_init__(self) -> None:
        if not 0 < self.s0 < 1 or not 0 < self.s1 < 1 or self.s0 >= self.s1:
            raise ValueError(f"the SPRT needs 0 < p0 < p1 < 1, not p0={self.s0!r}, p1={self.s1!r}")
        if not 0 < self.alpha < 0.5 or not 0 < self.beta < 0.5:
            raise ValueError(f"alpha and beta must be between 0 and 0.5, not {self.alpha!r}, "
                             f"{self.beta!r}")

    @property
    def bounds(self) -> tuple[float, float]:
        """The LLR below which H0 is accepted, and above which H1 is."""
        return (math.log(self.beta / (1 - self.alpha)), math.log((1 - self.beta) / self.alpha))

    def llr(self, scores: Sequence[float]) -> float:
        """The log likelihood ratio of H1 to H0 given the pair scores so far."""
        if not scores:
            return 0.0
        padded = [*scores, *PRIOR_SCORES]
        mean = math.fsum(padded) / len(padded)
        variance = math.fsum((s - mean) ** 2 for s in padded) / len(padded)
        total = math.fsum(scores)
        return (self.s1 - self.s0) * (2 * total - len(scores) * (self.s0 + self.s1)) / (2 * variance)

    def decide(self, scores: Sequence[float]) -> str | None:
        """"H1" (A is at least ``s1`` strong), "H0" (at most ``s0``), or None: play on."""
        if len(scores) < SPRT_MIN_PAIRS:
            return None
        value = self.llr(scores)
        lower, upper = self.bounds
        if value >= upper:
            return "H1"
        if value <= lower:
            return "H0"
        return None

    def describe(self) -> str:
        return (f"H0: A's score {self.s0:.3f}, H1: {self.s1:.3f} "
                f"(alpha {self.alpha:g}, beta {self.beta:g})")


def parse_sprt(text: str, alpha: float = 0.05, beta: float = 0.05) -> Sprt:
    """``p0=0.5,p1=0.55`` (win rates) or ``elo0=0,elo1=30`` (Elo) -> a :class:`Sprt`.

    >>> parse_sprt("elo0=0,elo1=35").s1 > 0.55
    True
    """
    fields: dict[str, float] = {}
    for part in text.split(","):
        key, sep, value = part.partition("=")
        try:
            fields[key.strip()] = float(value)
        except ValueError:
            raise ValueError(f"cannot read {part!r}; write p0=0.5,p1=0.55 or elo0=0,elo1=30") from None
        if not sep:
            raise ValueError(f"cannot read {part!r}; write p0=0.5,p1=0.55 or elo0=0,elo1=30")
    if set(fields) == {"p0", "p1"}:
        return Sprt(fields["p0"], fields["p1"], alpha, beta)
    if set(fields) == {"elo0", "elo1"}:
        return Sprt(elo_score(fields["elo0"]), elo_score(fields["elo1"]), alpha, beta)
    raise ValueError(f"cannot read {text!r}; write p0=0.5,p1=0.55 or elo0=0,elo1=30")


def paired_lines(results: Iterable[GameResult]) -> list[str]:
    """What noddy-match prints about the duplicate pairs of ``results``."""
    pairs, unpaired = pair_results(results)
    if not pairs:
        return ["paired: no duplicate pair was played whole"]
    scores = [pair.score for pair in pairs]
    swept = {s: scores.count(s) for s in (1.0, 0.5, 0.0)}
    mean, low, high = mean_interval(scores)
    out = [f"paired over {len(pairs)} duplicate pairs (games 2k and 2k+1, same cards, seats "
           f"swapped): A won both {swept[1.0]}, split {swept[0.5]}, lost both {swept[0.0]}",
           f"A's score per pair {mean:.1%} (95% CI {low:.1%} to {high:.1%})"]
    margins = [float(pair.margin) for pair in pairs if pair.margin is not None]
    if margins:
        mean, low, high = mean_interval(margins)
        out.append(f"A's margin per pair (A minus B over both seatings): {mean:+.2f} points "
                   f"(95% CI {low:+.2f} to {high:+.2f}) over {len(margins)} pairs played out")
    if unpaired:
        out.append(f"unpaired (partner game not played): game{'s' * (len(unpaired) > 1)} "
                   + ", ".join(map(str, unpaired)))
    return out
