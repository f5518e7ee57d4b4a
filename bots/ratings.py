"""Ratings from a tournament's wins and losses, each with its 95 % interval.

The model is **Bradley-Terry** on the Elo scale: player *i* beats player *j* with
probability ``1 / (1 + 10 ** ((r_j - r_i) / 400))``.  The ratings are the ones that make the
games played most likely (maximum likelihood, found by Newton's method), with one addition
that keeps every rating finite and fixes where the scale sits: each player is also counted
as having played **one virtual game against a 1500 player and drawn it** (half a win, half a
loss; the "prior" of BayesElo).  Without it a player who won every game would have no
finite maximum; with it, a player with few games is drawn a little towards the middle.
The ratings are then shifted so that **their mean is 1500**: a rating says how a player
stands against this field, not against players outside it.

The interval is the estimate plus or minus 1.96 standard errors, the errors read from the
curvature of the log-likelihood at its maximum (the inverse of the observed information
matrix), taken for the ratings as shifted to mean 1500 (so the uncertainty of where the
whole field sits, which only the prior decides, is left out): an approximation that is good
with many games and too narrow with very few.

>>> even = bradley_terry(["ann", "ben"], {("ann", "ben"): 5, ("ben", "ann"): 5})
>>> round(even["ann"].rating), round(even["ben"].rating)
(1500, 1500)
>>> uneven = bradley_terry(["ann", "ben"], {("ann", "ben"): 8, ("ben", "ann"): 2})
>>> uneven["ann"].low < uneven["ann"].rating < uneven["ann"].high
True
>>> round(uneven["ann"].rating - 1500) == round(1500 - uneven["ben"].rating) > 0
True
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Mapping, Sequence

#: The mean of a field's ratings, and the points of the Elo scale per natural unit of
#: log-odds.
AVERAGE = 1500.0
ELO = 400.0 / math.log(10.0)
#: Virtual games each player drew against the average player (see the module doc).
PRIOR_GAMES = 1.0
Z95 = 1.959963984540054


@dataclass(frozen=True)
class Rating:
    """A player's rating, its standard error and its 95 % interval, on the Elo scale."""

    rating: float
    error: float

    @property
    def low(self) -> float:
        return self.rating - Z95 * self.error

    @property
    def high(self) -> float:
        return self.rating + Z95 * self.error


def _logistic(x: float) -> float:
    if x >= 0:
        return 1.0 / (1.0 + math.exp(-x))
    e = math.exp(x)
    return e / (1.0 + e)


def _inverse(matrix: list[list[float]]) -> list[list[float]]:
    """The inverse of a small positive definite matrix (Gauss-Jordan with pivoting)."""
    n = len(matrix)
    work = [row[:] + [1.0 if i == j else 0.0 for j in range(n)] for i, row in enumerate(matrix)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(work[r][col]))
        work[col], work[pivot] = work[pivot], work[col]
        scale = work[col][col]
        work[col] = [v / scale for v in work[col]]
        for r in range(n):
            if r != col and work[r][col]:
                factor = work[r][col]
                work[r] = [v - factor * p for v, p in zip(work[r], work[col])]
    return [row[n:] for row in work]


def bradley_terry(names: Sequence[str], wins: Mapping[tuple[str, str], int],
                  iterations: int = 100) -> dict[str, Rating]:
    """Each player's :class:`Rating` from ``wins[(winner, loser)]`` (see the module doc)."""
    index = {name: i for i, name in enumerate(names)}
    n = len(names)
    won = [[0.0] * n for _ in range(n)]
    for (winner, loser), count in wins.items():
        won[index[winner]][index[loser]] += count
    theta = [0.0] * n  # natural log-odds units; the virtual opponent is at 0
    information = [[0.0] * n for _ in range(n)]
    for _ in range(iterations):
        gradient = [0.0] * n
        information = [[0.0] * n for _ in range(n)]
        for i in range(n):
            p = _logistic(theta[i])  # against the prior's average player
            gradient[i] += PRIOR_GAMES * (0.5 - p)
            information[i][i] += PRIOR_GAMES * p * (1 - p)
            for j in range(n):
                games = won[i][j] + won[j][i]
                if i == j or not games:
                    continue
                p = _logistic(theta[i] - theta[j])
                gradient[i] += won[i][j] - games * p
                information[i][i] += games * p * (1 - p)
                information[i][j] -= games * p * (1 - p)
        covariance = _inverse(information)
        # A Newton step, at most 2 log-odds units a player (a long first step from 0 for a
        # player who won every game could overshoot).
        step = [max(-2.0, min(2.0, sum(covariance[i][j] * gradient[j] for j in range(n))))
                for i in range(n)]
        theta = [t + s for t, s in zip(theta, step)]
        if max((abs(s) for s in step), default=0.0) < 1e-10:
            break
    covariance = _inverse(information)
    # Centred: r_i - mean(r).  Its variance is S_ii - 2 mean_j S_ij + mean_jk S_jk.
    mean = sum(theta) / n if n else 0.0
    row_means = [sum(row) / n for row in covariance]
    grand = sum(row_means) / n if n else 0.0
    return {name: Rating(AVERAGE + ELO * (theta[i] - mean),
                         ELO * math.sqrt(max(covariance[i][i] - 2 * row_means[i] + grand, 0.0)))
            for name, i in index.items()}
