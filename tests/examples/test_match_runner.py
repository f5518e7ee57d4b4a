"""noddy-match with ``cmd:`` bots: one bot process per table plays game after game there,
the deals are the built-in match's own, a crash costs one game, and the runner's server is
the installed one whatever the current directory holds."""

from __future__ import annotations

import importlib.util
import json
import re
import shlex
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from noddy.bots import external
from noddy.bots.match import play_pairing, replay

from .test_bots import JS_BOT, NODE, PYTHON_BOT, ROOT, TIMEOUT, match, python_bot

HERE = Path(__file__).resolve().parent
MAX_SEED = 2**53 - 1


def records(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines()]


@pytest.mark.parametrize("language", ["python", "javascript"])
def test_one_bot_process_per_table_plays_every_game_there(tmp_path: Path, language: str) -> None:
    """20 games: one table of even games (A in seat 0), one of odd games; the bot is started
    once for each, as the log of its starts shows."""
    if language == "javascript" and NODE is None:
        pytest.skip("node is not installed: the JavaScript example bot cannot be run")
    program = [sys.executable, str(PYTHON_BOT)] if language == "python" else [str(NODE), str(JS_BOT)]
    starts = tmp_path / "starts.log"
    counted = "cmd:" + shlex.join(["sh", "-c", f'echo started >> {starts}; exec "$@"', "sh",
                                   *program])
    path = tmp_path / "games.jsonl"
    result = match(counted, "greedy", "--games", "20", "--seed", "4", "--record", str(path),
                   "--jobs", "2")
    assert result.returncode == 0, result.stderr
    assert starts.read_text() == "started\n" * 2
    assert re.search(r"^A noddy_bot \(cmd:.*\): won (\d+) of 20 = ", result.stdout, re.M), result.stdout
    assert "forfeit" not in result.stdout + result.stderr
    games = records(path)
    assert len(games) == 20
    for index, record in enumerate(games):
        assert record["seats"] == ([counted, "greedy"] if index % 2 == 0 else ["greedy", counted])
        replay(record)


def test_the_same_seed_deals_the_same_cards_to_built_in_and_cmd_players(tmp_path: Path) -> None:
    built_in, external = tmp_path / "built_in.jsonl", tmp_path / "cmd.jsonl"
    assert match("greedy", "random", "--games", "6", "--seed", "9", "--preset", "cribbage",
                 "--target", "31", "--record", str(built_in)).returncode == 0
    result = match(python_bot(), "random", "--games", "6", "--seed", "9", "--preset", "cribbage",
                   "--target", "31", "--jobs", "2", "--record", str(external))
    assert result.returncode == 0, result.stderr
    ours, theirs = records(built_in), records(external)
    assert [r["seed"] for r in ours] == [r["seed"] for r in theirs]
    assert ours[0]["seed"] == ours[1]["seed"] != ours[2]["seed"]
    for a, b in zip(ours, theirs):
        # The same cut and the same hands in the first deal.
        assert replay(a).log[:3] == replay(b).log[:3]


def test_a_bot_that_crashes_mid_match_forfeits_one_game_and_the_match_finishes(
        tmp_path: Path) -> None:
    marker = tmp_path / "crashed"
    crashing = "cmd:" + shlex.join([sys.executable, str(HERE / "crashing_bot.py"), str(marker), "3"])
    path = tmp_path / "games.jsonl"
    result = match(crashing, "greedy", "--games", "10", "--record", str(path))
    assert result.returncode == 0, result.stderr
    assert marker.exists()
    # Its table plays the even games: its third is game 5 (counted from 1).
    assert re.search(r"^noddy-match: game 5: A forfeits \(crash\): exited with status 5: ",
                     result.stderr, re.M), result.stderr
    assert "forfeited by A: 1 games (crash 1)\n" in result.stdout
    wins = [int(n) for n in re.findall(r"^[AB] .*: won (\d+) of 10 = ", result.stdout, re.M)]
    assert sum(wins) == 10
    assert re.search(r"^10 games in ", result.stdout, re.M)
    games = records(path)
    assert len(games) == 9  # the forfeited game has no record
    assert all(replay(record).is_over for record in games)


def test_a_folder_named_noddy_in_the_current_directory_does_not_stop_a_match(
        tmp_path: Path) -> None:
    """Regression: the runner started its server with ``python -m noddy.server.cli``, which a
    folder ``noddy`` in the current directory shadowed; the match died with ``ValueError:
    I/O operation on closed file`` instead of the real error."""
    (tmp_path / "noddy").mkdir()
    (tmp_path / "noddy" / "__init__.py").write_text("")
    runner = Path(sys.executable).parent / "noddy-match"
    result = subprocess.run([str(runner), python_bot(), "random", "--games", "2"],
                            capture_output=True, text=True, timeout=TIMEOUT, cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert re.search(r"^2 games in ", result.stdout, re.M), result.stdout


def test_records_keep_seeds_within_53_bits(tmp_path: Path) -> None:
    path = tmp_path / "games.jsonl"
    assert match("random", "random", "--games", "40", "--seed", "5", "--record",
                 str(path)).returncode == 0
    seeds = [record["seed"] for record in records(path)]
    assert len(set(seeds)) == 20 and all(0 <= seed <= MAX_SEED for seed in seeds)


def test_the_output_says_the_rate_limits_are_lifted() -> None:
    result = match(python_bot(), "random", "--games", "2")
    assert result.returncode == 0, result.stderr
    assert ("cmd: bots play on the runner's own noddy-server, started with --rate 100000 "
            "--burst 100000 (no rate limit: docs/PROTOCOL.md, Flow control)\n") in result.stdout


assert ROOT.is_dir()


def test_a_table_whose_games_went_by_before_the_runner_left_it_is_no_error(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Regression (seen once in the suite): a one-game table played out and closed before the
    runner, watching it, said ``leave``; the refusal (``not_at_table``) ended the match."""
    original = external.Link.request

    def slow_to_leave(self: external.Link, message: dict, *args: object, **kwargs: object) -> dict:
        if message["type"] == "leave":
            time.sleep(2.0)  # the bot sits, plays its one game and says ready meanwhile
        return original(self, message, *args, **kwargs)

    monkeypatch.setattr(external.Link, "request", slow_to_leave)
    results = play_pairing(python_bot(), "random", "noddy", games=2, seed=1)
    assert [(r.index, r.forfeit, r.outcome is not None) for r in results] == \
        [(0, None, True), (1, None, True)]


def test_the_python_bot_counts_only_its_own_tables_close() -> None:
    """Regression (seen once in the suite): while the bot sat down, the lobby's news that
    another table had closed made it take its own table for closed, and it left before its
    first game (a forfeit).  A server end scripted over a real socket."""
    spec = importlib.util.spec_from_file_location("example_noddy_bot", PYTHON_BOT)
    assert spec is not None and spec.loader is not None
    bot = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bot)
    with socket.create_server(("127.0.0.1", 0)) as listener:
        conn = bot.Connection("127.0.0.1", listener.getsockname()[1])
        server, _ = listener.accept()
        with server:
            conn.table = 3
            server.sendall(b'{"type":"table_closed","table":2,"reason":"empty","message":"everyone has left"}\n'
                           b'{"type":"table","table":{"id":3},"id":1}\n')
            assert conn.request({"type": "sit", "table": 3})["type"] == "table"
            assert conn.closed is False
            server.sendall(b'{"type":"table","table":{"id":3},"id":2}\n'
                           b'{"type":"table_closed","table":3,"reason":"match_played",'
                           b'"message":"the match\'s games are all played"}\n')
            conn.request({"type": "ready"})
            assert bot.play_game(conn, 0) is None  # the table closed before a game began
        conn.sock.close()
