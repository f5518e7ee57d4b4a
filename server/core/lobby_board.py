"""The lobby's board: who is in the lobby now, and the table news waiting to be pushed there.

Owns: the lobby index (sessions that may be in the lobby: connected, at no table; kept so
that a push need not scan every session, and pruned lazily) and the table news gathered
since the last push (:class:`~noddy.server.core.lobby_push.LobbyNews`).  Whoever moves a
session to where it may be in the lobby calls :meth:`arrived`; whoever changes or closes a
table tells :meth:`table_changed` / :meth:`table_closed`; :meth:`tick` pushes the news at
most once a ``lobby_push_interval``.  It also keeps the lobby's last chat lines
(:data:`HISTORY_LINES`), which :meth:`greet` gives whoever enters the lobby (a hello, a
table left), so a latecomer sees what is being talked about; a line from a name the reader
muted (:mod:`.mutes`) is never pushed to them, now or later.
"""

from __future__ import annotations

from collections import deque
from typing import TYPE_CHECKING, Any, Mapping

from .instructions import Send
from .lobby_push import LobbyNews

if TYPE_CHECKING:
    from ..model.table import Session, Table
    from .mutes import Mutes
    from .outbox import Outbox
    from .sessions import Sessions

#: The lobby chat lines kept for whoever enters the lobby.
HISTORY_LINES = 20


class LobbyBoard:
    """The lobby index and its table news; see the module docstring."""

    def __init__(self, interval: float, outbox: Outbox, sessions: Sessions, mutes: Mutes) -> None:
        self._outbox = outbox
        self._sessions = sessions
        self._mutes = mutes
        self._lobby: dict[Session, None] = {}
        self._news = LobbyNews(interval)
        #: The last lobby chat lines (``chat`` messages), oldest first.
        self._history: deque[dict[str, Any]] = deque(maxlen=HISTORY_LINES)

    def arrived(self, session: Session) -> None:
        """``session``'s place changed (it left a table, or came back on a connection): if it
        is now in the lobby (connected, at no table), index it.  Sessions that leave the lobby
        are dropped from the index lazily, by :meth:`sessions`; one already indexed keeps its
        place in the order."""
        if session.table is None and session.conn is not None:
            self._lobby[session] = None

    def sessions(self) -> list[Session]:
        """Connected sessions at no table, from the lobby index (pruned of those gone)."""
        lobby = self._lobby
        is_current = self._sessions.is_current
        out = []
        for s in list(lobby):
            if s.table is None and s.conn is not None and is_current(s):
                out.append(s)
            else:
                del lobby[s]
        return out

    def tell(self, message: dict[str, Any], exclude: Session | None = None) -> None:
        """Push ``message`` to everyone in the lobby at once (not to ``exclude``, nor to those
        who muted its sender): a chat line, kept for :meth:`greet`.  Table news waits for the
        next push (:meth:`table_changed`, :meth:`table_closed`)."""
        send = self._outbox.send
        hears = self._mutes.hears
        self._history.append(message)
        for session in self.sessions():
            if session is not exclude and hears(session, message["from"]):
                send(session.conn, message)

    def greet(self, session: Session) -> None:
        """``session`` entered the lobby: push it the last chat lines (if any were said) as
        one ``chat_history`` message, leaving out the names it muted."""
        hears = self._mutes.hears
        lines = [line for line in self._history if hears(session, line["from"])]
        if lines and session.table is None:
            self._outbox.send(session.conn, {"type": "chat_history", "lines": lines})

    def table_changed(self, table: Table) -> None:
        self._news.changed(table)

    def table_closed(self, message: dict[str, Any]) -> None:
        self._news.closed(message)

    def next_due(self) -> float | None:
        """When the lobby's next push of table news is due, if news is waiting."""
        return self._news.next_due()

    def tick(self, now: float, tables: Mapping[int, Table]) -> None:
        """Push the lobby its table news if some is waiting and the last push was at least
        ``lobby_push_interval`` ago: each changed table's latest ``table`` (or its
        ``table_closed``), as one :class:`~noddy.server.core.instructions.Lines` object that
        every lobby connection is sent, so the network layer encodes it once (once for JSON,
        once for text) and writes it to each connection in one write."""
        lines = self._news.take(now, tables)  # type: ignore[arg-type]
        if lines is None:
            return
        outbox = self._outbox
        text_of = outbox.text_of
        put = outbox.put
        for session in self.sessions():
            text = text_of(session.conn)
            if text is not None:
                assert session.conn is not None
                put(Send(session.conn, lines, text))
