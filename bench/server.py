"""Capacity benchmark of noddy-server against the bare-asyncio floor.  Not a test: it prints.

It starts ``noddy-server`` as its own process and ``--generators`` load-generator processes
(default: one per CPU, at most 4), each a single asyncio loop holding its share of the bot
clients: two per table, ``--tables`` tables of two-player noddy, playing at full speed (each
bot acts the moment a ``turn`` offers it legal actions, and both say ready again when a game
ends) for ``--seconds``.  The bots are lean, so that the generators spend their time on the
server, not on themselves: each connection is an :class:`asyncio.Protocol` that cuts what the
socket delivered into lines itself (no ``StreamReader.readline``, no task per bot), looks at the
first bytes of each line and never ``json.loads`` -- an action is cut out of the ``turn`` line's
``legal_actions``.  The summary prints the generators' CPU per round trip to show it.

A *round trip* is what lets a client act again:

* game server: a bot's ``action`` -> the next ``turn`` (or the ``game_over`` event) that the
  same bot receives.  Between the two the server has validated and applied the action, stored
  it, and sent both players the ``ok`` reply, the events and the next turn (~4-9 lines each);
* echo server: a request line -> its echoed reply (1 line).

Both are measured by the same generators with the same connections and concurrency: per table
(per pair of connections) exactly one request in flight, alternating between the two
connections as turns alternate.  The ratio server/echo of round trips a second says how close
the game server comes to the floor of "parse a JSON line, write a JSON line".  There are two
floors, each a few lines of bare asyncio, measured in the same run after the game server:

* echo (asyncio streams): ``start_server``, ``readline``, ``json.loads`` + ``json.dumps``,
  ``write`` + ``drain`` -- the ratio ``ratio=`` / ``ratio_streams=`` is against this one;
* echo (asyncio protocol): an :class:`asyncio.Protocol` whose ``data_received`` splits the
  chunk into lines and answers each with ``json.loads`` + ``json.dumps`` + ``transport.write``
  (the layer the game server is built on; it uses the buffered variant) -- ``ratio_protocol=``.

Printed: games/s, messages/s (received by the bots), round trips/s, latency p50/p99 from an
action to the next ``event`` the actor receives (the issue's definition) and of the whole round
trip, the server's CPU use and resident memory per connection, the generators' CPU use (and per
round trip), and both echoes' round trips/s.

    python bench/server.py                       # 50 tables, 10 s (quick)
    python bench/server.py --rounds 5 --seconds 6       # the figure to quote: see below
    python bench/server.py --tables 1000 --seconds 20
    python bench/server.py --profile /tmp/server.prof   # cProfile the server, print its top
    python bench/server.py --sample /tmp/sample.txt     # sample it instead (bench/sampled_server.py)

The generators share the machine with the server, so the figures are the whole set's; the
machine may be busy with other work, so compare the ratios of one run, not figures across runs.
Even one run's ratio is unsure: on this machine the echo's own rate moved from 13.6k to 26.4k
round trips a second between rounds a minute apart.  ``--rounds N`` runs the game server and
the echoes N times, taking turns at running first, and prints each round's ratio and their
median; the report above that is the first round's.
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import json
import os
import pstats
import random
import signal
import statistics
import subprocess
import sys
import time
from typing import Any

from load_common import (BUCKET, ERROR, EVENT, GAME_OVER, LEGAL, LEGAL_END, TURN, cpu_seconds,
                         generator_results, merge_histogram, percentile, read_commands)

HOST = "127.0.0.1"
#: The two echo servers (the floors), by the name the output gives them.
ECHOES = {"streams": "echo (asyncio streams)", "protocol": "echo (asyncio protocol)"}


# == the echo servers: the floors =================================================================
async def _echo(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    while line := await reader.readline():
        writer.write((json.dumps(json.loads(line), separators=(",", ":")) + "\n").encode())
        await writer.drain()
    writer.close()


class _Echo(asyncio.Protocol):
    """The same echo one layer down: cut the chunk into lines, answer each line."""

    buffer = b""

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport: asyncio.Transport = transport  # type: ignore[assignment]

    def data_received(self, data: bytes) -> None:
        *lines, self.buffer = (self.buffer + data).split(b"\n")
        for line in lines:
            self.transport.write(json.dumps(json.loads(line), separators=(",", ":")).encode() + b"\n")


async def _echo_main(kind: str) -> None:
    if kind == "streams":
        server = await asyncio.start_server(_echo, HOST, 0, limit=8192, backlog=4096)
    else:
        server = await asyncio.get_running_loop().create_server(_Echo, HOST, 0, backlog=4096)
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
        #: What went wrong in a protocol callback (where raising would only be logged).
        self.failure: str | None = None

    def counters(self) -> tuple[int, int, int]:
        return self.games, self.messages, self.round_trips


def _note(histogram: dict[int, int], seconds: float) -> None:
    key = int(seconds / BUCKET)
    histogram[key] = histogram.get(key, 0) + 1


#: What a client connection asks recv() for.  asyncio's default, 256 KiB, is above glibc's mmap
#: threshold: every recv() would map, fault in and unmap a fresh buffer (~13 µs here, more than
#: the rest of a chunk's handling); 64 KiB comes from the heap.  The echo servers keep asyncio's
#: defaults: they are the floor as bare asyncio gives it.
RECV_SIZE = 64 * 1024


class Connection(asyncio.Protocol):
    """A client connection that cuts what it receives into lines itself.

    Until :attr:`playing` is set (the setup: not measured), complete lines queue up for
    :meth:`readline`; subclasses take over :meth:`data_received` once playing.
    """

    def __init__(self, stats: Stats) -> None:
        self.stats = stats
        self.buffer = b""   # an incomplete last line
        self.lines: collections.deque[bytes] = collections.deque()
        self.waiter: asyncio.Future[None] | None = None
        self.closed = False
        self.playing = False
        self.stop = False

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport: asyncio.Transport = transport  # type: ignore[assignment]
        self.write = self.transport.write
        if hasattr(transport, "max_size"):  # the selector transport's recv() size
            transport.max_size = RECV_SIZE  # type: ignore[attr-defined]

    def take_lines(self, data: bytes) -> list[bytes]:
        """The complete lines of what has arrived so far; an incomplete last one waits."""
        *lines, self.buffer = (self.buffer + data).split(b"\n")
        return lines

    def data_received(self, data: bytes) -> None:
        self.lines.extend(self.take_lines(data))
        self._wake()

    def connection_lost(self, exc: Exception | None) -> None:
        self.closed = True
        if not self.stop and self.playing and self.stats.failure is None:
            self.stats.failure = f"the server closed a connection while playing ({exc})"
        self._wake()

    def _wake(self) -> None:
        if self.waiter is not None and not self.waiter.done():
            self.waiter.set_result(None)

    async def readline(self) -> bytes:
        while not self.lines:
            if self.closed:
                raise ConnectionError("the server closed the connection")
            self.waiter = asyncio.get_running_loop().create_future()
            await self.waiter
        return self.lines.popleft()

    def close(self) -> None:
        self.stop = True
        self.transport.close()


async def _open(port: int, connection: Any) -> Any:
    loop = asyncio.get_running_loop()
    for attempt in range(50):
        try:
            return (await loop.create_connection(connection, HOST, port))[1]
        except OSError:
            await asyncio.sleep(0.05 * (attempt + 1))
    raise RuntimeError("cannot connect")


class Bot(Connection):
    """One seat: acts on every turn that offers it something, readies again after a game."""

    def __init__(self, stats: Stats, rng: random.Random, counts_games: bool) -> None:
        super().__init__(stats)
        self.rng = rng
        self.counts_games = counts_games
        self.next_id = 0
        self.sent_at: float | None = None   # waiting for the next event (latency)
        self.trip_at: float | None = None   # waiting for the next turn (round trip)

    def send(self, message: dict[str, Any]) -> int:
        self.next_id += 1
        self.write((json.dumps({**message, "id": self.next_id}, separators=(",", ":")) + "\n").encode())
        return self.next_id

    async def request(self, message: dict[str, Any]) -> dict[str, Any]:
        rid = self.send(message)
        while True:
            reply = json.loads(await self.readline())
            if reply.get("id") == rid:
                return reply

    def start(self) -> None:
        """Leave the setup: from now on react to each chunk as it arrives, and say ready."""
        self.playing = True
        self.lines.clear()
        self.send({"type": "ready"})

    def _round_trip_done(self, now: float) -> None:
        stats = self.stats
        if stats.measuring:
            stats.round_trips += 1
            _note(stats.trip, now - self.trip_at)  # type: ignore[operator]
        self.trip_at = None

    def data_received(self, data: bytes) -> None:
        """React to what the server sent, by the first bytes of each line (no json.loads)."""
        if not self.playing:
            return super().data_received(data)
        lines = self.take_lines(data)
        if not lines:
            return
        stats = self.stats
        stats.messages += len(lines)
        now = time.perf_counter()
        for line in lines:
            if line.startswith(EVENT):
                if self.sent_at is not None:
                    if stats.measuring:
                        _note(stats.latency, now - self.sent_at)
                    self.sent_at = None
                if GAME_OVER in line:
                    if self.trip_at is not None:
                        self._round_trip_done(now)
                    if stats.measuring and self.counts_games:
                        stats.games += 1
                    if not self.stop:
                        self.next_id += 1
                        self.write(b'{"type":"ready","id":%d}\n' % self.next_id)
            elif line.startswith(TURN):
                if self.trip_at is not None:
                    self._round_trip_done(now)
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
                self.sent_at = self.trip_at = time.perf_counter()
                self.write(b'{"type":"action",%s,"id":%d}\n' % (action, self.next_id))
            elif line.startswith(ERROR):
                if stats.failure is None:
                    stats.failure = f"the server refused a bot: {line!r}"
                self.close()
                return


class EchoBot(Connection):
    """One of a pair of echo clients: each reply makes the partner send the next request."""

    REQUEST = b'{"type":"action","action":"play","card":"7H","id":1}\n'

    partner: EchoBot
    sent_at = 0.0
    waiting = False  # for the echo of a request

    def send(self) -> None:
        self.waiting = True
        self.sent_at = time.perf_counter()
        self.write(self.REQUEST)

    def data_received(self, data: bytes) -> None:
        lines = self.take_lines(data)
        if not lines:
            return
        self.waiting = False
        stats = self.stats
        stats.messages += len(lines)
        if stats.measuring:
            stats.round_trips += 1
            latency = time.perf_counter() - self.sent_at
            _note(stats.latency, latency)
            _note(stats.trip, latency)
        if not self.stop:
            self.partner.send()


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


async def _wind_down(connections: list[Any], answered: Any) -> None:
    """Stop acting, let the requests in flight be answered, then hang up (so nobody gets a reset)."""
    for connection in connections:
        connection.stop = True
    for _ in range(500):
        if all(answered(c) or c.closed for c in connections):
            break
        await asyncio.sleep(0.01)
    await asyncio.sleep(0.1)  # what the server sent the other seat with the last answer
    for connection in connections:
        connection.close()


async def _game_load(port: int, first: int, tables: int, gen: int) -> dict[str, Any]:
    commands = await read_commands()
    stats = Stats()
    bots: list[Bot] = []

    async def setup(index: int) -> None:
        pair = []
        for seat in range(2):
            bot = await _open(port, lambda s=seat: Bot(stats, random.Random(index * 2 + s), s == 0))
            await bot.readline()  # the greeting
            pair.append(bot)
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
    for bot in bots:
        bot.start()
    result = await _window(commands, stats)
    await _wind_down(bots, lambda bot: bot.trip_at is None)
    if stats.failure is not None:
        raise RuntimeError(stats.failure)
    return result


async def _echo_load(port: int, first: int, tables: int, gen: int) -> dict[str, Any]:
    commands = await read_commands()
    stats = Stats()
    pairs: list[tuple[EchoBot, EchoBot]] = []
    for start in range(first, first + tables, 50):
        pairs += await asyncio.gather(*(asyncio.gather(_open(port, lambda: EchoBot(stats)),
                                                       _open(port, lambda: EchoBot(stats)))
                                        for _ in range(start, min(first + tables, start + 50))))
    print("SETUP", flush=True)
    await _expect(commands, "GO")
    for a, b in pairs:
        a.partner, b.partner = b, a
        a.playing = b.playing = True
        a.send()
    result = await _window(commands, stats)
    await _wind_down([bot for pair in pairs for bot in pair], lambda bot: not bot.waiting)
    if stats.failure is not None:
        raise RuntimeError(stats.failure)
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


def _start(argv: list[str], env: dict[str, str] | None = None) -> tuple[subprocess.Popen[str], int]:
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, text=True, env=env)
    assert proc.stdout is not None
    line = proc.stdout.readline()
    return proc, int(line.rsplit(":", 1)[1])


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
    cpu = {"server": cpu_seconds(server_pid), "generators": sum(cpu_seconds(p.pid) for p in procs)}
    tell("MEASURE")
    began = time.perf_counter()
    time.sleep(seconds)
    tell("STOP")
    wall = time.perf_counter() - began
    cpu = {"server": cpu_seconds(server_pid) - cpu["server"],
           "generators": sum(cpu_seconds(p.pid) for p in procs) - cpu["generators"]}
    merged: dict[str, Any] = {"games": 0.0, "messages": 0.0, "round_trips": 0.0,
                              "latency": {}, "trip": {}, "elapsed": wall, "rss": rss,
                              "setup_rss": base_rss}
    for result in generator_results(procs):
        for key in ("games", "messages", "round_trips"):  # rates add up over the generators
            merged[key] += result[key] / result["elapsed"]
        for key in ("latency", "trip"):
            merge_histogram(merged[key], result[key])
    merged["cpu"] = {k: v / wall for k, v in cpu.items()}
    return merged


def _us_per_trip(run: dict[str, Any], who: str = "generators") -> float:
    """``who``'s CPU time per round trip, in microseconds: steadier than round trips a
    second on a shared machine, where the server may not get a whole core."""
    return run["cpu"][who] / run["round_trips"] * 1e6 if run["round_trips"] else float("nan")


def _per_trip(run: dict[str, Any]) -> str:
    return (f"(per round trip: server {_us_per_trip(run, 'server'):.0f} µs, "
            f"generators {_us_per_trip(run):.0f} µs of CPU)")


def _stop(proc: subprocess.Popen[str]) -> None:
    proc.send_signal(signal.SIGINT if proc.args[1:3] == ["-m", "noddy.server.cli"] else signal.SIGTERM)
    proc.wait(timeout=120)


def _round_ratios(rounds: list[dict[str, Any]], kind: str) -> list[float]:
    """Each round's ratio of the game server's round trips a second to the ``kind`` echo's."""
    return [r["game"]["round_trips"] / r[kind]["round_trips"] if r[kind]["round_trips"] else float("nan")
            for r in rounds]


def _print_rounds(rounds: list[dict[str, Any]], echo_kinds: list[str]) -> None:
    """One line per round (the report above is the first round's), then the medians."""
    print(f"{len(rounds)} rounds, alternating which server runs first:")
    for number, r in enumerate(rounds, 1):
        game = r["game"]
        echo = "".join(f", {kind} echo {r[kind]['round_trips']:.0f} rt/s "
                       f"({_us_per_trip(r[kind], 'server'):.0f} µs)" for kind in echo_kinds)
        ratio = "".join(f", ratio {kind} {_round_ratios([r], kind)[0]:.2f}" for kind in echo_kinds)
        print(f"  round {number} ({r['first']} first): server {game['round_trips']:.0f} rt/s "
              f"({_us_per_trip(game, 'server'):.0f} µs of server CPU per round trip){echo}{ratio}")
    for kind in echo_kinds:
        ratios = _round_ratios(rounds, kind)
        print(f"median ratio against {ECHOES[kind]}: {statistics.median(ratios):.2f} "
              f"(rounds {min(ratios):.2f}-{max(ratios):.2f})")
    print(f"median server CPU per round trip: "
          f"{statistics.median(_us_per_trip(r['game'], 'server') for r in rounds):.0f} µs")


def _game_window(command: list[str], env: dict[str, str], args: argparse.Namespace) -> dict[str, Any]:
    """One measured window of the game server: started afresh, loaded, stopped."""
    server, port = _start(command, env)
    base = _rss_kib(server.pid)
    try:
        run = _load("game", port, args.tables, args.generators, args.seconds, server.pid)
    finally:
        _stop(server)
    run["base"] = base
    return run


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=50, help="tables of two bots (default 50)")
    parser.add_argument("--seconds", type=float, default=10.0, help="measured seconds per run (default 10)")
    parser.add_argument("--generators", type=int, default=max(1, min(4, os.cpu_count() or 1)),
                        help="load-generator processes (default: one per CPU, at most 4)")
    parser.add_argument("--profile", metavar="PATH", help="cProfile the server into PATH and print its top")
    parser.add_argument("--sample", metavar="PATH", help="sample the server (bench/sampled_server.py) into "
                        "PATH and print its top: less distorted than --profile")
    parser.add_argument("--db", default=":memory:",
                        help="the server's storage (default :memory:; give a file to include the "
                             "cost of writing records to disk)")
    parser.add_argument("--no-echo", action="store_true", help="skip the echo runs (no ratios)")
    parser.add_argument("--rounds", type=int, default=1,
                        help="rounds of the game server and the echoes, alternating which runs first; "
                             "with more than one the median of the rounds' ratios is the figure "
                             "(default 1)")
    parser.add_argument("--load", choices=["game", "echo"], help=argparse.SUPPRESS)
    parser.add_argument("--port", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--first", type=int, default=0, help=argparse.SUPPRESS)
    parser.add_argument("--gen", type=int, default=0, help=argparse.SUPPRESS)
    parser.add_argument("--echo-server", choices=list(ECHOES), help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.echo_server:
        asyncio.run(_echo_main(args.echo_server))
        return 0
    if args.load:
        _load_main(args.load, args.port, args.first, args.tables, args.gen)
        return 0
    if args.rounds < 1:
        parser.error("--rounds must be at least 1")
    if args.rounds > 1 and (args.profile or args.sample):
        parser.error("--profile and --sample take one round (each round starts a new server)")

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
    if args.sample:  # the same server, started by the sampler (stopped by SIGTERM: see _stop)
        command[1:3] = [os.path.join(os.path.dirname(os.path.abspath(__file__)), "sampled_server.py"),
                        args.sample]
    echo_kinds = [] if args.no_echo else list(ECHOES)
    rounds: list[dict[str, Any]] = []  # each: "game" (with "base"), and each echo by kind
    for number in range(args.rounds):
        # Alternate which goes first: the machine's speed drifts within minutes, and a
        # drift then favours neither side of the ratio in the median.
        order = ["game", *echo_kinds] if number % 2 == 0 else [*echo_kinds, "game"]
        found: dict[str, Any] = {}
        for what in order:
            if what == "game":
                found["game"] = _game_window(command, env, args)
            else:
                echo_proc, echo_port = _start([sys.executable, __file__, "--echo-server", what])
                try:
                    found[what] = _load("echo", echo_port, args.tables, args.generators, args.seconds,
                                        echo_proc.pid)
                finally:
                    _stop(echo_proc)
        found["first"] = order[0]
        rounds.append(found)
    g = rounds[0]["game"]
    base = g["base"]
    echoes: dict[str, dict[str, Any]] = {kind: rounds[0][kind] for kind in echo_kinds}

    connections = 2 * args.tables
    ms = 1000.0
    print(f"noddy-server, {args.tables} tables of two-player noddy ({connections} bot connections, "
          f"{args.generators} load generators), {g['elapsed']:.1f} s measured:")
    print(f"  games/s          {g['games']:10.1f}")
    print(f"  messages/s       {g['messages']:10.0f}   (received by the bots)")
    print(f"  round trips/s    {g['round_trips']:10.0f}   (a bot's action -> the next turn it receives)")
    print(f"  latency p50      {percentile(g['latency'], .5) * ms:10.2f} ms   (an action -> the next event)")
    print(f"  latency p99      {percentile(g['latency'], .99) * ms:10.2f} ms")
    print(f"  round trip p50   {percentile(g['trip'], .5) * ms:10.2f} ms, "
          f"p99 {percentile(g['trip'], .99) * ms:.2f} ms")
    print(f"  memory           {(g['setup_rss'] - base) / connections:10.1f} KiB per connection "
          f"once connected and seated (server RSS {base / 1024:.1f} -> {g['setup_rss'] / 1024:.1f} MiB),")
    print(f"                   {(g['rss'] - base) / connections:10.1f} KiB per connection "
          f"after the warm-up (RSS {g['rss'] / 1024:.1f} MiB; with --db :memory: it holds the "
          f"games played so far)")
    print(f"  CPU              server {g['cpu']['server'] * 100:.0f}% of a core, "
          f"generators {g['cpu']['generators'] * 100:.0f}% {_per_trip(g)}")
    rt = g["round_trips"]
    ratios = {kind: rt / e["round_trips"] if e["round_trips"] else float("nan")
              for kind, e in echoes.items()}
    for kind, e in echoes.items():
        print(f"{ECHOES[kind]}: bare asyncio JSON-lines echo, same generators and concurrency, "
              f"{e['elapsed']:.1f} s measured:")
        print(f"  round trips/s    {e['round_trips']:10.0f}   (a request line -> its echo)  p50 "
              f"{percentile(e['trip'], .5) * ms:.2f} ms, p99 {percentile(e['trip'], .99) * ms:.2f} ms")
        print(f"  CPU              echo server {e['cpu']['server'] * 100:.0f}% of a core, "
              f"generators {e['cpu']['generators'] * 100:.0f}% {_per_trip(e)}")
    if echoes:
        print("ratio server/echo round trips: "
              + ", ".join(f"{ratio:.2f} against {ECHOES[kind]}" for kind, ratio in ratios.items())
              + "   (aim: at least 0.35 against the streams echo; 0.5 in the long run)")
    if len(rounds) > 1:
        _print_rounds(rounds, echo_kinds)
    summary = (f"summary tables={args.tables} games/s={g['games']:.1f} msgs/s={g['messages']:.0f} "
               f"rt/s={rt:.0f} p50={percentile(g['latency'], .5) * ms:.1f}ms "
               f"p99={percentile(g['latency'], .99) * ms:.1f}ms "
               f"mem={(g['rss'] - base) / connections:.1f}KiB/conn "
               f"mem_seated={(g['setup_rss'] - base) / connections:.1f}KiB/conn")
    if "streams" in echoes:
        summary += f" echo_rt/s={echoes['streams']['round_trips']:.0f} ratio={ratios['streams']:.2f}"
    if "protocol" in echoes:
        summary += f" echo_protocol_rt/s={echoes['protocol']['round_trips']:.0f}"
    summary += "".join(f" ratio_{kind}={ratio:.2f}" for kind, ratio in ratios.items())
    summary += f" server_us/rt={_us_per_trip(g, 'server'):.0f} gen_us/rt={_us_per_trip(g):.0f}"
    if len(rounds) > 1:  # the figures that matter, as medians over the rounds
        medians = {kind: statistics.median(_round_ratios(rounds, kind)) for kind in echo_kinds}
        summary += f" rounds={len(rounds)}" + "".join(f" median_ratio_{kind}={median:.2f}"
                                                      for kind, median in medians.items())
        server_us = statistics.median(_us_per_trip(r["game"], "server") for r in rounds)
        summary += f" median_server_us/rt={server_us:.0f}"
    print(summary)
    if args.profile:
        print(f"\nserver profile ({args.profile}), top 25 by own time:")
        pstats.Stats(args.profile).sort_stats("tottime").print_stats(25)
    if args.sample:
        with open(args.sample, encoding="utf-8") as report:
            text = report.read()
        print(f"\nserver samples ({args.sample}), the top 25 of each table:")
        for index, part in enumerate(text.split("\n== ")):
            print(("== " if index else "") + "\n".join(part.splitlines()[:26]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
