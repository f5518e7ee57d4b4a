"""Unfinished TLS handshakes flooding the TLS port: what do they cost the server, and the plain
port's players?  Not a test: it prints (issue 31, "admission before the handshake").

A server runs in a subprocess with a self-signed certificate (made with ``openssl`` as
tests/server/test_tls.py makes one) on 127.0.0.1, plain port and TLS port.  Two plain-port
clients ping it every 20 ms throughout.  Then ``-n`` connections (default 3000) are opened to
the TLS port and never finish their handshake, in one of two ways:

- ``hello``: TCP connect, send a real ClientHello, then say nothing more (the server has begun
  its handshake and waits for the client's next flight);
- ``silent``: TCP connect and say nothing at all.

They come from ``--sources`` loopback addresses (127.0.0.1, 127.0.0.2, ...; default 1), so the
per-address limits can be compared with a flood from many addresses.  Printed, for each
variant: the server's RSS (``/proc/PID/status`` VmRSS) and open descriptors (``/proc/PID/fd``)
before, at the peak of the flood, and after the handshakes have timed out; how many flood
connections the server had closed by the end of the flood; how long plain-port newcomers
waited for their greeting during the flood; whether TLS newcomers (from 127.0.0.1 and from
127.0.0.254) got their greeting at the end of the flood; the server's CPU time during it; and
the plain clients' ping round trip p50/p90/p99/max quiet and during the flood.

    python bench/tls_flood.py                        # both variants, 3000 connections
    python bench/tls_flood.py -n 1024 --nofile 1024  # the server under ulimit -n 1024
    python bench/tls_flood.py --sources 32 --variant hello
    python bench/tls_flood.py --server-args="--tls-handshake-timeout 10"
    python bench/tls_flood.py --server-path /tmp/old  # another tree (a copy laid out as the
                                                      # installed package: DIR/noddy/...)

The flood is opened by a child process, so that opening it does not hold up this process's
pinging clients (their round trips are the server's, not the bench's).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import os
import resource
import shlex
import signal
import socket
import ssl
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

HOST = "127.0.0.1"
#: Seconds between two pings of a plain client (a person's client is far quieter).
PING_PERIOD = 0.02
#: Flood connections being opened at once (the rest wait their turn).
CONNECTING_AT_ONCE = 256


def self_signed(where: Path) -> tuple[Path, Path]:
    cert, key = where / "cert.pem", where / "key.pem"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "3650",
                    "-subj", "/CN=localhost", "-addext", "subjectAltName=IP:127.0.0.1,DNS:localhost",
                    "-keyout", str(key), "-out", str(cert)], check=True, capture_output=True)
    return cert, key


def client_hello() -> bytes:
    """The bytes of a real ClientHello (from an ``SSLObject`` that has nobody to talk to)."""
    incoming, outgoing = ssl.MemoryBIO(), ssl.MemoryBIO()
    context = ssl.create_default_context()
    context.check_hostname = False
    context.verify_mode = ssl.CERT_NONE
    obj = context.wrap_bio(incoming, outgoing, server_side=False)
    try:
        obj.do_handshake()
    except ssl.SSLWantReadError:
        pass
    return outgoing.read()


def start_server(cert: Path, key: str, extra: list[str], nofile: int | None, log_path: Path,
                 server_path: str | None) -> tuple[subprocess.Popen[str], int, int]:
    argv = [sys.executable, "-m", "noddy.server.cli", "--host", HOST, "--port", "0", "--tls-port", "0",
            "--tls-cert", str(cert), "--tls-key", key, "--db", ":memory:", "--log-level", "WARNING", *extra]

    def lower_limit() -> None:
        if nofile:
            resource.setrlimit(resource.RLIMIT_NOFILE, (nofile, resource.getrlimit(resource.RLIMIT_NOFILE)[1]))

    env = dict(os.environ)
    if server_path:
        env["PYTHONPATH"] = server_path + os.pathsep + env.get("PYTHONPATH", "")
    with open(log_path, "ab") as log_file:  # a file: a pipe nobody reads would stall a noisy server
        # Not from the tree's folder: ``-m`` puts the working folder first on the path.
        proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=log_file, text=True, env=env,
                                preexec_fn=lower_limit, cwd=str(log_path.parent))
    assert proc.stdout is not None
    ports = []
    for _ in range(2):
        line = proc.stdout.readline()
        if not line:
            raise SystemExit(f"the server did not start: {argv}; see {log_path}")
        ports.append(int(line.rsplit(":", 1)[1]))
    return proc, ports[0], ports[1]


def rss_mb(pid: int) -> float:
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0


def descriptors(pid: int) -> int:
    try:
        return len(os.listdir(f"/proc/{pid}/fd"))
    except OSError:
        return -1


def percentile(values: list[float], fraction: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def cpu_seconds(pid: int) -> float:
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


async def greeting_wait(port: int, timeout: float, tls: ssl.SSLContext | None = None,
                        source: str = HOST) -> float | None:
    """Seconds from connecting from ``source`` to the greeting line (None: none within ``timeout``)."""
    start = time.perf_counter()
    try:
        reader, writer = await asyncio.wait_for(
            asyncio.open_connection(HOST, port, ssl=tls, local_addr=(source, 0)), timeout)
    except (OSError, asyncio.TimeoutError, ssl.SSLError):
        return None
    try:
        line = await asyncio.wait_for(reader.readline(), max(0.01, timeout - (time.perf_counter() - start)))
        if not line or json.loads(line)["type"] != "greeting":
            return None
        return time.perf_counter() - start
    except (OSError, asyncio.TimeoutError, ValueError, ssl.SSLError):
        return None
    finally:
        writer.close()


class Pinger:
    """A plain-port client pinging every ``PING_PERIOD``; round trips go to ``phase``'s list."""

    def __init__(self) -> None:
        self.times: dict[str, list[float]] = {}
        self.phase = "quiet"
        self.stopped = False

    async def run(self, port: int, name: str) -> None:
        reader, writer = await asyncio.open_connection(HOST, port)
        await reader.readline()
        writer.write(json.dumps({"type": "hello", "name": name, "version": 1, "id": 0}).encode() + b"\n")
        await reader.readline()
        number = 0
        while not self.stopped:
            number += 1
            start = time.perf_counter()
            writer.write(b'{"type":"ping","id":%d}\n' % number)
            while True:
                message = json.loads(await reader.readline())
                if message.get("id") == number:
                    break
            self.times.setdefault(self.phase, []).append(time.perf_counter() - start)
            await asyncio.sleep(PING_PERIOD)
        writer.close()


async def open_flood(port: int, count: int, sources: int, hello: bytes | None) -> list[socket.socket]:
    """``count`` connections to ``port`` from 127.0.0.1..127.0.0.``sources``, each sending
    ``hello`` (None: nothing)."""
    loop = asyncio.get_running_loop()
    gate = asyncio.Semaphore(CONNECTING_AT_ONCE)
    opened: list[socket.socket] = []

    async def one(number: int) -> None:
        async with gate:
            sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
            sock.setblocking(False)
            try:
                sock.bind((f"127.0.0.{1 + number % sources}", 0))
                await loop.sock_connect(sock, (HOST, port))
                if hello is not None:
                    await loop.sock_sendall(sock, hello)
            except OSError:
                sock.close()
                return
            opened.append(sock)

    await asyncio.gather(*(one(number) for number in range(count)))
    return opened


def flood_process(port: int, count: int, sources: int, variant: str, pipe: Any) -> None:
    """The child that holds the flood: opens it, says how many and how fast, then on "check"
    says how many the server has closed, and on "close" closes them all and ends."""
    started = time.perf_counter()
    socks = asyncio.run(open_flood(port, count, sources, client_hello() if variant == "hello" else None))
    pipe.send((len(socks), time.perf_counter() - started))
    while True:
        command = pipe.recv()
        if command == "check":
            pipe.send(closed_by_server(socks))
        else:
            for sock in socks:
                sock.close()
            pipe.send(None)
            return


def closed_by_server(socks: list[socket.socket]) -> int:
    """How many of ``socks`` the server has closed (a read finds the end, or a reset)."""
    closed = 0
    for sock in socks:
        try:
            while True:
                data = sock.recv(65536)
                if not data:
                    closed += 1
                    break
        except BlockingIOError:
            pass
        except OSError:
            closed += 1
    return closed


async def run_variant(variant: str, args: argparse.Namespace, cert: Path, key: Path, log_path: Path) -> None:
    proc, port, tls_port = start_server(cert, str(key), shlex.split(args.server_args), args.nofile, log_path,
                                        args.server_path)
    pid = proc.pid
    pinger = Pinger()
    pings = [asyncio.create_task(pinger.run(port, f"pinger{number}")) for number in range(2)]
    trusting = ssl.create_default_context(cafile=str(cert))
    try:
        await asyncio.sleep(args.quiet)
        before_rss, before_fds = rss_mb(pid), descriptors(pid)
        quiet_greeting = await greeting_wait(port, 30)
        pinger.phase = "flood"
        peak_rss, peak_fds = before_rss, before_fds
        sampling = True

        async def sample() -> None:
            nonlocal peak_rss, peak_fds
            while sampling:
                peak_rss, peak_fds = max(peak_rss, rss_mb(pid)), max(peak_fds, descriptors(pid))
                await asyncio.sleep(0.05)

        sampler = asyncio.create_task(sample())
        started = time.perf_counter()
        cpu_before = cpu_seconds(pid)
        ours, theirs = multiprocessing.get_context("fork").Pipe()
        child = multiprocessing.get_context("fork").Process(
            target=flood_process, args=(tls_port, args.n, args.sources, variant, theirs))
        child.start()
        waits: list[float | None] = []
        while not ours.poll():
            waits.append(await greeting_wait(port, 30))
            await asyncio.sleep(0.2)
        flood, opened_in = ours.recv()
        hold_until = started + args.hold
        while time.perf_counter() < hold_until:
            waits.append(await greeting_wait(port, 30))
            await asyncio.sleep(0.2)
        flood_cpu = cpu_seconds(pid) - cpu_before
        tls_newcomers = {source: await greeting_wait(tls_port, 10, trusting, source)
                         for source in (HOST, "127.0.0.254")}
        ours.send("check")
        closed = await asyncio.to_thread(ours.recv)
        pinger.phase = "after"
        sampling = False
        await sampler
        # Until the server has let go of the flood's connections (they time out), or 30 s.
        deadline = time.perf_counter() + 30
        while descriptors(pid) > before_fds + 2 and time.perf_counter() < deadline:
            await asyncio.sleep(0.2)
        after_rss, after_fds = rss_mb(pid), descriptors(pid)
        ours.send("close")
        await asyncio.to_thread(ours.recv)
        child.join()
        pinger.stopped = True
        await asyncio.gather(*pings)
        quiet, during = pinger.times.get("quiet", []), pinger.times.get("flood", [])
        got = [w for w in waits if w is not None]
        print(f"variant {variant}: {args.n} unfinished handshakes from {args.sources} address(es)"
              f"{f', server ulimit -n {args.nofile}' if args.nofile else ''}")
        print(f"  flood connections opened: {flood} in {opened_in:.1f} s; closed by the server "
              f"within {args.hold:g} s: {closed}")
        print(f"  server RSS MB  before {before_rss:7.1f}  peak {peak_rss:7.1f} (+{peak_rss - before_rss:.1f})"
              f"  after {after_rss:7.1f} (+{after_rss - before_rss:.1f})")
        print(f"  server fds     before {before_fds:7d}  peak {peak_fds:7d}  after {after_fds:7d}")
        nan = float("nan")
        print(f"  plain newcomer greeting: quiet {1000 * (quiet_greeting or nan):.1f} ms; during the flood "
              f"{len(got)}/{len(waits)} greeted, median {1000 * statistics.median(got) if got else nan:.1f} ms, "
              f"worst {1000 * max(got) if got else nan:.1f} ms")
        print(f"  TLS newcomer {args.hold:g} s after the flood began: " + "; ".join(
            f"from {source} " + ("greeted in %.1f ms" % (1000 * wait) if wait is not None else "no greeting")
            for source, wait in tls_newcomers.items()))
        print(f"  server CPU during the flood: {flood_cpu:.2f} s in {args.hold:g} s")
        for name, times in (("quiet", quiet), ("flood", during)):
            print(f"  plain ping ms  {name} p50 {1000 * percentile(times, .5):.2f} p90 "
                  f"{1000 * percentile(times, .9):.2f} p99 {1000 * percentile(times, .99):.2f} max "
                  f"{1000 * max(times, default=float('nan')):.2f} ({len(times)} pings)", flush=True)
    finally:
        pinger.stopped = True
        for task in pings:
            task.cancel()
        proc.send_signal(signal.SIGINT)
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("-n", type=int, default=3000, help="unfinished handshakes (default 3000)")
    parser.add_argument("--variant", choices=("hello", "silent", "both"), default="both")
    parser.add_argument("--sources", type=int, default=1,
                        help="loopback source addresses 127.0.0.1..127.0.0.N (default 1)")
    parser.add_argument("--nofile", type=int, default=None, help="the server's descriptor limit (ulimit -n)")
    parser.add_argument("--quiet", type=float, default=3.0, help="seconds of pings before the flood")
    parser.add_argument("--hold", type=float, default=5.0,
                        help="seconds from the flood's start that it is held open and measured (default 5)")
    parser.add_argument("--server-args", default="", help="more noddy-server arguments")
    parser.add_argument("--server-path", default=None,
                        help="run the server from this tree (DIR/noddy/...) instead of the installed one")
    args = parser.parse_args()
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))  # the flood's own sockets
    if args.n + 100 > hard:
        raise SystemExit(f"-n {args.n} needs more descriptors than this process may have ({hard})")
    with tempfile.TemporaryDirectory() as where:
        cert, key = self_signed(Path(where))
        log_path = Path(where) / "server.log"
        for variant in (("hello", "silent") if args.variant == "both" else (args.variant,)):
            asyncio.run(run_variant(variant, args, cert, key, log_path))
        lines = log_path.read_text(errors="replace").splitlines()
        print(f"server log: {len(lines)} lines; first: {lines[:3]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
