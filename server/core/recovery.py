"""Storage's side of the core: bringing tables back at start, and tables that could not be saved.

Owns nothing of its own but the decisions: it is the one part that changes the paused
tables and the tables lost at a restart (:mod:`.outages`), and handles the entry points
``restore`` and ``unstored``, the ``repair_table`` answer and the repair part of ``tick``.
A paused table takes no action (:meth:`refuse_if_paused` refuses the requests in
:data:`~noddy.protocol.request_table.CHANGES_TABLE`, the requests declared ``changes_table``; computers and turn timers wait) until storage takes its
records again; meanwhile it is rolled back to what is stored.

Collaborators (passed in): the open tables, sessions and connections, the rating book
(rebuilt from what storage kept), the lobby's board, seating (computer players, seating
and watching), the held seats (a restored person's place is held), table closing, gameplay
(turn timers, game ids) and the game's ending (a game found won is settled: :mod:`.game_ending`).
A game is dealt again from its seed and its stored actions replayed.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any, Callable

from noddy.engine import NoddyError
from noddy.protocol import ProtocolError
from noddy.protocol.i18n import Phrase
from noddy.protocol.closing import closed_message

from ..config import ServerConfig
from ..model.ratings import RatingBook
from ..model.session import Connection
from ..model.match import Match
from ..model.live_game import LiveGame
from ..model.table import FINISHED, PLAYING, Session, Table
from ..model.table_options import table_rules
from ..storage import StoredState
from ..storage.records import TableClosed, record_actions, replay
from .instructions import Query

if TYPE_CHECKING:
    from .connections import Connections
    from .game_ending import GameEnding
    from .gameplay import Gameplay
    from .held_seats import HeldSeats
    from .lobby import Lobby
    from .lobby_board import LobbyBoard
    from .outages import LostTables, PausedTables
    from .outbox import Outbox
    from .seating import Seating
    from .sessions import Sessions
    from .table_closing import TableClosing
    from .tables import Tables

log = logging.getLogger("noddy.server")


class Recovery:
    """Restore at start, and pausing, rolling back and resuming unsaved tables; see the
    module docstring."""

    def __init__(self, config: ServerConfig, clock: Callable[[], float], outbox: Outbox,
                 connections: Connections, sessions: Sessions, board: LobbyBoard, tables: Tables,
                 ratings: RatingBook, paused: PausedTables, lost: LostTables, lobby: Lobby,
                 seating: Seating, held: HeldSeats, closing: TableClosing, gameplay: Gameplay,
                 ending: GameEnding) -> None:
        self._config = config
        self._clock = clock
        self._outbox = outbox
        self._connections = connections
        self._sessions = sessions
        self._board = board
        self._tables = tables
        self._ratings = ratings
        self._paused = paused
        self._lost = lost
        self._lobby = lobby
        self._seating = seating
        self._held = held
        self._closing = closing
        self._gameplay = gameplay
        self._ending = ending

    def refuse_if_paused(self, conn: Connection, kind: str, fields: dict[str, Any]) -> None:
        """Refuse what would change a paused table: its records could not be written, so
        nothing more is done there until storage takes them again (spectators come and go)."""
        session = conn.session
        table = session.table if session is not None else None
        if kind == "sit" and table is None:
            table = self._tables.get(fields["table"])
        if table is None or table.id not in self._paused:
            return
        if kind == "leave" and session is not None and session.seat is None:
            return
        raise ProtocolError("storage_unavailable", Phrase(
            "table {table} is paused: the server cannot save its game right now; it goes on by itself "
            "once it can", table=table.id))

    def unstored(self, table_ids: set[int] | frozenset[int], origin: tuple[int, Any] | None,
                 reason: str = "") -> None:
        """The records of a call that changed ``table_ids`` could not be written, so what the
        call did is not acknowledged: the network layer has dropped its messages, and the
        request it came from (``origin``) is refused with ``storage_unavailable``.

        Each of those tables is *paused* (it takes no action, its computers and turn timers
        wait) and its people are told so.  Storage refuses the table's later records until
        the table is taken back, so nothing is ever written on top of a gap (and another
        table's records never fail with these).  At the next :meth:`tick` the table is rolled
        back to what is stored (a read, which a failing disk usually still allows), so
        nobody sees what was not saved; then every ``storage_retry`` seconds storage is asked
        whether it takes writes again, and once it does the table goes on (:meth:`_repaired`).
        """
        now = self._clock()
        newly = [t for t in sorted(table_ids) if self._paused.pause(t, now)]
        if newly:
            log.error("the records of table%s %s could not be written (%s): paused until the "
                      "database takes them", "s" if len(newly) > 1 else "",
                      ", ".join(map(str, newly)), reason or "storage failed")
        for table_id in newly:
            table = self._tables.get(table_id)
            if table is not None:
                self._outbox.to_table(table, ProtocolError(
                    "storage_unavailable", Phrase(
                        "the server cannot save table {table}'s game right now, so it is paused; it goes "
                        "on by itself once it can save again", table=table_id),
                    table=table_id).to_message())
        if origin is not None:
            conn = self._connections.get(origin[0])
            if conn is not None and not conn.closing:
                self._outbox.error(conn, ProtocolError(
                    "storage_unavailable", Phrase("the server could not save that, so it did not "
                                                  "happen; try again later")), origin[1])

    def tick(self, now: float) -> None:
        """Ask storage (a ``repair_table`` query) about each paused table that is due a look."""
        for table_id, rolled_back in list(self._paused.due(now)):
            self._paused.asking(table_id)
            self._outbox.query(Query(0, None, "repair_table", {"table": table_id, "write": rolled_back}))

    def repaired(self, table_id: int, result: dict[str, Any] | None, failed: bool) -> None:
        """Storage answered ``repair_table``: rebuild the table from what is stored (rolled
        back, still paused; or, once storage takes writes again, going on), or try again
        later."""
        self._paused.answered(table_id)
        now = self._clock()
        if table_id not in self._paused:
            return
        if failed or result is None:
            log.debug("table %d: the database still fails; trying again in %.1f s",
                      table_id, self._config.storage_retry)
            self._paused.later(table_id, now + self._config.storage_retry)
            return
        if result["writable"]:
            self._paused.resume(table_id)
            log.warning("table %d: the database takes writes again; the table goes on from where "
                        "it was last saved", table_id)
        else:
            self._paused.later(table_id, now + self._config.storage_retry, rolled_back=True)
        # The ratings of a game whose end was not stored would otherwise count twice.
        self._ratings.load(result["ratings"], replace=True)
        old = self._tables.get(table_id)
        saved = result["table"]
        if old is None:
            if saved is not None:  # closed here, but the closing was what failed
                self._outbox.record(TableClosed(table_id))
            return
        if saved is None:
            self._closing.close_table(old, "not_saved")
            return
        live = {session.token: session for session in old.humans() + old.away()}
        try:
            table = self._restore_table(saved, result["record"], now, live)
        except (NoddyError, ValueError, KeyError, TypeError) as exc:
            log.error("table %d cannot be rebuilt from the database (%s); closing it", table_id, exc)
            self._tables.opened(old)
            self._paused.resume(table_id)
            self._closing.close_table(old, "not_saved")
            return
        seated = {id(s.session) for s in table.seats if s is not None and s.session is not None}
        for session in old.spectators:
            if id(session) not in seated:
                self._seating.watch(table, session, restoring=True)
        for session in old.humans():
            if session.table is old:  # sat down after the last save: back to the lobby
                session.table, session.seat = None, None
                self._board.arrived(session)
                if session.conn is None:
                    self._sessions.forget(session)
        for session, seat in table.members():
            self._outbox.send(session.conn, table.snapshot(seat, now))
        self._tables.changed(table)

    def restore(self, state: StoredState) -> None:
        """Bring back what storage kept: ratings, ids, and every open table with its game.

        Each game is dealt again from its seed and its stored actions are applied, so it is
        exactly where it was.  Seated people are disconnected now, so their seats are held
        for a fresh grace period: they come back with their resume tokens.  A table with no
        person seated at it is closed, as it would have been when its last person left.
        """
        self._ratings.load(state.ratings)
        self._tables.at_least(state.next_table)
        self._gameplay.next_game_at_least(state.next_game)
        now = self._clock()
        for saved, record in state.tables:
            try:
                table = self._restore_table(saved, record, now)
            except (NoddyError, ValueError, KeyError, TypeError) as exc:
                log.error("table %s cannot be restored (%s); closing it", saved.get("id"), exc)
                self._outbox.record(TableClosed(saved["id"]))
                self._table_lost(saved, now)
                continue
            if table.game is not None and table.game.is_over and record is not None \
                    and record["status"] == "playing":
                # Won at the deal by an older server, which never recorded such a game's end.
                self._ending.finish_game(table, table.game)
            if not any(s is not None and s.session is not None for s in table.seats):
                self._closing.close_table(table, "nobody_back")
            else:
                log.info("table %d restored (%s, %s)", table.id, table.preset, table.status)
        self._outbox.forget_changes()

    def _table_lost(self, saved: dict[str, Any], now: float) -> None:
        """A stored table could not be rebuilt: the people seated at it are held in the
        lobby for the grace period (their resume tokens still work), and whoever comes back
        is told the table is gone (``table_closed``) instead of finding a table that exists
        nowhere.  ``saved`` may be damaged: only what reads as a seat is used."""
        message = closed_message(saved["id"], "not_restored")
        seats = saved.get("seats")
        for seat in seats if isinstance(seats, list) else []:
            if not (isinstance(seat, dict) and seat.get("kind") == "human"
                    and isinstance(seat.get("token"), str) and isinstance(seat.get("name"), str)):
                continue
            session = self._sessions.get(seat["token"])  # made already if it failed later
            if session is None:
                session = Session(seat["name"], bool(seat.get("bot")), None, token=seat["token"])
                session.held_until = now + self._config.grace_period
                self._lobby.add_session(session)
                self._held.schedule_held(session)
            session.table, session.seat = None, None
            self._board.arrived(session)
            self._lost.add(session.token, message)

    def _away(self, table: Table, index: int, person: Any, live: dict[str, Session] | None) -> Session | None:
        """The person a restored stand-in stands in for (None: one who resigned, or a damaged
        entry): their session again, still at the table, so their token takes the seat back."""
        if not (isinstance(person, dict) and isinstance(person.get("token"), str)
                and isinstance(person.get("name"), str)):
            return None
        session = live.get(person["token"]) if live else None
        if session is None:
            session = Session(person["name"], bool(person.get("bot")), None, token=person["token"])
            self._lobby.add_session(session)
        session.table, session.seat = table, index
        return session

    def _restore_table(self, saved: dict[str, Any], record: dict[str, Any] | None, now: float,
                       live: dict[str, Session] | None = None) -> Table:
        """A table as storage kept it; seated people are held sessions, or (``live``: the
        sessions at the table, by token, when a paused table is rebuilt) the same sessions."""
        rules = table_rules(saved["preset"], saved["players"], saved["partnerships"], saved["options"])
        table = Table(saved["id"], rules, rules.name, saved["players"], saved["partnerships"],
                      dict(saved["options"]), password=saved["password"], turn_timer=saved["turn_timer"])
        table.rate = self._seating.rater(table)
        table.games_played = saved["games_played"]
        table.computers_made = saved["computers_made"]
        if saved.get("match") is not None:  # a match survives a restart like its game
            table.running_match = Match.from_dict(saved["match"])
        for index, seat in enumerate(saved["seats"]):
            if seat is None:
                continue
            if seat["kind"] == "computer":
                table.seats[index] = computer = self._seating.computer(table, index, seat["level"])
                if "stand_in_for" in seat:
                    computer.stand_in = True
                    computer.stand_in_for = self._away(table, index, seat["stand_in_for"], live)
                continue
            session = live.get(seat["token"]) if live else None
            if session is None:
                session = Session(seat["name"], seat["bot"], None, token=seat["token"])
                session.held_until = now + self._config.grace_period
                self._lobby.add_session(session)
                self._held.schedule_held(session)
            self._seating.take_seat(table, session, index, ready=seat["ready"])
            if seat["token"] == saved.get("creator"):
                table.creator = session
        if live is None:  # at a start, who watched watches again (a repair keeps its own)
            for watcher in saved.get("watchers") or ():
                if not (isinstance(watcher, dict) and isinstance(watcher.get("token"), str)
                        and isinstance(watcher.get("name"), str)):
                    continue  # (a damaged entry costs that watcher only, not the table)
                session = Session(watcher["name"], bool(watcher.get("bot")), None, token=watcher["token"])
                session.held_until = now + self._config.grace_period
                self._lobby.add_session(session)
                self._held.schedule_held(session)
                self._seating.watch(table, session, restoring=True)
                if watcher["token"] == saved.get("creator"):
                    table.creator = session
        table.status = saved["status"]
        game_info = saved.get("game")
        if game_info is not None and record is not None:
            game = replay(record)
            table.game = game
            table.seq = game_info["seq_start"]
            table.record(game.log)
            table.live = LiveGame(record["id"], game_info["seq_start"], record["seats"],
                                  len(record["steps"]), record_actions(record),
                                  list(game_info.get("changes") or ()), started_at=record.get("started_at"))
            if game.is_over:
                table.status = FINISHED
            elif table.status == PLAYING and table.turn_timer is not None:
                for seat_index in game.awaiting:
                    occupant = table.seats[seat_index]
                    if occupant is not None and not occupant.is_computer:
                        table.deadlines[seat_index] = now + table.turn_timer
                        self._gameplay.schedule_timer(table, table.deadlines[seat_index])
        elif table.status == PLAYING:
            raise ValueError("a playing table without its game")
        self._tables.opened(table)
        return table

