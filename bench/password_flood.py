"""The password flood of issue 31, run against a real ``noddy-server``: what it does to two
people playing computers, and how many guesses at one registered name it gets checked.
Not a test: it prints.

The server runs as its own process with a database file (in a temporary folder) and its
default limits, listening on 127.0.0.1.  In setup the name ``victim`` is registered, and two
people (guests, from 127.0.0.1) each open a table, add a computer, say ready and play: each
``turn`` that offers them something is answered ``--think`` seconds later with one of its
legal actions, and each action is timed until its direct reply (``ok``, or an error).  A
third connection sends ``ping`` after ``ping`` (one at a time) and a fourth ``list_games``
once a second, each timed until its reply.

The flood, as it was found from outside, comes from a child process (so that its work does
not delay the players' loop): from each of ``--addresses`` loopback source addresses
(127.0.0.2, 127.0.0.3, ...: the client socket is bound to it before connecting; all of
127.0.0.0/8 is loopback on Linux), ``--per-address`` connections, half of them saying
``hello`` as ``victim`` with a wrong password again and again, the other half each
registering a new name and then changing its password back and forth.  Each connection has
one request in flight and waits a refusal's ``retry_after`` before the next (an attacker who
wants his guesses checked does); one the server closes is opened again, at most
``MAX_OPENINGS`` times (see ``bench/password_flood_attack.py``).  It lasts ``--seconds``.

Printed, for the quiet phase before the flood (``--quiet-seconds``), the flood, and as long
a phase after it (from when the flood has hung up): the players' action -> reply p50/p99,
``ping`` -> ``pong`` p50/p99, ``list_games`` -> ``games`` (each request counted in the phase
it was sent in), the server's resident memory (VmRSS, from ``/proc/PID/status``) and open
descriptors (``/proc/PID/fd``) at the phase's end and at their peak, and its CPU use, all
threads and the event loop's thread alone (a loop that answers nothing while using little
CPU is blocked, not busy); then the guesses checked at
``victim`` (each ``bad_password`` reply is one checked guess; ``rate_limited``,
``too_many_attempts`` and ``busy`` are refusals without a check), every error code seen,
and the two aims of the issue beside the figures.  Every wait has a deadline, so the run
stops by itself; a request unanswered by the end of the run is reported as such and counted
in the percentiles at its wait so far (a lower bound).

    python bench/password_flood.py                     # 50 addresses x 20 connections, 30 s
    python bench/password_flood.py --seconds 20 --quiet-seconds 5
    python bench/password_flood.py --quick             # a smoke run of a few seconds
    python bench/password_flood.py --server-args="--rate 40"
    python bench/password_flood.py --server-rev 0f2e65f  # the server of another commit

Run it with the interpreter of the server to measure (a venv with another checkout measures
that one): the server is ``python -m noddy.server.cli`` of the same interpreter.
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import math
import os
import random
import shlex
import subprocess
import sys
import tempfile
import threading
from pathlib import Path
from typing import Any

from core_diff import package_tree  # a commit laid out as the installed package
from hostile import Client
from human import _raise_fd_limit, _stop
from load_common import BUCKET, cpu_seconds, generator_results, percentile
from password_flood_attack import HOST, VICTIM, ask, connect, pause, register_victim
from server import _rss_kib

ATTACK = os.path.join(os.path.dirname(os.path.abspath(__file__)), "password_flood_attack.py")
#: The quiet phase, the flood, and the phase after it, in this order.
PHASES = ("before", "during", "after")
#: Seconds the server's start and the setup (the victim's account, the tables) may take.
SETUP_TIMEOUT = 60.0
#: Seconds the flood's child may take beyond ``--seconds`` to hang up and report.
WIND_DOWN = 30.0
#: Seconds between two pings, two ``list_games`` and two samples of the server's memory:
#: often enough for percentiles over a phase, rarely enough not to be a load themselves.
PING_INTERVAL, LIST_INTERVAL, SAMPLE_INTERVAL = 0.1, 1.0, 0.25
#: The aims of issue 31: p99 during the flood under this many times its quiet value, and
#: at most this many guesses at one name checked per 15 minutes from any number of addresses.
P99_FACTOR, GUESSES_AIM, AIM_WINDOW = 3.0, 10, 15 * 60.0
#: Figures of ``--quick`` (a smoke run), each unless given.
QUICK = {"addresses": 4, "per_address": 4, "seconds": 3.0, "quiet_seconds": 2.0}
FULL = {"addresses": 50, "per_address": 20, "seconds": 30.0, "quiet_seconds": 10.0}


class Timings:
    """Request -> reply times by the phase the request was sent in, and the waits of those
    unanswered when the run ended (counted in the percentiles: a lower bound of theirs)."""

    def __init__(self) -> None:
        self.answered: dict[str, list[float]] = collections.defaultdict(list)
        self.unanswered: dict[str, list[float]] = collections.defaultdict(list)

    def quantile(self, phase: str, fraction: float) -> float:
        every = self.answered[phase] + self.unanswered[phase]
        return percentile(collections.Counter(int(t / BUCKET) for t in every), fraction)

    def line(self, phase: str) -> str:
        done, open_ = self.answered[phase], self.unanswered[phase]
        p50, p99 = (self.quantile(phase, q) * 1000 for q in (0.5, 0.99))
        text = f"{len(done):5d} answered, p50 {p50:9.1f} ms, p99 {p99:9.1f} ms"
        if open_:
            text += f"; {len(open_)} unanswered at the end (waited up to {max(open_):.1f} s)"
        return text


class Run:
    """What the parent measures: the phase now (None between the flood and the phase after
    it), the timings and the server's samples by phase, the error codes by who saw them."""

    def __init__(self) -> None:
        self.phase: str | None = "before"
        self.actions, self.pings, self.lists = Timings(), Timings(), Timings()
        self.errors: dict[str, collections.Counter[str]] = collections.defaultdict(collections.Counter)
        self.rss: dict[str, list[int]] = collections.defaultdict(list)
        self.fds: dict[str, list[int]] = collections.defaultdict(list)
        #: (when, the process's CPU seconds, its event loop thread's) at each sample.
        self.cpu: dict[str, list[tuple[float, float, float]]] = collections.defaultdict(list)
        self.games = 0


class Player:
    """A person at a table against a computer: acts ``think`` seconds after a turn offers
    something, says ready again after each game, and times each action until its reply."""

    def __init__(self, run: Run, client: Client, rng: random.Random, think: float) -> None:
        self.run, self.client, self.rng, self.think = run, client, rng, think
        self.turn: dict[str, Any] | None = None   # the turn to answer, once its time comes
        self.act_at: float | None = None
        #: The action awaiting its reply: (id, sent at, phase it was sent in).
        self.pending: tuple[int, float, str | None] | None = None

    async def play(self, end: float) -> None:
        loop = asyncio.get_running_loop()
        self.client.send({"type": "snapshot"})
        while (left := end - loop.time()) > 0:
            if self.pending is None and self.act_at is not None:
                left = min(left, self.act_at - loop.time())
            if left > 0:
                try:
                    self._take(await asyncio.wait_for(self.client.recv(), left), loop.time())
                except asyncio.TimeoutError:
                    pass
            if self.pending is None and self.act_at is not None and loop.time() >= self.act_at:
                self._act(loop.time())

    def _take(self, message: dict[str, Any], now: float) -> None:
        kind = message["type"]
        if kind == "error":
            self.run.errors["players"][message["code"]] += 1
        if self.pending is not None and message.get("id") == self.pending[0]:
            _, sent, phase = self.pending
            self.pending = None
            if phase is not None:
                self.run.actions.answered[phase].append(now - sent)
            if kind == "error":  # a stale turn, or the rate: look again
                self.client.send({"type": "snapshot"})
            return
        if kind == "event" and message["event"]["kind"] == "game_over":
            self.run.games += 1
            self.turn = self.act_at = None
            self.client.send({"type": "ready"})
        turn = message if kind == "turn" else message.get("turn") if kind == "snapshot" else None
        if turn is not None:
            self.turn = turn if turn.get("legal_actions") else None
            self.act_at = now + self.think if self.turn is not None else None

    def _act(self, now: float) -> None:
        assert self.turn is not None
        action = dict(self.rng.choice(self.turn["legal_actions"]))
        action.pop("seat", None)
        self.turn = self.act_at = None
        self.pending = (self.client.send({"type": "action", **action}), now, self.run.phase)


class Probe:
    """Sends one request again and again, one at a time, timing each until its reply."""

    def __init__(self, run: Run, client: Client, request: dict[str, Any], timings: Timings,
                 interval: float) -> None:
        self.run, self.client, self.request, self.timings, self.interval = run, client, request, timings, interval
        #: The request awaiting its reply: (sent at, phase it was sent in).
        self.pending: tuple[float, str | None] | None = None

    async def run_until(self, end: float) -> None:
        loop = asyncio.get_running_loop()
        while loop.time() < end:
            self.pending = (loop.time(), self.run.phase)
            reply = await ask(self.client, self.request, end, self.run.errors["probes"])
            sent, phase = self.pending
            if reply is None:
                return
            self.pending = None
            if phase is not None:
                self.timings.answered[phase].append(loop.time() - sent)
            if reply["type"] == "error":
                self.run.errors["probes"][reply["code"]] += 1
            await pause(self.interval, end)


def _loop_cpu_seconds(pid: int) -> float:
    """CPU time so far of the process's main thread, which runs the server's event loop."""
    with open(f"/proc/{pid}/task/{pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


async def sample(run: Run, pid: int, end: float) -> None:
    """The server's resident memory (KiB), open descriptors and CPU time, by phase."""
    loop = asyncio.get_running_loop()
    while loop.time() < end:
        if run.phase is not None:
            run.rss[run.phase].append(_rss_kib(pid))
            run.fds[run.phase].append(len(os.listdir(f"/proc/{pid}/fd")))
            run.cpu[run.phase].append((loop.time(), cpu_seconds(pid), _loop_cpu_seconds(pid)))
        await pause(SAMPLE_INTERVAL, end)


async def hello(port: int, name: str, deadline: float, then: tuple[dict[str, Any], ...] = ()) -> Client:
    """A connection from 127.0.0.1 that said hello as ``name`` and then made ``then``."""
    client = await connect(port, HOST, deadline)
    if client is None:
        raise SystemExit(f"{name} could not connect")
    for request in ({"type": "hello", "name": name, "version": 1}, *then):
        reply = await ask(client, request, deadline)
        if reply is None or reply["type"] == "error":
            raise SystemExit(f"{name}'s {request['type']} failed: {reply}")
    return client


async def measure(args: argparse.Namespace, port: int, pid: int, child: subprocess.Popen[str]) -> tuple[Run, dict[str, Any]]:
    """The three phases: players, probes and samples all along, the flood in the middle."""
    loop = asyncio.get_running_loop()
    run = Run()
    deadline = loop.time() + SETUP_TIMEOUT
    await register_victim(port, deadline)
    table = ({"type": "create_table", "preset": "noddy"}, {"type": "add_computer"}, {"type": "ready"})
    players = [Player(run, await hello(port, f"player{n}", deadline, table), random.Random(n), args.think)
               for n in (1, 2)]
    probes = [Probe(run, await hello(port, "pinger", deadline), {"type": "ping"}, run.pings, PING_INTERVAL),
              Probe(run, await hello(port, "lister", deadline), {"type": "list_games", "name": "player1",
                                                                  "limit": 5}, run.lists, LIST_INTERVAL)]
    # The longest the run might take: the tasks are cancelled when it ends, sooner.
    end = loop.time() + 2 * args.quiet_seconds + args.seconds + WIND_DOWN
    tasks = [asyncio.create_task(p.play(end)) for p in players]
    tasks += [asyncio.create_task(p.run_until(end)) for p in probes]
    tasks.append(asyncio.create_task(sample(run, pid, end)))
    await asyncio.sleep(args.quiet_seconds)
    run.phase = "during"
    assert child.stdin is not None
    child.stdin.write("GO\n")
    child.stdin.flush()
    await asyncio.sleep(args.seconds)
    run.phase = None  # the flood hangs up: neither during nor after
    result = await asyncio.to_thread(lambda: next(generator_results([child])))
    run.phase = "after"
    await asyncio.sleep(args.quiet_seconds)
    now = loop.time()
    for task in tasks:
        task.cancel()
    for outcome in await asyncio.gather(*tasks, return_exceptions=True):
        if isinstance(outcome, Exception):  # a player or probe that failed: the figures would lie
            raise RuntimeError("a player or probe failed") from outcome
    for player in players:  # what was still waiting when the run ended
        if player.pending is not None and player.pending[2] is not None:
            run.actions.unanswered[player.pending[2]].append(now - player.pending[1])
    for probe in probes:
        if probe.pending is not None and probe.pending[1] is not None:
            probe.timings.unanswered[probe.pending[1]].append(now - probe.pending[0])
    for client in [p.client for p in players] + [p.client for p in probes]:
        client.writer.close()
    return run, result


def _watched(argv: list[str], seconds: float, first_line: str, **popen: Any) -> tuple[subprocess.Popen[str], str, threading.Timer]:
    """Start a process and read its first line, which must start with ``first_line``; it is
    killed if it outlives ``seconds`` (the returned timer: cancel it once it has ended), so
    that no read of its output waits forever."""
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, text=True, **popen)
    watchdog = threading.Timer(seconds, proc.kill)
    watchdog.daemon = True
    watchdog.start()
    assert proc.stdout is not None
    line = proc.stdout.readline()
    if not line.startswith(first_line):
        proc.kill()
        watchdog.cancel()
        raise SystemExit(f"{argv[1]} did not start (it said {line!r})")
    return proc, line, watchdog


def _report(args: argparse.Namespace, run: Run, flood: dict[str, Any], log_lines: int) -> None:
    connections = args.addresses * args.per_address
    print(f"password flood: {args.addresses} addresses x {args.per_address} connections ({connections - connections // 2} "
          f"guessing at {VICTIM!r}, {connections // 2} registering names and changing passwords) "
          f"for {flood['seconds']:.1f} s, {args.quiet_seconds:g} s before and after; server "
          f"{'of commit ' + args.server_rev if args.server_rev else 'of this checkout'} with --db, "
          f"default limits {args.server_args}".rstrip())
    rows = (("action -> reply", run.actions), ("ping -> pong", run.pings), ("list_games -> games", run.lists))
    for what, timings in rows:
        for phase in PHASES:
            print(f"{what:<20} {phase:<6}  {timings.line(phase)}")
    print(f"{'':<20} (the two players finished {run.games} games)")
    for what, samples, unit in (("server RSS", run.rss, 1024), ("open descriptors", run.fds, 1)):
        parts = [f"{phase} {samples[phase][-1] / unit:.1f} (peak {max(samples[phase]) / unit:.1f})"
                 if samples[phase] else f"{phase} -" for phase in PHASES]
        print(f"{what:<20} " + ", ".join(parts) + (" MiB" if unit > 1 else ""))
    parts = []
    for phase in PHASES:
        samples = run.cpu[phase]
        wall = samples[-1][0] - samples[0][0] if len(samples) > 1 else 0.0
        parts.append(f"{phase} {100 * (samples[-1][1] - samples[0][1]) / wall:.0f}% "
                     f"(event loop {100 * (samples[-1][2] - samples[0][2]) / wall:.0f}%)" if wall else f"{phase} -")
    print(f"{'server CPU':<20} " + ", ".join(parts) + " of a core")
    guesses = collections.Counter(flood["guesses"])
    checked = guesses.get("bad_password", 0)
    per_window = checked / flood["seconds"] * AIM_WINDOW if flood["seconds"] else float("nan")
    print(f"guesses checked      {checked} at {VICTIM!r} in {flood['seconds']:.1f} s (bad_password replies), "
          f"{per_window:.0f} per 15 minutes at this rate")
    print(f"guess replies        {_counts(guesses)}   (bad_password: checked; rate_limited, "
          f"too_many_attempts, busy: refused unchecked)")
    print(f"register/change      {_counts(collections.Counter(flood['changes']))}")
    print(f"flood connections    opened {flood['opened']}, closed by the server {flood['closed_by_server']}, "
          f"failed to connect {flood['failed_connects']}, requests unanswered at the end {flood['unanswered']}")
    print(f"error codes          flood: {_counts(collections.Counter(flood['errors']))}; players: "
          f"{_counts(run.errors['players'])}; probes: {_counts(run.errors['probes'])}")
    print(f"server log           {log_lines} lines at WARNING or above")
    quiet, during = run.actions.quantile("before", 0.99), run.actions.quantile("during", 0.99)
    met = "met" if during < P99_FACTOR * quiet else "NOT MET"
    print(f"aim: action -> reply p99 during the flood under {P99_FACTOR:g}x its quiet value "
          f"({P99_FACTOR:g} x {quiet * 1000:.1f} ms = {P99_FACTOR * quiet * 1000:.1f} ms): "
          f"{during * 1000:.1f} ms, {met}")
    # A run of S seconds overlaps at most ceil(S / 15 min) windows of 15 minutes: more checked
    # guesses than they allow break the aim; a run shorter than the window whose guesses came
    # in a burst cannot show it kept (extrapolated, a burst looks like a rate).
    allowed = GUESSES_AIM * max(1, math.ceil(flood["seconds"] / AIM_WINDOW))
    if checked > allowed:
        verdict = "NOT MET (more within this run alone)"
    elif per_window <= GUESSES_AIM or flood["seconds"] >= AIM_WINDOW:
        verdict = "met"
    else:
        verdict = (f"unsure: within the aim in this run, above it at this rate for 15 minutes "
                   f"(--seconds {AIM_WINDOW:.0f} or more settles it)")
    print(f"aim: at most {GUESSES_AIM} guesses at one name checked per 15 minutes from any number of "
          f"addresses: {checked} in {flood['seconds']:.1f} s, {per_window:.0f} per 15 minutes, {verdict}")


def _counts(counter: collections.Counter[str]) -> str:
    return ", ".join(f"{key} {n}" for key, n in counter.most_common()) or "none"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--addresses", type=int, help=f"source addresses of the flood (default {FULL['addresses']}; "
                        "127.0.0.2 onwards)")
    parser.add_argument("--per-address", type=int, help=f"connections from each (default {FULL['per_address']})")
    parser.add_argument("--seconds", type=float, help=f"the flood's length (default {FULL['seconds']:g})")
    parser.add_argument("--quiet-seconds", type=float,
                        help=f"the length of the phases before and after it (default {FULL['quiet_seconds']:g})")
    parser.add_argument("--quick", action="store_true", help="a smoke run: " + ", ".join(
        f"{key.replace('_', '-')} {value:g}" for key, value in QUICK.items()) + " unless given")
    parser.add_argument("--think", type=float, default=0.25, help="seconds a player takes to act (default 0.25)")
    parser.add_argument("--server-args", default="", help="more noddy-server flags, as one string")
    parser.add_argument("--server-rev", metavar="REV",
                        help="run commit REV's server (from git archive) instead of this checkout's")
    args = parser.parse_args(argv)
    for key, value in (QUICK if args.quick else FULL).items():
        if getattr(args, key) is None:
            setattr(args, key, value)
    if not 1 <= args.addresses <= 250 or args.per_address < 1 or args.seconds <= 0 or args.quiet_seconds <= 0:
        parser.error("--addresses 1-250, --per-address at least 1, --seconds and --quiet-seconds above 0")
    _raise_fd_limit(2 * args.addresses * args.per_address + 1024)  # the server and the flood inherit it
    budget = SETUP_TIMEOUT + 2 * args.quiet_seconds + args.seconds + 2 * WIND_DOWN
    with tempfile.TemporaryDirectory() as folder:
        log_path = os.path.join(folder, "server.log")
        env = dict(os.environ)
        if args.server_rev:
            env["PYTHONPATH"] = str(package_tree(args.server_rev, Path(folder) / "tree"))
        with open(log_path, "w") as log:
            # Not from this folder: ``-m`` puts the working folder first on the path, where the
            # tree's own ``noddy`` folder would shadow the installed package.
            server, line, server_watch = _watched(
                [sys.executable, "-m", "noddy.server.cli", "--host", HOST, "--port", "0",
                 "--db", os.path.join(folder, "flood.sqlite3"), "--log-level", "WARNING",
                 *shlex.split(args.server_args)], budget + WIND_DOWN, "noddy-server listening on ",
                stderr=log, cwd=folder, env=env)
        port = int(line.rsplit(":", 1)[1])
        try:
            child, _, child_watch = _watched(
                [sys.executable, ATTACK, str(port), str(args.addresses), str(args.per_address), str(args.seconds)],
                budget, "SETUP", stdin=subprocess.PIPE)
            try:
                run, flood = asyncio.run(measure(args, port, server.pid, child))
            finally:
                child.kill()
                child.wait()
                child_watch.cancel()
        finally:
            _stop(server)
            server_watch.cancel()
        with open(log_path) as log:
            log_lines = sum(1 for _ in log)
    _report(args, run, flood, log_lines)
    return 0


if __name__ == "__main__":
    sys.exit(main())
