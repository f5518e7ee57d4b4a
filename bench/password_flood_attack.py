"""The attacking side of ``bench/password_flood.py`` (issue 31), and the connection helpers
both sides use: a connection from a chosen loopback source address, and a request whose
reply is waited for only until a deadline.  Not a test: nothing here asserts.

The flood runs in a child process of the bench (``python bench/password_flood_attack.py
PORT ADDRESSES PER_ADDRESS SECONDS``), a load generator as ``bench/load_common.py``
describes them: it prints ``SETUP``, starts on ``GO`` from stdin, stops by itself after
SECONDS (or at ``STOP``, or when stdin closes) and prints ``RESULT {json}``: its counts.
"""

from __future__ import annotations

import asyncio
import collections
import json
import sys
from typing import Any

from hostile import Client
from load_common import read_commands

HOST = "127.0.0.1"
#: The registered name the guesses are at, and its real password (never guessed).
VICTIM, VICTIM_PASSWORD = "victim", "the victim's own password"
#: The two passwords a flood account changes between.
FLOOD_PASSWORDS = ("flood password one", "flood password two")
#: Seconds a connection attempt (and its greeting) may take: a server that stops accepting
#: would otherwise hold an attacker, and the run, for as long as the kernel retries.
CONNECT_TIMEOUT = 10.0
#: Times one attacking connection is opened in all (the first and the reopenings after the
#: server closed it): the server closes floods, and a closed one comes back, but not forever.
MAX_OPENINGS = 50
#: Seconds to wait before reopening, and after a refusal that gives no ``retry_after``: no
#: connection turns into a loop that spins as fast as the server answers.
REOPEN_PAUSE, REFUSAL_PAUSE = 0.2, 0.1


class Tally:
    """The flood's counts: replies by kind, error codes, connections."""

    def __init__(self) -> None:
        #: What the guesses at the victim were answered (a reply type, or an error code).
        self.guesses: collections.Counter[str] = collections.Counter()
        #: What the register/change_password connections' requests were answered.
        self.changes: collections.Counter[str] = collections.Counter()
        #: Every error code the flood saw, replies and pushes alike.
        self.errors: collections.Counter[str] = collections.Counter()
        self.opened = self.closed_by_server = self.failed_connects = self.unanswered = 0

    def as_dict(self) -> dict[str, Any]:
        return {"guesses": self.guesses, "changes": self.changes, "errors": self.errors,
                "opened": self.opened, "closed_by_server": self.closed_by_server,
                "failed_connects": self.failed_connects, "unanswered": self.unanswered}


async def connect(port: int, source: str, deadline: float, tally: Tally | None = None) -> Client | None:
    """A connection to the server from ``source`` (bound before connecting), greeted; None if
    it could not be made by the deadline or the server refused it instead of greeting."""
    loop = asyncio.get_running_loop()
    left = min(CONNECT_TIMEOUT, deadline - loop.time())
    if left <= 0:
        return None
    try:
        reader, writer = await asyncio.wait_for(
            asyncio.open_connection(HOST, port, local_addr=(source, 0)), left)
    except (OSError, asyncio.TimeoutError):
        return None
    client = Client(reader, writer)
    try:
        greeting = await asyncio.wait_for(client.recv(), max(0.001, min(CONNECT_TIMEOUT, deadline - loop.time())))
    except (OSError, EOFError, ValueError, asyncio.TimeoutError):
        writer.close()
        return None
    if greeting["type"] != "greeting":
        if tally is not None and greeting["type"] == "error":
            tally.errors[greeting["code"]] += 1
        writer.close()
        return None
    return client


async def ask(client: Client, request: dict[str, Any], deadline: float,
              pushed: collections.Counter[str] | None = None) -> dict[str, Any] | None:
    """Send ``request`` and return its reply, or None if none came by the deadline; error
    pushes met meanwhile are counted in ``pushed``.  EOFError: the server closed."""
    loop = asyncio.get_running_loop()
    rid = client.send(request)
    while (left := deadline - loop.time()) > 0:
        try:
            message = await asyncio.wait_for(client.recv(), left)
        except asyncio.TimeoutError:
            return None
        if message.get("id") == rid:
            return message
        if message["type"] == "error" and pushed is not None:
            pushed[message["code"]] += 1
    return None


async def pause(seconds: float, deadline: float) -> None:
    """Sleep ``seconds``, but not past the deadline."""
    await asyncio.sleep(max(0.0, min(seconds, deadline - asyncio.get_running_loop().time())))


async def register_victim(port: int, deadline: float) -> None:
    """Register :data:`VICTIM` (the name the guesses are at), from 127.0.0.1."""
    client = await connect(port, HOST, deadline)
    if client is None:
        raise SystemExit("cannot connect to register the victim")
    try:
        for request in ({"type": "hello", "name": VICTIM, "version": 1},
                        {"type": "register", "password": VICTIM_PASSWORD}):
            reply = await ask(client, request, deadline)
            if reply is None or reply["type"] == "error":
                raise SystemExit(f"the victim's {request['type']} failed: {reply}")
        await ask(client, {"type": "bye"}, deadline)
    finally:
        client.writer.close()


async def _answered(client: Client, request: dict[str, Any], deadline: float, counts: collections.Counter[str],
                    tally: Tally) -> dict[str, Any] | None:
    """``ask``, counting the reply (its type, or its error code) and waiting out a refusal
    (its ``retry_after``, else :data:`REFUSAL_PAUSE`); None when the deadline came first."""
    reply = await ask(client, request, deadline, tally.errors)
    if reply is None:
        tally.unanswered += 1
        return None
    if reply["type"] == "error":
        counts[reply["code"]] += 1
        tally.errors[reply["code"]] += 1
        if reply["code"] != "bad_password":
            await pause(reply.get("retry_after") or REFUSAL_PAUSE, deadline)
    else:
        counts[reply["type"]] += 1
    return reply


async def _guess(client: Client, deadline: float, tally: Tally) -> None:
    """Say hello as the victim with one wrong password after another."""
    guess = 0
    while asyncio.get_running_loop().time() < deadline:
        guess += 1
        hello = {"type": "hello", "name": VICTIM, "version": 1, "password": f"guess number {guess}"}
        if await _answered(client, hello, deadline, tally.guesses, tally) is None:
            return


async def _change(client: Client, name: str, deadline: float, tally: Tally) -> None:
    """Say hello as a new name, register it, then change its password back and forth."""
    steps = [{"type": "hello", "name": name, "version": 1},
             {"type": "register", "password": FLOOD_PASSWORDS[0]}]
    wanted = ["welcome", "registered"]
    current = 0
    while asyncio.get_running_loop().time() < deadline:
        request = steps[0] if steps else {"type": "change_password", "old": FLOOD_PASSWORDS[current],
                                          "new": FLOOD_PASSWORDS[1 - current]}
        reply = await _answered(client, request, deadline, tally.changes, tally)
        if reply is None:
            return
        if steps and reply["type"] == wanted[0]:
            del steps[0], wanted[0]
        elif reply["type"] == "password_changed":
            current = 1 - current


async def _attacker(port: int, source: str, kind: str, label: str, deadline: float, tally: Tally) -> None:
    """One attacking connection, opened again when the server closes it (bounded)."""
    loop = asyncio.get_running_loop()
    for opening in range(MAX_OPENINGS):
        if loop.time() >= deadline:
            return
        client = await connect(port, source, deadline, tally)
        if client is None:
            tally.failed_connects += 1
        else:
            tally.opened += 1
            try:
                if kind == "guess":
                    await _guess(client, deadline, tally)
                else:
                    await _change(client, f"{label}-{opening}", deadline, tally)
            except (OSError, EOFError, ValueError):
                tally.closed_by_server += 1
            finally:
                client.writer.close()
        await pause(REOPEN_PAUSE, deadline)


async def flood(port: int, addresses: int, per_address: int, seconds: float) -> dict[str, Any]:
    """Run the flood on ``GO`` for ``seconds`` (less at ``STOP``); its counts."""
    commands = await read_commands()
    print("SETUP", flush=True)
    tally = Tally()
    if await commands.get() != "GO":
        return {**tally.as_dict(), "seconds": 0.0}
    loop = asyncio.get_running_loop()
    began = loop.time()
    deadline = began + seconds
    tasks = [asyncio.create_task(_attacker(port, f"127.0.0.{2 + a}", "guess" if c % 2 == 0 else "change",
                                           f"flood{a}-{c}", deadline, tally))
             for a in range(addresses) for c in range(per_address)]
    stop = asyncio.ensure_future(commands.get())
    everyone = asyncio.gather(*tasks, return_exceptions=True)
    # Each attacker ends by itself at the deadline (a request then unanswered is counted);
    # the second after it is for those connecting then, cut short.
    await asyncio.wait([stop, everyone], timeout=seconds + 1.0, return_when=asyncio.FIRST_COMPLETED)
    elapsed = min(loop.time() - began, seconds)
    for task in [stop, *tasks]:
        task.cancel()
    await asyncio.gather(stop, everyone, return_exceptions=True)
    return {**tally.as_dict(), "seconds": elapsed}


def main(argv: list[str]) -> int:
    port, addresses, per_address, seconds = int(argv[0]), int(argv[1]), int(argv[2]), float(argv[3])
    if not 1 <= addresses <= 250:  # 127.0.0.2 ... 127.0.0.251
        raise SystemExit("addresses: 1 to 250")
    print("RESULT " + json.dumps(asyncio.run(flood(port, addresses, per_address, seconds))), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
