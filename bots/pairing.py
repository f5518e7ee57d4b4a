"""One pairing of a match, game by game: the API a match and a tournament are built on.

:func:`play_pairing` plays games ``first_game`` .. ``first_game + games - 1`` between two
players, A and B, and returns one :class:`GameResult` a game, in game order::

    results = play_pairing("greedy", "cmd:python examples/bots/python/noddy_bot.py",
                           "cribbage", games=100, seed=7, jobs=2)

**Duplicate deals.**  Games go in pairs: game ``2k`` and game ``2k + 1`` are dealt the same
cards (one deal seed, :func:`deal_seed` of the match seed and the game index), with the
seats swapped in the second.  The deal seed depends on nothing else -- not on the players,
built-in or ``cmd:``, nor on ``jobs`` -- so two matches on one seed are comparable deal by
deal.  Every seed is within 53 bits, as every number in the protocol and the records.

**Seats.**  :func:`seat_labels`: A and B alternate around the table, A first in even
games, B first in odd ones.  With three seats A holds seats 0 and 2 in even games and B
holds them in odd games, so over a pair each side plays twice alone and twice doubled.

**Players.**  A built-in level (``random``, ``greedy``, ``expert``) plays in this process
through the engine when neither player is ``cmd:``; a match with a ``cmd:COMMAND`` player
is played on match servers (:mod:`noddy.bots.tables`).  A game a ``cmd:`` bot could not
finish (it crashed, fell silent or broke the protocol) is a *forfeit*: a loss for its side,
with the reason, and the match goes on.
"""

from __future__ import annotations

import json
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import replace
from typing import IO, Any, Callable, Mapping, Sequence

from noddy.engine import Game

from . import external
from .base import LEVELS, Player, get_player
from .results import (FORFEIT_REASONS, MAX_SEED, GameResult, deal_seed, finished, forfeited,
                      game_seeds, replay, seat_labels)
from .tables import play_on_servers

__all__ = ["FORFEIT_REASONS", "MAX_SEED", "GameResult", "check_player", "deal_seed",
           "forfeited", "game_seeds", "play_game", "play_pairing", "replay", "resolve_player",
           "seat_labels"]

#: A factory for a player: given a seed, a fresh player.
PlayerFactory = Callable[[int], Player]
def resolve_player(spec: str) -> PlayerFactory:
    """The factory for a built-in level (a ``cmd:`` bot plays over the protocol instead)."""
    if spec in LEVELS:
        return lambda seed: get_player(spec, seed=seed)
    if external.is_external(spec):
        raise ValueError(f"{spec!r} is an external bot: it plays over the server protocol, "
                         f"not in this process (see noddy.bots.external)")
    raise ValueError(f"unknown player {spec!r}; the built-in levels are: {', '.join(LEVELS)}")


def check_player(spec: str) -> None:
    """Raise ValueError unless ``spec`` names a built-in level or an external command."""
    if external.is_external(spec):
        external.parse_command(spec)
    else:
        resolve_player(spec)


def play_game(preset: str, players: int, partnerships: bool, options: Mapping[str, Any],
              seed: int, labels: Sequence[str], factories: dict[str, PlayerFactory],
              names: dict[str, str], bot_seed: int, index: int = 0) -> GameResult:
    """Play one game in this process, ``factories[labels[seat]]`` in each seat."""
    options = dict(options)
    game = Game(preset, players, partnerships=partnerships, options=options, seed=seed)
    seats = [factories[label](bot_seed * 16 + seat) for seat, label in enumerate(labels)]
    actions: list[list[Any]] = []
    think: dict[str, list[float]] = {"A": [], "B": []}
    while not game.is_over:
        seat = game.awaiting[0]
        view = game.observation(seat)
        started = time.perf_counter()
        action = seats[seat].choose(view, game.rules)
        elapsed = time.perf_counter() - started
        if len(view.legal_actions) > 1:
            think[labels[seat]].append(elapsed)
        game.apply(action)
        actions.append([action.seat, str(action)])
    outcome = game.outcome
    assert outcome is not None
    record = {"preset": preset, "players": players, "partnerships": partnerships,
              "options": options, "seed": seed, "seats": [names[label] for label in labels],
              "actions": actions}
    return finished(index, record, labels, [names[label] for label in labels], partnerships,
                    outcome, think, game)


def _in_process(a: str, b: str, preset: str, players: int, partnerships: bool,
                options: Mapping[str, Any], seed: int, indices: Sequence[int],
                keep_games: bool = True) -> list[GameResult]:
    """Games ``indices`` of the match between built-in levels ``a`` and ``b``."""
    factories = {"A": resolve_player(a), "B": resolve_player(b)}
    names = {"A": a, "B": b}
    results = []
    for index in indices:
        result = play_game(preset, players, partnerships, options, deal_seed(seed, index),
                           seat_labels(index, players), factories, names,
                           bot_seed=seed * 1_000_003 + index, index=index)
        results.append(result if keep_games else replace(result, game=None))
    return results


def _in_process_chunk(args: tuple[Any, ...]) -> list[GameResult]:
    return _in_process(*args, keep_games=False)


def play_pairing(player_a: str, player_b: str, preset: str = "noddy", games: int = 2,
                 seed: int = 1, jobs: int = 1, players: int = 2,
                 record: IO[str] | None = None, *, partnerships: bool = False,
                 options: Mapping[str, Any] | None = None, timeout: float = 300.0,
                 first_game: int = 0,
                 progress: Callable[[GameResult], None] | None = None) -> list[GameResult]:
    """Play games ``first_game`` .. ``first_game + games - 1`` of the match between
    ``player_a`` and ``player_b`` (see the module doc); return their results in game order.

    ``jobs``: games played at once (processes for built-in levels, tables for ``cmd:``
    bots).  ``record``: each finished game's record is written to it as a JSON line, in game
    order.  ``timeout``: the longest one game with a ``cmd:`` bot may take before the bot
    is taken for silent.  ``progress`` is called with each result as it comes (any order).
    Raises ValueError for a player or table that cannot be, and
    :class:`~noddy.bots.external.ExternalBotError` if no server could be started.
    """
    options = dict(options or {})
    for spec in (player_a, player_b):
        check_player(spec)
    Game(preset, players, partnerships=partnerships, options=options, seed=0)  # or ValueError
    indices = list(range(first_game, first_game + games))
    if external.is_external(player_a) or external.is_external(player_b):
        results = play_on_servers(player_a, player_b, preset, players, partnerships, options,
                                  seed, indices, jobs=jobs, timeout=timeout, progress=progress)
    elif jobs <= 1:
        results = []
        for index in indices:
            result = _in_process(player_a, player_b, preset, players, partnerships, options,
                                 seed, [index], keep_games=False)[0]  # a kept Game is for tests
            if progress is not None:
                progress(result)
            results.append(result)
    else:
        results = _in_parallel(player_a, player_b, preset, players, partnerships, options,
                               seed, indices, jobs, progress)
    if record is not None:
        for result in results:
            if result.record is not None:
                record.write(json.dumps(result.record) + "\n")
    return results


def _in_parallel(a: str, b: str, preset: str, players: int, partnerships: bool,
                 options: dict[str, Any], seed: int, indices: list[int], jobs: int,
                 progress: Callable[[GameResult], None] | None) -> list[GameResult]:
    """Built-in games over ``jobs`` processes, in chunks of whole pairs."""
    chunk = max(2, min(50, len(indices) // (jobs * 4) // 2 * 2))
    tasks = [(a, b, preset, players, partnerships, options, seed, indices[i:i + chunk])
             for i in range(0, len(indices), chunk)]
    results: list[GameResult] = []
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        for part in pool.map(_in_process_chunk, tasks):
            for result in part:
                if progress is not None:
                    progress(result)
            results.extend(part)
    return results
