"""Seeded matches whose records are pinned: a speed-up of the engine, of a computer level or
of the example bot must not change one action of one game.

Each test plays a short match on a fixed seed, writes its records and compares a digest of
them with the digest the code gave before the speed-ups of issue 34 (commit a5cb64d).  The
``cmd:`` seats' commands (which hold this checkout's path) are replaced by ``cmd`` first, so
the digest is the games alone: every seed, seat, action and result.  If a change is meant to
change play, the digest is updated in the same commit, saying why.
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path

import pytest

from noddy.bots.match import main

ROOT = Path(__file__).resolve().parents[2]
PYTHON_BOT = ROOT / "examples" / "bots" / "python" / "noddy_bot.py"
PYTHON_ENGINE = ROOT / "examples" / "bots" / "python" / "engine.py"


def digest(path: Path) -> str:
    """The sha256 of the records, one canonical JSON line each, the external seats blanked."""
    lines = []
    for line in path.read_text(encoding="utf-8").splitlines():
        record = json.loads(line)
        record["seats"] = [seat.split(":")[0] if ":" in seat else seat for seat in record["seats"]]
        lines.append(json.dumps(record, sort_keys=True, separators=(",", ":")))
    return hashlib.sha256("\n".join(lines).encode()).hexdigest()


@pytest.mark.parametrize(("a", "b", "argv", "expected"), [
    pytest.param(f"cmd:{sys.executable} {PYTHON_BOT}", "greedy",
                 ["--preset", "cribbage", "--games", "20", "--seed", "3", "--jobs", "2"],
                 "1aae6bdae0f332abbeab9e4a666aded3e9f91ed4f3369f3c6a5f9e8c704286d7",
                 id="python-bot-cribbage"),
    pytest.param(f"cmd:{sys.executable} {PYTHON_BOT}", "greedy",
                 ["--preset", "noddy", "--games", "20", "--seed", "3"],
                 "5107af293988013d7c60d8ee93b5f10c45851bf6dd1b0bdda09295f8918f71c1",
                 id="python-bot-noddy"),
    pytest.param(f"engine:{sys.executable} {PYTHON_ENGINE}", "random",
                 ["--preset", "cribbage", "--games", "4", "--seed", "5"],
                 "9f6097aa277ae432f16fbe36cbe8e96ce90fcd2f87b077129d640eaeb95a9fc6",
                 id="python-engine-cribbage"),
    pytest.param("greedy", "random",
                 ["--preset", "cribbage", "--games", "40", "--seed", "7"],
                 "8e8a6031c8d2409dbe64bc39bee74b89a3daa878c9cea40e9fcfd87f6854d871",
                 id="greedy-random-cribbage"),
    pytest.param("greedy", "random",
                 ["--preset", "noddy", "--players", "4", "--partnerships", "--games", "20",
                  "--seed", "7"],
                 "be3e8a0239cc377f480417d812af83d5b54ffac81d942d98f1b66151230c7570",
                 id="greedy-random-noddy-partnerships"),
    pytest.param("expert", "greedy",
                 ["--preset", "cribbage", "--games", "2", "--seed", "11"],
                 "68d5a664b6a01fd907a2e6cfb572b28d2d4b741a085eb5c804eaa0cf5b0f5299",
                 id="expert-greedy-cribbage"),
])
def test_a_seeded_match_plays_the_same_games_as_before(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], a: str, b: str, argv: list[str],
        expected: str) -> None:
    path = tmp_path / "games.jsonl"
    assert main([a, b, *argv, "--record", str(path)]) == 0
    capsys.readouterr()
    assert digest(path) == expected
