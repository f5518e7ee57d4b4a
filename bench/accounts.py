"""What an account login costs the server: the round trip of a hello with a password, and the
longest the event loop stalls meanwhile, with the database on a file (the scrypt check runs
on the database thread) and in memory (storage, and so the check, run on the loop itself).

    python bench/accounts.py [--logins 20]

Prints one line per database kind.  The figures depend on the machine; see the commit
message of the change that added accounts for the ones measured there.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import tempfile
import time
from pathlib import Path

from noddy.server import NoddyServer, ServerConfig


async def _request(reader: asyncio.StreamReader, writer: asyncio.StreamWriter, message: dict) -> dict:
    writer.write(json.dumps({**message, "id": 1}).encode() + b"\n")
    await writer.drain()
    while True:
        reply = json.loads(await reader.readline())
        if reply.get("id") == 1:
            return reply


async def _lag(stop: asyncio.Event, worst: list[float]) -> None:
    """The longest a 1 ms sleep overran: how long the loop was kept from anything else."""
    while not stop.is_set():
        before = time.perf_counter()
        await asyncio.sleep(0.001)
        worst[0] = max(worst[0], time.perf_counter() - before - 0.001)


async def run(db: str, logins: int) -> tuple[list[float], float]:
    server = NoddyServer(ServerConfig(host="127.0.0.1", port=0, db=db))
    await server.start()
    try:
        reader, writer = await asyncio.open_connection("127.0.0.1", server.port)
        await reader.readline()
        await _request(reader, writer, {"type": "hello", "name": "ann", "version": 1})
        assert (await _request(reader, writer, {"type": "register", "password": "owl feathers"}))["type"] == "registered"
        writer.close()
        times: list[float] = []
        worst = [0.0]
        stop = asyncio.Event()
        watcher = asyncio.create_task(_lag(stop, worst))
        for _ in range(logins):
            reader, writer = await asyncio.open_connection("127.0.0.1", server.port)
            await reader.readline()
            start = time.perf_counter()
            reply = await _request(reader, writer, {"type": "hello", "name": "ann", "version": 1,
                                                    "password": "owl feathers"})
            times.append(time.perf_counter() - start)
            assert reply["type"] == "welcome", reply
            await _request(reader, writer, {"type": "bye"})
            writer.close()
        stop.set()
        await watcher
        return times, worst[0]
    finally:
        await server.shutdown()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--logins", type=int, default=20)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        for label, db in (("file", str(Path(folder) / "bench.sqlite3")), ("memory", ":memory:")):
            times, worst = asyncio.run(run(db, args.logins))
            print(f"{label:>6}: {args.logins} logins, round trip median {statistics.median(times) * 1000:.1f} ms "
                  f"(max {max(times) * 1000:.1f} ms); longest event-loop stall {worst * 1000:.1f} ms")


if __name__ == "__main__":
    main()
