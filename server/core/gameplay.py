"""The game: dealing, applying actions, and playing for a seat whose turn timer ran out.

Owns: the next game id, and handles ``action`` and ``snapshot``, with the turn-timer part
of ``tick`` (the timers themselves are :mod:`.turn_timers`'); the computer players' jobs
(``take_bot_jobs``, ``bot_moved`` and their safety-net sweep in ``tick``) are
:mod:`.computer_players`', whose decisions are played here like anyone's.  An action is
applied by the engine, queued for storage (``ActionApplied``; ``GameBegun`` when a game is
dealt) and handed to the publisher (:mod:`.publishing`: every member is sent its seat's view
of the events, then whose turn it is; the actor's batch led by its ``ok``).  A game won by
an action or by the deal itself is settled by the game's ending (:mod:`.game_ending`: its
result, ``GameFinished`` and the rating); a game this part deals is published by the part
that started it (seating, matchmaking, club tables), once it has told the table.

Collaborators (passed in): the turn timers, the paused tables (which take no action: their
computers and timers wait), the open tables (where the computer players find their
tables), the publisher and the game's ending.

A person who leaves mid-game is an action too (:mod:`noddy.engine.leaving`: ``resign``,
``abandon``, ``take_back``, applied by :meth:`leave_game` for seating), so the stored
game replays to the same result; each seat changing hands is kept in ``LiveGame.changes``
and stored with the finished game's seats.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any, Callable

from noddy.bots import get_player
from noddy.engine import Action, Claim, Discard, Event, Game, Go, Muggins, Pass, Play
from noddy.protocol import ProtocolError
from noddy.protocol.i18n import Phrase

from ..config import ServerConfig
from ..model.ratings import family_of
from ..model.session import Connection
from ..model.live_game import LiveGame
from ..model.table import PLAYING, Table
from ..storage.records import ActionApplied, GameBegun
from .computer_players import ComputerPlayers
from .instructions import BotJob
from .places import my_seat, my_table, session_of
from .turn_timers import turn_timer

if TYPE_CHECKING:
    from .game_ending import GameEnding
    from .outages import PausedTables
    from .outbox import Outbox
    from .publishing import Publisher
    from .tables import Tables
    from .turn_timers import TurnTimers

log = logging.getLogger("noddy.server")


class Gameplay:
    """Games at the tables and their timers; see the module docstring."""

    def __init__(self, config: ServerConfig, clock: Callable[[], float], wall_clock: Callable[[], float],
                 outbox: Outbox, timers: TurnTimers, tables: Tables, paused: PausedTables,
                 publisher: Publisher, ending: GameEnding) -> None:
        self._config = config
        self._clock = clock
        self._wall_clock = wall_clock
        self._outbox = outbox
        self._timers = timers
        self._paused = paused
        self._publisher = publisher
        self._ending = ending
        self._next_game = 1
        #: The computer players' jobs, whose moves are played like anyone's.
        self._computers = ComputerPlayers(outbox, tables, paused, self._play)

    def handlers(self) -> dict[str, Callable[[Connection, dict[str, Any], Any], None]]:
        return {"action": self.action, "snapshot": self.snapshot}

    def next_game_at_least(self, next_game: int) -> None:
        """Game ids below ``next_game`` were used before (a restore)."""
        self._next_game = max(self._next_game, next_game)

    def action(self, conn: Connection, f: dict[str, Any], rid: Any) -> None:
        session = session_of(conn)
        table, seat = my_seat(session)
        game = table.game
        if game is None or table.status != PLAYING:
            raise ProtocolError("no_game", Phrase("no game is being played at table {table}", table=table.id))
        if f["seat"] is not None and f["seat"] != seat:
            raise ProtocolError("bad_field", Phrase("you sit in seat {seat}, not {asked}", seat=seat, asked=f["seat"]),
                                field="seat")
        action: Action
        if f["action"] == "play":
            if f["card"] is None:
                raise ProtocolError("missing_field", Phrase("play needs the field 'card'"), field="card")
            action = Play(seat, f["card"])
        elif f["action"] == "discard":
            if f["cards"] is None:
                raise ProtocolError("missing_field", Phrase("discard needs the field 'cards'"), field="cards")
            action = Discard(seat, f["cards"])
        elif f["action"] in ("claim", "muggins"):
            if f["points"] is None:
                raise ProtocolError("missing_field", Phrase("{action} needs the field 'points'", action=f["action"]),
                                    field="points")
            action = (Claim if f["action"] == "claim" else Muggins)(seat, f["points"])
        elif f["action"] == "pass":
            action = Pass(seat)
        else:
            action = Go(seat)
        events, plain = self.apply_action(table, game, action)
        if not all([event.private for event in events]):
            # (A claim refused, told to the claimer alone, keeps the turn and its time: a
            # timer given again would tell the others that something happened.)
            table.deadlines.pop(seat, None)
        # The reply leads the actor's batch of events and turn (one message fewer to carry out).
        self._publisher.publish(table, table.record(events), plain,
                                (conn.id, {"type": "ok"} if rid is None else {"type": "ok", "id": rid}))

    def snapshot(self, conn: Connection, f: dict[str, Any], rid: Any) -> None:
        session = session_of(conn)
        table = my_table(session)
        message = table.snapshot(session.seat, self._clock())
        self._outbox.reply(conn, rid, message, timer=turn_timer(table, session.seat, conn.id, message.get("turn")))

    def start_game(self, table: Table, seed: int | None = None,
                   ) -> tuple[list[tuple[int, Event]], list[dict[str, Any]]]:
        """Deal a new game at a full, ready table (``seed``: its deal, fixed by a club night's
        board); the caller publishes the returned events (numbered) with their dicts."""
        table.games_played += 1
        plan = table.match
        if plan is None:
            seed = self._config.game_seed(table.id, table.games_played) if seed is None else seed
        else:  # a match table: the runner's seed (see noddy.server.model.match_plan)
            seed = plan.seed_of(table.games_played)
            plan.new_game()
        match = table.next_match()
        # The table's rules are configured already (from its preset and options), so the
        # game takes them as they are instead of configuring a copy (a match: see next_match).
        game = Game(table.rules, table.players, partnerships=table.partnerships, seed=seed,
                    first_dealer=None if match is None else match.next_dealer)
        seats = [{"seat": i, "name": s.name, "kind": "computer" if s.is_computer else "human",
                  "level": s.level, **({"bot": True} if s.session is not None and s.session.bot else {})}
                 for i, s in enumerate(table.seats) if s is not None]
        for seat in seats:  # a registered person's seat names the account (see StoredGame.visible_to)
            occupant = table.seats[seat["seat"]]
            if occupant is not None and occupant.session is not None and occupant.session.account is not None:
                seat["account"] = occupant.session.account
        started_at = self._wall_clock()
        live = LiveGame(self._next_game, table.seq, seats, started_at=started_at)
        self._next_game += 1
        table.live = live
        table.last_game_terms = None  # (a new game: the finished table's words of the last are done)
        events = list(game.log)
        result = self._ending.result(table, game, events)
        plain = [event.to_dict() for event in events]
        self._outbox.record(GameBegun(
            live.game_id, table.id, table.games_played, table.preset, family_of(table.preset),
            table.players, table.partnerships, dict(table.options), seats, game.seed,
            started_at, plain, password=table.password,
            match=table.match_game_dealt(live.game_id, game.dealer)))
        if result is not None:  # won by the deal itself, before anyone acted
            self._ending.finish_game(table, game, result)
        self._outbox.saved_again(table)
        table.game = game
        table.status = PLAYING
        table.log.clear()
        table.deadlines.clear()
        table.turns_in_flight.clear()
        table.thinking.clear()
        for occupant in table.seats:
            if occupant is not None:
                occupant.ready = False
        log.info("table %d: game %d of %s begins", table.id, table.games_played, table.preset)
        return table.record(events), plain

    def apply_action(self, table: Table, game: Game, action: Action,
                      ) -> tuple[list[Event], list[dict[str, Any]]]:
        """Apply ``action`` (the engine raises, changing nothing, if it is illegal) and queue
        it for storage (which keeps the action only: a replay gives its events); a won game
        is recorded as finished and rated.  Returns the events and their dicts (the ones the
        storage record carries, for the publisher to reuse)."""
        events = game.apply(action)
        result = self._ending.result(table, game, events)
        if table.match is not None:
            table.match.acted(action.seat, self._clock())
        live = table.live
        assert live is not None
        live.actions += 1
        live.taken.append(action)
        plain = [event.to_dict() for event in events]
        self._outbox.record(ActionApplied(live.game_id, live.actions, action.to_dict(), plain, table.id))
        if result is not None:
            self._ending.finish_game(table, game, result)
        return events, plain

    def leave_game(self, table: Table, action: Action, why: str | None = None) -> None:
        """A person resigned, abandoned the seat or took it back (``action``): applied and
        published like a move; ``why`` notes the seat's new hands in the record."""
        game = table.game
        assert game is not None and table.status == PLAYING
        if why is not None:
            self.seat_changed(table, action.seat, why)
        self._publisher.stream(table, *self.apply_action(table, game, action))

    def seat_changed(self, table: Table, seat: int, why: str) -> None:
        """Note in the game's record who plays ``seat`` from now on, and why."""
        live, occupant = table.live, table.seats[seat]
        if live is None or occupant is None or table.status != PLAYING:
            return
        live.changes.append({"seat": seat, "after": live.actions, "seq": table.seq + 1,  # (its first event)
                             "at": round(self._wall_clock(), 2),
                             "name": occupant.name,
                             "kind": "computer" if occupant.is_computer else "human",
                             "level": occupant.level, "why": why})

    def _play(self, table: Table, game: Game, action: Action) -> None:
        """Apply ``action`` and publish its events (a computer player's decision)."""
        self._publisher.stream(table, *self.apply_action(table, game, action))

    def schedule_timer(self, table: Table, deadline: float) -> None:
        """A seat's turn timer runs out at ``deadline`` (a restored game's: see :mod:`.turn_timers`)."""
        self._timers.schedule(table, deadline)

    def _check_turn_timer(self, table: Table, now: float) -> None:
        game = table.game
        if table.status != PLAYING or game is None or not table.deadlines:
            return
        for seat in sorted(table.deadlines):
            # (Read again: a timed-out seat before it in this loop may have moved the game on.)
            deadline = table.deadlines.get(seat)
            if deadline is None or deadline > now or seat not in game.awaiting or game.is_over:
                continue
            if self._timers.in_flight(table, seat):  # its turn has not reached it yet
                continue
            del table.deadlines[seat]
            # Counting by hand, the rules say what silence means (claim 0, or pass);
            # otherwise the server plays a random legal move for the seat.
            action = game.default_action(seat)
            if action is None:
                player = get_player("random", seed=self._config.bot_seed(table.id, seat, -game.deal))
                action = player.choose(game.observation(seat), game.rules)
            for member, viewer in table.members():  # a discard's cards only to its seat
                self._outbox.send(member.conn, table.timed_out_message(seat, action, viewer))
            self._publisher.stream(table, *self.apply_action(table, game, action))

    def tick(self, now: float) -> None:
        """Play for the seats whose turn timers ran out (not at a paused table), and now and
        then mark every playing table for :meth:`take_bot_jobs`."""
        for table in self._timers.due(now):
            if table.id not in self._paused:
                self._check_turn_timer(table, now)
            self._timers.look_again(table, now)  # due but not acted on: look again
        self._computers.sweep(now)

    def take_bot_jobs(self) -> list[BotJob]:
        """Decisions computer players owe now (see :mod:`.computer_players`)."""
        return self._computers.take_bot_jobs()

    def bot_moved(self, job: BotJob, action: Action | None) -> None:
        """A computer player decided (see :mod:`.computer_players`)."""
        self._computers.bot_moved(job, action)

