"""Club nights as storage keeps them (issue 35): each event's whole state, and the rows SQL
answers questions from (schema version 11, :mod:`noddy.server.storage.schema`).

An event is saved whole, as :meth:`noddy.server.model.club.Event.to_dict` gives it, into
``events.data`` -- the one thing a restart reads back (:func:`load_events`), exactly, as a
table's saved state is -- and from it, in the same transaction, its rows in
``event_entrants`` (place and ACC points as the standings stood), ``event_pairings`` and
``event_games`` are written afresh.  Why whole: an event is small (at most 64 entrants and
15 rounds) and changes a few times a minute (a join, a table opened, a game's result), so
writing it whole is cheap, and a restart mid-round finds it exactly as it was, clocks and
all; the rows beside it are what SQL cannot read out of JSON quickly -- a person's events and
places, the event a table's games belonged to.

Storage *queries* (:class:`~noddy.server.core.Query` kinds in :data:`EVENT_QUERIES`), run
where storage work runs:

* ``save_event`` -- ``{"event": Event.to_dict(), "saved_at": seconds}``: keep it; answers None;
* ``load_events`` -- ``{}``: the events not over, to bring back at a start, then the latest
  :data:`FINISHED_LOADED` over (their final tables, for ``event`` and ``events``), each part
  oldest first, and the highest event id ever stored (the next event takes the one after):
  ``{"events": [data, ...], "last_id": n}``;
* ``get_event`` -- ``{"event": id}``: its data (an event over keeps its final standings in
  it), or None;
* ``events_of`` -- ``{"name": name, "kind": "person" | "bot", "limit": n}``: the events
  ``name`` entered, newest first: ``[{"event", "title", "state", "place", "points",
  "entrants"}, ...]`` (the place and points as last saved: the final ones once it is over).
"""

from __future__ import annotations

import json
import sqlite3
from typing import TYPE_CHECKING, Any, Callable, Mapping

from ..model.club import Event
from ..model.club_standings import table

#: The query kinds answered here (see :meth:`StorageEvents.event_query`).
EVENT_QUERIES = frozenset({"save_event", "load_events", "get_event", "events_of"})
#: The states of an event that is not over: brought back at a start.
OPEN_STATES = ("announced", "running", "paused")
#: Events over that a start brings back too, the latest (their final tables stay one
#: ``event N`` away after a restart): as many as the server keeps in memory
#: (:data:`noddy.server.core.club_nights.FINISHED_KEPT` is this number).
FINISHED_LOADED = 20


class StorageEvents:
    """The club nights' half of :class:`~noddy.server.storage.Storage`, on its one connection."""

    db: sqlite3.Connection

    if TYPE_CHECKING:
        def _transaction(self, body: Callable[[], Any]) -> Any: ...

    def event_query(self, kind: str, args: dict[str, Any]) -> Any:
        """Answer one club-night query (see the module docstring)."""
        if kind == "save_event":
            self._transaction(lambda: save_event(self.db, args["event"], args["saved_at"]))
            return None
        if kind == "load_events":
            return load_events(self.db)
        if kind == "get_event":
            row = self.db.execute("SELECT data FROM events WHERE id = ?", (args["event"],)).fetchone()
            return None if row is None else json.loads(row[0])
        if kind == "events_of":
            return events_of(self.db, args["name"], args["kind"], args["limit"])
        raise ValueError(f"unknown club-night query {kind!r}")


def save_event(db: sqlite3.Connection, data: Mapping[str, Any], saved_at: float) -> None:
    """Keep the event ``data`` and its rows (inside the caller's transaction)."""
    event = Event.from_dict(data)  # refuses data that is not an event before anything is written
    definition = event.definition
    db.execute("INSERT INTO events (id, title, director, state, announced_at, updated_at, data) "
               "VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (id) DO UPDATE SET title = excluded.title, "
               "director = excluded.director, state = excluded.state, updated_at = excluded.updated_at, "
               "data = excluded.data",
               (definition.id, definition.title, definition.director, event.state, event.announced_at,
                saved_at, json.dumps(event.to_dict(), separators=(",", ":"))))
    for name in ("event_entrants", "event_pairings", "event_games"):
        db.execute(f"DELETE FROM {name} WHERE event_id = ?", (definition.id,))
    # Places and points without the rating estimate: a quick sum, however big the field.
    for place, standing in enumerate(table(event), start=1):
        entrant = event.entrants[standing.name]
        db.execute("INSERT INTO event_entrants (event_id, name, kind, status, place, points) "
                   "VALUES (?, ?, ?, ?, ?, ?)",
                   (definition.id, standing.name, entrant.kind, entrant.status, place, standing.points))
    for number in event.rounds:
        for pairing in number.pairings:
            db.execute("INSERT INTO event_pairings (event_id, round, board, a, b, table_id, status, "
                       "forfeit, forfeit_by) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                       (definition.id, pairing.round, pairing.board, pairing.a, pairing.b, pairing.table,
                        pairing.status, pairing.forfeit, ",".join(pairing.forfeit_by) or None))
            for row in pairing.games:
                db.execute("INSERT INTO event_games (event_id, round, board, game, a, b, seed, winner, "
                           "a_score, b_score, skunk, forfeit, forfeit_by) "
                           "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                           (definition.id, row.round, pairing.board, row.game, row.a, row.b, row.seed,
                            row.winner, row.a_score, row.b_score, row.skunk, row.forfeit, row.forfeit_by))


def has_events(db: sqlite3.Connection) -> bool:
    """Whether the database has the club nights' tables (a file kept at an older schema by a
    test's ``migrations`` has not): without them there are no events to read."""
    return db.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'events'").fetchone() is not None


def load_events(db: sqlite3.Connection) -> dict[str, Any]:
    """The events not over, then the latest :data:`FINISHED_LOADED` over, each part oldest
    first, and the highest event id stored (0: none)."""
    if not has_events(db):
        return {"events": [], "last_id": 0}
    marks = ", ".join("?" for _ in OPEN_STATES)
    rows = db.execute(f"SELECT data FROM events WHERE state IN ({marks}) ORDER BY id", OPEN_STATES).fetchall()
    rows += db.execute(f"SELECT data FROM (SELECT id, data FROM events WHERE state NOT IN ({marks}) "
                       "ORDER BY id DESC LIMIT ?) ORDER BY id", (*OPEN_STATES, FINISHED_LOADED)).fetchall()
    last = db.execute("SELECT coalesce(max(id), 0) FROM events").fetchone()[0]
    return {"events": [json.loads(row[0]) for row in rows], "last_id": int(last)}


def events_of(db: sqlite3.Connection, name: str, kind: str, limit: int) -> list[dict[str, Any]]:
    """The events ``name`` entered, newest first, with their place and points in each."""
    if not has_events(db):
        return []
    rows = db.execute(
        "SELECT e.id, e.title, e.state, x.place, x.points, "
        "(SELECT count(*) FROM event_entrants AS y WHERE y.event_id = e.id) "
        "FROM event_entrants AS x JOIN events AS e ON e.id = x.event_id "
        "WHERE x.kind = ? AND x.name = ? ORDER BY e.id DESC LIMIT ?", (kind, name, limit)).fetchall()
    return [{"event": row[0], "title": row[1], "state": row[2], "place": row[3], "points": row[4],
             "entrants": row[5]} for row in rows]
