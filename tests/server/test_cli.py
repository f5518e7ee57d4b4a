"""The ``noddy-server`` command: --help, the one "listening" line, and a clean exit on SIGTERM/SIGINT."""

from __future__ import annotations

import gc
import json
import signal
import socket
import subprocess
import sys

import pytest

from noddy.server import cli
from noddy.server.cli import build_parser


def test_help_documents_every_flag() -> None:
    text = build_parser().format_help()
    for flag in ("--host", "--port", "--log-level", "--grace", "--ping-interval", "--idle-timeout",
                 "--rate", "--burst", "--seed", "--db", "--export-game"):
        assert flag in text
    assert "3131" in text


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT])
def test_listens_and_exits_zero_on_signal(sig: signal.Signals) -> None:
    proc = subprocess.Popen(
        [sys.executable, "-m", "noddy.server.cli", "--host", "127.0.0.1", "--port", "0", "--log-level", "WARNING",
         "--db", ":memory:"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        line = proc.stdout.readline()
        assert line.startswith("noddy-server listening on 127.0.0.1:")
        port = int(line.rsplit(":", 1)[1])
        with socket.create_connection(("127.0.0.1", port), timeout=5) as sock:
            reader = sock.makefile("rb")
            assert json.loads(reader.readline())["type"] == "greeting"
            sock.sendall(b'{"type":"hello","name":"t","version":1}\n')
            assert json.loads(reader.readline())["type"] == "welcome"
            proc.send_signal(sig)
            assert json.loads(reader.readline()) == {"type": "shutdown",
                                                     "message": "the server is shutting down"}
            assert reader.readline() == b""
        assert proc.wait(timeout=10) == 0
        assert proc.stdout.read() == ""
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        proc.stdout.close()
        proc.stderr.close()


def test_the_server_process_moves_start_up_objects_out_of_the_collectors_way() -> None:
    before = gc.get_threshold()
    try:
        cli._tune_garbage_collector()
        assert gc.get_threshold() == (cli.GC_THRESHOLD, 20, 20)
        assert gc.get_freeze_count() > 0
    finally:
        gc.unfreeze()
        gc.set_threshold(*before)
