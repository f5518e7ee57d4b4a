"""Seating: making tables, sitting, watching, standing, leaving, computers and readiness.

Owns: ``tables`` and ``_next_table``, ``_address_tables`` (the per-address table limit),
``_password_guard`` (wrong passwords per address), ``_held_due`` and ``_due_serial`` (when
held seats and watchers' places run out: the held part of ``tick``), and the requests
``create_table``, ``sit``, ``spectate``, ``stand``, ``leave``, ``add_computer``,
``remove_computer``, ``ready`` and ``configure_table``.  Also how a person goes for good
(``_leave``, ``_expire``: mid-game a computer player takes the seat) and how a table closes.

Touches: a session's ``table`` and ``seat`` (and calls :meth:`CoreState._in_lobby` wherever
one goes back to the lobby), ``sessions`` (a held session that never comes back is
forgotten), and :mod:`~noddy.server.core.gameplay`'s ``_start_game``/``_publish`` once every
seat is ready.
"""

from __future__ import annotations

import heapq
import logging
import math
from typing import Any

from noddy.bots import LEVELS, get_player
from noddy.protocol import ProtocolError
from noddy.protocol.names import skeleton
from noddy.protocol.requests import MAX_PLAYERS

from .core_state import CoreState
from ..model.passwords import hash_password, password_matches
from ..storage.records import TableClosed
from ..model.session import Connection
from ..model.table import FINISHED, PLAYING, Seat, Session, Table
from ..model.table_options import table_rules

log = logging.getLogger("noddy.server")


class Seating(CoreState):
    """Seat requests, computer players, held seats and closing tables; see the module docstring."""

    def _on_create_table(self, conn: Connection, f: dict[str, Any], rid: Any) -> None:
        session = self._session(conn)
        if session.table is not None:
            raise ProtocolError("already_at_table", f"you are already at table {session.table.id}")
        options = dict(f["options"] or {})
        rules = table_rules(f["preset"], f["players"], f["partnerships"], options)
        if f["private"] and not f["password"]:
            raise ProtocolError("missing_field", "a private table needs a password", field="password")
        conn.tables_created &= self.tables.keys()
        limit = self.config.max_tables_per_connection
        if limit and len(conn.tables_created) >= limit:
            raise ProtocolError("too_many_tables", f"tables you created are still open "
                                f"({', '.join(map(str, sorted(conn.tables_created)))}); "
                                f"a connection may have {limit} open at once")
        address_limit = self.config.max_tables_per_address
        if address_limit and conn.address is not None:
            from_here = self._address_tables.get(conn.address, set()) & self.tables.keys()
            self._address_tables[conn.address] = from_here
            if len(from_here) >= address_limit:
                raise ProtocolError("too_many_tables", f"{len(from_here)} tables created from your "
                                    f"address are still open; an address may have "
                                    f"{address_limit} open at once")
        seat = f["seat"]
        if seat is not None and seat >= f["players"]:
            raise ProtocolError("no_such_seat", f"a {f['players']}-player table has seats 0 to "
                                f"{f['players'] - 1}, not {seat}", field="seat")
        table = Table(self._next_table, rules, rules.name, f["players"], f["partnerships"], options,
                      password=hash_password(f["password"]) if f["private"] else None,
                      turn_timer=f["turn_timer"])
        table.creator = session
        table.rate = self._rater(table)
        self._next_table += 1
        self.tables[table.id] = table
        conn.tables_created.add(table.id)
        if conn.address is not None:
            self._address_tables.setdefault(conn.address, set()).add(table.id)
        if seat is None:
            table.spectators.append(session)
        else:
            table.seats[seat] = Seat(session.name, session=session)
        session.table, session.seat = table, seat
        log.info("%s created table %d (%s, %d players)", session.name, table.id, table.preset, table.players)
        self._reply(conn, rid, {"type": "table", "table": table.summary(), "seat": session.seat})
        self._table_changed(table, exclude=session)

    def _on_sit(self, conn: Connection, f: dict[str, Any], rid: Any) -> None:
        session = self._session(conn)
        if f["table"] is None:
            if session.table is None:
                raise ProtocolError("missing_field", "say which table to sit at", field="table")
            table = session.table
        else:
            table = self._find_table(f["table"])
        if session.table is not None and session.table is not table:
            raise ProtocolError("already_at_table", f"you are already at table {session.table.id}")
        self._check_password(table, session, f["password"])
        if session.seat is not None and session.seat == f["seat"]:
            self._reply(conn, rid, {"type": "table", "table": table.summary(), "seat": session.seat})
            return
        seat = self._choose_seat(table, f["seat"])
        self._check_seating_open(table)
        if session.seat is not None:
            table.seats[session.seat] = None
        if session in table.spectators:
            table.spectators.remove(session)
        table.seats[seat] = Seat(session.name, session=session)
        session.table, session.seat = table, seat
        self._reply(conn, rid, {"type": "table", "table": table.summary(), "seat": session.seat})
        self._table_changed(table, exclude=session)

    def _on_spectate(self, conn: Connection, f: dict[str, Any], rid: Any) -> None:
        session = self._session(conn)
        table = self._find_table(f["table"])
        if session.table is not None:
            raise ProtocolError("already_at_table", f"you are already at table {session.table.id}")
        self._check_password(table, session, f["password"])
        table.spectators.append(session)
        session.table, session.seat = table, None
        self._reply(conn, rid, {"type": "table", "table": table.summary(), "seat": session.seat})
        self._table_changed(table, exclude=session)
        if table.game is not None:
            self._send(conn.id, table.snapshot(None, self.clock()))

    def _on_stand(self, conn: Connection, f: dict[str, Any], rid: Any) -> None:
        session = self._session(conn)
        table, seat = self._my_seat(session)
        self._check_seating_open(table)
        table.seats[seat] = None
        table.spectators.append(session)
        session.seat = None
        self._reply(conn, rid, {"type": "table", "table": table.summary(), "seat": session.seat})
        self._table_changed(table, exclude=session)

    def _on_leave(self, conn: Connection, f: dict[str, Any], rid: Any) -> None:
        session = self._session(conn)
        table = self._my_table(session)
        self._reply(conn, rid, {"type": "ok"})
        self._leave(table, session)

    def _on_add_computer(self, conn: Connection, f: dict[str, Any], rid: Any) -> None:
        session = self._session(conn)
        table = self._my_table(session)
        self._check_seating_open(table)
        level = f["level"] or self.config.computer_level
        if level not in LEVELS:
            raise ProtocolError("unknown_level", f"no computer level {level!r}; the levels are: "
                                f"{', '.join(LEVELS)}", field="level")
        seat = self._choose_seat(table, f["seat"])
        table.seats[seat] = self._computer(table, seat, level)
        self._seating_changed(conn, rid, table, session)

    def _on_remove_computer(self, conn: Connection, f: dict[str, Any], rid: Any) -> None:
        session = self._session(conn)
        table = self._my_table(session)
        self._check_creator(table, session, "remove a computer player")
        self._check_seating_open(table)
        seat = f["seat"]
        _check_seat_number(table, seat)
        occupant = table.seats[seat]
        if occupant is None or not occupant.is_computer:
            raise ProtocolError("not_a_computer", f"no computer player sits in seat {seat}", field="seat")
        table.seats[seat] = None
        self._reply(conn, rid, {"type": "table", "table": table.summary()})
        self._table_changed(table, exclude=session)

    def _on_ready(self, conn: Connection, f: dict[str, Any], rid: Any) -> None:
        session = self._session(conn)
        table, seat = self._my_seat(session)
        self._check_seating_open(table)
        occupant = table.seats[seat]
        assert occupant is not None
        occupant.ready = f["ready"]
        self._seating_changed(conn, rid, table, session)

    def _seating_changed(self, conn: Connection, rid: Any, table: Table, session: Session) -> None:
        """A seat filled or a player got ready: deal if the table can start now, reply with
        the table, tell everyone else, then stream the new game's opening."""
        started = self._start_game(table) if table.can_start() else None
        summary = table.summary()  # one summary for the reply and the others
        self._reply(conn, rid, {"type": "table", "table": summary})
        self._table_changed(table, exclude=session, summary=summary)
        if started is not None:
            self._publish(table, *started)

    def _on_configure_table(self, conn: Connection, f: dict[str, Any], rid: Any) -> None:
        session = self._session(conn)
        table = self._my_table(session)
        self._check_creator(table, session, "change its settings")
        self._check_seating_open(table)
        options = table.options if f["options"] is None else dict(f["options"])
        rules = table_rules(table.preset, table.players, table.partnerships, options)
        private = table.private if f["private"] is None else f["private"]
        if private and not (f["password"] or (f["password"] is None and table.password)):
            raise ProtocolError("missing_field", "a private table needs a password", field="password")
        table.rules, table.options = rules, options
        if not private:
            table.password = None
        elif f["password"] is not None:  # only its hash is kept (see passwords.py)
            table.password = hash_password(f["password"])
        if f["turn_timer"] is not None:  # the schema holds it to create_table's bounds; 0: off
            table.turn_timer = f["turn_timer"] or None
        for occupant in table.seats:  # nobody has agreed to play under the new settings yet
            if occupant is not None:
                occupant.ready = False
        self._reply(conn, rid, {"type": "table", "table": table.summary()})
        self._table_changed(table, exclude=session)

    def _check_seating_open(self, table: Table) -> None:
        if table.status == PLAYING:
            raise ProtocolError("game_in_progress", f"a game is being played at table {table.id}")

    def _check_password(self, table: Table, session: Session, password: str | None) -> None:
        """Let ``session`` into a private table only with its password, and only while its
        address has not given too many wrong ones lately (then not even with the right one:
        else one host could guess hundreds a second over many connections)."""
        if not table.private or session.table is table:
            return
        conn = self.connections.get(session.conn) if session.conn is not None else None
        address = conn.address if conn is not None else None
        now = self.clock()
        if address is not None:
            wait = self._password_guard.locked_for(address, now)
            if wait > 0:
                raise ProtocolError(
                    "too_many_attempts", f"too many wrong passwords from your address; wait {wait:.2f} s",
                    field="password", retry_after=math.ceil(wait * 100) / 100)
        if not password_matches(table.password, password):
            if password is not None and address is not None:
                self._password_guard.failed(address, now)
            raise ProtocolError("wrong_password", f"table {table.id} is private: the password is wrong"
                                if password is not None else
                                f"table {table.id} is private: give its password", field="password")

    def _check_creator(self, table: Table, session: Session, what: str) -> None:
        owner = table.owner()
        if owner is not session:
            raise ProtocolError("not_creator", f"only the table's creator "
                                f"({'nobody' if owner is None else owner.name}) may {what}")

    def _choose_seat(self, table: Table, seat: int | None) -> int:
        free = table.free_seats()
        if seat is not None:
            _check_seat_number(table, seat)
        if not free:
            raise ProtocolError("table_full", f"table {table.id} has no free seat")
        if seat is None:
            return free[0]
        if table.seats[seat] is not None:
            raise ProtocolError("seat_taken", f"seat {seat} at table {table.id} is taken", field="seat")
        return seat

    def _computer(self, table: Table, seat: int, level: str) -> Seat:
        table.computers_made += 1
        player = get_player(level, seed=self.config.bot_seed(table.id, seat, table.computers_made))
        return Seat(_computer_name(level, seat), player=player, level=level)

    def _leave(self, table: Table, session: Session) -> None:
        """``session`` goes back to the lobby; mid-game a computer player takes its seat."""
        seat = session.seat
        session.table, session.seat = None, None
        self._in_lobby(session)
        if session in table.spectators:
            table.spectators.remove(session)
        if seat is not None:
            self._vacate(table, seat, session.name)
        if not table.humans():
            self._close_table(table, "everyone has left")
        else:
            self._table_changed(table)

    def _vacate(self, table: Table, seat: int, name: str) -> None:
        """A person has gone from ``seat`` for good: free it, or hand it to a computer mid-game."""
        if table.status == PLAYING:
            level = self.config.computer_level
            table.seats[seat] = self._computer(table, seat, level)
            table.deadlines.pop(seat, None)
            self._to_table(table, {"type": "player_replaced", "table": table.id, "seat": seat,
                                   "name": name, "level": level})
        else:
            table.seats[seat] = None

    def _remove_spectator(self, table: Table, session: Session) -> None:
        table.spectators.remove(session)
        session.table = None
        self._in_lobby(session)
        self.sessions.pop(session.token, None)
        if not table.humans():
            self._close_table(table, "everyone has left")
        else:
            self._table_changed(table)

    def _tick_held(self, now: float) -> None:
        """The held seats (and watchers' places) whose grace period is over are given up; not
        while their table is paused, as its seats cannot be saved then (look again later)."""
        held = self._held_due
        while held and held[0][0] <= now:
            session = heapq.heappop(held)[2]
            if (session.held_until is not None and session.held_until <= now
                    and self.sessions.get(session.token) is session):
                if session.table is not None and session.table.id in self._paused:
                    # Not while the table is paused: its seats cannot be saved.
                    self._due_serial += 1
                    heapq.heappush(held, (now + self.config.storage_retry, self._due_serial, session))
                    continue
                self._expire(session)

    def _schedule_held(self, session: Session) -> None:
        if session.held_until is not None:
            self._due_serial += 1
            heapq.heappush(self._held_due, (session.held_until, self._due_serial, session))

    def _expire(self, session: Session) -> None:
        """A held seat's (or a watcher's place's) grace period is over."""
        session.held_until = None
        self.sessions.pop(session.token, None)
        table, seat = session.table, session.seat
        if table is not None and seat is None:
            self._remove_spectator(table, session)
            return
        session.table, session.seat = None, None
        self._in_lobby(session)
        if table is None or seat is None:
            return
        log.info("%s did not come back to table %d", session.name, table.id)
        self._vacate(table, seat, session.name)
        if not table.humans():
            self._close_table(table, "everyone has left")
        else:
            self._table_changed(table)

    def _close_table(self, table: Table, reason: str, tell_lobby: bool = True) -> None:
        log.info("table %d closed: %s", table.id, reason)
        self.tables.pop(table.id, None)
        if not self.closed:  # at shutdown the table stays stored, to be restored
            self._records.append(TableClosed(table.id))
        message = {"type": "table_closed", "table": table.id, "reason": reason}
        self._to_table(table, message)
        for session in table.humans():
            session.table, session.seat = None, None
            self._in_lobby(session)
            if session.conn is None:
                self.sessions.pop(session.token, None)
        table.status = FINISHED if table.status == PLAYING else table.status
        if tell_lobby:  # with the lobby's next table news (see lobby_push)
            self._lobby_news.closed(message)


def _computer_name(level: str, seat: int | None = None) -> str:
    """The name a computer player of ``level`` sits under in ``seat`` (no person may take it).

    Each seat's computer has its own name, ``greedy computer 2`` for seat 1 (the number the
    screens give the seat), so that three of them at one table are three names in "Lay away 1
    for greedy computer 3's crib" or "greedy computer 2 wins"; the seat makes it stable
    across a restore, which builds the computer again for the same seat.  ``seat=None`` is
    the bare ``greedy computer``, refused for people all the same.
    """
    return f"{level} computer" if seat is None else f"{level} computer {seat + 1}"


#: The skeletons of every computer player's name: a person's name that looks like one of them
#: is refused (see :func:`~noddy.protocol.names.skeleton`).
COMPUTER_SKELETONS = frozenset(skeleton(_computer_name(level, seat)) for level in LEVELS
                               for seat in (None, *range(MAX_PLAYERS)))


def _check_seat_number(table: Table, seat: int) -> None:
    if not 0 <= seat < table.players:
        raise ProtocolError("no_such_seat", f"table {table.id} has seats 0 to {table.players - 1}, "
                            f"not {seat}", field="seat")
