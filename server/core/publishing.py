"""Publishing a game's events: every member is sent what its seat may see, then whose turn it is.

Split from :mod:`.gameplay` by what it does: the game deals and applies actions; this part
tells the table.  Gameplay publishes each action applied (a person's, a computer's, the turn
timer's, a person leaving), and seating, matchmaking and club tables publish the deal of a
game they started (:meth:`Gameplay.start_game` returns its events for them to publish, after
they have told the table of the new game).

This is the hot path.  :meth:`Publisher.publish` builds each message once and appends the
:class:`Send` instructions itself, one per member: a :class:`Lines` batch of its events and
turn (the actor's led by its ``ok``), the messages shared between the members' batches, an
event redacted for each seat (:meth:`Table.event_messages`).  Keep it that way: one
instruction per member and action is what the network layer can carry out cheaply.

Owns no state of its own: it moves the table's turn bookkeeping (``turns_in_flight``,
``deadlines``, its status once the game is won) as each publication changes it.
Collaborators (passed in): the clock, the outbox, the turn timers (told of each turn
published), the seats' silence (likewise: :mod:`.silence`) and the game's ending
(:mod:`.game_ending`: what follows the last events of a won game).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable

from noddy.engine import Event

from ..model.table import FINISHED, Table
from .instructions import Lines, Send
from .turn_timers import turn_timer

if TYPE_CHECKING:
    from .game_ending import GameEnding
    from .outbox import Outbox
    from .silence import Silence
    from .turn_timers import TurnTimers


class Publisher:
    """Sends game events to a table's members; see the module docstring."""

    def __init__(self, clock: Callable[[], float], outbox: Outbox, timers: TurnTimers, silence: Silence,
                 ending: GameEnding) -> None:
        self._clock = clock
        self._outbox = outbox
        self._timers = timers
        self._silence = silence
        self._ending = ending

    def stream(self, table: Table, events: list[Event], plain: list[dict[str, Any]]) -> None:
        """Number and send new game events (see :meth:`publish`)."""
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
            self._ending.last_events_sent(table, game)
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
