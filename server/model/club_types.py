"""The plain things a club night is made of: its definition, its entrants, its rounds and
pairings, the errors its calls raise and the instructions (effects) it hands the server.

Kept apart from the state machine (:mod:`noddy.server.model.club`) because these are values
with no rules of their own beyond their own validity: each has a ``to_dict``/``from_dict``
that round-trips it exactly (plain JSON types only), which is what storage keeps and what a
restart reads back.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field, fields
from typing import Any, Mapping

from noddy.bots.crosstable import GameRow
from noddy.bots.results import MAX_SEED
from noddy.protocol.i18n import Phrase

#: The formats a club night may take (an arena is not built yet).
FORMATS = ("round-robin", "swiss")
#: Who may enter: a person (an account or guest at the lobby) or a bot (marked as one).
ENTRANT_KINDS = ("person", "bot")
#: The event's states (see the theory of operation in :mod:`noddy.server.model.club`).
STATES = ("announced", "running", "paused", "finished", "ended")
#: A pairing's states: waiting for its table, seating (the table is open, the no-show clock
#: runs), playing, done (every game has a result or a forfeit), void (ended early unplayed).
PAIRING_STATES = ("pending", "seating", "playing", "done", "void")

#: The longest title: it is shown on one line of an 80-column lobby screen with its format.
MAX_TITLE = 60
#: Most Swiss rounds: a club night is an evening; 15 rounds of two games is already long.
MAX_ROUNDS = 15
#: Most games a pairing plays: ACC club nights play 1 or 2 a pairing, a match 3 to 9.
MAX_GAMES_PER_PAIRING = 10
#: Most entrants: each round opens a table per pairing at once (32 tables), and the Swiss
#: pairing search backtracks, which stays quick for a field of this size.
MAX_ENTRANTS = 64
#: Fewest entrants for an event to start (or to go on to another round): two make a pairing.
MIN_ENTRANTS = 2
#: Longest no-show wait and longest pause between rounds, in seconds: half an hour each; a
#: longer wait holds the whole room for one absent player.
MAX_FORFEIT_WAIT = 1800.0
MAX_ROUND_PAUSE = 1800.0

#: Why a pairing or a game was forfeited (:attr:`Pairing.forfeit`, ``GameRow.forfeit``).
FORFEIT_NO_SHOW, FORFEIT_WITHDREW, FORFEIT_REMOVED = "no-show", "withdrew", "removed"


class ClubError(ValueError):
    """A call the event refuses, changing nothing; ``code`` says which kind of wrong (the
    server maps it to a protocol error):

    ``not-director`` only the director may do that; ``wrong-state`` not in the event's state
    (or the pairing's); ``not-entered`` / ``already-entered`` the name's entry; ``too-late``
    the format takes no more entrants now; ``full`` :data:`MAX_ENTRANTS` entered;
    ``too-few`` fewer than :data:`MIN_ENTRANTS` to start; ``no-such-pairing`` no pairing or
    game of that round and board; ``bad-result`` a result that cannot be that pairing's;
    ``bad-definition`` an event that cannot be.  ``phrase``: the message, said again in each
    reader's language by the protocol error made of it."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.phrase = message


@dataclass(frozen=True)
class EventDefinition:
    """What the director announced; never changed afterwards but for the pause between rounds.

    ``rounds``: a Swiss's number of rounds (a round robin's is worked out from its field at
    the start: give 0).  ``options``: the preset's table options, validated by the caller
    (as a table's are).  ``duplicate``: every board of a round is dealt the same cards, each
    pairing playing each deal both ways (``games_per_pairing`` must be even).  ``starts_at``:
    when it starts by itself (seconds, the server's clock), or None: when the director says.
    ``password_hash``: None for an open event; else the hash the caller made
    (:func:`noddy.server.model.passwords.hash_password`) -- the event never sees a password,
    the caller checks one before calling :meth:`~noddy.server.model.club.Event.join`.
    ``forfeit_wait``: seconds a pairing's table waits for its players once opened; then who
    has not come forfeits the pairing.  ``round_pause``: seconds between a round's end and the
    next round.  ``seed``: where every deal of the event comes from.  ``late_entry_until``:
    a Swiss takes late entrants until round ``late_entry_until`` begins (1: only before the
    start; a round robin is always 1, its schedule is made at the start)."""

    id: int
    title: str
    director: str
    format: str
    preset: str
    rounds: int = 0
    options: Mapping[str, Any] = field(default_factory=dict)
    games_per_pairing: int = 2
    duplicate: bool = True
    starts_at: float | None = None
    rated: bool = False
    password_hash: str | None = None
    forfeit_wait: float = 300.0
    round_pause: float = 60.0
    seed: int = 0
    late_entry_until: int = 1

    def __post_init__(self) -> None:
        problem = self._problem()
        if problem:
            raise ClubError("bad-definition", problem)
        object.__setattr__(self, "options", dict(self.options))

    def _problem(self) -> Phrase | None:
        if not 1 <= len(self.title.strip()) <= MAX_TITLE:
            return Phrase("an event's title is 1 to {most} characters, not {title!r}", most=MAX_TITLE,
                          title=self.title)
        if self.format not in FORMATS:
            return Phrase("an event's format is one of {formats}, not {format!r}", formats=", ".join(FORMATS),
                          format=self.format)
        if self.format == "swiss" and not 1 <= self.rounds <= MAX_ROUNDS:
            return Phrase("a Swiss has 1 to {most} rounds, not {rounds}", most=MAX_ROUNDS, rounds=self.rounds)
        if self.format == "round-robin" and (self.rounds != 0 or self.late_entry_until != 1):
            return Phrase("a round robin's rounds come from its field, and it takes no late entrants")
        if not 1 <= self.games_per_pairing <= MAX_GAMES_PER_PAIRING:
            return Phrase("a pairing plays 1 to {most} games, not {games}", most=MAX_GAMES_PER_PAIRING,
                          games=self.games_per_pairing)
        if self.duplicate and self.games_per_pairing % 2:
            return Phrase("duplicate deals are played both ways: games per pairing must be even")
        if not 0 < self.forfeit_wait <= MAX_FORFEIT_WAIT:
            return Phrase("the no-show wait is more than 0 and at most {most:g} seconds", most=MAX_FORFEIT_WAIT)
        if not 0 <= self.round_pause <= MAX_ROUND_PAUSE:
            return Phrase("the pause between rounds is 0 to {most:g} seconds", most=MAX_ROUND_PAUSE)
        if not 0 <= self.seed <= MAX_SEED:
            return Phrase("an event's seed is 0 to {most}", most=MAX_SEED)
        if not 1 <= self.late_entry_until <= max(self.rounds, 1):
            return Phrase("late entrants are taken until a round of the event, from 1")
        return None

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data["options"] = dict(self.options)
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> "EventDefinition":
        return cls(**{spec.name: data[spec.name] for spec in fields(cls) if spec.name in data})


@dataclass
class Entrant:
    """One entry: ``status`` is ``entered``, ``withdrawn`` (by themselves) or ``removed`` (by
    the director); ``joined_round``: the rounds already begun when they joined (0: before the
    start); ``left_at``: when they withdrew or were removed."""

    name: str
    kind: str
    joined_at: float
    joined_round: int = 0
    status: str = "entered"
    left_at: float | None = None

    @property
    def active(self) -> bool:
        return self.status == "entered"

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> "Entrant":
        return cls(**data)


@dataclass
class Pairing:
    """One board of a round: ``a`` and ``b`` (A sits first in even games), the deal seed of
    each game, its table once opened, who has come to it, each game's result as a
    :class:`~noddy.bots.crosstable.GameRow`, and if forfeited whole, why and by whom
    (``forfeit_by``: one name, or both for a double no-show).  ``deadline``: when those who
    have not come forfeit (set while ``seating``)."""

    round: int
    board: int
    a: str
    b: str
    seeds: list[int]
    status: str = "pending"
    table: int | None = None
    deadline: float | None = None
    arrived: list[str] = field(default_factory=list)
    games: list[GameRow] = field(default_factory=list)
    forfeit: str | None = None
    forfeit_by: list[str] = field(default_factory=list)
    #: The game id of each game in ``games`` (its record's id, for a replay), None for a game
    #: forfeited unplayed; an event stored before ids were kept loads with none.
    game_ids: list[int | None] = field(default_factory=list)

    @property
    def over(self) -> bool:
        return self.status in ("done", "void")

    def game_id(self, game: int) -> int | None:
        """The id of game ``game``'s record, None if it was never played (or not known)."""
        return self.game_ids[game] if game < len(self.game_ids) else None

    def seats(self, game: int) -> tuple[str, str]:
        """Who sits in seats 0 and 1 of game ``game``: A first in even games, B in odd ones
        (:func:`noddy.bots.results.seat_labels`)."""
        return (self.a, self.b) if game % 2 == 0 else (self.b, self.a)

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data["games"] = [row.to_dict() for row in self.games]
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> "Pairing":
        values = dict(data)
        values["games"] = [GameRow.from_dict(row) for row in data["games"]]
        values["game_ids"] = list(data.get("game_ids", []))
        return cls(**values)


@dataclass
class Round:
    """One round: its pairings (boards from 1), who sat it out, when it began and ended."""

    number: int
    pairings: list[Pairing]
    bye: str | None
    started_at: float
    finished_at: float | None = None

    @property
    def over(self) -> bool:
        return all(pairing.over for pairing in self.pairings)

    def to_dict(self) -> dict[str, Any]:
        return {"number": self.number, "pairings": [p.to_dict() for p in self.pairings],
                "bye": self.bye, "started_at": self.started_at, "finished_at": self.finished_at}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> "Round":
        return cls(data["number"], [Pairing.from_dict(p) for p in data["pairings"]], data["bye"],
                   data["started_at"], data["finished_at"])


# -- Effects: what the server must do after a call -------------------------------------------

@dataclass(frozen=True)
class Announce:
    """Tell the event's entrants (and whoever watches it) of a change: ``kind`` says which
    (``announced``, ``joined``, ``withdrawn``, ``removed``, ``started``, ``paused``,
    ``resumed``, ``pause-changed``, ``round``, ``bye``, ``forfeit``, ``round-over``,
    ``finished``, ``ended``), ``text`` says it in English, ``names`` who it is about."""

    kind: str
    text: str
    names: tuple[str, ...] = ()


@dataclass(frozen=True)
class Board:
    """A table to open: the pairing's board, its players and every game's deal seed."""

    board: int
    a: str
    b: str
    seeds: tuple[int, ...]


@dataclass(frozen=True)
class OpenTables:
    """Open one table per board (``preset``/``options``, two seats), tell ``a`` and ``b``
    where to go, and call ``table_opened`` with each table's id; ``bye`` sits the round out."""

    round: int
    boards: tuple[Board, ...]
    bye: str | None
    preset: str
    options: Mapping[str, Any]


@dataclass(frozen=True)
class DealGame:
    """Deal game ``game`` of a pairing at its table: ``seed`` its deal, ``seats`` who sits
    in seat 0 and seat 1; report its end with ``game_finished`` or ``game_forfeited``."""

    round: int
    board: int
    table: int
    game: int
    seed: int
    seats: tuple[str, str]


@dataclass(frozen=True)
class CloseTable:
    """Close a pairing's table (a forfeit, or the event ended): any game on it is abandoned
    and reported no more."""

    round: int
    board: int
    table: int
    reason: str


@dataclass(frozen=True)
class PairingForfeited:
    """A pairing was forfeited whole: ``by`` who (one name, or both), ``reason`` why."""

    round: int
    board: int
    by: tuple[str, ...]
    reason: str


@dataclass(frozen=True)
class RoundOver:
    """Round ``round`` has ended; ``next_at``: when the next begins (None: the event is over)."""

    round: int
    next_at: float | None


@dataclass(frozen=True)
class EventOver:
    """The event is over: ``state`` ``finished`` (every round played, or too few left) or
    ``ended`` (the director ended it early); its final standings are kept."""

    state: str
    reason: str


#: Everything a call of :class:`~noddy.server.model.club.Event` may return.
Effect = Announce | OpenTables | DealGame | CloseTable | PairingForfeited | RoundOver | EventOver
