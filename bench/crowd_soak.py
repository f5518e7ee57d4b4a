"""A memory soak of the server under a crowd like a busy evening's (issue 37): the figure to quote.

Not a test: it prints figures.  Like ``bench/memory_soak.py`` it starts ``noddy-server`` as a
process of its own (its database a file in a scratch directory; this checkout, or a commit
with ``--against REV`` first), but the clients are a mixed population, from ``--addresses``
loopback addresses (127.0.0.1 .. 127.0.0.N):

- ``--tables`` tables at once, each playing game after game (a new table each game): 1 to 4
  people (the rest fast computers, ``random``/``greedy``) over every preset, targets 15 ..
  ``--max-target``; some tables with the coach (its people ask a hint at each decision), some
  counting by hand (claims drawn at random: over-claims refused, muggins called or passed),
  some private (a password), some with a 3-6 s turn timer (where a person now and then lets
  it run out);
- ``--idle`` connections that say hello and stay in the lobby, answering pings; some of them
  chat, ``--chat`` lines a second over all;
- ``--spectators`` that watch a playing table (private ones with the password) for a while,
  a quarter of them dropping their connection and resuming with their token, then leave;
- ``--readers`` that ask ``get_game``, ``list_games`` and ``leaderboard`` every 3-5 s;
- seated people's connections dropped at ``--drops`` a second, three quarters of them
  resuming within the grace period (the others never come back: a computer stands in).

The server's resident memory (``VmRSS``) is read every second; printed are the growth per
1,000 games (least squares of RSS on games finished, after ``--warmup`` games) and how far
above the start it stands ``--settle`` seconds after every client has left.  ``--tracemalloc
PREFIX`` runs the server under tracemalloc and has it dump snapshots (at warm-up, at the end,
after everyone left) to PREFIX.N, and prints the top growth between them.

    python bench/crowd_soak.py                       # 1,000 games after warm-up
    python bench/crowd_soak.py --games 2000 --tables 150 --warmup 300   # the figure to quote
    python bench/crowd_soak.py --games 2000 --tables 150 --warmup 300 --against main  # before, after
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from core_diff import package_tree  # a commit laid out as the installed package
from memory_soak import PRESETS, rss_mb

FAST = ("random", "greedy")
MANUAL_OK = ("noddy-modern", "five-card-cribbage", "cribbage")
PLAYERS = {"noddy": (2,), "noddy-ducoeur": (2,), "noddy-holme": (2,), "noddy-modern": (2,),
           "five-card-cribbage": (2,), "cribbage": (2, 3, 4)}
#: The server, with tracemalloc snapshots on SIGUSR1 when NODDY_TRACE names a file prefix.
SERVER = """
import os, signal, sys
prefix = os.environ.get("NODDY_TRACE")
if prefix:
    import tracemalloc
    tracemalloc.start(8)
    count = [0]
    def dump(*_):
        count[0] += 1
        tracemalloc.take_snapshot().dump(f"{prefix}.{count[0]}")
    signal.signal(signal.SIGUSR1, dump)
from noddy.server.cli import main
sys.exit(main(sys.argv[1:]))
"""


class Client:
    """One connection: JSON lines, pings answered, replies matched by id."""

    def __init__(self, crowd: "Crowd", name: str) -> None:
        self.crowd = crowd
        self.name = name
        self.address = crowd.address()
        self.next_id = 0
        self.token = ""
        self.reader: asyncio.StreamReader
        self.writer: asyncio.StreamWriter

    async def open(self, resume: str | None = None) -> dict[str, Any]:
        self.reader, self.writer = await asyncio.open_connection(
            "127.0.0.1", self.crowd.port, limit=1 << 22, local_addr=(self.address, 0))
        await self.recv()  # the greeting
        hello: dict[str, Any] = {"type": "hello", "name": self.name, "version": 1}
        if resume:
            hello["resume"] = resume
        welcome = await self.request(hello)
        self.token = welcome.get("token", self.token)
        return welcome

    def send(self, message: dict[str, Any]) -> int:
        self.next_id += 1
        self.writer.write(json.dumps({**message, "id": self.next_id}).encode() + b"\n")
        return self.next_id

    async def recv(self) -> dict[str, Any]:
        line = await self.reader.readline()
        if not line:
            raise EOFError(self.name)
        message = json.loads(line)
        if message.get("type") == "ping":
            self.writer.write(b'{"type":"pong"}\n')
        return message

    async def request(self, message: dict[str, Any], errors: bool = False) -> dict[str, Any]:
        rid = self.send(message)
        while True:
            reply = await self.recv()
            if reply.get("id") == rid:
                if reply["type"] == "error" and not errors:
                    raise RuntimeError(f"{self.name} {message['type']}: {reply}")
                return reply

    def close(self) -> None:
        try:
            self.writer.transport.abort()
        except Exception:
            pass


class Person(Client):
    """A person at a table: plays each turn (asking the coach first at a coached table)."""

    def __init__(self, crowd: "Crowd", name: str, hints: bool, timer: bool) -> None:
        super().__init__(crowd, name)
        self.hints = hints
        self.timer = timer
        self.seat = 0
        self.dropped = False  # set by the dropper before it aborts the connection
        self.rng = crowd.rng

    async def play(self) -> None:
        """Until game over; a dropped connection resumes (3 in 4) or gives up."""
        while True:
            try:
                await self._play()
                return
            except (EOFError, ConnectionError, OSError):
                if not self.dropped:
                    raise
                self.crowd.seated.discard(self)
                if self.rng.random() >= 0.75:
                    self.crowd.gone += 1
                    return
                await asyncio.sleep(self.rng.uniform(0.2, 2.0))
                self.dropped = False
                await self.open(resume=self.token)
                self.crowd.resumed += 1
                self.crowd.seated.add(self)

    async def _play(self) -> None:
        rng = self.rng
        while True:
            message = await self.recv()
            kind = message["type"]
            if kind == "event" and message["event"]["kind"] == "game_over":
                return
            if kind == "table_closed":
                return
            turn = message.get("turn") if kind == "snapshot" else message if kind == "turn" else None
            if not turn or self.seat not in turn.get("awaiting", ()):
                continue
            legal = turn["legal_actions"]
            if self.timer and rng.random() < 0.03:
                continue  # let the turn timer play this one
            if self.crowd.args.think:
                await asyncio.sleep(rng.uniform(0, 2 * self.crowd.args.think))
            if self.hints and legal and "min" not in legal[0]:
                self.send({"type": "hint"})
            choice = dict(rng.choice(legal))
            if "min" in choice:
                points = rng.randint(choice["min"], min(choice["max"], choice["min"] + 12))
                choice = {"action": choice["action"], "points": points}
            self.send({"type": "action", **choice})


class Crowd:
    """Everyone of one run (see the module docstring)."""

    def __init__(self, port: int, args: argparse.Namespace) -> None:
        self.port = port
        self.args = args
        self.rng = random.Random(args.seed)
        self.games = 0
        self.serial = 0
        self.seated: set[Person] = set()
        self.finished: list[int] = []  # game ids, for the readers
        self.playing: dict[int, str | None] = {}  # table -> password
        self.stop = asyncio.Event()
        self.gone = self.resumed = self.drops = 0
        self.lobby: list[Client] = []

    def address(self) -> str:
        return f"127.0.0.{self.rng.randint(1, self.args.addresses)}"

    def name(self, what: str) -> str:
        self.serial += 1
        return f"{what}{self.serial}"

    async def table_loop(self) -> None:
        while not self.stop.is_set():
            await self.one_game()

    async def one_game(self) -> None:
        rng = self.rng
        preset = rng.choice(PRESETS)
        players = rng.choice(PLAYERS[preset])
        people = rng.randint(1, players)
        options: dict[str, Any] = {"target": rng.randint(15, self.args.max_target)}
        hints = rng.random() < 0.3
        if hints:
            options["hints"] = True
        if preset in MANUAL_OK and rng.random() < 0.4:
            options["counting"] = "manual"
        request: dict[str, Any] = {"type": "create_table", "preset": preset, "players": players, "options": options,
                                   "partnerships": players == 4}
        password = None
        if rng.random() < 0.2:
            password = "owl"
            request.update(private=True, password=password)
        timer = rng.random() < 0.25
        if timer:
            request["turn_timer"] = rng.randint(3, 6)
        crew = [Person(self, self.name("p"), hints, timer) for _ in range(people)]
        host = crew[0]
        try:
            await host.open()
            reply = await host.request(request)
            table = reply["table"]["id"]
            host.seat = 0
            for seat, person in enumerate(crew[1:], start=1):
                await person.open()
                sit: dict[str, Any] = {"type": "sit", "table": table, "seat": seat}
                if password:
                    sit["password"] = password
                await person.request(sit)
                person.seat = seat
            for seat in range(people, players):
                await host.request({"type": "add_computer", "seat": seat, "level": rng.choice(FAST)})
            self.playing[table] = password
            for person in crew:
                person.send({"type": "ready"})
                self.seated.add(person)
            await asyncio.gather(*(person.play() for person in crew))
            self.games += 1
        except (EOFError, ConnectionError, OSError, RuntimeError) as exc:
            self.errors.append(repr(exc))
        finally:
            self.playing.pop(locals().get("table", -1), None)
            for person in crew:
                self.seated.discard(person)
                person.close()

    async def dropper(self) -> None:
        while not self.stop.is_set():
            await asyncio.sleep(self.rng.expovariate(self.args.drops))
            if self.seated:
                victim = self.rng.choice(sorted(self.seated, key=lambda p: p.name))
                self.seated.discard(victim)
                victim.dropped = True
                victim.close()
                self.drops += 1

    async def idle_one(self, chatty: bool) -> None:
        client = Client(self, self.name("idle"))
        await client.open()
        self.lobby.append(client)
        try:
            while True:
                await client.recv()
        except (EOFError, ConnectionError, OSError):
            pass

    async def chatter(self) -> None:
        while not self.stop.is_set():
            await asyncio.sleep(self.rng.expovariate(self.args.chat))
            if self.lobby:
                self.rng.choice(self.lobby).send({"type": "chat", "text": f"line {self.rng.random():.6f}"})

    async def spectator(self) -> None:
        rng = self.rng
        while not self.stop.is_set():
            client = Client(self, self.name("s"))
            try:
                await client.open()
                if not self.playing:
                    await asyncio.sleep(1.0)
                    continue
                table, password = rng.choice(sorted(self.playing.items()))
                request: dict[str, Any] = {"type": "spectate", "table": table}
                if password:
                    request["password"] = password
                reply = await client.request(request, errors=True)
                if reply["type"] != "error":
                    until = time.monotonic() + rng.uniform(3, 15)
                    if rng.random() < 0.25:
                        await asyncio.sleep(rng.uniform(1, 3))
                        client.close()
                        await asyncio.sleep(rng.uniform(0.2, 2))
                        await client.open(resume=client.token)
                    while time.monotonic() < until:
                        try:
                            await asyncio.wait_for(client.recv(), until - time.monotonic())
                        except asyncio.TimeoutError:
                            break
                    await client.request({"type": "leave"}, errors=True)
            except (EOFError, ConnectionError, OSError, RuntimeError) as exc:
                self.errors.append(repr(exc))
            finally:
                client.close()

    async def reader_loop(self) -> None:
        rng = self.rng
        client = Client(self, self.name("r"))
        await client.open()
        while not self.stop.is_set():
            await asyncio.sleep(rng.uniform(3, 5))
            what = rng.random()
            if what < 0.4 and self.finished:
                request = {"type": "get_game", "game": rng.choice(self.finished[-500:])}
            elif what < 0.7:
                request = {"type": "list_games", "name": f"p{rng.randint(1, max(1, self.serial))}"}
            else:
                request = {"type": "leaderboard", "family": rng.choice(("noddy", "cribbage"))}
            reply = await client.request(request, errors=True)
            for game in reply.get("games", ()):
                if isinstance(game, dict) and "id" in game:
                    self.finished.append(game["id"])
            if len(self.finished) > 1000:
                del self.finished[:-500]
        client.close()

    errors: list[str]


async def soak(port: int, pid: int, args: argparse.Namespace) -> dict[str, Any]:
    crowd = Crowd(port, args)
    crowd.errors = []
    start = rss_mb(pid)
    began = time.perf_counter()
    background = [asyncio.create_task(crowd.idle_one(i < 20)) for i in range(args.idle)]
    loops = [asyncio.create_task(crowd.table_loop()) for _ in range(args.tables)]
    loops += [asyncio.create_task(crowd.spectator()) for _ in range(args.spectators)]
    loops += [asyncio.create_task(crowd.reader_loop()) for _ in range(args.readers)]
    loops += [asyncio.create_task(crowd.dropper()), asyncio.create_task(crowd.chatter())]
    samples: list[tuple[int, float]] = []
    traced = 0
    while crowd.games < args.warmup + args.games:
        await asyncio.sleep(1.0)
        for task in loops:
            if task.done() and task.exception() is not None:
                raise task.exception()  # type: ignore[misc]
        if crowd.games >= args.warmup:
            if not traced and args.tracemalloc:
                os.kill(pid, signal.SIGUSR1)
                traced = 1
            samples.append((crowd.games, rss_mb(pid)))
    seconds = time.perf_counter() - began
    if args.tracemalloc:
        os.kill(pid, signal.SIGUSR1)
    crowd.stop.set()
    await asyncio.wait(loops, timeout=120)
    for client in crowd.lobby:
        client.close()
    for task in loops + background:
        task.cancel()
    await asyncio.sleep(args.settle)
    after = rss_mb(pid)
    if args.tracemalloc:
        os.kill(pid, signal.SIGUSR1)
        await asyncio.sleep(3.0)
    n = len(samples)
    mx = sum(g for g, _ in samples) / n
    my = sum(r for _, r in samples) / n
    slope = sum((g - mx) * (r - my) for g, r in samples) / max(1e-9, sum((g - mx) ** 2 for g, _ in samples))
    return {"start": start, "warm": samples[0][1], "end": samples[-1][1], "after": after, "games": crowd.games,
            "seconds": seconds, "per_1000": slope * 1000, "above_start": after - start,
            "drops": crowd.drops, "resumed": crowd.resumed, "gone": crowd.gone, "errors": crowd.errors}


def run_one(path: Path | None, args: argparse.Namespace) -> dict[str, Any]:
    env = dict(os.environ)
    command = [sys.executable]
    if path is not None:
        env["PYTHONPATH"] = str(path)
        command.append("-S")  # neither tree sees an installed copy
    if args.tracemalloc:
        env["NODDY_TRACE"] = args.tracemalloc
    database = Path(tempfile.mkdtemp(prefix="noddy-crowd-")) / "crowd.sqlite3"
    command += ["-c", SERVER, "--host", "127.0.0.1", "--port", "0", "--db", str(database),
                "--log-level", "error", "--seed", str(args.seed), "--rate", "1000", "--burst", "1000",
                "--grace", str(args.grace), "--keep-away", "5"]
    server = subprocess.Popen(command, env=env, stdout=subprocess.PIPE, text=True, cwd=tempfile.gettempdir())
    try:
        assert server.stdout is not None
        line = server.stdout.readline()
        port = int(line.rsplit(":", 1)[1])
        time.sleep(1.0)
        return asyncio.run(soak(port, server.pid, args))
    finally:
        server.terminate()
        server.wait(timeout=30)
        for leftover in database.parent.iterdir():
            leftover.unlink()
        database.parent.rmdir()


def compare(prefix: str) -> None:
    """The top growth between the tracemalloc snapshots (warm-up -> end -> everyone left)."""
    import tracemalloc

    shots = [tracemalloc.Snapshot.load(f"{prefix}.{i}") for i in (1, 2, 3) if Path(f"{prefix}.{i}").exists()]
    for (a, b), title in zip(zip(shots, shots[1:]), ("warm-up -> end", "end -> everyone left")):
        print(f"-- tracemalloc, {title} (by line):")
        for stat in b.compare_to(a, "lineno")[:25]:
            print("  ", stat)
    if len(shots) == 3:
        print("-- tracemalloc, warm-up -> everyone left (by traceback, top 8):")
        for stat in shots[2].compare_to(shots[0], "traceback")[:8]:
            print("  ", stat)
            for line in stat.traceback.format()[-10:]:
                print("      ", line)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--against", metavar="REV", help="first run commit REV's server (before), then this one")
    parser.add_argument("--games", type=int, default=1000, help="games after warm-up (default 1000)")
    parser.add_argument("--warmup", type=int, default=200, help="games before the fit starts (default 200)")
    parser.add_argument("--tables", type=int, default=60, help="tables at once (default 60)")
    parser.add_argument("--idle", type=int, default=100, help="idle lobby connections (default 100)")
    parser.add_argument("--spectators", type=int, default=30)
    parser.add_argument("--readers", type=int, default=20)
    parser.add_argument("--chat", type=float, default=5.0, help="lobby chat lines a second (default 5)")
    parser.add_argument("--drops", type=float, default=0.5, help="seated connections dropped a second")
    parser.add_argument("--addresses", type=int, default=60, help="loopback addresses (default 60)")
    parser.add_argument("--max-target", type=int, default=31, help="targets 15 to this (default 31)")
    parser.add_argument("--think", type=float, default=0.25,
                        help="a person's mean seconds to act (default 0.25; drawn from 0 to twice it)")
    parser.add_argument("--grace", type=float, default=20.0, help="the server's grace period (default 20 s)")
    parser.add_argument("--settle", type=float, default=40.0,
                        help="seconds after everyone left before the last reading (default 40: past grace + keep-away)")
    parser.add_argument("--seed", type=int, default=2037)
    parser.add_argument("--tracemalloc", metavar="PREFIX", help="snapshot the server's allocations to PREFIX.N")
    args = parser.parse_args(argv)
    print(f"{args.tables} tables, {args.idle} idle, {args.spectators} spectators, {args.readers} readers, "
          f"chat {args.chat}/s, drops {args.drops}/s, {args.addresses} addresses, think {args.think} s; warm-up {args.warmup}, "
          f"then {args.games} games; targets 15-{args.max_target}; RSS in MB", flush=True)
    with tempfile.TemporaryDirectory() as scratch:
        sides: list[tuple[str, Path | None]] = [("this", None)]
        if args.against:
            sides = [("before", package_tree(args.against, Path(scratch) / "before")),
                     ("after", package_tree(None, Path(scratch) / "after"))]
        for name, path in sides:
            r = run_one(path, args)
            print(f"{name:6} start {r['start']:.1f}  warm {r['warm']:.1f}  end {r['end']:.1f}  after all left "
                  f"{r['after']:.1f}  | growth {r['per_1000']:+.1f} MB/1000 games, {r['above_start']:+.1f} above "
                  f"start  ({r['games']} games, {r['seconds']:.0f} s; drops {r['drops']}, resumed {r['resumed']}, "
                  f"gone {r['gone']}; {len(r['errors'])} errors{': ' + r['errors'][0] if r['errors'] else ''})",
                  flush=True)
            if args.tracemalloc:
                compare(args.tracemalloc)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
