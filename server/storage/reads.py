"""The :class:`Storage` class's reads: what is restored at start, and the game records and
ratings the core asks for.

Split from the writes (:mod:`noddy.server.storage.writes`, which builds on this class) so
that each half of the one-connection ``Storage`` can be read on its own; the reads need only
the connection and, to hash passwords an older server kept in the clear, a transaction.
"""

from __future__ import annotations

import json
import logging
import sqlite3
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable

from noddy.protocol import compact_json

from ..model.passwords import hash_password, is_hashed
from ..model.result import stored_result
from .club import load_events
from .records import StoredGame, is_complete, replay, wire_int

log = logging.getLogger("noddy.server.storage")


@dataclass
class StoredState:
    """Everything the server restores at start."""

    #: Each open table's state and, if it has a game, that game's record (any status).
    tables: list[tuple[dict[str, Any], dict[str, Any] | None]] = field(default_factory=list)
    #: (family, kind, name, rating, games, wins) rows.
    ratings: list[tuple[str, str, str, float, int, int]] = field(default_factory=list)
    next_table: int = 1
    next_game: int = 1
    #: Every account as (id, key, name, stored hash): which names are registered, and what the
    #: core checks a login against (on its hashing worker, not here).
    accounts: list[tuple[int, str, str, str]] = field(default_factory=list)
    #: The club nights not over (each as ``Event.to_dict`` gave it), oldest first, and the
    #: highest event id ever stored (issue 35: :mod:`noddy.server.storage.club`).
    events: list[dict[str, Any]] = field(default_factory=list)
    last_event: int = 0


class StorageReads:
    """The reading half of :class:`~noddy.server.storage.Storage`, on its one connection."""

    #: The connection, opened by ``Storage`` (see :mod:`noddy.server.storage.opening`).
    db: sqlite3.Connection

    if TYPE_CHECKING:
        # Provided by StorageWrites, which owns transactions; declared for the type checker.
        def _transaction(self, body: Callable[[], Any]) -> Any: ...

    # -- reading --------------------------------------------------------------------------
    def load(self) -> StoredState:
        """The open tables (with their games), the ratings and the next free ids."""
        db = self.db
        self._hash_clear_passwords()
        state = StoredState()
        state.next_table = db.execute("SELECT coalesce(max(id), 0) + 1 FROM tables").fetchone()[0]
        state.next_game = db.execute("SELECT coalesce(max(id), 0) + 1 FROM games").fetchone()[0]
        for (text,) in db.execute("SELECT state FROM tables WHERE open = 1 ORDER BY id").fetchall():
            table = json.loads(text)
            game = table.get("game")
            # Incomplete: restoring the table replays the game, which fills in its events.
            record = self.game_record(game["id"], complete=False) if game else None
            state.tables.append((table, record))
        state.ratings = self._ratings()
        state.accounts = [(row[0], row[1], row[2], row[3]) for row in db.execute(
            "SELECT id, key, name, password FROM accounts ORDER BY id")]
        club = load_events(db)
        state.events, state.last_event = club["events"], club["last_id"]
        return state

    def _ratings(self) -> list[tuple[str, str, str, float, int, int]]:
        return [tuple(row) for row in self.db.execute(  # type: ignore[misc]
            "SELECT family, kind, name, rating, games, wins FROM ratings ORDER BY family, kind, name")]

    def _hash_clear_passwords(self) -> None:
        """Hash the table passwords an older server kept in the clear (in a table's saved
        state, and on its games by migration 2), in one transaction; nothing when none is."""
        db = self.db
        tables = []
        # Only states that are valid JSON: mending a broken one is not for here (restoring
        # it fails and closes its table).
        for table_id, text in db.execute(
                "SELECT id, state FROM tables WHERE json_valid(state) "
                "AND json_type(state, '$.password') = 'text' "
                "AND substr(json_extract(state, '$.password'), 1, 7) != 'scrypt$'"):
            state = json.loads(text)
            if not is_hashed(state["password"]):
                tables.append((table_id, state))
        games = [(game_id, password) for game_id, password in db.execute(
            "SELECT id, password FROM games WHERE password IS NOT NULL AND substr(password, 1, 7) != 'scrypt$'")
            if not is_hashed(password)]
        if not tables and not games:
            return
        log.info("hashing the passwords of %d tables and %d games kept in the clear",
                 len(tables), len(games))

        def rewrite() -> None:
            for table_id, state in tables:
                state["password"] = hash_password(state["password"])
                db.execute("UPDATE tables SET state = ? WHERE id = ?", (compact_json(state), table_id))
            db.executemany("UPDATE games SET password = ? WHERE id = ?",
                           [(hash_password(password), game_id) for game_id, password in games])
        self._transaction(rewrite)

    def list_games(self, name: str, limit: int, viewer: dict[str, Any] | None = None) -> list[dict[str, Any]]:
        """The finished games ``name`` played in, newest first (records without their moves).
        With a ``viewer`` (``{"account": id or None}``), a private table's games only as
        :meth:`StoredGame.visible_to` allows: the viewer's account sat in it."""
        account = None if viewer is None else viewer.get("account")
        rows = self.db.execute(
            "SELECT g.* FROM game_players AS p JOIN games AS g ON g.id = p.game_id "
            "WHERE p.kind = 'human' AND p.name = ? AND g.status = 'finished' "
            "AND (g.password IS NULL OR ? OR EXISTS (SELECT 1 FROM json_each(g.seats) "
            "WHERE json_extract(value, '$.account') IS NOT NULL AND json_extract(value, '$.account') IS ?)) "
            "GROUP BY g.id ORDER BY g.id DESC LIMIT ?", (name, viewer is None, account, limit)).fetchall()
        return [self._with_event(self._summary(row)) for row in rows]

    def finished_game(self, game_id: int) -> dict[str, Any] | None:
        """A finished game's full record, or None (unfinished games are not shown: cards).
        Not access-checked: for the operator's ``--export-game`` (see :meth:`stored_game`)."""
        record = self.game_record(game_id)
        return record if record is not None and record["status"] == "finished" else None

    def stored_game(self, game_id: int) -> StoredGame | None:
        """A finished game's record with what decides who may read it (``get_game``)."""
        record = self.finished_game(game_id)
        if record is None:
            return None
        (password,) = self.db.execute("SELECT password FROM games WHERE id = ?", (game_id,)).fetchone()
        return StoredGame(record, password)

    def game_record(self, game_id: int, complete: bool = True) -> dict[str, Any] | None:
        """Any game's full record, or None if there is no such game.

        The deal-in and each action are stored without their events (but for an older
        server's, which kept them), so a record read back has ``"opening": None`` and its
        steps ``"events": None`` until the game is replayed: with
        ``complete``, that is done here (:func:`~noddy.server.storage.records.replay` fills them in,
        and raises ``ValueError`` if the events that are stored do not replay).  Without it
        the caller replays the game itself, as restoring a table does anyway."""
        row = self.db.execute("SELECT * FROM games WHERE id = ?", (game_id,)).fetchone()
        if row is None:
            return None
        record = self._with_event(self._summary(row))
        record["opening"] = json.loads(row["opening"])
        record["steps"] = [{"action": json.loads(action),
                            "events": None if events is None else json.loads(events)}
                           for action, events in self.db.execute(
                               "SELECT action, events FROM actions WHERE game_id = ? ORDER BY n", (game_id,))]
        if complete and not is_complete(record):
            replay(record)
        return record

    def _with_event(self, record: dict[str, Any]) -> dict[str, Any]:
        """``record`` with ``event`` ``{id, title, round, board}`` when its table was a club
        night's board (issue 35: found by the table in ``event_pairings``); else as it was."""
        row = self.db.execute("SELECT e.id, e.title, p.round, p.board FROM event_pairings AS p JOIN events AS e "
                              "ON e.id = p.event_id WHERE p.table_id = ?", (record["table"],)).fetchone()
        if row is not None:
            record["event"] = {"id": row[0], "title": row[1], "round": row[2], "board": row[3]}
        return record

    @staticmethod
    def _summary(row: sqlite3.Row) -> dict[str, Any]:
        return {
            "id": row["id"], "table": row["table_id"], "number": row["number"], "preset": row["preset"],
            "family": row["family"], "players": row["players"], "partnerships": bool(row["partnerships"]),
            "options": json.loads(row["options"]), "seats": json.loads(row["seats"]),
            "seed": wire_int(row["seed"]), "private": row["password"] is not None,
            "status": row["status"], "started_at": row["started_at"], "finished_at": row["finished_at"],
            # The server's one result value, read as any version stored it (one stored before
            # a field existed reads with its default; one a newer server stored keeps the
            # fields this one does not know: see noddy.server.model.result).
            "result": None if row["result"] is None else stored_result(json.loads(row["result"])),
            "match": json.loads(row["match"]) if "match" in row.keys() and row["match"] else None,
        }

