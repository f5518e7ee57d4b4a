"""Tournaments between computer players: a round robin or Swiss rounds, on duplicate deals.

::

    noddy-tournament greedy expert "cmd:python examples/bots/python/noddy_bot.py" \\
        "cmd:node examples/bots/javascript/noddy_bot.js" --preset cribbage --games 4 --seed 7

Each pairing plays ``--games`` games (an even number) through the match runner
(:func:`noddy.bots.pairing.play_pairing`): in duplicate pairs, the same cards with the seats
swapped.  **Every pairing plays the same deals** -- game *k* of any pairing is dealt from the
deal seed of game *k* of the tournament seed -- so the same ``--seed`` deals the same cards
to every pairing and in every run, whoever the players are.

The schedule (:mod:`noddy.bots.schedule`) is a round robin for up to
:data:`ROUND_ROBIN_UP_TO` players, Swiss rounds for more (or with ``--swiss ROUNDS``).  What
is printed, the cross-table and the standing (2 points a win, 3 a skunk win, spread the
tie-break), is added up by :mod:`noddy.bots.crosstable` from one :class:`GameRow` a game;
the ratings and their 95 % intervals are :mod:`noddy.bots.ratings`' (Bradley-Terry).

Files: ``--out FILE`` keeps every game's row as the game ends, as CSV or JSON lines
(``--format``, else by the file's extension); ``--resume FILE`` reads such a file back and
plays only the games it lacks, appending them to it (the schedule is a function of the
results, so the rounds come out as before); ``--record FILE`` appends every game's record,
the match runner's format (one JSON object a line, replayed by
:func:`noddy.bots.results.replay`), with a ``pairing`` key saying which game it was -- or,
given a folder, one such file per pairing.
"""

from __future__ import annotations

import csv
import io
import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any, Callable, Sequence

from noddy.engine import configure, judge_skunk

from . import external
from .base import LEVELS
from .crosstable import COLUMNS, GameRow, cross_table, standings, wins_matrix
from .pairing import GameResult, deal_seed, play_pairing
from .ratings import bradley_terry
from .schedule import Pairing, round_robin, swiss_round

#: The largest field played as a round robin unless ``--swiss`` says otherwise.
ROUND_ROBIN_UP_TO = 6
FORMATS = ("csv", "jsonl")


@dataclass(frozen=True)
class Settings:
    """How every game of the tournament is played."""

    preset: str = "noddy"
    players: int = 2
    partnerships: bool = False
    options: dict[str, Any] = field(default_factory=dict)
    games: int = 2
    seed: int = 1
    jobs: int = 1
    timeout: float = 300.0


def play_games(a: str, b: str, settings: Settings, first_game: int, games: int,
               progress: Callable[[GameResult], None]) -> list[GameResult]:
    """Games ``first_game`` .. ``first_game + games - 1`` of the pairing ``a`` against ``b``:
    the one place a tournament calls the match runner."""
    return play_pairing(a, b, settings.preset, games, settings.seed, settings.jobs,
                        settings.players, partnerships=settings.partnerships,
                        options=settings.options, timeout=settings.timeout,
                        first_game=first_game, progress=progress)


def entrant_names(specs: Sequence[str]) -> list[tuple[str, str]]:
    """``(name, spec)`` for each player on the command line: ``NAME=SPEC`` names itself; a
    built-in level is called by its level, a ``cmd:`` bot by its program's file name
    (``noddy_bot.py``); a name taken already gets ``#2``, ``#3``..."""
    named = []
    for text in specs:
        name, sep, spec = text.partition("=")
        if not sep or name.startswith(("cmd:", "engine:")) or name in LEVELS or not name:
            name, spec = "", text
        if not name:
            if external.is_external(spec):
                argv = external.program_argv(spec)
                files = [arg for arg in argv[1:] if not arg.startswith("-") and "." in Path(arg).name]
                name = Path(files[0] if files else argv[0]).name
            else:
                name = spec
        named.append((name, spec))
    seen: dict[str, int] = {}
    unique = []
    for name, spec in named:
        seen[name] = seen.get(name, 0) + 1
        unique.append((name if seen[name] == 1 else f"{name}#{seen[name]}", spec))
    return unique


def game_row(result: GameResult, round_: int, a: str, b: str, settings: Settings) -> GameRow:
    """A finished (or forfeited) game of the pairing ``a`` (side A) against ``b`` as a row."""
    names = {"A": a, "B": b}
    if result.outcome is None:
        forfeit_by = names[result.forfeit_label] if result.forfeit_label else None
        return GameRow(round_, a, b, result.index, result.seed, names[result.winner_label], 0, 0,
                       forfeit=result.forfeit or "forfeit", forfeit_by=forfeit_by)
    outcome = result.outcome
    track = (lambda seat: seat % 2) if settings.partnerships else (lambda seat: seat)
    best = {label: max(outcome.scores[track(seat)] for seat, owner in enumerate(result.labels)
                       if owner == label) for label in ("A", "B")}
    if len(outcome.scores) == 2:
        skunk = outcome.skunk  # the engine's one value
    else:  # several seats a side: the losing side is judged by its best seat
        rules = configure(settings.preset, settings.players, partnerships=settings.partnerships,
                          options=settings.options)
        loser = "B" if result.winner_label == "A" else "A"
        skunk = judge_skunk((best[result.winner_label], best[loser]), 0, rules.target,
                            rules.skunk_margins)
    return GameRow(round_, a, b, result.index, result.seed, names[result.winner_label],
                   best["A"], best["B"], skunk)


def read_rows(path: str) -> list[GameRow]:
    """The rows of a results file, CSV (with its header) or JSON lines, whichever it is.  A
    last line cut short (the process was killed while writing it) is left out: that game is
    played again, and :class:`ResultsFile` cuts the line off before it appends."""
    text = _whole_lines(Path(path).read_text(encoding="utf-8"))
    if not text.strip():
        return []
    try:
        if text.lstrip().startswith("{"):
            return [GameRow.from_dict(json.loads(line)) for line in text.splitlines() if line.strip()]
        return [GameRow.from_dict(row) for row in csv.DictReader(io.StringIO(text))]
    except (ValueError, TypeError, KeyError) as error:
        raise ValueError(f"{path} is no tournament results file: {error}") from None


def _whole_lines(text: str) -> str:
    """``text`` up to its last line break (all of it if it ends with one)."""
    return text if text.endswith("\n") else text[:text.rfind("\n") + 1]


class ResultsFile:
    """Rows written as games end, flushed at once, so an interruption loses no finished game."""

    def __init__(self, path: str, fmt: str, append: bool) -> None:
        fresh = not (append and os.path.exists(path) and os.path.getsize(path) > 0)
        if append and not fresh:
            with open(path, "r+", encoding="utf-8", newline="") as stream:
                stream.truncate(len(_whole_lines(stream.read()).encode("utf-8")))
            fresh = os.path.getsize(path) == 0
        self.stream = open(path, "a" if append else "w", encoding="utf-8", newline="")
        self.fmt = fmt
        self.csv = csv.DictWriter(self.stream, COLUMNS) if fmt == "csv" else None
        if self.csv is not None and fresh:
            self.csv.writeheader()

    def write(self, row: GameRow) -> None:
        if self.csv is not None:
            self.csv.writerow(row.to_dict())
        else:
            self.stream.write(json.dumps(row.to_dict()) + "\n")
        self.stream.flush()

    def close(self) -> None:
        self.stream.close()


class Records:
    """Every game's replayable record: one file, or one file a pairing in a folder."""

    def __init__(self, path: str | None, append: bool) -> None:
        self.path, self.mode = path, "a" if append else "w"
        self.folder = path is not None and (path.endswith(os.sep) or os.path.isdir(path))
        self.files: dict[str, IO[str]] = {}
        if path is not None and self.folder:
            os.makedirs(path, exist_ok=True)

    def write(self, row: GameRow, record: dict[str, Any]) -> None:
        if self.path is None:
            return
        name = (os.path.join(self.path, f"round{row.round}-{row.a}-vs-{row.b}.jsonl".replace(os.sep, "_"))
                if self.folder else self.path)
        if name not in self.files:
            self.files[name] = open(name, self.mode, encoding="utf-8")
        pairing = {"round": row.round, "a": row.a, "b": row.b, "game": row.game}
        self.files[name].write(json.dumps({**record, "pairing": pairing}) + "\n")
        self.files[name].flush()

    def close(self) -> None:
        for stream in self.files.values():
            stream.close()


@dataclass
class Tournament:
    """A tournament among ``entrants`` (``(name, spec)``): its schedule, the rows so far
    (``done``: read back from a results file) and where new rows and records go."""

    entrants: list[tuple[str, str]]
    settings: Settings
    swiss: int | None = None  # rounds, for a Swiss tournament
    done: list[GameRow] = field(default_factory=list)
    out: ResultsFile | None = None
    records: Records = field(default_factory=lambda: Records(None, False))
    progress: Callable[[GameResult], None] = lambda result: None
    byes: list[tuple[int, str]] = field(default_factory=list)  # (round, who sat it out)

    @property
    def names(self) -> list[str]:
        return [name for name, _ in self.entrants]

    def check_resumed(self) -> None:
        """Raise ValueError unless every row read back belongs to this tournament."""
        spec = dict(self.entrants)
        for row in self.done:
            if row.a not in spec or row.b not in spec:
                raise ValueError(f"the results name {row.a!r} and {row.b!r}, who are not both "
                                 f"among the players ({', '.join(self.names)})")
            if row.game >= self.settings.games or row.seed != deal_seed(self.settings.seed, row.game):
                raise ValueError(f"game {row.game} of {row.a} against {row.b} was played with "
                                 f"another --seed or --games than this tournament's")
        keys = [row.key for row in self.done]
        if len(keys) != len(set(keys)):
            raise ValueError("the results hold one game twice")

    def run(self) -> list[GameRow]:
        """Play every game not played yet, round by round; return all the rows."""
        self.check_resumed()
        rows = list(self.done)
        rounds = self.swiss if self.swiss is not None else len(round_robin(self.names))
        schedule = round_robin(self.names)
        for number in range(1, rounds + 1):
            if self.swiss is None:
                pairs = schedule[number - 1]
            else:
                pairs = self._swiss_pairs(number, rows)
            stored = {(row.a, row.b) for row in rows if row.round == number}
            if not stored <= set(pairs):
                raise ValueError(f"round {number} of the results paired {sorted(stored - set(pairs))}, "
                                 "not what these players and results pair: another tournament's file?")
            for a, b in pairs:
                rows += self._play_pairing(number, a, b, rows)
        return rows

    def _swiss_pairs(self, number: int, rows: list[GameRow]) -> list[Pairing]:
        before = [row for row in rows if row.round < number]
        ranked = (self.names if number == 1
                  else [s.name for s in standings(before, self.names)])
        met = {frozenset((row.a, row.b)) for row in before}
        pairs, bye = swiss_round(ranked, met, [name for _, name in self.byes])
        if bye is not None:
            self.byes.append((number, bye))
        return pairs

    def _play_pairing(self, number: int, a: str, b: str, rows: list[GameRow]) -> list[GameRow]:
        """The games of this pairing not in ``rows``, played in runs of consecutive games."""
        have = {row.game for row in rows if (row.round, row.a, row.b) == (number, a, b)}
        missing = [game for game in range(self.settings.games) if game not in have]
        spec = dict(self.entrants)
        new: dict[int, GameRow] = {}

        def finished(result: GameResult) -> None:
            row = game_row(result, number, a, b, self.settings)
            if row.game in new:
                return
            new[row.game] = row
            if self.out is not None:
                self.out.write(row)
            if result.record is not None:
                self.records.write(row, result.record)
            self.progress(result)

        for first, count in _runs(missing):
            for result in play_games(spec[a], spec[b], self.settings, first, count, finished):
                finished(result)  # (a runner that gave no progress call is caught up here)
        return [new[game] for game in sorted(new)]


def _runs(games: list[int]) -> list[tuple[int, int]]:
    """``[0, 1, 4, 5, 6]`` -> ``[(0, 2), (4, 3)]``: consecutive games as (first, count)."""
    runs: list[tuple[int, int]] = []
    for game in games:
        if runs and runs[-1][0] + runs[-1][1] == game:
            runs[-1] = (runs[-1][0], runs[-1][1] + 1)
        else:
            runs.append((game, 1))
    return runs


def summary_lines(rows: Sequence[GameRow], names: Sequence[str],
                  byes: Sequence[tuple[int, str]] = ()) -> list[str]:
    """What the command prints after the games: the cross-table, how the ratings are made,
    byes and forfeits."""
    table = standings(rows, names, [name for _, name in byes])
    ratings = bradley_terry(names, wins_matrix(rows))
    lines = cross_table(table, ratings)
    lines.append("pts: 2 a win, 3 a skunk win (sk); ties broken by spread (margins won minus")
    lines.append("  margins lost).  rating: Bradley-Terry, Elo scale, maximum likelihood with")
    lines.append("  one virtual draw each; field mean 1500; 95% CI: +-1.96 standard errors")
    for number, name in byes:
        lines.append(f"round {number}: {name} had a bye")
    for row in rows:
        if row.forfeit is not None:
            lines.append(f"round {row.round}, {row.a} v {row.b} game {row.game + 1}: "
                         f"{row.forfeit_by or row.loser} forfeited ({row.forfeit})")
    return lines

