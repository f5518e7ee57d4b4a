"""Results told to the people who were not there: whoever resigned, gave a match up, or
left a seat never taken back (issue 33, item 4); and each rating change of a rated game told
to its person, who otherwise read only ``That game was rated.``.

The people at a table read its ``game_over``; the person who left never did, and came back
(if at all) to a plain lobby.  This part sends each of them a ``game_result`` push
(:func:`noddy.protocol.results.result_message`): at once if they are connected anywhere (the
one who resigned is, back in the lobby), else when they next say hello under the name (a
login with the password, a resume, or a guest taking the name again) -- kept in memory,
not across a restart, at most :data:`MAX_WAITING_RESULTS` of them.

Those at the table when a rated game ends are sent the push saying their rating change
(``"why": "finished"``) once the table's last events are out (:meth:`Results.last_events_sent`).

Owns: the results waiting for their people.  Collaborators (passed in): the outbox and the
sessions (who is connected under a name).
"""

from __future__ import annotations

import logging
from collections import OrderedDict
from typing import TYPE_CHECKING, Any, Sequence

from noddy.engine import Outcome
from noddy.protocol.names import skeleton
from noddy.protocol.results import result_message

from ..model.ratings import Change
from ..model.table import Session, Table

if TYPE_CHECKING:
    from .outbox import Outbox
    from .sessions import Sessions

log = logging.getLogger("noddy.server")

#: Results kept for people not connected when their game ended.  A bound, so a server up for
#: months does not keep one for every guest who left and never came back: the oldest go first.
MAX_WAITING_RESULTS = 1000


class Results:
    """The results sent to people who were not at their table's end; see the module docstring."""

    def __init__(self, outbox: Outbox, sessions: Sessions) -> None:
        self._outbox = outbox
        self._sessions = sessions
        #: The result waiting for each name (by its skeleton), oldest first.
        self._waiting: OrderedDict[str, dict[str, Any]] = OrderedDict()
        #: By table id: the rating changes for the people at the table when its rated game
        #: ended, sent once the table has its last events (:meth:`last_events_sent`).
        self._at_table: dict[int, list[tuple[str, dict[str, Any]]]] = {}

    def game_finished(self, table: Table, game_id: int, seats: Sequence[dict[str, Any]],
                      over: dict[str, Any], outcome: Outcome, changes: Sequence[Change],
                      match: dict[str, Any] | None) -> None:
        """A game ended: each person who resigned it, or whose seat was left and never taken
        back, is told its result (``seats``: the seats as dealt); the rating changes of those
        at the table wait for :meth:`last_events_sent`."""
        names: list[str | None] = [None] * table.players
        for entry in seats:
            names[entry["seat"]] = entry["name"]
        gone = dict([(seat, "resigned") for seat in outcome.resigned] +
                    [(seat, "abandoned") for seat in outcome.abandoned])
        at_table: list[tuple[str, dict[str, Any]]] = []
        for entry in seats:
            if entry["kind"] != "human":
                continue
            seat, why = entry["seat"], gone.get(entry["seat"])
            change = next((c for c in changes if c.identity.kind != "computer" and c.identity.name == entry["name"]),
                          None)
            rating = None if change is None else {"family": change.family, "before": change.before,
                                                  "after": change.after}
            holder = self._sessions.holder(entry["name"])
            if why is None or (holder is not None and holder.conn is not None and holder.table is table):
                # At the table (or here after all: a computer played for their silence): they
                # read the result there, but not their own rating change.
                if rating is not None:
                    at_table.append((entry["name"], result_message(
                        table.id, game_id, seat, names, "finished", over, match, rating, table.partnerships)))
                continue
            self.tell(entry["name"], result_message(table.id, game_id, seat, names, why, over, match, rating,
                                                    table.partnerships))
        self._at_table[table.id] = at_table

    def last_events_sent(self, table: Table) -> None:
        """``table``'s members have read its game's end: each person of a rated game who was at
        the table is told their rating change (after the end, never before it)."""
        for name, message in self._at_table.pop(table.id, []):
            self.tell(name, message)

    def match_given_up(self, table: Table, seat: int, name: str, match: dict[str, Any]) -> None:
        """``name`` (in ``seat``) gave up the match going on at ``table`` between its games."""
        names = list(table.running_match.names) if table.running_match is not None else []
        game_id = table.game_id or 0
        self.tell(name, result_message(table.id, game_id, seat, names, "match_given_up", None, match, None,
                                       table.partnerships))

    def tell(self, name: str, message: dict[str, Any]) -> None:
        """Send ``message`` to ``name`` if connected, else keep it for their next hello."""
        holder = self._sessions.holder(name)
        if holder is not None and holder.conn is not None:
            self._outbox.send(holder.conn, message)
            return
        key = skeleton(name)
        self._waiting.pop(key, None)
        self._waiting[key] = message
        while len(self._waiting) > MAX_WAITING_RESULTS:
            self._waiting.popitem(last=False)
        log.info("the result of game %d waits for %s", message["game"], name)

    def deliver(self, session: Session) -> None:
        """``session`` has just been welcomed: the result waiting for its name, if any."""
        message = self._waiting.pop(skeleton(session.name), None)
        if message is not None:
            self._outbox.send(session.conn, message)
