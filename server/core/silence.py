"""Seat silence: a connected person whose turn it is and who says nothing does not hold a
game for ever (issue 31, "a seat is not held hostage").

Silence never closes a connection (TCP keepalive finds a dead peer), and a table has no
turn timer unless it asks for one, so a person could sit, be dealt in, stay connected and
say nothing: the game would wait on their seat with no end.  This part measures how long
the person to move has been silent: from when their turn began or from their last request,
whichever is later (a ``ping`` or ``pong`` is the connection's, not the person's, and does
not count).  Once that reaches the table's ``seat_silence`` (the table option, else
``ServerConfig.seat_silence``; 0 there: never), the *other* people seated at the table are
told once (``seat_silent``, naming the request they may send), and a ``stand_in`` request
against that seat is then allowed (:mod:`.stand_ins`): the seat is abandoned and a computer
plays it, as for a person who left, until its person says anything at all.

Nothing happens to a silent seat by itself: only when another person at the table asks.  A
table of one person against computers is never affected (nobody is there to tell), and a
computer is never silent (its seat is not watched).  A person who is away (disconnected)
is the grace period's business, not this part's.

Owns: when each watched seat's silence began.  The publisher reports each published turn
(:meth:`published`), the stand-ins part each request a seated person makes and each seat
given back (:meth:`start_again`), and the facade's ``tick`` lets :meth:`tick` tell the
tables whose silence is due, at most once a :data:`SWEEP_INTERVAL` (a sweep over 2,000
watched seats takes ~1.5 ms here).
Collaborators (passed in): the config (the default), the clock, the outbox (the push) and
the open tables.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Callable

from noddy.engine import Game

from ..config import ServerConfig
from ..model.table import PLAYING, Table
from ..model.table_options import seat_silence

if TYPE_CHECKING:
    from .outbox import Outbox
    from .tables import Tables

log = logging.getLogger("noddy.server")

#: Seconds between two looks at the watched seats: a second late on minutes of silence is
#: nothing, and one look over every awaited seat a second costs far less than a heap entry
#: for every turn of every game.
SWEEP_INTERVAL = 1.0


class Silence:
    """How long each person to move has said nothing; see the module docstring."""

    def __init__(self, config: ServerConfig, clock: Callable[[], float], outbox: Outbox,
                 tables: Tables) -> None:
        self._config = config
        self._clock = clock
        self._outbox = outbox
        self._tables = tables
        #: (table id, seat) of each person awaited in a game -> when their silence began.
        self._since: dict[tuple[int, int], float] = {}
        #: The seats whose silence the table has been told of (until they speak or act).
        self._told: set[tuple[int, int]] = set()
        self._next_sweep = 0.0

    def limit(self, table: Table) -> float | None:
        """The seconds of silence after which the others at ``table`` may call in a stand-in
        (None: never, on this server)."""
        chosen = seat_silence(table.options)
        if chosen is not None:
            return chosen
        return self._config.seat_silence or None

    def silent_for(self, table: Table, seat: int) -> float | None:
        """How long ``seat``'s person has said nothing on their turn (None: it is not their
        turn, or silence is not watched at this table)."""
        since = self._since.get((table.id, seat))
        return None if since is None else self._clock() - since

    def published(self, table: Table, game: Game, now: float) -> None:
        """``game``'s new turn was published: a person newly awaited starts being silent now,
        a seat no longer awaited (or played by a computer) is not watched any more."""
        awaited = () if game.is_over or self.limit(table) is None else game.awaiting
        for seat in range(table.players):
            key = (table.id, seat)
            occupant = table.seats[seat]
            if seat in awaited and occupant is not None and occupant.session is not None:
                self._since.setdefault(key, now)
            elif key in self._since:
                del self._since[key]
                self._told.discard(key)

    def start_again(self, table: Table, seat: int) -> None:
        """The person in ``seat`` made a request, came back, or was given the seat back: if
        it is their turn, their silence starts again from now -- watched from now if it was
        not (a game restored after a restart has published no turn yet)."""
        key = (table.id, seat)
        game = table.game
        if key in self._since or (game is not None and seat in game.awaiting and self.limit(table) is not None):
            self._since[key] = self._clock()
            self._told.discard(key)

    def tick(self, now: float) -> None:
        """Tell the tables whose person to move has been silent long enough (once a silence)."""
        if now < self._next_sweep:
            return
        self._next_sweep = now + SWEEP_INTERVAL
        for key, since in list(self._since.items()):
            table = self._tables.get(key[0])
            if table is None or table.status != PLAYING:
                del self._since[key]
                self._told.discard(key)
                continue
            limit = self.limit(table)
            if key not in self._told and limit is not None and now - since >= limit:
                self._tell(table, key[1], limit)

    def _tell(self, table: Table, seat: int, limit: float) -> None:
        """Tell the other people seated at ``table`` that ``seat``'s person has been silent
        ``limit`` seconds on their turn, and what they may do.  Not while that person is away
        (the grace period decides then), nor when nobody else is there to tell."""
        occupant = table.seats[seat]
        person = None if occupant is None else occupant.session
        if person is None or person.conn is None:
            return
        others = [s for s, at in table.members() if at is not None and at != seat]
        if not others:
            return
        self._told.add((table.id, seat))
        log.info("table %d: %s (seat %d) has said nothing for %g s on their turn", table.id,
                 person.name, seat + 1, limit)
        message = {"type": "seat_silent", "table": table.id, "seat": seat, "name": person.name,
                   "silent": limit, "request": {"type": "stand_in", "seat": seat, "on": True}}
        for other in others:
            self._outbox.send(other.conn, message)
