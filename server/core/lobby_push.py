"""The lobby's news of the tables, gathered and pushed at most once an interval.

Owns: :class:`LobbyNews`, the tables that changed (or closed) since the lobby was last told,
and when it may be told next.  :class:`~noddy.server.core.lobby_board.LobbyBoard` keeps one and notes every change
here (``Tables.changed``, and ``TableClosing.close_table``'s ``table_closed``) and, from
``tick``, hands what :meth:`LobbyNews.take` returns to every connection in the lobby.

Why: pushing every table change to every lobby connection at once made the cost of one
change grow with the lobby -- creating and filling one table cost ~2,000 lines and ~50 ms
of server CPU with 1,000 people idle in the lobby, and a busy server's lobby grows with its
tables, so the whole grew as the square of the crowd.  Gathered, a table that changed ten
times in an interval is pushed once, in its latest state, and one interval's news is one
:class:`~noddy.server.core.instructions.Lines` object that the network layer encodes once and
writes to each lobby connection in one write.

What a lobby member can rely on (docs/PROTOCOL.md, Lobby and tables, says it for clients):

* at most one push per ``lobby_push_interval`` (whatever the number of tables in it): the
  ``table`` message of each table that changed since the last push, carrying its state at
  the time of the push (never an older one than anything sent before it), or its
  ``table_closed`` if it closed meanwhile (a table that opened and closed within one
  interval is pushed as closed only);
* a change is pushed within ``lobby_push_interval`` plus one ``tick_interval``;
* the same lines go to every lobby member, whoever is in the lobby at the push; a
  connection that comes to the lobby (``hello``, ``leave``...) asks ``list_tables`` for the
  whole picture, and every push after that reply is newer than it.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

from ..model.table_options import unlisted
from .instructions import Lines

if TYPE_CHECKING:
    from ..model.table import Table


class LobbyNews:
    """The tables changed since the last lobby push, by id, in the order they first changed.

    A table's entry is None (its summary is taken at the push from the table open under its
    id then, so the lobby sees its latest state, even of a table rebuilt after a failed
    write: see ``Recovery.repaired``) or, once it has closed, its ``table_closed`` message."""

    def __init__(self, interval: float) -> None:
        #: Seconds between two pushes at least (0: at every tick that has news).
        self.interval = interval
        self._changed: dict[int, dict[str, Any] | None] = {}
        #: When the next push may go (a change after a quiet spell goes at the next tick).
        self._next = -math.inf

    def __len__(self) -> int:
        """How many tables have news waiting."""
        return len(self._changed)

    def changed(self, table: Table) -> None:
        """``table`` changed: the next push carries its state as it is then."""
        if table.id not in self._changed:
            self._changed[table.id] = None

    def closed(self, message: dict[str, Any]) -> None:
        """A table closed (``message`` is its ``table_closed``): the next push carries that."""
        self._changed[message["table"]] = message

    def next_due(self) -> float | None:
        """When the next push may go, if news is waiting for one."""
        return self._next if self._changed else None

    def take(self, now: float, tables: dict[int, Table]) -> Lines | None:
        """The lines of a push due by ``now`` (``tables``: the open tables), or None if
        nothing changed or the last push was less than ``interval`` ago.  Taking them
        empties the news, pushed or not (nobody in the lobby: nobody to tell)."""
        if not self._changed or now < self._next:
            return None
        self._next = now + self.interval
        messages: list[dict[str, Any]] = []
        for table_id, closed in self._changed.items():
            if closed is not None:
                messages.append(closed)
            else:
                table = tables.get(table_id)
                # (Closed unannounced, at shutdown, or unlisted: nothing to say.)
                if table is not None and not unlisted(table.options):
                    messages.append({"type": "table", "table": table.summary()})
        self._changed.clear()
        return Lines(tuple(messages)) if messages else None
