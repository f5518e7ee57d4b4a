"""Stand-ins: a computer that plays the seat of a person who left mid-game, until the game
ends or the person takes the seat back.

Seats wait for their person (issue 24).  A person who loses the connection is held for the
grace period (:mod:`.held_seats`); if they are not back by then, mid-game, the seat is
*abandoned* and a computer stands in (``stand_in`` push), so the others can play on.  The
person takes the seat back the moment they return with their resume token, or by logging
in to their account (:meth:`take_back`: ``player_back``), until the game ends; then the
stand-in leaves and the seat is free (a stand-in never counts as ready for another game).  The table's other
people may choose to wait instead (request ``stand_in`` with ``on: false``: the stand-in
leaves and the seat is held without a time limit), and let a computer play on again later
(``on: true``).  A person who *resigns* (``leave`` mid-game) is a loss at once; in a game of
two sides it ends, else a computer plays the seat on for nobody (no one can take it back).

A table whose only people are away (nobody connected, seated or watching) has nobody to
play on for: when the grace period runs out there, no computer stands in; the game stays
paused and the seat held for ``keep_away`` seconds more (:meth:`keep_waiting`), so a person
alone against computers keeps their game, and only then is the seat abandoned (and the
table closes as its last person left).

A person who stays connected but says nothing on their turn for the table's
``seat_silence`` (:mod:`.silence`) may be treated the same way when another person at the
table asks: ``stand_in`` with ``on: true`` against their seat abandons it and a computer
stands in; the silent person takes it back with their next request of any kind
(:meth:`heard`, which reception calls before handling any request), and is sent a
snapshot, having missed the game meanwhile.

Each of these is an action of the game (:mod:`noddy.engine.leaving`), applied and stored
through gameplay (:meth:`Gameplay.leave_game`), so the result counts what happened and the
record says who played each seat when (``LiveGame.changes``).

Owns: nothing but the rules above (the seats are the table's); handles ``stand_in``.
Collaborators (passed in): the config (the stand-ins' level and seeds), the clock, the
outbox, the open tables (a change is announced there), gameplay and the seats' silence.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any, Callable

from noddy.bots import get_player
from noddy.engine import Abandon, Resign, TakeBack
from noddy.protocol import ProtocolError
from noddy.protocol.i18n import Phrase

from ..config import ServerConfig
from ..model.session import Connection
from ..model.table import PLAYING, Seat, Session, Table
from .names import computer_name
from .places import my_seat, session_of
from .turn_timers import turn_timer

if TYPE_CHECKING:
    from .gameplay import Gameplay
    from .outbox import Outbox
    from .silence import Silence
    from .tables import Tables

log = logging.getLogger("noddy.server")


class StandIns:
    """Computers standing in for people who left; see the module docstring."""

    def __init__(self, config: ServerConfig, clock: Callable[[], float], outbox: Outbox,
                 tables: Tables, gameplay: Gameplay, silence: Silence) -> None:
        self._config = config
        self._clock = clock
        self._outbox = outbox
        self._tables = tables
        self._gameplay = gameplay
        self._silence = silence
        #: The resume token of each person kept for ``keep_away``, and the time it was given.
        self._kept: dict[str, float] = {}

    def handlers(self) -> dict[str, Callable[[Connection, dict[str, Any], Any], None]]:
        return {"stand_in": self.stand_in}

    def computer(self, table: Table, seat: int, level: str) -> Seat:
        """A computer player of ``level`` for ``seat`` (seeded by the table, seat and count)."""
        table.computers_made += 1
        player = get_player(level, seed=self._config.bot_seed(table.id, seat, table.computers_made))
        return Seat(computer_name(level, seat), player=player, level=level)

    def resign(self, table: Table, seat: int, name: str) -> None:
        """``name`` resigned ``seat``: a computer stands in (for nobody: a resignation is not
        taken back), then the resignation is applied; when it ends the game, the game's end
        frees the seat again."""
        level = self._config.computer_level
        table.seats[seat] = stand_in = self.computer(table, seat, level)
        stand_in.stand_in = True
        table.deadlines.pop(seat, None)
        log.info("%s resigned seat %d at table %d", name, seat + 1, table.id)
        self._gameplay.leave_game(table, Resign(seat), "resigned")
        if table.status == PLAYING:
            self._outbox.to_table(table, {"type": "player_replaced", "table": table.id, "seat": seat,
                                          "name": name, "level": level, "resigned": True})

    def abandon(self, table: Table, seat: int, session: Session, silent: float | None = None) -> None:
        """``session`` did not come back to ``seat`` within the grace period, mid-game (or,
        ``silent``, said nothing on their turn for that many seconds, and the table asked):
        the seat is abandoned (a loss, unless they take it back), and a computer stands in.
        A seat a computer plays for them already (their silence, then their connection lost)
        stays as it is: it is abandoned once."""
        occupant = table.seats[seat]
        if occupant is not None and occupant.stand_in and occupant.stand_in_for is session:
            return
        level = self._config.computer_level
        table.seats[seat] = stand_in = self.computer(table, seat, level)
        stand_in.stand_in, stand_in.stand_in_for = True, session
        table.deadlines.pop(seat, None)
        message = {"type": "stand_in", "table": table.id, "seat": seat, "name": session.name, "level": level,
                   "counts": _what_counts(table, session.name)}
        if silent is not None:  # they are here, though no longer the seat's: they are told too
            message["silent"] = silent
            self._outbox.send(session.conn, message)
        self._outbox.to_table(table, message)
        self._gameplay.leave_game(table, Abandon(seat), "abandoned")

    def keep_waiting(self, table: Table, session: Session, due: float | None) -> bool:
        """``session``'s grace period (``due``) ran out mid-game at ``table``: if nobody else
        is there to play on, hold the seat ``keep_away`` seconds more (True) -- once: when that
        time is over too, the seat is abandoned as usual (False)."""
        if self._kept.pop(session.token, None) == due or self._config.keep_away <= 0 or table.members():
            return False
        session.held_until = self._kept[session.token] = self._clock() + self._config.keep_away
        table.deadlines.pop(session.seat, None)  # (a turn timer: nobody is waiting for the seat)
        log.info("table %d: nobody is there; the game waits %g s more for %s",
                 table.id, self._config.keep_away, session.name)
        return True

    def take_back(self, session: Session) -> None:
        """``session`` is back (its resume token, or its account's login) at a seat a computer stood in for, or the
        table waited for: it plays the seat again, and the seat is no longer abandoned."""
        self._kept.pop(session.token, None)
        table, seat = session.table, session.seat
        if table is None or seat is None:
            return
        self._silence.start_again(table, seat)  # back: not silent
        occupant = table.seats[seat]
        if occupant is not None and occupant.stand_in and occupant.stand_in_for is session:
            table.seats[seat] = Seat(session.name, session=session)
        elif occupant is None or occupant.session is not session:
            return
        game = table.game
        if table.status == PLAYING and game is not None and seat in game.gone:
            log.info("%s took seat %d at table %d back", session.name, seat + 1, table.id)
            self._gameplay.leave_game(table, TakeBack(seat), "back")

    def heard(self, conn: Connection) -> None:
        """``conn``'s person said something (any request but ``ping``/``pong``, before it is
        handled): at their seat in a game, their silence starts again, and a seat a computer
        played for their silence is theirs again at once, with a snapshot of the game they
        missed (the table gets ``player_back``)."""
        session = session_of(conn)
        table, seat = session.table, session.seat
        if table is None or seat is None or table.status != PLAYING or session.conn is None:
            return
        self._silence.start_again(table, seat)
        occupant, game = table.seats[seat], table.game
        if occupant is None or game is None or not (occupant.stand_in_for is session or (
                occupant.session is session and seat in game.gone)):
            return
        self.take_back(session)
        self._outbox.to_table(table, {"type": "player_back", "table": table.id, "seat": seat,
                                      "name": session.name}, exclude=session)
        self._tables.changed(table)
        snapshot = table.snapshot(seat, self._clock())
        self._outbox.send(session.conn, snapshot, turn_timer(table, seat, session.conn, snapshot.get("turn")))

    def stand_in(self, conn: Connection, f: dict[str, Any], rid: Any) -> None:
        """A seated person chooses for a seat whose person is away: a computer plays it
        meanwhile (``on``), or the table waits for them (the stand-in leaves; the seat is
        held, with no time limit, until they come back or the game ends).  A person here
        but silent on their turn long enough (:mod:`.silence`) counts as away for ``on``."""
        session = session_of(conn)
        table, _mine = my_seat(session)
        seat = f["seat"]
        _check_seat_number(table, seat)
        occupant = table.seats[seat]
        person = None
        if table.status == PLAYING and occupant is not None:
            person = occupant.stand_in_for if occupant.stand_in else occupant.session
        if f["on"] and person is not None and person is not session and person.conn is not None \
                and not occupant.stand_in:
            silent = self._check_silent(table, seat, person)
            self._outbox.reply(conn, rid, {"type": "ok"})
            log.info("%s calls in a computer for %s (seat %d at table %d), silent %.0f s",
                     session.name, person.name, seat + 1, table.id, silent)
            self.abandon(table, seat, person, silent=self._silence.limit(table))
            self._tables.changed(table)
            return
        if person is None or (person.conn is not None and not occupant.stand_in):
            raise ProtocolError("not_away", Phrase("seat {seat} at table {table} is not waiting for anyone "
                                                   "in a game", seat=seat, table=table.id), field="seat")
        if f["on"]:
            if occupant.stand_in:
                raise ProtocolError("not_away", Phrase("a computer stands in for {name} already", name=person.name),
                                    field="seat")
            if person.held_until is not None:
                raise ProtocolError("not_away", Phrase("{name}'s seat is held for {wait:.0f} s more; a computer "
                                                       "may stand in after that", name=person.name,
                                                       wait=max(0.0, person.held_until - self._clock())),
                                    field="seat")
            level = self._config.computer_level
            table.seats[seat] = stand_in = self.computer(table, seat, level)
            stand_in.stand_in, stand_in.stand_in_for = True, person
            table.deadlines.pop(seat, None)
            self._gameplay.seat_changed(table, seat, "abandoned")
            message = {"type": "stand_in", "table": table.id, "seat": seat, "name": person.name, "level": level}
        else:
            if occupant.stand_in:
                table.seats[seat] = Seat(person.name, session=person)
                self._gameplay.seat_changed(table, seat, "waiting")
            person.held_until = None  # held without a limit: the table waits
            message = {"type": "stand_in", "table": table.id, "seat": seat, "name": person.name, "level": None}
        self._outbox.reply(conn, rid, {"type": "ok"})
        self._outbox.to_table(table, message)
        if person.conn is not None and not f["on"]:  # here (silent): their seat again, and the game
            self._silence.start_again(table, seat)
            self._outbox.send(person.conn, table.snapshot(seat, self._clock()))
        self._outbox.may_move(table.id)
        self._tables.changed(table)

    def _check_silent(self, table: Table, seat: int, person: Session) -> float:
        """How long ``person`` (connected, in ``seat``) has said nothing on their turn, if
        long enough for a computer to stand in; else ``not_away``, saying when it may."""
        limit, silent = self._silence.limit(table), self._silence.silent_for(table, seat)
        name = person.name
        if limit is None:
            raise ProtocolError("not_away", Phrase("{name} is here (connected): a computer may stand in only "
                                                   "for a person who is away", name=name), field="seat")
        if silent is None:
            raise ProtocolError("not_away", Phrase("{name} is here, and it is not {name}'s turn: a computer "
                                                   "may stand in once {name} has said nothing for {limit:g} s "
                                                   "on their turn", name=name, limit=limit), field="seat")
        if silent < limit:
            raise ProtocolError("not_away", Phrase("{name} has said nothing for {silent:.0f} s on their turn: "
                                                   "a computer may stand in after {limit:g} s ({left:.0f} s more)",
                                                   name=name, silent=silent, limit=limit, left=limit - silent),
                                field="seat")
        return silent


def _what_counts(table: Table, name: str) -> Phrase:
    """What the table is told when ``name``'s seat is abandoned: what counts if they never
    take it back, so nobody plays deals that cannot count without knowing it (issue 33)."""
    game, live = table.game, table.live
    if game is None or live is None or len(game.scores) != 2:
        return Phrase("If {name} does not take the seat back before the game ends, it is a loss for {name}; the "
                      "game goes on to the target for the others.", name=name)
    dealt = {entry["seat"]: entry["name"] for entry in live.seats}
    sides = [" & ".join(str(dealt.get(seat)) for seat in range(table.players) if game.team_of(seat) == side)
             for side in (0, 1)]
    scores = ", ".join(f"{side} {score}" for side, score in zip(sides, game.scores))
    return Phrase("If {name} does not take the seat back before the game ends, it counts as {name}'s resignation "
                  "now, at {scores}: the deals played from here count only if {name} comes back.",
                  name=name, scores=scores)


def _check_seat_number(table: Table, seat: int) -> None:
    if not 0 <= seat < table.players:
        raise ProtocolError("no_such_seat", Phrase("table {table} has seats 0 to {last}, not {seat}",
                                                 table=table.id, last=table.players - 1, seat=seat),
                            field="seat")
