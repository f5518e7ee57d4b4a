"""Admission on the TLS port before the handshake (issue 31): handshakes in progress are
counted from the moment a socket is accepted, per address and in all, and one over a limit is
closed at once, unanswered; an unfinished handshake is closed after ``tls_handshake_timeout``;
and a flood of unfinished handshakes cannot take the descriptors the plain port needs.

A connection "in progress" here is a raw TCP connection to the TLS port that has not begun
(or not finished) its handshake.  That the server closed one is seen as the end of the
stream (a read returns ``b""``); that it kept one is seen by finishing the handshake on it
afterwards and getting the greeting.  The bounds on waiting are generous: the server closes
a connection over a limit as it accepts it, and the timeouts used are a fraction of a second.
"""

from __future__ import annotations

import asyncio
import json
import shutil
import ssl
import subprocess
import sys
from pathlib import Path

import pytest

from noddy.server.net.handshake import HANDSHAKES_PER_TURN, LEAN_TLS, TLS_READ_BUFFER, Turns

from ..server.harness import Client, running_server
from ..server.test_tls import _self_signed
from .helpers import stop_server_process

pytestmark = pytest.mark.skipif(shutil.which("openssl") is None, reason="needs the openssl command")

#: Seconds a test waits for the server to close a connection it closes at once, or after a
#: fraction of a second: far more than either takes, far less than the 10 s the server used
#: to give every handshake.
BOUND = 5.0


@pytest.fixture(scope="module")
def certificate(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    return _self_signed(tmp_path_factory.mktemp("tls"))


def trusting(cert: Path) -> ssl.SSLContext:
    return ssl.create_default_context(cafile=str(cert))


async def raw(port: int, source: str = "127.0.0.1") -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    """A TCP connection to ``port`` from ``source`` that says nothing (yet)."""
    return await asyncio.open_connection("127.0.0.1", port, local_addr=(source, 0))


async def closed(reader: asyncio.StreamReader) -> bool:
    """Whether the server closes the connection (within ``BOUND``) without a byte."""
    try:
        return await asyncio.wait_for(reader.read(), BOUND) == b""
    except ConnectionResetError:
        return True


async def greeted(cert: Path, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> str:
    """Finish the handshake on a connection that has said nothing so far; the first message."""
    await asyncio.wait_for(writer.start_tls(trusting(cert)), BOUND)
    return str(json.loads(await asyncio.wait_for(reader.readline(), BOUND))["type"])


def client_hello() -> bytes:
    """A ClientHello, the first flight of a handshake that then goes no further."""
    obj = trusting_anything().wrap_bio(ssl.MemoryBIO(), outgoing := ssl.MemoryBIO(), server_side=False)
    with pytest.raises(ssl.SSLWantReadError):
        obj.do_handshake()
    return outgoing.read()


def trusting_anything() -> ssl.SSLContext:
    context = ssl.create_default_context()
    context.check_hostname = False
    context.verify_mode = ssl.CERT_NONE
    return context


def tls(cert: Path, key: Path, **changes: object) -> dict[str, object]:
    return dict(tls_cert=str(cert), tls_key=str(key), tls_port=0, **changes)


async def test_one_address_may_have_only_so_many_handshakes_in_progress(certificate: tuple[Path, Path]) -> None:
    cert, key = certificate
    limits = tls(cert, key, max_tls_handshakes_per_address=2, tls_handshake_timeout=60.0)
    async with running_server(**limits) as server:
        assert server.tls_port is not None
        first = [await raw(server.tls_port) for _ in range(2)]
        extra_reader, extra_writer = await raw(server.tls_port)
        assert await closed(extra_reader)
        other = await raw(server.tls_port, "127.0.0.2")  # another address has its own places
        for reader, writer in [*first, other]:
            assert await greeted(cert, reader, writer) == "greeting"
        for _, writer in [*first, other, (extra_reader, extra_writer)]:
            writer.close()


async def test_handshakes_in_progress_count_toward_the_connections_per_address(
        certificate: tuple[Path, Path]) -> None:
    cert, key = certificate
    async with running_server(**tls(cert, key, max_connections_per_address=3, tls_handshake_timeout=60.0)) as server:
        assert server.tls_port is not None
        people = [await Client.connect(server.port) for _ in range(2)]
        waiting = await raw(server.tls_port)
        extra_reader, extra_writer = await raw(server.tls_port)
        assert await closed(extra_reader)  # 2 connections and a handshake: the limit of 3
        assert await greeted(cert, *waiting) == "greeting"
        for writer in (waiting[1], extra_writer):
            writer.close()
        for person in people:
            await person.close()


async def test_the_server_has_only_so_many_handshakes_in_progress_in_all(certificate: tuple[Path, Path]) -> None:
    cert, key = certificate
    async with running_server(**tls(cert, key, max_tls_handshakes=3, max_tls_handshakes_per_address=0,
                                    tls_handshake_timeout=60.0)) as server:
        assert server.tls_port is not None
        kept = [await raw(server.tls_port, source) for source in ("127.0.0.1", "127.0.0.1", "127.0.0.2")]
        over = [await raw(server.tls_port, source) for source in ("127.0.0.1", "127.0.0.3")]
        for reader, _ in over:
            assert await closed(reader)
        for reader, writer in kept:
            assert await greeted(cert, reader, writer) == "greeting"
        # Finished handshakes are connections, no longer handshakes: there is room again.
        again = await asyncio.open_connection("127.0.0.1", server.tls_port, ssl=trusting(cert))
        assert json.loads(await asyncio.wait_for(again[0].readline(), BOUND))["type"] == "greeting"
        for _, writer in [*kept, *over, again]:
            writer.close()


async def test_an_unfinished_handshake_is_closed_after_the_timeout_and_its_place_freed(
        certificate: tuple[Path, Path]) -> None:
    cert, key = certificate
    async with running_server(**tls(cert, key, max_tls_handshakes_per_address=1,
                                    tls_handshake_timeout=0.2)) as server:
        assert server.tls_port is not None
        silent_reader, silent_writer = await raw(server.tls_port)
        assert await closed(silent_reader)
        begun_reader, begun_writer = await raw(server.tls_port)
        begun_writer.write(client_hello())
        # The server answers the hello with its own flight (a TLS handshake record), then
        # waits for the client's, which never comes: the stream ends after the timeout.
        answer = await asyncio.wait_for(begun_reader.read(), BOUND)
        assert answer[:1] == b"\x16"
        # The one place of the address is free again: a real client is let in.
        reader, writer = await asyncio.open_connection("127.0.0.1", server.tls_port, ssl=trusting(cert))
        assert json.loads(await asyncio.wait_for(reader.readline(), BOUND))["type"] == "greeting"
        for w in (silent_writer, begun_writer, writer):
            w.close()


async def test_a_tls_connection_reads_through_a_small_buffer(certificate: tuple[Path, Path]) -> None:
    """Many lines in one write, several times the TLS read buffer: every one is answered."""
    cert, key = certificate
    async with running_server(**tls(cert, key)) as server:
        assert server.tls_port is not None
        reader, writer = await asyncio.open_connection("127.0.0.1", server.tls_port, ssl=trusting(cert))
        assert json.loads(await reader.readline())["type"] == "greeting"
        link = next(iter(server._links.values()))
        if LEAN_TLS:  # the standard library's own buffer would be 256 KiB
            assert link.transport._ssl_protocol.max_size == TLS_READ_BUFFER  # type: ignore[union-attr]
        pad = "x" * 6000
        count = 4 * TLS_READ_BUFFER // len(pad)
        writer.write(b"".join(json.dumps({"type": "ping", "id": n, "pad": pad}).encode() + b"\n"
                              for n in range(count)))
        replies = [json.loads(await asyncio.wait_for(reader.readline(), BOUND)) for _ in range(count)]
        assert replies == [{"type": "pong", "id": n} for n in range(count)]
        writer.close()


#: A server in a subprocess whose descriptor limit is 64 (the test process keeps its own):
#: a quarter of it (16) may be TLS handshakes, however many are configured.
FLOODED_SERVER = """
import asyncio, resource, sys
from noddy.server import NoddyServer, ServerConfig

async def main() -> None:
    resource.setrlimit(resource.RLIMIT_NOFILE, (64, resource.getrlimit(resource.RLIMIT_NOFILE)[1]))
    config = ServerConfig(host="127.0.0.1", port=0, tls_port=0, tls_cert=sys.argv[1], tls_key=sys.argv[2],
                          tls_handshake_timeout=60.0, max_tls_handshakes=1000)
    server = NoddyServer(config)
    await server.start()
    print(server.port, server.tls_port, flush=True)
    await asyncio.get_running_loop().run_in_executor(None, sys.stdin.read)  # until stdin closes
    await server.shutdown()

asyncio.run(main())
"""


async def test_a_flood_of_handshakes_leaves_descriptors_for_the_plain_port(certificate: tuple[Path, Path],
                                                                            tmp_path: Path) -> None:
    cert, key = certificate
    with open(tmp_path / "server.log", "wb") as log_file:
        process = subprocess.Popen([sys.executable, "-c", FLOODED_SERVER, str(cert), str(key)],
                                   stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=log_file)
    flood: list[tuple[asyncio.StreamReader, asyncio.StreamWriter]] = []
    try:
        assert process.stdout is not None and process.stdin is not None
        line = await asyncio.wait_for(asyncio.to_thread(process.stdout.readline), 20)
        port, tls_port = (int(word) for word in line.split())
        # 80 silent handshakes from 10 addresses: more than the server has descriptors.
        for number in range(80):
            flood.append(await raw(tls_port, f"127.0.0.{1 + number % 10}"))
        person = await asyncio.wait_for(Client.connect(port), BOUND)  # its greeting, at once
        assert (await person.hello("ann"))["name"] == "ann"
        await person.close()
    finally:
        for _, writer in flood:
            writer.close()
        await stop_server_process(process)


async def test_handshakes_begin_a_few_per_turn_of_the_event_loop() -> None:
    """A flood's handshakes, all ready at once, begin ``HANDSHAKES_PER_TURN`` at a time, so
    the players' lines are read between them; one given up meanwhile is skipped."""
    assert HANDSHAKES_PER_TURN == 2
    turns = Turns()
    waiting = [turns.wait() for _ in range(5)]
    await asyncio.sleep(0)
    assert [turn.done() for turn in waiting] == [True, True, False, False, False]
    waiting[2].set_result(False)  # its handshake ran out of time while waiting
    await asyncio.sleep(0)
    assert [turn.result() for turn in waiting] == [True, True, False, True, True]
