"""The ``noddy-server`` command: --help, the one "listening" line, and a clean exit on SIGTERM/SIGINT."""

from __future__ import annotations

import gc
import json
import signal
import socket
import subprocess
import sys

import pytest

import noddy
from noddy.server import cli
from noddy.server.cli import build_parser


def test_help_documents_every_flag() -> None:
    text = build_parser().format_help()
    for flag in ("--host", "--port", "--log-level", "--grace", "--ping-interval", "--idle-timeout",
                 "--rate", "--burst", "--seed", "--db", "--export-game", "--version",
                 "--max-connections-per-address", "--max-tables-per-connection",
                 "--max-tables-per-address"):
        assert flag in text
    assert "3131" in text


def _serve(log_level: str) -> "subprocess.Popen[str]":
    """A real noddy-server on a free loopback port, keeping nothing."""
    return subprocess.Popen(
        [sys.executable, "-m", "noddy.server.cli", "--host", "127.0.0.1", "--port", "0", "--log-level", log_level,
         "--db", ":memory:"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT])
def test_listens_and_exits_zero_on_signal(sig: signal.Signals) -> None:
    proc = _serve("WARNING")
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


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exited:
        cli.main(["--version"])
    assert exited.value.code == 0
    assert capsys.readouterr().out == f"noddy-server {noddy.__version__}\n"


@pytest.mark.parametrize("level", ["debug", "Warning", "INFO"])
def test_log_level_in_any_case(level: str) -> None:
    assert build_parser().parse_args(["--log-level", level]).log_level == level.upper()


@pytest.mark.parametrize("argv, complaint", [
    (["--grace", "-5"], "argument --grace: must be 0 or more, not -5"),
    (["--rate", "0"], "argument --rate: must be more than 0, not 0"),
    (["--burst", "0"], "argument --burst: must be 1 or more, not 0"),
    (["--ping-interval", "0"], "argument --ping-interval: must be more than 0, not 0"),
    (["--idle-timeout", "-1"], "argument --idle-timeout: must be more than 0, not -1"),
    (["--max-tables-per-address", "-2"], "argument --max-tables-per-address: must be 0 or more, not -2"),
    (["--port", "99999"], "argument --port: a TCP port is 0 to 65535, not 99999"),
    (["--port", "-1"], "argument --port: a TCP port is 0 to 65535, not -1"),
    (["--port", "http"], "argument --port: not a whole number: 'http'"),
    (["--grace", "nan"], "argument --grace: must be 0 or more, not nan"),
    (["--record-cache-bytes", "-1"], "argument --record-cache-bytes: must be 0 or more, not -1"),
])
def test_nonsense_values_are_usage_errors(argv: list[str], complaint: str,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exited:
        cli.main(argv)
    assert exited.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith("usage: noddy-server ") and err.endswith(f"noddy-server: error: {complaint}\n")


def test_the_chosen_port_is_printed_once() -> None:
    proc = _serve("info")
    try:
        line = proc.stdout.readline()
        port = line.rsplit(":", 1)[1].strip()
        proc.send_signal(signal.SIGTERM)
        out, err = proc.communicate(timeout=10)
        assert out == ""
        # Once on stdout; on stderr only in the host's lines for friends (issue 26).
        join = ["Only this machine can join (the server listens on 127.0.0.1 only):",
                f"    noddy-client 127.0.0.1:{port}", f"    nc 127.0.0.1 {port}"]
        lines = err.splitlines()
        at = lines.index(join[0])
        assert lines[at:at + 3] == join
        rest = "\n".join(lines[:at] + lines[at + 3:])
        assert f":{port}" not in rest and port not in rest and "INFO" in rest
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
