"""Computer players' jobs: which seats owe a decision, handing each out once, and taking the
decision back.

Split from :mod:`.gameplay` by what it does: the game applies and publishes actions; this
part finds the computer players whose turn it is and plays what they chose (through the
game's own ``play`` callback, so a computer's move is applied, stored and published like
anyone's).  A decision is made off the event loop (a :class:`BotJob`), so the table may have
moved on by the time it comes back: a stale one is dropped.

Which tables to look at: every change marks its table (the outbox's ``may_move``), and only
those are scanned; :meth:`ComputerPlayers.sweep` marks every playing table now and then as a
safety net.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Callable

from noddy.engine import Action, Game

from ..model.table import PLAYING, Table
from .instructions import BotJob

if TYPE_CHECKING:
    from .outages import PausedTables
    from .outbox import Outbox
    from .tables import Tables

log = logging.getLogger("noddy.server")

#: Seconds between the sweeps that mark every playing table for a look: every change marks
#: its table already, so this is only a safety net and once a second is plenty.
SWEEP_INTERVAL = 1.0


class ComputerPlayers:
    """The computer players' decisions owed and made; see the module docstring."""

    def __init__(self, outbox: Outbox, tables: Tables, paused: PausedTables,
                 play: Callable[[Table, Game, Action], None]) -> None:
        self._outbox = outbox
        self._tables = tables
        self._paused = paused
        #: Applies and publishes an action at a table (the game's).
        self._play = play
        #: When :meth:`sweep` next marks every playing table (a safety net).
        self._next_sweep = 0.0

    def sweep(self, now: float) -> None:
        """Now and then mark every playing table for :meth:`take_bot_jobs`."""
        if now >= self._next_sweep:
            self._next_sweep = now + SWEEP_INTERVAL
            for table in self._tables.values():
                if table.status == PLAYING:
                    self._outbox.may_move(table.id)

    def take_bot_jobs(self) -> list[BotJob]:
        """Decisions computer players owe now; each is handed out once."""
        jobs: list[BotJob] = []
        # Only tables that changed since the last call can owe a decision (tick() adds every
        # playing table as a safety net): scanning all tables per request was the hot spot.
        check = self._outbox.take_bot_check()
        if check is None:  # the usual case after a request at a table of people
            return jobs
        for table_id in check:
            table = self._tables.get(table_id)
            if table is None:
                continue
            game = table.game
            if table.status != PLAYING or game is None or table_id in self._paused:
                continue
            for seat in game.awaiting:
                occupant = table.seats[seat]
                if occupant is None or occupant.player is None or seat in table.thinking:
                    continue
                table.thinking.add(seat)
                jobs.append(BotJob(table.id, table.games_played, seat, occupant.player,
                                   game.observation(seat), game.rules))
        return jobs

    def bot_moved(self, job: BotJob, action: Action | None) -> None:
        """A computer player decided (``None``: it failed).  Stale decisions are dropped."""
        table = self._tables.get(job.table_id)
        if table is None or table.games_played != job.game_number:
            return
        table.thinking.discard(job.seat)
        self._outbox.may_move(table.id)
        game = table.game
        occupant = table.seats[job.seat]
        if (table.status != PLAYING or game is None or occupant is None or table.id in self._paused
                or occupant.player is not job.player or job.seat not in game.awaiting):
            return
        legal = game.legal_actions(job.seat)
        if action not in legal:
            log.error("computer player %s at table %d seat %d chose %r; playing %s instead",
                      occupant.level, table.id, job.seat + 1, action, legal[0])
            action = legal[0]
        self._play(table, game, action)
