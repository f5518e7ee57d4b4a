"""Benchmark of noddy-match throughput: games a second, before and after, against the aims.

Not a test: it prints figures.  Each scenario runs ``noddy-match`` as a child process
``--rounds`` times (the versions alternate, so both meet the same load) and prints every
run's games a second (the figure the command itself prints), their median, and the aim.

    python bench/match_speed.py                       # this tree only
    python bench/match_speed.py --before ecb2cf3      # and the runner of commit ecb2cf3

``--before REF`` builds the tree of git commit REF in a temporary folder laid out as the
installed package (``noddy``, ``noddy/bots``, ``noddy/server``...), and runs
``python -m noddy.bots.match`` there with that folder on ``PYTHONPATH``, so that run, and the
servers and bridges its runner starts with ``python -P -m`` (which leaves the current
directory off the path, not ``PYTHONPATH``), use REF's code, with REF's example bot.  A REF
whose runner had no ``--jobs`` (before issue 25: a server and a bot process a game) plays
without it and a twentieth of the games; a later one plays the very same match as this tree.

**Bytecode.**  An installed package has its modules compiled (``.pyc``); a shell with
``PYTHONDONTWRITEBYTECODE`` set (as the sessions' machine has) makes every process of a match
-- each server, bot and bridge -- compile the package from source as it starts, about 0.3 s
of CPU for a server.  So, when it is set, the runs get a bytecode cache of their own
(``PYTHONPYCACHEPREFIX``, a temporary folder, filled by ``compileall`` and a short untimed
match of each version before the first run -- the standard library's modules are cached
there too; the trees are not written to), as an installed package would have;
``--no-bytecode`` runs in the environment as it is.  The first line printed says which.

Beside games a second (which on a shared machine depend on what else runs), each run's CPU
seconds per game over all its processes -- the runner, its servers, its bots, as the
operating system counts them for waited children -- and the games a second two idle cores
would allow at that cost (at most).

Scenarios (issue 25's aims): the Python example bot against ``greedy``, two-handed Noddy,
``--jobs 2``: >= 100 games/s (4.6 before); the same at Cribbage: >= 25 (2.4); built-in
``greedy`` against ``random`` in this process, Noddy and Cribbage: no slower than before.
Issue 34's: the Python bot at Cribbage, ``--jobs 2``: >= 50 games/s (34 measured before on an
idle machine, with the simpler bot of then).  And the Python example engine through
``noddy-bot`` (``engine:``) at Cribbage, for the bridge's cost beside the bot's (no aim; no
``--before`` run of a REF that did not know ``engine:``), and the Python bot with ``--jobs 1``
at both games (no aim: one server and one bot, for the cost of a game without the overlap).
"""

from __future__ import annotations

import argparse
import os
import re
import resource
import statistics
import subprocess
import sys
import tarfile
import tempfile
import tomllib
from io import BytesIO
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BOT = ROOT / "examples" / "bots" / "python" / "noddy_bot.py"
ENGINE = ROOT / "examples" / "bots" / "python" / "engine.py"
RATE = re.compile(r"^(\d+) games in ([\d.]+) s: ([\d.]+) games/s$", re.M)

#: name, noddy-match arguments, games, aim (games/s, or None: no slower than before).
SCENARIOS = [
    ("python bot vs greedy, noddy, --jobs 2", ["cmd:python " + str(BOT), "greedy", "--jobs", "2"],
     600, 100.0),
    ("python bot vs greedy, cribbage, --jobs 2",
     ["cmd:python " + str(BOT), "greedy", "--preset", "cribbage", "--jobs", "2"], 200, 50.0),
    ("greedy vs random in process, noddy", ["greedy", "random"], 1000, None),
    ("greedy vs random in process, cribbage", ["greedy", "random", "--preset", "cribbage"], 200, None),
    ("python engine (noddy-bot) vs greedy, cribbage, --jobs 2",
     ["engine:python " + str(ENGINE), "greedy", "--preset", "cribbage", "--jobs", "2"], 200, None),
    ("python bot vs greedy, noddy, --jobs 1", ["cmd:python " + str(BOT), "greedy", "--jobs", "1"],
     400, None),
    ("python bot vs greedy, cribbage, --jobs 1",
     ["cmd:python " + str(BOT), "greedy", "--preset", "cribbage", "--jobs", "1"], 200, None),
]


def build_tree(ref: str, into: Path) -> Path:
    """Commit ``ref``'s tree laid out as the installed package under ``into``; the folder
    to run ``python -m noddy...`` from."""
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", ref], capture_output=True,
                             check=True).stdout
    source = into / "source"
    with tarfile.open(fileobj=BytesIO(archive)) as tar:
        tar.extractall(source, filter="data")
    dirs = tomllib.loads((source / "pyproject.toml").read_text())["tool"]["setuptools"]["package-dir"]
    run_from = into / "run"
    for package, folder in sorted(dirs.items()):
        target = run_from.joinpath(*package.split("."))
        target.parent.mkdir(parents=True, exist_ok=True)
        target.symlink_to(source / folder, target_is_directory=True)
    return run_from


def _cpu() -> float:
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def knows(tree: Path, word: str) -> bool:
    """Whether the runner of a tree built by :func:`build_tree` knows ``word`` (an option
    such as ``--jobs``, a player prefix such as ``engine:``)."""
    bots = tree / "noddy" / "bots"
    return any(word in path.read_text(encoding="utf-8") for path in bots.glob("*.py"))


def bytecode_cache(into: Path, trees: list[Path]) -> dict[str, str]:
    """The environment of a run with a bytecode cache of its own under ``into``, as an
    installed package has (see the module doc), filled for ``trees`` now."""
    env = {key: value for key, value in os.environ.items() if key != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPYCACHEPREFIX"] = str(into)
    for tree in trees:
        subprocess.run([sys.executable, "-m", "compileall", "-q", "-x", r"[/\\]\.venv[/\\]", str(tree)],
                       env=env, check=True, capture_output=True)
    return env


def run(args: list[str], games: int, cwd: Path | None,
        base_env: dict[str, str] | None = None) -> tuple[float, float]:
    """One match's games a second, as noddy-match printed it, and the CPU seconds a game
    took in all its processes (the runner, its servers and bots, each waited for)."""
    command = [sys.executable, "-m", "noddy.bots.match", *args, "--games", str(games), "--seed", "3"]
    env = dict(base_env if base_env is not None else os.environ)
    if cwd is not None:  # a tree of before: on the path of the runner and every child it starts
        env["PYTHONPATH"] = str(cwd)
    before = _cpu()
    done = subprocess.run(command, capture_output=True, text=True, cwd=cwd, env=env, timeout=1800)
    cpu = (_cpu() - before) / games
    found = RATE.search(done.stdout)
    if done.returncode != 0 or found is None:
        raise RuntimeError(f"{' '.join(command)} failed:\n{done.stdout}\n{done.stderr}")
    return float(found.group(1)) / float(found.group(2)), cpu


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--before", metavar="REF", help="also run commit REF's noddy-match")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--scale", type=float, default=1.0, help="multiply every game count")
    parser.add_argument("--only", type=int, nargs="*", help="scenario numbers to run (from 1)")
    parser.add_argument("--no-bytecode", action="store_true",
                        help="no bytecode cache of the runs' own (see the module doc)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as temporary:
        before = build_tree(args.before, Path(temporary)) if args.before else None
        versions = ([("before", before)] if before else []) + [("after", None)]
        env: dict[str, str] | None = None
        if os.environ.get("PYTHONDONTWRITEBYTECODE") and not args.no_bytecode:
            trees = [ROOT] + ([before] if before else [])  # the paths modules are imported by
            env = bytecode_cache(Path(temporary) / "pycache", trees)
            print("PYTHONDONTWRITEBYTECODE is set: the runs use a bytecode cache of their own")
        else:
            print("bytecode: the environment's own" + (" (PYTHONDONTWRITEBYTECODE is set: "
                  "every process compiles from source)" if os.environ.get("PYTHONDONTWRITEBYTECODE") else ""))
        for label, cwd in versions if env is not None else []:  # the cache filled: untimed
            for _, match_args, _, _ in SCENARIOS[1:5:3]:  # a cmd: bot and an engine: one
                if cwd is None or knows(cwd, match_args[0].split(":")[0] + ":"):
                    given = [a.replace(str(ROOT), str(cwd.parent / "source")) if cwd else a
                             for a in match_args[:2]]
                    run(given, 2, cwd, env)
        for number, (name, match_args, games, aim) in enumerate(SCENARIOS, start=1):
            if args.only and number not in args.only:
                continue
            games = max(2, int(games * args.scale) // 2 * 2)
            # An engine: player is new: a runner of before may not know it.
            here = [(label, cwd) for label, cwd in versions
                    if cwd is None or not match_args[0].startswith("engine:") or knows(cwd, "engine:")]
            rates: dict[str, list[float]] = {label: [] for label, _ in here}
            cpus: dict[str, list[float]] = {label: [] for label, _ in here}
            for _ in range(args.rounds):
                for label, cwd in here:
                    # A runner without --jobs gave each game a server: fewer games keep it short.
                    old = cwd is not None and "cmd:" in match_args[0] and not knows(cwd, "--jobs")
                    n = max(2, games // 20 // 2 * 2) if old else games
                    given = match_args
                    if cwd is not None:  # its own example bot
                        given = [a.replace(str(ROOT), str(cwd.parent / "source")) for a in match_args[:2]] \
                            + match_args[2:]
                        if old:  # (nor had it --jobs: each game was its own server, one at a time)
                            given = given[:2] + [a for a in given[2:] if a not in ("--jobs", "1", "2")]
                    rate, cpu = run(given, n, cwd, env)
                    rates[label].append(rate)
                    cpus[label].append(cpu)
            print(f"{number}. {name} ({games} games a run after)")
            medians = {}
            for label, values in rates.items():
                medians[label] = statistics.median(values)
                runs = " · ".join(f"{v:.1f}" for v in values)
                cpu = statistics.median(cpus[label])
                print(f"   {label:6}: {runs}  median {medians[label]:.1f} games/s; CPU "
                      f"{cpu * 1e3:.1f} ms a game in all processes (2 idle cores: "
                      f"<= {2 / cpu:.0f} games/s)")
            if "before" in medians:  # CPU a game: the steadier figure on a shared machine
                print(f"   after/before: games/s {medians['after'] / medians['before']:.2f}, CPU a game "
                      f"{statistics.median(cpus['after']) / statistics.median(cpus['before']):.2f}")
            if aim is not None:
                verdict = "met" if medians["after"] >= aim else "NOT met"
                print(f"   aim >= {aim:g} games/s: {verdict}")
            elif "before" in medians:
                print("   aim: no slower than before")
            sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
