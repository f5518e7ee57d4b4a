"""Test helpers: a server on 127.0.0.1 port 0, and a line-oriented JSON client that records
everything it receives (the hidden-information test audits those records)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import threading
from typing import Any, AsyncIterator, Callable

from noddy.server import NoddyServer, ServerConfig, ServerCore

TIMEOUT = 10.0


def test_config(**changes: Any) -> ServerConfig:
    """A config for tests: loopback, a free port, a fixed seed, short periods."""
    values: dict[str, Any] = dict(host="127.0.0.1", port=0, seed=20240601, grace_period=5.0,
                                  ping_interval=30.0, idle_timeout=60.0, rate=1000.0, burst=1000,
                                  flood_strikes=1000, tick_interval=0.02, shutdown_timeout=1.0,
                                  lobby_push_interval=0.05)
    values.update(changes)
    return ServerConfig(**values)


@contextlib.asynccontextmanager
async def running_server(core: ServerCore | None = None, **changes: Any) -> AsyncIterator[NoddyServer]:
    """A server on a free loopback port, configured by ``changes`` (or running ``core``: one
    the test built, e.g. on a fake clock, with its own config)."""
    server = NoddyServer(test_config(**changes) if core is None else core.config, core=core)
    await server.start()
    try:
        yield server
    finally:
        await server.shutdown()


class Client:
    """One connection; ``received`` keeps every message, in order."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader = reader
        self.writer = writer
        self.received: list[dict[str, Any]] = []
        self._next_id = 0
        self.seat: int | None = None
        self.token: str | None = None

    @classmethod
    async def connect(cls, port: int, source: str | None = None) -> "Client":
        """A connection to the server on ``port``, from the loopback address ``source`` (any
        of 127.0.0.0/8: a test's stand-in for another host) or 127.0.0.1."""
        reader, writer = await asyncio.open_connection("127.0.0.1", port, limit=1 << 20,
                                                       local_addr=(source, 0) if source else None)
        client = cls(reader, writer)
        greeting = await client.recv()
        assert greeting["type"] == "greeting"
        return client

    async def send_raw(self, data: bytes) -> None:
        self.writer.write(data)
        await self.writer.drain()

    async def send(self, message: dict[str, Any]) -> None:
        await self.send_raw(json.dumps(message).encode() + b"\n")

    async def recv(self, timeout: float = TIMEOUT) -> dict[str, Any]:
        line = await asyncio.wait_for(self.reader.readline(), timeout)
        if not line:
            raise EOFError("the server closed the connection")
        message = json.loads(line)
        self.received.append(message)
        return message

    async def recv_until(self, predicate: Callable[[dict[str, Any]], bool],
                         timeout: float = TIMEOUT) -> dict[str, Any]:
        async def loop() -> dict[str, Any]:
            while True:
                message = await self.recv(timeout)
                if predicate(message):
                    return message
        return await asyncio.wait_for(loop(), timeout)

    async def request(self, message: dict[str, Any]) -> dict[str, Any]:
        """Send with a fresh id; return the reply carrying that id (pushes are kept)."""
        self._next_id += 1
        request_id = self._next_id
        await self.send({**message, "id": request_id})
        return await self.recv_until(lambda m: m.get("id") == request_id)

    async def hello(self, name: str, **extra: Any) -> dict[str, Any]:
        reply = await self.request({"type": "hello", "name": name, "version": 1, **extra})
        assert reply["type"] == "welcome", reply
        self.token = reply["token"]
        return reply

    async def closed(self, timeout: float = TIMEOUT) -> bool:
        """Read until the server closes the connection."""
        async def loop() -> bool:
            while True:
                line = await self.reader.readline()
                if not line:
                    return True
                self.received.append(json.loads(line))
        return await asyncio.wait_for(loop(), timeout)

    async def close(self) -> None:
        self.writer.close()
        with contextlib.suppress(Exception):
            await self.writer.wait_closed()


async def play_out(client: Client, rng: random.Random, stop_after: Callable[[dict], bool] | None = None,
                   timeout: float = 30.0, claim_at_random: bool = False) -> dict[str, Any]:
    """Answer every turn with a random legal action until the game is over; return game_over.
    A claim is 0 (never above the worth) unless ``claim_at_random``: then any of 0 to 29."""
    pending: int | None = None

    async def loop() -> dict[str, Any]:
        nonlocal pending
        while True:
            message = await client.recv()
            if stop_after is not None and stop_after(message):
                return message
            if message["type"] == "event" and message["event"]["kind"] == "game_over":
                return message["event"]
            if pending is not None and message.get("id") == pending:
                assert message["type"] == "ok", message
                pending = None
            if message["type"] in ("turn", "snapshot") and pending is None:
                # A turn sent before our last action was handled is stale: wait for the reply.
                turn = message if message["type"] == "turn" else message.get("turn")
                if turn and turn["legal_actions"]:
                    action = dict(rng.choice(turn["legal_actions"]))
                    if "min" in action:  # counting by hand: a range of points to name
                        low, high = action.pop("min"), action.pop("max")
                        # A claim of 0 is never refused; a muggins call names any number.
                        at_random = action["action"] == "muggins" or claim_at_random
                        action["points"] = rng.randint(low, high) if at_random else low
                    client._next_id += 1
                    pending = client._next_id
                    await client.send({"type": "action", **action, "id": pending})
    return await asyncio.wait_for(loop(), timeout)


async def two_player_table(port: int, preset: str = "noddy", names: tuple[str, str] = ("ann", "ben"),
                           **create: Any) -> tuple[Client, Client, int]:
    """Two people at a fresh table, both ready: the first of ``names`` creates it (seat 0,
    with ``create``'s fields), the second sits in seat 1."""
    first, second = await Client.connect(port), await Client.connect(port)
    await first.hello(names[0])
    await second.hello(names[1])
    created = await first.request({"type": "create_table", "preset": preset, **create})
    table_id = created["table"]["id"]
    await second.request({"type": "sit", "table": table_id})
    await first.request({"type": "ready"})
    await second.request({"type": "ready"})
    return first, second, table_id


async def text_connection(port: int) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    """A connection that talks as a person on nc does: the greeting read, nothing said yet."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    assert json.loads(await asyncio.wait_for(reader.readline(), 5))["type"] == "greeting"
    return reader, writer


async def text_line(reader: asyncio.StreamReader) -> str:
    """The next line a text connection is sent (within 5 s)."""
    return (await asyncio.wait_for(reader.readline(), 5)).decode()


async def text_until(reader: asyncio.StreamReader, start: str) -> str:
    """The first line from now on that begins with ``start`` (those before it are passed)."""
    while not (line := await text_line(reader)).startswith(start):
        pass
    return line


def stuck_hashing(monkeypatch: Any) -> threading.Event:
    """The server's hashing worker stuck on every password check until the returned event is
    set (at most 10 s): a test sees what goes on meanwhile."""
    from noddy.server.core.instructions import PasswordResult, PasswordWork

    release = threading.Event()
    real_run = PasswordWork.run

    def stuck(work: PasswordWork) -> PasswordResult:
        release.wait(10.0)
        return real_run(work)
    monkeypatch.setattr(PasswordWork, "run", stuck)
    return release
