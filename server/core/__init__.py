"""The server core: lobby, tables and games as a sans-IO state machine.

Theory of operation
===================

The core never touches a socket, a clock it was not given, or a thread.  The network layer
(:mod:`noddy.server.net.network`) tells it what happened and carries out what it returns:

* ``connect(address)`` -> a new connection id (and the greeting to send, or a
  ``too_many_connections`` error and a close when the address holds too many already);
* ``receive(conn, line)`` -> one JSON line from a connection; ``receive_request(conn,
  request)`` -> a line a person typed, already read by the text adapter at the edge
  (:mod:`noddy.server.text`), which also renders what the core sends such a connection;
* ``line_too_long(conn)`` / ``disconnect(conn)`` -> the connection broke its limit / went away;
* ``tick()`` -> time passed: grace periods, turn timers, seats silent on their turn (the
  others are told) and keepalive (pings to JSON clients; a connection silent before its
  first line) are checked;
* ``turns_sent(timers)`` -> the network layer has written Sends that carried a seat's turn
  (their ``TurnTimer``): a turn timer runs from when its turn was written, not computed;
* ``bot_moved(job, action)`` -> a computer player's decision, made off the event loop, comes
  back (ignored if the game moved on meanwhile);
* ``answer(query, result)`` -> storage read what a :class:`Query` asked for;
* ``password_done(work, result)`` -> the hashing worker checked or hashed an account
  password (a :class:`PasswordWork` of ``Effects.passwords``), apart from storage;
* ``shutdown()`` -> goodbye to everyone (the tables stay stored, to be restored);
* ``restore(state)`` -> once, before any connection: the open tables, games and ratings that
  storage kept (:mod:`noddy.server.storage`), rebuilt by replaying each game's actions;
* ``unstored(tables, origin)`` -> a call's storage records could not be written.

Each call returns one :class:`Effects`: its :class:`Send`, :class:`Close` and :class:`Query`
instructions, its *storage records* (:mod:`noddy.server.storage.records`: tables, games,
actions, ratings), the computer players' :class:`BotJob` it made due, and the request it
handled.  The network layer must have the records written before it carries out the
instructions, so what anyone was told has happened is always on disk first.  Every request
is validated completely before anything changes (the engine does the same for actions), so
a refused request changes nothing and the connection stays open; only ``line_too_long``,
``flood``, ``too_many_connections`` and silence before the first line close a connection
(silence after it never does: TCP keepalive at the edge finds a dead peer).

Who hears what: a request gets exactly one direct reply (its result or an ``error``, with the
request's ``id``).  Changes are pushed: a table's summary to its members at once, and to
everyone in the lobby gathered, at most once a ``lobby_push_interval``, from ``tick``
(:mod:`.lobby_board`); game ``event`` and ``turn`` messages to the table's members, each
redacted for the member's own seat (:mod:`noddy.server.model.table`).

Where each part lives
=====================

Each part is an object that owns its state and is the only code that changes it; the others
are passed to its constructor, and :class:`ServerCore` (:mod:`.facade`) builds and wires
them, so every seam is in a constructor:

* rooms of state others read: :mod:`.connections` (open connections, keepalive heap),
  :mod:`.sessions` (sessions and names), :mod:`.tables` (open tables, and announcing a
  change), :mod:`.lobby_board` (the lobby index and its table news), :mod:`.outages` (paused
  and lost tables), :mod:`.outbox` (the current call's instructions and records);
* parts that handle requests, each declaring its own in ``handlers()``:
  :mod:`.reception` (every line in: rate limit, reading, dispatch; ``ping``, ``pong``,
  ``language``, whose reading is :mod:`.languages`),
  :mod:`.lobby` (``hello``, ``list_tables``, ``chat``, ``bye``), :mod:`.seating` (tables,
  seats, watchers, computers, readiness, settings), with :mod:`.leaving` (going for good:
  ``leave``, ``resign_match``, a watcher's place ended, a match given up), :mod:`.held_seats`
  (a lost connection's place held for the grace period) and :mod:`.table_closing` (closing a
  table), :mod:`.stand_ins`
  (a person leaving mid-game: resigning, a computer standing in, the seat taken back;
  ``stand_in``), with :mod:`.silence` (how long the person to move has said nothing),
  :mod:`.gameplay` (``action``, ``snapshot``, dealing, playing for a timed-out seat, computer
  players' jobs), with :mod:`.turn_timers` (when each seat's turn timer runs out),
  :mod:`.publishing` (every member sent its seat's view of a game's events, then its turn:
  the hot path) and :mod:`.game_ending` (a won game's result, record and rating),
  :mod:`.queries` (``list_games``, ``get_game``, ``leaderboard``), :mod:`.coaching`
  (``hint``, ``review``), :mod:`.accounts` (registered names; ``register``,
  ``change_password``, ``unregister``), and :mod:`.recovery` (restore, paused tables' repair).

A request ``{"type": "sit", ...}`` is handled by the method its part's ``handlers()`` names
(``grep -n '"sit"' server/core/*.py``); a request type without a handler stops the core from
being built.  ``tick`` in :mod:`.facade` is the one entry point every part has a share in.
"""

from __future__ import annotations

from .facade import ServerCore
from .instructions import BotJob, Close, Effects, Out, PasswordResult, PasswordWork, Query, Send

__all__ = ["BotJob", "Close", "Effects", "Out", "PasswordResult", "PasswordWork", "Query", "Send",
           "ServerCore"]
