"""``cmd:`` bots in a match: games played over the server protocol, on match servers.

(First version: each game on a fresh server, as before; see :func:`play_on_servers`.)
"""

from __future__ import annotations

from typing import Any, Callable, Sequence

from noddy.engine import Outcome

from . import external
from .results import GameResult, deal_seed, finished, seat_labels


def play_on_servers(a: str, b: str, preset: str, players: int, partnerships: bool,
                    options: dict[str, Any], seed: int, indices: Sequence[int], *, jobs: int = 1,
                    timeout: float = 300.0,
                    progress: Callable[[GameResult], None] | None = None) -> list[GameResult]:
    """Games ``indices`` of the match between ``a`` and ``b``, at least one a ``cmd:`` bot."""
    names = {"A": a, "B": b}
    results = []
    for index in indices:
        labels = seat_labels(index, players)
        seats = [names[label] for label in labels]
        played = external.play_on_server(preset, players, partnerships, options,
                                         deal_seed(seed, index), seats, timeout=timeout)
        record = {"preset": preset, "players": players, "partnerships": partnerships,
                  "options": options, "seed": played["seed"], "seats": seats,
                  "actions": external.actions_of(played)}
        result = finished(index, record, labels, seats, partnerships,
                          Outcome.from_dict(played["result"]), {"A": [], "B": []})
        if progress is not None:
            progress(result)
        results.append(result)
    return results
