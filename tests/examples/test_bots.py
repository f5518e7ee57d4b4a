"""The example bots in examples/bots/ play whole games against a real server, alone and
inside ``noddy-match``.

The server is the real ``noddy-server`` program, started as a subprocess on 127.0.0.1 and a
free port, with its default flow control: a bot that plays a computer player at full speed
meets ``rate_limited`` and must wait and resend, which is part of what is tested.
"""

from __future__ import annotations

import json
import queue
import re
import shlex
import shutil
import subprocess
import sys
import threading
from pathlib import Path
from typing import Iterator

import pytest

from noddy.bots.match import replay

ROOT = Path(__file__).resolve().parents[2]
PYTHON_BOT = ROOT / "examples" / "bots" / "python" / "noddy_bot.py"
JS_BOT = ROOT / "examples" / "bots" / "javascript" / "noddy_bot.js"
NODE = shutil.which("node")
needs_node = pytest.mark.skipif(NODE is None, reason="node is not installed: the JavaScript "
                                "example bot cannot be run")
TIMEOUT = 60  # seconds, for any one subprocess
GAME_OVER = re.compile(r"^game over: (won|lost) in seat (\d), scores \[\d+, \d+\]$", re.M)


@pytest.fixture(scope="module")
def address() -> Iterator[str]:
    """A real server on 127.0.0.1 and a free port; its HOST:PORT."""
    server = subprocess.Popen(
        [sys.executable, "-m", "noddy.server.cli", "--host", "127.0.0.1", "--port", "0",
         "--seed", "31", "--db", ":memory:", "--log-level", "WARNING"],
        stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, text=True)
    assert server.stdout is not None
    lines: queue.Queue[str] = queue.Queue()
    threading.Thread(target=lambda: lines.put(server.stdout.readline()), daemon=True).start()
    try:
        line = lines.get(timeout=TIMEOUT)
        assert line.startswith("noddy-server listening on "), line
        yield line.split()[-1]
    finally:
        server.terminate()
        server.wait(TIMEOUT)
        server.stdout.close()


def run(command: list[str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(command, capture_output=True, text=True, timeout=TIMEOUT, cwd=ROOT)


def check_games(result: subprocess.CompletedProcess[str], games: int) -> None:
    assert result.returncode == 0, result.stderr
    assert re.match(r"playing at table \d+ in seat 0\n", result.stdout), result.stdout
    assert len(GAME_OVER.findall(result.stdout)) == games, result.stdout
    if games > 1:
        assert re.search(rf"^won \d of {games} games$", result.stdout, re.M), result.stdout


@pytest.mark.parametrize(("preset", "games"), [("noddy", 2), ("cribbage", 1)])
def test_the_python_bot_plays_to_the_end(address: str, preset: str, games: int) -> None:
    check_games(run([sys.executable, str(PYTHON_BOT), address, "--name", f"py-{preset}",
                     "--preset", preset, "--games", str(games)]), games)


@needs_node
@pytest.mark.parametrize(("preset", "games"), [("noddy", 2), ("cribbage", 1)])
def test_the_javascript_bot_plays_to_the_end(address: str, preset: str, games: int) -> None:
    assert NODE is not None
    check_games(run([NODE, str(JS_BOT), address, "--name", f"js-{preset}",
                     "--preset", preset, "--games", str(games), "--level", "random"]), games)


def test_a_bot_explains_a_refusal(address: str) -> None:
    result = run([sys.executable, str(PYTHON_BOT), address, "--name", "lost", "--table", "999"])
    assert result.returncode == 1
    assert "sit refused: no_such_table" in result.stderr


def match(*args: str) -> subprocess.CompletedProcess[str]:
    return run([sys.executable, "-m", "noddy.bots.match", *args])


def python_bot() -> str:
    return "cmd:" + shlex.join([sys.executable, str(PYTHON_BOT)])


def test_noddy_match_plays_an_external_bot(tmp_path: Path) -> None:
    path = tmp_path / "games.jsonl"
    result = match(python_bot(), "greedy", "--games", "2", "--seed", "3", "--record", str(path))
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert re.search(r"^A noddy_bot \(cmd:.*noddy_bot\.py\): won (\d) of 2 = ", out, re.M), out
    assert re.search(r"^B greedy: won (\d) of 2 = ", out, re.M), out
    wins = [int(n) for n in re.findall(r"^[AB] .*: won (\d) of 2", out, re.M)]
    assert sum(wins) == 2
    assert re.search(r"^average margin \(A minus B\): [+-]\d+\.\d\d points$", out, re.M)
    assert re.search(r"^2 games in [\d.]+ s: [\d.]+ games/s$", out, re.M)
    records = [json.loads(line) for line in path.read_text().splitlines()]
    assert [r["seats"][1] for r in records] == ["greedy", python_bot()]
    assert records[0]["seed"] == records[1]["seed"]  # a pair: the same cards, seats swapped
    for record in records:
        assert replay(record).is_over


@needs_node
def test_noddy_match_plays_two_external_bots_in_partnerships() -> None:
    assert NODE is not None
    js = "cmd:" + shlex.join([NODE, str(JS_BOT)]) + " --name {name} {address} --table {table} --seat {seat}"
    result = match(js, python_bot(), "--preset", "cribbage", "--players", "4", "--partnerships",
                   "--target", "31", "--games", "2")
    assert result.returncode == 0, result.stderr
    assert re.search(r"^2 games in ", result.stdout, re.M), result.stdout


@needs_node
def test_both_example_bots_finish_a_game_counted_by_hand() -> None:
    """At a table with counting "manual" the bots claim 0 and pass (they do not count)."""
    assert NODE is not None
    js = "cmd:" + shlex.join([NODE, str(JS_BOT)]) + " --name {name} {address} --table {table} --seat {seat}"
    result = match(js, python_bot(), "--preset", "five-card-cribbage", "--option", "counting=manual",
                   "--target", "31", "--games", "2")
    assert result.returncode == 0, result.stderr
    assert re.search(r"^2 games in ", result.stdout, re.M), result.stdout


def test_noddy_match_reports_a_bot_that_dies_and_goes_on() -> None:
    dies = "cmd:" + shlex.join([sys.executable, "-c", "print('no luck'); raise SystemExit(3)"])
    result = match(dies, "random", "--games", "2")
    assert result.returncode == 0, result.stderr
    assert re.search(r"^noddy-match: game 1: A forfeits \(crash\): before taking its seat, "
                     r"exited with status 3: .*\n--- its output ---\nno luck$", result.stderr,
                     re.M), result.stderr
    assert "forfeited by A: 2 games (crash 2)\n" in result.stdout
    assert re.search(r"^B random: won 2 of 2 = ", result.stdout, re.M), result.stdout


def test_a_bot_may_take_its_own_name_through_placeholders() -> None:
    own = python_bot() + " {address} --table {table} --seat {seat} --name my-own-name"
    result = match(own, "expert", "--games", "1", "--preset", "noddy-holme")
    assert result.returncode == 0, result.stderr
    assert re.search(r"^1 games in ", result.stdout, re.M), result.stdout


def test_noddy_match_gives_up_on_a_bot_that_never_sits() -> None:
    idle = "cmd:" + shlex.join([sys.executable, "-c", "import time; time.sleep(60)"])
    result = match(idle, "random", "--games", "1", "--timeout", "2")
    assert result.returncode == 0, result.stderr
    assert "noddy-match: game 1: A forfeits (timeout): did not take seat 0 within 2 s\n" \
        in result.stderr
    assert "forfeited by A: 1 games (timeout 1)\n" in result.stdout
