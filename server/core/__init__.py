"""The server core: lobby, tables and games as a sans-IO state machine.

Theory of operation
===================

The core never touches a socket, a clock it was not given, or a thread.  The network layer
(:mod:`noddy.server.net.network`) tells it what happened and carries out what it returns:

* ``connect(address)`` -> a new connection id (and the greeting to send, or a
  ``too_many_connections`` error and a close when the address holds too many already);
* ``receive(conn, line)`` -> one line from a connection;
* ``line_too_long(conn)`` / ``disconnect(conn)`` -> the connection broke its limit / went away;
* ``tick()`` -> time passed: grace periods, turn timers and keepalive are checked;
* ``take_bot_jobs()`` / ``bot_moved(job, action)`` -> computer players are asked to decide
  off the event loop and their decisions come back (ignored if the game moved on meanwhile);
* ``shutdown()`` -> goodbye to everyone (the tables stay stored, to be restored);
* ``restore(state)`` -> once, before any connection: the open tables, games and ratings that
  storage kept (:mod:`noddy.server.storage`), rebuilt by replaying each game's actions.

Each call returns a list of :class:`Send` and :class:`Close` instructions, and may return
:class:`Query` instructions: a reply that needs stored data, which the network layer reads
and gives back to ``answer(query, result)``.  Each call may also leave *storage records*
(:mod:`noddy.server.storage.records`: tables, games, actions, ratings) for ``take_records()``; the
network layer must have them written before it carries out that call's instructions, so what
anyone was told has happened is always on disk first.  Every request is
validated completely before anything changes (the engine does the same for actions), so a
refused request changes nothing and the connection stays open; only ``line_too_long``,
``flood`` and ``too_many_connections`` close a connection.

Who hears what: a request gets exactly one direct reply (its result or an ``error``, with the
request's ``id``).  Changes are pushed: a table's summary to its members at once, and to
everyone in the lobby gathered, at most once a ``lobby_push_interval``, from ``tick``
(:mod:`~noddy.server.core.lobby_push`); game ``event`` and ``turn`` messages to the table's
members, each redacted for the member's own seat (:mod:`noddy.server.model.table`).

Where each part lives
=====================

:class:`ServerCore` is one object, composed here of one mixin per concern over a shared
base; each module opens with what it owns and which state it may touch:

* :mod:`~noddy.server.core.core_state` -- all the state, and the plumbing every concern sends
  through (``_send``, ``_reply``, pushes to a table and the lobby, ``_flush``, the lobby index);
* :mod:`~noddy.server.core.connections` -- ``connect``, ``receive`` (rate limit, text mode, request
  dispatch), ``line_too_long``, ``disconnect``, ``shutdown``, keepalive;
* :mod:`~noddy.server.core.lobby` -- ``hello`` and names, the welcome, ``list_tables``, chat, ``bye``;
* :mod:`~noddy.server.core.seating` -- making tables, sitting, watching, leaving, computer players,
  readiness, settings, held seats, closing tables;
* :mod:`~noddy.server.core.gameplay` -- dealing, actions, publishing, turn timers, ``take_bot_jobs``
  and ``bot_moved``;
* :mod:`~noddy.server.core.queries` -- ``list_games``, ``get_game``, ``leaderboard`` and ``answer``;
* :mod:`~noddy.server.core.recovery` -- ``restore``, ``unstored`` and the repair of paused tables;
* :mod:`~noddy.server.core.coaching` -- the coach: ``hint`` and ``review``;
* :mod:`~noddy.server.core.instructions` -- :class:`Send`, :class:`Close`, :class:`Query`,
  :class:`BotJob`, re-exported here.

A request ``{"type": "sit", ...}`` is handled by ``_on_sit`` in whichever module owns it
(``grep -n "def _on_sit" server/*.py``); ``tick`` below is the one entry point that every
concern has a part in.
"""

from __future__ import annotations

from .coaching import Coaching
from .connections import Connections
from .gameplay import Gameplay
from .instructions import BotJob, Close, Out, Query, Send
from .lobby import Lobby
from .queries import Queries
from .recovery import Recovery
from .seating import Seating

__all__ = ["BotJob", "Close", "Out", "Query", "Send", "ServerCore"]


class ServerCore(Connections, Lobby, Seating, Gameplay, Queries, Recovery, Coaching):
    """Every connection, session and table of one server; see the module docstring."""

    def tick(self) -> list[Out]:
        """Time passed: each concern looks at what is due by now, in this order.  Only what is
        due is looked at: held seats, turn timers and connections each wait in a heap ordered
        by when they are due (a stale entry is checked and skipped)."""
        now = self.clock()
        self._tick_held(now)  # seating: grace periods over
        self._tick_turn_timers(now)  # gameplay: turn timers, and the computer players' sweep
        self._tick_repairs(now)  # recovery: paused tables due a look
        self._tick_keepalive(now)  # connections: ping or drop the silent
        self._tick_lobby(now)  # core_state: the lobby's table news, last (this tick's too)
        return self._flush()
