"""Benchmark of the computer levels: how strong each is, and how long it thinks.

Not a test: it prints figures.  For every preset (two players), it plays ``--games`` games
of each pairing -- expert vs greedy, greedy vs random, expert vs random -- through
:func:`noddy.bots.match.run_match`, so games go in pairs on the same cards with the seats
swapped, and prints player A's win rate with its 95% (Wilson) confidence interval, the
average margin, and thinking time per decision (only decisions with a choice of actions
are timed).  The games are spread over ``--jobs`` processes in chunks; the chunks are
ranges of one match, so the figures do not depend on how many processes ran them.

    python bench/bots.py                # 2,000 games a pairing (takes a while)
    python bench/bots.py --quick        # 200 games a pairing
    python bench/bots.py --games 500 --presets cribbage noddy
    python bench/bots.py --pairings expert-greedy --jobs 1
    python bench/bots.py --counting manual --pairings expert-random   # counting by hand
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Sequence

from noddy.bots.match import MatchSummary, run_match
from noddy.engine import PRESETS

PAIRINGS = (("expert", "greedy"), ("greedy", "random"), ("expert", "random"))
CHUNK = 50  # games per task: even, so both games of a seat-swapped pair stay together


def _chunk(args: tuple[str, str, str, int, int, int, int, str]) -> MatchSummary:
    a, b, preset, first, games, total, seed, counting = args
    options = {"counting": counting} if counting != "auto" else {}
    return run_match(a, b, preset=preset, games=games, seed=seed, first_game=first,
                     total_games=total, options=options)


def _times(summary: MatchSummary, label: str) -> str:
    times = summary.think[label]
    if not times:
        return "-"
    return (f"{statistics.mean(times) * 1e3:.2f}/{statistics.median(times) * 1e3:.2f}/"
            f"{max(times) * 1e3:.0f}")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=2000, help="games per pairing (default 2000)")
    parser.add_argument("--quick", action="store_true", help="200 games per pairing")
    parser.add_argument("--presets", nargs="+", default=list(PRESETS), choices=list(PRESETS))
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument("--pairings", nargs="+", default=[f"{a}-{b}" for a, b in PAIRINGS],
                        choices=[f"{a}-{b}" for a, b in PAIRINGS],
                        help="which pairings to play (default all), e.g. expert-greedy")
    parser.add_argument("--counting", choices=("auto", "manual"), default="auto",
                        help="manual: shows counted by hand, with muggins (only the presets "
                             "that take it are played)")
    args = parser.parse_args(argv)
    games = 200 if args.quick else args.games
    if args.counting == "manual":
        args.presets = [p for p in args.presets if PRESETS[p].manual_counting_allowed]
    print(f"{games} games per pairing, 2 players, seed {args.seed}, {args.jobs} processes, "
          f"counting {args.counting}")
    print("win rate is player A's; times are A's and B's ms per decision: mean/median/max")
    with ProcessPoolExecutor(max_workers=args.jobs) as pool:
        for preset in args.presets:
            print(f"\n{preset}")
            for a, b in PAIRINGS:
                if f"{a}-{b}" not in args.pairings:
                    continue
                started = time.perf_counter()
                tasks = [(a, b, preset, first, min(CHUNK, games - first), games, args.seed,
                          args.counting)
                         for first in range(0, games, CHUNK)]
                summary = MatchSummary({"A": a, "B": b})
                for part in pool.map(_chunk, tasks):
                    summary.merge(part)
                elapsed = time.perf_counter() - started
                rate, low, high = summary.win_rate("A")
                margin = statistics.mean(summary.margins)
                print(f"  {a:>6} vs {b:<6} {rate:6.1%} (95% CI {low:5.1%}-{high:5.1%})  "
                      f"margin {margin:+6.2f}  think {a} {_times(summary, 'A')}  "
                      f"{b} {_times(summary, 'B')}  [{summary.games} games, "
                      f"{summary.games / elapsed:.1f}/s]", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
