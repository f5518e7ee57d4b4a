"""Out of file descriptors: the server pauses accepting, says so once, serves the connections
it has, and accepts the waiting ones once descriptors are free again.

The server runs in a subprocess whose descriptor limit is lowered to a few more than it uses
once started, so the test process keeps its own; the server's log goes to a file (a pipe
that nobody reads while it floods would stall the server).
"""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
from pathlib import Path

from .helpers import stop_server_process

#: Descriptors left free under the lowered limit.
FREE = 8

SERVER = f"""
import asyncio, logging, os, resource, sys
from noddy.server import NoddyServer, ServerConfig

async def main() -> None:
    logging.basicConfig(level=logging.INFO, stream=sys.stderr,
                        format="%(levelname)s %(name)s: %(message)s")
    config = ServerConfig(host="127.0.0.1", port=0, max_connections_per_address=0,
                          accept_retry_delay=0.1)
    server = NoddyServer(config)
    await server.start()
    used = len(os.listdir("/proc/self/fd")) - 1  # less the one listdir itself opened
    hard = resource.getrlimit(resource.RLIMIT_NOFILE)[1]
    resource.setrlimit(resource.RLIMIT_NOFILE, (used + {FREE}, hard))
    print(server.port, flush=True)
    await asyncio.get_running_loop().run_in_executor(None, sys.stdin.read)  # until stdin closes
    await server.shutdown()

asyncio.run(main())
"""


async def greeting(reader: asyncio.StreamReader, timeout: float) -> bool:
    try:
        line = await asyncio.wait_for(reader.readline(), timeout)
    except asyncio.TimeoutError:
        return False
    return json.loads(line)["type"] == "greeting"


async def test_out_of_descriptors_pauses_accepting_logs_once_and_recovers(tmp_path: Path) -> None:
    log_path = tmp_path / "server.log"
    with open(log_path, "wb") as log_file:
        process = subprocess.Popen([sys.executable, "-c", SERVER], stdin=subprocess.PIPE,
                                   stdout=subprocess.PIPE, stderr=log_file)
    try:
        assert process.stdout is not None and process.stdin is not None
        port_line = await asyncio.wait_for(asyncio.to_thread(process.stdout.readline), 20)
        port = int(port_line)
        # More connections than descriptors: the kernel completes them all (the backlog),
        # the server can take only FREE of them for now.
        connections = [await asyncio.open_connection("127.0.0.1", port) for _ in range(FREE + 5)]
        for _ in range(200):  # until the server has found itself out of descriptors
            if "out of file descriptors" in log_path.read_text(errors="replace"):
                break
            await asyncio.sleep(0.05)
        greeted = await asyncio.gather(*(greeting(reader, 0.5) for reader, _ in connections))
        served = [c for c, ok in zip(connections, greeted) if ok]
        waiting = [c for c, ok in zip(connections, greeted) if not ok]
        assert FREE - 2 <= len(served) <= FREE and len(waiting) >= 5, (len(served), len(waiting))
        await asyncio.sleep(0.3)  # several retry delays while still out of descriptors
        kept_reader, kept_writer = served.pop()
        for number in range(3):  # the connections it has are served as ever
            kept_writer.write(b'{"type":"ping","id":%d}\n' % number)
            reply = json.loads(await asyncio.wait_for(kept_reader.readline(), 5))
            assert reply == {"type": "pong", "id": number}
        for _, writer in served:  # free descriptors: the waiting ones are let in
            writer.close()
        assert all(await asyncio.gather(*(greeting(reader, 5.0) for reader, _ in waiting)))
        for _, writer in [*waiting, (kept_reader, kept_writer)]:
            writer.close()
    finally:
        await stop_server_process(process)
    lines = log_path.read_text(errors="replace").splitlines()
    noisy = [line for line in lines if "accept" in line.lower() or "Traceback" in line]
    # One WARNING when descriptors run out and one INFO when accepting works again.  The
    # freed descriptors come back to the server as their peers' closes reach it, so it may
    # run short once more in between: each shortage is then told once, never per accept().
    levels = [line.split(" ", 1)[0] for line in noisy]
    assert 1 <= len(levels) // 2 <= 3 and levels == ["WARNING", "INFO"] * (len(levels) // 2), noisy
    assert all("out of file descriptors" in line for line in noisy[0::2]), noisy
    assert all("accepting again" in line for line in noisy[1::2]), noisy
    assert not any(line.startswith("ERROR") for line in lines), lines[:20]
