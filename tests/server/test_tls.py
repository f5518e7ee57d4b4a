"""Optional TLS (issue 24, "Encryption for passwords on a network"): with a certificate the
server also listens on its TLS port, where a client that trusts the certificate talks the
same protocol encrypted, while the plain port stays for ``nc``.  The certificate is a
self-signed one made in the test with the ``openssl`` command, as docs/PROTOCOL.md tells a
host to make one for a LAN."""

from __future__ import annotations

import asyncio
import json
import logging
import shutil
import ssl
import subprocess
from pathlib import Path

import pytest

from noddy.server import NoddyServer
from noddy.server.cli import main as server_main

from .harness import Client
from .harness import test_config as config_for_tests

pytestmark = pytest.mark.skipif(shutil.which("openssl") is None, reason="needs the openssl command")


def _self_signed(where: Path) -> tuple[Path, Path]:
    cert, key = where / "cert.pem", where / "key.pem"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "3650",
                    "-subj", "/CN=localhost", "-addext", "subjectAltName=IP:127.0.0.1,DNS:localhost",
                    "-keyout", str(key), "-out", str(cert)], check=True, capture_output=True)
    return cert, key


async def test_a_client_talks_to_the_tls_port_and_nc_to_the_plain_one(tmp_path: Path) -> None:
    cert, key = _self_signed(tmp_path)
    server = NoddyServer(config_for_tests(tls_cert=str(cert), tls_key=str(key), tls_port=0))
    await server.start()
    try:
        assert server.tls_port is not None and server.tls_port != server.port
        trusting = ssl.create_default_context(cafile=str(cert))
        reader, writer = await asyncio.open_connection("127.0.0.1", server.tls_port, ssl=trusting)
        assert json.loads(await reader.readline())["type"] == "greeting"
        writer.write(b'{"type":"hello","name":"ann","version":1,"id":1}\n')
        welcome = json.loads(await reader.readline())
        assert (welcome["type"], welcome["name"], welcome["id"]) == ("welcome", "ann", 1)
        assert writer.get_extra_info("ssl_object").version() in ("TLSv1.2", "TLSv1.3")
        plain = await Client.connect(server.port)  # nc's port: as before
        assert (await plain.hello("ben"))["name"] == "ben"
        # A client that does not trust the certificate is refused by its own TLS check.
        with pytest.raises(ssl.SSLCertVerificationError):
            await asyncio.open_connection("127.0.0.1", server.tls_port, ssl=ssl.create_default_context())
        # Plain text sent to the TLS port is no handshake: that connection alone is dropped.
        raw_reader, raw_writer = await asyncio.open_connection("127.0.0.1", server.tls_port)
        raw_writer.write(b'{"type":"hello","name":"cy","version":1}\n')
        assert await asyncio.wait_for(raw_reader.read(), 10) == b""
        writer.write(b'{"type":"ping","id":2}\n')
        assert json.loads(await reader.readline()) == {"type": "pong", "id": 2}
        for w in (writer, raw_writer):
            w.close()
        await plain.close()
    finally:
        await server.shutdown()


def test_a_key_that_does_not_match_is_a_usage_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    cert, _key = _self_signed(tmp_path)
    (tmp_path / "other").mkdir()
    _other_cert, other_key = _self_signed(tmp_path / "other")
    with pytest.raises(SystemExit) as exited:
        server_main(["--port", "0", "--db", ":memory:", "--tls-cert", str(cert), "--tls-key", str(other_key)])
    assert exited.value.code == 2
    assert "--tls-cert/--tls-key:" in capsys.readouterr().err
    with pytest.raises(SystemExit) as exited:
        server_main(["--port", "0", "--db", ":memory:", "--tls-key", str(other_key)])
    assert exited.value.code == 2
    assert "--tls-key needs --tls-cert" in capsys.readouterr().err


async def test_the_clients_connection_speaks_tls_and_says_why_it_does_not_trust(tmp_path: Path) -> None:
    from noddy.client.connection import FAILED, UP, Connection

    cert, key = _self_signed(tmp_path)
    server = NoddyServer(config_for_tests(tls_cert=str(cert), tls_key=str(key), tls_port=0))
    await server.start()
    try:
        assert server.tls_port is not None
        for context, wanted in ((ssl.create_default_context(cafile=str(cert)), UP),
                                (ssl.create_default_context(), FAILED)):
            messages: list[dict] = []
            states: list[tuple[str, str]] = []
            reached = asyncio.Event()

            def on_message(message: dict) -> None:
                messages.append(message)
                reached.set()

            def on_state(state: str, why: str) -> None:
                states.append((state, why))
                if state == FAILED:
                    reached.set()

            connection = Connection("127.0.0.1", server.tls_port, on_message, on_state, tls=context)
            task = asyncio.create_task(connection.run())
            await asyncio.wait_for(reached.wait(), 10)
            connection.stop()
            await asyncio.wait_for(task, 10)
            assert states[0][0] == wanted
            if wanted == UP:
                assert messages[0]["type"] == "greeting"
            else:
                assert states[0][1].startswith(
                    f"cannot reach 127.0.0.1:{server.tls_port}: its TLS certificate is not trusted (")
                assert "give the certificate or its CA with --tls-ca" in states[0][1]
    finally:
        await server.shutdown()


def test_the_client_takes_a_tls_address_and_a_ca_only_with_one(tmp_path: Path,
                                                              monkeypatch: pytest.MonkeyPatch,
                                                              capsys: pytest.CaptureFixture[str]) -> None:
    from noddy.client import cli

    cert, _key = _self_signed(tmp_path)
    seen: dict = {}

    async def fake_run_client(host: str, port: int, name: str, **options: object) -> int:
        seen.update(host=host, port=port, tls=options.get("tls"))
        return 0

    monkeypatch.setattr(cli, "run_client", fake_run_client)
    monkeypatch.setattr(cli, "terminal_problem", lambda: None)
    assert cli.main(["tls://127.0.0.1:4000", "--tls-ca", str(cert), "--name", "ann"]) == 0
    assert (seen["host"], seen["port"], isinstance(seen["tls"], ssl.SSLContext)) == ("127.0.0.1", 4000, True)
    assert cli.main(["127.0.0.1:4000", "--name", "ann"]) == 0
    assert seen["tls"] is None
    with pytest.raises(SystemExit) as exited:
        cli.main(["127.0.0.1:4000", "--tls-ca", str(cert)])
    assert exited.value.code == 2 and "--tls-ca is for a tls://HOST:PORT address" in capsys.readouterr().err


async def test_a_tls_client_that_leaves_is_not_a_warning(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """asyncio warned "returning true from eof_received() has no effect when using ssl" for
    every TLS connection whose peer closed it: one warning a player, for nothing."""
    cert, key = _self_signed(tmp_path)
    server = NoddyServer(config_for_tests(tls_cert=str(cert), tls_key=str(key), tls_port=0))
    await server.start()
    try:
        assert server.tls_port is not None
        reader, writer = await asyncio.open_connection("127.0.0.1", server.tls_port,
                                                       ssl=ssl.create_default_context(cafile=str(cert)))
        assert json.loads(await reader.readline())["type"] == "greeting"
        link = next(iter(server._links.values()))
        with caplog.at_level(logging.WARNING, logger="asyncio"):
            writer.close()  # TLS's close_notify: the server reads the end of the stream
            await asyncio.wait_for(link.lost, 10)
        assert [record.getMessage() for record in caplog.records if record.name == "asyncio"] == []
    finally:
        await server.shutdown()
