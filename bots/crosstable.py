"""A tournament's results added up: one row per game in, standings and a cross-table out.

A tournament (:mod:`noddy.bots.tournament`) writes down each game it plays as a
:class:`GameRow` -- who played whom, who won, by how much, and whether it was a skunk -- and
everything it prints is added up from those rows alone, here, so the same rows read back
from a results file (``--resume``) give the same table.

**The standing** is the one club and American Cribbage Congress round robins keep, as
``../shared/RULES.md`` ("Skunks and matches") rules it: 2 points for a win, 3 for a skunk
win (a double skunk counts 3 too), ties broken by **spread**, the sum of a player's winning
margins minus the sum of its losing margins.  A margin is the winner's score minus the
loser's (with more than one seat a side, each side's best seat).  A forfeited game is a win
for the other side, with margin 0 and no skunk.  A bye (a Swiss round sat out) is listed and
scores nothing here by default, as the offline tournament has always counted it; a club
night on the server (:mod:`noddy.server.model.club`) passes ``bye_points`` to score it.

>>> rows = [GameRow(1, "ann", "ben", 0, 7, "ann", 121, 85, "skunk"),
...         GameRow(1, "ann", "ben", 1, 7, "ben", 100, 121)]
>>> [(s.name, s.games, s.wins, s.points, s.spread) for s in standings(rows, ["ann", "ben"])]
[('ann', 2, 1, 3, 15), ('ben', 2, 1, 2, -15)]
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field, fields
from typing import Any, Mapping, Sequence

from noddy.engine import SKUNKS

#: Standing points for a plain win and for a skunk win (a double skunk counts as a skunk).
WIN_POINTS, SKUNK_WIN_POINTS = 2, 3


@dataclass(frozen=True)
class GameRow:
    """One game of a tournament, as its results file keeps it.

    ``round``: the round it belongs to (from 1); ``a``, ``b``: the pairing's players (A is
    first in even games, see :func:`noddy.bots.pairing.seat_labels`); ``game``: its index in
    the pairing (from 0; games ``2k`` and ``2k + 1`` share one deal, ``seed``); ``winner``:
    ``a`` or ``b``; ``a_score``, ``b_score``: each side's (best) final score; ``skunk``: one of
    :data:`~noddy.engine.SKUNKS`, the loser's; ``forfeit``: None, or why the game was forfeited
    (then ``forfeit_by`` names who, and the scores are 0)."""

    round: int
    a: str
    b: str
    game: int
    seed: int
    winner: str
    a_score: int
    b_score: int
    skunk: str = "none"
    forfeit: str | None = None
    forfeit_by: str | None = None

    def __post_init__(self) -> None:
        if self.winner not in (self.a, self.b) or self.a == self.b:
            raise ValueError(f"a game between {self.a!r} and {self.b!r} is not won by {self.winner!r}")
        if self.skunk not in SKUNKS:
            raise ValueError(f"a skunk is one of {', '.join(SKUNKS)}, not {self.skunk!r}")

    @property
    def loser(self) -> str:
        return self.b if self.winner == self.a else self.a

    @property
    def margin(self) -> int:
        """The winner's score minus the loser's (0 for a forfeit)."""
        return abs(self.a_score - self.b_score)

    @property
    def key(self) -> tuple[int, str, str, int]:
        """What says which game this is: a results file holds each key once."""
        return (self.round, self.a, self.b, self.game)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> "GameRow":
        """A row as :meth:`to_dict` gave it, or as a CSV file holds it (every value text;
        an empty forfeit is none)."""
        values: dict[str, Any] = {}
        for spec in fields(cls):
            if spec.name not in data:
                if spec.name in ("skunk", "forfeit", "forfeit_by"):
                    continue
                raise ValueError(f"a game row without {spec.name!r}: {dict(data)!r}")
            value = data[spec.name]
            if spec.name in ("round", "game", "seed", "a_score", "b_score"):
                value = int(value)
            elif spec.name in ("forfeit", "forfeit_by"):
                value = value or None
            values[spec.name] = value
        return cls(**values)


#: The columns of a results file, in order (CSV header, JSON keys).
COLUMNS = tuple(spec.name for spec in fields(GameRow))


@dataclass
class Standing:
    """One player's line of the table: games, wins, skunk wins, standing points, spread and
    the games won against each opponent (``beat[name]``, with ``met[name]`` games played)."""

    name: str
    games: int = 0
    wins: int = 0
    skunk_wins: int = 0
    spread: int = 0
    forfeits: int = 0
    beat: dict[str, int] = field(default_factory=dict)
    met: dict[str, int] = field(default_factory=dict)
    byes: int = 0
    #: Standing points the byes scored (0 unless :func:`standings` was given ``bye_points``).
    bye_points: int = 0

    @property
    def points(self) -> int:
        return (WIN_POINTS * (self.wins - self.skunk_wins) + SKUNK_WIN_POINTS * self.skunk_wins
                + self.bye_points)

    @property
    def losses(self) -> int:
        return self.games - self.wins


def standings(rows: Sequence[GameRow], names: Sequence[str],
              byes: Sequence[str] = (), bye_points: int = 0) -> list[Standing]:
    """Every player's standing from ``rows``, best first: by points, then spread, then the
    order of ``names`` (``byes``: players who sat a Swiss round out, once a round; each bye
    scores ``bye_points`` standing points, none by default, and no game, win or spread)."""
    table = {name: Standing(name) for name in names}
    for row in rows:
        won, lost = table[row.winner], table[row.loser]
        for standing, other in ((won, lost.name), (lost, won.name)):
            standing.games += 1
            standing.met[other] = standing.met.get(other, 0) + 1
        won.wins += 1
        won.beat[lost.name] = won.beat.get(lost.name, 0) + 1
        won.skunk_wins += row.skunk != "none"
        won.spread += row.margin
        lost.spread -= row.margin
        if row.forfeit is not None:
            table[row.forfeit_by or lost.name].forfeits += 1
    for name in byes:
        table[name].byes += 1
        table[name].bye_points += bye_points
    order = {name: i for i, name in enumerate(names)}
    return sorted(table.values(), key=lambda s: (-s.points, -s.spread, order[s.name]))


def wins_matrix(rows: Sequence[GameRow]) -> dict[tuple[str, str], int]:
    """How many games each player won against each other: ``{(winner, loser): n}``."""
    wins: dict[tuple[str, str], int] = {}
    for row in rows:
        wins[(row.winner, row.loser)] = wins.get((row.winner, row.loser), 0) + 1
    return wins


def _cell(standing: Standing, other: str) -> str:
    if standing.name == other:
        return "x"
    met = standing.met.get(other, 0)
    if not met:
        return "."
    won = standing.beat.get(other, 0)
    return f"{won}-{met - won}"


def cross_table(table: Sequence[Standing], ratings: Mapping[str, Any] | None = None,
                width: int = 14) -> list[str]:
    """The cross-table as lines: a rank, the player, its won-lost record against each
    opponent (columns in rank order, ``x`` itself, ``.`` not met), games, wins, skunk wins,
    standing points, spread and, given ``ratings`` (:class:`~noddy.bots.ratings.Rating` by
    name), the rating with its 95 % interval."""
    cells = [[_cell(s, other.name) for other in table] for s in table]
    cell_width = max([3] + [len(c) for row in cells for c in row])
    head = f"{'':>3} {'player':<{width}}" + "".join(f" {i:>{cell_width}}" for i in range(1, len(table) + 1))
    head += f" {'games':>5} {'wins':>5} {'sk':>3} {'pts':>4} {'spread':>6}"
    if ratings is not None:
        head += f" {'rating':>6} 95% CI"
    lines = [head]
    for rank, (standing, row) in enumerate(zip(table, cells), start=1):
        name = standing.name if len(standing.name) <= width else standing.name[:width - 1] + "~"
        line = f"{rank:>3} {name:<{width}}" + "".join(f" {c:>{cell_width}}" for c in row)
        line += (f" {standing.games:>5} {standing.wins:>5} {standing.skunk_wins:>3}"
                 f" {standing.points:>4} {standing.spread:>+6}")
        if ratings is not None and standing.name in ratings:
            rating = ratings[standing.name]
            line += f" {rating.rating:>6.0f} {rating.low:.0f}-{rating.high:.0f}"
        lines.append(line.rstrip())
    return lines
