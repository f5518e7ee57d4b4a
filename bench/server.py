"""Capacity benchmark of noddy-server against the bare-asyncio floor.  Not a test: it prints.

It starts ``noddy-server`` as its own process and ``--generators`` load-generator processes
(default: one per CPU, at most 4), each a single asyncio loop holding its share of the bot
clients: two per table, ``--tables`` tables of two-player noddy, playing at full speed (each
bot acts the moment a ``turn`` offers it legal actions, and both say ready again when a game
ends) for ``--seconds``.  The bots are lean: they look at the first bytes of each line and
never ``json.loads`` -- an action is cut out of the ``turn`` line's ``legal_actions`` -- so
the generators spend their time on the server, not on themselves.

A *round trip* is what lets a client act again:

* game server: a bot's ``action`` -> the next ``turn`` (or the ``game_over`` event) that the
  same bot receives.  Between the two the server has validated and applied the action, stored
  it, and sent both players the ``ok`` reply, the events and the next turn (~4-9 lines each);
* echo server: a request line -> its echoed reply (1 line).

Both are measured by the same generators with the same connections and concurrency: per table
(per pair of connections) exactly one request in flight, alternating between the two
connections as turns alternate.  The ratio server/echo of round trips a second says how close
the game server comes to the floor of "parse a JSON line, write a JSON line".

Printed: games/s, messages/s (received by the bots), round trips/s, latency p50/p99 from an
action to the next ``event`` the actor receives (the issue's definition) and of the whole round
trip, the server's CPU use and resident memory per connection, and the echo's round trips/s.

    python bench/server.py                       # 50 tables, 10 s (quick)
    python bench/server.py --tables 1000 --seconds 20
    python bench/server.py --profile /tmp/server.prof   # cProfile the server, print its top

The generators share the machine with the server, so the figures are the whole set's.
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
#: Latencies are kept as a histogram of this resolution (seconds), to merge generators'.
BUCKET = 1e-4


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


# == a load generator (one process, one loop) =====================================================
class Stats:
    def __init__(self) -> None:
        self.games = 0
        self.messages = 0
        self.round_trips = 0
        #: Histograms {bucket: count}: action -> next event, action -> next turn (round trip).
        self.latency: dict[int, int] = {}
        self.trip: dict[int, int] = {}
        self.measuring = False

    def counters(self) -> tuple[int, int, int]:
        return self.games, self.messages, self.round_trips


def _note(histogram: dict[int, int], seconds: float) -> None:
    key = int(seconds / BUCKET)
    histogram[key] = histogram.get(key, 0) + 1


async def _open(port: int) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    for attempt in range(50):
        try:
            return await asyncio.open_connection(HOST, port, limit=1 << 20)
        except OSError:
            await asyncio.sleep(0.05 * (attempt + 1))
    raise RuntimeError("cannot connect")


LEGAL = b'"legal_actions":['
LEGAL_END = b'],"time_left"'


class Bot:
    """One seat: acts on every turn that offers it something, readies again after a game."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, stats: Stats,
                 rng: random.Random, counts_games: bool) -> None:
        self.reader, self.writer, self.stats, self.rng = reader, writer, stats, rng
        self.counts_games = counts_games
        self.next_id = 0
        self.sent_at: float | None = None   # waiting for the next event (latency)
        self.trip_at: float | None = None   # waiting for the next turn (round trip)
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

    def _round_trip_done(self, now: float) -> None:
        stats = self.stats
        if stats.measuring:
            stats.round_trips += 1
            _note(stats.trip, now - self.trip_at)  # type: ignore[operator]
        self.trip_at = None

    async def play(self) -> None:
        """React to what the server sends, by the first bytes of each line (no json.loads)."""
        stats = self.stats
        readline = self.reader.readline
        write = self.writer.write
        perf = time.perf_counter
        while True:
            line = await readline()
            if not line:
                return
            stats.messages += 1
            if line.startswith(b'{"type":"event"'):
                if self.sent_at is not None:
                    if stats.measuring:
                        _note(stats.latency, perf() - self.sent_at)
                    self.sent_at = None
                if b'"kind":"game_over"' in line:
                    if self.trip_at is not None:
                        self._round_trip_done(perf())
                    if stats.measuring and self.counts_games:
                        stats.games += 1
                    if self.stop:
                        return
                    self.send({"type": "ready"})
            elif line.startswith(b'{"type":"turn"'):
                if self.trip_at is not None:
                    self._round_trip_done(perf())
                if self.stop:
                    continue
                start = line.find(LEGAL)
                if start < 0 or line[start + len(LEGAL)] == 93:  # "]": nothing to do
                    continue
                end = line.find(LEGAL_END, start)
                if end < 0:  # not the usual key order: parse it properly
                    choices = [json.dumps(a, separators=(",", ":")).encode()
                               for a in json.loads(line)["legal_actions"]]
                else:
                    choices = line[start + len(LEGAL):end].split(b"},{")
                action = self.rng.choice(choices).strip(b"{}")
                self.next_id += 1
                self.sent_at = self.trip_at = perf()
                write(b'{"type":"action",%s,"id":%d}\n' % (action, self.next_id))
            elif line.startswith(b'{"type":"error"'):
                raise RuntimeError(f"the server refused a bot: {line!r}")


_KEEP: list[Any] = []


async def _commands() -> "asyncio.Queue[str]":
    """The parent's commands (GO, MEASURE, STOP), one a line on stdin."""
    queue: asyncio.Queue[str] = asyncio.Queue()
    loop = asyncio.get_running_loop()
    reader = asyncio.StreamReader()
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin)

    async def pump() -> None:
        while line := await reader.readline():
            await queue.put(line.decode().strip())
        await queue.put("STOP")

    _KEEP.append(asyncio.ensure_future(pump()))
    return queue


async def _expect(commands: "asyncio.Queue[str]", word: str) -> None:
    got = await commands.get()
    if got != word:
        raise RuntimeError(f"expected {word} from the parent, got {got!r}")


async def _window(commands: "asyncio.Queue[str]", stats: Stats) -> dict[str, Any]:
    """Measure between the parent's MEASURE and STOP."""
    await _expect(commands, "MEASURE")
    before = stats.counters()
    stats.measuring = True
    began = time.perf_counter()
    await _expect(commands, "STOP")
    stats.measuring = False
    elapsed = time.perf_counter() - began
    after = stats.counters()
    games, messages, round_trips = (b - a for a, b in zip(before, after))
    return {"elapsed": elapsed, "games": games, "messages": messages, "round_trips": round_trips,
            "latency": stats.latency, "trip": stats.trip}


async def _game_load(port: int, first: int, tables: int, gen: int) -> dict[str, Any]:
    commands = await _commands()
    stats = Stats()
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

    for start in range(first, first + tables, 50):
        await asyncio.gather(*(setup(i) for i in range(start, min(first + tables, start + 50))))
    print("SETUP", flush=True)
    await _expect(commands, "GO")
    tasks = [asyncio.create_task(bot.play()) for bot in bots]
    for bot in bots:
        bot.send({"type": "ready"})
    result = await _window(commands, stats)
    for bot in bots:
        bot.stop = True
    await asyncio.wait(tasks, timeout=10)
    for task in tasks:
        if task.done() and not task.cancelled() and task.exception() is not None:
            raise task.exception()  # type: ignore[misc]
    for bot in bots:
        bot.writer.close()
    return result


async def _echo_load(port: int, first: int, tables: int, gen: int) -> dict[str, Any]:
    commands = await _commands()
    stats = Stats()
    pairs = []
    for start in range(first, first + tables, 50):
        pairs += await asyncio.gather(*(asyncio.gather(_open(port), _open(port))
                                        for _ in range(start, min(first + tables, start + 50))))
    print("SETUP", flush=True)
    await _expect(commands, "GO")
    stop = False
    request = b'{"type":"action","action":"play","card":"7H","id":1}\n'

    async def alternate(pair: list[tuple[asyncio.StreamReader, asyncio.StreamWriter]]) -> None:
        turn = 0
        perf = time.perf_counter
        while not stop:
            reader, writer = pair[turn]
            sent = perf()
            writer.write(request)
            if not await reader.readline():
                return
            stats.messages += 1
            if stats.measuring:
                stats.round_trips += 1
                latency = perf() - sent
                _note(stats.latency, latency)
                _note(stats.trip, latency)
            turn = 1 - turn

    tasks = [asyncio.create_task(alternate(list(pair))) for pair in pairs]
    result = await _window(commands, stats)
    stop = True
    await asyncio.wait(tasks, timeout=10)
    for pair in pairs:
        for _, writer in pair:
            writer.close()
    return result


def _load_main(kind: str, port: int, first: int, tables: int, gen: int) -> None:
    run = _game_load if kind == "game" else _echo_load
    result = asyncio.run(run(port, first, tables, gen))
    print("RESULT " + json.dumps(result), flush=True)


# == the parent: start, measure, print ============================================================
def _rss_kib(pid: int) -> int:
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def _cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process so far."""
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _start(argv: list[str], env: dict[str, str] | None = None) -> tuple[subprocess.Popen[str], int]:
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, text=True, env=env)
    assert proc.stdout is not None
    line = proc.stdout.readline()
    return proc, int(line.rsplit(":", 1)[1])


def _percentile(histogram: dict[int, int], fraction: float) -> float:
    total = sum(histogram.values())
    if not total:
        return float("nan")
    wanted = fraction * total
    seen = 0
    for key in sorted(histogram):
        seen += histogram[key]
        if seen >= wanted:
            return (key + 0.5) * BUCKET
    return float("nan")


def _load(kind: str, port: int, tables: int, generators: int, seconds: float,
          server_pid: int) -> dict[str, Any]:
    """Run ``generators`` load processes against ``port`` for one measured window."""
    share = [tables // generators + (1 if g < tables % generators else 0) for g in range(generators)]
    procs = []
    first = 0
    for g, count in enumerate(share):
        if count:
            procs.append(subprocess.Popen(
                [sys.executable, __file__, "--load", kind, "--port", str(port), "--first", str(first),
                 "--tables", str(count), "--gen", str(g)],
                stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True))
        first += count

    def tell(word: str) -> None:
        for proc in procs:
            assert proc.stdin is not None
            proc.stdin.write(word + "\n")
            proc.stdin.flush()

    for proc in procs:
        assert proc.stdout is not None
        if proc.stdout.readline().strip() != "SETUP":
            raise RuntimeError("a load generator failed to set up")
    base_rss = _rss_kib(server_pid)
    tell("GO")
    time.sleep(min(2.0, seconds / 4))  # warm up: every table dealing
    rss = _rss_kib(server_pid)
    cpu = {"server": _cpu_seconds(server_pid), "generators": sum(_cpu_seconds(p.pid) for p in procs)}
    tell("MEASURE")
    began = time.perf_counter()
    time.sleep(seconds)
    tell("STOP")
    wall = time.perf_counter() - began
    cpu = {"server": _cpu_seconds(server_pid) - cpu["server"],
           "generators": sum(_cpu_seconds(p.pid) for p in procs) - cpu["generators"]}
    merged: dict[str, Any] = {"games": 0.0, "messages": 0.0, "round_trips": 0.0,
                              "latency": {}, "trip": {}, "elapsed": wall, "rss": rss}
    for proc in procs:
        assert proc.stdout is not None
        result = None
        for line in proc.stdout:
            if line.startswith("RESULT "):
                result = json.loads(line[7:])
        if proc.wait() != 0 or result is None:
            raise RuntimeError("a load generator failed")
        for key in ("games", "messages", "round_trips"):  # rates add up over the generators
            merged[key] += result[key] / result["elapsed"]
        for key in ("latency", "trip"):
            for bucket, count in result[key].items():
                merged[key][int(bucket)] = merged[key].get(int(bucket), 0) + count
    merged["cpu"] = {k: v / wall for k, v in cpu.items()}
    return merged


def _stop(proc: subprocess.Popen[str]) -> None:
    proc.send_signal(signal.SIGINT if proc.args[1:3] == ["-m", "noddy.server.cli"] else signal.SIGTERM)
    proc.wait(timeout=120)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=50, help="tables of two bots (default 50)")
    parser.add_argument("--seconds", type=float, default=10.0, help="measured seconds per run (default 10)")
    parser.add_argument("--generators", type=int, default=max(1, min(4, os.cpu_count() or 1)),
                        help="load-generator processes (default: one per CPU, at most 4)")
    parser.add_argument("--profile", metavar="PATH", help="cProfile the server into PATH and print its top")
    parser.add_argument("--db", default=":memory:",
                        help="the server's storage (default :memory:; give a file to include the "
                             "cost of writing records to disk)")
    parser.add_argument("--no-echo", action="store_true", help="skip the echo run (no ratio)")
    parser.add_argument("--load", choices=["game", "echo"], help=argparse.SUPPRESS)
    parser.add_argument("--port", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--first", type=int, default=0, help=argparse.SUPPRESS)
    parser.add_argument("--gen", type=int, default=0, help=argparse.SUPPRESS)
    parser.add_argument("--echo-server", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.echo_server:
        asyncio.run(_echo_main())
        return 0
    if args.load:
        _load_main(args.load, args.port, args.first, args.tables, args.gen)
        return 0

    env = dict(os.environ)
    if args.profile:
        env["NODDY_PROFILE"] = args.profile
    command = [sys.executable, "-m", "noddy.server.cli", "--host", HOST, "--port", "0",
               "--log-level", "WARNING", "--rate", "1000000", "--burst", "1000000",
               "--max-connections-per-address", "0", "--max-tables-per-connection", "0"]
    helptext = subprocess.run(command[:3] + ["--help"], capture_output=True, text=True).stdout
    if "--max-tables-per-address" in helptext:
        command += ["--max-tables-per-address", "0"]
    if "--db" in helptext:  # a server with storage: keep the benchmark's games out of the real file
        command += ["--db", args.db]
    server, port = _start(command, env)
    base = _rss_kib(server.pid)
    try:
        g = _load("game", port, args.tables, args.generators, args.seconds, server.pid)
    finally:
        _stop(server)
    e = None
    if not args.no_echo:
        echo_proc, echo_port = _start([sys.executable, __file__, "--echo-server"])
        try:
            e = _load("echo", echo_port, args.tables, args.generators, args.seconds, echo_proc.pid)
        finally:
            _stop(echo_proc)

    connections = 2 * args.tables
    ms = 1000.0
    print(f"noddy-server, {args.tables} tables of two-player noddy ({connections} bot connections, "
          f"{args.generators} load generators), {g['elapsed']:.1f} s measured:")
    print(f"  games/s          {g['games']:10.1f}")
    print(f"  messages/s       {g['messages']:10.0f}   (received by the bots)")
    print(f"  round trips/s    {g['round_trips']:10.0f}   (a bot's action -> the next turn it receives)")
    print(f"  latency p50      {_percentile(g['latency'], .5) * ms:10.2f} ms   (an action -> the next event)")
    print(f"  latency p99      {_percentile(g['latency'], .99) * ms:10.2f} ms")
    print(f"  round trip p50   {_percentile(g['trip'], .5) * ms:10.2f} ms, "
          f"p99 {_percentile(g['trip'], .99) * ms:.2f} ms")
    print(f"  memory           {(g['rss'] - base) / connections:10.1f} KiB per connection "
          f"(server RSS {base / 1024:.1f} -> {g['rss'] / 1024:.1f} MiB)")
    print(f"  CPU              server {g['cpu']['server'] * 100:.0f}% of a core, "
          f"generators {g['cpu']['generators'] * 100:.0f}%")
    if e is not None:
        rt, ert = g["round_trips"], e["round_trips"]
        print(f"bare asyncio JSON-lines echo, same generators and concurrency ({e['elapsed']:.1f} s):")
        print(f"  round trips/s    {ert:10.0f}   (a request line -> its echo)  p50 "
              f"{_percentile(e['trip'], .5) * ms:.2f} ms, p99 {_percentile(e['trip'], .99) * ms:.2f} ms")
        print(f"  CPU              echo server {e['cpu']['server'] * 100:.0f}% of a core, "
              f"generators {e['cpu']['generators'] * 100:.0f}%")
        print(f"ratio server/echo round trips: {rt / ert if ert else float('nan'):.2f}   (aim: at least 0.5)")
        print(f"summary tables={args.tables} games/s={g['games']:.1f} msgs/s={g['messages']:.0f} "
              f"rt/s={rt:.0f} p50={_percentile(g['latency'], .5) * ms:.1f}ms "
              f"p99={_percentile(g['latency'], .99) * ms:.1f}ms "
              f"mem={(g['rss'] - base) / connections:.1f}KiB/conn echo_rt/s={ert:.0f} ratio={rt / ert:.2f}")
    if args.profile:
        print(f"\nserver profile ({args.profile}), top 25 by own time:")
        pstats.Stats(args.profile).sort_stats("tottime").print_stats(25)
    return 0


if __name__ == "__main__":
    sys.exit(main())
