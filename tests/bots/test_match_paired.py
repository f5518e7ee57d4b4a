"""noddy-match's paired statistics and its sequential test (noddy.bots.paired)."""

from __future__ import annotations

import doctest
import re

import pytest

from noddy.bots import paired
from noddy.bots.match import main, run_match
from noddy.bots.results import GameResult


def _game(index: int, winner: str, margin: int, forfeit: str | None = None) -> GameResult:
    return GameResult(index, 0, ("A", "B"), ("a", "b"), None, winner, margin, forfeit=forfeit,
                      forfeit_label=None if forfeit is None else ("B" if winner == "A" else "A"))


def test_the_module_examples_hold() -> None:
    assert doctest.testmod(paired).failed == 0


def test_pairs_score_wins_over_both_seatings_and_name_the_games_without_a_partner() -> None:
    games = [_game(0, "A", 6), _game(1, "B", -2), _game(2, "A", 1), _game(3, "A", 9),
             _game(4, "B", 0, forfeit="crash"), _game(5, "B", -3), _game(6, "A", 4)]
    pairs, unpaired = paired.pair_results(games)
    assert pairs == [paired.PairResult(0, 0.5, 4), paired.PairResult(2, 1.0, 10),
                     paired.PairResult(4, 0.0, None)]
    assert unpaired == [6]
    lines = paired.paired_lines(games)
    assert lines[0] == ("paired over 3 duplicate pairs (games 2k and 2k+1, same cards, seats "
                        "swapped): A won both 1, split 1, lost both 1")
    assert lines[1] == "A's score per pair 50.0% (95% CI -6.6% to 106.6%)"
    assert lines[2] == ("A's margin per pair (A minus B over both seatings): +7.00 points "
                        "(95% CI +1.12 to +12.88) over 2 pairs played out")
    assert lines[3] == "unpaired (partner game not played): game 6"


def test_wald_bounds_and_the_llr_follow_the_formula() -> None:
    test = paired.Sprt(0.5, 0.55, alpha=0.05, beta=0.1)
    lower, upper = test.bounds
    assert lower == pytest.approx(-2.2513, abs=1e-4)  # log(0.1 / 0.95)
    assert upper == pytest.approx(2.8904, abs=1e-4)   # log(0.9 / 0.05)
    scores = [1.0, 0.5, 0.5, 0.0, 1.0]
    padded = scores + [0.0, 0.5, 1.0]
    mean = sum(padded) / len(padded)
    variance = sum((s - mean) ** 2 for s in padded) / len(padded)
    assert test.llr(scores) == pytest.approx(0.05 * (2 * 3.0 - 5 * 1.05) / (2 * variance))


@pytest.mark.parametrize("text, error", [
    ("p0=0.6,p1=0.5", "the SPRT needs 0 < p0 < p1 < 1, not p0=0.6, p1=0.5"),
    ("p0=0.5", "cannot read 'p0=0.5'; write p0=0.5,p1=0.55 or elo0=0,elo1=30"),
    ("p0=0.5,p1=x", "cannot read 'p1=x'; write p0=0.5,p1=0.55 or elo0=0,elo1=30"),
])
def test_a_bad_sprt_is_refused_saying_what_to_write(text: str, error: str) -> None:
    with pytest.raises(ValueError) as caught:
        paired.parse_sprt(text)
    assert str(caught.value) == error


def test_without_sprt_the_same_seed_gives_the_same_games_and_figures() -> None:
    summary = run_match("greedy", "random", games=20, seed=3)
    assert summary.games == 20
    assert summary.wins == {"A": 15, "B": 5}
    assert summary.lines()[:3] == [
        "A greedy: won 15 of 20 = 75.0% (95% CI 53.1% to 88.8%)",
        "B random: won 5 of 20 = 25.0% (95% CI 11.2% to 46.9%)",
        "average margin (A minus B): +5.55 points"]
    assert summary.verdict is None and summary.sprt is None
    assert not any(line.startswith("SPRT") for line in summary.lines())


@pytest.mark.parametrize("jobs", [1, 2])
def test_sprt_stops_early_at_the_same_game_whatever_the_jobs(jobs: int) -> None:
    stronger = run_match("greedy", "random", games=2000, seed=3, jobs=jobs,
                         sprt=paired.Sprt(0.5, 0.6))
    assert (stronger.games, stronger.verdict, stronger.wins) == (44, "H1", {"A": 29, "B": 15})
    weaker = run_match("random", "greedy", games=2000, seed=5, jobs=jobs,
                       sprt=paired.Sprt(0.5, 0.6))
    assert (weaker.games, weaker.verdict, weaker.wins) == (56, "H0", {"A": 26, "B": 30})


def test_the_command_prints_the_test_and_records_only_the_games_counted(
        tmp_path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "games.jsonl"
    assert main(["greedy", "random", "--games", "2000", "--seed", "3", "--sprt",
                 "p0=0.5,p1=0.6", "--record", str(path)]) == 0
    out = capsys.readouterr().out
    assert re.search(r"^SPRT H0: A's score 0\.500, H1: 0\.600 \(alpha 0\.05, beta 0\.05\): "
                     r"LLR \+3\.41 \(bounds -2\.94, \+2\.94\) after 22 pairs \(44 games\): "
                     r"H1 accepted: A is the stronger$", out, re.M)
    assert re.search(r"^44 games in [\d.]+ s: [\d.]+ games/s$", out, re.M)
    assert len(path.read_text().splitlines()) == 44


def test_a_bad_sprt_on_the_command_line_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(["greedy", "random", "--sprt", "elo0=10,elo1=0"])
    assert exit_.value.code == 2
    assert "the SPRT needs 0 < p0 < p1 < 1" in capsys.readouterr().err
