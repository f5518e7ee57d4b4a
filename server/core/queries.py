"""Records and ratings: the requests that read what storage keeps, and the leaderboard.

Owns: ``ratings`` (the rating book; a finished game is rated by
:mod:`~noddy.server.core.gameplay`), ``_query_buckets`` (record reads per address),
``record_cache`` (finished games' records already read), the requests ``list_games``,
``get_game`` and ``leaderboard``, and the entry point ``answer`` that replies once storage
has read a :class:`Query` (a ``repair_table`` answer goes to :mod:`~noddy.server.core.recovery`).

Touches: a connection's rate bucket (a read costs ``query_cost`` tokens) and
:mod:`~noddy.server.core.seating`'s ``_password_guard`` (a private game's password counts as a
table's).
"""

from __future__ import annotations

import math
from typing import Any, Callable

from noddy.protocol import ProtocolError

from .core_state import CoreState
from .instructions import Out, Query
from ..model.ratings import Rated, family_of
from ..storage.records import StoredGame
from ..model.session import Connection
from ..model.table import Seat, Table


class Queries(CoreState):
    """Reading records and ratings; see the module docstring."""

    def _on_list_games(self, conn: Connection, f: dict[str, Any], rid: Any) -> None:
        self._charge_query(conn)
        viewer = self._session(conn).name  # a private table's games only to who sat there
        name = f["name"] if f["name"] is not None else viewer
        self._out.append(Query(conn.id, rid, "list_games", {"name": name, "limit": f["limit"],
                                                            "viewer": viewer}))

    def _on_get_game(self, conn: Connection, f: dict[str, Any], rid: Any) -> None:
        # Who asks and the password given: ``answer`` checks them against the stored game
        # (StoredGame.visible_to) before anything of it is sent.
        self._charge_query(conn)
        if f["password"] is not None and conn.address is not None:  # as at a private table
            wait = self._password_guard.locked_for(conn.address, self.clock())
            if wait > 0:
                raise ProtocolError(
                    "too_many_attempts", f"too many wrong passwords from your address; wait {wait:.2f} s",
                    field="password", retry_after=math.ceil(wait * 100) / 100)
        self._read_game(conn, Query(conn.id, rid, "get_game", {
            "game": f["game"], "viewer": self._session(conn).name, "password": f["password"]}))

    def _read_game(self, conn: Connection, query: Query) -> None:
        """Answer a ``get_game`` query (also ``review``'s) from the record cache, or have
        storage read the game first."""
        cached = self.record_cache.get(query.args["game"])
        if cached is None:
            self._out.append(query)
        else:  # read before: no database read, and its line is encoded already
            self._answer_game(conn, query, cached)

    def _charge_query(self, conn: Connection) -> None:
        """A request that reads records takes ``query_cost`` tokens of the connection's rate
        bucket (its first already taken, as every request's, by ``receive``) and one of its
        address's: reading a long record costs far more than a move.  Refused with
        ``rate_limited`` (nothing done) when either is short."""
        now = self.clock()
        bucket = conn.bucket
        extra = max(0, self.config.query_cost - 1)
        wait = bucket.take(now, extra) if extra else 0.0
        what = "requests for records"
        if wait <= 0 and conn.address is not None:
            wait = self._query_buckets.take(conn.address, now)
            if wait > 0:
                bucket.tokens += extra  # not served: the connection keeps what it paid
                what = "requests for records from your address"
        if wait > 0:
            # The refused request's own token is spent, and a retry takes all of query_cost.
            wait = max(wait, (extra + 1 - bucket.tokens) / bucket.rate)
            raise ProtocolError("rate_limited", f"too many {what}; wait {wait:.2f} s",
                                retry_after=math.ceil(wait * 100) / 100)

    def _on_leaderboard(self, conn: Connection, f: dict[str, Any], rid: Any) -> None:
        self._charge_query(conn)
        rows = self.ratings.leaderboard(f["family"], f["limit"])
        self._reply(conn, rid, {"type": "leaderboard", "family": f["family"], "players": [
            {"rank": rank, "kind": who.kind, "name": who.name, "rating": round(standing.rating),
             "games": standing.games, "wins": standing.wins}
            for rank, (who, standing) in enumerate(rows, start=1)]})

    def answer(self, query: Query, result: Any, failed: bool = False) -> list[Out]:
        """Reply to a :class:`Query` with what storage returned (``failed``: it could not read)."""
        if query.kind == "repair_table":
            return self._repaired(query.args["table"], result, failed)
        if query.kind == "get_game" and result is not None and not failed:
            result = self.record_cache.put(query.args["game"], result)  # finished: it never changes
        conn = self.connections.get(query.conn)
        if conn is None or conn.closing:
            return []
        if failed:
            self._error(conn, ProtocolError("storage_unavailable",
                                            "the server could not read its records; try again"),
                        query.request_id)
        elif query.kind == "list_games":
            self._reply(conn, query.request_id, {"type": "games", "name": query.args["name"],
                                                 "games": result})
        else:
            self._answer_game(conn, query, result)
        return self._flush()

    def _answer_game(self, conn: Connection, query: Query, result: StoredGame | None) -> None:
        """Reply to ``get_game`` with the game storage or the record cache gave (None: no
        such finished game), if the asker may read it."""
        if result is None or not result.visible_to(query.args["viewer"], query.args["password"]):
            # A private table's game that the asker may not read is answered as if it did
            # not exist: the refusal does not even confirm that there is such a game.  A
            # password given in vain counts against the address like a wrong one at a
            # table (whether the game exists or not, so the lock-out tells nothing either).
            if query.args["password"] is not None and conn.address is not None:
                self._password_guard.failed(conn.address, self.clock())
            self._error(conn, ProtocolError("no_such_game", f"there is no finished game {query.args['game']}",
                                            field="game"), query.request_id)
        elif "review" in query.args:
            try:
                self._answer_review(conn, query, result)
            except ProtocolError as error:
                self._error(conn, error, query.request_id)
        else:
            self._reply(conn, query.request_id, {"type": "game_record", "record": result.record})

    def _rater(self, table: Table) -> Callable[[Seat], int]:
        """How the table's summary shows a seat's rating in the table's preset family."""
        family = family_of(table.preset)
        return lambda seat: round(self.ratings.rating(family, _identity(seat)))


def _identity(seat: Seat) -> Rated:
    """Who a seat's rating belongs to: a person by name, a computer player by level."""
    return Rated("computer", seat.level or "") if seat.is_computer else Rated("human", seat.name)
