"""Two versions of noddy-server under the same load at the same moment.  Not a test: it prints.

On a shared machine whose speed drifts by more than the change being measured, runs of
``bench/server.py`` taken one after the other (even alternated) disagree by more than a
change of 20 %.  This bench starts both servers together, each with its own load-generator
process playing ``--tables`` two-player noddy tables at full speed (the generators of
``bench/server.py``), so both see the same machine at the same moment; it prints each
server's CPU per round trip and their ratio, round by round, and the median of the ratios.
Both servers share the machine with both generators, so the absolute figures are higher
than a lone server's: read the ratio.  The two swap places every round (odd rounds start
``--before`` first, even rounds ``--after``).  A version against itself gave round ratios
from 0.90 to 1.17 (6 rounds, 50 tables): a few per cent is below what this bench resolves;
count instructions (``bench/instructions.py``) for that.

``--before`` is the Python of the other version: a virtual environment with the other tree
installed, e.g. for a worktree of an older commit::

    git worktree add /tmp/base <commit>
    python -m venv --system-site-packages /tmp/basevenv
    /tmp/basevenv/bin/pip install --no-deps -e /tmp/base
    python bench/side_by_side.py --before /tmp/basevenv/bin/python --tables 50 --rounds 5
"""

from __future__ import annotations

import argparse
import statistics
import sys
import threading
from typing import Any

from server import _load, _start, _stop


def _server_command(python: str) -> list[str]:
    return [python, "-m", "noddy.server.cli", "--host", "127.0.0.1", "--port", "0",
            "--log-level", "WARNING", "--rate", "1000000", "--burst", "1000000",
            "--max-connections-per-address", "0", "--max-tables-per-connection", "0",
            "--max-tables-per-address", "0", "--db", ":memory:"]


def one_round(pythons: dict[str, str], tables: int, seconds: float) -> dict[str, float]:
    """Both servers under load at once; each one's CPU µs per round trip."""
    servers = {name: _start(_server_command(python)) for name, python in pythons.items()}
    results: dict[str, dict[str, Any]] = {}
    try:
        def load(name: str) -> None:
            proc, port = servers[name]
            results[name] = _load("game", port, tables, 1, seconds, proc.pid)

        threads = [threading.Thread(target=load, args=(name,)) for name in pythons]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    finally:
        for proc, _port in servers.values():
            _stop(proc)
    return {name: run["cpu"]["server"] / run["round_trips"] * 1e6 for name, run in results.items()}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--before", required=True, help="the Python of the other version")
    parser.add_argument("--after", default=sys.executable, help="the Python of this version (default: this one)")
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=8.0, help="measured seconds per round")
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args(argv)
    pythons = {"before": args.before, "after": args.after}
    ratios = []
    for number in range(1, args.rounds + 1):
        # The versions take turns at being started first, so that whatever that is worth
        # falls on both alike.
        order = dict(reversed(pythons.items())) if number % 2 == 0 else pythons
        cost = one_round(order, args.tables, args.seconds)
        ratios.append(cost["after"] / cost["before"])
        print(f"round {number}: before {cost['before']:.1f} µs/rt, after {cost['after']:.1f} µs/rt, "
              f"after/before {ratios[-1]:.3f}", flush=True)
    print(f"median after/before {statistics.median(ratios):.3f} (range {min(ratios):.3f}-{max(ratios):.3f}), "
          f"{args.tables} tables, {args.rounds} rounds")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
