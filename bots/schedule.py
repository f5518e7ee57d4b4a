"""Who plays whom in each round of a tournament: a round robin, or Swiss rounds.

**Round robin** (:func:`round_robin`): every player meets every other once, in rounds made
by the circle method (one player fixed, the others turning round it), so nobody plays twice
in a round; with an odd number of players one sits each round out.

**Swiss** (:func:`swiss_round`), for a field too big to meet in full: each round pairs
players of like standing -- ranked by standing points, then spread (the order
:func:`noddy.bots.crosstable.standings` gives) -- the best with the next best it has not
met yet, going down the list, backtracking when the last players could only be paired
with someone they have met.  With an odd number the lowest-ranked player who has not had a
bye sits out (a bye is listed but scores nothing: the standing counts games only).  The
first round pairs the players in the order given, 1 with 2, 3 with 4 and so on.

Both are deterministic: the same players and results give the same pairings, which is what
lets an interrupted tournament be resumed from its results file.

>>> round_robin(["a", "b", "c", "d"])
[[('a', 'd'), ('b', 'c')], [('c', 'a'), ('d', 'b')], [('a', 'b'), ('c', 'd')]]
>>> swiss_round(["a", "b", "c", "d", "e"], met=set(), byes=())
([('a', 'b'), ('c', 'd')], 'e')
"""

from __future__ import annotations

import math
from typing import Collection, Sequence

#: A pairing: player A (first to sit in even games) and player B.
Pairing = tuple[str, str]


def round_robin(names: Sequence[str]) -> list[list[Pairing]]:
    """Every pairing of ``names`` once, in rounds (the circle method)."""
    players: list[str | None] = list(names)
    if len(players) % 2:
        players.append(None)  # whoever meets None sits the round out
    n = len(players)
    rounds = []
    for r in range(n - 1):
        pairs = []
        for i in range(n // 2):
            first, second = players[i], players[n - 1 - i]
            if first is None or second is None:
                continue
            # The fixed player alternates sides; so does everyone else, round by round.
            pairs.append((first, second) if (i > 0 or r % 2 == 0) else (second, first))
        rounds.append(pairs)
        players = [players[0], players[-1]] + players[1:-1]
    return rounds


def swiss_rounds(players: int) -> int:
    """A sensible number of Swiss rounds for a field: enough to separate the top player
    (log2 of the field, rounded up) and one more."""
    return max(1, math.ceil(math.log2(max(players, 2)))) + 1


def _pair(ranked: list[str], met: Collection[frozenset[str]]) -> list[Pairing] | None:
    """Pair ``ranked`` from the top, each with the best-ranked one it has not met; None if
    no such pairing of them all exists."""
    if not ranked:
        return []
    first, rest = ranked[0], ranked[1:]
    for i, other in enumerate(rest):
        if frozenset((first, other)) in met:
            continue
        tail = _pair(rest[:i] + rest[i + 1:], met)
        if tail is not None:
            return [(first, other)] + tail
    return None


def swiss_round(ranked: Sequence[str], met: Collection[frozenset[str]],
                byes: Collection[str]) -> tuple[list[Pairing], str | None]:
    """The pairings of the next Swiss round among ``ranked`` (best first), who have met
    the pairs in ``met``; and who sits out (None for an even field).  If everyone has met
    everyone they could be paired with, players meet again (ranked order, top down)."""
    order = list(ranked)
    bye = None
    if len(order) % 2:
        bye = next((name for name in reversed(order) if name not in byes), order[-1])
        order.remove(bye)
    pairs = _pair(order, met)
    if pairs is None:
        pairs = [(order[i], order[i + 1]) for i in range(0, len(order), 2)]
    return pairs, bye
