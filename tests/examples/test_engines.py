"""Engines through the bridge (``noddy-bot``, issue 34): the example engine and a checking one
play at a real server -- against a computer, in noddy-match, for a person who challenges
them, and on after the connection drops."""

from __future__ import annotations

import json
import re
import shlex
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

from noddy.bots.match import replay

from .test_bots import ROOT, TIMEOUT, address, check_games, match, run  # noqa: F401
from .test_challenges import _bot, _challenge_and_play, _check

ENGINE = ROOT / "examples" / "bots" / "python" / "engine.py"
CHECKING = Path(__file__).with_name("checking_engine.py")
BRIDGE = [sys.executable, "-m", "noddy.bots.bridge"]


def engine(path: Path, *args: str) -> str:
    return shlex.join([sys.executable, str(path), *args])


def test_the_example_engine_is_at_most_thirty_lines_of_code() -> None:
    code = [line for line in ENGINE.read_text().splitlines() if line.strip()]
    assert len(code) <= 30


def test_the_bridge_plays_an_engine_against_a_computer(address: str, tmp_path: Path) -> None:
    decisions = tmp_path / "decisions.jsonl"
    check_games(run([*BRIDGE, address, "--engine", engine(CHECKING, str(decisions)),
                     "--name", "checked", "--preset", "cribbage", "--games", "2"]), 2)
    lines = [json.loads(line) for line in decisions.read_text().splitlines()]
    assert {d["type"] for d in lines} == {"decide"}
    assert {d["preset"] for d in lines} == {"cribbage"}
    assert {d["seat"] for d in lines} == {0}
    discards = [d for d in lines if d["legal"][0]["action"] == "discard"]
    assert discards and all(len(d["hand"]) == 6 and d["turn_up"] is None for d in discards)
    assert all(d["crib"] == d["dealer"] for d in lines)
    plays = [d for d in lines if d["legal"][0]["action"] == "play"]
    assert plays and all(d["turn_up"] is not None and len(d["laid_away"]) == 2 for d in plays)


def test_noddy_match_plays_an_engine(tmp_path: Path) -> None:
    path = tmp_path / "games.jsonl"
    result = match("engine:" + engine(ENGINE), "greedy", "--preset", "cribbage", "--games", "2",
                   "--seed", "3", "--record", str(path))
    assert result.returncode == 0, result.stderr
    assert re.search(r"^A engine \(engine:.*engine\.py\): won (\d) of 2 = ", result.stdout, re.M), result.stdout
    records = [json.loads(line) for line in path.read_text().splitlines()]
    assert len(records) == 2 and records[0]["seed"] == records[1]["seed"]
    for record in records:
        assert replay(record).is_over


def test_a_wrong_answer_from_the_engine_is_a_forfeit_with_the_reason(tmp_path: Path) -> None:
    liar = tmp_path / "liar.py"
    liar.write_text("import sys\nfor line in sys.stdin:\n    print(99, flush=True)\n")
    result = match("engine:" + engine(liar), "random", "--games", "2", "--timeout", "20")
    assert result.returncode == 0, result.stderr
    assert re.search(r"^forfeited by A: 2 games \(crash 2\)$", result.stdout, re.M), result.stdout


def test_a_person_challenges_an_engine_and_plays_it(address: str) -> None:
    bot = _bot([*BRIDGE, address, "--engine", engine(ENGINE), "--name", "engine-lobby",
                "--accept-challenges", "--games", "2"])
    _check(_challenge_and_play(address, bot, "engine-lobby", 2), "engine-lobby", 2)


def test_the_bridge_explains_a_refusal(address: str) -> None:
    result = run([*BRIDGE, address, "--engine", engine(ENGINE), "--name", "lost", "--table", "999"])
    assert result.returncode == 1
    assert "noddy-bot: sit refused: no_such_table" in result.stderr


def test_an_engine_that_cannot_start_is_named() -> None:
    result = subprocess.run([*BRIDGE, "127.0.0.1:9", "--engine", "/nonexistent/engine"],
                            capture_output=True, text=True, timeout=TIMEOUT)
    assert result.returncode == 1
    assert "noddy-bot: cannot start the engine '/nonexistent/engine'" in result.stderr


class DroppingProxy:
    """A TCP relay to the server that can cut every connection through it at once (the
    network failing), and goes on accepting new ones."""

    def __init__(self, target: str) -> None:
        host, _, port = target.rpartition(":")
        self.target = (host, int(port))
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.address = "127.0.0.1:%d" % self.listener.getsockname()[1]
        self.open: list[socket.socket] = []
        self.accepted = 0
        #: Held while a connection is being added or the open ones cut, so that a connection
        #: the bridge makes again at once is never caught by the cut that prompted it.
        self.lock = threading.Lock()
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            server = socket.create_connection(self.target)
            with self.lock:
                self.accepted += 1
                self.open += [client, server]
            for a, b in ((client, server), (server, client)):
                threading.Thread(target=self._pump, args=(a, b), daemon=True).start()

    @staticmethod
    def _pump(source: socket.socket, sink: socket.socket) -> None:
        try:
            while data := source.recv(65536):
                sink.sendall(data)
        except OSError:
            pass
        for s in (source, sink):
            try:
                s.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass

    def drop(self) -> None:
        with self.lock:
            cut, self.open = self.open, []
        for s in cut:
            try:
                s.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass

    def close(self) -> None:
        self.drop()
        self.listener.close()


def test_the_bridge_takes_up_a_dropped_connection_and_finishes_the_game(
        address: str, tmp_path: Path) -> None:
    decisions = tmp_path / "decisions.jsonl"
    proxy = DroppingProxy(address)
    bot = subprocess.Popen([*BRIDGE, proxy.address, "--engine", engine(CHECKING, str(decisions)),
                            "--name", "dropped", "--preset", "cribbage", "--level", "random"],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT)
    try:
        for _ in range(TIMEOUT * 20):  # until the game is under way: three decisions made
            if decisions.exists() and len(decisions.read_text().splitlines()) >= 3:
                break
            time.sleep(0.05)
        before = len(decisions.read_text().splitlines())
        proxy.drop()
        out, err = bot.communicate(timeout=TIMEOUT)
    finally:
        if bot.poll() is None:
            bot.kill()
            bot.communicate()
        proxy.close()
    assert bot.returncode == 0, err
    assert proxy.accepted == 2
    assert "connection lost" in err and "taking it up again" in err
    assert len(re.findall(r"^game over: (won|lost) in seat 0, ", out, re.M)) == 1, out
    assert len(decisions.read_text().splitlines()) > before  # it played on after the drop
