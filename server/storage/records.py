"""What the server keeps: the records the core hands to storage, and finished-game records.

The core is sans-IO, so it does not write anything itself: alongside its Send and Close
instructions it queues *storage records* (the dataclasses below, never changed once made) which the network
layer has :mod:`noddy.server.storage` write -- in one transaction per core call -- before it
sends any of that call's messages.  What a player has been told has happened is therefore
always on disk first.

A game is stored as its settings, its seed and each applied action -- not the events of
its deal-in or those each action caused.  That is enough to rebuild it exactly
(:func:`replay`): the engine is deterministic, so the same preset, options, seed and actions
give the same events, which is how an unfinished table is restored after a restart, how a
stored game's ``opening`` and ``steps[].events`` are made again when its record is read,
and how a test checks stored games.  (Servers before schema version 3 stored every
action's events too, and before version 4 the deal-in's: those are still read as they are,
and checked whenever the game is replayed.)

A *game record* (what ``get_game`` returns and ``--export-game`` writes) is a plain dict::

    {"id", "table", "number", "preset", "family", "players", "partnerships", "options",
     "seats": [{"seat", "name", "kind", "level", ["changes"]}], "seed", "private", "status", "started_at",
     "finished_at", "result": {"winner", "winning_seats", "scores", "ending", "skunk"} | None,
     "match": {"id", "game", "to", "first_dealer", "points", "winner"} | None,
     "opening": [event, ...], "steps": [{"action": {...}, "events": [event, ...]}, ...]}

A seat's ``changes`` (only where it changed hands: a computer stood in for a person who
resigned or did not come back, the person took it back) are ``[{"after", "at", "name",
"kind", "level", "why"}]``, ``after`` the number of actions taken by then, ``at`` the time.  ``opening`` holds the events of the deal-in before anyone acted; every ``step`` is one action
and the events it caused.  ``private``: the game was played at a private table, whose records
go only to who sat in the game or gives the table's password (:class:`StoredGame`).
``match``: the game was one of a match (table option ``match``): the match's id (its first
game's), which game of it this was, its length, who dealt first (the cut's choice in game 1,
the last game's loser after), and the match points before the game (while it is played) or
after it with the match's ``winner`` (a side, or None while the match goes on).
``seed`` is a number, or a decimal string for an old seed beyond 53 bits (:func:`wire_int`).
:func:`to_jsonl` / :func:`from_jsonl` give its JSON-lines form.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field, replace
from typing import Any, Iterable, Iterator

from noddy.engine import Abandon, Action, Claim, Discard, Event, Game, Go, Muggins, Pass, Play, Resign, TakeBack
from noddy.engine.events import GameOver
from noddy.protocol import compact_json

from ..model.passwords import password_matches
from ..model.ratings import Change
from ..model.result import GameResult
from ..model.table_options import table_rules


# == storage records: what the core asks to be written ====================================
@dataclass(frozen=True)
class TableSaved:
    """A table's settings, seats (with resume tokens), counters and current game id."""

    table_id: int
    state: dict[str, Any]


@dataclass(frozen=True)
class TableClosed:
    """The table is gone; an unfinished game at it is abandoned."""

    table_id: int


@dataclass(frozen=True)
class GameBegun:
    """A new game: everything needed to deal it again.  ``opening`` is the events of its
    deal-in: storage writes them as null (replaying the seed gives them); they are carried
    here because they are the events the players are sent once the record is written."""

    game_id: int
    table_id: int
    number: int
    preset: str
    family: str
    players: int
    partnerships: bool
    options: dict[str, Any]
    seats: list[dict[str, Any]]
    seed: int
    started_at: float
    opening: list[dict[str, Any]]
    #: The hash of the table's password when the game was dealt (None: a public table).  A
    #: private table's game record goes only to those who sat in it or who give that password.
    password: str | None = None
    #: The match the game is part of (:meth:`Match.for_game <noddy.server.model.match.Match.for_game>`),
    #: or None: its first dealer is the one a replay must deal with.
    match: dict[str, Any] | None = None


# Not frozen (a frozen dataclass's __init__ sets each field through object.__setattr__):
# one is made for every action a server applies.  Nothing changes a record once made.
@dataclass(slots=True)
class ActionApplied:
    """The ``index``-th action of a game (from 1) and the events it caused.

    Storage writes the action only: its events are what replaying the game gives (see the
    module docstring), so encoding them again for every action would be wasted.  They are
    carried here because they are the events the players are sent once the record is
    written."""

    game_id: int
    index: int
    action: dict[str, Any]
    events: list[dict[str, Any]]
    #: The table the game is played at: storage keeps each table's records apart, so that
    #: one table's failed write never fails another's (see ``Storage.write``).
    table_id: int = 0


@dataclass(frozen=True)
class GameFinished:
    """A game was won; ``ratings`` are the rating changes it caused (maybe none)."""

    game_id: int
    finished_at: float
    result: dict[str, Any]
    ratings: tuple[Change, ...]
    #: The table the game was played at (see :class:`ActionApplied`).
    table_id: int = 0
    #: The seats as dealt with the ``changes`` of hands during the game (a computer standing
    #: in, the person back), when there were any: they replace the stored seats.
    seats: list[dict[str, Any]] | None = None
    #: The game's match after it (with the points it scored and the match's winner), or None.
    match: dict[str, Any] | None = None
    #: Every event of the game, in order, as the engine made them (its ``Game.log``): what its
    #: statistics are counted from (:func:`~noddy.server.storage.game_stats.seat_summaries`),
    #: the same events a replay of the stored game gives, without the replay.  None: storage
    #: replays the stored game for them.  Not compared: a record is the same without them.
    log: tuple[Event, ...] | None = field(default=None, compare=False, repr=False)


@dataclass(frozen=True)
class MatchResigned:
    """A player gave up a match by leaving its table: the match's last game keeps the match
    as it ended (``match``: :meth:`Match.for_game <noddy.server.model.match.Match.for_game>`
    with ``resigned`` and the ``winner``)."""

    game_id: int
    match: dict[str, Any]
    table_id: int = 0


Record = TableSaved | TableClosed | GameBegun | ActionApplied | GameFinished | MatchResigned


# == actions and games ====================================================================
#: A person leaving or coming back, kept as an action (see :mod:`noddy.engine.leaving`).
_LEAVING = {"resign": Resign, "abandon": Abandon, "take_back": TakeBack}


def action_from_dict(data: dict[str, Any]) -> Action:
    """The inverse of ``Action.to_dict()`` (the seat included).

    >>> action_from_dict(Discard(1, ["KS", "2C"]).to_dict())
    Discard(seat=1, cards=(Card.parse('2C'), Card.parse('KS')))
    """
    verb, seat = data["action"], data["seat"]
    if verb == "play":
        return Play(seat, data["card"])
    if verb == "discard":
        return Discard(seat, data["cards"])
    if verb == "go":
        return Go(seat)
    if verb == "claim":
        return Claim(seat, data["points"])
    if verb == "muggins":
        return Muggins(seat, data["points"])
    if verb == "pass":
        return Pass(seat)
    if verb in _LEAVING:
        return _LEAVING[verb](seat)
    raise ValueError(f"not a stored action: {data!r}")


def new_game(record: dict[str, Any]) -> Game:
    """The game of ``record`` as dealt, before any action (its seed may be a string: see
    :func:`wire_int`)."""
    rules = table_rules(record["preset"], record["players"], record["partnerships"], record["options"])
    match = record.get("match")  # a match's later game was dealt first by its last loser
    first_dealer = match["first_dealer"] if match and match["game"] > 1 else None
    return Game(rules, record["players"], partnerships=record["partnerships"], seed=int(record["seed"]),
                first_dealer=first_dealer)


def record_actions(record: dict[str, Any]) -> list[Action]:
    """Every action of a stored game, in order."""
    return [action_from_dict(step["action"]) for step in record["steps"]]


#: The largest whole number that every JSON reader holds exactly: JavaScript's
#: ``Number.MAX_SAFE_INTEGER``.  Every number the server sends lies within plus or minus it.
MAX_SAFE_INTEGER = 2**53 - 1


def wire_int(value: int) -> int | str:
    """``value`` as a message carries it: itself, or as a decimal string if a JavaScript
    client would round it (only the seeds of games stored by servers before seeds were
    limited to 53 bits).

    >>> wire_int(2**53 - 1), wire_int(5176404926135151453)
    (9007199254740991, '5176404926135151453')
    """
    return value if -MAX_SAFE_INTEGER <= value <= MAX_SAFE_INTEGER else str(value)


@dataclass(frozen=True)
class StoredGame:
    """A finished game as storage hands it to the core for ``get_game``: the record, and
    the hash of its table's password when it was dealt (None: a public table), which never
    leaves the server."""

    record: dict[str, Any]
    password: str | None

    def visible_to(self, account: int | None, password: str | None) -> bool:
        """Whether a person may read the record: anyone for a public table's game; for a
        private table's, the accounts that sat in it (a seat's ``account``: the id of the
        account, which is never used again), or who gives the table's password.  Never by
        name alone: a guest's name may be someone else's tomorrow (see docs/PROTOCOL.md,
        "Accounts")."""
        if self.password is None:
            return True
        if account is not None and any(seat.get("account") == account for seat in self.record["seats"]):
            return True
        return password_matches(self.password, password)


def replay(record: dict[str, Any]) -> Game:
    """Rebuild a stored game by dealing it from its seed and applying its actions.

    A deal-in stored without its events (``"opening": None``: every game a server of schema
    version 4 or later wrote) and a step stored without its events (``"events": None``:
    version 3 or later) are given the events the engine makes, in place, which makes
    ``record`` complete.  Raises ``ValueError`` if the engine does not produce the events
    that are stored (an older server's), compared on the stored fields (an event may have
    gained a field since: see :func:`_same`), so a stored game is either reproduced or refused.
    The ``game_over`` event is given as the server published it: with the stored result's
    server facts (:func:`_event_dict`).
    """
    game = new_game(record)
    result = record.get("result")
    opening = [_event_dict(e, result) for e in game.log]
    if record["opening"] is None:
        record["opening"] = opening
    else:
        _same(record, "the deal-in", opening, record["opening"])
    for number, step in enumerate(record["steps"], start=1):
        events = [_event_dict(e, result) for e in game.apply(action_from_dict(step["action"]))]
        if step["events"] is None:
            step["events"] = events
        else:
            _same(record, f"action {number}", events, step["events"])
    return game


def _event_dict(event: Event, stored_result: Any) -> dict[str, Any]:
    """A replayed event's dict; the ``game_over`` with the server's facts of the stored
    result (its outcome is the replay's: a stored one that differs is refused by :func:`_same`)."""
    if isinstance(event, GameOver) and isinstance(stored_result, dict):
        try:
            stored = GameResult.from_dict(stored_result)
        except (KeyError, TypeError, ValueError):
            return event.to_dict()
        return replace(stored, outcome=event.outcome).event_dict()
    return event.to_dict()


def is_complete(record: dict[str, Any]) -> bool:
    """Whether the deal-in and every step of ``record`` hold their events (else :func:`replay`
    fills them in)."""
    return record["opening"] is not None and all(step["events"] is not None for step in record["steps"])


def _same(record: dict[str, Any], where: str, got: list[dict[str, Any]],
          stored: list[dict[str, Any]]) -> None:
    """Refuse a stored game whose events the replay does not give again, compared on the
    stored keys only: an event may have gained a field since the game was stored (the
    ``ending`` of ``game_over`` did; see :mod:`noddy.engine.outcome` for the rule), but every
    field that was stored must be the same, and no event may be missing or extra."""
    if got == stored:
        return
    if len(got) != len(stored) or any(
            not set(old) <= set(new) or any(new[key] != value for key, value in old.items())
            for new, old in zip(got, stored)):
        raise ValueError(f"game {record.get('id')}: {where} does not replay to the stored events")


def record_events(record: dict[str, Any]) -> list[dict[str, Any]]:
    """Every event of a record, in order."""
    events = list(record["opening"])
    for step in record["steps"]:
        events.extend(step["events"])
    return events


# == JSON lines ===========================================================================
def to_jsonl(record: dict[str, Any]) -> Iterator[str]:
    """A record as JSON lines: a ``game`` line (everything but the moves), then one ``event``
    line per event of the deal-in, then per action an ``action`` line and its ``event`` lines.

    >>> lines = list(to_jsonl({"id": 1, "opening": [{"kind": "a"}],
    ...                        "steps": [{"action": {"action": "go", "seat": 0}, "events": []}]}))
    >>> lines[1], lines[2]
    ('{"type":"event","event":{"kind":"a"}}', '{"type":"action","action":{"action":"go","seat":0}}')
    >>> from_jsonl(lines)["steps"]
    [{'action': {'action': 'go', 'seat': 0}, 'events': []}]
    """
    head = {k: v for k, v in record.items() if k not in ("opening", "steps")}
    yield compact_json({"type": "game", **head})
    for event in record["opening"]:
        yield compact_json({"type": "event", "event": event})
    for step in record["steps"]:
        yield compact_json({"type": "action", "action": step["action"]})
        for event in step["events"]:
            yield compact_json({"type": "event", "event": event})


def from_jsonl(lines: Iterable[str]) -> dict[str, Any]:
    """Read back what :func:`to_jsonl` wrote."""
    record: dict[str, Any] | None = None
    for raw in lines:
        if not raw.strip():
            continue
        line = json.loads(raw)
        kind = line.pop("type")
        if kind == "game":
            record = {**line, "opening": [], "steps": []}
        elif record is None:
            raise ValueError("a game record's JSON lines start with its game line")
        elif kind == "action":
            record["steps"].append({"action": line["action"], "events": []})
        elif kind == "event":
            (record["steps"][-1]["events"] if record["steps"] else record["opening"]).append(line["event"])
        else:
            raise ValueError(f"unknown line type {kind!r} in a game record")
    if record is None:
        raise ValueError("no game record in the input")
    return record


