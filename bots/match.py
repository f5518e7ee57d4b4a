"""Matches between computer players: the command a bot author runs to measure a change.

::

    python -m noddy.bots.match greedy expert --preset cribbage --games 200 --seed 1
    noddy-match random greedy --preset noddy --players 4 --partnerships --record games.jsonl

Two players, A and B, play ``--games`` games (:func:`~noddy.bots.pairing.play_pairing`).
Games go in pairs that share one deal seed -- so the same cut and the same cards in every
deal -- with the seats swapped in the second game of the pair: luck of the deal evens out
and so does the seat (and with it who deals first).  The deal seeds come from ``--seed``
and the game's number only, so two matches on one seed are dealt the same cards whoever
plays.  With more than two seats, A and B alternate around the table (A B A B, then
B A B A); with three, A holds seats 1 and 3 in the first game of a pair and B holds them in
the second, so over a pair each side plays once alone and once with two seats.

Printed: each player's win rate with a 95% (Wilson) confidence interval, the games each
side forfeited (by reason), A's average margin (its best score minus B's best, in points,
over the games played out), the duplicate pairs (:mod:`noddy.bots.paired`: A's score and
margin per pair, with normal-approximation intervals, and which games had no partner), each
side's thinking time per decision where it had a choice, and games per second.  ``--sprt
p0=0.5,p1=0.55`` (or ``elo0=0,elo1=30``) runs Wald's sequential test on the pairs and stops
as soon as it decides; ``--games`` is then the most it plays.  ``--record FILE`` writes one JSON object a line per game played out
-- preset, players, partnerships, options, seed, the seats' players, every action and the
result -- from which :func:`replay` (or any program with the engine) reproduces the game
event for event.  On a terminal, a progress line on standard error.

A player is named by a built-in level (``random``, ``greedy``, ``expert``) or by
``cmd:COMMAND``, a program in any language that speaks the server protocol
(docs/PROTOCOL.md, "Bots and matches"), e.g. ``cmd:"python examples/bots/python/noddy_bot.py"``,
or by ``engine:COMMAND``, an engine played through the bridge ``noddy-bot`` (docs/PROTOCOL.md,
"Engines (noddy-bot)"), e.g. ``engine:"python examples/bots/python/engine.py"``.
Two built-in levels play in this process through the engine (``--jobs`` processes).  A
match with a ``cmd:`` bot is played on ``--jobs`` servers of the runner's own, the bot
started once per table to play game after game there (:mod:`noddy.bots.tables`); the
servers run without rate limits, which the output says.
"""

from __future__ import annotations

import argparse
import importlib.metadata
import json
import math
import statistics
import sys
import time
from dataclasses import dataclass, field, replace
from typing import IO, Any, Callable, Sequence

from noddy.engine import PRESETS, Game

from . import arguments, external, paired
from .base import LEVELS
from .pairing import (GameResult, check_player, game_seeds, play_game, play_pairing, replay,
                      resolve_player, seat_labels)

__all__ = ["GameResult", "MatchSummary", "check_player", "game_seeds", "main", "play_game",
           "play_pairing", "replay", "resolve_player", "run_match", "seat_labels", "wilson"]


#: Games played between two looks of the sequential test's runner at the results: a batch
#: of ``cmd:`` games starts its servers and bots afresh, so a batch of one pair would spend
#: most of its time starting; 40 games are 20 pairs, a step small beside the hundreds an
#: SPRT usually takes.
SPRT_BATCH = 40


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
    #: Each side's games forfeited, by reason (see :data:`~noddy.bots.pairing.FORFEIT_REASONS`).
    forfeits: dict[str, dict[str, int]] = field(default_factory=lambda: {"A": {}, "B": {}})
    #: The name a ``cmd:`` side said ``hello`` with (the first game it played), by label.
    hello: dict[str, str] = field(default_factory=dict)
    #: Every game added, without its record (for the paired statistics).
    played: list[GameResult] = field(default_factory=list)
    #: The sequential test the match ran (``--sprt``), and what it decided (None: no answer
    #: within ``--games``).
    sprt: paired.Sprt | None = None
    verdict: str | None = None

    def add(self, result: GameResult) -> None:
        self.games += 1
        self.played.append(replace(result, record=None, game=None, think={}))
        self.wins[result.winner_label] += 1
        if result.forfeit is not None and result.forfeit_label is not None:
            counts = self.forfeits[result.forfeit_label]
            counts[result.forfeit] = counts.get(result.forfeit, 0) + 1
        else:
            self.margins.append(result.margin)
        for label, times in result.think.items():
            self.think[label].extend(times)
        for label, name in zip(result.labels, result.seats):
            if external.is_external(self.names[label]) and name != self.names[label]:
                self.hello.setdefault(label, name)

    def merge(self, other: "MatchSummary") -> None:
        self.games += other.games
        for label in ("A", "B"):
            self.wins[label] += other.wins[label]
            self.think[label].extend(other.think[label])
            for reason, count in other.forfeits[label].items():
                self.forfeits[label][reason] = self.forfeits[label].get(reason, 0) + count
        self.margins.extend(other.margins)
        self.played.extend(other.played)
        for label, name in other.hello.items():
            self.hello.setdefault(label, name)

    def win_rate(self, label: str) -> tuple[float, float, float]:
        low, high = wilson(self.wins[label], self.games)
        return (self.wins[label] / self.games if self.games else 0.0, low, high)

    def name(self, label: str) -> str:
        """A side as the summary names it: a ``cmd:`` bot by its hello name, then its command."""
        hello = self.hello.get(label)
        return f"{hello} ({self.names[label]})" if hello else self.names[label]

    def lines(self) -> list[str]:
        out = []
        for label in ("A", "B"):
            rate, low, high = self.win_rate(label)
            out.append(f"{label} {self.name(label)}: won {self.wins[label]} of {self.games} "
                       f"= {rate:.1%} (95% CI {low:.1%} to {high:.1%})")
        for label in ("A", "B"):
            counts = self.forfeits[label]
            if counts:
                reasons = ", ".join(f"{reason} {counts[reason]}" for reason in sorted(counts))
                out.append(f"forfeited by {label}: {sum(counts.values())} games ({reasons})")
        margin = statistics.mean(self.margins) if self.margins else 0.0
        out.append(f"average margin (A minus B): {margin:+.2f} points")
        out.extend(paired.paired_lines(self.played))
        if self.sprt is not None:
            scores = [pair.score for pair in paired.pair_results(self.played)[0]]
            lower, upper = self.sprt.bounds
            answer = {"H1": "H1 accepted: A is the stronger", "H0": "H0 accepted: A is not "
                      "the stronger", None: "no answer yet: play more games"}[self.verdict]
            out.append(f"SPRT {self.sprt.describe()}: LLR {self.sprt.llr(scores):+.2f} "
                       f"(bounds {lower:+.2f}, {upper:+.2f}) after {len(scores)} pairs "
                       f"({self.games} games): {answer}")
        for label in ("A", "B"):
            times = self.think[label]
            if times:
                out.append(f"thinking time {self.hello.get(label, self.names[label])} ({label}): "
                           f"mean {statistics.mean(times) * 1e3:.2f} ms, median "
                           f"{statistics.median(times) * 1e3:.2f} ms, max "
                           f"{max(times) * 1e3:.1f} ms over {len(times)} decisions")
        rate = self.games / self.seconds if self.seconds else 0.0
        out.append(f"{self.games} games in {self.seconds:.1f} s: {rate:.1f} games/s")
        return out


def run_match(a: str, b: str, *, preset: str = "noddy", players: int = 2,
              partnerships: bool = False, options: dict[str, Any] | None = None,
              games: int = 100, seed: int = 1, record: IO[str] | None = None,
              first_game: int = 0, total_games: int | None = None,
              timeout: float = 300.0, jobs: int = 1,
              progress: Callable[[GameResult], None] | None = None,
              sprt: paired.Sprt | None = None) -> MatchSummary:
    """Play games ``first_game`` .. ``first_game + games - 1`` of the match between ``a`` and
    ``b`` (:func:`~noddy.bots.pairing.play_pairing`) and add them up.

    Splitting one match into ranges (as ``bench/bots.py`` does across processes) plays
    exactly the games the whole match would: a game's deal depends on its index only
    (``total_games`` is accepted for older callers and changes nothing).

    With ``sprt`` the games are played in batches of whole pairs and the test is asked after
    each pair, in game order: the match stops at the first pair after which it decides (the
    rest of that batch is not counted), so where it stops depends on the seed alone, not on
    ``jobs``.
    """
    summary = MatchSummary({"A": a, "B": b}, sprt=sprt)
    started = time.perf_counter()
    if sprt is None:
        for result in play_pairing(a, b, preset, games, seed, jobs, players, record,
                                   partnerships=partnerships, options=options, timeout=timeout,
                                   first_game=first_game, progress=progress):
            summary.add(result)
    else:
        next_game, end = first_game, first_game + games
        scores: list[float] = []
        while next_game < end and summary.verdict is None:
            batch = min(end - next_game, max(SPRT_BATCH, 4 * jobs))
            results = play_pairing(a, b, preset, batch, seed, jobs, players, None,
                                   partnerships=partnerships, options=options, timeout=timeout,
                                   first_game=next_game, progress=progress)
            next_game += batch
            for result in sorted(results, key=lambda r: r.index):
                summary.add(result)
                if record is not None and result.record is not None:
                    record.write(json.dumps(result.record) + "\n")
                if result.index % 2 == 1:
                    scores.append(paired.pair_results(summary.played[-2:])[0][0].score)
                    summary.verdict = sprt.decide(scores)
                    if summary.verdict is not None:
                        break
    summary.seconds = time.perf_counter() - started
    return summary


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="noddy-match",
        description="Play games between two computer players and print their win rates.",
        epilog="Games go in pairs on the same cards with the seats swapped; the same --seed "
               "deals the same cards whoever plays.  With 3 players A sits in seats 1 and 3 "
               "in odd-numbered games and B in even ones.  Players: "
               + ", ".join(LEVELS) + ", or cmd:COMMAND, a program that speaks the server "
               "protocol; it is started once per table with HOST:PORT --table T --seat S "
               "--name NAME appended (or put {host} {port} {address} {table} {seat} {name} "
               "in the command) and plays game after game there (docs/PROTOCOL.md, Bots and "
               "matches), on a noddy-server of the runner's own started with --rate 100000 "
               "--burst 100000.  A bot that crashes or falls silent forfeits that game.  "
               "engine:COMMAND is an engine (one JSON decision a line in, its choice out) "
               "played through noddy-bot (docs/PROTOCOL.md, Engines).",
    )
    # The distribution's version (noddy.bots may not import the top-level noddy package).
    parser.add_argument("--version", action="version",
                        version=f"%(prog)s {importlib.metadata.version('noddy')}")
    parser.add_argument("a", metavar="A", help="player A: a built-in level, cmd:COMMAND or engine:COMMAND")
    parser.add_argument("b", metavar="B", help="player B: a built-in level, cmd:COMMAND or engine:COMMAND")
    parser.add_argument("--preset", default="noddy", choices=sorted(PRESETS))
    parser.add_argument("--players", type=arguments.whole, default=2, help="seats at the table (default 2)")
    parser.add_argument("--partnerships", action="store_true",
                        help="4 players as two teams, partners opposite")
    parser.add_argument("--option", "-o", action="append", type=arguments.option, default=[],
                        metavar="NAME=VALUE", help="a table option, e.g. target=61 (repeatable)")
    parser.add_argument("--target", type=arguments.whole, help="shorthand for --option target=N")
    parser.add_argument("--games", "-n", type=arguments.at_least(1), default=100, help="games to play (default 100)")
    parser.add_argument("--seed", type=arguments.whole, default=1, help="match seed (default 1)")
    parser.add_argument("--record", metavar="FILE",
                        help="write every game's record to FILE, one JSON object a line")
    parser.add_argument("--timeout", type=arguments.seconds, default=300.0, metavar="SECONDS",
                        help="the longest a cmd: bot may go without a game ending; then it "
                             "forfeits that game (default 300)")
    parser.add_argument("--sprt", metavar="p0=P,p1=P|elo0=E,elo1=E",
                        help="a sequential test on the duplicate pairs: stop as soon as A's "
                             "expected pair score is known to be at least p1 (or elo1) or at "
                             "most p0 (or elo0); --games is then the most games played")
    parser.add_argument("--alpha", type=float, default=0.05,
                        help="the SPRT's chance of a false 'A is stronger' (default 0.05)")
    parser.add_argument("--beta", type=float, default=0.05,
                        help="the SPRT's chance of a false 'A is not stronger' (default 0.05)")
    parser.add_argument("--jobs", "-j", type=arguments.at_least(1), default=1,
                        help="games played at once: processes for built-in levels, tables "
                             "(each with its own server) for cmd: bots (default 1)")
    return parser


class Progress:
    """A progress line on a terminal, redrawn at most every ``interval`` seconds (a
    callback for :func:`run_match`); nothing at all when ``stream`` is not a terminal."""

    def __init__(self, total: int, stream: IO[str], interval: float = 0.5) -> None:
        self.total, self.stream, self.interval = total, stream, interval
        self.done = 0
        self.started = self.shown = time.monotonic()
        self.active = stream.isatty()

    def __call__(self, result: GameResult) -> None:
        self.done += 1
        now = time.monotonic()
        if self.active and (now - self.shown >= self.interval or self.done == self.total):
            self.shown = now
            rate = self.done / max(now - self.started, 1e-9)
            left = (self.total - self.done) / rate if rate else 0.0
            self.stream.write(f"\r{self.done}/{self.total} games, {rate:.1f} games/s, "
                              f"{left:.0f} s to go ")
            self.stream.flush()

    def close(self) -> None:
        """Clear the line (the summary follows on standard output)."""
        if self.active and self.done:
            self.stream.write("\r\033[K")
            self.stream.flush()


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
        sprt = paired.parse_sprt(args.sprt, args.alpha, args.beta) if args.sprt else None
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
    if external.is_external(args.a) or external.is_external(args.b):
        print(external.RATE_NOTE)
    progress = Progress(args.games, sys.stderr)
    try:
        summary = run_match(args.a, args.b, preset=args.preset, players=args.players,
                            partnerships=args.partnerships, options=options, games=args.games,
                            seed=args.seed, record=record, timeout=args.timeout,
                            jobs=args.jobs, progress=progress, sprt=sprt)
    except external.ExternalBotError as error:
        progress.close()
        print(f"noddy-match: {error}", file=sys.stderr)
        return 1
    finally:
        if record is not None:
            record.close()
    progress.close()
    for line in summary.lines():
        print(line)
    if args.record:
        print(f"records written to {args.record}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
