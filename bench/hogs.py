"""Connections that ask for a long reply and never read it: how much memory does the server
take, and does it give it back?  Not a test: it prints.

``--tables`` people each open a table (so ``list_tables`` is a long reply: ~330 bytes a
table), then ``--hogs`` connections with small receive buffers say hello, stop reading, and
each send ``--requests`` ``list_tables``.  Printed: the server's resident memory before, at
its peak while the hogs ask (sampled every 50 ms), and once they are all gone; and an
innocent client's ``ping`` round trip while the hogs ask.

    python bench/hogs.py                             # this tree
    python bench/hogs.py --server-path /tmp/old      # another tree (DIR/noddy/...)

The server runs with a high rate limit (``--rate 100000``), so the hogs fill what the server
holds for them in seconds instead of minutes; within the default limit they only take longer.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import socket
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from hostile import HOST, Client, start_server, stop_server  # noqa: E402


def rss_mib(pid: int) -> float:
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return float("nan")


async def hog(port: int, name: str, requests: int) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    sock.setblocking(False)
    await asyncio.get_running_loop().sock_connect(sock, (HOST, port))
    reader, writer = await asyncio.open_connection(sock=sock, limit=1 << 24)
    await reader.readline()
    writer.write(json.dumps({"type": "hello", "id": 1, "name": name, "version": 1}).encode() + b"\n")
    await reader.readline()
    writer.transport.pause_reading()
    writer.write(b'{"type":"list_tables"}\n' * requests)
    return reader, writer


async def run(port: int, pid: int, tables: int, hogs: int, requests: int) -> None:
    makers = []
    for number in range(tables):
        maker = await Client.hello(port, f"maker{number}")
        assert (await maker.request({"type": "create_table"}))["type"] == "table"
        makers.append(maker)
    innocent = await Client.hello(port, "innocent")
    size = len(json.dumps(await innocent.request({"type": "list_tables"}), separators=(",", ":")))
    await asyncio.sleep(0.5)
    before = rss_mib(pid)
    connections = [await hog(port, f"hog{number}", requests) for number in range(hogs)]
    peak = before
    pings = []
    for _ in range(100):
        start = time.perf_counter()
        await innocent.request({"type": "ping"})
        pings.append(time.perf_counter() - start)
        peak = max(peak, rss_mib(pid))
        await asyncio.sleep(0.05)
    for _, writer in connections:
        writer.transport.abort()
    await asyncio.sleep(2.0)
    after = rss_mib(pid)
    pings.sort()
    print(f"list_tables reply {size / 1024:.0f} KiB; {hogs} hogs x {requests} requests: "
          f"RSS before {before:.0f} MiB, peak {peak:.0f} MiB, after {after:.0f} MiB; "
          f"innocent ping p50 {pings[len(pings) // 2] * 1000:.1f} ms, max {pings[-1] * 1000:.1f} ms",
          flush=True)
    for maker in makers:
        maker.writer.close()
    innocent.writer.close()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--hogs", type=int, default=60)
    parser.add_argument("--requests", type=int, default=300, help="list_tables each hog sends (default 300)")
    parser.add_argument("--server-path", default=None,
                        help="a folder to put first on the server's PYTHONPATH (another tree)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        db = os.path.join(folder, "hogs.sqlite3")
        proc, port = start_server(db, ["--rate", "100000", "--burst", "100000", "--max-connections-per-address", "0",
                                       "--max-tables-per-address", "0", "--log-level", "ERROR"], args.server_path)
        try:
            print(f"server {args.server_path or 'of this tree'}", flush=True)
            asyncio.run(run(port, proc.pid, args.tables, args.hogs, args.requests))
        finally:
            stop_server(proc)
    return 0


if __name__ == "__main__":
    sys.exit(main())
