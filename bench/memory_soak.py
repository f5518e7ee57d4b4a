"""A memory soak of the server: many tables, every computer level and the coach, many targets.

Not a test: it prints figures.  It starts ``noddy-server`` (its database a file in a scratch
directory, so that finished games are not kept in memory) as a process of its own (from this checkout, or from a commit with ``--against REV``, then alternating the two in
one sitting) and has ``--hosts`` clients open tables one after another, each game under a
preset, a target (any of 15..``--max-target``) and computer levels drawn at random:

- a table of computers only (``random``, ``greedy``, ``expert`` mixed; the host watches it
  play itself out), or
- the host in seat 0 at a table with the coach (``hints``), asking for a hint at each of
  its decisions and following it, against computers.

Each host leaves when its game is over, which closes the table.  The server's resident
memory (``VmRSS``) is read at the start, after ``--warmup`` games, after every
``--games`` games more, and a few seconds after every host has disconnected.  Printed: the
growth after warm-up per 1,000 games, and how far above the start the server stays once
everyone has gone (issue 27, item 15: aims 16 MB per 1,000 games and 80 MB).

    python bench/memory_soak.py                        # this checkout: 800 games, ~3 minutes
    python bench/memory_soak.py --against HEAD~1       # before, then after: ~7 minutes
    python bench/memory_soak.py --long --rounds 2      # 2,300 games a run, alternated twice

The load is the same for every run (seeded hosts, ``--seed`` for the server's deals).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from core_diff import package_tree  # a commit laid out as the installed package

ROOT = Path(__file__).resolve().parent.parent
PRESETS = ("noddy", "noddy-ducoeur", "noddy-holme", "noddy-modern", "five-card-cribbage", "cribbage")
LEVELS = ("random", "greedy", "expert")
SERVER = "import sys; from noddy.server.cli import main; sys.exit(main(sys.argv[1:]))"


def rss_mb(pid: int) -> float:
    """The resident memory of a process, in MB."""
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    raise RuntimeError("no VmRSS")


class Host:
    """One client opening tables one after another (see the module docstring)."""

    def __init__(self, index: int, port: int, seed: int, max_target: int, counter: list[int]) -> None:
        self.index = index
        self.port = port
        self.rng = random.Random(seed * 1000 + index)
        self.max_target = max_target
        self.counter = counter
        self.next_id = 0
        self.reader: asyncio.StreamReader
        self.writer: asyncio.StreamWriter

    async def send(self, message: dict[str, Any]) -> int:
        self.next_id += 1
        self.writer.write(json.dumps({**message, "id": self.next_id}).encode() + b"\n")
        await self.writer.drain()
        return self.next_id

    async def recv(self) -> dict[str, Any]:
        line = await self.reader.readline()
        if not line:
            raise EOFError("the server closed the connection")
        message = json.loads(line)
        if message.get("type") == "ping":
            self.writer.write(b'{"type":"pong"}\n')
        return message

    async def request(self, message: dict[str, Any]) -> dict[str, Any]:
        rid = await self.send(message)
        while True:
            reply = await self.recv()
            if reply.get("id") == rid:
                if reply["type"] == "error":
                    raise RuntimeError(f"{message['type']}: {reply}")
                return reply

    async def run(self, stop: asyncio.Event) -> None:
        self.reader, self.writer = await asyncio.open_connection("127.0.0.1", self.port, limit=1 << 22)
        await self.recv()  # the greeting
        await self.request({"type": "hello", "name": f"host{self.index}", "version": 1})
        while not stop.is_set():
            await self.one_game()
            self.counter[0] += 1
        self.writer.close()

    async def one_game(self) -> None:
        rng = self.rng
        preset = rng.choice(PRESETS)
        players = 3 if preset == "cribbage" and rng.random() < 0.25 else 2
        options: dict[str, Any] = {"target": rng.randint(15, self.max_target)}
        coached = rng.random() < 0.3
        if coached:
            options["hints"] = True
        if not coached and preset in ("noddy-modern", "five-card-cribbage", "cribbage") and rng.random() < 0.3:
            options["counting"] = "manual"
        await self.request({"type": "create_table", "preset": preset, "players": players, "options": options})
        for seat in range(1, players):
            await self.request({"type": "add_computer", "seat": seat, "level": rng.choice(LEVELS)})
        if coached:
            await self.request({"type": "ready"})
            await self.play_with_the_coach()
        else:
            await self.request({"type": "stand"})
            await self.request({"type": "add_computer", "seat": 0, "level": rng.choice(LEVELS)})
            while True:
                message = await self.recv()
                if message["type"] == "event" and message["event"]["kind"] == "game_over":
                    break
        await self.request({"type": "leave"})

    async def play_with_the_coach(self) -> None:
        """Seat 0: at each decision ask the coach, and follow its best choice."""
        while True:
            message = await self.recv()
            if message["type"] == "event" and message["event"]["kind"] == "game_over":
                return
            if message["type"] != "turn" or 0 not in message["awaiting"]:
                continue
            legal = message["legal_actions"]
            rid = await self.send({"type": "hint"})
            hint = None
            while hint is None:
                reply = await self.recv()
                if reply.get("id") == rid:
                    hint = reply
                elif reply["type"] == "event" and reply["event"]["kind"] == "game_over":
                    return
            action = dict(legal[0])
            if hint["type"] == "hint" and hint["choices"]:
                best = hint["choices"][0]
                if "card" in best:  # (null: a go)
                    action = {"action": "play", "card": best["card"]} if best["card"] else {"action": "go"}
                elif "laid" in best:
                    action = {"action": "discard", "cards": best["laid"]}
            if "min" in action:
                action = {"action": action["action"], "points": action["min"]}
            reply = await self.request({"type": "action", **action})


async def soak(port: int, pid: int, hosts: int, warmup: int, games: int, checkpoints: int,
               seed: int, max_target: int) -> dict[str, Any]:
    counter = [0]
    stop = asyncio.Event()
    start = rss_mb(pid)
    began = time.perf_counter()
    tasks = [asyncio.create_task(Host(i, port, seed, max_target, counter).run(stop)) for i in range(hosts)]
    marks: list[tuple[int, float]] = []

    async def until(n: int) -> None:
        while counter[0] < n:
            for task in tasks:
                if task.done() and task.exception() is not None:
                    raise task.exception()  # type: ignore[misc]
            await asyncio.sleep(0.2)

    await until(warmup)
    marks.append((counter[0], rss_mb(pid)))
    for step in range(1, checkpoints + 1):
        await until(warmup + step * games)
        marks.append((counter[0], rss_mb(pid)))
    stop.set()
    await asyncio.wait(tasks, timeout=120)
    for task in tasks:
        task.cancel()
    await asyncio.sleep(5.0)  # every table closes as its host leaves
    after = rss_mb(pid)
    (n0, r0), (n1, r1) = marks[0], marks[-1]
    return {"start": start, "marks": marks, "after": after, "games": counter[0],
            "seconds": time.perf_counter() - began,
            "per_1000": (r1 - r0) / max(1, n1 - n0) * 1000, "above_start": after - start}


def run_one(path: Path | None, args: argparse.Namespace) -> dict[str, Any]:
    env = dict(os.environ)
    command = [sys.executable]
    if path is not None:
        env["PYTHONPATH"] = str(path)
        command.append("-S")  # neither tree sees an installed copy
    database = Path(tempfile.mkdtemp(prefix="noddy-soak-")) / "soak.sqlite3"  # not in memory: records on disk
    command += ["-c", SERVER, "--host", "127.0.0.1", "--port", "0", "--db", str(database),
                "--log-level", "warning", "--seed", str(args.seed), "--rate", "1000", "--burst", "1000"]
    server = subprocess.Popen(command, env=env, stdout=subprocess.PIPE, text=True, cwd=tempfile.gettempdir())
    try:
        assert server.stdout is not None
        line = server.stdout.readline()
        port = int(line.rsplit(":", 1)[1])
        time.sleep(1.0)
        return asyncio.run(soak(port, server.pid, args.hosts, args.warmup, args.games, args.checkpoints,
                                args.seed, args.max_target))
    finally:
        server.terminate()
        server.wait(timeout=30)
        for leftover in database.parent.iterdir():
            leftover.unlink()
        database.parent.rmdir()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--against", metavar="REV", help="also run commit REV's server, alternating")
    parser.add_argument("--rounds", type=int, default=1, help="runs of each side (default 1)")
    parser.add_argument("--hosts", type=int, default=12, help="clients opening tables (default 12)")
    parser.add_argument("--warmup", type=int, default=200, help="games before the first reading (default 200)")
    parser.add_argument("--games", type=int, default=200, help="games between readings (default 200)")
    parser.add_argument("--checkpoints", type=int, default=3, help="readings after warm-up (default 3)")
    parser.add_argument("--max-target", type=int, default=90, help="targets drawn from 15 to this (default 90)")
    parser.add_argument("--seed", type=int, default=2027)
    parser.add_argument("--long", action="store_true", help="warm-up 300, then 4 x 500 games")
    args = parser.parse_args(argv)
    if args.long:
        args.warmup, args.games, args.checkpoints = 300, 500, 4
    print(f"{args.hosts} hosts; warm-up {args.warmup} games, then {args.checkpoints} x {args.games}; "
          f"targets 15-{args.max_target}; RSS in MB", flush=True)
    with tempfile.TemporaryDirectory() as scratch:
        sides: list[tuple[str, Path | None]] = [("after" if args.against else "this", None)]
        if args.against:
            sides.insert(0, ("before", package_tree(args.against, Path(scratch) / "before")))
            sides[1] = ("after", package_tree(None, Path(scratch) / "after"))
        for round_ in range(args.rounds):
            for name, path in sides:
                r = run_one(path, args)
                marks = " ".join(f"{n}:{rss:.0f}" for n, rss in r["marks"])
                print(f"{name:6} start {r['start']:.0f}  games:RSS {marks}  after all left {r['after']:.0f}"
                      f"  | growth {r['per_1000']:+.1f} MB/1000 games, {r['above_start']:+.1f} above start"
                      f"  ({r['games']} games, {r['seconds']:.0f} s)", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
