"""What a name's skeleton costs (issue 31: it is worked out for every hello, tell, challenge
and mute, and a tell compares its target with every session's name).

Prints the time to read the look-alike table (once per process), and per name the time of
:func:`~noddy.protocol.names.skeleton` worked out afresh and as found in its cache.

    python bench/names.py
    python bench/names.py --number 100000
"""

from __future__ import annotations

import argparse
import time
import timeit

from noddy.protocol import names

#: Names of the kinds the server sees: ASCII, accented Latin, other scripts, a lookalike, the longest.
SAMPLES = ["Ann Lyn", "Jürgen Núñez", "Σωκράτης", "李小龙", "\u13aann\ufe0f", "Random Computer Number Twentyone"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--number", type=int, default=200_000, help="calls per measure (default: %(default)s)")
    args = parser.parse_args()
    names.lookalikes.cache_clear()
    start = time.perf_counter()
    names.lookalikes()
    print(f"reading the look-alike table ({len(names.lookalikes())} entries): "
          f"{(time.perf_counter() - start) * 1e3:.2f} ms")
    fresh = names.skeleton.__wrapped__  # type: ignore[attr-defined]
    for name in SAMPLES:
        uncached = min(timeit.repeat(lambda: fresh(name), number=args.number, repeat=3)) / args.number
        cached = min(timeit.repeat(lambda: names.skeleton(name), number=args.number, repeat=3)) / args.number
        print(f"{name!r:40} {uncached * 1e6:6.2f} us afresh  {cached * 1e6:6.2f} us cached")


if __name__ == "__main__":
    main()
