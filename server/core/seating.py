"""Seating: making tables, sitting, watching, standing, computers and readiness.

Handles ``create_table``, ``sit``, ``spectate``, ``stand``, ``add_computer``,
``remove_computer``, ``ready`` and ``configure_table``: how a person comes to a table and
moves between its places.  The one place a person takes a seat is :meth:`take_seat` and the
one place they become a watcher is :meth:`watch`, so a limit on either is checked once.
Going for good (``leave``, ``resign_match``, a watcher's place ended) is :mod:`.leaving`'s,
a place held for a lost connection is :mod:`.held_seats`' and closing a table is
:mod:`.table_closing`'s.

Collaborators (passed in): the open tables and connections, the lobby's board (a watcher
who changed name: the old session back in the lobby), the password guard (wrong table
passwords per address, shared with ``get_game``), the rating book (the summaries' ratings),
gameplay (a full, ready table deals) and the publisher (the deal is sent once the table is
told), the stand-ins (computer players are made there, and a seat a computer stood in for
is taken back there) and table closing (a match table whose planned games are played).
"""

from __future__ import annotations

import logging
import math
from typing import TYPE_CHECKING, Any, Callable

from noddy.bots import LEVELS
from noddy.protocol import ProtocolError
from noddy.protocol.i18n import Phrase

from ..config import ServerConfig
from ..model.match_plan import MatchPlan
from ..model.passwords import hash_password, password_matches
from ..model.ratelimit import PasswordGuard
from ..model.ratings import Rated, RatingBook, family_of
from ..model.session import Connection
from ..model.table import PLAYING, Seat, Session, Table
from ..model.table_options import max_spectators, table_rules
from .places import my_seat, my_table, session_of

if TYPE_CHECKING:
    from .connections import Connections
    from .gameplay import Gameplay
    from .lobby_board import LobbyBoard
    from .outbox import Outbox
    from .publishing import Publisher
    from .stand_ins import StandIns
    from .table_closing import TableClosing
    from .tables import Tables

log = logging.getLogger("noddy.server")


class Seating:
    """Seat requests, watchers, computer players and readiness; see the module docstring."""

    def __init__(self, config: ServerConfig, clock: Callable[[], float], outbox: Outbox,
                 connections: Connections, board: LobbyBoard, tables: Tables,
                 guard: PasswordGuard, ratings: RatingBook,
                 gameplay: Gameplay, publisher: Publisher, stand_ins: StandIns, closing: TableClosing) -> None:
        self._config = config
        self._clock = clock
        self._outbox = outbox
        self._connections = connections
        self._board = board
        self._tables = tables
        self._guard = guard
        self._ratings = ratings
        self._gameplay = gameplay
        self._publisher = publisher
        self._stand_ins = stand_ins
        self._closing = closing

    def handlers(self) -> dict[str, Callable[[Connection, dict[str, Any], Any], None]]:
        return {"create_table": self.create_table, "sit": self.sit, "spectate": self.spectate,
                "stand": self.stand, "add_computer": self.add_computer,
                "remove_computer": self.remove_computer, "ready": self.ready,
                "configure_table": self.configure_table}

    # -- requests ---------------------------------------------------------------------------
    def create_table(self, conn: Connection, f: dict[str, Any], rid: Any) -> None:
        session = session_of(conn)
        if session.table is not None:
            raise ProtocolError("already_at_table", Phrase("you are already at table {table}", table=session.table.id))
        options = dict(f["options"] or {})
        rules = table_rules(f["preset"], f["players"], f["partnerships"], options)
        if f["private"] and not f["password"]:
            raise ProtocolError("missing_field", Phrase("a private table needs a password"), field="password")
        tables = self._tables
        conn.tables_created &= tables.ids()
        limit = self._config.max_tables_per_connection
        if limit and len(conn.tables_created) >= limit:
            raise ProtocolError("too_many_tables", Phrase(
                "tables you created are still open ({tables}); a connection may have {limit} open at once",
                tables=", ".join(map(str, sorted(conn.tables_created))), limit=limit))
        address_limit = self._config.max_tables_per_address
        if address_limit and conn.address is not None:
            from_here = tables.open_from(conn.address)
            if len(from_here) >= address_limit:
                raise ProtocolError("too_many_tables", Phrase(
                    "{open} tables created from your address are still open; an address may have "
                    "{limit} open at once", open=len(from_here), limit=address_limit))
        seat = f["seat"]
        if seat is not None and seat >= f["players"]:
            raise ProtocolError("no_such_seat", Phrase("a {players}-player table has seats 0 to {last}, not {seat}",
                                                 players=f["players"], last=f["players"] - 1, seat=seat),
                                field="seat")
        if f["deal_seeds"] is not None:
            if not self._config.allow_deal_seeds:
                raise ProtocolError("bad_field", Phrase("this server does not let a table fix its deals "
                                                  "(deal_seeds: a match runner's own server only)"),
                                    field="deal_seeds")
            if not f["deal_seeds"]:
                raise ProtocolError("bad_field", Phrase("deal_seeds needs at least one seed"), field="deal_seeds")
        table = Table(tables.next_id(), rules, rules.name, f["players"], f["partnerships"], options,
                      password=hash_password(f["password"]) if f["private"] else None,
                      turn_timer=f["turn_timer"])
        if seat is None:  # refused before the table is opened, not after
            self.check_watch_room(table, session)
        table.creator = session
        if f["deal_seeds"] is not None:
            table.match = MatchPlan(tuple(f["deal_seeds"]), session)
        table.rate = self.rater(table)
        tables.opened(table, conn.address)
        conn.tables_created.add(table.id)
        if seat is None:
            self.watch(table, session)
        else:
            self.take_seat(table, session, seat)
        log.info("%s created table %d (%s, %d players)", session.name, table.id, table.preset, table.players)
        self._outbox.reply(conn, rid, {"type": "table", "table": table.summary(), "seat": session.seat})
        self._tables.changed(table, exclude=session)

    def sit(self, conn: Connection, f: dict[str, Any], rid: Any) -> None:
        session = session_of(conn)
        if f["table"] is None:
            if session.table is None:
                raise ProtocolError("missing_field", Phrase("say which table to sit at"), field="table")
            table = session.table
        else:
            table = self._tables.find(f["table"])
        if session.table is not None and session.table is not table:
            raise ProtocolError("already_at_table", Phrase("you are already at table {table}", table=session.table.id))
        self._check_password(table, session, f["password"])
        if session.seat is not None and session.seat == f["seat"]:
            self._outbox.reply(conn, rid, {"type": "table", "table": table.summary(), "seat": session.seat})
            return
        _check_not_event(table, Phrase("seats its board's two players itself"))
        seat = self._choose_seat(table, f["seat"])
        self._check_seating_open(table)
        self.take_seat(table, session, seat)
        self._outbox.reply(conn, rid, {"type": "table", "table": table.summary(), "seat": session.seat})
        self._tables.changed(table, exclude=session)

    def spectate(self, conn: Connection, f: dict[str, Any], rid: Any) -> None:
        session = session_of(conn)
        table = self._tables.find(f["table"])
        if session.table is not None:
            raise ProtocolError("already_at_table", Phrase("you are already at table {table}", table=session.table.id))
        self._check_password(table, session, f["password"])
        self.watch(table, session)
        self._outbox.reply(conn, rid, {"type": "table", "table": table.summary(), "seat": session.seat})
        self._tables.changed(table, exclude=session)
        if table.game is not None:
            self._outbox.send(conn.id, table.snapshot(None, self._clock()))

    def stand(self, conn: Connection, f: dict[str, Any], rid: Any) -> None:
        session = session_of(conn)
        table, _seat = my_seat(session)
        self._check_seating_open(table)
        self.watch(table, session)
        self._outbox.reply(conn, rid, {"type": "table", "table": table.summary(), "seat": session.seat})
        self._tables.changed(table, exclude=session)

    def add_computer(self, conn: Connection, f: dict[str, Any], rid: Any) -> None:
        session = session_of(conn)
        table = my_table(session)
        _check_not_event(table, Phrase("is played by its board's two players"))
        self._check_seating_open(table)
        level = f["level"] or self._config.computer_level
        if level not in LEVELS:
            raise ProtocolError("unknown_level", Phrase("no computer level {level!r}; the levels are: {levels}",
                                                  level=level, levels=", ".join(LEVELS)), field="level")
        seat = self._choose_seat(table, f["seat"])
        table.seats[seat] = self.computer(table, seat, level)
        self._seating_changed(conn, rid, table, session)

    def remove_computer(self, conn: Connection, f: dict[str, Any], rid: Any) -> None:
        session = session_of(conn)
        table = my_table(session)
        self._check_creator(table, session, Phrase("remove a computer player"))
        self._check_seating_open(table)
        seat = f["seat"]
        _check_seat_number(table, seat)
        occupant = table.seats[seat]
        if occupant is None or not occupant.is_computer:
            raise ProtocolError("not_a_computer", Phrase("no computer player sits in seat {seat}", seat=seat),
                                field="seat")
        table.seats[seat] = None
        self._outbox.reply(conn, rid, {"type": "table", "table": table.summary()})
        self._tables.changed(table, exclude=session)

    def ready(self, conn: Connection, f: dict[str, Any], rid: Any) -> None:
        session = session_of(conn)
        table, seat = my_seat(session)
        self._check_seating_open(table)
        if table.event is not None:  # the club night deals its games itself: nothing to say
            self._outbox.reply(conn, rid, {"type": "table", "table": table.summary(), "seat": seat})
            return
        occupant = table.seats[seat]
        assert occupant is not None
        occupant.ready = f["ready"]
        self._seating_changed(conn, rid, table, session)

    def _seating_changed(self, conn: Connection, rid: Any, table: Table, session: Session) -> None:
        """A seat filled or a player got ready: deal if the table can start now, reply with
        the table, tell everyone else, then stream the new game's opening.  A match table
        whose planned games are all played closes instead (after the reply)."""
        if table.match is not None and table.match.done(table.games_played) and table.can_start():
            self._outbox.reply(conn, rid, {"type": "table", "table": table.summary()})
            self._closing.close_table(table, "match_played")
            return
        started = self._gameplay.start_game(table) if table.can_start() else None
        summary = table.summary()  # one summary for the reply and the others
        self._outbox.reply(conn, rid, {"type": "table", "table": summary})
        self._tables.changed(table, exclude=session, summary=summary)
        if started is not None:
            self._publisher.publish(table, *started)

    def configure_table(self, conn: Connection, f: dict[str, Any], rid: Any) -> None:
        session = session_of(conn)
        table = my_table(session)
        _check_not_event(table, Phrase("keeps the event's settings"))
        self._check_creator(table, session, Phrase("change its settings"))
        self._check_seating_open(table)
        options = table.options if f["options"] is None else dict(f["options"])
        rules = table_rules(table.preset, table.players, table.partnerships, options)
        private = table.private if f["private"] is None else f["private"]
        if private and not (f["password"] or (f["password"] is None and table.password)):
            raise ProtocolError("missing_field", Phrase("a private table needs a password"), field="password")
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
        self._outbox.reply(conn, rid, {"type": "table", "table": table.summary()})
        self._tables.changed(table, exclude=session)

    # -- the one place a person takes a seat or watches ----------------------------------------
    def take_seat(self, table: Table, session: Session, seat: int, ready: bool = False) -> None:
        """``session`` sits in ``seat`` (free) at ``table``: from the lobby, from another
        seat, or from watching it."""
        if session.table is table and session.seat is not None:
            table.seats[session.seat] = None
        if session in table.spectators:
            table.spectators.remove(session)
        table.seats[seat] = Seat(session.name, session=session, ready=ready)
        session.table, session.seat = table, seat

    def watch(self, table: Table, session: Session, restoring: bool = False) -> None:
        """``session`` watches ``table``: from the lobby, or standing up from its seat, within
        the table's ``max_spectators`` (:meth:`check_watch_room`); a watcher's place brought
        back from storage (``restoring``) was had already and is never refused."""
        if not restoring:
            self.check_watch_room(table, session)
        if session.table is table and session.seat is not None:
            table.seats[session.seat] = None
        if session not in table.spectators:
            table.spectators.append(session)
        session.table, session.seat = table, None

    def check_watch_room(self, table: Table, session: Session) -> None:
        """``too_many_watchers`` if ``session`` (not watching ``table`` yet) would be one
        watcher more than the table's ``max_spectators`` allows.  :meth:`watch` asks it, and
        whoever must refuse before changing anything else (an invitation accepted)."""
        limit = max_spectators(table.options)
        if limit is not None and session not in table.spectators and len(table.spectators) >= limit:
            raise ProtocolError("too_many_watchers", Phrase(
                "table {table} allows {limit} watchers at once (max_spectators), and has {watching}",
                singular="table {table} allows {limit} watcher at once (max_spectators), and has {watching}",
                plural="table {table} allows {limit} watchers at once (max_spectators), and has {watching}",
                count=limit, table=table.id, limit=limit, watching=len(table.spectators)))

    def rename_watcher(self, table: Table, old: Session, new: Session) -> None:
        """A watcher chose another name (a new session): it keeps its place."""
        table.spectators[table.spectators.index(old)] = new
        new.table = table
        if table.creator is old:
            table.creator = new
        old.table = None
        self._board.arrived(old)
        self._tables.changed(table)

    # -- checks -------------------------------------------------------------------------------
    def _check_seating_open(self, table: Table) -> None:
        if table.status == PLAYING:
            raise ProtocolError("game_in_progress", Phrase("a game is being played at table {table}", table=table.id))

    def _check_password(self, table: Table, session: Session, password: str | None) -> None:
        """Let ``session`` into a private table only with its password, and only while its
        address has not given too many wrong ones lately (then not even with the right one:
        else one host could guess hundreds a second over many connections)."""
        if not table.private or session.table is table:
            return
        conn = self._connections.get(session.conn)
        address = conn.address if conn is not None else None
        now = self._clock()
        if address is not None:
            wait = self._guard.locked_for(address, now)
            if wait > 0:
                raise ProtocolError(
                    "too_many_attempts", Phrase("too many wrong passwords from your address; wait {wait:.2f} s",
                                                 wait=wait),
                    field="password", retry_after=math.ceil(wait * 100) / 100)
        if not password_matches(table.password, password):
            if password is not None and address is not None:
                self._guard.failed(address, now)
            raise ProtocolError("wrong_password", Phrase("table {table} is private: the password is wrong",
                                                   table=table.id)
                                if password is not None else
                                Phrase("table {table} is private: give its password", table=table.id),
                                field="password")

    def _check_creator(self, table: Table, session: Session, what: Phrase) -> None:
        if table.match is not None and session is not table.match.runner:
            raise ProtocolError("not_creator", Phrase("only the match runner that created table {table} may {what}",
                                                table=table.id, what=what))
        owner = table.owner()
        if owner is not session:
            raise ProtocolError("not_creator", Phrase("only the table's creator ({creator}) may {what}",
                                                creator=Phrase("nobody") if owner is None else owner.name,
                                                what=what))

    def _choose_seat(self, table: Table, seat: int | None) -> int:
        free = table.free_seats()
        if seat is not None:
            _check_seat_number(table, seat)
        if not free:
            raise ProtocolError("table_full", Phrase("table {table} has no free seat", table=table.id))
        if seat is None:
            return free[0]
        if table.seats[seat] is not None:
            raise ProtocolError("seat_taken", Phrase("seat {seat} at table {table} is taken", seat=seat, table=table.id),
                                field="seat")
        return seat

    # -- computers and ratings ------------------------------------------------------------------
    def computer(self, table: Table, seat: int, level: str) -> Seat:
        """A computer player of ``level`` for ``seat`` (see :meth:`StandIns.computer`)."""
        return self._stand_ins.computer(table, seat, level)

    def take_back(self, session: Session) -> None:
        """``session`` resumed: its seat, if a computer stood in for it (see :mod:`.stand_ins`)."""
        self._stand_ins.take_back(session)

    def rater(self, table: Table) -> Callable[[Seat], int]:
        """How the table's summary shows a seat's rating in the table's preset family."""
        family = family_of(table.preset)
        ratings = self._ratings
        return lambda seat: round(ratings.rating(family, _identity(seat)))



def _identity(seat: Seat) -> Rated:
    """Who a seat's rating belongs to: a person (or a bot) by name, a computer player by level."""
    if seat.is_computer:
        return Rated("computer", seat.level or "")
    return Rated("bot" if seat.session is not None and seat.session.bot else "human", seat.name)


def _check_not_event(table: Table, what: Phrase) -> None:
    """A club night's table (issue 35) is the server's to seat and deal: refused otherwise."""
    if table.event is not None:
        raise ProtocolError("event_state", Phrase("table {table} is a club night's board: it {what}",
                                                  table=table.id, what=what))


def _check_seat_number(table: Table, seat: int) -> None:
    if not 0 <= seat < table.players:
        raise ProtocolError("no_such_seat", Phrase("table {table} has seats 0 to {last}, not {seat}",
                                                 table=table.id, last=table.players - 1, seat=seat),
                            field="seat")
