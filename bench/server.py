"""Capacity benchmark of noddy-server against the bare-asyncio floor.  Not a test: it prints.

It starts ``noddy-server`` as its own process and a load generator as another; the load
generator opens two bot clients per table for ``--tables`` tables of two-player noddy and
has them play at full speed (each acts the moment its ``turn`` offers legal actions, and
both say ready again when a game ends) for ``--seconds``.  It prints games/s, messages/s
received, round trips/s (an action to its reply), p50/p99 latency from an action to the
next ``event`` the actor receives, and the server's resident memory per connection.

In the same run the same load generator drives a bare asyncio JSON-lines echo server (a
few lines, below) with the same connections used the same way -- per table one request in
flight at a time, alternating between its two connections, as turns alternate -- and the
ratio of the two round-trip rates is printed: how close the game server comes to the floor.

    python bench/server.py                       # 50 tables, 10 s (quick)
    python bench/server.py --tables 1000 --seconds 20
    python bench/server.py --profile /tmp/server.prof   # cProfile the server, print its top

The load generator shares the machine with the server, so the figures are the pair's.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import pstats
import random
import signal
import subprocess
import sys
import time
from typing import Any

HOST = "127.0.0.1"


# == the echo server: the floor ===============================================================
async def _echo(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    while line := await reader.readline():
        writer.write((json.dumps(json.loads(line), separators=(",", ":")) + "\n").encode())
        await writer.drain()
    writer.close()


async def _echo_main() -> None:
    server = await asyncio.start_server(_echo, HOST, 0, limit=8192, backlog=4096)
    print(f"echo listening on {HOST}:{server.sockets[0].getsockname()[1]}", flush=True)
    stop = asyncio.Event()
    asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, stop.set)
    await stop.wait()


# == the load generator ==========================================================================
class Stats:
    def __init__(self) -> None:
        self.games = 0
        self.messages = 0
        self.round_trips = 0
        self.latencies: list[float] = []
        self.measuring = False


async def _open(port: int) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    for attempt in range(50):
        try:
            return await asyncio.open_connection(HOST, port, limit=1 << 20)
        except OSError:
            await asyncio.sleep(0.05 * (attempt + 1))
    raise RuntimeError("cannot connect")


class Bot:
    """One seat: acts on every turn that offers it something, readies again after a game."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, stats: Stats,
                 rng: random.Random, counts_games: bool) -> None:
        self.reader, self.writer, self.stats, self.rng = reader, writer, stats, rng
        self.counts_games = counts_games
        self.next_id = 0
        self.pending: int | None = None
        self.sent_at: float | None = None
        self.stop = False

    def send(self, message: dict[str, Any]) -> int:
        self.next_id += 1
        self.writer.write((json.dumps({**message, "id": self.next_id}, separators=(",", ":")) + "\n").encode())
        return self.next_id

    async def request(self, message: dict[str, Any]) -> dict[str, Any]:
        rid = self.send(message)
        while True:
            reply = json.loads(await self.reader.readline())
            if reply.get("id") == rid:
                return reply

    async def play(self) -> None:
        """React to what the server sends; only ``turn`` lines and our replies are parsed in
        full, so the load generator spends its time on the server, not on json.loads."""
        stats = self.stats
        readline = self.reader.readline
        while True:
            line = await readline()
            if not line:
                return
            if stats.measuring:
                stats.messages += 1
            if line.startswith(b'{"type":"event"'):
                if self.sent_at is not None:
                    if stats.measuring:
                        stats.latencies.append(time.perf_counter() - self.sent_at)
                    self.sent_at = None
                if b'"kind":"game_over"' in line:
                    if stats.measuring and self.counts_games:
                        stats.games += 1
                    if self.stop:
                        return
                    self.send({"type": "ready"})
            elif line.startswith(b'{"type":"turn"'):
                if self.pending is None and not self.stop and b'"legal_actions":[]' not in line:
                    action = self.rng.choice(json.loads(line)["legal_actions"])
                    self.sent_at = time.perf_counter()
                    self.pending = self.send({"type": "action", **action})
            elif self.pending is not None and line.endswith(b'"id":%d}\n' % self.pending):
                self.pending = None
                if stats.measuring:
                    stats.round_trips += 1
            elif line.startswith(b'{"type":"error"'):
                raise RuntimeError(f"the server refused a bot: {line!r}")


async def _game_load(port: int, tables: int, seconds: float, stats: Stats) -> dict[str, Any]:
    bots: list[Bot] = []

    async def setup(index: int) -> None:
        pair = []
        for seat in range(2):
            reader, writer = await _open(port)
            await reader.readline()
            pair.append(Bot(reader, writer, stats, random.Random(index * 2 + seat), seat == 0))
        a, b = pair
        await a.request({"type": "hello", "name": f"a{index}", "version": 1, "bot": True})
        await b.request({"type": "hello", "name": f"b{index}", "version": 1, "bot": True})
        table = (await a.request({"type": "create_table", "preset": "noddy"}))["table"]["id"]
        await b.request({"type": "sit", "table": table})
        bots.extend(pair)

    for start in range(0, tables, 50):
        await asyncio.gather(*(setup(i) for i in range(start, min(tables, start + 50))))
    ready_at = time.perf_counter()
    tasks = [asyncio.create_task(bot.play()) for bot in bots]
    for bot in bots:
        bot.send({"type": "ready"})
    await asyncio.sleep(min(2.0, seconds / 4))  # warm up: every table dealing
    stats.measuring = True
    began = time.perf_counter()
    print("LOADED", flush=True)  # the parent reads the server's memory now
    await asyncio.sleep(seconds)
    stats.measuring = False
    elapsed = time.perf_counter() - began
    for bot in bots:
        bot.stop = True
    await asyncio.wait(tasks, timeout=10)
    for bot in bots:
        bot.writer.close()
    return {"elapsed": elapsed, "setup": ready_at}


async def _echo_load(port: int, tables: int, seconds: float, stats: Stats) -> dict[str, Any]:
    pairs = []
    for start in range(0, tables, 50):
        pairs += await asyncio.gather(*(asyncio.gather(_open(port), _open(port))
                                        for _ in range(start, min(tables, start + 50))))
    stop = False
    request = b'{"type":"action","action":"play","card":"7H","id":1}\n'

    async def alternate(pair: list[tuple[asyncio.StreamReader, asyncio.StreamWriter]]) -> None:
        turn = 0
        while not stop:
            reader, writer = pair[turn]
            sent = time.perf_counter()
            writer.write(request)
            json.loads(await reader.readline())
            if stats.measuring:
                stats.round_trips += 1
                stats.messages += 1
                stats.latencies.append(time.perf_counter() - sent)
            turn = 1 - turn

    tasks = [asyncio.create_task(alternate(list(pair))) for pair in pairs]
    await asyncio.sleep(min(2.0, seconds / 4))
    stats.measuring = True
    began = time.perf_counter()
    await asyncio.sleep(seconds)
    stats.measuring = False
    elapsed = time.perf_counter() - began
    stop = True
    await asyncio.wait(tasks, timeout=10)
    for pair in pairs:
        for _, writer in pair:
            writer.close()
    return {"elapsed": elapsed}


def _load_main(kind: str, port: int, tables: int, seconds: float) -> None:
    stats = Stats()
    run = _game_load if kind == "game" else _echo_load
    info = asyncio.run(run(port, tables, seconds, stats))
    lat = sorted(stats.latencies) or [0.0]
    print("RESULT " + json.dumps({
        "elapsed": info["elapsed"], "games": stats.games, "messages": stats.messages,
        "round_trips": stats.round_trips,
        "p50": lat[len(lat) // 2], "p99": lat[min(len(lat) - 1, int(len(lat) * 0.99))],
    }), flush=True)


# == the parent: start, measure, print ============================================================
def _rss_kib(pid: int) -> int:
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def _start(argv: list[str], env: dict[str, str] | None = None) -> tuple[subprocess.Popen[str], int]:
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, text=True, env=env)
    assert proc.stdout is not None
    line = proc.stdout.readline()
    return proc, int(line.rsplit(":", 1)[1])


def _load(kind: str, port: int, tables: int, seconds: float, server_pid: int) -> tuple[dict[str, Any], int]:
    proc = subprocess.Popen([sys.executable, __file__, "--load", kind, "--port", str(port),
                             "--tables", str(tables), "--seconds", str(seconds)],
                            stdout=subprocess.PIPE, text=True)
    assert proc.stdout is not None
    rss = 0
    result: dict[str, Any] = {}
    for line in proc.stdout:
        if line.startswith("LOADED"):
            rss = _rss_kib(server_pid)
        elif line.startswith("RESULT "):
            result = json.loads(line[7:])
    proc.wait()
    return result, rss


def _stop(proc: subprocess.Popen[str]) -> None:
    proc.send_signal(signal.SIGINT if proc.args[1:3] == ["-m", "noddy.server.cli"] else signal.SIGTERM)
    proc.wait(timeout=60)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=50, help="tables of two bots (default 50)")
    parser.add_argument("--seconds", type=float, default=10.0, help="measured seconds per run (default 10)")
    parser.add_argument("--profile", metavar="PATH", help="cProfile the server into PATH and print its top")
    parser.add_argument("--db", default=":memory:",
                        help="the server's storage, if it has any (default :memory:; give a file "
                             "to include the cost of writing records to disk)")
    parser.add_argument("--load", choices=["game", "echo"], help=argparse.SUPPRESS)
    parser.add_argument("--port", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--echo-server", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.echo_server:
        asyncio.run(_echo_main())
        return 0
    if args.load:
        _load_main(args.load, args.port, args.tables, args.seconds)
        return 0

    env = dict(os.environ)
    if args.profile:
        env["NODDY_PROFILE"] = args.profile
    command = [sys.executable, "-m", "noddy.server.cli", "--host", HOST, "--port", "0",
               "--log-level", "WARNING", "--rate", "1000000", "--burst", "1000000",
               "--max-connections-per-address", "0", "--max-tables-per-connection", "0"]
    helptext = subprocess.run(command[:3] + ["--help"], capture_output=True, text=True).stdout
    if "--db" in helptext:  # a server with storage: keep the benchmark's games out of the real file
        command += ["--db", args.db]
    server, port = _start(command, env)
    base = _rss_kib(server.pid)
    try:
        game, loaded = _load("game", port, args.tables, args.seconds, server.pid)
    finally:
        _stop(server)
    echo_proc, echo_port = _start([sys.executable, __file__, "--echo-server"])
    try:
        echo, _ = _load("echo", echo_port, args.tables, args.seconds, echo_proc.pid)
    finally:
        _stop(echo_proc)

    connections = 2 * args.tables
    g, e = game, echo
    rt, ert = g["round_trips"] / g["elapsed"], e["round_trips"] / e["elapsed"]
    print(f"noddy-server, {args.tables} tables of two-player noddy ({connections} bot connections), "
          f"{g['elapsed']:.1f} s measured:")
    print(f"  games/s          {g['games'] / g['elapsed']:10.1f}")
    print(f"  messages/s       {g['messages'] / g['elapsed']:10.0f}   (received by the bots)")
    print(f"  round trips/s    {rt:10.0f}   (an action to its reply)")
    print(f"  latency p50      {g['p50'] * 1000:10.2f} ms   (an action to the next event)")
    print(f"  latency p99      {g['p99'] * 1000:10.2f} ms")
    print(f"  memory           {(loaded - base) / connections:10.1f} KiB per connection "
          f"(server RSS {base / 1024:.1f} -> {loaded / 1024:.1f} MiB)")
    print(f"bare asyncio JSON-lines echo, same load ({e['elapsed']:.1f} s):")
    print(f"  round trips/s    {ert:10.0f}   p50 {e['p50'] * 1000:.2f} ms, p99 {e['p99'] * 1000:.2f} ms")
    print(f"ratio server/echo round trips: {rt / ert if ert else float('nan'):.2f}   (aim: at least 0.5)")
    if args.profile:
        print(f"\nserver profile ({args.profile}), top 20 by own time:")
        pstats.Stats(args.profile).sort_stats("tottime").print_stats(20)
    return 0


if __name__ == "__main__":
    sys.exit(main())
