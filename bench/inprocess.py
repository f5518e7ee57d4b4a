"""The server's own Python work per action, without sockets or a kernel.  Not a test: it prints.

``bench/server.py`` measures the whole server over real sockets, where the kernel's share and
a shared machine's noise hide changes of a few per cent.  This bench runs the same game
load inside one process: a real :class:`~noddy.server.net.network.NoddyServer` (core, sending,
links, group-committed storage in memory) whose links have fake transports that keep what is
written, and bots that read each ``turn`` and answer it at once, exactly like
``bench/server.py``'s bots.  Only the server's calls are timed (CPU time of reading a line,
and of the loop turns that write the batch and carry out the messages), so the figure is the
server's Python cost per action, steady enough to compare two versions of the code in one
sitting (alternate them; see ``bench/RESULTS.md``).

    python bench/inprocess.py                       # 50 tables of noddy, 20,000 actions
    python bench/inprocess.py --preset cribbage --actions 50000 --repeat 5
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import random
import statistics
import time
from typing import Any

from noddy.server import ServerConfig
from noddy.server.cli import _tune_garbage_collector
from noddy.server.net.link import _Link
from noddy.server.net.network import NoddyServer


class FakeTransport(asyncio.Transport):
    """What a link writes to: keeps the bytes for the bot, never blocks."""

    def __init__(self) -> None:
        super().__init__()
        self.data: list[bytes] = []
        self.writes = 0

    def write(self, data: bytes | bytearray | memoryview) -> None:
        self.writes += 1
        self.data.append(bytes(data))

    def get_extra_info(self, name: str, default: Any = None) -> Any:
        return ("127.0.0.1", 1) if name == "peername" else default

    def is_closing(self) -> bool:
        return False

    def get_write_buffer_size(self) -> int:
        return 0

    def get_write_buffer_limits(self) -> tuple[int, int]:
        return (16 * 1024, 64 * 1024)

    def set_write_buffer_limits(self, high: int | None = None, low: int | None = None) -> None:
        pass

    def close(self) -> None:
        pass

    def abort(self) -> None:
        pass


class Seat:
    """One bot: a link with a fake transport, acting on each turn that offers it a choice."""

    def __init__(self, server: NoddyServer, rng: random.Random) -> None:
        self.server = server
        self.rng = rng
        self.transport = FakeTransport()
        self.link = _Link(server)
        self.link.connection_made(self.transport)
        self.next_id = 0
        #: The seq of the turn this seat last acted on (a turn is answered once).
        self.acted_at = -1

    def say(self, message: dict[str, Any]) -> None:
        """Hand the server one line, as the event loop would after reading the socket."""
        self.next_id += 1
        line = json.dumps({**message, "id": self.next_id}, separators=(",", ":")).encode() + b"\n"
        self.server._inbox[:len(line)] = line
        self.link.buffer_updated(len(line))

    def received(self) -> list[dict[str, Any]]:
        data, self.transport.data = b"".join(self.transport.data), []
        return [json.loads(line) for line in data.splitlines()]


async def _turns(timed: list[float]) -> None:
    """Let the loop write the batch and carry out the messages (timed as the server's)."""
    began = time.process_time()
    for _ in range(3):
        await asyncio.sleep(0)
    timed[0] += time.process_time() - began


async def run(preset: str, tables: int, actions: int, seed: int, tune_gc: bool = True) -> dict[str, float]:
    logging.disable(logging.WARNING)
    config = ServerConfig(host="127.0.0.1", port=0, seed=seed, rate=1e9, burst=10**9,
                          max_connections_per_address=0, max_tables_per_connection=0,
                          max_tables_per_address=0, db=":memory:")
    server = NoddyServer(config)
    await server.start()
    if tune_gc:  # as noddy-server does once it has started
        _tune_garbage_collector()
    rng = random.Random(seed)
    seats: list[Seat] = []
    for index in range(tables):
        a, b = Seat(server, random.Random(rng.random())), Seat(server, random.Random(rng.random()))
        a.say({"type": "hello", "name": f"a{index}", "version": 1, "bot": True})
        b.say({"type": "hello", "name": f"b{index}", "version": 1, "bot": True})
        await _turns([0.0])
        a.say({"type": "create_table", "preset": preset})
        await _turns([0.0])
        table = next(m for m in a.received() if m["type"] == "table" and "id" in m)["table"]["id"]
        b.say({"type": "sit", "table": table})
        await _turns([0.0])
        a.received(), b.received()
        seats += [a, b]
    timed = [0.0]
    done = games = 0
    for seat in seats:
        seat.say({"type": "ready"})
    await _turns(timed)
    writes_before = sum(seat.transport.writes for seat in seats)
    lines = 0
    while done < actions:
        for seat in seats:
            turn = None  # only the latest turn counts: in a crib game both seats lay away at once
            for message in seat.received():
                lines += 1
                kind = message["type"]
                if kind == "event" and message["event"]["kind"] == "game_over":
                    games += seat is seats[0]
                    turn = None
                    began = time.process_time()
                    seat.say({"type": "ready"})
                    timed[0] += time.process_time() - began
                elif kind == "turn":
                    turn = message
                elif kind == "error":
                    raise RuntimeError(f"the server refused a bot: {message}")
            if turn is not None and turn["legal_actions"] and turn["seq"] > seat.acted_at:
                action = dict(seat.rng.choice(turn["legal_actions"]))
                seat.acted_at = turn["seq"]
                began = time.process_time()
                seat.say({"type": "action", **action})
                timed[0] += time.process_time() - began
                done += 1
        await _turns(timed)
    writes = sum(seat.transport.writes for seat in seats) - writes_before
    await server.shutdown()
    return {"us_per_action": timed[0] / done * 1e6, "lines_per_action": lines / done,
            "writes_per_action": writes / done, "actions": done}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--preset", default="noddy")
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--actions", type=int, default=20000)
    parser.add_argument("--repeat", type=int, default=3, help="runs; the median is printed last")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    figures = []
    for _ in range(args.repeat):
        result = asyncio.run(run(args.preset, args.tables, args.actions, args.seed))
        figures.append(result["us_per_action"])
        print(f"{args.preset}, {args.tables} tables: {result['us_per_action']:.1f} µs of server CPU per "
              f"action ({result['lines_per_action']:.2f} lines, {result['writes_per_action']:.2f} "
              f"writes per action, {result['actions']} actions)", flush=True)
    print(f"median {statistics.median(figures):.1f} µs per action")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
