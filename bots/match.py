"""Matches between computer players: the command a bot author runs to measure a change.

::

    python -m noddy.bots.match greedy expert --preset cribbage --games 200 --seed 1
    noddy-match random greedy --preset noddy --players 4 --partnerships --record games.jsonl

Two players, A and B, play ``--games`` games.  Games go in pairs that share one game
seed -- so the same cut and the same cards in every deal -- with the seats swapped in the
second game of the pair: luck of the deal evens out and so does the seat (and with it who
deals first).  With more than two seats, A and B alternate around the table (A B A B, then
B A B A); with three, A holds two seats in one game of a pair and B in the other.

Printed: each player's win rate with a 95% (Wilson) confidence interval, A's average
margin (its best score minus B's best, in points), the mean thinking time per decision
where the player had a choice, and games per second.  ``--record FILE`` writes one JSON
object a line per game -- preset, players, partnerships, options, seed, the seats'
players, every action and the result -- from which :func:`replay` (or any program with
the engine) reproduces the game event for event.

A player is named by a built-in level (``random``, ``greedy``, ``expert``) or by
``cmd:COMMAND``, a program in any language that speaks the server protocol
(docs/PROTOCOL.md), e.g. ``cmd:"python examples/bots/python/noddy_bot.py"``.  Two built-in
levels play in this process through the engine (fast).  A match with an external bot
plays each game on a fresh ``noddy-server`` subprocess seeded with the game's seed: the
runner creates the table, seats the built-in levels as computer players, starts the
bot's command with ``HOST:PORT --table T --seat S --name NAME`` appended (or filled into
``{host}``, ``{port}``, ``{address}``, ``{table}``, ``{seat}``, ``{name}`` placeholders),
and watches the game as a spectator; see :mod:`noddy.bots.external`.
"""

from __future__ import annotations

import argparse
import importlib.metadata
import json
import math
import random
import statistics
import sys
import time
from dataclasses import dataclass, field
from typing import IO, Any, Callable, Sequence

from noddy.engine import PRESETS, Action, Game, Outcome

from . import external
from .base import LEVELS, Player, get_player

#: A factory for a player: given a seed, a fresh player.
PlayerFactory = Callable[[int], Player]


def resolve_player(spec: str) -> PlayerFactory:
    """The factory for a player named on the command line.

    Built-in levels are looked up in :data:`~noddy.bots.base.LEVELS`.  A ``cmd:PROGRAM``
    bot is no in-process player: it plays over the server protocol (:func:`check_player`
    accepts it and :func:`run_match` gives it a server), so it is refused here.
    """
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


def seat_labels(game_index: int, players: int) -> list[str]:
    """Which of "A" and "B" sits in each seat in game ``game_index`` (pairs swap seats)."""
    first, second = ("A", "B") if game_index % 2 == 0 else ("B", "A")
    return [first if seat % 2 == 0 else second for seat in range(players)]


def game_seeds(seed: int, games: int) -> list[int]:
    """The game seed of each game: one per pair of games, shared by both games of it."""
    rng = random.Random(seed)
    pair_seeds = [rng.randrange(2**63) for _ in range((games + 1) // 2)]
    return [pair_seeds[i // 2] for i in range(games)]


@dataclass
class GameResult:
    """One finished game: the record to write, who won and each label's thinking times."""

    record: dict[str, Any]
    winner_label: str
    margin: int
    think: dict[str, list[float]] = field(default_factory=dict)
    game: Game | None = None  # the finished game itself, event log included


def play_game(preset: str, players: int, partnerships: bool, options: dict[str, Any],
              seed: int, labels: Sequence[str], factories: dict[str, PlayerFactory],
              names: dict[str, str], bot_seed: int) -> GameResult:
    """Play one game with ``factories[labels[seat]]`` in each seat; see the module doc."""
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
    return _finished(record, labels, partnerships, outcome, think, game)


def play_game_on_server(preset: str, players: int, partnerships: bool,
                        options: dict[str, Any], seed: int, labels: Sequence[str],
                        names: dict[str, str], timeout: float = 300.0) -> GameResult:
    """Play one game on a fresh server seeded with ``seed``, ``names[labels[seat]]`` in each
    seat (levels as the server's computer players, ``cmd:`` players as programs)."""
    seats = [names[label] for label in labels]
    played = external.play_on_server(preset, players, partnerships, options, seed, seats,
                                     timeout=timeout)
    result = played["result"]
    record = {"preset": preset, "players": players, "partnerships": partnerships,
              "options": options, "seed": played["seed"], "seats": seats,
              "actions": external.actions_of(played)}
    return _finished(record, labels, partnerships, Outcome.from_dict(result))


def _finished(record: dict[str, Any], labels: Sequence[str], partnerships: bool, outcome: Outcome,
              think: dict[str, list[float]] | None = None, game: Game | None = None) -> GameResult:
    """A finished game's result: ``record`` (the game up to its actions) completed with its
    outcome (the engine's one value, with the winner's label beside it), the winner's label
    and A's margin (its best score minus B's; a seat's score is its team's,
    ``scores[seat % 2]``, in partnerships)."""
    scores = outcome.scores
    winner_label = labels[outcome.winning_seats[0]]
    record["result"] = {**outcome.to_dict(), "winner_player": winner_label}
    best = {label: max(scores[s % 2 if partnerships else s]
                       for s in range(len(labels)) if labels[s] == label)
            for label in ("A", "B")}
    return GameResult(record, winner_label, best["A"] - best["B"], think or {}, game)


def replay(record: dict[str, Any]) -> Game:
    """The game a record describes, replayed through the engine (raises if it diverges)."""
    game = Game(record["preset"], record["players"], partnerships=record["partnerships"],
                options=record["options"], seed=record["seed"])
    for seat, text in record["actions"]:
        game.apply(Action.parse(seat, text))
    result = Outcome.from_dict(record["result"])  # a record from before "ending" reads too
    if game.outcome != result:
        raise ValueError(f"replay ended {game.scores} (winner {game.winner}), "
                         f"the record says {list(result.scores)} (winner {result.winner})")
    return game


def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval for a win rate of ``wins`` out of ``n``."""
    if n == 0:
        return (0.0, 1.0)
    p = wins / n
    denominator = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denominator
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denominator
    return (max(0.0, centre - half), min(1.0, centre + half))


@dataclass
class MatchSummary:
    """What a match adds up to; :meth:`lines` is what the command prints."""

    names: dict[str, str]
    games: int = 0
    wins: dict[str, int] = field(default_factory=lambda: {"A": 0, "B": 0})
    margins: list[int] = field(default_factory=list)
    think: dict[str, list[float]] = field(default_factory=lambda: {"A": [], "B": []})
    seconds: float = 0.0

    def add(self, result: GameResult) -> None:
        self.games += 1
        self.wins[result.winner_label] += 1
        self.margins.append(result.margin)
        for label, times in result.think.items():
            self.think[label].extend(times)

    def merge(self, other: "MatchSummary") -> None:
        self.games += other.games
        for label in ("A", "B"):
            self.wins[label] += other.wins[label]
            self.think[label].extend(other.think[label])
        self.margins.extend(other.margins)

    def win_rate(self, label: str) -> tuple[float, float, float]:
        low, high = wilson(self.wins[label], self.games)
        return (self.wins[label] / self.games if self.games else 0.0, low, high)

    def lines(self) -> list[str]:
        out = []
        for label in ("A", "B"):
            rate, low, high = self.win_rate(label)
            out.append(f"{label} {self.names[label]}: won {self.wins[label]} of {self.games} "
                       f"= {rate:.1%} (95% CI {low:.1%} to {high:.1%})")
        margin = statistics.mean(self.margins) if self.margins else 0.0
        out.append(f"average margin (A minus B): {margin:+.2f} points")
        for label in ("A", "B"):
            times = self.think[label]
            if times:
                out.append(f"thinking time {self.names[label]} ({label}): mean "
                           f"{statistics.mean(times) * 1e3:.2f} ms, median "
                           f"{statistics.median(times) * 1e3:.2f} ms, max "
                           f"{max(times) * 1e3:.1f} ms over {len(times)} decisions")
        rate = self.games / self.seconds if self.seconds else 0.0
        out.append(f"{self.games} games in {self.seconds:.1f} s: {rate:.1f} games/s")
        return out


def run_match(a: str, b: str, *, preset: str = "noddy", players: int = 2,
              partnerships: bool = False, options: dict[str, Any] | None = None,
              games: int = 100, seed: int = 1, record: IO[str] | None = None,
              first_game: int = 0, total_games: int | None = None,
              timeout: float = 300.0) -> MatchSummary:
    """Play games ``first_game`` .. ``first_game + games - 1`` of a match of
    ``total_games`` (default ``games``) between ``a`` and ``b``; see the module doc.

    Splitting one match into ranges (as ``bench/bots.py`` does across processes) plays
    exactly the games the whole match would.  With a ``cmd:`` player each game is played on
    its own server (:func:`play_game_on_server`), given at most ``timeout`` seconds.
    """
    options = dict(options or {})
    names = {"A": a, "B": b}
    on_server = external.is_external(a) or external.is_external(b)
    if on_server:
        for spec in (a, b):
            check_player(spec)
    else:
        factories = {"A": resolve_player(a), "B": resolve_player(b)}
    seeds = game_seeds(seed, total_games if total_games is not None else first_game + games)
    summary = MatchSummary(names)
    started = time.perf_counter()
    for index in range(first_game, first_game + games):
        labels = seat_labels(index, players)
        if on_server:
            result = play_game_on_server(preset, players, partnerships, options, seeds[index],
                                         labels, names, timeout=timeout)
        else:
            result = play_game(preset, players, partnerships, options, seeds[index], labels,
                               factories, names, bot_seed=seed * 1_000_003 + index)
        summary.add(result)
        if record is not None:
            record.write(json.dumps(result.record) + "\n")
    summary.seconds = time.perf_counter() - started
    return summary


def _option(text: str) -> tuple[str, Any]:
    """``target=61`` -> ("target", 61); values are read as JSON, else kept as text."""
    name, sep, value = text.partition("=")
    if not sep:
        raise argparse.ArgumentTypeError(f"an option is NAME=VALUE, not {text!r}")
    try:
        return name, json.loads(value)
    except json.JSONDecodeError:
        return name, value


def _whole(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None


def _at_least_one(text: str) -> int:
    value = _whole(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be 1 or more, not {text}")
    return value


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
    if not value > 0:  # also NaN
        raise argparse.ArgumentTypeError(f"must be more than 0, not {text}")
    return value


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="noddy-match",
        description="Play games between two computer players and print their win rates.",
        epilog="Games go in pairs on the same cards with the seats swapped.  Players: "
               + ", ".join(LEVELS) + ", or cmd:COMMAND, a program that speaks the server "
               "protocol; it is started for each game with HOST:PORT --table T --seat S "
               "--name NAME appended (or put {host} {port} {address} {table} {seat} {name} "
               "in the command), on a fresh noddy-server seeded with the game's seed.",
    )
    # The distribution's version (noddy.bots may not import the top-level noddy package).
    parser.add_argument("--version", action="version",
                        version=f"%(prog)s {importlib.metadata.version('noddy')}")
    parser.add_argument("a", metavar="A", help="player A: a built-in level or cmd:COMMAND")
    parser.add_argument("b", metavar="B", help="player B: a built-in level or cmd:COMMAND")
    parser.add_argument("--preset", default="noddy", choices=sorted(PRESETS))
    parser.add_argument("--players", type=_whole, default=2, help="seats at the table (default 2)")
    parser.add_argument("--partnerships", action="store_true",
                        help="4 players as two teams, partners opposite")
    parser.add_argument("--option", "-o", action="append", type=_option, default=[],
                        metavar="NAME=VALUE", help="a table option, e.g. target=61 (repeatable)")
    parser.add_argument("--target", type=_whole, help="shorthand for --option target=N")
    parser.add_argument("--games", "-n", type=_at_least_one, default=100, help="games to play (default 100)")
    parser.add_argument("--seed", type=_whole, default=1, help="match seed (default 1)")
    parser.add_argument("--record", metavar="FILE",
                        help="write every game's record to FILE, one JSON object a line")
    parser.add_argument("--timeout", type=_seconds, default=300.0, metavar="SECONDS",
                        help="the longest a game with a cmd: player may take (default 300)")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the match the command line describes and print its summary."""
    parser = build_parser()
    args = parser.parse_args(argv)
    options = dict(args.option)
    if args.target is not None:
        options["target"] = args.target
    try:
        for spec in (args.a, args.b):
            check_player(spec)
        Game(args.preset, args.players, partnerships=args.partnerships, options=options, seed=0)
    except ValueError as error:
        parser.error(str(error))
    try:
        record: IO[str] | None = open(args.record, "w", encoding="utf-8") if args.record else None
    except OSError as error:
        parser.error(f"cannot write {args.record}: {error.strerror}")
    table = f"{args.players} players" + (" in partnerships" if args.partnerships else "")
    opts = "".join(f", {k}={v}" for k, v in sorted(options.items()))
    print(f"{args.preset}, {table}{opts}: {args.a} (A) vs {args.b} (B), "
          f"{args.games} games, seed {args.seed}")
    try:
        summary = run_match(args.a, args.b, preset=args.preset, players=args.players,
                            partnerships=args.partnerships, options=options, games=args.games,
                            seed=args.seed, record=record, timeout=args.timeout)
    except external.ExternalBotError as error:
        print(f"noddy-match: {error}", file=sys.stderr)
        return 1
    finally:
        if record is not None:
            record.close()
    for line in summary.lines():
        print(line)
    if args.record:
        print(f"records written to {args.record}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
