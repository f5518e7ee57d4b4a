"""Hostile clients asking for a long game's record: how much do they slow a player down?
Not a test: it prints.

One innocent player plays noddy against a computer at full speed (each ``turn`` answered at
once with a random legal action; ``ready`` again after each game) while ``--attackers``
clients ask for the record of one long finished game (500-point Cribbage: ~590 steps, ~160 KB)
again and again, each at the server's default rate limit (20 requests a second, sent without
waiting for the answers, which are read but not parsed).  Printed, for a
phase without attackers and one with them: the innocent player's moves a second, its round
trip (its ``action`` to its next ``turn``) p50/p99, the records the attackers got, and the
server's CPU use.

The innocent player is held to the server's ``rate`` (20 requests a second by default), so
"normal" is about 20 moves a second.

    python bench/hostile.py                          # this tree
    python bench/hostile.py --server-path /tmp/old   # another tree (a copy laid out as the
                                                     # installed package: DIR/noddy/...)
    python bench/hostile.py --server-args="--query-cost 1 --query-rate-per-address 0"

The record is made first by playing it out over the protocol against the server under test
with a high rate limit; the measured server then starts again on that database with its
default limits (plus ``--server-args``).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import shlex
import signal
import subprocess
import sys
import tempfile
import time
from typing import Any

HOST = "127.0.0.1"
#: Readers' line limit: a record is one long line.
LIMIT = 1 << 24


def start_server(db: str, extra: list[str], server_path: str | None) -> tuple[subprocess.Popen[str], int]:
    env = dict(os.environ)
    if server_path:
        env["PYTHONPATH"] = server_path + os.pathsep + env.get("PYTHONPATH", "")
    argv = [sys.executable, "-m", "noddy.server.cli", "--host", HOST, "--port", "0", "--db", db,
            "--log-level", "WARNING", *extra]
    # Not from this folder: ``-m`` puts the working folder first on the path, and the tree's
    # own ``noddy`` folder would shadow ``--server-path``.
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, text=True, env=env, cwd=os.path.dirname(db))
    assert proc.stdout is not None
    line = proc.stdout.readline()
    if not line:
        raise SystemExit(f"the server did not start: {argv}")
    return proc, int(line.rsplit(":", 1)[1])


def stop_server(proc: subprocess.Popen[str]) -> None:
    proc.send_signal(signal.SIGINT)
    proc.wait(timeout=60)


def cpu_seconds(pid: int) -> float:
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


class Client:
    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader, self.writer = reader, writer
        self.next_id = 0

    @classmethod
    async def hello(cls, port: int, name: str) -> "Client":
        reader, writer = await asyncio.open_connection(HOST, port, limit=LIMIT)
        client = cls(reader, writer)
        await client.recv()  # the greeting
        welcome = await client.request({"type": "hello", "name": name, "version": 1})
        assert welcome["type"] == "welcome", welcome
        return client

    async def recv(self) -> dict[str, Any]:
        line = await self.reader.readline()
        if not line:
            raise EOFError("the server closed the connection")
        return json.loads(line)

    def send(self, message: dict[str, Any]) -> int:
        self.next_id += 1
        self.writer.write(json.dumps({**message, "id": self.next_id}).encode() + b"\n")
        return self.next_id

    async def request(self, message: dict[str, Any]) -> dict[str, Any]:
        """Send, and return the reply (pushes before it are skipped); a ``rate_limited``
        refusal is waited out and the request sent again."""
        while True:
            request_id = self.send(message)
            while True:
                reply = await self.recv()
                if reply.get("id") == request_id:
                    break
            if reply.get("code") != "rate_limited":
                return reply
            await asyncio.sleep(reply["retry_after"])


async def play(client: Client, rng: random.Random, stop: asyncio.Event, one_game: bool = False,
               moves: list[float] | None = None, round_trips: list[float] | None = None) -> None:
    """Play at the client's table until ``stop`` (or, with ``one_game``, the game's end),
    saying ready again after each game; each move's time goes to ``moves`` and its round
    trip (the action to the next turn offering this seat a move) to ``round_trips``.  Any
    refusal (a stale turn, the rate limit) is answered by asking for a snapshot."""
    sent_at: float | None = None
    pending: int | None = None
    client.send({"type": "snapshot"})
    while not stop.is_set():
        try:
            message = await asyncio.wait_for(client.recv(), 0.5)
        except asyncio.TimeoutError:
            continue
        kind = message["type"]
        if kind == "ping":
            client.send({"type": "pong"})
            continue
        if kind == "error":
            await asyncio.sleep(message.get("retry_after") or 0.0)
            pending = None
            client.send({"type": "snapshot"})
            continue
        if kind == "event" and message["event"]["kind"] == "game_over":
            if one_game:
                return
            client.send({"type": "ready"})
            pending = None
            continue
        if pending is not None and message.get("id") == pending:
            pending = None
        turn = message if kind == "turn" else message.get("turn") if kind == "snapshot" else None
        if turn and turn["legal_actions"] and pending is None:
            now = time.perf_counter()
            if sent_at is not None and round_trips is not None:
                round_trips.append(now - sent_at)
            action = dict(rng.choice(turn["legal_actions"]))
            action.pop("seat", None)
            pending = client.send({"type": "action", **action})
            sent_at = now
            if moves is not None:
                moves.append(now)


async def make_record(port: int, target: int) -> int:
    """Play a whole Cribbage game to ``target`` against a computer; return its id."""
    client = await Client.hello(port, "archivist")
    table = await client.request({"type": "create_table", "preset": "cribbage",
                                  "options": {"target": target}})
    assert table["type"] == "table", table
    await client.request({"type": "add_computer", "level": "random"})
    await client.request({"type": "ready"})
    game_id = (await client.request({"type": "snapshot"}))["table"]["game_id"]
    await play(client, random.Random(1), asyncio.Event(), one_game=True)
    client.writer.close()
    return game_id


async def attack(port: int, name: str, game_id: int, rate: float, stop: asyncio.Event, got: list[int]) -> None:
    """Ask for the record ``rate`` times a second without waiting for the answers (as the
    server's rate limit allows a client to), reading them as they come without parsing."""
    client = await Client.hello(port, name)
    line = json.dumps({"type": "get_game", "game": game_id}).encode() + b"\n"

    async def read() -> None:
        while True:
            reply = await client.reader.readline()
            if not reply:
                return
            if reply.startswith(b'{"type":"game_record"'):
                got.append(len(reply))

    reading = asyncio.create_task(read())
    start = time.perf_counter()
    sent = 0
    while not stop.is_set():
        sent += 1
        client.writer.write(line)
        await asyncio.sleep(max(0.0, start + sent / rate - time.perf_counter()))
    reading.cancel()
    client.writer.close()


async def measure(port: int, pid: int, game_id: int, attackers: int, rate: float, seconds: float) -> None:
    innocent = await Client.hello(port, "innocent")
    await innocent.request({"type": "create_table", "preset": "noddy"})
    await innocent.request({"type": "add_computer", "level": "random"})
    await innocent.request({"type": "ready"})
    for phase, hostile in (("alone", 0), (f"{attackers} attackers", attackers)):
        stop = asyncio.Event()
        got: list[int] = []
        tasks = [asyncio.create_task(attack(port, f"hostile{n}", game_id, rate, stop, got)) for n in range(hostile)]
        await asyncio.sleep(1.0 if hostile else 0.0)  # let the attackers get going (and the burst go)
        moves: list[float] = []
        trips: list[float] = []
        stop_play = asyncio.Event()
        player = asyncio.create_task(play(innocent, random.Random(2), stop_play, False, moves, trips))
        await asyncio.sleep(2.0)  # the innocent's burst allowance is spent: measure from here
        moves.clear()
        trips.clear()
        got.clear()
        cpu0, t0 = cpu_seconds(pid), time.perf_counter()
        await asyncio.sleep(seconds)
        cpu1, t1 = cpu_seconds(pid), time.perf_counter()
        stop_play.set()
        records = len(got)
        await player
        stop.set()
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        trips.sort()
        p50 = trips[len(trips) // 2] * 1000 if trips else float("nan")
        p99 = trips[int(len(trips) * 0.99)] * 1000 if trips else float("nan")
        print(f"{phase:>12}: innocent {len(moves) / (t1 - t0):5.1f} moves/s, round trip p50 {p50:6.1f} ms "
              f"p99 {p99:7.1f} ms; attackers got {records / (t1 - t0):6.1f} records/s; "
              f"server CPU {100 * (cpu1 - cpu0) / (t1 - t0):3.0f}%", flush=True)
    innocent.writer.close()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--attackers", type=int, default=3)
    parser.add_argument("--attack-rate", type=float, default=20.0,
                        help="requests a second each attacker sends (default 20: the server's default rate)")
    parser.add_argument("--seconds", type=float, default=8.0, help="measured seconds per phase (default 8)")
    parser.add_argument("--target", type=int, default=500, help="points of the long Cribbage game (default 500)")
    parser.add_argument("--server-path", default=None,
                        help="a folder to put first on the server's PYTHONPATH (another tree)")
    parser.add_argument("--server-args", default="", help="more noddy-server flags, as one string")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        db = os.path.join(folder, "hostile.sqlite3")
        proc, port = start_server(db, ["--rate", "100000", "--burst", "100000"], args.server_path)
        try:
            game_id = asyncio.run(make_record(port, args.target))
        finally:
            stop_server(proc)
        proc, port = start_server(db, shlex.split(args.server_args), args.server_path)
        try:
            print(f"server {args.server_path or 'of this tree'} {args.server_args}; record: game {game_id}",
                  flush=True)
            asyncio.run(measure(port, proc.pid, game_id, args.attackers, args.attack_rate, args.seconds))
        finally:
            stop_server(proc)
    return 0


if __name__ == "__main__":
    sys.exit(main())
