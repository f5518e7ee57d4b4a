"""What the load benchmarks (``bench/server.py``, ``bench/human.py``) share: the parent's
view of processes (CPU time from ``/proc``), latency histograms, the commands a load
generator reads from its parent, and the results it hands back.

A benchmark runs ``noddy-server`` and its load generators as processes of their own, so
that the server's CPU can be read apart from the load's.  A generator reads one command a
line on stdin (``GO``, ``MEASURE``, ``STOP``...) and prints ``RESULT {json}`` at the end;
latencies travel as histograms of :data:`BUCKET` seconds, which add up over generators.
The bytes the lean bots look for in a line are here too.  Not a test: nothing here asserts.
"""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
from typing import Any, Iterator

#: Latencies are kept as a histogram of this resolution (seconds), to merge generators'.
BUCKET = 1e-4

# What the lean bots look for in a line instead of parsing it (the server writes its keys in
# this order): a line's start tells its type, and the legal actions sit between two markers.
EVENT = b'{"type":"event"'
TURN = b'{"type":"turn"'
ERROR = b'{"type":"error"'
PING = b'{"type":"ping"}'
GAME_OVER = b'"kind":"game_over"'
LEGAL = b'"legal_actions":['
LEGAL_END = b'],"time_left"'
ID = b',"id":'

_KEEP: list[Any] = []  # the stdin pump's task, kept alive


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process so far."""
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def percentile(histogram: dict[int, int], fraction: float) -> float:
    """The latency (seconds) below which ``fraction`` of a histogram's entries lie."""
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


def merge_histogram(into: dict[int, int], counts: dict[Any, int]) -> None:
    """Add a generator's histogram (JSON keys are strings) to ``into``."""
    for bucket, count in counts.items():
        into[int(bucket)] = into.get(int(bucket), 0) + count


async def read_commands() -> "asyncio.Queue[str]":
    """The parent's commands, one a line on stdin (``STOP`` too when stdin closes)."""
    queue: asyncio.Queue[str] = asyncio.Queue()
    reader = asyncio.StreamReader()
    await asyncio.get_running_loop().connect_read_pipe(
        lambda: asyncio.StreamReaderProtocol(reader), sys.stdin)

    async def pump() -> None:
        while line := await reader.readline():
            await queue.put(line.decode().strip())
        await queue.put("STOP")

    _KEEP.append(asyncio.ensure_future(pump()))
    return queue


def generator_results(procs: list[subprocess.Popen[str]]) -> Iterator[dict[str, Any]]:
    """Each generator's ``RESULT`` once it has ended; RuntimeError if one failed."""
    for proc in procs:
        assert proc.stdout is not None
        result = None
        for line in proc.stdout:
            if line.startswith("RESULT "):
                result = json.loads(line[7:])
        if proc.wait() != 0 or result is None:
            raise RuntimeError("a load generator failed")
        yield result
