"""``noddy-tournament``: the standing's arithmetic (2 a win, 3 a skunk win, spread), the
cross-table, the ratings and their intervals, the schedules, the results files and resuming.

Tournaments here are among built-in levels, in this process, on the noddy preset (fast);
one with both example bots is in tests/examples/test_tournament.py.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import pytest

import noddy
import noddy.bots.tournament as tournament_module
from noddy.bots.crosstable import GameRow, cross_table, standings, wins_matrix
from noddy.bots.pairing import deal_seed, replay
from noddy.bots.ratings import bradley_terry
from noddy.bots.results import finished, forfeited
from noddy.bots.schedule import round_robin, swiss_round
from noddy.bots.tournament import Settings, entrant_names, game_row, read_rows, summary_lines
from noddy.bots.tournament_cli import main
from noddy.engine import Outcome


def row(a: str, b: str, winner: str, a_score: int, b_score: int, skunk: str = "none",
        game: int = 0, round_: int = 1, **more: Any) -> GameRow:
    return GameRow(round_, a, b, game, 7, winner, a_score, b_score, skunk, **more)


# -- the standing --------------------------------------------------------------------------

def test_a_win_is_two_points_a_skunk_or_double_skunk_win_three_and_spread_adds_margins() -> None:
    rows = [row("ann", "ben", "ann", 121, 100),                 # ann +21, ben -21
            row("ann", "ben", "ben", 85, 121, "skunk", 1),      # ben +36 and 3 points
            row("ann", "cy", "ann", 121, 40, "double", 0, 2),   # ann +81 and 3 points
            row("ben", "cy", "ben", 121, 119, "none", 0, 3)]    # ben +2
    table = standings(rows, ["cy", "ben", "ann"])
    assert [(s.name, s.games, s.wins, s.skunk_wins, s.points, s.spread) for s in table] == [
        ("ann", 3, 2, 1, 5, 21 - 36 + 81),
        ("ben", 3, 2, 1, 5, -21 + 36 + 2),
        ("cy", 2, 0, 0, 0, -81 - 2)]


def test_equal_points_are_ranked_by_spread_then_by_the_order_given() -> None:
    rows = [row("ann", "ben", "ann", 31, 30), row("ann", "ben", "ben", 20, 31, game=1),
            row("cy", "di", "cy", 31, 29), row("cy", "di", "di", 29, 31, game=1)]
    table = standings(rows, ["di", "cy", "ben", "ann"])
    assert [(s.name, s.points, s.spread) for s in table] == [
        ("ben", 2, -1 + 11), ("di", 2, -2 + 2), ("cy", 2, 2 - 2), ("ann", 2, 1 - 11)]


def test_a_forfeit_is_a_win_for_the_other_side_with_no_margin() -> None:
    rows = [row("ann", "ben", "ben", 0, 0, forfeit="crash", forfeit_by="ann")]
    ann, ben = sorted(standings(rows, ["ann", "ben"]), key=lambda s: s.name)
    assert (ben.wins, ben.points, ben.spread, ann.forfeits, ann.spread) == (1, 2, 0, 1, 0)


def test_a_bye_is_listed_and_scores_only_the_bye_points_given() -> None:
    """The offline tournament lists a bye and scores it nothing; a club night on the server
    (noddy.server.model.club) scores it ``bye_points``: points only, no game, win or spread."""
    rows = [row("ann", "ben", "ann", 121, 111)]
    offline = {s.name: (s.byes, s.points, s.games, s.wins, s.spread)
               for s in standings(rows, ["ann", "ben", "cy"], ["cy"])}
    assert offline == {"ann": (0, 2, 1, 1, 10), "ben": (0, 0, 1, 0, -10), "cy": (1, 0, 0, 0, 0)}
    club = standings(rows, ["ann", "ben", "cy"], ["cy", "cy"], bye_points=4)
    assert [(s.name, s.byes, s.points, s.games, s.wins, s.spread) for s in club] == [
        ("cy", 2, 8, 0, 0, 0), ("ann", 0, 2, 1, 1, 10), ("ben", 0, 0, 1, 0, -10)]


def test_a_row_must_be_won_by_one_of_its_players() -> None:
    with pytest.raises(ValueError, match="not won by 'cy'"):
        row("ann", "ben", "cy", 31, 2)
    with pytest.raises(ValueError, match="'triple'"):
        row("ann", "ben", "ann", 31, 2, "triple")


def test_the_cross_table_gives_each_record_against_each_opponent() -> None:
    rows = [row("ann", "ben", "ann", 61, 20, "skunk"), row("ann", "ben", "ann", 61, 50, game=1),
            row("ben", "cy", "cy", 40, 61, round_=2), row("ben", "cy", "ben", 61, 60, game=1, round_=2)]
    lines = cross_table(standings(rows, ["ann", "ben", "cy"]))
    assert lines == [
        "    player           1   2   3 games  wins  sk  pts spread",
        "  1 ann              x   . 2-0     2     2   1    5    +52",
        "  2 cy               .   x 1-1     2     1   0    2    +20",
        "  3 ben            0-2 1-1   x     4     1   0    2    -72"]


# -- ratings ---------------------------------------------------------------------------------

def test_ratings_of_an_even_field_are_all_1500_with_one_interval() -> None:
    wins = {("a", "b"): 3, ("b", "a"): 3, ("b", "c"): 3, ("c", "b"): 3, ("a", "c"): 3, ("c", "a"): 3}
    ratings = bradley_terry(["a", "b", "c"], wins)
    assert {round(r.rating, 6) for r in ratings.values()} == {1500.0}
    assert len({round(r.error, 6) for r in ratings.values()}) == 1


def test_a_better_record_rates_higher_and_more_games_narrow_the_interval() -> None:
    few = bradley_terry(["a", "b"], {("a", "b"): 6, ("b", "a"): 4})
    many = bradley_terry(["a", "b"], {("a", "b"): 600, ("b", "a"): 400})
    for ratings in (few, many):
        assert ratings["a"].rating > 1500 > ratings["b"].rating
        assert ratings["a"].rating + ratings["b"].rating == pytest.approx(3000)
        assert all(r.low < r.rating < r.high for r in ratings.values())
    assert many["a"].high - many["a"].low < (few["a"].high - few["a"].low) / 5
    # With many games the virtual draws hardly count: the gap is the maximum likelihood one,
    # 400 log10(600/400), and each interval is 1.96 standard errors of half of it.
    gap = many["a"].rating - many["b"].rating
    assert gap == pytest.approx(400 * math.log10(1.5), abs=1.0)
    error_of_gap = 400 / math.log(10) * math.sqrt(1 / 600 + 1 / 400)
    assert many["a"].high - many["a"].rating == pytest.approx(1.96 * error_of_gap / 2, rel=0.01)


def test_a_player_who_won_every_game_has_a_finite_rating() -> None:
    ratings = bradley_terry(["a", "b", "c"], {("a", "b"): 4, ("a", "c"): 4, ("b", "c"): 2, ("c", "b"): 2})
    assert all(math.isfinite(r.rating) and math.isfinite(r.error) for r in ratings.values())
    assert ratings["a"].low > ratings["b"].rating == pytest.approx(ratings["c"].rating)


# -- schedules -------------------------------------------------------------------------------

@pytest.mark.parametrize("players", range(2, 10))
def test_a_round_robin_meets_every_pair_once_and_nobody_twice_a_round(players: int) -> None:
    names = [f"p{i}" for i in range(players)]
    rounds = round_robin(names)
    met = [frozenset(pair) for pairs in rounds for pair in pairs]
    assert len(met) == len(set(met)) == players * (players - 1) // 2
    for pairs in rounds:
        seated = [name for pair in pairs for name in pair]
        assert len(seated) == len(set(seated))


def test_a_swiss_round_pairs_the_ranking_top_down_without_a_rematch() -> None:
    ranked = ["a", "b", "c", "d", "e", "f", "g"]
    pairs, bye = swiss_round(ranked, met={frozenset("ab"), frozenset("cd")}, byes=["g"])
    assert bye == "f" and pairs == [("a", "c"), ("b", "d"), ("e", "g")]
    # the last two have met: the pairing above them gives way
    pairs, bye = swiss_round(["a", "b", "c", "d"], met={frozenset("cd"), frozenset("ab")}, byes=[])
    assert bye is None and pairs == [("a", "c"), ("b", "d")]


# -- running a tournament ----------------------------------------------------------------------

def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    assert main(list(argv)) == 0
    return capsys.readouterr().out


def _printed_table(out: str, players: int) -> dict[str, dict[str, Any]]:
    """The cross-table's figures by player, read back from what was printed."""
    lines = out.splitlines()
    start = next(i for i, line in enumerate(lines) if line.split()[:2] == ["player", "1"])
    table = {}
    for line in lines[start + 1:start + 1 + players]:
        words = line.split()
        name, cells = words[1], words[2:2 + players]
        games, wins, skunks, points, spread, rating = map(int, words[2 + players:8 + players])
        low, high = map(int, words[8 + players].split("-"))
        table[name] = {"rank": int(words[0]), "cells": cells, "games": games, "wins": wins,
                       "skunks": skunks, "points": points, "spread": spread,
                       "rating": rating, "interval": (low, high)}
    return table


def _recount(rows: list[dict[str, Any]]) -> dict[str, dict[str, int]]:
    """Each player's figures, counted from the per-game results afresh."""
    count: dict[str, dict[str, int]] = {}
    for r in rows:
        winner = r["winner"]
        loser = r["b"] if winner == r["a"] else r["a"]
        margin = abs(r["a_score"] - r["b_score"])
        for name in (winner, loser):
            count.setdefault(name, {"games": 0, "wins": 0, "skunks": 0, "points": 0, "spread": 0})
            count[name]["games"] += 1
        count[winner]["wins"] += 1
        count[winner]["skunks"] += r["skunk"] != "none"
        count[winner]["points"] += 3 if r["skunk"] != "none" else 2
        count[winner]["spread"] += margin
        count[loser]["spread"] -= margin
    return count


def test_a_round_robin_prints_the_cross_table_of_its_games(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out_file = tmp_path / "results.jsonl"
    out = _run(capsys, "greedy", "random", "random", "--games", "4", "--seed", "2",
               "--preset", "cribbage", "--target", "61", "--out", str(out_file))
    assert out.startswith("cribbage, 2 players, target=61: round robin of 3 players\n"
                          "4 games a pairing on the same deals, seed 2\n  random#2 = random\n")
    rows = [json.loads(line) for line in out_file.read_text().splitlines()]
    assert len(rows) == 3 * 4
    assert {frozenset((r["a"], r["b"])) for r in rows} == {
        frozenset(("greedy", "random#2")), frozenset(("random#2", "random")), frozenset(("greedy", "random"))}
    assert sum(r["skunk"] != "none" for r in rows) == 2  # (this seed's games: skunks are counted)
    # every pairing plays the same deals: game k's seed is the tournament's deal seed k
    assert all(r["seed"] == deal_seed(2, r["game"]) for r in rows)
    printed = _printed_table(out, 3)
    recount = _recount(rows)
    for name, figures in recount.items():
        assert {k: printed[name][k] for k in figures} == figures, name
    ranked = sorted(printed, key=lambda n: printed[n]["rank"])
    assert [(printed[n]["points"], printed[n]["spread"]) for n in ranked] == sorted(
        ((recount[n]["points"], recount[n]["spread"]) for n in ranked), reverse=True)
    for name in printed:  # each cell: games won-lost against that opponent
        for other, cell in zip(ranked, printed[name]["cells"]):
            played = [r for r in rows if {r["a"], r["b"]} == {name, other}]
            won = sum(r["winner"] == name for r in played)
            assert cell == ("x" if other == name else f"{won}-{len(played) - won}")
    ratings = bradley_terry(ranked, wins_matrix(read_rows(str(out_file))))
    for name in printed:
        assert printed[name]["rating"] == round(ratings[name].rating)
        assert printed[name]["interval"] == (round(ratings[name].low), round(ratings[name].high))
    assert "12 games (12 played now) in " in out


def test_csv_and_json_lines_hold_the_same_rows(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    as_csv, as_jsonl = tmp_path / "r.csv", tmp_path / "r.out"
    first = _run(capsys, "greedy", "random", "--seed", "9", "--out", str(as_csv))
    second = _run(capsys, "greedy", "random", "--seed", "9", "--out", str(as_jsonl), "--format", "jsonl")
    assert as_csv.read_text().splitlines()[0] == "round,a,b,game,seed,winner,a_score,b_score,skunk,forfeit,forfeit_by"
    assert as_jsonl.read_text().startswith('{"round": 1, "a": "greedy", "b": "random", "game": 0, ')
    assert read_rows(str(as_csv)) == read_rows(str(as_jsonl)) and len(read_rows(str(as_csv))) == 2
    assert first.split("\n2 games")[0] == second.split("\n2 games")[0]  # same seed, same table


@pytest.mark.parametrize("fmt", ["csv", "jsonl"])
def test_a_resumed_tournament_plays_only_the_games_its_file_lacks(
        fmt: str, tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    whole, part = tmp_path / f"whole.{fmt}", tmp_path / f"part.{fmt}"
    args = ["greedy", "random", "random", "--games", "4", "--seed", "4"]
    whole_out = _run(capsys, *args, "--out", str(whole))
    header = 1 if fmt == "csv" else 0
    lines = whole.read_text().splitlines(keepends=True)
    part.write_text("".join(lines[:header + 5]))   # interrupted after five games
    played: list[tuple[str, str, int, int]] = []
    real = tournament_module.play_games

    def counting(a: str, b: str, settings: Settings, first: int, games: int, progress: Any) -> Any:
        played.append((a, b, first, games))
        return real(a, b, settings, first, games, progress)

    monkeypatch.setattr(tournament_module, "play_games", counting)
    resumed_out = _run(capsys, *args, "--resume", str(part))
    done = [(r.a, r.b, r.game) for r in read_rows(str(whole))[:5]]
    assert sum(games for *_, games in played) == 12 - 5
    assert not any((a, b, g) in done for a, b, first, games in played for g in range(first, first + games))
    assert part.read_text() == whole.read_text()
    assert "12 games (7 played now) in " in resumed_out
    assert resumed_out.split("\n12 games")[0] == whole_out.split("\n12 games")[0]


@pytest.mark.parametrize("fmt", ["csv", "jsonl"])
def test_a_last_row_cut_short_by_a_kill_is_played_again(
        fmt: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    whole, part = tmp_path / f"whole.{fmt}", tmp_path / f"part.{fmt}"
    args = ["greedy", "random", "random", "--seed", "8"]
    _run(capsys, *args, "--out", str(whole))
    text = whole.read_text()
    cut = text.rindex("\n", 0, len(text) - 1) + 1 + 20  # twenty characters into the last row
    part.write_text(text[:cut])
    assert len(read_rows(str(part))) == 5
    assert "6 games (1 played now) in " in _run(capsys, *args, "--resume", str(part))
    assert part.read_text() == text


def test_an_interrupted_tournament_keeps_its_finished_games_and_says_how_to_resume(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "r.jsonl"
    real = tournament_module.play_games
    calls: list[int] = []

    def interrupted(a: str, b: str, settings: Settings, first: int, games: int, progress: Any) -> Any:
        calls.append(first)
        if len(calls) == 3:
            raise KeyboardInterrupt  # Ctrl-C during the third pairing
        return real(a, b, settings, first, games, progress)

    monkeypatch.setattr(tournament_module, "play_games", interrupted)
    assert main(["greedy", "random", "random", "--out", str(path)]) == 130
    assert capsys.readouterr().err.endswith(
        f"noddy-tournament: interrupted after 4 new games; resume with --resume {path}\n")
    assert len(read_rows(str(path))) == 4
    monkeypatch.setattr(tournament_module, "play_games", real)
    assert "6 games (2 played now) in " in _run(capsys, "greedy", "random", "random", "--resume", str(path))


def test_a_results_file_of_another_tournament_is_refused(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "r.jsonl"
    _run(capsys, "greedy", "random", "--seed", "4", "--out", str(path))
    with pytest.raises(SystemExit) as exited:
        main(["greedy", "random", "--seed", "5", "--resume", str(path)])
    assert exited.value.code == 2
    assert "was played with another --seed or --games" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["greedy", "expert", "--seed", "4", "--resume", str(path)])
    assert "who are not both among the players (greedy, expert)" in capsys.readouterr().err


def test_records_replay_and_say_which_game_they_were(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    one_file, folder = tmp_path / "games.jsonl", tmp_path / "games"
    _run(capsys, "greedy", "random", "random", "--record", str(one_file))
    records = [json.loads(line) for line in one_file.read_text().splitlines()]
    assert len(records) == 6 and all(replay(r).is_over for r in records)
    assert [r["pairing"]["game"] for r in records] == [0, 1] * 3
    spec = {"greedy": "greedy", "random": "random", "random#2": "random"}
    for record in records:  # A sits first in even games, B in odd ones
        a, b = spec[record["pairing"]["a"]], spec[record["pairing"]["b"]]
        assert record["seats"] == ([a, b] if record["pairing"]["game"] % 2 == 0 else [b, a])
    _run(capsys, "greedy", "random", "random", "--record", str(folder) + "/")
    files = sorted(p.name for p in folder.iterdir())
    assert len(files) == 3 and all(f.startswith("round") and f.endswith(".jsonl") for f in files)


def test_a_big_field_plays_swiss_rounds(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "swiss.jsonl"
    out = _run(capsys, *(["random", "greedy"] * 4), "--out", str(path))
    assert "Swiss, 4 rounds of 8 players" in out
    rows = read_rows(str(path))
    assert len(rows) == 4 * 4 * 2
    for number in range(1, 5):
        seated = [name for r in rows if r.round == number and r.game == 0 for name in (r.a, r.b)]
        assert sorted(seated) == sorted(["random", "greedy"] + [f"{n}#{i}" for n in ("random", "greedy") for i in (2, 3, 4)])
    pairs = [frozenset((r.a, r.b)) for r in rows if r.game == 0]
    assert len(pairs) == len(set(pairs))  # no rematch


def test_a_resumed_swiss_tournament_pairs_its_rounds_as_before(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """Later Swiss rounds are paired from the standings, so a resumed run must pair them
    from the rows read back exactly as the whole run did."""
    whole, part = tmp_path / "whole.jsonl", tmp_path / "part.jsonl"
    field = ["random", "greedy", "random", "greedy", "greedy"]  # odd: a bye each round
    whole_out = _run(capsys, *field, "--swiss", "3", "--seed", "6", "--out", str(whole))
    part.write_text("".join(whole.read_text().splitlines(keepends=True)[:5]))  # inside round 2
    resumed_out = _run(capsys, *field, "--swiss", "3", "--seed", "6", "--resume", str(part))
    assert part.read_text() == whole.read_text()
    assert resumed_out.split("\n12 games")[0] == whole_out.split("\n12 games")[0]
    byes = [line for line in whole_out.splitlines() if line.endswith("had a bye")]
    assert len(byes) == 3 and len({line.split()[2] for line in byes}) == 3


def test_names_come_from_levels_programs_and_name_equals() -> None:
    assert entrant_names(["greedy", "greedy", "cmd:python bots/my_bot.py --fast",
                          "Mine=cmd:node x.js", "cmd:./perlbot"]) == [
        ("greedy", "greedy"), ("greedy#2", "greedy"), ("my_bot.py", "cmd:python bots/my_bot.py --fast"),
        ("Mine", "cmd:node x.js"), ("perlbot", "cmd:./perlbot")]


def test_three_handed_a_side_is_skunked_by_its_best_seat_only() -> None:
    """A holds seats 0 and 2; A's seat 0 wins 121 to B's 85 and A's own seat 2 ends on 55:
    the engine's outcome says double skunk (the worst loser), but B, the other side, lost
    by a skunk only."""
    outcome = Outcome(0, (0,), (121, 85, 55), "target", "double")
    record = {"seed": 5}
    result = finished(0, record, ["A", "B", "A"], ["greedy", "random", "greedy"], False, outcome, {})
    got = game_row(result, 1, "greedy", "random", Settings("cribbage", 3))
    assert (got.winner, got.a_score, got.b_score, got.skunk) == ("greedy", 121, 85, "skunk")


def test_a_forfeited_game_is_a_row_won_by_the_other_side_and_listed_under_the_table() -> None:
    result = forfeited(3, deal_seed(1, 3), ["B", "A"], ["random", "crashy"], "B", "crash",
                       "exited with status 5")
    got = game_row(result, 2, "random", "crashy", Settings())
    assert got == GameRow(2, "random", "crashy", 3, deal_seed(1, 3), "random", 0, 0, "none",
                          "crash", "crashy")
    lines = summary_lines([got], ["random", "crashy"])
    assert lines[-1] == "round 2, random v crashy game 4: crashy forfeited (crash)"


@pytest.mark.parametrize("argv, complaint", [
    (["greedy", "random", "--games", "3"], "argument --games/-n: games go in duplicate pairs: give an even number, not 3"),
    (["greedy"], "a tournament needs two players or more"),
    (["greedy", "grandmaster"], "unknown player 'grandmaster'"),
    (["greedy", "random", "--preset", "cribbage", "--seats", "4"], "4 players each alone is not allowed"),
    (["greedy", "random", "--swiss", "2", "--round-robin"], "not allowed with argument"),
    (["greedy", "random", "--resume", "/nonexistent/r.jsonl"], "cannot read /nonexistent/r.jsonl"),
])
def test_nonsense_is_a_usage_error(argv: list[str], complaint: str,
                                   capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exited:
        main(argv)
    assert exited.value.code == 2
    err = capsys.readouterr().err
    assert "noddy-tournament: error: " in err and complaint in err


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exited:
        main(["--version"])
    assert exited.value.code == 0
    assert capsys.readouterr().out == f"noddy-tournament {noddy.__version__}\n"


@pytest.mark.parametrize("name", ["noddy.bots.crosstable", "noddy.bots.ratings", "noddy.bots.schedule"])
def test_the_module_examples_run(name: str) -> None:
    import doctest
    import importlib
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.failed == 0 and result.attempted > 0
