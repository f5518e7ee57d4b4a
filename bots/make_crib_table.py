"""Writes the crib table: every preset's crib values, computed ahead of time.

    python -m noddy.bots.make_crib_table            # rewrite bots/data/crib_table.json
    python -m noddy.bots.make_crib_table --check    # exit 1 if the file is not what it would write

For each preset with a crib and each number of players it seats, every pattern of cards
that can be laid away (ranks, and whether they share a suit) is valued by
:func:`noddy.bots.crib_values.estimate_crib` with the expert's draws, exactly as the expert
would value it at first use; :mod:`noddy.bots.crib_table` writes and reads the file.  This
script is kept apart from the data and from the expert so that imports run one way: it
imports the expert's arithmetic, and nothing imports it.  It takes a few seconds.
"""

from __future__ import annotations

import argparse
import sys
from itertools import combinations_with_replacement
from typing import Iterator, Sequence

from noddy.engine import PRESETS, Rules

from .crib_table import DATA_PATH, Key, dump
from .crib_values import CRIB_SAMPLES, estimate_crib


def patterns(samples: int = CRIB_SAMPLES) -> Iterator[tuple[Key, Rules]]:
    """The key of every entry of the table, in the order the file keeps them, with the
    rules of its preset."""
    for name, rules in PRESETS.items():
        if not rules.has_crib:
            continue
        for players in sorted(set(rules.solo_counts) | set(rules.partnership_counts)):
            size = rules.discards(players)
            for ranks in combinations_with_replacement(range(1, 14), size):
                # Cards of one rank never share a suit; a single card always does.
                suits = (True, False) if len(set(ranks)) == size and size > 1 else (size == 1,)
                for suited in suits:
                    yield (name, players, ranks, suited, samples), rules


def compute_table(samples: int = CRIB_SAMPLES) -> dict[Key, float]:
    """Every preset's crib values, freshly computed, in the order the file keeps them."""
    return {key: estimate_crib(rules, *key[1:]) for key, rules in patterns(samples)}


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true",
                        help="write nothing; exit 1 if the file differs from a fresh computation")
    parser.add_argument("--output", default=DATA_PATH, help=f"the file (default {DATA_PATH})")
    args = parser.parse_args(argv)
    text = dump(compute_table())
    if args.check:
        with open(args.output, encoding="utf-8") as file:
            same = file.read() == text
        print(f"{args.output}: {'up to date' if same else 'differs from a fresh computation'}")
        return 0 if same else 1
    with open(args.output, "w", encoding="utf-8") as out:
        out.write(text)
    print(f"wrote {args.output}: {text.count(chr(10))} lines")
    return 0


if __name__ == "__main__":
    sys.exit(main())
