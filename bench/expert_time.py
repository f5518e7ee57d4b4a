"""How long the expert thinks: median, p99 and max milliseconds per decision, per preset.

Not a test: it prints figures.  For each preset it plays ``--games`` two-player games of
expert against greedy (seats alternating, game seeds from ``--seed``) in this one process and
times every expert decision that had a choice of actions, split into laying away (discards)
and the play.  The crib valuations the expert caches per process are cleared first, so any
first valuation is counted, as a freshly started server would pay it.  Wall time of one
process: run it on a quiet machine (the expert's decisions themselves do not depend on it).

    python bench/expert_time.py                      # 40 games a preset
    python bench/expert_time.py --games 100 --presets noddy cribbage
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from typing import Sequence

from noddy.bots import crib_values
from noddy.bots.match import game_seeds, play_game, resolve_player
from noddy.engine import PRESETS, Action, Discard, Game


def _pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=40, help="games per preset (default 40)")
    parser.add_argument("--presets", nargs="+", default=list(PRESETS), choices=list(PRESETS))
    parser.add_argument("--seed", type=int, default=2024)
    args = parser.parse_args(argv)
    print(f"expert vs greedy, {args.games} games a preset, seed {args.seed}; "
          "ms per expert decision with a choice: median / p99 / max (decisions)")
    factories = {"A": resolve_player("expert"), "B": resolve_player("greedy")}
    names = {"A": "expert", "B": "greedy"}
    all_times: list[float] = []
    for preset in args.presets:
        crib_values.clear_crib_values()
        times: dict[str, list[float]] = {"discard": [], "play": []}
        started = time.perf_counter()
        for i, seed in enumerate(game_seeds(args.seed, args.games)):
            labels = ["A", "B"] if i % 2 == 0 else ["B", "A"]
            result = play_game(preset, 2, False, {}, seed, labels, factories, names, seed % 10**6)
            # Split A's timed decisions by kind: replay which of A's choices were discards.
            kinds = []
            replay = Game(preset, 2, seed=seed)
            for seat, text in result.record["actions"]:
                action = Action.parse(seat, text)
                if labels[seat] == "A" and len(replay.legal_actions(seat)) > 1:
                    kinds.append("discard" if isinstance(action, Discard) else "play")
                replay.apply(action)
            if len(kinds) == len(result.think["A"]):
                for kind, t in zip(kinds, result.think["A"]):
                    times[kind].append(t)
            else:  # no action list to split by: count everything as the play
                times["play"].extend(result.think["A"])
        elapsed = time.perf_counter() - started
        line = [f"{preset:20s}"]
        both = times["discard"] + times["play"]
        all_times.extend(both)
        for kind, values in (("all", both), ("discard", times["discard"]), ("play", times["play"])):
            if values:
                line.append(f"{kind} {statistics.median(values) * 1e3:6.2f} / "
                            f"{_pct(values, 0.99) * 1e3:6.1f} / {max(values) * 1e3:5.0f} "
                            f"({len(values)})")
        line.append(f"[{elapsed:.1f} s]")
        print("  ".join(line), flush=True)
    if all_times:
        print(f"{'every preset':20s}  all {statistics.median(all_times) * 1e3:6.2f} / "
              f"{_pct(all_times, 0.99) * 1e3:6.1f} / {max(all_times) * 1e3:5.0f} "
              f"({len(all_times)})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
