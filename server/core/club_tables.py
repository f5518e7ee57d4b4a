"""The tables of club nights (issue 35): a board's table opened, its players seated, each
game dealt on the board's seed, each result read back and told to the event.

Owns: which open table is which event's board, the boards' :class:`Table` objects (a
board's table that closed empty -- both players gone between games -- is opened again when
one of them comes back), who is expected at a board but not seated, and the deadline of a
board waiting between games for a player who went away.

How it learns what happened at a board: at the end of every call of the core
(:meth:`settle`, from ``ServerCore._effects``) it looks at the boards' tables that the call
changed (``Outbox.changed_ids``: a seat taken, a game over), and at the players expected at
a board who are now in the lobby (a login, a table left), whom it seats at once, as an
accepted challenge seats its players.  Everything it reads is the table's own state (seats,
``games_played``, the game's outcome), so a look is idempotent and a board restored after a
restart is looked at the same way.

Collaborators (passed in): the outbox, the sessions (who is online by name), the lobby's
board, the open tables, seating (to seat a player), gameplay (to deal), the publisher (to
send the deal) and table closing; and the room's report callback (:meth:`attach`), which carries out the
effects of the event's calls made here.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any, Callable

from ..model.club import Event
from ..model.club_types import Effect, OpenTables, Pairing
from ..model.table import PLAYING, Seat, Table
from ..model.table_options import table_rules

if TYPE_CHECKING:
    from .gameplay import Gameplay
    from .lobby_board import LobbyBoard
    from .outbox import Outbox
    from .publishing import Publisher
    from .seating import Seating
    from .sessions import Sessions
    from .table_closing import TableClosing
    from .tables import Tables

log = logging.getLogger("noddy.server")

#: Passes of :meth:`ClubTables.settle` over the boards changed in one call: a look may deal
#: a game or end a round, which changes tables again (a new round's boards, seated at once).
SETTLE_PASSES = 3

Report = Callable[[Event, list[Effect]], None]


class ClubTables:
    """The club nights' boards at their tables; see the module docstring."""

    def __init__(self, outbox: Outbox, sessions: Sessions, board: LobbyBoard, tables: Tables,
                 seating: Seating, gameplay: Gameplay, publisher: Publisher, closing: TableClosing) -> None:
        self._outbox = outbox
        self._sessions = sessions
        self._board = board
        self._tables = tables
        self._seating = seating
        self._gameplay = gameplay
        self._publisher = publisher
        self._closing = closing
        self._report: Report = lambda event, effects: None
        #: Each board's table id -> (event, round, board), and its Table object.
        self._boards: dict[int, tuple[Event, int, int]] = {}
        self._objects: dict[int, Table] = {}
        #: Players expected at a board's table but not seated there: name -> table id.
        self._expected: dict[str, int] = {}
        #: Boards waiting between games for a player gone: table id -> when (wall clock)
        #: that player forfeits the game.
        self._waits: dict[int, float] = {}
        #: Boards to look at in the next settle whatever changed (restored ones).
        self._to_look: set[int] = set()

    def attach(self, report: Report) -> None:
        """The room's callback for the effects of the event's calls made here."""
        self._report = report

    def board_of(self, table_id: int) -> tuple[int, int, int] | None:
        where = self._boards.get(table_id)
        return None if where is None else (where[0].definition.id, where[1], where[2])

    def next_due(self) -> float | None:
        return min(self._waits.values(), default=None)

    # -- the effects ----------------------------------------------------------------------------
    def open(self, event: Event, opening: OpenTables, now: float) -> list[Effect]:
        """A table per board, its players seated if they are in the lobby; each told where to go."""
        effects: list[Effect] = []
        for b in opening.boards:
            table = self._new_table(event, opening.round, b.board, opening.preset, dict(opening.options))
            effects += event.table_opened(now, opening.round, b.board, table.id)
            for name in (b.a, b.b):
                self._expected[name] = table.id  # seated (and told) in this call's settle, if here
                holder = self._sessions.holder(name)
                if holder is not None and holder.seat is not None:  # busy at another table: told now
                    self._tell(table, name)
            self._to_look.add(table.id)
        return effects

    def deal(self, event: Event, round_: int, board: int) -> None:
        pairing = event.rounds[round_ - 1].pairings[board - 1]
        if pairing.table is not None and pairing.table in self._objects:
            self._to_look.add(pairing.table)

    def close(self, table_id: int) -> None:
        self._forget(table_id)
        table = self._tables.get(table_id)
        if table is not None:
            self._closing.close_table(table, "event_board")

    # -- each call's end, and time --------------------------------------------------------------
    @property
    def busy(self) -> bool:
        """Whether any club night has a board open or a player to seat: else a call's end
        has nothing to look at here (the common case, and every call pays for the look)."""
        return bool(self._boards or self._expected or self._to_look)

    def settle(self, now: float) -> None:
        seen: set[int] = set()
        for _ in range(SETTLE_PASSES):
            for name, table_id in list(self._expected.items()):
                if self._seat(name, table_id):
                    self._to_look.add(table_id)
            ids = [t for t in self._outbox.changed_ids() if t in self._boards and t not in seen]
            ids += [t for t in self._to_look if t not in ids and t in self._boards]
            self._to_look.clear()
            if not ids:
                return
            for table_id in ids:
                seen.add(table_id)
                self._look(table_id, now)

    def tick(self, now: float) -> None:
        """Boards that waited long enough for a player gone between games: that player
        forfeits the game (the next is dealt when both are back, or forfeited in turn)."""
        for table_id, due in list(self._waits.items()):
            if due > now or table_id not in self._boards:
                continue
            del self._waits[table_id]
            event, round_, board = self._boards[table_id]
            pairing = event.rounds[round_ - 1].pairings[board - 1]
            table = self._objects[table_id]
            missing = [name for name in (pairing.a, pairing.b) if self._seat_of(table, name) is None]
            if pairing.status == "playing" and table.status != PLAYING and missing:
                log.info("club night %d: %s did not come back to board %d", event.definition.id, missing[0], board)
                self._report(event, event.game_forfeited(now, round_, board, len(pairing.games), missing[0],
                                                         "no-show"))
                self._to_look.add(table_id)

    def restore(self, event: Event) -> None:
        """A restored event's boards under way: their restored tables (or new ones with the
        same ids, when a table was not kept), looked at in the next settle."""
        current = event.current_round
        if current is None:
            return
        for pairing in current.pairings:
            if pairing.over or pairing.table is None:
                continue
            table = self._tables.get(pairing.table)
            if table is None:
                table = self._new_table(event, pairing.round, pairing.board, event.definition.preset,
                                        dict(event.definition.options), pairing.table)
            else:
                self._mark(event, pairing.round, pairing.board, table)
            for name in (pairing.a, pairing.b):
                self._expected[name] = table.id
            self._to_look.add(table.id)

    # -- the inside ---------------------------------------------------------------------------
    def _new_table(self, event: Event, round_: int, board: int, preset: str, options: dict[str, Any],
                   table_id: int | None = None) -> Table:
        rules = table_rules(preset, 2, False, options)
        table = Table(self._tables.next_id() if table_id is None else table_id, rules, rules.name, 2, False,
                      options)
        self._mark(event, round_, board, table)
        self._tables.opened(table)
        self._outbox.touched(table)
        self._board.table_changed(table)
        log.info("club night %d: round %d board %d at table %d", event.definition.id, round_, board, table.id)
        return table

    def _mark(self, event: Event, round_: int, board: int, table: Table) -> None:
        table.event = {"id": event.definition.id, "round": round_, "board": board}
        table.event_rated = event.definition.rated
        table.rate = self._seating.rater(table)
        self._boards[table.id] = (event, round_, board)
        self._objects[table.id] = table

    def _forget(self, table_id: int) -> None:
        self._boards.pop(table_id, None)
        self._objects.pop(table_id, None)
        self._waits.pop(table_id, None)
        for name in [n for n, t in self._expected.items() if t == table_id]:
            del self._expected[name]

    def _tell(self, table: Table, name: str) -> None:
        """Tell ``name`` where their board is (``event_table``): the seat of its next game."""
        holder = self._sessions.holder(name)
        event, round_, board = self._boards[table.id]
        pairing = event.rounds[round_ - 1].pairings[board - 1]
        seats = pairing.seats(min(len(pairing.games), event.definition.games_per_pairing - 1))
        if holder is not None:
            self._outbox.send(holder.conn, {"type": "event_table", "event": event.definition.id, "round": round_,
                                            "board": board, "table": table.id, "seat": seats.index(name),
                                            "opponent": seats[1 - seats.index(name)],
                                            "games": event.definition.games_per_pairing})

    @staticmethod
    def _seat_of(table: Table, name: str) -> int | None:
        for index, seat in enumerate(table.seats):
            if seat is not None and seat.session is not None and not seat.stand_in and seat.name == name:
                return index
        return None

    def _seat(self, name: str, table_id: int) -> bool:
        """Seat ``name`` at its board's table if they are online and in the lobby (or
        watching a table): True if they sat down."""
        table = self._objects.get(table_id)
        session = self._sessions.holder(name)
        if table is None or session is None or session.conn is None or not self._sessions.is_current(session):
            return False
        if session.table is table and session.seat is not None:
            self._expected.pop(name, None)
            return False
        if session.table is not None:
            if session.seat is not None:
                return False  # seated at another table: they come when they leave it
            watched = session.table
            watched.spectators.remove(session)
            session.table = None
            self._tables.changed(watched)
        free = table.free_seats()
        if not free:
            return False
        if table.id not in self._tables:  # closed empty meanwhile: open again
            self._tables.opened(table)
        self._tell(table, name)
        self._seating.take_seat(table, session, free[0], ready=True)
        self._expected.pop(name, None)
        summary = table.summary()
        self._outbox.send(session.conn, {"type": "table", "table": summary, "seat": session.seat})
        self._tables.changed(table, exclude=session, summary=summary)
        return True

    def _look(self, table_id: int, now: float) -> None:
        event, round_, board = self._boards[table_id]
        table = self._objects[table_id]
        pairing = event.rounds[round_ - 1].pairings[board - 1]
        if pairing.table != table_id:
            return
        if pairing.over:
            self.close(table_id)
            return
        effects: list[Effect] = []
        if pairing.status == "seating":
            for name in (pairing.a, pairing.b):
                if name not in pairing.arrived and self._seat_of(table, name) is not None:
                    effects += event.player_arrived(now, round_, board, name)
        elif pairing.status == "playing" and table.status != PLAYING:
            games = len(pairing.games)
            if table.games_played == games + 1 and table.game is not None and table.game.is_over:
                effects += self._result(event, pairing, table, now)
            elif table.games_played == games:
                self._deal(event, pairing, table, now)
        if pairing.over and table_id in self._boards:
            self.close(table_id)  # first: its players are back in the lobby for the next round
        if effects:
            self._report(event, effects)
            self._to_look.add(table_id)

    def _result(self, event: Event, pairing: Pairing, table: Table, now: float) -> list[Effect]:
        """The game just over at ``table``, told to the event: a result, or a game lost by a
        person who resigned or left their seat and never took it back."""
        game, live = table.game, table.live
        assert game is not None and game.outcome is not None and live is not None
        outcome = game.outcome
        names = {entry["seat"]: entry["name"] for entry in live.seats}
        game_number = len(pairing.games)
        # The record's id, kept beside its result (games forfeited unplayed have none).
        pairing.game_ids[game_number:] = []
        pairing.game_ids += [None] * (game_number - len(pairing.game_ids)) + [live.game_id]
        gone = [(seat, "resigned") for seat in outcome.resigned] + [(seat, "abandoned") for seat in outcome.abandoned]
        if gone:
            return event.game_forfeited(now, pairing.round, pairing.board, game_number, names[gone[0][0]], gone[0][1])
        scores = {names[seat]: game.scores[seat] for seat in (0, 1)}
        return event.game_finished(now, pairing.round, pairing.board, game_number, names[outcome.winner], scores,
                                   outcome.skunk)

    def _deal(self, event: Event, pairing: Pairing, table: Table, now: float) -> None:
        """Deal the pairing's next game at its table, its players in the seats the event
        says (A first in even games); a player not there is waited for ``forfeit_wait``."""
        game_number = len(pairing.games)
        order = pairing.seats(game_number)
        missing = [name for name in order if self._seat_of(table, name) is None]
        if missing:
            for name in missing:
                self._expected[name] = table.id
            self._waits.setdefault(table.id, now + event.definition.forfeit_wait)
            return
        self._waits.pop(table.id, None)
        seats: list[Seat | None] = [table.seats[self._seat_of(table, name) or 0] for name in order]
        table.seats = seats
        moved = []
        for index, seat in enumerate(seats):
            assert seat is not None and seat.session is not None
            seat.ready = True
            if seat.session.table is table and seat.session.seat != index:
                seat.session.seat = index
                moved.append(seat.session)
        started = self._gameplay.start_game(table, pairing.seeds[game_number])
        self._tables.changed(table)
        summary = table.summary()
        for session in moved:  # told before the game's first message: a client draws the table from its seat
            self._outbox.send(session.conn, {"type": "table", "table": summary, "seat": session.seat})
        self._publisher.publish(table, *started)
