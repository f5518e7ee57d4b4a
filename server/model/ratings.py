"""Elo ratings: one number per player name and per computer level, for each preset family.

The formula (also in docs/PROTOCOL.md, "Ratings")::

    expected_a = 1 / (1 + 10 ** ((rating_b - rating_a) / 400))
    new_a      = rating_a + K * (score_a - expected_a)        K = 32, score 1 win / 0 loss

Everyone starts at :data:`INITIAL_RATING` (1500).  Only registered people are rated (a bot
too: it is rated as a bot only under a registered name): a table with a guest at it plays
unrated games (:meth:`~noddy.server.model.table.Table.unrated_reasons`
says every reason a table's games are not rated).  Only two-sided games are rated: a
two-player game, or a partnership game, where each side's rating is the mean of its members'
ratings and every member moves by the side's ``K * (score - expected)``.  A game in which the
same identity sits on both sides (two computers of one level) tells nothing and is not rated;
an identity seated twice on one side moves once.  Three-player games are not rated.

Identities are :class:`Rated` keys: a person by name, a computer player by level
(``Rated("computer", "greedy")``), so a person called "greedy" is someone else.  Noddy
presets (``noddy*``) and Cribbage presets are separate families: being good at one says
little about the other.

>>> book = RatingBook()
>>> ada, bob = Rated("human", "ada"), Rated("human", "bob")
>>> [(c.identity.name, c.before, c.after) for c in book.rate_game("noddy", [[ada], [bob]], winner=0)]
[('ada', 1500.0, 1516.0), ('bob', 1500.0, 1484.0)]
>>> book.rating("noddy", ada), book.rating("cribbage", ada)
(1516.0, 1500.0)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, NamedTuple, Sequence

#: Why a table's games may be unrated: each code of :meth:`Table.unrated_reasons`.
UNRATED_REASONS = {
    "not_two_sides": "three players, or four without partnerships: only two sides are rated",
    "coach": "the table has the coach (hints): help a rated game must not have",
    "guest": "a person (or bot) seated has no account (a guest): only registered names are rated",
    "same_computer": "one computer level sits on both sides: the game tells nothing",
    "fixed_deals": "the deals were fixed in advance (a match's deal_seeds): known cards",
    "unrated_event": "a club night announced unrated (issue 35): its games count for its standings only",
}


INITIAL_RATING = 1500.0
K_FACTOR = 32.0
FAMILIES = ("noddy", "cribbage")


def family_of(preset: str) -> str:
    """The rating family of a preset: the Noddy presets, or the Cribbage ones."""
    return "noddy" if preset.startswith("noddy") else "cribbage"


def expected_score(rating: float, opponent: float) -> float:
    """The score (0 to 1) Elo expects of ``rating`` against ``opponent``."""
    return 1.0 / (1.0 + 10.0 ** ((opponent - rating) / 400.0))


class Rated(NamedTuple):
    """Who is rated: ``kind`` is ``"human"`` (a person, by name), ``"bot"`` (a program that
    said ``"bot": true`` in its hello, by name) or ``"computer"`` (the server's, by level).

    A named tuple (hashed and compared as the pair, in C) rather than a frozen dataclass,
    whose generated ``__init__`` and ``__hash__`` are Python: every table summary looks up
    each seat's rating by one."""

    kind: str
    name: str


@dataclass
class Standing:
    """One identity's rating in one family, and how many rated games it has won of how many."""

    rating: float = INITIAL_RATING
    games: int = 0
    wins: int = 0


@dataclass(frozen=True)
class Change:
    """What one rated game did to one identity (the storage writes these)."""

    family: str
    identity: Rated
    before: float
    after: float
    games: int
    wins: int


class RatingBook:
    """Every standing, in memory (the server loads it at start and writes each change)."""

    def __init__(self) -> None:
        self.standings: dict[tuple[str, Rated], Standing] = {}
        #: Per family, how many games since the server started were unrated for each reason
        #: code: what an empty leaderboard says to explain itself.
        self.unrated: dict[str, dict[str, int]] = {}
        #: Per family, how many games since the server started were unrated (for any reasons).
        self.unrated_games: dict[str, int] = {}

    def note_unrated(self, family: str, reasons: Iterable[str]) -> None:
        """A game of ``family`` finished unrated, for ``reasons`` (codes)."""
        self.unrated_games[family] = self.unrated_games.get(family, 0) + 1
        counts = self.unrated.setdefault(family, {})
        for code in reasons:
            counts[code] = counts.get(code, 0) + 1

    def forget_person(self, name: str) -> None:
        """``name`` gave up their account: their standings go with it, as a person's or as a
        bot's (storage deletes the rows in the same step), so whoever registers the name later
        starts afresh."""
        for key in [key for key in self.standings if key[1] in (Rated("human", name), Rated("bot", name))]:
            del self.standings[key]

    def load(self, rows: Iterable[tuple[str, str, str, float, int, int]], *, replace: bool = False) -> None:
        """Rows of (family, kind, name, rating, games, wins), as the storage keeps them; with
        ``replace``, they are all there is (standings not among them are forgotten)."""
        if replace:
            self.standings.clear()
        for family, kind, name, rating, games, wins in rows:
            self.standings[(family, Rated(kind, name))] = Standing(rating, games, wins)

    def rating(self, family: str, identity: Rated) -> float:
        standing = self.standings.get((family, identity))
        return INITIAL_RATING if standing is None else standing.rating

    def rate_game(self, family: str, sides: Sequence[Sequence[Rated]], winner: int) -> list[Change]:
        """Rate a finished game between two ``sides`` (each the identities seated on it);
        ``winner`` is the index of the winning side.  Returns the changes (empty if unrated)."""
        if len(sides) != 2 or not all(sides):
            return []
        if set(sides[0]) & set(sides[1]):
            return []
        means = [sum(self.rating(family, who) for who in side) / len(side) for side in sides]
        changes: list[Change] = []
        for index, side in enumerate(sides):
            score = 1.0 if index == winner else 0.0
            delta = K_FACTOR * (score - expected_score(means[index], means[1 - index]))
            for who in dict.fromkeys(side):  # each identity once, in seat order
                standing = self.standings.setdefault((family, who), Standing())
                before = standing.rating
                standing.rating = before + delta
                standing.games += 1
                standing.wins += int(score)
                changes.append(Change(family, who, before, standing.rating, standing.games, standing.wins))
        return changes

    def leaderboard(self, family: str, limit: int,
                    kinds: tuple[str, ...] | None = None) -> list[tuple[Rated, Standing]]:
        """The best ``limit`` standings of ``family``, highest rating first (ties by name);
        ``kinds``: only identities of these kinds (``("human",)``: people only)."""
        rows = [(who, s) for (fam, who), s in self.standings.items()
                if fam == family and (kinds is None or who.kind in kinds)]
        rows.sort(key=lambda row: (-row[1].rating, row[0].kind, row[0].name))
        return rows[:limit]
