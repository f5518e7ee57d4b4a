"""Machine instructions the server executes per game action, counted by valgrind.  Not a test: it prints.

On a shared machine whose speed drifts within minutes, CPU times of two versions disagree
by more than a change of 10 % (see bench/RESULTS.md).  Instructions do not drift: this bench
runs ``bench/inprocess.py`` (a real server with fake transports and bots) under
``valgrind --tool=cachegrind`` for two numbers of actions, and the difference, divided by
the difference in actions, is the instructions per action of the steady state, start-up and
table set-up left out.  It counts everything in the process, the bots' share too (reading
~9 lines of JSON per action and choosing a move): the same for every version of the server,
so compare versions by their difference, not their ratio.  Instructions are not time (a
cache miss costs more than an add), but the same work gives the same count on any machine.

Needs valgrind (``apt install valgrind``); ~20 s per 1,000 actions.

    python bench/instructions.py                              # this tree, noddy
    python bench/instructions.py --python /tmp/base/venv/bin/python --python python
    python bench/instructions.py --preset cribbage --actions 2000 6000
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def instructions(python: str, preset: str, actions: int, tables: int) -> int:
    """Instructions valgrind counted for a whole run of inprocess.py with ``actions``."""
    # The real interpreter, not a shim script that execs it (valgrind would count the shell).
    real = subprocess.run([python, "-c", "import sys; print(sys.executable)"], capture_output=True,
                          text=True, check=True).stdout.strip()
    bench = os.path.join(_tree_of(python), "bench", "inprocess.py")
    done = subprocess.run(["valgrind", "--tool=cachegrind", "--cache-sim=no", "--cachegrind-out-file=/dev/null",
                           real, bench, "--repeat", "1", "--actions", str(actions), "--tables", str(tables),
                           "--preset", preset], capture_output=True, text=True, cwd="/")
    found = re.search(r"I\s+refs:\s+([\d,]+)", done.stderr)
    if done.returncode != 0 or found is None:
        raise RuntimeError(f"valgrind run failed:\n{done.stderr[-2000:]}")
    return int(found.group(1).replace(",", ""))


def _tree_of(python: str) -> str:
    """The source tree the Python's noddy comes from (its bench/ is the one to run)."""
    out = subprocess.run([python, "-c", "import noddy.server, os; print(os.path.dirname(noddy.server.__file__))"],
                         capture_output=True, text=True, check=True, cwd="/").stdout.strip()
    return os.path.dirname(out)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--python", action="append", help="a Python with a noddy tree installed "
                        "(repeat to compare versions; default: this one)")
    parser.add_argument("--preset", default="noddy")
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--actions", type=int, nargs=2, default=[2000, 6000], metavar=("FEW", "MANY"))
    args = parser.parse_args(argv)
    if shutil.which("valgrind") is None:
        print("valgrind is not installed: nothing to count", file=sys.stderr)
        return 1
    few, many = args.actions
    figures = {}
    for python in args.python or [sys.executable]:
        counts = [instructions(python, args.preset, n, args.tables) for n in (few, many)]
        figures[python] = (counts[1] - counts[0]) / (many - few)
        print(f"{python} ({_tree_of(python)}): {figures[python]:,.0f} instructions per {args.preset} action "
              f"(steady state, actions {few}..{many}, {args.tables} tables)", flush=True)
    if len(figures) > 1:
        first, *rest = figures.values()
        for python, figure in list(figures.items())[1:]:
            print(f"{python}: {figure - first:+,.0f} per action against the first ({figure / first - 1:+.1%} of "
                  f"the whole process, bots included)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
