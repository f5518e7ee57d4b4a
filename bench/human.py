"""A crowded server at human pace: many tables of people plus an idle lobby.  Not a test: it prints.

Issue 15, "Many people in the lobby".  It starts ``noddy-server`` as its own process and
``--generators`` load-generator processes, each one asyncio loop holding its share of:

* ``--tables`` tables of two-player noddy, two people each, who act 1-3 s (``--think``)
  after a ``turn`` offers them something.  Tables are created and closed throughout: when a
  game ends, or (with probability ``--abandon`` at each of seat 0's moves) before, both
  players leave (the table closes), wait 1-3 s in the lobby, and open a new table together;
* ``--lobby`` idle lobby connections that say hello and then only read (and answer pings).

The tables are set up first and the lobby after, so that the setup does not pay for the lobby.
Printed for the measured window (``--seconds``, after a warm-up): actions/s, tables
closed/s, p50/p99 from an action to the next ``turn`` (or ``game_over``) the actor receives,
the server's CPU in % of one core, and what each lobby connection received (lines/s,
chunks/s, bytes/s).  Aim (the issue): p99 < 50 ms and the server < 50 % of a core with 2,000
tables and 2,000 in the lobby.

``--one-table`` measures the smaller figure instead: server CPU to create and fill one table
(create, sit, until every lobby connection has been told of the full table) with ``--lobby``
idle connections (default 1,000 there), averaged over ``--rounds`` tables; with ``--together
N``, N tables are created and filled at once in each round (the cost a table when many change
together, as on a busy server).

    python bench/human.py                                # 2,000 tables + 2,000 in the lobby, 20 s
    python bench/human.py --tables 200 --lobby 200 --seconds 10
    python bench/human.py --one-table --lobby 1000

Run it with the interpreter of the server to measure (a venv with another checkout measures
that one): the server is ``python -m noddy.server.cli`` of the same interpreter.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import resource
import signal
import statistics
import subprocess
import sys
import time
from typing import Any

from load_common import (BUCKET, ERROR, EVENT, GAME_OVER, ID, LEGAL, LEGAL_END, PING, TURN,
                         cpu_seconds, generator_results, merge_histogram, percentile, read_commands)

HOST = "127.0.0.1"


def _raise_fd_limit(wanted: int) -> None:
    """Raise the soft limit of open files towards ``wanted`` (children inherit it)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < wanted:
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(wanted, hard), hard))


class Stats:
    def __init__(self) -> None:
        self.measuring = False
        self.actions = 0
        self.closed = 0
        self.errors = 0
        self.lobby_lines = 0
        self.lobby_chunks = 0
        self.lobby_bytes = 0
        self.trip: dict[int, int] = {}
        self.failure: str | None = None


class Conn(asyncio.Protocol):
    """A connection cutting what arrives into lines; replies wake whoever waits on their id."""

    def __init__(self, stats: Stats) -> None:
        self.stats = stats
        self.buffer = b""
        self.next_id = 0
        self.waiting: dict[int, asyncio.Future[bytes]] = {}
        self.greeted: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.closed = False

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport: asyncio.Transport = transport  # type: ignore[assignment]

    def connection_lost(self, exc: Exception | None) -> None:
        self.closed = True
        if self.stats.failure is None and not getattr(self, "stopping", False):
            self.stats.failure = f"the server closed a connection ({exc})"
        for future in self.waiting.values():
            if not future.done():
                future.set_exception(ConnectionError("closed"))

    def data_received(self, data: bytes) -> None:
        *lines, self.buffer = (self.buffer + data).split(b"\n")
        for line in lines:
            self.on_line(line)

    def on_line(self, line: bytes) -> None:
        if not self.greeted.done():
            self.greeted.set_result(None)
        elif line.startswith(PING):
            self.transport.write(b'{"type":"pong"}\n')
        elif self.waiting and (line.startswith(ERROR) or line.endswith(b"}")):
            at = line.rfind(ID)
            if line.startswith(ERROR):
                rid = json.loads(line).get("id")
                self.stats.errors += 1
            else:
                rid = int(line[at + len(ID):-1]) if at >= 0 and line[at + len(ID):-1].isdigit() else None
            future = self.waiting.pop(rid, None) if rid is not None else None
            if future is not None and not future.done():
                future.set_result(line)

    def send(self, message: dict[str, Any]) -> int:
        self.next_id += 1
        self.transport.write(json.dumps({**message, "id": self.next_id}, separators=(",", ":")).encode() + b"\n")
        return self.next_id

    async def request(self, message: dict[str, Any]) -> dict[str, Any]:
        rid = self.send(message)
        future = self.waiting[rid] = asyncio.get_running_loop().create_future()
        return json.loads(await asyncio.wait_for(future, 120))


class Idle(Conn):
    """An idle lobby connection: counts what it is pushed, answers pings."""

    def data_received(self, data: bytes) -> None:
        if not self.greeted.done() or self.waiting:
            return super().data_received(data)
        stats = self.stats
        if stats.measuring:
            stats.lobby_chunks += 1
            stats.lobby_bytes += len(data)
            stats.lobby_lines += data.count(b"\n")
        if PING in data:
            self.transport.write(b'{"type":"pong"}\n')


class Player(Conn):
    """A person at a table: acts 1-3 s after a turn offers them something."""

    def __init__(self, stats: Stats, rng: random.Random, think: tuple[float, float]) -> None:
        super().__init__(stats)
        self.rng = rng
        self.think = think
        self.pair: Pair | None = None
        self.serial = 0  # of the last turn that offered something (a later one makes it stale)
        self.trip_at: float | None = None

    def _trip_done(self, now: float) -> None:
        if self.stats.measuring and self.trip_at is not None:
            key = int((now - self.trip_at) / BUCKET)
            self.stats.trip[key] = self.stats.trip.get(key, 0) + 1
        self.trip_at = None

    def on_line(self, line: bytes) -> None:
        if line.startswith(TURN):
            if self.trip_at is not None:
                self._trip_done(time.perf_counter())
            pair = self.pair
            if pair is None or not pair.playing:
                return
            start = line.find(LEGAL)
            if start < 0 or line[start + len(LEGAL)] == 93:  # "]": nothing to do
                return
            end = line.find(LEGAL_END, start)
            if end < 0:
                choices = [json.dumps(a, separators=(",", ":")).encode() for a in json.loads(line)["legal_actions"]]
            else:
                choices = line[start + len(LEGAL):end].split(b"},{")
            self.serial += 1
            action = self.rng.choice(choices).strip(b"{}")
            asyncio.get_running_loop().call_later(self.rng.uniform(*self.think), self.act, self.serial, action)
        elif line.startswith(EVENT):
            if GAME_OVER in line:
                if self.trip_at is not None:
                    self._trip_done(time.perf_counter())
                if self.pair is not None:
                    self.pair.over()
        else:
            super().on_line(line)

    def act(self, serial: int, action: bytes) -> None:
        pair = self.pair
        if serial != self.serial or pair is None or not pair.playing or self.closed:
            return
        if self is pair.seats[0] and self.rng.random() < pair.abandon:
            pair.over()  # the pair gives up this table: both leave, it closes
            return
        self.next_id += 1
        self.trip_at = time.perf_counter()
        if self.stats.measuring:
            self.stats.actions += 1
        self.transport.write(b'{"type":"action",%s,"id":%d}\n' % (action, self.next_id))


class Pair:
    """Two players who open a table together, play, leave it, and open another."""

    def __init__(self, a: Player, b: Player, abandon: float, rng: random.Random) -> None:
        self.seats = (a, b)
        a.pair = b.pair = self
        self.abandon = abandon
        self.rng = rng
        self.playing = False
        self.done: asyncio.Future[None] | None = None

    def over(self) -> None:
        self.playing = False
        if self.done is not None and not self.done.done():
            self.done.set_result(None)

    async def open_table(self) -> None:
        a, b = self.seats
        reply = await a.request({"type": "create_table", "preset": "noddy"})
        await b.request({"type": "sit", "table": reply["table"]["id"]})

    async def run(self, go: asyncio.Event, stop: asyncio.Event, stagger: float) -> None:
        a, b = self.seats
        await go.wait()
        # People do not all say ready in the same instant: 2,000 tables starting at once
        # would put every table in one lobby push (~1 MB for each lobby connection).
        await asyncio.sleep(self.rng.uniform(0.0, stagger))
        while not stop.is_set():
            self.done = asyncio.get_running_loop().create_future()
            self.playing = True
            await asyncio.gather(a.request({"type": "ready"}), b.request({"type": "ready"}))
            await self.done
            self.playing = False
            if stop.is_set():
                return
            await a.request({"type": "leave"})
            await b.request({"type": "leave"})  # the table closes
            if a.stats.measuring:
                a.stats.closed += 1
            await asyncio.sleep(self.rng.uniform(1.0, 3.0))
            if not stop.is_set():
                await self.open_table()


async def _open(port: int, factory: Any) -> Any:
    loop = asyncio.get_running_loop()
    for attempt in range(50):
        try:
            conn = (await loop.create_connection(factory, HOST, port))[1]
            await asyncio.wait_for(conn.greeted, 30)
            return conn
        except OSError:
            await asyncio.sleep(0.05 * (attempt + 1))
    raise RuntimeError("cannot connect")


async def _generator(args: argparse.Namespace) -> dict[str, Any]:
    commands = await read_commands()
    stats = Stats()
    think = (args.think_min, args.think_max)
    pairs: list[Pair] = []

    async def setup_pair(index: int) -> None:
        a = await _open(args.port, lambda: Player(stats, random.Random(index * 2), think))
        b = await _open(args.port, lambda: Player(stats, random.Random(index * 2 + 1), think))
        await a.request({"type": "hello", "name": f"a{index}", "version": 1})
        await b.request({"type": "hello", "name": f"b{index}", "version": 1})
        pair = Pair(a, b, args.abandon, random.Random(index))
        await pair.open_table()
        pairs.append(pair)

    async def setup_idle(index: int) -> Idle:
        idle = await _open(args.port, lambda: Idle(stats))
        await idle.request({"type": "hello", "name": f"l{index}", "version": 1})
        return idle

    for start in range(args.first, args.first + args.tables, 50):
        await asyncio.gather(*(setup_pair(i) for i in range(start, min(args.first + args.tables, start + 50))))
    print("TABLES", flush=True)
    assert await commands.get() == "LOBBY"
    idles: list[Idle] = []
    for start in range(args.first_lobby, args.first_lobby + args.lobby, 100):
        idles += await asyncio.gather(*(setup_idle(i) for i in
                                        range(start, min(args.first_lobby + args.lobby, start + 100))))
    print("SETUP", flush=True)
    assert await commands.get() == "GO"
    go, stop = asyncio.Event(), asyncio.Event()
    tasks = [asyncio.ensure_future(pair.run(go, stop, args.stagger)) for pair in pairs]
    go.set()
    assert await commands.get() == "MEASURE"
    stats.measuring = True
    began = time.perf_counter()
    assert await commands.get() == "STOP"
    stats.measuring = False
    elapsed = time.perf_counter() - began
    stop.set()
    for pair in pairs:
        pair.over()
    await asyncio.sleep(0.2)
    for task in tasks:
        task.cancel()
    for conn in [c for p in pairs for c in p.seats] + idles:
        conn.stopping = True  # type: ignore[attr-defined]
        conn.transport.close()
    return {"elapsed": elapsed, "actions": stats.actions, "closed": stats.closed, "errors": stats.errors,
            "lobby_lines": stats.lobby_lines, "lobby_chunks": stats.lobby_chunks,
            "lobby_bytes": stats.lobby_bytes, "trip": stats.trip, "failure": stats.failure}


# == the parent ===================================================================================
def _start_server(args: argparse.Namespace) -> tuple[subprocess.Popen[str], int]:
    command = [sys.executable, "-m", "noddy.server.cli", "--host", HOST, "--port", "0",
               "--log-level", "WARNING", "--rate", "1000000", "--burst", "1000000",
               "--max-connections-per-address", "0", "--max-tables-per-connection", "0",
               "--max-tables-per-address", "0", "--db", args.db]
    if args.lobby_push_interval is not None:
        command += ["--lobby-push-interval", str(args.lobby_push_interval)]
    proc = subprocess.Popen(command, stdout=subprocess.PIPE, text=True)
    assert proc.stdout is not None
    return proc, int(proc.stdout.readline().rsplit(":", 1)[1])


def _stop(proc: subprocess.Popen[Any]) -> None:
    proc.send_signal(signal.SIGINT)
    try:
        proc.wait(timeout=60)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


def _crowd(args: argparse.Namespace, port: int, server_pid: int) -> None:
    n = args.generators
    procs = []
    for g in range(n):
        tables = args.tables // n + (g < args.tables % n)
        lobby = args.lobby // n + (g < args.lobby % n)
        procs.append(subprocess.Popen(
            [sys.executable, __file__, "--gen", str(g), "--port", str(port), "--tables", str(tables),
             "--first", str(g * (args.tables // n + 1)), "--lobby", str(lobby),
             "--first-lobby", str(g * (args.lobby // n + 1)), "--think", str(args.think_min), str(args.think_max),
             "--abandon", str(args.abandon), "--stagger", str(args.stagger)],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True))

    def tell(word: str) -> None:
        for proc in procs:
            assert proc.stdin is not None
            proc.stdin.write(word + "\n")
            proc.stdin.flush()

    def expect(word: str) -> None:
        for proc in procs:
            assert proc.stdout is not None
            if proc.stdout.readline().strip() != word:
                raise RuntimeError(f"a load generator failed before {word}")

    expect("TABLES")
    tell("LOBBY")
    expect("SETUP")
    tell("GO")
    time.sleep(args.warmup)
    cpu = cpu_seconds(server_pid)
    gen_cpu = sum(cpu_seconds(p.pid) for p in procs)
    tell("MEASURE")
    began = time.perf_counter()
    time.sleep(args.seconds)
    tell("STOP")
    wall = time.perf_counter() - began
    cpu = (cpu_seconds(server_pid) - cpu) / wall
    gen_cpu = (sum(cpu_seconds(p.pid) for p in procs) - gen_cpu) / wall
    merged: dict[str, Any] = {"actions": 0.0, "closed": 0.0, "errors": 0, "lobby_lines": 0.0,
                              "lobby_chunks": 0.0, "lobby_bytes": 0.0, "trip": {}}
    for result in generator_results(procs):
        if result["failure"]:
            print(f"  (a generator saw: {result['failure']})")
        for key in ("actions", "closed", "lobby_lines", "lobby_chunks", "lobby_bytes"):
            merged[key] += result[key] / result["elapsed"]
        merged["errors"] += result["errors"]
        merge_histogram(merged["trip"], result["trip"])
    ms, lobby = 1000.0, max(1, args.lobby)
    p50, p99 = percentile(merged["trip"], 0.5) * ms, percentile(merged["trip"], 0.99) * ms
    print(f"noddy-server, {args.tables} human-paced tables + {args.lobby} idle in the lobby "
          f"({args.generators} generators), {wall:.1f} s measured:")
    print(f"  actions/s        {merged['actions']:10.1f}   (each {args.think_min:g}-{args.think_max:g} s "
          f"after its turn)")
    print(f"  tables closed/s  {merged['closed']:10.1f}   (and as many opened)")
    print(f"  action -> turn   p50 {p50:.1f} ms, p99 {p99:.1f} ms   (aim: p99 < 50 ms; p90 "
          f"{percentile(merged['trip'], 0.9) * ms:.1f}, p95 {percentile(merged['trip'], 0.95) * ms:.1f}, "
          f"p99.9 {percentile(merged['trip'], 0.999) * ms:.1f} ms)")
    print(f"  server CPU       {cpu * 100:10.1f} % of a core   (aim: < 50 %); generators {gen_cpu * 100:.0f} %")
    print(f"  each lobby conn  {merged['lobby_lines'] / lobby:10.1f} lines/s, "
          f"{merged['lobby_chunks'] / lobby:.1f} reads/s, {merged['lobby_bytes'] / lobby:.0f} bytes/s")
    print(f"  refused requests {merged['errors']}")
    print(f"summary tables={args.tables} lobby={args.lobby} actions/s={merged['actions']:.0f} "
          f"p50={p50:.1f}ms p99={p99:.1f}ms server_cpu={cpu * 100:.1f}% "
          f"lobby_lines/s/conn={merged['lobby_lines'] / lobby:.1f}")


async def _one_table(args: argparse.Namespace, port: int, server_pid: int) -> None:
    """Server CPU to create and fill one table, until every lobby connection has heard."""
    stats = Stats()

    class Listener(Idle):
        """Keeps what it is pushed, and wakes whoever waits for something in it."""

        raw = b""
        event: asyncio.Event

        def data_received(self, data: bytes) -> None:
            if self.greeted.done() and not self.waiting:
                self.raw += data
                self.event.set()
            else:
                super().data_received(data)

    idles: list[Listener] = []
    for start in range(0, args.lobby, 100):
        batch = await asyncio.gather(*(_open(port, lambda: Listener(stats))
                                       for _ in range(start, min(args.lobby, start + 100))))
        for i, idle in enumerate(batch, start=start):
            idle.event = asyncio.Event()
            await idle.request({"type": "hello", "name": f"l{i}", "version": 1})
        idles += batch
    pairs = []
    for k in range(args.together):
        a = await _open(port, lambda: Conn(stats))
        b = await _open(port, lambda: Conn(stats))
        await a.request({"type": "hello", "name": f"a{k}", "version": 1})
        await b.request({"type": "hello", "name": f"b{k}", "version": 1})
        pairs.append((a, b))

    async def create_and_fill(a: Conn, b: Conn) -> int:
        table = (await a.request({"type": "create_table", "preset": "noddy"}))["table"]["id"]
        await b.request({"type": "sit", "table": table})
        return table

    async def leave(a: Conn, b: Conn) -> None:
        await a.request({"type": "leave"})
        await b.request({"type": "leave"})

    async def heard(idle: Listener, needles: list[bytes]) -> None:
        while not all(needle in idle.raw for needle in needles):
            idle.event.clear()
            await idle.event.wait()

    costs, lines = [], []
    for _ in range(args.rounds):
        for idle in idles:
            idle.raw = b""
        before = cpu_seconds(server_pid)
        tables = await asyncio.gather(*(create_and_fill(a, b) for a, b in pairs))
        full = [b'"name":"b%d"' % k for k in range(args.together)]
        await asyncio.gather(*(heard(idle, full) for idle in idles))
        costs.append((cpu_seconds(server_pid) - before) / args.together)
        lines.append(sum(idle.raw.count(b'"preset":"noddy"') for idle in idles) / args.together)
        await asyncio.gather(*(leave(a, b) for a, b in pairs))
        closed = [b'"table_closed","table":%d,' % table for table in tables]
        await asyncio.gather(*(heard(idle, closed) for idle in idles))
    for conn in idles + [c for pair in pairs for c in pair]:
        conn.stopping = True  # type: ignore[attr-defined]
        conn.transport.close()
    mean = sum(costs) / len(costs) * 1000
    print(f"create and fill one table with {args.lobby} idle in the lobby ({args.together} at once), "
          f"{args.rounds} rounds: "
          f"server CPU {mean:.1f} ms a table (mean; /proc ticks of "
          f"{1000 / os.sysconf('SC_CLK_TCK'):.0f} ms), {statistics.median(lines):.0f} table lines to the lobby")
    print(f"summary one_table lobby={args.lobby} together={args.together} server_ms={mean:.2f} "
          f"lobby_lines={statistics.median(lines):.0f}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=2000, help="tables of two people (default 2000)")
    parser.add_argument("--lobby", type=int, default=None, help="idle lobby connections (default 2000; "
                                                                  "1000 with --one-table)")
    parser.add_argument("--seconds", type=float, default=20.0, help="measured seconds (default 20)")
    parser.add_argument("--warmup", type=float, default=8.0, help="seconds of play before measuring (default 8)")
    parser.add_argument("--generators", type=int, default=2, help="load-generator processes (default 2)")
    parser.add_argument("--think", type=float, nargs=2, default=(1.0, 3.0), metavar=("MIN", "MAX"),
                        help="seconds a person takes to act after a turn (default 1 3)")
    parser.add_argument("--abandon", type=float, default=0.02,
                        help="chance at each of seat 0's moves that the pair leaves the table (default 0.02)")
    parser.add_argument("--stagger", type=float, default=4.0,
                        help="seconds over which the tables first say ready (default 4)")
    parser.add_argument("--db", default=":memory:", help="the server's storage (default :memory:)")
    parser.add_argument("--lobby-push-interval", type=float, default=None,
                        help="pass this --lobby-push-interval to the server (default: its own)")
    parser.add_argument("--one-table", action="store_true", help="measure one table's cost instead")
    parser.add_argument("--rounds", type=int, default=20, help="rounds for --one-table (default 20)")
    parser.add_argument("--together", type=int, default=1,
                        help="tables created and filled at once in each --one-table round (default 1)")
    parser.add_argument("--gen", type=int, default=None, help=argparse.SUPPRESS)
    parser.add_argument("--port", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--first", type=int, default=0, help=argparse.SUPPRESS)
    parser.add_argument("--first-lobby", type=int, default=0, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    args.think_min, args.think_max = args.think
    if args.lobby is None:
        args.lobby = 1000 if args.one_table else 2000
    _raise_fd_limit(4 * (2 * args.tables + args.lobby) + 1024)
    if args.gen is not None:
        print("RESULT " + json.dumps(asyncio.run(_generator(args))), flush=True)
        return 0
    server, port = _start_server(args)
    try:
        if args.one_table:
            asyncio.run(_one_table(args, port, server.pid))
        else:
            _crowd(args, port, server.pid)
    finally:
        _stop(server)
    return 0


if __name__ == "__main__":
    sys.exit(main())
