"""A tournament of four -- two built-in levels and both example bots, over real servers --
prints the cross-table of the games it played (``noddy-tournament``, issue 25)."""

from __future__ import annotations

import json
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from noddy.bots.pairing import deal_seed, replay

from .test_bots import JS_BOT, NODE, PYTHON_BOT, ROOT

PLAYERS = 4


@pytest.mark.skipif(NODE is None, reason="node is not installed: the JavaScript example bot cannot be run")
def test_a_tournament_of_four_with_both_example_bots_prints_its_cross_table(tmp_path: Path) -> None:
    assert NODE is not None
    results, records = tmp_path / "results.jsonl", tmp_path / "games.jsonl"
    python_bot = "cmd:" + shlex.join([sys.executable, str(PYTHON_BOT)])
    js_bot = "js=cmd:" + shlex.join([NODE, str(JS_BOT)])
    done = subprocess.run(
        [sys.executable, "-m", "noddy.bots.tournament_cli", "greedy", "random", python_bot, js_bot,
         "--games", "2", "--seed", "11", "--out", str(results), "--record", str(records)],
        capture_output=True, text=True, timeout=300, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    out = done.stdout.splitlines()
    assert out[:2] == ["noddy, 2 players: round robin of 4 players",
                       "2 games a pairing on the same deals, seed 11"]
    assert out[2:4] == [f"  noddy_bot.py = {python_bot}", f"  js = {js_bot[3:]}"]
    # as noddy-match does, it says that its cmd: bots meet no rate limit (issue 25)
    assert out[4] == ("cmd: bots play on the runner's own noddy-server, started with --rate 100000 "
                      "--burst 100000 (no rate limit: docs/PROTOCOL.md, Flow control)")
    rows = [json.loads(line) for line in results.read_text().splitlines()]
    assert len(rows) == 6 * 2 and not any(r["forfeit"] for r in rows)
    # built-in or cmd:, every pairing is dealt the same cards: game k from deal seed k
    assert all(r["seed"] == deal_seed(11, r["game"]) for r in rows)
    assert {frozenset((r["a"], r["b"])) for r in rows} == {
        frozenset((x, y)) for x in ("greedy", "random", "noddy_bot.py", "js")
        for y in ("greedy", "random", "noddy_bot.py", "js") if x < y}

    # The table's figures, counted afresh from the per-game results.
    start = out.index(next(line for line in out if line.split()[:2] == ["player", "1"]))
    printed = {}
    for line in out[start + 1:start + 1 + PLAYERS]:
        words = line.split()
        printed[words[1]] = (words[2:2 + PLAYERS], list(map(int, words[2 + PLAYERS:7 + PLAYERS])))
    ranked = [line.split()[1] for line in out[start + 1:start + 1 + PLAYERS]]
    for name, (cells, figures) in printed.items():
        mine = [r for r in rows if name in (r["a"], r["b"])]
        won = [r for r in mine if r["winner"] == name]
        lost = [r for r in mine if r["winner"] != name]
        skunks = sum(r["skunk"] != "none" for r in won)
        spread = (sum(abs(r["a_score"] - r["b_score"]) for r in won)
                  - sum(abs(r["a_score"] - r["b_score"]) for r in lost))
        assert figures == [len(mine), len(won), skunks, 2 * len(won) + skunks, spread], name
        for other, cell in zip(ranked, cells):
            against = [r for r in mine if other in (r["a"], r["b"]) and other != name]
            wins = sum(r["winner"] == name for r in against)
            assert cell == ("x" if other == name else f"{wins}-{len(against) - wins}")
    assert [(printed[n][1][3], printed[n][1][4]) for n in ranked] == sorted(
        ((printed[n][1][3], printed[n][1][4]) for n in ranked), reverse=True)
    assert "12 games (12 played now) in " in done.stdout

    kept = [json.loads(line) for line in records.read_text().splitlines()]
    assert len(kept) == 12 and all(replay(record).is_over for record in kept)
