"""The match runner: what it prints, and records that replay exactly through the engine."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

import pytest

import noddy

from noddy.bots.match import (Progress, game_seeds, main, play_game, play_pairing, replay,
                              resolve_player, run_match, seat_labels, wilson)
from noddy.bots.pairing import deal_seed


def test_small_match_prints_the_summary_and_writes_replayable_records(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "games.jsonl"
    assert main(["random", "greedy", "--preset", "noddy", "--games", "20", "--seed", "5",
                 "--record", str(path)]) == 0
    out = capsys.readouterr().out
    assert out.startswith("noddy, 2 players: random (A) vs greedy (B), 20 games, seed 5\n")
    wins = re.findall(r"^([AB]) (\w+): won (\d+) of 20 = [\d.]+% \(95% CI [\d.]+% to [\d.]+%\)$",
                      out, re.M)
    assert [(label, name) for label, name, _ in wins] == [("A", "random"), ("B", "greedy")]
    assert sum(int(n) for _, _, n in wins) == 20
    assert re.search(r"^average margin \(A minus B\): [+-]\d+\.\d\d points$", out, re.M)
    assert re.search(r"^20 games in [\d.]+ s: [\d.]+ games/s$", out, re.M)
    assert re.search(r"^thinking time greedy \(B\): mean", out, re.M)

    records = [json.loads(line) for line in path.read_text().splitlines()]
    assert len(records) == 20
    for index, record in enumerate(records):
        assert set(record) == {"preset", "players", "partnerships", "options", "seed",
                               "seats", "actions", "result"}
        assert record["seats"] == (["random", "greedy"] if index % 2 == 0 else ["greedy", "random"])
        game = replay(record)  # raises if the result differs
        assert game.is_over
    # Both games of a pair are dealt the same cards.
    assert records[0]["seed"] == records[1]["seed"] != records[2]["seed"]


@pytest.mark.parametrize(("preset", "players", "partnerships", "options"), [
    ("cribbage", 2, False, {"target": 61}),
    ("cribbage", 4, True, {"target": 31}),
    ("noddy-modern", 3, False, {}),
    ("noddy", 4, True, {"hitter_counts_thirty_one": True}),
])
def test_a_record_replays_to_the_same_events(
        preset: str, players: int, partnerships: bool, options: dict) -> None:
    factories = {"A": resolve_player("greedy"), "B": resolve_player("random")}
    result = play_game(preset, players, partnerships, options, seed=77,
                       labels=seat_labels(0, players), factories=factories,
                       names={"A": "greedy", "B": "random"}, bot_seed=3)
    record = json.loads(json.dumps(result.record))  # through the file format
    assert result.game is not None
    assert replay(record).log == result.game.log


def test_seats_alternate_and_pairs_share_a_seed() -> None:
    assert seat_labels(0, 2) == ["A", "B"] and seat_labels(1, 2) == ["B", "A"]
    assert seat_labels(0, 4) == ["A", "B", "A", "B"] and seat_labels(3, 3) == ["B", "A", "B"]
    seeds = game_seeds(9, 5)
    assert seeds[0] == seeds[1] and seeds[2] == seeds[3] and len(set(seeds)) == 3


def test_split_matches_add_up_to_the_whole() -> None:
    whole = run_match("greedy", "random", preset="noddy", games=8, seed=2)
    first = run_match("greedy", "random", preset="noddy", games=4, seed=2, total_games=8)
    second = run_match("greedy", "random", preset="noddy", games=4, seed=2, first_game=4,
                       total_games=8)
    first.merge(second)
    assert first.wins == whole.wins and first.margins == whole.margins


def test_wilson_interval() -> None:
    low, high = wilson(50, 100)
    assert low == pytest.approx(0.4038, abs=1e-4) and high == pytest.approx(0.5962, abs=1e-4)
    assert wilson(0, 10)[0] == 0.0 and wilson(10, 10)[1] == 1.0


def test_unknown_and_external_players_are_refused(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["random", "grandmaster"])
    assert "unknown player 'grandmaster'" in capsys.readouterr().err
    with pytest.raises(ValueError, match="server protocol"):
        resolve_player("cmd:python mybot.py")


def test_bad_table_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["random", "greedy", "--preset", "cribbage", "--players", "4"])
    assert "4 players each alone is not allowed" in capsys.readouterr().err


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exited:
        main(["--version"])
    assert exited.value.code == 0
    assert capsys.readouterr().out == f"noddy-match {noddy.__version__}\n"


@pytest.mark.parametrize("argv, complaint", [
    (["--timeout", "-1"], "argument --timeout: must be more than 0, not -1"),
    (["--games", "0"], "argument --games/-n: must be 1 or more, not 0"),
    (["--players", "x"], "argument --players: not a whole number: 'x'"),
    (["--record", "/nonexistent/dir/games.jsonl"],
     "cannot write /nonexistent/dir/games.jsonl: No such file or directory"),
])
def test_nonsense_is_a_usage_error(argv: list[str], complaint: str,
                                   capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exited:
        main(["random", "random", "--games", "2", *argv])
    assert exited.value.code == 2
    assert capsys.readouterr().err.endswith(f"noddy-match: error: {complaint}\n")


def test_play_pairing_returns_each_game_in_order_the_same_over_processes() -> None:
    one = play_pairing("greedy", "random", "noddy", games=8, seed=3, jobs=1)
    two = play_pairing("greedy", "random", "noddy", games=8, seed=3, jobs=2)
    assert [r.index for r in one] == list(range(8))
    for a, b in zip(one, two):
        assert (a.index, a.seed, a.labels, a.seats, a.outcome, a.winner_label, a.margin,
                a.record) == (b.index, b.seed, b.labels, b.seats, b.outcome, b.winner_label,
                              b.margin, b.record)
        assert a.seed == deal_seed(3, a.index) <= 2**53 - 1
        assert a.forfeit is None and a.outcome is not None
        assert a.labels == (("A", "B") if a.index % 2 == 0 else ("B", "A"))
        assert a.seats == tuple("greedy" if label == "A" else "random" for label in a.labels)
        assert a.think["A"] and a.think["B"]
    assert one[0].seed == one[1].seed != one[2].seed


def test_three_players_split_the_seats_over_a_pair() -> None:
    """A holds seats 0 and 2 in the first game of a pair, B in the second."""
    results = play_pairing("greedy", "random", "noddy-modern", games=2, seed=1, players=3)
    assert [r.labels for r in results] == [("A", "B", "A"), ("B", "A", "B")]
    assert results[0].record is not None and results[0].record["seats"] == ["greedy", "random", "greedy"]


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_the_progress_line_is_drawn_on_a_terminal_only() -> None:
    results = play_pairing("random", "random", "noddy", games=2, seed=1)
    screen, piped = _Terminal(), io.StringIO()
    for stream in (screen, piped):
        progress = Progress(2, stream, interval=0.0)
        for result in results:
            progress(result)
        progress.close()
    assert piped.getvalue() == ""
    drawn = screen.getvalue().split("\r")
    assert re.fullmatch(r"1/2 games, [\d.]+ games/s, \d+ s to go ", drawn[1])
    assert re.fullmatch(r"2/2 games, [\d.]+ games/s, 0 s to go ", drawn[2])
    assert drawn[3] == "\033[K"  # cleared for the summary
