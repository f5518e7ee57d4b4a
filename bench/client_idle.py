"""How much of a core ``noddy-client`` uses when little or much happens (issue 15).

The client runs full-screen in a detached tmux session of 80x24 against a ``noddy-server``
started here (``--db :memory:``); its CPU time (utime + stime from ``/proc/PID/stat``) is read
at the start and the end of a window of ``--seconds``, after a warm-up.  Scenarios:

* ``lobby``     idle in the lobby (one table listed, nothing changes);
* ``game``      idle at a game waiting for you (a quick-start table against a computer:
                the discard is yours, no turn timer);
* ``timer``     the same with a 60 s turn timer: the clock ticks, so once a second is right;
* ``watch``     spectating a game between two scripted players (two connections of this
                script) who each act 0.1 s after their turn: ~10 actions a second;
* ``local``     ``noddy play``'s solo game waiting for you: the client with its private
                server in the same process (issue 37: the server's tick woke it 10 times
                a second);
* ``server``    no client: the server alone with ``--idle-connections`` (1,000) idle
                lobby connections from 20 loopback addresses (issue 37); measured is the server.

Besides the share of a core, each line gives the measured process's wake-ups a second: the
voluntary context switches of its main thread (the event loop's), each a return from
``epoll_wait``.

``--client-dir DIR`` runs the client package found in DIR instead of the installed one (a
copy of an older ``client/``, to measure before and after in one sitting).  ``--rounds N``
alternates the versions given N times and prints the median of each.

    python bench/client_idle.py --seconds 20 --rounds 3 --client-dir /tmp/before/client \\
        --client-dir client
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import shlex
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
SCENARIOS = ("lobby", "game", "timer", "watch", "local", "server")
TICKS = os.sysconf("SC_CLK_TCK")


# == the client, in the tmux pane =============================================================
def run_client(host: str, port: int, scenario: str, client_dir: str | None, pid_file: str) -> int:
    """Run the client (from ``client_dir`` if given) as a player of ``scenario``."""
    if client_dir:
        import importlib.util

        import noddy
        directory = Path(client_dir).resolve()
        spec = importlib.util.spec_from_file_location(
            "noddy.client", directory / "__init__.py", submodule_search_locations=[str(directory)])
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules["noddy.client"] = module
        spec.loader.exec_module(module)
        noddy.client = module  # type: ignore[attr-defined]
    from noddy.client.cli import run_client as run

    Path(pid_file).write_text(str(os.getpid()))
    if scenario == "local":
        from noddy.play import play_local
        return asyncio.run(play_local(f"bench-{scenario}", "noddy", 2, target=121))
    options: dict = {}
    if scenario in ("game", "timer"):
        quick = {"preset": "noddy", "players": 2, "computers": 1, "options": {"target": 121}}
        if scenario == "timer":
            quick["turn_timer"] = 60
        options["quick_start"] = quick
    profile = os.environ.get("NODDY_BENCH_PROFILE")      # a file for cProfile's figures
    if not profile:
        return asyncio.run(run(host, port, f"bench-{scenario}", **options))
    import cProfile
    import signal

    profiler = cProfile.Profile()
    signal.signal(signal.SIGHUP, lambda *_: (profiler.disable(), profiler.dump_stats(profile),
                                             os._exit(0)))
    profiler.enable()
    return asyncio.run(run(host, port, f"bench-{scenario}", **options))


# == two scripted players at ~10 actions a second ===============================================
async def scripted_table(host: str, port: int, delay: list[float], stop: asyncio.Event,
                         counter: list[int]) -> None:
    """Two players at one table, each acting ``delay[0]`` s after its turn (the caller may
    change it as the game goes: a fast start fills the log the spectator is told)."""
    async def connect(name: str):
        reader, writer = await asyncio.open_connection(host, port, limit=1 << 22)
        writer.write((json.dumps({"type": "hello", "name": name, "version": 1, "bot": True}) + "\n").encode())
        return reader, writer

    async def player(name: str, first: bool, table_ready: asyncio.Future) -> None:
        reader, writer = await connect(name)
        next_id = iter(range(1, 10**9))
        seat = None

        def send(kind: str, **fields) -> None:
            writer.write((json.dumps({"type": kind, "id": next(next_id), **fields}) + "\n").encode())

        pending: asyncio.Task | None = None
        latest: list[dict] = [{}]       # the last turn that was ours (a newer one replaces it)

        async def act() -> None:
            await asyncio.sleep(delay[0])
            legal = latest[0].get("legal_actions") or []
            latest[0] = {}
            if legal:
                send("action", **dict(legal[0]))
                counter[0] += 1

        try:
            while not stop.is_set():
                raw = await reader.readline()
                if not raw:
                    return
                m = json.loads(raw)
                kind = m.get("type")
                if kind == "welcome":
                    if first:
                        send("create_table", preset="noddy", players=2, options={"target": 500})
                    else:
                        send("sit", table=await table_ready, seat=1)
                elif kind == "table" and m.get("id") is not None and "seat" in m and seat is None:
                    seat = m["seat"]
                    if first and not table_ready.done():
                        table_ready.set_result(m["table"]["id"] if "table" in m else m.get("id"))
                    send("ready", ready=True)
                elif kind == "ping":
                    send("pong")
                elif kind == "turn" and seat in m.get("awaiting", ()) and m.get("legal_actions"):
                    latest[0] = m
                    if pending is None or pending.done():
                        pending = asyncio.create_task(act())
                elif kind == "error":
                    print(f"{name}: {m}", file=sys.stderr)
                elif kind == "event" and m["event"].get("kind") == "game_over":
                    send("ready", ready=True)       # and the next game (a long one: to 500)
        finally:
            if pending is not None:
                pending.cancel()
            writer.close()

    ready: asyncio.Future = asyncio.get_running_loop().create_future()
    await asyncio.gather(player("north", True, ready), player("south", False, ready))


# == the measurement =============================================================================
def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS


def wakes(pid: int) -> int:
    """The voluntary context switches of ``pid``'s main thread (its event loop's waits)."""
    for line in Path(f"/proc/{pid}/task/{pid}/status").read_text().splitlines():
        if line.startswith("voluntary_ctxt_switches:"):
            return int(line.split()[1])
    raise RuntimeError("no voluntary_ctxt_switches")


def wait_for(check, timeout: float = 15.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if check():
            return
        time.sleep(0.05)
    raise TimeoutError


def measure(scenario: str, client_dir: str | None, seconds: float, warmup: float,
            idle_connections: int = 1000) -> tuple[float, float, float]:
    """(share of one core in %, actions per second of the watched game, wake-ups a second)."""
    port = free_port()
    server = subprocess.Popen([sys.executable, "-m", "noddy.server.cli", "--host", "127.0.0.1",
                               "--port", str(port), "--db", ":memory:", "--log-level", "WARNING",
                               "--rate", "1000", "--burst", "1000"],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    session = f"noddy-bench-{os.getpid()}-{port}"
    pid_file = tempfile.mktemp(prefix="noddy-client-pid-")
    loop = asyncio.new_event_loop()
    stop = asyncio.Event()
    counter = [0]
    table_task = None
    try:
        wait_for(lambda: _port_open(port))
        delay = [0.01]
        if scenario in ("lobby", "watch"):
            # The lobby lists one table: the scripted game (watch), or one waiting (lobby).
            table_task = loop.create_task(scripted_table("127.0.0.1", port, delay, stop, counter)
                                          if scenario == "watch" else _one_waiting_table(port, stop))
            # Some hundreds of actions first, so that the spectator's log is full (500 lines).
            loop.run_until_complete(asyncio.sleep(1.5 if scenario == "watch" else 0.5))
            delay[0] = 0.1
        if scenario == "server":
            table_task = loop.create_task(_idle_crowd(port, idle_connections, stop))
            loop.run_until_complete(asyncio.sleep(0.2))
            loop.run_until_complete(asyncio.sleep(warmup))
            pid = server.pid
            start_cpu, start, start_wakes = cpu_seconds(pid), time.monotonic(), wakes(pid)
            loop.run_until_complete(asyncio.sleep(seconds))
            used, elapsed = cpu_seconds(pid) - start_cpu, time.monotonic() - start
            return 100.0 * used / elapsed, 0.0, (wakes(pid) - start_wakes) / elapsed
        command = [sys.executable, str(Path(__file__).resolve()), "--as-client", str(port), scenario,
                   "--pid-file", pid_file] + (["--client-dir", client_dir] if client_dir else [])
        if os.environ.get("NODDY_BENCH_PROFILE"):       # (tmux does not pass our environment on)
            command = ["env", f"NODDY_BENCH_PROFILE={os.environ['NODDY_BENCH_PROFILE']}"] + command
        subprocess.run(["tmux", "new-session", "-d", "-s", session, "-x", "80", "-y", "24",
                        shlex.join(command)], check=True)
        wait_for(lambda: Path(pid_file).exists() and Path(pid_file).read_text().strip() != "")
        pid = int(Path(pid_file).read_text())
        if scenario == "watch":
            loop.run_until_complete(asyncio.sleep(1.5))
            subprocess.run(["tmux", "send-keys", "-t", session, "w"], check=True)
        loop.run_until_complete(asyncio.sleep(warmup))
        start_cpu, start, start_actions = cpu_seconds(pid), time.monotonic(), counter[0]
        start_wakes = wakes(pid)
        loop.run_until_complete(asyncio.sleep(seconds))
        used, elapsed = cpu_seconds(pid) - start_cpu, time.monotonic() - start
        woke = (wakes(pid) - start_wakes) / elapsed
        actions = counter[0] - start_actions
        screen = subprocess.run(["tmux", "capture-pane", "-p", "-t", session],
                                capture_output=True, text=True).stdout
        if os.environ.get("NODDY_BENCH_SHOW"):
            print(screen)
        return 100.0 * used / elapsed, actions / elapsed, woke
    finally:
        subprocess.run(["tmux", "kill-session", "-t", session], capture_output=True)
        stop.set()
        if table_task is not None:
            table_task.cancel()
            try:
                loop.run_until_complete(table_task)
            except BaseException:
                pass
        loop.close()
        server.terminate()
        server.wait()
        Path(pid_file).unlink(missing_ok=True)


async def _answer_pings(reader: asyncio.StreamReader, writer: asyncio.StreamWriter,
                        stop: asyncio.Event) -> None:
    """Stay connected, answering the server's pings, until ``stop`` or the server hangs up."""
    while not stop.is_set():
        raw = await reader.readline()
        if not raw:
            return
        if json.loads(raw).get("type") == "ping":
            writer.write(b'{"type":"pong"}\n')


async def _idle_crowd(port: int, count: int, stop: asyncio.Event) -> None:
    """``count`` connections that say hello and stay in the lobby, answering pings."""
    async def one(n: int) -> None:
        reader, writer = await asyncio.open_connection("127.0.0.1", port, local_addr=(f"127.0.0.{n % 20 + 1}", 0))
        writer.write((json.dumps({"type": "hello", "name": f"idle{n}", "version": 1, "bot": True}) + "\n").encode())
        await _answer_pings(reader, writer, stop)

    await asyncio.gather(*(one(n) for n in range(count)))


async def _one_waiting_table(port: int, stop: asyncio.Event) -> None:
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    for message in ({"type": "hello", "name": "host", "version": 1, "bot": True},
                    {"type": "create_table", "id": 1, "preset": "noddy", "players": 2}):
        writer.write((json.dumps(message) + "\n").encode())
    await _answer_pings(reader, writer, stop)


def _port_open(port: int) -> bool:
    try:
        socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
        return True
    except OSError:
        return False


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--as-client", nargs=2, metavar=("PORT", "SCENARIO"), help=argparse.SUPPRESS)
    parser.add_argument("--pid-file", help=argparse.SUPPRESS)
    parser.add_argument("--client-dir", action="append", default=None,
                        help="a client package directory to run (repeat to alternate versions)")
    parser.add_argument("--scenario", action="append", choices=SCENARIOS, default=None)
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--warmup", type=float, default=3.0)
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument("--against", metavar="REV", help="the whole package (server too) of commit REV "
                        "first, then this checkout's, alternated (for local and server)")
    parser.add_argument("--idle-connections", type=int, default=1000)
    args = parser.parse_args()
    if args.as_client:
        port, scenario = args.as_client
        dirs = args.client_dir or [None]
        sys.exit(run_client("127.0.0.1", int(port), scenario, dirs[0], args.pid_file))
    versions: list[tuple[str, str | None, str | None]] = [(d, d, None) for d in args.client_dir or [None]]
    scratch = tempfile.TemporaryDirectory()
    if args.against:
        from core_diff import package_tree
        versions = [(f"before ({args.against})", None, str(package_tree(args.against, Path(scratch.name) / "b"))),
                    ("after", None, str(package_tree(None, Path(scratch.name) / "a")))]
    results: dict[tuple[str, str], list[float]] = {}
    for scenario in args.scenario or SCENARIOS:
        for round_ in range(args.rounds):
            for label, version, tree in versions:
                if tree:
                    os.environ["PYTHONPATH"] = tree
                share, rate, woke = measure(scenario, version, args.seconds, args.warmup, args.idle_connections)
                label = label or "installed"
                results.setdefault((scenario, label), []).append(share)
                extra = f"  ({rate:.1f} actions/s)" if scenario == "watch" else ""
                print(f"{scenario:6} {label:30} round {round_ + 1}: {share:6.2f} % of a core, "
                      f"{woke:5.1f} wake-ups/s{extra}", flush=True)
    print()
    for (scenario, label), shares in results.items():
        print(f"{scenario:6} {label:30} median {statistics.median(shares):6.2f} %  "
              f"({' · '.join(f'{s:.2f}' for s in shares)})")


if __name__ == "__main__":
    main()
