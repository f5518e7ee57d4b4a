"""The game: dealing, applying actions, publishing them, and playing for a seat whose turn
timer ran out.

Owns: the next game id, and handles ``action`` and ``snapshot``, with the turn-timer part
of ``tick`` (the timers themselves are :mod:`.turn_timers`'); the computer players' jobs
(``take_bot_jobs``, ``bot_moved`` and their safety-net sweep in ``tick``) are
:mod:`.computer_players`', whose decisions are played here like anyone's.  This is the hot path: an action is
applied by the engine, queued for storage (``ActionApplied``; ``GameBegun``/``GameFinished``
at either end, with the rating of a finished game), and published to every member, redacted
for its seat (:meth:`Table.event_messages`), followed by whose turn it is.  :meth:`publish`
builds each message once and appends the :class:`Send` instructions itself, one per member:
a :class:`Lines` batch of its events and turn (the actor's led by its ``ok``), the messages
shared between the members' batches.  Keep it that way: one instruction per member and
action is what the network layer can carry out cheaply.

A finished game's result is the server's one :class:`~noddy.server.model.result.GameResult`
(the engine's outcome and the server's facts): the ``game_over`` event and the stored result
are made from it, and the rating reads its outcome.

Collaborators (passed in): the turn timers, the seats' silence (told of each turn
published: :mod:`.silence`), the open tables (a change is announced there), the rating book
(a finished game is rated by its ``rate_game``), the paused tables (which take no action:
their computers and timers wait), and the sessions (a person a computer stood in for is
let go when the game ends: their seat is freed).

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

from ..config import ServerConfig
from ..model.ratings import Rated, RatingBook, family_of
from ..model.result import FinishedGameOver, GameResult, duration_between, game_result
from ..model.session import Connection
from ..model.live_game import LiveGame
from ..model.table import FINISHED, PLAYING, Seat, Table
from ..storage.records import ActionApplied, GameBegun, GameFinished
from .computer_players import ComputerPlayers
from .instructions import BotJob, Lines, Send
from .places import my_seat, my_table, session_of
from .turn_timers import turn_timer

if TYPE_CHECKING:
    from .results import Results
    from .outages import PausedTables
    from .outbox import Outbox
    from .sessions import Sessions
    from .silence import Silence
    from .tables import Tables
    from .turn_timers import TurnTimers

log = logging.getLogger("noddy.server")


class Gameplay:
    """Games at the tables and their timers; see the module docstring."""

    def __init__(self, config: ServerConfig, clock: Callable[[], float], wall_clock: Callable[[], float],
                 outbox: Outbox, timers: TurnTimers, silence: Silence, tables: Tables,
                 ratings: RatingBook, paused: PausedTables, sessions: Sessions, results: Results) -> None:
        self._config = config
        self._sessions = sessions
        self._clock = clock
        self._wall_clock = wall_clock
        self._outbox = outbox
        self._timers = timers
        self._silence = silence
        self._tables = tables
        self._ratings = ratings
        #: The results told to people not at the table when a game ends (see :mod:`.results`).
        self.results = results
        self._paused = paused
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
            raise ProtocolError("no_game", f"no game is being played at table {table.id}")
        if f["seat"] is not None and f["seat"] != seat:
            raise ProtocolError("bad_field", f"you sit in seat {seat}, not {f['seat']}", field="seat")
        action: Action
        if f["action"] == "play":
            if f["card"] is None:
                raise ProtocolError("missing_field", "play needs the field 'card'", field="card")
            action = Play(seat, f["card"])
        elif f["action"] == "discard":
            if f["cards"] is None:
                raise ProtocolError("missing_field", "discard needs the field 'cards'", field="cards")
            action = Discard(seat, f["cards"])
        elif f["action"] in ("claim", "muggins"):
            if f["points"] is None:
                raise ProtocolError("missing_field", f"{f['action']} needs the field 'points'", field="points")
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
        self.publish(table, table.record(events), plain,
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
        events = list(game.log)
        result = self._result(table, game, events)
        plain = [event.to_dict() for event in events]
        self._outbox.record(GameBegun(
            live.game_id, table.id, table.games_played, table.preset, family_of(table.preset),
            table.players, table.partnerships, dict(table.options), seats, game.seed,
            started_at, plain, password=table.password,
            match=table.match_game_dealt(live.game_id, game.dealer)))
        if result is not None:  # won by the deal itself, before anyone acted
            self.finish_game(table, game, result)
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
        storage record carries, for :meth:`_stream` to reuse)."""
        events = game.apply(action)
        result = self._result(table, game, events)
        if table.match is not None:
            table.match.acted(action.seat, self._clock())
        live = table.live
        assert live is not None
        live.actions += 1
        live.taken.append(action)
        plain = [event.to_dict() for event in events]
        self._outbox.record(ActionApplied(live.game_id, live.actions, action.to_dict(), plain, table.id))
        if result is not None:
            self.finish_game(table, game, result)
        return events, plain

    def leave_game(self, table: Table, action: Action, why: str | None = None) -> None:
        """A person resigned, abandoned the seat or took it back (``action``): applied and
        published like a move; ``why`` notes the seat's new hands in the record."""
        game = table.game
        assert game is not None and table.status == PLAYING
        if why is not None:
            self.seat_changed(table, action.seat, why)
        self._stream(table, *self.apply_action(table, game, action))

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

    def _free_stand_ins(self, table: Table) -> None:
        """The game is over: a computer that stood in for someone leaves the seat, and so
        does a person the table was waiting for; who it stood in for is let go (their
        resume token no longer holds a seat).  A waiting bot's table thus never plays on
        by itself with a stand-in counted as ready.  A person still here (a stand-in played
        for their silence: :mod:`.silence`) has their seat back, and where the game ended."""
        for index, occupant in enumerate(table.seats):
            if occupant is None:
                continue
            person = occupant.stand_in_for if occupant.stand_in else occupant.session
            if occupant.stand_in and person is not None and person.conn is not None and person.table is table:
                table.seats[index] = Seat(person.name, session=person)
                self._outbox.send(person.conn, table.snapshot(index, self._clock()))
                continue
            if occupant.stand_in or (person is not None and person.conn is None and person.held_until is None):
                table.seats[index] = None
                if person is not None and person.table is table:
                    person.table, person.seat = None, None
                    self._sessions.forget(person)

    def _result(self, table: Table, game: Game, events: list[Event]) -> GameResult | None:
        """The result of a game that ``events`` ended (None while it goes on), with the
        server's facts; the ``game_over`` among ``events`` is replaced by the server's
        (:class:`FinishedGameOver`), so every reader of the event reads the same result."""
        live, outcome = table.live, game.outcome
        if outcome is None or live is None:
            return None
        result = self._made_result(table, game)
        for index, event in enumerate(events):
            if event.kind == FinishedGameOver.kind:
                events[index] = FinishedGameOver(result)
        return result

    def _made_result(self, table: Table, game: Game) -> GameResult:
        """The result of ``game`` (over) with the server's facts (see :func:`game_result`)."""
        live, outcome = table.live, game.outcome
        assert live is not None and outcome is not None
        return game_result(outcome, duration_between(live.started_at, self._wall_clock()), live.seats,
                           table.players, game.scores)

    def finish_game(self, table: Table, game: Game, result: GameResult | None = None) -> None:
        """Record a won game as finished and rate it.  Every way a game ends comes here: an
        action (a person's, a computer's or the turn timer's) or the deal itself (under the
        Noddy presets the show comes before the play, so a low target can be reached at once).
        ``result``: the game's, as :meth:`_result` made it (a restored game's is made here)."""
        live = table.live
        outcome = game.outcome
        assert live is not None and outcome is not None
        if result is None:
            result = self._made_result(table, game)
        changes: list = []
        reasons = table.unrated_reasons()
        if reasons:  # see Table.unrated_reasons: only two sides of registered people, no coach
            self._ratings.note_unrated(family_of(table.preset), [code for code, _ in reasons])
        else:
            by_seat = {s["seat"]: _identity_of(s) for s in live.seats}
            sides = [[by_seat[seat] for seat in range(table.players) if game.team_of(seat) == side]
                     for side in (0, 1)]
            changes = self._ratings.rate_game(family_of(table.preset), sides, outcome.winner)
        match = table.match_game_won(outcome)  # (rated per game)
        self._outbox.record(GameFinished(live.game_id, self._wall_clock(), result.to_dict(),
                                         tuple(changes), table.id,
                                         live.seats_with_changes() if live.changes else None,
                                         match=match, log=tuple(game.log)))
        self.results.game_finished(table, live.game_id, live.seats, result.event_dict(), outcome, changes, match)

    def _play(self, table: Table, game: Game, action: Action) -> None:
        """Apply ``action`` and publish its events (a computer player's decision)."""
        self._stream(table, *self.apply_action(table, game, action))

    def _stream(self, table: Table, events: list[Event], plain: list[dict[str, Any]]) -> None:
        """Number and send new game events (see :meth:`_publish`)."""
        self.publish(table, table.record(events), plain)

    def publish(self, table: Table, numbered: list[tuple[int, Event]],
                 plain: list[dict[str, Any]], reply: tuple[int, dict[str, Any]] | None = None) -> None:
        """Send numbered game events to every member, redacted for its seat, then whose turn it is.

        ``plain`` are the events' dicts, which the storage records hold: a public event's
        message carries the same dict (see :meth:`Table.event_messages`), so nothing may
        change either once made.  A member is sent one :class:`Lines` (its events, then the
        turn): one instruction to carry out per member and action, not one per message.
        ``reply``: the connection whose request this answers, and its reply, which goes first
        in that connection's batch."""
        game = table.game
        assert game is not None
        now = self._clock()
        for occupant in table.seats:
            if occupant is not None and occupant.player is not None:
                self._outbox.may_move(table.id)  # a computer player may owe the next move
                break
        # Each member's connection is looked up once, for its events and its turn (nothing
        # in between opens or closes one, or changes who sits where).
        seats: dict[int | None, None] = {}
        recipients: list[tuple[int, int | None, bool]] = []
        text_of = self._outbox.text_of
        for session, seat in table.members():
            seats[seat] = None
            conn_id = session.conn
            text = text_of(conn_id)
            if text is not None:
                assert conn_id is not None
                recipients.append((conn_id, seat, text))
        # Members whose redacted views of an event agree get the very same message object,
        # which the network layer then encodes once (events are mostly public).
        messages = table.event_messages(numbered, seats, plain)
        if numbered and numbered[0][0] is None:
            # A private event first (a claim refused): a member told nothing of this action
            # is sent nothing, not even the turn, which is as it was for them.
            recipients = [r for r in recipients if messages[r[1]]]
            for _, seat, _ in recipients:  # only they are sent their turn again below
                if seat is not None:
                    table.turns_in_flight.pop(seat, None)
        else:
            table.turns_in_flight.clear()  # every awaiting seat is sent its turn again below
        self._silence.published(table, game, now)
        if game.is_over:
            table.status = FINISHED
            table.deadlines.clear()
            self._send_batches(table, recipients, messages, None, reply)
            self._free_stand_ins(table)
            log.info("table %d: game %d won by %s, scores %s", table.id, table.games_played,
                     game.winner, game.scores)
            if table.watchers_chat:  # the players may read the watchers' chat now
                lines, table.watchers_chat = table.watchers_chat, []
                for session, seat in table.members():
                    heard = [message for message, deaf in lines if session not in deaf]
                    if seat is not None and heard:
                        self._outbox.send(session.conn, {"type": "chat_history", "lines": heard})
            self._tables.changed(table)
            if table.match is not None:
                self._report_match_game(table, game)
            return
        if table.match is not None:
            for seat in game.awaiting:
                table.match.turn_sent_to(seat, now, len(game.legal_actions(seat)))
        self._timers.turns_published(table, game, now)
        self._send_batches(table, recipients, messages, table.turn_messages(seats, now), reply)

    def _send_batches(self, table: Table, recipients: list[tuple[int, int | None, bool]],
                      events: dict[int | None, list[dict[str, Any]]],
                      turns: dict[int | None, dict[str, Any]] | None,
                      reply: tuple[int, dict[str, Any]] | None) -> None:
        """Send each recipient its seat's events and then its turn (``turns``: none once the
        game is over) as one batch (one Send), with ``reply`` first in its connection's (or
        alone, if that connection is not among them).  Members with the same view (the
        spectators) share one batch object, so it is encoded once for them.  A seat whose
        turn timer runs gets its batch with a :class:`TurnTimer`: the timer runs from when
        the network layer has written it."""
        put = self._outbox.put
        shared: dict[int | None, Lines] = {}
        deadlines = table.deadlines if turns is not None else None
        for conn_id, seat, text in recipients:
            batch = shared.get(seat)
            if batch is None:
                batch = shared[seat] = Lines((*events[seat], turns[seat]) if turns is not None
                                             else tuple(events[seat]), True)
            if reply is not None and conn_id == reply[0]:
                batch = Lines((reply[1], *batch.messages), True)
                reply = None
            if deadlines and seat in deadlines:
                assert turns is not None and seat is not None
                put(Send(conn_id, batch, text, (), turn_timer(table, seat, conn_id, turns[seat])))
            else:
                put(Send(conn_id, batch, text))
        if reply is not None:
            self._outbox.send(*reply)

    def _report_match_game(self, table: Table, game: Game) -> None:
        """Tell a match table's runner, wherever it is, how the game went (the ``match_game``
        message of :mod:`noddy.server.model.match_plan`)."""
        plan, live, outcome = table.match, table.live, game.outcome
        assert plan is not None and live is not None and outcome is not None
        report = plan.report(table.id, table.games_played, game.seed, live.seats, outcome.to_dict(),
                             [action.to_dict() for action in live.taken], table.players)
        self._outbox.send(plan.runner.conn, report)

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
            self._stream(table, *self.apply_action(table, game, action))

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


def _identity_of(seat: dict[str, Any]) -> Rated:
    """Who a seat's rating belongs to, for a seat as a game record keeps it: a person (or a
    bot, which the seat marks ``"bot": true``) by name, a computer player by level (as :mod:`~noddy.server.core.queries` rates a live seat)."""
    if seat["kind"] == "computer":
        return Rated("computer", seat["level"])
    return Rated("bot" if seat.get("bot") else "human", seat["name"])
