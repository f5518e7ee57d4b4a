"""Helpers for the robustness tests: a watch on everything the server logs as an error, real
games played beside the abuse, and the engine replay that says whether a game came out right.

Every test here runs a real server on 127.0.0.1 port 0, is bounded in messages and
connections, and stops by itself; none asserts on elapsed time (the machine is shared).
"""

from __future__ import annotations

import asyncio
import subprocess
import contextlib
import logging
import random
import socket
from typing import Any, Callable, Iterator

from noddy.engine import Discard, Discarded, Game, Go, Played, Play, SaidGo
from noddy.server import NoddyServer

from ..server.harness import Client, play_out
from ..server.results import outcome

#: A reader limit far above the server's line limit: replies echo ids of thousands of digits.
BIG = 1 << 20
#: Seconds any one wait here (a reply, a whole game) may take before the server is taken
#: for hung: a guard against a hang, never a measure.  The abuse shares the event loop with
#: the replies awaited, so on a loaded machine a reply waits behind thousands of bad lines:
#: the fuzz test's games waited up to 3.4 s for a reply with two CPU burners beside it and
#: 7.6 s with six, its whole run taking 88 s: near the harness's 10 s guard, the likely end
#: of the run reported failing on a loaded machine.
PATIENCE = 300.0


class ErrorWatch(logging.Handler):
    """Every ERROR record of the ``noddy`` and ``asyncio`` loggers, and every context that
    reached the event loop's exception handler ("Task exception was never retrieved",
    an exception in a connection callback...)."""

    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.records: list[logging.LogRecord] = []
        self.loop_errors: list[dict[str, Any]] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)

    def loop_handler(self, loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
        self.loop_errors.append(context)

    def assert_clean(self) -> None:
        assert not self.loop_errors, [c.get("message") for c in self.loop_errors]
        assert not self.records, [(r.name, r.getMessage(), r.exc_info) for r in self.records]


@contextlib.contextmanager
def watch_errors() -> Iterator[ErrorWatch]:
    watch = ErrorWatch()
    loggers = [logging.getLogger("noddy"), logging.getLogger("asyncio")]
    for logger in loggers:
        logger.addHandler(watch)
    loop = asyncio.get_running_loop()
    previous = loop.get_exception_handler()
    loop.set_exception_handler(watch.loop_handler)
    try:
        yield watch
    finally:
        loop.set_exception_handler(previous)
        for logger in loggers:
            logger.removeHandler(watch)


class PatientClient(Client):
    """A harness client whose waits for a reply are guarded by PATIENCE, not the harness's
    10 s: the server it talks to is being abused on purpose."""

    async def recv(self, timeout: float = PATIENCE) -> dict[str, Any]:
        return await super().recv(timeout)

    async def recv_until(self, predicate: Callable[[dict[str, Any]], bool],
                         timeout: float = PATIENCE) -> dict[str, Any]:
        return await super().recv_until(predicate, timeout)


async def connect(port: int) -> Client:
    """A patient harness client that can read the long replies the fuzzer provokes."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port, limit=BIG)
    client = PatientClient(reader, writer)
    greeting = await client.recv()
    assert greeting["type"] == "greeting", greeting
    return client


async def small_buffer_connection(port: int) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    """A connection whose receive buffer is tiny, so a peer that never reads backs up fast."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    sock.setblocking(False)
    await asyncio.get_running_loop().sock_connect(sock, ("127.0.0.1", port))
    return await asyncio.open_connection(sock=sock, limit=BIG)


async def game_against_computer(port: int, name: str, seed: int) -> tuple[Client, int, dict[str, Any]]:
    """A person plays a whole two-player noddy game against a computer; returns the client,
    its table and the ``game_over`` event it received.  The caller closes the client (the
    table stays open until then, so the server's record can be checked)."""
    client = await connect(port)
    await client.hello(name)
    created = await client.request({"type": "create_table", "preset": "noddy", "players": 2})
    table = created["table"]["id"]
    await client.request({"type": "ready"})
    await client.request({"type": "add_computer", "level": "random"})
    over = await play_out(client, random.Random(seed), timeout=PATIENCE)
    return client, table, over


async def game_between_people(port: int, names: tuple[str, str], seed: int) -> tuple[list[Client], int, list[dict]]:
    """Two people play each other; returns both clients, the table and both game_over events."""
    ann, ben = await connect(port), await connect(port)
    await ann.hello(names[0])
    await ben.hello(names[1])
    table = (await ann.request({"type": "create_table", "preset": "noddy"}))["table"]["id"]
    await ben.request({"type": "sit", "table": table})
    await ann.request({"type": "ready"})
    await ben.request({"type": "ready"})
    overs = await asyncio.gather(play_out(ann, random.Random(seed), timeout=PATIENCE),
                                 play_out(ben, random.Random(seed + 1), timeout=PATIENCE))
    return [ann, ben], table, list(overs)


def check_game(server: NoddyServer, table_id: int, game_over: dict[str, Any]) -> None:
    """The table's game, replayed on the engine from the same seed with the actions the
    server recorded, must give the same events, and the ``game_over`` a client got must be
    the replay's: so the abuse around the game changed nothing in it."""
    assert server.core is not None
    table = server.core.tables[table_id]
    game = table.game
    assert game is not None and game.is_over
    replay = Game(table.preset, table.players, partnerships=table.partnerships, options=table.options,
                  seed=server.config.game_seed(table_id, table.games_played))
    for event in game.log:
        if isinstance(event, Discarded) and event.seat is not None:
            assert event.cards is not None
            replay.apply(Discard(event.seat, event.cards))
        elif isinstance(event, Played):
            replay.apply(Play(event.seat, event.card))
        elif isinstance(event, SaidGo):
            replay.apply(Go(event.seat))
    assert replay.log == game.log
    assert replay.is_over and replay.winner == game.winner
    assert outcome(game_over) == outcome(replay.log[-1].to_dict())
    assert max(game_over["scores"]) >= table.rules.target


async def stop_server_process(process: subprocess.Popen[bytes]) -> None:
    """End a server a test started as its own process: close its standard input (it stops when
    that ends), wait up to 10 s, and kill it if it is still there."""
    if process.stdin is not None:
        process.stdin.close()
    try:
        await asyncio.to_thread(process.wait, 10)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()
