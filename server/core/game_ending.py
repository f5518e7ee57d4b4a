"""The end of a game: its result, recording and rating it, and what the table does once the
last events are out.

Split from :mod:`.gameplay` by what it does: the game deals and applies actions; this part
says what a won game came to and settles it.  Every way a game ends comes here: an action (a
person's, a computer's or the turn timer's), the deal itself, or a restore that finds a game
already won (:mod:`.recovery`).

A finished game's result is the server's one :class:`~noddy.server.model.result.GameResult`
(the engine's outcome and the server's facts): the ``game_over`` event and the stored result
are made from it, and the rating reads its outcome.  When the publisher (:mod:`.publishing`)
has sent the members the game's last events, :meth:`GameEnding.last_events_sent` frees the
stand-ins' seats, gives the players the watchers' chat, announces the table, tells each
person of a rated game their rating change (:mod:`.results`) and tells a match
table's runner how the game went -- in that order, after the events, so nobody hears of the
end before the move that made it.

Owns no state of its own.  Collaborators (passed in): the outbox, the open tables (a change
is announced there), the rating book (a finished game is rated by its ``rate_game``), the
sessions (a person a computer stood in for is let go when the game ends: their seat is freed)
and the results (told to people not at the table: :mod:`.results`).
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any, Callable

from noddy.engine import Event, Game

from ..model.ratings import Rated, RatingBook, family_of
from ..model.result import FinishedGameOver, GameResult, duration_between, game_result
from ..model.table import Seat, Table
from ..storage.records import GameFinished

if TYPE_CHECKING:
    from .outbox import Outbox
    from .results import Results
    from .sessions import Sessions
    from .tables import Tables

log = logging.getLogger("noddy.server")


class GameEnding:
    """Games' results, and settling a won game; see the module docstring."""

    def __init__(self, clock: Callable[[], float], wall_clock: Callable[[], float], outbox: Outbox,
                 tables: Tables, ratings: RatingBook, sessions: Sessions, results: Results) -> None:
        self._clock = clock
        self._wall_clock = wall_clock
        self._outbox = outbox
        self._tables = tables
        self._ratings = ratings
        self._sessions = sessions
        self._results = results

    def result(self, table: Table, game: Game, events: list[Event]) -> GameResult | None:
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
        ``result``: the game's, as :meth:`result` made it (a restored game's is made here)."""
        live = table.live
        outcome = game.outcome
        assert live is not None and outcome is not None
        if result is None:
            result = self._made_result(table, game)
        changes: list = []
        reasons = table.unrated_reasons()
        table.last_game_terms = table.rating_terms()  # what the finished table says of this game
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
        self._results.game_finished(table, live.game_id, live.seats, result.event_dict(), outcome, changes,
                                    match)

    def last_events_sent(self, table: Table, game: Game) -> None:
        """The members have been sent the won game's last events: free the stand-ins' seats,
        give the players the watchers' chat, announce the table and report a match game."""
        self._free_stand_ins(table)
        log.info("table %d: game %d won by %s, scores %s", table.id, table.games_played,
                 _winners_words(table, game), " to ".join(str(score) for score in game.scores))
        if table.watchers_chat:  # the players may read the watchers' chat now
            lines, table.watchers_chat = table.watchers_chat, []
            for session, seat in table.members():
                heard = [message for message, deaf in lines if session not in deaf]
                if seat is not None and heard:
                    self._outbox.send(session.conn, {"type": "chat_history", "lines": heard})
        self._tables.changed(table)
        self._results.last_events_sent(table)  # each person's rating change, after the end
        if table.match is not None:
            self._report_match_game(table, game)

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

    def _report_match_game(self, table: Table, game: Game) -> None:
        """Tell a match table's runner, wherever it is, how the game went (the ``match_game``
        message of :mod:`noddy.server.model.match_plan`)."""
        plan, live, outcome = table.match, table.live, game.outcome
        assert plan is not None and live is not None and outcome is not None
        report = plan.report(table.id, table.games_played, game.seed, live.seats, outcome.to_dict(),
                             [action.to_dict() for action in live.taken], table.players)
        self._outbox.send(plan.runner.conn, report)


def _winners_words(table: Table, game: Game) -> str:
    """Who won, as the log says it to a person: ``ben (seat 2)``, ``ann & cy (seats 1 and 3)``
    -- names as dealt, seats counted from 1 (``game.winner`` is a side counted from 0)."""
    outcome, live = game.outcome, table.live
    assert outcome is not None
    names = {s["seat"]: s["name"] for s in live.seats} if live is not None else {}
    seats = list(outcome.winning_seats) or [outcome.winner]
    who = " & ".join(names.get(seat) or f"seat {seat + 1}" for seat in seats)
    numbers = " and ".join(str(seat + 1) for seat in seats)
    return f"{who} ({'seats' if len(seats) > 1 else 'seat'} {numbers})"


def _identity_of(seat: dict[str, Any]) -> Rated:
    """Who a seat's rating belongs to, for a seat as a game record keeps it: a person (or a
    bot, which the seat marks ``"bot": true``) by name, a computer player by level (as
    :mod:`~noddy.server.core.queries` rates a live seat)."""
    if seat["kind"] == "computer":
        return Rated("computer", seat["level"])
    return Rated("bot" if seat.get("bot") else "human", seat["name"])
