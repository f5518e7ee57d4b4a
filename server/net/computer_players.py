"""Computer players: each decision made in a worker thread, its move handed back to the core.

A computer player's level may think for a long time, so its :class:`~noddy.server.core.BotJob`
runs in a worker thread (``asyncio.to_thread``) and never blocks the event loop; its move
goes back to the core like any request, through the server's storage gating.  A match
runner's server (``computers_inline``) runs it on the loop instead, in a task of its own:
the thread's hop and the wait for the GIL cost a quarter of such a server's CPU.

:class:`ComputerPlayers` is a mixin of :class:`~noddy.server.net.network.NoddyServer`: the server
calls ``_run_bots`` with the jobs of every core call (its ``Effects.jobs``),
and cancels what is still thinking at shutdown.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable

from ..config import ServerConfig
from ..core import ServerCore
from ..core.instructions import BotJob

#: The network layer's one logger (operators and tests filter on its name).
log = logging.getLogger("noddy.server.net.network")


class ComputerPlayers:
    """Runs the core's computer-player jobs off the loop and applies their moves."""

    #: Set by the server (a dataclass field; never None once it is constructed).
    core: ServerCore | None
    #: The server's way of carrying out a core call's instructions (see ``NoddyServer._apply``).
    _apply: Callable[..., None]
    #: The server's configuration (for ``computers_inline``).
    config: ServerConfig

    def _init_computer_players(self) -> None:
        """No player thinking yet; called once by the server's constructor."""
        #: The decisions being made (cancelled at shutdown).
        self._bots: set[asyncio.Task[None]] = set()

    def _run_bots(self, jobs: list[BotJob]) -> None:
        """Start thinking for the computer players a core call has given a turn."""
        for job in jobs:
            task = asyncio.create_task(self._bot(job))
            self._bots.add(task)
            task.add_done_callback(self._bots.discard)

    async def _bot(self, job: BotJob) -> None:
        """Make one decision off the loop.  A player that raises is logged and reported to the
        core as ``None`` (see ``ServerCore.bot_moved``), so one broken level cannot stall its table."""
        assert self.core is not None
        try:
            action = job.run() if self.config.computers_inline else await asyncio.to_thread(job.run)
        except Exception:
            log.exception("computer player at table %d seat %d failed", job.table_id, job.seat + 1)
            action = None
        self._apply(self.core.bot_moved(job, action))
